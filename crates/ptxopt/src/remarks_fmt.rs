//! `ptxopt build --remarks` and `--stats`: the phases' remarks and counters,
//! as text in the style of clang's `-Rpass`/`-Rpass-missed`, or as JSON
//! lines.
//!
//! Text, one line per remark (on standard error, like clang's):
//!
//! ```text
//! k.ptx:12:2: remark: [16 OriPerformLiveDeadFirst] removed dead `mov.u32` defining %r5 (never read by code that stays)
//! k.ptx:14:2: remark-missed: [16 OriPerformLiveDeadFirst] result %r7 unused (0 reads) but `atom.global.add.u32` is kept: atomic read-modify-write
//! ```
//!
//! and one line per phase and kernel with counters:
//!
//! ```text
//! k.ptx: stats: kern [16 OriPerformLiveDeadFirst] instructions removed=3 removed: never read=3 ...
//! ```
//!
//! JSON: one object per line, `{"type":"remark","file","line","col","kernel","phase","phase_number","kind":"applied"|"missed","name","message"}`
//! (`line`/`col` are `null` for a remark about no instruction) and
//! `{"type":"stats","file","kernel","phase","phase_number","stats":{"instructions removed":3,…}}`.
//! Fields may be added, never renamed.

use ptx_db::{FileRemark, KernelStats, RemarkKind};
use ptx_knobs::json_string;
use ptx_syntax::line_index::LineIndex;

/// Which remarks `--remarks` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemarkFilter {
    Applied,
    Missed,
    All,
}

impl RemarkFilter {
    fn wants(self, kind: RemarkKind) -> bool {
        match self {
            RemarkFilter::All => true,
            RemarkFilter::Applied => kind == RemarkKind::Applied,
            RemarkFilter::Missed => kind == RemarkKind::Missed,
        }
    }
}

/// How remarks and counters print.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
}

/// Renders the remarks of one file that `filter` wants.
pub fn render_remarks(
    display: &str,
    text: &str,
    remarks: &[FileRemark],
    filter: RemarkFilter,
    format: ReportFormat,
) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for r in remarks.iter().filter(|r| filter.wants(r.remark.kind)) {
        let info = ptx_db::phase_info(r.remark.phase);
        let pos = r.range.map(|range| index.line_col(text, range.start()));
        match format {
            ReportFormat::Text => {
                let at = match pos {
                    Some(lc) => format!("{display}:{}:{}", lc.line, lc.col),
                    None => format!("{display}: in `{}`", r.kernel),
                };
                let label = match r.remark.kind {
                    RemarkKind::Applied => "remark",
                    RemarkKind::Missed => "remark-missed",
                };
                out.push_str(&format!(
                    "{at}: {label}: [{}] {}\n",
                    info.label(),
                    r.remark.message
                ));
            }
            ReportFormat::Json => {
                let (line, col) = match pos {
                    Some(lc) => (lc.line.to_string(), lc.col.to_string()),
                    None => ("null".into(), "null".into()),
                };
                out.push_str(&format!(
                    "{{\"type\":\"remark\",\"file\":{},\"line\":{line},\"col\":{col},\"kernel\":{},\"phase\":{},\"phase_number\":{},\"kind\":\"{}\",\"name\":{},\"message\":{}}}\n",
                    json_string(display),
                    json_string(&r.kernel),
                    json_string(info.name),
                    info.number.map_or("null".to_string(), |n| n.to_string()),
                    r.remark.kind.as_str(),
                    json_string(r.remark.name),
                    json_string(&r.remark.message),
                ));
            }
        }
    }
    out
}

/// The statistics line ptxas prints for phase 22 in its DUMPIR statistics
/// (seed 000, "DUMPIR Statistics"): `# [partially unrolled loops=N]
/// [non-unrolled loops=M]`, from the phase's counters of the same names.
pub fn ptxas_unroll_line(s: &KernelStats) -> Option<String> {
    if s.phase != ptx_db::PhaseId::OriLoopUnrolling {
        return None;
    }
    let get = |name: &str| s.stats.iter().find(|c| c.name == name).map(|c| c.value);
    Some(format!(
        "# [partially unrolled loops={}] [non-unrolled loops={}]",
        get("partially unrolled loops")?,
        get("non-unrolled loops")?
    ))
}

/// Renders the counters of one file.
pub fn render_stats(display: &str, stats: &[KernelStats], format: ReportFormat) -> String {
    let mut out = String::new();
    for s in stats {
        let info = ptx_db::phase_info(s.phase);
        match format {
            ReportFormat::Text => {
                let counters: Vec<String> = s
                    .stats
                    .iter()
                    .map(|c| format!("{}={}", c.name, c.value))
                    .collect();
                out.push_str(&format!(
                    "{display}: stats: {} [{}] {}\n",
                    s.kernel,
                    info.label(),
                    counters.join(", ")
                ));
                if let Some(line) = ptxas_unroll_line(s) {
                    out.push_str(&format!("{display}: stats: {} {line}\n", s.kernel));
                }
            }
            ReportFormat::Json => {
                let counters: Vec<String> = s
                    .stats
                    .iter()
                    .map(|c| format!("{}:{}", json_string(c.name), c.value))
                    .collect();
                out.push_str(&format!(
                    "{{\"type\":\"stats\",\"file\":{},\"kernel\":{},\"phase\":{},\"phase_number\":{},\"stats\":{{{}}}}}\n",
                    json_string(display),
                    json_string(&s.kernel),
                    json_string(info.name),
                    info.number.map_or("null".to_string(), |n| n.to_string()),
                    counters.join(",")
                ));
            }
        }
    }
    out
}

/// The totals of every counter over `stats`, by phase and name, for the
/// summary line of `--stats` over several kernels.
pub fn totals(stats: &[KernelStats]) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for s in stats {
        let label = ptx_db::phase_info(s.phase).label();
        for c in &s.stats {
            let key = format!("[{label}] {}", c.name);
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => *v += c.value,
                None => out.push((key, c.value)),
            }
        }
    }
    out
}
