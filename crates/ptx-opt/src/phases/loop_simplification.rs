//! Phase 18, OriLoopSimplification: loop canonicalization. Every natural
//! loop gets a dedicated preheader, and a top-tested (`while`) loop is
//! inverted into a guard and a bottom-tested loop.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Phase 18 -- OriLoopSimplification"
//! (`LoopSimplification`: back-edge canonicalization, then, under
//! `LoopMakeSingleEntry`, single-entry enforcement and preheader insertion
//! per loop header in RPO order) and its knob table (`LoopInversion`,
//! enabled by default, and `LoopInversionBudget`).
//!
//! # Knobs
//!
//! - `LoopMakeSingleEntry` (OCG knob 487): master enable of preheader
//!   insertion ("when disabled, only back-edge canonicalization runs").
//! - `LoopInversion` (default on) and `LoopInversionBudget` (0 = unset: 16
//!   header instructions, a choice of this implementation; the seed gives no
//!   value): loop inversion, below.
//! - The peeling knobs (`LoopPeelInversion`, `EnableSingleThreadPeelingLoops`,
//!   `GenPeelingLoopsForSyncs`, `AssertIfPeelingLoopForTexSurf`) are not
//!   read: the seed peels only at `-O4`/`-O5` ("at the default -O2, peeling
//!   is suppressed"), and ptxopt models the default level.
//!
//! # Preheaders (single entry)
//!
//! A natural loop has one entry block, its header, by construction
//! (`ptx_analysis::loops`); irreducible regions (a cycle entered at several
//! blocks) are reported and left alone (splitting nodes would copy code).
//! When the header has several predecessors outside the loop, or its only
//! outside predecessor has other successors, a new empty block is placed
//! right before the header and every outside edge is redirected to it
//! (`loop_common::ensure_preheader`, through the mutation API). A header
//! entered through `brx.idx` keeps its edges (the target list is shared).
//!
//! # Loop inversion (the back-edge shape)
//!
//! The seed's table describes `LoopInversion` as "do-while to while
//! conversion"; the transform known by that name (GCC, LLVM's loop rotation)
//! goes the other way, and it is the one that makes the canonical shape the
//! seed's later phases expect (the unroller's back edge is a conditional
//! branch in the latch, seed phase 22 step C): a loop whose header only
//! tests and leaves,
//!
//! ```text
//! H:  setp ...; @!p bra E        // header: the exit test
//! B:  ...body...
//! L:  ...; bra H                 // latch: unconditional back edge
//! ```
//!
//! becomes
//!
//! ```text
//! P:  ...; setp ...; @!p bra E   // guard: the test once, in the preheader
//! B:  ...body...
//! L:  ...; setp ...; @p bra B    // bottom test: one branch per iteration fewer
//! E:
//! ```
//!
//! The header's instructions are copied (same registers: PTX is not SSA, and
//! each copy runs exactly when the header would have run, once on entry and
//! once per back edge, so every register holds what it held). Conditions:
//! the header ends with a conditional `bra` to one block inside and one
//! outside the loop; it is not its own latch, nor does its test fall into a
//! latch that only jumps back (both already bottom-tested); every
//! latch ends with an unconditional `bra` to it; its other instructions have
//! no side effect and are not convergent, at most `LoopInversionBudget` of
//! them. Its pragmas (`nounroll`) move to the new header, the body's first
//! block. PTX adaptation: this is what gives LICM (phases 35/66/79/88) a
//! body that runs on every entry, so that loads can be hoisted under the
//! guard without running in a loop that runs zero times.
//!
//! **The latch's branch.** Where a site must branch on the opposite of the
//! header's test (the latch, which falls into the exit), ptxas keeps the
//! branch as written, negation included, and compares the other way:
//! `setp.lt; @!p bra E` at the header gives `setp.ge; @!p bra B` at the
//! latch (`setp.lt` -> `setp.ge`; floats take the unordered complement,
//! `lt` -> `geu`, so a NaN still leaves). This matters to phase 22, whose
//! induction-variable analysis does not follow a negated predicate: ptxas
//! 13.0.88 unrolls the `setp.ge; @p bra E` form of a `while` loop and
//! leaves the `setp.lt; @!p bra E` form of the same loop rolled (both
//! checked with `ptxas` and `cuobjdump -sass`; `-Xcicc -O0` PTX has the
//! second form, through `not.pred`, which phase 15 folds into `@!p`). The
//! `setp` is complemented only when it is plain (one result, no `.and`/
//! `.or`/`.xor`) and its predicate is read by the header's branch alone;
//! otherwise the guard is negated. The cicc unroller's rotation
//! ([`rotate`]) makes the latch read its predicate as written wherever it
//! can, as LLVM's `LoopRotate` does.
//!
//! # Not done
//!
//! Several back edges stay several (merging them into one latch block would
//! add a branch per iteration on every path; inversion copies the test into
//! each latch instead). Exit blocks are not made dedicated: no phase here
//! needs them (LICM checks liveness on each exit edge).

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, InstId, Opcode, Operand};
use ptx_isa::FamilyId;

use super::loop_common::{
    block_name, complement_setp, continue_to, ends_with_jump_to, ensure_preheader, LoopInfo,
};
use crate::remark::{LoopReport, PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// Why the single-block test does not apply (the region inversion may).
const NOT_LEAVING: &str = "the header's test does not leave the loop";

/// The inversion budget when `LoopInversionBudget` is 0 (unset).
pub const DEFAULT_INVERSION_BUDGET: i64 = 16;

/// Runs phase 18 on one function.
pub fn run(ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let id = PhaseId::OriLoopSimplification;
    let first = super::version_cache::loop_info(input);
    if first.forest.loops.is_empty() && first.forest.irreducible.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let single_entry = ctx.bool(knobs::LoopMakeSingleEntry);
    let inversion = ctx.bool(knobs::LoopInversion);
    let budget = match ctx.int(knobs::LoopInversionBudget) {
        0 => DEFAULT_INVERSION_BUDGET,
        b => b,
    };
    let mut out = PhaseOutput::unchanged(input);
    for region in &first.forest.irreducible {
        let entry = region.entries.first().copied();
        let at = entry.and_then(|b| input.blocks[b].insts.first().and_then(|&i| input.origin(i)));
        out.remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "irreducible",
            origin: at,
            message: format!(
                "a cycle entered at {} blocks is not a natural loop: left as it is",
                region.entries.len()
            ),
        });
    }
    let headers: Vec<BlockId> = first.forest.loops.iter().map(|l| l.header).collect();
    let mut func: Option<Function> = None;
    let mut info = Some(first);
    let (mut preheaders, mut inverted) = (0u64, 0u64);
    for header in headers {
        let current = func.as_ref().unwrap_or(input);
        let li = info.get_or_insert_with(|| std::rc::Rc::new(LoopInfo::new(current)));
        let Some(lid) = li.forest.loop_with_header(header) else {
            continue;
        };
        let l = li.forest.get(lid).clone();
        let mut report = LoopReport {
            facts: vec![("back edges", l.latches.len().to_string())],
            ..super::loop_common::loop_report(id, current, header)
        };
        let mut done: Vec<&str> = Vec::new();
        // Preheader.
        let mut preheader = l.preheader.filter(|_| l.preheader_dedicated);
        if single_entry {
            if preheader.is_none() {
                let f = func.get_or_insert_with(|| (**input).clone());
                match ensure_preheader(f, li, header, &l.blocks) {
                    Some((p, created)) => {
                        preheader = Some(p);
                        if created {
                            preheaders += 1;
                            done.push("preheader inserted");
                            report.facts.push(("preheader", "inserted".into()));
                            out.remarks.push(Remark {
                                phase: id,
                                kind: RemarkKind::Applied,
                                name: "preheader",
                                origin: report.header,
                                message: format!(
                                    "inserted a preheader before the loop header {}",
                                    block_name(f, header)
                                ),
                            });
                            info = None;
                        }
                    }
                    None => {
                        report
                            .facts
                            .push(("preheader", "none: entered through brx.idx".into()));
                    }
                }
            } else {
                report.facts.push(("preheader", "existing".into()));
            }
        } else {
            report
                .facts
                .push(("preheader", "not made (LoopMakeSingleEntry off)".into()));
        }
        // Inversion.
        if inversion {
            let current = func.as_ref().unwrap_or(input);
            let li = info.get_or_insert_with(|| std::rc::Rc::new(LoopInfo::new(current)));
            let shape = li
                .forest
                .loop_with_header(header)
                .ok_or_else(|| "the loop changed".to_string())
                .and_then(|lid| invertible(current, li, lid, preheader, budget));
            match shape {
                Ok(shape) => {
                    let f = func.get_or_insert_with(|| (**input).clone());
                    let n = shape.copies.len();
                    invert(f, &shape, Latch::KeepNegation);
                    info = None;
                    inverted += 1;
                    done.push("inverted into a guarded bottom-tested loop");
                    report.facts.push((
                        "inversion",
                        format!("done ({n} header instructions copied)"),
                    ));
                    out.remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Applied,
                        name: "loop-inversion",
                        origin: report.header,
                        message: format!(
                            "inverted the loop at {}: the exit test now runs once before the loop and at the end of each iteration ({n} header instructions copied to the guard and {} latch(es))",
                            block_name(f, header),
                            shape.latches.len()
                        ),
                    });
                }
                Err(why) if why.starts_with(NOT_LEAVING) => {
                    // The test spans several blocks (`a && b`): invert the
                    // whole test region.
                    let lid = li.forest.loop_with_header(header);
                    match lid
                        .ok_or_else(|| "the loop changed".to_string())
                        .and_then(|lid| region_invertible(current, li, lid, preheader, budget))
                    {
                        Ok(r) => {
                            let f = func.get_or_insert_with(|| (**input).clone());
                            let (nb, ni) = (r.region.len(), r.copies);
                            invert_region(f, &r);
                            info = None;
                            inverted += 1;
                            done.push("inverted into a guarded bottom-tested loop");
                            report.facts.push((
                                "inversion",
                                format!(
                                    "done (test region of {nb} blocks, {ni} instructions copied)"
                                ),
                            ));
                            out.remarks.push(Remark {
                                phase: id,
                                kind: RemarkKind::Applied,
                                name: "loop-inversion",
                                origin: report.header,
                                message: format!(
                                    "inverted the loop at {}: its exit test ({nb} blocks, {ni} instructions) now runs once before the loop and at the end of each iteration",
                                    block_name(f, header)
                                ),
                            });
                        }
                        Err(why) => {
                            report.facts.push(("inversion", format!("not done: {why}")));
                            out.remarks.push(Remark {
                                phase: id,
                                kind: RemarkKind::Missed,
                                name: "loop-inversion",
                                origin: report.header,
                                message: format!("loop not inverted: {why}"),
                            });
                        }
                    }
                }
                Err(why) => {
                    report.facts.push(("inversion", format!("not done: {why}")));
                    out.remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Missed,
                        name: "loop-inversion",
                        origin: report.header,
                        message: format!("loop not inverted: {why}"),
                    });
                }
            }
            report.facts.push(("inversion budget", budget.to_string()));
        }
        report.summary = if done.is_empty() {
            "already canonical".into()
        } else {
            done.join("; ")
        };
        out.loops.push(report);
    }
    if let Some(f) = func {
        out.function = Arc::new(f);
    }
    out.stats = vec![
        Stat {
            name: "preheaders inserted",
            value: preheaders,
        },
        Stat {
            name: "loops inverted",
            value: inverted,
        },
    ];
    out
}

/// Gives the loop at `header` a dedicated preheader and inverts it into a
/// bottom-tested loop (the single-block test, else the test region), as
/// [`run`] does for one loop with the default knobs; for the cicc unroller,
/// whose input LLVM has rotated (`LoopRotate`) and `-O0` PTX has not.
/// Returns the loop's header afterwards (the body's first block when
/// inverted, `header` when the loop was bottom-tested already); `Err` with
/// why otherwise (`func` may then have gained a preheader only).
pub(crate) fn rotate(func: &mut Function, header: BlockId, budget: i64) -> Result<BlockId, String> {
    let li = LoopInfo::new(func);
    let lid = li
        .forest
        .loop_with_header(header)
        .ok_or("no loop at this header")?;
    let l = li.forest.get(lid).clone();
    // Bottom-tested already: the (one) latch ends with a conditional branch.
    let bottom_tested = |b: BlockId| {
        func.blocks[b].insts.last().is_some_and(|&i| {
            let inst = &func.insts[i];
            inst.opcode.info.family == FamilyId::Bra && inst.guard.is_some()
        })
    };
    if l.latches.contains(&header) || matches!(l.latches.as_slice(), [t] if bottom_tested(*t)) {
        return Ok(header);
    }
    let (p, created) = ensure_preheader(func, &li, header, &l.blocks)
        .ok_or("the header is entered through brx.idx")?;
    let li = if created { LoopInfo::new(func) } else { li };
    let lid = li
        .forest
        .loop_with_header(header)
        .ok_or("the loop changed")?;
    match invertible(func, &li, lid, Some(p), budget) {
        Ok(shape) => {
            let body = shape.body;
            invert(func, &shape, Latch::Positive);
            Ok(body)
        }
        Err(why) if why.starts_with(NOT_LEAVING) => {
            let r = region_invertible(func, &li, lid, Some(p), budget)?;
            let body = r.body;
            invert_region(func, &r);
            Ok(body)
        }
        Err(why) => Err(why),
    }
}

/// A loop that can be inverted.
struct Shape {
    header: BlockId,
    preheader: BlockId,
    latches: Vec<BlockId>,
    /// The header's instructions before its branch.
    copies: Vec<InstId>,
    /// The header's conditional branch.
    branch: InstId,
    /// Where the branch goes when taken, and where the header falls through.
    taken: BlockId,
    fallthrough: BlockId,
    /// The first block of the body (the new header).
    body: BlockId,
    /// The header's `setp` whose predicate only the branch reads, and the
    /// comparison that is its complement: where a site must branch on the
    /// opposite condition, its copy of the `setp` compares the other way
    /// and the branch keeps its guard as written (see [`complement`]).
    complement: Option<(InstId, Opcode)>,
}

fn invertible(
    func: &Function,
    li: &LoopInfo,
    lid: ptx_analysis::LoopId,
    preheader: Option<BlockId>,
    budget: i64,
) -> Result<Shape, String> {
    let l = li.forest.get(lid);
    let h = l.header;
    let Some(p) = preheader else {
        return Err("no dedicated preheader".into());
    };
    if l.latches.contains(&h) {
        return Err("already bottom-tested (the header is a latch)".into());
    }
    let insts = &func.blocks[h].insts;
    let Some((&branch, copies)) = insts.split_last() else {
        return Err("the header is empty".into());
    };
    let b = &func.insts[branch];
    if b.opcode.info.family != FamilyId::Bra || b.guard.is_none() {
        return Err("the header does not end with a conditional branch".into());
    }
    let taken = b.operands.iter().find_map(|op| match op {
        Operand::Label(t) => Some(*t),
        _ => None,
    });
    let (Some(taken), Some(fallthrough)) = (taken, func.next_in_layout(h)) else {
        return Err("the header's branch has no target or fall-through".into());
    };
    let (inside, outside) = (l.contains(taken), l.contains(fallthrough));
    let body = match (inside, outside) {
        (true, false) => taken,
        (false, true) => fallthrough,
        _ => return Err(NOT_LEAVING.into()),
    };
    if body == h || taken == fallthrough {
        return Err(NOT_LEAVING.into());
    }
    if l.latches.contains(&body) && func.blocks[body].insts.len() == 1 {
        // `H: ...; @p bra E` then `L: bra H`: the test already ends the
        // iteration. Inverting would only peel one iteration into the
        // preheader and leave the same shape (the emitted `@p bra E; bra H`
        // reads back as a header and a jump-only latch), once per build.
        return Err(
            "already bottom-tested (the header's test ends the iteration; the latch only jumps back)"
                .into(),
        );
    }
    if copies.len() as i64 > budget {
        return Err(format!(
            "the header has {} instructions besides its branch, over LoopInversionBudget={budget}",
            copies.len()
        ));
    }
    for &i in copies {
        let inst = &func.insts[i];
        let f = inst.opcode.info.flags;
        if f.has_side_effects() || f.is_convergent() || f.is_call() || inst.is_terminator() {
            return Err(format!(
                "the header holds `{}` (side effects or convergent: not copied)",
                inst.opcode.text()
            ));
        }
    }
    for &t in &l.latches {
        if !ends_with_jump_to(func, t, h) || li.cfg.succs(t) != [h] {
            return Err(format!(
                "the latch {} does not end with an unconditional branch to the header",
                block_name(func, t)
            ));
        }
    }
    let preds = li.cfg.preds(h);
    if preds.len() != l.latches.len() + 1 || !preds.contains(&p) {
        return Err("the header has other predecessors".into());
    }
    let p_last = func.blocks[p].insts.last().map(|&i| &func.insts[i]);
    if p_last.is_some_and(|i| i.is_terminator() && !ends_with_jump_to(func, p, h)) {
        return Err("the preheader does not end with a plain jump".into());
    }
    if !ends_with_jump_to(func, p, h) && func.next_in_layout(p) != Some(h) {
        return Err("the preheader does not reach the header".into());
    }
    Ok(Shape {
        header: h,
        preheader: p,
        latches: l.latches.clone(),
        copies: copies.to_vec(),
        branch,
        taken,
        fallthrough,
        body,
        complement: complement(func, copies, branch),
    })
}

/// The `setp` of `copies` that computes the predicate `branch` reads, and
/// its complementary comparison, when the copy at a site can compare the
/// other way instead of the branch testing `@!p`: a plain one-result
/// `setp` (no `.and`/`.or`/`.xor`, no guard), the only instruction of the
/// function writing that predicate, and `branch` the only one reading it
/// (so a site's copy changes nothing else). `None` otherwise: the site's
/// branch then negates its guard.
///
/// This is what ptxas does: its inverted loop keeps the exit branch's
/// negate bit and compares the other way. It matters to phase 22, whose
/// induction-variable analysis (seed step M) does not follow a negated
/// latch predicate: `setp.ge; @p bra EXIT` at the header of a `while` loop
/// is unrolled by ptxas 13.0.88, `setp.lt; @!p bra EXIT` is not.
fn complement(func: &Function, copies: &[InstId], branch: InstId) -> Option<(InstId, Opcode)> {
    let guard = func.insts[branch].guard?;
    let p = guard.reg;
    let &def = copies.iter().rev().find(|&&i| {
        let mut writes = false;
        visit_defs_and_uses(&func.insts[i], |a, r| writes |= a == Access::Def && r == p);
        writes
    })?;
    let setp = &func.insts[def];
    let info = &setp.opcode.info;
    if info.family != FamilyId::Setp
        || info.bool_op.is_some()
        || setp.guard.is_some()
        || setp.operands.len() != 3
    {
        return None;
    }
    let complemented = complement_setp(setp.opcode)?;
    for (i, inst) in func.insts_in_order() {
        // Written only by `def`, read only by `branch`.
        let mut other = false;
        visit_defs_and_uses(inst, |a, r| {
            if r == p {
                other |= match a {
                    Access::Def => i != def,
                    Access::Use => i != branch,
                };
            }
        });
        if other || (i != branch && inst.guard.is_some_and(|g| g.reg == p)) {
            return None;
        }
    }
    Some((def, complemented))
}

/// How an inverted loop's latch branches on the opposite of the header's
/// exit test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Latch {
    /// ptxas (phase 18): the branch keeps the exit branch's guard, negated
    /// or not, and the `setp` compares the other way; the guard is negated
    /// instead only where the `setp` cannot be complemented.
    KeepNegation,
    /// LLVM's `LoopRotate` as cicc emits it: a latch on a predicate read as
    /// written (`@p bra`) wherever the `setp` allows it.
    Positive,
}

fn invert(f: &mut Function, s: &Shape, latch: Latch) {
    // The header leaves the layout; its pragmas go to the new header.
    move_pragmas(f, s.header, s.body);
    f.layout.retain(|&b| b != s.header);
    let sites: Vec<BlockId> = std::iter::once(s.preheader)
        .chain(s.latches.iter().copied())
        .collect();
    for site in sites {
        if ends_with_jump_to(f, site, s.header) {
            if let Some(&last) = f.blocks[site].insts.last() {
                f.remove_inst(last);
            }
        }
        let mut setp_copy = None;
        for &i in &s.copies {
            if let Some(c) = f.clone_inst(i) {
                f.insert_at_end(site, c);
                if s.complement.is_some_and(|(d, _)| d == i) {
                    setp_copy = Some(c);
                }
            }
        }
        let Some(br) = f.clone_inst(s.branch) else {
            continue;
        };
        let next = f.next_in_layout(site);
        if next == Some(s.taken) {
            // Fall into the taken side: branch on the opposite condition,
            // by comparing the other way where the `setp` allows it and the
            // style asks for it, else by negating the guard.
            let negated = f.insts[br].guard.is_some_and(|g| g.negated);
            let compare_other_way = latch == Latch::KeepNegation || !negated;
            match (setp_copy, s.complement) {
                (Some(c), Some((_, complemented))) if compare_other_way => {
                    f.insts[c].opcode = complemented
                }
                _ => {
                    if let Some(g) = &mut f.insts[br].guard {
                        g.negated = !g.negated;
                    }
                }
            }
            let inst = &mut f.insts[br];
            let (taken, fall) = (s.taken, s.fallthrough);
            inst.map_labels(|l| if l == taken { fall } else { l });
            f.insert_at_end(site, br);
        } else {
            f.insert_at_end(site, br);
            continue_to(f, site, s.fallthrough);
        }
    }
}

/// A loop whose exit test spans several blocks from the header.
struct RegionShape {
    header: BlockId,
    preheader: BlockId,
    latches: Vec<BlockId>,
    /// The test region, the header first, then layout order.
    region: Vec<BlockId>,
    /// The first block of the body (the new header).
    body: BlockId,
    /// Instructions copied per site (terminators excluded).
    copies: usize,
}

/// The test region of the loop: the blocks the body's first block `c`
/// does not dominate, for the first `c` on the dominator path from the
/// header to the latch such that the region's edges go only to itself, to
/// `c`, and to one block outside the loop; acyclic, entered only at the
/// header, free of side effects and at most `budget` instructions.
fn region_invertible(
    func: &Function,
    li: &LoopInfo,
    lid: ptx_analysis::LoopId,
    preheader: Option<BlockId>,
    budget: i64,
) -> Result<RegionShape, String> {
    let l = li.forest.get(lid);
    let h = l.header;
    let Some(p) = preheader else {
        return Err("no dedicated preheader".into());
    };
    for &t in &l.latches {
        if t == h || !ends_with_jump_to(func, t, h) || li.cfg.succs(t) != [h] {
            return Err(format!(
                "the latch {} does not end with an unconditional branch to the header",
                block_name(func, t)
            ));
        }
    }
    let preds = li.cfg.preds(h);
    if preds.len() != l.latches.len() + 1 || !preds.contains(&p) {
        return Err("the header has other predecessors".into());
    }
    if func.blocks[p]
        .insts
        .last()
        .is_some_and(|&i| func.insts[i].is_terminator() && !ends_with_jump_to(func, p, h))
    {
        return Err("the preheader does not end with a plain jump".into());
    }
    // The dominator path from the first latch up to the header.
    let mut path = Vec::new();
    let mut b = *l.latches.first().ok_or("no latch")?;
    while b != h {
        path.push(b);
        b = li
            .dom
            .idom(b)
            .ok_or("the latch is not dominated by the header")?;
    }
    path.reverse();
    for &c in &path {
        if l.latches.contains(&c) || li.forest.loop_with_header(c).is_some() {
            break;
        }
        let region: Vec<BlockId> = l
            .blocks
            .iter()
            .copied()
            .filter(|&x| !li.dom.dominates(c, x))
            .collect();
        let mut outside: Vec<BlockId> = Vec::new();
        let mut ok = true;
        for &x in &region {
            if li.forest.innermost(x) != Some(lid) || l.latches.contains(&x) {
                ok = false;
                break;
            }
            for &y in li.cfg.succs(x) {
                if y == h {
                    ok = false;
                } else if !l.contains(y) {
                    if !outside.contains(&y) {
                        outside.push(y);
                    }
                } else if y != c && !region.contains(&y) {
                    ok = false;
                }
            }
            if x != h && li.cfg.preds(x).iter().any(|q| !region.contains(q)) {
                ok = false;
            }
        }
        if !ok || outside.len() != 1 {
            continue;
        }
        // Instructions: no side effects, plain branches.
        let mut copies = 0usize;
        for &x in &region {
            for &i in &func.blocks[x].insts {
                let inst = &func.insts[i];
                let f = inst.opcode.info.flags;
                if inst.is_terminator() {
                    if inst.opcode.info.family != FamilyId::Bra {
                        return Err(format!(
                            "the test region ends with `{}`",
                            inst.opcode.text()
                        ));
                    }
                    continue;
                }
                if f.has_side_effects() || f.is_convergent() || f.is_call() {
                    return Err(format!(
                        "the test region holds `{}` (side effects or convergent: not copied)",
                        inst.opcode.text()
                    ));
                }
                copies += 1;
            }
        }
        if copies as i64 > budget {
            return Err(format!(
                "the test region has {copies} instructions, over LoopInversionBudget={budget}"
            ));
        }
        let mut region_sorted: Vec<BlockId> = vec![h];
        region_sorted.extend(
            func.layout
                .iter()
                .copied()
                .filter(|&x| x != h && region.contains(&x)),
        );
        return Ok(RegionShape {
            header: h,
            preheader: p,
            latches: l.latches.clone(),
            region: region_sorted,
            body: c,
            copies,
        });
    }
    Err(NOT_LEAVING.to_string() + " (no single-exit test region found)")
}

fn invert_region(f: &mut Function, s: &RegionShape) {
    // Facts of the original layout, before anything moves.
    let next: Vec<Option<BlockId>> = s
        .region
        .iter()
        .map(|&b| {
            if f.falls_through(b) {
                f.next_in_layout(b)
            } else {
                None
            }
        })
        .collect();
    move_pragmas(f, s.header, s.body);
    f.layout.retain(|b| !s.region.contains(b));
    let sites: Vec<BlockId> = std::iter::once(s.preheader)
        .chain(s.latches.iter().copied())
        .collect();
    for site in sites {
        if ends_with_jump_to(f, site, s.header) {
            if let Some(&last) = f.blocks[site].insts.last() {
                f.remove_inst(last);
            }
        }
        // Copies placed right after the site, the header's first.
        let mut map: Vec<(BlockId, BlockId)> = Vec::new();
        let mut after = site;
        for &b in &s.region {
            let nb = super::loop_common::place_block(f, Some(after), Vec::new());
            map.push((b, nb));
            after = nb;
        }
        let lookup = |map: &[(BlockId, BlockId)], b: BlockId| {
            map.iter().find(|(o, _)| *o == b).map_or(b, |&(_, n)| n)
        };
        for &(b, nb) in &map {
            let insts = f.blocks[b].insts.clone();
            for i in insts {
                if let Some(c) = f.clone_inst(i) {
                    let m = map.clone();
                    f.insts[c].map_labels(|l| lookup(&m, l));
                    f.insert_at_end(nb, c);
                }
            }
        }
        for (k, &(_, nb)) in map.iter().enumerate() {
            let Some(n) = next[k] else { continue };
            let fall = lookup(&map, n);
            // `@p bra T` falling to F, with T next in the layout: branch
            // on the opposite condition to F and fall into T.
            let last = f.blocks[nb].insts.last().copied();
            let flipped = last.is_some_and(|l| {
                let inst = &f.insts[l];
                let taken = inst.operands.iter().find_map(|op| match op {
                    Operand::Label(t) => Some(*t),
                    _ => None,
                });
                inst.guard.is_some()
                    && inst.opcode.info.family == FamilyId::Bra
                    && taken.is_some()
                    && taken == f.next_in_layout(nb)
                    && taken != Some(fall)
            });
            if let (true, Some(l)) = (flipped, last) {
                let taken = f.next_in_layout(nb);
                let inst = &mut f.insts[l];
                if let Some(g) = &mut inst.guard {
                    g.negated = !g.negated;
                }
                inst.map_labels(|x| if Some(x) == taken { fall } else { x });
            } else {
                continue_to(f, nb, fall);
            }
        }
    }
}

/// The pragmas of `from` (a header leaving the layout) go to `to` (the new
/// header), ahead of `to`'s own, each once; so does their
/// [`Block::pragma_alone`](ptx_ir::ir::Block::pragma_alone) mark.
fn move_pragmas(f: &mut Function, from: BlockId, to: BlockId) {
    let pragmas = std::mem::take(&mut f.blocks[from].pragmas);
    if pragmas.is_empty() {
        return;
    }
    let alone = std::mem::take(&mut f.blocks[from].pragma_alone);
    f.blocks[to].pragma_alone |= alone;
    let body = &mut f.blocks[to].pragmas;
    let mut merged = pragmas;
    for p in body.drain(..) {
        if !merged.contains(&p) {
            merged.push(p);
        }
    }
    *body = merged;
}
