//! cicc `nvptx-isel-combine`: the integer combines NVPTX instruction
//! selection makes, on PTX that was selected without them.
//!
//! **What it computes.** Two instructions whose intermediate result has no
//! other reader become one:
//!
//! - `mul.lo.T t, a, b; add.T d, t, c` (or `add.T d, c, t`) becomes
//!   `mad.lo.T d, a, b, c` for 32- and 64-bit integers (the low half of
//!   `a*b+c` is the same whether or not the product is rounded to the low
//!   half first);
//! - `cvt.s64.s32 t, a; shl.b64 d, t, K` becomes `mul.wide.s32 d, a, 2^K`
//!   for K <= 30 (`|a| < 2^31`, so `sext(a) * 2^K` is exact in 64 bits and
//!   2^K is an `.s32` immediate), `cvt.u64.u32` with `mul.wide.u32` for
//!   K <= 31;
//! - `cvt.s64.s32 t, a; mul.lo.s64 d, t, C` with an immediate C that fits
//!   the 32-bit type becomes `mul.wide.s32 d, a, C` (and the unsigned form).
//!
//! - `setp.ne.T q, x, 0` (or `.eq`) where `x` holds `selp.T x, 1, 0, p`
//!   (directly or through copies in the block, `p` and `x` not written
//!   since) becomes `mov.pred q, p` (or `not.pred q, p`): the boolean to
//!   integer to boolean round trip of `-O0` code (a `bool` passed to
//!   `__ballot_sync` and friends), which ISel folds as
//!   `setcc (select p, 1, 0), 0, ne`. The `selp` stays for dead-code
//!   elimination when nothing else reads it.
//! - `setp.eq/ne.T q, x, y` where `x` and `y` both hold `selp 1, 0` (or
//!   `0, 1`) of predicates `p1`, `p2` becomes `xor.pred q, p1, p2`, or
//!   `xor.pred t, p1, p2; not.pred q, t` where the comparison is true for
//!   equal booleans (`x == y` is `!(p1 ^ p2 ^ n1 ^ n2)`, `n` telling a
//!   `selp 0, 1`): the comparison of two `bool`s, which ISel selects as
//!   `xor.pred` (a bitonic sort's `(a > b) == ((i & k) == 0)`).
//!
//! These are the address computations `-Xcicc -O0` writes for every array
//! index (`cvt.s64.s32` + `shl.b64` instead of `mul.wide.s32`) and the
//! `blockIdx.x * blockDim.x + threadIdx.x` of every kernel (`mul.lo` + `add`
//! instead of `mad.lo`), which `-O3` selects as one instruction.
//!
//! Conditions: both instructions unguarded, in one block; the intermediate
//! register has exactly one definition (the first) and one reader (the
//! second); nothing between them writes a source of the first. The combined
//! instruction takes the second's place and origin; the first is removed.
//!
//! **Seeds.** None: seed 002 starts after instruction selection
//! (`SelectionDAG ISel` at the top of its "Pipeline Flow"); these are the
//! NVPTX DAG combines (`PerformADDCombine` forming `mad`, the `mul.wide`
//! patterns of `NVPTXISelLowering`) that run inside ISel, so they are a phase
//! of their own here, placed where ISel is: after the IR loop passes, before
//! the machine passes.
//!
//! **Knobs.** None (LLVM has no switch for these combines at `-O3`).
//!
//! **Where it must not fire.** A product or extension read elsewhere (the
//! combine would compute it twice), a guarded instruction, a shift of 31 or
//! more into `mul.wide.s32` (2^31 is no `.s32`), floating-point `mul`/`add`
//! (contracting them into `fma` changes results; nvcc's `--fmad` is cicc's
//! decision and not modelled).

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::{Cmp, FamilyId, Ty};
use rustc_hash::FxHashMap;

use super::known::plain_reg;
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Runs the combines on one function.
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let access = super::version_cache::accesses(input);
    let single = |r: RegId| access.readers(r).len() == 1 && access.writers(r).len() == 1;
    let mut f: Option<Function> = None;
    let mut remarks = Vec::new();
    for &b in &input.layout {
        let insts = input.blocks[b].insts.clone();
        // The unguarded single-use definitions seen in this block: register
        // to (position, instruction).
        let mut defs: FxHashMap<RegId, (usize, InstId)> = FxHashMap::default();
        for (pos, &i) in insts.iter().enumerate() {
            let cur = f.as_ref().unwrap_or(input);
            let inst = &cur.insts[i];
            if inst.guard.is_none() {
                if let Some((t, new)) = combine(cur, inst, &defs) {
                    let (_, first) = defs[&t];
                    let g = f.get_or_insert_with(|| (**input).clone());
                    remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Applied,
                        name: "combine",
                        origin: origin(g, i),
                        message: format!(
                            "`{}` and `{}` combined into `{}`",
                            g.insts[first].opcode.text(),
                            g.insts[i].opcode.text(),
                            new.opcode.text()
                        ),
                    });
                    let locs = std::mem::take(&mut g.insts[first].locs);
                    g.remove_inst(first);
                    let mut new = new;
                    if new.locs.is_empty() {
                        new.locs = locs;
                    }
                    g.insts[i] = new;
                    defs.remove(&t);
                    continue;
                }
            }
            let cur = f.as_ref().unwrap_or(input);
            let inst = &cur.insts[i];
            // Writes end the candidates they touch (a redefined source or
            // intermediate); then this instruction may start one.
            let mut written = Vec::new();
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Def {
                    written.push(r)
                }
            });
            defs.retain(|t, (_, first)| {
                !written.contains(t) && {
                    let mut touched = false;
                    visit_defs_and_uses(&cur.insts[*first], |a, r| {
                        touched |= a == Access::Use && written.contains(&r)
                    });
                    !touched
                }
            });
            if inst.guard.is_none() && starts_candidate(inst) {
                if let Some(t) = inst.operands.first().and_then(plain_reg) {
                    if single(t) {
                        defs.insert(t, (pos, i));
                    }
                }
            }
        }
    }
    let folded = fold_bool_tests(id, input, &mut f, &mut remarks);
    let Some(f) = f else {
        return PhaseOutput::unchanged(input);
    };
    let n = remarks.len() as u64 - folded;
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![
            Stat {
                name: "instruction pairs combined",
                value: n,
            },
            Stat {
                name: "boolean tests of a predicate folded",
                value: folded,
            },
        ],
    }
}

/// `mul.lo` of 32/64-bit integers, or `cvt.s64.s32`/`cvt.u64.u32`.
fn starts_candidate(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    let types: Vec<Ty> = info.types.iter().collect();
    match info.family {
        FamilyId::Mul => {
            inst.opcode.has_modifier(".lo")
                && inst.opcode.modifiers.len() == 2
                && matches!(types[..], [Ty::S32 | Ty::U32 | Ty::S64 | Ty::U64])
                && inst.operands.len() == 3
        }
        FamilyId::Cvt => {
            matches!(types[..], [Ty::S64, Ty::S32] | [Ty::U64, Ty::U32])
                && inst.opcode.modifiers.len() == 2
                && inst.operands.len() == 2
        }
        _ => false,
    }
}

fn reg(r: RegId) -> Operand {
    Operand::Reg {
        reg: r,
        component: None,
    }
}

fn imm(v: i128) -> Operand {
    Operand::Imm(Imm::new(ImmValue::Int(v)))
}

fn int_imm(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(v),
            ..
        }) => Some(*v),
        _ => None,
    }
}

/// The combined instruction replacing `second`, with the intermediate it
/// consumes.
fn combine(
    f: &Function,
    second: &Inst,
    defs: &FxHashMap<RegId, (usize, InstId)>,
) -> Option<(RegId, Inst)> {
    let info = &second.opcode.info;
    let types: Vec<Ty> = info.types.iter().collect();
    let d = second.operands.first().and_then(plain_reg)?;
    match (info.family, &types[..]) {
        (FamilyId::Add, [ty @ (Ty::S32 | Ty::U32 | Ty::S64 | Ty::U64)])
            if second.operands.len() == 3 && second.opcode.modifiers.len() == 1 =>
        {
            for (k, other) in [(1, 2), (2, 1)] {
                let Some(t) = plain_reg(&second.operands[k]) else {
                    continue;
                };
                let Some(&(_, first)) = defs.get(&t) else {
                    continue;
                };
                let mul = &f.insts[first];
                if mul.opcode.info.family != FamilyId::Mul
                    || mul.opcode.info.types.iter().next()?.bits() != ty.bits()
                    || plain_reg(&second.operands[other]) == Some(t)
                {
                    continue;
                }
                let new = Inst {
                    guard: None,
                    opcode: Opcode::new("mad", vec![".lo".into(), mul.opcode.modifiers[1].clone()]),
                    operands: vec![
                        reg(d),
                        mul.operands[1].clone(),
                        mul.operands[2].clone(),
                        second.operands[other].clone(),
                    ],
                    locs: second.locs.clone(),
                    range: second.range,
                };
                return Some((t, new));
            }
            None
        }
        (FamilyId::Shl, [Ty::B64]) if second.operands.len() == 3 => {
            let t = plain_reg(&second.operands[1])?;
            let &(_, first) = defs.get(&t)?;
            let cvt = &f.insts[first];
            if cvt.opcode.info.family != FamilyId::Cvt {
                return None;
            }
            let k = int_imm(&second.operands[2])?;
            let signed = cvt.opcode.info.types.iter().next()? == Ty::S64;
            let max = if signed { 30 } else { 31 };
            if !(0..=max).contains(&k) {
                return None;
            }
            Some((t, wide(cvt, d, imm(1i128 << k), signed, second)))
        }
        (FamilyId::Mul, [Ty::S64 | Ty::U64])
            if second.opcode.has_modifier(".lo") && second.operands.len() == 3 =>
        {
            for (k, other) in [(1, 2), (2, 1)] {
                let Some(t) = plain_reg(&second.operands[k]) else {
                    continue;
                };
                let Some(&(_, first)) = defs.get(&t) else {
                    continue;
                };
                let cvt = &f.insts[first];
                if cvt.opcode.info.family != FamilyId::Cvt {
                    continue;
                }
                let Some(c) = int_imm(&second.operands[other]) else {
                    continue;
                };
                let signed = cvt.opcode.info.types.iter().next()? == Ty::S64;
                let fits = if signed {
                    i128::from(i32::MIN) <= c && c <= i128::from(i32::MAX)
                } else {
                    (0..=i128::from(u32::MAX)).contains(&c)
                };
                if fits {
                    return Some((t, wide(cvt, d, imm(c), signed, second)));
                }
            }
            None
        }
        _ => None,
    }
}

/// `mul.wide.{s,u}32 d, a, factor` from `cvt t, a`.
fn wide(cvt: &Inst, d: RegId, factor: Operand, signed: bool, like: &Inst) -> Inst {
    let ty = if signed { ".s32" } else { ".u32" };
    Inst {
        guard: None,
        opcode: Opcode::new("mul", vec![".wide".into(), ty.into()]),
        operands: vec![reg(d), cvt.operands[1].clone(), factor],
        locs: like.locs.clone(),
        range: like.range,
    }
}

/// The boolean round trips (see the module documentation): a walk per
/// block with the registers known to hold `selp 1, 0, p` (or `0, 1`).
/// Returns how many `setp` were folded.
fn fold_bool_tests(
    id: PhaseId,
    input: &Arc<Function>,
    f: &mut Option<Function>,
    remarks: &mut Vec<Remark>,
) -> u64 {
    let mut folded = 0;
    let layout = f.as_ref().unwrap_or(input).layout.clone();
    // Predecessor counts: a block whose one predecessor is the block before
    // it in the layout continues that block's facts (the code after an
    // inlined call's split, the callee's entry).
    let succs = f.as_ref().unwrap_or(input).all_successors();
    let mut preds: FxHashMap<ptx_ir::ir::BlockId, Vec<ptx_ir::ir::BlockId>> = FxHashMap::default();
    for &b in &layout {
        for &s in succs.get(b).into_iter().flatten() {
            preds.entry(s).or_default().push(b);
        }
    }
    // Register -> (predicate, negated).
    let mut known: FxHashMap<RegId, (RegId, bool)> = FxHashMap::default();
    let mut prev: Option<ptx_ir::ir::BlockId> = None;
    for b in layout {
        let continues = prev.is_some()
            && preds.get(&b).map(Vec::as_slice) == prev.as_ref().map(std::slice::from_ref);
        if !continues {
            known.clear();
        }
        prev = Some(b);
        let insts = f.as_ref().unwrap_or(input).blocks[b].insts.clone();
        for i in insts {
            let cur = f.as_ref().unwrap_or(input);
            let inst = &cur.insts[i];
            let info = &inst.opcode.info;
            let int32 = |t: Option<Ty>| matches!(t, Some(Ty::S32 | Ty::U32 | Ty::B32));
            let mut replacement = None;
            // `setp.eq/ne x, y` with x and y both `selp 1, 0` of predicates:
            // the comparison of two booleans is their xor (`xor.pred`, then
            // `not.pred` for equality).
            let mut xor_first: Option<Inst> = None;
            // An unguarded 32-bit integer `setp.eq/ne q, a, b`.
            let int_test = inst.guard.is_none()
                && info.family == FamilyId::Setp
                && matches!(info.cmp, Some(Cmp::Eq | Cmp::Ne))
                && info.bool_op.is_none()
                && int32(info.types.iter().last())
                && inst.operands.len() == 3;
            if int_test {
                let q = plain_reg(&inst.operands[0]);
                let x = plain_reg(&inst.operands[1]).and_then(|x| known.get(&x));
                let y = plain_reg(&inst.operands[2]).and_then(|y| known.get(&y));
                if let (Some(q), Some(&(p1, n1)), Some(&(p2, n2))) = (q, x, y) {
                    // x == y  <=>  (p1 ^ n1) == (p2 ^ n2)  <=>  !(p1 ^ p2 ^ n1 ^ n2).
                    let negate = (n1 == n2) == (info.cmp == Some(Cmp::Eq));
                    let (locs, range) = (inst.locs.clone(), inst.range);
                    let xor = |d: RegId| Inst {
                        guard: None,
                        opcode: Opcode::new("xor", vec![".pred".to_string()]),
                        operands: vec![reg(d), reg(p1), reg(p2)],
                        locs: locs.clone(),
                        range,
                    };
                    if negate {
                        let g = f.get_or_insert_with(|| (**input).clone());
                        let t = g.new_reg(".pred", None);
                        xor_first = Some(xor(t));
                        replacement = Some(Inst {
                            guard: None,
                            opcode: Opcode::new("not", vec![".pred".to_string()]),
                            operands: vec![reg(q), reg(t)],
                            locs: locs.clone(),
                            range,
                        });
                    } else {
                        replacement = Some(xor(q));
                    }
                }
            }
            let cur = f.as_ref().unwrap_or(input);
            let inst = &cur.insts[i];
            let info = &inst.opcode.info;
            if replacement.is_none() && int_test {
                let q = plain_reg(&inst.operands[0]);
                let (a, c) = (&inst.operands[1], &inst.operands[2]);
                let x = match (plain_reg(a), int_imm(c), int_imm(a), plain_reg(c)) {
                    (Some(x), Some(0), _, _) | (_, _, Some(0), Some(x)) => Some(x),
                    _ => None,
                };
                if let (Some(q), Some(&(p, negated))) = (q, x.and_then(|x| known.get(&x))) {
                    let same = (info.cmp == Some(Cmp::Ne)) != negated;
                    let (name, mods) = if same {
                        ("mov", vec![".pred".to_string()])
                    } else {
                        ("not", vec![".pred".to_string()])
                    };
                    replacement = Some(Inst {
                        guard: None,
                        opcode: Opcode::new(name, mods),
                        operands: vec![reg(q), reg(p)],
                        locs: inst.locs.clone(),
                        range: inst.range,
                    });
                }
            }
            if let Some(new) = replacement {
                let g = f.get_or_insert_with(|| (**input).clone());
                let two = xor_first.is_some() || new.opcode.info.family == FamilyId::Xor;
                if let Some(first) = xor_first {
                    let origin = g.origin(i);
                    let x = g.add_inst(first, origin);
                    g.insert_before(i, x);
                }
                remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "combine",
                    origin: origin(g, i),
                    message: if two {
                        format!(
                            "`{}` of two `selp 1, 0` of predicates is the `xor.pred` of the predicates",
                            g.insts[i].opcode.text()
                        )
                    } else {
                        format!(
                            "`{}` of a `selp 1, 0` of a predicate is `{}` of that predicate",
                            g.insts[i].opcode.text(),
                            new.opcode.text()
                        )
                    },
                });
                g.insts[i] = new;
                folded += 1;
            }
            let cur = f.as_ref().unwrap_or(input);
            let inst = &cur.insts[i];
            let mut written = Vec::new();
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Def {
                    written.push(r)
                }
            });
            known.retain(|x, (p, _)| !written.contains(x) && !written.contains(p));
            if inst.guard.is_some() || inst.operands.len() < 2 {
                continue;
            }
            let info = &inst.opcode.info;
            let Some(d) = plain_reg(&inst.operands[0]) else {
                continue;
            };
            if info.family == FamilyId::Selp
                && matches!(info.types.iter().last(), Some(Ty::S32 | Ty::U32 | Ty::B32))
                && inst.operands.len() == 4
            {
                let (t, e) = (int_imm(&inst.operands[1]), int_imm(&inst.operands[2]));
                if let Some(p) = plain_reg(&inst.operands[3]) {
                    match (t, e) {
                        (Some(1), Some(0)) => {
                            known.insert(d, (p, false));
                        }
                        (Some(0), Some(1)) => {
                            known.insert(d, (p, true));
                        }
                        _ => {}
                    }
                }
            } else if info.family == FamilyId::Mov
                && inst.operands.len() == 2
                && matches!(info.types.iter().last(), Some(Ty::S32 | Ty::U32 | Ty::B32))
            {
                if let Some(&v) = plain_reg(&inst.operands[1]).and_then(|x| known.get(&x)) {
                    if cur.regs[d].class == ptx_ir::ir::RegClass::R {
                        known.insert(d, v);
                    }
                }
            }
        }
    }
    folded
}
