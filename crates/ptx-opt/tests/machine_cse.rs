//! cicc machine-cse over real code, with MRPA's verification mode on
//! (`verify-update-mcse`, `print-verify`) in every run:
//!
//! - every function of test-data and of the shared corpus (when present),
//!   at the default register target and at low ones (16, 4) where the
//!   pressure check refuses merges: every incremental MRPA update equals a
//!   full recomputation (0 mismatches), and the output passes the IR
//!   verifier (`run_phase` checks it in debug builds);
//! - the emulator: every kernel of `test-data/examples` and of the
//!   machine-cse filetests, before and after the phase (both targets, with
//!   and without `copy-prop-mcse`), computes the same buffers.

use std::path::Path;
use std::sync::Arc;

use ptx_emu::diff::{self, Side, Verdict, VerifyOptions};
use ptx_ir::ir::FunctionKind;
use ptx_knobs::{knobs, KnobValue};
use ptx_opt::{run_phase, Defaults, PhaseId, PhaseOutput, RemarkKind};

fn ctx(target: Option<i64>, copy_prop: bool) -> Defaults {
    let mut ctx = Defaults::new(80);
    ctx.knobs
        .insert(knobs::verify_update_mcse.id(), KnobValue::Bool(true));
    ctx.knobs
        .insert(knobs::print_verify.id(), KnobValue::Bool(true));
    ctx.knobs
        .insert(knobs::copy_prop_mcse.id(), KnobValue::Bool(copy_prop));
    if let Some(t) = target {
        ctx.knobs
            .insert(knobs::nv_remat_default_max_reg.id(), KnobValue::Int(t));
    }
    ctx
}

fn stat(out: &PhaseOutput, name: &str) -> u64 {
    out.stats
        .iter()
        .find(|s| s.name == name)
        .map_or(0, |s| s.value)
}

#[derive(Default, Debug)]
struct Totals {
    functions: u64,
    merged: u64,
    refused_r: u64,
    refused_p: u64,
    propagated: u64,
    verifications: u64,
    mismatches: u64,
}

fn run_file(path: &Path, totals: &mut [Totals; 3]) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    if !errors.is_empty() {
        return;
    }
    for f in module.functions {
        if f.layout.is_empty() {
            continue;
        }
        let f = Arc::new(f);
        for (t, target) in [None, Some(16), Some(4)].into_iter().enumerate() {
            let out = run_phase(PhaseId::CiccMachineCse, &ctx(target, true), &f);
            let bad: Vec<&str> = out
                .remarks
                .iter()
                .filter(|r| r.name == "mrpa-verify")
                .map(|r| r.message.as_str())
                .collect();
            assert!(
                bad.is_empty(),
                "{}: {}: {}",
                path.display(),
                f.sig.name,
                bad.join("\n")
            );
            let s = &mut totals[t];
            s.functions += 1;
            s.merged += stat(&out, "instructions commoned");
            s.refused_r += stat(&out, "kept for register pressure");
            s.refused_p += stat(&out, "kept for predicate pressure");
            s.propagated += stat(&out, "copies propagated");
            s.verifications += stat(&out, "MRPA verifications");
            s.mismatches += stat(&out, "MRPA mismatches");
        }
    }
}

#[test]
fn mrpa_verification_finds_no_mismatch_on_test_data_and_the_corpus() {
    let mut totals: [Totals; 3] = Default::default();
    let data = ptx_test_support::test_data();
    for path in ptx_test_support::ptx_files_recursive(&data) {
        if path.starts_with(data.join("rejected")) {
            continue;
        }
        run_file(&path, &mut totals);
    }
    if let Some(corpus) = ptx_test_support::corpus_dir() {
        for path in ptx_test_support::ptx_files_recursive(&corpus) {
            run_file(&path, &mut totals);
        }
    }
    eprintln!("default target: {:?}", totals[0]);
    eprintln!("target 16: {:?}", totals[1]);
    eprintln!("target 4: {:?}", totals[2]);
    for t in &totals {
        assert_eq!(t.mismatches, 0);
        assert!(t.merged > 0 && t.verifications > 0, "{t:?}");
    }
    assert!(totals[2].refused_r > 0, "the low targets refuse merges");
}

/// Every kernel of `path`, before and after machine-cse, on the emulator.
fn differential(path: &Path, target: Option<i64>, copy_prop: bool) -> (u32, u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    let mut optimized = module.clone();
    let mut merged = 0;
    for f in optimized.functions.iter_mut() {
        if f.layout.is_empty() {
            continue;
        }
        let out = run_phase(
            PhaseId::CiccMachineCse,
            &ctx(target, copy_prop),
            &Arc::new(f.clone()),
        );
        assert!(
            out.remarks
                .iter()
                .all(|r| r.name != "mrpa-verify" || r.kind != RemarkKind::Missed),
            "{}: MRPA mismatch",
            path.display()
        );
        merged += stat(&out, "instructions commoned");
        *f = (*out.function).clone();
    }
    let opt_text = ptx_ir::emit_module(&optimized);
    let (reparsed, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&opt_text));
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    let mut equal = 0;
    for f in &module.functions {
        if f.sig.kind != FunctionKind::Entry || f.layout.is_empty() {
            continue;
        }
        let report = diff::verify_sources(
            Side {
                module: &module,
                text: Some(&text),
            },
            Side {
                module: &reparsed,
                text: Some(&opt_text),
            },
            &f.sig.name,
            &VerifyOptions::default(),
        );
        match report.verdict() {
            Verdict::Equal => equal += 1,
            Verdict::Skipped => {}
            v => panic!(
                "{} ({target:?}, copy-prop {copy_prop}): `{}` differs: {v:?} {:?} {:?}",
                path.display(),
                f.sig.name,
                report.problem,
                report.runs
            ),
        }
    }
    (equal, merged)
}

#[test]
fn the_emulator_agrees_before_and_after() {
    let data = ptx_test_support::test_data();
    let mut files = ptx_test_support::ptx_files(&data.join("examples"));
    files.extend(ptx_test_support::ptx_files(
        &data.join("passes/machine-cse"),
    ));
    let (mut equal, mut merged) = (0, 0);
    for path in &files {
        for (target, copy_prop) in [(None, true), (Some(8), true), (None, false)] {
            let (e, m) = differential(path, target, copy_prop);
            equal += e;
            merged += m;
        }
    }
    eprintln!("{equal} kernel runs equal, {merged} merges");
    assert!(equal >= 3 * files.len() as u32);
    assert!(merged > 0);
}
