//! `split::split_points` scans bytes; these tests check that it gives exactly
//! what the token-based definition gives (`by_tokens` below: the
//! implementation it replaced, a walk over `lexer::tokenize`), boundaries and
//! the end flag alike, on every PTX file of the corpus and of test-data, on
//! every line prefix of some, and on mutated and generated texts.
//!
//! Run longer with e.g.
//! `PROPTEST_CASES=100000 cargo test --release -p ptx-syntax --test split_scanner`.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use ptx_syntax::lexer::tokenize;
use ptx_syntax::split::split_points;
use ptx_syntax::SyntaxKind::{self, *};

/// The reference: chunk boundaries defined on the lexer's tokens. The two
/// directive lists are those of `split.rs` (a change there must be made here
/// too).
fn by_tokens(text: &str) -> (Vec<usize>, bool) {
    fn starts_item(text: &str) -> bool {
        matches!(
            text,
            ".version"
                | ".target"
                | ".address_size"
                | ".file"
                | ".section"
                | ".alias"
                | ".entry"
                | ".func"
                | ".visible"
                | ".weak"
                | ".extern"
                | ".common"
                | ".global"
                | ".const"
                | ".shared"
                | ".tex"
                | ".texref"
                | ".samplerref"
                | ".surfref"
        )
    }
    fn is_line_directive(text: &str) -> bool {
        matches!(text, ".version" | ".target" | ".address_size" | ".file")
    }
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

/// Every PTX file of test-data and of the shared corpus (when present),
/// sorted for determinism.
fn files() -> &'static [(PathBuf, String)] {
    static FILES: std::sync::OnceLock<Vec<(PathBuf, String)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut paths = Vec::new();
        collect(&root.join("test-data"), &mut paths);
        collect(&root.join("../shared/corpus"), &mut paths);
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

#[derive(Clone, Debug)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    ReplaceByte(usize, u8),
    InsertByte(usize, u8),
    InsertFragment(usize, &'static str),
    DeleteRange(usize, usize),
}

/// Pieces of PTX that decide where items and tokens end.
const FRAGMENTS: &[&str] = &[
    "/*",
    "*/",
    "//",
    "\"",
    "\\",
    "\\\\",
    "\\\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    ".entry",
    ".visible",
    ".func",
    ".global",
    ".extern",
    ".file 1 \"a.cu\"",
    ".version 8.0",
    ".target sm_80",
    ".address_size 64",
    ".maxntid 1",
    ".entry::x",
    ".5",
    "1.",
    "%r1",
    "ret;",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "é",
    "€",
    "\u{a0}",
    "\u{2028}",
];

fn edit() -> impl Strategy<Value = Edit> {
    let interesting = prop::sample::select(b";,{}[]()<>.%@!|:_-+\"/*\\\n\r 0xf9aZ$".to_vec());
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), interesting.clone()).prop_map(|(i, b)| Edit::ReplaceByte(i, b)),
        (any::<usize>(), interesting).prop_map(|(i, b)| Edit::InsertByte(i, b)),
        (any::<usize>(), prop::sample::select(FRAGMENTS))
            .prop_map(|(i, f)| Edit::InsertFragment(i, f)),
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
        Edit::InsertFragment(i, f) => {
            let at = i % (bytes.len() + 1);
            bytes.splice(at..at, f.bytes());
        }
        Edit::DeleteRange(i, n) => {
            let start = i % len;
            let end = (start + n).min(bytes.len());
            if start < end {
                bytes.drain(start..end);
            }
        }
    }
    // Byte edits may cut a character: lossy decoding keeps the text valid
    // (and brings in U+FFFD, a non-ASCII character).
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Small seed files (test-data and the corpus, under 32 KiB).
fn seeds() -> Vec<&'static str> {
    files()
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| t.len() < 32 * 1024)
        .collect()
}

/// Cases per property: 4096, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

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
