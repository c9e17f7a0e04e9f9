//! Conversions between `ptx-ide`'s plain data (byte ranges, enums) and
//! `lsp-types` (UTF-16 line/column positions, URIs).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types as lsp;
use ptx_ide::{LineCol, LineIndex, TextRange, TextSize};

/// The database key of a document: its URI as text.
pub(crate) fn path_of(uri: &lsp::Uri) -> PathBuf {
    PathBuf::from(uri.as_str())
}

pub(crate) fn uri_of(path: &Path) -> Option<lsp::Uri> {
    lsp::Uri::from_str(path.to_str()?).ok()
}

pub(crate) fn offset(index: &LineIndex, pos: lsp::Position) -> TextSize {
    index.offset(LineCol {
        line: pos.line,
        col: pos.character,
    })
}

/// Makes the positions of a `didChange`'s ranges fit LSP's unsigned
/// integers, in the JSON before it is parsed: a negative line or column
/// becomes 0, one past `u32::MAX` (or a fraction) the nearest `u32`. The line
/// index then clamps a position past the end of its line to the line's end,
/// and one past the last line to the end of the text (what clients expect of
/// out-of-range positions), so an edit with a bad position still applies and
/// the document stays in step with the editor's.
pub(crate) fn clamp_change_positions(params: &mut serde_json::Value) {
    let Some(changes) = params
        .get_mut("contentChanges")
        .and_then(|c| c.as_array_mut())
    else {
        return;
    };
    for change in changes {
        let Some(range) = change.get_mut("range") else {
            continue;
        };
        for end in ["start", "end"] {
            let Some(pos) = range.get_mut(end) else {
                continue;
            };
            for field in ["line", "character"] {
                let Some(v) = pos.get_mut(field) else {
                    continue;
                };
                if v.is_u64() {
                    if v.as_u64().is_some_and(|n| n > u64::from(u32::MAX)) {
                        *v = u32::MAX.into();
                    }
                } else if let Some(n) = v.as_i64() {
                    *v = (n.max(0) as u64).min(u64::from(u32::MAX)).into();
                } else if let Some(f) = v.as_f64() {
                    *v = (f.max(0.0).min(f64::from(u32::MAX)) as u32).into();
                }
            }
        }
    }
}

pub(crate) fn position(index: &LineIndex, offset: TextSize) -> lsp::Position {
    let lc = index.line_col(offset);
    lsp::Position::new(lc.line, lc.col)
}

pub(crate) fn range(index: &LineIndex, range: TextRange) -> lsp::Range {
    lsp::Range::new(position(index, range.start()), position(index, range.end()))
}

pub(crate) fn text_range(index: &LineIndex, range: lsp::Range) -> TextRange {
    let start = offset(index, range.start);
    let end = offset(index, range.end).max(start);
    TextRange::new(start, end)
}

pub(crate) fn diagnostic(index: &LineIndex, d: &ptx_ide::Diagnostic) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(index, d.range),
        severity: Some(match d.severity {
            ptx_ide::Severity::Error => lsp::DiagnosticSeverity::ERROR,
            ptx_ide::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        source: Some("ptxopt".to_string()),
        message: d.message.clone(),
        ..Default::default()
    }
}

/// An optimization remark as a diagnostic of severity Hint (source
/// `ptxopt remarks`, code `applied` or `missed`): editors show hints faded,
/// in the problems list, without counting them as problems.
pub(crate) fn remark(index: &LineIndex, r: &ptx_ide::OptRemark) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(index, r.range),
        severity: Some(lsp::DiagnosticSeverity::HINT),
        code: Some(lsp::NumberOrString::String(
            match r.kind {
                ptx_ide::RemarkKind::Applied => "applied",
                ptx_ide::RemarkKind::Missed => "missed",
            }
            .to_string(),
        )),
        source: Some("ptxopt remarks".to_string()),
        message: format!("[{}] {}", r.phase, r.message),
        ..Default::default()
    }
}

pub(crate) fn symbol_kind(kind: ptx_ide::SymbolKind) -> lsp::SymbolKind {
    match kind {
        ptx_ide::SymbolKind::Function => lsp::SymbolKind::FUNCTION,
        ptx_ide::SymbolKind::Kernel => lsp::SymbolKind::METHOD,
        ptx_ide::SymbolKind::Register => lsp::SymbolKind::VARIABLE,
        ptx_ide::SymbolKind::Label => lsp::SymbolKind::KEY,
        ptx_ide::SymbolKind::Param => lsp::SymbolKind::FIELD,
        ptx_ide::SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
    }
}

#[allow(deprecated)]
pub(crate) fn document_symbol(index: &LineIndex, s: &ptx_ide::Symbol) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name: s.name.clone(),
        detail: None,
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: range(index, s.full_range),
        selection_range: range(index, s.focus_range),
        children: (!s.children.is_empty()).then(|| {
            s.children
                .iter()
                .map(|c| document_symbol(index, c))
                .collect()
        }),
    }
}

/// The semantic token legend: types, in [`ptx_ide::TokenKind`] order of use.
pub(crate) const TOKEN_TYPES: &[lsp::SemanticTokenType] = &[
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::MODIFIER,
    lsp::SemanticTokenType::MACRO,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::new("label"),
    lsp::SemanticTokenType::PARAMETER,
    lsp::SemanticTokenType::FUNCTION,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::COMMENT,
];

pub(crate) const TOKEN_MODIFIERS: &[lsp::SemanticTokenModifier] = &[
    lsp::SemanticTokenModifier::DECLARATION,
    lsp::SemanticTokenModifier::DEFAULT_LIBRARY,
    lsp::SemanticTokenModifier::STATIC,
];

/// (type index, modifier bits) of a token kind.
fn token_type(kind: ptx_ide::TokenKind) -> (u32, u32) {
    use ptx_ide::TokenKind as K;
    match kind {
        K::Opcode => (0, 0),
        K::Modifier => (1, 0),
        K::Directive => (2, 0),
        K::Register => (3, 0),
        K::SpecialRegister => (3, 0b010),
        K::Label => (4, 0),
        K::Param => (5, 0),
        K::Function => (6, 0),
        K::Variable => (3, 0b100),
        K::Number => (7, 0),
        K::String => (8, 0),
        K::Comment => (9, 0),
    }
}

/// Encodes tokens relative to each other, as LSP wants. Tokens spanning
/// lines (block comments) are left out.
pub(crate) fn semantic_tokens(
    index: &LineIndex,
    tokens: &[ptx_ide::SemanticToken],
) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::new();
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    for t in tokens {
        let start = index.line_col(t.range.start());
        let end = index.line_col(t.range.end());
        if start.line != end.line {
            continue;
        }
        let (ty, mut mods) = token_type(t.kind);
        if t.definition {
            mods |= 1;
        }
        let delta_line = start.line - prev_line;
        let delta_start = if delta_line == 0 {
            start.col - prev_col
        } else {
            start.col
        };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.col - start.col,
            token_type: ty,
            token_modifiers_bitset: mods,
        });
        prev_line = start.line;
        prev_col = start.col;
    }
    out
}
