//! Lowering of declarations: variables (`VAR_DECL`), parameters (`PARAM`) and
//! function signatures.

use ptx_syntax::ast;
use ptx_syntax::green::{Element, Node};
use ptx_syntax::SyntaxKind;

use crate::ir::{FunctionKind, Param, PerfDirective, PtrAttr, Signature, VarDecl, Variable};

use super::constexpr::eval_int;
use super::text::{name_text, normalized_text};
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
pub(crate) fn lower_var_decl(node: Node<'_>) -> Result<DeclParts, String> {
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
    for element in node.children_with_tokens() {
        match element {
            Element::Token(tok) if tok.is_trivia() => {}
            Element::Token(tok) => match tok.kind() {
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
            Element::Node(n) if n.is(SyntaxKind::DECLARATOR) => {
                let (var, count) = lower_declarator(n)?;
                decl.vars.push(var);
                counts.push(count);
            }
            Element::Node(n) => return Err(format!("unexpected `{}` in a declaration", n.text())),
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
fn lower_declarator(node: Node<'_>) -> Result<(Variable, Option<u32>), String> {
    let mut var = Variable {
        name: String::new(),
        dims: Vec::new(),
        init: None,
    };
    let mut count = None;
    for child in node.children() {
        match child.kind() {
            SyntaxKind::NAME => var.name = normalized_text(child),
            SyntaxKind::REG_COUNT => {
                let text = normalized_text(child);
                let digits = text.trim_start_matches('<').trim_end_matches('>').trim();
                count = Some(
                    digits
                        .parse()
                        .map_err(|_| format!("register count `{text}`"))?,
                );
            }
            SyntaxKind::ARRAY_DIM => var.dims.push(lower_array_dim(child)?),
            SyntaxKind::INITIALIZER => {
                let value = child.children().next().ok_or("empty initializer")?;
                var.init = Some(normalized_text(value));
            }
            _ => return Err(format!("unexpected `{}` in a declarator", child.text())),
        }
    }
    if var.name.is_empty() {
        return Err("declaration without a name".to_string());
    }
    Ok((var, count))
}

fn lower_array_dim(node: Node<'_>) -> Result<Option<u64>, String> {
    match node.children().next() {
        None => Ok(None),
        Some(expr) => match eval_int(expr).and_then(|n| u64::try_from(n).ok()) {
            Some(n) => Ok(Some(n)),
            None => Err(format!("array size `{}`", normalized_text(expr))),
        },
    }
}

/// Lowers a function header (a `FUNCTION` node). Problems are pushed to
/// `errors` (absolute ranges).
pub(crate) fn lower_signature(func: Node<'_>, errors: &mut Vec<LowerError>) -> Signature {
    let dot_words = || {
        func.tokens()
            .filter(|t| t.is(SyntaxKind::DOT_IDENT))
            .map(|t| t.text())
    };
    let kind = if dot_words().any(|w| w == ".entry") {
        FunctionKind::Entry
    } else {
        FunctionKind::Func
    };
    let name = name_text(func.child(SyntaxKind::NAME));
    if name.is_empty() {
        errors.push(LowerError {
            range: func.significant_range(),
            message: "function without a name".to_string(),
        });
    }
    let mut params = |list: Node<'_>| -> Vec<Param> {
        list.children()
            .filter(|p| p.is(SyntaxKind::PARAM))
            .map(|p| lower_param(p, errors))
            .collect()
    };
    Signature {
        kind,
        linkage: dot_words()
            .filter(|w| matches!(*w, ".visible" | ".extern" | ".weak" | ".common"))
            .map(str::to_string)
            .collect(),
        name,
        ret_params: func.child(SyntaxKind::RETURN_PARAMS).map(&mut params),
        params: func
            .child(SyntaxKind::PARAM_LIST)
            .map(&mut params)
            .unwrap_or_default(),
        perf: func
            .children()
            .filter(|p| p.is(SyntaxKind::PERF_DIRECTIVE))
            .map(lower_perf)
            .collect(),
    }
}

fn lower_perf(perf: Node<'_>) -> PerfDirective {
    PerfDirective {
        name: perf
            .token(SyntaxKind::DOT_IDENT)
            .map(|t| t.text().to_string())
            .unwrap_or_default(),
        values: perf
            .tokens()
            .filter(|t| t.is(SyntaxKind::INT_NUMBER))
            .filter_map(|t| ast::parse_int(t.text()))
            .collect(),
    }
}

/// Lowers one parameter (a `PARAM` node). Words it does not model are reported
/// and dropped.
pub(crate) fn lower_param(param: Node<'_>, errors: &mut Vec<LowerError>) -> Param {
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
            range: param.significant_range(),
            message,
        })
    };
    for element in param.children_with_tokens() {
        match element {
            Element::Token(tok) if tok.is_trivia() => {}
            Element::Token(tok) if tok.is(SyntaxKind::INT_NUMBER) && expect_align => {
                let align = ast::parse_int(tok.text());
                match &mut out.ptr {
                    Some(ptr) => ptr.align = align,
                    None => out.align = align,
                }
                expect_align = false;
            }
            Element::Token(tok) if tok.is(SyntaxKind::DOT_IDENT) => {
                expect_align = classify_param_word(tok.text(), &mut out).unwrap_or_else(|e| {
                    report(e);
                    false
                });
            }
            Element::Token(tok) => report(format!("unexpected `{}` in a parameter", tok.text())),
            Element::Node(n) if n.is(SyntaxKind::DECLARATOR) => match lower_declarator(n) {
                Ok((var, _)) => {
                    out.name = var.name;
                    out.dims = var.dims;
                }
                Err(e) => report(e),
            },
            Element::Node(n) => report(format!("unexpected `{}` in a parameter", n.text())),
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
