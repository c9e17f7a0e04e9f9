//! Phase 24, OriPipelining: software-pipelining analysis and decision for
//! single-block loops. The phase annotates every instruction of the body
//! with its latency class and pipe, filters the loops the pipeliner can
//! take, computes MII = max(ResMII, RecMII), finds a modulo schedule
//! (iterative modulo scheduling from MII upward) and decides whether
//! overlapping iterations pays. It reports all of it per loop; it does **not**
//! rewrite the loop (see "Not done").
//!
//! Seed `000_ed667d9feced6e07.txt`, "Phase 24 -- OriPipelining": "Phase 1:
//! Operand Latency Annotation" (the 13 classes of `sub_91A0F0`, here
//! `ptx_analysis::latency::classify`), "Phase 2: Pipeline Feasibility
//! Filtering" (`sub_9202D0`), "Phase 3: MII Computation" (ResMII from the
//! 7-pipe cost vector and the per-SM pipe widths, RecMII as the smallest II
//! for which every recurrence `A.time + L - D * II` is satisfiable), the
//! structural observation "single-block loops only", and "Other Pipelining
//! Knobs".
//!
//! # Knobs
//!
//! - `OkToPipelineNoUnroll` (0): a loop marked `.pragma "nounroll"` is left
//!   alone unless it is set (the seed: "allow pipelining even when unrolling
//!   was also suppressed").
//! - `PipelineMultiOutputTex` (0): a loop with a texture instruction writing
//!   several registers is left alone unless it is set.
//! - The GEMM pipeliner (`GemmPipeliner*`, SM90 TMA depth management) and the
//!   hoisting-inside-pipelined-loop limits (`PipelineHoist*`) are not read:
//!   they describe the WGMMA path and register-pressure tuning of a
//!   transform this module does not make.
//!
//! # Feasibility (adapted from `sub_9202D0`)
//!
//! Ori rejects an instruction on the control/barrier pipes (pipe class <= 3
//! of its `PipeAssignment`) and one whose two operands have different
//! latency classes (SASS operand encodings). On PTX: a body with a barrier,
//! fence, call, a convergent (warp-synchronous) instruction, an atomic, a
//! volatile access or a branch other than the loop's own back edge is
//! rejected ("control/barrier"); operand-level latency classes do not exist
//! in PTX, so the second test has no counterpart. Loops of more than one
//! block, and loops whose trip count is warp-divergent-unknown, are handled
//! as the seed says ptxas does: multi-block loops are not pipelined.
//!
//! # The schedule and the decision
//!
//! The dependence graph has register edges (true dependences with the
//! producer's stall cycles, loop-carried ones at distance 1, as the seed's
//! DDG; anti and output dependences are left to modulo variable expansion,
//! which renames the registers of overlapped iterations) and memory-order
//! edges (a store against
//! every other memory access, latency 0 in order and 1 across iterations).
//! Iterative modulo scheduling places instructions in order at their
//! earliest start in a modulo reservation table of II rows and the target's
//! pipe widths; when one does not fit in II consecutive slots, II grows (up
//! to the body's length in cycles). The decision: pipelining pays when the
//! schedule has more than one stage (iterations overlap) and II is below the
//! length of one iteration's critical path; otherwise the loop is reported
//! as not worth it.
//!
//! # Relation to cicc's machine-pipeliner
//!
//! The DDG, RecMII, ResMII, the modulo reservation table and this phase's
//! iterative scheduler live in [`super::modulo`], shared with cicc's
//! MachinePipeliner ([`super::machine_pipeliner`], swing modulo scheduling,
//! seed 003), which runs earlier in the pipeline and does rewrite a loop
//! into a prologue, kernel and epilogues ([`super::modulo::emit_pipelined`]).
//! This phase sees such a kernel as an ordinary single-block loop and
//! reports on it; in the real toolchain ptxas likewise re-pipelines what
//! cicc emitted.
//!
//! # Not done
//!
//! The prologue/kernel/epilogue rewrite at the PTX level (the generator is
//! in [`super::modulo`]; this phase's schedule keeps no anti/output
//! dependences and no stage-0 loop control, which the generator needs). ptxas re-runs its
//! own pipeliner and post-RA scheduler on whatever PTX it gets, and a PTX
//! prologue/epilogue needs a trip count of at least the stage count (a
//! runtime check and a fallback loop for unknown counts); the time went to
//! correctness of phases 18, 21 and 35-88. The decision and its numbers are
//! reported (`LoopReport` facts: II, MII, ResMII, RecMII, stages, schedule
//! length) so that `ptxopt explain` shows what ptxas would do.

use std::sync::Arc;

use ptx_ir::ir::def_use::defs_and_uses;
use ptx_ir::ir::{Function, InstId};
use ptx_isa::FamilyId;

use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// Runs phase 24 on one function (analysis and decision only).
pub fn run(ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let id = PhaseId::OriPipelining;
    let li = super::version_cache::loop_info(input);
    if li.forest.loops.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let target = ctx.target();
    let no_unroll_ok = ctx.int(knobs::OkToPipelineNoUnroll) != 0;
    let multi_tex_ok = ctx.int(knobs::PipelineMultiOutputTex) != 0;
    let mut out = PhaseOutput::unchanged(input);
    let (mut candidates, mut worth) = (0u64, 0u64);
    for l in &li.forest.loops {
        let mut report = super::loop_common::loop_report(id, input, l.header);
        let decision = analyze(input, l, &target, no_unroll_ok, multi_tex_ok);
        match decision {
            Err(why) => {
                report.summary = format!("not pipelined: {why}");
                // Remarks for single-block loops only (the only ones ptxas
                // pipelines); every loop gets its report.
                if l.is_single_block() && !why.starts_with("nounroll") {
                    out.remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Missed,
                        name: "pipelining",
                        origin: report.header,
                        message: report.summary.clone(),
                    });
                }
            }
            Ok(s) => {
                candidates += 1;
                report.facts.extend([
                    ("body instructions", s.body.to_string()),
                    ("ResMII", s.res_mii.to_string()),
                    ("RecMII", s.rec_mii.to_string()),
                    ("MII", s.res_mii.max(s.rec_mii).to_string()),
                    ("II", s.ii.to_string()),
                    ("stages", s.stages.to_string()),
                    ("iteration length", s.length.to_string()),
                ]);
                let pays = s.stages > 1 && s.ii < s.length;
                if pays {
                    worth += 1;
                }
                report.summary = if pays {
                    format!(
                        "pipelinable: II {} (MII {}), {} stages; not rewritten at the PTX level (ptxas pipelines it)",
                        s.ii,
                        s.res_mii.max(s.rec_mii),
                        s.stages
                    )
                } else {
                    format!(
                        "not worth pipelining: II {} covers the iteration ({} cycles, {} stage)",
                        s.ii, s.length, s.stages
                    )
                };
                out.remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Missed,
                    name: "pipelining",
                    origin: report.header,
                    message: report.summary.clone(),
                });
            }
        }
        out.loops.push(report);
    }
    out.stats = vec![
        Stat {
            name: "loops pipelinable",
            value: candidates,
        },
        Stat {
            name: "loops worth pipelining",
            value: worth,
        },
    ];
    out
}

pub use super::modulo::Schedule;

fn analyze(
    func: &Function,
    l: &ptx_analysis::Loop,
    target: &ptx_analysis::Target,
    no_unroll_ok: bool,
    multi_tex_ok: bool,
) -> Result<Schedule, String> {
    if !l.is_single_block() {
        return Err(format!(
            "{} blocks (single-block loops only)",
            l.blocks.len()
        ));
    }
    let block = &func.blocks[l.header];
    if !no_unroll_ok && block.pragmas.iter().any(|p| p.contains("nounroll")) {
        return Err("nounroll pragma (OkToPipelineNoUnroll=0)".into());
    }
    let insts: Vec<InstId> = block.insts.clone();
    let Some((&branch, body)) = insts.split_last() else {
        return Err("empty body".into());
    };
    if func.insts[branch].opcode.info.family != FamilyId::Bra {
        return Err("the block does not end with its back edge".into());
    }
    for &i in body {
        let inst = &func.insts[i];
        if let Some(why) = super::modulo::control_or_barrier(inst) {
            return Err(why);
        }
        let is_tex = matches!(inst.opcode.info.family, FamilyId::Tex | FamilyId::Tld4);
        if is_tex && !multi_tex_ok && defs_and_uses(inst).defs.len() > 1 {
            return Err("multi-output texture instruction (PipelineMultiOutputTex=0)".into());
        }
    }
    Ok(schedule(func, &insts, target))
}

/// Phase 24's iterative modulo scheduling of a single-block body (the
/// branch included); shared with the cicc pipeliner in [`super::modulo`].
pub fn schedule(func: &Function, body: &[InstId], target: &ptx_analysis::Target) -> Schedule {
    super::modulo::iterative_schedule(func, body, target)
}
