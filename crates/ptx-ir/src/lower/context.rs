//! What lowering one function needs from module level.

use std::collections::BTreeMap;

use ptx_isa::PtxVersion;
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::green::Node;

use crate::ir::{FunctionKind, Header, Target};

/// The module-level facts a function's lowering depends on: the header, and the
/// names declared at module level (variables with their state space, functions
/// and aliases). Comparable and hashable so that a query layer can key on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ModuleContext {
    pub version: Option<PtxVersion>,
    pub target: Option<Target>,
    pub address_size: Option<u32>,
    pub symbols: BTreeMap<String, SymbolKind>,
}

/// What a module-level name is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A variable, with its state space (`.global`, `.const`, `.shared`, ...).
    Variable {
        space: String,
    },
    Function(FunctionKind),
    /// A `.alias` name.
    Alias,
}

impl ModuleContext {
    /// Collects the context from a module's tree.
    pub fn new(file: &ast::SourceFile) -> ModuleContext {
        let header = lower_header(file);
        let mut ctx = ModuleContext {
            version: header.version,
            target: header.target,
            address_size: header.address_size,
            symbols: BTreeMap::new(),
        };
        for item in file.items() {
            ctx.add_item(&item);
        }
        ctx
    }

    /// The header facts as a [`Header`].
    pub fn header(&self) -> Header {
        Header {
            version: self.version,
            target: self.target.clone(),
            address_size: self.address_size,
        }
    }

    /// Whether `name` is declared at module level.
    pub fn is_symbol(&self, name: &str) -> bool {
        self.symbols.contains_key(name)
    }

    fn add_item(&mut self, item: &ast::Item) {
        match item {
            ast::Item::VarDecl(decl) => {
                let space = decl
                    .state_space()
                    .map(|t| t.text().to_string())
                    .unwrap_or_default();
                for d in decl.declarators() {
                    if let Some(name) = d.name() {
                        let kind = SymbolKind::Variable {
                            space: space.clone(),
                        };
                        self.symbols.insert(name.text(), kind);
                    }
                }
            }
            ast::Item::Function(func) => {
                if let Some(name) = func.name() {
                    let kind = match func.kind() {
                        ast::FunctionKind::Entry => FunctionKind::Entry,
                        ast::FunctionKind::Func => FunctionKind::Func,
                    };
                    self.symbols.insert(name.text(), SymbolKind::Function(kind));
                }
            }
            ast::Item::Alias(alias) => {
                if let Some(name) = alias.alias() {
                    self.symbols.insert(name.text(), SymbolKind::Alias);
                }
            }
            _ => {}
        }
    }
}

/// `.version`, `.target` and `.address_size` of a module.
pub(crate) fn lower_header(file: &ast::SourceFile) -> Header {
    Header {
        version: file
            .version()
            .and_then(|v| v.version())
            .map(|(major, minor)| PtxVersion { major, minor }),
        target: file.target().and_then(|t| lower_target(&t)),
        address_size: file.address_size().and_then(|a| a.bits()),
    }
}

fn lower_target(target: &ast::TargetDirective) -> Option<Target> {
    let green = target.syntax().green();
    let node = Node::new(&green, target.syntax().text_range().start());
    let mut words = node
        .tokens()
        .filter(|t| t.is(ptx_syntax::SyntaxKind::IDENT))
        .map(|t| t.text().to_string());
    let arch = words.next()?;
    Some(Target {
        arch,
        options: words.collect(),
    })
}
