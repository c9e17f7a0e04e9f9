//! Constant folding and algebraic simplification, a sub-pass of every
//! GeneralOptimize bundle (phases 13, 29, 37, 46, 58, 65).
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Interaction Between Passes" ("Phase
//! 46: GeneralOptimizeMid2 |-- OriCopyProp (forward copy propagation) |--
//! constant folding, algebraic simplification, DCE") and "Forward Copy
//! Propagation -- OriCopyProp", "Convergence" ("Each invocation may expose
//! constant operands for folding or create dead instructions for DCE"). The
//! seed names the sub-pass and where it runs, not its rules; this module
//! writes the classic local folder.
//!
//! Knobs: none. The registry has no knob for folding or for approximate
//! math (OCG knobs 464/474 govern the bundle's fixed-point loop, which is
//! not needed yet, see [`super`]), so `.approx` results are never folded.
//!
//! # What it folds
//!
//! Within one block, walking in order, a register's value is known when
//! its last definition before the use is an unguarded `mov` of an
//! immediate (or of a known register), or an instruction folded here.
//! Across blocks (cross-block constant propagation): a register whose one
//! definition in the function is an unguarded `mov` of an immediate (not a
//! `.reg` parameter) is known at the start of every block its definition's
//! block strictly dominates (it holds that value wherever the definition
//! dominates, loops included). And in the bundles right after each
//! unroller (13 and 29), a forward dataflow over the blocks: a register is
//! known at a block's start when every predecessor leaves it holding one
//! and the same constant, each block's walk (this folder itself) being the
//! transfer function, iterated to a fixed point (at most six passes, else
//! nothing is assumed). This is what folds the copies of a fully unrolled
//! loop, which step one register (`add %r2, %r2, 1`) in blocks of their
//! own. Only run where some register written more than once is set by a
//! `mov` of an immediate somewhere. An
//! instruction whose sources are all immediates or known registers becomes
//! `mov` of its result, computed by `ptx-sem`, the functions the emulator
//! executes, so the folded value is bit for bit the emulated one:
//!
//! - integer and bit operations (`add sub mul mad mul24 mad24 sad div rem
//!   abs neg min max popc clz bfind fns brev bfe bfi bmsk szext dp4a dp2a
//!   and or xor not cnot lop3 shl shr shf prmt`, with `.hi`, `.wide`,
//!   `.sat`, ...), but not `div`/`rem` by zero (PTX leaves the result
//!   undefined; missed remark) nor the carry forms (`.cc`, `addc`);
//! - exactly rounded floating point on f32, f64, f16, bf16 and their pairs
//!   (`add sub mul fma mad div.rn rcp.rn sqrt.rn abs neg min max
//!   copysign`), explicit or default rounding, `.ftz`, `.sat`, `.relu`;
//! - `setp` (both destinations of `p|q`, with `.and/.or/.xor` when the
//!   third source is known) into `mov.pred`;
//! - `selp` with a known condition into `mov` of the chosen source;
//! - `cvt` between the integer types, f16, bf16, f32 and f64 (and the
//!   two-source `cvt.f16x2.f32` / `.bf16x2.f32`).
//!
//! An instruction that does not fold has its known register sources
//! written as immediates ([`immediate_sources`]) where cicc's own output has
//! immediates: the last source of a two-source integer or f32/f64
//! operation (`add sub mul min max and or xor shl shr`) and of `setp`, `b`
//! and `c` of `mad`/`fma`, both choices of `selp`, the lane, clamp and mask
//! of `shfl.sync`; a commutative integer operation whose first source is
//! known and second is not has them swapped first. A `mov` of a known
//! register becomes a `mov` of its value. The `mov` that held the constant
//! then has no reader left (phase 16 removes it), and the instruction
//! reads one register fewer: after an unroll, each copy's `mov.b32 %r4, k;
//! add.s32 %r11, %r1, %r4` is `add.s32 %r11, %r1, k`. Not the first source
//! of a non-commutative operation (cicc writes none there), not the carry
//! forms, not `f16`/`bf16` (whose immediates PTX writes as bit patterns of
//! another type), not `div`/`rem`.
//!
//! Algebraic identities on integers with one unknown register `x`: `x+0`,
//! `0+x`, `x-0`, `x*1`, `x|0`, `x^0`, `x<<0`, `x>>0` become `mov x`;
//! `x*0`, `x&0` and `x^x` become `mov 0` (never on floats: `x+0.0` is not
//! `x` for `x = -0.0`, `x*0.0` is not `0` for infinities and NaN).
//!
//! The result is `mov.pred`, `mov.b16`, `mov.b32` or `mov.b64` (`mov.f32` /
//! `mov.f64` with a `0f`/`0d` literal for float results) of exactly the bits
//! the register holds after the original instruction; the new instruction
//! keeps the origin and `.loc` of the one it replaces. The `mov`s that fed
//! the folded instruction stay for phase 16 to remove when unused.
//!
//! # What it leaves (missed remarks)
//!
//! - `.approx` operations (`sin cos ex2 lg2 tanh rsqrt rcp.approx
//!   sqrt.approx div.approx div.full`, `ex2.approx.f16`): the PTX ISA gives
//!   an error bound, not the bits, and the emulator computes them in f64;
//!   folding would fix one of the possible results at compile time.
//! - Integer division or remainder by zero.
//! - A guarded instruction with known sources (its result is a may-def).
//! - A source whose last definition in the block is a guarded `mov`.
//!
//! Missed remarks come from the first bundle phase (13) only, so that a
//! kernel's report does not repeat them six times; a bundle phase that
//! folds nothing (and, for 13, misses nothing) reports no counters.
//!
//! Other values defined in another block are not known (no remark: that is
//! most of the code); nor are special registers, symbols and vector
//! elements.
//!
//! # Adapted from Ori to PTX
//!
//! Ori folds on SASS-like operations with the target's own immediate
//! encodings; on PTX the folded value must be what PTX defines, so the
//! semantics are the emulator's (`ptx-sem`), and a fold is proved by the
//! differential run of every pass filetest.

use la_arena::ArenaMap;

use crate::phases::reg_table::RegTable;
use smallvec::SmallVec;
use std::rc::Rc;
use std::sync::Arc;

use ptx_analysis::DomTree;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{
    BlockId, Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegClass, RegId,
};
use ptx_isa::{FamilyId as F, OpFlags, Rnd, Ty};
use ptx_sem::cvt::{cvt, CvtSpec};
use ptx_sem::fops::{compare, farity, feval, harity, heval, FMods};
use ptx_sem::imm::{self, Imm as SemImm};
use ptx_sem::int::{self, IOp};
use ptx_sem::select;
use ptx_sem::types::{mask, write_bits};

use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Why an instruction was folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Every source known.
    Constant,
    /// An algebraic identity with an unknown source.
    Identity,
    /// `selp` with a known condition.
    Select,
    /// Known register sources written as immediates ([`immediate_sources`]).
    Operand,
}

/// One `mov` replacing (part of) a folded instruction.
#[derive(Clone, Debug)]
enum Emit {
    /// `mov d, <the bits the register holds>`; `ty` is the result type (an
    /// f32/f64 result is printed as a float literal).
    Const { reg: RegId, content: u64, ty: Ty },
    /// `mov.<ty> d, src` with `src` as written.
    Copy { reg: RegId, ty: Ty, src: Operand },
}

/// What the walk decided for one instruction.
enum Eval {
    Fold(Kind, Vec<Emit>),
    Missed(&'static str, String),
    /// A `mov` of a known value: only tracked (when unguarded).
    Track(RegId, u64),
    Nothing,
}

/// The definitions of one register in the function's blocks.
struct Writes {
    count: u32,
    /// The last one (instruction, block), in layout order.
    last: (InstId, BlockId),
    /// Whether one of them is an unguarded `mov` of an immediate.
    from_imm: bool,
}

/// Every written register's [`Writes`] (indexed by the register's arena
/// index; `count` 0 for a register never written), in one walk.
fn writes(func: &Function) -> Vec<Writes> {
    let none = (
        InstId::from_raw(0u32.into()),
        BlockId::from_raw(0u32.into()),
    );
    let mut out: Vec<Writes> = (0..func.regs.len())
        .map(|_| Writes {
            count: 0,
            last: none,
            from_imm: false,
        })
        .collect();
    for &b in &func.layout {
        if !func.has_block(b) {
            continue;
        }
        for &i in &func.blocks[b].insts {
            let inst = &func.insts[i];
            let imm = inst.guard.is_none()
                && inst.opcode.info.family == F::Mov
                && matches!(inst.operands.get(1), Some(Operand::Imm(_)));
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Def {
                    if let Some(e) = out.get_mut(r.into_raw().into_u32() as usize) {
                        e.count += 1;
                        e.last = (i, b);
                        e.from_imm |= imm;
                    }
                }
            });
        }
    }
    out
}

/// Registers whose one definition is an unguarded `mov` of an immediate (not
/// a `.reg` parameter): the register, its bits, the defining block. Such a
/// register holds that value wherever its definition dominates.
fn global_constants(func: &Function, writes: &[Writes]) -> Vec<(RegId, u64, ptx_ir::ir::BlockId)> {
    let (empty_known, empty_guarded) = (Known::default(), Guarded::default());
    let mut out = Vec::new();
    for (n, w) in writes.iter().enumerate() {
        if w.count != 1 {
            continue;
        }
        let r = RegId::from_raw((n as u32).into());
        let (i, b) = w.last;
        let inst = &func.insts[i];
        if inst.guard.is_some()
            || inst.opcode.info.family != ptx_isa::FamilyId::Mov
            || !matches!(inst.operands.get(1), Some(Operand::Imm(_)))
            || func.regs[r]
                .decl
                .is_some_and(|d| func.reg_decls[d].is_param)
        {
            continue;
        }
        let mut srcs = Srcs::new(&empty_known, &empty_guarded);
        if let Eval::Track(reg, v) = evaluate(func, inst, &mut srcs) {
            if reg == r {
                out.push((r, v, b));
            }
        }
    }
    out.sort_by_key(|&(r, _, _)| r.into_raw().into_u32());
    out
}

/// Runs constant folding on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let mut folds: Vec<(InstId, Kind, Vec<Inst>)> = Vec::new();
    let mut missed: Vec<(InstId, &'static str, String)> = Vec::new();
    let mut known = Known::new(input.regs.len());
    let mut guarded = Guarded::new(input.regs.len());
    let writes = writes(input);
    let global = global_constants(input, &writes);
    if !global.is_empty() {
        // The dominator tree (the scalar facts', which copy propagation
        // before this step often made for this same version).
        known.set_globals(&global, crate::phases::version_cache::dom_of(input));
    }
    // The dataflow across blocks runs in the bundles right after each
    // unroller (cicc's before 13, ptxas's phase 22 before 29), where the
    // copies of a body hold the constants it finds.
    let entries = if matches!(id, PhaseId::GeneralOptimizeEarly | PhaseId::GeneralOptimize) {
        block_entry_constants(input, &writes)
    } else {
        ArenaMap::default()
    };
    for &b in &input.layout {
        if !input.has_block(b) {
            continue;
        }
        known.clear();
        guarded.clear();
        // Registers every predecessor leaves with one constant (the
        // dataflow of `block_entry_constants`).
        if let Some(e) = entries.get(b) {
            known.extend(e.iter().copied());
        }
        // Registers set once, to a constant, in a block that dominates
        // this one (cross-block constant propagation): looked up by
        // `Known::get` while in `b`.
        known.enter(b);
        walk_block(input, b, &mut known, &mut guarded, &mut folds, &mut missed);
    }

    // The bundle runs six times per kernel: what was left is said once,
    // by the first bundle phase, and a phase that folds nothing reports
    // nothing.
    if id != PhaseId::GeneralOptimizeEarly {
        missed.clear();
    }
    if folds.is_empty() && missed.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut remarks = Vec::new();
    let (mut constant, mut identity, mut select_) = (0u64, 0u64, 0u64);
    let mut operand = 0u64;
    let mut approx = 0u64;
    let mut div_zero = 0u64;
    let output = if folds.is_empty() {
        input.clone()
    } else {
        let mut f = (**input).clone();
        let mut replaced: ArenaMap<InstId, SmallVec<[InstId; 2]>> = ArenaMap::default();
        for (iid, kind, new) in folds {
            match kind {
                Kind::Constant => constant += 1,
                Kind::Identity => identity += 1,
                Kind::Select => select_ += 1,
                Kind::Operand => operand += 1,
            }
            let before = inst_text(input, &input.insts[iid]);
            let after: Vec<String> = new.iter().map(|i| inst_text(input, i)).collect();
            let o = origin(input, iid);
            remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: match kind {
                    Kind::Constant => "constant-fold",
                    Kind::Identity => "algebraic-identity",
                    Kind::Select => "known-select",
                    Kind::Operand => "constant-operand",
                },
                origin: o,
                message: format!("folded `{before}` to `{}`", after.join("; ")),
            });
            let mut new = new;
            if let Some(first) = new.first_mut() {
                first.locs = input.insts[iid].locs.clone();
            }
            let ids: SmallVec<[InstId; 2]> =
                new.into_iter().map(|inst| f.add_inst(inst, o)).collect();
            replaced.insert(iid, ids);
        }
        // Each folded instruction gives way to its replacement in its
        // block, in one pass over the blocks (a search of the function
        // per fold was quadratic).
        for pos in 0..f.layout.len() {
            let b = f.layout[pos];
            if !f.has_block(b) || !f.blocks[b].insts.iter().any(|i| replaced.contains_idx(*i)) {
                continue;
            }
            let old = std::mem::take(&mut f.blocks[b].insts);
            let mut insts = Vec::with_capacity(old.len() + 2);
            for i in old {
                match replaced.get(i) {
                    Some(ids) => insts.extend_from_slice(ids),
                    None => insts.push(i),
                }
            }
            f.blocks[b].insts = insts;
        }
        Arc::new(f)
    };
    for (iid, name, message) in missed {
        match name {
            "approx" => approx += 1,
            "division-by-zero" => div_zero += 1,
            _ => {}
        }
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name,
            origin: origin(input, iid),
            message,
        });
    }
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    let stats = vec![
        Stat {
            name: "instructions folded",
            value: constant + identity + select_,
        },
        Stat {
            name: "folded: constant sources",
            value: constant,
        },
        Stat {
            name: "folded: algebraic identity",
            value: identity,
        },
        Stat {
            name: "folded: selp with a known condition",
            value: select_,
        },
        Stat {
            name: "sources made immediates",
            value: operand,
        },
        Stat {
            name: "not folded: .approx",
            value: approx,
        },
        Stat {
            name: "not folded: division by zero",
            value: div_zero,
        },
    ];
    PhaseOutput {
        function: output,
        loops: Vec::new(),
        remarks,
        stats,
    }
}

/// The most passes of [`block_entry_constants`] over the blocks.
const MAX_PASSES: usize = 6;

/// Per block, the registers that every predecessor leaves holding one and
/// the same constant: a forward dataflow over the blocks with this module's
/// own walk as the transfer function (so a value folded in one block is
/// known in the next), optimistic across back edges until they are
/// computed, iterated to a fixed point. Empty when no fixed point is
/// reached within [`MAX_PASSES`] (nothing is assumed then).
fn block_entry_constants(input: &Function, writes: &[Writes]) -> ArenaMap<BlockId, Consts> {
    let blocks: Vec<BlockId> = input
        .layout
        .iter()
        .copied()
        .filter(|&b| input.has_block(b))
        .collect();
    let Some(&entry_block) = blocks.first() else {
        return ArenaMap::default();
    };
    // Constants reach other blocks through registers written more than
    // once (those written once are `global_constants`), set somewhere by a
    // `mov` of an immediate; without one there is nothing to find.
    if !writes.iter().any(|w| w.count > 1 && w.from_imm) {
        return ArenaMap::default();
    }
    let mut preds: ArenaMap<BlockId, Vec<BlockId>> = ArenaMap::default();
    for (b, succs) in input.all_successors().iter() {
        for &s in succs {
            match preds.get_mut(s) {
                Some(list) => list.push(b),
                None => {
                    preds.insert(s, vec![b]);
                }
            }
        }
    }
    let mut exits: ArenaMap<BlockId, Consts> = ArenaMap::default();
    let mut entries: ArenaMap<BlockId, Consts> = ArenaMap::default();
    let (mut folds, mut missed) = (Vec::new(), Vec::new());
    let mut known = Known::new(input.regs.len());
    let mut guarded = Guarded::new(input.regs.len());
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for &b in &blocks {
            let entry = if b == entry_block {
                Consts::new()
            } else {
                let mut computed = preds
                    .get(b)
                    .into_iter()
                    .flatten()
                    .filter_map(|&p| exits.get(p));
                match computed.next() {
                    None => Consts::new(),
                    Some(first) => {
                        let mut m = first.clone();
                        for other in computed {
                            intersect(&mut m, other);
                        }
                        m
                    }
                }
            };
            // The walk is a function of the entry: a block whose entry is
            // what it was in the last pass leaves what it left then.
            if entries.get(b) == Some(&entry) && exits.contains_idx(b) {
                continue;
            }
            known.clear();
            known.extend(entry.iter().copied());
            guarded.clear();
            folds.clear();
            missed.clear();
            walk_block(input, b, &mut known, &mut guarded, &mut folds, &mut missed);
            entries.insert(b, entry);
            let exit = known.sorted();
            if exits.get(b) != Some(&exit) {
                exits.insert(b, exit);
                changed = true;
            }
        }
        if !changed {
            return entries;
        }
    }
    ArenaMap::default()
}

/// Constant registers, sorted by register: what one block leaves or
/// receives in [`block_entry_constants`].
type Consts = Vec<(RegId, u64)>;

/// Keeps in `m` the registers `other` holds with the same value (both
/// sorted).
fn intersect(m: &mut Consts, other: &Consts) {
    let mut j = 0;
    m.retain(|&(r, v)| {
        while j < other.len() && other[j].0 < r {
            j += 1;
        }
        other.get(j) == Some(&(r, v))
    });
}

/// The registers whose last definition so far in the block being walked
/// is a guarded `mov` of a known value (a may-def); asked about every
/// source the walk does not know.
type Guarded = RegTable<()>;

/// The registers with a known value during a walk: one slot per register
/// of the function, a slot counting as set when stamped with the current
/// generation (so that clearing is one increment), and the registers set
/// since the last clear (to list them).
///
/// Below them, the registers written once in the function, by a `mov` of
/// an immediate ([`global_constants`]): each holds its value in the
/// blocks its definition's block strictly dominates, and reads as known
/// there (the walk of such a block never writes it: its one write is in
/// the dominating block).
#[derive(Default)]
struct Known {
    local: RegTable<u64>,
    /// The registers set since the last clear (some since removed).
    set: Vec<RegId>,
    /// By register slot: the value and the block of its one write.
    globals: Vec<Option<(u64, BlockId)>>,
    dom: Option<Rc<DomTree>>,
    /// The block being walked (what the globals are visible from).
    block: Option<BlockId>,
}

impl Known {
    fn new(regs: usize) -> Known {
        Known {
            local: RegTable::new(regs),
            ..Known::default()
        }
    }

    fn slot(r: &RegId) -> usize {
        r.into_raw().into_u32() as usize
    }

    /// The value the walk has found for `r` (not the globals').
    fn local(&self, r: &RegId) -> Option<&u64> {
        self.local.get(*r)
    }

    fn get(&self, r: &RegId) -> Option<&u64> {
        if let Some(v) = self.local(r) {
            return Some(v);
        }
        let k = Known::slot(r);
        let (Some(Some((v, def))), Some(dom), Some(b)) =
            (self.globals.get(k), self.dom.as_ref(), self.block)
        else {
            return None;
        };
        dom.strictly_dominates(*def, b).then_some(v)
    }

    /// Registers written once, to a constant (see the type's doc).
    fn set_globals(&mut self, list: &[(RegId, u64, BlockId)], dom: Rc<DomTree>) {
        self.globals = Vec::new();
        for &(r, v, b) in list {
            let k = Known::slot(&r);
            if k >= self.globals.len() {
                self.globals.resize(k + 1, None);
            }
            self.globals[k] = Some((v, b));
        }
        self.dom = Some(dom);
    }

    /// Starts the walk of `b`: the globals its dominators write are known.
    fn enter(&mut self, b: BlockId) {
        self.block = Some(b);
    }

    fn insert(&mut self, r: RegId, v: u64) {
        if self.local.insert(r, v) {
            self.set.push(r);
        }
    }

    fn remove(&mut self, r: &RegId) {
        self.local.remove(*r);
    }

    fn clear(&mut self) {
        self.local.clear();
        self.set.clear();
    }

    fn extend(&mut self, items: impl IntoIterator<Item = (RegId, u64)>) {
        for (r, v) in items {
            self.insert(r, v);
        }
    }

    /// What the walk has found, sorted by register.
    fn sorted(&self) -> Consts {
        let mut out: Consts = self
            .set
            .iter()
            .filter_map(|r| self.local(r).map(|&v| (*r, v)))
            .collect();
        out.sort_unstable_by_key(|&(r, _)| r.into_raw().into_u32());
        out.dedup_by_key(|&mut (r, _)| r);
        out
    }
}

/// Walks block `b` in order from what `known` holds at its start: folds
/// (recorded in `folds`), misses, and what each instruction leaves in
/// `known`.
fn walk_block(
    input: &Function,
    b: BlockId,
    known: &mut Known,
    guarded: &mut Guarded,
    folds: &mut Vec<(InstId, Kind, Vec<Inst>)>,
    missed: &mut Vec<(InstId, &'static str, String)>,
) {
    let block = &input.blocks[b];
    for &iid in &block.insts {
        if !input.has_inst(iid) {
            continue;
        }
        let inst = &input.insts[iid];
        let mut srcs = Srcs::new(known, guarded);
        let eval = evaluate(input, inst, &mut srcs);
        let guarded_miss = srcs.guarded_only();
        // Known sources of an instruction that does not fold, read before
        // its own writes leave the known set.
        let operand = match eval {
            Eval::Nothing => immediate_sources(input, inst, known),
            Eval::Track(..) if inst.guard.is_none() => known_copy(input, inst, known),
            _ => None,
        };
        // What the instruction leaves in the registers it writes.
        let mut defs: SmallVec<[RegId; 4]> = SmallVec::new();
        visit_defs_and_uses(inst, |a, r| {
            if a == Access::Def {
                defs.push(r)
            }
        });
        for r in &defs {
            known.remove(r);
            guarded.remove(*r);
        }
        match eval {
            Eval::Fold(kind, emits) if inst.guard.is_none() => {
                let mut new = Vec::new();
                for e in &emits {
                    match make_mov(input, e) {
                        Some(i) => new.push(i),
                        None => break,
                    }
                }
                if new.len() != emits.len() {
                    continue;
                }
                for e in &emits {
                    if let Some((r, v)) = emit_value(input, e, known) {
                        known.insert(r, v);
                    }
                }
                folds.push((iid, kind, new));
            }
            Eval::Fold(..) => {
                let g = inst
                    .guard
                    .map(|g| input.regs[g.reg].name.clone())
                    .unwrap_or_default();
                missed.push((
                    iid,
                    "guarded",
                    format!(
                        "not folded: `{}` has constant sources but is guarded by {g} (its result is a may-def)",
                        inst.opcode.text()
                    ),
                ));
            }
            Eval::Track(r, v) if inst.guard.is_none() => {
                known.insert(r, v);
                if let Some(new) = operand {
                    folds.push((iid, Kind::Operand, vec![new]));
                }
            }
            Eval::Track(r, _) => {
                guarded.insert(r, ());
            }
            Eval::Missed(name, why) => missed.push((iid, name, why)),
            Eval::Nothing if operand.is_some() => {
                folds.push((iid, Kind::Operand, operand.into_iter().collect()));
            }
            Eval::Nothing => {
                if let Some(r) = guarded_miss {
                    missed.push((
                        iid,
                        "guarded-source",
                        format!(
                            "not folded: `{}` reads {}, whose definition in this block is a guarded `mov`",
                            inst.opcode.text(),
                            input.regs[r].name
                        ),
                    ));
                }
            }
        }
    }
}

/// Source values: immediates, and registers known in the block.
struct Srcs<'a> {
    known: &'a Known,
    guarded: &'a Guarded,
    /// Each source looked up and not known: the register, when its last
    /// definition in the block is a guarded `mov`.
    misses: SmallVec<[Option<RegId>; 4]>,
}

impl<'a> Srcs<'a> {
    fn new(known: &'a Known, guarded: &'a Guarded) -> Srcs<'a> {
        Srcs {
            known,
            guarded,
            misses: SmallVec::new(),
        }
    }

    /// The bits a source of type `ty` reads (what the emulator's `src`
    /// gives: an immediate as the bits of `ty`, a register's contents).
    fn get(&mut self, op: Option<&Operand>, ty: Ty) -> Option<u64> {
        let v = match op {
            Some(Operand::Imm(i)) if ty.bits() <= 64 => Some(imm::bits(sem_imm(i.value), ty)),
            Some(Operand::Reg {
                reg,
                component: None,
            }) => self.known.get(reg).copied(),
            Some(Operand::NegPred(reg)) => self.known.get(reg).map(|v| !v & 1),
            _ => None,
        };
        if v.is_none() {
            let g = match op {
                Some(Operand::Reg {
                    reg,
                    component: None,
                })
                | Some(Operand::NegPred(reg))
                    if self.guarded.contains(*reg) =>
                {
                    Some(*reg)
                }
                _ => None,
            };
            self.misses.push(g);
        }
        v
    }

    /// Sources `0..tys.len()` of `inst` (operand `i + 1`) with their types;
    /// `None` if one is unknown (all are looked up, so misses are recorded).
    fn all(&mut self, inst: &Inst, tys: &[Ty]) -> Option<SmallVec<[u64; 4]>> {
        let vals: SmallVec<[Option<u64>; 4]> = tys
            .iter()
            .enumerate()
            .map(|(i, &t)| self.get(inst.operands.get(i + 1), t))
            .collect();
        vals.into_iter().collect()
    }

    /// The register of a guarded `mov` when every miss was one.
    fn guarded_only(&self) -> Option<RegId> {
        if self.misses.iter().all(Option::is_some) {
            self.misses.first().copied().flatten()
        } else {
            None
        }
    }
}

fn sem_imm(v: ImmValue) -> SemImm {
    match v {
        ImmValue::Int(i) => SemImm::Int(i),
        ImmValue::F32(b) => SemImm::F32(b),
        ImmValue::F64(b) => SemImm::F64(b),
    }
}

/// A plain scalar register operand (no component, not a vector), with the
/// width the emulator gives it (1, 16, 32 or 64 bits; `None` for 128-bit).
fn plain_reg(func: &Function, op: Option<&Operand>) -> Option<(RegId, u32)> {
    let Some(Operand::Reg {
        reg,
        component: None,
    }) = op
    else {
        return None;
    };
    if !func.has_reg(*reg) {
        return None;
    }
    let r = &func.regs[*reg];
    if r.vector.is_some() || r.class == RegClass::R128 {
        return None;
    }
    Some((*reg, r.class.bits()))
}

fn evaluate(func: &Function, inst: &Inst, s: &mut Srcs) -> Eval {
    let info = &inst.opcode.info;
    if info.flags.contains(OpFlags::CARRY_IN) || info.flags.contains(OpFlags::CARRY_OUT) {
        return Eval::Nothing;
    }
    if nothing_known(inst, s) {
        return Eval::Nothing;
    }
    match info.family {
        F::Mov => eval_mov(func, inst, s),
        F::Setp => eval_setp(func, inst, s).unwrap_or(Eval::Nothing),
        F::Selp => eval_selp(func, inst, s).unwrap_or(Eval::Nothing),
        F::Cvt => eval_cvt(func, inst, s).unwrap_or(Eval::Nothing),
        f if select::is_arith(f) => {
            let Some(ty) = info.ty() else {
                return Eval::Nothing;
            };
            if ty.is_float() && !select::is_bitwise(f) {
                eval_float(func, inst, s, ty).unwrap_or(Eval::Nothing)
            } else {
                eval_int(func, inst, s, ty).unwrap_or(Eval::Nothing)
            }
        }
        _ => Eval::Nothing,
    }
}

/// Whether no rule can apply, seen from the sources alone (most
/// instructions, and the walk asks about each): a source has no value the
/// walk knows (so nothing folds: every fold needs all its sources, and a
/// `mov` or `cvt` its one), no source is a register whose definition is a
/// guarded `mov` (nothing to say about a may-def), no known source or
/// immediate could be 0 or 1 at any width (the identities, and a `selp`
/// whose condition is known, need one), and the instruction is not an
/// `xor` (`xor %r, %r` needs no constant). Sources other than a plain
/// register, a negated predicate or an integer immediate are never known.
fn nothing_known(inst: &Inst, s: &Srcs) -> bool {
    // At the narrowest width an identity reads (16 bits), the value is not
    // 0 or 1.
    let far_from_0_1 = |v: u64| v & 0xFFFF > 1;
    if inst.opcode.info.family == F::Xor {
        return false;
    }
    let Some(srcs) = inst.operands.get(1..) else {
        return false;
    };
    let mut unknown = false;
    for op in srcs {
        match op {
            Operand::Reg {
                reg,
                component: None,
            }
            | Operand::NegPred(reg) => {
                if s.guarded.contains(*reg) {
                    return false;
                }
                match s.known.get(reg) {
                    None => unknown = true,
                    Some(&v) if far_from_0_1(v) => {}
                    Some(_) => return false,
                }
            }
            Operand::Imm(Imm {
                value: ImmValue::Int(v),
                ..
            }) if far_from_0_1(*v as u64) => {}
            Operand::Imm(_) => return false,
            _ => unknown = true,
        }
    }
    unknown
}

fn eval_mov(func: &Function, inst: &Inst, s: &mut Srcs) -> Eval {
    let info = &inst.opcode.info;
    let Some(ty) = info.ty() else {
        return Eval::Nothing;
    };
    if info.vec != 1 || ty.bits() > 64 || inst.operands.len() != 2 {
        return Eval::Nothing;
    }
    let Some((reg, rbits)) = plain_reg(func, inst.operands.first()) else {
        return Eval::Nothing;
    };
    match s.get(inst.operands.get(1), ty) {
        Some(v) => Eval::Track(reg, write_bits(v, ty.bits(), ty.is_signed(), rbits)),
        None => Eval::Nothing,
    }
}

fn eval_int(func: &Function, inst: &Inst, s: &mut Srcs, ty: Ty) -> Option<Eval> {
    let info = &inst.opcode.info;
    let op = if info.family == F::Lop3 {
        let lut = match inst.operands.get(4) {
            Some(Operand::Imm(Imm {
                value: ImmValue::Int(v),
                ..
            })) => *v as u8,
            _ => return None,
        };
        IOp::Lop3(lut)
    } else {
        select::int_op(info, &inst.opcode.modifiers, None)?
    };
    let form = select::int_form(op, ty);
    let extra = usize::from(info.family == F::Lop3);
    if inst.operands.len() != form.arity + 1 + extra || ty.bits() > 64 {
        return None;
    }
    let (reg, rbits) = plain_reg(func, inst.operands.first())?;
    let vals = s.all(inst, &form.src_tys[..form.arity]);
    let m = mask(ty.bits());
    if let Some(v) = &vals {
        let get = |i: usize| v.get(i).copied().unwrap_or(0);
        if matches!(op, IOp::Div | IOp::Rem) && get(1) & m == 0 {
            return Some(Eval::Missed(
                "division-by-zero",
                format!(
                    "not folded: `{}` divides by zero (PTX does not define the result)",
                    inst.opcode.text()
                ),
            ));
        }
        let r = int::eval(op, form.ty, get(0), get(1), get(2), get(3));
        let content = write_bits(r, form.dst_bits, form.dst_signed, rbits);
        return Some(Eval::Fold(
            Kind::Constant,
            vec![Emit::Const { reg, content, ty }],
        ));
    }
    identity(func, inst, s, op, ty, reg, rbits)
}

/// The algebraic identities with one unknown integer source.
fn identity(
    func: &Function,
    inst: &Inst,
    s: &mut Srcs,
    op: IOp,
    ty: Ty,
    reg: RegId,
    rbits: u32,
) -> Option<Eval> {
    if !matches!(
        op,
        IOp::Add | IOp::Sub | IOp::MulLo | IOp::And | IOp::Or | IOp::Xor | IOp::Shl | IOp::Shr
    ) || ty.is_pair()
        || ty.is_float()
        || rbits != ty.bits()
    {
        return None;
    }
    let form = select::int_form(op, ty);
    let (oa, ob) = (inst.operands.get(1), inst.operands.get(2));
    // Looked up again without recording misses: the sources were already
    // looked at by the caller.
    let mut quiet = Srcs::new(s.known, s.guarded);
    let a = quiet.get(oa, form.src_tys[0]);
    let b = quiet.get(ob, form.src_tys[1]);
    let ma = mask(form.src_tys[0].bits());
    let mb = mask(form.src_tys[1].bits());
    let (a0, a1) = (a.map(|v| v & ma == 0), a.map(|v| v & ma == 1));
    let (b0, b1) = (b.map(|v| v & mb == 0), b.map(|v| v & mb == 1));
    let copy = |src: Option<&Operand>| -> Option<Eval> {
        let (_, bits) = plain_reg(func, src)?;
        if bits != ty.bits() {
            return None;
        }
        Some(Eval::Fold(
            Kind::Identity,
            vec![Emit::Copy {
                reg,
                ty,
                src: src?.clone(),
            }],
        ))
    };
    let zero = || {
        Some(Eval::Fold(
            Kind::Identity,
            vec![Emit::Const {
                reg,
                content: 0,
                ty,
            }],
        ))
    };
    let same_reg = matches!(
        (plain_reg(func, oa), plain_reg(func, ob)),
        (Some((x, _)), Some((y, _))) if x == y
    );
    match op {
        IOp::Add | IOp::Or | IOp::Xor if b0 == Some(true) => copy(oa),
        IOp::Add | IOp::Or | IOp::Xor if a0 == Some(true) => copy(ob),
        IOp::Sub | IOp::Shl | IOp::Shr if b0 == Some(true) => copy(oa),
        IOp::MulLo | IOp::And if a0 == Some(true) || b0 == Some(true) => zero(),
        IOp::MulLo if b1 == Some(true) => copy(oa),
        IOp::MulLo if a1 == Some(true) => copy(ob),
        IOp::Xor if same_reg => zero(),
        _ => None,
    }
}

fn eval_float(func: &Function, inst: &Inst, s: &mut Srcs, ty: Ty) -> Option<Eval> {
    let info = &inst.opcode.info;
    let mods = &inst.opcode.modifiers;
    // Mixed precision (`add.f32.f16`) is left alone.
    if info.types.iter().any(|t| t != ty) {
        return None;
    }
    let (reg, rbits) = plain_reg(func, inst.operands.first())?;
    let m = FMods {
        rnd: info.rnd.unwrap_or(Rnd::Rn),
        ftz: info.ftz,
        sat: info.sat,
        relu: info.relu,
    };
    let nsrc = inst.operands.len().saturating_sub(1);
    let (exact, n) = if select::is_half(ty) {
        let op = select::half_op(info, mods)?;
        (select::half_is_exact(op), harity(op))
    } else if matches!(ty, Ty::F32 | Ty::F64) {
        let op = select::float_op(info, mods, nsrc)?;
        (select::float_is_exact(op), farity(op))
    } else {
        return None;
    };
    if nsrc != n {
        return None;
    }
    let tys = vec![ty; n];
    let v = s.all(inst, &tys)?;
    if !exact {
        return Some(Eval::Missed(
            "approx",
            format!(
                "not folded: `{}` is approximate (its result is not defined bit for bit)",
                inst.opcode.text()
            ),
        ));
    }
    let get = |i: usize| v.get(i).copied().unwrap_or(0);
    let r = if select::is_half(ty) {
        heval(select::half_op(info, mods)?, ty, m, get(0), get(1), get(2))
    } else {
        feval(
            select::float_op(info, mods, nsrc)?,
            ty,
            m,
            get(0),
            get(1),
            get(2),
        )
    };
    Some(Eval::Fold(
        Kind::Constant,
        vec![Emit::Const {
            reg,
            content: write_bits(r, ty.bits(), false, rbits),
            ty,
        }],
    ))
}

fn eval_setp(func: &Function, inst: &Inst, s: &mut Srcs) -> Option<Eval> {
    let info = &inst.opcode.info;
    let ty = info.ty()?;
    let cmp = info.cmp?;
    if (ty.is_pair() && ty.is_float()) || ty.bits() > 64 {
        return None;
    }
    let (p, q) = match inst.operands.first()? {
        Operand::PredPair(a, b) => {
            let p = plain_reg(func, Some(a))?.0;
            let q = match &**b {
                Operand::Sink => None,
                b => Some(plain_reg(func, Some(b))?.0),
            };
            (p, q)
        }
        op => (plain_reg(func, Some(op))?.0, None),
    };
    let v = s.all(inst, &[ty, ty])?;
    let t = compare(cmp, ty, info.ftz, v[0], v[1], 0);
    let (mut t0, mut t1) = (t, !t);
    if let Some(bop) = info.bool_op {
        let c = s.get(inst.operands.get(3), Ty::Pred)? & 1 == 1;
        t0 = bop.apply(t0, c);
        t1 = bop.apply(t1, c);
    }
    let mut emits = vec![Emit::Const {
        reg: p,
        content: t0 as u64,
        ty: Ty::Pred,
    }];
    if let Some(q) = q {
        emits.push(Emit::Const {
            reg: q,
            content: t1 as u64,
            ty: Ty::Pred,
        });
    }
    Some(Eval::Fold(Kind::Constant, emits))
}

fn eval_selp(func: &Function, inst: &Inst, s: &mut Srcs) -> Option<Eval> {
    let ty = inst.opcode.info.ty()?;
    if inst.operands.len() != 4 || ty.bits() > 64 {
        return None;
    }
    let (reg, _) = plain_reg(func, inst.operands.first())?;
    let c = s.get(inst.operands.get(3), Ty::Pred)?;
    let chosen = inst.operands.get(if c & 1 == 1 { 1 } else { 2 })?;
    if !matches!(chosen, Operand::Imm(_) | Operand::Reg { .. }) {
        return None;
    }
    Some(Eval::Fold(
        Kind::Select,
        vec![Emit::Copy {
            reg,
            ty,
            src: chosen.clone(),
        }],
    ))
}

/// The types `cvt` is folded between.
fn cvt_scalar(t: Ty) -> bool {
    matches!(
        t,
        Ty::U8
            | Ty::U16
            | Ty::U32
            | Ty::U64
            | Ty::S8
            | Ty::S16
            | Ty::S32
            | Ty::S64
            | Ty::F16
            | Ty::BF16
            | Ty::F32
            | Ty::F64
    )
}

fn eval_cvt(func: &Function, inst: &Inst, s: &mut Srcs) -> Option<Eval> {
    let info = &inst.opcode.info;
    if inst.opcode.has_modifier(".pack") || info.types.len() != 2 {
        return None;
    }
    let (dty, sty) = (info.types.first()?, info.types.last()?);
    let spec = CvtSpec {
        dty,
        sty,
        rnd: info.rnd,
        irnd: info.irnd,
        ftz: info.ftz,
        sat: info.sat,
        relu: info.relu,
        satfinite: info.satfinite,
    };
    let pair_ok = matches!(dty, Ty::F16x2 | Ty::BF16x2) && sty == Ty::F32;
    if !(cvt_scalar(sty) && (cvt_scalar(dty) || pair_ok)) {
        return None;
    }
    let n = if spec.two_sources() { 2 } else { 1 };
    if inst.operands.len() != n + 1 {
        return None;
    }
    let (reg, rbits) = plain_reg(func, inst.operands.first())?;
    let v = s.all(inst, &vec![sty; n])?;
    let r = cvt(&spec, v[0], v.get(1).copied().unwrap_or(0));
    let signed = dty.is_signed() && !dty.is_float();
    Some(Eval::Fold(
        Kind::Constant,
        vec![Emit::Const {
            reg,
            content: write_bits(r, dty.bits().min(64), signed, rbits),
            ty: dty,
        }],
    ))
}

/// The value a register holds after an emitted `mov`, when known.
fn emit_value(func: &Function, e: &Emit, known: &Known) -> Option<(RegId, u64)> {
    match e {
        Emit::Const { reg, content, .. } => Some((*reg, *content)),
        Emit::Copy { reg, ty, src } => {
            let (_, rbits) = plain_reg(
                func,
                Some(&Operand::Reg {
                    reg: *reg,
                    component: None,
                }),
            )?;
            let empty = Guarded::default();
            let mut s = Srcs::new(known, &empty);
            let v = s.get(Some(src), *ty)?;
            Some((*reg, write_bits(v, ty.bits(), ty.is_signed(), rbits)))
        }
    }
}

/// The `mov` for an [`Emit`]; `None` when the register cannot take one.
/// The immediate of type `ty` holding the low bits of `content` (signed
/// and bit types sign-extended, so `-3` reads as written).
fn immediate(content: u64, ty: Ty) -> Option<Operand> {
    let value = match ty {
        Ty::F32 => ImmValue::F32(content as u32),
        Ty::F64 => ImmValue::F64(content),
        _ if ty.is_float() || !matches!(ty.bits(), 16 | 32 | 64) => return None,
        _ => {
            let bits = ty.bits();
            let v = content & mask(bits);
            // Signed and untyped bits read as a signed value (`-1`, as
            // cicc writes a full mask), unsigned ones as written.
            if ty.is_signed() || ty.kind() == ptx_isa::TypeKind::Bits {
                let shift = 128 - bits;
                ImmValue::Int(((v as i128) << shift) >> shift)
            } else {
                ImmValue::Int(v as i128)
            }
        }
    };
    Some(Operand::Imm(Imm::new(value)))
}

/// `inst` with its known register sources written as immediates, where
/// cicc itself writes immediates: the last source of a two-source integer
/// or float operation (`add sub mul min max and or xor shl shr`, `setp`),
/// `b` and `c` of `mad`/`fma`, both choices of `selp`, the lane, clamp and
/// mask of `shfl.sync`. A commutative
/// operation whose first source is known and second is not has them
/// swapped first (integers only: `add.f32` of two NaNs keeps the first
/// payload). `None` when nothing changes. The value is the bits the register
/// holds read at the source's type, so the instruction computes what it did.
fn immediate_sources(func: &Function, inst: &Inst, known: &Known) -> Option<Inst> {
    // Most instructions read no register the walk knows: nothing to look up.
    let any_known =
        inst.operands.iter().skip(1).any(
            |op| matches!(op, Operand::Reg { reg, component: None } if known.get(reg).is_some()),
        );
    if !any_known {
        return None;
    }
    let info = &inst.opcode.info;
    if info.flags.contains(OpFlags::CARRY_IN) || info.flags.contains(OpFlags::CARRY_OUT) {
        return None;
    }
    let ty = info.ty()?;
    if info.vec != 1 || ty.is_pair() {
        return None;
    }
    let float = ty.is_float();
    if float && !matches!(ty, Ty::F32 | Ty::F64) {
        return None;
    }
    // (operand positions that may become immediates, each one's type,
    // whether sources 1 and 2 commute)
    let (positions, commutes): (SmallVec<[(usize, Ty); 2]>, bool) = match info.family {
        F::Setp if inst.operands.len() == 3 => ([(2, ty)].into_iter().collect(), false),
        // `shfl.sync d|p, a, b, c, membermask`: the lane, the clamp and
        // the mask (cicc writes `shfl.sync.down.b32 %r2, %r1, 16, 31, -1`).
        F::ShflSync if inst.operands.len() == 5 => (
            [(2, Ty::B32), (3, Ty::B32), (4, Ty::B32)]
                .into_iter()
                .collect(),
            false,
        ),
        F::Selp if inst.operands.len() == 4 => ([(1, ty), (2, ty)].into_iter().collect(), false),
        F::Add | F::Sub | F::Mul if float && inst.operands.len() == 3 => {
            ([(2, ty)].into_iter().collect(), false)
        }
        F::Fma | F::Mad if float && inst.operands.len() == 4 => {
            ([(2, ty), (3, ty)].into_iter().collect(), false)
        }
        _ if float => return None,
        _ => {
            let op = select::int_op(info, &inst.opcode.modifiers, None)?;
            let form = select::int_form(op, ty);
            if inst.operands.len() != form.arity + 1 || ty.bits() > 64 {
                return None;
            }
            match op {
                IOp::Add | IOp::MulLo | IOp::MulHi | IOp::MulWide | IOp::Min | IOp::Max => {
                    ([(2, form.src_tys[1])].into_iter().collect(), true)
                }
                IOp::And | IOp::Or | IOp::Xor if ty.bits() >= 16 => {
                    ([(2, form.src_tys[1])].into_iter().collect(), true)
                }
                IOp::Sub | IOp::Shl | IOp::Shr => {
                    ([(2, form.src_tys[1])].into_iter().collect(), false)
                }
                IOp::MadLo | IOp::MadHi | IOp::MadWide => (
                    [(2, form.src_tys[1]), (3, form.src_tys[2])]
                        .into_iter()
                        .collect(),
                    false,
                ),
                _ => return None,
            }
        }
    };
    // The value a plain register source holds, when known and as wide as
    // the source reads.
    let value = |op: Option<&Operand>, t: Ty| -> Option<u64> {
        let (reg, bits) = plain_reg(func, op)?;
        (bits == t.bits())
            .then(|| known.get(&reg).copied())
            .flatten()
    };
    let mut new = inst.clone();
    let t = positions[0].1;
    if commutes
        && value(inst.operands.get(1), t).is_some()
        && value(inst.operands.get(2), t).is_none()
        && matches!(inst.operands.get(2), Some(Operand::Reg { .. }))
    {
        new.operands.swap(1, 2);
    }
    let mut changed = false;
    for &(pos, t) in &positions {
        if let Some(imm) = value(new.operands.get(pos), t).and_then(|v| immediate(v, t)) {
            new.operands[pos] = imm;
            changed = true;
        }
    }
    changed.then_some(new)
}

/// `mov d, %s` of a register the walk knows, as `mov d, <immediate>` (the
/// source then needs to live no longer).
fn known_copy(func: &Function, inst: &Inst, known: &Known) -> Option<Inst> {
    let info = &inst.opcode.info;
    let ty = info.ty()?;
    if info.vec != 1 || inst.operands.len() != 2 {
        return None;
    }
    let (src, bits) = plain_reg(func, inst.operands.get(1))?;
    plain_reg(func, inst.operands.first())?;
    if bits != ty.bits() || ty == Ty::Pred {
        return None;
    }
    let v = *known.get(&src)?;
    let mut new = inst.clone();
    new.operands[1] = immediate(v, ty)?;
    Some(new)
}

fn make_mov(func: &Function, e: &Emit) -> Option<Inst> {
    let (reg, ty, src) = match e {
        Emit::Const { reg, content, ty } => {
            if !func.has_reg(*reg) {
                return None;
            }
            let r = &func.regs[*reg];
            if r.vector.is_some() {
                return None;
            }
            let int = |v: u64| {
                Operand::Imm(Imm {
                    value: ImmValue::Int(v as i128),
                    text: (v > 0xffff).then(|| format!("0x{v:X}").into()),
                })
            };
            let (t, src) = match r.class {
                RegClass::P => (".pred", int(content & 1)),
                RegClass::R16 => (".b16", int(*content)),
                RegClass::R if *ty == Ty::F32 => (
                    ".f32",
                    Operand::Imm(Imm::new(ImmValue::F32(*content as u32))),
                ),
                RegClass::R => (".b32", int(*content)),
                RegClass::R64 if *ty == Ty::F64 => {
                    (".f64", Operand::Imm(Imm::new(ImmValue::F64(*content))))
                }
                RegClass::R64 => (".b64", int(*content)),
                RegClass::R128 => return None,
            };
            (*reg, t.to_string(), src)
        }
        Emit::Copy { reg, ty, src } => (*reg, ty.name().to_string(), src.clone()),
    };
    Some(Inst {
        guard: None,
        opcode: Opcode::new("mov", vec![ty]),
        operands: vec![
            Operand::Reg {
                reg,
                component: None,
            },
            src,
        ],
        locs: Default::default(),
        range: Default::default(),
    })
}

/// An instruction as PTX text, for remarks.
pub(crate) fn inst_text(func: &Function, inst: &Inst) -> String {
    let mut out = String::new();
    if let Some(g) = inst.guard {
        out.push('@');
        if g.negated {
            out.push('!');
        }
        out.push_str(&func.regs[g.reg].name);
        out.push(' ');
    }
    out.push_str(&inst.opcode.text());
    let ops: Vec<String> = inst
        .operands
        .iter()
        .map(|o| operand_text(func, o))
        .collect();
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    out
}

fn operand_text(func: &Function, op: &Operand) -> String {
    match op {
        Operand::Reg { reg, component } => format!(
            "{}{}",
            func.regs[*reg].name,
            component.as_deref().unwrap_or("")
        ),
        Operand::NegPred(reg) => format!("!{}", func.regs[*reg].name),
        Operand::Special { name, component } => {
            format!("{name}{}", component.as_deref().unwrap_or(""))
        }
        Operand::Imm(i) => i.to_text(),
        Operand::Symbol { name, offset } if *offset == 0 => name.clone(),
        Operand::Symbol { name, offset } => format!("{name}+{offset}"),
        Operand::PredPair(a, b) => format!("{}|{}", operand_text(func, a), operand_text(func, b)),
        Operand::Sink => "_".to_string(),
        Operand::Address(a) => {
            let base = match &a.base {
                ptx_ir::ir::AddressBase::Reg(r) => &*func.regs[*r].name,
                ptx_ir::ir::AddressBase::Symbol(s) => s.as_str(),
                ptx_ir::ir::AddressBase::Absolute => "",
            };
            match (base.is_empty(), a.offset) {
                (true, o) => format!("[{o}]"),
                (false, 0) => format!("[{base}]"),
                (false, o) if o < 0 => format!("[{base}{o}]"),
                (false, o) => format!("[{base}+{o}]"),
            }
        }
        _ => "…".to_string(),
    }
}
