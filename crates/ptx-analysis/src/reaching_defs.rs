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
//! Memory is linear in the size of the function (plus one bit per definition
//! and register per block for the block entry sets): the reaching definitions
//! of a use are not a list of their own. Within a block, the definitions of a
//! register reaching successive points grow by one at each guarded
//! definition and restart at each unguarded one, so they are kept as **runs**:
//! the definitions reaching the block's start (or the unguarded definition),
//! then the guarded definitions in layout order; a use's chain is a prefix of
//! its run. (10,000 `@%p add %r2, %r2, ...` in one block: 10,000 stored
//! definitions, not 50 million.) Def-use chains are computed on demand
//! ([`ReachingDefs::uses_of_def`]) from the uses of the register.
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
use crate::grouped::Grouped;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UseDefs<'a> {
    pub reg: RegId,
    /// The reaching definitions, each once: those reaching the start of the
    /// block (or the block's last unguarded definition of `reg` before the
    /// use) in [`DefId`] order, then the block's guarded definitions of `reg`
    /// before the use, in layout order.
    pub defs: &'a [DefId],
    /// Whether the value at function entry may reach the use (some path from the
    /// entry has no unguarded definition of `reg`).
    pub from_entry: bool,
}

/// A use's chain as stored: `len` definitions of `chain_list` from `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct UseChain {
    reg: RegId,
    start: u32,
    len: u32,
    from_entry: bool,
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
    /// The definitions of each register (by arena index), in `DefId` order.
    reg_defs: Grouped<DefId>,
    /// Definitions reaching the start of each block. Bits `0..defs.len()` are
    /// definitions; bit `defs.len() + reg index` is "the entry value of reg".
    block_in: ArenaMap<BlockId, BitSet>,
    /// The use-def chains of each instruction: a range of `use_def_list`.
    use_defs: ArenaMap<InstId, (u32, u32)>,
    use_def_list: Vec<UseChain>,
    /// The runs (see the module documentation), end to end; every chain is
    /// a slice of it.
    chain_list: Vec<DefId>,
    /// The uses of register `r` (instruction, index in `use_def_list`), in
    /// layout order, are `reg_use_list[reg_use_start[r]..reg_use_start[r + 1]]`.
    reg_use_start: Vec<u32>,
    reg_use_list: Vec<(InstId, u32)>,
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
    let pairs: Vec<(usize, DefId)> = rd
        .defs
        .iter()
        .enumerate()
        .map(|(k, def)| (reg_index(def.reg), DefId(k as u32)))
        .collect();
    rd.reg_defs = Grouped::new(nregs, &pairs);
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

    // Chains: one run per (block, register) segment between unguarded
    // definitions, each in a vector of its own while the blocks are walked
    // (two registers' runs may grow in turns), then laid end to end.
    struct Open {
        block: u32,
        run: u32,
        from_entry: bool,
        /// The run starts with the definitions reaching the block's start
        /// (no unguarded definition of the register before in the block).
        at_start: bool,
    }
    let mut open: Vec<Open> = (0..nregs)
        .map(|_| Open {
            block: u32::MAX,
            run: 0,
            from_entry: false,
            at_start: false,
        })
        .collect();
    let mut runs: Vec<Vec<DefId>> = Vec::new();
    // Chains as (run, length) until the runs are laid out.
    let mut pending: Vec<(usize, u32)> = Vec::new();
    let mut uses_per_reg = vec![0u32; nregs + 1];
    for (k, &b) in cfg.blocks.iter().enumerate() {
        input_of(&block_out, k, &mut set);
        rd.block_in.insert(b, BitSet::from_words(&set, width));
        // The run of `reg` in this block, opened with the definitions
        // reaching the block's start when the block has none yet.
        let run_of =
            |reg_defs: &[DefId], reg: RegId, open: &mut Vec<Open>, runs: &mut Vec<Vec<DefId>>| {
                let o = &mut open[reg_index(reg)];
                if o.block != k as u32 {
                    let defs = reg_defs
                        .iter()
                        .copied()
                        .filter(|d| bitset::contains(&set, d.0 as usize))
                        .collect();
                    *o = Open {
                        block: k as u32,
                        run: runs.len() as u32,
                        from_entry: bitset::contains(&set, ndefs + reg_index(reg)),
                        at_start: true,
                    };
                    runs.push(defs);
                }
                (o.run as usize, o.from_entry)
            };
        for &i in &func.blocks[b].insts {
            let first = rd.use_def_list.len();
            for &reg in du.uses(i) {
                if rd.use_def_list[first..].iter().any(|c| c.reg == reg) {
                    continue;
                }
                let (run, from_entry) = run_of(rd.defs_of_reg(reg), reg, &mut open, &mut runs);
                pending.push((run, runs[run].len() as u32));
                uses_per_reg[reg_index(reg) + 1] += 1;
                rd.use_def_list.push(UseChain {
                    reg,
                    start: 0,
                    len: 0,
                    from_entry,
                });
            }
            rd.use_defs
                .insert(i, (first as u32, rd.use_def_list.len() as u32));
            let (s, e) = rd.inst_defs[i];
            for d in s..e {
                let def = &rd.defs[d as usize];
                if def.guarded {
                    let (run, _) = run_of(rd.defs_of_reg(def.reg), def.reg, &mut open, &mut runs);
                    // A definition reaching its own block's start (around a
                    // loop) is in the run already when the run is still the
                    // one opened at the block's start.
                    let at_start = open[reg_index(def.reg)].at_start;
                    if !(at_start && bitset::contains(&set, d as usize)) {
                        runs[run].push(DefId(d));
                    }
                } else {
                    open[reg_index(def.reg)] = Open {
                        block: k as u32,
                        run: runs.len() as u32,
                        from_entry: false,
                        at_start: false,
                    };
                    runs.push(vec![DefId(d)]);
                }
            }
        }
    }
    let mut run_start = Vec::with_capacity(runs.len());
    rd.chain_list = Vec::with_capacity(runs.iter().map(Vec::len).sum());
    for run in &runs {
        run_start.push(rd.chain_list.len() as u32);
        rd.chain_list.extend_from_slice(run);
    }
    drop(runs);
    for (c, &(run, len)) in rd.use_def_list.iter_mut().zip(&pending) {
        c.start = run_start[run];
        c.len = len;
    }
    // Uses by register (a counting sort keeps them in layout order).
    for r in 0..nregs {
        uses_per_reg[r + 1] += uses_per_reg[r];
    }
    let mut next = uses_per_reg.clone();
    rd.reg_use_list = vec![(InstId::from_raw(0u32.into()), 0); rd.use_def_list.len()];
    for &b in &cfg.blocks {
        for &i in &func.blocks[b].insts {
            let (s, e) = rd.use_defs[i];
            for u in s..e {
                let slot = &mut next[reg_index(rd.use_def_list[u as usize].reg)];
                rd.reg_use_list[*slot as usize] = (i, u);
                *slot += 1;
            }
        }
    }
    rd.reg_use_start = uses_per_reg;
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
        self.reg_defs.get(reg_index(reg))
    }

    fn chain(&self, c: &UseChain) -> UseDefs<'_> {
        UseDefs {
            reg: c.reg,
            defs: &self.chain_list[c.start as usize..(c.start + c.len) as usize],
            from_entry: c.from_entry,
        }
    }

    /// The use-def chains of `inst`: one entry per distinct register it reads.
    pub fn use_defs(&self, inst: InstId) -> impl Iterator<Item = UseDefs<'_>> + '_ {
        let chains = self.use_defs.get(inst).map_or(&[][..], |&(s, e)| {
            &self.use_def_list[s as usize..e as usize]
        });
        chains.iter().map(|c| self.chain(c))
    }

    /// The definitions of `reg` reaching its use by `inst`.
    pub fn reaching_use(&self, inst: InstId, reg: RegId) -> Option<UseDefs<'_>> {
        self.use_defs(inst).find(|u| u.reg == reg)
    }

    /// The instructions that read definition `def` (def-use chain), in layout
    /// order. Computed on demand from the uses of its register (storing every
    /// chain both ways would be quadratic for guarded definitions).
    pub fn uses_of_def(&self, def: DefId) -> Vec<InstId> {
        let r = reg_index(self.def(def).reg);
        let uses = match (self.reg_use_start.get(r), self.reg_use_start.get(r + 1)) {
            (Some(&s), Some(&e)) => &self.reg_use_list[s as usize..e as usize],
            _ => &[],
        };
        uses.iter()
            .filter(|&&(_, u)| {
                self.chain(&self.use_def_list[u as usize])
                    .defs
                    .contains(&def)
            })
            .map(|&(i, _)| i)
            .collect()
    }

    /// How many definitions the use-def chains hold together (each use's
    /// chain is a slice of shared runs, so this is what the chains cost in
    /// memory; linear in the function's size).
    pub fn stored_chain_len(&self) -> usize {
        self.chain_list.len() + self.use_def_list.len()
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
    fn guarded_definitions_are_stored_in_linear_space() {
        // Two registers defined in turns under a guard, each read by the
        // next definition: the chains of the last uses hold thousands of
        // definitions, but they share runs.
        let n = 4_000;
        let mut body = String::from("setp.lt.u32 %p1, %r1, 16;\n");
        for k in 0..n {
            body.push_str(if k % 2 == 0 {
                "@%p1 add.s32 %r2, %r2, %r1;\n"
            } else {
                "@!%p1 add.s32 %r3, %r3, %r2;\n"
            });
        }
        body.push_str("ret;");
        let f = func(&body);
        let g = cfg(&f);
        let rd = reaching_defs(&f, &g);
        let insts: Vec<_> = f.insts_in_order().map(|(i, _)| i).collect();
        let total: usize = insts
            .iter()
            .flat_map(|&i| rd.use_defs(i))
            .map(|u| u.defs.len())
            .sum();
        assert!(total > n * n / 8, "{total}");
        // Quadratic would be `total`; linear is a few entries per instruction.
        assert!(rd.stored_chain_len() <= 5 * n, "{}", rd.stored_chain_len());
        // The last `%r2` read sees every guarded definition of `%r2` before
        // it, and the entry value.
        let last = insts[n];
        let r2 = rd
            .use_defs(last)
            .find(|u| &*f.regs[u.reg].name == "%r2")
            .unwrap();
        assert_eq!(r2.defs.len(), n / 2);
        assert!(r2.from_entry);
        // Def-use, on demand: the first `%r2` definition reaches every later
        // read of `%r2` (n - 1 instructions).
        let d0 = rd.defs_of_inst(insts[1])[0];
        assert_eq!(rd.uses_of_def(d0).len(), n - 1);
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
