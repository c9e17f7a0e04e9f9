//! Phase 15, OriBranchOpt: branch simplification.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Pipeline Placement" ("Phase 15
//! OriBranchOpt -- branch simplification (may change loop shape)"), between
//! GeneralOptimizeEarly (13, folding and copy propagation, which expose
//! constant conditions) and OriPerformLiveDeadFirst (16, which removes what
//! this phase leaves dead). The seed gives the placement and purpose, not the
//! algorithm; this module writes the classic CFG clean-up.
//!
//! Knobs: none (the seeds name no knob for phase 15).
//!
//! # What it does
//!
//! Repeated (at most [`MAX_ROUNDS`] rounds) until nothing changes:
//!
//! 1. **Constant conditions.** `@%p bra L` whose predicate is known (its one
//!    definition dominates the branch and is a `setp` of two integer
//!    immediates, or a `not.pred`/`mov.pred` of a known predicate; see
//!    `known::known_pred`): a branch always taken loses its guard, one never
//!    taken is removed (the block falls through to its layout successor,
//!    which is where the not-taken edge went).
//! 2. **`not.pred` feeding guards.** `not.pred %p2, %p1` whose result is read
//!    only by guards, where `%p1` holds the same value at each of them
//!    (`known::Facts::unchanged_between`): the guards become `@!%p1` (`@%p1` for
//!    `@!%p2`) and the `not` is removed.
//! 3. **Unreachable blocks** (not reachable from the entry) leave the
//!    layout; blocks named by a `.branchtargets` list stay.
//! 4. **Branches to the next block** of the layout (guarded or not) are
//!    removed: both edges reach the same block.
//! 5. **Empty blocks.** A block holding only an unguarded `bra T` is
//!    bypassed: every branch to it goes to `T` (a fall-through into it
//!    stays; the block is removed once nothing reaches it). A block holding
//!    nothing is removed and branches to it go to the block after it.
//! 6. **Straight-line blocks.** A block that falls through into the next
//!    block of the layout, when that block has no other predecessor, no
//!    `.pragma`, no label anything names and is in no `.branchtargets`
//!    list, takes that block's instructions.
//!
//! 7. **A branch over a jump.** `@%p bra X` followed by a block that only
//!    holds `bra Y` (reached from nowhere else), itself followed by `X`,
//!    becomes `@!%p bra Y` and the jump block goes (the `if (!c) goto
//!    join; goto else;` ladders of `-O0` code). The branch keeps its own
//!    opcode (`.uni` or not). Not when the jump is the only way into `Y`
//!    and `Y` heads a dead end (an out-of-line `abort(); exit;` path): ptxas
//!    allocates more registers for the inverted form there.
//!
//! # What it never does
//!
//! - `brx.idx` is never changed, nor are the blocks of its `.branchtargets`
//!   list removed or bypassed (the list is shared by every `brx.idx` that
//!   names it).
//! - It never adds `.uni`: `bra.uni` keeps its modifier where the branch
//!   stays (a constant or negated condition is uniform exactly when the
//!   original was), and a plain `bra` stays plain.
//! - A block with a `.pragma` (`nounroll` at a loop header) is never merged
//!   into its predecessor nor bypassed, so the pragma stays at the start of
//!   the block it describes.
//! - A removed instruction's `.loc` lines move to the next instruction of
//!   the layout (ptxas wants every `inlined_at` position to appear in an
//!   earlier `.loc`); origins are untouched (instructions keep their ids).
//!
//! # Adapted from Ori/SASS to PTX
//!
//! Ori's branch optimization runs on SASS `BRA` with physical predicates and
//! condition codes and may re-lay-out blocks; here the layout of PTX blocks
//! is the fall-through order the emitter prints, so this phase only removes
//! blocks and merges a block with its layout successor (no block moves: a
//! moved block would need new `bra`s and would reorder `.loc` lines). PTX
//! has no uniform-datapath `BRA.U` decision to make: `.uni` is the author's
//! claim and is kept, never invented.

use std::rc::Rc;
use std::sync::Arc;

use ptx_analysis::{cfg, cfg_if_same_graph, Cfg, DomTree};
use ptx_ir::ir::{BlockId, Function, InstId, LocalDecl, Operand, RegId};
use ptx_isa::{FamilyId, Ty};
use rustc_hash::{FxHashMap, FxHashSet};

use super::known::{
    give_locs, is_param, known_pred, plain_reg, reads_outside_guard, remove_keeping_locs, Facts,
};
use crate::origin::origin;
use crate::remark::{PhaseOutput, RemarkKind, RoundRemarks, Stat};
use crate::{PassContext, PhaseId};

/// The most rounds of the six rules (each round only removes or merges, so
/// a handful suffices; the bound keeps the phase linear-ish on huge input).
pub const MAX_ROUNDS: u32 = 8;

#[derive(Default)]
struct Counts {
    constant_taken: u64,
    constant_not_taken: u64,
    not_folded: u64,
    unreachable: u64,
    jumps_to_next: u64,
    empty_bypassed: u64,
    merged: u64,
    inverted: u64,
    rounds: u64,
}

struct State {
    log: RoundRemarks,
    counts: Counts,
    /// The scalar facts of the function as it is now: the input's (shared
    /// with the phase before, [`super::version_cache`]) until a rule
    /// changes it, then computed again when a rule next asks.
    facts: Option<Rc<Facts>>,
    /// The CFG and dominator tree of the function as it is now, kept the
    /// same way (the facts' own when they are there).
    graph: Option<Rc<Cfg>>,
    dom: Option<Rc<DomTree>>,
    /// The CFG and dominator tree from before the last change, for the
    /// function as it is now when the change left the block graph alone
    /// (`fold_not_guards`; see [`cfg_if_same_graph`]).
    earlier: Option<(Rc<Cfg>, Option<Rc<DomTree>>)>,
}

impl State {
    fn new(id: PhaseId, facts: Option<Rc<Facts>>) -> State {
        State {
            log: RoundRemarks::new(id),
            counts: Counts::default(),
            facts,
            graph: None,
            dom: None,
            earlier: None,
        }
    }

    /// A rule changed the function: what was known of it is gone.
    fn changed(&mut self) {
        let facts = self.facts.take();
        let graph = facts.as_ref().map(|f| f.cfg_rc()).or(self.graph.take());
        let dom = facts.as_ref().map(|f| f.dom_rc()).or(self.dom.take());
        if let Some(g) = graph {
            self.earlier = Some((g, dom));
        }
    }

    fn facts(&mut self, f: &Function) -> Rc<Facts> {
        if self.facts.is_none() {
            // On the graph a rule already made for this version, if any.
            let (g, dom) = (self.graph(f), self.dom(f));
            self.facts = Some(Rc::new(Facts::with_graph(f, g, dom)));
        }
        self.facts.clone().expect("just made")
    }

    fn graph(&mut self, f: &Function) -> Rc<Cfg> {
        if let Some(facts) = &self.facts {
            return facts.cfg_rc();
        }
        if let Some(g) = &self.graph {
            return g.clone();
        }
        let reused = self
            .earlier
            .take()
            .and_then(|(old, dom)| Some((cfg_if_same_graph(f, &old)?, dom)));
        let g = Rc::new(match reused {
            Some((g, dom)) => {
                self.dom = dom;
                g
            }
            None => cfg(f),
        });
        self.graph = Some(g.clone());
        g
    }

    fn dom(&mut self, f: &Function) -> Rc<DomTree> {
        if let Some(facts) = &self.facts {
            return facts.dom_rc();
        }
        // The graph first: taken from before a change, it brings its
        // dominator tree along.
        let g = self.graph(f);
        if self.dom.is_none() {
            self.dom = Some(Rc::new(ptx_analysis::dominators(&g)));
        }
        self.dom.clone().expect("just made")
    }
}

/// Runs branch simplification on one function (phase `id`).
pub fn run(id: PhaseId, _ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let mut f = (**input).clone();
    let mut st = State::new(id, Some(super::version_cache::facts(input)));
    let rules: [fn(&mut Function, &mut State) -> bool; 7] = [
        constant_branches,
        fold_not_guards,
        remove_unreachable,
        jumps_to_next,
        empty_blocks,
        merge_blocks,
        branch_over_jump,
    ];
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        st.counts.rounds += 1;
        let mut any = false;
        for rule in rules {
            if rule(&mut f, &mut st) {
                st.changed();
                any = true;
            }
        }
        changed |= any;
        if !any {
            break;
        }
    }
    let remarks = st.log.finish();
    let c = &st.counts;
    let stats = vec![
        Stat {
            name: "branches folded: always taken",
            value: c.constant_taken,
        },
        Stat {
            name: "branches folded: never taken",
            value: c.constant_not_taken,
        },
        Stat {
            name: "not.pred folded into guards",
            value: c.not_folded,
        },
        Stat {
            name: "unreachable blocks removed",
            value: c.unreachable,
        },
        Stat {
            name: "branches to the next block removed",
            value: c.jumps_to_next,
        },
        Stat {
            name: "empty blocks bypassed",
            value: c.empty_bypassed,
        },
        Stat {
            name: "blocks merged",
            value: c.merged,
        },
        Stat {
            name: "branches over a jump inverted",
            value: c.inverted,
        },
        Stat {
            name: "rounds",
            value: c.rounds,
        },
    ];
    if !changed {
        // No counters when nothing changed (they would all be zero).
        return PhaseOutput {
            function: input.clone(),
            loops: Vec::new(),
            remarks,
            stats: Vec::new(),
        };
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats,
    }
}

/// The target block of a `bra` (not `brx.idx`): its one label.
pub(crate) fn bra_target(f: &Function, i: InstId) -> Option<BlockId> {
    let inst = f.has_inst(i).then(|| &f.insts[i])?;
    if inst.opcode.info.family != FamilyId::Bra {
        return None;
    }
    match inst.operands.as_slice() {
        [Operand::Label(b)] => Some(b.to_owned()),
        _ => None,
    }
}

fn last_inst(f: &Function, b: BlockId) -> Option<InstId> {
    f.has_block(b).then(|| f.blocks[b].insts.last().copied())?
}

/// Blocks named by `.branchtargets` lists.
pub(crate) fn branch_target_blocks(f: &Function) -> FxHashSet<BlockId> {
    f.locals
        .iter()
        .filter_map(|l| match l {
            LocalDecl::BranchTargets { targets, .. } => Some(targets.iter().copied()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// A block's label, or `(unlabeled block)`.
pub(crate) fn label_name(f: &Function, b: BlockId) -> String {
    f.has_block(b)
        .then(|| f.blocks[b].label.clone())
        .flatten()
        .unwrap_or_else(|| "(unlabeled block)".to_string())
}

fn reg_name(f: &Function, r: RegId) -> &str {
    if f.has_reg(r) {
        &f.regs[r].name
    } else {
        "?"
    }
}

/// Rule 1.
fn constant_branches(f: &mut Function, st: &mut State) -> bool {
    if !may_know_a_guard(f) {
        return false;
    }
    let facts = st.facts(f);
    let mut edits: Vec<(BlockId, InstId, bool)> = Vec::new();
    for &b in &f.layout {
        let Some(last) = last_inst(f, b) else {
            continue;
        };
        let Some(target) = bra_target(f, last) else {
            continue;
        };
        let Some(guard) = f.insts[last].guard else {
            continue;
        };
        if let Some(value) = known_pred(f, &facts, guard.reg, last, 0) {
            let taken = value != guard.negated;
            let g = if guard.negated { "@!" } else { "@" };
            let msg = if taken {
                format!(
                    "branch `{g}{} {}` to {} is always taken ({} is {value}): guard removed",
                    reg_name(f, guard.reg),
                    f.insts[last].opcode.text(),
                    label_name(f, target),
                    reg_name(f, guard.reg),
                )
            } else {
                format!(
                    "branch `{g}{} {}` to {} is never taken ({} is {value}): removed",
                    reg_name(f, guard.reg),
                    f.insts[last].opcode.text(),
                    label_name(f, target),
                    reg_name(f, guard.reg),
                )
            };
            st.log
                .push(RemarkKind::Applied, "constant-branch", origin(f, last), msg);
            edits.push((b, last, taken));
        }
    }
    let any = !edits.is_empty();
    for (b, i, taken) in edits {
        if taken {
            f.insts[i].guard = None;
            st.counts.constant_taken += 1;
        } else {
            remove_keeping_locs(f, b, i);
            st.counts.constant_not_taken += 1;
        }
    }
    any
}

/// Whether a branch's guard may be a known predicate
/// ([`known_pred`]): written by a `setp` of two immediates or a `mov.pred`
/// of one, or copied (`mov.pred`, `not.pred`) from such a register. A
/// cheap scan that spares the facts when no branch can fold.
fn may_know_a_guard(f: &Function) -> bool {
    let mut known: FxHashSet<RegId> = FxHashSet::default();
    let mut copies: Vec<(RegId, RegId)> = Vec::new();
    for (_, inst) in f.insts_in_order() {
        let info = &inst.opcode.info;
        let Some(Operand::Reg { reg: d, .. }) = inst.operands.first() else {
            continue;
        };
        match info.family {
            FamilyId::Setp
                if info.bool_op.is_none()
                    && inst.operands.len() == 3
                    && matches!(inst.operands[1], Operand::Imm(_))
                    && matches!(inst.operands[2], Operand::Imm(_)) =>
            {
                known.insert(*d);
            }
            FamilyId::Mov | FamilyId::Not
                if info.ty() == Some(Ty::Pred) && inst.operands.len() == 2 =>
            {
                match &inst.operands[1] {
                    Operand::Imm(_) => {
                        known.insert(*d);
                    }
                    Operand::Reg { reg: s, .. } => copies.push((*d, *s)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if known.is_empty() {
        return false;
    }
    loop {
        let before = known.len();
        for &(d, s) in &copies {
            if known.contains(&s) {
                known.insert(d);
            }
        }
        if known.len() == before {
            break;
        }
    }
    f.layout.iter().any(|&b| {
        f.blocks[b].insts.last().is_some_and(|&i| {
            let inst = &f.insts[i];
            inst.opcode.info.family == FamilyId::Bra
                && inst.guard.is_some_and(|g| known.contains(&g.reg))
        })
    })
}

/// Rule 2.
fn fold_not_guards(f: &mut Function, st: &mut State) -> bool {
    let mut any = false;
    let nots: Vec<(BlockId, InstId)> = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b].insts.iter().map(move |&i| (b, i)))
        .filter(|&(_, i)| {
            let inst = &f.insts[i];
            inst.opcode.info.family == FamilyId::Not
                && inst.opcode.info.ty() == Some(Ty::Pred)
                && inst.guard.is_none()
                && inst.operands.len() == 2
                && plain_reg(&inst.operands[0]).is_some()
                && plain_reg(&inst.operands[1]).is_some()
        })
        .collect();
    if nots.is_empty() {
        return false;
    }
    let facts = st.facts(f);
    for (b, n) in nots {
        let (Some(p2), Some(p1)) = (
            plain_reg(&f.insts[n].operands[0]),
            plain_reg(&f.insts[n].operands[1]),
        ) else {
            continue;
        };
        if p1 == p2 || facts.single_writer(p2) != Some(n) || is_param(f, p2) {
            continue;
        }
        let readers: Vec<InstId> = facts.readers(p2).to_vec();
        if readers.is_empty() {
            continue;
        }
        let mut folded = 0usize;
        let mut why_not: Option<String> = None;
        for &u in &readers {
            let inst = &f.insts[u];
            let guard_use = inst.guard.is_some_and(|g| g.reg == p2);
            if !guard_use || reads_outside_guard(inst, p2) {
                why_not.get_or_insert_with(|| {
                    format!(
                        "`{}` reads {} as an operand, not a guard",
                        inst.opcode.text(),
                        reg_name(f, p2)
                    )
                });
                continue;
            }
            if !facts.dominates(n, u) || !facts.unchanged_between(f, p1, n, u) {
                why_not.get_or_insert_with(|| {
                    format!(
                        "{} may change between the `not` and `{}` ({} writers)",
                        reg_name(f, p1),
                        inst.opcode.text(),
                        facts.writers(p1).len()
                    )
                });
                continue;
            }
            if let Some(g) = f.insts[u].guard.as_mut() {
                g.reg = p1;
                g.negated = !g.negated;
                folded += 1;
            }
        }
        let total = readers.len();
        if folded > 0 {
            any = true;
            st.counts.not_folded += 1;
            let removed = folded == total;
            st.log.push(
                RemarkKind::Applied,
                "not-pred",
                origin(f, n),
                format!(
                    "`not.pred {}, {}` folded into {folded} of {total} guards as `@!{}`{}",
                    reg_name(f, p2),
                    reg_name(f, p1),
                    reg_name(f, p1),
                    if removed { "; removed" } else { "" }
                ),
            );
            if removed {
                remove_keeping_locs(f, b, n);
            }
        }
        if let Some(why) = why_not {
            st.log.push(
                RemarkKind::Missed,
                "not-pred",
                origin(f, n),
                format!(
                    "`not.pred {}, {}` kept for {} of {total} readers: {why}",
                    reg_name(f, p2),
                    reg_name(f, p1),
                    total - folded
                ),
            );
        }
    }
    any
}

/// Rule 3.
fn remove_unreachable(f: &mut Function, st: &mut State) -> bool {
    let g = st.graph(f);
    let keep = branch_target_blocks(f);
    let dead: Vec<BlockId> = f
        .layout
        .iter()
        .copied()
        .filter(|&b| !g.is_reachable(b) && !keep.contains(&b))
        .collect();
    if dead.is_empty() {
        return false;
    }
    for &b in &dead {
        let n = f.blocks[b].insts.len();
        let at = f.blocks[b].insts.first().and_then(|&i| origin(f, i));
        st.log.push(
            RemarkKind::Applied,
            "unreachable",
            at,
            format!(
                "removed unreachable block {} ({n} instructions)",
                label_name(f, b)
            ),
        );
        st.counts.unreachable += 1;
    }
    // Move the removed blocks' `.loc` lines to the next kept instruction.
    let mut pending = ptx_ir::ir::Locs::new();
    let dead_set: FxHashSet<BlockId> = dead.iter().copied().collect();
    let layout = f.layout.clone();
    for &b in &layout {
        if dead_set.contains(&b) {
            let insts = std::mem::take(&mut f.blocks[b].insts);
            for i in insts {
                let locs = std::mem::take(&mut f.insts[i].locs);
                pending = ptx_ir::ir::Locs::join(std::mem::take(&mut pending), locs);
            }
        } else if !pending.is_empty() && !f.blocks[b].insts.is_empty() {
            give_locs(f, b, 0, std::mem::take(&mut pending));
        }
    }
    f.layout.retain(|b| !dead_set.contains(b));
    true
}

/// Rule 4.
fn jumps_to_next(f: &mut Function, st: &mut State) -> bool {
    let mut edits = Vec::new();
    for (pos, &b) in f.layout.iter().enumerate() {
        let Some(last) = last_inst(f, b) else {
            continue;
        };
        let Some(target) = bra_target(f, last) else {
            continue;
        };
        if f.layout.get(pos + 1) == Some(&target) {
            edits.push((b, last));
        }
    }
    for &(b, i) in &edits {
        st.log.push(
            RemarkKind::Applied,
            "jump-to-next",
            origin(f, i),
            format!(
                "removed `{}` to the next block {}",
                f.insts[i].opcode.text(),
                label_name(
                    f,
                    bra_target(f, i).unwrap_or_else(|| f.layout.first().copied().unwrap_or(b))
                )
            ),
        );
        remove_keeping_locs(f, b, i);
        st.counts.jumps_to_next += 1;
    }
    !edits.is_empty()
}

/// Empty blocks that are a loop's preheader: the one block entering the
/// header from outside the loop, falling into it. Phase 18 makes them (so
/// that LICM has a place to hoist to) and they are kept: removing one here
/// would only have phase 18 make it again, under a new label, every time
/// the pipeline runs on its own output.
fn preheaders(f: &Function, st: &mut State) -> FxHashSet<BlockId> {
    let mut out = FxHashSet::default();
    if f.layout.iter().all(|&b| !f.blocks[b].insts.is_empty()) {
        return out;
    }
    let graph = st.graph(f);
    let dom = st.dom(f);
    for (pos, &b) in f.layout.iter().enumerate() {
        if !f.blocks[b].insts.is_empty() {
            continue;
        }
        let Some(&header) = f.layout.get(pos + 1) else {
            continue;
        };
        let preds = graph.preds(header);
        let is_header = preds.iter().any(|&p| dom.dominates(header, p));
        let sole_entry = preds.iter().all(|&p| p == b || dom.dominates(header, p));
        if is_header && sole_entry {
            out.insert(b);
        }
    }
    out
}

/// Rule 5.
fn empty_blocks(f: &mut Function, st: &mut State) -> bool {
    let mut keep = branch_target_blocks(f);
    keep.extend(preheaders(f, st));
    let Some(&entry) = f.layout.first() else {
        return false;
    };
    let mut any = false;
    let candidates: Vec<BlockId> = f.layout.iter().copied().filter(|&b| b != entry).collect();
    // The placed instructions naming each block as a label: a redirect
    // visits only those (`Function::replace_branch_target` scans every
    // instruction, once per empty block: quadratic on the `-g` modules, whose
    // `$L__tmp` labels are empty blocks).
    let mut users: FxHashMap<BlockId, Vec<InstId>> = FxHashMap::default();
    for &blk in &f.layout {
        for &i in &f.blocks[blk].insts {
            for op in &f.insts[i].operands {
                if let Operand::Label(t) = op {
                    let v = users.entry(*t).or_default();
                    if v.last() != Some(&i) {
                        v.push(i);
                    }
                }
            }
        }
    }
    for b in candidates {
        let Some(pos) = f.layout.iter().position(|&x| x == b) else {
            continue;
        };
        let blk = &f.blocks[b];
        if keep.contains(&b) {
            continue;
        }
        let target = match blk.insts.as_slice() {
            [] => match f.layout.get(pos + 1) {
                Some(&next) => next,
                None => continue,
            },
            [i] if f.insts[*i].guard.is_none() => match bra_target(f, *i) {
                Some(t) if t != b => t,
                _ => continue,
            },
            _ => continue,
        };
        if !blk.pragmas.is_empty() {
            st.log.push(
                RemarkKind::Missed,
                "empty-block",
                blk.insts.first().and_then(|&i| origin(f, i)),
                format!(
                    "empty block {} kept: it carries `.pragma` {:?}",
                    label_name(f, b),
                    blk.pragmas
                ),
            );
            continue;
        }
        let empty = blk.insts.is_empty();
        let n = redirect(f, &mut users, b, target);
        if empty {
            let labeled = f.blocks[b].label.is_some();
            f.layout.remove(pos);
            st.counts.empty_bypassed += 1;
            any = true;
            if !labeled && n == 0 {
                // What a removed branch left behind: said by that remark.
                continue;
            }
            st.log.push(
                RemarkKind::Applied,
                "empty-block",
                None,
                if n == 0 {
                    format!("removed empty block {}", label_name(f, b))
                } else {
                    format!(
                        "removed empty block {} ({n} branches now go to {})",
                        label_name(f, b),
                        label_name(f, target)
                    )
                },
            );
        } else if n > 0 {
            st.counts.empty_bypassed += 1;
            any = true;
            let at = f.blocks[b].insts.first().and_then(|&i| origin(f, i));
            st.log.push(
                RemarkKind::Applied,
                "empty-block",
                at,
                format!(
                    "bypassed block {} holding only `bra`: {n} branches now go to {}",
                    label_name(f, b),
                    label_name(f, target)
                ),
            );
        }
    }
    any
}

/// `Function::replace_branch_target(from, to)` over the instructions
/// `users` says name `from` (kept up to date: they now name `to`).
fn redirect(
    f: &mut Function,
    users: &mut FxHashMap<BlockId, Vec<InstId>>,
    from: BlockId,
    to: BlockId,
) -> usize {
    let mut count = 0;
    let moved = users.remove(&from).unwrap_or_default();
    for &i in &moved {
        if f.has_inst(i) {
            f.insts[i].map_labels(|b| {
                if b == from {
                    count += 1;
                    to
                } else {
                    b
                }
            });
        }
    }
    for local in &mut f.locals {
        if let LocalDecl::BranchTargets { targets, .. } = local {
            for t in targets.iter_mut().filter(|t| **t == from) {
                *t = to;
                count += 1;
            }
        }
    }
    let v = users.entry(to).or_default();
    for i in moved {
        if !v.contains(&i) {
            v.push(i);
        }
    }
    count
}

/// The blocks a label operand (a `bra` target) names.
fn label_operand_blocks(f: &Function) -> FxHashSet<BlockId> {
    f.insts_in_order()
        .flat_map(|(_, inst)| inst.operands.iter())
        .filter_map(|op| match op {
            Operand::Label(t) => Some(*t),
            _ => None,
        })
        .collect()
}

/// Rule 6 alone, for a phase that leaves straight-line blocks behind (phase
/// 22 after a full unroll); its remarks are this phase's, not reported.
pub(crate) fn merge_straight_line(f: &mut Function) {
    let mut st = State::new(PhaseId::OriBranchOpt, None);
    for _ in 0..MAX_ROUNDS {
        if !merge_blocks(f, &mut st) {
            break;
        }
        st.changed();
    }
}

/// Rule 6.
fn merge_blocks(f: &mut Function, st: &mut State) -> bool {
    let keep = branch_target_blocks(f);
    let g = st.graph(f);
    let named = label_operand_blocks(f);
    let mut any = false;
    let mut pos = 0;
    // The block whose instructions end the one at `pos` (itself, or the
    // last block merged into it this time): the CFG, made before the
    // merges, answers for it.
    let mut tail: Option<BlockId> = None;
    while pos + 1 < f.layout.len() {
        let (a, b) = (f.layout[pos], f.layout[pos + 1]);
        let t = tail.unwrap_or(a);
        let falls = match last_inst(f, a) {
            Some(l) => !f.insts[l].is_terminator(),
            None => true,
        };
        let ok = falls
            && g.preds(b) == [t]
            && g.succs(t) == [b]
            && !keep.contains(&b)
            && !named.contains(&b)
            && f.blocks[b].pragmas.is_empty();
        if !ok {
            if falls && g.preds(b) == [t] && !f.blocks[b].pragmas.is_empty() {
                st.log.push(
                    RemarkKind::Missed,
                    "merge",
                    f.blocks[b].insts.first().and_then(|&i| origin(f, i)),
                    format!(
                        "block {} not merged into its predecessor: it carries `.pragma` {:?}",
                        label_name(f, b),
                        f.blocks[b].pragmas
                    ),
                );
            }
            pos += 1;
            tail = None;
            continue;
        }
        let moved = std::mem::take(&mut f.blocks[b].insts);
        st.log.push(
            RemarkKind::Applied,
            "merge",
            moved.first().and_then(|&i| origin(f, i)),
            format!(
                "merged block {} ({} instructions) into its only predecessor",
                label_name(f, b),
                moved.len()
            ),
        );
        f.blocks[a].insts.extend(moved);
        f.layout.remove(pos + 1);
        st.counts.merged += 1;
        any = true;
        // `a` now ends with `b`: it may merge with the block after `b`,
        // which the CFG knows as `b`'s successor.
        tail = Some(b);
    }
    any
}

/// Whether `y` heads a dead-end region: the blocks reachable from it (at
/// most [`DEAD_END_BLOCKS`]) are entered only through `y` and none of them
/// leads back (the out-of-line `abort(); exit;` paths of `-O3` code). Rule 7
/// leaves a jump to such a region alone when the jump is its only entry: ptxas lays out and allocates
/// `@p bra X; bra.uni Y; X:` better than `@!p bra Y; X:` when `Y` never
/// returns (2 to 4 more registers on three dealii kernels, `cargo xtask
/// regs`), and the -O0 ladders rule 7 is for jump to a join block, which
/// has another predecessor.
fn dead_end(g: &cfg::Cfg, y: BlockId) -> bool {
    let mut seen = vec![y];
    let mut stack = vec![y];
    while let Some(b) = stack.pop() {
        for &s in g.succs(b) {
            if s == y || seen.contains(&s) {
                // A loop back to the region's head, or a join inside it.
                if s == y {
                    return false;
                }
                continue;
            }
            if seen.len() == DEAD_END_BLOCKS {
                return false;
            }
            seen.push(s);
            stack.push(s);
        }
    }
    seen[1..]
        .iter()
        .all(|&b| g.preds(b).iter().all(|p| seen.contains(p)))
}

/// The most blocks [`dead_end`] follows from a jump target.
const DEAD_END_BLOCKS: usize = 8;

/// Rule 7.
fn branch_over_jump(f: &mut Function, st: &mut State) -> bool {
    let keep = branch_target_blocks(f);
    let g = st.graph(f);
    let named = label_operand_blocks(f);
    let mut any = false;
    let mut pos = 0;
    while pos + 2 < f.layout.len() {
        let (a, b, x) = (f.layout[pos], f.layout[pos + 1], f.layout[pos + 2]);
        pos += 1;
        let Some(br) = last_inst(f, a) else { continue };
        let Some(guard) = f.insts[br].guard else {
            continue;
        };
        if bra_target(f, br) != Some(x) {
            continue;
        }
        let jump = match f.blocks[b].insts.as_slice() {
            [j] if f.insts[*j].guard.is_none() => *j,
            _ => continue,
        };
        let Some(y) = bra_target(f, jump) else {
            continue;
        };
        if y == b
            || (g.preds(y) == [b] && dead_end(&g, y))
            || g.preds(b) != [a]
            || keep.contains(&b)
            || named.contains(&b)
            || !f.blocks[b].pragmas.is_empty()
        {
            continue;
        }
        let gname = reg_name(f, guard.reg).to_string();
        let (old, new) = if guard.negated {
            ("@!", "@")
        } else {
            ("@", "@!")
        };
        st.log.push(
            RemarkKind::Applied,
            "branch-over-jump",
            origin(f, br),
            format!(
                "`{old}{gname} bra {}` over `bra {}` became `{new}{gname} {} {}`",
                label_name(f, x),
                label_name(f, y),
                f.insts[br].opcode.text(),
                label_name(f, y)
            ),
        );
        let inst = &mut f.insts[br];
        inst.guard = Some(ptx_ir::ir::Guard {
            reg: guard.reg,
            negated: !guard.negated,
        });
        inst.map_labels(|t| if t == x { y } else { t });
        remove_keeping_locs(f, b, jump);
        f.layout.remove(pos);
        st.counts.inverted += 1;
        any = true;
    }
    any
}
