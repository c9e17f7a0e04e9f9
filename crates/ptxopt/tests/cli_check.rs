//! `ptxopt check` as a user runs it: output format, exit codes, help.

use std::process::Command;

fn ptxopt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
}

/// A scratch folder of its own (removed when the test passes) holding
/// `name` with `text`: the folder and the file.
fn temp_file(name: &str, text: &str) -> (ptx_test_support::ScratchDir, std::path::PathBuf) {
    let dir = ptx_test_support::ScratchDir::new(&format!("ptxopt-check-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn clean_file_exits_zero() {
    let (_dir, path) = temp_file(
        "ok.ptx",
        ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n    ret;\n}\n",
    );
    let out = ptxopt().arg("check").arg(&path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn errors_are_rendered_with_caret_and_exit_one() {
    let (_dir, path) = temp_file(
        "bad.ptx",
        ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n    .reg .b32 %r<2>;\n    add.s32 %r1, %r9, 1;\n    ret;\n}\n",
    );
    let out = ptxopt().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let expected = format!(
        "{}:7:18: error: undeclared register `%r9`\n 7 |     add.s32 %r1, %r9, 1;\n   |                  ^^^\n",
        path.display()
    );
    assert_eq!(stdout, expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1 error"), "{stderr}");
}

#[test]
fn missing_file_is_an_io_error_exit_two() {
    let out = ptxopt()
        .args(["check", "/nonexistent/x.ptx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn usage_errors_exit_two_and_help_exits_zero() {
    assert_eq!(
        ptxopt().arg("check").output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(
        ptxopt().arg("frobnicate").output().unwrap().status.code(),
        Some(2)
    );
    let help = ptxopt().arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("check"));
}

#[test]
fn invalid_utf8_is_reported_with_position() {
    let dir = ptx_test_support::ScratchDir::new("ptxopt-check-latin1");
    let path = dir.join("latin1.ptx");
    std::fs::write(&path, b".version 8.3\n// caf\xe9\n").unwrap();
    let out = ptxopt().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains(":2:7: error: file is not valid UTF-8"));
}
