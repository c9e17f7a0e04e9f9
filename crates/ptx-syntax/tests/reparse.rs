//! `reparse::reparse_token` gives exactly the tree of a full parse: on
//! single-token edits (numbers, comments, whitespace, and tokens it must
//! refuse) of every chunk of every `test-data` file and of the shared corpus
//! when present, each tree it returns equals `parse` of the new text.

use std::path::PathBuf;

use ptx_syntax::reparse::reparse_token;
use ptx_syntax::{parse, TextRange, TextSize};
use ptx_test_support::{corpus_dir, ptx_files_recursive, test_data};

/// Edits of one token `text` (a range relative to it and a replacement).
fn edits(text: &str) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let n = text.len();
    let mut out = vec![
        (0..0, "1"),
        (n..n, "7"),
        (n..n, " "),
        (0..0, "\n"),
        (n..n, "."),
        (n..n, "e"),
        (n..n, "x"),
        (n..n, "*/"),
        (0..0, "/"),
        (0..0, "-"),
        (n..n, "f"),
        (n..n, "U"),
        (0..n, "0x1F"),
        (0..n, "1.5"),
        (0..n, "  "),
        (0..n, "// c"),
        (0..n, "/* c */"),
    ];
    if n > 0 {
        let mut mid = n / 2;
        while !text.is_char_boundary(mid) {
            mid -= 1;
        }
        out.push((mid..mid, "9"));
        out.push((mid..mid, "\n"));
        out.push((mid..(mid + 1).min(n), ""));
        out.push((0..1, "2"));
    }
    out.retain(|(r, _)| text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
    out
}

fn files() -> Vec<PathBuf> {
    let mut files = ptx_files_recursive(&test_data());
    if let Some(dir) = corpus_dir() {
        files.extend(ptx_files_recursive(&dir));
    }
    files
}

#[test]
fn reparsed_trees_equal_full_parses() {
    let (mut reparsed, mut refused, mut tried_files) = (0usize, 0usize, 0usize);
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        tried_files += 1;
        let (points, _) = ptx_syntax::split::split_points(&text);
        let mut cuts = vec![0];
        cuts.extend(points);
        cuts.push(text.len());
        // At most 40 chunks of a file, spread over it.
        let step = (cuts.len() / 40).max(1);
        for w in (0..cuts.len() - 1).step_by(step) {
            let chunk = &text[cuts[w]..cuts[w + 1]];
            let old = parse(chunk);
            if !old.errors().is_empty() {
                continue;
            }
            let tokens: Vec<_> = old
                .syntax_node()
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
                .collect();
            // At most 30 tokens of a chunk, spread over it.
            let step = (tokens.len() / 30).max(1);
            for token in tokens.iter().step_by(step) {
                let start = usize::from(token.text_range().start());
                for (range, replacement) in edits(token.text()) {
                    let abs = TextRange::new(
                        TextSize::from((start + range.start) as u32),
                        TextSize::from((start + range.end) as u32),
                    );
                    let mut new_text = chunk.to_string();
                    new_text.replace_range(start + range.start..start + range.end, replacement);
                    match reparse_token(&old, abs, replacement) {
                        Some(tree) => {
                            reparsed += 1;
                            let full = parse(&new_text);
                            assert!(
                                tree == full,
                                "{}: {:?} {range:?} -> {replacement:?} in {:?}: reparse differs \
                                 from a full parse",
                                path.display(),
                                token.kind(),
                                token.text()
                            );
                        }
                        None => refused += 1,
                    }
                }
            }
        }
    }
    println!("{tried_files} files: {reparsed} edits reparsed, {refused} refused");
    assert!(tried_files > 0);
    assert!(reparsed > 1000, "only {reparsed} edits took the token path");
    assert!(refused > 1000);
}

#[test]
fn only_numbers_comments_and_whitespace_take_the_token_path() {
    let text = ".version 8.0\n.target sm_80 // t\n.visible .entry k()\n{\n\tadd.s32 %r1, %r1, 8;\n\tret;\n}\n";
    let old = parse(text);
    assert!(old.errors().is_empty());
    let at = |needle: &str, delta: usize| {
        let i = text.find(needle).unwrap() + delta;
        TextRange::empty(TextSize::from(i as u32))
    };
    // The immediate `8`: typing a digit after it.
    let tree = reparse_token(&old, at("8;", 1), "9").expect("a number edit");
    assert_eq!(tree, parse(&text.replace("8;", "89;")));
    // Inside a comment, and in the spaces of a line.
    assert!(reparse_token(&old, at("// t", 3), "x").is_some());
    assert!(reparse_token(&old, at("\tret", 0), " ").is_some());
    // An opcode, a register, a line break added to spaces, a number that
    // becomes a float, a comment that swallows the next line: refused.
    assert!(reparse_token(&old, at("add", 1), "x").is_none());
    assert!(reparse_token(&old, at("%r1,", 2), "2").is_none());
    assert!(reparse_token(&old, at(" %r1,", 0), "\n").is_none());
    assert!(reparse_token(&old, at("8;", 1), ".5").is_none());
    assert!(reparse_token(&old, at("8;", 1), "e").is_none());
}
