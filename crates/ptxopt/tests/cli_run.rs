//! `ptxopt run` as a user runs it: saxpy from `test-data/examples` with file
//! and generated buffers, `--out` files checked against a Rust reference,
//! usage errors (exit 2), an emulation error (exit 1 with the location).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ptxopt_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .arg("run")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp_dir(name: &str) -> ptx_test_support::ScratchDir {
    ptx_test_support::ScratchDir::new(&format!("ptxopt-cli-run-{name}"))
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const SAXPY: &str = "test-data/examples/saxpy.ptx";

#[test]
fn saxpy_with_file_buffers_matches_reference() {
    let dir = temp_dir("files");
    let n = 1000usize;
    let x: Vec<f32> = (0..1024).map(|i| (i as f32) * 0.37 - 100.0).collect();
    let y: Vec<f32> = (0..1024).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.join("x.bin"), bytes(&x)).unwrap();
    std::fs::write(dir.join("y.bin"), bytes(&y)).unwrap();
    let out_dir = dir.join("out");
    let xa = format!("buf:f32:file={}", dir.join("x.bin").display());
    let ya = format!("buf:f32:file={}", dir.join("y.bin").display());
    let out = ptxopt_run(&[
        SAXPY,
        "--kernel",
        "saxpy",
        "--grid",
        "4",
        "--block",
        "256",
        "--arg",
        "u32:1000",
        "--arg",
        "f32:1.7",
        "--arg",
        &xa,
        "--arg",
        &ya,
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("thread-instructions"),
        "{}",
        stderr(&out)
    );
    let got = f32s(&std::fs::read(out_dir.join("arg3.bin")).unwrap());
    assert_eq!(got.len(), 1024);
    for i in 0..1024 {
        // saxpy.ptx computes fma.rn.f32(x, a, y); threads >= n do nothing.
        let want = if i < n { x[i].mul_add(1.7, y[i]) } else { y[i] };
        assert_eq!(got[i].to_bits(), want.to_bits(), "y[{i}]");
    }
    // x is unchanged; inputs and the manifest are written too.
    assert_eq!(f32s(&std::fs::read(out_dir.join("arg2.bin")).unwrap()), x);
    assert_eq!(
        f32s(&std::fs::read(out_dir.join("arg3.in.bin")).unwrap()),
        y
    );
    let manifest = std::fs::read_to_string(out_dir.join("run.json")).unwrap();
    assert!(manifest.contains("\"kernel\": \"saxpy\""), "{manifest}");
    assert!(
        manifest.contains("\"bytes_hex\": \"e8030000\""),
        "{manifest}"
    );
    assert!(!out_dir.join("arg0.bin").exists(), "scalars have no file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn saxpy_with_generated_buffers() {
    let dir = temp_dir("generated");
    let run = |seed: &str| {
        let out = ptxopt_run(&[
            SAXPY,
            "--kernel",
            "saxpy",
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "s32:100",
            "--arg",
            "f32:-2.5",
            "--arg",
            "buf:f32:128:random",
            "--arg",
            "buf:f32:128:0.5",
            "--seed",
            seed,
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        (
            f32s(&std::fs::read(dir.join("arg2.in.bin")).unwrap()),
            f32s(&std::fs::read(dir.join("arg3.bin")).unwrap()),
        )
    };
    let (x, y) = run("7");
    assert!(x.iter().all(|v| (-1.0..1.0).contains(v)));
    // 2 x 64 threads cover 128 > n = 100: the bounds check matters.
    for i in 0..128 {
        let want = if i < 100 {
            x[i].mul_add(-2.5, 0.5)
        } else {
            0.5
        };
        assert_eq!(y[i].to_bits(), want.to_bits(), "y[{i}]");
    }
    assert_eq!(run("7").0, x, "the same seed gives the same input");
    assert_ne!(run("8").0, x, "another seed gives another input");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    let base = [SAXPY, "--grid", "1", "--block", "32"];
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--kernel",
                "saxpy",
                "--arg",
                "u32:1",
                "--arg",
                "f32:1",
                "--arg",
                "buf:f32:32:zero",
            ],
            "takes 4 parameters, 3 --arg given",
        ),
        (
            &[
                "--kernel",
                "saxpy",
                "--arg",
                "u32:1",
                "--arg",
                "f32:1",
                "--arg",
                "buf:f32:32:zap",
                "--arg",
                "buf:f32:32:zero",
            ],
            "INIT must be",
        ),
        (
            &[
                "--kernel",
                "saxpy",
                "--arg",
                "q7:1",
                "--arg",
                "f32:1",
                "--arg",
                "buf:f32:32:zero",
                "--arg",
                "buf:f32:32:zero",
            ],
            "unknown type `q7`",
        ),
        (
            &[
                "--kernel",
                "saxpy",
                "--arg",
                "u64:1",
                "--arg",
                "f32:1",
                "--arg",
                "buf:f32:32:zero",
                "--arg",
                "buf:f32:32:zero",
            ],
            "a u64 is 8 bytes, the parameter 4",
        ),
        (&["--kernel", "saxpyy"], "no kernel `saxpyy`"),
    ];
    for (extra, message) in cases {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        let out = ptxopt_run(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{extra:?}: {}",
            stderr(&out)
        );
    }
    let out = ptxopt_run(&[SAXPY, "--kernel", "nope", "--block", "32"]);
    assert!(stderr(&out).contains("kernels: saxpy"), "{}", stderr(&out));
    let out = ptxopt_run(&[SAXPY, "--kernel", "saxpy", "--block", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn emulation_error_exits_1_with_location() {
    // n = 64 but the buffers hold 32 floats: thread 32 reads past x.
    let out = ptxopt_run(&[
        SAXPY,
        "--kernel",
        "saxpy",
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "u32:64",
        "--arg",
        "f32:1",
        "--arg",
        "buf:f32:32:iota",
        "--arg",
        "buf:f32:32:zero",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("emulation failed"), "{err}");
    assert!(err.contains("saxpy:"), "function and PTX line: {err}");
    assert!(err.contains("out-of-bounds"), "{err}");
    assert!(err.contains("tid (32,0,0)"), "{err}");
}

#[test]
fn buffers_past_max_memory_are_usage_errors() {
    fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut a = vec![
            SAXPY, "--kernel", "saxpy", "--block", "32", "--arg", "u32:8", "--arg", "f32:1",
        ];
        a.extend_from_slice(extra);
        a
    }
    // The reported command: a 400 TB buffer is an error naming its size and
    // the limit, not an aborted allocation.
    let out = ptxopt_run(&args(&[
        "--arg",
        "buf:f32:99999999999999:zero",
        "--arg",
        "buf:f32:8:zero",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "is 399999999999996 bytes (363.8 TiB), more than --max-memory allows, 4294967296 bytes (4 GiB)"
        ),
        "{}",
        stderr(&out)
    );
    // The limit is on all buffers together.
    let out = ptxopt_run(&args(&[
        "--max-memory",
        "48",
        "--arg",
        "buf:f32:8:zero",
        "--arg",
        "buf:f32:8:zero",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("more than --max-memory allows, 16 bytes"),
        "{}",
        stderr(&out)
    );
    let out = ptxopt_run(&args(&[
        "--max-memory",
        "1K",
        "--arg",
        "buf:f32:8:zero",
        "--arg",
        "buf:f32:8:zero",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = ptxopt_run(&args(&["--max-memory", "4Q"]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
