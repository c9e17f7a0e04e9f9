//! Navigation: go to definition, find references, rename, document and
//! workspace symbols. All of it is name resolution on the syntax tree
//! ([`crate::scope`]): registers, labels, parameters, local and module
//! variables, functions.

use std::path::{Path, PathBuf};

use ptx_db::RootDatabase;
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxKind, TextRange, TextSize};

use crate::analysis::root;
use crate::scope::{ident_at, DefKind, Scopes};

/// A place to jump to: the name and the whole declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NavTarget {
    pub name: String,
    pub kind: SymbolKind,
    /// The declaring node.
    pub full_range: TextRange,
    /// The name within it.
    pub focus_range: TextRange,
}

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Function,
    /// An `.entry`.
    Kernel,
    Register,
    Label,
    Param,
    Variable,
}

/// A document symbol, with children (a function's parameters and labels).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    pub children: Vec<Symbol>,
}

/// A text replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// Edits to one file (rename only touches the file it is asked in: PTX names
/// are not shared between modules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceChange {
    pub edits: Vec<TextEdit>,
}

fn symbol_kind(kind: DefKind, decl: &ptx_syntax::SyntaxNode) -> SymbolKind {
    match kind {
        DefKind::Register => SymbolKind::Register,
        DefKind::Label => SymbolKind::Label,
        DefKind::Param => SymbolKind::Param,
        DefKind::Variable => SymbolKind::Variable,
        DefKind::Function => match ast::Function::cast(decl.clone()).map(|f| f.kind()) {
            Some(ast::FunctionKind::Entry) => SymbolKind::Kernel,
            _ => SymbolKind::Function,
        },
    }
}

pub(crate) fn goto_definition(
    db: &RootDatabase,
    path: &Path,
    offset: TextSize,
) -> Option<NavTarget> {
    let root = root(db, path)?;
    let ident = ident_at(&root, offset)?;
    let resolved = Scopes::new(&root).resolve(&ident)?;
    let def = resolved.def;
    Some(NavTarget {
        kind: symbol_kind(def.kind, &def.decl),
        name: def.name,
        full_range: def.decl.text_range(),
        focus_range: def.name_range,
    })
}

pub(crate) fn references(
    db: &RootDatabase,
    path: &Path,
    offset: TextSize,
    include_declaration: bool,
) -> Vec<TextRange> {
    let Some(root) = root(db, path) else {
        return Vec::new();
    };
    let Some(ident) = ident_at(&root, offset) else {
        return Vec::new();
    };
    let scopes = Scopes::new(&root);
    let Some(target) = scopes.resolve(&ident) else {
        return Vec::new();
    };
    scopes
        .references(&root, &target)
        .into_iter()
        .filter(|r| include_declaration || !r.is_def)
        .map(|r| r.range)
        .collect()
}

/// Whether `name` can stand where `kind` names stand.
fn valid_name(kind: DefKind, name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let body_ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let first_ok = match kind {
        DefKind::Register => first == '%',
        _ => first.is_ascii_alphabetic() || matches!(first, '_' | '$' | '%'),
    };
    first_ok && chars.all(body_ok) && (first != '%' || name.len() > 1)
}

pub(crate) fn rename(
    db: &RootDatabase,
    path: &Path,
    offset: TextSize,
    new_name: &str,
) -> Result<SourceChange, String> {
    let root = root(db, path).ok_or("no such file")?;
    let ident = ident_at(&root, offset).ok_or("no name here")?;
    let scopes = Scopes::new(&root);
    let target = scopes
        .resolve(&ident)
        .ok_or("no definition for this name")?;
    if target.def.count.is_some() {
        return Err(format!(
            "`{}` is one of the registers of `{}<{}>`; rename the declaration's registers together is not supported",
            target.text,
            target.def.name,
            target.def.count.unwrap_or(0)
        ));
    }
    if !valid_name(target.def.kind, new_name) {
        return Err(format!("`{new_name}` is not a valid name here"));
    }
    let edits = scopes
        .references(&root, &target)
        .into_iter()
        .map(|r| TextEdit {
            range: r.range,
            new_text: new_name.to_string(),
        })
        .collect();
    Ok(SourceChange { edits })
}

pub(crate) fn document_symbols(db: &RootDatabase, path: &Path) -> Vec<Symbol> {
    let Some(root) = root(db, path) else {
        return Vec::new();
    };
    let file = ast::SourceFile::cast(root).expect("SOURCE_FILE");
    let mut out = Vec::new();
    for item in file.syntax().children() {
        match item.kind() {
            SyntaxKind::FUNCTION => {
                let func = ast::Function::cast(item.clone()).expect("FUNCTION");
                let Some(name) = func.name() else { continue };
                let mut children = Vec::new();
                for p in func
                    .return_params()
                    .into_iter()
                    .flat_map(|p| p.params().collect::<Vec<_>>())
                    .chain(
                        func.params()
                            .into_iter()
                            .flat_map(|p| p.params().collect::<Vec<_>>()),
                    )
                {
                    if let Some(n) = p.name() {
                        children.push(leaf(&n, SymbolKind::Param, p.syntax().text_range()));
                    }
                }
                if let Some(body) = func.body() {
                    for l in body.syntax().descendants().filter_map(ast::LabelDef::cast) {
                        if let Some(n) = l.name() {
                            children.push(leaf(&n, SymbolKind::Label, l.syntax().text_range()));
                        }
                    }
                }
                let kind = match func.kind() {
                    ast::FunctionKind::Entry => SymbolKind::Kernel,
                    ast::FunctionKind::Func => SymbolKind::Function,
                };
                let mut sym = leaf(&name, kind, item.text_range());
                sym.children = children;
                out.push(sym);
            }
            SyntaxKind::VAR_DECL => {
                let decl = ast::VarDecl::cast(item.clone()).expect("VAR_DECL");
                for d in decl.declarators() {
                    if let Some(n) = d.name() {
                        out.push(leaf(&n, SymbolKind::Variable, item.text_range()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn leaf(name: &ast::Name, kind: SymbolKind, full_range: TextRange) -> Symbol {
    let focus_range = name
        .ident()
        .map_or_else(|| name.syntax().text_range(), |t| t.text_range());
    Symbol {
        name: name.text(),
        kind,
        full_range,
        focus_range,
        children: Vec::new(),
    }
}

pub(crate) fn workspace_symbols(db: &RootDatabase, query: &str) -> Vec<(PathBuf, Symbol)> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for file in db.files() {
        let path = file.path(db).clone();
        for mut sym in document_symbols(db, &path) {
            if sym.name.to_lowercase().contains(&query) {
                sym.children.clear();
                out.push((path.clone(), sym));
            }
        }
    }
    out
}
