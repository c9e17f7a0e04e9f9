//! Phase 59, OriLoopFusion: fuses two adjacent loops with the same trip
//! count and no dependence between their bodies into one loop. Off by
//! default, as in ptxas.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Phase 59 -- OriLoopFusion": the entry
//! gate (`PerformLoopFusion`, OCG knob 519, must be nonzero; then
//! `LoopMakeSingleEntry`, knob 487), the budget (`PerformLoopFusionBudget`,
//! knob 520: the fused body's instruction count; 0 = unset, no limit) and
//! the fusion criteria: same trip count (same IV bounds and stride), no
//! dependence that fusion would reverse (the seed's per-register def/use
//! bitmask sets), single-basic-block bodies, the body-size budget, no
//! barrier between or in the bodies.
//!
//! # The shape fused (PTX)
//!
//! Two single-block bottom-tested loops placed back to back, the first
//! falling into the second, the second entered only from the first (what
//! phase 18's inversion leaves of two `for` loops with the same constant
//! bounds, once the guards between them are folded):
//!
//! ```text
//! A:  body1; add i, i, c; setp p, i, N; @p bra A
//! B:  body2; add j, j, c; setp q, j, N; @q bra B
//! ```
//!
//! Same trip count: each IV starts from the same constant on entry (a `mov`
//! of an immediate reaching the loop), steps by the same constant and is
//! compared the same way against the same constant or loop-invariant
//! register, and each is written once in its loop. No dependence: no
//! register written by one body is read or written by the other (their
//! values would cross iterations), and memory is independent (no store in
//! one body when the other reads or writes memory; the seed checks
//! registers only, PTX memory needs this). No barrier, fence, call,
//! convergent or volatile instruction in either body.
//!
//! The fused loop is `A: body1 (without its test); body2; add j; setp q; @q
//! bra A`: the first loop's test goes (its IV is still stepped, so its value
//! after the loop is unchanged) and B leaves the layout.
//!
//! Not done: fusion across the guard blocks of `while` loops, multi-block
//! bodies, IV normalization of different bounds (`sub_13906A0`).

use std::sync::Arc;

use ptx_ir::ir::def_use::defs_and_uses;
use ptx_ir::ir::{BlockId, Function, Imm, ImmValue, InstId, Operand, RegId};
use ptx_isa::FamilyId;
use rustc_hash::FxHashSet;

use super::loop_common::{block_name, LoopInfo};
use crate::remark::{LoopReport, PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// Runs phase 59 on one function.
pub fn run(ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let id = PhaseId::OriLoopFusion;
    if ctx.int(knobs::PerformLoopFusion) == 0 {
        return PhaseOutput::unchanged(input);
    }
    let li = super::version_cache::loop_info(input);
    if li.forest.loops.len() < 2 || !ctx.bool(knobs::LoopMakeSingleEntry) {
        return PhaseOutput::unchanged(input);
    }
    let budget = ctx.float(knobs::PerformLoopFusionBudget);
    let mut out = PhaseOutput::unchanged(input);
    let mut func: Option<Function> = None;
    let mut fused_away: FxHashSet<BlockId> = FxHashSet::default();
    let mut fused = 0u64;
    // Pairs in layout order: a single-block loop followed by another.
    let singles: Vec<BlockId> = input
        .layout
        .iter()
        .copied()
        .filter(|&b| {
            li.forest
                .loop_with_header(b)
                .is_some_and(|l| li.forest.get(l).is_single_block())
        })
        .collect();
    for &a in &singles {
        if fused_away.contains(&a) {
            continue;
        }
        let Some(b) = input.next_in_layout(a) else {
            continue;
        };
        if !singles.contains(&b) {
            continue;
        }
        let mut report = LoopReport {
            facts: vec![("next loop", block_name(input, b))],
            ..super::loop_common::loop_report(id, input, a)
        };
        match check(input, &li, a, b, budget) {
            Err(why) => {
                report.summary = format!("not fused with the next loop: {why}");
                out.remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Missed,
                    name: "loop-fusion",
                    origin: report.header,
                    message: report.summary.clone(),
                });
            }
            Ok(size) => {
                let f = func.get_or_insert_with(|| (**input).clone());
                fuse(f, a, b);
                fused_away.insert(b);
                fused += 1;
                report.facts.push(("fused body", size.to_string()));
                report.summary = format!("fused with the next loop ({size} instructions)");
                out.remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "loop-fusion",
                    origin: report.header,
                    message: format!(
                        "fused the loop at {} with the loop at {} that follows it (same trip count, independent bodies)",
                        block_name(input, a),
                        block_name(input, b)
                    ),
                });
            }
        }
        out.loops.push(report);
    }
    if let Some(f) = func {
        out.function = Arc::new(f);
    }
    out.stats = vec![Stat {
        name: "loops fused",
        value: fused,
    }];
    out
}

/// The IV test of a single-block loop: (iv, init, step, setp opcode text,
/// limit operand).
struct Test {
    iv: RegId,
    init: i128,
    step: i128,
    cmp: String,
    limit: Operand,
    /// The setp and branch (removed from the first loop).
    setp: InstId,
    branch: InstId,
    guard_negated: bool,
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

fn writes(func: &Function, b: BlockId) -> FxHashSet<RegId> {
    func.blocks[b]
        .insts
        .iter()
        .flat_map(|&i| defs_and_uses(&func.insts[i]).defs)
        .collect()
}

fn reads(func: &Function, b: BlockId) -> FxHashSet<RegId> {
    func.blocks[b]
        .insts
        .iter()
        .flat_map(|&i| defs_and_uses(&func.insts[i]).uses)
        .collect()
}

/// The value of `reg` on entry to loop block `b` from its predecessor
/// `pred`: the last write of `reg` in `pred`, a `mov` of an immediate.
fn entry_const(func: &Function, pred: BlockId, reg: RegId) -> Option<i128> {
    let last = func.blocks[pred]
        .insts
        .iter()
        .rev()
        .find(|&&i| defs_and_uses(&func.insts[i]).defs.contains(&reg))?;
    let inst = &func.insts[*last];
    if inst.guard.is_some() || inst.opcode.info.family != FamilyId::Mov {
        return None;
    }
    int_imm(inst.operands.get(1)?)
}

fn test_of(func: &Function, li: &LoopInfo, b: BlockId, entry: BlockId) -> Result<Test, String> {
    let insts = &func.blocks[b].insts;
    let n = insts.len();
    if n < 3 {
        return Err("the body is too small".into());
    }
    let (branch, setp) = (insts[n - 1], insts[n - 2]);
    let bi = &func.insts[branch];
    let si = &func.insts[setp];
    let Some(g) = bi.guard.filter(|_| bi.opcode.info.family == FamilyId::Bra) else {
        return Err("the loop does not end with a conditional back edge".into());
    };
    if !bi.operands.contains(&Operand::Label(b)) {
        return Err("the back edge is not the taken branch".into());
    }
    if si.opcode.info.family != FamilyId::Setp
        || si.guard.is_some()
        || si.opcode.info.bool_op.is_some()
        || plain(si.operands.first().unwrap_or(&Operand::Sink)) != Some(g.reg)
    {
        return Err("the back edge does not test a plain `setp` right before it".into());
    }
    let [_, x, limit] = si.operands.as_slice() else {
        return Err("the back edge's test has other operands".into());
    };
    let iv = plain(x).ok_or("the test does not read a register")?;
    // The IV: written once in the loop by `add iv, iv, c`.
    let defs: Vec<InstId> = insts
        .iter()
        .copied()
        .filter(|&i| defs_and_uses(&func.insts[i]).defs.contains(&iv))
        .collect();
    let [d] = defs.as_slice() else {
        return Err("the tested register is written more than once".into());
    };
    let di = &func.insts[*d];
    let step = match (di.opcode.info.family, di.operands.as_slice(), di.guard) {
        (FamilyId::Add, [_, a, c], None) if plain(a) == Some(iv) => int_imm(c),
        _ => None,
    }
    .ok_or("the tested register is not stepped by a constant")?;
    if let Some(r) = plain(limit) {
        if writes(func, b).contains(&r) {
            return Err("the limit is written in the loop".into());
        }
    } else if int_imm(limit).is_none() {
        return Err("the limit is neither a constant nor a register".into());
    }
    let init =
        entry_const(func, entry, iv).ok_or("the IV's initial value is not a known constant")?;
    let _ = li;
    Ok(Test {
        iv,
        init,
        step,
        cmp: si.opcode.text(),
        limit: limit.clone(),
        setp,
        branch,
        guard_negated: g.negated,
    })
}

fn check(
    func: &Function,
    li: &LoopInfo,
    a: BlockId,
    b: BlockId,
    budget: f64,
) -> Result<usize, String> {
    // B is entered only from A (falling through) and itself.
    let preds_b: Vec<BlockId> = li.cfg.preds(b).to_vec();
    if preds_b.iter().any(|&p| p != a && p != b) {
        return Err("the next loop has other entries".into());
    }
    let preds_a: Vec<BlockId> = li
        .cfg
        .preds(a)
        .iter()
        .copied()
        .filter(|&p| p != a)
        .collect();
    let [entry_a] = preds_a.as_slice() else {
        return Err("the loop has several entries".into());
    };
    let ta = test_of(func, li, a, *entry_a)?;
    // B's IV is set before A (A does not write it): its value on entry to B
    // is its value on entry to A.
    let wa = writes(func, a);
    let wb = writes(func, b);
    let tb = test_of(func, li, b, *entry_a).map_err(|e| format!("the next loop: {e}"))?;
    if (ta.init, ta.step, &ta.cmp, &ta.limit, ta.guard_negated)
        != (tb.init, tb.step, &tb.cmp, &tb.limit, tb.guard_negated)
    {
        return Err("the trip counts differ (initial value, step, compare or limit)".into());
    }
    if ta.iv == tb.iv {
        return Err("both loops step the same register".into());
    }
    // Dependences: registers.
    let ra = reads(func, a);
    let rb = reads(func, b);
    if let Some(r) = wa.iter().find(|r| rb.contains(r) || wb.contains(r)) {
        return Err(format!(
            "{} is written by the first loop and used by the next",
            func.regs[*r].name
        ));
    }
    if let Some(r) = wb.iter().find(|r| ra.contains(r)) {
        return Err(format!(
            "{} is written by the next loop and read by the first",
            func.regs[*r].name
        ));
    }
    // Memory and synchronization.
    let mem = |blk: BlockId| -> Result<(bool, bool), String> {
        let (mut l, mut s) = (false, false);
        for &i in &func.blocks[blk].insts {
            let f = func.insts[i].opcode.info.flags;
            if f.is_barrier() || f.is_fence() || f.is_call() || f.is_convergent() || f.is_volatile()
            {
                return Err(format!("`{}` in a body", func.insts[i].opcode.text()));
            }
            l |= f.loads();
            s |= f.stores() || f.is_atomic();
        }
        Ok((l, s))
    };
    let (la, sa) = mem(a)?;
    let (lb, sb) = mem(b)?;
    if (sa && (lb || sb)) || (sb && la) {
        return Err("a store in one body and a memory access in the other".into());
    }
    let size = func.blocks[a].insts.len() + func.blocks[b].insts.len() - 2;
    if budget > 0.0 && size as f64 > budget {
        return Err(format!(
            "fused body of {size} instructions over PerformLoopFusionBudget={budget}"
        ));
    }
    // The fused loop drops A's test: its predicate must be read by nothing
    // else.
    let pred = defs_and_uses(&func.insts[ta.setp]).defs;
    let read_elsewhere = func.layout.iter().any(|&blk| {
        func.blocks[blk].insts.iter().any(|&i| {
            i != ta.branch
                && defs_and_uses(&func.insts[i])
                    .uses
                    .iter()
                    .any(|r| pred.contains(r))
        })
    });
    if read_elsewhere {
        return Err("the first loop's exit predicate is read elsewhere".into());
    }
    Ok(size)
}

fn fuse(f: &mut Function, a: BlockId, b: BlockId) {
    // A: body1 without its setp and branch, then B's instructions with the
    // back edge retargeted to A.
    let mut insts = f.blocks[a].insts.clone();
    insts.truncate(insts.len().saturating_sub(2));
    let body_b = std::mem::take(&mut f.blocks[b].insts);
    for &i in &body_b {
        f.insts[i].map_labels(|l| if l == b { a } else { l });
    }
    insts.extend(body_b);
    f.blocks[a].insts = insts;
    let pragmas = std::mem::take(&mut f.blocks[b].pragmas);
    for p in pragmas {
        if !f.blocks[a].pragmas.contains(&p) {
            f.blocks[a].pragmas.push(p);
        }
    }
    f.layout.retain(|&x| x != b);
}
