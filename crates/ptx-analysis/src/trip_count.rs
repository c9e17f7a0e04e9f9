//! Induction variables and trip counts of loops.
//!
//! Seed: `000_ed667d9feced6e07.txt`, "Phase 22 -- OriLoopUnrolling" →
//! "Main Decision Flowchart (sub_1390B30)", steps C (the latch must end in a
//! conditional branch, rejection 13), F (no edge may leave the loop other than
//! at the latch), M (AnalyzeIV: from a source operand of the latch compare,
//! follow the def chain, looking through a copy, to the IV's add; ExtractBound:
//! init, limit, stride and direction; VerifyStride: the limit must not be
//! redefined in the body (rejection 18) and the IV must have one increment
//! (rejection 17)) and N (DetectConstantIV: a constant initial value gives a
//! constant trip count).
//!
//! On PTX the pattern is:
//!
//! ```text
//! preheader:  mov.u32 %r1, INIT;          // the only def reaching the loop
//! ...
//! latch:      add.s32 %r1, %r1, STRIDE;   // the only def of %r1 in the loop,
//!                                         // unguarded, in a block dominating the latch
//!             setp.CMP.TYPE %p, %r1, LIMIT;  // or LIMIT, %r1; before or after the add
//!             @%p bra header;             // or @!%p, or a branch out with the
//!                                         // header as fallthrough
//! ```
//!
//! The step may also write a temporary that a copy puts back (`add.s32 %t,
//! %r1, STRIDE; mov.u32 %r1, %t;`, the form of `-O0` code): the seed's
//! AnalyzeIV chases such a MOV (`chase_copy`); the copy is then the IV's one
//! definition in the loop and the `add` its step.
//!
//! `INIT`, `STRIDE` and `LIMIT` are immediates or registers whose only reaching
//! definition is a `mov` of an immediate; `LIMIT` and `STRIDE` must not be
//! defined in the loop. The **trip count** is the number of times the header
//! runs per entry into the loop (the body of a bottom-tested loop runs at least
//! once): 1 + the number of consecutive iterations after which the branch goes
//! back. It is computed exactly, in the width and signedness of the compare; a
//! count that needs the IV to wrap around is `Unknown`. Floating-point compares
//! and several latches give `Unknown`.
//!
//! A pointer IV tested for `!=` (or `==`) against an end pointer, the form
//! phase 21's test replacement leaves (`P = base + i0 * S`, `E = base + n *
//! S` in the preheader), has a known count when `INIT` and `LIMIT` are the
//! same base plus constants (through `mov`, `add`, and `mul.wide`/`mul.lo`/
//! `shl` of constants): the count needs only their distance. ptxas runs its
//! strength reduction (phase 21) before the unroller too and still fully
//! unrolls such a loop of 16 iterations; without this the count was lost.
//!
//! No knobs.

use ptx_ir::ir::{Function, ImmValue, Inst, InstId, Operand, RegId};
use ptx_isa::{Cmp, FamilyId, OpFlags, Ty, TypeKind};

use crate::cfg::Cfg;
use crate::dominators::DomTree;
use crate::loops::{Loop, LoopForest};
use crate::reaching_defs::{DefId, ReachingDefs};

/// The trip count of a loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TripCount {
    /// The header runs exactly this many times per entry.
    Known(u64),
    /// Why the count is not known.
    Unknown(String),
}

/// A value the IV analysis found: a constant or a register.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IvValue {
    Const(i128),
    /// A loop-invariant register with no constant value.
    Reg(RegId),
    /// Computed by this instruction (not a constant).
    Defined(InstId),
    /// Not determined (several or no reaching definitions, a non-register
    /// operand).
    Unknown,
}

/// The compare operator, normalized so that the IV is on the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The integer comparison of a typed `setp` operator; the second field
    /// forces signedness (lo/ls/hi/hs are unsigned). `None` for the
    /// floating-point-only operators.
    fn of(cmp: Cmp) -> Option<(CmpOp, Option<bool>)> {
        Some(match cmp {
            Cmp::Eq => (CmpOp::Eq, None),
            Cmp::Ne => (CmpOp::Ne, None),
            Cmp::Lt => (CmpOp::Lt, None),
            Cmp::Le => (CmpOp::Le, None),
            Cmp::Gt => (CmpOp::Gt, None),
            Cmp::Ge => (CmpOp::Ge, None),
            Cmp::Lo => (CmpOp::Lt, Some(false)),
            Cmp::Ls => (CmpOp::Le, Some(false)),
            Cmp::Hi => (CmpOp::Gt, Some(false)),
            Cmp::Hs => (CmpOp::Ge, Some(false)),
            _ => return None,
        })
    }

    /// `a op b` ⇔ `b op.swapped() a`.
    pub fn swapped(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }

    /// `!(a op b)` ⇔ `a op.negated() b`.
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    fn eval(self, a: i128, b: i128) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// Direction of the IV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Unknown,
}

/// The induction variable of a loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InductionVar {
    pub reg: RegId,
    /// The `add`/`sub` that steps it.
    pub increment: InstId,
    /// The `setp` the latch branch reads.
    pub compare: InstId,
    pub init: IvValue,
    /// The signed step per iteration (a `sub` of `s` is a stride of `-s`).
    pub stride: IvValue,
    pub limit: IvValue,
    pub direction: Direction,
    /// The loop goes on while `iv cmp limit` (normalized: IV on the left, and
    /// negated when the branch leaves the loop on a true predicate).
    pub continue_while: CmpOp,
    /// The compare's type (`.s32`, `.u64`).
    pub cmp_type: String,
    /// The compare reads the IV after this iteration's increment.
    pub compare_after_increment: bool,
}

/// IV and trip count of one loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LoopTripCount {
    /// The IV, when one was found (it may be found with the count still
    /// unknown, e.g. for a limit in a register).
    pub iv: Option<InductionVar>,
    pub count: TripCount,
}

/// Trip counts of all loops, in [`LoopForest::loops`] order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct TripCounts {
    pub loops: Vec<LoopTripCount>,
}

/// Computes the trip count of every loop of `loops`.
pub fn trip_counts(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    loops: &LoopForest,
    rd: &ReachingDefs,
) -> TripCounts {
    TripCounts {
        loops: loops
            .loops
            .iter()
            .map(|l| match analyze(func, cfg, dom, l, rd) {
                Ok(t) => t,
                Err(reason) => LoopTripCount {
                    iv: None,
                    count: TripCount::Unknown(reason.into()),
                },
            })
            .collect(),
    }
}

fn unknown(iv: InductionVar, reason: &str) -> Result<LoopTripCount, &'static str> {
    Ok(LoopTripCount {
        iv: Some(iv),
        count: TripCount::Unknown(reason.to_string()),
    })
}

/// The integer value of an immediate operand.
fn imm_int(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(imm) => match imm.value {
            ImmValue::Int(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// The constant an operand has at `inst`: an immediate, or a register whose only
/// reaching definition is an unguarded `mov` of an immediate.
fn constant_at(func: &Function, rd: &ReachingDefs, inst: InstId, op: &Operand) -> IvValue {
    if let Some(v) = imm_int(op) {
        return IvValue::Const(v);
    }
    let Some(reg) = plain_reg(op) else {
        return IvValue::Unknown;
    };
    let Some(chain) = rd.reaching_use(inst, reg) else {
        return IvValue::Reg(reg);
    };
    if let ([d], false) = (chain.defs, chain.from_entry) {
        let def = rd.def(*d);
        let dinst = &func.insts[def.inst];
        if dinst.opcode.info.family == FamilyId::Mov && dinst.guard.is_none() {
            if let Some(v) = dinst.operands.get(1).and_then(imm_int) {
                return IvValue::Const(v);
            }
        }
    }
    IvValue::Reg(reg)
}

/// The base of an [`affine`] value: a register as one definition (or the
/// function's entry) leaves it.
type AffineBase = Option<(RegId, Option<DefId>)>;

/// The value `inst` writes (its first operand) as `base + offset`: through
/// unguarded `mov` of an immediate or a register, `add` of two such values
/// (at most one with a base), and `mul.wide`/`mul.lo`/`shl` of a constant
/// by an immediate; anything else is a base of its own (the register as
/// that definition leaves it). Two values with the same base differ by a
/// constant. At most 8 definitions deep.
fn affine(
    func: &Function,
    rd: &ReachingDefs,
    inst: InstId,
    depth: u32,
) -> Option<(AffineBase, i128)> {
    let i = &func.insts[inst];
    let dest = plain_reg(i.operands.first()?)?;
    let opaque = || {
        let d = rd
            .defs_of_inst(inst)
            .iter()
            .copied()
            .find(|&d| rd.def(d).reg == dest);
        Some((Some((dest, d)), 0))
    };
    if depth > 8 || i.guard.is_some() {
        return opaque();
    }
    // An operand's value: an immediate, or what its one reaching
    // definition writes (the entry value: a base).
    let operand = |op: &Operand| -> Option<(AffineBase, i128)> {
        if let Some(v) = imm_int(op) {
            return Some((None, v));
        }
        let r = plain_reg(op)?;
        let chain = rd.reaching_use(inst, r)?;
        match (chain.defs, chain.from_entry) {
            ([d], false) => affine(func, rd, rd.def(*d).inst, depth + 1),
            ([], true) => Some((Some((r, None)), 0)),
            _ => None,
        }
    };
    let info = &i.opcode.info;
    let ops = &i.operands;
    match info.family {
        FamilyId::Mov if ops.len() == 2 => operand(&ops[1]).or_else(opaque),
        FamilyId::Add if ops.len() == 3 => {
            let ty = info.ty()?;
            if ty.kind() == TypeKind::Float {
                return opaque();
            }
            let bits = ty.bits();
            match (operand(&ops[1]), operand(&ops[2])) {
                (Some((None, a)), Some((None, c))) => Some((None, wrap(a + c, bits, false))),
                (Some((None, a)), Some((b, c))) | (Some((b, c)), Some((None, a))) => {
                    Some((b, a + c))
                }
                _ => opaque(),
            }
        }
        FamilyId::Mul | FamilyId::Shl if ops.len() == 3 => {
            // Constants only, in the instruction's types: `mul.wide`
            // widens its sources exactly, `mul.lo` and `shl` wrap.
            let ty = info.ty()?;
            let (bits, signed) = (ty.bits(), ty.kind() == TypeKind::Signed);
            let shl = info.family == FamilyId::Shl;
            let wide = i.opcode.has_modifier(".wide");
            if !(shl || wide || i.opcode.has_modifier(".lo")) {
                return opaque();
            }
            match (operand(&ops[1]), imm_int(&ops[2])) {
                (Some((None, a)), Some(k)) => {
                    let a = wrap(a, bits, signed);
                    let v = if shl {
                        wrap(
                            a.checked_shl(u32::try_from(k).ok().filter(|&k| k < bits)?)?,
                            bits,
                            false,
                        )
                    } else if wide {
                        a.checked_mul(wrap(k, bits, signed))?
                    } else {
                        wrap(a.checked_mul(k)?, bits, signed)
                    };
                    Some((None, v))
                }
                _ => opaque(),
            }
        }
        _ => opaque(),
    }
}

fn plain_reg(op: &Operand) -> Option<RegId> {
    match op {
        Operand::Reg {
            reg,
            component: None,
        } => Some(*reg),
        _ => None,
    }
}

/// Definitions of `reg` inside the loop.
fn defs_in_loop(rd: &ReachingDefs, l: &Loop, reg: RegId) -> Vec<crate::reaching_defs::DefId> {
    rd.defs_of_reg(reg)
        .iter()
        .copied()
        .filter(|&d| l.contains(rd.def(d).block))
        .collect()
}

/// `mov %r, %t` (instruction `mov`, defining `reg`) where `%t`'s only
/// definition reaching the copy is an unguarded step of `reg` (`add %t, %r,
/// s`) earlier in the same block, with no write of `reg` between (its only
/// write in the loop is the copy): the step the copy completes.
fn copied_step(
    func: &Function,
    rd: &ReachingDefs,
    l: &Loop,
    mov: InstId,
    reg: RegId,
) -> Option<InstId> {
    let m = &func.insts[mov];
    if m.opcode.info.family != FamilyId::Mov || m.guard.is_some() {
        return None;
    }
    let [d, src] = m.operands.as_slice() else {
        return None;
    };
    if plain_reg(d) != Some(reg) {
        return None;
    }
    let t = plain_reg(src)?;
    if func.regs[t].class != func.regs[reg].class {
        return None;
    }
    let chain = rd.reaching_use(mov, t)?;
    let [td] = chain.defs else {
        return None;
    };
    if chain.from_entry {
        return None;
    }
    let tdef = rd.def(*td);
    if !l.contains(tdef.block) || tdef.block != rd.def(rd.defs_of_inst(mov)[0]).block {
        return None;
    }
    let step = tdef.inst;
    step_of_any(&func.insts[step], reg).map(|_| step)
}

/// [`step_of`] for a step that may write another register than it reads:
/// `add %t, %r, s` (with `%t` = `%r` the plain step).
fn step_of_any(inst: &Inst, iv: RegId) -> Option<(&Operand, bool)> {
    let info = &inst.opcode.info;
    let sub = match info.family {
        FamilyId::Add => false,
        FamilyId::Sub => true,
        _ => return None,
    };
    if inst.guard.is_some() || info.flags.contains(OpFlags::CARRY_OUT) || info.sat {
        return None;
    }
    if !info.ty().is_some_and(Ty::is_int) {
        return None;
    }
    let [_, a, b] = inst.operands.as_slice() else {
        return None;
    };
    if plain_reg(a) == Some(iv) {
        return Some((b, sub));
    }
    if !sub && plain_reg(b) == Some(iv) {
        return Some((a, false));
    }
    None
}

/// The IV step of `inst` for register `iv`: `add iv, iv, s`, `add iv, s, iv`,
/// `sub iv, iv, s` (stride `-s`). Returns the stride operand and whether it is
/// subtracted.
fn step_of(inst: &Inst, iv: RegId) -> Option<(&Operand, bool)> {
    let info = &inst.opcode.info;
    let sub = match info.family {
        FamilyId::Add => false,
        FamilyId::Sub => true,
        _ => return None,
    };
    if inst.guard.is_some() || info.flags.contains(OpFlags::CARRY_OUT) || info.sat {
        return None;
    }
    if !info.ty().is_some_and(Ty::is_int) {
        return None;
    }
    let [d, a, b] = inst.operands.as_slice() else {
        return None;
    };
    if plain_reg(d) != Some(iv) {
        return None;
    }
    if plain_reg(a) == Some(iv) {
        return Some((b, sub));
    }
    if !sub && plain_reg(b) == Some(iv) {
        return Some((a, false));
    }
    None
}

fn analyze(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    l: &Loop,
    rd: &ReachingDefs,
) -> Result<LoopTripCount, &'static str> {
    let [latch] = l.latches.as_slice() else {
        return Err("several latches");
    };
    let latch = *latch;
    let Some(&bra_id) = func.blocks[latch].insts.last() else {
        return Err("latch does not end in a conditional branch");
    };
    let bra = &func.insts[bra_id];
    let Some(guard) = bra
        .guard
        .filter(|_| bra.opcode.info.family == FamilyId::Bra)
    else {
        return Err("latch does not end in a conditional branch");
    };
    if l.exits.iter().any(|&(from, _)| from != latch) {
        return Err("the loop exits other than at the latch");
    }
    // Which way is "go on"?
    let targets = func.branch_targets_of(bra);
    let continue_if_guard = match targets.as_slice() {
        [t] if *t == l.header => true,
        [t] if !l.contains(*t) => false,
        _ => return Err("latch branch is neither to the header nor out of the loop"),
    };
    let continue_if_pred_true = continue_if_guard != guard.negated;

    // The compare.
    let pchain = rd
        .reaching_use(bra_id, guard.reg)
        .ok_or("no compare for the latch branch")?;
    let [pdef] = pchain.defs else {
        return Err("the latch predicate has several definitions");
    };
    if pchain.from_entry {
        return Err("the latch predicate may be undefined");
    }
    let pdef = rd.def(*pdef);
    let cmp_id = pdef.inst;
    let cmp = &func.insts[cmp_id];
    let cinfo = &cmp.opcode.info;
    if cinfo.family != FamilyId::Setp || cmp.guard.is_some() || !l.contains(pdef.block) {
        return Err("the latch predicate is not a setp in the loop");
    }
    let (op, forced_sign) = cinfo
        .cmp
        .and_then(CmpOp::of)
        .ok_or("unsupported compare operator")?;
    let cmp_ty = cinfo.ty().ok_or("compare without type")?;
    if !cmp_ty.is_int() {
        return Err("not an integer compare");
    }
    let cmp_type = cmp_ty.name().to_string();
    if cmp.operands.len() != 3 {
        return Err("compare combines a predicate (setp with .and/.or/.xor)");
    }
    // `setp p|q`: the branch may read the complement.
    let pred_is_complement = match &cmp.operands[0] {
        Operand::PredPair(_, q) => plain_reg(q) == Some(guard.reg),
        _ => false,
    };
    let width = cmp_ty.bits();
    let signed = forced_sign.unwrap_or(cmp_ty.kind() == TypeKind::Signed);

    // Which operand is the IV? Its one definition in the loop steps it
    // (`add %r, %r, s`), or copies a register that steps it (`add %t, %r,
    // s; mov %r, %t`, the form of `-O0` code and of loops whose increment
    // was split by copy propagation).
    let candidates = [(1usize, 2usize, false), (2, 1, true)];
    let mut found = None;
    for (ivi, limi, swapped) in candidates {
        let Some(reg) = plain_reg(&cmp.operands[ivi]) else {
            continue;
        };
        let defs = defs_in_loop(rd, l, reg);
        let [d] = defs.as_slice() else { continue };
        let def = rd.def(*d);
        if step_of(&func.insts[def.inst], reg).is_some() {
            found = Some((reg, def.inst, def.inst, def.block, limi, swapped));
            break;
        }
        if let Some(step) = copied_step(func, rd, l, def.inst, reg) {
            found = Some((reg, def.inst, step, def.block, limi, swapped));
            break;
        }
    }
    let Some((iv_reg, inc_id, step_id, inc_block, limi, swapped)) = found else {
        return Err("no induction variable in the latch compare");
    };
    let inc = &func.insts[step_id];
    let (stride_op, subtract) = step_of_any(inc, iv_reg).expect("checked");
    if inc.opcode.info.ty().map(Ty::bits) != Some(width) {
        return Err("the increment and the compare have different widths");
    }

    let mut op = if swapped { op.swapped() } else { op };
    // Negate when exactly one of "go on when false" and "the branch reads the
    // complement of the compare" holds.
    if continue_if_pred_true == pred_is_complement {
        op = op.negated();
    }
    let after = {
        let chain = rd.reaching_use(cmp_id, iv_reg);
        matches!(chain, Some(c) if c.defs.len() == 1 && rd.def(c.defs[0]).inst == inc_id && !c.from_entry)
    };
    let mut iv = InductionVar {
        reg: iv_reg,
        increment: inc_id,
        compare: cmp_id,
        init: IvValue::Unknown,
        stride: constant_at(func, rd, step_id, stride_op),
        limit: constant_at(func, rd, cmp_id, &cmp.operands[limi]),
        direction: Direction::Unknown,
        continue_while: op,
        cmp_type: cmp_type.clone(),
        compare_after_increment: after,
    };
    if subtract {
        if let IvValue::Const(s) = iv.stride {
            iv.stride = IvValue::Const(-s);
        }
    }
    if let IvValue::Const(s) = iv.stride {
        iv.direction = match s.signum() {
            1 => Direction::Up,
            -1 => Direction::Down,
            _ => Direction::Unknown,
        };
    }
    // Initial value: the definitions reaching the increment from outside.
    let chain = rd
        .reaching_use(step_id, iv_reg)
        .ok_or("increment does not read the IV")?;
    let outside: Vec<_> = chain
        .defs
        .iter()
        .copied()
        .filter(|&d| !l.contains(rd.def(d).block))
        .collect();
    iv.init = match (outside.as_slice(), chain.from_entry) {
        ([d], false) => {
            let dinst = &func.insts[rd.def(*d).inst];
            match (dinst.opcode.info.family, dinst.guard) {
                // A `mov` of an immediate, or of a register whose one
                // reaching definition is (`mov.u32 %r18, -1; ...; mov.u32
                // %r30, %r18`: nvcc -O3 shares the constant between two
                // loops).
                (FamilyId::Mov, None) => match dinst
                    .operands
                    .get(1)
                    .map(|op| constant_at(func, rd, rd.def(*d).inst, op))
                {
                    Some(IvValue::Const(v)) => IvValue::Const(v),
                    _ => IvValue::Defined(rd.def(*d).inst),
                },
                _ => IvValue::Defined(rd.def(*d).inst),
            }
        }
        _ => IvValue::Unknown,
    };

    // Structural checks.
    if !dom.dominates(inc_block, latch) {
        return unknown(iv, "the increment does not run on every iteration");
    }
    if chain.defs.iter().any(|&d| {
        let b = rd.def(d).block;
        l.contains(b) && rd.def(d).inst != inc_id
    }) {
        return unknown(iv, "the IV has several definitions in the loop");
    }
    // A compare in the latch block before the increment reads the old value; a
    // compare elsewhere that does not see exactly the increment is ambiguous.
    if !after {
        let same_block_before = cfg.block_of(cmp_id) == cfg.block_of(inc_id)
            && cfg.position_of(cmp_id) < cfg.position_of(inc_id);
        if !same_block_before {
            return unknown(iv, "the compare does not see one value of the IV");
        }
    }
    if let Some(r) = plain_reg(&cmp.operands[limi]) {
        if !defs_in_loop(rd, l, r).is_empty() {
            return unknown(iv, "the limit is redefined in the loop");
        }
    }
    if let Some(r) = plain_reg(stride_op) {
        if !defs_in_loop(rd, l, r).is_empty() {
            return unknown(iv, "the stride is redefined in the loop");
        }
    }
    // A pointer IV tested with `!=`/`==` against an end pointer (phase 21's
    // test replacement: `P = base + i0 * S` and `E = base + n * S` in the
    // preheader): the count needs only the distance from start to end, so
    // both as the same base plus constants will do.
    let relative = match (&iv.init, &iv.limit, op) {
        (IvValue::Defined(d), IvValue::Reg(m), CmpOp::Ne | CmpOp::Eq) => {
            let start = affine(func, rd, *d, 0);
            let end = rd
                .reaching_use(cmp_id, *m)
                .and_then(|c| match (c.defs, c.from_entry) {
                    ([e], false) => affine(func, rd, rd.def(*e).inst, 0),
                    _ => None,
                });
            match (start, end) {
                (Some((b1, i)), Some((b2, e))) if b1 == b2 => Some((i, e)),
                _ => None,
            }
        }
        _ => None,
    };
    let (init, stride, limit) = match (&iv.init, &iv.stride, &iv.limit) {
        (IvValue::Const(i), IvValue::Const(s), IvValue::Const(m)) => (*i, *s, *m),
        (_, IvValue::Const(s), _) if relative.is_some() => {
            let (i, m) = relative.expect("checked");
            (i, *s, m)
        }
        (IvValue::Const(_), IvValue::Const(_), _) => {
            return unknown(iv, "the limit is not a constant")
        }
        (IvValue::Const(_), _, _) => return unknown(iv, "the stride is not a constant"),
        _ => return unknown(iv, "the initial value is not a constant"),
    };
    match count(init, stride, limit, op, width, signed, after) {
        Ok(n) => Ok(LoopTripCount {
            iv: Some(iv),
            count: TripCount::Known(n),
        }),
        Err(reason) => unknown(iv, reason),
    }
}

/// `v` as a `width`-bit value of the given signedness.
fn wrap(v: i128, width: u32, signed: bool) -> i128 {
    let modulus = 1i128 << width;
    let u = v.rem_euclid(modulus);
    if signed && u >= modulus / 2 {
        u - modulus
    } else {
        u
    }
}

/// The trip count: the header runs for k = 0, 1, ... and the loop goes on after
/// iteration k while `v_k op limit`, where `v_k = init + stride * (k + after)`.
/// Exact arithmetic; `Err` when the IV would leave the type's range first, or the
/// loop never ends.
pub fn count(
    init: i128,
    stride: i128,
    limit: i128,
    op: CmpOp,
    width: u32,
    signed: bool,
    after: bool,
) -> Result<u64, &'static str> {
    if !(1..=64).contains(&width) {
        return Err("unsupported width");
    }
    let (min, max) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    let init = wrap(init, width, signed);
    let limit = wrap(limit, width, signed);
    let stride = wrap(stride, width, true);
    let start = init + if after { stride } else { 0 };
    if start < min || start > max {
        return Err("the IV wraps around");
    }
    // k: the first iteration after which the loop does not go on.
    let k: i128 = if !op.eval(start, limit) {
        0
    } else {
        match op {
            CmpOp::Eq => {
                if stride == 0 {
                    return Err("the loop never ends (zero stride)");
                }
                1
            }
            CmpOp::Ne => {
                if stride == 0 {
                    return Err("the loop never ends (zero stride)");
                }
                let d = limit - start;
                if d % stride != 0 || d / stride <= 0 {
                    return Err("the IV steps over the limit (!= compare)");
                }
                d / stride
            }
            CmpOp::Lt | CmpOp::Le => {
                if stride <= 0 {
                    return Err("the IV never reaches the limit");
                }
                let bound = if op == CmpOp::Le { limit + 1 } else { limit };
                (bound - start + stride - 1) / stride
            }
            CmpOp::Gt | CmpOp::Ge => {
                if stride >= 0 {
                    return Err("the IV never reaches the limit");
                }
                let bound = if op == CmpOp::Ge { limit - 1 } else { limit };
                (start - bound + (-stride) - 1) / (-stride)
            }
        }
    };
    let last = start + k * stride;
    if last < min || last > max {
        return Err("the IV wraps around");
    }
    u64::try_from(k + 1).map_err(|_| "the trip count does not fit 64 bits")
}

/// `%r1 = 0; +1; while %r1 < 10 (s32, after increment)`.
pub fn describe_iv(func: &Function, iv: &InductionVar) -> String {
    let value = |v: &IvValue| match v {
        IvValue::Const(c) => c.to_string(),
        IvValue::Reg(r) => func.regs[*r].name.to_string(),
        IvValue::Defined(i) => format!(
            "{} ({})",
            crate::cfg::inst_name(*i),
            func.insts[*i].opcode.text()
        ),
        IvValue::Unknown => "?".to_string(),
    };
    let stride = match &iv.stride {
        IvValue::Const(c) if *c >= 0 => format!("+{c}"),
        other => value(other),
    };
    format!(
        "{} = {}; step {}; while {} {} {} ({}, compare {} increment)",
        func.regs[iv.reg].name,
        value(&iv.init),
        stride,
        func.regs[iv.reg].name,
        iv.continue_while.symbol(),
        value(&iv.limit),
        iv.cmp_type.trim_start_matches('.'),
        if iv.compare_after_increment {
            "after"
        } else {
            "before"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::cfg;
    use crate::dominators::dominators;
    use crate::loops::loops;
    use crate::reaching_defs::reaching_defs;
    use crate::test_util::func;

    fn trip(body: &str) -> Vec<String> {
        let f = func(body);
        let g = cfg(&f);
        let d = dominators(&g);
        let l = loops(&g, &d);
        let rd = reaching_defs(&f, &g);
        trip_counts(&f, &g, &d, &l, &rd)
            .loops
            .iter()
            .map(|t| {
                let c = match &t.count {
                    TripCount::Known(n) => n.to_string(),
                    TripCount::Unknown(r) => format!("unknown: {r}"),
                };
                match &t.iv {
                    Some(iv) => format!("{c} [{}]", describe_iv(&f, iv)),
                    None => c,
                }
            })
            .collect()
    }

    fn simple(init: &str, step: &str, cmp: &str, limit: &str) -> String {
        trip(&format!(
            "mov.u32 %r1, {init};
           L:
             {step};
             setp.{cmp} %p1, %r1, {limit};
             @%p1 bra L;
             ret;"
        ))
        .remove(0)
    }

    #[test]
    fn counting_loops() {
        assert_eq!(
            simple("0", "add.s32 %r1, %r1, 1", "lt.s32", "10"),
            "10 [%r1 = 0; step +1; while %r1 < 10 (s32, compare after increment)]"
        );
        assert!(simple("0", "add.s32 %r1, %r1, 1", "le.s32", "10").starts_with("11 "));
        assert!(simple("0", "add.s32 %r1, %r1, 3", "lt.s32", "10").starts_with("4 "));
        assert!(simple("10", "add.s32 %r1, %r1, -1", "gt.s32", "0").starts_with("10 "));
        assert!(simple("10", "sub.s32 %r1, %r1, 2", "ge.s32", "0").starts_with("6 "));
        assert!(simple("8", "add.s32 %r1, %r1, -4", "ne.s32", "0").starts_with("2 "));
        assert!(simple("0", "add.s32 %r1, %r1, 1", "lo.u32", "1").starts_with("1 "));
        // Already past the limit: the body still runs once.
        assert!(simple("20", "add.s32 %r1, %r1, 1", "lt.s32", "10").starts_with("1 "));
        // The limit on the left.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
                 mov.u32 %r2, 16;
               L:
                 add.u32 %r1, 4, %r1;
                 setp.gt.u32 %p1, %r2, %r1;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["4 [%r1 = 0; step +4; while %r1 < 16 (u32, compare after increment)]"]
        );
    }

    #[test]
    fn a_pointer_tested_against_an_end_pointer_of_the_same_base() {
        // Phase 21's test replacement: P = base + 0 * 4, E = base + 64.
        let pointer = |end: &str| {
            trip(&format!(
                "ld.param.u64 %rd1, [p];
                 cvta.to.global.u64 %rd2, %rd1;
                 mov.u32 %r1, 0;
                 mul.wide.s32 %rd3, %r1, 4;
                 add.s64 %rd3, %rd3, %rd2;
                 {end}
               L:
                 ld.global.f32 %f1, [%rd3];
                 add.s64 %rd3, %rd3, 4;
                 setp.ne.u64 %p1, %rd3, %rd4;
                 @%p1 bra L;
                 ret;"
            ))
            .remove(0)
        };
        assert!(
            pointer("add.s64 %rd4, %rd2, 64;").starts_with("16 "),
            "{}",
            pointer("add.s64 %rd4, %rd2, 64;")
        );
        // The end from the same base through a constant scaled index.
        assert!(
            pointer("mov.u32 %r2, 10; mul.wide.u32 %rd5, %r2, 4; add.s64 %rd4, %rd2, %rd5;")
                .starts_with("10 ")
        );
        // Another base, or a scaled register: unknown.
        assert!(pointer("add.s64 %rd4, %rd1, 64;").starts_with("unknown"));
        assert!(pointer(
            "ld.param.u32 %r2, [p]; mul.wide.u32 %rd5, %r2, 4; add.s64 %rd4, %rd2, %rd5;"
        )
        .starts_with("unknown"));
    }

    #[test]
    fn a_step_completed_by_a_copy() {
        // `-O0` form: the step writes a temporary that a `mov` copies back.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r2, %r1, 1;
                 mov.u32 %r1, %r2;
                 setp.lt.s32 %p1, %r1, 12;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["12 [%r1 = 0; step +1; while %r1 < 12 (s32, compare after increment)]"]
        );
        // The compare between step and copy reads the old value.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r2, %r1, 2;
                 setp.lt.s32 %p1, %r1, 12;
                 mov.u32 %r1, %r2;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["7 [%r1 = 0; step +2; while %r1 < 12 (s32, compare before increment)]"]
        );
        // A copy of something else is no step.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r2, %r3, 1;
                 mov.u32 %r1, %r2;
                 setp.lt.s32 %p1, %r1, 12;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["unknown: no induction variable in the latch compare"]
        );
    }

    #[test]
    fn compare_before_increment_and_exit_branches() {
        // i = 0; do { cmp i < 10; i++ } while: compares 0..9 then 10 -> 11 runs.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 setp.lt.s32 %p1, %r1, 10;
                 add.s32 %r1, %r1, 1;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["11 [%r1 = 0; step +1; while %r1 < 10 (s32, compare before increment)]"]
        );
        // Exit on a true predicate, header reached by a negated branch.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r1, %r1, 1;
                 setp.ge.s32 %p1, %r1, 5;
                 @!%p1 bra L;
                 ret;"
            ),
            vec!["5 [%r1 = 0; step +1; while %r1 < 5 (s32, compare after increment)]"]
        );
    }

    #[test]
    fn an_initial_value_copied_from_a_constant_register_is_a_constant() {
        // nvcc -O3 shares one `mov.u32 %r18, -1` between two loops' starts.
        assert_eq!(
            trip(
                "mov.u32 %r18, -1;
                 mov.u32 %r1, %r18;
               L:
                 add.s32 %r1, %r1, 1;
                 setp.ne.s32 %p1, %r1, 2;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["3 [%r1 = -1; step +1; while %r1 != 2 (s32, compare after increment)]"]
        );
    }

    #[test]
    fn unknown_counts_say_why() {
        assert_eq!(
            simple("0", "add.s32 %r1, %r1, 1", "lt.s32", "%r9"),
            "unknown: the limit is not a constant [%r1 = 0; step +1; while %r1 < %r9 (s32, compare after increment)]"
        );
        assert!(simple("0", "add.s32 %r1, %r1, -1", "lt.s32", "10")
            .starts_with("unknown: the IV never reaches"));
        assert!(simple("0", "add.s32 %r1, %r1, 1", "le.u32", "4294967295")
            .starts_with("unknown: the IV wraps around"));
        assert!(simple("1", "add.s32 %r1, %r1, 2", "ne.s32", "10")
            .starts_with("unknown: the IV steps over"));
        assert!(simple("0", "add.s32 %r1, %r1, 0", "lt.s32", "10")
            .starts_with("unknown: the IV never reaches"));
        assert_eq!(
            trip(
                "L:
                 add.s32 %r1, %r1, 1;
                 setp.lt.s32 %p1, %r1, 10;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["unknown: the initial value is not a constant [%r1 = ?; step +1; while %r1 < 10 (s32, compare after increment)]"]
        );
        assert_eq!(
            trip(
                "mov.f32 %f1, 0f00000000;
               L:
                 add.f32 %f1, %f1, 0f3F800000;
                 setp.lt.f32 %p1, %f1, 0f41200000;
                 @%p1 bra L;
                 ret;"
            ),
            vec!["unknown: not an integer compare"]
        );
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r1, %r1, 1;
                 setp.eq.s32 %p1, %r1, 3;
                 @%p1 bra L;
                 setp.lt.s32 %p2, %r1, 9;
                 @%p2 bra L;
                 ret;"
            ),
            vec!["unknown: several latches"]
        );
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               L:
                 add.s32 %r1, %r1, 1;
                 setp.eq.s32 %p2, %r1, 7;
                 @%p2 bra OUT;
                 setp.lt.s32 %p1, %r1, 10;
                 @%p1 bra L;
               OUT:
                 ret;"
            ),
            vec!["unknown: the loop exits other than at the latch"]
        );
        // Top-tested loop: the latch ends in an unconditional branch.
        assert_eq!(
            trip(
                "mov.u32 %r1, 0;
               H:
                 setp.ge.s32 %p1, %r1, 10;
                 @%p1 bra OUT;
                 add.s32 %r1, %r1, 1;
                 bra H;
               OUT:
                 ret;"
            ),
            vec!["unknown: latch does not end in a conditional branch"]
        );
    }

    #[test]
    fn count_edge_cases() {
        assert_eq!(count(0, 1, 127, CmpOp::Lt, 8, true, true), Ok(127));
        assert_eq!(
            count(0, 1, 127, CmpOp::Le, 8, true, true),
            Err("the IV wraps around")
        );
        assert_eq!(count(0, 1, 255, CmpOp::Lt, 8, false, false), Ok(256));
        assert_eq!(
            count(5, 0, 5, CmpOp::Eq, 32, true, true),
            Err("the loop never ends (zero stride)")
        );
        assert_eq!(count(4, 1, 5, CmpOp::Eq, 32, true, true), Ok(2));
        // -1 as an unsigned 32-bit stride counts down.
        assert_eq!(
            count(10, 0xFFFF_FFFF, 0, CmpOp::Ne, 32, false, true),
            Ok(10)
        );
        assert_eq!(
            count(0, 1, i64::MAX as i128, CmpOp::Lt, 64, true, false),
            Ok(i64::MAX as u64 + 1)
        );
    }
}
