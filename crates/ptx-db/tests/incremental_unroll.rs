//! Incrementality of phase 22 (OriLoopUnrolling), proved by the salsa event
//! log:
//!
//! (a) changing `UnrollBudget` re-runs phase 22 only in the functions that
//!     have a loop (it reads its knobs only there); where the decision stays
//!     the same its output is equal and nothing after it re-runs
//!     (backdated); where the decision changes, the phases after it re-run
//!     for that function only;
//! (b) an edit inside one function's loop re-runs the phases (the loop
//!     phases among them) of that function only;
//! (c) explain's per-file loop query answers from memoized results after an
//!     unrelated knob change.

use expect_test::expect;
use ptx_db::{build_file, file_loops, EventLog, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

mod common;
use common::check_rebuild;

const THREE_KERNELS: &str = r#".version 8.0
.target sm_80
.address_size 64

.visible .entry a(
	.param .u64 a_p,
	.param .u32 a_n
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	ld.param.u32 %r5, [a_n];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
	setp.lt.s32 %p2, %r5, 1;
	@%p2 bra $L__BB0_3;
$L__BB0_1:
	mad.lo.s32 %r2, %r2, 3, %r3;
	xor.b32 %r2, %r2, %r1;
	shl.b32 %r2, %r2, 1;
	xor.b32 %r2, %r2, %r3;
	shl.b32 %r2, %r2, 1;
	xor.b32 %r2, %r2, %r3;
	shl.b32 %r2, %r2, 1;
	xor.b32 %r2, %r2, %r3;
	shl.b32 %r2, %r2, 1;
	xor.b32 %r2, %r2, %r3;
	shl.b32 %r2, %r2, 1;
	xor.b32 %r2, %r2, %r3;
	add.s32 %r3, %r3, 1;
	setp.lt.s32 %p1, %r3, 100;
	@%p1 bra $L__BB0_1;
$L__BB0_3:
	st.global.u32 [%rd2], %r2;
	ret;
}

.visible .entry b(
	.param .u64 b_p
)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [b_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 0;
$L__BB1_1:
	mad.lo.s32 %r2, %r2, 3, %r3;
	add.s32 %r3, %r3, 1;
	setp.lt.s32 %p1, %r3, 8;
	@%p1 bra $L__BB1_1;
	st.global.u32 [%rd2], %r2;
	ret;
}

.visible .entry c(
	.param .u64 c_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [c_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    // cicc's unroller off: it would unroll the loops before phase 22, which
    // this file is about, sees them.
    db.set_knob("disable-LoopUnrollPass", KnobValue::Bool(true))
        .unwrap();
    let file = db.set_file_text("three.ptx", THREE_KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    let loops = file_loops(&db, file);
    let summaries: Vec<&str> = loops
        .iter()
        .flat_map(|l| l.reports.iter())
        .filter(|r| r.phase == ptx_opt::PhaseId::OriLoopUnrolling)
        .map(|r| r.summary.as_str())
        .collect();
    assert_eq!(
        summaries,
        [
            "unrolled x25: trip count 100: x25, 4 loop trips",
            "fully unrolled (x8): trip count 8, cost 1 < 4 (UnrollSmallLoopLimit)"
        ]
    );
    log.take(&db);
    (db, log, file)
}

#[test]
fn a_budget_that_decides_the_same_reruns_phase_22_only_where_there_are_loops() {
    let (mut db, log, file) = setup();
    // A partial budget of 2.5 x 150 = 375 still gives `a` (100 trips of
    // cost 12) x25 (x31 would need 7 remainder copies: 38 x 12 > 375): the
    // same decisions.
    db.set_knob("UnrollBudget", KnobValue::Int(150)).unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            phase_22_ori_loop_unrolling(a)
            phase_23_generate_mov_phi(a)
            phase_22_ori_loop_unrolling(b)"#]],
    );
}

#[test]
fn a_budget_that_changes_a_decision_reruns_the_phases_after_it_in_that_function() {
    let (mut db, log, file) = setup();
    // A partial budget of 2.5 x 12 = 30 leaves room for 2 copies of `a`'s
    // cost-12 body: x2 instead of x25; `b`'s full unroll (a small loop) does
    // not depend on the budget (its output is equal: backdated).
    db.set_knob("UnrollBudget", KnobValue::Int(12)).unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            <phases phase_22_ori_loop_unrolling..phase_88_ori_hoist_invariants_late3 (29)>(a)
            kernel_output(a)
            kernel_ptx(a)
            phase_22_ori_loop_unrolling(b)"#]],
    );
    let loops = file_loops(&db, file);
    let phase_22 = |l: &ptx_db::FileLoop| {
        l.reports
            .iter()
            .find(|r| r.phase == ptx_opt::PhaseId::OriLoopUnrolling)
            .map(|r| r.summary.clone())
    };
    assert_eq!(
        phase_22(&loops[0]).as_deref().unwrap_or(""),
        "unrolled x2: trip count 100: x2, 50 loop trips"
    );
}

#[test]
fn an_edit_in_one_loop_reruns_only_that_functions_phases() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "three.ptx",
        // The loop of `b` (its mad is followed by the add).
        THREE_KERNELS.replace(
            "mad.lo.s32 %r2, %r2, 3, %r3;\n\tadd",
            "mad.lo.s32 %r2, %r2, 5, %r3;\n\tadd",
        ),
    );
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            chunk_parse(three.ptx#4)
            chunks_clean(three.ptx)
            chunk_skeleton(three.ptx#4)
            chunk_check(three.ptx#4)
            file_diagnostics(three.ptx)
            parse(three.ptx)
            chunk_kernels(three.ptx#4)
            kernel_lowered(b)
            kernel_ir(b)
            <phases cicc_inline..phase_88_ori_hoist_invariants_late3 (55)>(b)
            kernel_output(b)
            kernel_ptx(b)"#]],
    );
}

#[test]
fn explain_after_an_unrelated_knob_change_reruns_nothing() {
    let (mut db, log, file) = setup();
    db.set_knob("UnrollInstLimit", KnobValue::float(10.0))
        .unwrap();
    let before = log.take(&db);
    let _ = file_loops(&db, file);
    let after = log.take(&db);
    assert!(before.is_empty(), "{before:?}");
    assert!(
        after.iter().all(|e| !e.starts_with("phase_22")),
        "{after:?}"
    );
}
