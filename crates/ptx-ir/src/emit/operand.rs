//! Emission of operands.

use crate::ir::{AddressBase, BlockId, Function, Operand, RegId};

/// Prints an operand; `labels` gives the label of each block (by raw index).
pub(super) fn emit_operand(f: &Function, labels: &[String], op: &Operand) -> String {
    let list = |items: &[Operand]| {
        items
            .iter()
            .map(|o| emit_operand(f, labels, o))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match op {
        Operand::Reg { reg, component } => {
            format!(
                "{}{}",
                reg_name(f, *reg),
                component.as_deref().unwrap_or("")
            )
        }
        Operand::Special { name, component } => {
            format!("{name}{}", component.as_deref().unwrap_or(""))
        }
        Operand::Imm(imm) => imm.to_text(),
        Operand::Symbol { name, offset } => format!("{name}{}", offset_suffix(*offset)),
        Operand::Label(b) => label_of(labels, *b),
        Operand::Address(addr) => {
            let text = match &addr.base {
                AddressBase::Reg(r) => format!("{}{}", reg_name(f, *r), offset_suffix(addr.offset)),
                AddressBase::Symbol(s) => format!("{s}{}", offset_suffix(addr.offset)),
                AddressBase::Absolute => addr.offset.to_string(),
            };
            format!("[{text}]")
        }
        Operand::AddressList(items) => format!("[{}]", list(items)),
        Operand::Vector(items) => format!("{{{}}}", list(items)),
        Operand::ArgList(items) => format!("({})", list(items)),
        Operand::PredPair(a, b) => {
            format!(
                "{}|{}",
                emit_operand(f, labels, a),
                emit_operand(f, labels, b)
            )
        }
        Operand::Sink => "_".to_string(),
        Operand::NegPred(r) => format!("!{}", reg_name(f, *r)),
        Operand::NegReg { reg, component } => {
            format!(
                "-{}{}",
                reg_name(f, *reg),
                component.as_deref().unwrap_or("")
            )
        }
        Operand::RegOffset { reg, offset } => {
            format!("{}{}", reg_name(f, *reg), offset_suffix(*offset))
        }
        Operand::Expr(text) => text.clone(),
    }
}

/// `+8`, `+-16` (nvcc's spelling of a negative offset), or nothing for 0.
fn offset_suffix(offset: i64) -> String {
    if offset == 0 {
        String::new()
    } else {
        format!("+{offset}")
    }
}

pub(super) fn label_of(labels: &[String], b: BlockId) -> String {
    labels
        .get(b.into_raw().into_u32() as usize)
        .cloned()
        .unwrap_or_default()
}

/// The name of register `r`; a register id that is not in the arena (broken
/// IR, which the verifier reports) prints as `%<invalid register>` rather
/// than panicking.
pub(super) fn reg_name(f: &Function, r: RegId) -> &str {
    if f.has_reg(r) {
        &f.regs[r].name
    } else {
        "%<invalid register>"
    }
}
