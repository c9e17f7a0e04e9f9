//! Phase 22, OriLoopUnrolling: full and partial unrolling of loops (seed
//! `000_ed667d9feced6e07.txt`, "Phase 22 -- OriLoopUnrolling": "Entry
//! Guard", "Context Initialization and Knob Defaults", "Nounroll Pragma
//! Check", "Main Decision Flowchart (sub_1390B30)" steps A to P, "Unroll
//! Rejection Table", "DUMPIR Statistics").
//!
//! - [`decide`]: the decision of one loop, with the seed's rejection codes
//!   (7, 11, 12, 13, 14, 15, 16, 17, 18, 19, 24) and reasons, and the numbers
//!   that decided (body size, unroll cost, budget left, trip count, texture
//!   count, ...).
//! - [`transform`]: the transform ([`transform::unroll`]): full unroll,
//!   partial unroll with remainder copies (known trip count), partial unroll
//!   guarded by a runtime check with the power-of-two epilogue (unknown trip
//!   count). Reusable: the cicc unroller calls it.
//!
//! Loops are visited innermost first (reverse RPO of their headers, as the
//! seed's RPO walk); after a loop is transformed the analyses are computed
//! again, and loops the transform made (copies of inner loops) are not
//! visited. When anything was unrolled, the function's register webs are
//! split ([`crate::phases::webs`]): each copy's values get registers of
//! their own, as Ori's copies do, for the scalar phases after this one
//! (counter `registers split off for the copies' values`). Each decision is
//! a [`LoopReport`] in [`PhaseOutput::loops`], an
//! applied or missed remark, and the counters `partially unrolled loops`
//! (every loop unrolled, fully or partially, as ptxas's `unrolled_count`),
//! `fully unrolled loops` and `non-unrolled loops`, the DUMPIR line `#
//! [partially unrolled loops=N] [non-unrolled loops=M]`. A report names
//! its loop by the origin of the first header instruction that has one;
//! when phase 18 inverted the loop, that header is the first block of the
//! original body, so a consumer that knows the input's loops maps a report
//! to the loop whose blocks hold that origin (`cargo xtask
//! unroll-fidelity` does).
//!
//! # Knobs
//!
//! `LoopUnroll` (master enable), `LoopMakeSingleEntry` (the master loop
//! pass guard, OCG knob 487), `UnrollBudget` (140; the partial budget of a
//! known trip count is 2.5 times it), `UnrollUnknownCount` (4),
//! `UnrollFullInstLimit` (200; scales the measured full-unroll limits),
//! `UnrollSmallLoopLimit` (4), `LoopUnrollNonInnermost`,
//! `UnrollMultiBlockLoops`, `UnrollVariableBounds`,
//! `LoopUnrollUnknownMultiBlock`, `LoopUnrollFactor`, `LoopUnrollNumInstTex`,
//! `DisablePartialUnrollOverflowCheck`, `OcgKnob427` (the per-block override
//! string), `OcgKnob91` (nounroll), `OcgKnob898` (inner-nounroll penalty
//! scale). The other unrolling knobs of the seed's table describe
//! heuristics the flowchart does not use (profile- and register-pressure
//! based); they are not read, so changing them re-runs nothing.
//!
//! # Adapted from Ori/SASS to PTX
//!
//! - **Entry guard.** "Optimization disabled" and "CountBlocks <= 2" are
//!   kept (a function of at most two blocks is left); the module-level
//!   `.pragma "nounroll"` is not visible to a per-function phase and is not
//!   modelled.
//! - **Step A (nounroll propagation).** `.pragma "nounroll";` at the start
//!   of a loop header (where nvcc writes it) marks that loop; loops nested
//!   in it inherit it (the seed propagates to every block at greater
//!   depth). The seed skips the inheriting loops silently; they are reported
//!   with code 11 and "inside a loop marked nounroll" so the editor can say
//!   why.
//! - **Step C.** The back edge must be the one latch's conditional `bra`
//!   (code 13 otherwise). A top-tested loop (`-O0` `while` form: the exit
//!   test at the header, `bra.uni` back) therefore gets code 13 unless loop
//!   simplification (18) rotated it.
//! - **Step D.** The convergence constraint of ptxas (its back-edge table of
//!   warp-synchronous regions) has no PTX counterpart, and a convergent
//!   instruction in the body does not stop ptxas 13.0.88: it unrolls loops
//!   of unknown trip count holding `bar.sync`, `shfl.sync`, `redux.sync`,
//!   `match.sync` or `bar.warp.sync` by 4 (measured on sm_90; the loops of
//!   `tiles_sync` and `shfl_scan` in `bench/loops_ptxas.cu`, compiled with
//!   cicc's unroller held to 1, are unrolled by 4). A warp-synchronous
//!   instruction is a fact of the report, not a rejection. (The runtime
//!   check does not make threads of a warp take different copies unless
//!   their trip counts differ, and then the original loop already ran
//!   such an instruction in divergent code.)
//! - **Step E.** There is no execution profile: no loop is "hot", so the
//!   hot multi-block texture case of K2 never applies.
//! - **Step F.** `foldable_ldc` counts `ld.const`/`ld.param` with a register
//!   address; `call_weight` is 9 per `call`; `killed_def_count` counts a
//!   register written twice in a block with no read between; inner nounroll
//!   blocks are the blocks of inner loops whose header has the pragma. A
//!   loop leaving other than at its latch (`has_cross_edges`) is skipped
//!   (no code, as the seed). `body_size` is ptxas's count, not PTX's
//!   (measured, see "The body as ptxas counts it" below); a loop that calls
//!   a subroutine is skipped too (no code): ptxas 13.0.88 leaves loops with
//!   a `call` of a `.func`, a 64-bit integer division or remainder, an
//!   IEEE-rounded division, square root or reciprocal of `f32` or `f64`, or
//!   `rsqrt.approx.f64` (which it implements by a fast path and a `CALL` of
//!   a slow-path routine of its own) rolled at every size and trip count.
//! - **Step H.** The `N` of `-N-`/`+N+` is the header's index in the layout
//!   of the function phase 22 receives (`ptxopt explain` prints it as
//!   `block`). A skipped loop reports no code.
//! - **Step I.** PTX has no force-unroll pragma; only the override string
//!   forces. A forced loop gets factor `UnrollUnknownCount` (the seed's
//!   `1 << force_factor`; full when the trip count is known and not larger).
//! - **Step J.** Loops are visited innermost first, so a loop that still
//!   holds a loop is one whose inner loops were not unrolled fully: ptxas
//!   13.0.88 leaves it rolled at the default `LoopUnrollNonInnermost`
//!   (measured: outer loops of trip count 2, 3 or unknown around an inner
//!   loop of unknown trip count, with or without `nounroll`; around an
//!   inner loop it unrolls fully, the outer loop is unrolled), so code 7
//!   (`10 * tex < cost`) applies whatever the knob says.
//! - **Step K, known trip count.** The seed's gate (`UnrollFullInstLimit /
//!   trip_count > cost`, then K2/K3 and the halving budget loop) is not
//!   what ptxas 13.0.88 does; its decision was measured instead (see
//!   "Known trip counts" below) and is modelled on the cost without the
//!   latch `c`: fully unrolled when `c < UnrollSmallLoopLimit` (4, up to a
//!   trip count of 1531 to 7181) or `trip count * c` is within the
//!   full-unroll limit of that trip count;
//!   else unrolled by the largest `f < trip count` whose copies and
//!   remainder copies fit `(f + n mod f) * c <= 350` when `c <= 72`; else
//!   code 12. The limits scale with `UnrollFullInstLimit` / 200 and
//!   `UnrollBudget` / 140. **Unknown trip count:** K1 to K4 as
//!   written (texture budget `min(5 * tex + 22, 100)` or
//!   `LoopUnrollNumInstTex`, `UnrollUnknownCount`; K4's factor 2 under
//!   `LoopUnrollNonInnermost` only for a loop that is not innermost, as the
//!   knob's name says: an innermost loop whose cost reaches the texture
//!   budget is rejected with code 12, factor selection yielded 0 --
//!   calibrated on `cargo xtask unroll-fidelity`, where ptxas unrolls no
//!   innermost loop of unknown trip count by 2 and leaves those of cost 35
//!   and 59 rolled); multi-block bodies need
//!   `LoopUnrollUnknownMultiBlock` (off by default) and trip counts that are
//!   not constant need `UnrollVariableBounds` (code 12 otherwise). K2's
//!   `tex_count` and K1's `tex_inst` are not texture instructions alone:
//!   see below. A loop of unknown trip count keeps its factor (ptxas
//!   unrolls one of cost 48 by 4, 192 > 140). A loop of unknown trip count with two
//!   or more atomic or reduction instructions (`atom`, `red`; our reading of
//!   the body scan's `mem_flag_count`) gets code 12: ptxas 13.0.88 unrolls
//!   one with a single `red` by 4 and leaves those with 2 to 5 rolled,
//!   whatever their addresses, while 1 to 5 plain stores never stop it
//!   (measured; filetest `OriLoopUnrolling/atomics`). A loop of unknown
//!   trip count whose trip count differs between threads (its IV starts at
//!   a value that is not warp-uniform, or its limit is not: computed from
//!   `%tid`, `%laneid` or a load; [`decide::LoopCtx::uniform`]) and that
//!   stores or runs an atomic through an address computed from loaded data
//!   (a scatter, `bins[key[i]]++`) gets code 12 too: ptxas leaves it rolled,
//!   and unrolls the same loop by 4 when it starts at 0, `%ctaid.x` or a
//!   parameter, or when it stores through its own pointer (measured;
//!   filetest `OriLoopUnrolling/varying_trip`). Step P's catch-all, code
//!   24, is a factor under 2 after step L (`LoopUnrollFactor=1`).
//! - **Step M.** AnalyzeIV gives up on a latch predicate with the negate
//!   bit (the seed's `word1 & 1` checks): a latch ending `@!p bra` (or
//!   reading a `not.pred`, which phase 15 folds into `@!p`) is refused with
//!   code 14, whatever its trip count. Measured: ptxas 13.0.88 leaves
//!   `setp.ge; @!p bra L` rolled and unrolls `setp.lt; @p bra L`, the same
//!   loop, by 4 (fully at a trip count of 16); phase 18 keeps the negation
//!   of the header's exit branch as ptxas does, so `-Xcicc -O0` loops
//!   (`not.pred` before the exit branch) stay rolled, as they do in ptxas
//!   (44 of 44 loops of the `-O0` PTX of `test-data/cuda` in `cargo xtask
//!   unroll-fidelity`, where the unroller had unrolled 13 by 4 before).
//!   IADD3/ISETP/LEA/IMAD_WIDE become PTX's `add`/`sub` of the
//!   IV, the `setp` the latch branch reads, and the `mov` that completes a
//!   step (`add %t, %r, s; mov %r, %t`, the seed's `chase_copy`; the `-O0`
//!   form), by `ptx_analysis::trip_count`; address arithmetic derived from the IV
//!   (`mad`, `shl`, `mul.wide`) is ordinary body code that every copy
//!   recomputes from the same registers, so it needs no special case. A
//!   stride in a loop-invariant register (grid-stride loops) is refused
//!   (code 16, the seed's strict stride): its runtime check costs more than
//!   the one or two iterations such loops usually run per thread save. The
//!   failures map to the seed's codes: no IV (14), not an integer compare
//!   (15), stride not an immediate or invariant register or limit not
//!   extractable (16), increment not once per iteration (17), limit written
//!   in the loop or equal to the initial value's register (18), stride
//!   against the exit test or a count that wraps (19).
//! - **Step O/P.** The transform keeps PTX's registers (not SSA): see
//!   [`transform`]. The overflow check is the seed's: `stride * (factor -
//!   1)` must fit the IV's signed type (skipped with
//!   `DisablePartialUnrollOverflowCheck`); the runtime check's own constant
//!   must always fit, whatever the knob says.
//!
//! # The body as ptxas counts it (measured)
//!
//! The seed's counts are of Ori instructions after ptxas's lowering, which
//! expands some PTX instructions and folds others. They were measured on
//! ptxas 13.0.88 (sm_90) by bisection: a loop of unknown trip count, an
//! `add`/`setp`/`bra` latch and a chain of `k` dependent `fma`s, with one
//! instruction of each kind under test, assembled for every `k`; the
//! largest body still unrolled by 4 (counted in the SASS) gives the
//! threshold, and an instruction that lowers the largest body by `n - 1`
//! counts as `n`.
//!
//! | body | largest body unrolled by 4 (PTX instructions) |
//! |---|---|
//! | no load | 21 (cost < 22: K3 with the budget of 22) |
//! | 1, 2, 4, 8, 12, 16 global loads | 48, 47, 45, 41, 37, none at 35 (cost = body + loads - 1 < 49: K2) |
//! | one generic or local load, `ld.global.nc` | 48 (as global) |
//! | 1, 2, 4, 8 shared loads | 26, 30, 38, 54 (cost = body + loads - 1 < 22 + 5 x loads: K3) |
//! | stores, atomics, `red` | do not count |
//! | `mul.wide` or `cvt`+`shl` and the `add.s64` of an address | one less (`IMAD.WIDE`/`LEA`) |
//!
//! So ptxas's `tex_count` (K2) counts loads of global, local and generic
//! memory (`BodyInfo::global_loads`) and `tex_inst` (K1) shared loads, each
//! load counts twice in the body less one for the loop, and K2's bound is
//! `< 49`. Instructions ptxas expands count as (`decide::ptxas_count`):
//! `div`/`rem` `.s32` 27/24 (24/21 by an immediate), `.u32` 21/19 (19/17);
//! `div.full.f32` 12 (8), `div.approx.f32` 7, and the approximate `sqrt`,
//! `rsqrt`, `rcp`, `ex2`, `lg2` without `.ftz` 6-7 (their denormal
//! scaling; with `.ftz` 1). The IEEE-rounded `div`, `sqrt` and `rcp` call a
//! slow-path routine and keep the loop rolled (an earlier table gave them
//! counts; assembled again one by one in a loop of unknown and of known
//! trip count, each leaves a `CALL.REL.NOINC` in the loop and the loop
//! rolled).
//!
//! # Known trip counts (measured)
//!
//! A loop `for (i = 0; i < n; i++)` of `k` dependent `fma`s (or a load,
//! its pointer increment and `k - 1` `fma`s, or four loads), assembled for
//! sm_90 for each `n` and `k`, the SASS read for the loop's factor (its
//! IV's increment) and copies:
//!
//! - **Partial.** At `n = 1024` the factor is 73 with 2 remainder copies
//!   for `k = 4`, 51 (4) for 6, 34 (4) for 8, 33 (1) for 10, 20 (4) for 12,
//!   17 (4) for 16, 16 for 20, 11 (1) for 24, 8 for 30 and 40, 4 for 50 to
//!   72, none from 73: the largest `f` with `(f + n mod f) * c <= 350`,
//!   where `c` is the body without its latch (`k`; with loads, each load
//!   twice less one, as in the unknown case), and nothing above 72. The
//!   same rule gives every factor seen in these probes (about 50, at `n`
//!   from 7 to 1024).
//! - **Full.** The largest `k` unrolled fully at each `n` is the table
//!   `FULL_TABLE` in [`decide`] (`n = 2`: 189, 4: 92, 8: 52, 16: 33, 32:
//!   22, 64: 14, 128: 9, 256: 6, 512: 4), measured in a function with 300
//!   other instructions; with none, ptxas allows up to 15 % more (16: 38,
//!   8: 57), falling off as the rest of the function grows (16: 37, 34, 33
//!   at 10, 50, 100 instructions), which the model does not follow. A body
//!   of fewer than 4 instructions (`UnrollSmallLoopLimit`) is unrolled
//!   fully up to a trip count of 7181 (cost 1), 2810 (2) or 1531 (3),
//!   whatever the table says (3072 copies of 3 `fma`s at `n = 1024`), and
//!   partially above (x321 with 13 remainder copies at `n = 16384`, cost
//!   1: the partial rule).
//! - ptxas counts a body with an if/else after if-conversion (the `if`
//!   loop of `OriLoopUnrolling/control_flow` is unrolled fully even at a
//!   trip count of 1001); we count its branches, so such loops can be
//!   unrolled partially here where ptxas unrolls them fully.
//!
//! # Calibration against ptxas
//!
//! `cargo xtask unroll-fidelity` compares these decisions with the SASS
//! ptxas 13.0.88 makes of nvcc -O3 PTX (`test-data/cuda`) and the corpus.
//! One reading of the seed was chosen by it: K4's factor 2 applies to
//! loops that are not innermost only (above). The measured body count
//! above brought the two loops of PTX cost 22 and 25 that ptxas unrolls by
//! 4 (global loads: K2) into agreement, and left every other row as it
//! was (table in `docs/loop-unrolling.md`).
//!
//! The rules of "Known trip counts", the slow-path calls, the scatter rule
//! and the non-innermost rule were found on `nvcc -O3` PTX with cicc's
//! unroller held to 1 (a line of `cargo xtask unroll-fidelity` of its own,
//! where ptxas decides every loop) and measured by the probes above.
//!
//! Not modelled: ptxas 13.0.88 ignores `.pragma "nounroll"` on some loops
//! of the dealii module (the constant-trip-count loops of
//! `HelmholtzOperator::operator()`, fully unrolled in the SASS): there the
//! pragma sits alone between the header's label and a `$L__tmp` label of
//! clang's, and moving that label before the pragma, or deleting it, makes
//! ptxas honour it; small kernels with the same lines keep the pragma, so
//! the rule is not known.

pub mod decide;
pub mod transform;

use std::sync::Arc;

use ptx_analysis::loops::LoopId;
use ptx_analysis::{reaching_defs, trip_counts};
use ptx_ir::ir::{BlockId, Function};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::remark::{LoopReport, Remark, RemarkKind, Stat, UnrollDecision};
use crate::{knobs, PassContext, PhaseId, PhaseOutput};
use decide::{Decision, Knobs, LoopCtx, Plan};

use super::loop_common::LoopInfo;

/// Runs phase 22 on one function.
pub fn run(ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    run_with_trips(ctx, input, None, false)
}

/// [`run`], given the trip counts of `input`'s loops when the caller has
/// them (the register estimate's `ptxas_view::unroll_factors`, whose
/// database holds them for the function as written: the same instructions
/// and loops, only the origins differ), so that the first decisions do not
/// compute reaching definitions and trip counts a second time. With
/// `reports_only`, the output's function is the input: the unrolls are
/// made (a loop's decision reads the code the unrolls of the loops nested
/// in it left), but not the clean-up after the last one (straight-line
/// merges, webs), which no report depends on.
pub fn run_with_trips(
    ctx: &dyn PassContext,
    input: &Arc<Function>,
    trips: Option<&ptx_analysis::TripCounts>,
    reports_only: bool,
) -> PhaseOutput {
    // The entry guards: the loops are still reported, with the guard that
    // stopped the phase as the reason (no code: the seed returns early).
    if !ctx.bool(knobs::LoopUnroll) {
        return not_run(input, "LoopUnroll=false (loop unrolling is disabled)");
    }
    if input.layout.len() <= 2 {
        return not_run(input, "entry guard: the function has at most two blocks");
    }
    if !ctx.bool(knobs::LoopMakeSingleEntry) {
        return not_run(
            input,
            "LoopMakeSingleEntry=false (the loop passes are disabled)",
        );
    }
    let mut f: Function = (**input).clone();
    let block_index: FxHashMap<BlockId, usize> = input
        .layout
        .iter()
        .enumerate()
        .map(|(i, &b)| (b, i))
        .collect();

    // The headers of the input's loops, innermost first.
    let first = super::version_cache::loop_info(input);
    let headers: Vec<BlockId> = {
        let (g, lf) = (&first.cfg, &first.forest);
        let mut hs: Vec<(u32, BlockId)> = lf
            .loops
            .iter()
            .map(|l| (g.rpo_index(l.header).unwrap_or(0), l.header))
            .collect();
        hs.sort();
        hs.into_iter().rev().map(|(_, h)| h).collect()
    };
    // The knobs are read only where there is a loop to decide about, so
    // that changing one re-runs this phase only in those functions.
    if headers.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let k = Knobs::read(ctx);
    let mut out = PhaseOutput::unchanged(input);
    let mut changed = false;
    let (mut full, mut partial, mut not) = (0u64, 0u64, 0u64);
    let mut done: FxHashSet<BlockId> = FxHashSet::default();
    // The analyses of `f`, recomputed only after an unroll changed it (most
    // loops are not unrolled: one reaching-definitions and trip-count pass
    // per function instead of one per loop).
    // The uniform registers are computed only for a loop that asks (the
    // scatter rule of `decide`).
    type Analyses = (
        ptx_analysis::LoopForest,
        ptx_analysis::TripCounts,
        std::cell::OnceCell<Vec<bool>>,
    );
    let mut analyses: Option<Analyses> = None;
    for h in headers {
        if !done.insert(h) {
            continue;
        }
        let (lf, tc, uniform) = analyses.get_or_insert_with(|| {
            // Until an unroll, `f` is the input, whose loops are known.
            let li = if changed {
                std::rc::Rc::new(LoopInfo::new(&f))
            } else {
                first.clone()
            };
            let tc = match trips {
                Some(tc) if !changed && tc.loops.len() == li.forest.loops.len() => tc.clone(),
                _ => {
                    let rd = reaching_defs(&f, &li.cfg);
                    trip_counts(&f, &li.cfg, &li.dom, &li.forest, &rd)
                }
            };
            ((*li.forest).clone(), tc, std::cell::OnceCell::new())
        });
        let Some(id) = lf.loop_with_header(h) else {
            continue;
        };
        let inherited =
            inherited_nounroll(&f, lf, id).map(|b| block_index.get(&b).copied().unwrap_or(0));
        // The report names the header by the origin of its first
        // instruction that has one (a phase may have put a new instruction
        // first).
        let (header_origin, header_end) = super::loop_common::header_span(&f, h);
        let cx = LoopCtx {
            func: &f,
            forest: lf,
            id,
            trip: &tc.loops[id.0 as usize],
            block_index: block_index.get(&h).copied().unwrap_or(0),
            inherited_nounroll: inherited,
            knobs: &k,
            uniform,
        };
        let mut dec = decide::decide(&cx);
        if let Some(plan) = dec.plan.clone() {
            let l = lf.get(id);
            let shape = transform::LoopShape::new(&f, l.header, l.latches[0], &l.blocks);
            // `unroll` checks everything before it changes anything.
            let result = shape.and_then(|s| transform::unroll(&mut f, &s, &plan, header_origin));
            match result {
                Ok(_) => {
                    changed = true;
                    analyses = None;
                }
                Err(why) => {
                    dec = Decision {
                        plan: None,
                        code: Some(17),
                        reason: format!("{}: {why}", decide::code_reason(17)),
                        facts: dec.facts,
                    };
                }
            }
        }
        match &dec.plan {
            Some(Plan::Full { .. }) => full += 1,
            Some(_) => partial += 1,
            None => not += 1,
        }
        report(&mut out, (header_origin, header_end), &dec);
    }
    out.stats = vec![
        Stat {
            name: "partially unrolled loops",
            value: full + partial,
        },
        Stat {
            name: "non-unrolled loops",
            value: not,
        },
        Stat {
            name: "fully unrolled loops",
            value: full,
        },
    ];
    if changed && !reports_only {
        // A fully unrolled loop leaves its header as a straight-line block
        // nothing branches to: merged into its predecessor here (phase 15's
        // rule 6), else the next build of this output would merge it and the
        // pipeline would not be a fixed point after its second round.
        crate::phases::branch_opt::merge_straight_line(&mut f);
        // Each copy's values in registers of their own (what Ori's copies
        // get), so that the scalar phases after this one see one
        // definition per value.
        let webs = crate::phases::webs::split(&mut f);
        out.stats.extend(crate::phases::webs::counter(webs));
        out.function = Arc::new(f);
    }
    out
}

/// The output when an entry guard stops the phase: the input, and every
/// loop reported as not unrolled for `reason`.
fn not_run(input: &Arc<Function>, reason: &str) -> PhaseOutput {
    let mut out = PhaseOutput::unchanged(input);
    if input.layout.is_empty() {
        return out;
    }
    let li = super::version_cache::loop_info(input);
    let lf = &li.forest;
    if lf.loops.is_empty() {
        return out;
    }
    for l in &lf.loops {
        let header = super::loop_common::header_span(input, l.header);
        let dec = Decision {
            plan: None,
            code: None,
            reason: reason.to_string(),
            facts: Vec::new(),
        };
        report(&mut out, header, &dec);
    }
    out.stats = vec![
        Stat {
            name: "partially unrolled loops",
            value: 0,
        },
        Stat {
            name: "non-unrolled loops",
            value: lf.loops.len() as u64,
        },
        Stat {
            name: "fully unrolled loops",
            value: 0,
        },
    ];
    out
}

/// Step A: the header of the nearest enclosing loop marked nounroll.
fn inherited_nounroll(
    f: &Function,
    lf: &ptx_analysis::loops::LoopForest,
    id: LoopId,
) -> Option<BlockId> {
    let mut cur = lf.get(id).parent;
    while let Some(p) = cur {
        let l = lf.get(p);
        if decide::has_nounroll(f, l.header) {
            return Some(l.header);
        }
        cur = l.parent;
    }
    None
}

/// The report, remark of one decision.
fn report(
    out: &mut PhaseOutput,
    (header, header_end): (Option<ptx_ir::ir::InstId>, Option<ptx_ir::ir::InstId>),
    dec: &Decision,
) {
    let phase = PhaseId::OriLoopUnrolling;
    let (factor, full) = match &dec.plan {
        Some(Plan::Full { n }) => (*n as u32, true),
        Some(Plan::PartialKnown { factor, .. }) | Some(Plan::PartialUnknown { factor, .. }) => {
            (*factor, false)
        }
        None => (1, false),
    };
    let summary = match (&dec.plan, dec.code) {
        (Some(_), _) if full => format!("fully unrolled (x{factor}): {}", dec.reason),
        (Some(_), _) => format!("unrolled x{factor}: {}", dec.reason),
        (None, Some(code)) => format!("not unrolled: code {code}, {}", dec.reason),
        (None, None) => format!("not unrolled: {}", dec.reason),
    };
    out.remarks.push(Remark {
        phase,
        kind: if dec.plan.is_some() {
            RemarkKind::Applied
        } else {
            RemarkKind::Missed
        },
        name: if dec.plan.is_some() {
            "loop-unrolled"
        } else {
            "loop-not-unrolled"
        },
        origin: header,
        message: summary.clone(),
    });
    out.loops.push(LoopReport {
        phase,
        header,
        header_end,
        summary,
        unroll: Some(UnrollDecision {
            factor,
            full,
            code: dec.code,
            reason: dec.reason.clone(),
        }),
        facts: dec.facts.clone(),
    });
}
