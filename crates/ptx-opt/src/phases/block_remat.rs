//! NVPTXBlockRemat (cicc `nvptx-remat-block`): where a block's pressure is
//! over the register target, values live out of it that are cheap to
//! compute again (constants, special registers, parameter loads, and the
//! address arithmetic over them) are recomputed at their uses in the other
//! blocks instead of being kept live across.
//!
//! Seed: `002_164789385e2e817e.txt`, "NVPTXBlockRemat (sub_217DBF0) --
//! Machine-Level Block Rematerialization" (algorithm A-D: live-out
//! frequency counting, the outer loop bounded by `nv-remat-max-times`,
//! max-live per block against the target, pullable live-out values
//! (MULTIDEF: one definition; recursive pullability up to depth 50), the
//! second-chance heuristic, cost analysis and cheapest-first selection,
//! the pull-in, cascading dead removal); "NVPTXBlockRemat Knobs".
//! Pressure comes from MRPA ([`ptx_analysis::mrpa`]), updated after each
//! pull-in, verified when `verify-update-mcse` is on (a mismatch becomes a
//! missed remark carrying the message).
//!
//! # Knobs
//!
//! `nv-remat-default-max-reg` (70; `--maxrregcount` wins when given:
//! [`PassContext::max_regs`]), `nv-remat-max-times` (10),
//! `nv-remat-block-single-cost` (10), `nv-remat-block-max-cost` (100),
//! `nv-remat-block-map-size-limit` (6: the most instructions one pulled value
//! may take to recompute), `nv-remat-block-liveout-min-percentage` (70),
//! `nv-remat-block-loop-cost-factor` (20), `nv-remat-block-load-cost` (10),
//! `nv-remat-threshold-for-spec-reg` (20), `load-remat` (on), `nv-remat-block`
//! (14), `no-mi-remat` (function names, comma or space separated),
//! `nv-dump-remat-block` (off: the seed's log lines as remarks),
//! `nv-remat-leave-constant-bank` (on; ptxopt's own, below), and MRPA's
//! `incremental-update-mcse`, `verify-update-mcse`, `print-verify`.
//! `nv-remat-check-internal-live` and `max-reg-kind` select among ptxas
//! variants of the max-live computation that PTX has one of; not read.
//!
//! # Adapted to PTX (choices)
//!
//! - **Mode bits** (`nv-remat-block`; the seed names bits 0-3 without their
//!   meaning): bit 0 (1) loads of `.global.nc`; bit 1 (2) immediates,
//!   symbol addresses and integer arithmetic, `cvt` and `cvta` over
//!   pullable values; bit 2 (4) special registers (not the volatile ones:
//!   `%clock`, `%smid`, ...); bit 3 (8) `ld.param` of the kernel's own
//!   parameters and `ld.const` (with `load-remat`). The default 14 pulls all
//!   but `.nc` loads (global memory may be written by the kernel; `.nc`
//!   promises it is not, but we keep that opt-in).
//! - **Pullable**: a register with exactly one definition, unguarded,
//!   dominating every use, whose instruction is of an enabled kind and whose
//!   register operands are pullable in turn (depth at most 50, at most
//!   `map-size-limit` instructions in all). Its value is then a function of
//!   constants, parameters and per-thread special registers only, so a copy
//!   anywhere computes the same value: the transformation cannot change
//!   results.
//! - **Cost**: 1 per instruction, `load-cost` per load, times
//!   `loop-cost-factor` when a use block is in a deeper loop than the
//!   definition, summed over the blocks that get a copy; 64-bit values count
//!   2 for the pressure they free.
//! - **Pull-in**: in every block where the register is live in and read,
//!   copies of its instructions (fresh registers) go before the first read,
//!   and the block's reads use the copy. The register is then live only in
//!   its own block; its definition, unread, goes in the cascading removal.
//! - **Second chance**: when a block's excess is larger than what the first
//!   selection pulls, values rejected for cost (over `single-cost`) whose
//!   live-out frequency is at least `liveout-min-percentage` of the blocks
//!   get another look under `max-cost`.
//! - `nv-remat-threshold-for-spec-reg`: at most that many copies of
//!   special-register reads per function.
//! - **Left to ptxas** (`nv-remat-leave-constant-bank`, on): a chain that
//!   reads no per-thread special register (`%tid`, `%ctaid`, `%laneid`,
//!   ... which SASS reads with `S2R`) is not pullable: its leaves are
//!   parameters, `ld.const`, launch dimensions (`%ntid`, `%nctaid`),
//!   immediates and symbol addresses, all constant-bank operands or
//!   immediates in SASS that ptxas rematerializes by itself, so a PTX copy
//!   only adds instructions. Measured with `cargo xtask regs` (its
//!   register-limit part, 3/4 of each file's largest count): `gemm_tile8`
//!   spilled 16 bytes against x's 8 when its `%nctaid`, shared-array
//!   addresses and `%ntid.x * %ntid.y` were pulled, 0 when they are left;
//!   `stencil2d_5pt`'s pulled `%ctaid.x * %ntid.x + %tid.x` takes it from
//!   24 spill bytes to 0.
//!
//! # Measured
//!
//! The figures below were taken before `nv-remat-leave-constant-bank`
//! (above) and before GvnCse and LateOriCommoning stopped undoing pulls
//! under a `--maxrregcount` limit; they are kept as the reason for both.
//!
//! Correct by construction (every pulled value is a pure function of
//! constants, parameters and per-thread special registers) and checked on
//! the emulator (filetests; `ptxopt verify --knob nv-remat-default-max-reg=4`
//! on the test-data examples: all equal; `=8` on dealii: 75 launches equal,
//! none different, when the debug build's 15-minute limit stopped it). It does not help ptxas
//! yet: dealii built with `--maxrregcount 24` (remat aiming at 24 PTX
//! units) and assembled with `ptxas -arch=sm_80 -maxrregcount 24` spills
//! 18,012 bytes (stores + loads) against 17,544 without the pass (+2.7%):
//! ptxas rematerializes parameters and constants from the constant bank by
//! itself, so copying them at the PTX level only adds instructions, and a
//! few kernels that did not spill start to (0 -> 24..32 bytes). With the
//! default target (70 units) it fires on one function of test-data
//! (`families/integer.ptx`, 141 units live; ptxas accepts the output,
//! `ptxopt verify` equal) and on none of dealii or the bench-quality
//! kernels. Aiming it by the register estimate
//! ([`ptx_analysis::reg_estimate`]) instead of PTX live units is what is
//! left.

use std::collections::BTreeSet;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use ptx_analysis::{cfg, dominators, liveness, loops};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{AddressBase, BlockId, Function, FunctionKind, InstId, Operand, RegClass, RegId};
use ptx_isa::{FamilyId, Space};
use ptx_knobs::knobs;

use crate::context::{mrpa_config, PassContext};
use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

const MAX_DEPTH: usize = 50;

/// The knobs, read once.
struct Knobs {
    target: u32,
    max_times: u32,
    single_cost: u32,
    map_size: usize,
    max_cost: u32,
    liveout_pct: u32,
    loop_factor: u32,
    load_cost: u32,
    spec_threshold: u32,
    modes: u32,
    load_remat: bool,
    dump: bool,
    leave_cbank: bool,
}

fn int(ctx: &dyn PassContext, k: ptx_knobs::IntKnob) -> u32 {
    ctx.int(k).clamp(0, u32::MAX as i64) as u32
}

/// A pullable value: the instructions that compute it (operands first) and
/// their cost at one use block.
#[derive(Clone, Debug)]
struct Chain {
    insts: Vec<InstId>,
    base_cost: u32,
    special: u32,
}

/// Runs the pass on one function.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let skip: Vec<String> = ctx
        .string(knobs::no_mi_remat)
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if input.layout.len() <= 1 {
        return PhaseOutput::unchanged(input);
    }
    let mut remarks = Vec::new();
    if skip.iter().any(|s| s == input.name()) {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Missed,
            name: "remat-skipped",
            origin: None,
            message: format!(
                "Skip machine-instruction rematerialization on {} (no-mi-remat)",
                input.name()
            ),
        });
        return PhaseOutput {
            remarks,
            ..PhaseOutput::unchanged(input)
        };
    }
    let k = Knobs {
        target: ctx
            .max_regs()
            .unwrap_or_else(|| int(ctx, knobs::nv_remat_default_max_reg)),
        max_times: int(ctx, knobs::nv_remat_max_times),
        single_cost: int(ctx, knobs::nv_remat_block_single_cost),
        map_size: int(ctx, knobs::nv_remat_block_map_size_limit) as usize,
        max_cost: int(ctx, knobs::nv_remat_block_max_cost),
        liveout_pct: int(ctx, knobs::nv_remat_block_liveout_min_percentage),
        loop_factor: int(ctx, knobs::nv_remat_block_loop_cost_factor).max(1),
        load_cost: int(ctx, knobs::nv_remat_block_load_cost),
        spec_threshold: int(ctx, knobs::nv_remat_threshold_for_spec_reg),
        modes: int(ctx, knobs::nv_remat_block),
        load_remat: ctx.bool(knobs::load_remat),
        leave_cbank: ctx.bool(knobs::nv_remat_leave_constant_bank),
        dump: ctx.bool(knobs::nv_dump_remat_block),
    };
    let dump = |remarks: &mut Vec<Remark>, message: String| {
        if k.dump {
            remarks.push(Remark {
                phase: id,
                kind: RemarkKind::Applied,
                name: "remat-dump",
                origin: None,
                message,
            });
        }
    };
    // Pressure first: a function under the target (most of them) needs
    // neither its copy nor the other analyses.
    let max = super::version_cache::mrpa_max(input, mrpa_config(ctx));
    if k.target >= max.r.value {
        if k.dump {
            let blocks = cfg(input).blocks.len();
            dump(
                &mut remarks,
                format!("Max-Live-Function({blocks}) = {}", max.r.value),
            );
        }
        return PhaseOutput {
            remarks,
            stats: vec![Stat {
                name: "iterations",
                value: 1,
            }],
            ..PhaseOutput::unchanged(input)
        };
    }
    let mut mrpa = super::version_cache::mrpa(input, mrpa_config(ctx));
    let mut f = (**input).clone();
    let g = cfg(input);
    let dom = dominators(&g);
    let lf = loops(&g, &dom);

    // (B) Live-out frequency: in how many blocks each register is live out.
    let nblocks = g.blocks.len().max(1) as u32;
    let freq: HashMap<RegId, u32> = {
        let lv = liveness(&f, &g);
        let mut freq = HashMap::default();
        for &b in &g.blocks {
            for r in ptx_analysis::Liveness::regs(lv.live_out(b)) {
                *freq.entry(r).or_insert(0) += 1;
            }
        }
        freq
    };

    let mut facts_memo: Option<Facts> = None;
    let mut facts_stale = false;
    let mut pulled: Vec<(RegId, InstId)> = Vec::new();
    let (mut clones, mut iterations, mut spec_copies) = (0u64, 0u64, 0u32);
    let mut mismatches = 0u64;
    // (C) The outer loop.
    for _ in 0..k.max_times {
        iterations += 1;
        let max_live = mrpa.max().r.value;
        dump(
            &mut remarks,
            format!("Max-Live-Function({}) = {max_live}", g.blocks.len()),
        );
        if k.target >= max_live {
            break;
        }
        let mut changed = false;
        let over: Vec<BlockId> = g
            .blocks
            .iter()
            .copied()
            .filter(|&b| g.is_reachable(b) && mrpa.block_max(b).r.value > k.target)
            .collect();
        for b in over {
            let pressure = mrpa.block_max(b).r.value;
            if pressure <= k.target {
                continue;
            }
            let excess = pressure - k.target;
            // The defs and uses of `f` as it is now (rebuilt after a pull-in).
            if std::mem::take(&mut facts_stale) {
                facts_memo = None;
            }
            let facts = facts_memo.get_or_insert_with(|| Facts::new(&f));
            let live_out: Vec<RegId> = f
                .regs
                .iter()
                .map(|(r, _)| r)
                .filter(|&r| mrpa.is_live_out(b, r))
                .collect();
            // (3) Pullable live-out values and their cost.
            let mut first: Vec<(RegId, Chain, u32)> = Vec::new();
            let mut second: Vec<(RegId, Chain, u32)> = Vec::new();
            for r in live_out {
                let Some(chain) = facts.chain(&f, &k, r, &dom) else {
                    continue;
                };
                let cost = facts.cost(&f, &k, &lf, r, &chain);
                if cost == 0 {
                    continue;
                }
                if cost <= k.single_cost {
                    first.push((r, chain, cost));
                } else {
                    second.push((r, chain, cost));
                }
            }
            dump(&mut remarks, format!("Pullable: {}", first.len()));
            // (4) Second chance.
            let freed = |list: &[(RegId, Chain, u32)]| -> u32 {
                list.iter().map(|(r, _, _)| units(&f, *r)).sum()
            };
            if excess > freed(&first) && !second.is_empty() {
                let before = first.len();
                for cand in second {
                    let pct = 100 * freq.get(&cand.0).copied().unwrap_or(0) / nblocks;
                    if cand.2 <= k.max_cost && pct >= k.liveout_pct {
                        first.push(cand);
                    }
                }
                dump(
                    &mut remarks,
                    format!("ADD {} candidates from second-chance", first.len() - before),
                );
            }
            dump(
                &mut remarks,
                format!("Total Pullable before considering cost: {}", first.len()),
            );
            // (6) Cheapest first, until the excess is covered.
            first.sort_by_key(|(r, _, cost)| (*cost, r.into_raw().into_u32()));
            let mut freed_units = 0;
            let mut total = 0;
            let mut chosen = Vec::new();
            for (r, chain, cost) in first {
                if freed_units >= excess || total + cost > k.max_cost {
                    break;
                }
                if chain.special > 0 && spec_copies + chain.special > k.spec_threshold {
                    continue;
                }
                freed_units += units(&f, r);
                total += cost;
                chosen.push((r, chain));
            }
            dump(
                &mut remarks,
                format!("Really Final Pull-in: {} ({total})", chosen.len()),
            );
            // (7) The pull-in.
            for (r, chain) in chosen {
                let Some(&def) = chain.insts.last() else {
                    continue;
                };
                let (blocks, copies) = pull_in(&mut f, r, &chain);
                if blocks.is_empty() {
                    continue;
                }
                spec_copies += chain.special * copies as u32;
                clones += (copies * chain.insts.len()) as u64;
                remarks.push(Remark {
                    phase: id,
                    kind: RemarkKind::Applied,
                    name: "remat",
                    origin: origin(&f, def),
                    message: format!(
                        "rematerialized {} ({} instruction{}) in {} block{}: {} over the target {} by {}",
                        f.regs[r].name,
                        chain.insts.len(),
                        if chain.insts.len() == 1 { "" } else { "s" },
                        copies,
                        if copies == 1 { "" } else { "s" },
                        ptx_analysis::cfg::block_name(b),
                        k.target,
                        excess
                    ),
                });
                pulled.push((r, def));
                changed = true;
                facts_stale = true;
                if let Err(e) = mrpa.update(&f, &blocks) {
                    mismatches += 1;
                    remarks.push(crate::context::mrpa_mismatch_remark(id, None, e.message));
                    mrpa.rebuild(&f);
                }
            }
        }
        if !changed {
            break;
        }
    }
    if pulled.is_empty() {
        return PhaseOutput {
            remarks,
            stats: vec![Stat {
                name: "iterations",
                value: iterations,
            }],
            ..PhaseOutput::unchanged(input)
        };
    }
    // (D) Cascading removal of the definitions nobody reads any more.
    let removed = remove_dead(&mut f, pulled.iter().map(|&(_, d)| d).collect());
    let stats = vec![
        Stat {
            name: "values rematerialized",
            value: pulled.len() as u64,
        },
        Stat {
            name: "instructions cloned",
            value: clones,
        },
        Stat {
            name: "definitions removed",
            value: removed,
        },
        Stat {
            name: "iterations",
            value: iterations,
        },
        Stat {
            name: "MRPA mismatches",
            value: mismatches,
        },
    ];
    PhaseOutput {
        function: Arc::new(f),
        remarks,
        stats,
        loops: Vec::new(),
    }
}

fn units(f: &Function, r: RegId) -> u32 {
    match f.regs[r].class {
        RegClass::P => 0,
        _ => ptx_analysis::reg_pressure::reg_units(&f.regs[r]),
    }
}

/// Defs and uses per register, and where each instruction is.
struct Facts {
    defs: HashMap<RegId, Vec<InstId>>,
    uses: HashMap<RegId, Vec<InstId>>,
    place: HashMap<InstId, (BlockId, usize)>,
}

impl Facts {
    fn new(f: &Function) -> Facts {
        let mut facts = Facts {
            defs: HashMap::default(),
            uses: HashMap::default(),
            place: HashMap::default(),
        };
        for &b in &f.layout {
            for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
                facts.place.insert(i, (b, pos));
                visit_defs_and_uses(&f.insts[i], |a, r| match a {
                    Access::Def => facts.defs.entry(r).or_default().push(i),
                    Access::Use => facts.uses.entry(r).or_default().push(i),
                });
            }
        }
        facts
    }

    /// The instructions recomputing `r` (operands first), when `r` is
    /// pullable (see the module documentation).
    fn chain(
        &self,
        f: &Function,
        k: &Knobs,
        r: RegId,
        dom: &ptx_analysis::DomTree,
    ) -> Option<Chain> {
        let mut chain = Chain {
            insts: Vec::new(),
            base_cost: 0,
            special: 0,
        };
        let mut seen = BTreeSet::new();
        self.visit(f, k, r, dom, 0, &mut chain, &mut seen)?;
        // `nv-remat-leave-constant-bank`: ptxas rematerializes
        // constant-bank values itself; a chain that reads no per-thread
        // special register is left to it.
        let per_thread = chain.insts.iter().any(|&i| reads_s2r(&f.insts[i]));
        ((per_thread || !k.leave_cbank) && chain.insts.len() <= k.map_size.max(1)).then_some(chain)
    }

    #[allow(clippy::too_many_arguments)]
    fn visit(
        &self,
        f: &Function,
        k: &Knobs,
        r: RegId,
        dom: &ptx_analysis::DomTree,
        depth: usize,
        chain: &mut Chain,
        seen: &mut BTreeSet<RegId>,
    ) -> Option<()> {
        if depth > MAX_DEPTH || chain.insts.len() > k.map_size {
            return None;
        }
        if !seen.insert(r) {
            return Some(());
        }
        let defs = self.defs.get(&r)?;
        let [def] = defs.as_slice() else {
            return None;
        };
        let inst = &f.insts[*def];
        if inst.guard.is_some() {
            return None;
        }
        // One result only.
        let mut results = 0;
        visit_defs_and_uses(inst, |a, _| results += usize::from(a == Access::Def));
        if results != 1 {
            return None;
        }
        // The definition dominates every use.
        let (db, dpos) = *self.place.get(def)?;
        for u in self.uses.get(&r).map(Vec::as_slice).unwrap_or(&[]) {
            let (ub, upos) = *self.place.get(u)?;
            let ok = if ub == db {
                dpos < upos
            } else {
                dom.dominates(db, ub)
            };
            if !ok {
                return None;
            }
        }
        let (cost, special) = kind_cost(f, k, *def)?;
        // Register operands: pullable in turn.
        let mut sources = Vec::new();
        visit_defs_and_uses(inst, |a, s| {
            if a == Access::Use {
                sources.push(s);
            }
        });
        for s in sources {
            self.visit(f, k, s, dom, depth + 1, chain, seen)?;
        }
        chain.insts.push(*def);
        chain.base_cost += cost;
        chain.special += special;
        Some(())
    }

    /// Cost of pulling `r` into every block that reads it from outside (0:
    /// no such block).
    fn cost(
        &self,
        f: &Function,
        k: &Knobs,
        lf: &ptx_analysis::LoopForest,
        r: RegId,
        chain: &Chain,
    ) -> u32 {
        let Some(&def) = chain.insts.last() else {
            return 0;
        };
        let Some(&(db, _)) = self.place.get(&def) else {
            return 0;
        };
        let blocks = read_from_outside(f, self, r, db);
        let mut total = 0u32;
        for b in blocks {
            let mut c = chain.base_cost.max(1);
            if lf.depth(b) > lf.depth(db) {
                c = c.saturating_mul(k.loop_factor);
            }
            total = total.saturating_add(c);
        }
        let wide = if units(f, r) > 1 { 2 } else { 1 };
        total.saturating_mul(wide)
    }
}

/// The blocks other than `def_block` that read `r` (where it is live in).
fn read_from_outside(f: &Function, facts: &Facts, r: RegId, def_block: BlockId) -> Vec<BlockId> {
    let mut out = Vec::new();
    for u in facts.uses.get(&r).map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(&(b, _)) = facts.place.get(u) {
            if b != def_block && !out.contains(&b) {
                out.push(b);
            }
        }
    }
    let _ = f;
    out
}

/// Whether `inst` reads a special register that SASS reads with `S2R`
/// (`%tid`, `%ctaid`, `%laneid`, ...), not one of the launch dimensions
/// (`%ntid`, `%nctaid`), which live in the constant bank like parameters.
fn reads_s2r(inst: &ptx_ir::ir::Inst) -> bool {
    inst.operands.iter().any(|op| {
        matches!(op, Operand::Special { name, .. }
            if !name.starts_with("%ntid") && !name.starts_with("%nctaid"))
    })
}

/// The cost of one instruction of a chain, and whether it reads a special
/// register; `None` when its kind is not enabled.
fn kind_cost(f: &Function, k: &Knobs, i: InstId) -> Option<(u32, u32)> {
    let inst = &f.insts[i];
    let info = &inst.opcode.info;
    let flags = info.flags;
    if flags.has_side_effects() || flags.is_volatile() || inst.reads_volatile_special() {
        return None;
    }
    if flags.contains(ptx_isa::OpFlags::CARRY_OUT) || flags.contains(ptx_isa::OpFlags::CARRY_IN) {
        return None;
    }
    let special = inst
        .operands
        .iter()
        .any(|op| matches!(op, Operand::Special { .. }));
    if flags.loads() {
        let from_param = info.space == Some(Space::Param)
            && f.sig.kind == FunctionKind::Entry
            && matches!(inst.operands.get(1), Some(Operand::Address(a))
                if matches!(&a.base, AddressBase::Symbol(s) if f.sig.params.iter().any(|p| &p.name == s)));
        let from_const = info.space == Some(Space::Const);
        let nc = info.family == FamilyId::LdGlobalNc || inst.opcode.has_modifier(".nc");
        let ok = if from_param || from_const {
            k.modes & 8 != 0 && k.load_remat
        } else if nc {
            k.modes & 1 != 0 && k.load_remat
        } else {
            false
        };
        let plain = info.family == FamilyId::Ld || info.family == FamilyId::LdGlobalNc;
        return (ok && plain && info.vec <= 1).then_some((k.load_cost.max(1), 0));
    }
    if !inst.is_pure() {
        return None;
    }
    if special {
        if k.modes & 4 == 0 || info.family != FamilyId::Mov {
            return None;
        }
        return Some((1, 1));
    }
    let arithmetic = matches!(
        info.family,
        FamilyId::Mov
            | FamilyId::Cvta
            | FamilyId::Cvt
            | FamilyId::Add
            | FamilyId::Sub
            | FamilyId::Mul
            | FamilyId::Mad
            | FamilyId::Shl
            | FamilyId::Shr
            | FamilyId::And
            | FamilyId::Or
            | FamilyId::Xor
    ) && !info.types.last().is_some_and(|t| t.is_float());
    (arithmetic && k.modes & 2 != 0).then_some((1, 0))
}

/// Copies `chain` into every block other than its own that reads `r` (and
/// into its own block before a read that comes around a loop), renaming the
/// reads there. Returns the blocks changed and the number of copies.
fn pull_in(f: &mut Function, r: RegId, chain: &Chain) -> (Vec<BlockId>, usize) {
    let facts = Facts::new(f);
    let Some(&def) = chain.insts.last() else {
        return (Vec::new(), 0);
    };
    let Some(&(db, _)) = facts.place.get(&def) else {
        return (Vec::new(), 0);
    };
    let targets = read_from_outside(f, &facts, r, db);
    let mut copies = 0;
    for &b in &targets {
        // The first read of `r` in the block.
        let Some(first) = f.blocks[b].insts.iter().copied().find(|&i| {
            let mut reads = false;
            visit_defs_and_uses(&f.insts[i], |a, q| reads |= a == Access::Use && q == r);
            reads
        }) else {
            continue;
        };
        // Copy the chain in order, each result in a fresh register.
        let mut map: HashMap<RegId, RegId> = HashMap::default();
        for &ci in &chain.insts {
            let Some(copy) = f.clone_inst(ci) else {
                continue;
            };
            let mut def_reg = None;
            visit_defs_and_uses(&f.insts[ci], |a, q| {
                if a == Access::Def {
                    def_reg = Some(q);
                }
            });
            let Some(d) = def_reg else { continue };
            let Some(fresh) = f.clone_reg(d) else {
                continue;
            };
            let m = map.clone();
            f.insts[copy].map_regs(|a, q| match a {
                Access::Def if q == d => fresh,
                Access::Use => m.get(&q).copied().unwrap_or(q),
                _ => q,
            });
            f.insert_before(first, copy);
            map.insert(d, fresh);
        }
        let Some(&fresh) = map.get(&r) else {
            continue;
        };
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            if chain.insts.contains(&i) {
                continue;
            }
            f.insts[i].map_regs(|a, q| if a == Access::Use && q == r { fresh } else { q });
        }
        copies += 1;
    }
    let mut changed = targets;
    changed.push(db);
    (changed, copies)
}

/// Removes the pulled definitions (and, in turn, the chain instructions
/// feeding only them) once nothing reads their results.
fn remove_dead(f: &mut Function, mut candidates: Vec<InstId>) -> u64 {
    let mut removed = 0;
    loop {
        let facts = Facts::new(f);
        let mut next = Vec::new();
        let mut any = false;
        for &i in &candidates {
            if !facts.place.contains_key(&i)
                || (!f.insts[i].is_pure() && !f.insts[i].opcode.info.flags.loads())
            {
                continue;
            }
            let mut results = Vec::new();
            let mut sources = Vec::new();
            visit_defs_and_uses(&f.insts[i], |a, q| match a {
                Access::Def => results.push(q),
                Access::Use => sources.push(q),
            });
            let unread = results
                .iter()
                .all(|q| facts.uses.get(q).is_none_or(Vec::is_empty));
            if unread && !results.is_empty() {
                f.remove_inst(i);
                removed += 1;
                any = true;
                for s in sources {
                    if let Some(defs) = facts.defs.get(&s) {
                        next.extend(defs.iter().copied());
                    }
                }
            }
        }
        if !any {
            break;
        }
        candidates = next;
    }
    removed
}
