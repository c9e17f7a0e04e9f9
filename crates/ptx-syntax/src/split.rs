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

use crate::lexer::tokenize;
use crate::SyntaxKind::*;

/// Directives that start a top-level item (never a perf directive that may
/// follow a function header).
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

/// Directives that end at the end of their line.
fn is_line_directive(text: &str) -> bool {
    matches!(text, ".version" | ".target" | ".address_size" | ".file")
}

/// The chunk boundaries of `text`: offsets strictly inside it, increasing,
/// each the start of a token. The second value says whether the end of `text`
/// would itself be a boundary if a module-level directive followed (used to
/// re-split only part of a file: see `ptx-db`).
pub fn split_points(text: &str) -> (Vec<usize>, bool) {
    let (tokens, _errors) = tokenize(text);
    let mut points = Vec::new();
    let mut offset = 0usize;
    let mut braces = 0usize;
    let mut parens = 0usize;
    let mut prev = None;
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
