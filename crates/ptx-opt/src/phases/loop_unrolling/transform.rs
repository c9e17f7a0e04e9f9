//! The unrolling transform of phase 22 (seed 000, steps O and P: full
//! unroll, partial unroll with remainder copies, the power-of-two epilogue),
//! written as a reusable function over one loop of a [`Function`]:
//! [`unroll`] with a [`Plan`]. The cicc unroller calls it with its own
//! factors.
//!
//! PTX registers are not SSA, so a copy of the body computes in the same
//! registers as the original: copies are chained, never merged, and no
//! value needs renaming (unlike [`Function::clone_region`], which gives each
//! copy fresh registers). What changes is only where each copy's latch
//! branch goes:
//!
//! - **Full** (`n` trips): copies `C_0 .. C_{n-1}`; every latch jumps to the
//!   next copy, the last to the exit. Every exit test is gone.
//! - **Partial, known count** (`n = q * f + r`, `q >= 1`): `r` remainder
//!   copies run first (the loop's entries go to them), then the loop of `f`
//!   copies whose first `f - 1` exit tests are gone and whose last keeps the
//!   original branch. That test runs after iterations `r + f - 1`,
//!   `r + 2f - 1`, ..., exactly where the original would have tested the
//!   same registers, so it decides the same.
//! - **Partial, unknown count**: a check block guards each chunk of `f`
//!   copies: from the IV value `x` at the chunk's start, the chunk runs only
//!   if the next `f - 1` exit tests would all go on (see [`emit_check`]),
//!   its last copy keeps the original test (go on: back to the check).
//!   When the check fails, the power-of-two epilogue runs chunks of
//!   `2^levels`, ..., `2` copies (each guarded the same way, each run at
//!   most once), then the original loop, untouched, finishes. Every check is
//!   sound on its own: a check that says no only sends the iterations to a
//!   later stage, so the result never depends on the checks being tight.
//!   The shifted limit each check compares with is computed once per entry
//!   into the loop (see [`emit_stage_limit`]), so a chunk pays one `setp`
//!   and one `bra`.
//!
//! Afterwards: the latch compares no copy reads any more are removed, jumps
//! to the next block go, straight-line copies are merged (as branch
//! simplification would), and the loops left (the chunk loop, the loop of
//! a known-count partial unroll, the original loop kept as the remainder)
//! get `.pragma "nounroll"`, as cicc marks its remainder loops: building
//! the output again changes nothing.

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, Guard, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use rustc_hash::FxHashMap;

use super::decide::{guard_constant, Iv, Limit, Plan};
use ptx_analysis::trip_count::CmpOp;

/// The shape of a bottom-tested loop the transform works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopShape {
    pub header: BlockId,
    pub latch: BlockId,
    /// Every block of the loop, in layout order.
    pub blocks: Vec<BlockId>,
    /// The latch's conditional `bra`.
    pub branch: InstId,
    /// Where the loop goes when it ends.
    pub exit: BlockId,
    /// The branch goes back to the header when taken (else it leaves).
    pub continue_on_taken: bool,
    /// Predecessors of the header outside the loop.
    pub entries: Vec<BlockId>,
    /// The `setp` in the latch that defines the branch's predicate, when
    /// nothing else reads that predicate: a copy whose latch no longer
    /// branches does not need it.
    pub compare: Option<InstId>,
}

impl LoopShape {
    /// The shape of the loop made of `blocks` (any order) with `header` and
    /// one `latch`; `Err` with why when it is not a bottom-tested loop
    /// leaving only at its latch.
    pub fn new(
        func: &Function,
        header: BlockId,
        latch: BlockId,
        blocks: &[BlockId],
    ) -> Result<LoopShape, &'static str> {
        let in_loop = |b: BlockId| blocks.contains(&b);
        let &branch = func.blocks[latch]
            .insts
            .last()
            .ok_or("the latch is empty")?;
        let inst = &func.insts[branch];
        if inst.opcode.name != "bra" || inst.guard.is_none() {
            return Err("the latch does not end in a conditional branch");
        }
        let targets = func.branch_targets_of(inst);
        let [target] = targets.as_slice() else {
            return Err("the latch branch has no single target");
        };
        let next = func.next_in_layout(latch);
        let (continue_on_taken, exit) = if *target == header {
            match next {
                Some(n) if !in_loop(n) => (true, n),
                _ => return Err("the latch does not fall out of the loop"),
            }
        } else if !in_loop(*target) && next == Some(header) {
            (false, *target)
        } else {
            return Err("the latch branch neither continues nor leaves the loop");
        };
        let mut ordered: Vec<BlockId> = func
            .layout
            .iter()
            .copied()
            .filter(|b| in_loop(*b))
            .collect();
        ordered.dedup();
        if ordered.len() != blocks.len() {
            return Err("a loop block is not in the layout");
        }
        for &b in &ordered {
            for &i in &func.blocks[b].insts {
                if func.insts[i].opcode.name == "brx" {
                    return Err("the loop holds brx.idx");
                }
            }
            // Only the latch may leave the loop.
            if b != latch {
                for s in func.successors(b) {
                    if !in_loop(s) {
                        return Err("the loop leaves other than at its latch");
                    }
                }
            }
        }
        let mut entries = Vec::new();
        for &b in &func.layout {
            if !in_loop(b) && func.successors(b).contains(&header) {
                // A `brx.idx` edge cannot be redirected (its list is shared).
                let indirect = func.blocks[b]
                    .insts
                    .last()
                    .is_some_and(|&i| func.insts[i].opcode.name == "brx");
                if indirect {
                    return Err("an indirect branch (brx.idx) enters the loop");
                }
                entries.push(b);
            }
        }
        let compare = private_compare(func, latch, branch);
        Ok(LoopShape {
            header,
            latch,
            blocks: ordered,
            branch,
            exit,
            continue_on_taken,
            entries,
            compare,
        })
    }
}

/// The unguarded `setp` with one destination that last writes the latch
/// branch's predicate in the latch, when no other placed instruction of the
/// function reads that predicate.
fn private_compare(func: &Function, latch: BlockId, branch: InstId) -> Option<InstId> {
    let pred = func.insts[branch].guard?.reg;
    let insts = &func.blocks[latch].insts;
    let mut cmp = None;
    for &i in insts.iter().rev().skip(1) {
        let mut writes = false;
        visit_defs_and_uses(&func.insts[i], |a, r| {
            writes |= a == Access::Def && r == pred
        });
        if writes {
            cmp = Some(i);
            break;
        }
    }
    let cmp = cmp?;
    let c = &func.insts[cmp];
    let single_dest =
        matches!(c.operands.first(), Some(Operand::Reg { reg, component: None }) if *reg == pred);
    if c.opcode.name != "setp" || c.guard.is_some() || !single_dest {
        return None;
    }
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            if i == branch {
                continue;
            }
            let mut reads = false;
            visit_defs_and_uses(&func.insts[i], |a, r| {
                reads |= a == Access::Use && r == pred
            });
            if reads {
                return None;
            }
        }
    }
    Some(cmp)
}

/// Removes the compares of the latches in `latches` (blocks whose branch
/// the transform made unconditional or removed).
fn drop_compares(func: &mut Function, shape: &LoopShape, latches: &[(BlockId, Option<InstId>)]) {
    if shape.compare.is_none() {
        return;
    }
    for &(b, c) in latches {
        if let Some(c) = c {
            crate::phases::known::remove_keeping_locs(func, b, c);
        }
    }
}

/// What [`unroll`] made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unrolled {
    /// Copies of the body made (each a map original block -> copy).
    pub copies: usize,
    /// The header of the loop that remains (the chunk loop's check block,
    /// or the original header), `None` after a full unroll.
    pub new_header: Option<BlockId>,
}

/// Unrolls the loop `shape` of `func` as `plan` says. `Err` (nothing
/// changed) when the plan does not fit the shape. Instructions made here
/// get `origin` as their origin.
pub fn unroll(
    func: &mut Function,
    shape: &LoopShape,
    plan: &Plan,
    origin: Option<InstId>,
) -> Result<Unrolled, &'static str> {
    let needs_entry = !matches!(plan, Plan::Full { .. });
    if needs_entry && func.layout.first() == Some(&shape.header) {
        return Err("the loop header is the function's entry block");
    }
    let first_new = func.blocks.len();
    let result = dispatch(func, shape, plan, origin)?;
    tidy(func, shape, first_new);
    Ok(result)
}

fn dispatch(
    func: &mut Function,
    shape: &LoopShape,
    plan: &Plan,
    origin: Option<InstId>,
) -> Result<Unrolled, &'static str> {
    match plan {
        Plan::Full { n } if *n >= 1 && *n <= 4096 => Ok(full(func, shape, *n as usize)),
        Plan::PartialKnown { n, factor } if *factor >= 2 && *n >= u64::from(*factor) => {
            Ok(partial_known(func, shape, *n, *factor as usize))
        }
        Plan::PartialUnknown {
            factor,
            epilogue_levels,
            iv,
        } if *factor >= 2 => {
            for n in std::iter::once(*factor).chain((1..=*epilogue_levels).map(|j| 1u32 << j)) {
                if guard_constant(iv, n).is_none() {
                    return Err("the guard constant does not fit");
                }
            }
            if matches!(iv.limit, Limit::Imm(_)) && const_stage_limit(iv, *factor).is_none() {
                return Err("the constant limit leaves no room for a chunk");
            }
            Ok(partial_unknown(
                func,
                shape,
                *factor as usize,
                *epilogue_levels,
                iv,
                origin,
            ))
        }
        _ => Err("the plan does not fit"),
    }
}

/// Removes the unguarded `bra`s to the next block that the transform left
/// in the loop's blocks, its entries and the blocks it made, and the
/// unlabeled blocks this leaves empty.
fn tidy(func: &mut Function, shape: &LoopShape, first_new: usize) {
    let is_new = |b: BlockId| b.into_raw().into_u32() as usize >= first_new;
    let layout = func.layout.clone();
    let mut remove_blocks = Vec::new();
    for (pos, &b) in layout.iter().enumerate() {
        if !(is_new(b) || shape.blocks.contains(&b) || shape.entries.contains(&b)) {
            continue;
        }
        let Some(&last) = func.blocks[b].insts.last() else {
            continue;
        };
        let inst = &func.insts[last];
        if inst.guard.is_some() || inst.opcode.name != "bra" {
            continue;
        }
        let next = layout.get(pos + 1).copied();
        let targets = func.branch_targets_of(inst);
        if next.is_some() && targets.as_slice() == [next.unwrap()] {
            crate::phases::known::remove_keeping_locs(func, b, last);
            if is_new(b) && func.blocks[b].insts.is_empty() && func.blocks[b].label.is_none() {
                remove_blocks.push(b);
            }
        }
    }
    // A block a branch still names stays: an unlabeled block may be a
    // target (the copy of a jump block an earlier unroll made inside this
    // loop, which the inner loop's exits branch to).
    let targets = branch_targets(func);
    remove_blocks.retain(|b| !targets.contains(b));
    func.layout.retain(|b| !remove_blocks.contains(b));
    merge_straight(func, shape, first_new, &targets);
}

/// Every block a branch or a `.branchtargets` list names.
fn branch_targets(func: &Function) -> rustc_hash::FxHashSet<BlockId> {
    let mut targets = rustc_hash::FxHashSet::default();
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            targets.extend(func.branch_targets_of(&func.insts[i]));
        }
    }
    for l in &func.locals {
        if let ptx_ir::ir::LocalDecl::BranchTargets { targets: t, .. } = l {
            targets.extend(t.iter().copied());
        }
    }
    targets
}

/// Merges each block the transform made or copied into the block before it
/// when that one falls into it and nothing else reaches it (no branch names
/// it, no `.pragma`), as branch simplification would: the output is then a
/// fixed point of the phases before this one.
/// `targets`: what [`branch_targets`] gives (merging moves no branch).
fn merge_straight(
    func: &mut Function,
    shape: &LoopShape,
    first_new: usize,
    targets: &rustc_hash::FxHashSet<BlockId>,
) {
    let is_new = |b: BlockId| b.into_raw().into_u32() as usize >= first_new;
    let mut i = 0;
    while i + 1 < func.layout.len() {
        let (b, n) = (func.layout[i], func.layout[i + 1]);
        let mergeable = (is_new(n) || shape.blocks.contains(&n))
            && (is_new(b) || shape.blocks.contains(&b))
            && !targets.contains(&n)
            && func.blocks[n].pragmas.is_empty()
            && func.blocks[b]
                .insts
                .last()
                .is_none_or(|&l| !func.insts[l].is_terminator());
        if mergeable {
            let moved = std::mem::take(&mut func.blocks[n].insts);
            func.blocks[b].insts.extend(moved);
            func.layout.remove(i + 1);
        } else {
            i += 1;
        }
    }
}

/// The original latch branch, to restore in the copy that keeps the test.
struct Test {
    guard: Guard,
    opcode: Opcode,
}

/// Turns the latch's conditional branch into `bra header` (so that copies
/// never fall through out of the region) and returns what it was.
fn make_latch_unconditional(func: &mut Function, shape: &LoopShape) -> Test {
    let inst = &mut func.insts[shape.branch];
    let test = Test {
        guard: inst.guard.expect("checked by LoopShape::new"),
        opcode: inst.opcode,
    };
    inst.guard = None;
    inst.operands = vec![Operand::Label(shape.header)];
    test
}

/// Points the (unconditional) latch branch `branch` at `target`.
fn jump(func: &mut Function, branch: InstId, target: BlockId) {
    func.insts[branch].guard = None;
    func.insts[branch].operands = vec![Operand::Label(target)];
}

/// Gives `branch` (at the end of `latch`) the original test: go on to
/// `cont`, leave to `exit`.
fn restore_test(
    func: &mut Function,
    shape: &LoopShape,
    test: &Test,
    latch: BlockId,
    branch: InstId,
    cont: BlockId,
    exit: BlockId,
) {
    let (taken, fall) = if shape.continue_on_taken {
        (cont, exit)
    } else {
        (exit, cont)
    };
    let inst = &mut func.insts[branch];
    inst.guard = Some(test.guard);
    inst.opcode = test.opcode;
    inst.operands = vec![Operand::Label(taken)];
    fix_fallthrough(func, latch, Some(fall));
}

/// One copy of the region: original block -> copy, and the copy of the
/// latch branch.
struct Copy {
    blocks: FxHashMap<BlockId, BlockId>,
    branch: InstId,
    compare: Option<InstId>,
    last: BlockId,
}

impl Copy {
    fn header(&self, shape: &LoopShape) -> BlockId {
        self.blocks[&shape.header]
    }
    fn latch(&self, shape: &LoopShape) -> BlockId {
        self.blocks[&shape.latch]
    }
}

/// Copies the loop's blocks (same registers), placed after `after` in
/// layout order. Labels of the copies are fresh; branches inside the region
/// go to the copies; fall-throughs are kept with explicit jumps.
fn copy_region(func: &mut Function, shape: &LoopShape, after: BlockId) -> Copy {
    copy_region_at(func, shape, after, true)
}

/// [`copy_region`]; `keep_after`: keep `after`'s fall-through (else the
/// caller makes `after` go where it wants).
fn copy_region_at(
    func: &mut Function,
    shape: &LoopShape,
    after: BlockId,
    keep_after: bool,
) -> Copy {
    let region = &shape.blocks;
    let after_next = func.next_in_layout(after);
    let mut map = FxHashMap::default();
    let mut order = Vec::with_capacity(region.len());
    for &b in region {
        let orig = &func.blocks[b];
        let label = orig.label.as_deref().map(|l| func.fresh_label(l));
        let pragmas = orig.pragmas.clone();
        let pragma_alone = orig.pragma_alone;
        let copy = func.blocks.alloc(ptx_ir::ir::Block {
            label,
            insts: Vec::new(),
            pragmas,
            pragma_alone,
            // Annotations (`// ptxopt: unroll N`) stay on the original loop.
            annotations: Vec::new(),
            rpo_index: None,
            loop_depth: None,
        });
        map.insert(b, copy);
        order.push(copy);
    }
    let mut branch = shape.branch;
    let mut compare = None;
    for &b in region {
        let copy_block = map[&b];
        let insts = func.blocks[b].insts.clone();
        for i in insts {
            let Some(c) = func.clone_inst(i) else {
                continue;
            };
            func.insts[c].map_labels(|t| map.get(&t).copied().unwrap_or(t));
            func.blocks[copy_block].insts.push(c);
            if i == shape.branch {
                branch = c;
            }
            if Some(i) == shape.compare {
                compare = Some(c);
            }
        }
    }
    // Where each copy continues when it falls through.
    let intended: Vec<(BlockId, Option<BlockId>)> = region
        .iter()
        .filter(|&&b| func.falls_through(b))
        .map(|&b| {
            let next = func.next_in_layout(b);
            (map[&b], next.map(|n| map.get(&n).copied().unwrap_or(n)))
        })
        .collect();
    let pos = func.layout_position(after).expect("placed");
    let tail = func.layout.split_off(pos + 1);
    func.layout.extend(order.iter().copied());
    func.layout.extend(tail);
    for (copy, target) in intended {
        fix_fallthrough(func, copy, target);
    }
    if keep_after {
        fix_fallthrough(func, after, after_next);
    }
    let last = *order.last().expect("a loop has a block");
    let last = last_of_run(func, last);
    Copy {
        blocks: map,
        branch,
        compare,
        last,
    }
}

/// The last block of the run of blocks starting at `b` that the copier
/// added (jump blocks inserted right after `b`).
fn last_of_run(func: &Function, b: BlockId) -> BlockId {
    let mut cur = b;
    while let Some(n) = func.next_in_layout(cur) {
        let blk = &func.blocks[n];
        let is_jump = blk.label.is_none()
            && blk.insts.len() == 1
            && func.insts[blk.insts[0]].guard.is_none()
            && func.insts[blk.insts[0]].opcode.name == "bra"
            && func.origin(blk.insts[0]).is_none()
            && func.falls_through(cur);
        if !is_jump {
            break;
        }
        cur = n;
    }
    cur
}

/// Makes `block` continue to `target` when it falls through, adding a `bra`
/// (a `ret` for the end of the function) where the layout differs: in the
/// block, or in a block of its own after it when the block ends with a
/// guarded terminator.
fn fix_fallthrough(func: &mut Function, block: BlockId, target: Option<BlockId>) {
    if !func.falls_through(block) {
        return;
    }
    let Some(pos) = func.layout_position(block) else {
        return;
    };
    if func.layout.get(pos + 1).copied() == target {
        return;
    }
    let inst = match target {
        Some(t) => Inst {
            guard: None,
            opcode: Opcode::new("bra", Vec::new()),
            operands: vec![Operand::Label(t)],
            locs: Default::default(),
            range: Default::default(),
        },
        None => Inst {
            guard: None,
            opcode: Opcode::new("ret", Vec::new()),
            operands: Vec::new(),
            locs: Default::default(),
            range: Default::default(),
        },
    };
    let j = func.add_inst(inst, None);
    let guarded_end = func.blocks[block]
        .insts
        .last()
        .is_some_and(|&l| func.insts[l].is_terminator());
    if guarded_end {
        let new = func.blocks.alloc(ptx_ir::ir::Block {
            insts: vec![j],
            ..Default::default()
        });
        func.layout.insert(pos + 1, new);
    } else {
        func.blocks[block].insts.push(j);
    }
}

/// A new empty block placed after `after` (whose fall-through is kept).
fn new_block_after(func: &mut Function, after: BlockId) -> BlockId {
    let next = func.next_in_layout(after);
    let b = func.blocks.alloc(ptx_ir::ir::Block::default());
    let pos = func.layout_position(after).expect("placed");
    func.layout.insert(pos + 1, b);
    fix_fallthrough(func, after, next);
    b
}

/// The last block of the loop in layout order (copies go after it).
fn loop_end(func: &Function, shape: &LoopShape) -> BlockId {
    last_of_run(func, *shape.blocks.last().expect("a loop has a block"))
}

fn redirect_entries(func: &mut Function, shape: &LoopShape, to: BlockId) {
    for &e in &shape.entries {
        func.redirect_edge(e, shape.header, to);
    }
}

fn full(func: &mut Function, shape: &LoopShape, n: usize) -> Unrolled {
    make_latch_unconditional(func, shape);
    let mut copies: Vec<Copy> = Vec::with_capacity(n);
    let mut cur = loop_end(func, shape);
    for _ in 1..n {
        let c = copy_region(func, shape, cur);
        cur = c.last;
        copies.push(c);
    }
    // Chain: original -> copy 1 -> ... -> exit.
    let mut branches = vec![(shape.branch, shape.latch)];
    let mut heads = Vec::new();
    for c in &copies {
        branches.push((c.branch, c.latch(shape)));
        heads.push(c.header(shape));
    }
    heads.push(shape.exit);
    for (k, &(br, _)) in branches.iter().enumerate() {
        jump(func, br, heads[k]);
    }
    let mut dead = vec![(shape.latch, shape.compare)];
    dead.extend(copies.iter().map(|c| (c.latch(shape), c.compare)));
    drop_compares(func, shape, &dead);
    Unrolled {
        copies: n - 1,
        new_header: None,
    }
}

fn partial_known(func: &mut Function, shape: &LoopShape, n: u64, f: usize) -> Unrolled {
    let test = make_latch_unconditional(func, shape);
    let r = (n % f as u64) as usize;
    let mut cur = loop_end(func, shape);
    let mut main: Vec<Copy> = Vec::new();
    for _ in 1..f {
        let c = copy_region(func, shape, cur);
        cur = c.last;
        main.push(c);
    }
    let mut rem: Vec<Copy> = Vec::new();
    for _ in 0..r {
        let c = copy_region(func, shape, cur);
        cur = c.last;
        rem.push(c);
    }
    // Main loop: original -> copy 1 -> ... -> copy f-1 (test).
    let mut prev = shape.branch;
    for c in &main {
        jump(func, prev, c.header(shape));
        prev = c.branch;
    }
    let last_latch = main.last().map(|c| c.latch(shape)).unwrap_or(shape.latch);
    restore_test(
        func,
        shape,
        &test,
        last_latch,
        prev,
        shape.header,
        shape.exit,
    );
    let mut dead = vec![(shape.latch, shape.compare)];
    dead.extend(main.iter().take(f - 2).map(|c| (c.latch(shape), c.compare)));
    dead.extend(rem.iter().map(|c| (c.latch(shape), c.compare)));
    // Remainder copies run first.
    if let Some(first) = rem.first() {
        let to = first.header(shape);
        for (k, c) in rem.iter().enumerate() {
            let next = rem
                .get(k + 1)
                .map(|n| n.header(shape))
                .unwrap_or(shape.header);
            jump(func, c.branch, next);
        }
        redirect_entries(func, shape, to);
    }
    drop_compares(func, shape, &dead);
    mark_nounroll(func, shape.header);
    Unrolled {
        copies: f - 1 + r,
        new_header: Some(shape.header),
    }
}

fn partial_unknown(
    func: &mut Function,
    shape: &LoopShape,
    f: usize,
    levels: u32,
    iv: &Iv,
    origin: Option<InstId>,
) -> Unrolled {
    let test = make_latch_unconditional(func, shape);
    // Stages: the main chunk loop (f copies), then 2^levels .. 2.
    let mut sizes = vec![f];
    for j in (1..=levels).rev() {
        sizes.push(1usize << j);
    }
    let mut cur = loop_end(func, shape);
    struct Stage {
        check: BlockId,
        fail: InstId,
        copies: Vec<Copy>,
    }
    // A stage a constant limit leaves no room for is dropped.
    sizes.retain(|&n| {
        !matches!(iv.limit, Limit::Imm(_)) || const_stage_limit(iv, n as u32).is_some()
    });
    // Once per entry into the loop: the main stage's shifted limit (the
    // epilogue stages compute theirs in their check blocks, which run at
    // most once per entry and only when the main stage is done).
    let pre = new_block_after(func, cur);
    let main_limit = emit_stage_limit(func, pre, iv, sizes[0] as u32, origin);
    cur = pre;
    let mut stages: Vec<Stage> = Vec::new();
    let mut total = 0;
    for (k, &size) in sizes.iter().enumerate() {
        // Placed right after `pre` (which falls into it) or after the last
        // copy of the previous stage (which ends with a jump).
        let check = func.blocks.alloc(ptx_ir::ir::Block::default());
        let pos = func.layout_position(cur).expect("placed");
        func.layout.insert(pos + 1, check);
        let limit = if k == 0 {
            main_limit
        } else {
            emit_stage_limit(func, check, iv, size as u32, origin)
        };
        let ok = emit_check(func, check, iv, limit, origin);
        cur = check;
        let mut copies = Vec::new();
        for k in 0..size {
            let c = copy_region_at(func, shape, cur, k > 0);
            cur = c.last;
            copies.push(c);
        }
        let fail = func.add_inst(
            Inst {
                guard: Some(Guard {
                    reg: ok,
                    negated: true,
                }),
                opcode: Opcode::new("bra", Vec::new()),
                operands: vec![Operand::Label(shape.header)],
                locs: Default::default(),
                range: Default::default(),
            },
            None,
        );
        func.blocks[check].insts.push(fail);
        total += size;
        // The check falls into the first copy's header.
        let first = copies[0].header(shape);
        fix_fallthrough(func, check, Some(first));
        stages.push(Stage {
            check,
            fail,
            copies,
        });
    }
    let mut after_stage = Vec::new();
    for k in 0..stages.len() {
        after_stage.push(stages.get(k + 1).map(|s| s.check).unwrap_or(shape.header));
    }
    let mut dead = Vec::new();
    for (k, st) in stages.iter().enumerate() {
        let next = after_stage[k];
        let n = st.copies.len();
        dead.extend(
            st.copies
                .iter()
                .take(n - 1)
                .map(|c| (c.latch(shape), c.compare)),
        );
        func.insts[st.fail].operands = vec![Operand::Label(next)];
        for (i, c) in st.copies.iter().enumerate() {
            if let Some(n) = st.copies.get(i + 1) {
                let h = n.header(shape);
                jump(func, c.branch, h);
            } else {
                // The main chunk loops back to its check; a stage of the
                // epilogue goes on to the next stage.
                let cont = if k == 0 { st.check } else { next };
                let latch = c.latch(shape);
                restore_test(func, shape, &test, latch, c.branch, cont, shape.exit);
            }
        }
    }
    // The original loop finishes what the chunks left.
    restore_test(
        func,
        shape,
        &test,
        shape.latch,
        shape.branch,
        shape.header,
        shape.exit,
    );
    let main_check = stages[0].check;
    if func.blocks[pre].insts.is_empty() {
        // Constant limits: nothing to compute on entry.
        func.layout.retain(|&b| b != pre);
        redirect_entries(func, shape, main_check);
    } else {
        redirect_entries(func, shape, pre);
    }
    drop_compares(func, shape, &dead);
    // The loops left (the chunk loop and the original, now the remainder)
    // are marked so that unrolling the output again changes nothing.
    mark_nounroll(func, main_check);
    mark_nounroll(func, shape.header);
    Unrolled {
        copies: total,
        new_header: Some(main_check),
    }
}

fn reg_op(r: RegId) -> Operand {
    Operand::Reg {
        reg: r,
        component: None,
    }
}

fn imm(v: u128) -> Operand {
    Operand::Imm(Imm::new(ImmValue::Int(v as i128)))
}

fn push(
    func: &mut Function,
    block: BlockId,
    name: &str,
    mods: &[String],
    ops: Vec<Operand>,
    origin: Option<InstId>,
) {
    let inst = Inst {
        guard: None,
        opcode: Opcode::new(name, mods.to_vec()),
        operands: ops,
        locs: Default::default(),
        range: Default::default(),
    };
    let i = func.add_inst(inst, origin);
    func.blocks[block].insts.push(i);
}

/// Marks `block` (a loop header the transform leaves) with `.pragma
/// "nounroll"`, as cicc marks the remainder loops it makes: the loop is
/// unrolled already.
fn mark_nounroll(func: &mut Function, block: BlockId) {
    let pragmas = &mut func.blocks[block].pragmas;
    if !pragmas
        .iter()
        .any(|p| p.trim().trim_matches('"').trim() == "nounroll")
    {
        pragmas.push("\"nounroll\"".to_string());
    }
}

/// The direction of the check of an IV (see [`emit_stage_limit`]): the
/// `setp` order, whether the IV ascends, and the signedness.
fn check_order(iv: &Iv) -> (&'static str, bool, bool) {
    let ascending = iv.stride > 0;
    match iv.op {
        CmpOp::Lt => (".lt", true, iv.signed),
        CmpOp::Le => (".le", true, iv.signed),
        CmpOp::Gt => (".gt", false, iv.signed),
        CmpOp::Ge => (".ge", false, iv.signed),
        _ => (if ascending { ".lt" } else { ".gt" }, ascending, true),
    }
}

/// Appends to `block` (run once per entry into the loop) the shifted limit
/// of a stage of `n` copies. The chunk may run from the IV's value `x` when
/// its first `n - 1` exit tests would all go on. Test `j` compares
/// `x + (j + a) * s` (`a` = 1 when the compare reads the incremented IV),
/// so for an ascending IV they all go on when the largest, `x + K` with
/// `K = (n - 2 + a) * |s|`, is below the limit `L` in exact arithmetic:
///
/// ```text
/// x + K < L   <=>   x < L - K,   when L - K does not wrap (L >= min + K);
///                                 never otherwise (x + K >= min + K > L)
/// ```
///
/// (`<=`, and `>`/`>=` descending with `L + K` and `L <= max - K`, alike; a
/// `!=` test uses the signed order in the IV's direction, which is sound:
/// no value up to `x + K` equals `L`.) Returns `(L - K, L >= min + K)` (or
/// the descending pair).
pub fn emit_stage_limit(
    func: &mut Function,
    block: BlockId,
    iv: &Iv,
    n: u32,
    origin: Option<InstId>,
) -> StageLimit {
    let w = iv.width;
    let k = guard_constant(iv, n).unwrap_or(0);
    let (_, ascending, signed) = check_order(iv);
    let limit = match iv.limit {
        Limit::Reg(r) => r,
        Limit::Imm(_) => {
            // Callers drop the stages a constant limit leaves no room for.
            return StageLimit::Const(const_stage_limit(iv, n).unwrap_or(0));
        }
    };
    let ty = format!(".{}{w}", if signed { "s" } else { "u" });
    let k_i = k as i128;
    // The bound the limit must respect for L -/+ K not to wrap.
    let bound: i128 = match (ascending, signed) {
        (true, true) => -(1i128 << (w - 1)) + k_i,
        (true, false) => k_i,
        (false, true) => (1i128 << (w - 1)) - 1 - k_i,
        (false, false) => (1i128 << w) - 1 - k_i,
    };
    let ok = func.new_reg(".pred", None);
    if ascending && signed && k == 0 {
        // `L >= min` always holds (and `-9223372036854775808` is not a
        // literal PTX reads as an integer): `L == L`.
        push(
            func,
            block,
            "setp",
            &[".eq".to_string(), format!(".b{w}")],
            vec![reg_op(ok), reg_op(limit), reg_op(limit)],
            origin,
        );
    } else {
        push(
            func,
            block,
            "setp",
            &[if ascending { ".ge" } else { ".le" }.to_string(), ty],
            vec![
                reg_op(ok),
                reg_op(limit),
                Operand::Imm(Imm::new(ImmValue::Int(bound))),
            ],
            origin,
        );
    }
    let lim = func.new_reg(&format!(".b{w}"), None);
    push(
        func,
        block,
        if ascending { "sub" } else { "add" },
        &[format!(".u{w}")],
        vec![reg_op(lim), reg_op(limit), imm(k)],
        origin,
    );
    StageLimit::Reg { lim, ok }
}

/// A stage's shifted limit: in registers (computed once per entry), or a
/// constant when the loop's limit is an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageLimit {
    Reg { lim: RegId, ok: RegId },
    Const(i128),
}

/// For an immediate limit, `L - K` (ascending) or `L + K` (descending) in
/// the compare's type, `None` when it does not fit (the stage never runs;
/// the type's signed minimum is also refused, as PTX cannot write it as a
/// decimal literal).
pub fn const_stage_limit(iv: &Iv, n: u32) -> Option<i128> {
    let Limit::Imm(v) = iv.limit else {
        return None;
    };
    let w = iv.width;
    let k = guard_constant(iv, n)? as i128;
    let (_, ascending, signed) = check_order(iv);
    let (min, max) = if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let u = v.rem_euclid(1i128 << w);
    let l = if signed && u > max {
        u - (1i128 << w)
    } else {
        u
    };
    let shifted = if ascending { l - k } else { l + k };
    (shifted > min && shifted <= max).then_some(shifted)
}

/// Appends to `block` the check of one chunk: `x op (L -/+ K)` and the
/// shifted limit did not wrap (see [`emit_stage_limit`]). Returns the
/// predicate that is true when the chunk may run.
pub fn emit_check(
    func: &mut Function,
    block: BlockId,
    iv: &Iv,
    limit: StageLimit,
    origin: Option<InstId>,
) -> RegId {
    let w = iv.width;
    let (order, _, signed) = check_order(iv);
    let ty = format!(".{}{w}", if signed { "s" } else { "u" });
    let ok = func.new_reg(".pred", None);
    match limit {
        StageLimit::Reg { lim, ok: lim_ok } => push(
            func,
            block,
            "setp",
            &[order.to_string(), ".and".to_string(), ty],
            vec![reg_op(ok), reg_op(iv.reg), reg_op(lim), reg_op(lim_ok)],
            origin,
        ),
        StageLimit::Const(c) => push(
            func,
            block,
            "setp",
            &[order.to_string(), ty],
            vec![
                reg_op(ok),
                reg_op(iv.reg),
                Operand::Imm(Imm::new(ImmValue::Int(c))),
            ],
            origin,
        ),
    }
    ok
}
