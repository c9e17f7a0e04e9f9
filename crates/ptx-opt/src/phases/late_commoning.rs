//! Phase 64 LateOriCommoning: late common-subexpression elimination across
//! blocks, after predication (phase 63).
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 64 -- LateOriCommoning":
//! "Implementation -- sub_9059B0" (the gate), "Core Commoning Walker --
//! sub_9055F0" (program-order walk, operands renamed through their
//! representatives, the per-block class table), "Structural Equivalence
//! Predicate -- sub_8F4510" (C1-C7) and "Instruction Class Bitmask". The
//! walk, keys and proofs are [`super::commoning`]'s.
//!
//! # Enablement
//!
//! The seed's SM80/SM89 backends have no GvnCse (their slot 23 is a no-op)
//! and "rely on LateOriCommoning (phase 64) and the GeneralOptimize
//! sub-passes for CSE coverage"; elsewhere GvnCse has already commoned. So
//! the phase runs on sm_80..sm_89, and on every target when
//! `ForceLateCommoning` (knob 487 in seed 001) is set. OCG knob 844
//! (`OcgKnob844`, default true) is the walker's per-instruction gate; PTX
//! cannot attach it to one instruction, so false switches the walk off.
//! `DisableMoveCommoning` stops copies (`mov %r2, %r1`) and commoned
//! instructions from making their destination a name of the source's value
//! (the seed's "MOV-based equivalence propagation").
//!
//! # The equivalence rules, adapted
//!
//! - C1 (different block): the leader is in another block; merging within
//!   a block is the earlier passes' work (GvnCse, the GeneralOptimize
//!   bundles).
//! - C2 (dominance) and C7 (each use operand's definition dominates): the
//!   value keys of [`super::commoning`] (a register is a value only under its
//!   one dominating writer; any other register must be unchanged between the
//!   two instructions).
//! - C3 (no scheduling dependency between): for loads, no clobbering store,
//!   atomic, fence, barrier or call on the (unique) path; pure instructions
//!   have none.
//! - C4 (predicate compatibility): both unguarded, or the same guard
//!   register and sense (the guard is part of the key).
//! - C5/C6 (operand count and definition/use shape): the key holds the
//!   opcode with all modifiers and every source operand; instructions with
//!   more than one result are not eligible.
//!
//! The class table: each block gets the OR of the class bits (a hash of the
//! opcode word) of the leaders on its dominator path, and an instruction is
//! looked up only when its class bit is set there. The counter "lookups
//! skipped by the class filter" counts keys that existed elsewhere but
//! not on the path.
//!
//! The walk repeats (at most `MAX_WALKS` times) while the previous walk
//! commoned something: a register written by two redundant copies of one
//! value is a key only once the first copy is gone.
//!
//! Loads: read-only ones (`ld.const`, `ld.global.nc`, `ld.param` of a
//! parameter) and others along one extended basic block with no clobber
//! between, as in GvnCse's full mode. The MUFU class is not eligible.
//!
//! Adapted to PTX: in Ori a kernel parameter is a constant-bank operand,
//! not an instruction, so commoning an `ld.param` saves nothing in SASS.
//! It is therefore not merged across a loop (one containing neither load,
//! on a path between them), where it would only keep a register live
//! through the loop ([`super::commoning::Config::cheap_not_across_loops`];
//! filetest `GvnCse/param_after_loop`).
//!
//! Under a user-set register limit (`--maxrregcount`) a merge that raises
//! a block's register pressure over it is refused, as in GvnCse (see its
//! module documentation for the gate and why).

use std::sync::Arc;

use ptx_ir::ir::Function;

use super::commoning::{self, Config, Scope};
use super::gvn_cse::{finish, PATH_CHECKS};
use crate::remark::PhaseOutput;
use crate::{knobs, PassContext, PhaseId};

/// The most walks of one function (the first and the repeats that follow
/// a walk that removed something).
const MAX_WALKS: usize = 4;

/// Whether the phase runs on `sm_<sm>` without `ForceLateCommoning`.
pub fn sm_runs_late_commoning(sm: u32) -> bool {
    (80..90).contains(&sm)
}

/// Runs LateOriCommoning on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let sm = ctx.target().sm;
    if !sm_runs_late_commoning(sm) && !ctx.bool(knobs::ForceLateCommoning) {
        return PhaseOutput::unchanged(input);
    }
    if !ctx.bool(knobs::OcgKnob844) {
        return PhaseOutput::unchanged(input);
    }
    let cfg = Config {
        scope: Scope::OtherBlock,
        ebb_loads: true,
        plain_loads: true,
        mufu: false,
        through_moves: !ctx.bool(knobs::DisableMoveCommoning),
        bloom: true,
        path_checks: PATH_CHECKS,
        param_loads_only: false,
        window: 0,
        cheap_not_across_loops: true,
    };
    let mut f = (**input).clone();
    let mut gate = super::machine_cse::Pressure::limit_gate(id, ctx, input);
    let mut walks = 0;
    let mut walk = |f: &mut Function| {
        walks += 1;
        // The first walk is given the input itself, whose facts the phase
        // before may have made; a later one follows a walk that may have
        // removed instructions.
        let facts = (walks == 1).then(|| super::version_cache::facts(input));
        if let (Some(g), true) = (gate.as_mut(), walks > 1) {
            g.restart(f);
        }
        commoning::run(
            f,
            &cfg,
            facts,
            gate.as_mut().map(|g| g as &mut dyn commoning::Gate),
        )
    };
    let mut outcome = walk(&mut f);
    // A copy whose destination another redundant copy of the same value
    // also writes is refused until that one is gone (the key of a register
    // is a value only under its one writer): walk again while the previous
    // walk removed something, so that the output is a fixed point of the
    // phase (a second build would otherwise remove the next copy).
    let mut last = !outcome.merged.is_empty();
    for _ in 1..MAX_WALKS {
        if !last {
            break;
        }
        let again = walk(&mut f);
        last = !again.merged.is_empty();
        outcome.merged.extend(again.merged);
        outcome.refused = again.refused;
    }
    let mut out = finish(id, input, f, outcome, None, false);
    if let Some(g) = gate {
        out.remarks.extend(g.remarks);
    }
    out
}
