//! Bit-pattern helpers over the PTX types (`ptx_isa::Ty`).

use crate::float::Fmt;

pub use ptx_isa::{Space, Ty};

/// A type's float format.
pub trait TyFmt {
    /// The scalar float format (for packed pairs, the format of one half);
    /// `None` for integer types and the formats not implemented (the x4
    /// packings, `.ue8m0x2`).
    fn fmt(self) -> Option<Fmt>;
}

impl TyFmt for Ty {
    fn fmt(self) -> Option<Fmt> {
        Some(match self {
            Ty::F16 | Ty::F16x2 => Fmt::F16,
            Ty::BF16 | Ty::BF16x2 => Fmt::BF16,
            Ty::TF32 => Fmt::TF32,
            Ty::F32 | Ty::F32x2 => Fmt::F32,
            Ty::F64 => Fmt::F64,
            Ty::E4M3 | Ty::E4M3x2 => Fmt::E4M3,
            Ty::E5M2 | Ty::E5M2x2 => Fmt::E5M2,
            Ty::E2M1x2 => Fmt::E2M1,
            Ty::E2M3x2 => Fmt::E2M3,
            Ty::E3M2x2 => Fmt::E3M2,
            _ => return None,
        })
    }
}

/// The mask of the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sext(v: u64, bits: u32) -> u64 {
    if bits >= 64 || bits == 0 {
        v
    } else {
        (((v << (64 - bits)) as i64) >> (64 - bits)) as u64
    }
}

/// What a register of `reg_bits` holds after an instruction writes `v` as
/// a `bits`-wide result, sign-extended when `signed` (the emulator's
/// register write, one lane).
pub fn write_bits(v: u64, bits: u32, signed: bool, reg_bits: u32) -> u64 {
    let v = if signed && bits < 64 {
        sext(v, bits)
    } else {
        v & mask(bits)
    };
    v & mask(reg_bits)
}
