//! Natural loops: back edges, loop bodies, headers, latches, preheaders, exits,
//! nesting (parent, children, depth per block), and irreducible regions.
//!
//! Seed: `000_ed667d9feced6e07.txt`, "Loop Representation in Ori IR" (no loop
//! objects in ptxas: a `loop_depth` per block, 0 outside loops, a back-edge map
//! and the RPO array; headers are visited before inner blocks) and "Phase 18 --
//! OriLoopSimplification" (single entry, preheader between the outside
//! predecessors and the header). Here the same facts are computed as a loop
//! forest.
//!
//! - A **back edge** is an edge `t -> h` whose target dominates its source; `h`
//!   is a **header** and `t` a **latch**. All back edges to one header make one
//!   loop (several latches allowed); its body is every block that reaches a
//!   latch without passing through the header.
//! - **Nesting**: loop B is inside loop A when A's body contains B's header.
//!   `depth(block)` is the number of loops whose body contains it (0 outside
//!   loops), as ptxas's `loop_depth`.
//! - **Preheader**: the header's unique predecessor outside the loop, when there
//!   is exactly one (it may have other successors; see [`Loop::preheader_dedicated`]).
//! - **Exits**: edges from a body block to a block outside the body.
//! - **Irreducible**: a retreating edge (target no later than source in RPO)
//!   whose target does not dominate its source enters a cycle at more than one
//!   block. Such edges are reported with the strongly connected component they
//!   lie in (blocks and entry blocks); they make no natural loop and do not
//!   count in depths.
//!
//! Loops are numbered in RPO order of their headers, so a loop comes before the
//! loops nested in it.
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::BlockId;

use crate::cfg::Cfg;
use crate::dominators::DomTree;

/// Index of a loop in [`LoopForest::loops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LoopId(pub u32);

/// One natural loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    pub header: BlockId,
    /// Sources of the back edges to the header, in RPO order.
    pub latches: Vec<BlockId>,
    /// Every block of the loop (header and nested loops included), in RPO order.
    pub blocks: Vec<BlockId>,
    /// The innermost enclosing loop.
    pub parent: Option<LoopId>,
    /// Loops directly inside this one.
    pub children: Vec<LoopId>,
    /// Nesting depth: 1 for an outermost loop.
    pub depth: u32,
    /// The unique predecessor of the header outside the loop, if there is one.
    pub preheader: Option<BlockId>,
    /// Whether the preheader's only successor is the header (a canonical
    /// preheader that code can be hoisted into).
    pub preheader_dedicated: bool,
    /// Edges `(inside, outside)` leaving the loop, in RPO order of the source.
    pub exits: Vec<(BlockId, BlockId)>,
    /// `blocks` as a bit set over block arena indices ([`Loop::contains`]
    /// is asked once per instruction by the loop phases).
    members: Vec<u64>,
}

impl Loop {
    pub fn contains(&self, block: BlockId) -> bool {
        let k = block.into_raw().into_u32() as usize;
        self.members
            .get(k / 64)
            .is_some_and(|w| w & (1 << (k % 64)) != 0)
    }

    /// Whether the loop is one block (its header is its only latch).
    pub fn is_single_block(&self) -> bool {
        self.blocks.len() == 1
    }

    /// The distinct blocks outside the loop that exits lead to, in order.
    pub fn exit_blocks(&self) -> Vec<BlockId> {
        let mut out: Vec<BlockId> = Vec::new();
        for &(_, to) in &self.exits {
            if !out.contains(&to) {
                out.push(to);
            }
        }
        out
    }
}

/// A strongly connected region entered at more than one block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IrreducibleRegion {
    /// The retreating edges into the region whose targets do not dominate their
    /// sources.
    pub edges: Vec<(BlockId, BlockId)>,
    /// The blocks of the strongly connected component, in RPO order.
    pub blocks: Vec<BlockId>,
    /// Blocks of the component with a predecessor outside it (the entry block
    /// counts as entered from outside).
    pub entries: Vec<BlockId>,
}

/// All loops of a function.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LoopForest {
    pub loops: Vec<Loop>,
    /// All back edges `(latch, header)`, in RPO order of the latch.
    pub back_edges: Vec<(BlockId, BlockId)>,
    pub irreducible: Vec<IrreducibleRegion>,
    depth: ArenaMap<BlockId, u32>,
    innermost: ArenaMap<BlockId, LoopId>,
}

impl LoopForest {
    /// Loop nesting depth of `block` (0 outside loops and for blocks not in the
    /// CFG).
    pub fn depth(&self, block: BlockId) -> u32 {
        self.depth.get(block).copied().unwrap_or(0)
    }

    /// The innermost loop containing `block`.
    pub fn innermost(&self, block: BlockId) -> Option<LoopId> {
        self.innermost.get(block).copied()
    }

    pub fn get(&self, id: LoopId) -> &Loop {
        &self.loops[id.0 as usize]
    }

    /// The loop whose header is `block`.
    pub fn loop_with_header(&self, block: BlockId) -> Option<LoopId> {
        self.loops
            .iter()
            .position(|l| l.header == block)
            .map(|i| LoopId(i as u32))
    }

    /// Whether the CFG has no irreducible region.
    pub fn is_reducible(&self) -> bool {
        self.irreducible.is_empty()
    }

    /// Loop ids with no nested loop (innermost loops), in order.
    pub fn innermost_loops(&self) -> Vec<LoopId> {
        (0..self.loops.len() as u32)
            .map(LoopId)
            .filter(|&l| self.get(l).children.is_empty())
            .collect()
    }
}

/// Finds the loops of `cfg` (see the module documentation).
pub fn loops(cfg: &Cfg, dom: &DomTree) -> LoopForest {
    let mut forest = LoopForest::default();
    let rpo_of = |b: BlockId| cfg.rpo_index(b).unwrap_or(u32::MAX);
    let mut irreducible_edges: Vec<(BlockId, BlockId)> = Vec::new();
    // Back edges grouped by header, headers in RPO order.
    let mut headers: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
    for &t in &cfg.rpo {
        for &h in cfg.succs(t) {
            if !cfg.is_reachable(h) || rpo_of(h) > rpo_of(t) {
                continue;
            }
            if dom.dominates(h, t) {
                forest.back_edges.push((t, h));
                match headers.iter_mut().find(|(x, _)| *x == h) {
                    Some((_, latches)) => latches.push(t),
                    None => headers.push((h, vec![t])),
                }
            } else {
                irreducible_edges.push((t, h));
            }
        }
    }
    headers.sort_by_key(|(h, _)| rpo_of(*h));

    for (header, latches) in headers {
        let mut in_body: ArenaMap<BlockId, ()> = ArenaMap::default();
        in_body.insert(header, ());
        let mut work: Vec<BlockId> = Vec::new();
        for &l in &latches {
            if in_body.insert(l, ()).is_none() {
                work.push(l);
            }
        }
        while let Some(b) = work.pop() {
            for &p in cfg.preds(b) {
                if cfg.is_reachable(p) && in_body.insert(p, ()).is_none() {
                    work.push(p);
                }
            }
        }
        let mut blocks: Vec<BlockId> = in_body.iter().map(|(b, _)| b).collect();
        blocks.sort_by_key(|&b| rpo_of(b));
        let mut latches = latches;
        latches.sort_by_key(|&b| rpo_of(b));
        let outside: Vec<BlockId> = cfg
            .preds(header)
            .iter()
            .copied()
            .filter(|p| !in_body.contains_idx(*p) && cfg.is_reachable(*p))
            .collect();
        let preheader = match outside.as_slice() {
            [p] => Some(*p),
            _ => None,
        };
        let preheader_dedicated = preheader.is_some_and(|p| cfg.succs(p) == [header]);
        let mut exits = Vec::new();
        for &b in &blocks {
            for &s in cfg.succs(b) {
                if !in_body.contains_idx(s) {
                    exits.push((b, s));
                }
            }
        }
        let mut members = Vec::new();
        for &b in &blocks {
            let k = b.into_raw().into_u32() as usize;
            if members.len() <= k / 64 {
                members.resize(k / 64 + 1, 0u64);
            }
            members[k / 64] |= 1 << (k % 64);
        }
        forest.loops.push(Loop {
            header,
            latches,
            blocks,
            members,
            parent: None,
            children: Vec::new(),
            depth: 0,
            preheader,
            preheader_dedicated,
            exits,
        });
    }

    // Nesting: the parent is the smallest other loop containing the header.
    let n = forest.loops.len();
    for i in 0..n {
        let header = forest.loops[i].header;
        let parent = (0..n)
            .filter(|&j| j != i && forest.loops[j].contains(header))
            .min_by_key(|&j| forest.loops[j].blocks.len());
        forest.loops[i].parent = parent.map(|j| LoopId(j as u32));
    }
    // Parents come first in RPO-of-header order, so one pass sets depths.
    for i in 0..n {
        let depth = match forest.loops[i].parent {
            Some(p) => forest.loops[p.0 as usize].depth + 1,
            None => 1,
        };
        forest.loops[i].depth = depth;
        if let Some(p) = forest.loops[i].parent {
            forest.loops[p.0 as usize].children.push(LoopId(i as u32));
        }
    }
    for &b in &cfg.rpo {
        forest.depth.insert(b, 0);
    }
    for (i, l) in forest.loops.iter().enumerate() {
        for &b in &l.blocks {
            let d = forest.depth.entry(b).or_insert(0);
            if l.depth > *d {
                *d = l.depth;
                forest.innermost.insert(b, LoopId(i as u32));
            }
        }
    }

    if !irreducible_edges.is_empty() {
        forest.irreducible = irreducible_regions(cfg, &irreducible_edges);
    }
    forest
}

/// Groups irreducible edges by the strongly connected component they lie in.
fn irreducible_regions(cfg: &Cfg, edges: &[(BlockId, BlockId)]) -> Vec<IrreducibleRegion> {
    let comp = scc(cfg);
    let mut regions: Vec<(u32, IrreducibleRegion)> = Vec::new();
    for &(t, h) in edges {
        let c = comp[t];
        match regions.iter_mut().find(|(id, _)| *id == c) {
            Some((_, r)) => r.edges.push((t, h)),
            None => {
                let blocks: Vec<BlockId> =
                    cfg.rpo.iter().copied().filter(|&b| comp[b] == c).collect();
                let entries = blocks
                    .iter()
                    .copied()
                    .filter(|&b| {
                        Some(b) == cfg.entry
                            || cfg
                                .preds(b)
                                .iter()
                                .any(|&p| cfg.is_reachable(p) && comp[p] != c)
                    })
                    .collect();
                regions.push((
                    c,
                    IrreducibleRegion {
                        edges: vec![(t, h)],
                        blocks,
                        entries,
                    },
                ));
            }
        }
    }
    regions.into_iter().map(|(_, r)| r).collect()
}

/// Strongly connected components of the reachable blocks (iterative Tarjan);
/// returns a component number per block.
fn scc(cfg: &Cfg) -> ArenaMap<BlockId, u32> {
    let mut index: ArenaMap<BlockId, u32> = ArenaMap::default();
    let mut low: ArenaMap<BlockId, u32> = ArenaMap::default();
    let mut on_stack: ArenaMap<BlockId, bool> = ArenaMap::default();
    let mut comp: ArenaMap<BlockId, u32> = ArenaMap::default();
    let mut stack: Vec<BlockId> = Vec::new();
    let mut next = 0u32;
    let mut ncomp = 0u32;
    for &root in &cfg.rpo {
        if index.contains_idx(root) {
            continue;
        }
        let mut call: Vec<(BlockId, usize)> = vec![(root, 0)];
        index.insert(root, next);
        low.insert(root, next);
        next += 1;
        stack.push(root);
        on_stack.insert(root, true);
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let succs = cfg.succs(v);
            if let Some(&w) = succs.get(*i) {
                *i += 1;
                if !cfg.is_reachable(w) {
                    continue;
                }
                if !index.contains_idx(w) {
                    index.insert(w, next);
                    low.insert(w, next);
                    next += 1;
                    stack.push(w);
                    on_stack.insert(w, true);
                    call.push((w, 0));
                } else if on_stack.get(w).copied().unwrap_or(false) {
                    let m = low[v].min(index[w]);
                    low.insert(v, m);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    let m = low[u].min(low[v]);
                    low.insert(u, m);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack.insert(w, false);
                        comp.insert(w, ncomp);
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{block_name, cfg};
    use crate::dominators::dominators;
    use crate::test_util::{func, names};

    fn forest(body: &str) -> (Cfg, LoopForest) {
        let f = func(body);
        let g = cfg(&f);
        let d = dominators(&g);
        let l = loops(&g, &d);
        (g, l)
    }

    fn describe(g: &Cfg, f: &LoopForest) -> String {
        let mut out = Vec::new();
        for l in &f.loops {
            out.push(format!(
                "h={} latches=[{}] blocks=[{}] depth={} pre={} exits=[{}]",
                block_name(l.header),
                names(&l.latches),
                names(&l.blocks),
                l.depth,
                l.preheader.map(block_name).unwrap_or("-".into()),
                l.exits
                    .iter()
                    .map(|&(a, b)| format!("{}->{}", block_name(a), block_name(b)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        out.push(format!(
            "depths: {}",
            g.blocks
                .iter()
                .map(|&b| f.depth(b).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        out.join("\n")
    }

    #[test]
    fn nested_loops_and_depths() {
        let (g, f) = forest(
            "mov.u32 %r1, 0;
           OUTER:
             mov.u32 %r2, 0;
           INNER:
             add.s32 %r2, %r2, 1;
             setp.lt.s32 %p1, %r2, 4;
             @%p1 bra INNER;
             add.s32 %r1, %r1, 1;
             setp.lt.s32 %p2, %r1, 8;
             @%p2 bra OUTER;
             ret;",
        );
        expect_test::expect![[r#"
            h=bb1 latches=[bb3] blocks=[bb1 bb2 bb3] depth=1 pre=bb0 exits=[bb3->bb4]
            h=bb2 latches=[bb2] blocks=[bb2] depth=2 pre=bb1 exits=[bb2->bb3]
            depths: 0 1 2 1 0"#]]
        .assert_eq(&describe(&g, &f));
        assert_eq!(f.loops[1].parent, Some(LoopId(0)));
        assert_eq!(f.loops[0].children, vec![LoopId(1)]);
        assert!(f.loops[1].is_single_block());
        assert_eq!(f.innermost(g.blocks[2]), Some(LoopId(1)));
        assert_eq!(f.innermost_loops(), vec![LoopId(1)]);
        assert!(f.is_reducible());
    }

    #[test]
    fn several_latches_make_one_loop() {
        let (g, f) = forest(
            "mov.u32 %r1, 0;
           H:
             add.s32 %r1, %r1, 1;
             setp.eq.s32 %p1, %r1, 3;
             @%p1 bra H;
             setp.lt.s32 %p2, %r1, 9;
             @%p2 bra H;
             ret;",
        );
        expect_test::expect![[r#"
            h=bb1 latches=[bb1 bb2] blocks=[bb1 bb2] depth=1 pre=bb0 exits=[bb2->bb3]
            depths: 0 1 1 0"#]]
        .assert_eq(&describe(&g, &f));
        assert_eq!(f.back_edges.len(), 2);
    }

    #[test]
    fn irreducible_cycle_is_reported_not_a_loop() {
        let (g, f) = forest(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra B;
           A:
             add.s32 %r2, %r2, 1;
           B:
             add.s32 %r2, %r2, 2;
             setp.lt.s32 %p2, %r2, 10;
             @%p2 bra A;
             ret;",
        );
        assert!(f.loops.is_empty());
        assert!(!f.is_reducible());
        let r = &f.irreducible[0];
        assert_eq!(names(&r.blocks), "bb2 bb1");
        assert_eq!(names(&r.entries), "bb2 bb1");
        assert_eq!(r.edges.len(), 1);
        assert_eq!(describe(&g, &f), "depths: 0 0 0 0");
    }

    #[test]
    fn header_with_two_outside_predecessors_has_no_preheader() {
        let (_, f) = forest(
            "setp.eq.s32 %p1, %r1, 0;
             @%p1 bra H;
             mov.u32 %r2, 1;
           H:
             add.s32 %r2, %r2, 1;
             setp.lt.s32 %p2, %r2, 10;
             @%p2 bra H;
             ret;",
        );
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].preheader, None);
        assert!(!f.loops[0].preheader_dedicated);
    }

    #[test]
    fn self_loop_at_entry_has_no_preheader() {
        let (g, f) = forest(
            "H:
             add.s32 %r2, %r2, 1;
             setp.lt.s32 %p2, %r2, 10;
             @%p2 bra H;
             ret;",
        );
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].header, g.entry.unwrap());
        assert_eq!(f.loops[0].preheader, None);
    }
}
