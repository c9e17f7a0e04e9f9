//! Remarks and counters of a file's kernels, with source positions.
//!
//! Each phase query returns its remarks beside its output
//! ([`ptx_opt::PhaseOutput`]); a remark names an instruction by its origin,
//! an instruction id of the lowered function ([`kernel_ir`](crate::kernel_ir)).
//! [`file_remarks`] maps origins to absolute ranges: the instruction's range
//! in [`kernel_lowered`] (relative to the function) plus the function's start
//! ([`kernel_starts`]). Not memoized: the phase queries are, and the mapping
//! is a lookup per remark.

use ptx_opt::{PhaseId, Remark, Stat, PHASES};
use ptx_syntax::TextRange;

use crate::inputs::SourceFile;
use crate::pipeline::phase_output;
use crate::queries::{has_errors, kernel_lowered, kernel_starts, kernels};
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
        let lowered = kernel_lowered(db, kernel);
        for info in PHASES {
            for remark in &phase_output(db, kernel, info.id).remarks {
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
    }
    out
}

/// The counters of every phase that reported any, per kernel, in pipeline
/// order. Empty for a file with errors.
pub fn file_stats(db: &dyn Db, file: SourceFile) -> Vec<KernelStats> {
    if has_errors(db, file) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &kernel in kernels(db, file) {
        for info in PHASES {
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
