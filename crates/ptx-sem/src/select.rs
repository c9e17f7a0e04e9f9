//! Which operation an instruction performs, from its typed opcode
//! (`OpInfo`: family, types, `.sat`/`.relu`/`.approx`) and the modifiers
//! the typed form does not name (`.hi`, `.wide`, `.shiftamt`, `.NaN`, ...).
//!
//! The emulator's decoder and the optimizer's constant folder both call
//! these, so the operation folded is the operation executed.

use crate::fops::{FOp, HOp};
use crate::int::{IOp, PrmtMode};
use crate::types::Ty;
use ptx_isa::{FamilyId as F, OpInfo};

fn has<S: AsRef<str>>(mods: &[S], m: &str) -> bool {
    mods.iter().any(|x| x.as_ref() == m)
}

/// The arithmetic, logic and shift families: those whose operation
/// [`int_op`], [`float_op`] or [`half_op`] selects (the emulator decodes them
/// with `decode_arith`, the constant folder folds them).
pub fn is_arith(f: F) -> bool {
    matches!(
        f,
        F::Add
            | F::Sub
            | F::Mul
            | F::Mad
            | F::Fma
            | F::Div
            | F::Rem
            | F::Abs
            | F::Neg
            | F::Min
            | F::Max
            | F::Rcp
            | F::RcpApproxFtzF64
            | F::Sqrt
            | F::Rsqrt
            | F::RsqrtApproxFtzF64
            | F::Sin
            | F::Cos
            | F::Lg2
            | F::Ex2
            | F::Tanh
            | F::Copysign
            | F::Mul24
            | F::Mad24
            | F::Sad
            | F::Popc
            | F::Clz
            | F::Bfind
            | F::Fns
            | F::Brev
            | F::Bfe
            | F::Bfi
            | F::Bmsk
            | F::Szext
            | F::Dp4a
            | F::Dp2a
            | F::And
            | F::Or
            | F::Xor
            | F::Not
            | F::Cnot
            | F::Lop3
            | F::Shl
            | F::Shr
            | F::Shf
            | F::Prmt
    )
}

/// The integer operation of an arithmetic, logic or bit instruction of an
/// integer (or bit) type; `None` for families that are not one. `lop3`
/// needs its table (`lut`, the immediate operand); without it `lop3` is
/// `None`. `copysign` is `None` (it has no integer form).
pub fn int_op<S: AsRef<str>>(info: &OpInfo, mods: &[S], lut: Option<u8>) -> Option<IOp> {
    let m = |s: &str| has(mods, s);
    let hi = m(".hi");
    Some(match info.family {
        F::Add if info.sat => IOp::AddSat,
        F::Sub if info.sat => IOp::SubSat,
        F::Add => IOp::Add,
        F::Sub => IOp::Sub,
        F::Mul if hi => IOp::MulHi,
        F::Mul if m(".wide") => IOp::MulWide,
        F::Mul => IOp::MulLo,
        F::Mad if hi && info.sat => IOp::MadHiSat,
        F::Mad if hi => IOp::MadHi,
        F::Mad if m(".wide") => IOp::MadWide,
        F::Mad => IOp::MadLo,
        F::Mul24 if hi => IOp::Mul24Hi,
        F::Mul24 => IOp::Mul24Lo,
        F::Mad24 if hi && info.sat => IOp::Mad24HiSat,
        F::Mad24 if hi => IOp::Mad24Hi,
        F::Mad24 => IOp::Mad24Lo,
        F::Sad => IOp::Sad,
        F::Div => IOp::Div,
        F::Rem => IOp::Rem,
        F::Abs => IOp::Abs,
        F::Neg => IOp::Neg,
        F::Min if info.relu => IOp::MinRelu,
        F::Max if info.relu => IOp::MaxRelu,
        F::Min => IOp::Min,
        F::Max => IOp::Max,
        F::Popc => IOp::Popc,
        F::Clz => IOp::Clz,
        F::Bfind if m(".shiftamt") => IOp::BfindShift,
        F::Bfind => IOp::Bfind,
        F::Fns => IOp::Fns,
        F::Brev => IOp::Brev,
        F::Bfe => IOp::Bfe,
        F::Bfi => IOp::Bfi,
        F::Bmsk if m(".wrap") => IOp::BmskWrap,
        F::Bmsk => IOp::BmskClamp,
        F::Szext if m(".wrap") => IOp::SzextWrap,
        F::Szext => IOp::SzextClamp,
        F::Dp4a | F::Dp2a => {
            let sa = info.types.first().is_some_and(|t| t.is_signed());
            let sb = info.types.iter().nth(1).is_some_and(|t| t.is_signed());
            if info.family == F::Dp4a {
                IOp::Dp4a(sa, sb)
            } else {
                IOp::Dp2a(sa, sb, hi)
            }
        }
        F::And => IOp::And,
        F::Or => IOp::Or,
        F::Xor => IOp::Xor,
        F::Not => IOp::Not,
        F::Cnot => IOp::Cnot,
        F::Lop3 => IOp::Lop3(lut?),
        F::Shl => IOp::Shl,
        F::Shr => IOp::Shr,
        F::Shf if m(".l") => IOp::ShfL(m(".clamp")),
        F::Shf => IOp::ShfR(m(".clamp")),
        F::Prmt => IOp::Prmt(prmt_mode(mods)),
        _ => return None,
    })
}

/// The `prmt` mode modifier, if any.
pub fn prmt_mode<S: AsRef<str>>(mods: &[S]) -> Option<PrmtMode> {
    const TABLE: [(&str, PrmtMode); 6] = [
        (".f4e", PrmtMode::F4e),
        (".b4e", PrmtMode::B4e),
        (".rc8", PrmtMode::Rc8),
        (".ecl", PrmtMode::Ecl),
        (".ecr", PrmtMode::Ecr),
        (".rc16", PrmtMode::Rc16),
    ];
    TABLE.iter().find(|(s, _)| has(mods, s)).map(|&(_, v)| v)
}

/// Whether an instruction of type `ty` is a bitwise operation even on a
/// float type (`and.b32` is never float, but `and` on a float register
/// class is the integer operation): the families that take the integer
/// path whatever the type says.
pub fn is_bitwise(family: F) -> bool {
    matches!(family, F::And | F::Or | F::Xor | F::Not)
}

/// The f16/bf16 (and pair) operation; `None` when the family has no half form.
pub fn half_op<S: AsRef<str>>(info: &OpInfo, mods: &[S]) -> Option<HOp> {
    let nan = has(mods, ".NaN");
    let xorsign = has(mods, ".xorsign");
    Some(match info.family {
        F::Add => HOp::Add,
        F::Sub => HOp::Sub,
        F::Mul => HOp::Mul,
        F::Fma | F::Mad => HOp::Fma,
        F::Neg => HOp::Neg,
        F::Abs => HOp::Abs,
        F::Min => HOp::Min { nan, xorsign },
        F::Max => HOp::Max { nan, xorsign },
        F::Ex2 => HOp::Ex2,
        F::Tanh => HOp::Tanh,
        _ => return None,
    })
}

/// The f32/f64 operation; `nsrc` is the number of sources written (three
/// makes `min`/`max` the three-input forms). `None` when the family has no
/// float form.
pub fn float_op<S: AsRef<str>>(info: &OpInfo, mods: &[S], nsrc: usize) -> Option<FOp> {
    let nan = has(mods, ".NaN");
    let xorsign = has(mods, ".xorsign");
    let approx = info.approx;
    let three = nsrc == 3;
    Some(match info.family {
        F::Add => FOp::Add,
        F::Sub => FOp::Sub,
        F::Mul => FOp::Mul,
        F::Fma | F::Mad => FOp::Fma,
        F::Div if approx || has(mods, ".full") => FOp::DivApprox,
        F::Div => FOp::Div,
        F::RcpApproxFtzF64 => FOp::RcpApprox,
        F::Rcp if approx => FOp::RcpApprox,
        F::Rcp => FOp::Rcp,
        F::Sqrt if approx => FOp::SqrtApprox,
        F::Sqrt => FOp::Sqrt,
        F::Rsqrt | F::RsqrtApproxFtzF64 => FOp::Rsqrt,
        F::Sin => FOp::Sin,
        F::Cos => FOp::Cos,
        F::Lg2 => FOp::Lg2,
        F::Ex2 => FOp::Ex2,
        F::Tanh => FOp::Tanh,
        F::Abs => FOp::Abs,
        F::Neg => FOp::Neg,
        F::Min if three => FOp::Min3 { nan },
        F::Max if three => FOp::Max3 { nan },
        F::Min => FOp::Min { nan, xorsign },
        F::Max => FOp::Max { nan, xorsign },
        F::Copysign => FOp::Copysign,
        _ => return None,
    })
}

/// Whether `op` is exactly rounded (its result is defined bit for bit by
/// the PTX ISA, so folding it is exact); the `.approx` functions are not.
pub fn float_is_exact(op: FOp) -> bool {
    !matches!(
        op,
        FOp::DivApprox
            | FOp::RcpApprox
            | FOp::SqrtApprox
            | FOp::Rsqrt
            | FOp::Sin
            | FOp::Cos
            | FOp::Lg2
            | FOp::Ex2
            | FOp::Tanh
    )
}

/// [`float_is_exact`] for the half operations.
pub fn half_is_exact(op: HOp) -> bool {
    !matches!(op, HOp::Ex2 | HOp::Tanh)
}

/// Whether `ty` takes the half-precision path.
pub fn is_half(ty: Ty) -> bool {
    matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)
}

/// How an integer operation reads and writes: the type it evaluates in,
/// its number of sources, each source's type (what an immediate source
/// means, [`crate::imm::bits`]), and the destination's width and
/// signedness (how the result is written to the register,
/// [`crate::types::write_bits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntForm {
    pub op: IOp,
    /// The type passed to [`crate::int::eval`].
    pub ty: Ty,
    pub arity: usize,
    pub src_tys: [Ty; 4],
    pub dst_bits: u32,
    pub dst_signed: bool,
}

/// The [`IntForm`] of `op` on instruction type `ty`: the wide/mad forms
/// take `c` at double width, `dp4a`/`dp2a` 32-bit words, shift amounts and
/// `bfe`/`bfi` positions are 32-bit; counts (`popc`, `clz`, `bfind`) are
/// unsigned.
pub fn int_form(op: IOp, ty: Ty) -> IntForm {
    let dot = matches!(op, IOp::Dp4a(..) | IOp::Dp2a(..));
    let src_ty = |i: usize| -> Ty {
        match (op, i) {
            (IOp::MadWide, 2) => bits_ty(ty.bits() * 2),
            (IOp::Shl | IOp::Shr, 1) => Ty::U32,
            (IOp::Bfe, 1 | 2) | (IOp::Bfi, 2 | 3) => Ty::U32,
            _ if dot => Ty::B32,
            _ => ty,
        }
    };
    let dst_signed = match op {
        IOp::Dp4a(sa, sb) | IOp::Dp2a(sa, sb, _) => sa || sb,
        IOp::Popc | IOp::Clz | IOp::Bfind | IOp::BfindShift => false,
        _ => ty.is_signed(),
    };
    IntForm {
        op,
        ty: if dot { Ty::B32 } else { ty },
        arity: crate::int::arity(op),
        src_tys: [src_ty(0), src_ty(1), src_ty(2), src_ty(3)],
        dst_bits: crate::int::result_bits(op, ty),
        dst_signed,
    }
}

/// The bit type of a width (`B128` for anything wider than 64).
pub fn bits_ty(bits: u32) -> Ty {
    match bits {
        8 => Ty::B8,
        16 => Ty::B16,
        32 => Ty::B32,
        64 => Ty::B64,
        _ => Ty::B128,
    }
}
