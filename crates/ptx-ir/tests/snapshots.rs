//! Snapshots of the IR dump (`.ir`) and the emitted PTX (`.emitted.ptx`) of the
//! small hand-written inputs `test-data/ir/*.ptx` (`UPDATE_EXPECT=1 cargo test`
//! re-blesses). The inputs must lower without errors.

mod common;

use std::path::PathBuf;

fn inputs() -> Vec<PathBuf> {
    let files: Vec<PathBuf> = common::ptx_files(&common::test_data().join("ir"))
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".emitted.ptx"))
        .collect();
    assert!(!files.is_empty(), "no inputs in test-data/ir");
    files
}

#[test]
fn ir_dumps_and_emitted_ptx_match_snapshots() {
    for path in inputs() {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        assert!(
            parse.errors().is_empty(),
            "{}: syntax errors",
            path.display()
        );
        let (module, errors) = ptx_ir::lower_module(&parse);
        assert!(
            errors.is_empty(),
            "{}: lowering errors: {errors:?}",
            path.display()
        );
        let dump = ptx_ir::ir::dump::dump_module(&module);
        expect_test::expect_file![path.with_extension("ir")].assert_eq(&dump);
        let emitted = ptx_ir::emit_module(&module);
        expect_test::expect_file![path.with_extension("emitted.ptx")].assert_eq(&emitted);
    }
}
