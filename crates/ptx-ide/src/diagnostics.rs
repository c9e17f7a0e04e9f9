//! Diagnostics of a file: the syntax errors and the checks of `ptx-syntax`
//! (what `ptxopt check` reports), from the memoized
//! `ptx_db::file_diagnostics`.

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::TextRange;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, with its byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub range: TextRange,
    pub severity: Severity,
    pub message: String,
}

pub(crate) fn diagnostics(db: &RootDatabase, path: &Path) -> Vec<Diagnostic> {
    let Some(file) = db.file(path) else {
        return Vec::new();
    };
    ptx_db::file_diagnostics(db, file)
        .iter()
        .map(|d| Diagnostic {
            range: d.range,
            severity: match d.severity {
                ptx_syntax::check::Severity::Error => Severity::Error,
                ptx_syntax::check::Severity::Warning => Severity::Warning,
            },
            message: d.message.clone(),
        })
        .collect()
}
