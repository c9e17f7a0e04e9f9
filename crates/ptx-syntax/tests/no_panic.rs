//! No panic on any input. Mutations of real PTX (the shared corpus when present,
//! and every PTX file in test-data): truncation at every line, deleted lines and
//! random byte edits. Each mutated text must parse into a lossless tree and go
//! through the checks without a panic.
//!
//! CI runs the default number of cases; run longer with e.g.
//! `PROPTEST_CASES=200000 cargo test --release -p ptx-syntax --test no_panic`.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "ptx") {
            out.push(path);
        }
    }
}

/// Seed texts: small files only (the big dealii module is covered by the corpus
/// round-trip test), sorted for determinism.
fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        collect(&root.join("test-data"), &mut files);
        collect(&root.join("../shared/corpus/zluda"), &mut files);
        files.sort();
        files
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|t| t.len() < 64 * 1024)
            .collect()
    })
}

fn exercise(text: &str) {
    let parse = ptx_syntax::parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    let _ = ptx_syntax::check::diagnostics(&parse);
}

#[test]
fn truncation_at_every_line() {
    for text in seeds() {
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            exercise(&text[..end]);
            // Also cut in the middle of the line.
            let mid = end - line.len() / 2;
            if text.is_char_boundary(mid) {
                exercise(&text[..mid]);
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    ReplaceByte(usize, u8),
    InsertByte(usize, u8),
    DeleteRange(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let interesting = prop::sample::select(b";,{}[]()<>.%@!|:_-+\"/*\n 0xf9aZ".to_vec());
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), interesting.clone()).prop_map(|(i, b)| Edit::ReplaceByte(i, b)),
        (any::<usize>(), interesting).prop_map(|(i, b)| Edit::InsertByte(i, b)),
        (any::<usize>(), 0usize..64).prop_map(|(i, n)| Edit::DeleteRange(i, n)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let len = bytes.len().max(1);
    match *edit {
        Edit::DeleteLine(i) | Edit::DuplicateLine(i) => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if lines.is_empty() {
                return String::new();
            }
            let k = i % lines.len();
            let mut out = String::new();
            for (j, l) in lines.iter().enumerate() {
                if j != k || matches!(edit, Edit::DuplicateLine(_)) {
                    out.push_str(l);
                }
                if j == k && matches!(edit, Edit::DuplicateLine(_)) {
                    out.push_str(l);
                }
            }
            return out;
        }
        Edit::ReplaceByte(i, b) => {
            if !bytes.is_empty() {
                bytes[i % len] = b;
            }
        }
        Edit::InsertByte(i, b) => bytes.insert(i % (bytes.len() + 1), b),
        Edit::DeleteRange(i, n) => {
            let start = i % len;
            let end = (start + n).min(bytes.len());
            if start < end {
                bytes.drain(start..end);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Cases per property: 512 (what CI runs), or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_never_panic(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..8)) {
        let seeds = seeds();
        prop_assume!(!seeds.is_empty());
        let mut text = seeds[seed % seeds.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        exercise(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        exercise(&text);
    }
}
