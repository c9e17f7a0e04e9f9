//! Dominator and post-dominator trees, dominance queries and dominance
//! frontiers.
//!
//! Seed: `001_3e9d45dd172cfaf4.txt`, "Phase 49 -- GvnCse" → "Full GVN Body"
//! (GvnCse builds the dominator tree together with the RPO, sub_7846D0, and
//! scopes values by dominance), and `000_ed667d9feced6e07.txt`, "Loop
//! Representation in Ori IR" (back edges are edges to a dominating header).
//!
//! Algorithm: Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm"
//! (iterate `idom` over the RPO until it is stable). The post-dominator tree is
//! the same algorithm on the reversed CFG from a virtual exit that every exit
//! block (no successors) flows to; it is a forest whose roots are the blocks
//! immediately post-dominated by the virtual exit. Blocks that cannot reach an
//! exit (an infinite loop) and unreachable blocks are not in the post-dominator
//! tree; unreachable blocks are not in the dominator tree.
//!
//! Queries are O(1) via pre/post numbers of a walk of the tree.
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::BlockId;

use crate::cfg::Cfg;

/// A dominator (or post-dominator) forest over the blocks of a [`Cfg`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DomTree {
    idom: ArenaMap<BlockId, BlockId>,
    /// Blocks with no immediate dominator that are in the tree: the entry for
    /// dominators; the blocks post-dominated directly by the virtual exit for
    /// post-dominators. In the order of the algorithm's walk.
    pub roots: Vec<BlockId>,
    children: ArenaMap<BlockId, Vec<BlockId>>,
    pre: ArenaMap<BlockId, u32>,
    post: ArenaMap<BlockId, u32>,
    depth: ArenaMap<BlockId, u32>,
}

impl DomTree {
    /// The immediate dominator (post-dominator) of `block`; `None` for roots and
    /// for blocks not in the tree.
    pub fn idom(&self, block: BlockId) -> Option<BlockId> {
        self.idom.get(block).copied()
    }

    /// Whether `block` is in the tree (reachable, or for post-dominators able to
    /// reach an exit).
    pub fn contains(&self, block: BlockId) -> bool {
        self.pre.contains_idx(block)
    }

    /// Whether `a` dominates `b` (reflexive). False when either is not in the
    /// tree.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        match (
            self.pre.get(a),
            self.post.get(a),
            self.pre.get(b),
            self.post.get(b),
        ) {
            (Some(pa), Some(qa), Some(pb), Some(qb)) => pa <= pb && qb <= qa,
            _ => false,
        }
    }

    /// Whether `a` dominates `b` and `a != b`.
    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The blocks `block` immediately dominates, in the algorithm's order.
    pub fn children(&self, block: BlockId) -> &[BlockId] {
        self.children.get(block).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Depth in the tree (roots are 0).
    pub fn depth(&self, block: BlockId) -> Option<u32> {
        self.depth.get(block).copied()
    }

    /// The nearest common dominator of `a` and `b`, if they share a tree.
    pub fn common_dominator(&self, mut a: BlockId, mut b: BlockId) -> Option<BlockId> {
        let (mut da, mut db) = (self.depth(a)?, self.depth(b)?);
        while da > db {
            a = self.idom(a)?;
            da -= 1;
        }
        while db > da {
            b = self.idom(b)?;
            db -= 1;
        }
        while a != b {
            a = self.idom(a)?;
            b = self.idom(b)?;
        }
        Some(a)
    }

    /// The blocks of the tree in pre-order (a block before those it dominates).
    pub fn preorder(&self) -> Vec<BlockId> {
        let mut out = Vec::new();
        let mut stack: Vec<BlockId> = self.roots.iter().rev().copied().collect();
        while let Some(b) = stack.pop() {
            out.push(b);
            stack.extend(self.children(b).iter().rev());
        }
        out
    }
}

/// Cooper-Harvey-Kennedy over dense nodes `0..n`: `order` is an RPO from `root`
/// (which is `order[0]`), `preds[v]` the predecessors. Returns `idom[v]`
/// (`idom[root] == root`; `None` for nodes not in `order`).
fn chk(n: usize, order: &[usize], preds: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut index = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        index[v] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    let Some(&root) = order.first() else {
        return idom;
    };
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while index[a] > index[b] {
                a = idom[a].expect("processed");
            }
            while index[b] > index[a] {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &v in &order[1..] {
            let mut new: Option<usize> = None;
            for &p in &preds[v] {
                if index[p] == usize::MAX || idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(cur) => intersect(&idom, p, cur),
                });
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Reverse post-order of dense nodes from `root` over `succs`.
fn dense_rpo(root: usize, succs: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; succs.len()];
    let mut post = Vec::new();
    let mut stack = vec![(root, 0usize)];
    seen[root] = true;
    while let Some((v, i)) = stack.last_mut() {
        let v = *v;
        if let Some(&s) = succs[v].get(*i) {
            *i += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(v);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Builds a [`DomTree`] from dense `idom`s (node `virtual_root`, if any, is left
/// out and its children become roots).
fn build(
    blocks: &[BlockId],
    idom: &[Option<usize>],
    order: &[usize],
    virtual_root: Option<usize>,
) -> DomTree {
    let mut tree = DomTree::default();
    for &v in order {
        if Some(v) == virtual_root {
            continue;
        }
        let b = blocks[v];
        match idom[v] {
            Some(d) if d != v && Some(d) != virtual_root => {
                tree.idom.insert(b, blocks[d]);
                tree.children.entry(blocks[d]).or_default().push(b);
            }
            Some(_) => tree.roots.push(b),
            None => {}
        }
    }
    // Pre/post numbering and depths.
    let mut counter = 0u32;
    let mut stack: Vec<(BlockId, u32, bool)> =
        tree.roots.iter().rev().map(|&r| (r, 0, false)).collect();
    while let Some((b, depth, done)) = stack.pop() {
        if done {
            tree.post.insert(b, counter);
            counter += 1;
            continue;
        }
        tree.pre.insert(b, counter);
        tree.depth.insert(b, depth);
        counter += 1;
        stack.push((b, depth, true));
        for &c in tree.children(b).iter().rev() {
            stack.push((c, depth + 1, false));
        }
    }
    tree
}

/// The dominator tree of the reachable blocks of `cfg`.
pub fn dominators(cfg: &Cfg) -> DomTree {
    let blocks = &cfg.rpo;
    let n = blocks.len();
    let mut dense: ArenaMap<BlockId, usize> = ArenaMap::default();
    for (i, &b) in blocks.iter().enumerate() {
        dense.insert(b, i);
    }
    let preds: Vec<Vec<usize>> = blocks
        .iter()
        .map(|&b| {
            cfg.preds(b)
                .iter()
                .filter_map(|&p| dense.get(p).copied())
                .collect()
        })
        .collect();
    let order: Vec<usize> = (0..n).collect();
    let idom = chk(n, &order, &preds);
    build(blocks, &idom, &order, None)
}

/// The post-dominator forest of the reachable blocks of `cfg` (see the module
/// documentation for the virtual exit).
pub fn post_dominators(cfg: &Cfg) -> DomTree {
    let blocks: Vec<BlockId> = cfg.rpo.clone();
    let n = blocks.len();
    let exit = n;
    let mut dense: ArenaMap<BlockId, usize> = ArenaMap::default();
    for (i, &b) in blocks.iter().enumerate() {
        dense.insert(b, i);
    }
    // Reversed graph: successors are CFG predecessors; the virtual exit's
    // successors are the exit blocks.
    let mut rsuccs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut rpreds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, &b) in blocks.iter().enumerate() {
        for &p in cfg.preds(b) {
            if let Some(&pi) = dense.get(p) {
                rsuccs[i].push(pi);
            }
        }
        for &s in cfg.succs(b) {
            if let Some(&si) = dense.get(s) {
                rpreds[i].push(si);
            }
        }
        if cfg.succs(b).is_empty() {
            rsuccs[exit].push(i);
            rpreds[i].push(exit);
        }
    }
    let order = dense_rpo(exit, &rsuccs);
    let idom = chk(n + 1, &order, &rpreds);
    let mut with_exit = blocks.clone();
    // A placeholder id for the virtual exit; it is skipped by `build`.
    with_exit.push(
        blocks
            .first()
            .copied()
            .unwrap_or_else(|| la_arena::Idx::from_raw(la_arena::RawIdx::from(0u32))),
    );
    build(&with_exit, &idom, &order, Some(exit))
}

/// Dominance frontiers of the reachable blocks (Cooper-Harvey-Kennedy): for
/// every join block `b`, each predecessor's dominator chain up to `idom(b)` has
/// `b` in its frontier. Lists are sorted by block id.
pub fn dominance_frontiers(cfg: &Cfg, dom: &DomTree) -> ArenaMap<BlockId, Vec<BlockId>> {
    let mut df: ArenaMap<BlockId, Vec<BlockId>> = ArenaMap::default();
    for &b in &cfg.rpo {
        df.insert(b, Vec::new());
    }
    for &b in &cfg.rpo {
        let preds: Vec<BlockId> = cfg
            .preds(b)
            .iter()
            .copied()
            .filter(|&p| dom.contains(p))
            .collect();
        if preds.len() < 2 {
            continue;
        }
        let stop = dom.idom(b);
        for p in preds {
            let mut runner = Some(p);
            while let Some(r) = runner {
                if Some(r) == stop {
                    break;
                }
                let list = df.entry(r).or_default();
                if !list.contains(&b) {
                    list.push(b);
                }
                runner = dom.idom(r);
            }
        }
    }
    for (_, list) in df.iter_mut() {
        list.sort();
    }
    df
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{block_name, cfg};
    use crate::test_util::{func, names};

    fn idoms(tree: &DomTree, g: &Cfg) -> String {
        g.blocks
            .iter()
            .map(|&b| match tree.idom(b) {
                Some(d) => format!("{}<-{}", block_name(b), block_name(d)),
                None if tree.contains(b) => format!("{}:root", block_name(b)),
                None => format!("{}:-", block_name(b)),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn diamond_dominators_and_post_dominators() {
        let f = func(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra A;
             add.s32 %r2, %r1, 1;
             bra J;
           A:
             add.s32 %r2, %r1, 2;
           J:
             ret;",
        );
        let g = cfg(&f);
        let dom = dominators(&g);
        assert_eq!(idoms(&dom, &g), "bb0:root bb1<-bb0 bb2<-bb0 bb3<-bb0");
        let [b0, b1, b2, b3] = [g.blocks[0], g.blocks[1], g.blocks[2], g.blocks[3]];
        assert!(dom.dominates(b0, b3) && dom.dominates(b3, b3));
        assert!(!dom.dominates(b1, b3) && !dom.strictly_dominates(b3, b3));
        assert_eq!(dom.common_dominator(b1, b2), Some(b0));
        let pdom = post_dominators(&g);
        assert_eq!(idoms(&pdom, &g), "bb0<-bb3 bb1<-bb3 bb2<-bb3 bb3:root");
        let df = dominance_frontiers(&g, &dom);
        assert_eq!(names(&df[b1]), "bb3");
        assert_eq!(names(&df[b0]), "");
    }

    #[test]
    fn unreachable_and_infinite_loop_blocks_are_outside_the_trees() {
        let f = func(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra SPIN;
             ret;
           DEAD:
             ret;
           SPIN:
             bra SPIN;",
        );
        let g = cfg(&f);
        let dom = dominators(&g);
        assert_eq!(idoms(&dom, &g), "bb0:root bb1<-bb0 bb2:- bb3<-bb0");
        let pdom = post_dominators(&g);
        assert_eq!(idoms(&pdom, &g), "bb0<-bb1 bb1:root bb2:- bb3:-");
        assert_eq!(
            dom.preorder().len(),
            3,
            "reachable blocks only: {:?}",
            dom.preorder()
        );
    }

    #[test]
    fn two_exits_make_two_post_dominator_roots() {
        let f = func(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra B;
             ret;
           B:
             exit;",
        );
        let g = cfg(&f);
        let pdom = post_dominators(&g);
        assert_eq!(idoms(&pdom, &g), "bb0:root bb1:root bb2:root");
    }
}
