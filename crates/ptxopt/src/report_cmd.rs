//! `ptxopt report FILE... --html OUT`: one self-contained HTML page of
//! register pressure, loops and optimizer decisions.
//!
//! Per function: an SVG plot of the live R and P registers along the source
//! lines (the most live around any instruction of the line), the peak marked,
//! and the target's occupancy steps drawn as horizontal lines (the register
//! counts where the warps per SM the register file allows drop); the source
//! with a pressure bar per line and the remarks of the phases on their
//! lines; each loop with its trip count, the decisions loop phases recorded
//! (`PhaseOutput.loops`), the remarks inside it and the registers live at
//! its peak; and, when the phases changed the function, the optimized PTX
//! beside the original.
//!
//! The page needs no network: CSS, JavaScript and SVG are inline. The data
//! is one JSON document in a `<script type="application/json">`; a
//! function's section (`<details>`) is rendered by the script only when it
//! is opened, so a 48,000-line module gives a page that opens at once and
//! scrolls (its size is about the source's plus a few numbers per line).
//!
//! Folders are walked for `*.ptx`; a file that cannot be read or has errors
//! is listed on the page and on stderr, and the others are still reported.
//! Exit status: 0; 1 when some file has errors or cannot be read (the page
//! is still written); 2 on a usage error or when the page cannot be written.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx_analysis::liveness::Liveness;
use ptx_analysis::target::Target;
use ptx_db::analysis;
use ptx_db::{Kernel, RootDatabase, SourceFile, PHASES};
use ptx_ir::ir::{FunctionKind, InstId};
use ptx_syntax::line_index::LineIndex;
use ptx_syntax::TextSize;
use serde_json::{json, Value};

use crate::analyze_cmd::{self, FunctionAnalysis};
use crate::settings::{self, UsageError};

/// Arguments of `ptxopt report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// PTX files, or folders (every `*.ptx` under them).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    /// Write the HTML page here.
    #[arg(long, value_name = "OUT")]
    html: PathBuf,

    #[command(flatten)]
    settings: crate::cli::SettingsArgs,

    /// Threads analyzing a file's functions (default: the number of cores).
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,

    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `ptxopt report`.
pub fn run(args: ReportArgs) -> ExitCode {
    match report(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn report(args: &ReportArgs) -> Result<ExitCode, UsageError> {
    let cli = args.settings.cli_settings()?;
    let files = crate::inputs::expand_ptx(&args.files).map_err(UsageError)?;
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let progress =
        crate::progress::Progress::new("reporting", "files", files.len(), args.quiet.quiet, false);
    let mut docs = Vec::new();
    let mut problems = 0;
    for (path, _) in &files {
        let display = path.display().to_string();
        progress.start(&display);
        let config = settings::config_path_for(path, args.settings.config.as_deref());
        let mut db = RootDatabase::new();
        settings::load_and_apply(&mut db, config.as_deref(), &cli)?;
        match file_doc(&mut db, path, &display, threads) {
            Ok(doc) => docs.push(doc),
            Err(message) => {
                problems += 1;
                progress.suspend(|| eprintln!("ptxopt: {message}"));
                docs.push(json!({"file": display, "error": message, "functions": []}));
            }
        }
        // The process ends soon: freeing every memoized result one by one
        // would only delay it.
        std::mem::forget(db);
        progress.tick();
    }
    progress.finish();
    let page = render_page(&docs);
    crate::atomic_write::write_atomically(&args.html, page.as_bytes())
        .map_err(|e| UsageError(format!("cannot write `{}`: {e}", args.html.display())))?;
    if !args.quiet.quiet {
        eprintln!(
            "wrote {} ({} KiB): {} file{}, {} with problems",
            args.html.display(),
            page.len().div_ceil(1024),
            files.len(),
            crate::render::plural(files.len()),
            problems
        );
    }
    Ok(if problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The page's data for one file, or why there is none.
fn file_doc(
    db: &mut RootDatabase,
    path: &Path,
    display: &str,
    threads: usize,
) -> Result<Value, String> {
    let bytes =
        crate::build_cmd::read_bytes(path).map_err(|e| format!("cannot read `{display}`: {e}"))?;
    let text = crate::build_cmd::decode_utf8(display, bytes).map_err(|e| e.trim().to_string())?;
    let file = db.set_file_text(path, text);
    let db = &*db;
    ptx_db::parallel::warm_file(db, file, threads, &|db, kernel| {
        analyze_cmd::compute_kernel_analyses(db, kernel);
        analysis::liveness(db, kernel);
        ptx_db::kernel_remarks(db, kernel);
        ptx_db::kernel_final(db, kernel);
    });
    let errors = ptx_db::file_problems(db, file)
        .iter()
        .filter(|d| d.severity == ptx_syntax::check::Severity::Error)
        .count();
    if errors > 0 {
        return Err(format!(
            "`{display}` has {errors} error{}; not reported (`ptxopt check {display}` shows them)",
            crate::render::plural(errors)
        ));
    }
    let summary = analyze_cmd::analyze(db, file, display, &|_, _| true);
    let text = ptx_db::file_text(db, file);
    let index = LineIndex::new(text);
    let line = |offset: TextSize| index.line_col(text, offset).line;
    let target = Target::for_arch(&summary.target);
    let remarks = remarks_by_kernel(db, file, &line);
    let starts = ptx_db::kernel_starts(db, file);
    let functions: Vec<Value> = ptx_db::kernels(db, file)
        .iter()
        .zip(starts)
        .zip(&summary.functions)
        .map(|((&kernel, start), fa)| function_doc(db, kernel, start, fa, &line, &remarks))
        .collect();
    Ok(json!({
        "file": display,
        "target": summary.target,
        "occupancy": occupancy_steps(&target),
        "max_warps": target.max_warps_per_sm,
        "source": text,
        "functions": functions,
    }))
}

/// The register counts where the target's occupancy drops, with the warps
/// per SM from there on: `[[33, 56], [41, 48], ...]` (up to 255).
fn occupancy_steps(target: &Target) -> Vec<[u32; 2]> {
    let mut steps = Vec::new();
    let mut last = target.occupancy(1);
    for regs in 2..=target.max_regs_per_thread {
        let warps = target.occupancy(regs);
        if warps != last {
            steps.push([regs, warps]);
            last = warps;
        }
    }
    steps
}

/// `[line, phase, kind, message]` per remark, by kernel name.
fn remarks_by_kernel(
    db: &RootDatabase,
    file: SourceFile,
    line: &dyn Fn(TextSize) -> u32,
) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for r in ptx_db::file_remarks(db, file) {
        let at = r.range.map(|range| line(range.start()));
        out.entry(r.kernel.clone()).or_default().push(json!([
            at,
            ptx_db::phase_info(r.remark.phase).label(),
            r.remark.kind.as_str(),
            r.remark.message
        ]));
    }
    out
}

fn function_doc(
    db: &RootDatabase,
    kernel: Kernel<'_>,
    start: TextSize,
    fa: &FunctionAnalysis,
    line: &dyn Fn(TextSize) -> u32,
    remarks: &BTreeMap<String, Vec<Value>>,
) -> Value {
    let lowered = ptx_db::kernel_lowered(db, kernel);
    let func = &lowered.function;
    let pressure = analysis::reg_pressure(db, kernel);
    let live = analysis::liveness(db, kernel);
    let loops = analysis::loops(db, kernel);
    let node_len: u32 = kernel.syntax(db).text_len().into();
    let end_line = line(start + TextSize::from(node_len.saturating_sub(1)));
    let inst_line = |inst: InstId| lowered.inst_range(inst).map(|r| line(start + r.start()));

    // The most live R and P around each source line's instructions.
    let mut per_line: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    for (inst, _) in func.insts_in_order() {
        let Some(l) = inst_line(inst) else { continue };
        let p = pressure.at(inst);
        let e = per_line.entry(l).or_insert((0, 0));
        e.0 = e.0.max(p.before.r).max(p.after.r);
        e.1 = e.1.max(p.before.p).max(p.after.p);
    }
    let lines: Vec<[u32; 3]> = per_line.iter().map(|(&l, &(r, p))| [l, r, p]).collect();

    // Loops: the peak inside each, the registers live there, and what the
    // loop phases decided about it.
    let decisions = loop_decisions(db, kernel, &inst_line);
    let kernel_remarks = remarks.get(kernel.name(db)).cloned().unwrap_or_default();
    let loop_docs: Vec<Value> = loops
        .loops
        .iter()
        .zip(&fa.loops)
        .map(|(l, la)| {
            let mut peak: Option<(u32, InstId, bool)> = None;
            let mut first = u32::MAX;
            let mut last = 0;
            for &b in &l.blocks {
                for &i in &func.blocks[b].insts {
                    if let Some(line) = inst_line(i) {
                        first = first.min(line);
                        last = last.max(line);
                    }
                    let p = pressure.at(i);
                    for (value, after) in [(p.before.r, false), (p.after.r, true)] {
                        if peak.is_none_or(|(v, _, _)| value > v) {
                            peak = Some((value, i, after));
                        }
                    }
                }
            }
            let (peak_r, peak_line, live_regs) = match peak {
                Some((value, inst, after)) => {
                    (value, inst_line(inst), live_names(func, live, inst, after))
                }
                None => (0, None, Vec::new()),
            };
            let (first, last) = if first == u32::MAX {
                (la.header_line, la.header_line)
            } else {
                (first.min(la.header_line), last)
            };
            let in_loop: Vec<Value> = kernel_remarks
                .iter()
                .filter(|r| {
                    r[0].as_u64()
                        .is_some_and(|n| n >= u64::from(first) && n <= u64::from(last))
                })
                .cloned()
                .collect();
            json!({
                "header": la.header_line,
                "first": first,
                "last": last,
                "depth": la.depth,
                "latches": la.latch_lines,
                "trip": la.trip_count,
                "trip_unknown": la.trip_count_unknown,
                "res_mii": la.res_mii,
                "rec_mii": la.rec_mii,
                "peak_r": peak_r,
                "peak_line": peak_line,
                "live": live_regs,
                "decisions": decisions.get(&la.header_line).cloned().unwrap_or_default(),
                "remarks": in_loop,
            })
        })
        .collect();

    // The optimized code, when a phase changed the function.
    let final_ir = ptx_db::kernel_final(db, kernel);
    let original = ptx_db::kernel_ir(db, kernel);
    let changed = !std::sync::Arc::ptr_eq(&final_ir, original) && *final_ir != **original;
    let optimized = changed.then(|| ptx_db::kernel_ptx(db, kernel).to_string());
    let peak_live = pressure
        .max
        .r
        .inst
        .map(|i| live_names(func, live, i, pressure.max.r.after))
        .unwrap_or_default();
    json!({
        "name": fa.name,
        "kind": match fa.kind { FunctionKind::Entry => "entry", FunctionKind::Func => "func" },
        "start": fa.line,
        "end": end_line.max(fa.line),
        "instructions": fa.instructions,
        "blocks": fa.blocks,
        "max_r": fa.max_r,
        "max_p": fa.max_p,
        "r_line": fa.max_r_line,
        "p_line": fa.max_p_line,
        "peak_live": peak_live,
        "lines": lines,
        "loops": loop_docs,
        "remarks": kernel_remarks,
        "optimized": optimized,
    })
}

/// Names of the registers live before (or after) `inst`.
fn live_names(
    func: &ptx_ir::ir::Function,
    live: &Liveness,
    inst: InstId,
    after: bool,
) -> Vec<String> {
    let set = if after {
        live.live_after(inst)
    } else {
        live.live_before(inst)
    };
    let mut names: Vec<String> = Liveness::regs(set)
        .filter(|&r| (u32::from(r.into_raw()) as usize) < func.regs.len())
        .map(|r| func.regs[r].name.to_string())
        .collect();
    names.sort_by_key(|n| natural(n));
    names
}

/// `%r10` after `%r9`.
fn natural(name: &str) -> (String, u64) {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (head, tail) = name.split_at(name.len() - digits);
    (head.to_string(), tail.parse().unwrap_or(0))
}

/// What loop phases recorded about each loop (`PhaseOutput.loops`), by the
/// line of the loop header: `[phase, summary, facts]`.
fn loop_decisions(
    db: &RootDatabase,
    kernel: Kernel<'_>,
    inst_line: &dyn Fn(InstId) -> Option<u32>,
) -> BTreeMap<u32, Vec<Value>> {
    let mut out: BTreeMap<u32, Vec<Value>> = BTreeMap::new();
    for info in PHASES.iter().filter(|info| info.implemented) {
        for report in &ptx_db::phase_output(db, kernel, info.id).loops {
            let Some(line) = report.header.and_then(inst_line) else {
                continue;
            };
            let facts: Vec<String> = report
                .facts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            out.entry(line).or_default().push(json!([
                info.label(),
                report.summary,
                facts.join(", ")
            ]));
        }
    }
    out
}

/// The page: the data as JSON, the renderer inline.
fn render_page(docs: &[Value]) -> String {
    let data = serde_json::to_string(&json!({"files": docs})).unwrap_or_else(|_| "{}".into());
    // Inside <script>, `</` would end the element and `<!--` start a comment.
    let data = data.replace("</", "<\\/").replace("<!--", "<\\!--");
    let mut page = String::with_capacity(data.len() + PAGE_HEAD.len() + PAGE_SCRIPT.len() + 256);
    page.push_str(PAGE_HEAD);
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"data\">{data}</script>\n<script>\n{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    );
    page
}

/// The page up to the data: styles and the heading (a file beside this one,
/// so it reads as HTML).
const PAGE_HEAD: &str = include_str!("report_page/head.html");

/// The renderer: builds the summary tables, and each function's section
/// when it is first opened.
const PAGE_SCRIPT: &str = include_str!("report_page/report.js");
