//! Reaching definitions, use-def and def-use chains.
//!
//! Seed: `000_ed667d9feced6e07.txt`, "Phase 22 -- OriLoopUnrolling", steps M-N
//! (the unroller follows def chains from the latch compare to the induction
//! variable's increment and initial value, and checks which registers the loop
//! body redefines) and `001_3e9d45dd172cfaf4.txt`, "VN transfer function" (keys
//! shared by instructions that define the same value record, built by the
//! def-chain builder sub_781F80).
//!
//! The IR is not SSA: a register may be defined many times. A **definition** is
//! one (instruction, register) pair from
//! [`ptx_ir::ir::defs_and_uses`]. An unguarded definition kills
//! every other definition of its register; a guarded one (`@%p mov ...`) only
//! may define, so it kills nothing. Besides the real definitions, each use
//! records whether the register's value at function entry (a `.reg` parameter,
//! or an uninitialized register) may reach it ([`UseDefs::from_entry`]).
//!
//! Classic iterative forward data flow over bit sets, on every block of the
//! layout (unreachable blocks included, with an empty entry state).
//!
//! Speed: the defs and uses of every instruction are derived once; each
//! block's transfer function is summarized before the iteration as two short
//! lists (the registers it defines unguarded, whose definitions and entry
//! value it kills, and its definitions that reach its end); the iteration keeps
//! only each block's out set, in one flat word array (a block's in set is the
//! union of its predecessors' out sets); the per-register, per-instruction and
//! def-use lists are flat arrays with offsets.
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{BlockId, Function, InstId, RegId};

use crate::bitset::{self, BitRows, BitSet};
use crate::cfg::Cfg;
use crate::def_use::{reg_index, DefUseTable};

/// Index of a definition in [`ReachingDefs::defs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefId(pub u32);

/// One definition: `inst` writes `reg`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Def {
    pub inst: InstId,
    pub reg: RegId,
    pub block: BlockId,
    /// The instruction has a guard: this definition may not happen.
    pub guarded: bool,
}

/// The definitions reaching one use of `reg` by an instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UseDefs {
    pub reg: RegId,
    /// The reaching definitions, in [`DefId`] order.
    pub defs: Vec<DefId>,
    /// Whether the value at function entry may reach the use (some path from the
    /// entry has no unguarded definition of `reg`).
    pub from_entry: bool,
}

/// Reaching definitions of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ReachingDefs {
    /// All definitions, in layout order of their instructions.
    pub defs: Vec<Def>,
    /// `DefId(k)` at index `k`, so that an instruction's definitions (which are
    /// consecutive) are a slice of it.
    def_ids: Vec<DefId>,
    /// The definitions of each instruction: a range of `def_ids`.
    inst_defs: ArenaMap<InstId, (u32, u32)>,
    /// The definitions of register `r` are `reg_def_list[reg_def_start[r]..
    /// reg_def_start[r + 1]]`.
    reg_def_start: Vec<u32>,
    reg_def_list: Vec<DefId>,
    /// Definitions reaching the start of each block. Bits `0..defs.len()` are
    /// definitions; bit `defs.len() + reg index` is "the entry value of reg".
    block_in: ArenaMap<BlockId, BitSet>,
    /// The use-def chains of each instruction: a range of `use_def_list`.
    use_defs: ArenaMap<InstId, (u32, u32)>,
    use_def_list: Vec<UseDefs>,
    /// The uses of definition `k` are `def_use_list[def_use_start[k]..
    /// def_use_start[k + 1]]`.
    def_use_start: Vec<u32>,
    def_use_list: Vec<InstId>,
}

/// Applies the transfer function of an instruction whose definitions are
/// `defs` (a range of `rd.defs`) to `set`: an unguarded definition kills every
/// definition of its register and its entry value; then the instruction's
/// definitions reach.
fn transfer(rd: &ReachingDefs, defs: (u32, u32), set: &mut [u64]) {
    let ndefs = rd.defs.len();
    for def in &rd.defs[defs.0 as usize..defs.1 as usize] {
        if !def.guarded {
            for d in rd.defs_of_reg(def.reg) {
                bitset::remove(set, d.0 as usize);
            }
            bitset::remove(set, ndefs + reg_index(def.reg));
        }
    }
    for d in defs.0..defs.1 {
        bitset::insert(set, d as usize);
    }
}

/// Computes reaching definitions and the chains of `func`.
pub fn reaching_defs(func: &Function, cfg: &Cfg) -> ReachingDefs {
    let ninsts = func.insts.len();
    let mut rd = ReachingDefs {
        defs: Vec::with_capacity(ninsts + ninsts / 4),
        inst_defs: ArenaMap::with_capacity(ninsts),
        use_defs: ArenaMap::with_capacity(ninsts),
        use_def_list: Vec::with_capacity(ninsts * 2),
        ..ReachingDefs::default()
    };
    let nregs = func.regs.len();
    let du = DefUseTable::new(func);
    for &b in &cfg.blocks {
        for &i in &func.blocks[b].insts {
            let guarded = func.insts[i].guard.is_some();
            let first = rd.defs.len() as u32;
            for &reg in du.defs(i) {
                rd.defs.push(Def {
                    inst: i,
                    reg,
                    block: b,
                    guarded,
                });
            }
            rd.inst_defs.insert(i, (first, rd.defs.len() as u32));
        }
    }
    let ndefs = rd.defs.len();
    rd.def_ids = (0..ndefs as u32).map(DefId).collect();
    // Definitions by register (a counting sort keeps them in DefId order).
    rd.reg_def_start = vec![0; nregs + 1];
    for def in &rd.defs {
        rd.reg_def_start[reg_index(def.reg) + 1] += 1;
    }
    for r in 0..nregs {
        rd.reg_def_start[r + 1] += rd.reg_def_start[r];
    }
    rd.reg_def_list = vec![DefId(0); ndefs];
    let mut next = rd.reg_def_start.clone();
    for (k, def) in rd.defs.iter().enumerate() {
        let slot = &mut next[reg_index(def.reg)];
        rd.reg_def_list[*slot as usize] = DefId(k as u32);
        *slot += 1;
    }
    let width = ndefs + nregs;

    // Dense block numbers (layout positions) and each block's transfer
    // function, as two lists: `out = (in - kill) | gen` where `kill` is every
    // definition and the entry value of the registers the block defines
    // unguarded, and `gen` the block's definitions that reach its end.
    let mut dense: ArenaMap<BlockId, u32> = ArenaMap::default();
    for (k, &b) in cfg.blocks.iter().enumerate() {
        dense.insert(b, k as u32);
    }
    let nb = cfg.blocks.len();
    let mut kill_start: Vec<u32> = Vec::with_capacity(nb + 1);
    let mut kill_regs: Vec<RegId> = Vec::new();
    let mut gen_start: Vec<u32> = Vec::with_capacity(nb + 1);
    let mut gen_defs: Vec<u32> = Vec::new();
    for &b in &cfg.blocks {
        kill_start.push(kill_regs.len() as u32);
        gen_start.push(gen_defs.len() as u32);
        let first_gen = gen_defs.len();
        for &i in &func.blocks[b].insts {
            let (start, end) = rd.inst_defs[i];
            for def in &rd.defs[start as usize..end as usize] {
                if !def.guarded {
                    kill_regs.push(def.reg);
                    let defs = &rd.defs;
                    let mut k = first_gen;
                    while k < gen_defs.len() {
                        if defs[gen_defs[k] as usize].reg == def.reg {
                            gen_defs.swap_remove(k);
                        } else {
                            k += 1;
                        }
                    }
                }
            }
            gen_defs.extend(start..end);
        }
    }
    kill_start.push(kill_regs.len() as u32);
    gen_start.push(gen_defs.len() as u32);

    let words = width.div_ceil(64);
    let mut entry_state = vec![0u64; words];
    for r in 0..nregs {
        bitset::insert(&mut entry_state, ndefs + r);
    }
    let entry = cfg.entry.and_then(|e| dense.get(e)).map(|&e| e as usize);
    let preds: Vec<Vec<usize>> = cfg
        .blocks
        .iter()
        .map(|&b| {
            cfg.preds(b)
                .iter()
                .filter_map(|&p| dense.get(p).map(|&d| d as usize))
                .collect()
        })
        .collect();
    let input_of = |block_out: &BitRows, b: usize, input: &mut [u64]| {
        if Some(b) == entry {
            input.copy_from_slice(&entry_state);
        } else {
            input.fill(0);
        }
        for &p in &preds[b] {
            for (i, &o) in input.iter_mut().zip(block_out.row(p)) {
                *i |= o;
            }
        }
    };
    let mut block_out = BitRows::new(nb, width);
    // Reachable blocks in RPO first, then the unreachable ones.
    let order: Vec<usize> = cfg
        .rpo
        .iter()
        .chain(cfg.unreachable.iter())
        .map(|&b| dense[b] as usize)
        .collect();
    let mut set = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            input_of(&block_out, b, &mut set);
            for &reg in &kill_regs[kill_start[b] as usize..kill_start[b + 1] as usize] {
                for d in rd.defs_of_reg(reg) {
                    bitset::remove(&mut set, d.0 as usize);
                }
                bitset::remove(&mut set, ndefs + reg_index(reg));
            }
            for &d in &gen_defs[gen_start[b] as usize..gen_start[b + 1] as usize] {
                bitset::insert(&mut set, d as usize);
            }
            let out = block_out.row_mut(b);
            if *out != *set {
                out.copy_from_slice(&set);
                changed = true;
            }
        }
    }

    // Chains.
    let mut def_use_pairs: Vec<(DefId, InstId)> = Vec::new();
    for (k, &b) in cfg.blocks.iter().enumerate() {
        input_of(&block_out, k, &mut set);
        rd.block_in.insert(b, BitSet::from_words(&set, width));
        for &i in &func.blocks[b].insts {
            let first = rd.use_def_list.len();
            for &reg in du.uses(i) {
                if rd.use_def_list[first..].iter().any(|c| c.reg == reg) {
                    continue;
                }
                let defs: Vec<DefId> = rd
                    .defs_of_reg(reg)
                    .iter()
                    .copied()
                    .filter(|d| bitset::contains(&set, d.0 as usize))
                    .collect();
                def_use_pairs.extend(defs.iter().map(|&d| (d, i)));
                let from_entry = bitset::contains(&set, ndefs + reg_index(reg));
                rd.use_def_list.push(UseDefs {
                    reg,
                    defs,
                    from_entry,
                });
            }
            rd.use_defs
                .insert(i, (first as u32, rd.use_def_list.len() as u32));
            transfer(&rd, rd.inst_defs[i], &mut set);
        }
    }
    // Def-use chains: the pairs by definition (a counting sort keeps each
    // definition's uses in layout order).
    rd.def_use_start = vec![0; ndefs + 1];
    for &(d, _) in &def_use_pairs {
        rd.def_use_start[d.0 as usize + 1] += 1;
    }
    for k in 0..ndefs {
        rd.def_use_start[k + 1] += rd.def_use_start[k];
    }
    let mut next = rd.def_use_start.clone();
    rd.def_use_list = vec![InstId::from_raw(0u32.into()); def_use_pairs.len()];
    for &(d, i) in &def_use_pairs {
        let slot = &mut next[d.0 as usize];
        rd.def_use_list[*slot as usize] = i;
        *slot += 1;
    }
    rd
}

impl ReachingDefs {
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id.0 as usize]
    }

    /// The definitions `inst` makes, in operand order.
    pub fn defs_of_inst(&self, inst: InstId) -> &[DefId] {
        self.inst_defs
            .get(inst)
            .map_or(&[], |&(s, e)| &self.def_ids[s as usize..e as usize])
    }

    /// Every definition of `reg`.
    pub fn defs_of_reg(&self, reg: RegId) -> &[DefId] {
        let r = reg_index(reg);
        match (self.reg_def_start.get(r), self.reg_def_start.get(r + 1)) {
            (Some(&s), Some(&e)) => &self.reg_def_list[s as usize..e as usize],
            _ => &[],
        }
    }

    /// The use-def chains of `inst`: one entry per distinct register it reads.
    pub fn use_defs(&self, inst: InstId) -> &[UseDefs] {
        self.use_defs
            .get(inst)
            .map_or(&[], |&(s, e)| &self.use_def_list[s as usize..e as usize])
    }

    /// The definitions of `reg` reaching its use by `inst`.
    pub fn reaching_use(&self, inst: InstId, reg: RegId) -> Option<&UseDefs> {
        self.use_defs(inst).iter().find(|u| u.reg == reg)
    }

    /// The instructions that read definition `def` (def-use chain), in layout
    /// order.
    pub fn uses_of_def(&self, def: DefId) -> &[InstId] {
        let k = def.0 as usize;
        match (self.def_use_start.get(k), self.def_use_start.get(k + 1)) {
            (Some(&s), Some(&e)) => &self.def_use_list[s as usize..e as usize],
            _ => &[],
        }
    }

    /// The definitions reaching the start of `block` (entry values left out).
    pub fn reaching_block_entry(&self, block: BlockId) -> Vec<DefId> {
        let n = self.defs.len();
        self.block_in
            .get(block)
            .map(|s| {
                s.iter()
                    .take_while(|&i| i < n)
                    .map(|i| DefId(i as u32))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether the entry value of `reg` reaches the start of `block`.
    pub fn entry_value_reaches(&self, block: BlockId, reg: RegId) -> bool {
        let bit = self.defs.len() + reg.into_raw().into_u32() as usize;
        self.block_in.get(block).is_some_and(|s| s.contains(bit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{cfg, inst_name};
    use crate::test_util::func;

    /// `i3:%r1<-[i0,i2]+entry` per use.
    fn chains(f: &Function, rd: &ReachingDefs) -> String {
        let mut out = Vec::new();
        for (i, _) in f.insts_in_order() {
            for u in rd.use_defs(i) {
                let defs: Vec<String> = u.defs.iter().map(|&d| inst_name(rd.def(d).inst)).collect();
                out.push(format!(
                    "{}:{}<-[{}]{}",
                    inst_name(i),
                    f.regs[u.reg].name,
                    defs.join(","),
                    if u.from_entry { "+entry" } else { "" }
                ));
            }
        }
        out.join(" ")
    }

    #[test]
    fn loop_carried_and_guarded_definitions() {
        let f = func(
            "mov.u32 %r1, 0;
           L:
             add.s32 %r1, %r1, 1;
             setp.lt.s32 %p1, %r1, 10;
             @%p1 mov.u32 %r2, 5;
             add.s32 %r3, %r2, %r1;
             @%p1 bra L;
             ret;",
        );
        let g = cfg(&f);
        let rd = reaching_defs(&f, &g);
        expect_test::expect!["i1:%r1<-[i0,i1] i2:%r1<-[i1] i3:%p1<-[i2] i4:%r2<-[i3]+entry i4:%r1<-[i1] i5:%p1<-[i2]"]
            .assert_eq(&chains(&f, &rd));
        // def-use: the increment feeds itself, the compare and the add.
        let inc = rd.defs_of_inst(f.blocks[g.blocks[1]].insts[0])[0];
        assert_eq!(rd.uses_of_def(inc).len(), 3);
        let header = g.blocks[1];
        // i0 and i1 (r1), i2 (p1), i3 (r2, guarded), i4 (r3) via the back edge.
        assert_eq!(rd.reaching_block_entry(header).len(), 5);
        assert!(!rd.entry_value_reaches(header, rd.def(inc).reg));
    }
}
