//! `wmma.load` / `wmma.mma` / `wmma.store`: a kernel loads A, B and C from
//! memory (row- or column-major, with a stride), multiplies and stores D;
//! D must be the matrix product `A x B + C` computed here (exact products
//! summed in `f64`, rounded once to the result type; integers exactly, with
//! `.satfinite` clamping; `.b1` as `popc(a XOR b)`). The fragment layout in
//! registers is the emulator's own (the ISA leaves it to the
//! implementation); only load, mma and store have to agree.

use ptx_emu::float::{from_f64, Fmt, Rnd};
use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};

#[derive(Clone, Copy, Debug, PartialEq)]
enum T {
    F16,
    BF16,
    TF32,
    F32,
    F64,
    S8,
    U8,
    S32,
    S4,
    B1,
}

impl T {
    fn name(self) -> &'static str {
        match self {
            T::F16 => "f16",
            T::BF16 => "bf16",
            T::TF32 => "tf32",
            T::F32 => "f32",
            T::F64 => "f64",
            T::S8 => "s8",
            T::U8 => "u8",
            T::S32 => "s32",
            T::S4 => "s4",
            T::B1 => "b1",
        }
    }

    /// Bits an element takes in memory.
    fn bits(self) -> usize {
        match self {
            T::F16 | T::BF16 => 16,
            T::TF32 | T::F32 | T::S32 => 32,
            T::F64 => 64,
            T::S8 | T::U8 => 8,
            T::S4 => 4,
            T::B1 => 1,
        }
    }

    /// The bits of value `v` (exactly representable by construction).
    fn encode(self, v: f64) -> u64 {
        match self {
            T::F16 => from_f64(Fmt::F16, v, Rnd::Rn),
            T::BF16 => (v as f32).to_bits() as u64 >> 16,
            T::TF32 | T::F32 => (v as f32).to_bits() as u64,
            T::F64 => v.to_bits(),
            T::S8 | T::U8 | T::S32 | T::S4 | T::B1 => {
                (v as i64 as u64) & ((1u64 << self.bits().min(63)) - 1)
            }
        }
    }

    fn decode(self, b: u64) -> f64 {
        match self {
            T::F16 => Fmt::F16.to_f64(b & 0xffff),
            T::F32 => f32::from_bits(b as u32) as f64,
            T::F64 => f64::from_bits(b),
            T::S32 => b as u32 as i32 as f64,
            _ => unreachable!(),
        }
    }
}

/// Writes an `rows x cols` matrix in `row` or column-major order with
/// leading dimension `ld` (elements).
fn to_memory(t: T, m: &[Vec<f64>], row: bool, ld: usize) -> Vec<u8> {
    let (rows, cols) = (m.len(), m[0].len());
    let n = if row { rows * ld } else { cols * ld };
    let mut bytes = vec![0u8; (n * t.bits()).div_ceil(8).max(8) + 64];
    for (r, line) in m.iter().enumerate() {
        for (c, &v) in line.iter().enumerate() {
            let idx = if row { r * ld + c } else { c * ld + r };
            let bit = idx * t.bits();
            let b = t.encode(v);
            if t.bits() >= 8 {
                let k = t.bits() / 8;
                bytes[bit / 8..bit / 8 + k].copy_from_slice(&b.to_le_bytes()[..k]);
            } else {
                bytes[bit / 8] |= (b as u8) << (bit % 8);
            }
        }
    }
    bytes
}

fn from_memory(
    t: T,
    bytes: &[u8],
    rows: usize,
    cols: usize,
    row: bool,
    ld: usize,
) -> Vec<Vec<f64>> {
    let k = t.bits() / 8;
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let idx = if row { r * ld + c } else { c * ld + r };
                    let mut b = [0u8; 8];
                    b[..k].copy_from_slice(&bytes[idx * k..idx * k + k]);
                    t.decode(u64::from_le_bytes(b))
                })
                .collect()
        })
        .collect()
}

/// A deterministic matrix of small values representable in `t`.
fn matrix(t: T, rows: usize, cols: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut s = seed;
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let r = (s >> 33) as i64;
                    match t {
                        T::S8 => (r % 256 - 128) as f64,
                        T::U8 => (r % 256) as f64,
                        T::S32 => (r % 2001 - 1000) as f64,
                        T::S4 => (r % 16 - 8) as f64,
                        T::B1 => (r % 2) as f64,
                        // Multiples of 1/8 in [-4, 4): exact in every
                        // float type, products exact.
                        _ => (r % 64 - 32) as f64 / 8.0,
                    }
                })
                .collect()
        })
        .collect()
}

/// Registers per lane of a fragment (the ISA's fragment sizes).
fn nregs(frag: char, t: T, (m, n, k): (usize, usize, usize)) -> usize {
    let elems = match frag {
        'a' => m * k,
        'b' => k * n,
        _ => m * n,
    };
    match (frag, t) {
        ('a' | 'b', T::F16) => 8,
        (_, T::F64) => elems / 32,
        _ => elems * t.bits() / 32 / 32,
    }
}

struct Case {
    mnk: (usize, usize, usize),
    a: T,
    b: T,
    c: T,
    d: T,
    a_row: bool,
    b_row: bool,
    c_row: bool,
    d_row: bool,
    /// Extra elements of leading dimension (padding), or `None` for the
    /// default stride.
    pad: Option<usize>,
    /// The type list of `wmma.mma` and its extra modifiers.
    mma_types: &'static str,
    mods: &'static str,
}

fn lay(row: bool) -> &'static str {
    if row {
        "row"
    } else {
        "col"
    }
}

fn run(case: &Case) {
    let (m, n, k) = case.mnk;
    let shape = format!("m{m}n{n}k{k}");
    let regs = |frag: char, t: T, base: usize, f64reg: bool| {
        let r = nregs(frag, t, case.mnk);
        let prefix = if f64reg { "%fd" } else { "%r" };
        let names: Vec<String> = (0..r).map(|i| format!("{prefix}{}", base + i)).collect();
        format!("{{{}}}", names.join(", "))
    };
    let (fa, fb, fc) = (case.a == T::F64, case.b == T::F64, case.c == T::F64);
    let ra = regs('a', case.a, 0, fa);
    let rb = regs('b', case.b, 20, fb);
    let rc = regs('c', case.c, 40, fc);
    let rd = regs('c', case.d, 60, case.d == T::F64);
    let ld = |rows: usize, cols: usize, row: bool| {
        let base = if row { cols } else { rows };
        base + case.pad.unwrap_or(0)
    };
    let (lda, ldb, ldc, ldd) = (
        ld(m, k, case.a_row),
        ld(k, n, case.b_row),
        ld(m, n, case.c_row),
        ld(m, n, case.d_row),
    );
    let stride = |v: usize| {
        if case.pad.is_some() {
            format!(", {v}")
        } else {
            String::new()
        }
    };
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{{\n\
         .reg .b32 %r<100>;\n.reg .f64 %fd<100>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nld.param.u64 %rd4, [pd];\n\
         wmma.load.a.sync.aligned.{}.{shape}.global.{} {ra}, [%rd1]{};\n\
         wmma.load.b.sync.aligned.{}.{shape}.global.{} {rb}, [%rd2]{};\n\
         wmma.load.c.sync.aligned.{}.{shape}.global.{} {rc}, [%rd3]{};\n\
         wmma.mma{}.sync.aligned.{}.{}.{shape}{} {rd}, {ra}, {rb}, {rc};\n\
         wmma.store.d.sync.aligned.{}.{shape}.global.{} [%rd4], {rd}{};\nret;\n}}\n",
        lay(case.a_row),
        case.a.name(),
        stride(lda),
        lay(case.b_row),
        case.b.name(),
        stride(ldb),
        lay(case.c_row),
        case.c.name(),
        stride(ldc),
        if case.a == T::B1 { ".xor.popc" } else { "" },
        lay(case.a_row),
        lay(case.b_row),
        case.mma_types,
        lay(case.d_row),
        case.d.name(),
        stride(ldd),
    );
    let ptx = ptx.replace(
        &format!("{shape}{}", case.mma_types),
        &format!("{shape}{}{}", case.mods, case.mma_types),
    );
    let am = matrix(case.a, m, k, 1);
    let bm = matrix(case.b, k, n, 2);
    let cm = matrix(case.c, m, n, 3);
    let mut emu = Emulator::from_ptx(&ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    let dbytes = vec![0u8; (m * n * 8) + ldd * 64];
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&to_memory(case.a, &am, case.a_row, lda))),
        KernelArg::Buffer(Buffer::from_slice(&to_memory(case.b, &bm, case.b_row, ldb))),
        KernelArg::Buffer(Buffer::from_slice(&to_memory(case.c, &cm, case.c_row, ldc))),
        KernelArg::Buffer(Buffer::from_slice(&dbytes)),
    ];
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(32),
        dynamic_smem: 0,
    };
    emu.launch("k", cfg, &mut args)
        .unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    let d = from_memory(
        case.d,
        &args[3].buffer().unwrap().bytes,
        m,
        n,
        case.d_row,
        ldd,
    );
    for r in 0..m {
        for c in 0..n {
            let mut want: f64 = cm[r][c];
            for x in 0..k {
                want += if case.a == T::B1 {
                    (am[r][x] as i64 ^ bm[x][c] as i64) as f64
                } else {
                    am[r][x] * bm[x][c]
                };
            }
            let want = match case.d {
                T::F32 => want as f32 as f64,
                T::F16 => Fmt::F16.to_f64(from_f64(Fmt::F16, want, Rnd::Rn)),
                T::S32 if case.mods.contains("satfinite") => {
                    want.clamp(i32::MIN as f64, i32::MAX as f64)
                }
                _ => want,
            };
            assert_eq!(
                d[r][c],
                want,
                "{case:?} D[{r}][{c}]",
                case = (case.mnk, case.a, case.d)
            );
        }
    }
}

fn case(mnk: (usize, usize, usize), a: T, c: T, d: T, types: &'static str) -> Case {
    Case {
        mnk,
        a,
        b: a,
        c,
        d,
        a_row: true,
        b_row: false,
        c_row: true,
        d_row: true,
        pad: None,
        mma_types: types,
        mods: "",
    }
}

#[test]
fn f16_shapes_layouts_and_strides() {
    for mnk in [(16, 16, 16), (32, 8, 16), (8, 32, 16)] {
        for (a_row, b_row) in [(true, false), (false, true), (true, true), (false, false)] {
            for pad in [None, Some(8)] {
                run(&Case {
                    a_row,
                    b_row,
                    c_row: !a_row,
                    d_row: b_row,
                    pad,
                    ..case(mnk, T::F16, T::F32, T::F32, ".f32.f32")
                });
            }
        }
        run(&case(mnk, T::F16, T::F16, T::F16, ".f16.f16"));
        run(&case(mnk, T::F16, T::F16, T::F32, ".f32.f16"));
        run(&case(mnk, T::F16, T::F32, T::F16, ".f16.f32"));
    }
}

#[test]
fn bf16_tf32_and_f64() {
    for mnk in [(16, 16, 16), (32, 8, 16), (8, 32, 16)] {
        run(&case(mnk, T::BF16, T::F32, T::F32, ".f32.bf16.bf16.f32"));
    }
    run(&case(
        (16, 16, 8),
        T::TF32,
        T::F32,
        T::F32,
        ".f32.tf32.tf32.f32",
    ));
    run(&Case {
        mods: ".rn",
        ..case((8, 8, 4), T::F64, T::F64, T::F64, ".f64.f64.f64.f64")
    });
}

#[test]
fn integer_forms() {
    for mnk in [(16, 16, 16), (32, 8, 16), (8, 32, 16)] {
        run(&case(mnk, T::S8, T::S32, T::S32, ".s32.s8.s8.s32"));
        run(&case(mnk, T::U8, T::S32, T::S32, ".s32.u8.u8.s32"));
    }
    run(&Case {
        mods: "",
        ..case(
            (16, 16, 16),
            T::S8,
            T::S32,
            T::S32,
            ".s32.s8.s8.s32.satfinite",
        )
    });
    run(&case((8, 8, 32), T::S4, T::S32, T::S32, ".s32.s4.s4.s32"));
    run(&case((8, 8, 128), T::B1, T::S32, T::S32, ".s32.b1.b1.s32"));
}

#[test]
fn mismatched_fragments_do_not_crash() {
    // An m16n16k16 A fragment used by an m8n32k16 mma: undefined, but it runs.
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<40>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<2>;\n\
        ld.param.u64 %rd1, [p];\n\
        wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];\n\
        wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, [%rd1];\n\
        wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r16, %r17, %r18, %r19}, [%rd1];\n\
        wmma.mma.sync.aligned.row.row.m8n32k16.f32.f16 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%r16, %r17, %r18, %r19};\n\
        wmma.store.d.sync.aligned.row.m8n32k16.global.f32 [%rd1], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};\nret;\n}\n";
    let mut emu = Emulator::from_ptx(ptx).unwrap();
    let mut args = [KernelArg::Buffer(Buffer::from_slice(&[0u32; 1024]))];
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(32),
        dynamic_smem: 0,
    };
    emu.launch("k", cfg, &mut args).unwrap();
}

/// `mma.sync` with `.s4`/`.u4` and `.b1` multiplicands: fragments built
/// here from the PTX ISA's "Matrix Fragments for mma.mMnNkK" formulas,
/// D compared with the product computed here.
#[test]
fn mma_sub_byte_shapes() {
    // (shape, element bits, A regs, B regs, C regs, type list)
    type Case = (
        (usize, usize, usize),
        usize,
        usize,
        usize,
        usize,
        &'static str,
    );
    let cases: [Case; 7] = [
        ((8, 8, 32), 4, 1, 1, 2, ".s32.s4.s4.s32"),
        ((16, 8, 32), 4, 2, 1, 4, ".s32.u4.s4.s32"),
        ((16, 8, 64), 4, 4, 2, 4, ".satfinite.s32.s4.u4.s32"),
        ((8, 8, 128), 1, 1, 1, 2, ".s32.b1.b1.s32.xor.popc"),
        ((16, 8, 128), 1, 2, 1, 4, ".s32.b1.b1.s32.and.popc"),
        ((16, 8, 256), 1, 4, 2, 4, ".s32.b1.b1.s32.xor.popc"),
        ((16, 8, 256), 1, 4, 2, 4, ".s32.b1.b1.s32.and.popc"),
    ];
    for (ci, &((m, n, k), bits, ra, rb, rc, types)) in cases.iter().enumerate() {
        let per = 32 / bits;
        // A: (row, col) of element i of lane l, as the ISA writes it.
        let a_at = |l: usize, i: usize| -> (usize, usize) {
            let (g, t) = (l >> 2, l % 4);
            match ((m, n, k), bits) {
                ((8, 8, 32), 4) => (g, t * 8 + i),
                ((16, 8, 32), 4) => (if i < 8 { g } else { g + 8 }, t * 8 + (i & 7)),
                ((16, 8, 64), 4) => (
                    if i < 8 || (16..24).contains(&i) {
                        g
                    } else {
                        g + 8
                    },
                    t * 8 + (i & 7) + if i < 16 { 0 } else { 32 },
                ),
                ((8, 8, 128), 1) => (g, t * 32 + i),
                ((16, 8, 128), 1) => (if i < 32 { g } else { g + 8 }, t * 32 + (i & 31)),
                _ => (
                    if i < 32 || (64..96).contains(&i) {
                        g
                    } else {
                        g + 8
                    },
                    t * 32 + (i & 31) + if i < 64 { 0 } else { 128 },
                ),
            }
        };
        let b_at = |l: usize, i: usize| -> (usize, usize) {
            let (g, t) = (l >> 2, l % 4);
            let row = match ((m, n, k), bits) {
                ((16, 8, 64), 4) => t * 8 + (i & 7) + if i < 8 { 0 } else { 32 },
                (_, 4) => t * 8 + i,
                ((16, 8, 256), 1) => t * 32 + (i & 31) + if i < 32 { 0 } else { 128 },
                _ => t * 32 + i,
            };
            (row, g)
        };
        let c_at = |l: usize, i: usize| -> (usize, usize) {
            let (g, t) = (l >> 2, l % 4);
            if m == 8 {
                (g, t * 2 + i)
            } else {
                (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1))
            }
        };
        let signed_a = types.contains(".s32.s4");
        let signed_b = types.contains(".s4.s4") || types.contains(".u4.s4");
        let mut seed = 77 + ci as u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        let mask = (1u32 << bits) - 1;
        let am: Vec<Vec<u32>> = (0..m)
            .map(|_| (0..k).map(|_| next() & mask).collect())
            .collect();
        let bm: Vec<Vec<u32>> = (0..k)
            .map(|_| (0..n).map(|_| next() & mask).collect())
            .collect();
        let cm: Vec<Vec<i32>> = (0..m)
            .map(|_| (0..n).map(|_| (next() % 2001) as i32 - 1000).collect())
            .collect();
        let val = |v: u32, signed: bool| -> i64 {
            if signed && bits == 4 && v >= 8 {
                v as i64 - 16
            } else {
                v as i64
            }
        };
        // Registers of every lane: A, B, C, in that order.
        let mut words = Vec::new();
        for l in 0..32 {
            for r in 0..ra {
                let mut w = 0u32;
                for e in 0..per {
                    let (row, col) = a_at(l, r * per + e);
                    w |= am[row][col] << (e * bits);
                }
                words.push(w);
            }
            for r in 0..rb {
                let mut w = 0u32;
                for e in 0..per {
                    let (row, col) = b_at(l, r * per + e);
                    w |= bm[row][col] << (e * bits);
                }
                words.push(w);
            }
            for i in 0..rc {
                let (row, col) = c_at(l, i);
                words.push(cm[row][col] as u32);
            }
        }
        let total = ra + rb + rc;
        let regs = |base: usize, count: usize| {
            let v: Vec<String> = (0..count).map(|i| format!("%r{}", base + i)).collect();
            format!("{{{}}}", v.join(", "))
        };
        let loads: String = (0..total)
            .map(|i| format!("ld.global.u32 %r{}, [%rd3+{}];\n", 10 + i, i * 4))
            .collect();
        let stores: String = (0..rc)
            .map(|i| format!("st.global.u32 [%rd5+{}], %r{};\n", i * 4, 40 + i))
            .collect();
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 pin, .param .u64 pout)\n{{\n.reg .b32 %r<60>;\n.reg .b64 %rd<8>;\n\
             ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r1, %laneid;\n\
             mul.wide.u32 %rd6, %r1, {};\nadd.s64 %rd3, %rd1, %rd6;\n{loads}\
             mma.sync.aligned.m{m}n{n}k{k}.row.col{types} {}, {}, {}, {};\n\
             mul.wide.u32 %rd4, %r1, {};\nadd.s64 %rd5, %rd2, %rd4;\n{stores}ret;\n}}\n",
            total * 4,
            regs(40, rc),
            regs(10, ra),
            regs(10 + ra, rb),
            regs(10 + ra + rb, rc),
            rc * 4,
        );
        let mut emu = Emulator::from_ptx(&ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
        let mut args = [
            KernelArg::Buffer(Buffer::from_slice(&words)),
            KernelArg::Buffer(Buffer::from_slice(&vec![0u32; 32 * rc])),
        ];
        let cfg = LaunchConfig {
            grid: Dim3::x(1),
            block: Dim3::x(32),
            dynamic_smem: 0,
        };
        emu.launch("k", cfg, &mut args)
            .unwrap_or_else(|e| panic!("{e}\n{ptx}"));
        let out: Vec<u32> = args[1].buffer().unwrap().to_vec();
        for l in 0..32 {
            for i in 0..rc {
                let (row, col) = c_at(l, i);
                let mut want = cm[row][col] as i64;
                for x in 0..k {
                    let (p, q) = (am[row][x], bm[x][col]);
                    want += if types.contains(".xor") {
                        ((p ^ q) & 1) as i64
                    } else if types.contains(".and") {
                        (p & q & 1) as i64
                    } else {
                        val(p, signed_a) * val(q, signed_b)
                    };
                }
                assert_eq!(
                    out[l * rc + i] as i32 as i64,
                    want,
                    "{types} m{m}n{n}k{k} lane {l} c{i}"
                );
            }
        }
    }
}

/// `mma.m8n8k4` with `.f16`: four 8x8x4 products, one per quad pair (lanes
/// `4q..4q+3` and `4q+16..4q+19`), fragments from the ISA's formulas for
/// every A/B layout and `.f16`/`.f32` accumulators.
#[test]
fn mma_m8n8k4_f16_quad_pairs() {
    for (a_row, b_row) in [(true, false), (false, true), (true, true), (false, false)] {
        for (c32, d32) in [(true, true), (false, false), (false, true), (true, false)] {
            let hi = |l: usize| if l < 16 { 0 } else { 4 };
            let a_at = |l: usize, i: usize| {
                if a_row {
                    (l % 4 + hi(l), i)
                } else {
                    (i % 4 + hi(l), l % 4)
                }
            };
            let b_at = |l: usize, i: usize| {
                if b_row {
                    (l % 4, if l < 16 { i } else { i + 4 })
                } else {
                    (i, if l < 16 { l % 4 } else { l % 4 + 4 })
                }
            };
            let c_at = |l: usize, i: usize, f32acc: bool| {
                if f32acc {
                    let x = (l & 1) + (i & 2);
                    (if l < 16 { x } else { x + 4 }, (i & 4) + (l & 2) + (i & 1))
                } else {
                    (if l < 16 { l % 4 } else { l % 4 + 4 }, i)
                }
            };
            // Per quad pair q: A (8x4), B (4x8), C (8x8) of small exact values.
            let av =
                |q: usize, r: usize, k: usize| ((q * 7 + r * 3 + k * 5) % 9) as f64 / 4.0 - 1.0;
            let bv =
                |q: usize, k: usize, c: usize| ((q * 5 + k * 11 + c * 3) % 7) as f64 / 2.0 - 1.5;
            let cv = |q: usize, r: usize, c: usize| ((q + r * 8 + c) % 13) as f64 - 6.0;
            let h = |x: f64| from_f64(Fmt::F16, x, Rnd::Rn) as u32;
            let mut words = Vec::new();
            for l in 0..32 {
                let q = (l % 16) / 4;
                for r in 0..2 {
                    let (r0, k0) = a_at(l, 2 * r);
                    let (r1, k1) = a_at(l, 2 * r + 1);
                    words.push(h(av(q, r0, k0)) | h(av(q, r1, k1)) << 16);
                }
                for r in 0..2 {
                    let (k0, c0) = b_at(l, 2 * r);
                    let (k1, c1) = b_at(l, 2 * r + 1);
                    words.push(h(bv(q, k0, c0)) | h(bv(q, k1, c1)) << 16);
                }
                if c32 {
                    for i in 0..8 {
                        let (r, c) = c_at(l, i, true);
                        words.push((cv(q, r, c) as f32).to_bits());
                    }
                } else {
                    for r in 0..4 {
                        let (r0, c0) = c_at(l, 2 * r, false);
                        let (r1, c1) = c_at(l, 2 * r + 1, false);
                        words.push(h(cv(q, r0, c0)) | h(cv(q, r1, c1)) << 16);
                    }
                }
            }
            let nc = if c32 { 8 } else { 4 };
            let nd = if d32 { 8 } else { 4 };
            let total = 4 + nc;
            let regs = |base: usize, count: usize| {
                let v: Vec<String> = (0..count).map(|i| format!("%r{}", base + i)).collect();
                format!("{{{}}}", v.join(", "))
            };
            let loads: String = (0..total)
                .map(|i| format!("ld.global.u32 %r{}, [%rd3+{}];\n", 10 + i, i * 4))
                .collect();
            let stores: String = (0..nd)
                .map(|i| format!("st.global.u32 [%rd5+{}], %r{};\n", i * 4, 40 + i))
                .collect();
            let ty = |f32acc: bool| if f32acc { "f32" } else { "f16" };
            let lay = |row: bool| if row { "row" } else { "col" };
            let ptx = format!(
                ".version 8.0\n.target sm_80\n.address_size 64\n\
                 .visible .entry k(.param .u64 pin, .param .u64 pout)\n{{\n.reg .b32 %r<60>;\n.reg .b64 %rd<8>;\n\
                 ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r1, %laneid;\n\
                 mul.wide.u32 %rd6, %r1, {};\nadd.s64 %rd3, %rd1, %rd6;\n{loads}\
                 mma.sync.aligned.m8n8k4.{}.{}.{}.f16.f16.{} {}, {}, {}, {};\n\
                 mul.wide.u32 %rd4, %r1, {};\nadd.s64 %rd5, %rd2, %rd4;\n{stores}ret;\n}}\n",
                total * 4,
                lay(a_row),
                lay(b_row),
                ty(d32),
                ty(c32),
                regs(40, nd),
                regs(10, 2),
                regs(12, 2),
                regs(14, nc),
                nd * 4,
            );
            let mut emu = Emulator::from_ptx(&ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
            let mut args = [
                KernelArg::Buffer(Buffer::from_slice(&words)),
                KernelArg::Buffer(Buffer::from_slice(&vec![0u32; 32 * nd])),
            ];
            let cfg = LaunchConfig {
                grid: Dim3::x(1),
                block: Dim3::x(32),
                dynamic_smem: 0,
            };
            emu.launch("k", cfg, &mut args)
                .unwrap_or_else(|e| panic!("{e}\n{ptx}"));
            let out: Vec<u32> = args[1].buffer().unwrap().to_vec();
            for l in 0..32 {
                let q = (l % 16) / 4;
                for i in 0..8 {
                    let (r, c) = c_at(l, i, d32);
                    let mut want = cv(q, r, c);
                    for k in 0..4 {
                        want += av(q, r, k) * bv(q, k, c);
                    }
                    let got = if d32 {
                        f32::from_bits(out[l * nd + i]) as f64
                    } else {
                        Fmt::F16.to_f64(((out[l * nd + i / 2] >> (16 * (i % 2))) & 0xffff) as u64)
                    };
                    assert_eq!(
                        got, want,
                        "a_row {a_row} b_row {b_row} c32 {c32} d32 {d32} lane {l} d{i}"
                    );
                }
            }
        }
    }
}
