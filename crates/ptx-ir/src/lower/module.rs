//! Lowering of a whole module: header, module-level items in order, functions.

use ptx_syntax::green::Node;
use ptx_syntax::{Parse, SyntaxKind, TextSize};

use crate::ir::{Module, ModuleItem};

use super::context::ModuleContext;
use super::decl::{lower_signature, lower_var_decl};
use super::function::lower_function_absolute;
use super::text::{name_ref_text, name_text, normalized_text, statement_tail, trimmed_text};
use super::LowerError;

/// Lowers a parsed module. Error ranges are absolute. Syntax errors are not
/// repeated here (see [`Parse::errors`]); what the parser skipped is skipped.
pub fn lower_module(parse: &Parse) -> (Module, Vec<LowerError>) {
    let file = parse.tree();
    let ctx = ModuleContext::new(&file);
    let mut module = Module {
        header: ctx.header(),
        items: Vec::new(),
        functions: Vec::new(),
    };
    let mut errors = Vec::new();
    let mut functions = Vec::new();
    let mut items = Vec::new();
    {
        let mut scratch = Module {
            header: module.header.clone(),
            items: Vec::new(),
            functions: Vec::new(),
        };
        let mut body = BodyMode::Lower(&mut scratch);
        for node in Node::new(parse.green(), TextSize::default()).children() {
            if let Some(item) = lower_item(node, &ctx, &mut body, &mut errors) {
                items.push(item);
            }
        }
        functions.append(&mut scratch.functions);
    }
    module.items = items;
    module.functions = functions;
    (module, errors)
}

/// The header and the module-level items of a file, without lowering any
/// function body: each definition is a `ModuleItem::Function(i)` placeholder for
/// the i-th definition (what [`lower_module`] would put in `functions`). The
/// incremental database lowers bodies one function at a time and uses this for
/// the rest, so an edit inside a body leaves this result equal.
pub fn lower_module_items(parse: &Parse) -> (crate::ir::Header, Vec<ModuleItem>, Vec<LowerError>) {
    let file = parse.tree();
    let ctx = ModuleContext::new(&file);
    let mut errors = Vec::new();
    let mut items = Vec::new();
    let mut definitions = 0;
    for node in Node::new(parse.green(), TextSize::default()).children() {
        let mut body = BodyMode::Skip {
            definitions: &mut definitions,
        };
        if let Some(item) = lower_item(node, &ctx, &mut body, &mut errors) {
            items.push(item);
        }
    }
    (ctx.header(), items, errors)
}

/// What [`lower_item`] does with a function definition.
enum BodyMode<'a> {
    /// Lower the body into the module (`lower_module`).
    Lower(&'a mut Module),
    /// Only number the definitions (`lower_module_items`).
    Skip { definitions: &'a mut usize },
}

/// Lowers one child of the root; `None` for the header directives and for what
/// is dropped.
fn lower_item(
    node: Node<'_>,
    ctx: &ModuleContext,
    body: &mut BodyMode<'_>,
    errors: &mut Vec<LowerError>,
) -> Option<ModuleItem> {
    Some(match node.kind() {
        SyntaxKind::FUNCTION => {
            if node.child(SyntaxKind::BLOCK).is_none() {
                return Some(ModuleItem::Declaration(lower_signature(node, errors)));
            }
            match body {
                BodyMode::Lower(module) => {
                    let (function, errs) = lower_function_absolute(node, ctx);
                    errors.extend(errs);
                    module.functions.push(function);
                    ModuleItem::Function(module.functions.len() - 1)
                }
                BodyMode::Skip { definitions } => {
                    **definitions += 1;
                    ModuleItem::Function(**definitions - 1)
                }
            }
        }
        SyntaxKind::VAR_DECL => match lower_var_decl(node) {
            Ok(parts) if parts.counts.iter().all(Option::is_none) => ModuleItem::Var(parts.decl),
            _ => ModuleItem::Verbatim(trimmed_text(node)),
        },
        SyntaxKind::FILE_DIRECTIVE => ModuleItem::File {
            index: node
                .token(SyntaxKind::INT_NUMBER)
                .and_then(|t| t.text().parse().ok())
                .unwrap_or(0),
            text: normalized_text(node),
        },
        SyntaxKind::SECTION_DIRECTIVE => ModuleItem::Section(trimmed_text(node)),
        SyntaxKind::ALIAS_DIRECTIVE => {
            let alias = node.child(SyntaxKind::NAME)?;
            let aliasee = node.child(SyntaxKind::NAME_REF)?;
            ModuleItem::Alias {
                alias: name_text(Some(alias)),
                aliasee: name_ref_text(aliasee).to_string(),
            }
        }
        SyntaxKind::PRAGMA_DIRECTIVE => ModuleItem::Pragma(statement_tail(node, 1)),
        SyntaxKind::UNKNOWN_DIRECTIVE => ModuleItem::Verbatim(trimmed_text(node)),
        SyntaxKind::LOC_DIRECTIVE => {
            errors.push(LowerError {
                range: node.significant_range(),
                message: "`.loc` outside a function".to_string(),
            });
            return None;
        }
        _ => return None,
    })
}
