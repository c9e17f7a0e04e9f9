//! `ptx-ide`: the IDE layer of ptxopt, in the style of rust-analyzer's `ide`
//! crate. It answers editor questions (diagnostics, hover, inlay hints,
//! definitions and references, symbols, code lenses, folding, semantic tokens,
//! rename, formatting) with plain data: byte ranges ([`TextRange`]), strings
//! and numbers. It knows nothing of LSP; `ptx-lsp` converts.
//!
//! Two handles, as in rust-analyzer:
//! - [`AnalysisHost`] owns the salsa [`RootDatabase`] and takes the changes
//!   (file texts, target, knobs). A change cancels every query running on a
//!   snapshot and waits until those snapshots are dropped.
//! - [`Analysis`] is a snapshot (a database clone) for one worker thread. Every
//!   method returns [`Cancellable`]: `Err(Cancelled)` when an edit (or the
//!   snapshot's own [`CancellationToken`], for `$/cancelRequest`) stopped it.
//!
//! Where the answers come from: syntax (names, scopes, symbols, folding,
//! tokens, formatting) from the file's memoized `ptx_db::parse`; diagnostics from
//! `ptx_db::file_diagnostics`; per-function facts (pressure, liveness, loops,
//! trip counts, latency) from the memoized queries of `ptx_db::analysis`,
//! gathered by [`analysis::kernel_analysis`] (they read `ptx_db::kernel_ir`,
//! so comment and whitespace edits do not re-run them); positions through
//! [`line_index::file_line_index`], one line index per file and revision
//! shared by every request.

pub mod analysis;
mod code_lens;
mod diagnostics;
mod folding;
mod hover;
mod inlay_hints;
pub mod line_index;
mod loop_decisions;
mod navigation;
mod remarks;
mod scope;
mod semantic_tokens;

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ptx_db::RootDatabase;
pub use ptx_syntax::{TextRange, TextSize};
pub use salsa::{CancellationToken, Cancelled};

pub use code_lens::CodeLens;
pub use diagnostics::{Diagnostic, Severity};
pub use folding::{Fold, FoldKind};
pub use hover::HoverResult;
pub use inlay_hints::{InlayHint, InlayHintKind};
pub use line_index::{LineCol, LineIndex};
pub use loop_decisions::CodeAction;
pub use navigation::{NavTarget, SourceChange, Symbol, SymbolKind, TextEdit};
pub use remarks::{OptRemark, RemarkKind};
pub use semantic_tokens::{SemanticToken, TokenKind};

/// The result of a query on a snapshot: `Err` when it was cancelled.
pub type Cancellable<T> = Result<T, Cancelled>;

/// Owns the database and applies changes to it.
#[derive(Default)]
pub struct AnalysisHost {
    db: RootDatabase,
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// Sets a file's text (a change is recorded only when the text differs).
    pub fn set_file_text(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) {
        self.db.set_file_text(path, text);
    }

    /// Replaces `range` of a file's text with `text`, as an editor's
    /// incremental change does (only the chunks around the range are looked
    /// at). Returns `false`, changing nothing, for a file never set or a range
    /// outside its text or inside a character.
    pub fn edit_file_text(&mut self, path: &Path, range: TextRange, text: &str) -> bool {
        let Some(file) = self.db.file(path) else {
            return false;
        };
        let range = usize::from(range.start())..usize::from(range.end());
        self.db.edit_file_text(file, range, text).is_ok()
    }

    /// Sets the target: `Some("sm_90a")`, or `None` to use each file's
    /// `.target`. Returns an error for a name that is not `sm_NN[a|f]`.
    pub fn set_target(&mut self, target: Option<&str>) -> Result<(), String> {
        match target {
            None => self.db.set_target(0, ""),
            Some(name) => {
                let (sm, suffix) = ptx_db::parse_target(name)
                    .ok_or_else(|| format!("`{name}` is not a target (expected sm_NN)"))?;
                self.db.set_target(sm, suffix);
            }
        }
        Ok(())
    }

    /// Sets a knob from its text value (`"8"`, `"true"`, ...), as
    /// `--knob NAME=VALUE` does.
    pub fn set_knob(&mut self, name: &str, value: &str) -> Result<(), String> {
        let def = ptx_knobs::lookup(name).map_err(|e| e.to_string())?;
        let value = ptx_knobs::parse_value(def, value).map_err(|e| e.to_string())?;
        self.db.set_knob(def.name, value).map_err(|e| e.to_string())
    }

    /// The line index of a file's current text (memoized: the snapshots'
    /// requests share it); an empty index for a file never set.
    pub fn line_index(&self, path: &Path) -> Arc<LineIndex> {
        line_index::line_index_of(&self.db, path)
    }

    /// A snapshot for a worker thread.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
        }
    }

    /// Cancels every query running on a snapshot (and waits until the
    /// snapshots are dropped).
    pub fn request_cancellation(&mut self) {
        salsa::Database::trigger_cancellation(&mut self.db);
    }
}

/// A snapshot of the database; see the crate documentation.
pub struct Analysis {
    db: RootDatabase,
}

impl Analysis {
    /// The token that cancels queries on this snapshot only.
    pub fn cancellation_token(&self) -> CancellationToken {
        salsa::Database::cancellation_token(&self.db)
    }

    fn with_db<T>(&self, f: impl FnOnce(&RootDatabase) -> T) -> Cancellable<T> {
        Cancelled::catch(AssertUnwindSafe(|| f(&self.db)))
    }

    /// The text of a file, if it was set.
    pub fn file_text(&self, path: &Path) -> Option<&str> {
        Some(ptx_db::file_text(&self.db, self.db.file(path)?).as_str())
    }

    /// The line index of a file (for converting offsets to positions).
    pub fn line_index(&self, path: &Path) -> Cancellable<Arc<LineIndex>> {
        self.with_db(|db| line_index::line_index_of(db, path))
    }

    /// Parser and check diagnostics of a file.
    pub fn diagnostics(&self, path: &Path) -> Cancellable<Vec<Diagnostic>> {
        self.with_db(|db| diagnostics::diagnostics(db, path))
    }

    /// Optimization remarks of a file (what the phases changed and left, at
    /// the instructions they name); empty for a file with errors.
    pub fn remarks(&self, path: &Path) -> Cancellable<Vec<OptRemark>> {
        self.with_db(|db| remarks::remarks(db, path))
    }

    /// Hover text at `offset`.
    pub fn hover(&self, path: &Path, offset: TextSize) -> Cancellable<Option<HoverResult>> {
        self.with_db(|db| hover::hover(db, path, offset))
    }

    /// Inlay hints of a file (all of them; the client filters by range).
    pub fn inlay_hints(&self, path: &Path) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|db| inlay_hints::inlay_hints(db, path, None))
    }

    /// Inlay hints inside `range` only; only the functions overlapping it are
    /// analyzed (what an editor asks for: the visible lines).
    pub fn inlay_hints_in(&self, path: &Path, range: TextRange) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|db| inlay_hints::inlay_hints(db, path, Some(range)))
    }

    /// Where the name at `offset` is defined.
    pub fn goto_definition(&self, path: &Path, offset: TextSize) -> Cancellable<Option<NavTarget>> {
        self.with_db(|db| navigation::goto_definition(db, path, offset))
    }

    /// Every mention of the name at `offset` (its definition too when
    /// `include_declaration`), sorted.
    pub fn references(
        &self,
        path: &Path,
        offset: TextSize,
        include_declaration: bool,
    ) -> Cancellable<Vec<TextRange>> {
        self.with_db(|db| navigation::references(db, path, offset, include_declaration))
    }

    /// The functions (with their labels and parameters) and module variables.
    pub fn document_symbols(&self, path: &Path) -> Cancellable<Vec<Symbol>> {
        self.with_db(|db| navigation::document_symbols(db, path))
    }

    /// Functions and module variables of every file whose name contains
    /// `query` (case-insensitive).
    pub fn workspace_symbols(&self, query: &str) -> Cancellable<Vec<(PathBuf, Symbol)>> {
        self.with_db(|db| navigation::workspace_symbols(db, query))
    }

    /// Renames the register, label, parameter, function or variable at
    /// `offset`. `Ok(None)` when there is nothing renamable there.
    pub fn rename(
        &self,
        path: &Path,
        offset: TextSize,
        new_name: &str,
    ) -> Cancellable<Result<SourceChange, String>> {
        self.with_db(|db| navigation::rename(db, path, offset, new_name))
    }

    /// Code lenses: per function, pressure and occupancy; per loop, trip
    /// count and what the loop phases decided (unrolled xN, or not and why).
    pub fn code_lenses(&self, path: &Path) -> Cancellable<Vec<CodeLens>> {
        self.with_db(|db| code_lens::code_lenses(db, path))
    }

    /// Code actions at `offset`: on a loop header's label line, add or
    /// remove `.pragma "nounroll";`.
    pub fn code_actions(&self, path: &Path, offset: TextSize) -> Cancellable<Vec<CodeAction>> {
        self.with_db(|db| loop_decisions::code_actions(db, path, offset))
    }

    /// Folding ranges: functions, blocks, comment runs.
    pub fn folding_ranges(&self, path: &Path) -> Cancellable<Vec<Fold>> {
        self.with_db(|db| folding::folding_ranges(db, path))
    }

    /// The file in the canonical layout (`ptx_syntax::format`); `None` when it has
    /// syntax errors (then it is left as the user typed it).
    pub fn format(&self, path: &Path) -> Cancellable<Option<String>> {
        self.with_db(|db| ptx_syntax::format::format(ptx_db::parse(db, db.file(path)?)))
    }

    /// Semantic tokens, in source order.
    pub fn semantic_tokens(&self, path: &Path) -> Cancellable<Vec<SemanticToken>> {
        self.with_db(|db| semantic_tokens::semantic_tokens(db, path))
    }
}
