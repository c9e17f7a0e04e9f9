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
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{defs_and_uses, BlockId, Function, InstId, RegId};

use crate::bitset::BitSet;
use crate::cfg::Cfg;

/// Liveness of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Liveness {
    /// Number of registers (the capacity of every set).
    pub num_regs: usize,
    live_in: ArenaMap<BlockId, BitSet>,
    live_out: ArenaMap<BlockId, BitSet>,
    before: ArenaMap<InstId, BitSet>,
    after: ArenaMap<InstId, BitSet>,
}

fn reg_index(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

/// Computes liveness of `func`.
pub fn liveness(func: &Function, cfg: &Cfg) -> Liveness {
    let n = func.regs.len();
    let mut lv = Liveness {
        num_regs: n,
        ..Liveness::default()
    };
    // Per-block upward-exposed uses and kills.
    let mut gen: ArenaMap<BlockId, BitSet> = ArenaMap::default();
    let mut kill: ArenaMap<BlockId, BitSet> = ArenaMap::default();
    for &b in &cfg.blocks {
        let mut g = BitSet::new(n);
        let mut k = BitSet::new(n);
        for &i in func.blocks[b].insts.iter().rev() {
            let inst = &func.insts[i];
            let du = defs_and_uses(inst);
            if inst.guard.is_none() {
                for &d in &du.defs {
                    g.remove(reg_index(d));
                    k.insert(reg_index(d));
                }
            }
            for &u in &du.uses {
                g.insert(reg_index(u));
            }
        }
        gen.insert(b, g);
        kill.insert(b, k);
        lv.live_in.insert(b, BitSet::new(n));
        lv.live_out.insert(b, BitSet::new(n));
    }
    // Post-order (reverse RPO) converges fastest for a backward problem.
    let order: Vec<BlockId> = cfg
        .rpo
        .iter()
        .rev()
        .chain(cfg.unreachable.iter())
        .copied()
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            let mut out = BitSet::new(n);
            for &s in cfg.succs(b) {
                if let Some(i) = lv.live_in.get(s) {
                    out.union_with(i);
                }
            }
            let mut input = out.clone();
            input.subtract(&kill[b]);
            input.union_with(&gen[b]);
            lv.live_out.insert(b, out);
            if lv.live_in[b] != input {
                lv.live_in.insert(b, input);
                changed = true;
            }
        }
    }
    // Per instruction.
    for &b in &cfg.blocks {
        let mut live = lv.live_out[b].clone();
        for &i in func.blocks[b].insts.iter().rev() {
            let inst = &func.insts[i];
            lv.after.insert(i, live.clone());
            let du = defs_and_uses(inst);
            if inst.guard.is_none() {
                for &d in &du.defs {
                    live.remove(reg_index(d));
                }
            }
            for &u in &du.uses {
                live.insert(reg_index(u));
            }
            lv.before.insert(i, live.clone());
        }
    }
    lv
}

impl Liveness {
    /// Registers live at the start of `block`.
    pub fn live_in(&self, block: BlockId) -> &BitSet {
        self.live_in.get(block).unwrap_or(&EMPTY)
    }

    /// Registers live at the end of `block`.
    pub fn live_out(&self, block: BlockId) -> &BitSet {
        self.live_out.get(block).unwrap_or(&EMPTY)
    }

    /// Registers live just before `inst` executes.
    pub fn live_before(&self, inst: InstId) -> &BitSet {
        self.before.get(inst).unwrap_or(&EMPTY)
    }

    /// Registers live just after `inst` executes (its dead definitions are not
    /// live).
    pub fn live_after(&self, inst: InstId) -> &BitSet {
        self.after.get(inst).unwrap_or(&EMPTY)
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
