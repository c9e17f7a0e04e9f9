//! Executing a warp: 32 lanes in lockstep over the decoded instructions.
//!
//! The register file of the current frame is `regs[slot * 32 + lane]` (every
//! value zero- or sign-extended to its register's width) with a bit per lane
//! saying whether the value is defined (`def`). Definedness propagates like
//! memcheck's: a result computed from an undefined source is undefined
//! (`selp` looks only at the operand it selects), and
//! only a use that matters is an error (an address, a stored value, a
//! branch condition or guard, an operand of a warp-wide or barrier
//! instruction, a call target). So a dead computation on an uninitialized
//! register passes, and a store of one fails at the store.
//!
//! Control flow uses a SIMT stack per frame: each entry is a program counter,
//! a reconvergence point and a lane mask; the top entry runs. A branch taken
//! by some of the entry's lanes turns the entry into the join at the branch's
//! reconvergence point (the immediate post-dominator) and pushes one entry per
//! side; an entry whose pc reaches its reconvergence point is popped, so the
//! sides run one after the other and join there. `ret` removes its lanes from
//! every entry of the frame (they wait for the rest of the call), `exit` from
//! every entry of every frame. A call pushes a frame with its own registers;
//! when its stack empties, the lanes that returned go back to the caller.
//!
//! Warp-wide instructions (`shfl`, `vote`, `match`, `redux`, `mma`, ...) see
//! the active lanes together, as on the hardware. A member mask that names
//! lanes which are not active (exited, or on the other side of a branch) is
//! accepted, as ptxas-compiled code and the hardware accept it: votes,
//! `match` and `redux` work on the active members, and a shuffle from an
//! inactive lane reads what that lane's register holds. `bar.sync` by part of
//! a warp is barrier divergence (the SIMT stack cannot run the other part to
//! the barrier first). A CTA barrier hands control back to the scheduler
//! ([`Event::Barrier`]).

use crate::decode::{DFunc, Formal, Program};
use crate::error::ErrorKind;
use crate::fops::{self, compare};
use crate::int;
use crate::layout::SymLoc;
use crate::memory::{check_align, oob, read_le, seg_slice, write_le, GlobalMem, PARAM_STACK_BASE};
use crate::op::*;
use crate::types::{mask, sext, Space, Ty, TyFmt};

pub const FULL: u32 = u32::MAX;

/// An error with the lane that caused it.
#[derive(Debug)]
pub struct Fault {
    pub kind: ErrorKind,
    pub lane: Option<u32>,
}

impl From<ErrorKind> for Fault {
    fn from(kind: ErrorKind) -> Fault {
        Fault { kind, lane: None }
    }
}

fn fault(kind: ErrorKind, lane: u32) -> Fault {
    Fault {
        kind,
        lane: Some(lane),
    }
}

type F<T> = Result<T, Fault>;

/// One SIMT stack entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub pc: u32,
    /// Reconvergence point ([`NONE`]: only when the lanes leave).
    pub rpc: u32,
    pub mask: u32,
}

/// A frame's control state.
#[derive(Clone, Debug)]
pub struct FrameState {
    pub func: u32,
    pub stack: Vec<Entry>,
    /// Lanes that executed `ret` in this frame.
    pub returned: u32,
    pub param_base: u64,
    pub local_base: u64,
    /// The caller's function and the pc of its `call`.
    pub call_site: Option<(u32, u32)>,
    /// The caller's stack tops, restored on return.
    pub saved_tops: (u64, u64),
}

/// A caller's frame while a call runs.
#[derive(Clone, Debug)]
pub struct Saved {
    pub st: FrameState,
    pub regs: Vec<u64>,
    pub def: Vec<u32>,
}

/// A pending `bar.red` result.
#[derive(Clone, Copy, Debug)]
pub struct PendingRed {
    pub d: Dst,
    pub mask: u32,
    pub kind: BarKind,
}

/// What stopped a warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// It used up its time slice.
    Yield,
    /// It finished.
    Done,
    /// It reached a CTA barrier.
    Barrier {
        id: u32,
        count: Option<u32>,
        kind: BarKind,
        /// Threads arriving.
        threads: u32,
        /// Lanes whose predicate was true (`bar.red`).
        pred_true: u32,
    },
}

/// A warp.
#[derive(Clone, Debug)]
pub struct Warp {
    pub id: u32,
    /// Lanes that exist (a partial last warp has fewer).
    pub lanes: u32,
    pub exited: u32,
    pub regs: Vec<u64>,
    pub def: Vec<u32>,
    pub cur: FrameState,
    pub saved: Vec<Saved>,
    /// CC.CF per lane.
    pub carry: u32,
    pub tid: [[u32; 32]; 3],
    pub local: Vec<Vec<u8>>,
    pub pstack: Vec<Vec<u8>>,
    pub local_top: u64,
    pub param_top: u64,
    pub pending: Option<PendingRed>,
    pub max_depth: u32,
}

/// Per-CTA and per-launch state the executor reads.
pub struct Ctx<'a> {
    pub prog: &'a Program,
    pub global: &'a mut GlobalMem,
    pub kparams: &'a [u8],
    pub konst: &'a [u8],
    pub shared: Vec<u8>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub ctaid: [u32; 3],
    pub dyn_smem: u32,
    pub static_smem: u32,
    pub steps: u64,
    pub limit: u64,
    /// The emulated clock (`%clock`, `%clock64`, `%globaltimer`): it advances
    /// by one at each warp-wide read of a timer register, not per
    /// instruction, so that an optimization that changes how many other
    /// instructions run does not change the values a kernel reads (a real
    /// clock gives no reproducible values at all; the differential check
    /// needs the same ones before and after a pass).
    pub clock: std::cell::Cell<u64>,
    pub warp_insts: u64,
    pub max_depth: u32,
    /// The position of the last executed instruction: (function, pc).
    pub at: (u32, u32),
    pub addr_mask: u64,
    /// Bytes `malloc` has handed out in this launch (at most [`HEAP_SIZE`]).
    pub heap_used: u64,
    /// `printf` output of this launch, one entry per call and thread
    /// (`ctaid (x,y,z) tid (x,y,z): text`), at most [`MAX_OUTPUT`] entries.
    pub output: Vec<String>,
    /// Texture, sampler and surface objects (the module's, then the
    /// launch's); see [`crate::texture`].
    pub objs: &'a [crate::texture::Obj],
}

/// `printf` calls kept per launch.
pub const MAX_OUTPUT: usize = 1 << 16;

/// The device heap of `malloc` (CUDA's default `cudaLimitMallocHeapSize`).
pub const HEAP_SIZE: u64 = 8 << 20;

/// Maximum call depth.
const MAX_DEPTH: usize = 1024;

/// Local memory per thread (the hardware's limit, 512 KiB).
pub const MAX_LOCAL: u64 = 512 * 1024;

/// The thread's parameter stack.
pub const MAX_PARAM_STACK: u64 = 512 * 1024;

/// Fails when a thread's local or parameter stack outgrows its limit.
fn check_stacks(w: &Warp, active: u32) -> F<()> {
    if w.local_top > MAX_LOCAL || w.param_top > MAX_PARAM_STACK {
        return Err(fault(ErrorKind::StackOverflow, first_lane(active)));
    }
    Ok(())
}

impl Warp {
    /// A warp of the kernel `func` at its first instruction.
    pub fn new(
        prog: &Program,
        func: u32,
        id: u32,
        nthreads: u32,
        block: [u32; 3],
        static_local: u64,
    ) -> Warp {
        let f = &prog.funcs[func as usize];
        let first = id * 32;
        let n = nthreads.saturating_sub(first).min(32);
        let lanes = if n == 32 { FULL } else { (1u32 << n) - 1 };
        let mut tid = [[0u32; 32]; 3];
        for l in 0..32u32 {
            let t = first + l;
            tid[0][l as usize] = t % block[0];
            tid[1][l as usize] = (t / block[0]) % block[1];
            tid[2][l as usize] = t / (block[0] * block[1]);
        }
        let local_base = static_local.div_ceil(16) * 16;
        let local_top = local_base + f.local_frame.div_ceil(16) * 16;
        let param_top = f.param_frame.div_ceil(16) * 16;
        let mut w = Warp {
            id,
            lanes,
            exited: 0,
            regs: vec![0; f.nslots as usize * 32],
            def: vec![0; f.nslots as usize],
            cur: FrameState {
                func,
                stack: vec![Entry {
                    pc: 0,
                    rpc: NONE,
                    mask: lanes,
                }],
                returned: 0,
                param_base: 0,
                local_base,
                call_site: None,
                saved_tops: (0, 0),
            },
            saved: Vec::new(),
            carry: 0,
            tid,
            local: vec![Vec::new(); 32],
            pstack: vec![Vec::new(); 32],
            local_top,
            param_top,
            pending: None,
            max_depth: 1,
        };
        w.grow_stacks(lanes);
        w
    }

    /// Makes every lane's local and param memory cover the stack tops.
    fn grow_stacks(&mut self, lanes: u32) {
        let (lt, pt) = (self.local_top as usize, self.param_top as usize);
        for l in lane_iter(lanes) {
            if self.local[l as usize].len() < lt {
                self.local[l as usize].resize(lt, 0);
            }
            if self.pstack[l as usize].len() < pt {
                self.pstack[l as usize].resize(pt, 0);
            }
        }
    }

    /// Whether the warp has finished.
    pub fn done(&self) -> bool {
        self.cur.stack.is_empty() && self.saved.is_empty()
    }

    /// Lanes still running.
    pub fn live(&self) -> u32 {
        self.lanes & !self.exited
    }
}

/// Iterates the set lanes of a mask.
#[inline]
pub fn lane_iter(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros();
            m &= m - 1;
            Some(l)
        }
    })
}

#[inline]
fn first_lane(m: u32) -> u32 {
    m.trailing_zeros().min(31)
}

/// Reads a source operand for all lanes, without checking definedness (the
/// definedness of a result is tracked through [`dm`]).
#[inline]
fn val(cx: &Ctx, w: &Warp, s: Src) -> [u64; 32] {
    match s {
        Src::Reg(slot) => {
            let slot = slot as usize;
            let mut out = [0u64; 32];
            if let Some(r) = w.regs.get(slot * 32..slot * 32 + 32) {
                out.copy_from_slice(r);
            }
            out
        }
        Src::Imm(v) => [v; 32],
        Src::RegOff(slot, off) => {
            let mut v = val(cx, w, Src::Reg(slot));
            for x in v.iter_mut() {
                *x = x.wrapping_add(off as u64);
            }
            v
        }
        Src::NotPred(slot) => {
            let mut v = val(cx, w, Src::Reg(slot));
            for x in v.iter_mut() {
                *x = (!*x) & 1;
            }
            v
        }
        Src::Sym(loc, off) => {
            [sym_addr(cx, w, loc, false).wrapping_add(off as u64) & cx.addr_mask; 32]
        }
        Src::SymGeneric(loc, off) => {
            [sym_addr(cx, w, loc, true).wrapping_add(off as u64) & cx.addr_mask; 32]
        }
        Src::Special(sr) => special(cx, w, sr),
    }
}

/// The register a source reads, if any.
#[inline]
fn src_slot(s: Src) -> Option<usize> {
    match s {
        Src::Reg(slot) | Src::RegOff(slot, _) | Src::NotPred(slot) => Some(slot as usize),
        _ => None,
    }
}

/// The lanes in which all of `srcs` are defined.
#[inline]
fn dm(w: &Warp, srcs: &[Src]) -> u32 {
    srcs.iter()
        .filter_map(|s| src_slot(*s))
        .fold(FULL, |m, slot| m & w.def.get(slot).copied().unwrap_or(0))
}

/// Reads a source that must be defined in the active lanes: an address, a
/// stored value, a branch condition, an operand that affects the whole warp.
#[inline]
fn strict(cx: &Ctx, w: &Warp, s: Src, active: u32) -> F<[u64; 32]> {
    if let Some(slot) = src_slot(s) {
        let missing = active & !w.def.get(slot).copied().unwrap_or(0);
        if missing != 0 {
            return Err(undefined(cx, w, slot, missing));
        }
    }
    Ok(val(cx, w, s))
}

fn undefined(cx: &Ctx, w: &Warp, slot: usize, missing: u32) -> Fault {
    let f = &cx.prog.funcs[w.cur.func as usize];
    let name = f.slot_names.get(slot).cloned().unwrap_or_default();
    fault(ErrorKind::UndefinedRegister(name), first_lane(missing))
}

/// Advances the emulated clock (see [`Ctx::clock`]) and returns it.
fn tick(cx: &Ctx) -> u64 {
    let now = cx.clock.get() + 1;
    cx.clock.set(now);
    now
}

/// The value of a special register in every lane.
fn special(cx: &Ctx, w: &Warp, sr: Sreg) -> [u64; 32] {
    let mut out = [0u64; 32];
    for (l, o) in out.iter_mut().enumerate() {
        let lane = l as u32;
        *o = match sr {
            Sreg::Tid(d) => w.tid[d as usize][l] as u64,
            Sreg::Ntid(d) => cx.block[d as usize] as u64,
            Sreg::Ctaid(d) => cx.ctaid[d as usize] as u64,
            Sreg::Nctaid(d) => cx.grid[d as usize] as u64,
            Sreg::LaneId => lane as u64,
            Sreg::WarpId => w.id as u64,
            Sreg::NWarpId => 64,
            Sreg::SmId => 0,
            Sreg::NSmId => 1,
            Sreg::GridId => 1,
            Sreg::LaneMaskEq => 1u64 << lane,
            Sreg::LaneMaskLe => mask(lane + 1),
            Sreg::LaneMaskLt => mask(lane),
            Sreg::LaneMaskGe => !mask(lane) & 0xffff_ffff,
            Sreg::LaneMaskGt => !mask(lane + 1) & 0xffff_ffff,
            Sreg::Clock => tick(cx) & 0xffff_ffff,
            Sreg::ClockHi => tick(cx) >> 32,
            Sreg::Clock64 => tick(cx),
            Sreg::GlobalTimer => tick(cx) * 1000,
            Sreg::GlobalTimerLo => (tick(cx) * 1000) & 0xffff_ffff,
            Sreg::GlobalTimerHi => (tick(cx) * 1000) >> 32,
            Sreg::DynamicSmem => cx.dyn_smem as u64,
            Sreg::TotalSmem => (cx.static_smem + cx.dyn_smem) as u64,
            Sreg::One => 1,
            Sreg::Zero => 0,
        };
    }
    out
}

/// The address of a symbol: in its own space, or generic.
fn sym_addr(cx: &Ctx, w: &Warp, loc: SymLoc, generic: bool) -> u64 {
    let map = &cx.prog.layout.map;
    let (space, a) = match loc {
        SymLoc::Global(a) => (Space::Global, a),
        SymLoc::Const(a) => (Space::Const, a),
        SymLoc::Shared(a) => (Space::Shared, a),
        SymLoc::StaticLocal(a) => (Space::Local, a),
        SymLoc::KParam(a) => (Space::Param, a),
        SymLoc::FrameParam(o) => (Space::Param, PARAM_STACK_BASE + w.cur.param_base + o),
        SymLoc::FrameLocal(o) => (Space::Local, w.cur.local_base + o),
        SymLoc::Func(i) => (Space::Global, map.func_addr(i)),
        SymLoc::Value(v) => (Space::Global, v),
    };
    if generic {
        a + map.window(space)
    } else {
        a
    }
}

/// Writes a destination for the lanes of `active`; `def` says in which lanes
/// the value is defined (computed from undefined sources, it is not).
#[inline]
fn write(w: &mut Warp, d: Dst, v: &[u64; 32], active: u32, def: u32) {
    if d.is_sink() || d.slot as usize >= w.def.len() {
        return;
    }
    let base = d.slot as usize * 32;
    let m1 = mask(d.bits as u32);
    let m2 = mask(d.reg_bits as u32);
    let regs = &mut w.regs[base..base + 32];
    if d.signed && d.bits < 64 {
        for l in lane_iter(active) {
            regs[l as usize] = sext(v[l as usize], d.bits as u32) & m2;
        }
    } else if active == FULL {
        let m = m1 & m2;
        for (r, x) in regs.iter_mut().zip(v.iter()) {
            *r = x & m;
        }
    } else {
        let m = m1 & m2;
        for l in lane_iter(active) {
            regs[l as usize] = v[l as usize] & m;
        }
    }
    let slot = d.slot as usize;
    w.def[slot] = (w.def[slot] & !active) | (def & active);
}

/// Writes one lane.
#[inline]
fn write_lane(w: &mut Warp, d: Dst, v: u64, lane: u32, defined: bool) {
    if d.is_sink() || d.slot as usize >= w.def.len() {
        return;
    }
    let v = ptx_sem::types::write_bits(v, d.bits as u32, d.signed, d.reg_bits as u32);
    w.regs[d.slot as usize * 32 + lane as usize] = v;
    let bit = 1u32 << lane;
    w.def[d.slot as usize] = (w.def[d.slot as usize] & !bit) | if defined { bit } else { 0 };
}

/// A memory access of `size` bytes for one lane.
fn mem<'m>(
    cx: &'m mut Ctx,
    w: &'m mut Warp,
    space: Space,
    addr: u64,
    size: u64,
    lane: u32,
    store: bool,
) -> F<&'m mut [u8]> {
    let map = cx.prog.layout.map;
    let (space, addr) = if space == Space::Generic {
        map.split_generic(addr)
    } else {
        (space, addr)
    };
    check_align(space, addr, size).map_err(|k| fault(k, lane))?;
    let r = match space {
        Space::Global | Space::Generic => match cx.global.slice_mut(addr, size) {
            Some(s) => Ok(s),
            None => Err(oob(space, addr, size)),
        },
        Space::Shared => seg_slice(&mut cx.shared, space, addr, size),
        Space::Local => seg_slice(&mut w.local[lane as usize], space, addr, size),
        // Read-only spaces are read by `load`; only stores get here.
        Space::Const => {
            return Err(fault(
                ErrorKind::Malformed("store to the const space".into()),
                lane,
            ));
        }
        Space::Param => {
            if addr < PARAM_STACK_BASE {
                if store {
                    return Err(fault(
                        ErrorKind::Malformed("store to a kernel parameter".into()),
                        lane,
                    ));
                }
                Err(oob(space, addr, size))
            } else {
                seg_slice(
                    &mut w.pstack[lane as usize],
                    space,
                    addr - PARAM_STACK_BASE,
                    size,
                )
            }
        }
    };
    r.map_err(|k| fault(k, lane))
}

/// Loads `size` (≤ 8) bytes for one lane.
fn load(cx: &mut Ctx, w: &mut Warp, space: Space, addr: u64, size: u64, lane: u32) -> F<u64> {
    let map = cx.prog.layout.map;
    let (sp, a) = if space == Space::Generic {
        map.split_generic(addr)
    } else {
        (space, addr)
    };
    // Read-only segments are read here; the others through `mem`.
    match sp {
        Space::Const => {
            check_align(sp, a, size).map_err(|k| fault(k, lane))?;
            let end = a.checked_add(size).filter(|&e| e <= cx.konst.len() as u64);
            match end {
                Some(e) => Ok(read_le(&cx.konst[a as usize..e as usize])),
                None => Err(fault(oob(sp, a, size), lane)),
            }
        }
        Space::Param if a < PARAM_STACK_BASE => {
            check_align(sp, a, size).map_err(|k| fault(k, lane))?;
            let end = a
                .checked_add(size)
                .filter(|&e| e <= cx.kparams.len() as u64);
            match end {
                Some(e) => Ok(read_le(&cx.kparams[a as usize..e as usize])),
                None => Err(fault(oob(sp, a, size), lane)),
            }
        }
        _ => Ok(read_le(mem(cx, w, sp, a, size, lane, false)?)),
    }
}

fn store(
    cx: &mut Ctx,
    w: &mut Warp,
    space: Space,
    addr: u64,
    size: u64,
    lane: u32,
    v: u64,
) -> F<()> {
    write_le(mem(cx, w, space, addr, size, lane, true)?, v);
    Ok(())
}

/// Copies bytes between two (space, address) places for one lane.
fn copy_bytes(
    cx: &mut Ctx,
    w: &mut Warp,
    from: (Space, u64),
    to: (Space, u64),
    size: u64,
    lane: u32,
) -> F<()> {
    let mut off = 0;
    while off < size {
        let v = load(cx, w, from.0, from.1.wrapping_add(off), 1, lane)?;
        store(cx, w, to.0, to.1.wrapping_add(off), 1, lane, v)?;
        off += 1;
    }
    Ok(())
}

/// Runs a warp until it yields, finishes or reaches a barrier.
pub fn run_warp(cx: &mut Ctx, w: &mut Warp, budget: u32) -> F<Event> {
    let prog: &Program = cx.prog;
    let mut left = budget;
    loop {
        // Find the entry to run.
        let Some(top) = w.cur.stack.last().copied() else {
            if !finish_frame(cx, w)? {
                return Ok(Event::Done);
            }
            continue;
        };
        if top.mask == 0 || top.pc == top.rpc {
            w.cur.stack.pop();
            continue;
        }
        if left == 0 {
            return Ok(Event::Yield);
        }
        left -= 1;
        let func: &DFunc = &prog.funcs[w.cur.func as usize];
        let pc = top.pc;
        cx.at = (w.cur.func, pc);
        let Some(inst) = func.code.get(pc as usize) else {
            return Err(ErrorKind::Malformed("pc past the end of the function".into()).into());
        };
        let emask = top.mask;
        cx.steps += emask.count_ones() as u64;
        cx.warp_insts += 1;
        if cx.steps > cx.limit {
            return Err(fault(ErrorKind::StepLimit(cx.limit), first_lane(emask)));
        }
        let active = match inst.guard {
            None => emask,
            Some((slot, neg)) => {
                let missing = emask & !w.def[slot as usize];
                if missing != 0 {
                    return Err(undefined(cx, w, slot as usize, missing));
                }
                let regs = &w.regs[slot as usize * 32..slot as usize * 32 + 32];
                let mut m = 0u32;
                for l in lane_iter(emask) {
                    if (regs[l as usize] & 1 == 1) != neg {
                        m |= 1 << l;
                    }
                }
                m
            }
        };
        // Control flow first.
        match &inst.op {
            Op::Bra { target, reconv } => {
                branch(w, emask, active, *target, pc + 1, *reconv);
                continue;
            }
            Op::Brx {
                index,
                targets,
                reconv,
            } => {
                let idx = strict(cx, w, *index, active)?;
                let mut groups: Vec<(u32, u32)> = Vec::new();
                for l in lane_iter(active) {
                    let i = idx[l as usize] as usize;
                    let t = *targets.get(i).ok_or_else(|| {
                        fault(
                            ErrorKind::Malformed(format!(
                                "brx.idx index {i} out of range ({} targets)",
                                targets.len()
                            )),
                            l,
                        )
                    })?;
                    match groups.iter_mut().find(|g| g.0 == t) {
                        Some(g) => g.1 |= 1 << l,
                        None => groups.push((t, 1 << l)),
                    }
                }
                let rest = emask & !active;
                if rest != 0 {
                    groups.push((pc + 1, rest));
                }
                diverge(w, &groups, *reconv);
                continue;
            }
            Op::Ret => {
                if active == 0 {
                    set_pc(w, pc + 1);
                    continue;
                }
                if w.saved.is_empty() {
                    exit_lanes(w, active);
                } else {
                    for e in w.cur.stack.iter_mut() {
                        e.mask &= !active;
                    }
                    w.cur.returned |= active;
                    set_pc_if_alive(w, pc + 1);
                }
                continue;
            }
            Op::Exit => {
                if active != 0 {
                    exit_lanes(w, active);
                }
                set_pc_if_alive(w, pc + 1);
                continue;
            }
            Op::Trap(what) => {
                if active != 0 {
                    return Err(fault(
                        if &**what == "trap" {
                            ErrorKind::Trap
                        } else {
                            ErrorKind::Unsupported(format!("{what} (a breakpoint)"))
                        },
                        first_lane(active),
                    ));
                }
                set_pc(w, pc + 1);
                continue;
            }
            Op::Call(spec) => {
                set_pc(w, pc + 1);
                if active != 0 {
                    call(cx, w, spec, active, pc)?;
                }
                continue;
            }
            Op::Bar {
                kind,
                id,
                count,
                d,
                pred,
                aligned: _,
            } => {
                set_pc(w, pc + 1);
                if active == 0 {
                    continue;
                }
                let live = w.live();
                if active != live {
                    return Err(fault(
                        ErrorKind::BarrierDivergence(format!(
                            "barrier reached by lanes {active:#010x} of warp {} while lanes {:#010x} are on another path",
                            w.id,
                            live & !active
                        )),
                        first_lane(live & !active),
                    ));
                }
                let ids = strict(cx, w, *id, active)?;
                let l0 = first_lane(active) as usize;
                let count = match count {
                    Some(c) => Some(strict(cx, w, *c, active)?[l0] as u32),
                    None => None,
                };
                let mut pred_true = 0;
                if let Some(p) = pred {
                    let v = strict(cx, w, *p, active)?;
                    for l in lane_iter(active) {
                        if v[l as usize] & 1 == 1 {
                            pred_true |= 1 << l;
                        }
                    }
                    w.pending = Some(PendingRed {
                        d: *d,
                        mask: active,
                        kind: *kind,
                    });
                }
                return Ok(Event::Barrier {
                    id: ids[l0] as u32,
                    count,
                    kind: *kind,
                    threads: active.count_ones(),
                    pred_true,
                });
            }
            _ => {}
        }
        set_pc(w, pc + 1);
        if active == 0 {
            continue;
        }
        exec(cx, w, &inst.op, active)?;
    }
}

#[inline]
fn set_pc(w: &mut Warp, pc: u32) {
    if let Some(e) = w.cur.stack.last_mut() {
        e.pc = pc;
    }
}

fn set_pc_if_alive(w: &mut Warp, pc: u32) {
    if let Some(e) = w.cur.stack.last_mut() {
        if e.mask != 0 {
            e.pc = pc;
        }
    }
}

/// A (possibly divergent) branch of the top entry.
fn branch(w: &mut Warp, emask: u32, taken: u32, target: u32, next: u32, reconv: u32) {
    if taken == emask {
        set_pc(w, target);
    } else if taken == 0 {
        set_pc(w, next);
    } else {
        diverge(w, &[(next, emask & !taken), (target, taken)], reconv);
    }
}

/// Splits the top entry into groups (pc, lanes) that join at `reconv`.
fn diverge(w: &mut Warp, groups: &[(u32, u32)], reconv: u32) {
    let live: Vec<(u32, u32)> = groups.iter().copied().filter(|g| g.1 != 0).collect();
    if live.len() == 1 {
        set_pc(w, live[0].0);
        return;
    }
    let Some(top) = w.cur.stack.last_mut() else {
        return;
    };
    if top.rpc == reconv {
        // The entry would join at the same point: replace it.
        w.cur.stack.pop();
    } else {
        top.pc = reconv;
    }
    for &(pc, m) in &live {
        if pc != reconv {
            w.cur.stack.push(Entry {
                pc,
                rpc: reconv,
                mask: m,
            });
        }
    }
}

/// Removes lanes from every entry of every frame.
fn exit_lanes(w: &mut Warp, lanes: u32) {
    w.exited |= lanes;
    for e in w.cur.stack.iter_mut() {
        e.mask &= !lanes;
    }
    w.cur.returned &= !lanes;
    for s in w.saved.iter_mut() {
        for e in s.st.stack.iter_mut() {
            e.mask &= !lanes;
        }
        s.st.returned &= !lanes;
    }
}

/// A call of the active lanes.
fn call(cx: &mut Ctx, w: &mut Warp, spec: &CallSpec, active: u32, pc: u32) -> F<()> {
    let prog: &Program = cx.prog;
    let target = match spec.target {
        Ok(i) => i,
        Err(src) => {
            let v = strict(cx, w, src, active)?;
            let t0 = v[first_lane(active) as usize];
            if let Some(l) = lane_iter(active).find(|&l| v[l as usize] != t0) {
                return Err(fault(
                    ErrorKind::Unsupported(
                        "indirect call with different targets in one warp".into(),
                    ),
                    l,
                ));
            }
            prog.layout
                .map
                .func_at(t0)
                .filter(|&i| (i as usize) < prog.funcs.len())
                .ok_or_else(|| {
                    fault(
                        ErrorKind::BadCall(format!("no function at address {t0:#x}")),
                        first_lane(active),
                    )
                })?
        }
    };
    let callee: &DFunc = &prog.funcs[target as usize];
    if !callee.has_body {
        return builtin_call(cx, w, callee, spec, active);
    }
    if w.saved.len() >= MAX_DEPTH {
        return Err(fault(ErrorKind::StackOverflow, first_lane(active)));
    }
    // The callee's frames.
    let param_base = w.param_top;
    let local_base = w.local_top;
    let saved_tops = (w.local_top, w.param_top);
    let mut cregs = vec![0u64; callee.nslots as usize * 32];
    let mut cdef = vec![0u32; callee.nslots as usize];
    w.param_top = param_base.saturating_add(callee.param_frame.div_ceil(16) * 16);
    w.local_top = local_base.saturating_add(callee.local_frame.div_ceil(16) * 16);
    check_stacks(w, active)?;
    w.grow_stacks(active);
    // Arguments.
    for (formal, arg) in callee.params.iter().zip(&spec.args) {
        match (formal, arg) {
            (Formal::Param { off, size }, CallArg::Param(loc)) => {
                let from = sym_addr(cx, w, *loc, false);
                for l in lane_iter(active) {
                    copy_bytes(
                        cx,
                        w,
                        (Space::Param, from),
                        (Space::Param, PARAM_STACK_BASE + param_base + off),
                        *size,
                        l,
                    )?;
                }
            }
            (Formal::Param { off, size }, CallArg::Value(src)) => {
                let v = val(cx, w, *src);
                for l in lane_iter(active) {
                    let addr = PARAM_STACK_BASE + param_base + off;
                    store(cx, w, Space::Param, addr, (*size).min(8), l, v[l as usize])?;
                }
            }
            (Formal::Reg { slot, bits, n }, CallArg::Value(src)) => {
                if *slot == NONE {
                    continue;
                }
                // A vector register passes its elements.
                for k in 0..*n {
                    let s = match *src {
                        Src::Reg(r) => Src::Reg(r + k),
                        other if k == 0 => other,
                        _ => break,
                    };
                    let v = val(cx, w, s);
                    let defined = dm(w, &[s]);
                    let cs = (*slot + k) as usize;
                    if cs >= cdef.len() {
                        break;
                    }
                    for l in lane_iter(active) {
                        cregs[cs * 32 + l as usize] = v[l as usize] & mask(*bits as u32);
                    }
                    cdef[cs] |= active & defined;
                }
            }
            (Formal::Reg { slot, bits, .. }, CallArg::Param(loc)) => {
                let from = sym_addr(cx, w, *loc, false);
                let bytes = (*bits as u64).div_ceil(8);
                for l in lane_iter(active) {
                    let v = load(cx, w, Space::Param, from, bytes.min(8), l)?;
                    if let Some(r) = cregs.get_mut(*slot as usize * 32 + l as usize) {
                        *r = v;
                    }
                }
                if let Some(d) = cdef.get_mut(*slot as usize) {
                    *d |= active;
                }
            }
            _ => {
                return Err(fault(
                    ErrorKind::BadCall(format!("argument form for `{}`", callee.name)),
                    first_lane(active),
                ))
            }
        }
    }
    if spec.args.len() != callee.params.len() || spec.rets.len() > callee.rets.len() {
        return Err(fault(
            ErrorKind::BadCall(format!(
                "`{}` takes {} arguments and {} results, the call passes {} and {}",
                callee.name,
                callee.params.len(),
                callee.rets.len(),
                spec.args.len(),
                spec.rets.len()
            )),
            first_lane(active),
        ));
    }
    let st = FrameState {
        func: target,
        stack: vec![Entry {
            pc: 0,
            rpc: NONE,
            mask: active,
        }],
        returned: 0,
        param_base,
        local_base,
        call_site: Some((w.cur.func, pc)),
        saved_tops,
    };
    let old_st = std::mem::replace(&mut w.cur, st);
    let old_regs = std::mem::replace(&mut w.regs, cregs);
    let old_def = std::mem::replace(&mut w.def, cdef);
    w.saved.push(Saved {
        st: old_st,
        regs: old_regs,
        def: old_def,
    });
    let depth = w.saved.len() as u32 + 1;
    w.max_depth = w.max_depth.max(depth);
    cx.max_depth = cx.max_depth.max(depth);
    Ok(())
}

/// The first argument of a call to a function without a body, per lane.
fn builtin_arg(cx: &mut Ctx, w: &mut Warp, spec: &CallSpec, active: u32) -> F<[u64; 32]> {
    builtin_arg_n(cx, w, spec, 0, active)
}

/// A NUL-terminated string of generic memory (at most 4096 bytes).
fn read_cstr(cx: &mut Ctx, w: &mut Warp, addr: u64, lane: u32) -> F<Vec<u8>> {
    let mut out = Vec::new();
    while out.len() < 4096 {
        let b = load(
            cx,
            w,
            Space::Generic,
            addr.wrapping_add(out.len() as u64),
            1,
            lane,
        )? as u8;
        if b == 0 {
            break;
        }
        out.push(b);
    }
    Ok(out)
}

/// Renders `printf(fmt, ...)` with the arguments packed at `args` the way
/// CUDA's `vprintf` takes them (each aligned to its size: 4 bytes for `int`,
/// 8 for `long`, `double` and pointers; `%s` reads the string). Returns the
/// text and the number of arguments.
fn format_printf(cx: &mut Ctx, w: &mut Warp, fmt: u64, args: u64, lane: u32) -> F<(String, u64)> {
    let fmt = read_cstr(cx, w, fmt, lane)?;
    let mut out = String::new();
    let mut off = 0u64;
    let mut nargs = 0u64;
    let mut i = 0;
    while i < fmt.len() {
        let ch = fmt[i];
        i += 1;
        if ch != b'%' {
            out.push(ch as char);
            continue;
        }
        // Flags, width, precision, length, conversion.
        let start = i;
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        while i < fmt.len() && (fmt[i].is_ascii_digit() || fmt[i] == b'.') {
            i += 1;
        }
        let mut long = false;
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            long |= matches!(fmt[i], b'l' | b'L' | b'q' | b'j' | b'z' | b't');
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            out.push('%');
            break;
        };
        i += 1;
        let spec = String::from_utf8_lossy(&fmt[start..i]).into_owned();
        let size = match conv {
            b'%' => {
                out.push('%');
                continue;
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' | b's' | b'p' => 8,
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' if long => 8,
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' => 4,
            _ => {
                out.push('%');
                out.push_str(&spec);
                continue;
            }
        };
        off = off.div_ceil(size) * size;
        let v = load(cx, w, Space::Generic, args.wrapping_add(off), size, lane)?;
        off += size;
        nargs += 1;
        let text = match conv {
            b's' if v == 0 => "(null)".to_string(),
            b's' => String::from_utf8_lossy(&read_cstr(cx, w, v, lane)?).into_owned(),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                format!("{:e}", f64::from_bits(v))
            }
            b'd' | b'i' if size == 4 => (v as u32 as i32).to_string(),
            b'd' | b'i' => (v as i64).to_string(),
            b'c' => ((v as u8) as char).to_string(),
            b'x' => format!("{v:x}"),
            b'X' => format!("{v:X}"),
            b'o' => format!("{v:o}"),
            b'p' => format!("{v:#x}"),
            _ => v.to_string(),
        };
        // The flags and width are kept as written, not applied: the output
        // is compared, not shown.
        if spec.len() > 1 {
            out.push_str(&format!("[%{spec}]"));
        }
        out.push_str(&text);
    }
    Ok((out, nargs))
}

/// Argument `n` of a call to a function without a body, per lane.
fn builtin_arg_n(
    cx: &mut Ctx,
    w: &mut Warp,
    spec: &CallSpec,
    n: usize,
    active: u32,
) -> F<[u64; 32]> {
    match spec.args.get(n) {
        Some(CallArg::Value(src)) => Ok(val(cx, w, *src)),
        Some(CallArg::Param(loc)) => {
            let from = sym_addr(cx, w, *loc, false);
            let bytes = cx.prog.layout.map.addr_bits as u64 / 8;
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                out[l as usize] = load(cx, w, Space::Param, from, bytes, l)?;
            }
            Ok(out)
        }
        _ => Err(fault(
            ErrorKind::BadCall("a call without its argument".into()),
            first_lane(active),
        )),
    }
}

/// Stores a per-lane result of a call to a function without a body.
fn builtin_ret(
    cx: &mut Ctx,
    w: &mut Warp,
    spec: &CallSpec,
    v: &[u64; 32],
    bytes: u64,
    active: u32,
) -> F<()> {
    match spec.rets.first() {
        Some(CallArg::Param(loc)) => {
            let to = sym_addr(cx, w, *loc, false);
            for l in lane_iter(active) {
                store(cx, w, Space::Param, to, bytes, l, v[l as usize])?;
            }
        }
        Some(CallArg::Reg(d)) => write(w, *d, v, active, active),
        _ => {}
    }
    Ok(())
}

/// Calls of functions declared without a body: `vprintf` (the text is
/// kept in [`Ctx::output`]; returns the number of arguments), `malloc` (a fresh zeroed allocation of global
/// memory per thread, 16-byte aligned, from a heap of [`HEAP_SIZE`] bytes
/// per launch; null when it is used up or the size is 0), `free` (a no-op:
/// the heap is released when the launch ends) and `__assertfail` (a trap).
fn builtin_call(cx: &mut Ctx, w: &mut Warp, callee: &DFunc, spec: &CallSpec, active: u32) -> F<()> {
    match callee.name.as_str() {
        "malloc" => {
            let sizes = builtin_arg(cx, w, spec, active)?;
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                let size = sizes[l as usize] & cx.addr_mask;
                if size == 0 || size > HEAP_SIZE - cx.heap_used.min(HEAP_SIZE) {
                    continue;
                }
                cx.heap_used += size.div_ceil(16) * 16;
                out[l as usize] = cx.global.alloc(vec![0; size as usize], 16, "malloc");
            }
            let bytes = cx.prog.layout.map.addr_bits as u64 / 8;
            builtin_ret(cx, w, spec, &out, bytes, active)
        }
        "free" => Ok(()),
        "vprintf" => {
            let fmts = builtin_arg_n(cx, w, spec, 0, active)?;
            let lists = builtin_arg_n(cx, w, spec, 1, active)?;
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                let (text, n) = format_printf(cx, w, fmts[l as usize], lists[l as usize], l)?;
                out[l as usize] = n;
                if cx.output.len() < MAX_OUTPUT {
                    let li = l as usize;
                    let [cx0, cy, cz] = cx.ctaid;
                    cx.output.push(format!(
                        "ctaid ({cx0},{cy},{cz}) tid ({},{},{}): {text}",
                        w.tid[0][li], w.tid[1][li], w.tid[2][li]
                    ));
                }
            }
            builtin_ret(cx, w, spec, &out, 4, active)
        }
        "__assertfail" => Err(fault(ErrorKind::Trap, first_lane(active))),
        name => Err(fault(
            ErrorKind::BadCall(format!("`{name}` is declared but has no body")),
            first_lane(active),
        )),
    }
}

/// Ends the current frame when its stack is empty: returns to the caller
/// (copying results); false when the kernel frame ended.
fn finish_frame(cx: &mut Ctx, w: &mut Warp) -> F<bool> {
    let Some(saved) = w.saved.pop() else {
        return Ok(false);
    };
    let prog: &Program = cx.prog;
    let returned = w.cur.returned & !w.exited;
    let callee: &DFunc = &prog.funcs[w.cur.func as usize];
    let callee_regs = std::mem::replace(&mut w.regs, saved.regs);
    let callee_def = std::mem::replace(&mut w.def, saved.def);
    let callee_st = std::mem::replace(&mut w.cur, saved.st);
    if let Some((cf, cpc)) = callee_st.call_site {
        if let Op::Call(spec) = &prog.funcs[cf as usize].code[cpc as usize].op {
            for (formal, ret) in callee.rets.iter().zip(&spec.rets) {
                match (formal, ret) {
                    (Formal::Param { off, size }, CallArg::Param(loc)) => {
                        let to = sym_addr(cx, w, *loc, false);
                        for l in lane_iter(returned) {
                            copy_bytes(
                                cx,
                                w,
                                (Space::Param, PARAM_STACK_BASE + callee_st.param_base + off),
                                (Space::Param, to),
                                *size,
                                l,
                            )?;
                        }
                    }
                    (Formal::Param { off, size }, CallArg::Reg(d)) => {
                        for l in lane_iter(returned) {
                            let v = load(
                                cx,
                                w,
                                Space::Param,
                                PARAM_STACK_BASE + callee_st.param_base + off,
                                (*size).min(8),
                                l,
                            )?;
                            write_lane(w, *d, v, l, true);
                        }
                    }
                    (Formal::Reg { slot, n, .. }, CallArg::Reg(d)) => {
                        if *slot == NONE {
                            continue;
                        }
                        for k in 0..*n {
                            let s = (*slot + k) as usize;
                            if s >= callee_def.len() {
                                break;
                            }
                            let dk = Dst {
                                slot: d.slot + k,
                                ..*d
                            };
                            for l in lane_iter(returned) {
                                let defined = callee_def[s] >> l & 1 == 1;
                                write_lane(w, dk, callee_regs[s * 32 + l as usize], l, defined);
                            }
                        }
                    }
                    (Formal::Reg { slot, bits, .. }, CallArg::Param(loc)) => {
                        if *slot == NONE {
                            continue;
                        }
                        let to = sym_addr(cx, w, *loc, false);
                        let bytes = (*bits as u64).div_ceil(8).min(8);
                        for l in lane_iter(returned) {
                            let v = callee_regs
                                .get(*slot as usize * 32 + l as usize)
                                .copied()
                                .unwrap_or(0);
                            store(cx, w, Space::Param, to, bytes, l, v)?;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (w.local_top, w.param_top) = callee_st.saved_tops;
    Ok(true)
}

/// Runs one non-control instruction for the active lanes.
fn exec(cx: &mut Ctx, w: &mut Warp, op: &Op, active: u32) -> F<()> {
    match op {
        Op::Nop => {}
        Op::Unsupported(what) => {
            return Err(fault(
                ErrorKind::Unsupported(what.to_string()),
                first_lane(active),
            ))
        }
        Op::Mov { d, a } => {
            let v = val(cx, w, *a);
            write(w, *d, &v, active, dm(w, &[*a]));
        }
        Op::MovMulti { ds, srcs } => {
            let vals: Vec<([u64; 32], u32)> = srcs
                .iter()
                .map(|s| (val(cx, w, *s), dm(w, &[*s])))
                .collect();
            for (d, (v, def)) in ds.iter().zip(&vals) {
                write(w, *d, v, active, *def);
            }
        }
        Op::Pack { d, parts, ebits } => {
            let mut out = [0u64; 32];
            let def = dm(w, parts);
            for (i, p) in parts.iter().enumerate() {
                let v = val(cx, w, *p);
                let sh = *ebits * i as u32;
                if sh >= 64 {
                    break;
                }
                for l in 0..32 {
                    out[l] |= (v[l] & mask(*ebits)) << sh;
                }
            }
            write(w, *d, &out, active, def);
        }
        Op::Unpack { ds, a, ebits } => {
            let v = val(cx, w, *a);
            let def = dm(w, &[*a]);
            for (i, d) in ds.iter().enumerate() {
                let sh = *ebits * i as u32;
                let mut out = [0u64; 32];
                for l in 0..32 {
                    out[l] = if sh >= 64 {
                        0
                    } else {
                        (v[l] >> sh) & mask(*ebits)
                    };
                }
                write(w, *d, &out, active, def);
            }
        }
        Op::Ld {
            space,
            ety,
            ds,
            addr,
        } => exec_ld(cx, w, *space, *ety, ds, addr, active)?,
        Op::St {
            space,
            ety,
            srcs,
            addr,
        } => exec_st(cx, w, *space, *ety, srcs, addr, active)?,
        Op::Int { op, ty, d, s } => exec_int(cx, w, *op, *ty, *d, s, active)?,
        Op::Carry {
            kind,
            cin,
            cout,
            ty,
            d,
            a,
            b,
            c,
        } => {
            let bits = ty.bits();
            let m = mask(bits);
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            let def = dm(w, &[*a, *b, *c]);
            let mut out = [0u64; 32];
            let mut carry = w.carry;
            for l in lane_iter(active) {
                let li = l as usize;
                let cf = if *cin { (w.carry >> l & 1) as u128 } else { 0 };
                let (x, y) = ((av[li] & m) as u128, (bv[li] & m) as u128);
                let r: u128 = match kind {
                    CarryKind::Add => x + y + cf,
                    // a - b - borrow, carry out = no borrow... PTX defines the
                    // flag as the carry of a + ~b + !borrow.
                    CarryKind::Sub => x + ((!y) & m as u128) + if *cin { cf } else { 1 },
                    CarryKind::MadLo | CarryKind::MadHi => {
                        let p = if ty.is_signed() {
                            (sext(av[li], bits) as i64 as i128 * sext(bv[li], bits) as i64 as i128)
                                as u128
                        } else {
                            x * y
                        };
                        let part = if *kind == CarryKind::MadHi {
                            (p >> bits) & m as u128
                        } else {
                            p & m as u128
                        };
                        part + (cv[li] & m) as u128 + cf
                    }
                };
                out[li] = r as u64 & m;
                if *cout {
                    let co = (r >> bits) & 1 == 1;
                    carry = (carry & !(1 << l)) | ((co as u32) << l);
                }
            }
            if *cout {
                w.carry = carry;
            }
            write(w, *d, &out, active, def);
        }
        Op::Float {
            op,
            ty,
            m,
            half,
            d,
            a,
            b,
            c,
        } => {
            let n = fops::farity(*op);
            let mut av = val(cx, w, *a);
            let mut bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            if let Some(fmt) = half.and_then(|h| h.fmt()) {
                // Mixed precision: the half operands are exact in f32.
                let widen = |x: u64| (fmt.to_f64(x & 0xffff) as f32).to_bits() as u64;
                av = av.map(widen);
                if *op == fops::FOp::Fma {
                    bv = bv.map(widen);
                }
            }
            let def = dm(w, &[*a, *b, *c][..n]);
            let mut out = [0u64; 32];
            if *ty == Ty::F32 && !m.ftz && !m.sat && !m.relu && m.rnd == crate::float::Rnd::Rn {
                fast_f32(*op, &av, &bv, &cv, &mut out, active);
            } else {
                for l in lane_iter(active) {
                    let li = l as usize;
                    out[li] = fops::feval(*op, *ty, *m, av[li], bv[li], cv[li]);
                }
            }
            write(w, *d, &out, active, def);
        }
        Op::Half {
            op,
            ty,
            m,
            d,
            a,
            b,
            c,
        } => {
            let n = fops::harity(*op);
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            let def = dm(w, &[*a, *b, *c][..n]);
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                let li = l as usize;
                out[li] = fops::heval(*op, *ty, *m, av[li], bv[li], cv[li]);
            }
            write(w, *d, &out, active, def);
        }
        Op::Testp { kind, ty, d, a } => {
            let av = val(cx, w, *a);
            let def = dm(w, &[*a]);
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                out[l as usize] = fops::testp(kind, *ty, av[l as usize]) as u64;
            }
            write(w, *d, &out, active, def);
        }
        Op::Setp {
            cmp,
            ty,
            ftz,
            p,
            q,
            a,
            b,
            bop,
        } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let (cv, def) = match bop {
                Some((_, c)) => (val(cx, w, *c), dm(w, &[*a, *b, *c])),
                None => ([0; 32], dm(w, &[*a, *b])),
            };
            let (mut pv, mut qv) = ([0u64; 32], [0u64; 32]);
            let pair = ty.is_pair() && ty.is_float();
            for l in lane_iter(active) {
                let li = l as usize;
                let (t0, t1) = if pair {
                    (
                        compare(*cmp, *ty, *ftz, av[li], bv[li], 0),
                        compare(*cmp, *ty, *ftz, av[li], bv[li], 1),
                    )
                } else {
                    let t = compare(*cmp, *ty, *ftz, av[li], bv[li], 0);
                    (t, !t)
                };
                // p from the compare (the lower half of a pair), q from its
                // negation (the upper half), each combined with c when there
                // is a BoolOp (PTX ISA: `p = BoolOp(t[0], c); q = BoolOp(t[1], c)`).
                let (r0, r1) = match bop {
                    Some((op, _)) => {
                        let c = cv[li] & 1 == 1;
                        (op.apply(t0, c), op.apply(t1, c))
                    }
                    None => (t0, t1),
                };
                pv[li] = r0 as u64;
                qv[li] = r1 as u64;
            }
            write(w, *p, &pv, active, def);
            write(w, *q, &qv, active, def);
        }
        Op::Set {
            cmp,
            dty,
            sty,
            ftz,
            d,
            a,
            b,
            bop,
        } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let (cv, def) = match bop {
                Some((_, c)) => (val(cx, w, *c), dm(w, &[*a, *b, *c])),
                None => ([0; 32], dm(w, &[*a, *b])),
            };
            let mut out = [0u64; 32];
            let pair = sty.is_pair() && sty.is_float();
            let one = |t: bool, half: bool| -> u64 {
                if !t {
                    return 0;
                }
                match dty {
                    Ty::F32 => 0x3f80_0000,
                    Ty::F16 | Ty::F16x2 => 0x3c00,
                    Ty::BF16 | Ty::BF16x2 => 0x3f80,
                    _ if half => 0xffff,
                    _ => 0xffff_ffff,
                }
            };
            for l in lane_iter(active) {
                let li = l as usize;
                let apply = |t: bool| match bop {
                    Some((op, _)) => op.apply(t, cv[li] & 1 == 1),
                    None => t,
                };
                out[li] = if pair {
                    let lo = apply(compare(*cmp, *sty, *ftz, av[li], bv[li], 0));
                    let hi = apply(compare(*cmp, *sty, *ftz, av[li], bv[li], 1));
                    one(lo, true) | (one(hi, true) << 16)
                } else {
                    one(apply(compare(*cmp, *sty, *ftz, av[li], bv[li], 0)), false)
                };
            }
            write(w, *d, &out, active, def);
        }
        Op::Selp { d, a, b, c } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            // A lane's result is defined when its condition and the
            // operand it selects are: `selp r, x, y, p` with `x` written
            // only under `@p` (what if-conversion leaves) is a defined
            // value in every lane.
            let (da, db, dc) = (dm(w, &[*a]), dm(w, &[*b]), dm(w, &[*c]));
            let mut out = [0u64; 32];
            let mut def = 0u32;
            for l in 0..32 {
                let take_a = cv[l] & 1 == 1;
                out[l] = if take_a { av[l] } else { bv[l] };
                let bit = 1u32 << l;
                let operand = if take_a { da } else { db };
                def |= bit & dc & operand;
            }
            write(w, *d, &out, active, def);
        }
        Op::Slct {
            float,
            ftz,
            d,
            a,
            b,
            c,
        } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            let def = dm(w, &[*a, *b, *c]);
            let mut out = [0u64; 32];
            for l in 0..32 {
                let ge = if *float {
                    let mut x = cv[l] as u32;
                    if *ftz {
                        x = crate::float::ftz32(x);
                    }
                    f32::from_bits(x) >= 0.0
                } else {
                    sext(cv[l], 32) as i64 >= 0
                };
                out[l] = if ge { av[l] } else { bv[l] };
            }
            write(w, *d, &out, active, def);
        }
        Op::Cvt { spec, d, a, b } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let def = if spec.two_sources() {
                dm(w, &[*a, *b])
            } else {
                dm(w, &[*a])
            };
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                let li = l as usize;
                out[li] = crate::cvt::cvt(spec, av[li], bv[li]);
            }
            write(w, *d, &out, active, def);
        }
        Op::CvtRs {
            dty,
            relu,
            satfinite,
            d,
            vals,
            rbits,
        } => {
            let vs: Vec<[u64; 32]> = vals.iter().map(|s| val(cx, w, *s)).collect();
            let rv = val(cx, w, *rbits);
            let mut srcs = vals.to_vec();
            srcs.push(*rbits);
            let def = dm(w, &srcs);
            let mut out = [0u64; 32];
            for l in 0..32 {
                let x: Vec<u32> = vs.iter().map(|v| v[l] as u32).collect();
                match crate::cvt::cvt_rs(*dty, &x, rv[l] as u32, *relu, *satfinite) {
                    Some(r) => out[l] = r,
                    None => {
                        return Err(fault(
                            ErrorKind::Unsupported(format!("cvt.rs to {dty:?}")),
                            first_lane(active),
                        ))
                    }
                }
            }
            write(w, *d, &out, active, def);
        }
        Op::CvtPack { dty, d, a, b, c } => {
            let av = val(cx, w, *a);
            let bv = val(cx, w, *b);
            let cv = val(cx, w, *c);
            let def = dm(w, &[*a, *b, *c]);
            let mut out = [0u64; 32];
            for l in 0..32 {
                out[l] = crate::cvt::cvt_pack(*dty, av[l], bv[l], cv[l]);
            }
            write(w, *d, &out, active, def);
        }
        Op::Cvta {
            to_generic,
            space,
            d,
            a,
        } => {
            let av = val(cx, w, *a);
            let def = dm(w, &[*a]);
            let win = cx.prog.layout.map.window(*space);
            let mut out = [0u64; 32];
            for l in 0..32 {
                out[l] = if *to_generic {
                    av[l].wrapping_add(win)
                } else {
                    av[l].wrapping_sub(win)
                } & cx.addr_mask;
            }
            write(w, *d, &out, active, def);
        }
        Op::Isspacep { space, d, a } => {
            let av = val(cx, w, *a);
            let def = dm(w, &[*a]);
            let map = cx.prog.layout.map;
            let mut out = [0u64; 32];
            for l in 0..32 {
                let (s, _) = map.split_generic(av[l]);
                out[l] = match space {
                    Space::Global => s == Space::Global,
                    Space::Param => s == Space::Param,
                    other => s == *other,
                } as u64;
            }
            write(w, *d, &out, active, def);
        }
        Op::Atom {
            space,
            op,
            ty,
            ftz,
            d,
            addr,
            b,
            c,
        } => exec_atom(cx, w, *space, *op, *ty, *ftz, *d, addr, *b, *c, active)?,
        Op::WarpSync { mask: m } => {
            strict(cx, w, *m, active)?;
        }
        Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            c,
            mask: mm,
        } => {
            let bv = strict(cx, w, *b, active)?;
            let cv = strict(cx, w, *c, active)?;
            if let Some(mm) = mm {
                strict(cx, w, *mm, active)?;
            }
            let (src_vals, src_def) = match a {
                Src::Reg(slot) => {
                    let s = *slot as usize;
                    let mut v = [0u64; 32];
                    v.copy_from_slice(&w.regs[s * 32..s * 32 + 32]);
                    (v, w.def[s])
                }
                other => (val(cx, w, *other), dm(w, &[*other])),
            };
            let mut out = [0u64; 32];
            let mut pout = [0u64; 32];
            let mut out_def = 0u32;
            for l in lane_iter(active) {
                let li = l as usize;
                let lane = l as i64;
                let bval = (bv[li] & 0x1f) as i64;
                let cval = cv[li];
                let segmask = ((cval >> 8) & 0x1f) as i64;
                let max_lane = (lane & segmask) | ((cval & 0x1f) as i64 & !segmask);
                let min_lane = lane & segmask;
                let (j, pval) = match mode {
                    ShflMode::Up => {
                        let j = lane - bval;
                        (j, j >= max_lane)
                    }
                    ShflMode::Down => {
                        let j = lane + bval;
                        (j, j <= max_lane)
                    }
                    ShflMode::Bfly => {
                        let j = lane ^ bval;
                        (j, j <= max_lane)
                    }
                    ShflMode::Idx => {
                        let j = min_lane | (bval & !segmask);
                        (j, j <= max_lane)
                    }
                };
                let j = if pval { j as u32 & 31 } else { l };
                out[li] = src_vals[j as usize];
                pout[li] = pval as u64;
                if src_def >> j & 1 == 1 {
                    out_def |= 1 << l;
                }
            }
            write(w, *d, &out, active, out_def);
            write(w, *p, &pout, active, active);
        }
        Op::Vote {
            mode,
            d,
            a,
            mask: mm,
        } => {
            let av = strict(cx, w, *a, active)?;
            let members = match mm {
                Some(m) => strict(cx, w, *m, active)?[first_lane(active) as usize] as u32 & active,
                None => active,
            };
            let mut ballot = 0u32;
            for l in lane_iter(members) {
                if av[l as usize] & 1 == 1 {
                    ballot |= 1 << l;
                }
            }
            let v = match mode {
                VoteMode::All => (ballot == members) as u64,
                VoteMode::Any => (ballot != 0) as u64,
                VoteMode::Uni => (ballot == members || ballot == 0) as u64,
                VoteMode::Ballot => ballot as u64,
            };
            write(w, *d, &[v; 32], active, active);
        }
        Op::Match {
            all,
            bits,
            d,
            p,
            a,
            mask: mm,
        } => {
            let av = strict(cx, w, *a, active)?;
            let mv = strict(cx, w, *mm, active)?;
            let mut out = [0u64; 32];
            let mut pout = [0u64; 32];
            let m = mask(*bits);
            for l in lane_iter(active) {
                let li = l as usize;
                let members = mv[li] as u32 & active;
                let mut same = 0u32;
                for k in lane_iter(members) {
                    if av[k as usize] & m == av[li] & m {
                        same |= 1 << k;
                    }
                }
                if *all {
                    let eq = same == members;
                    out[li] = if eq { members as u64 } else { 0 };
                    pout[li] = eq as u64;
                } else {
                    out[li] = same as u64;
                }
            }
            write(w, *d, &out, active, active);
            write(w, *p, &pout, active, active);
        }
        Op::Redux {
            op,
            ty,
            abs,
            nan,
            d,
            a,
            mask: mm,
        } => {
            let av = strict(cx, w, *a, active)?;
            let mv = strict(cx, w, *mm, active)?;
            let mut out = [0u64; 32];
            if *ty == Ty::F32 {
                for l in lane_iter(active) {
                    let members = mv[l as usize] as u32 & active;
                    let mut acc: Option<u64> = None;
                    for k in lane_iter(members) {
                        let mut x = av[k as usize] & 0xffff_ffff;
                        if *abs {
                            x &= 0x7fff_ffff;
                        }
                        acc = Some(match acc {
                            None => x,
                            Some(y) => fops::minmax_bits(
                                crate::float::Fmt::F32,
                                *op == ReduxOp::Min,
                                *nan,
                                false,
                                y,
                                x,
                            ),
                        });
                    }
                    out[l as usize] = acc.unwrap_or(0);
                }
                write(w, *d, &out, active, active);
                return Ok(());
            }
            for l in lane_iter(active) {
                let members = mv[l as usize] as u32 & active;
                let mut acc: Option<u64> = None;
                for k in lane_iter(members) {
                    let x = av[k as usize] & 0xffff_ffff;
                    acc = Some(match acc {
                        None => x,
                        Some(y) => match op {
                            ReduxOp::Add => (x + y) & 0xffff_ffff,
                            ReduxOp::And => x & y,
                            ReduxOp::Or => x | y,
                            ReduxOp::Xor => x ^ y,
                            ReduxOp::Min | ReduxOp::Max => {
                                let less = if ty.is_signed() {
                                    (x as u32 as i32) < (y as u32 as i32)
                                } else {
                                    x < y
                                };
                                if less == (*op == ReduxOp::Min) {
                                    x
                                } else {
                                    y
                                }
                            }
                        },
                    });
                }
                out[l as usize] = acc.unwrap_or(0);
            }
            write(w, *d, &out, active, active);
        }
        Op::ActiveMask { d } => write(w, *d, &[active as u64; 32], active, active),
        Op::Lop3Pred {
            bop,
            lut,
            d,
            p,
            a,
            b,
            c,
            q,
        } => {
            let (av, bv, cv, qv) = (
                val(cx, w, *a),
                val(cx, w, *b),
                val(cx, w, *c),
                val(cx, w, *q),
            );
            let def = dm(w, &[*a, *b, *c]);
            let mut out = [0u64; 32];
            let mut pout = [0u64; 32];
            for l in 0..32 {
                out[l] = int::eval(int::IOp::Lop3(*lut), Ty::B32, av[l], bv[l], cv[l], 0);
                pout[l] = bop.apply(out[l] != 0, qv[l] & 1 == 1) as u64;
            }
            write(w, *d, &out, active, def);
            write(w, *p, &pout, active, def & dm(w, &[*q]));
        }
        Op::Mbar {
            kind,
            space,
            d,
            addr,
            b,
        } => exec_mbar(cx, w, *kind, *space, *d, addr, *b, active)?,
        Op::Elect { d, p, mask: mm } => {
            let mv = strict(cx, w, *mm, active)?;
            let members = mv[first_lane(active) as usize] as u32 & active;
            let leader = first_lane(members);
            let mut pout = [0u64; 32];
            if members != 0 {
                pout[leader as usize] = 1;
            }
            write(w, *d, &[leader as u64; 32], active, active);
            write(w, *p, &pout, active, active);
        }
        Op::Matrix(m) => exec_matrix(cx, w, m, active)?,
        Op::Tex(t) => exec_tex(cx, w, t, active)?,
        Op::Surf(t) => exec_surf(cx, w, t, active)?,
        Op::Query(q) => exec_query(cx, w, q, active)?,
        Op::Wmma(m) => exec_wmma(cx, w, m, active)?,
        Op::Bulk(b) => {
            let dv = addresses(cx, w, &b.dst, active)?;
            let sv = match &b.src {
                Some((a, _)) => Some(addresses(cx, w, a, active)?),
                None => None,
            };
            let nv = strict(cx, w, b.size, active)?;
            for l in lane_iter(active) {
                let li = l as usize;
                let n = nv[li];
                check_align(b.dst_space, dv[li], 16).map_err(|k| fault(k, l))?;
                if n > 1 << 20 {
                    return Err(fault(
                        ErrorKind::Malformed(format!("bulk copy of {n} bytes")),
                        l,
                    ));
                }
                let mut i = 0;
                while i < n {
                    // 8 bytes at a time where both sides allow it.
                    let step = if n - i >= 8 { 8 } else { 1 };
                    let v = match (&b.src, &sv) {
                        (Some((_, space)), Some(sv)) => {
                            load(cx, w, *space, sv[li].wrapping_add(i), step, l)?
                        }
                        _ => 0,
                    };
                    store(cx, w, b.dst_space, dv[li].wrapping_add(i), step, l, v)?;
                    i += step;
                }
            }
            if let Some(mb) = &b.mbar {
                exec_mbar(
                    cx,
                    w,
                    MbarKind::CompleteTx,
                    Space::Shared,
                    Dst::SINK,
                    mb,
                    b.size,
                    active,
                )?;
            }
        }
        Op::Video(v) => exec_video(cx, w, v, active)?,
        Op::VideoSimd(v) => exec_video_simd(cx, w, v, active),
        Op::CpAsync {
            dst,
            src,
            size,
            src_size,
        } => {
            let dv = strict(cx, w, dst.base, active)?;
            let sv = strict(cx, w, src.base, active)?;
            let nv = match src_size {
                Some(s) => strict(cx, w, *s, active)?,
                None => [*size as u64; 32],
            };
            for l in lane_iter(active) {
                let li = l as usize;
                let da = dv[li].wrapping_add(dst.off as u64) & cx.addr_mask;
                let sa = sv[li].wrapping_add(src.off as u64) & cx.addr_mask;
                check_align(Space::Shared, da, *size as u64).map_err(|k| fault(k, l))?;
                let n = nv[li].min(*size as u64);
                for i in 0..*size as u64 {
                    let v = if i < n {
                        load(cx, w, Space::Global, sa.wrapping_add(i), 1, l)?
                    } else {
                        0
                    };
                    store(cx, w, Space::Shared, da.wrapping_add(i), 1, l, v)?;
                }
            }
        }
        Op::Alloca { d, size, align } => {
            let sv = strict(cx, w, *size, active)?;
            let n = lane_iter(active).map(|l| sv[l as usize]).max().unwrap_or(0);
            let a = (*align as u64).max(1);
            let base = w.local_top.div_ceil(a) * a;
            w.local_top = base.saturating_add(n.div_ceil(16) * 16);
            check_stacks(w, active)?;
            w.grow_stacks(active);
            write(w, *d, &[base; 32], active, active);
        }
        Op::StackSave { d } => {
            let v = w.local_top;
            write(w, *d, &[v; 32], active, active);
        }
        Op::StackRestore { a } => {
            let v = strict(cx, w, *a, active)?;
            w.local_top = v[first_lane(active) as usize];
        }
        Op::Bra { .. }
        | Op::Brx { .. }
        | Op::Ret
        | Op::Exit
        | Op::Trap(_)
        | Op::Call(_)
        | Op::Bar { .. } => {}
    }
    Ok(())
}

/// f32 round-to-nearest arithmetic on the host, over all lanes.
#[inline]
fn fast_f32(
    op: crate::fops::FOp,
    a: &[u64; 32],
    b: &[u64; 32],
    c: &[u64; 32],
    out: &mut [u64; 32],
    active: u32,
) {
    use crate::fops::FOp;
    let f = |x: u64| f32::from_bits(x as u32);
    let canon = |x: f32| crate::float::canon32(x) as u64;
    match op {
        FOp::Add => (0..32).for_each(|l| out[l] = canon(f(a[l]) + f(b[l]))),
        FOp::Sub => (0..32).for_each(|l| out[l] = canon(f(a[l]) - f(b[l]))),
        FOp::Mul => (0..32).for_each(|l| out[l] = canon(f(a[l]) * f(b[l]))),
        FOp::Fma => {
            for l in lane_iter(active) {
                let l = l as usize;
                out[l] = canon(f(a[l]).mul_add(f(b[l]), f(c[l])));
            }
        }
        _ => {
            let m = crate::fops::FMods {
                rnd: crate::float::Rnd::Rn,
                ftz: false,
                sat: false,
                relu: false,
            };
            for l in lane_iter(active) {
                let l = l as usize;
                out[l] = crate::fops::feval(op, Ty::F32, m, a[l], b[l], c[l]);
            }
        }
    }
}

/// Integer operations, with the common ones specialized over all lanes.
fn exec_int(
    cx: &mut Ctx,
    w: &mut Warp,
    op: int::IOp,
    ty: Ty,
    d: Dst,
    s: &[Src; 4],
    active: u32,
) -> F<()> {
    use int::IOp;
    let n = int::arity(op);
    let a = val(cx, w, s[0]);
    let b = val(cx, w, s[1]);
    let c = val(cx, w, s[2]);
    let def = dm(w, &s[..n]);
    let mut out = [0u64; 32];
    let m = mask(ty.bits().min(64));
    match op {
        IOp::Add => (0..32).for_each(|l| out[l] = a[l].wrapping_add(b[l]) & m),
        IOp::Sub => (0..32).for_each(|l| out[l] = a[l].wrapping_sub(b[l]) & m),
        IOp::MulLo => (0..32).for_each(|l| out[l] = a[l].wrapping_mul(b[l]) & m),
        IOp::MadLo => (0..32).for_each(|l| out[l] = a[l].wrapping_mul(b[l]).wrapping_add(c[l]) & m),
        IOp::And => (0..32).for_each(|l| out[l] = a[l] & b[l]),
        IOp::Or => (0..32).for_each(|l| out[l] = a[l] | b[l]),
        IOp::Xor => (0..32).for_each(|l| out[l] = a[l] ^ b[l]),
        _ => {
            let dv = val(cx, w, s[3]);
            for l in lane_iter(active) {
                let l = l as usize;
                out[l] = int::eval(op, ty, a[l], b[l], c[l], dv[l]);
            }
        }
    }
    write(w, d, &out, active, def);
    Ok(())
}

fn addresses(cx: &Ctx, w: &Warp, addr: &Addr, active: u32) -> F<[u64; 32]> {
    let mut v = strict(cx, w, addr.base, active)?;
    for x in v.iter_mut() {
        *x = x.wrapping_add(addr.off as u64) & cx.addr_mask;
    }
    Ok(v)
}

fn exec_ld(
    cx: &mut Ctx,
    w: &mut Warp,
    space: Space,
    ety: Ty,
    ds: &[Dst],
    addr: &Addr,
    active: u32,
) -> F<()> {
    let av = addresses(cx, w, addr, active)?;
    let esize = ety.bytes() as u64;
    let total = esize * ds.len() as u64;
    // At most 8 elements of up to 16 bytes: no allocation per instruction.
    if ds.len() > 8 {
        return Err(ErrorKind::Malformed("vector of more than 8 elements".into()).into());
    }
    let mut vals = [[0u64; 32]; 16];
    for l in lane_iter(active) {
        let li = l as usize;
        let a = av[li];
        // The whole vector must be aligned to its size.
        let (sp, sa) = if space == Space::Generic {
            cx.prog.layout.map.split_generic(a)
        } else {
            (space, a)
        };
        check_align(sp, sa, total.next_power_of_two()).map_err(|k| fault(k, l))?;
        for i in 0..ds.len() {
            let ea = a.wrapping_add(i as u64 * esize);
            if ety == Ty::B128 {
                vals[2 * i][li] = load(cx, w, space, ea, 8, l)?;
                vals[2 * i + 1][li] = load(cx, w, space, ea.wrapping_add(8), 8, l)?;
            } else {
                vals[i][li] = load(cx, w, space, ea, esize, l)?;
            }
        }
    }
    for (i, d) in ds.iter().enumerate() {
        if ety == Ty::B128 {
            if !d.is_sink() {
                write(w, Dst { bits: 64, ..*d }, &vals[2 * i], active, active);
                write(
                    w,
                    Dst {
                        slot: d.slot + 1,
                        bits: 64,
                        ..*d
                    },
                    &vals[2 * i + 1],
                    active,
                    active,
                );
            }
        } else {
            write(w, *d, &vals[i], active, active);
        }
    }
    Ok(())
}

fn exec_st(
    cx: &mut Ctx,
    w: &mut Warp,
    space: Space,
    ety: Ty,
    srcs: &[Src],
    addr: &Addr,
    active: u32,
) -> F<()> {
    let av = addresses(cx, w, addr, active)?;
    let esize = ety.bytes() as u64;
    let total = esize * srcs.len() as u64;
    if srcs.len() > 8 {
        return Err(ErrorKind::Malformed("vector of more than 8 elements".into()).into());
    }
    let mut vals = [[0u64; 32]; 16];
    let mut n = 0;
    for s in srcs {
        vals[n] = strict(cx, w, *s, active)?;
        n += 1;
        if ety == Ty::B128 {
            vals[n] = match s {
                Src::Reg(slot) => strict(cx, w, Src::Reg(slot + 1), active)?,
                _ => [0; 32],
            };
            n += 1;
        }
    }
    for l in lane_iter(active) {
        let li = l as usize;
        let a = av[li];
        let (sp, sa) = if space == Space::Generic {
            cx.prog.layout.map.split_generic(a)
        } else {
            (space, a)
        };
        check_align(sp, sa, total.next_power_of_two()).map_err(|k| fault(k, l))?;
        for i in 0..srcs.len() {
            let ea = a.wrapping_add(i as u64 * esize);
            if ety == Ty::B128 {
                store(cx, w, space, ea, 8, l, vals[2 * i][li])?;
                store(cx, w, space, ea.wrapping_add(8), 8, l, vals[2 * i + 1][li])?;
            } else {
                store(
                    cx,
                    w,
                    space,
                    ea,
                    esize,
                    l,
                    vals[i][li] & mask(ety.bits().min(64)),
                )?;
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn exec_atom(
    cx: &mut Ctx,
    w: &mut Warp,
    space: Space,
    op: AtomOp,
    ty: Ty,
    ftz: bool,
    d: Dst,
    addr: &Addr,
    b: Src,
    c: Src,
    active: u32,
) -> F<()> {
    let av = addresses(cx, w, addr, active)?;
    let bv = strict(cx, w, b, active)?;
    let cv = strict(cx, w, c, active)?;
    let wide = ty == Ty::B128;
    let (bhi, chi) = if wide {
        let hi = |s: Src| match s {
            Src::Reg(slot) => strict(cx, w, Src::Reg(slot + 1), active),
            _ => Ok([0; 32]),
        };
        (hi(b)?, hi(c)?)
    } else {
        ([0; 32], [0; 32])
    };
    let size = ty.bytes() as u64;
    let bits = ty.bits().min(64);
    let m = mask(bits);
    let mut out = [0u64; 32];
    let mut out_hi = [0u64; 32];
    for l in lane_iter(active) {
        let li = l as usize;
        let a = av[li];
        if wide {
            let lo = load(cx, w, space, a, 8, l)?;
            check_align(space, a, 16).map_err(|k| fault(k, l))?;
            let hi = load(cx, w, space, a.wrapping_add(8), 8, l)?;
            let (nlo, nhi) = match op {
                AtomOp::Cas if lo == bv[li] && hi == bhi[li] => (cv[li], chi[li]),
                AtomOp::Cas => (lo, hi),
                AtomOp::Exch => (bv[li], bhi[li]),
                _ => {
                    return Err(fault(
                        ErrorKind::Unsupported("128-bit atomic operation".into()),
                        l,
                    ))
                }
            };
            store(cx, w, space, a, 8, l, nlo)?;
            store(cx, w, space, a.wrapping_add(8), 8, l, nhi)?;
            out[li] = lo;
            out_hi[li] = hi;
            continue;
        }
        let old = load(cx, w, space, a, size, l)?;
        let x = bv[li] & m;
        let new = match op {
            AtomOp::And => old & x,
            AtomOp::Or => old | x,
            AtomOp::Xor => old ^ x,
            AtomOp::Exch => x,
            AtomOp::Cas => {
                if old == x {
                    cv[li] & m
                } else {
                    old
                }
            }
            AtomOp::Inc => {
                if old >= x {
                    0
                } else {
                    old + 1
                }
            }
            AtomOp::Dec => {
                if old == 0 || old > x {
                    x
                } else {
                    old - 1
                }
            }
            AtomOp::Add => match ty.fmt() {
                Some(fmt) if ty.is_float() => {
                    let md = crate::fops::FMods {
                        rnd: crate::float::Rnd::Rn,
                        ftz,
                        sat: false,
                        relu: false,
                    };
                    let r = match ty {
                        Ty::F32 | Ty::F64 => {
                            crate::fops::feval(crate::fops::FOp::Add, ty, md, old, x, 0)
                        }
                        _ => crate::fops::heval(crate::fops::HOp::Add, ty, md, old, x, 0),
                    };
                    r & mask(fmt.bits().max(bits))
                }
                _ => old.wrapping_add(x) & m,
            },
            AtomOp::Min | AtomOp::Max => {
                let is_min = op == AtomOp::Min;
                if ty.is_float() {
                    let f = if is_min {
                        crate::fops::FOp::Min {
                            nan: false,
                            xorsign: false,
                        }
                    } else {
                        crate::fops::FOp::Max {
                            nan: false,
                            xorsign: false,
                        }
                    };
                    match ty {
                        Ty::F32 | Ty::F64 => crate::fops::feval(
                            f,
                            ty,
                            crate::fops::FMods {
                                rnd: crate::float::Rnd::Rn,
                                ftz: false,
                                sat: false,
                                relu: false,
                            },
                            old,
                            x,
                            0,
                        ),
                        _ => {
                            let hf = if is_min {
                                crate::fops::HOp::Min {
                                    nan: false,
                                    xorsign: false,
                                }
                            } else {
                                crate::fops::HOp::Max {
                                    nan: false,
                                    xorsign: false,
                                }
                            };
                            crate::fops::heval(
                                hf,
                                ty,
                                crate::fops::FMods {
                                    rnd: crate::float::Rnd::Rn,
                                    ftz: false,
                                    sat: false,
                                    relu: false,
                                },
                                old,
                                x,
                                0,
                            )
                        }
                    }
                } else {
                    let less = if ty.is_signed() {
                        (sext(x, bits) as i64) < (sext(old, bits) as i64)
                    } else {
                        x < old
                    };
                    if less == is_min {
                        x
                    } else {
                        old
                    }
                }
            }
        };
        store(cx, w, space, a, size, l, new & m)?;
        out[li] = old;
    }
    if wide {
        if !d.is_sink() {
            write(w, Dst { bits: 64, ..d }, &out, active, active);
            write(
                w,
                Dst {
                    slot: d.slot + 1,
                    bits: 64,
                    ..d
                },
                &out_hi,
                active,
                active,
            );
        }
    } else {
        write(w, d, &out, active, active);
    }
    Ok(())
}

fn exec_matrix(cx: &mut Ctx, w: &mut Warp, m: &Matrix, active: u32) -> F<()> {
    let live = w.lanes;
    if active != FULL || live != FULL {
        return Err(fault(
            ErrorKind::WarpDivergence("matrix instructions need all 32 lanes of the warp".into()),
            first_lane(!active),
        ));
    }
    match m {
        Matrix::Ld {
            ds,
            addr,
            space,
            trans,
        } => {
            let av = addresses(cx, w, addr, active)?;
            let nmat = ds.len();
            // rows[j][r] = the 8 halves of row r of matrix j.
            let mut rows = vec![[[0u16; 8]; 8]; nmat];
            for (j, mat) in rows.iter_mut().enumerate() {
                for (r, row) in mat.iter_mut().enumerate() {
                    let lane = (8 * j + r) as u32;
                    let a = av[lane as usize];
                    let (sp, sa) = if *space == Space::Generic {
                        cx.prog.layout.map.split_generic(a)
                    } else {
                        (*space, a)
                    };
                    check_align(sp, sa, 16).map_err(|k| fault(k, lane))?;
                    for (c, h) in row.iter_mut().enumerate() {
                        *h = load(cx, w, *space, a.wrapping_add(2 * c as u64), 2, lane)? as u16;
                    }
                }
            }
            for (j, d) in ds.iter().enumerate() {
                let mut out = [0u64; 32];
                for (l, o) in out.iter_mut().enumerate() {
                    let (g, t) = (l / 4, l % 4);
                    let (lo, hi) = if *trans {
                        (rows[j][2 * t][g], rows[j][2 * t + 1][g])
                    } else {
                        (rows[j][g][2 * t], rows[j][g][2 * t + 1])
                    };
                    *o = lo as u64 | ((hi as u64) << 16);
                }
                write(w, *d, &out, active, active);
            }
        }
        Matrix::St {
            srcs,
            addr,
            space,
            trans,
        } => {
            let av = addresses(cx, w, addr, active)?;
            for (j, s) in srcs.iter().enumerate() {
                let v = strict(cx, w, *s, active)?;
                for (l, &x) in v.iter().enumerate() {
                    let (g, t) = (l / 4, l % 4);
                    for (e, h) in [(x & 0xffff), (x >> 16) & 0xffff].into_iter().enumerate() {
                        let (r, c) = if *trans {
                            (2 * t + e, g)
                        } else {
                            (g, 2 * t + e)
                        };
                        let lane = (8 * j + r) as u32;
                        store(
                            cx,
                            w,
                            *space,
                            av[lane as usize].wrapping_add(2 * c as u64),
                            2,
                            lane,
                            h,
                        )?;
                    }
                }
            }
        }
        Matrix::Trans { d, a } => {
            // Lane l holds row g = l / 4, columns 2t, 2t+1 (t = l % 4); the
            // transpose gives it rows 2t, 2t+1 of column g.
            let v = strict(cx, w, *a, active)?;
            let elem = |r: usize, c: usize| (v[r * 4 + c / 2] >> (16 * (c % 2))) & 0xffff;
            let mut out = [0u64; 32];
            for (l, o) in out.iter_mut().enumerate() {
                let (g, t) = (l / 4, l % 4);
                *o = elem(2 * t, g) | (elem(2 * t + 1, g) << 16);
            }
            write(w, *d, &out, active, active);
        }
        Matrix::Mma { a, b, c, d, .. } => {
            let rd = |cx: &Ctx, w: &Warp, v: &[Src]| -> F<Vec<[u64; 32]>> {
                v.iter().map(|s| strict(cx, w, *s, active)).collect()
            };
            let av = rd(cx, w, a)?;
            let bv = rd(cx, w, b)?;
            let cv = rd(cx, w, c)?;
            let out = crate::mma::mma(m, &av, &bv, &cv);
            for (dst, v) in d.iter().zip(&out) {
                write(w, *dst, v, active, active);
            }
        }
    }
    Ok(())
}

/// The fields of an mbarrier object (an opaque 64-bit value in shared
/// memory): pending arrivals in bits 0-19, the expected count in 20-39, the
/// pending transaction count (23-bit two's complement) in 40-62, the phase
/// parity in bit 63. An arrive returns a state token: the phase parity in bit
/// 63 and the pending count after the arrival in bits 0-19.
mod mbar {
    pub fn pending(v: u64) -> u64 {
        v & 0xf_ffff
    }
    pub fn expected(v: u64) -> u64 {
        (v >> 20) & 0xf_ffff
    }
    pub fn tx(v: u64) -> i64 {
        (((v >> 40) & 0x7f_ffff) << 41) as i64 >> 41
    }
    pub fn phase(v: u64) -> u64 {
        v >> 63
    }
    pub fn pack(pending: u64, expected: u64, tx: i64, phase: u64) -> u64 {
        (pending & 0xf_ffff)
            | (expected & 0xf_ffff) << 20
            | ((tx as u64) & 0x7f_ffff) << 40
            | (phase & 1) << 63
    }
    /// Completes the phase when nothing is pending.
    pub fn settle(pending: u64, expected: u64, tx: i64, phase: u64) -> u64 {
        if pending == 0 && tx == 0 {
            pack(expected, expected, 0, phase ^ 1)
        } else {
            pack(pending, expected, tx, phase)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn exec_mbar(
    cx: &mut Ctx,
    w: &mut Warp,
    kind: MbarKind,
    space: Space,
    d: Dst,
    addr: &Addr,
    b: Src,
    active: u32,
) -> F<()> {
    let bv = strict(cx, w, b, active)?;
    let mut out = [0u64; 32];
    if kind == MbarKind::PendingCount {
        for l in lane_iter(active) {
            out[l as usize] = mbar::pending(bv[l as usize]);
        }
        write(w, d, &out, active, active);
        return Ok(());
    }
    let av = addresses(cx, w, addr, active)?;
    for l in lane_iter(active) {
        let li = l as usize;
        let v = load(cx, w, space, av[li], 8, l)?;
        let (pending, expected, tx, phase) = (
            mbar::pending(v),
            mbar::expected(v),
            mbar::tx(v),
            mbar::phase(v),
        );
        let new = match kind {
            MbarKind::Init => mbar::pack(bv[li], bv[li], 0, 0),
            MbarKind::Inval => 0,
            MbarKind::ExpectTx => mbar::pack(pending, expected, tx + bv[li] as i64, phase),
            MbarKind::CompleteTx => mbar::settle(pending, expected, tx - bv[li] as i64, phase),
            MbarKind::Arrive {
                expect_tx,
                drop,
                counted,
            } => {
                let count = if counted { bv[li] } else { 1 };
                let tx = if expect_tx { tx + bv[li] as i64 } else { tx };
                let expected = if drop {
                    expected.saturating_sub(count)
                } else {
                    expected
                };
                let pending = pending.saturating_sub(count);
                out[li] = (phase << 63) | pending;
                mbar::settle(pending, expected, tx, phase)
            }
            MbarKind::Wait { parity } => {
                let waited = if parity {
                    bv[li] & 1
                } else {
                    mbar::phase(bv[li])
                };
                out[li] = (phase != waited) as u64;
                v
            }
            MbarKind::PendingCount => v,
        };
        if new != v {
            store(cx, w, space, av[li], 8, l, new)?;
        }
    }
    write(w, d, &out, active, active);
    Ok(())
}

fn exec_video(cx: &mut Ctx, w: &mut Warp, v: &Video, active: u32) -> F<()> {
    let av = val(cx, w, v.a);
    let bv = val(cx, w, v.b);
    let cv = val(cx, w, v.c);
    let old = val(cx, w, Src::Reg(v.d.slot));
    let mut def = dm(w, &[v.a, v.b, v.c]);
    if v.dsel.is_some() {
        def &= dm(w, &[Src::Reg(v.d.slot)]);
    }
    let mut out = [0u64; 32];
    let part = |x: u64, sel: Option<(u32, u32)>, ty: Ty| -> i64 {
        let (off, width) = sel.unwrap_or((0, 32));
        let raw = (x >> off) & mask(width);
        if ty.is_signed() {
            sext(raw, width) as i64
        } else {
            raw as i64
        }
    };
    for l in lane_iter(active) {
        let li = l as usize;
        let ta = part(av[li], v.asel, v.aty);
        let tb = part(bv[li], v.bsel, v.bty);
        let mut t: i64 = match v.op {
            VideoOp::Add => ta + tb,
            VideoOp::Sub => ta - tb,
            VideoOp::Absdiff => (ta - tb).abs(),
            VideoOp::Min => ta.min(tb),
            VideoOp::Max => ta.max(tb),
            VideoOp::Shl | VideoOp::Shr => {
                let n = if v.clamp {
                    (tb as u64 & 0xffff_ffff).min(32)
                } else {
                    tb as u64 & 31
                };
                if v.op == VideoOp::Shl {
                    if n >= 32 {
                        0
                    } else {
                        ((ta as u64) << n) as u32 as i64
                    }
                } else if v.aty.is_signed() {
                    ta >> n.min(63)
                } else if n >= 32 {
                    0
                } else {
                    ((ta as u64 & 0xffff_ffff) >> n) as i64
                }
            }
            VideoOp::Mad => {
                let p = ta * tb;
                let p = if v.neg.0 != v.neg.1 { -p } else { p };
                p + sext(cv[li], 32) as i64
            }
            VideoOp::Set => video_cmp(v.cmp.unwrap_or(crate::fops::Cmp::Eq), ta, tb) as i64,
        };
        if v.sat && v.op != VideoOp::Set {
            t = if v.dty.is_signed() {
                t.clamp(i32::MIN as i64, i32::MAX as i64)
            } else {
                t.clamp(0, u32::MAX as i64)
            };
        }
        let c = sext(cv[li], 32) as i64;
        let c = if v.dty.is_signed() {
            c
        } else {
            cv[li] as i64 & 0xffff_ffff
        };
        let r = if v.op == VideoOp::Mad {
            t
        } else {
            match v.op2 {
                Some(VideoOp2::Add) => t + c,
                Some(VideoOp2::Min) => t.min(c),
                Some(VideoOp2::Max) => t.max(c),
                None => t,
            }
        };
        out[li] = match v.dsel {
            Some((off, width)) => {
                let fm = mask(width) << off;
                (old[li] & !fm) | (((r as u64) << off) & fm)
            }
            None => r as u64 & 0xffff_ffff,
        };
    }
    write(w, v.d, &out, active, def);
    Ok(())
}

/// The comparison of `vset`, `vset2`, `vset4` on extended elements.
fn video_cmp(c: crate::fops::Cmp, a: i64, b: i64) -> bool {
    use crate::fops::Cmp;
    match c {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        _ => false,
    }
}

/// One lane of a SIMD video instruction on 32-bit sources (see
/// [`VideoSimd`]).
pub fn video_simd(v: &VideoSimd, a: u32, b: u32, c: u32) -> u32 {
    let n = v.lanes.clamp(1, 4) as u32;
    let ew = 32 / n;
    let emask = mask(ew);
    let pair = ((b as u64) << 32) | a as u64;
    let elem = |x: u64, idx: u8, signed: bool| -> i64 {
        let raw = (x >> ((idx as u32 * ew) & 63)) & emask;
        if signed {
            sext(raw, ew) as i64
        } else {
            raw as i64
        }
    };
    let (lo, hi) = if v.d_signed {
        (-(1i64 << (ew - 1)), (1i64 << (ew - 1)) - 1)
    } else {
        (0, emask as i64)
    };
    let mut acc = c as i64;
    let mut merged = 0u64;
    for i in 0..n as usize {
        let va = elem(pair, v.asel[i], v.a_signed);
        let vb = elem(pair, v.bsel[i], v.b_signed);
        let mut t = match v.op {
            SimdOp::Add => va + vb,
            SimdOp::Sub => va - vb,
            SimdOp::Avrg => {
                let s = va + vb;
                if s >= 0 {
                    (s + 1) >> 1
                } else {
                    s >> 1
                }
            }
            SimdOp::Absdiff => (va - vb).abs(),
            SimdOp::Min => va.min(vb),
            SimdOp::Max => va.max(vb),
            SimdOp::Set(cmp) => video_cmp(cmp, va, vb) as i64,
        };
        if v.sat && !matches!(v.op, SimdOp::Set(_)) {
            t = t.clamp(lo, hi);
        }
        let on = v.mask & (1 << i) != 0;
        if v.add {
            if on {
                acc += t;
            }
        } else {
            let e = if on {
                t as u64 & emask
            } else {
                (c as u64 >> (i as u32 * ew)) & emask
            };
            merged |= e << (i as u32 * ew);
        }
    }
    if v.add {
        acc as u32
    } else {
        merged as u32
    }
}

fn exec_video_simd(cx: &mut Ctx, w: &mut Warp, v: &VideoSimd, active: u32) {
    let av = val(cx, w, v.a);
    let bv = val(cx, w, v.b);
    let cv = val(cx, w, v.c);
    let def = dm(w, &[v.a, v.b, v.c]);
    let mut out = [0u64; 32];
    for l in lane_iter(active) {
        let li = l as usize;
        out[li] = video_simd(v, av[li] as u32, bv[li] as u32, cv[li] as u32) as u64;
    }
    write(w, v.d, &out, active, def);
}

/// Writes a value computed outside the warp (a `bar.red` result) to its lanes.
pub fn deliver(w: &mut Warp, d: Dst, v: u64, lanes: u32) {
    write(w, d, &[v; 32], lanes, lanes);
}

/// The handle of a texture, sampler or surface operand in every lane.
fn handles(cx: &mut Ctx, w: &mut Warp, h: Handle, active: u32) -> F<[u64; 32]> {
    match h {
        Handle::Val(s) => strict(cx, w, s, active),
        Handle::Param(s) => {
            let a = val(cx, w, s);
            let mut out = [0u64; 32];
            for l in lane_iter(active) {
                out[l as usize] = load(cx, w, Space::Param, a[l as usize], 8, l)?;
            }
            Ok(out)
        }
    }
}

/// The object a handle names.
fn object(cx: &Ctx, h: u64, want: &str, lane: u32) -> F<crate::texture::Obj> {
    crate::texture::handle_index(h)
        .and_then(|i| cx.objs.get(i).copied())
        .ok_or_else(|| {
            fault(
                ErrorKind::OutOfBounds {
                    space: format!("{want} handle"),
                    addr: h,
                    size: 0,
                },
                lane,
            )
        })
}

fn wrong_object(what: &str, lane: u32) -> Fault {
    fault(
        ErrorKind::Malformed(format!("the handle does not name a {what}")),
        lane,
    )
}

fn exec_tex(cx: &mut Ctx, w: &mut Warp, t: &TexOp, active: u32) -> F<()> {
    use crate::texture::{gather, sample, Fetch, Obj, TexCoords};
    let tv = handles(cx, w, t.tex, active)?;
    let sv = match t.sampler {
        Some(s) => Some(handles(cx, w, s, active)?),
        None => None,
    };
    let coords: Vec<[u64; 32]> = t
        .coords
        .iter()
        .map(|c| strict(cx, w, *c, active))
        .collect::<F<_>>()?;
    let offs: Vec<[u64; 32]> = t
        .offsets
        .iter()
        .map(|c| strict(cx, w, *c, active))
        .collect::<F<_>>()?;
    let depth = match t.depth {
        Some(d) => Some(strict(cx, w, d, active)?),
        None => None,
    };
    let float = matches!(t.dty, Ty::F32 | Ty::F16 | Ty::F16x2);
    let mut out = [[0u64; 32]; 4];
    for l in lane_iter(active) {
        let li = l as usize;
        let (img, tex_smp) = match object(cx, tv[li], "texture", l)? {
            Obj::Texture { img, sampler } => (img, sampler),
            _ => return Err(wrong_object("texture", l)),
        };
        let smp = match &sv {
            Some(sv) => match object(cx, sv[li], "sampler", l)? {
                Obj::Sampler(s) | Obj::Texture { sampler: s, .. } => s,
                _ => return Err(wrong_object("sampler", l)),
            },
            None => tex_smp,
        };
        let cv: Vec<u32> = coords.iter().map(|c| c[li] as u32).collect();
        let mut offsets = [0i32; 3];
        for (o, v) in offsets.iter_mut().zip(&offs) {
            *o = v[li] as u32 as i32;
        }
        let fetch = Fetch {
            geom: t.geom,
            coords: TexCoords::split(t.geom, &cv, t.int_coords),
            offsets,
            depth: depth.map(|d| f32::from_bits(d[li] as u32)),
            float,
        };
        let global = &mut *cx.global;
        let mut src = |a: u64, n: usize| global.slice_mut(a, n as u64).map(|s| s.to_vec());
        let r = match t.gather {
            Some(c) => gather(&img, &tex_smp, &smp, &fetch, c as usize, &mut src),
            None => sample(&img, &tex_smp, &smp, &fetch, &mut src),
        };
        let half = |x: u32| {
            crate::float::from_f64(
                crate::float::Fmt::F16,
                f32::from_bits(x) as f64,
                crate::float::Rnd::Rn,
            )
        };
        for c in 0..4 {
            out[c][li] = match t.dty {
                Ty::F16 => half(r[c]),
                Ty::F16x2 if c < 2 => half(r[2 * c]) | half(r[2 * c + 1]) << 16,
                _ => r[c] as u64,
            };
        }
    }
    for (i, d) in t.ds.iter().enumerate().take(4) {
        write(w, *d, &out[i], active, active);
    }
    write(w, t.p, &[1; 32], active, active);
    Ok(())
}

fn exec_surf(cx: &mut Ctx, w: &mut Warp, t: &SurfOp, active: u32) -> F<()> {
    use crate::texture::{surface_addr, Obj, SurfError};
    let hv = handles(cx, w, t.surf, active)?;
    let coords: Vec<[u64; 32]> = t
        .coords
        .iter()
        .map(|c| strict(cx, w, *c, active))
        .collect::<F<_>>()?;
    let vals: Vec<[u64; 32]> = t
        .vals
        .iter()
        .map(|c| strict(cx, w, *c, active))
        .collect::<F<_>>()?;
    let n = t.ds.len().max(t.vals.len()).clamp(1, 4);
    let esize = t.ety.bytes() as u64;
    let mut out = [[0u64; 32]; 4];
    for l in lane_iter(active) {
        let li = l as usize;
        let img = match object(cx, hv[li], "surface", l)? {
            Obj::Surface(img) | Obj::Texture { img, .. } => img,
            _ => return Err(wrong_object("surface", l)),
        };
        let fmt = img.dims.format;
        let cv: Vec<u32> = coords.iter().map(|c| c[li] as u32).collect();
        // `.p` accesses one texel; `.b` the vector's bytes.
        let size = if t.formatted {
            fmt.texel_bytes() as u64
        } else {
            esize * n as u64
        };
        let addr = surface_addr(&img, t.geom, &cv, size, !t.formatted, t.clamp).map_err(|e| {
            let kind = match e {
                SurfError::OutOfRange { offset } => ErrorKind::OutOfBounds {
                    space: "surface".into(),
                    addr: offset,
                    size: size as u32,
                },
                SurfError::Misaligned { offset } => ErrorKind::Misaligned {
                    space: "surface".into(),
                    addr: offset,
                    size: size as u32,
                },
            };
            fault(kind, l)
        })?;
        let Some(a) = addr else {
            // `.zero`: loads read zero, stores and reductions do nothing.
            continue;
        };
        fn g<'m>(cx: &'m mut Ctx, at: u64, len: u64, l: u32) -> F<&'m mut [u8]> {
            cx.global.slice_mut(at, len).ok_or_else(|| {
                fault(
                    ErrorKind::OutOfBounds {
                        space: "surface".into(),
                        addr: at,
                        size: len as u32,
                    },
                    l,
                )
            })
        }
        let cbytes = fmt.ty.bytes() as u64;
        match t.kind {
            SurfKind::Ld => {
                let bytes = g(cx, a, size, l)?;
                for (i, o) in out.iter_mut().enumerate().take(n) {
                    let s = (i as u64 * esize) as usize;
                    o[li] = read_le(&bytes[s..s + esize as usize]);
                }
            }
            SurfKind::St if t.formatted => {
                let bytes = g(cx, a, size, l)?;
                for (c, v) in vals.iter().enumerate().take(fmt.channels as usize) {
                    let enc = fmt.ty.encode(v[li] as u32) as u64;
                    let s = c * cbytes as usize;
                    write_le(&mut bytes[s..s + cbytes as usize], enc);
                }
            }
            SurfKind::St => {
                let bytes = g(cx, a, size, l)?;
                for (i, v) in vals.iter().enumerate().take(n) {
                    let s = i * esize as usize;
                    write_le(&mut bytes[s..s + esize as usize], v[li]);
                }
            }
            SurfKind::Red(op) => {
                let (at, width) = if t.formatted {
                    (a, cbytes.min(esize))
                } else {
                    (a, esize)
                };
                let signed = t.ety.is_signed();
                let bits = width as u32 * 8;
                let m = mask(bits);
                let bytes = g(cx, at, width, l)?;
                let old = read_le(bytes);
                let x = vals.first().map_or(0, |v| v[li]) & m;
                let (so, sx) = (sext(old, bits) as i64, sext(x, bits) as i64);
                let new = match op {
                    AtomOp::Add => old.wrapping_add(x),
                    AtomOp::And => old & x,
                    AtomOp::Or => old | x,
                    AtomOp::Min if signed => so.min(sx) as u64,
                    AtomOp::Max if signed => so.max(sx) as u64,
                    AtomOp::Min => old.min(x),
                    AtomOp::Max => old.max(x),
                    _ => old,
                };
                write_le(bytes, new & m);
            }
        }
    }
    if t.kind == SurfKind::Ld {
        for (i, d) in t.ds.iter().enumerate().take(4) {
            write(w, *d, &out[i], active, active);
        }
    }
    Ok(())
}

fn exec_query(cx: &mut Ctx, w: &mut Warp, q: &QueryOp, active: u32) -> F<()> {
    use crate::texture::{Obj, ObjKind};
    let hv = handles(cx, w, q.obj, active)?;
    let lv = match q.level {
        Some(s) => strict(cx, w, s, active)?,
        None => [0; 32],
    };
    let mut out = [0u64; 32];
    for l in lane_iter(active) {
        let li = l as usize;
        if q.istypep {
            let kind = crate::texture::handle_index(hv[li])
                .and_then(|i| cx.objs.get(i))
                .map(Obj::kind);
            out[li] = match &*q.what {
                ".texref" => kind == Some(ObjKind::Texture),
                ".samplerref" => matches!(kind, Some(ObjKind::Sampler | ObjKind::Texture)),
                ".surfref" => kind == Some(ObjKind::Surface),
                _ => false,
            } as u64;
            continue;
        }
        let obj = object(cx, hv[li], "texture", l)?;
        let (img, smp) = match obj {
            Obj::Texture { img, sampler } => (Some(img), Some(sampler)),
            Obj::Surface(img) => (Some(img), None),
            Obj::Sampler(s) => (None, Some(s)),
        };
        let level = (lv[li] as u32).min(31);
        let size = |v: u32| (v >> level).max(1) as u64;
        let v = match (&*q.what, img, smp) {
            (".width", Some(i), _) => size(i.dims.width),
            (".height", Some(i), _) => size(i.dims.height),
            (".depth", Some(i), _) => size(i.dims.depth),
            (".channel_data_type", Some(i), _) => i.dims.format.ty.cl_code() as u64,
            (".channel_order", Some(i), _) => i.dims.format.cl_order() as u64,
            (".array_size", Some(i), _) => i.dims.layers as u64,
            (".num_mipmap_levels" | ".num_samples", Some(_), _) => 1,
            (".memory_layout", Some(_), _) => 0,
            (".normalized_coords", _, Some(s)) => s.normalized as u64,
            (".force_unnormalized_coords", _, Some(s)) => s.force_unnormalized as u64,
            (".filter_mode", _, Some(s)) => (s.filter == crate::texture::Filter::Linear) as u64,
            (".addr_mode_0", _, Some(s)) => s.addr[0].code() as u64,
            (".addr_mode_1", _, Some(s)) => s.addr[1].code() as u64,
            (".addr_mode_2", _, Some(s)) => s.addr[2].code() as u64,
            (what, _, _) => {
                return Err(fault(
                    ErrorKind::Malformed(format!("query `{what}` of this object")),
                    l,
                ))
            }
        };
        out[li] = v;
    }
    write(w, q.d, &out, active, active);
    Ok(())
}

/// Memory address of element `(r, c)` of a `wmma` matrix, as a bit offset
/// from the base.
fn wmma_bit(ty: crate::wmma::WTy, row: bool, ld: u64, r: u64, c: u64) -> u64 {
    let idx = if row { r * ld + c } else { c * ld + r };
    idx * ty.bits() as u64
}

fn exec_wmma(cx: &mut Ctx, w: &mut Warp, op: &WmmaOp, active: u32) -> F<()> {
    use crate::wmma::{element_at, frag_dims, mma, read_element, slot_place, slots, Frag};
    match op {
        WmmaOp::Load {
            frag,
            ty,
            mnk,
            row,
            space,
            ds,
            addr,
            stride,
        } => {
            let (rows, cols) = frag_dims(*frag, *mnk);
            let elems = (rows * cols) as usize;
            let av = addresses(cx, w, addr, active)?;
            let sv = match stride {
                Some(s) => Some(strict(cx, w, *s, active)?),
                None => None,
            };
            let bits = ty.bits() as u64;
            let mut out = vec![[0u64; 32]; ds.len()];
            for l in lane_iter(active) {
                let li = l as usize;
                let ld = sv.map_or(if *row { cols } else { rows } as u64, |s| {
                    s[li] as u32 as u64
                });
                for s in 0..slots(*ty, ds.len()) {
                    let e = element_at(*ty, ds.len(), elems, li, s);
                    let (r, c) = ((e / cols as usize) as u64, (e % cols as usize) as u64);
                    let bit = wmma_bit(*ty, *row, ld, r, c);
                    let a = av[li].wrapping_add(bit / 8);
                    let v = if bits >= 8 {
                        load(cx, w, *space, a, bits / 8, l)?
                    } else {
                        (load(cx, w, *space, a, 1, l)? >> (bit % 8)) & mask(bits as u32)
                    };
                    let (ri, sh) = slot_place(*ty, s);
                    out[ri][li] |= v << sh;
                }
            }
            for (d, v) in ds.iter().zip(&out) {
                write(w, *d, v, active, active);
            }
        }
        WmmaOp::Store {
            ty,
            mnk,
            row,
            space,
            srcs,
            addr,
            stride,
        } => {
            let (rows, cols) = frag_dims(Frag::C, *mnk);
            let av = addresses(cx, w, addr, active)?;
            let sv = match stride {
                Some(s) => Some(strict(cx, w, *s, active)?),
                None => None,
            };
            let regs: Vec<[u64; 32]> = srcs.iter().map(|s| val(cx, w, *s)).collect();
            let bytes = (ty.bits() / 8).max(1) as u64;
            // The warp stores the matrix once, at the first active lane's
            // address.
            let l = first_lane(active);
            let li = l as usize;
            let ld = sv.map_or(if *row { cols } else { rows } as u64, |s| {
                s[li] as u32 as u64
            });
            for e in 0..(rows * cols) as usize {
                let (r, c) = ((e / cols as usize) as u64, (e % cols as usize) as u64);
                let a = av[li].wrapping_add(wmma_bit(*ty, *row, ld, r, c) / 8);
                store(cx, w, *space, a, bytes, l, read_element(*ty, &regs, e))?;
            }
        }
        WmmaOp::Mma { spec, d, a, b, c } => {
            let get = |cx: &Ctx, w: &Warp, v: &[Src]| -> Vec<[u64; 32]> {
                v.iter().map(|s| val(cx, w, *s)).collect()
            };
            let (av, bv, cv) = (get(cx, w, a), get(cx, w, b), get(cx, w, c));
            let out = mma(spec, &av, &bv, &cv, d.len());
            for (dst, v) in d.iter().zip(&out) {
                write(w, *dst, v, active, active);
            }
        }
    }
    Ok(())
}
