//! Register liveness: live-in / live-out per block and the registers live before
//! and after each instruction.
//!
//! Seed: `002_164789385e2e817e.txt`, "Machine Register Pressure Analysis
//! (sub_21EAA00) -- MRPA" (a walk of every instruction tracking register births
//! at definitions and deaths at last uses) and `000_ed667d9feced6e07.txt`,
//! "Phase 22 -- OriLoopUnrolling" (the unroller reruns liveness, sub_A0F020,
//! after changing the CFG).
//!
//! A register is live at a point when some path from it reads the register
//! before an unguarded write. Uses and defs are
//! [`ptx_ir::ir::defs_and_uses`]; a guarded definition does not
//! kill (the old value survives when the guard is false), and a partial write
//! (`%r1.h0`) is also a use. Sets are bit sets indexed by the register's arena
//! index. Backward iterative data flow over every block of the layout
//! (unreachable ones included).
//!
//! Speed: the defs and uses of every instruction are derived once; the
//! per-block sets live in flat word arrays while the data flow iterates; each
//! program point's set is stored once (what is live after an instruction is
//! what is live before the next).
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{BlockId, Function, InstId, RegId};

use crate::bitset::{self, BitRows, BitSet};
use crate::cfg::Cfg;
use crate::def_use::{reg_index, DefUseTable};

/// Liveness of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Liveness {
    /// Number of registers (the capacity of every set).
    pub num_regs: usize,
    /// The sets at every program point, block after block: for a block with
    /// instructions `i1 .. ik`, the sets before `i1` (the live-in set), ...,
    /// before `ik`, and after `ik` (the live-out set). What is live after an
    /// instruction is what is live before the next one, so each set is stored
    /// once.
    points: Vec<BitSet>,
    /// Indices in `points` of each block's live-in and live-out sets.
    block_point: ArenaMap<BlockId, (u32, u32)>,
    /// Index in `points` of the set before each instruction (the set after it
    /// is the next one).
    inst_point: ArenaMap<InstId, u32>,
}

/// Computes liveness of `func`.
pub fn liveness(func: &Function, cfg: &Cfg) -> Liveness {
    let n = func.regs.len();
    let du = DefUseTable::new(func);
    // Dense block numbers: positions in the layout.
    let mut dense: ArenaMap<BlockId, u32> = ArenaMap::default();
    for (k, &b) in cfg.blocks.iter().enumerate() {
        dense.insert(b, k as u32);
    }
    let nb = cfg.blocks.len();
    // Per-block upward-exposed uses and kills.
    let mut gen = BitRows::new(nb, n);
    let mut kill = BitRows::new(nb, n);
    for (k, &b) in cfg.blocks.iter().enumerate() {
        let (g, kl) = (gen.row_mut(k), kill.row_mut(k));
        for &i in func.blocks[b].insts.iter().rev() {
            if func.insts[i].guard.is_none() {
                for &d in du.defs(i) {
                    bitset::remove(g, reg_index(d));
                    bitset::insert(kl, reg_index(d));
                }
            }
            for &u in du.uses(i) {
                bitset::insert(g, reg_index(u));
            }
        }
    }
    let mut live_in = BitRows::new(nb, n);
    let mut live_out = BitRows::new(nb, n);
    // Post-order (reverse RPO) converges fastest for a backward problem.
    let order: Vec<usize> = cfg
        .rpo
        .iter()
        .rev()
        .chain(cfg.unreachable.iter())
        .map(|&b| dense[b] as usize)
        .collect();
    let succs: Vec<Vec<usize>> = cfg
        .blocks
        .iter()
        .map(|&b| {
            cfg.succs(b)
                .iter()
                .filter_map(|&s| dense.get(s).map(|&d| d as usize))
                .collect()
        })
        .collect();
    let width = live_in.width();
    let mut out = vec![0u64; width];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            out.iter_mut().for_each(|w| *w = 0);
            for &s in &succs[b] {
                for (o, &i) in out.iter_mut().zip(live_in.row(s)) {
                    *o |= i;
                }
            }
            live_out.row_mut(b).copy_from_slice(&out);
            let (g, kl) = (gen.row(b), kill.row(b));
            let input = live_in.row_mut(b);
            for w in 0..width {
                let new = (out[w] & !kl[w]) | g[w];
                changed |= new != input[w];
                input[w] = new;
            }
        }
    }
    // Per instruction, walking each block backwards from its live-out set.
    let mut lv = Liveness {
        num_regs: n,
        points: Vec::with_capacity(func.insts.len() + nb),
        ..Liveness::default()
    };
    let mut live = vec![0u64; width];
    for (k, &b) in cfg.blocks.iter().enumerate() {
        let insts = &func.blocks[b].insts;
        let first = lv.points.len();
        lv.block_point
            .insert(b, (first as u32, (first + insts.len()) as u32));
        // Filled from the end: the live-out set last, then backwards.
        lv.points.resize(first + insts.len() + 1, BitSet::EMPTY);
        live.copy_from_slice(live_out.row(k));
        lv.points[first + insts.len()] = BitSet::from_words(&live, n);
        for (pos, &i) in insts.iter().enumerate().rev() {
            if func.insts[i].guard.is_none() {
                for &d in du.defs(i) {
                    bitset::remove(&mut live, reg_index(d));
                }
            }
            for &u in du.uses(i) {
                bitset::insert(&mut live, reg_index(u));
            }
            lv.points[first + pos] = BitSet::from_words(&live, n);
            lv.inst_point.insert(i, (first + pos) as u32);
        }
    }
    lv
}

impl Liveness {
    fn point(&self, index: Option<usize>) -> &BitSet {
        index.map_or(&EMPTY, |p| &self.points[p])
    }

    /// Registers live at the start of `block`.
    pub fn live_in(&self, block: BlockId) -> &BitSet {
        self.point(
            self.block_point
                .get(block)
                .map(|&(input, _)| input as usize),
        )
    }

    /// Registers live at the end of `block`.
    pub fn live_out(&self, block: BlockId) -> &BitSet {
        self.point(self.block_point.get(block).map(|&(_, out)| out as usize))
    }

    /// Registers live just before `inst` executes.
    pub fn live_before(&self, inst: InstId) -> &BitSet {
        self.point(self.inst_point.get(inst).map(|&p| p as usize))
    }

    /// Registers live just after `inst` executes (its dead definitions are not
    /// live).
    pub fn live_after(&self, inst: InstId) -> &BitSet {
        self.point(self.inst_point.get(inst).map(|&p| p as usize + 1))
    }

    /// Whether `reg` is live at the start of `block`.
    pub fn is_live_in(&self, block: BlockId, reg: RegId) -> bool {
        self.live_in(block).contains(reg_index(reg))
    }

    /// The registers of a set, as ids.
    pub fn regs(set: &BitSet) -> impl Iterator<Item = RegId> + '_ {
        set.iter()
            .map(|i| la_arena::Idx::from_raw(la_arena::RawIdx::from(i as u32)))
    }
}

static EMPTY: BitSet = BitSet::EMPTY;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::cfg;
    use crate::test_util::func;

    fn names(f: &Function, set: &BitSet) -> String {
        Liveness::regs(set)
            .map(|r| f.regs[r].name.clone())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn loop_keeps_its_variables_live_around_the_back_edge() {
        let f = func(
            "ld.param.u64 %rd1, [p];
             mov.u32 %r1, 0;
             mov.u32 %r2, 0;
           L:
             add.s32 %r2, %r2, %r1;
             add.s32 %r1, %r1, 1;
             setp.lt.s32 %p1, %r1, 10;
             @%p1 bra L;
             st.global.u32 [%rd1], %r2;
             ret;",
        );
        let g = cfg(&f);
        let lv = liveness(&f, &g);
        let l = g.blocks[1];
        assert_eq!(names(&f, lv.live_in(l)), "%rd1 %r1 %r2");
        assert_eq!(names(&f, lv.live_out(l)), "%rd1 %r1 %r2");
        assert_eq!(names(&f, lv.live_in(g.blocks[0])), "");
        let setp = f.blocks[l].insts[2];
        assert_eq!(names(&f, lv.live_before(setp)), "%rd1 %r1 %r2");
        assert_eq!(names(&f, lv.live_after(setp)), "%rd1 %r1 %r2 %p1");
        let bra = f.blocks[l].insts[3];
        assert_eq!(names(&f, lv.live_after(bra)), "%rd1 %r1 %r2");
    }

    #[test]
    fn guarded_definitions_do_not_kill_and_dead_defs_are_not_live() {
        let f = func(
            "mov.u32 %r1, 1;
             setp.eq.s32 %p1, %r5, 0;
             @%p1 mov.u32 %r1, 2;
             mov.u32 %r3, 7;
             st.global.u32 [%rd1], %r1;
             ret;",
        );
        let g = cfg(&f);
        let lv = liveness(&f, &g);
        let b = g.blocks[0];
        let insts = &f.blocks[b].insts;
        // %r1 stays live across the guarded move; %r5 and %rd1 come from entry.
        assert_eq!(names(&f, lv.live_before(insts[2])), "%r1 %p1 %rd1");
        assert_eq!(names(&f, lv.live_in(b)), "%r5 %rd1");
        assert_eq!(names(&f, lv.live_after(insts[3])), "%r1 %rd1");
    }
}
