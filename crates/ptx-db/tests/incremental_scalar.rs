//! Incrementality of the scalar phases (49 GvnCse, 50
//! OriReassociateAndCommon, 64 LateOriCommoning, 83 OriBackCopyPropagate
//! and the cicc machine passes), proved by the salsa event log: a knob read
//! by one phase re-runs only that phase's queries (one per kernel), and
//! nothing after it when its output is equal.

use expect_test::{expect, Expect};
use ptx_db::{build_file, EventLog, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

const KERNELS: &str = r#".version 8.0
.target sm_90
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
	add.s32 %r2, %r1, 7;
	add.s32 %r3, %r1, 7;
	mul.lo.s32 %r4, %r2, %r3;
	st.global.u32 [%rd2], %r4;
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
    let file = db.set_file_text("two.ptx", KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    log.take(&db);
    (db, log, file)
}

fn check_rebuild(db: &RootDatabase, log: &EventLog, file: SourceFile, expect: Expect) {
    let built = build_file(db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    expect.assert_eq(&log.take(db).join("\n"));
}

#[test]
fn gvn_cse_mode_reruns_only_phase_49() {
    let (mut db, log, file) = setup();
    // Mode 1 merges the same pair as the built-in mode (one block).
    db.set_knob("EnableGvnCseMode", KnobValue::Int(1)).unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            phase_49_gvn_cse(a)
            phase_49_gvn_cse(b)"#]],
    );
}

#[test]
fn reassociation_window_reruns_only_phase_50() {
    let (mut db, log, file) = setup();
    db.set_knob("ReassociateCSEWindow", KnobValue::Int(5))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            phase_50_ori_reassociate_and_common(a)
            phase_50_ori_reassociate_and_common(b)"#]],
    );
}

#[test]
fn back_copy_gate_reruns_only_phase_83() {
    let (mut db, log, file) = setup();
    db.set_knob("AdvancedPhaseBackPropVReg", KnobValue::Bool(true))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            phase_83_ori_back_copy_propagate(a)
            phase_83_ori_back_copy_propagate(b)"#]],
    );
}

#[test]
fn mem2reg_knob_reruns_only_its_pass() {
    let (mut db, log, file) = setup();
    db.set_knob("nv-disable-mem2reg", KnobValue::Bool(true))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            cicc_nvptx_mem2reg(a)
            cicc_nvptx_mem2reg(b)"#]],
    );
}
