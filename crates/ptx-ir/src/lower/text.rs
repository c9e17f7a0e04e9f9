//! Text helpers over syntax nodes: significant tokens, normalized text, trimmed
//! ranges.

use ptx_syntax::{SyntaxNode, SyntaxToken, TextRange};

/// The non-trivia direct child tokens of `node`.
pub(crate) fn direct_tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
}

/// The text of `node` with comments dropped and every run of whitespace or
/// comments between two tokens replaced by one space; nothing before the first
/// or after the last token.
pub(crate) fn normalized_text(node: &SyntaxNode) -> String {
    normalized_text_after(node, 0)
}

/// Like [`normalized_text`], skipping the first `skip` significant tokens.
pub(crate) fn normalized_text_after(node: &SyntaxNode, skip: usize) -> String {
    let mut out = String::new();
    let mut space = false;
    let mut seen = 0usize;
    for tok in node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if tok.kind().is_trivia() {
            space = !out.is_empty();
            continue;
        }
        seen += 1;
        if seen <= skip {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push_str(tok.text());
    }
    out
}

/// The text of `node` as written, without trailing whitespace (leading trivia
/// never belongs to a node).
pub(crate) fn trimmed_text(node: &SyntaxNode) -> String {
    node.to_string().trim_end().to_string()
}

/// The range from the first to the last significant token of `node`.
pub(crate) fn significant_range(node: &SyntaxNode) -> TextRange {
    match (first_significant(node), last_significant(node)) {
        (Some(first), Some(last)) => {
            TextRange::new(first.text_range().start(), last.text_range().end())
        }
        _ => node.text_range(),
    }
}

/// The first non-trivia token of `node` (preorder), without walking the rest.
fn first_significant(node: &SyntaxNode) -> Option<SyntaxToken> {
    let mut child = node.first_child_or_token();
    while let Some(element) = child {
        if let Some(t) = element.as_token() {
            if !t.kind().is_trivia() {
                return Some(t.clone());
            }
        } else if let Some(t) = element.as_node().and_then(first_significant) {
            return Some(t);
        }
        child = element.next_sibling_or_token();
    }
    None
}

/// The last non-trivia token of `node` (preorder), walking backwards.
fn last_significant(node: &SyntaxNode) -> Option<SyntaxToken> {
    let mut child = node.last_child_or_token();
    while let Some(element) = child {
        if let Some(t) = element.as_token() {
            if !t.kind().is_trivia() {
                return Some(t.clone());
            }
        } else if let Some(t) = element.as_node().and_then(last_significant) {
            return Some(t);
        }
        child = element.prev_sibling_or_token();
    }
    None
}

/// The text of a statement after its first `skip` tokens, without the final `;`:
/// `"nounroll"` of `.pragma "nounroll";`.
pub(crate) fn statement_tail(node: &SyntaxNode, skip: usize) -> String {
    let text = normalized_text_after(node, skip);
    text.strip_suffix(';')
        .unwrap_or(&text)
        .trim_end()
        .to_string()
}
