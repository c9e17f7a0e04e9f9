//! OriCopyProp: forward copy propagation, the sub-pass of every
//! GeneralOptimize bundle (phases 13 GeneralOptimizeEarly, 29
//! GeneralOptimize, 37, 46 GeneralOptimizeMid2, 58 GeneralOptimizeLate, 65
//! GeneralOptimizeLate2).
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Forward Copy Propagation --
//! OriCopyProp": three candidates (a register copy, a predicated copy
//! propagated only under a matching guard, a conditional select whose
//! condition is provably constant), one linear scan per invocation (the
//! fixpoint comes from running it in six bundles), and the dead copies left
//! for DCE.
//!
//! # The phase table and `--named-phases OriCopyProp`
//!
//! The seed says OriCopyProp is a sub-pass that `--named-phases` can name
//! on its own. Here each GeneralOptimize entry of the table carries the
//! alias `OriCopyProp`, so `--named-phases OriCopyProp` switches on the six
//! bundles (and nothing else), and the command line (and the filetest
//! header) also sets `GeneralOptimizeSubPasses=OriCopyProp`, with which the
//! bundles run this sub-pass alone (no constant folding).
//!
//! Knobs (registry `pass` "OriCopyProp (GeneralOptimize 13/…/65)"):
//! `CopyPropBudget` (copies examined per invocation; 0, the default, is
//! unlimited) and `CopyPropGlobalBudget` (uses replaced across blocks; 0 is
//! unlimited). `CopyPropAddr` (on) runs the address folding of the bundle
//! (`general_optimize::address_fold`). The other CopyProp knobs describe
//! SASS operand forms
//! (constant banks, MMA operands, fixed registers) that PTX does not have,
//! and are not read.
//!
//! # What it does
//!
//! 1. `selp.T %d, a, b, %p` whose `%p` is known (`known::known_pred`) becomes
//!    `mov.T %d, a` (or `b`): a copy for the next step (or a constant for
//!    folding).
//! 2. For every copy `mov.T %d, %s` (both plain registers of the same
//!    declared type and no vector), each use of `%d` is replaced by `%s`
//!    where `%d` and `%s` certainly hold the copy's values there:
//!    - **local**: the use follows the copy in its block with no write to
//!      `%d` or `%s` (guarded writes included) between;
//!    - **global**: the copy is `%d`'s only definition and dominates the
//!      use, and `%s` cannot change between them: it is a `.reg` parameter
//!      never written, or its only definition dominates the copy
//!      (`known::Facts::unchanged_between`), or no write of `%s` lies on a path
//!      from the copy to the use that does not run the copy again (a
//!      reachability search over blocks, `Facts::no_write_on_paths`, at
//!      most `MAX_PATH_CHECKS` per run): the join-point copies of `-O0`
//!      code (`mov %r4, %r17` after an if/else that wrote `%r17` on both
//!      sides) and its loop-header copies (`mov %r2, %r14` where the latch
//!      writes `%r14`: every path from the latch back to a use passes the
//!      copy).
//!
//!    A predicated copy `@%p mov %d, %s` is propagated only locally, into
//!    uses under the same guard `@%p`, with no write to `%p` between.
//!
//! The copy itself stays; when no use is left, DCE (phase 16, and the
//! later live/dead phases) removes it.
//!
//! Missed remarks (which uses kept the copy's destination, and why) come
//! from the first bundle, phase 13, only: the later bundles would repeat
//! them word for word.
//!
//! # Where it does not fire
//!
//! A use after a redefinition of `%s` or `%d`, a use of a guarded copy's
//! destination under another guard (or none), a loop-carried value (the use
//! at the loop top is not dominated by the copy in the body), copies of
//! special registers (`%tid.x`, and `%clock` whose every read differs),
//! immediates (constant folding's job), vector registers and registers with
//! components, copies between registers of different sizes, and uses where
//! the source's declared type is not accepted: PTX instructions check each
//! register operand's type against the instruction type (ptxas rejects e.g.
//! a `.f32` register where `add.s32` wants an integer). A copy between
//! registers of one size and different types (the bit casts of `-O0` code,
//! `mov.b32 %r1, %f1`) is propagated into the uses that accept the source
//! (`accepts_type`: a `.bN` source anywhere, signed and unsigned integers
//! into each other and into integer instructions, any type into the data
//! operand of `mov.bN`, `st.bN`, `shfl.bN` and the choices of `selp.bN`),
//! and kept as the conversion point it is for the others. Missed remarks
//! say which uses stayed and why.
//!
//! # Adapted from Ori/SASS to PTX
//!
//! Ori marks copies with flag bits and resolves MOV chains through
//! def-chain links; here the IR is rewritten at once, and a chain `mov %b,
//! %a; mov %c, %b` resolves in one scan because the second copy already
//! reads `%a` when it is reached. The seed's SM-dependent eligibility (on
//! sm_75 and later, operands with constraint bits `0x1C00` are not
//! propagated) concerns SASS operand encodings; PTX registers carry no such
//! constraint, so every target is treated alike.

use std::borrow::Cow;
use std::sync::Arc;

use ptx_ir::ir::def_use::Access;
use ptx_ir::ir::{Function, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::FamilyId;

use super::known::{is_param, known_pred, plain_reg, Facts, Reach};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// The most path searches (`Facts::no_write_on_paths`) per invocation, which
/// keeps the phase near-linear on huge functions.
const MAX_PATH_CHECKS: u32 = 2000;

/// Runs forward copy propagation on one function (phase `id`, one of the
/// GeneralOptimize bundles).
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let budget = ctx.int(knobs::CopyPropBudget).max(0) as u64;
    let global_budget = ctx.int(knobs::CopyPropGlobalBudget).max(0) as u64;
    // Copied at the first change (most bundles change nothing).
    let mut f: Cow<'_, Function> = Cow::Borrowed(&**input);
    let mut remarks = Vec::new();
    // The same copies are missed in every bundle: only the first says so
    // (the others do not even word it).
    let say_missed = id == PhaseId::GeneralOptimizeEarly;
    let mut remark = |kind, name, at, message| {
        remarks.push(Remark {
            phase: id,
            kind,
            name,
            origin: at,
            message,
        })
    };

    // Step 1: selects with a known condition become copies.
    let facts = super::version_cache::facts(input);
    let mut selects = 0u64;
    let placed: Vec<InstId> = f.insts_in_order().map(|(i, _)| i).collect();
    for &i in &placed {
        let inst = &f.insts[i];
        let info = &inst.opcode.info;
        if info.family != FamilyId::Selp || inst.operands.len() != 4 {
            continue;
        }
        let (p, negated) = match &inst.operands[3] {
            Operand::NegPred(p) => (*p, true),
            op => match plain_reg(op) {
                Some(p) => (p, false),
                None => continue,
            },
        };
        let Some(value) = known_pred(&f, &facts, p, i, 0).map(|v| v != negated) else {
            continue;
        };
        let Some(ty) = info.ty() else { continue };
        let chosen = if value { 1 } else { 2 };
        let text = inst.opcode.text();
        let pname = f.regs[p].name.clone();
        let inst = &mut f.to_mut().insts[i];
        let picked = inst.operands[chosen].clone();
        let dst = inst.operands[0].clone();
        inst.opcode = Opcode::new("mov", vec![ty.name().to_string()]);
        inst.operands = vec![dst, picked];
        selects += 1;
        remark(
            RemarkKind::Applied,
            "select",
            origin(&f, i),
            format!(
                "`{text}` has a constant condition ({}{pname} is {value}): now `mov.{}`",
                if negated { "!" } else { "" },
                ty.name().trim_start_matches('.')
            ),
        );
    }
    // Selects became copies: their destinations' definitions are the same
    // instructions, so the facts stay valid (only opcodes changed).

    // Step 2: copies.
    let mut examined = 0u64;
    let mut replaced_local = 0u64;
    let mut replaced_global = 0u64;
    let mut copies_done = 0u64;
    let mut uses_kept = 0u64;
    let mut budget_hit = false;
    let mut reach = Reach::new(&facts);
    let mut path_checks = 0u32;
    for &m in &placed {
        let Some((dst, src)) = copy_regs(&f, m) else {
            continue;
        };
        if budget > 0 && examined >= budget {
            budget_hit = true;
            break;
        }
        examined += 1;
        let (dname, sname) = (f.regs[dst].name.clone(), f.regs[src].name.clone());
        let (dty, sty) = (f.regs[dst].ty.clone(), f.regs[src].ty.clone());
        let readers = facts.readers(dst).to_vec();
        let reads = readers
            .iter()
            .filter(|&&u| u != m && reads_reg(&f.insts[u], dst))
            .count();
        if reads == 0 {
            continue;
        }
        let same_size = ptx_isa::type_bits(&dty).is_some()
            && ptx_isa::type_bits(&dty) == ptx_isa::type_bits(&sty)
            && &*dty != ".pred"
            && &*sty != ".pred";
        if (dty != sty && !same_size)
            || f.regs[dst].vector.is_some()
            || f.regs[src].vector.is_some()
        {
            uses_kept += reads as u64;
            if say_missed {
                remark(
                    RemarkKind::Missed,
                    "copy",
                    origin(&f, m),
                    format!(
                        "copy {dname} <- {sname} not propagated: types differ ({dty} vs {sty}), {reads} uses keep {dname}"
                    ),
                );
            }
            continue;
        }
        if is_param(&f, dst) {
            continue;
        }
        let guard = f.insts[m].guard;
        let global_ok = guard.is_none() && facts.single_writer(dst) == Some(m);
        let mut done = 0usize;
        let mut why: Option<String> = None;
        for &u in &readers {
            if u == m || !reads_reg(&f.insts[u], dst) {
                continue;
            }
            if !accepts_type(&f.insts[u], dst, &dty, &sty) {
                uses_kept += 1;
                if !say_missed {
                    continue;
                }
                why.get_or_insert_with(|| {
                    format!(
                        "types differ ({dty} vs {sty}) and `{}` checks its operand's type",
                        f.insts[u].opcode.text()
                    )
                });
                continue;
            }
            let local = local_ok(&f, &facts, m, u, dst, src);
            let guard_ok = match guard {
                None => true,
                Some(g) => {
                    f.insts[u].guard == Some(g) && !reads_outside_guard_reg(&f.insts[u], dst, g.reg)
                }
            };
            let ok_local = local && guard_ok;
            let ok_global = !ok_local
                && global_ok
                && facts.dominates(m, u)
                && (facts.unchanged_between(&f, src, m, u)
                    || (path_checks < MAX_PATH_CHECKS && {
                        path_checks += 1;
                        facts.no_write_on_paths(&mut reach, src, m, u)
                    }))
                && (global_budget == 0 || replaced_global < global_budget);
            if ok_local || ok_global {
                replace_uses(&mut f.to_mut().insts[u], dst, src);
                done += 1;
                if ok_local {
                    replaced_local += 1;
                } else {
                    replaced_global += 1;
                }
            } else {
                uses_kept += 1;
                if !say_missed {
                    continue;
                }
                why.get_or_insert_with(|| {
                    let user = f.insts[u].opcode.text();
                    if guard.is_some() && local && !guard_ok {
                        format!("`{user}` is not under the copy's guard")
                    } else if guard.is_some() {
                        format!("a guarded copy propagates only within its block (`{user}`)")
                    } else if !global_ok {
                        format!(
                            "{dname} has {} definitions and `{user}` is not in the copy's block before a redefinition",
                            facts.writers(dst).len()
                        )
                    } else if !facts.dominates(m, u) {
                        format!("the copy does not dominate `{user}` (a loop-carried or merged value)")
                    } else if global_budget > 0 && replaced_global >= global_budget {
                        format!("CopyPropGlobalBudget={global_budget} reached")
                    } else {
                        format!(
                            "{sname} may be redefined between the copy and `{user}` ({} definitions)",
                            facts.writers(src).len()
                        )
                    }
                });
            }
        }
        if done > 0 {
            copies_done += 1;
            remark(
                RemarkKind::Applied,
                "copy",
                origin(&f, m),
                format!("propagated {sname} into {done} of {reads} uses of {dname}"),
            );
        }
        if let Some(why) = why {
            remark(
                RemarkKind::Missed,
                "copy",
                origin(&f, m),
                format!(
                    "copy {dname} <- {sname}: {} of {reads} uses keep {dname}: {why}",
                    reads - done
                ),
            );
        }
    }
    if budget_hit {
        remark(
            RemarkKind::Missed,
            "budget",
            None,
            format!("CopyPropBudget={budget} copies examined; the rest are left"),
        );
    }
    if id != PhaseId::GeneralOptimizeEarly {
        // The same copies are missed in every bundle: only the first says so.
        remarks.retain(|r| r.kind == RemarkKind::Applied);
    }
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    let changed = selects + replaced_local + replaced_global > 0;
    if !changed {
        // Counters only from a bundle that changed something: six bundles of
        // zeros per kernel would drown `--stats`.
        return PhaseOutput {
            function: input.clone(),
            loops: Vec::new(),
            remarks,
            stats: Vec::new(),
        };
    }
    PhaseOutput {
        function: Arc::new(f.into_owned()),
        loops: Vec::new(),
        remarks,
        stats: vec![
            Stat {
                name: "copies examined",
                value: examined,
            },
            Stat {
                name: "copies propagated",
                value: copies_done,
            },
            Stat {
                name: "uses replaced in the copy's block",
                value: replaced_local,
            },
            Stat {
                name: "uses replaced across blocks",
                value: replaced_global,
            },
            Stat {
                name: "uses kept",
                value: uses_kept,
            },
            Stat {
                name: "selects with a constant condition",
                value: selects,
            },
        ],
    }
}

/// `mov.T %d, %s` between plain registers: `(d, s)`.
fn copy_regs(f: &Function, m: InstId) -> Option<(RegId, RegId)> {
    let inst = f.has_inst(m).then(|| &f.insts[m])?;
    if inst.opcode.info.family != FamilyId::Mov || inst.operands.len() != 2 {
        return None;
    }
    let d = plain_reg(&inst.operands[0])?;
    let s = plain_reg(&inst.operands[1])?;
    (d != s).then_some((d, s))
}

fn reads_reg(inst: &Inst, r: RegId) -> bool {
    let mut found = false;
    ptx_ir::ir::def_use::visit_defs_and_uses(inst, |a, reg| {
        if a == Access::Use && reg == r {
            found = true
        }
    });
    found
}

fn writes_reg(inst: &Inst, r: RegId) -> bool {
    let mut found = false;
    ptx_ir::ir::def_use::visit_defs_and_uses(inst, |a, reg| {
        if a == Access::Def && reg == r {
            found = true
        }
    });
    found
}

/// Whether the guard register `g` of a guarded copy is also what `inst`
/// reads as `dst` (a copy of a predicate guarding its own use).
fn reads_outside_guard_reg(_inst: &Inst, dst: RegId, g: RegId) -> bool {
    dst == g
}

/// `u` follows copy `m` in its block, and nothing between them writes
/// `dst`, `src` or the copy's guard.
fn local_ok(f: &Function, facts: &Facts, m: InstId, u: InstId, dst: RegId, src: RegId) -> bool {
    let (Some(bm), Some(bu), Some(im), Some(iu)) = (
        facts.block_of(m),
        facts.block_of(u),
        facts.index_of(m),
        facts.index_of(u),
    ) else {
        return false;
    };
    if bm != bu || im >= iu {
        return false;
    }
    let guard = f.insts[m].guard.map(|g| g.reg);
    f.blocks[bm].insts[(im as usize + 1)..(iu as usize)]
        .iter()
        .all(|&i| {
            let inst = &f.insts[i];
            !writes_reg(inst, dst)
                && !writes_reg(inst, src)
                && guard.is_none_or(|g| !writes_reg(inst, g))
        })
}

/// Replaces every read of `dst` in `inst` by `src` (writes untouched).
fn replace_uses(inst: &mut Inst, dst: RegId, src: RegId) {
    inst.map_regs(|access, r| {
        if access == Access::Use && r == dst {
            src
        } else {
            r
        }
    });
}

/// Whether every read of `dst` (declared `dty`) in `inst` may read a
/// register declared `sty` of the same size instead, by PTX's operand type
/// rules: a bit-size register (`.b32`) is accepted wherever a register of
/// its size is; signed and unsigned integers of one size are
/// interchangeable, and accepted by every integer instruction of the size;
/// any other register of the size is accepted only where
/// the instruction moves bits without reading them as a type: the source of
/// `mov.bN`, the value of `st.bN`, the value shuffled by `shfl.bN`, the two
/// choices of `selp.bN`. So the bit casts of `-O0` code (`mov.b32 %r1, %f1`
/// before a `shfl.sync.b32`) fold away where that is legal.
fn accepts_type(inst: &Inst, dst: RegId, dty: &str, sty: &str) -> bool {
    if dty == sty {
        return true;
    }
    let is_bit = |t: &str| matches!(t, ".b8" | ".b16" | ".b32" | ".b64" | ".b128");
    let is_int = |t: &str| {
        is_bit(t)
            || matches!(
                t,
                ".u8" | ".u16" | ".u32" | ".u64" | ".s8" | ".s16" | ".s32" | ".s64"
            )
    };
    let signed_or_unsigned = |t: &str| is_int(t) && !is_bit(t);
    if is_bit(sty) || (signed_or_unsigned(dty) && signed_or_unsigned(sty)) {
        return true;
    }
    let info = &inst.opcode.info;
    if info.types.is_empty() {
        return false;
    }
    if signed_or_unsigned(sty) && info.types.iter().all(|t| is_int(t.name())) {
        // A `.bN` register read by an integer instruction: any integer
        // register of the size is accepted there.
        return true;
    }
    if !info.types.iter().all(|t| is_bit(t.name())) {
        return false;
    }
    if inst.guard.is_some_and(|g| g.reg == dst) {
        return false;
    }
    let data: &[usize] = match info.family {
        FamilyId::Mov | FamilyId::St | FamilyId::Shfl | FamilyId::ShflSync => &[1],
        FamilyId::Selp => &[1, 2],
        _ => return false,
    };
    inst.operands.iter().enumerate().all(|(k, op)| {
        let mut mentions = false;
        op.for_each_reg(&mut |r| mentions |= r == dst);
        if !mentions {
            return true;
        }
        if !data.contains(&k) {
            return false;
        }
        match op {
            Operand::Reg {
                component: None, ..
            } => true,
            Operand::Vector(items) if info.family == FamilyId::St => items.iter().all(|i| {
                matches!(
                    i,
                    Operand::Reg {
                        component: None,
                        ..
                    }
                )
            }),
            _ => false,
        }
    })
}
