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
//! Speed: the defs and uses of every instruction are derived once, into flat
//! arrays; while the data flow iterates, the per-block sets live in one flat
//! word array and each block's transfer is two short lists (killed registers,
//! upward-exposed uses). The sets before and after each instruction are not
//! computed up front: the result keeps each instruction's kills and uses
//! (a few integers) and computes a block's sets from its live-out set the first
//! time one of them is asked for (what is live after an instruction is what is
//! live before the next, so each is stored once).
//!
//! No knobs.

use std::sync::OnceLock;

use la_arena::ArenaMap;
use ptx_ir::ir::{BlockId, Function, InstId, RegId};

use crate::bitset::{self, BitRows, BitSet};
use crate::cfg::Cfg;
use crate::def_use::reg_index;
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};

/// Liveness of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Liveness {
    /// Number of registers (the capacity of every set).
    pub num_regs: usize,
    /// Dense block numbers (layout positions), which index the vectors below.
    block_index: ArenaMap<BlockId, u32>,
    live_in: Vec<BitSet>,
    live_out: Vec<BitSet>,
    /// The liveness transfer of every instruction, block after block in
    /// layout order: step `s` kills `regs[start[s]..mid[s]]` (the definitions
    /// of an unguarded instruction) and then makes `regs[mid[s]..start[s + 1]]`
    /// live (its uses). Block `k`'s steps are `first_step[k]..first_step[k +
    /// 1]`.
    start: Vec<u32>,
    mid: Vec<u32>,
    regs: Vec<u32>,
    first_step: Vec<u32>,
    /// The block and position of each instruction.
    inst_pos: ArenaMap<InstId, (u32, u32)>,
    /// The sets around the instructions of each block, computed on first use.
    points: PointCache,
}

/// For each block, once asked for: the sets before each instruction, then
/// the live-out set. A function of the other fields, so it is left out of
/// comparisons and hashing.
#[derive(Clone, Default)]
struct PointCache(Vec<OnceLock<Vec<BitSet>>>);

impl PartialEq for PointCache {
    fn eq(&self, _: &PointCache) -> bool {
        true
    }
}

impl Eq for PointCache {}

impl std::hash::Hash for PointCache {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for PointCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

/// Computes liveness of `func`.
pub fn liveness(func: &Function, cfg: &Cfg) -> Liveness {
    let n = func.regs.len();
    let nb = cfg.blocks.len();
    let mut uses: Vec<u32> = Vec::new();
    let mut lv = Liveness {
        num_regs: n,
        inst_pos: ArenaMap::with_capacity(func.insts.len()),
        ..Liveness::default()
    };
    for (k, &b) in cfg.blocks.iter().enumerate() {
        lv.block_index.insert(b, k as u32);
    }
    // The steps, and each block's upward-exposed uses (`gen`, as a list) and
    // killed registers (`kill`: the steps' kills).
    let mut gen_start = Vec::with_capacity(nb + 1);
    let mut gen_list: Vec<u32> = Vec::new();
    let mut kill_start = Vec::with_capacity(nb + 1);
    let mut kill_list: Vec<u32> = Vec::new();
    let mut scratch = vec![0u64; n.div_ceil(64)];
    lv.start.reserve(func.insts.len() + 1);
    lv.mid.reserve(func.insts.len());
    for (k, &b) in cfg.blocks.iter().enumerate() {
        lv.first_step.push(lv.start.len() as u32);
        let insts = &func.blocks[b].insts;
        for (pos, &i) in insts.iter().enumerate() {
            lv.inst_pos.insert(i, (k as u32, pos as u32));
            lv.start.push(lv.regs.len() as u32);
            // Definitions (of an unguarded instruction) then uses, each in
            // operand order.
            let inst = &func.insts[i];
            let guarded = inst.guard.is_some();
            let regs = &mut lv.regs;
            uses.clear();
            visit_defs_and_uses(inst, |access, r| match access {
                Access::Def if !guarded => regs.push(reg_index(r) as u32),
                Access::Def => {}
                Access::Use => uses.push(reg_index(r) as u32),
            });
            lv.mid.push(lv.regs.len() as u32);
            lv.regs.extend_from_slice(&uses);
        }
        // gen = upward-exposed uses: walk the steps backwards.
        let steps = lv.first_step[k] as usize..lv.start.len();
        kill_start.push(kill_list.len() as u32);
        for s in steps.clone().rev() {
            let end = lv.start.get(s + 1).copied().unwrap_or(lv.regs.len() as u32);
            for &d in &lv.regs[lv.start[s] as usize..lv.mid[s] as usize] {
                bitset::remove(&mut scratch, d as usize);
                kill_list.push(d);
            }
            for &u in &lv.regs[lv.mid[s] as usize..end as usize] {
                bitset::insert(&mut scratch, u as usize);
            }
        }
        gen_start.push(gen_list.len() as u32);
        for (w, word) in scratch.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                gen_list.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }
    lv.start.push(lv.regs.len() as u32);
    lv.first_step.push(lv.mid.len() as u32);
    gen_start.push(gen_list.len() as u32);
    kill_start.push(kill_list.len() as u32);

    // Backward data flow: live_in = gen | (live_out & !kill), with live_out
    // the union of the successors' live_in.
    let mut live_in = BitRows::new(nb, n);
    // Post-order (reverse RPO) converges fastest for a backward problem.
    let order: Vec<usize> = cfg
        .rpo
        .iter()
        .rev()
        .chain(cfg.unreachable.iter())
        .map(|&b| lv.block_index[b] as usize)
        .collect();
    let succs: Vec<Vec<usize>> = cfg
        .blocks
        .iter()
        .map(|&b| {
            cfg.succs(b)
                .iter()
                .filter_map(|&s| lv.block_index.get(s).map(|&d| d as usize))
                .collect()
        })
        .collect();
    let out_of = |live_in: &BitRows, b: usize, out: &mut [u64]| {
        out.fill(0);
        for &s in &succs[b] {
            for (o, &i) in out.iter_mut().zip(live_in.row(s)) {
                *o |= i;
            }
        }
    };
    let mut set = vec![0u64; live_in.width()];
    // A block is evaluated again only when a successor's set changed after
    // its last evaluation (`tick`s order evaluations and changes): the
    // first sweep settles everything outside loops, the later ones touch
    // only the blocks a back edge feeds. Same fixed point as sweeping
    // every block until nothing changes.
    let mut evaluated = vec![0u32; nb];
    let mut changed_at = vec![0u32; nb];
    let mut tick = 0u32;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            if evaluated[b] != 0 && succs[b].iter().all(|&s| changed_at[s] < evaluated[b]) {
                continue;
            }
            tick += 1;
            evaluated[b] = tick;
            out_of(&live_in, b, &mut set);
            for &d in &kill_list[kill_start[b] as usize..kill_start[b + 1] as usize] {
                bitset::remove(&mut set, d as usize);
            }
            for &u in &gen_list[gen_start[b] as usize..gen_start[b + 1] as usize] {
                bitset::insert(&mut set, u as usize);
            }
            let input = live_in.row_mut(b);
            if *input != *set {
                input.copy_from_slice(&set);
                tick += 1;
                changed_at[b] = tick;
                changed = true;
            }
        }
    }
    lv.live_in = (0..nb)
        .map(|b| BitSet::from_words(live_in.row(b), n))
        .collect();
    lv.live_out = (0..nb)
        .map(|b| {
            out_of(&live_in, b, &mut set);
            BitSet::from_words(&set, n)
        })
        .collect();
    lv.points = PointCache((0..nb).map(|_| OnceLock::new()).collect());
    lv
}

impl Liveness {
    /// The sets around the instructions of block `k` (see [`PointCache`]):
    /// its live-out set, then the liveness transfer of each instruction,
    /// backwards.
    fn points(&self, k: usize) -> &[BitSet] {
        self.points.0[k].get_or_init(|| {
            let steps = self.first_step[k] as usize..self.first_step[k + 1] as usize;
            let mut sets = vec![BitSet::EMPTY; steps.len() + 1];
            let mut live = self.live_out[k].clone();
            for s in steps.clone().rev() {
                sets[s + 1 - steps.start] = live.clone();
                self.step_back(s, &mut live);
            }
            sets[0] = live;
            sets
        })
    }

    /// Calls `f(inst, live_after)` for each instruction of `block` (of
    /// the function this liveness was computed on), last first, with what
    /// is live right after it: the same sets as [`Liveness::live_after`],
    /// made with one running set and kept nowhere (for a pass that reads
    /// each once).
    pub fn walk_back(&self, func: &Function, block: BlockId, mut f: impl FnMut(InstId, &BitSet)) {
        let Some(&k) = self.block_index.get(block) else {
            return;
        };
        let k = k as usize;
        let steps = self.first_step[k] as usize..self.first_step[k + 1] as usize;
        let insts = &func.blocks[block].insts;
        let mut live = self.live_out[k].clone();
        for s in steps.clone().rev() {
            f(insts[s - steps.start], &live);
            self.step_back(s, &mut live);
        }
    }

    /// Step `s`'s transfer, backwards: from what is live after it to what
    /// is live before it.
    fn step_back(&self, s: usize, live: &mut BitSet) {
        for &d in &self.regs[self.start[s] as usize..self.mid[s] as usize] {
            live.remove(d as usize);
        }
        for &u in &self.regs[self.mid[s] as usize..self.start[s + 1] as usize] {
            live.insert(u as usize);
        }
    }

    /// Registers live at the start of `block`.
    pub fn live_in(&self, block: BlockId) -> &BitSet {
        self.block_index
            .get(block)
            .map_or(&EMPTY, |&k| &self.live_in[k as usize])
    }

    /// Registers live at the end of `block`.
    pub fn live_out(&self, block: BlockId) -> &BitSet {
        self.block_index
            .get(block)
            .map_or(&EMPTY, |&k| &self.live_out[k as usize])
    }

    /// Registers live just before `inst` executes.
    pub fn live_before(&self, inst: InstId) -> &BitSet {
        self.inst_pos
            .get(inst)
            .map_or(&EMPTY, |&(k, pos)| &self.points(k as usize)[pos as usize])
    }

    /// Registers live just after `inst` executes (its dead definitions are not
    /// live).
    pub fn live_after(&self, inst: InstId) -> &BitSet {
        self.inst_pos.get(inst).map_or(&EMPTY, |&(k, pos)| {
            &self.points(k as usize)[pos as usize + 1]
        })
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
        // The backward walk gives the same sets, last instruction first.
        let mut walked = Vec::new();
        lv.walk_back(&f, b, |i, after| {
            assert_eq!(after, lv.live_after(i));
            walked.push(i);
        });
        walked.reverse();
        assert_eq!(&walked, insts);
    }
}
