//! `cargo xtask pressure`: our maximum live R per function beside ptxas's
//! register count.
//!
//! Inputs: the shared corpus (`../shared/corpus`: every `zluda/spirv_run`
//! file that ptxas accepts, and the dealii module), the `.ptx` files of
//! test-data (examples, analysis, families, frontend, ir, emu, the pass
//! filetests' inputs) and, when `cargo xtask bench-quality` has run, its
//! kernels (`target/bench-quality/{cicc,ptxopt}`).
//! Each file is assembled with `ptxas -arch=<its .target, at least sm_75> -v`
//! (ptxas from `PTXOPT_CUDA_HOME`, else `~/.cache/ptxopt/cuda-13.0.88`); a file
//! ptxas rejects (or crashes on) is left out and counted. Our figure is the
//! maximum live R of `ptx_analysis::reg_pressure` on the lowered function,
//! and the estimate of `ptx_analysis::reg_estimate` (what ptxas will print),
//! given phase 22's unroll decision for each loop
//! (`ptx_opt::ptxas_view::unroll_factors`, as the database gives it);
//! [`ptx_analysis::pressure_report`] pairs them and summarizes both (live
//! registers: median of ours/ptxas, share within ±20%; estimate: share exact,
//! share within ±10%, median ratio), then lists the worst estimates.
//!
//! Every compared function is also written to `target/pressure.tsv` (module,
//! function, ptxas, estimate, the estimate's rule, its peak, the SM, the
//! low and high ends of the estimate's likely range), the
//! data the estimate is calibrated on. ptxas's output per file text and
//! arch is kept in `target/pressure-cache`, so a second run assembles
//! nothing.
//!
//! ptxas allocates after its own optimizations (rematerialization,
//! scheduling, address folding) and reserves registers of its own, so the
//! live-register figure is for orientation; the estimate models that.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ptx_ir::ir::Module;

use crate::{display, find_ptxas, workspace_root};

/// One input file, assembled and lowered.
struct Assembled {
    name: String,
    module: Module,
    counts: BTreeMap<String, u32>,
    /// Phase 22's factor for each loop of each function, in module order
    /// (`ptx_opt::ptxas_view::unroll_factors`).
    unrolls: Vec<Vec<(ptx_ir::ir::BlockId, u32)>>,
}

pub fn run() -> Result<(), String> {
    let ptxas = find_ptxas().ok_or(
        "ptxas not found: set PTXOPT_CUDA_HOME or run `cargo xtask test` once to install it",
    )?;
    // `$PTXOPT_CORPUS` as in the tests (a worktree has no `../shared`).
    let corpus = std::env::var_os("PTXOPT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/corpus"));
    let dealii = corpus.join("dealii/matrix_free_device_matrix_vector_01.1.sm_80.ptx");
    let mut files = Vec::new();
    files.extend(ptx_files(&corpus.join("zluda/spirv_run")));
    if dealii.exists() {
        files.push(dealii);
    }
    // Every ptxas-accepted file of test-data (rejected ones are left out by
    // ptxas below), and the bench-quality kernels when `cargo xtask
    // bench-quality` has left them.
    for dir in [
        "test-data/examples",
        "test-data/analysis",
        "test-data/families",
        "test-data/frontend",
        "test-data/ir",
        "test-data/emu",
        "test-data/passes/GeneralOptimizeEarly",
        "test-data/passes/OriBranchOpt",
        "test-data/passes/OriCopyProp",
        "test-data/passes/OriPerformLiveDeadFirst",
        "target/bench-quality/cicc",
        "target/bench-quality/ptxopt",
    ] {
        files.extend(ptx_files(&workspace_root().join(dir)));
    }
    if files.is_empty() {
        return Err("no input: neither the corpus nor test-data/examples found".into());
    }
    eprintln!(
        "xtask: assembling {} files with {}",
        files.len(),
        ptxas.display()
    );

    let root = workspace_root();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<Assembled, String>)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let result = assemble(&ptxas, path, &root);
                results.lock().expect("no poisoned lock").push((i, result));
            });
        }
    });
    let mut results = results.into_inner().expect("no poisoned lock");
    results.sort_by_key(|(i, _)| *i);

    let mut rejected = Vec::new();
    let mut assembled = Vec::new();
    for (i, result) in results {
        match result {
            Ok(a) => assembled.push(a),
            Err(why) => rejected.push(format!("{}: {why}", display(&files[i]))),
        }
    }
    let mut report = ptx_analysis::PressureReport::default();
    for a in &assembled {
        report.add_module_with(&a.name, &a.module, &a.counts, Some(&a.unrolls));
    }
    println!("{report}");
    // Every compared function, tab-separated, for calibration.
    let tsv: String = report
        .rows
        .iter()
        .filter_map(|r| {
            r.ptxas.map(|p| {
                format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    r.module,
                    r.function,
                    p,
                    r.estimate,
                    r.rule,
                    r.peak,
                    r.sm,
                    r.likely.0,
                    r.likely.1
                )
            })
        })
        .collect();
    let tsv_path = root.join("target/pressure.tsv");
    if std::fs::write(&tsv_path, tsv).is_ok() {
        eprintln!("xtask: rows in {}", display(&tsv_path));
    }
    println!("worst estimates (estimate vs ptxas):");
    for r in report.worst_estimates(15) {
        println!(
            "  {:>4} vs {:>4}  {} {}",
            r.estimate,
            r.ptxas.unwrap_or(0),
            r.module,
            r.function
        );
    }
    println!(
        "{} files assembled by ptxas, {} left out (rejected by ptxas or not lowered)",
        assembled.len(),
        rejected.len()
    );
    for r in &rejected {
        println!("  left out: {r}");
    }
    Ok(())
}

/// Lowers a file and runs `ptxas -v` on it.
fn assemble(ptxas: &Path, path: &Path, root: &Path) -> Result<Assembled, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    if !errors.is_empty() {
        return Err(format!("{} lowering errors", errors.len()));
    }
    let arch = arch_for(&module);
    // ptxas's answer depends on the text and the arch only: kept in
    // `target/pressure-cache` (a rejection is cached as an empty file).
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&arch, &text, ptxas).hash(&mut h);
        format!("{:016x}", h.finish())
    };
    let cache = root.join("target/pressure-cache").join(key);
    let output = match std::fs::read_to_string(&cache) {
        Ok(cached) => cached,
        Err(_) => {
            let out = Command::new(ptxas)
                .arg(format!("-arch={arch}"))
                .arg("-v")
                .arg(path)
                .args(["-o", "/dev/null"])
                .output()
                .map_err(|e| format!("cannot run ptxas: {e}"))?;
            let output = if out.status.success() {
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                )
            } else {
                String::new()
            };
            if let Some(dir) = cache.parent() {
                let _ = std::fs::create_dir_all(dir);
                let _ = std::fs::write(&cache, &output);
            }
            output
        }
    };
    if output.is_empty() {
        return Err(format!("ptxas -arch={arch} rejects it"));
    }
    let name = path
        .canonicalize()
        .unwrap_or_else(|_| path.to_path_buf())
        .strip_prefix(root.canonicalize().unwrap_or_else(|_| root.to_path_buf()))
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| {
            // Outside the workspace (the shared corpus): from `corpus/` on.
            let s = path.display().to_string();
            PathBuf::from(match s.find("corpus/") {
                Some(i) => s[i + "corpus/".len()..].to_string(),
                None => s,
            })
        });
    let ctx = ptx_opt::Defaults::new(sm_for(&module));
    let unrolls = module
        .functions
        .iter()
        .map(|f| {
            let g = ptx_analysis::cfg(f);
            let dom = ptx_analysis::dominators(&g);
            let forest = ptx_analysis::loops(&g, &dom);
            // As the database gives them (`ptx_db::analysis::ptxas_unrolls`).
            let rd = ptx_analysis::reaching_defs(f, &g);
            let trips = ptx_analysis::trip_counts(f, &g, &dom, &forest, &rd);
            ptx_opt::ptxas_view::unroll_factors(&ctx, f, &forest, Some(&trips))
        })
        .collect();
    Ok(Assembled {
        name: name.display().to_string(),
        module,
        unrolls,
        counts: ptx_analysis::report::parse_ptxas_register_counts(&output),
    })
}

/// The `-arch` for a module: its `.target`, at least sm_75 (ptxas 13's floor).
fn arch_for(module: &Module) -> String {
    match &module.header.target {
        Some(t) if t.sm_number() >= 75 => t.arch.replace("compute_", "sm_"),
        _ => format!("sm_{}", sm_for(module)),
    }
}

/// The SM number of [`arch_for`]: the module's, at least 75.
fn sm_for(module: &Module) -> u32 {
    module
        .header
        .target
        .as_ref()
        .map_or(75, |t| t.sm_number())
        .max(75)
}

/// The `.ptx` files directly in `dir`, sorted (none when it is absent).
fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    files
}
