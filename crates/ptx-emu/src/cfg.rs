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
//! Computed with the iterative algorithm of Cooper, Harvey and Kennedy ("A
//! Simple, Fast Dominance Algorithm") on the reversed CFG.

use ptx_ir::ir::Function;

/// The immediate post-dominator of each block, by layout position: `Some(pos)`
/// of the post-dominating block, `None` for the virtual exit or no
/// post-dominator (an infinite loop).
pub fn ipdoms(f: &Function) -> Vec<Option<usize>> {
    let n = f.layout.len();
    let exit = n;
    let pos_of = |b| f.layout.iter().position(|&x| x == b);
    let succs_map = f.all_successors();
    // Successors by position, plus the exit edge.
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, &b) in f.layout.iter().enumerate() {
        let mut s: Vec<usize> = succs_map
            .get(b)
            .map(|v| v.iter().filter_map(|&t| pos_of(t)).collect())
            .unwrap_or_default();
        // Only an unguarded `ret`/`exit`/`trap` leads to the exit: lanes that
        // leave through a guarded one are gone, and the rest should still
        // reconverge where they would without it.
        let last = f.blocks[b].insts.last().map(|&i| &f.insts[i]);
        let leaves = last.is_some_and(|inst| {
            matches!(inst.opcode.name.as_str(), "ret" | "exit" | "trap") && inst.guard.is_none()
        });
        if leaves || s.is_empty() {
            s.push(exit);
        }
        succs[i] = s;
    }
    // Predecessors in the reversed graph are the successors in the CFG.
    let mut preds_rev: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, s) in succs.iter().enumerate() {
        for &t in s {
            preds_rev[t].push(i);
        }
    }
    // Postorder of the reversed graph from the exit (DFS over CFG predecessors).
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    seen[exit] = true;
    while let Some(&mut (node, ref mut k)) = stack.last_mut() {
        if *k < preds_rev[node].len() {
            let next = preds_rev[node][*k];
            *k += 1;
            if !seen[next] {
                seen[next] = true;
                stack.push((next, 0));
            }
        } else {
            order.push(node);
            stack.pop();
        }
    }
    let mut po_num = vec![usize::MAX; n + 1];
    for (i, &node) in order.iter().enumerate() {
        po_num[node] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n + 1];
    idom[exit] = Some(exit);
    let mut changed = true;
    while changed {
        changed = false;
        // Reverse postorder, skipping the root.
        for &node in order.iter().rev().skip(1) {
            // The "predecessors" of `node` in the reversed graph are its CFG
            // successors.
            let mut new_idom: Option<usize> = None;
            for &p in &succs[node] {
                if idom[p].is_none() {
                    continue;
                }
                new_idom = Some(match new_idom {
                    None => p,
                    Some(cur) => intersect(&idom, &po_num, p, cur),
                });
            }
            if new_idom.is_some() && idom[node] != new_idom {
                idom[node] = new_idom;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|i| match idom[i] {
            Some(d) if d != exit => Some(d),
            _ => None,
        })
        .collect()
}

fn intersect(idom: &[Option<usize>], po: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po[a] < po[b] {
            match idom[a] {
                Some(x) => a = x,
                None => return b,
            }
        }
        while po[b] < po[a] {
            match idom[b] {
                Some(x) => b = x,
                None => return a,
            }
        }
    }
    a
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
