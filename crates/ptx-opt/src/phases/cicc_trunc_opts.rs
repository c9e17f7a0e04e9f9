//! cicc `nvptx-trunc-opts` (NVPTXTruncOpts, "Optimize redundant ANDb16ri
//! instructions"): a mask with `0xFFFF` of a value that already fits in 16
//! bits is a copy.
//!
//! Seed `002_164789385e2e817e.txt`, "NVPTXTruncOpts (sub_22058E0)": the
//! `and.b16 x, 0xFFFF` emitted for `trunc i32 to i16` is removed when the
//! source provably fits in 16 bits. No knob.
//!
//! In PTX:
//!
//! - `and.b16 %d, %s, 0xFFFF` (any 16-bit `and` with all ones): a 16-bit
//!   register always fits, so it is `mov.b16 %d, %s`;
//! - `and.b32 %d, %s, 0xFFFF` (also `.b64` with `0xFFFF`) where `%s`'s one
//!   definition dominates it and zero-extends at most 16 bits: `cvt.u32.u16`,
//!   `cvt.u32.u8` (and the 64-bit forms), `ld` of `.u8`/`.u16`, an `and` with
//!   a mask of at most 16 bits, `shr.u32` by 16 or more (`shr.u64` by 48 or
//!   more): `mov %d, %s`.
//!
//! The copies are for copy propagation and dead-code elimination.

use std::sync::Arc;

use ptx_ir::ir::{Function, ImmValue, Inst, Opcode, Operand};
use ptx_isa::{FamilyId, Ty};

use super::known::plain_reg;
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

fn imm(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(i) => match i.value {
            ImmValue::Int(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `def` leaves at most the low 16 bits of its destination set.
fn fits_16(def: &Inst) -> bool {
    let info = &def.opcode.info;
    if def.guard.is_some() {
        return false;
    }
    match info.family {
        FamilyId::Cvt => {
            let src = info.types.last();
            info.types.len() == 2
                && matches!(src, Some(Ty::U16 | Ty::U8))
                && matches!(
                    info.types.first(),
                    Some(Ty::U32 | Ty::U64 | Ty::B32 | Ty::B64)
                )
        }
        FamilyId::Ld => matches!(info.ty(), Some(Ty::U8 | Ty::U16)),
        FamilyId::And => {
            def.operands.len() == 3
                && imm(&def.operands[2]).is_some_and(|m| (0..=0xFFFF).contains(&m))
        }
        FamilyId::Shr => {
            let shift = def.operands.get(2).and_then(imm);
            match info.ty() {
                Some(Ty::U32 | Ty::B32) => shift.is_some_and(|s| (16..32).contains(&s)),
                Some(Ty::U64 | Ty::B64) => shift.is_some_and(|s| (48..64).contains(&s)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Runs trunc-opts on one function.
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let facts = super::version_cache::facts(input);
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    let placed: Vec<_> = f.insts_in_order().map(|(i, _)| i).collect();
    let mut done = 0u64;
    for i in placed {
        let inst = &f.insts[i];
        let info = &inst.opcode.info;
        if info.family != FamilyId::And || inst.operands.len() != 3 {
            continue;
        }
        let Some(ty) = info.ty() else { continue };
        let (Some(d), Some(s)) = (plain_reg(&inst.operands[0]), plain_reg(&inst.operands[1]))
        else {
            continue;
        };
        let Some(mask) = imm(&inst.operands[2]) else {
            continue;
        };
        let redundant = match ty.bits() {
            16 => mask & 0xFFFF == 0xFFFF,
            32 | 64 => {
                mask == 0xFFFF
                    && facts
                        .single_writer(s)
                        .is_some_and(|w| facts.dominates(w, i) && fits_16(&f.insts[w]))
            }
            _ => false,
        };
        if !redundant || f.regs[d].class != f.regs[s].class {
            continue;
        }
        let text = inst.opcode.text();
        let mov_ty = format!(".b{}", ty.bits());
        let inst = &mut f.insts[i];
        inst.opcode = Opcode::new("mov", vec![mov_ty]);
        inst.operands.truncate(2);
        done += 1;
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "trunc",
            origin: origin(&f, i),
            message: format!("`{text}` with 0xFFFF of a value that fits in 16 bits is a copy"),
        });
    }
    if done == 0 {
        return PhaseOutput::unchanged(input);
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "masks removed",
            value: done,
        }],
    }
}
