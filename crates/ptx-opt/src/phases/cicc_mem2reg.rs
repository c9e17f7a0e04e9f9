//! cicc `nvptx-mem2reg` (NVPTXMem2Reg): `.local` arrays accessed only at
//! constant offsets become registers.
//!
//! Seed `002_164789385e2e817e.txt`, "NVPTXMem2Reg (sub_21F9920) --
//! Machine-Level Mem2Reg": per frame slot, the loads and stores of the slot
//! are collected, and when the access pattern is simple (no aliasing
//! stores) the loads read a register instead and the slot goes away. Knob:
//! `nv-disable-mem2reg` (default false).
//!
//! # What PTX gives, and what is promoted
//!
//! A `.local` variable of the function (`__local_depot0`, or any other
//! `.local` array without an initializer and with known dimensions) whose
//! address is used only
//!
//! - by `mov.u64 %r, V` / `mov.u32 %r, V` (a local address),
//! - by `cvta.local.u64 %g, X` of such an address or of `V` (a generic
//!   address),
//! - by `add` of such an address and an integer immediate (an address at a
//!   constant offset),
//! - as the base of `ld`/`st` in the matching space (`.local` for local
//!   addresses, generic for generic ones), at a constant offset,
//!
//! where every register holding an address has that one definition, cannot
//! be reached by any other pointer: its address never escapes. Then the
//! array is a set of slots, one per distinct (offset, width) accessed; when
//! no two accessed ranges overlap without being equal (a 64-bit store read
//! back as two 32-bit halves is left alone), each slot becomes a fresh
//! register: a store is `mov.bW slot, value`, a load `mov.bW dst, slot`
//! (vector accesses give one `mov` per element), under the access's guard.
//! The address computations and the declaration are removed. Copy
//! propagation and dead-code elimination (the GeneralOptimize bundles and
//! phase 16) then remove the copies. Nothing about dominance is needed: a
//! thread's local memory is private, so a slot holds exactly what a
//! register assigned at the same points holds (a slot read before any
//! write reads an undefined register, as the memory was undefined).
//!
//! Left alone (missed remark with the reason): an address that escapes
//! (stored, passed to a call, compared, added to a register), accesses at
//! overlapping offsets of different widths, widths other than 32 and 64
//! bits (8- and 16-bit accesses extend into wider registers), registers of
//! another width than the access, volatile accesses, and arrays of unknown
//! size or with an initializer.

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{AddressBase, Function, Inst, InstId, LocalDecl, Opcode, Operand, RegId};
use ptx_isa::{FamilyId, Space};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::{knobs, PassContext, PhaseId};

/// An address register: local or generic, at an offset into the variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Base {
    generic: bool,
    offset: i64,
}

/// One element access.
struct Elem {
    inst: InstId,
    /// Index in the vector (0 for a scalar access).
    index: usize,
    offset: i64,
    bytes: i64,
    store: bool,
}

/// Runs the pass on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    if ctx.bool(knobs::nv_disable_mem2reg) {
        return PhaseOutput::unchanged(input);
    }
    let mut vars: Vec<(String, i64)> = Vec::new();
    for decl in &input.locals {
        let LocalDecl::Var(v) = decl else { continue };
        if v.space != ".local" {
            continue;
        }
        let Some(elem) = ptx_isa::Ty::parse(&v.ty).map(|t| t.bytes() as i64) else {
            continue;
        };
        let elem = elem * v.vector.unwrap_or(1) as i64;
        for var in &v.vars {
            if var.init.is_some() {
                continue;
            }
            let mut size = elem;
            let mut known = true;
            for d in &var.dims {
                match d {
                    Some(n) => size = size.saturating_mul(*n as i64),
                    None => known = false,
                }
            }
            if known && size > 0 {
                vars.push((var.name.clone(), size));
            }
        }
    }
    if vars.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    let mut promoted = 0u64;
    let mut slots_made = 0u64;
    let mut accesses = 0u64;
    for (name, size) in vars {
        match promote(&mut f, &name, size) {
            Ok((slots, n)) => {
                promoted += 1;
                slots_made += slots;
                accesses += n;
                remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "mem2reg",
                    origin: None,
                    message: format!(
                        "`.local` {name} ({size} bytes): {n} loads and stores now use {slots} registers"
                    ),
                });
            }
            Err((at, why)) => remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Missed,
                name: "mem2reg",
                origin: at.and_then(|i| origin(&f, i)),
                message: format!("`.local` {name} stays in memory: {why}"),
            }),
        }
    }
    if promoted == 0 {
        let mut out = PhaseOutput::unchanged(input);
        out.remarks = remarks;
        return out;
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![
            Stat {
                name: "local arrays promoted",
                value: promoted,
            },
            Stat {
                name: "slot registers",
                value: slots_made,
            },
            Stat {
                name: "loads and stores replaced",
                value: accesses,
            },
        ],
    }
}

type Fail = (Option<InstId>, String);

fn plain(op: &Operand) -> Option<RegId> {
    match op {
        Operand::Reg {
            reg,
            component: None,
        } => Some(*reg),
        _ => None,
    }
}

fn mentions_symbol(op: &Operand, name: &str) -> bool {
    match op {
        Operand::Symbol { name: n, .. } => n == name,
        Operand::Address(a) => matches!(&a.base, AddressBase::Symbol(s) if s == name),
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter().any(|o| mentions_symbol(o, name))
        }
        Operand::PredPair(a, b) => mentions_symbol(a, name) || mentions_symbol(b, name),
        Operand::Expr(e) => e.contains(name),
        _ => false,
    }
}

/// What instruction `i` is for the variable: a base definition (`Some`),
/// given the bases known so far.
fn base_def(inst: &Inst, name: &str, bases: &FxHashMap<RegId, Base>) -> Option<(RegId, Base)> {
    let info = &inst.opcode.info;
    if inst.guard.is_some() || inst.operands.len() < 2 {
        return None;
    }
    let d = plain(&inst.operands[0])?;
    let src = &inst.operands[1];
    let from = |op: &Operand| -> Option<Base> {
        match op {
            Operand::Symbol { name: n, offset } if n == name => Some(Base {
                generic: false,
                offset: *offset,
            }),
            op => plain(op).and_then(|r| bases.get(&r).copied()),
        }
    };
    match info.family {
        FamilyId::Mov if inst.operands.len() == 2 => {
            let b = from(src)?;
            Some((d, b))
        }
        FamilyId::Cvta if info.space == Some(Space::Local) && inst.operands.len() == 2 => {
            let b = from(src)?;
            if b.generic || inst.opcode.has_modifier(".to") {
                return None;
            }
            Some((d, Base { generic: true, ..b }))
        }
        FamilyId::Add
            if inst.operands.len() == 3
                && info.ty().is_some_and(|t| t.is_int() || t.bits() == 64) =>
        {
            let b = from(src)?;
            let Operand::Imm(imm) = &inst.operands[2] else {
                return None;
            };
            let ptx_ir::ir::ImmValue::Int(v) = imm.value else {
                return None;
            };
            Some((
                d,
                Base {
                    offset: b.offset.checked_add(i64::try_from(v).ok()?)?,
                    ..b
                },
            ))
        }
        _ => None,
    }
}

/// Promotes variable `name` of `size` bytes: (slots, accesses), or why not.
fn promote(f: &mut Function, name: &str, size: i64) -> Result<(u64, u64), Fail> {
    let placed: Vec<InstId> = f.insts_in_order().map(|(i, _)| i).collect();
    // Base registers, to a fixed point (a definition may follow its use in
    // the layout).
    let mut bases: FxHashMap<RegId, Base> = FxHashMap::default();
    let mut defs: FxHashSet<InstId> = FxHashSet::default();
    for _ in 0..8 {
        let before = defs.len();
        for &i in &placed {
            if defs.contains(&i) {
                continue;
            }
            if let Some((d, b)) = base_def(&f.insts[i], name, &bases) {
                if bases.insert(d, b).is_some_and(|old| old != b) {
                    return Err((Some(i), format!("{} is set twice", f.regs[d].name)));
                }
                defs.insert(i);
            }
        }
        if defs.len() == before {
            break;
        }
    }
    // Every writer of a base register is a base definition.
    let mut writers: FxHashMap<RegId, u32> = FxHashMap::default();
    for &i in &placed {
        visit_defs_and_uses(&f.insts[i], |a, r| {
            if a == Access::Def && bases.contains_key(&r) {
                *writers.entry(r).or_default() += 1;
            }
        });
    }
    if let Some((&r, _)) = writers.iter().find(|(_, &n)| n != 1) {
        return Err((
            None,
            format!(
                "the address register {} has several definitions",
                f.regs[r].name
            ),
        ));
    }
    // Every other use of the variable or of a base is an access.
    let mut elems: Vec<Elem> = Vec::new();
    for &i in &placed {
        if defs.contains(&i) {
            continue;
        }
        let inst = &f.insts[i];
        let mut base_uses = 0;
        visit_defs_and_uses(inst, |a, r| {
            if a == Access::Use && bases.contains_key(&r) {
                base_uses += 1;
            }
        });
        let sym = inst.operands.iter().any(|o| mentions_symbol(o, name));
        if base_uses == 0 && !sym {
            continue;
        }
        let info = &inst.opcode.info;
        let is_ld = info.family == FamilyId::Ld;
        let is_st = info.family == FamilyId::St;
        let escape = || {
            (
                Some(i),
                format!("its address is used by `{}`", inst.opcode.text()),
            )
        };
        if !(is_ld || is_st) || inst.operands.len() != 2 {
            return Err(escape());
        }
        if info.flags.is_volatile() || !matches!(info.sem, None | Some(ptx_isa::Sem::Weak)) {
            return Err((Some(i), "a volatile or ordered access".into()));
        }
        let (addr, value) = if is_st {
            (&inst.operands[0], &inst.operands[1])
        } else {
            (&inst.operands[1], &inst.operands[0])
        };
        let Operand::Address(a) = addr else {
            return Err(escape());
        };
        let base = match &a.base {
            AddressBase::Symbol(s) if s == name => Base {
                generic: false,
                offset: 0,
            },
            AddressBase::Reg(r) => match bases.get(r) {
                Some(b) => *b,
                None => return Err(escape()),
            },
            _ => return Err(escape()),
        };
        // The address must not also be the value (stored pointer).
        let mut value_uses_base = false;
        value.for_each_reg(&mut |r| value_uses_base |= bases.contains_key(&r));
        if value_uses_base || mentions_symbol(value, name) {
            return Err(escape());
        }
        let space = info.space.unwrap_or(Space::Generic);
        let ok_space = if base.generic {
            space == Space::Generic
        } else {
            space == Space::Local
        };
        if !ok_space {
            return Err((
                Some(i),
                format!(
                    "`{}` addresses it in another state space",
                    inst.opcode.text()
                ),
            ));
        }
        let Some(ty) = info.ty() else {
            return Err(escape());
        };
        let bytes = ty.bytes() as i64;
        if bytes != 4 && bytes != 8 {
            return Err((
                Some(i),
                format!(
                    "`{}` accesses {} bits (only 32 and 64 are promoted)",
                    inst.opcode.text(),
                    bytes * 8
                ),
            ));
        }
        let items: Vec<&Operand> = match value {
            Operand::Vector(items) => items.iter().collect(),
            v => vec![v],
        };
        for (k, item) in items.iter().enumerate() {
            let width_ok = match item {
                Operand::Reg {
                    reg,
                    component: None,
                } => f.regs[*reg].vector.is_none() && f.regs[*reg].class.bits() as i64 == bytes * 8,
                Operand::Imm(_) => is_st,
                Operand::Sink => !is_st,
                _ => false,
            };
            if !width_ok {
                return Err((
                    Some(i),
                    format!("`{}` moves a value of another width", inst.opcode.text()),
                ));
            }
            let offset = base.offset + a.offset + k as i64 * bytes;
            if offset < 0 || offset + bytes > size || offset % bytes != 0 {
                return Err((
                    Some(i),
                    format!("an access at offset {offset} is outside the array or misaligned"),
                ));
            }
            elems.push(Elem {
                inst: i,
                index: k,
                offset,
                bytes,
                store: is_st,
            });
        }
    }
    if elems.is_empty() {
        return Err((None, "no load or store".into()));
    }
    // Slots: equal ranges share one; overlapping unequal ranges stop it.
    let mut ranges: Vec<(i64, i64)> = elems.iter().map(|e| (e.offset, e.bytes)).collect();
    ranges.sort();
    ranges.dedup();
    for w in ranges.windows(2) {
        if w[0].0 + w[0].1 > w[1].0 {
            return Err((
                None,
                format!(
                    "accesses overlap with different widths (bytes {}..{} and {}..{})",
                    w[0].0,
                    w[0].0 + w[0].1,
                    w[1].0,
                    w[1].0 + w[1].1
                ),
            ));
        }
    }
    // A slot that is read but never stored holds whatever the local memory
    // held (undefined in PTX): its register would be read without ever being
    // written, so such an array stays in memory.
    for e in elems.iter().filter(|e| !e.store) {
        let stored = elems
            .iter()
            .any(|s| s.store && s.offset == e.offset && s.bytes == e.bytes);
        if !stored {
            return Err((
                Some(e.inst),
                format!(
                    "bytes {}..{} are read but never stored",
                    e.offset,
                    e.offset + e.bytes
                ),
            ));
        }
    }
    // A slot whose registers all have one declared type gets that type (so
    // copy propagation, which wants equal types, removes its copies).
    let mut slot_ty: FxHashMap<(i64, i64), Option<std::sync::Arc<str>>> = FxHashMap::default();
    for e in &elems {
        let inst = &f.insts[e.inst];
        let value = if e.store {
            &inst.operands[1]
        } else {
            &inst.operands[0]
        };
        let item = match value {
            Operand::Vector(items) => items.get(e.index),
            v => Some(v),
        };
        let ty = item.and_then(plain).map(|r| f.regs[r].ty.clone());
        let entry = slot_ty
            .entry((e.offset, e.bytes))
            .or_insert_with(|| ty.clone());
        if ty.is_some() && *entry != ty {
            *entry = None;
        }
    }
    let mut slot_reg: FxHashMap<(i64, i64), RegId> = FxHashMap::default();
    for &(o, b) in &ranges {
        let default = if b == 8 { ".b64" } else { ".b32" };
        let ty = slot_ty
            .get(&(o, b))
            .cloned()
            .flatten()
            .unwrap_or_else(|| default.into());
        let r = f.new_reg(&ty, None);
        slot_reg.insert((o, b), r);
    }
    // Rewrite: each access instruction becomes one mov per element.
    let mut by_inst: FxHashMap<InstId, Vec<&Elem>> = FxHashMap::default();
    for e in &elems {
        by_inst.entry(e.inst).or_default().push(e);
    }
    let mut order: Vec<InstId> = by_inst.keys().copied().collect();
    order.sort_by_key(|i| i.into_raw().into_u32());
    let mut count = 0u64;
    for i in order {
        let list = &by_inst[&i];
        let orig = f.insts[i].clone();
        let value = if list[0].store {
            orig.operands[1].clone()
        } else {
            orig.operands[0].clone()
        };
        let items: Vec<Operand> = match value {
            Operand::Vector(items) => items,
            v => vec![v],
        };
        let mut movs: Vec<Inst> = Vec::new();
        for e in list {
            let slot = slot_reg[&(e.offset, e.bytes)];
            let item = items[e.index].clone();
            if matches!(item, Operand::Sink) {
                continue;
            }
            let slot_op = Operand::Reg {
                reg: slot,
                component: None,
            };
            let ops = if e.store {
                vec![slot_op, item]
            } else {
                vec![item, slot_op]
            };
            movs.push(Inst {
                guard: orig.guard,
                opcode: Opcode::new(
                    "mov",
                    vec![if e.bytes == 8 { ".b64" } else { ".b32" }.to_string()],
                ),
                operands: ops,
                locs: Default::default(),
                range: orig.range,
            });
            count += 1;
        }
        let Some((block, pos)) = f.inst_position(i) else {
            continue;
        };
        let org = f.origin(i);
        if movs.is_empty() {
            super::known::remove_keeping_locs(f, block, i);
            continue;
        }
        let mut rest = movs.split_off(1);
        let mut first = movs.pop().unwrap_or_else(|| orig.clone());
        first.locs = orig.locs.clone();
        f.insts[i] = first;
        for (k, m) in rest.drain(..).enumerate() {
            let id = f.add_inst(m, org);
            f.insert_at(block, pos + 1 + k, id);
        }
    }
    // The address computations and the declaration go.
    let def_list: Vec<InstId> = defs.into_iter().collect();
    for i in def_list {
        if let Some((b, _)) = f.inst_position(i) {
            super::known::remove_keeping_locs(f, b, i);
        }
    }
    for decl in &mut f.locals {
        if let LocalDecl::Var(v) = decl {
            if v.space == ".local" {
                v.vars.retain(|var| var.name != name);
            }
        }
    }
    f.locals
        .retain(|d| !matches!(d, LocalDecl::Var(v) if v.space == ".local" && v.vars.is_empty()));
    Ok((slot_reg.len() as u64, count))
}
