//! The decision engine of phase 22: seed 000, "Main Decision Flowchart
//! (sub_1390B30)", steps A to P, for one loop at a time. Pure: it reads the
//! function and its analyses and returns a [`Decision`] (a plan for
//! [`super::transform`], or a rejection code with the seed's reason) and the
//! numbers that decided it. See the module documentation of
//! [`super`] for what was adapted from Ori to PTX.

use ptx_analysis::loops::{LoopForest, LoopId};
use ptx_analysis::trip_count::{CmpOp, Direction, InductionVar, IvValue, LoopTripCount, TripCount};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, InstId, Operand, RegId};
use ptx_isa::{Cmp, FamilyId, OpFlags, Space, TypeKind};
use rustc_hash::FxHashSet;

use crate::{knobs, PassContext};

/// The knobs phase 22 reads, read once per function (in the order the seed's
/// context initializer reads them).
#[derive(Clone, Debug)]
pub struct Knobs {
    pub budget: i64,
    pub unknown_count: i64,
    pub full_inst_limit: i64,
    /// `UnrollSmallLoopLimit`: a body (latch left out) of fewer
    /// instructions is unrolled fully whatever its trip count.
    pub small_loop_limit: i64,
    pub non_innermost: bool,
    pub multi_block: bool,
    pub variable_bounds: bool,
    pub unknown_multi_block: bool,
    pub factor: i64,
    pub num_inst_tex: i64,
    pub disable_overflow_check: bool,
    /// `OcgKnob427`, the per-block override string.
    pub override_string: String,
    /// `OcgKnob91`: nounroll for every block.
    pub nounroll_all: bool,
    /// `OcgKnob898`: the inner-nounroll penalty scale.
    pub nounroll_scale: f64,
}

impl Knobs {
    pub fn read(ctx: &dyn PassContext) -> Knobs {
        Knobs {
            budget: ctx.int(knobs::UnrollBudget),
            unknown_count: ctx.int(knobs::UnrollUnknownCount),
            full_inst_limit: ctx.int(knobs::UnrollFullInstLimit),
            small_loop_limit: ctx.int(knobs::UnrollSmallLoopLimit),
            non_innermost: ctx.bool(knobs::LoopUnrollNonInnermost),
            multi_block: ctx.bool(knobs::UnrollMultiBlockLoops),
            variable_bounds: ctx.bool(knobs::UnrollVariableBounds),
            unknown_multi_block: ctx.bool(knobs::LoopUnrollUnknownMultiBlock),
            factor: ctx.int(knobs::LoopUnrollFactor),
            num_inst_tex: ctx.int(knobs::LoopUnrollNumInstTex),
            disable_overflow_check: ctx.bool(knobs::DisablePartialUnrollOverflowCheck),
            override_string: ctx.string(knobs::OcgKnob427),
            nounroll_all: ctx.bool(knobs::OcgKnob91),
            nounroll_scale: ctx.float(knobs::OcgKnob898),
        }
    }
}

/// Step F: what the body scan counts (the seed's 68-byte `body_info`).
/// A loop of unknown trip count with this many atomic or reduction
/// instructions (or more) is not unrolled: ptxas 13.0.88 unrolls one with a
/// single `red` by 4 and leaves those with 2 to 5 rolled, whatever their
/// addresses, while plain stores never stop it (measured).
const MAX_UNKNOWN_ATOMICS: i64 = 2;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyInfo {
    pub body_size: i64,
    pub foldable_ldc: i64,
    pub tex_count: i64,
    pub call_weight: i64,
    pub mem_count: i64,
    pub load_count: i64,
    pub store_count: i64,
    pub has_cross_edges: bool,
    pub branch_count: i64,
    pub killed_defs: i64,
    pub inner_nounroll: i64,
    /// `brx.idx` in the loop (its `.branchtargets` list cannot be copied).
    pub indirect: bool,
    /// A warp-synchronous instruction ([`OpFlags::CONVERGENT`]): no reason
    /// to leave the loop rolled (ptxas 13.0.88 unrolls loops of unknown
    /// trip count holding `bar.sync`, `shfl.sync`, `redux.sync`,
    /// `match.sync` or `bar.warp.sync` by 4; measured), reported as a fact.
    pub convergent: bool,
    /// A `call`, or an instruction ptxas implements by calling a
    /// subroutine of its own (64-bit integer division, IEEE-rounded
    /// division, `sqrt` and `rcp`, `rsqrt.approx.f64`; see [`ptxas_count`]):
    /// ptxas 13.0.88 leaves such a loop rolled (measured).
    pub subroutine: bool,
    /// Loads from global, local or generic memory (`ld.global.nc`
    /// included): what ptxas counts where the seed reads `tex_count` in
    /// step K2 (measured, see the module documentation of [`super`]).
    pub global_loads: i64,
    /// Loads from shared memory: what ptxas counts in step K1's texture
    /// budget (measured).
    pub shared_loads: i64,
    /// Atomic and reduction instructions (`atom`, `red`): what we read
    /// the seed's `mem_flag_count` ("instructions with memory flag bit 6")
    /// as. ptxas 13.0.88 leaves a loop of unknown trip count that holds two
    /// or more rolled (measured, see the module documentation of [`super`]).
    pub atomics: i64,
    /// 64-bit `add`s that form an address from a `mul.wide` or `shl`
    /// result and feed only memory addresses: ptxas folds each pair into
    /// one `IMAD.WIDE`/`LEA` before phase 22.
    pub folded_addresses: i64,
}

impl BodyInfo {
    /// Step K2's `tex_count`: texture instructions and the loads ptxas
    /// counts with them.
    pub fn k2_count(&self) -> i64 {
        self.tex_count + self.global_loads
    }

    /// Step K1's `tex_inst`: texture instructions and shared loads.
    pub fn k1_count(&self) -> i64 {
        self.tex_count + self.shared_loads
    }

    /// What ptxas's own body count adds to the PTX instruction count: each
    /// load of global, local, generic or shared memory counts twice, less
    /// one for the loop (none without loads), and an address `add` folded
    /// into the `mul.wide`/`shl` before it counts nothing.
    pub fn ptxas_adjustment(&self) -> i64 {
        let loads = self.global_loads + self.shared_loads;
        loads - i64::from(loads > 0) - self.folded_addresses
    }
}

/// The induction variable as the transform needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iv {
    pub reg: RegId,
    pub compare: InstId,
    pub stride: i128,
    /// The limit: an immediate, or a register not written in the loop.
    pub limit: Limit,
    /// The loop goes on while `value op limit` (IV on the left).
    pub op: CmpOp,
    pub width: u32,
    pub signed: bool,
    /// The compare reads the IV after this iteration's increment.
    pub after: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Imm(i128),
    Reg(RegId),
}

impl Iv {
    /// Whether the stride moves the IV toward the exit test (step M, code
    /// 19): up under `<`/`<=`, down under `>`/`>=`, any step under `!=`.
    /// Otherwise the loop ends only by wrapping around (`i--` under an
    /// unsigned `i < n`), which no count of remaining iterations taken
    /// from `limit - iv` describes.
    pub fn moves_toward_exit(&self) -> bool {
        match self.op {
            CmpOp::Lt | CmpOp::Le => self.stride > 0,
            CmpOp::Gt | CmpOp::Ge => self.stride < 0,
            CmpOp::Ne => self.stride != 0,
            CmpOp::Eq => false,
        }
    }
}

/// What to do with a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Replace the loop by `n` copies of its body (the trip count is `n`).
    Full { n: u64 },
    /// Known trip count `n = q * factor + remainder`, `q >= 1`: `remainder`
    /// copies before the loop, then a loop of `factor` copies.
    PartialKnown { n: u64, factor: u32 },
    /// Unknown trip count: a loop of `factor` copies guarded by a check that
    /// `factor` more iterations run, a power-of-two epilogue of
    /// `epilogue_levels` stages, then the original loop for the rest.
    PartialUnknown {
        factor: u32,
        epilogue_levels: u32,
        iv: Iv,
    },
}

/// The decision about one loop.
#[derive(Clone, Debug)]
pub struct Decision {
    /// `None` when not unrolled.
    pub plan: Option<Plan>,
    /// The rejection code (seed's table), when rejected with one.
    pub code: Option<u32>,
    /// One line: why.
    pub reason: String,
    /// The numbers and facts that decided, in the order looked at.
    pub facts: Vec<(&'static str, String)>,
}

/// The seed's reason for each rejection code ("Unroll Rejection Table").
pub fn code_reason(code: u32) -> &'static str {
    match code {
        7 => "body too large relative to texture savings",
        11 => "nounroll pragma, convergence constraint or per-block knob",
        12 => "factor selection yielded 0",
        13 => "loop exit is not a conditional branch",
        14 => "unsupported induction variable",
        15 => "induction variable is not an integer",
        16 => "trip count bound extraction failed",
        17 => "irregular induction variable",
        18 => "degenerate or changing trip count bound",
        19 => "induction variable stride sign inconsistent with the exit test",
        24 => "budget exceeded",
        _ => "not unrolled",
    }
}

/// Everything the decision of one loop reads.
pub struct LoopCtx<'a> {
    pub func: &'a Function,
    pub forest: &'a LoopForest,
    pub id: LoopId,
    pub trip: &'a LoopTripCount,
    /// Layout index of the header (the `N` of the override string).
    pub block_index: usize,
    /// The header (or an enclosing loop's header) carries `.pragma
    /// "nounroll"` inherited from an enclosing loop (step A): the
    /// enclosing header's block index.
    pub inherited_nounroll: Option<usize>,
    pub knobs: &'a Knobs,
    /// Registers (by arena index) whose value is the same in every thread
    /// ([`ptx_analysis::reg_estimate::uniform_regs`]: computed from
    /// parameters, immediates and the warp-uniform special registers):
    /// what ptxas can keep in a uniform register. Filled on first use, once
    /// per version of the function.
    pub uniform: &'a std::cell::OnceCell<Vec<bool>>,
}

pub fn has_nounroll(func: &Function, b: BlockId) -> bool {
    func.blocks[b]
        .pragmas
        .iter()
        .any(|p| p.trim().trim_matches('"').trim() == "nounroll")
}

fn reject(mut facts: Vec<(&'static str, String)>, code: u32, detail: String) -> Decision {
    let reason = format!("{}: {detail}", code_reason(code));
    facts.push(("code", code.to_string()));
    Decision {
        plan: None,
        code: Some(code),
        reason,
        facts,
    }
}

fn skip(facts: Vec<(&'static str, String)>, reason: String) -> Decision {
    Decision {
        plan: None,
        code: None,
        reason,
        facts,
    }
}

const TEX_OPS: [&str; 7] = ["tex", "tld4", "txq", "suld", "sust", "sured", "suq"];

/// Step F: the body scan.
pub fn scan_body(func: &Function, forest: &LoopForest, id: LoopId) -> BodyInfo {
    let l = forest.get(id);
    let mut info = BodyInfo::default();
    let latch = l.latches.first().copied();
    info.has_cross_edges = l.exits.iter().any(|&(from, _)| Some(from) != latch);
    let mut inner_headers = FxHashSet::default();
    for &c in &l.children {
        inner_headers.insert(forest.get(c).header);
    }
    for &b in &l.blocks {
        if b != l.header && has_nounroll(func, b) {
            // Every block of the inner nounroll loop counts.
            if let Some(inner) = forest.loop_with_header(b) {
                info.inner_nounroll += forest.get(inner).blocks.len() as i64;
            } else {
                info.inner_nounroll += 1;
            }
        }
        // Registers written and not yet read, in this block: a second write
        // kills the first (`killed_def_count`).
        let mut pending: FxHashSet<RegId> = FxHashSet::default();
        for &i in &func.blocks[b].insts {
            let inst = &func.insts[i];
            let info_op = &inst.opcode.info;
            match ptxas_count(inst) {
                Some(n) => info.body_size += n,
                None => info.subroutine = true,
            }
            let name = inst.opcode.name.as_str();
            if TEX_OPS.contains(&name) {
                info.tex_count += 1;
            }
            if info_op.flags.contains(OpFlags::CALL) {
                info.call_weight += 9;
                info.subroutine = true;
            }
            if info_op.flags.contains(OpFlags::CONVERGENT) {
                info.convergent = true;
            }
            if info_op.family == FamilyId::BrxIdx {
                info.indirect = true;
            }
            if info_op.flags.contains(OpFlags::BRANCH) && info_op.family != FamilyId::BrxIdx {
                info.branch_count += 1;
            }
            let is_load = info_op.flags.contains(OpFlags::LOAD);
            let is_store = info_op.flags.contains(OpFlags::STORE);
            if is_load || is_store || info_op.flags.contains(OpFlags::ATOMIC) {
                info.mem_count += 1;
            }
            if info_op.flags.contains(OpFlags::ATOMIC) {
                info.atomics += 1;
            }
            if is_load {
                info.load_count += 1;
                match info_op.space {
                    Some(Space::Global) | Some(Space::Local) | Some(Space::Generic) | None => {
                        info.global_loads += 1
                    }
                    Some(Space::Shared) => info.shared_loads += 1,
                    Some(Space::Const) | Some(Space::Param) => {}
                }
                // A constant-bank load whose address the IV computes folds
                // into an immediate address once the loop is unrolled.
                if matches!(info_op.space, Some(Space::Const) | Some(Space::Param))
                    && inst.operands.iter().any(|op| {
                        matches!(op, Operand::Address(a) if matches!(a.base, ptx_ir::ir::AddressBase::Reg(_)))
                    })
                {
                    info.foldable_ldc += 1;
                }
            }
            if is_store {
                info.store_count += 1;
            }
            let mut reads = Vec::new();
            let mut writes = Vec::new();
            visit_defs_and_uses(inst, |access, r| match access {
                Access::Use => reads.push(r),
                Access::Def => writes.push(r),
            });
            for r in reads {
                pending.remove(&r);
            }
            if inst.guard.is_none() {
                for r in writes {
                    if !pending.insert(r) {
                        info.killed_defs += 1;
                    }
                }
            }
        }
    }
    info.folded_addresses = folded_addresses(func, l);
    info
}

/// Whether a store or atomic of loop `l` writes through an address that is
/// not affine in the loop's induction variables (a scatter, as a
/// histogram's `bins[key[i]]++`, or `a[i & 3]`; the rule in [`decide`]):
/// computed, inside the loop, from a load's result or through anything but
/// `add`, `sub`, `mul`, `mad`, `shl`, `cvt`, `cvta` and `mov` of
/// loop-invariant values, immediates and such registers (an `and` of the IV,
/// as `a[i & 3]`, is not affine: iterations four apart write the same word).
/// Registers defined in the loop start affine and lose it, to a fixed point
/// (only registers the loop defines can lose it).
fn scatters(func: &Function, l: &ptx_analysis::loops::Loop) -> bool {
    let insts: Vec<&ptx_ir::ir::Inst> = l
        .blocks
        .iter()
        .flat_map(|&b| func.blocks[b].insts.iter().map(|&i| &func.insts[i]))
        .collect();
    let mut not_affine: FxHashSet<RegId> = FxHashSet::default();
    loop {
        let before = not_affine.len();
        for inst in &insts {
            let info = &inst.opcode.info;
            let arithmetic = matches!(
                info.family,
                FamilyId::Add
                    | FamilyId::Sub
                    | FamilyId::Mul
                    | FamilyId::Mad
                    | FamilyId::Shl
                    | FamilyId::Cvt
                    | FamilyId::Cvta
                    | FamilyId::Mov
            );
            let mut affine = arithmetic && inst.guard.is_none();
            if affine {
                visit_defs_and_uses(inst, |a, r| {
                    if a == Access::Use && not_affine.contains(&r) {
                        affine = false;
                    }
                });
            }
            if !affine {
                visit_defs_and_uses(inst, |a, r| {
                    if a == Access::Def {
                        not_affine.insert(r);
                    }
                });
            }
        }
        if not_affine.len() == before {
            break;
        }
    }
    // Stores to the thread's own local memory (a local array indexed by `i &
    // 3`) do not count: a held-out loop of that form is unrolled by 4.
    insts.iter().any(|inst| {
        let info = &inst.opcode.info;
        let flags = info.flags;
        (flags.contains(OpFlags::STORE) || flags.contains(OpFlags::ATOMIC))
            && info.space != Some(Space::Local)
            && inst.operands.iter().any(|op| {
                matches!(op, Operand::Address(a)
                    if matches!(a.base, ptx_ir::ir::AddressBase::Reg(r) if not_affine.contains(&r)))
            })
    })
}

/// How many instructions a PTX instruction counts as in ptxas's body size
/// (`None`: ptxas calls a subroutine for it). ptxas expands integer
/// division and remainder, the approximate and `.full` divisions, and the
/// approximate math functions without `.ftz` (their denormal scaling),
/// before phase 22: measured on ptxas 13.0.88, in a loop of one global
/// load and a chain of `fma` (unrolled by 4 up to 48 instructions), the
/// instruction added once moves the largest body still unrolled down by its
/// count less one. The IEEE-rounded division, square root and reciprocal
/// (`div.rn`/`rz`/`rm`/`rp`, `sqrt.rn`, `rcp.rn`, of `f32` with or without
/// `.ftz` and of `f64`), `rsqrt.approx.f64` and 64-bit integer division
/// and remainder become a fast path and a `CALL` of a slow-path subroutine
/// in the SASS, and a loop holding one stays rolled whatever its trip
/// count (measured on sm_90: each alone in a loop of unknown and of known
/// trip count; `div.full`, `div.approx`, the approximate `f32` functions,
/// `rcp`/`rsqrt.approx.ftz.f64` and 32-bit integer division call nothing).
fn ptxas_count(inst: &ptx_ir::ir::Inst) -> Option<i64> {
    let info = &inst.opcode.info;
    use FamilyId::{Div, Ex2, Lg2, Rcp, Rem, Rsqrt, Sqrt};
    if !matches!(info.family, Div | Rem | Sqrt | Rcp | Rsqrt | Ex2 | Lg2) {
        return Some(1);
    }
    let m = |s: &str| inst.opcode.has_modifier(s);
    let Some(ty) = info.types.last() else {
        return Some(1);
    };
    let (float, bits, signed) = (ty.is_float(), ty.bits(), ty.is_signed());
    let ftz = m(".ftz");
    let n = match info.family {
        FamilyId::Div | FamilyId::Rem if !float && bits == 64 => return None,
        // 32-bit integer division and remainder; an immediate divisor
        // (even a power of two: ptxas has not reduced it yet) saves the
        // divisor's own conversion.
        FamilyId::Div | FamilyId::Rem if !float => {
            let n = match (info.family == FamilyId::Div, signed) {
                (true, true) => 27,
                (true, false) => 21,
                (false, true) => 24,
                (false, false) => 19,
            };
            let immediate = matches!(inst.operands.get(2), Some(Operand::Imm(_)));
            n - if !immediate {
                0
            } else if signed {
                3
            } else {
                2
            }
        }
        FamilyId::Div if m(".approx") => 7,
        FamilyId::Div if m(".full") => {
            if ftz {
                8
            } else {
                12
            }
        }
        // IEEE rounding: a slow-path subroutine.
        FamilyId::Div | FamilyId::Sqrt | FamilyId::Rcp if !m(".approx") => return None,
        FamilyId::Rsqrt if bits == 64 => return None,
        FamilyId::Rcp if !ftz => 7,
        FamilyId::Sqrt | FamilyId::Rcp | FamilyId::Rsqrt | FamilyId::Ex2 | FamilyId::Lg2
            if !ftz =>
        {
            6
        }
        _ => 1,
    };
    Some(n)
}

/// The 64-bit `add`s of the loop whose result only memory instructions of
/// the loop read, as their address, and one of whose operands a `mul.wide`
/// or `shl` of the loop computes (see [`BodyInfo::folded_addresses`]).
fn folded_addresses(func: &Function, l: &ptx_analysis::loops::Loop) -> i64 {
    let insts = || {
        l.blocks
            .iter()
            .flat_map(|&b| func.blocks[b].insts.iter().copied())
    };
    let mut scaled: FxHashSet<RegId> = FxHashSet::default();
    let mut uses: rustc_hash::FxHashMap<RegId, (u32, u32)> = Default::default();
    for i in insts() {
        let inst = &func.insts[i];
        let info = &inst.opcode.info;
        let wide = info.family == FamilyId::Mul && inst.opcode.has_modifier(".wide");
        if wide || info.family == FamilyId::Shl {
            if let Some(d) = inst.operands.first().and_then(Operand::as_reg) {
                scaled.insert(d);
            }
        }
        visit_defs_and_uses(inst, |access, r| {
            if access == Access::Use {
                uses.entry(r).or_default().0 += 1;
            }
        });
        if info.flags.loads() || info.flags.stores() || info.flags.is_atomic() {
            for op in &inst.operands {
                if let Operand::Address(a) = op {
                    if let ptx_ir::ir::AddressBase::Reg(r) = a.base {
                        uses.entry(r).or_default().1 += 1;
                    }
                }
            }
        }
    }
    insts()
        .filter(|&i| {
            let inst = &func.insts[i];
            let info = &inst.opcode.info;
            if info.family != FamilyId::Add || info.types.last().is_none_or(|t| t.bits() != 64) {
                return false;
            }
            let Some(d) = inst.operands.first().and_then(Operand::as_reg) else {
                return false;
            };
            let from_scaled = inst.guard.is_none()
                && inst.operands[1..]
                    .iter()
                    .any(|op| op.as_reg().is_some_and(|r| scaled.contains(&r)));
            let (all, address) = uses.get(&d).copied().unwrap_or_default();
            from_scaled && address > 0 && all == address
        })
        .count() as i64
}

/// Which rejection code a failed or partial IV analysis maps to (steps M
/// and N; the reasons are those of `ptx_analysis::trip_count`).
fn iv_failure_code(reason: &str) -> u32 {
    let r = reason;
    if r.contains("conditional branch") || r.contains("neither to the header") {
        13
    } else if r.contains("not an integer") || r.contains("without type") || r.contains("width") {
        15
    } else if r.contains("stride is redefined") || r.contains("stride is not a constant") {
        16
    } else if r.contains("increment does not run")
        || r.contains("several definitions in the loop")
        || r.contains("does not see one value")
    {
        17
    } else if r.contains("limit is redefined") {
        18
    } else if r.contains("never ends")
        || r.contains("never reaches")
        || r.contains("steps over")
        || r.contains("wraps around")
    {
        19
    } else {
        14
    }
}

/// Reasons of an unknown count that still allow unrolling with a runtime
/// check (the bound is just not a compile-time constant).
fn variable_bound(reason: &str) -> bool {
    reason.contains("limit is not a constant")
        || reason.contains("initial value is not a constant")
        || reason.contains("does not fit 64 bits")
}

/// Decides one loop (steps B to P).
pub fn decide(cx: &LoopCtx) -> Decision {
    let func = cx.func;
    let l = cx.forest.get(cx.id);
    let k = cx.knobs;
    let mut facts: Vec<(&'static str, String)> = vec![("block", cx.block_index.to_string())];
    let trip_desc = match &cx.trip.count {
        TripCount::Known(n) => n.to_string(),
        TripCount::Unknown(r) => format!("unknown ({r})"),
    };
    facts.push(("trip count", trip_desc));

    // Step H (read early: "-" skips, "+" forces, also step B's force_all).
    let ov = k.override_string.trim();
    let mut force = false;
    if !ov.is_empty() {
        let id = cx.block_index;
        if ov == "-" || ov.contains(&format!("-{id}-")) {
            facts.push(("override", ov.to_string()));
            return skip(
                facts,
                format!("skipped by the override string OcgKnob427=\"{ov}\" (block {id})"),
            );
        }
        if ov == "+" || ov.contains(&format!("+{id}+")) {
            force = true;
            facts.push(("override", ov.to_string()));
        }
    }
    let force_all = ov == "+";

    // Step B: nounroll propagated from an enclosing loop (a loop with a
    // pragma of its own is reported for that one, at step D).
    if let Some(outer) = cx.inherited_nounroll {
        if !force_all && !has_nounroll(func, l.header) {
            return reject(
                facts,
                11,
                format!("inside a loop marked .pragma \"nounroll\" (block {outer})"),
            );
        }
    }

    // Step C: the back edge and the exit instruction.
    let [latch] = l.latches.as_slice() else {
        facts.push(("back edges", l.latches.len().to_string()));
        return skip(
            facts,
            format!("no single back edge ({} latches)", l.latches.len()),
        );
    };
    let last = func.blocks[*latch].insts.last().map(|&i| &func.insts[i]);
    let conditional =
        last.is_some_and(|i| i.opcode.info.family == FamilyId::Bra && i.guard.is_some());
    if !conditional {
        return reject(
            facts,
            13,
            "the latch does not end in a conditional branch (a top-tested loop: the exit test is at the header)".into(),
        );
    }

    // Step D: nounroll pragma, per-block knob 91.
    if has_nounroll(func, l.header) && !force {
        // A pragma alone before a label (what nvcc writes with
        // `-lineinfo`): ptxas 13.0.88 drops that block, pragma and all,
        // in some modules and unrolls the loop after all; which modules
        // is not known from the function (docs/loop-unrolling.md), so
        // the pragma is honoured and the user told.
        let mut detail = String::from(".pragma \"nounroll\" on the loop header");
        if func.blocks[l.header].pragma_alone {
            facts.push((
                "pragma",
                "alone before a label: ptxas 13.0.88 drops such a pragma in some modules \
                 (a call to a function that touches no memory makes it) and unrolls the loop; \
                 a pragma followed by an instruction is always honoured"
                    .into(),
            ));
            detail.push_str(" (alone before a label: ptxas may ignore it)");
        }
        return reject(facts, 11, detail);
    }
    if k.nounroll_all && !force {
        return reject(facts, 11, "OcgKnob91 (per-block nounroll) is set".into());
    }

    // Step F: the body scan.
    let body = scan_body(func, cx.forest, cx.id);
    facts.push(("body size", body.body_size.to_string()));
    if body.tex_count > 0 {
        facts.push(("texture count", body.tex_count.to_string()));
    }
    if body.global_loads > 0 {
        facts.push(("global loads", body.global_loads.to_string()));
    }
    if body.shared_loads > 0 {
        facts.push(("shared loads", body.shared_loads.to_string()));
    }
    if body.foldable_ldc > 0 {
        facts.push(("foldable constant loads", body.foldable_ldc.to_string()));
    }
    if body.call_weight > 0 {
        facts.push(("call weight", body.call_weight.to_string()));
    }
    facts.push(("memory instructions", body.mem_count.to_string()));
    if body.convergent {
        facts.push(("warp-synchronous", "yes".into()));
    }
    if body.inner_nounroll > 0 {
        facts.push(("inner nounroll blocks", body.inner_nounroll.to_string()));
    }
    if body.has_cross_edges {
        return skip(
            facts,
            "the loop exits other than at its latch (a `break`): not a candidate".into(),
        );
    }
    if body.subroutine && !force {
        return skip(
            facts,
            "the loop calls a subroutine (a `call`, 64-bit integer division, an IEEE-rounded `div`, `sqrt` or `rcp`, `rsqrt.approx.f64`): ptxas leaves it rolled".into(),
        );
    }
    if body.indirect {
        return reject(
            facts,
            13,
            "the loop holds an indirect branch (brx.idx)".into(),
        );
    }

    // Step G: the budget.
    let penalty = (k.nounroll_scale * body.inner_nounroll as f64) as i64;
    let remaining =
        body.call_weight + body.body_size - body.foldable_ldc - body.killed_defs - penalty
            + body.ptxas_adjustment();
    let remaining = remaining.max(1);
    facts.push(("unroll cost", remaining.to_string()));

    // Step J: the non-innermost filter. Loops are decided innermost first,
    // so a loop that still holds a loop here is one whose inner loops were
    // not unrolled fully. ptxas 13.0.88 leaves such a loop rolled with
    // `LoopUnrollNonInnermost` at its default (measured on sm_90: an outer
    // loop of trip count 2, 3 or unknown around an inner loop of unknown
    // trip count, with or without `nounroll`, stays rolled; around an inner
    // loop it unrolls fully, it is unrolled by 4), so the test applies
    // whatever the knob; the knob keeps step K4's factor 2 for the loops
    // that pass it (textures: 10 x tex >= cost).
    let innermost = l.children.is_empty();
    if !force && !innermost && k.factor <= 0 && 10 * body.tex_count < remaining {
        return reject(
            facts,
            7,
            format!(
                "not an innermost loop (it still holds a loop after the inner loops' decisions), 10 x {} textures < cost {remaining}",
                body.tex_count
            ),
        );
    }

    let multi_block = l.blocks.len() > 1;
    let known = match cx.trip.count {
        TripCount::Known(n) => Some(n),
        TripCount::Unknown(_) => None,
    };
    if multi_block && !k.multi_block && !force {
        return reject(
            facts,
            12,
            "multi-block loop body and UnrollMultiBlockLoops=false".into(),
        );
    }

    // Step K: the factor.
    let mut full_ok = false;
    // Why a known trip count is unrolled fully (step K's test).
    let mut full_why = String::new();
    let mut factor: i64;
    if force {
        factor = k.unknown_count.max(2);
        facts.push(("forced factor", factor.to_string()));
    } else if let Some(n) = known {
        // A known trip count: ptxas 13.0.88's decision, measured (see
        // "Known trip counts" in the module documentation), on the body
        // without its latch (the IV's increment, compare and branch).
        let n_i = n as i64;
        let c = (remaining - LATCH).max(1);
        facts.push(("cost without the latch", c.to_string()));
        let full_limit = full_limit(k, n);
        let small = c < k.small_loop_limit && n <= small_loop_max_trips(c);
        if n <= 1 || small || n_i.saturating_mul(c) <= full_limit {
            factor = n_i;
            full_ok = true;
            if small {
                facts.push(("UnrollSmallLoopLimit", k.small_loop_limit.to_string()));
                full_why = format!(
                    "trip count {n}, cost {c} < {} (UnrollSmallLoopLimit)",
                    k.small_loop_limit
                );
            } else {
                facts.push(("full-unroll limit", full_limit.to_string()));
                facts.push(("budget left", (full_limit - n_i * c).to_string()));
                full_why =
                    format!("trip count {n}, {n} x cost {c} <= {full_limit} (full-unroll limit)");
            }
        } else {
            facts.push(("full-unroll limit", full_limit.to_string()));
            let budget = partial_budget(k);
            match partial_factor(n, c, budget) {
                Some(f) if c <= PARTIAL_MAX_COST => {
                    factor = f as i64;
                    let r = (n % f) as i64;
                    facts.push(("budget left", (budget - (factor + r) * c).to_string()));
                }
                _ if k.factor > 0 => factor = 0,
                _ => {
                    let why = if c > PARTIAL_MAX_COST {
                        format!("a cost of {c} is above {PARTIAL_MAX_COST}, the largest body ptxas unrolls partially")
                    } else {
                        format!("no factor f in 2..{n} keeps (f + {n} mod f) x {c} within {budget}")
                    };
                    return reject(
                        facts,
                        12,
                        format!(
                            "trip count {n}: {n} x {c} > {full_limit}, too large to unroll fully, and {why}"
                        ),
                    );
                }
            }
        }
    } else {
        if !k.variable_bounds {
            return reject(
                facts,
                12,
                "trip count unknown and UnrollVariableBounds=false".into(),
            );
        }
        if multi_block && !k.unknown_multi_block {
            return reject(
                facts,
                12,
                "multi-block loop with an unknown trip count (LoopUnrollUnknownMultiBlock=false)"
                    .into(),
            );
        }
        if body.atomics >= MAX_UNKNOWN_ATOMICS && k.factor <= 0 {
            facts.push(("atomics", body.atomics.to_string()));
            return reject(
                facts,
                12,
                format!(
                    "unknown trip count and {} atomic or reduction instructions in the body (mem_flag_count >= {MAX_UNKNOWN_ATOMICS}: ptxas leaves such a loop rolled)",
                    body.atomics
                ),
            );
        }
        factor = unknown_factor(k, &body, remaining, innermost);
    }
    // Steps K3/K4 left no factor (and no LoopUnrollFactor override):
    // code 12, "factor selection yielded 0".
    if factor == 0 && !full_ok && !force && k.factor <= 0 {
        let tex_budget = tex_budget(k, &body);
        facts.push(("texture budget", tex_budget.to_string()));
        return reject(
            facts,
            12,
            format!(
                "cost {remaining} >= texture budget {tex_budget} (step K3) and the loop is innermost (step K4's factor 2 is for loops that are not)"
            ),
        );
    }
    // Step L: the LoopUnrollFactor override.
    if k.factor > 0 {
        factor = k.factor;
        facts.push(("LoopUnrollFactor", k.factor.to_string()));
        full_ok = known.is_some_and(|n| factor as u64 >= n);
    }
    if factor < 2 && !(full_ok && known.is_some()) {
        if known.is_some() && k.factor <= 0 {
            return reject(
                facts,
                12,
                format!(
                    "no factor >= 2 fits: {remaining} x 2 > UnrollBudget {} and the body is too large to unroll fully",
                    k.budget
                ),
            );
        }
        return reject(
            facts,
            24,
            if k.factor > 0 {
                format!("LoopUnrollFactor={}", k.factor)
            } else {
                format!(
                    "cost {remaining} x 2 > UnrollBudget {} after all factor reductions",
                    k.budget
                )
            },
        );
    }

    // Step M: the induction variable. AnalyzeIV starts at the predicate
    // the latch's branch reads and gives up on an operand with the negate
    // bit (`@!p`, or `not.pred` folded into it by phase 15): ptxas 13.0.88
    // unrolls `setp.lt; @p bra L` by 4 and leaves `setp.ge; @!p bra L`, the
    // same loop, alone (checked with ptxas -v on both).
    if last.and_then(|i| i.guard).is_some_and(|g| g.negated) {
        return reject(
            facts,
            14,
            "the latch's branch reads its predicate negated (`@!p`), which AnalyzeIV does not follow".into(),
        );
    }
    let Some(ivar) = &cx.trip.iv else {
        let reason = match &cx.trip.count {
            TripCount::Unknown(r) => r.clone(),
            TripCount::Known(_) => "no induction variable".into(),
        };
        let code = iv_failure_code(&reason);
        return reject(facts, code, reason);
    };
    let ivd = describe(func, ivar);
    facts.push(("induction variable", ivd));
    if let TripCount::Unknown(r) = &cx.trip.count {
        if !variable_bound(r) {
            return reject(facts, iv_failure_code(r), r.clone());
        }
    }
    let inc_block = block_of(func, ivar.increment);
    if inc_block.and_then(|b| cx.forest.innermost(b)) != Some(cx.id) {
        return reject(
            facts,
            17,
            "the increment is inside an inner loop (it does not run once per iteration)".into(),
        );
    }
    let Some(iv) = iv_of(func, ivar) else {
        return reject(
            facts,
            16,
            "the stride or the limit is neither an immediate nor a loop-invariant register".into(),
        );
    };
    // Step M, stride verification (code 19): the stride must move the IV
    // toward the exit test.
    if !iv.moves_toward_exit() {
        return reject(
            facts,
            19,
            format!("stride {} with a `{}` exit test", iv.stride, iv.op.symbol()),
        );
    }
    // Code 18: init and limit are the same register.
    if let (IvValue::Defined(d), Limit::Reg(lr)) = (&ivar.init, &iv.limit) {
        let dinst = &func.insts[*d];
        if dinst.opcode.info.family == FamilyId::Mov
            && dinst.operands.get(1).and_then(Operand::as_reg) == Some(*lr)
        {
            return reject(
                facts,
                18,
                "the initial value of the induction variable is its limit register".into(),
            );
        }
    }

    // A scatter (a store or atomic through an address that is not affine in
    // the IVs: from loaded data, or `a[i & 3]`) in a loop whose trip count
    // differs between threads (its IV starts, or its limit is, not
    // warp-uniform: computed from `%tid`, `%laneid` or a load): ptxas
    // 13.0.88 leaves the loop rolled. Measured on sm_90, one loop changed
    // one thing at a time: `bins[key[i] & 63] += 1` from `i = %tid.x` is
    // left rolled, from `0`, `%ctaid.x` or a parameter unrolled by 4, and
    // so is the same loop storing through its own pointer or only
    // gathering; a limit loaded per thread acts as a varying start; two
    // held-out loops `a[gid * 4 + (j & 3)] += ...` up to `tid % 9` stay
    // rolled.
    if known.is_none() && !force && k.factor <= 0 && scatters(func, l) {
        let uniform_regs = cx
            .uniform
            .get_or_init(|| ptx_analysis::reg_estimate::uniform_regs(func));
        let uniform = |r: RegId| {
            uniform_regs
                .get(r.into_raw().into_u32() as usize)
                .copied()
                .unwrap_or(false)
        };
        let mut varying = Vec::new();
        if !uniform(ivar.reg) {
            varying.push("its induction variable's start");
        }
        if let Limit::Reg(r) = iv.limit {
            if !uniform(r) {
                varying.push("its limit");
            }
        }
        if !varying.is_empty() {
            facts.push(("scatter", "yes".into()));
            return reject(
                facts,
                12,
                format!(
                    "the trip count differs between threads ({} not warp-uniform) and the loop stores through an address that is not affine in its induction variables (from loaded data, or an `and` of the IV): ptxas leaves such a loop rolled",
                    varying.join(" and "),
                ),
            );
        }
    }

    // Steps N to P.
    if let Some(n) = known {
        let f = factor as u64;
        if full_ok || f >= n {
            facts.push(("factor", n.to_string()));
            let reason = if force {
                format!("forced by OcgKnob427=\"{ov}\"; trip count {n}")
            } else if k.factor > 0 {
                format!("LoopUnrollFactor={} >= trip count {n}", k.factor)
            } else {
                full_why
            };
            return Decision {
                plan: Some(Plan::Full { n }),
                code: None,
                reason,
                facts,
            };
        }
        // Overflow check: stride * (factor - 1) fits the IV's type.
        if !k.disable_overflow_check && overflows(&iv, factor) {
            return reject(
                facts,
                12,
                format!(
                    "stride {} x (factor {factor} - 1) overflows the IV type",
                    iv.stride
                ),
            );
        }
        facts.push(("factor", factor.to_string()));
        facts.push(("remainder copies", (n % f).to_string()));
        let reason = format!(
            "trip count {n}: x{factor}, {} loop trips{}",
            n / f,
            if n % f > 0 {
                format!(" and {} remainder copies", n % f)
            } else {
                String::new()
            }
        );
        let reason = with_origin(reason, force, k, ov);
        return Decision {
            plan: Some(Plan::PartialKnown {
                n,
                factor: factor as u32,
            }),
            code: None,
            reason,
            facts,
        };
    }

    if !k.disable_overflow_check && overflows(&iv, factor) {
        return reject(
            facts,
            24,
            format!(
                "partial unroll overflow: stride {} x (factor {factor} - 1) does not fit the IV type",
                iv.stride
            ),
        );
    }
    // The runtime guard constant must fit the compare's width.
    if guard_constant(&iv, factor as u32).is_none() {
        return reject(
            facts,
            24,
            "the runtime trip-count guard does not fit the IV type".into(),
        );
    }
    let f = factor as u32;
    let levels = if f > 2 {
        31 - (f - 1).leading_zeros()
    } else {
        0
    };
    facts.push(("factor", factor.to_string()));
    if levels > 0 {
        facts.push(("epilogue stages", levels.to_string()));
    }
    let reason = with_origin(
        format!("unknown trip count, UnrollUnknownCount={}", k.unknown_count),
        force,
        k,
        ov,
    );
    Decision {
        plan: Some(Plan::PartialUnknown {
            factor: f,
            epilogue_levels: levels,
            iv,
        }),
        code: None,
        reason,
        facts,
    }
}

fn with_origin(reason: String, force: bool, k: &Knobs, ov: &str) -> String {
    if k.factor > 0 {
        format!("{reason} (LoopUnrollFactor={})", k.factor)
    } else if force {
        format!("{reason} (forced by OcgKnob427=\"{ov}\")")
    } else {
        reason
    }
}

/// Steps K1 to K4: the factor for an unknown (or too large) trip count.
/// K4's fallback (factor 2 when K3 left 0) is "the final
/// allow_non_innermost fallback": it applies to a loop that is not
/// innermost, under `LoopUnrollNonInnermost`. An innermost loop whose cost
/// reaches the texture budget keeps factor 0 and is not unrolled (what
/// ptxas does: `cargo xtask unroll-fidelity` sees no innermost loop of
/// unknown trip count unrolled by 2, and innermost loops of cost 35 and
/// 59 left rolled).
fn unknown_factor(k: &Knobs, body: &BodyInfo, remaining: i64, innermost: bool) -> i64 {
    let tex_budget = tex_budget(k, body);
    // No profile: no loop is "hot" (see the module documentation), so the
    // tex-dominated hot multi-block case (factor 2) never applies.
    // K2's `remaining <= 49` is `< 49` with ptxas's count as
    // `BodyInfo::ptxas_adjustment` makes it (measured: a loop of one global
    // load is unrolled up to 48 PTX instructions, not at 49).
    let mut factor = if body.k2_count() > 0 && remaining < 49 {
        k.unknown_count
    } else if tex_budget <= remaining {
        0
    } else {
        k.unknown_count
    };
    if factor == 0 && k.non_innermost && !innermost {
        factor = 2;
    }
    factor
}

/// The latch ptxas leaves out of a known trip count's cost: the IV's
/// increment, the compare and the branch.
const LATCH: i64 = 3;
/// The largest cost (latch left out) ptxas 13.0.88 unrolls partially at a
/// known trip count (measured: 72 is unrolled by 4 at any trip count, 73 at
/// none).
pub const PARTIAL_MAX_COST: i64 = 72;
/// The partial budget at `UnrollBudget`'s default (140), measured on
/// ptxas 13.0.88: 2.5 times the knob.
const PARTIAL_BUDGET_AT_DEFAULT: i64 = 350;
/// The largest cost (latch left out) ptxas 13.0.88 unrolls fully at a
/// trip count, measured on sm_90 by bisection on a chain of `fma` in a
/// function with 300 more instructions (in a smaller function ptxas allows
/// up to 15 % more). Between two trip counts of the table the limit on
/// `trip count x cost` is interpolated linearly; above the last, nothing
/// but a small loop is unrolled fully.
const FULL_TABLE: [(u64, i64); 19] = [
    (2, 189),
    (3, 119),
    (4, 92),
    (5, 72),
    (6, 64),
    (7, 57),
    (8, 52),
    (10, 46),
    (12, 39),
    (16, 33),
    (20, 29),
    (24, 26),
    (32, 22),
    (48, 17),
    (64, 14),
    (100, 11),
    (128, 9),
    (256, 6),
    (512, 4),
];

/// The largest trip count at which a small loop (cost under
/// `UnrollSmallLoopLimit`) is still unrolled fully: measured on ptxas
/// 13.0.88 (sm_90), 7181 copies of a cost-1 body, 2810 of cost 2, 1531 of
/// cost 3 (a longer loop is unrolled partially, as any other); for a
/// larger cost (the knob raised) `4593 / cost`, the total at cost 3.
pub fn small_loop_max_trips(c: i64) -> u64 {
    match c {
        ..=1 => 7181,
        2 => 2810,
        3 => 1531,
        _ => (4593 / c).max(1) as u64,
    }
}

/// The limit on `trip count x cost` under which a loop of trip count `n` is
/// unrolled fully ([`FULL_TABLE`], scaled by `UnrollFullInstLimit` / 200).
pub fn full_limit(k: &Knobs, n: u64) -> i64 {
    let at = |i: usize| FULL_TABLE[i].0 as i64 * FULL_TABLE[i].1;
    let base = match FULL_TABLE.iter().position(|&(t, _)| t >= n) {
        None => 0,
        Some(0) => at(0),
        Some(i) if FULL_TABLE[i].0 == n => at(i),
        Some(i) => {
            let (n0, n1) = (FULL_TABLE[i - 1].0 as i64, FULL_TABLE[i].0 as i64);
            at(i - 1) + (at(i) - at(i - 1)) * (n as i64 - n0) / (n1 - n0)
        }
    };
    base * k.full_inst_limit / 200
}

/// The partial budget: [`PARTIAL_BUDGET_AT_DEFAULT`] scaled by
/// `UnrollBudget` / 140.
fn partial_budget(k: &Knobs) -> i64 {
    PARTIAL_BUDGET_AT_DEFAULT * k.budget / 140
}

/// ptxas's partial factor at a known trip count `n` and cost `c`: the
/// largest `f` in `2..n` whose copies, the loop's `f` and the `n mod f`
/// remainder copies, fit the budget (measured: at `n = 1024` a cost of 4
/// is unrolled by 73 with 2 remainder copies, 8 by 34 with 4, 10 by 33
/// with 1, 30 by 8).
pub fn partial_factor(n: u64, c: i64, budget: i64) -> Option<u64> {
    let most = (budget / c.max(1)).max(0) as u64;
    (2..n.min(most + 1))
        .rev()
        .find(|&f| (f as i64 + (n % f) as i64).saturating_mul(c) <= budget)
}

/// Step K1: the texture budget, `LoopUnrollNumInstTex` or
/// `min(5 * tex + 22, 100)`.
fn tex_budget(k: &Knobs, body: &BodyInfo) -> i64 {
    if k.num_inst_tex != 0 {
        k.num_inst_tex
    } else {
        (5 * body.k1_count() + 22).min(100)
    }
}

/// The seed's overflow check: `stride * (factor - 1)` must fit the IV's
/// signed type.
fn overflows(iv: &Iv, factor: i64) -> bool {
    let total = iv.stride.unsigned_abs() * (factor.max(1) as u128 - 1);
    total >= 1u128 << (iv.width - 1)
}

/// `K = (n - 2 + after) * |stride|`, the distance the guard of a chunk of
/// `n` copies compares with; `None` if it does not fit the width.
pub fn guard_constant(iv: &Iv, n: u32) -> Option<u128> {
    let steps = (n as i128) - 2 + i128::from(iv.after);
    if steps < 0 {
        return Some(0);
    }
    let k = (steps as u128).checked_mul(iv.stride.unsigned_abs())?;
    (k < (1u128 << iv.width)).then_some(k)
}

fn block_of(func: &Function, inst: InstId) -> Option<BlockId> {
    func.layout
        .iter()
        .copied()
        .find(|&b| func.blocks[b].insts.contains(&inst))
}

fn iv_of(func: &Function, v: &InductionVar) -> Option<Iv> {
    let stride = match v.stride {
        IvValue::Const(s) => s,
        _ => return None,
    };
    let limit = match v.limit {
        IvValue::Const(c) => Limit::Imm(c),
        IvValue::Reg(r) => Limit::Reg(r),
        _ => return None,
    };
    let cmp = &func.insts[v.compare];
    let info = &cmp.opcode.info;
    let ty = info.ty()?;
    let forced_unsigned = matches!(info.cmp, Some(Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs));
    let signed = !forced_unsigned && ty.kind() == TypeKind::Signed;
    let width = ty.bits();
    if !matches!(width, 16 | 32 | 64) {
        return None;
    }
    let _ = Direction::Up;
    Some(Iv {
        reg: v.reg,
        compare: v.compare,
        stride,
        limit,
        op: v.continue_while,
        width,
        signed,
        after: v.compare_after_increment,
    })
}

fn describe(func: &Function, iv: &InductionVar) -> String {
    ptx_analysis::trip_count::describe_iv(func, iv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(body: &str) -> Function {
        let text = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n\
             .visible .entry k(.param .u64 k_in, .param .u32 k_n)\n{{\n\
             .reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n\
             .reg .f64 %fd<4>;\n\
             ld.param.u64 %rd1, [k_in];\nld.param.u32 %r1, [k_n];\nmov.u32 %r2, 0;\n\
             L1:\n{body}\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra L1;\n\
             \tret;\n}}\n"
        );
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        assert!(errors.is_empty(), "{errors:?}");
        module.functions.into_iter().next().unwrap()
    }

    fn scan(body: &str) -> BodyInfo {
        let f = function(body);
        let cfg = ptx_analysis::cfg(&f);
        let forest = ptx_analysis::loops(&cfg, &ptx_analysis::dominators(&cfg));
        let id = forest.innermost_loops()[0];
        scan_body(&f, &forest, id)
    }

    #[test]
    fn loads_count_as_ptxas_counts_them() {
        // One global load through a scaled index: the mul.wide/add pair
        // folds, the load counts twice less one for the loop.
        let b = scan(
            "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
             \tld.global.f32 %f1, [%rd3];\n\tld.shared.f32 %f2, [%r3];\n\
             \tst.global.f32 [%rd3], %f2;\n",
        );
        assert_eq!(
            (b.global_loads, b.shared_loads, b.folded_addresses),
            (1, 1, 1)
        );
        assert_eq!(b.body_size, 8);
        assert_eq!(b.ptxas_adjustment(), 0);
        assert_eq!((b.k2_count(), b.k1_count()), (1, 1));
        // An address read by something else does not fold.
        let b = scan(
            "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
             \tld.global.f32 %f1, [%rd3];\n\tst.global.u64 [%rd1], %rd3;\n",
        );
        assert_eq!(b.folded_addresses, 0);
    }

    #[test]
    fn known_trip_count_factors_are_those_ptxas_chose() {
        // (trip count, cost, ptxas's factor), read from the SASS of
        // probes (module documentation, "Known trip counts").
        for (n, c, f) in [
            (1024, 4, 73),
            (1024, 6, 51),
            (1024, 8, 34),
            (1024, 10, 33),
            (1024, 12, 20),
            (1024, 16, 17),
            (1024, 30, 8),
            (1024, 72, 4),
            (1000, 4, 83),
            (1000, 10, 27),
            (121, 27, 11),
            (114, 25, 10),
            (96, 15, 19),
            (7, 64, 3),
            (16384, 1, 321),
        ] {
            assert_eq!(partial_factor(n, c, 350), Some(f), "n={n} c={c}");
        }
        assert_eq!(partial_factor(2, 200, 350), None);
    }

    #[test]
    fn the_full_unroll_limit_is_the_measured_table_interpolated() {
        let k = Knobs {
            budget: 140,
            unknown_count: 4,
            full_inst_limit: 200,
            small_loop_limit: 4,
            non_innermost: true,
            multi_block: true,
            variable_bounds: true,
            unknown_multi_block: false,
            factor: 0,
            num_inst_tex: 0,
            disable_overflow_check: false,
            override_string: String::new(),
            nounroll_all: false,
            nounroll_scale: 0.0,
        };
        assert_eq!(full_limit(&k, 16), 16 * 33);
        assert_eq!(full_limit(&k, 2), 2 * 189);
        // Between 16 (528) and 20 (580).
        assert_eq!(full_limit(&k, 18), 554);
        assert_eq!(full_limit(&k, 1024), 0);
        assert_eq!(
            full_limit(
                &Knobs {
                    full_inst_limit: 100,
                    ..k
                },
                16
            ),
            264
        );
        assert_eq!(small_loop_max_trips(1), 7181);
        assert_eq!(small_loop_max_trips(3), 1531);
    }

    #[test]
    fn expanded_instructions_count_as_what_ptxas_makes_of_them() {
        let size = |inst: &str| scan(&format!("\t{inst}\n")).body_size - 3;
        assert_eq!(size("rem.s32 %r3, %r2, %r1;"), 24);
        assert_eq!(size("rem.s32 %r3, %r2, 7;"), 21);
        assert_eq!(size("div.u32 %r3, %r2, %r1;"), 21);
        assert_eq!(size("div.full.f32 %f1, %f2, %f3;"), 12);
        assert_eq!(size("div.approx.f32 %f1, %f2, %f3;"), 7);
        assert_eq!(size("sqrt.approx.f32 %f1, %f2;"), 6);
        assert_eq!(size("ex2.approx.f32 %f1, %f2;"), 6);
        assert_eq!(size("ex2.approx.ftz.f32 %f1, %f2;"), 1);
        assert_eq!(size("add.f32 %f1, %f2, %f3;"), 1);
        for sub in [
            "div.s64 %rd4, %rd2, %rd3;",
            "sqrt.rn.f64 %fd1, %fd2;",
            "sqrt.rn.f32 %f1, %f2;",
            "div.rn.f32 %f1, %f2, %f3;",
            "div.rn.ftz.f32 %f1, %f2, %f3;",
            "rcp.rn.f32 %f1, %f2;",
            "div.rn.f64 %fd1, %fd2, %fd3;",
            "rsqrt.approx.f64 %fd1, %fd2;",
        ] {
            assert!(scan(&format!("\t{sub}\n")).subroutine, "{sub}");
        }
    }
}
