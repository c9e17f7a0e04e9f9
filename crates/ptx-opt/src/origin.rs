//! Origins: which instruction of the lowered function (`kernel_ir` in
//! `ptx-db`) an instruction of a phase's output stands for. Remarks point at
//! instructions by origin; `ptx-db` maps an origin to `file:line:col` through
//! `kernel_lowered`'s ranges and `kernel_starts`.
//!
//! `ptx_ir` keeps origins in a side table ([`Function::origin`]): lowering
//! maps each instruction to itself, and the mutation API (`ir::edit`) carries
//! them through clones and insertions. Every phase goes through this one
//! helper.

use ptx_ir::ir::{Function, InstId};

/// The instruction of the lowered function that `inst` of `func` comes from
/// (`None` for one a pass made from nothing).
pub fn origin(func: &Function, inst: InstId) -> Option<InstId> {
    func.origin(inst)
}
