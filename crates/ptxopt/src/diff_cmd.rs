//! `ptxopt diff OLD NEW`: how registers, spills, instructions, loops and
//! their unroll decisions, and occupancy moved between two builds, per kernel.
//!
//! OLD and NEW are two PTX files, two folders (paired by relative path: every
//! `*.ptx` and `*.json` under them, hidden files and `*.opt.ptx` outputs left
//! out) or two saved `ptxopt analyze --format json` reports. A PTX input is
//! analyzed as `analyze` would and its report read back from the same JSON,
//! so a saved report and the file it came from give the same diff.
//!
//! What is compared, per kernel (kernels are paired by name; a kernel only in
//! OLD and one only in NEW of the same kind, block count and loop count whose
//! instruction counts differ by at most a tenth are reported as a rename):
//! - registers: `ptxas -v`'s count when both sides have it (`--ptxas`, PTX
//!   inputs only), else the optimizer's estimate (`estimated_registers` in
//!   the JSON) when both have it, else the maximum live R (the analysis);
//! - spills: bytes of spill stores plus loads from `ptxas -v` (or a
//!   `spills` field of the JSON), unknown otherwise;
//! - static instructions, loops (in header order: trip count, unroll
//!   decision `{"factor","full","code","reason","by"}` when a loop phase
//!   recorded one), occupancy in warps per SM (the JSON's `occupancy` when
//!   present, else the target profile's at the register count above).
//!
//! `--fail-on regs+N` (registers grew by more than N), `regs+P%` (by more
//! than P percent), `spills` (spill bytes grew), `unroll` (a loop is unrolled
//! less than before) turn those into exit status 1, with the offending
//! kernels listed. Exit status 2 for bad input: an unreadable file, a PTX file
//! with errors, JSON that is not an analyze report or of another
//! `format_version`, a file beside a folder.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{json, Value};

use crate::analyze_cmd::FORMAT_VERSION;
use crate::settings;

/// Arguments of `ptxopt diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The baseline: a PTX file, a folder, or a saved `analyze --format json`.
    #[arg(value_name = "OLD")]
    old: PathBuf,

    /// The new build, of the same kind as OLD.
    #[arg(value_name = "NEW")]
    new: PathBuf,

    /// `text`, `markdown` (a GitHub table for a pull-request comment) or
    /// `json`.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text, value_name = "FORMAT")]
    format: DiffFormat,

    /// Exit with status 1 when a kernel regresses: `regs+N` (registers grew
    /// by more than N), `regs+P%` (by more than P percent), `spills` (spill
    /// bytes grew), `unroll` (a loop is unrolled less). Repeatable or
    /// comma-separated.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = parse_rule)]
    fail_on: Vec<Rule>,

    /// Also count registers and spills with `ptxas -v` (PTX inputs only).
    /// Without a value: `$PTXOPT_CUDA_HOME/bin/ptxas`, `$CUDA_HOME/bin/ptxas`,
    /// else `ptxas` on the PATH.
    #[arg(long, value_name = "PTXAS", num_args = 0..=1, require_equals = true, default_missing_value = "auto")]
    ptxas: Option<PathBuf>,

    #[command(flatten)]
    arch: crate::cli::ArchArg,

    /// List unchanged kernels too (text and markdown).
    #[arg(long)]
    all: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DiffFormat {
    Text,
    Markdown,
    Json,
}

/// A `--fail-on` rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    RegsAbove(u64),
    RegsPercent(f64),
    Spills,
    Unroll,
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rule::RegsAbove(n) => write!(f, "regs+{n}"),
            Rule::RegsPercent(p) => write!(f, "regs+{p}%"),
            Rule::Spills => f.write_str("spills"),
            Rule::Unroll => f.write_str("unroll"),
        }
    }
}

fn parse_rule(text: &str) -> Result<Rule, String> {
    let bad =
        || format!("`{text}`: expected `regs+N`, `regs+P%`, `spills` or `unroll` (e.g. `regs+4`)");
    match text.trim() {
        "spills" => Ok(Rule::Spills),
        "unroll" => Ok(Rule::Unroll),
        t => {
            let rest = t.strip_prefix("regs+").ok_or_else(bad)?;
            if let Some(p) = rest.strip_suffix('%') {
                let p: f64 = p.parse().map_err(|_| bad())?;
                if !p.is_finite() || p < 0.0 {
                    return Err(bad());
                }
                Ok(Rule::RegsPercent(p))
            } else {
                rest.parse().map(Rule::RegsAbove).map_err(|_| bad())
            }
        }
    }
}

/// Facts about one kernel, read from an analyze report.
#[derive(Clone, Debug, Default, PartialEq)]
struct KernelFacts {
    name: String,
    kind: String,
    blocks: u64,
    instructions: u64,
    max_r: u64,
    estimated: Option<u64>,
    ptxas: Option<u64>,
    spills: Option<u64>,
    occupancy: Option<u64>,
    loops: Vec<LoopFacts>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct LoopFacts {
    header_line: u64,
    trip_count: Option<u64>,
    unroll: Option<Unroll>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Unroll {
    factor: u64,
    full: bool,
    code: Option<u64>,
    reason: String,
    by: Option<String>,
}

impl Unroll {
    /// How much a loop is unrolled, for `--fail-on unroll`: fully is most.
    fn rank(&self) -> u64 {
        if self.full {
            u64::MAX
        } else {
            self.factor.max(1)
        }
    }

    fn describe(&self) -> String {
        let mut s = if self.full {
            "fully unrolled".to_string()
        } else if self.factor > 1 {
            format!("unrolled x{}", self.factor)
        } else {
            "not unrolled".to_string()
        };
        match (self.code, self.reason.is_empty()) {
            (Some(c), false) => {
                let _ = write!(s, " (code {c}: {})", self.reason);
            }
            (Some(c), true) => {
                let _ = write!(s, " (code {c})");
            }
            (None, false) if !self.full && self.factor <= 1 => {
                let _ = write!(s, " ({})", self.reason);
            }
            _ => {}
        }
        s
    }
}

/// One analyzed file.
#[derive(Clone, Debug)]
struct FileFacts {
    target: String,
    kernels: Vec<KernelFacts>,
}

/// A bad input (exit status 2), worded for the user.
struct BadInput(String);

/// Runs `ptxopt diff`.
pub fn run(args: DiffArgs) -> ExitCode {
    match diff(&args) {
        Ok(code) => code,
        Err(BadInput(message)) => {
            eprintln!("ptxopt diff: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn diff(args: &DiffArgs) -> Result<ExitCode, BadInput> {
    let arch = args
        .arch
        .parse()
        .map_err(|settings::UsageError(m)| BadInput(m))?;
    let ptxas = args.ptxas.as_ref().map(|p| find_ptxas(p)).transpose()?;
    let loader = Loader {
        arch: arch.as_ref(),
        ptxas: ptxas.as_deref(),
    };
    let pairs = pair_inputs(&args.old, &args.new)?;
    let mut entries = Vec::new();
    for (rel, old, new) in &pairs {
        let old = old.as_ref().map(|p| loader.load(p)).transpose()?;
        let new = new.as_ref().map(|p| loader.load(p)).transpose()?;
        compare_files(rel.as_deref(), old.as_ref(), new.as_ref(), &mut entries);
    }
    let offenders: Vec<(usize, String)> = entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| {
            args.fail_on
                .iter()
                .filter_map(move |rule| e.offends(rule).map(|why| (i, why)))
        })
        .collect();
    let title = format!("{} -> {}", args.old.display(), args.new.display());
    let out = match args.format {
        DiffFormat::Text => render_text(&title, &entries, &offenders, args.all),
        DiffFormat::Markdown => render_markdown(&title, &entries, &offenders, args.all),
        DiffFormat::Json => render_json(args, &entries, &offenders),
    };
    print!("{out}");
    if offenders.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        let kernels: BTreeSet<usize> = offenders.iter().map(|&(i, _)| i).collect();
        eprintln!(
            "ptxopt diff: {} kernel{} regressed (--fail-on {})",
            kernels.len(),
            crate::render::plural(kernels.len()),
            args.fail_on
                .iter()
                .map(Rule::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        Ok(ExitCode::from(1))
    }
}

/// `--ptxas` (`auto`, the value when none is given: look for it).
fn find_ptxas(given: &Path) -> Result<PathBuf, BadInput> {
    if given.as_os_str() != "auto" {
        return if given.is_file() {
            Ok(given.to_path_buf())
        } else {
            Err(BadInput(format!(
                "--ptxas: `{}` not found",
                given.display()
            )))
        };
    }
    let homes = ["PTXOPT_CUDA_HOME", "CUDA_HOME"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|h| PathBuf::from(h).join("bin/ptxas"));
    let on_path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("ptxas")).collect())
        .unwrap_or_default();
    homes.chain(on_path).find(|p| p.is_file()).ok_or_else(|| {
        BadInput("--ptxas: ptxas not found (set PTXOPT_CUDA_HOME or give --ptxas=PATH)".into())
    })
}

/// The pairs of inputs: (relative path when folders, OLD file, NEW file).
type Pair = (Option<String>, Option<PathBuf>, Option<PathBuf>);

fn pair_inputs(old: &Path, new: &Path) -> Result<Vec<Pair>, BadInput> {
    let exists = |p: &Path| {
        if p.exists() {
            Ok(())
        } else {
            Err(BadInput(format!(
                "cannot read `{}`: not found",
                p.display()
            )))
        }
    };
    exists(old)?;
    exists(new)?;
    match (old.is_dir(), new.is_dir()) {
        (false, false) => Ok(vec![(None, Some(old.into()), Some(new.into()))]),
        (true, true) => {
            let (a, b) = (walk(old)?, walk(new)?);
            let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            if names.is_empty() {
                return Err(BadInput(format!(
                    "no `*.ptx` or `*.json` files under `{}` or `{}`",
                    old.display(),
                    new.display()
                )));
            }
            Ok(names
                .into_iter()
                .map(|n| (Some(n.clone()), a.get(n).cloned(), b.get(n).cloned()))
                .collect())
        }
        _ => Err(BadInput(format!(
            "`{}` and `{}`: give two files or two folders",
            old.display(),
            new.display()
        ))),
    }
}

/// `*.ptx` and `*.json` files under `dir` by relative path (`/`-separated).
fn walk(dir: &Path) -> Result<BTreeMap<String, PathBuf>, BadInput> {
    let mut found = BTreeMap::new();
    for path in crate::inputs::walk_dir(dir, &["ptx", "json"])
        .map_err(|e| BadInput(format!("cannot read `{}`: {e}", dir.display())))?
    {
        let rel = path.strip_prefix(dir).unwrap_or(&path);
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        found.insert(rel.join("/"), path);
    }
    Ok(found)
}

struct Loader<'a> {
    arch: Option<&'a settings::Arch>,
    ptxas: Option<&'a Path>,
}

impl Loader<'_> {
    fn load(&self, path: &Path) -> Result<FileFacts, BadInput> {
        let display = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| BadInput(format!("cannot read `{display}`: {e}")))?;
        let is_json = path.extension().is_some_and(|e| e == "json")
            || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        if is_json {
            let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
                BadInput(format!(
                    "`{display}` is not JSON ({e}); expected `ptxopt analyze --format json` output"
                ))
            })?;
            return from_json(&value).map_err(|m| BadInput(format!("`{display}`: {m}")));
        }
        let json =
            crate::analyze_cmd::analyze_to_json(path, &display, self.arch).map_err(BadInput)?;
        let value: Value = serde_json::from_str(&json)
            .map_err(|e| BadInput(format!("`{display}`: internal JSON error: {e}")))?;
        let mut facts = from_json(&value).map_err(|m| BadInput(format!("`{display}`: {m}")))?;
        if let Some(ptxas) = self.ptxas {
            let text = String::from_utf8_lossy(&bytes);
            self.add_ptxas(ptxas, path, &text, &mut facts);
        }
        Ok(facts)
    }

    /// Registers and spills from `ptxas -v`; a warning when ptxas fails.
    fn add_ptxas(&self, ptxas: &Path, path: &Path, text: &str, facts: &mut FileFacts) {
        let arch = match self.arch {
            Some(a) => format!("sm_{}{}", a.sm, a.suffix),
            None => file_arch(text),
        };
        let out = std::process::Command::new(ptxas)
            .arg(format!("-arch={arch}"))
            .arg("-v")
            .arg(path)
            .args(["-o", "/dev/null"])
            .output();
        let out = match out {
            Ok(out) if out.status.success() => {
                let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
                s.push_str(&String::from_utf8_lossy(&out.stderr));
                s
            }
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr);
                eprintln!(
                    "ptxopt diff: warning: ptxas rejects `{}` for {arch}: {}",
                    path.display(),
                    err.lines().next().unwrap_or("").trim()
                );
                return;
            }
            Err(e) => {
                eprintln!(
                    "ptxopt diff: warning: cannot run `{}`: {e}",
                    ptxas.display()
                );
                return;
            }
        };
        let regs = ptx_analysis::report::parse_ptxas_register_counts(&out);
        let spills = parse_ptxas_spills(&out);
        for k in &mut facts.kernels {
            k.ptxas = regs.get(&k.name).map(|&n| u64::from(n));
            if let Some(&s) = spills.get(&k.name) {
                k.spills = Some(s);
            }
        }
    }
}

/// The `-arch` for a file: its `.target`, at least sm_75 (ptxas 13's floor).
fn file_arch(text: &str) -> String {
    let target = text
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|rest| {
            rest.split(|c: char| c == ',' || c.is_whitespace())
                .find(|w| !w.is_empty())
        })
        .map(|t| t.replace("compute_", "sm_"));
    match target {
        Some(t)
            if t.get(3..5)
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| n >= 75) =>
        {
            t
        }
        _ => "sm_75".to_string(),
    }
}

/// Spill bytes (stores plus loads) per function from `ptxas -v` output.
fn parse_ptxas_spills(output: &str) -> BTreeMap<String, u64> {
    let mut spills = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in output.lines() {
        if let Some(rest) = line.split("Function properties for ").nth(1) {
            current = Some(rest.trim().to_string());
        } else if line.contains("spill stores") {
            let number_before = |word: &str| -> u64 {
                line.split(',')
                    .find(|part| part.contains(word))
                    .and_then(|part| part.split_whitespace().next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0)
            };
            if let Some(name) = current.take() {
                spills.insert(
                    name,
                    number_before("spill stores") + number_before("spill loads"),
                );
            }
        }
    }
    spills
}

/// Reads an analyze report (see `analyze_cmd`'s module documentation).
fn from_json(value: &Value) -> Result<FileFacts, String> {
    let not_report = |what: &str| format!("not a `ptxopt analyze --format json` report ({what})");
    let obj = value
        .as_object()
        .ok_or_else(|| not_report("not an object"))?;
    // Reports saved before `format_version` existed have the same fields.
    let version = match obj.get("format_version") {
        None => FORMAT_VERSION as u64,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| not_report("`format_version` is not a number"))?,
    };
    if version != u64::from(FORMAT_VERSION) {
        return Err(format!(
            "analyze report of format version {version}; this ptxopt reads version \
             {FORMAT_VERSION} (re-run `ptxopt analyze --format json` with this ptxopt)"
        ));
    }
    let target = obj
        .get("target")
        .and_then(Value::as_str)
        .ok_or_else(|| not_report("no `target`"))?
        .to_string();
    let functions = obj
        .get("functions")
        .and_then(Value::as_array)
        .ok_or_else(|| not_report("no `functions` list"))?;
    let mut kernels = Vec::new();
    for (i, f) in functions.iter().enumerate() {
        let field = |name: &str| -> Result<&Value, String> {
            f.get(name)
                .ok_or_else(|| not_report(&format!("function {i} has no `{name}`")))
        };
        let num = |name: &str| -> Result<u64, String> {
            field(name)?
                .as_u64()
                .ok_or_else(|| not_report(&format!("function {i}: `{name}` is not a count")))
        };
        let opt_num = |v: Option<&Value>| v.and_then(number_of);
        let name = field("name")?
            .as_str()
            .ok_or_else(|| not_report(&format!("function {i}: `name` is not a string")))?
            .to_string();
        let max_r = field("max_live")?
            .get("r")
            .and_then(Value::as_u64)
            .ok_or_else(|| not_report(&format!("function {i}: no `max_live.r`")))?;
        let loops = field("loops")?
            .as_array()
            .ok_or_else(|| not_report(&format!("function {i}: `loops` is not a list")))?
            .iter()
            .map(|l| LoopFacts {
                header_line: l.get("header_line").and_then(Value::as_u64).unwrap_or(0),
                trip_count: l.get("trip_count").and_then(Value::as_u64),
                unroll: l.get("unroll").and_then(|u| {
                    u.as_object().map(|u| Unroll {
                        factor: u.get("factor").and_then(Value::as_u64).unwrap_or(1),
                        full: u.get("full").and_then(Value::as_bool).unwrap_or(false),
                        code: u.get("code").and_then(Value::as_u64),
                        reason: u
                            .get("reason")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        by: u.get("by").and_then(Value::as_str).map(str::to_string),
                    })
                }),
            })
            .collect();
        kernels.push(KernelFacts {
            name,
            kind: f
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("entry")
                .to_string(),
            blocks: num("blocks")?,
            instructions: num("instructions")?,
            max_r,
            estimated: opt_num(f.get("estimated_registers")),
            ptxas: opt_num(f.get("ptxas_registers")),
            spills: opt_num(f.get("spills")),
            occupancy: opt_num(f.get("occupancy")),
            loops,
        });
    }
    Ok(FileFacts { target, kernels })
}

/// A count given as a number or as an object with a count inside
/// (`{"value": N}`, `{"registers": N}`, `{"warps": N}`, `{"warps_per_sm": N}`).
fn number_of(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        let o = v.as_object()?;
        ["value", "registers", "r", "warps", "warps_per_sm"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_u64))
    })
}

/// One kernel's side of an entry, with what the profile says.
#[derive(Clone, Debug)]
struct Side {
    facts: KernelFacts,
    target: String,
}

impl Side {
    fn occupancy(&self, regs: u64) -> u64 {
        self.facts.occupancy.unwrap_or_else(|| {
            let regs = u32::try_from(regs).unwrap_or(u32::MAX);
            u64::from(ptx_analysis::target::Target::for_arch(&self.target).occupancy(regs))
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Unchanged,
    Changed,
    Renamed,
    Added,
    Removed,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Changed => "changed",
            Status::Renamed => "renamed",
            Status::Added => "added",
            Status::Removed => "removed",
        }
    }
}

/// One row of the diff: a kernel in OLD, NEW or both.
struct Entry {
    file: Option<String>,
    old: Option<Side>,
    new: Option<Side>,
    status: Status,
}

/// Which register count the entry compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RegSource {
    Ptxas,
    Estimate,
    MaxLive,
}

impl RegSource {
    fn word(self) -> &'static str {
        match self {
            RegSource::Ptxas => "ptxas",
            RegSource::Estimate => "estimate",
            RegSource::MaxLive => "max live R",
        }
    }
    fn json(self) -> &'static str {
        match self {
            RegSource::Ptxas => "ptxas",
            RegSource::Estimate => "estimate",
            RegSource::MaxLive => "max_live",
        }
    }
    fn of(self, k: &KernelFacts) -> u64 {
        match self {
            RegSource::Ptxas => k.ptxas.unwrap_or(k.max_r),
            RegSource::Estimate => k.estimated.unwrap_or(k.max_r),
            RegSource::MaxLive => k.max_r,
        }
    }
}

impl Entry {
    fn name(&self) -> String {
        let k = self.new.as_ref().or(self.old.as_ref()).map(|s| &s.facts);
        let name = k.map_or("", |k| k.name.as_str());
        match &self.file {
            Some(f) => format!("{f}: {name}"),
            None => name.to_string(),
        }
    }

    fn reg_source(&self) -> RegSource {
        let sides: Vec<&KernelFacts> = self.old.iter().chain(&self.new).map(|s| &s.facts).collect();
        if sides.iter().all(|k| k.ptxas.is_some()) {
            RegSource::Ptxas
        } else if sides.iter().all(|k| k.estimated.is_some()) {
            RegSource::Estimate
        } else {
            RegSource::MaxLive
        }
    }

    fn regs(&self) -> (Option<u64>, Option<u64>) {
        let src = self.reg_source();
        (
            self.old.as_ref().map(|s| src.of(&s.facts)),
            self.new.as_ref().map(|s| src.of(&s.facts)),
        )
    }

    fn occupancy(&self) -> (Option<u64>, Option<u64>) {
        let (a, b) = self.regs();
        (
            self.old.as_ref().zip(a).map(|(s, r)| s.occupancy(r)),
            self.new.as_ref().zip(b).map(|(s, r)| s.occupancy(r)),
        )
    }

    fn pair<T>(&self, f: impl Fn(&KernelFacts) -> T) -> (Option<T>, Option<T>) {
        (
            self.old.as_ref().map(|s| f(&s.facts)),
            self.new.as_ref().map(|s| f(&s.facts)),
        )
    }

    /// Loop changes, one line each (empty when the loops are alike).
    fn loop_changes(&self) -> Vec<String> {
        let (Some(old), Some(new)) = (&self.old, &self.new) else {
            return Vec::new();
        };
        let (a, b) = (&old.facts.loops, &new.facts.loops);
        let mut out = Vec::new();
        if a.len() != b.len() {
            out.push(format!("loops {} -> {}", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(b) {
            let at = if x.header_line == y.header_line {
                format!("loop at line {}", x.header_line)
            } else {
                format!("loop at line {} (was {})", y.header_line, x.header_line)
            };
            if x.unroll != y.unroll {
                let d = |u: &Option<Unroll>| {
                    u.as_ref()
                        .map_or_else(|| "no decision".to_string(), Unroll::describe)
                };
                out.push(format!("{at}: {} -> {}", d(&x.unroll), d(&y.unroll)));
            } else if x.trip_count != y.trip_count {
                let t = |t: Option<u64>| t.map_or_else(|| "unknown".to_string(), |n| n.to_string());
                out.push(format!(
                    "{at}: trip count {} -> {}",
                    t(x.trip_count),
                    t(y.trip_count)
                ));
            }
        }
        out
    }

    fn is_changed(&self) -> bool {
        let (a, b) = self.regs();
        a != b
            || self.pair(|k| k.spills).0 != self.pair(|k| k.spills).1
            || self.pair(|k| k.instructions).0 != self.pair(|k| k.instructions).1
            || self.occupancy().0 != self.occupancy().1
            || !self.loop_changes().is_empty()
    }

    /// Why this entry offends `rule`, or `None`.
    fn offends(&self, rule: &Rule) -> Option<String> {
        let (Some(old), Some(new)) = (&self.old, &self.new) else {
            return None;
        };
        let name = self.name();
        match rule {
            Rule::RegsAbove(_) | Rule::RegsPercent(_) => {
                let (Some(a), Some(b)) = self.regs() else {
                    return None;
                };
                let grew = b.saturating_sub(a);
                let over = match rule {
                    Rule::RegsAbove(n) => grew > *n,
                    Rule::RegsPercent(p) => grew > 0 && (grew as f64) * 100.0 > p * a as f64,
                    _ => false,
                };
                over.then(|| {
                    format!(
                        "{name}: registers {a} -> {b} ({}, {}) [{rule}]",
                        signed(a, b),
                        self.reg_source().word()
                    )
                })
            }
            Rule::Spills => {
                let b = new.facts.spills?;
                let a = old.facts.spills.unwrap_or(0);
                (b > a).then(|| format!("{name}: spill bytes {a} -> {b} [{rule}]"))
            }
            Rule::Unroll => {
                let worse: Vec<String> = old
                    .facts
                    .loops
                    .iter()
                    .zip(&new.facts.loops)
                    .filter_map(|(x, y)| {
                        let (u, v) = (x.unroll.as_ref()?, y.unroll.as_ref()?);
                        (v.rank() < u.rank()).then(|| {
                            format!(
                                "loop at line {}: {} -> {}",
                                y.header_line,
                                u.describe(),
                                v.describe()
                            )
                        })
                    })
                    .collect();
                (!worse.is_empty()).then(|| format!("{name}: {} [{rule}]", worse.join("; ")))
            }
        }
    }
}

/// `+2`, `-1`, `=`.
fn signed(a: u64, b: u64) -> String {
    match b.cmp(&a) {
        std::cmp::Ordering::Greater => format!("+{}", b - a),
        std::cmp::Ordering::Less => format!("-{}", a - b),
        std::cmp::Ordering::Equal => "=".to_string(),
    }
}

/// Pairs the kernels of one file pair into entries.
fn compare_files(
    file: Option<&str>,
    old: Option<&FileFacts>,
    new: Option<&FileFacts>,
    out: &mut Vec<Entry>,
) {
    let side = |f: &FileFacts, k: &KernelFacts| Side {
        facts: k.clone(),
        target: f.target.clone(),
    };
    let file = file.map(str::to_string);
    let empty = Vec::new();
    let old_k = old.map_or(&empty, |f| &f.kernels);
    let new_k = new.map_or(&empty, |f| &f.kernels);
    let new_names: BTreeSet<&str> = new_k.iter().map(|k| k.name.as_str()).collect();
    let old_names: BTreeSet<&str> = old_k.iter().map(|k| k.name.as_str()).collect();
    let mut unmatched_new: Vec<&KernelFacts> = new_k
        .iter()
        .filter(|k| !old_names.contains(k.name.as_str()))
        .collect();
    // In OLD's order; kernels only in NEW after.
    for k in old_k {
        let old_side = old.map(|f| side(f, k));
        if new_names.contains(k.name.as_str()) {
            let n = new_k.iter().find(|n| n.name == k.name).cloned();
            let mut e = Entry {
                file: file.clone(),
                old: old_side,
                new: n.map(|n| side(new.expect("has kernels"), &n)),
                status: Status::Unchanged,
            };
            if e.is_changed() {
                e.status = Status::Changed;
            }
            out.push(e);
            continue;
        }
        // A rename: same kind, blocks and loops; instructions within a tenth.
        let candidate = unmatched_new
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                n.kind == k.kind
                    && n.blocks == k.blocks
                    && n.loops.len() == k.loops.len()
                    && n.instructions.abs_diff(k.instructions) * 10 <= k.instructions.max(1)
            })
            .min_by_key(|(_, n)| n.instructions.abs_diff(k.instructions))
            .map(|(i, _)| i);
        match candidate {
            Some(i) => {
                let n = unmatched_new.remove(i);
                out.push(Entry {
                    file: file.clone(),
                    old: old_side,
                    new: new.map(|f| side(f, n)),
                    status: Status::Renamed,
                });
            }
            None => out.push(Entry {
                file: file.clone(),
                old: old_side,
                new: None,
                status: Status::Removed,
            }),
        }
    }
    for n in unmatched_new {
        out.push(Entry {
            file: file.clone(),
            old: None,
            new: new.map(|f| side(f, n)),
            status: Status::Added,
        });
    }
}

/// `a -> b (+d)`, `a` when equal, `-` when unknown.
fn delta(a: Option<u64>, b: Option<u64>, arrow: &str) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a} {arrow} {b} ({})", signed(a, b)),
        (Some(a), None) => a.to_string(),
        (None, Some(b)) => b.to_string(),
        (None, None) => "-".to_string(),
    }
}

fn counts(entries: &[Entry]) -> BTreeMap<&'static str, usize> {
    let mut c = BTreeMap::new();
    for s in ["unchanged", "changed", "renamed", "added", "removed"] {
        c.insert(s, 0);
    }
    for e in entries {
        *c.entry(e.status.word()).or_insert(0) += 1;
    }
    c
}

fn summary_line(entries: &[Entry]) -> String {
    let c = counts(entries);
    format!(
        "{} kernel{}: {} changed, {} unchanged, {} renamed, {} added, {} removed",
        entries.len(),
        crate::render::plural(entries.len()),
        c["changed"],
        c["unchanged"],
        c["renamed"],
        c["added"],
        c["removed"]
    )
}

fn render_text(title: &str, entries: &[Entry], offenders: &[(usize, String)], all: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}: {}", summary_line(entries));
    for e in entries {
        if e.status == Status::Unchanged && !all {
            continue;
        }
        let src = e.reg_source().word();
        let (ra, rb) = e.regs();
        let head = match e.status {
            Status::Renamed => {
                let (a, b) = e.pair(|k| k.name.clone());
                let file = e
                    .file
                    .as_deref()
                    .map_or(String::new(), |f| format!("{f}: "));
                format!(
                    "{file}{} renamed to {}",
                    a.unwrap_or_default(),
                    b.unwrap_or_default()
                )
            }
            _ => e.name(),
        };
        let mut parts = vec![format!("registers {} ({src})", delta(ra, rb, "->"))];
        let (sa, sb) = e.pair(|k| k.spills);
        if sa.flatten().is_some() || sb.flatten().is_some() {
            parts.push(format!(
                "spill bytes {}",
                delta(sa.flatten(), sb.flatten(), "->")
            ));
        }
        let (ia, ib) = e.pair(|k| k.instructions);
        parts.push(format!("instructions {}", delta(ia, ib, "->")));
        let (la, lb) = e.pair(|k| k.loops.len() as u64);
        parts.push(format!("loops {}", delta(la, lb, "->")));
        let (oa, ob) = e.occupancy();
        parts.push(format!("occupancy {} warps/SM", delta(oa, ob, "->")));
        let _ = writeln!(out, "{:<9} {head}: {}", e.status.word(), parts.join(", "));
        for change in e.loop_changes() {
            let _ = writeln!(out, "{:<9}   {change}", "");
        }
    }
    if !offenders.is_empty() {
        let _ = writeln!(out, "regressions:");
        for (_, why) in offenders {
            let _ = writeln!(out, "  {why}");
        }
    }
    out
}

/// `|` and newlines would break a table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn render_markdown(
    title: &str,
    entries: &[Entry],
    offenders: &[(usize, String)],
    all: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### ptxopt diff: `{}`\n", cell(title));
    let _ = writeln!(out, "{}\n", summary_line(entries));
    let shown: Vec<&Entry> = entries
        .iter()
        .filter(|e| all || e.status != Status::Unchanged)
        .collect();
    if !shown.is_empty() {
        out.push_str(
            "| | kernel | registers | spill bytes | instructions | loops | occupancy (warps/SM) |\n\
             |---|---|---:|---:|---:|---|---:|\n",
        );
        for e in shown {
            let name = match e.status {
                Status::Renamed => {
                    let (a, b) = e.pair(|k| k.name.clone());
                    let file = e
                        .file
                        .as_deref()
                        .map_or(String::new(), |f| format!("`{f}` "));
                    format!(
                        "{file}`{}` → `{}`",
                        a.unwrap_or_default(),
                        b.unwrap_or_default()
                    )
                }
                _ => {
                    let k = e
                        .new
                        .as_ref()
                        .or(e.old.as_ref())
                        .map(|s| s.facts.name.clone());
                    let file = e
                        .file
                        .as_deref()
                        .map_or(String::new(), |f| format!("`{f}` "));
                    format!("{file}`{}`", k.unwrap_or_default())
                }
            };
            let (ra, rb) = e.regs();
            let (sa, sb) = e.pair(|k| k.spills);
            let (ia, ib) = e.pair(|k| k.instructions);
            let (la, lb) = e.pair(|k| k.loops.len() as u64);
            let mut loops = delta(la, lb, "→");
            let changes = e.loop_changes();
            if !changes.is_empty() {
                loops = format!("{loops}: {}", changes.join("; "));
            }
            let (oa, ob) = e.occupancy();
            let _ = writeln!(
                out,
                "| {} | {} | {} ({}) | {} | {} | {} | {} |",
                e.status.word(),
                cell(&name),
                delta(ra, rb, "→"),
                e.reg_source().word(),
                delta(sa.flatten(), sb.flatten(), "→"),
                delta(ia, ib, "→"),
                cell(&loops),
                delta(oa, ob, "→"),
            );
        }
    }
    if !offenders.is_empty() {
        out.push_str("\n**Regressions:**\n\n");
        for (_, why) in offenders {
            let _ = writeln!(out, "- {}", cell(why));
        }
    }
    out
}

fn render_json(args: &DiffArgs, entries: &[Entry], offenders: &[(usize, String)]) -> String {
    let pair = |a: Option<u64>, b: Option<u64>| json!({"old": a, "new": b});
    let unroll = |u: &Option<Unroll>| {
        u.as_ref().map(|u| {
            json!({"factor": u.factor, "full": u.full, "code": u.code, "reason": u.reason, "by": u.by})
        })
    };
    let kernels: Vec<Value> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (na, nb) = e.pair(|k| k.name.clone());
            let (ra, rb) = e.regs();
            let (sa, sb) = e.pair(|k| k.spills);
            let (ia, ib) = e.pair(|k| k.instructions);
            let (oa, ob) = e.occupancy();
            let (lo, ln) = e.pair(|k| k.loops.clone());
            let (lo, ln) = (lo.unwrap_or_default(), ln.unwrap_or_default());
            let loops: Vec<Value> = (0..lo.len().max(ln.len()))
                .map(|j| {
                    let side = |l: Option<&LoopFacts>| {
                        l.map(|l| {
                            json!({"header_line": l.header_line, "trip_count": l.trip_count,
                                   "unroll": unroll(&l.unroll)})
                        })
                    };
                    json!({"old": side(lo.get(j)), "new": side(ln.get(j))})
                })
                .collect();
            json!({
                "file": e.file,
                "name": nb.clone().or(na.clone()),
                "old_name": na,
                "new_name": nb,
                "status": e.status.word(),
                "registers": {"old": ra, "new": rb, "source": e.reg_source().json()},
                "max_live_r": pair(e.pair(|k| k.max_r).0, e.pair(|k| k.max_r).1),
                "estimated_registers": pair(e.pair(|k| k.estimated).0.flatten(), e.pair(|k| k.estimated).1.flatten()),
                "ptxas_registers": pair(e.pair(|k| k.ptxas).0.flatten(), e.pair(|k| k.ptxas).1.flatten()),
                "spills": pair(sa.flatten(), sb.flatten()),
                "instructions": pair(ia, ib),
                "occupancy": pair(oa, ob),
                "loops": loops,
                "regressions": offenders.iter().filter(|(k, _)| *k == i).map(|(_, w)| w.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let c = counts(entries);
    let doc = json!({
        "format_version": FORMAT_VERSION,
        "old": args.old.display().to_string(),
        "new": args.new.display().to_string(),
        "fail_on": args.fail_on.iter().map(Rule::to_string).collect::<Vec<_>>(),
        "summary": c,
        "kernels": kernels,
        "regressions": offenders.iter().map(|(_, w)| w.clone()).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse() {
        assert_eq!(parse_rule("regs+4"), Ok(Rule::RegsAbove(4)));
        assert_eq!(parse_rule("regs+10%"), Ok(Rule::RegsPercent(10.0)));
        assert_eq!(parse_rule("spills"), Ok(Rule::Spills));
        assert_eq!(parse_rule("unroll"), Ok(Rule::Unroll));
        for bad in ["regs", "regs+", "regs+x", "regs+-1%", "spill", "regs+NaN%"] {
            assert!(parse_rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ptxas_spills_parse() {
        let out = "ptxas info    : Function properties for k\n    \
                   8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n";
        assert_eq!(parse_ptxas_spills(out).get("k"), Some(&16));
    }

    #[test]
    fn arch_of_a_file() {
        assert_eq!(file_arch(".version 8.0\n.target sm_90a\n"), "sm_90a");
        assert_eq!(file_arch(".target sm_52, debug\n"), "sm_75");
        assert_eq!(file_arch(""), "sm_75");
    }
}
