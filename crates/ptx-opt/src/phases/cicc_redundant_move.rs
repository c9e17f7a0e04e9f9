//! cicc `redundant-move-elim`: register-to-register moves that change
//! nothing are removed.
//!
//! Seed `002_164789385e2e817e.txt`, "Post-ISel" pass table
//! (`redundant-move-elim`, sub_2204E60: "Removes redundant
//! register-to-register moves left by instruction selection"). No knob.
//!
//! Removed:
//!
//! - `mov %a, %a` (guarded or not);
//! - `mov %a, %b` when an earlier `mov %b, %a` of the same block (same
//!   declared types, both plain registers) precedes it with no write of
//!   `%a` or `%b` between, and neither move is guarded: `%a` already holds
//!   `%b`'s value.
//!
//! Moves that are merely unused are dead code (the live/dead phases), and
//! moves whose uses can read the source are copy propagation's.

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, InstId, RegId};
use ptx_isa::FamilyId;

use super::known::{plain_reg, remove_keeping_locs};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

fn copy(f: &Function, i: InstId) -> Option<(RegId, RegId)> {
    let inst = &f.insts[i];
    if inst.opcode.info.family != FamilyId::Mov || inst.operands.len() != 2 {
        return None;
    }
    let d = plain_reg(&inst.operands[0])?;
    let s = plain_reg(&inst.operands[1])?;
    (f.regs[d].ty == f.regs[s].ty && f.regs[d].vector.is_none()).then_some((d, s))
}

/// Runs redundant-move elimination on one function.
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let mut dead: Vec<(ptx_ir::ir::BlockId, InstId, String)> = Vec::new();
    for &b in &input.layout {
        // The unguarded copies seen since the last write of either side.
        let mut live: Vec<(RegId, RegId)> = Vec::new();
        for &i in &input.blocks[b].insts {
            if let Some((d, s)) = copy(input, i) {
                if d == s {
                    dead.push((
                        b,
                        i,
                        format!(
                            "`mov {0}, {0}` copies a register to itself",
                            input.regs[d].name
                        ),
                    ));
                    continue;
                }
                if input.insts[i].guard.is_none() && live.contains(&(s, d)) {
                    dead.push((
                        b,
                        i,
                        format!(
                            "{} already holds {} (copied the other way before)",
                            input.regs[d].name, input.regs[s].name
                        ),
                    ));
                    continue;
                }
            }
            let mut written: Vec<RegId> = Vec::new();
            visit_defs_and_uses(&input.insts[i], |a, r| {
                if a == Access::Def {
                    written.push(r)
                }
            });
            live.retain(|(x, y)| !written.contains(x) && !written.contains(y));
            if let Some((d, s)) = copy(input, i) {
                if input.insts[i].guard.is_none() {
                    live.push((d, s));
                }
            }
        }
    }
    if dead.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for (b, i, why) in &dead {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "move",
            origin: origin(&f, *i),
            message: format!("removed `{}`: {why}", f.insts[*i].opcode.text()),
        });
        remove_keeping_locs(&mut f, *b, *i);
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "moves removed",
            value: dead.len() as u64,
        }],
    }
}
