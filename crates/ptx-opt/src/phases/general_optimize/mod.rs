//! The GeneralOptimize bundle: phases 13 GeneralOptimizeEarly, 29
//! GeneralOptimize, 37 (unnamed), 46 GeneralOptimizeMid2, 58
//! GeneralOptimizeLate and 65 GeneralOptimizeLate2.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Forward Copy Propagation --
//! OriCopyProp" and "Interaction Between Passes" ("Phase 46:
//! GeneralOptimizeMid2 |-- OriCopyProp |-- constant folding, algebraic
//! simplification, DCE"); seed `000_ed667d9feced6e07.txt`, "Pipeline
//! Placement". Each bundle is a set of cheap local sub-passes run to a fixed
//! point (variant A, phases 13/29, capped by OCG knob 464; variant B,
//! phases 37/58, a cost threshold, knob 474).
//!
//! Sub-passes, one module each, run in this order in every bundle phase:
//!
//! - [`crate::phases::copy_prop`]: OriCopyProp, forward copy propagation
//!   (and `selp` with a known condition); it makes `mov`s of immediates
//!   reach the instructions that read them through copies;
//! - [`const_fold`]: constant folding and algebraic simplification; in
//!   the first round of phase 29 (right after phase 22 unrolls) then
//!   [`congruence`]: an `and` with a mask or a `rem.u` by a power of two
//!   whose result the low bits of its source fix (an unrolled copy's `i &
//!   1`) becomes a constant;
//! - [`redundant_def`]: the bundle's partial CSE, an instruction that
//!   recomputes the value its destination already holds is removed (what
//!   unrolled copies of a loop-invariant computation leave for LICM);
//! - [`store_forward`]: the same for loads, a load of what a store earlier
//!   in the block wrote becomes a `mov` of the stored value; then
//!   [`dead_store`]: a store to the function's own stack frame that a later
//!   store of the block overwrites before anything reads it is removed;
//! - with `CopyPropAddr` (on): [`offset_fold`], integer values that differ by a constant from one already in a
//!   register written as that register plus the constant (the copies of an
//!   unrolled address computation), then [`address_fold`], `add`s of
//!   immediates folded into the memory operands that read them.
//!
//! # The fixed-point loop
//!
//! Seed 001, "Forward Copy Propagation -- OriCopyProp", "Convergence":
//! "Variant A (phases 13, 29) caps iterations via knob 464; Variant B
//! (phases 37, 58) uses a cost-based threshold of 0.25 (knob 474)". A round
//! is copy propagation, constant folding, then redundant recomputation
//! removal; the rounds go on while one
//! changes something:
//!
//! - variant A (13, 29): at most `OcgKnob464` rounds (0, unset: the
//!   built-in [`DEFAULT_ROUNDS`]);
//! - variant B (37, 58): a round's cost is the number of changes it made
//!   (uses replaced, selects decided, instructions folded); rounds go on
//!   while the last one's cost is at least `OcgKnob474` (0.25) times the
//!   first round's, at most [`MAX_ROUNDS`];
//! - phases 46 and 65, for which the seed gives no loop: one round.
//!
//! Missed remarks come from the first round only (the later rounds see the
//! same instructions); counters are summed over the rounds, plus "rounds".
//! The bundle's own DCE is left to the live/dead phases (16, 84).
//!
//! # `--named-phases OriCopyProp`
//!
//! The six bundle phases carry the table alias `OriCopyProp`; the command
//! line (and the filetests) then also set `GeneralOptimizeSubPasses =
//! OriCopyProp`, with which the bundles run copy propagation alone
//! (constant folding and recomputation removal off).

use std::sync::Arc;

use ptx_ir::ir::Function;

use crate::knobs;
use crate::remark::{PhaseOutput, RemarkKind, Stat};
use crate::PassContext;
use crate::PhaseId;

pub mod address_fold;
pub mod congruence;
pub mod const_fold;
pub mod dead_store;
pub mod offset_fold;
pub mod redundant_def;
pub mod store_forward;

/// Rounds of variant A when `OcgKnob464` is not set.
pub const DEFAULT_ROUNDS: i64 = 4;
/// The most rounds of any bundle phase.
pub const MAX_ROUNDS: i64 = 8;

/// Counters that add up over the rounds (the others are the first round's).
const ADDITIVE: &[&str] = &[
    "instructions folded",
    "folded: constant sources",
    "folded: algebraic identity",
    "folded: selp with a known condition",
    "copies propagated",
    "uses replaced in the copy's block",
    "uses replaced across blocks",
    "selects with a constant condition",
    "recomputations removed",
    "sources made immediates",
    "addresses folded",
    "offsets reassociated",
    "loads forwarded from stores",
    "dead stores removed",
    "congruences folded",
];

/// The phases that run the bundle.
pub fn is_bundle(id: PhaseId) -> bool {
    crate::table::is_general_optimize(id)
}

/// What one round changed (the cost of variant B).
fn changes(stats: &[Stat]) -> u64 {
    stats
        .iter()
        .filter(|s| {
            matches!(
                s.name,
                "uses replaced in the copy's block"
                    | "uses replaced across blocks"
                    | "selects with a constant condition"
            ) || s.name == "instructions folded"
                || s.name == "recomputations removed"
                || s.name == "sources made immediates"
                || s.name == "addresses folded"
                || s.name == "offsets reassociated"
                || s.name == "loads forwarded from stores"
                || s.name == "dead stores removed"
                || s.name == "congruences folded"
        })
        .map(|s| s.value)
        .sum()
}

/// Runs the bundle's sub-passes on one function (phase `id`): rounds of
/// copy propagation, then constant folding on its result, to the phase's
/// fixed point (see the module documentation).
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let copy_only = ctx.string(knobs::GeneralOptimizeSubPasses) == "OriCopyProp";
    let (max_rounds, threshold) = match id {
        PhaseId::GeneralOptimizeEarly | PhaseId::GeneralOptimize => {
            let cap = ctx.int(knobs::OcgKnob464);
            (
                if cap > 0 {
                    cap.min(MAX_ROUNDS)
                } else {
                    DEFAULT_ROUNDS
                },
                None,
            )
        }
        PhaseId::Phase37 | PhaseId::GeneralOptimizeLate => {
            (MAX_ROUNDS, Some(ctx.float(knobs::OcgKnob474)))
        }
        _ => (1, None),
    };
    // Store forwarding, dead-store removal and offset reassociation clean up after unrolling:
    // in the bundles right after each unroller (13 after cicc's, 29 after
    // phase 22) and in 58, after LICM, GvnCse and reassociation have
    // exposed the unrolled copies' common parts; phases 37, 46 and 65 skip
    // them (measured: the same outputs on bench-quality, 3-5% less CPU).
    let cleanup = matches!(
        id,
        PhaseId::GeneralOptimizeEarly | PhaseId::GeneralOptimize | PhaseId::GeneralOptimizeLate
    );
    let mut current = input.clone();
    let mut remarks = Vec::new();
    let mut stats: Vec<Stat> = Vec::new();
    let mut first_cost = 0u64;
    let mut rounds = 0u64;
    for round in 0..max_rounds {
        let copied = crate::phases::copy_prop::run(id, ctx, &current);
        let (function, fold_remarks, fold_stats) = if copy_only {
            (copied.function.clone(), Vec::new(), Vec::new())
        } else {
            let mut folded = const_fold::run(id, &copied.function);
            // Induction congruences: once, in the bundle right after phase
            // 22 (cicc's unroller simplifies its own copies; elsewhere the
            // reaching definitions cost 8-12% of a dealii build and found
            // nothing).
            if id == PhaseId::GeneralOptimize && round == 0 {
                let cong = congruence::run(id, &folded.function);
                folded.function = cong.function;
                folded.remarks.extend(cong.remarks);
                folded.stats.extend(cong.stats);
            }
            let recomputed = redundant_def::run(id, &folded.function);
            let (forwarded, cse) = if cleanup {
                let forwarded = store_forward::run(id, &recomputed.function);
                let dse = dead_store::run(id, &forwarded.function);
                (forwarded, dse)
            } else {
                (
                    PhaseOutput::unchanged(&recomputed.function),
                    PhaseOutput::unchanged(&recomputed.function),
                )
            };
            let mut remarks = folded.remarks;
            remarks.extend(recomputed.remarks);
            remarks.extend(forwarded.remarks);
            remarks.extend(cse.remarks);
            let mut stats = folded.stats;
            stats.extend(recomputed.stats);
            stats.extend(forwarded.stats);
            stats.extend(cse.stats);
            if ctx.bool(knobs::CopyPropAddr) {
                let offsets = if cleanup {
                    offset_fold::run(id, &cse.function)
                } else {
                    PhaseOutput::unchanged(&cse.function)
                };
                let addr = address_fold::run(id, &offsets.function);
                remarks.extend(offsets.remarks);
                remarks.extend(addr.remarks);
                stats.extend(offsets.stats);
                stats.extend(addr.stats);
                (addr.function, remarks, stats)
            } else {
                (cse.function, remarks, stats)
            }
        };
        let changed = !Arc::ptr_eq(&function, &current);
        let mut round_stats = copied.stats;
        round_stats.extend(fold_stats);
        let cost = changes(&round_stats);
        for r in copied.remarks.into_iter().chain(fold_remarks) {
            if round == 0 || r.kind == RemarkKind::Applied {
                remarks.push(r);
            }
        }
        for s in round_stats {
            match stats.iter_mut().find(|t| t.name == s.name) {
                // What later rounds changed adds up; what they looked at
                // and left is what the first round already counted.
                Some(t) if ADDITIVE.contains(&s.name) => t.value += s.value,
                Some(_) => {}
                None => stats.push(s),
            }
        }
        if !changed {
            break;
        }
        rounds += 1;
        current = function;
        if round == 0 {
            first_cost = cost.max(1);
        } else if let Some(t) = threshold {
            if (cost as f64) < t * first_cost as f64 {
                break;
            }
        }
    }
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    if rounds > 1 {
        stats.push(Stat {
            name: "rounds",
            value: rounds,
        });
    }
    PhaseOutput {
        function: current,
        loops: Vec::new(),
        remarks,
        stats,
    }
}
