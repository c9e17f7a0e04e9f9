//! `ptxopt analyze FILE`: what the analyses find in each function, with source
//! lines.
//!
//! The results come from the analysis queries of `ptx-db` (`ptx_db::analysis`),
//! which run on each kernel's IR as written (`kernel_ir`). Their instruction
//! ids are those of `kernel_lowered`, whose instruction ranges are relative to
//! the function; adding the function's start (`ptx_db::kernel_starts`) gives a
//! position in the file, and a 1-based line.
//!
//! Per function: blocks, instructions; loops (header line, depth, latch
//! lines, trip count, ResMII/RecMII of single-block innermost loops; `null`
//! where not computed); maximum live R and P and the line where each peaks;
//! the latency-class histogram (class code → instructions).
//!
//! The JSON form is for scripts; its field names are stable (fields may be
//! added, none renamed):
//!
//! ```text
//! {"format_version": 1, "file": "...", "target": "sm_80", "functions": [{"name": "...",
//!   "kind": "entry"|"func", "line": N, "blocks": N, "instructions": N,
//!   "max_live": {"r": N, "p": N, "line": N, "p_line": N},
//!   "loops": [{"header_line": N, "depth": N, "latch_lines": [N],
//!              "trip_count": N|null, "res_mii": N|null, "rec_mii": N|null,
//!              "unroll": {"factor": N, "full": B, "code": N|null, "reason": S,
//!                         "by": "ptxas"|"cicc"}|null}],
//!   "latency_classes": {"6": N, ...},
//!   "estimated_registers": N, "estimated_registers_likely": [LOW, HIGH],
//!   "estimate_rule": "pressure",
//!   "occupancy": {"warps_per_sm": N, "max_warps_per_sm": N,
//!                 "lost_to_registers": N, "maxrregcount": N|null},
//!   "peak": {"units": N, "line": N, "registers": [{"name": "%r1", "units": N,
//!            "def_line": N|null, "last_use_line": N|null}]}}]}
//! ```
//!
//! `format_version` changes only when a field changes meaning or goes away;
//! `ptxopt diff` reads saved reports and refuses another version. Fields
//! other analyses add later (`estimated_registers`, `occupancy`, a loop's
//! `unroll`) are optional for readers.
//!
//! The estimate (`ptx_analysis::reg_estimate`) is made on the function as
//! written (`ptx_db::analysis::reg_estimate`: no pipeline run; on the
//! bench-quality kernels it predicts ptxas on `ptxopt build`'s output as
//! well as an estimate of that output does), with `--maxrregcount N` as
//! ptxas's cap; its peak's lines are source lines. `--peak` lists the
//! registers live there in the text form (the JSON always has them).
//!
//! Exit status: 0; 1 when the file has errors (printed on stderr as `check`
//! prints them, nothing on stdout); 2 on a usage or I/O error (unreadable
//! file, bad `--arch`, no function named by `--function`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ptx_analysis::target::LatencyClass;
use ptx_analysis::trip_count::TripCount;
use ptx_db::analysis;
use ptx_db::{Kernel, RootDatabase, SourceFile};
use ptx_ir::ir::{BlockId, FunctionKind, InstId};
use ptx_syntax::line_index::LineIndex;
use ptx_syntax::{SyntaxKind, SyntaxNode, TextSize};

use crate::render::plural;
use crate::settings;

/// Arguments of `ptxopt analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The PTX file to analyze (`-` reads standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Report only the function with this name.
    #[arg(long, value_name = "NAME")]
    function: Option<String>,

    /// `text` for people, `json` for scripts (stable field names).
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,

    #[command(flatten)]
    arch: crate::cli::ArchArg,

    /// Print diagnostics as single `path:line:col: severity: message` lines.
    #[arg(long)]
    short: bool,

    #[command(flatten)]
    max_regs: crate::cli::MaxRegArg,

    /// List the registers live at the point of peak pressure (of the
    /// estimate), with the line of each one's definition and last use.
    #[arg(long)]
    peak: bool,

    /// Threads checking and analyzing the file's functions (default: the
    /// number of cores). The report is the same for any number.
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// The analysis of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileAnalysis {
    pub file: String,
    /// The target profile used (`sm_80`).
    pub target: String,
    pub functions: Vec<FunctionAnalysis>,
}

/// The analysis of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionAnalysis {
    pub name: String,
    pub kind: FunctionKind,
    /// The line of the function's first token.
    pub line: u32,
    pub blocks: usize,
    pub instructions: usize,
    pub max_r: u32,
    pub max_p: u32,
    /// Where the maximum R (P) is reached; the function's line when at entry.
    pub max_r_line: u32,
    pub max_p_line: u32,
    pub loops: Vec<LoopAnalysis>,
    /// (class code, instructions), classes with none left out, in code order.
    pub latency_classes: Vec<(u8, u32)>,
    pub estimate: EstimateAnalysis,
}

/// The register estimate (`ptx_analysis::reg_estimate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EstimateAnalysis {
    /// What `ptxas -v` is expected to report.
    pub registers: u32,
    /// The range ptxas's count is likely to fall in
    /// (`ptx_analysis::reg_estimate::likely_range`).
    pub likely: (u32, u32),
    /// The rule that set it (`pressure`, `loop`, `float-div`, ...).
    pub rule: &'static str,
    pub max_regs: Option<u32>,
    pub warps_per_sm: u32,
    pub max_warps_per_sm: u32,
    /// Warps per SM lost to registers.
    pub lost_warps: u32,
    /// Units live at the peak, and its line.
    pub peak_units: u32,
    pub peak_line: u32,
    pub peak_regs: Vec<PeakReg>,
}

/// A register live at the peak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeakReg {
    pub name: String,
    /// 32-bit units it takes.
    pub units: u32,
    pub def_line: Option<u32>,
    pub last_use_line: Option<u32>,
}

/// One loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopAnalysis {
    pub header_line: u32,
    pub depth: u32,
    /// The line of each latch's last instruction (the back edge).
    pub latch_lines: Vec<u32>,
    pub trip_count: Option<u64>,
    /// Why the trip count is unknown.
    pub trip_count_unknown: Option<String>,
    pub res_mii: Option<u32>,
    pub rec_mii: Option<u32>,
    /// The unrolling decision (`{"factor","full","code","reason","by"}`):
    /// cicc's when it unrolled the loop, else phase 22's, else cicc's; `None` when no unrolling phase reported on it.
    pub unroll: Option<(ptx_db::UnrollDecision, &'static str)>,
}

/// The version of the JSON report (`"format_version"`).
pub const FORMAT_VERSION: u32 = 1;

/// Runs `ptxopt analyze`.
pub fn run(args: AnalyzeArgs) -> ExitCode {
    let arch = match args.arch.parse() {
        Ok(arch) => arch,
        Err(settings::UsageError(message)) => return usage(&message),
    };
    let display = args.file.display().to_string();
    let text = match crate::build_cmd::read_bytes(&args.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                eprintln!(
                    "{display}: error: file is not valid UTF-8 (byte {})",
                    e.utf8_error().valid_up_to()
                );
                return ExitCode::from(1);
            }
        },
        Err(e) => return usage(&format!("cannot read `{display}`: {e}")),
    };

    let mut db = RootDatabase::new();
    if let Some(arch) = &arch {
        db.set_target(arch.sm, &arch.suffix);
    }
    db.set_max_regs(args.max_regs.maxrregcount);
    let file = db.set_file_text(&args.file, text);
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let wanted = |db: &RootDatabase, kernel: Kernel<'_>| {
        args.function
            .as_ref()
            .is_none_or(|name| kernel.name(db) == name)
    };
    ptx_db::parallel::warm_file(&db, file, threads, &|db, kernel| {
        if wanted(db, kernel) {
            compute_kernel_analyses(db, kernel)
        }
    });

    // Errors stop here, as in `build`: a file ptxas rejects is not analyzed.
    let diagnostics = ptx_db::file_problems(&db, file);
    let mut rendered = String::new();
    let (errors, _) = crate::build_cmd::render_diagnostics(
        &mut rendered,
        &display,
        ptx_db::file_text(&db, file),
        &diagnostics,
        args.short,
    );
    eprint!("{rendered}");
    if errors > 0 {
        eprintln!(
            "ptxopt: `{display}` has {errors} error{}; not analyzed",
            plural(errors)
        );
        return ExitCode::from(1);
    }

    let report = analyze(&db, file, &display, &wanted);
    if let Some(name) = &args.function {
        if report.functions.is_empty() {
            return usage(&format!("`{display}` defines no function `{name}`"));
        }
    }
    let out = match args.format {
        Format::Text => render_text(&report, args.peak),
        Format::Json => render_json(&report),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    // The process ends here: freeing every memoized result one by one (tens
    // of milliseconds for a large file) would only delay the exit.
    std::mem::forget(db);
    ExitCode::SUCCESS
}

fn usage(message: &str) -> ExitCode {
    eprintln!("ptxopt: error: {message}");
    ExitCode::from(2)
}

/// Analyzes every function of a file without errors (through the database's
/// analysis queries).
///
/// Only the functions `wanted` accepts are in the report (the others are not
/// lowered or analyzed).
pub(crate) fn analyze(
    db: &RootDatabase,
    file: SourceFile,
    display: &str,
    wanted: &dyn Fn(&RootDatabase, Kernel<'_>) -> bool,
) -> FileAnalysis {
    let text = ptx_db::file_text(db, file);
    let index = LineIndex::new(text);
    let starts = ptx_db::kernel_starts(db, file);
    let line = |offset: TextSize| index.line_col(text, offset).line;
    let functions = ptx_db::kernels(db, file)
        .iter()
        .zip(starts)
        .filter(|&(&kernel, _)| wanted(db, kernel))
        .map(|(&kernel, start)| analyze_kernel(db, kernel, start, &line))
        .collect();
    FileAnalysis {
        file: display.to_string(),
        target: analysis::target_profile(db, file).name.to_string(),
        functions,
    }
}

/// The queries [`analyze_kernel`] reads (to compute them ahead, in parallel).
pub(crate) fn compute_kernel_analyses(db: &RootDatabase, kernel: Kernel<'_>) {
    ptx_db::kernel_lowered(db, kernel);
    analysis::cfg(db, kernel);
    analysis::loops(db, kernel);
    analysis::trip_counts(db, kernel);
    analysis::reg_pressure(db, kernel);
    analysis::latency(db, kernel);
    analysis::loop_mii(db, kernel);
    analysis::reg_estimate(db, kernel);
}

fn analyze_kernel(
    db: &RootDatabase,
    kernel: Kernel<'_>,
    start: TextSize,
    line: &dyn Fn(TextSize) -> u32,
) -> FunctionAnalysis {
    // Instruction ids of `kernel_ir` (which the analyses read) are those of
    // `kernel_lowered`, which keeps the ranges.
    let lowered = ptx_db::kernel_lowered(db, kernel);
    let func = &lowered.function;
    let fn_line = line(start);
    let inst_line =
        |inst: InstId| line(start + lowered.inst_range(inst).unwrap_or_default().start());
    let labels = label_offsets(kernel.syntax(db));
    let block_line = |block: BlockId| {
        let b = &func.blocks[block];
        let label = b
            .label
            .as_ref()
            .and_then(|l| labels.iter().find(|(name, _)| name == l))
            .map(|&(_, offset)| line(start + offset));
        label
            .or_else(|| b.insts.first().map(|&i| inst_line(i)))
            .unwrap_or(fn_line)
    };
    let block_end_line = |block: BlockId| {
        func.blocks[block]
            .insts
            .last()
            .map_or_else(|| block_line(block), |&i| inst_line(i))
    };

    let cfg = analysis::cfg(db, kernel);
    let loops = analysis::loops(db, kernel);
    let trips = analysis::trip_counts(db, kernel);
    let pressure = analysis::reg_pressure(db, kernel);
    let latency = analysis::latency(db, kernel);
    let mii = analysis::loop_mii(db, kernel);
    // The loop reports of the phases up to phase 22, whose decision is the
    // one shown (cicc's unroller runs before it): the phases after it are
    // not run (`ptx_db::kernel_loop_reports` would run the whole pipeline).
    let mut reports: Vec<ptx_db::LoopReport> = Vec::new();
    for info in ptx_db::PHASES.iter().filter(|i| i.implemented) {
        reports.extend(
            ptx_db::phase_output(db, kernel, info.id)
                .loops
                .iter()
                .cloned(),
        );
        if info.id == ptx_db::PhaseId::OriLoopUnrolling {
            break;
        }
    }
    let report_loops = ptx_db::loops_of_reports(func, loops, &reports);
    let unroll_of = |id: ptx_analysis::LoopId| {
        let decided: Vec<_> = reports
            .iter()
            .zip(&report_loops)
            .filter(|(_, at)| **at == Some(id))
            .filter_map(|(r, _)| {
                r.unroll
                    .clone()
                    .map(|u| (u, ptx_db::phase_info(r.phase).tool.as_str()))
            })
            .collect();
        // Both unrollers change the code and cicc's runs first: a loop it
        // unrolled is reported by it (phase 22 then sees the remainder loop,
        // marked nounroll); otherwise phase 22's decision is the loop's, and
        // cicc's when phase 22 said nothing.
        decided
            .iter()
            .find(|(u, by)| *by == "cicc" && (u.full || u.factor > 1))
            .or(decided.iter().find(|(_, by)| *by == "ptxas"))
            .or(decided.first())
            .cloned()
    };

    let loops = loops
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (trip_count, trip_count_unknown) = match trips.loops.get(i).map(|t| &t.count) {
                Some(TripCount::Known(n)) => (Some(*n), None),
                Some(TripCount::Unknown(why)) => (None, Some(why.clone())),
                None => (None, None),
            };
            let m = mii.iter().find(|m| m.loop_id.0 as usize == i);
            LoopAnalysis {
                header_line: block_line(l.header),
                depth: l.depth,
                latch_lines: l.latches.iter().map(|&b| block_end_line(b)).collect(),
                trip_count,
                trip_count_unknown,
                res_mii: m.map(|m| m.res_mii),
                rec_mii: m.map(|m| m.rec_mii),
                unroll: unroll_of(ptx_analysis::LoopId(i as u32)),
            }
        })
        .collect();
    let at = |inst: Option<InstId>| inst.map_or(fn_line, inst_line);
    let estimate = {
        let ke = analysis::reg_estimate(db, kernel);
        let e = &ke.estimate;
        // The estimate's ids are the final IR's; origins lead to the source.
        let src_line = |inst: InstId| {
            ke.func
                .origin(inst)
                .and_then(|o| lowered.inst_range(o))
                .map(|r| line(start + r.start()))
        };
        EstimateAnalysis {
            registers: e.registers,
            likely: e
                .likely_range(analysis::target_profile(db, kernel.file(db)).max_regs_per_thread),
            rule: e.rule,
            max_regs: e.max_regs,
            warps_per_sm: e.occupancy.warps_per_sm,
            max_warps_per_sm: e.occupancy.max_warps_per_sm,
            lost_warps: e.occupancy.lost(),
            peak_units: e.peak,
            peak_line: e.peak_inst.and_then(src_line).unwrap_or(fn_line),
            peak_regs: e
                .peak_regs
                .iter()
                .zip(ptx_analysis::reg_estimate::defs_and_last_uses(
                    &ke.func,
                    &e.peak_regs,
                ))
                .map(|(&r, (def, last))| PeakReg {
                    name: ke.func.regs[r].name.to_string(),
                    units: ptx_analysis::reg_pressure::reg_units(&ke.func.regs[r]),
                    def_line: def.and_then(src_line),
                    last_use_line: last.and_then(src_line),
                })
                .collect(),
        }
    };
    FunctionAnalysis {
        name: kernel.name(db).clone(),
        kind: func.sig.kind,
        line: fn_line,
        blocks: cfg.len(),
        instructions: func.insts_in_order().count(),
        max_r: pressure.max.r.value,
        max_p: pressure.max.p.value,
        max_r_line: at(pressure.max.r.inst),
        max_p_line: at(pressure.max.p.inst),
        loops,
        latency_classes: LatencyClass::ALL
            .iter()
            .map(|c| (c.code(), latency.histogram[c.ordinal()]))
            .filter(|&(_, n)| n > 0)
            .collect(),
        estimate,
    }
}

/// The labels defined in a function (from its green node) with their offsets
/// relative to the function's start, in source order.
fn label_offsets(green: &ptx_syntax::GreenNode) -> Vec<(String, TextSize)> {
    SyntaxNode::new_root(green.clone())
        .descendants()
        .filter(|n| n.kind() == SyntaxKind::LABEL_DEF)
        .filter_map(|n| {
            let name = n
                .children()
                .find(|c| c.kind() == SyntaxKind::NAME)?
                .text()
                .to_string();
            Some((name, n.text_range().start()))
        })
        .collect()
}

fn kind_word(kind: FunctionKind) -> &'static str {
    match kind {
        FunctionKind::Entry => "entry",
        FunctionKind::Func => "func",
    }
}

fn opt_line(line: Option<u32>) -> String {
    line.map_or_else(|| "-".to_string(), |l| l.to_string())
}

/// The human-readable report; `peak` lists the registers live at the peak.
pub fn render_text(report: &FileAnalysis, peak: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} (target {})", report.file, report.target);
    for f in &report.functions {
        let _ = writeln!(
            out,
            "\n.{} {} (line {}): {} block{}, {} instruction{}",
            kind_word(f.kind),
            f.name,
            f.line,
            f.blocks,
            plural(f.blocks),
            f.instructions,
            plural(f.instructions)
        );
        let _ = writeln!(
            out,
            "  max live: R {} at line {}, P {} at line {}",
            f.max_r, f.max_r_line, f.max_p, f.max_p_line
        );
        let e = &f.estimate;
        let _ = writeln!(
            out,
            "  estimate: ≈ {} registers after ptxas ({}{}{}), {}/{} warps/SM, {} lost to registers",
            e.registers,
            e.rule,
            ptx_analysis::reg_estimate::likely_text(e.registers, e.likely)
                .map_or_else(String::new, |t| format!(", {t}")),
            e.max_regs
                .map_or_else(String::new, |n| format!(", --maxrregcount {n}")),
            e.warps_per_sm,
            e.max_warps_per_sm,
            e.lost_warps
        );
        if peak {
            let _ = writeln!(
                out,
                "  peak: {} units live at line {} ({} register{})",
                e.peak_units,
                e.peak_line,
                e.peak_regs.len(),
                plural(e.peak_regs.len())
            );
            for r in &e.peak_regs {
                let _ = writeln!(
                    out,
                    "    {:<10} {} unit{}, defined line {}, last used line {}",
                    r.name,
                    r.units,
                    plural(r.units as usize),
                    opt_line(r.def_line),
                    opt_line(r.last_use_line)
                );
            }
        }
        if f.loops.is_empty() {
            let _ = writeln!(out, "  loops: none");
        } else {
            let _ = writeln!(out, "  loops:");
        }
        for l in &f.loops {
            let latches: Vec<String> = l.latch_lines.iter().map(u32::to_string).collect();
            let trip = match (l.trip_count, &l.trip_count_unknown) {
                (Some(n), _) => n.to_string(),
                (None, Some(why)) => format!("unknown ({why})"),
                (None, None) => "unknown".to_string(),
            };
            let mut line = format!(
                "    line {}: depth {}, latch line{} {}, trip count {trip}",
                l.header_line,
                l.depth,
                plural(l.latch_lines.len()),
                latches.join(", "),
            );
            if let (Some(res), Some(rec)) = (l.res_mii, l.rec_mii) {
                let _ = write!(line, ", ResMII {res}, RecMII {rec}");
            }
            if let Some((u, by)) = &l.unroll {
                let what = match (u.full, u.factor, u.code) {
                    (true, n, _) => format!("fully unrolled (x{n})"),
                    (false, n, _) if n > 1 => format!("unrolled x{n}"),
                    (_, _, Some(code)) => format!("not unrolled (code {code})"),
                    _ => "not unrolled".to_string(),
                };
                let _ = write!(line, ", {by}: {what}");
            }
            let _ = writeln!(out, "{line}");
        }
        let classes: Vec<String> = f
            .latency_classes
            .iter()
            .map(|(c, n)| format!("{c}:{n}"))
            .collect();
        let _ = writeln!(
            out,
            "  latency classes: {}",
            if classes.is_empty() {
                "-".to_string()
            } else {
                classes.join(" ")
            }
        );
    }
    out
}

/// The JSON report (see the module documentation), one function per line.
pub fn render_json(report: &FileAnalysis) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\"format_version\":{FORMAT_VERSION},\"file\":{},\"target\":{},\"functions\":[",
        ptx_knobs::json_string(&report.file),
        ptx_knobs::json_string(&report.target)
    );
    for (i, f) in report.functions.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "\n{{\"name\":{},\"kind\":\"{}\",\"line\":{},\"blocks\":{},\"instructions\":{},\
             \"max_live\":{{\"r\":{},\"p\":{},\"line\":{},\"p_line\":{}}},\"loops\":[",
            ptx_knobs::json_string(&f.name),
            kind_word(f.kind),
            f.line,
            f.blocks,
            f.instructions,
            f.max_r,
            f.max_p,
            f.max_r_line,
            f.max_p_line
        );
        for (j, l) in f.loops.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let latches: Vec<String> = l.latch_lines.iter().map(u32::to_string).collect();
            let _ = write!(
                out,
                "{{\"header_line\":{},\"depth\":{},\"latch_lines\":[{}],\"trip_count\":{},\
                 \"res_mii\":{},\"rec_mii\":{},\"unroll\":{}}}",
                l.header_line,
                l.depth,
                latches.join(","),
                json_opt(l.trip_count),
                json_opt(l.res_mii),
                json_opt(l.rec_mii),
                l.unroll.as_ref().map_or("null".to_string(), |(u, by)| {
                    crate::explain_cmd::unroll_json(u, by)
                })
            );
        }
        out.push_str("],\"latency_classes\":{");
        let classes: Vec<String> = f
            .latency_classes
            .iter()
            .map(|(c, n)| format!("\"{c}\":{n}"))
            .collect();
        out.push_str(&classes.join(","));
        let e = &f.estimate;
        let _ = write!(
            out,
            "}},\"estimated_registers\":{},\"estimated_registers_likely\":[{},{}],\"estimate_rule\":\"{}\",\"occupancy\":{{\"warps_per_sm\":{},\
             \"max_warps_per_sm\":{},\"lost_to_registers\":{},\"maxrregcount\":{}}},\
             \"peak\":{{\"units\":{},\"line\":{},\"registers\":[",
            e.registers,
            e.likely.0,
            e.likely.1,
            e.rule,
            e.warps_per_sm,
            e.max_warps_per_sm,
            e.lost_warps,
            json_opt(e.max_regs),
            e.peak_units,
            e.peak_line
        );
        for (j, r) in e.peak_regs.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"name\":{},\"units\":{},\"def_line\":{},\"last_use_line\":{}}}",
                ptx_knobs::json_string(&r.name),
                r.units,
                json_opt(r.def_line),
                json_opt(r.last_use_line)
            );
        }
        out.push_str("]}}");
    }
    out.push_str("\n]}\n");
    out
}

fn json_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "null".to_string(), |v| v.to_string())
}

/// Analyzes the PTX file at `path` (shown as `display`) for another command
/// (`diff`, `report`): the report as JSON (the saved form), or a message
/// saying why not (unreadable, not UTF-8, errors in the file).
pub(crate) fn analyze_to_json(
    path: &std::path::Path,
    display: &str,
    arch: Option<&settings::Arch>,
) -> Result<String, String> {
    let bytes =
        crate::build_cmd::read_bytes(path).map_err(|e| format!("cannot read `{display}`: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{display}` is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let mut db = RootDatabase::new();
    if let Some(arch) = arch {
        db.set_target(arch.sm, &arch.suffix);
    }
    let file = db.set_file_text(path, text);
    let errors = ptx_db::file_problems(&db, file)
        .iter()
        .filter(|d| d.severity == ptx_syntax::check::Severity::Error)
        .count();
    if errors > 0 {
        return Err(format!(
            "`{display}` has {errors} error{} (`ptxopt check {display}` shows them)",
            plural(errors)
        ));
    }
    let report = analyze(&db, file, display, &|_, _| true);
    let json = render_json(&report);
    std::mem::forget(db);
    Ok(json)
}
