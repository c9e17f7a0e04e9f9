//! Address folding, the `CopyPropAddr` part of OriCopyProp ("Propagate
//! through address computations", seed `001_3e9d45dd172cfaf4.txt`, the
//! knob table of "Forward Copy Propagation -- OriCopyProp"), run in every
//! GeneralOptimize bundle after constant folding.
//!
//! A memory operand `[%x+c1]` whose register's reaching definition is
//! `add.{s64,u64,b64} %x, %b, c2` (an immediate `c2`, either order) reads
//! `[%b+c1+c2]` instead, when `%b` holds at the access what it held at the
//! `add` ([`Facts::unchanged_between`]) and the offset fits in 32 signed
//! bits. The `add` is left for phase 16 to remove once nothing reads it.
//!
//! Why: after an unroll and constant folding, each copy addresses its
//! element as `add.s64 %x_k, %rd1, 4k; ld [%x_k]`. cicc's instruction
//! selection writes `ld [%rd1+4k]` (its `ADDRri` address form), and ptxas
//! encodes the same in SASS (`LDG.E R0, [R2.64+0x4]`). Left as registers,
//! the commoning phases merge the same `%rd1+4k` of two unrolled loops into
//! one register live from the first loop to the last (16 address pairs
//! across `softmax_rows`: the register estimate said 56 where ptxas, which
//! rematerializes them, uses 31).
//!
//! The knob's seed default is not stated; it is on here, as ptxas's and
//! cicc's output show the folded form. 64-bit registers only: a 32-bit
//! address register (`.shared` with 32-bit addresses) wraps at 32 bits in
//! the `add` and the address may not.

use std::sync::Arc;

use ptx_ir::ir::{Address, AddressBase, Function, Imm, ImmValue, InstId, Operand, RegClass};
use ptx_isa::FamilyId;

use crate::origin::origin;
use crate::phases::known::{plain_reg, Facts};
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// The register and immediate of `add.{s,u,b}64 %x, %b, c` (or `c, %b`).
fn base_plus_imm(func: &Function, w: InstId) -> Option<(ptx_ir::ir::RegId, i128)> {
    let inst = &func.insts[w];
    let info = &inst.opcode.info;
    if inst.guard.is_some()
        || info.family != FamilyId::Add
        || info.sat
        || info
            .flags
            .intersects(ptx_isa::OpFlags::CARRY_IN.union(ptx_isa::OpFlags::CARRY_OUT))
        || !info.ty().is_some_and(|t| t.bits() == 64 && t.is_int())
        || inst.operands.len() != 3
    {
        return None;
    }
    let imm = |op: &Operand| match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(v),
            ..
        }) => Some(*v),
        _ => None,
    };
    let (a, b) = (&inst.operands[1], &inst.operands[2]);
    match (plain_reg(a), imm(b), plain_reg(b), imm(a)) {
        (Some(r), Some(c), _, _) | (_, _, Some(r), Some(c)) => Some((r, c)),
        _ => None,
    }
}

/// Runs the folding on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    // Most functions (and most rounds after the first) have no address
    // whose register an `add` of an immediate writes: one scan before any
    // analysis.
    let mut from_add = vec![false; input.regs.len()];
    let mut any_add = false;
    for (i, inst) in input.insts_in_order() {
        if base_plus_imm(input, i).is_some() {
            if let Some(Operand::Reg { reg, .. }) = inst.operands.first() {
                if let Some(f) = from_add.get_mut(reg.into_raw().into_u32() as usize) {
                    *f = true;
                    any_add = true;
                }
            }
        }
    }
    if !any_add {
        return PhaseOutput::unchanged(input);
    }
    let candidate = input.insts_in_order().any(|(_, inst)| {
        inst.operands.iter().any(|op| {
            matches!(op, Operand::Address(Address { base: AddressBase::Reg(r), .. })
                if from_add.get(r.into_raw().into_u32() as usize).copied().unwrap_or(false))
        })
    });
    if !candidate {
        return PhaseOutput::unchanged(input);
    }
    let facts: std::rc::Rc<Facts> = crate::phases::version_cache::facts(input);
    let mut edits: Vec<(InstId, usize, ptx_ir::ir::RegId, i64)> = Vec::new();
    for (i, inst) in input.insts_in_order() {
        for (k, op) in inst.operands.iter().enumerate() {
            let Operand::Address(Address {
                base: AddressBase::Reg(x),
                offset,
            }) = op
            else {
                continue;
            };
            if input.regs[*x].class != RegClass::R64 {
                continue;
            }
            let Some(w) = facts.reaching_writer(*x, i) else {
                continue;
            };
            let Some((b, c)) = base_plus_imm(input, w) else {
                continue;
            };
            if b == *x || input.regs[b].class != RegClass::R64 {
                continue;
            }
            if !facts.unchanged_between(input, b, w, i) {
                continue;
            }
            let sum = *offset as i128 + c;
            if sum < i32::MIN as i128 || sum > i32::MAX as i128 {
                continue;
            }
            edits.push((i, k, b, sum as i64));
        }
    }
    if edits.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for &(i, k, b, offset) in &edits {
        let before = super::const_fold::inst_text(input, &input.insts[i]);
        f.insts[i].operands[k] = Operand::Address(Address {
            base: AddressBase::Reg(b),
            offset,
        });
        let after = super::const_fold::inst_text(&f, &f.insts[i]);
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "address-fold",
            origin: origin(input, i),
            message: format!("folded the address of `{before}`: `{after}`"),
        });
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "addresses folded",
            value: edits.len() as u64,
        }],
    }
}
