//! Phase 22 for its reports only (`loop_unrolling::run_with_trips(..,
//! reports_only)`, what the register estimate's `ptxas_view::unroll_factors`
//! runs): given the trip counts the database holds and skipping the
//! clean-up after the last unroll, it must report every loop exactly as the
//! phase itself does, and leave the function as it was. Over every filetest
//! of `test-data/passes/OriLoopUnrolling`, with the knobs its header sets.

use std::path::Path;
use std::sync::Arc;

use ptx_opt::phases::loop_unrolling::{run, run_with_trips};
use ptx_opt::Defaults;

#[test]
fn reports_only_reports_what_the_phase_reports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/passes/OriLoopUnrolling");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the OriLoopUnrolling filetests")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "{} filetests", files.len());
    let (mut functions, mut loops) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut ctx = Defaults::new(80);
        for line in text.lines().filter_map(|l| l.strip_prefix("// knobs:")) {
            for assignment in line.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                let (def, value) = ptx_knobs::parse_setting(assignment).expect("NAME=VALUE");
                let id = ptx_knobs::KnobId::from_name(def.name).expect("a registered knob");
                ctx.knobs.insert(id, value);
            }
        }
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        for func in module.functions.into_iter().map(Arc::new) {
            let g = ptx_analysis::cfg(&func);
            let dom = ptx_analysis::dominators(&g);
            let forest = ptx_analysis::loops(&g, &dom);
            let rd = ptx_analysis::reaching_defs(&func, &g);
            let trips = ptx_analysis::trip_counts(&func, &g, &dom, &forest, &rd);
            let full = run(&ctx, &func);
            let only = run_with_trips(&ctx, &func, Some(&trips), true);
            let what = format!("{} `{}`", path.display(), func.sig.name);
            assert_eq!(only.loops, full.loops, "{what}: loop reports");
            assert!(
                Arc::ptr_eq(&only.function, &func),
                "{what}: function changed"
            );
            functions += 1;
            loops += full.loops.len();
        }
    }
    assert!(
        functions > 20 && loops > 20,
        "{functions} functions, {loops} loops"
    );
}
