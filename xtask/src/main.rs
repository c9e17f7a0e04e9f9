//! Project tasks: `cargo xtask <task>`.
//!
//! - `test`: installs the CUDA 13.0.88 tools (ptxas, the test oracle) through
//!   `../shared/tools/cuda-toolchain.sh` when present, then runs the workspace
//!   tests with `PTXOPT_CUDA_HOME` set. With `CI` set, a missing ptxas or corpus
//!   is a failure (`PTXOPT_REQUIRE_PTXAS`, `PTXOPT_REQUIRE_CORPUS`).
//! - `bench-parse [FILE]`: lex and lex+parse throughput in MB/s on one core
//!   (default: the dealii module of the shared corpus).
//! - `pressure`: our maximum live R per function beside ptxas `-v`'s "Used N
//!   registers" over the shared corpus (ptxas-accepted zluda files, dealii)
//!   and `test-data/examples`: a table and a summary (median ratio, share
//!   within ±20%). See [`pressure`].
//! - `bench-analyze [FILE]`: cold analysis of a module in a new database
//!   against `ptxas` on the same file, and re-analysis after a one-function
//!   edit in a warm database against cold. See [`bench_analyze`].
//! - `bench-build [FILE]`: cold `ptxopt build` of a module (every
//!   implemented phase) against `ptxas -O3` on the same file, and a rebuild
//!   after a one-function edit in a warm database against cold. See
//!   [`bench_build`].
//! - `bench-lsp [FILE] [--iterations N]`: the language server in process; a
//!   one-character edit in a function, then the time until its diagnostics
//!   and inlay hints arrive (p50/p90/p99/max), and the memory with the file
//!   open. See [`bench_lsp`].
//! - `bench-quality [--format text|json]`: every kernel of `test-data/cuda`
//!   (and `bench/`) compiled by nvcc `-Xcicc -O0` and `-O3`, each also through
//!   `ptxopt build`: static and dynamic (emulator) instruction counts, ptxas
//!   registers and spills, SASS instructions, and their medians. See
//!   [`bench_quality`].
//! - `regs`: ptxas registers of `ptxopt build`'s output against its input's,
//!   per function, over the corpus, `test-data/examples` and nvcc -O3 of
//!   `test-data/cuda`: the share not worse (goal >= 99%) and new spills. See
//!   [`regs`].

/// The allocator the `ptxopt` binary uses (syntax trees are allocation-heavy:
/// mimalloc takes ~13% fewer instructions per parse than glibc malloc, and frees
/// trees far faster), so that `bench-parse` measures what users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench_analyze;
mod bench_build;
mod bench_lsp;
mod bench_quality;
mod pressure;
mod regs;
mod unroll_fidelity;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("bench-parse") => bench_parse(args.get(1).map(PathBuf::from)),
        Some("pressure") => pressure::run(),
        Some("bench-analyze") => bench_analyze::run(args.get(1).map(PathBuf::from)),
        Some("bench-build") => bench_build::run(args.get(1).map(PathBuf::from)),
        Some("bench-lsp") => bench_lsp::run(&args[1..]),
        Some("bench-quality") => bench_quality::run(&args[1..]),
        Some("regs") => regs::run(),
        Some("unroll-fidelity") => unroll_fidelity::run(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <test [cargo test args...] | bench-parse [FILE] | pressure \
                 | bench-analyze [FILE] | bench-build [FILE] | bench-lsp [FILE] [--iterations N] \
                 | bench-quality [--format text|json] | regs | unroll-fidelity [--format text|json]>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .to_path_buf()
}

/// Installs (or finds) the CUDA tools and returns their folder.
fn cuda_home() -> Result<Option<PathBuf>, String> {
    if let Some(home) = std::env::var_os("PTXOPT_CUDA_HOME") {
        let home = PathBuf::from(home);
        if home.join("bin/ptxas").exists() {
            return Ok(Some(home));
        }
    }
    let script = workspace_root().join("../shared/tools/cuda-toolchain.sh");
    if !script.exists() {
        return Ok(None);
    }
    eprintln!(
        "xtask: installing CUDA 13.0.88 tools with {}",
        script.display()
    );
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "cuda-toolchain.sh failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let folder = String::from_utf8_lossy(&out.stdout)
        .trim()
        .lines()
        .last()
        .unwrap_or("")
        .to_string();
    Ok(Some(PathBuf::from(folder)))
}

fn test(extra: &[String]) -> Result<(), String> {
    let ci = std::env::var_os("CI").is_some();
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(workspace_root())
        .args(["test", "--workspace"])
        .args(extra);
    match cuda_home()? {
        Some(home) => {
            eprintln!(
                "xtask: ptxas oracle at {}",
                home.join("bin/ptxas").display()
            );
            cmd.env("PTXOPT_CUDA_HOME", home);
        }
        None if ci => {
            return Err(
                "ptxas is required in CI but ../shared/tools/cuda-toolchain.sh is missing".into(),
            )
        }
        None => eprintln!("xtask: ptxas not available; oracle tests will be skipped"),
    }
    if ci {
        cmd.env("PTXOPT_REQUIRE_PTXAS", "1")
            .env("PTXOPT_REQUIRE_CORPUS", "1");
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo test failed ({status})"))
    }
}

/// In a debug build, re-runs `cargo xtask TASK ARGS` optimized and returns
/// its result (`Some`); in a release build, `None`: go on. Benchmarks mean
/// nothing in a debug build.
fn rerun_in_release(task: &str, args: &[std::ffi::OsString]) -> Option<Result<(), String>> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(workspace_root())
        .args([
            "run",
            "--quiet",
            "--release",
            "--package",
            "xtask",
            "--",
            task,
        ])
        .args(args);
    Some(match cmd.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("{task} failed ({status})")),
        Err(e) => Err(format!("cannot run cargo: {e}")),
    })
}

/// The dealii module of the shared corpus (the default benchmark input).
fn dealii() -> PathBuf {
    workspace_root().join("../shared/corpus/dealii/matrix_free_device_matrix_vector_01.1.sm_80.ptx")
}

/// ptxas 13.0.88: `$PTXOPT_CUDA_HOME/bin/ptxas`, else
/// `~/.cache/ptxopt/cuda-13.0.88/bin/ptxas`, when it exists.
fn find_ptxas() -> Option<PathBuf> {
    let home = std::env::var_os("PTXOPT_CUDA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ptxopt/cuda-13.0.88"))
        })?;
    Some(home.join("bin/ptxas")).filter(|p| p.exists())
}

fn bench_parse(file: Option<PathBuf>) -> Result<(), String> {
    let args: Vec<std::ffi::OsString> = file.iter().map(|f| f.clone().into_os_string()).collect();
    if let Some(result) = rerun_in_release("bench-parse", &args) {
        return result;
    }
    let path = file.unwrap_or_else(dealii);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mb = text.len() as f64 / 1e6;
    println!(
        "file: {} ({:.3} MB, {} lines)",
        display(&path),
        mb,
        text.lines().count()
    );
    // Warm up, then take the median of several timed runs of each phase.
    let _ = ptx_syntax::parse(&text);
    let runs = 25;
    let lex = median(runs, || {
        let t = Instant::now();
        std::hint::black_box(ptx_syntax::lexer::tokenize(&text));
        t.elapsed().as_secs_f64()
    });
    let parse = median(runs, || {
        let t = Instant::now();
        let p = ptx_syntax::parse(&text);
        let elapsed = t.elapsed().as_secs_f64();
        drop(p); // outside the timed region
        elapsed
    });
    println!("lex:          {:8.1} MB/s  ({:.2} ms)", mb / lex, lex * 1e3);
    println!(
        "lex + parse:  {:8.1} MB/s  ({:.2} ms)",
        mb / parse,
        parse * 1e3
    );
    println!("median of {runs} runs on one thread; tree drop not timed");
    Ok(())
}

fn median(runs: usize, mut f: impl FnMut() -> f64) -> f64 {
    let mut times: Vec<f64> = (0..runs).map(|_| f()).collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// In `body`, the first line starting with one of `ops` whose last operand
/// (before the `;`) is a decimal immediate: the byte range of its digits.
/// The benchmarks edit it to simulate a keystroke.
fn find_immediate(body: &str, ops: &[&str]) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if ops.iter().any(|op| trimmed.starts_with(op)) {
            if let Some(semi) = line.find(';') {
                let before = &line[..semi];
                let start = before
                    .rfind(|c: char| !c.is_ascii_digit())
                    .map_or(0, |i| i + 1);
                if start < semi && before[..start].trim_end().ends_with(',') {
                    return Some(offset + start..offset + semi);
                }
            }
        }
        offset += line.len();
    }
    None
}

fn display(path: &Path) -> String {
    path.canonicalize()
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Runs `ptxopt ARGS` as a process `runs` times with all threads and `runs`
/// times with `--jobs 1`, after one warm-up (page cache); the median wall
/// seconds of each. `what` names the command in errors.
fn cold_ptxopt_times(
    ptxopt: &Path,
    what: &str,
    args: &[&std::ffi::OsStr],
    runs: usize,
) -> Result<(f64, f64), String> {
    let run = |jobs: Option<&str>| -> Result<f64, String> {
        let mut cmd = Command::new(ptxopt);
        cmd.args(args).stdout(std::process::Stdio::null());
        if let Some(jobs) = jobs {
            cmd.args(["--jobs", jobs]);
        }
        let start = Instant::now();
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", ptxopt.display()))?;
        let t = start.elapsed().as_secs_f64();
        if !out.status.success() {
            return Err(format!(
                "ptxopt {what} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(t)
    };
    run(None)?;
    let mut failed = None;
    let mut timed = |jobs: Option<&'static str>| {
        median(runs, || {
            run(jobs).unwrap_or_else(|e| {
                failed = Some(e);
                f64::NAN
            })
        })
    };
    let all = timed(None);
    let one = timed(Some("1"));
    match failed {
        Some(e) => Err(e),
        None => Ok((all, one)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn find_immediate_finds_the_last_decimal_operand() {
        let body = "{\n\tmov.u32 %r1, %r2;\n\tadd.s32 %r3, %r1, 17;\n\tadd.s32 %r4, %r1, 5;\n}\n";
        let range = super::find_immediate(body, &["add.s32", "mov.u32"]).unwrap();
        assert_eq!(&body[range], "17");
        assert_eq!(super::find_immediate(body, &["mov.u32"]), None);
    }
}
