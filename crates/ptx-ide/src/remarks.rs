//! Optimization remarks of a file as plain data, for the editor: what the
//! phases changed (applied) and what they looked at and left (missed), at
//! the instruction each names (`ptx_db::file_remarks`). The language server
//! shows them as diagnostics of severity Hint (a faded underline and a line
//! in the problems list, not a warning); see `ptx-lsp`'s `convert::remark`.
//!
//! Empty for a file with errors (it is not optimized). Computing them runs
//! the pipeline on every function of the file (memoized: after an edit, the
//! edited function's phases only).

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::TextRange;

pub use ptx_db::RemarkKind;

/// One remark at an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptRemark {
    /// The instruction's range in the file.
    pub range: TextRange,
    pub kind: RemarkKind,
    /// `"16 OriPerformLiveDeadFirst"`.
    pub phase: String,
    pub message: String,
}

pub(crate) fn remarks(db: &RootDatabase, path: &Path) -> Vec<OptRemark> {
    let Some(file) = db.file(path) else {
        return Vec::new();
    };
    if ptx_db::any_error(&ptx_db::file_problems(db, file)) {
        return Vec::new();
    }
    ptx_db::file_remarks(db, file)
        .into_iter()
        .filter_map(|r| {
            Some(OptRemark {
                range: r.range?,
                kind: r.remark.kind,
                phase: ptx_db::phase_info(r.remark.phase).label(),
                message: r.remark.message,
            })
        })
        .collect()
}
