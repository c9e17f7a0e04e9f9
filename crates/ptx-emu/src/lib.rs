//! `ptx-emu`: a functional emulator of PTX on the CPU, over the ptxopt IR.
//!
//! It runs a kernel of a lowered [`Module`] the way the hardware would, bit
//! for bit where the PTX ISA defines the result, so that every optimization
//! pass can be checked differentially: run the kernel before and after, compare
//! the buffers.
//!
//! ```no_run
//! use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};
//! # let ptx = "";
//! let mut emu = Emulator::from_ptx(ptx).unwrap();
//! let mut args = [
//!     KernelArg::value(1024i32),
//!     KernelArg::value(2.0f32),
//!     KernelArg::Buffer(Buffer::from_slice(&vec![1.0f32; 1024])),
//!     KernelArg::Buffer(Buffer::from_slice(&vec![1.0f32; 1024])),
//! ];
//! let cfg = LaunchConfig { grid: Dim3::x(4), block: Dim3::x(256), dynamic_smem: 0 };
//! let stats = emu.launch("saxpy", cfg, &mut args).unwrap();
//! let y: Vec<f32> = args[3].buffer().unwrap().to_vec();
//! ```
//!
//! What it models:
//!
//! - **Launch**: a grid of CTAs (run one after another), each a block of
//!   threads in warps of 32 ([`LaunchConfig`]); kernel arguments are scalars or
//!   device buffers ([`KernelArg`]), laid out in the parameter space with their
//!   PTX alignment. Buffers are copied back after the launch.
//! - **Memory** ([`memory`]): global, shared (static and dynamic), local,
//!   const and param spaces with byte-exact layout, generic addressing with
//!   `cvta`, every access bounds- and alignment-checked.
//! - **Warps** ([`exec`]): lockstep lanes with a SIMT stack that reconverges at
//!   immediate post-dominators ([`cfg`]), so warp-synchronous instructions see
//!   the lanes the hardware would; CTA barriers across warps (the scheduler in
//!   [`launch`]); calls with `.param` and `.reg` parameters.
//! - **Semantics**: exact integer arithmetic ([`int`]), IEEE floating point
//!   with every rounding mode, `.ftz`, `.sat` and the narrow formats
//!   ([`float`], [`fops`], [`cvt`]; all in `ptx-sem`, shared with constant
//!   folding), warp-wide matrix multiply ([`mma`]).
//! - **Textures and surfaces** ([`texture`]): `tex` (every geometry,
//!   offsets, depth compare, `.level`/`.grad` on one mipmap level), `tld4`,
//!   `txq`, `suld`, `sust`, `sured`, `suq`, `istypep` on bound images with
//!   the sampler's addressing and filter modes, in unified and independent
//!   mode; module `.texref`/`.surfref`/`.samplerref` variables get
//!   generated default images, kernel arguments
//!   ([`KernelArg::Texture`], [`KernelArg::Surface`],
//!   [`KernelArg::Sampler`]) bind others.
//! - **Warp matrix** ([`wmma`]): `wmma.load/mma/store` for every shape and
//!   type of the ISA, with one fragment layout of the emulator's choosing.
//! - **Bulk copies**: `cp.async.bulk` between global and shared memory
//!   (completing the mbarrier's transaction bytes), `st.bulk`, the bulk
//!   prefetches and groups (no-ops).
//! - **Video**: the scalar (`vadd`, `vmad`, `vset`, ...) and SIMD (`vadd2`,
//!   `vabsdiff4`, `vset2`, ... with selectors, masks, `.sat` and `.add`)
//!   video instructions.
//! - **Library calls**: `malloc`/`free` on a per-launch device heap (8 MiB,
//!   released when the launch ends), `vprintf` (output captured per launch,
//!   `Emulator::output`, and compared by `diff`), `__assertfail` (a trap),
//!   calls through `.alias`.
//! - **Errors** ([`error`]): out-of-bounds or misaligned accesses, undefined
//!   registers, barrier divergence, the step limit, `trap`, and instructions
//!   the emulator does not implement, each with function, PTX line, `.loc` and
//!   thread.
//!
//! Instructions are pre-decoded once per function ([`decode`], [`op`]) into a
//! compact form: registers to slots, labels to indices, modifiers to enums.
//! The executor runs 32 lanes per decoded instruction; a loop-heavy kernel
//! runs at well over 50 million thread-instructions per second on one core
//! (`cargo run --release -p ptx-emu --example emu_bench`).
//!
//! # Entry points
//!
//! - [`Emulator::new`] (a lowered module), [`Emulator::with_source`] (plus
//!   the text, for PTX line numbers in errors), [`Emulator::from_ptx`] (parse
//!   and lower too).
//! - [`Emulator::launch`]`(kernel, LaunchConfig { grid, block, dynamic_smem },
//!   &mut [KernelArg])` returns [`LaunchStats`] or an [`EmuError`]; buffers in
//!   the arguments hold the device contents afterwards.
//! - [`diff::verify`]: run a kernel of an original and an optimized module
//!   on the same generated inputs and compare every buffer.
//! - [`Emulator::set_step_limit`], [`Emulator::kernels`],
//!   [`Emulator::global_address`], [`Emulator::read_global`] /
//!   [`Emulator::write_global`] (module variables persist across launches).
//!
//! # Not emulated (yet)
//!
//! These decode to [`op::Op::Unsupported`] and fail with
//! [`ErrorKind::Unsupported`] only when executed: the tensor-core families
//! `wgmma.*`, `tcgen05.*`, sparse `mma.sp*` (the metadata layout is given
//! by figures only) and the `mma` shapes other than those of [`mma`]; tensor copies (`cp.async.bulk.tensor*`,
//! `cp.reduce.async.bulk*`, `tensormap.*`, `multimem.*`,
//! `clusterlaunchcontrol.*`); vector atomics (`atom.v2/.v4/.v8`); `mma`
//! with `.satfinite` on float types and `redux.sync` on anything but 32-bit
//! values; `cvt` with stochastic rounding (`.rs`) on four-element packed
//! types. Clusters are one CTA each (`mapa` is the identity,
//! `barrier.cluster` a no-op). The CTAs of a grid run one after another, so
//! a kernel that waits for another CTA never finishes (the step limit
//! catches it).

pub mod cfg;
pub mod decode;
pub mod diff;
pub mod error;
pub mod exec;
pub mod launch;
pub mod layout;
pub mod memory;
pub mod mma;
pub mod op;
pub mod texture;
pub mod types;
pub mod wmma;

/// The arithmetic lives in `ptx-sem` (shared with the optimizer's constant
/// folding); these paths keep the emulator's module names.
pub use ptx_sem::{cvt, float, fops, int};

pub use error::{EmuError, ErrorKind, Location, ThreadId};
pub use launch::{Buffer, Dim3, ElemType, Element, Emulator, KernelArg, LaunchConfig, LaunchStats};

pub use ptx_ir::ir::Module;
