//! The commoning engine shared by phase 49 GvnCse ([`super::gvn_cse`]) and
//! phase 64 LateOriCommoning ([`super::late_commoning`]): which instructions
//! may be merged, their value keys, and the proofs that a later instruction
//! may read an earlier one's result instead of computing it again.
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 49 -- GvnCse": "VN transfer
//! function", "Instruction Eligibility (sub_BEA1E0)", "Key design decisions"
//! 2-6 (dominator scoping, commutative operands sorted, the address space in
//! the opcode, the predicate as an extra operand, volatile values never
//! merged), "GPU-Specific CSE Constraints" (divergence, barriers); "Phase 64
//! -- LateOriCommoning", "Structural Equivalence Predicate" (C1-C7) and
//! "Instruction Class Bitmask".
//!
//! # Value keys on non-SSA PTX
//!
//! Ori numbers values through def chains; PTX registers may be written many
//! times (`-O0` code keeps every source variable in one register). A key is
//! the opcode with every modifier (types, rounding, state space, cache
//! operator), the guard and the source operands, where a register operand is
//! either
//!
//! - a **value** (`Val`): the register has one unguarded writer that
//!   dominates the reader, so it holds the same value wherever it is read
//!   under that writer; registers whose writer was commoned (or is a
//!   same-type copy of such a register) are replaced by their leader's
//!   register, so chains of recomputations (`cvt; shl; add` recomputed three
//!   times) merge link by link in one walk; or
//! - a **raw** register (`Raw`): any other register. Equal raw operands
//!   prove nothing by themselves; a candidate pair is accepted only when no
//!   write of the register can execute between the two instructions
//!   ([`Facts::unchanged_between`], or the path search
//!   [`Facts::no_write_on_paths`], at most `path_checks` per run).
//!
//! # Copies in a block
//!
//! Within the block being walked, an unguarded same-type `mov %d, %s` (in
//! the input, or made by a merge) makes `%d` name `%s`'s value until either
//! is written again; a raw `%d` is then keyed as `%s` (and so on through
//! chains of copies). This is what merges the two loads of `a[i] * a[i]`
//! in each copy of a loop body that cicc's unroller replicated with the
//! same registers: their addresses, computed twice, are merged first, and
//! the second load then reads the first one's address register through
//! the copy. Sound because the two registers hold one value at the reader,
//! and the checks below are made on `%s`.
//!
//! Commutative opcodes (`add`, `mul`, `and`, `or`, `xor`, `min`, `max`,
//! `mad`/`fma` in their first two sources, `setp.eq`/`.ne`: the ISA table's
//! `COMMUTATIVE` flag) sort their first two source keys, so `a + b` and
//! `b + a` get one key.
//!
//! # When the later instruction `K` reads the leader `L` instead
//!
//! 1. `L` dominates `K` (the walk visits blocks in dominator-tree preorder;
//!    a block scope, mode 1, asks for the same block);
//! 2. every raw source (the guard included) is unchanged between them;
//! 3. `L`'s destination still holds `L`'s result at `K` (one writer, or no
//!    write on any path from `L` to `K`), and `L` does not read its own
//!    destination;
//! 4. for a load, the memory cannot have changed: see below.
//!
//! `K` then becomes `mov dK, dL` (under `K`'s guard, which equals `L`'s); a
//! `K` writing `L`'s destination itself is removed. Copy propagation (the
//! next GeneralOptimize bundle) and dead-code elimination remove the copies.
//!
//! # Divergence
//!
//! Nothing divergent is commoned across paths: `L` dominates `K`, so the
//! thread running `K` ran `L` earlier on its own path, and the values merged
//! are per-thread. Instructions whose result depends on which other threads
//! run them (`shfl`, `vote`, `match`, `redux`, `activemask`, `bar.red`,
//! `mma`, ...: the `CONVERGENT` flag) are never eligible, nor are two
//! computations on different sides of a branch (neither dominates the
//! other), nor a computation under another guard.
//!
//! # Loads
//!
//! Eligible: `ld` and `ld.global.nc`, weak (no `.volatile`, `.relaxed`,
//! `.acquire`, `.mmio`, no `.cv` cache operator), one scalar destination.
//! `ld.const`, `ld.global.nc` and `ld.param` of one of the function's own
//! parameters that no `st.param` writes are read-only: the dominance rules
//! above suffice. Any other load is commoned only when every path from `L` to
//! `K` is known and contains no instruction that may write the memory: `L`
//! and `K` in one block, or `K`'s block reached from `L`'s through a chain of
//! blocks with one predecessor each (one extended basic block, found by the
//! EBB pre-pass), and none of the instructions between is a store or atomic
//! to a state space that may alias (the same space, or generic addressing on
//! either side; `.shared`, `.global` and `.local` are disjoint), a fence, a
//! barrier, a call, or anything volatile or with other side effects.
//!
//! # Not eligible
//!
//! Stores, atomics, barriers, fences, calls, texture and surface
//! instructions, carry-flag arithmetic (`.cc`, `addc`), reads of volatile
//! special registers (`%clock`, ...), instructions with several results
//! (`setp p|q`, vector loads), registers with components, copies of
//! registers and immediates (merging `mov %r2, 0` with `mov %r1, 0` only
//! lengthens a live range; copies of special registers and symbol addresses
//! are eligible), and the MUFU class (`sin`, `cos`, `ex2`, `lg2`, `tanh`,
//! `rsqrt`, `.approx` `rcp`/`sqrt`/`div`) unless the caller's mode enables
//! it (GvnCse modes 5-6 on SM90+: the seed makes MUFU eligible only with the
//! backend's "enhanced scope" flag).

use std::rc::Rc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{
    AddressBase, BlockId, Function, ImmValue, InstId, Opcode, Operand, RegClass, RegId,
};
use ptx_isa::{FamilyId, OpFlags, Sem, Space};
use rustc_hash::{FxHashMap, FxHashSet};

use super::known::{is_param, remove_keeping_locs, Facts, Reach};

/// Whether the leader may be in another block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The same block only (GvnCse mode 1).
    Block,
    /// Any dominating instruction.
    Dominator,
    /// A dominating instruction of another block only (LateOriCommoning,
    /// equivalence rule C1).
    OtherBlock,
}

/// How one commoning run behaves.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub scope: Scope,
    /// Loads that are not read-only may be commoned across the blocks of one
    /// extended basic block (the EBB pre-pass); otherwise within a block.
    pub ebb_loads: bool,
    /// Loads that are not read-only are eligible at all.
    pub plain_loads: bool,
    /// The MUFU class is eligible.
    pub mufu: bool,
    /// Copies propagate equivalences (`mov %r2, %r1` makes `%r2` a name of
    /// `%r1`'s value); false under `DisableMoveCommoning`.
    pub through_moves: bool,
    /// Keep, per block, a bloom filter of the instruction classes seen on
    /// the dominator path, and look a key up only when its class bit is set
    /// (LateOriCommoning's class bitmask).
    pub bloom: bool,
    /// At most this many path searches per run.
    pub path_checks: u32,
    /// Only `ld.param` is eligible (cicc `param-opt`).
    pub param_loads_only: bool,
    /// With [`Scope::Block`]: a leader at most this many instructions
    /// earlier (0: any).
    pub window: u32,
    /// A cheap computation (an `ld.param`: in SASS a constant-bank operand,
    /// read again for nothing) does not read a leader across a loop: when a
    /// loop containing neither of the two lies on a path from the leader's
    /// block to this one, the merge would keep a register live through the
    /// whole loop to save nothing. This is the intent of LLVM MachineCSE's
    /// `isProfitableToCSE` heuristic #1 ("don't CSE cheap computation if
    /// the def is not local or in an immediate predecessor"), asked of the
    /// loops themselves: PTX branches skip loops, so the entry block is
    /// often an immediate predecessor of the block after a loop.
    pub cheap_not_across_loops: bool,
}

/// One merge done.
pub(crate) struct Merged {
    pub inst: InstId,
    /// `K` was removed (it wrote the leader's own destination).
    pub removed: bool,
    pub cross_block: bool,
    pub load: bool,
    /// The opcode `K` had.
    pub text: String,
    pub dst: String,
    pub leader_dst: String,
}

/// One merge refused: `inst` has `leader`'s key but a proof failed.
pub(crate) struct Refused {
    pub inst: InstId,
    pub leader: InstId,
    pub why: String,
}

/// What a run did.
#[derive(Default)]
pub(crate) struct Outcome {
    pub merged: Vec<Merged>,
    pub refused: Vec<Refused>,
    pub eligible: u64,
    /// Extended basic blocks of more than one block.
    pub ebbs: u64,
    /// Lookups skipped by the class bloom filter.
    pub bloom_skips: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum OpKey {
    Val(RegId),
    Raw(RegId),
    Int(i128),
    F32(u32),
    F64(u64),
    Special(String),
    Sym(String, i64),
    Addr(Box<OpKey>, i64),
    Abs(i64),
    NegPred(Box<OpKey>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    /// Interned: equal opcodes are the same handle.
    opcode: Opcode,
    guard: Option<(OpKey, bool)>,
    srcs: Vec<OpKey>,
}

/// The most leaders kept per key.
const MAX_LEADERS: usize = 8;

/// Whether `f`'s family is the MUFU (transcendental unit) class.
fn is_mufu(info: &ptx_isa::OpInfo) -> bool {
    matches!(
        info.family,
        FamilyId::Sin
            | FamilyId::Cos
            | FamilyId::Ex2
            | FamilyId::Lg2
            | FamilyId::Tanh
            | FamilyId::Rsqrt
            | FamilyId::RsqrtApproxFtzF64
            | FamilyId::RcpApproxFtzF64
    ) || (info.approx && matches!(info.family, FamilyId::Rcp | FamilyId::Sqrt | FamilyId::Div))
}

struct Engine<'a> {
    cfg: &'a Config,
    facts: Rc<Facts>,
    reach: Reach,
    /// The loops, computed when first asked ([`Config::cheap_not_across_loops`]).
    loops: Option<ptx_analysis::loops::LoopForest>,
    path_checks: u32,
    /// Value names: a register whose value another register holds.
    canon: FxHashMap<RegId, RegId>,
    /// Symbols of the function's parameters that no `st.param` writes.
    readonly_params: FxHashSet<String>,
    /// The head of each block's extended basic block.
    ebb_head: FxHashMap<BlockId, BlockId>,
    /// In the block being walked: a register (written more than once in
    /// the function) that holds what another register holds, since an
    /// unguarded `mov` between them (or a merge that made one) with neither
    /// written after it. See "Copies in a block" in the module docs.
    local: FxHashMap<RegId, RegId>,
}

/// A caller's say over each merge (cicc machine-cse's register-pressure
/// check, [`super::machine_cse`]). The merge is made in `f` first: `k`
/// becomes `mov dK, dL`, or `mov dL, dL` when it wrote the leader's own
/// register (removed after the walk, as without a gate). On `Err(why)` the
/// walk restores `k`, calls [`Gate::undone`], and records a refusal with
/// that reason.
pub(crate) trait Gate {
    /// `k` (in `block`) now reads leader `l`'s result; `before` is `k` as
    /// it was (the only instruction the merge changed).
    fn accept(
        &mut self,
        f: &Function,
        l: InstId,
        k: InstId,
        block: BlockId,
        before: &ptx_ir::ir::Inst,
    ) -> Result<(), String>;
    /// The merge of `k` was undone: its instruction is as it was.
    fn undone(&mut self, f: &Function, k: InstId, block: BlockId);
}

/// Runs the commoning walk on `f` (edited in place), asking `gate` (if
/// any) before each merge. `facts`: the scalar facts of `f` as given, where
/// the caller has them (a copy of its input:
/// [`super::version_cache::facts`]); otherwise they are computed.
pub(crate) fn run(
    f: &mut Function,
    cfg: &Config,
    facts: Option<Rc<Facts>>,
    mut gate: Option<&mut dyn Gate>,
) -> Outcome {
    let facts = facts.unwrap_or_else(|| Rc::new(Facts::new(f)));
    let reach = Reach::new(&facts);
    let mut readonly_params: FxHashSet<String> =
        f.sig.params.iter().map(|p| p.name.clone()).collect();
    for (_, inst) in f.insts_in_order() {
        let info = &inst.opcode.info;
        if info.flags.stores() && info.space == Some(Space::Param) {
            match inst.operands.first() {
                Some(Operand::Address(a)) => {
                    if let AddressBase::Symbol(s) = &a.base {
                        readonly_params.remove(s);
                    } else {
                        readonly_params.clear();
                    }
                }
                _ => readonly_params.clear(),
            }
        }
    }
    let mut out = Outcome::default();
    // The EBB pre-pass: a block with one predecessor (not itself) continues
    // its predecessor's extended basic block.
    let order = facts.dom().preorder();
    let mut ebb_head: FxHashMap<BlockId, BlockId> =
        FxHashMap::with_capacity_and_hasher(order.len(), Default::default());
    for &b in &order {
        let head = match facts.cfg().preds(b) {
            [p] if *p != b => ebb_head.get(p).copied().unwrap_or(b),
            _ => b,
        };
        ebb_head.insert(b, head);
    }
    let mut heads: FxHashMap<BlockId, u32> =
        FxHashMap::with_capacity_and_hasher(order.len(), Default::default());
    for &h in ebb_head.values() {
        *heads.entry(h).or_default() += 1;
    }
    out.ebbs = heads.values().filter(|&&n| n > 1).count() as u64;

    let mut e = Engine {
        cfg,
        facts,
        reach,
        loops: None,
        path_checks: 0,
        canon: FxHashMap::default(),
        readonly_params,
        ebb_head,
        local: FxHashMap::default(),
    };
    // Sized for every placed instruction (growing it rehashed every key
    // several times on large functions).
    let placed: usize = order.iter().map(|&b| f.blocks[b].insts.len()).sum();
    let mut table: FxHashMap<Key, Vec<InstId>> =
        FxHashMap::with_capacity_and_hasher(placed, Default::default());
    // Removed only after the walk: the facts' positions stay valid.
    let mut removals: Vec<(BlockId, InstId)> = Vec::new();
    let mut bloom: FxHashMap<BlockId, u64> =
        FxHashMap::with_capacity_and_hasher(order.len(), Default::default());
    for &b in &order {
        let mut mask = e
            .facts
            .dom()
            .idom(b)
            .and_then(|d| bloom.get(&d).copied())
            .unwrap_or(0);
        let insts = f.blocks[b].insts.clone();
        e.local.clear();
        for k in insts {
            if e.cfg.through_moves {
                e.note_copy(f, k);
            }
            let key_of = e.key_of(f, k);
            // `k`'s writes end the copies they overwrite (its sources were
            // read above, before them); a copy `k` now is starts one.
            e.note_local(f, k);
            let Some((key, dk, load)) = key_of else {
                continue;
            };
            out.eligible += 1;
            let class = 1u64 << (class_bit(&key.opcode.name) & 63);
            let mut found = None;
            let mut why = None;
            if e.cfg.bloom && mask & class == 0 {
                if table.contains_key(&key) {
                    out.bloom_skips += 1;
                }
            } else if let Some(leaders) = table.get(&key) {
                for &l in leaders.iter().rev() {
                    if !e.in_scope(l, k) {
                        continue;
                    }
                    match e.check(f, l, k, &key, load) {
                        Ok(()) => {
                            found = Some(l);
                            break;
                        }
                        Err(w) => {
                            why.get_or_insert((l, w));
                        }
                    }
                }
            }
            let text = match found {
                Some(_) => f.insts[k].opcode.text(),
                None => String::new(),
            };
            if let (Some(l), Some(g)) = (found, gate.as_deref_mut()) {
                // Made first (a removal as `mov dL, dL` until the walk ends),
                // then put to the gate.
                let saved = f.insts[k].clone();
                let dl = dest(f, l).unwrap_or(dk);
                make_copy(f, k, dk, dl);
                if let Err(w) = g.accept(f, l, k, b, &saved) {
                    f.insts[k] = saved;
                    g.undone(f, k, b);
                    found = None;
                    why = Some((l, w));
                }
            }
            if let Some(l) = found {
                let dl = dest(f, l).unwrap_or(dk);
                let merged = Merged {
                    inst: k,
                    removed: dl == dk,
                    cross_block: e.facts.block_of(l) != Some(b),
                    load,
                    text,
                    dst: f.regs[dk].name.to_string(),
                    leader_dst: f.regs[dl].name.to_string(),
                };
                if dl == dk {
                    removals.push((b, k));
                } else {
                    make_copy(f, k, dk, dl);
                    e.note_local(f, k);
                    if e.cfg.through_moves
                        && e.stable(f, dk)
                        && e.stable(f, dl)
                        && f.regs[dk].ty == f.regs[dl].ty
                    {
                        let c = e.canon_of(dl);
                        e.canon.insert(dk, c);
                    }
                }
                out.merged.push(merged);
                continue;
            }
            if let Some((l, w)) = why {
                out.refused.push(Refused {
                    inst: k,
                    leader: l,
                    why: w,
                });
            }
            // A leader must not overwrite what its key reads: its own
            // sources, or the register a copy in the block stands for.
            let mut raws = Vec::new();
            if let Some((OpKey::Raw(r), _)) = &key.guard {
                raws.push(*r);
            }
            for s in &key.srcs {
                collect_raw(s, &mut raws);
            }
            if !reads_reg(f, k, dk) && !raws.contains(&dk) {
                let list = table.entry(key).or_default();
                if list.len() >= MAX_LEADERS {
                    list.remove(0);
                }
                list.push(k);
                mask |= class;
            }
        }
        bloom.insert(b, mask);
    }
    for (b, k) in removals {
        remove_keeping_locs(f, b, k);
    }
    out
}

/// Makes `k` the copy `mov dk, dl` (its guard kept).
fn make_copy(f: &mut Function, k: InstId, dk: RegId, dl: RegId) {
    let ty = match f.regs[dk].class {
        RegClass::P => ".pred",
        RegClass::R16 => ".b16",
        RegClass::R => ".b32",
        RegClass::R64 => ".b64",
        RegClass::R128 => ".b128",
    };
    let inst = &mut f.insts[k];
    inst.opcode = Opcode::new("mov", vec![ty.to_string()]);
    inst.operands = vec![
        Operand::Reg {
            reg: dk,
            component: None,
        },
        Operand::Reg {
            reg: dl,
            component: None,
        },
    ];
}

/// A class bit for the bloom filter: the opcode word.
fn class_bit(opcode: &str) -> u32 {
    let word = opcode.split('.').next().unwrap_or(opcode);
    word.bytes().fold(0x811C_9DC5u32, |h, c| {
        (h ^ c as u32).wrapping_mul(0x0100_0193)
    })
}

/// The one register `i` writes, when it writes exactly one plain register
/// as its first operand.
fn dest(f: &Function, i: InstId) -> Option<RegId> {
    let inst = &f.insts[i];
    let d = match inst.operands.first()? {
        Operand::Reg {
            reg,
            component: None,
        } => *reg,
        _ => return None,
    };
    let mut defs = 0;
    visit_defs_and_uses(inst, |a, _| {
        if a == Access::Def {
            defs += 1
        }
    });
    (defs == 1 && !reads_first(inst)).then_some(d)
}

fn reads_first(inst: &ptx_ir::ir::Inst) -> bool {
    inst.opcode
        .info
        .flags
        .intersects(OpFlags::FIRST_IS_SOURCE.union(OpFlags::READS_DEST))
}

fn reads_reg(f: &Function, i: InstId, r: RegId) -> bool {
    let mut found = false;
    visit_defs_and_uses(&f.insts[i], |a, reg| {
        if a == Access::Use && reg == r {
            found = true
        }
    });
    found
}

impl Engine<'_> {
    /// Registers with one unguarded writer (not a `.reg` parameter, not a
    /// vector).
    fn stable(&self, f: &Function, r: RegId) -> bool {
        match self.facts.writers(r) {
            [w] => f.insts[*w].guard.is_none() && !is_param(f, r) && f.regs[r].vector.is_none(),
            _ => false,
        }
    }

    fn canon_of(&self, r: RegId) -> RegId {
        self.canon.get(&r).copied().unwrap_or(r)
    }

    /// A same-type copy `mov %d, %s` of stable registers makes `%d` a name
    /// of `%s`'s value.
    fn note_copy(&mut self, f: &Function, k: InstId) {
        let Some((d, s)) = plain_copy(f, k) else {
            return;
        };
        if !self.stable(f, d) || !self.stable(f, s) {
            return;
        }
        let Some(w) = self.facts.single_writer(s) else {
            return;
        };
        if self.facts.dominates(w, k) {
            let c = self.canon_of(s);
            self.canon.insert(d, c);
        }
    }

    /// Updates [`Engine::local`] after `k` (unchanged or made a copy):
    /// entries `k` overwrites go, and an unguarded same-type `mov %d, %s`
    /// between registers makes `%d` an alias of `%s` (or of what `%s`
    /// aliases).
    fn note_local(&mut self, f: &Function, k: InstId) {
        let inst = &f.insts[k];
        let mut written = Vec::new();
        visit_defs_and_uses(inst, |a, r| {
            if a == Access::Def {
                written.push(r);
            }
        });
        if self.local.is_empty() && written.is_empty() {
            return;
        }
        self.local
            .retain(|d, s| !written.contains(d) && !written.contains(s));
        let Some((d, s)) = plain_copy(f, k).filter(|&(d, _)| f.regs[d].vector.is_none()) else {
            return;
        };
        let s = self.local.get(&s).copied().unwrap_or(s);
        self.local.insert(d, s);
    }

    fn reg_key(&self, f: &Function, r: RegId, at: InstId) -> OpKey {
        if !self.stable(f, r) {
            if let Some(&a) = self.local.get(&r) {
                return self.value_key(f, a, at);
            }
        }
        self.value_key(f, r, at)
    }

    fn value_key(&self, f: &Function, r: RegId, at: InstId) -> OpKey {
        if self.stable(f, r) {
            if let Some(w) = self.facts.single_writer(r) {
                if self.facts.dominates(w, at) {
                    return OpKey::Val(self.canon_of(r));
                }
            }
        }
        OpKey::Raw(r)
    }

    fn op_key(&self, f: &Function, op: &Operand, at: InstId) -> Option<OpKey> {
        Some(match op {
            Operand::Reg {
                reg,
                component: None,
            } => {
                if f.regs[*reg].vector.is_some() {
                    return None;
                }
                self.reg_key(f, *reg, at)
            }
            Operand::Imm(imm) => match imm.value {
                ImmValue::Int(v) => OpKey::Int(v),
                ImmValue::F32(v) => OpKey::F32(v),
                ImmValue::F64(v) => OpKey::F64(v),
            },
            Operand::Special { name, component } => {
                if ptx_ir::ir::inst::is_volatile_special(name) {
                    return None;
                }
                OpKey::Special(format!("{name}{}", component.as_deref().unwrap_or("")))
            }
            Operand::Symbol { name, offset } => OpKey::Sym(name.clone(), *offset),
            Operand::Address(a) => match &a.base {
                AddressBase::Reg(r) => OpKey::Addr(Box::new(self.reg_key(f, *r, at)), a.offset),
                AddressBase::Symbol(s) => OpKey::Addr(Box::new(OpKey::Sym(s.clone(), 0)), a.offset),
                AddressBase::Absolute => OpKey::Abs(a.offset),
            },
            Operand::NegPred(r) => OpKey::NegPred(Box::new(self.reg_key(f, *r, at))),
            _ => return None,
        })
    }

    /// The key of an eligible instruction, its destination, and whether it
    /// is a load.
    fn key_of(&self, f: &Function, k: InstId) -> Option<(Key, RegId, bool)> {
        let inst = &f.insts[k];
        let info = &inst.opcode.info;
        let flags = info.flags;
        let load = matches!(info.family, FamilyId::Ld | FamilyId::LdGlobalNc);
        if self.cfg.param_loads_only && !(load && info.space == Some(Space::Param)) {
            return None;
        }
        if load {
            if flags.is_volatile()
                || !matches!(info.sem, None | Some(Sem::Weak))
                || info.vec > 1
                || inst.opcode.has_modifier(".cv")
                || (!self.cfg.plain_loads && !self.readonly(f, k))
            {
                return None;
            }
        } else {
            if !inst.is_pure()
                || flags.intersects(
                    OpFlags::CONVERGENT
                        .union(OpFlags::CARRY_IN)
                        .union(OpFlags::CARRY_OUT)
                        .union(OpFlags::SIDE_EFFECTS),
                )
            {
                return None;
            }
            if is_mufu(info) && !self.cfg.mufu {
                return None;
            }
            if info.family == FamilyId::Mov
                && !matches!(
                    inst.operands.get(1),
                    Some(Operand::Special { .. } | Operand::Symbol { .. })
                )
            {
                return None;
            }
        }
        let dk = dest(f, k)?;
        if f.regs[dk].vector.is_some() {
            return None;
        }
        let mut srcs = Vec::with_capacity(inst.operands.len().saturating_sub(1));
        for op in &inst.operands[1..] {
            srcs.push(self.op_key(f, op, k)?);
        }
        if flags.is_commutative() && srcs.len() >= 2 && srcs[1] < srcs[0] {
            srcs.swap(0, 1);
        }
        let guard = inst.guard.map(|g| (self.reg_key(f, g.reg, k), g.negated));
        Some((
            Key {
                opcode: inst.opcode,
                guard,
                srcs,
            },
            dk,
            load,
        ))
    }

    /// Whether load `k` reads memory the kernel cannot write.
    fn readonly(&self, f: &Function, k: InstId) -> bool {
        let info = &f.insts[k].opcode.info;
        match (info.family, info.space) {
            (FamilyId::LdGlobalNc, _) | (_, Some(Space::Const)) => true,
            (_, Some(Space::Param)) => match f.insts[k].operands.get(1) {
                Some(Operand::Address(a)) => match &a.base {
                    AddressBase::Symbol(s) => self.readonly_params.contains(s),
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// The header of a loop that contains neither `bl` nor `bk` and lies on
    /// a path from `bl` to `bk`.
    fn loop_between(&mut self, bl: BlockId, bk: BlockId) -> Option<BlockId> {
        if bl == bk {
            return None;
        }
        let forest = self
            .loops
            .get_or_insert_with(|| ptx_analysis::loops::loops(self.facts.cfg(), self.facts.dom()));
        let headers: Vec<BlockId> = forest
            .loops
            .iter()
            .filter(|lp| !lp.contains(bl) && !lp.contains(bk))
            .map(|lp| lp.header)
            .collect();
        headers
            .into_iter()
            .find(|&h| self.reach.reaches(bl, h, bk) && self.reach.reaches(h, bk, bl))
    }

    /// Whether the scope lets `l` lead `k` (blocks).
    fn in_scope(&self, l: InstId, k: InstId) -> bool {
        let same = self.facts.block_of(l) == self.facts.block_of(k);
        match self.cfg.scope {
            Scope::Block if self.cfg.window > 0 => {
                same && match (self.facts.index_of(l), self.facts.index_of(k)) {
                    (Some(a), Some(b)) => b.saturating_sub(a) <= self.cfg.window,
                    _ => false,
                }
            }
            Scope::Block => same,
            Scope::OtherBlock => !same,
            Scope::Dominator => true,
        }
    }

    /// Whether register `r` holds at `later` what it held right after `at`.
    fn unchanged(&mut self, f: &Function, r: RegId, at: InstId, later: InstId) -> bool {
        if self.facts.unchanged_between(f, r, at, later) {
            return true;
        }
        if self.path_checks >= self.cfg.path_checks {
            return false;
        }
        self.path_checks += 1;
        self.facts.no_write_on_paths(&mut self.reach, r, at, later)
    }

    /// The proofs that `k` may read `l`'s result (see the module
    /// documentation); the reason when one fails.
    fn check(
        &mut self,
        f: &Function,
        l: InstId,
        k: InstId,
        key: &Key,
        load: bool,
    ) -> Result<(), String> {
        if !self.facts.dominates(l, k) {
            return Err("the first computation does not dominate this one".into());
        }
        if self.cfg.cheap_not_across_loops
            && load
            && f.insts[k].opcode.info.space == Some(Space::Param)
        {
            if let (Some(bl), Some(bk)) = (self.facts.block_of(l), self.facts.block_of(k)) {
                if let Some(header) = self.loop_between(bl, bk) {
                    return Err(format!(
                        "a parameter is read again after the loop at {}, not kept live through it \
                         (a constant-bank read costs nothing; a register held through a loop does)",
                        f.blocks[header]
                            .label
                            .clone()
                            .unwrap_or_else(|| ptx_analysis::cfg::block_name(header))
                    ));
                }
            }
        }
        let mut raws = Vec::new();
        if let Some((OpKey::Raw(r), _)) = &key.guard {
            raws.push(*r);
        }
        for s in &key.srcs {
            collect_raw(s, &mut raws);
        }
        for r in raws {
            if !self.unchanged(f, r, l, k) {
                return Err(format!(
                    "{} may be written between the two ({} writers)",
                    f.regs[r].name,
                    self.facts.writers(r).len()
                ));
            }
        }
        let (Some(dl), Some(dk)) = (dest(f, l), dest(f, k)) else {
            return Err("no single destination".into());
        };
        if f.regs[dl].class != f.regs[dk].class || f.regs[dl].vector.is_some() {
            return Err("the destinations are of different register classes".into());
        }
        if !(self.stable(f, dl) || self.unchanged(f, dl, l, k)) {
            return Err(format!(
                "{} (the first result) may be overwritten before this use",
                f.regs[dl].name
            ));
        }
        if load && !self.readonly(f, l) {
            self.memory_unchanged(f, l, k)?;
        }
        Ok(())
    }

    /// Every path from load `l` to load `k` is known and writes nothing the
    /// load may read.
    fn memory_unchanged(&mut self, f: &Function, l: InstId, k: InstId) -> Result<(), String> {
        let (Some(bl), Some(bk), Some(il), Some(ik)) = (
            self.facts.block_of(l),
            self.facts.block_of(k),
            self.facts.index_of(l),
            self.facts.index_of(k),
        ) else {
            return Err("not placed".into());
        };
        let space = f.insts[l].opcode.info.space.unwrap_or(Space::Generic);
        let mut between: Vec<InstId> = Vec::new();
        if bl == bk {
            between.extend_from_slice(&f.blocks[bl].insts[il as usize + 1..ik as usize]);
        } else {
            if !self.cfg.ebb_loads {
                return Err(
                    "a load that may see stores is commoned only within its block in this mode"
                        .into(),
                );
            }
            if self.ebb_head.get(&bl) != self.ebb_head.get(&bk) {
                return Err(
                    "the loads are in different extended basic blocks (a merge point lies between)"
                        .into(),
                );
            }
            let mut chain = Vec::new();
            let mut b = bk;
            loop {
                let [p] = self.facts.cfg().preds(b) else {
                    return Err("the path between the loads is not unique".into());
                };
                let p = *p;
                if p == bl {
                    break;
                }
                if p == bk || chain.len() > 64 {
                    return Err("the path between the loads is not unique".into());
                }
                chain.push(p);
                b = p;
            }
            between.extend_from_slice(&f.blocks[bl].insts[il as usize + 1..]);
            for &c in chain.iter().rev() {
                between.extend_from_slice(&f.blocks[c].insts);
            }
            between.extend_from_slice(&f.blocks[bk].insts[..ik as usize]);
        }
        for i in between {
            if may_write(&f.insts[i], space) {
                return Err(format!(
                    "`{}` between the loads may write the memory read",
                    f.insts[i].opcode.text()
                ));
            }
        }
        Ok(())
    }
}

fn collect_raw(k: &OpKey, out: &mut Vec<RegId>) {
    match k {
        OpKey::Raw(r) => out.push(*r),
        OpKey::Addr(b, _) | OpKey::NegPred(b) => collect_raw(b, out),
        _ => {}
    }
}

/// `k` as an unguarded same-type copy `mov %d, %s` of two registers.
fn plain_copy(f: &Function, k: InstId) -> Option<(RegId, RegId)> {
    let inst = &f.insts[k];
    if inst.opcode.info.family != FamilyId::Mov || inst.guard.is_some() || inst.operands.len() != 2
    {
        return None;
    }
    let (d, s) = (plain(&inst.operands[0])?, plain(&inst.operands[1])?);
    (d != s && f.regs[d].ty == f.regs[s].ty).then_some((d, s))
}

fn plain(op: &Operand) -> Option<RegId> {
    match op {
        Operand::Reg {
            reg,
            component: None,
        } => Some(*reg),
        _ => None,
    }
}

/// Whether `inst` may change memory a load from `space` reads, or order it
/// against other threads' writes.
fn may_write(inst: &ptx_ir::ir::Inst, space: Space) -> bool {
    let flags = inst.opcode.info.flags;
    if flags.is_call() || flags.is_barrier() || flags.is_fence() || flags.is_volatile() {
        return true;
    }
    if flags.stores() || flags.is_atomic() {
        let s = inst.opcode.info.space.unwrap_or(Space::Generic);
        return s == space || s == Space::Generic || space == Space::Generic;
    }
    flags.has_side_effects() && !flags.is_terminator()
}
