//! Reparsing an edit inside one token without running the parser: typing in
//! a number, a comment or the spaces of a line changes one token, and the tree
//! of the new text is the old tree with that token replaced (a new path from
//! the root to the token; every other node is shared with the old tree).
//!
//! [`reparse_token`] returns that tree only when it is exactly what [`parse`]
//! gives for the new text, which holds when:
//!
//! - **The old tree has no syntax error** (an error's position and message are
//!   not re-derived here).
//! - **The token is a number (`INT_NUMBER`, `FLOAT_NUMBER`), a comment or
//!   whitespace.** The parser decides on token kinds, on the text of
//!   identifiers and dotted words (directive names, `.noreturn`,
//!   `function_name`, ...), and on whether trivia holds a line break; it never
//!   compares the text of a number, comment or whitespace with anything.
//! - **The lexer cuts the new text the same way, with the same kind.** The
//!   previous token, the edited token and the first character after it are
//!   lexed again: the previous token must come out unchanged and the edited
//!   one as a single token of its old kind, with no lexing error. A token's
//!   extent depends only on its own bytes and the first byte after it, and the
//!   only state the lexer carries between tokens is whether the previous token
//!   is a word (see `lexer`), which the previous token's unchanged kind keeps.
//!   So the tokens after the edited one lex as before.
//! - **Trivia keeps its line breaks or their absence** (`has_newline`), the
//!   only thing about trivia the parser looks at.
//!
//! Then the parser sees the same kinds, the same compared texts and the same
//! line breaks, makes the same decisions and builds the same tree shape; only
//! the token's text differs. The test `tests/reparse.rs` compares the result
//! with a full parse on many single-token edits of every test-data and
//! corpus file.
//!
//! [`parse`]: crate::parse

use rowan::{GreenToken, TextRange, TextSize};

use crate::lexer;
use crate::syntax_kind::SyntaxToken;
use crate::{Parse, SyntaxKind};

/// The tree of `old`'s text with `range` (offsets in that text) replaced by
/// `replacement`, when the edit stays inside one number, comment or
/// whitespace token and the result is certain to equal a full parse of the
/// new text (see the module documentation); `None` otherwise (the caller
/// parses the new text).
pub fn reparse_token(old: &Parse, range: TextRange, replacement: &str) -> Option<Parse> {
    if !old.errors().is_empty() {
        return None;
    }
    let root = old.syntax_node();
    if range.end() > root.text_range().end() {
        return None;
    }
    // An insertion between two tokens may extend either: try the left one
    // first (typing at the end of a number).
    let candidates = root.token_at_offset(range.start());
    candidates
        .filter(|token| token.text_range().contains_range(range))
        .find_map(|token| replaced(&token, range, replacement))
}

/// The new tree when `token` may take the edit.
fn replaced(token: &SyntaxToken, range: TextRange, replacement: &str) -> Option<Parse> {
    let kind = token.kind();
    if !matches!(
        kind,
        SyntaxKind::INT_NUMBER
            | SyntaxKind::FLOAT_NUMBER
            | SyntaxKind::COMMENT
            | SyntaxKind::WHITESPACE
    ) {
        return None;
    }
    let old_text = token.text();
    let at = range - token.text_range().start();
    let mut new_text = String::with_capacity(old_text.len() + replacement.len());
    new_text.push_str(&old_text[..usize::from(at.start())]);
    new_text.push_str(replacement);
    new_text.push_str(&old_text[usize::from(at.end())..]);
    if new_text.is_empty() || new_text == old_text {
        return None;
    }
    let prev = token.prev_token();
    let next_char = token
        .next_token()
        .and_then(|next| next.text().chars().next());
    let old_newline = lexes_as_one(prev.as_ref(), old_text, next_char, kind)?;
    let new_newline = lexes_as_one(prev.as_ref(), &new_text, next_char, kind)?;
    if old_newline != new_newline {
        return None;
    }
    let green = token.replace_with(GreenToken::new(kind.into(), &new_text));
    Some(Parse::from_parts(green, Vec::new()))
}

/// Lexes the previous token's text, `text` and the first character after
/// it; when the previous token comes out unchanged and `text` as one token of
/// `kind`, without a lexing error in either, returns whether that token holds
/// a line break (as the lexer reports it for trivia).
fn lexes_as_one(
    prev: Option<&SyntaxToken>,
    text: &str,
    next_char: Option<char>,
    kind: SyntaxKind,
) -> Option<bool> {
    let prev_text = prev.map_or("", |t| t.text());
    let mut context = String::with_capacity(prev_text.len() + text.len() + 4);
    context.push_str(prev_text);
    context.push_str(text);
    if let Some(c) = next_char {
        context.push(c);
    }
    let (tokens, errors) = lexer::tokenize(&context);
    let edited_end = TextSize::of(prev_text) + TextSize::of(text);
    if errors.iter().any(|e| TextSize::from(e.offset) < edited_end) {
        return None;
    }
    let mut tokens = tokens.iter();
    if let Some(prev) = prev {
        let first = tokens.next()?;
        if first.kind != prev.kind() || first.len as usize != prev_text.len() {
            return None;
        }
    }
    let edited = tokens.next()?;
    (edited.kind == kind && edited.len as usize == text.len()).then_some(edited.has_newline)
}
