//! cicc `inline`: calls to functions of the module replaced by the callee's
//! body.
//!
//! **What it computes.** For every direct `call` whose callee is defined in
//! the same module, the callee's lowered body is copied into the caller in
//! place of the call: its registers become fresh registers of the caller,
//! its blocks are placed between the code before the call and the code after
//! it, every `ret` becomes a branch to the code after the call, and its
//! `.local`/`.param` declarations are copied under fresh names. Arguments and
//! results go through registers instead of the `.param` space: the caller's
//! `st.param [paramN+off]` becomes a move into a fresh register per
//! (argument, byte offset, width), the callee's `ld.param [f_param_N+off]` a
//! move out of it; the callee's `st.param [func_retval0+off]` a move into a
//! result register, the caller's `ld.param [retval0+off]` after the call a
//! move out of it. Copy propagation, dead-code elimination and the rest of
//! the pipeline then optimize the callee's code in the caller's context
//! (constant arguments folded, the `.local` depot of an `-O0` callee promoted
//! by `nvptx-mem2reg`). Calls made by an inlined body are looked at again, up
//! to 4 levels deep.
//!
//! **Seeds.** None: the seeds describe the passes that run after inlining
//! (seed 002's machine pipeline starts at instruction selection, seed 004's
//! loop unroller runs on inlined IR). This is LLVM's inliner as cicc runs it
//! before its loop passes, which is why `nvcc -O3` PTX has hardly any calls
//! left and `-Xcicc -O0` PTX calls `fabsf`, `sqrtf` and every `__device__`
//! function. The decision is LLVM's cost model, simplified: cost = 5 per
//! callee instruction (`InlineConstants::InstrCost`), minus 5 per argument and
//! for the call itself, plus the call penalty 25 taken off (the call's own
//! cost disappears); inline when cost <= `inline-threshold` (LLVM's option,
//! default 225) times NVPTX's inlining threshold multiplier 11
//! (`NVPTXTTIImpl::getInliningThresholdMultiplier`), i.e. 2,475: a callee of
//! up to about 500 instructions.
//!
//! **Knobs.** `inline-threshold` (cicc, LLVM's own option; ptxopt's registry
//! lists it as not named in the seeds).
//!
//! **Adapted to PTX, and where it must not fire.** PTX carries no
//! `alwaysinline`/`noinline` attributes and no call-site counts across
//! modules, so LLVM's bonuses for a static function's last call site are not
//! modelled. A call is left alone (a missed remark says why) when: it is
//! indirect or guarded; the callee is only declared (a call through the ABI,
//! ptxas links it); the callee is the caller or calls itself (recursion);
//! the callee has `.reg` parameters, a `brx.idx` jump table or constant
//! expressions the copy could not rename, or declares `.shared`, `.global` or
//! `.const` storage in its body (one variable per function: one copy per call
//! site would split it); a parameter's address is taken, or an argument or
//! result is accessed other than by `ld.param`/`st.param` of 16-, 32- or
//! 64-bit elements whose widths and offsets match on both sides (a mismatch
//! would need byte shuffling through memory; leaving the call is always
//! correct); the caller's argument stores or result loads are not in the
//! call's block next to it; or the cost is over the threshold. A caller that
//! would grow beyond 20,000 instructions inlines nothing more.
//!
//! **A caller cicc already optimized keeps its calls.** cicc's inliner runs
//! once, at -O1 and above; a call still in its output is one it declined,
//! most often because the source says `__noinline__` (or the call is cold,
//! as Kokkos' abort paths are), and PTX carries neither. Re-deciding with the
//! cost model above would undo the user's choice: `with_call` of
//! `test-data/cuda/bench/loops_ptxas.cu`, whose `__noinline__` helper we
//! inlined into cicc's x4 loop, went from 12 to 24 ptxas registers. The sign
//! read instead is the shape of the caller: LLVM's -O0 code generator ends
//! every block that falls through with a `bra` to the block laid out next
//! (`bra.uni $L__BB0_1;` right before `$L__BB0_1:`), and block placement and
//! branch folding at -O1 and above remove every one. So a caller that
//! branches, none of whose branches goes to the next block, is cicc's
//! optimized output and keeps every call; a caller with such a branch
//! (`-Xcicc -O0`) or with no branch at all (nothing to tell) is inlined as
//! above. Measured on the bench CUDA sources: every function with a branch
//! has one to the next block at -O0 and none at -O3; no function of
//! `../shared/corpus` has one.

use std::sync::Arc;

use ptx_ir::ir::{
    AddressBase, Block, BlockId, Function, FunctionKind, Inst, InstId, LocalDecl, Opcode, Operand,
    RegId,
};
use ptx_isa::{FamilyId, Space};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::context::PassContext;
use crate::knobs;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// `InlineConstants::InstrCost`.
const INSTR_COST: i64 = 5;
/// `InlineConstants::CallPenalty`.
const CALL_PENALTY: i64 = 25;
/// `NVPTXTTIImpl::getInliningThresholdMultiplier`.
const NVPTX_MULTIPLIER: i64 = 11;
/// Calls made by inlined bodies are inlined up to this depth.
const MAX_ROUNDS: usize = 4;
/// A caller stops growing here.
const MAX_CALLER_INSTS: usize = 20_000;

/// Runs the inliner on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let threshold = ctx
        .int(knobs::inline_threshold)
        .saturating_mul(NVPTX_MULTIPLIER);
    let mut f: Option<Function> = None;
    let mut remarks = Vec::new();
    let mut reported: FxHashSet<(Option<InstId>, String)> = FxHashSet::default();
    let mut inlined = 0u64;
    let mut added = 0u64;
    // Read once, at the first call (most functions have none).
    let mut optimized: Option<bool> = None;
    // The caller's size, counted once per version of it (not once per
    // call site: a function with hundreds of calls).
    let mut caller_size: Option<usize> = None;
    for _ in 0..MAX_ROUNDS {
        let sites: Vec<InstId> = {
            let cur = f.as_ref().unwrap_or(input);
            cur.insts_in_order()
                .filter(|(_, inst)| inst.opcode.info.family == FamilyId::Call)
                .map(|(i, _)| i)
                .collect()
        };
        let mut changed = false;
        for call in sites {
            let cur = f.as_ref().unwrap_or(input);
            let origin = cur.origin(call);
            let size = *caller_size.get_or_insert_with(|| cur.insts_in_order().count());
            let optimized = *optimized.get_or_insert_with(|| optimized_by_cicc(input));
            match plan(cur, call, ctx, threshold, size, optimized) {
                Err((callee, why)) => {
                    if reported.insert((origin, callee.clone())) {
                        remarks.push(Remark {
                            phase: id,
                            kind: RemarkKind::Missed,
                            name: "inline",
                            origin,
                            message: format!("call to `{callee}` not inlined: {why}"),
                        });
                    }
                }
                Ok(plan) => {
                    let g = f.get_or_insert_with(|| (**input).clone());
                    let message = format!(
                        "inlined `{}` ({} instructions, cost {} <= threshold {threshold})",
                        plan.callee.name(),
                        plan.callee_insts,
                        plan.cost
                    );
                    added += plan.callee_insts as u64;
                    apply(g, plan);
                    caller_size = None;
                    remarks.push(Remark {
                        phase: id,
                        kind: RemarkKind::Applied,
                        name: "inline",
                        origin,
                        message,
                    });
                    inlined += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let Some(f) = f else {
        let mut out = PhaseOutput::unchanged(input);
        out.remarks = remarks;
        return out;
    };
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![
            Stat {
                name: "calls inlined",
                value: inlined,
            },
            Stat {
                name: "instructions inlined",
                value: added,
            },
        ],
    }
}

/// Whether `f` is the output of an optimizing cicc (see the module doc): it
/// has a branch, and no branch goes to the block laid out right after its own.
fn optimized_by_cicc(f: &Function) -> bool {
    let mut branches = false;
    for (k, &b) in f.layout.iter().enumerate() {
        for &i in &f.blocks[b].insts {
            let Some(target) = super::branch_opt::bra_target(f, i) else {
                continue;
            };
            if f.layout.get(k + 1) == Some(&target) {
                return false;
            }
            branches = true;
        }
    }
    branches
}

/// One element of an `ld.param`/`st.param`: which parameter (by position),
/// byte offset, width in bits, and the register or value it moves.
#[derive(Clone, Debug)]
struct Elem {
    param: usize,
    offset: i64,
    bits: u32,
    /// The instruction's type (`.f32`).
    ty: String,
    /// The declared type of the register moved (`None`: a value or `_`).
    reg_ty: Option<String>,
    /// The register loaded into or the value stored (`None`: `_` sink).
    value: Option<Operand>,
}

/// What inlining one call needs, checked.
struct Plan {
    call: InstId,
    callee: Arc<Function>,
    callee_insts: usize,
    cost: i64,
    /// Caller `st.param` of arguments, with their elements.
    arg_stores: Vec<(InstId, Vec<Elem>)>,
    /// Caller `ld.param` of results, with their elements.
    ret_loads: Vec<(InstId, Vec<Elem>)>,
    /// Callee `ld.param` of parameters.
    param_loads: FxHashMap<InstId, Vec<Elem>>,
    /// Callee `st.param` of results.
    ret_stores: FxHashMap<InstId, Vec<Elem>>,
}

type Refusal = (String, String);

/// The call's parts: result symbols, callee name, argument symbols.
fn call_parts(inst: &Inst) -> Result<(Vec<Operand>, String, Vec<Operand>), &'static str> {
    let mut ops = inst.operands.iter().peekable();
    let rets = match ops.peek() {
        Some(Operand::ArgList(items)) => {
            let items = items.clone();
            ops.next();
            items
        }
        _ => Vec::new(),
    };
    let name = match ops.next() {
        Some(Operand::Symbol { name, offset: 0 }) => name.clone(),
        _ => return Err("an indirect call"),
    };
    let args = match ops.next() {
        Some(Operand::ArgList(items)) => items.clone(),
        None => Vec::new(),
        Some(_) => return Err("an indirect call"),
    };
    if ops.next().is_some() {
        return Err("a call with a prototype");
    }
    Ok((rets, name, args))
}

fn symbol_name(op: &Operand) -> Option<&str> {
    match op {
        Operand::Symbol { name, offset: 0 } => Some(name),
        _ => None,
    }
}

/// The elements of a `ld.param`/`st.param` whose address is `[sym+off]`
/// with `sym` in `names`: `Ok(None)` if it is no such access.
fn param_access(
    f: &Function,
    inst: &Inst,
    names: &[String],
    load: bool,
) -> Result<Option<Vec<Elem>>, String> {
    let info = &inst.opcode.info;
    let family = if load { FamilyId::Ld } else { FamilyId::St };
    if info.family != family || info.space != Some(Space::Param) {
        return Ok(None);
    }
    let (addr_pos, value_pos) = if load { (1, 0) } else { (0, 1) };
    let Some(Operand::Address(addr)) = inst.operands.get(addr_pos) else {
        return Ok(None);
    };
    let AddressBase::Symbol(sym) = &addr.base else {
        return Ok(None);
    };
    let Some(param) = names.iter().position(|n| n == sym) else {
        return Ok(None);
    };
    let Some(ty) = info.types.iter().last() else {
        return Err(format!("`{}` has no type", inst.opcode.text()));
    };
    let bits = ty.bits();
    if !matches!(bits, 16 | 32 | 64) {
        return Err(format!(
            "`{sym}` is accessed as {bits}-bit elements (`{}`)",
            inst.opcode.text()
        ));
    }
    let values: Vec<Operand> = match inst.operands.get(value_pos) {
        Some(Operand::Vector(items)) => items.clone(),
        Some(op) => vec![op.clone()],
        None => return Err(format!("`{}` has no value", inst.opcode.text())),
    };
    if values.len() != usize::from(info.vec.max(1)) || inst.operands.len() != 2 {
        return Err(format!("`{}` has an unexpected form", inst.opcode.text()));
    }
    let mut elems = Vec::new();
    for (k, v) in values.into_iter().enumerate() {
        let value = match &v {
            Operand::Reg {
                reg,
                component: None,
            } if f.regs[*reg].class.bits() == bits && f.regs[*reg].vector.is_none() => Some(v),
            Operand::Imm(_) if !load => Some(v),
            Operand::Sink if load => None,
            _ => {
                return Err(format!(
                    "`{}` moves a value of another width than its {bits}-bit type",
                    inst.opcode.text()
                ))
            }
        };
        elems.push(Elem {
            param,
            offset: addr.offset + k as i64 * i64::from(bits / 8),
            bits,
            ty: ty.name().to_string(),
            reg_ty: match &value {
                Some(Operand::Reg { reg, .. }) => Some(f.regs[*reg].ty.to_string()),
                _ => None,
            },
            value,
        });
    }
    Ok(Some(elems))
}

/// Whether `op` names one of `names` (as a symbol or an address base).
fn mentions(op: &Operand, names: &FxHashSet<&str>) -> bool {
    match op {
        Operand::Symbol { name, .. } => names.contains(name.as_str()),
        Operand::Address(a) => {
            matches!(&a.base, AddressBase::Symbol(s) if names.contains(s.as_str()))
        }
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter().any(|o| mentions(o, names))
        }
        Operand::PredPair(a, b) => mentions(a, names) || mentions(b, names),
        _ => false,
    }
}

fn plan(
    f: &Function,
    call: InstId,
    ctx: &dyn PassContext,
    threshold: i64,
    caller_size: usize,
    optimized: bool,
) -> Result<Plan, Refusal> {
    let inst = &f.insts[call];
    let (rets, name, args) = call_parts(inst).map_err(|w| ("?".to_string(), w.to_string()))?;
    let refuse = |why: String| (name.clone(), why);
    if inst.guard.is_some() {
        return Err(refuse("the call is guarded".into()));
    }
    if name == f.name() {
        return Err(refuse("recursive call".into()));
    }
    let Some(callee) = ctx.callee(&name) else {
        return Err(refuse(
            "not defined in this module (a call through the ABI, which ptxas links)".into(),
        ));
    };
    if callee.sig.kind != FunctionKind::Func {
        return Err(refuse("the callee is not a `.func`".into()));
    }
    if optimized {
        return Err(refuse(
            "the caller is optimized cicc output (it branches, never to the next block), \
             whose inliner already declined this call (`__noinline__` or a cold path; PTX does not carry why)"
                .into(),
        ));
    }
    // The callee itself.
    let params: Vec<String> = callee.sig.params.iter().map(|p| p.name.clone()).collect();
    let ret_names: Vec<String> = callee
        .sig
        .ret_params
        .iter()
        .flatten()
        .map(|p| p.name.clone())
        .collect();
    if callee
        .sig
        .params
        .iter()
        .chain(callee.sig.ret_params.iter().flatten())
        .any(|p| p.space != ".param")
    {
        return Err(refuse("the callee has `.reg` parameters".into()));
    }
    if params.len() != args.len() || ret_names.len() != rets.len() {
        return Err(refuse(
            "the call's argument count differs from the callee's".into(),
        ));
    }
    for local in &callee.locals {
        match local {
            LocalDecl::Var(v) if v.space == ".local" || v.space == ".param" => {}
            LocalDecl::Var(v) => {
                return Err(refuse(format!(
                    "the callee declares `{}` storage in its body (one variable per function)",
                    v.space
                )))
            }
            LocalDecl::BranchTargets { .. } => {
                return Err(refuse("the callee has a `brx.idx` jump table".into()))
            }
            LocalDecl::CallPrototype { .. } | LocalDecl::CallTargets { .. } => {}
        }
    }
    let param_set: FxHashSet<&str> = params
        .iter()
        .chain(ret_names.iter())
        .map(String::as_str)
        .collect();
    let mut param_loads = FxHashMap::default();
    let mut ret_stores = FxHashMap::default();
    let mut callee_insts = 0usize;
    for (ci, cinst) in callee.insts_in_order() {
        callee_insts += 1;
        if cinst.opcode.info.family == FamilyId::Call {
            if let Ok((_, n, _)) = call_parts(cinst) {
                if n == callee.name() {
                    return Err(refuse("the callee calls itself".into()));
                }
            }
        }
        if cinst.opcode.info.family == FamilyId::BrxIdx {
            return Err(refuse("the callee has a `brx.idx` jump table".into()));
        }
        if cinst.operands.iter().any(|o| matches!(o, Operand::Expr(_))) {
            return Err(refuse("the callee has constant expressions".into()));
        }
        if let Some(elems) = param_access(&callee, cinst, &params, true).map_err(&refuse)? {
            param_loads.insert(ci, elems);
            continue;
        }
        if let Some(elems) = param_access(&callee, cinst, &ret_names, false).map_err(&refuse)? {
            ret_stores.insert(ci, elems);
            continue;
        }
        if cinst.operands.iter().any(|o| mentions(o, &param_set)) {
            return Err(refuse(format!(
                "the callee uses a parameter other than by `ld.param`/`st.param` (`{}`)",
                cinst.opcode.text()
            )));
        }
    }
    let cost =
        INSTR_COST * callee_insts as i64 - INSTR_COST * (args.len() as i64 + 1) - CALL_PENALTY;
    if cost > threshold {
        return Err(refuse(format!(
            "cost {cost} ({callee_insts} instructions) over threshold {threshold} (inline-threshold x {NVPTX_MULTIPLIER})"
        )));
    }
    if caller_size + callee_insts > MAX_CALLER_INSTS {
        return Err(refuse(format!(
            "the caller would grow beyond {MAX_CALLER_INSTS} instructions"
        )));
    }
    // The call site.
    let arg_names: Vec<String> = args
        .iter()
        .map(|a| symbol_name(a).map(str::to_string))
        .collect::<Option<_>>()
        .ok_or_else(|| refuse("an argument is not a `.param` variable".into()))?;
    let ret_syms: Vec<String> = rets
        .iter()
        .map(|a| symbol_name(a).map(str::to_string))
        .collect::<Option<_>>()
        .ok_or_else(|| refuse("a result is not a `.param` variable".into()))?;
    let (block, pos) = f
        .inst_position(call)
        .ok_or_else(|| refuse("the call is not placed".into()))?;
    let insts = &f.blocks[block].insts;
    let mut arg_stores = Vec::new();
    for &i in insts[..pos].iter().rev() {
        let prev = &f.insts[i];
        if prev.opcode.info.family == FamilyId::Call {
            break;
        }
        if let Some(elems) = param_access(f, prev, &arg_names, false).map_err(&refuse)? {
            if prev.guard.is_some() {
                return Err(refuse("an argument store is guarded".into()));
            }
            arg_stores.push((i, elems));
        }
    }
    arg_stores.reverse();
    let mut ret_loads = Vec::new();
    for &i in &insts[pos + 1..] {
        let next = &f.insts[i];
        if next.opcode.info.family == FamilyId::Call {
            break;
        }
        if let Some(elems) = param_access(f, next, &ret_syms, true).map_err(&refuse)? {
            if next.guard.is_some() {
                return Err(refuse("a result load is guarded".into()));
            }
            ret_loads.push((i, elems));
        }
    }
    // Nothing else may touch the argument and result variables.
    let site_set: FxHashSet<&str> = arg_names
        .iter()
        .chain(ret_syms.iter())
        .map(String::as_str)
        .collect();
    let expected = arg_stores.len() + ret_loads.len() + 1;
    let touching = f
        .insts_in_order()
        .filter(|(_, i)| i.operands.iter().any(|o| mentions(o, &site_set)))
        .count();
    if touching != expected {
        return Err(refuse(
            "the argument or result variables are used away from the call".into(),
        ));
    }
    // Every element read on one side is written on the other.
    let stored: FxHashSet<(usize, i64, u32)> = arg_stores
        .iter()
        .flat_map(|(_, es)| es.iter().map(|e| (e.param, e.offset, e.bits)))
        .collect();
    for e in param_loads.values().flatten() {
        if !stored.contains(&(e.param, e.offset, e.bits)) {
            return Err(refuse(format!(
                "the callee reads `{}+{}` as {} bits, which the call site does not store so",
                params[e.param], e.offset, e.bits
            )));
        }
    }
    let returned: FxHashSet<(usize, i64, u32)> = ret_stores
        .values()
        .flatten()
        .map(|e| (e.param, e.offset, e.bits))
        .collect();
    for e in ret_loads.iter().flat_map(|(_, es)| es) {
        if !returned.contains(&(e.param, e.offset, e.bits)) {
            return Err(refuse(format!(
                "the caller reads result `{}+{}` as {} bits, which the callee does not store so",
                ret_syms[e.param], e.offset, e.bits
            )));
        }
    }
    Ok(Plan {
        call,
        callee,
        callee_insts,
        cost,
        arg_stores,
        ret_loads,
        param_loads,
        ret_stores,
    })
}

/// `mov.T dst, src` in place of `like` (its locations and range).
fn mov(ty: &str, dst: Operand, src: Operand, like: &Inst) -> Inst {
    Inst {
        guard: like.guard,
        opcode: Opcode::new("mov", vec![ty.to_string()]),
        operands: vec![dst, src],
        locs: like.locs.clone(),
        range: like.range,
    }
}

fn reg_op(reg: RegId) -> Operand {
    Operand::Reg {
        reg,
        component: None,
    }
}

fn type_of(inst: &Inst) -> String {
    inst.opcode
        .info
        .types
        .iter()
        .last()
        .map(|t| t.name().to_string())
        .unwrap_or_else(|| ".b32".to_string())
}

/// Renames symbols (variables and address bases) with `map`.
fn rename_symbols(op: &mut Operand, map: &FxHashMap<String, String>) {
    match op {
        Operand::Symbol { name, .. } => {
            if let Some(n) = map.get(name) {
                *name = n.clone();
            }
        }
        Operand::Address(a) => {
            if let AddressBase::Symbol(s) = &mut a.base {
                if let Some(n) = map.get(s) {
                    *s = n.clone();
                }
            }
        }
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter_mut().for_each(|o| rename_symbols(o, map))
        }
        Operand::PredPair(a, b) => {
            rename_symbols(a, map);
            rename_symbols(b, map);
        }
        _ => {}
    }
}

/// Replaces `old` (placed) with the instructions `new`, in order; each gets
/// `origin`.
fn replace_with(f: &mut Function, old: InstId, new: Vec<Inst>, origin: Option<InstId>) {
    let mut anchor = old;
    for (k, inst) in new.into_iter().enumerate() {
        if k == 0 {
            f.insts[old] = inst;
            f.set_origin(old, origin);
        } else {
            let id = f.add_inst(inst, origin);
            f.insert_after(anchor, id);
            anchor = id;
        }
    }
}

fn apply(f: &mut Function, plan: Plan) {
    let Plan {
        call,
        callee,
        arg_stores,
        ret_loads,
        param_loads,
        ret_stores,
        ..
    } = plan;
    let call_origin = f.origin(call);
    let call_inst = f.insts[call].clone();
    // Argument registers, typed so that copy propagation can see through
    // them (see `slot_types`).
    let arg_types = slot_types(
        arg_stores.iter().flat_map(|(_, es)| es),
        param_loads.values().flatten(),
    );
    let mut arg_slots: FxHashMap<(usize, i64, u32), RegId> = FxHashMap::default();
    for (key, ty) in &arg_types {
        arg_slots.insert(*key, f.new_reg(ty, None));
    }
    for (store, elems) in &arg_stores {
        let like = f.insts[*store].clone();
        let ty = type_of(&like);
        let origin = f.origin(*store);
        let mut movs = Vec::new();
        for e in elems {
            let slot = arg_slots[&(e.param, e.offset, e.bits)];
            let value = e.value.clone().expect("stores have values");
            movs.push(mov(&ty, reg_op(slot), value, &like));
        }
        replace_with(f, *store, movs, origin);
    }
    // Result registers.
    let ret_types = slot_types(
        ret_stores.values().flatten(),
        ret_loads.iter().flat_map(|(_, es)| es),
    );
    let mut ret_slots: FxHashMap<(usize, i64, u32), RegId> = FxHashMap::default();
    for (key, ty) in &ret_types {
        ret_slots.insert(*key, f.new_reg(ty, None));
    }
    // The code after the call.
    let cont = f.split_block(call).expect("the call is placed");
    f.remove_inst(call);
    for (load, elems) in &ret_loads {
        let like = f.insts[*load].clone();
        let ty = type_of(&like);
        let origin = f.origin(*load);
        let movs: Vec<Inst> = elems
            .iter()
            .filter_map(|e| {
                let value = e.value.clone()?;
                Some(mov(
                    &ty,
                    value,
                    reg_op(ret_slots[&(e.param, e.offset, e.bits)]),
                    &like,
                ))
            })
            .collect();
        if movs.is_empty() {
            f.remove_inst(*load);
        } else {
            replace_with(f, *load, movs, origin);
        }
    }
    // The call's `.param` variables are used by nothing else now.
    let site: FxHashSet<String> = call_symbols(&call_inst).into_iter().collect();
    f.locals.retain_mut(|l| match l {
        LocalDecl::Var(v) if v.space == ".param" => {
            v.vars.retain(|var| !site.contains(&var.name));
            !v.vars.is_empty()
        }
        _ => true,
    });
    // Local declarations under fresh names.
    let mut taken: FxHashSet<String> = f
        .locals
        .iter()
        .flat_map(|l| l.names().into_iter().map(str::to_string))
        .chain(f.sig.params.iter().map(|p| p.name.clone()))
        .chain(f.sig.ret_params.iter().flatten().map(|p| p.name.clone()))
        .collect();
    let mut renames: FxHashMap<String, String> = FxHashMap::default();
    let fresh = |name: &str, taken: &mut FxHashSet<String>| {
        let mut k = 0;
        loop {
            let candidate = format!("{name}_inl{k}");
            if !taken.contains(&candidate) {
                taken.insert(candidate.clone());
                return candidate;
            }
            k += 1;
        }
    };
    for local in &callee.locals {
        for n in local.names() {
            let new = fresh(n, &mut taken);
            renames.insert(n.to_string(), new);
        }
    }
    for local in &callee.locals {
        let mut copy = local.clone();
        match &mut copy {
            LocalDecl::Var(v) => v
                .vars
                .iter_mut()
                .for_each(|var| var.name = renames[&var.name].clone()),
            LocalDecl::CallPrototype { name, .. } | LocalDecl::CallTargets { name, .. } => {
                *name = renames[name.as_str()].clone()
            }
            LocalDecl::BranchTargets { .. } => unreachable!("refused by plan"),
        }
        f.locals.push(copy);
    }
    // The callee's blocks, between the code before the call and `cont`.
    let mut block_map: FxHashMap<BlockId, BlockId> = FxHashMap::default();
    let at = f.layout_position(cont).expect("cont is placed");
    for (k, &cb) in callee.layout.iter().enumerate() {
        let src = &callee.blocks[cb];
        let nb = f.blocks.alloc(Block {
            label: None,
            insts: Vec::new(),
            pragmas: src.pragmas.clone(),
            pragma_alone: src.pragma_alone,
            annotations: src.annotations.clone(),
            rpo_index: None,
            loop_depth: None,
        });
        f.layout.insert(at + k, nb);
        block_map.insert(cb, nb);
    }
    let mut reg_map: FxHashMap<RegId, RegId> = FxHashMap::default();
    for &cb in &callee.layout {
        let nb = block_map[&cb];
        for &ci in &callee.blocks[cb].insts {
            let mut inst = callee.insts[ci].clone();
            inst.range = call_inst.range;
            let guard = inst.guard.map(|mut g| {
                g.reg = map_reg(f, &callee, &mut reg_map, g.reg);
                g
            });
            let made: Vec<Inst> = if let Some(elems) = param_loads.get(&ci) {
                let ty = type_of(&inst);
                let mut out = Vec::new();
                for e in elems {
                    let Some(Operand::Reg { reg, .. }) = &e.value else {
                        continue;
                    };
                    let dst = map_reg(f, &callee, &mut reg_map, *reg);
                    let slot = arg_slots[&(e.param, e.offset, e.bits)];
                    let mut m = mov(&ty, reg_op(dst), reg_op(slot), &inst);
                    m.guard = guard;
                    out.push(m);
                }
                out
            } else if let Some(elems) = ret_stores.get(&ci) {
                let ty = type_of(&inst);
                let mut out = Vec::new();
                for e in elems {
                    let mut value = e.value.clone().expect("stores have values");
                    value.map_regs(&mut |r| map_reg(f, &callee, &mut reg_map, r));
                    let slot = ret_slots[&(e.param, e.offset, e.bits)];
                    let mut m = mov(&ty, reg_op(slot), value, &inst);
                    m.guard = guard;
                    out.push(m);
                }
                out
            } else if inst.opcode.info.family == FamilyId::Ret {
                vec![Inst {
                    guard,
                    opcode: Opcode::new("bra", Vec::new()),
                    operands: vec![Operand::Label(cont)],
                    locs: inst.locs.clone(),
                    range: inst.range,
                }]
            } else {
                inst.map_regs(|_, r| map_reg(f, &callee, &mut reg_map, r));
                inst.map_labels(|b| block_map.get(&b).copied().unwrap_or(b));
                for op in &mut inst.operands {
                    rename_symbols(op, &renames);
                }
                vec![inst]
            };
            for inst in made {
                let id = f.add_inst(inst, call_origin);
                f.blocks[nb].insts.push(id);
            }
        }
    }
}

/// The caller's register for callee register `r` (fresh on first sight).
fn map_reg(
    f: &mut Function,
    callee: &Function,
    reg_map: &mut FxHashMap<RegId, RegId>,
    r: RegId,
) -> RegId {
    *reg_map.entry(r).or_insert_with(|| {
        let reg = &callee.regs[r];
        f.new_reg(&reg.ty, reg.vector)
    })
}

/// The argument and result variables a call names.
fn call_symbols(call: &Inst) -> Vec<String> {
    match call_parts(call) {
        Ok((rets, _, args)) => rets
            .iter()
            .chain(args.iter())
            .filter_map(|o| symbol_name(o).map(str::to_string))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The type of the register that carries each (parameter, offset, width)
/// element from its stores to its loads. The register's declared type must
/// be one the moves accept on both sides: `mov.T slot, v` in place of
/// `st.param.T`, `mov.T2 d, slot` in place of `ld.param.T2`. The type of
/// the stored registers when every store has the same one and the same
/// instruction type, and every load has that instruction type or a bit
/// type (then copy propagation sees one type from the caller's value to the
/// callee's register); otherwise `.bN`, which every move of that width
/// accepts.
fn slot_types<'a>(
    stores: impl Iterator<Item = &'a Elem>,
    loads: impl Iterator<Item = &'a Elem>,
) -> Vec<((usize, i64, u32), String)> {
    // Per element: the stores' instruction type, the stored registers'
    // type, and whether all stores and loads agree with them.
    type Agreement = (Option<String>, Option<String>, bool);
    let mut by_key: FxHashMap<(usize, i64, u32), Agreement> = FxHashMap::default();
    for e in stores {
        let entry = by_key
            .entry((e.param, e.offset, e.bits))
            .or_insert_with(|| (Some(e.ty.clone()), e.reg_ty.clone(), true));
        let same_ty = entry.0.as_deref() == Some(e.ty.as_str());
        let same_reg = entry.1 == e.reg_ty || (entry.1.is_some() && e.reg_ty.is_none());
        entry.2 &= same_ty && same_reg;
    }
    for e in loads {
        if let Some(entry) = by_key.get_mut(&(e.param, e.offset, e.bits)) {
            let bit_type = e.ty.starts_with(".b");
            entry.2 &= entry.0.as_deref() == Some(e.ty.as_str()) || bit_type;
        }
    }
    let mut out: Vec<_> = by_key
        .into_iter()
        .map(|(key, (ty, reg_ty, uniform))| {
            let chosen = match (uniform, reg_ty, ty) {
                (true, Some(r), _) => r,
                (true, None, Some(t)) => t,
                _ => format!(".b{}", key.2),
            };
            (key, chosen)
        })
        .collect();
    out.sort();
    out
}
