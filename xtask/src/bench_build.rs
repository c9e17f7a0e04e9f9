//! `cargo xtask bench-build [FILE]`: how fast the optimizer is, cold and
//! after a one-function edit (default FILE: the dealii module of the shared
//! corpus). `bench-analyze` measures the analyses; this measures `ptxopt
//! build`, the whole default pipeline with every implemented phase.
//!
//! (a) **Cold**: `ptxopt build FILE -o OUT -q` (release build), process
//! wall time, as a user runs it, against `ptxas -O3 -arch=sm_80 FILE -o
//! /dev/null` (process wall time). Goal: at most 0.1x of ptxas. Also
//! printed: the same with `--jobs 1`.
//!
//! (b) **Warm edit**: in one database that has built the file, one
//! instruction's immediate in one function changes (alternating between
//! two values) through `edit_file_text`, as the language server applies an
//! editor's change, and the file is built again (`build_file`: every phase
//! of the edited function re-runs, the other functions' memos are
//! re-validated, and the output text is put together again), against a cold
//! in-process build (a new database, the same `build_file`). Goal: at most
//! 2% of cold.
//!
//! Medians of several runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ptx_db::RootDatabase;

use crate::{dealii, display, find_ptxas, median, rerun_in_release};

pub fn run(file: Option<PathBuf>) -> Result<(), String> {
    let args: Vec<std::ffi::OsString> = file.iter().map(|f| f.clone().into_os_string()).collect();
    if let Some(result) = rerun_in_release("bench-build", &args) {
        return result;
    }
    let path = file.unwrap_or_else(dealii);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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
    let implemented = ptx_db::PHASES.iter().filter(|p| p.implemented).count();
    println!(
        "file: {} ({:.3} MB, {} lines); {implemented} of {} phases implemented",
        display(&path),
        text.len() as f64 / 1e6,
        text.lines().count(),
        ptx_db::PHASES.len()
    );

    // (a) cold, as a process.
    let ptxopt = crate::bench_analyze::build_ptxopt()?;
    let out = std::env::temp_dir().join(format!("ptxopt-bench-build-{}.ptx", std::process::id()));
    let runs = 5;
    let (cold, cold_one) = crate::cold_ptxopt_times(
        &ptxopt,
        "build",
        &[
            "build".as_ref(),
            path.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
            "-q".as_ref(),
        ],
        runs,
    )?;
    let _ = std::fs::remove_file(&out);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "cold `ptxopt build FILE` (process wall, {threads} threads): {:9.2} ms  (median of {runs})",
        cold * 1e3
    );
    println!(
        "cold `ptxopt build FILE --jobs 1`:                  {:9.2} ms  (median of {runs})",
        cold_one * 1e3
    );
    match find_ptxas() {
        Some(ptxas) => {
            let ptxas_runs = 3;
            let mut failed = None;
            let t = median(ptxas_runs, || {
                let start = Instant::now();
                match Command::new(&ptxas)
                    .args(["-O3", "-arch=sm_80"])
                    .arg(&path)
                    .args(["-o", "/dev/null"])
                    .output()
                {
                    Ok(o) if o.status.success() => {}
                    Ok(o) => failed = Some(String::from_utf8_lossy(&o.stderr).into_owned()),
                    Err(e) => failed = Some(e.to_string()),
                }
                start.elapsed().as_secs_f64()
            });
            match failed {
                Some(why) => println!("ptxas failed on the file: {why}"),
                None => {
                    println!(
                        "ptxas -O3 -arch=sm_80 (wall):                       {:9.2} ms  (median of {ptxas_runs})",
                        t * 1e3
                    );
                    println!(
                        "(a) cold `ptxopt build` / `ptxas -O3` = {:.4}x  (goal <= 0.1x); one thread: {:.4}x",
                        cold / t,
                        cold_one / t
                    );
                }
            }
        }
        None => println!("ptxas not found (PTXOPT_CUDA_HOME): (a) has no ratio"),
    }

    // (b) in process: cold build in a new database, then warm edits.
    let _ = build_cold(&path, &text); // warm-up (allocator)
    let in_process = median(3, || build_cold(&path, &text));
    println!(
        "in process, new database, build_file (every phase, one thread): {:9.2} ms",
        in_process * 1e3
    );
    let values = [immediate.to_string(), (immediate + 1).to_string()];
    let mut db = RootDatabase::new();
    let file = db.set_file_text(&path, text.as_str());
    build(&db, file)?;
    let mut round = 0usize;
    let mut edit = |db: &mut RootDatabase| {
        round += 1;
        let (old, new) = (&values[(round + 1) % 2], &values[round % 2]);
        db.edit_file_text(file, edit_at..edit_at + old.len(), new)
            .map(|_| ())
            .map_err(|e| format!("edit failed: {e:?}"))
    };
    for _ in 0..4 {
        edit(&mut db)?;
        build(&db, file)?;
    }
    let warm_runs = 15;
    let mut failed = None;
    let warm = median(warm_runs, || {
        let start = Instant::now();
        if let Err(e) = edit(&mut db).and_then(|()| build(&db, file)) {
            failed = Some(e);
        }
        start.elapsed().as_secs_f64()
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let line = text[..edit_at].matches('\n').count() + 1;
    println!(
        "rebuild after editing the immediate on line {line} (warm database): {:9.3} ms  (median of {warm_runs})",
        warm * 1e3
    );
    println!(
        "(b) warm one-function edit / cold (in process) = {:.2}%  (goal <= 2%)",
        warm / in_process * 100.0
    );
    Ok(())
}

fn build(db: &RootDatabase, file: ptx_db::SourceFile) -> Result<(), String> {
    let built = ptx_db::build_file(db, file);
    match built.text {
        Some(t) => {
            std::hint::black_box(t.len());
            Ok(())
        }
        None => Err(format!("the file does not build: {:?}", built.diagnostics)),
    }
}

/// Seconds for a cold in-process build (the database dropped outside the
/// timing).
fn build_cold(path: &Path, text: &str) -> f64 {
    let start = Instant::now();
    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, text);
    let ok = build(&db, file).is_ok();
    let t = start.elapsed().as_secs_f64();
    drop(db);
    if ok {
        t
    } else {
        f64::NAN
    }
}
