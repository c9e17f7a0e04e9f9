//! Semantic tokens: every significant token classified by what it is in the
//! tree and, for names, by what it resolves to (register, label, parameter,
//! function, variable; special registers such as `%tid`).

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::{SyntaxKind, TextRange};

use crate::analysis::root;
use crate::scope::{DefKind, Scopes};

/// The classes of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// An opcode word.
    Opcode,
    /// A modifier or type of an opcode, or a directive's dotted word.
    Modifier,
    Directive,
    Register,
    SpecialRegister,
    Label,
    Param,
    Function,
    Variable,
    Number,
    String,
    Comment,
}

/// One token: its range and class; `definition` when it is the declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: TokenKind,
    pub definition: bool,
}

pub(crate) fn semantic_tokens(db: &RootDatabase, path: &Path) -> Vec<SemanticToken> {
    let Some(root) = root(db, path) else {
        return Vec::new();
    };
    let scopes = Scopes::new(&root);
    let mut out = Vec::new();
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let parent = token.parent().map(|p| p.kind());
        let mut definition = false;
        let kind = match token.kind() {
            SyntaxKind::COMMENT => TokenKind::Comment,
            SyntaxKind::STRING => TokenKind::String,
            SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER => TokenKind::Number,
            SyntaxKind::DOT_IDENT if parent == Some(SyntaxKind::OPCODE) => TokenKind::Modifier,
            SyntaxKind::DOT_IDENT if parent == Some(SyntaxKind::NAME_REF) => {
                TokenKind::SpecialRegister
            }
            SyntaxKind::DOT_IDENT => TokenKind::Directive,
            SyntaxKind::IDENT if parent == Some(SyntaxKind::OPCODE) => TokenKind::Opcode,
            SyntaxKind::IDENT => match scopes.resolve(&token) {
                Some(r) => {
                    definition = r.is_def;
                    match r.def.kind {
                        DefKind::Register => TokenKind::Register,
                        DefKind::Label => TokenKind::Label,
                        DefKind::Param => TokenKind::Param,
                        DefKind::Function => TokenKind::Function,
                        DefKind::Variable => TokenKind::Variable,
                    }
                }
                None if token.text().starts_with('%') => TokenKind::SpecialRegister,
                None => continue,
            },
            _ => continue,
        };
        out.push(SemanticToken {
            range: token.text_range(),
            kind,
            definition,
        });
    }
    out
}
