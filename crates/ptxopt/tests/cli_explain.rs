//! `ptxopt explain` as a user runs it: the text and JSON of a few filetests
//! of phase 22 (`UPDATE_EXPECT=1` re-blesses the inline snapshots),
//! `--function`, `--line`, a knob changing the explanation, usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use expect_test::expect;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn explain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .arg("explain")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const DIR: &str = "test-data/passes/OriLoopUnrolling";

#[test]
fn text_names_each_loop_by_its_header_line_with_the_decision() {
    let out = explain(&[&format!("{DIR}/reject_11.ptx")]);
    assert_eq!(out.status.code(), Some(0));
    expect![[r#"
        test-data/passes/OriLoopUnrolling/reject_11.ptx:29: loop $L__BB0_1 in reject_11 (depth 1)
          [cicc loop-unroll] not unrolled: unrolling disabled by pragma (unroll count 1)
            trip count=unknown; body size=11; multiplier=1; threshold=300; level=pragma; decision=no unroll; trip count unknown=bound not constant
          [cicc early-machinelicm] hoisted 5 instructions
            invariance=set-based; pressure=7 + 5; target=255; hoisted=5; preheader=existing
          [cicc machine-pipeliner] No need to pipeline - no overlapped iterations in schedule. (II 20, MII 20)
            ResMII=2; RecMII=20; MII=20; II=20
          [18 OriLoopSimplification] already canonical
            back edges=1; preheader=existing; inversion=not done: already bottom-tested (the header is a latch); inversion budget=16
          [21 OriStrengthReduce] not reduced: no address chain or multiplication of an induction variable
            chains=0; candidates=no address chain or multiplication of an induction variable
          [22 OriLoopUnrolling] not unrolled: code 11, nounroll pragma, convergence constraint or per-block knob: .pragma "nounroll" on the loop header
            block=2; trip count=unknown (the limit is not a constant); code=11
          [24 OriPipelining] not pipelined: nounroll pragma (OkToPipelineNoUnroll=0)
          [35 OriHoistInvariantsEarly] nothing hoisted: no invariant instruction
            pass id=0; policy=HoistLate=0; invariance=single pass; budget=22; hoisted=0
          [66 OriHoistInvariantsLate] nothing hoisted: HoistLate=0 (always): the Late instance (pass 1) skips the block
            pass id=1; policy=HoistLate=0
          [79 OriHoistInvariantsLate2] nothing hoisted: no invariant instruction
            pass id=2; policy=HoistLate=0; invariance=single pass; budget=100; hoisted=0
          [88 OriHoistInvariantsLate3] nothing hoisted: no invariant instruction
            pass id=3; policy=HoistLate=0; invariance=single pass; budget=10000; hoisted=0
        test-data/passes/OriLoopUnrolling/reject_11.ptx:32: loop $L__BB0_2 in reject_11 (depth 2)
          [cicc loop-unroll] fully unrolled (4 iterations)
            trip count=4; body size=4; multiplier=1; threshold=300; full unroll size=10; level=full; decision=full unroll (4 iterations)
    "#]]
    .assert_eq(&stdout(&out));
}

#[test]
fn json_is_versioned_and_a_knob_changes_the_decision() {
    // cicc's unroller off, so that phase 22 sees the loop.
    let out = explain(&[
        &format!("{DIR}/epilogue.ptx"),
        "--format",
        "json",
        "--knob",
        "LoopUnrollFactor=1",
        "--knob",
        "disable-LoopUnrollPass=true",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("{\"version\":1,"), "{text}");
    assert!(
        text.contains("\"unroll\":{\"factor\":1,\"full\":false,\"code\":24,"),
        "{text}"
    );
    assert!(text.contains("\"by\":\"ptxas\""), "{text}");
    let out = explain(&[
        &format!("{DIR}/epilogue.ptx"),
        "--format",
        "json",
        "--knob",
        "disable-LoopUnrollPass=true",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("\"unroll\":{\"factor\":4,\"full\":false,\"code\":null,"),
        "{text}"
    );
    assert!(!text.contains("\"by\":\"cicc\""), "{text}");
    // By default cicc's unroller unrolls it (x4, runtime remainder) first.
    let out = explain(&[&format!("{DIR}/epilogue.ptx"), "--format", "json"]);
    let text = stdout(&out);
    assert!(
        text.contains("\"summary\":\"unrolled x4, runtime check"),
        "{text}"
    );
}

#[test]
fn function_and_line_select_loops() {
    let out = explain(&[&format!("{DIR}/unknown_forms.ptx"), "--function", "ptr64"]);
    let text = stdout(&out);
    // One loop: the machine pipeliner's report on the kernel it made of it
    // (whose first instruction is another line) meets the loop by
    // containment (`ptx_db::loops_of_reports`).
    assert_eq!(text.lines().filter(|l| l.contains(": loop ")).count(), 1);
    assert!(text.contains("in ptr64"), "{text}");
    // Line 30 is inside the first loop: the nearest header above is named.
    let out = explain(&[&format!("{DIR}/reject_11.ptx"), "--line", "30"]);
    let text = stdout(&out);
    assert!(text.contains(":29: loop $L__BB0_1"), "{text}");
    assert!(!text.contains("$L__BB0_2"), "{text}");
    let out = explain(&[&format!("{DIR}/reject_11.ptx"), "--function", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}
