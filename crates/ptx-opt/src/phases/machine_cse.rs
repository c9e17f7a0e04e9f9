//! cicc `machine-cse` (MachineCSE, NVIDIA's register-pressure-aware
//! variant): an instruction that recomputes what a dominating instruction
//! already computed reads that result instead, unless keeping the result
//! live that long would raise the register pressure over the target; the
//! pressure is MRPA's, updated incrementally after every merge.
//!
//! Seed `002_164789385e2e817e.txt`, "RP-Aware MachineCSE (NVIDIA-Modified
//! machine-cse)" (RP-aware, predicate-aware and copy-prop CSE, incremental
//! MRPA integration), "NVIDIA RP-Aware MachineCSE Knobs", "Machine Register
//! Pressure Analysis"; seed `003_5f2fcdae57e69502.txt`, "MRPA: Incremental
//! Register Pressure Tracking" ("Incremental Update Flow": the speculative
//! change-then-validate loop with its success and failure counts, "MRPA
//! Verification": `Incorrect RP info from incremental MRPA update`). The
//! tracker is [`ptx_analysis::mrpa`].
//!
//! # Knobs
//!
//! - `enable-mcse` (on) and `disable-machine-cse` (off): the pass runs when
//!   the first is on and the second off.
//! - `rp-aware-mcse` (on): a merge is undone when it raises the pressure of
//!   a block (R registers, in 32-bit units) over the target.
//! - `pred-aware-mcse` (on): the same for predicate registers, tracked
//!   separately, against 7 (the seed: "maximum 7 per thread on most
//!   architectures").
//! - `copy-prop-mcse` (on): the copy a merge leaves (`mov dK, dL`) is
//!   propagated into its readers at once and removed.
//! - `incremental-update-mcse` (on), `verify-update-mcse` (off),
//!   `print-verify` (off): MRPA's ([`crate::context::mrpa_config`]). With
//!   verification on, each update is compared with a full recomputation and
//!   a mismatch becomes a missed remark (`mrpa-verify`) with the seed's
//!   message (and, with `print-verify`, every place that differs); the
//!   tracker is then rebuilt. Counters `MRPA verifications` and
//!   `MRPA mismatches` are reported when it is on.
//!
//! - `reg-target-adjust` (0) and `pred-target-adjust` (0), seed 002
//!   "Register Pressure Target Knobs" (-10..=10): added to the R and P
//!   targets.
//!
//! The seed gives the three `*-mcse` switches as "(varies)"; the registry
//! defaults are on (what `-O3` does). The seed does not say where the
//! register target comes from; here it is the one the cicc pressure passes
//! share: `--maxrregcount` when given, else `nv-remat-default-max-reg` (70,
//! the seed's "global" default max reg), plus `reg-target-adjust`.
//!
//! # The algorithm
//!
//! The walk, the value keys and the legality proofs are those of the
//! commoning engine ([`super::commoning`], shared with ptxas GvnCse 49,
//! LateOriCommoning 64 and cicc param-opt): blocks in dominator-tree
//! preorder, leaders dominating the instruction, raw operands unchanged
//! between, the leader's result still held. Loads merge only when they are
//! read-only (`ld.const`, `ld.global.nc`, parameters never stored) or when
//! every path between the two is known (one extended basic block) and holds
//! no store or atomic to a space that may alias, no fence, barrier, call or
//! volatile access; volatile and ordered loads never merge.
//!
//! Each merge is speculative (seed 003's "rename-then-validate"): the later
//! instruction becomes `mov dK, dL` (`mov dL, dL` when it wrote the leader's
//! own register; removed after the walk), MRPA is updated for its block
//! (the liveness of the registers it touches, then the blocks whose live-out
//! set changed), and when some block's maximum grew and is now over the
//! target the instruction is restored and MRPA updated again (a failure;
//! the seed's `rename_count_fail`). Then, with `copy-prop-mcse`, each copy
//! `mov dK, dL` whose destination has no other writer, whose readers it
//! dominates, and whose source still holds the value at every reader
//! ([`super::known::Facts::unchanged_between`]), is removed and its readers
//! read `dL`; MRPA is updated for the blocks edited. Propagating never
//! raises pressure (two live ranges of the same width become one), so the
//! decisions taken on the `mov` form stand.
//!
//! # Adapted to PTX
//!
//! - cicc's MRPA renames virtual registers speculatively and rolls back;
//!   PTX registers are already virtual and unlimited, so what is tried and
//!   rolled back here is the merge itself.
//! - The pressure is MRPA's per block (R in 32-bit units, P in
//!   predicates), the same numbers as [`ptx_analysis::reg_pressure`]; a
//!   merge may leave a block already over the target as it was, but not
//!   raise any block's maximum past the target.
//! - The MUFU class (`sin`, `ex2`, `.approx` ...) is eligible: MachineCSE
//!   has no such restriction (ptxas GvnCse's is a backend scope flag).
//! - LLVM's `isProfitableToCSE` heuristic #1 (cheap computations only from
//!   the same block or an immediate predecessor) is asked of the loops
//!   instead: an `ld.param` does not read a leader across a loop
//!   ([`super::commoning::Config::cheap_not_across_loops`]); PTX branches
//!   that skip a loop make the entry an immediate predecessor of the block
//!   after it.
//! - Copies of registers and immediates are never merged (the engine's
//!   rule: merging `mov %r2, 0` with `mov %r1, 0` only lengthens a live
//!   range).

use std::sync::Arc;

use ptx_analysis::cfg::block_name;
use ptx_analysis::mrpa::{Mrpa, MrpaStats};
use ptx_analysis::reg_pressure::MaxPressure;
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, Inst, InstId, RegId};
use ptx_isa::FamilyId;
use ptx_knobs::knobs;

use super::commoning::{self, Config, Gate, Scope};
use super::gvn_cse::{MAX_MISSED, PATH_CHECKS};
use super::known::{is_param, plain_reg, remove_keeping_locs, Facts};
use crate::context::{mrpa_config, PassContext};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Predicate registers per thread (seed 002: "maximum 7 per thread on most
/// architectures"): the target of `pred-aware-mcse`.
pub const PRED_TARGET: u32 = 7;

/// The commoning engine's settings for machine-cse.
fn config() -> Config {
    Config {
        scope: Scope::Dominator,
        ebb_loads: true,
        plain_loads: true,
        mufu: true,
        through_moves: true,
        bloom: false,
        path_checks: PATH_CHECKS,
        param_loads_only: false,
        window: 0,
        cheap_not_across_loops: true,
    }
}

/// The MRPA side of the walk: the tracker, the targets, and what it
/// refused.
pub(crate) struct Pressure {
    id: PhaseId,
    /// Made at the first merge put to the gate ([`Pressure::mrpa`]): a walk
    /// that merges nothing never needs it.
    mrpa: Option<Mrpa>,
    /// What it is made from until then: the walk's function as given.
    source: Arc<Function>,
    config: ptx_analysis::mrpa::MrpaConfig,
    /// `rp-aware-mcse`: the R target.
    r_target: Option<u32>,
    /// `pred-aware-mcse`: the P target.
    p_target: Option<u32>,
    /// Merges accepted (`k`, its block).
    accepted: Vec<(InstId, BlockId)>,
    /// Merges undone for pressure: `k`, and whether for predicates.
    refused: Vec<(InstId, bool)>,
    mismatches: u64,
    pub(crate) remarks: Vec<Remark>,
    /// The registers the merge being decided changed (see [`Gate::accept`]).
    changed_regs: Vec<RegId>,
}

impl Pressure {
    /// The gate of the ptxas commoning phases (GvnCse 49, LateOriCommoning
    /// 64) under a user-set register limit (`--maxrregcount`, plus
    /// `reg-target-adjust`): a merge that raises a block's register pressure
    /// over it is refused, as in RP-aware machine-cse. `None` without a
    /// limit (the phases then commons as the seed describes).
    pub(crate) fn limit_gate(
        id: PhaseId,
        ctx: &dyn PassContext,
        input: &Arc<Function>,
    ) -> Option<Pressure> {
        let limit = ctx.max_regs()?;
        let target =
            (i64::from(limit) + ctx.int(knobs::reg_target_adjust)).clamp(0, u32::MAX as i64);
        Some(Pressure::new(
            id,
            input,
            mrpa_config(ctx),
            Some(target as u32),
            None,
        ))
    }

    /// A gate over `input` with these targets, nothing decided yet.
    fn new(
        id: PhaseId,
        input: &Arc<Function>,
        config: ptx_analysis::mrpa::MrpaConfig,
        r_target: Option<u32>,
        p_target: Option<u32>,
    ) -> Pressure {
        Pressure {
            id,
            mrpa: None,
            source: input.clone(),
            config,
            r_target,
            p_target,
            accepted: Vec::new(),
            refused: Vec::new(),
            mismatches: 0,
            remarks: Vec::new(),
            changed_regs: Vec::new(),
        }
    }

    /// MRPA recomputed for `f` (after a walk that removed instructions).
    pub(crate) fn restart(&mut self, f: &Function) {
        match &mut self.mrpa {
            Some(m) => m.rebuild(f),
            None => self.mrpa = Some(Mrpa::new(f, self.config)),
        }
    }

    /// The tracker, made on first use from the function the walk was given
    /// (until the first merge the walk has changed nothing).
    fn mrpa(&mut self) -> &mut Mrpa {
        let (source, config) = (&self.source, self.config);
        self.mrpa
            .get_or_insert_with(|| super::version_cache::mrpa(source, config))
    }

    /// Brings MRPA up to date after an edit of `blocks` that changed the
    /// reads and writes of `changed_regs` alone (a merge or its undoing,
    /// the removal of `mov dL, dL`, a copy propagated).
    fn update_merges(&mut self, f: &Function, blocks: &[BlockId]) {
        let changed = std::mem::take(&mut self.changed_regs);
        let result = self.mrpa().update_regs(f, blocks, &changed);
        self.changed_regs = changed;
        if let Err(e) = result {
            self.mismatches += 1;
            self.remarks.push(crate::context::mrpa_mismatch_remark(
                self.id, None, e.message,
            ));
            self.mrpa().rebuild(f);
        }
    }

    fn maxima(&mut self, f: &Function) -> Vec<MaxPressure> {
        let mrpa = self.mrpa();
        f.layout.iter().map(|&b| mrpa.block_max(b)).collect()
    }
}

impl Gate for Pressure {
    fn accept(
        &mut self,
        f: &Function,
        _l: InstId,
        k: InstId,
        block: BlockId,
        old: &Inst,
    ) -> Result<(), String> {
        let before = self.maxima(f);
        // The registers whose reads or writes changed: those of `k` as it
        // was and as it is (its liveness alone is solved again).
        self.changed_regs.clear();
        for inst in [old, &f.insts[k]] {
            visit_defs_and_uses(inst, |_, r| self.changed_regs.push(r));
        }
        self.update_merges(f, &[block]);
        let leader = match f.insts[k].operands.get(1).and_then(plain_reg) {
            Some(r) => f.regs[r].name.clone(),
            None => ("the first result".to_string()).into(),
        };
        for (&b, was) in f.layout.iter().zip(&before) {
            let now = self.mrpa().block_max(b);
            if let Some(t) = self.r_target {
                if now.r.value > t && now.r.value > was.r.value {
                    self.refused.push((k, false));
                    return Err(format!(
                        "keeping {leader} live until here would raise the register pressure of {} to {} (from {}), over the target {t}",
                        block_label(f, b),
                        now.r.value,
                        was.r.value
                    ));
                }
            }
            if let Some(t) = self.p_target {
                if now.p.value > t && now.p.value > was.p.value {
                    self.refused.push((k, true));
                    return Err(format!(
                        "keeping {leader} live until here would raise the predicate pressure of {} to {} (from {}), over the target {t}",
                        block_label(f, b),
                        now.p.value,
                        was.p.value
                    ));
                }
            }
        }
        self.accepted.push((k, block));
        Ok(())
    }

    fn undone(&mut self, f: &Function, _k: InstId, block: BlockId) {
        self.update_merges(f, &[block]);
    }
}

/// Runs machine-cse on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::enable_mcse) || ctx.bool(knobs::disable_machine_cse) {
        return PhaseOutput::unchanged(input);
    }
    let adjust = |base: i64, knob| (base + ctx.int(knob)).clamp(0, u32::MAX as i64) as u32;
    let r_target = ctx.bool(knobs::rp_aware_mcse).then(|| {
        let base = match ctx.max_regs() {
            Some(n) => i64::from(n),
            None => ctx.int(knobs::nv_remat_default_max_reg),
        };
        adjust(base, knobs::reg_target_adjust)
    });
    let p_target = ctx
        .bool(knobs::pred_aware_mcse)
        .then(|| adjust(i64::from(PRED_TARGET), knobs::pred_target_adjust));
    let copy_prop = ctx.bool(knobs::copy_prop_mcse);
    let mrpa_cfg = mrpa_config(ctx);
    let mut f = (**input).clone();
    let mut gate = Pressure::new(id, input, mrpa_cfg, r_target, p_target);
    let outcome = commoning::run(
        &mut f,
        &config(),
        Some(super::version_cache::facts(input)),
        Some(&mut gate),
    );
    // The merges that removed their instruction (it wrote the leader's
    // register): MRPA forgets them and re-walks their blocks.
    let mut removed_blocks: Vec<BlockId> = Vec::new();
    gate.changed_regs.clear();
    for m in outcome.merged.iter().filter(|m| m.removed) {
        // `mov dL, dL`: its register's liveness alone changes.
        visit_defs_and_uses(&f.insts[m.inst], |_, r| gate.changed_regs.push(r));
        gate.mrpa().forget(m.inst);
        if let Some(&(_, b)) = gate.accepted.iter().find(|(k, _)| *k == m.inst) {
            if !removed_blocks.contains(&b) {
                removed_blocks.push(b);
            }
        }
    }
    if !removed_blocks.is_empty() {
        gate.update_merges(&f, &removed_blocks);
    }
    // copy-prop-mcse.
    let mut propagated: Vec<(InstId, usize)> = Vec::new();
    if copy_prop && outcome.merged.iter().any(|m| !m.removed) {
        let facts = Facts::new(&f);
        for m in outcome.merged.iter().filter(|m| !m.removed) {
            // `mov dK, dL` goes, its readers read dL: the liveness of these
            // two alone changes.
            gate.changed_regs.clear();
            visit_defs_and_uses(&f.insts[m.inst], |_, r| gate.changed_regs.push(r));
            if let Some(readers) = propagate(&mut f, &facts, m.inst) {
                gate.mrpa().forget(m.inst);
                let mut blocks: Vec<BlockId> = facts.block_of(m.inst).into_iter().collect();
                for &r in &readers {
                    if let Some(b) = facts.block_of(r) {
                        if !blocks.contains(&b) {
                            blocks.push(b);
                        }
                    }
                }
                gate.update_merges(&f, &blocks);
                propagated.push((m.inst, readers.len()));
            }
        }
    }
    finish(id, input, f, outcome, gate, &propagated, mrpa_cfg.verify)
}

/// Propagates the copy `k` (`mov dK, dL` left by a merge) into the readers
/// of `dK` and removes it; the readers, or `None` when it stays.
fn propagate(f: &mut Function, facts: &Facts, k: InstId) -> Option<Vec<InstId>> {
    let inst = &f.insts[k];
    if inst.opcode.info.family != FamilyId::Mov || inst.guard.is_some() || inst.operands.len() != 2
    {
        return None;
    }
    let (dk, dl) = (plain_reg(&inst.operands[0])?, plain_reg(&inst.operands[1])?);
    if dk == dl
        || is_param(f, dk)
        || is_param(f, dl)
        || f.regs[dk].ty != f.regs[dl].ty
        || f.regs[dk].class != f.regs[dl].class
        || f.regs[dk].vector.is_some()
        || f.regs[dl].vector.is_some()
        || facts.writers(dk) != [k]
    {
        return None;
    }
    let readers: Vec<InstId> = facts.readers(dk).to_vec();
    for &r in &readers {
        if r == k || !facts.dominates(k, r) || !facts.unchanged_between(f, dl, k, r) {
            return None;
        }
    }
    for &r in &readers {
        f.insts[r].map_regs(|a, reg| {
            if a == Access::Use && reg == dk {
                dl
            } else {
                reg
            }
        });
    }
    let block = facts.block_of(k)?;
    remove_keeping_locs(f, block, k);
    Some(readers)
}

/// A block as remarks name it: its label, else `bbN`.
fn block_label(f: &Function, b: BlockId) -> String {
    match f.blocks[b].label.as_deref() {
        Some(l) => l.to_string(),
        None => block_name(b),
    }
}

/// Loads the engine never considers (volatile, ordered, `.mmio`, `.cv`)
/// that repeat an earlier one of their block (same opcode, operands after
/// the destination, and guard): each with the first.
fn volatile_repeats(f: &Function) -> Vec<(InstId, InstId)> {
    let mut out = Vec::new();
    for &b in &f.layout {
        let mut seen: Vec<InstId> = Vec::new();
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let info = &inst.opcode.info;
            if !matches!(info.family, FamilyId::Ld) {
                continue;
            }
            if !(info.flags.is_volatile()
                || !matches!(info.sem, None | Some(ptx_isa::Sem::Weak))
                || inst.opcode.has_modifier(".mmio")
                || inst.opcode.has_modifier(".cv"))
            {
                continue;
            }
            let same = |j: &InstId| {
                let o = &f.insts[*j];
                o.opcode == inst.opcode
                    && o.guard == inst.guard
                    && o.operands.get(1..) == inst.operands.get(1..)
            };
            match seen.iter().find(|j| same(j)) {
                Some(&first) => out.push((i, first)),
                None => seen.push(i),
            }
        }
    }
    out
}

/// Remarks and counters.
fn finish(
    id: PhaseId,
    input: &Arc<Function>,
    f: Function,
    outcome: commoning::Outcome,
    gate: Pressure,
    propagated: &[(InstId, usize)],
    verify: bool,
) -> PhaseOutput {
    let mut remarks = gate.remarks;
    for m in &outcome.merged {
        let prop = propagated.iter().find(|(k, _)| *k == m.inst);
        let message = if m.removed {
            format!(
                "removed `{}`: {} already holds its value",
                m.text, m.leader_dst
            )
        } else if let Some((_, n)) = prop {
            format!(
                "`{}` {} recomputes {}: removed, and {} (its {} reader{}) now read{} {} (copy-prop-mcse)",
                m.text,
                if m.cross_block { "in a dominated block" } else { "in the same block" },
                m.leader_dst,
                m.dst,
                n,
                if *n == 1 { "" } else { "s" },
                if *n == 1 { "s" } else { "" },
                m.leader_dst
            )
        } else {
            format!(
                "`{}` {} recomputes {}: now `mov {}, {}`",
                m.text,
                if m.cross_block {
                    "in a dominated block"
                } else {
                    "in the same block"
                },
                m.leader_dst,
                m.dst,
                m.leader_dst
            )
        };
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: if m.load { "load" } else { "cse" },
            origin: origin(&f, m.inst),
            message,
        });
    }
    let mut missed = 0;
    for r in &outcome.refused {
        let pressure = gate.refused.iter().any(|(k, _)| *k == r.inst);
        if !pressure {
            missed += 1;
            if missed > MAX_MISSED {
                continue;
            }
        }
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: if pressure { "pressure" } else { "cse" },
            origin: origin(&f, r.inst),
            message: format!(
                "`{}` computes what an earlier `{}` computed, but is kept: {}",
                f.insts[r.inst].opcode.text(),
                f.insts[r.leader].opcode.text(),
                r.why
            ),
        });
    }
    for (k, first) in volatile_repeats(&f) {
        missed += 1;
        if missed > MAX_MISSED {
            continue;
        }
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "volatile",
            origin: origin(&f, k),
            message: format!(
                "`{}` reads what an earlier `{}` read, but is kept: volatile, ordered and `.mmio` loads are never merged",
                f.insts[k].opcode.text(),
                f.insts[first].opcode.text()
            ),
        });
    }
    if missed > MAX_MISSED {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "cse",
            origin: None,
            message: format!(
                "{} more equal computations kept (remarks shown for the first {MAX_MISSED})",
                missed - MAX_MISSED
            ),
        });
    }
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    let by_r = gate.refused.iter().filter(|(_, p)| !p).count() as u64;
    let by_p = gate.refused.len() as u64 - by_r;
    let MrpaStats {
        updates,
        verifications,
        ..
    } = gate.mrpa.as_ref().map(|m| m.stats).unwrap_or_default();
    let mut stats = vec![
        Stat {
            name: "eligible instructions",
            value: outcome.eligible,
        },
        Stat {
            name: "instructions commoned",
            value: outcome.merged.len() as u64,
        },
        Stat {
            name: "loads commoned",
            value: outcome.merged.iter().filter(|m| m.load).count() as u64,
        },
        Stat {
            name: "commoned across blocks",
            value: outcome.merged.iter().filter(|m| m.cross_block).count() as u64,
        },
        Stat {
            name: "copies propagated",
            value: propagated.len() as u64,
        },
        Stat {
            name: "kept for register pressure",
            value: by_r,
        },
        Stat {
            name: "kept for predicate pressure",
            value: by_p,
        },
        Stat {
            name: "equal computations kept otherwise",
            value: outcome.refused.len() as u64 - by_r - by_p,
        },
        Stat {
            name: "MRPA updates",
            value: updates as u64,
        },
    ];
    if verify {
        stats.push(Stat {
            name: "MRPA verifications",
            value: verifications as u64,
        });
        stats.push(Stat {
            name: "MRPA mismatches",
            value: gate.mismatches,
        });
    }
    if outcome.merged.is_empty() {
        if outcome.refused.is_empty() && !verify {
            stats.clear();
        }
        return PhaseOutput {
            remarks,
            stats,
            ..PhaseOutput::unchanged(input)
        };
    }
    PhaseOutput {
        function: Arc::new(f),
        remarks,
        stats,
        loops: Vec::new(),
    }
}
