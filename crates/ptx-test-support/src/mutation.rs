//! Mutations of PTX texts for property tests (proptest strategies): delete or
//! duplicate a line, replace or insert a byte, insert a piece of PTX that
//! decides where tokens and items end, delete a range. The no-panic tests of the
//! parser and the tests of the chunk split use them on real files.

use proptest::prelude::*;

/// One mutation; positions are taken modulo the text's length.
#[derive(Clone, Debug)]
pub enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    ReplaceByte(usize, u8),
    InsertByte(usize, u8),
    InsertFragment(usize, &'static str),
    DeleteRange(usize, usize),
}

/// Pieces of PTX that decide where items and tokens end.
pub const FRAGMENTS: &[&str] = &[
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

/// Any one [`Edit`], with bytes and fragments that matter to PTX's tokens.
pub fn edit() -> impl Strategy<Value = Edit> {
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

/// `text` with `edit` applied. Byte edits may cut a character: lossy decoding
/// keeps the text valid (and brings in U+FFFD, a non-ASCII character).
pub fn apply(text: &str, edit: &Edit) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let len = bytes.len().max(1);
    match *edit {
        Edit::DeleteLine(i) | Edit::DuplicateLine(i) => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if lines.is_empty() {
                return String::new();
            }
            let k = i % lines.len();
            let duplicate = matches!(edit, Edit::DuplicateLine(_));
            let mut out = String::new();
            for (j, l) in lines.iter().enumerate() {
                if j != k || duplicate {
                    out.push_str(l);
                }
                if j == k && duplicate {
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
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Cases per property: `default`, or `PROPTEST_CASES` when set.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
