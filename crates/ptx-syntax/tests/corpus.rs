//! The shared corpus of real PTX (`../shared/corpus/`, see its README): every file
//! that ptxas accepts parses with zero errors and round-trips byte for byte.

use std::path::PathBuf;

use ptx_test_support::{
    corpus_dir, ptx_files_recursive as corpus_files, zluda_rejected as ptxas_rejected,
};

#[test]
fn corpus_parses_without_errors_and_round_trips() {
    let Some(dir) = corpus_dir() else { return };
    let rejected = ptxas_rejected(&dir);
    let mut failures = Vec::new();
    let mut count = 0;
    for path in corpus_files(&dir) {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        assert_eq!(
            parse.syntax_node().to_string(),
            text,
            "{} does not round-trip",
            path.display()
        );
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let in_32 = path.parent().is_some_and(|p| p.ends_with("32"));
        if rejected.contains(&name) || in_32 {
            continue;
        }
        count += 1;
        // The full check, as `ptxopt check --arch sm_90` runs it (the arch of
        // spirv_run.json's verdicts; dealii targets sm_80).
        let options = ptx_syntax::check::CheckOptions { arch: Some(90) };
        if let Some(e) = ptx_syntax::check::diagnostics_with(&parse, options).first() {
            failures.push(format!("{}: {:?}: {}", path.display(), e.range, e.message));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files with errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 185, "only {count} corpus files found");
}

/// Every PTX file in test-data that ptxas accepts (all but `rejected/` and the
/// syntax error cases) parses with zero syntax errors and round-trips.
#[test]
fn test_data_parses_without_errors_and_round_trips() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut failures = Vec::new();
    let mut count = 0;
    for path in corpus_files(&root) {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        assert_eq!(
            parse.syntax_node().to_string(),
            text,
            "{} does not round-trip",
            path.display()
        );
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("rejected/") || rel.starts_with("syntax/err/") {
            continue;
        }
        count += 1;
        if let Some(e) = parse.errors().first() {
            failures.push(format!("{}: {:?}: {}", path.display(), e.range, e.message));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files with errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 30, "only {count} test-data files found");
}

/// Every corpus file ptxas 13.0.88 rejects for sm_90 (spirv_run.json, and the
/// 32-bit `32/` files) gets at least one error from the checks.
#[test]
fn corpus_files_ptxas_rejects_are_reported() {
    let Some(dir) = corpus_dir() else { return };
    let mut files: Vec<PathBuf> = ptxas_rejected(&dir)
        .iter()
        .map(|name| dir.join("zluda/spirv_run").join(name))
        .collect();
    files.extend(corpus_files(&dir.join("zluda/spirv_run/32")));
    assert!(files.len() >= 13, "only {} rejected files", files.len());
    let options = ptx_syntax::check::CheckOptions { arch: Some(90) };
    let missed: Vec<String> = files
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            ptx_syntax::check::diagnostics_with(&ptx_syntax::parse(&text), options).is_empty()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        missed.is_empty(),
        "no error reported on ptxas-rejected files:\n{}",
        missed.join("\n")
    );
}
