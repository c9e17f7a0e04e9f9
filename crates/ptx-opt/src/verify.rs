//! The check run on a phase's output in debug builds and tests:
//! [`ptx_ir::verify::verify`] (layout, instructions, terminators last,
//! branch targets, labels, registers, predicates, operand widths).

use ptx_ir::ir::Function;

use crate::{phase_info, PhaseId};

/// Checks the output of phase `id`; panics naming the phase, the function
/// and the problems when it is broken (a bug in the phase, never an input
/// problem: the verifier accepts everything lowering makes of PTX ptxas
/// accepts). Called in debug builds only, see [`crate::run_phase`].
pub fn verify_after(id: PhaseId, func: &Function) {
    if let Err(errors) = ptx_ir::verify::verify(func) {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!(
            "the IR after phase {} of `{}` is broken:\n  {}",
            phase_info(id).label(),
            func.name(),
            lines.join("\n  ")
        );
    }
}
