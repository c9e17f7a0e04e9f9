//! `ptx-db`: the incremental (salsa 0.28) database of ptxopt.
//!
//! Inputs ([`inputs`]): one [`SourceFile`] per path, one [`Knob`] per knob of
//! the `ptx-knobs` registry, the [`Target`], one [`PhaseSwitch`] per phase.
//! Everything else is a memoized query ([`queries`], [`pipeline`], [`output`]):
//!
//! ```text
//! SourceFile ─► parse ─► kernels ─► Kernel{name, syntax: green node}
//!                                      │
//!                      kernel_lowered ─► kernel_ir   (trivia and positions dropped)
//!                                      │
//!            cfg, dominators, loops, liveness, …   (one query per analysis, [`analysis`])
//!                                      │
//!            cicc passes ─► ptxas phases 3 … 88   (one query per phase, chained;
//!                                      │          each calls `ptx_opt::run_phase`)
//!                      remarks, stats (file_remarks, file_stats: origins mapped to positions)
//!                                      │
//!                      kernel_ptx ─► file_ptx_text ─► build_file (streamed)
//! ```
//!
//! An edit in one function re-runs only that function's queries, the parse,
//! check, skeleton and kernel list of its chunk (see [`Chunk`]), and the file's
//! diagnostics; module-level queries read the file's skeleton, which such an
//! edit leaves equal. A comment or whitespace edit stops at `kernel_ir`; a knob
//! change re-runs only the phases that read the knob.
//! `tests/incremental.rs` proves each with a snapshot of the executed queries
//! ([`EventLog`]).
//!
//! Use: build a [`RootDatabase`], [`set_file_text`](RootDatabase::set_file_text)
//! (or, for an editor's change, [`edit_file_text`](RootDatabase::edit_file_text)),
//! set knobs and target, then call [`build_file`] (or [`ir_after`] for a dump).
//! For parallel batch builds, give each worker thread a clone of the database.
//! Queries unwind with `salsa::Cancelled` when an input is set while they run
//! on a clone; do not build with `panic = "abort"`.

pub mod analysis;
mod database;
mod event_log;
pub mod inputs;
pub mod loops;
pub mod output;
pub mod parallel;
pub mod phases;
pub mod pipeline;
pub mod queries;
pub mod remarks;

pub use database::{parse_target, Db, EditError, EventCallback, RootDatabase, SetKnobError};
pub use event_log::EventLog;
pub use inputs::{Chunk, Knob, PhaseSwitch, SourceFile, Target};
pub use loops::{
    file_loops, kernel_loop_reports, kernel_report_loops, kernel_reports_of_loop, loops_of_reports,
    FileLoop,
};
pub use output::{
    any_error, build_file, file_problems, file_ptx, file_ptx_text, kernel_output, kernel_ptx,
    output_diagnostics, FileBuild, KernelOutput, PtxText,
};
pub use phases::{
    find_phases, phase_info, suggest_phases, DbContext, PhaseId, PhaseInfo, Tool, PHASES,
};
pub use pipeline::{effective_target, ir_after, ir_before, kernel_final, phase_output};
pub use ptx_opt::{LoopReport, PhaseOutput, Remark, RemarkKind, Stat, UnrollDecision};
pub use queries::{
    chunk_check, chunk_kernels, chunk_parse, chunk_skeleton, chunks_clean, file_diagnostics,
    file_text, kernel_ir, kernel_lowered, kernel_starts, kernels, module_check, module_context,
    module_facts, module_items, module_skeleton, parse, Diag, Kernel, KernelSyntax, LoweredKernel,
    Skeleton,
};
pub use remarks::{file_remarks, file_stats, kernel_remarks, FileRemark, KernelStats};
