//! Our maximum live R beside ptxas's `Used N registers` for the kernels of
//! `test-data/examples/*.ptx` (skipped without ptxas). ptxas allocates after its
//! own optimizations (rematerialization, scheduling, 64-bit address folding),
//! so only a loose agreement is asserted: each ratio within 0.25x..4x.

mod common;

use std::collections::BTreeMap;

#[test]
fn max_live_r_is_near_ptxas_register_count_on_examples() {
    let Some(ptxas) = common::ptxas() else { return };
    let files = common::ptx_files(&common::test_data().join("examples"));
    let mut modules = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        let arch = common::arch_for(&text);
        let output = common::run_ptxas(&ptxas, path, &arch)
            .unwrap_or_else(|e| panic!("ptxas rejects {}: {e}", path.display()));
        let counts = ptx_analysis::report::parse_ptxas_register_counts(&output);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        modules.push((name, module, counts));
    }
    let report = ptx_analysis::pressure_report(
        modules
            .iter()
            .map(|(n, m, c): &(String, _, BTreeMap<String, u32>)| (n.as_str(), m, c)),
    );
    println!("{report}");
    let ratios = report.ratios();
    assert!(!ratios.is_empty());
    for row in &report.rows {
        if let Some(r) = row.ratio() {
            assert!(
                (0.25..=4.0).contains(&r),
                "{} {}: ours {} vs ptxas {:?}",
                row.module,
                row.function,
                row.max_r,
                row.ptxas
            );
        }
    }
}

/// The register estimate (`ptx_analysis::reg_estimate`) against ptxas on
/// every ptxas-accepted file of test-data and the shared corpus (zluda
/// kernels, dealii); skipped without ptxas. Prints the report (worst
/// estimates last) and guards the calibration: the shares measured when
/// the model was fitted, less a small margin, must hold. The goal (issue
/// 14: within ±10% on 80%, exact on 40%) is not reached yet; see the
/// module documentation of `reg_estimate` for what the model misses.
#[test]
fn register_estimate_calibration_against_ptxas() {
    let Some(ptxas) = common::ptxas() else { return };
    let mut files = Vec::new();
    for dir in [
        "examples", "analysis", "families", "frontend", "ir", "emu", "passes",
    ] {
        files.extend(common::ptx_files_recursive(&common::test_data().join(dir)));
    }
    if let Some(corpus) = common::corpus_dir() {
        files.extend(common::ptx_files(&corpus.join("zluda/spirv_run")));
        files.extend(common::ptx_files(&corpus.join("dealii")));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let Ok(text) = std::fs::read_to_string(path) else {
                    continue;
                };
                let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
                if !errors.is_empty() {
                    continue;
                }
                let Ok(output) = common::run_ptxas(&ptxas, path, &common::arch_for(&text)) else {
                    continue;
                };
                let counts = ptx_analysis::report::parse_ptxas_register_counts(&output);
                let name = path.display().to_string();
                results.lock().unwrap().push((name, module, counts));
            });
        }
    });
    let mut modules = results.into_inner().unwrap();
    modules.sort_by(|a, b| a.0.cmp(&b.0));
    let report = ptx_analysis::pressure_report(
        modules
            .iter()
            .map(|(n, m, c): &(String, _, BTreeMap<String, u32>)| (n.as_str(), m, c)),
    );
    println!("{report}");
    for r in report.worst_estimates(20) {
        println!(
            "worst: {} vs ptxas {:?}  {} {}",
            r.estimate, r.ptxas, r.module, r.function
        );
    }
    let (compared, exact, within) = report.estimate_counts();
    assert!(compared >= 80, "only {compared} functions compared");
    let exact = exact as f64 / compared as f64;
    let within = within as f64 / compared as f64;
    let median = report.estimate_median_ratio().unwrap();
    println!("estimate: {compared} functions, exact {exact:.3}, within ±10% {within:.3}, median {median:.3}");
    // With the corpus (328 functions when calibrated: 46.3% exact, 55.8%
    // within ±10%); test-data alone (90: 34.4%, 43.3%).
    let (exact_floor, within_floor) = if compared >= 300 {
        (0.42, 0.50)
    } else {
        (0.28, 0.38)
    };
    assert!(
        exact >= exact_floor,
        "exact share {exact:.3} < {exact_floor}"
    );
    assert!(
        within >= within_floor,
        "±10% share {within:.3} < {within_floor}"
    );
    assert!((0.9..=1.1).contains(&median), "median ratio {median:.3}");
}
