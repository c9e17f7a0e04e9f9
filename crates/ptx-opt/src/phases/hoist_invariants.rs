//! Phases 35, 66, 79 and 88, OriHoistInvariants (Early, Late, Late2,
//! Late3): loop-invariant code motion. One implementation; the phase picks
//! its `pass_id` (0, 1, 2, 3), which sets the budgets, the profitability
//! weights and how knob 381 is read.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Phases 35, 66, 79, 88 --
//! OriHoistInvariants (LICM)": "Pass ID Controls Aggressiveness", "Per-Block
//! Knob 381 Policy", "Guard Function (sub_7DDB50)", "LICM Invariant Detection
//! Algorithm" (stages 1-5), "Set-Based Invariance Alternative (knob 934)",
//! "Side-Effect Blocking Rules", "Instruction Counting (sub_8F8BC0)",
//! "Instruction Movement (sub_8F7AE0)", "Multi-Depth Loop Handling" and
//! "LICM Outer Loop (sub_8FF780)".
//!
//! The same implementation is cicc's `early-machinelicm` (seed 002:
//! "EarlyMachineLICM ... Controlled by enable-mlicm. Hoists loop-invariant
//! machine instructions before register allocation"; see "cicc
//! `early-machinelicm`" below).
//!
//! # Knobs
//!
//! - `OcgKnob499` (499): master switch (the guard `sub_7DDB50`); the guard's
//!   other condition, more than two blocks, is kept.
//! - `HoistLate` (381), the policy: see below.
//! - `HoistBudget` (483, default 10), `HoistLoopInvBudget` (482, "22 (early)
//!   / 100 (late)") and `HoistConservativeScale` (380, default 10): the budget
//!   of stage 1, exactly as `ComputeHoistBudget`. The registry holds one
//!   default for 482 (22); a value equal to it is read as "not set", so the
//!   late instances use 100 as the seed says.
//! - `UseNewLoopInvariantRoutineForHoisting` (934): the set-based fixpoint
//!   invariance routine instead of the single pass.
//! - `OcgKnob220` and `DisableNestedHoist`: permission to hoist out of a loop
//!   that has loops inside it ("multi-depth").
//! - `OcgKnob484`: the mover's gate; when off, the decisions are made and
//!   reported, nothing moves.
//!
//! # The policy of knob 381 (`HoistLate`)
//!
//! The seed's decompiled excerpt and its prose disagree for the late
//! instances; this table keeps both where they are specific:
//!
//! | value | pass 0 (35) | pass 1 (66) | pass 2, 3 (79, 88) |
//! |---|---|---|---|
//! | 0 "always" (default) | hoist (aggressive) | skip (excerpt) | hoist (prose: "only hoists from blocks where knob 381 returns 0") |
//! | 1 "inner loops only" | skip | hoist, innermost loops only | skip |
//! | 3 "never" | conservative | conservative | skip |
//! | 2 (not in the seed) | hoist | hoist | hoist |
//!
//! "Conservative" hoists only instructions that cannot fault and have a
//! fixed latency (no loads). The knob is per block in ptxas; a PTX function
//! has one value, read once per phase.
//!
//! # What is invariant (stages 2-4)
//!
//! An instruction of the loop (not of a loop nested in it: inner loops are
//! processed first, innermost outward, and what they hoist lands in their
//! preheader, a block of this loop) is invariant when:
//!
//! - it is unguarded, not a terminator, and either pure (`OpFlags::PURE`, no
//!   volatile special register such as `%clock`) or a plain load (`LOAD`
//!   without `SIDE_EFFECTS`: not `.volatile`, not ordered); never a call, an
//!   atomic, a barrier or fence, a convergent (warp-synchronous) instruction,
//!   a `.cc` instruction (side-effect rules of the seed);
//! - every register it reads has no definition in the loop, or only the one
//!   of an instruction already found invariant (transitive invariance);
//! - every register it writes is written nowhere else in the loop and is not
//!   live into the header (no use in the loop reads a value from before the
//!   loop or from the previous iteration). These two rules are what PTX needs
//!   that Ori gets from its def-block fields: PTX registers are not SSA (the
//!   `-O0` front end writes loop-carried values with `mov` at the latch);
//! - a load's state space is written by no store or atomic in the loop
//!   (generic aliases every space; a call writes everything) — the seed's
//!   `MemoryOverlapsLoopLiveSet`.
//!
//! The single pass (default) visits the loop's blocks once in reverse
//! post-order, which finds a chain of invariants in order; the set-based
//! routine (knob 934) repeats the scan until nothing is added, as
//! `BuildInvariantSet` does.
//!
//! # Safety: hoisting into the preheader runs the instruction on entry
//!
//! - A register the instruction writes that is live on a loop exit must be
//!   written on every path to that exit: the instruction's block dominates
//!   the exit's source. (A `while` loop that runs zero times leaves the old
//!   value.)
//! - An instruction that can fault (a load, except `ld.param`/`ld.const` of a
//!   named variable; integer `div`/`rem`) is hoisted only when its block
//!   dominates every exit of the loop, so that it ran on every entry anyway:
//!   never out of a loop that may run zero times unless it is guarded (phase
//!   18 rotates `while` loops into a guard and a bottom-tested loop, whose
//!   body then dominates the exit). Pure arithmetic is speculated freely: it
//!   cannot fault, and the extra value is dead where the loop would not have
//!   computed it.
//! - Loops with a barrier or fence (`bar`, `membar`, `fence`) or an indirect
//!   branch (`brx.idx`) are skipped whole (the seed's boundary analysis,
//!   bytes 2 and 3).
//! - Divergence: the preheader runs with the threads that enter the loop, a
//!   superset of those that run any block of it; convergent instructions
//!   never move, and what may fault moves only when every entering thread
//!   ran it.
//!
//! # Profitability (stage 5) and counting
//!
//! Exactly the seed's formula per block: `score * budget / (real_weight *
//! denominator) >= latency_penalty`, with weights 60/150 and 5 when the
//! block runs on every iteration ("hoist safe": it dominates every latch),
//! 12/30 and 1 otherwise; the denominator is the block's instruction count
//! for pass 0 and `body_weight / 3 + header_weight` for the others (weights
//! of `sub_8F8BC0`: 1 per "no-op", 30 per real instruction). Adapted to
//! PTX: Ori's `isNoOp` (an instruction with no scoreboard) is a
//! fixed-latency instruction here (not on the LSU/TEX pipes and not MUFU,
//! `ptx_analysis::latency::is_long_latency`), and "a destination with a
//! scoreboard flag" is the result of a long-latency instruction. A block
//! that fails keeps all its instructions, and invariance is recomputed
//! without them (what depended on them stays too).
//!
//! The budget multiplies the score (its only use in the seed's pseudocode);
//! it does not cap the number of instructions moved.
//!
//! # cicc `early-machinelicm`
//!
//! Seed 002 gives the pass only its switches: `enable-mlicm` (on; the seed
//! says "opt-level dependent", and ptxopt builds as `-O3`) and
//! `disable-machine-licm` (off). The rules are LLVM MachineLICM's, over the
//! same invariance and safety checks as above (they are what PTX's non-SSA
//! registers need), with these differences from Ori's instances:
//!
//! - No loop-wide barrier rule: `bar.sync` is a call that may write memory
//!   for LLVM, so in a loop with a barrier or fence no shared, global or
//!   generic load moves (another thread's store before the barrier may
//!   change it), while arithmetic, `ld.param` and `ld.const` do. This is
//!   what lets `-O3` hoist `(i & k) == 0` out of a bitonic sort's loop.
//! - No knob 381 policy and no stage-5 score; invariance is the set-based
//!   fixpoint; nested loops are always allowed.
//! - Register pressure instead (LLVM's `CanCauseHighRegPressure`, with
//!   ptxas's register file as the limit): nothing moves when the loop's peak
//!   R pressure (in 32-bit units, [`ptx_analysis::reg_pressure`]) plus the
//!   registers the hoisted values occupy passes the register limit
//!   (`--maxrregcount`, else the target's 255 per thread; not the remat
//!   target `nv-remat-default-max-reg`, which belongs to the passes after
//!   it, so that changing it re-runs only them); hoisted
//!   predicates may not push the loop's predicate pressure past seven, the
//!   predicate registers of the machine (they stay, the rest is decided
//!   again without them).
//! - In a loop with a call only long-latency instructions (loads, MUFU)
//!   move: ptxas keeps a value live across a call in a callee-saved register
//!   or spills it, which costs more than recomputing a fixed-latency value
//!   in the loop (LLVM's "don't hoist a cheap instruction" rule). Measured:
//!   hoisting cheap values across the dealii kernels' calls cost ptxas one
//!   register.
//!
//! `.const` is never written by a kernel, so no store or call aliases an
//! `ld.const` (both flavors).
//!
//! # Not done
//!
//! Ori's nested-hoist constraint (`body_insn_count < header_insn_count *
//! max_iterations`) compares weighted counts whose PTX meaning is unclear;
//! multi-depth loops are gated by the knobs only. The CBO, texture-ratio and
//! register-pressure knobs (`HoistCBO*`, `HoistTexToInstRatio*`) describe
//! SASS constant-bank loads; PTX `ld.const`/`ld.param` of named variables
//! are hoisted by the general rules.

use std::rc::Rc;
use std::sync::Arc;

use ptx_analysis::latency::{classify, is_long_latency};
use ptx_analysis::reg_pressure::{reg_pressure, reg_units};
use ptx_analysis::{liveness, Liveness, LoopId};
use ptx_ir::ir::def_use::{defs_and_uses, visit_defs_and_uses, Access};
use ptx_ir::ir::{AddressBase, BlockId, Function, Inst, InstId, Operand, RegClass, RegId};
use ptx_isa::{FamilyId, OpFlags, Space};
use rustc_hash::{FxHashMap, FxHashSet};

use super::loop_common::{block_name, ensure_preheader, LoopInfo};
use super::machine_cse::PRED_TARGET;
use crate::origin::origin;
use crate::remark::{LoopReport, PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// The `pass_id` of an instance: 0 (35), 1 (66), 2 (79), 3 (88).
pub fn pass_id(id: PhaseId) -> u32 {
    match id {
        PhaseId::OriHoistInvariantsEarly => 0,
        PhaseId::OriHoistInvariantsLate => 1,
        PhaseId::OriHoistInvariantsLate2 => 2,
        _ => 3,
    }
}

/// Whether `id` is one of the four instances.
pub fn is_instance(id: PhaseId) -> bool {
    matches!(
        id,
        PhaseId::OriHoistInvariantsEarly
            | PhaseId::OriHoistInvariantsLate
            | PhaseId::OriHoistInvariantsLate2
            | PhaseId::OriHoistInvariantsLate3
            | PhaseId::CiccEarlyMachineLicm
    )
}

/// Which LICM runs: one of Ori's four instances, or cicc's
/// `early-machinelicm` (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    Ori,
    MachineLicm,
}

/// The knobs, read once per run.
struct Knobs {
    flavor: Flavor,
    /// MachineLICM: the R-register target under which hoisting is free.
    r_target: u32,
    pass_id: u32,
    policy: i64,
    hoist_budget: f64,
    cbo_budget: f64,
    conservative_scale: i64,
    set_based: bool,
    nested: bool,
    mover: bool,
}

impl Knobs {
    fn read(ctx: &dyn PassContext, pass_id: u32) -> Knobs {
        let policy = ctx.int(knobs::HoistLate);
        let hoist_budget = ctx.float(knobs::HoistBudget);
        let cbo = ctx.float(knobs::HoistLoopInvBudget);
        let registry_default = 22.0;
        let cbo_budget = if cbo == registry_default && pass_id > 0 {
            100.0
        } else {
            cbo
        };
        Knobs {
            flavor: Flavor::Ori,
            r_target: 0,
            pass_id,
            policy,
            hoist_budget,
            cbo_budget,
            conservative_scale: ctx.int(knobs::HoistConservativeScale),
            set_based: ctx.bool(knobs::UseNewLoopInvariantRoutineForHoisting),
            nested: ctx.bool(knobs::OcgKnob220) && !ctx.bool(knobs::DisableNestedHoist),
            mover: ctx.bool(knobs::OcgKnob484),
        }
    }

    /// cicc's `early-machinelicm`: no Ori knob applies; the register limit
    /// is `--maxrregcount`, else the target's registers per thread (LLVM's
    /// register-class limit; the remat target `nv-remat-default-max-reg`
    /// belongs to the passes after it).
    fn machine_licm(ctx: &dyn PassContext) -> Knobs {
        let r_target = ctx
            .max_regs()
            .unwrap_or_else(|| ctx.target().max_regs_per_thread);
        Knobs {
            flavor: Flavor::MachineLicm,
            r_target,
            pass_id: 0,
            policy: 0,
            hoist_budget: 0.0,
            cbo_budget: 0.0,
            conservative_scale: 1,
            set_based: true,
            nested: true,
            mover: true,
        }
    }
}

/// What knob 381 says for a loop (see the module documentation).
/// MachineLICM has no per-block policy: it always hoists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Hoist,
    Conservative,
    Skip(&'static str),
}

fn mode(k: &Knobs, innermost: bool) -> Mode {
    if k.flavor == Flavor::MachineLicm {
        return Mode::Hoist;
    }
    match (k.policy, k.pass_id) {
        (0, 1) => Mode::Skip("HoistLate=0 (always): the Late instance (pass 1) skips the block"),
        (0, _) => Mode::Hoist,
        (1, 1) if innermost => Mode::Hoist,
        (1, 1) => Mode::Skip("HoistLate=1 (inner loops only): not an innermost loop"),
        (1, _) => {
            Mode::Skip("HoistLate=1 (inner loops only): only the Late instance (pass 1) hoists")
        }
        (3, 0 | 1) => Mode::Conservative,
        (3, _) => Mode::Skip("HoistLate=3 (never)"),
        _ => Mode::Hoist,
    }
}

/// Stage 1, `ComputeHoistBudget`: `hoist_mode` 0 header, 1 a block that
/// dominates the latches, 2 one that does not, 3 a latch.
fn budget(k: &Knobs, is_simple: bool, hoist_mode: u32, num_latches: usize, is_inner: bool) -> f64 {
    let mut budget = k.hoist_budget;
    if is_simple {
        budget = match (k.pass_id > 0, hoist_mode < 2) {
            (_, true) => k.cbo_budget,
            (true, false) => 300.0,
            (false, false) => 200.0,
        };
    }
    if k.pass_id == 3 {
        budget *= 100.0;
    }
    if hoist_mode == 3 && num_latches > 0 {
        budget /= num_latches as f64;
    }
    if is_inner {
        budget /= k.conservative_scale.max(1) as f64;
    }
    budget
}

/// Runs one LICM instance on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if input.layout.len() <= 2 {
        return PhaseOutput::unchanged(input);
    }
    let k = if id == PhaseId::CiccEarlyMachineLicm {
        if !ctx.bool(knobs::enable_mlicm) || ctx.bool(knobs::disable_machine_licm) {
            return PhaseOutput::unchanged(input);
        }
        Knobs::machine_licm(ctx)
    } else {
        if !ctx.bool(knobs::OcgKnob499) {
            return PhaseOutput::unchanged(input);
        }
        Knobs::read(ctx, pass_id(id))
    };
    let first = super::version_cache::loop_info(input);
    if first.forest.loops.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    // Innermost loops first (deepest, then last in RPO), as sub_8FF780 walks
    // the RPO array from its end.
    let mut headers: Vec<(u32, u32, BlockId)> = first
        .forest
        .loops
        .iter()
        .map(|l| {
            (
                l.depth,
                first.cfg.rpo_index(l.header).unwrap_or(0),
                l.header,
            )
        })
        .collect();
    headers.sort_by(|a, b| b.cmp(a));

    let mut func: Option<Function> = None;
    let mut info = Some(first);
    let mut cur = Current::default();
    let mut out = PhaseOutput::unchanged(input);
    let (mut moved, mut refused, mut loops_changed) = (0u64, 0u64, 0u64);
    for (_, _, header) in headers {
        let current = func.as_ref().unwrap_or(input);
        let li = info.get_or_insert_with(|| std::rc::Rc::new(LoopInfo::new(current)));
        // Liveness (and pressure) is computed when a loop gets past the
        // cheap checks, and kept while it holds for the loops planned next.
        let Some(lid) = li.forest.loop_with_header(header) else {
            continue;
        };
        // Until a hoist, the function is the input, whose liveness the
        // phase before may have made.
        let source = func.is_none().then_some(input);
        let mut plan = plan(id, current, source, li, lid, &k, &mut cur);
        refused += plan.refused;
        if !k.mover {
            for r in plan
                .remarks
                .iter_mut()
                .filter(|r| r.kind == RemarkKind::Applied)
            {
                r.kind = RemarkKind::Missed;
                r.name = "licm-mover-off";
                r.message = r.message.replacen("hoisted", "would hoist", 1)
                    + " (not moved: OcgKnob484 off)";
            }
        }
        out.remarks.extend(plan.remarks);
        let mut report = plan.report;
        if !plan.hoist.is_empty() {
            if !k.mover {
                report.summary = format!(
                    "{} invariant instructions found, not moved (OcgKnob484 off)",
                    plan.hoist.len()
                );
            } else {
                let f = func.get_or_insert_with(|| (**input).clone());
                let body = li.forest.get(lid).blocks.clone();
                match ensure_preheader(f, li, header, &body) {
                    Some((pre, created)) => {
                        for &i in &plan.hoist {
                            if f.remove_inst(i).is_some() {
                                f.insert_before_terminator(pre, i);
                            }
                        }
                        moved += plan.hoist.len() as u64;
                        loops_changed += 1;
                        report.facts.push((
                            "preheader",
                            if created { "created" } else { "existing" }.into(),
                        ));
                        cur.dirty.extend(body.iter().copied());
                        cur.dirty.insert(pre);
                        if created {
                            cur.alias.insert(pre, header);
                            info = None;
                        } else {
                            // The block graph is as it was: only the
                            // positions of the moved instructions changed.
                            let mut blocks = body;
                            blocks.push(pre);
                            std::rc::Rc::make_mut(&mut std::rc::Rc::make_mut(li).cfg)
                                .renumber(f, &blocks);
                        }
                    }
                    None => {
                        report.summary =
                            "nothing hoisted: no preheader can be made (entered through brx.idx)"
                                .into();
                    }
                }
            }
        }
        out.loops.push(report);
    }
    if let Some(f) = func {
        out.function = Arc::new(f);
    }
    out.stats = vec![
        Stat {
            name: "instructions hoisted",
            value: moved,
        },
        Stat {
            name: "loops changed",
            value: loops_changed,
        },
        Stat {
            name: "invariants refused",
            value: refused,
        },
    ];
    out
}

/// What was decided about one loop.
struct Plan {
    /// Instructions to move, in the order they go into the preheader.
    hoist: Vec<InstId>,
    report: LoopReport,
    remarks: Vec<Remark>,
    refused: u64,
}

/// Why an instruction whose operands are invariant stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Refusal {
    MayFault,
    StoreMayAlias,
    LiveAtExit,
    LiveIntoHeader,
    WrittenTwice,
    Unprofitable,
    Pressure,
    PredicatePressure,
    AcrossCall,
}

impl Refusal {
    fn fact(self) -> &'static str {
        match self {
            Refusal::MayFault => {
                "refused: may fault (the loop may run zero times or the block may not run)"
            }
            Refusal::StoreMayAlias => "refused: a store in the loop may alias",
            Refusal::LiveAtExit => "refused: result live at an exit it does not dominate",
            Refusal::LiveIntoHeader => "refused: result live into the header",
            Refusal::WrittenTwice => "refused: result written elsewhere in the loop",
            Refusal::Unprofitable => "refused: unprofitable block",
            Refusal::Pressure => "refused: register pressure",
            Refusal::PredicatePressure => "refused: predicate pressure",
            Refusal::AcrossCall => "refused: cheap, and the loop holds a call",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Refusal::MayFault => "licm-may-fault",
            Refusal::StoreMayAlias => "licm-store-alias",
            Refusal::LiveAtExit => "licm-live-out",
            Refusal::LiveIntoHeader => "licm-live-in",
            Refusal::WrittenTwice => "licm-multiple-defs",
            Refusal::Unprofitable => "licm-unprofitable",
            Refusal::Pressure => "licm-register-pressure",
            Refusal::PredicatePressure => "licm-predicate-pressure",
            Refusal::AcrossCall => "licm-across-call",
        }
    }
    fn message(self) -> &'static str {
        match self {
            Refusal::MayFault => "it may fault and does not run on every entry into the loop (a loop that may run zero times, or a conditional block)",
            Refusal::StoreMayAlias => "a store, atomic or call in the loop may write the memory it reads",
            Refusal::LiveAtExit => "its result is live at a loop exit that its block does not dominate",
            Refusal::LiveIntoHeader => "the value its destination held before is still read (in the loop before this write, or after a loop exit that bypasses it): the register is live into the header",
            Refusal::WrittenTwice => "its destination is written by another instruction of the loop",
            Refusal::Unprofitable => "its block fails the profitability check",
            Refusal::Pressure => "the loop's register pressure plus the hoisted values would pass the register target",
            Refusal::PredicatePressure => "the loop's predicate pressure plus the hoisted predicates would pass seven, the predicate registers ptxas has",
            Refusal::AcrossCall => "it is cheap (fixed latency) and the loop holds a call: remaking it in the loop is cheaper than keeping it live across the call",
        }
    }
}

/// Memory facts of a loop body: which spaces it writes.
#[derive(Default)]
struct Writes {
    any: bool,
    generic: bool,
    spaces: Vec<Space>,
    /// A barrier or fence (MachineLICM only; Ori skips such loops): what
    /// other threads write to shared, global or generic memory before it
    /// becomes visible after it.
    barrier: bool,
}

impl Writes {
    fn may_alias(&self, load: Option<Space>) -> bool {
        // `.const` is read-only to the kernel: nothing in it writes there.
        if load == Some(Space::Const) {
            return false;
        }
        if self.barrier && !matches!(load, Some(Space::Param | Space::Const | Space::Local)) {
            return true;
        }
        if !self.any {
            return false;
        }
        match load {
            None | Some(Space::Generic) => true,
            Some(s) => self.generic || self.spaces.contains(&s),
        }
    }
}

/// Whether `inst` can fault when hoisted (see the module documentation).
fn may_fault(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    if matches!(info.family, FamilyId::Div | FamilyId::Rem) && info.ty().is_some_and(|t| t.is_int())
    {
        return true;
    }
    if !info.flags.may_trap() {
        return false;
    }
    if info.flags.loads() && matches!(info.space, Some(Space::Param | Space::Const)) {
        // A named variable: `[param+8]`, `[table]`.
        let named = inst.operands.iter().any(
            |op| matches!(op, Operand::Address(a) if matches!(a.base, AddressBase::Symbol(_))),
        );
        return !named;
    }
    true
}

/// Whether `inst` may be hoisted at all, by its opcode (before operands).
fn movable_kind(func: &Function, inst: &Inst, conservative: bool) -> bool {
    let flags = inst.opcode.info.flags;
    if inst.guard.is_some()
        || inst.is_terminator()
        || flags.has_side_effects()
        || flags.is_convergent()
        || flags.is_call()
        || flags.intersects(OpFlags::CARRY_IN.union(OpFlags::CARRY_OUT))
        || flags.is_volatile()
        || inst.reads_volatile_special()
    {
        return false;
    }
    let load_ok = flags.loads() && !flags.stores() && !flags.is_atomic();
    if !(inst.is_pure() || load_ok) {
        return false;
    }
    if conservative {
        let (class, pipe) = classify(func, inst);
        return !may_fault(inst) && !is_long_latency(class, pipe);
    }
    true
}

/// Whether `inst` is one of Ori's "no-op" instructions for counting (no
/// scoreboard: fixed latency).
fn is_noop(func: &Function, inst: &Inst) -> bool {
    let (class, pipe) = classify(func, inst);
    !is_long_latency(class, pipe)
}

/// Liveness and pressure, made when first asked and kept across loops and
/// hoists for as long as what the checks read of them still holds.
#[derive(Default)]
struct Current {
    /// Liveness, kept across hoists. Ori's phases make it once per phase:
    /// their checks read only whether a register is live into the
    /// header of the loop being planned or into an exit target of it, and a
    /// hoist out of loop L into its preheader P changes liveness inside L
    /// alone. (The hoisted instructions' operands are not written in L, so
    /// a path from outside that read them in L now reads them in P, which
    /// every such path crosses; their results are written once in L and not
    /// live into L's header, so no path from outside read them before, nor
    /// does one now past the write in P.) Loops are planned innermost first,
    /// so a later loop either encloses L, whose header and exit targets lie
    /// outside L, or is disjoint from it, and then its exit targets are not
    /// in L either (L is entered through P alone, a block whose only
    /// successor is L's header and so in no loop L is not in). MachineLICM
    /// also measures pressure inside the loop it plans, which a hoist out of
    /// L changes only in L and P (the same argument, at every point): it
    /// remakes liveness and pressure for a loop holding a block of `dirty`.
    live: Option<Rc<Liveness>>,
    /// A preheader a hoist created, with the header it leads to: what is
    /// live into it is what was live into that header before (for kept
    /// liveness, which does not know the new block).
    alias: FxHashMap<BlockId, BlockId>,
    /// Register pressure (MachineLICM's check).
    rp: Option<Rc<ptx_analysis::RegPressure>>,
    /// The blocks of the loops hoisted out of, and their preheaders, since
    /// `live` and `rp` were made: where these no longer hold.
    dirty: FxHashSet<BlockId>,
}

#[allow(clippy::too_many_arguments)]
fn plan(
    id: PhaseId,
    func: &Function,
    source: Option<&Arc<Function>>,
    li: &LoopInfo,
    lid: LoopId,
    k: &Knobs,
    cur: &mut Current,
) -> Plan {
    let l = li.forest.get(lid);
    let header = l.header;
    let mut report = LoopReport {
        facts: match k.flavor {
            Flavor::Ori => vec![("pass id", k.pass_id.to_string())],
            Flavor::MachineLicm => Vec::new(),
        },
        ..super::loop_common::loop_report(id, func, header)
    };
    let mut remarks = Vec::new();
    let skip = |report: &mut LoopReport, why: String| {
        report.summary = format!("nothing hoisted: {why}");
    };
    let empty = |report: LoopReport, remarks: Vec<Remark>| Plan {
        hoist: Vec::new(),
        report,
        remarks,
        refused: 0,
    };

    // Boundary analysis (sub_74D720): barriers and indirect jumps.
    let all_insts: Vec<InstId> = l
        .blocks
        .iter()
        .flat_map(|&b| func.blocks[b].insts.iter().copied())
        .collect();
    let barrier = all_insts.iter().find(|&&i| {
        let f = func.insts[i].opcode.info.flags;
        f.is_barrier() || f.is_fence()
    });
    let machine = k.flavor == Flavor::MachineLicm;
    if let (Some(&b), true) = (barrier, machine) {
        // MachineLICM has no loop-wide barrier rule: a barrier is a call
        // that may write memory, so it blocks the loads below (what other
        // threads store before it becomes visible), not the arithmetic.
        report.facts.push(("barrier", func.insts[b].opcode.text()));
    } else if let Some(&b) = barrier {
        skip(
            &mut report,
            format!(
                "the loop holds a barrier (`{}`)",
                func.insts[b].opcode.text()
            ),
        );
        report.facts.push(("barrier", func.insts[b].opcode.text()));
        return empty(report, remarks);
    }
    if all_insts
        .iter()
        .any(|&i| func.insts[i].opcode.info.family == FamilyId::BrxIdx)
    {
        skip(
            &mut report,
            "the loop holds an indirect branch (brx.idx)".into(),
        );
        return empty(report, remarks);
    }
    let is_simple = l.children.is_empty();
    if !is_simple && !k.nested {
        skip(
            &mut report,
            "nested hoisting disabled (OcgKnob220 off or DisableNestedHoist)".into(),
        );
        return empty(report, remarks);
    }
    let m = mode(k, is_simple);
    if !machine {
        report
            .facts
            .push(("policy", format!("HoistLate={}", k.policy)));
    }
    let conservative = match m {
        Mode::Skip(why) => {
            skip(&mut report, why.to_string());
            return empty(report, remarks);
        }
        Mode::Conservative => true,
        Mode::Hoist => false,
    };
    if conservative {
        report.facts.push(("mode", "conservative".into()));
    }
    report.facts.push((
        "invariance",
        if machine {
            "set-based"
        } else if k.set_based {
            "set-based (knob 934)"
        } else {
            "single pass"
        }
        .into(),
    ));

    // Facts of the body.
    let mut defs_in_loop: FxHashMap<RegId, u32> =
        FxHashMap::with_capacity_and_hasher(all_insts.len(), Default::default());
    let mut writes = Writes {
        barrier: barrier.is_some(),
        ..Writes::default()
    };
    for &i in &all_insts {
        let inst = &func.insts[i];
        visit_defs_and_uses(inst, |a, r| {
            if a == Access::Def {
                *defs_in_loop.entry(r).or_default() += 1;
            }
        });
        let f = inst.opcode.info.flags;
        if f.is_call() || (f.stores() && inst.opcode.info.space.is_none()) {
            writes.any = true;
            writes.generic = true;
        } else if f.stores() || f.is_atomic() {
            writes.any = true;
            match inst.opcode.info.space {
                None | Some(Space::Generic) => writes.generic = true,
                Some(s) => writes.spaces.push(s),
            }
        }
    }
    if machine && l.blocks.iter().any(|b| cur.dirty.contains(b)) {
        // Pressure inside this loop changed since it was measured.
        cur.live = None;
        cur.rp = None;
    }
    // Liveness, made when an instruction first reaches the checks that read
    // it (kept across loops, see `Current::live`). Made on the function as
    // it is now, it knows every block: no alias applies to it.
    macro_rules! live {
        () => {{
            if cur.live.is_none() {
                cur.alias.clear();
                cur.dirty.clear();
                cur.rp = None;
                cur.live = Some(match source {
                    Some(input) => super::version_cache::liveness_of(input),
                    None => Rc::new(liveness(func, &li.cfg)),
                });
            }
            &**cur.live.as_ref().expect("just made")
        }};
    }
    let exit_sources: Vec<BlockId> = l.exits.iter().map(|&(s, _)| s).collect();
    let dominates_exits = |b: BlockId| exit_sources.iter().all(|&s| li.dom.dominates(b, s));
    let dominates_latches = |b: BlockId| l.latches.iter().all(|&s| li.dom.dominates(b, s));

    // The candidate blocks: this loop's own (not those of nested loops), in
    // RPO order.
    let own: Vec<BlockId> = l
        .blocks
        .iter()
        .copied()
        .filter(|&b| li.forest.innermost(b) == Some(lid))
        .collect();

    // Stages 2-4 with a set of excluded blocks (stage 5 failures).
    let mut excluded: FxHashSet<BlockId> = FxHashSet::default();
    // MachineLICM: cheap instructions kept in a loop with a call.
    let mut kept_in_loop: FxHashMap<InstId, Refusal> = FxHashMap::default();
    let mut refusals: FxHashMap<InstId, Refusal> = FxHashMap::default();
    let (invariant, order) = loop {
        refusals.clear();
        let mut inv: FxHashSet<InstId> = FxHashSet::default();
        let mut inv_regs: FxHashSet<RegId> = FxHashSet::default();
        let mut order: Vec<InstId> = Vec::new();
        loop {
            let mut changed = false;
            for &b in &own {
                for &i in &func.blocks[b].insts {
                    if inv.contains(&i) {
                        continue;
                    }
                    let inst = &func.insts[i];
                    if !movable_kind(func, inst, conservative) {
                        continue;
                    }
                    let du = defs_and_uses(inst);
                    if du.defs.is_empty() {
                        continue;
                    }
                    let operands_invariant = du
                        .uses
                        .iter()
                        .all(|r| !defs_in_loop.contains_key(r) || inv_regs.contains(r));
                    if !operands_invariant {
                        continue;
                    }
                    let why = if excluded.contains(&b) {
                        Some(Refusal::Unprofitable)
                    } else if let Some(&r) = kept_in_loop.get(&i) {
                        Some(r)
                    } else if du
                        .defs
                        .iter()
                        .any(|r| defs_in_loop.get(r).copied() != Some(1))
                    {
                        Some(Refusal::WrittenTwice)
                    } else if du.defs.iter().any(|&r| live!().is_live_in(header, r)) {
                        Some(Refusal::LiveIntoHeader)
                    } else if l.exits.iter().any(|&(s, t)| {
                        let t = cur.alias.get(&t).copied().unwrap_or(t);
                        du.defs.iter().any(|&r| live!().is_live_in(t, r)) && !li.dom.dominates(b, s)
                    }) {
                        Some(Refusal::LiveAtExit)
                    } else if inst.opcode.info.flags.loads()
                        && writes.may_alias(inst.opcode.info.space)
                    {
                        Some(Refusal::StoreMayAlias)
                    } else if may_fault(inst) && !dominates_exits(b) {
                        Some(Refusal::MayFault)
                    } else {
                        None
                    };
                    match why {
                        Some(r) => {
                            refusals.insert(i, r);
                        }
                        None => {
                            refusals.remove(&i);
                            inv.insert(i);
                            inv_regs.extend(du.defs.iter().copied());
                            order.push(i);
                            changed = true;
                        }
                    }
                }
            }
            if !k.set_based || !changed {
                break;
            }
        }

        // MachineLICM: no Ori profitability; hoisting is refused where the
        // loop's pressure plus what the hoisted values keep live through it
        // would pass the register target (LLVM's CanCauseHighRegPressure).
        if machine {
            // Across a call ptxas keeps a live value in a callee-saved
            // register or spills it: a cheap value (a fixed-latency
            // instruction) is cheaper to remake in the loop than to carry
            // across the call; only long-latency ones (loads) leave.
            let has_call = all_insts
                .iter()
                .any(|&i| func.insts[i].opcode.info.flags.is_call());
            if has_call {
                let remade: Vec<InstId> = order
                    .iter()
                    .copied()
                    .filter(|&i| is_noop(func, &func.insts[i]))
                    .collect();
                if !remade.is_empty() {
                    // What reads them stays too (their operands are no
                    // longer invariant): recompute without them.
                    kept_in_loop.extend(remade.into_iter().map(|i| (i, Refusal::AcrossCall)));
                    continue;
                }
            }
            if !inv.is_empty() {
                if cur.rp.is_none() {
                    let rp = reg_pressure(func, &li.cfg, live!());
                    cur.rp = Some(Rc::new(rp));
                }
                let rp = cur.rp.clone().expect("just made");
                let peak = |p: bool| {
                    l.blocks
                        .iter()
                        .map(|&b| {
                            let m = rp.block_max(b);
                            if p {
                                m.p.value
                            } else {
                                m.r.value
                            }
                        })
                        .max()
                        .unwrap_or(0)
                };
                let is_pred = |r: RegId| func.regs[r].class == RegClass::P;
                let defs = |i: InstId| defs_and_uses(&func.insts[i]).defs;
                // Predicates first: a hoisted `setp` keeps a predicate live
                // through the whole loop, and ptxas has seven.
                let preds: Vec<InstId> = order
                    .iter()
                    .copied()
                    .filter(|&i| defs(i).into_iter().any(is_pred))
                    .collect();
                let p_peak = peak(true);
                if !preds.is_empty() && p_peak + preds.len() as u32 > PRED_TARGET {
                    report
                        .facts
                        .push(("predicate pressure", format!("{p_peak} + {}", preds.len())));
                    kept_in_loop.extend(preds.into_iter().map(|i| (i, Refusal::PredicatePressure)));
                    continue;
                }
                let r_peak = peak(false);
                let extra: u32 = order
                    .iter()
                    .flat_map(|&i| defs(i))
                    .filter(|&r| !is_pred(r))
                    .map(|r| reg_units(&func.regs[r]))
                    .sum();
                report
                    .facts
                    .push(("pressure", format!("{r_peak} + {extra}")));
                report.facts.push(("target", k.r_target.to_string()));
                if r_peak + extra > k.r_target {
                    for &i in &order {
                        refusals.insert(i, Refusal::Pressure);
                    }
                    break (FxHashSet::default(), Vec::new());
                }
            }
            break (inv, order);
        }

        // Stage 5 per block.
        let mut failed = false;
        for &b in &own {
            if excluded.contains(&b) {
                continue;
            }
            let insts = &func.blocks[b].insts;
            if !insts.iter().any(|i| inv.contains(i)) {
                continue;
            }
            let hoist_mode = if b == header {
                0
            } else if l.latches.contains(&b) {
                3
            } else if dominates_latches(b) {
                1
            } else {
                2
            };
            let is_inner = l.parent.is_some();
            let budget = budget(k, is_simple, hoist_mode, l.latches.len(), is_inner);
            let safe = dominates_latches(b);
            if !profitable(func, l, li, b, &inv, budget, safe, k.pass_id) {
                excluded.insert(b);
                failed = true;
            }
        }
        if !failed {
            // Budget shown: the header's.
            let budget0 = budget(k, is_simple, 0, l.latches.len(), l.parent.is_some());
            report.facts.push(("budget", format!("{budget0}")));
            break (inv, order);
        }
    };

    // Order of movement (and of the remarks): RPO of blocks, then
    // position; ranked only when there are two or more to sort.
    let mut hoist: Vec<InstId> = order;
    debug_assert!(hoist.iter().all(|i| invariant.contains(i)));
    let mut rank: FxHashMap<InstId, usize> = FxHashMap::default();
    if hoist.len() + refusals.len() > 1 {
        for &b in &own {
            for &i in &func.blocks[b].insts {
                if invariant.contains(&i) || refusals.contains_key(&i) {
                    rank.insert(i, rank.len());
                }
            }
        }
    }
    let key = |i: &InstId| rank.get(i).copied().unwrap_or(usize::MAX);
    hoist.sort_by_key(key);

    let mut counts: FxHashMap<Refusal, u64> = FxHashMap::default();
    let mut refused_sorted: Vec<(InstId, Refusal)> = refusals.into_iter().collect();
    refused_sorted.sort_by_key(|(i, _)| key(i));
    for &(i, r) in &refused_sorted {
        *counts.entry(r).or_default() += 1;
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: r.name(),
            origin: origin(func, i),
            message: format!(
                "not hoisted `{}` out of the loop at {}: {}",
                func.insts[i].opcode.text(),
                block_name(func, header),
                r.message()
            ),
        });
    }
    for &i in &hoist {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "licm-hoisted",
            origin: origin(func, i),
            message: format!(
                "hoisted loop-invariant `{}` out of the loop at {} into its preheader",
                func.insts[i].opcode.text(),
                block_name(func, header)
            ),
        });
    }
    report.facts.push(("hoisted", hoist.len().to_string()));
    let mut kinds: Vec<_> = counts.iter().collect();
    kinds.sort();
    for (r, n) in kinds {
        report.facts.push((r.fact(), n.to_string()));
    }
    let refused = refused_sorted.len() as u64;
    report.summary = if hoist.is_empty() {
        if refused > 0 {
            format!("nothing hoisted: {refused} invariant instructions refused")
        } else {
            "nothing hoisted: no invariant instruction".into()
        }
    } else if refused > 0 {
        format!("hoisted {} instructions ({refused} refused)", hoist.len())
    } else {
        format!("hoisted {} instructions", hoist.len())
    };
    Plan {
        hoist,
        report,
        remarks,
        refused,
    }
}

/// Stage 5, `IsProfitable` (sub_8F8CB0), for block `b`.
#[allow(clippy::too_many_arguments)]
fn profitable(
    func: &Function,
    l: &ptx_analysis::Loop,
    li: &LoopInfo,
    b: BlockId,
    inv: &FxHashSet<InstId>,
    budget: f64,
    safe: bool,
    pass_id: u32,
) -> bool {
    let _ = li;
    let (noop_weight, real_weight) = match (safe, pass_id == 0) {
        (true, true) => (60.0, 5.0),
        (true, false) => (150.0, 5.0),
        (false, true) => (12.0, 1.0),
        (false, false) => (30.0, 1.0),
    };
    let (mut score, mut penalty, mut count) = (0.0f64, 0.0f64, 0u32);
    for &i in &func.blocks[b].insts {
        let inst = &func.insts[i];
        count += 1;
        let (class, pipe) = classify(func, inst);
        let long = is_long_latency(class, pipe);
        let lat_cost = if class.code() > 4 { 2.0 } else { 1.0 };
        let ndefs = defs_and_uses(inst).defs.len() as f64;
        if inv.contains(&i) {
            if !long {
                score += noop_weight;
            } else {
                score += 1.0 + real_weight * ndefs;
                penalty += lat_cost * ndefs;
            }
        } else if long {
            penalty += lat_cost * ndefs;
        }
    }
    if count == 0 && pass_id == 0 {
        return false;
    }
    let denominator = if pass_id == 0 {
        count as f64
    } else {
        // sub_8F8BC0: header and body weights (1 per no-op, 30 otherwise).
        let weight = |blk: BlockId| -> f64 {
            func.blocks[blk]
                .insts
                .iter()
                .map(|&i| {
                    if is_noop(func, &func.insts[i]) {
                        1.0
                    } else {
                        30.0
                    }
                })
                .sum()
        };
        let header = weight(l.header);
        let body: f64 = l
            .blocks
            .iter()
            .filter(|&&x| x != l.header)
            .map(|&x| weight(x))
            .sum();
        (body / 3.0).floor() + header
    };
    denominator != 0.0 && (score * budget) / (real_weight * denominator) >= penalty
}
