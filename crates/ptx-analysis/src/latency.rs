//! Latency classes, pipe assignment and stall cycles of every instruction, and
//! the minimum initiation interval (ResMII, RecMII) of single-block loops.
//!
//! Seed: `000_ed667d9feced6e07.txt`, "Phase 24 -- OriPipelining":
//! "Instruction Latency Classifier (sub_91A0F0)" → "Latency Class Table" and
//! "Opcode Family Handling" (the 13 class codes and which instructions get
//! them), "Phase 3: MII Computation" (the class → pipe table, ResMII = ceil of
//! the largest `pipe_count / pipe_width`, each instruction weighing 1.0 on one
//! pipe, pipe indices above 6 clamped to 6; RecMII from loop-carried register
//! recurrences with edge latency from the stall calculator and distance 0 or
//! 1; single-block loops only) and "Stall Cycle Calculator (sub_91E900)" (stall
//! = the instruction's latency capped at 64 cycles on the long-latency pipe,
//! 32 otherwise).
//!
//! The classifier works on PTX, not on SASS opcodes, so it maps PTX families
//! (from the `ptx-isa` table, plus the instruction type) to the seed's classes.
//! Where the seed's tables disagree with each other this module decides, and
//! says so:
//!
//! - **FP32 arithmetic is class 7 on the FMA pipe.** The class table lists FP32
//!   under class 12 (memory), and the class → pipe table sends class 12 to the
//!   LSU; but the seed's own worked example ("8 FP32 instructions and 3 global
//!   loads yields max(8/4, 3/2) = 2") needs FP32 on the FMA pipe (width 4), and
//!   class 7 is the only class the pipe table sends to FMA.
//! - **The pipe comes from the instruction category**, with the class → pipe
//!   table where it is unambiguous: class 6 is both "simple ALU" (class table)
//!   and "texture fetch → TEX" (pipe table); simple ALU goes to ALU and texture
//!   fetches are class 20 → TEX. Integer multiply, shifts, conversions and
//!   address arithmetic → ALU (classes 9, 10, 11); FP64 → DFMA; tensor-core
//!   instructions → MMA; memory → LSU; texture/surface/uniform loads → TEX
//!   (class 20); control flow, barriers and scoreboard waits → BRA (classes 1
//!   and 31, pipe 6).
//! - **MUFU** (`sin`, `ex2`, `rcp`, ... on f32/f16) is class 8, whose pipe in
//!   the seed is 8 (SFU), clamped to 6 (BRA/SMEM) exactly as the ResMII pseudo
//!   code does.
//! - **Long-latency pipe.** The stall calculator caps at 64 cycles on "pipe 8,
//!   the long-latency functional unit (memory/texture)". Here that is the LSU
//!   and TEX pipes plus class 8; everything else is capped at 32.
//! - **RecMII** is computed from register dependencies only (memory
//!   dependencies through the same address are not modelled): the smallest II
//!   such that every dependence cycle satisfies `sum(stall) <= II *
//!   sum(distance)`, found by binary search with a positive-cycle check. A loop
//!   with no recurrence has RecMII 0.
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{defs_and_uses, Function, Inst, InstId, Operand, RegClass};
use ptx_isa::{Category, FamilyId, OpInfo, Space, Ty};

use crate::loops::{LoopForest, LoopId};
use crate::target::{LatencyClass, Pipe, Target};

/// Latency facts of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstLatency {
    pub class: LatencyClass,
    pub pipe: Pipe,
    /// Cycles of the class on the target.
    pub cycles: u32,
    /// `cycles` capped at 64 on the long-latency pipes, 32 elsewhere.
    pub stall: u32,
}

/// Latency facts of every instruction of a function, and a class histogram.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LatencyInfo {
    insts: ArenaMap<InstId, InstLatency>,
    /// Number of instructions per class, indexed by [`LatencyClass::ordinal`].
    pub histogram: [u32; 13],
    /// Number of instructions per pipe, indexed by [`Pipe::index`].
    pub pipe_histogram: [u32; 7],
}

impl LatencyInfo {
    /// The facts of `inst` (`None` for an instruction not in the layout).
    pub fn get(&self, inst: InstId) -> Option<InstLatency> {
        self.insts.get(inst).copied()
    }
}

/// Bits moved by a memory instruction: vector width times type size (32 when
/// no type is written).
fn access_bits(info: &OpInfo) -> u32 {
    info.ty().map_or(32, Ty::bits) * info.vec as u32
}

/// Whether the first operand is a predicate register (`mov.pred`, `and.pred`).
fn writes_predicate(func: &Function, inst: &Inst) -> bool {
    matches!(inst.operands.first(), Some(Operand::Reg { reg, .. }) if func.regs[*reg].class == RegClass::P)
}

/// The latency class and pipe of one instruction (see the module documentation
/// for the mapping). Reads the instruction's typed form (`Opcode::info`).
pub fn classify(func: &Function, inst: &Inst) -> (LatencyClass, Pipe) {
    use FamilyId as F;
    use LatencyClass as C;
    let info = &inst.opcode.info;
    let family = info.family;
    // One pass over the types (this runs for every instruction).
    let (mut any_f64, mut any_f32, mut any_narrow, mut all_float) = (false, false, false, true);
    for ty in info.types.iter() {
        let f32_like = matches!(ty, Ty::F32 | Ty::TF32 | Ty::F32x2);
        any_f64 |= ty == Ty::F64;
        any_f32 |= f32_like;
        // Narrow floats: `.f16`, `.bf16`, `.e4m3`, ...
        any_narrow |= ty.is_float() && !f32_like && ty != Ty::F64;
        all_float &= ty.is_float();
    }
    // `.b32` when no type is written: not 64-bit.
    let int64 = info
        .ty()
        .is_some_and(|ty| ty.bits() == 64 && !ty.is_float());

    match family {
        // Control flow.
        F::Bra | F::BrxIdx | F::Call | F::Ret | F::Exit | F::Trap | F::Brkpt => {
            return (C::Skip, Pipe::BraSmem)
        }
        // Barriers, fences, scoreboard waits, async-group bookkeeping.
        F::Bar
        | F::Barrier
        | F::BarWarpSync
        | F::BarrierCluster
        | F::Membar
        | F::Fence
        | F::FenceProxy
        | F::Griddepcontrol
        | F::CpAsyncCommitGroup
        | F::CpAsyncWaitGroup
        | F::CpAsyncWaitAll
        | F::CpAsyncBulkCommitGroup
        | F::CpAsyncBulkWaitGroup
        | F::WgmmaFence
        | F::WgmmaCommitGroup
        | F::WgmmaWaitGroup
        | F::Nanosleep
        | F::Setmaxnreg
        | F::Pmevent
        | F::Tcgen05WaitLd
        | F::Tcgen05WaitSt
        | F::Tcgen05Commit
        | F::Tcgen05FenceBeforeThreadSync
        | F::Tcgen05FenceAfterThreadSync
        | F::Tcgen05Alloc
        | F::Tcgen05Dealloc
        | F::Tcgen05RelinquishAllocPermit
        | F::ClusterlaunchcontrolTryCancel
        | F::MbarrierInit
        | F::MbarrierInval
        | F::MbarrierExpectTx
        | F::MbarrierCompleteTx
        | F::MbarrierArrive
        | F::MbarrierArriveDrop
        | F::MbarrierTestWait
        | F::MbarrierTryWait
        | F::MbarrierPendingCount => return (C::Scoreboard, Pipe::BraSmem),
        // Tensor cores.
        F::WgmmaMmaAsync
        | F::WgmmaMmaAsyncSp
        | F::Tcgen05Mma
        | F::Tcgen05MmaSp
        | F::Tcgen05MmaWs
        | F::Tcgen05MmaWsSp => return (C::Texture, Pipe::Mma),
        F::Mma | F::MmaSp | F::MmaSpOrderedMetadata | F::WmmaMma => return (C::Fp64, Pipe::Mma),
        // Texture and surface.
        F::Tex | F::Tld4 | F::Txq | F::Suld | F::Sust | F::Sured | F::Suq | F::Istypep => {
            return (C::Texture, Pipe::Tex)
        }
        // Memory.
        F::Ld | F::LdGlobalNc | F::Ldu | F::WmmaLoad => {
            return match info.space {
                Some(Space::Const | Space::Param) => (C::Texture, Pipe::Tex),
                _ if family == F::Ldu => (C::Texture, Pipe::Tex),
                Some(Space::Shared) => {
                    if access_bits(info) >= 128 {
                        (C::Wide, Pipe::Lsu)
                    } else {
                        (C::Standard, Pipe::Lsu)
                    }
                }
                _ => (C::GlobalLoad, Pipe::Lsu),
            };
        }
        F::St | F::WmmaStore | F::Stmatrix | F::StAsync | F::StBulk | F::MultimemSt => {
            let wide = access_bits(info) >= 128 || any_f64;
            return (if wide { C::Wide } else { C::Standard }, Pipe::Lsu);
        }
        F::Atom | F::Red | F::RedAsync | F::MultimemRed | F::MultimemLdReduce => {
            return (C::Standard, Pipe::Lsu)
        }
        F::Ldmatrix | F::Prefetch | F::Prefetchu | F::Applypriority | F::Discard => {
            return (C::Standard, Pipe::Lsu)
        }
        F::Tcgen05Ld | F::Tcgen05LdRed | F::Tcgen05St | F::Tcgen05Cp | F::Tcgen05Shift => {
            return (C::Wide, Pipe::Lsu)
        }
        F::CpAsync
        | F::CpAsyncMbarrierArrive
        | F::CpAsyncBulk
        | F::CpReduceAsyncBulk
        | F::CpAsyncBulkPrefetch
        | F::CpAsyncBulkTensor
        | F::CpReduceAsyncBulkTensor
        | F::CpAsyncBulkPrefetchTensor
        | F::TensormapReplace
        | F::TensormapCpFenceproxy => return (C::Wide, Pipe::Lsu),
        // Warp-level.
        F::Shfl | F::ShflSync | F::MatchAny | F::MatchAll => return (C::Standard, Pipe::Lsu),
        F::ReduxSync => return (C::Standard, Pipe::Alu),
        F::Vote | F::VoteSync | F::Activemask | F::ElectSync => return (C::Short, Pipe::Alu),
        // Address computations.
        F::Cvta
        | F::Isspacep
        | F::Mapa
        | F::Getctarank
        | F::Alloca
        | F::Stacksave
        | F::Stackrestore
        | F::Createpolicy => return (C::Address, Pipe::Alu),
        // Conversions.
        F::Cvt | F::CvtPack => {
            if any_f64 {
                return (C::Conversion, Pipe::Dfma);
            }
            if all_float && any_narrow {
                return (C::MediumShort, Pipe::Fma);
            }
            return (C::Conversion, Pipe::Alu);
        }
        // Transcendental / special functions.
        F::Rcp
        | F::Sqrt
        | F::Rsqrt
        | F::Sin
        | F::Cos
        | F::Lg2
        | F::Ex2
        | F::Tanh
        | F::RcpApproxFtzF64
        | F::RsqrtApproxFtzF64 => {
            if any_f64 {
                return (C::Fp64, Pipe::Dfma);
            }
            return (C::Special, Pipe::BraSmem);
        }
        F::Div if any_f32 || any_narrow => return (C::Special, Pipe::BraSmem),
        _ => {}
    }
    // Floating-point arithmetic and compares.
    if any_f64 {
        return (C::Fp64, Pipe::Dfma);
    }
    if any_f32 || any_narrow {
        return (C::MediumShort, Pipe::Fma);
    }
    // Integer arithmetic.
    match family {
        F::Mul
        | F::Mad
        | F::Mul24
        | F::Mad24
        | F::Sad
        | F::Dp4a
        | F::Dp2a
        | F::Shl
        | F::Shr
        | F::Shf
        | F::Madc => return (C::IntMul, Pipe::Alu),
        F::Div | F::Rem => return (C::Wide, Pipe::Alu),
        F::AddCc | F::Addc | F::SubCc | F::Subc => return (C::MediumShort, Pipe::Alu),
        _ => {}
    }
    if family.category() == Some(Category::Video) {
        // Video instructions: multi-operation integer sequences.
        return (C::IntMul, Pipe::Alu);
    }
    if writes_predicate(func, inst) && !matches!(family, F::Setp | F::Set | F::Testp) {
        // Predicate moves and predicate logic.
        return (C::Skip, Pipe::Alu);
    }
    if int64
        && matches!(
            family,
            F::Add | F::Sub | F::Min | F::Max | F::Abs | F::Neg | F::Setp | F::Selp
        )
    {
        // 64-bit integer arithmetic works on register pairs.
        return (C::MediumShort, Pipe::Alu);
    }
    (C::Short, Pipe::Alu)
}

/// Whether stalls of this class/pipe are capped at 64 (long-latency pipe) rather
/// than 32.
pub fn is_long_latency(class: LatencyClass, pipe: Pipe) -> bool {
    matches!(pipe, Pipe::Lsu | Pipe::Tex) || class == LatencyClass::Special
}

/// The latency facts of one instruction on `target`.
pub fn inst_latency(func: &Function, inst: &Inst, target: &Target) -> InstLatency {
    let (class, pipe) = classify(func, inst);
    let cycles = target.class_cycles(class);
    let cap = if is_long_latency(class, pipe) { 64 } else { 32 };
    InstLatency {
        class,
        pipe,
        cycles,
        stall: cycles.min(cap),
    }
}

/// Latency facts of every instruction of `func` (in the layout).
pub fn latency(func: &Function, target: &Target) -> LatencyInfo {
    let mut info = LatencyInfo::default();
    for (i, inst) in func.insts_in_order() {
        let l = inst_latency(func, inst, target);
        info.histogram[l.class.ordinal()] += 1;
        info.pipe_histogram[l.pipe.index()] += 1;
        info.insts.insert(i, l);
    }
    info
}

/// ResMII of a body with `counts[pipe]` instructions per pipe:
/// `ceil(max(counts[i] / width[i]))`.
pub fn res_mii(counts: &[u32; 7], target: &Target) -> u32 {
    Pipe::ALL
        .iter()
        .map(|&p| counts[p.index()].div_ceil(target.pipe_width(p).max(1)))
        .max()
        .unwrap_or(0)
}

/// The MII of one single-block loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LoopMii {
    pub loop_id: LoopId,
    /// Instructions per pipe in the body.
    pub pipe_counts: [u32; 7],
    pub res_mii: u32,
    /// 0 when the body has no recurrence.
    pub rec_mii: u32,
    /// `max(res_mii, rec_mii)`.
    pub mii: u32,
}

/// A dependence edge of a loop body: `from` feeds `to` with `latency` cycles,
/// `distance` iterations later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DepEdge {
    from: usize,
    to: usize,
    latency: u32,
    distance: u32,
}

/// Register dependence edges of a single-block loop body (see the module
/// documentation).
fn dependence_edges(func: &Function, body: &[InstId], lat: &LatencyInfo) -> Vec<DepEdge> {
    let n = body.len();
    let dus: Vec<_> = body
        .iter()
        .map(|&i| defs_and_uses(&func.insts[i]))
        .collect();
    let guarded: Vec<bool> = body
        .iter()
        .map(|&i| func.insts[i].guard.is_some())
        .collect();
    let stall = |k: usize| lat.get(body[k]).map_or(1, |l| l.stall);
    let mut edges = Vec::new();
    for j in 0..n {
        let mut seen = Vec::new();
        for &r in &dus[j].uses {
            if seen.contains(&r) {
                continue;
            }
            seen.push(r);
            // Defs reaching the use: walk back to the previous unguarded def,
            // wrapping around the back edge.
            let order = (0..j)
                .rev()
                .map(|k| (k, 0))
                .chain((j..n).rev().map(|k| (k, 1)));
            for (k, distance) in order {
                if dus[k].defs.contains(&r) {
                    edges.push(DepEdge {
                        from: k,
                        to: j,
                        latency: stall(k),
                        distance,
                    });
                    if !guarded[k] {
                        break;
                    }
                }
            }
        }
    }
    edges.sort_by_key(|e| (e.from, e.to));
    edges
}

/// Whether some cycle has `sum(latency) > ii * sum(distance)`.
fn has_positive_cycle(n: usize, edges: &[DepEdge], ii: u32) -> bool {
    let carried = edges.iter().filter(|e| e.distance > 0).count();
    let mut dist = vec![0i64; n];
    for _pass in 0..carried + 2 {
        let mut changed = false;
        for e in edges {
            let w = e.latency as i64 - ii as i64 * e.distance as i64;
            if dist[e.from] + w > dist[e.to] {
                dist[e.to] = dist[e.from] + w;
                changed = true;
            }
        }
        if !changed {
            return false;
        }
    }
    true
}

/// RecMII of a single-block body.
fn rec_mii(n: usize, edges: &[DepEdge]) -> u32 {
    if !edges.iter().any(|e| e.distance > 0) {
        return 0;
    }
    let total: u32 = edges.iter().map(|e| e.latency).sum::<u32>().max(1);
    // Smallest ii in 1..=total with no positive cycle (total always works:
    // every cycle has distance >= 1 and latency <= total).
    let (mut lo, mut hi) = (1u32, total);
    if !has_positive_cycle(n, edges, 0) {
        // No cycle carries latency at all (every cycle sums to 0).
        return 0;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if has_positive_cycle(n, edges, mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// ResMII, RecMII and MII of every single-block loop (loops of more than one
/// block are left out, as ptxas pipelines only single-block bodies).
pub fn loop_mii(
    func: &Function,
    loops: &LoopForest,
    lat: &LatencyInfo,
    target: &Target,
) -> Vec<LoopMii> {
    let mut out = Vec::new();
    for (i, l) in loops.loops.iter().enumerate() {
        if !l.is_single_block() {
            continue;
        }
        let body = &func.blocks[l.header].insts;
        out.push(body_mii(func, LoopId(i as u32), body, lat, target));
    }
    out
}

/// The MII of one straight-line body executed repeatedly.
pub fn body_mii(
    func: &Function,
    loop_id: LoopId,
    body: &[InstId],
    lat: &LatencyInfo,
    target: &Target,
) -> LoopMii {
    let mut pipe_counts = [0u32; 7];
    for &i in body {
        if let Some(l) = lat.get(i) {
            pipe_counts[l.pipe.index()] += 1;
        }
    }
    let res = res_mii(&pipe_counts, target);
    let edges = dependence_edges(func, body, lat);
    let rec = rec_mii(body.len(), &edges);
    LoopMii {
        loop_id,
        pipe_counts,
        res_mii: res,
        rec_mii: rec,
        mii: res.max(rec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::cfg;
    use crate::dominators::dominators;
    use crate::loops::loops;
    use crate::test_util::func;

    fn classes(body: &str) -> Vec<String> {
        let f = func(body);
        f.insts_in_order()
            .map(|(_, inst)| {
                let (c, p) = classify(&f, inst);
                format!("{} {}:{}", inst.opcode.text(), c.code(), p.name())
            })
            .collect()
    }

    #[test]
    fn the_seeds_resmii_example_on_sm80() {
        // 8 FP32 instructions and 3 global loads: max(8/4, 3/2) = 2.
        let mut counts = [0u32; 7];
        counts[Pipe::Fma.index()] = 8;
        counts[Pipe::Lsu.index()] = 3;
        assert_eq!(res_mii(&counts, &Target::SM80), 2);

        // The same as a real loop body: the IV update, compare and branch add
        // ALU 2/4 and BRA 1/1, which do not change the maximum.
        let f = func(
            "ld.param.u64 %rd1, [p];
             mov.u32 %r1, 0;
           L:
             ld.global.f32 %f1, [%rd1];
             ld.global.f32 %f2, [%rd1+4];
             ld.global.f32 %f3, [%rd1+8];
             fma.rn.f32 %f4, %f1, %f2, %f3;
             fma.rn.f32 %f5, %f1, %f2, %f3;
             fma.rn.f32 %f6, %f1, %f2, %f3;
             fma.rn.f32 %f7, %f1, %f2, %f3;
             mul.f32 %f8, %f1, %f2;
             mul.f32 %f9, %f1, %f2;
             add.f32 %f10, %f1, %f2;
             add.f32 %f11, %f1, %f2;
             add.s32 %r1, %r1, 1;
             setp.lt.s32 %p1, %r1, 100;
             @%p1 bra L;
             ret;",
        );
        let g = cfg(&f);
        let d = dominators(&g);
        let l = loops(&g, &d);
        let lat = latency(&f, &Target::SM80);
        let mii = loop_mii(&f, &l, &lat, &Target::SM80);
        assert_eq!(mii.len(), 1);
        assert_eq!(mii[0].pipe_counts, [2, 8, 0, 0, 3, 0, 1]);
        assert_eq!(mii[0].res_mii, 2);
        // The only recurrence is the IV increment: ALU class 6, 4 cycles.
        assert_eq!(mii[0].rec_mii, 4);
        assert_eq!(mii[0].mii, 4);
        // On sm_86 the FMA pipe is 8 wide and the LSU 1: ResMII 3.
        let mii86 = loop_mii(&f, &l, &latency(&f, &Target::SM86), &Target::SM86);
        assert_eq!(mii86[0].res_mii, 3);
    }

    #[test]
    fn recurrence_through_two_instructions_and_a_guard() {
        // f1 -> f2 -> f1 (carried): 5 + 5 cycles per iteration.
        let f = func(
            "mov.f32 %f1, 0f00000000;
           L:
             add.f32 %f2, %f1, %f3;
             mul.f32 %f1, %f2, %f4;
             setp.lt.f32 %p1, %f1, %f5;
             @%p1 bra L;
             ret;",
        );
        let g = cfg(&f);
        let l = loops(&g, &dominators(&g));
        let lat = latency(&f, &Target::SM80);
        let mii = loop_mii(&f, &l, &lat, &Target::SM80);
        assert_eq!(mii[0].rec_mii, 10);

        // Two iterations of distance in one cycle: a -> b carried, b -> a
        // carried: (5 + 5) / 2 = 5.
        let f = func(
            "L:
             add.f32 %f1, %f2, 0f3F800000;
             add.f32 %f2, %f3, 0f3F800000;
             add.f32 %f3, %f1, 0f3F800000;
             @%p1 bra L;
             ret;",
        );
        let body = &f.blocks[f.layout[0]].insts;
        let lat = latency(&f, &Target::SM80);
        let m = body_mii(&f, LoopId(0), body, &lat, &Target::SM80);
        // f1 -> f3 (dist 0) -> f2 (dist 1) -> f1 (dist 0... f2 is defined
        // after f1 reads it: dist 1): latency 15 over distance 2 = 8.
        assert_eq!(m.rec_mii, 8);
    }

    #[test]
    fn stall_caps() {
        let f = func(
            "ld.param.u64 %rd1, [p];
             ld.global.f32 %f1, [%rd1];
             ld.shared.u32 %r4, [%rd1];
             add.s32 %r1, %r2, %r3;
             div.rn.f64 %fd1, %fd2, %fd3;
             ret;",
        );
        let lat = latency(&f, &Target::SM80);
        let stalls: Vec<(u8, u32, u32)> = f
            .insts_in_order()
            .map(|(i, _)| {
                let l = lat.get(i).unwrap();
                (l.class.code(), l.cycles, l.stall)
            })
            .collect();
        assert_eq!(
            stalls,
            vec![
                (20, 200, 64),
                (26, 400, 64),
                (12, 24, 24),
                (6, 4, 4),
                (16, 16, 16),
                (1, 1, 1)
            ]
        );
        assert_eq!(lat.histogram.iter().sum::<u32>(), 6);
    }

    #[test]
    fn classification_table() {
        expect_test::expect![[r#"
            [
                "add.s32 6:ALU",
                "add.s64 7:ALU",
                "mad.lo.s32 10:ALU",
                "shl.b32 10:ALU",
                "fma.rn.f32 7:FMA",
                "add.f16 7:FMA",
                "fma.rn.f64 16:DFMA",
                "sqrt.rn.f64 16:DFMA",
                "ex2.approx.f32 8:BRA",
                "cvt.rn.f32.s32 9:ALU",
                "cvt.f32.f16 7:FMA",
                "cvt.rn.f64.f32 9:DFMA",
                "cvta.to.global.u64 11:ALU",
                "ld.shared.u32 12:LSU",
                "ld.shared.v4.u32 14:LSU",
                "ld.global.u32 26:LSU",
                "ld.u32 26:LSU",
                "ld.const.u32 20:TEX",
                "st.global.u32 12:LSU",
                "st.global.f64 14:LSU",
                "atom.global.add.u32 12:LSU",
                "shfl.sync.bfly.b32 12:LSU",
                "bar.sync 31:BRA",
                "setp.lt.s32 6:ALU",
                "and.pred 1:ALU",
                "selp.b32 6:ALU",
                "div.u32 14:ALU",
                "bra 1:BRA",
                "ret 1:BRA",
            ]
        "#]]
        .assert_debug_eq(&classes(
            "add.s32 %r1, %r2, %r3;
             add.s64 %rd1, %rd2, %rd3;
             mad.lo.s32 %r1, %r2, %r3, %r4;
             shl.b32 %r1, %r2, 3;
             fma.rn.f32 %f1, %f2, %f3, %f4;
             add.f16 %h1, %h2, %h3;
             fma.rn.f64 %fd1, %fd2, %fd3, %fd4;
             sqrt.rn.f64 %fd1, %fd2;
             ex2.approx.f32 %f1, %f2;
             cvt.rn.f32.s32 %f1, %r1;
             cvt.f32.f16 %f1, %h1;
             cvt.rn.f64.f32 %fd1, %f1;
             cvta.to.global.u64 %rd1, %rd2;
             ld.shared.u32 %r1, [%rd1];
             ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
             ld.global.u32 %r1, [%rd1];
             ld.u32 %r1, [%rd1];
             ld.const.u32 %r1, [%rd1];
             st.global.u32 [%rd1], %r1;
             st.global.f64 [%rd1], %fd1;
             atom.global.add.u32 %r1, [%rd1], 1;
             shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;
             bar.sync 0;
             setp.lt.s32 %p1, %r1, %r2;
             and.pred %p1, %p2, %p3;
             selp.b32 %r1, %r2, %r3, %p1;
             div.u32 %r1, %r2, %r3;
             bra L;
           L:
             ret;",
        ));
    }
}
