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
//! Sub-passes, one module each:
//!
//! - [`const_fold`]: constant folding and algebraic simplification.
//!
//! Not yet: OriCopyProp (forward copy propagation), the bundle's own DCE
//! (phase 16 runs after phase 13), the fixed-point loop (constant folding
//! is one linear scan per block that already chains: a folded value feeds
//! the next fold, so a second round finds nothing new without copy
//! propagation across blocks).

use std::sync::Arc;

use ptx_ir::ir::Function;

use crate::remark::PhaseOutput;
use crate::PhaseId;

pub mod const_fold;

/// The phases that run the bundle.
pub fn is_bundle(id: PhaseId) -> bool {
    matches!(
        id,
        PhaseId::GeneralOptimizeEarly
            | PhaseId::GeneralOptimize
            | PhaseId::Phase37
            | PhaseId::GeneralOptimizeMid2
            | PhaseId::GeneralOptimizeLate
            | PhaseId::GeneralOptimizeLate2
    )
}

/// Runs the bundle's sub-passes on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    const_fold::run(id, input)
}
