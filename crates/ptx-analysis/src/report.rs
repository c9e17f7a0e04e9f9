//! Readable reports: everything the analyses find about a function (for
//! snapshot tests and `ptxopt` output), and register pressure beside ptxas's
//! register counts (for an xtask over the corpus).
//!
//! Seed: `002_164789385e2e817e.txt`, "Machine Register Pressure Analysis" →
//! "Diagnostic output (sub_21E9A60)" (`Max Live RRegs: {n}\tPRegs: {m}` per
//! function); the other sections are those of the analyses reported.
//!
//! [`function_report`] runs every analysis on one function and prints: blocks
//! (label, loop depth, successors, predecessors, immediate dominator and
//! post-dominator), RPO, unreachable blocks, loops (header, depth, latches,
//! blocks, preheader, exits, trip count and IV), irreducible regions, maximum
//! live R/P and where (instruction and `.loc` line), per-block maxima,
//! occupancy, the latency-class and pipe histograms, ResMII/RecMII of
//! single-block loops, and the redundant instructions value numbering finds.
//!
//! [`pressure_report`] compares our maximum live R per function with ptxas's
//! `Used N registers` (parsed by [`parse_ptxas_register_counts`]); ptxas
//! allocates after its own optimizations, so this is a sanity check, not an
//! equality.
//!
//! No knobs.

use std::collections::BTreeMap;
use std::fmt::{self, Write};

use ptx_ir::ir::{Function, FunctionKind, InstId, Module};

use crate::cfg::{block_name, cfg, inst_name};
use crate::dominators::{dominators, post_dominators};
use crate::latency::{latency, loop_mii};
use crate::liveness::liveness;
use crate::loops::loops;
use crate::reaching_defs::reaching_defs;
use crate::reg_pressure::{reg_pressure, MaxAt};
use crate::target::{LatencyClass, Pipe, Target};
use crate::trip_count::{describe_iv, trip_counts, TripCount};
use crate::value_numbering::value_numbering;

fn list<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> String) -> String {
    let v: Vec<String> = items.into_iter().map(f).collect();
    if v.is_empty() {
        "-".to_string()
    } else {
        v.join(" ")
    }
}

/// `i17 (line 1:20)` or `i17 (no .loc)`.
pub fn inst_with_line(func: &Function, inst: InstId) -> String {
    match func.insts[inst].loc() {
        Some(loc) => format!("{} (line {}:{})", inst_name(inst), loc.file, loc.line),
        None => format!("{} (no .loc)", inst_name(inst)),
    }
}

fn max_at(func: &Function, m: &MaxAt) -> String {
    match m.inst {
        Some(i) => format!(
            "{} {} {}",
            m.value,
            if m.after { "after" } else { "before" },
            inst_with_line(func, i)
        ),
        None => format!("{} at entry", m.value),
    }
}

/// The report of one function on `target` (see the module documentation).
pub fn function_report(func: &Function, target: &Target) -> String {
    let mut out = String::new();
    let g = cfg(func);
    let dom = dominators(&g);
    let pdom = post_dominators(&g);
    let lf = loops(&g, &dom);
    let rd = reaching_defs(func, &g);
    let lv = liveness(func, &g);
    let rp = reg_pressure(func, &g, &lv);
    let tc = trip_counts(func, &g, &dom, &lf, &rd);
    let lat = latency(func, target);
    let mii = loop_mii(func, &lf, &lat, target);
    let vn = value_numbering(func, &g);

    let kind = match func.sig.kind {
        FunctionKind::Entry => ".entry",
        FunctionKind::Func => ".func",
    };
    let _ = writeln!(
        out,
        "function {} ({kind}), target {}: {} blocks, {} instructions, {} registers",
        func.name(),
        target.name,
        g.len(),
        func.insts_in_order().count(),
        func.regs.len()
    );
    let _ = writeln!(out, "blocks:");
    for &b in &g.blocks {
        let label = func.blocks[b].label.as_deref().unwrap_or("-");
        let _ = writeln!(
            out,
            "  {} {label} depth {} insts {}: succs [{}] preds [{}] idom {} ipdom {}",
            block_name(b),
            lf.depth(b),
            func.blocks[b].insts.len(),
            list(g.succs(b).iter().copied(), block_name),
            list(g.preds(b).iter().copied(), block_name),
            dom.idom(b).map_or("-".to_string(), block_name),
            match pdom.idom(b) {
                Some(p) => block_name(p),
                None if pdom.contains(b) => "exit".to_string(),
                None => "-".to_string(),
            }
        );
    }
    let _ = writeln!(out, "rpo: {}", list(g.rpo.iter().copied(), block_name));
    let _ = writeln!(
        out,
        "unreachable: {}",
        list(g.unreachable.iter().copied(), block_name)
    );
    if lf.loops.is_empty() {
        let _ = writeln!(out, "loops: none");
    } else {
        let _ = writeln!(out, "loops:");
    }
    for (i, l) in lf.loops.iter().enumerate() {
        let _ = writeln!(
            out,
            "  L{i}: header {} depth {} latches [{}] blocks [{}] parent {} preheader {} exits [{}]",
            block_name(l.header),
            l.depth,
            list(l.latches.iter().copied(), block_name),
            list(l.blocks.iter().copied(), block_name),
            l.parent.map_or("-".to_string(), |p| format!("L{}", p.0)),
            match l.preheader {
                Some(p) if l.preheader_dedicated => format!("{} (dedicated)", block_name(p)),
                Some(p) => block_name(p),
                None => "-".to_string(),
            },
            list(l.exits.iter(), |&(a, b)| format!(
                "{}->{}",
                block_name(a),
                block_name(b)
            )),
        );
        let t = &tc.loops[i];
        let count = match &t.count {
            TripCount::Known(n) => n.to_string(),
            TripCount::Unknown(r) => format!("unknown ({r})"),
        };
        let _ = writeln!(out, "      trip count {count}");
        if let Some(iv) = &t.iv {
            let _ = writeln!(out, "      iv {}", describe_iv(func, iv));
        }
    }
    if lf.irreducible.is_empty() {
        let _ = writeln!(out, "irreducible: none");
    }
    for r in &lf.irreducible {
        let _ = writeln!(
            out,
            "irreducible: blocks [{}] entries [{}] edges [{}]",
            list(r.blocks.iter().copied(), block_name),
            list(r.entries.iter().copied(), block_name),
            list(r.edges.iter(), |&(a, b)| format!(
                "{}->{}",
                block_name(a),
                block_name(b)
            )),
        );
    }
    let _ = writeln!(
        out,
        "pressure: max live R {}; max live P {}; occupancy at {} R: {} warps/SM",
        max_at(func, &rp.max.r),
        max_at(func, &rp.max.p),
        rp.max.r.value,
        target.occupancy(rp.max.r.value)
    );
    let _ = writeln!(
        out,
        "  per block: {}",
        list(g.blocks.iter().copied(), |b| {
            let m = rp.block_max(b);
            format!("{} R{} P{}", block_name(b), m.r.value, m.p.value)
        })
    );
    let _ = writeln!(
        out,
        "latency classes: {}",
        list(
            LatencyClass::ALL
                .iter()
                .filter(|c| lat.histogram[c.ordinal()] > 0),
            |c| format!("{}:{}", c.code(), lat.histogram[c.ordinal()])
        )
    );
    let _ = writeln!(
        out,
        "pipes: {}",
        list(
            Pipe::ALL
                .iter()
                .filter(|p| lat.pipe_histogram[p.index()] > 0),
            |p| format!("{}:{}", p.name(), lat.pipe_histogram[p.index()])
        )
    );
    if mii.is_empty() {
        let _ = writeln!(out, "mii: no single-block loop");
    }
    for m in &mii {
        let _ = writeln!(
            out,
            "mii L{}: ResMII {} RecMII {} MII {} ({})",
            m.loop_id.0,
            m.res_mii,
            m.rec_mii,
            m.mii,
            list(
                Pipe::ALL.iter().filter(|p| m.pipe_counts[p.index()] > 0),
                |p| format!(
                    "{} {}/{}",
                    p.name(),
                    m.pipe_counts[p.index()],
                    target.pipe_width(*p)
                )
            )
        );
    }
    let red = vn.redundant(&g, &dom);
    let _ = writeln!(
        out,
        "value numbers: {}; redundant: {}",
        vn.values.len(),
        list(red.iter(), |&(r, l)| format!(
            "{}={}",
            inst_name(r),
            inst_name(l)
        ))
    );
    out
}

/// Reports of every function of a module, on the module's target (or
/// `target` when given).
pub fn module_report(module: &Module, target: Option<&Target>) -> String {
    let target = target.cloned().unwrap_or_else(|| module_target(module));
    module
        .functions
        .iter()
        .map(|f| function_report(f, &target))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The profile for a module's `.target` (sm_75 when it has none).
pub fn module_target(module: &Module) -> Target {
    module
        .header
        .target
        .as_ref()
        .map_or(Target::SM75, |t| Target::for_arch(&t.arch))
}

/// `Used N registers` per function from `ptxas -v` output (entries and
/// functions alike, keyed by the name ptxas prints).
pub fn parse_ptxas_register_counts(output: &str) -> BTreeMap<String, u32> {
    let mut counts = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in output.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            current = rest.split('\'').next().map(str::to_string);
        } else if let Some(rest) = line.split("Function properties for ").nth(1) {
            current = Some(rest.trim().to_string());
        } else if let Some(rest) = line.split("Used ").nth(1) {
            let n = rest.split_whitespace().next().and_then(|n| n.parse().ok());
            if let (Some(name), Some(n)) = (current.clone(), n) {
                counts.insert(name, n);
            }
        }
    }
    counts
}

/// One function of a [`PressureReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct PressureRow {
    /// Module name or path, as the caller gave it.
    pub module: String,
    pub function: String,
    pub kind: FunctionKind,
    /// Our maximum live R (32-bit units) and P.
    pub max_r: u32,
    pub max_p: u32,
    /// Where our maximum R is reached.
    pub at: String,
    /// ptxas's `Used N registers`, when known.
    pub ptxas: Option<u32>,
    /// Our estimate of that count ([`crate::reg_estimate`]).
    pub estimate: u32,
    /// The rule that set the estimate, and its peak (32-bit units).
    pub rule: &'static str,
    pub peak: u32,
    /// The target's SM number the estimate was made for.
    pub sm: u32,
    /// The range ptxas's count is likely to fall in
    /// ([`crate::reg_estimate::likely_range`]).
    pub likely: (u32, u32),
}

impl PressureRow {
    /// `max_r / ptxas`.
    pub fn ratio(&self) -> Option<f64> {
        self.ptxas
            .filter(|&n| n > 0)
            .map(|n| self.max_r as f64 / n as f64)
    }

    /// `estimate / ptxas`.
    pub fn estimate_ratio(&self) -> Option<f64> {
        self.ptxas
            .filter(|&n| n > 0)
            .map(|n| self.estimate as f64 / n as f64)
    }
}

fn median(mut r: Vec<f64>) -> Option<f64> {
    r.sort_by(|a, b| a.total_cmp(b));
    match r.len() {
        0 => None,
        n if n % 2 == 1 => Some(r[n / 2]),
        n => Some((r[n / 2 - 1] + r[n / 2]) / 2.0),
    }
}

/// Our register pressure beside ptxas's register counts, with a summary.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PressureReport {
    pub rows: Vec<PressureRow>,
}

impl PressureReport {
    /// Adds the functions of one module; `ptxas` maps function names to
    /// `Used N registers` (see [`parse_ptxas_register_counts`]).
    pub fn add_module(&mut self, name: &str, module: &Module, ptxas: &BTreeMap<String, u32>) {
        self.add_module_with(name, module, ptxas, None)
    }

    /// [`PressureReport::add_module`] with how ptxas unrolls each loop of
    /// each function, in module order (see
    /// [`crate::reg_estimate::estimate_module`]).
    pub fn add_module_with(
        &mut self,
        name: &str,
        module: &Module,
        ptxas: &BTreeMap<String, u32>,
        unrolls: Option<&[Vec<(ptx_ir::ir::BlockId, u32)>]>,
    ) {
        let target = module_target(module);
        let estimates = crate::reg_estimate::estimate_module(module, &target, None, unrolls);
        for (f, est) in module.functions.iter().zip(&estimates) {
            let g = cfg(f);
            let lv = liveness(f, &g);
            let rp = reg_pressure(f, &g, &lv);
            let estimate = est.registers;
            self.rows.push(PressureRow {
                module: name.to_string(),
                function: f.name().to_string(),
                kind: f.sig.kind,
                max_r: rp.max.r.value,
                max_p: rp.max.p.value,
                at: match rp.max.r.inst {
                    Some(i) => inst_with_line(f, i),
                    None => "-".to_string(),
                },
                ptxas: ptxas.get(f.name()).copied(),
                estimate,
                rule: est.rule,
                peak: est.peak,
                sm: target.sm,
                likely: est.likely_range(target.max_regs_per_thread),
            });
        }
    }

    /// Ratios of the rows ptxas reported, sorted.
    pub fn ratios(&self) -> Vec<f64> {
        let mut r: Vec<f64> = self.rows.iter().filter_map(PressureRow::ratio).collect();
        r.sort_by(|a, b| a.total_cmp(b));
        r
    }

    /// The median of [`PressureReport::ratios`].
    pub fn median_ratio(&self) -> Option<f64> {
        median(self.ratios())
    }

    /// The median of the estimate's ratios to ptxas.
    pub fn estimate_median_ratio(&self) -> Option<f64> {
        median(
            self.rows
                .iter()
                .filter_map(PressureRow::estimate_ratio)
                .collect(),
        )
    }

    /// The estimate against ptxas: (compared, exact, within ±10%).
    pub fn estimate_counts(&self) -> (usize, usize, usize) {
        let mut n = (0, 0, 0);
        for r in &self.rows {
            let Some(p) = r.ptxas.filter(|&p| p > 0) else {
                continue;
            };
            n.0 += 1;
            n.1 += usize::from(r.estimate == p);
            n.2 += usize::from(r.estimate.abs_diff(p) as f64 <= 0.1 * p as f64);
        }
        n
    }

    /// The estimate's likely range against ptxas: (compared, ptxas inside
    /// the range).
    pub fn likely_counts(&self) -> (usize, usize) {
        let mut n = (0, 0);
        for r in &self.rows {
            let Some(p) = r.ptxas.filter(|&p| p > 0) else {
                continue;
            };
            n.0 += 1;
            n.1 += usize::from((r.likely.0..=r.likely.1).contains(&p));
        }
        n
    }

    /// The rows the estimate misses most (by |estimate - ptxas| / ptxas), at
    /// most `n`.
    pub fn worst_estimates(&self, n: usize) -> Vec<&PressureRow> {
        let mut rows: Vec<&PressureRow> = self
            .rows
            .iter()
            .filter(|r| r.estimate_ratio().is_some())
            .collect();
        rows.sort_by(|a, b| {
            let key = |r: &PressureRow| (r.estimate_ratio().unwrap_or(1.0) - 1.0).abs();
            key(b).total_cmp(&key(a))
        });
        rows.truncate(n);
        rows
    }

    /// The share of compared functions whose ratio is within ±20% of 1.
    pub fn share_within_20_percent(&self) -> Option<f64> {
        let r = self.ratios();
        if r.is_empty() {
            return None;
        }
        let within = r.iter().filter(|&&x| (0.8..=1.2).contains(&x)).count();
        Some(within as f64 / r.len() as f64)
    }
}

/// Builds a [`PressureReport`] over modules: `(name, module, ptxas counts)`.
pub fn pressure_report<'a>(
    modules: impl IntoIterator<Item = (&'a str, &'a Module, &'a BTreeMap<String, u32>)>,
) -> PressureReport {
    let mut report = PressureReport::default();
    for (name, module, counts) in modules {
        report.add_module(name, module, counts);
    }
    report
}

/// `s` cut to `width` characters with `...` at the end (or the start).
fn shorten(s: &str, width: usize, keep_end: bool) -> String {
    let n = s.chars().count();
    if n <= width {
        return s.to_string();
    }
    if keep_end {
        let tail: String = s.chars().skip(n - (width - 3)).collect();
        format!("...{tail}")
    } else {
        let head: String = s.chars().take(width - 3).collect();
        format!("{head}...")
    }
}

impl fmt::Display for PressureReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<28} {:<36} {:>6} {:>6} {:>6} {:>6} {:>6}  where",
            "module", "function", "maxR", "maxP", "ptxas", "ratio", "est"
        )?;
        for r in &self.rows {
            let name = shorten(&r.function, 36, false);
            let module = shorten(&r.module, 28, true);
            writeln!(
                f,
                "{:<28} {:<36} {:>6} {:>6} {:>6} {:>6} {:>6}  {}",
                module,
                name,
                r.max_r,
                r.max_p,
                r.ptxas.map_or("-".to_string(), |n| n.to_string()),
                r.ratio().map_or("-".to_string(), |x| format!("{x:.2}")),
                r.estimate,
                r.at
            )?;
        }
        let (compared, exact, within) = self.estimate_counts();
        let share = |k: usize| {
            if compared == 0 {
                "-".to_string()
            } else {
                format!("{:.0}%", k as f64 * 100.0 / compared as f64)
            }
        };
        writeln!(
            f,
            "estimate (reg_estimate) vs ptxas: {compared} functions; exact {}; within ±10%: {}; median ratio {}",
            share(exact),
            share(within),
            self.estimate_median_ratio()
                .map_or("-".to_string(), |m| format!("{m:.2}")),
        )?;
        let (compared, inside) = self.likely_counts();
        writeln!(
            f,
            "estimate's likely range: holds ptxas's count on {} of {compared} functions ({})",
            inside,
            share(inside),
        )?;
        let compared = self.ratios().len();
        write!(
            f,
            "live registers (max live R) vs ptxas: {} functions, {} compared; median ratio {}; within ±20%: {}",
            self.rows.len(),
            compared,
            self.median_ratio()
                .map_or("-".to_string(), |m| format!("{m:.2}")),
            self.share_within_20_percent()
                .map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ptxas_output_and_summarizes() {
        let out = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n\
                   ptxas info    : Function properties for k\n\
                   ptxas info    : Used 12 registers, used 0 barriers\n\
                   ptxas info    : Function properties for f\n\
                   ptxas info    : Used 8 registers\n";
        let counts = parse_ptxas_register_counts(out);
        assert_eq!(counts.get("k"), Some(&12));
        assert_eq!(counts.get("f"), Some(&8));

        let m = crate::test_util::module(
            ".entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n\
             ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\n\
             ld.global.u32 %r2, [%rd1+4];\nadd.s32 %r1, %r1, %r2;\n\
             st.global.u32 [%rd1], %r1;\nret;\n}\n",
        );
        let report = pressure_report([("m.ptx", &m, &counts)]);
        assert_eq!(report.rows[0].max_r, 4);
        assert_eq!(report.median_ratio(), Some(4.0 / 12.0));
        assert_eq!(report.share_within_20_percent(), Some(0.0));
        let text = report.to_string();
        assert!(text.contains("median ratio 0.33"), "{text}");
    }

    #[test]
    fn median_of_even_count() {
        let mut r = PressureReport::default();
        for (ours, theirs) in [(10, 10), (20, 10), (5, 10), (12, 10)] {
            r.rows.push(PressureRow {
                module: "m".into(),
                function: "f".into(),
                kind: FunctionKind::Entry,
                max_r: ours,
                max_p: 0,
                at: "-".into(),
                ptxas: Some(theirs),
                estimate: ours,
                rule: "pressure",
                peak: ours,
                sm: 80,
                likely: crate::reg_estimate::likely_range(ours, 255),
            });
        }
        // ptxas 10 is in 10's range (8..=15) and 12's (9..=17), not in
        // 20's (15..=25) nor 5's (5..=7).
        assert_eq!(r.likely_counts(), (4, 2));
        assert_eq!(r.median_ratio(), Some(1.1));
        assert_eq!(r.share_within_20_percent(), Some(0.5));
        assert_eq!(r.estimate_counts(), (4, 1, 1));
        assert_eq!(r.estimate_median_ratio(), Some(1.1));
        assert_eq!(r.worst_estimates(1)[0].estimate, 20);
    }
}
