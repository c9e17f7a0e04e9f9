//! Facts shared by the scalar phases (15 OriBranchOpt, OriCopyProp in the
//! GeneralOptimize bundles): where each instruction is, which instructions
//! write each register, instruction-level dominance, and predicates whose
//! value is known at compile time.
//!
//! The facts describe the function they were built from; a phase that edits
//! the function rebuilds them (or only changes register *uses*, which leaves
//! definitions, positions and dominance as they were).

use std::rc::Rc;

use ptx_analysis::grouped::Grouped;
use ptx_analysis::{cfg, dominators, DomTree};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, ImmValue, Inst, InstId, Operand, RegId};
use ptx_isa::{Cmp, FamilyId, Ty};

/// Positions, definitions and dominance of one function.
pub(crate) struct Facts {
    access: Rc<Accesses>,
    dom: Rc<DomTree>,
    cfg: Rc<ptx_analysis::Cfg>,
}

fn ri(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

/// Which placed instructions write and read each register (an instruction
/// once per register, guarded writes and guards included): the part of
/// [`Facts`] that needs no dominator tree, for the phases that only count.
#[derive(Clone)]
pub(crate) struct Accesses {
    writers: Lists,
    readers: Lists,
}

/// One list of instructions per register, stored end to end (one pass over
/// the function, then a counting sort, where a vector per register made an
/// allocation per register); the few lists a phase changes
/// ([`Accesses::retarget`]) move to `changed`.
#[derive(Clone)]
struct Lists {
    lists: Grouped<InstId>,
    /// The number of registers.
    regs: usize,
    changed: rustc_hash::FxHashMap<usize, Vec<InstId>>,
}

impl Lists {
    fn new(regs: usize, pairs: &[(usize, InstId)]) -> Lists {
        Lists {
            lists: Grouped::new(regs, pairs),
            regs,
            changed: Default::default(),
        }
    }

    fn get(&self, r: usize) -> &[InstId] {
        if let Some(list) = self.changed.get(&r) {
            return list;
        }
        self.lists.get(r)
    }

    fn get_mut(&mut self, r: usize) -> Option<&mut Vec<InstId>> {
        if r >= self.regs {
            return None;
        }
        let lists = &self.lists;
        Some(
            self.changed
                .entry(r)
                .or_insert_with(|| lists.get(r).to_vec()),
        )
    }
}

/// Calls `f(k, r, i)` for each placed instruction `i` that writes (`k` 0)
/// or reads (`k` 1) register index `r`, once per instruction, register and
/// kind.
fn each_access(func: &Function, mut f: impl FnMut(usize, usize, InstId)) {
    let n = func.regs.len();
    let mut last: [Vec<Option<InstId>>; 2] = [vec![None; n], vec![None; n]];
    for (i, inst) in func.insts_in_order() {
        visit_defs_and_uses(inst, |access, r| {
            let k = (access == Access::Use) as usize;
            if let Some(l) = last[k].get_mut(ri(r)) {
                if *l != Some(i) {
                    *l = Some(i);
                    f(k, ri(r), i);
                }
            }
        });
    }
}

impl Accesses {
    pub(crate) fn new(func: &Function) -> Accesses {
        let n = func.regs.len();
        let mut pairs: [Vec<(usize, InstId)>; 2] = [Vec::new(), Vec::new()];
        each_access(func, |k, r, i| pairs[k].push((r, i)));
        Accesses {
            writers: Lists::new(n, &pairs[0]),
            readers: Lists::new(n, &pairs[1]),
        }
    }

    /// The placed instructions that write `r`.
    pub(crate) fn writers(&self, r: RegId) -> &[InstId] {
        self.writers.get(ri(r))
    }

    /// The placed instructions that read `r`.
    pub(crate) fn readers(&self, r: RegId) -> &[InstId] {
        self.readers.get(ri(r))
    }

    /// Keeps the lists true after a phase made `inst` write `to` instead of
    /// `from`, and removed `gone` (which wrote `to` and read `from`).
    pub(crate) fn retarget(&mut self, inst: InstId, from: RegId, to: RegId, gone: InstId) {
        for list in [
            self.writers.get_mut(ri(from)),
            self.readers.get_mut(ri(from)),
        ]
        .into_iter()
        .flatten()
        {
            list.clear();
        }
        if let Some(w) = self.writers.get_mut(ri(to)) {
            w.retain(|&i| i != gone);
            w.push(inst);
        }
        if let Some(r) = self.readers.get_mut(ri(to)) {
            r.retain(|&i| i != gone);
        }
    }
}

impl Facts {
    /// The control-flow graph the facts were built on.
    pub(crate) fn cfg(&self) -> &ptx_analysis::Cfg {
        &self.cfg
    }

    /// [`Facts::cfg`], shared.
    pub(crate) fn cfg_rc(&self) -> Rc<ptx_analysis::Cfg> {
        self.cfg.clone()
    }

    /// [`Facts::dom`], shared.
    pub(crate) fn dom_rc(&self) -> Rc<DomTree> {
        self.dom.clone()
    }

    pub(crate) fn new(func: &Function) -> Facts {
        let g = cfg(func);
        let dom = dominators(&g);
        Facts::with_graph(func, Rc::new(g), Rc::new(dom))
    }

    /// The facts of `func` on its CFG and dominator tree, made already.
    pub(crate) fn with_graph(
        func: &Function,
        cfg: Rc<ptx_analysis::Cfg>,
        dom: Rc<DomTree>,
    ) -> Facts {
        Facts::with_parts(Rc::new(Accesses::new(func)), cfg, dom)
    }

    /// The facts made of their parts (the access lists made already).
    pub(crate) fn with_parts(
        access: Rc<Accesses>,
        cfg: Rc<ptx_analysis::Cfg>,
        dom: Rc<DomTree>,
    ) -> Facts {
        Facts { access, dom, cfg }
    }

    /// The placed instructions that write `r`.
    pub(crate) fn writers(&self, r: RegId) -> &[InstId] {
        self.access.writers(r)
    }

    /// The placed instructions that read `r` (when the facts were built).
    pub(crate) fn readers(&self, r: RegId) -> &[InstId] {
        self.access.readers(r)
    }

    /// The one instruction writing `r`, if exactly one does.
    pub(crate) fn single_writer(&self, r: RegId) -> Option<InstId> {
        match self.writers(r) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The one instruction whose write of `r` reaches `at`, where that is
    /// sure: `r`'s only writer when it dominates `at`, or else the last
    /// writer of `r` before `at` in `at`'s own block (an unrolled loop's
    /// copies each write the same register and read it in the same block).
    pub(crate) fn reaching_writer(&self, r: RegId, at: InstId) -> Option<InstId> {
        if let Some(one) = self.single_writer(r) {
            return self.dominates(one, at).then_some(one);
        }
        let (block, index) = (self.block_of(at)?, self.index_of(at)?);
        self.writers(r)
            .iter()
            .copied()
            .filter(|&w| {
                self.block_of(w) == Some(block) && self.index_of(w).is_some_and(|i| i < index)
            })
            .max_by_key(|&w| self.index_of(w))
    }

    /// The dominator tree the facts were built with.
    pub(crate) fn dom(&self) -> &DomTree {
        &self.dom
    }

    pub(crate) fn block_of(&self, i: InstId) -> Option<BlockId> {
        self.cfg.block_of(i)
    }

    pub(crate) fn index_of(&self, i: InstId) -> Option<u32> {
        self.cfg.position_of(i)
    }

    /// Whether every path from the entry to `b` passes `a` first: `a` is
    /// before `b` in one block, or `a`'s block strictly dominates `b`'s.
    pub(crate) fn dominates(&self, a: InstId, b: InstId) -> bool {
        let (Some(ba), Some(bb), Some(ia), Some(ib)) = (
            self.block_of(a),
            self.block_of(b),
            self.index_of(a),
            self.index_of(b),
        ) else {
            return false;
        };
        if ba == bb {
            ia < ib
        } else {
            self.dom.contains(ba) && self.dom.contains(bb) && self.dom.strictly_dominates(ba, bb)
        }
    }

    /// Whether the value `r` holds right after `at` is the value it holds at
    /// `later` (which `at` dominates), because nothing can write `r` on a
    /// path from `at` to `later`: either `r` is a `.reg` parameter never
    /// written, or its one writer dominates `at` (a path from `at` to
    /// `later` through that writer would give a path from the entry to
    /// `later` avoiding `at`), or `at` and `later` are in one block with no
    /// writer of `r` between them.
    pub(crate) fn unchanged_between(
        &self,
        func: &Function,
        r: RegId,
        at: InstId,
        later: InstId,
    ) -> bool {
        let writers = self.writers(r);
        let global = match writers {
            [] => is_param(func, r),
            [w] => *w == at || self.dominates(*w, at),
            _ => false,
        };
        if global {
            return true;
        }
        // The same block, no writer in between.
        match (
            self.block_of(at),
            self.block_of(later),
            self.index_of(at),
            self.index_of(later),
        ) {
            (Some(ba), Some(bb), Some(ia), Some(ib)) if ba == bb && ia < ib => {
                !writers.iter().any(|&w| {
                    self.block_of(w) == Some(ba)
                        && self.index_of(w).is_some_and(|k| k > ia && k < ib)
                })
            }
            _ => false,
        }
    }
}

/// Blocks reachable from the end of a block without passing through a
/// given block (which is reached but not left), computed on demand and
/// cached: for "can a write happen between a copy and a use, with no
/// execution of the copy in between".
pub(crate) struct Reach {
    /// The facts' CFG (its successor lists are `Function::all_successors`'s).
    cfg: Rc<ptx_analysis::Cfg>,
    cache: rustc_hash::FxHashMap<(BlockId, BlockId), rustc_hash::FxHashSet<BlockId>>,
}

impl Reach {
    /// Reachability on the block graph of the function `facts` describe.
    pub(crate) fn new(facts: &Facts) -> Reach {
        Reach {
            cfg: facts.cfg_rc(),
            cache: Default::default(),
        }
    }

    /// Whether `to` can be reached from the end of `from` (one edge or
    /// more) on a path that does not go through `avoid` (it may end there).
    pub(crate) fn reaches(&mut self, from: BlockId, to: BlockId, avoid: BlockId) -> bool {
        let key = (from, avoid);
        if !self.cache.contains_key(&key) {
            let mut seen = rustc_hash::FxHashSet::default();
            let mut work: Vec<BlockId> = self.cfg.succs(from).to_vec();
            while let Some(b) = work.pop() {
                if seen.insert(b) && b != avoid {
                    work.extend_from_slice(self.cfg.succs(b));
                }
            }
            self.cache.insert(key, seen);
        }
        self.cache.get(&key).is_some_and(|s| s.contains(&to))
    }
}

impl Facts {
    /// Whether no write of `r` can execute after `at` and before `later`
    /// (which `at` dominates) on a path that does not execute `at` again:
    /// then `r` holds at `later` what it held at the last execution of
    /// `at`.
    pub(crate) fn no_write_on_paths(
        &self,
        reach: &mut Reach,
        r: RegId,
        at: InstId,
        later: InstId,
    ) -> bool {
        let (Some(bm), Some(bu), Some(im), Some(iu)) = (
            self.block_of(at),
            self.block_of(later),
            self.index_of(at),
            self.index_of(later),
        ) else {
            return false;
        };
        self.writers(r).iter().all(|&d| {
            let (Some(bd), Some(id)) = (self.block_of(d), self.index_of(d)) else {
                return false;
            };
            let on_path = if bd == bm {
                // Before `at` in its block: reaching it again passes `at`.
                id > im
                    && if bu == bm {
                        id < iu
                    } else {
                        reach.reaches(bm, bu, bm)
                    }
            } else {
                bu != bm
                    && reach.reaches(bm, bd, bm)
                    && ((bd == bu && id < iu) || reach.reaches(bd, bu, bm))
            };
            !on_path
        })
    }
}

/// Whether `r` is a `.reg` parameter of the function.
pub(crate) fn is_param(func: &Function, r: RegId) -> bool {
    func.has_reg(r)
        && func.regs[r]
            .decl
            .is_some_and(|d| func.reg_decls[d].is_param)
}

/// A plain register operand (no component): its register.
pub(crate) fn plain_reg(op: &Operand) -> Option<RegId> {
    match op {
        Operand::Reg {
            reg,
            component: None,
        } => Some(*reg),
        _ => None,
    }
}

/// The value predicate `p` has when `at` executes, when the compiler can
/// tell: its one writer dominates `at` and is an unguarded `setp` of two
/// integer immediates (no `.and`/`.or`/`.xor`), a `not.pred` or `mov.pred`
/// of a known predicate, or a `mov.pred` of an immediate. `depth` bounds
/// the chain.
pub(crate) fn known_pred(
    func: &Function,
    facts: &Facts,
    p: RegId,
    at: InstId,
    depth: u32,
) -> Option<bool> {
    if depth > 8 {
        return None;
    }
    let def = facts.reaching_writer(p, at)?;
    let inst = func.has_inst(def).then(|| &func.insts[def])?;
    if inst.guard.is_some() || plain_reg(inst.operands.first()?)? != p {
        return None;
    }
    let info = &inst.opcode.info;
    match info.family {
        FamilyId::Setp => {
            if info.bool_op.is_some() || inst.operands.len() != 3 {
                return None;
            }
            let ty = info.ty()?;
            let a = int_imm(&inst.operands[1])?;
            let b = int_imm(&inst.operands[2])?;
            compare(info.cmp?, ty, a, b)
        }
        FamilyId::Not | FamilyId::Mov if info.ty() == Some(Ty::Pred) => {
            if inst.operands.len() != 2 {
                return None;
            }
            let value = match &inst.operands[1] {
                Operand::Imm(imm) if info.family == FamilyId::Mov => match imm.value {
                    ImmValue::Int(v) => Some(v != 0),
                    _ => None,
                },
                op => {
                    let q = plain_reg(op)?;
                    known_pred(func, facts, q, def, depth + 1)
                }
            }?;
            Some(if info.family == FamilyId::Not {
                !value
            } else {
                value
            })
        }
        _ => None,
    }
}

pub(crate) fn int_imm(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(imm) => match imm.value {
            ImmValue::Int(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// `a cmp b` for integer type `ty` (the immediates truncated to its width
/// as PTX does); `None` for float types and comparisons that need them.
pub(crate) fn compare(cmp: Cmp, ty: Ty, a: i128, b: i128) -> Option<bool> {
    if !ty.is_int() && !matches!(ty, Ty::B16 | Ty::B32 | Ty::B64 | Ty::B8) {
        return None;
    }
    let bits = ty.bits();
    if bits == 0 || bits > 64 {
        return None;
    }
    let mask: u128 = (1u128 << bits) - 1;
    let (ua, ub) = ((a as u128) & mask, (b as u128) & mask);
    let sext = |u: u128| -> i128 {
        let sign = 1u128 << (bits - 1);
        if u & sign != 0 {
            (u as i128) - (1i128 << bits)
        } else {
            u as i128
        }
    };
    let (sa, sb) = (sext(ua), sext(ub));
    let signed = ty.is_signed();
    Some(match cmp {
        Cmp::Eq => ua == ub,
        Cmp::Ne => ua != ub,
        Cmp::Lt if signed => sa < sb,
        Cmp::Le if signed => sa <= sb,
        Cmp::Gt if signed => sa > sb,
        Cmp::Ge if signed => sa >= sb,
        Cmp::Lt | Cmp::Lo => ua < ub,
        Cmp::Le | Cmp::Ls => ua <= ub,
        Cmp::Gt | Cmp::Hi => ua > ub,
        Cmp::Ge | Cmp::Hs => ua >= ub,
        _ => return None,
    })
}

/// Whether `inst` reads `r` anywhere but its guard.
pub(crate) fn reads_outside_guard(inst: &Inst, r: RegId) -> bool {
    let mut found = false;
    let mut first_guard = inst.guard.is_some();
    visit_defs_and_uses(inst, |access, reg| {
        if access == Access::Use {
            if first_guard {
                first_guard = false;
                return;
            }
            if reg == r {
                found = true;
            }
        }
    });
    found
}

/// Takes `inst` out of `block`, moving its `.loc` lines to the instruction
/// that follows it in the layout (ptxas wants every `inlined_at` position
/// to appear in an earlier `.loc`, so a removed line must not vanish).
pub(crate) fn remove_keeping_locs(func: &mut Function, block: BlockId, inst: InstId) {
    let Some(pos) = func
        .has_block(block)
        .then(|| func.blocks[block].insts.iter().position(|&i| i == inst))
        .flatten()
    else {
        return;
    };
    func.blocks[block].insts.remove(pos);
    let locs = std::mem::take(&mut func.insts[inst].locs);
    give_locs(func, block, pos, locs);
}

/// Prepends `locs` to the first instruction at or after index `pos` of
/// `block` in the layout (dropped at the end of the function).
pub(crate) fn give_locs(func: &mut Function, block: BlockId, pos: usize, locs: ptx_ir::ir::Locs) {
    if locs.is_empty() {
        return;
    }
    let Some(start) = func.layout.iter().position(|&b| b == block) else {
        return;
    };
    let mut first = Some(pos);
    for &b in &func.layout[start..] {
        let from = first.take().unwrap_or(0);
        if let Some(&i) = func.blocks[b].insts.get(from) {
            let target = &mut func.insts[i];
            target.locs = ptx_ir::ir::Locs::join(locs, std::mem::take(&mut target.locs));
            return;
        }
    }
}
