//! A cheap, read-only view of a syntax tree through its green nodes.
//!
//! rowan's [`SyntaxNode`](crate::SyntaxNode) is a cursor: every node it visits
//! (`children()`, `first_token()`, ...) is a heap allocation that is freed again
//! when dropped. The checks visit every instruction and every operand of a
//! module, so in a cold run that allocation was most of their cost. A
//! [`GreenRef`] is a green node and its absolute start offset: walking one
//! allocates nothing, and the start of a child is the start of its parent plus
//! the lengths of the children before it. Kinds, texts and ranges are exactly
//! those of the `SyntaxNode` at the same place.

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken, TextRange, TextSize};

use crate::SyntaxKind;

/// A green node with its absolute start offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GreenRef<'g> {
    green: &'g GreenNodeData,
    start: TextSize,
}

/// A green token with its absolute start offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GreenTok<'g> {
    green: &'g GreenTokenData,
    start: TextSize,
}

fn raw(kind: SyntaxKind) -> rowan::SyntaxKind {
    kind.into()
}

impl<'g> GreenRef<'g> {
    /// The view of `green`, a node starting at `start`.
    pub(crate) fn new(green: &'g GreenNodeData, start: TextSize) -> GreenRef<'g> {
        GreenRef { green, start }
    }

    pub(crate) fn kind(self) -> SyntaxKind {
        <crate::PtxLanguage as rowan::Language>::kind_from_raw(self.green.kind())
    }

    pub(crate) fn is(self, kind: SyntaxKind) -> bool {
        self.green.kind() == raw(kind)
    }

    pub(crate) fn range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// The text of the node (every token below it), for messages.
    pub(crate) fn text(self) -> String {
        self.green.to_string()
    }

    /// Child nodes and tokens, in order.
    pub(crate) fn elements(self) -> impl Iterator<Item = NodeOrToken<GreenRef<'g>, GreenTok<'g>>> {
        let mut offset = self.start;
        self.green.children().map(move |child| {
            let start = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Node(green) => NodeOrToken::Node(GreenRef { green, start }),
                NodeOrToken::Token(green) => NodeOrToken::Token(GreenTok { green, start }),
            }
        })
    }

    /// Child nodes, in order.
    pub(crate) fn children(self) -> impl Iterator<Item = GreenRef<'g>> {
        self.elements().filter_map(NodeOrToken::into_node)
    }

    /// The first child node of a kind.
    pub(crate) fn child(self, kind: SyntaxKind) -> Option<GreenRef<'g>> {
        self.children().find(|c| c.is(kind))
    }

    /// Child tokens, in order.
    pub(crate) fn tokens(self) -> impl Iterator<Item = GreenTok<'g>> {
        self.elements().filter_map(NodeOrToken::into_token)
    }

    /// The first child token of a kind.
    pub(crate) fn token(self, kind: SyntaxKind) -> Option<GreenTok<'g>> {
        self.tokens().find(|t| t.is(kind))
    }

    /// The first token of the subtree, as `SyntaxNode::first_token` finds it:
    /// the first child, descended into (an empty first child node gives `None`).
    pub(crate) fn first_token(self) -> Option<GreenTok<'g>> {
        match self.elements().next()? {
            NodeOrToken::Node(node) => node.first_token(),
            NodeOrToken::Token(token) => Some(token),
        }
    }
}

impl<'g> GreenTok<'g> {
    pub(crate) fn is(self, kind: SyntaxKind) -> bool {
        self.green.kind() == raw(kind)
    }

    pub(crate) fn text(self) -> &'g str {
        self.green.text()
    }

    pub(crate) fn range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// The identity of the token's green data (see [`TokenId`]).
    pub(crate) fn id(self) -> TokenId<'g> {
        TokenId(self.green)
    }
}

/// A green token compared and hashed by address: a cheap key for caches
/// keyed by a token's text. Equal ids are the same green token, so of the same
/// kind and text; the tree builder interns tokens, so within one parse every
/// occurrence of a text has the same id (tokens of different parses with equal
/// texts are only different keys).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TokenId<'g>(&'g GreenTokenData);

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
