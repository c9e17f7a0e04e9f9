//! Pass filetests: `test-data/passes/<phase>/*.ptx`, one generated `#[test]`
//! per file (see `build.rs`).
//!
//! Each file starts with header comment lines:
//!
//! ```text
//! // phases: OriPerformLiveDeadFirst        (names or numbers, comma-separated; the others pass through)
//! // knobs: LoopUnroll=false                (optional, comma-separated NAME=VALUE)
//! // target: sm_80                          (optional; default: the file's .target)
//! // explain: yes                           (optional: add what `ptxopt explain` says)
//! // maxrregcount: 24                       (optional: as `--maxrregcount 24`)
//! ```
//!
//! The test builds the file with only those phases switched on and compares
//! `NAME.ptx.expected` beside it with the output PTX followed by the remarks
//! (`// remark: LINE:COL [phase] message`) and counters (`UPDATE_EXPECT=1`
//! re-blesses). Then the proofs: every `.entry` of the input and of the
//! output runs on the emulator with the same generated inputs
//! (`ptx_emu::diff`, as `ptxopt verify`), and must not differ; ptxas
//! accepts the output (skipped when ptxas is absent unless
//! `PTXOPT_REQUIRE_PTXAS=1`); and the same input built by the whole default
//! pipeline (with the header's knobs and target) must not differ either.
//! One more test runs every other `.ptx` of test-data that builds through
//! the default pipeline on the emulator the same way.

use std::path::PathBuf;

use ptx_db::{build_file, file_remarks, file_stats, find_phases, PhaseId, RootDatabase};
use ptx_emu::diff::{self, Outcome, Verdict, VerifyOptions};
use ptx_ir::ir::FunctionKind;
use ptx_knobs::parse_setting;
use ptx_syntax::line_index::LineIndex;

include!(concat!(env!("OUT_DIR"), "/pass_filetests.rs"));

/// What the header of a filetest says.
struct Header {
    phases: Vec<PhaseId>,
    knobs: Vec<String>,
    target: Option<String>,
    explain: bool,
    /// `// maxrregcount: N`: as `--maxrregcount N`.
    max_regs: Option<u32>,
}

fn header(text: &str, rel: &str) -> Header {
    let mut h = Header {
        phases: Vec::new(),
        knobs: Vec::new(),
        target: None,
        explain: false,
        max_regs: None,
    };
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("//") else {
            break;
        };
        let Some((key, value)) = rest.split_once(':') else {
            continue;
        };
        let items = value.split(',').map(str::trim).filter(|s| !s.is_empty());
        match key.trim() {
            "phases" => {
                for word in items {
                    // As `--named-phases`: OriCopyProp is a sub-pass of the
                    // bundles, which then run it alone.
                    if word.eq_ignore_ascii_case("OriCopyProp") {
                        h.knobs.push("GeneralOptimizeSubPasses=OriCopyProp".into());
                    }
                    let found = find_phases(word);
                    assert!(!found.is_empty(), "{rel}: unknown phase `{word}`");
                    h.phases.extend(found.iter().map(|p| p.id));
                }
            }
            "knobs" => h.knobs.extend(items.map(str::to_string)),
            "target" => h.target = items.into_iter().next().map(str::to_string),
            "explain" => h.explain = value.trim() == "yes",
            "maxrregcount" => {
                h.max_regs =
                    Some(value.trim().parse().unwrap_or_else(|_| {
                        panic!("{rel}: `// maxrregcount:` takes a register count")
                    }))
            }
            _ => {}
        }
    }
    assert!(!h.phases.is_empty(), "{rel}: no `// phases:` header line");
    h
}

fn run_filetest(rel: &str) {
    let path = ptx_test_support::test_data().join("passes").join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let h = header(&text, rel);

    let (db, file) = database(&h, rel, &path, &text, Some(&h.phases));
    let built = build_file(&db, file);
    let Some(output) = built.text else {
        panic!("{rel}: does not build: {:?}", built.diagnostics);
    };
    snapshot_and_proofs(rel, &h, &db, file, &text, &output.to_string());

    // The whole default pipeline on the same input (and settings) computes
    // the same too: a phase's filetest input is also a case for the phases
    // around it (a miscompile of the cicc unroller showed only there).
    let (db, file) = database(&h, rel, &path, &text, None);
    let built = build_file(&db, file);
    let Some(output) = built.text else {
        panic!(
            "{rel}: the default pipeline does not build: {:?}",
            built.diagnostics
        );
    };
    // (Its kernels may all be skipped there: a `%clock` read the phase
    // keeps may be deleted as dead by the others.)
    differential(
        &format!("{rel} (default pipeline)"),
        &text,
        &output.to_string(),
        false,
    );
}

/// A database with the file, the header's settings, and `phases` switched
/// on (`None`: every phase, as `ptxopt build`).
fn database(
    h: &Header,
    rel: &str,
    path: &std::path::Path,
    text: &str,
    phases: Option<&[PhaseId]>,
) -> (RootDatabase, ptx_db::SourceFile) {
    let mut db = RootDatabase::new();
    db.set_phase_selection(phases);
    for setting in &h.knobs {
        let (name, value) = parse_setting(setting).unwrap_or_else(|e| panic!("{rel}: {e}"));
        db.set_knob(name.name, value)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
    }
    if h.max_regs.is_some() {
        db.set_max_regs(h.max_regs);
    }
    if let Some(target) = &h.target {
        let (sm, suffix) =
            ptx_db::parse_target(target).unwrap_or_else(|| panic!("{rel}: bad target"));
        db.set_target(sm, suffix);
    }
    let file = db.set_file_text(path, text);
    (db, file)
}

/// The snapshot of the selected phases' build (output, remarks, counters,
/// explain) against `.expected`, then its proofs: the emulator and ptxas.
fn snapshot_and_proofs(
    rel: &str,
    h: &Header,
    db: &RootDatabase,
    file: ptx_db::SourceFile,
    text: &str,
    output: &str,
) {
    let path = ptx_test_support::test_data().join("passes").join(rel);
    let index = LineIndex::new(text);
    let mut snapshot = output.to_string();
    snapshot.push_str("\n// ---- remarks ----\n");
    for r in file_remarks(db, file) {
        let at = match r.range {
            Some(range) => {
                let lc = index.line_col(text, range.start());
                format!("{}:{}", lc.line, lc.col)
            }
            None => format!("in {}", r.kernel),
        };
        snapshot.push_str(&format!(
            "// {}: {at} [{}] {}\n",
            r.remark.kind.as_str(),
            ptx_db::phase_info(r.remark.phase).label(),
            r.remark.message
        ));
    }
    snapshot.push_str("// ---- stats ----\n");
    for s in file_stats(db, file) {
        for c in &s.stats {
            snapshot.push_str(&format!(
                "// {} [{}] {}={}\n",
                s.kernel,
                ptx_db::phase_info(s.phase).label(),
                c.name,
                c.value
            ));
        }
    }
    if h.explain {
        // What `ptxopt explain` shows: each loop by its header's line, each
        // loop phase's decision and the facts behind it.
        snapshot.push_str("// ---- explain ----\n");
        for l in ptx_db::file_loops(db, file) {
            let line = l
                .header_range
                .map(|r| index.line_col(text, r.start()).line)
                .unwrap_or(0);
            snapshot.push_str(&format!(
                "// line {line}: loop {} in {} (depth {})\n",
                l.label.as_deref().unwrap_or("-"),
                l.kernel,
                l.depth
            ));
            for r in &l.reports {
                snapshot.push_str(&format!(
                    "//   [{}] {}\n",
                    ptx_db::phase_info(r.phase).label(),
                    r.summary
                ));
                let facts: Vec<String> = r.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
                if !facts.is_empty() {
                    snapshot.push_str(&format!("//     {}\n", facts.join("; ")));
                }
            }
        }
    }
    let expected = PathBuf::from(format!("{}.expected", path.display()));
    expect_test::expect_file![expected].assert_eq(&snapshot);

    differential(rel, text, output, true);
    ptxas_accepts(rel, text, output);
}

/// Every kernel of the input and the output on the emulator, same inputs;
/// with `require_equal`, at least one must run equal (not all skipped).
fn differential(rel: &str, original_text: &str, optimized_text: &str, require_equal: bool) {
    let (original, errors) = ptx_ir::lower_module(&ptx_syntax::parse(original_text));
    assert!(errors.is_empty(), "{rel}: input does not lower: {errors:?}");
    let (optimized, errors) = ptx_ir::lower_module(&ptx_syntax::parse(optimized_text));
    assert!(
        errors.is_empty(),
        "{rel}: output does not lower: {errors:?}"
    );
    let mut equal = 0;
    for f in &original.functions {
        if f.sig.kind != FunctionKind::Entry || f.layout.is_empty() {
            continue;
        }
        let report = diff::verify_sources(
            diff::Side {
                module: &original,
                text: Some(original_text),
            },
            diff::Side {
                module: &optimized,
                text: Some(optimized_text),
            },
            &f.sig.name,
            &VerifyOptions::default(),
        );
        match report.verdict() {
            Verdict::Equal => equal += 1,
            Verdict::Skipped => {
                eprintln!("{rel}: {}: skipped by the emulator", f.sig.name)
            }
            _ => {
                let runs: Vec<String> = report
                    .runs
                    .iter()
                    .filter(|r| !matches!(r.outcome, Outcome::Equal { .. }))
                    .map(|r| format!("{:?}", r.outcome))
                    .collect();
                panic!(
                    "{rel}: kernel `{}` differs after the phases: {:?} {}",
                    f.sig.name,
                    report.problem,
                    runs.join("; ")
                );
            }
        }
    }
    assert!(
        equal > 0 || !require_equal,
        "{rel}: no kernel ran equal on the emulator"
    );
}

/// ptxas accepts the output (when it is installed).
fn ptxas_accepts(rel: &str, original_text: &str, optimized_text: &str) {
    let Some(ptxas) = ptx_test_support::ptxas() else {
        return;
    };
    let out = std::env::temp_dir().join(format!(
        "ptxopt-passes-{}-{}",
        std::process::id(),
        rel.replace('/', "__")
    ));
    std::fs::write(&out, optimized_text).unwrap();
    let arch = ptx_test_support::arch_for(original_text);
    let result = ptx_test_support::run_ptxas(&ptxas, &out, &arch);
    let _ = std::fs::remove_file(&out);
    if let Err(e) = result {
        panic!("{rel}: ptxas rejects the output: {e}");
    }
}

/// Every other input of test-data (the analysis, family, example, emulator,
/// frontend and IR inputs; not the pass filetests, which prove their own,
/// nor files with errors) built by the whole default pipeline computes
/// what it computed before, on the emulator: what `ptxopt verify` checks,
/// on every file a test keeps.
#[test]
fn other_test_data_keeps_its_results_through_the_default_pipeline() {
    let root = ptx_test_support::test_data();
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                if !matches!(rel.as_str(), "passes" | "rejected" | "syntax") {
                    dirs.push(path);
                }
            } else if rel.ends_with(".ptx") {
                files.push((rel, path));
            }
        }
    }
    files.sort();
    let mut built = 0;
    for (rel, path) in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut db = RootDatabase::new();
        let file = db.set_file_text(&path, text.as_str());
        let Some(output) = build_file(&db, file).text else {
            continue; // a file with errors: nothing is built
        };
        built += 1;
        differential(&rel, &text, &output.to_string(), false);
    }
    assert!(built > 50, "only {built} test-data files built");
}
