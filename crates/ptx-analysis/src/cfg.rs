//! The control-flow graph of a function: successors and predecessors of every
//! block in the layout, the entry, the reverse post-order of the reachable
//! blocks, the unreachable blocks, and where each instruction sits.
//!
//! Seed: `000_ed667d9feced6e07.txt`, "Loop Representation in Ori IR" (blocks
//! carry predecessor and successor lists; every loop pass walks the blocks in
//! the reverse-post-order array). Successors are
//! [`Function::all_successors`](ptx_ir::ir::Function::all_successors): branch
//! targets, then the fallthrough block.
//!
//! The depth-first search that numbers the blocks visits successors in that
//! order, so the RPO is deterministic. A function with no blocks has no entry.
//!
//! No knobs.

use la_arena::ArenaMap;

use crate::grouped::Grouped;
use ptx_ir::ir::{BlockId, Function, InstId};

/// The control-flow graph; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cfg {
    /// The first block of the layout.
    pub entry: Option<BlockId>,
    /// Every block of the layout, in layout order.
    pub blocks: Vec<BlockId>,
    /// Successors and predecessors by block arena index, each direction in
    /// one vector.
    succs: Grouped<BlockId>,
    preds: Grouped<BlockId>,
    /// The blocks reachable from the entry, in reverse post-order.
    pub rpo: Vec<BlockId>,
    rpo_index: ArenaMap<BlockId, u32>,
    /// Blocks of the layout not reachable from the entry, in layout order.
    pub unreachable: Vec<BlockId>,
    /// Reachable blocks with no successor (`ret`, `exit`, unguarded `trap`, or
    /// the last block of the layout), in layout order.
    pub exits: Vec<BlockId>,
    /// Each placed instruction's block and position in it (one map: a
    /// CFG's positions are made for every version a phase is given).
    inst_at: ArenaMap<InstId, (BlockId, u32)>,
    /// The number of blocks of the function's arena (laid out or not).
    block_count: usize,
}

/// Builds the CFG of `func`.
pub fn cfg(func: &Function) -> Cfg {
    let mut g = block_graph(func);
    g.reserve_positions(func);
    g.renumber(func, &func.layout);
    g
}

/// The CFG of `func` when its block graph is the one `old` was made from:
/// the same number of blocks, the same layout and the same successors of
/// every block (what [`block_graph`] reads), so the predecessors, the
/// reverse post-order, the unreachable blocks and the exits (and whatever
/// is computed from the block graph alone: dominators, loops) are those of
/// `old`; only where each instruction sits is made again. `None` when the
/// block graph differs. A pass that edited instructions without touching
/// branches or the layout gets its CFG for the cost of one look at each
/// block's last instruction.
pub fn cfg_if_same_graph(func: &Function, old: &Cfg) -> Option<Cfg> {
    if func.blocks.len() != old.block_count || func.layout != old.blocks {
        return None;
    }
    let mut succ_list: Vec<BlockId> = Vec::new();
    for (pos, &block) in func.layout.iter().enumerate() {
        succ_list.clear();
        func.push_successors_at(pos, &mut succ_list);
        if succ_list[..] != *old.succs(block) {
            return None;
        }
    }
    let mut g = old.without_positions();
    g.reserve_positions(func);
    g.renumber(func, &func.layout);
    Some(g)
}

/// The CFG of `func` without where each instruction sits
/// ([`Cfg::block_of`] and [`Cfg::position_of`] answer `None`): for
/// analyses of blocks alone (liveness, register pressure), which a pass
/// updating them after each change rebuilds often.
pub fn block_graph(func: &Function) -> Cfg {
    let nb = func.blocks.len();
    let mut in_layout = vec![false; nb];
    for &b in &func.layout {
        in_layout[index(b)] = true;
    }
    // Successors: what `Function::all_successors` lists. Predecessors in
    // layout order of the sources (each edge once: a successor list holds
    // no duplicate), those outside the layout left out.
    let mut succ_list: Vec<BlockId> = Vec::with_capacity(func.layout.len() * 2);
    let mut succ_pairs: Vec<(usize, BlockId)> = Vec::with_capacity(func.layout.len() * 2);
    let mut pred_pairs: Vec<(usize, BlockId)> = Vec::with_capacity(func.layout.len() * 2);
    for (pos, &block) in func.layout.iter().enumerate() {
        succ_list.clear();
        func.push_successors_at(pos, &mut succ_list);
        for &s in &succ_list {
            succ_pairs.push((index(block), s));
            if in_layout[index(s)] {
                pred_pairs.push((index(s), block));
            }
        }
    }
    let succs = Grouped::new(nb, &succ_pairs);
    let preds = Grouped::new(nb, &pred_pairs);
    let entry = func.layout.first().copied();

    // Iterative DFS for the post-order.
    let mut post = Vec::with_capacity(func.layout.len());
    let mut visited: ArenaMap<BlockId, ()> = ArenaMap::default();
    if let Some(e) = entry {
        let mut stack: Vec<(BlockId, usize)> = vec![(e, 0)];
        visited.insert(e, ());
        while let Some((b, i)) = stack.last_mut() {
            let b = *b;
            let list = succs.get(index(b));
            if let Some(&s) = list.get(*i) {
                *i += 1;
                if !visited.contains_idx(s) && in_layout[index(s)] {
                    visited.insert(s, ());
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
    }
    post.reverse();
    let rpo = post;
    let mut rpo_index = ArenaMap::default();
    for (i, &b) in rpo.iter().enumerate() {
        rpo_index.insert(b, i as u32);
    }
    let unreachable = func
        .layout
        .iter()
        .copied()
        .filter(|b| !rpo_index.contains_idx(*b))
        .collect();
    let exits = func
        .layout
        .iter()
        .copied()
        .filter(|&b| rpo_index.contains_idx(b) && succs.get(index(b)).is_empty())
        .collect();
    Cfg {
        entry,
        blocks: func.layout.clone(),
        succs,
        preds,
        rpo,
        rpo_index,
        unreachable,
        exits,
        inst_at: ArenaMap::default(),
        block_count: nb,
    }
}

impl Cfg {
    /// This CFG without where each instruction sits (see [`block_graph`]).
    pub fn without_positions(&self) -> Cfg {
        Cfg {
            entry: self.entry,
            blocks: self.blocks.clone(),
            succs: self.succs.clone(),
            preds: self.preds.clone(),
            rpo: self.rpo.clone(),
            rpo_index: self.rpo_index.clone(),
            unreachable: self.unreachable.clone(),
            exits: self.exits.clone(),
            inst_at: ArenaMap::default(),
            block_count: self.block_count,
        }
    }

    /// Room in the (empty) position map for every instruction of `func`:
    /// it grows to the highest index inserted, a slot at a time otherwise.
    fn reserve_positions(&mut self, func: &Function) {
        self.inst_at.reserve(func.insts.len());
    }

    /// Brings the block and position of every instruction of `blocks` up
    /// to date after a pass moved instructions between them without
    /// changing any block's terminator or the layout (LICM into an existing
    /// preheader): the block graph, and everything computed from it, stays
    /// valid, so the CFG need not be built again.
    pub fn renumber(&mut self, func: &Function, blocks: &[BlockId]) {
        for &b in blocks {
            for (pos, &i) in func.blocks[b].insts.iter().enumerate() {
                self.inst_at.insert(i, (b, pos as u32));
            }
        }
    }

    /// The successors of `block` (empty for a block not in the layout).
    pub fn succs(&self, block: BlockId) -> &[BlockId] {
        self.succs.get(index(block))
    }

    /// The predecessors of `block`, unreachable ones included, in layout order of
    /// the edges' sources.
    pub fn preds(&self, block: BlockId) -> &[BlockId] {
        self.preds.get(index(block))
    }

    /// The position of `block` in [`Cfg::rpo`]; `None` when unreachable.
    pub fn rpo_index(&self, block: BlockId) -> Option<u32> {
        self.rpo_index.get(block).copied()
    }

    pub fn is_reachable(&self, block: BlockId) -> bool {
        self.rpo_index.contains_idx(block)
    }

    /// The block an instruction of the layout is in.
    pub fn block_of(&self, inst: InstId) -> Option<BlockId> {
        self.inst_at.get(inst).map(|&(b, _)| b)
    }

    /// The position of an instruction in its block.
    pub fn position_of(&self, inst: InstId) -> Option<u32> {
        self.inst_at.get(inst).map(|&(_, pos)| pos)
    }

    /// Whether `from -> to` is an edge.
    pub fn has_edge(&self, from: BlockId, to: BlockId) -> bool {
        self.succs(from).contains(&to)
    }

    /// Number of blocks in the layout.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }
}

fn index(b: BlockId) -> usize {
    b.into_raw().into_u32() as usize
}

/// A short name for a block, as the IR dump writes it: `bb3`.
pub fn block_name(block: BlockId) -> String {
    format!("bb{}", block.into_raw().into_u32())
}

/// A short name for an instruction, as the IR dump writes it: `i17`.
pub fn inst_name(inst: InstId) -> String {
    format!("i{}", inst.into_raw().into_u32())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{func, names};

    #[test]
    fn diamond_with_unreachable_block() {
        let f = func(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra A;
             add.s32 %r2, %r1, 1;
             bra J;
           DEAD:
             add.s32 %r2, %r1, 3;
           A:
             add.s32 %r2, %r1, 2;
           J:
             ret;",
        );
        let g = cfg(&f);
        assert_eq!(names(&g.rpo), "bb0 bb1 bb3 bb4");
        assert_eq!(names(&g.unreachable), "bb2");
        assert_eq!(names(&g.exits), "bb4");
        assert_eq!(names(g.succs(g.entry.unwrap())), "bb3 bb1");
        // The unreachable block still counts as a predecessor of A.
        let a = g.blocks[3];
        assert_eq!(names(g.preds(a)), "bb0 bb2");
        assert_eq!(g.rpo_index(g.blocks[2]), None);
        let last = f.blocks[g.blocks[4]].insts[0];
        assert_eq!(g.block_of(last), Some(g.blocks[4]));
        assert_eq!(g.position_of(last), Some(0));
    }

    #[test]
    fn same_graph_is_reused_with_new_positions() {
        let src = "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra A;
             add.s32 %r2, %r1, 1;
             bra J;
           A:
             add.s32 %r2, %r1, 2;
           J:
             ret;";
        let f = func(src);
        let old = cfg(&f);
        // An instruction removed from the entry block: same block graph,
        // other positions.
        let mut g = f.clone();
        let first = g.blocks[g.layout[0]].insts[0];
        g.remove_inst(first);
        let reused = cfg_if_same_graph(&g, &old).expect("same block graph");
        assert_eq!(reused, cfg(&g));
        assert_eq!(reused.block_of(first), None);
        // A branch that no longer jumps: the entry falls through only.
        let mut h = f.clone();
        let bra = h.blocks[h.layout[0]].insts[1];
        h.remove_inst(bra);
        assert_eq!(cfg_if_same_graph(&h, &old), None);
        // A block added to the arena, even outside the layout.
        let mut k = f.clone();
        k.blocks.alloc(ptx_ir::ir::Block::default());
        assert_eq!(cfg_if_same_graph(&k, &old), None);
    }

    #[test]
    fn empty_function_has_no_entry() {
        let f = ptx_ir::ir::Function::new(crate::test_util::sig());
        let g = cfg(&f);
        assert_eq!(g.entry, None);
        assert!(g.rpo.is_empty() && g.is_empty());
    }
}
