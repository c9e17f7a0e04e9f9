//! Name resolution on the syntax tree: what each name in a file refers to.
//!
//! PTX has two scopes that matter to an editor: the module (functions and
//! module-level variables) and the function (parameters, registers, local
//! variables, labels; nested `{ }` scopes are flattened, as lowering does). A
//! name used in a function is looked up there first, then at module level. A
//! parameterized register declaration `.reg .b32 %r<5>;` defines `%r0` to
//! `%r4`: a use of `%r3` resolves to that declaration.
//!
//! A [`Def`] is identified by the range of its name; references of a name are
//! the identifier tokens that resolve to the same definition with the same
//! text (so `%r3` and `%r4` of one `%r<5>` are different registers).

use std::collections::HashMap;

use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

/// What kind of thing a name defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefKind {
    Register,
    Label,
    Param,
    Function,
    /// A variable in a state space other than `.reg` (global, shared, const,
    /// local, a `.param` of a call sequence).
    Variable,
}

/// A definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    pub kind: DefKind,
    /// The declared name (`%r` of `%r<5>`).
    pub name: String,
    /// The range of the name at the definition.
    pub name_range: TextRange,
    /// The whole declaring node (the `VAR_DECL`, `PARAM`, `LABEL_DEF`, `FUNCTION`).
    pub decl: SyntaxNode,
    /// `N` of a parameterized register declaration `%r<N>`.
    pub count: Option<u32>,
}

#[derive(Default)]
struct Names {
    plain: HashMap<String, Def>,
    parameterized: Vec<Def>,
}

impl Names {
    fn add(&mut self, def: Def) {
        if def.count.is_some() {
            self.parameterized.push(def);
        } else {
            self.plain.entry(def.name.clone()).or_insert(def);
        }
    }

    fn get(&self, name: &str) -> Option<&Def> {
        self.plain.get(name).or_else(|| {
            self.parameterized.iter().find(|d| {
                name.strip_prefix(d.name.as_str()).is_some_and(|rest| {
                    !rest.is_empty()
                        && rest.bytes().all(|b| b.is_ascii_digit())
                        && (rest == "0" || !rest.starts_with('0'))
                        && rest.parse::<u32>().is_ok_and(|i| i < d.count.unwrap_or(0))
                })
            })
        })
    }

    fn all(&self) -> impl Iterator<Item = &Def> {
        self.plain.values().chain(self.parameterized.iter())
    }
}

/// The scopes of one file.
pub struct Scopes {
    module: Names,
    functions: Vec<(TextRange, Names)>,
}

/// What an identifier token resolves to.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub def: Def,
    /// The text of the token (`%r3`), which for a parameterized register is
    /// more than the definition's name.
    pub text: String,
    /// The token's range.
    pub range: TextRange,
    /// Whether the token is the definition itself.
    pub is_def: bool,
}

impl Scopes {
    pub fn new(root: &SyntaxNode) -> Scopes {
        let file = ast::SourceFile::cast(root.clone()).expect("a SOURCE_FILE");
        let mut module = Names::default();
        let mut functions = Vec::new();
        for func in file.functions() {
            if let Some(name) = func.name() {
                module.add(Def {
                    kind: DefKind::Function,
                    name: name.text(),
                    name_range: name_range(&name),
                    decl: func.syntax().clone(),
                    count: None,
                });
            }
            let mut names = Names::default();
            let params = func
                .params()
                .into_iter()
                .flat_map(|p| p.params().collect::<Vec<_>>())
                .chain(
                    func.return_params()
                        .into_iter()
                        .flat_map(|p| p.params().collect::<Vec<_>>()),
                );
            for param in params {
                if let Some(name) = param.name() {
                    names.add(Def {
                        kind: DefKind::Param,
                        name: name.text(),
                        name_range: name_range(&name),
                        decl: param.syntax().clone(),
                        count: None,
                    });
                }
            }
            if let Some(body) = func.body() {
                for node in body.syntax().descendants() {
                    match node.kind() {
                        SyntaxKind::VAR_DECL => {
                            let decl = ast::VarDecl::cast(node.clone()).expect("VAR_DECL");
                            let is_reg = decl.state_space().is_some_and(|t| t.text() == ".reg");
                            for d in decl.declarators() {
                                if let Some(name) = d.name() {
                                    names.add(Def {
                                        kind: if is_reg {
                                            DefKind::Register
                                        } else {
                                            DefKind::Variable
                                        },
                                        name: name.text(),
                                        name_range: name_range(&name),
                                        decl: node.clone(),
                                        count: d.reg_count(),
                                    });
                                }
                            }
                        }
                        SyntaxKind::LABEL_DEF => {
                            let label = ast::LabelDef::cast(node.clone()).expect("LABEL_DEF");
                            if let Some(name) = label.name() {
                                names.add(Def {
                                    kind: DefKind::Label,
                                    name: name.text(),
                                    name_range: name_range(&name),
                                    decl: node.clone(),
                                    count: None,
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
            functions.push((func.syntax().text_range(), names));
        }
        for decl in file.var_decls() {
            for d in decl.declarators() {
                if let Some(name) = d.name() {
                    module.add(Def {
                        kind: DefKind::Variable,
                        name: name.text(),
                        name_range: name_range(&name),
                        decl: decl.syntax().clone(),
                        count: None,
                    });
                }
            }
        }
        Scopes { module, functions }
    }

    fn function_at(&self, offset: TextSize) -> Option<&Names> {
        self.functions
            .iter()
            .find(|(r, _)| r.contains(offset))
            .map(|(_, n)| n)
    }

    /// Resolves an identifier token (of a `NAME` or `NAME_REF`).
    pub fn resolve(&self, token: &SyntaxToken) -> Option<Resolved> {
        if token.kind() != SyntaxKind::IDENT {
            return None;
        }
        let parent = token.parent()?;
        let text = token.text().to_string();
        let range = token.text_range();
        match parent.kind() {
            SyntaxKind::NAME => {
                let names = self.function_at(range.start());
                let def = names
                    .into_iter()
                    .flat_map(|n| n.all())
                    .chain(self.module.all())
                    .find(|d| d.name_range == range)?
                    .clone();
                Some(Resolved {
                    def,
                    text,
                    range,
                    is_def: true,
                })
            }
            SyntaxKind::NAME_REF => {
                let def = self
                    .function_at(range.start())
                    .and_then(|n| n.get(&text))
                    .or_else(|| self.module.get(&text))?
                    .clone();
                Some(Resolved {
                    def,
                    text,
                    range,
                    is_def: false,
                })
            }
            _ => None,
        }
    }

    /// Whether `def` is local to a function (so its references are all inside
    /// that function).
    pub fn local_range(&self, def: &Def) -> Option<TextRange> {
        self.functions
            .iter()
            .find(|(r, _)| r.contains(def.name_range.start()) && def.kind != DefKind::Function)
            .map(|(r, _)| *r)
    }

    /// Every token resolving to the same definition (and, for a parameterized
    /// register, with the same text), uses and definition, in source order.
    pub fn references(&self, root: &SyntaxNode, target: &Resolved) -> Vec<Resolved> {
        let range = self
            .local_range(&target.def)
            .unwrap_or_else(|| root.text_range());
        let node = match root.covering_element(range) {
            rowan::NodeOrToken::Node(n) => n,
            rowan::NodeOrToken::Token(t) => t.parent().unwrap_or_else(|| root.clone()),
        };
        let same_text = target.def.count.is_some();
        node.descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == SyntaxKind::IDENT)
            .filter(|t| !same_text || t.text() == target.text || t.text() == target.def.name)
            .filter_map(|t| self.resolve(&t))
            .filter(|r| r.def.name_range == target.def.name_range)
            .filter(|r| !same_text || r.is_def || r.text == target.text)
            .collect()
    }
}

/// The identifier token at `offset` (preferring one that touches it on
/// either side).
pub fn ident_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let tokens = root.token_at_offset(offset);
    tokens
        .clone()
        .find(|t| t.kind() == SyntaxKind::IDENT)
        .or_else(|| tokens.right_biased())
}

/// The range of a definition's identifier.
fn name_range(name: &ast::Name) -> TextRange {
    name.ident()
        .map(|t| t.text_range())
        .unwrap_or_else(|| name.syntax().text_range())
}
