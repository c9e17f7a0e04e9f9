//! No panic on any input. Mutations of real PTX (the shared corpus when present,
//! and every PTX file in test-data): truncation at every line, deleted lines and
//! random byte edits and PTX fragments (`ptx_test_support::mutation`). Each mutated text must parse into a lossless tree and go
//! through the checks without a panic.
//!
//! CI runs the default number of cases; run longer with e.g.
//! `PROPTEST_CASES=200000 cargo test --release -p ptx-syntax --test no_panic`.

use proptest::prelude::*;
use ptx_test_support::mutation::{self, apply, edit};
use ptx_test_support::{corpus_dir, ptx_files_recursive, test_data};

/// Seed texts: small files only (the big dealii module is covered by the corpus
/// round-trip test), sorted for determinism.
fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut files = ptx_files_recursive(&test_data());
        if let Some(corpus) = corpus_dir() {
            files.extend(ptx_files_recursive(&corpus.join("zluda")));
        }
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

proptest! {
    #![proptest_config(ProptestConfig { cases: mutation::cases(512), failure_persistence: None, ..ProptestConfig::default() })]

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
