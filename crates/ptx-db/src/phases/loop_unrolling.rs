//! Phase 22, OriLoopUnrolling (seed 000, "Phase 22 -- OriLoopUnrolling").
//!
//! Not implemented yet: the phase passes its input through. It already reads
//! its master enable, the `LoopUnroll` knob (OCG knob 437), the way the real
//! phase does first, so that the database records the dependency: changing
//! `LoopUnroll` re-runs this phase and nothing else (its output is equal, so
//! everything after it is backdated), and changing any other knob does not
//! re-run it.

use std::sync::Arc;

use ptx_ir::ir::Function;

use crate::Db;

/// Runs phase 22 on one kernel.
pub(super) fn ori_loop_unrolling(db: &dyn Db, input: Arc<Function>) -> Arc<Function> {
    if !crate::knob_bool(db, "LoopUnroll", true) {
        return input;
    }
    // The unroller itself is not written yet.
    input
}
