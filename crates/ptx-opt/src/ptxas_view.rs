//! What ptxas will do to the loops of a function it receives as written:
//! the ptxas phases of the pipeline up to phase 22 (OriLoopUnrolling) run on
//! the function, the cicc phases left out (the PTX is what cicc wrote, or
//! what the user wrote), and phase 22's decisions mapped back to the loops
//! of the function ([`unroll_factors`] runs phase 22 alone, for speed).
//!
//! `cargo xtask unroll-fidelity` reads these decisions against ptxas's SASS;
//! the register estimate (`ptx_analysis::reg_estimate`) reads the factors
//! ([`unroll_factors`]), so that it adds registers for the copies of a loop
//! only where ptxas is expected to make them.

use std::sync::Arc;

use ptx_analysis::{LoopForest, LoopId};
use ptx_ir::ir::{BlockId, Function, InstId};

use crate::{run_phase, LoopReport, PassContext, PhaseId, Tool, PHASES};

/// `func` after the ptxas phases of the pipeline before phase 22, in order.
pub fn before_phase_22(ctx: &dyn PassContext, mut func: Arc<Function>) -> Arc<Function> {
    for info in PHASES.iter() {
        if info.id == PhaseId::OriLoopUnrolling {
            break;
        }
        if info.tool == Tool::Ptxas {
            func = run_phase(info.id, ctx, &func).function;
        }
    }
    func
}

/// Phase 22's loop reports for `func` as ptxas receives it (the ptxas
/// phases before it run first). The reports name loops by the origin of
/// their header ([`LoopReport::header`]): give `func`'s instructions
/// origins to map them back (as [`unroll_factors`] does).
pub fn phase_22_reports(ctx: &dyn PassContext, func: &Function) -> Vec<LoopReport> {
    let func = before_phase_22(ctx, Arc::new(func.clone()));
    run_phase(PhaseId::OriLoopUnrolling, ctx, &func).loops
}

/// Which loop of `forest` (a loop forest of `func`, the function whose
/// instructions the reports' origins name) each of `reports` is about, in
/// their order: the loop
/// whose header starts with the report's header instruction, else the
/// innermost loop holding that instruction; widened to the innermost loop
/// that also holds the report's [`LoopReport::header_end`]. Loop phases
/// change headers: phase 18's inversion makes the body's first block the
/// header, so phase 22 later names an instruction of the source's body, not
/// of its header; it still lies in the source loop, and no inner loop holds
/// it. An inner loop fully unrolled into its parent's header, whose own
/// first instructions were hoisted or folded, puts an instruction of the
/// inner loop first: the header's last instruction (the parent's exit test
/// or back edge) names the parent.
///
/// One walk over the function for all the reports: a kernel's reports name
/// its loops many times over, and one walk per report made the editor's
/// code lenses quadratic.
pub fn loops_of_reports(
    func: &Function,
    forest: &LoopForest,
    reports: &[LoopReport],
) -> Vec<Option<LoopId>> {
    let mut block_of: Vec<Option<BlockId>> = vec![None; func.insts.len()];
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            let slot = &mut block_of[i.into_raw().into_u32() as usize];
            // The first block in the layout holding it.
            slot.get_or_insert(b);
        }
    }
    let block = |i: InstId| {
        block_of
            .get(i.into_raw().into_u32() as usize)
            .copied()
            .flatten()
    };
    reports
        .iter()
        .map(|r| {
            let inst = r.header?;
            loop_at(
                func,
                forest,
                inst,
                block(inst)?,
                r.header_end.and_then(block),
            )
        })
        .collect()
}

/// The loop a report names whose header's first instruction `inst` lies in
/// `block` and whose header's last lies in `end_block` (see
/// [`loops_of_reports`]).
fn loop_at(
    func: &Function,
    forest: &LoopForest,
    inst: InstId,
    block: BlockId,
    end_block: Option<BlockId>,
) -> Option<LoopId> {
    let named = match forest.loop_with_header(block) {
        Some(id) if func.blocks[block].insts.first() == Some(&inst) => Some(id),
        _ => forest.innermost(block),
    }?;
    // The header's last instruction lies in the same loop, or the first one
    // came from a loop nested in it (an inner loop fully unrolled into the
    // header, the header's own instructions hoisted or folded away): the
    // innermost loop holding both.
    let Some(end_block) = end_block else {
        return Some(named);
    };
    std::iter::successors(Some(named), |&id| forest.get(id).parent)
        .find(|&id| forest.get(id).contains(end_block))
        .or(Some(named))
}

/// A full unroll in [`unroll_factors`].
pub const FULL: u32 = u32::MAX;

/// The factor phase 22 gives each loop of `func` (`forest`: its loops), by
/// the loop's header block in `func`: 1 where it stays rolled, [`FULL`]
/// where no loop is left. A loop phase 22 says nothing about is absent.
///
/// Phase 22 runs on `func` itself, not after the ptxas phases before it
/// ([`phase_22_reports`]): the register estimate calls this on every edit
/// (the editor's inlay hints), and the phases before it tripled the edit ->
/// hints time of `cargo xtask bench-lsp` on dealii (p50 3 -> 12 ms) for no
/// change in the estimate (`cargo xtask pressure`: the same 297 of 565
/// functions within ±10% either way).
///
/// `trips`: the trip counts of `func`'s loops when the caller has them
/// (else phase 22 computes them).
pub fn unroll_factors(
    ctx: &dyn PassContext,
    func: &Function,
    forest: &LoopForest,
    trips: Option<&ptx_analysis::TripCounts>,
) -> Vec<(BlockId, u32)> {
    if forest.loops.is_empty() {
        return Vec::new();
    }
    let mut own = func.clone();
    let ids: Vec<_> = own.insts_in_order().map(|(i, _)| i).collect();
    for i in ids {
        own.set_origin(i, Some(i));
    }
    let reports =
        crate::phases::loop_unrolling::run_with_trips(ctx, &Arc::new(own), trips, true).loops;
    let mut out: Vec<(BlockId, u32)> = Vec::new();
    for (r, at) in reports.iter().zip(loops_of_reports(func, forest, &reports)) {
        let (Some(u), Some(id)) = (&r.unroll, at) else {
            continue;
        };
        let header = forest.get(id).header;
        if out.iter().all(|&(h, _)| h != header) {
            out.push((header, if u.full { FULL } else { u.factor.max(1) }));
        }
    }
    out
}
