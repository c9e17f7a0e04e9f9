//! Allocation-free views of the green tree, for walking it fast.
//!
//! Lowering visits every node of a function body. rowan's cursor API
//! (`SyntaxNode`, and the typed `ast` over it) allocates a red node for each
//! node it hands out and frees it afterwards; on a 1 MB module that was most of
//! lowering's time. A [`Node`] instead borrows a `GreenNodeData` and carries the
//! node's absolute start: the start of a child is the node's start plus the
//! lengths of the siblings before it, summed while iterating
//! (`GreenNodeData::children`). Nothing is allocated, reference-counted or
//! freed during a walk.
//!
//! Green nodes store rowan's raw kind; [`KINDS`] maps it back to a
//! [`SyntaxKind`] (ptx-syntax keeps rowan's `Language` trait, which does this,
//! to itself).

use ptx_syntax::{GreenNodeData, SyntaxKind, TextRange, TextSize};

/// A node of the green tree and where it starts in the text.
#[derive(Clone, Copy)]
pub(crate) struct Node<'a> {
    green: &'a GreenNodeData,
    kind: SyntaxKind,
    start: TextSize,
}

/// A token of the green tree and where it starts in the text.
#[derive(Clone, Copy)]
pub(crate) struct Token<'a> {
    pub kind: SyntaxKind,
    pub text: &'a str,
    pub start: TextSize,
}

/// A child of a [`Node`].
#[derive(Clone, Copy)]
pub(crate) enum Element<'a> {
    Node(Node<'a>),
    Token(Token<'a>),
}

impl Token<'_> {
    pub(crate) fn range(&self) -> TextRange {
        TextRange::at(self.start, TextSize::of(self.text))
    }

    fn is_trivia(&self) -> bool {
        self.kind.is_trivia()
    }
}

impl<'a> Node<'a> {
    /// A view of `green`, which starts at `start` in the text.
    pub(crate) fn new(green: &'a GreenNodeData, start: TextSize) -> Node<'a> {
        Node {
            green,
            kind: kind_of(green.kind().0),
            start,
        }
    }

    pub(crate) fn kind(self) -> SyntaxKind {
        self.kind
    }

    pub(crate) fn range(self) -> TextRange {
        TextRange::at(self.start, self.green.text_len())
    }

    /// The text of the node, trivia included.
    pub(crate) fn text(self) -> String {
        self.green.to_string()
    }

    /// The direct children, nodes and tokens (trivia included), in order.
    pub(crate) fn children_with_tokens(self) -> impl Iterator<Item = Element<'a>> {
        self.green.children().scan(self.start, |offset, child| {
            let start = *offset;
            *offset += child.text_len();
            Some(match child.into_token() {
                Some(token) => Element::Token(Token {
                    kind: kind_of(token.kind().0),
                    text: token.text(),
                    start,
                }),
                None => Element::Node(Node::new(child.into_node()?, start)),
            })
        })
    }

    /// The direct children, in reverse order.
    fn children_with_tokens_rev(self) -> impl Iterator<Item = Element<'a>> {
        let end = self.start + self.green.text_len();
        self.green.children().rev().scan(end, |offset, child| {
            *offset -= child.text_len();
            let start = *offset;
            Some(match child.into_token() {
                Some(token) => Element::Token(Token {
                    kind: kind_of(token.kind().0),
                    text: token.text(),
                    start,
                }),
                None => Element::Node(Node::new(child.into_node()?, start)),
            })
        })
    }

    /// The direct child nodes.
    pub(crate) fn children(self) -> impl Iterator<Item = Node<'a>> {
        self.children_with_tokens().filter_map(|e| match e {
            Element::Node(n) => Some(n),
            Element::Token(_) => None,
        })
    }

    /// The first direct child node of `kind`.
    pub(crate) fn child(self, kind: SyntaxKind) -> Option<Node<'a>> {
        self.children().find(|n| n.kind == kind)
    }

    /// The direct child tokens, trivia included.
    pub(crate) fn tokens(self) -> impl Iterator<Item = Token<'a>> {
        self.children_with_tokens().filter_map(|e| match e {
            Element::Token(t) => Some(t),
            Element::Node(_) => None,
        })
    }

    /// The direct child tokens that are not trivia.
    pub(crate) fn significant_tokens(self) -> impl Iterator<Item = Token<'a>> {
        self.tokens().filter(|t| !t.is_trivia())
    }

    /// The first direct child token of `kind`.
    pub(crate) fn token(self, kind: SyntaxKind) -> Option<Token<'a>> {
        self.tokens().find(|t| t.kind == kind)
    }

    /// The first token of the first child, recursively (like rowan's
    /// `first_token`: `None` when that child is an empty node).
    pub(crate) fn first_token(self) -> Option<Token<'a>> {
        match self.children_with_tokens().next()? {
            Element::Token(t) => Some(t),
            Element::Node(n) => n.first_token(),
        }
    }

    /// The first non-trivia token in preorder.
    fn first_significant(self) -> Option<Token<'a>> {
        self.children_with_tokens().find_map(|e| match e {
            Element::Token(t) => (!t.is_trivia()).then_some(t),
            Element::Node(n) => n.first_significant(),
        })
    }

    /// The last non-trivia token in preorder.
    fn last_significant(self) -> Option<Token<'a>> {
        self.children_with_tokens_rev().find_map(|e| match e {
            Element::Token(t) => (!t.is_trivia()).then_some(t),
            Element::Node(n) => n.last_significant(),
        })
    }

    /// The range from the first to the last significant token (the whole node
    /// when it has none).
    pub(crate) fn significant_range(self) -> TextRange {
        match (self.first_significant(), self.last_significant()) {
            (Some(first), Some(last)) => TextRange::new(first.start, last.range().end()),
            _ => self.range(),
        }
    }

    /// Calls `f` on every token below the node, in preorder, trivia included.
    pub(crate) fn for_each_token(self, f: &mut impl FnMut(Token<'a>)) {
        for element in self.children_with_tokens() {
            match element {
                Element::Token(t) => f(t),
                Element::Node(n) => n.for_each_token(f),
            }
        }
    }

    /// Whether the node or a node below it satisfies `pred` (preorder).
    pub(crate) fn any_descendant(self, pred: &mut impl FnMut(Node<'a>) -> bool) -> bool {
        pred(self) || self.children().any(|n| n.any_descendant(pred))
    }
}

/// The [`SyntaxKind`] of a raw rowan kind (`ERROR` for one out of range,
/// which no tree of ours holds).
fn kind_of(raw: u16) -> SyntaxKind {
    KINDS
        .get(usize::from(raw))
        .copied()
        .unwrap_or(SyntaxKind::ERROR)
}

use SyntaxKind::*;

/// Every [`SyntaxKind`], indexed by its raw value (checked at compile time).
const KINDS: [SyntaxKind; 87] = [
    WHITESPACE,
    COMMENT,
    IDENT,
    DOT_IDENT,
    INT_NUMBER,
    FLOAT_NUMBER,
    STRING,
    SEMICOLON,
    COMMA,
    COLON,
    L_CURLY,
    R_CURLY,
    L_BRACK,
    R_BRACK,
    L_PAREN,
    R_PAREN,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    BANG,
    AT,
    LT,
    GT,
    EQ,
    PIPE,
    AMP,
    CARET,
    TILDE,
    QUESTION,
    SHL,
    SHR,
    EQ2,
    NEQ,
    LTEQ,
    GTEQ,
    AMP2,
    PIPE2,
    UNDERSCORE,
    ERROR_TOKEN,
    SOURCE_FILE,
    VERSION_DIRECTIVE,
    TARGET_DIRECTIVE,
    ADDRESS_SIZE_DIRECTIVE,
    FILE_DIRECTIVE,
    SECTION_DIRECTIVE,
    SECTION_DATA,
    ALIAS_DIRECTIVE,
    PRAGMA_DIRECTIVE,
    LOC_DIRECTIVE,
    UNKNOWN_DIRECTIVE,
    FUNCTION,
    RETURN_PARAMS,
    PARAM_LIST,
    PARAM,
    PERF_DIRECTIVE,
    BLOCK,
    VAR_DECL,
    DECLARATOR,
    REG_COUNT,
    ARRAY_DIM,
    INITIALIZER,
    INIT_LIST,
    FIELD_INIT,
    LABEL_DEF,
    NAME,
    CALL_PROTOTYPE,
    CALL_TARGETS,
    BRANCH_TARGETS,
    INSTRUCTION,
    GUARD,
    OPCODE,
    OPERAND,
    NAME_REF,
    LITERAL,
    PREFIX_EXPR,
    BIN_EXPR,
    PAREN_EXPR,
    CALL_EXPR,
    TERNARY_EXPR,
    ADDRESS,
    VECTOR,
    ARG_LIST,
    PRED_PAIR,
    SINK,
    ERROR,
];

const _: () = {
    let mut i = 0;
    while i < KINDS.len() {
        assert!(KINDS[i] as usize == i, "KINDS is out of order");
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_syntax::SyntaxNode;

    #[test]
    fn kinds_cover_every_syntax_kind() {
        assert_eq!(KINDS.len(), SyntaxKind::__LAST as usize);
    }

    #[test]
    fn ranges_match_the_red_tree() {
        let text = ".version 8.0\n.target sm_90\n.entry k() {\n  // c\n  @%p bra L; add.s32 %r1, %r2, 4*2; // t\n}\n";
        let red = ptx_syntax::parse(text).syntax_node();
        let green = red.green();
        let root = Node::new(&green, red.text_range().start());
        fn walk(red: &SyntaxNode, node: Node<'_>) {
            assert_eq!(red.kind(), node.kind());
            assert_eq!(red.text_range(), node.range());
            let reds: Vec<_> = red.children_with_tokens().collect();
            let greens: Vec<_> = node.children_with_tokens().collect();
            assert_eq!(reds.len(), greens.len());
            for (r, g) in reds.iter().zip(greens) {
                match g {
                    Element::Node(n) => walk(r.as_node().unwrap(), n),
                    Element::Token(t) => {
                        let r = r.as_token().unwrap();
                        assert_eq!(
                            (r.kind(), r.text(), r.text_range()),
                            (t.kind, t.text, t.range())
                        );
                    }
                }
            }
        }
        walk(&red, root);
    }
}
