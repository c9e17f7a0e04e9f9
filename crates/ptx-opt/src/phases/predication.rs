//! Phase 63, OriDoPredication: if-conversion. A short conditional branch
//! around one or two short blocks becomes predicated instructions, and the
//! two guarded copies of a diamond that write one register become `selp`.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 63: OriDoPredication" ("converts
//! branches to predicated instructions; previously mutually-exclusive code
//! becomes linear") and the placement it gives: after OriLoopFusion (59,
//! seed `000_ed667d9feced6e07.txt`, "fusion gives predication a larger basic
//! block"), right before LateOriCommoning (64, which commons what the
//! linearized paths now share), GeneralOptimizeLate2 (65, copy propagation
//! and dead code over the guarded copies) and OriHoistInvariantsLate (66:
//! "if the condition is loop-invariant, the entire predicated instruction
//! becomes invariant"). The seeds give the purpose and the placement, not
//! the algorithm nor its budget; this module writes both, as below.
//!
//! Knobs: none (the seeds name no knob for phase 63).
//!
//! # What it does
//!
//! Repeated (at most [`MAX_ROUNDS`] rounds, inner shapes first) over the
//! layout, for a block `A` ending with a guarded `@g bra T` (`bra` or
//! `bra.uni`):
//!
//! - **Triangle.** The block `S` after `A` in the layout is entered only
//!   from `A` (by falling through) and continues to `T` (falling through or
//!   by an unguarded `bra T`): `S`'s instructions get the guard `!g` (they
//!   ran exactly when the branch was not taken), the branch goes and `A`
//!   takes them. `if (x < 0) x = -x;` is one `@p neg`.
//! - **Diamond.** `S` ends with an unguarded `bra J`, the block `T` after it
//!   in the layout is entered only by `A`'s branch, and `T` continues to `J`
//!   too: `S`'s instructions get `!g`, `T`'s get `g`, and `A` takes both
//!   (plus a `bra J` when `J` does not follow). Each thread runs one side,
//!   exactly as before.
//! - **`selp`.** In a block this phase changed, `@!g mov r, a` (or an
//!   unguarded `mov r, a`) followed by `@g mov r, b` of the same type, with
//!   nothing between that reads or writes `r` or writes `a` or `g`'s
//!   predicate, becomes `selp r, b, a, p` in the second's place (`r = g ?
//!   b : a`): the `c ? x : y` that `-O0` code writes as a diamond of two
//!   copies is one instruction, as cicc's `select`.
//! - **`min`/`max`.** A `selp` just formed whose condition is a `setp` of
//!   its own two integer operands becomes `min` or `max` (`v > 1000 ? 1000
//!   : v` is `min.s32 v, 1000`), as cicc selects the clamps `-O0` code
//!   writes as branches. Not for floating point (`min.f32` of a NaN returns
//!   the other operand, the `selp` would not).
//! - **`abs`.** `@g neg.sN r, x` next to `@!g mov r, x` where `g` is the
//!   test `x < 0` (or `<= 0`) becomes `abs.sN r, x`.
//! - **`setp.and`/`.or`.** Likewise `mov.pred p, 1` followed by `@g setp.CMP
//!   p, a, b` becomes `setp.CMP.or p, a, b, !g`, and `mov.pred p, 0` with it
//!   `setp.CMP.and p, a, b, g`: the short-circuit `a || b` and `a && b` of
//!   `-O0` code, which cicc selects as `or.pred`/`and.pred`.
//!
//! # The budget, chosen here
//!
//! A branch costs one instruction for every thread that reaches it, and a
//! diamond's first side one more (its `bra J`); a predicated instruction
//! costs one for every thread, whether its guard holds or not. With each
//! side taken by half the threads, predication costs no more when a
//! triangle's side holds at most [`TRIANGLE_MAX`] = 2 instructions (2
//! against 1 + 2/2) and a diamond's two sides together at most
//! [`DIAMOND_MAX`] = 3 (3 against 1 + (1+1)/2 + 2/2 at worst), where a
//! copy on each side into the same register counts once (the two become
//! one `selp`). Beyond that a
//! warp whose threads all skip a side would pay for it. On the hardware a
//! divergent branch costs more than one issue slot (the reconvergence
//! barrier `BSSY`/`BSYNC` ptxas adds around it), so the budget is on the
//! safe side; ptxas predicates longer sides itself.
//!
//! # What it never predicates
//!
//! - An instruction that already has a guard (PTX has one guard per
//!   instruction; combining two would take an `and.pred`).
//! - A branch, `ret`, `exit`, `call`; anything that synchronizes or
//!   exchanges values between threads (`bar`, `shfl.sync`, `vote`, `mma`,
//!   ...: which threads take part would change from the branch's to the
//!   guard's), a fence, a volatile access, a carry-flag instruction, an
//!   instruction with side effects other than a store or an atomic (async
//!   copies, prefetches), and an opcode the ISA table does not know.
//! - An instruction that writes the branch's predicate (the instructions
//!   after it read the guard).
//! - A block with a `.pragma`, in a `.branchtargets` list, or whose label
//!   another instruction names.
//!
//! - A load. A guarded-off load would not fault, but ptxas issues the
//!   guarded loads of a run of triangles together and keeps every result
//!   live at once: `stencil1d` of `bench/stencil.cu` at `-O3`, seven
//!   `if (in range) acc += w * in[i + k]` triangles, took 20 registers
//!   against 19 with the branches (`cargo xtask regs`).
//!
//! Stores and atomics are predicated: a guarded-off access does not
//! happen, so it cannot fault where the branch would have skipped it.
//!
//! # Adapted from Ori/SASS to PTX
//!
//! Ori predicates with physical predicate registers and may need to
//! materialise the complement of a condition; a PTX guard can read a
//! predicate negated (`@!%p`), so no instruction is added for `!g`. The
//! `selp` rewrite is this module's: Ori selects with `SEL` after register
//! allocation, and at the PTX level two guarded copies keep two
//! instructions where one suffices.

use std::sync::Arc;

use ptx_analysis::cfg;
use ptx_analysis::reaching_defs::{reaching_defs, ReachingDefs};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, Guard, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::{FamilyId, OpFlags};
use rustc_hash::FxHashMap;

use super::branch_opt::{bra_target, branch_target_blocks, label_name};
use super::known::{give_locs, plain_reg, remove_keeping_locs, Accesses};
use crate::origin::origin;
use crate::remark::{PhaseOutput, RemarkKind, RoundRemarks, Stat};
use crate::{PassContext, PhaseId};

/// The most instructions of a triangle's side that are predicated.
pub const TRIANGLE_MAX: usize = 2;
/// The most instructions of a diamond's two sides together.
pub const DIAMOND_MAX: usize = 3;
/// The most rounds over the layout (an outer shape becomes a candidate once
/// its inner one is linear; each round only removes blocks).
pub const MAX_ROUNDS: u32 = 8;

#[derive(Default)]
struct Counts {
    triangles: u64,
    diamonds: u64,
    predicated: u64,
    selects: u64,
    min_max: u64,
    speculated: u64,
    refused_size: u64,
    refused_kind: u64,
}

struct State {
    log: RoundRemarks,
    counts: Counts,
}

/// Runs if-conversion on one function (phase `id`).
pub fn run(id: PhaseId, _ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let mut f = (**input).clone();
    let mut st = State {
        log: RoundRemarks::new(id),
        counts: Counts::default(),
    };
    let mut any = false;
    for _ in 0..MAX_ROUNDS {
        let mut round = Vec::new();
        predicate_round(&mut f, &mut st, &mut round);
        if round.is_empty() {
            break;
        }
        any = true;
        // The join now follows the block that took the sides: one block,
        // so that an outer shape sees one side and `selp` sees both copies.
        super::branch_opt::merge_straight_line(&mut f);
        let placed = f.inst_blocks();
        let mut blocks: Vec<BlockId> = round
            .iter()
            .filter_map(|&i| placed.get(i).copied())
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        let accesses = Accesses::new(&f);
        for &b in &blocks {
            speculate(&mut f, b, &accesses, &mut st);
        }
        // Before the next round, so that an outer shape sees the inner one
        // as the unguarded instructions it has become.
        let rd = reaching_defs(&f, &cfg::cfg(&f));
        for &b in &blocks {
            form_selects(&mut f, b, &rd, &mut st);
        }
    }
    let remarks = st.log.finish();
    if !any {
        return PhaseOutput {
            function: input.clone(),
            loops: Vec::new(),
            remarks,
            stats: Vec::new(),
        };
    }
    let c = &st.counts;
    let stats = vec![
        Stat {
            name: "triangles predicated",
            value: c.triangles,
        },
        Stat {
            name: "diamonds predicated",
            value: c.diamonds,
        },
        Stat {
            name: "instructions predicated",
            value: c.predicated,
        },
        Stat {
            name: "selp and setp.and/.or formed",
            value: c.selects,
        },
        Stat {
            name: "selp into min/max, neg and mov into abs",
            value: c.min_max,
        },
        Stat {
            name: "guards dropped from pure single-writer instructions",
            value: c.speculated,
        },
        Stat {
            name: "refused: over the budget",
            value: c.refused_size,
        },
        Stat {
            name: "refused: an instruction that cannot be predicated",
            value: c.refused_kind,
        },
    ];
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats,
    }
}

/// One side of a shape: the block, the instructions to predicate, its
/// closing unguarded `bra` (if any) and where it continues.
struct Side {
    block: BlockId,
    body: Vec<InstId>,
    jump: Option<InstId>,
    exit: Option<BlockId>,
}

/// The side at layout position `pos`, or `None` when the block ends with
/// anything but an unguarded `bra` or a fall-through.
fn side(f: &Function, pos: usize) -> Option<Side> {
    let block = *f.layout.get(pos)?;
    let insts = &f.blocks[block].insts;
    let mut body = insts.clone();
    let mut jump = None;
    let mut exit = f.layout.get(pos + 1).copied();
    if let Some(&last) = insts.last() {
        let inst = &f.insts[last];
        if inst.is_terminator() {
            let target = bra_target(f, last).filter(|_| inst.guard.is_none())?;
            body.pop();
            jump = Some(last);
            exit = Some(target);
        }
    }
    if body.iter().any(|&i| f.insts[i].is_terminator()) {
        return None;
    }
    Some(Side {
        block,
        body,
        jump,
        exit,
    })
}

/// `(guard, target)` of a guarded `bra` ending `block`.
fn guarded_bra(f: &Function, block: BlockId) -> Option<(InstId, Guard, BlockId)> {
    let &last = f.blocks[block].insts.last()?;
    Some((last, f.insts[last].guard?, bra_target(f, last)?))
}

/// Why `inst` cannot run under a guard instead of a branch, if it cannot.
fn not_predicable(inst: &Inst, guard_reg: RegId) -> Option<&'static str> {
    let flags = inst.opcode.info.flags;
    if inst.guard.is_some() {
        return Some("it already has a guard");
    }
    if inst.opcode.family.is_none() {
        return Some("its opcode is not in the ISA table");
    }
    if flags.is_terminator() || flags.is_call() {
        return Some("it is a branch, return or call");
    }
    if flags.intersects(OpFlags::BARRIER | OpFlags::CONVERGENT) {
        return Some(
            "it synchronizes or exchanges values between threads (which threads take part would change)",
        );
    }
    if flags.intersects(OpFlags::FENCE | OpFlags::VOLATILE) {
        return Some("it is a fence or a volatile access");
    }
    if flags.intersects(OpFlags::CARRY_IN | OpFlags::CARRY_OUT) {
        return Some("it reads or writes the carry flag");
    }
    if flags.contains(OpFlags::LOAD) && !flags.intersects(OpFlags::STORE | OpFlags::ATOMIC) {
        return Some(
            "it is a load (ptxas issues the guarded loads of consecutive shapes together and holds all their results)",
        );
    }
    if flags.contains(OpFlags::SIDE_EFFECTS) && !flags.intersects(OpFlags::STORE | OpFlags::ATOMIC)
    {
        return Some("it has side effects other than a store");
    }
    let mut writes_guard = false;
    visit_defs_and_uses(inst, |access, r| {
        if access == Access::Def && r == guard_reg {
            writes_guard = true;
        }
    });
    if writes_guard {
        return Some("it writes the branch's predicate");
    }
    None
}

/// How many label operands name each block.
fn label_refs(f: &Function) -> FxHashMap<BlockId, u32> {
    let mut refs = FxHashMap::default();
    for (_, inst) in f.insts_in_order() {
        for op in &inst.operands {
            if let Operand::Label(b) = op {
                *refs.entry(*b).or_insert(0) += 1;
            }
        }
    }
    refs
}

fn guard_text(f: &Function, g: Guard) -> String {
    format!(
        "@{}{}",
        if g.negated { "!" } else { "" },
        f.regs[g.reg].name
    )
}

/// One pass over the layout; pushes an instruction of each block it
/// changed.
fn predicate_round(f: &mut Function, st: &mut State, changed: &mut Vec<InstId>) {
    let g = cfg::cfg(f);
    let refs = label_refs(f);
    let listed = branch_target_blocks(f);
    // A block may take part in a shape when only its predecessor's edge
    // enters it and nothing else names it.
    let enterable = |f: &Function, b: BlockId, labels: u32| {
        !listed.contains(&b)
            && f.blocks[b].pragmas.is_empty()
            && refs.get(&b).copied().unwrap_or(0) == labels
    };
    let mut pos = 0;
    while pos + 1 < f.layout.len() {
        let a = f.layout[pos];
        let Some((br, guard, target)) = guarded_bra(f, a) else {
            pos += 1;
            continue;
        };
        let Some(s) = side(f, pos + 1) else {
            pos += 1;
            continue;
        };
        if s.block == target || s.block == a || g.preds(s.block) != [a] || !enterable(f, s.block, 0)
        {
            pos += 1;
            continue;
        }
        let inverse = Guard {
            reg: guard.reg,
            negated: !guard.negated,
        };
        if s.exit == Some(target) {
            // Triangle.
            if !check(f, st, br, &[&s.body], guard.reg, TRIANGLE_MAX, "triangle") {
                pos += 1;
                continue;
            }
            let keep_jump = s.jump.filter(|_| f.layout.get(pos + 2) != Some(&target));
            let dropped = s.jump.filter(|_| keep_jump.is_none());
            let n = s.body.len();
            for &i in &s.body {
                f.insts[i].guard = Some(inverse);
            }
            let mut insts = std::mem::take(&mut f.blocks[a].insts);
            insts.pop();
            let at = insts.len();
            insts.extend(s.body.iter().copied());
            insts.extend(keep_jump);
            let end = insts.len();
            f.blocks[a].insts = insts;
            f.blocks[s.block].insts.clear();
            f.layout.remove(pos + 1);
            move_locs(f, a, br, at);
            if let Some(j) = dropped {
                move_locs(f, a, j, end);
            }
            st.counts.triangles += 1;
            st.counts.predicated += n as u64;
            st.log.push(
                RemarkKind::Applied,
                "predicated",
                origin(f, br),
                format!(
                    "branch to {} if-converted: {} instruction{} of block {} now run under `{}`",
                    label_name(f, target),
                    n,
                    if n == 1 { "" } else { "s" },
                    label_name(f, s.block),
                    guard_text(f, inverse)
                ),
            );
            changed.extend(f.blocks[a].insts.first().copied());
            // `a` may head another shape now; look at it again.
            continue;
        }
        // Diamond: `s` jumps over `t` to the join.
        let Some(t) = side(f, pos + 2) else {
            pos += 1;
            continue;
        };
        let join = s.exit;
        if s.jump.is_none()
            || t.block != target
            || join.is_none()
            || t.exit != join
            || join == Some(t.block)
            || join == Some(s.block)
            || join == Some(a)
            || g.preds(t.block) != [a]
            || !enterable(f, t.block, 1)
        {
            pos += 1;
            continue;
        }
        let join = join.expect("checked");
        if !check(
            f,
            st,
            br,
            &[&s.body, &t.body],
            guard.reg,
            DIAMOND_MAX,
            "diamond",
        ) {
            pos += 1;
            continue;
        }
        let n = s.body.len() + t.body.len();
        for &i in &s.body {
            f.insts[i].guard = Some(inverse);
        }
        for &i in &t.body {
            f.insts[i].guard = Some(guard);
        }
        let s_jump = s.jump.expect("checked");
        let keep_jump = f.layout.get(pos + 3) != Some(&join);
        let mut insts = std::mem::take(&mut f.blocks[a].insts);
        insts.pop();
        let at = insts.len();
        insts.extend(s.body.iter().copied());
        let at_t = insts.len();
        insts.extend(t.body.iter().copied());
        if keep_jump {
            insts.push(s_jump);
        }
        let end = insts.len();
        f.blocks[a].insts = insts;
        f.blocks[s.block].insts.clear();
        f.blocks[t.block].insts.clear();
        f.layout.drain(pos + 1..pos + 3);
        move_locs(f, a, br, at);
        if !keep_jump {
            move_locs(f, a, s_jump, at_t);
        }
        if let Some(j) = t.jump {
            move_locs(f, a, j, end);
        }
        st.counts.diamonds += 1;
        st.counts.predicated += n as u64;
        st.log.push(
            RemarkKind::Applied,
            "predicated",
            origin(f, br),
            format!(
                "diamond if-converted: block {} ({} instruction{}) now runs under `{}`, block {} ({}) under `{}`, both continue to {}",
                label_name(f, s.block),
                s.body.len(),
                if s.body.len() == 1 { "" } else { "s" },
                guard_text(f, inverse),
                label_name(f, t.block),
                t.body.len(),
                guard_text(f, guard),
                label_name(f, join)
            ),
        );
        changed.extend(f.blocks[a].insts.first().copied());
    }
}

/// Hands the `.loc` lines of `gone` (an instruction no longer placed) to
/// the instruction at `pos` of `block` or the first after it.
fn move_locs(f: &mut Function, block: BlockId, gone: InstId, pos: usize) {
    let locs = std::mem::take(&mut f.insts[gone].locs);
    give_locs(f, block, pos, locs);
}

/// Whether the sides fit the budget and every instruction can be
/// predicated; a missed remark at the branch otherwise.
fn check(
    f: &Function,
    st: &mut State,
    br: InstId,
    sides: &[&Vec<InstId>],
    guard_reg: RegId,
    max: usize,
    shape: &str,
) -> bool {
    for side in sides {
        for &i in side.iter() {
            if let Some(why) = not_predicable(&f.insts[i], guard_reg) {
                st.counts.refused_kind += 1;
                st.log.push(
                    RemarkKind::Missed,
                    "not-predicable",
                    origin(f, br),
                    format!(
                        "{shape} not if-converted: `{}` cannot be predicated: {why}",
                        f.insts[i].opcode.text()
                    ),
                );
                return false;
            }
        }
    }
    let n: usize = sides.iter().map(|s| s.len()).sum();
    // A copy on each side into one register becomes one `selp`.
    let pairs = match sides {
        [s, t] => s
            .iter()
            .filter_map(|&i| select_copy(&f.insts[i]).map(|(d, _)| (d, f.insts[i].opcode)))
            .filter(|&(d, op)| {
                t.iter().any(|&k| {
                    f.insts[k].opcode == op && select_copy(&f.insts[k]).is_some_and(|(e, _)| e == d)
                })
            })
            .count(),
        _ => 0,
    };
    let n = n - pairs.min(n);
    if n > max {
        st.counts.refused_size += 1;
        st.log.push(
            RemarkKind::Missed,
            "budget",
            origin(f, br),
            format!(
                "{shape} not if-converted: {n} instructions to predicate, over the budget of {max} (a predicated instruction costs every thread; the branch only those that take its side)"
            ),
        );
        return false;
    }
    true
}

/// `selp` types (a `mov` of another type stays two copies).
const SELP_TYPES: [&str; 11] = [
    ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f32", ".f64",
];

/// Drops the guard of a predicated instruction that is pure, cannot trap
/// and is the only writer of its destinations: where the guard was false
/// the destination held no value before (nothing else writes it), so
/// computing one there changes nothing a thread can observe, and every
/// later reader sees a defined value (what lets `setp.and`/`.or` read it).
/// `@!%p sub.s32 %r12, %r6, 1` becomes `sub.s32 %r12, %r6, 1`.
fn speculate(f: &mut Function, block: BlockId, accesses: &Accesses, st: &mut State) {
    for k in 0..f.blocks[block].insts.len() {
        let id = f.blocks[block].insts[k];
        let inst = &f.insts[id];
        if inst.guard.is_none()
            || !inst.is_pure()
            || inst.opcode.info.flags.intersects(OpFlags::MAY_TRAP)
        {
            continue;
        }
        let mut only_writer = true;
        let mut any = false;
        visit_defs_and_uses(inst, |access, r| {
            if access == Access::Def {
                any = true;
                only_writer &= accesses.writers(r).len() == 1;
            }
        });
        if any && only_writer {
            f.insts[id].guard = None;
            st.counts.speculated += 1;
        }
    }
}

/// `(dst, src)` of a `mov` that `selp` can take: a plain register
/// destination, a plain register or immediate source, a `selp` type.
fn select_copy(inst: &Inst) -> Option<(RegId, &Operand)> {
    if inst.opcode.info.family != FamilyId::Mov
        || inst.operands.len() != 2
        || inst.opcode.modifiers.len() != 1
        || !SELP_TYPES.contains(&inst.opcode.modifiers[0].as_str())
    {
        return None;
    }
    let dst = plain_reg(&inst.operands[0])?;
    match &inst.operands[1] {
        Operand::Imm(_) => Some((dst, &inst.operands[1])),
        op => plain_reg(op)
            .filter(|&r| r != dst)
            .map(|_| (dst, &inst.operands[1])),
    }
}

/// A plain register operand.
fn reg_op(reg: RegId) -> Operand {
    Operand::Reg {
        reg,
        component: None,
    }
}

/// Makes instruction `id` an unguarded `opcode operands` (its id, origin
/// and `.loc` lines stay).
fn rewrite(f: &mut Function, id: InstId, opcode: Opcode, operands: Vec<Operand>) {
    let inst = &mut f.insts[id];
    inst.guard = None;
    inst.opcode = opcode;
    inst.operands = operands;
}

/// Walks back from instruction `j` of `insts` to the nearest one `accept`
/// takes (its index and what `accept` returned); gives up at an
/// instruction that reads or writes `r` or writes `p` first.
fn find_back<T>(
    f: &Function,
    insts: &[InstId],
    j: usize,
    r: RegId,
    p: RegId,
    mut accept: impl FnMut(&Inst) -> Option<T>,
) -> Option<(usize, T)> {
    for i in (0..j).rev() {
        let inst = &f.insts[insts[i]];
        if let Some(t) = accept(inst) {
            return Some((i, t));
        }
        let (reads_r, writes_r) = touches(inst, r);
        if reads_r || writes_r || touches(inst, p).1 {
            return None;
        }
    }
    None
}

fn touches(inst: &Inst, r: RegId) -> (bool, bool) {
    let (mut reads, mut writes) = (false, false);
    visit_defs_and_uses(inst, |access, x| {
        if x == r {
            match access {
                Access::Use => reads = true,
                Access::Def => writes = true,
            }
        }
    });
    (reads, writes)
}

/// The `selp` rewrite within `block`.
fn form_selects(f: &mut Function, block: BlockId, rd: &ReachingDefs, st: &mut State) {
    let mut j = 0;
    while j < f.blocks[block].insts.len() {
        let guarded = f.insts[f.blocks[block].insts[j]].guard.is_some();
        // `abs` takes the pair at `j - 1`, `j`; `j` is then the next one.
        if guarded && j > 0 && absolute(f, block, j, st) {
            continue;
        }
        let insts = &f.blocks[block].insts;
        let jid = insts[j];
        let ji = &f.insts[jid];
        if ji.guard.is_some() && plain_setp(ji).is_some() {
            if !combine_setp(f, block, j, rd, st) {
                j += 1;
            }
            continue;
        }
        let (Some(gj), Some((r, b))) = (ji.guard, select_copy(ji)) else {
            j += 1;
            continue;
        };
        let opcode = ji.opcode;
        let b = b.clone();
        // Walk back to the copy that gives `r` its value for the other
        // threads.
        let other = Guard {
            reg: gj.reg,
            negated: !gj.negated,
        };
        let found = find_back(f, insts, j, r, gj.reg, |inst| {
            let complement = inst.guard.is_none() || inst.guard == Some(other);
            match select_copy(inst) {
                Some((d, a)) if d == r && complement && inst.opcode == opcode => Some(a.clone()),
                _ => None,
            }
        });
        let Some((i, a)) = found else {
            j += 1;
            continue;
        };
        // `a` is read at `j` now: nothing between may write it.
        if let Operand::Reg { reg: ar, .. } = &a {
            if insts[i + 1..j].iter().any(|&k| touches(&f.insts[k], *ar).1) {
                j += 1;
                continue;
            }
        }
        let (x, y) = if gj.negated { (a, b) } else { (b, a) };
        let iid = insts[i];
        let selp = Opcode::new("selp", opcode.modifiers.clone());
        rewrite(f, jid, selp, vec![reg_op(r), x, y, reg_op(gj.reg)]);
        st.counts.selects += 1;
        st.log.push(
            RemarkKind::Applied,
            "selp",
            origin(f, jid),
            format!(
                "two copies into {} under complementary guards became one `{}`",
                f.regs[r].name,
                selp.text()
            ),
        );
        // `i` goes; the `selp` moves down to `j - 1` and `j` is the
        // instruction after it.
        remove_keeping_locs(f, block, iid);
        min_max(f, block, j - 1, st);
    }
}

/// The destination of a `setp` with one destination and no `.and`/`.or`/
/// `.xor` of its own.
fn plain_setp(inst: &Inst) -> Option<RegId> {
    let info = &inst.opcode.info;
    if info.family != FamilyId::Setp || inst.operands.len() != 3 || info.bool_op.is_some() {
        return None;
    }
    plain_reg(&inst.operands[0])
}

/// The unguarded [`plain_setp`] that last writes `p` before index `k` of
/// `insts`, when none of `keep` is written after it.
fn setp_of(f: &Function, insts: &[InstId], k: usize, p: RegId, keep: &[RegId]) -> Option<InstId> {
    for &id in insts[..k].iter().rev() {
        let inst = &f.insts[id];
        if touches(inst, p).1 {
            return (inst.guard.is_none() && plain_setp(inst) == Some(p)).then_some(id);
        }
        if keep.iter().any(|&r| touches(inst, r).1) {
            return None;
        }
    }
    None
}

/// The constant of an unguarded `mov.pred p, C` into `p`.
fn pred_constant(inst: &Inst, p: RegId) -> Option<bool> {
    if inst.guard.is_some()
        || inst.opcode.info.family != FamilyId::Mov
        || inst.opcode.modifiers.as_slice() != [".pred"]
    {
        return None;
    }
    match inst.operands.as_slice() {
        [d, Operand::Imm(imm)] if plain_reg(d) == Some(p) => match imm.value {
            ptx_ir::ir::ImmValue::Int(v) => Some(v != 0),
            _ => None,
        },
        _ => None,
    }
}

/// `mov.pred p, 1` .. `@g setp.CMP p, a, b` becomes `setp.CMP.or p, a, b,
/// !g` (`p` is the comparison where `g` holds, true elsewhere), and
/// `mov.pred p, 0` .. `@g setp.CMP p, a, b` becomes `setp.CMP.and p, a, b,
/// g`, with nothing between reading or writing `p` or writing `g`'s
/// predicate: the `a || b` and `a && b` that `-O0` code writes as a branch
/// around the second test. Returns whether it rewrote instruction `j`.
fn combine_setp(
    f: &mut Function,
    block: BlockId,
    j: usize,
    rd: &ReachingDefs,
    st: &mut State,
) -> bool {
    let insts = &f.blocks[block].insts;
    let jid = insts[j];
    let (Some(g), Some(p)) = (f.insts[jid].guard, plain_setp(&f.insts[jid])) else {
        return false;
    };
    // The comparison now runs for every thread: its operands must hold a
    // value in all of them (a register written only under the guard would
    // make `cmp || !g` read an undefined value where `!g` decides).
    for op in &f.insts[jid].operands[1..] {
        if let Operand::Reg { reg, .. } = op {
            if rd.reaching_use(jid, *reg).is_none_or(|u| u.from_entry) {
                return false;
            }
        }
    }
    let found = find_back(f, insts, j, p, g.reg, |inst| pred_constant(inst, p));
    let Some((i, constant)) = found else {
        return false;
    };
    let iid = insts[i];
    // True elsewhere: `cmp || !g`; false elsewhere: `cmp && g`.
    let (op, negated) = if constant {
        (".or", !g.negated)
    } else {
        (".and", g.negated)
    };
    let inst = &f.insts[jid];
    let mut modifiers = inst.opcode.modifiers.clone();
    let at = modifiers.len().saturating_sub(1);
    modifiers.insert(at, op.to_string());
    let opcode = Opcode::new("setp", modifiers);
    let c = if negated {
        Operand::NegPred(g.reg)
    } else {
        reg_op(g.reg)
    };
    let mut operands = f.insts[jid].operands.clone();
    operands.push(c);
    rewrite(f, jid, opcode, operands);
    st.counts.selects += 1;
    st.log.push(
        RemarkKind::Applied,
        "setp-combine",
        origin(f, jid),
        format!(
            "`mov.pred {}, {}` and the guarded comparison that follows it became one `{}`",
            f.regs[p].name,
            u8::from(constant),
            opcode.text()
        ),
    );
    remove_keeping_locs(f, block, iid);
    true
}

/// Whether two source operands are the same plain register or the same
/// immediate value.
fn same_value(a: &Operand, b: &Operand) -> bool {
    match (a, b) {
        (Operand::Imm(x), Operand::Imm(y)) => x.value == y.value,
        _ => plain_reg(a).is_some_and(|x| plain_reg(b) == Some(x)),
    }
}

/// `selp r, A, B, p` at index `k` of `block`, where `p` is `setp.CMP.T x,
/// y` of the same two values and nothing between writes `p`, `x` or `y`,
/// becomes `min`/`max` (integers only: `min.f32` returns the other operand
/// of a NaN where the `selp` would not). `x < y ? x : y` is `min`,
/// `x < y ? y : x` is `max`, and the same with `>`: the clamps `-O0` code
/// writes as branches (`v > 1000 ? 1000 : v`), which cicc selects as
/// `min`/`max`. The `setp` stays for dead-code elimination when nothing
/// else reads it.
fn min_max(f: &mut Function, block: BlockId, k: usize, st: &mut State) {
    let insts = &f.blocks[block].insts;
    let kid = insts[k];
    let sel = &f.insts[kid];
    if sel.guard.is_some() || sel.opcode.info.family != FamilyId::Selp || sel.operands.len() != 4 {
        return;
    }
    let Some(p) = plain_reg(&sel.operands[3]) else {
        return;
    };
    let Some(sel_ty) = sel.opcode.info.types.last() else {
        return;
    };
    let (a, b) = (&sel.operands[1], &sel.operands[2]);
    let keep: Vec<RegId> = [a, b].into_iter().filter_map(plain_reg).collect();
    let Some(sid) = setp_of(f, insts, k, p, &keep) else {
        return;
    };
    let cmp_inst = &f.insts[sid];
    let Some(ty) = cmp_inst.opcode.info.types.last() else {
        return;
    };
    if !ty.is_int() || ty.bits() != sel_ty.bits() || !matches!(ty.bits(), 16 | 32 | 64) {
        return;
    }
    use ptx_isa::Cmp;
    let (less, unsigned) = match cmp_inst.opcode.info.cmp {
        Some(Cmp::Lt | Cmp::Le) => (true, !ty.is_signed()),
        Some(Cmp::Gt | Cmp::Ge) => (false, !ty.is_signed()),
        Some(Cmp::Lo | Cmp::Ls) => (true, true),
        Some(Cmp::Hi | Cmp::Hs) => (false, true),
        _ => return,
    };
    let (x, y) = (&cmp_inst.operands[1], &cmp_inst.operands[2]);
    let takes_x = if same_value(a, x) && same_value(b, y) {
        true
    } else if same_value(a, y) && same_value(b, x) {
        false
    } else {
        return;
    };
    // `x < y ? x : y` is the smaller one.
    let name = if less == takes_x { "min" } else { "max" };
    let ty_text = format!(".{}{}", if unsigned { "u" } else { "s" }, ty.bits());
    let (mut first, mut second) = (x.clone(), y.clone());
    if matches!(first, Operand::Imm(_)) {
        std::mem::swap(&mut first, &mut second);
    }
    let opcode = Opcode::new(name, vec![ty_text]);
    let dst = f.insts[kid].operands[0].clone();
    rewrite(f, kid, opcode, vec![dst, first, second]);
    st.counts.min_max += 1;
    st.log.push(
        RemarkKind::Applied,
        "min-max",
        origin(f, kid),
        format!(
            "`selp` of the two values its `setp` compares is `{}`",
            opcode.text()
        ),
    );
}

/// `@g neg.sN r, x` next to `@!g mov r, x` (either order), where `g` holds
/// exactly when `x < 0` (`setp.lt/le.sN p, x, 0` with `g = p`, or
/// `setp.gt/ge` with `g = !p`; nothing between writes `p` or `x`), becomes
/// `abs.sN r, x` in the second's place (`abs` of the most negative value is
/// itself, as its `neg` is): the `x < 0 ? -x : x` of `-O0` code. Returns
/// whether it rewrote instruction `j`.
fn absolute(f: &mut Function, block: BlockId, j: usize, st: &mut State) -> bool {
    let insts = &f.blocks[block].insts;
    let (iid, jid) = (insts[j - 1], insts[j]);
    let (ii, ji) = (&f.insts[iid], &f.insts[jid]);
    let (Some(gi), Some(gj)) = (ii.guard, ji.guard) else {
        return false;
    };
    if gi.reg != gj.reg || gi.negated == gj.negated {
        return false;
    }
    let (neg, neg_guard, mov) = match (ii.opcode.info.family, ji.opcode.info.family) {
        (FamilyId::Neg, FamilyId::Mov) => (ii, gi, ji),
        (FamilyId::Mov, FamilyId::Neg) => (ji, gj, ii),
        _ => return false,
    };
    let Some(ty) = neg.opcode.info.types.last() else {
        return false;
    };
    if !ty.is_int() || !ty.is_signed() || neg.operands.len() != 2 || mov.operands.len() != 2 {
        return false;
    }
    let (Some(r), Some(x)) = (plain_reg(&neg.operands[0]), plain_reg(&neg.operands[1])) else {
        return false;
    };
    if plain_reg(&mov.operands[0]) != Some(r)
        || plain_reg(&mov.operands[1]) != Some(x)
        || r == x
        || mov.opcode.info.types.last().map(|t| t.bits()) != Some(ty.bits())
    {
        return false;
    }
    // The comparison that sets the guard: `x` against 0.
    let p = gi.reg;
    let Some(sid) = setp_of(f, insts, j - 1, p, &[x]) else {
        return false;
    };
    let c = &f.insts[sid];
    let zero =
        matches!(&c.operands[2], Operand::Imm(imm) if imm.value == ptx_ir::ir::ImmValue::Int(0));
    if plain_reg(&c.operands[1]) != Some(x) || !zero || c.opcode.info.types.last() != Some(ty) {
        return false;
    }
    use ptx_isa::Cmp;
    // Whether the `neg` runs exactly where `x` is negative (or zero).
    let ok = match c.opcode.info.cmp {
        Some(Cmp::Lt | Cmp::Le) => !neg_guard.negated,
        Some(Cmp::Gt | Cmp::Ge) => neg_guard.negated,
        _ => false,
    };
    if !ok {
        return false;
    }
    let opcode = Opcode::new("abs", vec![format!(".s{}", ty.bits())]);
    rewrite(f, jid, opcode, vec![reg_op(r), reg_op(x)]);
    st.counts.min_max += 1;
    st.log.push(
        RemarkKind::Applied,
        "abs",
        origin(f, jid),
        format!(
            "`neg` and `mov` of {} under the sign test's two guards became one `{}`",
            f.regs[x].name,
            opcode.text()
        ),
    );
    remove_keeping_locs(f, block, iid);
    true
}
