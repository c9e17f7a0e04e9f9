//! MRPA, machine register-pressure analysis kept up to date while a pass
//! edits the function: per-instruction and per-block pressure per class (R
//! in 32-bit units, P in predicates), updated by deltas as instructions are
//! moved, cloned, inserted or deleted, with a verification mode that
//! compares the incremental state with a full recomputation.
//!
//! Seed: `003_5f2fcdae57e69502.txt`, "MRPA: Incremental Register Pressure
//! Tracking" (incremental update flow, "MRPA Verification": the error
//! `Incorrect RP info from incremental MRPA update`, printed per class when
//! `print-verify` is on) and `002_164789385e2e817e.txt`, "Machine Register
//! Pressure Analysis" (`Max Live RRegs: {n}\tPRegs: {m}`). The numbers are
//! those of [`crate::reg_pressure`] (same units, same before/after rules),
//! which is the full recomputation the verification compares with.
//!
//! Knobs (read by the pass that owns the tracker, handed in as
//! [`MrpaConfig`]): `incremental-update-mcse` (default on; off: every
//! update recomputes everything), `verify-update-mcse` (default off: after
//! each update, compare with a full recomputation), `print-verify` (default
//! off: the mismatch, per class and per place, goes into the error).
//!
//! # Adapted to PTX
//!
//! cicc's MRPA keeps DenseMaps of per-instruction entries keyed by pointer
//! and walks a DFS worklist of blocks; it renames virtual registers
//! speculatively and rolls back. Here registers are already virtual and
//! unlimited (PTX), so there is no rename: the tracker keeps each block's
//! live-in and live-out sets and the pressure around each instruction. An
//! update recomputes the liveness of the registers the edited blocks touch
//! (only those bits: a backward data flow from nothing, since a register
//! that stops being live around a loop would otherwise keep itself live)
//! and re-walks the edited blocks and those whose live-out set changed. A
//! move inside a block, or an edit whose registers do not cross blocks,
//! re-walks one block: the seed's delta update, at block granularity (the
//! liveness of the touched registers costs one scan of the function). Control flow must not change between updates (the CFG is
//! taken when the tracker is built); after an edit of terminators or
//! blocks, [`Mrpa::rebuild`].

use la_arena::ArenaMap;
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, InstId, RegClass};

use crate::cfg::{block_graph, block_name, inst_name, Cfg};
use crate::liveness::{liveness, Liveness};
use crate::reg_pressure::{reg_pressure, reg_units, InstPressure, MaxAt, MaxPressure, Pressure};

/// The knobs of seed 003 that govern the tracker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MrpaConfig {
    /// `incremental-update-mcse`: update by deltas (else recompute).
    pub incremental: bool,
    /// `verify-update-mcse`: compare each update with a full recomputation.
    pub verify: bool,
    /// `print-verify`: describe the mismatch.
    pub print: bool,
}

impl Default for MrpaConfig {
    /// The seed's defaults: incremental on, verification off.
    fn default() -> MrpaConfig {
        MrpaConfig {
            incremental: true,
            verify: false,
            print: false,
        }
    }
}

/// What the verification found: the seed's message, and with
/// `print-verify` each differing place (`bb3 R 12 (full 11)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MrpaMismatch {
    pub message: String,
}

/// Counters of the tracker (for remarks and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MrpaStats {
    pub updates: u32,
    /// Blocks re-walked by incremental updates.
    pub blocks_walked: u32,
    pub full_recomputations: u32,
    pub verifications: u32,
}

/// What [`Mrpa::try_update_region`] changed, for [`Mrpa::undo_region`].
#[derive(Debug, Default)]
pub struct RegionUndo {
    cfg: Option<Cfg>,
    units: Vec<Pressure>,
    /// The number of blocks and of words per set before the update.
    rows: usize,
    words: usize,
    /// Each block's sets (by arena index) before the update wrote them.
    sets: Vec<(usize, Vec<u64>, Vec<u64>)>,
    insts: Vec<(InstId, Option<InstPressure>)>,
    blocks: Vec<(BlockId, Option<MaxPressure>)>,
    max: MaxPressure,
    stats: MrpaStats,
    /// The whole tracker, when the update redid the whole function.
    whole: Option<Box<Mrpa>>,
}

/// The tracker; see the module documentation.
#[derive(Clone, Debug)]
pub struct Mrpa {
    config: MrpaConfig,
    cfg: Cfg,
    /// Per block (by arena index): live-in and live-out words.
    live_in: Vec<Vec<u64>>,
    live_out: Vec<Vec<u64>>,
    insts: ArenaMap<InstId, InstPressure>,
    blocks: ArenaMap<BlockId, MaxPressure>,
    max: MaxPressure,
    /// Per register (by arena index): its (R, P) units.
    units: Vec<Pressure>,
    pub stats: MrpaStats,
}

fn bidx(b: BlockId) -> usize {
    b.into_raw().into_u32() as usize
}

fn ridx(r: ptx_ir::ir::RegId) -> usize {
    r.into_raw().into_u32() as usize
}

fn has(words: &[u64], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

fn clear_bit(words: &mut [u64], i: usize) {
    words[i / 64] &= !(1 << (i % 64));
}

impl Mrpa {
    /// Builds the tracker for `func` (a full computation).
    pub fn new(func: &Function, config: MrpaConfig) -> Mrpa {
        let g = block_graph(func);
        let lv = liveness(func, &g);
        Mrpa::with_analyses(func, config, g, &lv)
    }

    /// [`Mrpa::new`] on the CFG and liveness of `func`, made already.
    pub fn with_analyses(func: &Function, config: MrpaConfig, g: Cfg, lv: &Liveness) -> Mrpa {
        let mut m = Mrpa {
            config,
            cfg: g,
            live_in: Vec::new(),
            live_out: Vec::new(),
            insts: ArenaMap::default(),
            blocks: ArenaMap::default(),
            max: MaxPressure::default(),
            units: Vec::new(),
            stats: MrpaStats::default(),
        };
        m.stats.full_recomputations += 1;
        m.fill(func, lv);
        m
    }

    /// Recomputes everything, the CFG included (after control flow changed).
    pub fn rebuild(&mut self, func: &Function) {
        self.cfg = block_graph(func);
        self.full(func);
    }

    fn words(&self) -> usize {
        self.units.len().div_ceil(64).max(1)
    }

    fn sync_units(&mut self, func: &Function) {
        self.units = func
            .regs
            .iter()
            .map(|(_, reg)| match reg.class {
                RegClass::P => Pressure { r: 0, p: 1 },
                _ => Pressure {
                    r: reg_units(reg),
                    p: 0,
                },
            })
            .collect();
        let words = self.words();
        let nb = func.blocks.len();
        for rows in [&mut self.live_in, &mut self.live_out] {
            rows.resize(nb, Vec::new());
            for row in rows.iter_mut() {
                row.resize(words, 0);
            }
        }
    }

    fn full(&mut self, func: &Function) {
        self.stats.full_recomputations += 1;
        let lv = liveness(func, &self.cfg);
        self.fill(func, &lv);
    }

    /// Everything from the liveness of `func` on `self.cfg`.
    fn fill(&mut self, func: &Function, lv: &Liveness) {
        self.sync_units(func);
        for &b in &self.cfg.blocks {
            let words = self.words();
            let mut row = lv.live_in(b).words().to_vec();
            row.resize(words, 0);
            self.live_in[bidx(b)] = row;
            let mut row = lv.live_out(b).words().to_vec();
            row.resize(words, 0);
            self.live_out[bidx(b)] = row;
        }
        self.insts = ArenaMap::default();
        self.blocks = ArenaMap::default();
        let blocks = self.cfg.blocks.clone();
        for b in blocks {
            self.walk(func, b);
        }
        self.refresh_max();
    }

    /// Re-walks block `b` backwards from its live-out set: the pressure
    /// around each instruction, the block's maxima; returns its new live-in
    /// set. The rules are [`crate::reg_pressure`]'s.
    fn walk(&mut self, func: &Function, b: BlockId) -> Vec<u64> {
        let units = &self.units;
        let mut set = self.live_out[bidx(b)].clone();
        let mut count = Pressure::default();
        for (w, &word) in set.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(u) = units.get(i) {
                    count.r += u.r;
                    count.p += u.p;
                }
            }
        }
        let insts = &func.blocks[b].insts;
        let mut around = vec![InstPressure::default(); insts.len()];
        let mut defs = Vec::new();
        let mut uses = Vec::new();
        let mut added = Vec::new();
        for (pos, &i) in insts.iter().enumerate().rev() {
            defs.clear();
            uses.clear();
            visit_defs_and_uses(&func.insts[i], |a, r| match a {
                Access::Def => defs.push(ridx(r)),
                Access::Use => uses.push(ridx(r)),
            });
            added.clear();
            for &d in &defs {
                if d < units.len() && !has(&set, d) {
                    set_bit(&mut set, d);
                    count.r += units[d].r;
                    count.p += units[d].p;
                    added.push(d);
                }
            }
            let after = count;
            let drop: &[usize] = if func.insts[i].guard.is_none() {
                &defs
            } else {
                &added
            };
            for &d in drop {
                if d < units.len() && has(&set, d) {
                    clear_bit(&mut set, d);
                    count.r -= units[d].r;
                    count.p -= units[d].p;
                }
            }
            for &u in &uses {
                if u < units.len() && !has(&set, u) {
                    set_bit(&mut set, u);
                    count.r += units[u].r;
                    count.p += units[u].p;
                }
            }
            around[pos] = InstPressure {
                before: count,
                after,
            };
        }
        let mut bmax = MaxPressure::default();
        bump(&mut bmax.r, count.r, None, false);
        bump(&mut bmax.p, count.p, None, false);
        for (&i, &ip) in insts.iter().zip(&around) {
            self.insts.insert(i, ip);
            bump(&mut bmax.r, ip.before.r, Some(i), false);
            bump(&mut bmax.r, ip.after.r, Some(i), true);
            bump(&mut bmax.p, ip.before.p, Some(i), false);
            bump(&mut bmax.p, ip.after.p, Some(i), true);
        }
        self.blocks.insert(b, bmax);
        set
    }

    /// The end of every update: the function's maxima from the blocks', and
    /// with `verify-update-mcse` the comparison with a full recomputation.
    fn finish_update(&mut self, func: &Function) -> Result<(), MrpaMismatch> {
        self.refresh_max();
        if self.config.verify {
            self.stats.verifications += 1;
            return self.verify(func);
        }
        Ok(())
    }

    /// The union of the live-in sets of `b`'s successors: its live-out set.
    fn union_of_succs(&self, b: BlockId, words: usize) -> Vec<u64> {
        let mut out = vec![0u64; words];
        for &s in self.cfg.succs(b) {
            for (o, i) in out.iter_mut().zip(&self.live_in[bidx(s)]) {
                *o |= i;
            }
        }
        out
    }

    fn refresh_max(&mut self) {
        let mut max = MaxPressure::default();
        for &b in &self.cfg.blocks {
            if !self.cfg.is_reachable(b) {
                continue;
            }
            let bmax = self.blocks.get(b).copied().unwrap_or_default();
            if bmax.r.value > max.r.value || max.r == MaxAt::default() {
                max.r = bmax.r;
            }
            if bmax.p.value > max.p.value || max.p == MaxAt::default() {
                max.p = bmax.p;
            }
        }
        self.max = max;
    }

    /// After the instructions of `changed` blocks were edited (moved within
    /// or between them, inserted, cloned, deleted; new registers allowed;
    /// every block whose instruction list changed must be named): the
    /// liveness of the registers those blocks touch (read or write now, or
    /// had live in or out) is recomputed alone, and only the changed blocks
    /// and those whose live-out set changed are re-walked. Returns the
    /// verification's mismatch when `verify-update-mcse` is on and the
    /// incremental state differs from a full recomputation.
    pub fn update(&mut self, func: &Function, changed: &[BlockId]) -> Result<(), MrpaMismatch> {
        self.stats.updates += 1;
        if !self.config.incremental {
            self.full(func);
            return Ok(());
        }
        let changed = self.prepare(func, changed);
        // The registers whose liveness may have changed: those the changed
        // blocks read or write now, and those live into or out of them
        // before the edit (a removed read or write was of one of these).
        let words = self.words();
        let mut touched = vec![0u64; words];
        for &b in &changed {
            for (t, (i, o)) in touched
                .iter_mut()
                .zip(self.live_in[bidx(b)].iter().zip(&self.live_out[bidx(b)]))
            {
                *t |= i | o;
            }
            for &i in &func.blocks[b].insts {
                visit_defs_and_uses(&func.insts[i], |_, r| set_bit(&mut touched, ridx(r)));
            }
        }
        self.update_touched(func, changed, &touched)
    }

    /// [`Mrpa::update`] where the caller knows every register whose reads
    /// or writes the edit changed (`regs`: those of each instruction as it
    /// was and as it is now): only their liveness is solved again. A merge
    /// of machine-cse (an instruction made a copy of another's result)
    /// changes three or four registers where the blocks it is in hold
    /// hundreds live.
    pub fn update_regs(
        &mut self,
        func: &Function,
        changed: &[BlockId],
        regs: &[ptx_ir::ir::RegId],
    ) -> Result<(), MrpaMismatch> {
        self.stats.updates += 1;
        if !self.config.incremental {
            self.full(func);
            return Ok(());
        }
        let changed = self.prepare(func, changed);
        let mut touched = vec![0u64; self.words()];
        for &r in regs {
            set_bit(&mut touched, ridx(r));
        }
        self.update_touched(func, changed, &touched)
    }

    /// The changed blocks of the layout, with the per-register state sized
    /// for the function as it is now.
    fn prepare(&mut self, func: &Function, changed: &[BlockId]) -> Vec<BlockId> {
        if func.regs.len() != self.units.len() || func.blocks.len() != self.live_in.len() {
            self.sync_units(func);
        }
        changed
            .iter()
            .copied()
            .filter(|b| self.cfg.blocks.contains(b))
            .collect()
    }

    /// The liveness of the `touched` registers alone, again from nothing
    /// (gen and kill per block restricted to them, numbered densely, then
    /// the backward data flow), spliced into the sets; then the changed
    /// blocks and every block whose live-out set changed are re-walked.
    fn update_touched(
        &mut self,
        func: &Function,
        changed: Vec<BlockId>,
        touched: &[u64],
    ) -> Result<(), MrpaMismatch> {
        let words = self.words();
        // Dense numbers of the touched registers.
        let mut list: Vec<usize> = Vec::new();
        for (w, &word) in touched.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                list.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        let mut dense = vec![u32::MAX; self.units.len()];
        for (c, &x) in list.iter().enumerate() {
            if let Some(d) = dense.get_mut(x) {
                *d = c as u32;
            }
        }
        let cw = list.len().div_ceil(64).max(1);
        let nb = self.cfg.blocks.len();
        let mut gen = vec![0u64; nb * cw];
        let mut kill = vec![0u64; nb * cw];
        let mut uses: Vec<usize> = Vec::new();
        for (k, &b) in self.cfg.blocks.iter().enumerate() {
            let (g, kl) = (
                &mut gen[k * cw..(k + 1) * cw],
                &mut kill[k * cw..(k + 1) * cw],
            );
            for &i in func.blocks[b].insts.iter().rev() {
                let inst = &func.insts[i];
                let guarded = inst.guard.is_some();
                uses.clear();
                visit_defs_and_uses(inst, |a, r| {
                    let c = match dense.get(ridx(r)) {
                        Some(&c) if c != u32::MAX => c as usize,
                        _ => return,
                    };
                    match a {
                        Access::Def if !guarded => {
                            set_bit(kl, c);
                            clear_bit(g, c);
                        }
                        Access::Use => uses.push(c),
                        _ => {}
                    }
                });
                for &c in &uses {
                    set_bit(g, c);
                }
            }
        }
        let mut index = vec![usize::MAX; func.blocks.len()];
        for (k, &b) in self.cfg.blocks.iter().enumerate() {
            index[bidx(b)] = k;
        }
        let mut new_in = vec![0u64; nb * cw];
        let mut row = vec![0u64; cw];
        let mut again = true;
        while again {
            again = false;
            for k in (0..nb).rev() {
                let b = self.cfg.blocks[k];
                row.fill(0);
                for s in self.cfg.succs(b) {
                    if let Some(&j) = index.get(bidx(*s)).filter(|&&j| j != usize::MAX) {
                        for (o, i) in row.iter_mut().zip(&new_in[j * cw..(j + 1) * cw]) {
                            *o |= i;
                        }
                    }
                }
                for w in 0..cw {
                    row[w] = gen[k * cw + w] | (row[w] & !kill[k * cw + w]);
                }
                if row[..] != new_in[k * cw..(k + 1) * cw] {
                    new_in[k * cw..(k + 1) * cw].copy_from_slice(&row);
                    again = true;
                }
            }
        }
        // Splice the touched bits in; re-walk the changed blocks and every
        // block whose live-out set changed.
        for (k, &b) in self.cfg.blocks.iter().enumerate() {
            let set = &mut self.live_in[bidx(b)];
            let solved = &new_in[k * cw..(k + 1) * cw];
            for (c, &x) in list.iter().enumerate() {
                if x / 64 >= set.len() {
                    continue;
                }
                if has(solved, c) {
                    set_bit(set, x);
                } else {
                    clear_bit(set, x);
                }
            }
        }
        let mut walk: Vec<BlockId> = changed;
        for &b in &self.cfg.blocks {
            let out = self.union_of_succs(b, words);
            if out != self.live_out[bidx(b)] {
                self.live_out[bidx(b)] = out;
                if !walk.contains(&b) {
                    walk.push(b);
                }
            }
        }
        for b in walk {
            self.stats.blocks_walked += 1;
            let live_in = self.walk(func, b);
            debug_assert_eq!(live_in, self.live_in[bidx(b)], "walk and data flow agree");
        }
        self.finish_update(func)
    }

    /// After the instructions of `block` were only reordered, every
    /// register dependence kept (a scheduler's new order: no instruction
    /// added or removed, no read moved above the write it reads, no write
    /// moved across a read or write of its register). Then what the block
    /// reads before writing and what it writes are the sets they were, so
    /// no block's live-in or live-out set changes: only this block is
    /// walked again (where [`Mrpa::update`] redoes the data flow of the
    /// whole function). `verify-update-mcse` compares the result with a
    /// full recomputation as for any update.
    pub fn update_reordered(
        &mut self,
        func: &Function,
        block: BlockId,
    ) -> Result<(), MrpaMismatch> {
        if self.config.incremental && self.cfg.blocks.contains(&block) {
            let live_in = self.walk(func, block);
            if live_in == self.live_in[bidx(block)] {
                self.stats.updates += 1;
                self.stats.blocks_walked += 1;
                return self.finish_update(func);
            }
        }
        // Not a pure reorder after all: redo the data flow.
        self.update(func, &[block])
    }

    /// After a pass rewrote a region of the function, the control flow
    /// inside it included (new blocks, new edges between them): `region`
    /// names every block created, every block whose instructions changed,
    /// and every block whose successors changed (a jump retargeted, a new
    /// fallthrough). The CFG is built again; the liveness of the region is
    /// solved from the live-in sets of the blocks it leaves to, and only
    /// its blocks are walked. When the live-out set that a block outside
    /// the region computes from it is not what it was (the rewrite changed
    /// what is live where control enters the region), the data flow of the
    /// whole function is redone instead ([`Mrpa::rebuild`]). A pipeliner
    /// that replaces a loop by prologue, kernel and epilogue, with the
    /// values live into and out of the loop in the registers they were in,
    /// is the case this is for.
    pub fn update_region(
        &mut self,
        func: &Function,
        region: &[BlockId],
    ) -> Result<(), MrpaMismatch> {
        self.region_update(func, region, None)
    }

    /// [`Mrpa::update_region`] as a trial: also returns what
    /// [`Mrpa::undo_region`] needs to put the tracker back as it was (the
    /// sets, pressures and counters the update wrote, saved as it writes
    /// them), so that a pass that tries a rewrite and drops it pays for
    /// the region, not for a copy of the whole tracker. When the update
    /// redoes the whole function, the undo holds a copy made first.
    pub fn try_update_region(
        &mut self,
        func: &Function,
        region: &[BlockId],
    ) -> (Result<(), MrpaMismatch>, RegionUndo) {
        let mut undo = RegionUndo {
            units: self.units.clone(),
            rows: self.live_in.len(),
            words: self.words(),
            max: self.max,
            stats: self.stats,
            ..RegionUndo::default()
        };
        let result = self.region_update(func, region, Some(&mut undo));
        (result, undo)
    }

    /// Puts the tracker back as it was before the
    /// [`Mrpa::try_update_region`] that returned `undo` (nothing else may
    /// have changed it since).
    pub fn undo_region(&mut self, undo: RegionUndo) {
        if let Some(whole) = undo.whole {
            *self = *whole;
            return;
        }
        if let Some(cfg) = undo.cfg {
            self.cfg = cfg;
        }
        self.units = undo.units;
        self.max = undo.max;
        self.stats = undo.stats;
        self.live_in.truncate(undo.rows);
        self.live_out.truncate(undo.rows);
        for row in self.live_in.iter_mut().chain(self.live_out.iter_mut()) {
            row.truncate(undo.words);
        }
        for (k, live_in, live_out) in undo.sets.into_iter().rev() {
            self.live_in[k] = live_in;
            self.live_out[k] = live_out;
        }
        for (i, old) in undo.insts.into_iter().rev() {
            match old {
                Some(p) => self.insts.insert(i, p),
                None => self.insts.remove(i),
            };
        }
        for (b, old) in undo.blocks.into_iter().rev() {
            match old {
                Some(m) => self.blocks.insert(b, m),
                None => self.blocks.remove(b),
            };
        }
    }

    fn region_update(
        &mut self,
        func: &Function,
        region: &[BlockId],
        mut undo: Option<&mut RegionUndo>,
    ) -> Result<(), MrpaMismatch> {
        if let Some(u) = undo.as_deref_mut() {
            // What the region's walks will write, as it is now.
            for &b in region {
                let k = bidx(b);
                if k < self.live_in.len() {
                    u.sets
                        .push((k, self.live_in[k].clone(), self.live_out[k].clone()));
                }
                u.blocks.push((b, self.blocks.get(b).copied()));
                if func.has_block(b) {
                    for &i in &func.blocks[b].insts {
                        u.insts.push((i, self.insts.get(i).copied()));
                    }
                }
            }
            if !self.config.incremental {
                u.whole = Some(Box::new(self.clone()));
            }
        }
        self.stats.updates += 1;
        let old_cfg = std::mem::replace(&mut self.cfg, block_graph(func));
        if let Some(u) = undo.as_deref_mut() {
            u.cfg = Some(old_cfg);
        }
        if !self.config.incremental {
            self.full(func);
            return Ok(());
        }
        self.sync_units(func);
        let words = self.words();
        let region: Vec<BlockId> = region
            .iter()
            .copied()
            .filter(|b| self.cfg.blocks.contains(b))
            .collect();
        let mut in_region = vec![false; func.blocks.len()];
        for &b in &region {
            if let Some(x) = in_region.get_mut(bidx(b)) {
                *x = true;
            }
        }
        let inside = |b: &BlockId| in_region.get(bidx(*b)).copied().unwrap_or(false);
        let outside_out: Vec<(BlockId, Vec<u64>)> = self
            .cfg
            .blocks
            .iter()
            .copied()
            .filter(|b| !inside(b) && self.cfg.succs(*b).iter().any(inside))
            .map(|b| (b, self.live_out[bidx(b)].clone()))
            .collect();
        // The least solution over the region: its live-in sets start empty.
        for &b in &region {
            self.live_in[bidx(b)] = vec![0; words];
        }
        let mut again = true;
        while again {
            again = false;
            for &b in region.iter().rev() {
                self.live_out[bidx(b)] = self.union_of_succs(b, words);
                let live_in = self.walk(func, b);
                if live_in != self.live_in[bidx(b)] {
                    self.live_in[bidx(b)] = live_in;
                    again = true;
                }
            }
        }
        self.stats.blocks_walked += region.len() as u32;
        let unchanged = outside_out
            .iter()
            .all(|(b, old)| self.union_of_succs(*b, words) == *old);
        if !unchanged {
            if let Some(u) = undo {
                // Put the tracker back as it was to keep a copy of it,
                // then redo it all.
                let stats = self.stats;
                let new_cfg = std::mem::take(&mut self.cfg);
                self.undo_region(std::mem::take(u));
                u.whole = Some(Box::new(self.clone()));
                self.cfg = new_cfg;
                self.stats = stats;
            }
            self.full(func);
        }
        self.finish_update(func)
    }

    /// Forgets a deleted instruction (its block is updated by [`Mrpa::update`]).
    pub fn forget(&mut self, inst: InstId) {
        self.insts.remove(inst);
    }

    /// Compares the state with a full recomputation
    /// ([`crate::reg_pressure::reg_pressure`]): the pressure around every
    /// placed instruction, each block's maxima and the function's.
    pub fn verify(&self, func: &Function) -> Result<(), MrpaMismatch> {
        let g = block_graph(func);
        let lv = liveness(func, &g);
        let full = reg_pressure(func, &g, &lv);
        let mut diffs = Vec::new();
        for &b in &g.blocks {
            let ours = self.block_max(b);
            let theirs = full.block_max(b);
            if ours.r.value != theirs.r.value || ours.p.value != theirs.p.value {
                diffs.push(format!(
                    "{}: RRegs {} (full {}), PRegs {} (full {})",
                    block_name(b),
                    ours.r.value,
                    theirs.r.value,
                    ours.p.value,
                    theirs.p.value
                ));
            }
            for &i in &func.blocks[b].insts {
                let (o, t) = (self.at(i), full.at(i));
                if o != t {
                    diffs.push(format!(
                        "{}: before R {} P {}, after R {} P {} (full: before R {} P {}, after R {} P {})",
                        inst_name(i),
                        o.before.r,
                        o.before.p,
                        o.after.r,
                        o.after.p,
                        t.before.r,
                        t.before.p,
                        t.after.r,
                        t.after.p
                    ));
                }
            }
        }
        if self.max.r.value != full.max.r.value || self.max.p.value != full.max.p.value {
            diffs.push(format!(
                "function: Max Live RRegs: {}\tPRegs: {} (full {}, {})",
                self.max.r.value, self.max.p.value, full.max.r.value, full.max.p.value
            ));
        }
        if diffs.is_empty() {
            return Ok(());
        }
        let mut message = "Incorrect RP info from incremental MRPA update".to_string();
        if self.config.print {
            for d in &diffs {
                message.push_str("\n  ");
                message.push_str(d);
            }
        } else {
            message.push_str(&format!(" ({} places differ)", diffs.len()));
        }
        Err(MrpaMismatch { message })
    }

    /// Pressure around `inst`.
    pub fn at(&self, inst: InstId) -> InstPressure {
        self.insts.get(inst).copied().unwrap_or_default()
    }

    /// Maxima of `block`.
    pub fn block_max(&self, block: BlockId) -> MaxPressure {
        self.blocks.get(block).copied().unwrap_or_default()
    }

    /// The function's maxima.
    pub fn max(&self) -> MaxPressure {
        self.max
    }

    /// The seed's diagnostic line: `Max Live RRegs: {n}\tPRegs: {m}`.
    pub fn summary(&self) -> String {
        format!(
            "Max Live RRegs: {}\tPRegs: {}",
            self.max.r.value, self.max.p.value
        )
    }

    /// Whether `reg` is live at the end of `block` (the state the tracker
    /// keeps).
    pub fn is_live_out(&self, block: BlockId, reg: ptx_ir::ir::RegId) -> bool {
        self.live_out
            .get(bidx(block))
            .is_some_and(|row| has(row, ridx(reg)))
    }
}

fn bump(max: &mut MaxAt, value: u32, inst: Option<InstId>, after: bool) {
    if value > max.value || (max.inst.is_none() && inst.is_some() && value == max.value) {
        *max = MaxAt { value, inst, after };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::module;

    const LOOP: &str = ".entry k(.param .u64 p, .param .u32 n)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n\
        ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\nmov.f32 %f1, 0f00000000;\nmov.u32 %r9, 7;\n\
        $L:\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.f32 %f2, [%rd3];\n\
        add.f32 %f1, %f1, %f2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra $L;\n\
        add.s32 %r10, %r9, 1;\nst.global.f32 [%rd1], %f1;\nst.global.u32 [%rd1+4], %r10;\nret;\n}\n";

    fn verified() -> MrpaConfig {
        MrpaConfig {
            incremental: true,
            verify: true,
            print: true,
        }
    }

    #[test]
    fn fresh_tracker_equals_reg_pressure() {
        let m = module(LOOP);
        let f = &m.functions[0];
        let t = Mrpa::new(f, verified());
        t.verify(f).unwrap();
        assert!(t.summary().starts_with("Max Live RRegs: "));
    }

    #[test]
    fn moving_a_definition_into_the_loop_updates_the_blocks_it_crosses() {
        // Twice: brought up to date over the changed blocks, then over the
        // registers the edit changed (only %r9's reads and writes move, so
        // only its liveness is solved again).
        for by_regs in [false, true] {
            let m = module(LOOP);
            let mut f = m.functions[0].clone();
            let mut t = Mrpa::new(&f, verified());
            // `mov.u32 %r9, 7` from the entry block to the exit block,
            // before its use: %r9 stops being live through the loop.
            let entry = f.layout[0];
            let exit = *f.layout.last().unwrap();
            let mov = f.blocks[entry].insts[4];
            let mut regs = Vec::new();
            visit_defs_and_uses(&f.insts[mov], |_, r| regs.push(r));
            let before = t.max();
            f.blocks[entry].insts.retain(|&i| i != mov);
            f.blocks[exit].insts.insert(0, mov);
            // `verified()`: each update is compared with a full
            // recomputation.
            if by_regs {
                t.update_regs(&f, &[entry, exit], &regs).unwrap();
            } else {
                t.update(&f, &[entry, exit]).unwrap();
            }
            assert!(
                t.max().r.value < before.r.value,
                "{:?} -> {:?}",
                before,
                t.max()
            );
            assert!(
                t.stats.blocks_walked >= 3,
                "the loop's blocks are re-walked"
            );
        }
    }

    #[test]
    fn deleting_cloning_and_new_registers() {
        let m = module(LOOP);
        let mut f = m.functions[0].clone();
        let mut t = Mrpa::new(&f, verified());
        let exit = *f.layout.last().unwrap();
        // Clone `add.s32 %r10, %r9, 1` with a fresh result, store it too.
        let add = f.blocks[exit].insts[0];
        let copy = f.clone_inst(add).unwrap();
        let mut def = None;
        visit_defs_and_uses(&f.insts[add], |a, r| {
            if a == Access::Def {
                def = Some(r);
            }
        });
        let fresh = f.clone_reg(def.unwrap()).unwrap();
        f.insts[copy].map_regs(|a, r| if a == Access::Def { fresh } else { r });
        assert!(f.insert_after(add, copy));
        // ... and store it, so it is live.
        let store = f.blocks[exit].insts[2];
        let store2 = f.clone_inst(store).unwrap();
        f.insts[store2].map_regs(|a, r| {
            if a == Access::Use && Some(r) == def {
                fresh
            } else {
                r
            }
        });
        assert!(f.insert_after(store, store2));
        t.update(&f, &[exit]).unwrap();
        // Delete both again.
        f.remove_inst(store2);
        t.forget(store2);
        f.remove_inst(copy);
        t.forget(copy);
        t.update(&f, &[exit]).unwrap();
        t.verify(&f).unwrap();
    }

    #[test]
    fn a_wrong_update_is_reported_with_print_verify() {
        let m = module(LOOP);
        let mut f = m.functions[0].clone();
        let mut t = Mrpa::new(&f, verified());
        let mut quiet = Mrpa::new(
            &f,
            MrpaConfig {
                print: false,
                ..verified()
            },
        );
        // The entry block's `mov.u32 %r9, 7` moved to its start, and the
        // block not named: its walk is stale.
        let entry = f.layout[0];
        let mov = f.blocks[entry].insts.remove(4);
        f.blocks[entry].insts.insert(0, mov);
        let err = t.update(&f, &[]).unwrap_err();
        assert!(
            err.message
                .starts_with("Incorrect RP info from incremental MRPA update\n  "),
            "{}",
            err.message
        );
        let err = quiet.update(&f, &[]).unwrap_err();
        assert!(err.message.contains("places differ"), "{}", err.message);
        // Named, it is right.
        t.update(&f, &[entry]).unwrap();
    }

    #[test]
    fn a_tried_region_update_is_undone_exactly() {
        let m = module(LOOP);
        let before = m.functions[0].clone();
        for (incremental, new_live_in) in [(true, false), (true, true), (false, false)] {
            let config = MrpaConfig {
                incremental,
                ..verified()
            };
            let mut t = Mrpa::new(&before, config);
            // A copy of the loop body's `add.s32 %r2, %r2, 1` with a fresh
            // result, stored after the loop: a new register and a longer
            // live range in the loop and exit blocks. With `new_live_in` the
            // copy reads a register nothing writes instead, which is then
            // live into the function: the boundary changes, and the update
            // redoes the whole function.
            let mut f = before.clone();
            let header = f.layout[1];
            let exit = *f.layout.last().unwrap();
            let add = f.blocks[header].insts[4];
            let copy = f.clone_inst(add).unwrap();
            let r2 = f.insts[add].operands[0].as_reg().unwrap();
            let fresh = f.clone_reg(r2).unwrap();
            let unset = f.clone_reg(r2).unwrap();
            f.insts[copy].map_regs(|a, r| match a {
                Access::Def => fresh,
                Access::Use if new_live_in => unset,
                Access::Use => r,
            });
            assert!(f.insert_after(add, copy));
            let store = f.blocks[exit].insts[2];
            let store2 = f.clone_inst(store).unwrap();
            f.insts[store2].map_regs(|a, r| {
                if a == Access::Use && &*f.regs[r].ty == ".b32" {
                    fresh
                } else {
                    r
                }
            });
            assert!(f.insert_after(store, store2));
            // Everything but the capacity of the maps.
            let state = |t: &Mrpa| {
                format!(
                    "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                    t.cfg,
                    t.live_in,
                    t.live_out,
                    t.insts.iter().collect::<Vec<_>>(),
                    t.blocks.iter().collect::<Vec<_>>(),
                    t.max,
                    t.units,
                    t.stats
                )
            };
            let old = state(&t);
            let (result, undo) = t.try_update_region(&f, &[header, exit]);
            result.unwrap();
            assert_ne!(state(&t), old);
            assert_eq!(
                t.stats.full_recomputations,
                if new_live_in || !incremental { 2 } else { 1 },
                "the whole function is redone when the region's boundary changed"
            );
            t.undo_region(undo);
            assert_eq!(
                state(&t),
                old,
                "incremental {incremental}, new live-in {new_live_in}"
            );
            t.verify(&before).unwrap();
        }
    }

    #[test]
    fn non_incremental_mode_recomputes() {
        let m = module(LOOP);
        let f = m.functions[0].clone();
        let mut t = Mrpa::new(
            &f,
            MrpaConfig {
                incremental: false,
                ..MrpaConfig::default()
            },
        );
        t.update(&f, &[]).unwrap();
        assert_eq!(t.stats.full_recomputations, 2);
        t.verify(&f).unwrap();
    }
}
