//! What the loop phases decided about each loop of a file, with source
//! positions: the data of `ptxopt explain`, the `unroll` field of `analyze`
//! JSON and the editor's code lens over loop headers.
//!
//! Every phase reports its loop decisions in [`ptx_opt::PhaseOutput::loops`]
//! ([`LoopReport`]), naming the loop by the origin of its header's first
//! instruction (an instruction of the lowered function). [`kernel_loop_reports`]
//! gathers one kernel's reports over the implemented phases (memoized, like
//! [`crate::kernel_remarks`]); [`file_loops`] groups them per loop, adds the
//! loops of the lowered function that no phase reported on (so a loop shows
//! even when every loop phase is off), and maps each header to its range in
//! the file.

use std::sync::Arc;

use ptx_analysis::LoopId;
use ptx_ir::ir::InstId;
use ptx_opt::{LoopReport, PHASES};
use ptx_syntax::TextRange;

use crate::inputs::SourceFile;
use crate::pipeline::phase_output;
use crate::queries::{has_errors, kernel_ir, kernel_lowered, kernel_starts, kernels, Kernel};
use crate::Db;

/// One loop of a file and what each loop phase decided about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLoop {
    /// The function it is in.
    pub kernel: String,
    /// The first instruction of its header in the lowered function (`None`
    /// for a loop whose header has no source instruction).
    pub header: Option<InstId>,
    /// That instruction's range in the file.
    pub range: Option<TextRange>,
    /// Where the loop's header starts in the file: its label when it has
    /// one, else its first instruction (the line `explain`, `analyze` and
    /// the editor name the loop by).
    pub header_range: Option<TextRange>,
    /// The header's label in the source, when it has one.
    pub label: Option<String>,
    /// Nesting depth in the source (1: outermost; 0 when the loop is only
    /// known from a phase's report).
    pub depth: u32,
    /// The reports of the loop phases, in pipeline order.
    pub reports: Vec<LoopReport>,
}

/// Which loop of `forest` (a loop forest of the lowered function `func`)
/// each report is about ([`ptx_opt::ptxas_view::loops_of_reports`]).
pub use ptx_opt::ptxas_view::loops_of_reports;

/// The loop reports of every implemented phase of one kernel, in pipeline
/// order (memoized).
#[salsa::tracked(returns(ref))]
pub fn kernel_loop_reports<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<[LoopReport]> {
    PHASES
        .iter()
        .filter(|info| info.implemented)
        .flat_map(|info| phase_output(db, kernel, info.id).loops.iter().cloned())
        .collect()
}

/// Which loop of the kernel's lowered function ([`crate::analysis::loops`])
/// each report of [`kernel_loop_reports`] is about, in the same order
/// ([`loops_of_reports`]; memoized: the editor asks per loop header).
#[salsa::tracked(returns(ref))]
pub fn kernel_report_loops<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<[Option<LoopId>]> {
    let reports = kernel_loop_reports(db, kernel);
    let func = kernel_ir(db, kernel);
    if func.layout.is_empty() {
        return reports.iter().map(|_| None).collect();
    }
    ptx_opt::ptxas_view::loops_of_reports(func, crate::analysis::loops(db, kernel), reports).into()
}

/// The reports of [`kernel_loop_reports`] about loop `id` of the kernel's
/// lowered function, in pipeline order.
pub fn kernel_reports_of_loop<'db>(
    db: &'db dyn Db,
    kernel: Kernel<'db>,
    id: LoopId,
) -> Vec<&'db LoopReport> {
    kernel_report_loops(db, kernel)
        .iter()
        .zip(kernel_loop_reports(db, kernel).iter())
        .filter(|(at, _)| **at == Some(id))
        .map(|(_, r)| r)
        .collect()
}

/// Every loop of every kernel of `file`, in source order within a kernel,
/// kernels in source order. Empty for a file with errors.
pub fn file_loops(db: &dyn Db, file: SourceFile) -> Vec<FileLoop> {
    if has_errors(db, file) {
        return Vec::new();
    }
    let starts = kernel_starts(db, file);
    let mut out = Vec::new();
    for (index, &kernel) in kernels(db, file).iter().enumerate() {
        let base = starts.get(index).copied().unwrap_or_default();
        let lowered = kernel_lowered(db, kernel);
        let func = &lowered.function;
        let name = kernel.name(db).clone();
        let range_of = |i: Option<InstId>| {
            i.and_then(|o| lowered.inst_range(o))
                .filter(|r| !r.is_empty())
                .map(|r| r + base)
        };
        let labels = label_offsets(kernel.syntax(db));
        let label_range = |label: &Option<String>| {
            let l = label.as_ref()?;
            labels
                .iter()
                .find(|(name, _)| name == l)
                .map(|&(_, r)| r + base)
        };
        let mut mine: Vec<FileLoop> = Vec::new();
        if !func.layout.is_empty() {
            for l in &crate::analysis::loops(db, kernel).loops {
                let header = func.blocks[l.header].insts.first().copied();
                let label = func.blocks[l.header].label.clone();
                mine.push(FileLoop {
                    kernel: name.clone(),
                    header,
                    range: range_of(header),
                    header_range: label_range(&label).or(range_of(header)),
                    label,
                    depth: l.depth,
                    reports: Vec::new(),
                });
            }
        }
        let reports = kernel_loop_reports(db, kernel);
        for (report, at) in reports.iter().zip(kernel_report_loops(db, kernel).iter()) {
            // `mine` holds the forest's loops in its order, then loops known
            // only from reports.
            let at = at.map(|id| id.0 as usize);
            match at.and_then(|i| mine.get_mut(i)) {
                Some(l) => l.reports.push(report.clone()),
                None => mine.push(FileLoop {
                    kernel: name.clone(),
                    header: report.header,
                    range: range_of(report.header),
                    header_range: range_of(report.header),
                    label: None,
                    depth: 0,
                    reports: vec![report.clone()],
                }),
            }
        }
        mine.sort_by_key(|l| l.header_range.map(|r| r.start()));
        out.extend(mine);
    }
    out
}

/// The labels defined in a function (from its green node) with their ranges
/// relative to the function's start, in source order.
fn label_offsets(green: &ptx_syntax::GreenNode) -> Vec<(String, TextRange)> {
    ptx_syntax::SyntaxNode::new_root(green.clone())
        .descendants()
        .filter(|n| n.kind() == ptx_syntax::SyntaxKind::LABEL_DEF)
        .filter_map(|n| {
            let name = n
                .children()
                .find(|c| c.kind() == ptx_syntax::SyntaxKind::NAME)?
                .text()
                .to_string();
            Some((name, n.text_range()))
        })
        .collect()
}
