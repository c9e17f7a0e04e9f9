//! `cargo xtask bench-quality [--format text|json]`: how good is the code?
//!
//! Every CUDA source of `test-data/cuda/` and `test-data/cuda/bench/` is
//! compiled by nvcc 13.0.88 twice, unoptimized (`-ptx -arch=sm_90 -Xcicc
//! -O0`) and optimized (`-ptx -arch=sm_90 -O3`), into
//! `target/bench-quality/cicc/`; `ptxopt build` (the release binary, default
//! pipeline) turns both into `target/bench-quality/ptxopt/`. That gives four
//! versions of every kernel: `O0`, `ptxopt(O0)`, `O3`, `ptxopt(O3)`. Per
//! kernel and version:
//!
//! - **static**: instructions in the kernel's body (the IR's count, as
//!   `ptxopt verify` prints it);
//! - **dynamic**: thread-instructions on the emulator, summed over the
//!   launch shapes of [`ptx_emu::diff`] (1x32, 2x64, 1x256), with its
//!   generated inputs: `O0` against `ptxopt(O0)` and `O3` against
//!   `ptxopt(O3)` through [`ptx_emu::diff::verify_sources`], so each pair is
//!   also checked for equal results; the scalar arguments chosen for `O0`
//!   and `O3` are compared, and a kernel whose versions ran on different
//!   inputs is reported;
//! - **regs** and **spill**: `ptxas -v -arch=sm_90`'s `Used N registers` and
//!   spill stores plus spill loads in bytes;
//! - **sass**: instructions of the kernel in `cuobjdump -sass` of the cubin
//!   ptxas wrote (the kernel's own code, not that of functions it calls;
//!   `NOP` padding not counted).
//!
//! Why `-Xcicc -O0`: nvcc then hands cicc `-O0` alone (`nvcc -dryrun`; cicc
//! otherwise optimizes at its default `-O3`), and the PTX is what an
//! unoptimizing front end writes, all of it accepted by ptxas: every value
//! through registers but recomputed per use, generic loads and stores, no
//! `fma` contraction, branches around each `if`, atomics through called
//! wrappers (`__fAtomicAdd`). nvcc, and ptxas with cuobjdump and the
//! emulator, run per source on rayon's threads (one per core).
//!
//! Then the median of each column over the kernels, and the medians of the
//! per-kernel ratios of dynamic thread-instructions `ptxopt(O0)/O3` and
//! `ptxopt(O3)/O3`. A kernel the emulator cannot run (or that fails or
//! differs) is listed with the reason and left out of the dynamic medians
//! only. A benchmark, not a test.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ptx_emu::diff::{self, Outcome, Side, VerifyOptions};
use ptx_ir::ir::{FunctionKind, Module};
use rayon::prelude::*;

/// The four versions of a kernel, in table order.
const VERSIONS: [&str; 4] = ["O0", "ptxopt(O0)", "O3", "ptxopt(O3)"];

/// Thread-instructions per launch before a kernel counts as failed.
const STEP_LIMIT: u64 = 100_000_000;

/// Measurements of one version of a kernel.
#[derive(Clone, Debug, Default, PartialEq)]
struct Metrics {
    static_insts: Option<u64>,
    dynamic: Option<u64>,
    registers: Option<u64>,
    spill_bytes: Option<u64>,
    sass: Option<u64>,
}

/// One kernel: its source and the four versions' metrics.
#[derive(Clone, Debug)]
struct Row {
    source: String,
    kernel: String,
    versions: [Metrics; 4],
    /// Why the dynamic counts are missing (or suspect), if they are.
    problem: Option<String>,
}

fn side(c: &Compiled) -> Side<'_> {
    Side {
        module: &c.module,
        text: Some(&c.text),
    }
}

/// One compiled version of a source file: its PTX path, the lowered module
/// and text, ptxas and cuobjdump facts.
struct Compiled {
    text: String,
    module: Module,
    registers: BTreeMap<String, u32>,
    spills: BTreeMap<String, u64>,
    sass: BTreeMap<String, u64>,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let os_args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    let json = match args {
        [] => false,
        [f, v] if f == "--format" && v == "text" => false,
        [f, v] if f == "--format" && v == "json" => true,
        _ => return Err("usage: cargo xtask bench-quality [--format text|json]".into()),
    };
    if let Some(result) = crate::rerun_in_release("bench-quality", &os_args) {
        return result;
    }
    let start = Instant::now();
    let home = crate::cuda_home()?
        .or_else(|| crate::find_ptxas().and_then(|p| Some(p.parent()?.parent()?.to_path_buf())))
        .ok_or("bench-quality needs the CUDA 13.0.88 tools (set PTXOPT_CUDA_HOME)")?;
    let tool = |name: &str| -> Result<PathBuf, String> {
        let path = home.join("bin").join(name);
        if path.exists() {
            Ok(path)
        } else {
            Err(format!("{} is missing", path.display()))
        }
    };
    let (nvcc, ptxas, cuobjdump) = (tool("nvcc")?, tool("ptxas")?, tool("cuobjdump")?);
    let ptxopt = crate::bench_analyze::build_ptxopt()?;
    let sources = sources()?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"));
    let out = target.join("bench-quality");
    let (cicc_dir, opt_dir) = (out.join("cicc"), out.join("ptxopt"));
    for dir in [&cicc_dir, &opt_dir] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    eprintln!(
        "bench-quality: {} CUDA sources, nvcc -O0 and -O3, into {}",
        sources.len(),
        out.display()
    );
    // nvcc, then one `ptxopt build` for every PTX file.
    let levels = [("O0", &["-Xcicc", "-O0"][..]), ("O3", &["-O3"][..])];
    let nvcc_start = Instant::now();
    let compiled: Result<Vec<()>, String> = sources
        .par_iter()
        .map(|cu| {
            let stem = stem(cu);
            for (level, flags) in levels {
                let ptx = cicc_dir.join(format!("{stem}.{level}.ptx"));
                let mut cmd = Command::new(&nvcc);
                cmd.args(["-ptx", "-arch=sm_90"])
                    .args(flags)
                    .arg(cu)
                    .arg("-o")
                    .arg(&ptx);
                run_tool(&mut cmd, cu)?;
            }
            Ok(())
        })
        .collect();
    compiled?;
    let nvcc_seconds = nvcc_start.elapsed().as_secs_f64();
    let cicc_files = sources.iter().flat_map(|cu| {
        let stem = stem(cu);
        levels.map(|(level, _)| cicc_dir.join(format!("{stem}.{level}.ptx")))
    });
    let mut cmd = Command::new(&ptxopt);
    cmd.arg("build")
        .args(cicc_files)
        .arg("--out-dir")
        .arg(&opt_dir);
    run_tool(&mut cmd, &cicc_dir)?;

    let measure_start = Instant::now();
    let per_source: Result<Vec<Vec<Row>>, String> = sources
        .par_iter()
        .map(|cu| {
            let stem = stem(cu);
            let paths = [
                cicc_dir.join(format!("{stem}.O0.ptx")),
                opt_dir.join(format!("{stem}.O0.ptx")),
                cicc_dir.join(format!("{stem}.O3.ptx")),
                opt_dir.join(format!("{stem}.O3.ptx")),
            ];
            let mut compiled = Vec::new();
            for path in &paths {
                compiled.push(compile(path, &ptxas, &cuobjdump)?);
            }
            Ok(measure(&display_source(cu), &compiled))
        })
        .collect();
    let rows: Vec<Row> = per_source?.into_iter().flatten().collect();
    eprintln!(
        "bench-quality: nvcc {nvcc_seconds:.1} s; ptxas, cuobjdump and the emulator {:.1} s",
        measure_start.elapsed().as_secs_f64()
    );
    let seconds = start.elapsed().as_secs_f64();
    if json {
        println!("{}", to_json(&rows, seconds));
    } else {
        print!("{}", to_text(&rows, seconds));
    }
    Ok(())
}

/// The `.cu` files of `dir`, sorted.
pub(crate) fn cu_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    Ok(files)
}

/// `test-data/cuda/*.cu` then `test-data/cuda/bench/*.cu`, each sorted;
/// file stems must be unique (they name the outputs).
pub(crate) fn sources() -> Result<Vec<PathBuf>, String> {
    let root = crate::workspace_root().join("test-data/cuda");
    let mut all = Vec::new();
    for dir in [root.clone(), root.join("bench")] {
        all.extend(cu_files(&dir)?);
    }
    let mut seen = BTreeMap::new();
    for cu in &all {
        if let Some(other) = seen.insert(stem(cu), cu) {
            return Err(format!(
                "{} and {} have the same name; bench-quality names its outputs by it",
                other.display(),
                cu.display()
            ));
        }
    }
    Ok(all)
}

pub(crate) fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `bench/gemm.cu` or `saxpy.cu`: the path under `test-data/cuda/`.
pub(crate) fn display_source(cu: &Path) -> String {
    let root = crate::workspace_root().join("test-data/cuda");
    cu.strip_prefix(&root)
        .unwrap_or(cu)
        .to_string_lossy()
        .into_owned()
}

/// Runs `cmd`; on failure, an error naming `file` with the tool's stderr.
pub(crate) fn run_tool(cmd: &mut Command, file: &Path) -> Result<String, String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {program} (for {}): {e}", file.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!(
            "{program} failed on {} ({}):\n{stderr}",
            file.display(),
            out.status
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned() + &stderr)
}

/// Lowers `ptx`, assembles it with `ptxas -v` and disassembles the cubin.
fn compile(ptx: &Path, ptxas: &Path, cuobjdump: &Path) -> Result<Compiled, String> {
    let text =
        std::fs::read_to_string(ptx).map_err(|e| format!("cannot read {}: {e}", ptx.display()))?;
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    if let Some(e) = errors.first() {
        return Err(format!("{}: does not lower: {}", ptx.display(), e.message));
    }
    let cubin = ptx.with_extension("cubin");
    let mut cmd = Command::new(ptxas);
    cmd.args(["-v", "-arch=sm_90"])
        .arg(ptx)
        .arg("-o")
        .arg(&cubin);
    let info = run_tool(&mut cmd, ptx)?;
    let mut cmd = Command::new(cuobjdump);
    cmd.arg("-sass").arg(&cubin);
    let sass = run_tool(&mut cmd, &cubin)?;
    Ok(Compiled {
        text,
        module,
        registers: ptx_analysis::report::parse_ptxas_register_counts(&info),
        spills: parse_ptxas_spill_bytes(&info),
        sass: count_sass_instructions(&sass),
    })
}

/// The kernels of one source: static counts, ptxas and SASS figures, and
/// the emulator's dynamic counts.
fn measure(source: &str, versions: &[Compiled]) -> Vec<Row> {
    let kernels: Vec<String> = versions[2]
        .module
        .functions
        .iter()
        .filter(|f| f.sig.kind == FunctionKind::Entry && !f.layout.is_empty())
        .map(|f| f.sig.name.clone())
        .collect();
    let opts = VerifyOptions {
        step_limit: STEP_LIMIT,
        ..VerifyOptions::default()
    };
    let mut rows = Vec::new();
    for kernel in kernels {
        let mut metrics: [Metrics; 4] = Default::default();
        for (m, c) in metrics.iter_mut().zip(versions) {
            m.static_insts = c
                .module
                .functions
                .iter()
                .find(|f| f.sig.name == kernel)
                .map(|f| f.insts_in_order().count() as u64);
            m.registers = c.registers.get(&kernel).map(|&n| n as u64);
            m.spill_bytes = c.spills.get(&kernel).copied();
            m.sass = c.sass.get(&kernel).copied();
        }
        let mut problems = Vec::new();
        let mut inputs = Vec::new();
        for (pair, level) in [(0, "O0"), (2, "O3")] {
            let report = diff::verify_sources(
                side(&versions[pair]),
                side(&versions[pair + 1]),
                &kernel,
                &opts,
            );
            if let Some(p) = &report.problem {
                problems.push(format!("{level}: {p}"));
                continue;
            }
            let (mut before, mut after) = (0u64, 0u64);
            let mut ok = true;
            for run in &report.runs {
                match &run.outcome {
                    Outcome::Equal {
                        original,
                        optimized,
                    } => {
                        before += original;
                        after += optimized;
                    }
                    Outcome::BothStopped { error } => {
                        problems.push(format!("{level}: both kernels stop at {error}"));
                        ok = false;
                        break;
                    }
                    Outcome::Skipped(why) => {
                        problems.push(format!("{level}: the emulator cannot run it: {why}"));
                        ok = false;
                        break;
                    }
                    Outcome::OutputDifferent {
                        original,
                        optimized,
                    } => {
                        problems.push(format!(
                            "{level}: ptxopt changed the printf output: `{original}` vs `{optimized}`"
                        ));
                        ok = false;
                        break;
                    }
                    Outcome::Different(d) => {
                        problems.push(format!("{level}: ptxopt changed the results: {d}"));
                        ok = false;
                        break;
                    }
                    Outcome::Error { which, error } => {
                        problems.push(format!("{level}: error in the {which} kernel: {error}"));
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                metrics[pair].dynamic = Some(before);
                metrics[pair + 1].dynamic = Some(after);
            }
            inputs.push(
                report
                    .runs
                    .iter()
                    .map(|r| format!("grid {:?} block {:?} {}", r.grid, r.block, r.scalars))
                    .collect::<Vec<_>>(),
            );
        }
        if problems.is_empty() && inputs.len() == 2 && inputs[0] != inputs[1] {
            // Same inputs for all four versions, or no comparison.
            problems.push(format!(
                "O0 and O3 ran on different inputs ({:?} / {:?})",
                inputs[0], inputs[1]
            ));
            for m in &mut metrics {
                m.dynamic = None;
            }
        }
        rows.push(Row {
            source: source.to_string(),
            kernel,
            versions: metrics,
            problem: (!problems.is_empty()).then(|| problems.join("; ")),
        });
    }
    rows
}

/// Per function, spill stores plus spill loads in bytes, from `ptxas -v`'s
/// `N bytes stack frame, S bytes spill stores, L bytes spill loads` line
/// under `Function properties for NAME`.
pub(crate) fn parse_ptxas_spill_bytes(output: &str) -> BTreeMap<String, u64> {
    let mut spills = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in output.lines() {
        if let Some(rest) = line.split("Function properties for ").nth(1) {
            current = Some(rest.trim().to_string());
        } else if line.contains("bytes spill stores") {
            let number_before = |what: &str| -> Option<u64> {
                let before = line.split(what).next()?;
                before.split_whitespace().last()?.parse().ok()
            };
            if let (Some(name), Some(stores), Some(loads)) = (
                current.as_ref(),
                number_before(" bytes spill stores"),
                number_before(" bytes spill loads"),
            ) {
                spills.insert(name.clone(), stores + loads);
            }
        }
    }
    spills
}

/// Per function of `cuobjdump -sass` output (`Function : NAME`), the
/// instruction lines (`/*0040*/  IMAD R0, R0, UR4, R3 ;`) other than `NOP`.
fn count_sass_instructions(sass: &str) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in sass.lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix("Function : ") {
            current = Some(name.trim().to_string());
            counts.insert(name.trim().to_string(), 0);
            continue;
        }
        let Some(name) = &current else { continue };
        let Some(rest) = trimmed.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, inst)) = rest.split_once("*/") else {
            continue;
        };
        // The encoding follows as a comment: `LDC R1, c[0x0][0x28] ; /* 0x... */`.
        let inst = inst.split("/*").next().unwrap_or("").trim();
        let is_address = !addr.is_empty() && addr.chars().all(|c| c.is_ascii_hexdigit());
        // A predicate guard (`@P0 EXIT ;`) precedes the opcode.
        let opcode = inst
            .split_whitespace()
            .find(|w| !w.starts_with('@'))
            .unwrap_or("")
            .trim_end_matches(';');
        if is_address && inst.ends_with(';') && !opcode.is_empty() && opcode != "NOP" {
            *counts.entry(name.clone()).or_insert(0) += 1;
        }
    }
    counts
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// The metrics by column name, in table order.
fn columns(m: &Metrics) -> [(&'static str, Option<u64>); 5] {
    [
        ("static", m.static_insts),
        ("dynamic", m.dynamic),
        ("regs", m.registers),
        ("spill", m.spill_bytes),
        ("sass", m.sass),
    ]
}

/// Per column and version, the median over the kernels that have it.
fn medians(rows: &[Row]) -> Vec<(&'static str, [Option<f64>; 4])> {
    let names = columns(&Metrics::default()).map(|c| c.0);
    names
        .iter()
        .enumerate()
        .map(|(ci, &name)| {
            let per_version = std::array::from_fn(|v| {
                median(
                    rows.iter()
                        .filter_map(|r| columns(&r.versions[v])[ci].1)
                        .map(|x| x as f64)
                        .collect(),
                )
            });
            (name, per_version)
        })
        .collect()
}

/// Median over the kernels of dynamic(`num`) / dynamic(O3).
fn median_ratio(rows: &[Row], num: usize) -> Option<f64> {
    median(
        rows.iter()
            .filter_map(|r| {
                let a = r.versions[num].dynamic?;
                let b = r.versions[2].dynamic.filter(|&b| b > 0)?;
                Some(a as f64 / b as f64)
            })
            .collect(),
    )
}

fn cell(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |v| v.to_string())
}

fn to_text(rows: &[Row], seconds: f64) -> String {
    let mut s = String::new();
    let kw = rows
        .iter()
        .map(|r| r.kernel.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let widths = [5, 10, 4, 5, 5];
    let _ = write!(s, "{:kw$}", "kernel");
    for ((name, _), w) in columns(&Metrics::default()).iter().zip(widths) {
        let group = 4 * (w + 1) - 1;
        let _ = write!(s, " | {name:^group$}");
    }
    s.push('\n');
    let _ = write!(s, "{:kw$}", "");
    for w in widths {
        let labels = ["O0", "p(O0)", "O3", "p(O3)"];
        let joined: Vec<String> = labels.iter().map(|l| format!("{l:>w$}")).collect();
        let _ = write!(s, " | {}", joined.join(" "));
    }
    s.push('\n');
    for r in rows {
        let _ = write!(s, "{:kw$}", r.kernel);
        for (ci, w) in widths.iter().enumerate() {
            let joined: Vec<String> = r
                .versions
                .iter()
                .map(|m| format!("{:>w$}", cell(columns(m)[ci].1)))
                .collect();
            let _ = write!(s, " | {}", joined.join(" "));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\nversions: O0 = nvcc -Xcicc -O0, p(O0) = ptxopt build of O0, O3 = nvcc -O3, p(O3) = ptxopt build of O3 (sm_90)"
    );
    let _ = writeln!(
        s,
        "static: PTX instructions; dynamic: thread-instructions on the emulator (shapes 1x32, 2x64, 1x256 summed); regs, spill (bytes): ptxas -v; sass: cuobjdump -sass instructions"
    );
    let _ = writeln!(s, "\nmedians over {} kernels:", rows.len());
    for (name, per) in medians(rows) {
        let vals: Vec<String> = VERSIONS
            .iter()
            .zip(per)
            .map(|(v, m)| format!("{v} {}", m.map_or("-".into(), |m| format!("{m:.1}"))))
            .collect();
        let _ = writeln!(s, "  {name:8} {}", vals.join(", "));
    }
    let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.3}"));
    let ran = rows
        .iter()
        .filter(|r| r.versions[2].dynamic.is_some())
        .count();
    let _ = writeln!(
        s,
        "  dynamic ratios (median over the {ran} kernels the emulator ran): O0/O3 {}, ptxopt(O0)/O3 {}, ptxopt(O3)/O3 {}",
        ratio(median_ratio(rows, 0)),
        ratio(median_ratio(rows, 1)),
        ratio(median_ratio(rows, 3)),
    );
    let problems: Vec<&Row> = rows.iter().filter(|r| r.problem.is_some()).collect();
    if !problems.is_empty() {
        let _ = writeln!(s, "\nkernels without dynamic counts:");
        for r in problems {
            let _ = writeln!(
                s,
                "  {} ({}): {}",
                r.kernel,
                r.source,
                r.problem.as_deref().unwrap_or("")
            );
        }
    }
    let _ = writeln!(s, "\n{} kernels in {seconds:.1} s", rows.len());
    s
}

fn to_json(rows: &[Row], seconds: f64) -> String {
    use serde_json::{json, Map, Value};
    let metrics = |m: &Metrics| {
        let mut o = Map::new();
        for (name, v) in columns(m) {
            o.insert(name.to_string(), v.map_or(Value::Null, Value::from));
        }
        Value::Object(o)
    };
    let kernels: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut versions = Map::new();
            for (name, m) in VERSIONS.iter().zip(&r.versions) {
                versions.insert(name.to_string(), metrics(m));
            }
            json!({
                "source": r.source,
                "kernel": r.kernel,
                "versions": versions,
                "problem": r.problem,
            })
        })
        .collect();
    let mut med = Map::new();
    for (name, per) in medians(rows) {
        let mut o = Map::new();
        for (v, m) in VERSIONS.iter().zip(per) {
            o.insert(v.to_string(), m.map_or(Value::Null, Value::from));
        }
        med.insert(name.to_string(), Value::Object(o));
    }
    let ratio = |r: Option<f64>| r.map_or(Value::Null, Value::from);
    let doc = json!({
        "kernels": kernels,
        "medians": med,
        "dynamic_ratios": {
            "O0/O3": ratio(median_ratio(rows, 0)),
            "ptxopt(O0)/O3": ratio(median_ratio(rows, 1)),
            "ptxopt(O3)/O3": ratio(median_ratio(rows, 3)),
        },
        "seconds": seconds,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spill_bytes_per_function() {
        let out = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n\
            ptxas info    : Function properties for k\n    \
            8 bytes stack frame, 12 bytes spill stores, 20 bytes spill loads\n\
            ptxas info    : Used 255 registers, used 0 barriers\n\
            ptxas info    : Function properties for __fAtomicAdd\n    \
            0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
        let s = parse_ptxas_spill_bytes(out);
        assert_eq!(s.get("k"), Some(&32));
        assert_eq!(s.get("__fAtomicAdd"), Some(&0));
        assert_eq!(
            ptx_analysis::report::parse_ptxas_register_counts(out).get("k"),
            Some(&255)
        );
    }

    #[test]
    fn sass_instructions_per_function() {
        let sass = "\n\tcode for sm_90\n\t.target\tsm_90\n\n\t\tFunction : saxpy\n\
            \t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n\
            \x20       /*0000*/                   LDC R1, c[0x0][0x28] ;      /* 0x00000a00ff017b82 */\n\
            \x20                                                             /* 0x000fe20000000800 */\n\
            \x20       /*0070*/               @P0 EXIT ;                      /* 0x000000000000094d */\n\
            \x20       /*0080*/                   BRA 0x80;                   /* 0x0000000000007947 */\n\
            \x20       /*0090*/                   NOP;                        /* 0x0000000000007918 */\n\
            \t\t..........\n\n\t\tFunction : other\n\
            \x20       /*0000*/                   EXIT ;                      /* 0x000000000000794d */\n";
        let c = count_sass_instructions(sass);
        assert_eq!(c.get("saxpy"), Some(&3));
        assert_eq!(c.get("other"), Some(&1));
    }

    #[test]
    fn medians_and_ratios() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        let row = |d: [u64; 4]| Row {
            source: "x.cu".into(),
            kernel: "k".into(),
            versions: d.map(|d| Metrics {
                dynamic: Some(d),
                ..Metrics::default()
            }),
            problem: None,
        };
        let rows = [row([40, 30, 10, 10]), row([90, 60, 30, 15])];
        assert_eq!(median_ratio(&rows, 1), Some(2.5));
        assert_eq!(median_ratio(&rows, 3), Some(0.75));
        let text = to_text(&rows, 1.0);
        assert!(text.contains("ptxopt(O0)/O3 2.500"), "{text}");
        // A kernel the emulator cannot run is listed with the reason and
        // left out of the dynamic medians only.
        let mut skipped = row([0; 4]);
        skipped.kernel = "tex_kernel".into();
        skipped.versions = Default::default();
        skipped.versions[2].static_insts = Some(7);
        skipped.problem = Some("O3: the emulator cannot run it: tex".into());
        let rows = [rows[0].clone(), rows[1].clone(), skipped];
        assert_eq!(median_ratio(&rows, 1), Some(2.5));
        let text = to_text(&rows, 1.0);
        assert!(
            text.contains("tex_kernel (x.cu): O3: the emulator cannot run it: tex"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&to_json(&rows, 1.0)).unwrap();
        assert_eq!(json["kernels"].as_array().map(Vec::len), Some(3));
        assert_eq!(json["kernels"][2]["versions"]["O3"]["static"], 7);
        assert_eq!(
            json["kernels"][2]["versions"]["O3"]["dynamic"],
            serde_json::Value::Null
        );
    }
}
