//! `cvt` and `cvt.pack`: every pairing of integer and floating-point types,
//! every rounding mode, `.sat`, `.satfinite`, `.relu`, `.ftz`, and the packed
//! pair forms (`cvt.rn.f16x2.f32 d, a, b` puts `a` in the upper half).
//!
//! - int to int: sign- or zero-extend from the source type, then truncate to
//!   the destination type, or clamp to its range with `.sat`.
//! - float to int: round with `.rni/.rzi/.rmi/.rpi` (`.rzi` when none is
//!   written), saturate to the range; NaN gives 0.
//! - int to float: round with `.rn/.rz/.rm/.rp` (`.rn` when none is written).
//! - float to float: exact when widening; rounded when narrowing; with
//!   `.rni/...` between equal types, rounded to an integral value.

use crate::float::{convert, ftz32, int_to_float, round_integral, to_int, Fmt, Rnd};
use crate::fops::{relu_bits, sat_bits};
use crate::types::{mask, sext, Ty, TyFmt};

/// A decoded `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CvtSpec {
    pub dty: Ty,
    pub sty: Ty,
    /// `.rn/.rz/.rm/.rp/.rna`.
    pub rnd: Option<Rnd>,
    /// `.rni/.rzi/.rmi/.rpi`.
    pub irnd: Option<Rnd>,
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
    pub satfinite: bool,
}

impl CvtSpec {
    /// Whether the form takes two sources (`cvt.rn.f16x2.f32 d, a, b`).
    pub fn two_sources(&self) -> bool {
        self.dty.is_pair() && !self.sty.is_pair() && self.sty == Ty::F32
    }
}

/// Converts one value (or, for two-source forms, `a` and `b`).
pub fn cvt(s: &CvtSpec, a: u64, b: u64) -> u64 {
    if s.two_sources() {
        let hi = cvt_scalar(s, s.dty, a);
        let lo = cvt_scalar(s, s.dty, b);
        let w = s.dty.bits() / 2;
        return (hi << w) | lo;
    }
    if s.dty.is_pair() && s.sty.is_pair() {
        // Pair to pair (f16x2 <-> e4m3x2, ...): element-wise.
        let (dw, sw) = (s.dty.bits() / 2, s.sty.bits() / 2);
        let lo = cvt_scalar(s, s.dty, a & mask(sw));
        let hi = cvt_scalar(s, s.dty, (a >> sw) & mask(sw));
        return (hi << dw) | lo;
    }
    cvt_scalar(s, s.dty, a)
}

/// Converts one element; `dty` may be a pair type, meaning one element of it.
fn cvt_scalar(s: &CvtSpec, dty: Ty, a: u64) -> u64 {
    let sty = s.sty;
    let sfmt = if sty.is_float() { sty.fmt() } else { None };
    let dfmt = if dty.is_float() { dty.fmt() } else { None };
    match (sfmt, dfmt) {
        (None, None) => {
            let sbits = sty.bits().min(64);
            let dbits = dty.bits().min(64);
            let v: i128 = if sty.is_signed() {
                sext(a, sbits) as i64 as i128
            } else {
                (a & mask(sbits)) as i128
            };
            if s.sat {
                let (lo, hi) = if dty.is_signed() {
                    (-(1i128 << (dbits - 1)), (1i128 << (dbits - 1)) - 1)
                } else {
                    (0, mask(dbits) as i128)
                };
                (v.clamp(lo, hi) as u64) & mask(dbits)
            } else {
                (v as u64) & mask(dbits)
            }
        }
        (Some(sf), None) => {
            let a = element(sty, a, sf);
            let a = if s.ftz { sf.ftz(a) } else { a };
            let x = sf.to_f64(a);
            let mode = s.irnd.or(s.rnd).unwrap_or(Rnd::Rz);
            to_int(x, mode, dty.bits().min(64), dty.is_signed())
        }
        (None, Some(df)) => {
            let r = int_to_float(
                df,
                a,
                sty.bits().min(64),
                sty.is_signed(),
                s.rnd.unwrap_or(Rnd::Rn),
            );
            finish(s, dty, df, r)
        }
        (Some(sf), Some(df)) => {
            let a = element(sty, a, sf);
            let a = if s.ftz { sf.ftz(a) } else { a };
            let r = if let Some(mode) = s.irnd {
                // Round to an integral value in the source format.
                let x = sf.to_f64(a);
                if x.is_nan() {
                    df.nan()
                } else {
                    convert(
                        Fmt::F64,
                        df,
                        round_integral(x, mode).to_bits(),
                        Rnd::Rn,
                        false,
                    )
                }
            } else {
                convert(sf, df, a, s.rnd.unwrap_or(Rnd::Rn), s.satfinite)
            };
            finish(s, dty, df, r)
        }
    }
}

/// Selects a scalar source element (tf32 is stored as f32 bits).
fn element(sty: Ty, a: u64, fmt: Fmt) -> u64 {
    if sty == Ty::TF32 {
        a >> 13 & mask(fmt.bits())
    } else {
        a & mask(fmt.bits())
    }
}

fn finish(s: &CvtSpec, dty: Ty, df: Fmt, mut r: u64) -> u64 {
    if s.ftz && df == Fmt::F32 {
        r = ftz32(r as u32) as u64;
    } else if s.ftz {
        r = df.ftz(r);
    }
    if s.sat {
        r = sat_bits(df, r);
    }
    if s.relu {
        r = relu_bits(df, r);
    }
    if dty == Ty::TF32 {
        r <<= 13;
    }
    r
}

/// `cvt.pack.sat.{u8,s8,u16,s16}.s32.b32 d, a, b, c`: saturates `a` and `b`
/// to the narrow type and packs them (`a` higher) above... for 8-bit types,
/// the low 16 bits of `c` go to the upper half.
pub fn cvt_pack(dty: Ty, a: u64, b: u64, c: u64) -> u64 {
    let bits = dty.bits();
    let (lo, hi) = if dty.is_signed() {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, mask(bits) as i64)
    };
    let sat = |v: u64| ((sext(v, 32) as i64).clamp(lo, hi) as u64) & mask(bits);
    let (ta, tb) = (sat(a), sat(b));
    if bits == 8 {
        ((c & 0xffff) << 16) | (ta << 8) | tb
    } else {
        (ta << 16) | tb
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(dty: Ty, sty: Ty) -> CvtSpec {
        CvtSpec {
            dty,
            sty,
            rnd: None,
            irnd: None,
            ftz: false,
            sat: false,
            relu: false,
            satfinite: false,
        }
    }

    #[test]
    fn conversions() {
        // f32 pair to f16x2, `a` in the upper half.
        let s = CvtSpec {
            rnd: Some(Rnd::Rn),
            ..spec(Ty::F16x2, Ty::F32)
        };
        assert_eq!(cvt(&s, 0x3f80_0000, 0x4000_0000), 0x3c00_4000);
        let s = CvtSpec {
            rnd: Some(Rnd::Rn),
            relu: true,
            ..spec(Ty::F16x2, Ty::F32)
        };
        assert_eq!(cvt(&s, 0xbf80_0000, 0x3f80_0000), 0x0000_3c00);
        assert_eq!(cvt(&s, 0x4048_f5c3, 0xff80_0000), 0x4248_0000);
        let s = CvtSpec {
            rnd: Some(Rnd::Rn),
            satfinite: true,
            ..spec(Ty::E4M3x2, Ty::F32)
        };
        assert_eq!(cvt(&s, 0x3ed0_0000, 0x414e_6666), 0x2d55);
        let s = CvtSpec {
            rnd: Some(Rnd::Rn),
            ..spec(Ty::F16x2, Ty::E4M3x2)
        };
        assert_eq!(cvt(&s, 0x2d55, 0), 0x3680_4a80);
        let s = CvtSpec {
            irnd: Some(Rnd::Rn),
            ..spec(Ty::U16, Ty::F32)
        };
        assert_eq!(cvt(&s, 0x477f_ff80, 0), 0xffff);
        let s = CvtSpec {
            sat: true,
            ..spec(Ty::U32, Ty::S32)
        };
        assert_eq!(cvt(&s, 0xffff_ffff, 0), 0);
        assert_eq!(cvt(&spec(Ty::S16, Ty::S8), 0x1392_31c2, 0), 0xffc2);
        let s = CvtSpec {
            rnd: Some(Rnd::Rna),
            ..spec(Ty::TF32, Ty::F32)
        };
        assert_eq!(cvt(&s, 0x3f80_1000, 0), 0x3f80_2000);
    }

    #[test]
    fn pack() {
        assert_eq!(
            cvt_pack(Ty::U8, 0xffff_feff, 0x101, 0xf839_b0ed),
            0xb0ed_00ff
        );
        assert_eq!(
            cvt_pack(Ty::S8, 0xffff_feff, 0x101, 0xf839_b0ed),
            0xb0ed_807f
        );
    }
}
