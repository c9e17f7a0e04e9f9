//! No panic on any input. Mutations of real PTX (the shared corpus when present,
//! and every PTX file in test-data): truncation at every line, deleted lines and
//! random byte edits and PTX fragments (`ptx_test_support::mutation`). Each mutated text must parse into a lossless tree and go
//! through the checks without a panic.
//!
//! CI runs the default number of cases; run longer with e.g.
//! `PROPTEST_CASES=200000 cargo test --release -p ptx-syntax --test no_panic`.

use proptest::prelude::*;
use ptx_test_support::mutation::{self, apply, edit};
use ptx_test_support::{corpus_dir, ptx_files_recursive, test_data};

/// Seed texts: small files only (the big dealii module is covered by the corpus
/// round-trip test), sorted for determinism.
fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut files = ptx_files_recursive(&test_data());
        if let Some(corpus) = corpus_dir() {
            files.extend(ptx_files_recursive(&corpus.join("zluda")));
        }
        files.sort();
        files
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|t| t.len() < 64 * 1024)
            .collect()
    })
}

fn exercise(text: &str) {
    let parse = ptx_syntax::parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    let _ = ptx_syntax::check::diagnostics(&parse);
}

#[test]
fn truncation_at_every_line() {
    for text in seeds() {
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            exercise(&text[..end]);
            // Also cut in the middle of the line.
            let mid = end - line.len() / 2;
            if text.is_char_boundary(mid) {
                exercise(&text[..mid]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: mutation::cases(512), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_never_panic(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..8)) {
        let seeds = seeds();
        prop_assume!(!seeds.is_empty());
        let mut text = seeds[seed % seeds.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        exercise(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        exercise(&text);
    }
}

/// Runs `f` on a thread with a `stack`-byte stack: a stack overflow would
/// abort the test process, so passing proves the paths fit.
pub fn on_stack(stack: usize, f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// Everything `ptx-syntax` does to a text: parse, round trip, checks,
/// formatting, skeleton, split, dropping the tree.
fn exercise_all(text: &str) -> Vec<ptx_syntax::SyntaxError> {
    let parse = ptx_syntax::parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    let _ = ptx_syntax::check::diagnostics(&parse);
    let _ = ptx_syntax::format::format(&parse);
    let _ = ptx_syntax::skeleton::skeleton(parse.green());
    let _ = ptx_syntax::split::split_points(text);
    let _ = ptx_syntax::debug_tree(&parse.syntax_node()).len();
    parse.errors().to_vec()
}

/// Deep nesting (issue 10: thousands of nested `{`, `(`, unary `-`, `1+1+...`
/// terms, initializer braces overflowed the stack): below the limit the
/// parse has no nesting error; past it, one clear error at the first level
/// too deep; never an overflow, on a 1 MiB stack (smaller than a worker
/// thread's 2 MiB) and on the main thread's 8 MiB.
#[test]
fn deep_nesting_never_overflows_the_stack() {
    use ptx_syntax::MAX_NESTING;
    let n_max = MAX_NESTING as usize;
    for stack in [1 << 20, 8 << 20] {
        for n in [n_max - 8, n_max + 1, 20_000] {
            for (name, text) in mutation::deep_inputs(n) {
                on_stack(stack, move || {
                    let errors = exercise_all(&text);
                    let deep: Vec<_> = errors
                        .iter()
                        .filter(|e| e.message.starts_with("nested too deeply"))
                        .collect();
                    if n < n_max && !name.ends_with("invalid") {
                        assert!(errors.is_empty(), "{name} {n}: {errors:?}");
                    }
                    if n > n_max {
                        assert_eq!(errors.len(), 1, "{name} {n}: {errors:?}");
                        assert_eq!(deep.len(), 1, "{name} {n}: {errors:?}");
                    }
                    // Also cut short at every 997th byte.
                    let step = if n < 1_000 {
                        text.len() / 7 + 1
                    } else {
                        usize::MAX
                    };
                    for end in (0..text.len()).step_by(step) {
                        exercise_all(&text[..end]);
                    }
                });
            }
        }
    }
}

#[test]
fn nesting_error_points_at_the_first_level_too_deep() {
    let n = ptx_syntax::MAX_NESTING as usize + 5;
    let text = mutation::kernel_with(&mutation::Nest::Block.text(n, true));
    let errors = ptx_syntax::parse(&text).errors().to_vec();
    assert_eq!(errors.len(), 1, "{errors:?}");
    // The kernel's own body is the first level: the `{` opening level
    // MAX_NESTING + 1 is the (MAX_NESTING)th nested block.
    let at = u32::from(errors[0].range.start()) as usize;
    let line = text[..at].matches('\n').count() + 1;
    assert_eq!(&text[at..at + 1], "{");
    assert_eq!(line, 8 + ptx_syntax::MAX_NESTING as usize);
}
