//! `ptxopt explain`: for each loop of a file (named by the source line of
//! its header), what every loop phase decided and why, with the numbers
//! that decided: unroll factor or rejection code and reason, body size,
//! budget left, trip count, texture count, and whatever else each phase
//! reports ([`ptx_db::file_loops`]).
//!
//! The file is built as `ptxopt build` would (same `--arch`, `--knob`,
//! `--config`/`ptxopt.toml`, `--named-phases`), so a knob changes the
//! explanation as it changes the code.
//!
//! Text:
//!
//! ```text
//! k.ptx:19: loop $L__BB0_1 in full8 (depth 1)
//!   [22 OriLoopUnrolling] fully unrolled (x8): trip count 8, 200 / 8 > cost 4 (UnrollFullInstLimit)
//!     block=2 trip count=8 body size=5 unroll cost=4 ...
//! ```
//!
//! JSON (`--format json`; fields may be added, never renamed):
//!
//! ```text
//! {"version":1,"file":"k.ptx","loops":[{"function":"full8","line":19,"col":2,
//!   "label":"$L__BB0_1","depth":1,"decisions":[{"phase":"OriLoopUnrolling",
//!   "phase_number":22,"tool":"ptxas","summary":"...","unroll":{"factor":8,
//!   "full":true,"code":null,"reason":"...","by":"ptxas"},"facts":{"trip count":"8",...}}]}]}
//! ```

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ptx_db::{phase_info, FileLoop, RootDatabase};
use ptx_knobs::json_string;
use ptx_syntax::line_index::LineIndex;

use crate::settings::{self, UsageError};

/// The version of the JSON format.
pub const JSON_VERSION: u32 = 1;

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The PTX file.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Only the loops of this function.
    #[arg(long, value_name = "NAME")]
    function: Option<String>,

    /// Only the loop whose header is on this line (or, when none is, the
    /// nearest loop header above it).
    #[arg(long, value_name = "N")]
    line: Option<u32>,

    /// `text` or `json` (stable for scripts: a `version` field, fields may
    /// be added, never renamed).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    #[command(flatten)]
    settings: crate::cli::SettingsArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// One loop as printed.
struct Shown<'a> {
    line: u32,
    col: u32,
    l: &'a FileLoop,
}

pub fn run(args: ExplainArgs) -> ExitCode {
    match explain(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn explain(args: &ExplainArgs) -> Result<ExitCode, UsageError> {
    let cli = args.settings.cli_settings()?;
    let config_path = settings::config_path_for(&args.file, args.settings.config.as_deref());
    let mut db = RootDatabase::new();
    settings::load_and_apply(&mut db, config_path.as_deref(), &cli)?;
    let (file, text, _) = match crate::run_cmd::load_checked(&mut db, &args.file) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let display = args.file.display().to_string();
    let loops = ptx_db::file_loops(&db, file);
    if let Some(name) = &args.function {
        if !ptx_db::kernels(&db, file)
            .iter()
            .any(|k| k.name(&db) == name)
        {
            return Err(UsageError(format!(
                "`{display}` defines no function `{name}`"
            )));
        }
    }
    let index = LineIndex::new(&text);
    let mut shown: Vec<Shown> = loops
        .iter()
        .filter(|l| args.function.as_ref().is_none_or(|f| &l.kernel == f))
        .map(|l| {
            let (line, col) = l
                .header_range
                .map(|r| {
                    let lc = index.line_col(&text, r.start());
                    (lc.line, lc.col)
                })
                .unwrap_or((0, 0));
            Shown { line, col, l }
        })
        .collect();
    if let Some(want) = args.line {
        let exact = shown.iter().any(|s| s.line == want);
        let nearest = shown
            .iter()
            .filter(|s| s.line <= want)
            .map(|s| s.line)
            .max();
        let keep = if exact { Some(want) } else { nearest };
        shown.retain(|s| Some(s.line) == keep);
    }
    let out = match args.format {
        Format::Text => render_text(&display, &shown),
        Format::Json => render_json(&display, &shown),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    std::mem::forget(db);
    Ok(ExitCode::SUCCESS)
}

fn render_text(display: &str, shown: &[Shown]) -> String {
    let mut out = String::new();
    if shown.is_empty() {
        out.push_str(&format!("{display}: no loops\n"));
    }
    for s in shown {
        let l = s.l;
        out.push_str(&format!(
            "{display}:{}: loop{} in {}{}\n",
            s.line,
            l.label
                .as_ref()
                .map(|x| format!(" {x}"))
                .unwrap_or_default(),
            l.kernel,
            if l.depth > 0 {
                format!(" (depth {})", l.depth)
            } else {
                String::new()
            }
        ));
        if l.reports.is_empty() {
            out.push_str("  no loop phase reported on it (loop phases off or not reached)\n");
        }
        for r in &l.reports {
            out.push_str(&format!(
                "  [{}] {}\n",
                phase_info(r.phase).label(),
                r.summary
            ));
            if !r.facts.is_empty() {
                let facts: Vec<String> = r.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
                out.push_str(&format!("    {}\n", facts.join("; ")));
            }
        }
    }
    out
}

fn render_json(display: &str, shown: &[Shown]) -> String {
    let mut out = format!(
        "{{\"version\":{JSON_VERSION},\"file\":{},\"loops\":[",
        json_string(display)
    );
    for (i, s) in shown.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let l = s.l;
        out.push_str(&format!(
            "\n{{\"function\":{},\"line\":{},\"col\":{},\"label\":{},\"depth\":{},\"decisions\":[",
            json_string(&l.kernel),
            s.line,
            s.col,
            l.label.as_deref().map_or("null".to_string(), json_string),
            l.depth
        ));
        for (j, r) in l.reports.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let info = phase_info(r.phase);
            let unroll = r
                .unroll
                .as_ref()
                .map_or("null".to_string(), |u| unroll_json(u, info.tool.as_str()));
            let facts: Vec<String> = r
                .facts
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
                .collect();
            out.push_str(&format!(
                "{{\"phase\":{},\"phase_number\":{},\"tool\":\"{}\",\"summary\":{},\"unroll\":{},\"facts\":{{{}}}}}",
                json_string(info.name),
                info.number.map_or("null".to_string(), |n| n.to_string()),
                info.tool.as_str(),
                json_string(&r.summary),
                unroll,
                facts.join(",")
            ));
        }
        out.push_str("]}");
    }
    out.push_str("\n]}\n");
    out
}

/// `{"factor","full","code","reason","by"}`, as in `analyze` JSON.
pub fn unroll_json(u: &ptx_db::UnrollDecision, by: &str) -> String {
    format!(
        "{{\"factor\":{},\"full\":{},\"code\":{},\"reason\":{},\"by\":\"{by}\"}}",
        u.factor,
        u.full,
        u.code.map_or("null".to_string(), |c| c.to_string()),
        json_string(&u.reason)
    )
}
