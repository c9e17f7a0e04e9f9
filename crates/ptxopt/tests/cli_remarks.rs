//! `ptxopt build --remarks[=KIND]`, `--stats`, `--remarks-format json`.

use std::path::PathBuf;
use std::process::{Command, Output};

use expect_test::expect;

fn ptxopt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const DEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 5;\n\tatom.global.add.u32 %r3, [%rd2], 1;\n\tst.global.u32 [%rd2+4], %r1;\n\tret;\n}\n";

/// A scratch folder holding `k.ptx`: the folder (removed when the test
/// passes) and the file.
fn input(name: &str) -> (ptx_test_support::ScratchDir, PathBuf) {
    let dir = ptx_test_support::ScratchDir::new(&format!("ptxopt-remarks-{name}"));
    let path = dir.join("k.ptx");
    std::fs::write(&path, DEAD).unwrap();
    (dir, path)
}

fn run(name: &str, args: &[&str]) -> String {
    let (_dir, path) = input(name);
    let out = ptxopt()
        .current_dir(path.parent().unwrap())
        .args(["build", "k.ptx", "-o", "-", "-q"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    stderr(&out)
}

#[test]
fn remarks_all_in_clang_style() {
    expect![[r#"
        k.ptx:15:2: remark: [cicc machine-scheduler] reordered 3 of 5 instructions in bb0: schedule length 31 -> 30 cycles, live units 3 -> 3; `atom.global.add.u32` up 1 (depth 24), `st.global.u32` up 1 (depth 24)
        k.ptx:14:2: remark: [16 OriPerformLiveDeadFirst] removed dead `add.s32` defining %r2 (never read by code that stays)
        k.ptx:15:2: remark-missed: [16 OriPerformLiveDeadFirst] result %r3 unused (0 reads) but `atom.global.add.u32` is kept: atomic read-modify-write
    "#]]
    .assert_eq(&run("all", &["--remarks"]));
}

#[test]
fn remarks_filtered() {
    let applied = run("applied", &["--remarks=applied"]);
    assert!(applied.contains("remark: ") && !applied.contains("remark-missed"));
    let missed = run("missed", &["--remarks=missed"]);
    assert!(missed.contains("remark-missed") && !missed.contains("remark: "));
}

#[test]
fn stats_and_json() {
    expect![[r#"
        k.ptx: stats: k [cicc machine-scheduler] regions reordered=1, instructions moved=3
        k.ptx: stats: k [16 OriPerformLiveDeadFirst] instructions removed=1, removed: never read=1, removed: overwritten before a read=0, kept with unused results (side effects)=1, rounds=2
    "#]]
    .assert_eq(&run("stats", &["--stats"]));
    expect![[r#"
        {"type":"remark","file":"k.ptx","line":15,"col":2,"kernel":"k","phase":"machine-scheduler","phase_number":null,"kind":"applied","name":"reordered","message":"reordered 3 of 5 instructions in bb0: schedule length 31 -> 30 cycles, live units 3 -> 3; `atom.global.add.u32` up 1 (depth 24), `st.global.u32` up 1 (depth 24)"}
        {"type":"remark","file":"k.ptx","line":14,"col":2,"kernel":"k","phase":"OriPerformLiveDeadFirst","phase_number":16,"kind":"applied","name":"dead-code","message":"removed dead `add.s32` defining %r2 (never read by code that stays)"}
        {"type":"stats","file":"k.ptx","kernel":"k","phase":"machine-scheduler","phase_number":null,"stats":{"regions reordered":1,"instructions moved":3}}
        {"type":"stats","file":"k.ptx","kernel":"k","phase":"OriPerformLiveDeadFirst","phase_number":16,"stats":{"instructions removed":1,"removed: never read":1,"removed: overwritten before a read":0,"kept with unused results (side effects)":1,"rounds":2}}
    "#]]
    .assert_eq(&run(
        "json",
        &["--remarks=applied", "--stats", "--remarks-format", "json"],
    ));
}
