//! The front half of the query graph: parsing, checking, splitting a file into
//! kernels, lowering.
//!
//! ```text
//! SourceFile ─► parse ─┬─► file_diagnostics
//!                      ├─► module_context ─────────────┐
//!                      ├─► module_items                │
//!                      └─► kernels ─► Kernel.syntax ─► kernel_lowered ─► kernel_ir ─► phases…
//! ```
//!
//! Why edits stay local:
//! - [`Kernel`] is a tracked struct identified by its name, holding the
//!   function's rowan *green* node. Green nodes carry no absolute offsets, so an
//!   edit in another function (or above this one) re-creates the struct with an
//!   equal node and salsa keeps the old field revision: nothing downstream
//!   re-runs.
//! - [`kernel_lowered`] lowers one function with instruction ranges relative to
//!   the function; [`kernel_ir`] then drops those ranges (the only source
//!   positions in the IR). Comments and whitespace never reach the IR, so after
//!   a trivia edit inside a function `kernel_ir` re-runs, returns an equal value,
//!   and is backdated: the phases do not re-run. This is the trivia firewall.
//! - [`module_context`] (header and module-level names) is what lowering reads
//!   of the rest of the file; it changes only when a declaration does.
//!
//! Diagnostics are returned with results (`(T, Arc<[Diag]>)`), never through
//! accumulators, so they are memoized and backdated with them.

use std::sync::Arc;

use ptx_ir::ir::{Function, Header, ModuleItem};
use ptx_ir::{LowerError, ModuleContext};
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::check::{Diagnostic, Severity};
use ptx_syntax::{GreenNode, Parse, SyntaxKind, SyntaxNode, TextRange, TextSize};

use crate::inputs::SourceFile;
use crate::Db;

/// A diagnostic with an absolute range in its file. The same type as
/// `ptxopt check` prints.
pub type Diag = Diagnostic;

/// One function definition (`.entry` or `.func` with a body) of a file.
///
/// In salsa 0.28 the fields without `#[tracked]` are the identity (there is no
/// `#[id]` attribute): a kernel is its file and its name, so it keeps its id,
/// and its memoized queries, when functions are added or moved around it. Two
/// definitions with one name (an error `check` reports) are told apart by
/// salsa's disambiguator, in order.
#[salsa::tracked(debug)]
pub struct Kernel<'db> {
    /// The function's name; empty when the source has none.
    #[returns(ref)]
    pub name: String,
    /// The file it is in.
    #[returns(copy)]
    pub file: SourceFile,
    /// Its position among the file's function definitions.
    #[tracked]
    #[returns(copy)]
    pub index: usize,
    /// The function's green node (position-independent).
    #[tracked]
    #[returns(ref)]
    pub syntax: GreenNode,
}

/// The syntax tree of a file.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    ptx_syntax::parse(file.text(db))
}

/// Syntax errors and check diagnostics (what `ptxopt check` reports), sorted by
/// position.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Arc<[Diag]> {
    ptx_syntax::check::diagnostics(parse(db, file)).into()
}

/// Whether the file has any error (a file with errors is not built).
pub fn has_errors(db: &dyn Db, file: SourceFile) -> bool {
    file_diagnostics(db, file)
        .iter()
        .any(|d| d.severity == Severity::Error)
}

/// What lowering a function needs from module level.
#[salsa::tracked(returns(ref))]
pub fn module_context(db: &dyn Db, file: SourceFile) -> ModuleContext {
    ModuleContext::new(&parse(db, file).tree())
}

/// The function definitions of a file, in source order.
#[salsa::tracked(returns(ref))]
pub fn kernels(db: &dyn Db, file: SourceFile) -> Vec<Kernel<'_>> {
    function_definitions(parse(db, file))
        .enumerate()
        .map(|(index, func)| {
            let name = func.name().map(|n| n.text()).unwrap_or_default();
            let green = func.syntax().green().into_owned();
            Kernel::new(db, name, file, index, green)
        })
        .collect()
}

/// The `FUNCTION` nodes with a body, in order (the same order as
/// [`Module::functions`] of `ptx_ir::lower_module`).
fn function_definitions(parse: &Parse) -> impl Iterator<Item = ast::Function> {
    parse
        .syntax_node()
        .children()
        .filter(|n| n.kind() == SyntaxKind::FUNCTION)
        .filter_map(ast::Function::cast)
        .filter(|f| f.body().is_some())
}

/// A kernel lowered to IR, with instruction ranges relative to the start of the
/// function, and what lowering could not make sense of.
#[salsa::tracked(returns(ref))]
pub fn kernel_lowered<'db>(
    db: &'db dyn Db,
    kernel: Kernel<'db>,
) -> (Arc<Function>, Arc<[LowerError]>) {
    let ctx = module_context(db, kernel.file(db));
    let root = SyntaxNode::new_root(kernel.syntax(db).clone());
    match ast::Function::cast(root) {
        Some(func) => {
            let (function, errors) = ptx_ir::lower_function(&func, ctx);
            (Arc::new(function), errors.into())
        }
        None => unreachable!("a Kernel holds a FUNCTION node"),
    }
}

/// A kernel's IR without source positions: the input of the first phase.
/// Equal for any two sources that differ only in comments and whitespace.
#[salsa::tracked(returns(ref))]
pub fn kernel_ir<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<Function> {
    let (function, _) = kernel_lowered(db, kernel);
    let mut function = Function::clone(function);
    for (_, inst) in function.insts.iter_mut() {
        inst.range = TextRange::default();
    }
    Arc::new(function)
}

/// The module without its function bodies: the header and the module-level
/// items in order ([`ModuleItem::Function`]`(i)` stands for the `i`-th entry of
/// [`kernels`]).
///
/// `ptx_ir::lower_module_items` lowers no function body, so the result (and
/// what depends on it) is backdated after an edit inside a function.
#[salsa::tracked(returns(ref))]
pub fn module_items(db: &dyn Db, file: SourceFile) -> (Header, Arc<[ModuleItem]>) {
    let (header, items, _errors) = ptx_ir::lower_module_items(parse(db, file));
    (header, items.into())
}

/// Where each kernel of [`kernels`] starts in its file (by
/// [`Kernel::index`]): add it to a range of [`kernel_lowered`] to get an
/// absolute range. Not memoized (it changes with every edit above a kernel,
/// and is cheap); call it once per file and index it.
pub fn kernel_starts(db: &dyn Db, file: SourceFile) -> Vec<TextSize> {
    function_definitions(parse(db, file))
        .map(|f| f.syntax().text_range().start())
        .collect()
}

/// Lowering problems of a whole file with absolute ranges, for reporting.
/// Empty for every file ptxas accepts that lowering fully models.
pub fn lowering_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diag> {
    let starts = kernel_starts(db, file);
    let mut out = Vec::new();
    for kernel in kernels(db, file) {
        let base = starts.get(kernel.index(db)).copied().unwrap_or_default();
        for e in kernel_lowered(db, *kernel).1.iter() {
            out.push(Diag {
                range: e.range + base,
                severity: Severity::Error,
                message: format!("ptxopt cannot lower this: {}", e.message),
            });
        }
    }
    out
}
