//! Incrementality of the loop phases (18, 21, 24, 35/66/79/88, 59), proved
//! by the salsa event log:
//!
//! (a) an edit in one loop re-runs the phases of that function only;
//! (b) a knob of one loop phase re-runs that phase only (its code is
//!     unchanged, so nothing after it re-runs), and only where it read the
//!     knob: the LICM budget is read by the four LICM instances of the
//!     kernel with a loop, not by the straight-line kernel (the guard,
//!     more than two blocks, returns first);
//! (c) a knob that changes a loop phase's output re-runs the phases after it
//!     in that function only.

use expect_test::{expect, Expect};
use ptx_db::{build_file, EventLog, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

mod common;
use common::check_rebuild;

const TWO_KERNELS: &str = r#".version 8.0
.target sm_80
.address_size 64

.visible .entry a(
	.param .u64 a_p,
	.param .f32 a_s,
	.param .u32 a_n
)
{
	.reg .pred %p<3>;
	.reg .f32 %f<12>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<13>;
	ld.param.u64 %rd1, [a_p];
	ld.param.f32 %f1, [a_s];
	ld.param.u32 %r2, [a_n];
	mov.u32 %r9, 0;
	mov.f32 %f7, 0f00000000;
$L__BB0_1:
	setp.lt.s32 %p1, %r9, %r2;
	@!%p1 bra $L__BB0_4;
	mul.f32 %f5, %f1, 0f3F000000;
	cvt.s64.s32 %rd10, %r9;
	shl.b64 %rd11, %rd10, 2;
	add.s64 %rd12, %rd1, %rd11;
	ld.f32 %f6, [%rd12];
	fma.rn.f32 %f3, %f5, %f6, %f7;
	add.s32 %r3, %r9, 1;
	mov.f32 %f7, %f3;
	mov.u32 %r9, %r3;
	bra.uni $L__BB0_1;
$L__BB0_4:
	st.f32 [%rd1], %f7;
	ret;
}

.visible .entry b(
	.param .u64 b_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [b_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    // cicc's unroller off: it would unroll the loop before the ptxas loop
    // phases this file is about see it.
    db.set_knob("disable-LoopUnrollPass", KnobValue::Bool(true))
        .unwrap();
    let file = db.set_file_text("two.ptx", TWO_KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    let text = built.text.unwrap().to_string();
    // The loop was inverted, its invariant hoisted and its address chain
    // strength-reduced.
    assert!(!text.contains("bra.uni \t$L__BB0_1"), "{text}");
    assert!(!text.contains("cvt.s64.s32"), "{text}");
    log.take(&db);
    (db, log, file)
}

#[test]
fn an_edit_in_one_loop_reruns_only_its_functions_phases() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "two.ptx",
        TWO_KERNELS.replace(
            "mul.f32 %f5, %f1, 0f3F000000;",
            "mul.f32 %f5, %f1, 0f3F400000;",
        ),
    );
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            chunk_parse(two.ptx#3)
            chunks_clean(two.ptx)
            chunk_skeleton(two.ptx#3)
            chunk_check(two.ptx#3)
            file_diagnostics(two.ptx)
            parse(two.ptx)
            chunk_kernels(two.ptx#3)
            kernel_lowered(a)
            kernel_ir(a)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(a)
            kernel_output(a)
            kernel_ptx(a)"#]],
    );
}

/// Builds the file, sets one knob, and checks what rebuilding re-ran.
fn check_knob(name: &str, value: KnobValue, expect: Expect) {
    let (mut db, log, file) = setup();
    db.set_knob(name, value).unwrap();
    check_rebuild(&db, &log, file, expect);
}

#[test]
fn a_licm_knob_reruns_only_the_licm_instances_that_read_it() {
    check_knob(
        "HoistConservativeScale", KnobValue::Int(5),
        expect!["<phases phase_35_ori_hoist_invariants_early..phase_88_ori_hoist_invariants_late3 (4)>(a)"],
    );
}

#[test]
fn the_machine_licm_switch_reruns_from_early_machinelicm_on_only_in_the_function_with_a_loop() {
    check_knob(
        "disable-machine-licm",
        KnobValue::Bool(true),
        expect![[r#"
            <phases cicc_early_machine_licm..phase_88_ori_hoist_invariants_late3 (49)>(a)
            kernel_output(a)
            kernel_ptx(a)"#]],
    );
}

#[test]
fn a_phase_18_knob_that_changes_no_code_reruns_phase_18_and_the_pass_through_reading_its_report() {
    check_knob(
        "LoopInversionBudget",
        KnobValue::Int(4),
        expect![[r#"
            phase_18_ori_loop_simplification(a)
            phase_19_ori_split_live_ranges(a)"#]],
    );
}

#[test]
fn turning_loop_inversion_off_reruns_the_phases_after_18_in_that_function() {
    check_knob(
        "LoopInversion",
        KnobValue::Bool(false),
        expect![[r#"
            <phases phase_18_ori_loop_simplification..phase_88_ori_hoist_invariants_late3 (32)>(a)
            kernel_output(a)
            kernel_ptx(a)"#]],
    );
}
