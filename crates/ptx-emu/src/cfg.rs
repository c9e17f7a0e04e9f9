//! Reconvergence points: the immediate post-dominator of every block.
//!
//! A warp whose lanes take different sides of a branch runs each side with
//! part of its lanes and joins them again at the branch block's immediate
//! post-dominator, the first block every path from the branch must pass
//! through (the classic SIMT-stack discipline of the hardware before Volta,
//! which is also where Volta+ compilers place their reconvergence barriers).
//! The CFG gets a virtual exit node that every block ending in an unguarded
//! `ret`/`exit`/`trap` (and a block that falls off the end) leads to; a branch
//! whose post-dominator is that exit reconverges only when its lanes have
//! returned. A guarded `ret`/`exit` is not an edge to the exit: the lanes
//! that take it leave the warp (or the call), and the others reconverge as if
//! it were not there. Blocks that cannot
//! reach the exit (an infinite loop) have no post-dominator.
//!
//! These are [`ptx_analysis::post_dominators`] of [`ptx_analysis::cfg`]: an
//! unguarded `ret`/`exit`/`trap` cannot fall through, so its block has no
//! successor and flows to the virtual exit, and a guarded one falls through.

use la_arena::ArenaMap;
use ptx_ir::ir::{BlockId, Function};

/// The immediate post-dominator of each block, by layout position: `Some(pos)`
/// of the post-dominating block, `None` for the virtual exit or no
/// post-dominator (an infinite loop, a block unreachable from the entry).
pub fn ipdoms(f: &Function) -> Vec<Option<usize>> {
    let pdom = ptx_analysis::post_dominators(&ptx_analysis::cfg(f));
    let mut pos: ArenaMap<BlockId, usize> = ArenaMap::default();
    for (i, &b) in f.layout.iter().enumerate() {
        pos.insert(b, i);
    }
    f.layout
        .iter()
        .map(|&b| pdom.idom(b).map(|p| pos[p]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(body: &str) -> Function {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n{body}\n}}\n"
        );
        let parse = ptx_syntax::parse(&text);
        let (m, errs) = ptx_ir::lower_module(&parse);
        assert!(errs.is_empty(), "{errs:?}");
        m.functions.into_iter().next().unwrap()
    }

    #[test]
    fn diamond_and_loop() {
        // bb0: branch to bb2 or fall to bb1; both reach bb3 (the join).
        let f = func(
            "@%p1 bra A;\n add.s32 %r1, %r1, 1;\n bra J;\nA: add.s32 %r1, %r1, 2;\nJ: add.s32 %r2, %r1, 1;\nL: add.s32 %r2, %r2, 1;\n @%p2 bra L;\n ret;",
        );
        let ip = ipdoms(&f);
        // Layout: bb0 (branch), bb1 (fallthrough side), bb2 = A, bb3 = J, bb4 = L, bb5 ret.
        assert_eq!(ip[0], Some(3));
        assert_eq!(ip[1], Some(3));
        assert_eq!(ip[2], Some(3));
        assert_eq!(ip[4], Some(5));
        assert_eq!(ip[5], None);
    }

    #[test]
    fn early_return_reconverges_at_exit() {
        let f = func("@%p1 bra A;\n ret;\nA: add.s32 %r1, %r1, 2;\n ret;");
        let ip = ipdoms(&f);
        assert_eq!(ip[0], None);
    }
}
