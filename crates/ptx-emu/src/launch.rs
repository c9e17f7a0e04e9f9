//! The public API and the CTA scheduler.
//!
//! [`Emulator::launch`] lays the arguments out in the kernel parameter space
//! (buffers are copied onto the global heap and their addresses passed), then
//! runs the CTAs of the grid one after another. Within a CTA the warps take
//! turns, each for a slice of instructions or until it reaches a barrier, so
//! warps that spin on a flag another warp sets still make progress. A barrier
//! (`bar.sync`, `barrier.sync`, `bar.red`, `bar.arrive`; 16 per CTA) completes
//! when its thread count has arrived: the count operand, or every thread of the
//! CTA that has not exited. If every unfinished warp waits at a barrier that
//! cannot complete, the launch fails with [`ErrorKind::BarrierDivergence`].
//! Buffers are copied back after the launch, also when it fails.

use rustc_hash::FxHashMap;

use ptx_ir::ir::Module;
use ptx_syntax::line_index::LineIndex;

use crate::decode::{function_index, Program};
use crate::error::{EmuError, ErrorKind, Location, ThreadId};
use crate::exec::{run_warp, Ctx, Event, Fault, Warp};
use crate::layout::Layout;
use crate::memory::{write_le, GlobalMem};
use crate::op::BarKind;

/// Grid or block dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// `(x, 1, 1)`.
    pub fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `(x, y, 1)`.
    pub fn xy(x: u32, y: u32) -> Dim3 {
        Dim3 { x, y, z: 1 }
    }

    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    fn arr(&self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
}

/// How a kernel is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    /// Bytes of dynamic shared memory (`.extern .shared` arrays).
    pub dynamic_smem: u32,
}

/// The element type of a buffer (for the reader's convenience; the emulator
/// sees bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
    Bytes,
}

impl ElemType {
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::I8 | ElemType::Bytes => 1,
            ElemType::U16 | ElemType::I16 | ElemType::F16 | ElemType::BF16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 | ElemType::F64 => 8,
        }
    }
}

/// A plain value that can live in a buffer or a parameter.
pub trait Element: Copy {
    const TYPE: ElemType;
    fn write_le(self, out: &mut Vec<u8>);
    fn read_le(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($($t:ty => $e:ident),*) => {$(
        impl Element for $t {
            const TYPE: ElemType = ElemType::$e;
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..std::mem::size_of::<$t>()]);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}

element!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i16 => I16, i32 => I32, i64 => I64, f32 => F32, f64 => F64);

/// A device buffer: bytes with an element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub ty: ElemType,
    pub bytes: Vec<u8>,
}

impl Buffer {
    pub fn from_slice<T: Element>(values: &[T]) -> Buffer {
        let mut bytes = Vec::with_capacity(values.len() * T::TYPE.size());
        for v in values {
            v.write_le(&mut bytes);
        }
        Buffer { ty: T::TYPE, bytes }
    }

    /// `count` zeroed elements.
    pub fn zeroed(ty: ElemType, count: usize) -> Buffer {
        Buffer {
            ty,
            bytes: vec![0; count * ty.size()],
        }
    }

    pub fn from_bytes(ty: ElemType, bytes: Vec<u8>) -> Buffer {
        Buffer { ty, bytes }
    }

    /// The contents as elements of `T` (a trailing partial element is dropped).
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        let size = T::TYPE.size();
        self.bytes.chunks_exact(size).map(T::read_le).collect()
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelArg {
    /// A scalar (or `.align`ed byte array) parameter, little-endian bytes;
    /// the length must be the parameter's size.
    Value(Vec<u8>),
    /// A device buffer: copied to global memory, its address is passed, and
    /// it is copied back after the launch.
    Buffer(Buffer),
    /// The address of the buffer of another argument (by index), to pass one
    /// buffer to two parameters.
    BufferOf(usize),
    /// A raw address (null, or a global variable's address).
    Pointer(u64),
    /// A texture object (a bindless `.u64` texture, or a `.texref`
    /// parameter): the image is copied to global memory for the launch and
    /// the object's handle is passed (see [`crate::texture`]).
    Texture {
        image: crate::texture::Image,
        sampler: crate::texture::Sampler,
    },
    /// A surface object: like a texture, and its bytes are copied back.
    Surface(crate::texture::Image),
    /// A sampler object (a `.samplerref` parameter or `.u64` sampler).
    Sampler(crate::texture::Sampler),
}

impl KernelArg {
    pub fn value<T: Element>(v: T) -> KernelArg {
        let mut bytes = Vec::new();
        v.write_le(&mut bytes);
        KernelArg::Value(bytes)
    }

    pub fn buffer(&self) -> Option<&Buffer> {
        match self {
            KernelArg::Buffer(b) => Some(b),
            _ => None,
        }
    }

    /// The device bytes of a buffer or surface argument.
    pub fn device_bytes(&self) -> Option<&[u8]> {
        match self {
            KernelArg::Buffer(b) => Some(&b.bytes),
            KernelArg::Surface(img) => Some(&img.bytes),
            _ => None,
        }
    }

    /// The bytes the launch copies to global memory (and back).
    fn bytes_mut(&mut self) -> Option<&mut Vec<u8>> {
        match self {
            KernelArg::Buffer(b) => Some(&mut b.bytes),
            KernelArg::Surface(img) | KernelArg::Texture { image: img, .. } => Some(&mut img.bytes),
            _ => None,
        }
    }
}

/// What a launch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    pub ctas: u64,
    pub warps: u64,
    /// Warp-instructions issued.
    pub warp_instructions: u64,
    /// Thread-instructions (warp-instructions times the lanes issuing them,
    /// predicated-off lanes included).
    pub thread_instructions: u64,
    /// Barriers completed.
    pub barriers: u64,
    pub max_call_depth: u32,
}

/// The text a module was lowered from, to turn instruction offsets into lines.
#[derive(Clone, Debug)]
struct Source {
    text: String,
    index: LineIndex,
    func_start: FxHashMap<String, u32>,
}

/// A CPU emulator for one module. Global variables keep their values across
/// launches, like a CUDA context.
#[derive(Clone, Debug)]
pub struct Emulator {
    prog: Program,
    global: GlobalMem,
    source: Option<Source>,
    step_limit: u64,
    /// The `printf` output of the last launch.
    output: Vec<String>,
}

/// Default limit of thread-instructions per launch.
pub const DEFAULT_STEP_LIMIT: u64 = 4_000_000_000;

/// Shared memory per CTA: static (every function's variables; the emulator
/// lays them out together) plus dynamic.
pub const MAX_SHARED: u64 = 16 << 20;

/// Warp-instructions a warp runs before the next one gets its turn.
const SLICE: u32 = 2048;

impl Emulator {
    /// Prepares a module: lays out its variables and decodes every function.
    pub fn new(module: &Module) -> Result<Emulator, EmuError> {
        let (index, decls) = function_index(module);
        let addr_bits = module.header.address_size.unwrap_or(64);
        let mut global = GlobalMem::new(crate::memory::AddrMap::new(addr_bits).global_base);
        let layout = Layout::build(module, &index, &mut global)?;
        let prog = Program::build(module, layout, index, decls);
        Ok(Emulator {
            prog,
            global,
            source: None,
            step_limit: DEFAULT_STEP_LIMIT,
            output: Vec::new(),
        })
    }

    /// [`Emulator::new`], keeping the text the module was lowered from so that
    /// errors carry PTX line numbers.
    pub fn with_source(module: &Module, text: &str) -> Result<Emulator, EmuError> {
        let mut emu = Emulator::new(module)?;
        let parse = ptx_syntax::parse(text);
        let mut func_start = FxHashMap::default();
        for f in parse.tree().functions() {
            if f.body().is_none() {
                continue;
            }
            if let Some(name) = f.name() {
                use ptx_syntax::ast::AstNode;
                func_start.insert(name.text(), u32::from(f.syntax().text_range().start()));
            }
        }
        emu.source = Some(Source {
            text: text.to_string(),
            index: LineIndex::new(text),
            func_start,
        });
        Ok(emu)
    }

    /// Parses, lowers and prepares PTX text. Syntax and lowering errors are
    /// reported as [`ErrorKind::Malformed`].
    pub fn from_ptx(text: &str) -> Result<Emulator, EmuError> {
        let parse = ptx_syntax::parse(text);
        if let Some(e) = parse.errors().first() {
            return Err(EmuError::new(ErrorKind::Malformed(format!(
                "syntax error: {e:?}"
            ))));
        }
        let (module, errors) = ptx_ir::lower_module(&parse);
        if let Some(e) = errors.first() {
            let line = LineIndex::new(text).line_col(text, e.range.start()).line;
            return Err(EmuError::new(ErrorKind::Malformed(format!(
                "line {line}: {}",
                e.message
            ))));
        }
        Emulator::with_source(&module, text)
    }

    /// The `printf` output of the last launch that finished: one entry per
    /// call and thread, `ctaid (x,y,z) tid (x,y,z): text`, in the order the
    /// emulator ran them (conversions rendered plainly: integers in decimal
    /// or hex, floats as `{:e}`, flags and widths kept as `[%spec]`).
    pub fn output(&self) -> &[String] {
        &self.output
    }

    /// Sets the limit of thread-instructions per launch.
    pub fn set_step_limit(&mut self, limit: u64) {
        self.step_limit = limit;
    }

    /// The decoded program (functions, instructions, layout).
    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The names of the kernels (`.entry` functions with a body).
    pub fn kernels(&self) -> Vec<&str> {
        self.prog
            .funcs
            .iter()
            .filter(|f| f.is_entry && f.has_body)
            .map(|f| f.name.as_str())
            .collect()
    }

    /// The global address of a module-level `.global` variable.
    pub fn global_address(&self, name: &str) -> Option<u64> {
        match self.prog.layout.module_syms.get(name)? {
            crate::layout::SymLoc::Global(a) => Some(*a),
            _ => None,
        }
    }

    /// Reads global memory (a variable's bytes, say).
    pub fn read_global(&mut self, addr: u64, len: usize) -> Option<Vec<u8>> {
        self.global.slice_mut(addr, len as u64).map(|s| s.to_vec())
    }

    /// The module's global memory (its `.global` variables and images), to
    /// put back later with [`Emulator::restore_globals`].
    pub fn save_globals(&self) -> GlobalMem {
        self.global.clone()
    }

    /// Bytes of global memory the module holds (its variables and images).
    pub fn global_bytes(&self) -> u64 {
        self.global.allocs.iter().map(|a| a.data.len() as u64).sum()
    }

    /// Puts back global memory saved by [`Emulator::save_globals`].
    pub fn restore_globals(&mut self, saved: &GlobalMem) {
        self.global.clone_from(saved);
    }

    /// Writes global memory.
    pub fn write_global(&mut self, addr: u64, bytes: &[u8]) -> Option<()> {
        self.global
            .slice_mut(addr, bytes.len() as u64)
            .map(|s| s.copy_from_slice(bytes))
    }

    /// Runs a kernel. Buffers in `args` hold the device contents afterwards
    /// (also when the launch fails).
    pub fn launch(
        &mut self,
        kernel: &str,
        cfg: LaunchConfig,
        args: &mut [KernelArg],
    ) -> Result<LaunchStats, EmuError> {
        let ki = *self
            .prog
            .by_name
            .get(kernel)
            .filter(|&&i| {
                let f = &self.prog.funcs[i as usize];
                f.is_entry && f.has_body
            })
            .ok_or_else(|| EmuError::new(ErrorKind::UnknownKernel(kernel.to_string())))?;
        check_config(&cfg)?;
        let keep = self.global.allocs.len();
        self.output.clear();
        let result = self.launch_inner(ki, cfg, args);
        // Copy the buffers (and images) back, then free them.
        let mut buffer_index = 0;
        for arg in args.iter_mut() {
            if let Some(bytes) = arg.bytes_mut() {
                if let Some(a) = self.global.allocs.get(keep + buffer_index) {
                    let n = bytes.len().min(a.data.len());
                    bytes[..n].copy_from_slice(&a.data[..n]);
                }
                buffer_index += 1;
            }
        }
        self.global.truncate(keep);
        result
    }

    fn launch_inner(
        &mut self,
        ki: u32,
        cfg: LaunchConfig,
        args: &mut [KernelArg],
    ) -> Result<LaunchStats, EmuError> {
        let prog = &self.prog;
        let kf = &prog.funcs[ki as usize];
        if args.len() != kf.kparams.len() {
            return Err(EmuError::new(ErrorKind::BadArguments(format!(
                "`{}` takes {} parameters, {} arguments given",
                kf.name,
                kf.kparams.len(),
                args.len()
            ))));
        }
        // Buffers first, so that BufferOf can refer to any of them; images
        // in the same order (the copy back counts them together).
        let mut addrs = vec![None; args.len()];
        let mut objs = prog.layout.objects.clone();
        let mut handles = vec![None; args.len()];
        for (i, arg) in args.iter().enumerate() {
            let name = format!("argument {i} (`{}`)", kf.kparams[i].name);
            let mut image = |img: &crate::texture::Image| -> Result<_, EmuError> {
                // As many bytes as the sizes say, whatever `bytes` holds.
                let mut bytes = crate::memory::try_zeroed(img.dims.bytes(), &name)?;
                let n = bytes.len().min(img.bytes.len());
                bytes[..n].copy_from_slice(&img.bytes[..n]);
                let base = self.global.alloc(bytes, 256, &name);
                Ok(crate::texture::ImageDesc {
                    base,
                    dims: img.dims,
                })
            };
            use crate::texture::{handle, Obj, ObjKind};
            let obj = match arg {
                KernelArg::Buffer(b) => {
                    let bytes = crate::memory::try_copy(&b.bytes, &name)?;
                    addrs[i] = Some(self.global.alloc(bytes, 256, &name));
                    continue;
                }
                KernelArg::Texture {
                    image: img,
                    sampler,
                } => Obj::Texture {
                    img: image(img)?,
                    sampler: *sampler,
                },
                KernelArg::Surface(img) => Obj::Surface(image(img)?),
                KernelArg::Sampler(s) => Obj::Sampler(*s),
                _ => continue,
            };
            let kind: ObjKind = obj.kind();
            objs.push(obj);
            handles[i] = Some(handle(objs.len() - 1, kind));
        }
        let ptr_bytes = (prog.layout.map.addr_bits / 8) as u64;
        let mut kparams = vec![0u8; kf.kparam_size as usize];
        for (i, (p, arg)) in kf.kparams.iter().zip(args.iter()).enumerate() {
            let slot = &mut kparams[p.off as usize..(p.off + p.size) as usize];
            let bad = |m: String| {
                EmuError::new(ErrorKind::BadArguments(format!(
                    "argument {i} (`{}`): {m}",
                    p.name
                )))
            };
            let ptr = match arg {
                KernelArg::Value(bytes) => {
                    if bytes.len() as u64 != p.size {
                        return Err(bad(format!(
                            "{} bytes given for a {}-byte parameter",
                            bytes.len(),
                            p.size
                        )));
                    }
                    slot.copy_from_slice(bytes);
                    continue;
                }
                KernelArg::Buffer(_) => addrs[i].unwrap_or(0),
                KernelArg::BufferOf(j) => addrs
                    .get(*j)
                    .copied()
                    .flatten()
                    .ok_or_else(|| bad(format!("argument {j} is not a buffer")))?,
                KernelArg::Pointer(a) => *a,
                KernelArg::Texture { .. } | KernelArg::Surface(_) | KernelArg::Sampler(_) => {
                    let h = handles[i].unwrap_or(0);
                    if p.size < 8 {
                        return Err(bad(format!(
                            "a texture, sampler or surface handle does not fit a {}-byte parameter",
                            p.size
                        )));
                    }
                    write_le(&mut slot[..8], h);
                    continue;
                }
            };
            if p.size < ptr_bytes {
                return Err(bad(format!(
                    "a pointer does not fit a {}-byte parameter",
                    p.size
                )));
            }
            write_le(&mut slot[..ptr_bytes as usize], ptr);
        }
        let static_smem = prog.layout.shared_static;
        if static_smem + cfg.dynamic_smem as u64 > MAX_SHARED {
            return Err(EmuError::new(ErrorKind::BadLaunch(format!(
                "{} bytes of shared memory (at most {MAX_SHARED})",
                static_smem + cfg.dynamic_smem as u64
            ))));
        }
        let static_local = prog.layout.static_local.div_ceil(16) * 16;
        if static_local + kf.local_frame > crate::exec::MAX_LOCAL
            || kf.param_frame > crate::exec::MAX_PARAM_STACK
        {
            return Err(EmuError::new(ErrorKind::BadLaunch(format!(
                "`{}` needs more than {} bytes of local memory per thread",
                kf.name,
                crate::exec::MAX_LOCAL
            ))));
        }
        let mut cx = Ctx {
            prog,
            global: &mut self.global,
            kparams: &kparams,
            konst: &prog.layout.const_seg,
            shared: Vec::new(),
            grid: cfg.grid.arr(),
            block: cfg.block.arr(),
            ctaid: [0; 3],
            dyn_smem: cfg.dynamic_smem,
            static_smem: static_smem as u32,
            steps: 0,
            limit: self.step_limit,
            clock: std::cell::Cell::new(0),
            warp_insts: 0,
            max_depth: 1,
            at: (ki, 0),
            addr_mask: if prog.layout.map.addr_bits == 32 {
                0xffff_ffff
            } else {
                u64::MAX
            },
            heap_used: 0,
            output: Vec::new(),
            objs: &objs,
        };
        let mut stats = LaunchStats::default();
        let nthreads = cfg.block.count() as u32;
        let nwarps = nthreads.div_ceil(32);
        for z in 0..cfg.grid.z {
            for y in 0..cfg.grid.y {
                for x in 0..cfg.grid.x {
                    cx.ctaid = [x, y, z];
                    cx.shared = crate::memory::try_zeroed(
                        static_smem + cfg.dynamic_smem as u64,
                        "shared memory",
                    )?;
                    let mut warps: Vec<Warp> = (0..nwarps)
                        .map(|i| {
                            Warp::new(
                                prog,
                                ki,
                                i,
                                nthreads,
                                cfg.block.arr(),
                                prog.layout.static_local,
                            )
                        })
                        .collect();
                    stats.barriers += run_cta(&mut cx, &mut warps).map_err(|(f, wi)| {
                        locate(prog, self.source.as_ref(), &cx, &warps[wi], f)
                    })?;
                    stats.ctas += 1;
                    stats.warps += nwarps as u64;
                }
            }
        }
        self.output = std::mem::take(&mut cx.output);
        stats.warp_instructions = cx.warp_insts;
        stats.thread_instructions = cx.steps;
        stats.max_call_depth = cx.max_depth;
        Ok(stats)
    }
}

fn check_config(cfg: &LaunchConfig) -> Result<(), EmuError> {
    let bad = |m: &str| Err(EmuError::new(ErrorKind::BadLaunch(m.to_string())));
    let (g, b) = (cfg.grid, cfg.block);
    if g.count() == 0 || b.count() == 0 {
        return bad("zero grid or block dimension");
    }
    if b.count() > 1024 || b.x > 1024 || b.y > 1024 || b.z > 64 {
        return bad("more than 1024 threads per block (or block.z > 64)");
    }
    if g.y > 65535 || g.z > 65535 {
        return bad("grid.y and grid.z are at most 65535");
    }
    Ok(())
}

/// Turns a fault of warp `w` into an error with its location.
fn locate(prog: &Program, source: Option<&Source>, cx: &Ctx, w: &Warp, f: Fault) -> EmuError {
    let (fi, pc) = cx.at;
    let func = &prog.funcs[fi as usize];
    let info = func.info.get(pc as usize);
    let line = match (source, info) {
        (Some(src), Some(info)) => src.func_start.get(&func.name).map(|&start| {
            src.index
                .line_col(&src.text, (start + info.offset).into())
                .line
        }),
        _ => None,
    };
    let lane = f.lane.unwrap_or_else(|| w.live().trailing_zeros().min(31));
    EmuError {
        kind: f.kind,
        location: Some(Box::new(Location {
            function: func.name.clone(),
            line,
            loc: info.and_then(|i| i.loc),
            inst: info.map(|i| i.text.clone()).unwrap_or_default(),
            thread: Some(ThreadId {
                ctaid: cx.ctaid,
                tid: [
                    w.tid[0][lane as usize],
                    w.tid[1][lane as usize],
                    w.tid[2][lane as usize],
                ],
            }),
        })),
    }
}

/// State of one barrier.
#[derive(Clone, Debug, Default)]
struct Bar {
    arrived: u32,
    expected: Option<u32>,
    waiting: Vec<usize>,
    popc: u32,
    all: bool,
    any: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Ready,
    Waiting(u32),
    Done,
}

/// Runs one CTA to completion; returns the number of barriers completed, or
/// the fault and the index of the warp it happened in.
fn run_cta(cx: &mut Ctx, warps: &mut [Warp]) -> Result<u64, (Fault, usize)> {
    let n = warps.len();
    let mut status = vec![Status::Ready; n];
    let mut bars: Vec<Bar> = (0..16)
        .map(|_| Bar {
            all: true,
            ..Bar::default()
        })
        .collect();
    let mut completed = 0u64;
    loop {
        let mut progress = false;
        for i in 0..n {
            if status[i] != Status::Ready {
                continue;
            }
            progress = true;
            match run_warp(cx, &mut warps[i], SLICE).map_err(|f| (f, i))? {
                Event::Yield => {}
                Event::Done => {
                    status[i] = Status::Done;
                    for id in 0..16 {
                        completed += release(&mut bars, id, warps, &mut status) as u64;
                    }
                }
                Event::Barrier {
                    id,
                    count,
                    kind,
                    threads,
                    pred_true,
                } => {
                    if id >= 16 {
                        return Err((
                            ErrorKind::Malformed(format!("barrier {id} (there are 16)")).into(),
                            i,
                        ));
                    }
                    let b = &mut bars[id as usize];
                    b.arrived += threads;
                    if let Some(c) = count {
                        b.expected = Some(c);
                    }
                    b.popc += pred_true.count_ones();
                    b.all &= pred_true.count_ones() == threads;
                    b.any |= pred_true != 0;
                    if kind != BarKind::Arrive {
                        status[i] = Status::Waiting(id);
                        b.waiting.push(i);
                    }
                    completed += release(&mut bars, id as usize, warps, &mut status) as u64;
                }
            }
        }
        if status.iter().all(|s| *s == Status::Done) {
            return Ok(completed);
        }
        if !progress {
            let waiting: Vec<String> = status
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s {
                    Status::Waiting(id) => Some(format!("warp {i} at barrier {id}")),
                    _ => None,
                })
                .collect();
            let first = status
                .iter()
                .position(|s| matches!(s, Status::Waiting(_)))
                .unwrap_or(0);
            let bar = match status[first] {
                Status::Waiting(id) => &bars[id as usize],
                _ => &bars[0],
            };
            let live: u32 = warps.iter().map(|w| w.live().count_ones()).sum();
            return Err((
                ErrorKind::BarrierDivergence(format!(
                    "deadlock: {} ({} of {} threads arrived)",
                    waiting.join(", "),
                    bar.arrived,
                    bar.expected.unwrap_or(live)
                ))
                .into(),
                first,
            ));
        }
    }
}

/// Completes barrier `id` if enough threads arrived.
fn release(bars: &mut [Bar], id: usize, warps: &mut [Warp], status: &mut [Status]) -> bool {
    let b = &bars[id];
    if b.arrived == 0 {
        return false;
    }
    let live: u32 = warps.iter().map(|w| w.live().count_ones()).sum();
    let expected = b.expected.unwrap_or(live);
    if b.arrived < expected {
        return false;
    }
    let b = std::mem::replace(
        &mut bars[id],
        Bar {
            all: true,
            ..Bar::default()
        },
    );
    for &wi in &b.waiting {
        status[wi] = Status::Ready;
        let w = &mut warps[wi];
        if let Some(p) = w.pending.take() {
            let v = match p.kind {
                BarKind::RedPopc => b.popc as u64,
                BarKind::RedAnd => b.all as u64,
                BarKind::RedOr => b.any as u64,
                _ => 0,
            };
            crate::exec::deliver(w, p.d, v, p.mask);
        }
    }
    true
}
