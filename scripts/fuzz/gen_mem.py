#!/usr/bin/env python3
"""Random PTX memory kernels, for fuzzing ptxopt's memory-ordering and
aliasing rules (load commoning, redundant reloads, dead stores, LICM,
mem2reg, the scheduler, unrolling and predication around memory).

    python3 gen_mem.py SEED > k.ptx

`generate(seed)` returns a PTX module (sm_80) with one kernel `k<SEED>`
(parameters: read-only input buffer `in`, output buffer `out`, exchange and
result buffer `xb`, u32 `n`) and, when it calls any, small `.func`s that
read or write through a pointer argument. Each thread works on memory only
it touches:

- 16 words of `out` at `gid * 64` (global), 8 words of shared memory at
  `ftid * 32`, a 16-word `.local` array `lc`; addressed with constant
  offsets, masked computed indexes (so two accesses sometimes alias and
  sometimes not), bytes, halves, 64-bit and vector accesses (partial
  overlaps), through generic addresses (`cvta`), through a pointer stored to
  local memory and loaded back, through `in + (out - in)` (a pointer whose
  base register names the other buffer), and through a pointer register
  moved up and down between accesses written with the same text;
- a `.local` array `lk` accessed only at constant offsets in slots of 4 or
  8 bytes (scalar, vector, generic, guarded), which nvptx-mem2reg promotes;
- repeated loads of one address (into a new or the same register) around a
  store, an atomic or `red` on the thread's own words (deterministic: no
  other thread touches them), a fence or `membar`, a volatile or
  relaxed/acquire/release access, a `cp.async` into the words, a call;
  store, load, store sequences; store-then-load forwarding across widths;
- loops with data-dependent trip counts (zero included) whose bodies read
  memory they write (recurrences through memory), loops whose exit test
  loads a word the body writes, two adjacent loops with one constant trip
  count over the same words (fusion candidates), loop-invariant loads whose
  address is in bounds only when the loop runs at least once, and
  branches whose fall-through path loads from an address valid only there;
- predicated (`@p`/`@!p`) loads and stores, where a guarded load's address
  is in bounds only under its guard, and `selp` over loaded values;
- `ld.global.nc` (only of `in`, never written), `ld.const`, repeated
  `ld.param`.

Cross-thread traffic is only at uniform control flow: exchange steps
(`bar.sync`, store to the thread's own exchange word in `xb` or shared
memory, one atomic kind per kernel on a per-CTA counter with unused result,
`bar.sync`, then reads of the neighbour `ftid ^ 1`, whose word stays
unchanged until the next exchange step), and warp-specialized loops with a
uniform trip count where the first warp stores between two barriers and the
other warps only load (so their loop holds no store, yet its loads are not
invariant). Every register is written before it is read (guarded loads
load into initialized registers), local and shared words are written
before they are read, and the thread's local and shared words and hashes
of all values are stored to `xb` at the end, so any reordering, commoning,
forwarding, hoisting or deletion across these accesses changes the output
(or faults).
"""
import random
import re

from common import PTX_HEADER, PtxWriter, cli

FENCES = ["membar.cta;", "membar.gl;", "membar.sys;", "fence.sc.cta;", "fence.acq_rel.gpu;",
          "fence.sc.gpu;", "fence.acq_rel.cta;"]
ATOM_OPS = [("add", "u32"), ("exch", "b32"), ("cas", "b32"), ("min", "u32"), ("max", "s32"),
            ("and", "b32"), ("or", "b32"), ("xor", "b32"), ("inc", "u32"), ("dec", "u32"),
            ("min", "s32"), ("max", "u32")]
RED_OPS = [("add", "u32"), ("min", "u32"), ("max", "s32"), ("and", "b32"), ("or", "b32"),
           ("xor", "b32"), ("inc", "u32"), ("dec", "u32")]
# counter atomics: one kind per kernel (mixed kinds on one word depend on thread order)
CNT_OPS = [("add", "u32"), ("or", "b32"), ("xor", "b32"), ("max", "u32"), ("min", "u32"), ("and", "b32")]

WORDS = {"g": 16, "s": 8, "l": 16}


class G(PtxWriter):
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []
        self.n = {"r": 0, "rd": 0, "p": 0, "rs": 0}
        self.nl = 0
        self.pool = [[]]        # defined 32-bit values per scope (outermost first)
        self.accs = []
        self.xch = False        # an exchange step has made neighbour words readable
        self.cnt_op = self.r.choice(CNT_OPS)
        self.scnt_op = self.r.choice(CNT_OPS)
        self.depth = 0
        self.budget = 0
        self.ivs = []           # (register, max trip count) of enclosing loops
        self.funcs = set()
        self.gen_only = self.r.random() < 0.2   # global stores only through generic addresses
        self.GS = "" if self.gen_only else ".global"

    # ------------------------------------------------------------ helpers
    def lab(self, s):
        self.out.append(s + ":")

    def new(self, k):
        self.n[k] += 1
        return "%%%s%d" % ({"r": "r", "rd": "rd", "p": "p", "rs": "rs"}[k], self.n[k])

    def R(self):
        return self.new("r")

    def RD(self):
        return self.new("rd")

    def P(self):
        return self.new("p")

    def L(self):
        self.nl += 1
        return "$L_%d" % self.nl

    def val(self):
        """A defined 32-bit register or an immediate."""
        if self.p(0.15):
            return str(self.ch(0, 1, 7, 255, -1, 0x7fffffff, -2147483648, 0x1234567, self.r.randint(0, 1 << 16)))
        allv = [v for sc in self.pool for v in sc] + self.accs + [iv for iv, _ in self.ivs]
        return self.ch(*allv)

    def reg(self):
        v = self.val()
        if v.startswith("%"):
            return v
        r = self.R()
        self.e("mov.u32 \t%s, %s;" % (r, v))
        return r

    def define(self, r):
        self.pool[-1].append(r)

    def mix(self, v):
        a = self.ch(*self.accs)
        k = self.r.randint(0, 3)
        if k == 0:
            self.e("mad.lo.s32 \t%s, %s, 31, %s;" % (a, a, v))
        elif k == 1:
            self.e("xor.b32 \t%s, %s, %s;" % (a, a, v))
            self.e("shf.l.wrap.b32 \t%s, %s, %s, 7;" % (a, a, a))
        elif k == 2:
            self.e("add.s32 \t%s, %s, %s;" % (a, a, v))
            self.e("mul.lo.s32 \t%s, %s, -1640531535;" % (a, a))
        else:
            self.e("sub.s32 \t%s, %s, %s;" % (a, a, v))
            self.e("xor.b32 \t%s, %s, 0x5bd1e995;" % (a, a))

    def mix64(self, v):
        lo, hi = self.R(), self.R()
        self.e("mov.b64 \t{%s, %s}, %s;" % (lo, hi, v))
        self.mix(lo)
        self.mix(hi)

    def index(self, words, align=1):
        """A masked word-index register in [0, words), multiple of align, or None for a constant."""
        kind = self.r.randint(0, 9)
        mask = (words - 1) & ~(align - 1)
        if kind <= 3:
            return None
        r = self.R()
        if kind <= 5 and self.ivs:
            iv, _ = self.ch(*self.ivs)
            t = self.R()
            self.e("add.s32 \t%s, %s, %d;" % (t, iv, self.r.randint(0, 3)))
            self.e("and.b32 \t%s, %s, %d;" % (r, t, mask))
        elif kind == 6:
            # a small mask: equal to some constant index often
            m = self.ch(1, 3) * align
            t = self.R()
            self.e("and.b32 \t%s, %s, %d;" % (t, self.reg(), m & mask))
            self.e("add.s32 \t%s, %s, %d;" % (r, t, self.r.randint(0, words - 4) & ~(align - 1)))
            self.e("and.b32 \t%s, %s, %d;" % (r, r, mask))
        else:
            self.e("and.b32 \t%s, %s, %d;" % (r, self.reg(), mask))
        return r

    # ------------------------------------------------------------ addresses
    def address(self, space, words=None, align=1, generic_ok=True, word=None, byte=0, st=False):
        """(state space qualifier, address operand) of a word of this thread's memory.

        space: g (own 16 words of out), s (own 8 shared words), l (local array).
        The access covers `align` words starting at an align-multiple word; `byte`
        is added (sub-word accesses)."""
        words = words or WORDS[space]
        idx = None
        if word is None:
            idx = self.index(words, align)
            if idx is None:
                word = self.r.randrange(0, words, align)
        base = {"g": "%rd_g", "s": "%rd_s", "l": "%rd_l"}[space]
        sp = {"g": ".global", "s": ".shared", "l": ".local"}[space]
        mode = self.r.randint(0, 11)
        if space == "g" and self.gen_only and st:
            mode = self.ch(7, 8, 9)
        if not generic_ok and mode >= 7:
            mode = 0
        if mode >= 7:
            # generic
            if space == "g" and mode == 8:
                base = "%rd_gp"        # out param (generic) + gid * 64
            elif space == "g" and mode == 9:
                base = "%rd_gx"        # in + (out - in) + gid * 64, generic
            else:
                base = {"g": "%rd_gg", "s": "%rd_sg", "l": "%rd_lg"}[space]
            sp = ""
        elif space == "g" and mode == 6:
            base = "%rd_gy"            # in(global) + (out - in) + gid * 64
        elif space == "g" and mode == 5 and self.spilled:
            t = self.RD()
            self.e("ld.local.u64 \t%s, [%%rd_lp];" % t)   # pointer through local memory
            base = t
        if idx is None:
            off = word * 4 + byte
            if self.p(0.3) and off:
                t = self.RD()
                self.e("add.s64 \t%s, %s, %d;" % (t, base, off))
                return sp, "[%s]" % t
            return sp, ("[%s+%d]" % (base, off)) if off else "[%s]" % base
        t = self.RD()
        a = self.RD()
        if self.p(0.5):
            self.e("mul.wide.u32 \t%s, %s, 4;" % (t, idx))
            self.e("add.s64 \t%s, %s, %s;" % (a, base, t))
        else:
            self.e("cvt.u64.u32 \t%s, %s;" % (t, idx))
            self.e("shl.b64 \t%s, %s, 2;" % (t, t))
            self.e("add.s64 \t%s, %s, %s;" % (a, t, base))
        return sp, ("[%s+%d]" % (a, byte)) if byte else "[%s]" % a

    def space(self):
        return self.ch("g", "g", "g", "s", "s", "l", "l")

    # ------------------------------------------------------------ accesses
    def load(self, space=None, addr=None, dst=None):
        """A load of this thread's memory; mixes the value (or returns it)."""
        space = space or self.space()
        k = self.r.randint(0, 15)
        if k <= 6 or addr is not None:
            sp, a = addr or self.address(space)
            q = ""
            if self.p(0.25):
                q = self.ch(".volatile", ".volatile", ".relaxed.cta", ".acquire.cta") if sp != ".local" else ""
                if q.startswith(".relaxed") or q.startswith(".acquire"):
                    if space == "g" and self.p(0.5):
                        q = q.replace("cta", "gpu")
            elif space == "g" and sp == ".global" and self.p(0.2):
                q = self.ch(".ca", ".cg", ".cv", ".lu")
            v = dst or self.R()
            self.e("ld%s%s.u32 \t%s, %s;" % (q if not q.startswith(".c") and q != ".lu" else "", sp + (q if q.startswith(".c") or q == ".lu" else ""), v, a))
            if dst:
                return v
            self.define(v)
            self.mix(v)
            return v
        if k <= 8:
            # sub-word
            w = self.ch("u8", "s8", "u16", "s16")
            byte = self.r.randrange(0, 4, 1 if w.endswith("8") else 2)
            sp, a = self.address(space, byte=byte)
            v = self.R()
            self.e("ld%s.%s \t%s, %s;" % (sp, w, v, a))
            self.define(v)
            self.mix(v)
        elif k <= 10:
            sp, a = self.address(space, align=2)
            v = self.RD()
            self.e("ld%s.u64 \t%s, %s;" % (sp, v, a))
            self.mix64(v)
        elif k <= 12:
            sp, a = self.address(space, align=2)
            v1, v2 = self.R(), self.R()
            self.e("ld%s.v2.u32 \t{%s, %s}, %s;" % (sp, v1, v2, a))
            self.define(v1)
            self.mix(v1)
            self.mix(v2)
        else:
            sp, a = self.address(space, align=4)
            vs = [self.R() for _ in range(4)]
            self.e("ld%s.v4.u32 \t{%s}, %s;" % (sp, ", ".join(vs), a))
            for v in vs:
                if self.p(0.6):
                    self.mix(v)
            self.define(vs[0])

    def store(self, space=None, addr=None, v=None):
        space = space or self.space()
        k = self.r.randint(0, 15)
        if k <= 7 or addr is not None:
            sp, a = addr or self.address(space, st=True)
            q = ""
            if self.p(0.2):
                q = self.ch(".volatile", ".relaxed.cta", ".release.cta") if sp != ".local" else ""
                if space == "g" and q != ".volatile" and self.p(0.5):
                    q = q.replace("cta", "gpu")
            elif space == "g" and sp == ".global" and self.p(0.15):
                sp += self.ch(".wb", ".cg", ".cs", ".wt")
            self.e("st%s%s.u32 \t%s, %s;" % (q, sp, a, v or self.val()))
        elif k <= 9:
            w = self.ch("u8", "u16", "b8", "b16")
            byte = self.r.randrange(0, 4, 1 if w.endswith("8") else 2)
            sp, a = self.address(space, byte=byte, st=True)
            self.e("st%s.%s \t%s, %s;" % (sp, w, a, self.reg()))
        elif k <= 11:
            sp, a = self.address(space, align=2, st=True)
            t = self.RD()
            if self.p(0.5):
                self.e("mov.b64 \t%s, {%s, %s};" % (t, self.reg(), self.reg()))
            else:
                self.e("mul.wide.u32 \t%s, %s, %s;" % (t, self.reg(), self.reg()))
            self.e("st%s.u64 \t%s, %s;" % (sp, a, t))
        elif k <= 13:
            sp, a = self.address(space, align=2, st=True)
            self.e("st%s.v2.u32 \t%s, {%s, %s};" % (sp, a, self.val(), self.val()))
        else:
            sp, a = self.address(space, align=4, st=True)
            self.e("st%s.v4.u32 \t%s, {%s, %s, %s, %s};" % (sp, a, self.val(), self.val(), self.val(), self.val()))

    def atomic(self, space=None):
        """An atomic or red on the thread's own global or shared words."""
        space = space or self.ch("g", "g", "s")
        sp, a = self.address(space, st=True)
        sem = ""
        if self.p(0.15):
            sem = self.ch(".relaxed.gpu", ".acq_rel.gpu", ".relaxed.cta", ".acquire.cta", ".release.gpu")
        if self.p(0.3):
            op, ty = self.ch(*RED_OPS)
            if sem.startswith((".acq", ".acquire")):
                sem = ""
            self.e("red%s%s.%s.%s \t%s, %s;" % (sem, sp, op, ty, a, self.val()))
            return
        if self.p(0.12):
            op, ty = self.ch(("add", "u64"), ("exch", "b64"), ("cas", "b64"), ("max", "u64"), ("or", "b64"))
            sp, a = self.address(space, align=2, st=True)
            d, b = self.RD(), self.RD()
            self.e("mov.b64 \t%s, {%s, %s};" % (b, self.reg(), self.reg()))
            if op == "cas":
                c = self.RD()
                self.e("mov.b64 \t%s, {%s, %s};" % (c, self.reg(), self.reg()))
                self.e("atom%s%s.cas.b64 \t%s, %s, %s, %s;" % (sem, sp, d, a, c, b))
            else:
                self.e("atom%s%s.%s.%s \t%s, %s, %s;" % (sem, sp, op, ty, d, a, b))
            self.mix64(d)
            return
        op, ty = self.ch(*ATOM_OPS)
        d = self.R()
        if op == "cas":
            cmp = self.val() if self.p(0.5) else None
            if cmp is None:
                # compare with the current value sometimes: load first
                cmp = self.load(space, addr=(sp, a), dst=self.R())
            self.e("atom%s%s.cas.b32 \t%s, %s, %s, %s;" % (sem, sp, d, a, cmp, self.val()))
        else:
            self.e("atom%s%s.%s.%s \t%s, %s, %s;" % (sem, sp, op, ty, d, a, self.val()))
        self.define(d)
        self.mix(d)

    def between(self, space, addr):
        """Something between two loads of addr that a merge of the loads must respect."""
        k = self.r.randint(0, 11)
        if k <= 2:
            # a store to the same address, a maybe-aliasing one, or another space
            self.store(space if self.p(0.8) else None, addr=addr if self.p(0.4) else None)
        elif k <= 4 and space != "l" and addr[0] != ".local":
            if self.p(0.5):
                self.atomic(space)
            else:
                op, ty = self.ch(*ATOM_OPS)
                d = self.R()
                if op == "cas":
                    self.e("atom%s.cas.b32 \t%s, %s, %s, %s;" % (addr[0], d, addr[1], self.val(), self.val()))
                else:
                    self.e("atom%s.%s.%s \t%s, %s, %s;" % (addr[0], op, ty, d, addr[1], self.val()))
                self.define(d)
                self.mix(d)
        elif k == 5:
            self.e(self.ch(*FENCES))
            if self.p(0.5):
                self.store(space)
        elif k == 6 and self.depth == 0 and self.p(0.5):
            self.exchange()
        elif k == 7:
            self.predicated_store(space)
        elif k == 8:
            # volatile store to the same address
            q = "" if addr[0] == ".local" else ".volatile" if space == "l" else self.ch(".volatile", ".relaxed.gpu", ".release.gpu")
            if space == "s" and q != ".volatile":
                q = q.replace("gpu", "cta")
            self.e("st%s%s.u32 \t%s, %s;" % (q, addr[0], addr[1], self.val()))
        elif k == 9:
            self.store(space)
            self.e(self.ch(*FENCES))
        elif k == 10:
            self.load(space)
            self.store(space)
        else:
            pass  # nothing: the loads may be merged

    def twice(self):
        """Two loads of one address with something between."""
        space = self.space()
        addr = self.address(space, st=True)
        v1 = self.load(space, addr=addr, dst=self.R())
        self.define(v1)
        self.mix(v1)
        self.between(space, addr)
        if self.p(0.3):
            # the same address again, computed anew
            v2 = self.R()
            sp, a = addr
            if a.startswith("[%rd_") and "+" in a:
                base, off = a[1:-1].split("+")
                t = self.RD()
                self.e("add.s64 \t%s, %s, %s;" % (t, base, off))
                a = "[%s]" % t
            self.e("ld%s.u32 \t%s, %s;" % (sp, v2, a))
        elif self.p(0.3):
            # reload into the same register (what unrolled copies look like)
            v2 = self.load(space, addr=addr, dst=v1)
        else:
            v2 = self.load(space, addr=addr, dst=self.R())
        self.define(v2)
        self.mix(v2)
        if self.p(0.5) and v2 != v1:
            d = self.R()
            self.e("sub.s32 \t%s, %s, %s;" % (d, v2, v1))
            self.mix(d)

    def store_load_store(self):
        space = self.space()
        addr = self.address(space, st=True)
        self.store(space, addr=addr)
        if self.p(0.8):
            self.load(space)
        else:
            self.between(space, addr)
        self.store(space, addr=addr if self.p(0.7) else None)

    def forward(self):
        """A store then a load of the same or an overlapping address (store-to-load forwarding)."""
        space = self.space()
        word = self.r.randrange(0, WORDS[space], 4)
        k = self.r.randint(0, 5)
        if k == 0:
            sp, a = self.address(space, word=word, align=4, st=True)
            self.e("st%s.v4.u32 \t%s, {%s, %s, %s, %s};" % (sp, a, self.val(), self.val(), self.val(), self.val()))
        elif k == 1:
            sp, a = self.address(space, word=word + self.ch(0, 2), align=2, st=True)
            t = self.RD()
            self.e("mov.b64 \t%s, {%s, %s};" % (t, self.reg(), self.reg()))
            self.e("st%s.u64 \t%s, %s;" % (sp, a, t))
        elif k == 2:
            sp, a = self.address(space, word=word + self.r.randint(0, 3), byte=self.r.randint(0, 3), st=True)
            self.e("st%s.u8 \t%s, %s;" % (sp, a, self.reg()))
        elif k == 3:
            sp, a = self.address(space, word=word + self.r.randint(0, 3), byte=self.ch(0, 2), st=True)
            self.e("st%s.u16 \t%s, %s;" % (sp, a, self.reg()))
        else:
            sp, a = self.address(space, word=word + self.r.randint(0, 3), st=True)
            self.e("st%s.u32 \t%s, %s;" % (sp, a, self.val()))
        if self.p(0.3):
            self.between(space, self.address(space, word=word + self.r.randint(0, 3), st=True))
        k = self.r.randint(0, 4)
        if k == 0:
            sp, a = self.address(space, word=word, align=4)
            vs = [self.R() for _ in range(4)]
            self.e("ld%s.v4.u32 \t{%s}, %s;" % (sp, ", ".join(vs), a))
            for v in vs:
                self.mix(v)
        elif k == 1:
            sp, a = self.address(space, word=word + self.ch(0, 2), align=2)
            t = self.RD()
            self.e("ld%s.u64 \t%s, %s;" % (sp, t, a))
            self.mix64(t)
        elif k == 2:
            sp, a = self.address(space, word=word + self.r.randint(0, 3), byte=self.r.randint(0, 3))
            v = self.R()
            self.e("ld%s.%s \t%s, %s;" % (sp, self.ch("u8", "s8"), v, a))
            self.mix(v)
        elif k == 3:
            sp, a = self.address(space, word=word + self.r.randint(0, 3), byte=self.ch(0, 2))
            v = self.R()
            self.e("ld%s.%s \t%s, %s;" % (sp, self.ch("u16", "s16"), v, a))
            self.mix(v)
        else:
            sp, a = self.address(space, word=word + self.r.randint(0, 3))
            v = self.R()
            self.e("ld%s.u32 \t%s, %s;" % (sp, v, a))
            self.define(v)
            self.mix(v)

    def pred(self):
        p = self.P()
        if self.p(0.3):
            # one predicate register written many times: equal guards, different values
            p = "%p_g"
            if self.p(0.4):
                return p
        k = self.r.randint(0, 3)
        if k == 0:
            self.e("setp.%s.u32 \t%s, %s, %s;" % (self.ch("lt", "ge", "eq", "ne"), p, self.reg(), self.val()))
        elif k == 1:
            t = self.R()
            self.e("and.b32 \t%s, %s, %d;" % (t, self.reg(), self.ch(1, 2, 4, 8, 3)))
            self.e("setp.%s.u32 \t%s, %s, 0;" % (self.ch("eq", "ne"), p, t))
        elif k == 2:
            self.e("setp.%s.u32 \t%s, %%r_ftid, %d;" % (self.ch("lt", "ge", "eq", "ne"), p, self.ch(0, 1, 5, 31, 40, 100)))
        else:
            self.e("setp.%s.s32 \t%s, %s, %s;" % (self.ch("lt", "gt", "le"), p, self.reg(), self.reg()))
        return p

    def predicated_store(self, space=None):
        space = space or self.space()
        p = self.pred()
        a = self.address(space, st=True)
        self.e("@%s st%s.u32 \t%s, %s;" % (p, a[0], a[1], self.val()))
        if self.p(0.6):
            b = a if self.p(0.5) else self.address(space, st=True)
            self.e("@!%s st%s.u32 \t%s, %s;" % (p, b[0], b[1], self.val()))

    def predicated_load(self):
        """@p ld from an address that is in bounds only when p holds; selp over loads."""
        space = self.space()
        p = self.pred()
        k = self.r.randint(0, 3)
        v = self.R()
        self.e("mov.u32 \t%s, %s;" % (v, self.val()))
        if k <= 1:
            # the address is far out of bounds when !p
            sp, a = self.address(space)
            inner = a[1:-1]
            t = self.RD()
            off = self.RD()
            self.e("selp.b64 \t%s, 0, 0x4000000000, %s;" % (off, p))
            if "+" in inner:
                b, o = inner.split("+")
                self.e("add.s64 \t%s, %s, %s;" % (t, b, off))
                a = "[%s+%s]" % (t, o)
            else:
                self.e("add.s64 \t%s, %s, %s;" % (t, inner, off))
                a = "[%s]" % t
            self.e("@%s ld%s.u32 \t%s, %s;" % (p, sp, v, a))
        else:
            sp, a = self.address(space)
            self.e("@%s%s ld%s.u32 \t%s, %s;" % ("!" if k == 2 else "", p, sp, v, a))
        self.define(v)
        self.mix(v)
        if self.p(0.5):
            # selp over two loads
            a1 = self.address(space)
            a2 = self.address(self.space())
            x, y, s = self.R(), self.R(), self.R()
            self.e("ld%s.u32 \t%s, %s;" % (a1[0], x, a1[1]))
            if self.p(0.5):
                self.store(space)
            self.e("ld%s.u32 \t%s, %s;" % (a2[0], y, a2[1]))
            self.e("selp.b32 \t%s, %s, %s, %s;" % (s, x, y, p))
            self.define(s)
            self.mix(s)

    def readonly(self):
        """ld.global.nc / ld.global / generic of `in`, ld.const, ld.param."""
        k = self.r.randint(0, 6)
        v = self.R()
        if k <= 2:
            t, a = self.R(), self.RD()
            self.e("and.b32 \t%s, %s, 1023;" % (t, self.reg()))
            self.e("mul.wide.u32 \t%s, %s, 4;" % (a, t))
            self.e("add.s64 \t%s, %%rd_in, %s;" % (a, a))
            q = self.ch(".global.nc", ".global.nc", ".global", ".global.ca", "")
            if q == "":
                self.e("cvta.global.u64 \t%s, %s;" % (a, a))
            self.e("ld%s.u32 \t%s, [%s+%d];" % (q, v, a, 4 * self.r.randint(0, 8)))
        elif k == 3:
            self.e("ld.global.nc.u32 \t%s, [%%rd_ini+%d];" % (v, 4 * self.r.randint(0, 16)))
        elif k == 4:
            if self.p(0.5):
                self.e("ld.const.u32 \t%s, [cst+%d];" % (v, 4 * self.r.randint(0, 15)))
            else:
                t, a, b = self.R(), self.RD(), self.RD()
                self.e("and.b32 \t%s, %s, 15;" % (t, self.reg()))
                self.e("mul.wide.u32 \t%s, %s, 4;" % (a, t))
                self.e("mov.u64 \t%s, cst;" % b)
                if self.p(0.3):
                    self.e("cvta.const.u64 \t%s, %s;" % (b, b))
                    self.e("add.s64 \t%s, %s, %s;" % (a, b, a))
                    self.e("ld.u32 \t%s, [%s];" % (v, a))
                else:
                    self.e("add.s64 \t%s, %s, %s;" % (a, b, a))
                    self.e("ld.const.u32 \t%s, [%s];" % (v, a))
        else:
            self.e("ld.param.u32 \t%s, [%s_n];" % (v, self.name))
        self.define(v)
        self.mix(v)

    def exchange(self):
        """Cross-thread step at uniform control flow: barrier, own word, barrier, neighbour word."""
        before = []
        if self.xch and self.p(0.6):
            v = self.R()
            self.e("ld%s.u32 \t%s, [%s];" % self.ch((".global", v, "%rd_xn"), (".shared", v, "%rd_sxn")))
            before.append(v)
        if self.p(0.3):
            v = self.R()
            self.e("ld%s.u32 \t%s, [%%rd_cnt];" % (self.GS, v))
            before.append(v)
        self.e(self.ch("bar.sync \t0;", "barrier.sync \t0;", "bar.sync \t0;", "barrier.sync.aligned \t0;"))
        if self.p(0.5):
            self.e("st%s.u32 \t[%%rd_xo], %s;" % (self.GS, self.val()))
        if self.p(0.5):
            self.e("st.shared.u32 \t[%%rd_sxo], %s;" % self.val())
        cnt = self.p(0.4)
        if cnt:
            op, ty = self.cnt_op
            if self.p(0.5):
                self.e("red%s.%s.%s \t[%%rd_cnt], %s;" % (self.GS, op, ty, self.val()))
            else:
                self.e("atom%s.%s.%s \t%s, [%%rd_cnt], %s;" % (self.GS, op, ty, self.R(), self.val()))
        if self.p(0.3):
            op, ty = self.scnt_op
            self.e("red.shared.%s.%s \t[scnt], %s;" % (op, ty, self.val()))
        if self.p(0.3):
            self.e(self.ch(*FENCES))
        self.e(self.ch("bar.sync \t0;", "barrier.sync \t0;", "bar.sync \t0;"))
        self.xch = True
        for a in (("global", "%rd_xn"), ("shared", "%rd_sxn")):
            if self.p(0.7):
                v = self.R()
                self.e("ld.%s.u32 \t%s, [%s];" % (a[0], v, a[1]))
                self.define(v)
                self.mix(v)
                for b in before:
                    d = self.R()
                    self.e("xor.b32 \t%s, %s, %s;" % (d, v, b))
                    self.mix(d)
        if cnt or self.p(0.2):
            v = self.R()
            self.e("ld%s.u32 \t%s, [%%rd_cnt];" % (self.GS, v))
            self.define(v)
            self.mix(v)
        if self.p(0.2):
            v = self.R()
            self.e("ld.shared.u32 \t%s, [scnt];" % v)
            self.mix(v)

    def ws_loop(self):
        """Warp-specialized loops with a uniform trip count: the first warp of each CTA
        stores to its exchange words between barriers, the other warps only load them
        (no store in their loop: the loads are not invariant all the same)."""
        c = self.R()
        if self.p(0.5):
            self.e("mov.u32 \t%s, %d;" % (c, self.r.randint(1, 4)))
        else:
            self.e("and.b32 \t%s, %%r_n, 3;" % c)
        pw, cons, end = self.P(), self.L(), self.L()
        self.e("setp.ge.u32 \t%s, %%r_ftid, 32;" % pw)
        self.e("@%s bra \t%s;" % (pw, cons))
        for producer in (True, False):
            iv, h, x, q = self.R(), self.L(), self.L(), self.P()
            if not producer:
                self.lab(cons)
            self.e("mov.u32 \t%s, 0;" % iv)
            self.lab(h)
            self.e("setp.ge.u32 \t%s, %s, %s;" % (q, iv, c))
            self.e("@%s bra \t%s;" % (q, x))
            self.ivs.append((iv, 4))
            self.depth += 1
            self.pool.append([])
            if not producer and self.p(0.5):
                v = self.R()
                self.e("ld.global.u32 \t%s, [%%rd_xp];" % v)
                self.mix(v)
            self.e(self.ch("bar.sync \t0;", "barrier.sync \t0;"))
            if producer:
                t = self.R()
                self.e("mad.lo.s32 \t%s, %s, %s, %s;" % (t, iv, self.reg(), self.reg()))
                self.e("st%s.u32 \t[%%rd_xo], %s;" % (self.GS, t))
                self.e("st.shared.u32 \t[%%rd_sxo], %s;" % self.val())
                if self.p(0.5):
                    self.load()
            elif self.p(0.5):
                self.load()
            self.e(self.ch("bar.sync \t0;", "barrier.sync \t0;"))
            if not producer:
                for base, sp in (("%rd_xp", ".global"), ("%rd_sxp", ".shared"), ("%rd_xpg", "")):
                    if self.p(0.6):
                        v = self.R()
                        self.e("ld%s.u32 \t%s, [%s];" % (sp, v, base))
                        self.mix(v)
            elif self.p(0.5):
                self.store()
            self.pool.pop()
            self.depth -= 1
            self.ivs.pop()
            self.e("add.s32 \t%s, %s, 1;" % (iv, iv))
            self.e("bra.uni \t%s;" % h)
            self.lab(x)
            if producer:
                self.e("bra.uni \t%s;" % end)
        self.lab(end)

    def walk(self):
        """A pointer register that is moved up and down the own words between accesses
        written with the same text (`[%rd_w]`) at different addresses, and different text
        at the same address."""
        space = self.space()
        w = WORDS[space]
        base = {"g": self.ch("%rd_g", "%rd_gg"), "s": self.ch("%rd_s", "%rd_sg"), "l": self.ch("%rd_l", "%rd_lg")}[space]
        sp = "" if base.endswith("g") and base != "%rd_g" else {"g": ".global", "s": ".shared", "l": ".local"}[space]
        pos = self.r.randint(0, w - 1)
        reg = self.ch("%rd_w0", "%rd_w1")
        self.e("add.s64 \t%s, %s, %d;" % (reg, base, 4 * pos))
        for _ in range(self.r.randint(2, 6)):
            k = self.r.randint(0, 3)
            if k == 0:
                v = self.R()
                self.e("ld%s.u32 \t%s, [%s];" % (sp, v, reg))
                self.mix(v)
            elif k == 1:
                self.e("st%s.u32 \t[%s], %s;" % (sp, reg, self.val()))
            elif k == 2:
                off = self.r.randint(-pos, w - 1 - pos)
                v = self.R()
                self.e("ld%s.u32 \t%s, [%s+%d];" % (sp, v, reg, 4 * off))
                self.mix(v)
            else:
                d = self.r.randint(-pos, w - 1 - pos)
                pos += d
                self.e("add.s64 \t%s, %s, %d;" % (reg, reg, 4 * d))

    FUNCS = {
        # returns the old word at p, stores v there and v ^ old at p + 4
        "fswap": (".func (.param .b32 fswap_r) fswap(.param .b64 fswap_p, .param .b32 fswap_v)\n{\n"
                  "\t.reg .b32 \t%r<4>;\n\t.reg .b64 \t%rd<2>;\n"
                  "\tld.param.u64 \t%rd1, [fswap_p];\n\tld.param.u32 \t%r1, [fswap_v];\n"
                  "\tld.u32 \t%r2, [%rd1];\n\tst.u32 \t[%rd1], %r1;\n\txor.b32 \t%r3, %r1, %r2;\n"
                  "\tst.u32 \t[%rd1+4], %r3;\n\tst.param.b32 \t[fswap_r], %r2;\n\tret;\n}\n\n"),
        # reads p[0] and p[1] (no store): callers may keep loads across the call only after inlining
        "fsum": (".func (.param .b32 fsum_r) fsum(.param .b64 fsum_p, .param .b32 fsum_v)\n{\n"
                 "\t.reg .b32 \t%r<5>;\n\t.reg .b64 \t%rd<2>;\n"
                 "\tld.param.u64 \t%rd1, [fsum_p];\n\tld.param.u32 \t%r1, [fsum_v];\n"
                 "\tld.u32 \t%r2, [%rd1];\n\tld.u32 \t%r3, [%rd1+4];\n\tmad.lo.s32 \t%r4, %r2, %r1, %r3;\n"
                 "\tst.param.b32 \t[fsum_r], %r4;\n\tret;\n}\n\n"),
        # a store through p under a condition on v, no result
        "fcond": (".func fcond(.param .b64 fcond_p, .param .b32 fcond_v)\n{\n"
                  "\t.reg .pred \t%p<2>;\n\t.reg .b32 \t%r<3>;\n\t.reg .b64 \t%rd<2>;\n"
                  "\tld.param.u64 \t%rd1, [fcond_p];\n\tld.param.u32 \t%r1, [fcond_v];\n"
                  "\tand.b32 \t%r2, %r1, 1;\n\tsetp.eq.u32 \t%p1, %r2, 0;\n"
                  "\t@%p1 st.u32 \t[%rd1+4], %r1;\n\tst.u32 \t[%rd1], %r2;\n\tret;\n}\n\n"),
    }

    def call(self):
        """A call of a .func that reads or writes through a generic pointer to own words,
        with loads of those words before and after."""
        name = self.ch(*sorted(self.FUNCS))
        self.funcs.add(name)
        space = self.space()
        word = self.r.randrange(0, WORDS[space] - 1)
        gbase = {"g": "%rd_gg", "s": "%rd_sg", "l": "%rd_lg"}[space]
        p = self.RD()
        self.e("add.s64 \t%s, %s, %d;" % (p, gbase, 4 * word))
        sp, a = self.address(space, word=word + self.ch(0, 1))
        v0 = self.R()
        self.e("ld%s.u32 \t%s, %s;" % (sp, v0, a))
        self.mix(v0)
        self.e("{")
        self.e("\t.param .b64 \tca_p;")
        self.e("\t.param .b32 \tca_v;")
        if name != "fcond":
            self.e("\t.param .b32 \tca_r;")
        self.e("\tst.param.b64 \t[ca_p], %s;" % p)
        self.e("\tst.param.b32 \t[ca_v], %s;" % self.val())
        if name != "fcond":
            r = self.R()
            self.e("\tcall.uni \t(ca_r), %s, (ca_p, ca_v);" % name)
            self.e("\tld.param.b32 \t%s, [ca_r];" % r)
        else:
            self.e("\tcall.uni \t%s, (ca_p, ca_v);" % name)
        self.e("}")
        if name != "fcond":
            self.mix(r)
        v1 = self.R()
        self.e("ld%s.u32 \t%s, %s;" % (sp, v1, a))
        self.mix(v1)

    def neighbour_read(self):
        if not self.xch:
            return self.load()
        v = self.R()
        self.e("ld%s.u32 \t%s, [%s];" % self.ch((".global", v, "%rd_xn"), (".shared", v, "%rd_sxn"),
                                                  (".volatile.global", v, "%rd_xn"), ("", v, "%rd_xng"),
                                                  (".shared", v, "scnt"), (self.GS, v, "%rd_cnt")))
        self.define(v)
        self.mix(v)

    def spill_pointer(self):
        """Store the own-region pointer to local memory; later accesses may load it back."""
        self.e("st.local.u64 \t[%%rd_lp], %s;" % self.ch("%rd_g", "%rd_g", "%rd_gy"))
        self.spilled = True

    # ------------------------------------------------------------ mem2reg array
    def lk_addr(self, off):
        """(space, address) of byte `off` of the constant-offset local array `lk`."""
        k = self.r.randint(0, 5)
        if k == 0:
            return ".local", ("[lk+%d]" % off) if off else "[lk]"
        if k == 1:
            return ".local", "[%%rd_lk+%d]" % off
        if k == 2:
            return "", "[%%rd_lkg+%d]" % off
        if k == 3 and off >= 8:
            return ".local", "[%%rd_lk8+%d]" % (off - 8)
        if k == 4 and off >= 8:
            return "", "[%%rd_lkg8+%d]" % (off - 8)
        return ".local", ("[lk+%d]" % off) if off else "[lk]"

    def lk_access(self, store=None, guard=""):
        """A load or store of one slot (or a vector over equal-width slots) of `lk`."""
        store = self.p(0.5) if store is None else store
        i = self.r.randrange(len(self.lk_slots))
        off, w = self.lk_slots[i]
        n = 1
        if self.p(0.3):
            # a vector over following slots of the same width, aligned
            for cnt in (4, 2):
                if (off % (w * cnt) == 0 and i + cnt <= len(self.lk_slots)
                        and all(self.lk_slots[i + j] == (off + j * w, w) for j in range(cnt))):
                    n = cnt
                    break
            if w == 8 and n == 4:
                n = 2
        sp, a = self.lk_addr(off)
        ty = "u32" if w == 4 else "u64"
        vec = "" if n == 1 else ".v%d" % n
        if store:
            vals = []
            for _ in range(n):
                if w == 4:
                    vals.append(self.val())
                else:
                    t = self.RD()
                    self.e("mov.b64 \t%s, {%s, %s};" % (t, self.reg(), self.reg()))
                    vals.append(t)
            src = vals[0] if n == 1 else "{%s}" % ", ".join(vals)
            self.e("%sst%s%s.%s \t%s, %s;" % (guard, sp, vec, ty, a, src))
        else:
            ds = [self.R() if w == 4 else self.RD() for _ in range(n)]
            if guard:
                for d in ds:
                    self.e("mov.%s \t%s, 0;" % ("u32" if w == 4 else "u64", d))
            dst = ds[0] if n == 1 else "{%s}" % ", ".join(ds)
            self.e("%sld%s%s.%s \t%s, %s;" % (guard, sp, vec, ty, dst, a))
            for d in ds:
                if w == 4:
                    self.mix(d)
                else:
                    self.mix64(d)

    def lk_stmt(self):
        k = self.r.randint(0, 5)
        if k <= 2:
            self.lk_access()
        elif k == 3:
            p = self.pred()
            self.lk_access(True, "@%s%s " % (self.ch("", "!"), p))
            self.lk_access(False, self.ch("", "@%s " % p))
        elif k == 4:
            # store, load, store
            self.lk_access(True)
            self.lk_access(False)
            self.lk_access(True)
        else:
            self.lk_access(False)
            if self.p(0.3):
                space = self.space()
                self.between(space, self.address(space, st=True))
            self.lk_access(True)
            self.lk_access(False)

    def cp_async(self):
        """cp.async of `in` words into the own shared words: loads before and after."""
        w = self.r.randrange(0, 8, 4)
        size = self.ch(4, 8, 16)
        before = self.R()
        self.e("ld.shared.u32 \t%s, [%%rd_s+%d];" % (before, 4 * w))
        t, a = self.R(), self.RD()
        self.e("and.b32 \t%s, %s, 1020;" % (t, self.reg()))
        self.e("mul.wide.u32 \t%s, %s, 4;" % (a, t))
        self.e("add.s64 \t%s, %%rd_in, %s;" % (a, a))
        self.e("cp.async.%s.shared.global \t[%%rd_s+%d], [%s], %d;" % (
            "cg" if size == 16 and self.p(0.5) else "ca", 4 * w, a, size))
        if self.p(0.5):
            self.e("cp.async.commit_group;")
            self.readonly()
            self.e("cp.async.wait_group \t0;")
        else:
            self.readonly()
            self.e("cp.async.wait_all;")
        after = self.R()
        self.e("ld.shared.u32 \t%s, [%%rd_s+%d];" % (after, 4 * w))
        self.mix(before)
        self.mix(after)

    def twin_loops(self):
        """Two adjacent single-block loops with one constant trip count (fusion candidates)
        whose bodies touch the same memory."""
        c = self.r.randint(1, 6)
        space = self.space()
        w = WORDS[space]
        base = {"g": "%rd_g", "s": "%rd_s", "l": "%rd_l"}[space]
        sp = {"g": ".global", "s": ".shared", "l": ".local"}[space]
        shift = self.ch(0, 1, 1, 2, -1, 3)
        for n in range(2):
            iv = self.R()
            h = self.L()
            self.e("mov.u32 \t%s, 0;" % iv)
            self.lab(h)
            self.ivs.append((iv, c))
            self.pool.append([])
            self.depth += 1
            idx, a = self.R(), self.RD()
            self.e("add.s32 \t%s, %s, %d;" % (idx, iv, (shift if n else 0) + 4))
            self.e("and.b32 \t%s, %s, %d;" % (idx, idx, w - 1))
            self.e("mul.wide.u32 \t%s, %s, 4;" % (a, idx))
            self.e("add.s64 \t%s, %s, %s;" % (a, base, a))
            if n == 0 or self.p(0.5):
                self.e("st%s.u32 \t[%s], %s;" % (sp, a, self.val()))
            else:
                v = self.R()
                self.e("ld%s.u32 \t%s, [%s];" % (sp, v, a))
                self.define(v)
                self.mix(v)
            if self.p(0.5):
                v = self.R()
                self.e("ld%s.u32 \t%s, [%s+%d];" % (sp, v, a, self.ch(0, 4)) if self.p(0.3) else
                       "ld%s.u32 \t%s, [%s];" % (sp, v, a))
                self.mix(v)
            if self.p(0.4):
                self.readonly()
            self.depth -= 1
            self.pool.pop()
            self.ivs.pop()
            q = self.P()
            self.e("add.s32 \t%s, %s, 1;" % (iv, iv))
            self.e("setp.lt.u32 \t%s, %s, %d;" % (q, iv, c))
            self.e("@%s bra \t%s;" % (q, h))

    # ------------------------------------------------------------ control flow
    def trip(self, maxt):
        """(register with the trip count, max trip count, can be zero)."""
        k = self.r.randint(0, 5)
        t = self.R()
        if k <= 2:
            m = self.ch(1, 3, 3, 7) if maxt >= 7 else self.ch(1, 3)
            self.e("and.b32 \t%s, %s, %d;" % (t, self.reg(), m))
            return t, m, True
        if k == 3:
            m = self.ch(1, 3)
            self.e("and.b32 \t%s, %s, %d;" % (t, self.reg(), m))
            self.e("add.s32 \t%s, %s, 1;" % (t, t))
            return t, m + 1, False
        if k == 4:
            c = self.r.randint(0, min(maxt, 5))
            self.e("mov.u32 \t%s, %d;" % (t, c))
            return t, c, c == 0
        # from n: min(n & 7, ...)
        self.e("and.b32 \t%s, %%r_n, %d;" % (t, 3))
        return t, 3, True

    def loop(self):
        maxt = 7 if self.depth == 0 else 3
        t, mt, zero = self.trip(maxt)
        iv = self.R()
        pre_stmts = []
        # an invariant load whose address is in bounds only when the loop runs
        inv = None
        if zero and self.p(0.6):
            tm1, a = self.R(), self.RD()
            self.e("add.s32 \t%s, %s, -1;" % (tm1, t))
            base = self.ch("%rd_ini", "%rd_g", "%rd_in")
            # in bounds for t - 1 <= 6: at most 24 or 48 bytes into the own words, 384 into `in`
            self.e("mul.wide.u32 \t%s, %s, %d;" % (a, tm1, self.ch(4, 8) if base == "%rd_g" else self.ch(4, 8, 64)))
            self.e("add.s64 \t%s, %s, %s;" % (a, base, a))
            inv = (a, base)
        h, x = self.L(), self.L()
        form = self.ch("top", "top", "bottom", "down")
        if form == "down":
            self.e("mov.u32 \t%s, %s;" % (iv, t))
        else:
            self.e("mov.u32 \t%s, 0;" % iv)
        if form == "bottom" and zero:
            q = self.P()
            self.e("setp.eq.u32 \t%s, %s, 0;" % (q, t))
            self.e("@%s bra \t%s;" % (q, x))
        self.lab(h)
        if form == "top":
            q = self.P()
            self.e("setp.%s.u32 \t%s, %s, %s;" % (self.ch("ge", "eq"), q, iv, t))
            self.e("@%s bra \t%s;" % (q, x))
        elif form == "down":
            q = self.P()
            self.e("setp.eq.u32 \t%s, %s, 0;" % (q, iv))
            self.e("@%s bra \t%s;" % (q, x))
            self.e("add.s32 \t%s, %s, -1;" % (iv, iv))
        self.pool.append([])
        self.ivs.append((iv, mt))
        self.depth += 1
        if inv:
            v = self.R()
            a, base = inv
            if base == "%rd_ini":
                self.e("ld.global.nc.u32 \t%s, [%s];" % (v, a))
            elif base == "%rd_in":
                self.e("ld.global.u32 \t%s, [%s];" % (v, a))
            else:
                self.e("ld.global.u32 \t%s, [%s];" % (v, a))
            self.mix(v)
        # a recurrence through memory: m[i+1] = f(m[i])
        if self.p(0.6):
            space = self.space()
            w = WORDS[space]
            i0, i1 = self.R(), self.R()
            c = self.r.randint(0, w - 1)
            self.e("add.s32 \t%s, %s, %d;" % (i0, iv, c))
            self.e("and.b32 \t%s, %s, %d;" % (i0, i0, w - 1))
            self.e("add.s32 \t%s, %s, %d;" % (i1, iv, c + self.ch(1, 1, 0, 2, w - 1)))
            self.e("and.b32 \t%s, %s, %d;" % (i1, i1, w - 1))
            base = {"g": "%rd_g", "s": "%rd_s", "l": "%rd_l"}[space]
            sp = {"g": ".global", "s": ".shared", "l": ".local"}[space]
            if space == "g" and (self.gen_only or self.p(0.2)):
                base, sp = "%rd_gg", ""
            a0, a1 = self.RD(), self.RD()
            self.e("mul.wide.u32 \t%s, %s, 4;" % (a0, i0))
            self.e("add.s64 \t%s, %s, %s;" % (a0, base, a0))
            self.e("mul.wide.u32 \t%s, %s, 4;" % (a1, i1))
            self.e("add.s64 \t%s, %s, %s;" % (a1, base, a1))
            v, v2 = self.R(), self.R()
            self.e("ld%s.u32 \t%s, [%s];" % (sp, v, a0))
            self.e("mad.lo.s32 \t%s, %s, %d, %s;" % (v2, v, self.ch(3, 5, 7), iv))
            self.e("st%s.u32 \t[%s], %s;" % (sp, a1, v2))
            self.mix(v)
        # a load of a fixed word the loop also writes (LICM must not hoist)
        if self.p(0.5):
            space = self.space()
            addr = self.address(space, generic_ok=self.p(0.5), st=True)
            self.load(space, addr=addr)
            if self.p(0.5):
                self.store(space)
            else:
                self.store(space, addr=addr)
        self.block(self.r.randint(1, 4))
        self.depth -= 1
        self.ivs.pop()
        self.pool.pop()
        if form == "top":
            self.e("add.s32 \t%s, %s, 1;" % (iv, iv))
            self.e("bra.uni \t%s;" % h)
        elif form == "down":
            self.e("bra.uni \t%s;" % h)
        else:
            self.e("add.s32 \t%s, %s, 1;" % (iv, iv))
            q = self.P()
            self.e("setp.lt.u32 \t%s, %s, %s;" % (q, iv, t))
            self.e("@%s bra \t%s;" % (q, h))
        self.lab(x)
        self.mix(iv)

    def branch(self):
        p = self.pred()
        el, end = self.L(), self.L()
        diamond = self.p(0.5)
        bad = None
        if self.p(0.4):
            # an address valid only on the fall-through path (where !p)
            space = self.space()
            sp, a = self.address(space)
            inner = a[1:-1]
            b, o = inner.split("+") if "+" in inner else (inner, "0")
            off, t = self.RD(), self.RD()
            self.e("selp.b64 \t%s, 0x4000000000, 0, %s;" % (off, p))
            self.e("add.s64 \t%s, %s, %s;" % (t, b, off))
            bad = (sp, "[%s+%s]" % (t, o))
        self.e("@%s bra \t%s;" % (p, el if diamond else end))
        self.depth += 1
        self.pool.append([])
        if bad:
            v = self.R()
            self.e("ld%s.u32 \t%s, %s;" % (bad[0], v, bad[1]))
            self.mix(v)
        self.block(self.r.randint(1, 3))
        self.pool.pop()
        if diamond:
            self.e("bra.uni \t%s;" % end)
            self.lab(el)
            self.pool.append([])
            self.block(self.r.randint(1, 3))
            self.pool.pop()
        self.depth -= 1
        self.lab(end)

    def mem_while(self):
        """A loop whose exit test loads a word the body writes (at most 8 iterations)."""
        space = self.space()
        addr = self.address(space, generic_ok=self.p(0.5), st=True)
        iv, h, x = self.R(), self.L(), self.L()
        self.e("mov.u32 \t%s, 0;" % iv)
        self.lab(h)
        t, t2, q, q2 = self.R(), self.R(), self.P(), self.P()
        self.e("ld%s.u32 \t%s, %s;" % (addr[0], t, addr[1]))
        self.e("and.b32 \t%s, %s, %d;" % (t2, t, self.ch(7, 3, 0x70, 0x101)))
        self.e("setp.eq.u32 \t%s, %s, 0;" % (q, t2))
        self.e("@%s bra \t%s;" % (q, x))
        self.e("setp.ge.u32 \t%s, %s, %d;" % (q2, iv, self.r.randint(1, 8)))
        self.e("@%s bra \t%s;" % (q2, x))
        self.ivs.append((iv, 8))
        self.depth += 1
        self.pool.append([])
        u = self.R()
        self.e(self.ch("shr.u32 \t%s, %s, 1;", "add.s32 \t%s, %s, -1;", "and.b32 \t%s, %s, 0xfffffff8;") % (u, t))
        if self.p(0.3):
            self.block(1)
        self.e("st%s.u32 \t%s, %s;" % (addr[0], addr[1], u))
        if self.p(0.3):
            self.block(1)
        self.pool.pop()
        self.depth -= 1
        self.ivs.pop()
        self.e("add.s32 \t%s, %s, 1;" % (iv, iv))
        self.e("bra.uni \t%s;" % h)
        self.lab(x)
        self.mix(iv)

    def stmt(self):
        self.budget -= 1
        k = self.r.randint(0, 25)
        if k >= 22:
            if k == 22 and self.depth == 0:
                if self.p(0.4):
                    self.ws_loop()
                else:
                    self.twin_loops()
            elif k == 23:
                if self.p(0.5):
                    self.cp_async()
                else:
                    self.walk()
            elif self.depth < 2 and self.p(0.3):
                self.mem_while()
            else:
                self.lk_stmt()
        elif k <= 2:
            self.twice()
        elif k <= 4:
            self.load()
        elif k <= 6:
            self.store()
        elif k == 7:
            self.store_load_store()
        elif k == 8:
            self.forward()
        elif k == 9:
            self.atomic()
        elif k == 10:
            self.predicated_load()
        elif k == 11:
            self.predicated_store()
        elif k == 12:
            self.readonly()
        elif k == 13 and self.depth == 0:
            self.exchange()
        elif k == 14:
            self.neighbour_read()
        elif k == 15:
            if self.p(0.6):
                self.call()
            else:
                self.spill_pointer()
        elif k <= 18 and self.depth < 2 and self.budget > 2:
            self.loop()
        elif k <= 20 and self.depth < 3 and self.budget > 2:
            self.branch()
        else:
            self.e(self.ch(*FENCES))
            self.twice()

    def block(self, n):
        for _ in range(n):
            if self.budget <= 0:
                return
            self.stmt()

    # ------------------------------------------------------------ kernel
    def kernel(self, name):
        self.name = name
        self.spilled = False
        e = self.e
        e("ld.param.u64 \t%%rd_inp, [%s_in];" % name)
        e("cvta.to.global.u64 \t%rd_in, %rd_inp;")
        e("ld.param.u64 \t%%rd_outp, [%s_out];" % name)
        e("cvta.to.global.u64 \t%rd_out, %rd_outp;")
        e("ld.param.u64 \t%%rd_xbp, [%s_xb];" % name)
        e("cvta.to.global.u64 \t%rd_xb, %rd_xbp;")
        e("ld.param.u32 \t%%r_n, [%s_n];" % name)
        e("mov.u32 \t%r_tx, %tid.x;")
        e("mov.u32 \t%r_ty, %tid.y;")
        e("mov.u32 \t%r_nx, %ntid.x;")
        e("mov.u32 \t%r_ny, %ntid.y;")
        e("mov.u32 \t%r_cx, %ctaid.x;")
        e("mad.lo.s32 \t%r_ftid, %r_ty, %r_nx, %r_tx;")
        e("mul.lo.s32 \t%r_cs, %r_nx, %r_ny;")
        e("mad.lo.s32 \t%r_gid, %r_cx, %r_cs, %r_ftid;")
        # own out words: out + gid * 64, several ways
        e("mul.wide.u32 \t%rd_t0, %r_gid, 64;")
        e("add.s64 \t%rd_g, %rd_out, %rd_t0;")
        e("cvta.global.u64 \t%rd_gg, %rd_g;")
        e("add.s64 \t%rd_gp, %rd_outp, %rd_t0;")
        e("sub.s64 \t%rd_t1, %rd_outp, %rd_inp;")
        e("add.s64 \t%rd_t2, %rd_inp, %rd_t1;")
        e("add.s64 \t%rd_gx, %rd_t2, %rd_t0;")
        e("sub.s64 \t%rd_t3, %rd_out, %rd_in;")
        e("add.s64 \t%rd_t4, %rd_in, %rd_t3;")
        e("add.s64 \t%rd_gy, %rd_t4, %rd_t0;")
        # input words of this thread
        e("mul.wide.u32 \t%rd_t5, %r_gid, 4;")
        e("add.s64 \t%rd_ini, %rd_in, %rd_t5;")
        # exchange words: xb[gid] (own), xb[gid ^ 1] (neighbour); counter xb[256 + ctaid]
        e("add.s64 \t%rd_xo, %rd_xb, %rd_t5;")
        e("xor.b32 \t%r_nb, %r_gid, 1;")
        e("mul.wide.u32 \t%rd_t6, %r_nb, 4;")
        e("add.s64 \t%rd_xn, %rd_xb, %rd_t6;")
        e("cvta.global.u64 \t%rd_xng, %rd_xn;")
        # the first warp's word for this thread: xb[ctaid * csize + (ftid & 31)], sx[ftid & 31]
        e("and.b32 \t%r_f31, %r_ftid, 31;")
        e("mad.lo.s32 \t%r_gp, %r_cx, %r_cs, %r_f31;")
        e("mul.wide.u32 \t%rd_t12, %r_gp, 4;")
        e("add.s64 \t%rd_xp, %rd_xb, %rd_t12;")
        e("cvta.global.u64 \t%rd_xpg, %rd_xp;")
        e("mul.wide.u32 \t%rd_t13, %r_f31, 4;")
        e("and.b32 \t%r_c7, %r_cx, 63;")
        e("mul.wide.u32 \t%rd_t7, %r_c7, 4;")
        e("add.s64 \t%rd_cnt, %rd_xb, %rd_t7;")
        e("add.s64 \t%rd_cnt, %rd_cnt, 1024;")
        if self.gen_only:
            e("cvta.global.u64 \t%rd_xo, %rd_xo;")
            e("cvta.global.u64 \t%rd_cnt, %rd_cnt;")
        # shared: own 8 words at ftid * 32, exchange word sx[ftid]
        e("mov.u64 \t%rd_sb, sm;")
        e("mul.wide.u32 \t%rd_t8, %r_ftid, 32;")
        e("add.s64 \t%rd_s, %rd_sb, %rd_t8;")
        e("cvta.shared.u64 \t%rd_sg, %rd_s;")
        e("mov.u64 \t%rd_sxb, sx;")
        e("mul.wide.u32 \t%rd_t9, %r_ftid, 4;")
        e("add.s64 \t%rd_sxo, %rd_sxb, %rd_t9;")
        e("xor.b32 \t%r_fnb, %r_ftid, 1;")
        e("mul.wide.u32 \t%rd_t10, %r_fnb, 4;")
        e("add.s64 \t%rd_sxn, %rd_sxb, %rd_t10;")
        e("add.s64 \t%rd_sxp, %rd_sxb, %rd_t13;")
        # local
        e("mov.u64 \t%rd_l, lc;")
        e("cvta.local.u64 \t%rd_lg, %rd_l;")
        e("mov.u64 \t%rd_lp, lp;")
        e("mov.u64 \t%rd_lk, lk;")
        e("cvta.local.u64 \t%rd_lkg, %rd_lk;")
        e("add.s64 \t%rd_lk8, %rd_lk, 8;")
        e("add.s64 \t%rd_lkg8, %rd_lkg, 8;")
        e("st.local.u64 \t[%rd_lp], %rd_g;")
        self.spilled = True
        # initial values
        self.accs = ["%r_a0", "%r_a1", "%r_a2"]
        e("ld.global.u32 \t%r_a0, [%rd_ini];")
        e("ld.global.nc.u32 \t%r_a1, [%rd_ini+1024];")
        e("xor.b32 \t%r_a2, %r_gid, 0x9e3779b9;")
        e("and.b32 \t%r_pg, %r_a0, 1;")
        e("setp.ne.u32 \t%p_g, %r_pg, 0;")
        for i in range(3):
            v = self.R()
            e("ld.global.u32 \t%s, [%%rd_ini+%d];" % (v, 4 * self.r.randint(1, 40)))
            self.define(v)
        # local words and shared words written before any read
        vals = [self.val() for _ in range(16)]
        if self.p(0.5):
            for i in range(4):
                e("st.local.v4.u32 \t[%%rd_l+%d], {%s};" % (16 * i, ", ".join(vals[4 * i:4 * i + 4])))
        else:
            for i in range(16):
                e("st.local.u32 \t[lc+%d], %s;" % (4 * i, vals[i]))
        for i in range(8):
            e("st.shared.u32 \t[%%rd_s+%d], %s;" % (4 * i, self.val()))
        e("st.shared.u32 \t[%%rd_sxo], %s;" % self.val())
        # lk: slots of 4 or 8 bytes, each stored before any read
        self.lk_slots = []
        off = 0
        while off < 32:
            wdt = 8 if off % 8 == 0 and self.p(0.4) else 4
            self.lk_slots.append((off, wdt))
            off += wdt
        for o, wdt in self.lk_slots:
            if wdt == 4:
                e("st.local.u32 \t[lk+%d], %s;" % (o, self.val()))
            else:
                e("st.local.u64 \t[lk+%d], %%rd_t%d;" % (o, self.r.randint(0, 9)))
        e("setp.eq.u32 \t%p_t0, %r_ftid, 0;")
        e("@%%p_t0 st.shared.u32 \t[scnt], %d;" % self.ch(0, 0, 1, 0xffffffff, 12345))
        e("bar.sync \t0;")
        self.xch = True
        self.budget = self.r.randint(8, 28)
        while self.budget > 0:
            self.stmt()
        # make local and shared words observable, store the hashes
        e("bar.sync \t0;")
        for i in range(16):
            v = self.R()
            e("ld.local.u32 \t%s, [%%rd_l+%d];" % (v, 4 * i))
            self.mix(v)
        for i in range(8):
            v = self.R()
            e("ld.shared.u32 \t%s, [%%rd_s+%d];" % (v, 4 * i))
            self.mix(v)
        for o, wdt in self.lk_slots:
            if wdt == 4:
                v = self.R()
                e("ld.local.u32 \t%s, [lk+%d];" % (v, o))
                self.mix(v)
            else:
                v = self.RD()
                e("ld.local.u64 \t%s, [lk+%d];" % (v, o))
                self.mix64(v)
        e("mul.wide.u32 \t%rd_t11, %r_gid, 32;")
        e("add.s64 \t%rd_res, %rd_xb, %rd_t11;")
        e("add.s64 \t%rd_res, %rd_res, 4096;")
        if self.gen_only:
            e("cvta.global.u64 \t%rd_res, %rd_res;")
        for i, v in enumerate(self.accs + self.pool[0][-5:]):
            e("st%s.u32 \t[%%rd_res+%d], %s;" % (self.GS, 4 * i, v))
        e("ret;")
        named = sorted({tok for line in self.out for tok in _named_regs(line)})
        decl = "".join("\t.reg .%s \t%s;\n" % ("pred" if t.startswith("%p_") else "b64" if t.startswith("%rd_")
                                              else "b32", t) for t in named)
        head = (".visible .entry %s(\n\t.param .u64 %s_in,\n\t.param .u64 %s_out,\n\t.param .u64 %s_xb,\n"
                "\t.param .u32 %s_n\n)\n{\n"
                "\t.local .align 16 .b8 lc[64];\n\t.local .align 8 .b8 lp[8];\n\t.local .align 16 .b8 lk[32];\n"
                "\t.reg .pred \t%%p<%d>;\n\t.reg .b32 \t%%r<%d>;\n\t.reg .b64 \t%%rd<%d>;\n%s\n") % (
            name, name, name, name, name, self.n["p"] + 1, self.n["r"] + 1, self.n["rd"] + 1, decl)
        return head + "\n".join(self.out) + "\n}\n"


def _named_regs(line):
    return re.findall(r"%(?:r|rd|p)_[a-z0-9]+", line)


def module(seed):
    r = random.Random(seed * 7919 + 1)
    cst = ", ".join(str(r.choice([0, 1, 0xffffffff, 0x80000000, r.getrandbits(32)])) for _ in range(16))
    return (".const .align 4 .b32 cst[16] = {%s};\n"
            ".shared .align 16 .b8 sm[8192];\n"
            ".shared .align 4 .b8 sx[1024];\n"
            ".shared .align 4 .u32 scnt;\n\n") % cst


def generate(seed):
    """The PTX text of a module with kernel `k<seed>`."""
    g = G(seed)
    k = g.kernel("k%d" % seed)
    return PTX_HEADER + module(seed) + "".join(G.FUNCS[f] for f in sorted(g.funcs)) + k


if __name__ == "__main__":
    cli(generate, "gen_mem.py")
