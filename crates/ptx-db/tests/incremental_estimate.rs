//! Incrementality of the register estimate (`ptx_db::analysis::reg_estimate`,
//! made on the source IR with phase 22's unroll decisions), proved by the
//! salsa event log:
//!
//! (a) `--maxrregcount` (the `Target` input's `max_regs` field) re-runs the
//!     estimates (made on the source IR: no phase of the pipeline runs for
//!     them, so none re-runs; the passes that aim under it read it through
//!     `PassContext::max_regs`, a tracked read of that field alone);
//! (b) setting it to its value re-runs nothing;
//! (c) an edit in one function re-runs only that function's estimate;
//! (d) phase 22's knobs re-run the unroll decisions of kernels with loops
//!     only, and the estimate only where a decision changed.

use expect_test::{expect, Expect};
use ptx_db::analysis::reg_estimate;
use ptx_db::{kernels, EventLog, RootDatabase, SourceFile};

const TWO: &str = r#".version 8.3
.target sm_80
.address_size 64

.visible .entry a(.param .u64 a_p)
{
	.reg .f32 %f<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.f32 %f1, [%rd2];
	ld.global.f32 %f2, [%rd2+4];
	add.f32 %f3, %f1, %f2;
	st.global.f32 [%rd2], %f3;
	ret;
}

.visible .entry b(.param .u64 b_p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [b_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 3;
	st.global.u32 [%rd2], %r2;
	ret;
}
"#;

fn estimate_all(db: &RootDatabase, file: SourceFile) -> Vec<u32> {
    kernels(db, file)
        .iter()
        .map(|&k| reg_estimate(db, k).estimate.registers)
        .collect()
}

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    let file = db.set_file_text("k.ptx", TWO);
    estimate_all(&db, file);
    log.take(&db);
    (db, log, file)
}

fn check(db: &RootDatabase, log: &EventLog, file: SourceFile, expect: Expect) -> Vec<u32> {
    let out = estimate_all(db, file);
    expect.assert_eq(&log.take(db).join("\n"));
    out
}

#[test]
fn maxrregcount_reruns_only_the_estimates() {
    let (mut db, log, file) = setup();
    let before = estimate_all(&db, file);
    log.take(&db);
    db.set_max_regs(Some(4));
    let after = check(
        &db,
        &log,
        file,
        expect![[r#"
            reg_estimate(a)
            reg_estimate(b)"#]],
    );
    assert!(after.iter().all(|&n| n <= 4), "{before:?} -> {after:?}");
    db.set_max_regs(Some(4));
    check(&db, &log, file, expect![[""]]);
    db.set_max_regs(None);
    assert_eq!(estimate_all(&db, file), before);
}

#[test]
fn an_edit_reruns_only_that_functions_estimate() {
    let (mut db, log, file) = setup();
    db.set_file_text(
        "k.ptx",
        TWO.replace("add.s32 %r2, %r1, 3;", "add.s32 %r2, %r1, 4;"),
    );
    let out = estimate_all(&db, file);
    let events = log.take(&db).join("\n");
    assert!(events.contains("reg_estimate(b)"), "{events}");
    assert!(!events.contains("reg_estimate(a)"), "{events}");
    assert_eq!(out.len(), 2);
}

/// Changing `nv-remat-default-max-reg` re-runs the remat phase of each
/// kernel and, where its output changed, the phases after it; nothing
/// before it (lowering, the cicc passes before remat) re-runs.
#[test]
fn remat_target_reruns_only_remat_and_what_follows() {
    let (mut db, log) = EventLog::new_database();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test-data/passes/NVPTXBlockRemat/pulls_constants.ptx"),
    )
    .unwrap();
    // Two kernels: `remat` and the same kernel as `other`.
    let two = format!(
        "{text}\n{}",
        &text[text.find(".visible").unwrap()..].replace("remat", "other")
    );
    // That file's pulls are of constant-bank values, pulled with the knob
    // off (its header says so).
    db.set_knob(
        "nv-remat-leave-constant-bank",
        ptx_knobs::KnobValue::Bool(false),
    )
    .unwrap();
    let file = db.set_file_text("k.ptx", two);
    let print = |db: &RootDatabase| {
        for &k in kernels(db, file) {
            ptx_db::kernel_ptx(db, k);
        }
    };
    print(&db);
    log.take(&db);
    db.set_knob("nv-remat-default-max-reg", ptx_knobs::KnobValue::Int(1))
        .unwrap();
    print(&db);
    let events = log.take(&db);
    let text = events.join("\n");
    assert!(text.contains("cicc_nvptx_remat_block(remat)"), "{text}");
    assert!(text.contains("cicc_nvptx_remat_block(other)"), "{text}");
    assert!(!text.contains("kernel_ir"), "{text}");
    assert!(!text.contains("kernel_lowered"), "{text}");
    // The phases before remat in the table do not re-run, but machine-cse,
    // which aims under the same register target.
    let before = ptx_db::PHASES
        .iter()
        .position(|p| p.name == "nvptx-remat-block")
        .unwrap();
    for p in ptx_db::PHASES[..before]
        .iter()
        .filter(|p| p.name != "machine-cse")
    {
        assert!(
            !events
                .iter()
                .any(|e| e.starts_with(&format!("{}(", p.query))),
            "{} re-ran:\n{text}",
            p.query
        );
    }
    // The pulled values change the code, so what follows re-runs up to
    // the printed text.
    assert!(text.contains("kernel_ptx(remat)"), "{text}");
    assert!(text.contains("kernel_ptx(other)"), "{text}");
}

/// `a` and `b` of [`TWO`] beside `c`, a counted loop (16 trips) phase 22
/// unrolls: each copy keeps its own loaded values.
const WITH_LOOP: &str = r#"
.visible .entry c(.param .u64 c_p)
{
	.reg .pred %p<2>;
	.reg .f32 %f<8>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [c_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.f32 %f1, 0f00000000;
	mov.u32 %r1, 0;
$L__loop:
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f2, [%rd4];
	ld.global.f32 %f3, [%rd4+64];
	mul.f32 %f4, %f2, %f3;
	add.f32 %f1, %f1, %f4;
	add.s32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $L__loop;
	st.global.f32 [%rd2], %f1;
	ret;
}
"#;

/// The estimate counts a loop as ptxas's phase 22 is expected to unroll it
/// (`ptx_db::analysis::ptxas_unrolls`). A budget knob, which phase 22 reads
/// only where there is a loop, re-runs the unroll decisions of the loop
/// kernel alone; so does switching unrolling off (phase 22 runs only for a
/// kernel with a loop), and only the loop kernel's estimate re-runs, and
/// drops.
#[test]
fn the_estimate_follows_phase_22_and_its_knobs() {
    let (mut db, log) = EventLog::new_database();
    let file = db.set_file_text("k.ptx", format!("{TWO}{WITH_LOOP}"));
    let unrolled = estimate_all(&db, file);
    log.take(&db);
    db.set_knob("UnrollBudget", ptx_knobs::KnobValue::Int(150))
        .unwrap();
    let same = check(&db, &log, file, expect!["ptxas_unrolls(c)"]);
    assert_eq!(same, unrolled);
    db.set_knob("LoopUnroll", ptx_knobs::KnobValue::Bool(false))
        .unwrap();
    let rolled = check(
        &db,
        &log,
        file,
        expect![[r#"
            ptxas_unrolls(c)
            reg_estimate(c)"#]],
    );
    assert_eq!(unrolled[..2], rolled[..2]);
    assert!(unrolled[2] > rolled[2], "{unrolled:?} vs {rolled:?}");
}
