#!/usr/bin/env python3
"""Random CUDA kernels without undefined behaviour, for fuzzing ptxopt.

    python3 gen_cuda.py SEED > k.cu

`generate(seed)` returns the source of one `extern "C" __global__` kernel
named `k<SEED>` (same seed, same text). The kernel computes only defined
values for any launch shape and any buffer contents `ptxopt verify`
generates:

- loops have bounded trip counts (at most 17, fewer when nested), memory
  indexes are masked into the input buffers (`& 1023u`) or into the thread's
  own output slots (`gid * 4u + (x & 3u)`), divisors are never zero and
  signed division never overflows;
- shared memory is used only at uniform control flow, with `__syncthreads()`
  around it and indexes taken modulo the thread count;
- atomics go to `acc` and `uacc` only, and each of the two buffers gets one
  atomic kind per kernel (`acc_op`, `uacc_op`): mixing kinds on one address
  (say atomicAdd and atomicMax) makes the result depend on the order of the
  threads, which an optimizer may change legitimately; their results are
  never read back inside the kernel.
"""
import random

from common import cli

TRIPS = [0, 1, 3, 4, 5, 7, 8, 17]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.small = seed % 2 == 0
        self.acc_op = self.r.choice(["atomicAdd", "atomicAdd", "atomicOr", "atomicXor", "atomicMax", "atomicMin"])
        self.uacc_op = self.r.choice(["atomicAdd", "atomicAdd", "atomicOr", "atomicXor", "atomicMax", "atomicMin"])
        self.lines = []
        self.ind = 1
        self.nv = 0
        self.uvars = []
        self.svars = []
        self.fvars = []
        self.dvars = []
        self.wvars = []
        self.loopvars = []  # (name, signed)
        self.has_local = False
        self.has_shared = False
        self.stmt_budget = 0
        self.iter_mult = 1  # product of max trip counts of enclosing loops

    # ------------------------------------------------------------ helpers
    def ch(self, *xs):
        return self.r.choice(xs)

    def p(self, prob):
        return self.r.random() < prob

    def emit(self, s):
        self.lines.append("  " * self.ind + s)

    def fresh(self, pre):
        self.nv += 1
        return "%s%d" % (pre, self.nv)

    # ------------------------------------------------------------ expressions
    def uconst(self):
        return self.ch("0u", "1u", "2u", "3u", "7u", "8u", "31u", "255u", "1023u",
                       "0xffffffffu", "0x80000000u", "0x7fffffffu", "12345u",
                       "0x9e3779b9u", "%du" % self.r.randint(0, 100000))

    def uleaf(self):
        k = self.r.randint(0, 20)
        if k >= 14:
            if self.loopvars and k >= 18:
                return "(unsigned)" + self.ch(*self.loopvars)[0]
            if self.uvars:
                return self.ch(*self.uvars)
        if k == 0 or not self.uvars:
            return self.uconst()
        if k <= 3:
            return self.ch(*self.uvars)
        if k == 4 and self.svars:
            return "(unsigned)" + self.ch(*self.svars)
        if k == 5 and self.loopvars:
            return "(unsigned)" + self.ch(*self.loopvars)[0]
        if k == 6:
            return self.ch("tid", "gid", "threadIdx.x", "blockIdx.x", "nth", "(unsigned)n", "m")
        if k == 7:
            return "ui[(%s) & 1023u]" % self.uexpr(1)
        if k == 8:
            return "(unsigned)ii[(%s) & 1023u]" % self.uexpr(1)
        if k == 9 and self.fvars:
            return "__float_as_uint(%s)" % self.ch(*self.fvars)
        if k == 10 and self.wvars:
            w = self.ch(*self.wvars)
            return self.ch("(unsigned)%s" % w, "(unsigned)(%s >> 32)" % w,
                           "(unsigned)(%s >> %d)" % (w, self.r.randint(1, 63)))
        if k == 11 and self.has_local:
            return "la[(%s) & 7u]" % self.uexpr(1)
        if k == 12:
            # aliasing read of our own output slots
            return self.ch("uo[gid * 4u + ((%s) & 3u)]" % self.uexpr(1),
                           "(unsigned)io[gid * 4u + ((%s) & 3u)]" % self.uexpr(1))
        if self.loopvars:
            return "(unsigned)" + self.ch(*self.loopvars)[0]
        return self.ch(*self.uvars)

    def uexpr(self, d=2):
        if self.small:
            d = min(d, 1)
        if d <= 0 or self.p(0.3):
            return self.uleaf()
        a = self.uexpr(d - 1)
        k = self.r.randint(0, 27)
        if k <= 4:
            op = self.ch("+", "-", "*", "^", "&", "|")
            return "(%s %s %s)" % (a, op, self.uexpr(d - 1))
        if k == 5:
            return "(%s << (%s & 31u))" % (a, self.uexpr(d - 1))
        if k == 6:
            return "(%s >> (%s & 31u))" % (a, self.uexpr(d - 1))
        if k == 7:
            return "(%s << %d)" % (a, self.r.randint(0, 31))
        if k == 8:
            return "(%s >> %d)" % (a, self.r.randint(0, 31))
        if k == 9:
            return "(%s / %du)" % (a, self.ch(2, 3, 4, 5, 7, 10, 16, 255, 1000003))
        if k == 10:
            return "(%s %% %du)" % (a, self.ch(2, 3, 4, 5, 7, 10, 16, 255, 1000003))
        if k == 11:
            return "(%s / (%s | 1u))" % (a, self.uexpr(d - 1))
        if k == 12:
            return "(%s %% ((%s & 15u) + 1u))" % (a, self.uexpr(d - 1))
        if k == 13:
            return "(unsigned)((int)%s >> %d)" % (a, self.r.randint(0, 31))
        if k == 14:
            return "(unsigned)((int)%s / %d)" % (a, self.ch(2, 3, 5, 7, -2, -3, -7, 100))
        if k == 15:
            return "(unsigned)((int)%s %% %d)" % (a, self.ch(2, 3, 5, 7, -3, 8, 100))
        if k == 16:
            return "min(%s, %s)" % (a, self.uexpr(d - 1))
        if k == 17:
            return "max(%s, %s)" % (a, self.uexpr(d - 1))
        if k == 18:
            return "(unsigned)min((int)%s, (int)%s)" % (a, self.uexpr(d - 1))
        if k == 19:
            return "(unsigned)max((int)%s, (int)%s)" % (a, self.uexpr(d - 1))
        if k == 20:
            return "(%s ? %s : %s)" % (self.cond(d - 1), a, self.uexpr(d - 1))
        if k == 21:
            return "(unsigned)(%s)" % self.cond(d - 1)
        if k == 22:
            return "(~%s)" % a
        if k == 23:
            return "(unsigned)(-(int)(%s & 0xffffu))" % a
        if k == 24:
            return "__umulhi(%s, %s)" % (a, self.uexpr(d - 1))
        if k == 25:
            return "(unsigned)__mulhi((int)%s, (int)%s)" % (a, self.uexpr(d - 1))
        if k == 26:
            return "(unsigned)(((unsigned long long)%s * %s) >> %d)" % (a, self.uexpr(d - 1), self.r.randint(0, 40))
        k2 = self.r.randint(0, 9)
        if k2 == 0:
            return "(unsigned)(unsigned short)(%s)" % a
        if k2 == 1:
            return "(unsigned)(int)(short)(%s)" % a
        if k2 == 2:
            return "(unsigned)(int)(signed char)(%s)" % a
        if k2 == 3:
            return "(unsigned)(unsigned char)(%s + %s)" % (a, self.uexpr(d - 1))
        if k2 == 4:
            return "((unsigned)(unsigned short)%s * (unsigned)(unsigned short)%s)" % (a, self.uexpr(d - 1))
        if k2 == 5:
            return "(unsigned)(unsigned short)((unsigned short)%s >> %d)" % (a, self.r.randint(0, 15))
        if k2 == 6:
            return "(unsigned)__clz(%s)" % a
        if k2 == 7:
            return "__byte_perm(%s, %s, 0x%04x)" % (a, self.uexpr(d - 1), self.r.getrandbits(16))
        return "__brev(%s)" % a if self.p(0.3) else "(unsigned)__popc(%s)" % a

    def cond(self, d=1):
        k = self.r.randint(0, 9)
        if k <= 3:
            op = self.ch("<", "<=", ">", ">=", "==", "!=")
            return "(%s %s %s)" % (self.uexpr(d), op, self.uexpr(d))
        if k <= 5:
            op = self.ch("<", "<=", ">", ">=")
            return "((int)%s %s (int)%s)" % (self.uexpr(d), op, self.uexpr(d))
        if k == 6:
            return "((%s & %du) == 0u)" % (self.uexpr(d), self.ch(1, 2, 3, 7, 16, 31))
        if k == 7 and self.fvars:
            op = self.ch("<", "<=", ">", ">=", "==", "!=")
            return "(%s %s %s)" % (self.fexpr(d), op, self.fexpr(d))
        if k == 8:
            return self.ch("(tid < %du)" % self.ch(1, 7, 16, 31, 32, 33, 100),
                           "((tid & 1u) == 0u)", "(blockIdx.x == 1u)", "((gid % 3u) == 1u)",
                           "(threadIdx.x %% 32u < %du)" % self.ch(1, 5, 16, 31))
        if d > 0:
            return "(%s %s %s)" % (self.cond(d - 1), self.ch("&&", "||"), self.cond(d - 1))
        return "!(%s)" % self.cond(0)

    def fconst(self):
        return self.ch("0.0f", "-0.0f", "1.0f", "0.5f", "-1.5f", "3.0f", "1e30f", "-2.25f",
                       "1e-30f", "%0.3ff" % self.r.uniform(-100, 100))

    def fleaf(self):
        k = self.r.randint(0, 7)
        if k == 0 or not self.fvars:
            return self.fconst()
        if k <= 2:
            return self.ch(*self.fvars)
        if k == 3:
            return "fi[(%s) & 1023u]" % self.uexpr(1)
        if k == 4:
            return "(float)(int)%s" % self.uexpr(1)
        if k == 5:
            return "fo[gid * 4u + ((%s) & 3u)]" % self.uexpr(1)
        if k == 6 and self.loopvars:
            return "(float)" + self.ch(*self.loopvars)[0]
        if k == 7 and self.dvars:
            return "(float)" + self.ch(*self.dvars)
        return self.ch(*self.fvars)

    def fexpr(self, d=2):
        if d <= 0 or self.p(0.3):
            return self.fleaf()
        a = self.fexpr(d - 1)
        k = self.r.randint(0, 12)
        if k <= 4:
            return "(%s %s %s)" % (a, self.ch("+", "-", "*"), self.fexpr(d - 1))
        if k == 5:
            return "fmaf(%s, %s, %s)" % (a, self.fexpr(d - 1), self.fexpr(d - 1))
        if k == 6:
            return "fminf(%s, %s)" % (a, self.fexpr(d - 1))
        if k == 7:
            return "fmaxf(%s, %s)" % (a, self.fexpr(d - 1))
        if k == 8:
            return "fabsf(%s)" % a
        if k == 9:
            return "(-(%s))" % a
        if k == 10:
            return "(%s ? %s : %s)" % (self.cond(d - 1), a, self.fexpr(d - 1))
        if k == 11:
            return "(%s / %s)" % (a, self.fexpr(d - 1))
        return "sqrtf(%s)" % a

    def dleaf(self):
        k = self.r.randint(0, 5)
        if k == 0 or not self.dvars:
            return self.ch("0.0", "1.0", "-3.5", "1e300", "0.1", "2.0")
        if k <= 2:
            return self.ch(*self.dvars)
        if k == 3:
            return "di[(%s) & 1023u]" % self.uexpr(1)
        if k == 4 and self.fvars:
            return "(double)" + self.ch(*self.fvars)
        return "(double)(int)%s" % self.uexpr(1)

    def dexpr(self, d=2):
        if d <= 0 or self.p(0.3):
            return self.dleaf()
        a = self.dexpr(d - 1)
        k = self.r.randint(0, 7)
        if k <= 3:
            return "(%s %s %s)" % (a, self.ch("+", "-", "*"), self.dexpr(d - 1))
        if k == 4:
            return "fma(%s, %s, %s)" % (a, self.dexpr(d - 1), self.dexpr(d - 1))
        if k == 5:
            return "fmin(%s, %s)" % (a, self.dexpr(d - 1))
        if k == 6:
            return "(%s ? %s : %s)" % (self.cond(d - 1), a, self.dexpr(d - 1))
        return "fmax(%s, %s)" % (a, self.dexpr(d - 1))

    def wexpr(self, d=2):
        if d <= 0 or self.p(0.3) or not self.wvars:
            k = self.r.randint(0, 3)
            if k == 0 or not self.wvars:
                return "(unsigned long long)%s" % self.uexpr(1)
            if k == 1:
                return "(unsigned long long)(long long)(int)%s" % self.uexpr(1)
            if k == 2:
                return self.ch("0x123456789abcdefull", "1ull", "0xffffffffffffffffull", "0x4000000000000001ull")
            return self.ch(*self.wvars)
        a = self.wexpr(d - 1)
        k = self.r.randint(0, 9)
        if k <= 3:
            return "(%s %s %s)" % (a, self.ch("+", "-", "*", "^", "&", "|"), self.wexpr(d - 1))
        if k == 4:
            return "(%s << (%s & 63u))" % (a, self.uexpr(1))
        if k == 5:
            return "(%s >> %d)" % (a, self.r.randint(0, 63))
        if k == 6:
            return "(unsigned long long)((long long)%s >> %d)" % (a, self.r.randint(0, 63))
        if k == 7:
            return "(%s / %dull)" % (a, self.ch(3, 7, 10, 1000000007))
        if k == 8:
            return "(%s %% (((unsigned long long)%s) | 1ull))" % (a, self.uexpr(1))
        return "min(%s, %s)" % (a, self.wexpr(d - 1))

    def sexpr_small(self, lo, hi):
        """int expression in [lo, hi]"""
        span = hi - lo + 1
        k = self.r.randint(0, 5)
        if k == 0:
            return str(self.r.randint(lo, hi))
        if k == 1:
            return "((int)(ui[%d] %% %du) + (%d))" % (self.r.randint(0, 1023), span, lo)
        if k == 2:
            return "((int)((unsigned)n %% %du) + (%d))" % (span, lo)
        if k == 3:
            return "((int)(tid %% %du) + (%d))" % (span, lo)
        if k == 4:
            return "((int)((%s) %% %du) + (%d))" % (self.uexpr(1), span, lo)
        return "(ii[%d] %% %d + (%d))" % (self.r.randint(0, 1023), (span + 1) // 2, lo + span // 2)

    def uexpr_small(self, hi):
        k = self.r.randint(0, 4)
        if k == 0:
            return "%du" % self.r.randint(0, hi)
        if k == 1:
            return "(ui[%d] %% %du)" % (self.r.randint(0, 1023), hi + 1)
        if k == 2:
            return "(m %% %du)" % (hi + 1)
        if k == 3:
            return "(gid %% %du)" % (hi + 1)
        return "((%s) %% %du)" % (self.uexpr(1), hi + 1)

    # ------------------------------------------------------------ statements
    def assign(self):
        k = self.r.randint(0, 11)
        if k <= 3 and self.uvars:
            v = self.ch(*self.uvars)
            op = self.ch("=", "+=", "^=", "*=", "-=", "|=")
            self.emit("%s %s %s;" % (v, op, self.uexpr(self.ch(1, 2, 3))))
        elif k == 4 and self.svars:
            v = self.ch(*self.svars)
            e = self.ch("(int)(%s)" % self.uexpr(2),
                        "min(%s, (int)%s)" % (v, self.uexpr(2)),
                        "max(%s, (int)%s)" % (v, self.uexpr(2)),
                        "%s / %d" % (v, self.ch(2, 3, -3, 7)),
                        "%s %% %d" % (v, self.ch(2, 3, -5, 16)),
                        "%s >> %d" % (v, self.r.randint(0, 31)),
                        "(int)((unsigned)%s + %s)" % (v, self.uexpr(2)))
            self.emit("%s = %s;" % (v, e))
        elif k <= 6 and self.fvars:
            v = self.ch(*self.fvars)
            self.emit("%s %s %s;" % (v, self.ch("=", "+=", "*=", "-="), self.fexpr(3)))
        elif k == 7 and self.dvars:
            v = self.ch(*self.dvars)
            self.emit("%s %s %s;" % (v, self.ch("=", "+=", "*="), self.dexpr(2)))
        elif k == 8 and self.wvars:
            v = self.ch(*self.wvars)
            self.emit("%s %s %s;" % (v, self.ch("=", "+=", "^=", "*="), self.wexpr(2)))
        elif k == 9:
            # aliasing store into own slots
            t = self.r.randint(0, 3)
            idx = "gid * 4u + ((%s) & 3u)" % self.uexpr(1)
            if t == 0:
                self.emit("uo[%s] = %s;" % (idx, self.uexpr(2)))
            elif t == 1:
                self.emit("io[%s] += (int)%s;" % (idx, self.uexpr(2)))
            elif t == 2:
                self.emit("fo[%s] = %s;" % (idx, self.fexpr(2)))
            else:
                self.emit("dout[gid * 2u + ((%s) & 1u)] = %s;" % (self.uexpr(1), self.dexpr(2)))
        elif k == 10 and self.has_local:
            self.emit("la[(%s) & 7u] %s %s;" % (self.uexpr(1), self.ch("=", "+=", "^="), self.uexpr(2)))
        elif k == 11:
            # one atomic op kind per buffer: mixed kinds would be order-dependent
            if self.p(0.5):
                self.emit("%s(&acc[(%s) & 255u], (int)%s);" % (self.acc_op, self.uexpr(1), self.uexpr(2)))
            else:
                self.emit("%s(&uacc[(%s) & 255u], %s);" % (self.uacc_op, self.uexpr(1), self.uexpr(2)))
        else:
            v = self.ch(*self.uvars)
            self.emit("%s += %s;" % (v, self.uexpr(2)))

    def block(self, depth, uniform, in_loop, brk_ok, n=None):
        if n is None:
            n = self.r.randint(1, 4)
        for _ in range(n):
            self.stmt(depth, uniform, in_loop, brk_ok)

    def stmt(self, depth, uniform, in_loop, brk_ok):
        self.stmt_budget -= 1
        if depth <= 0 or self.stmt_budget <= 0:
            self.assign()
            return
        k = self.r.randint(0, 25)
        if k >= 18:
            self.special_loop(k - 18, uniform)
        elif k >= 15 and in_loop:
            self.ivstmt()
        elif k <= 3:
            self.assign()
        elif k <= 6:
            self.ifelse(depth, in_loop, brk_ok)
        elif k <= 10:
            self.loop(depth, uniform)
        elif k == 11 and in_loop and brk_ok:
            c = self.cond(1)
            if self.p(0.5):
                self.emit("if %s break;" % c)
            else:
                self.emit("if %s { %s ^= %s; continue; }" % (c, self.ch(*self.uvars), self.uexpr(1)))
        elif k == 12 and uniform:
            self.shared(depth)
        elif k == 13:
            v = self.ch(*self.uvars)
            self.emit("%s = %s ? %s : %s;" % (v, self.cond(1), self.uexpr(2), self.uexpr(2)))
        else:
            self.assign()

    def small_trip(self):
        mt = 17 if self.iter_mult <= 8 else (8 if self.iter_mult <= 40 else 4)
        return self.ch(*[t for t in TRIPS if t <= mt]), mt

    def special_loop(self, k, uniform):
        T, mt = self.small_trip()
        i = self.fresh("i")
        v = self.ch(*self.uvars)
        pr = self.ch("", "", "#pragma unroll 1", "#pragma unroll 2", "#pragma unroll 4", "#pragma unroll")
        tb = self.ch(str(T), "%s" % self.sexpr_small(0, mt), str(T))
        if pr == "#pragma unroll" and not tb.isdigit():
            pr = ""
        if k == 0:
            # pointer walking loop
            S = self.ch(1, 2, 3, -1)
            base = "ui + ((gid & 255u) + 60u)" if S > 0 else "ui + ((gid & 255u) + 60u)"
            p = self.fresh("p")
            self.emit("{ const unsigned* %s = %s;" % (p, base))
            if pr: self.emit(pr)
            self.emit("for (int %s = 0; %s < %s; %s++) { %s %s *%s; %s += %d; }" % (
                i, i, tb, i, v, self.ch("+=", "^=", "= %s * 3u +" % v), p, p, S))
            self.emit("}")
        elif k == 1:
            # search loop with break and live-out induction variable
            r_ = self.fresh("r")
            self.emit("int %s = -1;" % r_)
            self.emit("int %s;" % i)
            if pr: self.emit(pr)
            self.emit("for (%s = %d; %s < %s; %s += %d) {" % (i, self.r.randint(0, 2), i, tb, i, self.ch(1, 2, 3)))
            self.emit("  if ((ui[((unsigned)%s * %du + gid) & 1023u] & %du) == %du) { %s = %s; break; }" % (
                i, self.ch(1, 5, 33), self.ch(3, 7, 15), self.r.randint(0, 3), r_, i))
            self.emit("}")
            self.emit("%s += (unsigned)%s * 7u + (unsigned)%s;" % (v, r_, i))
        elif k == 2:
            # straight-line body (pipeliner candidate), loop-carried recurrences
            self.loopvars.append((i, True))
            old = self.iter_mult
            self.iter_mult *= max(mt, 1)
            if pr: self.emit(pr)
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, tb, i))
            self.ind += 1
            for _ in range(self.r.randint(2, 5)):
                if self.p(0.5):
                    self.ivstmt()
                else:
                    self.assign()
            self.ind -= 1
            self.emit("}")
            self.loopvars.pop()
            self.iter_mult = old
        elif k == 3:
            # 64-bit induction variable
            ty = self.ch("long long", "unsigned long long", "size_t")
            if pr: self.emit(pr)
            lo = 0 if ty != "long long" else self.r.randint(-3, 0)
            self.emit("for (%s %s = %d; %s < (%s)%s; %s += %d) {" % (ty, i, lo, i, ty, tb, i, self.ch(1, 2)))
            self.emit("  %s += ui[(%s * %dull + gid) & 1023ull] ^ (unsigned)(%s << %d);" % (v, i, self.ch(1, 3, 64), i, self.r.randint(0, 40)))
            if self.wvars:
                self.emit("  %s += (unsigned long long)%s * %s;" % (self.ch(*self.wvars), i, self.ch(*self.wvars)))
            self.emit("}")
        elif k == 4 and uniform:
            # shared tree reduction (guards make it valid for any nth)
            self.has_shared = True
            self.emit("sh[tid] = %s;" % self.uexpr(1))
            self.emit("__syncthreads();")
            self.emit("for (unsigned %s = nth / 2u; %s > 0u; %s >>= 1) {" % (i, i, i))
            self.emit("  if (tid < %s && tid + %s < nth) sh[tid] %s sh[tid + %s];" % (i, i, self.ch("+=", "^=", "|="), i))
            self.emit("  __syncthreads();")
            self.emit("}")
            self.emit("%s += sh[0];" % v)
            self.emit("__syncthreads();")
        elif k >= 6:
            # adjacent loops with equal trip counts (fusion candidates), sometimes dependent
            j = self.fresh("j")
            a, b = self.ch(*self.uvars), self.ch(*self.uvars)
            K1, K2 = self.ch(1, 2, 3, 32), self.ch(1, 2, 3, 32)
            dep = self.r.randint(0, 3)
            if pr: self.emit(pr)
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, tb, i))
            if dep == 0:
                self.emit("  %s += ui[(int)gid + %s * %d];" % (a, i, K1))
            elif dep == 1:
                self.emit("  uo[gid * 4u + ((unsigned)%s & 3u)] += %s ^ (unsigned)%s;" % (i, a, i))
            elif dep == 2:
                self.emit("  fo[gid * 4u + ((unsigned)%s & 3u)] = fo[gid * 4u + ((unsigned)(%s + 1) & 3u)] * 0.5f + (float)%s;" % (i, i, i))
            else:
                self.emit("  %s = %s * 3u + ui[(int)gid + %s * %d];" % (a, a, i, K1))
            self.emit("}")
            if self.p(0.5): self.emit(pr if pr else "#pragma unroll 1")
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (j, j, tb, j))
            dep2 = self.r.randint(0, 3)
            if dep2 == 0:
                self.emit("  %s ^= ui[(int)gid + %s * %d + 5];" % (b, j, K2))
            elif dep2 == 1:
                self.emit("  %s += uo[gid * 4u + ((unsigned)(%s + 1) & 3u)] * (unsigned)%s;" % (b, j, j))
            elif dep2 == 2:
                self.emit("  fo[gid * 4u + ((unsigned)%s & 3u)] += fo[gid * 4u + ((unsigned)(%s + 3) & 3u)];" % (j, j))
            else:
                self.emit("  %s += %s;" % (b, a))
            self.emit("}")
        else:
            # live-out induction variable of a counted loop, with local float array
            self.emit("float fa%s[4] = {%s, %s, 0.0f, 1.0f};" % (i, self.fleaf(), self.fleaf()))
            self.emit("int %s;" % i)
            if pr: self.emit(pr)
            self.emit("for (%s = %s; %s > 0; %s -= %d) fa%s[%s & 3] = fmaf(fa%s[(%s + 1) & 3], %s, fi[(unsigned)%s & 1023u]);" % (
                i, tb, i, i, self.ch(1, 2, 3), i, i, i, i, self.fleaf(), i))
            f = self.ch(*self.fvars)
            self.emit("%s += fa%s[0] + fa%s[1] * fa%s[2] - fa%s[3] + (float)%s;" % (f, i, i, i, i, i))

    def ivstmt(self):
        i, sg = self.ch(*self.loopvars)
        ui_ = "(unsigned)" + i
        k = self.r.randint(0, 15)
        K = self.ch(1, 2, 3, 4, 7, 32, 33)
        if k == 10:
            self.emit("%s += ui[(int)gid + (%s + 8) * %d];" % (self.ch(*self.uvars), i, K)); return
        if k == 11:
            self.emit("%s = fmaf(fi[(int)gid + (%s + 8) * %d], %s, %s);" % (self.ch(*self.fvars), i, K, self.fleaf(), self.ch(*self.fvars))); return
        if k == 12:
            self.emit("%s += %s * %s;" % (self.ch(*self.uvars), self.ch(*self.uvars), ui_)); return
        if k == 13:
            self.emit("uo[gid * 4u + %du] %s %s * %du;" % (self.r.randint(2, 3), self.ch("+=", "^="), ui_, self.ch(3, 5, 12345, 0x10001))); return
        if k == 14 and self.wvars:
            self.emit("%s += (unsigned long long)(long long)%s * %s;" % (self.ch(*self.wvars), i, self.ch(*self.wvars))); return
        if k == 15:
            self.emit("%s += (unsigned)ii[(long long)gid + (long long)(%s + 8) * %d] * %s;" % (self.ch(*self.uvars), i, K, ui_)); return
        K = self.ch(1, 2, 3, 4, 7, 32, 33)
        if k == 0:
            self.emit("%s += ui[(gid + %s * %du) & 1023u];" % (self.ch(*self.uvars), ui_, K))
        elif k == 1:
            self.emit("%s += fi[(%s * %du + %s) & 1023u] * %s;" % (self.ch(*self.fvars), ui_, K, self.ch("tid", "gid", "0u", "m"), self.fleaf()))
        elif k == 2 and self.has_local:
            self.emit("la[%s & 7u] %s %s;" % (ui_, self.ch("+=", "=", "^="), self.uexpr(1)))
        elif k == 3:
            self.emit("uo[gid * 4u + (%s & 3u)] %s %s;" % (ui_, self.ch("+=", "=", "^="), self.uexpr(1)))
        elif k == 4:
            self.emit("fo[gid * 4u + (%s & 3u)] = fmaf(fo[gid * 4u + ((%s + 1u) & 3u)], %s, %s);" % (ui_, ui_, self.fleaf(), self.fleaf()))
        elif k == 5 and self.dvars:
            self.emit("%s = fma(%s, di[(%s * %du) & 1023u], %s);" % (self.ch(*self.dvars), self.ch(*self.dvars), ui_, K, self.dleaf()))
        elif k == 6 and self.wvars:
            self.emit("%s = %s * %dull + (unsigned long long)(long long)%s;" % (self.ch(*self.wvars), self.ch(*self.wvars), self.ch(3, 31, 0x100000001), i))
        elif k == 7 and self.svars:
            self.emit("%s += %s * %d;" % (self.ch(*self.svars), i, self.ch(1, 2, -3)))
        elif k == 8:
            self.emit("%s = %s * %du + %s;" % (self.ch(*self.uvars), self.ch(*self.uvars), K, ui_))
        else:
            self.emit("io[gid * 4u + (%s & 3u)] += ii[(%s * %du + %du) & 1023u];" % (ui_, ui_, K, self.r.randint(0, 1023)))

    def ifelse(self, depth, in_loop, brk_ok):
        self.emit("if %s {" % self.cond(1))
        self.ind += 1
        self.block(depth - 1, False, in_loop, brk_ok)
        self.ind -= 1
        nchain = self.r.randint(0, 2)
        for _ in range(nchain):
            self.emit("} else if %s {" % self.cond(1))
            self.ind += 1
            self.block(depth - 1, False, in_loop, brk_ok)
            self.ind -= 1
        if self.p(0.6):
            self.emit("} else {")
            self.ind += 1
            self.block(depth - 1, False, in_loop, brk_ok)
            self.ind -= 1
        self.emit("}")

    def shared(self, depth):
        self.has_shared = True
        a = self.ch(*self.uvars)
        if self.p(0.5):
            self.emit("sh[tid] = %s;" % self.uexpr(2))
            self.emit("__syncthreads();")
            self.emit("%s += sh[(%s) %% nth];" % (a, self.uexpr(2)))
            if self.p(0.5):
                self.emit("%s ^= sh[(tid + %du) %% nth];" % (self.ch(*self.uvars), self.r.randint(1, 40)))
        else:
            f = self.ch(*self.fvars)
            self.emit("shf[tid] = %s;" % self.fexpr(2))
            self.emit("__syncthreads();")
            self.emit("%s += shf[(%s) %% nth];" % (f, self.uexpr(1)))
        self.emit("__syncthreads();")

    def loop(self, depth, uniform):
        # pick trip range keeping total work bounded
        maxtrip = 17 if self.iter_mult <= 8 else (8 if self.iter_mult <= 40 else 4)
        i = self.fresh("i")
        form = self.r.randint(0, 11)
        loop_uniform = False
        pragma = None
        if self.p(0.35):
            pragma = self.ch("#pragma unroll 1", "#pragma unroll 2", "#pragma unroll 3",
                             "#pragma unroll 4", "#pragma unroll 8", "#pragma unroll")
        signed = True
        trip_const = self.ch(*[t for t in TRIPS if t <= maxtrip])
        stride = self.ch(1, 1, 2, 3)
        if form == 0:
            # constant up-counting signed
            head = "for (int %s = 0; %s < %d; %s += %d)" % (i, i, trip_const, i, stride)
            loop_uniform = True
        elif form == 1:
            lo = self.r.randint(-5, 3)
            hi_e = self.sexpr_small(-3, maxtrip - 3)
            head = "for (int %s = %d; %s < %s; %s += %d)" % (i, lo, i, hi_e, i, stride)
            loop_uniform = "tid" not in hi_e and "gid" not in hi_e and "ui[(" not in hi_e and "(%s" % "" not in hi_e
        elif form == 2:
            # down counting signed
            hi_e = self.sexpr_small(-2, maxtrip - 1)
            lo = self.r.randint(-3, 1)
            cmp = self.ch(">=", ">")
            head = "for (int %s = %s; %s %s %d; %s -= %d)" % (i, hi_e, i, cmp, lo, i, stride)
        elif form == 3:
            # unsigned up
            hi_e = self.uexpr_small(maxtrip)
            head = "for (unsigned %s = %du; %s < %s; %s += %du)" % (i, self.r.randint(0, 2), i, hi_e, i, stride)
            signed = False
        elif form == 4:
            # unsigned down
            hi_e = self.uexpr_small(maxtrip)
            if self.p(0.5):
                head = "for (unsigned %s = %s; %s-- > 0u; )" % (i, hi_e, i)
            else:
                head = "for (unsigned %s = %s; %s > 0u; %s--)" % (i, hi_e, i, i)
            signed = False
        elif form == 5:
            # unsigned != loop (bound must be invariant)
            hb = self.fresh("b")
            self.emit("const unsigned %s = %s;" % (hb, self.uexpr_small(maxtrip)))
            hi_e = hb
            head = "for (unsigned %s = 0u; %s != %s; ++%s)" % (i, i, hi_e, i)
            signed = False
        elif form == 6:
            # constant down counting
            head = "for (int %s = %d; %s >= 0; %s--)" % (i, trip_const - 1, i, i)
            loop_uniform = True
        elif form == 7:
            # inclusive bounds
            hi_e = self.sexpr_small(-1, maxtrip - 2)
            head = "for (int %s = 0; %s <= %s; %s++)" % (i, i, hi_e, i)
        elif form == 8:
            # uniform param-derived
            nb = self.ch("(n >> 5)", "(n % 13)", "((n >> 4) & 7)", "(int)(m % 11u)", "(n >> 6)") if maxtrip >= 8 else self.ch("(n >> 6)", "(n % 5)")
            head = "for (int %s = %s; %s < %s; %s += %d)" % (i, self.ch("0", "0", "1", "-2"), i, nb, i, stride)
            loop_uniform = True
        elif form == 9:
            # while loop with counter
            hi_e = self.sexpr_small(0, maxtrip)
            self.emit("int %s = %d;" % (i, self.r.randint(0, 2)))
            head = "while (%s < %s)" % (i, hi_e)
        elif form == 10:
            # do-while
            hi_e = self.sexpr_small(1, maxtrip)
            self.emit("int %s = 0;" % i)
            head = "do"
        else:
            # signed with unsigned compare of mixed
            hi_e = self.uexpr_small(maxtrip)
            head = "for (int %s = %d; (unsigned)%s < %s; %s += %d)" % (i, self.r.randint(0, 2), i, hi_e, i, stride)
        if form == 1:
            loop_uniform = hi_e.startswith("((int)((unsigned)n") or hi_e.lstrip("-").isdigit()
        if pragma and not (form in (9, 10)):
            if pragma == "#pragma unroll" and not loop_uniform:
                pragma = "#pragma unroll 4"
            self.emit(pragma)
        self.emit(head + " {")
        self.ind += 1
        old_mult = self.iter_mult
        self.iter_mult *= max(maxtrip, 1)
        self.loopvars.append((i, signed))
        body_uniform = uniform and loop_uniform
        brk_ok = not body_uniform
        if body_uniform and self.p(0.5):
            brk_ok = False
        elif self.p(0.3):
            brk_ok = True
            body_uniform = False
        if form == 9:
            self.emit("%s += %d;" % (i, stride))
        self.block(depth - 1, body_uniform, True, brk_ok)
        self.loopvars.pop()
        self.iter_mult = old_mult
        self.ind -= 1
        if form == 10:
            self.emit("} while (++%s < %s);" % (i, hi_e))
        else:
            self.emit("}")

    # ------------------------------------------------------------ kernel
    def kernel(self, name):
        r = self.r
        params = ("float* fo, int* io, unsigned* uo, double* dout, "
                  "const float*%s fi, const int*%s ii, const unsigned*%s ui, const double*%s di, int* acc, unsigned* uacc, int n, unsigned m")
        cst = [self.ch("", "", " __restrict__") for _ in range(4)]
        self.lines = []
        self.emit("unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);")
        self.emit("unsigned nth = blockDim.x * blockDim.y * blockDim.z;")
        self.emit("unsigned gid = (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) * nth + tid;")
        nu = r.randint(2, 5)
        for _ in range(nu):
            v = self.fresh("u")
            self.emit("unsigned %s = %s;" % (v, self.uexpr(2)))
            self.uvars.append(v)
        for _ in range(r.randint(0, 2)):
            v = self.fresh("s")
            self.emit("int %s = %s;" % (v, self.ch("ii[(gid * %du) & 1023u]" % r.randint(1, 9), "(int)(%s)" % self.uexpr(1))))
            self.svars.append(v)
        for _ in range(r.randint(1, 3)):
            v = self.fresh("f")
            self.emit("float %s = %s;" % (v, self.fexpr(1)))
            self.fvars.append(v)
        for _ in range(r.randint(0, 2)):
            v = self.fresh("d")
            self.emit("double %s = %s;" % (v, self.dexpr(1)))
            self.dvars.append(v)
        for _ in range(r.randint(0, 2)):
            v = self.fresh("w")
            self.emit("unsigned long long %s = %s;" % (v, self.wexpr(1)))
            self.wvars.append(v)
        if self.p(0.4):
            self.has_local = True
            self.emit("unsigned la[8];")
            self.emit("#pragma unroll %d" % self.ch(1, 2, 8) if self.p(0.3) else "// init")
            self.emit("for (int q = 0; q < 8; q++) la[q] = %s;" % self.ch("(unsigned)q * gid", "ui[(gid + q) & 1023u]", "0u"))
        if self.small:
            self.stmt_budget = r.randint(2, 6)
            self.block(r.randint(1, 3), True, False, False, n=r.randint(0, 1))
            if self.p(0.5):
                self.loop(r.randint(2, 3), True)
            else:
                self.special_loop(r.randint(0, 7), True)
            if self.p(0.5):
                self.special_loop(r.randint(0, 7), True)
            self.block(r.randint(1, 3), True, False, False, n=r.randint(0, 2))
        else:
            self.stmt_budget = r.randint(6, 22)
            self.block(r.randint(2, 4), True, False, False, n=r.randint(1, 3))
            self.loop(r.randint(2, 4), True)
            self.block(r.randint(2, 4), True, False, False, n=r.randint(1, 4))
        # final outputs
        for j, v in enumerate(self.uvars[:2]):
            self.emit("uo[gid * 4u + %du] = %s;" % (j, v))
        if len(self.uvars) > 2:
            self.emit("uo[gid * 4u + 2u] ^= %s;" % " ^ ".join("(%s * %du)" % (v, 2 * k + 1) for k, v in enumerate(self.uvars[2:])))
        if self.svars:
            self.emit("io[gid * 4u] = %s;" % " + ".join(self.svars))
        if self.has_local:
            self.emit("io[gid * 4u + 1u] ^= (int)(la[0] + la[1] * 3u + la[2] * 5u + la[3] * 7u + la[4] + la[5] + la[6] + la[7] * 11u);")
        for j, v in enumerate(self.fvars[:2]):
            self.emit("fo[gid * 4u + %du] = %s;" % (j, v))
        if len(self.fvars) > 2:
            self.emit("fo[gid * 4u + 2u] = %s;" % self.fvars[2])
        for j, v in enumerate(self.dvars):
            self.emit("dout[gid * 2u + %du] = %s;" % (j, v))
        for v in self.wvars:
            self.emit("uo[gid * 4u + 3u] ^= (unsigned)%s ^ (unsigned)(%s >> 32);" % (v, v))
        body = "\n".join(self.lines)
        pre = ""
        if self.has_shared:
            pre = "  __shared__ unsigned sh[1024];\n  __shared__ float shf[1024];\n"
        return 'extern "C" __global__ void %s(%s) {\n%s%s\n}\n' % (name, params % tuple(cst), pre, body)


def generate(seed):
    """The CUDA source of kernel `k<seed>`."""
    return "#include <cuda_runtime.h>\n\n" + Gen(seed).kernel("k%d" % seed)


if __name__ == "__main__":
    cli(generate, "gen_cuda.py")
