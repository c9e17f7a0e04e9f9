//! Induction congruences, a sub-pass of the GeneralOptimize bundle right
//! after phase 22's unroller (phase 29, its first round) and of cicc's
//! loop-unroll right after it unrolls: an `and` of a
//! register with an immediate mask, or a `rem.u` by a power of two, whose
//! result is the same on every execution because the register's low bits
//! are, becomes a `mov` of that result.
//!
//! Seed `004_fa10da99f88b4a9e.txt` (cicc's loop unroller) unrolls a loop
//! `for (p = 0; p < n; ++p) { ... p & 1 ... }` by 4 with the remainder
//! after it: in the unrolled loop `p` starts at 0 and steps by 4, so in the
//! copies `p & 1`, `(p + 1) & 1`, ... are 0, 1, 0, 1. cicc knows it from
//! scalar evolution (its InstCombine folds the `and`s with the known bits
//! of the add recurrence) and its -O3 output hoists what each copy then
//! computes from `threadIdx.x` alone out of the loop (`odd_even_sort`).
//! PTX has no SSA form nor `phi`s, so this sub-pass computes the same fact
//! over reaching definitions; seed `001_3e9d45dd172cfaf4.txt` (the
//! GeneralOptimize bundle: constant folding and algebraic simplification
//! after each unroller) is where it runs. The folded copies then hold loop
//! invariants that GvnCse merges and LICM (phases 35, 66, 79, 88) hoists.
//!
//! # The analysis
//!
//! For each definition (an instruction writing a register), a congruence
//! `value ≡ a (mod 2^k)`: its `k` low bits are known to be those of `a`
//! (`k` 0: nothing known). A register read by an instruction has the join
//! of its reaching definitions (`k` the bits on which all of them agree;
//! nothing when the value at function entry may reach the read). Transfer
//! functions, on integer types of 16, 32 and 64 bits (wrapping arithmetic
//! keeps low bits: the low `k` bits of a sum, difference or product depend
//! on the low `k` bits of the sources alone):
//!
//! - `mov` of an immediate: every bit; of a register: its congruence;
//! - `add`, `sub`, `neg`, `not`, `and`, `or`, `xor`: the low `min(k1, k2)`
//!   bits of the operation on the known parts (an immediate has every bit);
//!   an `and` with an immediate below `2^k` knows every bit;
//! - `mul.lo`, `mul.wide`, `mad.lo`, `mad.wide`: the same, and a product
//!   by an immediate with `t` trailing zero bits knows `t` more low bits;
//! - `shl` by an immediate `s`: `s` more low bits (zeros);
//! - `cvt` between integer types without `.sat`: the low bits both widths
//!   hold;
//! - `selp`: the join of its two sources;
//! - anything else: nothing.
//!
//! The fixed point is optimistic (every definition in the slice of the
//! folded candidates starts unknown-but-possible and only loses bits), as
//! sparse conditional constant propagation is: a loop's induction variable
//! `mov 0` / `add 4` ends at `≡ 0 (mod 4)`. The result is sound because it
//! is an invariant: each definition's congruence holds of its value when its
//! sources' congruences hold of theirs, and every chain of values starts at
//! a definition whose congruence holds unconditionally.
//!
//! # What it folds
//!
//! `and x, m` (either order) with an immediate `m < 2^k` where `x ≡ a (mod
//! 2^k)`: `mov (a & m)`; `rem.u32`/`rem.u64 x, 2^j` with `j <= k`: `mov (a
//! mod 2^j)`. The guard, `.loc` and origin stay. Remark
//! `induction-congruence`.
//!
//! Knobs: none (it is part of the bundle's folding, off with the rest under
//! `GeneralOptimizeSubPasses = OriCopyProp`).

use std::sync::Arc;

use ptx_analysis::reaching_defs::{DefId, ReachingDefs};
use ptx_ir::ir::{Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::FamilyId;

use crate::origin::origin;
use crate::phases::known::plain_reg;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// `value ≡ a (mod 2^k)`: the low `k` bits of the value are those of `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cong {
    a: u64,
    k: u32,
}

const NOTHING: Cong = Cong { a: 0, k: 0 };

fn mask(k: u32) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

impl Cong {
    fn new(a: u64, k: u32) -> Cong {
        let k = k.min(64);
        Cong { a: a & mask(k), k }
    }

    fn exact(v: u64, bits: u32) -> Cong {
        Cong::new(v, bits)
    }

    fn cap(self, bits: u32) -> Cong {
        Cong::new(self.a, self.k.min(bits))
    }

    /// The bits both know alike.
    fn join(self, o: Cong) -> Cong {
        let k = self.k.min(o.k).min((self.a ^ o.a).trailing_zeros());
        Cong::new(self.a, k)
    }
}

/// The low bits known of `x * y`: with `x = a1 + m1 2^k1` and `y = a2 + m2
/// 2^k2`, `x y = a1 a2 + a1 m2 2^k2 + a2 m1 2^k1 + m1 m2 2^(k1+k2)`, so the
/// bits below `min(k2 + tz(a1), k1 + tz(a2), k1 + k2)` are those of `a1 a2`
/// (`tz` counting at most the known bits). The sources of a `.wide` product
/// are the extended values, whose low bits (at most the source width) are
/// the sources' own.
fn product_bits(x: Cong, y: Cong) -> u32 {
    let tz = |c: Cong| c.a.trailing_zeros().min(c.k);
    (y.k + tz(x)).min(x.k + tz(y)).min(x.k + y.k)
}

/// An integer immediate as the `bits`-bit pattern it stands for.
fn imm(op: &Operand, bits: u32) -> Option<u64> {
    match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(v),
            ..
        }) => Some((*v as u64) & mask(bits)),
        _ => None,
    }
}

/// The integer width of an instruction's type, when it is an integer or
/// bit type of 16, 32 or 64 bits.
fn int_bits(inst: &Inst) -> Option<u32> {
    let t = inst.opcode.info.ty()?;
    (!t.is_float() && t != ptx_isa::Ty::Pred && matches!(t.bits(), 16 | 32 | 64)).then(|| t.bits())
}

/// Whether `inst` can be folded: `and` with an immediate and a register, or
/// `rem.u` by a power of two. Returns the register source, the immediate
/// and the width.
fn candidate(inst: &Inst) -> Option<(RegId, u64, u32)> {
    let info = &inst.opcode.info;
    if info.vec != 1 || inst.operands.len() != 3 || plain_reg(&inst.operands[0]).is_none() {
        return None;
    }
    let bits = int_bits(inst)?;
    let (a, b) = (&inst.operands[1], &inst.operands[2]);
    match info.family {
        FamilyId::And => match (plain_reg(a), imm(b, bits), plain_reg(b), imm(a, bits)) {
            (Some(r), Some(m), _, _) | (_, _, Some(r), Some(m)) => Some((r, m, bits)),
            _ => None,
        },
        FamilyId::Rem if !info.ty().is_some_and(|t| t.is_signed()) => {
            let m = imm(b, bits)?;
            (m.is_power_of_two()).then_some((plain_reg(a)?, m, bits))
        }
        _ => None,
    }
}

/// The folded value of candidate `inst` when `x ≡ c`.
fn folded(inst: &Inst, m: u64, c: Cong) -> Option<u64> {
    match inst.opcode.info.family {
        FamilyId::And => (c.k >= 64 || m <= mask(c.k)).then_some(c.a & m),
        _ => (m.trailing_zeros() <= c.k).then_some(c.a & (m - 1)),
    }
}

struct Analysis<'a> {
    func: &'a Function,
    rd: &'a ReachingDefs,
    /// By definition: `None` not reached yet (optimistic top).
    value: Vec<Option<Cong>>,
}

impl Analysis<'_> {
    /// The congruence of register `r` as `inst` reads it: the join of its
    /// reaching definitions (top ones left out); `None` while all are top.
    fn read(&self, inst: InstId, r: RegId) -> Option<Cong> {
        let Some(u) = self.rd.reaching_use(inst, r) else {
            return Some(NOTHING);
        };
        if u.from_entry || u.defs.is_empty() {
            return Some(NOTHING);
        }
        let mut out: Option<Cong> = None;
        for d in u.defs {
            if let Some(c) = self.value[d.0 as usize] {
                out = Some(out.map_or(c, |o| o.join(c)));
            }
        }
        out
    }

    fn operand(&self, inst: InstId, op: &Operand, bits: u32) -> Option<Cong> {
        if let Some(v) = imm(op, bits) {
            return Some(Cong::exact(v, bits));
        }
        match plain_reg(op) {
            Some(r) => self.read(inst, r).map(|c| c.cap(bits)),
            None => Some(NOTHING),
        }
    }

    /// The congruence definition `d` gives its register (`None`: a source
    /// still top).
    fn transfer(&self, d: DefId) -> Option<Cong> {
        let def = self.rd.def(d);
        let inst = &self.func.insts[def.inst];
        let info = &inst.opcode.info;
        if info.vec != 1
            || plain_reg(inst.operands.first()?) != Some(def.reg)
            || info.sat
            || info
                .flags
                .intersects(ptx_isa::OpFlags::CARRY_IN.union(ptx_isa::OpFlags::CARRY_OUT))
        {
            return Some(NOTHING);
        }
        let Some(bits) = int_bits(inst) else {
            return Some(NOTHING);
        };
        let ops = &inst.operands[1..];
        let src = |k: usize| self.operand(def.inst, &ops[k], bits);
        let wide = inst.opcode.has_modifier(".wide");
        let out_bits = if wide { bits * 2 } else { bits };
        let c = match (info.family, ops.len()) {
            (FamilyId::Mov, 1) => src(0)?,
            (FamilyId::Add, 2) => {
                let (x, y) = (src(0)?, src(1)?);
                Cong::new(x.a.wrapping_add(y.a), x.k.min(y.k))
            }
            (FamilyId::Sub, 2) => {
                let (x, y) = (src(0)?, src(1)?);
                Cong::new(x.a.wrapping_sub(y.a), x.k.min(y.k))
            }
            (FamilyId::Neg, 1) => {
                let x = src(0)?;
                Cong::new(x.a.wrapping_neg(), x.k)
            }
            (FamilyId::Not, 1) => {
                let x = src(0)?;
                Cong::new(!x.a, x.k)
            }
            (FamilyId::And | FamilyId::Or | FamilyId::Xor, 2) => {
                let (x, y) = (src(0)?, src(1)?);
                let v = match info.family {
                    FamilyId::And => x.a & y.a,
                    FamilyId::Or => x.a | y.a,
                    _ => x.a ^ y.a,
                };
                let mut k = x.k.min(y.k);
                if info.family == FamilyId::And {
                    // A mask below 2^k known bits clears every bit above.
                    for (m, o) in [(imm(&ops[0], bits), y), (imm(&ops[1], bits), x)] {
                        if let Some(m) = m {
                            let top = 64 - m.leading_zeros();
                            if o.k >= top {
                                k = 64;
                            }
                        }
                    }
                }
                Cong::new(v, k)
            }
            (FamilyId::Mul, 2) if wide || inst.opcode.has_modifier(".lo") => {
                let (x, y) = (src(0)?, src(1)?);
                Cong::new(x.a.wrapping_mul(y.a), product_bits(x, y))
            }
            (FamilyId::Mad, 3) if wide || inst.opcode.has_modifier(".lo") => {
                let (x, y) = (src(0)?, src(1)?);
                let k = product_bits(x, y);
                let z = self.operand(def.inst, &ops[2], out_bits)?;
                Cong::new(x.a.wrapping_mul(y.a).wrapping_add(z.a), k.min(z.k))
            }
            (FamilyId::Shl, 2) => {
                let x = src(0)?;
                match imm(&ops[1], 32) {
                    Some(s) if s < bits as u64 => Cong::new(x.a << s, x.k + s as u32),
                    Some(_) => Cong::exact(0, bits),
                    None => NOTHING,
                }
            }
            (FamilyId::Cvt, 1) => {
                let types = &info.types;
                match (types.first(), types.iter().nth(1)) {
                    (Some(dt), Some(st))
                        if dt.is_int() && st.is_int() && !inst.opcode.has_modifier(".sat") =>
                    {
                        let x = self.operand(def.inst, &ops[0], st.bits())?;
                        x.cap(st.bits().min(dt.bits()))
                    }
                    _ => NOTHING,
                }
            }
            (FamilyId::Selp, 3) => {
                let (x, y) = (src(0)?, src(1)?);
                x.join(y)
            }
            _ => NOTHING,
        };
        Some(c.cap(out_bits))
    }
}

/// For each register, whether some write of it could give a known low
/// bit under the transfer functions of [`Analysis::transfer`], whatever
/// reaches where (a least fixed point over every write of the function,
/// flow-insensitive): a `mov` of an immediate, a `shl` by one, a `mul` or
/// `mad` by an immediate with a trailing zero bit, or an operation whose
/// sources may all be known. A register for which this is false has no
/// known bit in the data flow either: each known bit there is made by one
/// of these writes from sources that have known bits themselves (in
/// reachable code, every chain of reads starts at such a write, or at the
/// function's entry, which knows nothing).
fn may_know(func: &Function) -> Vec<bool> {
    let n = func.regs.len();
    let mut may = vec![false; n];
    let ix = |r: RegId| r.into_raw().into_u32() as usize;
    let mut changed = true;
    while changed {
        changed = false;
        for (_, inst) in func.insts_in_order() {
            let Some(d) = inst.operands.first().and_then(plain_reg) else {
                continue;
            };
            if may[ix(d)] || int_bits(inst).is_none() {
                continue;
            }
            let info = &inst.opcode.info;
            let ops = &inst.operands[1..];
            let known = |op: &Operand| match op {
                Operand::Imm(_) => true,
                _ => plain_reg(op).is_some_and(|r| may[ix(r)]),
            };
            let tz_imm = |op: &Operand| imm(op, 64).is_some_and(|v| v & 1 == 0);
            let yes = match info.family {
                FamilyId::Mov | FamilyId::Neg | FamilyId::Not | FamilyId::Cvt => {
                    ops.first().is_some_and(known)
                }
                FamilyId::Shl => ops.get(1).is_some_and(|op| imm(op, 64).is_some()),
                FamilyId::Mul | FamilyId::Mad => {
                    let (a, b) = (ops.first(), ops.get(1));
                    let product = a.is_some_and(tz_imm)
                        || b.is_some_and(tz_imm)
                        || (a.is_some_and(known) && b.is_some_and(known));
                    product && (info.family == FamilyId::Mul || ops.get(2).is_some_and(known))
                }
                FamilyId::Add
                | FamilyId::Sub
                | FamilyId::And
                | FamilyId::Or
                | FamilyId::Xor
                | FamilyId::Selp => ops.iter().take(2).all(known),
                _ => false,
            };
            if yes {
                may[ix(d)] = true;
                changed = true;
            }
        }
    }
    may
}

/// `2^k` as a number (`2^64` written so).
fn modulus(k: u32) -> String {
    if k >= 64 {
        "2^64".into()
    } else {
        (1u64 << k).to_string()
    }
}

/// Runs the folding on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let cands: Vec<(InstId, RegId, u64)> = input
        .insts_in_order()
        .filter_map(|(i, inst)| candidate(inst).map(|(r, m, _)| (i, r, m)))
        .collect();
    if cands.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    // Most masks are of loaded data or thread ids: before any data flow, a
    // register-level pass drops the candidates whose source no write could
    // give a low bit of (see `may_know`).
    let may = may_know(input);
    let cands: Vec<(InstId, RegId, u64)> = cands
        .into_iter()
        .filter(|&(_, r, _)| may.get(r.into_raw().into_u32() as usize).copied() == Some(true))
        .collect();
    if cands.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let cfg = crate::phases::version_cache::cfg_of(input);
    let rd = ptx_analysis::reaching_defs(input, &cfg);
    // The slice: every definition the candidates' sources depend on.
    let mut in_slice = vec![false; rd.defs.len()];
    let mut slice: Vec<DefId> = Vec::new();
    let mut work: Vec<DefId> = Vec::new();
    let mut push = |d: DefId, work: &mut Vec<DefId>, slice: &mut Vec<DefId>| {
        if !in_slice[d.0 as usize] {
            in_slice[d.0 as usize] = true;
            slice.push(d);
            work.push(d);
        }
    };
    for &(i, r, _) in &cands {
        if let Some(u) = rd.reaching_use(i, r) {
            for &d in u.defs {
                push(d, &mut work, &mut slice);
            }
        }
    }
    while let Some(d) = work.pop() {
        let i = rd.def(d).inst;
        for u in rd.use_defs(i) {
            for &d2 in u.defs {
                push(d2, &mut work, &mut slice);
            }
        }
    }
    slice.sort();
    let mut an = Analysis {
        func: input,
        rd: &rd,
        value: vec![None; rd.defs.len()],
    };
    // Each change lowers a definition's known bits: at most 65 per one.
    let mut rounds = 0;
    loop {
        let mut changed = false;
        for &d in &slice {
            let Some(new) = an.transfer(d) else {
                continue;
            };
            let old = an.value[d.0 as usize];
            let new = old.map_or(new, |o| o.join(new));
            if old != Some(new) {
                an.value[d.0 as usize] = Some(new);
                changed = true;
            }
        }
        rounds += 1;
        if !changed {
            break;
        }
        if rounds > 200 {
            return PhaseOutput::unchanged(input);
        }
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    let mut count = 0u64;
    for &(i, r, m) in &cands {
        let Some(c) = an.read(i, r) else {
            continue;
        };
        let inst = &input.insts[i];
        let Some(v) = folded(inst, m, c) else {
            continue;
        };
        let bits = int_bits(inst).unwrap_or(32);
        let ty = format!(".b{bits}");
        let text = super::const_fold::inst_text(input, inst);
        let new = Inst {
            guard: inst.guard,
            opcode: Opcode::new("mov", vec![ty]),
            operands: vec![
                inst.operands[0].clone(),
                Operand::Imm(Imm {
                    value: ImmValue::Int(v as i128),
                    text: (v > 0xffff).then(|| format!("0x{v:X}").into()),
                }),
            ],
            locs: inst.locs.clone(),
            range: inst.range,
        };
        f.insts[i] = new;
        count += 1;
        let reg = &input.regs[r].name;
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "induction-congruence",
            origin: origin(input, i),
            message: format!(
                "`{text}` is {v} on every execution: {reg} ≡ {} (mod {}) wherever it is read \
                 here (every definition reaching it: starts, steps, shifts)",
                c.a,
                modulus(c.k.min(bits))
            ),
        });
    }
    if count == 0 {
        return PhaseOutput::unchanged(input);
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "congruences folded",
            value: count,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_keeps_the_bits_both_agree_on() {
        // 0 and 4: two low bits agree (00); 1 and 3: one (1).
        assert_eq!(
            Cong::exact(0, 32).join(Cong::exact(4, 32)),
            Cong { a: 0, k: 2 }
        );
        assert_eq!(
            Cong::exact(1, 32).join(Cong::exact(3, 32)),
            Cong { a: 1, k: 1 }
        );
        // Equal values keep everything; nothing joined is nothing.
        assert_eq!(
            Cong::exact(7, 32).join(Cong::exact(7, 32)),
            Cong::exact(7, 32)
        );
        assert_eq!(Cong::exact(7, 32).join(NOTHING), NOTHING);
    }

    #[test]
    fn products_gain_the_trailing_zeros_of_a_factor() {
        // x ≡ 1 (mod 4) times 8: ≡ 8 (mod 32).
        let x = Cong::new(1, 2);
        let eight = Cong::exact(8, 32);
        assert_eq!(product_bits(x, eight), 5);
        // Two registers known mod 4 and mod 8: mod 4 at least.
        assert_eq!(product_bits(Cong::new(1, 2), Cong::new(3, 3)), 2);
        // A factor ≡ 0 (mod 4) times one ≡ 0 (mod 2): ≡ 0 (mod 8).
        assert_eq!(product_bits(Cong::new(0, 2), Cong::new(0, 1)), 3);
        // Nothing known of one side, the other a multiple of 4: mod 4.
        assert_eq!(product_bits(NOTHING, Cong::exact(4, 32)), 2);
    }

    #[test]
    fn folded_values() {
        let i = Inst {
            guard: None,
            opcode: Opcode::new("and", vec![".b32".into()]),
            operands: vec![],
            locs: Default::default(),
            range: Default::default(),
        };
        let m = 3;
        // x ≡ 6 (mod 8): x & 3 = 2; x & 15 is not known.
        assert_eq!(folded(&i, m, Cong::new(6, 3)), Some(2));
        assert_eq!(folded(&i, 15, Cong::new(6, 3)), None);
        let rem = Inst {
            opcode: Opcode::new("rem", vec![".u32".into()]),
            ..i.clone()
        };
        // rem.u32 by 4 of x ≡ 7 (mod 8): 3; by 16: not known.
        assert_eq!(folded(&rem, 4, Cong::new(7, 3)), Some(3));
        assert_eq!(folded(&rem, 16, Cong::new(7, 3)), None);
    }
}
