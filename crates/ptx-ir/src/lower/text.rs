//! Text helpers over syntax nodes ([`green::Node`](ptx_syntax::green::Node) views):
//! names, normalized text, trimmed text.

use ptx_syntax::green::Node;
use ptx_syntax::SyntaxKind;

/// The text of a `NAME` node (its first token), or `""` (also without a node).
pub(crate) fn name_str(name: Option<Node<'_>>) -> &str {
    name.and_then(Node::first_token).map_or("", |t| t.text())
}

/// [`name_str`] as a `String`.
pub(crate) fn name_text(name: Option<Node<'_>>) -> String {
    name_str(name).to_string()
}

/// The text of a `NAME_REF` node: its identifier, or `""`.
pub(crate) fn name_ref_text<'a>(name: Node<'a>) -> &'a str {
    name.token(SyntaxKind::IDENT).map_or("", |t| t.text())
}

/// The text of `node` with comments dropped and every run of whitespace or
/// comments between two tokens replaced by one space; nothing before the first
/// or after the last token.
pub(crate) fn normalized_text(node: Node<'_>) -> String {
    normalized_text_after(node, 0)
}

/// Like [`normalized_text`], skipping the first `skip` significant tokens.
pub(crate) fn normalized_text_after(node: Node<'_>, skip: usize) -> String {
    let mut out = String::new();
    let mut space = false;
    let mut seen = 0usize;
    node.for_each_token(&mut |tok| {
        if tok.is_trivia() {
            space = !out.is_empty();
            return;
        }
        seen += 1;
        if seen <= skip {
            return;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push_str(tok.text());
    });
    out
}

/// The text of `node` as written, without trailing whitespace (leading trivia
/// never belongs to a node).
pub(crate) fn trimmed_text(node: Node<'_>) -> String {
    node.text().trim_end().to_string()
}

/// The text of a statement after its first `skip` tokens, without the final `;`:
/// `"nounroll"` of `.pragma "nounroll";`.
pub(crate) fn statement_tail(node: Node<'_>, skip: usize) -> String {
    let text = normalized_text_after(node, skip);
    text.strip_suffix(';')
        .unwrap_or(&text)
        .trim_end()
        .to_string()
}
