//! `cargo xtask bench-analyze [FILE]`: how fast the analyses are, cold and
//! after an edit (default FILE: the dealii module of the shared corpus).
//!
//! (a) **Cold**: the `ptxopt analyze FILE --format json` command (release
//! build, output to /dev/null), process wall time from start to exit, as a
//! user runs it; against `ptxas -arch=sm_80 FILE -o /dev/null`, also process
//! wall time (when ptxas is found). Goal: at most 0.05x of ptxas. `ptxopt
//! analyze` checks the file, then computes what its report shows for every
//! function (CFG, loops, trip counts, pressure, latency, loop MII); it does not
//! compute value numbers or post-dominators, which it does not report. Also
//! printed: the same command with `--jobs 1` (one thread), and, in this
//! process, a new database running *every* analysis query of every function
//! (`ptx_db::analysis::analyze_file`, value numbers included) in one thread.
//!
//! (b) **Warm edit**: in a database that has analyzed the file, change one
//! instruction's immediate in one function (alternating between two values,
//! so each round is a real change) with `edit_file_text`, as the language
//! server applies an editor's change, then the same work as (a); against (a).
//! Also printed: the same edits given as whole texts (`set_file_text`, as
//! `ptxopt watch` applies a save), which adds a comparison of the texts; and
//! an edit that is not inside one token (a copy of the edited line inserted,
//! then removed), for which the function's chunk is parsed again instead of
//! having one token replaced in its old tree (`ptx_syntax::reparse`).
//! What re-runs: the edited chunk's tree (one token replaced in the old tree,
//! `ptx_syntax::reparse`), its check, skeleton and kernel list
//! (`ptx_db::Chunk`), the file's diagnostics (put together from the chunks'),
//! and the lowering and analyses of the edited function; every other memo is
//! only re-validated. Goal: at most 1% of cold.
//!
//! Medians of several runs, in a release build (a debug build re-runs itself
//! with `--release`); dropping a database is not timed. The warm edits are
//! timed after a few untimed ones (see `warm_median`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ptx_db::RootDatabase;

use crate::{dealii, display, find_ptxas, median, rerun_in_release};

pub fn run(file: Option<PathBuf>) -> Result<(), String> {
    let args: Vec<std::ffi::OsString> = file.iter().map(|f| f.clone().into_os_string()).collect();
    if let Some(result) = rerun_in_release("bench-analyze", &args) {
        return result;
    }
    let path = file.unwrap_or_else(dealii);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // The immediate of the first `add`/`mov` whose last operand is a decimal
    // number, inside a function body (after the first `{`).
    let (edit_at, immediate) = text
        .find('{')
        .and_then(|body| {
            let digits = crate::find_immediate(
                &text[body..],
                &["add.s32", "add.u32", "mov.u32", "add.s64"],
            )?;
            let value = text[body..][digits.clone()].parse::<u64>().ok()?;
            Some((body + digits.start, value))
        })
        .ok_or("no `add`/`mov` with an immediate to edit")?;
    let edited = [
        text.clone(),
        format!(
            "{}{}{}",
            &text[..edit_at],
            immediate + 1,
            &text[edit_at + immediate.to_string().len()..]
        ),
    ];
    let functions = {
        let mut db = RootDatabase::new();
        let file = db.set_file_text(&path, text.as_str());
        ptx_db::kernels(&db, file).len()
    };
    println!(
        "file: {} ({:.3} MB, {} lines, {} functions)",
        display(&path),
        text.len() as f64 / 1e6,
        text.lines().count(),
        functions
    );
    let line = text[..edit_at].matches('\n').count() + 1;
    println!(
        "edit: the immediate {immediate} on line {line} becomes {}, and back",
        immediate + 1
    );

    // (a) cold.
    let ptxopt = build_ptxopt()?;
    let cold_runs = 7;
    let (cold, cold_one_thread) = crate::cold_ptxopt_times(
        &ptxopt,
        "analyze",
        &[
            "analyze".as_ref(),
            path.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ],
        cold_runs,
    )?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "cold `ptxopt analyze FILE` (process wall, {threads} threads): {:8.2} ms  (median of {cold_runs})",
        cold * 1e3
    );
    println!(
        "cold `ptxopt analyze FILE --jobs 1` (one thread):    {:8.2} ms  (median of {cold_runs})",
        cold_one_thread * 1e3
    );
    let _ = analyze_cold(&path, &text); // warm-up (allocator)
    let in_process = median(cold_runs, || analyze_cold(&path, &text));
    println!(
        "in process, new database, check + every analysis query (value numbers too), one thread: {:8.2} ms",
        in_process * 1e3
    );
    match find_ptxas() {
        Some(ptxas) => {
            let runs = 3;
            let mut failed = None;
            let t = median(runs, || {
                let start = Instant::now();
                match Command::new(&ptxas)
                    .args(["-arch=sm_80"])
                    .arg(&path)
                    .args(["-o", "/dev/null"])
                    .output()
                {
                    Ok(out) if out.status.success() => {}
                    Ok(out) => failed = Some(String::from_utf8_lossy(&out.stderr).into_owned()),
                    Err(e) => failed = Some(e.to_string()),
                }
                start.elapsed().as_secs_f64()
            });
            if let Some(why) = failed {
                println!("ptxas failed on the file: {why}");
            } else {
                println!(
                    "ptxas -arch=sm_80 (wall):                          {:8.2} ms  (median of {runs})",
                    t * 1e3
                );
                println!(
                    "(a) cold `ptxopt analyze` / ptxas = {:.4}x  (goal <= 0.05x); one thread: {:.4}x",
                    cold / t,
                    cold_one_thread / t
                );
            }
        }
        None => println!("ptxas not found (PTXOPT_CUDA_HOME): (a) has no ratio"),
    }

    // (b) warm: one database, edits alternating between the two values, as
    // an editor sends them (a range and its replacement).
    let values = [immediate.to_string(), (immediate + 1).to_string()];
    let warm_runs = 31;
    let warm = warm_median(&path, &text, warm_runs, |db, file, round| {
        let (old, new) = (&values[(round + 1) % 2], &values[round % 2]);
        db.edit_file_text(file, edit_at..edit_at + old.len(), new)
            .expect("the immediate is in the text");
    });
    println!(
        "re-analyze after the edit (warm database):         {:8.3} ms  (median of {warm_runs})",
        warm * 1e3
    );
    println!(
        "(b) warm edit / cold (both in process, every analysis query) = {:.2}%  (goal <= 1%)",
        warm / in_process * 100.0
    );
    // The same edits given as whole texts (`set_file_text`, as `ptxopt
    // watch` does on a save): the database compares them with the old text.
    let whole = warm_median(&path, &text, warm_runs, |db, _, round| {
        db.set_file_text(&path, edited[round % 2].as_str());
    });
    println!(
        "  the same edit given as the whole new text:      {:8.3} ms  ({:.2}% of cold)",
        whole * 1e3,
        whole / in_process * 100.0
    );
    // An edit that is not inside one token (so the chunk is parsed again): a
    // copy of the edited line inserted before it, then removed.
    let line_start = text[..edit_at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[edit_at..]
        .find('\n')
        .map_or(text.len(), |i| edit_at + i + 1);
    let line_text = &text[line_start..line_end];
    let structural = warm_median(&path, &text, warm_runs, |db, file, round| {
        if round % 2 == 1 {
            db.edit_file_text(file, line_start..line_start, line_text)
        } else {
            db.edit_file_text(file, line_start..line_end, "")
        }
        .expect("the line is in the text");
    });
    println!(
        "  a line of that function copied, then removed:   {:8.3} ms  ({:.2}% of cold)",
        structural * 1e3,
        structural / in_process * 100.0
    );
    // Where the time goes: each step timed after the previous one is
    // memoized (cold: a new database; warm: after an edit).
    let mut analyses = [0.0; 2];
    for (label, warm) in [("cold", false), ("warm", true)] {
        let steps = breakdown(&path, &edited, warm, warm_runs);
        let parts: Vec<String> = steps
            .iter()
            .map(|(name, t)| format!("{name} {:.2} ms", t * 1e3))
            .collect();
        println!("  {label} steps: {}", parts.join(", "));
        analyses[usize::from(warm)] = steps.last().map_or(0.0, |s| s.1);
    }
    println!(
        "  the analysis queries alone: warm edit / cold = {:.2}%",
        analyses[1] / analyses[0] * 100.0
    );
    Ok(())
}

/// Median time of each step: parse, check, lowering of every function (and
/// the kernel split), the analyses.
fn breakdown(
    path: &Path,
    texts: &[String; 2],
    warm: bool,
    runs: usize,
) -> Vec<(&'static str, f64)> {
    let mut times: Vec<[f64; 4]> = Vec::new();
    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, texts[0].as_str());
    if warm {
        analyze(&db, file);
    }
    for round in 1..=runs {
        if !warm {
            db = RootDatabase::new();
        }
        let file = db.set_file_text(path, texts[round % 2].as_str());
        let mut t = [0.0; 4];
        let start = Instant::now();
        std::hint::black_box(ptx_db::parse(&db, file));
        t[0] = start.elapsed().as_secs_f64();
        let start = Instant::now();
        std::hint::black_box(ptx_db::file_diagnostics(&db, file).len());
        t[1] = start.elapsed().as_secs_f64();
        let start = Instant::now();
        for &k in ptx_db::kernels(&db, file) {
            std::hint::black_box(ptx_db::kernel_ir(&db, k));
        }
        t[2] = start.elapsed().as_secs_f64();
        let start = Instant::now();
        ptx_db::analysis::analyze_file(&db, file);
        t[3] = start.elapsed().as_secs_f64();
        times.push(t);
    }
    let names = ["parse", "check", "split+lower", "analyses"];
    (0..4)
        .map(|i| {
            let mut v: Vec<f64> = times.iter().map(|t| t[i]).collect();
            v.sort_by(f64::total_cmp);
            (names[i], v[v.len() / 2])
        })
        .collect()
}

/// Builds `ptxopt` (release) and returns the binary's path.
pub(crate) fn build_ptxopt() -> Result<PathBuf, String> {
    let root = crate::workspace_root();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "--package", "ptxopt"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building ptxopt failed ({status})"));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release/ptxopt"))
}

/// Median seconds of `runs` rounds of `edit` (given the round, from 1) and a
/// re-analysis, in one database that has analyzed `text` first and then made
/// [`WARM_UP_EDITS`] untimed rounds (the steady state of an editing session:
/// on this VM the first rounds after a database is built, and after the cold
/// runs freed theirs, can take twice as long while the allocator's fresh
/// memory is first touched).
fn warm_median(
    path: &Path,
    text: &str,
    runs: usize,
    mut edit: impl FnMut(&mut RootDatabase, ptx_db::SourceFile, usize),
) -> f64 {
    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, text);
    analyze(&db, file);
    let mut round = 0;
    for _ in 0..WARM_UP_EDITS {
        round += 1;
        edit(&mut db, file, round);
        analyze(&db, file);
    }
    median(runs, || {
        round += 1;
        let start = Instant::now();
        edit(&mut db, file, round);
        analyze(&db, file);
        start.elapsed().as_secs_f64()
    })
}

/// Untimed edits before the timed ones of [`warm_median`] (even, so the
/// timed rounds start from the original text).
const WARM_UP_EDITS: usize = 4;

/// Check and analyze every function of a file already set.
fn analyze(db: &RootDatabase, file: ptx_db::SourceFile) {
    std::hint::black_box(ptx_db::file_diagnostics(db, file).len());
    ptx_db::analysis::analyze_file(db, file);
}

/// Seconds for a cold analysis (the database is dropped outside the timing).
fn analyze_cold(path: &Path, text: &str) -> f64 {
    let start = Instant::now();
    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, text);
    analyze(&db, file);
    let t = start.elapsed().as_secs_f64();
    drop(db);
    t
}
