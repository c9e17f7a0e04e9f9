//! ptxas 13.0.88 as the oracle for `ptxopt check`:
//! - every PTX file of test-data (families/, examples/, frontend/, syntax/ok/) is accepted by
//!   ptxas for its `.target`, and `check` reports no error on it;
//! - every file of test-data/rejected/ is rejected by ptxas, and `check` reports
//!   an error on it (the count we catch is printed; a floor guards regressions).
//!
//! Skips when ptxas is absent, unless `PTXOPT_REQUIRE_PTXAS` is set (as CI does).

use std::path::Path;

use ptx_test_support::{arch_for, ptx_files, ptxas, test_data};

/// Runs ptxas on a file; Ok on acceptance, Err(first error line) on rejection.
fn assemble(ptxas: &Path, path: &Path, text: &str) -> Result<(), String> {
    ptx_test_support::run_ptxas(ptxas, path, &arch_for(text))
        .map(|_| ())
        .map_err(|out| {
            out.lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .to_string()
        })
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
    for sub in ["families", "examples", "frontend", "syntax/ok"] {
        for path in ptx_files(&test_data().join(sub)) {
            let text = std::fs::read_to_string(&path).unwrap();
            count += 1;
            if let Err(e) = assemble(&ptxas, &path, &text) {
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
            assemble(&ptxas, path, &text).is_err(),
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
