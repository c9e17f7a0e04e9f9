//! Phase 22, OriLoopUnrolling (seed `000_ed667d9feced6e07.txt`, "Phase 22 --
//! OriLoopUnrolling").
//!
//! Knobs: `LoopUnroll` (OCG knob 437, the master enable), read first, the way
//! the real phase does (seed 000, "Heuristic Thresholds (Knobs)").
//!
//! Not implemented yet: the phase passes its input through. It already reads
//! its master enable so that the database records the dependency: changing
//! `LoopUnroll` re-runs this phase and nothing else (its output is equal, so
//! everything after it is backdated), and changing any other knob does not
//! re-run it. Adapted from Ori: nothing yet.

use std::sync::Arc;

use ptx_ir::ir::Function;

use crate::{knobs, PassContext, PhaseOutput};

/// Runs phase 22 on one function.
pub fn run(ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::LoopUnroll) {
        return PhaseOutput::unchanged(input);
    }
    // The unroller itself is not written yet.
    PhaseOutput::unchanged(input)
}
