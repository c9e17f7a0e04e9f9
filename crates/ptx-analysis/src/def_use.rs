//! The defs and uses of every instruction of a function, computed once
//! ([`ptx_ir::ir::def_use::visit_defs_and_uses`], same rules and order as
//! [`ptx_ir::ir::defs_and_uses`]) into two flat arrays, so that an analysis
//! that walks the instructions several times neither re-derives them nor
//! allocates per instruction.
//!
//! Layout: `defs[def_start[i]..def_start[i + 1]]` are the defs of the
//! instruction with arena index `i`, `uses[use_start[i]..use_start[i + 1]]`
//! its uses.
//!
//! Crate-internal; no knobs.

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, InstId, RegId};

pub(crate) struct DefUseTable {
    def_start: Vec<u32>,
    defs: Vec<RegId>,
    use_start: Vec<u32>,
    uses: Vec<RegId>,
}

impl DefUseTable {
    pub(crate) fn new(func: &Function) -> DefUseTable {
        let n = func.insts.len();
        let mut t = DefUseTable {
            def_start: Vec::with_capacity(n + 1),
            defs: Vec::with_capacity(n + n / 2),
            use_start: Vec::with_capacity(n + 1),
            uses: Vec::with_capacity(n * 3),
        };
        for (_, inst) in func.insts.iter() {
            t.def_start.push(t.defs.len() as u32);
            t.use_start.push(t.uses.len() as u32);
            visit_defs_and_uses(inst, |access, reg| match access {
                Access::Def => t.defs.push(reg),
                Access::Use => t.uses.push(reg),
            });
        }
        t.def_start.push(t.defs.len() as u32);
        t.use_start.push(t.uses.len() as u32);
        t
    }

    /// The registers `inst` writes, in operand order.
    pub(crate) fn defs(&self, inst: InstId) -> &[RegId] {
        let i = index(inst);
        &self.defs[self.def_start[i] as usize..self.def_start[i + 1] as usize]
    }

    /// The registers `inst` reads, in operand order (duplicates kept).
    pub(crate) fn uses(&self, inst: InstId) -> &[RegId] {
        let i = index(inst);
        &self.uses[self.use_start[i] as usize..self.use_start[i + 1] as usize]
    }
}

fn index(inst: InstId) -> usize {
    inst.into_raw().into_u32() as usize
}

/// The dense index of a register (its arena index).
pub(crate) fn reg_index(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}
