//! `ptxopt check FILE...`

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptx_syntax::check;

use crate::build_cmd::{read_input, render_diagnostics, ReadError};
use crate::render::plural;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// PTX files to check (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print only the `path:line:col: severity: message` lines, without source excerpts.
    #[arg(long)]
    short: bool,
    /// Suppress the summary line on standard error.
    #[arg(long, short)]
    quiet: bool,
    /// The architecture the files will be assembled for, e.g. `sm_90`; a
    /// `.target` above it is reported, as ptxas does.
    #[arg(long, value_name = "sm_XX", value_parser = parse_arch)]
    arch: Option<u32>,
}

/// `sm_90`, `sm_90a`, `compute_90` -> 90 (the names `--arch` takes everywhere).
pub fn parse_arch(text: &str) -> Result<u32, String> {
    crate::settings::parse_arch(text)
        .map(|arch| arch.sm)
        .map_err(|e| e.0)
}

/// What checking one file produced.
struct FileReport {
    output: String,
    errors: usize,
    warnings: usize,
    io_error: Option<String>,
}

pub fn run(args: CheckArgs) -> ExitCode {
    let options = check::CheckOptions { arch: args.arch };
    let reports = check_files(&args.files, args.short, options);
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let mut errors = 0;
    let mut warnings = 0;
    let mut io_errors = 0;
    for report in &reports {
        let _ = stdout.write_all(report.output.as_bytes());
        if let Some(e) = &report.io_error {
            eprintln!("ptxopt: error: {e}");
            io_errors += 1;
        }
        errors += report.errors;
        warnings += report.warnings;
    }
    let _ = stdout.flush();
    if !args.quiet {
        let files = reports.len();
        eprintln!(
            "checked {files} file{}: {errors} error{}, {warnings} warning{}",
            plural(files),
            plural(errors),
            plural(warnings)
        );
    }
    if io_errors > 0 {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks files on all cores; reports come back in input order.
fn check_files(files: &[PathBuf], short: bool, options: check::CheckOptions) -> Vec<FileReport> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<FileReport>> = (0..files.len()).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let report = check_one(path, short, options);
                results.lock().expect("no poisoned lock")[i] = Some(report);
            });
        }
    });
    slots
        .into_iter()
        .map(|r| r.expect("every file checked"))
        .collect()
}

fn check_one(path: &Path, short: bool, options: check::CheckOptions) -> FileReport {
    let input = read_input(path);
    let text = match input.text {
        Ok(text) => text,
        Err(ReadError::Io(message)) => {
            return FileReport {
                output: String::new(),
                errors: 0,
                warnings: 0,
                io_error: Some(message),
            }
        }
        Err(ReadError::NotUtf8(rendered)) => {
            return FileReport {
                output: rendered,
                errors: 1,
                warnings: 0,
                io_error: None,
            }
        }
    };
    let diags = check::diagnostics_with(&ptx_syntax::parse(&text), options);
    let mut output = String::new();
    let (errors, warnings) = render_diagnostics(&mut output, &input.display, &text, &diags, short);
    FileReport {
        output,
        errors,
        warnings,
        io_error: None,
    }
}
