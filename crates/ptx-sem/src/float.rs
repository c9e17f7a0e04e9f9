//! IEEE-exact floating point: formats, one rounding core, and software
//! arithmetic for the rounding modes the host does not offer.
//!
//! The host computes `f32`/`f64` `+ - * / sqrt fma` correctly rounded to
//! nearest-even, so the executor uses it for `.rn` (and the default mode). For
//! `.rz/.rm/.rp`, and for every narrow format (f16, bf16, tf32, e4m3, e5m2, ...),
//! the exact result is formed here as an integer significand and a power of two
//! (`value = sig * 2^exp`, with `sig: u128`), then [`round_pack`] rounds it once
//! into the target format with the requested mode. Where an exact significand
//! would not fit in 128 bits (wide alignments in `add`/`fma`, the quotient of
//! `div`, `sqrt`), the bits shifted out are "jammed" into the least significant
//! bit: the jammed value lies strictly between the same two neighbours of the
//! target format as the exact one and is never a tie, because at least 60 bits
//! are kept beyond the widest target precision (53 bits). So every result is
//! the correctly rounded exact result, which is what the PTX ISA specifies for
//! `.rn/.rz/.rm/.rp`.
//!
//! NaN results are the canonical NaN of the format (`0x7fffffff` for f32, as the
//! hardware writes); infinities and signed zeros follow IEEE 754.

use std::cmp::Ordering;

/// The rounding modes are the typed form every crate shares.
pub use ptx_isa::Rnd;

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    pub exp_bits: u32,
    /// Explicit fraction bits.
    pub man_bits: u32,
    /// IEEE-like: the all-ones exponent holds infinities and NaNs. When false
    /// (e4m3, the 4- and 6-bit formats) there is no infinity; e4m3 keeps one
    /// NaN encoding (`S.1111.111`), the 4/6-bit formats none.
    pub ieee: bool,
    /// Whether the format has a NaN encoding when not IEEE-like.
    pub has_nan: bool,
}

impl Fmt {
    pub const F64: Fmt = Fmt::ieee(11, 52);
    pub const F32: Fmt = Fmt::ieee(8, 23);
    pub const F16: Fmt = Fmt::ieee(5, 10);
    pub const BF16: Fmt = Fmt::ieee(8, 7);
    /// tf32 values are f32 bit patterns with the low 13 fraction bits zero;
    /// rounding uses this 10-bit-fraction format, encoding shifts it into f32.
    pub const TF32: Fmt = Fmt::ieee(8, 10);
    pub const E5M2: Fmt = Fmt::ieee(5, 2);
    pub const E4M3: Fmt = Fmt {
        exp_bits: 4,
        man_bits: 3,
        ieee: false,
        has_nan: true,
    };
    pub const E2M3: Fmt = Fmt {
        exp_bits: 2,
        man_bits: 3,
        ieee: false,
        has_nan: false,
    };
    pub const E3M2: Fmt = Fmt {
        exp_bits: 3,
        man_bits: 2,
        ieee: false,
        has_nan: false,
    };
    pub const E2M1: Fmt = Fmt {
        exp_bits: 2,
        man_bits: 1,
        ieee: false,
        has_nan: false,
    };

    const fn ieee(exp_bits: u32, man_bits: u32) -> Fmt {
        Fmt {
            exp_bits,
            man_bits,
            ieee: true,
            has_nan: true,
        }
    }

    pub const fn bits(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    pub const fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    /// The exponent of the smallest normal number.
    pub const fn emin(self) -> i32 {
        1 - self.bias()
    }

    fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.man_bits)
    }

    /// Largest finite magnitude, as bits.
    pub fn max_finite(self) -> u64 {
        let all_exp = (1u64 << self.exp_bits) - 1;
        let all_man = (1u64 << self.man_bits) - 1;
        if self.ieee {
            ((all_exp - 1) << self.man_bits) | all_man
        } else if self.has_nan {
            (all_exp << self.man_bits) | (all_man - 1)
        } else {
            (all_exp << self.man_bits) | all_man
        }
    }

    pub fn inf(self) -> Option<u64> {
        self.ieee
            .then(|| ((1u64 << self.exp_bits) - 1) << self.man_bits)
    }

    /// The canonical NaN (all ones but the sign); for formats without NaN, the
    /// largest finite value.
    pub fn nan(self) -> u64 {
        if self.ieee || self.has_nan {
            self.sign_bit() - 1
        } else {
            self.max_finite()
        }
    }

    pub fn is_nan(self, bits: u64) -> bool {
        let mag = bits & (self.sign_bit() - 1);
        let exp_mask = ((1u64 << self.exp_bits) - 1) << self.man_bits;
        if self.ieee {
            mag & exp_mask == exp_mask && mag & ((1 << self.man_bits) - 1) != 0
        } else {
            self.has_nan && mag == self.sign_bit() - 1
        }
    }

    /// Decodes bits of this format into an `f64` (exact: every format here
    /// fits).
    pub fn to_f64(self, bits: u64) -> f64 {
        let neg = bits & self.sign_bit() != 0;
        let exp = ((bits >> self.man_bits) & ((1 << self.exp_bits) - 1)) as i32;
        let man = bits & ((1 << self.man_bits) - 1);
        let all_exp = (1 << self.exp_bits) - 1;
        let mag = if self.ieee && exp == all_exp {
            if man == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else if self.is_nan(bits) {
            f64::NAN
        } else if exp == 0 {
            man as f64 * pow2(self.emin() - self.man_bits as i32)
        } else {
            (man | (1 << self.man_bits)) as f64 * pow2(exp - self.bias() - self.man_bits as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// Whether `bits` is a subnormal (nonzero with a zero exponent field).
    pub fn is_subnormal(self, bits: u64) -> bool {
        let exp = (bits >> self.man_bits) & ((1 << self.exp_bits) - 1);
        exp == 0 && bits & ((1 << self.man_bits) - 1) != 0
    }

    /// Flushes a subnormal to a zero of the same sign.
    pub fn ftz(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
}

/// `2^e` as an f64 (exact for every exponent used here).
pub fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        // Subnormal powers of two.
        f64::from_bits(1u64 << (e + 1074).max(0))
    }
}

/// A finite, nonzero value `(-1)^neg * sig * 2^exp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact {
    pub neg: bool,
    pub sig: u128,
    pub exp: i32,
}

/// What a floating-point operand is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Class {
    Nan,
    Inf(bool),
    Zero(bool),
    Finite(Exact),
}

/// Classifies bits of `fmt`.
pub fn classify(fmt: Fmt, bits: u64) -> Class {
    let neg = bits & fmt.sign_bit() != 0;
    let exp = ((bits >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1)) as i32;
    let man = (bits & ((1 << fmt.man_bits) - 1)) as u128;
    let all_exp = (1 << fmt.exp_bits) - 1;
    if fmt.is_nan(bits) {
        return Class::Nan;
    }
    if fmt.ieee && exp == all_exp {
        return Class::Inf(neg);
    }
    if exp == 0 && man == 0 {
        return Class::Zero(neg);
    }
    let (sig, e) = if exp == 0 {
        (man, fmt.emin() - fmt.man_bits as i32)
    } else {
        (
            man | (1 << fmt.man_bits),
            exp - fmt.bias() - fmt.man_bits as i32,
        )
    };
    Class::Finite(Exact { neg, sig, exp: e })
}

/// Packs a sign and magnitude bits.
fn with_sign(fmt: Fmt, neg: bool, mag: u64) -> u64 {
    if neg {
        mag | fmt.sign_bit()
    } else {
        mag
    }
}

/// The value a signed zero, infinity or NaN takes in `fmt`.
pub fn special(fmt: Fmt, class: Class) -> u64 {
    match class {
        Class::Nan => fmt.nan(),
        Class::Inf(neg) => match fmt.inf() {
            Some(inf) => with_sign(fmt, neg, inf),
            None => fmt.nan(),
        },
        Class::Zero(neg) => with_sign(fmt, neg, 0),
        Class::Finite(x) => round_pack(fmt, x, Rnd::Rn, false),
    }
}

/// Rounds an exact (or sticky-jammed, see the module docs) nonzero value into
/// `fmt` with `mode`. `satfinite`: overflow gives the largest finite value
/// (and NaN stays NaN, handled by the caller).
pub fn round_pack(fmt: Fmt, x: Exact, mode: Rnd, satfinite: bool) -> u64 {
    debug_assert!(x.sig != 0);
    let msb = 127 - x.sig.leading_zeros() as i32;
    // floor(log2(value)).
    let e = x.exp + msb;
    let e_clamped = e.max(fmt.emin());
    // The weight of the last fraction bit at this exponent.
    let q_exp = e_clamped - fmt.man_bits as i32;
    let shift = q_exp - x.exp;
    // m = the number of quanta, before rounding; r: the remainder class.
    let (low, above_half, is_half, nonzero_rem) = if shift <= 0 {
        (x.sig << (-shift) as u32, false, false, false)
    } else if shift > 128 {
        (0u128, false, false, true)
    } else if shift == 128 {
        let half = 1u128 << 127;
        (
            0,
            x.sig > half,
            x.sig == half,
            true, // nonzero by construction
        )
    } else {
        let rem = x.sig & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        (x.sig >> shift, rem > half, rem == half, rem != 0)
    };
    let round_up = match mode {
        Rnd::Rn => above_half || (is_half && low & 1 == 1),
        Rnd::Rna => above_half || is_half,
        Rnd::Rz => false,
        Rnd::Rp => !x.neg && nonzero_rem,
        Rnd::Rm => x.neg && nonzero_rem,
    };
    let m = low + round_up as u128;
    if m == 0 {
        return with_sign(fmt, x.neg, 0);
    }
    // Encode: ((e_clamped - emin) << man_bits) + m handles subnormals, the
    // carry into the next binade and normal numbers alike.
    let biased = (e_clamped - fmt.emin()) as i128;
    let enc = (biased << fmt.man_bits) + m as i128;
    let max = fmt.max_finite() as i128;
    if enc > max {
        let to_inf = match mode {
            Rnd::Rn | Rnd::Rna => true,
            Rnd::Rz => false,
            Rnd::Rp => !x.neg,
            Rnd::Rm => x.neg,
        };
        let mag = if satfinite || !to_inf {
            fmt.max_finite()
        } else {
            match fmt.inf() {
                Some(inf) => inf,
                None => return fmt.nan() | if x.neg { fmt.sign_bit() } else { 0 },
            }
        };
        return with_sign(fmt, x.neg, mag);
    }
    with_sign(fmt, x.neg, enc as u64)
}

/// Converts bits of `from` into `to` with rounding (`cvt` between float types).
pub fn convert(from: Fmt, to: Fmt, bits: u64, mode: Rnd, satfinite: bool) -> u64 {
    match classify(from, bits) {
        Class::Finite(x) => round_pack(to, x, mode, satfinite),
        Class::Nan => to.nan(),
        Class::Inf(neg) if satfinite => with_sign(to, neg, to.max_finite()),
        c => special(to, c),
    }
}

/// An `f64` as an exact value (None for zero, infinities, NaN).
pub fn exact_f64(x: f64) -> Option<Exact> {
    match classify(Fmt::F64, x.to_bits()) {
        Class::Finite(e) => Some(e),
        _ => None,
    }
}

/// Rounds an integer (as sign and magnitude) into `fmt`.
pub fn from_int(fmt: Fmt, neg: bool, mag: u128, mode: Rnd) -> u64 {
    if mag == 0 {
        return 0;
    }
    round_pack(
        fmt,
        Exact {
            neg,
            sig: mag,
            exp: 0,
        },
        mode,
        false,
    )
}

/// Shifts `sig` right by `n` bits, jamming the bits shifted out into the
/// least significant bit.
fn shr_jam(sig: u128, n: u32) -> u128 {
    if n == 0 {
        sig
    } else if n >= 128 {
        (sig != 0) as u128
    } else {
        (sig >> n) | ((sig & ((1u128 << n) - 1)) != 0) as u128
    }
}

/// Normalizes a nonzero significand so its top bit is at bit 125.
fn norm125(x: Exact) -> Exact {
    let msb = 127 - x.sig.leading_zeros() as i32;
    let shift = 125 - msb;
    if shift >= 0 {
        Exact {
            neg: x.neg,
            sig: x.sig << shift,
            exp: x.exp - shift,
        }
    } else {
        Exact {
            neg: x.neg,
            sig: shr_jam(x.sig, (-shift) as u32),
            exp: x.exp - shift,
        }
    }
}

/// The exact (or jammed) sum of two finite values; None when it is exactly 0.
pub fn add_exact(a: Exact, b: Exact) -> Option<Exact> {
    let (a, b) = (norm125(a), norm125(b));
    let (hi, lo) = if a.exp >= b.exp { (a, b) } else { (b, a) };
    let d = (hi.exp - lo.exp) as u32;
    let lo_sig = shr_jam(lo.sig, d);
    if hi.neg == lo.neg {
        Some(Exact {
            neg: hi.neg,
            sig: hi.sig + lo_sig,
            exp: hi.exp,
        })
    } else {
        match hi.sig.cmp(&lo_sig) {
            Ordering::Equal => None,
            Ordering::Greater => Some(Exact {
                neg: hi.neg,
                sig: hi.sig - lo_sig,
                exp: hi.exp,
            }),
            Ordering::Less => Some(Exact {
                neg: lo.neg,
                sig: lo_sig - hi.sig,
                exp: hi.exp,
            }),
        }
    }
}

/// The exact product of two finite values whose significands fit in 64 bits.
pub fn mul_exact(a: Exact, b: Exact) -> Exact {
    Exact {
        neg: a.neg != b.neg,
        sig: a.sig * b.sig,
        exp: a.exp + b.exp,
    }
}

/// A binary operation of the software floating point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b` in `fmt` with rounding `mode`, correctly rounded.
pub fn soft_binary(fmt: Fmt, op: SoftOp, a: u64, b: u64, mode: Rnd) -> u64 {
    let (ca, mut cb) = (classify(fmt, a), classify(fmt, b));
    if op == SoftOp::Sub {
        cb = negate(cb);
    }
    let zero_sign_sum = |na: bool, nb: bool| {
        if na == nb {
            na
        } else {
            mode == Rnd::Rm
        }
    };
    match op {
        SoftOp::Add | SoftOp::Sub => match (ca, cb) {
            (Class::Nan, _) | (_, Class::Nan) => fmt.nan(),
            (Class::Inf(x), Class::Inf(y)) if x != y => fmt.nan(),
            (Class::Inf(x), _) | (_, Class::Inf(x)) => special(fmt, Class::Inf(x)),
            (Class::Zero(x), Class::Zero(y)) => with_sign(fmt, zero_sign_sum(x, y), 0),
            (Class::Zero(_), Class::Finite(v)) | (Class::Finite(v), Class::Zero(_)) => {
                round_pack(fmt, v, mode, false)
            }
            (Class::Finite(x), Class::Finite(y)) => match add_exact(x, y) {
                Some(s) => round_pack(fmt, s, mode, false),
                None => with_sign(fmt, mode == Rnd::Rm, 0),
            },
        },
        SoftOp::Mul => {
            let neg = sign_of(ca) != sign_of(cb);
            match (ca, cb) {
                (Class::Nan, _) | (_, Class::Nan) => fmt.nan(),
                (Class::Inf(_), Class::Zero(_)) | (Class::Zero(_), Class::Inf(_)) => fmt.nan(),
                (Class::Inf(_), _) | (_, Class::Inf(_)) => special(fmt, Class::Inf(neg)),
                (Class::Zero(_), _) | (_, Class::Zero(_)) => with_sign(fmt, neg, 0),
                (Class::Finite(x), Class::Finite(y)) => {
                    round_pack(fmt, mul_exact(x, y), mode, false)
                }
            }
        }
        SoftOp::Div => {
            let neg = sign_of(ca) != sign_of(cb);
            match (ca, cb) {
                (Class::Nan, _) | (_, Class::Nan) => fmt.nan(),
                (Class::Inf(_), Class::Inf(_)) | (Class::Zero(_), Class::Zero(_)) => fmt.nan(),
                (Class::Inf(_), _) => special(fmt, Class::Inf(neg)),
                (_, Class::Inf(_)) => with_sign(fmt, neg, 0),
                (Class::Zero(_), _) => with_sign(fmt, neg, 0),
                (_, Class::Zero(_)) => special(fmt, Class::Inf(neg)),
                (Class::Finite(x), Class::Finite(y)) => {
                    // x.sig, y.sig < 2^53: scale the dividend to 127 bits.
                    let xs = x.sig << (x.sig.leading_zeros() - 1);
                    let shift = (x.sig.leading_zeros() - 1) as i32;
                    let q = xs / y.sig;
                    let r = xs % y.sig;
                    let sig = (q << 1) | (r != 0) as u128;
                    let exp = x.exp - shift - y.exp - 1;
                    round_pack(fmt, Exact { neg, sig, exp }, mode, false)
                }
            }
        }
    }
}

/// `a * b + c` in `fmt`, rounded once.
pub fn soft_fma(fmt: Fmt, a: u64, b: u64, c: u64, mode: Rnd) -> u64 {
    let (ca, cb, cc) = (classify(fmt, a), classify(fmt, b), classify(fmt, c));
    let pneg = sign_of(ca) != sign_of(cb);
    let product = match (ca, cb) {
        (Class::Nan, _) | (_, Class::Nan) => return fmt.nan(),
        (Class::Inf(_), Class::Zero(_)) | (Class::Zero(_), Class::Inf(_)) => return fmt.nan(),
        (Class::Inf(_), _) | (_, Class::Inf(_)) => Class::Inf(pneg),
        (Class::Zero(_), _) | (_, Class::Zero(_)) => Class::Zero(pneg),
        (Class::Finite(x), Class::Finite(y)) => Class::Finite(mul_exact(x, y)),
    };
    match (product, cc) {
        (_, Class::Nan) => fmt.nan(),
        (Class::Inf(x), Class::Inf(y)) if x != y => fmt.nan(),
        (Class::Inf(x), _) | (_, Class::Inf(x)) => special(fmt, Class::Inf(x)),
        (Class::Zero(x), Class::Zero(y)) => {
            let neg = if x == y { x } else { mode == Rnd::Rm };
            with_sign(fmt, neg, 0)
        }
        (Class::Zero(_), Class::Finite(v)) | (Class::Finite(v), Class::Zero(_)) => {
            round_pack(fmt, v, mode, false)
        }
        (Class::Finite(p), Class::Finite(v)) => match add_exact(p, v) {
            Some(s) => round_pack(fmt, s, mode, false),
            None => with_sign(fmt, mode == Rnd::Rm, 0),
        },
        (Class::Nan, _) => fmt.nan(),
    }
}

/// `sqrt(a)` in `fmt`, correctly rounded.
pub fn soft_sqrt(fmt: Fmt, a: u64, mode: Rnd) -> u64 {
    match classify(fmt, a) {
        Class::Nan => fmt.nan(),
        Class::Zero(neg) => with_sign(fmt, neg, 0),
        Class::Inf(false) => special(fmt, Class::Inf(false)),
        Class::Inf(true) => fmt.nan(),
        Class::Finite(x) if x.neg => fmt.nan(),
        Class::Finite(x) => {
            // Scale sig to ~120 bits with an even exponent.
            let lz = x.sig.leading_zeros() as i32;
            let mut shift = lz - 6;
            if (x.exp - shift) % 2 != 0 {
                shift += 1;
            }
            let s = x.sig << shift;
            let exp = x.exp - shift;
            let root = isqrt(s);
            let exact = root * root == s;
            let sig = (root << 1) | (!exact) as u128;
            round_pack(
                fmt,
                Exact {
                    neg: false,
                    sig,
                    exp: exp / 2 - 1,
                },
                mode,
                false,
            )
        }
    }
}

/// floor(sqrt(n)).
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    let mut x = (n as f64).sqrt() as u128;
    // Correct the float estimate.
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

fn negate(c: Class) -> Class {
    match c {
        Class::Inf(n) => Class::Inf(!n),
        Class::Zero(n) => Class::Zero(!n),
        Class::Finite(x) => Class::Finite(Exact { neg: !x.neg, ..x }),
        Class::Nan => Class::Nan,
    }
}

fn sign_of(c: Class) -> bool {
    match c {
        Class::Inf(n) | Class::Zero(n) => n,
        Class::Finite(x) => x.neg,
        Class::Nan => false,
    }
}

/// Rounds an `f64` to an integral value with `mode`.
pub fn round_integral(x: f64, mode: Rnd) -> f64 {
    match mode {
        Rnd::Rn => x.round_ties_even(),
        Rnd::Rna => x.round(),
        Rnd::Rz => x.trunc(),
        Rnd::Rm => x.floor(),
        Rnd::Rp => x.ceil(),
    }
}

/// Converts a float (as f64) to an integer of `bits` width with rounding and
/// saturation, as `cvt.rXi.{s,u}N.fM` does: NaN gives 0.
pub fn to_int(x: f64, mode: Rnd, bits: u32, signed: bool) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_integral(x, mode);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if signed {
        let max = (1i128 << (bits - 1)) - 1;
        let min = -(1i128 << (bits - 1));
        let v = if r >= max as f64 {
            max
        } else if r <= min as f64 {
            min
        } else {
            r as i128
        };
        (v as u64) & mask
    } else {
        let max = mask as u128;
        if r <= 0.0 {
            0
        } else if r >= max as f64 {
            mask
        } else {
            r as u64
        }
    }
}

/// Converts an integer to float bits of `fmt` with rounding.
pub fn int_to_float(fmt: Fmt, v: u64, bits: u32, signed: bool, mode: Rnd) -> u64 {
    let v = if bits == 64 { v } else { v & ((1 << bits) - 1) };
    if signed {
        let sv = if bits == 64 {
            v as i64
        } else {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        };
        from_int(fmt, sv < 0, sv.unsigned_abs() as u128, mode)
    } else {
        from_int(fmt, false, v as u128, mode)
    }
}

/// f32 with a directed rounding mode (or `.rn` when `mode` is Rn, through the
/// host).
pub fn f32_binary(op: SoftOp, a: u32, b: u32, mode: Rnd) -> u32 {
    if mode == Rnd::Rn {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let r = match op {
            SoftOp::Add => x + y,
            SoftOp::Sub => x - y,
            SoftOp::Mul => x * y,
            SoftOp::Div => x / y,
        };
        return canon32(r);
    }
    soft_binary(Fmt::F32, op, a as u64, b as u64, mode) as u32
}

/// f64 counterpart of [`f32_binary`].
pub fn f64_binary(op: SoftOp, a: u64, b: u64, mode: Rnd) -> u64 {
    if mode == Rnd::Rn {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let r = match op {
            SoftOp::Add => x + y,
            SoftOp::Sub => x - y,
            SoftOp::Mul => x * y,
            SoftOp::Div => x / y,
        };
        return canon64(r);
    }
    soft_binary(Fmt::F64, op, a, b, mode)
}

pub fn f32_fma(a: u32, b: u32, c: u32, mode: Rnd) -> u32 {
    if mode == Rnd::Rn {
        let r = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
        return canon32(r);
    }
    soft_fma(Fmt::F32, a as u64, b as u64, c as u64, mode) as u32
}

pub fn f64_fma(a: u64, b: u64, c: u64, mode: Rnd) -> u64 {
    if mode == Rnd::Rn {
        let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
        return canon64(r);
    }
    soft_fma(Fmt::F64, a, b, c, mode)
}

pub fn f32_sqrt(a: u32, mode: Rnd) -> u32 {
    if mode == Rnd::Rn {
        return canon32(f32::from_bits(a).sqrt());
    }
    soft_sqrt(Fmt::F32, a as u64, mode) as u32
}

pub fn f64_sqrt(a: u64, mode: Rnd) -> u64 {
    if mode == Rnd::Rn {
        return canon64(f64::from_bits(a).sqrt());
    }
    soft_sqrt(Fmt::F64, a, mode)
}

/// The bits of an f32 result, with NaNs made canonical.
pub fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        0x7fff_ffff
    } else {
        x.to_bits()
    }
}

/// The bits of an f64 result, with NaNs made canonical.
pub fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        0x7fff_ffff_ffff_ffff
    } else {
        x.to_bits()
    }
}

/// Flushes an f32 subnormal to a signed zero (`.ftz`).
pub fn ftz32(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// f16 arithmetic, correctly rounded (`add/sub/mul` through f64, where the
/// result is exact before the one rounding; `fma` through the soft core).
pub fn half_binary(fmt: Fmt, op: SoftOp, a: u64, b: u64, mode: Rnd) -> u64 {
    if mode == Rnd::Rn && op != SoftOp::Div {
        let (x, y) = (fmt.to_f64(a), fmt.to_f64(b));
        let r = match op {
            SoftOp::Add => x + y,
            SoftOp::Sub => x - y,
            _ => x * y,
        };
        // Sums of f16/bf16 values are exact in f64 except for bf16 sums with
        // exponents far apart; those go through the soft core.
        let exact = op == SoftOp::Mul || fmt.exp_bits <= 5;
        if exact {
            return from_f64(fmt, r, mode);
        }
    }
    soft_binary(fmt, op, a, b, mode)
}

/// Rounds an f64 (taken as exact) into `fmt`.
pub fn from_f64(fmt: Fmt, x: f64, mode: Rnd) -> u64 {
    convert(Fmt::F64, fmt, x.to_bits(), mode, false)
}

/// Rounds an f64 into `fmt` with saturation to the largest finite value.
pub fn from_f64_sat(fmt: Fmt, x: f64, mode: Rnd) -> u64 {
    convert(Fmt::F64, fmt, x.to_bits(), mode, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding_ties_and_directed() {
        // 1 + 2^-11 is halfway between 1 and the next f16 (1 + 2^-10).
        let x = 1.0 + pow2(-11);
        assert_eq!(from_f64(Fmt::F16, x, Rnd::Rn), 0x3c00); // ties to even
        assert_eq!(from_f64(Fmt::F16, x, Rnd::Rp), 0x3c01);
        assert_eq!(from_f64(Fmt::F16, x, Rnd::Rz), 0x3c00);
        assert_eq!(from_f64(Fmt::F16, -x, Rnd::Rm), 0xbc01);
        assert_eq!(from_f64(Fmt::F16, 1.0 + 3.0 * pow2(-11), Rnd::Rn), 0x3c02);
        // Overflow: 65520 rounds to inf under rn, 65504 under rz.
        assert_eq!(from_f64(Fmt::F16, 65520.0, Rnd::Rn), 0x7c00);
        assert_eq!(from_f64(Fmt::F16, 65519.0, Rnd::Rn), 0x7bff);
        assert_eq!(from_f64(Fmt::F16, 1e9, Rnd::Rz), 0x7bff);
        // Smallest subnormal 2^-24, and half of it ties to zero.
        assert_eq!(from_f64(Fmt::F16, pow2(-24), Rnd::Rn), 0x0001);
        assert_eq!(from_f64(Fmt::F16, pow2(-25), Rnd::Rn), 0x0000);
        assert_eq!(from_f64(Fmt::F16, pow2(-25), Rnd::Rp), 0x0001);
        assert_eq!(from_f64(Fmt::F16, 3.0 * pow2(-26), Rnd::Rn), 0x0001);
    }

    #[test]
    fn bf16_and_fp8() {
        assert_eq!(from_f64(Fmt::BF16, 1.0, Rnd::Rn), 0x3f80);
        // 0x3f808000 (f32) is a tie between bf16 0x3f80 and 0x3f81.
        let tie = f32::from_bits(0x3f80_8000) as f64;
        assert_eq!(from_f64(Fmt::BF16, tie, Rnd::Rn), 0x3f80);
        let tie2 = f32::from_bits(0x3f81_8000) as f64;
        assert_eq!(from_f64(Fmt::BF16, tie2, Rnd::Rn), 0x3f82);
        assert_eq!(from_f64_sat(Fmt::E4M3, 0.40625, Rnd::Rn), 0x2d);
        assert_eq!(from_f64_sat(Fmt::E4M3, 12.9, Rnd::Rn), 0x55);
        assert_eq!(from_f64_sat(Fmt::E4M3, 1000.0, Rnd::Rn), 0x7e);
        assert_eq!(Fmt::E4M3.to_f64(0x7e), 448.0);
        assert!(Fmt::E4M3.to_f64(0x7f).is_nan());
        assert_eq!(from_f64_sat(Fmt::E5M2, 1e9, Rnd::Rn), 0x7b);
        assert_eq!(from_f64(Fmt::E5M2, 1e9, Rnd::Rn), 0x7c);
    }

    #[test]
    fn soft_f32_matches_host_rn() {
        let vals: Vec<u32> = vec![
            0,
            0x8000_0000,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x3f80_0001,
            0x4049_0fdb,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x3400_0000,
            0x3380_0000,
            0xbf80_0001,
            0x1234_5678,
            0x9234_5678,
            0x7f80_0000,
            0x6c00_0000,
            0x1000_0000,
        ];
        for &a in &vals {
            for &b in &vals {
                for op in [SoftOp::Add, SoftOp::Sub, SoftOp::Mul, SoftOp::Div] {
                    let host = f32_binary(op, a, b, Rnd::Rn);
                    let soft = soft_binary(Fmt::F32, op, a as u64, b as u64, Rnd::Rn) as u32;
                    assert_eq!(host, soft, "{op:?} {a:#x} {b:#x}");
                }
                for &c in &vals {
                    let host = f32_fma(a, b, c, Rnd::Rn);
                    let soft = soft_fma(Fmt::F32, a as u64, b as u64, c as u64, Rnd::Rn) as u32;
                    assert_eq!(host, soft, "fma {a:#x} {b:#x} {c:#x}");
                }
            }
            assert_eq!(
                f32_sqrt(a, Rnd::Rn),
                soft_sqrt(Fmt::F32, a as u64, Rnd::Rn) as u32,
                "sqrt {a:#x}"
            );
        }
    }

    #[test]
    fn directed_add() {
        // 1 + 2^-30 in f32: rz/rm give 1, rp gives next up.
        let one = 1.0f32.to_bits();
        let tiny = (pow2(-30) as f32).to_bits();
        assert_eq!(f32_binary(SoftOp::Add, one, tiny, Rnd::Rz), one);
        assert_eq!(f32_binary(SoftOp::Add, one, tiny, Rnd::Rm), one);
        assert_eq!(f32_binary(SoftOp::Add, one, tiny, Rnd::Rp), one + 1);
        assert_eq!(f32_binary(SoftOp::Sub, one, tiny, Rnd::Rz), 0x3f7f_ffff);
        // x - x is +0 except under rm.
        assert_eq!(f32_binary(SoftOp::Sub, one, one, Rnd::Rp), 0);
        assert_eq!(f32_binary(SoftOp::Sub, one, one, Rnd::Rm), 0x8000_0000);
        // Overflow under rz saturates.
        let max = 0x7f7f_ffff;
        assert_eq!(f32_binary(SoftOp::Mul, max, max, Rnd::Rz), max);
        assert_eq!(f32_binary(SoftOp::Mul, max, max, Rnd::Rm), max);
        assert_eq!(f32_binary(SoftOp::Mul, max, max, Rnd::Rp), 0x7f80_0000);
    }

    #[test]
    fn ints() {
        assert_eq!(to_int(-13.8, Rnd::Rz, 32, true), 0xffff_fff3);
        assert_eq!(to_int(1e20, Rnd::Rn, 32, true), 0x7fff_ffff);
        assert_eq!(to_int(-5.0, Rnd::Rn, 16, false), 0);
        assert_eq!(to_int(65535.5, Rnd::Rn, 16, false), 0xffff);
        assert_eq!(
            int_to_float(Fmt::F32, u64::MAX, 64, false, Rnd::Rz),
            0x5f7f_ffff
        );
        assert_eq!(
            int_to_float(Fmt::F32, u64::MAX, 64, false, Rnd::Rn),
            0x5f80_0000
        );
        assert_eq!(
            int_to_float(Fmt::F32, 0xffff_ffff, 32, true, Rnd::Rn),
            0xbf80_0000
        );
    }
}
