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
