//! Incrementality of cicc machine-cse, proved by the salsa event log: a
//! knob only machine-cse reads re-runs only its query (one per kernel)
//! when its output is equal, and that query and the phases after it in the
//! kernels whose output changed. MRPA's verification mode is on in every
//! build here (`verify-update-mcse`, `print-verify`), with no mismatch.

use expect_test::expect;
use ptx_db::{build_file, file_remarks, file_stats, EventLog, PhaseId, RootDatabase, SourceFile};
use ptx_knobs::KnobValue;

mod common;
use common::check_rebuild;

const KERNELS: &str = r#".version 8.0
.target sm_80
.address_size 64

.visible .entry a(
	.param .u64 a_p
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 7;
	st.global.u32 [%rd2], %r2;
	setp.lt.u32 %p1, %r1, 4;
	@%p1 bra $L_end;
	add.s32 %r3, %r1, 7;
	mul.lo.s32 %r4, %r3, %r3;
	st.global.u32 [%rd2+4], %r4;
$L_end:
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
    db.set_knob("verify-update-mcse", KnobValue::Bool(true))
        .unwrap();
    db.set_knob("print-verify", KnobValue::Bool(true)).unwrap();
    let file = db.set_file_text("two.ptx", KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    assert_no_mismatch(&db, file);
    log.take(&db);
    (db, log, file)
}

/// machine-cse merged the recomputation in `a`, and MRPA's verification
/// found nothing.
fn assert_no_mismatch(db: &RootDatabase, file: SourceFile) {
    let remarks: Vec<_> = file_remarks(db, file)
        .into_iter()
        .filter(|r| r.remark.phase == PhaseId::CiccMachineCse)
        .collect();
    assert!(
        remarks.iter().all(|r| r.remark.name != "mrpa-verify"),
        "{:?}",
        remarks
    );
    assert!(
        remarks.iter().any(|r| r.remark.name == "cse"),
        "{remarks:?}"
    );
    let stats = file_stats(db, file);
    let mcse: Vec<_> = stats
        .iter()
        .filter(|s| s.phase == PhaseId::CiccMachineCse)
        .flat_map(|s| s.stats.iter())
        .collect();
    assert!(mcse
        .iter()
        .any(|s| s.name == "MRPA verifications" && s.value > 0));
    assert!(mcse
        .iter()
        .all(|s| s.name != "MRPA mismatches" || s.value == 0));
}

#[test]
fn a_knob_that_changes_nothing_reruns_only_machine_cse() {
    let (mut db, log, file) = setup();
    // Far under the target: the same merges without the pressure check.
    db.set_knob("rp-aware-mcse", KnobValue::Bool(false))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            cicc_machine_cse(a)
            cicc_machine_cse(b)"#]],
    );
    assert_no_mismatch(&db, file);
}

#[test]
fn a_knob_that_changes_the_code_reruns_machine_cse_and_what_follows() {
    let (mut db, log, file) = setup();
    // The copy the merge left stays in `a`: the phases after machine-cse
    // re-run there; `b` has nothing to merge and stops at machine-cse.
    db.set_knob("copy-prop-mcse", KnobValue::Bool(false))
        .unwrap();
    check_rebuild(
        &db,
        &log,
        file,
        expect![[r#"
            <phases cicc_machine_cse..phase_88_ori_hoist_invariants_late3 (48)>(a)
            kernel_output(a)
            kernel_ptx(a)
            cicc_machine_cse(b)"#]],
    );
    assert_no_mismatch(&db, file);
}
