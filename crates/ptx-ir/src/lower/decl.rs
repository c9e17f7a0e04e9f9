//! Lowering of declarations: variables (`VAR_DECL`), parameters (`PARAM`) and
//! function signatures.

use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxElement, SyntaxKind, SyntaxNode};

use crate::ir::{FunctionKind, Param, PerfDirective, PtrAttr, Signature, VarDecl, Variable};

use super::constexpr::eval_int;
use super::text::{normalized_text, significant_range};
use super::LowerError;

const LINKAGES: &[&str] = &[".extern", ".visible", ".weak", ".common"];
const SPACES: &[&str] = &[
    ".global", ".const", ".shared", ".local", ".param", ".reg", ".tex",
];
const OPAQUE_TYPES: &[&str] = &[".texref", ".samplerref", ".surfref"];

fn is_space(word: &str) -> bool {
    let base = word.split("::").next().unwrap_or(word);
    SPACES.contains(&base)
}

fn is_type(word: &str) -> bool {
    ptx_isa::type_bits(word).is_some() || OPAQUE_TYPES.contains(&word)
}

fn vector_width(word: &str) -> Option<u32> {
    match word {
        ".v2" => Some(2),
        ".v4" => Some(4),
        ".v8" => Some(8),
        _ => None,
    }
}

/// A variable declaration with the `<N>` counts of its declarators (for `.reg`).
pub(crate) struct DeclParts {
    pub decl: VarDecl,
    pub counts: Vec<Option<u32>>,
}

/// Lowers a `VAR_DECL`; `Err` says which part lowering does not model (the caller
/// keeps the declaration verbatim or reports it).
pub(crate) fn lower_var_decl(node: &ast::VarDecl) -> Result<DeclParts, String> {
    let mut decl = VarDecl {
        linkage: None,
        space: String::new(),
        align: None,
        vector: None,
        ty: String::new(),
        vars: Vec::new(),
    };
    let mut counts = Vec::new();
    let mut expect_align = false;
    for element in node.syntax().children_with_tokens() {
        match element {
            SyntaxElement::Token(tok) if tok.kind().is_trivia() => {}
            SyntaxElement::Token(tok) => match tok.kind() {
                SyntaxKind::INT_NUMBER if expect_align => {
                    decl.align = ast::parse_int(tok.text());
                    expect_align = false;
                }
                SyntaxKind::DOT_IDENT if !expect_align => {
                    expect_align = classify_decl_word(tok.text(), &mut decl)?;
                }
                SyntaxKind::COMMA | SyntaxKind::SEMICOLON => {}
                _ => return Err(format!("unexpected `{}` in a declaration", tok.text())),
            },
            SyntaxElement::Node(n) if n.kind() == SyntaxKind::DECLARATOR => {
                let (var, count) = lower_declarator(&n)?;
                decl.vars.push(var);
                counts.push(count);
            }
            SyntaxElement::Node(n) => return Err(format!("unexpected `{}` in a declaration", n)),
        }
    }
    if decl.space.is_empty() || decl.ty.is_empty() || decl.vars.is_empty() {
        return Err("incomplete declaration".to_string());
    }
    Ok(DeclParts { decl, counts })
}

/// Files one dotted word of a declaration; true when it is `.align` (an integer
/// follows).
fn classify_decl_word(word: &str, decl: &mut VarDecl) -> Result<bool, String> {
    if word == ".align" {
        return Ok(true);
    }
    let slot = if LINKAGES.contains(&word) {
        &mut decl.linkage
    } else if let Some(width) = vector_width(word) {
        decl.vector = Some(width);
        return Ok(false);
    } else if is_space(word) && decl.space.is_empty() {
        decl.space = word.to_string();
        return Ok(false);
    } else if is_type(word) && decl.ty.is_empty() {
        decl.ty = word.to_string();
        return Ok(false);
    } else {
        return Err(format!("`{word}` in a declaration"));
    };
    if slot.is_some() {
        return Err(format!("second linkage `{word}`"));
    }
    *slot = Some(word.to_string());
    Ok(false)
}

/// Lowers one `DECLARATOR`: the variable and its `<N>` register count.
fn lower_declarator(node: &SyntaxNode) -> Result<(Variable, Option<u32>), String> {
    let mut var = Variable {
        name: String::new(),
        dims: Vec::new(),
        init: None,
    };
    let mut count = None;
    for child in node.children() {
        match child.kind() {
            SyntaxKind::NAME => var.name = normalized_text(&child),
            SyntaxKind::REG_COUNT => {
                let text = normalized_text(&child);
                let digits = text.trim_start_matches('<').trim_end_matches('>').trim();
                count = Some(
                    digits
                        .parse()
                        .map_err(|_| format!("register count `{text}`"))?,
                );
            }
            SyntaxKind::ARRAY_DIM => var.dims.push(lower_array_dim(&child)?),
            SyntaxKind::INITIALIZER => {
                let value = child.children().next().ok_or("empty initializer")?;
                var.init = Some(normalized_text(&value));
            }
            _ => return Err(format!("unexpected `{child}` in a declarator")),
        }
    }
    if var.name.is_empty() {
        return Err("declaration without a name".to_string());
    }
    Ok((var, count))
}

fn lower_array_dim(node: &SyntaxNode) -> Result<Option<u64>, String> {
    match node.children().next() {
        None => Ok(None),
        Some(expr) => match eval_int(&expr).and_then(|n| u64::try_from(n).ok()) {
            Some(n) => Ok(Some(n)),
            None => Err(format!("array size `{}`", normalized_text(&expr))),
        },
    }
}

/// Lowers a function header. Problems are pushed to `errors` (absolute ranges).
pub(crate) fn lower_signature(func: &ast::Function, errors: &mut Vec<LowerError>) -> Signature {
    let kind = match func.kind() {
        ast::FunctionKind::Entry => FunctionKind::Entry,
        ast::FunctionKind::Func => FunctionKind::Func,
    };
    let name = func.name().map(|n| n.text()).unwrap_or_default();
    if name.is_empty() {
        errors.push(LowerError {
            range: significant_range(func.syntax()),
            message: "function without a name".to_string(),
        });
    }
    Signature {
        kind,
        linkage: func.linkage().map(|t| t.text().to_string()).collect(),
        name,
        ret_params: func
            .return_params()
            .map(|r| r.params().map(|p| lower_param(&p, errors)).collect()),
        params: func
            .params()
            .map(|l| l.params().map(|p| lower_param(&p, errors)).collect())
            .unwrap_or_default(),
        perf: func.perf_directives().map(|p| lower_perf(&p)).collect(),
    }
}

fn lower_perf(perf: &ast::PerfDirective) -> PerfDirective {
    PerfDirective {
        name: perf
            .directive()
            .map(|t| t.text().to_string())
            .unwrap_or_default(),
        values: perf.values(),
    }
}

/// Lowers one parameter. Words it does not model are reported and dropped.
pub(crate) fn lower_param(param: &ast::Param, errors: &mut Vec<LowerError>) -> Param {
    let mut out = Param {
        space: String::new(),
        align: None,
        vector: None,
        ty: String::new(),
        ptr: None,
        name: String::new(),
        dims: Vec::new(),
    };
    let mut expect_align = false;
    let mut report = |message: String| {
        errors.push(LowerError {
            range: significant_range(param.syntax()),
            message,
        })
    };
    for element in param.syntax().children_with_tokens() {
        match element {
            SyntaxElement::Token(tok) if tok.kind().is_trivia() => {}
            SyntaxElement::Token(tok) if tok.kind() == SyntaxKind::INT_NUMBER && expect_align => {
                let align = ast::parse_int(tok.text());
                match &mut out.ptr {
                    Some(ptr) => ptr.align = align,
                    None => out.align = align,
                }
                expect_align = false;
            }
            SyntaxElement::Token(tok) if tok.kind() == SyntaxKind::DOT_IDENT => {
                expect_align = classify_param_word(tok.text(), &mut out).unwrap_or_else(|e| {
                    report(e);
                    false
                });
            }
            SyntaxElement::Token(tok) => {
                report(format!("unexpected `{}` in a parameter", tok.text()))
            }
            SyntaxElement::Node(n) if n.kind() == SyntaxKind::DECLARATOR => {
                match lower_declarator(&n) {
                    Ok((var, _)) => {
                        out.name = var.name;
                        out.dims = var.dims;
                    }
                    Err(e) => report(e),
                }
            }
            SyntaxElement::Node(n) => report(format!("unexpected `{n}` in a parameter")),
        }
    }
    out
}

/// Files one dotted word of a parameter; true when it is `.align`.
fn classify_param_word(word: &str, param: &mut Param) -> Result<bool, String> {
    if word == ".align" {
        return Ok(true);
    }
    if word == ".ptr" {
        param.ptr = Some(PtrAttr {
            space: None,
            align: None,
        });
    } else if param.space.is_empty() && matches!(word, ".param" | ".reg") {
        param.space = word.to_string();
    } else if let (Some(ptr), true) = (&mut param.ptr, is_space(word)) {
        ptr.space = Some(word.to_string());
    } else if let Some(width) = vector_width(word) {
        param.vector = Some(width);
    } else if is_type(word) && param.ty.is_empty() {
        param.ty = word.to_string();
    } else {
        return Err(format!("`{word}` in a parameter"));
    }
    Ok(false)
}
