//! Diagnostics snapshots: for every `test-data/rejected/*.ptx` (files ptxas
//! rejects), the `line:col: severity: message` lines of the checks are compared
//! with the `.diag` file beside it (`UPDATE_EXPECT=1` re-blesses). Each file's
//! first line says what ptxas reports, for comparison.

use std::path::PathBuf;

#[test]
fn rejected_files_diagnostics() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/rejected");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    assert!(files.len() >= 30);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        let index = ptx_syntax::line_index::LineIndex::new(&text);
        let mut out = String::new();
        for d in ptx_syntax::check::diagnostics(&parse) {
            let lc = index.line_col(&text, d.range.start());
            let severity = match d.severity {
                ptx_syntax::check::Severity::Error => "error",
                ptx_syntax::check::Severity::Warning => "warning",
            };
            out.push_str(&format!(
                "{}:{}: {severity}: {}\n",
                lc.line, lc.col, d.message
            ));
        }
        expect_test::expect_file![path.with_extension("diag")].assert_eq(&out);
    }
}
