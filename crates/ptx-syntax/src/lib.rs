//! `ptx-syntax`: the PTX front end.
//!
//! A lexer and a hand-written recursive-descent parser producing a lossless rowan
//! syntax tree (every byte of the input, comments and whitespace included, is in
//! the tree), typed accessors over that tree ([`ast`]), an allocation-free view
//! of its green nodes for walking large subtrees fast ([`green`]), and checks
//! beyond syntax ([`check`]: undeclared names, operand counts and kinds,
//! modifiers, types, version and target requirements) driven by the
//! instruction table of [`ptx_isa`].
//!
//! Parsing never fails: [`parse`] returns the tree together with a list of errors,
//! and an error in one function does not stop the rest of the file from parsing.
//! An edit inside one number, comment or whitespace token can be applied to an
//! old tree without parsing again ([`reparse::reparse_token`]).
//! This crate knows nothing of salsa or LSP.

pub mod ast;
pub mod check;
pub mod format;
pub mod green;
pub mod lexer;
pub mod line_index;
mod parser;
pub mod reparse;
pub mod skeleton;
pub mod split;
mod syntax_kind;
mod tree_builder;

pub use parser::{SyntaxError, MAX_NESTING};
pub use rowan::{GreenNode, GreenNodeData, TextRange, TextSize};
pub use syntax_kind::{PtxLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};

/// The result of parsing a PTX module: a green tree and the syntax errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
}

impl Parse {
    /// A parse from its parts: a `SOURCE_FILE` green node and its errors
    /// (sorted by position). `ptx-db` assembles the parse of a file from the
    /// parses of its chunks ([`split`]).
    pub fn from_parts(green: GreenNode, errors: Vec<SyntaxError>) -> Parse {
        Parse { green, errors }
    }

    /// The root of the syntax tree (a `SOURCE_FILE` node).
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The typed root.
    pub fn tree(&self) -> ast::SourceFile {
        ast::SourceFile {
            syntax: self.syntax_node(),
        }
    }

    /// The green (position-independent, shareable) tree.
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    /// Syntax errors, sorted by position.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }
}

/// Parses a PTX module. Never fails; see [`Parse::errors`].
pub fn parse(text: &str) -> Parse {
    let (green, errors) = parser::parse_source(text);
    Parse { green, errors }
}

/// Renders a syntax tree as an indented debug dump (`KIND@start..end "text"`),
/// the format of the `.rast` snapshot files.
pub fn debug_tree(node: &SyntaxNode) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut depth = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let range = element.text_range();
                match &element {
                    rowan::NodeOrToken::Node(n) => {
                        let _ = writeln!(
                            out,
                            "{:indent$}{:?}@{:?}",
                            "",
                            n.kind(),
                            range,
                            indent = depth * 2
                        );
                    }
                    rowan::NodeOrToken::Token(t) => {
                        let _ = writeln!(
                            out,
                            "{:indent$}{:?}@{:?} {:?}",
                            "",
                            t.kind(),
                            range,
                            t.text(),
                            indent = depth * 2
                        );
                    }
                }
                depth += 1;
            }
            rowan::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    out
}
