//! `cargo xtask regs`: ptxas registers of `ptxopt build`'s output against
//! those of its input, per function, over the shared corpus
//! (`$PTXOPT_CORPUS`, default `../shared/corpus`), `test-data/examples`,
//! and every CUDA source of `test-data/cuda` (and `bench/`) compiled by
//! nvcc 13.0.88 `-O3` (`-ptx -arch=sm_90`): for each input x that ptxas
//! accepts, `ptxas -v` on x and on ptxopt(x) (the release binary, default
//! pipeline), with x's `.target` (at least sm_75). Printed: the share of
//! functions with regs(ptxopt(x)) <= regs(x) (goal: at least 99%), the
//! functions that got more registers, and those that spill where x did not.
//!
//! Then the pressure-reduction check of the register-pressure issue: every
//! file with a function over 24 registers is built again with a register
//! limit L = 3/4 of its largest count (`REGS_LIMIT_PERCENT`, default 75;
//! even, at least 16): `ptxopt build
//! --maxrregcount L` (the cicc pressure passes aim under it) and `ptxas
//! -maxrregcount L` on both x and ptxopt(x). For every function whose count
//! was over L, or that spilled without a limit, the spill bytes (stores and
//! loads) of ptxopt(x) are compared with those of x: the share not more
//! (goal: all), and, of the functions where x spills, the share where
//! ptxopt(x) spills less (goal: at least half); and the sums.
//! `REGS_LIMITED_ALL=1` prints every bound function.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rayon::prelude::*;

use crate::{display, find_ptxas, workspace_root};

/// One input: before (x) and after (ptxopt(x)), or why it was left out;
/// then, for a file with a function over [`LIMITED_FROM`] registers, the same
/// under a register limit (the limit, the functions it binds, x, ptxopt(x)).
type Compared = (
    PathBuf,
    Result<(Counts, Counts), String>,
    Option<Result<Limited, String>>,
);

/// A file's comparison under `--maxrregcount`.
struct Limited {
    limit: u32,
    /// Functions over the limit without it, or spilling without it.
    bound: Vec<String>,
    before: Counts,
    after: Counts,
}

/// Files whose largest function has more registers than this are built
/// again under a limit.
const LIMITED_FROM: u32 = 24;

/// Registers and spill bytes per function of one `ptxas -v` run.
struct Counts {
    regs: BTreeMap<String, u32>,
    spills: BTreeMap<String, u64>,
}

pub fn run() -> Result<(), String> {
    if let Some(result) = crate::rerun_in_release("regs", &[]) {
        return result;
    }
    let ptxas = find_ptxas().ok_or("ptxas not found: set PTXOPT_CUDA_HOME")?;
    let ptxopt = crate::bench_analyze::build_ptxopt()?;
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let work = target.join("regs");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("nvcc")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(work.join("out")).map_err(|e| e.to_string())?;

    let mut inputs: Vec<PathBuf> = Vec::new();
    let corpus = std::env::var_os("PTXOPT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus"));
    collect(&corpus, &mut inputs);
    collect(&root.join("test-data/examples"), &mut inputs);
    // nvcc -O3 of the CUDA sources.
    let nvcc = ptxas.with_file_name("nvcc");
    if nvcc.exists() {
        let sources = crate::bench_quality::sources()?;
        let made: Vec<Result<PathBuf, String>> = sources
            .par_iter()
            .map(|cu| {
                let stem = cu
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let out = work.join("nvcc").join(format!("{stem}.O3.ptx"));
                let o = Command::new(&nvcc)
                    .args(["-ptx", "-arch=sm_90", "-O3"])
                    .arg(cu)
                    .arg("-o")
                    .arg(&out)
                    .output()
                    .map_err(|e| e.to_string())?;
                if o.status.success() {
                    Ok(out)
                } else {
                    Err(format!("nvcc failed on {}", cu.display()))
                }
            })
            .collect();
        for m in made {
            inputs.push(m?);
        }
    } else {
        eprintln!("regs: nvcc not found beside ptxas: test-data/cuda left out");
    }
    eprintln!("regs: {} input files", inputs.len());

    let results: Vec<Compared> = inputs
        .par_iter()
        .enumerate()
        .map(|(k, x)| {
            let r = compare(
                &ptxas,
                &ptxopt,
                x,
                &work.join("out").join(format!("{k}.ptx")),
                None,
            );
            let limited = r.as_ref().ok().and_then(|(before, _)| {
                let largest = before.regs.values().copied().max()?;
                if largest <= LIMITED_FROM {
                    return None;
                }
                let limit = ((largest * limit_percent() / 100) & !1).max(16);
                let bound: Vec<String> = before
                    .regs
                    .iter()
                    .filter(|(name, &n)| {
                        n > limit || before.spills.get(*name).is_some_and(|&b| b > 0)
                    })
                    .map(|(name, _)| name.clone())
                    .collect();
                Some(
                    compare(
                        &ptxas,
                        &ptxopt,
                        x,
                        &work.join("out").join(format!("{k}.limited.ptx")),
                        Some(limit),
                    )
                    .map(|(before, after)| Limited {
                        limit,
                        bound,
                        before,
                        after,
                    }),
                )
            });
            (x.clone(), r, limited)
        })
        .collect();
    let mut functions = 0usize;
    let mut not_worse = 0usize;
    let mut worse: Vec<String> = Vec::new();
    let mut new_spills: Vec<String> = Vec::new();
    let mut fewer = 0usize;
    let (mut sum_x, mut sum_p) = (0u64, 0u64);
    let mut left_out = 0usize;
    for (x, r, _) in &results {
        let Ok((before, after)) = r else {
            left_out += 1;
            continue;
        };
        for (name, &rx) in &before.regs {
            let Some(&rp) = after.regs.get(name) else {
                continue;
            };
            functions += 1;
            sum_x += rx as u64;
            sum_p += rp as u64;
            if rp <= rx {
                not_worse += 1;
            } else {
                worse.push(format!("{}: {name}: {rx} -> {rp}", display(x)));
            }
            if rp < rx {
                fewer += 1;
            }
            let (sx, sp) = (
                before.spills.get(name).copied().unwrap_or(0),
                after.spills.get(name).copied().unwrap_or(0),
            );
            if sp > 0 && sx == 0 {
                new_spills.push(format!(
                    "{}: {name}: spills {sp} bytes (x: none)",
                    display(x)
                ));
            }
        }
    }
    println!(
        "{} files compared ({left_out} left out: ptxas rejects the input, or ptxopt does not build it)",
        results.len() - left_out
    );
    println!(
        "functions: {functions}; regs(ptxopt(x)) <= regs(x): {not_worse} ({:.2}%, goal >= 99%); fewer: {fewer}; more: {}",
        not_worse as f64 * 100.0 / functions.max(1) as f64,
        worse.len()
    );
    println!("registers summed: x {sum_x}, ptxopt(x) {sum_p}");
    println!(
        "new spills (ptxopt(x) spills, x did not): {}",
        new_spills.len()
    );
    for w in worse.iter().chain(new_spills.iter()).take(40) {
        println!("  {w}");
    }
    limited_summary(&results);
    Ok(())
}

/// The register limit as a percentage of a file's largest count:
/// `REGS_LIMIT_PERCENT` (default 75).
fn limit_percent() -> u32 {
    std::env::var("REGS_LIMIT_PERCENT")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&p: &u32| (10..100).contains(&p))
        .unwrap_or(75)
}

/// The pressure-reduction lines (see the module doc).
fn limited_summary(results: &[Compared]) {
    let (mut bound, mut not_more, mut lower, mut spilling) = (0usize, 0usize, 0usize, 0usize);
    let (mut sum_x, mut sum_p) = (0u64, 0u64);
    let mut more: Vec<String> = Vec::new();
    let mut left: Vec<String> = Vec::new();
    let mut files = 0usize;
    for (x, _, limited) in results {
        let Some(limited) = limited else {
            continue;
        };
        let l = match limited {
            Ok(l) => l,
            Err(e) => {
                left.push(format!("{}: {e}", display(x)));
                continue;
            }
        };
        files += 1;
        for name in &l.bound {
            if !l.after.regs.contains_key(name) {
                continue;
            }
            bound += 1;
            let sx = l.before.spills.get(name).copied().unwrap_or(0);
            let sp = l.after.spills.get(name).copied().unwrap_or(0);
            sum_x += sx;
            sum_p += sp;
            if sx > 0 {
                spilling += 1;
            }
            if sp <= sx {
                not_more += 1;
            } else {
                more.push(format!(
                    "{}: {name}: -maxrregcount {}: {sx} -> {sp} spill bytes",
                    display(x),
                    l.limit
                ));
            }
            if sp < sx {
                lower += 1;
            }
            if std::env::var_os("REGS_LIMITED_ALL").is_some() {
                eprintln!(
                    "limited {}: {name}: -maxrregcount {}: regs {:?} -> {:?}, spill bytes {sx} -> {sp}",
                    display(x),
                    l.limit,
                    l.before.regs.get(name),
                    l.after.regs.get(name)
                );
            }
        }
    }
    println!(
        "under a register limit ({}% of each file's largest count, {files} files with a function over {LIMITED_FROM} registers): \
         {bound} functions bound by it; spill bytes of ptxopt(x) <= x: {not_more} ({:.1}%, goal 100%); \
         of the {spilling} where x spills, ptxopt(x) spills less: {lower} ({:.1}%, goal >= 50%)",
        limit_percent(),
        not_more as f64 * 100.0 / bound.max(1) as f64,
        lower as f64 * 100.0 / spilling.max(1) as f64,
    );
    println!("spill bytes summed under the limit: x {sum_x}, ptxopt(x) {sum_p}");
    for m in more.iter().take(40) {
        println!("  {m}");
    }
    for l in &left {
        println!("  left out under the limit: {l}");
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            if !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "ptx") {
            out.push(p);
        }
    }
}

fn ptxas_counts(
    ptxas: &Path,
    file: &Path,
    arch: &str,
    limit: Option<u32>,
) -> Result<Counts, String> {
    let o = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .args(limit.map(|l| format!("-maxrregcount={l}")))
        .arg(file)
        .args(["-o", "/dev/null"])
        .output()
        .map_err(|e| e.to_string())?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if !o.status.success() {
        return Err(format!("ptxas rejects {}", file.display()));
    }
    Ok(Counts {
        regs: ptx_analysis::report::parse_ptxas_register_counts(&text),
        spills: crate::bench_quality::parse_ptxas_spill_bytes(&text),
    })
}

/// ptxas counts of `x` and of `ptxopt build x` (written to `out`), both
/// under `limit` when given (`--maxrregcount` for both tools).
fn compare(
    ptxas: &Path,
    ptxopt: &Path,
    x: &Path,
    out: &Path,
    limit: Option<u32>,
) -> Result<(Counts, Counts), String> {
    let text = std::fs::read_to_string(x).map_err(|e| e.to_string())?;
    let arch = arch_of(&text);
    let before = ptxas_counts(ptxas, x, &arch, limit)?;
    let o = Command::new(ptxopt)
        .arg("build")
        .arg(x)
        .arg("-o")
        .arg(out)
        .args(["-q", "--jobs", "1"])
        .args(limit.map(|l| format!("--maxrregcount={l}")))
        .output()
        .map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!("ptxopt does not build {}", x.display()));
    }
    let after = ptxas_counts(ptxas, out, &arch, limit)
        .map_err(|e| format!("the OUTPUT is rejected: {e}"))?;
    Ok((before, after))
}

/// The `-arch` for a PTX text: its `.target`, at least sm_75.
fn arch_of(text: &str) -> String {
    let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    match &module.header.target {
        Some(t) if t.sm_number() >= 75 => t.arch.replace("compute_", "sm_"),
        _ => "sm_75".into(),
    }
}
