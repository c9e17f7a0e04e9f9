//! Warp-wide matrix instructions: `mma.sync` (the m16n8k{8,16} f16/bf16,
//! m16n8k{16,32} and m8n8k16 s8/u8, m8n8k32/m16n8k32/m16n8k64 s4/u4,
//! m8n8k128/m16n8k128/m16n8k256 b1 with `.and.popc`/`.xor.popc`, m16n8k32
//! e4m3/e5m2, m16n8k{4,8} tf32 and m8n8k4 f64 shapes, `.row.col`; m8n8k4
//! f16 as four quad-pair products with any layouts) and the fragment layouts
//! of `ldmatrix` / `stmatrix` (`.m8n8.b16`).
//!
//! Fragments follow the PTX ISA "Matrix Fragments for mma.m16n8k*" figures:
//! with `g = laneid >> 2` and `t = laneid % 4`, lane `l` holds the listed
//! elements of A (row-major), B (column-major) and C/D. Products of f16, bf16,
//! tf32 and fp8 values are exact in f64; the sum is accumulated in f64 and
//! rounded once to the accumulator type (the hardware's internal accumulation
//! order and precision are unspecified, so results can differ from it in the
//! last bit when many terms cancel). Integer forms wrap, or clamp with
//! `.satfinite`.

use crate::float::{from_f64, Fmt, Rnd};
use crate::op::Matrix;
use crate::types::{sext, Ty};

/// Checks that a decoded `mma` has a shape and types we implement.
pub fn check_shape(m: &Matrix) -> Result<(), String> {
    let Matrix::Mma {
        m,
        n,
        k,
        aty,
        bty,
        cty,
        dty,
        sub,
        a,
        b,
        c,
        d,
        ..
    } = m
    else {
        return Ok(());
    };
    let shape = (*m, *n, *k);
    let found = match sub {
        Some((at, bt, bop)) => {
            if at.bits() != bt.bits() || (at.bits() == 1) != bop.is_some() {
                return Err(format!("mma with {at:?}/{bt:?}"));
            }
            sub_regs(shape, at.bits())
        }
        None => regs(shape, *aty, *cty),
    };
    let Some((ar, br, cr)) = found else {
        return Err(format!(
            "mma shape m{m}n{n}k{k} with {aty:?}/{bty:?}/{cty:?}"
        ));
    };
    // D may be `.f32` with a `.f16` C and the other way round.
    let dr = match sub {
        Some(_) => cr,
        None => regs(shape, *aty, *dty).map_or(cr, |r| r.2),
    };
    if a.len() != ar || b.len() != br || c.len() != cr || d.len() != dr {
        return Err("mma fragment sizes".into());
    }
    if dty != cty && !(dty.is_float() && cty.is_float()) {
        return Err("mma accumulator types".into());
    }
    Ok(())
}

/// Registers per lane for A, B and C/D.
fn regs(shape: (u32, u32, u32), aty: Ty, cty: Ty) -> Option<(usize, usize, usize)> {
    let c16 = matches!(cty, Ty::F16 | Ty::F16x2);
    let cregs = |n: usize| if c16 { n / 2 } else { n };
    Some(match (shape, aty) {
        ((8, 8, 4), Ty::F16) => (2, 2, cregs(8)),
        ((16, 8, 16), Ty::F16 | Ty::BF16) => (4, 2, cregs(4)),
        ((16, 8, 8), Ty::F16 | Ty::BF16) => (2, 1, cregs(4)),
        ((16, 8, 32), Ty::S8 | Ty::U8 | Ty::E4M3 | Ty::E5M2) => (4, 2, 4),
        ((16, 8, 16), Ty::S8 | Ty::U8) => (2, 1, 4),
        ((8, 8, 16), Ty::S8 | Ty::U8) => (1, 1, 2),
        ((16, 8, 8), Ty::TF32) => (4, 2, 4),
        ((16, 8, 4), Ty::TF32) => (2, 1, 4),
        ((8, 8, 4), Ty::F64) => (1, 1, 2),
        _ => return None,
    })
}

/// Registers per lane of the `.s4`/`.u4` (4 bits) and `.b1` shapes.
fn sub_regs(shape: (u32, u32, u32), bits: u32) -> Option<(usize, usize, usize)> {
    Some(match (shape, bits) {
        ((8, 8, 32), 4) | ((8, 8, 128), 1) => (1, 1, 2),
        ((16, 8, 32), 4) | ((16, 8, 128), 1) => (2, 1, 4),
        ((16, 8, 64), 4) | ((16, 8, 256), 1) => (4, 2, 4),
        _ => return None,
    })
}

/// Element size in bits of a multiplicand type.
fn elem_bits(t: Ty) -> u32 {
    match t {
        Ty::F16 | Ty::BF16 => 16,
        Ty::S8 | Ty::U8 | Ty::E4M3 | Ty::E5M2 => 8,
        _ => t.bits(),
    }
}

/// (row, col) of element `i` of lane `l`'s A fragment.
fn a_pos(shape: (u32, u32, u32), bits: u32, l: u32, i: u32) -> (u32, u32) {
    let (g, t) = (l >> 2, l % 4);
    match (shape, bits) {
        ((16, 8, 16), 16) => (g + 8 * ((i / 2) % 2), t * 2 + (i % 2) + 8 * (i / 4)),
        ((16, 8, 8), 16) => (g + 8 * (i / 2), t * 2 + (i % 2)),
        ((16, 8, 32), 8) => (g + 8 * ((i / 4) % 2), t * 4 + (i % 4) + 16 * (i / 8)),
        ((16, 8, 16), 8) => (g + 8 * (i / 4), t * 4 + (i % 4)),
        ((8, 8, 16), 8) => (g, t * 4 + i),
        ((16, 8, 8), 32) => (g + 8 * (i % 2), t + 4 * (i / 2)),
        ((16, 8, 4), 32) => (g + 8 * i, t),
        ((8, 8, 32), 4) => (g, t * 8 + i),
        ((16, 8, 32), 4) => (g + 8 * (i / 8), t * 8 + (i % 8)),
        ((16, 8, 64), 4) => (g + 8 * ((i / 8) % 2), t * 8 + (i % 8) + 32 * (i / 16)),
        ((8, 8, 128), 1) => (g, t * 32 + i),
        ((16, 8, 128), 1) => (g + 8 * (i / 32), t * 32 + (i % 32)),
        ((16, 8, 256), 1) => (g + 8 * ((i / 32) % 2), t * 32 + (i % 32) + 128 * (i / 64)),
        _ => (g, t), // m8n8k4 f64
    }
}

/// (row, col) of element `i` of lane `l`'s B fragment (B is k x n).
fn b_pos(shape: (u32, u32, u32), bits: u32, l: u32, i: u32) -> (u32, u32) {
    let (g, t) = (l >> 2, l % 4);
    match (shape, bits) {
        ((16, 8, 16), 16) => (t * 2 + (i % 2) + 8 * (i / 2), g),
        ((16, 8, 8), 16) => (t * 2 + i, g),
        ((16, 8, 32), 8) => (t * 4 + (i % 4) + 16 * (i / 4), g),
        ((16, 8, 16), 8) | ((8, 8, 16), 8) => (t * 4 + i, g),
        ((16, 8, 8), 32) => (t + 4 * i, g),
        ((16, 8, 4), 32) => (t, g),
        ((8, 8, 32), 4) | ((16, 8, 32), 4) => (t * 8 + i, g),
        ((16, 8, 64), 4) => (t * 8 + (i % 8) + 32 * (i / 8), g),
        ((8, 8, 128), 1) | ((16, 8, 128), 1) => (t * 32 + i, g),
        ((16, 8, 256), 1) => (t * 32 + (i % 32) + 128 * (i / 32), g),
        _ => (t, g),
    }
}

/// (row, col) of element `i` of lane `l`'s C/D fragment.
fn c_pos(shape: (u32, u32, u32), l: u32, i: u32) -> (u32, u32) {
    let (g, t) = (l >> 2, l % 4);
    if shape.0 == 8 {
        (g, t * 2 + i)
    } else {
        (g + 8 * (i / 2), t * 2 + (i % 2))
    }
}

fn elem_value(ty: Ty, bits: u64) -> f64 {
    match ty {
        Ty::F16 => Fmt::F16.to_f64(bits),
        Ty::BF16 => Fmt::BF16.to_f64(bits),
        Ty::E4M3 => Fmt::E4M3.to_f64(bits),
        Ty::E5M2 => Fmt::E5M2.to_f64(bits),
        Ty::TF32 => f32::from_bits((bits as u32) & 0xffff_e000) as f64,
        Ty::F32 => f32::from_bits(bits as u32) as f64,
        Ty::F64 => f64::from_bits(bits),
        Ty::S8 => sext(bits, 8) as i64 as f64,
        Ty::U8 => (bits & 0xff) as f64,
        _ => 0.0,
    }
}

/// `mma.m8n8k4` with `.f16` multiplicands: four independent 8x8x4 products,
/// computation `q` by the lanes `4q..4q+3` (rows 0-3) and `4q+16..4q+19`
/// (rows 4-7), in the ISA's "Matrix Fragments for mma.m8n8k4 with .f16"
/// layouts (A and B row- or column-major; C/D `.f16` or `.f32`).
#[allow(clippy::needless_range_loop)] // a lane indexes several arrays
fn mma_884_f16(spec: &Matrix, a: &[[u64; 32]], b: &[[u64; 32]], c: &[[u64; 32]]) -> Vec<[u64; 32]> {
    let Matrix::Mma {
        dty,
        cty,
        rows: (a_row, b_row),
        ..
    } = spec
    else {
        return Vec::new();
    };
    let half = |regs: &[[u64; 32]], l: usize, i: usize| -> u64 {
        regs.get(i / 2)
            .map_or(0, |r| (r[l] >> (16 * (i % 2))) & 0xffff)
    };
    let hi = |l: usize| if l < 16 { 0 } else { 4 };
    // (row, col) of element i of lane l.
    let a_pos = |l: usize, i: usize| {
        if *a_row {
            (l % 4 + hi(l), i)
        } else {
            (i % 4 + hi(l), l % 4)
        }
    };
    let b_pos = |l: usize, i: usize| {
        if *b_row {
            (l % 4, i + hi(l))
        } else {
            (i, l % 4 + hi(l))
        }
    };
    let c_pos = |l: usize, i: usize, f16: bool| {
        if f16 {
            (l % 4 + hi(l), i)
        } else {
            ((l & 1) + (i & 2) + hi(l), (i & 4) + (l & 2) + (i & 1))
        }
    };
    let c16 = matches!(cty, Ty::F16 | Ty::F16x2);
    let d16 = matches!(dty, Ty::F16 | Ty::F16x2);
    let mut am = [[[0f64; 4]; 8]; 4];
    let mut bm = [[[0f64; 8]; 4]; 4];
    let mut cm = [[[0f64; 8]; 8]; 4];
    for l in 0..32 {
        let q = (l % 16) / 4;
        for i in 0..4 {
            let (r, k) = a_pos(l, i);
            am[q][r][k] = Fmt::F16.to_f64(half(a, l, i));
            let (k, col) = b_pos(l, i);
            bm[q][k][col] = Fmt::F16.to_f64(half(b, l, i));
        }
        for i in 0..8 {
            let (r, col) = c_pos(l, i, c16);
            cm[q][r][col] = if c16 {
                Fmt::F16.to_f64(half(c, l, i))
            } else {
                c.get(i).map_or(0.0, |x| f32::from_bits(x[l] as u32) as f64)
            };
        }
    }
    let mut d = vec![[0u64; 32]; if d16 { 4 } else { 8 }];
    for l in 0..32 {
        let q = (l % 16) / 4;
        for i in 0..8 {
            let (r, col) = c_pos(l, i, d16);
            let mut acc = cm[q][r][col];
            for k in 0..4 {
                acc += am[q][r][k] * bm[q][k][col];
            }
            if d16 {
                d[i / 2][l] |= from_f64(Fmt::F16, acc, Rnd::Rn) << (16 * (i % 2));
            } else {
                d[i][l] = from_f64(Fmt::F32, acc, Rnd::Rn);
            }
        }
    }
    d
}

/// Executes an `mma`: `a`, `b`, `c` are the fragment registers of all 32
/// lanes (`a[r][lane]`); returns the D registers.
pub fn mma(spec: &Matrix, a: &[[u64; 32]], b: &[[u64; 32]], c: &[[u64; 32]]) -> Vec<[u64; 32]> {
    if let Matrix::Mma {
        m: 8,
        n: 8,
        k: 4,
        aty: Ty::F16,
        ..
    } = spec
    {
        return mma_884_f16(spec, a, b, c);
    }

    let Matrix::Mma {
        m,
        n,
        k,
        dty,
        aty,
        bty,
        cty,
        sat,
        sub,
        ..
    } = spec
    else {
        return Vec::new();
    };
    let shape = (*m, *n, *k);
    let (mm, nn, kk) = (*m as usize, *n as usize, *k as usize);
    let (ab, bb) = match sub {
        Some((a, b, _)) => (a.bits(), b.bits()),
        None => (elem_bits(*aty), elem_bits(*bty)),
    };
    let int = sub.is_some() || matches!(aty, Ty::S8 | Ty::U8);
    let bop = sub.and_then(|s| s.2);
    // Sub-byte elements as integers (`.s4` sign-extended, `.u4`, `.b1`).
    let sub_value = |t: crate::wmma::WTy, v: u64| -> f64 {
        match t {
            crate::wmma::WTy::S4 => sext(v, 4) as i64 as f64,
            _ => v as f64,
        }
    };
    let mut am = vec![0f64; mm * kk];
    let mut bm = vec![0f64; kk * nn];
    let mut ai = vec![0i64; mm * kk];
    let mut bi = vec![0i64; kk * nn];
    let gather = |regs: &[[u64; 32]],
                  bits: u32,
                  ty: Ty,
                  sty: Option<crate::wmma::WTy>,
                  pos: &dyn Fn(u32, u32) -> (u32, u32),
                  cols: usize,
                  fm: &mut Vec<f64>,
                  im: &mut Vec<i64>| {
        let per = (if ty == Ty::F64 { 64 } else { 32 }) / bits;
        for l in 0..32u32 {
            for (r, reg) in regs.iter().enumerate() {
                for e in 0..per {
                    let i = r as u32 * per + e;
                    let v = (reg[l as usize] >> (e * bits)) & crate::types::mask(bits);
                    let (row, col) = pos(l, i);
                    let idx = row as usize * cols + col as usize;
                    if idx < fm.len() {
                        let x = match sty {
                            Some(t) => sub_value(t, v),
                            None => elem_value(ty, v),
                        };
                        fm[idx] = x;
                        im[idx] = x as i64;
                    }
                }
            }
        }
    };
    gather(
        a,
        ab,
        *aty,
        sub.map(|s| s.0),
        &|l, i| a_pos(shape, ab, l, i),
        kk,
        &mut am,
        &mut ai,
    );
    gather(
        b,
        bb,
        *bty,
        sub.map(|s| s.1),
        &|l, i| b_pos(shape, bb, l, i),
        nn,
        &mut bm,
        &mut bi,
    );
    let c16 = matches!(cty, Ty::F16 | Ty::F16x2);
    let d16 = matches!(dty, Ty::F16 | Ty::F16x2);
    let c_elems = if shape.0 == 8 { 2 } else { 4 };
    let mut d = vec![[0u64; 32]; if d16 { c_elems / 2 } else { c_elems }];
    for l in 0..32u32 {
        for i in 0..c_elems as u32 {
            let (row, col) = c_pos(shape, l, i);
            let (row, col) = (row as usize, col as usize);
            let cbits = if c16 {
                (c[i as usize / 2][l as usize] >> (16 * (i % 2))) & 0xffff
            } else {
                c[i as usize][l as usize]
            };
            let out = if int {
                let mut acc = sext(cbits, 32) as i64 as i128;
                for kx in 0..kk {
                    let (x, y) = (ai[row * kk + kx], bi[kx * nn + col]);
                    acc += match bop {
                        Some(crate::wmma::BitOp::Xor) => (x ^ y) & 1,
                        Some(crate::wmma::BitOp::And) => x & y & 1,
                        None => x * y,
                    } as i128;
                }
                let v = if *sat {
                    acc.clamp(i32::MIN as i128, i32::MAX as i128) as i64
                } else {
                    acc as i64
                };
                v as u64 & 0xffff_ffff
            } else {
                let cv = if c16 {
                    Fmt::F16.to_f64(cbits)
                } else if *cty == Ty::F64 {
                    f64::from_bits(cbits)
                } else {
                    f32::from_bits(cbits as u32) as f64
                };
                let mut acc = cv;
                for kx in 0..kk {
                    acc += am[row * kk + kx] * bm[kx * nn + col];
                }
                if d16 {
                    from_f64(Fmt::F16, acc, Rnd::Rn)
                } else if *dty == Ty::F64 {
                    acc.to_bits()
                } else {
                    from_f64(Fmt::F32, acc, Rnd::Rn)
                }
            };
            if d16 {
                d[i as usize / 2][l as usize] |= out << (16 * (i % 2));
            } else {
                d[i as usize][l as usize] = out;
            }
        }
    }
    d
}
