//! Phase 50 OriReassociateAndCommon: integer `add`/`mul`/`and`/`or`/`xor`
//! chains are flattened, their operands sorted, the chain rebuilt
//! left-leaning, and the result commoned in a sliding window.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 50 -- OriReassociateAndCommon"
//! (Algorithm: SUB rewriting, tree flattening, canonical sort, left-leaning
//! rebuild, windowed local commoning; "Why Reassociation Matters";
//! "Controlling Knobs").
//!
//! # Knobs
//!
//! - `AllowReassociateCSE` (default true): the phase runs at all.
//! - `ReassociateCSEBudget` (0: unlimited): instructions examined per
//!   function; `ReassociateCSESkip`: the first N instructions are skipped.
//! - `ReassociateCSEWindow` (0: the built-in 64): how far back the commoning
//!   after reassociation looks, in instructions of the block.
//! - `ReassociateLargeImmInUIADD64` (default false): a 64-bit `add` chain
//!   whose folded constant does not fit in 32 bits is left as it is unless
//!   set (a 64-bit immediate costs an extra move in SASS).
//! - `DistributeAndReassociateMulBudget` (a*b + a*c -> a*(b+c)) is not
//!   read: the distributive rewrite is not implemented.
//!
//! # What it does
//!
//! A chain root is an unguarded `add`, `mul.lo`, `and`, `or` or `xor` of an
//! integer or bit type (no `.sat`, no `.cc`) whose result is not itself one
//! operand of the same operation in a longer chain. Its operands are
//! flattened: an operand is pulled into the chain when it is a register
//! whose one definition is the same operation (same opcode and type) in the
//! same block, earlier, unguarded, read only by this node (and once), so the
//! node is dead once the chain is rebuilt; for `add`, a `sub` of the same
//! type under the same conditions is pulled in with its second operand
//! negated (the seed's SUB -> ADD+NEG, applied only into an add chain).
//! Everything else is a leaf: immediates, registers defined elsewhere, by
//! another operation, or read more than once. Every register leaf must hold
//! at the root what it held where the chain read it (no write between).
//!
//! With three leaves or more, the constants fold into one (wrapping at the
//! type's width), a leaf and its negation cancel, and the rest sort by rank
//! (positive before negated, then the position of the register's first
//! definition, then its name; the constant last);
//! the chain is rebuilt left-leaning, `((a op b) op c) op k`, with fresh
//! registers for the inner results and the root keeping its destination.
//! Negated leaves are subtracted (`sub`) where the seed writes `add` of a
//! `neg`: the same value, one instruction fewer. A chain already in that
//! form is left alone (so a second run changes nothing), and so is a chain
//! whose rebuild would have as many operations and whose first operation is
//! not already computed earlier in the block: reordering alone gains
//! nothing, and since which operands are leaves depends on what later
//! phases share, it would not reach a fixed point over rounds of the
//! pipeline. The old inner nodes are dead; the live/dead phases remove
//! them.
//!
//! Then the windowed commoning: the commoning walk of
//! [`super::commoning`] within each block, a leader at most the window
//! earlier, which merges chains that now have equal keys (`(a+b)+c` and
//! `(a+c)+b` both become `(a+b)+c`).
//!
//! # Floating point
//!
//! Not reassociated: `(a+b)+c` and `a+(b+c)` round differently, so the
//! result would change. The seed names no knob that allows it, and none is
//! added here.

use std::sync::Arc;

use ptx_ir::ir::{Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::FamilyId;

use super::commoning::{self, Config, Scope};
use super::gvn_cse::{finish, PATH_CHECKS};
use super::known::{plain_reg, Facts};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// The commoning window when `ReassociateCSEWindow` is not set.
const DEFAULT_WINDOW: u32 = 64;
/// The most leaves a chain may have.
const MAX_LEAVES: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Leaf {
    Reg { reg: RegId, neg: bool },
    Const(i128),
}

/// One chain to rebuild: the root, its planned leaves, the opcode.
struct Plan {
    root: InstId,
    dest: RegId,
    opcode: Opcode,
    leaves: Vec<Leaf>,
    before: usize,
}

fn imm_int(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(v),
            ..
        }) => Some(*v),
        _ => None,
    }
}

/// Whether `inst` can be a node of an associative chain.
fn chain_op(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    let Some(ty) = info.ty() else { return false };
    let int = ty.is_int() || matches!(ty.bits(), 16 | 32 | 64) && !ty.is_float();
    let ok_family = match info.family {
        FamilyId::Add | FamilyId::And | FamilyId::Or | FamilyId::Xor => true,
        FamilyId::Mul => inst.opcode.has_modifier(".lo"),
        _ => false,
    };
    ok_family
        && int
        && !ty.is_float()
        && ty.bits() >= 16
        && !info.sat
        && !info
            .flags
            .intersects(ptx_isa::OpFlags::CARRY_OUT.union(ptx_isa::OpFlags::CARRY_IN))
        && inst.guard.is_none()
        && inst.operands.len() == 3
        && plain_reg(&inst.operands[0]).is_some()
}

/// `sub` with the same type as `add` `root`.
fn is_matching_sub(sub: &Inst, root: &Inst) -> bool {
    let (a, b) = (&sub.opcode.info, &root.opcode.info);
    a.family == FamilyId::Sub
        && b.family == FamilyId::Add
        && a.ty() == b.ty()
        && !a.sat
        && !a
            .flags
            .intersects(ptx_isa::OpFlags::CARRY_OUT.union(ptx_isa::OpFlags::CARRY_IN))
        && sub.guard.is_none()
        && sub.operands.len() == 3
}

struct Flatten<'a> {
    f: &'a Function,
    facts: &'a Facts,
    root: InstId,
    /// Leaves with the index (in the block) of the node that reads them.
    leaves: Vec<(Leaf, u32)>,
    /// The nodes pulled in (the root included).
    nodes: Vec<InstId>,
}

impl Flatten<'_> {
    fn operand(&mut self, node: InstId, op: &Operand, neg: bool) -> bool {
        if self.leaves.len() > MAX_LEAVES {
            return false;
        }
        let at = self.facts.index_of(node).unwrap_or(0);
        if let Some(v) = imm_int(op) {
            self.leaves
                .push((Leaf::Const(if neg { v.wrapping_neg() } else { v }), at));
            return true;
        }
        let Some(r) = plain_reg(op) else { return false };
        if let Some(w) = self.absorbable(node, r) {
            self.nodes.push(w);
            let def = &self.f.insts[w];
            let (a, b) = (def.operands[1].clone(), def.operands[2].clone());
            let sub = def.opcode.info.family == FamilyId::Sub;
            return self.operand(w, &a, neg) && self.operand(w, &b, neg != sub);
        }
        self.leaves.push((Leaf::Reg { reg: r, neg }, at));
        true
    }

    /// The definition of `r` when it can be pulled into the chain at `node`.
    fn absorbable(&self, node: InstId, r: RegId) -> Option<InstId> {
        let w = self.facts.single_writer(r)?;
        let def = &self.f.insts[w];
        let root = &self.f.insts[self.root];
        let same = def.opcode == root.opcode && chain_op(def);
        if !(same || is_matching_sub(def, root)) {
            return None;
        }
        if self.facts.block_of(w) != self.facts.block_of(node)
            || self.facts.index_of(w)? >= self.facts.index_of(node)?
            || self.facts.readers(r) != [node]
        {
            return None;
        }
        let reads = self.f.insts[node]
            .operands
            .iter()
            .filter(|o| plain_reg(o) == Some(r))
            .count();
        (reads == 1).then_some(w)
    }
}

/// Whether no instruction of `b` strictly between indices `from` and `to`
/// writes `r`.
fn unwritten(facts: &Facts, r: RegId, block: ptx_ir::ir::BlockId, from: u32, to: u32) -> bool {
    !facts.writers(r).iter().any(|&w| {
        facts.block_of(w) == Some(block) && facts.index_of(w).is_some_and(|k| k > from && k < to)
    })
}

/// Folds `a op b` at `bits`.
fn fold(family: FamilyId, a: i128, b: i128, bits: u32) -> i128 {
    let mask: u128 = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let v = match family {
        FamilyId::Add => a.wrapping_add(b),
        FamilyId::Mul => a.wrapping_mul(b),
        FamilyId::And => a & b,
        FamilyId::Or => a | b,
        _ => a ^ b,
    };
    let u = (v as u128) & mask;
    // Back to a signed value of `bits` (what a literal of the type means).
    let sign = 1u128 << (bits - 1);
    if u & sign != 0 {
        (u as i128) - (1i128 << bits)
    } else {
        u as i128
    }
}

fn identity(family: FamilyId, bits: u32) -> i128 {
    match family {
        FamilyId::Mul => 1,
        FamilyId::And => fold(FamilyId::And, -1, -1, bits),
        _ => 0,
    }
}

/// Runs OriReassociateAndCommon on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if !ctx.bool(knobs::AllowReassociateCSE) {
        return PhaseOutput::unchanged(input);
    }
    let budget = ctx.int(knobs::ReassociateCSEBudget).max(0) as u64;
    let skip = ctx.int(knobs::ReassociateCSESkip).max(0) as u64;
    let window = match ctx.int(knobs::ReassociateCSEWindow) {
        w if w > 0 => w.min(u32::MAX as i64) as u32,
        _ => DEFAULT_WINDOW,
    };
    let large_imm = ctx.bool(knobs::ReassociateLargeImmInUIADD64);
    let facts = super::version_cache::facts(input);
    let f0: &Function = input;
    let ranks = Ranks::new(f0);
    let mut plans: Vec<Plan> = Vec::new();
    let mut seen = 0u64;
    let mut budget_hit = false;
    'blocks: for &b in &f0.layout {
        for &i in &f0.blocks[b].insts {
            seen += 1;
            if seen <= skip {
                continue;
            }
            if budget > 0 && seen - skip > budget {
                budget_hit = true;
                break 'blocks;
            }
            let inst = &f0.insts[i];
            if !chain_op(inst) {
                continue;
            }
            let Some(dest) = plain_reg(&inst.operands[0]) else {
                continue;
            };
            // A node of a longer chain is handled from its root.
            let mut probe = Flatten {
                f: f0,
                facts: &facts,
                root: i,
                leaves: Vec::new(),
                nodes: Vec::new(),
            };
            if let [reader] = facts.readers(dest) {
                let parent = &f0.insts[*reader];
                if parent.opcode == inst.opcode && chain_op(parent) {
                    probe.root = *reader;
                    if probe.absorbable(*reader, dest) == Some(i) {
                        continue;
                    }
                    probe.root = i;
                }
            }
            let (a, c) = (inst.operands[1].clone(), inst.operands[2].clone());
            if !(probe.operand(i, &a, false) && probe.operand(i, &c, false)) {
                continue;
            }
            if probe.nodes.is_empty() || probe.leaves.len() < 3 {
                continue;
            }
            let Some(at) = facts.index_of(i) else {
                continue;
            };
            // Every register leaf still holds its value at the root.
            if !probe.leaves.iter().all(|(l, read_at)| match l {
                Leaf::Reg { reg, .. } => unwritten(&facts, *reg, b, *read_at, at),
                Leaf::Const(_) => true,
            }) {
                continue;
            }
            let family = inst.opcode.info.family;
            let bits = inst.opcode.info.ty().map_or(32, |t| t.bits());
            // The canonical leaves.
            let mut konst = identity(family, bits);
            let mut regs: Vec<(bool, RegId)> = Vec::new();
            for (l, _) in &probe.leaves {
                match l {
                    Leaf::Const(v) => konst = fold(family, konst, *v, bits),
                    Leaf::Reg { reg, neg } => {
                        // x and -x cancel.
                        if let Some(p) = regs.iter().position(|&(n, r)| r == *reg && n != *neg) {
                            regs.remove(p);
                        } else {
                            regs.push((*neg, *reg));
                        }
                    }
                }
            }
            regs.sort_by_cached_key(|&(neg, r)| ranks.key(&Leaf::Reg { reg: r, neg }));
            let mut leaves: Vec<Leaf> = regs
                .iter()
                .map(|&(neg, reg)| Leaf::Reg { reg, neg })
                .collect();
            if konst != identity(family, bits) || leaves.is_empty() {
                if family == FamilyId::Add
                    && bits == 64
                    && !large_imm
                    && i32::try_from(konst).is_err()
                {
                    continue;
                }
                leaves.push(Leaf::Const(konst));
            }
            if leaves.len() < 2 || matches!(leaves[0], Leaf::Reg { neg: true, .. } | Leaf::Const(_))
            {
                continue;
            }
            // Already canonical: the same leaves in the same order, a left
            // spine of the chain's own nodes.
            let spine = left_spine(f0, &facts, &ranks, i, &probe.nodes);
            if spine.as_deref() == Some(leaves.as_slice()) {
                continue;
            }
            // Worth it: fewer operations (constants folded, x and -x
            // cancelled), or the rebuilt chain's first operation is already
            // computed earlier in the block (the commoning after the rebuild
            // merges it). Otherwise the order would only move: and which
            // operand is a leaf depends on what later phases share, so a
            // rebuild for order alone would not reach a fixed point.
            let fewer = leaves.len() - 1 < probe.nodes.len() + 1;
            if !fewer && !prefix_exists(f0, &facts, b, i, at, &inst.opcode, &leaves[0], &leaves[1])
            {
                continue;
            }
            plans.push(Plan {
                root: i,
                dest,
                opcode: inst.opcode,
                leaves,
                before: probe.nodes.len() + 1,
            });
        }
    }
    if plans.is_empty() {
        let mut out = PhaseOutput::unchanged(input);
        if budget_hit {
            out.remarks.push(budget_remark(id, budget));
        }
        return out;
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    let mut rebuilt = 0u64;
    let mut nodes_before = 0u64;
    let mut nodes_after = 0u64;
    for plan in &plans {
        let org = f.origin(plan.root);
        let name = |f: &Function, l: &Leaf| match l {
            Leaf::Reg { reg, neg } => {
                format!("{}{}", if *neg { "-" } else { "" }, f.regs[*reg].name)
            }
            Leaf::Const(v) => v.to_string(),
        };
        let described: Vec<String> = plan.leaves.iter().map(|l| name(&f, l)).collect();
        let ty = plan.opcode.info.ty();
        let signed = ty.is_some_and(|t| t.is_signed());
        let bits = ty.map_or(32, |t| t.bits());
        let leaf_op = |l: &Leaf| match l {
            Leaf::Reg { reg, .. } => Operand::Reg {
                reg: *reg,
                component: None,
            },
            Leaf::Const(v) => {
                // Unsigned and bit types get the literal as an unsigned value.
                let v = if signed || *v >= 0 {
                    *v
                } else {
                    ((*v as u128) & ((1u128 << bits) - 1)) as i128
                };
                Operand::Imm(Imm::new(ImmValue::Int(v)))
            }
        };
        let sub_opcode = Opcode::new("sub", plan.opcode.modifiers.clone());
        let mut acc = leaf_op(&plan.leaves[0]);
        let n = plan.leaves.len();
        for (k, l) in plan.leaves.iter().enumerate().skip(1) {
            let neg = matches!(l, Leaf::Reg { neg: true, .. });
            let opcode = if neg { sub_opcode } else { plan.opcode };
            let dst = if k == n - 1 {
                plan.dest
            } else {
                match f.clone_reg(plan.dest) {
                    Some(r) => r,
                    None => break,
                }
            };
            let new = Inst {
                guard: None,
                opcode,
                operands: vec![
                    Operand::Reg {
                        reg: dst,
                        component: None,
                    },
                    acc.clone(),
                    leaf_op(l),
                ],
                locs: Default::default(),
                range: f.insts[plan.root].range,
            };
            if k == n - 1 {
                let locs = std::mem::take(&mut f.insts[plan.root].locs);
                f.insts[plan.root] = Inst { locs, ..new };
            } else {
                let id_new = f.add_inst(new, org);
                f.insert_before(plan.root, id_new);
            }
            acc = Operand::Reg {
                reg: dst,
                component: None,
            };
        }
        rebuilt += 1;
        nodes_before += plan.before as u64;
        nodes_after += (n - 1) as u64;
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "reassociate",
            origin: origin(&f, plan.root),
            message: format!(
                "`{}` chain of {} operations rebuilt as {} over sorted operands: {}",
                plan.opcode.text(),
                plan.before,
                n - 1,
                described.join(", ")
            ),
        });
    }
    if budget_hit {
        remarks.push(budget_remark(id, budget));
    }
    // The windowed commoning.
    let cfg = Config {
        scope: Scope::Block,
        ebb_loads: false,
        plain_loads: false,
        mufu: false,
        through_moves: true,
        bloom: false,
        path_checks: PATH_CHECKS,
        param_loads_only: false,
        window,
        cheap_not_across_loops: false,
    };
    let outcome = commoning::run(&mut f, &cfg, None, None);
    let mut out = finish(id, input, f, outcome, None, true);
    out.remarks.extend(remarks);
    out.remarks
        .sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    out.stats.insert(
        0,
        Stat {
            name: "chains rebuilt",
            value: rebuilt,
        },
    );
    out.stats.insert(
        1,
        Stat {
            name: "chain operations before",
            value: nodes_before,
        },
    );
    out.stats.insert(
        2,
        Stat {
            name: "chain operations after",
            value: nodes_after,
        },
    );
    out
}

/// Whether an unguarded `opcode` of `a` and `b` (either order) earlier in
/// block `b` still holds its value at index `at` (its destination and the
/// two registers unwritten since).
#[allow(clippy::too_many_arguments)]
fn prefix_exists(
    f: &Function,
    facts: &Facts,
    block: ptx_ir::ir::BlockId,
    root: InstId,
    at: u32,
    opcode: &Opcode,
    a: &Leaf,
    b: &Leaf,
) -> bool {
    let same = |op: &Operand, l: &Leaf| match l {
        Leaf::Reg { reg, neg: false } => plain_reg(op) == Some(*reg),
        Leaf::Const(v) => imm_int(op) == Some(*v),
        _ => false,
    };
    let unchanged = |l: &Leaf, from: u32| match l {
        Leaf::Reg { reg, .. } => unwritten(facts, *reg, block, from, at),
        Leaf::Const(_) => true,
    };
    f.blocks[block].insts.iter().enumerate().any(|(k, &j)| {
        let k = k as u32;
        if k >= at || j == root {
            return false;
        }
        let inst = &f.insts[j];
        if inst.guard.is_some() || inst.opcode != *opcode || inst.operands.len() != 3 {
            return false;
        }
        let (x, y) = (&inst.operands[1], &inst.operands[2]);
        let matches = (same(x, a) && same(y, b)) || (same(x, b) && same(y, a));
        matches
            && plain_reg(&inst.operands[0]).is_some_and(|d| unwritten(facts, d, block, k, at))
            && unchanged(a, k)
            && unchanged(b, k)
    })
}

fn budget_remark(id: PhaseId, budget: u64) -> Remark {
    Remark {
        phase: id,
        kind: RemarkKind::Missed,
        name: "budget",
        origin: None,
        message: format!("ReassociateCSEBudget={budget} instructions examined; the rest are left"),
    }
}

/// The rank of each register: the position (in layout order) of its first
/// definition, a value number that survives printing and reading the
/// function again (register arena numbers do not: names made by passes are
/// declared after the source's ranges); never-written registers (parameters)
/// come first.
struct Ranks {
    /// By register index: 1 + the position of its first definition in the
    /// layout (0: none).
    first_def: Vec<u32>,
}

fn reg_slot(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

impl Ranks {
    fn new(f: &Function) -> Ranks {
        let n = f.regs.len();
        let mut first_def = vec![0u32; n];
        for (k, (_, inst)) in f.insts_in_order().enumerate() {
            ptx_ir::ir::def_use::visit_defs_and_uses(inst, |a, r| {
                if a == ptx_ir::ir::def_use::Access::Def {
                    if let Some(slot) = first_def.get_mut(reg_slot(r)).filter(|s| **s == 0) {
                        *slot = k as u32 + 1;
                    }
                }
            });
        }
        // A copy `mov %d, %s` (the one definition of %d) ranks as its
        // source: copy propagation after this phase replaces %d by %s, and
        // the order must not change when it does.
        let mut copy_of: rustc_hash::FxHashMap<RegId, RegId> = rustc_hash::FxHashMap::default();
        let mut defs = vec![0u32; n];
        for (_, inst) in f.insts_in_order() {
            ptx_ir::ir::def_use::visit_defs_and_uses(inst, |a, r| {
                if a == ptx_ir::ir::def_use::Access::Def {
                    if let Some(d) = defs.get_mut(reg_slot(r)) {
                        *d += 1;
                    }
                }
            });
            if inst.opcode.info.family == FamilyId::Mov
                && inst.guard.is_none()
                && inst.operands.len() == 2
            {
                if let (Some(d), Some(src)) =
                    (plain_reg(&inst.operands[0]), plain_reg(&inst.operands[1]))
                {
                    if f.regs[d].ty == f.regs[src].ty {
                        copy_of.insert(d, src);
                    }
                }
            }
        }
        let mut resolved = first_def.clone();
        for (&d, _) in copy_of.iter() {
            let mut r = d;
            for _ in 0..16 {
                match copy_of.get(&r) {
                    Some(&src) if defs.get(reg_slot(r)) == Some(&1) && src != d => r = src,
                    _ => break,
                }
            }
            if let Some(slot) = resolved.get_mut(reg_slot(d)) {
                *slot = first_def.get(reg_slot(r)).copied().unwrap_or(0);
            }
        }
        Ranks {
            first_def: resolved,
        }
    }

    /// The sort key of a leaf: registers (positive first, by rank; ties
    /// keep the flattening order), then the constant.
    fn key(&self, l: &Leaf) -> (bool, bool, u32) {
        match l {
            Leaf::Reg { reg, neg } => (
                false,
                *neg,
                self.first_def.get(reg_slot(*reg)).copied().unwrap_or(0),
            ),
            Leaf::Const(_) => (true, false, 0),
        }
    }
}

/// The leaves of the chain at `root` when it is already a left spine of its
/// nodes (each node combines one inner node, on either side of a
/// commutative operation or on the left of a `sub`, with one leaf): in
/// order, with signs, the two leaves of the bottom node sorted (they may be
/// swapped freely).
fn left_spine(
    f: &Function,
    facts: &Facts,
    ranks: &Ranks,
    root: InstId,
    nodes: &[InstId],
) -> Option<Vec<Leaf>> {
    let leaf = |op: &Operand, neg: bool| -> Option<Leaf> {
        Some(match imm_int(op) {
            Some(v) => Leaf::Const(if neg { v.wrapping_neg() } else { v }),
            None => Leaf::Reg {
                reg: plain_reg(op)?,
                neg,
            },
        })
    };
    let inner = |op: &Operand| -> Option<InstId> {
        let w = facts.single_writer(plain_reg(op)?)?;
        nodes.contains(&w).then_some(w)
    };
    let mut out = Vec::new();
    let mut node = root;
    for _ in 0..=MAX_LEAVES {
        let inst = &f.insts[node];
        let sub = inst.opcode.info.family == FamilyId::Sub;
        let (left, right) = (&inst.operands[1], &inst.operands[2]);
        match (inner(left), inner(right)) {
            (Some(_), Some(_)) => return None,
            (Some(w), None) => {
                out.push(leaf(right, sub)?);
                node = w;
            }
            (None, Some(w)) if !sub => {
                out.push(leaf(left, false)?);
                node = w;
            }
            (None, Some(_)) => return None,
            (None, None) => {
                let mut pair = [leaf(left, false)?, leaf(right, sub)?];
                if !sub {
                    pair.sort_by_cached_key(|l| ranks.key(l));
                }
                out.push(pair[1].clone());
                out.push(pair[0].clone());
                out.reverse();
                return Some(out);
            }
        }
    }
    None
}
