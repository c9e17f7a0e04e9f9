//! Every analysis runs without panicking on every PTX file of test-data
//! (rejected and syntax-error files included) and of the shared corpus, on
//! every target profile.

mod common;

use ptx_analysis::*;

/// The use-def chains (stored as shared runs) equal a walk of each block
/// from the definitions reaching its start, one instruction at a time: the
/// same definitions, each once, and the same entry-value flag.
fn check_chains(f: &ptx_ir::ir::Function, g: &Cfg, rd: &ReachingDefs) {
    use std::collections::{BTreeSet, HashMap, HashSet};
    for &b in &g.blocks {
        let mut reaching: HashMap<_, BTreeSet<_>> = HashMap::new();
        for d in rd.reaching_block_entry(b) {
            reaching.entry(rd.def(d).reg).or_default().insert(d);
        }
        let mut killed = HashSet::new();
        for &i in &f.blocks[b].insts {
            for u in rd.use_defs(i) {
                let got: BTreeSet<_> = u.defs.iter().copied().collect();
                assert_eq!(got.len(), u.defs.len(), "a definition twice in a chain");
                let expected = reaching.get(&u.reg).cloned().unwrap_or_default();
                assert_eq!(got, expected, "{}: {}", f.name(), f.regs[u.reg].name);
                let from_entry = !killed.contains(&u.reg) && rd.entry_value_reaches(b, u.reg);
                assert_eq!(
                    u.from_entry,
                    from_entry,
                    "{}: {}",
                    f.name(),
                    f.regs[u.reg].name
                );
            }
            for &d in rd.defs_of_inst(i) {
                let def = rd.def(d);
                let set = reaching.entry(def.reg).or_default();
                if !def.guarded {
                    set.clear();
                    killed.insert(def.reg);
                }
                set.insert(d);
            }
        }
    }
}

fn analyze_all(module: &ptx_ir::ir::Module, target: &Target) {
    for f in &module.functions {
        let g = cfg(f);
        let dom = dominators(&g);
        let pdom = post_dominators(&g);
        let _ = dominance_frontiers(&g, &dom);
        let lf = loops(&g, &dom);
        let rd = reaching_defs(f, &g);
        check_chains(f, &g, &rd);
        let lv = liveness(f, &g);
        let rp = reg_pressure(f, &g, &lv);
        let tc = trip_counts(f, &g, &dom, &lf, &rd);
        assert_eq!(tc.loops.len(), lf.loops.len());
        let lat = latency(f, target);
        let _ = loop_mii(f, &lf, &lat, target);
        let vn = value_numbering(f, &g);
        let _ = vn.redundant(&g, &dom);
        // Invariants that hold on any input.
        for &b in &g.rpo {
            assert!(dom.dominates(g.entry.unwrap(), b));
            assert!(!pdom.contains(b) || pdom.dominates(b, b));
        }
        for l in &lf.loops {
            assert!(l.blocks.iter().all(|&b| dom.dominates(l.header, b)));
            assert!(l.latches.iter().all(|&t| l.contains(t)));
        }
        assert!(rp.max.r.value <= 4 * f.regs.len() as u32);
    }
}

#[test]
fn analyses_do_not_panic() {
    let mut files = common::ptx_files_recursive(&common::test_data());
    if let Some(corpus) = common::corpus_dir() {
        files.extend(common::ptx_files_recursive(&corpus));
    }
    assert!(files.len() > 50, "only {} files", files.len());
    let mut functions = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let parse = ptx_syntax::parse(&text);
        let (module, _) = ptx_ir::lower_module(&parse);
        functions += module.functions.len();
        let target = report::module_target(&module);
        analyze_all(&module, &target);
        // The report runs everything again; check it on small files only.
        if text.len() < 200_000 {
            let _ = module_report(&module, Some(&Target::SM75));
        }
    }
    eprintln!("analyzed {functions} functions in {} files", files.len());
}
