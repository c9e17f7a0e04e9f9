//! The project's own kernels (`test-data/examples/*.ptx`, nvcc-compiled from
//! `test-data/cuda/*.cu`) against references computed in Rust. Where the
//! kernel's floating-point operation order is fixed by the PTX, the reference
//! repeats it and the comparison is bit for bit; `softmax` (`ex2.approx`) is
//! compared within a relative tolerance.

mod common;

use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};

fn emulator(name: &str) -> Emulator {
    let path = common::test_data().join("examples").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    Emulator::from_ptx(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Deterministic pseudo-random numbers.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    /// A float in [-1, 1).
    fn float(&mut self) -> f32 {
        (self.next() % 2_000_000) as f32 / 1_000_000.0 - 1.0
    }
}

fn cfg(grid: Dim3, block: Dim3) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        dynamic_smem: 0,
    }
}

fn buf(args: &[KernelArg], i: usize) -> &Buffer {
    args[i].buffer().unwrap()
}

fn assert_bits(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} != {w}");
    }
}

#[test]
fn saxpy() {
    let mut rng = Lcg(1);
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|_| rng.float()).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.float()).collect();
    let a = 1.7f32;
    for (file, fused) in [("saxpy.ptx", true), ("saxpy_debug.ptx", false)] {
        let mut emu = emulator(file);
        let mut args = [
            KernelArg::value(n as i32),
            KernelArg::value(a),
            KernelArg::Buffer(Buffer::from_slice(&x)),
            KernelArg::Buffer(Buffer::from_slice(&y)),
        ];
        // 4 blocks of 256 threads cover 1024 > n: the bounds check matters.
        emu.launch("saxpy", cfg(Dim3::x(4), Dim3::x(256)), &mut args)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let want: Vec<f32> = (0..n)
            .map(|i| {
                if fused {
                    a.mul_add(x[i], y[i])
                } else {
                    a * x[i] + y[i]
                }
            })
            .collect();
        assert_bits(&buf(&args, 3).to_vec::<f32>(), &want, file);
    }
}

#[test]
fn reduce_shared() {
    let mut rng = Lcg(2);
    let n = 3000usize;
    let block = 256usize;
    let grid = n.div_ceil(2 * block);
    let input: Vec<f32> = (0..n).map(|_| rng.float()).collect();
    let mut emu = emulator("reduce_shared.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&input)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0f32; grid])),
        KernelArg::value(n as i32),
    ];
    let stats = emu
        .launch(
            "reduce_shared",
            cfg(Dim3::x(grid as u32), Dim3::x(block as u32)),
            &mut args,
        )
        .unwrap();
    assert!(stats.barriers > 0);
    let mut want = Vec::new();
    for b in 0..grid {
        let mut sdata = vec![0f32; block];
        for (tid, s) in sdata.iter_mut().enumerate() {
            let i = b * 2 * block + tid;
            let mut sum = 0f32;
            if i < n {
                sum = input[i] + 0.0;
            }
            if i + block < n {
                sum += input[i + block];
            }
            *s = sum;
        }
        let mut s = block / 2;
        while s > 0 {
            for tid in 0..s {
                sdata[tid] += sdata[tid + s];
            }
            s >>= 1;
        }
        want.push(sdata[0]);
    }
    assert_bits(&buf(&args, 1).to_vec::<f32>(), &want, "partial");
}

#[test]
fn reduce_warp() {
    // Integer-valued floats: every sum is exact, so the order of the atomic
    // additions does not matter.
    let mut rng = Lcg(3);
    let n = 5000usize;
    let input: Vec<f32> = (0..n).map(|_| (rng.next() % 200) as f32 - 100.0).collect();
    let mut emu = emulator("reduce_warp.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&input)),
        KernelArg::Buffer(Buffer::from_slice(&[0f32])),
        KernelArg::value(n as i32),
    ];
    emu.launch("reduce_warp", cfg(Dim3::x(3), Dim3::x(128)), &mut args)
        .unwrap();
    let want: f32 = input.iter().sum();
    assert_eq!(buf(&args, 1).to_vec::<f32>(), vec![want]);
}

#[test]
fn histogram() {
    let mut rng = Lcg(4);
    let n = 10_000usize;
    let data: Vec<u8> = (0..n).map(|_| (rng.next() % 97) as u8 * 2).collect();
    let mut emu = emulator("histogram.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&data)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0u32; 256])),
        KernelArg::value(n as i32),
    ];
    emu.launch("histogram", cfg(Dim3::x(5), Dim3::x(192)), &mut args)
        .unwrap();
    let mut want = vec![0u32; 256];
    for &d in &data {
        want[d as usize] += 1;
    }
    assert_eq!(buf(&args, 1).to_vec::<u32>(), want);
}

#[test]
fn matmul_tiled() {
    let mut rng = Lcg(5);
    // Not a multiple of the tile: the zero padding matters.
    let n = 37usize;
    let a: Vec<f32> = (0..n * n).map(|_| rng.float()).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.float()).collect();
    let mut emu = emulator("matmul_tiled.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&a)),
        KernelArg::Buffer(Buffer::from_slice(&b)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0f32; n * n])),
        KernelArg::value(n as i32),
    ];
    let tiles = n.div_ceil(16) as u32;
    emu.launch(
        "matmul_tiled",
        cfg(Dim3::xy(tiles, tiles), Dim3::xy(16, 16)),
        &mut args,
    )
    .unwrap();
    let mut want = vec![0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            let mut acc = 0f32;
            for t in 0..n.div_ceil(16) {
                for k in 0..16 {
                    let kk = t * 16 + k;
                    let x = if kk < n { a[row * n + kk] } else { 0.0 };
                    let y = if kk < n { b[kk * n + col] } else { 0.0 };
                    acc = x.mul_add(y, acc);
                }
            }
            want[row * n + col] = acc;
        }
    }
    assert_bits(&buf(&args, 2).to_vec::<f32>(), &want, "C");
}

#[test]
fn softmax() {
    let mut rng = Lcg(6);
    let (rows, cols) = (3usize, 700usize);
    let input: Vec<f32> = (0..rows * cols).map(|_| rng.float() * 8.0).collect();
    let mut emu = emulator("softmax.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&input)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0f32; rows * cols])),
        KernelArg::value(cols as i32),
    ];
    emu.launch(
        "softmax",
        cfg(Dim3::x(rows as u32), Dim3::x(256)),
        &mut args,
    )
    .unwrap();
    let got = buf(&args, 1).to_vec::<f32>();
    for r in 0..rows {
        let x = &input[r * cols..(r + 1) * cols];
        let m = x.iter().cloned().fold(f32::MIN, f32::max) as f64;
        let s: f64 = x.iter().map(|&v| (v as f64 - m).exp()).sum();
        let mut total = 0f64;
        for c in 0..cols {
            let want = (x[c] as f64 - m).exp() / s;
            let g = got[r * cols + c] as f64;
            assert!(
                (g - want).abs() <= 1e-5 * want.abs() + 1e-9,
                "row {r} col {c}: {g} != {want}"
            );
            total += g;
        }
        assert!((total - 1.0).abs() < 1e-4);
    }
}

#[test]
fn loops() {
    let mut rng = Lcg(7);
    let n = 512usize;
    let x: Vec<f32> = (0..n).map(|_| rng.float()).collect();
    let coeff: Vec<f32> = (0..8).map(|_| rng.float()).collect();
    let mut emu = emulator("loops.ptx");
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&x)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0f32; n])),
        KernelArg::Buffer(Buffer::from_slice(&coeff)),
    ];
    emu.launch("poly_known_trip", cfg(Dim3::x(4), Dim3::x(128)), &mut args)
        .unwrap();
    let want: Vec<f32> = x
        .iter()
        .map(|&v| (0..8).rev().fold(0f32, |acc, k| acc.mul_add(v, coeff[k])))
        .collect();
    assert_bits(&buf(&args, 1).to_vec::<f32>(), &want, "y");

    let xs: Vec<i32> = (0..n).map(|_| rng.next() as i32).collect();
    for (len, step) in [(512i32, 7i32), (300, 1), (10, 64), (0, 3)] {
        let mut args = [
            KernelArg::Buffer(Buffer::from_slice(&xs)),
            KernelArg::Buffer(Buffer::from_slice(&vec![0i32; n])),
            KernelArg::value(len),
            KernelArg::value(step),
        ];
        emu.launch(
            "prefix_unknown_trip",
            cfg(Dim3::x(4), Dim3::x(128)),
            &mut args,
        )
        .unwrap();
        let want: Vec<i32> = (0..n as i32)
            .map(|i| {
                let mut acc = 0i32;
                let mut k = i;
                while k < len {
                    acc ^= xs[k as usize].wrapping_mul(k + 1);
                    k += step;
                }
                acc
            })
            .collect();
        assert_eq!(buf(&args, 1).to_vec::<i32>(), want, "len {len} step {step}");
    }
}
