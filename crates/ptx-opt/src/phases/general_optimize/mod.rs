//! The GeneralOptimize bundle: phases 13 GeneralOptimizeEarly, 29
//! GeneralOptimize, 37 (unnamed), 46 GeneralOptimizeMid2, 58
//! GeneralOptimizeLate and 65 GeneralOptimizeLate2.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Forward Copy Propagation --
//! OriCopyProp" and "Interaction Between Passes" ("Phase 46:
//! GeneralOptimizeMid2 |-- OriCopyProp |-- constant folding, algebraic
//! simplification, DCE"); seed `000_ed667d9feced6e07.txt`, "Pipeline
//! Placement". Each bundle is a set of cheap local sub-passes run to a fixed
//! point (variant A, phases 13/29, capped by OCG knob 464; variant B,
//! phases 37/58, a cost threshold, knob 474).
//!
//! Sub-passes, one module each, run in this order in every bundle phase:
//!
//! - [`crate::phases::copy_prop`]: OriCopyProp, forward copy propagation
//!   (and `selp` with a known condition); it makes `mov`s of immediates
//!   reach the instructions that read them through copies;
//! - [`const_fold`]: constant folding and algebraic simplification.
//!
//! Each bundle phase runs the two once, in that order; the six bundles of
//! the pipeline give six rounds. Not yet: the bundle's own DCE (phase 16
//! runs after phase 13) and the fixed-point loop of knobs 464/474 within a
//! phase. `--named-phases OriCopyProp` selects the six bundle phases (the
//! table's alias), so constant folding runs with it; a switch per sub-pass
//! is not there yet.

use std::sync::Arc;

use ptx_ir::ir::Function;

use crate::remark::PhaseOutput;
use crate::PassContext;
use crate::PhaseId;

pub mod const_fold;

/// The phases that run the bundle.
pub fn is_bundle(id: PhaseId) -> bool {
    crate::table::is_general_optimize(id)
}

/// Runs the bundle's sub-passes on one function (phase `id`): copy
/// propagation, then constant folding on its result; the remarks and
/// counters of both, in that order.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let copied = crate::phases::copy_prop::run(id, ctx, input);
    let folded = const_fold::run(id, &copied.function);
    let mut remarks = copied.remarks;
    remarks.extend(folded.remarks);
    let mut stats = copied.stats;
    stats.extend(folded.stats);
    PhaseOutput {
        function: folded.function,
        loops: Vec::new(),
        remarks,
        stats,
    }
}
