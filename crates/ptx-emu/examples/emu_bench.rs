//! Emulation speed on one core: thread-instructions per second for loop-heavy
//! kernels. Run with `cargo run --release -p ptx-emu --example emu_bench`.
//!
//! - `bench_loop` (`test-data/emu/bench_loop.ptx`): integer hashing and a
//!   float accumulation, 8 instructions per iteration, uniform control flow.
//! - `prefix_unknown_trip` (`test-data/examples/loops.ptx`, nvcc -O3): a loop
//!   unrolled by 4 with a remainder loop, per-thread trip counts (divergent).
//! - `matmul_tiled` (`test-data/examples/matmul_tiled.ptx`): shared-memory
//!   tiles, `bar.sync`, 16 unrolled `fma` per tile.

use std::path::PathBuf;
use std::time::Instant;

use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};

fn load(rel: &str) -> Emulator {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data")
        .join(rel);
    let text = std::fs::read_to_string(&path).expect("read the kernel");
    Emulator::from_ptx(&text).expect("prepare the kernel")
}

fn report(name: &str, mut run: impl FnMut() -> u64) -> f64 {
    // One warm-up, then the best of three.
    run();
    let mut best = f64::MAX;
    let mut insts = 0;
    for _ in 0..3 {
        let t = Instant::now();
        insts = run();
        best = best.min(t.elapsed().as_secs_f64());
    }
    let rate = insts as f64 / best / 1e6;
    println!("{name:<22} {insts:>12} thread-instructions in {best:.3} s: {rate:8.1} M thread-instructions/s");
    rate
}

fn main() {
    let mut emu = load("emu/bench_loop.ptx");
    let threads = 64 * 256;
    let rate = report("bench_loop", || {
        let mut args = [
            KernelArg::Buffer(Buffer::from_slice(&vec![0u32; threads])),
            KernelArg::value(400u32),
        ];
        let cfg = LaunchConfig {
            grid: Dim3::x(64),
            block: Dim3::x(256),
            dynamic_smem: 0,
        };
        emu.launch("bench_loop", cfg, &mut args)
            .unwrap()
            .thread_instructions
    });

    let mut emu = load("examples/loops.ptx");
    let n = 32 * 1024;
    let xs: Vec<i32> = (0..n as i32).collect();
    report("prefix_unknown_trip", || {
        let mut args = [
            KernelArg::Buffer(Buffer::from_slice(&xs)),
            KernelArg::Buffer(Buffer::from_slice(&vec![0i32; n])),
            KernelArg::value(n as i32),
            KernelArg::value(97i32),
        ];
        let cfg = LaunchConfig {
            grid: Dim3::x(n as u32 / 256),
            block: Dim3::x(256),
            dynamic_smem: 0,
        };
        emu.launch("prefix_unknown_trip", cfg, &mut args)
            .unwrap()
            .thread_instructions
    });

    let mut emu = load("examples/matmul_tiled.ptx");
    let m = 128usize;
    let a: Vec<f32> = (0..m * m).map(|i| (i % 7) as f32).collect();
    report("matmul_tiled", || {
        let mut args = [
            KernelArg::Buffer(Buffer::from_slice(&a)),
            KernelArg::Buffer(Buffer::from_slice(&a)),
            KernelArg::Buffer(Buffer::from_slice(&vec![0f32; m * m])),
            KernelArg::value(m as i32),
        ];
        let t = (m / 16) as u32;
        let cfg = LaunchConfig {
            grid: Dim3::xy(t, t),
            block: Dim3::xy(16, 16),
            dynamic_smem: 0,
        };
        emu.launch("matmul_tiled", cfg, &mut args)
            .unwrap()
            .thread_instructions
    });
    println!("bench_loop: {rate:.1} M thread-instructions/s (goal: 50)");
}
