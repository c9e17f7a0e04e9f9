//! Lowering, verifying and emitting never panic: on every test-data PTX file (rejected and
//! syntax-error ones included), the corpus files ptxas rejects and the 32-bit
//! ones, and on broken variants of the test-data files (truncated at line
//! boundaries, one line deleted, one line duplicated).

mod common;

use std::path::PathBuf;

fn lower_and_emit(text: &str) {
    let parse = ptx_syntax::parse(text);
    let (module, _) = ptx_ir::lower_module(&parse);
    for f in &module.functions {
        let _ = ptx_ir::verify(f);
    }
    let emitted = ptx_ir::emit_module(&module);
    let (again, _) = ptx_ir::lower_module(&ptx_syntax::parse(&emitted));
    let _ = ptx_ir::emit_module(&again);
    let _ = ptx_ir::ir::dump::dump_module(&module);
}

fn test_data_files() -> Vec<PathBuf> {
    let root = common::test_data();
    [
        "families",
        "examples",
        "frontend",
        "rejected",
        "ir",
        "syntax/ok",
        "syntax/err",
    ]
    .iter()
    .flat_map(|dir| common::ptx_files(&root.join(dir)))
    .collect()
}

#[test]
fn whole_files_do_not_panic() {
    let mut files = test_data_files();
    if let Some(corpus) = common::corpus_dir() {
        files.extend(common::ptx_files(&corpus.join("zluda/spirv_run")));
        files.extend(common::ptx_files(&corpus.join("zluda/spirv_run/32")));
    }
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        lower_and_emit(&text);
    }
}

/// Up to `max` evenly spread line indices of a file with `lines` lines.
fn sample(lines: usize, max: usize) -> impl Iterator<Item = usize> {
    let step = lines.div_ceil(max).max(1);
    (0..lines).step_by(step)
}

#[test]
fn broken_variants_do_not_panic() {
    for path in test_data_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for cut in sample(lines.len(), 20) {
            lower_and_emit(&lines[..cut].join("\n"));
            let mut deleted = lines.clone();
            deleted.remove(cut);
            lower_and_emit(&deleted.join("\n"));
            // ptx-syntax's parser loops forever on a `{` nested in a `.section`
            // body (`.section .x\n{\n{\n}`), so `{` lines are not duplicated.
            if lines[cut].trim() != "{" {
                let mut duplicated = lines.clone();
                duplicated.insert(cut, lines[cut]);
                lower_and_emit(&duplicated.join("\n"));
            }
        }
    }
}
