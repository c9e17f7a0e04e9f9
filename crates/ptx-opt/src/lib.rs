//! `ptx-opt`: the optimizer's transforms as pure functions over `ptx-ir`.
//!
//! `ptx-analysis` holds the analyses; this crate holds the phases. Nothing in
//! here knows salsa: a phase is a function from an input [`Function`] and a
//! [`PassContext`] (knobs and target, read through the context so that the
//! database can record exactly which inputs a phase read) to a
//! [`PhaseOutput`]: the new function, structured [`Remark`]s (what changed,
//! and what was looked at and left alone, with the numbers that decided it)
//! and counters ([`Stat`]).
//!
//! - [`table`]: the phase table ([`PhaseId`], [`PHASES`], [`find_phases`]),
//!   written once in [`with_phase_table!`]; `ptx-db` makes one tracked query
//!   per entry and kernel from the same macro.
//! - [`context`]: [`PassContext`], typed knob reads
//!   (`ctx.bool(knobs::LoopUnroll)`), and [`Defaults`], a context with the
//!   registry defaults for tests.
//! - [`remark`]: remarks and counters.
//! - [`phases`]: one module per implemented (or knob-reading) phase; each
//!   module's documentation names the seed file and section it follows, its
//!   knobs, and what was adapted from Ori/SASS to PTX.
//! - [`origin`]: which instruction of the lowered function (`kernel_ir`) an
//!   instruction of a phase's output comes from, what remarks point at.
//! - [`verify`]: the check run after every phase in debug builds and tests.
//!
//! [`run_phase`] is the one entry point.

pub mod context;
pub mod origin;
pub mod phases;
pub mod ptxas_view;
pub mod remark;
pub mod seeds;
pub mod table;
pub mod verify;

use std::sync::Arc;

use ptx_ir::ir::Function;

pub use context::{Defaults, PassContext};
pub use ptx_knobs::knobs;
pub use remark::{LoopReport, PhaseOutput, Remark, RemarkKind, Stat, UnrollDecision};
pub use table::{
    find_phases, phase_info, status_note, suggest_phases, PhaseId, PhaseInfo, Tool, PHASES,
};

/// Runs phase `id` on `input`. A phase not implemented yet returns its input
/// (the same `Arc`) with no remarks. In debug builds the output is checked by
/// [`verify::verify_after`], which panics naming the phase when the IR is
/// broken (a phase bug, never an input problem).
pub fn run_phase(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let out = match id {
        PhaseId::CiccInline => phases::cicc_inline::run(id, ctx, input),
        PhaseId::CiccIselCombine => phases::cicc_isel_combine::run(id, input),
        PhaseId::CiccMachineCopyProp => phases::cicc_machine_cp::run(id, ctx, input),
        PhaseId::CiccLoopUnroll => phases::cicc_loop_unroll::run(id, ctx, input),
        PhaseId::OriLoopSimplification => phases::loop_simplification::run(ctx, input),
        PhaseId::OriStrengthReduce => phases::strength_reduce::run(input),
        PhaseId::OriPipelining => phases::pipelining::run(ctx, input),
        PhaseId::CiccMachinePipeliner => phases::machine_pipeliner::run(id, ctx, input),
        PhaseId::OriLoopFusion => phases::loop_fusion::run(ctx, input),
        PhaseId::OriPerformLiveDeadFirst | PhaseId::OriPerformLiveDeadFourth => {
            phases::live_dead::run(id, input)
        }
        PhaseId::CiccMem2Reg => phases::cicc_mem2reg::run(id, ctx, input),
        PhaseId::CiccNvptxPeephole | PhaseId::CiccProxyRegErasure => {
            phases::cicc_peephole::run(id, ctx, input)
        }
        PhaseId::CiccLdgTransform => phases::cicc_ldg::run(id, input),
        PhaseId::CiccParamOpt => phases::cicc_param_opt::run(id, input),
        PhaseId::CiccTruncOpts => phases::cicc_trunc_opts::run(id, input),
        PhaseId::CiccRedundantMoveElim => phases::cicc_redundant_move::run(id, input),
        PhaseId::GvnCse => phases::gvn_cse::run(id, ctx, input),
        PhaseId::OriBackCopyPropagate => phases::back_copy_prop::run(id, ctx, input),
        PhaseId::OriReassociateAndCommon => phases::reassociate::run(id, ctx, input),
        PhaseId::LateOriCommoning => phases::late_commoning::run(id, ctx, input),
        PhaseId::OriLoopUnrolling => phases::loop_unrolling::run(ctx, input),
        PhaseId::OriBranchOpt => phases::branch_opt::run(id, ctx, input),
        PhaseId::OriDoPredication => phases::predication::run(id, ctx, input),
        PhaseId::CiccBlockRemat => phases::block_remat::run(id, ctx, input),
        PhaseId::CiccMachineCse => phases::machine_cse::run(id, ctx, input),
        PhaseId::CiccMachineScheduler => phases::machine_scheduler::run(id, ctx, input),
        PhaseId::CiccTextureGroupMerge => phases::texture_group_merge::run(id, ctx, input),
        _ if phases::hoist_invariants::is_instance(id) => {
            phases::hoist_invariants::run(id, ctx, input)
        }
        _ if phases::general_optimize::is_bundle(id) => {
            phases::general_optimize::run(id, ctx, input)
        }
        _ => PhaseOutput::unchanged(input),
    };
    if cfg!(debug_assertions) && !Arc::ptr_eq(&out.function, input) {
        verify::verify_after(id, &out.function);
    }
    out
}
