//! Phase 21, OriStrengthReduce: induction-variable strength reduction of
//! address chains. A 64-bit address computed in every iteration from a
//! 32-bit induction variable,
//!
//! ```text
//! cvt.s64.s32 %rd1, %r_i;          // or mul.wide.s32 %rd2, %r_i, S
//! shl.b64     %rd2, %rd1, k;       // or mul.lo.s64 by S, or nothing (S = 1)
//! add.s64     %rd3, %base, %rd2;   // base loop-invariant
//! ```
//!
//! becomes a pointer induction variable `%P = base + ext(i) * S`, set in the
//! preheader and stepped by `S * c` right after each step `i += c`; the
//! `add` becomes `mov %rd3, %P` (or disappears, its readers reading `%P`),
//! and the `cvt`/`shl` left with no reader are removed. Chains with the same
//! base register, extension and scale share one pointer.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Pipeline Placement" ("Phase 21
//! OriStrengthReduce -- induction variable strength reduction") and
//! "Ordering Rationale" (it runs after phase 18 and before the unroller, so
//! that unrolled copies do not repeat the multiplications). The seed gives
//! the placement and purpose, not the algorithm or knobs; this module writes
//! the classic transform for the PTX forms of the address chain (Ori's
//! IMAD.WIDE / LEA are `mul.wide` / `shl` + `add` here).
//!
//! Knobs: none (the seed names none for phase 21).
//!
//! # When it is exact (32-bit wrap and extension)
//!
//! `ext(i + c) = ext(i) + c` only while `i + c` does not wrap in the
//! extension's signedness (`cvt.s64.s32`/`mul.wide.s32`: signed,
//! `cvt.u64.u32`/`mul.wide.u32`: unsigned). The phase transforms a loop only
//! when it can list every value the IV takes: the IV starts from a constant
//! (a `mov` of an immediate reaching the loop, through copies), steps by a
//! constant, and the loop goes on only through one conditional branch at its
//! single latch, testing the IV (or the stepped value) against a constant.
//! The loop is then simulated (at most 65536 iterations) in the compare's
//! width and signedness, and every value must fit the extension without
//! wrapping; other exits only make the sequence shorter. Loops with a limit
//! in a register (trip count unknown) are left alone: the remark says so.
//!
//! # Multiplications of the IV
//!
//! `mul.lo.{s32,u32} d, i, k` with `k` an immediate or a register not
//! written in the loop becomes an additive IV `M = i * k` (set in the
//! preheader, stepped by `k * c` after each step of `i`): exact in every
//! case, as `mul.lo` and `add` both wrap modulo 2^32.
//!
//! # Linear-function test replacement
//!
//! When the proof above found the latch test (it tests the stepped IV, and
//! the loop goes on exactly until the stepped IV equals a known exit value:
//! the constant the simulation ended on, or the limit `n` of a guarded
//! `i < n` with step 1), and the IV and its stepped copy are read by nothing
//! else in the loop and are dead after it, the test becomes `setp.ne.u64`
//! of the first pointer IV against `base + ext(exit) * S` (computed in the
//! preheader) and the IV's step and copy are removed: `ext` is one-to-one
//! on 32-bit values and `|S| < 2^31`, so the pointers differ exactly when
//! the IVs do.
//!
//! # The induction variable
//!
//! The IV is a register with exactly one definition in the loop: `add i, i,
//! c` or the `-O0` form `add t, i, c; ...; mov i, t` (same block, `t` written
//! once in the loop), unguarded. The chain's three instructions are in one
//! block of the loop (not of a nested loop) with no step of `i` between
//! them, unguarded, and the base has no definition in the loop.

use std::sync::Arc;

use ptx_ir::ir::def_use::defs_and_uses;
use ptx_ir::ir::{BlockId, Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::{Cmp, FamilyId, Ty};
use rustc_hash::FxHashMap;

use super::loop_common::{block_name, complement_setp, ensure_preheader, LoopInfo};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// The most iterations simulated to prove that the IV never wraps.
pub const MAX_SIMULATED: u64 = 1 << 16;

/// Runs phase 21 on one function.
pub fn run(input: &Arc<Function>) -> PhaseOutput {
    let id = PhaseId::OriStrengthReduce;
    let first = super::version_cache::loop_info(input);
    if first.forest.loops.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let headers: Vec<BlockId> = first.forest.loops.iter().map(|l| l.header).collect();
    let mut out = PhaseOutput::unchanged(input);
    let mut func: Option<Function> = None;
    let mut info = Some(first);
    let (mut chains, mut pointers) = (0u64, 0u64);
    for header in headers {
        let current = func.as_ref().unwrap_or(input);
        let li = info.get_or_insert_with(|| std::rc::Rc::new(LoopInfo::new(current)));
        let Some(lid) = li.forest.loop_with_header(header) else {
            continue;
        };
        let mut report = super::loop_common::loop_report(id, current, header);
        match analyze(current, li, lid) {
            Err(why) => {
                report.summary = format!("not reduced: {why}");
                if why.starts_with("no address chain") {
                    report.facts.push(("chains", "0".into()));
                    report.facts.push(("candidates", why.clone()));
                } else {
                    out.remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Missed,
                        name: "strength-reduce",
                        origin: report.header,
                        message: format!(
                            "address chains of the loop at {} not strength-reduced: {why}",
                            block_name(current, header)
                        ),
                    });
                }
            }
            Ok(plan) => {
                let f = func.get_or_insert_with(|| (**input).clone());
                let body = li.forest.get(lid).blocks.clone();
                let Some((pre, _)) = ensure_preheader(f, li, header, &body) else {
                    report.summary = "not reduced: no preheader (brx.idx)".into();
                    out.loops.push(report);
                    continue;
                };
                let n_chains = plan.chains.len();
                let n_muls = plan.muls.len();
                let (n_ivs, replaced) = apply(f, pre, &plan, &mut out.remarks);
                info = None;
                chains += (n_chains + n_muls) as u64;
                pointers += n_ivs as u64;
                report.summary = format!(
                    "reduced {n_chains} address chains and {n_muls} multiplications of the IV to {n_ivs} new induction variables"
                );
                report
                    .facts
                    .push(("iv", f.regs[plan.iv.reg].name.to_string()));
                report.facts.push(("iv step", plan.iv.step.to_string()));
                if n_chains > 0 {
                    if plan.iterations > 0 {
                        report
                            .facts
                            .push(("iv range", format!("{}..={}", plan.range.0, plan.range.1)));
                        report
                            .facts
                            .push(("iterations simulated", plan.iterations.to_string()));
                    } else {
                        report
                            .facts
                            .push(("no wrap", "guarded `i < n`, step 1".into()));
                    }
                }
                if let Some(why) = &plan.refused {
                    report.facts.push(("address chains left", why.clone()));
                }
                report.facts.push(("chains", n_chains.to_string()));
                report.facts.push(("multiplications", n_muls.to_string()));
                report.facts.push(("new ivs", n_ivs.to_string()));
                report.facts.push((
                    "exit test",
                    if replaced {
                        "compares the pointer IV (IV removed)"
                    } else {
                        "kept"
                    }
                    .into(),
                ));
            }
        }
        out.loops.push(report);
    }
    if let Some(f) = func {
        out.function = Arc::new(f);
    }
    out.stats = vec![
        Stat {
            name: "address chains and multiplications reduced",
            value: chains,
        },
        Stat {
            name: "induction variables added",
            value: pointers,
        },
    ];
    out
}

/// The induction variable of a loop.
#[derive(Clone, Debug)]
struct Iv {
    reg: RegId,
    step: i128,
    /// The instruction that writes `reg` in the loop (the step, or the
    /// `mov` of the stepped value).
    def: InstId,
    block: BlockId,
}

/// One address chain.
#[derive(Clone, Debug)]
struct Chain {
    /// `cvt`/`mul.wide`, the optional scaling, and the `add`.
    ext: InstId,
    scale_inst: Option<InstId>,
    add: InstId,
    base: RegId,
    signed: bool,
    scale: i128,
}

struct Plan {
    iv: Iv,
    chains: Vec<Chain>,
    muls: Vec<Mul>,
    /// The latch test, when the chains' proof found it.
    exit_test: Option<ExitTest>,
    /// Why the address chains were left (when only multiplications were
    /// reduced).
    refused: Option<String>,
    range: (i128, i128),
    iterations: u64,
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

fn plain(op: &Operand) -> Option<RegId> {
    match op {
        Operand::Reg {
            reg,
            component: None,
        } => Some(*reg),
        _ => None,
    }
}

fn is_int32(inst: &Inst) -> bool {
    inst.opcode
        .info
        .ty()
        .is_some_and(|t| t.is_int() && t.bits() == 32)
}

fn analyze(func: &Function, li: &LoopInfo, lid: ptx_analysis::LoopId) -> Result<Plan, String> {
    let l = li.forest.get(lid);
    let own: Vec<BlockId> = l
        .blocks
        .iter()
        .copied()
        .filter(|&b| li.forest.innermost(b) == Some(lid))
        .collect();
    // Definitions in the loop, per register.
    let mut defs: FxHashMap<RegId, Vec<InstId>> = FxHashMap::default();
    for &b in &l.blocks {
        for &i in &func.blocks[b].insts {
            for r in defs_and_uses(&func.insts[i]).defs {
                defs.entry(r).or_default().push(i);
            }
        }
    }
    // Address chains and IV multiplications first (cheap), then the IV
    // they need.
    let mut found: Vec<(RegId, Chain)> = Vec::new();
    let mut found_muls: Vec<(RegId, Mul)> = Vec::new();
    for &b in &own {
        let insts = &func.blocks[b].insts;
        for (k, &i) in insts.iter().enumerate() {
            if let Some((iv, chain)) = chain_at(func, insts, k, i, &defs) {
                found.push((iv, chain));
            } else if let Some((iv, m)) = mul_at(func, i, &defs) {
                found_muls.push((iv, m));
            }
        }
    }
    if found.is_empty() && found_muls.is_empty() {
        return Err("no address chain or multiplication of an induction variable".into());
    }
    let mut last_err = String::new();
    let mut any_iv = false;
    // The IV candidates, in order of first use.
    let mut seen: Vec<RegId> = Vec::new();
    for r in found
        .iter()
        .map(|(r, _)| r)
        .chain(found_muls.iter().map(|(r, _)| r))
    {
        if !seen.contains(r) {
            seen.push(*r);
        }
    }
    for ivreg in seen {
        let iv = match induction(func, ivreg, &defs, li, lid) {
            Ok(iv) => iv,
            Err(e) => {
                if !any_iv {
                    last_err = e;
                }
                continue;
            }
        };
        if !any_iv {
            last_err.clear();
        }
        any_iv = true;
        let mut chains: Vec<Chain> = found
            .iter()
            .filter(|(r, _)| *r == ivreg)
            .map(|(_, c)| c.clone())
            // No step of the IV between the chain's first and last instruction.
            .filter(|c| {
                let blk = li.cfg.block_of(c.ext);
                let (p0, p1) = (li.cfg.position_of(c.ext), li.cfg.position_of(c.add));
                let pd = li.cfg.position_of(iv.def);
                !(blk == Some(iv.block) && pd > p0 && pd < p1)
            })
            .collect();
        let muls: Vec<Mul> = found_muls
            .iter()
            .filter(|(r, _)| *r == ivreg)
            .map(|(_, m)| m.clone())
            .collect();
        let (mut range, mut iterations, mut exit_test) = ((0, 0), 0, None);
        if !chains.is_empty() {
            let signed_all = chains.iter().all(|c| c.signed);
            let unsigned_all = chains.iter().all(|c| !c.signed);
            let proof = match l.latches.as_slice() {
                [latch] => simulate(func, li, lid, *latch, &iv, signed_all, unsigned_all),
                _ => Err(format!("{} back edges (one latch needed)", l.latches.len())),
            };
            match proof {
                Ok((r, n, e)) => (range, iterations, exit_test) = (r, n, e),
                Err(e) => {
                    last_err = e;
                    chains.clear();
                }
            }
        }
        if chains.is_empty() && muls.is_empty() {
            continue;
        }
        return Ok(Plan {
            iv,
            chains,
            muls,
            range,
            iterations,
            exit_test,
            refused: (!last_err.is_empty()).then(|| last_err.clone()),
        });
    }
    if !any_iv {
        // What reads a register of the loop is not an induction variable:
        // nothing to say in a remark (the report keeps the reason).
        return Err(format!(
            "no address chain or multiplication of an induction variable ({last_err})"
        ));
    }
    Err(last_err)
}

/// A multiplication of the IV by an invariant: `mul.lo.{s32,u32} d, i, k`.
#[derive(Clone, Debug)]
struct Mul {
    inst: InstId,
    /// The invariant factor (an immediate or a register not written in
    /// the loop).
    factor: Operand,
}

fn mul_at(
    func: &Function,
    i: InstId,
    defs: &FxHashMap<RegId, Vec<InstId>>,
) -> Option<(RegId, Mul)> {
    let inst = &func.insts[i];
    let info = &inst.opcode.info;
    if inst.guard.is_some()
        || info.family != FamilyId::Mul
        || !inst.opcode.has_modifier(".lo")
        || !is_int32(inst)
        || info.sat
    {
        return None;
    }
    let [d, a, b] = inst.operands.as_slice() else {
        return None;
    };
    let d = plain(d)?;
    if defs.get(&d).map(Vec::len) != Some(1) {
        return None;
    }
    let invariant = |op: &Operand| match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(_),
            ..
        }) => true,
        _ => plain(op).is_some_and(|r| !defs.contains_key(&r)),
    };
    let (iv, factor) = match (plain(a), plain(b)) {
        (Some(x), _) if defs.contains_key(&x) && invariant(b) => (x, b.clone()),
        (_, Some(y)) if defs.contains_key(&y) && invariant(a) => (y, a.clone()),
        _ => return None,
    };
    if iv == d {
        return None;
    }
    Some((iv, Mul { inst: i, factor }))
}

/// The chain whose first instruction is `insts[k]`, with the IV register.
fn chain_at(
    func: &Function,
    insts: &[InstId],
    k: usize,
    first: InstId,
    defs: &FxHashMap<RegId, Vec<InstId>>,
) -> Option<(RegId, Chain)> {
    let inst = &func.insts[first];
    if inst.guard.is_some() {
        return None;
    }
    let info = &inst.opcode.info;
    let types: Vec<Ty> = info.types.iter().collect();
    let (iv, d, signed, mut scale) = match info.family {
        FamilyId::Cvt => {
            let [dst, src] = inst.operands.as_slice() else {
                return None;
            };
            let signed = match types.as_slice() {
                [Ty::S64, Ty::S32] => true,
                [Ty::U64, Ty::U32] => false,
                _ => return None,
            };
            if info.rnd.is_some() || info.irnd.is_some() || info.sat {
                return None;
            }
            (plain(src)?, plain(dst)?, signed, 1i128)
        }
        FamilyId::Mul if inst.opcode.has_modifier(".wide") => {
            let [dst, a, b] = inst.operands.as_slice() else {
                return None;
            };
            let signed = match types.as_slice() {
                [Ty::S32] => true,
                [Ty::U32] => false,
                _ => return None,
            };
            (plain(a)?, plain(dst)?, signed, int_imm(b)?)
        }
        _ => return None,
    };
    if !defs.contains_key(&iv) || defs.get(&d).map(Vec::len) != Some(1) {
        return None;
    }
    // Optional scaling, then the add, later in the same block.
    let next_reader = |from: usize, reg: RegId| -> Option<(usize, InstId)> {
        insts.iter().enumerate().skip(from + 1).find_map(|(j, &x)| {
            let du = defs_and_uses(&func.insts[x]);
            if du.uses.contains(&reg) {
                Some((j, x))
            } else {
                None
            }
        })
    };
    let (mut pos, mut cur) = (k, d);
    let mut scale_inst = None;
    let (j, x) = next_reader(pos, cur)?;
    let xi = &func.insts[x];
    let x_ty64 = xi
        .opcode
        .info
        .ty()
        .is_some_and(|t| t.bits() == 64 && t.is_int() || t == Ty::B64);
    if xi.guard.is_none()
        && x_ty64
        && matches!(xi.opcode.info.family, FamilyId::Shl | FamilyId::Mul)
    {
        let [dst, a, b] = xi.operands.as_slice() else {
            return None;
        };
        if plain(a)? != cur {
            return None;
        }
        let v = int_imm(b)?;
        let factor = match xi.opcode.info.family {
            FamilyId::Shl if (0..32).contains(&v) => 1i128 << v,
            FamilyId::Mul if xi.opcode.has_modifier(".lo") => v,
            _ => return None,
        };
        let dst = plain(dst)?;
        if defs.get(&dst).map(Vec::len) != Some(1) {
            return None;
        }
        scale *= factor;
        scale_inst = Some(x);
        pos = j;
        cur = dst;
    }
    let (_, add) = next_reader(pos, cur)?;
    let ai = &func.insts[add];
    if ai.guard.is_some()
        || ai.opcode.info.family != FamilyId::Add
        || !ai
            .opcode
            .info
            .ty()
            .is_some_and(|t| t.bits() == 64 && t.is_int())
        || ai.opcode.info.flags.contains(ptx_isa::OpFlags::CARRY_OUT)
        || ai.opcode.info.sat
    {
        return None;
    }
    let [dst, a, b] = ai.operands.as_slice() else {
        return None;
    };
    let (a, b) = (plain(a)?, plain(b)?);
    let base = if a == cur {
        b
    } else if b == cur {
        a
    } else {
        return None;
    };
    if base == cur || defs.contains_key(&base) || defs.get(&plain(dst)?).map(Vec::len) != Some(1) {
        return None;
    }
    if scale == 0 || scale.abs() > i32::MAX as i128 || (!signed && scale < 0) {
        return None;
    }
    Some((
        iv,
        Chain {
            ext: first,
            scale_inst,
            add,
            base,
            signed,
            scale,
        },
    ))
}

/// The IV `reg` of the loop: one unguarded definition in the loop, a step by
/// a constant (directly or through a copy of the stepped value).
fn induction(
    func: &Function,
    reg: RegId,
    defs: &FxHashMap<RegId, Vec<InstId>>,
    li: &LoopInfo,
    lid: ptx_analysis::LoopId,
) -> Result<Iv, String> {
    let name = &func.regs[reg].name;
    let [def] = defs.get(&reg).map(Vec::as_slice).unwrap_or(&[]) else {
        return Err(format!("{name} is written more than once in the loop"));
    };
    let def = *def;
    let d = &func.insts[def];
    let block = li.cfg.block_of(def).ok_or("not placed")?;
    if li.forest.innermost(block) != Some(lid) {
        return Err(format!("{name} is stepped in a nested loop"));
    }
    let l = li.forest.get(lid);
    if !l.latches.iter().all(|&t| li.dom.dominates(block, t)) {
        return Err(format!("{name} is not stepped on every iteration"));
    }
    if d.guard.is_some() || !is_int32(d) {
        return Err(format!(
            "{name} is not a 32-bit integer stepped unconditionally"
        ));
    }
    let step_of = |inst: &Inst, from: RegId| -> Option<i128> {
        let info = &inst.opcode.info;
        if inst.guard.is_some()
            || info.flags.contains(ptx_isa::OpFlags::CARRY_OUT)
            || info.sat
            || !is_int32(inst)
        {
            return None;
        }
        let [_, a, b] = inst.operands.as_slice() else {
            return None;
        };
        match info.family {
            FamilyId::Add if plain(a) == Some(from) => int_imm(b),
            FamilyId::Add if plain(b) == Some(from) => int_imm(a),
            FamilyId::Sub if plain(a) == Some(from) => int_imm(b).map(|v| -v),
            _ => None,
        }
    };
    let step = if let Some(s) = step_of(d, reg) {
        s
    } else if d.opcode.info.family == FamilyId::Mov {
        let src = d.operands.get(1).and_then(plain).ok_or("not a step")?;
        let [tdef] = defs.get(&src).map(Vec::as_slice).unwrap_or(&[]) else {
            return Err(format!("{name} is not stepped by a constant"));
        };
        let insts = &func.blocks[block].insts;
        let (pt, pd) = (
            insts.iter().position(|&x| x == *tdef),
            insts.iter().position(|&x| x == def),
        );
        match (pt, pd) {
            (Some(a), Some(b)) if a < b => {}
            _ => return Err(format!("{name} is not stepped by a constant")),
        }
        step_of(&func.insts[*tdef], reg).ok_or(format!("{name} is not stepped by a constant"))?
    } else {
        return Err(format!("{name} is not stepped by a constant"));
    };
    if step == 0 {
        return Err(format!("{name} does not change"));
    }
    Ok(Iv {
        reg,
        step,
        def,
        block,
    })
}

/// The constant `reg` holds at the end of block `b`: its last definition
/// there (or in the unique predecessors before it) is a `mov` of an
/// immediate, or of a register holding one.
fn constant_at_end(func: &Function, li: &LoopInfo, mut b: BlockId, mut reg: RegId) -> Option<i128> {
    let mut pos = func.blocks[b].insts.len();
    for _ in 0..64 {
        let insts = &func.blocks[b].insts;
        let found = insts[..pos]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &i)| defs_and_uses(&func.insts[i]).defs.contains(&reg));
        match found {
            Some((k, &i)) => {
                let inst = &func.insts[i];
                if inst.guard.is_some() || inst.opcode.info.family != FamilyId::Mov {
                    return None;
                }
                let src = inst.operands.get(1)?;
                if let Some(v) = int_imm(src) {
                    return Some(v);
                }
                reg = plain(src)?;
                pos = k;
            }
            None => {
                let [p] = li.cfg.preds(b) else {
                    return None;
                };
                b = *p;
                pos = func.blocks[b].insts.len();
            }
        }
    }
    None
}

/// What the no-wrap proof found: the IV's range `(min, max)`, the
/// iterations simulated (0 for the guard proof) and the latch test.
type Proof = ((i128, i128), u64, Option<ExitTest>);

/// Simulates the IV to list its values; `(min, max)` and the iteration count.
fn simulate(
    func: &Function,
    li: &LoopInfo,
    lid: ptx_analysis::LoopId,
    latch: BlockId,
    iv: &Iv,
    signed_ext: bool,
    unsigned_ext: bool,
) -> Result<Proof, String> {
    let l = li.forest.get(lid);
    let name = &func.regs[iv.reg].name;
    let Some(pre) = li
        .cfg
        .preds(l.header)
        .iter()
        .copied()
        .find(|p| !l.contains(*p))
        .filter(|_| {
            li.cfg
                .preds(l.header)
                .iter()
                .filter(|p| !l.contains(**p))
                .count()
                == 1
        })
    else {
        return Err("the loop has several entries".into());
    };
    let init = constant_at_end(func, li, pre, iv.reg);
    // The latch's test.
    let insts = &func.blocks[latch].insts;
    let Some(&bra) = insts.last() else {
        return Err("the latch is empty".into());
    };
    let b = &func.insts[bra];
    let Some(guard) = b.guard.filter(|_| b.opcode.info.family == FamilyId::Bra) else {
        return Err("the latch does not end with a conditional branch".into());
    };
    let target = b.operands.iter().find_map(|op| match op {
        Operand::Label(t) => Some(*t),
        _ => None,
    });
    let continue_if = match target {
        Some(t) if t == l.header => !guard.negated,
        Some(_) => guard.negated,
        None => return Err("the latch's branch has no target".into()),
    };
    if l.exits.iter().all(|&(s, _)| s != latch) {
        return Err("the latch does not leave the loop".into());
    }
    let setp_pos = insts
        .iter()
        .rposition(|&i| defs_and_uses(&func.insts[i]).defs.contains(&guard.reg));
    let Some(sp) = setp_pos else {
        return Err("the latch's predicate is not computed in the latch".into());
    };
    let setp = &func.insts[insts[sp]];
    if setp.opcode.info.family != FamilyId::Setp
        || setp.guard.is_some()
        || setp.opcode.info.bool_op.is_some()
        || setp.operands.len() != 3
    {
        return Err("the latch's test is not a plain `setp`".into());
    }
    let cmp_ty = setp.opcode.info.ty().ok_or("untyped setp")?;
    if !cmp_ty.is_int() || cmp_ty.bits() != 32 {
        return Err("the latch's test is not a 32-bit integer compare".into());
    }
    let cmp = setp.opcode.info.cmp.ok_or("no compare")?;
    // Which side reads the IV, before or after its step?
    let def_pos = if iv.block == latch {
        insts.iter().position(|&i| i == iv.def)
    } else {
        None
    };
    let stepped_src = {
        let d = &func.insts[iv.def];
        if d.opcode.info.family == FamilyId::Mov {
            d.operands.get(1).and_then(plain)
        } else {
            None
        }
    };
    let side = |op: &Operand| -> Option<bool> {
        // Some(true): reads the stepped value; Some(false): the value
        // before the step.
        let r = plain(op)?;
        if r == iv.reg {
            if iv.block != latch {
                return Some(true);
            }
            return Some(def_pos.is_some_and(|p| p < sp));
        }
        if Some(r) == stepped_src {
            // `t` of `add t, i, c; mov i, t`, read after the add (in the
            // latch: the add comes before the test).
            if iv.block == latch {
                let tdef = insts
                    .iter()
                    .position(|&i| defs_and_uses(&func.insts[i]).defs.contains(&r));
                return tdef.is_some_and(|p| p < sp).then_some(true);
            }
            return Some(true);
        }
        None
    };
    let (a, bop) = (&setp.operands[1], &setp.operands[2]);
    let const_of = |op: &Operand| -> Option<i128> {
        int_imm(op).or_else(|| {
            let r = plain(op)?;
            if l.blocks.iter().any(|&blk| {
                func.blocks[blk]
                    .insts
                    .iter()
                    .any(|&i| defs_and_uses(&func.insts[i]).defs.contains(&r))
            }) {
                return None;
            }
            constant_at_end(func, li, pre, r)
        })
    };
    let (after_step, limit, iv_left) = match (side(a), side(bop)) {
        (Some(s), None) => (s, const_of(bop), true),
        (None, Some(s)) => (s, const_of(a), false),
        _ => return Err("the latch's test does not compare the IV".into()),
    };
    let (Some(limit), Some(init)) = (limit, init) else {
        return guarded_range(
            func,
            li,
            pre,
            l,
            GuardedTest {
                setp,
                iv_left,
                after_step,
                continue_if,
                step: iv.step,
                iv: iv.reg,
                signed_ext,
                unsigned_ext,
            },
        )
        .map(|()| {
            let limit_op = if iv_left { bop } else { a };
            let exit = plain(limit_op).map(|n| ExitTest {
                setp: insts[sp],
                continue_if,
                exit: ExitValue::Reg(n),
            });
            ((i128::MIN, i128::MAX), 0, exit)
        })
        .map_err(|e| {
            format!("the initial value or the limit of {name} is not a constant and {e}")
        });
    };
    let cmp_signed = match cmp {
        Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
        _ => cmp_ty.is_signed(),
    };
    let bits = 32u32;
    let wrap = |v: i128, signed: bool| -> i128 {
        let m = v.rem_euclid(1i128 << bits);
        if signed && m >= 1i128 << (bits - 1) {
            m - (1i128 << bits)
        } else {
            m
        }
    };
    let lim = wrap(limit, cmp_signed);
    let eval = |x: i128| -> Option<bool> {
        let x = wrap(x, cmp_signed);
        let (l, r) = if iv_left { (x, lim) } else { (lim, x) };
        Some(match cmp {
            Cmp::Eq => l == r,
            Cmp::Ne => l != r,
            Cmp::Lt | Cmp::Lo => l < r,
            Cmp::Le | Cmp::Ls => l <= r,
            Cmp::Gt | Cmp::Hi => l > r,
            Cmp::Ge | Cmp::Hs => l >= r,
            _ => return None,
        })
    };
    // Values in the extension's signedness.
    let in_range = |v: i128| -> bool {
        let s_ok = (-(1i128 << 31)..(1i128 << 31)).contains(&v);
        let u_ok = (0..(1i128 << 32)).contains(&v);
        (!signed_ext || s_ok) && (!unsigned_ext || u_ok)
    };
    // Start from the 32-bit pattern of init read in the extension's sign.
    let ext_signed = signed_ext;
    let mut v = wrap(init, ext_signed);
    let (mut lo, mut hi) = (v, v);
    let mut n = 0u64;
    let mut exit_test = None;
    loop {
        n += 1;
        if n > MAX_SIMULATED {
            return Err(format!("more than {MAX_SIMULATED} iterations"));
        }
        let next = v + iv.step;
        let tested = if after_step { next } else { v };
        let go_on = eval(tested).ok_or("unsupported compare")? == continue_if;
        if !go_on {
            if after_step && in_range(tested) {
                exit_test = Some(ExitTest {
                    setp: insts[sp],
                    continue_if,
                    exit: ExitValue::Const(tested),
                });
            }
            break;
        }
        if !in_range(next) {
            return Err(format!(
                "{name} would wrap around in 32 bits (value {next}): the extension is not linear"
            ));
        }
        v = next;
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !in_range(lo) || !in_range(hi) {
        return Err(format!("{name} leaves the range of its extension"));
    }
    Ok(((lo, hi), n, exit_test))
}

/// The latch test, for linear-function test replacement: the loop goes on
/// while the stepped IV differs from `exit` (every value before it is
/// different: the sequence is strictly monotonic and does not wrap).
#[derive(Clone, Debug)]
struct ExitTest {
    setp: InstId,
    continue_if: bool,
    exit: ExitValue,
}

#[derive(Clone, Debug)]
enum ExitValue {
    Const(i128),
    Reg(RegId),
}

fn apply(f: &mut Function, pre: BlockId, plan: &Plan, remarks: &mut Vec<Remark>) -> (usize, bool) {
    let id = PhaseId::OriStrengthReduce;
    // One pointer per (base, signedness, scale).
    let mut ptrs: FxHashMap<(RegId, bool, i128), RegId> = FxHashMap::default();
    let mut order: Vec<(RegId, bool, i128)> = Vec::new();
    for c in &plan.chains {
        let key = (c.base, c.signed, c.scale);
        if let std::collections::hash_map::Entry::Vacant(e) = ptrs.entry(key) {
            e.insert(f.new_reg(".b64", None));
            order.push(key);
        }
    }
    let iv_name = f.regs[plan.iv.reg].name.clone();
    for &(base, signed, scale) in &order {
        let p = ptrs[&(base, signed, scale)];
        let origin_of = plan
            .chains
            .iter()
            .find(|c| (c.base, c.signed, c.scale) == (base, signed, scale))
            .and_then(|c| f.origin(c.add));
        let sty = if signed { ".s32" } else { ".u32" };
        let reg = |r: RegId| Operand::Reg {
            reg: r,
            component: None,
        };
        let imm = |v: i128| Operand::Imm(Imm::new(ImmValue::Int(v)));
        let mk = |name: &str, mods: &[&str], ops: Vec<Operand>| Inst {
            guard: None,
            opcode: Opcode::new(name, mods.iter().map(|s| s.to_string()).collect()),
            operands: ops,
            locs: Default::default(),
            range: Default::default(),
        };
        let init = f.add_inst(
            mk(
                "mul",
                &[".wide", sty],
                vec![reg(p), reg(plan.iv.reg), imm(scale)],
            ),
            origin_of,
        );
        let add = f.add_inst(
            mk("add", &[".s64"], vec![reg(p), reg(p), reg(base)]),
            origin_of,
        );
        f.insert_before_terminator(pre, init);
        f.insert_before_terminator(pre, add);
        let step = f.add_inst(
            mk(
                "add",
                &[".s64"],
                vec![reg(p), reg(p), imm(scale * plan.iv.step)],
            ),
            origin_of,
        );
        f.insert_after(plan.iv.def, step);
    }
    for c in &plan.chains {
        let p = ptrs[&(c.base, c.signed, c.scale)];
        let dst = f.insts[c.add].operands.first().and_then(plain);
        let Some(dst) = dst else { continue };
        let text = f.insts[c.add].opcode.text();
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "strength-reduce",
            origin: origin(f, c.add),
            message: format!(
                "`{text}` of {iv_name} * {} (through `{}`) became the pointer induction variable {} (stepped by {} with {iv_name})",
                c.scale,
                f.insts[c.ext].opcode.text(),
                f.regs[p].name,
                c.scale * plan.iv.step
            ),
        });
        if !forward_readers(f, c.add, dst, p, plan.iv.def) {
            f.insts[c.add].opcode = Opcode::new("mov", vec![".b64".to_string()]);
            f.insts[c.add].operands = vec![
                Operand::Reg {
                    reg: dst,
                    component: None,
                },
                Operand::Reg {
                    reg: p,
                    component: None,
                },
            ];
        }
    }
    // Multiplications of the IV by an invariant: one additive IV per factor.
    let mut products: Vec<(Operand, RegId)> = Vec::new();
    for m in &plan.muls {
        let Some(d) = f.insts[m.inst].operands.first().and_then(plain) else {
            continue;
        };
        let origin_of = f.origin(m.inst);
        let reg = |r: RegId| Operand::Reg {
            reg: r,
            component: None,
        };
        let mk = |name: &str, ops: Vec<Operand>| Inst {
            guard: None,
            opcode: Opcode::new(name, vec![".s32".to_string()]),
            operands: ops,
            locs: Default::default(),
            range: Default::default(),
        };
        let prod = match products.iter().find(|(k, _)| *k == m.factor) {
            Some(&(_, p)) => p,
            None => {
                let p = f.new_reg(".b32", None);
                let init = f.add_inst(
                    {
                        let mut i = mk("mul", vec![reg(p), reg(plan.iv.reg), m.factor.clone()]);
                        i.opcode = Opcode::new("mul", vec![".lo".to_string(), ".s32".to_string()]);
                        i
                    },
                    origin_of,
                );
                f.insert_before_terminator(pre, init);
                let c = plan.iv.step;
                let step = match int_imm(&m.factor) {
                    Some(k) => {
                        let v = (k * c).rem_euclid(1i128 << 32);
                        let v = if v >= 1i128 << 31 {
                            v - (1i128 << 32)
                        } else {
                            v
                        };
                        mk(
                            "add",
                            vec![reg(p), reg(p), Operand::Imm(Imm::new(ImmValue::Int(v)))],
                        )
                    }
                    None if c == 1 => mk("add", vec![reg(p), reg(p), m.factor.clone()]),
                    None if c == -1 => mk("sub", vec![reg(p), reg(p), m.factor.clone()]),
                    None => {
                        let kc = f.new_reg(".b32", None);
                        let scaled = f.add_inst(
                            {
                                let mut i = mk(
                                    "mul",
                                    vec![
                                        reg(kc),
                                        m.factor.clone(),
                                        Operand::Imm(Imm::new(ImmValue::Int(c))),
                                    ],
                                );
                                i.opcode =
                                    Opcode::new("mul", vec![".lo".to_string(), ".s32".to_string()]);
                                i
                            },
                            origin_of,
                        );
                        f.insert_before_terminator(pre, scaled);
                        mk("add", vec![reg(p), reg(p), reg(kc)])
                    }
                };
                let step = f.add_inst(step, origin_of);
                f.insert_after(plan.iv.def, step);
                products.push((m.factor.clone(), p));
                p
            }
        };
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "strength-reduce",
            origin: origin(f, m.inst),
            message: format!(
                "`{}` of the IV {iv_name} became the additive induction variable {} (stepped with {iv_name})",
                f.insts[m.inst].opcode.text(),
                f.regs[prod].name
            ),
        });
        if !forward_readers(f, m.inst, d, prod, plan.iv.def) {
            f.insts[m.inst].opcode = Opcode::new("mov", vec![".b32".to_string()]);
            f.insts[m.inst].operands = vec![reg(d), reg(prod)];
        }
    }
    // Remove what is left with no reader: the scalings, then the extensions.
    let mut readers: FxHashMap<RegId, u32> = FxHashMap::default();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            for r in defs_and_uses(&f.insts[i]).uses {
                *readers.entry(r).or_default() += 1;
            }
        }
    }
    for c in &plan.chains {
        for inst in [c.scale_inst, Some(c.ext)].into_iter().flatten() {
            let du = defs_and_uses(&f.insts[inst]);
            if du
                .defs
                .iter()
                .all(|r| readers.get(r).copied().unwrap_or(0) == 0)
                && f.remove_inst(inst).is_some()
            {
                for r in du.uses {
                    if let Some(n) = readers.get_mut(&r) {
                        *n = n.saturating_sub(1);
                    }
                }
            }
        }
    }
    let mut replaced = false;
    if let (Some(test), Some(&key)) = (&plan.exit_test, order.first()) {
        let p = ptrs[&key];
        if lftr(f, pre, plan, test, key, p) {
            replaced = true;
            remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: "strength-reduce",
                origin: origin(f, test.setp),
                message: format!(
                    "the exit test of {iv_name} now compares the pointer {} (the IV's step and copy are gone: nothing else reads {iv_name} in the loop or after it)",
                    f.regs[p].name
                ),
            });
        }
    }
    (order.len() + products.len(), replaced)
}

/// Linear-function test replacement: when the IV (and its stepped copy) is
/// read in the loop only by its own step and the latch test, and is dead
/// after the loop, the test `i' < n` becomes `P' != base + ext(n) * S` on
/// the pointer IV `P` of `key` and the IV's step goes. Exact: the test goes
/// on exactly until the stepped IV equals the exit value (see
/// [`ExitTest`]), and `i -> base + ext(i) * S` is one-to-one in 64 bits
/// over 32-bit values (`|S| < 2^31`).
fn lftr(
    f: &mut Function,
    pre: BlockId,
    plan: &Plan,
    test: &ExitTest,
    key: (RegId, bool, i128),
    p: RegId,
) -> bool {
    let (base, signed, scale) = key;
    let iv = plan.iv.reg;
    // The IV's instructions in the loop: the step (and the copy).
    let def = &f.insts[plan.iv.def];
    let mut step_insts = vec![plan.iv.def];
    let mut ivregs = vec![iv];
    if def.opcode.info.family == FamilyId::Mov {
        let Some(t) = def.operands.get(1).and_then(plain) else {
            return false;
        };
        let Some(tdef) = f.blocks[plan.iv.block]
            .insts
            .iter()
            .copied()
            .find(|&i| defs_and_uses(&f.insts[i]).defs.contains(&t))
        else {
            return false;
        };
        step_insts.push(tdef);
        ivregs.push(t);
    }
    let setp_dest = match f.insts[test.setp].operands.first() {
        Some(Operand::Reg {
            reg,
            component: None,
        }) => *reg,
        _ => return false,
    };
    // The setp comes after the pointer's step (inserted right after the
    // IV's definition) when both are in one block.
    let (Some((sb, spos)), Some((db, dpos))) =
        (f.inst_position(test.setp), f.inst_position(plan.iv.def))
    else {
        return false;
    };
    if sb == db && spos < dpos {
        return false;
    }
    // Readers of the IV registers: only the step, the copy and the test in
    // the loop; none after it.
    let li = LoopInfo::new(f);
    let Some(lid) = li.forest.innermost(plan.iv.block) else {
        return false;
    };
    let l = li.forest.get(lid).clone();
    for &b in &l.blocks {
        for &i in &f.blocks[b].insts {
            if step_insts.contains(&i) || i == test.setp {
                continue;
            }
            if defs_and_uses(&f.insts[i])
                .uses
                .iter()
                .any(|r| ivregs.contains(r))
            {
                return false;
            }
        }
    }
    let live = ptx_analysis::liveness(f, &li.cfg);
    if l.exit_blocks()
        .iter()
        .any(|&t| ivregs.iter().any(|&r| live.is_live_in(t, r)))
    {
        return false;
    }
    let reg = |r: RegId| Operand::Reg {
        reg: r,
        component: None,
    };
    let imm = |v: i128| Operand::Imm(Imm::new(ImmValue::Int(v)));
    let mk = |name: &str, mods: &[&str], ops: Vec<Operand>| Inst {
        guard: None,
        opcode: Opcode::new(name, mods.iter().map(|s| s.to_string()).collect()),
        operands: ops,
        locs: Default::default(),
        range: Default::default(),
    };
    let origin_of = f.origin(test.setp);
    let end = f.new_reg(".b64", None);
    match test.exit {
        ExitValue::Const(x) => {
            let i = f.add_inst(
                mk("add", &[".s64"], vec![reg(end), reg(base), imm(x * scale)]),
                origin_of,
            );
            f.insert_before_terminator(pre, i);
        }
        ExitValue::Reg(n) => {
            let sty = if signed { ".s32" } else { ".u32" };
            let i = f.add_inst(
                mk("mul", &[".wide", sty], vec![reg(end), reg(n), imm(scale)]),
                origin_of,
            );
            f.insert_before_terminator(pre, i);
            let j = f.add_inst(
                mk("add", &[".s64"], vec![reg(end), reg(end), reg(base)]),
                origin_of,
            );
            f.insert_before_terminator(pre, j);
        }
    }
    let cmp = if test.continue_if { ".ne" } else { ".eq" };
    let setp = &mut f.insts[test.setp];
    setp.opcode = Opcode::new("setp", vec![cmp.to_string(), ".u64".to_string()]);
    setp.operands = vec![reg(setp_dest), reg(p), reg(end)];
    for i in step_insts {
        f.remove_inst(i);
    }
    true
}

/// When every reader of `dst` (written only by `add`) follows `add` in its
/// block before the IV's next step (`iv_def`, after which the pointer
/// changes), makes them read `p` and removes `add`. False: nothing changed.
fn forward_readers(f: &mut Function, add: InstId, dst: RegId, p: RegId, iv_def: InstId) -> bool {
    let mut defs = 0;
    let mut readers: Vec<InstId> = Vec::new();
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let du = defs_and_uses(&f.insts[i]);
            defs += du.defs.iter().filter(|&&r| r == dst).count();
            if du.uses.contains(&dst) {
                readers.push(i);
            }
        }
    }
    if defs != 1 {
        return false;
    }
    let Some((blk, pos)) = f.inst_position(add) else {
        return false;
    };
    let insts = &f.blocks[blk].insts;
    let end = match insts.iter().position(|&i| i == iv_def) {
        Some(d) if d > pos => d + 1,
        _ => insts.len(),
    };
    let window = &insts[pos + 1..end];
    if !readers.iter().all(|r| window.contains(r)) {
        return false;
    }
    // The reader that is the step itself (`mov i, t`) cannot read the
    // pointer; only readers strictly before the step, or the block's end.
    if readers.contains(&iv_def) {
        return false;
    }
    for r in readers {
        f.insts[r].map_regs(|access, reg| match access {
            ptx_ir::ir::Access::Use if reg == dst => p,
            _ => reg,
        });
    }
    f.remove_inst(add);
    true
}

/// The latch test of a loop whose limit is a register.
struct GuardedTest<'a> {
    setp: &'a Inst,
    iv_left: bool,
    after_step: bool,
    continue_if: bool,
    step: i128,
    iv: RegId,
    signed_ext: bool,
    unsigned_ext: bool,
}

/// The proof for a limit in a register: the loop goes on while `i < n`
/// (`i > n` counting down) in the extension's signedness, tested on the
/// stepped value at the latch, the step is 1 (-1), and the loop is entered
/// only past the same test on the initial value (the guard phase 18 makes):
/// then every iteration runs with `i < n <= MAX` (`i > n >= MIN`), so
/// `i + 1` (`i - 1`) never wraps.
fn guarded_range(
    func: &Function,
    li: &LoopInfo,
    pre: BlockId,
    l: &ptx_analysis::Loop,
    t: GuardedTest<'_>,
) -> Result<(), String> {
    let info = &t.setp.opcode.info;
    let cmp = info.cmp.ok_or("no compare")?;
    let signed = match cmp {
        Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
        _ => info.ty().is_some_and(|ty| ty.is_signed()),
    };
    if (signed && !t.signed_ext) || (!signed && !t.unsigned_ext) {
        return Err("the compare's signedness is not the extension's".into());
    }
    // Normalized: IV on the left, the condition that keeps the loop going.
    let mut op = match (cmp, t.iv_left) {
        (Cmp::Lt | Cmp::Lo, true) | (Cmp::Gt | Cmp::Hi, false) => "<",
        (Cmp::Gt | Cmp::Hi, true) | (Cmp::Lt | Cmp::Lo, false) => ">",
        (Cmp::Le | Cmp::Ls, true) | (Cmp::Ge | Cmp::Hs, false) => "<=",
        (Cmp::Ge | Cmp::Hs, true) | (Cmp::Le | Cmp::Ls, false) => ">=",
        _ => return Err("the test is not an ordered compare".into()),
    };
    if !t.continue_if {
        op = match op {
            "<" => ">=",
            ">" => "<=",
            "<=" => ">",
            _ => "<",
        };
    }
    let ok = matches!((op, t.step), ("<", 1) | (">", -1));
    if !ok || !t.after_step {
        return Err(format!(
            "the test (`iv {op} n`, step {}) does not bound the step",
            t.step
        ));
    }
    let limit_op = if t.iv_left {
        &t.setp.operands[2]
    } else {
        &t.setp.operands[1]
    };
    let Some(n) = plain(limit_op) else {
        return Err("the limit is not a register".into());
    };
    let written_in = |blk: BlockId, r: RegId| {
        func.blocks[blk]
            .insts
            .iter()
            .any(|&i| defs_and_uses(&func.insts[i]).defs.contains(&r))
    };
    if l.blocks.iter().any(|&blk| written_in(blk, n)) {
        return Err("the limit is written in the loop".into());
    }
    // The guard: walking up from the preheader through blocks with one
    // predecessor and one successor, a block ending with a branch on the
    // same compare of the IV's entry value against `n`, one side leaving.
    let mut b = pre;
    for _ in 0..8 {
        let succs = li.cfg.succs(b);
        if succs.len() == 2 {
            return check_guard(func, li, b, l, t, n);
        }
        let [p] = li.cfg.preds(b) else {
            return Err("no guard before the loop".into());
        };
        if written_in(b, n) || written_in(b, t.iv) {
            return Err("the limit or the IV is written between the guard and the loop".into());
        }
        b = *p;
    }
    Err("no guard before the loop".into())
}

fn check_guard(
    func: &Function,
    li: &LoopInfo,
    g: BlockId,
    l: &ptx_analysis::Loop,
    t: GuardedTest<'_>,
    n: RegId,
) -> Result<(), String> {
    let insts = &func.blocks[g].insts;
    let Some(&bra) = insts.last() else {
        return Err("no guard".into());
    };
    let b = &func.insts[bra];
    let Some(guard) = b.guard.filter(|_| b.opcode.info.family == FamilyId::Bra) else {
        return Err("no guard branch".into());
    };
    let Some(sp) = insts
        .iter()
        .rposition(|&i| defs_and_uses(&func.insts[i]).defs.contains(&guard.reg))
    else {
        return Err("the guard's predicate is not computed in its block".into());
    };
    let s = &func.insts[insts[sp]];
    // The latch's compare, or its complement (phase 18's inverted loops:
    // the latch compares the other way and keeps the guard's branch).
    let complemented = s.opcode != t.setp.opcode;
    if s.guard.is_some()
        || s.opcode.info.family != FamilyId::Setp
        || (complemented && complement_setp(t.setp.opcode) != Some(s.opcode))
        || s.operands.len() != 3
    {
        return Err("the guard's compare is not the latch's".into());
    }
    // The guard reads the IV (its entry value) and `n`, on the same sides.
    let iv_side = if t.iv_left { 1 } else { 2 };
    let n_side = 3 - iv_side;
    let iv_at_guard = plain(&s.operands[iv_side]);
    if plain(&s.operands[n_side]) != Some(n) || iv_at_guard.is_none() {
        return Err("the guard does not compare the same limit".into());
    }
    // The guard tests the IV's entry value: the IV register itself.
    if iv_at_guard != Some(t.iv) {
        return Err("the guard does not test the IV".into());
    }
    // Neither the IV nor n written after the guard's compare in its block.
    if insts[sp + 1..].iter().any(|&i| {
        let du = defs_and_uses(&func.insts[i]);
        du.defs.contains(&n) || iv_at_guard.is_some_and(|r| du.defs.contains(&r))
    }) {
        return Err("the guard's operands change before the loop".into());
    }
    // The side that leaves: the loop is entered only when the test holds.
    let target = b.operands.iter().find_map(|op| match op {
        Operand::Label(x) => Some(*x),
        _ => None,
    });
    let fall = func.next_in_layout(g);
    let enters =
        |x: Option<BlockId>| x.is_some_and(|x| x == l.header || li.dom.dominates(x, l.header));
    // Whether the latch's test holds when the guard's branch is taken.
    let holds_on_taken = guard.negated == complemented;
    let entry_ok = if enters(target) && !enters(fall) {
        holds_on_taken == t.continue_if
    } else if enters(fall) && !enters(target) {
        holds_on_taken != t.continue_if
    } else {
        false
    };
    if !entry_ok {
        return Err("the loop is entered without passing the test".into());
    }
    Ok(())
}
