//! `ptxopt report --html` as a user runs it: a folder is walked, one broken
//! file is listed on the page and on stderr while the others are reported
//! (exit 1, page written), the page is self-contained, `--quiet`, and usage
//! errors exit 2. The browser check is `report_browser.rs`.

use std::path::PathBuf;
use std::process::Command;

fn tmp(tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-report-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_folder_with_a_broken_file() {
    let dir = tmp("folder");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let data = ptx_test_support::test_data();
    std::fs::copy(data.join("examples/saxpy.ptx"), src.join("saxpy.ptx")).unwrap();
    std::fs::copy(
        data.join("analysis/nested_loops.ptx"),
        src.join("sub/nested.ptx"),
    )
    .unwrap();
    std::fs::write(
        src.join("broken.ptx"),
        ".version 8.0\n.target sm_80\n.entry k() { bogus.op; }\n",
    )
    .unwrap();
    let page = dir.join("out.html");
    let out = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .arg("report")
        .arg(&src)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("broken.ptx` has 1 error"), "{stderr}");
    assert!(stderr.contains("3 files, 1 with problems"), "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    for needle in [
        "\"name\":\"saxpy\"",
        "\"name\":\"nested_loops\"",
        "has 1 error",
        "\"occupancy\":[[",
    ] {
        assert!(html.contains(needle), "{needle} missing");
    }
    assert!(
        !html.contains("</script><"),
        "data closes its script element early"
    );
    assert!(html.contains("default-src 'none'"), "no CSP");

    let quiet = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .arg("report")
        .arg(src.join("saxpy.ptx"))
        .arg("--html")
        .arg(&page)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty() && quiet.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    let dir = tmp("usage");
    let saxpy = ptx_test_support::test_data().join("examples/saxpy.ptx");
    let cases: Vec<Vec<String>> = vec![
        vec![saxpy.display().to_string()],
        vec![
            saxpy.display().to_string(),
            "--html".into(),
            dir.join("no/such/dir/x.html").display().to_string(),
        ],
        vec![
            saxpy.display().to_string(),
            "--html".into(),
            dir.join("x.html").display().to_string(),
            "--knob".into(),
            "Nope=1".into(),
        ],
    ];
    for args in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxopt"))
            .arg("report")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
