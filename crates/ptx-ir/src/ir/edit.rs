//! The mutation API: what passes change a [`Function`] with.
//!
//! - **Registers**: [`Function::new_reg`] and [`Function::clone_reg`] make a
//!   virtual register without a declaration (the emitter declares it on its
//!   own line) whose name clashes with no register, declared name (`%r7` of
//!   `%r<100>`), parameter or local of the function.
//! - **Operands**: [`Operand::map_regs`] rewrites every register of an
//!   operand; [`Inst::map_regs`] every register of an instruction (guard,
//!   addresses, vectors and pairs included), telling the closure whether the
//!   occurrence is written or read ([`Access`], the rules of
//!   [`def_use`](super::def_use)); [`Inst::map_labels`] its branch targets.
//! - **Instructions**: [`Function::add_inst`], [`Function::clone_inst`] and
//!   [`Function::new_mov`] allocate an instruction without placing it; `insert_*` place it (before
//!   or after another, at the start or end of a block, before a block's
//!   terminator); [`Function::remove_inst`] takes it out of its block.
//! - **Blocks**: [`Function::split_block`], [`Function::insert_block_after`],
//!   [`Function::redirect_edge`] (one edge, branch or fall-through),
//!   [`Function::replace_branch_target`] (every branch to a block),
//!   [`Function::clone_region`].
//!
//! # Invariants
//!
//! - **Arenas only grow.** Removing an instruction takes it out of its block;
//!   its arena entry stays, referenced by no block (dead storage, like a block
//!   that is not in the layout). Ids are never reused, so a map keyed by ids
//!   stays meaningful across edits. Removing a block means taking it out of
//!   [`Function::layout`].
//! - **Control flow is kept where the API moves blocks.** Every operation that
//!   changes which block follows another in the layout
//!   ([`Function::insert_block_after`], [`Function::clone_region`],
//!   [`Function::redirect_edge`]) adds an explicit `bra` (or, for falling off
//!   the end of the function, a `ret`) wherever a fall-through would otherwise
//!   go somewhere new. When the block that falls through ends with a guarded
//!   terminator (`@%p bra`), which must stay last, the `bra` goes into a new
//!   block of its own placed right after it.
//! - **Labels.** A new block has no label (`None`); the emitter names it
//!   (`$L__ir_bb<N>`, clashing with no label) when something branches to it.
//!   Copies of labeled blocks get a fresh label ([`Function::fresh_label`]).
//! - **Origins.** A clone keeps the origin of what it copies
//!   ([`Function::origins`]); a moved instruction keeps its id and so its
//!   origin; [`Function::add_inst`] takes the origin to give.
//! - **Nothing panics.** Ids that are not in their arena, or instructions and
//!   blocks that are not placed, make an operation return `None`/`false` and
//!   change nothing.
//!
//! The helpers that find where an instruction is ([`Function::inst_position`])
//! scan the layout; a pass doing many edits should keep its own positions
//! ([`Function::inst_blocks`] gives every instruction's block in one pass) and
//! use [`Function::insert_at`].

use la_arena::ArenaMap;
use rustc_hash::{FxHashMap, FxHashSet};

use super::block::{Block, BlockId};
use super::def_use::{visit_defs_and_uses, writes_first_operand, Access};
use super::function::{Function, LocalDecl};
use super::inst::{Inst, InstId, Opcode};
use super::operand::{Address, AddressBase, Operand};
use super::reg::{Reg, RegClass, RegDecl, RegId};

impl Operand {
    /// Rewrites every register in the operand with `f` (the base of an
    /// address, the items of vectors, lists and pairs, negated predicates and
    /// `%r+4` included).
    pub fn map_regs(&mut self, f: &mut impl FnMut(RegId) -> RegId) {
        match self {
            Operand::Reg { reg, .. }
            | Operand::NegPred(reg)
            | Operand::NegReg { reg, .. }
            | Operand::RegOffset { reg, .. } => *reg = f(*reg),
            Operand::Address(Address {
                base: AddressBase::Reg(reg),
                ..
            }) => *reg = f(*reg),
            Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
                items.iter_mut().for_each(|op| op.map_regs(f))
            }
            Operand::PredPair(a, b) => {
                a.map_regs(f);
                b.map_regs(f);
            }
            _ => {}
        }
    }
}

impl Inst {
    /// Rewrites every register of the instruction with `f`, which is told
    /// whether the occurrence is written ([`Access::Def`]) or read
    /// ([`Access::Use`]) by the rules of [`def_use`](super::def_use). An
    /// occurrence that is both (a partial write `%r1.h0`, the accumulator of
    /// `wgmma.mma_async`) is one operand and is mapped once, as a def. The
    /// guard is a use.
    pub fn map_regs(&mut self, mut f: impl FnMut(Access, RegId) -> RegId) {
        if let Some(guard) = &mut self.guard {
            guard.reg = f(Access::Use, guard.reg);
        }
        let writes = matches!(
            self.operands.first(),
            Some(
                Operand::Reg { .. }
                    | Operand::Vector(_)
                    | Operand::ArgList(_)
                    | Operand::PredPair(..)
            )
        ) && writes_first_operand(self);
        for (k, op) in self.operands.iter_mut().enumerate() {
            if k == 0 && writes {
                map_dest(op, &mut f);
            } else {
                op.map_regs(&mut |r| f(Access::Use, r));
            }
        }
    }

    /// Rewrites every label operand (branch target) with `f`.
    pub fn map_labels(&mut self, mut f: impl FnMut(BlockId) -> BlockId) {
        self.operands
            .iter_mut()
            .for_each(|op| op.map_labels(&mut f));
    }
}

/// The destination rule of [`visit_defs_and_uses`], mapping.
fn map_dest(op: &mut Operand, f: &mut impl FnMut(Access, RegId) -> RegId) {
    match op {
        Operand::Reg { reg, .. } => *reg = f(Access::Def, *reg),
        Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter_mut().for_each(|item| map_dest(item, f))
        }
        Operand::PredPair(a, b) => {
            map_dest(a, f);
            map_dest(b, f);
        }
        other => other.map_regs(&mut |r| f(Access::Use, r)),
    }
}

/// What [`Function::clone_region`] made: each original block, instruction and
/// register written in the region, with its copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionClone {
    /// Original block to copy, for every block of the region.
    pub blocks: FxHashMap<BlockId, BlockId>,
    /// Original instruction to copy, for every instruction of the region.
    pub insts: FxHashMap<InstId, InstId>,
    /// Original register to fresh register, for every register an
    /// instruction of the region writes.
    pub regs: FxHashMap<RegId, RegId>,
    /// The copies in layout order (the order of the region as given).
    pub order: Vec<BlockId>,
    /// Blocks the cloner added to keep fall-throughs (each holds one `bra` or
    /// `ret`), in layout order.
    pub jump_blocks: Vec<BlockId>,
}

impl Function {
    // ------------------------------------------------------------ validity

    /// Whether `b` is in the block arena.
    pub fn has_block(&self, b: BlockId) -> bool {
        (b.into_raw().into_u32() as usize) < self.blocks.len()
    }

    /// Whether `i` is in the instruction arena.
    pub fn has_inst(&self, i: InstId) -> bool {
        (i.into_raw().into_u32() as usize) < self.insts.len()
    }

    /// Whether `r` is in the register arena.
    pub fn has_reg(&self, r: RegId) -> bool {
        (r.into_raw().into_u32() as usize) < self.regs.len()
    }

    /// The position of `b` in the layout.
    pub fn layout_position(&self, b: BlockId) -> Option<usize> {
        self.layout.iter().position(|&x| x == b)
    }

    /// The block of the layout holding `i`, and its index in that block
    /// (scans the layout).
    pub fn inst_position(&self, i: InstId) -> Option<(BlockId, usize)> {
        self.layout.iter().find_map(|&b| {
            let block = self.blocks_get(b)?;
            block.insts.iter().position(|&x| x == i).map(|pos| (b, pos))
        })
    }

    /// The block of the layout holding each placed instruction, computed in
    /// one pass (for passes that look up many instructions; see
    /// [`Function::inst_position`] for one).
    pub fn inst_blocks(&self) -> ArenaMap<InstId, BlockId> {
        let mut map = ArenaMap::with_capacity(self.insts.len());
        for &b in &self.layout {
            if let Some(block) = self.blocks_get(b) {
                for &i in block.insts.iter().filter(|&&i| self.has_inst(i)) {
                    map.insert(i, b);
                }
            }
        }
        map
    }

    fn blocks_get(&self, b: BlockId) -> Option<&Block> {
        self.has_block(b).then(|| &self.blocks[b])
    }

    // ------------------------------------------------------------ registers

    /// A fresh virtual register of type `ty` (`".b32"`, `".pred"`) with an
    /// optional vector width. It has no declaration (the emitter declares it
    /// alone); its name (`%ir_r12`, `%ir_p3`, `%ir_rd5`, `%ir_h2`, `%ir_q1`
    /// by register class) clashes with nothing in the function.
    pub fn new_reg(&mut self, ty: &str, vector: Option<u32>) -> RegId {
        self.new_reg_of(ty.into(), vector)
    }

    /// [`Function::new_reg`] with the type text shared (no copy).
    fn new_reg_of(&mut self, ty: std::sync::Arc<str>, vector: Option<u32>) -> RegId {
        let class = RegClass::of(&ty, vector);
        let prefix = match class {
            RegClass::P => "%ir_p",
            RegClass::R16 => "%ir_h",
            RegClass::R => "%ir_r",
            RegClass::R64 => "%ir_rd",
            RegClass::R128 => "%ir_q",
        };
        let name = self.fresh_reg_name(prefix, self.regs.len());
        self.regs.alloc(Reg {
            name: name.into(),
            ty,
            vector,
            class,
            decl: None,
            index: None,
        })
    }

    /// A fresh register of the type of `r` (see [`Function::new_reg`]);
    /// `None` if `r` is not in the register arena.
    pub fn clone_reg(&mut self, r: RegId) -> Option<RegId> {
        if !self.has_reg(r) {
            return None;
        }
        let (ty, vector) = (self.regs[r].ty.clone(), self.regs[r].vector);
        Some(self.new_reg_of(ty, vector))
    }

    /// Drops the registers made after the first `n` (what an edit that is
    /// given up added; nothing may refer to them any more).
    pub fn truncate_regs(&mut self, n: usize) {
        if self.regs.len() > n {
            let regs = std::mem::take(&mut *self.regs);
            *self.regs = regs.into_iter().take(n).map(|(_, r)| r).collect();
        }
    }

    /// `{prefix}{n}`, or `{prefix}{n}_{k}` for the first `k` that is free.
    fn fresh_reg_name(&self, prefix: &str, n: usize) -> String {
        let taken = |name: &str| {
            self.regs
                .values()
                .any(|r| r.decl.is_none() && *r.name == *name)
                || self.reg_decls.values().any(|d| declares(d, name))
                || self
                    .sig
                    .params
                    .iter()
                    .chain(self.sig.ret_params.iter().flatten())
                    .any(|p| p.name == name)
                || self.locals.iter().any(|l| l.names().contains(&name))
        };
        let mut name = format!("{prefix}{n}");
        let mut k = 0;
        while taken(&name) {
            k += 1;
            name = format!("{prefix}{n}_{k}");
        }
        name
    }

    // --------------------------------------------------------- instructions

    /// A new unplaced copy `mov dst, src` (`mov.pred`, `mov.b16`, `mov.b32`,
    /// `mov.b64` or `mov.b128` by register class), with no origin. `None` if
    /// a register is not in the arena, the classes differ, or either is a
    /// vector register.
    pub fn new_mov(&mut self, dst: RegId, src: RegId) -> Option<InstId> {
        if !self.has_reg(dst) || !self.has_reg(src) {
            return None;
        }
        let (d, s) = (&self.regs[dst], &self.regs[src]);
        if d.class != s.class || d.vector.is_some() || s.vector.is_some() {
            return None;
        }
        let ty = match d.class {
            RegClass::P => ".pred",
            RegClass::R16 => ".b16",
            RegClass::R => ".b32",
            RegClass::R64 => ".b64",
            RegClass::R128 => ".b128",
        };
        let inst = Inst {
            guard: None,
            opcode: Opcode::new("mov", vec![ty.to_string()]),
            operands: vec![
                Operand::Reg {
                    reg: dst,
                    component: None,
                },
                Operand::Reg {
                    reg: src,
                    component: None,
                },
            ],
            locs: Default::default(),
            range: Default::default(),
        };
        Some(self.add_inst(inst, None))
    }

    /// Allocates `inst` (not placed in any block) with the given origin (the
    /// lowered instruction it stands for, or `None`).
    pub fn add_inst(&mut self, inst: Inst, origin: Option<InstId>) -> InstId {
        let id = self.insts.alloc(inst);
        self.set_origin(id, origin);
        id
    }

    /// A copy of instruction `i` (not placed in any block), with the same
    /// origin; `None` if `i` is not in the arena.
    pub fn clone_inst(&mut self, i: InstId) -> Option<InstId> {
        if !self.has_inst(i) {
            return None;
        }
        let copy = self.insts[i].clone();
        let origin = self.origin(i);
        Some(self.add_inst(copy, origin))
    }

    /// Places `inst` at `index` of `block` (clamped to the block's length).
    /// False (nothing done) if either id is not in its arena.
    pub fn insert_at(&mut self, block: BlockId, index: usize, inst: InstId) -> bool {
        if !self.has_block(block) || !self.has_inst(inst) {
            return false;
        }
        let insts = &mut self.blocks[block].insts;
        insts.insert(index.min(insts.len()), inst);
        true
    }

    /// Places `inst` right before `anchor` (in `anchor`'s block of the
    /// layout). False if `anchor` is not placed.
    pub fn insert_before(&mut self, anchor: InstId, inst: InstId) -> bool {
        match self.inst_position(anchor) {
            Some((b, pos)) => self.insert_at(b, pos, inst),
            None => false,
        }
    }

    /// Places `inst` right after `anchor`. False if `anchor` is not placed.
    /// (After a terminator is not a valid place: the verifier reports it.)
    pub fn insert_after(&mut self, anchor: InstId, inst: InstId) -> bool {
        match self.inst_position(anchor) {
            Some((b, pos)) => self.insert_at(b, pos + 1, inst),
            None => false,
        }
    }

    /// Places `inst` first in `block`.
    pub fn insert_at_start(&mut self, block: BlockId, inst: InstId) -> bool {
        self.insert_at(block, 0, inst)
    }

    /// Places `inst` last in `block` (after its terminator, if it has one:
    /// use [`Function::insert_before_terminator`] to add code to a block).
    pub fn insert_at_end(&mut self, block: BlockId, inst: InstId) -> bool {
        self.insert_at(block, usize::MAX, inst)
    }

    /// Places `inst` last in `block`, but before its terminator (`bra`,
    /// `brx.idx`, `ret`, `exit`, `trap`, guarded or not) if it ends with one.
    pub fn insert_before_terminator(&mut self, block: BlockId, inst: InstId) -> bool {
        let Some(b) = self.blocks_get(block) else {
            return false;
        };
        let ends_with_terminator = b
            .insts
            .last()
            .is_some_and(|&l| self.has_inst(l) && self.insts[l].is_terminator());
        let index = b.insts.len() - usize::from(ends_with_terminator);
        self.insert_at(block, index, inst)
    }

    /// Takes `inst` out of its block of the layout and returns that block;
    /// `None` if it is not placed. The instruction stays in the arena (and
    /// keeps its origin), referenced by no block, so it can be placed again
    /// (a move) or left as dead storage.
    pub fn remove_inst(&mut self, inst: InstId) -> Option<BlockId> {
        let (b, pos) = self.inst_position(inst)?;
        self.blocks[b].insts.remove(pos);
        Some(b)
    }

    // --------------------------------------------------------------- blocks

    /// A label for a new block, `{base}_c{N}` for the first `N` that no block
    /// has.
    pub fn fresh_label(&self, base: &str) -> String {
        let taken: FxHashSet<&str> = self
            .blocks
            .values()
            .filter_map(|b| b.label.as_deref())
            .collect();
        let mut n = self.blocks.len();
        loop {
            let label = format!("{base}_c{n}");
            if !taken.contains(label.as_str()) {
                return label;
            }
            n += 1;
        }
    }

    /// Splits the block holding `at`: `at` and the instructions after it move
    /// to a new unlabeled block placed right after in the layout, which the
    /// old block falls through to (so behaviour is unchanged). Returns the
    /// new block; `None` if `at` is not placed.
    pub fn split_block(&mut self, at: InstId) -> Option<BlockId> {
        let (b, pos) = self.inst_position(at)?;
        let layout_pos = self.layout_position(b)?;
        let tail = self.blocks[b].insts.split_off(pos);
        let new = self.blocks.alloc(Block {
            insts: tail,
            ..Block::default()
        });
        self.layout.insert(layout_pos + 1, new);
        Some(new)
    }

    /// Inserts a new empty unlabeled block right after `after` in the layout
    /// and returns it. The new block falls through to the block that followed
    /// `after`. If `after` could fall through, it now would fall into the new
    /// block, so an explicit `bra` to its old successor (a `ret` if it fell
    /// off the end of the function) is added to it, or to a block of its own
    /// right after it when `after` ends with a guarded terminator (see the
    /// module documentation). `None` if `after` is not in the layout.
    pub fn insert_block_after(&mut self, after: BlockId) -> Option<BlockId> {
        let pos = self.layout_position(after)?;
        if !self.has_block(after) {
            return None;
        }
        let old_next = self.layout.get(pos + 1).copied();
        let new = self.blocks.alloc(Block::default());
        self.layout.insert(pos + 1, new);
        self.keep_fallthrough(after, old_next);
        Some(new)
    }

    /// Whether control can fall through the end of `block` (it is empty or
    /// its last instruction is not an unguarded `bra`/`brx.idx`/`ret`/`exit`/
    /// `trap`).
    pub fn falls_through(&self, block: BlockId) -> bool {
        let Some(b) = self.blocks_get(block) else {
            return false;
        };
        match b.insts.last() {
            Some(&i) if self.has_inst(i) => self.insts[i].can_fall_through(),
            _ => true,
        }
    }

    /// Makes `block` (in the layout) continue to `target` when it falls
    /// through (`None`: the end of the function), adding a `bra`/`ret` if
    /// the block that now follows it is not `target`. Returns the jump block
    /// added, if one was needed.
    fn keep_fallthrough(&mut self, block: BlockId, target: Option<BlockId>) -> Option<BlockId> {
        if !self.falls_through(block) {
            return None;
        }
        let pos = self.layout_position(block)?;
        if self.layout.get(pos + 1).copied() == target {
            return None;
        }
        let jump = self.jump_to(target);
        let guarded_end = self.blocks[block]
            .insts
            .last()
            .is_some_and(|&l| self.has_inst(l) && self.insts[l].is_terminator());
        if guarded_end {
            let new = self.blocks.alloc(Block {
                insts: vec![jump],
                ..Block::default()
            });
            self.layout.insert(pos + 1, new);
            Some(new)
        } else {
            self.blocks[block].insts.push(jump);
            None
        }
    }

    /// A new unplaced `bra target` (or `ret` for `None`), with no origin.
    fn jump_to(&mut self, target: Option<BlockId>) -> InstId {
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
        self.add_inst(inst, None)
    }

    /// Makes the edge `from -> to_old` of block `from` go to `to_new`
    /// instead: branch targets of its last instruction that are `to_old`
    /// become `to_new`, and if `from` falls through to `to_old`, a `bra
    /// to_new` is added (in a block of its own after `from` when `from` ends
    /// with a guarded branch). A `brx.idx` edge (its `.branchtargets` list is
    /// shared) is not redirected. Returns whether anything changed.
    pub fn redirect_edge(&mut self, from: BlockId, to_old: BlockId, to_new: BlockId) -> bool {
        if to_old == to_new || !self.has_block(from) || self.layout_position(from).is_none() {
            return false;
        }
        let mut changed = false;
        if let Some(&last) = self.blocks[from].insts.last() {
            if self.has_inst(last) && self.insts[last].opcode.name == "bra" {
                self.insts[last].map_labels(|b| {
                    if b == to_old {
                        changed = true;
                        to_new
                    } else {
                        b
                    }
                });
            }
        }
        if self.falls_through(from) && self.next_in_layout(from) == Some(to_old) {
            // Falls into `to_old`: jump to `to_new` instead.
            let jump = self.jump_to(Some(to_new));
            let guarded_end = self.blocks[from]
                .insts
                .last()
                .is_some_and(|&l| self.has_inst(l) && self.insts[l].is_terminator());
            if guarded_end {
                let new = self.blocks.alloc(Block {
                    insts: vec![jump],
                    ..Block::default()
                });
                if let Some(pos) = self.layout_position(from) {
                    self.layout.insert(pos + 1, new);
                }
            } else {
                self.blocks[from].insts.push(jump);
            }
            changed = true;
        }
        changed
    }

    /// Makes every branch to `from` go to `to`: the label operands of every
    /// placed instruction and the `.branchtargets` lists. Fall-throughs into
    /// `from` are not changed (see [`Function::redirect_edge`]). Returns the
    /// number of targets rewritten.
    pub fn replace_branch_target(&mut self, from: BlockId, to: BlockId) -> usize {
        let mut count = 0;
        let placed: Vec<InstId> = self
            .layout
            .iter()
            .filter(|&&b| self.has_block(b))
            .flat_map(|&b| self.blocks[b].insts.iter().copied())
            .filter(|&i| self.has_inst(i))
            .collect();
        for i in placed {
            self.insts[i].map_labels(|b| {
                if b == from {
                    count += 1;
                    to
                } else {
                    b
                }
            });
        }
        for local in &mut self.locals {
            if let LocalDecl::BranchTargets { targets, .. } = local {
                for t in targets.iter_mut().filter(|t| **t == from) {
                    *t = to;
                    count += 1;
                }
            }
        }
        count
    }

    /// Copies the blocks of `region` (blocks of the layout, each once) and
    /// places the copies right after `after` (a block of the layout not in
    /// the region), in the order given. In the copy:
    ///
    /// - every register that an instruction of the region writes is replaced
    ///   by a fresh register of the same type ([`Function::clone_reg`]), at
    ///   every def *and use* in the copy (so the copy computes in registers of
    ///   its own; a value the region reads before writing it, a loop-carried
    ///   one, must be copied into the fresh register by the caller, and a
    ///   value live after the copy copied back: see
    ///   [`RegionClone::regs`]); registers only read are shared;
    /// - branches to blocks of the region go to their copies, branches
    ///   elsewhere are kept;
    /// - labeled blocks get fresh labels, unlabeled ones stay unlabeled;
    /// - instructions keep their origins;
    /// - a copy whose original falls through continues where the original
    ///   did (to the copy of its successor if that is in the region),
    ///   through an added `bra`/`ret` where the layout differs; `after` keeps
    ///   its fall-through the same way.
    ///
    /// `after` may be in the region (unrolling places the copy of a loop body
    /// right after the body). `None` (nothing changed) if a block is not in
    /// the layout or is listed twice, or the region holds a `brx.idx` (its
    /// `.branchtargets` list cannot be remapped).
    pub fn clone_region(&mut self, region: &[BlockId], after: BlockId) -> Option<RegionClone> {
        let after_pos = self.layout_position(after)?;
        if !self.has_block(after) {
            return None;
        }
        let mut seen = FxHashSet::default();
        for &b in region {
            if !seen.insert(b) || !self.has_block(b) || self.layout_position(b).is_none() {
                return None;
            }
            for &i in &self.blocks[b].insts {
                if !self.has_inst(i) || self.insts[i].opcode.name == "brx" {
                    return None;
                }
            }
        }
        let after_next = self.layout.get(after_pos + 1).copied();
        let mut clone = RegionClone::default();
        // Fresh registers for everything the region writes.
        let mut written = Vec::new();
        for &b in region {
            for &i in &self.blocks[b].insts {
                visit_defs_and_uses(&self.insts[i], |access, r| {
                    if access == Access::Def {
                        written.push(r);
                    }
                });
            }
        }
        for r in written {
            if clone.regs.contains_key(&r) {
                continue;
            }
            if let Some(fresh) = self.clone_reg(r) {
                clone.regs.insert(r, fresh);
            }
        }
        // Blocks.
        for &b in region {
            let orig = &self.blocks[b];
            let label = orig.label.as_deref().map(|l| self.fresh_label(l));
            let block = Block {
                label,
                insts: Vec::new(),
                pragmas: orig.pragmas.clone(),
                pragma_alone: orig.pragma_alone,
                // A copy is not the block the user annotated (a remainder
                // loop must not be unrolled again by the same annotation).
                annotations: Vec::new(),
                rpo_index: None,
                loop_depth: None,
            };
            let copy = self.blocks.alloc(block);
            clone.blocks.insert(b, copy);
            clone.order.push(copy);
        }
        // Instructions.
        for &b in region {
            let copy_block = clone.blocks[&b];
            for k in 0..self.blocks[b].insts.len() {
                let i = self.blocks[b].insts[k];
                let Some(copy) = self.clone_inst(i) else {
                    continue;
                };
                let inst = &mut self.insts[copy];
                inst.map_regs(|_, r| clone.regs.get(&r).copied().unwrap_or(r));
                inst.map_labels(|t| clone.blocks.get(&t).copied().unwrap_or(t));
                self.blocks[copy_block].insts.push(copy);
                clone.insts.insert(i, copy);
            }
        }
        // Where each copy must continue when it falls through.
        let intended: Vec<(BlockId, Option<BlockId>)> = region
            .iter()
            .filter(|&&b| self.falls_through(b))
            .map(|&b| {
                let next = self.next_in_layout(b);
                let target = next.map(|n| clone.blocks.get(&n).copied().unwrap_or(n));
                (clone.blocks[&b], target)
            })
            .collect();
        // Layout: the copies right after `after`.
        let tail = self.layout.split_off(after_pos + 1);
        self.layout.extend(clone.order.iter().copied());
        self.layout.extend(tail);
        for (copy, target) in intended {
            clone
                .jump_blocks
                .extend(self.keep_fallthrough(copy, target));
        }
        clone
            .jump_blocks
            .extend(self.keep_fallthrough(after, after_next));
        Some(clone)
    }
}

/// Whether declaration `d` declares a register named `name` (`%r7` of
/// `%r<100>`, or the plain name).
pub(crate) fn declares(d: &RegDecl, name: &str) -> bool {
    match d.count {
        None => d.name == name,
        Some(count) => name
            .strip_prefix(d.name.as_str())
            .filter(|digits| {
                !digits.is_empty()
                    && digits.bytes().all(|c| c.is_ascii_digit())
                    && (digits.len() == 1 || !digits.starts_with('0'))
            })
            .and_then(|digits| digits.parse::<u64>().ok())
            .is_some_and(|n| n < u64::from(count)),
    }
}
