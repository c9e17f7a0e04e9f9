//! Phase 49 GvnCse: global value numbering and common-subexpression
//! elimination.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 49 -- GvnCse (Global Value
//! Numbering + CSE)": "Mode Dispatcher (sub_BEE370)", "EBB Pre-Pass
//! (sub_BED430)", "GVN Algorithm Details (Binary Trace)" (the per-SM table),
//! "Instruction Eligibility", "GPU-Specific CSE Constraints". The walk, the
//! keys and the proofs are in [`super::commoning`] (shared with phase 64).
//!
//! # Enablement
//!
//! - `EnableGvnCse` (default true): master switch.
//! - The SM backend: the pass runs on the SM60 (sm_60..sm_62), SM70
//!   (sm_70..sm_75) and SM90+ (sm_90 and later) backends; on SM30/50 and
//!   SM80/SM89 (sm_80..sm_89) the backend's slot is a no-op and phase 64
//!   LateOriCommoning commons instead (`--list-phases` says so; no remark
//!   per kernel).
//! - `EnableGvnCseMode` (OCG knob 402, 0..=6) selects the variant:
//!
//!   | mode | here |
//!   |---|---|
//!   | 0 | the registry's "not set": the built-in variant, full GVN (mode 3) |
//!   | 1 | simple: one block at a time (loads too, with no clobber between) |
//!   | 2 | standard: dominator-scoped; EBB pre-pass first |
//!   | 3 | full: dominator-scoped; loads across the blocks of an EBB |
//!   | 4 | full on SM90+; mode 2 elsewhere (the seed remaps 4 to 2 when the backend's bit 6 at +1106 is clear) |
//!   | 5, 6 | full with the extended scope: on SM90+ the MUFU class (`sin`, `cos`, `ex2`, `lg2`, `rsqrt`, `tanh`, `.approx` `rcp`/`sqrt`/`div`) is eligible too |
//!
//!   The knob's registry entry calls 0 "off"; a knob whose value is the
//!   registry's placeholder 0 means "not set", and the seed runs GvnCse by
//!   default (isNoOp returns 0), so 0 keeps the built-in variant.
//!   `EnableGvnCse=false` switches the phase off.
//! - The EBB pre-pass (mode 2) runs unless the SM version is above 0x7FFF
//!   (here: sm_90 and later) and OCG knob 210 (`OcgKnob210`) is set. Without
//!   it, mode 2 commons loads within one block only. The pre-pass here finds
//!   the extended basic blocks (chains of blocks with one predecessor), the
//!   regions in which every path between two instructions is known, which is
//!   what cross-block load commoning needs to prove that no store lies
//!   between. (The seed's pre-pass also propagates eligibility through
//!   operand chains; here value keys already name operands by their
//!   leaders, so a whole expression tree merges link by link.)
//!
//! `EnableGvnCsePerInstr` (OCG knob 257) is a per-instruction gate in ptxas;
//! PTX gives no way to attach a knob to one instruction, so it is not read.
//!
//! # What it changes
//!
//! An eligible instruction whose value a dominating instruction already
//! computed becomes `mov dst, leader_dst` (see [`super::commoning`]); the
//! next GeneralOptimize bundle (58) propagates the copy and the live/dead
//! phases remove it. Applied remarks name the leader; missed remarks say
//! which proof failed (a store between two loads, a redefinition, two
//! paths).
//!
//! Adapted to PTX: in Ori a kernel parameter is a constant-bank operand,
//! not an instruction, so commoning an `ld.param` saves nothing in SASS.
//! It is therefore not merged across a loop (one containing neither load,
//! on a path between them), where it would only keep a register live
//! through the loop ([`super::commoning::Config::cheap_not_across_loops`];
//! filetest `GvnCse/param_after_loop`).
//!
//! Under a user-set register limit (`--maxrregcount`, plus
//! `reg-target-adjust`) a merge that raises a block's register pressure
//! (MRPA, R units) over the limit is refused, with the gate of RP-aware
//! machine-cse ([`super::machine_cse::Pressure::limit_gate`]); without a
//! limit the phase commons as the seed describes. The reason: ptxas's own
//! commoning works on code ptxas then allocates, ours on code that block
//! remat has just spread out to lower the pressure, and merging those
//! copies back undid it (`stencil2d_5pt` at `--maxrregcount 24`: 24 spill
//! bytes with the merges, 0 without; filetest `GvnCse/register_limit`).

use std::sync::Arc;

use ptx_ir::ir::Function;

use super::commoning::{self, Config, Scope};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// Most missed remarks per function.
pub(crate) const MAX_MISSED: usize = 20;

/// Path searches per run.
pub(crate) const PATH_CHECKS: u32 = 4000;

/// Whether the SM backend of `sm_<sm>` runs GvnCse (SM60, SM70, SM90+).
pub fn sm_runs_gvn_cse(sm: u32) -> bool {
    (60..80).contains(&sm) || sm >= 90
}

/// The variant a mode selects on `sm_<sm>`: `None` runs nothing.
fn config(mode: i64, sm: u32, skip_ebb: bool) -> Option<(u8, Config)> {
    let enhanced = sm >= 90;
    let mode = match mode {
        0 => 3,
        4 if !enhanced => 2,
        m @ 1..=6 => m as u8,
        _ => return None,
    };
    let base = Config {
        scope: Scope::Dominator,
        ebb_loads: true,
        plain_loads: true,
        mufu: false,
        through_moves: true,
        bloom: false,
        path_checks: PATH_CHECKS,
        param_loads_only: false,
        window: 0,
        cheap_not_across_loops: true,
    };
    Some((
        mode,
        match mode {
            1 => Config {
                scope: Scope::Block,
                ebb_loads: false,
                ..base
            },
            2 => Config {
                ebb_loads: !(enhanced && skip_ebb),
                ..base
            },
            3 | 4 => base,
            _ => Config {
                mufu: enhanced,
                ..base
            },
        },
    ))
}

/// Runs GvnCse on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::EnableGvnCse) {
        return PhaseOutput::unchanged(input);
    }
    let sm = ctx.target().sm;
    if !sm_runs_gvn_cse(sm) {
        // No remark: one per kernel on every sm_80 file would be noise (and
        // an output that differs from the phase switched off).
        return PhaseOutput::unchanged(input);
    }
    let mode = ctx.int(knobs::EnableGvnCseMode);
    let skip_ebb = sm >= 90 && mode == 2 && ctx.bool(knobs::OcgKnob210);
    let Some((mode, cfg)) = config(mode, sm, skip_ebb) else {
        return PhaseOutput::unchanged(input);
    };
    let mut f = (**input).clone();
    let mut gate = super::machine_cse::Pressure::limit_gate(id, ctx, input);
    let outcome = commoning::run(
        &mut f,
        &cfg,
        Some(super::version_cache::facts(input)),
        gate.as_mut().map(|g| g as &mut dyn commoning::Gate),
    );
    let mut out = finish(id, input, f, outcome, Some(mode), false);
    if let Some(g) = gate {
        out.remarks.extend(g.remarks);
    }
    out
}

/// Remarks and counters of a commoning run (phases 49 and 64).
pub(crate) fn finish(
    id: PhaseId,
    input: &Arc<Function>,
    f: Function,
    outcome: commoning::Outcome,
    mode: Option<u8>,
    changed: bool,
) -> PhaseOutput {
    let mut remarks = Vec::new();
    for m in &outcome.merged {
        let what = if m.removed {
            format!(
                "removed `{}`: {} already holds its value (computed at the first one)",
                m.text, m.leader_dst
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
            message: what,
        });
    }
    for r in outcome.refused.iter().take(MAX_MISSED) {
        let leader_at = f.insts[r.leader].opcode.text();
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "cse",
            origin: origin(&f, r.inst),
            message: format!(
                "`{}` computes what an earlier `{leader_at}` computed, but is kept: {}",
                f.insts[r.inst].opcode.text(),
                r.why
            ),
        });
    }
    if outcome.refused.len() > MAX_MISSED {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "cse",
            origin: None,
            message: format!(
                "{} more equal computations kept (remarks shown for the first {MAX_MISSED})",
                outcome.refused.len() - MAX_MISSED
            ),
        });
    }
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    if outcome.merged.is_empty() && !changed {
        let mut out = PhaseOutput::unchanged(input);
        out.remarks = remarks;
        return out;
    }
    let loads = outcome.merged.iter().filter(|m| m.load).count() as u64;
    let cross = outcome.merged.iter().filter(|m| m.cross_block).count() as u64;
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
            value: loads,
        },
        Stat {
            name: "commoned across blocks",
            value: cross,
        },
        Stat {
            name: "equal computations kept",
            value: outcome.refused.len() as u64,
        },
    ];
    // The mode is not a counter: with it, a mode knob that merges the same
    // instructions would change the phase's output and re-run the next
    // phase.
    if mode.is_some() {
        stats.push(Stat {
            name: "extended basic blocks",
            value: outcome.ebbs,
        });
    }
    if id == PhaseId::LateOriCommoning {
        stats.push(Stat {
            name: "lookups skipped by the class filter",
            value: outcome.bloom_skips,
        });
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_sm_enablement() {
        for sm in [60, 61, 70, 72, 75, 90, 100, 120] {
            assert!(sm_runs_gvn_cse(sm), "sm_{sm}");
        }
        for sm in [50, 52, 80, 86, 87, 89] {
            assert!(!sm_runs_gvn_cse(sm), "sm_{sm}");
        }
    }

    #[test]
    fn modes() {
        assert_eq!(config(0, 90, false).map(|c| c.0), Some(3));
        assert_eq!(config(4, 70, false).map(|c| c.0), Some(2));
        assert_eq!(config(4, 90, false).map(|c| c.0), Some(4));
        assert!(config(7, 90, false).is_none());
        assert_eq!(config(1, 90, false).unwrap().1.scope, Scope::Block);
        assert!(!config(2, 90, true).unwrap().1.ebb_loads);
        assert!(config(2, 70, true).unwrap().1.ebb_loads);
        assert!(config(5, 90, false).unwrap().1.mufu);
        assert!(!config(5, 70, false).unwrap().1.mufu);
        assert!(!config(3, 90, false).unwrap().1.mufu);
    }
}
