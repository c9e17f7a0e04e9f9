//! Modulo scheduling shared by the two software pipeliners: ptxas phase 24
//! (OriPipelining, [`super::pipelining`]) and cicc's MachinePipeliner
//! ([`super::machine_pipeliner`]). Both work on the body of a single-block
//! loop and share here the data dependence graph (DDG), RecMII and ResMII,
//! the modulo reservation table (MRT), and the PTX code generator that turns
//! a modulo schedule into a prologue, a kernel and epilogues.
//!
//! - [`Ddg::build`]: the DDG of a body (the loop's own back edge excluded).
//!   Register true dependences carry the producer's stall cycles
//!   (`ptx_analysis::latency::inst_latency`, the latency classes and pipes of
//!   seed 000 "Phase 1: Operand Latency Annotation"); loop-carried ones have
//!   distance 1. Memory order: a store against every other memory access
//!   (latency 0 in order, 1 across iterations). [`DepKinds::All`] adds the
//!   anti and output dependences (latency 0): the code generator below does
//!   no modulo variable expansion, so every register keeps its name and these
//!   orderings must hold in the schedule. [`DepKinds::TrueAndMemory`] is phase
//!   24's graph (anti/output dependences left to ptxas's MVE).
//! - [`rec_mii`]: the smallest II with no positive cycle of
//!   `latency - II * distance` (seed 000 "Phase 3: MII Computation"; seed 003
//!   `computeRecMII`, `sub_354CBB0`). [`res_mii`]: `ceil(count / width)` per
//!   pipe of the target (seed 000's 7 pipes; seed 003 `computeResMII`).
//! - [`iterative_schedule`]: phase 24's iterative modulo scheduling (nodes in
//!   program order at their earliest start, II grows until they fit).
//! - [`emit_pipelined`]: the PTX-level prologue/kernel/epilogue (see its
//!   documentation for the argument why it is exact for every trip count).

use ptx_analysis::latency::{inst_latency, InstLatency};
use ptx_analysis::{Pipe, Target};
use ptx_ir::ir::def_use::defs_and_uses;
use ptx_ir::ir::{BlockId, Function, Guard, InstId, Operand, RegId};

use super::loop_common::{new_bra, place_block};

/// Why `inst` keeps a body from being pipelined (seed 000's feasibility
/// filter `sub_9202D0` on PTX: the control/barrier path), or `None`.
pub fn control_or_barrier(inst: &ptx_ir::ir::Inst) -> Option<String> {
    let f = inst.opcode.info.flags;
    (f.is_barrier()
        || f.is_fence()
        || f.is_call()
        || f.is_convergent()
        || f.is_atomic()
        || f.is_volatile()
        || f.is_terminator())
    .then(|| {
        format!(
            "`{}` on the control/barrier path (feasibility filter)",
            inst.opcode.text()
        )
    })
}

/// How many times each register of a function is read (guards included),
/// counted once for the loops of one function version.
pub struct UseCounts(Vec<u32>);

impl UseCounts {
    pub fn new(func: &Function) -> UseCounts {
        let mut n = vec![0u32; func.regs.len()];
        for &b in &func.layout {
            for &i in &func.blocks[b].insts {
                for r in defs_and_uses(&func.insts[i]).uses {
                    if let Some(c) = n.get_mut(r.into_raw().into_u32() as usize) {
                        *c += 1;
                    }
                }
            }
        }
        UseCounts(n)
    }

    /// Whether a register is read outside block `header`.
    fn outside<'a>(&'a self, func: &Function, header: BlockId) -> impl Fn(RegId) -> bool + 'a {
        let mut inside: Vec<(RegId, u32)> = Vec::new();
        for &i in &func.blocks[header].insts {
            for r in defs_and_uses(&func.insts[i]).uses {
                match inside.iter_mut().find(|(x, _)| *x == r) {
                    Some((_, c)) => *c += 1,
                    None => inside.push((r, 1)),
                }
            }
        }
        move |r: RegId| {
            let total = self
                .0
                .get(r.into_raw().into_u32() as usize)
                .copied()
                .unwrap_or(0);
            let here = inside.iter().find(|(x, _)| *x == r).map_or(0, |(_, c)| *c);
            total > here
        }
    }
}

/// The registers whose values the code generator may rename across stages
/// (so the DDG leaves out their anti and output edges): written by exactly
/// one instruction of the body, unguarded, that does not also read it; read
/// only after that instruction (not loop-carried); scalar; not read outside
/// the loop block `header`; not `exclude` (the back edge's predicate). Their
/// value of one iteration is then fully defined by the body before any use
/// and dead after the iteration, so each iteration may write it to a
/// register of its own (modulo variable expansion).
pub fn renamable(
    func: &Function,
    uses: &UseCounts,
    header: BlockId,
    body: &[InstId],
    exclude: Option<RegId>,
) -> Vec<RegId> {
    let outside = uses.outside(func, header);
    let dus: Vec<_> = body
        .iter()
        .map(|&i| defs_and_uses(&func.insts[i]))
        .collect();
    let mut out = Vec::new();
    for (a, du) in dus.iter().enumerate() {
        for &r in &du.defs {
            if Some(r) == exclude
                || out.contains(&r)
                || func.insts[body[a]].guard.is_some()
                || du.uses.contains(&r)
                || !func.has_reg(r)
                || func.regs[r].vector.is_some()
                || outside(r)
            {
                continue;
            }
            let defs = dus.iter().filter(|d| d.defs.contains(&r)).count();
            let early_use = dus[..a].iter().any(|d| d.uses.contains(&r));
            if defs == 1 && !early_use {
                out.push(r);
            }
        }
    }
    out
}

/// The annotation (`// ptxopt: pipelined`) on a kernel made by
/// [`emit_pipelined`]: the pipeliners leave such a loop alone, so that the
/// pipeline's output is a fixed point.
pub const PIPELINED: &str = "pipelined";

/// A dependence edge of the DDG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub latency: u32,
    /// Iterations between the producer and the consumer (0 or 1).
    pub distance: u32,
}

/// Which dependences the DDG holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKinds {
    /// Register true dependences and memory order (phase 24).
    TrueAndMemory,
    /// Also register anti and output dependences (the code generator keeps
    /// register names, so it needs them).
    All,
}

/// The data dependence graph of a loop body.
#[derive(Clone, Debug)]
pub struct Ddg {
    pub lat: Vec<InstLatency>,
    pub edges: Vec<Edge>,
}

impl Ddg {
    /// The DDG of `body` (instructions in program order).
    /// Registers in `renamed` get no anti or output edges (the code
    /// generator renames their values across stages, see [`renamable`]).
    pub fn build(
        func: &Function,
        body: &[InstId],
        target: &Target,
        kinds: DepKinds,
        renamed: &[RegId],
    ) -> Ddg {
        let n = body.len();
        let lat: Vec<_> = body
            .iter()
            .map(|&i| inst_latency(func, &func.insts[i], target))
            .collect();
        let dus: Vec<_> = body
            .iter()
            .map(|&i| defs_and_uses(&func.insts[i]))
            .collect();
        let mem: Vec<(bool, bool)> = body
            .iter()
            .map(|&i| {
                let f = func.insts[i].opcode.info.flags;
                (f.loads(), f.stores())
            })
            .collect();
        let all = kinds == DepKinds::All;
        let mut edges = Vec::new();
        for j in 0..n {
            for k in 0..n {
                if k == j {
                    continue;
                }
                let distance = if k < j { 0 } else { 1 };
                // True dependence k -> j.
                if dus[k].defs.iter().any(|r| dus[j].uses.contains(r)) {
                    edges.push(Edge {
                        from: k,
                        to: j,
                        latency: lat[k].stall,
                        distance,
                    });
                }
                if all {
                    // Anti (k reads what j writes) and output dependences.
                    let kept = |r: &RegId| !renamed.contains(r);
                    let anti = dus[k]
                        .uses
                        .iter()
                        .any(|r| kept(r) && dus[j].defs.contains(r));
                    let output = dus[k]
                        .defs
                        .iter()
                        .any(|r| kept(r) && dus[j].defs.contains(r));
                    if anti || output {
                        edges.push(Edge {
                            from: k,
                            to: j,
                            latency: 0,
                            distance,
                        });
                    }
                }
                // Memory order around stores.
                let (kl, ks) = mem[k];
                let (jl, js) = mem[j];
                if (ks && (jl || js)) || (js && kl) {
                    edges.push(Edge {
                        from: k,
                        to: j,
                        latency: if distance == 0 { 0 } else { 1 },
                        distance,
                    });
                }
            }
            // A self recurrence (`add %r1, %r1, 1`).
            if dus[j].defs.iter().any(|r| dus[j].uses.contains(r)) {
                edges.push(Edge {
                    from: j,
                    to: j,
                    latency: lat[j].stall,
                    distance: 1,
                });
            }
        }
        Ddg { lat, edges }
    }

    pub fn len(&self) -> usize {
        self.lat.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lat.is_empty()
    }

    /// Instructions per pipe.
    pub fn pipe_counts(&self) -> [u32; 7] {
        let mut counts = [0u32; 7];
        for l in &self.lat {
            counts[l.pipe.index()] += 1;
        }
        counts
    }
}

/// ResMII of the pipe counts on `target` (0 for an empty body).
pub fn res_mii(counts: &[u32; 7], target: &Target) -> u32 {
    ptx_analysis::latency::res_mii(counts, target)
}

/// The smallest II with no positive cycle of `latency - II * distance`
/// (0 when the graph has no recurrence).
pub fn rec_mii(n: usize, edges: &[Edge]) -> u32 {
    if !edges.iter().any(|e| e.distance > 0) {
        return 0;
    }
    let total: u32 = edges.iter().map(|e| e.latency).sum::<u32>().max(1);
    if !has_positive_cycle(n, edges, 0) {
        return 0;
    }
    let (mut lo, mut hi) = (1u32, total);
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

/// Whether some cycle has a positive sum of `latency - ii * distance`.
pub fn has_positive_cycle(n: usize, edges: &[Edge], ii: u32) -> bool {
    let mut dist = vec![0i64; n];
    for _ in 0..=n {
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

/// A modulo reservation table: `ii` rows of per-pipe use counts.
pub struct Mrt<'a> {
    rows: Vec<[u32; 7]>,
    target: &'a Target,
}

impl<'a> Mrt<'a> {
    pub fn new(ii: u32, target: &'a Target) -> Mrt<'a> {
        Mrt {
            rows: vec![[0u32; 7]; ii.max(1) as usize],
            target,
        }
    }

    fn row(&self, t: i64) -> usize {
        t.rem_euclid(self.rows.len() as i64) as usize
    }

    /// Whether `pipe` has a free unit at cycle `t` (modulo II).
    pub fn free(&self, t: i64, pipe: Pipe) -> bool {
        self.rows[self.row(t)][pipe.index()] < self.target.pipe_width(pipe).max(1)
    }

    pub fn reserve(&mut self, t: i64, pipe: Pipe) {
        let r = self.row(t);
        self.rows[r][pipe.index()] += 1;
    }
}

/// Phase 24's schedule of one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub body: usize,
    pub res_mii: u32,
    pub rec_mii: u32,
    pub ii: u32,
    pub stages: u32,
    /// Cycles of one iteration in the schedule (last start + its latency).
    pub length: u32,
}

/// Iterative modulo scheduling of a single-block body (the branch included),
/// phase 24's algorithm.
pub fn iterative_schedule(func: &Function, body: &[InstId], target: &Target) -> Schedule {
    let ddg = Ddg::build(func, body, target, DepKinds::TrueAndMemory, &[]);
    let n = ddg.len();
    let res_mii = res_mii(&ddg.pipe_counts(), target).max(1);
    let rec_mii = rec_mii(n, &ddg.edges);
    let mii = res_mii.max(rec_mii).max(1);
    let lat = &ddg.lat;
    let total: u32 = lat.iter().map(|l| l.stall.max(1)).sum::<u32>().max(1);
    let mut ii = mii;
    loop {
        if let Some(times) = place_in_order(n, &ddg.edges, lat, target, ii) {
            let length = (0..n)
                .map(|k| times[k] + lat[k].stall.max(1))
                .max()
                .unwrap_or(1);
            let last_start = times.iter().copied().max().unwrap_or(0);
            return Schedule {
                body: n,
                res_mii,
                rec_mii,
                ii,
                stages: last_start / ii + 1,
                length,
            };
        }
        ii += 1;
        if ii > total {
            return Schedule {
                body: n,
                res_mii,
                rec_mii,
                ii: total,
                stages: 1,
                length: total,
            };
        }
    }
}

/// Places every instruction in order at its earliest start satisfying the
/// placed predecessors, in a modulo reservation table; `None` when one does
/// not fit or a placed successor's constraint breaks.
fn place_in_order(
    n: usize,
    edges: &[Edge],
    lat: &[InstLatency],
    target: &Target,
    ii: u32,
) -> Option<Vec<u32>> {
    let mut times: Vec<Option<u32>> = vec![None; n];
    let mut mrt = Mrt::new(ii, target);
    for k in 0..n {
        let mut earliest = 0i64;
        for e in edges.iter().filter(|e| e.to == k) {
            if let Some(t) = times[e.from] {
                earliest = earliest.max(t as i64 + e.latency as i64 - (ii * e.distance) as i64);
            }
        }
        let earliest = earliest.max(0);
        let pipe = lat[k].pipe;
        let slot = (earliest..earliest + ii as i64).find(|&t| mrt.free(t, pipe))?;
        mrt.reserve(slot, pipe);
        times[k] = Some(slot as u32);
    }
    let times: Vec<u32> = times.into_iter().map(|t| t.unwrap_or(0)).collect();
    // Every edge (loop-carried ones included) must hold.
    for e in edges {
        if (times[e.to] as i64) < times[e.from] as i64 + e.latency as i64 - (ii * e.distance) as i64
        {
            return None;
        }
    }
    Some(times)
}

/// Whether `times` (start cycles, any origin) satisfy every edge at `ii`.
pub fn respects(edges: &[Edge], times: &[i64], ii: u32) -> bool {
    edges.iter().all(|e| {
        times[e.to] + (ii as i64) * (e.distance as i64) >= times[e.from] + e.latency as i64
    })
}

/// Rewrites the single-block loop `header` (body `body` in program order,
/// then `branch`, a guarded `bra header`; the block falls through to `exit`)
/// into a prologue, a kernel and epilogues for the modulo schedule `times`
/// (start cycles, first 0) at `ii`; `stage = time / ii`, `stages` of them.
/// The caller has checked that every def of the branch predicate is in stage
/// 0 and that the DDG held every dependence ([`DepKinds::All`]) but those of
/// the registers in `renamed`.
///
/// Step `k` of the pipelined loop runs stage `s` of iteration `k - s`; the
/// instances of one step are ordered by `(time mod II, -stage, position)`.
/// Every dependence `a -> b` of distance 0 has `time(b) >= time(a)`, so
/// `stage(a) <= stage(b)` and, in the same stage, `a` comes first (cycle,
/// then position); one of distance 1 has `time(b) + II >= time(a) + lat`, so
/// `stage(a) <= stage(b) + 1` and, when `a`'s stage is one more than `b`'s
/// (the same step), `a`'s row is not after `b`'s and the stage breaks the
/// tie. Dependences of distance 2 or more are implied by those of distance 1
/// between the same instructions (every iteration runs every instruction of
/// the block). So every pair of conflicting accesses (register true/anti/
/// output, memory) runs in the original order, and the registers and memory
/// after the loop are the original ones.
///
/// Modulo variable expansion for the registers of `renamed` ([`renamable`]:
/// one def in stage `sa`, uses after it, not read after the loop; the DDG
/// left out their anti and output edges) whose uses reach `d >= 1` stages
/// past the def: with `U = 1 + max d`, iteration `j` writes and reads the
/// `j mod U`-th of `U` registers (the first is `r` itself). A value lives at
/// most `d + 1 <= U` consecutive iterations, so no live value is
/// overwritten. The kernel is unrolled `U` times (copy `c` runs step
/// `k = stages - 1 + c (mod U)`), each copy testing the exit, and each
/// kernel copy has its own epilogue (the registers of the iterations in
/// flight depend on `k mod U`). No copies: the pipelined loop executes
/// exactly the original instructions.
///
/// Control: the branch of iteration `j` decides whether iteration `j + 1`
/// exists, and reads a predicate written in stage 0, i.e. in step `j`; so the
/// end of step `j` tests it. Prologue step `p` (stages `0..=p`, for `p` in
/// `0..stages-1`) exits to its own epilogue (the stages of iterations
/// `0..=p` not run yet); the kernel (every stage) loops while the predicate
/// holds and then goes to its epilogue (steps `k+1..k+stages-1`, stages
/// `t..stages`). No instruction runs for an iteration the original loop
/// would not run, whatever the trip count (the block runs at least once, as
/// the original's).
///
/// Returns the number of instructions placed.
#[allow(clippy::too_many_arguments)]
pub fn emit_pipelined(
    func: &mut Function,
    header: BlockId,
    body: &[InstId],
    branch: InstId,
    exit: BlockId,
    times: &[u32],
    ii: u32,
    stages: u32,
    renamed: &[RegId],
) -> usize {
    let n = body.len();
    let s = i64::from(stages);
    let stage = |k: usize| times[k] / ii;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| (times[k] % ii, std::cmp::Reverse(stage(k)), k));
    let Some(guard) = func.insts[branch].guard else {
        return 0;
    };
    let exit_guard = Guard {
        reg: guard.reg,
        negated: !guard.negated,
    };
    let dus: Vec<_> = body
        .iter()
        .map(|&i| defs_and_uses(&func.insts[i]))
        .collect();
    // (register, def node, d) of the expanded registers.
    let mut expanded: Vec<(RegId, usize, u32)> = Vec::new();
    for &r in renamed {
        let Some(a) = dus.iter().position(|d| d.defs.contains(&r)) else {
            continue;
        };
        let d = (0..n)
            .filter(|&u| dus[u].uses.contains(&r))
            .map(|u| stage(u).saturating_sub(stage(a)))
            .max()
            .unwrap_or(0);
        if d > 0 {
            expanded.push((r, a, d));
        }
    }
    let u = expanded
        .iter()
        .map(|e| i64::from(e.2) + 1)
        .max()
        .unwrap_or(1);
    let mut regs: Vec<Vec<RegId>> = Vec::new();
    for &(r, _, _) in &expanded {
        let mut v = vec![r];
        for _ in 1..u {
            let Some(c) = func.clone_reg(r) else {
                return 0;
            };
            v.push(c);
        }
        regs.push(v);
    }
    let mut placed = 0usize;
    // Step `v` restricted to stages `lo..=hi`: stage `q` of iteration
    // `v - q`, whose expanded registers are the `(v - q) mod U`-th.
    let mut step = |func: &mut Function, v: i64, lo: i64, hi: i64| -> Vec<InstId> {
        let mut out = Vec::new();
        for &k in &order {
            let q = i64::from(stage(k));
            if q < lo || q > hi {
                continue;
            }
            let Some(c) = func.clone_inst(body[k]) else {
                continue;
            };
            let slot = (v - q).rem_euclid(u) as usize;
            let map: Vec<(RegId, RegId)> = expanded
                .iter()
                .zip(&regs)
                .filter(|((r, a, _), _)| *a == k || dus[k].uses.contains(r))
                .map(|((r, _, _), rs)| (*r, rs[slot]))
                .collect();
            if !map.is_empty() {
                func.insts[c].map_regs(|_, r| {
                    map.iter()
                        .find(|(from, _)| *from == r)
                        .map_or(r, |&(_, to)| to)
                });
            }
            out.push(c);
        }
        placed += out.len();
        out
    };
    // Prologue: step p in the header (p = 0) or blocks after it.
    let mut exits: Vec<(InstId, i64)> = Vec::new(); // (exit branch, step)
    let mut after = header;
    for p in 0..s - 1 {
        let mut insts = step(func, p, 0, p);
        let exit_bra = func.clone_inst(branch).unwrap_or(branch);
        func.insts[exit_bra].guard = Some(exit_guard);
        insts.push(exit_bra);
        if p == 0 {
            func.blocks[header].insts = insts;
        } else {
            after = place_block(func, Some(after), insts);
        }
        exits.push((exit_bra, p));
    }
    let prologue_exits = exits.len();
    // The kernel, unrolled U times; the last copy loops to the first.
    let pragmas = std::mem::take(&mut func.blocks[header].pragmas);
    let pragma_alone = std::mem::take(&mut func.blocks[header].pragma_alone);
    let mut annotations = std::mem::take(&mut func.blocks[header].annotations);
    annotations.push(PIPELINED.to_string());
    let mut kernel_first = None;
    let mut last_copy_exit = None;
    for c in 0..u {
        let v = s - 1 + c;
        let mut insts = step(func, v, 0, s - 1);
        let br = if c + 1 == u {
            branch
        } else {
            let b = func.clone_inst(branch).unwrap_or(branch);
            func.insts[b].guard = Some(exit_guard);
            exits.push((b, v));
            b
        };
        insts.push(br);
        after = place_block(func, Some(after), insts);
        if c == 0 {
            kernel_first = Some(after);
            func.blocks[after].pragmas = pragmas.clone();
            func.blocks[after].pragma_alone = pragma_alone;
            func.blocks[after].annotations = annotations.clone();
        }
        if c + 1 == u {
            last_copy_exit = Some(v);
        }
    }
    let Some(kernel) = kernel_first else {
        return placed;
    };
    func.insts[branch].map_labels(|l| if l == header { kernel } else { l });
    // Epilogues: after the last kernel copy (falls into it), then the other
    // kernel copies' and the prologue's. Steps v+t run stages t..=min(v+t,
    // s-1) (all of them after the kernel, where v >= s-1).
    let epilogue = |func: &mut Function,
                    step: &mut dyn FnMut(&mut Function, i64, i64, i64) -> Vec<InstId>,
                    v: i64| {
        let mut insts = Vec::new();
        for t in 1..s {
            insts.extend(step(func, v + t, t, (v + t).min(s - 1)));
        }
        insts
    };
    let mut last = after;
    let mut pending: Vec<(Option<InstId>, i64)> = Vec::new();
    if let Some(v) = last_copy_exit {
        pending.push((None, v));
    }
    // Kernel copies' exits first, then the prologue's.
    for &(b, v) in exits[prologue_exits..]
        .iter()
        .chain(&exits[..prologue_exits])
    {
        pending.push((Some(b), v));
    }
    let count = pending.len();
    for (i, (b, v)) in pending.into_iter().enumerate() {
        let mut insts = epilogue(func, &mut step, v);
        if i + 1 < count {
            insts.push(new_bra(func, exit));
        }
        last = place_block(func, Some(last), insts);
        if let Some(b) = b {
            func.insts[b].operands = vec![Operand::Label(last)];
        }
    }
    placed
}
