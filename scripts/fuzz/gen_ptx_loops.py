#!/usr/bin/env python3
"""Random PTX loop kernels, for fuzzing ptxopt's loop passes directly.

    python3 gen_ptx_loops.py SEED > k.ptx

`generate(seed)` returns a PTX module (sm_80) with one kernel `k<SEED>`
(parameters: input buffer, output buffer, u32 n). It has one to three loops,
some nested, some twins with identical tests (fusion candidates), in three
shapes (test at the top, test at the bottom, test of the old value before
the increment), with 32- or 64-bit, signed or unsigned induction variables,
steps of either sign, every comparison, and starts and bounds that are
constants, masked data or `n` (which `ptxopt verify` sets to the thread
count: 32, 128 or 256). The generator simulates each loop for every start
and bound it can take and keeps only loops that end within the trip limit,
so the kernel is well defined (wrapping integer arithmetic, no unbounded
loops); IV-indexed loads are only emitted when every IV value stays in
[0, 900], other loads are masked to the buffer.
"""
import random

from common import PTX_HEADER, PtxWriter, cli

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
NVALS = [32, 128, 256]   # verify sets u32 scalars to the total thread count


def wrap(v, w):
    return v & ((1 << w) - 1)


def sgn(v, w):
    v = wrap(v, w)
    return v - (1 << w) if v >> (w - 1) else v


def cmp(op, a, b, signed, w):
    if signed:
        a, b = sgn(a, w), sgn(b, w)
    else:
        a, b = wrap(a, w), wrap(b, w)
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]


class G(PtxWriter):
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []
        self.nr = 20
        self.nrd = 20
        self.np = 1
        self.nl = 0
        self.accs = []

    def lab(self, s):
        self.out.append(s + ":")

    def R(self):
        self.nr += 1
        return "%%r%d" % self.nr

    def RD(self):
        self.nrd += 1
        return "%%rd%d" % self.nrd

    def P(self):
        self.np += 1
        return "%%p%d" % self.np

    def L(self):
        self.nl += 1
        return "$L_%d" % self.nl

    # value sources: ("const", v) | ("data", C, mask) meaning C + (data & mask) | ("n", C) meaning n + C
    def values(self, src):
        if src[0] == "const":
            return [src[1]]
        if src[0] == "data":
            return [src[1] + k for k in range(src[2] + 1)]
        return [v + src[1] for v in NVALS]

    def materialize(self, src, w):
        if w == 32:
            r = self.R()
            if src[0] == "const":
                self.e("mov.u32 \t%s, %d;" % (r, wrap(src[1], 32)))
            elif src[0] == "data":
                t = self.R()
                self.e("and.b32 \t%s, %%r7, %d;" % (t, src[2]))
                self.e("add.s32 \t%s, %s, %d;" % (r, t, sgn(src[1], 32)))
            else:
                self.e("add.s32 \t%s, %%r1, %d;" % (r, sgn(src[1], 32)))
            return r
        r = self.RD()
        if src[0] == "const":
            self.e("mov.u64 \t%s, 0x%016X;" % (r, wrap(src[1], 64)))
        elif src[0] == "data":
            t = self.R()
            t2 = self.RD()
            self.e("and.b32 \t%s, %%r7, %d;" % (t, src[2]))
            self.e("cvt.u64.u32 \t%s, %s;" % (t2, t))
            self.e("add.s64 \t%s, %s, %d;" % (r, t2, sgn(src[1], 64)))
        else:
            t2 = self.RD()
            self.e("cvt.u64.u32 \t%s, %%r1;" % t2)
            self.e("add.s64 \t%s, %s, %d;" % (r, t2, sgn(src[1], 64)))
        return r

    def simulate(self, form, start, step, op, bound, signed, w, limit):
        """trip counts (body executions) for all start/bound combos or None if too long"""
        res = []
        for s in start:
            for b in bound:
                iv = wrap(s, w)
                n = 0
                ivs = []
                while True:
                    if form == "top":
                        if cmp(op, iv, b, signed, w):
                            break  # exit when true
                        ivs.append(iv)
                        n += 1
                        iv = wrap(iv + step, w)
                    elif form == "bottom":
                        ivs.append(iv)
                        n += 1
                        iv = wrap(iv + step, w)
                        if not cmp(op, iv, b, signed, w):
                            break
                    else:  # "pre": compare old value, then increment, continue when true
                        ivs.append(iv)
                        n += 1
                        old = iv
                        iv = wrap(iv + step, w)
                        if not cmp(op, old, b, signed, w):
                            break
                    if n > limit:
                        return None
                res.append((n, ivs))
        return res

    def pick_loop(self, limit):
        for _ in range(2000):
            w = self.ch(32, 32, 32, 64)
            signed = self.p(0.5)
            form = self.ch("top", "bottom", "bottom", "pre")
            step = self.ch(1, 1, 1, 2, 3, -1, -1, -2, -3, 4, 5)
            op = self.ch("lt", "le", "gt", "ge", "ne", "ne", "eq")
            kind = self.r.randint(0, 9)
            base = self.ch(0, 0, 0, 1, 3, -1, -5, 7, 8, 16, 17,
                           0x7fffffff - 4, 0x7fffffff, 0x80000000, 0x80000000 + 2, 0xffffffff, 0xfffffff0,
                           (1 << 63) - 3 if w == 64 else 0, (1 << 64) - 2 if w == 64 else 5)
            if kind <= 4:
                start = ("const", base)
            elif kind <= 7:
                start = ("data", base, self.ch(1, 3, 7))
            else:
                start = ("n", self.ch(0, -3, -100, 5))
            tc = self.r.randint(0, limit)
            # bound relative to start to make short loops likely
            bnear = wrap(self.values(start)[0] + step * tc + self.r.randint(-2, 2), w)
            bk = self.r.randint(0, 9)
            if bk <= 5:
                bound = ("const", bnear)
            elif bk <= 7:
                bound = ("data", bnear, self.ch(1, 3))
            else:
                bound = ("n", self.ch(0, 1, -1, 7))
            sim = self.simulate(form, self.values(start), step, op, self.values(bound), signed, w, limit)
            if sim is None:
                continue
            return dict(w=w, signed=signed, form=form, step=step, op=op, start=start, bound=bound, sim=sim)
        return None

    def body(self, iv, L, depth, budget):
        w = L["w"]
        allivs = [v for _, ivs in L["sim"] for v in ivs]
        in_range = all(0 <= (sgn(v, w) if L["signed"] else v) <= 900 for v in allivs) if allivs else True
        iv32 = iv
        if w == 64:
            iv32 = self.R()
            self.e("cvt.u32.u64 \t%s, %s;" % (iv32, iv))
        for _ in range(self.r.randint(1, 5)):
            acc = self.ch(*self.accs)
            k = self.r.randint(0, 14)
            if k == 0:
                self.e("add.s32 \t%s, %s, %s;" % (acc, acc, iv32))
            elif k == 1:
                self.e("xor.b32 \t%s, %s, %s;" % (acc, acc, iv32))
            elif k == 2:
                self.e("mad.lo.s32 \t%s, %s, %d, %s;" % (acc, acc, self.ch(3, 31, -7), iv32))
            elif k == 3:
                t = self.R()
                self.e("shl.b32 \t%s, %s, %d;" % (t, iv32, self.r.randint(0, 31)))
                self.e("add.s32 \t%s, %s, %s;" % (acc, acc, t))
            elif k == 4:
                # masked load a[(gid + iv) & 1023]
                t, t2, a1, a2 = self.R(), self.R(), self.RD(), self.RD()
                self.e("add.s32 \t%s, %%r5, %s;" % (t, iv32))
                self.e("and.b32 \t%s, %s, 1023;" % (t2, t))
                self.e("mul.wide.u32 \t%s, %s, 4;" % (a1, t2))
                self.e("add.s64 \t%s, %%rd1, %s;" % (a2, a1))
                v = self.R()
                self.e("ld.global.u32 \t%s, [%s];" % (v, a2))
                self.e("add.s32 \t%s, %s, %s;" % (acc, acc, v))
            elif k == 5 and in_range:
                # direct IV-indexed load a[gid + iv*K] (address chain)
                K = self.ch(1, 2, 3)
                a1, a2 = self.RD(), self.RD()
                if w == 32:
                    self.e("mul.wide.%s32 \t%s, %s, %d;" % ("s" if L["signed"] else "u", a1, iv32, 4 * K))
                else:
                    self.e("mul.lo.s64 \t%s, %s, %d;" % (a1, iv, 4 * K))
                self.e("add.s64 \t%s, %%rd6, %s;" % (a2, a1))
                v = self.R()
                self.e("ld.global.u32 \t%s, [%s+%d];" % (v, a2, self.ch(0, 4, 8)))
                self.e("xor.b32 \t%s, %s, %s;" % (acc, acc, v))
            elif k == 6:
                # store to own slot (iv & 3), then reload another slot (aliasing)
                t, a1, a2 = self.R(), self.RD(), self.RD()
                self.e("and.b32 \t%s, %s, 3;" % (t, iv32))
                self.e("mul.wide.u32 \t%s, %s, 4;" % (a1, t))
                self.e("add.s64 \t%s, %%rd4, %s;" % (a2, a1))
                self.e("st.global.u32 \t[%s], %s;" % (a2, acc))
                if self.p(0.6):
                    v = self.R()
                    self.e("ld.global.u32 \t%s, [%%rd4+%d];" % (v, 4 * self.r.randint(0, 3)))
                    acc2 = self.ch(*self.accs)
                    self.e("add.s32 \t%s, %s, %s;" % (acc2, acc2, v))
            elif k == 7:
                q = self.P()
                t = self.R()
                self.e("setp.%s.%s32 \t%s, %s, %d;" % (self.ch("lt", "gt", "eq", "ne"), self.ch("s", "u"), q, iv32, self.r.randint(-3, 9)))
                self.e("selp.b32 \t%s, %s, %s, %s;" % (t, acc, iv32, q))
                self.e("add.s32 \t%s, %s, %s;" % (acc, t, self.r.randint(1, 9)))
            elif k == 8:
                q = self.P()
                sk = self.L()
                self.e("setp.%s.s32 \t%s, %s, %s;" % (self.ch("lt", "gt", "eq", "ne"), q, iv32, self.ch("%r5", "3", "%r8")))
                self.e("@%s bra \t%s;" % (q, sk))
                self.e("mul.lo.s32 \t%s, %s, %s;" % (acc, acc, iv32))
                self.e("add.s32 \t%s, %s, 1;" % (acc, acc))
                self.lab(sk)
            elif k == 9:
                self.e("mul.wide.s32 \t%%rd9, %s, %d;" % (iv32, self.ch(3, -5, 65537)))
                self.e("add.s64 \t%rd8, %rd8, %rd9;")
            elif k == 10 and depth > 0 and budget > 1:
                self.loop(depth - 1, budget // 2 if budget >= 4 else 1)
            elif k == 11:
                self.e("add.s32 \t%s, %s, %s;" % (acc, acc, self.ch(*self.accs)))
            elif k == 12:
                self.e("mul.lo.s32 \t%s, %s, %s;" % (acc, iv32, iv32))
            elif k == 14:
                # low bits of the IV (what an unroll may fix): (iv*c + d) & m,
                # rem.u by a power of two
                t, t2 = self.R(), self.R()
                self.e("mad.lo.s32 \t%s, %s, %d, %d;" % (t, iv32, self.ch(1, 1, 2, 3, 4, -1), self.r.randint(-3, 5)))
                if self.p(0.5):
                    self.e("and.b32 \t%s, %s, %d;" % (t2, t, self.ch(1, 3, 7, 2, 6)))
                else:
                    self.e("rem.u32 \t%s, %s, %d;" % (t2, t, self.ch(2, 4, 8)))
                self.e("add.s32 \t%s, %s, %s;" % (acc, acc, t2))
            else:
                t = self.R()
                self.e("shr.%s32 \t%s, %s, 1;" % (self.ch("s", "u"), t, acc))
                self.e("sub.s32 \t%s, %s, %s;" % (acc, t, iv32))

    def loop(self, depth, limit, L=None):
        if L is None:
            L = self.pick_loop(limit)
            if L is None:
                return None
        w = L["w"]
        ty = ("s" if L["signed"] else "u") + str(w)
        iv = self.materialize(L["start"], w)
        b = self.materialize(L["bound"], w) if L["bound"][0] != "const" else (str(sgn(L["bound"][1], w) if L["signed"] else wrap(L["bound"][1], w)) if w == 32 else "0x%016X" % wrap(L["bound"][1], 64))
        if L["bound"][0] == "const" and self.p(0.3):
            b = self.materialize(L["bound"], w)
        h = self.L()
        x = self.L()
        add = "add.s%d \t%s, %s, %d;" % (w, iv, iv, L["step"])
        if self.p(0.15):
            add = "sub.s%d \t%s, %s, %d;" % (w, iv, iv, -L["step"])
        q = self.P()
        if L["form"] == "top":
            self.lab(h)
            self.e("setp.%s.%s \t%s, %s, %s;" % (L["op"], ty, q, iv, b))
            self.e("@%s bra \t%s;" % (q, x))
            self.body(iv, L, depth, limit)
            self.e(add)
            self.e("bra.uni \t%s;" % h)
            self.lab(x)
        elif L["form"] == "bottom":
            self.lab(h)
            self.body(iv, L, depth, limit)
            self.e(add)
            if self.p(0.7):
                self.e("setp.%s.%s \t%s, %s, %s;" % (L["op"], ty, q, iv, b))
                self.e("@%s bra \t%s;" % (q, h))
            else:
                neg = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}[L["op"]]
                self.e("setp.%s.%s \t%s, %s, %s;" % (neg, ty, q, iv, b))
                self.e("@%s bra \t%s;" % (q, x))
                self.e("bra.uni \t%s;" % h)
                self.lab(x)
        else:
            self.lab(h)
            self.body(iv, L, depth, limit)
            self.e("setp.%s.%s \t%s, %s, %s;" % (L["op"], ty, q, iv, b))
            self.e(add)
            self.e("@%s bra \t%s;" % (q, h))
        # live-out IV
        acc = self.ch(*self.accs)
        if w == 32:
            self.e("add.s32 \t%s, %s, %s;" % (acc, acc, iv))
        else:
            t = self.R()
            self.e("cvt.u32.u64 \t%s, %s;" % (t, iv))
            self.e("xor.b32 \t%s, %s, %s;" % (acc, acc, t))
            self.e("add.s64 \t%%rd8, %%rd8, %s;" % iv)
        return L

    def kernel(self, name):
        r = self.r
        self.accs = ["%r10", "%r11", "%r12"]
        self.e("ld.param.u64 \t%%rd10, [%s_a];" % name)
        self.e("cvta.to.global.u64 \t%rd1, %rd10;")
        self.e("ld.param.u64 \t%%rd11, [%s_out];" % name)
        self.e("cvta.to.global.u64 \t%rd2, %rd11;")
        self.e("ld.param.u32 \t%%r1, [%s_n];" % name)
        self.e("mov.u32 \t%r2, %ctaid.x;")
        self.e("mov.u32 \t%r3, %ntid.x;")
        self.e("mov.u32 \t%r4, %tid.x;")
        self.e("mad.lo.s32 \t%r5, %r2, %r3, %r4;")
        self.e("mul.wide.u32 \t%rd3, %r5, 16;")
        self.e("add.s64 \t%rd4, %rd2, %rd3;")
        self.e("mul.wide.u32 \t%rd5, %r5, 4;")
        self.e("add.s64 \t%rd6, %rd1, %rd5;")
        self.e("ld.global.u32 \t%r7, [%rd6];")
        self.e("ld.global.u32 \t%r8, [%rd6+4];")
        self.e("ld.global.u32 \t%r10, [%rd6+8];")
        self.e("mov.u32 \t%r11, %r8;")
        self.e("xor.b32 \t%r12, %r7, 12345;")
        self.e("cvt.u64.u32 \t%rd8, %r8;")
        nloops = r.randint(1, 3)
        for _ in range(nloops):
            k = r.randint(0, 5)
            if k == 0:
                # twin loops with identical tests (fusion candidates)
                L = self.pick_loop(17)
                if L:
                    self.loop(0, 17, dict(L))
                    self.loop(0, 17, dict(L))
            elif k == 1:
                self.loop(1, 8)
            else:
                self.loop(r.randint(0, 1), 17 if k < 4 else 8)
        self.e("st.global.u32 \t[%rd4], %r10;")
        self.e("st.global.u32 \t[%rd4+4], %r11;")
        self.e("xor.b32 \t%r12, %r12, %r7;")
        self.e("st.global.u32 \t[%rd4+8], %r12;")
        self.e("cvt.u32.u64 \t%r13, %rd8;")
        self.e("st.global.u32 \t[%rd4+12], %r13;")
        self.e("ret;")
        head = (".visible .entry %s(\n\t.param .u64 %s_a,\n\t.param .u64 %s_out,\n\t.param .u32 %s_n\n)\n{\n"
                "\t.reg .pred \t%%p<%d>;\n\t.reg .b32 \t%%r<%d>;\n\t.reg .b64 \t%%rd<%d>;\n\n") % (
            name, name, name, name, self.np + 1, self.nr + 1, self.nrd + 1)
        return head + "\n".join(self.out) + "\n}\n"


def generate(seed):
    """The PTX text of module with kernel `k<seed>`."""
    return PTX_HEADER + G(seed).kernel("k%d" % seed)


if __name__ == "__main__":
    cli(generate, "gen_ptx_loops.py")
