//! Floating-point instruction semantics: f32/f64 arithmetic with rounding,
//! `.ftz` and `.sat`; the half-precision family (f16, f16x2, bf16, bf16x2);
//! comparisons.
//!
//! Exactly rounded operations (`add sub mul fma div.rn rcp.rn sqrt.rn` and
//! their `.rz/.rm/.rp` forms) go through [`crate::float`]. The `.approx`
//! functions (`sin cos lg2 ex2 tanh rsqrt rcp.approx sqrt.approx div.approx
//! div.full`) are computed in f64 and rounded once to the result format, so
//! they are within half an ulp of the exact value, inside every error bound
//! the PTX ISA documents for them (e.g. 2^-22.5 absolute for `sin/cos.approx.f32`
//! on [-pi, pi], 2 ulp for `ex2.approx.f32`, 1 ulp for `rcp.approx.f32`), but
//! not bit-identical to the hardware's approximations.
//!
//! NaN results are canonical NaNs. `min/max` return the non-NaN operand when
//! one is NaN (`.NaN` returns NaN), and treat -0 as less than +0.

use crate::float::{
    canon32, canon64, f32_binary, f32_fma, f32_sqrt, f64_binary, f64_fma, f64_sqrt, from_f64,
    ftz32, half_binary, soft_binary, soft_fma, Fmt, Rnd, SoftOp,
};
use crate::types::{Ty, TyFmt};

/// An f32/f64 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Mul,
    Fma,
    Div,
    DivApprox,
    Rcp,
    RcpApprox,
    Sqrt,
    SqrtApprox,
    Rsqrt,
    Sin,
    Cos,
    Lg2,
    Ex2,
    Tanh,
    Abs,
    Neg,
    Min {
        nan: bool,
        xorsign: bool,
    },
    Max {
        nan: bool,
        xorsign: bool,
    },
    /// Three-input `min`/`max` (sm_100).
    Min3 {
        nan: bool,
    },
    Max3 {
        nan: bool,
    },
    Copysign,
}

pub fn farity(op: FOp) -> usize {
    match op {
        FOp::Fma | FOp::Min3 { .. } | FOp::Max3 { .. } => 3,
        FOp::Add
        | FOp::Sub
        | FOp::Mul
        | FOp::Div
        | FOp::DivApprox
        | FOp::Min { .. }
        | FOp::Max { .. }
        | FOp::Copysign => 2,
        _ => 1,
    }
}

/// Modifiers of a float operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FMods {
    pub rnd: Rnd,
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
}

/// Evaluates an f32, f64 or packed f32x2 operation.
pub fn feval(op: FOp, ty: Ty, m: FMods, a: u64, b: u64, c: u64) -> u64 {
    if ty == Ty::F32x2 {
        let lo = feval(
            op,
            Ty::F32,
            m,
            a & 0xffff_ffff,
            b & 0xffff_ffff,
            c & 0xffff_ffff,
        );
        let hi = feval(op, Ty::F32, m, a >> 32, b >> 32, c >> 32);
        return lo | (hi << 32);
    }
    if ty == Ty::F64 {
        let r = f64_op(op, m, a, b, c);
        return if m.sat { sat64(r) } else { r };
    }
    let (mut a, mut b, mut c) = (a as u32, b as u32, c as u32);
    if m.ftz {
        a = ftz32(a);
        b = ftz32(b);
        c = ftz32(c);
    }
    let mut r = f32_op(op, m.rnd, a, b, c);
    if m.ftz {
        r = ftz32(r);
    }
    if m.sat {
        r = sat32(r);
    }
    if m.relu {
        r = relu_bits(Fmt::F32, r as u64) as u32;
    }
    r as u64
}

fn f32_op(op: FOp, rnd: Rnd, a: u32, b: u32, c: u32) -> u32 {
    let x = f32::from_bits(a) as f64;
    let approx = |v: f64| canon32(v as f32);
    match op {
        FOp::Add => f32_binary(SoftOp::Add, a, b, rnd),
        FOp::Sub => f32_binary(SoftOp::Sub, a, b, rnd),
        FOp::Mul => f32_binary(SoftOp::Mul, a, b, rnd),
        FOp::Fma => f32_fma(a, b, c, rnd),
        FOp::Div => f32_binary(SoftOp::Div, a, b, rnd),
        FOp::DivApprox => approx(x / f32::from_bits(b) as f64),
        FOp::Rcp => f32_binary(SoftOp::Div, 1.0f32.to_bits(), a, rnd),
        FOp::RcpApprox => approx(1.0 / x),
        FOp::Sqrt => f32_sqrt(a, rnd),
        FOp::SqrtApprox => approx(x.sqrt()),
        FOp::Rsqrt => approx(1.0 / x.sqrt()),
        FOp::Sin => approx(x.sin()),
        FOp::Cos => approx(x.cos()),
        FOp::Lg2 => approx(x.log2()),
        FOp::Ex2 => approx(x.exp2()),
        FOp::Tanh => approx(x.tanh()),
        FOp::Abs => a & 0x7fff_ffff,
        FOp::Neg => a ^ 0x8000_0000,
        FOp::Copysign => (b & 0x7fff_ffff) | (a & 0x8000_0000),
        FOp::Min { nan, xorsign } | FOp::Max { nan, xorsign } => {
            let is_min = matches!(op, FOp::Min { .. });
            minmax_bits(Fmt::F32, is_min, nan, xorsign, a as u64, b as u64) as u32
        }
        FOp::Min3 { nan } | FOp::Max3 { nan } => {
            let is_min = matches!(op, FOp::Min3 { .. });
            let ab = minmax_bits(Fmt::F32, is_min, nan, false, a as u64, b as u64);
            minmax_bits(Fmt::F32, is_min, nan, false, ab, c as u64) as u32
        }
    }
}

fn f64_op(op: FOp, m: FMods, a: u64, b: u64, c: u64) -> u64 {
    let (a, b) = if m.ftz {
        (Fmt::F64.ftz(a), Fmt::F64.ftz(b))
    } else {
        (a, b)
    };
    let x = f64::from_bits(a);
    let r = match op {
        FOp::Add => f64_binary(SoftOp::Add, a, b, m.rnd),
        FOp::Sub => f64_binary(SoftOp::Sub, a, b, m.rnd),
        FOp::Mul => f64_binary(SoftOp::Mul, a, b, m.rnd),
        FOp::Fma => f64_fma(a, b, c, m.rnd),
        FOp::Div => f64_binary(SoftOp::Div, a, b, m.rnd),
        FOp::DivApprox => canon64(x / f64::from_bits(b)),
        FOp::Rcp => f64_binary(SoftOp::Div, 1.0f64.to_bits(), a, m.rnd),
        FOp::RcpApprox => canon64(1.0 / x),
        FOp::Sqrt => f64_sqrt(a, m.rnd),
        FOp::SqrtApprox => canon64(x.sqrt()),
        FOp::Rsqrt => canon64(1.0 / x.sqrt()),
        FOp::Sin => canon64(x.sin()),
        FOp::Cos => canon64(x.cos()),
        FOp::Lg2 => canon64(x.log2()),
        FOp::Ex2 => canon64(x.exp2()),
        FOp::Tanh => canon64(x.tanh()),
        FOp::Abs => a & !(1 << 63),
        FOp::Neg => a ^ (1 << 63),
        FOp::Copysign => (b & !(1 << 63)) | (a & (1 << 63)),
        FOp::Min { nan, xorsign } | FOp::Max { nan, xorsign } => {
            minmax_bits(Fmt::F64, matches!(op, FOp::Min { .. }), nan, xorsign, a, b)
        }
        FOp::Min3 { nan } | FOp::Max3 { nan } => {
            let is_min = matches!(op, FOp::Min3 { .. });
            let ab = minmax_bits(Fmt::F64, is_min, nan, false, a, b);
            minmax_bits(Fmt::F64, is_min, nan, false, ab, c)
        }
    };
    if m.ftz {
        Fmt::F64.ftz(r)
    } else {
        r
    }
}

/// `.sat` for f32: clamp to [0, 1]; NaN gives +0.
pub fn sat32(r: u32) -> u32 {
    let x = f32::from_bits(r);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        1.0f32.to_bits()
    } else {
        r
    }
}

fn sat64(r: u64) -> u64 {
    let x = f64::from_bits(r);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        1.0f64.to_bits()
    } else {
        r
    }
}

/// `.sat` in any format.
pub fn sat_bits(fmt: Fmt, r: u64) -> u64 {
    let x = fmt.to_f64(r);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        from_f64(fmt, 1.0, Rnd::Rn)
    } else {
        r
    }
}

/// `.relu`: negative results become +0, NaN the canonical NaN.
pub fn relu_bits(fmt: Fmt, r: u64) -> u64 {
    let x = fmt.to_f64(r);
    if x.is_nan() {
        fmt.nan()
    } else if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        0
    } else {
        r
    }
}

/// min/max on bits of `fmt`.
pub fn minmax_bits(fmt: Fmt, is_min: bool, nan: bool, xorsign: bool, a: u64, b: u64) -> u64 {
    let sign = 1u64 << (fmt.bits() - 1);
    let (a0, b0) = (a, b);
    let (a, b) = if xorsign {
        (a & !sign, b & !sign)
    } else {
        (a, b)
    };
    let (x, y) = (fmt.to_f64(a), fmt.to_f64(b));
    let r = match (x.is_nan(), y.is_nan()) {
        (true, true) => return fmt.nan(),
        (true, false) | (false, true) if nan => return fmt.nan(),
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            // -0 < +0.
            let less = x < y || (x == y && x == 0.0 && x.is_sign_negative());
            if less == is_min {
                a
            } else {
                b
            }
        }
    };
    if xorsign {
        r | ((a0 ^ b0) & sign)
    } else {
        r
    }
}

/// A half-precision operation (f16, bf16, and their x2 pairs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HOp {
    Add,
    Sub,
    Mul,
    Fma,
    Neg,
    Abs,
    Min { nan: bool, xorsign: bool },
    Max { nan: bool, xorsign: bool },
    Ex2,
    Tanh,
}

pub fn harity(op: HOp) -> usize {
    match op {
        HOp::Fma => 3,
        HOp::Neg | HOp::Abs | HOp::Ex2 | HOp::Tanh => 1,
        _ => 2,
    }
}

/// Evaluates a half-precision operation on 16-bit or packed 32-bit values.
pub fn heval(op: HOp, ty: Ty, m: FMods, a: u64, b: u64, c: u64) -> u64 {
    let fmt = ty.fmt().unwrap_or(Fmt::F16);
    if ty.is_pair() {
        let lo = h_scalar(op, fmt, m, a & 0xffff, b & 0xffff, c & 0xffff);
        let hi = h_scalar(
            op,
            fmt,
            m,
            (a >> 16) & 0xffff,
            (b >> 16) & 0xffff,
            (c >> 16) & 0xffff,
        );
        lo | (hi << 16)
    } else {
        h_scalar(op, fmt, m, a & 0xffff, b & 0xffff, c & 0xffff)
    }
}

fn h_scalar(op: HOp, fmt: Fmt, m: FMods, a: u64, b: u64, c: u64) -> u64 {
    let (a, b, c) = if m.ftz {
        (fmt.ftz(a), fmt.ftz(b), fmt.ftz(c))
    } else {
        (a, b, c)
    };
    let mut r = match op {
        HOp::Add => half_binary(fmt, SoftOp::Add, a, b, m.rnd),
        HOp::Sub => half_binary(fmt, SoftOp::Sub, a, b, m.rnd),
        HOp::Mul => half_binary(fmt, SoftOp::Mul, a, b, m.rnd),
        HOp::Fma => soft_fma(fmt, a, b, c, m.rnd),
        HOp::Neg => a ^ 0x8000,
        HOp::Abs => a & 0x7fff,
        HOp::Min { nan, xorsign } => minmax_bits(fmt, true, nan, xorsign, a, b),
        HOp::Max { nan, xorsign } => minmax_bits(fmt, false, nan, xorsign, a, b),
        HOp::Ex2 => from_f64(fmt, fmt.to_f64(a).exp2(), Rnd::Rn),
        HOp::Tanh => from_f64(fmt, fmt.to_f64(a).tanh(), Rnd::Rn),
    };
    if m.ftz {
        r = fmt.ftz(r);
    }
    if m.sat {
        r = sat_bits(fmt, r);
    }
    if m.relu {
        r = relu_bits(fmt, r);
    }
    r
}

/// Division in any format with rounding (used by `rcp`/`div` on halves).
pub fn div_bits(fmt: Fmt, a: u64, b: u64, rnd: Rnd) -> u64 {
    soft_binary(fmt, SoftOp::Div, a, b, rnd)
}

/// The comparison operators are the typed form every crate shares.
pub use ptx_isa::Cmp;

/// Integer comparison.
pub fn cmp_int(c: Cmp, signed: bool, bits: u32, a: u64, b: u64) -> bool {
    let m = crate::types::mask(bits);
    let (a, b) = (a & m, b & m);
    let ord = if signed {
        let (x, y) = (
            crate::types::sext(a, bits) as i64,
            crate::types::sext(b, bits) as i64,
        );
        x.cmp(&y)
    } else {
        a.cmp(&b)
    };
    let uord = a.cmp(&b);
    use std::cmp::Ordering::*;
    match c {
        Cmp::Eq | Cmp::Equ => a == b,
        Cmp::Ne | Cmp::Neu => a != b,
        Cmp::Lt | Cmp::Ltu => ord == Less,
        Cmp::Le | Cmp::Leu => ord != Greater,
        Cmp::Gt | Cmp::Gtu => ord == Greater,
        Cmp::Ge | Cmp::Geu => ord != Less,
        Cmp::Lo => uord == Less,
        Cmp::Ls => uord != Greater,
        Cmp::Hi => uord == Greater,
        Cmp::Hs => uord != Less,
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

/// Floating-point comparison (ordered forms are false on NaN, unordered true).
pub fn cmp_float(c: Cmp, x: f64, y: f64) -> bool {
    let unordered = x.is_nan() || y.is_nan();
    match c {
        Cmp::Eq => x == y,
        Cmp::Ne => !unordered && x != y,
        Cmp::Lt | Cmp::Lo => x < y,
        Cmp::Le | Cmp::Ls => x <= y,
        Cmp::Gt | Cmp::Hi => x > y,
        Cmp::Ge | Cmp::Hs => x >= y,
        Cmp::Equ => unordered || x == y,
        Cmp::Neu => unordered || x != y,
        Cmp::Ltu => unordered || x < y,
        Cmp::Leu => unordered || x <= y,
        Cmp::Gtu => unordered || x > y,
        Cmp::Geu => unordered || x >= y,
        Cmp::Num => !unordered,
        Cmp::Nan => unordered,
    }
}

/// Compares two values of type `ty` (for pairs, the halves selected by
/// `half`).
pub fn compare(c: Cmp, ty: Ty, ftz: bool, a: u64, b: u64, half: u32) -> bool {
    match ty.fmt() {
        Some(fmt) => {
            let sh = 16 * half;
            let (mut a, mut b) = if ty.is_pair() {
                ((a >> sh) & 0xffff, (b >> sh) & 0xffff)
            } else {
                (a, b)
            };
            if ftz {
                a = fmt.ftz(a);
                b = fmt.ftz(b);
            }
            cmp_float(c, fmt.to_f64(a), fmt.to_f64(b))
        }
        None => cmp_int(c, ty.is_signed(), ty.bits().min(64), a, b),
    }
}

/// `testp.op.type`: finite, infinite, number, notanumber, normal, subnormal.
pub fn testp(kind: &str, ty: Ty, a: u64) -> bool {
    let fmt = ty.fmt().unwrap_or(Fmt::F32);
    let x = fmt.to_f64(a);
    match kind {
        ".finite" => x.is_finite(),
        ".infinite" => x.is_infinite(),
        ".number" => !x.is_nan(),
        ".notanumber" => x.is_nan(),
        ".normal" => x.is_finite() && x != 0.0 && !fmt.is_subnormal(a),
        ".subnormal" => fmt.is_subnormal(a),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RN: FMods = FMods {
        rnd: Rnd::Rn,
        ftz: false,
        sat: false,
        relu: false,
    };

    #[test]
    fn f32_ftz_and_sat() {
        let ftz = FMods { ftz: true, ..RN };
        assert_eq!(
            feval(FOp::Mul, Ty::F32, ftz, 0x8040_0000, 0x3f00_0000, 0),
            0x8000_0000
        );
        assert_eq!(
            feval(FOp::Mul, Ty::F32, RN, 0x8040_0000, 0x3f00_0000, 0),
            0x8020_0000
        );
        let sat = FMods { sat: true, ..RN };
        assert_eq!(
            feval(FOp::Add, Ty::F32, sat, 0x4000_0000, 0, 0),
            0x3f80_0000
        );
        assert_eq!(feval(FOp::Add, Ty::F32, sat, 0x7fc0_0000, 0, 0), 0);
        assert_eq!(
            feval(FOp::Div, Ty::F32, RN, 0x16a2_028d, 0x5e89_f6ae, 0),
            0x0000_0026
        );
    }

    #[test]
    fn min_max_nan_and_zero() {
        let min = FOp::Min {
            nan: false,
            xorsign: false,
        };
        assert_eq!(
            feval(min, Ty::F32, RN, 0x7fc0_0000, 0x3f80_0000, 0),
            0x3f80_0000
        );
        assert_eq!(feval(min, Ty::F32, RN, 0, 0x8000_0000, 0), 0x8000_0000);
        let min_nan = FOp::Min {
            nan: true,
            xorsign: false,
        };
        assert_eq!(
            feval(min_nan, Ty::F32, RN, 0x7fc0_0000, 0x3f80_0000, 0),
            0x7fff_ffff
        );
        let h = HOp::Min {
            nan: false,
            xorsign: false,
        };
        assert_eq!(heval(h, Ty::F16, RN, 0x7e00, 0x57b0, 0), 0x57b0);
    }

    #[test]
    fn half_arith() {
        // 2 * 3 + 5 = 11 in f16x2 and bf16x2 (upper half 1.5*2.5+1.5).
        let r = heval(
            HOp::Fma,
            Ty::F16x2,
            RN,
            0x4000_4040,
            0x4040_4080,
            0x40a0_4040,
        );
        assert_eq!(r, 0x4690_46e8);
        let r = heval(
            HOp::Fma,
            Ty::BF16x2,
            RN,
            0x4000_4040,
            0x4040_4080,
            0x40a0_4040,
        );
        assert_eq!(r, 0x4130_4170);
        // f16 rounding: 2048 + 1 = 2048 (tie to even), 2048 + 3 = 2052.
        let x = from_f64(Fmt::F16, 2048.0, Rnd::Rn);
        let one = from_f64(Fmt::F16, 1.0, Rnd::Rn);
        let three = from_f64(Fmt::F16, 3.0, Rnd::Rn);
        assert_eq!(heval(HOp::Add, Ty::F16, RN, x, one, 0), x);
        assert_eq!(
            heval(HOp::Add, Ty::F16, RN, x, three, 0),
            from_f64(Fmt::F16, 2052.0, Rnd::Rn)
        );
        let rp = FMods { rnd: Rnd::Rp, ..RN };
        assert_eq!(
            heval(HOp::Add, Ty::F16, rp, x, one, 0),
            from_f64(Fmt::F16, 2050.0, Rnd::Rn)
        );
    }

    #[test]
    fn comparisons() {
        assert!(!cmp_float(Cmp::Gt, f64::NAN, 1.0));
        assert!(cmp_float(Cmp::Leu, 1.0, f64::NAN));
        assert!(cmp_int(Cmp::Lt, true, 32, 0xffff_ffff, 0));
        assert!(!cmp_int(Cmp::Lo, true, 32, 0xffff_ffff, 0));
    }
}
