//! Origins: which instruction of the lowered function (`kernel_ir` in
//! `ptx-db`) an instruction of a phase's output stands for. Remarks point at
//! instructions by origin; `ptx-db` maps an origin to `file:line:col` through
//! `kernel_lowered`'s ranges and `kernel_starts`.
//!
//! Today no phase creates or renumbers instructions (dead-code elimination
//! only unlinks instructions from their blocks; the arena keeps every id), so
//! an instruction's origin is its own id. When `ptx_ir` keeps origins in a
//! side table (`Function::origin`), [`origin`] becomes a call to it; every
//! phase goes through this one helper.

use ptx_ir::ir::{Function, InstId};

/// The instruction of the lowered function that `inst` of `func` comes from.
pub fn origin(func: &Function, inst: InstId) -> Option<InstId> {
    let index = inst.into_raw().into_u32() as usize;
    (index < func.insts.len()).then_some(inst)
}
