//! Incrementality of the optimizing phases, proved by the salsa event log:
//!
//! (a) changing a knob dead-code elimination (phase 16) does not read re-runs
//!     none of its queries;
//! (b) an edit in one function re-runs only that function's phases;
//! (c) an edit inside dead code re-runs the phases up to 16, whose output
//!     (dead code removed and the arena compacted) is equal: nothing after
//!     it re-runs.

use expect_test::expect;
use ptx_db::{build_file, file_remarks, EventLog, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

mod common;
use common::check_rebuild;

const TWO_KERNELS: &str = r#".version 8.0
.target sm_80
.address_size 64

.visible .entry a(
	.param .u64 a_p
)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r5, %r1, 7;
	mul.lo.s32 %r6, %r5, 3;
	add.s32 %r2, %r1, 1;
	st.global.u32 [%rd2], %r2;
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
    let file = db.set_file_text("two.ptx", TWO_KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    assert_eq!(
        file_remarks(&db, file)
            .iter()
            .filter(|r| r.remark.name == "dead-code")
            .count(),
        2,
        "two dead instructions in `a`"
    );
    log.take(&db);
    (db, log, file)
}

#[test]
fn a_knob_dce_does_not_read_reruns_none_of_its_queries() {
    let (mut db, log, file) = setup();
    db.set_knob("LoopUnroll", KnobValue::Bool(false)).unwrap();
    db.set_knob("UnrollBudget", KnobValue::Int(7)).unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            phase_22_ori_loop_unrolling(a)
            phase_22_ori_loop_unrolling(b)"#]],
    );
}

#[test]
fn an_edit_in_one_function_reruns_only_its_phases() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "two.ptx",
        TWO_KERNELS.replace("mov.u32 %r1, %ctaid.x;", "mov.u32 %r1, %ctaid.y;"),
    );
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            chunk_parse(two.ptx#4)
            chunks_clean(two.ptx)
            chunk_skeleton(two.ptx#4)
            chunk_check(two.ptx#4)
            file_diagnostics(two.ptx)
            parse(two.ptx)
            chunk_kernels(two.ptx#4)
            kernel_lowered(b)
            kernel_ir(b)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(b)
            kernel_output(b)
            kernel_ptx(b)"#]],
    );
}

#[test]
fn an_edit_inside_dead_code_stops_at_dce() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "two.ptx",
        TWO_KERNELS.replace("mul.lo.s32 %r6, %r5, 3;", "mul.lo.s32 %r6, %r5, 5;"),
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
            <phases cicc_inline..phase_16_ori_perform_live_dead_first (23)>(a)"#]],
    );
}
