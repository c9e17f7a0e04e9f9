//! cicc `machine-cp` (MachineCopyPropagation): a copy whose source was
//! computed just for it is folded into the computation.
//!
//! **What it computes.** LLVM's MachineCopyPropagation has a forward mode
//! (uses of a copy's destination read its source; ptxopt's OriCopyProp does
//! that in every GeneralOptimize bundle) and a backward mode
//! (`BackwardCopyPropagateBlock`): in
//!
//! ```text
//! add.f32 %f2, %f1, %f10;
//! ...
//! mov.f32 %f11, %f2;
//! ```
//!
//! the `add` writes `%f11` itself and the copy goes. This phase is the
//! backward mode, which is what removes the copies PHI elimination leaves at
//! the end of a loop body (the loop-carried `mov %f11, %f2`,
//! `mov %r17, %r3` of every `-O0` loop): cicc's register coalescer does
//! the same before allocation.
//!
//! Conditions (PTX registers are not SSA, so they are checked over the whole
//! function): the copy `mov.T %d, %s` is unguarded, between plain registers
//! of the same declared type (not `.reg` parameters); `%s` has exactly one
//! definition, before the copy in its block or in a straight-line chain of
//! blocks ending there (each the only predecessor of the next, which is its
//! only successor: `-O0` code puts a loop's last computation and the
//! loop-carried copy in blocks of their own), unguarded, writing `%s` alone;
//! the copy is `%s`'s only reader; and between that definition and the copy
//! nothing reads or writes `%d`. Then every reader of `%d` sees the same
//! values as before: those before the definition the old `%d`, those after
//! the copy the copied value, and none in between.
//!
//! **Seeds.** Seed 002, "Pipeline Flow" (MachineCopyPropagation pre- and
//! post-RA) and the pass inventory ("Propagates copies to reduce move
//! instructions. Can be disabled via disable-copyprop").
//!
//! **Knobs.** `disable-copyprop` (default false) switches the phase off.
//!
//! **Adapted to PTX.** LLVM runs the backward mode on physical registers
//! after allocation, where "renamable" and "killed" flags say that `%s` dies
//! at the copy; here the whole-function reader and writer counts say it.

use std::sync::Arc;

use ptx_analysis::cfg;
use ptx_ir::ir::def_use::{visit_defs_and_uses, writes_first_operand, Access};
use ptx_ir::ir::{Function, InstId, Operand, RegId};
use ptx_isa::FamilyId;

use super::known::{is_param, plain_reg, remove_keeping_locs, Accesses};
use crate::context::PassContext;
use crate::knobs;
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// The most blocks of a straight-line chain searched for a copy's source
/// definition.
const MAX_CHAIN: usize = 8;

/// Runs backward copy propagation on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if ctx.bool(knobs::disable_copyprop) {
        return PhaseOutput::unchanged(input);
    }
    let mut access = Accesses::clone(&super::version_cache::accesses(input));
    let mut f: Option<Function> = None;
    let mut remarks = Vec::new();
    let g0 = cfg::cfg(input);
    for &b in &input.layout {
        if !input.blocks[b]
            .insts
            .iter()
            .any(|&m| copy(input, m).is_some())
        {
            continue;
        }
        // The straight-line chain ending at `b` (each block the only
        // predecessor of the next, which is its only successor), as one
        // instruction list: what cicc sees as one block once SimplifyCFG
        // has merged the blocks `-O0` code leaves apart.
        let mut chain = vec![b];
        while chain.len() < MAX_CHAIN {
            let &[p] = g0.preds(chain[chain.len() - 1]) else {
                break;
            };
            if g0.succs(p) != [chain[chain.len() - 1]] || chain.contains(&p) {
                break;
            }
            chain.push(p);
        }
        let mut insts: Vec<InstId> = Vec::new();
        for &c in chain.iter().rev() {
            insts.extend(input.blocks[c].insts.iter().copied());
        }
        let start = insts.len() - input.blocks[b].insts.len();
        for (pos, &m) in insts.iter().enumerate().skip(start) {
            let cur = f.as_ref().unwrap_or(input);
            let Some((d, s)) = copy(cur, m) else {
                continue;
            };
            if access.readers(s) != [m] {
                continue;
            }
            let &[def] = access.writers(s) else {
                continue;
            };
            let Some(def_pos) = insts[..pos].iter().position(|&i| i == def) else {
                continue;
            };
            let dinst = &cur.insts[def];
            if dinst.guard.is_some()
                || !writes_first_operand(dinst)
                || dinst.operands.first().and_then(plain_reg) != Some(s)
                || dinst.opcode.info.family == FamilyId::Call
            {
                continue;
            }
            let mut defs = 0;
            visit_defs_and_uses(dinst, |a, _| defs += usize::from(a == Access::Def));
            if defs != 1 {
                continue;
            }
            let touches_d = insts[def_pos + 1..pos].iter().any(|&i| {
                let mut hit = false;
                visit_defs_and_uses(&cur.insts[i], |_, r| hit |= r == d);
                hit
            });
            if touches_d {
                continue;
            }
            let g = f.get_or_insert_with(|| (**input).clone());
            g.insts[def].operands[0] = Operand::Reg {
                reg: d,
                component: None,
            };
            remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: "copy",
                origin: origin(g, m),
                message: format!(
                    "`{}` writes {} itself; the copy from {} is removed",
                    g.insts[def].opcode.text(),
                    g.regs[d].name,
                    g.regs[s].name
                ),
            });
            remove_keeping_locs(g, b, m);
            access.retarget(def, s, d, m);
        }
    }
    let Some(f) = f else {
        return PhaseOutput::unchanged(input);
    };
    let n = remarks.len() as u64;
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "copies folded into their source's definition",
            value: n,
        }],
    }
}

/// `mov.T %d, %s`: unguarded, plain registers of one declared type, no
/// vectors, neither a `.reg` parameter.
fn copy(f: &Function, m: InstId) -> Option<(RegId, RegId)> {
    let inst = &f.insts[m];
    if inst.opcode.info.family != FamilyId::Mov || inst.guard.is_some() || inst.operands.len() != 2
    {
        return None;
    }
    let d = plain_reg(&inst.operands[0])?;
    let s = plain_reg(&inst.operands[1])?;
    let (rd, rs) = (&f.regs[d], &f.regs[s]);
    (d != s
        && rd.ty == rs.ty
        && rd.vector.is_none()
        && rs.vector.is_none()
        && !is_param(f, d)
        && !is_param(f, s))
    .then_some((d, s))
}
