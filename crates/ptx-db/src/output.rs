//! The back end of the query graph: PTX text of optimized kernels and files.
//!
//! [`kernel_ptx`] prints one kernel after the pipeline; [`file_ptx`] stitches
//! the header, the module-level items and the kernels' texts together. Both are
//! memoized: after an edit in one kernel, only that kernel is printed again and
//! the file is re-assembled from the other kernels' stored texts. [`build_file`]
//! is what `ptxopt build` asks for: the text, or the errors that prevent it.

use std::sync::Arc;

use ptx_ir::ir::{Header, Module, ModuleItem};

use ptx_syntax::check::Severity;

use crate::inputs::SourceFile;
use crate::queries::{self, kernels, module_items, Diag, Kernel};
use crate::{pipeline, Db};

/// A kernel after the pipeline, printed as PTX.
#[salsa::tracked(returns(ref))]
pub fn kernel_ptx<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<str> {
    ptx_ir::emit_function(&pipeline::kernel_final(db, kernel)).into()
}

/// A whole file after the pipeline, printed as PTX. Meaningful only for a file
/// without errors (see [`build_file`]).
#[salsa::tracked(returns(ref))]
pub fn file_ptx(db: &dyn Db, file: SourceFile) -> Arc<str> {
    let (header, items) = module_items(db, file);
    let kernels = kernels(db, file);
    let mut out = emit_header(header);
    for item in items.iter() {
        out.push('\n');
        match item {
            ModuleItem::Function(i) => match kernels.get(*i) {
                Some(k) => out.push_str(kernel_ptx(db, *k)),
                None => out.push_str("// missing function\n"),
            },
            other => out.push_str(&emit_item(other)),
        }
    }
    out.into()
}

/// The header lines (`.version`, `.target`, `.address_size`).
fn emit_header(header: &Header) -> String {
    ptx_ir::emit_module(&Module {
        header: header.clone(),
        items: Vec::new(),
        functions: Vec::new(),
    })
}

/// One module-level item other than a function definition.
fn emit_item(item: &ModuleItem) -> String {
    let text = ptx_ir::emit_module(&Module {
        header: Header::default(),
        items: vec![item.clone()],
        functions: Vec::new(),
    });
    // `emit_module` puts a blank line before every item.
    text.strip_prefix('\n').unwrap_or(&text).to_string()
}

/// What building one file gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileBuild {
    /// The optimized PTX; `None` when the file has errors.
    pub text: Option<Arc<str>>,
    /// Errors and warnings (check diagnostics, then lowering problems), with
    /// absolute ranges.
    pub diagnostics: Vec<Diag>,
}

impl FileBuild {
    pub fn has_errors(&self) -> bool {
        self.text.is_none()
    }
}

/// What stops a file before the pipeline: the check's diagnostics and, when
/// they have no error, what lowering could not model (a file ptxopt cannot
/// lower completely is treated as having errors: its output would lose code).
/// `build`, `analyze`, `run` and `verify` all go on only when this has no error.
pub fn file_problems(db: &dyn Db, file: SourceFile) -> Vec<Diag> {
    let mut diagnostics: Vec<Diag> = queries::file_diagnostics(db, file).to_vec();
    if !queries::has_errors(db, file) {
        diagnostics.extend(queries::lowering_diagnostics(db, file));
    }
    diagnostics
}

/// Whether any of `diagnostics` is an error.
pub fn any_error(diagnostics: &[Diag]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// Checks a file ([`file_problems`]) and, if it has no error, runs the
/// pipeline and prints it.
pub fn build_file(db: &dyn Db, file: SourceFile) -> FileBuild {
    let diagnostics = file_problems(db, file);
    let text = (!any_error(&diagnostics)).then(|| file_ptx(db, file).clone());
    FileBuild { text, diagnostics }
}
