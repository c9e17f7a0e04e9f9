//! Properties of the floating-point core, on random bit patterns (normals,
//! subnormals, zeros, infinities, NaNs):
//!
//! - round to nearest even equals the host's IEEE arithmetic, for f32 and
//!   f64 `add sub mul div fma sqrt`;
//! - `.rz/.rm/.rp` equal an independent oracle: the f64 result plus the sign
//!   of its exact error (TwoSum, the fma residuals of products, quotients and
//!   square roots) picks the f32 neighbour;
//! - conversions to f16 and bf16 in every mode equal a table oracle (all
//!   65536 encodings, sorted, binary-searched).

use proptest::prelude::*;
use ptx_emu::float::{
    convert, f32_binary, f32_fma, f32_sqrt, f64_binary, f64_fma, f64_sqrt, soft_binary, soft_fma,
    soft_sqrt, Fmt, Rnd, SoftOp,
};

/// Bit patterns weighted towards the interesting ones.
fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        // Close to one (so that sums and products round).
        (0x3f00_0000u32..0x4000_0000),
        // Subnormals and tiny normals.
        (0u32..0x0100_0000),
        (0x8000_0000u32..0x8100_0000),
        // Huge.
        (0x7f00_0000u32..0x7f80_0001),
        Just(0x7fc0_0000),
        Just(0x8000_0000),
    ]
}

fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (0x3fe0_0000_0000_0000u64..0x4000_0000_0000_0000),
        (0u64..0x0020_0000_0000_0000),
        (0x7fe0_0000_0000_0000u64..0x7ff0_0000_0000_0001),
    ]
}

fn same32(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

fn same64(a: u64, b: u64) -> bool {
    a == b || (f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan())
}

fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// Rounds `hi + err` (err: the sign of the exact error, with |err| less than
/// half an ulp of `hi`) to f32 with `mode`; None when the oracle does not
/// apply (NaN, infinities, f64 overflow).
fn oracle32(hi: f64, err: f64, mode: Rnd) -> Option<u32> {
    if !hi.is_finite() || err.is_nan() {
        return None;
    }
    let r = hi as f32; // round to nearest
    let (lower, upper) = if r as f64 == hi {
        if err == 0.0 {
            return Some(r.to_bits());
        } else if err > 0.0 {
            (r, next_up(r))
        } else {
            (next_down(r), r)
        }
    } else if (r as f64) < hi {
        (r, next_up(r))
    } else {
        (next_down(r), r)
    };
    let neg = hi < 0.0 || (hi == 0.0 && err < 0.0);
    let pick = match mode {
        Rnd::Rz => {
            if neg {
                upper
            } else {
                lower
            }
        }
        Rnd::Rm => lower,
        Rnd::Rp => upper,
        _ => return None,
    };
    // A zero result keeps the sign of the exact value.
    if pick == 0.0 {
        return Some(if neg { 0x8000_0000 } else { 0 });
    }
    Some(pick.to_bits())
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

proptest! {
    #[test]
    fn f32_round_to_nearest_matches_host(a in f32_bits(), b in f32_bits(), c in f32_bits()) {
        for op in [SoftOp::Add, SoftOp::Sub, SoftOp::Mul, SoftOp::Div] {
            let host = f32_binary(op, a, b, Rnd::Rn);
            let soft = soft_binary(Fmt::F32, op, a as u64, b as u64, Rnd::Rn) as u32;
            prop_assert!(same32(host, soft), "{:?} {:#x} {:#x}: {:#x} vs {:#x}", op, a, b, host, soft);
        }
        let host = f32_fma(a, b, c, Rnd::Rn);
        let soft = soft_fma(Fmt::F32, a as u64, b as u64, c as u64, Rnd::Rn) as u32;
        prop_assert!(same32(host, soft), "fma {:#x} {:#x} {:#x}", a, b, c);
        let host = f32_sqrt(a, Rnd::Rn);
        let soft = soft_sqrt(Fmt::F32, a as u64, Rnd::Rn) as u32;
        prop_assert!(same32(host, soft), "sqrt {:#x}", a);
    }

    #[test]
    fn f64_round_to_nearest_matches_host(a in f64_bits(), b in f64_bits(), c in f64_bits()) {
        for op in [SoftOp::Add, SoftOp::Sub, SoftOp::Mul, SoftOp::Div] {
            let host = f64_binary(op, a, b, Rnd::Rn);
            let soft = soft_binary(Fmt::F64, op, a, b, Rnd::Rn);
            prop_assert!(same64(host, soft), "{:?} {:#x} {:#x}", op, a, b);
        }
        let host = f64_fma(a, b, c, Rnd::Rn);
        let soft = soft_fma(Fmt::F64, a, b, c, Rnd::Rn);
        prop_assert!(same64(host, soft), "fma {:#x} {:#x} {:#x}", a, b, c);
        prop_assert!(same64(f64_sqrt(a, Rnd::Rn), soft_sqrt(Fmt::F64, a, Rnd::Rn)));
    }

    #[test]
    fn f32_directed_rounding_matches_the_oracle(a in f32_bits(), b in f32_bits(), c in f32_bits()) {
        let (x, y, z) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64, f32::from_bits(c) as f64);
        for mode in [Rnd::Rz, Rnd::Rm, Rnd::Rp] {
            // An exact zero sum is +0 or -0 by the mode (IEEE 754 6.3), which
            // the f64 oracle does not model; the unit tests cover it.
            let (s, e) = two_sum(x, y);
            if let Some(want) = oracle32(s, e, mode).filter(|_| s != 0.0 || e != 0.0) {
                let got = f32_binary(SoftOp::Add, a, b, mode);
                prop_assert_eq!(got, want, "add {:?} {:#x} {:#x}", mode, a, b);
            }
            // Products of two f32 are exact in f64.
            if let Some(want) = oracle32(x * y, 0.0, mode) {
                prop_assert_eq!(f32_binary(SoftOp::Mul, a, b, mode), want, "mul {:?} {:#x} {:#x}", mode, a, b);
            }
            if y != 0.0 {
                let q = x / y;
                let r = (-q).mul_add(y, x);
                if let Some(want) = oracle32(q, r * y.signum(), mode) {
                    prop_assert_eq!(f32_binary(SoftOp::Div, a, b, mode), want, "div {:?} {:#x} {:#x}", mode, a, b);
                }
            }
            let (s, e) = two_sum(x * y, z);
            if let Some(want) = oracle32(s, e, mode).filter(|_| s != 0.0 || e != 0.0) {
                prop_assert_eq!(f32_fma(a, b, c, mode), want, "fma {:?} {:#x} {:#x} {:#x}", mode, a, b, c);
            }
            if x >= 0.0 {
                let sq = x.sqrt();
                let r = (-sq).mul_add(sq, x);
                if let Some(want) = oracle32(sq, r, mode) {
                    prop_assert_eq!(f32_sqrt(a, mode), want, "sqrt {:?} {:#x}", mode, a);
                }
            }
        }
    }

    #[test]
    fn narrow_conversions_match_the_table(a in f32_bits()) {
        for (fmt, table) in [(Fmt::F16, &*F16_TABLE), (Fmt::BF16, &*BF16_TABLE)] {
            for mode in [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp] {
                let got = convert(Fmt::F32, fmt, a as u64, mode, false);
                let want = table_round(fmt, table, f32::from_bits(a) as f64, mode);
                prop_assert_eq!(got, want, "{:?} {:?} {:#x}", fmt, mode, a);
            }
        }
    }
}

/// Every finite non-negative value of a 16-bit format with its encoding,
/// sorted.
fn table(fmt: Fmt) -> Vec<(f64, u64)> {
    let mut t: Vec<(f64, u64)> = (0..0x8000u64)
        .map(|b| (fmt.to_f64(b), b))
        .filter(|(x, _)| x.is_finite())
        .collect();
    t.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    t
}

static F16_TABLE: std::sync::LazyLock<Vec<(f64, u64)>> =
    std::sync::LazyLock::new(|| table(Fmt::F16));
static BF16_TABLE: std::sync::LazyLock<Vec<(f64, u64)>> =
    std::sync::LazyLock::new(|| table(Fmt::BF16));

fn table_round(fmt: Fmt, t: &[(f64, u64)], x: f64, mode: Rnd) -> u64 {
    let sign = 1u64 << 15;
    if x.is_nan() {
        return fmt.nan();
    }
    let neg = x.is_sign_negative();
    let mag = x.abs();
    let inf = fmt.inf().unwrap();
    let (max, max_bits) = *t.last().unwrap();
    let with_sign = |b: u64| if neg { b | sign } else { b };
    if mag.is_infinite() {
        return with_sign(inf);
    }
    // Magnitude rounding direction: towards zero or away from it.
    let away = match mode {
        Rnd::Rz => false,
        Rnd::Rp => !neg,
        Rnd::Rm => neg,
        _ => false,
    };
    let i = t.partition_point(|(v, _)| *v <= mag);
    let (lo, lo_bits) = t[i - 1];
    if lo == mag {
        return with_sign(lo_bits);
    }
    if mag > max {
        // Beyond the largest finite value: the overflow threshold under rn is
        // max + half an ulp (the next power of two's midpoint).
        let ulp = max - t[t.len() - 2].0;
        return match mode {
            Rnd::Rn if mag >= max + ulp / 2.0 => with_sign(inf),
            Rnd::Rn => with_sign(max_bits),
            _ if away => with_sign(inf),
            _ => with_sign(max_bits),
        };
    }
    let (hi, hi_bits) = t[i];
    let pick_hi = match mode {
        Rnd::Rn => {
            let mid = (lo + hi) / 2.0;
            mag > mid || (mag == mid && hi_bits % 2 == 0)
        }
        _ => away,
    };
    with_sign(if pick_hi { hi_bits } else { lo_bits })
}
