//! `split::split_points` scans bytes; these tests check that it gives exactly
//! what the token-based definition gives (`by_tokens` below: the
//! implementation it replaced, a walk over `lexer::tokenize`), boundaries and
//! the end flag alike, on every PTX file of the corpus and of test-data, on
//! every line prefix of some, and on mutated and generated texts.
//!
//! Run longer with e.g.
//! `PROPTEST_CASES=100000 cargo test --release -p ptx-syntax --test split_scanner`.

use std::path::PathBuf;

use proptest::prelude::*;
use ptx_syntax::lexer::tokenize;
use ptx_syntax::split::{is_line_directive, split_points, starts_item};
use ptx_syntax::SyntaxKind::{self, *};
use ptx_test_support::mutation::{apply, cases, edit, FRAGMENTS};
use ptx_test_support::{corpus_dir, ptx_files_recursive, test_data};

/// The reference: chunk boundaries defined on the lexer's tokens (with the
/// directive lists of `split.rs`: the scanner is what is under test).
fn by_tokens(text: &str) -> (Vec<usize>, bool) {
    let (tokens, _errors) = tokenize(text);
    let mut points = Vec::new();
    let mut offset = 0usize;
    let mut braces = 0usize;
    let mut parens = 0usize;
    let mut prev: Option<SyntaxKind> = None;
    let mut newline = true;
    let mut item_kw: &str = "";
    for tok in &tokens {
        let end = offset + tok.len as usize;
        let kind = tok.kind;
        if kind.is_trivia() {
            newline |= tok.has_newline;
            offset = end;
            continue;
        }
        if kind == DOT_IDENT && newline && braces == 0 && parens == 0 {
            let word = text.get(offset..end).unwrap_or_default();
            if starts_item(word) {
                let ended = matches!(prev, Some(SEMICOLON | R_CURLY)) || is_line_directive(item_kw);
                if ended && offset > 0 {
                    points.push(offset);
                }
                item_kw = word;
            }
        }
        match kind {
            L_CURLY => braces += 1,
            R_CURLY => braces = braces.saturating_sub(1),
            L_PAREN => parens += 1,
            R_PAREN => parens = parens.saturating_sub(1),
            _ => {}
        }
        prev = Some(kind);
        newline = false;
        offset = end;
    }
    let ends = newline
        && braces == 0
        && parens == 0
        && (matches!(prev, Some(SEMICOLON | R_CURLY)) || is_line_directive(item_kw));
    (points, ends)
}

#[track_caller]
fn same(text: &str) {
    let want = by_tokens(text);
    let got = split_points(text);
    assert_eq!(got, want, "split differs on {text:?}");
}

/// Every PTX file of test-data and of the shared corpus (when present),
/// sorted for determinism.
fn files() -> &'static [(PathBuf, String)] {
    static FILES: std::sync::OnceLock<Vec<(PathBuf, String)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mut paths = ptx_files_recursive(&test_data());
        if let Some(corpus) = corpus_dir() {
            paths.extend(ptx_files_recursive(&corpus));
        }
        paths.sort();
        paths
            .into_iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                Some((p, text))
            })
            .collect()
    })
}

#[test]
fn same_on_every_file() {
    let files = files();
    assert!(!files.is_empty());
    for (path, text) in files {
        let want = by_tokens(text);
        assert_eq!(
            split_points(text),
            want,
            "split differs on {}",
            path.display()
        );
    }
}

#[test]
fn same_on_every_line_prefix_and_suffix() {
    // The small files (the big ones make this quadratic), and a slice of the
    // big dealii module.
    let mut texts: Vec<&str> = files()
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| t.len() < 16 * 1024)
        .collect();
    let big = files()
        .iter()
        .map(|(_, t)| t.as_str())
        .max_by_key(|t| t.len());
    if let Some(big) = big {
        let mut end = big.len().min(64 * 1024);
        while !big.is_char_boundary(end) {
            end -= 1;
        }
        texts.push(&big[..end]);
    }
    for text in texts {
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            same(&text[..end]);
            same(&text[end..]);
            let mid = end - line.len() / 2;
            if text.is_char_boundary(mid) {
                same(&text[..mid]);
                same(&text[mid..]);
            }
        }
    }
}

#[test]
fn same_on_tricky_texts() {
    for text in [
        "",
        ".",
        ".entry",
        "\n.entry",
        " .entry a;\n.func",
        ".version 8.0\n.target sm_80 /* open\n.entry",
        ".version 8.0 /* open",
        ".version 8.0 /* c */\n.entry a",
        ".version 8.0 /* c\n */ .entry a",
        ".version 8.0 // c\n.entry a",
        ".version 8.0 // c",
        ".version 8.0 /*/ .entry */\n.entry a",
        "a;\n\"x\n.entry b;\n\"\\\"\n.func c;\n",
        "a;\n\"\\\\\"\n.func c;\n",
        "a;\n\"\\\\\" {\n.func c;\n",
        "a;\n\"\\\\\\\\\" {\n.func c;\n",
        "a;\n\"\\\" {\n.func c;\n",
        "a;\n\"\\",
        "a;\n.entry::x;\n.entry.y;\n.entry$z;\n.entry",
        "a;\n.5\n.entry;\n1.entry;\n.global",
        "{ ( } ;\n.entry a;\n) ;\n.entry b",
        "} ) ;\n.entry a\n",
        "a;\r\n.entry b;\r\n.func c;\r.global d;",
        "a;\n€.entry;\n\u{a0}\n.entry;\n.func",
        "a;\n/\n.entry b;\n/ /\n.func",
        "a; /* { */ \n.entry b;\n\"{\" \n.func c;\n// {\n.global",
        "a;\n%.entry;\n_.func;\n$.global",
        "a;\x0b\n\x0c.entry b;",
    ] {
        same(text);
    }
}

/// Small seed files (test-data and the corpus, under 32 KiB).
fn seeds() -> Vec<&'static str> {
    files()
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| t.len() < 32 * 1024)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(4096), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn same_on_mutated_files(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..12)) {
        let seeds = seeds();
        prop_assume!(!seeds.is_empty());
        let mut text = seeds[seed % seeds.len()].to_string();
        for e in &edits {
            text = apply(&text, e);
        }
        same(&text);
    }

    #[test]
    fn same_on_fragment_soup(parts in prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
            1 => "[a-z0-9_$%.:]{1,6}",
            1 => "\\PC{1,4}",
        ],
        0..40,
    )) {
        same(&parts.concat());
    }

    #[test]
    fn same_on_random_text(text in "\\PC{0,200}") {
        same(&text);
    }

    #[test]
    fn same_on_random_ascii(text in "[ -~\t\n\r\x0b\x0c]{0,200}") {
        same(&text);
    }
}
