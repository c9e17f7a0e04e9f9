//! What the differential tests of single phases share.

use ptx_emu::diff::{self, Side, VerifyOptions, VerifyReport};
use ptx_emu::Dim3;
use ptx_ir::ir::{Function, Module};

/// Puts `func` (a phase's output) in place of the first function of
/// `module` (lowered from `text`), emits and lowers the result again (it
/// must lower), and runs kernel `k` of both on the emulator with one block
/// of `threads` threads. Returns the report and the optimized text; the
/// caller asserts the verdict with its own context.
pub fn verify_replaced(
    module: &Module,
    text: &str,
    func: &Function,
    threads: u32,
    what: &str,
) -> (VerifyReport, String) {
    let mut optimized = module.clone();
    optimized.functions[0] = func.clone();
    let opt_text = ptx_ir::emit_module(&optimized);
    let (reparsed, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&opt_text));
    assert!(
        errors.is_empty(),
        "{what}: output does not lower: {errors:?}\n{opt_text}"
    );
    let opts = VerifyOptions {
        shapes: vec![(Dim3::new(1, 1, 1), Dim3::new(threads, 1, 1))],
        ..VerifyOptions::default()
    };
    let report = diff::verify_sources(
        Side {
            module,
            text: Some(text),
        },
        Side {
            module: &reparsed,
            text: Some(&opt_text),
        },
        "k",
        &opts,
    );
    (report, opt_text)
}
