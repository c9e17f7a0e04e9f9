//! Basic blocks and control-flow successors.
//!
//! Lowering starts a block at every label and after every `bra`, `brx.idx`,
//! `ret`, `exit` and `trap` (guarded or not), and at a statement-level `.pragma`
//! that follows instructions of the current block (so a block's pragmas are
//! always at its start). Successors are derived, not stored: the branch targets
//! of the last instruction plus the next block of the layout when control can
//! fall through.

use la_arena::{ArenaMap, Idx};
use ptx_isa::FamilyId;

use super::function::Function;
use super::inst::InstId;
use super::operand::Operand;

/// Id of a block in [`Function::blocks`](super::Function::blocks).
pub type BlockId = Idx<Block>;

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Block {
    /// The label as written in the source (`$L__BB0_2`); `None` for blocks that
    /// start after a branch, which the emitter labels only if something branches
    /// to them.
    pub label: Option<String>,
    pub insts: Vec<InstId>,
    /// Statement-level `.pragma` texts (`"nounroll"`) at the start of the block.
    pub pragmas: Vec<String>,
    /// The block's pragmas were alone in the source: a label came right
    /// after them (`$L__BB0_2: .pragma "nounroll"; $L__tmp3: ...`, what
    /// nvcc writes with `-lineinfo`), so the source block held nothing
    /// else. ptxas 13.0.88 drops such a block with its pragma in some
    /// modules (docs/loop-unrolling.md); phase 22 says so where it honours
    /// the pragma. Moves with `pragmas`.
    pub pragma_alone: bool,
    /// `ptxopt:` comment annotations that belong to this block (the text
    /// after `ptxopt:`, trimmed: `"unroll 4"`, `"nounroll"`): a comment on the
    /// line of the block's label or of one of its instructions, or on its
    /// own line directly above the label (see `lower::function`). PTX has no
    /// `#pragma unroll N`; the cicc loop unroller reads it from here.
    pub annotations: Vec<String>,
    /// Reverse-postorder index, filled by analyses.
    pub rpo_index: Option<u32>,
    /// Loop nesting depth, filled by analyses.
    pub loop_depth: Option<u32>,
}

impl Function {
    /// The block after `block` in the layout (where control falls through to).
    pub fn next_in_layout(&self, block: BlockId) -> Option<BlockId> {
        let pos = self.layout.iter().position(|&b| b == block)?;
        self.layout.get(pos + 1).copied()
    }

    /// The successors of `block`: branch targets of its last instruction (the
    /// labels of `bra`, the `.branchtargets` list of `brx.idx`), then the
    /// fallthrough block when control can fall through (no last instruction, or
    /// one that is not an unguarded `bra`/`brx.idx`/`ret`/`exit`/`trap`).
    /// Duplicates are removed, order is kept.
    pub fn successors(&self, block: BlockId) -> Vec<BlockId> {
        let mut succs = Vec::new();
        let last = self.blocks[block].insts.last().map(|&i| &self.insts[i]);
        if let Some(inst) = last {
            succs.extend(self.branch_targets_of(inst));
            if !inst.can_fall_through() {
                dedup_in_order(&mut succs);
                return succs;
            }
        }
        succs.extend(self.next_in_layout(block));
        dedup_in_order(&mut succs);
        succs
    }

    /// The successors of every block in the layout, computed in one pass (use
    /// this rather than [`Function::successors`] per block when walking the whole
    /// CFG: finding a block's fallthrough scans the layout).
    pub fn all_successors(&self) -> ArenaMap<BlockId, Vec<BlockId>> {
        let mut map = ArenaMap::default();
        for (pos, &block) in self.layout.iter().enumerate() {
            let mut succs = Vec::with_capacity(2);
            self.push_successors_at(pos, &mut succs);
            map.insert(block, succs);
        }
        map
    }

    /// Appends to `out` the successors of the block at position `pos` of
    /// the layout, each once: its branch targets in operand order, then the
    /// next block when control can fall through (what
    /// [`Function::all_successors`] lists; for a caller that keeps every
    /// block's list in one vector).
    pub fn push_successors_at(&self, pos: usize, out: &mut Vec<BlockId>) {
        let first = out.len();
        let mut push = |b: BlockId| {
            if !out[first..].contains(&b) {
                out.push(b);
            }
        };
        let last = self.blocks[self.layout[pos]]
            .insts
            .last()
            .map(|&i| &self.insts[i]);
        if let Some(inst) = last {
            self.for_each_branch_target(inst, &mut push);
        }
        if last.is_none_or(|inst| inst.can_fall_through()) {
            if let Some(&next) = self.layout.get(pos + 1) {
                push(next);
            }
        }
    }

    /// The blocks a `bra` or `brx.idx` can jump to (empty for other instructions).
    pub fn branch_targets_of(&self, inst: &super::Inst) -> Vec<BlockId> {
        let mut targets = Vec::new();
        self.for_each_branch_target(inst, |b| targets.push(b));
        targets
    }

    /// Calls `f` on each block a `bra` or `brx.idx` can jump to, in operand
    /// order (nothing for other instructions), without allocating.
    pub fn for_each_branch_target(&self, inst: &super::Inst, mut f: impl FnMut(BlockId)) {
        match inst.opcode.info.family {
            FamilyId::Bra => inst.operands.iter().for_each(|op| {
                if let Operand::Label(b) = op {
                    f(*b)
                }
            }),
            FamilyId::BrxIdx => inst.operands.iter().for_each(|op| {
                if let Operand::Symbol { name, .. } = op {
                    self.branch_targets(name)
                        .into_iter()
                        .flatten()
                        .for_each(|&b| f(b))
                }
            }),
            _ => {}
        }
    }
}

/// Drops repeated blocks, keeping the first of each (lists are short: a
/// quadratic scan in place, no allocation).
fn dedup_in_order(blocks: &mut Vec<BlockId>) {
    let mut kept = 0;
    for i in 0..blocks.len() {
        let b = blocks[i];
        if !blocks[..kept].contains(&b) {
            blocks[kept] = b;
            kept += 1;
        }
    }
    blocks.truncate(kept);
}
