//! Folding ranges: function bodies and nested blocks, parameter lists, runs of
//! two or more line comments.

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::{SyntaxKind, TextRange};

use crate::analysis::root;

/// What a fold holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Block,
    Params,
    Comment,
}

/// A foldable range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

pub(crate) fn folding_ranges(db: &RootDatabase, path: &Path) -> Vec<Fold> {
    let Some(root) = root(db, path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for node in root.descendants() {
        let kind = match node.kind() {
            SyntaxKind::BLOCK => FoldKind::Block,
            SyntaxKind::PARAM_LIST | SyntaxKind::RETURN_PARAMS => FoldKind::Params,
            _ => continue,
        };
        if node.text().contains_char('\n') {
            out.push(Fold {
                range: node.text_range(),
                kind,
            });
        }
    }
    // Runs of line comments, one per line.
    let mut run: Option<(TextRange, usize)> = None;
    let flush = |run: &mut Option<(TextRange, usize)>, out: &mut Vec<Fold>| {
        if let Some((range, n)) = run.take() {
            if n >= 2 {
                out.push(Fold {
                    range,
                    kind: FoldKind::Comment,
                });
            }
        }
    };
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        match token.kind() {
            SyntaxKind::COMMENT if token.text().starts_with("//") => {
                run = Some(match run {
                    Some((r, n)) => (r.cover(token.text_range()), n + 1),
                    None => (token.text_range(), 1),
                });
            }
            SyntaxKind::WHITESPACE if token.text().matches('\n').count() <= 1 => {}
            _ => flush(&mut run, &mut out),
        }
    }
    flush(&mut run, &mut out);
    out.sort_by_key(|f| f.range.start());
    out
}
