//! ptxas 13.0.88 as the oracle for `ptxopt check`:
//! - every PTX file of test-data (families/, examples/, syntax/ok/) is accepted by
//!   ptxas for its `.target`, and `check` reports no error on it;
//! - every file of test-data/rejected/ is rejected by ptxas, and `check` reports
//!   an error on it (the count we catch is printed; a floor guards regressions).
//!
//! Skips when ptxas is absent, unless `PTXOPT_REQUIRE_PTXAS` is set (as CI does).

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptxas() -> Option<PathBuf> {
    let home = std::env::var_os("PTXOPT_CUDA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ptxopt/cuda-13.0.88"))
        });
    let ptxas = home.map(|h| h.join("bin/ptxas")).filter(|p| p.exists());
    if ptxas.is_none() {
        if std::env::var_os("PTXOPT_REQUIRE_PTXAS").is_some() {
            panic!("ptxas not found (set PTXOPT_CUDA_HOME); PTXOPT_REQUIRE_PTXAS is set");
        }
        eprintln!("skipping: ptxas not found (set PTXOPT_CUDA_HOME)");
    }
    ptxas
}

fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data")
}

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    files
}

/// The `-arch` to assemble a file for: its `.target` (ptxas 13 supports sm_75 and
/// up, so older targets are assembled for sm_75).
fn arch_for(text: &str) -> String {
    let parse = ptx_syntax::parse(text);
    match parse.tree().target().and_then(|t| t.sm_name()) {
        Some(tok) => {
            let name = tok.text().replace("compute_", "sm_");
            let number: u32 = name[3..]
                .trim_end_matches(|c: char| c.is_alphabetic())
                .parse()
                .unwrap_or(75);
            if number < 75 {
                "sm_75".into()
            } else {
                name
            }
        }
        None => "sm_90".into(),
    }
}

/// Runs ptxas; Ok on acceptance, Err(first error line) on rejection.
fn run_ptxas(ptxas: &Path, path: &Path, text: &str) -> Result<(), String> {
    let out = Command::new(ptxas)
        .arg(format!("-arch={}", arch_for(text)))
        .arg(path)
        .args(["-o", "/dev/null"])
        .output()
        .expect("run ptxas");
    if out.status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        Err(stderr.lines().next().unwrap_or("").to_string())
    }
}

fn error_messages(text: &str) -> Vec<String> {
    let parse = ptx_syntax::parse(text);
    ptx_syntax::check::diagnostics(&parse)
        .into_iter()
        .filter(|d| d.severity == ptx_syntax::check::Severity::Error)
        .map(|d| {
            let lc = ptx_syntax::line_index::LineIndex::new(text).line_col(text, d.range.start());
            format!("{}:{}: {}", lc.line, lc.col, d.message)
        })
        .collect()
}

#[test]
fn accepted_files_have_no_errors() {
    let Some(ptxas) = ptxas() else { return };
    let mut problems = Vec::new();
    let mut count = 0;
    for sub in ["families", "examples", "syntax/ok"] {
        for path in ptx_files(&test_data().join(sub)) {
            let text = std::fs::read_to_string(&path).unwrap();
            count += 1;
            if let Err(e) = run_ptxas(&ptxas, &path, &text) {
                problems.push(format!("{}: ptxas rejects it: {e}", path.display()));
                continue;
            }
            for msg in error_messages(&text) {
                problems.push(format!("{}:{msg}", path.display()));
            }
        }
    }
    assert!(count >= 30, "only {count} files");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn rejected_files_are_reported() {
    let Some(ptxas) = ptxas() else { return };
    let files = ptx_files(&test_data().join("rejected"));
    let mut caught = 0;
    let mut missed = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(
            run_ptxas(&ptxas, path, &text).is_err(),
            "{}: ptxas accepts it",
            path.display()
        );
        if error_messages(&text).is_empty() {
            let expect = text.lines().next().unwrap_or("").to_string();
            missed.push(format!("{} ({expect})", path.display()));
        } else {
            caught += 1;
        }
    }
    eprintln!(
        "check reports an error on {caught} of {} ptxas-rejected test-data files",
        files.len()
    );
    for m in &missed {
        eprintln!("  missed: {m}");
    }
    assert!(
        caught * 10 >= files.len() * 9,
        "only {caught} of {} caught:\n{}",
        files.len(),
        missed.join("\n")
    );
}
