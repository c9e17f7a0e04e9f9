//! Integer and bit-manipulation semantics, one lane at a time.
//!
//! Each operation takes its sources as `u64` bit patterns (already truncated
//! or extended by the register read) and the instruction type, and returns
//! the result bits; the destination write then extends them to the register
//! (see `Dst`). Everything wraps as the PTX ISA specifies; nothing panics
//! (division by zero gives all ones, as the hardware does for unsigned
//! division).

use crate::types::{mask, sext, Ty};

/// An integer operation. The sources are `a, b, c, d` in operand order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IOp {
    Add,
    Sub,
    AddSat,
    SubSat,
    MulLo,
    MulHi,
    MulWide,
    Mul24Lo,
    Mul24Hi,
    MadLo,
    MadHi,
    MadHiSat,
    MadWide,
    Mad24Lo,
    Mad24Hi,
    Mad24HiSat,
    Sad,
    Div,
    Rem,
    Abs,
    Neg,
    Min,
    Max,
    MinRelu,
    MaxRelu,
    Popc,
    Clz,
    Bfind,
    BfindShift,
    Brev,
    Bfe,
    Bfi,
    Fns,
    BmskClamp,
    BmskWrap,
    SzextClamp,
    SzextWrap,
    /// dp4a with signed a, signed b.
    Dp4a(bool, bool),
    /// dp2a: signed a, signed b, hi.
    Dp2a(bool, bool, bool),
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Lop3(u8),
    Shl,
    Shr,
    ShfL(bool),
    ShfR(bool),
    /// prmt with a mode (None: the generic selector form).
    Prmt(Option<PrmtMode>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
    Rc16,
}

/// How many source operands an operation reads.
pub fn arity(op: IOp) -> usize {
    use IOp::*;
    match op {
        Abs | Neg | Popc | Clz | Bfind | BfindShift | Brev | Not | Cnot => 1,
        MadLo | MadHi | MadHiSat | MadWide | Mad24Lo | Mad24Hi | Mad24HiSat | Sad | Bfe | Fns
        | Dp4a(..) | Dp2a(..) | Lop3(_) | ShfL(_) | ShfR(_) | Prmt(_) => 3,
        Bfi => 4,
        _ => 2,
    }
}

/// The width in bits of the result (before the destination extension).
pub fn result_bits(op: IOp, ty: Ty) -> u32 {
    match op {
        IOp::MulWide | IOp::MadWide => ty.bits() * 2,
        IOp::Popc | IOp::Clz | IOp::Bfind | IOp::BfindShift => 32,
        _ => ty.bits(),
    }
}

#[inline]
fn s(v: u64, bits: u32) -> i64 {
    sext(v, bits) as i64
}

/// Evaluates `op` on one lane.
#[inline]
pub fn eval(op: IOp, ty: Ty, a: u64, b: u64, c: u64, d: u64) -> u64 {
    let bits = ty.bits().min(64);
    let m = mask(bits);
    let signed = ty.is_signed();
    use IOp::*;
    match op {
        Add => a.wrapping_add(b) & m,
        Sub => a.wrapping_sub(b) & m,
        AddSat | SubSat => {
            let (x, y) = (s(a, bits) as i128, s(b, bits) as i128);
            let r = if op == AddSat { x + y } else { x - y };
            let max = (1i128 << (bits - 1)) - 1;
            (r.clamp(-max - 1, max) as u64) & m
        }
        MulLo => a.wrapping_mul(b) & m,
        MulHi | MulWide => {
            let p = if signed {
                (s(a, bits) as i128).wrapping_mul(s(b, bits) as i128) as u128
            } else {
                ((a & m) as u128) * ((b & m) as u128)
            };
            if op == MulHi {
                (p >> bits) as u64 & m
            } else {
                p as u64 & mask(bits * 2)
            }
        }
        Mul24Lo | Mul24Hi | Mad24Lo | Mad24Hi | Mad24HiSat => {
            let p: i64 = if signed {
                s(a, 24) * s(b, 24)
            } else {
                ((a & 0xff_ffff) * (b & 0xff_ffff)) as i64
            };
            let r = match op {
                Mul24Lo | Mad24Lo => p as u64 & 0xffff_ffff,
                _ => (p >> 16) as u64 & 0xffff_ffff,
            };
            match op {
                Mad24Lo | Mad24Hi => r.wrapping_add(c) & m,
                Mad24HiSat => {
                    let v = s(r, 32) as i128 + s(c, 32) as i128;
                    (v.clamp(i32::MIN as i128, i32::MAX as i128) as u64) & m
                }
                _ => r,
            }
        }
        MadLo => a.wrapping_mul(b).wrapping_add(c) & m,
        MadHi => eval(MulHi, ty, a, b, 0, 0).wrapping_add(c) & m,
        MadHiSat => {
            let hi = eval(MulHi, ty, a, b, 0, 0);
            let v = s(hi, bits) as i128 + s(c, bits) as i128;
            let max = (1i128 << (bits - 1)) - 1;
            (v.clamp(-max - 1, max) as u64) & m
        }
        MadWide => eval(MulWide, ty, a, b, 0, 0).wrapping_add(c) & mask(bits * 2),
        Sad => {
            let diff = if signed {
                (s(a, bits) as i128 - s(b, bits) as i128).unsigned_abs() as u64
            } else {
                (a & m).abs_diff(b & m)
            };
            c.wrapping_add(diff) & m
        }
        Div => {
            if b & m == 0 {
                m
            } else if signed {
                (s(a, bits).wrapping_div(s(b, bits)) as u64) & m
            } else {
                (a & m) / (b & m)
            }
        }
        Rem => {
            if b & m == 0 {
                a & m
            } else if signed {
                (s(a, bits).wrapping_rem(s(b, bits)) as u64) & m
            } else {
                (a & m) % (b & m)
            }
        }
        Abs => (s(a, bits).wrapping_abs() as u64) & m,
        Neg => a.wrapping_neg() & m,
        Min | Max | MinRelu | MaxRelu => {
            if ty.is_pair() {
                let lo = minmax(op, ty == Ty::S16x2, a & 0xffff, b & 0xffff, 16);
                let hi = minmax(
                    op,
                    ty == Ty::S16x2,
                    (a >> 16) & 0xffff,
                    (b >> 16) & 0xffff,
                    16,
                );
                lo | (hi << 16)
            } else {
                minmax(op, signed, a, b, bits)
            }
        }
        Popc => (a & m).count_ones() as u64,
        Clz => ((a & m).leading_zeros() - (64 - bits)) as u64,
        Bfind | BfindShift => {
            let v = if signed && s(a, bits) < 0 {
                !a & m
            } else {
                a & m
            };
            if v == 0 {
                0xffff_ffff
            } else {
                let pos = 63 - v.leading_zeros() as u64;
                if op == BfindShift {
                    bits as u64 - 1 - pos
                } else {
                    pos
                }
            }
        }
        Brev => (a & m).reverse_bits() >> (64 - bits),
        Bfe => {
            let msb = bits - 1;
            let pos = (b & 0xff) as u32;
            let len = (c & 0xff) as u32;
            let sbit = if signed && len != 0 {
                (a >> (pos + len - 1).min(msb)) & 1
            } else {
                0
            };
            let mut r = 0u64;
            for i in 0..bits {
                let bit = if i < len && pos + i <= msb {
                    (a >> (pos + i)) & 1
                } else {
                    sbit
                };
                r |= bit << i;
            }
            r
        }
        Bfi => {
            let msb = bits - 1;
            let pos = (c & 0xff) as u32;
            let len = (d & 0xff) as u32;
            let mut f = b & m;
            let mut i = 0;
            while i < len && pos + i <= msb {
                let bit = (a >> i) & 1;
                f = (f & !(1u64 << (pos + i))) | (bit << (pos + i));
                i += 1;
            }
            f
        }
        Fns => fns(a as u32, b as u32, c as u32 as i32) as u64,
        BmskClamp | BmskWrap => {
            let (pos, width) = if op == BmskWrap {
                (a & 0x1f, b & 0x1f)
            } else {
                ((a & 0xffff_ffff).min(32), (b & 0xffff_ffff).min(32))
            };
            let field = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            if pos >= 32 {
                0
            } else {
                (field << pos) & 0xffff_ffff
            }
        }
        SzextClamp | SzextWrap => {
            let w = if op == SzextWrap {
                (b & 0x1f) as u32
            } else {
                (b & 0xffff_ffff).min(32) as u32
            };
            if w >= 32 {
                a & m
            } else if w == 0 {
                0
            } else if signed {
                sext(a, w) & m
            } else {
                a & mask(w)
            }
        }
        Dp4a(sa, sb) => {
            let mut acc = c as u32;
            for i in 0..4 {
                let x = byte(a, i, sa);
                let y = byte(b, i, sb);
                acc = acc.wrapping_add((x * y) as u32);
            }
            acc as u64
        }
        Dp2a(sa, sb, hi) => {
            let mut acc = c as u32;
            for i in 0..2 {
                let h = (a >> (16 * i)) & 0xffff;
                let x = if sa { s(h, 16) } else { h as i64 };
                let y = byte(b, i + if hi { 2 } else { 0 }, sb);
                acc = acc.wrapping_add((x * y) as u32);
            }
            acc as u64
        }
        And => a & b & m,
        Or => (a | b) & m,
        Xor => (a ^ b) & m,
        Not => !a & m,
        Cnot => (a & m == 0) as u64,
        Lop3(lut) => {
            let mut r = 0u64;
            for i in 0..8 {
                if lut >> i & 1 == 1 {
                    let x = if i & 4 != 0 { a } else { !a };
                    let y = if i & 2 != 0 { b } else { !b };
                    let z = if i & 1 != 0 { c } else { !c };
                    r |= x & y & z;
                }
            }
            r & m
        }
        Shl => {
            let n = b & 0xffff_ffff;
            if n >= bits as u64 {
                0
            } else {
                (a << n) & m
            }
        }
        Shr => {
            let n = (b & 0xffff_ffff).min(bits as u64);
            if signed {
                let n = n.min(63);
                ((s(a, bits) >> n) as u64) & m
            } else if n >= bits as u64 {
                0
            } else {
                ((a & m) >> n) & m
            }
        }
        ShfL(clamp) | ShfR(clamp) => {
            let n = if clamp {
                (c & 0xffff_ffff).min(32)
            } else {
                c & 31
            };
            let wide = ((b & 0xffff_ffff) << 32) | (a & 0xffff_ffff);
            if matches!(op, ShfL(_)) {
                ((wide << n) >> 32) & 0xffff_ffff
            } else {
                (wide >> n) & 0xffff_ffff
            }
        }
        Prmt(mode) => prmt(a as u32, b as u32, c as u32, mode) as u64,
    }
}

fn byte(v: u64, i: u32, signed: bool) -> i64 {
    let b = (v >> (8 * i)) & 0xff;
    if signed {
        s(b, 8)
    } else {
        b as i64
    }
}

fn minmax(op: IOp, signed: bool, a: u64, b: u64, bits: u32) -> u64 {
    let m = mask(bits);
    let less = if signed {
        s(a, bits) < s(b, bits)
    } else {
        a & m < b & m
    };
    let r = match op {
        IOp::Min | IOp::MinRelu => {
            if less {
                a
            } else {
                b
            }
        }
        _ => {
            if less {
                b
            } else {
                a
            }
        }
    } & m;
    if matches!(op, IOp::MinRelu | IOp::MaxRelu) && s(r, bits) < 0 {
        0
    } else {
        r
    }
}

/// `fns.b32 d, mask, base, offset`: the position of the offset-th set bit of
/// `mask` counting from `base` (up for a positive offset, down for a
/// negative one, `base` itself for 0), or all ones.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if base >= 32 {
        return u32::MAX;
    }
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let mut remaining = offset.unsigned_abs();
    if offset > 0 {
        for pos in base..32 {
            if mask >> pos & 1 == 1 {
                remaining -= 1;
                if remaining == 0 {
                    return pos;
                }
            }
        }
    } else {
        for pos in (0..=base).rev() {
            if mask >> pos & 1 == 1 {
                remaining -= 1;
                if remaining == 0 {
                    return pos;
                }
            }
        }
    }
    u32::MAX
}

/// `prmt.b32`: picks bytes of `{b, a}` (a is bytes 0-3) by the selector `c`.
pub fn prmt(a: u32, b: u32, c: u32, mode: Option<PrmtMode>) -> u32 {
    let src = ((b as u64) << 32) | a as u64;
    let byte = |i: u32| ((src >> (8 * (i & 7))) & 0xff) as u32;
    let Some(mode) = mode else {
        let mut r = 0u32;
        for i in 0..4 {
            let sel = (c >> (4 * i)) & 0xf;
            let mut v = byte(sel & 7);
            if sel & 8 != 0 {
                v = if v & 0x80 != 0 { 0xff } else { 0 };
            }
            r |= v << (8 * i);
        }
        return r;
    };
    let s = c & 3;
    // Selected source bytes for d.b0, d.b1, d.b2, d.b3.
    let sel: [u32; 4] = match mode {
        PrmtMode::F4e => [s, s + 1, s + 2, s + 3],
        PrmtMode::B4e => [
            s,
            s.wrapping_sub(1) & 7,
            s.wrapping_sub(2) & 7,
            s.wrapping_sub(3) & 7,
        ],
        PrmtMode::Rc8 => [s; 4],
        PrmtMode::Ecl => [s, s.max(1), s.max(2), 3],
        PrmtMode::Ecr => [0, s.min(1), s.min(2), s],
        PrmtMode::Rc16 => {
            let lo = (s & 1) * 2;
            [lo, lo + 1, lo, lo + 1]
        }
    };
    sel.iter()
        .enumerate()
        .fold(0, |r, (i, &k)| r | (byte(k) << (8 * i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed() {
        assert_eq!(eval(IOp::MulHi, Ty::U64, u64::MAX, 2, 0, 0), 1);
        assert_eq!(
            eval(IOp::MulWide, Ty::S32, 0xffff_ffff, 3, 0, 0),
            (-3i64) as u64
        );
        assert_eq!(
            eval(IOp::Mul24Lo, Ty::U32, 0x0075_5555, 0x0075_5555, 0, 0),
            0x1c23_8e39
        );
        assert_eq!(
            eval(IOp::Mul24Hi, Ty::U32, 0x0075_5555, 0x0075_5555, 0, 0),
            0x35c7_1c23
        );
        assert_eq!(
            eval(IOp::AddSat, Ty::S32, 0x8000_0000, 0xffff_ffff, 0, 0),
            0x8000_0000
        );
        assert_eq!(
            eval(IOp::SubSat, Ty::S32, 0x8000_0000, 1, 0, 0),
            0x8000_0000
        );
        assert_eq!(eval(IOp::Clz, Ty::B32, 0x052d_13ab, 0, 0, 0), 5);
        assert_eq!(eval(IOp::Popc, Ty::B64, 0x9942_7d68_8bcb_5258, 0, 0, 0), 30);
        assert_eq!(eval(IOp::Brev, Ty::B32, 0xc75c_aefb, 0, 0, 0), 0xdf75_3ae3);
        assert_eq!(eval(IOp::Bfe, Ty::U32, 0xf8c1_22a0, 16, 8, 0), 0xc1);
        assert_eq!(eval(IOp::Bfe, Ty::S32, 0xf8c1_22a0, 16, 8, 0), 0xffff_ffc1);
        assert_eq!(eval(IOp::Bfi, Ty::B32, 2, 5, 0, 2), 6);
        assert_eq!(eval(IOp::BfindShift, Ty::U32, 0x2cd1_a4c1, 0, 0, 0), 2);
        assert_eq!(eval(IOp::Bfind, Ty::U32, 0, 0, 0, 0), 0xffff_ffff);
        assert_eq!(eval(IOp::Bfind, Ty::S32, 0xffff_ffff, 0, 0, 0), 0xffff_ffff);
        assert_eq!(eval(IOp::BmskClamp, Ty::B32, 24, 12, 0, 0), 0xff00_0000);
        assert_eq!(
            eval(IOp::ShfL(false), Ty::B32, 0x1234_5678, 0x9abc_def0, 12, 0),
            0xcdef_0123
        );
        assert_eq!(
            eval(IOp::ShfR(true), Ty::B32, 0x1234_5678, 0x9abc_def0, 44, 0),
            0x9abc_def0
        );
        assert_eq!(eval(IOp::Shr, Ty::S16, 0x8000, 100, 0, 0), 0xffff);
        assert_eq!(eval(IOp::Shr, Ty::S32, 0xffff_fffe, 1, 0, 0), 0xffff_ffff);
        assert_eq!(
            eval(
                IOp::Prmt(None),
                Ty::B32,
                0x70c5_07d6,
                0x6fbd_4b5c,
                0x7604,
                0
            ),
            0x6fbd_d65c
        );
        assert_eq!(
            eval(IOp::Prmt(None), Ty::B32, 0x0100_fe80, 0, 0x0008, 0),
            0x8080_80ff
        );
        assert_eq!(
            eval(IOp::Lop3(0x96), Ty::B32, 0b1100, 0b1010, 0b0110, 0),
            0b0000
        );
        assert_eq!(
            eval(IOp::Lop3(0xe8), Ty::B32, 0b1100, 0b1010, 0b0110, 0),
            0b1110
        );
        assert_eq!(
            eval(IOp::Sad, Ty::S64, 12, (-38i64) as u64, 0x393, 0),
            0x3c5
        );
        assert_eq!(eval(IOp::Div, Ty::U32, 7, 0, 0, 0), 0xffff_ffff);
        assert_eq!(
            eval(IOp::Div, Ty::S32, 0x8000_0000, 0xffff_ffff, 0, 0),
            0x8000_0000
        );
        assert_eq!(eval(IOp::Rem, Ty::S32, 0x54bc, 13, 0, 0), 8);
        assert_eq!(eval(IOp::Abs, Ty::S32, 0x8000_0000, 0, 0, 0), 0x8000_0000);
        assert_eq!(eval(IOp::Fns, Ty::B32, 0b1011_0100, 0, 2, 0), 4);
        assert_eq!(
            eval(IOp::Fns, Ty::B32, 0b1011_0100, 7, (-2i32) as u32 as u64, 0),
            5
        );
        assert_eq!(
            eval(IOp::Max, Ty::S16x2, 0x8000_0001, 0x0001_8000, 0, 0),
            0x0001_0001
        );
        assert_eq!(eval(IOp::SzextClamp, Ty::S32, 0xff, 8, 0, 0), 0xffff_ffff);
        assert_eq!(eval(IOp::SzextWrap, Ty::U32, 0x1ff, 8, 0, 0), 0xff);
    }

    #[test]
    fn prmt_modes() {
        let (a, b) = (0x0302_0100, 0x0706_0504);
        assert_eq!(prmt(a, b, 1, Some(PrmtMode::F4e)), 0x0403_0201);
        assert_eq!(prmt(a, b, 1, Some(PrmtMode::B4e)), 0x0607_0001);
        assert_eq!(prmt(a, b, 2, Some(PrmtMode::Rc8)), 0x0202_0202);
        assert_eq!(prmt(a, b, 1, Some(PrmtMode::Ecl)), 0x0302_0101);
        assert_eq!(prmt(a, b, 2, Some(PrmtMode::Ecr)), 0x0202_0100);
        assert_eq!(prmt(a, b, 1, Some(PrmtMode::Rc16)), 0x0302_0302);
    }
}
