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
