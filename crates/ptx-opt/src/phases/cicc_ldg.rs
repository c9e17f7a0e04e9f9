//! cicc `ldgxform` (LDG transform): global loads of a kernel that never
//! writes global memory read through the non-coherent (read-only) cache:
//! `ld.global` becomes `ld.global.nc`.
//!
//! Seed `002_164789385e2e817e.txt`, "LDG Transform (sub_21F2780)": a
//! non-volatile global load whose pointer is read-only becomes LDG; wide
//! vector loads are split. No knob.
//!
//! # What PTX lets us prove
//!
//! `ld.global.nc` is correct when the memory it reads is not written while
//! the kernel runs. cicc proves this from LLVM IR (`const __restrict__`
//! pointers, `noalias`); PTX keeps no aliasing facts (two pointer
//! parameters may point into one buffer), so the proof here is about the
//! whole kernel: it is an `.entry` (a `.func`'s callers may write) with no
//! instruction that may write global memory: no `st`, `atom`, `red`,
//! `cp.async.bulk`, surface store, ... (the ISA table's `STORE`/`ATOMIC`
//! flags) in `.global` or generic space, no `call` (the callee may write)
//! and no instruction the table does not know. Stores to `.shared`,
//! `.local` and `.param` do not matter. Then no thread of the kernel writes
//! global memory, and every weak, non-volatile `ld.global` qualifies. Like
//! cicc's `__restrict__`, this assumes the host and other grids do not
//! write the buffers while the kernel runs (the CUDA programming model
//! makes such a race undefined anyway).
//!
//! Left alone: loads with `.volatile`, memory-model semantics (`.relaxed`,
//! `.acquire`), cache operators `.lu`/`.cv`, cache hints or eviction
//! priorities (only `.ca`, `.cg`, `.cs`, a vector width and the type are
//! kept). Splitting wide vectors is not needed: PTX vector loads are at most
//! 128 bits (`.v4.b32`, `.v2.b64`) or `.v8` forms ptxas already accepts.

use std::sync::Arc;

use ptx_ir::ir::{Function, FunctionKind, Opcode};
use ptx_isa::{FamilyId, Sem, Space};

use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Runs the LDG transform on one function.
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    if input.sig.kind != FunctionKind::Entry {
        return PhaseOutput::unchanged(input);
    }
    let mut writer = None;
    let mut loads = Vec::new();
    for (i, inst) in input.insts_in_order() {
        let info = &inst.opcode.info;
        let flags = info.flags;
        if flags.is_call() {
            writer = Some(i);
            break;
        }
        if flags.stores() || flags.is_atomic() {
            let space = info.space.unwrap_or(Space::Generic);
            if matches!(space, Space::Global | Space::Generic) {
                writer = Some(i);
                break;
            }
        }
        if info.family == FamilyId::Ld
            && info.space == Some(Space::Global)
            && !flags.is_volatile()
            && matches!(info.sem, None | Some(Sem::Weak))
            && inst.opcode.modifiers.iter().all(|m| {
                matches!(
                    m.as_str(),
                    ".global" | ".weak" | ".ca" | ".cg" | ".cs" | ".v2" | ".v4" | ".v8"
                ) || ptx_isa::Ty::parse(m).is_some()
            })
        {
            loads.push(i);
        }
    }
    if let Some(w) = writer {
        if loads.is_empty() {
            return PhaseOutput::unchanged(input);
        }
        let mut out = PhaseOutput::unchanged(input);
        out.remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "ldg",
            origin: origin(input, w),
            message: format!(
                "{} global loads stay coherent: `{}` may write global memory while the kernel runs",
                loads.len(),
                input.insts[w].opcode.text()
            ),
        });
        return out;
    }
    if loads.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f: Function = (**input).clone();
    for &i in &loads {
        let inst = &mut f.insts[i];
        let mut mods: Vec<String> = Vec::with_capacity(inst.opcode.modifiers.len() + 1);
        for m in &inst.opcode.modifiers {
            if m == ".weak" {
                continue;
            }
            mods.push(m.clone());
            if m == ".global" {
                mods.push(".nc".to_string());
            }
        }
        inst.opcode = Opcode::new("ld", mods);
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks: vec![Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "ldg",
            origin: None,
            message: format!(
                "{} `ld.global` now `ld.global.nc`: the kernel writes no global memory",
                loads.len()
            ),
        }],
        stats: vec![Stat {
            name: "loads made ld.global.nc",
            value: loads.len() as u64,
        }],
    }
}
