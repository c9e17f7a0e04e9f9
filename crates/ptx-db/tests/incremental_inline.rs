//! Incrementality of the inliner (`cicc inline`), proved by the salsa event
//! log: the inliner of a caller reads its callee's lowered IR as a tracked
//! read of that function alone, so
//!
//! (a) an edit inside the callee re-runs the callee's phases and the
//!     caller's (its code now holds the callee's body), and nothing of the
//!     kernel that calls nothing;
//! (b) an edit inside the caller re-runs only the caller's phases: the
//!     callee's IR is read again from memory, not recomputed;
//! (c) changing `inline-threshold` re-runs the inliner of every function;
//!     where the decision does not change, the next phase of a function
//!     whose remark names the threshold re-runs once, finds the same code,
//!     and nothing after it does.

use expect_test::expect;
use ptx_db::{build_file, file_remarks, EventLog, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

mod common;
use common::check_rebuild;

const MODULE: &str = r#".version 8.0
.target sm_90
.address_size 64

.func (.param .b32 r) twice(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [a];
	shl.b32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
}

.visible .entry caller(
	.param .u64 caller_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [caller_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	{
	.param .b32 p0;
	.param .b32 r0;
	st.param.b32 [p0], %r1;
	call.uni (r0), twice, (p0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd2], %r2;
	ret;
}

.visible .entry alone(
	.param .u64 alone_p
)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [alone_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    let file = db.set_file_text("calls.ptx", MODULE);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    assert!(
        file_remarks(&db, file)
            .iter()
            .any(|r| r.remark.name == "inline" && r.remark.message.starts_with("inlined `twice`")),
        "the call is inlined"
    );
    log.take(&db);
    (db, log, file)
}

#[test]
fn an_edit_in_the_callee_reruns_the_callers_phases() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "calls.ptx",
        MODULE.replace("shl.b32 %r2, %r1, 1;", "shl.b32 %r2, %r1, 2;"),
    );
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            chunk_parse(calls.ptx#3)
            chunks_clean(calls.ptx)
            chunk_skeleton(calls.ptx#3)
            chunk_check(calls.ptx#3)
            file_diagnostics(calls.ptx)
            parse(calls.ptx)
            chunk_kernels(calls.ptx#3)
            kernel_lowered(twice)
            kernel_ir(twice)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(twice)
            kernel_output(twice)
            kernel_ptx(twice)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(caller)
            kernel_output(caller)
            kernel_ptx(caller)"#]],
    );
}

#[test]
fn an_edit_in_the_caller_reruns_only_its_phases() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "calls.ptx",
        MODULE.replace("mov.u32 %r1, %tid.x;", "mov.u32 %r1, %tid.y;"),
    );
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            chunk_parse(calls.ptx#4)
            chunks_clean(calls.ptx)
            chunk_skeleton(calls.ptx#4)
            chunk_check(calls.ptx#4)
            file_diagnostics(calls.ptx)
            parse(calls.ptx)
            chunk_kernels(calls.ptx#4)
            kernel_lowered(caller)
            kernel_ir(caller)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(caller)
            kernel_output(caller)
            kernel_ptx(caller)"#]],
    );
}

#[test]
fn the_threshold_reruns_the_inliners() {
    let (mut db, log, file) = setup();
    db.set_knob("inline-threshold", KnobValue::Int(300))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            cicc_inline(twice)
            cicc_inline(caller)
            cicc_loop_unroll(caller)
            cicc_inline(alone)"#]],
    );
}
