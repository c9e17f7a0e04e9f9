//! `ptxopt diff` as a user runs it, on `test-data/diff/v1` and `v2` (two
//! versions of the same kernels: `grow` keeps four more registers live,
//! `before_name` is renamed `after_name`, `gone` is removed, `extra.ptx` adds
//! `fresh`; `loops.json`, two saved analyze reports of a build with loop
//! unrolling, has a loop that stops unrolling and a larger register
//! estimate). Text, markdown and JSON are snapshots (`UPDATE_EXPECT=1`
//! re-blesses `tests/snapshots/diff/`); `--fail-on` exit codes; bad inputs
//! give exit 2 and one message, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn diff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .arg("diff")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn snapshot(name: &str) -> expect_test::ExpectFile {
    expect_test::expect_file![Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots/diff")
        .join(name)]
}

const V1: &str = "test-data/diff/v1";
const V2: &str = "test-data/diff/v2";

#[test]
fn folders_in_every_format() {
    for (format, file) in [
        ("text", "folders.txt"),
        ("markdown", "folders.md"),
        ("json", "folders.json"),
    ] {
        let out = diff(&[V1, V2, "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        snapshot(file).assert_eq(&stdout(&out));
    }
}

#[test]
fn unchanged_kernels_with_all() {
    let out = diff(&[
        "test-data/diff/v1/kernels.ptx",
        "test-data/diff/v2/kernels.ptx",
        "--all",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    snapshot("files_all.txt").assert_eq(&stdout(&out));
}

#[test]
fn fail_on_rules() {
    // Registers (the estimate) grew by 4 (`grow`) and 2 (`scale`).
    let cases: &[(&str, i32, &[&str])] = &[
        ("regs+0", 1, &["grow", "scale"]),
        ("regs+2", 1, &["grow"]),
        ("regs+4", 0, &[]),
        ("regs+10%", 1, &["grow"]), // 12 -> 16 is 33%, 24 -> 26 is 8.3%
        ("regs+40%", 0, &[]),
        (
            "unroll",
            1,
            &["loop at line 20: unrolled x4 -> not unrolled"],
        ),
        ("spills", 0, &[]),
    ];
    for &(rule, code, offenders) in cases {
        let out = diff(&[V1, V2, "--fail-on", rule]);
        let text = stdout(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{rule}: {text}{}",
            stderr(&out)
        );
        for o in offenders {
            assert!(
                text.lines()
                    .skip_while(|l| *l != "regressions:")
                    .any(|l| l.contains(o)),
                "{rule}: {o} not listed:\n{text}"
            );
        }
        if code == 1 {
            assert!(
                stderr(&out).contains("regressed (--fail-on"),
                "{}",
                stderr(&out)
            );
        } else {
            assert!(!text.contains("regressions:"), "{text}");
        }
    }
    let out = diff(&[V1, V2, "--fail-on", "regs+0,unroll", "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(1));
    snapshot("fail_on.md").assert_eq(&stdout(&out));
}

#[test]
fn a_saved_report_diffs_like_its_file() {
    let dir = ptx_test_support::ScratchDir::new("ptxopt-diff");
    let saved = dir.join("base.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .args([
            "analyze",
            "test-data/diff/v1/kernels.ptx",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(&saved, &out.stdout).unwrap();
    let from_json = diff(&[saved.to_str().unwrap(), "test-data/diff/v2/kernels.ptx"]);
    let from_ptx = diff(&[
        "test-data/diff/v1/kernels.ptx",
        "test-data/diff/v2/kernels.ptx",
    ]);
    assert_eq!(from_json.status.code(), Some(0), "{}", stderr(&from_json));
    let body = |o: &Output| stdout(o).lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&from_json), body(&from_ptx));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_exit_2_with_a_message() {
    let dir = ptx_test_support::ScratchDir::new("ptxopt-diff-bad");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let good = "test-data/diff/v2/loops.json";
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["no/such.ptx".into(), good.into()],
            "cannot read `no/such.ptx`",
        ),
        (
            vec![write("v9.json", br#"{"format_version":9}"#), good.into()],
            "format version 9; this ptxopt reads version 1",
        ),
        (
            vec![write("cut.json", b"{\"functions\":"), good.into()],
            "is not JSON",
        ),
        (
            vec![write("arr.json", b"[1,2]"), good.into()],
            "not a `ptxopt analyze --format json` report",
        ),
        (
            vec![
                write(
                    "nofn.json",
                    br#"{"target":"sm_80","functions":[{"name":"k"}]}"#,
                ),
                good.into(),
            ],
            "function 0 has no `max_live`",
        ),
        (
            vec![write("bin.ptx", b"\xff\xfe\x00"), good.into()],
            "not valid UTF-8",
        ),
        (
            vec![
                write(
                    "broken.ptx",
                    b".version 8.0\n.target sm_80\n.entry k() { bogus.op; }\n",
                ),
                good.into(),
            ],
            "has 1 error",
        ),
        (
            vec![V1.into(), good.into()],
            "give two files or two folders",
        ),
        (
            vec![V1.into(), V2.into(), "--fail-on".into(), "regs".into()],
            "expected `regs+N`",
        ),
        (
            vec![V1.into(), V2.into(), "--ptxas=/no/ptxas".into()],
            "--ptxas: `/no/ptxas` not found",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = diff(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ptxas_counts_when_asked() {
    let Some(ptxas) = ptx_test_support::ptxas() else {
        return;
    };
    let out = diff(&[
        "test-data/diff/v1/kernels.ptx",
        "test-data/diff/v2/kernels.ptx",
        &format!("--ptxas={}", ptxas.display()),
        "--fail-on",
        "regs+0",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("grow: registers 8 -> 12 (+4) (ptxas), spill bytes 0"),
        "{text}"
    );
}
