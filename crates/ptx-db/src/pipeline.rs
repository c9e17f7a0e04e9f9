//! The pipeline as a chain of memoized queries.
//!
//! For every kernel, each phase of [`PHASES`] is one salsa tracked query whose
//! input is the previous phase's query (the first phase reads
//! [`kernel_ir`]). So:
//!
//! - `--dump-after PHASE` is a lookup of that phase's memoized result
//!   ([`ir_after`]);
//! - a phase switched off (`--named-phases`) or not implemented returns its
//!   input `Arc` unchanged: cheap, and equal, so what follows is backdated;
//! - a knob change re-runs the phases that read that knob; where their output
//!   is unchanged, nothing after them re-runs.
//!
//! Every phase reads its [`PhaseSwitch`](crate::PhaseSwitch) (one input per
//! phase), so changing the selection re-runs only the phases switched.

use std::sync::Arc;

use ptx_ir::ir::Function;
use ptx_opt::PhaseOutput;

use crate::inputs::SourceFile;
use crate::phases::{self, DbContext, PhaseId, PHASES};
use crate::queries::{kernel_ir, Kernel};
use crate::Db;

/// Body of every phase query: the previous phase's output, transformed by this
/// phase if it is switched on ([`ptx_opt::run_phase`]).
pub(crate) fn execute(db: &dyn Db, kernel: Kernel<'_>, id: PhaseId) -> PhaseOutput {
    let input = ir_before(db, kernel, id);
    if !db.phase_switch(id).enabled(db) {
        return PhaseOutput::unchanged(&input);
    }
    let ctx = DbContext {
        db,
        file: kernel.file(db),
    };
    ptx_opt::run_phase(id, &ctx, &input)
}

/// The remarks and counters of phase `id` for `kernel` (memoized with its
/// output).
pub fn phase_output<'db>(db: &'db dyn Db, kernel: Kernel<'db>, id: PhaseId) -> &'db PhaseOutput {
    phases::memoized(db, kernel, id)
}

/// The input of phase `id`: the output of the one before it, or the lowered IR.
pub fn ir_before(db: &dyn Db, kernel: Kernel<'_>, id: PhaseId) -> Arc<Function> {
    match (id as usize).checked_sub(1) {
        Some(prev) => phases::memoized(db, kernel, PHASES[prev].id)
            .function
            .clone(),
        None => kernel_ir(db, kernel).clone(),
    }
}

/// The IR of `kernel` after phase `id` (memoized).
pub fn ir_after(db: &dyn Db, kernel: Kernel<'_>, id: PhaseId) -> Arc<Function> {
    phases::memoized(db, kernel, id).function.clone()
}

/// The IR of `kernel` after the whole pipeline.
pub fn kernel_final(db: &dyn Db, kernel: Kernel<'_>) -> Arc<Function> {
    match PHASES.last() {
        Some(last) => ir_after(db, kernel, last.id),
        None => kernel_ir(db, kernel).clone(),
    }
}

/// The target a file's kernels are optimized and analyzed for: the
/// [`Target`](crate::Target) input when set (`--arch`), otherwise the file's
/// `.target` (`(sm, suffix)`, e.g. `(90, "a")`); `(0, "")` when neither says.
pub fn effective_target(db: &dyn Db, file: SourceFile) -> (u32, String) {
    let target = db.target();
    if target.sm(db) != 0 {
        return (target.sm(db), target.suffix(db).clone());
    }
    let ctx = crate::queries::module_context(db, file);
    match &ctx.target {
        Some(t) => {
            let suffix: String = t
                .arch
                .trim_start_matches(|c: char| !c.is_ascii_digit())
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .to_string();
            (t.sm_number(), suffix)
        }
        None => (0, String::new()),
    }
}
