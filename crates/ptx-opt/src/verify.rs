//! The check run on a phase's output in debug builds and tests.
//!
//! Until `ptx_ir`'s verifier lands (branch `mutate`), this checks what the
//! phases written so far could break: every block of the layout exists and
//! appears once, every instruction of a block exists and is in one block
//! only, every register an instruction names exists, and every branch label
//! names a block of the layout. When `ptx_ir`'s `verify` is there,
//! [`check`] calls it instead.

use ptx_ir::ir::{Function, Operand};

use crate::{phase_info, PhaseId};

/// What is wrong with a function, one line per problem.
pub fn check(func: &Function) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let mut seen_blocks = vec![false; func.blocks.len()];
    let mut seen_insts = vec![false; func.insts.len()];
    for &b in &func.layout {
        let bi = b.into_raw().into_u32() as usize;
        match seen_blocks.get_mut(bi) {
            None => errors.push(format!("layout names block {bi}, which does not exist")),
            Some(true) => errors.push(format!("block {bi} is in the layout twice")),
            Some(seen) => *seen = true,
        }
        if bi >= func.blocks.len() {
            continue;
        }
        for &i in &func.blocks[b].insts {
            let ii = i.into_raw().into_u32() as usize;
            match seen_insts.get_mut(ii) {
                None => errors.push(format!("block {bi} names instruction {ii}, which does not exist")),
                Some(true) => errors.push(format!("instruction {ii} is in two places")),
                Some(seen) => *seen = true,
            }
            if ii >= func.insts.len() {
                continue;
            }
            let inst = &func.insts[i];
            let mut check_reg = |r: ptx_ir::ir::RegId| {
                if r.into_raw().into_u32() as usize >= func.regs.len() {
                    errors.push(format!(
                        "instruction {ii} (`{}`) names register {}, which does not exist",
                        inst.opcode.text(),
                        r.into_raw().into_u32()
                    ));
                }
            };
            ptx_ir::ir::def_use::visit_defs_and_uses(inst, |_, r| check_reg(r));
            for op in &inst.operands {
                if let Operand::Label(target) = op {
                    if !func.layout.contains(target) {
                        errors.push(format!(
                            "instruction {ii} branches to block {}, which is not in the layout",
                            target.into_raw().into_u32()
                        ));
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks the output of phase `id`; panics naming the phase and the problems
/// when it is broken (a bug in the phase: called in debug builds and tests
/// only, see [`crate::run_phase`]).
pub fn verify_after(id: PhaseId, func: &Function) {
    if let Err(errors) = check(func) {
        panic!(
            "the IR after phase {} of `{}` is broken:\n  {}",
            phase_info(id).label(),
            func.name(),
            errors.join("\n  ")
        );
    }
}
