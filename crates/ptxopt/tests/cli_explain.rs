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
          [22 OriLoopUnrolling] not unrolled: code 11, nounroll pragma, convergence constraint or per-block knob: .pragma "nounroll" on the loop header
            block=2; trip count=unknown (the limit is not a constant); code=11
        test-data/passes/OriLoopUnrolling/reject_11.ptx:32: loop $L__BB0_2 in reject_11 (depth 2)
          [22 OriLoopUnrolling] not unrolled: code 11, nounroll pragma, convergence constraint or per-block knob: inside a loop marked .pragma "nounroll" (block 2)
            block=3; trip count=4; code=11
    "#]]
    .assert_eq(&stdout(&out));
}

#[test]
fn json_is_versioned_and_a_knob_changes_the_decision() {
    let out = explain(&[
        &format!("{DIR}/epilogue.ptx"),
        "--format",
        "json",
        "--knob",
        "UnrollBudget=8",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("{\"version\":1,"), "{text}");
    assert!(
        text.contains("\"unroll\":{\"factor\":1,\"full\":false,\"code\":24,"),
        "{text}"
    );
    assert!(text.contains("\"by\":\"ptxas\""), "{text}");
    let out = explain(&[&format!("{DIR}/epilogue.ptx"), "--format", "json"]);
    assert!(
        stdout(&out).contains("\"unroll\":{\"factor\":4,\"full\":false,\"code\":null,"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn function_and_line_select_loops() {
    let out = explain(&[&format!("{DIR}/unknown_forms.ptx"), "--function", "ptr64"]);
    let text = stdout(&out);
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
