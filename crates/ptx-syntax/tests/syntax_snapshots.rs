//! Syntax-tree snapshots: every `test-data/syntax/{ok,err}/*.ptx` is parsed and its
//! tree dump plus errors compared with the `.rast` file beside it
//! (`UPDATE_EXPECT=1 cargo test` re-blesses). Files under `ok/` must parse
//! without errors; files under `err/` must report at least one.

use std::path::PathBuf;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data/syntax")
        .join(sub)
}

fn ptx_files(sub: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no test files in {sub}");
    files
}

fn dump(text: &str) -> (String, usize) {
    let parse = ptx_syntax::parse(text);
    assert_eq!(
        parse.syntax_node().to_string(),
        text,
        "tree must be lossless"
    );
    let mut out = ptx_syntax::debug_tree(&parse.syntax_node());
    for e in parse.errors() {
        out.push_str(&format!("error {:?}: {}\n", e.range, e.message));
    }
    (out, parse.errors().len())
}

#[test]
fn ok_files_parse_cleanly() {
    for path in ptx_files("ok") {
        let text = std::fs::read_to_string(&path).unwrap();
        let (out, errors) = dump(&text);
        assert_eq!(errors, 0, "{} has syntax errors:\n{out}", path.display());
        expect_test::expect_file![path.with_extension("rast")].assert_eq(&out);
    }
}

#[test]
fn error_files_recover() {
    for path in ptx_files("err") {
        let text = std::fs::read_to_string(&path).unwrap();
        let (out, errors) = dump(&text);
        assert!(errors > 0, "{} should have syntax errors", path.display());
        expect_test::expect_file![path.with_extension("rast")].assert_eq(&out);
    }
}
