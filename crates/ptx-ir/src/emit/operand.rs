//! Emission of operands.

use std::fmt::Write;

use crate::ir::{AddressBase, BlockId, Function, Operand, RegId};

/// Prints an operand into `out`; `labels` gives the label of each block (by
/// raw index).
pub(super) fn write_operand(f: &Function, labels: &[String], op: &Operand, out: &mut String) {
    let list = |items: &[Operand], out: &mut String| {
        for (k, o) in items.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            write_operand(f, labels, o, out);
        }
    };
    match op {
        Operand::Reg { reg, component } | Operand::NegReg { reg, component } => {
            if matches!(op, Operand::NegReg { .. }) {
                out.push('-');
            }
            out.push_str(reg_name(f, *reg));
            out.push_str(component.as_deref().unwrap_or(""));
        }
        Operand::Special { name, component } => {
            out.push_str(name);
            out.push_str(component.as_deref().unwrap_or(""));
        }
        Operand::Imm(imm) => match &imm.text {
            Some(text) => out.push_str(text),
            None => out.push_str(&imm.to_text()),
        },
        Operand::Symbol { name, offset } => {
            out.push_str(name);
            push_offset(out, *offset);
        }
        Operand::Label(b) => out.push_str(label_ref(labels, *b)),
        Operand::Address(addr) => {
            out.push('[');
            match &addr.base {
                AddressBase::Reg(r) => {
                    out.push_str(reg_name(f, *r));
                    push_offset(out, addr.offset);
                }
                AddressBase::Symbol(s) => {
                    out.push_str(s);
                    push_offset(out, addr.offset);
                }
                AddressBase::Absolute => {
                    let _ = write!(out, "{}", addr.offset);
                }
            }
            out.push(']');
        }
        Operand::AddressList(items) => {
            out.push('[');
            list(items, out);
            out.push(']');
        }
        Operand::Vector(items) => {
            out.push('{');
            list(items, out);
            out.push('}');
        }
        Operand::ArgList(items) => {
            out.push('(');
            list(items, out);
            out.push(')');
        }
        Operand::PredPair(a, b) => {
            write_operand(f, labels, a, out);
            out.push('|');
            write_operand(f, labels, b, out);
        }
        Operand::Sink => out.push('_'),
        Operand::NegPred(r) => {
            out.push('!');
            out.push_str(reg_name(f, *r));
        }
        Operand::RegOffset { reg, offset } => {
            out.push_str(reg_name(f, *reg));
            push_offset(out, *offset);
        }
        Operand::Expr(text) => out.push_str(text),
    }
}

/// `+8`, `+-16` (nvcc's spelling of a negative offset), or nothing for 0.
fn push_offset(out: &mut String, offset: i64) {
    if offset != 0 {
        let _ = write!(out, "+{offset}");
    }
}

pub(super) fn label_of(labels: &[String], b: BlockId) -> String {
    label_ref(labels, b).to_string()
}

/// [`label_of`] without a copy.
pub(super) fn label_ref(labels: &[String], b: BlockId) -> &str {
    labels
        .get(b.into_raw().into_u32() as usize)
        .map_or("", String::as_str)
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
