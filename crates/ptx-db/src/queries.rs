//! The front half of the query graph: parsing, checking, splitting a file into
//! kernels, lowering.
//!
//! ```text
//! Chunk ─► chunk_parse ─┬─► chunk_check ──────────────────────┐ (per chunk, see `inputs::Chunk`)
//!                       ├─► chunk_skeleton ─┐        ▲         ▼
//!                       └─► chunk_kernels   │   module_facts  file_diagnostics
//!                                │          ▼        │
//! SourceFile (chunks) ──────────►│   module_skeleton ─► module_check
//!                                │          ├─► module_context ─────────┐
//!                                ▼          └─► module_items            ▼
//!                             kernels ─► Kernel.syntax ─────────► kernel_lowered ─► kernel_ir ─► phases…
//! (parse, file_text: the whole file's tree and text, for reports and the IDE)
//! ```
//!
//! Why edits stay local:
//! - [`Kernel`] is a tracked struct identified by its name, created by its
//!   chunk's [`chunk_kernels`], holding the function's rowan *green* node.
//!   Green nodes carry no absolute offsets, so an edit in another function (or
//!   above this one) leaves the node equal and salsa keeps the old field
//!   revision: nothing downstream re-runs.
//! - What module level knows (header, module-level names, whether a function
//!   is defined) is computed on the [`module_skeleton`], the file's items with
//!   every body emptied: an edit inside a body re-runs its chunk's
//!   [`chunk_skeleton`], which compares equal, so [`module_check`],
//!   [`module_context`] and [`module_items`] do not re-run.
//! - [`kernel_lowered`] lowers one function and keeps the instruction ranges
//!   (relative to the function, the only source positions lowering produces)
//!   beside the IR; [`kernel_ir`] is the IR alone. Comments and whitespace
//!   never reach the IR, so after
//!   a trivia edit inside a function `kernel_ir` re-runs, returns an equal value,
//!   and is backdated: the phases do not re-run. This is the trivia firewall.
//!
//! Diagnostics are returned with results (`(T, Arc<[Diag]>)`), never through
//! accumulators, so they are memoized and backdated with them.

use std::sync::Arc;

use ptx_ir::ir::{Function, Header, ModuleItem};
use ptx_ir::{LowerError, ModuleContext};
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::check::{Diagnostic, ModuleFacts, Severity};
use ptx_syntax::{green, GreenNode, Parse, SyntaxKind, SyntaxNode, TextRange, TextSize};
use rowan::NodeOrToken;

use crate::inputs::{Chunk, SourceFile};
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
    /// The function's green node (position-independent).
    #[tracked]
    #[returns(ref)]
    pub syntax: KernelSyntax,
}

/// A kernel's green node, compared with `ptx_syntax::green::same_tree`: when
/// [`chunk_kernels`] re-runs it re-creates each [`Kernel`] of its chunk, and
/// the new node shares every unchanged node with the old one after a token
/// reparse (or is the very same node), so salsa's comparison costs the path
/// to the edit instead of a walk of the whole function.
#[derive(Clone, Debug, Eq)]
pub struct KernelSyntax(pub GreenNode);

impl PartialEq for KernelSyntax {
    fn eq(&self, other: &Self) -> bool {
        green::same_tree(&self.0, &other.0)
    }
}

/// A skeleton (`ptx_syntax::skeleton`), compared with
/// `ptx_syntax::green::same_tree`: a skeleton shares every item's header
/// with the chunk's tree, so after an edit inside a body the comparison
/// costs the function's header at most.
#[derive(Clone, Debug, Eq)]
pub struct Skeleton(pub GreenNode);

impl PartialEq for Skeleton {
    fn eq(&self, other: &Self) -> bool {
        green::same_tree(&self.0, &other.0)
    }
}

impl Skeleton {
    /// The skeleton as a typed tree.
    pub fn tree(&self) -> ast::SourceFile {
        match ast::SourceFile::cast(SyntaxNode::new_root(self.0.clone())) {
            Some(tree) => tree,
            None => unreachable!("a skeleton is a SOURCE_FILE node"),
        }
    }
}

impl std::ops::Deref for KernelSyntax {
    type Target = GreenNode;
    fn deref(&self) -> &GreenNode {
        &self.0
    }
}

/// A file's text: its chunks' texts laid end to end. Built only when read
/// (reporting, an editor's line index, the whole-file parse of a file with a
/// syntax error); the incremental path reads the chunks.
///
/// `no_eq`: it re-runs only when a chunk's text or the list changed, and then
/// the text differs (the database sets nothing that stays the same).
#[salsa::tracked(returns(ref), no_eq)]
pub fn file_text(db: &dyn Db, file: SourceFile) -> String {
    let chunks = file.chunks(db);
    let mut text = String::with_capacity(chunks.iter().map(|c| c.text(db).len()).sum());
    for chunk in chunks {
        text.push_str(chunk.text(db));
    }
    text
}

/// The syntax tree of one chunk, with ranges relative to the chunk.
///
/// `no_eq`: it re-runs only when the chunk's text changed, and then the
/// (lossless) tree differs; comparing the old and new trees to find that out
/// would walk them up to the edit.
///
/// After an edit inside one token the database has already built the tree
/// from the previous one (`Chunk::reparsed`, see `ptx_syntax::reparse`); this
/// returns it (in debug builds after checking it against a full parse).
#[salsa::tracked(returns(ref), no_eq)]
pub fn chunk_parse(db: &dyn Db, chunk: Chunk) -> Parse {
    if let Some(tree) = chunk.reparsed(db) {
        debug_assert!(
            *tree == ptx_syntax::parse(chunk.text(db)),
            "a token reparse differs from a full parse"
        );
        return tree.clone();
    }
    ptx_syntax::parse(chunk.text(db))
}

/// Whether no chunk of the file has a syntax error. Then the file's tree is
/// the chunks' trees side by side (see `ptx_syntax::split`), and the file is
/// parsed and checked chunk by chunk; otherwise as a whole.
#[salsa::tracked(returns(copy))]
pub fn chunks_clean(db: &dyn Db, file: SourceFile) -> bool {
    file.chunks(db)
        .iter()
        .all(|&chunk| chunk_parse(db, chunk).errors().is_empty())
}

/// The syntax tree of a file: when its chunks parse cleanly, their nodes under
/// one `SOURCE_FILE` node (no re-parse, the nodes are shared), else the whole
/// text parsed. Either way equal to `ptx_syntax::parse` of the text.
///
/// `no_eq`, as [`chunk_parse`]: a new text always gives a different tree, and
/// comparing two trees of a 1 MB file costs more (~2 ms) than re-validating
/// what reads this one, which backdates on its own (module facts, kernels...).
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    if !chunks_clean(db, file) {
        return ptx_syntax::parse(file_text(db, file));
    }
    let roots = file.chunks(db).iter().map(|&c| chunk_parse(db, c).green());
    Parse::from_parts(side_by_side(roots), Vec::new())
}

/// One `SOURCE_FILE` node holding the children of the given roots, in order
/// (the nodes are shared, not copied).
fn side_by_side<'g>(roots: impl Iterator<Item = &'g GreenNode>) -> GreenNode {
    let mut children = Vec::new();
    for root in roots {
        children.extend(root.children().map(|child| match child {
            NodeOrToken::Node(n) => NodeOrToken::Node(n.to_owned()),
            NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
        }));
    }
    GreenNode::new(SyntaxKind::SOURCE_FILE.into(), children)
}

/// The skeleton of one chunk: its items with every function body emptied
/// (`ptx_syntax::skeleton`). An edit inside a body re-runs it, and the result
/// compares equal: nothing module-level re-runs.
#[salsa::tracked(returns(ref))]
pub fn chunk_skeleton(db: &dyn Db, chunk: Chunk) -> Skeleton {
    Skeleton(ptx_syntax::skeleton::skeleton(
        chunk_parse(db, chunk).green(),
    ))
}

/// The skeleton of a file (`ptx_syntax::skeleton`): its chunks' skeletons
/// side by side when they parse cleanly, else that of the whole parse. What
/// module level knows of the file is computed from it ([`module_check`],
/// [`module_context`]), so an edit inside a function body stops here.
#[salsa::tracked(returns(ref))]
pub fn module_skeleton(db: &dyn Db, file: SourceFile) -> Skeleton {
    if !chunks_clean(db, file) {
        return Skeleton(ptx_syntax::skeleton::skeleton(parse(db, file).green()));
    }
    let roots = file.chunks(db).iter().map(|&c| &chunk_skeleton(db, c).0);
    Skeleton(side_by_side(roots))
}

/// The module-level pass of the check: the facts the checks of each item read
/// and the module-level diagnostics, computed on the [`module_skeleton`] (the
/// diagnostics' ranges are in the skeleton; [`file_diagnostics`] maps them to
/// the file). Re-runs only when the skeleton changed.
#[salsa::tracked(returns(ref))]
pub fn module_check(db: &dyn Db, file: SourceFile) -> (ModuleFacts, Arc<[Diag]>) {
    let (facts, diags) = ptx_syntax::check::module_facts(&module_skeleton(db, file).tree());
    (facts, diags.into())
}

/// The module-level facts the checks of each item read (header, module-level
/// names). Position-free: an edit inside a function leaves it equal, so the
/// other chunks' [`chunk_check`]s do not re-run. (Apart from
/// [`module_check`], which also holds the module-level diagnostics, so that
/// an edit to a diagnostic's position does not re-run every chunk check.)
#[salsa::tracked(returns(ref))]
pub fn module_facts(db: &dyn Db, file: SourceFile) -> ModuleFacts {
    module_check(db, file).0.clone()
}

/// The checks of the items of one chunk, with ranges relative to the chunk, in
/// the order `ptx_syntax::check` finds them.
#[salsa::tracked(returns(ref))]
pub fn chunk_check(db: &dyn Db, chunk: Chunk) -> Arc<[Diag]> {
    let Some(file) = db.source_file(chunk.path(db)) else {
        unreachable!("a chunk's file is in the database")
    };
    let facts = module_facts(db, file);
    ptx_syntax::check::check_items(chunk_parse(db, chunk).tree().items(), facts).into()
}

/// Syntax errors and check diagnostics (what `ptxopt check` reports), sorted by
/// position: `ptx_syntax::check::diagnostics` of the file. When the chunks parse
/// cleanly it is put together from the module-level diagnostics and each
/// chunk's [`chunk_check`] (moved to the chunk's offset), so an edit re-checks
/// only its chunk.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Arc<[Diag]> {
    if !chunks_clean(db, file) {
        return ptx_syntax::check::diagnostics(parse(db, file)).into();
    }
    // The order of `check`: module-level diagnostics, then item by item; then
    // a stable sort by start.
    let mut diags = module_diagnostics(db, file);
    let mut offset = TextSize::from(0);
    for &chunk in file.chunks(db) {
        diags.extend(chunk_check(db, chunk).iter().map(|d| Diag {
            range: d.range + offset,
            ..d.clone()
        }));
        offset += TextSize::of(chunk.text(db).as_str());
    }
    diags.sort_by_key(|d| d.range.start());
    diags.into()
}

/// The module-level diagnostics of [`module_check`], their ranges mapped from
/// the skeleton to the file (they point into items' headers, where the two
/// agree up to the bodies emptied before; `ptx_syntax::skeleton`).
fn module_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diag> {
    let diags = &module_check(db, file).1;
    if diags.is_empty() {
        return Vec::new();
    }
    let (skeleton, source) = (&module_skeleton(db, file).0, parse(db, file).green());
    let map = |offset| ptx_syntax::skeleton::source_offset(skeleton, source, offset);
    diags
        .iter()
        .map(|d| Diag {
            range: TextRange::new(map(d.range.start()), map(d.range.end())),
            ..d.clone()
        })
        .collect()
}

/// Whether the file has any error (a file with errors is not built).
pub fn has_errors(db: &dyn Db, file: SourceFile) -> bool {
    file_diagnostics(db, file)
        .iter()
        .any(|d| d.severity == Severity::Error)
}

/// What lowering a function needs from module level, computed on the
/// [`module_skeleton`] (equal to that of the whole tree, and left alone by an
/// edit inside a function body).
#[salsa::tracked(returns(ref))]
pub fn module_context(db: &dyn Db, file: SourceFile) -> ModuleContext {
    ModuleContext::new(&module_skeleton(db, file).tree())
}

/// The function definitions of a file, in source order: those of its chunks
/// ([`chunk_kernels`]) when they parse cleanly, else those of the whole
/// parse. An edit inside a function body re-runs its chunk's
/// `chunk_kernels`, which gives the same kernels (the ids are kept, the
/// syntax field changes), so this is not re-run.
#[salsa::tracked(returns(ref))]
pub fn kernels(db: &dyn Db, file: SourceFile) -> Vec<Kernel<'_>> {
    if !chunks_clean(db, file) {
        return new_kernels(db, file, parse(db, file).green());
    }
    let mut kernels = Vec::new();
    for &chunk in file.chunks(db) {
        kernels.extend_from_slice(chunk_kernels(db, chunk));
    }
    kernels
}

/// The function definitions of one chunk, in order (see [`kernels`]).
#[salsa::tracked(returns(ref))]
pub fn chunk_kernels(db: &dyn Db, chunk: Chunk) -> Vec<Kernel<'_>> {
    let Some(file) = db.source_file(chunk.path(db)) else {
        unreachable!("a chunk's file is in the database")
    };
    new_kernels(db, file, chunk_parse(db, chunk).green())
}

/// A [`Kernel`] for each function definition of a tree, in order.
fn new_kernels<'db>(db: &'db dyn Db, file: SourceFile, root: &GreenNode) -> Vec<Kernel<'db>> {
    function_definitions(root)
        .map(|func| {
            let name = func
                .child(SyntaxKind::NAME)
                .and_then(|n| n.first_token())
                .map(|t| t.text().to_string())
                .unwrap_or_default();
            let green = func.green().to_owned();
            Kernel::new(db, name, file, KernelSyntax(green))
        })
        .collect()
}

/// The `FUNCTION` nodes with a body, in order (the same order as
/// [`Module::functions`] of `ptx_ir::lower_module`), as green views with
/// absolute ranges (the green walk allocates nothing, a `SyntaxNode` walk
/// allocates a node per top-level item).
fn function_definitions(root: &GreenNode) -> impl Iterator<Item = green::Node<'_>> {
    green::Node::new(root, TextSize::from(0))
        .children()
        .filter(|n| n.is(SyntaxKind::FUNCTION) && n.child(SyntaxKind::BLOCK).is_some())
}

/// A kernel lowered to IR: the function without source positions, each
/// instruction's range (relative to the start of the function, indexed by
/// instruction id) beside it, and what lowering could not make sense of.
///
/// The ranges live beside the function rather than in it (lowering writes
/// them into `Inst::range`; this query moves them out) so that
/// [`kernel_ir`] can hand the same `Arc` on without copying the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredKernel {
    pub function: Arc<Function>,
    /// `ranges[i]` is the range of the instruction with id `i`; empty for one
    /// that lowering made up.
    pub ranges: Arc<[TextRange]>,
    pub errors: Arc<[LowerError]>,
}

impl LoweredKernel {
    /// The range of an instruction relative to the start of its function
    /// (`None` for an id of another function).
    pub fn inst_range(&self, inst: ptx_ir::ir::InstId) -> Option<TextRange> {
        self.ranges
            .get(inst.into_raw().into_u32() as usize)
            .copied()
    }
}

/// A kernel lowered to IR (see [`LoweredKernel`]).
///
/// `no_eq`: it re-runs after any edit of the function's text, comments and
/// whitespace included, and then the ranges differ anyway; the comparison that
/// matters, of the code alone, is [`kernel_ir`]'s.
#[salsa::tracked(returns(ref), no_eq)]
pub fn kernel_lowered<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> LoweredKernel {
    let ctx = module_context(db, kernel.file(db));
    let root = SyntaxNode::new_root(kernel.syntax(db).0.clone());
    match ast::Function::cast(root) {
        Some(func) => {
            let (mut function, errors) = ptx_ir::lower_function(&func, ctx);
            let ranges = function
                .insts
                .iter_mut()
                .map(|(_, inst)| std::mem::take(&mut inst.range))
                .collect();
            LoweredKernel {
                function: Arc::new(function),
                ranges,
                errors: errors.into(),
            }
        }
        None => unreachable!("a Kernel holds a FUNCTION node"),
    }
}

/// A kernel's IR without source positions: the input of the first phase.
/// Equal for any two sources that differ only in comments and whitespace: a
/// trivia edit re-runs it, the value compares equal and is backdated, and
/// nothing after it re-runs (the trivia firewall).
#[salsa::tracked(returns(ref))]
pub fn kernel_ir<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<Function> {
    kernel_lowered(db, kernel).function.clone()
}

/// The module without its function bodies: the header and the module-level
/// items in order ([`ModuleItem::Function`]`(i)` stands for the `i`-th entry of
/// [`kernels`]).
///
/// `ptx_ir::lower_module_items` lowers no function body (and the items hold
/// no positions), so it runs on the [`module_skeleton`], which an edit inside
/// a function leaves equal: it is not re-run.
#[salsa::tracked(returns(ref))]
pub fn module_items(db: &dyn Db, file: SourceFile) -> (Header, Arc<[ModuleItem]>) {
    let skeleton = Parse::from_parts(module_skeleton(db, file).0.clone(), Vec::new());
    let (header, items, _errors) = ptx_ir::lower_module_items(&skeleton);
    (header, items.into())
}

/// Where each kernel of [`kernels`] starts in its file, in the same order:
/// add it to a range of [`kernel_lowered`] to get an absolute range. Not
/// memoized (it changes with every edit above a kernel, and is cheap); call
/// it once per file and index it.
pub fn kernel_starts(db: &dyn Db, file: SourceFile) -> Vec<TextSize> {
    function_definitions(parse(db, file).green())
        .map(|f| f.range().start())
        .collect()
}

/// Lowering problems of a whole file with absolute ranges, for reporting.
/// Empty for every file ptxas accepts that lowering fully models.
pub fn lowering_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diag> {
    let starts = kernel_starts(db, file);
    let mut out = Vec::new();
    for (index, kernel) in kernels(db, file).iter().enumerate() {
        let base = starts.get(index).copied().unwrap_or_default();
        for e in kernel_lowered(db, *kernel).errors.iter() {
            out.push(Diag {
                range: e.range + base,
                severity: Severity::Error,
                message: format!("ptxopt cannot lower this: {}", e.message),
            });
        }
    }
    out
}
