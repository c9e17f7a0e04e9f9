//! `ptxopt analyze` as a user runs it: snapshots of the text and JSON reports
//! of `test-data/analysis/*.ptx` and one example (`UPDATE_EXPECT=1` re-blesses
//! `tests/snapshots/analyze/`), exit codes, `--function`, `--arch`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `ptxopt analyze ARGS` in the workspace root (so paths in the output
/// are relative, as given).
fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .arg("analyze")
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

fn snapshot_inputs() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(workspace_root().join("test-data/analysis"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ptx"))
        .map(|n| format!("test-data/analysis/{n}"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "inputs missing in test-data/analysis");
    files.push("test-data/examples/matmul_tiled.ptx".to_string());
    files
}

#[test]
fn text_and_json_reports_match_snapshots() {
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/analyze");
    for input in snapshot_inputs() {
        let stem = Path::new(&input)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (format, ext) in [("text", "txt"), ("json", "json")] {
            let out = analyze(&[&input, "--format", format]);
            assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
            assert!(out.stderr.is_empty(), "{input}: {}", stderr(&out));
            expect_test::expect_file![snapshots.join(format!("{stem}.{ext}"))]
                .assert_eq(&stdout(&out));
        }
    }
}

#[test]
fn json_has_the_stable_fields() {
    let out = analyze(&["test-data/analysis/nested_loops.ptx", "--format", "json"]);
    let json = stdout(&out);
    for field in [
        "\"file\":",
        "\"target\":\"sm_80\"",
        "\"functions\":[",
        "\"name\":\"nested_loops\"",
        "\"kind\":\"entry\"",
        "\"blocks\":",
        "\"instructions\":",
        "\"max_live\":{\"r\":",
        "\"p\":",
        "\"line\":",
        "\"loops\":[{\"header_line\":22",
        "\"depth\":3",
        "\"trip_count\":16",
        "\"res_mii\":",
        "\"rec_mii\":",
        "\"latency_classes\":{\"1\":",
        "\"estimated_registers\":",
        "\"occupancy\":{\"warps_per_sm\":",
        "\"max_warps_per_sm\":64",
        "\"lost_to_registers\":",
        "\"maxrregcount\":null",
        "\"peak\":{\"units\":",
        "\"registers\":[{\"name\":",
    ] {
        assert!(json.contains(field), "{field} missing in {json}");
    }
    // Brackets balance (a cheap well-formedness check; no string in this
    // report holds a bracket).
    let opens = json.matches(['{', '[']).count();
    let closes = json.matches(['}', ']']).count();
    assert_eq!(opens, closes, "{json}");
}

/// `--peak` lists the registers live where the estimate peaks, with the
/// lines of their definition and last use; `--maxrregcount` caps the
/// estimate and the occupancy follows.
#[test]
fn peak_and_maxrregcount() {
    let out = analyze(&["test-data/examples/matmul_tiled.ptx", "--peak"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    expect_test::expect_file!["snapshots/analyze/matmul_tiled.peak.txt"].assert_eq(&stdout(&out));
    let out = analyze(&[
        "test-data/examples/matmul_tiled.ptx",
        "--maxrregcount",
        "16",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = stdout(&out);
    assert!(
        json.contains(
            "\"estimated_registers\":16,\"estimated_registers_likely\":[12,16],\"estimate_rule\":\"maxrregcount\""
        ),
        "{json}"
    );
    assert!(json.contains("\"maxrregcount\":16"), "{json}");
    let out = analyze(&["test-data/examples/matmul_tiled.ptx", "--maxrregcount", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn function_filter_and_arch() {
    let out = analyze(&[
        "test-data/analysis/trip_counts.ptx",
        "--function",
        "known_up",
        "--arch",
        "sm_86",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("(target sm_86)"), "{text}");
    assert!(text.contains(".entry known_up "), "{text}");
    assert!(!text.contains("known_down_ne"), "{text}");

    let out = analyze(&["test-data/analysis/trip_counts.ptx", "--function", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no function `nope`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_errors_are_printed_and_exit_one() {
    let dir = ptx_test_support::ScratchDir::new("ptxopt-analyze");
    let path = dir.join("bad.ptx");
    std::fs::write(
        &path,
        ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n    .reg .b32 %r<2>;\n    add.s32 %r1, %r9, 1;\n    ret;\n}\n",
    )
    .unwrap();
    let out = analyze(&[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.contains(":7:18: error: undeclared register `%r9`"),
        "{err}"
    );
}

#[test]
fn usage_and_io_errors_exit_two() {
    let out = analyze(&["/nonexistent/x.ptx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"));
    let out = analyze(&["test-data/examples/saxpy.ptx", "--arch", "gfx90"]);
    assert_eq!(out.status.code(), Some(2));
    let out = analyze(&["test-data/examples/saxpy.ptx", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The report does not depend on the number of threads: one thread against
/// several, on every snapshot input and on the largest corpus file (when the
/// shared corpus is there).
#[test]
fn report_is_the_same_for_any_number_of_threads() {
    let mut inputs = snapshot_inputs();
    let dealii = workspace_root()
        .join("../shared/corpus/dealii/matrix_free_device_matrix_vector_01.1.sm_80.ptx");
    if dealii.exists() {
        inputs.push(dealii.display().to_string());
    }
    for input in inputs {
        let one = analyze(&[&input, "--format", "json", "--jobs", "1"]);
        assert_eq!(one.status.code(), Some(0), "{input}: {}", stderr(&one));
        for jobs in ["2", "5"] {
            let many = analyze(&[&input, "--format", "json", "--jobs", jobs]);
            assert_eq!(many.status.code(), Some(0), "{input}: {}", stderr(&many));
            assert!(
                one.stdout == many.stdout,
                "{input}: the report with --jobs {jobs} differs from --jobs 1"
            );
        }
    }
}
