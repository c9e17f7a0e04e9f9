//! Incremental edits given as LSP ranges (0-based lines, UTF-16 columns) with
//! non-ASCII text: Cyrillic (2-byte UTF-8), CJK (3 bytes) and emoji (4 bytes,
//! a UTF-16 surrogate pair), at every position. Each edit goes through the
//! line index and `AnalysisHost::edit_file_text`, as the language server does;
//! the result must equal the same edit applied to a `String`.

use std::path::Path;

use ptx_ide::{AnalysisHost, LineCol, TextRange};

/// The byte offset of a UTF-16 position, the slow way (every position given
/// here is on a character boundary).
fn reference_offset(text: &str, pos: LineCol) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        line_start += text[line_start..].find('\n').expect("line exists") + 1;
    }
    let mut units = 0;
    for (i, c) in text[line_start..].char_indices() {
        if units == pos.col {
            return line_start + i;
        }
        assert!(c != '\n', "column inside the line");
        units += c.len_utf16() as u32;
    }
    assert_eq!(units, pos.col);
    text.len()
}

/// Every position of `text` on a character boundary, in UTF-16 terms.
fn positions(text: &str) -> Vec<LineCol> {
    let mut out = Vec::new();
    let (mut line, mut col) = (0, 0);
    for c in text.chars() {
        out.push(LineCol { line, col });
        if c == '\n' {
            line += 1;
            col = 0;
        } else {
            col += c.len_utf16() as u32;
        }
    }
    out.push(LineCol { line, col });
    out
}

const BASES: &[&str] = &[
    "к",
    "ab\nкд\n",
    "// 日本語 😀x\n.version 8.5\n",
    "😀😀\r\nе🎉к\n中",
    ".version 8.5\n.target sm_80\n// кириллица\n.visible .entry k()\n{\n\tret; // 🎉 終\n}\n",
];

const INSERTS: &[&str] = &["", "ее\n", "x", "語", "😀", "\n", "к😀\n中", "{\n"];

/// Applies the edit `start..end` → `insert` to the host and to a string.
fn edit(
    host: &mut AnalysisHost,
    path: &Path,
    expected: &mut String,
    start: LineCol,
    end: LineCol,
    insert: &str,
) {
    let (s, e) = (
        reference_offset(expected, start),
        reference_offset(expected, end),
    );
    let index = host.line_index(path);
    let range = TextRange::new(index.offset(start), index.offset(end));
    assert_eq!(
        (usize::from(range.start()), usize::from(range.end())),
        (s, e),
        "{start:?}-{end:?} in {expected:?}"
    );
    assert!(host.edit_file_text(path, range, insert));
    expected.replace_range(s..e, insert);
    let actual = host.analysis().file_text(path).map(str::to_string);
    assert_eq!(
        actual.as_deref(),
        Some(expected.as_str()),
        "{start:?}-{end:?} {insert:?}"
    );
    // Every position of the new text maps to its offset and back.
    let index = host.line_index(path);
    for p in positions(expected) {
        let off = index.offset(p);
        assert_eq!(usize::from(off), reference_offset(expected, p));
        assert_eq!(index.line_col(off), p);
    }
}

#[test]
fn the_reported_edit() {
    let path = Path::new("/t/a.ptx");
    let mut host = AnalysisHost::new();
    host.set_file_text(path, "к");
    let mut expected = "к".to_string();
    let (s, e) = (LineCol { line: 0, col: 0 }, LineCol { line: 0, col: 1 });
    edit(&mut host, path, &mut expected, s, e, "ее\n");
    assert_eq!(expected, "ее\n");
}

#[test]
fn every_range_of_non_ascii_texts() {
    let path = Path::new("/t/a.ptx");
    let mut edits = 0;
    for base in BASES {
        let mut host = AnalysisHost::new();
        host.set_file_text(path, *base);
        let all = positions(base);
        for (i, &start) in all.iter().enumerate() {
            for &end in &all[i..] {
                for insert in INSERTS {
                    // Edit, then undo the edit: the text returns to `base`
                    // through a second incremental change.
                    let mut expected = base.to_string();
                    let removed = {
                        let (s, e) = (
                            reference_offset(&expected, start),
                            reference_offset(&expected, end),
                        );
                        expected[s..e].to_string()
                    };
                    edit(&mut host, path, &mut expected, start, end, insert);
                    let after = positions(&insert_end_probe(start, insert));
                    let new_end = *after.last().unwrap();
                    edit(&mut host, path, &mut expected, start, new_end, &removed);
                    assert_eq!(expected, *base);
                    edits += 2;
                }
            }
        }
    }
    assert!(edits > 2_000, "{edits}");
}

/// A text whose last position is where an insert of `insert` at `start`
/// ends: `start.line` newlines, `start.col` units, then `insert`.
fn insert_end_probe(start: LineCol, insert: &str) -> String {
    let mut s = "\n".repeat(start.line as usize);
    s.push_str(&"x".repeat(start.col as usize));
    s.push_str(insert);
    s
}

#[test]
fn positions_inside_a_surrogate_pair_or_past_the_end_do_not_panic() {
    let path = Path::new("/t/a.ptx");
    let mut host = AnalysisHost::new();
    host.set_file_text(path, "😀\nк");
    let index = host.line_index(path);
    // Inside the pair: the end of the character.
    assert_eq!(u32::from(index.offset(LineCol { line: 0, col: 1 })), 4);
    // Past the end of a line, past the last line: clamped.
    assert_eq!(u32::from(index.offset(LineCol { line: 0, col: 99 })), 4);
    assert_eq!(u32::from(index.offset(LineCol { line: 99, col: 3 })), 7);
    let range = TextRange::new(
        index.offset(LineCol { line: 0, col: 1 }),
        index.offset(LineCol { line: 1, col: 7 }),
    );
    assert!(host.edit_file_text(path, range, "ее"));
    assert_eq!(host.analysis().file_text(path), Some("😀ее"));
}
