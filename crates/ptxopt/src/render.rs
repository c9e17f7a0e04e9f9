//! Renders diagnostics rustc-style:
//!
//! ```text
//! kernel.ptx:12:9: error: undeclared register `%r9`
//!    12 |     add.s32 %r1, %r9, 1;
//!       |                  ^^^
//! ```

use std::fmt::Write;

use ptx_syntax::check::{Diagnostic, Severity};
use ptx_syntax::line_index::LineIndex;

/// Appends one rendered diagnostic to `out`.
pub fn render(out: &mut String, path: &str, text: &str, index: &LineIndex, diag: &Diagnostic) {
    render_short(out, path, text, index, diag);
    let start = index.line_col(text, diag.range.start());
    let end = index.line_col(text, diag.range.end());
    let line_text = index.line_text(text, start.line);
    let number = start.line.to_string();
    let pad = " ".repeat(number.len());
    // Tabs are kept in the source line and mirrored under it, so the caret lines up.
    let prefix: String = line_text
        .chars()
        .take(start.col as usize - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = if end.line == start.line {
        (end.col - start.col).max(1)
    } else {
        1
    };
    let _ = writeln!(out, " {number} | {line_text}");
    let _ = writeln!(out, " {pad} | {prefix}{}", "^".repeat(width as usize));
}

/// Appends one diagnostic as a single `path:line:col: severity: message` line.
pub fn render_short(
    out: &mut String,
    path: &str,
    text: &str,
    index: &LineIndex,
    diag: &Diagnostic,
) {
    let lc = index.line_col(text, diag.range.start());
    let severity = match diag.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(
        out,
        "{path}:{}:{}: {severity}: {}",
        lc.line, lc.col, diag.message
    );
}

/// `"s"` unless `n` is one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
