//! Phase 83 OriBackCopyPropagate, behind the phase 82
//! (AdvancedPhaseBackPropVReg) gate: backward copy propagation.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 83 -- OriBackCopyPropagate":
//! "Gate Mechanism (Phase 82)", "Algorithm (Reconstructed)", "Why Disabled
//! by Default", "Controlling Knobs".
//!
//! # Gate and knobs
//!
//! In ptxas both phases are no-ops unless an architecture backend
//! overrides phase 82 with the algorithm. Here the knob
//! `AdvancedPhaseBackPropVReg` (default false, added to the registry for
//! this: the seed names no knob for the override) stands for that override,
//! and phase 83 runs the algorithm when it is set. `BackCopyPropBudget`
//! (OCG knob 808) caps the copies removed per function; its unset value (0)
//! falls back, in ptxas, to a scheduler default the seed does not give:
//! here 0 is no cap.
//!
//! # What it does
//!
//! Blocks in layout order, each from its last instruction to its first:
//! for `mov %d, %s` (unguarded, plain registers of one declared type, no
//! vector) where
//!
//! 1. `%s` has one definition `D`, earlier in the same block, unguarded,
//!    writing only `%s` (as its first operand), and one reader, this `mov`;
//! 2. no instruction strictly between `D` and the `mov` reads or writes
//!    `%d` (renaming `D`'s destination to `%d` must not clobber a value
//!    read there, nor be overwritten before the `mov`'s place);
//! 3. neither is a `.reg` parameter;
//!
//! `D` writes `%d` directly and the `mov` is removed. The walk backwards
//! collapses chains `R1 = expr; R2 = R1; R3 = R2` to `R3 = expr` in one
//! pass, as the seed describes.

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, InstId, RegId};
use ptx_isa::FamilyId;
use rustc_hash::FxHashMap;

use super::known::{is_param, plain_reg, remove_keeping_locs};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// Runs backward copy propagation on one function when the gate is on.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::AdvancedPhaseBackPropVReg) {
        return PhaseOutput::unchanged(input);
    }
    let budget = ctx.int(knobs::BackCopyPropBudget).max(0) as u64;
    let mut f = (**input).clone();
    // Readers and writers per register, counted once per instruction.
    let mut readers: FxHashMap<RegId, u32> = FxHashMap::default();
    let mut writers: FxHashMap<RegId, u32> = FxHashMap::default();
    for (_, inst) in f.insts_in_order() {
        let mut seen: Vec<(Access, RegId)> = Vec::new();
        visit_defs_and_uses(inst, |a, r| {
            if !seen.contains(&(a, r)) {
                seen.push((a, r));
            }
        });
        for (a, r) in seen {
            let map = if a == Access::Use {
                &mut readers
            } else {
                &mut writers
            };
            *map.entry(r).or_default() += 1;
        }
    }
    let mut remarks = Vec::new();
    let mut done = 0u64;
    let mut budget_hit = false;
    let layout = f.layout.clone();
    'blocks: for b in layout {
        let mut k = f.blocks[b].insts.len();
        while k > 0 {
            k -= 1;
            let m = f.blocks[b].insts[k];
            let Some((d, s)) = copy(&f, m) else { continue };
            if readers.get(&s) != Some(&1) || writers.get(&s) != Some(&1) {
                continue;
            }
            if is_param(&f, d) || is_param(&f, s) {
                continue;
            }
            // D: the definition of %s earlier in the block.
            let Some(j) = (0..k).rev().find(|&j| writes(&f, f.blocks[b].insts[j], s)) else {
                continue;
            };
            let def = f.blocks[b].insts[j];
            if !single_def(&f, def, s) {
                continue;
            }
            let between = &f.blocks[b].insts[j + 1..k];
            if between.iter().any(|&i| touches(&f, i, d)) {
                continue;
            }
            if budget > 0 && done >= budget {
                budget_hit = true;
                break 'blocks;
            }
            let (dn, sn) = (f.regs[d].name.clone(), f.regs[s].name.clone());
            let text = f.insts[def].opcode.text();
            f.insts[def].map_regs(|a, r| if a == Access::Def && r == s { d } else { r });
            remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: "back-copy",
                origin: origin(&f, m),
                message: format!("`{text}` now writes {dn} directly; `mov {dn}, {sn}` removed"),
            });
            remove_keeping_locs(&mut f, b, m);
            done += 1;
            // The walk goes on at k - 1: a copy into %s's source, now a
            // copy into %d, collapses next (chains in one pass).
        }
    }
    if budget_hit {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "budget",
            origin: None,
            message: format!("BackCopyPropBudget={budget} copies removed; the rest are left"),
        });
    }
    if done == 0 {
        let mut out = PhaseOutput::unchanged(input);
        out.remarks = remarks;
        return out;
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "copies removed",
            value: done,
        }],
    }
}

fn copy(f: &Function, m: InstId) -> Option<(RegId, RegId)> {
    let inst = &f.insts[m];
    if inst.opcode.info.family != FamilyId::Mov || inst.guard.is_some() || inst.operands.len() != 2
    {
        return None;
    }
    let d = plain_reg(&inst.operands[0])?;
    let s = plain_reg(&inst.operands[1])?;
    (d != s
        && f.regs[d].ty == f.regs[s].ty
        && f.regs[d].vector.is_none()
        && f.regs[s].vector.is_none())
    .then_some((d, s))
}

fn writes(f: &Function, i: InstId, r: RegId) -> bool {
    let mut found = false;
    visit_defs_and_uses(&f.insts[i], |a, x| found |= a == Access::Def && x == r);
    found
}

fn touches(f: &Function, i: InstId, r: RegId) -> bool {
    let mut found = false;
    visit_defs_and_uses(&f.insts[i], |_, x| found |= x == r);
    found
}

/// `def` is unguarded and writes exactly `s`, as its first operand.
fn single_def(f: &Function, def: InstId, s: RegId) -> bool {
    let inst = &f.insts[def];
    if inst.guard.is_some() || inst.operands.first().and_then(plain_reg) != Some(s) {
        return false;
    }
    let mut defs = 0;
    visit_defs_and_uses(inst, |a, _| defs += usize::from(a == Access::Def));
    defs == 1
        && !inst
            .opcode
            .info
            .flags
            .intersects(ptx_isa::OpFlags::FIRST_IS_SOURCE.union(ptx_isa::OpFlags::READS_DEST))
}
