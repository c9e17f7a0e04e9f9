//! `ptxopt watch PATH...`: build once, then rebuild what changes.
//!
//! - **What is watched.** Each PATH is a folder (watched recursively; every
//!   `*.ptx` file in it) or a file (watched through its folder, so an editor
//!   that saves by writing a temporary file and renaming it over the original
//!   is seen). Hidden files (`.name`), outputs (`*.opt.ptx`, anything under
//!   `--out-dir`, the `-o` file) and other files are ignored.
//! - **One long-lived database.** All files that share a configuration (the
//!   `ptxopt.toml` that applies, as in `ptxopt build`; usually one) live in one
//!   [`RootDatabase`] for the whole session. A changed file's new text is set
//!   with `set_file_text` and only that file is rebuilt, so only the functions
//!   whose code changed go through the pipeline again; the others' results are
//!   reused. The counts come from the salsa event log: a function is
//!   "recomputed" when one of its phase queries or its printing executed.
//! - **Debouncing.** File-system events are collected until none has come for
//!   `--debounce` milliseconds (at most two seconds after the first), then each
//!   touched path is judged by what is on disk now, not by the kind of event: a
//!   file that exists is read and rebuilt if its text changed (this covers
//!   writes, renames over it and re-creation); a tracked file that is gone is
//!   forgotten. Opening and reading are not changes (every rebuild reads, so
//!   taking them would rebuild forever). Overflowed event queues trigger a
//!   rescan of every PATH. A file caught half-written is rebuilt again when
//!   the writer's next event arrives.
//! - **Deletion.** A deleted input is forgotten, and its output is left in
//!   place (watch never deletes files it did not just write; the line
//!   `removed k.ptx: output k.opt.ptx left in place` says so). The database
//!   keeps the last text, so restoring the file (`git checkout`) recomputes
//!   nothing.
//! - **Errors.** A file with errors is reported as `ptxopt build` reports it
//!   (stderr) and its output is not written: the previous output stays.
//!   Outputs are written atomically, and not at all when unchanged on disk.
//! - **Output.** Stdout gets one line per build: `built 3 files: ...` at the
//!   start, then `rebuilt k.ptx: 1 file written, 1 of 3 functions recomputed, 2
//!   reused, 4.1 ms` per changed file (a file with errors: `rebuilt k.ptx: 1
//!   error, output not written, ...`), `removed k.ptx: ...` per deleted file.
//! - **Stopping.** Ctrl-C (SIGINT) or SIGTERM ends the session after the
//!   current rebuild, with exit status 0. `--once` builds once and exits with
//!   the status `ptxopt build` would give.
//!
//! A `ptxopt.toml` is read when the first file it applies to is built; restart
//! the watch after changing it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode, Watcher as _};
use ptx_db::{EventLog, RootDatabase, SourceFile, PHASES};

use crate::atomic_write::write_atomically_with;
use crate::build_cmd::{decode_utf8, default_output_name, render_diagnostics};
use crate::render::plural;
use crate::settings::{self, CliSettings, UsageError};

/// Arguments of `ptxopt watch`.
#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    /// Files and folders to watch; folders recursively (their `*.ptx` files).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,

    /// Write the output to OUT. Only with one input file. Default:
    /// `<name>.opt.ptx` beside each input.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        conflicts_with = "out_dir"
    )]
    output: Option<PathBuf>,

    /// Write outputs under DIR (created if needed): a watched file `k.ptx` to
    /// DIR/k.ptx, a file `sub/k.ptx` of a watched folder to DIR/sub/k.ptx.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,

    #[command(flatten)]
    settings: crate::cli::SettingsArgs,

    /// Print diagnostics as single lines, without source excerpts.
    #[arg(long)]
    short: bool,

    /// Build once and exit (exit status as for `ptxopt build`).
    #[arg(long)]
    once: bool,

    /// Quiet time after the last file-system event before rebuilding.
    #[arg(long, value_name = "MS", default_value_t = 150)]
    debounce: u64,
}

/// The longest a rebuild waits for events to settle.
const MAX_SETTLE: Duration = Duration::from_secs(2);

/// Runs `ptxopt watch`.
pub fn run(args: WatchArgs) -> ExitCode {
    match watch(&args) {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("ptxopt: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// What the event loop receives.
enum Msg {
    Fs(notify::Result<notify::Event>),
    /// Ctrl-C or SIGTERM.
    Stop,
}

fn watch(args: &WatchArgs) -> Result<ExitCode, UsageError> {
    let cli = args.settings.cli_settings()?;
    let mut state = State::new(args, cli)?;

    let (tx, rx) = mpsc::channel::<Msg>();
    // The watcher starts before the first build, so nothing saved during it
    // is missed.
    let _watcher = if args.once {
        None
    } else {
        let events = tx.clone();
        let mut watcher = notify::recommended_watcher(move |e| {
            let _ = events.send(Msg::Fs(e));
        })
        .map_err(|e| UsageError(format!("cannot watch files: {e}")))?;
        for root in &state.roots {
            let (path, mode) = if root.is_dir {
                (root.path.as_path(), RecursiveMode::Recursive)
            } else {
                (parent_of(&root.path), RecursiveMode::NonRecursive)
            };
            watcher
                .watch(path, mode)
                .map_err(|e| UsageError(format!("cannot watch `{}`: {e}", path.display())))?;
        }
        // Without a handler, SIGINT/SIGTERM kill the process mid-rebuild with
        // a signal status; with it the current rebuild (and its atomic write)
        // finishes and the watch exits with status 0.
        let stop = tx.clone();
        ctrlc::set_handler(move || {
            let _ = stop.send(Msg::Stop);
        })
        .map_err(|e| UsageError(format!("cannot handle Ctrl-C: {e}")))?;
        Some(watcher)
    };
    drop(tx);

    let failed = state.initial_build();
    if args.once {
        return Ok(if state.io_errors > 0 {
            ExitCode::from(2)
        } else if failed > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    println!("watching for changes (Ctrl-C to stop)");
    flush();
    event_loop(&mut state, &rx, Duration::from_millis(args.debounce));
    Ok(ExitCode::SUCCESS)
}

/// Waits for events, settles them, rebuilds; until Ctrl-C.
fn event_loop(state: &mut State, rx: &Receiver<Msg>, debounce: Duration) {
    loop {
        let mut batch = Batch::default();
        match rx.recv() {
            Ok(Msg::Fs(e)) => batch.add(e),
            Ok(Msg::Stop) | Err(_) => return,
        }
        let first = Instant::now();
        let mut stop = false;
        loop {
            let wait = debounce.min(MAX_SETTLE.saturating_sub(first.elapsed()));
            if wait.is_zero() {
                break;
            }
            match rx.recv_timeout(wait) {
                Ok(Msg::Fs(e)) => batch.add(e),
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => {
                    stop = true;
                    break;
                }
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        if stop {
            return;
        }
        state.apply(batch);
    }
}

/// The paths touched by a burst of events.
#[derive(Default)]
struct Batch {
    paths: BTreeSet<PathBuf>,
    rescan: bool,
}

impl Batch {
    fn add(&mut self, event: notify::Result<notify::Event>) {
        match event {
            Ok(event) => {
                self.rescan |= event.need_rescan();
                // Opening and reading change nothing (and every rebuild reads:
                // taking them would rebuild forever); closing after writing
                // ends a save.
                if let EventKind::Access(kind) = event.kind {
                    if kind != AccessKind::Close(AccessMode::Write) {
                        return;
                    }
                }
                self.paths.extend(event.paths);
            }
            Err(e) => {
                eprintln!("ptxopt: watch error: {e}; rescanning");
                self.rescan = true;
            }
        }
    }
}

/// One PATH of the command line, canonical.
struct Root {
    path: PathBuf,
    is_dir: bool,
}

/// Where outputs go.
enum OutRule {
    /// `-o OUT` (one input file).
    Output(PathBuf),
    /// `--out-dir DIR`, canonical.
    OutDir(PathBuf),
    /// `<name>.opt.ptx` beside the input.
    Beside,
}

/// A file being watched.
struct Tracked {
    /// The configuration that applies (the key of its group).
    config: Option<PathBuf>,
    dest: PathBuf,
    display: String,
}

/// The files of one configuration, with their long-lived database.
struct Group {
    db: RootDatabase,
    log: EventLog,
}

struct State {
    roots: Vec<Root>,
    out: OutRule,
    explicit_config: Option<PathBuf>,
    cli: CliSettings,
    short: bool,
    cwd: Option<PathBuf>,
    groups: BTreeMap<Option<PathBuf>, Group>,
    files: BTreeMap<PathBuf, Tracked>,
    /// Output path -> the input written there.
    dests: BTreeMap<PathBuf, PathBuf>,
    io_errors: usize,
}

/// What building one file gave.
struct Outcome {
    diagnostics: String,
    errors: usize,
    warnings: usize,
    functions: usize,
    /// `Some(true)`: written; `Some(false)`: unchanged on disk; `None`: not
    /// written (errors).
    written: Option<bool>,
    io_error: Option<String>,
}

impl State {
    fn new(args: &WatchArgs, cli: CliSettings) -> Result<State, UsageError> {
        let mut roots = Vec::new();
        for path in &args.paths {
            if path.as_os_str() == "-" {
                return Err(UsageError(
                    "watch reads files, not standard input (`-`)".into(),
                ));
            }
            let canonical = path
                .canonicalize()
                .map_err(|e| UsageError(format!("cannot watch `{}`: {e}", path.display())))?;
            let is_dir = canonical.is_dir();
            roots.push(Root {
                path: canonical,
                is_dir,
            });
        }
        let out = match (&args.output, &args.out_dir) {
            (Some(out), _) => {
                if roots.len() != 1 || roots[0].is_dir || out.as_os_str() == "-" {
                    return Err(UsageError(
                        "-o/--output takes one input file (not `-`); use --out-dir otherwise"
                            .into(),
                    ));
                }
                OutRule::Output(absolute(out))
            }
            (None, Some(dir)) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| UsageError(format!("cannot create `{}`: {e}", dir.display())))?;
                OutRule::OutDir(
                    dir.canonicalize()
                        .map_err(|e| UsageError(format!("cannot use `{}`: {e}", dir.display())))?,
                )
            }
            (None, None) => OutRule::Beside,
        };
        let explicit_config = args.settings.config.clone();
        if let Some(path) = &explicit_config {
            settings::load_config(path)?;
        }
        let mut state = State {
            roots,
            out,
            explicit_config,
            cli,
            short: args.short,
            cwd: std::env::current_dir()
                .ok()
                .and_then(|d| d.canonicalize().ok()),
            groups: BTreeMap::new(),
            files: BTreeMap::new(),
            dests: BTreeMap::new(),
            io_errors: 0,
        };
        // Settings are checked up front (a usage error, exit 2), as in build.
        for path in state.scan_roots() {
            let config = settings::config_path_for(&path, state.explicit_config.as_deref());
            state.group(&config)?;
        }
        Ok(state)
    }

    /// Every input under the roots now.
    fn scan_roots(&self) -> BTreeSet<PathBuf> {
        let mut found = BTreeSet::new();
        for root in &self.roots {
            if root.is_dir {
                self.scan_dir(&root.path, &mut found);
            } else if root.path.is_file() {
                found.insert(root.path.clone());
            }
        }
        found
    }

    fn scan_dir(&self, dir: &Path, found: &mut BTreeSet<PathBuf>) {
        if self.is_output(dir) {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => self.scan_dir(&path, found),
                Ok(t)
                    if (t.is_file() || t.is_symlink())
                        && self.is_input(&path)
                        && path.is_file() =>
                {
                    found.insert(path);
                }
                _ => {}
            }
        }
    }

    /// An output of ours (never an input).
    fn is_output(&self, path: &Path) -> bool {
        match &self.out {
            OutRule::Output(out) => path == out,
            OutRule::OutDir(dir) => path.starts_with(dir),
            OutRule::Beside => false,
        }
    }

    /// Whether `path` is a file to build: a root file, or a `*.ptx` file under
    /// a root folder that is not hidden and not an output.
    fn is_input(&self, path: &Path) -> bool {
        if self.is_output(path) {
            return false;
        }
        if self.roots.iter().any(|r| !r.is_dir && r.path == path) {
            return true;
        }
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return false;
        };
        name.ends_with(".ptx")
            && !name.ends_with(".opt.ptx")
            && !name.starts_with('.')
            && self
                .roots
                .iter()
                .any(|r| r.is_dir && path.starts_with(&r.path))
    }

    /// The database of the configuration `config`, made on first use.
    fn group(&mut self, config: &Option<PathBuf>) -> Result<&mut Group, UsageError> {
        if !self.groups.contains_key(config) {
            let (mut db, log) = EventLog::new_database();
            settings::load_and_apply(&mut db, config.as_deref(), &self.cli)?;
            self.groups.insert(config.clone(), Group { db, log });
        }
        Ok(self.groups.get_mut(config).expect("inserted above"))
    }

    fn display(&self, path: &Path) -> String {
        match self
            .cwd
            .as_ref()
            .and_then(|cwd| path.strip_prefix(cwd).ok())
        {
            Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
            _ => path.display().to_string(),
        }
    }

    fn dest_for(&self, input: &Path) -> PathBuf {
        match &self.out {
            OutRule::Output(out) => out.clone(),
            OutRule::OutDir(dir) => {
                let rel = self
                    .roots
                    .iter()
                    .filter(|r| r.is_dir)
                    .find_map(|r| input.strip_prefix(&r.path).ok())
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| input.file_name().unwrap_or_default().into());
                dir.join(rel)
            }
            OutRule::Beside => input.with_file_name(default_output_name(input)),
        }
    }

    /// Starts tracking `path`; `false` (and a message) if it cannot be built.
    fn track(&mut self, path: &Path) -> bool {
        if self.files.contains_key(path) {
            return true;
        }
        let display = self.display(path);
        let config = settings::config_path_for(path, self.explicit_config.as_deref());
        if let Err(UsageError(message)) = self.group(&config) {
            eprintln!("ptxopt: error: {message}; not building `{display}`");
            return false;
        }
        let dest = self.dest_for(path);
        if let Some(other) = self.dests.get(&dest) {
            eprintln!(
                "ptxopt: error: `{}` and `{display}` would both be written to `{}`; \
                 not building `{display}`",
                self.display(other),
                self.display(&dest)
            );
            return false;
        }
        self.dests.insert(dest.clone(), path.to_path_buf());
        self.files.insert(
            path.to_path_buf(),
            Tracked {
                config,
                dest,
                display,
            },
        );
        true
    }

    fn forget(&mut self, path: &Path) {
        if let Some(t) = self.files.remove(path) {
            self.dests.remove(&t.dest);
            println!(
                "removed {}: output {} left in place",
                t.display,
                self.display(&t.dest)
            );
        }
    }

    /// Reads a file: its text, `Ok(None)` if it is gone.
    fn read(&mut self, path: &Path) -> Result<Option<String>, String> {
        let display = self.display(path);
        match std::fs::read(path) {
            Ok(bytes) => decode_utf8(&display, bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("ptxopt: error: cannot read `{display}`: {e}\n")),
        }
    }

    /// Builds every input once, in parallel within each group; prints a
    /// summary line. The number of files with errors.
    fn initial_build(&mut self) -> usize {
        let start = Instant::now();
        let mut texts: Vec<(PathBuf, String)> = Vec::new();
        let mut failed = 0;
        for path in self.scan_roots() {
            match self.read(&path) {
                Ok(Some(text)) => {
                    if self.track(&path) {
                        texts.push((path, text));
                    }
                }
                Ok(None) => {}
                Err(rendered) => {
                    eprint!("{rendered}");
                    failed += 1;
                }
            }
        }
        let mut by_group: BTreeMap<Option<PathBuf>, Vec<(PathBuf, SourceFile)>> = BTreeMap::new();
        for (path, text) in texts {
            let config = self.files[&path].config.clone();
            let group = self
                .groups
                .get_mut(&config)
                .expect("tracked files have a group");
            let file = group.db.set_file_text(&path, text);
            by_group.entry(config).or_default().push((path, file));
        }
        let (mut total, mut written, mut functions, mut warnings) = (0, 0, 0, 0);
        for (config, work) in by_group {
            let group = &self.groups[&config];
            let jobs: Vec<(SourceFile, &Tracked)> =
                work.iter().map(|(p, f)| (*f, &self.files[p])).collect();
            let outcomes = build_parallel(&group.db, &jobs, self.short);
            group.log.take(&group.db);
            for ((_, tracked), outcome) in jobs.iter().zip(outcomes) {
                total += 1;
                functions += outcome.functions;
                warnings += outcome.warnings;
                written += usize::from(outcome.written == Some(true));
                failed += usize::from(outcome.errors > 0);
                self.io_errors += usize::from(outcome.io_error.is_some());
                report_problems(&tracked.display, &outcome);
            }
        }
        println!(
            "built {total} file{}: {written} written, {failed} with errors, \
             {functions} function{}, {warnings} warning{}, {}",
            plural(total),
            plural(functions),
            plural(warnings),
            millis(start)
        );
        flush();
        failed
    }

    /// Rebuilds what a batch of events touched.
    fn apply(&mut self, batch: Batch) {
        let mut candidates: BTreeSet<PathBuf> = BTreeSet::new();
        if batch.rescan {
            candidates.extend(self.files.keys().cloned());
            candidates.extend(self.scan_roots());
        }
        for path in &batch.paths {
            if self.is_output(path) {
                continue;
            }
            if path.is_dir() {
                // A folder created or moved in: the files in it that are new
                // (changes to known files come with their own events).
                let mut found = BTreeSet::new();
                self.scan_dir(path, &mut found);
                candidates.extend(found.into_iter().filter(|f| !self.files.contains_key(f)));
            } else if path.exists() {
                if self.is_input(path) {
                    candidates.insert(path.clone());
                }
            } else {
                // Gone: a file, or a folder with the files that were in it.
                candidates.extend(self.files.keys().filter(|f| f.starts_with(path)).cloned());
            }
        }
        for path in candidates {
            self.update(&path);
        }
        flush();
    }

    /// Brings one file up to date with the disk.
    fn update(&mut self, path: &Path) {
        let start = Instant::now();
        let text = match self.read(path) {
            Ok(Some(text)) => text,
            Ok(None) => return self.forget(path),
            Err(rendered) => {
                eprint!("{rendered}");
                println!(
                    "rebuilt {}: cannot read, output not written",
                    self.display(path)
                );
                return;
            }
        };
        let known = self.files.contains_key(path);
        if !self.track(path) {
            return;
        }
        let tracked = &self.files[path];
        let group = self
            .groups
            .get_mut(&tracked.config)
            .expect("tracked files have a group");
        if known
            && group
                .db
                .file(path)
                .is_some_and(|f| *ptx_db::file_text(&group.db, f) == text)
        {
            return; // touched, not changed (or a change undone)
        }
        let file = group.db.set_file_text(path, text);
        let outcome = build_one(&group.db, file, tracked, self.short);
        let recomputed = recomputed_functions(&group.log.take(&group.db));
        report_problems(&tracked.display, &outcome);
        self.io_errors += usize::from(outcome.io_error.is_some());
        let mut line = format!("rebuilt {}: ", tracked.display);
        if outcome.written.is_some() {
            let n = usize::from(outcome.written == Some(true));
            let recomputed = recomputed.min(outcome.functions);
            line.push_str(&format!(
                "{n} file{} written{}, {recomputed} of {} function{} recomputed, {} reused",
                plural(n),
                if n == 0 { " (output unchanged)" } else { "" },
                outcome.functions,
                plural(outcome.functions),
                outcome.functions - recomputed
            ));
        } else {
            line.push_str(&format!(
                "{} error{}, output not written",
                outcome.errors,
                plural(outcome.errors)
            ));
        }
        if outcome.warnings > 0 {
            line.push_str(&format!(
                ", {} warning{}",
                outcome.warnings,
                plural(outcome.warnings)
            ));
        }
        println!("{line}, {}", millis(start));
    }
}

/// Builds files on clones of `db`, one thread per core at most.
fn build_parallel(db: &RootDatabase, jobs: &[(SourceFile, &Tracked)], short: bool) -> Vec<Outcome> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, jobs.len().max(1));
    let chunk = jobs.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                let db = db.clone();
                scope.spawn(move || {
                    part.iter()
                        .map(|(file, tracked)| build_one(&db, *file, tracked, short))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a build thread panicked"))
            .collect()
    })
}

/// Builds one file and writes its output unless it has errors or the output
/// on disk is already the same.
fn build_one(db: &RootDatabase, file: SourceFile, tracked: &Tracked, short: bool) -> Outcome {
    let built = ptx_db::build_file(db, file);
    let mut diagnostics = String::new();
    let (mut errors, warnings) = render_diagnostics(
        &mut diagnostics,
        &tracked.display,
        ptx_db::file_text(db, file),
        &built.diagnostics,
        short,
    );
    let mut outcome = Outcome {
        diagnostics,
        errors,
        warnings,
        functions: ptx_db::kernels(db, file).len(),
        written: None,
        io_error: None,
    };
    let Some(text) = built.text else {
        // A file ptxopt cannot lower is reported with an error diagnostic too.
        errors = errors.max(1);
        outcome.errors = errors;
        return outcome;
    };
    if std::fs::read(&tracked.dest).is_ok_and(|old| text.equals(&old)) {
        outcome.written = Some(false);
        return outcome;
    }
    let result = match tracked.dest.parent() {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
    .and_then(|()| write_atomically_with(&tracked.dest, &|out| text.write_to(out)));
    match result {
        Ok(()) => outcome.written = Some(true),
        Err(e) => {
            outcome.io_error = Some(format!("cannot write `{}`: {e}", tracked.dest.display()))
        }
    }
    outcome
}

/// Diagnostics and errors of one build, on stderr, worded as `ptxopt build`
/// words them.
fn report_problems(display: &str, outcome: &Outcome) {
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    let _ = stderr.write_all(outcome.diagnostics.as_bytes());
    if outcome.errors > 0 {
        let _ = writeln!(
            stderr,
            "ptxopt: `{display}` has errors; its output was not written"
        );
    }
    if let Some(e) = &outcome.io_error {
        let _ = writeln!(stderr, "ptxopt: error: {e}");
    }
}

/// How many functions went through the pipeline again, from the executed
/// queries (`query(kernel)`): those with a phase query or `kernel_ptx` among
/// them.
fn recomputed_functions(executed: &[String]) -> usize {
    let mut kernels: BTreeSet<&str> = BTreeSet::new();
    for event in executed {
        let Some((query, arg)) = event.split_once('(') else {
            continue;
        };
        if query == "kernel_ptx" || PHASES.iter().any(|p| p.query == query) {
            kernels.insert(arg);
        }
    }
    kernels.len()
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `path` made absolute (its folder canonical when it exists).
fn absolute(path: &Path) -> PathBuf {
    let parent = parent_of(path);
    match (parent.canonicalize(), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf()),
    }
}

fn millis(start: Instant) -> String {
    format!("{:.1} ms", start.elapsed().as_secs_f64() * 1000.0)
}

fn flush() {
    let _ = std::io::stdout().flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_kernels_with_pipeline_queries() {
        let last = PHASES.last().unwrap().query;
        let executed: Vec<String> = vec![
            "parse(k.ptx)".into(),
            "kernel_lowered(a)".into(),
            "kernel_ir(a)".into(),
            format!("{last}(a)"),
            "kernel_ptx(a)".into(),
            "kernel_ptx(b)".into(),
            "file_ptx(k.ptx)".into(),
        ];
        assert_eq!(recomputed_functions(&executed), 2);
        assert_eq!(recomputed_functions(&["kernel_ir(a)".to_string()]), 0);
    }
}
