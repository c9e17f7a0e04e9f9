//! Splitting a module into chunks of top-level items that parse on their own.
//!
//! A chunk boundary is placed before a module-level directive (`.entry`,
//! `.visible`, `.global`, ...) that starts a line, outside braces and
//! parentheses, right after an item that has ended (its last significant token
//! is `;` or `}`, or it is a one-line header directive such as `.target`).
//! Each chunk is one or more whole items plus the trivia that follows them; the
//! first chunk also holds the file's leading trivia.
//!
//! Why parsing the chunks one by one gives the tree of the whole file: a
//! boundary is a significant token at the start of a line where the parser is
//! at module level, and the parser never decides differently between "end of
//! file" and "a module-level directive at the start of a line" without
//! reporting an error (the perf directives that may follow a function header
//! are not boundaries). So when no chunk has a syntax error, the chunks' trees
//! laid side by side are the whole file's tree; when one has, the caller parses
//! the whole file instead (`ptx-db` does). The split is a heuristic for where
//! items end; that argument makes any split safe.
//!
//! # The scanner
//!
//! The boundaries are defined on the lexer's tokens (as above), but
//! [`split_points`] does not build them: it runs on every file load, and
//! tokenizing a megabyte costs several milliseconds. It scans the bytes
//! instead and gives exactly the result a walk over the tokens would, because
//! the only bytes it looks at delimit tokens the same way wherever the lexer
//! can meet them:
//!
//! - Whitespace (`\n` the only line break), `/`, `"`, `{`, `}`, `(`, `)` and `;`
//!   never occur inside any other token than a string or a comment, so outside
//!   those each one starts a token. Strings and comments are skipped with the
//!   lexer's rules: a string ends after its closing `"` (a `\` escapes `"` and
//!   `\`), before a line break, or at the end of the text; a `//` comment ends
//!   before its line break; a `/*` comment ends after the first `*/` after the
//!   `/*` and holds a line break if its text does, and an unterminated one runs
//!   to the end of the text and counts as holding a line break.
//! - Every other byte belongs to some other significant token (identifier,
//!   number, modifier, punctuation, error). Which one does not matter, except
//!   for the one that starts a line at module level: after trivia, a `.`
//!   followed by a letter, `_` or `$` starts a modifier (`DOT_IDENT`) that runs
//!   over identifier bytes and `::word` scope parts, and that word is compared
//!   with the item directives.
//! - Inside braces or parentheses nothing but the nesting matters until the
//!   `}` or `)` that closes it (which becomes the last significant token), so
//!   there the scanner only looks for the six bytes `{}()"/`, testing 32 bytes
//!   at a time with vector compares. Function bodies are most of a module's
//!   text, so the scan costs about 2 instructions per byte where tokenizing
//!   costs about 30 (a 1 MB module: 2.3M instead of 32M).
//!
//! The tests in `tests/split_scanner.rs` compare it with the token-based
//! definition on every corpus file, on the line prefixes and suffixes of
//! some, and on mutated and random texts.

/// Directives that start a top-level item (never a perf directive that may
/// follow a function header). Public for the tests that check the scanner
/// against a token-based definition.
pub fn starts_item(text: &str) -> bool {
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

/// Directives that end at the end of their line.
pub fn is_line_directive(text: &str) -> bool {
    matches!(text, ".version" | ".target" | ".address_size" | ".file")
}

/// The chunk boundaries of `text`: offsets strictly inside it, increasing,
/// each the start of a token. The second value says whether the end of `text`
/// would itself be a boundary if a module-level directive followed (used to
/// re-split only part of a file: see `ptx-db`).
pub fn split_points(text: &str) -> (Vec<usize>, bool) {
    let bytes = text.as_bytes();
    let mut points = Vec::new();
    let mut pos = 0;
    let mut braces = 0usize;
    let mut parens = 0usize;
    // Whether the last significant token is `;` or `}`.
    let mut after_end = false;
    // Whether there is a line break between the last significant token (or
    // the start) and `pos`.
    let mut newline = true;
    // The last item directive that started a line at module level.
    let mut item_kw = "";
    while pos < bytes.len() {
        if braces > 0 || parens > 0 {
            // Nothing in here is a boundary: only the nesting matters.
            // `newline` is false since the `{` or `(` that got here, and the
            // `}` or `)` that gets out becomes the last significant token.
            pos = next_nesting_byte(bytes, pos);
            let Some(&b) = bytes.get(pos) else { break };
            pos = match b {
                b'{' => {
                    braces += 1;
                    pos + 1
                }
                b'}' => {
                    braces = braces.saturating_sub(1);
                    after_end = true;
                    pos + 1
                }
                b'(' => {
                    parens += 1;
                    pos + 1
                }
                b')' => {
                    parens = parens.saturating_sub(1);
                    after_end = false;
                    pos + 1
                }
                b'"' => string_end(bytes, pos),
                _ => match comment_end(text, pos) {
                    Some((end, _)) => end,
                    None => pos + 1,
                },
            };
            continue;
        }
        let b = bytes[pos];
        match b {
            b'\n' => {
                newline = true;
                pos += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => pos += 1,
            b'/' => match comment_end(text, pos) {
                Some((end, has_newline)) => {
                    newline |= has_newline;
                    pos = end;
                }
                // A division sign.
                None => {
                    after_end = false;
                    newline = false;
                    pos += 1;
                }
            },
            b'"' => {
                pos = string_end(bytes, pos);
                after_end = false;
                newline = false;
            }
            b'{' | b'}' | b'(' | b')' | b';' => {
                match b {
                    b'{' => braces += 1,
                    b'(' => parens += 1,
                    _ => {}
                }
                after_end = matches!(b, b'}' | b';');
                newline = false;
                pos += 1;
            }
            _ => {
                // A token other than those above: only the directive word
                // that starts a line matters; the rest of the run of such
                // bytes changes nothing.
                if newline && b == b'.' && bytes.get(pos + 1).is_some_and(|&c| is_word_start(c)) {
                    let end = dot_word_end(bytes, pos);
                    let word = &text[pos..end];
                    if starts_item(word) {
                        if (after_end || is_line_directive(item_kw)) && pos > 0 {
                            points.push(pos);
                        }
                        item_kw = word;
                    }
                }
                after_end = false;
                newline = false;
                pos = plain_run_end(bytes, pos + 1);
            }
        }
    }
    let ends = newline && braces == 0 && parens == 0 && (after_end || is_line_directive(item_kw));
    (points, ends)
}

/// Whether `b` can start a modifier word after a `.` (the lexer's
/// identifier start, less `%`).
fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Whether `b` can continue an identifier or modifier word.
fn is_word_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The end of the run of word bytes starting at `pos`.
fn word_end(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..]
        .iter()
        .position(|&b| !is_word_continue(b))
        .map_or(bytes.len(), |n| pos + n)
}

/// The end of the modifier token (`DOT_IDENT`) starting with the `.` at
/// `pos`: its word, then any `::word` scope parts (`.L2::cache_hint`).
fn dot_word_end(bytes: &[u8], pos: usize) -> usize {
    let mut end = word_end(bytes, pos + 1);
    while bytes.get(end) == Some(&b':')
        && bytes.get(end + 1) == Some(&b':')
        && bytes.get(end + 2).is_some_and(|&b| is_word_continue(b))
    {
        end = word_end(bytes, end + 2);
    }
    end
}

/// Whether byte `b` is part of a token that is neither trivia, a string, nor
/// one of `{ } ( ) ;`.
fn is_plain(b: u8) -> bool {
    !matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'\x0b'
            | b'\x0c'
            | b'/'
            | b'"'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b';'
    )
}

/// The end of the run of plain bytes starting at `pos`.
fn plain_run_end(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..]
        .iter()
        .position(|&b| !is_plain(b))
        .map_or(bytes.len(), |n| pos + n)
}

/// Whether byte `b` matters inside braces or parentheses: it changes the
/// nesting or may start a string or comment (which may hold such bytes).
#[inline]
fn is_nesting_byte(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b'"' | b'/')
}

/// The offset of the first byte at or after `pos` that matters inside braces
/// or parentheses, or the length of `bytes`.
fn next_nesting_byte(bytes: &[u8], mut pos: usize) -> usize {
    // Skip blocks without such a byte first. Written as a branch-free `u8`
    // fold over a fixed-size block so that it compiles to a few vector
    // compares per block (`any` or `matches!` here compile to a byte loop).
    const BLOCK: usize = 32;
    while let Some(block) = bytes[pos..].first_chunk::<BLOCK>() {
        let hits = block.iter().fold(0u8, |hits, &b| {
            hits | ((b == b'{')
                | (b == b'}')
                | (b == b'(')
                | (b == b')')
                | (b == b'"')
                | (b == b'/')) as u8
        });
        if hits != 0 {
            break;
        }
        pos += BLOCK;
    }
    bytes[pos..]
        .iter()
        .position(|&b| is_nesting_byte(b))
        .map_or(bytes.len(), |n| pos + n)
}

/// The end of the string literal whose `"` is at `pos`, as the lexer ends it:
/// after the closing `"`, before a line break, or at the end of the text.
fn string_end(bytes: &[u8], pos: usize) -> usize {
    let mut at = pos + 1;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => return at + 1,
            b'\n' => return at,
            b'\\' if matches!(bytes.get(at + 1), Some(b'"' | b'\\')) => at += 2,
            _ => at += 1,
        }
    }
    at
}

/// The end of the comment starting at `pos` and whether it holds a line
/// break, as the lexer delimits it, or `None` if no comment starts there.
fn comment_end(text: &str, pos: usize) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    match bytes.get(pos + 1) {
        Some(b'/') => {
            let end = text[pos..].find('\n').map_or(text.len(), |n| pos + n);
            Some((end, false))
        }
        Some(b'*') => Some(match text[pos + 2..].find("*/") {
            Some(n) => {
                let end = pos + 2 + n + 2;
                (end, bytes[pos..end].contains(&b'\n'))
            }
            // Unterminated: to the end, counted as holding a line break.
            None => (text.len(), true),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_after_items() {
        let text = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry a()\n{\n ret;\n}\n// c\n.visible\n.func b()\n.maxntid 1\n{\n ret;\n}\n.global .u32 g;\n";
        let (points, ends) = split_points(text);
        let starts: Vec<&str> = points.iter().map(|&p| &text[p..p + 8]).collect();
        assert_eq!(
            starts,
            [".target ", ".address", ".visible", ".visible", ".global "]
        );
        assert!(ends);
    }
}
