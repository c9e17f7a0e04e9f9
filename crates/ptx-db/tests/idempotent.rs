//! The default pipeline on its own output changes nothing more after a
//! second round: `build(build(build(x))) == build(build(x))`, on every file
//! of `test-data` that builds and on the shared corpus when it is present.
//! (A first round may expose work for a second one: copies left by one
//! phase that an earlier phase would have propagated; after that the
//! output is a fixed point.)

use std::path::{Path, PathBuf};

use ptx_db::{build_file, RootDatabase};

/// Builds `text` as file `path` in a fresh database: the output, if any.
fn build(path: &Path, text: &str) -> Option<String> {
    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, text);
    build_file(&db, file).text.map(|t| t.to_string())
}

/// Whether `path` builds; panics when the third round differs from the
/// second.
/// Files on which the pipeline still changes its own output after a second
/// round (known, open):
/// - CiccLoopUnroll/local_array.ptx: of the 100 copies of a loop body
///   cicc's unroller makes, each round removes a few more of the repeated
///   `ld.local` of the same (never written) element (which phase stops
///   short each round is not yet known).
/// - OriLoopSimplification/o0_while.ptx and the dealii module: code the
///   loop unrollers leave holds a branch on a predicate that is constant in
///   its block but written elsewhere too (once per unrolled copy), so phase
///   15 cannot fold it until phase 16 removed the other writes: the next
///   round folds it and merges the blocks, and cicc's machine-scheduler
///   (first in a round) reorders the merged blocks. Folding on the write
///   that reaches the branch within its block (tried) exposes the same in
///   more files, as phase 22 unrolls again in round 2; a branch fold after
///   phase 22 (the seeds' table has none) would close it.
/// - examples/histogram.ptx: cicc's machine-pipeliner keeps a schedule only
///   if the function's MRPA peak does not rise; round 1's later phases raise
///   that peak by one (11 to 12) elsewhere, so round 2 pipelines the loop
///   the first round left, and round 3's machine-scheduler orders the new
///   prologue once more (round 4 changes nothing).
///
/// Convergence, not correctness: `ptxopt verify` is equal on every round.
/// Any other file must be a fixed point.
const NOT_YET_FIXED_POINTS: &[&str] = &[
    "CiccLoopUnroll/local_array.ptx",
    "OriLoopSimplification/o0_while.ptx",
    "matrix_free_device_matrix_vector_01.1.sm_80.ptx",
    "examples/histogram.ptx",
];

fn check(path: &Path) -> bool {
    let known = NOT_YET_FIXED_POINTS
        .iter()
        .any(|k| path.to_string_lossy().ends_with(k));
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Some(first) = build(path, &text) else {
        return false;
    };
    let second =
        build(path, &first).unwrap_or_else(|| panic!("{}: round 2 does not build", path.display()));
    let third = build(path, &second)
        .unwrap_or_else(|| panic!("{}: round 3 does not build", path.display()));
    if second != third && !known {
        let diff: Vec<String> = second
            .lines()
            .zip(third.lines())
            .filter(|(a, b)| a != b)
            .take(5)
            .map(|(a, b)| format!("  {a}\n  {b}"))
            .collect();
        panic!(
            "{}: the pipeline changes its own output again:\n{}",
            path.display(),
            diff.join("\n")
        );
    }
    true
}

#[test]
fn idempotent_on_test_data() {
    let root = ptx_test_support::test_data();
    let mut built = 0;
    for dir in ["examples", "families", "ir", "passes"] {
        let mut paths: Vec<PathBuf> = ptx_test_support::ptx_files_recursive(&root.join(dir));
        paths.sort();
        for path in paths {
            built += usize::from(check(&path));
        }
    }
    assert!(built >= 40, "only {built} files built");
}

#[test]
fn idempotent_on_the_corpus() {
    let Some(dir) = ptx_test_support::corpus_dir() else {
        return;
    };
    let mut built = 0;
    for path in ptx_test_support::ptx_files_recursive(&dir) {
        built += usize::from(check(&path));
    }
    assert!(built >= 150, "only {built} corpus files built");
}
