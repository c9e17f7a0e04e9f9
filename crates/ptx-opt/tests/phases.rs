//! `ptx-opt` without a database: phases run on lowered functions with the
//! registry defaults ([`Defaults`]).

use std::sync::Arc;

use expect_test::expect;
use ptx_ir::ir::Function;
use ptx_knobs::{knobs, KnobValue};
use ptx_opt::{run_phase, Defaults, PassContext, PhaseId, RemarkKind};

fn lower(text: &str) -> Vec<Arc<Function>> {
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    assert!(errors.is_empty(), "{errors:?}");
    module.functions.into_iter().map(Arc::new).collect()
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

#[test]
fn typed_knob_reads_see_overrides_and_registry_defaults() {
    let mut ctx = Defaults::new(80);
    assert!(ctx.bool(knobs::LoopUnroll));
    ctx.knobs
        .insert(knobs::LoopUnroll.id(), KnobValue::Bool(false));
    assert!(!ctx.bool(knobs::LoopUnroll));
    assert_eq!(ctx.int(knobs::unroll_threshold), 300);
    assert_eq!(ctx.target().sm, 80);
}

#[test]
fn a_pass_through_phase_returns_its_input() {
    let f = &lower(&format!("{HEADER}.visible .entry k()\n{{\n\tret;\n}}\n"))[0];
    let out = run_phase(PhaseId::OriLoopUnrolling, &Defaults::new(80), f);
    assert!(Arc::ptr_eq(&out.function, f));
    assert!(out.remarks.is_empty());
}

#[test]
fn dce_keeps_reg_return_values_and_removes_the_rest() {
    let text = format!(
        "{HEADER}.func (.reg .b32 r) f(.reg .b32 a)\n{{\n\t.reg .b32 %t<3>;\n\tadd.s32 %t1, a, 1;\n\tmul.lo.s32 %t2, a, a;\n\tmov.b32 r, %t1;\n\tret;\n}}\n"
    );
    let f = &lower(&text)[0];
    let out = run_phase(PhaseId::OriPerformLiveDeadFirst, &Defaults::new(80), f);
    expect![[r#"
        .func (.reg .b32 r) f(
        	.reg .b32 a
        )
        {
        	.reg .b32 	%t<3>;

        	add.s32 	%t1, a, 1;
        	mov.b32 	r, %t1;
        	ret;
        }
    "#]]
    .assert_eq(&ptx_ir::emit_function(&out.function));
    let applied: Vec<&str> = out
        .remarks
        .iter()
        .filter(|r| r.kind == RemarkKind::Applied)
        .map(|r| r.message.as_str())
        .collect();
    expect![[r#"
        [
            "removed dead `mul.lo.s32` defining %t2 (never read by code that stays)",
        ]
    "#]]
    .assert_debug_eq(&applied);
}

#[test]
fn dce_reaches_a_fixed_point_across_both_rules() {
    // %r2 is overwritten before any read (liveness); once it is gone, %r1
    // feeds nothing (never read).
    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 p)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 1;\n\tmov.u32 %r2, 7;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}}\n"
    );
    let f = &lower(&text)[0];
    let out = run_phase(PhaseId::OriPerformLiveDeadFirst, &Defaults::new(80), f);
    let stats: Vec<String> = out
        .stats
        .iter()
        .map(|s| format!("{}={}", s.name, s.value))
        .collect();
    expect![[r#"
        [
            "instructions removed=2",
            "removed: never read=1",
            "removed: overwritten before a read=1",
            "kept with unused results (side effects)=0",
            "rounds=3",
        ]
    "#]]
    .assert_debug_eq(&stats);
    assert!(out.remarks.iter().all(|r| r.origin.is_some()));
}

/// Summary and facts of each loop report, one line per loop.
fn reports(out: &ptx_opt::PhaseOutput) -> String {
    out.loops
        .iter()
        .map(|r| {
            let facts: Vec<String> = r.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(
                "[{}] {} | {}\n",
                ptx_opt::phase_info(r.phase).label(),
                r.summary,
                facts.join("; ")
            )
        })
        .collect()
}

#[test]
fn the_loop_phases_report_each_loop_with_the_numbers_that_decided() {
    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 p, .param .f32 s, .param .u32 n)\n{{\n\t.reg .pred %p<3>;\n\t.reg .f32 %f<12>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<13>;\n\tld.param.u64 %rd1, [p];\n\tld.param.f32 %f1, [s];\n\tld.param.u32 %r2, [n];\n\tmov.u32 %r9, 0;\n\tmov.f32 %f7, 0f00000000;\n$L__BB0_1:\n\tsetp.lt.s32 %p1, %r9, %r2;\n\t@!%p1 bra $L__BB0_4;\n\tmul.f32 %f5, %f1, 0f3F000000;\n\tcvt.s64.s32 %rd10, %r9;\n\tshl.b64 %rd11, %rd10, 2;\n\tadd.s64 %rd12, %rd1, %rd11;\n\tld.f32 %f6, [%rd12];\n\tfma.rn.f32 %f3, %f5, %f6, %f7;\n\tadd.s32 %r3, %r9, 1;\n\tmov.f32 %f7, %f3;\n\tmov.u32 %r9, %r3;\n\tbra.uni $L__BB0_1;\n$L__BB0_4:\n\tst.f32 [%rd1], %f7;\n\tret;\n}}\n"
    );
    let f = &lower(&text)[0];
    let ctx = Defaults::new(80);
    let mut all = String::new();
    let mut cur = f.clone();
    for id in [
        PhaseId::OriLoopSimplification,
        PhaseId::OriStrengthReduce,
        PhaseId::OriPipelining,
        PhaseId::OriHoistInvariantsEarly,
        PhaseId::OriHoistInvariantsLate,
    ] {
        let out = run_phase(id, &ctx, &cur);
        assert!(out.loops.iter().all(|r| r.unroll.is_none()));
        all.push_str(&reports(&out));
        cur = out.function;
    }
    expect![[r#"
        [18 OriLoopSimplification] inverted into a guarded bottom-tested loop | back edges=1; preheader=existing; inversion=done (1 header instructions copied); inversion budget=16
        [21 OriStrengthReduce] reduced 1 address chains and 0 multiplications of the IV to 1 new induction variables | iv=%r9; iv step=1; no wrap=guarded `i < n`, step 1; chains=1; multiplications=0; new ivs=1; exit test=compares the pointer IV (IV removed)
        [24 OriPipelining] pipelinable: II 10 (MII 10), 7 stages; not rewritten at the PTX level (ptxas pipelines it) | body instructions=7; ResMII=1; RecMII=10; MII=10; II=10; stages=7; iteration length=74
        [35 OriHoistInvariantsEarly] hoisted 1 instructions | pass id=0; policy=HoistLate=0; invariance=single pass; budget=22; hoisted=1; preheader=existing
        [66 OriHoistInvariantsLate] nothing hoisted: HoistLate=0 (always): the Late instance (pass 1) skips the block | pass id=1; policy=HoistLate=0
    "#]]
    .assert_eq(&all);
}
