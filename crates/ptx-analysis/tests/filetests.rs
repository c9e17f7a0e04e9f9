//! Snapshots of the analysis report (`.analysis`) of the hand-written inputs
//! `test-data/analysis/*.ptx` (`UPDATE_EXPECT=1 cargo test -p ptx-analysis`
//! re-blesses). The inputs must parse, check and lower without errors.

mod common;

#[test]
fn analysis_reports_match_snapshots() {
    let files = common::ptx_files(&common::test_data().join("analysis"));
    assert!(files.len() >= 6, "inputs missing in test-data/analysis");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        assert!(
            parse.errors().is_empty(),
            "{}: syntax errors {:?}",
            path.display(),
            parse.errors()
        );
        let diags = ptx_syntax::check::diagnostics(&parse);
        assert!(
            diags.is_empty(),
            "{}: check diagnostics {diags:?}",
            path.display()
        );
        let (module, errors) = ptx_ir::lower_module(&parse);
        assert!(
            errors.is_empty(),
            "{}: lowering errors {errors:?}",
            path.display()
        );
        let report = ptx_analysis::module_report(&module, None);
        expect_test::expect_file![path.with_extension("analysis")].assert_eq(&report);
    }
}
