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
    /// Inserts `opener` repeated `n` times (and, when `close`, the matching
    /// closers after it): deep nesting, past the parser's limit too.
    InsertNested(usize, Nest, u16, bool),
}

/// What [`Edit::InsertNested`] repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nest {
    Block,
    Paren,
    Bracket,
    Brace,
    Minus,
    Plus,
}

impl Nest {
    pub const ALL: [Nest; 6] = [
        Nest::Block,
        Nest::Paren,
        Nest::Bracket,
        Nest::Brace,
        Nest::Minus,
        Nest::Plus,
    ];

    /// `n` levels: `{\n` blocks around `mov.u32 %r1, 1;`, `(((1)))`, `[[[x]]]`,
    /// `{{{1}}}`, `---1`, `1+1+1` (each operator nests the ones before); with
    /// `close == false` the openers only.
    pub fn text(self, n: usize, close: bool) -> String {
        let (open, inner, closer) = match self {
            Nest::Block => ("{\n", "\tmov.u32 %r1, 1;\n", "}\n"),
            Nest::Paren => ("(", "1", ")"),
            Nest::Bracket => ("[", "x", "]"),
            Nest::Brace => ("{", "1", "}"),
            Nest::Minus => ("-", "1", ""),
            Nest::Plus => ("1+", "1", ""),
        };
        let mut out = open.repeat(n);
        if close {
            out.push_str(inner);
            out.push_str(&closer.repeat(n));
        }
        out
    }
}

/// A kernel whose body is `body` (`%r<4>` and `%p<2>` declared).
pub fn kernel_with(body: &str) -> String {
    format!(
        ".version 8.5\n.target sm_80\n.address_size 64\n\n.visible .entry k(.param .u64 p)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n{body}\tret;\n}}\n"
    )
}

/// Deeply nested inputs, `n` levels each, in every place nesting occurs:
/// (name, text). Valid PTX while `n` is below the parser's limit (blocks,
/// unary and binary operators in instructions, parentheses and braces in
/// initializers), except where noted in the name.
pub fn deep_inputs(n: usize) -> Vec<(String, String)> {
    let header = ".version 8.5\n.target sm_80\n.address_size 64\n\n";
    let mut out = vec![
        (
            "blocks".to_string(),
            kernel_with(&Nest::Block.text(n, true)),
        ),
        (
            "unary".to_string(),
            kernel_with(&format!("\tmov.u32 %r1, {};\n", Nest::Minus.text(n, true))),
        ),
        (
            "sum".to_string(),
            kernel_with(&format!(
                "\tadd.u32 %r1, %r2, {};\n",
                Nest::Plus.text(n, true)
            )),
        ),
        (
            "parens_init".to_string(),
            format!("{header}.global .u32 g = {};\n", Nest::Paren.text(n, true)),
        ),
        (
            "mixed_unary_parens_init".to_string(),
            format!(
                "{header}.global .u32 g = {}1{};\n",
                "-(~".repeat(n / 3),
                ")".repeat(n / 3)
            ),
        ),
        (
            "ternary_init".to_string(),
            format!("{header}.global .u32 g = {}1;\n", "1?2:".repeat(n)),
        ),
        (
            "braces_init_invalid".to_string(),
            format!(
                "{header}.global .u32 g[1] = {};\n",
                Nest::Brace.text(n, true)
            ),
        ),
        (
            "parens_operand_invalid".to_string(),
            kernel_with(&format!("\tmov.u32 %r1, {};\n", Nest::Paren.text(n, true))),
        ),
        (
            "vector_invalid".to_string(),
            kernel_with(&format!("\tmov.u32 %r1, {};\n", Nest::Brace.text(n, true))),
        ),
        (
            "address_invalid".to_string(),
            kernel_with(&format!(
                "\tld.global.u32 %r1, {};\n",
                Nest::Bracket.text(n, true)
            )),
        ),
        (
            "unclosed_blocks_invalid".to_string(),
            kernel_with(&Nest::Block.text(n, false)),
        ),
        (
            "unclosed_parens_invalid".to_string(),
            kernel_with(&format!("\tmov.u32 %r1, {}\n", Nest::Paren.text(n, false))),
        ),
    ];
    out.push((
        "guarded_blocks".to_string(),
        kernel_with(&format!(
            "\tsetp.eq.u32 %p1, %r1, 0;\n{}\t@%p1 add.u32 %r1, %r1, {};\n{}",
            "{\n".repeat(n / 2),
            Nest::Minus.text(n / 2, true),
            "}\n".repeat(n / 2)
        )),
    ));
    out
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
        (
            any::<usize>(),
            prop::sample::select(&Nest::ALL[..]),
            prop_oneof![1u16..40, 200u16..300, 2_000u16..30_000],
            any::<bool>()
        )
            .prop_map(|(i, what, n, close)| Edit::InsertNested(i, what, n, close)),
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
        Edit::InsertNested(i, what, n, close) => {
            let at = i % (bytes.len() + 1);
            bytes.splice(at..at, what.text(usize::from(n), close).into_bytes());
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
