//! `ptxopt build` and `ptxopt knobs` as a user runs them: outputs accepted by
//! ptxas, atomic writes, knob and phase errors, `--list-phases`,
//! `--dump-after`, configuration files, determinism.
//!
//! The ptxas checks skip when ptxas is absent, unless `PTXOPT_REQUIRE_PTXAS`
//! is set (as CI does). ptxas is `$PTXOPT_CUDA_HOME/bin/ptxas`, by default
//! `~/.cache/ptxopt/cuda-13.0.88/bin/ptxas`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptx_test_support::{arch_for, ptx_files, ptxas, run_ptxas, test_data, ScratchDir};

fn ptxopt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
}

/// A fresh scratch folder for one test (removed when it passes).
fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("ptxopt-build-{name}"))
}

/// A fresh scratch folder holding `file` with `text`: the folder and the file.
fn scratch_input(name: &str, file: &str, text: &str) -> (ScratchDir, PathBuf) {
    let dir = scratch(name);
    let input = dir.join(file);
    std::fs::write(&input, text).unwrap();
    (dir, input)
}

/// `ptxopt build INPUT ARGS...`.
fn build(input: &Path, args: &[&str]) -> Output {
    ptxopt()
        .arg("build")
        .arg(input)
        .args(args)
        .output()
        .unwrap()
}

/// `ptxopt build INPUT -o OUTPUT ARGS...`.
fn build_to(input: &Path, output: &Path, args: &[&str]) -> Output {
    ptxopt()
        .arg("build")
        .arg(input)
        .arg("-o")
        .arg(output)
        .args(args)
        .output()
        .unwrap()
}

/// Asserts the exit status and that stderr contains `message`.
fn assert_fails(out: &Output, code: i32, message: &str) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert!(stderr(out).contains(message), "{}", stderr(out));
}

/// The names in a folder, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const GOOD: &str = ".version 8.3\n.target sm_80\n.address_size 64\n\n// a comment\n.visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";

const BAD: &str = ".version 8.3\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n    .reg .b32 %r<2>;\n    add.s32 %r1, %r9, 1;\n    ret;\n}\n";

#[test]
fn examples_round_trip_and_ptxas_accepts_the_output() {
    let inputs = ptx_files(&test_data().join("examples"));
    assert!(!inputs.is_empty());
    let out_dir = scratch("examples");
    let out = ptxopt()
        .arg("build")
        .args(&inputs)
        .arg("--out-dir")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{} written", inputs.len())),
        "{}",
        stderr(&out)
    );
    let outputs = ptx_files(&out_dir);
    assert_eq!(outputs.len(), inputs.len());

    // The output is clean PTX: `check` finds nothing, and the pipeline on
    // its own output changes nothing more after a second round (a first
    // rebuild may still tidy what the loop phases left, such as an empty
    // preheader block that a later pass no longer merges).
    let check = ptxopt().arg("check").args(&outputs).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    let rebuild = |from: &[PathBuf], name: &str| {
        let dir = scratch(name);
        let out = ptxopt()
            .arg("build")
            .args(from)
            .arg("--out-dir")
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        dir
    };
    let second_dir = rebuild(&outputs, "examples-again");
    let seconds = ptx_files(&second_dir);
    let third_dir = rebuild(&seconds, "examples-third");
    for second in &seconds {
        // histogram.ptx settles one round later (the pipeliner's register-peak
        // rule; see NOT_YET_FIXED_POINTS in crates/ptx-db/tests/idempotent.rs).
        if second.file_name().is_some_and(|n| n == "histogram.ptx") {
            continue;
        }
        let third = third_dir.join(second.file_name().unwrap());
        assert_eq!(
            std::fs::read_to_string(second).unwrap(),
            std::fs::read_to_string(&third).unwrap(),
            "{} is not a fixed point after a second round",
            second.display()
        );
    }

    let Some(ptxas) = ptxas() else { return };
    let mut rejected = Vec::new();
    for output in &outputs {
        let text = std::fs::read_to_string(output).unwrap();
        if let Err(message) = run_ptxas(&ptxas, output, &arch_for(&text)) {
            rejected.push(format!("{}: {message}", output.display()));
        }
    }
    assert!(
        rejected.is_empty(),
        "ptxas rejected:\n{}",
        rejected.join("\n")
    );
}

#[test]
fn default_output_is_beside_the_input() {
    let (dir, input) = scratch_input("default", "k.ptx", GOOD);
    let out = build(&input, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(entries(&dir), ["k.opt.ptx", "k.ptx"]);
    let text = std::fs::read_to_string(dir.join("k.opt.ptx")).unwrap();
    assert!(text.contains(".visible .entry k("), "{text}");
    assert!(
        !text.contains("// a comment"),
        "comments are dropped: {text}"
    );
}

#[test]
fn an_input_with_errors_leaves_no_output_and_exits_one() {
    let (dir, input) = scratch_input("errors", "bad.ptx", BAD);
    let out = build(&input, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // Rendered like `ptxopt check`: location, message, source line, caret.
    assert!(
        err.contains(&format!(
            "{}:7:18: error: undeclared register `%r9`\n 7 |     add.s32 %r1, %r9, 1;\n   |                  ^^^\n",
            input.display()
        )),
        "{err}"
    );
    assert!(err.contains("not written"), "{err}");
    assert_eq!(entries(&dir), ["bad.ptx"], "no output, no temporary file");
}

#[test]
fn an_existing_output_is_untouched_when_the_input_has_errors() {
    let dir = scratch("untouched");
    let input = dir.join("bad.ptx");
    let output = dir.join("out.ptx");
    std::fs::write(&input, BAD).unwrap();
    std::fs::write(&output, "previous output\n").unwrap();
    let out = build_to(&input, &output, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "previous output\n"
    );
    assert_eq!(entries(&dir), ["bad.ptx", "out.ptx"]);
}

#[test]
fn good_files_are_written_when_another_has_errors() {
    let dir = scratch("mixed");
    std::fs::write(dir.join("a.ptx"), GOOD).unwrap();
    std::fs::write(dir.join("b.ptx"), BAD).unwrap();
    let out = ptxopt()
        .arg("build")
        .arg(dir.join("a.ptx"))
        .arg(dir.join("b.ptx"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(entries(&dir), ["a.opt.ptx", "a.ptx", "b.ptx"]);
    assert!(stderr(&out).contains("built 2 files: 1 written, 1 with errors"));
}

#[test]
fn an_unwritable_output_is_an_io_error_and_leaves_nothing() {
    let (dir, input) = scratch_input("unwritable", "k.ptx", GOOD);
    let output = dir.join("missing-folder").join("k.ptx");
    let out = build_to(&input, &output, &[]);
    assert_fails(&out, 2, "cannot write");
    assert_eq!(entries(&dir), ["k.ptx"]);
}

#[test]
fn unknown_knob_names_the_closest_knobs_and_exits_two() {
    let (dir, input) = scratch_input("knob", "k.ptx", GOOD);
    let out = build(&input, &["--knob", "LoopUnrol=false"]);
    assert_fails(
        &out,
        2,
        "unknown knob `LoopUnrol`; did you mean `LoopUnroll`",
    );
    assert_eq!(
        entries(&dir),
        ["k.ptx"],
        "nothing is built on a usage error"
    );

    let out = build(&input, &["--knob", "LoopUnroll=perhaps"]);
    assert_fails(&out, 2, "bad value `perhaps`");

    let out = build(&input, &["--knob", "LoopUnroll"]);
    assert_fails(&out, 2, "NAME=VALUE");

    let out = build(
        &input,
        &[
            "--knob",
            "LoopUnroll=false",
            "--knob",
            "unroll-threshold=150",
            "-o",
            "-",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn ptxopt_toml_beside_the_input_is_read() {
    let (dir, input) = scratch_input("config", "k.ptx", GOOD);
    std::fs::write(
        dir.join("ptxopt.toml"),
        "target = \"sm_90\"\n[knobs]\nLoopUnrol = false\n",
    )
    .unwrap();
    let out = build(&input, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("ptxopt.toml:3:"), "{err}");
    assert!(err.contains("LoopUnroll"), "{err}");

    std::fs::write(
        dir.join("ptxopt.toml"),
        "target = \"sm_90\"\n[knobs]\nLoopUnroll = false\n",
    )
    .unwrap();
    let out = build(&input, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // `--config` replaces the file beside the input.
    let other = dir.join("other.toml");
    std::fs::write(&other, "target = \"gfx90a\"\n").unwrap();
    let out = build(&input, &["--config", other.to_str().unwrap()]);
    assert_fails(&out, 2, "bad target `gfx90a`");
}

#[test]
fn list_phases_snapshot() {
    let out = ptxopt().args(["build", "--list-phases"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    expect_test::expect_file!["snapshots/list_phases.txt"].assert_eq(&stdout(&out));
}

#[test]
fn dump_after_prints_each_kernel_after_the_phase() {
    let (_dir, input) = scratch_input("dump", "k.ptx", GOOD);
    let out = build(&input, &["--dump-after", "OriLoopUnrolling", "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let header = format!(
        "// ---- {}: `k` after 22 OriLoopUnrolling ----\n",
        input.display()
    );
    assert!(text.starts_with(&header), "{text}");
    // No phase transforms anything yet: the dump is the emitted function.
    assert!(
        text.contains(".visible .entry k(\n\t.param .u64 p\n)\n{"),
        "{text}"
    );

    let by_number = build(&input, &["--dump-after", "22", "-o", "/dev/null"]);
    assert_eq!(by_number.status.code(), Some(0));
    assert_eq!(stdout(&by_number), text[..stdout(&by_number).len()]);

    let ir = build(
        &input,
        &[
            "--dump-after",
            "nvptx-peephole",
            "--dump-format",
            "ir",
            "-o",
            "/dev/null",
        ],
    );
    assert_eq!(ir.status.code(), Some(0), "{}", stderr(&ir));
    assert!(
        stdout(&ir).contains("after cicc nvptx-peephole"),
        "{}",
        stdout(&ir)
    );

    for (word, message) in [
        ("unrolling", "did you mean `OriLoopUnrolling`"),
        ("OriPropagateVarying", "names several phases"),
        ("999", "unknown phase `999`"),
    ] {
        let out = build(&input, &["--dump-after", word]);
        assert_eq!(out.status.code(), Some(2), "{word}");
        assert!(stderr(&out).contains(message), "{word}: {}", stderr(&out));
    }
}

#[test]
fn named_phases_are_checked() {
    let (_dir, input) = scratch_input("named", "k.ptx", GOOD);
    let out = build(
        &input,
        &["--named-phases", "22,GvnCse,nvptx-peephole", "-o", "-"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = build(&input, &["--named-phases", "GvnCs"]);
    assert_fails(&out, 2, "did you mean `GvnCse`");
}

#[test]
fn two_runs_are_byte_identical_whatever_the_thread_count() {
    let inputs = ptx_files(&test_data().join("examples"));
    let mut runs = Vec::new();
    for (name, jobs) in [("det-1", "1"), ("det-4", "4"), ("det-4b", "4")] {
        let out_dir = scratch(name);
        let out = ptxopt()
            .arg("build")
            .args(&inputs)
            .arg("--out-dir")
            .arg(&out_dir)
            .args(["-j", jobs, "--dump-after", "3"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let files: Vec<(String, Vec<u8>)> = ptx_files(&out_dir)
            .iter()
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(p).unwrap(),
                )
            })
            .collect();
        runs.push((out.stdout, files));
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[1], runs[2]);
}

#[test]
fn usage_errors_exit_two() {
    let dir = scratch("usage");
    std::fs::write(dir.join("a.ptx"), GOOD).unwrap();
    std::fs::write(dir.join("b.ptx"), GOOD).unwrap();
    let out = ptxopt()
        .arg("build")
        .arg(dir.join("a.ptx"))
        .arg(dir.join("b.ptx"))
        .args(["-o", "x.ptx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--out-dir"), "{}", stderr(&out));
    let out = build(&dir.join("a.ptx"), &["--arch", "sm_9x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        ptxopt().arg("build").output().unwrap().status.code(),
        Some(2)
    );
    let missing = ptxopt()
        .args(["build", "/nonexistent/x.ptx", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read"));
    assert_eq!(entries(&dir), ["a.ptx", "b.ptx"]);
}

#[test]
fn help_explains_build_and_knobs() {
    let help = ptxopt().args(["build", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let text = stdout(&help);
    for word in [
        "ptxopt.toml",
        "--knob",
        "--dump-after",
        "--list-phases",
        "atomically",
        "Exit status",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
    let top = ptxopt().arg("--help").output().unwrap();
    assert!(stdout(&top).contains("build"));
    assert!(stdout(&top).contains("knobs"));
}

#[test]
fn knobs_prints_the_registry() {
    let text = ptxopt().arg("knobs").output().unwrap();
    assert_eq!(text.status.code(), Some(0));
    assert!(stdout(&text).contains("LoopUnroll"));
    let json = ptxopt()
        .args(["knobs", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(0));
    let json = stdout(&json);
    assert!(json.starts_with('['), "{json}");
    assert!(json.contains("\"name\": \"LoopUnroll\"") || json.contains("\"name\":\"LoopUnroll\""));
    assert_eq!(
        ptxopt()
            .args(["knobs", "--format", "yaml"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

/// Building one file uses every thread on its chunks and functions; the output
/// is the same as with one thread (each example, a file with errors, and the
/// largest corpus file when the shared corpus is there).
#[test]
fn one_file_builds_the_same_on_any_number_of_threads() {
    let dir = scratch("threads");
    let mut inputs = ptx_files(&test_data().join("examples"));
    inputs.extend(ptx_files(&test_data().join("rejected")).into_iter().take(3));
    let dealii = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/dealii/matrix_free_device_matrix_vector_01.1.sm_80.ptx");
    if dealii.exists() {
        inputs.push(dealii);
    }
    for input in inputs {
        let build = |jobs: &str| {
            let out_file = dir.join(format!("out-{jobs}.ptx"));
            let _ = std::fs::remove_file(&out_file);
            let out = build_to(&input, &out_file, &["--jobs", jobs]);
            (
                out.status.code(),
                stderr(&out),
                std::fs::read(&out_file).ok(),
            )
        };
        let one = build("1");
        for jobs in ["2", "4"] {
            assert!(
                build(jobs) == one,
                "{}: --jobs {jobs} differs from --jobs 1",
                input.display()
            );
        }
    }
}
