//! Request handlers: each parses its params on the main thread and returns a
//! job that runs on a worker against a snapshot, converting offsets with the
//! snapshot's own line index (so positions always match the text the answer
//! was computed on).

use lsp_server::{ErrorCode, Request, Response};
use lsp_types as lsp;
use lsp_types::request::Request as _;
use ptx_ide::{Analysis, Cancellable};
use serde_json::Value;

use crate::convert::{self, path_of, uri_of};

/// The result of a job: cancelled, or a JSON value or an error message.
pub(crate) type Outcome = Cancellable<Result<Value, String>>;

/// A job for a worker.
pub(crate) type Job = Box<dyn FnOnce(&Analysis) -> Outcome + Send>;

fn job<P, F>(req: Request, f: F) -> Result<Job, Response>
where
    P: serde::de::DeserializeOwned + Send + 'static,
    F: FnOnce(&Analysis, P) -> Cancellable<Result<Value, String>> + Send + 'static,
{
    let id = req.id.clone();
    match serde_json::from_value::<P>(req.params) {
        Ok(params) => Ok(Box::new(move |a: &Analysis| f(a, params))),
        Err(e) => Err(Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            e.to_string(),
        )),
    }
}

fn to_value(v: impl serde::Serialize) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// The code lenses of a document (function and loop lenses, see
/// `ptx_ide::CodeLens`), positioned with the snapshot's line index.
pub(crate) fn code_lenses(a: &Analysis, uri: &lsp::Uri) -> Cancellable<Vec<lsp::CodeLens>> {
    let path = path_of(uri);
    let index = a.line_index(&path)?;
    Ok(a.code_lenses(&path)?
        .into_iter()
        .map(|l| lsp::CodeLens {
            range: convert::range(&index, l.range),
            command: Some(lsp::Command {
                title: l.title,
                command: String::new(),
                arguments: None,
            }),
            data: None,
        })
        .collect())
}

pub(crate) fn dispatch(req: Request) -> Result<Job, Response> {
    use lsp::request as r;
    match req.method.as_str() {
        r::HoverRequest::METHOD => job(req, |a, p: lsp::HoverParams| {
            let tdp = p.text_document_position_params;
            let path = path_of(&tdp.text_document.uri);
            let index = a.line_index(&path)?;
            let offset = convert::offset(&index, tdp.position);
            let hover = a.hover(&path, offset)?.map(|h| lsp::Hover {
                contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: h.markdown,
                }),
                range: Some(convert::range(&index, h.range)),
            });
            Ok(to_value(hover))
        }),
        r::InlayHintRequest::METHOD => job(req, |a, p: lsp::InlayHintParams| {
            let path = path_of(&p.text_document.uri);
            let index = a.line_index(&path)?;
            let wanted = convert::text_range(&index, p.range);
            let hints: Vec<lsp::InlayHint> = a
                .inlay_hints_in(&path, wanted)?
                .into_iter()
                .map(|h| lsp::InlayHint {
                    position: convert::position(&index, h.offset),
                    label: lsp::InlayHintLabel::String(h.label),
                    kind: None,
                    text_edits: None,
                    tooltip: None,
                    padding_left: Some(true),
                    padding_right: Some(matches!(
                        h.kind,
                        ptx_ide::InlayHintKind::BlockMax | ptx_ide::InlayHintKind::Loop
                    )),
                    data: None,
                })
                .collect();
            Ok(to_value(hints))
        }),
        r::GotoDefinition::METHOD => job(req, |a, p: lsp::GotoDefinitionParams| {
            let tdp = p.text_document_position_params;
            let uri = tdp.text_document.uri;
            let path = path_of(&uri);
            let index = a.line_index(&path)?;
            let offset = convert::offset(&index, tdp.position);
            let nav = a.goto_definition(&path, offset)?.map(|nav| {
                lsp::GotoDefinitionResponse::Scalar(lsp::Location::new(
                    uri.clone(),
                    convert::range(&index, nav.focus_range),
                ))
            });
            Ok(to_value(nav))
        }),
        r::References::METHOD => job(req, |a, p: lsp::ReferenceParams| {
            let tdp = p.text_document_position;
            let uri = tdp.text_document.uri;
            let path = path_of(&uri);
            let index = a.line_index(&path)?;
            let offset = convert::offset(&index, tdp.position);
            let refs: Vec<lsp::Location> = a
                .references(&path, offset, p.context.include_declaration)?
                .into_iter()
                .map(|r| lsp::Location::new(uri.clone(), convert::range(&index, r)))
                .collect();
            Ok(to_value(refs))
        }),
        r::DocumentSymbolRequest::METHOD => job(req, |a, p: lsp::DocumentSymbolParams| {
            let path = path_of(&p.text_document.uri);
            let index = a.line_index(&path)?;
            let symbols: Vec<lsp::DocumentSymbol> = a
                .document_symbols(&path)?
                .iter()
                .map(|s| convert::document_symbol(&index, s))
                .collect();
            Ok(to_value(lsp::DocumentSymbolResponse::Nested(symbols)))
        }),
        r::WorkspaceSymbolRequest::METHOD => job(req, |a, p: lsp::WorkspaceSymbolParams| {
            let mut out = Vec::new();
            for (path, s) in a.workspace_symbols(&p.query)? {
                let Some(uri) = uri_of(&path) else { continue };
                let index = a.line_index(&path)?;
                #[allow(deprecated)]
                out.push(lsp::SymbolInformation {
                    name: s.name.clone(),
                    kind: convert::symbol_kind(s.kind),
                    tags: None,
                    deprecated: None,
                    location: lsp::Location::new(uri, convert::range(&index, s.focus_range)),
                    container_name: None,
                });
            }
            Ok(to_value(lsp::WorkspaceSymbolResponse::Flat(out)))
        }),
        r::CodeLensRequest::METHOD => job(req, |a, p: lsp::CodeLensParams| {
            Ok(to_value(code_lenses(a, &p.text_document.uri)?))
        }),
        r::FoldingRangeRequest::METHOD => job(req, |a, p: lsp::FoldingRangeParams| {
            let path = path_of(&p.text_document.uri);
            let index = a.line_index(&path)?;
            let folds: Vec<lsp::FoldingRange> = a
                .folding_ranges(&path)?
                .into_iter()
                .map(|f| {
                    let start = index.line_col(f.range.start());
                    let end = index.line_col(f.range.end());
                    lsp::FoldingRange {
                        start_line: start.line,
                        start_character: None,
                        end_line: end.line,
                        end_character: None,
                        kind: Some(match f.kind {
                            ptx_ide::FoldKind::Comment => lsp::FoldingRangeKind::Comment,
                            _ => lsp::FoldingRangeKind::Region,
                        }),
                        collapsed_text: None,
                    }
                })
                .filter(|f| f.end_line > f.start_line)
                .collect();
            Ok(to_value(folds))
        }),
        r::Formatting::METHOD => job(req, |a, p: lsp::DocumentFormattingParams| {
            let path = path_of(&p.text_document.uri);
            let index = a.line_index(&path)?;
            let text = a.file_text(&path).unwrap_or_default();
            // One edit replacing the whole text; none when it is already
            // canonical or has syntax errors.
            let edits = match a.format(&path)? {
                Some(formatted) if formatted != text => vec![lsp::TextEdit {
                    range: convert::range(
                        &index,
                        ptx_ide::TextRange::up_to(ptx_ide::TextSize::of(text)),
                    ),
                    new_text: formatted,
                }],
                _ => Vec::new(),
            };
            Ok(to_value(edits))
        }),
        r::SemanticTokensFullRequest::METHOD => job(req, |a, p: lsp::SemanticTokensParams| {
            let path = path_of(&p.text_document.uri);
            let index = a.line_index(&path)?;
            let tokens = a.semantic_tokens(&path)?;
            Ok(to_value(lsp::SemanticTokensResult::Tokens(
                lsp::SemanticTokens {
                    result_id: None,
                    data: convert::semantic_tokens(&index, &tokens),
                },
            )))
        }),
        r::Rename::METHOD => job(req, |a, p: lsp::RenameParams| {
            let tdp = p.text_document_position;
            let uri = tdp.text_document.uri;
            let path = path_of(&uri);
            let index = a.line_index(&path)?;
            let offset = convert::offset(&index, tdp.position);
            Ok(match a.rename(&path, offset, &p.new_name)? {
                Ok(change) => {
                    let edits = change
                        .edits
                        .into_iter()
                        .map(|e| lsp::TextEdit::new(convert::range(&index, e.range), e.new_text))
                        .collect();
                    let mut changes = std::collections::HashMap::new();
                    changes.insert(uri, edits);
                    to_value(lsp::WorkspaceEdit::new(changes))
                }
                Err(message) => Err(message),
            })
        }),
        r::CodeActionRequest::METHOD => job(req, |a, p: lsp::CodeActionParams| {
            // Loop-header actions: add or remove `.pragma "nounroll";`.
            let uri = p.text_document.uri;
            let path = path_of(&uri);
            let index = a.line_index(&path)?;
            let offset = convert::offset(&index, p.range.start);
            let actions: Vec<lsp::CodeActionOrCommand> = a
                .code_actions(&path, offset)?
                .into_iter()
                .map(|action| {
                    let edits = action
                        .edits
                        .into_iter()
                        .map(|e| lsp::TextEdit::new(convert::range(&index, e.range), e.new_text))
                        .collect();
                    let mut changes = std::collections::HashMap::new();
                    changes.insert(uri.clone(), edits);
                    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                        title: action.title,
                        kind: Some(lsp::CodeActionKind::REFACTOR_REWRITE),
                        edit: Some(lsp::WorkspaceEdit::new(changes)),
                        ..Default::default()
                    })
                })
                .collect();
            Ok(to_value(actions))
        }),
        _ => Err(Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown request {}", req.method),
        )),
    }
}
