//! Incrementality, proved by the salsa event log: after an edit, exactly which
//! queries execute again.
//!
//! (a) an edit in one function's body re-runs that function's queries only;
//! (b) a comment or whitespace edit stops at `kernel_ir` (the trivia firewall);
//! (c) a knob change re-runs only the phases that read that knob.

use expect_test::{expect, Expect};
use ptx_db::{build_file, EventLog, RootDatabase, SourceFile, PHASES};
use ptx_knobs::KnobValue;

const TWO_KERNELS: &str = r#".version 8.3
.target sm_80
.address_size 64

// kernel A
.visible .entry a(
	.param .u64 a_p
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a_p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1; // increment
	st.global.u32 [%rd2], %r2;
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
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;

fn setup() -> (RootDatabase, EventLog, SourceFile) {
    let (mut db, log) = EventLog::new_database();
    let file = db.set_file_text("two.ptx", TWO_KERNELS);
    let built = build_file(&db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    log.take(&db);
    (db, log, file)
}

/// Rebuilds and snapshots the executed queries, with the long run of
/// pass-through phase queries folded into one line per kernel.
fn check_rebuild(db: &RootDatabase, log: &EventLog, file: SourceFile, expect: Expect) {
    let built = build_file(db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    expect.assert_eq(&fold_phases(&log.take(db)).join("\n"));
}

/// From a built [`setup`], replaces `from` by `to` in the text, rebuilds and
/// snapshots the executed queries (as [`check_rebuild`]).
fn check_edit(from: &str, to: &str, expect: Expect) {
    let (mut db, log, file) = setup();
    db.set_file_text("two.ptx", TWO_KERNELS.replace(from, to));
    check_rebuild(&db, &log, file, expect);
}

/// Replaces a run of consecutive phase queries on one kernel that covers the
/// whole pipeline by `<all N phases>(kernel)`.
fn fold_phases(events: &[String]) -> Vec<String> {
    let is_phase = |e: &str| {
        PHASES
            .iter()
            .any(|p| e.starts_with(&format!("{}(", p.query)))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        if is_phase(&events[i]) {
            let arg = events[i][events[i].find('(').unwrap()..].to_string();
            let mut j = i;
            while j < events.len() && is_phase(&events[j]) && events[j].ends_with(&arg) {
                j += 1;
            }
            if j - i == PHASES.len() {
                out.push(format!("<all {} phases>{arg}", PHASES.len()));
                i = j;
                continue;
            }
        }
        out.push(events[i].clone());
        i += 1;
    }
    out
}

#[test]
fn first_build_runs_everything_once() {
    let (mut db, log) = EventLog::new_database();
    let file = db.set_file_text("two.ptx", TWO_KERNELS);
    build_file(&db, file);
    expect![[r#"
        file_diagnostics(two.ptx)
        chunks_clean(two.ptx)
        chunk_parse(two.ptx#0)
        chunk_parse(two.ptx#1)
        chunk_parse(two.ptx#2)
        chunk_parse(two.ptx#3)
        chunk_parse(two.ptx#4)
        module_check(two.ptx)
        module_skeleton(two.ptx)
        chunk_skeleton(two.ptx#0)
        chunk_skeleton(two.ptx#1)
        chunk_skeleton(two.ptx#2)
        chunk_skeleton(two.ptx#3)
        chunk_skeleton(two.ptx#4)
        chunk_check(two.ptx#0)
        module_facts(two.ptx)
        chunk_check(two.ptx#1)
        chunk_check(two.ptx#2)
        chunk_check(two.ptx#3)
        chunk_check(two.ptx#4)
        parse(two.ptx)
        kernels(two.ptx)
        chunk_kernels(two.ptx#0)
        chunk_kernels(two.ptx#1)
        chunk_kernels(two.ptx#2)
        chunk_kernels(two.ptx#3)
        chunk_kernels(two.ptx#4)
        kernel_lowered(a)
        module_context(two.ptx)
        kernel_lowered(b)
        module_items(two.ptx)
        kernel_ptx(a)
        kernel_output(a)
        <all 55 phases>(a)
        kernel_ir(a)
        target_profile(two.ptx)
        kernel_ptx(b)
        kernel_output(b)
        <all 55 phases>(b)
        kernel_ir(b)"#]]
    .assert_eq(&fold_phases(&log.take(&db)).join("\n"));
}

#[test]
fn editing_one_body_reruns_only_that_kernel() {
    check_edit(
        "mov.u32 %r1, %ctaid.x;",
        "mov.u32 %r1, %ctaid.y;",
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
            <all 55 phases>(b)
            kernel_output(b)
            kernel_ptx(b)"#]],
    );
}

#[test]
fn editing_a_comment_stops_at_lowering() {
    check_edit(
        "// increment",
        "// add one to the thread index",
        expect![[r#"
            chunk_parse(two.ptx#3)
            chunks_clean(two.ptx)
            chunk_skeleton(two.ptx#3)
            chunk_check(two.ptx#3)
            file_diagnostics(two.ptx)
            parse(two.ptx)
            chunk_kernels(two.ptx#3)
            kernel_lowered(a)
            kernel_ir(a)"#]],
    );
}

#[test]
fn editing_whitespace_stops_at_lowering() {
    check_edit(
        "add.s32 %r2, %r1, 1;",
        "add.s32    %r2,   %r1,  1;\n\n",
        expect![[r#"
            chunk_parse(two.ptx#3)
            chunks_clean(two.ptx)
            chunk_skeleton(two.ptx#3)
            chunk_check(two.ptx#3)
            file_diagnostics(two.ptx)
            parse(two.ptx)
            chunk_kernels(two.ptx#3)
            kernel_lowered(a)
            kernel_ir(a)"#]],
    );
}

#[test]
fn editing_a_module_comment_reruns_no_kernel_query() {
    check_edit(
        "// kernel A",
        "// the first kernel\n\n",
        expect![[r#"
            chunk_parse(two.ptx#2)
            chunks_clean(two.ptx)
            chunk_skeleton(two.ptx#2)
            module_skeleton(two.ptx)
            module_check(two.ptx)
            chunk_check(two.ptx#2)
            file_diagnostics(two.ptx)
            parse(two.ptx)
            chunk_kernels(two.ptx#2)
            module_context(two.ptx)
            module_items(two.ptx)"#]],
    );
}

#[test]
fn changing_loop_unroll_reruns_only_the_unroller() {
    let (mut db, log, file) = setup();
    db.set_knob("LoopUnroll", KnobValue::Bool(false)).unwrap();
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
fn setting_a_knob_to_its_value_reruns_nothing() {
    let (mut db, log, file) = setup();
    db.set_knob("LoopUnroll", KnobValue::Bool(true)).unwrap();
    db.set_file_text("two.ptx", TWO_KERNELS);
    check_rebuild(&db, &log, file, expect![[r#""#]]);
}

#[test]
fn switching_one_phase_off_reruns_only_it() {
    let (mut db, log, file) = setup();
    db.set_phase_enabled(ptx_db::PhaseId::GvnCse, false);
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
fn adding_a_function_above_runs_phases_only_for_it() {
    // The module context (module-level names) gains `first`, so `a` and `b`
    // are lowered again (`kernel_lowered` is `no_eq`, so `kernel_ir` re-runs
    // too); their IR is unchanged, `kernel_ir` is backdated, and their phases
    // do not re-run.
    let new_kernel = ".visible .entry first()\n{\n\tret;\n}\n\n// kernel A";
    check_edit(
        "// kernel A",
        new_kernel,
        expect![[r#"
            chunks_clean(two.ptx)
            chunk_parse(two.ptx#2)
            chunk_parse(two.ptx#3)
            module_skeleton(two.ptx)
            chunk_skeleton(two.ptx#2)
            chunk_skeleton(two.ptx#3)
            module_check(two.ptx)
            file_diagnostics(two.ptx)
            module_facts(two.ptx)
            chunk_check(two.ptx#0)
            chunk_check(two.ptx#1)
            chunk_check(two.ptx#2)
            chunk_check(two.ptx#3)
            chunk_check(two.ptx#4)
            chunk_check(two.ptx#5)
            parse(two.ptx)
            kernels(two.ptx)
            chunk_kernels(two.ptx#2)
            chunk_kernels(two.ptx#3)
            kernel_lowered(first)
            module_context(two.ptx)
            kernel_lowered(a)
            kernel_lowered(b)
            module_items(two.ptx)
            kernel_ptx(first)
            kernel_output(first)
            <all 55 phases>(first)
            kernel_ir(first)
            target_profile(two.ptx)
            kernel_ir(a)
            kernel_ir(b)"#]],
    );
}

#[test]
fn changing_an_unrelated_knob_reruns_nothing() {
    let (mut db, log, file) = setup();
    // A knob no phase reads yet: no query depends on its input.
    db.set_knob("UnrollBudget", KnobValue::Int(7)).unwrap();
    check_rebuild(&db, &log, file, expect![[r#""#]]);
}
