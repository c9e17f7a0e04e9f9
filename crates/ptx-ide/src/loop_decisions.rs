//! What the loop phases decided about a loop, for the editor: the code lens
//! line above a loop header ("unrolled x4: unknown trip count,
//! UnrollUnknownCount=4", "not unrolled: code 14, unsupported induction
//! variable"), the whole trail in the header's hover, and the code action
//! that adds or removes `.pragma "nounroll";` at the header (the decisions
//! follow as the user types: they are queries of the same database, the
//! `knobs` setting included).

use std::fmt::Write as _;
use std::path::Path;

use ptx_db::{Kernel, LoopReport, RootDatabase};
use ptx_ir::ir::BlockId;
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{TextRange, TextSize};

use crate::analysis::{kernel_analysis, kernel_at, KernelAnalysis};
use crate::navigation::TextEdit;

/// The loop reports of every implemented phase about the loop whose header
/// is `block` of the kernel's IR (see `ptx_db::loops_of_reports`: a report
/// names an instruction of the loop's header, or, after phase 18 moved the
/// header, one the loop holds outside its inner loops).
pub(crate) fn reports_for(
    db: &RootDatabase,
    kernel: Kernel<'_>,
    ka: &KernelAnalysis,
    block: BlockId,
) -> Vec<LoopReport> {
    let Some(id) = ka.loops.loop_with_header(block) else {
        return Vec::new();
    };
    ptx_db::kernel_reports_of_loop(db, kernel, id)
        .into_iter()
        .cloned()
        .collect()
}

/// One line for a code lens: the unrolling phases' decisions (cicc's, then
/// ptxas phase 22's), `; `-separated; when no unrolling phase reported on
/// the loop, the first other phase's. The hover has the whole trail.
pub(crate) fn lens_title(reports: &[LoopReport]) -> Option<String> {
    let unroll: Vec<&LoopReport> = reports.iter().filter(|r| r.unroll.is_some()).collect();
    let shown: Vec<&LoopReport> = if unroll.is_empty() {
        reports.iter().take(1).collect()
    } else {
        unroll
    };
    if shown.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for r in shown {
        let info = ptx_db::phase_info(r.phase);
        let who = match info.number {
            Some(n) => format!("ptxas {n}"),
            None => info.tool.as_str().to_string(),
        };
        let summary = r
            .summary
            .strip_prefix(&format!("{who}: "))
            .unwrap_or(&r.summary);
        let part = format!("{who}: {summary}");
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    Some(parts.join("; "))
}

/// The hover's trail: every phase's decision with its facts.
pub(crate) fn hover_trail(md: &mut String, reports: &[LoopReport]) {
    if reports.is_empty() {
        return;
    }
    let _ = writeln!(md, "\n**Loop decisions**\n");
    let mut seen: Vec<(ptx_db::PhaseId, &str)> = Vec::new();
    for r in reports {
        // A phase that looked at the loop twice (once per nested level it
        // walked) says the same thing once.
        if seen.contains(&(r.phase, r.summary.as_str())) {
            continue;
        }
        seen.push((r.phase, r.summary.as_str()));
        let _ = writeln!(
            md,
            "- `{}`: {}",
            ptx_db::phase_info(r.phase).label(),
            r.summary
        );
        for (k, v) in &r.facts {
            let _ = writeln!(md, "  - {k}: {v}");
        }
    }
}

/// A code action: a title and the edits that carry it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

/// The actions at `offset`: on the line of a loop header's label, add or
/// remove `.pragma "nounroll";` (the pragma goes on its own line right after
/// the label, where nvcc writes it).
pub(crate) fn code_actions(db: &RootDatabase, path: &Path, offset: TextSize) -> Vec<CodeAction> {
    let Some(file) = db.file(path) else {
        return Vec::new();
    };
    let text = ptx_db::file_text(db, file);
    let Some(k) = kernel_at(db, path, offset) else {
        return Vec::new();
    };
    let ka = kernel_analysis(db, k.kernel);
    let line_start = |o: usize| text[..o].rfind('\n').map_or(0, |p| p + 1);
    let line_end = |o: usize| text[o..].find('\n').map_or(text.len(), |p| o + p);
    let at = usize::from(offset).min(text.len());
    let (cursor_start, cursor_end) = (line_start(at), line_end(at));
    let mut out = Vec::new();
    for label in k
        .syntax
        .syntax()
        .descendants()
        .filter_map(ast::LabelDef::cast)
    {
        let range = label.syntax().text_range();
        let start = usize::from(range.start());
        if start < cursor_start || start > cursor_end {
            continue;
        }
        let Some(name) = label.name() else { continue };
        let Some(block) = ka.block_with_label(&name.text()) else {
            continue;
        };
        if ka.loop_facts(block).is_none() {
            continue;
        }
        let label_end = line_end(usize::from(range.end()));
        match existing_pragma(text, label_end) {
            Some((from, to)) => out.push(CodeAction {
                title: format!(
                    "Allow unrolling of the loop at {} (remove .pragma \"nounroll\")",
                    name.text()
                ),
                edits: vec![TextEdit {
                    range: TextRange::new(TextSize::from(from as u32), TextSize::from(to as u32)),
                    new_text: String::new(),
                }],
            }),
            None => out.push(CodeAction {
                title: format!(
                    "Do not unroll the loop at {} (add .pragma \"nounroll\")",
                    name.text()
                ),
                edits: vec![TextEdit {
                    range: TextRange::empty(TextSize::from(label_end as u32)),
                    new_text: "\n\t.pragma \"nounroll\";".to_string(),
                }],
            }),
        }
    }
    out
}

/// The line holding `.pragma "nounroll";` among the lines after `from`
/// (the end of the label's line) before the first instruction: blank lines,
/// comments and `.loc` lines are skipped. Returns the byte range of the
/// whole line, its line break included.
fn existing_pragma(text: &str, from: usize) -> Option<(usize, usize)> {
    let mut pos = from;
    while pos < text.len() {
        let start = pos + usize::from(text[pos..].starts_with('\n'));
        let end = text[start..].find('\n').map_or(text.len(), |p| start + p);
        let line = text[start..end].trim();
        if line.starts_with(".pragma") {
            if line.contains("\"nounroll\"") {
                return Some((start.saturating_sub(1).max(from), end));
            }
        } else if !(line.is_empty() || line.starts_with("//") || line.starts_with(".loc")) {
            return None;
        }
        if end >= text.len() {
            return None;
        }
        pos = end;
    }
    None
}
