//! cicc's MachinePipeliner (`machine-pipeliner`): Swing Modulo Scheduling
//! of single-block loops, and the PTX prologue/kernel/epilogue when a
//! schedule overlaps iterations.
//!
//! Seed `003_5f2fcdae57e69502.txt`, "MachinePipeliner: Swing Modulo
//! Scheduling": Phase 1 (DDG of the single-block body, node latencies,
//! RecMII, ResMII, `MII = max(ResMII, RecMII)`), the II search from MII over
//! `pipeliner-ii-search-range` (or `pipeliner-force-ii`), Phase 3 (ASAP/ALAP),
//! Phase 4 (node ordering, direction, cycle probing in the MRT, failure
//! moves to II + 1), Phase 5 (stages, `numStages = (lastCycle -
//! firstCycle) / II`), the "Error Conditions" table (each diagnostic is a
//! missed remark with the seed's text; success is an applied remark
//! "Pipelined succesfully!" [sic]) and the "Pipeliner Knobs" table.
//!
//! # Knobs (seed 003 names and defaults)
//!
//! - `enable-pipeliner` (true): master switch.
//! - `pipeliner-max-mii` (27): `MII > SwpMaxMii` refuses the loop.
//! - `pipeliner-force-ii` (0): try that II only.
//! - `pipeliner-ii-search-range` (10): IIs `MII..=MII+range` are tried.
//! - `pipeliner-max-stages` (3): a schedule with `numStages > 3` is skipped
//!   (the search goes on at II + 1, as the seed's `ii_search`); when no II
//!   is left the diagnostic is "Too many stages ..." if that was why.
//! - `pipeliner-ignore-recmii` (false): RecMII forced to 0.
//! - `pipeliner-register-pressure` (false) and
//!   `pipeliner-register-pressure-margin` (5): the register-pressure back-off
//!   (`verify_pressure`): a schedule whose MaxLive estimate (registers live
//!   into the loop plus `ceil(sum of value lifetimes / II)`) exceeds the
//!   register limit (`--maxrregcount`, else the target's per-thread maximum)
//!   less the margin percent is skipped, and the search goes on. A
//!   user-set `--maxrregcount` turns it on whatever the knob says (the
//!   pressure passes aim under that limit).
//! - `pipeliner-annotate-for-testing` (false): report the schedule, do not
//!   generate code.
//! - `pipeliner-keep-register-peak` (true; ptxopt's own, not cicc's): a
//!   schedule whose code raises the function's peak register pressure
//!   (MRPA, R units) is not kept. On PTX the overlap the kernel
//!   code gains is scheduled again by ptxas; what ptxas keeps for sure is
//!   the registers the overlapped iterations hold, so a pipelined loop that
//!   becomes the function's pressure peak costs registers (and occupancy)
//!   for a gain ptxas may not keep. Loops below the peak are pipelined.
//!   Under a user-set `--maxrregcount` a schedule is also not kept when
//!   it raises the loop's own pressure over that limit (where ptxas would
//!   spill): dealii at `--maxrregcount 32` spilled 7,884 bytes over the 27
//!   functions that spill with the pipelined loops, 7,620 without (x:
//!   7,720).
//!   The pressure after a schedule is emitted comes from one MRPA tracker
//!   of the function, updated over the blocks the emission rewrote
//!   (`Mrpa::update_region`: the values live into and out of the loop stay
//!   in their registers, so nothing outside changes); `verify-update-mcse`
//!   checks it against a full recomputation, a mismatch being a missed
//!   remark `mrpa-verify`.
//! - Not read: `enable-pipeliner-opt-size` (no -Os here),
//!   `pipeliner-prune-deps` / `pipeliner-prune-loop-carried` (there are no
//!   PHIs; the graph has no order edges to prune), the debug knobs
//!   (`pipeliner-show-mask`, `pipeliner-dbg-res`), and the code-generator
//!   choice (`pipeliner-experimental-cg`, `pipeliner-mve-cg`,
//!   `pipeliner-enable-copytophi`): there is one generator, below.
//!   `pipeliner-force-issue-width` has no counterpart: resources are the
//!   target's pipe widths.
//!
//! # Adapted from LLVM-MIR to PTX
//!
//! - Bodies of more than [`MAX_BODY`] (256) instructions are not scheduled
//!   (a compile-time bound; the seed notes N < 100 in practice).
//! - The DDG ([`super::modulo::Ddg`], shared with phase 24) has register
//!   true, anti and output dependences and memory order
//!   ([`super::modulo::DepKinds::All`]). Latencies and resources are the
//!   latency classes and pipes of `ptx_analysis::latency` (seed 000): cicc's
//!   NVPTX target has no scheduling model of its own to copy.
//! - Node ordering follows LLVM's `computeNodeOrder` in a reduced form: the
//!   loop-control slice first (see below), then the recurrences (strongly
//!   connected components with a loop-carried edge) by decreasing RecMII,
//!   then the other nodes; inside a set the
//!   order swings between top-down (highest height first, successors
//!   next) and bottom-up (deepest first, predecessors next).
//! - Code generation is MVE (the seed's default `pipeliner-mve-cg`),
//!   adapted to registers that are not SSA: only the values written once
//!   per iteration, read after their def and not after the loop
//!   ([`super::modulo::renamable`]) are expanded; every other register
//!   keeps its name and the schedule honours its anti and output
//!   dependences. [`super::modulo::emit_pipelined`] explains why the result
//!   is exact. The loop's own exit test must be decided in stage 0 (the
//!   predicate of the back edge written in stage 0), so that no iteration
//!   starts before the test that says it exists: the prologue tests after
//!   each step and has one epilogue per exit, which is the guarded runtime
//!   check, correct for every trip count; a schedule that puts the test in
//!   a later stage is skipped as "loop control not in stage 0" and the II
//!   search goes on.
//! - Profitability: code is generated for a schedule with overlapped
//!   iterations (`numStages >= 1`, so II is below the length of one
//!   iteration); `numStages == 0` is the seed's "No need to pipeline".
//!   ptxopt's own rule (not in the seed, no knob): a loop that never runs
//!   more than `numStages` iterations per entry is not rewritten, since
//!   the prologue (which tests the exit after each step) and the epilogue
//!   would run all of them and the kernel never: the code grows and
//!   nothing overlaps more than in the loop as it was. The bound comes
//!   from [`max_trips`]: the remainder loop of a runtime unroll by `k`
//!   (`n mod k` iterations, at most `k - 1`). Of the bench-quality
//!   kernels, it changes `dsum` at -O3 (its remainder loop had been
//!   pipelined: PTX 104 -> 47 instructions, SASS 131 -> 66, the same
//!   dynamic count); the other remainder loops find no schedule (barriers,
//!   too many stages) or one that raises the register peak.
//!
//! # Relation to phase 24 (OriPipelining)
//!
//! Both pipeliners take single-block loops and share the DDG, RecMII,
//! ResMII and MRT ([`super::modulo`]). Phase 24 is ptxas's decision (an
//! iterative modulo schedule of the body in program order, its feasibility
//! filter and knobs, reported only); this phase is cicc's (SMS ordering,
//! the seed 003 knobs and diagnostics) and rewrites the loop. In the real
//! toolchain cicc's pipeliner runs first, on the machine IR that becomes the
//! PTX, and ptxas's phase 24 then sees the pipelined kernel.

use std::sync::Arc;

use ptx_analysis::Target;
use ptx_ir::ir::def_use::defs_and_uses;
use ptx_ir::ir::{BlockId, Function, InstId, Operand, RegId};
use ptx_isa::{Cmp, FamilyId};

use super::known::{compare, int_imm, plain_reg, Accesses};
use super::modulo::{self, Ddg, DepKinds, Edge, Mrt};
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

const NAME: &str = "pipeliner";

/// The knobs the phase reads.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub max_mii: i64,
    pub force_ii: i64,
    pub ii_search_range: i64,
    pub max_stages: i64,
    pub ignore_recmii: bool,
    pub register_pressure: bool,
    pub register_pressure_margin: i64,
    pub annotate_only: bool,
    /// The register limit for the pressure back-off.
    pub reg_limit: u32,
}

impl Config {
    pub fn from_ctx(ctx: &dyn PassContext, target: &Target) -> Config {
        // A user-set `--maxrregcount` turns the back-off on: the pressure
        // passes aim under that limit.
        let register_pressure =
            ctx.bool(knobs::pipeliner_register_pressure) || ctx.max_regs().is_some();
        Config {
            max_mii: ctx.int(knobs::pipeliner_max_mii),
            force_ii: ctx.int(knobs::pipeliner_force_ii),
            ii_search_range: ctx.int(knobs::pipeliner_ii_search_range),
            max_stages: ctx.int(knobs::pipeliner_max_stages),
            ignore_recmii: ctx.bool(knobs::pipeliner_ignore_recmii),
            register_pressure,
            register_pressure_margin: ctx.int(knobs::pipeliner_register_pressure_margin),
            annotate_only: ctx.bool(knobs::pipeliner_annotate_for_testing),
            reg_limit: if register_pressure {
                ctx.max_regs().unwrap_or(target.max_regs_per_thread)
            } else {
                target.max_regs_per_thread
            },
        }
    }
}

/// A successful swing modulo schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmsSchedule {
    pub res_mii: u32,
    pub rec_mii: u32,
    pub mii: u32,
    pub ii: u32,
    /// The seed's `numStages`: `(lastCycle - firstCycle) / II` (0: no
    /// overlap).
    pub num_stages: u32,
    /// Start cycle of each body instruction (first 0).
    pub times: Vec<u32>,
    /// One iteration's length (last start + its latency).
    pub length: u32,
    /// MaxLive estimate.
    pub max_live: u32,
}

/// Runs the pipeliner on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::enable_pipeliner) {
        return PhaseOutput::unchanged(input);
    }
    let li = super::version_cache::loop_info(input);
    if li.forest.loops.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let target = ctx.target();
    let cfg = Config::from_ctx(ctx, &target);
    // The copy the schedules are emitted into, made at the first one.
    let mut func: Option<Function> = None;
    let mut changed = false;
    // With `keep_peak`: the function's peak R pressure (MRPA) before any
    // schedule, which a kept schedule may not raise (see the module
    // documentation), and MRPA of the function as emitted so far, brought
    // up to date over the region each kept schedule rewrote. Made at the
    // first schedule emitted.
    let mrpa_cfg = crate::context::mrpa_config(ctx);
    let keep_peak = ctx.bool(knobs::pipeliner_keep_register_peak);
    let mut pressure: Option<(u32, ptx_analysis::mrpa::Mrpa)> = None;
    let mut out = PhaseOutput::unchanged(input);
    let (mut pipelined, mut missed) = (0u64, 0u64);
    // Reads of each register in `input` (the loops are analyzed on it).
    let mut use_counts: Option<modulo::UseCounts> = None;
    for l in &li.forest.loops {
        if !l.is_single_block() {
            continue; // SMS takes single-block loops only (no remark).
        }
        let header = l.header;
        let mut report = super::loop_common::loop_report(id, input, header);
        let (kind, message) = match shape(input, header) {
            Err(why) => (RemarkKind::Missed, format!("not pipelined: {why}")),
            Ok(shape) => {
                let guard = input.insts[shape.branch].guard.map(|g| g.reg);
                let uses = use_counts.get_or_insert_with(|| modulo::UseCounts::new(input));
                let renamed = modulo::renamable(input, uses, header, &shape.body, guard);
                let ddg = Ddg::build(input, &shape.body, &target, DepKinds::All, &renamed);
                let control = control_nodes(input, &shape);
                match sms(&ddg, &control, &target, &cfg) {
                    Err(d) => {
                        report.facts.extend(d.facts.clone());
                        (RemarkKind::Missed, d.message)
                    }
                    Ok(s) => {
                        report.facts.extend([
                            ("body instructions", shape.body.len().to_string()),
                            ("ResMII", s.res_mii.to_string()),
                            ("RecMII", s.rec_mii.to_string()),
                            ("MII", s.mii.to_string()),
                            ("II", s.ii.to_string()),
                            ("numStages", s.num_stages.to_string()),
                            ("iteration length", s.length.to_string()),
                            ("MaxLive", s.max_live.to_string()),
                        ]);
                        let numbers = format!(
                            "II {} (MII {}), numStages {} ({} stages)",
                            s.ii,
                            s.mii,
                            s.num_stages,
                            s.num_stages + 1
                        );
                        // A loop that never runs more iterations than the
                        // schedule has stages after the first would run them
                        // all in the prologue and epilogue: code, no overlap.
                        let acc = super::version_cache::accesses(input);
                        let cfg_in = super::version_cache::cfg_of(input);
                        let excluded = entry_exclusions(input, &cfg_in, &acc, header, &shape.body);
                        let bound = max_trips(input, &acc, &excluded, &shape)
                            .filter(|&(most, _)| most <= s.num_stages as u64);
                        if let Some((most, why)) = bound {
                            report.facts.push(("most trips", most.to_string()));
                            (
                                RemarkKind::Missed,
                                format!(
                                    "schedule found but not applied: the loop runs at most {most} time{} per entry ({why}), \
                                     no more than numStages: its iterations would all run in the prologue and epilogue, the kernel never: {numbers}",
                                    if most == 1 { "" } else { "s" }
                                ),
                            )
                        } else if cfg.annotate_only {
                            (
                                RemarkKind::Missed,
                                format!("schedule found, code not generated (pipeliner-annotate-for-testing): {numbers}"),
                            )
                        } else {
                            let func = func.get_or_insert_with(|| (**input).clone());
                            // The function as it is, but for its register
                            // table: the emission only adds registers, so
                            // a dropped schedule truncates the table back
                            // (sharing it with `before` made every attempt
                            // copy the whole table at its first new
                            // register).
                            let regs_before = func.regs.len();
                            let before = keep_peak.then(|| Function {
                                regs: Default::default(),
                                ..func.clone()
                            });
                            modulo::emit_pipelined(
                                func,
                                header,
                                &shape.body,
                                shape.branch,
                                shape.exit,
                                &s.times,
                                s.ii,
                                s.num_stages + 1,
                                &renamed,
                            );
                            let raised = before.and_then(|before| {
                                // Before the first emission `func` was `input`.
                                let (peak, mrpa) = pressure.get_or_insert_with(|| {
                                    let m = super::version_cache::mrpa(input, mrpa_cfg);
                                    (m.max().r.value, m)
                                });
                                let region = rewritten_blocks(&before, func);
                                let loop_before = mrpa.block_max(header).r.value;
                                // The update is tried in place and undone
                                // when the schedule is dropped (after a
                                // verification mismatch, which rebuilt the
                                // tracker, it is rebuilt again instead).
                                let (result, undo) = mrpa.try_update_region(func, &region);
                                let rebuilt = result.is_err();
                                if let Err(e) = result {
                                    out.remarks.push(crate::context::mrpa_mismatch_remark(
                                        id,
                                        report.header,
                                        e.message,
                                    ));
                                    mrpa.rebuild(func);
                                }
                                let after = mrpa.max().r.value;
                                // Under a user-set limit, the loop may not
                                // rise over it either (ptxas would spill).
                                let loop_after = region
                                    .iter()
                                    .map(|&b| mrpa.block_max(b).r.value)
                                    .max()
                                    .unwrap_or(0);
                                let over_limit = ctx.max_regs().filter(|&limit| {
                                    loop_after > limit && loop_after > loop_before
                                });
                                let dropped = if after > *peak {
                                    Some((after, format!("it raises the function's register pressure from {peak} to {after} (MRPA R units), which ptxas would allocate")))
                                } else {
                                    over_limit.map(|limit| (loop_after, format!("it raises the loop's register pressure from {loop_before} to {loop_after} (MRPA R units), over the --maxrregcount limit {limit}")))
                                };
                                if dropped.is_some() {
                                    let regs = std::mem::take(&mut func.regs);
                                    *func = Function { regs, ..before };
                                    func.truncate_regs(regs_before);
                                    if rebuilt {
                                        mrpa.rebuild(func);
                                    } else {
                                        mrpa.undo_region(undo);
                                        // The verification mode checks
                                        // the undo too.
                                        if mrpa_cfg.verify {
                                            if let Err(e) = mrpa.verify(func) {
                                                out.remarks.push(
                                                    crate::context::mrpa_mismatch_remark(
                                                        id,
                                                        report.header,
                                                        e.message,
                                                    ),
                                                );
                                            }
                                        }
                                    }
                                }
                                dropped
                            });
                            if let Some((after, why)) = raised {
                                report.facts.push(("pressure after", after.to_string()));
                                (
                                    RemarkKind::Missed,
                                    format!("schedule found but not applied: {why}: {numbers}"),
                                )
                            } else {
                                changed = true;
                                (
                                    RemarkKind::Applied,
                                    format!("Pipelined succesfully! {numbers}"),
                                )
                            }
                        }
                    }
                }
            }
        };
        match kind {
            RemarkKind::Applied => pipelined += 1,
            RemarkKind::Missed => missed += 1,
        }
        report.summary = message.clone();
        out.remarks.push(Remark {
            phase: id,
            kind,
            name: NAME,
            origin: report.header,
            message,
        });
        out.loops.push(report);
    }
    if let Some(func) = func.filter(|_| changed) {
        out.function = Arc::new(func);
    }
    out.stats = vec![
        Stat {
            name: "loops pipelined",
            value: pipelined,
        },
        Stat {
            name: "loops not pipelined",
            value: missed,
        },
    ];
    out
}

/// The blocks of `after` that a rewrite of `before` created or changed:
/// new blocks, blocks written (their `Arc` is no longer the one `before`
/// shares), blocks holding an instruction written or new, and blocks
/// whose fallthrough successor changed: what [`Mrpa::update_region`]
/// (ptx_analysis::mrpa) needs named.
fn rewritten_blocks(before: &Function, after: &Function) -> Vec<BlockId> {
    let next: rustc_hash::FxHashMap<BlockId, BlockId> =
        before.layout.windows(2).map(|w| (w[0], w[1])).collect();
    let old_next = |b: BlockId| next.get(&b).copied();
    after
        .layout
        .iter()
        .enumerate()
        .filter(|&(pos, &b)| {
            let n = b.into_raw().into_u32() as usize;
            n >= before.blocks.len()
                || !std::sync::Arc::ptr_eq(before.blocks.shared(b), after.blocks.shared(b))
                || after.blocks[b].insts.iter().any(|&i| {
                    i.into_raw().into_u32() as usize >= before.insts.len()
                        || !std::sync::Arc::ptr_eq(before.insts.shared(i), after.insts.shared(i))
                })
                || old_next(b) != after.layout.get(pos + 1).copied()
        })
        .map(|(_, &b)| b)
        .collect()
}

/// The largest body the pipeliner schedules (the seed: "bounded in
/// practice by small loop sizes (N < 100)"; ordering and placement are
/// cubic in the worst case).
pub const MAX_BODY: usize = 256;

/// The parts of a loop the pipeliner rewrites.
struct Shape {
    body: Vec<InstId>,
    branch: InstId,
    exit: ptx_ir::ir::BlockId,
}

/// The single-block loop `header` as body + guarded back edge falling
/// through to its exit, with nothing on the control/barrier path.
fn shape(func: &Function, header: ptx_ir::ir::BlockId) -> Result<Shape, String> {
    if func.blocks[header]
        .annotations
        .iter()
        .any(|a| a == modulo::PIPELINED)
    {
        return Err("already pipelined (the kernel of a pipelined loop)".into());
    }
    let insts = &func.blocks[header].insts;
    let Some((&branch, body)) = insts.split_last() else {
        return Err("empty loop block".into());
    };
    let b = &func.insts[branch];
    if b.opcode.info.family != FamilyId::Bra
        || b.guard.is_none()
        || b.operands != [Operand::Label(header)]
    {
        return Err("the block does not end with a guarded branch to itself".into());
    }
    if body.len() > MAX_BODY {
        return Err(format!(
            "{} instructions (the pipeliner takes at most {MAX_BODY})",
            body.len()
        ));
    }
    let Some(exit) = func.next_in_layout(header) else {
        return Err("the loop falls off the end of the function".into());
    };
    for &i in body {
        let inst = &func.insts[i];
        if let Some(why) = modulo::control_or_barrier(inst) {
            return Err(why);
        }
        let f = inst.opcode.info.flags;
        if f.has_side_effects() && !(f.loads() || f.stores()) {
            return Err(format!("`{}` has side effects", inst.opcode.text()));
        }
    }
    Ok(Shape {
        body: body.to_vec(),
        branch,
        exit,
    })
}

/// Body nodes that write the back edge's predicate (they must be in
/// stage 0).
fn control_nodes(func: &Function, shape: &Shape) -> Vec<usize> {
    let Some(g) = func.insts[shape.branch].guard else {
        return Vec::new();
    };
    shape
        .body
        .iter()
        .enumerate()
        .filter(|(_, &i)| defs_and_uses(&func.insts[i]).defs.contains(&g.reg))
        .map(|(k, _)| k)
        .collect()
}

/// A seed diagnostic and the numbers behind it.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub message: String,
    pub facts: Vec<(&'static str, String)>,
}

/// Why one II did not give a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IiFailure {
    Placement,
    TooManyStages,
    Control,
    Pressure,
}

/// The seed's II search over SMS placements.
pub fn sms(
    ddg: &Ddg,
    control: &[usize],
    target: &Target,
    cfg: &Config,
) -> Result<SmsSchedule, Diagnostic> {
    let n = ddg.len();
    let res_mii = modulo::res_mii(&ddg.pipe_counts(), target);
    let mut rec_mii = modulo::rec_mii(n, &ddg.edges);
    if cfg.ignore_recmii {
        rec_mii = 0;
    }
    let mii = res_mii.max(rec_mii);
    let facts = vec![
        ("ResMII", res_mii.to_string()),
        ("RecMII", rec_mii.to_string()),
        ("MII", mii.to_string()),
    ];
    let diag = |message: String, facts: &[(&'static str, String)]| Diagnostic {
        message,
        facts: facts.to_vec(),
    };
    if mii == 0 {
        return Err(diag(
            "Invalid Minimal Initiation Interval: 0".into(),
            &facts,
        ));
    }
    if i64::from(mii) > cfg.max_mii {
        return Err(diag(
            format!(
                "Minimal Initiation Interval too large: MII > SwpMaxMii (MII {mii}, pipeliner-max-mii {})",
                cfg.max_mii
            ),
            &facts,
        ));
    }
    let iis: Vec<u32> = if cfg.force_ii > 0 {
        vec![cfg.force_ii.min(i64::from(u32::MAX)) as u32]
    } else {
        let range = cfg.ii_search_range.clamp(0, 1 << 16) as u32;
        (mii..=mii.saturating_add(range)).collect()
    };
    let mut worst = None;
    let asap0 = asap(ddg);
    for ii in iis {
        // The loop control's own chain must fit in stage 0.
        if control.iter().any(|&c| asap0[c] >= i64::from(ii)) {
            worst = Some(match worst {
                None | Some(IiFailure::Placement) => IiFailure::Control,
                Some(w) => w,
            });
            continue;
        }
        let why = match try_ii(ddg, control, target, ii) {
            Err(()) => IiFailure::Placement,
            Ok(times) => {
                let last = times.iter().copied().max().unwrap_or(0);
                let num_stages = last / ii;
                let length = (0..n)
                    .map(|k| times[k] + ddg.lat[k].stall.max(1))
                    .max()
                    .unwrap_or(1);
                if num_stages == 0 {
                    let mut f = facts.clone();
                    f.push(("II", ii.to_string()));
                    return Err(diag(
                        format!("No need to pipeline - no overlapped iterations in schedule. (II {ii}, MII {mii})"),
                        &f,
                    ));
                }
                if i64::from(num_stages) > cfg.max_stages {
                    IiFailure::TooManyStages
                } else if control.iter().any(|&k| times[k] >= ii) {
                    IiFailure::Control
                } else {
                    let max_live = max_live(ddg, &times, ii);
                    let limit = u64::from(cfg.reg_limit)
                        * (100 - cfg.register_pressure_margin.clamp(0, 100)) as u64
                        / 100;
                    if cfg.register_pressure && u64::from(max_live) > limit {
                        IiFailure::Pressure
                    } else {
                        return Ok(SmsSchedule {
                            res_mii,
                            rec_mii,
                            mii,
                            ii,
                            num_stages,
                            times,
                            length,
                            max_live,
                        });
                    }
                }
            }
        };
        // The most informative reason wins (a later II's placement failure
        // does not hide an earlier stage-count one).
        worst = Some(match worst {
            None => why,
            Some(IiFailure::Placement) => why,
            Some(w) => w,
        });
    }
    let message = match worst {
        Some(IiFailure::TooManyStages) => format!(
            "Too many stages in schedule: numStages > SwpMaxStages (pipeliner-max-stages {}, MII {mii})",
            cfg.max_stages
        ),
        Some(IiFailure::Control) => format!(
            "Unable to find schedule: loop control not in stage 0 (MII {mii})"
        ),
        Some(IiFailure::Pressure) => format!(
            "Unable to find schedule: register pressure over the limit less {}% (MII {mii})",
            cfg.register_pressure_margin
        ),
        _ => format!("Unable to find schedule (MII {mii})"),
    };
    Err(diag(message, &facts))
}

/// MaxLive estimate: `ceil(sum of lifetimes / II)` over the values the body
/// defines and uses, plus the registers read but not written in the body.
fn max_live(ddg: &Ddg, times: &[u32], ii: u32) -> u32 {
    let mut sum = 0u64;
    let mut lifetime = vec![0u64; ddg.len()];
    for e in &ddg.edges {
        if e.latency > 0 && (e.from != e.to || e.distance > 0) {
            let end = i64::from(times[e.to]) + i64::from(ii * e.distance);
            let span = (end - i64::from(times[e.from])).max(1) as u64;
            lifetime[e.from] = lifetime[e.from].max(span);
        }
    }
    for l in lifetime {
        sum += l;
    }
    sum.div_ceil(u64::from(ii.max(1))) as u32
}

/// ASAP over the distance-0 edges (program order is topological).
fn asap(ddg: &Ddg) -> Vec<i64> {
    let n = ddg.len();
    let mut a = vec![0i64; n];
    for k in 0..n {
        for e in ddg.edges.iter().filter(|e| e.to == k && e.distance == 0) {
            a[k] = a[k].max(a[e.from] + i64::from(e.latency));
        }
    }
    a
}

/// ALAP over the distance-0 edges; leaves get the critical path length.
fn alap(ddg: &Ddg, asap: &[i64]) -> Vec<i64> {
    let n = ddg.len();
    let bound = asap.iter().copied().max().unwrap_or(0);
    let mut a = vec![bound; n];
    for k in (0..n).rev() {
        for e in ddg.edges.iter().filter(|e| e.from == k && e.distance == 0) {
            a[k] = a[k].min(a[e.to] - i64::from(e.latency));
        }
    }
    a
}

/// The recurrences: strongly connected components with a cycle (from the
/// transitive closure; loop bodies are small).
fn sccs(n: usize, edges: &[Edge]) -> Vec<Vec<usize>> {
    // Reachability closure: fine for loop bodies (N < a few hundred).
    let mut reach = vec![vec![false; n]; n];
    for e in edges {
        reach[e.from][e.to] = true;
    }
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (x, &y) in row.iter_mut().zip(&via) {
                    *x |= y;
                }
            }
        }
    }
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for i in 0..n {
        if seen[i] || !reach[i][i] {
            continue;
        }
        let comp: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
        for &j in &comp {
            seen[j] = true;
        }
        out.push(comp);
    }
    out
}

/// The SMS node order (see the module documentation).
fn node_order(ddg: &Ddg, asap: &[i64], alap: &[i64], control: &[usize]) -> Vec<usize> {
    let n = ddg.len();
    let bound = asap.iter().copied().max().unwrap_or(0);
    let height: Vec<i64> = alap.iter().map(|a| bound - a).collect();
    let mut sets: Vec<(u32, Vec<usize>)> = sccs(n, &ddg.edges)
        .into_iter()
        .map(|c| {
            let inner: Vec<Edge> = ddg
                .edges
                .iter()
                .filter(|e| c.contains(&e.from) && c.contains(&e.to))
                .map(|e| Edge {
                    from: c.iter().position(|&x| x == e.from).unwrap_or(0),
                    to: c.iter().position(|&x| x == e.to).unwrap_or(0),
                    ..*e
                })
                .collect();
            (modulo::rec_mii(c.len(), &inner), c)
        })
        .collect();
    sets.sort_by_key(|s| std::cmp::Reverse(s.0));
    // The control slice (the back edge's predicate and what it depends on
    // in the iteration) goes first: it has to fit in stage 0.
    let mut slice: Vec<usize> = control.to_vec();
    let mut i = 0;
    while i < slice.len() {
        let k = slice[i];
        for e in &ddg.edges {
            if e.to == k && e.distance == 0 && !slice.contains(&e.from) {
                slice.push(e.from);
            }
        }
        i += 1;
    }
    if !slice.is_empty() {
        for (_, c) in &mut sets {
            c.retain(|k| !slice.contains(k));
        }
        sets.retain(|(_, c)| !c.is_empty());
        sets.insert(0, (u32::MAX, slice));
    }
    let mut in_set = vec![false; n];
    for (_, c) in &sets {
        for &k in c {
            in_set[k] = true;
        }
    }
    let rest: Vec<usize> = (0..n).filter(|&k| !in_set[k]).collect();
    if !rest.is_empty() {
        sets.push((0, rest));
    }
    let mut ordered = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut pred_lists = vec![Vec::new(); n];
    let mut succ_lists = vec![Vec::new(); n];
    for e in &ddg.edges {
        pred_lists[e.to].push(e.from);
        succ_lists[e.from].push(e.to);
    }
    let preds = |k: usize| pred_lists[k].iter().copied();
    let succs = |k: usize| succ_lists[k].iter().copied();
    for (_, set) in sets {
        let member = |k: usize| set.contains(&k);
        // Start bottom-up from nodes whose successors are ordered, top-down
        // from those whose predecessors are, else bottom-up from the
        // deepest node.
        let mut ready: Vec<usize> = set
            .iter()
            .copied()
            .filter(|&k| !ordered[k] && preds(k).any(|p| ordered[p]))
            .collect();
        let mut top_down = !ready.is_empty();
        if ready.is_empty() {
            ready = set
                .iter()
                .copied()
                .filter(|&k| !ordered[k] && succs(k).any(|s| ordered[s]))
                .collect();
        }
        if ready.is_empty() {
            if let Some(&k) = set.iter().max_by_key(|&&k| (asap[k], std::cmp::Reverse(k))) {
                ready.push(k);
            }
            top_down = false;
        }
        while set.iter().any(|&k| !ordered[k]) {
            while !ready.is_empty() {
                // Top-down: greatest height, then least mobility; bottom-up:
                // greatest depth, then least mobility.
                let pick = ready
                    .iter()
                    .copied()
                    .max_by_key(|&k| {
                        let prio = if top_down { height[k] } else { asap[k] };
                        (
                            prio,
                            std::cmp::Reverse(alap[k] - asap[k]),
                            std::cmp::Reverse(k),
                        )
                    })
                    .unwrap_or(ready[0]);
                ready.retain(|&k| k != pick);
                if ordered[pick] {
                    continue;
                }
                ordered[pick] = true;
                order.push(pick);
                let next: Vec<usize> = if top_down {
                    succs(pick).collect()
                } else {
                    preds(pick).collect()
                };
                for k in next {
                    if member(k) && !ordered[k] && !ready.contains(&k) {
                        ready.push(k);
                    }
                }
            }
            // Swing: the other direction from the ordered nodes.
            top_down = !top_down;
            ready = set
                .iter()
                .copied()
                .filter(|&k| {
                    !ordered[k]
                        && if top_down {
                            preds(k).any(|p| ordered[p])
                        } else {
                            succs(k).any(|s| ordered[s])
                        }
                })
                .collect();
            if ready.is_empty() {
                if let Some(k) = set.iter().copied().find(|&k| !ordered[k]) {
                    ready.push(k);
                }
            }
        }
    }
    order
}

/// SMS placement at `ii`: start cycles (first 0) or failure. Besides the
/// DDG's edges, every node `k` is bounded by `time(k) >= time(c) - (II - 1)`
/// for each control node `c` (and a control node placed late by the nodes
/// placed before it), which keeps the back edge's predicate in stage 0.
fn try_ii(ddg: &Ddg, control: &[usize], target: &Target, ii: u32) -> Result<Vec<u32>, ()> {
    let n = ddg.len();
    if n == 0 || ii == 0 || modulo::has_positive_cycle(n, &ddg.edges, ii) {
        return Err(());
    }
    let asap = asap(ddg);
    let alap = alap(ddg, &asap);
    let order = node_order(ddg, &asap, &alap, control);
    let ii64 = i64::from(ii);
    // (from, to, w): time(to) >= time(from) + w.
    let cons: Vec<(usize, usize, i64, bool)> = ddg
        .edges
        .iter()
        .filter(|e| e.from != e.to)
        .map(|e| {
            (
                e.from,
                e.to,
                i64::from(e.latency) - ii64 * i64::from(e.distance),
                e.distance == 0,
            )
        })
        .collect();
    // The constraints touching each node.
    let mut cons_of = vec![Vec::new(); n];
    for (c, &(from, to, _, _)) in cons.iter().enumerate() {
        cons_of[from].push(c);
        if to != from {
            cons_of[to].push(c);
        }
    }
    let is_control = |k: usize| control.contains(&k);
    let mut times: Vec<Option<i64>> = vec![None; n];
    let mut mrt = Mrt::new(ii, target);
    for &k in &order {
        let mut early: Option<i64> = None;
        let mut late: Option<i64> = None;
        // Whether an in-iteration predecessor / successor is placed.
        let (mut early0, mut late0) = (false, false);
        for &(from, to, w, d0) in cons_of[k].iter().map(|&c| &cons[c]) {
            if to == k {
                if let Some(t) = times[from] {
                    let v = t + w;
                    early = Some(early.map_or(v, |x: i64| x.max(v)));
                    early0 |= d0;
                }
            }
            if from == k {
                if let Some(t) = times[to] {
                    let v = t - w;
                    late = Some(late.map_or(v, |x: i64| x.min(v)));
                    late0 |= d0;
                }
            }
        }
        // Stage-0 bounds: no node before `control - (II - 1)`, no control
        // node after `first + II - 1`.
        let mut lo = i64::MIN;
        let mut hi = i64::MAX;
        for (j, t) in times.iter().enumerate() {
            let Some(t) = *t else { continue };
            if is_control(j) {
                lo = lo.max(t - (ii64 - 1));
            }
            if is_control(k) {
                hi = hi.min(t + (ii64 - 1));
            }
        }
        let pipe = ddg.lat[k].pipe;
        let candidates: Vec<i64> = match (early, late) {
            (Some(es), None) => (es.max(lo)..es.max(lo) + ii64).collect(),
            (None, Some(ls)) => (ls - ii64 + 1..=ls).rev().collect(),
            // Bottom-up (only successors in the iteration placed): from the
            // latest start down; otherwise from the earliest up.
            (Some(es), Some(ls)) if late0 && !early0 => {
                (es.max(ls - ii64 + 1)..=ls).rev().collect()
            }
            (Some(es), Some(ls)) => (es.max(lo)..=ls.min(es.max(lo) + ii64 - 1)).collect(),
            (None, None) => (asap[k].max(lo)..asap[k].max(lo) + ii64).collect(),
        };
        let candidates: Vec<i64> = candidates
            .into_iter()
            .filter(|&t| t >= lo && t <= hi)
            .collect();
        let slot = candidates
            .into_iter()
            .find(|&t| mrt.free(t, pipe))
            .ok_or(())?;
        mrt.reserve(slot, pipe);
        times[k] = Some(slot);
    }
    let times: Vec<i64> = times.into_iter().map(|t| t.unwrap_or(0)).collect();
    if !modulo::respects(&ddg.edges, &times, ii) {
        return Err(());
    }
    // The first cycle is the start of stage 0.
    let first = times.iter().copied().min().unwrap_or(0);
    if control.iter().any(|&c| times[c] - first >= ii64) {
        return Err(());
    }
    Ok(times.iter().map(|&t| (t - first) as u32).collect())
}

/// The most iterations the single-block loop `shape` can run per entry,
/// when it is a remainder loop: its exit test compares a counter
/// stepped by an immediate with an immediate, and the counter starts from a
/// value of a small known range: `and` with a mask, `rem.u` by an
/// immediate, through `mov`, `neg`, an `add` of an immediate and widening
/// `cvt` (how cicc's runtime unrolling writes the loop that runs the
/// `n mod k` leftover iterations, `neg.s64 %rd29, %rd2` of `and.b64 %rd2,
/// %rd16, 3`). A value the way into the loop tests against (`excluded`,
/// [`entry_exclusions`]: `setp.eq %p, %rd2, 0; @%p bra` around it) is left
/// out of the range. Each start of the range is run through the exit test,
/// with the counter's width; `None` when any start does not leave within
/// [`TRIP_BOUND_CAP`] iterations, or nothing above applies. With the bound,
/// a text saying where it comes from (for the remark).
fn max_trips(
    func: &Function,
    acc: &Accesses,
    excluded: &[(RegId, i128)],
    shape: &Shape,
) -> Option<(u64, String)> {
    let branch = &func.insts[shape.branch];
    let guard = branch.guard?;
    let in_body = |i: InstId| shape.body.contains(&i);
    // The exit test: one unguarded `setp` of the counter and an immediate.
    let &[setp] = acc.writers(guard.reg) else {
        return None;
    };
    let cmp_pos = shape.body.iter().position(|&i| i == setp)?;
    let s = &func.insts[setp];
    let info = &s.opcode.info;
    if info.family != FamilyId::Setp || s.guard.is_some() || s.operands.len() != 3 {
        return None;
    }
    let (cmp, ty) = (info.cmp?, info.ty()?);
    let (iv, limit, iv_left) = match (
        plain_reg(&s.operands[1]),
        int_imm(&s.operands[2]),
        int_imm(&s.operands[1]),
        plain_reg(&s.operands[2]),
    ) {
        (Some(r), Some(l), _, _) => (r, l, true),
        (_, _, Some(l), Some(r)) => (r, l, false),
        _ => return None,
    };
    // The counter: written in the body only by `add`/`sub` of an immediate,
    // and once outside it.
    let writers = acc.writers(iv);
    let (inside, outside): (Vec<InstId>, Vec<InstId>) = writers.iter().partition(|&&i| in_body(i));
    let (&[step], &[init]) = (&inside[..], &outside[..]) else {
        return None;
    };
    let st = &func.insts[step];
    if st.guard.is_some() || st.operands.len() != 3 || plain_reg(&st.operands[1]) != Some(iv) {
        return None;
    }
    let stride = match st.opcode.info.family {
        FamilyId::Add => int_imm(&st.operands[2])?,
        FamilyId::Sub => -int_imm(&st.operands[2])?,
        _ => return None,
    };
    let step_pos = shape.body.iter().position(|&i| i == step)?;
    // The compare reads the counter after this iteration's step.
    let after_step = step_pos < cmp_pos;
    let (lo, hi, origin) = value_range(func, acc, excluded, init, 0)?;
    // The counter itself tested on the way in.
    let (lo, hi) = narrowed(lo, hi, iv, excluded)?;
    if hi - lo > 256 {
        return None;
    }
    let mut most = 0u64;
    for start in lo..=hi {
        let mut trips = 0u64;
        loop {
            trips += 1;
            if trips > TRIP_BOUND_CAP {
                return None;
            }
            let value = start + stride * (trips as i128 - i128::from(!after_step));
            let (a, b) = if iv_left {
                (value, limit)
            } else {
                (limit, value)
            };
            if compare(cmp, ty, a, b)? == guard.negated {
                break;
            }
        }
        most = most.max(trips);
    }
    Some((
        most,
        format!(
            "its counter starts at {lo}..={hi}, from `{}`, and steps by {stride} to {limit}",
            func.insts[origin].opcode.text()
        ),
    ))
}

/// `lo..=hi`, the range of `r`, less the ends `excluded` says `r` is not
/// where the loop is entered; `None` when nothing is left.
fn narrowed(
    mut lo: i128,
    mut hi: i128,
    r: RegId,
    excluded: &[(RegId, i128)],
) -> Option<(i128, i128)> {
    for &(x, c) in excluded {
        if x == r && c == lo {
            lo += 1;
        } else if x == r && c == hi {
            hi -= 1;
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Iterations [`max_trips`] runs a start through the exit test before it
/// gives up on a bound.
const TRIP_BOUND_CAP: u64 = 1024;

/// The range `[lo, hi]` of the value `inst` writes, and the instruction
/// the range comes from (the mask or the remainder), as [`max_trips`]
/// describes; `excluded` holds the values registers cannot have where the
/// loop is entered ([`entry_exclusions`]).
fn value_range(
    func: &Function,
    acc: &Accesses,
    excluded: &[(RegId, i128)],
    inst: InstId,
    depth: u32,
) -> Option<(i128, i128, InstId)> {
    if depth > 6 {
        return None;
    }
    let i = &func.insts[inst];
    if i.guard.is_some() {
        return None;
    }
    let info = &i.opcode.info;
    let ops = &i.operands;
    // The range of the register operand `k`, through its one writer.
    let source = |k: usize| -> Option<(i128, i128, InstId)> {
        let r = plain_reg(ops.get(k)?)?;
        let &[w] = acc.writers(r) else {
            return None;
        };
        let (lo, hi, origin) = value_range(func, acc, excluded, w, depth + 1)?;
        // A test on the way into the loop that leaves a value out.
        let (lo, hi) = narrowed(lo, hi, r, excluded)?;
        Some((lo, hi, origin))
    };
    match info.family {
        FamilyId::And if ops.len() == 3 => {
            let mask = int_imm(&ops[2]).or_else(|| int_imm(&ops[1]))?;
            (0..=1 << 16).contains(&mask).then_some((0, mask, inst))
        }
        FamilyId::Rem if ops.len() == 3 && !info.ty()?.is_signed() => {
            let d = int_imm(&ops[2])?;
            (d > 0 && d <= 1 << 16).then_some((0, d - 1, inst))
        }
        FamilyId::Mov | FamilyId::Cvt if ops.len() == 2 => {
            if let Some(v) = int_imm(&ops[1]) {
                return Some((v, v, inst));
            }
            // A widening or same-width integer `cvt` keeps a range of
            // non-negative values.
            let (lo, hi, origin) = source(1)?;
            (info.family == FamilyId::Mov || lo >= 0).then_some((lo, hi, origin))
        }
        FamilyId::Neg if ops.len() == 2 && info.ty()?.is_signed() => {
            let (lo, hi, origin) = source(1)?;
            Some((-hi, -lo, origin))
        }
        FamilyId::Add if ops.len() == 3 => {
            let c = int_imm(&ops[2])?;
            let (lo, hi, origin) = source(1)?;
            Some((lo + c, hi + c, origin))
        }
        _ => None,
    }
}

/// The values registers cannot have where the loop `header` is entered:
/// walking back from the header through single predecessors (at most 8
/// blocks), each conditional branch passed whose predicate is a `setp.eq`
/// (`setp.ne`) of a register and an immediate, on the side where the
/// compare is false (true), says the register is not that immediate there
/// (`setp.eq.s64 %p4, %rd2, 0; @%p4 bra $L__BB13_7;` falling through to
/// the loop: `%rd2` is not 0). A register is kept when the value the test
/// read is the one the loop sees: it is written once (and not after the
/// test on the way), or it is the loop's counter (`body` writes it) written
/// once outside, before the test in the test's block.
fn entry_exclusions(
    func: &Function,
    cfg: &ptx_analysis::Cfg,
    acc: &Accesses,
    header: BlockId,
    body: &[InstId],
) -> Vec<(RegId, i128)> {
    let mut out = Vec::new();
    let mut cur = header;
    // The blocks between the test's block and the header.
    let mut after_test: Vec<BlockId> = Vec::new();
    for _ in 0..8 {
        let preds: Vec<BlockId> = cfg
            .preds(cur)
            .iter()
            .copied()
            .filter(|&p| p != header)
            .collect();
        let [pred] = preds[..] else {
            break;
        };
        if let Some(&last) = func.blocks[pred].insts.last() {
            let b = &func.insts[last];
            if let (FamilyId::Bra, Some(g)) = (b.opcode.info.family, b.guard) {
                // Taken when the guard holds (is false for `@!p`).
                let taken = b.operands.first() == Some(&Operand::Label(cur));
                let pred_holds = taken != g.negated;
                if let &[setp] = acc.writers(g.reg) {
                    let s = &func.insts[setp];
                    let cmp = s.opcode.info.cmp;
                    if s.opcode.info.family == FamilyId::Setp
                        && s.guard.is_none()
                        && s.operands.len() == 3
                    {
                        let not_equal = match cmp {
                            Some(Cmp::Eq) => !pred_holds,
                            Some(Cmp::Ne) => pred_holds,
                            _ => false,
                        };
                        if let (true, Some(x), Some(c)) = (
                            not_equal,
                            plain_reg(&s.operands[1]),
                            int_imm(&s.operands[2]),
                        ) {
                            let insts = &func.blocks[pred].insts;
                            let before_test = |w: InstId| {
                                let pos = |i| insts.iter().position(|&k| k == i);
                                matches!((pos(w), pos(setp)), (Some(a), Some(b)) if a < b)
                            };
                            let outside: Vec<InstId> = acc
                                .writers(x)
                                .iter()
                                .copied()
                                .filter(|i| !body.contains(i))
                                .collect();
                            let written_inside = outside.len() < acc.writers(x).len();
                            let kept = match outside[..] {
                                [w] if !written_inside => {
                                    !after_test
                                        .iter()
                                        .any(|&b| func.blocks[b].insts.contains(&w))
                                        && (!insts.contains(&w) || before_test(w))
                                }
                                [w] => before_test(w),
                                _ => false,
                            };
                            if kept {
                                out.push((x, c));
                            }
                        }
                    }
                }
            }
        }
        if cur != header {
            after_test.push(cur);
        }
        cur = pred;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound of the last single-block loop of a kernel whose body is
    /// `body` (registers `%r0..%r39`, `%p0..%p7`, `%rd0..%rd9`; `%r1` holds
    /// a parameter).
    fn bound(body: &str) -> Option<u64> {
        let src = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 n, .param .u64 a)\n{{\n.reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<10>;\nld.param.u32 %r1, [n];\nld.param.u64 %rd1, [a];\n{body}\nret;\n}}\n"
        );
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&src));
        assert!(errors.is_empty(), "{errors:?}");
        let func = Arc::new(module.functions.into_iter().next().expect("one function"));
        let li = super::super::version_cache::loop_info(&func);
        let header = li.forest.loops.last().expect("a loop").header;
        let shape = shape(&func, header).expect("a single-block loop");
        let acc = super::super::version_cache::accesses(&func);
        let cfg = super::super::version_cache::cfg_of(&func);
        let excluded = entry_exclusions(&func, &cfg, &acc, header, &shape.body);
        max_trips(&func, &acc, &excluded, &shape).map(|(n, _)| n)
    }

    #[test]
    fn remainder_loops_are_bounded_by_their_mask() {
        // Counting down from `n & 3` to 0, the zero case skipped: 3.
        let down = "and.b32 %r2, %r1, 3;\nsetp.eq.s32 %p1, %r2, 0;\n@%p1 bra $DONE;\n$L:\nst.global.u32 [%rd1], %r2;\nadd.s32 %r2, %r2, -1;\nsetp.ne.s32 %p2, %r2, 0;\n@%p2 bra $L;\n$DONE:";
        assert_eq!(bound(down), Some(3));
        // Without the test before it, a start of 0 wraps around: no bound.
        let unguarded = "and.b32 %r2, %r1, 3;\n$L:\nst.global.u32 [%rd1], %r2;\nadd.s32 %r2, %r2, -1;\nsetp.ne.s32 %p2, %r2, 0;\n@%p2 bra $L;";
        assert_eq!(bound(unguarded), None);
        // `@!%p` leaving the loop, the compare before the step: from
        // `rem.u32 n, 5` (0..=4), the bottom test sees start, start + 1, ..
        // and leaves after the body that saw 7: 8 - start runs, at most 8.
        let lt = "rem.u32 %r2, %r1, 5;\n$L:\nst.global.u32 [%rd1], %r2;\nsetp.ge.u32 %p2, %r2, 7;\nadd.s32 %r2, %r2, 1;\n@!%p2 bra $L;";
        assert_eq!(bound(lt), Some(8));
        // Up from -(n & 7) through `neg` and a widening `cvt`.
        let neg = "and.b32 %r2, %r1, 7;\ncvt.u64.u32 %rd2, %r2;\nsetp.eq.s64 %p1, %rd2, 0;\n@%p1 bra $DONE;\nneg.s64 %rd3, %rd2;\n$L:\nst.global.u64 [%rd1], %rd3;\nadd.s64 %rd3, %rd3, 1;\nsetp.ne.s64 %p2, %rd3, 0;\n@%p2 bra $L;\n$DONE:";
        assert_eq!(bound(neg), Some(7));
        // A start read from memory, or a limit in a register: no bound.
        let loaded = "ld.global.u32 %r2, [%rd1];\n$L:\nst.global.u32 [%rd1], %r2;\nadd.s32 %r2, %r2, -1;\nsetp.ne.s32 %p2, %r2, 0;\n@%p2 bra $L;";
        assert_eq!(bound(loaded), None);
        let reg_limit = "and.b32 %r2, %r1, 3;\n$L:\nst.global.u32 [%rd1], %r2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, %r1;\n@%p2 bra $L;";
        assert_eq!(bound(reg_limit), None);
    }
}
