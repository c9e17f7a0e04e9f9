//! Remarks and counters of a file's kernels, with source positions.
//!
//! Each phase query returns its remarks beside its output
//! ([`ptx_opt::PhaseOutput`]); a remark names an instruction by its origin,
//! an instruction id of the lowered function ([`kernel_ir`](crate::kernel_ir)).
//! [`file_remarks`] maps origins to absolute ranges: the instruction's range
//! in [`kernel_lowered`] (relative to the function) plus the function's start
//! ([`kernel_starts`]). [`kernel_remarks`] gathers one kernel's remarks over
//! the phases and is memoized (after an edit, a file's remarks cost one
//! lookup per kernel, not one per kernel and phase); the mapping to
//! positions is not (it changes with every edit above a kernel) and is a
//! lookup per remark.

use std::sync::Arc;

use ptx_opt::{PhaseId, Remark, Stat, PHASES};
use ptx_syntax::TextRange;

use crate::inputs::SourceFile;
use crate::pipeline::phase_output;
use crate::queries::{has_errors, kernel_lowered, kernel_starts, kernels, Kernel};
use crate::Db;

/// A remark of one kernel with its absolute range in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRemark {
    /// The function it is in.
    pub kernel: String,
    pub remark: Remark,
    /// The instruction's range in the file; `None` when the remark names no
    /// instruction, or one lowering made up.
    pub range: Option<TextRange>,
}

/// The counters of one phase of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelStats {
    pub kernel: String,
    pub phase: PhaseId,
    pub stats: Vec<Stat>,
}

/// Every remark of every kernel of `file`, phase after phase within a
/// kernel, kernels in source order. Empty for a file with errors (it is not
/// built).
pub fn file_remarks(db: &dyn Db, file: SourceFile) -> Vec<FileRemark> {
    if has_errors(db, file) {
        return Vec::new();
    }
    let starts = kernel_starts(db, file);
    let mut out = Vec::new();
    for (index, &kernel) in kernels(db, file).iter().enumerate() {
        let base = starts.get(index).copied().unwrap_or_default();
        let remarks = kernel_remarks(db, kernel);
        if remarks.is_empty() {
            continue;
        }
        let lowered = kernel_lowered(db, kernel);
        for remark in remarks.iter() {
            let range = remark
                .origin
                .and_then(|o| lowered.inst_range(o))
                .filter(|r| !r.is_empty())
                .map(|r| r + base);
            out.push(FileRemark {
                kernel: kernel.name(db).clone(),
                remark: remark.clone(),
                range,
            });
        }
    }
    out
}

/// The remarks of every phase of one kernel, in pipeline order (memoized).
///
/// Only implemented phases are read: a phase that passes its input through
/// reports nothing ([`ptx_opt::run_phase`]), and not reading it keeps this
/// query's dependencies to the chain up to the last implemented phase (16
/// queries today instead of 53), which is what salsa re-validates per kernel
/// after an edit (the language server asks for every kernel's remarks).
#[salsa::tracked(returns(ref))]
pub fn kernel_remarks<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<[Remark]> {
    PHASES
        .iter()
        .filter(|info| info.implemented)
        .flat_map(|info| phase_output(db, kernel, info.id).remarks.iter().cloned())
        .collect()
}

/// The counters of every phase that reported any, per kernel, in pipeline
/// order. Empty for a file with errors.
pub fn file_stats(db: &dyn Db, file: SourceFile) -> Vec<KernelStats> {
    if has_errors(db, file) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &kernel in kernels(db, file) {
        // Pass-through phases count nothing (see `kernel_remarks`).
        for info in PHASES.iter().filter(|info| info.implemented) {
            let stats = &phase_output(db, kernel, info.id).stats;
            if !stats.is_empty() {
                out.push(KernelStats {
                    kernel: kernel.name(db).clone(),
                    phase: info.id,
                    stats: stats.clone(),
                });
            }
        }
    }
    out
}
