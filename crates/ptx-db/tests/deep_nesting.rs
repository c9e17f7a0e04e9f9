//! Deep nesting through the whole database (issue 10: `check`, `analyze`,
//! `build` and the language server's workers aborted on thousands of nested
//! blocks, parentheses, operators or initializer braces): checks, lowering
//! (nested scopes, constant expressions), every analysis, the pipeline and
//! the emitter, an incremental edit and dropping the database, on a thread
//! with a 1 MiB stack (smaller than a worker's 2 MiB) and with the main
//! thread's 8 MiB. The parser's limit (`ptx_syntax::MAX_NESTING`) bounds
//! every tree; just below it, valid input builds.

use ptx_db::{analysis, build_file, file_diagnostics, kernels, RootDatabase};
use ptx_test_support::mutation::deep_inputs;

fn on_stack(stack: usize, f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

fn everything(name: &str, n: usize, text: &str) {
    let limit = ptx_syntax::MAX_NESTING as usize;
    let mut db = RootDatabase::new();
    let file = db.set_file_text("/deep.ptx", text);
    let diags = file_diagnostics(&db, file);
    analysis::analyze_file(&db, file);
    let _ = kernels(&db, file).len();
    let built = build_file(&db, file);
    let valid = n < limit && !name.ends_with("invalid");
    if valid {
        assert!(diags.is_empty(), "{name} {n}: {diags:?}");
        assert!(built.text.is_some(), "{name} {n}: {:?}", built.diagnostics);
    } else if n > limit {
        assert!(
            diags
                .iter()
                .any(|d| d.message.starts_with("nested too deeply")),
            "{name} {n}: {diags:?}"
        );
        assert!(built.text.is_none());
    }
    // An edit inside the nesting, then everything again.
    let mid = text.len() / 2;
    let mid = (mid..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap();
    db.edit_file_text(file, mid..mid, " ").unwrap();
    let _ = file_diagnostics(&db, file);
    analysis::analyze_file(&db, file);
    let _ = kernels(&db, file).len();
    let _ = build_file(&db, file);
    drop(db);
}

#[test]
fn deep_nesting_builds_or_fails_cleanly_on_small_stacks() {
    let limit = ptx_syntax::MAX_NESTING as usize;
    for stack in [1 << 20, 8 << 20] {
        for n in [limit - 8, limit + 1, 20_000] {
            for (name, text) in deep_inputs(n) {
                on_stack(stack, move || everything(&name, n, &text));
            }
        }
    }
}
