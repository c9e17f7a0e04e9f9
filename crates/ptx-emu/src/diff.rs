//! Differential checking: run a kernel of an original and of an optimized
//! module on the same generated inputs and compare every buffer bit for bit.
//!
//! [`verify`] (or [`verify_sources`], which also keeps the PTX text so that
//! errors carry line numbers) returns a [`VerifyReport`] with one [`ShapeRun`]
//! per launch shape.
//!
//! # How parameters are classified
//!
//! [`classify_params`] looks at the *original* kernel's IR, flow-insensitively:
//!
//! 1. A register written by `ld.param` from parameter `p` carries `p`.
//! 2. `mov`, `cvta`, `cvt`, `add`, `sub`, `selp`, `and`, `or` pass every
//!    source's parameters to their destination; `mad` passes only those of
//!    its addend (the last operand: `mad.wide.s32 %rd, %r, 4, %base`). Other
//!    instructions (loads, multiplies, shifts, ...) pass nothing on.
//! 3. A parameter is a **buffer** when it is an integer parameter as wide as
//!    an address (`.u64`/`.b64`/`.s64` under `.address_size 64`; the 32-bit
//!    forms under `.address_size 32`), not an array, and a register carrying
//!    it is the base of an address (`[%rd+8]`) of any instruction, or is
//!    converted by `cvta.to.*`, or is passed to a called function
//!    (`st.param` of a call argument: unoptimized code calls a wrapper such
//!    as `__fAtomicAdd` with the pointer); or when it has a `.ptr` attribute.
//! 4. Everything else is a **scalar**. When unsure (a 64-bit integer
//!    parameter that is loaded but never reaches an address) we pass a
//!    scalar: if the kernel does use it as an address after all, both runs
//!    fault (or the original does) and the kernel is reported as an error,
//!    never silently as equal. A 64-bit *offset* parameter that is added to a
//!    pointer is classified as a buffer too (its value is then an address of
//!    a valid buffer; harmless for the comparison).
//!
//! # Inputs
//!
//! Each buffer holds [`VerifyOptions::elements`] 32-bit words (default:
//! `max(total threads * 4, 4096)`), from a seeded generator: per 8 words, one
//! edge value of the float interpretation (`0`, `-0`, quiet and signalling
//! NaN, `±Inf`, the smallest and largest denormals, `±FLT_MAX`, `±1`), one
//! of the integer interpretation (`0`, `1`, `-1`, `INT_MIN`, `INT_MAX`,
//! `UINT_MAX`, `0x8000`), three random floats in `[-4, 4)`, one random
//! 32-bit word, two small random integers in `[0, 1024)`. The bytes are the
//! same for the original and the optimized run. Buffers wider than 4 bytes
//! per element see pairs of these words.
//!
//! Texture, surface and sampler parameters (`.texref`, `.surfref`,
//! `.samplerref`, or an address-sized integer parameter that reaches the
//! handle operand of `tex`/`tld4`/`txq`, `suld`/`sust`/`sured`/`suq`, or the
//! sampler operand of an independent-mode `tex`) get objects
//! ([`crate::texture`]): a texture the generated RGBA `f32` image of
//! [`Image::default_texture`], a surface the generated RGBA `u32` image of
//! [`Image::default_surface`] (compared after the launch like a buffer), a
//! sampler (and a texture's own sampler state) by launch shape
//! ([`shape_sampler`]): CUDA's defaults (clamp, point, unnormalized
//! coordinates), then linear filtering with normalized coordinates and
//! wrap, then mirror / border / clamp.
//!
//! Integer scalars get the candidates `T` (total threads), `T - T/4 - 1`,
//! `16`, `1` in turn (all integer scalars the same value), first with the
//! one-dimensional block of the shape, then with a square-ish
//! two-dimensional block of as many threads (`16x16` for 256, `8x8` for 64,
//! `8x4` for 32: tiled kernels index by `%tid.y`); the first combination for
//! which the *original* kernel runs without an out-of-bounds or misaligned
//! access is used (a fault there means the input is outside the kernel's
//! contract, not a miscompilation; the last combination's fault is reported
//! as an error). Float scalars are `1.5`, `-0.0` and
//! `-2.75` for the first, second and third shape.
//!
//! # Launch shapes
//!
//! `1x32`, `2x64`, `1x256` (grid x block, one-dimensional) by default; a
//! kernel with `.reqntid` gets grids 1 and 2 of exactly that block; with
//! `.maxntid`, blocks larger than its product are dropped (and the
//! `.maxntid` block itself is used if none remains).
//!
//! # Comparison
//!
//! Every buffer argument is compared after the launch, word by word (32-bit
//! little-endian words; a trailing partial word byte by byte). Words equal
//! bit for bit match; so do two words that are both NaN as `f32`. When either
//! kernel contains an instruction with `.approx` (`ex2.approx`, `rcp.approx`,
//! `div.approx`, ...), words that are finite `f32` values of the same sign
//! within [`VerifyOptions::approx_ulps`] units in the last place (default 2)
//! match too: an optimizer may legally move such an instruction to operands
//! that differ in rounding. The first mismatching word is reported
//! ([`Difference`]), with the number of mismatching words. Then the
//! `printf` output of the two launches ([`Emulator::output`]) is compared,
//! each ordered by thread (the order between threads is not defined on a
//! GPU): a different line is [`Outcome::OutputDifferent`].
//!
//! A kernel that the emulator cannot run ([`ErrorKind::Unsupported`] in
//! either run) is reported as skipped, never as passed. So is a kernel that
//! reads a timer register (`%clock`, `%clock64`, `%globaltimer`) whose
//! memory differs: the emulated clock advances at each read, so removing a
//! dead read (legal: reading a clock has no effect) changes the values of
//! the later ones; equal memory is still a verdict.
//!
//! # Kernels that stop
//!
//! When every scalar candidate stops the original kernel (a `trap`, an
//! out-of-bounds or misaligned access, an undefined value, the step limit,
//! ...), the optimized kernel runs on the last candidate's inputs too. If it
//! stops at the same point ([`same_stop`]: the same kind of error, function
//! and thread, the same address for a memory fault) and every buffer (and
//! surface) is equal, that is a verdict, [`Outcome::BothStopped`] ("equal:
//! both stop at ..."). Two runs that both reach the step limit stopped after
//! the same number of steps, not necessarily at the same point of the
//! program: equal memory is the verdict, different memory is skipped
//! (nothing is proven either way). A run that stops where the other does
//! not is a difference ([`Outcome::Error`]), except an original that exceeds
//! the step limit, or uses an undefined value, while the optimized one
//! finishes: skipped, nothing to compare (an undefined value may become
//! anything: a guarded definition an optimizer made unconditional gives
//! it one).
//!
//! Every try (each launch shape, each scalar candidate) starts from the
//! module's initial global memory ([`Emulator::save_globals`]; up to
//! [`MAX_SNAPSHOT`] bytes of module variables and images), so a try that
//! faults in the original alone leaves nothing behind in the module's
//! variables or surfaces for the next one.
//!
//! # Shared memory
//!
//! Launches get [`VerifyOptions::shared_bytes`] of dynamic shared memory,
//! by default the target's maximum per block ([`max_dynamic_shared`]) less
//! the static shared memory, as a program sizing its `extern .shared` array
//! for the device would.

use std::fmt;

use ptx_ir::ir::{AddressBase, Function, FunctionKind, Module, Operand, RegId};
use ptx_isa::{FamilyId, Space};
use rustc_hash::FxHashMap;

use crate::error::{EmuError, ErrorKind};
use crate::launch::{Buffer, Dim3, ElemType, Emulator, KernelArg, LaunchConfig};
use crate::texture::{AddrMode, Filter, Image, Sampler};

/// The most global memory (module variables and images) [`verify`] copies
/// to start every try from the module's initial state.
pub const MAX_SNAPSHOT: u64 = 64 << 20;

/// How [`verify`] runs.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Seed of the input generator.
    pub seed: u64,
    /// 32-bit words per buffer; `None`: `max(total threads * 4, 4096)`.
    pub elements: Option<usize>,
    /// Launch shapes `(grid, block)`; empty: the defaults (see the module
    /// documentation).
    pub shapes: Vec<(Dim3, Dim3)>,
    /// ULP tolerance for `f32` words of kernels with `.approx` instructions.
    pub approx_ulps: u32,
    /// Thread-instructions per launch.
    pub step_limit: u64,
    /// Bytes of dynamic shared memory per CTA; `None`: the target's maximum
    /// per block (see [`max_dynamic_shared`]) less the static shared memory.
    pub shared_bytes: Option<u32>,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            seed: 1,
            elements: None,
            shapes: Vec::new(),
            approx_ulps: 2,
            step_limit: 500_000_000,
            shared_bytes: None,
        }
    }
}

/// What a kernel parameter is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamClass {
    /// A device buffer of generated words.
    Buffer,
    /// An integer scalar of this many bytes.
    Int { size: u64 },
    /// An `f32` (4 bytes) or `f64` (8 bytes) scalar.
    Float { size: u64 },
    /// Anything else (arrays, `.b8` aggregates, half types): zero bytes.
    Bytes { size: u64 },
    /// A texture object: a `.texref` parameter, or an address-sized integer
    /// parameter that reaches the texture operand of `tex`/`tld4`/`txq`.
    Texture,
    /// A surface object (`.surfref`, or the surface operand of
    /// `suld`/`sust`/`sured`/`suq`).
    Surface,
    /// A sampler object (`.samplerref`, or the sampler operand of an
    /// independent-mode `tex`).
    Sampler,
}

/// A module plus, optionally, the text it was lowered from (for PTX line
/// numbers in errors).
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub module: &'a Module,
    pub text: Option<&'a str>,
}

/// Which of the two runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Original,
    Optimized,
}

impl fmt::Display for Which {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Which::Original => "original",
            Which::Optimized => "optimized",
        })
    }
}

/// The first mismatching word of a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The parameter index and name of the buffer.
    pub param: usize,
    pub param_name: String,
    /// Index of the 32-bit word (byte offset / 4).
    pub index: usize,
    pub original: u32,
    pub optimized: u32,
    /// Mismatching words in this buffer.
    pub count: usize,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.original, self.optimized);
        write!(
            f,
            "argument {} (`{}`) word {}: original {a:#010x} (f32 {:e}, u32 {a}), optimized {b:#010x} (f32 {:e}, u32 {b}); {} word{} differ",
            self.param,
            self.param_name,
            self.index,
            f32::from_bits(a),
            f32::from_bits(b),
            self.count,
            if self.count == 1 { "" } else { "s" }
        )
    }
}

/// How one launch shape went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every buffer matched; thread-instructions of the original and the
    /// optimized run.
    Equal {
        original: u64,
        optimized: u64,
    },
    Different(Difference),
    /// The buffers match but the `printf` output differs: the first line
    /// that differs on each side (`(none)` past the end).
    OutputDifferent {
        original: String,
        optimized: String,
    },
    /// The emulator cannot run the original kernel.
    Skipped(String),
    /// Both runs stopped at the same point: the same error (kind, function,
    /// thread; for an out-of-bounds or misaligned access the same address)
    /// with every buffer equal (for the step limit the buffers are not
    /// compared: the two runs stop after the same number of steps, not at
    /// the same point of the program). `error` is the original's.
    BothStopped {
        error: EmuError,
    },
    /// `which` run stopped with `error` and the other did not stop at the
    /// same point (it finished, or stopped elsewhere): a difference.
    Error {
        which: Which,
        error: EmuError,
    },
}

/// One launch shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeRun {
    pub grid: Dim3,
    pub block: Dim3,
    /// The scalar arguments used, e.g. `n=32 a=1.5`.
    pub scalars: String,
    pub outcome: Outcome,
}

/// The overall result of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Equal,
    Skipped,
    Different,
    Error,
}

/// What [`verify`] found for one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    pub kernel: String,
    pub params: Vec<(String, ParamClass)>,
    /// Set when the check could not start (unknown kernel, changed
    /// signature, a module the emulator rejects).
    pub problem: Option<String>,
    pub runs: Vec<ShapeRun>,
}

impl VerifyReport {
    /// Error if anything failed, else Different, else Skipped if any shape
    /// was skipped, else Equal.
    pub fn verdict(&self) -> Verdict {
        if self.problem.is_some() {
            return Verdict::Error;
        }
        let mut v = Verdict::Equal;
        for r in &self.runs {
            let this = match r.outcome {
                Outcome::Equal { .. } | Outcome::BothStopped { .. } => Verdict::Equal,
                Outcome::Skipped(_) => Verdict::Skipped,
                Outcome::Different(_) | Outcome::OutputDifferent { .. } | Outcome::Error { .. } => {
                    Verdict::Different
                }
            };
            v = v.max(this);
        }
        v
    }

    /// The first difference, if any.
    pub fn first_difference(&self) -> Option<&Difference> {
        self.runs.iter().find_map(|r| match &r.outcome {
            Outcome::Different(d) => Some(d),
            _ => None,
        })
    }
}

/// [`verify_sources`] without the texts.
pub fn verify(
    original: &Module,
    optimized: &Module,
    kernel: &str,
    opts: &VerifyOptions,
) -> VerifyReport {
    verify_sources(
        Side {
            module: original,
            text: None,
        },
        Side {
            module: optimized,
            text: None,
        },
        kernel,
        opts,
    )
}

/// Runs `kernel` of both modules on the same inputs for each launch shape and
/// compares the buffers (see the module documentation).
pub fn verify_sources(
    original: Side<'_>,
    optimized: Side<'_>,
    kernel: &str,
    opts: &VerifyOptions,
) -> VerifyReport {
    let mut report = VerifyReport {
        kernel: kernel.to_string(),
        params: Vec::new(),
        problem: None,
        runs: Vec::new(),
    };
    let find = |m: &Module| {
        m.functions
            .iter()
            .find(|f| f.sig.name == kernel && f.sig.kind == FunctionKind::Entry)
            .cloned()
    };
    let (Some(orig_fn), Some(opt_fn)) = (find(original.module), find(optimized.module)) else {
        report.problem = Some(format!(
            "no kernel `{kernel}` in the original or the optimized module"
        ));
        return report;
    };
    if orig_fn.sig.params != opt_fn.sig.params {
        report.problem = Some("the optimized kernel's parameters differ".to_string());
        return report;
    }
    let make = |side: Side<'_>| match side.text {
        Some(t) => Emulator::with_source(side.module, t),
        None => Emulator::new(side.module),
    };
    let (mut emu_a, mut emu_b) = match (make(original), make(optimized)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => {
            report.problem = Some(format!("original module: {e}"));
            return report;
        }
        (_, Err(e)) => {
            report.problem = Some(format!("optimized module: {e}"));
            return report;
        }
    };
    emu_a.set_step_limit(opts.step_limit);
    emu_b.set_step_limit(opts.step_limit);
    let addr_bits = original.module.header.address_size.unwrap_or(64);
    let sizes = kparam_sizes(&emu_a, kernel);
    let classes = classify_params(&orig_fn, addr_bits, &sizes);
    report.params = orig_fn
        .sig
        .params
        .iter()
        .map(|p| p.name.clone())
        .zip(classes.iter().cloned())
        .collect();
    let approx = uses_approx(original.module) || uses_approx(optimized.module);
    let timer = reads_timer(original.module);
    let dynamic_smem = opts.shared_bytes.unwrap_or_else(|| {
        let arch = original
            .module
            .header
            .target
            .as_ref()
            .map(|t| t.arch.as_str());
        let static_smem = emu_a
            .program()
            .layout
            .shared_static
            .max(emu_b.program().layout.shared_static);
        max_dynamic_shared(arch).saturating_sub(static_smem.min(u32::MAX as u64) as u32)
    });
    // The module's initial global memory, to start tries from (a copy of
    // every `.global` variable and image; not taken past 64 MiB, where the
    // copies would cost more than they protect).
    let initial = (emu_a.global_bytes().max(emu_b.global_bytes()) <= MAX_SNAPSHOT)
        .then(|| (emu_a.save_globals(), emu_b.save_globals()));
    // Whether the emulators' module state may differ from the initial one:
    // after any launch (restoring after equal launches too keeps every
    // shape independent of the ones before).
    let mut dirty = false;
    for (si, (grid, shape_block)) in launch_shapes(&orig_fn, opts).into_iter().enumerate() {
        let threads = (grid.count() * shape_block.count()) as usize;
        let words = opts.elements.unwrap_or((threads * 4).max(4096));
        let fscalar = [1.5f64, -0.0, -2.75][si % 3];
        let t = threads as i64;
        let mut candidates = vec![t, t - t / 4 - 1, 16, 1];
        candidates.retain(|&c| c > 0);
        candidates.dedup();
        // A one-dimensional block, then (default shapes only) a square-ish
        // two-dimensional one of the same size, for kernels that index
        // tiles by `%tid.y`.
        let mut blocks = vec![shape_block];
        if opts.shapes.is_empty() && shape_block.y == 1 && shape_block.z == 1 {
            let n = shape_block.x;
            let mut x = 1;
            while x * x < n {
                x *= 2;
            }
            if x < n && n % x == 0 {
                blocks.push(Dim3::xy(x, n / x));
            }
        }
        let mut outcome = None;
        let mut scalars = String::new();
        let mut block = shape_block;
        let tries: Vec<(Dim3, i64)> = blocks
            .iter()
            .flat_map(|&b| candidates.iter().map(move |&c| (b, c)))
            .collect();
        for (ti, &(b, ival)) in tries.iter().enumerate() {
            block = b;
            let cfg = LaunchConfig {
                grid,
                block,
                dynamic_smem,
            };
            let seed = opts.seed ^ (si as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let args = make_args(&classes, words, seed, ival, fscalar, si);
            scalars = describe_scalars(&report.params, ival, fscalar);
            let mut a = args.clone();
            // Every try starts from the module's initial state, so that a
            // try of the original alone (one that faults, and is retried)
            // leaves nothing behind in the module's variables and surfaces.
            if let (true, Some((ga, gb))) = (dirty, &initial) {
                emu_a.restore_globals(ga);
                emu_b.restore_globals(gb);
            }
            dirty = true;
            let ra = emu_a.launch(kernel, cfg, &mut a);
            let last = ti + 1 == tries.len();
            match ra {
                Err(e) if matches!(e.kind, ErrorKind::Unsupported(_)) => {
                    outcome = Some(Outcome::Skipped(e.to_string()));
                    break;
                }
                Err(e)
                    if !last
                        && matches!(
                            e.kind,
                            ErrorKind::OutOfBounds { .. }
                                | ErrorKind::Misaligned { .. }
                                | ErrorKind::Trap
                        ) =>
                {
                    continue;
                }
                Err(e) => {
                    // Every input stops the original: a verdict when the
                    // optimized kernel stops at the same point in the same
                    // state.
                    let mut b = args;
                    let rb = emu_b.launch(kernel, cfg, &mut b);
                    outcome = Some(match rb {
                        Err(eb) if matches!(eb.kind, ErrorKind::Unsupported(_)) => {
                            Outcome::Skipped(eb.to_string())
                        }
                        Err(eb) if same_stop(&e, &eb) => {
                            let diff = compare(&a, &b, &report.params, approx, opts.approx_ulps);
                            let limit = matches!(e.kind, ErrorKind::StepLimit(_));
                            match diff {
                                // The two runs stopped after the same number
                                // of steps, not at the same point of the
                                // program: different memory proves nothing.
                                Some(d) if limit => Outcome::Skipped(format!(
                                    "both runs reached the step limit, with different memory ({d})"
                                )),
                                Some(d) => Outcome::Different(d),
                                None => Outcome::BothStopped { error: e },
                            }
                        }
                        // The optimized kernel, doing less work, finished
                        // within the step limit: nothing to compare.
                        Ok(_) if matches!(e.kind, ErrorKind::StepLimit(_)) => {
                            Outcome::Skipped(format!("the original kernel: {e}"))
                        }
                        // The original stores, branches on or addresses with
                        // a value no instruction wrote: its result is not
                        // defined, and an optimizer may make it anything (a
                        // guarded definition made unconditional gives it one).
                        Ok(_) if matches!(e.kind, ErrorKind::UndefinedRegister(_)) => {
                            Outcome::Skipped(format!(
                                "the original kernel is not defined there: {e}"
                            ))
                        }
                        _ => Outcome::Error {
                            which: Which::Original,
                            error: e,
                        },
                    });
                    break;
                }
                Ok(sa) => {
                    let mut b = args;
                    outcome = Some(match emu_b.launch(kernel, cfg, &mut b) {
                        Err(e) if matches!(e.kind, ErrorKind::Unsupported(_)) => {
                            Outcome::Skipped(e.to_string())
                        }
                        Err(e) => Outcome::Error {
                            which: Which::Optimized,
                            error: e,
                        },
                        Ok(sb) => match (
                            compare(&a, &b, &report.params, approx, opts.approx_ulps),
                            &timer,
                        ) {
                            (Some(d), Some(t)) => Outcome::Skipped(format!(
                                "the kernel reads {t}, whose values depend on how many reads run: different memory proves nothing ({d})"
                            )),
                            (Some(d), None) => Outcome::Different(d),
                            (None, _) => match compare_output(emu_a.output(), emu_b.output()) {
                                Some((original, optimized)) => Outcome::OutputDifferent {
                                    original,
                                    optimized,
                                },
                                None => Outcome::Equal {
                                    original: sa.thread_instructions,
                                    optimized: sb.thread_instructions,
                                },
                            },
                        },
                    });
                    break;
                }
            }
        }
        report.runs.push(ShapeRun {
            grid,
            block,
            scalars,
            outcome: outcome.expect("at least one candidate"),
        });
    }
    report
}

/// The first differing `printf` line of two runs, each run's lines ordered
/// by thread (stable: a thread's lines keep their order; the order between
/// threads is not defined on a GPU).
fn compare_output(a: &[String], b: &[String]) -> Option<(String, String)> {
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort_by(|x, y| {
            let key = |s: &str| s.split_once(": ").map_or("", |(t, _)| t).to_string();
            key(x).cmp(&key(y))
        });
        v
    };
    let (a, b) = (sorted(a), sorted(b));
    (0..a.len().max(b.len())).find_map(|i| {
        let none = || "(none)".to_string();
        let (x, y) = (a.get(i).cloned(), b.get(i).cloned());
        (x != y).then(|| (x.unwrap_or_else(none), y.unwrap_or_else(none)))
    })
}

/// Whether two runs stopped at the same point: the same kind of error (the
/// same address for a memory fault; any register for an undefined value,
/// since registers are renamed), in the same function and thread. Two step
/// limits always match.
pub fn same_stop(a: &EmuError, b: &EmuError) -> bool {
    use ErrorKind as K;
    let kinds = match (&a.kind, &b.kind) {
        (K::StepLimit(_), K::StepLimit(_)) => return true,
        (K::UndefinedRegister(_), K::UndefinedRegister(_))
        | (K::BarrierDivergence(_), K::BarrierDivergence(_))
        | (K::WarpDivergence(_), K::WarpDivergence(_)) => true,
        (x, y) => x == y,
    };
    let place = |e: &EmuError| e.location.as_ref().map(|l| (l.function.clone(), l.thread));
    kinds && place(a) == place(b)
}

/// The most dynamic shared memory a block may have on a target (`sm_80`,
/// `compute_90a`; the opt-in maximum per block of the CUDA programming
/// guide's table), 48 KiB when unknown.
pub fn max_dynamic_shared(arch: Option<&str>) -> u32 {
    let sm = arch
        .and_then(|a| a.rsplit('_').next())
        .map(|n| n.trim_end_matches(|c: char| c.is_ascii_alphabetic()))
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    let kib = match sm {
        0..=69 => 48,
        70..=72 => 96,
        75 => 64,
        80 | 87 => 163,
        86 | 89 => 99,
        90..=99 => 227,
        100..=119 => 227,
        120.. => 99,
        _ => 48,
    };
    kib * 1024
}

fn kparam_sizes(emu: &Emulator, kernel: &str) -> Vec<u64> {
    let prog = emu.program();
    prog.by_name
        .get(kernel)
        .map(|&i| {
            prog.funcs[i as usize]
                .kparams
                .iter()
                .map(|p| p.size)
                .collect()
        })
        .unwrap_or_default()
}

/// Classifies the parameters of a kernel (see the module documentation).
/// `sizes` are the parameters' sizes in bytes.
pub fn classify_params(func: &Function, addr_bits: u32, sizes: &[u64]) -> Vec<ParamClass> {
    let params = &func.sig.params;
    let index: FxHashMap<&str, usize> = params
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    // Register -> bit set of parameters it carries (parameters past 128 are
    // never buffers).
    let mut carries: FxHashMap<RegId, u128> = FxHashMap::default();
    let bit = |i: usize| if i < 128 { 1u128 << i } else { 0 };
    let mut changed = true;
    while changed {
        changed = false;
        for (_, inst) in func.insts_in_order() {
            let family = inst.opcode.info.family;
            let Some(dest) = inst.operands.first().and_then(Operand::as_reg) else {
                continue;
            };
            let mut from = 0u128;
            if family == FamilyId::Ld && inst.opcode.info.space == Some(Space::Param) {
                if let Some(Operand::Address(a)) = inst.operands.get(1) {
                    if let AddressBase::Symbol(s) = &a.base {
                        if let Some(&i) = index.get(s.as_str()) {
                            from = bit(i);
                        }
                    }
                }
            } else if matches!(
                family,
                FamilyId::Mov
                    | FamilyId::Cvta
                    | FamilyId::Cvt
                    | FamilyId::Add
                    | FamilyId::AddCc
                    | FamilyId::Sub
                    | FamilyId::SubCc
                    | FamilyId::Selp
                    | FamilyId::And
                    | FamilyId::Or
            ) {
                for op in &inst.operands[1..] {
                    op.for_each_reg(&mut |r| from |= carries.get(&r).copied().unwrap_or(0));
                }
            } else if family == FamilyId::Mad {
                if let Some(op) = inst.operands.last() {
                    op.for_each_reg(&mut |r| from |= carries.get(&r).copied().unwrap_or(0));
                }
            }
            if from != 0 {
                let e = carries.entry(dest).or_insert(0);
                if *e | from != *e {
                    *e |= from;
                    changed = true;
                }
            }
        }
    }
    // Texture, surface and sampler operands.
    let (mut textures, mut surfaces, mut samplers) = (0u128, 0u128, 0u128);
    for (_, inst) in func.insts_in_order() {
        let family = inst.opcode.info.family;
        let carried = |op: Option<&Operand>| {
            let mut bits = 0u128;
            let op = match op {
                Some(Operand::AddressList(items)) if items.len() == 1 => items.first(),
                op => op,
            };
            match op {
                Some(Operand::Address(a)) => {
                    if let AddressBase::Reg(r) = a.base {
                        bits |= carries.get(&r).copied().unwrap_or(0);
                    }
                }
                Some(op @ Operand::Reg { .. }) => {
                    op.for_each_reg(&mut |r| bits |= carries.get(&r).copied().unwrap_or(0))
                }
                _ => {}
            }
            bits
        };
        let list = |i: usize| match inst.operands.get(i) {
            Some(Operand::AddressList(items)) => items.clone(),
            _ => Vec::new(),
        };
        match family {
            FamilyId::Tex | FamilyId::Tld4 => {
                let items = list(1);
                textures |= carried(items.first());
                if items.len() == 3 {
                    samplers |= carried(items.get(1));
                }
            }
            FamilyId::Suld => surfaces |= carried(list(1).first()),
            FamilyId::Sust | FamilyId::Sured => surfaces |= carried(list(0).first()),
            FamilyId::Suq => surfaces |= carried(inst.operands.get(1)),
            FamilyId::Txq => {
                let sampler_query = inst.opcode.modifiers.iter().any(|m| {
                    m.starts_with(".addr_mode")
                        || m == ".filter_mode"
                        || m == ".force_unnormalized_coords"
                });
                if sampler_query {
                    samplers |= carried(inst.operands.get(1));
                } else {
                    textures |= carried(inst.operands.get(1));
                }
            }
            _ => {}
        }
    }
    let mut addressed = 0u128;
    for (_, inst) in func.insts_in_order() {
        let info = &inst.opcode.info;
        let passed = info.family == FamilyId::St && info.space == Some(Space::Param);
        if passed || (info.family == FamilyId::Cvta && inst.opcode.has_modifier(".to")) {
            if let Some(op) = inst.operands.get(1) {
                op.for_each_reg(&mut |r| addressed |= carries.get(&r).copied().unwrap_or(0));
            }
        }
        for op in &inst.operands {
            visit_addresses(op, &mut |r| {
                addressed |= carries.get(&r).copied().unwrap_or(0)
            });
        }
    }
    let ptr_ty = |ty: &str| {
        let ty = ty.trim_start_matches('.');
        if addr_bits == 32 {
            matches!(ty, "u32" | "b32" | "s32")
        } else {
            matches!(ty, "u64" | "b64" | "s64")
        }
    };
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let size = sizes.get(i).copied().unwrap_or(0);
            let scalar_like = p.dims.is_empty() && p.vector.is_none();
            match p.ty.as_str() {
                ".texref" => return ParamClass::Texture,
                ".surfref" => return ParamClass::Surface,
                ".samplerref" => return ParamClass::Sampler,
                _ => {}
            }
            if scalar_like && ptr_ty(&p.ty) && size >= 8 {
                if textures & bit(i) != 0 {
                    return ParamClass::Texture;
                }
                if surfaces & bit(i) != 0 {
                    return ParamClass::Surface;
                }
                if samplers & bit(i) != 0 {
                    return ParamClass::Sampler;
                }
            }
            if p.ptr.is_some() || (scalar_like && ptr_ty(&p.ty) && addressed & bit(i) != 0) {
                return ParamClass::Buffer;
            }
            let ty = p.ty.trim_start_matches('.');
            if !scalar_like {
                ParamClass::Bytes { size }
            } else if matches!(ty, "f32" | "f64") {
                ParamClass::Float { size }
            } else if ty.starts_with('u') || ty.starts_with('s') || ty.starts_with('b') {
                ParamClass::Int { size }
            } else {
                ParamClass::Bytes { size }
            }
        })
        .collect()
}

fn visit_addresses(op: &Operand, f: &mut impl FnMut(RegId)) {
    match op {
        Operand::Address(a) => {
            if let AddressBase::Reg(r) = a.base {
                f(r)
            }
        }
        Operand::RegOffset { reg, .. } => f(*reg),
        Operand::AddressList(items) => items.iter().for_each(|o| o.for_each_reg(f)),
        _ => {}
    }
}

/// The first timer register (`%clock`, `%clock64`, `%globaltimer`, ...) the
/// module reads, if any: the emulated clock advances at each read, so a
/// pass that removes a dead read changes what the later ones see (a real
/// clock gives no two runs the same values either).
fn reads_timer(m: &Module) -> Option<String> {
    m.functions.iter().find_map(|f| {
        f.insts_in_order().find_map(|(_, i)| {
            i.operands.iter().find_map(|op| match op {
                Operand::Special { name, .. }
                    if name.starts_with("%clock") || name.starts_with("%globaltimer") =>
                {
                    Some(name.clone())
                }
                _ => None,
            })
        })
    })
}

fn uses_approx(m: &Module) -> bool {
    m.functions
        .iter()
        .any(|f| f.insts_in_order().any(|(_, i)| i.opcode.info.approx))
}

/// The launch shapes for a kernel (see the module documentation).
pub fn launch_shapes(func: &Function, opts: &VerifyOptions) -> Vec<(Dim3, Dim3)> {
    if !opts.shapes.is_empty() {
        return opts.shapes.clone();
    }
    let perf = |name: &str| {
        func.sig
            .perf
            .iter()
            .find(|p| p.name.trim_start_matches('.') == name)
            .map(|p| {
                let v = |i: usize| p.values.get(i).copied().unwrap_or(1).max(1) as u32;
                Dim3::new(v(0), v(1), v(2))
            })
    };
    if let Some(req) = perf("reqntid") {
        return vec![(Dim3::x(1), req), (Dim3::x(2), req)];
    }
    let mut shapes = vec![
        (Dim3::x(1), Dim3::x(32)),
        (Dim3::x(2), Dim3::x(64)),
        (Dim3::x(1), Dim3::x(256)),
    ];
    if let Some(max) = perf("maxntid") {
        shapes.retain(|(_, b)| b.count() <= max.count());
        if shapes.is_empty() {
            shapes.push((Dim3::x(1), max));
        }
    }
    shapes
}

/// A splitmix64 generator: the test inputs here and `ptxopt run`'s `random`
/// buffers (deterministic for a seed, on every platform).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

const FLOAT_EDGES: [u32; 12] = [
    0x0000_0000, // 0
    0x8000_0000, // -0
    0x7fc0_0000, // quiet NaN
    0x7f80_0001, // signalling NaN
    0x7f80_0000, // +Inf
    0xff80_0000, // -Inf
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff, // -FLT_MAX
    0x3f80_0000, // 1
    0xbf80_0000, // -1
];

const INT_EDGES: [u32; 7] = [
    0,
    1,
    0xffff_ffff, // -1, UINT_MAX
    0x8000_0000, // INT_MIN
    0x7fff_ffff, // INT_MAX
    0x0000_8000,
    0xffff_fffe,
];

/// `words` generated 32-bit words (see the module documentation).
pub fn generate_words(seed: u64, words: usize) -> Vec<u32> {
    let mut rng = Rng(seed);
    (0..words)
        .map(|i| {
            let r = rng.next_u64();
            match i % 8 {
                3 => FLOAT_EDGES[(i / 8) % FLOAT_EDGES.len()],
                6 => INT_EDGES[(i / 8) % INT_EDGES.len()],
                0 | 2 | 5 => {
                    let f = ((r >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0;
                    f.to_bits()
                }
                1 => (r >> 32) as u32,
                _ => ((r >> 32) % 1024) as u32,
            }
        })
        .collect()
}

/// The sampler of launch shape `shape`: clamp and point filtering with
/// unnormalized coordinates (CUDA's defaults) first, then linear filtering
/// with normalized coordinates and wrap, then mirror / border / clamp.
pub fn shape_sampler(shape: usize) -> Sampler {
    match shape % 3 {
        0 => Sampler::default(),
        1 => Sampler {
            addr: [AddrMode::Wrap; 3],
            filter: Filter::Linear,
            normalized: true,
            force_unnormalized: false,
        },
        _ => Sampler {
            addr: [AddrMode::Mirror, AddrMode::Border, AddrMode::Clamp],
            filter: Filter::Linear,
            normalized: true,
            force_unnormalized: false,
        },
    }
}

fn make_args(
    classes: &[ParamClass],
    words: usize,
    seed: u64,
    ival: i64,
    fval: f64,
    shape: usize,
) -> Vec<KernelArg> {
    classes
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            ParamClass::Texture => KernelArg::Texture {
                image: Image::default_texture(seed.wrapping_add(i as u64 * 0x1000_0001)),
                sampler: shape_sampler(shape),
            },
            ParamClass::Surface => KernelArg::Surface(Image::default_surface(
                seed.wrapping_add(i as u64 * 0x1000_0001),
            )),
            ParamClass::Sampler => KernelArg::Sampler(shape_sampler(shape)),
            ParamClass::Buffer => {
                let w = generate_words(seed.wrapping_add(i as u64 * 0x1000_0001), words);
                KernelArg::Buffer(Buffer::from_slice(&w))
            }
            ParamClass::Int { size } => {
                let b = ival.to_le_bytes();
                KernelArg::Value(b[..(*size as usize).min(8)].to_vec())
            }
            ParamClass::Float { size } => match size {
                4 => KernelArg::value(fval as f32),
                _ => KernelArg::value(fval),
            },
            ParamClass::Bytes { size } => KernelArg::Value(vec![0; *size as usize]),
        })
        .collect()
}

fn describe_scalars(params: &[(String, ParamClass)], ival: i64, fval: f64) -> String {
    let mut out = Vec::new();
    for (name, c) in params {
        match c {
            ParamClass::Int { .. } => out.push(format!("{name}={ival}")),
            ParamClass::Float { .. } => out.push(format!("{name}={fval}")),
            ParamClass::Bytes { .. } => out.push(format!("{name}=0")),
            ParamClass::Buffer
            | ParamClass::Texture
            | ParamClass::Surface
            | ParamClass::Sampler => {}
        }
    }
    out.join(" ")
}

/// Whether two `f32` words match under the ULP bound.
fn within_ulps(a: u32, b: u32, ulps: u32) -> bool {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if !fa.is_finite() || !fb.is_finite() || (a >> 31) != (b >> 31) {
        return false;
    }
    (a & 0x7fff_ffff).abs_diff(b & 0x7fff_ffff) <= ulps
}

fn words_match(a: u32, b: u32, approx: bool, ulps: u32) -> bool {
    a == b
        || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
        || (approx && within_ulps(a, b, ulps))
}

fn compare(
    a: &[KernelArg],
    b: &[KernelArg],
    params: &[(String, ParamClass)],
    approx: bool,
    ulps: u32,
) -> Option<Difference> {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let (Some(x), Some(y)) = (x.device_bytes(), y.device_bytes()) else {
            continue;
        };
        let mut first = None;
        let mut count = 0;
        let words = x.len().max(y.len()).div_ceil(4);
        for w in 0..words {
            let get = |buf: &[u8]| {
                let mut b = [0u8; 4];
                for (k, slot) in b.iter_mut().enumerate() {
                    *slot = buf.get(w * 4 + k).copied().unwrap_or(0);
                }
                u32::from_le_bytes(b)
            };
            let (va, vb) = (get(x), get(y));
            let full = w * 4 + 4 <= x.len();
            let ok = if full {
                words_match(va, vb, approx, ulps)
            } else {
                va == vb
            };
            if !ok {
                count += 1;
                first.get_or_insert((w, va, vb));
            }
        }
        if let Some((index, original, optimized)) = first {
            return Some(Difference {
                param: i,
                param_name: params.get(i).map(|p| p.0.clone()).unwrap_or_default(),
                index,
                original,
                optimized,
                count,
            });
        }
    }
    None
}

/// A buffer of `count` elements of `ty` from the input generator (handy
/// for tools that want the same inputs).
pub fn generated_buffer(ty: ElemType, count: usize, seed: u64) -> Buffer {
    let bytes: Vec<u8> = generate_words(seed, (count * ty.size()).div_ceil(4))
        .into_iter()
        .flat_map(u32::to_le_bytes)
        .take(count * ty.size())
        .collect();
    Buffer::from_bytes(ty, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(text: &str) -> Module {
        let parse = ptx_syntax::parse(text);
        ptx_ir::lower_module(&parse).0
    }

    const SAXPY: &str = include_str!("../../../test-data/examples/saxpy.ptx");

    #[test]
    fn saxpy_params_are_classified() {
        let m = lower(SAXPY);
        let f = &m.functions[0];
        let c = classify_params(f, 64, &[4, 4, 8, 8]);
        assert_eq!(
            c,
            vec![
                ParamClass::Int { size: 4 },
                ParamClass::Float { size: 4 },
                ParamClass::Buffer,
                ParamClass::Buffer
            ]
        );
    }

    #[test]
    fn pointers_passed_to_calls_are_buffers() {
        let ptx = ".version 8.0\n.target sm_80\n.address_size 64\n\
            .func (.param .b32 r) bump(.param .b64 p)\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n\
            ld.param.u64 %rd1, [p];\natom.global.add.u32 %r1, [%rd1], 1;\n\
            st.param.b32 [r], %r1;\nret;\n}\n\
            .visible .entry k(.param .u64 k_p, .param .u64 k_n)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n\
            ld.param.u64 %rd1, [k_p];\nld.param.u64 %rd2, [k_n];\n\
            { .param .b64 a0;\n.param .b32 r0;\nst.param.b64 [a0], %rd1;\n\
            call.uni (r0), bump, (a0);\nld.param.b32 %r1, [r0];\n}\nret;\n}\n";
        let m = lower(ptx);
        let f = m.functions.iter().find(|f| f.sig.name == "k").unwrap();
        assert_eq!(
            classify_params(f, 64, &[8, 8]),
            vec![ParamClass::Buffer, ParamClass::Int { size: 8 }]
        );
        let r = verify(&m, &m, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Equal, "{r:?}");
    }

    #[test]
    fn identical_modules_are_equal() {
        let m = lower(SAXPY);
        let r = verify(&m, &m, "saxpy", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Equal, "{r:?}");
        assert_eq!(r.runs.len(), 3);
    }

    const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

    fn kernel(body: &str) -> Module {
        lower(&format!(
            "{HEADER}.extern .shared .align 4 .b8 dyn[];\n\
             .visible .entry k(.param .u64 k_out)\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
             ld.param.u64 %rd1, [k_out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n\
             mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n{body}\nret;\n}}\n"
        ))
    }

    #[test]
    fn dynamic_shared_memory_is_the_targets_maximum() {
        assert_eq!(max_dynamic_shared(Some("sm_80")), 163 * 1024);
        assert_eq!(max_dynamic_shared(Some("sm_90a")), 227 * 1024);
        assert_eq!(max_dynamic_shared(Some("compute_75")), 64 * 1024);
        assert_eq!(max_dynamic_shared(None), 48 * 1024);
        // A thread writes past 48 KiB of the extern array and reads it back.
        let m = kernel(
            "mov.u32 %r2, dyn;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n\
             add.u32 %r4, %r4, 100000;\nst.shared.u32 [%r4], %r1;\nld.shared.u32 %r5, [%r4];\n\
             st.global.u32 [%rd4], %r5;",
        );
        let r = verify(&m, &m, "k", &VerifyOptions::default());
        assert!(
            r.runs
                .iter()
                .all(|r| matches!(r.outcome, Outcome::Equal { .. })),
            "{r:?}"
        );
        let small = VerifyOptions {
            shared_bytes: Some(1024),
            ..VerifyOptions::default()
        };
        let r = verify(&m, &m, "k", &small);
        assert!(
            r.runs
                .iter()
                .all(|r| matches!(r.outcome, Outcome::BothStopped { .. })),
            "{r:?}"
        );
    }

    #[test]
    fn kernels_stopping_at_the_same_point_are_a_verdict() {
        // Thread 3 traps after every thread stored its index.
        let m = kernel("st.global.u32 [%rd4], %r1;\nsetp.eq.u32 %p1, %r1, 3;\n@%p1 trap;");
        let r = verify(&m, &m, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Equal, "{r:?}");
        assert!(r.runs.iter().all(|run| matches!(
            &run.outcome,
            Outcome::BothStopped { error } if error.kind == ErrorKind::Trap
        )));
        // The same trap, but a different value stored before it: different.
        let other = kernel(
            "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd4], %r2;\nsetp.eq.u32 %p1, %r1, 3;\n@%p1 trap;",
        );
        let r = verify(&m, &other, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
        // A trap on one side only: different.
        let clean = kernel("st.global.u32 [%rd4], %r1;");
        let r = verify(&m, &clean, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
        assert!(r.runs.iter().all(|run| matches!(
            run.outcome,
            Outcome::Error {
                which: Which::Original,
                ..
            }
        )));
        let r = verify(&clean, &m, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
        // Another thread traps: different.
        let elsewhere = kernel("st.global.u32 [%rd4], %r1;\nsetp.eq.u32 %p1, %r1, 4;\n@%p1 trap;");
        let r = verify(&m, &elsewhere, "k", &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
    }

    #[test]
    fn texture_and_surface_objects_are_classified_and_compared() {
        let m = lower(include_str!("../../../test-data/frontend/tex_surf.ptx"));
        let f = &m.functions[0];
        assert_eq!(
            classify_params(f, 64, &[8, 8, 8, 4, 4]),
            vec![
                ParamClass::Texture,
                ParamClass::Surface,
                ParamClass::Buffer,
                ParamClass::Int { size: 4 },
                ParamClass::Int { size: 4 }
            ]
        );
        let r = verify(&m, &m, &f.sig.name, &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Equal, "{r:?}");
        // A store to the surface that differs is found in the surface.
        let text = include_str!("../../../test-data/frontend/tex_surf.ptx");
        let changed = text.replace("and.b16  \t%rs7, %rs2, 255;", "and.b16  \t%rs7, %rs2, 254;");
        assert_ne!(changed, text);
        let r = verify(&m, &lower(&changed), &f.sig.name, &VerifyOptions::default());
        assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
    }

    #[test]
    fn every_try_starts_from_the_initial_module_state() {
        // The first two scalar candidates (32, 23) fault after every thread
        // incremented the module's counter; the third (16) runs. Had the
        // faulting tries of the original alone kept their increments, the
        // original would store 96 where the optimized stores 32.
        let m = lower(&format!(
            "{HEADER}.global .u32 counter;\n\
             .visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [k_out];\nld.param.u32 %r1, [k_n];\nmov.u32 %r2, %tid.x;\n\
             atom.global.add.u32 %r3, [counter], 1;\nsetp.gt.u32 %p1, %r1, 16;\n\
             @%p1 ld.global.u32 %r4, [%rd1+100000000];\nbar.sync 0;\nld.global.u32 %r5, [counter];\n\
             mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r5;\nret;\n}}\n"
        ));
        let opts = VerifyOptions {
            shapes: vec![(Dim3::x(1), Dim3::x(32))],
            ..VerifyOptions::default()
        };
        let r = verify(&m, &m, "k", &opts);
        assert_eq!(r.verdict(), Verdict::Equal, "{r:?}");
        assert_eq!(r.runs[0].scalars, "k_n=16");
    }

    #[test]
    fn step_limits_compare_memory() {
        let opts = VerifyOptions {
            step_limit: 20_000,
            ..VerifyOptions::default()
        };
        let spin = kernel("st.global.u32 [%rd4], %r1;\nL: bra L;");
        let r = verify(&spin, &spin, "k", &opts);
        assert!(
            r.runs.iter().all(|run| matches!(
                &run.outcome,
                Outcome::BothStopped { error } if matches!(error.kind, ErrorKind::StepLimit(_))
            )),
            "{r:?}"
        );
        // Another value stored before spinning: not equal, and no proof of a
        // difference either (the runs stop after as many steps, not at the
        // same point).
        let other = kernel("add.u32 %r2, %r1, 1;\nst.global.u32 [%rd4], %r2;\nL: bra L;");
        let r = verify(&spin, &other, "k", &opts);
        assert_eq!(r.verdict(), Verdict::Skipped, "{r:?}");
    }

    #[test]
    fn ulp_and_nan_matching() {
        assert!(words_match(0x7fc0_0000, 0x7f80_0001, false, 0));
        assert!(!words_match(0x3f80_0000, 0x3f80_0001, false, 2));
        assert!(words_match(0x3f80_0000, 0x3f80_0002, true, 2));
        assert!(!words_match(0x3f80_0000, 0x3f80_0003, true, 2));
        assert!(!words_match(0x0000_0000, 0x8000_0000, true, 2));
    }

    #[test]
    fn generator_mixes_edges() {
        let w = generate_words(7, 64);
        assert_eq!(w, generate_words(7, 64));
        assert!(w.contains(&0x7fc0_0000) || w.contains(&0x8000_0000));
        assert!(w.contains(&0x7fff_ffff) || w.contains(&0x8000_0000));
    }
}
