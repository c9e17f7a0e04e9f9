//! Operands and immediates.
//!
//! Names are resolved during lowering: a declared register becomes
//! [`Operand::Reg`], a predefined register (`%tid.x`) [`Operand::Special`], a label
//! [`Operand::Label`], anything else with a name (variables, parameters, functions,
//! `.callprototype`/`.branchtargets` names, `WARP_SZ`) [`Operand::Symbol`].
//! Immediates keep the literal text as written, so the emitter reproduces it.

use super::block::BlockId;
use super::reg::RegId;

/// One instruction operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A virtual register, with a component as written (`.x` of a vector
    /// register, `.h0`/`.b1` video selectors).
    Reg {
        reg: RegId,
        component: Option<String>,
    },
    /// A predefined register: `%tid` with component `.x`, `%laneid`.
    Special {
        name: String,
        component: Option<String>,
    },
    Imm(Imm),
    /// A variable, parameter, function or other named symbol, with a constant
    /// byte offset (`tab+8`).
    Symbol {
        name: String,
        offset: i64,
    },
    /// A branch target.
    Label(BlockId),
    /// A memory operand `[base+offset]`.
    Address(Address),
    /// A bracketed operand that is not `[base+offset]`: texture and tensor
    /// operands such as `[tex, {%f1, %f2}]` or `[%rd1, {%r1, %r2}]`.
    AddressList(Vec<Operand>),
    /// `{a, b, c, d}`.
    Vector(Vec<Operand>),
    /// `(a, b)`: argument or return list of `call`.
    ArgList(Vec<Operand>),
    /// `a|b`: setp's two predicate destinations, or a value and a predicate
    /// (`{..}|%p` of `tex`, `%r|%p` of `shfl.sync`).
    PredPair(Box<Operand>, Box<Operand>),
    /// `_`
    Sink,
    /// `!%p`
    NegPred(RegId),
    /// `-%r` (the negated sources of `vmad`), with a component as written.
    NegReg {
        reg: RegId,
        component: Option<String>,
    },
    /// `%r + 4` outside brackets (ptxas accepts a register plus a constant
    /// where it accepts a register, e.g. as the value of `st`).
    RegOffset {
        reg: RegId,
        offset: i64,
    },
    /// A constant expression lowering does not model, as written (whitespace
    /// normalized, comments dropped).
    Expr(String),
}

/// `[base+offset]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    pub base: AddressBase,
    pub offset: i64,
}

/// What an [`Address`] is relative to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddressBase {
    /// `[%rd1+8]`
    Reg(RegId),
    /// `[tab+4]`, `[param0]`
    Symbol(String),
    /// `[0x100]`: an absolute address (the offset).
    Absolute,
}

/// An immediate value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    pub value: ImmValue,
    /// The literal or constant expression as written (`0x1F`, `0f3F800000`,
    /// `-7`, `(1 << 4) | 3`); `None` for immediates made by passes, which are
    /// printed from `value`. Shared: instructions are copied by every phase
    /// that changes their function, and the text never changes.
    pub text: Option<std::sync::Arc<str>>,
}

/// The value of an immediate. Floats are kept as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmValue {
    /// An integer (wide enough for both `u64` and negative `i64` values).
    Int(i128),
    /// `0fXXXXXXXX`
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`, and decimal float literals (PTX reads them as f64).
    F64(u64),
}

impl Imm {
    /// An immediate made by a pass (printed from its value).
    pub fn new(value: ImmValue) -> Imm {
        Imm { value, text: None }
    }

    /// The text to emit: as written, or a canonical form of the value.
    pub fn to_text(&self) -> String {
        if let Some(text) = &self.text {
            return text.to_string();
        }
        match self.value {
            ImmValue::Int(v) => v.to_string(),
            ImmValue::F32(bits) => format!("0f{bits:08X}"),
            ImmValue::F64(bits) => format!("0d{bits:016X}"),
        }
    }
}

impl Operand {
    /// Calls `f` on every register in the operand, nested ones included.
    pub fn for_each_reg(&self, f: &mut impl FnMut(RegId)) {
        match self {
            Operand::Reg { reg, .. }
            | Operand::NegPred(reg)
            | Operand::NegReg { reg, .. }
            | Operand::RegOffset { reg, .. } => f(*reg),
            Operand::Address(Address {
                base: AddressBase::Reg(reg),
                ..
            }) => f(*reg),
            Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
                items.iter().for_each(|op| op.for_each_reg(f))
            }
            Operand::PredPair(a, b) => {
                a.for_each_reg(f);
                b.for_each_reg(f);
            }
            _ => {}
        }
    }

    /// Calls `f` on every label in the operand.
    pub fn for_each_label(&self, f: &mut impl FnMut(BlockId)) {
        match self {
            Operand::Label(b) => f(*b),
            Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
                items.iter().for_each(|op| op.for_each_label(f))
            }
            Operand::PredPair(a, b) => {
                a.for_each_label(f);
                b.for_each_label(f);
            }
            _ => {}
        }
    }

    /// Rewrites every label in the operand with `f`.
    pub fn map_labels(&mut self, f: &mut impl FnMut(BlockId) -> BlockId) {
        match self {
            Operand::Label(b) => *b = f(*b),
            Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
                items.iter_mut().for_each(|op| op.map_labels(f))
            }
            Operand::PredPair(a, b) => {
                a.map_labels(f);
                b.map_labels(f);
            }
            _ => {}
        }
    }

    /// The register of a plain register operand.
    pub fn as_reg(&self) -> Option<RegId> {
        match self {
            Operand::Reg { reg, .. } => Some(*reg),
            _ => None,
        }
    }
}
