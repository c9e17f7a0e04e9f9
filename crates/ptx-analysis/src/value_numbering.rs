//! Hash-consed value numbers for instruction results.
//!
//! Seed: `001_3e9d45dd172cfaf4.txt`, "Phase 49 -- GvnCse (Global Value
//! Numbering + CSE)": "VN transfer function (formal)" (an eligible instruction
//! whose key is already in the table gets its leader's value number, otherwise
//! a fresh one), "Key design decisions" 3 (commutative operands — ADD, MUL, AND,
//! OR, XOR, MIN, MAX — are sorted by value number before hashing), 4 (the
//! address space is part of the opcode, so memory operations in different
//! spaces never match), 5 (a predicated instruction hashes its predicate's value
//! number as an extra operand: the same computation under different predicates
//! is a different value) and 6 (volatile and barrier-type registers are not
//! CSE'd), and "Instruction Eligibility" (only a whitelist of opcodes may be
//! merged). Blocks are walked in RPO, as the full GvnCse does.
//!
//! The IR is not SSA, so value numbers are attached to register *states*: a
//! walk in RPO keeps, for every register, the value it holds. At a block with
//! several predecessors a register whose incoming values differ gets a `Phi`
//! value for (block, register); at a loop header (a block with a retreating
//! predecessor) every register defined in the cycle gets one. A register never
//! written before holds its `Entry` value.
//!
//! An instruction's value number ([`ValueNumbering::inst_value`]) is the hash-
//! consed key `(opcode with all modifiers, operand values, guard value and
//! sense)`. Pure instructions (arithmetic, logic, compares, moves, conversions
//! — see [`is_pure`]) with equal keys get equal numbers; loads, stores,
//! atomics, barriers, calls, texture, warp-level instructions, carry-flag
//! arithmetic (`.cc`, `addc`) and reads of volatile special registers
//! (`%clock`, `%globaltimer`, `%smid`, ...) get a fresh `Opaque` number each.
//! The value a register holds after a guarded definition is `Select(guard,
//! result, old value)`. An instruction with several results (`setp p|q`, a
//! vector destination) numbers each as `Result(instruction value, index)`.
//!
//! [`ValueNumbering::redundant`] lists instructions whose value number equals
//! that of a dominating earlier instruction: GvnCse's candidates.
//!
//! Speed: each key is stored once, in [`ValueNumbering::values`]; the intern
//! table maps a key's hash to value numbers. A register state is a vector of
//! raw value numbers, so states are merged by comparing 32 registers at a time
//! (`memcmp`); a block's exit state is moved, not copied, to the last block
//! that reads it. The defs of every instruction are derived once.
//!
//! No knobs here (GvnCse's `EnableGvnCse` and mode knobs belong to the pass).

use std::hash::{Hash, Hasher};

use la_arena::ArenaMap;
use ptx_ir::ir::{AddressBase, BlockId, Function, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use rustc_hash::{FxHashMap, FxHasher};

use crate::bitset::BitSet;
use crate::cfg::Cfg;
use crate::def_use::{reg_index, DefUseTable};
use crate::dominators::DomTree;

/// A value number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Vn(pub u32);

/// An operand inside a value key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VnOperand {
    Value(Vn),
    Int(i128),
    F32(u32),
    F64(u64),
    Special(String),
    Symbol(String, i64),
    Label(u32),
    Address(Box<VnOperand>, i64),
    List(Vec<VnOperand>),
    /// An operand kind with no value (a sink, an expression).
    Other(String),
}

/// What a value number stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// The value of a register at function entry.
    Entry(RegId),
    /// The merge of different incoming values of `reg` at `block`.
    Phi { block: BlockId, reg: RegId },
    /// A pure computation.
    Expr {
        opcode: String,
        operands: Vec<VnOperand>,
        guard: Option<(Vn, bool)>,
    },
    /// A computation that is never merged (memory, side effects).
    Opaque(InstId),
    /// Result `index` of a multi-result instruction value.
    Result(Vn, u32),
    /// After a guarded definition: `guard (negated?) ? value : old`.
    Select {
        guard: Vn,
        negated: bool,
        value: Vn,
        old: Vn,
    },
}

/// Value numbers of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ValueNumbering {
    /// Every value, indexed by [`Vn`].
    pub values: Vec<ValueKind>,
    inst_value: ArenaMap<InstId, Vn>,
    /// The results of each instruction: a range of `result_list`.
    results: ArenaMap<InstId, (u32, u32)>,
    result_list: Vec<Vn>,
    /// Instructions in the order they were numbered (RPO of their blocks).
    pub order: Vec<InstId>,
}

/// Whether `inst` may be merged with an equal one (see the module
/// documentation): [`Inst::is_pure`], the opcode's `PURE` flag (no memory,
/// carry flag, other threads or side effects) and no volatile special
/// register read.
pub fn is_pure(inst: &Inst) -> bool {
    inst.is_pure()
}

struct Builder {
    vn: ValueNumbering,
    /// The interned values, by the hash of their key: the newest entry of
    /// `chain` with that hash.
    table: FxHashMap<u64, u32>,
    /// `(value, older entry with the same hash or NONE)`.
    chain: Vec<(Vn, u32)>,
}

const NONE: u32 = u32::MAX;

impl Builder {
    /// The value of `kind`, numbered the first time it is seen. The key is
    /// stored once, in `values`; the table holds only value numbers.
    fn intern(&mut self, kind: ValueKind) -> Vn {
        let mut hasher = FxHasher::default();
        kind.hash(&mut hasher);
        let hash = hasher.finish();
        let head = self.table.get(&hash).copied().unwrap_or(NONE);
        let mut entry = head;
        while entry != NONE {
            let (v, older) = self.chain[entry as usize];
            if self.vn.values[v.0 as usize] == kind {
                return v;
            }
            entry = older;
        }
        let v = self.fresh(kind);
        self.table.insert(hash, self.chain.len() as u32);
        self.chain.push((v, head));
        v
    }

    /// A value whose key is never interned twice (an `Entry`, a `Phi` of
    /// the block being numbered, an `Opaque`): no table entry is needed, as
    /// no other kind of key can equal it.
    fn fresh(&mut self, kind: ValueKind) -> Vn {
        let v = Vn(self.vn.values.len() as u32);
        self.vn.values.push(kind);
        v
    }
}

fn operand_key(op: &Operand, state: &[u32]) -> VnOperand {
    let val = |r: &RegId| VnOperand::Value(Vn(state[reg_index(*r)]));
    match op {
        Operand::Reg { reg, component } => match component {
            None => val(reg),
            Some(c) => VnOperand::List(vec![val(reg), VnOperand::Other(c.clone())]),
        },
        Operand::Special { name, component } => {
            VnOperand::Special(format!("{name}{}", component.as_deref().unwrap_or("")))
        }
        Operand::Imm(imm) => match imm.value {
            ImmValue::Int(v) => VnOperand::Int(v),
            ImmValue::F32(b) => VnOperand::F32(b),
            ImmValue::F64(b) => VnOperand::F64(b),
        },
        Operand::Symbol { name, offset } => VnOperand::Symbol(name.clone(), *offset),
        Operand::Label(b) => VnOperand::Label(b.into_raw().into_u32()),
        Operand::Address(a) => {
            let base = match &a.base {
                AddressBase::Reg(r) => val(r),
                AddressBase::Symbol(s) => VnOperand::Symbol(s.clone(), 0),
                AddressBase::Absolute => VnOperand::Int(0),
            };
            VnOperand::Address(Box::new(base), a.offset)
        }
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            VnOperand::List(items.iter().map(|o| operand_key(o, state)).collect())
        }
        Operand::PredPair(a, b) => {
            VnOperand::List(vec![operand_key(a, state), operand_key(b, state)])
        }
        Operand::Sink => VnOperand::Other("_".into()),
        Operand::NegPred(r) => VnOperand::List(vec![VnOperand::Other("!".into()), val(r)]),
        Operand::NegReg { reg, component } => VnOperand::List(vec![
            VnOperand::Other("-".into()),
            val(reg),
            VnOperand::Other(component.clone().unwrap_or_default()),
        ]),
        Operand::RegOffset { reg, offset } => {
            VnOperand::List(vec![val(reg), VnOperand::Int(*offset as i128)])
        }
        Operand::Expr(e) => VnOperand::Other(e.clone()),
    }
}

/// Whether the two sources after the destination can be swapped: commutative
/// arithmetic, and `setp`/`set` with `.eq`/`.ne` (the opcode's `COMMUTATIVE`
/// flag).
fn commutative(inst: &Inst) -> bool {
    inst.opcode.info.flags.is_commutative()
}

/// Registers defined in the blocks that reach `latch` without passing through
/// `header`, in register order.
fn defined_in_cycle(
    func: &Function,
    cfg: &Cfg,
    du: &DefUseTable,
    header: BlockId,
    latches: &[BlockId],
) -> BitSet {
    let mut seen: ArenaMap<BlockId, ()> = ArenaMap::default();
    seen.insert(header, ());
    let mut work: Vec<BlockId> = Vec::new();
    for &l in latches {
        if seen.insert(l, ()).is_none() {
            work.push(l);
        }
    }
    let mut blocks = vec![header];
    while let Some(b) = work.pop() {
        blocks.push(b);
        for &p in cfg.preds(b) {
            if cfg.is_reachable(p) && seen.insert(p, ()).is_none() {
                work.push(p);
            }
        }
    }
    let mut regs = BitSet::new(func.regs.len());
    for b in blocks {
        for &i in &func.blocks[b].insts {
            for &d in du.defs(i) {
                regs.insert(reg_index(d));
            }
        }
    }
    regs
}

/// [`Opcode::text`], sized once.
fn opcode_text(opcode: &Opcode) -> String {
    let len = opcode.name.len() + opcode.modifiers.iter().map(String::len).sum::<usize>();
    let mut out = String::with_capacity(len);
    out.push_str(&opcode.name);
    for m in &opcode.modifiers {
        out.push_str(m);
    }
    out
}

fn reg_id(index: usize) -> RegId {
    la_arena::Idx::from_raw(la_arena::RawIdx::from(index as u32))
}

/// Numbers the values of `func`.
pub fn value_numbering(func: &Function, cfg: &Cfg) -> ValueNumbering {
    let nregs = func.regs.len();
    let du = DefUseTable::new(func);
    let mut b = Builder {
        vn: ValueNumbering::default(),
        table: FxHashMap::with_capacity_and_hasher(func.insts.len() * 2, Default::default()),
        chain: Vec::with_capacity(func.insts.len() * 2),
    };
    // Sized for what the corpus needs (about 2 phis per instruction), so
    // that the vectors rarely grow.
    let ninsts = func.insts.len();
    b.vn.values
        .reserve(nregs + 4 * ninsts + 2 * cfg.blocks.len());
    b.vn.result_list.reserve(ninsts + ninsts / 4);
    b.vn.order.reserve(ninsts);
    b.vn.inst_value = ArenaMap::with_capacity(ninsts);
    b.vn.results = ArenaMap::with_capacity(ninsts);
    // A state maps each register (by index) to the number of the value it
    // holds, as a raw `u32` so that whole states compare with `memcmp`.
    let mut entry_state: Vec<u32> = (0..nregs)
        .map(|i| b.fresh(ValueKind::Entry(reg_id(i))).0)
        .collect();
    // The exit state of each block, kept until its last forward successor
    // (in RPO) has read it; `consumers` counts those still to come, so a
    // state read once is moved rather than copied.
    let mut exit_states: ArenaMap<BlockId, Vec<u32>> = ArenaMap::default();
    let mut consumers: ArenaMap<BlockId, u32> = ArenaMap::default();
    for &block in &cfg.rpo {
        let my_rpo = cfg.rpo_index(block).unwrap_or(0);
        for &p in cfg.preds(block) {
            if cfg.rpo_index(p).is_some_and(|pi| pi < my_rpo) {
                *consumers.entry(p).or_insert(0) += 1;
            }
        }
    }
    let mut forward: Vec<BlockId> = Vec::new();
    let mut retreating: Vec<BlockId> = Vec::new();
    for &block in &cfg.rpo {
        let my_rpo = cfg.rpo_index(block).unwrap_or(0);
        forward.clear();
        retreating.clear();
        for &p in cfg.preds(block) {
            match cfg.rpo_index(p) {
                Some(pi) if pi < my_rpo => forward.push(p),
                Some(_) => retreating.push(p),
                None => {}
            }
        }
        // The first incoming state, owned: the entry state, else that of the
        // first forward predecessor.
        let mut rest = forward.as_slice();
        let first: Option<Vec<u32>> = if Some(block) == cfg.entry {
            Some(std::mem::take(&mut entry_state))
        } else if let Some((&p, tail)) = forward.split_first() {
            rest = tail;
            Some(take_state(&mut exit_states, &mut consumers, p))
        } else {
            None
        };
        // Values numbered from here until the first instruction are this
        // block's `Phi`s.
        let first_phi = b.vn.values.len() as u32;
        let mut state: Vec<u32> = match first {
            None => (0..nregs)
                .map(|r| {
                    b.fresh(ValueKind::Phi {
                        block,
                        reg: reg_id(r),
                    })
                    .0
                })
                .collect(),
            Some(mut s) => {
                let others: Vec<&[u32]> = rest.iter().map(|&p| exit_states[p].as_slice()).collect();
                if !others.is_empty() {
                    merge(&mut s, &others, |r| {
                        b.fresh(ValueKind::Phi {
                            block,
                            reg: reg_id(r),
                        })
                    });
                }
                for &p in rest {
                    let _ = take_state(&mut exit_states, &mut consumers, p);
                }
                s
            }
        };
        if !retreating.is_empty() {
            for r in defined_in_cycle(func, cfg, &du, block, &retreating).iter() {
                if state[r] < first_phi {
                    state[r] = b
                        .fresh(ValueKind::Phi {
                            block,
                            reg: reg_id(r),
                        })
                        .0;
                }
            }
        }
        for &i in &func.blocks[block].insts {
            let inst = &func.insts[i];
            let defs = du.defs(i);
            let guard = inst.guard.map(|g| (Vn(state[reg_index(g.reg)]), g.negated));
            let value = if !defs.is_empty() && is_pure(inst) {
                let skip = if ptx_ir::ir::def_use::writes_first_operand(inst) {
                    1
                } else {
                    0
                };
                let mut operands: Vec<VnOperand> = Vec::with_capacity(inst.operands.len());
                operands.extend(
                    inst.operands
                        .iter()
                        .skip(skip)
                        .map(|o| operand_key(o, &state)),
                );
                // Partial writes read the destination too.
                if skip == 1 {
                    if let Some(Operand::Reg {
                        reg,
                        component: Some(c),
                    }) = inst.operands.first()
                    {
                        operands.push(VnOperand::List(vec![
                            VnOperand::Value(Vn(state[reg_index(*reg)])),
                            VnOperand::Other(c.clone()),
                        ]));
                    }
                }
                if commutative(inst) && operands.len() >= 2 && operands[0] > operands[1] {
                    operands.swap(0, 1);
                }
                b.intern(ValueKind::Expr {
                    opcode: opcode_text(&inst.opcode),
                    operands,
                    guard,
                })
            } else {
                b.fresh(ValueKind::Opaque(i))
            };
            b.vn.inst_value.insert(i, value);
            let first = b.vn.result_list.len();
            let multi = defs.len() > 1;
            for (k, &d) in defs.iter().enumerate() {
                let mut v = if multi {
                    b.intern(ValueKind::Result(value, k as u32))
                } else {
                    value
                };
                if let Some((g, negated)) = guard {
                    v = b.intern(ValueKind::Select {
                        guard: g,
                        negated,
                        value: v,
                        old: Vn(state[reg_index(d)]),
                    });
                }
                b.vn.result_list.push(v);
            }
            for (&d, &v) in defs.iter().zip(&b.vn.result_list[first..]) {
                state[reg_index(d)] = v.0;
            }
            b.vn.results
                .insert(i, (first as u32, b.vn.result_list.len() as u32));
            b.vn.order.push(i);
        }
        if consumers.get(block).is_some_and(|&n| n > 0) {
            exit_states.insert(block, state);
        }
    }
    b.vn
}

/// The exit state of `p` for one of its forward successors: moved out when
/// this is the last one to read it, else copied.
fn take_state(
    exit_states: &mut ArenaMap<BlockId, Vec<u32>>,
    consumers: &mut ArenaMap<BlockId, u32>,
    p: BlockId,
) -> Vec<u32> {
    let left = &mut consumers[p];
    *left -= 1;
    if *left == 0 {
        exit_states.remove(p).unwrap_or_default()
    } else {
        exit_states[p].clone()
    }
}

/// Merges the incoming states `others` into `state`: a register whose values
/// differ gets `phi(reg)`, in register order. Compares 32 registers at a time
/// first, as most agree.
fn merge(state: &mut [u32], others: &[&[u32]], mut phi: impl FnMut(usize) -> Vn) {
    const CHUNK: usize = 32;
    for base in (0..state.len()).step_by(CHUNK) {
        let end = (base + CHUNK).min(state.len());
        if others.iter().all(|o| o[base..end] == state[base..end]) {
            continue;
        }
        for r in base..end {
            if others.iter().any(|o| o[r] != state[r]) {
                state[r] = phi(r).0;
            }
        }
    }
}

impl ValueNumbering {
    /// The value number of `inst` itself (its key); `None` for instructions in
    /// unreachable blocks.
    pub fn inst_value(&self, inst: InstId) -> Option<Vn> {
        self.inst_value.get(inst).copied()
    }

    /// The values the registers `inst` defines hold after it, in
    /// [`defs_and_uses`](ptx_ir::ir::defs_and_uses) order.
    pub fn results(&self, inst: InstId) -> &[Vn] {
        self.results
            .get(inst)
            .map_or(&[], |&(s, e)| &self.result_list[s as usize..e as usize])
    }

    pub fn kind(&self, vn: Vn) -> &ValueKind {
        &self.values[vn.0 as usize]
    }

    /// Whether `vn` can be merged (a pure expression or a projection of one).
    pub fn is_mergeable(&self, vn: Vn) -> bool {
        match self.kind(vn) {
            ValueKind::Expr { .. } => true,
            ValueKind::Result(v, _) => self.is_mergeable(*v),
            _ => false,
        }
    }

    /// Pairs `(redundant, leader)`: `redundant` computes the same pure value as
    /// `leader`, which comes first and dominates it (same block earlier, or a
    /// strictly dominating block). One leader per redundant instruction: the
    /// first dominating one in numbering order.
    pub fn redundant(&self, cfg: &Cfg, dom: &DomTree) -> Vec<(InstId, InstId)> {
        let mut by_value: FxHashMap<Vn, Vec<InstId>> = FxHashMap::default();
        let mut out = Vec::new();
        for &i in &self.order {
            let Some(v) = self.inst_value(i) else {
                continue;
            };
            if !self.is_mergeable(v) {
                continue;
            }
            let list = by_value.entry(v).or_default();
            let leader = list
                .iter()
                .copied()
                .find(|&l| match (cfg.block_of(l), cfg.block_of(i)) {
                    (Some(bl), Some(bi)) if bl == bi => cfg.position_of(l) < cfg.position_of(i),
                    (Some(bl), Some(bi)) => dom.strictly_dominates(bl, bi),
                    _ => false,
                });
            match leader {
                Some(l) => out.push((i, l)),
                None => list.push(i),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{cfg, inst_name};
    use crate::dominators::dominators;
    use crate::test_util::func;

    fn redundant(body: &str) -> String {
        let f = func(body);
        let g = cfg(&f);
        let d = dominators(&g);
        let vn = value_numbering(&f, &g);
        vn.redundant(&g, &d)
            .iter()
            .map(|&(r, l)| format!("{}={}", inst_name(r), inst_name(l)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn commutative_operands_and_copies() {
        assert_eq!(
            redundant(
                "add.s32 %r1, %r2, %r3;
                 add.s32 %r4, %r3, %r2;
                 sub.s32 %r5, %r2, %r3;
                 sub.s32 %r6, %r3, %r2;
                 mul.lo.s32 %r7, %r2, 4;
                 mul.lo.s32 %r8, 4, %r2;
                 add.u32 %r9, %r2, %r3;
                 ret;"
            ),
            "i1=i0 i5=i4"
        );
    }

    #[test]
    fn redefinition_changes_the_value() {
        assert_eq!(
            redundant(
                "add.s32 %r1, %r2, 1;
                 mov.u32 %r2, 5;
                 add.s32 %r3, %r2, 1;
                 ret;"
            ),
            ""
        );
    }

    #[test]
    fn memory_and_side_effects_are_not_merged() {
        assert_eq!(
            redundant(
                "ld.param.u64 %rd1, [p];
                 ld.global.u32 %r1, [%rd1];
                 ld.global.u32 %r2, [%rd1];
                 mov.u32 %r3, %clock;
                 mov.u32 %r4, %clock;
                 mov.u32 %r5, %tid.x;
                 mov.u32 %r6, %tid.x;
                 add.cc.u32 %r7, %r5, 1;
                 add.cc.u32 %r8, %r5, 1;
                 ret;"
            ),
            "i6=i5"
        );
    }

    #[test]
    fn guards_are_operands() {
        assert_eq!(
            redundant(
                "setp.eq.s32 %p1, %r9, %r8;
                 setp.eq.s32 %p2, %r8, %r9;
                 @%p1 add.s32 %r1, %r2, 1;
                 @%p2 add.s32 %r3, %r2, 1;
                 @!%p1 add.s32 %r4, %r2, 1;
                 add.s32 %r5, %r2, 1;
                 ret;"
            ),
            // p2 == p1 (eq is commutative), so the second add matches the first;
            // the negated guard and the unguarded add are different values.
            "i1=i0 i3=i2"
        );
    }

    #[test]
    fn dominance_scopes_and_merges() {
        // Same expression on both arms: neither dominates the other; after the
        // join the register differs by path, so a use of it is a phi.
        let f = func(
            "setp.eq.s32 %p1, %r9, 0;
             @%p1 bra A;
             add.s32 %r1, %r2, 1;
             bra J;
           A:
             add.s32 %r1, %r2, 1;
           J:
             add.s32 %r3, %r2, 1;
             mul.lo.s32 %r4, %r1, 2;
             ret;",
        );
        let g = cfg(&f);
        let d = dominators(&g);
        let vn = value_numbering(&f, &g);
        // The two arms compute the same value, so the join agrees: no phi.
        let join = g.blocks[3];
        let mul = f.blocks[join].insts[1];
        let ValueKind::Expr { operands, .. } = vn.kind(vn.inst_value(mul).unwrap()) else {
            panic!()
        };
        assert!(
            matches!(operands[0], VnOperand::Value(v) if matches!(vn.kind(v), ValueKind::Expr { .. }))
        );
        // No leader dominates the join's add except... none: the arms do not
        // dominate J.
        assert_eq!(vn.redundant(&g, &d), vec![]);
    }

    #[test]
    fn loop_headers_get_phis_for_values_changed_in_the_loop() {
        let f = func(
            "mov.u32 %r1, 0;
             mov.u32 %r2, 7;
           L:
             add.s32 %r3, %r2, 1;
             add.s32 %r4, %r1, 1;
             add.s32 %r1, %r1, 1;
             setp.lt.s32 %p1, %r1, 10;
             @%p1 bra L;
             add.s32 %r5, %r2, 1;
             ret;",
        );
        let g = cfg(&f);
        let d = dominators(&g);
        let vn = value_numbering(&f, &g);
        let l = g.blocks[1];
        let r1_use = f.blocks[l].insts[1];
        let ValueKind::Expr { operands, .. } = vn.kind(vn.inst_value(r1_use).unwrap()) else {
            panic!()
        };
        assert!(
            matches!(operands[0], VnOperand::Value(v) if matches!(vn.kind(v), ValueKind::Phi { .. }))
        );
        // r2 is not changed in the loop, so `r2 + 1` after the loop is the same
        // value as in it; and `r1 + 1` twice in the loop body is redundant.
        let names: Vec<String> = vn
            .redundant(&g, &d)
            .iter()
            .map(|&(r, l)| format!("{}={}", inst_name(r), inst_name(l)))
            .collect();
        assert_eq!(names, vec!["i4=i3", "i7=i2"]);
    }
}
