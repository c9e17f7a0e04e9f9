//! The back end of the query graph: PTX text of optimized kernels and files.
//!
//! [`kernel_ptx`] prints one kernel after the pipeline; [`file_ptx`] stitches
//! the header, the module-level items and the kernels' texts together. Both are
//! memoized: after an edit in one kernel, only that kernel is printed again and
//! the file is re-assembled from the other kernels' stored texts. [`build_file`]
//! is what `ptxopt build` asks for: the text, or the errors that prevent it.

use std::borrow::Cow;
use std::sync::Arc;

use ptx_ir::ir::{Function, Header, Module, ModuleItem};

use ptx_syntax::check::Severity;

use crate::inputs::SourceFile;
use crate::queries::{self, kernels, module_items, Diag, Kernel};
use crate::{pipeline, Db};

/// A kernel after the pipeline, printed as PTX: the IR [`kernel_output`]
/// chose.
#[salsa::tracked(returns(ref))]
pub fn kernel_ptx<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> String {
    ptx_ir::emit_function(&kernel_output(db, kernel).function)
}

/// What is written for a kernel: its IR after the pipeline when that passes
/// the IR verifier ([`ptx_ir::verify::verify`]: layout, branch targets,
/// labels, registers, operand widths), otherwise, with the verifier's
/// first complaint, the kernel as lowered. In tests and debug builds every
/// phase's output is verified and a broken one stops the run
/// (`ptx_opt::verify`); a release build checks only the end of the
/// pipeline (once per kernel, where verifying after every phase would cost
/// a tenth of the build) so that a phase's bug costs the kernel its
/// optimization, never a file ptxas rejects.
#[salsa::tracked(returns(ref))]
pub fn kernel_output<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> KernelOutput {
    choose_output(pipeline::kernel_final(db, kernel), || {
        queries::kernel_ir(db, kernel).clone()
    })
}

/// [`kernel_output`]'s choice between the optimized and the lowered IR
/// (read only when the optimized one fails, so that an edit the pipeline
/// absorbs, inside dead code, stops before this query). When the lowered
/// IR fails the verifier too, the input was already outside what it
/// checks, and the optimized IR is written.
fn choose_output(
    optimized: Arc<Function>,
    lowered: impl FnOnce() -> Arc<Function>,
) -> KernelOutput {
    let Err(errors) = ptx_ir::verify::verify(&optimized) else {
        return KernelOutput {
            function: optimized,
            broken: None,
        };
    };
    let lowered = lowered();
    if Arc::ptr_eq(&optimized, &lowered) || ptx_ir::verify::verify(&lowered).is_err() {
        return KernelOutput {
            function: optimized,
            broken: None,
        };
    }
    KernelOutput {
        function: lowered,
        broken: errors.first().map(|e| e.to_string()),
    }
}

/// See [`kernel_output`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelOutput {
    pub function: Arc<Function>,
    /// Why the optimized IR was not written (the verifier's first error).
    pub broken: Option<String>,
}

/// A warning at each kernel whose optimized IR failed the verifier and is
/// written as lowered ([`kernel_output`]).
pub fn output_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diag> {
    let starts = queries::kernel_starts(db, file);
    let mut out = Vec::new();
    for (index, kernel) in kernels(db, file).iter().enumerate() {
        if let Some(why) = &kernel_output(db, *kernel).broken {
            let start = starts.get(index).copied().unwrap_or_default();
            out.push(Diag {
                range: ptx_syntax::TextRange::empty(start),
                severity: Severity::Warning,
                message: format!(
                    "internal error: the optimized code of `{}` fails the IR verifier ({why}); it is written unoptimized. Please report this with the file",
                    kernel.name(db)
                ),
            });
        }
    }
    out
}

/// A whole file after the pipeline, printed as PTX. Meaningful only for a file
/// without errors (see [`build_file`]).
#[salsa::tracked(returns(ref))]
pub fn file_ptx(db: &dyn Db, file: SourceFile) -> Arc<str> {
    file_ptx_text(db, file).to_string().into()
}

/// [`file_ptx`] as the pieces it is made of, in order: the kernels' text as
/// memoized ([`kernel_ptx`]), the header and the other module items
/// printed. What a build writes, without copying a whole file's text into
/// one string first (a serial megabyte at the end of a parallel build).
pub fn file_ptx_text(db: &dyn Db, file: SourceFile) -> PtxText<'_> {
    let (header, items) = module_items(db, file);
    let kernels = kernels(db, file);
    let mut pieces: Vec<Cow<'_, str>> = Vec::with_capacity(2 * items.len() + 1);
    pieces.push(emit_header(header).into());
    for item in items.iter() {
        pieces.push("\n".into());
        pieces.push(match item {
            ModuleItem::Function(i) => match kernels.get(*i) {
                Some(k) => kernel_ptx(db, *k).as_str().into(),
                None => "// missing function\n".into(),
            },
            other => emit_item(other).into(),
        });
    }
    PtxText { pieces }
}

/// The text of a built file, in pieces ([`file_ptx_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxText<'db> {
    pieces: Vec<Cow<'db, str>>,
}

impl PtxText<'_> {
    /// Writes the text to `out`, piece after piece.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.pieces
            .iter()
            .try_for_each(|p| out.write_all(p.as_bytes()))
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> usize {
        self.pieces.iter().map(|p| p.len()).sum()
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the text is `bytes`.
    pub fn equals(&self, bytes: &[u8]) -> bool {
        let mut rest = bytes;
        for p in &self.pieces {
            let Some(tail) = rest.strip_prefix(p.as_bytes()) else {
                return false;
            };
            rest = tail;
        }
        rest.is_empty()
    }
}

impl std::fmt::Display for PtxText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.pieces.iter().try_for_each(|p| f.write_str(p))
    }
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
pub struct FileBuild<'db> {
    /// The optimized PTX; `None` when the file has errors.
    pub text: Option<PtxText<'db>>,
    /// Errors and warnings (check diagnostics, then lowering problems), with
    /// absolute ranges.
    pub diagnostics: Vec<Diag>,
}

impl FileBuild<'_> {
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
pub fn build_file(db: &dyn Db, file: SourceFile) -> FileBuild<'_> {
    let mut diagnostics = file_problems(db, file);
    let text = (!any_error(&diagnostics)).then(|| file_ptx_text(db, file));
    if text.is_some() {
        diagnostics.extend(output_diagnostics(db, file));
    }
    FileBuild { text, diagnostics }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_ir::ir::Operand;

    fn lowered() -> Arc<Function> {
        let text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\nmov.u32 %r1, 1;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\nadd.u32 %r1, %r1, 1;\n$L1:\nret;\n}\n";
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
        assert!(errors.is_empty(), "{errors:?}");
        Arc::new(module.functions[0].clone())
    }

    #[test]
    fn the_streamed_text_is_the_joined_text() {
        let mut db = crate::RootDatabase::new();
        let text = ".version 8.0\n.target sm_80\n.address_size 64\n.global .u32 g;\n.visible .entry a()\n{\nret;\n}\n.visible .entry b()\n{\nret;\n}\n";
        let file = db.set_file_text("k.ptx", text);
        let pieces = file_ptx_text(&db, file);
        let joined = file_ptx(&db, file);
        assert_eq!(pieces.to_string(), **joined);
        assert_eq!(pieces.len(), joined.len());
        let mut written = Vec::new();
        pieces.write_to(&mut written).unwrap();
        assert_eq!(written, joined.as_bytes());
        assert!(pieces.equals(joined.as_bytes()));
        assert!(!pieces.equals(&joined.as_bytes()[1..]));
        assert!(!pieces.equals(format!("{joined} ").as_bytes()));
    }

    #[test]
    fn a_broken_optimized_function_is_written_as_lowered() {
        let lowered = lowered();
        // Unchanged: nothing to check.
        let same = choose_output(lowered.clone(), || lowered.clone());
        assert!(same.broken.is_none() && Arc::ptr_eq(&same.function, &lowered));
        // A valid rewrite is kept.
        let mut ok = (*lowered).clone();
        let first = ok.layout[0];
        let mov = ok.blocks[first].insts[0];
        ok.insts[mov].operands[1] =
            Operand::Imm(ptx_ir::ir::Imm::new(ptx_ir::ir::ImmValue::Int(2)));
        let ok = Arc::new(ok);
        let kept = choose_output(ok.clone(), || lowered.clone());
        assert!(kept.broken.is_none() && Arc::ptr_eq(&kept.function, &ok));
        // A branch to a block out of the layout (what phase 22 once left):
        // the lowered function is written, and the verifier says why.
        let mut broken = (*lowered).clone();
        let target = *broken.layout.last().unwrap();
        broken.layout.retain(|&b| b != target);
        let out = choose_output(Arc::new(broken), || lowered.clone());
        assert!(Arc::ptr_eq(&out.function, &lowered));
        let why = out.broken.expect("a reason");
        assert!(why.contains("not a block of the layout"), "{why}");
    }
}
