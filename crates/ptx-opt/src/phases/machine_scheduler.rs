//! cicc `machine-scheduler` (ScheduleDAGMILive): a list scheduler that
//! reorders the instructions of each basic block, inside scheduling regions,
//! for a shorter critical path without raising register pressure.
//!
//! Seed: `003_5f2fcdae57e69502.txt`, "ScheduleDAGMILive: Post-RA Instruction
//! Ordering" (per-region DAG of SUnits, ASAP/ALAP, RP tracking with current
//! and limit arrays), "Instruction Selection Heuristic" (the three levels:
//! depth, target priority table, narrower schedule window), "Scheduling
//! Mode: The usedessa Knob", "ptxas Interaction" (cicc schedules for ptxas:
//! register pressure first, `nvptx-sched4reg`); `002_164789385e2e817e.txt`,
//! the `machine-scheduler` row (NVIDIA's `nvptx-sched4reg` mode). Latencies
//! and pipes are those of [`ptx_analysis::latency`] (seed 000's classes and
//! stall cap); pressure is MRPA's ([`ptx_analysis::mrpa`]).
//!
//! # Knobs
//!
//! - `nvptx-sched4reg` (default off): register pressure decides first for
//!   every pick, not only over the limit.
//! - `usedessa` (default 2): the seed's scheduling mode; 1 ("simple") skips
//!   pre-RA scheduling, so the phase leaves the function as it is.
//! - `--maxrregcount` ([`PassContext::max_regs`]), when given, lowers the
//!   pressure limit of every region to it (read only for a region above
//!   16 units, under every value ptxas keeps).
//! - MRPA's `incremental-update-mcse`, `verify-update-mcse`, `print-verify`.
//!
//! # Algorithm (adapted to PTX)
//!
//! 1. **Regions.** A block is cut into regions at instructions that never
//!    move and that nothing moves across: terminators, `call`, barriers
//!    (`bar`, `mbarrier`, `cp.async.wait*`, ...), fences, volatile/`.mmio`
//!    accesses, accesses with memory-model semantics (`.acquire`,
//!    `.release`, ...), reads of volatile special registers (`%clock`),
//!    anything else with side effects besides plain `st`/`atom`/`red` and
//!    the carry chain, and opcodes the ISA table does not know. Regions
//!    longer than [`MAX_REGION`] are cut (LLVM's region limit plays the
//!    same role). The first instruction of a block never moves: it names
//!    the block's loop in loop reports (`LoopReport::header`), which the
//!    later phases' reports must meet. A guarded (`@%p`) instruction stays a node: its
//!    definitions also count as uses, so it keeps its order against every
//!    other access to the registers it may or may not write.
//! 2. **DAG.** Register RAW edges carry the producer's stall cycles
//!    ([`ptx_analysis::latency::inst_latency`]); WAR and WAW edges, and the
//!    carry flag (`.cc` writers and readers in order), carry 0. Memory:
//!    two accesses are ordered when one writes (store, atomic, reduction,
//!    surface store) and their state spaces may alias: the same space, or
//!    either is generic or has no space written (texture/surface
//!    instructions): conservative aliasing by state space, no address
//!    analysis. Loads never order against loads.
//! 3. **Priorities** (per pick among the ready nodes, top-down):
//!    level 0, register pressure: a node whose definitions would raise the
//!    region's live units above the limit (the region's maximum in the
//!    original order, lowered to `--maxrregcount` when given) loses against
//!    one that does not; two over the limit (or any two with
//!    `nvptx-sched4reg`) compare by their pressure change. Then the texture
//!    cluster: a texture fetch of the texture the last scheduled fetch read
//!    wins (the `texture-group-merge` groups stay together). Level 1, the
//!    seed's depth: the longest latency path to the region's end (critical
//!    path). Level 2, the target priority: long-latency instructions
//!    (LSU/TEX pipes, MUFU) first, so their latency overlaps what follows.
//!    Level 3, the narrower ASAP..ALAP window. Last, source order.
//! 4. **Acceptance.** The new order of a region is kept only when its
//!    estimated schedule length (in-order issue, one instruction per cycle,
//!    RAW latencies) gets shorter while neither its pressure maximum nor
//!    its pressure area (live units summed over the region's instructions:
//!    how long values stay live) grows, and one of them shrinks (pressure
//!    first: an order that only saves cycles is not worth perturbing
//!    ptxas, which re-schedules anyway and whose register allocation
//!    follows the live ranges it is given, see "Measured");
//!    over the limit, a lower pressure maximum is accepted at equal or
//!    shorter length. After each block, MRPA is updated and the block's
//!    maximum (R and P) compared with the original: a block whose maximum
//!    grew is put back (a missed remark says so). So the phase never raises
//!    PTX register pressure; ptxas re-schedules anyway (seed 003, "ptxas
//!    Interaction"), and what it gets is critical-path-first order at no
//!    pressure cost.
//!
//! # Measured
//!
//! `PTXOPT_CORPUS=/work/shared/corpus cargo xtask regs` (292 functions:
//! shared corpus, test-data/examples, test-data/cuda at nvcc -O3; ptxas
//! 13.0.88 registers of ptxopt(x) against x, default pipeline):
//!
//! | version | not worse | fewer | more | registers summed | new spills |
//! |---|---|---|---|---|---|
//! | scheduler off (pass-through) | 288 (98.63%) | 6 | 4 | 3837 -> 3842 | 0 |
//! | accept on shorter length alone | 286 (97.95%) | 6 | 6 | 3837 -> 3845 | 0 |
//! | also the better of a pressure-first order | 285 (97.60%) | 7 | 7 | 3837 -> 3844 | 0 |
//! | **pressure first (this module)** | 288 (98.63%) | 8 | 4 | 3837 -> 3840 | 0 |
//!
//! The four functions worse with this module are the four worse without
//! it (other phases). Orders that only save estimated cycles made ptxas use
//! up to 2 more registers (`warp_vote` 10 -> 12, `scan_blelloch` 13 -> 14)
//! although the PTX pressure maximum was unchanged, hence step 4.
//!
//! The seed's scheduler is post-RA over SASS-like MachineInstrs and its
//! target priority table (cycle windows filled by the NVPTX backend) has no
//! published contents; level 2 uses the only preference the seed names
//! ("memory operations that can be overlapped with computation").

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;
use std::sync::Arc;

use ptx_analysis::bitset::BitSet;
use ptx_analysis::latency::inst_latency;
use ptx_analysis::mrpa::Mrpa;
use ptx_analysis::reg_pressure::reg_units;
use ptx_analysis::target::Target;
use ptx_analysis::{cfg, Liveness};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, Inst, InstId, Operand, RegClass, RegId};
use ptx_isa::{FamilyId, OpFlags, Space};
use ptx_knobs::knobs;

use crate::context::{mrpa_config, PassContext};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Below every `--maxrregcount` ptxas keeps (it raises smaller values to a
/// per-profile lower bound: 24 on sm_80): a region never above it cannot
/// be over the limit, so the option is not read for it.
const MIN_MAXRREGCOUNT: u32 = 16;

/// The most instructions in one scheduling region.
pub const MAX_REGION: usize = 256;

/// Whether nothing may move across `inst` (see the module documentation).
pub(crate) fn is_boundary(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    let f = info.flags;
    if info.family == FamilyId::Unknown
        || f.is_terminator()
        || f.is_call()
        || f.is_barrier()
        || f.is_fence()
        || f.is_volatile()
        || inst.reads_volatile_special()
    {
        return true;
    }
    let memory = f.loads() || f.stores() || f.is_atomic();
    if memory && info.sem.is_some() {
        return true;
    }
    if f.has_side_effects() {
        let plain_store = matches!(info.family, FamilyId::St | FamilyId::Atom | FamilyId::Red);
        let carry = f.intersects(OpFlags::CARRY_IN.union(OpFlags::CARRY_OUT)) && !memory;
        if !(plain_store || carry) {
            return true;
        }
    }
    false
}

/// The memory a node touches, by state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mem {
    Space(Space),
    /// Texture and surface instructions, and anything else without a space
    /// the table gives: may alias everything.
    Other,
}

fn may_alias(a: Mem, b: Mem) -> bool {
    match (a, b) {
        (Mem::Other, _) | (_, Mem::Other) => true,
        (Mem::Space(Space::Generic), _) | (_, Mem::Space(Space::Generic)) => true,
        (Mem::Space(x), Mem::Space(y)) => x == y,
    }
}

fn mem_of(inst: &Inst) -> Option<(Mem, bool)> {
    let info = &inst.opcode.info;
    let f = info.flags;
    if !(f.loads() || f.stores() || f.is_atomic()) {
        return None;
    }
    let writes = f.stores() || f.is_atomic();
    let mem = match info.space {
        Some(s) => Mem::Space(s),
        None if matches!(
            info.family,
            FamilyId::Ld | FamilyId::St | FamilyId::Atom | FamilyId::Red | FamilyId::Ldu
        ) =>
        {
            Mem::Space(Space::Generic)
        }
        None => Mem::Other,
    };
    Some((mem, writes))
}

/// The texture a `tex`/`tld4` fetch reads: its handle (a `.texref` symbol or
/// a bindless register), `None` for other instructions.
pub(crate) fn texture_key(inst: &Inst) -> Option<TexKey> {
    if !matches!(inst.opcode.info.family, FamilyId::Tex | FamilyId::Tld4) {
        return None;
    }
    match inst.operands.get(1) {
        Some(Operand::AddressList(items)) => match items.first()? {
            Operand::Symbol { name, .. } => Some(TexKey::Symbol(name.clone())),
            Operand::Reg { reg, .. } => Some(TexKey::Reg(*reg)),
            _ => None,
        },
        _ => None,
    }
}

/// A texture handle (see [`texture_key`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TexKey {
    Symbol(String),
    Reg(RegId),
}

impl TexKey {
    pub(crate) fn text(&self, func: &Function) -> String {
        match self {
            TexKey::Symbol(s) => s.clone(),
            TexKey::Reg(r) => func.regs[*r].name.to_string(),
        }
    }
}

/// One scheduling unit.
pub(crate) struct Node {
    pub inst: InstId,
    /// Predecessors with edge latency.
    pub preds: Vec<(usize, u32)>,
    pub succs: Vec<(usize, u32)>,
    pub stall: u32,
    pub long: bool,
    pub pure_alu: bool,
    pub tex: Option<TexKey>,
    pub defs: Vec<RegId>,
    pub uses: Vec<RegId>,
    /// Longest latency path from the node to the region's end.
    pub height: u32,
    /// Earliest cycle (longest path from the region's start).
    pub asap: u32,
}

/// The dependence DAG of one region (`insts` in order); edges go forward.
pub(crate) fn build_dag(func: &Function, insts: &[InstId], target: &Target) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::with_capacity(insts.len());
    // Sized for the usual region (about two edges and two registers per
    // instruction), so they are not grown and rehashed along the way.
    let n = insts.len();
    let mut edges: HashMap<(usize, usize), u32> =
        HashMap::with_capacity_and_hasher(2 * n, Default::default());
    let add = |edges: &mut HashMap<(usize, usize), u32>, from: usize, to: usize, lat: u32| {
        if from != to {
            let e = edges.entry((from, to)).or_insert(0);
            *e = (*e).max(lat);
        }
    };
    let mut last_def: HashMap<RegId, usize> =
        HashMap::with_capacity_and_hasher(n, Default::default());
    let mut uses_since: HashMap<RegId, Vec<usize>> =
        HashMap::with_capacity_and_hasher(2 * n, Default::default());
    let mut mems: Vec<(usize, Mem, bool)> = Vec::new();
    let mut last_carry: Option<usize> = None;
    for (k, &i) in insts.iter().enumerate() {
        let inst = &func.insts[i];
        let lat = inst_latency(func, inst, target);
        let mut defs = Vec::new();
        let mut uses = Vec::new();
        visit_defs_and_uses(inst, |a, r| match a {
            Access::Def => defs.push(r),
            Access::Use => uses.push(r),
        });
        if inst.guard.is_some() {
            // A conditional definition keeps the old value otherwise.
            uses.extend(defs.iter().copied());
        }
        for &r in &uses {
            if let Some(&d) = last_def.get(&r) {
                add(&mut edges, d, k, nodes[d].stall);
            }
        }
        for &r in &defs {
            if let Some(&d) = last_def.get(&r) {
                add(&mut edges, d, k, 0);
            }
            if let Some(us) = uses_since.get(&r) {
                for &u in us {
                    add(&mut edges, u, k, 0);
                }
            }
        }
        for &r in &uses {
            uses_since.entry(r).or_default().push(k);
        }
        for &r in &defs {
            last_def.insert(r, k);
            uses_since.remove(&r);
        }
        let f = inst.opcode.info.flags;
        if f.intersects(OpFlags::CARRY_IN.union(OpFlags::CARRY_OUT)) {
            if let Some(c) = last_carry {
                add(&mut edges, c, k, 0);
            }
            last_carry = Some(k);
        }
        if let Some((mem, writes)) = mem_of(inst) {
            for &(j, m, w) in &mems {
                if (writes || w) && may_alias(mem, m) {
                    add(&mut edges, j, k, 0);
                }
            }
            mems.push((k, mem, writes));
        }
        let pure_alu = inst.is_pure() && mem_of(inst).is_none() && inst.guard.is_none();
        nodes.push(Node {
            inst: i,
            preds: Vec::new(),
            succs: Vec::new(),
            stall: lat.stall,
            long: ptx_analysis::latency::is_long_latency(lat.class, lat.pipe),
            pure_alu,
            tex: texture_key(inst),
            defs,
            uses,
            height: 0,
            asap: 0,
        });
    }
    let mut list: Vec<((usize, usize), u32)> = edges.into_iter().collect();
    list.sort_unstable();
    for ((a, b), lat) in list {
        nodes[a].succs.push((b, lat));
        nodes[b].preds.push((a, lat));
    }
    for k in (0..nodes.len()).rev() {
        let h = nodes[k]
            .succs
            .iter()
            .map(|&(s, l)| l + nodes[s].height)
            .max()
            .unwrap_or(0)
            .max(nodes[k].stall);
        nodes[k].height = h;
    }
    for k in 0..nodes.len() {
        let a = nodes[k]
            .preds
            .iter()
            .map(|&(p, l)| nodes[p].asap + l)
            .max()
            .unwrap_or(0);
        nodes[k].asap = a;
    }
    nodes
}

/// The regions of `block`: runs of movable instructions, at most
/// [`MAX_REGION`] long.
pub(crate) fn regions(func: &Function, block: BlockId) -> Vec<std::ops::Range<usize>> {
    let insts = &func.blocks[block].insts;
    let mut out = Vec::new();
    // The block's first instruction stays first: it names the block's loop
    // in loop reports (`LoopReport::header`), which later phases key theirs
    // by too.
    let mut start = 1;
    for (k, &i) in insts.iter().enumerate().skip(1) {
        if is_boundary(&func.insts[i]) {
            if k > start {
                out.push(start..k);
            }
            start = k + 1;
        } else if k + 1 - start == MAX_REGION {
            out.push(start..k + 1);
            start = k + 1;
        }
    }
    if insts.len() > start {
        out.push(start..insts.len());
    }
    out.retain(|r| r.len() >= 2);
    out
}

/// Estimated length in cycles of issuing `order` (node indices) in order,
/// one per cycle, waiting for RAW latencies.
pub(crate) fn schedule_length(nodes: &[Node], order: &[usize]) -> u32 {
    let mut at = vec![0u32; nodes.len()];
    let mut clock = 0u32;
    let mut end = 0u32;
    for (n, &k) in order.iter().enumerate() {
        let ready = nodes[k]
            .preds
            .iter()
            .map(|&(p, l)| at[p] + l)
            .max()
            .unwrap_or(0);
        let t = if n == 0 { ready } else { ready.max(clock + 1) };
        at[k] = t;
        clock = t;
        end = end.max(t + nodes[k].stall.max(1));
    }
    end
}

/// Register pressure (R units) along a region order, from the live set
/// before it; `live_after` is the set after the region.
pub(crate) struct PressureSim<'a> {
    func: &'a Function,
    live: BitSet,
    live_after: &'a BitSet,
    remaining: HashMap<RegId, u32>,
    pub cur: u32,
    pub peak: u32,
}

fn ridx(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

fn units(func: &Function, r: RegId) -> u32 {
    let reg = &func.regs[r];
    if reg.class == RegClass::P {
        0
    } else {
        reg_units(reg)
    }
}

impl<'a> PressureSim<'a> {
    pub(crate) fn new(
        func: &'a Function,
        nodes: &[Node],
        live_before: &BitSet,
        live_after: &'a BitSet,
    ) -> PressureSim<'a> {
        let mut remaining: HashMap<RegId, u32> =
            HashMap::with_capacity_and_hasher(2 * nodes.len(), Default::default());
        for n in nodes {
            for &r in &n.uses {
                *remaining.entry(r).or_insert(0) += 1;
            }
        }
        let cur = Liveness::regs(live_before).map(|r| units(func, r)).sum();
        PressureSim {
            func,
            live: live_before.clone(),
            live_after,
            remaining,
            cur,
            peak: cur,
        }
    }

    /// (pressure after `n`, or before when higher; the change) without
    /// applying.
    pub(crate) fn effect(&self, n: &Node) -> (u32, i64) {
        let mut add = 0u32;
        let mut seen: SmallVec<[RegId; 4]> = SmallVec::new();
        for &r in &n.defs {
            if !self.live.contains(ridx(r)) && !seen.contains(&r) {
                add += units(self.func, r);
                seen.push(r);
            }
        }
        let mut freed = 0u32;
        let mut counted: SmallVec<[RegId; 8]> = SmallVec::new();
        for &r in n.uses.iter().chain(n.defs.iter()) {
            if counted.contains(&r) || self.live_after.contains(ridx(r)) {
                continue;
            }
            let uses_here = n.uses.iter().filter(|&&u| u == r).count() as u32;
            let left = self.remaining.get(&r).copied().unwrap_or(0);
            if left <= uses_here && (self.live.contains(ridx(r)) || seen.contains(&r)) {
                freed += units(self.func, r);
                counted.push(r);
            }
        }
        // As `reg_pressure` counts: the live set after the instruction (a
        // source that dies here and a result do not count together; a dead
        // result does not count).
        let delta = add as i64 - freed as i64;
        ((self.cur as i64 + delta).max(self.cur as i64) as u32, delta)
    }

    pub(crate) fn apply(&mut self, n: &Node) {
        let (peak, delta) = self.effect(n);
        self.peak = self.peak.max(peak);
        for &r in &n.uses {
            if let Some(c) = self.remaining.get_mut(&r) {
                *c = c.saturating_sub(1);
            }
        }
        for &r in &n.defs {
            self.live.insert(ridx(r));
        }
        for &r in n.uses.iter().chain(n.defs.iter()) {
            if !self.live_after.contains(ridx(r))
                && self.remaining.get(&r).copied().unwrap_or(0) == 0
            {
                self.live.remove(ridx(r));
            }
        }
        self.cur = (self.cur as i64 + delta).max(0) as u32;
    }
}

/// Peak pressure of `order`, and its area: the live units summed over the
/// region's instructions (how long values stay live, in instructions).
pub(crate) fn order_pressure(
    func: &Function,
    nodes: &[Node],
    order: &[usize],
    before: &BitSet,
    after: &BitSet,
) -> (u32, u64) {
    let mut sim = PressureSim::new(func, nodes, before, after);
    let mut area = 0u64;
    for &k in order {
        sim.apply(&nodes[k]);
        area += sim.cur as u64;
    }
    (sim.peak, area)
}

/// The list scheduler over one region: returns the new order.
fn list_schedule(
    func: &Function,
    nodes: &[Node],
    before: &BitSet,
    after: &BitSet,
    limit: u32,
    sched4reg: bool,
) -> Vec<usize> {
    let n = nodes.len();
    let cp = nodes.iter().map(|x| x.height).max().unwrap_or(0);
    let mut npreds: Vec<usize> = nodes.iter().map(|x| x.preds.len()).collect();
    let mut ready: Vec<usize> = (0..n).filter(|&k| npreds[k] == 0).collect();
    let mut sim = PressureSim::new(func, nodes, before, after);
    let mut order = Vec::with_capacity(n);
    let mut last_tex: Option<&TexKey> = None;
    // The pressure effect of each ready node in this step's state (made
    // once per node and step, not once per comparison).
    let mut effects: Vec<(u32, i64)> = Vec::new();
    while !ready.is_empty() {
        effects.clear();
        effects.extend(ready.iter().map(|&k| sim.effect(&nodes[k])));
        let mut best = 0usize;
        for c in 1..ready.len() {
            if better(
                nodes,
                (ready[c], effects[c]),
                (ready[best], effects[best]),
                limit,
                sched4reg,
                last_tex,
                cp,
            ) {
                best = c;
            }
        }
        let k = ready.swap_remove(best);
        sim.apply(&nodes[k]);
        if nodes[k].tex.is_some() {
            last_tex = nodes[k].tex.as_ref();
        }
        order.push(k);
        for &(s, _) in &nodes[k].succs {
            npreds[s] -= 1;
            if npreds[s] == 0 {
                ready.push(s);
            }
        }
    }
    order
}

/// Whether candidate `a` beats `b` (the priority levels of the module
/// documentation); each comes with its [`PressureSim::effect`].
fn better(
    nodes: &[Node],
    (a, (pa, da)): (usize, (u32, i64)),
    (b, (pb, db)): (usize, (u32, i64)),
    limit: u32,
    sched4reg: bool,
    last_tex: Option<&TexKey>,
    cp: u32,
) -> bool {
    let (na, nb) = (&nodes[a], &nodes[b]);
    // Level 0: register pressure.
    let (over_a, over_b) = (pa > limit, pb > limit);
    if over_a != over_b {
        return !over_a;
    }
    if (sched4reg || over_a) && da != db {
        return da < db;
    }
    // Texture cluster.
    let ca = na.tex.is_some() && na.tex.as_ref() == last_tex;
    let cb = nb.tex.is_some() && nb.tex.as_ref() == last_tex;
    if ca != cb {
        return ca;
    }
    // Level 1: depth (critical path).
    if na.height != nb.height {
        return na.height > nb.height;
    }
    // Level 2: target priority.
    if na.long != nb.long {
        return na.long;
    }
    // Level 3: narrower window.
    let wa = cp.saturating_sub(na.height).saturating_sub(na.asap);
    let wb = cp.saturating_sub(nb.height).saturating_sub(nb.asap);
    if wa != wb {
        return wa < wb;
    }
    a < b
}

/// Writes the new order of a region (`range` of `block`, `order` over
/// `nodes`). When an instruction of the region carries an `inlined_at`
/// `.loc`, the `.loc` lines stay where they were, slot by slot (ptxas wants
/// every `inlined_at` position to appear in an earlier `.loc`, which a moved
/// line could break); otherwise each instruction keeps its own.
pub(crate) fn apply_order(
    f: &mut Function,
    block: BlockId,
    range: std::ops::Range<usize>,
    nodes: &[Node],
    order: &[usize],
) {
    let inlined = nodes
        .iter()
        .any(|n| f.insts[n.inst].locs.iter().any(|l| l.inlined.is_some()));
    if inlined {
        let slots: Vec<ptx_ir::ir::Locs> = nodes
            .iter()
            .map(|n| std::mem::take(&mut f.insts[n.inst].locs))
            .collect();
        for (p, locs) in slots.into_iter().enumerate() {
            f.insts[nodes[order[p]].inst].locs = locs;
        }
    }
    for (p, &k) in order.iter().enumerate() {
        f.blocks[block].insts[range.start + p] = nodes[k].inst;
    }
}

/// `bb3` or the block's label.
pub(crate) fn block_label(func: &Function, b: BlockId) -> String {
    func.blocks[b]
        .label
        .clone()
        .unwrap_or_else(|| cfg::block_name(b))
}

/// The missed remark of a block whose new order [`guard_pressure`] undid:
/// the MRPA maxima (R, P) before and after.
pub(crate) fn kept_order_remark(
    id: PhaseId,
    f: &Function,
    b: BlockId,
    old: (u32, u32),
    new: (u32, u32),
) -> Remark {
    Remark {
        phase: id,
        kind: RemarkKind::Missed,
        name: "pressure",
        origin: f.blocks[b].insts.first().and_then(|&i| origin(f, i)),
        message: format!(
            "kept the order of {}: MRPA maximum would rise from R {} P {} to R {} P {}",
            block_label(f, b),
            old.0,
            old.1,
            new.0,
            new.1
        ),
    }
}

/// Puts `block` back as `saved` (with its `.loc` lines) when its MRPA maximum grew; returns whether
/// it did (and the two maxima).
pub(crate) fn guard_pressure(
    f: &mut Function,
    mrpa: &mut Mrpa,
    block: BlockId,
    saved: Vec<InstId>,
    saved_locs: Vec<ptx_ir::ir::Locs>,
    mismatch: &mut Option<String>,
) -> Option<((u32, u32), (u32, u32))> {
    let old = mrpa.block_max(block);
    if let Err(e) = mrpa.update_reordered(f, block) {
        mismatch.get_or_insert(e.message);
    }
    let new = mrpa.block_max(block);
    if new.r.value > old.r.value || new.p.value > old.p.value {
        for (&i, locs) in saved.iter().zip(saved_locs) {
            f.insts[i].locs = locs;
        }
        f.blocks[block].insts = saved;
        if let Err(e) = mrpa.update_reordered(f, block) {
            mismatch.get_or_insert(e.message);
        }
        return Some(((old.r.value, old.p.value), (new.r.value, new.p.value)));
    }
    None
}

/// Runs the phase on one function.
/// How many times a region is scheduled again on the order the scheduler
/// gave it, until it keeps the order (see [`run`]).
const RESCHEDULE_ROUNDS: usize = 4;

pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let sched4reg = ctx.bool(knobs::nvptx_sched4reg);
    if ctx.int(knobs::usedessa) == 1 {
        return PhaseOutput {
            remarks: vec![Remark {
                phase: id,
                kind: RemarkKind::Missed,
                name: "sched-mode",
                origin: None,
                message: "usedessa=1 (simple mode): pre-RA scheduling skipped".into(),
            }],
            ..PhaseOutput::unchanged(input)
        };
    }
    // Read only where it can matter (a tracked read of its own).
    let mut max_regs: Option<Option<u32>> = None;
    let target = ctx.target();
    let blocks: Vec<BlockId> = input.layout.clone();
    if !blocks.iter().any(|&b| !regions(input, b).is_empty()) {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    // `f` is a copy of the input until a region is scheduled.
    let live = super::version_cache::liveness_of(input);
    let mut mrpa = super::version_cache::mrpa(input, mrpa_config(ctx));
    let mut remarks = Vec::new();
    let mut mismatch = None;
    let (mut moved_total, mut regions_total) = (0u64, 0u64);
    for &b in &blocks {
        let saved = f.blocks[b].insts.clone();
        let saved_locs: Vec<_> = saved.iter().map(|&i| f.insts[i].locs.clone()).collect();
        let mut block_remarks = Vec::new();
        let mut block_moved = 0u64;
        let mut block_regions = 0u64;
        for range in regions(&f, b) {
            // The live sets at the region's ends do not change as it is
            // reordered: taken once, from the block's order on entry.
            let before = live.live_before(saved[range.start]);
            let after = live.live_after(saved[range.end - 1]);
            // The region is scheduled again on its new order until the
            // scheduler keeps it (at most `RESCHEDULE_ROUNDS` times), so
            // that the phase's output is a fixed point of the phase: a
            // second build of ptxopt's own output reorders nothing.
            let mut first: Option<(u32, u32, InstId, String)> = None;
            let mut last = (0u32, 0u32);
            let mut region_moved = 0u64;
            let mut region_len = 0usize;
            for _ in 0..RESCHEDULE_ROUNDS {
                let insts: Vec<InstId> = f.blocks[b].insts[range.clone()].to_vec();
                let nodes = build_dag(&f, &insts, &target);
                let identity: Vec<usize> = (0..nodes.len()).collect();
                let (old_peak, old_area) = order_pressure(&f, &nodes, &identity, before, after);
                let limit = if old_peak > MIN_MAXRREGCOUNT {
                    let m = *max_regs.get_or_insert_with(|| ctx.max_regs());
                    m.map_or(old_peak, |m| old_peak.min(m))
                } else {
                    old_peak
                };
                let order = list_schedule(&f, &nodes, before, after, limit, sched4reg);
                if order == identity {
                    break;
                }
                let (new_peak, new_area) = order_pressure(&f, &nodes, &order, before, after);
                let old_len = schedule_length(&nodes, &identity);
                let new_len = schedule_length(&nodes, &order);
                let accept = if old_peak > limit {
                    new_peak < old_peak && new_len <= old_len
                        || new_peak <= old_peak && new_len < old_len
                } else {
                    new_len < old_len
                        && new_peak <= old_peak
                        && new_area <= old_area
                        && (new_peak < old_peak || new_area < old_area)
                };
                if !accept {
                    break;
                }
                region_moved += order.iter().enumerate().filter(|&(p, &k)| p != k).count() as u64;
                region_len = nodes.len();
                if first.is_none() {
                    let first_moved = order
                        .iter()
                        .enumerate()
                        .find(|&(p, &k)| p != k)
                        .map_or(nodes[0].inst, |(_, &k)| nodes[k].inst);
                    let shown: Vec<String> = order
                        .iter()
                        .enumerate()
                        .filter(|&(p, &k)| k > p)
                        .take(3)
                        .map(|(p, &k)| {
                            format!(
                                "`{}` up {} (depth {})",
                                f.insts[nodes[k].inst].opcode.text(),
                                k - p,
                                nodes[k].height
                            )
                        })
                        .collect();
                    first = Some((old_len, old_peak, first_moved, shown.join(", ")));
                }
                last = (new_len, new_peak);
                apply_order(&mut f, b, range.clone(), &nodes, &order);
            }
            let Some((old_len, old_peak, first_moved, shown)) = first else {
                continue;
            };
            let (new_len, new_peak) = last;
            block_remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: "reordered",
                origin: origin(&f, first_moved),
                message: format!(
                    "reordered {} of {region_len} instructions in {}: schedule length {old_len} -> {new_len} cycles, live units {old_peak} -> {new_peak}{}{}",
                    region_moved.min(region_len as u64),
                    block_label(&f, b),
                    if shown.is_empty() { "" } else { "; " },
                    shown
                ),
            });
            block_moved += region_moved;
            block_regions += 1;
        }
        if block_regions == 0 {
            continue;
        }
        match guard_pressure(&mut f, &mut mrpa, b, saved, saved_locs, &mut mismatch) {
            Some((old, new)) => remarks.push(kept_order_remark(id, &f, b, old, new)),
            None => {
                remarks.extend(block_remarks);
                moved_total += block_moved;
                regions_total += block_regions;
            }
        }
    }
    if let Some(message) = mismatch {
        remarks.push(crate::context::mrpa_mismatch_remark(id, None, message));
    }
    if regions_total == 0 {
        return PhaseOutput {
            remarks,
            ..PhaseOutput::unchanged(input)
        };
    }
    PhaseOutput {
        function: Arc::new(f),
        remarks,
        stats: vec![
            Stat {
                name: "regions reordered",
                value: regions_total,
            },
            Stat {
                name: "instructions moved",
                value: moved_total,
            },
        ],
        loops: Vec::new(),
    }
}
