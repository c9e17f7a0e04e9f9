//! The cicc loop-unroll decision on every function of `test-data` and the
//! shared corpus: one decision per loop, no panic, one report per loop, and
//! the code unchanged when no loop is unrolled (but for the `.pragma
//! "nounroll"` a `// ptxopt: nounroll` annotation becomes).

use std::sync::Arc;

use ptx_opt::phases::cicc_loop_unroll::decide;
use ptx_opt::{run_phase, Defaults, PhaseId};

#[test]
fn one_decision_per_loop_on_every_file() {
    let mut files = ptx_test_support::ptx_files_recursive(&ptx_test_support::test_data());
    if let Some(corpus) = ptx_test_support::corpus_dir() {
        files.extend(ptx_test_support::ptx_files_recursive(&corpus));
    }
    let ctx = Defaults::new(90);
    let (mut loops, mut unrolled) = (0usize, 0usize);
    let mut slowest = std::time::Duration::ZERO;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let (module, _errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        for f in module.functions {
            let cfg = ptx_analysis::cfg(&f);
            let forest = ptx_analysis::loops(&cfg, &ptx_analysis::dominators(&cfg));
            let start = std::time::Instant::now();
            let decisions = decide(&ctx, &f);
            slowest = slowest.max(start.elapsed());
            assert_eq!(decisions.len(), forest.loops.len(), "{}", path.display());
            let f = Arc::new(f);
            let out = run_phase(PhaseId::CiccLoopUnroll, &ctx, &f);
            assert_eq!(out.loops.len(), decisions.len());
            let done = out
                .loops
                .iter()
                .filter(|l| l.unroll.as_ref().is_some_and(|u| u.full || u.factor > 1))
                .count();
            // A `nounroll` annotation becomes a `.pragma "nounroll"`: the
            // one change without an unroll.
            let annotated = f.layout.iter().any(|&b| {
                f.blocks[b]
                    .annotations
                    .iter()
                    .any(|a| a.trim() == "nounroll")
            });
            if done == 0 && !annotated {
                assert!(Arc::ptr_eq(&out.function, &f), "{}", path.display());
            }
            loops += decisions.len();
            unrolled += done;
        }
    }
    assert!(loops > 0);
    eprintln!("{loops} loops, {unrolled} unrolled; slowest decision {slowest:?}");
}
