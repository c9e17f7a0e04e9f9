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
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{defs_and_uses, BlockId, Function, InstId, RegId};

use crate::bitset::BitSet;
use crate::cfg::Cfg;

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
    reg_defs: ArenaMap<RegId, Vec<DefId>>,
    inst_defs: ArenaMap<InstId, Vec<DefId>>,
    /// Definitions reaching the start of each block. Bits `0..defs.len()` are
    /// definitions; bit `defs.len() + reg index` is "the entry value of reg".
    block_in: ArenaMap<BlockId, BitSet>,
    use_defs: ArenaMap<InstId, Vec<UseDefs>>,
    def_uses: Vec<Vec<InstId>>,
}

/// Computes reaching definitions and the chains of `func`.
pub fn reaching_defs(func: &Function, cfg: &Cfg) -> ReachingDefs {
    let mut rd = ReachingDefs::default();
    let nregs = func.regs.len();
    for &b in &cfg.blocks {
        for &i in &func.blocks[b].insts {
            let inst = &func.insts[i];
            let du = defs_and_uses(inst);
            let mut ids = Vec::new();
            for reg in du.defs {
                let id = DefId(rd.defs.len() as u32);
                rd.defs.push(Def {
                    inst: i,
                    reg,
                    block: b,
                    guarded: inst.guard.is_some(),
                });
                rd.reg_defs.entry(reg).or_default().push(id);
                ids.push(id);
            }
            rd.inst_defs.insert(i, ids);
        }
    }
    let ndefs = rd.defs.len();
    let width = ndefs + nregs;
    let entry_bit = |r: RegId| ndefs + r.into_raw().into_u32() as usize;

    // The bits an unguarded def of `reg` kills: all defs of reg and its entry bit.
    let kill_set = |rd: &ReachingDefs, reg: RegId, set: &mut BitSet| {
        for d in rd.reg_defs.get(reg).map(Vec::as_slice).unwrap_or(&[]) {
            set.remove(d.0 as usize);
        }
        set.remove(entry_bit(reg));
    };
    let transfer = |rd: &ReachingDefs, b: BlockId, set: &mut BitSet| {
        for &i in &func.blocks[b].insts {
            for &d in rd.inst_defs.get(i).map(Vec::as_slice).unwrap_or(&[]) {
                let def = &rd.defs[d.0 as usize];
                if !def.guarded {
                    kill_set(rd, def.reg, set);
                }
            }
            for &d in rd.inst_defs.get(i).map(Vec::as_slice).unwrap_or(&[]) {
                set.insert(d.0 as usize);
            }
        }
    };

    let mut entry_state = BitSet::new(width);
    for (r, _) in func.regs.iter() {
        entry_state.insert(entry_bit(r));
    }
    let mut block_out: ArenaMap<BlockId, BitSet> = ArenaMap::default();
    for &b in &cfg.blocks {
        rd.block_in.insert(b, BitSet::new(width));
        block_out.insert(b, BitSet::new(width));
    }
    // Reachable blocks in RPO first, then the unreachable ones.
    let order: Vec<BlockId> = cfg
        .rpo
        .iter()
        .chain(cfg.unreachable.iter())
        .copied()
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            let mut input = BitSet::new(width);
            if Some(b) == cfg.entry {
                input.union_with(&entry_state);
            }
            for &p in cfg.preds(b) {
                if let Some(out) = block_out.get(p) {
                    input.union_with(out);
                }
            }
            let mut out = input.clone();
            transfer(&rd, b, &mut out);
            rd.block_in.insert(b, input);
            if block_out.get(b) != Some(&out) {
                block_out.insert(b, out);
                changed = true;
            }
        }
    }

    // Chains.
    rd.def_uses = vec![Vec::new(); ndefs];
    for &b in &cfg.blocks {
        let mut set = rd.block_in[b].clone();
        for &i in &func.blocks[b].insts {
            let du = defs_and_uses(&func.insts[i]);
            let mut chains: Vec<UseDefs> = Vec::new();
            for reg in du.uses {
                if chains.iter().any(|c| c.reg == reg) {
                    continue;
                }
                let defs: Vec<DefId> = rd
                    .reg_defs
                    .get(reg)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .copied()
                    .filter(|d| set.contains(d.0 as usize))
                    .collect();
                for d in &defs {
                    let uses = &mut rd.def_uses[d.0 as usize];
                    if uses.last() != Some(&i) {
                        uses.push(i);
                    }
                }
                chains.push(UseDefs {
                    reg,
                    defs,
                    from_entry: set.contains(entry_bit(reg)),
                });
            }
            rd.use_defs.insert(i, chains);
            for &d in rd.inst_defs.get(i).map(Vec::as_slice).unwrap_or(&[]) {
                let def = &rd.defs[d.0 as usize];
                if !def.guarded {
                    kill_set(&rd, def.reg, &mut set);
                }
            }
            for &d in rd.inst_defs.get(i).map(Vec::as_slice).unwrap_or(&[]) {
                set.insert(d.0 as usize);
            }
        }
    }
    rd
}

impl ReachingDefs {
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id.0 as usize]
    }

    /// The definitions `inst` makes, in operand order.
    pub fn defs_of_inst(&self, inst: InstId) -> &[DefId] {
        self.inst_defs.get(inst).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every definition of `reg`.
    pub fn defs_of_reg(&self, reg: RegId) -> &[DefId] {
        self.reg_defs.get(reg).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The use-def chains of `inst`: one entry per distinct register it reads.
    pub fn use_defs(&self, inst: InstId) -> &[UseDefs] {
        self.use_defs.get(inst).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The definitions of `reg` reaching its use by `inst`.
    pub fn reaching_use(&self, inst: InstId, reg: RegId) -> Option<&UseDefs> {
        self.use_defs(inst).iter().find(|u| u.reg == reg)
    }

    /// The instructions that read definition `def` (def-use chain), in layout
    /// order.
    pub fn uses_of_def(&self, def: DefId) -> &[InstId] {
        self.def_uses
            .get(def.0 as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
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
