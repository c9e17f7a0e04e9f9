//! The defs and uses of every instruction of a function, computed once
//! ([`ptx_ir::ir::def_use::visit_defs_and_uses`], same rules and order as
//! [`ptx_ir::ir::defs_and_uses`]) into two flat arrays, so that an analysis
//! that walks the instructions several times neither re-derives them nor
//! allocates per instruction.
//!
//! Layout: `regs` holds, for each instruction in arena order, its defs then
//! its uses; `start[i]..mid[i]` are the defs of instruction `i` and
//! `mid[i]..start[i + 1]` its uses.
//!
//! Crate-internal; no knobs.

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, InstId, RegId};

pub(crate) struct DefUseTable {
    start: Vec<u32>,
    mid: Vec<u32>,
    regs: Vec<RegId>,
}

impl DefUseTable {
    pub(crate) fn new(func: &Function) -> DefUseTable {
        let n = func.insts.len();
        let mut start = Vec::with_capacity(n + 1);
        let mut mid = Vec::with_capacity(n);
        let mut regs = Vec::with_capacity(n * 4);
        let mut uses = Vec::new();
        for (_, inst) in func.insts.iter() {
            start.push(regs.len() as u32);
            visit_defs_and_uses(inst, |access, reg| match access {
                Access::Def => regs.push(reg),
                Access::Use => uses.push(reg),
            });
            mid.push(regs.len() as u32);
            regs.append(&mut uses);
        }
        start.push(regs.len() as u32);
        DefUseTable { start, mid, regs }
    }

    /// The registers `inst` writes, in operand order.
    pub(crate) fn defs(&self, inst: InstId) -> &[RegId] {
        let i = index(inst);
        &self.regs[self.start[i] as usize..self.mid[i] as usize]
    }

    /// The registers `inst` reads, in operand order (duplicates kept).
    pub(crate) fn uses(&self, inst: InstId) -> &[RegId] {
        let i = index(inst);
        &self.regs[self.mid[i] as usize..self.start[i + 1] as usize]
    }
}

fn index(inst: InstId) -> usize {
    inst.into_raw().into_u32() as usize
}

/// The dense index of a register (its arena index).
pub(crate) fn reg_index(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}
