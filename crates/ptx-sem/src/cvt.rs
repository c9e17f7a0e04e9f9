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

/// Stochastic rounding of `f32` bits `x` to `fmt` (`cvt.rs`) with the `n`
/// random bits `r`: the value rounds away from zero when the discarded part
/// (the distance from the value truncated toward zero, in units of the
/// target's last place, as an `n`-bit fraction) plus `r` carries out of `n`
/// bits, else toward zero: adding the random bits to the discarded bits and
/// truncating, as the PTX ISA describes it, also for subnormal results.
/// Then `.satfinite` (infinities and overflows to the largest finite value
/// of their sign) and `.relu`.
pub fn round_stochastic(fmt: Fmt, x: u32, r: u32, n: u32, relu: bool, satfinite: bool) -> u64 {
    let xf = f32::from_bits(x) as f64;
    let t = convert(Fmt::F32, fmt, x as u64, Rnd::Rz, satfinite);
    let sign = 1u64 << (fmt.bits() - 1);
    let finite = |b: u64| fmt.to_f64(b).is_finite() && !fmt.is_nan(b);
    let mut out = t;
    if xf.is_finite() && finite(t) && fmt.to_f64(t) != xf {
        let (s, mag) = (t & sign, t & !sign);
        let vt = fmt.to_f64(t).abs();
        let up = s | (mag + 1);
        let ulp = if mag + 1 < sign && finite(up) {
            fmt.to_f64(up).abs() - vt
        } else {
            vt - fmt.to_f64(s | mag.saturating_sub(1)).abs()
        };
        // Saturating: a value past the largest finite one (clamped by
        // `.satfinite`) counts as a whole unit or more.
        let frac = ((xf.abs() - vt) / ulp * (1u64 << n) as f64).floor() as u64;
        if frac.min(1 << n) + (r as u64 & mask(n)) >= 1 << n {
            out = up;
        }
    }
    if satfinite && !finite(out) && !xf.is_nan() {
        out = (out & sign) | fmt.max_finite();
    }
    if relu {
        out = relu_bits(fmt, out);
    }
    out
}

/// `cvt.rs{.relu}{.satfinite}.dtype.f32 d, a, b, rbits` (`.f16x2`,
/// `.bf16x2`) and `d, {a, b, e, f}, rbits` (`.e4m3x4`, `.e5m2x4`,
/// `.e2m3x4`, `.e3m2x4`, `.e2m1x4`): the values (`f32` bits, `a` first)
/// rounded stochastically and packed with `a` in the upper bits. The random
/// bits, per the PTX ISA: `.f16x2` 13 bits of each half of `rbits` (`a` the
/// upper), `.bf16x2` 16 bits of each half; the 8- and 6-bit x4 formats the
/// upper half for `a` and `b`, the lower half for `e` and `f`; `.e2m1x4`
/// the upper byte of each half for `a` and `b`, the lower byte of each half
/// for `e` and `f`. `None` for other types.
pub fn cvt_rs(dty: Ty, vals: &[u32], rbits: u32, relu: bool, satfinite: bool) -> Option<u64> {
    let (hi, lo) = (rbits >> 16, rbits & 0xffff);
    let (fmt, width, rs): (Fmt, u32, [(u32, u32); 4]) = match dty {
        Ty::F16x2 => (
            Fmt::F16,
            16,
            [(hi & 0x1fff, 13), (lo & 0x1fff, 13), (0, 0), (0, 0)],
        ),
        Ty::BF16x2 => (Fmt::BF16, 16, [(hi, 16), (lo, 16), (0, 0), (0, 0)]),
        Ty::E4M3x4 | Ty::E5M2x4 | Ty::E2M3x4 | Ty::E3M2x4 => {
            let fmt = match dty {
                Ty::E4M3x4 => Fmt::E4M3,
                Ty::E5M2x4 => Fmt::E5M2,
                Ty::E2M3x4 => Fmt::E2M3,
                _ => Fmt::E3M2,
            };
            (fmt, 8, [(hi, 16), (hi, 16), (lo, 16), (lo, 16)])
        }
        Ty::E2M1x4 => (
            Fmt::E2M1,
            4,
            [(hi >> 8, 8), (lo >> 8, 8), (hi & 0xff, 8), (lo & 0xff, 8)],
        ),
        _ => return None,
    };
    let n = if width == 16 { 2 } else { 4 };
    if vals.len() != n {
        return None;
    }
    let mut d = 0u64;
    for (i, &v) in vals.iter().enumerate() {
        let (r, bits) = rs[i];
        let e = round_stochastic(fmt, v, r, bits, relu, satfinite);
        d |= (e & mask(width)) << (width * (n - 1 - i) as u32);
    }
    Some(d)
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

    #[test]
    fn stochastic_rounding_adds_the_random_bits_to_the_discarded_ones() {
        let f = |x: f32| x.to_bits();
        // 1 + 2^-11 lies halfway between f16 1.0 and 1 + 2^-10: the 13
        // discarded bits are 0x1000.
        let x = f(1.0 + 2f32.powi(-11));
        assert_eq!(
            round_stochastic(Fmt::F16, x, 0x0fff, 13, false, false),
            0x3c00
        );
        assert_eq!(
            round_stochastic(Fmt::F16, x, 0x1000, 13, false, false),
            0x3c01
        );
        assert_eq!(
            round_stochastic(Fmt::F16, f(-1.0 - 2f32.powi(-11)), 0x1000, 13, false, false),
            0xbc01
        );
        // An exact value never moves.
        assert_eq!(
            round_stochastic(Fmt::F16, f(1.5), 0x1fff, 13, false, false),
            0x3e00
        );
        // bf16: 1 + 2^-9 is a quarter of the way to 1 + 2^-7.
        let y = f(1.0 + 2f32.powi(-9));
        assert_eq!(
            round_stochastic(Fmt::BF16, y, 0xbfff, 16, false, false),
            0x3f80
        );
        assert_eq!(
            round_stochastic(Fmt::BF16, y, 0xc000, 16, false, false),
            0x3f81
        );
        // Past the largest f16: infinity, or the largest finite value.
        assert_eq!(
            round_stochastic(Fmt::F16, f(65520.0), 0x1fff, 13, false, false),
            0x7c00
        );
        assert_eq!(
            round_stochastic(Fmt::F16, f(65520.0), 0x1fff, 13, false, true),
            0x7bff
        );
        assert_eq!(round_stochastic(Fmt::F16, f(-3.0), 0, 13, true, false), 0);
        // Far past the largest e4m3 (448) with .satfinite: 448.
        assert_eq!(
            round_stochastic(Fmt::E4M3, f(1e30), 0xffff, 16, false, true),
            0x7e
        );
        assert_eq!(
            round_stochastic(Fmt::E4M3, f(-1e30), 0, 16, false, true),
            0xfe
        );
        for x in [
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
            -0.0,
            f32::INFINITY,
            f32::NAN,
        ] {
            for fmt in [
                Fmt::F16,
                Fmt::BF16,
                Fmt::E4M3,
                Fmt::E5M2,
                Fmt::E2M1,
                Fmt::E2M3,
                Fmt::E3M2,
            ] {
                for sat in [false, true] {
                    round_stochastic(fmt, x.to_bits(), u32::MAX, 16, true, sat);
                    round_stochastic(fmt, x.to_bits(), 0, 8, false, sat);
                }
            }
        }
        // Subnormal f16: 2^-25 is half of the smallest subnormal 2^-24.
        assert_eq!(
            round_stochastic(Fmt::F16, f(2f32.powi(-25)), 0x1000, 13, false, false),
            1
        );
        assert_eq!(
            round_stochastic(Fmt::F16, f(2f32.powi(-25)), 0x0fff, 13, false, false),
            0
        );
        // Packing: a in the upper bits; e2m1 takes a byte of random bits.
        let v = [f(1.0), f(-1.0), f(6.0), f(0.5)];
        assert_eq!(cvt_rs(Ty::E2M1x4, &v, 0, false, true), Some(0x2a71));
        // 1.25 in e2m1 lies between 1.0 (0x2) and 1.5 (0x3): half way.
        let w = [f(1.25); 4];
        assert_eq!(
            cvt_rs(Ty::E2M1x4, &w, 0x8000_8000, false, true),
            Some(0x3322)
        );
        assert_eq!(
            cvt_rs(Ty::F16x2, &[f(1.0), f(2.0)], 0, false, false),
            Some(0x3c00_4000)
        );
        assert_eq!(cvt_rs(Ty::E4M3x4, &[f(1.0); 3], 0, false, true), None);
    }
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
