//! `ptxopt build FILE...`: check, lower, run the phase pipeline, write PTX.
//!
//! Steps:
//! 1. Check the command line (`--knob`, `--arch`, `--named-phases`,
//!    `--dump-after`, output paths) and load every configuration file that
//!    applies; any problem is a usage error (exit 2) before anything is built.
//! 2. Read the inputs. Files are grouped by the `ptxopt.toml` that applies to
//!    them; each group gets one [`RootDatabase`] with its settings.
//! 3. Build the files of a group in parallel, one database clone per worker
//!    thread (they share memoized results). A file with errors (what `ptxopt
//!    check` reports, or code ptxopt cannot lower) is not written.
//! 4. Write each output atomically (see [`crate::atomic_write`]).
//! 5. Print diagnostics (stderr), dumps (stdout) and a summary (stderr) in
//!    input order, so the output does not depend on thread timing.
//!
//! A progress bar is shown on stderr when it is a terminal and there is more
//! than one file, or, when it is not, one line per tenth of the files when
//! there are many ([`crate::progress`]). Folders are walked for `*.ptx`
//! files; a file that cannot be read or has errors is reported and the others
//! are still built; the summary counts both.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ptx_db::{PhaseId, RootDatabase, SourceFile};
use ptx_syntax::check::Severity;
use ptx_syntax::line_index::LineIndex;

use crate::atomic_write::write_atomically_with;
use crate::progress::Progress;
use crate::remarks_fmt::{self, RemarkFilter, ReportFormat};
use crate::render::plural;
use crate::settings::{self, UsageError};

/// Arguments of `ptxopt build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// PTX files to build, or folders (every `*.ptx` under them, not hidden
    /// files or `*.opt.ptx` outputs). `-` reads standard input and writes
    /// standard output unless `-o` says otherwise.
    #[arg(value_name = "FILE", required_unless_present = "list_phases")]
    files: Vec<PathBuf>,

    /// Write the output to OUT (`-`: standard output). Only with one input
    /// file. Default: `<name>.opt.ptx` beside each input.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        conflicts_with = "out_dir"
    )]
    output: Option<PathBuf>,

    /// Write each output to DIR/<input file name> (DIR is created if needed).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,

    #[command(flatten)]
    settings: crate::cli::SettingsArgs,

    #[command(flatten)]
    max_regs: crate::cli::MaxRegArg,

    /// Print the pipeline (number, name, tool, implemented or pass-through,
    /// knobs read) and exit.
    #[arg(long)]
    list_phases: bool,

    /// Print every kernel's code after PHASE (a ptxas number such as `22`, or
    /// a name such as `OriLoopUnrolling` or `nvptx-peephole`) on standard
    /// output. Outputs are still written.
    #[arg(long, value_name = "PHASE")]
    dump_after: Option<String>,

    /// How `--dump-after` prints: `ptx` (PTX text) or `ir` (the IR dump with
    /// blocks, successors, defs and uses).
    #[arg(long, value_enum, default_value_t = DumpFormat::Ptx, value_name = "FORMAT")]
    dump_format: DumpFormat,

    /// Worker threads (default: the number of cores): files in parallel, or,
    /// for one file, its functions. The output is the same for any number.
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,

    /// Print diagnostics as single `path:line:col: severity: message` lines,
    /// without source excerpts.
    #[arg(long)]
    short: bool,

    /// Print optimization remarks on standard error, in the style of
    /// clang's -Rpass: `file:line:col: remark: [16 OriPerformLiveDeadFirst]
    /// removed dead ...` for what a phase changed (`applied`),
    /// `remark-missed:` for what it looked at and left, with why (`missed`),
    /// or both (`all`, the default when no value is given).
    #[arg(long, value_enum, value_name = "KIND", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    remarks: Option<RemarkFilter>,

    /// Print each phase's counters per kernel (`instructions removed=3`, ...)
    /// on standard error, and their totals.
    #[arg(long)]
    stats: bool,

    /// How --remarks and --stats print: `text`, or `json` (one JSON object
    /// per line: `{"type":"remark","file","line","col","kernel","phase",
    /// "phase_number","kind","name","message"}` and
    /// `{"type":"stats","file","kernel","phase","phase_number","stats":{..}}`).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text, value_name = "FORMAT")]
    remarks_format: ReportFormat,

    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DumpFormat {
    Ptx,
    Ir,
}

/// Where one output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dest {
    Stdout,
    File(PathBuf),
}

/// One input as read.
pub(crate) struct Input {
    path: PathBuf,
    pub display: String,
    pub text: Result<String, ReadError>,
}

pub(crate) enum ReadError {
    /// Cannot be read: exit 2.
    Io(String),
    /// Not UTF-8 (an input error, exit 1): the rendered diagnostic.
    NotUtf8(String),
}

/// What building one input produced.
#[derive(Default)]
struct FileReport {
    /// Rendered diagnostics.
    diagnostics: String,
    errors: usize,
    warnings: usize,
    /// `--dump-after` text.
    dump: String,
    /// `--remarks` and `--stats` text.
    remarks: String,
    /// Counters, for the `--stats` totals.
    stats: Vec<ptx_db::KernelStats>,
    /// The output, when it goes to standard output.
    stdout_text: Option<String>,
    written: bool,
    io_error: Option<String>,
}

/// Runs `ptxopt build`.
pub fn run(args: BuildArgs) -> ExitCode {
    if args.list_phases {
        print!("{}", crate::phase_list::render());
        return ExitCode::SUCCESS;
    }
    match build(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn build(args: &BuildArgs) -> Result<ExitCode, UsageError> {
    let mut cli = args.settings.cli_settings()?;
    cli.max_regs = args.max_regs.maxrregcount;
    let dump = args.dump_after.as_deref().map(dump_phase).transpose()?;
    let files = crate::inputs::expand_ptx(&args.files).map_err(UsageError)?;
    let dests = destinations(args, &files)?;
    let files: Vec<PathBuf> = files.into_iter().map(|(path, _)| path).collect();

    // Configuration files, loaded before anything is built.
    let config_paths: Vec<Option<PathBuf>> = files
        .iter()
        .map(|f| settings::config_path_for(f, args.settings.config.as_deref()))
        .collect();
    let mut configs: BTreeMap<PathBuf, ptx_knobs::Config> = BTreeMap::new();
    for path in config_paths.iter().flatten() {
        if !configs.contains_key(path) {
            configs.insert(path.clone(), settings::load_config(path)?);
        }
    }
    // Settings are checked once up front, so a bad setting is reported before
    // any file is written.
    let mut probe = RootDatabase::new();
    settings::apply(&mut probe, None, &cli)?;
    for (path, config) in &configs {
        settings::apply(&mut probe, Some((path, config)), &cli)?;
    }
    drop(probe);

    let inputs: Vec<Input> = files.iter().map(|p| read_input(p)).collect();

    let mut groups: BTreeMap<Option<PathBuf>, Vec<usize>> = BTreeMap::new();
    for (i, config) in config_paths.iter().enumerate() {
        groups.entry(config.clone()).or_default().push(i);
    }

    let progress = Progress::new("building", "files", inputs.len(), args.quiet.quiet, true);
    let mut reports: Vec<Option<FileReport>> = (0..inputs.len()).map(|_| None).collect();
    for (n, (config, members)) in groups.iter().enumerate() {
        let config = config.as_ref().map(|p| (p.as_path(), &configs[p]));
        let mut db = RootDatabase::new();
        settings::apply(&mut db, config, &cli)?;
        build_group(
            &mut db,
            &inputs,
            members,
            &dests,
            &Job {
                dump,
                dump_format: args.dump_format,
                short: args.short,
                threads: args.jobs,
                remarks: args.remarks,
                stats: args.stats,
                remarks_format: args.remarks_format,
            },
            &progress,
            &mut reports,
        );
        if n + 1 == groups.len() {
            // The last database lives until the process exits: freeing its
            // memos one by one took ~8% of a one-file build's wall time
            // (dealii, 2 threads), and the system takes the memory back
            // at once. Outputs are already written.
            std::mem::forget(db);
        }
    }
    progress.finish();

    Ok(report(args, &inputs, reports))
}

/// What every file of a build shares.
struct Job {
    dump: Option<PhaseId>,
    dump_format: DumpFormat,
    short: bool,
    threads: Option<usize>,
    remarks: Option<RemarkFilter>,
    stats: bool,
    remarks_format: ReportFormat,
}

/// Resolves `--dump-after`.
fn dump_phase(word: &str) -> Result<PhaseId, UsageError> {
    let found = ptx_db::find_phases(word);
    match found.as_slice() {
        [] => Err(settings::unknown_phase("--dump-after", word)),
        [one] => Ok(one.id),
        many => {
            let labels: Vec<String> = many.iter().map(|p| p.label()).collect();
            Err(UsageError(format!(
                "--dump-after: `{word}` names several phases ({}); give one by number",
                labels.join(", ")
            )))
        }
    }
}

/// Where each input's output goes. With `--out-dir`, a file found in a
/// folder keeps its place under that folder (`dir/sub/k.ptx` ->
/// `OUT/sub/k.ptx`).
fn destinations(
    args: &BuildArgs,
    files: &[(PathBuf, Option<PathBuf>)],
) -> Result<Vec<Dest>, UsageError> {
    if let Some(out) = &args.output {
        if files.len() != 1 || args.files.iter().any(|p| p.is_dir()) {
            return Err(UsageError(
                "-o/--output takes one input file; use --out-dir for several".into(),
            ));
        }
        return Ok(vec![if out.as_os_str() == "-" {
            Dest::Stdout
        } else {
            Dest::File(out.clone())
        }]);
    }
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("cannot create `{}`: {e}", dir.display())))?;
    }
    let mut seen: BTreeMap<PathBuf, &Path> = BTreeMap::new();
    let mut dests = Vec::new();
    for (input, rel) in files {
        if input.as_os_str() == "-" {
            dests.push(Dest::Stdout);
            continue;
        }
        let name = input
            .file_name()
            .ok_or_else(|| UsageError(format!("`{}` is not a file name", input.display())))?;
        let out = match (&args.out_dir, rel) {
            (Some(dir), Some(rel)) => {
                let out = dir.join(rel);
                if let Some(parent) = out.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| {
                        UsageError(format!("cannot create `{}`: {e}", parent.display()))
                    })?;
                }
                out
            }
            (Some(dir), None) => dir.join(name),
            (None, _) => input.with_file_name(default_output_name(input)),
        };
        if let Some(other) = seen.get(&out) {
            if *other != input.as_path() {
                return Err(UsageError(format!(
                    "`{}` and `{}` would both be written to `{}`",
                    other.display(),
                    input.display(),
                    out.display()
                )));
            }
        }
        seen.insert(out.clone(), input);
        dests.push(Dest::File(out));
    }
    Ok(dests)
}

/// `kernel.ptx` -> `kernel.opt.ptx`.
pub(crate) fn default_output_name(input: &Path) -> String {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{stem}.opt.ptx")
}

/// Reads a file (`-`: standard input) as UTF-8 text.
pub(crate) fn read_input(path: &Path) -> Input {
    let display = path.display().to_string();
    let text = match read_bytes(path) {
        Err(e) => Err(ReadError::Io(format!("cannot read `{display}`: {e}"))),
        Ok(bytes) => decode_utf8(&display, bytes).map_err(ReadError::NotUtf8),
    };
    Input {
        path: path.to_path_buf(),
        display,
        text,
    }
}

/// The bytes of a file, or of standard input for `-`.
pub(crate) fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    }
}

/// The text of an input, or the rendered "not valid UTF-8" error (with the
/// line and column of the first bad byte).
pub(crate) fn decode_utf8(display: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
        let index = LineIndex::new(&prefix);
        let lc = index.line_col(&prefix, (valid as u32).into());
        format!(
            "{display}:{}:{}: error: file is not valid UTF-8\n",
            lc.line, lc.col
        )
    })
}

/// Builds the inputs `members` with one database (settings already applied),
/// in parallel.
fn build_group(
    db: &mut RootDatabase,
    inputs: &[Input],
    members: &[usize],
    dests: &[Dest],
    job: &Job,
    progress: &Progress,
    reports: &mut [Option<FileReport>],
) {
    // Inputs are set on the database before any clone exists (a setter waits
    // for every clone to be dropped).
    let mut work: Vec<(usize, SourceFile)> = Vec::new();
    for &i in members {
        match &inputs[i].text {
            Ok(text) => work.push((i, db.set_file_text(&inputs[i].path, text.as_str()))),
            Err(e) => {
                reports[i] = Some(match e {
                    ReadError::Io(message) => FileReport {
                        io_error: Some(message.clone()),
                        ..FileReport::default()
                    },
                    ReadError::NotUtf8(rendered) => FileReport {
                        diagnostics: rendered.clone(),
                        errors: 1,
                        ..FileReport::default()
                    },
                });
                progress.tick();
            }
        }
    }
    let cores = job
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let [(_, file)] = work[..] {
        // One file: its chunks and functions in parallel instead.
        ptx_db::parallel::warm_file(db, file, cores, &|db, kernel| {
            ptx_db::kernel_ptx(db, kernel);
        });
    }
    let threads = cores.clamp(1, work.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, FileReport)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let db = db.clone();
            let (next, results, work) = (&next, &results, &work);
            scope.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(i, file)) = work.get(n) else { break };
                progress.start(&inputs[i].display);
                let report = build_one(&db, file, &inputs[i], &dests[i], job);
                results.lock().expect("no poisoned lock").push((i, report));
                progress.tick();
            });
        }
    });
    for (i, report) in results.into_inner().expect("no poisoned lock") {
        reports[i] = Some(report);
    }
}

/// Builds one file and writes its output.
fn build_one(
    db: &RootDatabase,
    file: SourceFile,
    input: &Input,
    dest: &Dest,
    job: &Job,
) -> FileReport {
    let built = ptx_db::build_file(db, file);
    let mut report = FileReport::default();
    (report.errors, report.warnings) = render_diagnostics(
        &mut report.diagnostics,
        &input.display,
        ptx_db::file_text(db, file),
        &built.diagnostics,
        job.short,
    );
    let Some(output) = built.text else {
        // A file ptxopt cannot lower is reported with an error diagnostic too.
        report.errors = report.errors.max(1);
        return report;
    };
    if let Some(phase) = job.dump {
        report.dump = dump(db, file, &input.display, phase, job.dump_format);
    }
    if let Some(filter) = job.remarks {
        report.remarks = remarks_fmt::render_remarks(
            &input.display,
            ptx_db::file_text(db, file),
            &ptx_db::file_remarks(db, file),
            filter,
            job.remarks_format,
        );
    }
    if job.stats {
        report.stats = ptx_db::file_stats(db, file);
        report.remarks.push_str(&remarks_fmt::render_stats(
            &input.display,
            &report.stats,
            job.remarks_format,
        ));
    }
    match dest {
        Dest::Stdout => {
            report.stdout_text = Some(output.to_string());
            report.written = true;
        }
        Dest::File(path) => match write_atomically_with(path, &|out| output.write_to(out)) {
            Ok(()) => report.written = true,
            Err(e) => report.io_error = Some(format!("cannot write `{}`: {e}", path.display())),
        },
    }
    report
}

/// Renders `diagnostics` of the file `text` (shown as `display`) into `out`,
/// with source excerpts unless `short`; the numbers of errors and warnings.
pub(crate) fn render_diagnostics(
    out: &mut String,
    display: &str,
    text: &str,
    diagnostics: &[ptx_db::Diag],
    short: bool,
) -> (usize, usize) {
    if diagnostics.is_empty() {
        // Most builds: no line index of the whole file to make.
        return (0, 0);
    }
    let index = LineIndex::new(text);
    let (mut errors, mut warnings) = (0, 0);
    for d in diagnostics {
        if short {
            crate::render::render_short(out, display, text, &index, d);
        } else {
            crate::render::render(out, display, text, &index, d);
        }
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
        }
    }
    (errors, warnings)
}

/// Every kernel of `file` after `phase`.
fn dump(
    db: &RootDatabase,
    file: SourceFile,
    display: &str,
    phase: PhaseId,
    format: DumpFormat,
) -> String {
    let label = ptx_db::phase_info(phase).label();
    let mut out = String::new();
    for kernel in ptx_db::kernels(db, file) {
        let ir = ptx_db::ir_after(db, *kernel, phase);
        out.push_str(&format!(
            "// ---- {display}: `{}` after {label} ----\n",
            kernel.name(db)
        ));
        out.push_str(&match format {
            DumpFormat::Ptx => ptx_ir::emit_function(&ir),
            DumpFormat::Ir => ptx_ir::ir::dump::dump_function(&ir),
        });
        out.push('\n');
    }
    out
}

/// Prints the reports in input order; the exit status.
fn report(args: &BuildArgs, inputs: &[Input], reports: Vec<Option<FileReport>>) -> ExitCode {
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    let (mut written, mut failed, mut warnings, mut io_errors) = (0, 0, 0, 0);
    let mut all_stats = Vec::new();
    for (input, report) in inputs.iter().zip(reports) {
        let Some(mut report) = report else {
            continue;
        };
        let _ = stderr.write_all(report.diagnostics.as_bytes());
        let _ = stderr.write_all(report.remarks.as_bytes());
        all_stats.append(&mut report.stats);
        if report.errors > 0 {
            failed += 1;
            let _ = writeln!(
                stderr,
                "ptxopt: `{}` has errors; its output was not written",
                input.display
            );
        }
        if let Some(e) = &report.io_error {
            io_errors += 1;
            let _ = writeln!(stderr, "ptxopt: error: {e}");
        }
        let _ = stdout.write_all(report.dump.as_bytes());
        if let Some(text) = &report.stdout_text {
            let _ = stdout.write_all(text.as_bytes());
        }
        written += usize::from(report.written);
        warnings += report.warnings;
    }
    let _ = stdout.flush();
    if args.stats && args.remarks_format == ReportFormat::Text && inputs.len() > 1 {
        for (name, value) in remarks_fmt::totals(&all_stats) {
            let _ = writeln!(stderr, "total: {name}={value}");
        }
    }
    if !args.quiet.quiet {
        let files = inputs.len();
        // Unreadable files are counted only when there are some, so the
        // line reads as it always has otherwise.
        let unreadable = if io_errors > 0 {
            format!(", {io_errors} unreadable")
        } else {
            String::new()
        };
        let _ = writeln!(
            stderr,
            "built {files} file{}: {written} written, {failed} with errors{unreadable}, {warnings} warning{}",
            plural(files),
            plural(warnings)
        );
    }
    if io_errors > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
