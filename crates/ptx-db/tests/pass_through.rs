//! With every phase that transforms code switched off (`--named-phases` of
//! the others), the pipeline's output is exactly what `ptx-ir` emits for the
//! whole module: per-kernel lowering, the trivia
//! firewall, the module items read from the skeleton, and the stitching of
//! `file_ptx` lose and reorder nothing. On `test-data`, and on the shared
//! corpus when it is present.

use std::path::PathBuf;

use ptx_db::{build_file, PhaseId, RootDatabase, PHASES};

/// A database with every implemented phase switched off.
fn pass_through_db() -> RootDatabase {
    let mut db = RootDatabase::new();
    let others: Vec<PhaseId> = PHASES
        .iter()
        .filter(|p| !p.implemented)
        .map(|p| p.id)
        .collect();
    db.set_phase_selection(Some(&others));
    db
}

fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data")
}

#[test]
fn pipeline_output_equals_emit_module_on_test_data() {
    let mut db = pass_through_db();
    let mut count = 0;
    for dir in ["examples", "families", "ir"] {
        let Ok(entries) = std::fs::read_dir(test_data().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
            .collect();
        paths.sort();
        for path in paths {
            assert!(assert_pass_through(&mut db, &path, true));
            count += 1;
        }
    }
    assert!(count >= 20, "only {count} files");
}

#[test]
fn pipeline_output_equals_emit_module_on_the_corpus() {
    let Some(dir) = ptx_test_support::corpus_dir() else {
        return;
    };
    let mut db = pass_through_db();
    let mut built = 0;
    for path in ptx_test_support::ptx_files_recursive(&dir) {
        built += usize::from(assert_pass_through(&mut db, &path, false));
    }
    // 190 of the corpus files build today (the others use 32-bit addressing,
    // or are files ptxas rejects).
    assert!(built >= 150, "only {built} corpus files built");
}

/// Builds `path` and compares the output with `ptx-ir`'s emission of the
/// whole module; a file that does not build fails the test when `must_build`
/// (corpus files ptxas rejects, or that use what lowering does not model).
/// Returns whether it built.
fn assert_pass_through(db: &mut RootDatabase, path: &std::path::Path, must_build: bool) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    let file = db.set_file_text(path, text.as_str());
    let built = build_file(db, file);
    let Some(output) = built.text else {
        assert!(!must_build, "{}: {:?}", path.display(), built.diagnostics);
        return false;
    };
    let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    assert_eq!(
        output.to_string(),
        ptx_ir::emit_module(&module),
        "{}",
        path.display()
    );
    true
}
