//! Incrementality of the analysis queries (`ptx_db::analysis`), proved by the
//! salsa event log:
//!
//! (a) an edit in one function re-runs only that function's analyses;
//! (b) a comment edit re-runs no analysis (the `kernel_ir` firewall);
//! (c) changing the target (sm_80 -> sm_86) re-runs `latency` and `loop_mii`,
//!     not `cfg`, `liveness` or `reg_pressure`.

use expect_test::{expect, Expect};
use ptx_db::analysis::{analyze_file, loop_mii, reg_pressure, target_profile};
use ptx_db::{kernels, EventLog, RootDatabase, SourceFile};

const LOOP_AND_STRAIGHT: &str = r#".version 8.3
.target sm_80
.address_size 64

// kernel A: a counted loop
.visible .entry a(
	.param .u64 a_p
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.f32 %f1, 0f00000000;
	mov.u32 %r1, 0;
$L_loop:
	ld.global.f32 %f2, [%rd2];
	fma.rn.f32 %f1, %f2, %f2, %f1; // accumulate
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p1, %r1, 16;
	@%p1 bra $L_loop;
	st.global.f32 [%rd2], %f1;
	ret;
}

// kernel B
.visible .entry b(
	.param .u64 b_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [b_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %ctaid.x;
	add.s32 %r2, %r1, 3;
	st.global.u32 [%rd2], %r2;
	ret;
}
"#;

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    db.set_target(80, "");
    let file = db.set_file_text("k.ptx", LOOP_AND_STRAIGHT);
    analyze_file(&db, file);
    log.take(&db);
    (db, log, file)
}

/// Re-analyzes the file and snapshots the executed queries.
fn check_reanalysis(db: &RootDatabase, log: &EventLog, file: SourceFile, expect: Expect) {
    analyze_file(db, file);
    expect.assert_eq(&log.take(db).join("\n"));
}

/// From an analyzed [`setup`], replaces `from` by `to` in the text,
/// re-analyzes and snapshots the executed queries.
fn check_edit(from: &str, to: &str, expect: Expect) {
    let (mut db, log, file) = setup();
    db.set_file_text("k.ptx", LOOP_AND_STRAIGHT.replace(from, to));
    check_reanalysis(&db, &log, file, expect);
}

#[test]
fn first_analysis_runs_each_query_once_per_kernel() {
    let (mut db, log) = EventLog::new_database();
    db.set_target(80, "");
    let file = db.set_file_text("k.ptx", LOOP_AND_STRAIGHT);
    check_reanalysis(
        &db,
        &log,
        file,
        expect![[r#"
            kernels(k.ptx)
            chunks_clean(k.ptx)
            chunk_parse(k.ptx#0)
            chunk_parse(k.ptx#1)
            chunk_parse(k.ptx#2)
            chunk_parse(k.ptx#3)
            chunk_parse(k.ptx#4)
            chunk_kernels(k.ptx#0)
            chunk_kernels(k.ptx#1)
            chunk_kernels(k.ptx#2)
            chunk_kernels(k.ptx#3)
            chunk_kernels(k.ptx#4)
            cfg(a)
            kernel_ir(a)
            kernel_lowered(a)
            module_context(k.ptx)
            module_skeleton(k.ptx)
            chunk_skeleton(k.ptx#0)
            chunk_skeleton(k.ptx#1)
            chunk_skeleton(k.ptx#2)
            chunk_skeleton(k.ptx#3)
            chunk_skeleton(k.ptx#4)
            dominators(a)
            post_dominators(a)
            loops(a)
            reaching_defs(a)
            trip_counts(a)
            liveness(a)
            reg_pressure(a)
            latency(a)
            target_profile(k.ptx)
            loop_mii(a)
            value_numbers(a)
            cfg(b)
            kernel_ir(b)
            kernel_lowered(b)
            dominators(b)
            post_dominators(b)
            loops(b)
            reaching_defs(b)
            trip_counts(b)
            liveness(b)
            reg_pressure(b)
            latency(b)
            loop_mii(b)
            value_numbers(b)"#]],
    );
    let a = kernels(&db, file)[0];
    assert_eq!(reg_pressure(&db, a).max.r.value, 5);
    assert_eq!(loop_mii(&db, a).len(), 1);
    assert_eq!(target_profile(&db, file).name, "sm_80");
}

#[test]
fn editing_one_function_reruns_only_its_analyses() {
    // An immediate changes: the CFG is recomputed and equal, so dominators,
    // post-dominators and loops (which read only the CFG) do not re-run.
    check_edit(
        "add.s32 %r2, %r1, 3;",
        "add.s32 %r2, %r1, 4;",
        expect![[r#"
            chunk_parse(k.ptx#4)
            chunks_clean(k.ptx)
            chunk_kernels(k.ptx#4)
            chunk_skeleton(k.ptx#4)
            kernel_lowered(b)
            kernel_ir(b)
            cfg(b)
            reaching_defs(b)
            trip_counts(b)
            liveness(b)
            reg_pressure(b)
            latency(b)
            loop_mii(b)
            value_numbers(b)"#]],
    );
}

#[test]
fn editing_a_comment_reruns_no_analysis() {
    check_edit(
        "// accumulate",
        "// sum of squares",
        expect![[r#"
            chunk_parse(k.ptx#3)
            chunks_clean(k.ptx)
            chunk_kernels(k.ptx#3)
            chunk_skeleton(k.ptx#3)
            kernel_lowered(a)
            kernel_ir(a)"#]],
    );
}

#[test]
fn changing_the_target_reruns_only_latency_and_mii() {
    let (mut db, log, file) = setup();
    db.set_target(86, "");
    check_reanalysis(
        &db,
        &log,
        file,
        expect![[r#"
            target_profile(k.ptx)
            latency(a)
            loop_mii(a)
            latency(b)
            loop_mii(b)"#]],
    );
    assert_eq!(target_profile(&db, file).name, "sm_86");
}

#[test]
fn setting_the_target_to_its_value_reruns_nothing() {
    let (mut db, log, file) = setup();
    db.set_target(80, "");
    check_reanalysis(&db, &log, file, expect![[r#""#]]);
}
