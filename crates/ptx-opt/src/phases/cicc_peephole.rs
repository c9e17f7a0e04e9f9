//! cicc `nvptx-peephole` (NVPTXPeephole) and `nvptx-proxy-reg-erasure`
//! (NVPTXProxyRegErasure): address-space conversions that are not needed.
//!
//! Seed `002_164789385e2e817e.txt`, "NVPTXPeephole (sub_21DB090)" patterns
//! 1 (redundant cvta) and 3 (address-space conversion simplification), and
//! "NVPTXProxyRegErasure (sub_21DA810)" (a `cvta.to.local` of an address
//! already known to be local is replaced by its source). Knob:
//! `enable-nvvm-peephole` (NVPTXPeephole only; default true).
//!
//! # What it rewrites
//!
//! With `cvta.<space>.u64 %g, X` the one (unguarded) definition of `%g`
//! (`<space>` one of `.global`, `.shared`, `.local`, `.const`; `X` a
//! variable or a register whose one definition dominates the `cvta`, so it
//! holds the same value wherever `%g` is read under the `cvta`):
//!
//! 1. a generic `ld`/`st` `[%g+off]` dominated by the `cvta` addresses
//!    `<space>` directly: `ld.<space> [X+off]` (a generic address made by
//!    `cvta.<space>` lies in that space's window, at `X` plus the window
//!    base, so the access is the same; stores are not rewritten to
//!    `.const`, which has none);
//! 2. `cvta.to.<space>.u64 %s, %g` (the same space) becomes `mov.u64 %s, X`.
//!
//! 3. when an address is made from `%g` by `add`/`sub` (cicc `-O0`'s
//!    `add.s64 %rd20, %rd6, %rd19` into a shared array; rules 1 and 2 see
//!    a reader that is not an access and leave everything generic): when
//!    every register made from `%g` by `add`/`sub` has one definition and
//!    each reader of `%g` and of those registers is a generic access through
//!    it, another such `add`/`sub`, or a `cvta.to` of the same space, the
//!    `cvta` becomes `mov %g, X` (each register made from it then holds the
//!    space's address of what it held the generic address of, the same
//!    arithmetic on the window), each access addresses `<space>`, each
//!    `cvta.to` becomes a `mov`. LLVM's InferAddressSpaces does this in
//!    cicc before the machine passes; on PTX the peephole is where a `cvta`
//!    is looked at. ptxas keeps a generic access generic (`LD.E` where
//!    `ld.shared` gives `LDS`).
//!
//! Rules 1 and 2 apply only when every reader of `%g` is such an access or such a
//! `cvta.to` (the seed: "cvta instructions whose result is used only by
//! instructions with matching address space qualifiers"), so the `cvta` is
//! dead afterwards (dead-code elimination removes it) and no register stays
//! live beside `X`: on dealii, rewriting the accesses of a generic address
//! that was also passed on cost ptxas two more registers in three kernels.
//! NVPTXProxyRegErasure is rule 2 for `.local` alone.
//!
//! Rule 1 leaves `.local` alone: cicc writes stack accesses as generic
//! `[%SP+n]` (with `%SP` the `cvta.local` of the depot), and ptxas gave
//! three dealii kernels two more registers each when those became
//! `st.local [%SPL+n]` through the 64-bit depot address; promotable stack
//! slots are `nvptx-mem2reg`'s.
//!
//! Only accesses whose modifiers are a vector width and a type are
//! rewritten (`ld.volatile`, `.relaxed`/`.acquire` with scopes, cache
//! operators stay generic: their generic and space-specific forms differ in
//! what the ISA allows).
//!
//! Pattern 2 of the seed (a `setp` consumed by one `@p bra` folded into a
//! compare-and-branch) has no PTX form: PTX branches only on a predicate,
//! so there is nothing to fold; `not.pred` into `@!p` is phase 15's work.

use std::sync::Arc;

use ptx_ir::ir::{Address, AddressBase, Function, InstId, Opcode, Operand, RegId};
use ptx_isa::{FamilyId, Space};

use super::known::{plain_reg, Facts};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// What `%g` holds: `cvta.<space>` of a variable or of a stable register.
#[derive(Clone, Debug)]
enum Source {
    Sym(String, i64),
    Reg(RegId),
}

/// Runs NVPTXPeephole (`local_only` false) or NVPTXProxyRegErasure (true).
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let local_only = id == PhaseId::CiccProxyRegErasure;
    if !local_only && !ctx.bool(knobs::enable_nvvm_peephole) {
        return PhaseOutput::unchanged(input);
    }
    // Every rewrite starts from a `cvta` (a generic access's address made
    // by one, a `cvta.to` undoing one): without one there is nothing to do.
    let has_cvta = input.insts_in_order().any(|(_, inst)| {
        inst.opcode.info.family == FamilyId::Cvta
            && (!local_only
                || (inst.opcode.has_modifier(".to")
                    && inst.opcode.info.space == Some(Space::Local)))
    });
    if !has_cvta {
        return PhaseOutput::unchanged(input);
    }
    let facts = super::version_cache::facts(input);
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    let mut accesses = 0u64;
    let mut casts = 0u64;
    let placed: Vec<InstId> = f.insts_in_order().map(|(i, _)| i).collect();
    for i in placed {
        // Decisions read the input (the facts describe it); edits go to `f`.
        let inst = &input.insts[i];
        let info = &inst.opcode.info;
        match info.family {
            FamilyId::Ld | FamilyId::St if !local_only => {
                let Some((slot, g, space, src)) = generic_access(input, &facts, i) else {
                    continue;
                };
                if !all_readers_rewritable(input, &facts, g, local_only) {
                    continue;
                }
                let Some(Operand::Address(Address { offset, .. })) =
                    inst.operands.get(slot).cloned()
                else {
                    continue;
                };
                let text = inst.opcode.text();
                let (base, offset) = match &src {
                    Source::Sym(s, o) => (AddressBase::Symbol(s.clone()), offset + o),
                    Source::Reg(r) => (AddressBase::Reg(*r), offset),
                };
                let inst = &mut f.insts[i];
                address_space(inst, space);
                inst.operands[slot] = Operand::Address(Address { base, offset });
                accesses += 1;
                remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "address-space",
                    origin: origin(&f, i),
                    message: format!(
                        "generic `{text}` through `cvta.{}` now `{}`",
                        space.name(),
                        f.insts[i].opcode.text()
                    ),
                });
            }
            FamilyId::Cvta if inst.opcode.has_modifier(".to") => {
                let Some(space) = info.space else { continue };
                if local_only && space != Space::Local {
                    continue;
                }
                if inst.guard.is_some() || inst.operands.len() != 2 {
                    continue;
                }
                let (Some(d), Some(g)) =
                    (plain_reg(&inst.operands[0]), plain_reg(&inst.operands[1]))
                else {
                    continue;
                };
                let Some((from, src)) = cvta_source(input, &facts, g, i) else {
                    continue;
                };
                if from != space || !all_readers_rewritable(input, &facts, g, local_only) {
                    continue;
                }
                let Some(ty) = info.ty() else { continue };
                let text = inst.opcode.text();
                let src_op = match &src {
                    Source::Sym(s, o) => Operand::Symbol {
                        name: s.clone(),
                        offset: *o,
                    },
                    Source::Reg(r) => Operand::Reg {
                        reg: *r,
                        component: None,
                    },
                };
                let inst = &mut f.insts[i];
                inst.opcode = Opcode::new("mov", vec![ty.name().to_string()]);
                inst.operands = vec![
                    Operand::Reg {
                        reg: d,
                        component: None,
                    },
                    src_op,
                ];
                casts += 1;
                remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "cvta",
                    origin: origin(&f, i),
                    message: format!(
                        "`{text}` undoes a `cvta.{}`: now a copy of its source",
                        space.name()
                    ),
                });
            }
            _ => {}
        }
    }
    // Rule 3: addresses made from a cvta by pointer arithmetic.
    let mut derived = 0u64;
    for (w, inst) in input.insts_in_order() {
        if local_only {
            break;
        }
        let Some(plan) = derived_plan(input, &facts, w, inst) else {
            continue;
        };
        let space = inst.opcode.info.space.expect("a cvta with a space");
        let text = super::general_optimize::const_fold::inst_text(input, inst);
        let def = &mut f.insts[w];
        let ty = def.opcode.info.ty().map_or("u64", |t| t.name()).to_string();
        def.opcode = Opcode::new("mov", vec![ty]);
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "address-space",
            origin: origin(&f, w),
            message: format!(
                "`{text}` is now a `mov`: the {} addresses made from it by `add`/`sub` are read only by {} generic accesses, which now address `.{}`",
                plan.adds,
                plan.accesses.len(),
                space.name()
            ),
        });
        for &a in &plan.accesses {
            address_space(&mut f.insts[a], space);
        }
        for &c in &plan.casts {
            let inst = &mut f.insts[c];
            let ty = inst
                .opcode
                .info
                .ty()
                .map_or("u64", |t| t.name())
                .to_string();
            inst.opcode = Opcode::new("mov", vec![ty]);
        }
        accesses += plan.accesses.len() as u64;
        casts += plan.casts.len() as u64;
        derived += 1;
    }
    if accesses + casts == 0 {
        let mut out = PhaseOutput::unchanged(input);
        out.remarks = remarks;
        return out;
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![
            Stat {
                name: "generic accesses given their space",
                value: accesses,
            },
            Stat {
                name: "cvta.to pairs removed",
                value: casts,
            },
            Stat {
                name: "cvtas kept as space addresses",
                value: derived,
            },
        ],
    }
}

/// When `%g`'s one definition is `cvta.<space> %g, X` dominating `at`, with
/// `X` a variable or a register unchanged from the `cvta` to `at`: the space
/// and `X`.
fn cvta_source(f: &Function, facts: &Facts, g: RegId, at: InstId) -> Option<(Space, Source)> {
    let w = facts.single_writer(g)?;
    let def = &f.insts[w];
    let info = &def.opcode.info;
    if info.family != FamilyId::Cvta
        || def.opcode.has_modifier(".to")
        || def.guard.is_some()
        || def.operands.len() != 2
        || !facts.dominates(w, at)
    {
        return None;
    }
    let space = info.space?;
    if !matches!(
        space,
        Space::Global | Space::Shared | Space::Local | Space::Const
    ) {
        return None;
    }
    if plain_reg(&def.operands[0])? != g {
        return None;
    }
    let src = match &def.operands[1] {
        Operand::Symbol { name, offset } => Source::Sym(name.clone(), *offset),
        op => {
            let x = plain_reg(op)?;
            if f.regs[x].vector.is_some() {
                return None;
            }
            // One definition dominating the cvta (or a parameter never
            // written): `x` is the same at `at`.
            if !facts.unchanged_between(f, x, w, at) {
                return None;
            }
            Source::Reg(x)
        }
    };
    Some((space, src))
}

/// Makes a generic access address `space` (`ld.f32` -> `ld.shared.f32`).
fn address_space(inst: &mut ptx_ir::ir::Inst, space: Space) {
    let mut mods = vec![format!(".{}", space.name())];
    mods.extend(inst.opcode.modifiers.iter().cloned());
    inst.opcode = Opcode::new(&inst.opcode.name.clone(), mods);
}

/// A generic `ld`/`st` with only a vector width and a type for modifiers,
/// through a register: the address operand's slot and the register.
fn simple_generic(inst: &ptx_ir::ir::Inst) -> Option<(usize, RegId)> {
    let info = &inst.opcode.info;
    if !matches!(info.family, FamilyId::Ld | FamilyId::St) || info.space.is_some() {
        return None;
    }
    let only_simple =
        inst.opcode.modifiers.iter().all(|m| {
            matches!(m.as_str(), ".v2" | ".v4" | ".v8") || ptx_isa::Ty::parse(m).is_some()
        });
    if !only_simple {
        return None;
    }
    let slot = if info.family == FamilyId::St { 0 } else { 1 };
    match inst.operands.get(slot) {
        Some(Operand::Address(Address {
            base: AddressBase::Reg(g),
            ..
        })) => Some((slot, *g)),
        _ => None,
    }
}

/// A [`simple_generic`] access through a register `%g` made by
/// `cvta.<space>` (see [`cvta_source`]): the address operand's slot, `%g`,
/// the space and the source.
fn generic_access(f: &Function, facts: &Facts, i: InstId) -> Option<(usize, RegId, Space, Source)> {
    let inst = &f.insts[i];
    let (slot, g) = simple_generic(inst)?;
    let (space, src) = cvta_source(f, facts, g, i)?;
    // Stores to `.const` do not exist; stack accesses through `cvta.local`
    // stay generic (see the module documentation).
    let store = inst.opcode.info.family == FamilyId::St;
    if (store && space == Space::Const) || space == Space::Local {
        return None;
    }
    Some((slot, g, space, src))
}

/// How many times `inst` reads `r`.
fn uses_of(inst: &ptx_ir::ir::Inst, r: RegId) -> usize {
    let mut n = 0;
    ptx_ir::ir::def_use::visit_defs_and_uses(inst, |a, x| {
        n += usize::from(a == ptx_ir::ir::def_use::Access::Use && x == r)
    });
    n
}

/// The seed's condition ("a cvta whose result is used only by instructions
/// with matching address space qualifiers"): every reader of `%g` is a
/// generic access through it or a `cvta.to` of the same space, reading it
/// once, so the `cvta` dies with the rewrite. Otherwise both the generic
/// address and its source would stay live (ptxas gave two more registers to
/// dealii kernels whose generic address was also passed on).
fn all_readers_rewritable(f: &Function, facts: &Facts, g: RegId, local_only: bool) -> bool {
    facts.readers(g).iter().all(|&r| {
        let inst = &f.insts[r];
        if uses_of(inst, g) != 1 {
            return false;
        }
        if !local_only && generic_access(f, facts, r).is_some_and(|(_, x, _, _)| x == g) {
            return true;
        }
        let info = &inst.opcode.info;
        info.family == FamilyId::Cvta
            && inst.opcode.has_modifier(".to")
            && inst.guard.is_none()
            && inst.operands.get(1).and_then(plain_reg) == Some(g)
            && cvta_source(f, facts, g, r).is_some_and(|(sp, _)| Some(sp) == info.space)
            && (!local_only || info.space == Some(Space::Local))
    })
}

/// What rule 3 rewrites for one `cvta`: the generic accesses through the
/// addresses made from it, the `cvta.to`s of those addresses, and how many
/// additions made them.
struct DerivedPlan {
    accesses: Vec<InstId>,
    casts: Vec<InstId>,
    adds: usize,
}

/// The most registers rule 3 follows from one `cvta`.
const MAX_DERIVED: usize = 64;

/// Rule 3, for `cvta.<space> %g, X` at `w` (not `.local`, unguarded, the
/// one definition of `%g`) whose rule-1 form does not apply because an
/// address is made from `%g` by `add`/`sub` (`-O0`'s `%rd20 = %rd6 +
/// 4*i` into a shared array): when every register made from `%g` that way
/// has one definition and every reader of each is a generic access through
/// it (read once, as the base), another such `add`/`sub`, or a `cvta.to` of
/// the same space, the `cvta` can become `mov %g, X` (`%g` then holds the
/// space's address, and so does each register made from it) and each
/// access and `cvta.to` addresses the space: the accesses' plan.
fn derived_plan(
    f: &Function,
    facts: &Facts,
    w: InstId,
    inst: &ptx_ir::ir::Inst,
) -> Option<DerivedPlan> {
    let info = &inst.opcode.info;
    if info.family != FamilyId::Cvta
        || inst.opcode.has_modifier(".to")
        || inst.guard.is_some()
        || inst.operands.len() != 2
    {
        return None;
    }
    let space = info.space?;
    if !matches!(space, Space::Global | Space::Shared | Space::Const) {
        return None;
    }
    let g = plain_reg(&inst.operands[0])?;
    if facts.single_writer(g) != Some(w) || all_readers_rewritable(f, facts, g, false) {
        return None;
    }
    let mut plan = DerivedPlan {
        accesses: Vec::new(),
        casts: Vec::new(),
        adds: 0,
    };
    let mut members = vec![g];
    let mut next = 0;
    while let Some(&d) = members.get(next) {
        next += 1;
        for &r in facts.readers(d) {
            let reader = &f.insts[r];
            if uses_of(reader, d) != 1 {
                return None;
            }
            let rinfo = &reader.opcode.info;
            match rinfo.family {
                FamilyId::Ld | FamilyId::St => {
                    let store = rinfo.family == FamilyId::St;
                    let through = simple_generic(reader).is_some_and(|(_, b)| b == d);
                    if !through || (store && space == Space::Const) {
                        return None;
                    }
                    plan.accesses.push(r);
                }
                FamilyId::Add | FamilyId::Sub => {
                    let first = reader.operands.get(1).and_then(plain_reg) == Some(d);
                    if reader.guard.is_some()
                        || (rinfo.family == FamilyId::Sub && !first)
                        || rinfo.ty().map(|t| t.bits()) != info.ty().map(|t| t.bits())
                    {
                        return None;
                    }
                    let dest = reader.operands.first().and_then(plain_reg)?;
                    if facts.single_writer(dest) != Some(r)
                        || members.contains(&dest)
                        || members.len() >= MAX_DERIVED
                    {
                        return None;
                    }
                    members.push(dest);
                    plan.adds += 1;
                }
                FamilyId::Cvta
                    if reader.opcode.has_modifier(".to")
                        && rinfo.space == Some(space)
                        && reader.guard.is_none()
                        && reader.operands.get(1).and_then(plain_reg) == Some(d) =>
                {
                    plan.casts.push(r);
                }
                _ => return None,
            }
        }
    }
    (plan.adds > 0).then_some(plan)
}
