//! An allocation-free, read-only view of a syntax tree through its green
//! nodes, with absolute ranges.
//!
//! rowan's [`SyntaxNode`](crate::SyntaxNode) is a cursor: every node it hands
//! out (`children()`, `first_token()`, ...), and so every typed [`ast`](crate::ast)
//! node, is a heap allocation that is freed again when dropped. A [`Node`]
//! instead borrows a green node ([`GreenNodeData`]) and carries its absolute
//! start offset: the start of a child is the start of its parent plus the
//! lengths of the children before it, summed while iterating. Walking a
//! subtree this way allocates, reference-counts and frees nothing. Kinds, texts
//! and ranges are exactly those of the `SyntaxNode` at the same place.
//!
//! Use it for walks that visit every node of a large subtree, where the cost
//! of the red tree shows: the checks ([`check`](crate::check)) and the
//! lowering of `ptx-ir` read every function body through it. Elsewhere (a few
//! nodes, module-level items, anything that needs parents or siblings, which
//! this view does not have) the typed [`ast`](crate::ast) is clearer: start a
//! view at a node found through it with
//! `Node::new(&node.green(), node.text_range().start())`.

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken, TextRange, TextSize};

use crate::SyntaxKind;

/// A green node and where it starts in the text.
#[derive(Clone, Copy, Debug)]
pub struct Node<'g> {
    green: &'g GreenNodeData,
    start: TextSize,
}

/// A green token and where it starts in the text.
#[derive(Clone, Copy, Debug)]
pub struct Token<'g> {
    green: &'g GreenTokenData,
    start: TextSize,
}

/// A child of a [`Node`]: a node or a token.
#[derive(Clone, Copy, Debug)]
pub enum Element<'g> {
    Node(Node<'g>),
    Token(Token<'g>),
}

/// The kind of a raw kind read from a green node or token (`ERROR` for one
/// that is no kind, which no tree built by this crate holds).
fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR)
}

impl<'g> Node<'g> {
    /// The view of `green`, a node starting at `start` in the text.
    pub fn new(green: &'g GreenNodeData, start: TextSize) -> Node<'g> {
        Node { green, start }
    }

    /// The green node viewed.
    pub fn green(self) -> &'g GreenNodeData {
        self.green
    }

    pub fn kind(self) -> SyntaxKind {
        kind_of(self.green.kind())
    }

    /// Whether the node is of `kind` (cheaper than comparing [`Node::kind`]).
    pub fn is(self, kind: SyntaxKind) -> bool {
        self.green.kind() == kind.into()
    }

    pub fn range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// The text of the node (every token below it, trivia included), for
    /// messages and fallbacks.
    pub fn text(self) -> String {
        self.green.to_string()
    }

    /// The direct children, nodes and tokens (trivia included), in order.
    pub fn children_with_tokens(self) -> impl Iterator<Item = Element<'g>> {
        self.green.children().scan(self.start, |offset, child| {
            let start = *offset;
            *offset += child.text_len();
            Some(Element::at(child, start))
        })
    }

    /// The direct children, nodes and tokens, in reverse order.
    fn children_with_tokens_rev(self) -> impl Iterator<Item = Element<'g>> {
        let end = self.range().end();
        self.green.children().rev().scan(end, |offset, child| {
            *offset -= child.text_len();
            Some(Element::at(child, *offset))
        })
    }

    /// The direct child nodes, in order.
    pub fn children(self) -> impl Iterator<Item = Node<'g>> {
        self.children_with_tokens().filter_map(Element::into_node)
    }

    /// The first direct child node of `kind`.
    pub fn child(self, kind: SyntaxKind) -> Option<Node<'g>> {
        self.children().find(|n| n.is(kind))
    }

    /// The direct child tokens (trivia included), in order.
    pub fn tokens(self) -> impl Iterator<Item = Token<'g>> {
        self.children_with_tokens().filter_map(Element::into_token)
    }

    /// The direct child tokens that are not trivia, in order.
    pub fn significant_tokens(self) -> impl Iterator<Item = Token<'g>> {
        self.tokens().filter(|t| !t.is_trivia())
    }

    /// The first direct child token of `kind`.
    pub fn token(self, kind: SyntaxKind) -> Option<Token<'g>> {
        self.tokens().find(|t| t.is(kind))
    }

    /// The first token of the subtree, as `SyntaxNode::first_token` finds it:
    /// the first child, descended into (`None` when that child is an empty
    /// node).
    pub fn first_token(self) -> Option<Token<'g>> {
        match self.children_with_tokens().next()? {
            Element::Node(n) => n.first_token(),
            Element::Token(t) => Some(t),
        }
    }

    /// The first token of the subtree that is not trivia.
    fn first_significant(self) -> Option<Token<'g>> {
        self.children_with_tokens().find_map(|e| match e {
            Element::Node(n) => n.first_significant(),
            Element::Token(t) => (!t.is_trivia()).then_some(t),
        })
    }

    /// The last token of the subtree that is not trivia.
    fn last_significant(self) -> Option<Token<'g>> {
        self.children_with_tokens_rev().find_map(|e| match e {
            Element::Node(n) => n.last_significant(),
            Element::Token(t) => (!t.is_trivia()).then_some(t),
        })
    }

    /// The range from the start of the first to the end of the last token of
    /// the subtree that is not trivia (the whole node when it has none).
    pub fn significant_range(self) -> TextRange {
        match (self.first_significant(), self.last_significant()) {
            (Some(first), Some(last)) => TextRange::new(first.start, last.range().end()),
            _ => self.range(),
        }
    }

    /// Calls `f` on every token of the subtree (trivia included), in order.
    pub fn for_each_token(self, f: &mut impl FnMut(Token<'g>)) {
        for element in self.children_with_tokens() {
            match element {
                Element::Node(n) => n.for_each_token(f),
                Element::Token(t) => f(t),
            }
        }
    }

    /// Whether the node or a node below it satisfies `pred` (tried in
    /// preorder, stopping at the first that does).
    pub fn any_descendant(self, pred: &mut impl FnMut(Node<'g>) -> bool) -> bool {
        pred(self) || self.children().any(|n| n.any_descendant(pred))
    }
}

impl<'g> Token<'g> {
    pub fn kind(self) -> SyntaxKind {
        kind_of(self.green.kind())
    }

    /// Whether the token is of `kind` (cheaper than comparing [`Token::kind`]).
    pub fn is(self, kind: SyntaxKind) -> bool {
        self.green.kind() == kind.into()
    }

    /// Whitespace or a comment.
    pub fn is_trivia(self) -> bool {
        self.kind().is_trivia()
    }

    pub fn text(self) -> &'g str {
        self.green.text()
    }

    pub fn range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// The identity of the token's green data (see [`TokenId`]).
    pub fn id(self) -> TokenId<'g> {
        TokenId(self.green)
    }
}

impl<'g> Element<'g> {
    /// The view of a green child starting at `start`.
    fn at(child: NodeOrToken<&'g GreenNodeData, &'g GreenTokenData>, start: TextSize) -> Self {
        match child {
            NodeOrToken::Node(green) => Element::Node(Node { green, start }),
            NodeOrToken::Token(green) => Element::Token(Token { green, start }),
        }
    }

    pub fn into_node(self) -> Option<Node<'g>> {
        match self {
            Element::Node(n) => Some(n),
            Element::Token(_) => None,
        }
    }

    pub fn into_token(self) -> Option<Token<'g>> {
        match self {
            Element::Node(_) => None,
            Element::Token(t) => Some(t),
        }
    }
}

/// A green token compared and hashed by address: a cheap key for caches
/// keyed by a token's text. Equal ids are the same green token, so of the same
/// kind and text; the tree builder interns tokens, so within one parse every
/// occurrence of a text has the same id (tokens of different parses with equal
/// texts are only different keys).
#[derive(Clone, Copy, Debug)]
pub struct TokenId<'g>(&'g GreenTokenData);

impl PartialEq for TokenId<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for TokenId<'_> {}

impl std::hash::Hash for TokenId<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state);
    }
}

/// Whether two green trees are equal (same kinds and texts, hence the same
/// text), like `==`, but taking any pair of nodes or tokens at the same place
/// that are one allocation as equal without looking inside. Trees built from
/// one another share most of their nodes (a token reparse rebuilds only the
/// path to the token, [`reparse`](crate::reparse); a skeleton shares every
/// item header, [`skeleton`](crate::skeleton)), so comparing them costs the
/// nodes that differ, not the whole tree.
pub fn same_tree(a: &GreenNodeData, b: &GreenNodeData) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    a.kind() == b.kind()
        && a.text_len() == b.text_len()
        && a.children().len() == b.children().len()
        && a.children().zip(b.children()).all(|pair| match pair {
            (NodeOrToken::Node(x), NodeOrToken::Node(y)) => same_tree(x, y),
            (NodeOrToken::Token(x), NodeOrToken::Token(y)) => {
                std::ptr::eq(x, y) || (x.kind() == y.kind() && x.text() == y.text())
            }
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SyntaxNode;

    /// Kinds, texts and ranges of the whole view against the red tree's.
    #[test]
    fn matches_the_red_tree() {
        let text = ".version 8.0\n.target sm_90\n.entry k() {\n  // c\n  @%p bra L; add.s32 %r1, %r2, 4*2; // t\n}\n";
        let red = crate::parse(text).syntax_node();
        let green = red.green();
        fn walk(red: &SyntaxNode, node: Node<'_>) {
            assert_eq!(red.kind(), node.kind());
            assert!(node.is(red.kind()));
            assert_eq!(red.text_range(), node.range());
            assert_eq!(red.to_string(), node.text());
            let first = |t: &crate::SyntaxToken| (t.kind(), t.text().to_string(), t.text_range());
            let view = |t: Token<'_>| (t.kind(), t.text().to_string(), t.range());
            assert_eq!(
                red.first_token().map(|t| first(&t)),
                node.first_token().map(view)
            );
            let reds: Vec<_> = red.children_with_tokens().collect();
            let greens: Vec<_> = node.children_with_tokens().collect();
            let rev: Vec<_> = node.children_with_tokens_rev().collect();
            assert_eq!(reds.len(), greens.len());
            assert_eq!(reds.len(), rev.len());
            for (r, (g, g_rev)) in reds
                .iter()
                .zip(greens.into_iter().zip(rev.into_iter().rev()))
            {
                match (g, g_rev) {
                    (Element::Node(n), Element::Node(n_rev)) => {
                        assert_eq!(n.range(), n_rev.range());
                        walk(r.as_node().unwrap(), n);
                    }
                    (Element::Token(t), Element::Token(t_rev)) => {
                        assert_eq!(t.range(), t_rev.range());
                        assert_eq!(first(r.as_token().unwrap()), view(t));
                    }
                    _ => panic!("forward and reverse children differ"),
                }
            }
        }
        walk(&red, Node::new(&green, red.text_range().start()));
    }

    #[test]
    fn significant_range_skips_trivia() {
        let text = ".entry k() {\n  add.s32 %r1, %r2, 1; // t\n}\n";
        let red = crate::parse(text).syntax_node();
        let inst = red
            .descendants()
            .find(|n| n.kind() == SyntaxKind::INSTRUCTION)
            .unwrap();
        let green = inst.green();
        let node = Node::new(&green, inst.text_range().start());
        let range = node.significant_range();
        assert_eq!(&text[range], "add.s32 %r1, %r2, 1;");
    }
}
