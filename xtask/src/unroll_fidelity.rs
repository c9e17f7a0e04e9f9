//! `cargo xtask unroll-fidelity [--format text|json]`: do our unrolling
//! decisions match what cicc and ptxas do?
//!
//! # cicc (issue 13, must-show 3)
//!
//! Every CUDA source of `test-data/cuda/` and `test-data/cuda/bench/` (the
//! list of `bench-quality`) is compiled by nvcc 13.0.88 with `-ptx
//! -arch=sm_90 -lineinfo`, once with `-Xcicc -O0` and once with `-O3`, into
//! `target/unroll-fidelity/`. For each loop of the `-O0` PTX, the decision
//! of our cicc loop-unroll phase (`ptx_opt::phases::cicc_loop_unroll::decide`,
//! default knobs) is compared with what cicc -O3 did to the same loop:
//!
//! - A loop's **lines** are the source positions (`.loc` file and line; for
//!   inlined code the outermost call site) of the instructions of its own
//!   blocks (not those of inner loops). O0 and O3 loops are matched by
//!   lines: an O3 loop belongs to the outermost O0 loop whose lines it
//!   contains. The O3 function of the same name is searched, or every O3
//!   function when it is gone (an O0 `.func` that -O3 inlined).
//! - **Observed**: no O3 loop belongs to the O0 loop but its lines are in the
//!   O3 code: **full** (the loop is gone); an O3 loop belongs to it: its
//!   **factor** is the median over its lines of (marker instructions of that
//!   line in the O3 loop) / (in the O0 loop), markers being memory accesses,
//!   atomics, shuffles, calls and floating-point arithmetic; factor 1 is
//!   **none**, k > 1 **partial k** (a remainder loop is a second O3 loop of
//!   the same O0 loop; the largest factor counts). Nothing of the loop left
//!   at all counts as full.
//! - `#pragma unroll [N]` of the CUDA source (on the line before the loop's
//!   header line) is not in -O0 PTX (only `#pragma unroll 1`, as `.pragma
//!   "nounroll"`): it is handed to our phase as the `// ptxopt: unroll [N]`
//!   annotation of the header, which is what the annotation is for.
//!
//! A row agrees when kind and factor are equal. The share of agreeing rows
//! is printed, with counts per observed kind.
//!
//! # ptxas (must-show 4)
//!
//! For the nvcc -O3 PTX of the same sources and every PTX file of
//! `/work/shared/corpus` (`PTXOPT_CORPUS` overrides) that `ptxas
//! -arch=sm_90 -lineinfo` accepts: the loops of `cuobjdump -sass` of the
//! cubin, compared with the decision of our phase 22 (`PhaseOutput.loops`
//! of `PhaseId::OriLoopUnrolling`; "no decision" where it reports none),
//! and with what "unroll nothing" would score.
//!
//! **What phase 22 is given** ([`ptxas_view`]): each function with SASS of
//! its own, with the functions ptxas inlined into it (those of the module
//! with a body, no SASS function of their name and no subroutine label
//! `$caller$name` in `nvdisasm`'s output, [`sass_subroutines`]) inlined by
//! our inliner, then the ptxas phases before 22. Constant arguments are
//! folded there as in ptxas, so the loops of branches a call site never
//! takes are gone before phase 22, as they are in ptxas. A function ptxas
//! compiled as a subroutine of its caller's section (its code is in the
//! caller's SASS, reached by `CALL.REL`) is given to phase 22 alone. Rows
//! of a callee's code read `callee (in caller)`.
//!
//! The SASS loop analysis ([`sass_loops`]): per function, instructions with
//! their addresses; a `BRA` whose target is at or before it is a back edge,
//! and `[target, branch]` a loop (a `BRA` to itself, the trap after
//! `EXIT`, is not); loops that contain another are outer
//! loops and ignored (only innermost loops are compared). Per innermost
//! loop, its **markers**: the bytes per thread its memory instructions
//! move (`LDG`, `STG`, `LDS`, `STS`, `LD`, `ST`, `ATOM*`, `RED`; not
//! `LDC`, and not `LDL`/`STL`: ptxas promotes local arrays to registers and
//! adds spills; 4 bytes unless `.64`, `.128`, `.U8`, `.U16`... say
//! otherwise), so that ptxas merging four `ld.shared.f32` into one
//! `LDS.128` does not change the count. The PTX side counts the same of its
//! innermost loops (`ld`/`st`/`atom`/`red` outside `.param`, `.const` and
//! `.local`, type size times vector width).
//!
//! **With line information** (`.loc` in the PTX; `nvdisasm -g` gives the
//! line of each SASS instruction, [`sass_line_table`]) the markers are
//! counted per source line and loops are matched by lines
//! ([`match_by_lines`]): a SASS loop belongs to the PTX loop whose lines it
//! shares most; its factor is the median over lines of SASS bytes / PTX
//! bytes (1: **not unrolled**, k: **body replicated k times**), a second
//! SASS loop of factor 1 is the **remainder loop**; a PTX loop without a
//! SASS loop is **gone** (fully unrolled) when accesses of its lines are
//! in straight SASS code, and unmatched ("removed") when they are nowhere:
//! ptxas deleted that code, which says nothing about unrolling. Copies of
//! one loop (a function inlined at several call sites) take the SASS loops
//! of their lines in order. This does not depend on the order ptxas lays
//! out blocks in, which it changes (a loop on a cold path moves to the end
//! of the function).
//!
//! **Without line information** (most of the corpus), PTX and SASS loops,
//! in layout order (PTX: header position; SASS: address), are aligned by
//! their bytes ([`match_loops`]: the order-preserving alignment with the
//! most matches): a PTX loop with p bytes takes a SASS loop with k*p
//! (**body replicated k times**; k = 1: **not unrolled**), and the SASS
//! loop after it too when that one holds exactly p (**remainder loop**); a
//! PTX loop left out takes, out of order, a SASS loop left out that holds
//! exactly p (ptxas laid it out elsewhere: **not unrolled**), else it is
//! **gone** (fully unrolled); a SASS loop left out is ptxas's own code. A
//! call our inliner refused stays a call, and the callee's loops are
//! spliced in at it ([`flatten`]).
//!
//! The `-Xcicc -O0` PTX of the same sources is compared too, on a summary
//! line of its own (the must-show's figure is on -O3 PTX and the corpus):
//! cicc left its loops rolled, so what ptxas did to them is phase 22's
//! decision alone, where on -O3 PTX ptxas mostly finds loops cicc has
//! unrolled already and leaves them. So is `-O3` PTX with cicc's unroller
//! held to a count of 1 ([`ROLLED_FLAGS`], files `*.O3rolled.ptx`):
//! optimized code in which ptxas decides every loop, where "unroll
//! nothing" scores far lower than on the must-show's set.
//!
//! `UNROLL_FIDELITY_SOURCES=dir` adds the `.cu` files of `dir` (held-out
//! kernels, such as `scripts/fuzz/gen_cuda.py`'s); `UNROLL_FIDELITY_ONLY`
//! keeps the ptxas rows of the files whose path contains a text.
//!
//! A PTX loop without memory accesses is unmatched. Both matchings are
//! heuristics (ptxas may also duplicate or restructure loops), stated here
//! so that the numbers can be judged. A second summary line counts only
//! the loops of a function's own code (not those of a callee, inlined or
//! a subroutine).
//!
//! Our decision for a loop is phase 22's report whose header (an origin:
//! an instruction of the input) is the loop's first header instruction,
//! else lies in the loop's blocks (phase 18 inverts top-tested loops, which
//! makes the body's first block the header).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use ptx_analysis::LoopForest;
use ptx_ir::ir::{Function, Inst, Module, ModuleItem};
use ptx_opt::phases::cicc_loop_unroll::{self, Choice, UnrollParams};
use ptx_opt::{Defaults, PhaseId};
use rayon::prelude::*;

use crate::bench_quality::{cu_files, display_source, run_tool, sources, stem};

/// A decision or an observation about one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Full,
    Partial(u32),
    None,
}

impl Kind {
    fn text(self) -> String {
        match self {
            Kind::Full => "full".into(),
            Kind::Partial(k) => format!("partial x{k}"),
            Kind::None => "none".into(),
        }
    }
    fn class(self) -> &'static str {
        match self {
            Kind::Full => "full",
            Kind::Partial(_) => "partial",
            Kind::None => "none",
        }
    }
}

fn kind_of(choice: Choice) -> Kind {
    match choice {
        Choice::Full { .. } => Kind::Full,
        Choice::Partial { count } | Choice::Runtime { count } | Choice::Pragma { count } => {
            if count > 1 {
                Kind::Partial(count)
            } else {
                Kind::None
            }
        }
        Choice::Peel { .. } | Choice::None => Kind::None,
    }
}

/// One row of the cicc table.
#[derive(Clone, Debug)]
struct CiccRow {
    source: String,
    function: String,
    line: u32,
    ours: Kind,
    why: String,
    cicc: Option<Kind>,
}

/// One row of the ptxas table.
#[derive(Clone, Debug)]
struct PtxasRow {
    file: String,
    function: String,
    line: Option<u32>,
    ours: Option<Kind>,
    observed: Option<(Kind, bool)>,
    /// Our phase 22's summary of its decision (empty when none).
    why: String,
    /// Why `observed` is `None`.
    unmatched: &'static str,
    /// A loop of a function ptxas inlined (a `callee (in caller)` row).
    inlined: bool,
    /// Which PTX the loop is in: the must-show's (nvcc `-O3`, the corpus)
    /// or one of the summary lines of their own.
    input: Input,
}

/// The PTX a ptxas row was measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// nvcc `-O3` PTX of test-data and the corpus: the must-show's figure.
    Main,
    /// nvcc `-Xcicc -O0` PTX: cicc left every loop rolled (and in `-O0`
    /// form).
    CiccO0,
    /// nvcc `-O3` PTX with cicc's unroller held to a count of 1
    /// ([`ROLLED_FLAGS`]): optimized code whose every loop ptxas decides.
    CiccRolled,
}

impl Input {
    fn of(file: &str) -> Input {
        if file.ends_with(".O0.ptx") {
            Input::CiccO0
        } else if file.ends_with(".O3rolled.ptx") {
            Input::CiccRolled
        } else {
            Input::Main
        }
    }

    fn name(self) -> &'static str {
        match self {
            Input::Main => "O3",
            Input::CiccO0 => "cicc-O0",
            Input::CiccRolled => "O3-rolled",
        }
    }
}

/// nvcc flags of the `O3rolled` PTX: `-O3` with LLVM's loop unroller held
/// to a count of 1, for partial, runtime and full unrolling alike
/// (`-unroll-count=1` would mark each loop `llvm.loop.unroll.disable`,
/// which nvcc writes as `.pragma "nounroll"`; a maximum of 1 marks
/// nothing). Every loop reaches ptxas rolled and without a pragma, so what
/// ptxas does to it is phase 22's decision alone, on optimized code.
const ROLLED_FLAGS: &[&str] = &[
    "-O3",
    "-Xcicc",
    "--Xopt",
    "-Xcicc",
    "-unroll-max-count=1",
    "-Xcicc",
    "--Xopt",
    "-Xcicc",
    "-unroll-full-max-count=1",
];

pub fn run(args: &[String]) -> Result<(), String> {
    let json = match args {
        [] => false,
        [f, v] if f == "--format" && v == "text" => false,
        [f, v] if f == "--format" && v == "json" => true,
        _ => return Err("usage: cargo xtask unroll-fidelity [--format text|json]".into()),
    };
    let home = crate::cuda_home()?
        .or_else(|| crate::find_ptxas().and_then(|p| Some(p.parent()?.parent()?.to_path_buf())))
        .ok_or("unroll-fidelity needs the CUDA 13.0.88 tools (set PTXOPT_CUDA_HOME)")?;
    let tool = |name: &str| -> Result<PathBuf, String> {
        let path = home.join("bin").join(name);
        if path.exists() {
            Ok(path)
        } else {
            Err(format!("{} is missing", path.display()))
        }
    };
    let (nvcc, ptxas, cuobjdump) = (tool("nvcc")?, tool("ptxas")?, tool("cuobjdump")?);
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"));
    let out = target.join("unroll-fidelity");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut sources = sources()?;
    // `UNROLL_FIDELITY_SOURCES=dir`: the `.cu` files of `dir` too (held-out
    // kernels, such as the fuzzer's `scripts/fuzz/gen_cuda.py` output).
    if let Some(dir) = std::env::var_os("UNROLL_FIDELITY_SOURCES") {
        sources.extend(cu_files(Path::new(&dir))?);
    }
    eprintln!(
        "unroll-fidelity: {} CUDA sources, nvcc -Xcicc -O0 and -O3 (-lineinfo), into {}",
        sources.len(),
        out.display()
    );
    let per_source: Result<Vec<(Vec<CiccRow>, PathBuf)>, String> = sources
        .par_iter()
        .map(|cu| {
            let stem = stem(cu);
            let mut texts = Vec::new();
            for (level, flags) in [
                ("O0", &["-Xcicc", "-O0"][..]),
                ("O3", &["-O3"][..]),
                ("O3rolled", ROLLED_FLAGS),
            ] {
                let ptx = out.join(format!("{stem}.{level}.ptx"));
                if !is_newer(&ptx, cu) {
                    let mut cmd = Command::new(&nvcc);
                    cmd.args(["-ptx", "-arch=sm_90", "-lineinfo"])
                        .args(flags)
                        .arg(cu)
                        .arg("-o")
                        .arg(&ptx);
                    run_tool(&mut cmd, cu)?;
                }
                texts.push(
                    std::fs::read_to_string(&ptx)
                        .map_err(|e| format!("cannot read {}: {e}", ptx.display()))?,
                );
            }
            let source = std::fs::read_to_string(cu).unwrap_or_default();
            let rows = cicc_rows(&display_source(cu), &source, &texts[0], &texts[1]);
            Ok((rows, out.join(format!("{stem}.O3.ptx"))))
        })
        .collect();
    let per_source = per_source?;
    let cicc: Vec<CiccRow> = per_source.iter().flat_map(|(r, _)| r.clone()).collect();

    // ptxas: the O3 PTX and the corpus.
    let mut ptx_files: Vec<PathBuf> = per_source.iter().map(|(_, p)| p.clone()).collect();
    // And the -Xcicc -O0 PTX of the same sources (a summary line of its
    // own): loops cicc did not unroll, so what ptxas does to them is
    // phase 22's decision alone.
    // And the -O3 PTX with cicc's unroller held to 1 (`ROLLED_FLAGS`).
    let others: Vec<PathBuf> = ptx_files
        .iter()
        .flat_map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            [".O0.ptx", ".O3rolled.ptx"].map(|ext| p.with_file_name(name.replace(".O3.ptx", ext)))
        })
        .collect();
    ptx_files.extend(others);
    let corpus = std::env::var_os("PTXOPT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpus"));
    let mut corpus_files = Vec::new();
    collect_ptx(&corpus, &mut corpus_files);
    corpus_files.sort();
    ptx_files.extend(corpus_files);
    if std::env::var_os("UNROLL_FIDELITY_CICC_ONLY").is_some() {
        ptx_files.clear();
    }
    // `UNROLL_FIDELITY_ONLY=text`: the ptxas table of the PTX files whose
    // path contains `text` only (to look at one file's rows).
    if let Some(only) = std::env::var_os("UNROLL_FIDELITY_ONLY") {
        let only = only.to_string_lossy().into_owned();
        ptx_files.retain(|p| p.to_string_lossy().contains(&only));
    }
    let ptxas_rows: Vec<PtxasRow> = ptx_files
        .par_iter()
        .map(|ptx| ptxas_file_rows(ptx, &ptxas, &cuobjdump, &out).unwrap_or_default())
        .flatten()
        .collect();

    if json {
        println!("{}", to_json(&cicc, &ptxas_rows));
    } else {
        print!("{}", to_text(&cicc, &ptxas_rows));
    }
    Ok(())
}

/// Whether `out` exists and is newer than `input` (then nvcc is not run
/// again).
fn is_newer(out: &Path, input: &Path) -> bool {
    let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((time(out), time(input)), (Some(o), Some(i)) if o > i)
}

fn collect_ptx(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_ptx(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

fn lower(text: &str) -> Module {
    ptx_ir::lower_module(&ptx_syntax::parse(text)).0
}

/// `.file` index -> file name.
fn file_names(m: &Module) -> BTreeMap<u32, String> {
    m.items
        .iter()
        .filter_map(|i| match i {
            ModuleItem::File { index, text } => {
                let name = text.split('"').nth(1).unwrap_or(text).to_string();
                Some((*index, name))
            }
            _ => None,
        })
        .collect()
}

/// The source position of an instruction: (file index, line) of its `.loc`,
/// or of the outermost call site when it is inlined code.
fn position(inst: &Inst) -> Option<(u32, u32)> {
    let last = inst.loc()?;
    let mut pos = (last.file, last.line);
    let mut inlined = last.inlined.clone();
    for _ in 0..8 {
        let Some(text) = inlined.take() else { break };
        let Some(at) = text.split("inlined_at").nth(1) else {
            break;
        };
        let nums: Vec<u32> = at
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        let [file, line, ..] = nums[..] else { break };
        pos = (file, line);
        inlined = inst
            .locs
            .iter()
            .find(|l| l.file == file && l.line == line)
            .and_then(|l| l.inlined.clone());
    }
    Some(pos)
}

type Key = (String, u32);

fn key(files: &BTreeMap<u32, String>, inst: &Inst) -> Option<Key> {
    let (f, l) = position(inst)?;
    let name = files.get(&f).cloned().unwrap_or_else(|| f.to_string());
    // Compare by file name only (paths differ between runs only in the
    // directory, which is the same here).
    Some((name, l))
}

/// 3: a call; 2: a memory access or atomic (not `.param`/`.const`); 1: a
/// shuffle or floating-point arithmetic; 0: anything else.
fn marker(inst: &Inst) -> u32 {
    use ptx_isa::{FamilyId, Space};
    let info = &inst.opcode.info;
    let flags = info.flags;
    if flags.is_call() {
        return 3;
    }
    if flags.loads() || flags.stores() || flags.is_atomic() {
        return if matches!(info.space, Some(Space::Param) | Some(Space::Const)) {
            0
        } else {
            2
        };
    }
    if info.family == FamilyId::Shfl {
        return 1;
    }
    let float = info.types.last().is_some_and(|t| t.is_float())
        && !matches!(
            info.family,
            FamilyId::Mov | FamilyId::Cvt | FamilyId::Setp | FamilyId::Selp
        );
    u32::from(float)
}

/// The replication of one line: where the O0 line calls a function (-O0
/// calls what -O3 inlines, an `atomicAdd` wrapper becomes an `atom`), all
/// markers; else memory accesses when the O0 line has some (counted in
/// thousands by `own_lines`), else the other markers (a multiply and an add
/// become one `fma`, so they are compared only where nothing better is
/// there).
fn line_ratio(c0: u32, c3: u32) -> Option<f64> {
    let total = |c: u32| c / 1_000_000 + (c / 1000) % 1000 + c % 1000;
    if c0 >= 1_000_000 {
        let (t0, t3) = (total(c0), total(c3));
        return (t3 > 0).then(|| f64::from(t3) / f64::from(t0));
    }
    let (m0, m3) = (c0 / 1000, (c3 / 1000) % 1000);
    if m0 > 0 {
        return (m3 > 0).then(|| f64::from(m3) / f64::from(m0));
    }
    let (o0, o3) = (c0 % 1000, c3 % 1000 + c3 / 1_000_000);
    (o0 > 0 && o3 > 0).then(|| f64::from(o3) / f64::from(o0))
}

fn forest(f: &Function) -> LoopForest {
    let cfg = ptx_analysis::cfg(f);
    let dom = ptx_analysis::dominators(&cfg);
    ptx_analysis::loops(&cfg, &dom)
}

/// Per loop of `f`: marker counts per key, and every key, of its own blocks.
fn own_lines(
    f: &Function,
    forest: &LoopForest,
    files: &BTreeMap<u32, String>,
) -> Vec<(BTreeMap<Key, u32>, BTreeSet<Key>)> {
    let mut out = vec![(BTreeMap::new(), BTreeSet::new()); forest.loops.len()];
    for &b in &f.layout {
        let Some(l) = forest.innermost(b) else {
            continue;
        };
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            if let Some(k) = key(files, inst) {
                let entry = &mut out[l.0 as usize];
                // Calls count 1_000_000, memory markers 1000 (see
                // `line_ratio`).
                match marker(inst) {
                    3 => *entry.0.entry(k.clone()).or_insert(0) += 1_000_000,
                    2 => *entry.0.entry(k.clone()).or_insert(0) += 1000,
                    1 => *entry.0.entry(k.clone()).or_insert(0) += 1,
                    _ => {}
                }
                entry.1.insert(k);
            }
        }
    }
    out
}

/// The `#pragma unroll [N]` on the line before `line` of the CUDA source
/// (blank lines skipped), as a `ptxopt:` annotation.
fn source_pragma(source: &str, line: u32) -> Option<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut i = (line as usize).checked_sub(2)?;
    loop {
        let text = lines.get(i)?.trim();
        if text.is_empty() {
            i = i.checked_sub(1)?;
            continue;
        }
        let rest = text
            .strip_prefix("#pragma")?
            .trim()
            .strip_prefix("unroll")?;
        let n = rest.trim();
        return Some(if n.is_empty() {
            "unroll full".into()
        } else {
            format!("unroll {n}")
        });
    }
}

fn cicc_rows(display: &str, source: &str, o0: &str, o3: &str) -> Vec<CiccRow> {
    let (m0, m3) = (lower(o0), lower(o3));
    let (files0, files3) = (file_names(&m0), file_names(&m3));
    let cu_name = Path::new(display)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let params = UnrollParams::nvidia_defaults();
    // The O3 loops: (function, own markers, own keys, depth).
    #[allow(clippy::type_complexity)]
    let o3: Vec<(
        String,
        Vec<(BTreeMap<Key, u32>, BTreeSet<Key>)>,
        Vec<BTreeSet<Key>>,
        Vec<Option<Key>>,
    )> = m3
        .functions
        .iter()
        .map(|f| {
            let fo = forest(f);
            let own = own_lines(f, &fo, &files3);
            // Every key of the function (to tell "gone" from "never there").
            let all: BTreeSet<Key> = f
                .layout
                .iter()
                .flat_map(|&b| f.blocks[b].insts.iter())
                .filter_map(|&i| key(&files3, &f.insts[i]))
                .collect();
            let latch: Vec<Option<Key>> =
                fo.loops.iter().map(|l| latch_key(f, l, &files3)).collect();
            (f.sig.name.clone(), own, vec![all], latch)
        })
        .collect();
    let mut rows = Vec::new();
    for f0 in &m0.functions {
        let mut f = f0.clone();
        let fo = forest(&f);
        // Source pragmas become annotations of the headers.
        for lp in &fo.loops {
            let line = f.blocks[lp.header]
                .insts
                .iter()
                .find_map(|&i| f.insts[i].loc().map(|l| (l.file, l.line)));
            if let Some((file, line)) = line {
                let is_cu = files0.get(&file).is_some_and(|n| n.ends_with(&cu_name));
                if let Some(a) = is_cu.then(|| source_pragma(source, line)).flatten() {
                    f.blocks[lp.header].annotations.push(a);
                }
            }
        }
        let decisions = cicc_loop_unroll::decide_with(&params, &f);
        let own0 = own_lines(&f, &fo, &files0);
        let head0: Vec<Option<Key>> = fo
            .loops
            .iter()
            .map(|l| {
                f.blocks[l.header]
                    .insts
                    .iter()
                    .find_map(|&i| key(&files0, &f.insts[i]))
            })
            .collect();
        let depth0: Vec<u32> = fo.loops.iter().map(|l| l.depth).collect();
        // Which O3 functions to search.
        let same: Vec<usize> = o3
            .iter()
            .enumerate()
            .filter(|(_, (n, _, _, _))| *n == f.sig.name)
            .map(|(i, _)| i)
            .collect();
        let candidates: Vec<usize> = if same.is_empty() {
            (0..o3.len()).collect()
        } else {
            same
        };
        for (li, d) in decisions.iter().enumerate() {
            let ours = kind_of(d.decision.choice);
            let (markers0, keys0) = &own0[li];
            let line = d
                .line
                .or_else(|| keys0.iter().next().map(|k| k.1))
                .unwrap_or(0);
            let mut observed = None;
            if !keys0.is_empty() {
                for &fi in &candidates {
                    let (_, own3, all3, latch3) = &o3[fi];
                    if all3[0].is_disjoint(keys0) {
                        continue;
                    }
                    // O3 loops that belong to this O0 loop: the outermost
                    // O0 loop whose keys they contain is this one.
                    let mut factor = 0u32;
                    for ((markers3, keys3), latch) in own3.iter().zip(latch3) {
                        let owner = owner_of(&own0, &depth0, &head0, keys3, latch.as_ref());
                        if owner != Some(li) {
                            continue;
                        }
                        let mut ratios: Vec<f64> = markers0
                            .iter()
                            .filter_map(|(k, &c0)| line_ratio(c0, *markers3.get(k)?))
                            .collect();
                        ratios.sort_by(|a, b| a.total_cmp(b));
                        let k = if ratios.is_empty() {
                            1
                        } else {
                            (ratios[ratios.len() / 2].round() as u32).max(1)
                        };
                        if std::env::var_os("UNROLL_FIDELITY_DEBUG").is_some() {
                            eprintln!(
                                "{} loop {li}: {markers0:?} vs {markers3:?} -> {k}",
                                f.sig.name
                            );
                        }
                        factor = factor.max(k);
                    }
                    observed = Some(match factor {
                        0 => Kind::Full,
                        1 => Kind::None,
                        k => Kind::Partial(k),
                    });
                    break;
                }
                if observed.is_none() {
                    // Nothing of the loop is left.
                    observed = Some(Kind::Full);
                }
            }
            rows.push(CiccRow {
                source: display.to_string(),
                function: f.sig.name.clone(),
                line,
                ours,
                why: format!("[{}] {}", d.decision.level, d.decision.reason),
                cicc: observed,
            });
        }
    }
    rows
}

/// The position of an O3 loop's exit test (the last `setp` of a latch, else
/// the latch's branch): the `for` line the loop comes from.
fn latch_key(f: &Function, l: &ptx_analysis::Loop, files: &BTreeMap<u32, String>) -> Option<Key> {
    l.latches.iter().find_map(|&b| {
        let insts = &f.blocks[b].insts;
        insts
            .iter()
            .rev()
            .find(|&&i| f.insts[i].opcode.info.family == ptx_isa::FamilyId::Setp)
            .or(insts.last())
            .and_then(|&i| key(files, &f.insts[i]))
    })
}

/// The O0 loop an O3 loop belongs to: the one whose header is on the line
/// of the O3 loop's exit test (the `for` line; several: the deepest with
/// the largest share of its keys in the O3 loop). Failing that, of the O0
/// loops with at least half of their keys in it, the outermost (an inner
/// loop fully unrolled into an outer one leaves its keys in the outer
/// loop's body); failing that, the one with the largest share.
fn owner_of(
    own0: &[(BTreeMap<Key, u32>, BTreeSet<Key>)],
    depth0: &[u32],
    head0: &[Option<Key>],
    keys3: &BTreeSet<Key>,
    latch: Option<&Key>,
) -> Option<usize> {
    let share = |k0: &BTreeSet<Key>| {
        if k0.is_empty() {
            0.0
        } else {
            k0.intersection(keys3).count() as f64 / k0.len() as f64
        }
    };
    let shares: Vec<f64> = own0.iter().map(|(_, k0)| share(k0)).collect();
    if let Some(latch) = latch {
        let same_line = (0..own0.len())
            .filter(|&j| head0[j].as_ref() == Some(latch))
            .max_by(|&a, &b| {
                shares[a]
                    .total_cmp(&shares[b])
                    .then(depth0[a].cmp(&depth0[b]))
            });
        if same_line.is_some() {
            return same_line;
        }
    }
    (0..own0.len())
        .filter(|&j| shares[j] >= 0.5)
        .min_by_key(|&j| depth0[j])
        .or_else(|| {
            (0..own0.len())
                .filter(|&j| shares[j] > 0.0)
                .max_by(|&a, &b| shares[a].total_cmp(&shares[b]))
        })
}

// ------------------------------------------------------------------ SASS

/// One instruction of `cuobjdump -sass`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassInst {
    pub addr: u64,
    pub opcode: String,
    /// The branch target of a `BRA`.
    pub target: Option<u64>,
    /// Its source line (file name, line), from `nvdisasm -g` (see
    /// [`sass_line_table`]).
    pub line: Option<Key>,
}

/// The functions of `cuobjdump -sass` output with their instructions.
pub fn parse_sass(text: &str) -> Vec<(String, Vec<SassInst>)> {
    let mut out: Vec<(String, Vec<SassInst>)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function : ") {
            out.push((name.trim().to_string(), Vec::new()));
            continue;
        }
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, body)) = rest.split_once("*/") else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let body = body.split(';').next().unwrap_or("").trim();
        let mut words = body.split_whitespace().peekable();
        if words.peek().is_some_and(|w| w.starts_with('@')) {
            words.next();
        }
        let Some(opcode) = words.next() else { continue };
        let base = opcode.split('.').next().unwrap_or(opcode);
        let target = (base == "BRA")
            .then(|| {
                body.split([' ', ','])
                    .filter_map(|w| w.strip_prefix("0x"))
                    .filter_map(|h| u64::from_str_radix(h, 16).ok())
                    .next_back()
            })
            .flatten();
        if let Some((_, insts)) = out.last_mut() {
            insts.push(SassInst {
                addr,
                opcode: opcode.to_string(),
                target,
                line: None,
            });
        }
    }
    out
}

/// A SASS loop: `[start, end]` addresses of a back edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassLoop {
    pub start: u64,
    pub end: u64,
    /// Bytes its memory instructions move per thread.
    pub markers: u32,
    /// Those bytes per source line (empty without line information); 0 for
    /// a line whose access ptxas dispatches on the address space.
    pub lines: BTreeMap<Key, u32>,
}

/// The functions `nvdisasm` output shows as subroutines of a caller's
/// section (the label `$caller$callee:`): ptxas 13.0.88 compiles a `.func`
/// it does not inline into each caller's code as its own subroutine,
/// called with `CALL.REL`, which `cuobjdump -sass` prints as part of the
/// caller (no function of its own).
pub fn sass_subroutines(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix('$')?.strip_suffix(':'))
        .filter_map(|l| Some(l.split_once('$')?.1.to_string()))
        .collect()
}

/// Per function of `nvdisasm -g` output, the source line of each
/// instruction address: the `//## File "PATH", line N` annotation above
/// it, as (file name, line).
pub fn sass_line_table(text: &str) -> BTreeMap<String, BTreeMap<u64, Key>> {
    let mut out: BTreeMap<String, BTreeMap<u64, Key>> = BTreeMap::new();
    let mut function: Option<String> = None;
    let mut current: Option<Key> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix(".text.").and_then(|n| n.strip_suffix(':')) {
            function = Some(name.to_string());
            current = None;
            continue;
        }
        if let Some(rest) = t.strip_prefix("//## File \"") {
            current = rest.split_once("\", line ").and_then(|(path, n)| {
                let n: u32 = n
                    .split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok()?;
                Some((base_name(path).to_string(), n))
            });
            continue;
        }
        let (Some(f), Some(key)) = (&function, &current) else {
            continue;
        };
        let Some((addr, _)) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) else {
            continue;
        };
        if let Ok(addr) = u64::from_str_radix(addr.trim(), 16) {
            out.entry(f.clone()).or_default().insert(addr, key.clone());
        }
    }
    out
}

/// The file name of a path (what [`Key`]s of the ptxas comparison hold:
/// PTX `.file` paths and SASS line annotations spell directories apart).
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The bytes a SASS memory instruction moves per thread (0: not one):
/// `LDS.128` 16, `LDG.E.64` 8, `.U8`/`.S8` 1, `.U16`/`.S16` 2, else 4.
/// Local memory (`LDL`, `STL`) is not counted, on either side: ptxas
/// promotes small local arrays to registers (a loop storing into one keeps
/// its PTX `st.local` and loses its `STL`) and adds spills of its own.
fn sass_bytes(opcode: &str) -> u32 {
    let mut parts = opcode.split('.');
    let base = parts.next().unwrap_or(opcode);
    let memory = matches!(
        base,
        "LDG" | "STG" | "LDS" | "STS" | "LD" | "ST" | "ATOM" | "ATOMS" | "ATOMG" | "RED" | "REDG"
    );
    if !memory {
        return 0;
    }
    let mut bytes = 4;
    for p in parts {
        bytes = match p {
            "128" => 16,
            // Atomics name their type: `ATOM.E.ADD.F64`.
            "64" | "F64" | "U64" | "S64" => 8,
            "U8" | "S8" => 1,
            "U16" | "S16" => 2,
            _ => bytes,
        };
    }
    bytes
}

/// The bytes a PTX memory instruction moves per thread (0: not one, or
/// `.param`/`.const`, which SASS reads as constant operands, or `.local`,
/// see [`sass_bytes`]).
fn ptx_bytes(inst: &Inst) -> u32 {
    let info = &inst.opcode.info;
    let memory = info.flags.loads() || info.flags.stores() || info.flags.is_atomic();
    if !memory
        || info.flags.is_call()
        || matches!(
            info.space,
            Some(ptx_isa::Space::Param) | Some(ptx_isa::Space::Const) | Some(ptx_isa::Space::Local)
        )
    {
        return 0;
    }
    info.types.last().map_or(4, |t| t.bytes().max(1)) * u32::from(info.vec.max(1))
}

/// The innermost loops of one function's SASS, by address.
///
/// The compare-and-swap spin loops ptxas writes for an atomic it has no
/// instruction for (a generic-address `atom.add.f64` becomes a `REDG` or,
/// on shared or local memory, a `*.CAST.SPIN` retry loop) are not loops of
/// the source: they are left out, so that the source loop around them is
/// innermost (it would otherwise look gone, its accesses outside every
/// innermost loop).
pub fn sass_loops(insts: &[SassInst]) -> Vec<SassLoop> {
    let mut loops: Vec<(u64, u64)> = insts
        .iter()
        .filter_map(|i| i.target.filter(|&t| t < i.addr).map(|t| (t, i.addr)))
        .collect();
    loops.sort();
    loops.dedup();
    let contains =
        |(s, e): (u64, u64), (s2, e2): (u64, u64)| (s2, e2) != (s, e) && s <= s2 && e2 <= e;
    let spin: Vec<(u64, u64)> = loops
        .iter()
        .copied()
        .filter(|&l| {
            !loops.iter().any(|&l2| contains(l, l2))
                && insts
                    .iter()
                    .any(|i| i.addr >= l.0 && i.addr <= l.1 && i.opcode.contains(".CAST.SPIN"))
        })
        .collect();
    loops.retain(|l| !spin.contains(l));
    let inner: Vec<(u64, u64)> = loops
        .iter()
        .copied()
        .filter(|&l| !loops.iter().any(|&l2| contains(l, l2)))
        .collect();
    inner
        .into_iter()
        .map(|(start, end)| {
            let body = || insts.iter().filter(|i| i.addr >= start && i.addr <= end);
            let mut lines = BTreeMap::new();
            for i in body() {
                if let (Some(k), b @ 1..) = (&i.line, sass_bytes(&i.opcode)) {
                    *lines.entry(k.clone()).or_insert(0) += b;
                }
            }
            // A line whose access ptxas dispatches on the address space
            // (`QSPC`: one path per space, shared and local ones through
            // the spin loops above) moves its bytes several times over in
            // the code, once at run time: it says nothing of a factor (0
            // bytes: the line still places the loop, see `match_by_lines`).
            for i in body() {
                if let (Some(k), true) = (&i.line, i.opcode.starts_with("QSPC")) {
                    lines.insert(k.clone(), 0);
                }
            }
            SassLoop {
                start,
                end,
                markers: body().map(|i| sass_bytes(&i.opcode)).sum(),
                lines,
            }
        })
        .collect()
}

/// The largest replication factor [`match_loops`] accepts.
const MAX_FACTOR: u32 = 32;

/// Matches PTX innermost loops (memory bytes, in layout order) to SASS
/// loops (in address order): per PTX loop, `(kind, remainder)`, or `None`
/// when it moves no memory (see the module documentation).
///
/// An order-preserving alignment (dynamic programming) with the most
/// matched loops: PTX loop i may take SASS loop j when j moves k times its
/// bytes (1 <= k <= [`MAX_FACTOR`]), and then SASS loop j + 1 as its
/// remainder when k > 1 and that loop moves exactly its bytes; a PTX loop
/// left out is gone (fully unrolled), a SASS loop left out is code of
/// ptxas's own (or of a loop we cannot tell). Among alignments with as
/// many matches, one that uses more remainders wins. Then a PTX loop left
/// out takes a SASS loop left out with exactly its bytes, out of order
/// (not unrolled, laid out elsewhere).
pub fn match_loops(ptx: &[u32], sass: &[SassLoop]) -> Vec<Option<(Kindish, bool)>> {
    let (n, m) = (ptx.len(), sass.len());
    let factor = |i: usize, j: usize| -> Option<u32> {
        let (p, q) = (ptx[i], sass[j].markers);
        (p > 0 && q >= p && q % p == 0 && q / p <= MAX_FACTOR).then(|| q / p)
    };
    // best[i][j]: score of aligning ptx[i..] with sass[j..]; a match is
    // worth 1000, a remainder 1.
    let mut best = vec![vec![0u32; m + 2]; n + 1];
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            let mut v = best[i + 1][j];
            if j < m {
                v = v.max(best[i][j + 1]);
                if let Some(k) = factor(i, j) {
                    v = v.max(1000 + best[i + 1][j + 1]);
                    if k > 1 && j + 1 < m && sass[j + 1].markers == ptx[i] {
                        v = v.max(1001 + best[i + 1][j + 2]);
                    }
                }
            }
            best[i][j] = v;
        }
    }
    let mut out = vec![None; n];
    let mut used = vec![false; m];
    let (mut i, mut j) = (0, 0);
    while i < n {
        if ptx[i] == 0 {
            out[i] = None;
            i += 1;
            continue;
        }
        let here = best[i][j];
        if j < m {
            if let Some(k) = factor(i, j) {
                if k > 1
                    && j + 1 < m
                    && sass[j + 1].markers == ptx[i]
                    && here == 1001 + best[i + 1][j + 2]
                {
                    out[i] = Some((Kindish::Partial(k), true));
                    used[j] = true;
                    used[j + 1] = true;
                    i += 1;
                    j += 2;
                    continue;
                }
                if here == 1000 + best[i + 1][j + 1] {
                    let kind = if k == 1 {
                        Kindish::None
                    } else {
                        Kindish::Partial(k)
                    };
                    out[i] = Some((kind, false));
                    used[j] = true;
                    i += 1;
                    j += 1;
                    continue;
                }
            }
            if here == best[i][j + 1] {
                j += 1;
                continue;
            }
        }
        out[i] = Some((Kindish::Full, false));
        i += 1;
    }
    // Second pass: ptxas lays blocks out in an order of its own (a loop on
    // a cold path can move to the end of the function), which the
    // order-preserving alignment cannot follow. A PTX loop it left out
    // takes a SASS loop left out that moves exactly its bytes, wherever it
    // is: that loop, not unrolled. (ptxas's own loops with memory accesses,
    // the compare-and-swap retries of floating-point atomics on generic
    // addresses, are few and mostly inside loops of functions it inlined,
    // which the second summary line leaves out.)
    for i in 0..n {
        if out[i] != Some((Kindish::Full, false)) {
            continue;
        }
        if let Some(j) = (0..m).find(|&j| !used[j] && sass[j].markers == ptx[i]) {
            used[j] = true;
            out[i] = Some((Kindish::None, false));
        }
    }
    out
}

/// Matches PTX innermost loops to SASS loops by source lines, for code
/// with line information (`.loc` in the PTX, `-lineinfo` to ptxas): `ptx`
/// holds, per PTX loop in layout order, the bytes its memory accesses move
/// per source line; `sass` the SASS loops with theirs; `insts` the SASS
/// function. Per PTX loop: `(kind, remainder)`, or why it is unmatched.
///
/// PTX loops with the same lines are copies of one loop (a function
/// inlined at several call sites) and form a group. Each SASS loop goes to
/// the group it shares the most lines with (then: the larger share of the
/// group's lines). A group's copies, in layout order, take its SASS loops
/// in address order: the factor of a SASS loop is the median over the
/// shared lines of (its bytes on the line) / (the PTX loop's), **none**
/// at 1, **partial k** above, and a following SASS loop of factor 1 is the
/// remainder when enough SASS loops are left for the copies after it. A
/// copy left without a SASS loop is **full** (unrolled into straight code)
/// when memory accesses of its lines are in the SASS outside the group's
/// loops, and unmatched ("removed") when none are: ptxas removed that code
/// (a constant argument of an inlined call decides the branch that held
/// it), which says nothing about unrolling. Unlike [`match_loops`], this
/// does not depend on the order ptxas lays out blocks in.
pub fn match_by_lines(
    ptx: &[&BTreeMap<Key, u32>],
    sass: &[SassLoop],
    insts: &[SassInst],
) -> Vec<Result<(Kindish, bool), &'static str>> {
    let mut out: Vec<Result<(Kindish, bool), &'static str>> = ptx
        .iter()
        .map(|l| {
            Err(if l.is_empty() {
                "no memory access with a line"
            } else {
                ""
            })
        })
        .collect();
    // Groups of copies, in order of their first copy.
    let mut groups: Vec<(BTreeSet<&Key>, Vec<usize>)> = Vec::new();
    for (i, lines) in ptx.iter().enumerate() {
        if lines.is_empty() {
            continue;
        }
        let keys: BTreeSet<&Key> = lines.keys().collect();
        match groups.iter_mut().find(|(k, _)| *k == keys) {
            Some((_, copies)) => copies.push(i),
            None => groups.push((keys, vec![i])),
        }
    }
    let mut taken: Vec<Vec<&SassLoop>> = vec![Vec::new(); groups.len()];
    for l in sass {
        let best = groups
            .iter()
            .enumerate()
            .map(|(g, (keys, _))| {
                let shared = l.lines.keys().filter(|k| keys.contains(k)).count();
                (shared, shared * 1000 / keys.len().max(1), g)
            })
            .filter(|&(shared, _, _)| shared > 0)
            .max_by_key(|&(shared, share, g)| (shared, share, std::cmp::Reverse(g)));
        if let Some((_, _, g)) = best {
            taken[g].push(l);
        }
    }
    for ((keys, copies), loops) in groups.iter().zip(&taken) {
        let factor = |p: &BTreeMap<Key, u32>, l: &SassLoop| -> u32 {
            let mut ratios: Vec<u32> = p
                .iter()
                .filter_map(|(k, &b)| {
                    let q = *l.lines.get(k).filter(|&&q| q > 0)?;
                    Some(((q + b / 2) / b.max(1)).max(1))
                })
                .collect();
            ratios.sort_unstable();
            ratios.get(ratios.len() / 2).copied().unwrap_or(1)
        };
        // Memory accesses of the group's lines outside the SASS loops of
        // every group (a line can be in several loops: a helper inlined
        // into each).
        let straight = insts.iter().any(|i| {
            sass_bytes(&i.opcode) > 0
                && i.line.as_ref().is_some_and(|k| keys.contains(k))
                && !taken
                    .iter()
                    .flatten()
                    .any(|l| i.addr >= l.start && i.addr <= l.end)
        });
        let mut next = 0;
        for (c, &p) in copies.iter().enumerate() {
            let Some(l) = loops.get(next) else {
                out[p] = if straight {
                    Ok((Kindish::Full, false))
                } else {
                    Err("removed (its code is not in the SASS)")
                };
                continue;
            };
            next += 1;
            let k = factor(ptx[p], l);
            let left_after = copies.len() - c - 1;
            let remainder = k > 1
                && loops
                    .get(next)
                    .is_some_and(|r| factor(ptx[p], r) == 1 && loops.len() - next > left_after);
            if remainder {
                next += 1;
            }
            let kind = if k == 1 {
                Kindish::None
            } else {
                Kindish::Partial(k)
            };
            out[p] = Ok((kind, remainder));
        }
    }
    out
}

/// What [`match_loops`] reports (public for the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kindish {
    Full,
    Partial(u32),
    None,
}

fn to_kind(k: Kindish) -> Kind {
    match k {
        Kindish::Full => Kind::Full,
        Kindish::Partial(n) => Kind::Partial(n),
        Kindish::None => Kind::None,
    }
}

fn ptxas_file_rows(
    ptx: &Path,
    ptxas: &Path,
    cuobjdump: &Path,
    out: &Path,
) -> Result<Vec<PtxasRow>, String> {
    let text = std::fs::read_to_string(ptx).map_err(|e| e.to_string())?;
    let name = ptx
        .strip_prefix("/work/shared/corpus")
        .unwrap_or(ptx)
        .to_string_lossy()
        .replace('/', "_");
    let cubin = out.join(format!("{name}.lineinfo.cubin"));
    // ptxas is not run again for a cubin newer than its PTX (the tools
    // are fixed: 13.0.88). `-lineinfo` keeps the PTX's `.loc` lines in
    // the cubin (it does not change the code).
    if !is_newer(&cubin, ptx) {
        let mut cmd = Command::new(ptxas);
        cmd.args(["-arch=sm_90", "-lineinfo"])
            .arg(ptx)
            .arg("-o")
            .arg(&cubin);
        run_tool(&mut cmd, ptx)?;
    }
    let mut cmd = Command::new(cuobjdump);
    cmd.arg("-sass").arg(&cubin);
    let sass = run_tool(&mut cmd, &cubin)?;
    let mut functions = parse_sass(&sass);
    let module = lower(&text);
    let files = file_names(&module);
    let mut cmd = Command::new(cuobjdump.with_file_name("nvdisasm"));
    if !files.is_empty() {
        cmd.arg("-g");
    }
    let disassembly = run_tool(cmd.arg(&cubin), &cubin)?;
    let subroutines = sass_subroutines(&disassembly);
    if !files.is_empty() {
        let table = sass_line_table(&disassembly);
        for (name, insts) in &mut functions {
            if let Some(lines) = table.get(name.as_str()) {
                for i in insts {
                    i.line = lines.get(&i.addr).cloned();
                }
            }
        }
    }
    let ctx = Defaults::new(90);
    let display = ptx
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_sass: BTreeSet<&str> = functions.iter().map(|(n, _)| n.as_str()).collect();
    // Functions ptxas inlined have no SASS of their own, and are no
    // subroutine of a caller's: their loops are rows of their callers,
    // where phase 22 sees them (`ptxas_view`).
    let inlined: BTreeMap<String, Arc<Function>> = module
        .functions
        .iter()
        .filter(|g| {
            !in_sass.contains(g.sig.name.as_str())
                && !subroutines.contains(&g.sig.name)
                && !g.layout.is_empty()
        })
        .map(|g| (g.sig.name.clone(), Arc::new(g.clone())))
        .collect();
    // Our phase 22 decisions on a callee alone: for the loops of a
    // subroutine, or of a function ptxas inlined at a call our inliner
    // refused (`flatten`); made when needed.
    let mut decisions: BTreeMap<String, Vec<ptx_opt::LoopReport>> = BTreeMap::new();
    let mut rows = Vec::new();
    for f in &module.functions {
        let Some((_, insts)) = functions.iter().find(|(n, _)| *n == f.sig.name) else {
            continue;
        };
        let view = ptxas_view(&ctx, f, &inlined);
        let mut seq = Vec::new();
        flatten(&module, &files, &view.function, &in_sass, 0, &mut seq);
        if seq.is_empty() {
            continue;
        }
        let counts: Vec<u32> = seq.iter().map(|e| e.bytes).collect();
        let sloops = sass_loops(insts);
        if std::env::var_os("UNROLL_FIDELITY_DEBUG").is_some() {
            let sb: Vec<u32> = sloops.iter().map(|l| l.markers).collect();
            eprintln!("{}: ptx {counts:?} sass {sb:?}", f.sig.name);
            for e in &seq {
                let label = e
                    .header
                    .and_then(|h| {
                        let g = module.functions.iter().find(|g| g.sig.name == e.function)?;
                        let b = g
                            .layout
                            .iter()
                            .find(|&&b| g.blocks[b].insts.first() == Some(&h))?;
                        g.blocks[*b].label.clone()
                    })
                    .unwrap_or_default();
                eprintln!("  {} {label} {}", e.function, e.bytes);
            }
            for l in &sloops {
                eprintln!("  sass {:#x}..{:#x} {}", l.start, l.end, l.markers);
            }
        }
        let by_lines =
            seq.iter().any(|e| !e.lines.is_empty()) && insts.iter().any(|i| i.line.is_some());
        let observed: Vec<Result<(Kindish, bool), &'static str>> = if by_lines {
            let ptx: Vec<&BTreeMap<Key, u32>> = seq.iter().map(|e| &e.lines).collect();
            match_by_lines(&ptx, &sloops, insts)
        } else {
            match_loops(&counts, &sloops)
                .into_iter()
                .map(|o| o.ok_or("no memory access"))
                .collect()
        };
        for (e, obs) in seq.iter().zip(observed) {
            let own = e.function == f.sig.name;
            let report = if own {
                report_of(&view.loops, e)
            } else {
                let reports = decisions.entry(e.function.clone()).or_insert_with(|| {
                    module
                        .functions
                        .iter()
                        .find(|g| g.sig.name == e.function && !g.layout.is_empty())
                        .map_or_else(Vec::new, |g| ptx_opt::ptxas_view::phase_22_reports(&ctx, g))
                });
                report_of(reports, e)
            };
            // A loop of the view that came from an inlined callee is a row
            // of that callee.
            let from = own
                .then(|| e.header.and_then(|h| view.inlined_from.get(&h)))
                .flatten();
            let ours = report.and_then(|r| r.unroll.as_ref()).map(|u| {
                if u.full {
                    Kind::Full
                } else if u.factor > 1 {
                    Kind::Partial(u.factor)
                } else {
                    Kind::None
                }
            });
            let callee = from.unwrap_or(&e.function);
            let function = if *callee == f.sig.name {
                callee.clone()
            } else {
                format!("{callee} (in {})", f.sig.name)
            };
            rows.push(PtxasRow {
                file: display.clone(),
                function,
                line: e.line,
                ours,
                observed: obs.ok().map(|(k, r)| (to_kind(k), r)),
                why: report.map_or(String::new(), |r| {
                    if std::env::var_os("UNROLL_FIDELITY_DEBUG").is_some() {
                        format!("{} {:?}", r.summary, r.facts)
                    } else {
                        r.summary.clone()
                    }
                }),
                unmatched: obs.err().unwrap_or(""),
                inlined: *callee != f.sig.name,
                input: Input::of(&display),
            });
        }
    }
    Ok(rows)
}

/// A function as ptxas's phase 22 sees it: the module's functions ptxas
/// inlined (no SASS of their own) inlined into it, and the ptxas phases
/// before 22 run.
struct PtxasView {
    /// Phase 22's input, each instruction its own origin.
    function: Arc<Function>,
    /// Phase 22's loop reports.
    loops: Vec<ptx_opt::LoopReport>,
    /// Instructions of `function` that came from an inlined function: the
    /// function called at the outermost call site.
    inlined_from: BTreeMap<ptx_ir::ir::InstId, String>,
}

/// The context ptxas's inlining runs under: the functions it inlined as
/// the only callees, with no size threshold.
struct InlineAll<'a> {
    base: &'a Defaults,
    callees: &'a BTreeMap<String, Arc<Function>>,
}

impl ptx_opt::PassContext for InlineAll<'_> {
    fn knob(&self, id: ptx_knobs::KnobId) -> ptx_knobs::KnobValue {
        if id == ptx_opt::knobs::inline_threshold.id() {
            ptx_knobs::KnobValue::Int(i64::MAX / 64)
        } else {
            self.base.knob(id)
        }
    }
    fn target(&self) -> ptx_analysis::target::Target {
        self.base.target()
    }
    fn callee(&self, name: &str) -> Option<Arc<Function>> {
        self.callees.get(name).cloned()
    }
}

/// What phase 22 sees of `f` in ptxas. No seed describes ptxas's inliner;
/// which functions it inlined is read from the SASS (every function of the
/// module with a body and no SASS function of its name; on the corpus,
/// every `.func` that is not `.noinline`), and our inliner (the cicc phase,
/// whose refusals are about what PTX's `.param` passing allows, not cost)
/// does the inlining. Constant arguments are then folded by the ptxas
/// phases before 22 (GeneralOptimize, branch simplification, dead code),
/// which removes the loops of branches a call site never takes, as ptxas
/// does: without this, those loops counted as "fully unrolled" in the
/// SASS, and the loops after them were matched to the wrong SASS loops.
/// A call our inliner refuses stays a call, and `flatten` splices the
/// callee's loops in at it as before.
fn ptxas_view(
    ctx: &Defaults,
    f: &Function,
    callees: &BTreeMap<String, Arc<Function>>,
) -> PtxasView {
    let input = Arc::new(f.clone());
    let inline_ctx = InlineAll { base: ctx, callees };
    let inlined = ptx_opt::run_phase(PhaseId::CiccInline, &inline_ctx, &input).function;
    // Where each instruction came from: `f`'s own, or code inlined at a
    // call of `f` (the inliner gives it the call's origin).
    let call_target = |o: ptx_ir::ir::InstId| -> Option<String> {
        let inst = f.insts.get(o)?;
        if !inst.opcode.info.flags.is_call() {
            return None;
        }
        inst.operands.iter().find_map(|op| match op {
            ptx_ir::ir::Operand::Symbol { name, .. } if callees.contains_key(name) => {
                Some(name.clone())
            }
            _ => None,
        })
    };
    let mut function = Arc::unwrap_or_clone(ptx_opt::ptxas_view::before_phase_22(ctx, inlined));
    let mut inlined_from = BTreeMap::new();
    let ids: Vec<ptx_ir::ir::InstId> = function.insts_in_order().map(|(i, _)| i).collect();
    for i in ids {
        if let Some(name) = function.origin(i).and_then(call_target) {
            inlined_from.insert(i, name);
        }
        function.set_origin(i, Some(i));
    }
    let function = Arc::new(function);
    let loops = ptx_opt::run_phase(PhaseId::OriLoopUnrolling, ctx, &function).loops;
    PtxasView {
        function,
        loops,
        inlined_from,
    }
}

/// Phase 22's report about loop `e`: the one whose header is `e`'s first
/// header instruction, else the first (phase 22 visits innermost loops
/// first) whose header lies in one of `e`'s blocks. Reports name the
/// origin of the first instruction of the header phase 22 saw, which is
/// not the input's header when phase 18 inverted the loop (the new header
/// is the body's first block) or an earlier phase merged or rewrote the
/// header's first instruction; the origin is still an instruction of the
/// input loop. `e` is an innermost loop, so an outer loop's report (its
/// header outside `e`) never matches it.
fn report_of<'r>(
    reports: &'r [ptx_opt::LoopReport],
    e: &SeqLoop,
) -> Option<&'r ptx_opt::LoopReport> {
    reports
        .iter()
        .find(|r| r.header.is_some() && r.header == e.header)
        .or_else(|| {
            reports
                .iter()
                .find(|r| r.header.is_some_and(|h| e.insts.contains(&h)))
        })
}

/// One innermost loop in the order ptxas lays out a function's code.
struct SeqLoop {
    function: String,
    /// The first instruction of its header (what `LoopReport::header` names).
    header: Option<ptx_ir::ir::InstId>,
    /// Every instruction of its blocks.
    insts: BTreeSet<ptx_ir::ir::InstId>,
    line: Option<u32>,
    bytes: u32,
    /// Those bytes per source line (the `.loc` of each memory access, not
    /// its call sites; empty without `.loc`).
    lines: BTreeMap<Key, u32>,
}

/// The innermost loops of `f` in layout order, with the loops of the
/// functions it calls that ptxas inlines (not in the SASS) spliced in at
/// each call site; a loop that calls such a function with loops is no
/// innermost loop any more, and the callee's loops stand for it.
fn flatten(
    module: &Module,
    files: &BTreeMap<u32, String>,
    f: &Function,
    in_sass: &BTreeSet<&str>,
    depth: u32,
    out: &mut Vec<SeqLoop>,
) {
    if depth > 8 {
        return;
    }
    let fo = forest(f);
    let inlined_callee = |i: ptx_ir::ir::InstId| -> Option<&Function> {
        let inst = &f.insts[i];
        if !inst.opcode.info.flags.is_call() {
            return None;
        }
        inst.operands.iter().find_map(|op| match op {
            ptx_ir::ir::Operand::Symbol { name, .. } if !in_sass.contains(name.as_str()) => module
                .functions
                .iter()
                .find(|g| g.sig.name == *name && !g.layout.is_empty()),
            _ => None,
        })
    };
    let calls_in = |blocks: &[ptx_ir::ir::BlockId]| -> Vec<&Function> {
        let mut v = Vec::new();
        for &b in &f.layout {
            if blocks.contains(&b) {
                v.extend(f.blocks[b].insts.iter().filter_map(|&i| inlined_callee(i)));
            }
        }
        v
    };
    let mut done: Vec<usize> = Vec::new();
    for &b in &f.layout {
        match fo.innermost(b).map(|l| l.0 as usize) {
            Some(l) if fo.loops[l].children.is_empty() => {
                if done.contains(&l) {
                    continue;
                }
                done.push(l);
                let lp = &fo.loops[l];
                let callees = calls_in(&lp.blocks);
                let with_loops: Vec<&Function> = callees
                    .into_iter()
                    .filter(|g| !forest(g).loops.is_empty())
                    .collect();
                if with_loops.is_empty() {
                    let first = f.blocks[lp.header].insts.first().copied();
                    // One walk: every instruction, the bytes, the bytes per line.
                    let (mut insts, mut bytes, mut lines) = (BTreeSet::new(), 0, BTreeMap::new());
                    for &i in lp.blocks.iter().flat_map(|&b| &f.blocks[b].insts) {
                        insts.insert(i);
                        let inst = &f.insts[i];
                        let n = ptx_bytes(inst);
                        bytes += n;
                        if let (Some(loc), 1..) = (inst.loc(), n) {
                            let file = files.get(&loc.file).map_or("", |p| base_name(p));
                            *lines.entry((file.to_string(), loc.line)).or_insert(0) += n;
                        }
                    }
                    out.push(SeqLoop {
                        function: f.sig.name.clone(),
                        header: first,
                        insts,
                        // The first line in the loop (a header holding only
                        // `.pragma "nounroll"` before a label has none).
                        line: f
                            .layout
                            .iter()
                            .filter(|b| lp.blocks.contains(b))
                            .flat_map(|&b| &f.blocks[b].insts)
                            .find_map(|&i| f.insts[i].loc().map(|l| l.line)),
                        bytes,
                        lines,
                    });
                } else {
                    for g in with_loops {
                        flatten(module, files, g, in_sass, depth + 1, out);
                    }
                }
            }
            _ => {
                for g in calls_in(&[b]) {
                    flatten(module, files, g, in_sass, depth + 1, out);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- output

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        100.0 * n as f64 / d as f64
    }
}

fn to_text(cicc: &[CiccRow], ptxas: &[PtxasRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "== cicc: our cicc loop-unroll phase on -Xcicc -O0 PTX vs cicc -O3 =="
    );
    let _ = writeln!(
        s,
        "{:<24} {:<34} {:>5}  {:<12} {:<12} agree / why (ours)",
        "source", "function", "line", "ours", "cicc -O3"
    );
    for r in cicc {
        let obs = r.cicc.map_or("?".to_string(), Kind::text);
        let agree = if r.cicc == Some(r.ours) { "yes" } else { "NO " };
        let mut func = r.function.clone();
        func.truncate(34);
        let _ = writeln!(
            s,
            "{:<24} {:<34} {:>5}  {:<12} {:<12} {} {}",
            r.source,
            func,
            r.line,
            r.ours.text(),
            obs,
            agree,
            r.why
        );
    }
    let measured: Vec<&CiccRow> = cicc.iter().filter(|r| r.cicc.is_some()).collect();
    let agree = measured.iter().filter(|r| r.cicc == Some(r.ours)).count();
    let _ = writeln!(
        s,
        "cicc agreement: {agree}/{} loops = {:.1}% (unmatched: {})",
        measured.len(),
        pct(agree, measured.len()),
        cicc.len() - measured.len()
    );
    for class in ["full", "partial", "none"] {
        let of: Vec<&&CiccRow> = measured
            .iter()
            .filter(|r| r.cicc.is_some_and(|k| k.class() == class))
            .collect();
        let a = of.iter().filter(|r| r.cicc == Some(r.ours)).count();
        let _ = writeln!(
            s,
            "  cicc did {class:<8}: {:>3} loops, we agree on {:>3} ({:.1}%)",
            of.len(),
            a,
            pct(a, of.len())
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "== ptxas: our phase 22 on nvcc -O3 PTX and the corpus vs cuobjdump -sass =="
    );
    let _ = writeln!(
        s,
        "{:<40} {:<34} {:>5}  {:<12} {:<20} why (ours)",
        "file", "function", "line", "ours (22)", "ptxas (SASS)"
    );
    for r in ptxas {
        let mut func = r.function.clone();
        func.truncate(34);
        let mut file = r.file.clone();
        file.truncate(40);
        let obs = match r.observed {
            Some((k, rem)) => format!("{}{}", k.text(), if rem { " +remainder" } else { "" }),
            None => format!("unmatched: {}", r.unmatched),
        };
        let _ = writeln!(
            s,
            "{:<40} {:<34} {:>5}  {:<12} {:<20} {}",
            file,
            func,
            r.line.map_or("-".into(), |l| l.to_string()),
            r.ours.map_or("no decision".into(), Kind::text),
            obs,
            r.why
        );
    }
    // The must-show's measure: nvcc -O3 PTX and the corpus.
    let measured: Vec<&PtxasRow> = ptxas
        .iter()
        .filter(|r| r.observed.is_some() && r.input == Input::Main)
        .collect();
    let (agree, nothing) = scores(&measured);
    let no_decision = measured.iter().filter(|r| r.ours.is_none()).count();
    let _ = writeln!(
        s,
        "ptxas agreement (nvcc -O3 PTX and the corpus): {agree}/{} loops = {:.1}% (no decision: {no_decision}; unmatched: {})",
        measured.len(),
        pct(agree, measured.len()),
        ptxas.iter().filter(|r| r.input == Input::Main).count() - measured.len()
    );
    let _ = writeln!(
        s,
        "\"unroll nothing\" would score: {nothing}/{} = {:.1}%",
        measured.len(),
        pct(nothing, measured.len())
    );
    // The loops of functions ptxas compiled as they are (no inlined copy,
    // whose code constant arguments change), those of the -Xcicc -O0 PTX
    // and those of the -O3 PTX whose loops cicc left rolled (loops as ptxas
    // gets them when cicc does not unroll).
    let own: Vec<&PtxasRow> = measured.iter().copied().filter(|r| !r.inlined).collect();
    let of = |input: Input| -> Vec<&PtxasRow> {
        ptxas
            .iter()
            .filter(|r| r.observed.is_some() && r.input == input)
            .collect()
    };
    let (o0, rolled) = (of(Input::CiccO0), of(Input::CiccRolled));
    for (label, rows) in [
        ("loops of a function's own code (not a callee's)", &own),
        ("on nvcc -Xcicc -O0 PTX (not in the figures above)", &o0),
        (
            "on nvcc -O3 PTX, cicc's unroller held to 1 (not in the figures above)",
            &rolled,
        ),
    ] {
        let (a, nothing) = scores(rows);
        let n = rows.len();
        let _ = writeln!(
            s,
            "  {label}: agreement {a}/{n} = {:.1}%, \"unroll nothing\" {nothing}/{n} = {:.1}%",
            pct(a, n),
            pct(nothing, n)
        );
    }
    for class in ["full", "partial", "none"] {
        let n = measured
            .iter()
            .filter(|r| r.observed.is_some_and(|o| o.0.class() == class))
            .count();
        let _ = writeln!(s, "  ptxas did {class:<8}: {n:>3} loops");
    }
    let rem = measured
        .iter()
        .filter(|r| r.observed.is_some_and(|o| o.1))
        .count();
    let _ = writeln!(s, "  with a remainder loop: {rem}");
    let mut unmatched: BTreeMap<&str, usize> = BTreeMap::new();
    for r in ptxas
        .iter()
        .filter(|r| r.observed.is_none() && r.input == Input::Main)
    {
        *unmatched.entry(r.unmatched).or_default() += 1;
    }
    for (why, n) in unmatched {
        let _ = writeln!(s, "  unmatched ({why}): {n}");
    }
    s
}

/// Rows where our decision equals what ptxas did, and rows where ptxas
/// unrolled nothing.
fn scores(rows: &[&PtxasRow]) -> (usize, usize) {
    let agree = rows
        .iter()
        .filter(|r| r.ours.is_some() && r.ours == r.observed.map(|o| o.0))
        .count();
    let nothing = rows
        .iter()
        .filter(|r| r.observed.is_some_and(|o| o.0 == Kind::None))
        .count();
    (agree, nothing)
}

fn to_json(cicc: &[CiccRow], ptxas: &[PtxasRow]) -> String {
    use serde_json::json;
    let kind = |k: Kind| match k {
        Kind::Full => json!({"kind": "full"}),
        Kind::Partial(n) => json!({"kind": "partial", "factor": n}),
        Kind::None => json!({"kind": "none"}),
    };
    let c: Vec<_> = cicc
        .iter()
        .map(|r| {
            json!({
                "source": r.source, "function": r.function, "line": r.line,
                "ours": kind(r.ours), "why": r.why,
                "cicc": r.cicc.map(kind),
                "agree": r.cicc == Some(r.ours),
            })
        })
        .collect();
    let p: Vec<_> = ptxas
        .iter()
        .map(|r| {
            json!({
                "file": r.file, "function": r.function, "line": r.line,
                "ours": r.ours.map(kind), "why": r.why,
                "ptxas": r.observed.map(|(k, rem)| json!({"observed": kind(k), "remainder": rem})),
                "unmatched": r.observed.is_none().then_some(r.unmatched),
                "inlined": r.inlined,
                "cicc_o0": r.input == Input::CiccO0,
                "input": r.input.name(),
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({"cicc": c, "ptxas": p})).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SASS: &str = "
        Function : k
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0020*/                   LDG.E R3, desc[UR4][R6.64] ;
        /*0030*/                   STG.E desc[UR4][R4.64], R2 ;
        /*0040*/                   STG.E desc[UR4][R6.64], R3 ;
        /*0050*/               @P0 BRA 0x10 ;
        /*0060*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0070*/                   STG.E desc[UR4][R4.64], R2 ;
        /*0080*/               @P1 BRA 0x60 ;
        /*0090*/                   EXIT ;
        /*00a0*/                   BRA 0xa0;
";

    #[test]
    fn parses_sass_and_finds_back_edges() {
        let f = parse_sass(SASS);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].0, "k");
        assert_eq!(f[0].1.len(), 11);
        assert_eq!(f[0].1[5].target, Some(0x10));
        let loops = sass_loops(&f[0].1);
        // The branch to itself at 0xa0 (the end-of-function trap) is no loop.
        assert_eq!(loops.len(), 2);
        assert_eq!(
            (loops[0].start, loops[0].end, loops[0].markers),
            (0x10, 0x50, 16)
        );
        assert_eq!(
            (loops[1].start, loops[1].end, loops[1].markers),
            (0x60, 0x80, 8)
        );
    }

    #[test]
    fn atomic_spin_loops_are_not_source_loops() {
        // A source loop (0x10..0xa0, line 5 loads, line 6 a generic
        // `atom.add.f64`) whose atomic ptxas dispatched on the address
        // space, with a compare-and-swap spin loop for shared memory
        // (0x50..0x70): the source loop is the innermost one, and the
        // atomic's line places it but gives no factor (0 bytes).
        let at = |addr: u64, opcode: &str, line: u32, target: Option<u64>| SassInst {
            addr,
            opcode: opcode.into(),
            target,
            line: Some(("k.cu".to_string(), line)),
        };
        let insts = vec![
            at(0x10, "LD.E.64", 5, None),
            at(0x20, "QSPC.E.G", 6, None),
            at(0x30, "REDG.E.ADD.F64.RN.STRONG.GPU", 6, None),
            at(0x40, "QSPC.E.S", 6, None),
            at(0x50, "LDS.64", 6, None),
            at(0x60, "ATOMS.CAST.SPIN.64", 6, None),
            at(0x70, "BRA", 6, Some(0x50)),
            at(0x80, "LD.E.64", 6, None),
            at(0x90, "ST.E.64", 6, None),
            at(0xa0, "BRA", 5, Some(0x10)),
        ];
        let loops = sass_loops(&insts);
        assert_eq!(loops.len(), 1);
        assert_eq!((loops[0].start, loops[0].end), (0x10, 0xa0));
        assert_eq!(loops[0].lines[&("k.cu".to_string(), 5)], 8);
        assert_eq!(loops[0].lines[&("k.cu".to_string(), 6)], 0);
        // Matched by its lines, not unrolled (the atomic's 5 copies in the
        // code do not count as a factor).
        let ptx = ptx_lines(&[(5, 8), (6, 8)]);
        assert_eq!(
            match_by_lines(&[&ptx], &loops, &insts),
            vec![Ok((Kindish::None, false))]
        );
    }

    #[test]
    fn reads_the_line_of_each_sass_instruction_from_nvdisasm() {
        let text = r#"
//--------------------- .text.k --------------------------
	.section	.text.k,"ax",@progbits
.text.k:
	//## File "/src/a/k.cu", line 7
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
	//## File "/src/a/k.cu", line 9 inlined at "/src/a/k.cu", line 30
        /*0020*/                   LDG.E R2, desc[UR4][R4.64] ;
.L_x_0:
.text.j:
        /*0000*/                   EXIT ;
"#;
        let t = sass_line_table(text);
        let k = &t["k"];
        assert_eq!(k[&0x0], ("k.cu".to_string(), 7));
        assert_eq!(k[&0x10], ("k.cu".to_string(), 7));
        assert_eq!(k[&0x20], ("k.cu".to_string(), 9));
        // A function before any annotation has no lines.
        assert!(!t.contains_key("j"));
    }

    /// A SASS loop `[start, end]` whose memory accesses move `lines`.
    fn sloop(start: u64, end: u64, lines: &[(u32, u32)]) -> SassLoop {
        SassLoop {
            start,
            end,
            markers: lines.iter().map(|l| l.1).sum(),
            lines: lines
                .iter()
                .map(|&(l, b)| (("k.cu".to_string(), l), b))
                .collect(),
        }
    }

    fn ptx_lines(lines: &[(u32, u32)]) -> BTreeMap<Key, u32> {
        lines
            .iter()
            .map(|&(l, b)| (("k.cu".to_string(), l), b))
            .collect()
    }

    /// A SASS instruction moving 4 bytes at `addr`, of source line `line`.
    fn access(addr: u64, line: u32) -> SassInst {
        SassInst {
            addr,
            opcode: "LDG.E".into(),
            target: None,
            line: Some(("k.cu".to_string(), line)),
        }
    }

    #[test]
    fn matches_loops_by_lines_whatever_the_layout() {
        // PTX: loop A (line 5, 4 bytes), loop B (lines 8 and 9), loop C
        // (line 12), loop D (line 20, removed by ptxas). SASS lays C out
        // first, unrolls A by 4 with a remainder loop, and B fully (its
        // accesses are straight code).
        let a = ptx_lines(&[(5, 4)]);
        let b = ptx_lines(&[(8, 4), (9, 8)]);
        let c = ptx_lines(&[(12, 4)]);
        let d = ptx_lines(&[(20, 4)]);
        let none = BTreeMap::new();
        let sass = [
            sloop(0x10, 0x40, &[(12, 4)]),
            sloop(0x100, 0x200, &[(5, 16)]),
            sloop(0x210, 0x240, &[(5, 4)]),
        ];
        let insts = [access(0x20, 12), access(0x300, 8), access(0x310, 9)];
        let got = match_by_lines(&[&a, &b, &c, &none, &d], &sass, &insts);
        assert_eq!(
            got,
            vec![
                Ok((Kindish::Partial(4), true)),
                Ok((Kindish::Full, false)),
                Ok((Kindish::None, false)),
                Err("no memory access with a line"),
                Err("removed (its code is not in the SASS)"),
            ]
        );
    }

    #[test]
    fn copies_of_an_inlined_loop_take_its_sass_loops_in_order() {
        // One callee loop inlined at two call sites: two PTX copies with
        // the same lines and two SASS loops, neither unrolled; a third
        // copy has no SASS loop of its own, and its accesses inside the
        // other copies' loops do not make it "fully unrolled".
        let a = ptx_lines(&[(5, 8)]);
        let sass = [sloop(0x10, 0x40, &[(5, 8)]), sloop(0x100, 0x140, &[(5, 8)])];
        let insts = [access(0x20, 5), access(0x110, 5)];
        let got = match_by_lines(&[&a, &a, &a], &sass, &insts);
        assert_eq!(
            got,
            vec![
                Ok((Kindish::None, false)),
                Ok((Kindish::None, false)),
                Err("removed (its code is not in the SASS)"),
            ]
        );
    }

    #[test]
    fn memory_bytes_of_sass_opcodes() {
        assert_eq!(sass_bytes("LDS.128"), 16);
        assert_eq!(sass_bytes("LDG.E.64"), 8);
        assert_eq!(sass_bytes("LDG.E.U8.CONSTANT"), 1);
        assert_eq!(sass_bytes("STG.E"), 4);
        assert_eq!(sass_bytes("ATOM.E.ADD.F64.RN.STRONG.GPU"), 8);
        assert_eq!(sass_bytes("STL.64"), 0);
        assert_eq!(sass_bytes("LDC.64"), 0);
        assert_eq!(sass_bytes("FFMA"), 0);
    }

    #[test]
    fn nested_loops_keep_only_the_innermost() {
        let text = "Function : n
        /*0000*/ LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/ LDS R2, [R4] ;
        /*0020*/ @P0 BRA 0x10 ;
        /*0030*/ @P1 BRA 0x0 ;
";
        let f = parse_sass(text);
        let loops = sass_loops(&f[0].1);
        assert_eq!(loops.len(), 1);
        assert_eq!((loops[0].start, loops[0].markers), (0x10, 4));
    }

    #[test]
    fn matches_replicated_bodies_and_remainders() {
        let l = |markers| SassLoop {
            start: 0,
            end: 0,
            markers,
            lines: BTreeMap::new(),
        };
        // PTX: a loop with 2 accesses unrolled x4 with a remainder, a loop
        // with 3 accesses gone, a loop with 1 access kept.
        let got = match_loops(&[2, 3, 0, 1], &[l(8), l(2), l(1)]);
        assert_eq!(
            got,
            vec![
                Some((Kindish::Partial(4), true)),
                Some((Kindish::Full, false)),
                None,
                Some((Kindish::None, false)),
            ]
        );
    }

    #[test]
    fn source_pragmas_become_annotations() {
        let src = "a\n#pragma unroll\n  for (;;) {}\n#pragma unroll 4\n\nfor\n";
        assert_eq!(source_pragma(src, 3).as_deref(), Some("unroll full"));
        assert_eq!(source_pragma(src, 6).as_deref(), Some("unroll 4"));
        assert_eq!(source_pragma(src, 1), None);
    }

    #[test]
    fn reads_cuobjdump_lines_with_encodings_and_predicates() {
        let text = "
\t\tFunction : prefix_unknown_trip
\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                        /* 0x00000a00ff017b82 */
        /*0010*/                   LDG.E R7, desc[UR4][R10.64] ;                 /* 0x000000040a077981 */
        /*0020*/                   LDG.E R24, desc[UR4][R24.64] ;                /* 0x0000000418187981 */
        /*0030*/              @!P0 BRA 0x10 ;                                    /* 0x0000000800ac8947 */
        /*0040*/                   LDG.E R9, desc[UR4][R24.64] ;                 /* 0x0000000418097981 */
        /*0050*/               @P1 BRA.U 0x40 ;                                  /* 0x0000000800188947 */
        /*0060*/                   BSSY B0, 0xba0 ;                              /* 0x000008c000007945 */
        /*0070*/                   EXIT ;                                        /* 0x000000000000794d */
        /*0080*/                   BRA 0x80;                                     /* 0xfffffffc00fc7947 */
";
        let f = parse_sass(text);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].0, "prefix_unknown_trip");
        let insts = &f[0].1;
        assert_eq!(insts.len(), 9);
        assert_eq!(insts[3].opcode, "BRA");
        assert_eq!(insts[3].target, Some(0x10));
        assert_eq!(insts[5].target, Some(0x40));
        // `BSSY` names an address but is no branch.
        assert_eq!(insts[6].target, None);
        let loops = sass_loops(insts);
        assert_eq!(loops.len(), 2);
        assert_eq!(
            (loops[0].start, loops[0].end, loops[0].markers),
            (0x10, 0x30, 8)
        );
        assert_eq!(
            (loops[1].start, loops[1].end, loops[1].markers),
            (0x40, 0x50, 4)
        );
        // PTX: one loop with one 4-byte load, unrolled x2 with a remainder
        // loop.
        assert_eq!(
            match_loops(&[4], &loops),
            vec![Some((Kindish::Partial(2), true))]
        );
    }

    #[test]
    fn alignment_skips_sass_loops_of_ptxas_own() {
        let l = |markers| SassLoop {
            start: 0,
            end: 0,
            markers,
            lines: BTreeMap::new(),
        };
        // A SASS loop no PTX loop explains (212 bytes) must not make every
        // later PTX loop "gone".
        let got = match_loops(&[4, 20, 16, 16], &[l(4), l(212), l(16), l(16)]);
        assert_eq!(
            got,
            vec![
                Some((Kindish::None, false)),
                Some((Kindish::Full, false)),
                Some((Kindish::None, false)),
                Some((Kindish::None, false)),
            ]
        );
        // A loop laid out at the end of the function is found there.
        let got = match_loops(&[4, 20, 16, 16], &[l(4), l(16), l(16), l(20)]);
        assert_eq!(got, vec![Some((Kindish::None, false)); 4]);
    }
}
