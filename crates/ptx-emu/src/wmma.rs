//! Warp-level matrix operations: `wmma.load.{a,b,c}`, `wmma.mma`,
//! `wmma.store.d`, for the shapes and types of the PTX ISA's `wmma` section
//! (`m16n16k16`, `m32n8k16`, `m8n32k16` with `.f16`/`.bf16` multiplicands
//! and `.f16`/`.f32` accumulators or `.s8`/`.u8` with `.s32`; `m16n16k8`
//! `.tf32`; `m8n8k4` `.f64`; `m8n8k32` `.s4`/`.u4`; `m8n8k128` `.b1` with
//! `.xor.popc`/`.and.popc`).
//!
//! # The fragment layout (the emulator's choice)
//!
//! The ISA leaves the distribution of a fragment's elements over the lanes
//! unspecified ("implementation-defined"); a program may only pass a
//! fragment from `wmma.load` to `wmma.mma` to `wmma.store` (or operate on
//! every element alike). The emulator picks one layout and uses it for all
//! three, so a loaded, multiplied and stored result is the matrix product:
//!
//! - a fragment of an `R x C` matrix has, per lane, `regs x (reg_bits /
//!   elem_bits)` element slots (`reg_bits` 64 for `.f64`, else 32; slot `s`
//!   is bits `(s % per_reg) * elem_bits` of register `s / per_reg`), so the
//!   warp holds `32 x slots` positions;
//! - position `p` is slot `p % slots` of lane `p / slots`; it holds element
//!   `e = p mod (R * C)` of the matrix in row-major order (row `e / C`, column
//!   `e % C`) whatever the `.row`/`.col` layout of memory, which only says
//!   how `wmma.load`/`wmma.store` address memory. Where the ISA's register
//!   count gives more positions than elements (`.f16` A and B fragments hold
//!   every element twice), the matrix repeats;
//! - `wmma.mma` and `wmma.store` read element `e` at position `e` (0 when the
//!   fragment is too small: a fragment of another shape is undefined
//!   behaviour, never a crash).
//!
//! Memory: element `(r, c)` of a `.row` matrix is at element `r * ld + c`
//! from the address, of a `.col` matrix at `c * ld + r`; `ld` is the stride
//! operand (in elements), by default the matrix's columns (`.row`) or rows
//! (`.col`). Sub-byte elements (`.s4`, `.u4`, `.b1`) are packed from the
//! least significant bit of each byte.
//!
//! Arithmetic, as `mma.sync` in [`crate::mma`]: products of `f16`, `bf16`,
//! `tf32` (the low 13 bits of the `f32` ignored) and `f64` values are summed
//! with `C` in `f64` and rounded once to the result type (`.satfinite` on a
//! float result turns infinities into the largest finite value of their
//! sign); integer forms sum exactly and wrap, or clamp with `.satfinite`;
//! `.b1` adds `popc(a_row OP b_col)` (`OP` `.xor` or `.and`) to `C`.

use crate::float::{from_f64, Fmt, Rnd};

/// An element type of a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WTy {
    F16,
    BF16,
    TF32,
    F32,
    F64,
    S8,
    U8,
    S32,
    S4,
    U4,
    B1,
}

impl WTy {
    pub fn parse(m: &str) -> Option<WTy> {
        Some(match m {
            ".f16" => WTy::F16,
            ".bf16" => WTy::BF16,
            ".tf32" => WTy::TF32,
            ".f32" => WTy::F32,
            ".f64" => WTy::F64,
            ".s8" => WTy::S8,
            ".u8" => WTy::U8,
            ".s32" => WTy::S32,
            ".s4" => WTy::S4,
            ".u4" => WTy::U4,
            ".b1" => WTy::B1,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            WTy::F16 | WTy::BF16 => 16,
            WTy::TF32 | WTy::F32 | WTy::S32 => 32,
            WTy::F64 => 64,
            WTy::S8 | WTy::U8 => 8,
            WTy::S4 | WTy::U4 => 4,
            WTy::B1 => 1,
        }
    }

    pub fn reg_bits(self) -> u32 {
        if self == WTy::F64 {
            64
        } else {
            32
        }
    }

    fn is_int(self) -> bool {
        matches!(
            self,
            WTy::S8 | WTy::U8 | WTy::S32 | WTy::S4 | WTy::U4 | WTy::B1
        )
    }

    /// The value of an element's bits.
    fn value(self, b: u64) -> f64 {
        match self {
            WTy::F16 => Fmt::F16.to_f64(b & 0xffff),
            WTy::BF16 => Fmt::BF16.to_f64(b & 0xffff),
            WTy::TF32 => f32::from_bits(b as u32 & 0xffff_e000) as f64,
            WTy::F32 => f32::from_bits(b as u32) as f64,
            WTy::F64 => f64::from_bits(b),
            _ => self.int(b) as f64,
        }
    }

    fn int(self, b: u64) -> i64 {
        match self {
            WTy::S8 => b as u8 as i8 as i64,
            WTy::U8 => (b & 0xff) as i64,
            WTy::S32 => b as u32 as i32 as i64,
            WTy::S4 => ((b as u8) << 4) as i8 as i64 >> 4,
            WTy::U4 => (b & 0xf) as i64,
            WTy::B1 => (b & 1) as i64,
            _ => self.value(b) as i64,
        }
    }
}

/// Which matrix a fragment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frag {
    A,
    B,
    C,
}

/// `.xor.popc` / `.and.popc` of `.b1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    Xor,
    And,
}

/// Rows and columns of a fragment's matrix for shape `mnk`.
pub fn frag_dims(frag: Frag, (m, n, k): (u32, u32, u32)) -> (u32, u32) {
    match frag {
        Frag::A => (m, k),
        Frag::B => (k, n),
        Frag::C => (m, n),
    }
}

/// The shapes the ISA defines for a multiplicand type.
pub fn valid_shape(aty: WTy, mnk: (u32, u32, u32)) -> bool {
    match aty {
        WTy::F16 | WTy::BF16 | WTy::S8 | WTy::U8 => {
            matches!(mnk, (16, 16, 16) | (32, 8, 16) | (8, 32, 16))
        }
        WTy::TF32 => mnk == (16, 16, 8),
        WTy::F64 => mnk == (8, 8, 4),
        WTy::S4 | WTy::U4 => mnk == (8, 8, 32),
        WTy::B1 => mnk == (8, 8, 128),
        // Accumulator types as the type of a load/store of C/D.
        WTy::F32 | WTy::S32 => true,
    }
}

/// Slots per lane of a fragment of `nregs` registers.
pub fn slots(ty: WTy, nregs: usize) -> usize {
    nregs * (ty.reg_bits() / ty.bits()) as usize
}

/// (register, bit shift) of slot `s`.
pub fn slot_place(ty: WTy, s: usize) -> (usize, u32) {
    let per = (ty.reg_bits() / ty.bits()) as usize;
    (s / per, (s % per) as u32 * ty.bits())
}

/// The element index held at slot `s` of lane `lane`.
pub fn element_at(ty: WTy, nregs: usize, elems: usize, lane: usize, s: usize) -> usize {
    (lane * slots(ty, nregs) + s) % elems.max(1)
}

/// Reads element `e` (row-major) from fragment registers `regs[r][lane]`.
pub fn read_element(ty: WTy, regs: &[[u64; 32]], e: usize) -> u64 {
    let per_lane = slots(ty, regs.len());
    if per_lane == 0 || e >= 32 * per_lane {
        return 0;
    }
    let (lane, s) = (e / per_lane, e % per_lane);
    let (r, sh) = slot_place(ty, s);
    (regs[r][lane] >> sh) & crate::types::mask(ty.bits())
}

/// Builds fragment registers (all 32 lanes) from a function giving element
/// `e`'s bits.
pub fn build_fragment(
    ty: WTy,
    nregs: usize,
    elems: usize,
    get: impl Fn(usize) -> u64,
) -> Vec<[u64; 32]> {
    let mut regs = vec![[0u64; 32]; nregs];
    for s in 0..slots(ty, nregs) {
        let (r, sh) = slot_place(ty, s);
        for (lane, v) in regs[r].iter_mut().enumerate() {
            let e = element_at(ty, nregs, elems, lane, s);
            *v |= (get(e) & crate::types::mask(ty.bits())) << sh;
        }
    }
    regs
}

/// A decoded `wmma.mma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaSpec {
    pub mnk: (u32, u32, u32),
    pub aty: WTy,
    pub bty: WTy,
    pub cty: WTy,
    pub dty: WTy,
    pub sat: bool,
    pub bop: Option<BitOp>,
}

/// `D = A x B + C` on fragments; returns the D registers (`nd` of them).
pub fn mma(
    s: &MmaSpec,
    a: &[[u64; 32]],
    b: &[[u64; 32]],
    c: &[[u64; 32]],
    nd: usize,
) -> Vec<[u64; 32]> {
    let (m, n, k) = (s.mnk.0 as usize, s.mnk.1 as usize, s.mnk.2 as usize);
    let d_elem = |e: usize| -> u64 {
        let (row, col) = (e / n, e % n);
        let cb = read_element(s.cty, c, e);
        if s.aty.is_int() {
            let mut acc = s.cty.int(cb) as i128;
            for kx in 0..k {
                let x = read_element(s.aty, a, row * k + kx);
                let y = read_element(s.bty, b, kx * n + col);
                acc += match s.bop {
                    Some(BitOp::Xor) => ((x ^ y) & 1) as i128,
                    Some(BitOp::And) => (x & y & 1) as i128,
                    None => (s.aty.int(x) * s.bty.int(y)) as i128,
                };
            }
            let v = if s.sat {
                acc.clamp(i32::MIN as i128, i32::MAX as i128)
            } else {
                acc
            };
            return v as u64 & 0xffff_ffff;
        }
        let mut acc = s.cty.value(cb);
        for kx in 0..k {
            let x = read_element(s.aty, a, row * k + kx);
            let y = read_element(s.bty, b, kx * n + col);
            acc += s.aty.value(x) * s.bty.value(y);
        }
        if s.sat && acc.is_infinite() {
            acc = acc.signum() * f64::MAX;
        }
        match s.dty {
            WTy::F16 => from_f64(Fmt::F16, acc, Rnd::Rn),
            WTy::F64 => acc.to_bits(),
            _ => from_f64(Fmt::F32, acc, Rnd::Rn),
        }
    };
    let elems = m * n;
    let values: Vec<u64> = (0..elems).map(d_elem).collect();
    build_fragment(s.dty, nd, elems, |e| values.get(e).copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_round_trip() {
        for (ty, nregs, elems) in [
            (WTy::F16, 8, 256),
            (WTy::F32, 8, 256),
            (WTy::F16, 4, 256),
            (WTy::S8, 2, 256),
            (WTy::F64, 2, 64),
            (WTy::B1, 1, 1024),
            (WTy::S4, 1, 256),
            (WTy::BF16, 2, 128),
        ] {
            let f = build_fragment(ty, nregs, elems, |e| e as u64 * 7 + 1);
            for e in 0..elems {
                let want = (e as u64 * 7 + 1) & crate::types::mask(ty.bits());
                assert_eq!(read_element(ty, &f, e), want, "{ty:?} {e}");
            }
        }
    }
}
