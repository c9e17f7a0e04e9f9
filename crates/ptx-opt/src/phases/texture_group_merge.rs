//! cicc `texture-group-merge` (NVIDIA-only, `sub_2DDE8C0`): texture fetches
//! of the same texture in a block are brought together, so that the
//! texture unit sees them back to back.
//!
//! Seed: `003_5f2fcdae57e69502.txt`, "Texture Group Merge": "Fibonacci
//! Hashing" (`hash = (key * 0xBF58476D1CE4E5B9) >> shift`, `2^(64 - shift)`
//! buckets), "Algorithm Detail" (walk the block, identify candidates, hash
//! the key into a bucket, insert into the group table; group entries keyed
//! by the texture base/descriptor with their member lists; the `.Tgm`
//! suffix of group names) and "4-Callback Framework" (candidate
//! identification, group formation, merge execution, cleanup). No knobs:
//! the seed lists none for this pass.
//!
//! # Adapted to PTX
//!
//! - **Candidates** (callback 1): `tex` and `tld4` fetches (not `txq`, a
//!   query), keyed by their texture operand: the `.texref` symbol, or the
//!   register holding a bindless texture object. The key's bits (an FNV-1a
//!   hash of the symbol name, or the register number) go through the
//!   Fibonacci hash; the table has the smallest power of two of at least
//!   16 buckets and twice the candidates, so `shift = 64 - log2(buckets)`.
//! - **Groups** (callback 2): in a bucket, the candidates with the same key
//!   (compared exactly, not by hash) inside one scheduling region of
//!   [`super::machine_scheduler`] (nothing moves across barriers, calls,
//!   volatile accesses and the like) form a group when there are at least
//!   two. A group is named `<texture>.Tgm` in remarks.
//! - **Merge** (callback 3): PTX has no grouped texture instruction, so the
//!   merge is a motion: the block's order is rebuilt walking it top-down;
//!   right after a group member, each later member of its group is pulled
//!   up, together with the not-yet-placed instructions it depends on, when
//!   those are at most [`MAX_PULLED`] pure, unguarded register instructions
//!   (coordinate arithmetic). A member that depends on a memory access,
//!   on another fetch's result, or on more arithmetic stays where it is (a
//!   missed remark names it). Every instruction is placed only after all
//!   its DAG predecessors ([`super::machine_scheduler::build_dag`]:
//!   register RAW/WAR/WAW, carry flag, memory order by state space), so the
//!   result is a topological order of the same DAG.
//! - **Cleanup** (callback 4): the tables are dropped; the block keeps its
//!   new order only if MRPA's maximum for the block does not grow (else it
//!   is put back, with a missed remark), as the scheduler.
//!
//! `machine-scheduler`, which runs after this phase, keeps the groups
//! together: a fetch of the texture the last fetch read wins over depth.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use ptx_ir::ir::{BlockId, Function, InstId};

use super::machine_scheduler::{
    apply_order, block_label, build_dag, guard_pressure, kept_order_remark, regions, Node, TexKey,
};
use crate::context::{mrpa_config, PassContext};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// The most instructions pulled up with one fetch.
pub const MAX_PULLED: usize = 8;

/// The seed's 64-bit Fibonacci hash multiplier.
pub const FIBONACCI: u64 = 0xBF58476D1CE4E5B9;

/// `(key * 0xBF58476D1CE4E5B9) >> shift`.
pub fn fibonacci_hash(key: u64, shift: u32) -> u64 {
    key.wrapping_mul(FIBONACCI) >> shift.min(63)
}

fn key_bits(key: &TexKey) -> u64 {
    match key {
        TexKey::Symbol(s) => {
            let mut h: u64 = 0xcbf29ce484222325;
            for b in s.bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
            h
        }
        TexKey::Reg(r) => r.into_raw().into_u32() as u64,
    }
}

/// A group table entry: the key and its members (node indices).
struct Group {
    key: TexKey,
    members: Vec<usize>,
}

/// Callbacks 1 and 2: the groups of one region (members in order).
fn form_groups(nodes: &[Node]) -> Vec<Group> {
    let candidates: Vec<usize> = (0..nodes.len())
        .filter(|&k| nodes[k].tex.is_some())
        .collect();
    if candidates.len() < 2 {
        return Vec::new();
    }
    let buckets = (2 * candidates.len()).next_power_of_two().max(16);
    let shift = 64 - buckets.trailing_zeros();
    let mut table: Vec<Vec<Group>> = (0..buckets).map(|_| Vec::new()).collect();
    for &k in &candidates {
        let Some(key) = nodes[k].tex.clone() else {
            continue;
        };
        let bucket = &mut table[fibonacci_hash(key_bits(&key), shift) as usize];
        match bucket.iter_mut().find(|g| g.key == key) {
            Some(g) => g.members.push(k),
            None => bucket.push(Group {
                key,
                members: vec![k],
            }),
        }
    }
    let mut groups: Vec<Group> = table
        .into_iter()
        .flatten()
        .filter(|g| g.members.len() >= 2)
        .collect();
    groups.sort_by_key(|g| g.members[0]);
    groups
}

/// The not-yet-placed ancestors of `k` (in order), or `None` when one is
/// not pure arithmetic or there are more than [`MAX_PULLED`].
fn pull_set(nodes: &[Node], placed: &[bool], k: usize) -> Option<Vec<usize>> {
    let mut set: Vec<usize> = Vec::new();
    let mut stack: Vec<usize> = nodes[k].preds.iter().map(|&(p, _)| p).collect();
    while let Some(p) = stack.pop() {
        if placed[p] || set.contains(&p) {
            continue;
        }
        if !nodes[p].pure_alu || set.len() == MAX_PULLED {
            return None;
        }
        set.push(p);
        stack.extend(nodes[p].preds.iter().map(|&(q, _)| q));
    }
    set.sort_unstable();
    Some(set)
}

/// Callback 3 on one region: the new order, and the members left in place.
fn merge(nodes: &[Node], groups: &[Group]) -> (Vec<usize>, Vec<usize>) {
    let mut group_of: HashMap<usize, usize> = HashMap::default();
    for (g, group) in groups.iter().enumerate() {
        for &m in &group.members {
            group_of.insert(m, g);
        }
    }
    let mut placed = vec![false; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut stuck = Vec::new();
    for k in 0..nodes.len() {
        if placed[k] {
            continue;
        }
        placed[k] = true;
        order.push(k);
        let Some(&g) = group_of.get(&k) else {
            continue;
        };
        for &m in &groups[g].members {
            if m <= k || placed[m] {
                continue;
            }
            match pull_set(nodes, &placed, m) {
                Some(set) => {
                    for p in set {
                        placed[p] = true;
                        order.push(p);
                    }
                    placed[m] = true;
                    order.push(m);
                }
                None => {
                    stuck.push(m);
                    break;
                }
            }
        }
    }
    (order, stuck)
}

/// Runs the phase on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let has_tex = input
        .insts_in_order()
        .any(|(_, i)| super::machine_scheduler::texture_key(i).is_some());
    if !has_tex {
        return PhaseOutput::unchanged(input);
    }
    let target = ctx.target();
    let mut f = (**input).clone();
    let mut mrpa = super::version_cache::mrpa(input, mrpa_config(ctx));
    let mut mismatch = None;
    let mut remarks = Vec::new();
    let (mut groups_total, mut moved_total) = (0u64, 0u64);
    let blocks: Vec<BlockId> = f.layout.clone();
    for b in blocks {
        let saved = f.blocks[b].insts.clone();
        let saved_locs: Vec<_> = saved.iter().map(|&i| f.insts[i].locs.clone()).collect();
        let mut block_remarks = Vec::new();
        let (mut block_groups, mut block_moved) = (0u64, 0u64);
        for range in regions(&f, b) {
            let insts: Vec<InstId> = saved[range.clone()].to_vec();
            let nodes = build_dag(&f, &insts, &target);
            let groups = form_groups(&nodes);
            if groups.is_empty() {
                continue;
            }
            let (order, stuck) = merge(&nodes, &groups);
            for &m in &stuck {
                let name = nodes[m]
                    .tex
                    .as_ref()
                    .map(|t| t.text(&f))
                    .unwrap_or_default();
                block_remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Missed,
                    name: "texture-group",
                    origin: origin(&f, nodes[m].inst),
                    message: format!(
                        "fetch of `{name}` left in place (group {name}.Tgm): it depends on a memory access, another fetch, or more than {MAX_PULLED} instructions not yet placed"
                    ),
                });
            }
            if order.iter().enumerate().all(|(p, &k)| p == k) {
                continue;
            }
            for g in &groups {
                let moved = g
                    .members
                    .iter()
                    .filter(|&&m| order.iter().position(|&k| k == m).is_some_and(|p| p < m))
                    .count() as u64;
                if moved == 0 {
                    continue;
                }
                let name = g.key.text(&f);
                block_remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "texture-group",
                    origin: origin(&f, nodes[g.members[0]].inst),
                    message: format!(
                        "grouped {} fetches of `{name}` in {} ({name}.Tgm): {moved} moved up",
                        g.members.len(),
                        block_label(&f, b)
                    ),
                });
                block_groups += 1;
                block_moved += moved;
            }
            apply_order(&mut f, b, range.clone(), &nodes, &order);
        }
        if block_groups == 0 {
            remarks.extend(block_remarks);
            continue;
        }
        match guard_pressure(&mut f, &mut mrpa, b, saved, saved_locs, &mut mismatch) {
            Some((old, new)) => remarks.push(kept_order_remark(id, &f, b, old, new)),
            None => {
                remarks.extend(block_remarks);
                groups_total += block_groups;
                moved_total += block_moved;
            }
        }
    }
    if let Some(message) = mismatch {
        remarks.push(crate::context::mrpa_mismatch_remark(id, None, message));
    }
    if groups_total == 0 {
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
                name: "texture groups",
                value: groups_total,
            },
            Stat {
                name: "fetches moved",
                value: moved_total,
            },
        ],
        loops: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fibonacci_hash_spreads_consecutive_keys() {
        // 1024 buckets: shift 54 (the seed's example).
        let buckets: Vec<u64> = (0..8).map(|k| fibonacci_hash(k, 54)).collect();
        assert!(buckets.iter().all(|&b| b < 1024));
        let mut sorted = buckets.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 8, "{buckets:?}");
        assert_eq!(fibonacci_hash(1, 0), FIBONACCI);
    }
}
