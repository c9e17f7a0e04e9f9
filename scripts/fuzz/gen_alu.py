#!/usr/bin/env python3
"""Straight-line PTX ALU kernels, for fuzzing constant folding and peepholes.

    python3 gen_alu.py SEED > k.ptx

`generate(seed)` returns a PTX module (sm_80) with one kernel `k<SEED>`
(parameters: input buffer, output buffer): 8 to 40 random integer, 16-bit,
64-bit, predicate and a few f32 instructions over loaded data and edge
constants (0, 1, 31, 32, INT_MIN, -1, ...), including shift amounts past
the width, bfe/bfi/prmt/shf, mixed conversions and 64-bit halves. Divisors
are forced non-zero (and positive for signed division), so every result is
defined. The last twelve 32-bit values are stored, the others are folded
into an FNV hash, 64-bit values into a second hash.
"""
import random

from common import PTX_HEADER, PtxWriter, cli

E32 = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000,
       0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x12345678, 0xdeadbeef]
E64 = [0, 1, 2, 63, 64, 0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff,
       0x123456789abcdef0]


class G(PtxWriter):
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []
        self.n = {"r": 20, "rd": 20, "p": 0, "rs": 0, "f": 0}
        self.v32 = []
        self.v64 = []
        self.v16 = []
        self.vp = []
        self.vf = []
        self.hashed = []

    def new(self, k):
        self.n[k] += 1
        return "%%%s%d" % (k, self.n[k])

    def imm32(self):
        v = self.ch(*E32) if self.p(0.7) else self.r.randint(0, 0xffffffff)
        return str(v) if self.p(0.5) else "0x%08X" % v

    def imm64(self):
        v = self.ch(*E64) if self.p(0.7) else self.r.getrandbits(64)
        return "0x%016X" % v

    def src32(self):
        if not self.v32 or self.p(0.25):
            return self.imm32()
        return self.ch(*self.v32[-8:]) if self.p(0.7) else self.ch(*self.v32)

    def reg32(self):
        if not self.v32 or self.p(0.2):
            r = self.new("r")
            self.e("mov.u32 \t%s, %s;" % (r, self.imm32()))
            self.v32.append(r)
            return r
        return self.ch(*self.v32[-8:])

    def src64(self):
        if not self.v64 or self.p(0.25):
            return self.imm64()
        return self.ch(*self.v64[-6:])

    def reg64(self):
        if not self.v64 or self.p(0.2):
            r = self.new("rd")
            self.e("mov.u64 \t%s, %s;" % (r, self.imm64()))
            self.v64.append(r)
            return r
        return self.ch(*self.v64[-6:])

    def d32(self, ins):
        r = self.new("r")
        self.e(ins.replace("%s", r, 1))
        self.v32.append(r)

    def d64(self, ins):
        r = self.new("rd")
        self.e(ins.replace("%s", r, 1))
        self.v64.append(r)

    def step(self):
        k = self.r.randint(0, 45)
        a = self.reg32()
        b = self.src32()
        S = self.ch("s", "u")
        if k <= 2:
            self.d32("%s.%s32 \t%%s, %s, %s;" % (self.ch("add", "sub"), S, a, b))
        elif k <= 4:
            self.d32("%s.b32 \t%%s, %s, %s;" % (self.ch("and", "or", "xor"), a, b))
        elif k == 5:
            self.d32("mul.lo.%s32 \t%%s, %s, %s;" % (S, a, b))
        elif k == 6:
            self.d32("mul.hi.%s32 \t%%s, %s, %s;" % (S, a, b))
        elif k == 7:
            self.d32("mad.lo.%s32 \t%%s, %s, %s, %s;" % (S, a, b, self.src32()))
        elif k == 8:
            self.d32("mad.hi.%s32 \t%%s, %s, %s, %s;" % (S, a, b, self.src32()))
        elif k <= 10:
            sh = self.ch(str(self.r.randint(0, 40)), self.src32(), "0", "31", "32", "33")
            self.d32("%s \t%%s, %s, %s;" % (self.ch("shl.b32", "shr.u32", "shr.s32", "shr.b32"), a, sh))
        elif k == 11:
            # div / rem by nonzero value: divisor = b | 1 (and not -1 for signed to avoid INT_MIN/-1)
            t = self.new("r")
            self.e("or.b32 \t%s, %s, 1;" % (t, b if b.startswith("%") else self.reg32()))
            if S == "s":
                t2 = self.new("r")
                self.e("and.b32 \t%s, %s, 0x7FFFFFFF;" % (t2, t))
                t = t2
            self.d32("%s.%s32 \t%%s, %s, %s;" % (self.ch("div", "rem"), S, a, t))
        elif k == 12:
            c = self.ch(1, 2, 3, 4, 5, 7, 8, 16, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff, 10, 1000)
            if S == "s" and c >= 0x80000000:
                c = 3
            self.d32("%s.%s32 \t%%s, %s, %d;" % (self.ch("div", "rem"), S, a, c))
        elif k == 13:
            self.d32("%s.%s32 \t%%s, %s, %s;" % (self.ch("min", "max"), S, a, b))
        elif k == 14:
            self.d32("%s.s32 \t%%s, %s;" % (self.ch("abs", "neg"), a))
        elif k == 15:
            self.d32("%s.b32 \t%%s, %s;" % (self.ch("not", "popc", "clz", "brev", "cnot"), a))
        elif k == 16:
            self.d32("bfe.%s32 \t%%s, %s, %d, %d;" % (S, a, self.r.randint(0, 33), self.r.randint(0, 33)))
        elif k == 17:
            self.d32("bfi.b32 \t%%s, %s, %s, %d, %d;" % (a, b, self.r.randint(0, 33), self.r.randint(0, 33)))
        elif k == 18:
            self.d32("prmt.b32 \t%%s, %s, %s, 0x%04X;" % (a, b, self.r.getrandbits(16)))
        elif k <= 21:
            q = self.new("p")
            op = self.ch("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs")
            ty = self.ch("s32", "u32", "b32") if op in ("eq", "ne") else (self.ch("s32", "u32") if op in ("lt", "le", "gt", "ge") else "u32")
            self.e("setp.%s.%s \t%s, %s, %s;" % (op, ty, q, a, b))
            self.vp.append(q)
            self.d32("selp.b32 \t%%s, %s, %s, %s;" % (self.src32(), self.src32(), q))
        elif k == 22 and self.vp:
            q = self.ch(*self.vp)
            q2 = self.new("p")
            self.e("%s.pred \t%s, %s, %s;" % (self.ch("and", "or", "xor"), q2, q, self.ch(*self.vp)))
            self.vp.append(q2)
            self.d32("selp.b32 \t%%s, %s, %s, %s;" % (a, b, q2 if self.p(0.5) else q))
        elif k == 23:
            # predicated instruction
            if self.vp:
                q = self.ch(*self.vp)
                r = self.new("r")
                self.e("mov.u32 \t%s, %s;" % (r, a))
                self.e("@%s%s add.s32 \t%s, %s, %s;" % (self.ch("", "!"), q, r, r, b))
                self.v32.append(r)
        elif k <= 25:
            # 16/8-bit conversions
            src_t = self.ch("u8", "s8", "u16", "s16")
            self.d32("cvt.u32.u32 \t%%s, %s;" % a)  # src_t: drawn only to keep seeds stable
            rs = self.new("rs")
            self.e("cvt.%s.%s32 \t%s, %s;" % (self.ch("u16", "s16"), self.ch("u", "s"), rs, a))
            rs2 = self.new("rs")
            op16 = self.ch("add", "mul.lo", "sub", "shr", "shl", "min", "max", "mul.hi")
            opnd = str(self.r.randint(0, 20)) if op16 in ("shr", "shl") else self.ch(str(self.r.randint(0, 70000) & 0xffff), rs)
            self.e("%s.%s \t%s, %s, %s;" % (op16, ("b16" if op16 == "shl" else self.ch("s16", "u16")), rs2, rs, opnd))
            self.d32("cvt.%s32.%s16 \t%%s, %s;" % (self.ch("u", "s"), self.ch("u", "s"), rs2))
        elif k == 26:
            self.d32("cvt.%s32.%s \t%%s, %s;" % (self.ch("u", "s"), self.ch("u8", "s8", "u16", "s16"), a))
        elif k == 27:
            self.d32("and.b32 \t%%s, %s, %s;" % (a, self.ch("0xFF", "0xFFFF", "255", "65535", "0xFF00")))
        elif k == 28:
            self.d64("mul.wide.%s32 \t%%s, %s, %s;" % (S, a, b))
        elif k == 29:
            self.d64("cvt.%s64.%s32 \t%%s, %s;" % (self.ch("u", "s"), S, a))
        elif k == 30:
            x = self.reg64()
            self.d64("%s.%s64 \t%%s, %s, %s;" % (self.ch("add", "sub", "mul.lo", "mul.hi", "min", "max"), S, x, self.src64()))
        elif k == 31:
            x = self.reg64()
            sh = self.ch(str(self.r.randint(0, 70)), a, "32", "63", "64")
            self.d64("%s \t%%s, %s, %s;" % (self.ch("shl.b64", "shr.u64", "shr.s64"), x, sh))
        elif k == 32:
            x = self.reg64()
            self.d32("cvt.u32.u64 \t%%s, %s;" % x)
        elif k == 33:
            x = self.reg64()
            t = self.new("rd")
            self.e("or.b64 \t%s, %s, 1;" % (t, self.reg64()))
            if S == "s":
                t2 = self.new("rd")
                self.e("and.b64 \t%s, %s, 0x7FFFFFFFFFFFFFFF;" % (t2, t))
                t = t2
            self.d64("%s.%s64 \t%%s, %s, %s;" % (self.ch("div", "rem"), S, x, t))
        elif k == 34:
            x = self.reg64()
            self.d64("%s.b64 \t%%s, %s, %s;" % (self.ch("and", "or", "xor"), x, self.src64()))
        elif k == 35:
            x = self.reg64()
            lo, hi = self.new("r"), self.new("r")
            self.e("mov.b64 \t{%s, %s}, %s;" % (lo, hi, x))
            self.v32 += [lo, hi]
        elif k == 36:
            self.d64("mov.b64 \t%%s, {%s, %s};" % (a, self.reg32()))
        elif k == 37:
            self.d32("sad.%s32 \t%%s, %s, %s, %s;" % (S, a, b, self.src32()))
        elif k == 38:
            self.d32("add.s32 \t%%s, %s, %s;" % (a, b))
        elif k == 39:
            self.d32("mul24.lo.%s32 \t%%s, %s, %s;" % (S, a, b))
        elif k == 40:
            self.d32("shf.%s.%s.b32 \t%%s, %s, %s, %s;" % (self.ch("l", "r"), self.ch("wrap", "clamp"), a, self.reg32(), self.ch(str(self.r.randint(0, 40)), b)))
        elif k <= 42:
            # float ops from int bits
            f = self.new("f")
            self.e("mov.b32 \t%s, %s;" % (f, a))
            g = self.new("f")
            op = self.ch("add.rn.f32", "mul.rn.f32", "sub.f32", "min.f32", "max.f32", "add.f32", "mul.f32")
            self.e("%s \t%s, %s, %s;" % (op, g, f, self.ch("0f3F800000", "0f00000000", "0f80000000", "0f7F800000", "0fFFC00000", "0f40400000", f)))
            if self.p(0.4):
                h = self.new("f")
                self.e("fma.rn.f32 \t%s, %s, %s, %s;" % (h, g, f, self.ch("0f3F000000", g, f)))
                g = h
            self.d32("mov.b32 \t%%s, %s;" % g)
        elif k == 43:
            f = self.new("f")
            self.e("mov.b32 \t%s, %s;" % (f, a))
            self.d32("cvt.%s.%s32.f32 \t%%s, %s;" % (self.ch("rzi", "rni", "rmi", "rpi"), S, f))
        elif k == 44:
            f = self.new("f")
            self.e("cvt.rn.f32.%s32 \t%s, %s;" % (S, f, a))
            self.d32("mov.b32 \t%%s, %s;" % f)
        else:
            q = self.new("p")
            self.e("setp.%s.%s32 \t%s, %s, %s;" % (self.ch("lt", "ge", "eq", "ne"), S, q, a, b))
            self.vp.append(q)
            self.d32("selp.s32 \t%%s, -1, 0, %s;" % q)

    def kernel(self, name):
        self.e("ld.param.u64 \t%%rd1, [%s_a];" % name)
        self.e("cvta.to.global.u64 \t%rd2, %rd1;")
        self.e("ld.param.u64 \t%%rd3, [%s_out];" % name)
        self.e("cvta.to.global.u64 \t%rd4, %rd3;")
        self.e("mov.u32 \t%r1, %ctaid.x;")
        self.e("mov.u32 \t%r2, %ntid.x;")
        self.e("mov.u32 \t%r3, %tid.x;")
        self.e("mad.lo.s32 \t%r4, %r1, %r2, %r3;")
        self.e("mul.wide.u32 \t%rd5, %r4, 64;")
        self.e("add.s64 \t%rd6, %rd4, %rd5;")
        self.e("mul.wide.u32 \t%rd7, %r4, 8;")
        self.e("add.s64 \t%rd8, %rd2, %rd7;")
        for i in range(4):
            r = "%%r%d" % (10 + i)
            self.e("ld.global.u32 \t%s, [%%rd8+%d];" % (r, 4 * i))
            self.v32.append(r)
        self.e("ld.global.u64 \t%rd9, [%rd8+16];")
        self.v64.append("%rd9")
        for _ in range(self.r.randint(8, 40)):
            self.step()
        # outputs: last 12 32-bit values, hash of all, 64-bit values folded
        vals = self.v32[-12:]
        for i, v in enumerate(vals):
            self.e("st.global.u32 \t[%%rd6+%d], %s;" % (4 * i, v))
        h = self.new("r")
        self.e("mov.u32 \t%s, 0x811C9DC5;" % h)
        for v in self.v32[4:-12]:
            t = self.new("r")
            self.e("xor.b32 \t%s, %s, %s;" % (t, h, v))
            h = self.new("r")
            self.e("mul.lo.s32 \t%s, %s, 16777619;" % (h, t))
        self.e("st.global.u32 \t[%%rd6+48], %s;" % h)
        h64 = self.new("rd")
        self.e("mov.u64 \t%s, 0;" % h64)
        for v in self.v64[1:]:
            t = self.new("rd")
            self.e("xor.b64 \t%s, %s, %s;" % (t, h64, v))
            h64 = self.new("rd")
            self.e("mul.lo.s64 \t%s, %s, 1099511628211;" % (h64, t))
        self.e("st.global.u64 \t[%%rd6+56], %s;" % h64)
        self.e("ret;")
        head = (".visible .entry %s(\n\t.param .u64 %s_a,\n\t.param .u64 %s_out\n)\n{\n"
                "\t.reg .pred \t%%p<%d>;\n\t.reg .b16 \t%%rs<%d>;\n\t.reg .b32 \t%%r<%d>;\n\t.reg .f32 \t%%f<%d>;\n\t.reg .b64 \t%%rd<%d>;\n\n") % (
            name, name, name, self.n["p"] + 1, self.n["rs"] + 1, self.n["r"] + 1, self.n["f"] + 1, self.n["rd"] + 1)
        return head + "\n".join(self.out) + "\n}\n"


def generate(seed):
    """The PTX text of module with kernel `k<seed>`."""
    return PTX_HEADER + G(seed).kernel("k%d" % seed)


if __name__ == "__main__":
    cli(generate, "gen_alu.py")
