//! `ptxopt verify`: every example verifies equal through the (pass-through)
//! pipeline, usage errors exit 2, and the differential check of `ptx-emu`
//! reports a deliberately wrong "optimized" module with its first difference.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptx_emu::diff::{self, Outcome, Verdict, VerifyOptions};
use ptx_ir::ir::{ImmValue, Operand};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ptxopt_verify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxopt"))
        .current_dir(workspace_root())
        .arg("verify")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn examples() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(workspace_root().join("test-data/examples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ptx"))
        .map(|n| format!("test-data/examples/{n}"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "examples missing");
    files
}

/// `... N -> M` at the end of `s`: `(N, M)`.
fn arrow_counts(s: &str) -> (u64, u64) {
    let (before, after) = s
        .rsplit_once(" -> ")
        .unwrap_or_else(|| panic!("no arrow: {s}"));
    let n = before.rsplit(' ').next().unwrap().parse().unwrap();
    (n, after.trim().parse().unwrap())
}

#[test]
fn every_example_verifies_equal() {
    for file in examples() {
        let out = ptxopt_verify(&[&file]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{file}:\n{stdout}{stderr}");
        let (counts, shapes): (Vec<&str>, Vec<&str>) =
            stdout.lines().partition(|l| l.ends_with(" instructions"));
        assert!(
            !counts.is_empty(),
            "{file}: one count line per kernel:\n{stdout}"
        );
        for line in counts {
            // `FILE: KERNEL: N -> M instructions`; copy propagation, branch
            // simplification and DCE only remove instructions, loop
            // unrolling (phase 22) copies loop bodies: M may exceed N.
            let (n, m) = arrow_counts(line.trim_end_matches(" instructions"));
            assert!(n > 0 && m > 0, "{file}: {line}");
        }
        assert!(shapes.len() >= 3, "{file}: one line per shape:\n{stdout}");
        for line in shapes {
            assert!(line.contains(": equal ("), "{file}: {line}");
            let inner = line.rsplit('(').next().unwrap();
            let (n, m) = arrow_counts(inner.trim_end_matches(" thread-instructions)"));
            assert!(n > 0 && m <= n, "{file}: {line}");
        }
        assert!(
            stderr.contains("0 different, 0 skipped, 0 with errors"),
            "{stderr}"
        );
    }
}

#[test]
fn settings_and_kernel_selection() {
    let out = ptxopt_verify(&[
        "test-data/examples/loops.ptx",
        "--kernel",
        "poly_known_trip",
        "--named-phases",
        "22",
        "--knob",
        "LoopUnroll=false",
        "--arch",
        "sm_80",
        "--seed",
        "9",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.lines().all(|l| l.contains("poly_known_trip")),
        "{stdout}"
    );
    // The static count, then three shapes.
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(
        stdout.lines().next().unwrap().ends_with(" instructions"),
        "{stdout}"
    );

    for (args, message) in [
        (
            &["--kernel", "nope"][..],
            "kernels: poly_known_trip, prefix_unknown_trip",
        ),
        (&["--named-phases", "NoSuchPhase"][..], "unknown phase"),
        (&["--knob", "NoSuchKnob=1"][..], "--knob"),
        (&["--arch", "gfx90a"][..], "bad target"),
    ] {
        let mut all = vec!["test-data/examples/loops.ptx"];
        all.extend_from_slice(args);
        let out = ptxopt_verify(&all);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = ptxopt_verify(&["test-data/examples/does-not-exist.ptx"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

fn lower(path: &str) -> ptx_ir::ir::Module {
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    assert!(errors.is_empty());
    module
}

#[test]
fn a_wrong_optimized_module_is_reported_with_its_first_difference() {
    let original = lower("test-data/examples/saxpy.ptx");
    let mut wrong = original.clone();
    // `mul.wide.s32 %rd5, %r1, 4` -> `..., 8`: thread i updates y[2i] from x[2i].
    let f = &mut wrong.functions[0];
    let id = f
        .insts_in_order()
        .find(|(_, i)| i.opcode.name == "mul")
        .map(|(id, _)| id)
        .unwrap();
    let imm = f.insts[id]
        .operands
        .iter_mut()
        .find_map(|op| match op {
            Operand::Imm(imm) => Some(imm),
            _ => None,
        })
        .unwrap();
    assert_eq!(imm.value, ImmValue::Int(4));
    imm.value = ImmValue::Int(8);
    imm.text = None;

    let report = diff::verify(&original, &wrong, "saxpy", &VerifyOptions::default());
    assert_eq!(report.verdict(), Verdict::Different, "{report:#?}");
    let d = report.first_difference().unwrap();
    // y (argument 3) differs first at word 1: the original wrote a*x[1]+y[1],
    // the wrong kernel left y[1] alone (thread 0 wrote y[0], thread 1 y[2]).
    assert_eq!(
        (d.param, d.param_name.as_str(), d.index),
        (3, "saxpy_param_3", 1)
    );
    assert_ne!(d.original, d.optimized);
    let shown = d.to_string();
    assert!(
        shown.contains("argument 3 (`saxpy_param_3`) word 1"),
        "{shown}"
    );
    assert!(shown.contains(&format!("{:#010x}", d.original)), "{shown}");
    assert!(shown.contains("f32") && shown.contains("u32"), "{shown}");
    assert!(report
        .runs
        .iter()
        .all(|r| matches!(r.outcome, Outcome::Different(_))));

    // And the same module against itself is equal.
    let same = diff::verify(&original, &original, "saxpy", &VerifyOptions::default());
    assert_eq!(same.verdict(), Verdict::Equal, "{same:#?}");
}

#[test]
fn unsupported_kernels_are_skipped_not_passed() {
    // `wgmma` is not emulated (see ptx-emu's unsupported list).
    let ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n\
        ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n\
        wgmma.fence.sync.aligned;\nmov.u32 %r1, 1;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(ptx));
    assert!(errors.is_empty(), "{errors:?}");
    let report = diff::verify(&module, &module, "k", &VerifyOptions::default());
    assert_eq!(report.verdict(), Verdict::Skipped, "{report:#?}");
}
