//! Immediates as bit patterns of a type.

use crate::float::{from_f64, Fmt, Rnd};
use crate::types::{mask, Ty, TyFmt};

/// An immediate as written: an integer, `0fXXXXXXXX` or `0dXXXX...` /
/// a decimal float literal (read as f64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Imm {
    Int(i128),
    F32(u32),
    F64(u64),
}

/// The value of an immediate as the bits a source of type `ty` reads
/// (what the emulator puts in a register or feeds an operation).
pub fn bits(v: Imm, ty: Ty) -> u64 {
    let bits = ty.bits().min(64);
    match v {
        // Half and narrower formats have no literals: an integer is the bits.
        Imm::Int(i) if ty.is_float() && ty.bits() <= 16 || ty.is_pair() => (i as u64) & mask(bits),
        Imm::Int(i) => match ty.fmt() {
            Some(fmt) if ty.is_float() => {
                from_f64(fmt, i as f64, Rnd::Rn) << if ty == Ty::TF32 { 13 } else { 0 }
            }
            _ => (i as u64) & mask(bits),
        },
        Imm::F32(b) => match ty {
            Ty::F32 | Ty::TF32 => b as u64,
            Ty::F64 => (f32::from_bits(b) as f64).to_bits(),
            Ty::F16 | Ty::BF16 | Ty::E4M3 | Ty::E5M2 => from_f64(
                ty.fmt().unwrap_or(Fmt::F16),
                f32::from_bits(b) as f64,
                Rnd::Rn,
            ),
            _ => b as u64 & mask(bits),
        },
        Imm::F64(b) => {
            let x = f64::from_bits(b);
            match ty {
                Ty::F64 => b,
                Ty::F32 | Ty::TF32 => from_f64(Fmt::F32, x, Rnd::Rn),
                Ty::F16 | Ty::BF16 | Ty::E4M3 | Ty::E5M2 => {
                    from_f64(ty.fmt().unwrap_or(Fmt::F16), x, Rnd::Rn)
                }
                _ if bits == 64 => b,
                _ if bits == 32 => from_f64(Fmt::F32, x, Rnd::Rn),
                _ => (x as i64 as u64) & mask(bits),
            }
        }
    }
}
