//! cicc loop-unroll: the decision engine of NVIDIA's LLVM `LoopUnrollPass`
//! (`computeUnrollCount`), on PTX.
//!
//! Seed `004_fa10da99f88b4a9e.txt`, "Loop Unrolling": "The Decision Engine:
//! computeUnrollCount" (the priority cascade), "Local Array Heuristic",
//! "Power-of-Two Factor Enforcement", "Pragma Handling", "Runtime
//! Unrolling", "Thresholds: NVIDIA vs. Upstream LLVM" and the knob tables.
//!
//! # What it computes
//!
//! For every loop of the function (natural loops of `ptx_analysis::loops`),
//! [`compute_unroll_count`] walks the seed's cascade in order; the first
//! level that yields a factor wins:
//!
//! 1. **Local-array multiplier**: the largest `.local` array the loop reads
//!    or writes, in elements, clamped to `1..=6`, multiplies `Threshold`
//!    (and the pragma threshold).
//! 2. **`#pragma unroll N`**: `N == 1` disables unrolling; otherwise the
//!    count is `N`, reduced to a smaller trip-divisible factor when
//!    `FixedCost + N * (BodySize - FixedCost)` exceeds `multiplier *
//!    pragma-unroll-threshold`.
//! 3. **Full unroll** (`#pragma unroll` without a count, and, as upstream
//!    and cicc -O3 do, any loop with a known trip count): the trip count
//!    must be at most `unroll-full-max-count` and the estimate
//!    `FixedCost + TripCount * (BodySize - FixedCost)` at most
//!    `multiplier * Threshold` (`multiplier * pragma-unroll-threshold` under
//!    the pragma); failing that, the dynamic cost simulation (trip counts up
//!    to `unroll-max-iteration-count-to-analyze`): instructions that only
//!    depend on the induction variable and constants fold away once
//!    unrolled, and the simulated cost must stay under `Threshold * boost /
//!    100`, the boost being the percentage of the rolled cost the unrolled
//!    one keeps, capped at `unroll-max-percent-threshold-boost` (400).
//! 4. **Peeling**: `unroll-peel-count` when set (count 1, peel N).
//! 5. **Static partial unrolling** (known trip count, innermost loop):
//!    `Count` (the `unroll-count` knob) or `DefaultUnrollCount`, clamped so
//!    that the estimate fits `PartialThreshold`, capped by `MaxCount`, then
//!    lowered until it is a power of two dividing the trip count.
//! 6. **Runtime unrolling** (unknown trip count, innermost loop, one exiting
//!    block, `unroll-runtime`, body size at most `runtime-unroll-threshold`
//!    = 95): `DefaultUnrollCount` halved until the estimate fits
//!    `PartialThreshold`; an epilog remainder loop handles the rest.
//!
//! Then the **small-function override**: in a function of fewer than
//! [`SMALL_FUNCTION_INSTS`] instructions, an innermost loop still not
//! unrolled, whose trip count is known or computable at run time (and not
//! flat), gets the largest power-of-two count up to `DefaultUnrollCount`
//! (dividing a known trip count) whose estimate fits `Threshold` instead of
//! `PartialThreshold`, without the runtime body-size gate. The seed names
//! `handleSmallFunction` without its numbers; this is our reading, and 32
//! is our choice (no loop of `test-data/cuda` reaches the override: cicc
//! -O3 unrolls none of the small kernels' loops the cascade leaves).
//!
//! # What PTX lacks, and what we chose
//!
//! - **Pragmas.** cicc reads `#pragma unroll N` from `llvm.loop.unroll.*`
//!   metadata; PTX keeps only `.pragma "nounroll";` (= `#pragma unroll 1`).
//!   The user writes the rest as a comment annotation on the loop header
//!   (lowering keeps `ptxopt:` comments, see `ptx_ir::ir::Block::annotations`):
//!   on the header's label line or on a line of its own right above it,
//!
//!   ```text
//!   // ptxopt: unroll 4        #pragma unroll 4
//!   $L__BB0_2:  // ptxopt: unroll full    (or `unroll`: #pragma unroll)
//!   // ptxopt: nounroll        #pragma unroll 1 (as .pragma "nounroll")
//!   ```
//!
//!   A `.pragma "nounroll"` in any block of the loop disables it. The
//!   phase writes a `nounroll` annotation out as `.pragma "nounroll"` at the
//!   header, as cicc writes `#pragma unroll 1` (the comment is not in the
//!   output; the pragma tells ptxas and a second run the same).
//! - **Body size.** LLVM's `CodeMetrics` counts IR instructions after SROA,
//!   InstCombine, LICM and LoopRotate; on PTX (often `-O0` PTX)
//!   [`body_size`] counts an instruction as 1 except what has no IR
//!   instruction of its own: register and immediate `mov` (phi copies and
//!   constants), unconditional `bra` (block boundaries that simplifycfg
//!   merges), `not.pred` (folded into the branch), `ld.param`/`st.param`
//!   (call argument passing), the 64-bit address arithmetic that only feeds
//!   the address of a load or store (`cvt` to 64 bits, `shl.b64`,
//!   `add.s64`, `mul.wide`: a GEP, free in the NVPTX cost model), an index
//!   `i + k` (k constant or invariant) only sign-extended into such an
//!   address (a GEP offset once InstCombine distributes the `sext`), and
//!   pure instructions that compute the same value in every iteration
//!   (LICM hoists them before cicc unrolls). A `call` counts 1 (at -O3 the
//!   callee is usually inlined).
//! - **Trip count.** SCEV is replaced by [`trip_count`]: per exiting
//!   branch, its predicate (through `not.pred` and `mov.pred`) comes from a
//!   `setp` of an induction value against a constant or a loop-invariant
//!   register; the induction register is the one defined both before the
//!   loop and once in it, as `add`/`sub`/`shl`/`shr`/`mul`/`div` of itself
//!   by immediates or `add`/`sub` of an invariant register (through the
//!   `mov` chains of `-O0` code). With a constant start and bound the count
//!   is simulated exactly in the compare's width: the number of times the
//!   body runs, as after LoopRotate (a test in a latch adds one). One
//!   exiting block with an additive step and an invariant bound makes the
//!   count *computable at run time* (runtime unrolling needs it). Several
//!   exits, or the `a && b` that `-O0` code merges into one predicate (a
//!   `mov.pred` of `false` on one path), give an *upper bound*: the
//!   smallest count of their tests. A step computed from `%ntid`/`%nctaid`
//!   (block- and grid-stride loops, written to run about once per thread)
//!   makes `computeRuntimeTripCount`'s estimate 1, below
//!   `flat-loop-tripcount-threshold`. Not modelled (probed on cicc 13.0
//!   -O3 in session 28, `for (i = tid.x; i < N; i += S)`): with S written
//!   in the loop (`ntid.x`, `ntid.y`, `nctaid.x`, `2 * ntid.x`, `ntid.x +
//!   1`, `ntid.x * nctaid.x`, `ntid.x * ntid.y (* ntid.z)`) cicc leaves
//!   the loop rolled, at the top of a kernel or inside an outer loop; with
//!   S read into a variable before the loop (`int s = blockDim.x;`) it
//!   runtime-unrolls by 4 at the top of a kernel (N a parameter, from 0),
//!   inside `for (t = 0; t < n; ++t)` and inside a grid-stride loop over a
//!   tile of 256 (`transpose_shared`, the two misses of `cargo xtask
//!   unroll-fidelity`), yet leaves `histogram`'s `i += stride` (a hoisted
//!   `blockDim.x * gridDim.x`, from the global thread index) and
//!   `gemm_tile8`'s `e += threads` over a tile of 64 rolled. "Flat only
//!   when the size is read in the loop" fixes the first two and breaks the
//!   last two (71/76 either way), so the estimate likely reads the start
//!   and the bound too; which way is left open.
//! - **TTI values.** `Threshold` 300, `PartialThreshold` 75 and the other
//!   knobs are the registry's (seed 004's NVIDIA defaults);
//!   `DefaultUnrollCount` is [`DEFAULT_UNROLL_COUNT`] = 4, what nvcc
//!   13.0.88 -O3 runtime-unrolls small loops by (the seed says "From TTI");
//!   `FixedCost` is [`FIXED_COST`] = 2 (upstream `BEInsts`: the latch
//!   compare and branch); `AllowPartial`, `AllowRemainder` and `Runtime`
//!   are true (the seed's "from TTI" column); `unroll-allow-partial` can
//!   only turn partial unrolling on.
//!
//! Knobs (all cicc, `LoopUnroll (computeUnrollCount)`): `unroll-threshold`,
//! `unroll-partial-threshold`, `unroll-max-percent-threshold-boost`,
//! `unroll-max-iteration-count-to-analyze`, `unroll-count`,
//! `unroll-max-count`, `unroll-full-max-count`, `unroll-peel-count`,
//! `unroll-allow-partial`, `unroll-runtime`, `pragma-unroll-threshold`,
//! `flat-loop-tripcount-threshold`, `runtime-unroll-threshold`,
//! `unroll-assumed-size`, `unroll-runtime-convergent`,
//! `unroll-runtime-epilog` and `waterfall-unrolling-force-epilogue` (which
//! remainder a runtime unroll gets: epilog, as the seed says GPU loops
//! almost always do, unless both are off and the loop calls nothing),
//! `unroll-allow-remainder` (like `unroll-allow-partial`, it can only add
//! to the TTI's "true"), `unroll-max-upperbound`,
//! `max-pragma-upperbound-unroll`, and `disable-LoopUnrollPass` (no
//! decision at all). `nv-disable-loop-unrolling` gates cicc's second (late)
//! invocation, which the phase does not model (it is the one invocation).
//!
//! # The transform
//!
//! Each loop the cascade unrolls is transformed by phase 22's transform
//! (`loop_unrolling::transform::unroll`, seed 004 "The Transformation
//! Engine: UnrollLoop": `Count - 1` copies of the body, each latch
//! feeding the next copy's header), innermost loop first, each decision
//! taken again on the function as its inner loops left it (LLVM's loop
//! pass manager visits loops inner to outer; an outer loop whose inner
//! loop was fully unrolled becomes innermost). See [`apply`]:
//!
//! - **Canonical form.** The seed's entry guards (a preheader, one latch)
//!   hold in LLVM because LoopSimplify and LoopRotate run before the
//!   unroller; `-O0` PTX has neither, so the function is first branch-
//!   simplified (phase 15's rules: simplifycfg's part) and the loop is
//!   given a preheader and rotated into a guarded bottom-tested loop
//!   (phase 18's inversion, `loop_simplification::rotate`, at most
//!   [`ROTATION_MAX_HEADER_SIZE`] header instructions: LLVM's
//!   `rotation-max-header-size`). A loop that cannot be rotated is
//!   reported and left. The phi copies of `-O0` code (`add %r4, %r3, 1;
//!   mov %r15, %r4; mov %r3, %r15`) are then collapsed (a copy of a copy
//!   reads the first source; the copies left unread go, by DCE), as SSA
//!   has them: the induction variable is a step and one copy, the form
//!   `ptx_analysis::trip_count` reads.
//! - **Plan.** The trip count and IV of the rotated loop come from
//!   `ptx_analysis::trip_count` (the analysis the transform trusts): a full
//!   unroll needs it to equal the cascade's count; a partial or pragma
//!   count with a known trip count unrolls by the count, the `n % count`
//!   remaining iterations as copies before the loop (a count not below the
//!   trip count unrolls fully); a runtime (or pragma) count with an unknown
//!   trip count gets the transform's runtime check before each chunk of
//!   `count` copies, the original loop kept after it as the **epilog
//!   remainder** (seed: "GPU loops almost always use epilog-style
//!   remainders"; no power-of-two epilogue stages, which are ptxas's). The
//!   remainder loops are marked `.pragma "nounroll"` (cicc marks them
//!   `llvm.loop.unroll.disable`), so neither this phase on the output nor
//!   phase 22 unrolls them again.
//! - **Registers.** When anything was unrolled, the function's register
//!   webs are split ([`super::webs`]): the copies' values get registers of
//!   their own, as LLVM's SSA copies have them, so that machine-cp,
//!   constant folding and the commoning phases see one definition per
//!   value (counter `registers split off for the copies' values`).
//! - **No-wrap extensions.** LLVM's IV increments carry `nsw`/`nuw` (C's
//!   signed overflow is undefined), so cicc -O3 addresses the copies'
//!   elements from one pointer (`[%rd+4]`, `[%rd+8]`); PTX has no such
//!   flags and `sext(i + 1)` is not `sext(i) + 1` when `i + 1` wraps. The
//!   unroll itself is the proof: a runtime chunk runs only when its check
//!   held (`x + K < L`, exact arithmetic, so `x + c` does not wrap for `c`
//!   up to `K + 1`), and a known trip count was computed with every value
//!   of the IV in range. In the loop left, each copy's `cvt.s64.s32` or
//!   `mul.wide.s32` (`.u32` for an unsigned IV) of `x + c` becomes one
//!   extension of `x` at the header plus `c` ([`widen_offsets`]; counter
//!   `IV extensions of the copies rebased on the chunk's`); offset
//!   reassociation and address folding (GeneralOptimize 13) then write
//!   `ld [%a+4c]`. Then the induction congruences of the copies are folded
//!   (`simplify_after_unroll`, LLVM's `simplifyLoopAfterUnroll`).
//! - **Not done.** Peeling (reported only); a runtime check around a
//!   convergent instruction when the trip count may differ between the
//!   threads of a CTA (`unroll-runtime-convergent` lets cicc rely on its
//!   waterfall epilogue, which PTX does not give us; with the induction
//!   variable's start and the bound computed from immediates, parameters
//!   and CTA-uniform special registers every thread takes the same copies,
//!   [`uniform_trip_count`], and the loop is unrolled); a loop that
//!   leaves other than at its latch (the transform's shape).
//!
//! The reports say what was done (`fully unrolled (N iterations)`,
//! `unrolled xN`, `unrolled xN, runtime check and epilog remainder loop`),
//! or which decision could not be carried out and why.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use ptx_analysis::grouped::Grouped;
use ptx_analysis::{Loop, LoopForest};
use ptx_ir::ir::def_use::visit_defs_and_uses;
use ptx_ir::ir::{
    Access, AddressBase, BlockId, Function, ImmValue, Inst, InstId, LocalDecl, Opcode, Operand,
    RegId,
};
use ptx_isa::{Cmp, FamilyId, Space};

use crate::{
    knobs, LoopReport, PassContext, PhaseId, PhaseOutput, Remark, RemarkKind, Stat, UnrollDecision,
};

/// `DefaultUnrollCount` ("From TTI"): nvcc 13.0.88 -O3 runtime-unrolls small
/// loops by 4.
pub const DEFAULT_UNROLL_COUNT: u32 = 4;
/// `FixedCost`: instructions that do not replicate (latch compare and branch).
pub const FIXED_COST: u32 = 2;
/// The local-array multiplier's cap.
pub const LOCAL_ARRAY_CAP: u32 = 6;
/// Functions with fewer instructions (PTX, [`body_size`]'s count) get the
/// small-function override (`UnrollParams::small_function_threshold`).
pub const SMALL_FUNCTION_INSTS: u32 = 32;
/// `AllowPartial` from the NVPTX TTI.
const TTI_ALLOW_PARTIAL: bool = true;
/// `AllowRemainder` ("true" in every column of the seed's table).
const TTI_ALLOW_REMAINDER: bool = true;
/// Iterations the trip-count simulation runs before giving up.
const SIMULATION_LIMIT: u64 = 1 << 16;

/// The `UnrollParams` of the seed, from the knobs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnrollParams {
    pub threshold: u32,
    pub partial_threshold: u32,
    pub max_percent_threshold_boost: u32,
    pub max_iterations_to_analyze: u32,
    /// `unroll-count`; 0 = unset.
    pub count: u32,
    pub max_count: u32,
    pub full_unroll_max_count: u32,
    pub peel_count: u32,
    pub default_unroll_count: u32,
    pub fixed_cost: u32,
    pub allow_partial: bool,
    pub allow_remainder: bool,
    pub runtime: bool,
    pub pragma_threshold: u32,
    pub max_upperbound: u32,
    pub max_pragma_upperbound: u32,
    pub flat_loop_tripcount_threshold: u32,
    pub runtime_unroll_threshold: u32,
    pub assumed_size: u32,
    pub runtime_convergent: bool,
    pub runtime_epilog: bool,
    pub waterfall_force_epilogue: bool,
    /// `SmallFunctionThreshold` (no knob in the seed): [`SMALL_FUNCTION_INSTS`].
    pub small_function_threshold: u32,
}

fn knob_u32(v: i64) -> u32 {
    v.clamp(0, u32::MAX as i64) as u32
}

fn unset_is_max(v: i64) -> u32 {
    if v <= 0 {
        u32::MAX
    } else {
        knob_u32(v)
    }
}

impl UnrollParams {
    /// The NVIDIA defaults (registry defaults, no context).
    pub fn nvidia_defaults() -> UnrollParams {
        UnrollParams::from_ctx(&crate::Defaults::new(90))
    }

    /// Reads every knob of the cascade through `ctx`.
    pub fn from_ctx(ctx: &dyn PassContext) -> UnrollParams {
        UnrollParams {
            threshold: knob_u32(ctx.int(knobs::unroll_threshold)),
            partial_threshold: knob_u32(ctx.int(knobs::unroll_partial_threshold)),
            max_percent_threshold_boost: knob_u32(
                ctx.int(knobs::unroll_max_percent_threshold_boost),
            ),
            max_iterations_to_analyze: knob_u32(
                ctx.int(knobs::unroll_max_iteration_count_to_analyze),
            ),
            count: knob_u32(ctx.int(knobs::unroll_count)),
            max_count: unset_is_max(ctx.int(knobs::unroll_max_count)),
            full_unroll_max_count: unset_is_max(ctx.int(knobs::unroll_full_max_count)),
            peel_count: knob_u32(ctx.int(knobs::unroll_peel_count)),
            default_unroll_count: DEFAULT_UNROLL_COUNT,
            fixed_cost: FIXED_COST,
            // "true (from TTI)"; the knob is an override that can only add.
            allow_partial: ctx.bool(knobs::unroll_allow_partial) || TTI_ALLOW_PARTIAL,
            allow_remainder: ctx.bool(knobs::unroll_allow_remainder) || TTI_ALLOW_REMAINDER,
            runtime: ctx.bool(knobs::unroll_runtime),
            pragma_threshold: knob_u32(ctx.int(knobs::pragma_unroll_threshold)),
            max_upperbound: knob_u32(ctx.int(knobs::unroll_max_upperbound)),
            max_pragma_upperbound: knob_u32(ctx.int(knobs::max_pragma_upperbound_unroll)),
            flat_loop_tripcount_threshold: knob_u32(ctx.int(knobs::flat_loop_tripcount_threshold)),
            runtime_unroll_threshold: knob_u32(ctx.int(knobs::runtime_unroll_threshold)),
            assumed_size: knob_u32(ctx.int(knobs::unroll_assumed_size)),
            runtime_convergent: ctx.bool(knobs::unroll_runtime_convergent),
            runtime_epilog: ctx.bool(knobs::unroll_runtime_epilog),
            waterfall_force_epilogue: ctx.bool(knobs::waterfall_unrolling_force_epilogue),
            small_function_threshold: SMALL_FUNCTION_INSTS,
        }
    }

    /// `FixedCost + count * (size - FixedCost)`.
    pub fn estimate(&self, count: u64, size: u32) -> u64 {
        let fixed = u64::from(self.fixed_cost.min(size));
        fixed + count.saturating_mul(u64::from(size) - fixed)
    }
}

/// What the user asked for a loop (`#pragma unroll`, as PTX can say it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UserPragma {
    None,
    /// `#pragma unroll N` (`// ptxopt: unroll N`); 1 = `.pragma "nounroll"`
    /// or `// ptxopt: nounroll`.
    Count(u32),
    /// `#pragma unroll` (`// ptxopt: unroll full` or `// ptxopt: unroll`).
    Full,
}

/// Parses one `ptxopt:` annotation (`"unroll 4"`, `"unroll full"`,
/// `"unroll"`, `"nounroll"`); `None` for anything else.
pub fn parse_annotation(text: &str) -> Option<UserPragma> {
    let mut words = text.split_whitespace();
    match (words.next()?, words.next(), words.next()) {
        ("nounroll", None, _) => Some(UserPragma::Count(1)),
        ("unroll", None, _) | ("unroll", Some("full"), None) => Some(UserPragma::Full),
        ("unroll", Some(n), None) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .map(UserPragma::Count),
        _ => None,
    }
}

/// The facts of one loop the cascade reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopFacts {
    /// Exact number of body executions; `None` when unknown.
    pub trip_count: Option<u64>,
    /// An upper bound of the trip count (the smallest known count of an
    /// exit), when the exact count is unknown.
    pub max_trip_count: Option<u64>,
    /// An upper bound of the trip count that also counts the range of a
    /// variable bound (`k < (i & 7)`: 7).
    pub upper_bound: Option<u64>,
    /// The trip count can be computed at run time (needed by runtime
    /// unrolling).
    pub runtime_computable: bool,
    /// `computeRuntimeTripCount`'s estimate: 1 for a loop stepped by the
    /// launch size (`i += blockDim.x * gridDim.x`, `b += blockDim.x`),
    /// written to run about once per thread; `None`: not estimated.
    pub estimated_trip_count: Option<u64>,
    /// Cost of one iteration ([`body_size`]).
    pub body_size: u32,
    /// Of which fold away when the induction variable is a constant.
    pub foldable: u32,
    /// Largest `.local` array accessed, in elements (0: none).
    pub local_array_size: u32,
    pub innermost: bool,
    pub pragma: UserPragma,
    /// Blocks of the loop with an edge out of it.
    pub exiting_blocks: u32,
    pub has_convergent: bool,
    /// A `call` in the loop (forces an epilog remainder).
    pub has_call: bool,
    /// Instructions of the whole function ([`body_size`]'s count).
    pub function_size: u32,
    /// The body is this many copies of one instruction sequence: an
    /// unroller's output ([`repeated_body`]).
    pub already_unrolled: Option<u32>,
}

/// What the cascade decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Fully unrolled (the loop disappears); the count is the trip count.
    Full { count: u64 },
    /// Partially unrolled by `count`, trip count known (and divisible).
    Partial { count: u32 },
    /// Unrolled by `count` with a runtime remainder (epilog) loop.
    Runtime { count: u32 },
    /// The pragma's count (a remainder loop where the trip count is not a
    /// multiple).
    Pragma { count: u32 },
    /// `count` iterations peeled off, the loop kept.
    Peel { count: u32 },
    /// Left rolled.
    None,
}

impl Choice {
    /// The unroll factor (1 when the loop stays as it is).
    pub fn factor(self) -> u32 {
        match self {
            Choice::Full { count } => count.min(u64::from(u32::MAX)) as u32,
            Choice::Partial { count } | Choice::Runtime { count } | Choice::Pragma { count } => {
                count
            }
            Choice::Peel { .. } | Choice::None => 1,
        }
    }
}

/// The cascade's result: the choice, which level made it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CiccDecision {
    pub choice: Choice,
    /// `"local-array"`... `"runtime"`, `"small-function"`, `"none"`.
    pub level: &'static str,
    pub reason: String,
    /// Numbers that decided (`("body size", "12")`).
    pub facts: Vec<(&'static str, String)>,
}

/// The priority cascade of `computeUnrollCount` (seed 004), a pure
/// function of the parameters and the loop's facts.
pub fn compute_unroll_count(p: &UnrollParams, f: &LoopFacts) -> CiccDecision {
    let size = f.body_size.max(p.fixed_cost + 1);
    let mut facts: Vec<(&'static str, String)> = vec![
        (
            "trip count",
            f.trip_count
                .map_or_else(|| "unknown".to_string(), |t| t.to_string()),
        ),
        ("body size", size.to_string()),
    ];
    let done = |choice, level, reason: String, facts| CiccDecision {
        choice,
        level,
        reason,
        facts,
    };
    // PRIORITY 1: local-array multiplier.
    let multiplier = f.local_array_size.clamp(1, LOCAL_ARRAY_CAP);
    let threshold = u64::from(multiplier) * u64::from(p.threshold);
    if f.local_array_size > 0 {
        facts.push(("local array", f.local_array_size.to_string()));
    }
    facts.push(("multiplier", multiplier.to_string()));
    facts.push(("threshold", threshold.to_string()));
    let trip = f.trip_count.filter(|&t| t > 0);
    // PRIORITY 2: #pragma unroll N.
    if let UserPragma::Count(n) = f.pragma {
        if n == 1 {
            return done(
                Choice::None,
                "pragma",
                "unrolling disabled by pragma (unroll count 1)".into(),
                facts,
            );
        }
        let mut count = n;
        let pragma_budget = u64::from(multiplier) * u64::from(p.pragma_threshold);
        let est = p.estimate(u64::from(n), size);
        facts.push(("estimated size", est.to_string()));
        facts.push(("pragma threshold", pragma_budget.to_string()));
        if est > pragma_budget {
            // A smaller factor that fits and divides the trip count.
            count = (1..n)
                .rev()
                .find(|&c| {
                    p.estimate(u64::from(c), size) <= pragma_budget
                        && trip.is_none_or(|t| t % u64::from(c) == 0)
                })
                .unwrap_or(1);
        }
        if let Some(t) = trip {
            if count > 1 && u64::from(count) >= t {
                return done(
                    Choice::Full { count: t },
                    "pragma",
                    format!("pragma unroll {n} covers the trip count {t}: fully unrolled"),
                    facts,
                );
            }
        }
        if count <= 1 {
            return done(
                Choice::None,
                "pragma",
                format!("pragma unroll {n}: unrolled size {est} exceeds the pragma threshold {pragma_budget}"),
                facts,
            );
        }
        let multiple = trip.unwrap_or(1);
        let note = if !multiple.is_multiple_of(u64::from(count)) {
            " (remainder loops not allowed: trip multiple is not a multiple of the count)"
        } else {
            ""
        };
        return done(
            Choice::Pragma { count },
            "pragma",
            format!("pragma unroll {n}: unrolled by {count}{note}"),
            facts,
        );
    }
    // An unroller's output (cicc's own at -O3: LLVM marks the loop it
    // unrolled `llvm.loop.unroll.disable`, which PTX does not carry) is not
    // unrolled again.
    if let Some(k) = f.already_unrolled {
        return done(
            Choice::None,
            "unrolled",
            format!("already unrolled: the body is {k} copies of one instruction sequence (an unroller's output, which LLVM marks llvm.loop.unroll.disable)"),
            facts,
        );
    }
    // PRIORITY 3: full unroll (the pragma, or a known small trip count).
    let pragma_full = f.pragma == UserPragma::Full;
    if let Some(t) = trip {
        if t <= u64::from(p.full_unroll_max_count) {
            let budget = if pragma_full {
                u64::from(multiplier) * u64::from(p.pragma_threshold)
            } else {
                threshold
            };
            let est = p.estimate(t, size);
            facts.push(("full unroll size", est.to_string()));
            if est <= budget {
                let level = if pragma_full { "pragma-full" } else { "full" };
                return done(
                    Choice::Full { count: t },
                    level,
                    format!("fully unrolled: trip count {t}, unrolled size {est} <= {budget}"),
                    facts,
                );
            }
            // The dynamic cost simulation: what folds once the IV is known.
            if t <= u64::from(p.max_iterations_to_analyze) {
                let rolled = t * u64::from(size);
                let unrolled = t * u64::from(size.saturating_sub(f.foldable).max(1));
                let boost =
                    (rolled * 100 / unrolled.max(1)).min(u64::from(p.max_percent_threshold_boost));
                let dynamic = threshold * boost / 100;
                facts.push(("simulated size", unrolled.to_string()));
                facts.push(("dynamic budget", dynamic.to_string()));
                if unrolled < dynamic {
                    return done(
                        Choice::Full { count: t },
                        "full",
                        format!(
                            "fully unrolled: trip count {t}, simulated size {unrolled} < {dynamic} (boost {boost}%)"
                        ),
                        facts,
                    );
                }
            }
        }
    }
    // Upper-bound full unroll (AllowUpperBound): the exact count is
    // unknown, an exit bounds it.
    if let (None, Some(max)) = (trip, f.max_trip_count.filter(|&m| m > 0)) {
        let (limit, budget) = if pragma_full {
            (
                p.max_pragma_upperbound,
                u64::from(multiplier) * u64::from(p.pragma_threshold),
            )
        } else {
            (p.max_upperbound, threshold)
        };
        facts.push(("max trip count", max.to_string()));
        let est = p.estimate(max, size);
        if max <= u64::from(limit) && est <= budget {
            return done(
                Choice::Full { count: max },
                "full",
                format!(
                    "fully unrolled to the upper bound: max trip count {max} <= {limit}, unrolled size {est} <= {budget}"
                ),
                facts,
            );
        }
    }
    // PRIORITY 4: peeling.
    if p.peel_count > 0 {
        return done(
            Choice::Peel {
                count: p.peel_count,
            },
            "peel",
            format!("peeled {} iterations (unroll-peel-count)", p.peel_count),
            facts,
        );
    }
    let count0 = if p.count > 0 {
        p.count
    } else {
        p.default_unroll_count
    };
    // PRIORITY 5: static partial unrolling.
    if let Some(t) = trip {
        if !p.allow_partial {
            return done(
                Choice::None,
                "none",
                "partial unrolling not allowed".into(),
                facts,
            );
        }
        if !f.innermost {
            return done(
                Choice::None,
                "none",
                format!("not innermost and too large to unroll fully (trip count {t})"),
                facts,
            );
        }
        let mut count = count0;
        let per_copy = u64::from(size - p.fixed_cost.min(size));
        if u64::from(p.partial_threshold) < p.estimate(u64::from(count), size) {
            count = ((u64::from(p.partial_threshold).saturating_sub(u64::from(p.fixed_cost)))
                / per_copy.max(1))
            .min(u64::from(u32::MAX)) as u32;
        }
        count = count.min(p.max_count);
        while count > 0 {
            if t % u64::from(count) == 0 && count.is_power_of_two() {
                break;
            }
            count -= 1;
        }
        if count == 0 && p.count > 0 {
            count = p.default_unroll_count;
            while count > 0 && u64::from(p.partial_threshold) < p.estimate(u64::from(count), size) {
                count >>= 1;
            }
        }
        facts.push(("partial threshold", p.partial_threshold.to_string()));
        if count > 1 {
            return done(
                Choice::Partial { count },
                "partial",
                format!(
                    "partially unrolled by {count}: trip count {t}, power of two dividing it, unrolled size {} <= {}",
                    p.estimate(u64::from(count), size),
                    p.partial_threshold
                ),
                facts,
            );
        }
        return small_function(
            p,
            f,
            size,
            facts,
            format!(
                "no power-of-two factor dividing the trip count {t} fits the partial threshold {}",
                p.partial_threshold
            ),
        );
    }
    // PRIORITY 6: runtime unrolling.
    let why_not = if !p.runtime {
        Some("runtime unrolling disabled (unroll-runtime=false)".to_string())
    } else if !p.allow_remainder {
        Some("remainder loops not allowed (runtime unrolling needs one)".to_string())
    } else if size > p.runtime_unroll_threshold {
        Some(format!(
            "body size {size} exceeds runtime-unroll-threshold {}",
            p.runtime_unroll_threshold
        ))
    } else if !f.innermost {
        Some("not innermost (runtime unrolling needs an innermost loop)".to_string())
    } else if f.exiting_blocks != 1 {
        Some(format!(
            "{} exiting blocks (runtime unrolling needs one)",
            f.exiting_blocks
        ))
    } else if let Some(m) = f.upper_bound.filter(|&m| m < u64::from(p.max_upperbound)) {
        Some(format!(
            "small upper bound: at most {m} iterations < unroll-max-upperbound {} (not unrolled unless asked)",
            p.max_upperbound
        ))
    } else if !f.runtime_computable {
        Some("trip count not computable at run time (no induction variable stepped by an invariant amount and compared with an invariant)".to_string())
    } else if let Some(est) = f
        .estimated_trip_count
        .filter(|&e| e < u64::from(p.flat_loop_tripcount_threshold))
    {
        Some(format!(
            "flat loop: estimated trip count {est} (stepped by the launch size) < flat-loop-tripcount-threshold {}",
            p.flat_loop_tripcount_threshold
        ))
    } else if f.has_convergent && !p.runtime_convergent {
        Some("convergent operation in the loop (unroll-runtime-convergent=false)".to_string())
    } else {
        None
    };
    if let Some(why) = why_not {
        return small_function(p, f, size, facts, why);
    }
    let mut count = count0;
    while count > 0 && u64::from(p.partial_threshold) < p.estimate(u64::from(count), size) {
        count >>= 1;
    }
    count = count.min(p.max_count);
    facts.push(("partial threshold", p.partial_threshold.to_string()));
    if count > 1 {
        // Epilog or prolog remainder (seed: "Epilog vs. prolog remainder").
        let remainder = if p.waterfall_force_epilogue {
            "epilog (waterfall-unrolling-force-epilogue)"
        } else if f.has_call {
            "epilog (call in the loop)"
        } else if p.runtime_epilog {
            "epilog (unroll-runtime-epilog)"
        } else {
            "prolog"
        };
        facts.push(("remainder", remainder.to_string()));
        return done(
            Choice::Runtime { count },
            "runtime",
            format!(
                "unrolled by {count} with a runtime remainder: unknown trip count, unrolled size {} <= {}",
                p.estimate(u64::from(count), size),
                p.partial_threshold
            ),
            facts,
        );
    }
    small_function(
        p,
        f,
        size,
        facts,
        format!(
            "unrolled size {} exceeds the partial threshold {} even for 2 copies",
            p.estimate(2, size),
            p.partial_threshold
        ),
    )
}

/// The small-function override, else "not unrolled" with `why`.
fn small_function(
    p: &UnrollParams,
    f: &LoopFacts,
    size: u32,
    mut facts: Vec<(&'static str, String)>,
    why: String,
) -> CiccDecision {
    // Bigger budgets, not fewer rules: the count must still be computable
    // and the loop not flat.
    let legal = f.trip_count.is_some()
        || (p.runtime
            && f.upper_bound
                .is_none_or(|m| m >= u64::from(p.max_upperbound))
            && f.runtime_computable
            && f.estimated_trip_count
                .is_none_or(|e| e >= u64::from(p.flat_loop_tripcount_threshold)));
    if f.function_size < p.small_function_threshold && f.innermost && f.exiting_blocks == 1 && legal
    {
        let mut count = p.default_unroll_count;
        while count > 1 && u64::from(p.threshold) < p.estimate(u64::from(count), size) {
            count >>= 1;
        }
        if let Some(t) = f.trip_count {
            while count > 1 && t % u64::from(count) != 0 {
                count >>= 1;
            }
        }
        facts.push(("function size", f.function_size.to_string()));
        if count > 1 {
            let choice = if f.trip_count.is_some() {
                Choice::Partial { count }
            } else {
                Choice::Runtime { count }
            };
            return CiccDecision {
                choice,
                level: "small-function",
                reason: format!(
                    "small function ({} < {} instructions): unrolled by {count}",
                    f.function_size, p.small_function_threshold
                ),
                facts,
            };
        }
    }
    CiccDecision {
        choice: Choice::None,
        level: "none",
        reason: why,
        facts,
    }
}

// ---------------------------------------------------------------- facts

/// The definitions of every register, (instruction, block) in layout
/// order, and each placed instruction's position in its block.
struct Defs {
    defs: Grouped<(InstId, BlockId)>,
    position: Vec<u32>,
}

impl Defs {
    fn new(f: &Function) -> Defs {
        let mut position = vec![u32::MAX; f.insts.len()];
        let mut pairs: Vec<(usize, (InstId, BlockId))> = Vec::new();
        for &b in &f.layout {
            for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
                if let Some(p) = position.get_mut(i.into_raw().into_u32() as usize) {
                    *p = pos as u32;
                }
                visit_defs_and_uses(&f.insts[i], |a, r| {
                    if a == Access::Def {
                        pairs.push((r.into_raw().into_u32() as usize, (i, b)));
                    }
                });
            }
        }
        Defs {
            defs: Grouped::new(f.regs.len(), &pairs),
            position,
        }
    }

    /// The definitions of `r` (`None` when it has none).
    fn of(&self, r: &RegId) -> Option<&[(InstId, BlockId)]> {
        let defs = self.defs.get(r.into_raw().into_u32() as usize);
        (!defs.is_empty()).then_some(defs)
    }

    /// The position of placed instruction `i` in its block.
    fn position(&self, i: &InstId) -> Option<usize> {
        self.position
            .get(i.into_raw().into_u32() as usize)
            .filter(|&&p| p != u32::MAX)
            .map(|&p| p as usize)
    }
}

/// One step of an induction expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add(i128),
    /// Adds a loop-invariant register (value unknown).
    AddInv(RegId),
    Shl(u32),
    Shr(u32),
    Mul(i128),
    Div(i128),
}

/// A value in the loop: a constant, a loop-invariant register, or an
/// operation chain applied to the value an induction register has at the
/// start of the iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Val {
    Const(i128),
    Inv(RegId),
    Iv(RegId, Vec<Op>),
    Unknown,
}

struct Eval<'a> {
    f: &'a Function,
    defs: &'a Defs,
    lp: &'a Loop,
    /// Register lookups left ([`EVAL_BUDGET`]): long chains of arithmetic
    /// would otherwise be walked once per path.
    budget: std::cell::Cell<u32>,
    /// The successors of every block, when a read needs them.
    succs: std::cell::OnceCell<la_arena::ArenaMap<BlockId, Vec<BlockId>>>,
}

/// Register lookups one evaluation may make.
const EVAL_BUDGET: u32 = 2_000;

impl<'a> Eval<'a> {
    fn new(f: &'a Function, defs: &'a Defs, lp: &'a Loop) -> Eval<'a> {
        Eval {
            f,
            defs,
            lp,
            budget: std::cell::Cell::new(EVAL_BUDGET),
            succs: Default::default(),
        }
    }
}

fn imm(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(i) => match i.value {
            ImmValue::Int(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

impl Eval<'_> {
    /// The value of `reg` read at instruction `at` in block `block`.
    fn reg(&self, reg: RegId, at: InstId, block: BlockId, depth: u32) -> Val {
        let left = self.budget.get();
        if depth > 16 || left == 0 {
            return Val::Unknown;
        }
        self.budget.set(left - 1);
        let Some(defs) = self.defs.of(&reg) else {
            return Val::Unknown;
        };
        let inside: Vec<_> = defs.iter().filter(|(_, b)| self.lp.contains(*b)).collect();
        let outside = defs.len() - inside.len();
        match (inside.len(), outside) {
            (0, 1) => match self.outside(defs[0].0, depth + 1) {
                Val::Const(c) => Val::Const(c),
                _ => Val::Inv(reg),
            },
            (0, _) => Val::Inv(reg),
            (1, 0) => self.inst(inside[0].0, inside[0].1, depth + 1),
            (1, _) => {
                let (d, db) = *inside[0];
                if db == block {
                    if self.defs.position(&d) < self.defs.position(&at) {
                        self.inst(d, db, depth + 1)
                    } else {
                        Val::Iv(reg, Vec::new())
                    }
                } else if !self.reaches(db, block, None) {
                    // No path of one iteration runs the definition before
                    // the read: the value the iteration started with.
                    Val::Iv(reg, Vec::new())
                } else if db == self.lp.header || !self.reaches(self.lp.header, block, Some(db)) {
                    // Every path of the iteration to the read runs the
                    // definition first (its block dominates the read's): the
                    // value it wrote (`add %r, %r, 1` in the header, the exit
                    // test in the latch, as cicc -O3 writes `do`-loops).
                    self.inst(d, db, depth + 1)
                } else {
                    Val::Unknown
                }
            }
            _ => Val::Unknown,
        }
    }

    /// Whether a path within one iteration (blocks of the loop, no edge
    /// back into the header) leads from `from` to `to`, not passing `avoid`.
    fn reaches(&self, from: BlockId, to: BlockId, avoid: Option<BlockId>) -> bool {
        let succs = self.succs.get_or_init(|| self.f.all_successors());
        let succ = |b: BlockId| succs.get(b).map_or(&[][..], Vec::as_slice);
        reaches_in_iteration(&succ, self.lp, from, to, avoid)
    }

    /// A definition outside the loop: constants through `mov`s.
    fn outside(&self, d: InstId, depth: u32) -> Val {
        if depth > 16 {
            return Val::Unknown;
        }
        let inst = &self.f.insts[d];
        if inst.guard.is_some() || inst.opcode.info.family != FamilyId::Mov {
            return Val::Unknown;
        }
        match inst.operands.get(1) {
            Some(op) if imm(op).is_some() => Val::Const(imm(op).unwrap_or(0)),
            Some(Operand::Reg {
                reg,
                component: None,
            }) => match self.defs.of(reg) {
                Some(defs) if defs.len() == 1 && !self.lp.contains(defs[0].1) => {
                    self.outside(defs[0].0, depth + 1)
                }
                _ => Val::Unknown,
            },
            _ => Val::Unknown,
        }
    }

    /// The value an instruction in the loop computes.
    fn inst(&self, d: InstId, block: BlockId, depth: u32) -> Val {
        let inst = &self.f.insts[d];
        if inst.guard.is_some() {
            return Val::Unknown;
        }
        let src = |k: usize| -> Val {
            match inst.operands.get(k) {
                Some(Operand::Reg {
                    reg,
                    component: None,
                }) => self.reg(*reg, d, block, depth),
                Some(op) => imm(op).map_or(Val::Unknown, Val::Const),
                None => Val::Unknown,
            }
        };
        let info = &inst.opcode.info;
        let apply = |v: Val, op: Op| match v {
            Val::Iv(r, mut ops) => {
                match (ops.last_mut(), op) {
                    (Some(Op::Add(a)), Op::Add(b)) => *a += b,
                    _ => ops.push(op),
                }
                Val::Iv(r, ops)
            }
            Val::Const(c) => match apply_op(c, op) {
                Some(v) => Val::Const(v),
                None => Val::Unknown,
            },
            Val::Inv(r) => Val::Inv(r),
            Val::Unknown => Val::Unknown,
        };
        let float = info.types.last().is_some_and(|t| t.is_float());
        let wide = inst.opcode.has_modifier(".wide");
        let pure_inv = |a: &Val, b: &Val| match (a, b) {
            (Val::Inv(r), Val::Inv(_) | Val::Const(_)) | (Val::Const(_), Val::Inv(r)) => {
                Some(Val::Inv(*r))
            }
            _ => None,
        };
        match info.family {
            // A launch-size or thread-position register read in the loop
            // is the same in every iteration.
            FamilyId::Mov
                if matches!(inst.operands.get(1), Some(Operand::Special { .. }))
                    && !inst.reads_volatile_special() =>
            {
                match inst.operands.first() {
                    Some(Operand::Reg { reg, .. }) => Val::Inv(*reg),
                    _ => Val::Unknown,
                }
            }
            FamilyId::Mov if inst.operands.len() == 2 => src(1),
            FamilyId::Add | FamilyId::Sub if !float => {
                let sign = if info.family == FamilyId::Sub { -1 } else { 1 };
                let (a, b) = (src(1), src(2));
                if let Some(v) = pure_inv(&a, &b) {
                    return v;
                }
                match (a, b) {
                    (v, Val::Const(c)) => apply(v, Op::Add(sign * c)),
                    (Val::Const(c), v) if sign == 1 => apply(v, Op::Add(c)),
                    (v @ Val::Iv(..), Val::Inv(r)) => apply(v, Op::AddInv(r)),
                    (Val::Inv(r), v @ Val::Iv(..)) if sign == 1 => apply(v, Op::AddInv(r)),
                    _ => Val::Unknown,
                }
            }
            FamilyId::Shl | FamilyId::Shr => {
                let (a, b) = (src(1), src(2));
                if let Some(v) = pure_inv(&a, &b) {
                    return v;
                }
                match b {
                    Val::Const(c) if (0..64).contains(&c) => apply(
                        a,
                        if info.family == FamilyId::Shl {
                            Op::Shl(c as u32)
                        } else {
                            Op::Shr(c as u32)
                        },
                    ),
                    _ => Val::Unknown,
                }
            }
            FamilyId::Mul | FamilyId::Div if !wide && !float => {
                let (a, b) = (src(1), src(2));
                if let Some(v) = pure_inv(&a, &b) {
                    return v;
                }
                match (info.family, a, b) {
                    (FamilyId::Mul, v, Val::Const(c)) | (FamilyId::Mul, Val::Const(c), v) => {
                        apply(v, Op::Mul(c))
                    }
                    (FamilyId::Div, v, Val::Const(c)) if c != 0 => apply(v, Op::Div(c)),
                    _ => Val::Unknown,
                }
            }
            // Any other pure instruction of invariant operands is
            // invariant (`and.b32 %r, %i, 7` recomputed by -O0 code).
            _ if inst.is_pure() && !info.flags.loads() => {
                let dest = match inst.operands.first() {
                    Some(Operand::Reg { reg, .. }) => *reg,
                    _ => return Val::Unknown,
                };
                let all_invariant = inst.operands.iter().skip(1).all(|op| match op {
                    Operand::Reg {
                        reg,
                        component: None,
                    } => matches!(self.reg(*reg, d, block, depth), Val::Inv(_) | Val::Const(_)),
                    op => imm(op).is_some(),
                });
                if all_invariant {
                    Val::Inv(dest)
                } else {
                    Val::Unknown
                }
            }
            _ => Val::Unknown,
        }
    }
}

/// The largest value `reg` can hold when a mask or remainder by a constant
/// bounds it (`and.b32 %r, %x, 7`: 7; `rem.u32 %r, %x, 8`: 7).
fn range_max(f: &Function, defs: &Defs, reg: RegId) -> Option<i128> {
    let ds = defs.of(&reg)?;
    let [(d, _)] = ds[..] else { return None };
    let inst = &f.insts[d];
    if inst.guard.is_some() {
        return None;
    }
    let c = inst.operands.iter().skip(1).find_map(imm)?;
    match inst.opcode.info.family {
        FamilyId::And if c >= 0 => Some(c),
        FamilyId::Rem if c > 0 && !inst.opcode.info.types.last().is_some_and(|t| t.is_signed()) => {
            Some(c - 1)
        }
        _ => None,
    }
}

fn apply_op(v: i128, op: Op) -> Option<i128> {
    Some(match op {
        Op::Add(c) => v.checked_add(c)?,
        Op::AddInv(_) => return None,
        Op::Shl(s) => v.checked_mul(1i128.checked_shl(s)?)?,
        Op::Shr(s) => v >> s,
        Op::Mul(c) => v.checked_mul(c)?,
        Op::Div(c) => v.checked_div(c)?,
    })
}

/// Wraps `v` to `bits` bits, signed or not.
fn wrap(v: i128, bits: u32, signed: bool) -> i128 {
    if bits >= 128 {
        return v;
    }
    let m = 1i128 << bits;
    let u = v.rem_euclid(m);
    if signed && u >= m / 2 {
        u - m
    } else {
        u
    }
}

fn compare(cmp: Cmp, a: i128, b: i128) -> Option<bool> {
    Some(match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt | Cmp::Lo => a < b,
        Cmp::Le | Cmp::Ls => a <= b,
        Cmp::Gt | Cmp::Hi => a > b,
        Cmp::Ge | Cmp::Hs => a >= b,
        _ => return None,
    })
}

fn swapped(cmp: Cmp) -> Cmp {
    match cmp {
        Cmp::Lt => Cmp::Gt,
        Cmp::Gt => Cmp::Lt,
        Cmp::Le => Cmp::Ge,
        Cmp::Ge => Cmp::Le,
        Cmp::Lo => Cmp::Hi,
        Cmp::Hi => Cmp::Lo,
        Cmp::Ls => Cmp::Hs,
        Cmp::Hs => Cmp::Ls,
        c => c,
    }
}

/// The number of times the body of `lp` runs per entry, when it is a
/// constant (see the module documentation); `Err` says why not.
pub fn trip_count(f: &Function, lp: &Loop) -> Result<u64, String> {
    trip_info(f, &Defs::new(f), lp).exact
}

/// What the exit tests of a loop tell.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TripInfo {
    /// Exact trip count (one exiting block, constants throughout).
    exact: Result<u64, String>,
    /// The smallest count over the exiting blocks whose count is known.
    max: Option<u64>,
    /// The smallest upper bound of the trip count, ranges included.
    upper: Option<u64>,
    /// The count can be computed at run time: one exiting block, an
    /// induction variable stepped by a constant or invariant amount,
    /// compared with a constant or invariant.
    runtime_computable: bool,
    /// The step is derived from `%ntid`/`%nctaid` (a block- or grid-stride
    /// loop).
    launch_stride: bool,
}

struct ExitInfo {
    count: Result<u64, String>,
    /// The count, when the exit's test is constant (an upper bound of the
    /// loop's trip count).
    bound: Option<u64>,
    /// An upper bound from the range of a variable bound (a mask).
    range_bound: Option<u64>,
    affine: bool,
    step_regs: Vec<RegId>,
}

fn trip_info(f: &Function, defs: &Defs, lp: &Loop) -> TripInfo {
    let exiting = exiting_blocks(lp);
    let infos: Vec<ExitInfo> = exiting
        .iter()
        .map(|&e| analyze_exit(f, defs, lp, e))
        .collect();
    let exact = match &infos[..] {
        [one] => one.count.clone(),
        _ => Err(format!("{} exiting blocks", exiting.len())),
    };
    let max = infos.iter().filter_map(|i| i.bound).min();
    let upper = infos.iter().filter_map(|i| i.bound.or(i.range_bound)).min();
    let (runtime_computable, launch_stride) = match &infos[..] {
        [one] => (
            one.affine,
            one.step_regs
                .iter()
                .any(|&r| from_launch_size(f, defs, r, 0)),
        ),
        _ => (false, false),
    };
    TripInfo {
        exact,
        max,
        upper,
        runtime_computable,
        launch_stride,
    }
}

/// Whether `reg` is computed (outside the loop, through `mov`, `mul`,
/// `cvt`, `add`) from `%ntid` or `%nctaid`.
fn from_launch_size(f: &Function, defs: &Defs, reg: RegId, depth: u32) -> bool {
    if depth > 6 {
        return false;
    }
    let Some(ds) = defs.of(&reg) else {
        return false;
    };
    ds.iter().any(|&(d, _)| {
        let inst = &f.insts[d];
        matches!(
            inst.opcode.info.family,
            FamilyId::Mov | FamilyId::Mul | FamilyId::Cvt | FamilyId::Add | FamilyId::Mad
        ) && inst.operands.iter().skip(1).any(|op| match op {
            Operand::Special { name, .. } => name == "%ntid" || name == "%nctaid",
            Operand::Reg { reg, .. } => from_launch_size(f, defs, *reg, depth + 1),
            _ => false,
        })
    })
}

fn fail(why: &str) -> ExitInfo {
    ExitInfo {
        count: Err(why.to_string()),
        bound: None,
        range_bound: None,
        affine: false,
        step_regs: Vec::new(),
    }
}

/// Where a predicate comes from: a `setp` (with the value of the predicate
/// that leaves the loop), or a constant.
enum Leaf {
    Setp(InstId, BlockId, bool),
    /// Whether the constant leaves the loop.
    Const(bool),
}

/// Follows `pred` (read by the exit branch; the loop is left when it equals
/// `exit_when`) through `not.pred` and `mov.pred` to its `setp`s and
/// constants (several where `-O0` code merges the conditions of `&&`).
fn leaves(
    f: &Function,
    defs: &Defs,
    lp: &Loop,
    pred: RegId,
    exit_when: bool,
    out: &mut Vec<Leaf>,
    depth: u32,
) -> bool {
    if depth > 8 {
        return false;
    }
    let Some(ds) = defs.of(&pred) else {
        return false;
    };
    for &(d, db) in ds {
        let inst = &f.insts[d];
        if !lp.contains(db) || inst.guard.is_some() {
            return false;
        }
        match (inst.opcode.info.family, inst.operands.get(1)) {
            (FamilyId::Not, Some(Operand::Reg { reg, .. })) if ds.len() == 1 => {
                if !leaves(f, defs, lp, *reg, !exit_when, out, depth + 1) {
                    return false;
                }
            }
            (FamilyId::Mov, Some(Operand::Reg { reg, .. })) => {
                if !leaves(f, defs, lp, *reg, exit_when, out, depth + 1) {
                    return false;
                }
            }
            (FamilyId::Mov, Some(op)) if imm(op).is_some() => {
                // Whether this constant leaves the loop.
                out.push(Leaf::Const((imm(op) != Some(0)) == exit_when));
            }
            (FamilyId::Setp, _) => out.push(Leaf::Setp(d, db, exit_when)),
            _ => return false,
        }
    }
    true
}

fn analyze_exit(f: &Function, defs: &Defs, lp: &Loop, e: BlockId) -> ExitInfo {
    let Some(&br) = f.blocks[e].insts.last() else {
        return fail("exiting block is empty");
    };
    let bra = &f.insts[br];
    let Some(guard) = bra
        .guard
        .filter(|_| bra.opcode.info.family == FamilyId::Bra)
    else {
        return fail("exit is not a conditional branch");
    };
    // Does taking the branch leave the loop?
    let taken_exits = f.branch_targets_of(bra).iter().any(|t| !lp.contains(*t));
    // The loop is left when the predicate equals `exit_when`.
    let exit_when = taken_exits != guard.negated;
    // A test in a latch runs after the body (rotated loop): one more run.
    let bottom = lp.latches.contains(&e);
    let mut found = Vec::new();
    if !leaves(f, defs, lp, guard.reg, exit_when, &mut found, 0) {
        return fail("exit predicate not from a setp");
    }
    match &found[..] {
        [Leaf::Setp(d, db, ew)] => analyze_setp(f, defs, lp, *d, *db, *ew, bottom),
        _ => {
            // `a && b` merged by -O0 code: every constant leaf leaves the
            // loop, so each setp bounds the count.
            let and_pattern = found.iter().all(|l| !matches!(l, Leaf::Const(false)));
            let bound = and_pattern
                .then(|| {
                    found
                        .iter()
                        .filter_map(|l| match l {
                            Leaf::Setp(d, db, ew) => {
                                analyze_setp(f, defs, lp, *d, *db, *ew, bottom).count.ok()
                            }
                            Leaf::Const(_) => None,
                        })
                        .min()
                })
                .flatten();
            ExitInfo {
                count: Err("several conditions in the exit test".into()),
                bound,
                range_bound: None,
                affine: false,
                step_regs: Vec::new(),
            }
        }
    }
}

fn analyze_setp(
    f: &Function,
    defs: &Defs,
    lp: &Loop,
    sd: InstId,
    sb: BlockId,
    exit_when: bool,
    bottom: bool,
) -> ExitInfo {
    let ev = Eval::new(f, defs, lp);
    let si = &f.insts[sd];
    if si.operands.len() != 3 {
        return fail("setp with a combining predicate");
    }
    let Some(mut cmp) = si.opcode.info.cmp else {
        return fail("setp without comparison");
    };
    let Some(ty) = si.opcode.info.types.last().filter(|t| t.is_int()) else {
        return fail("not an integer compare");
    };
    let val = |k: usize| match &si.operands[k] {
        Operand::Reg {
            reg,
            component: None,
        } => ev.reg(*reg, sd, sb, 0),
        op => imm(op).map_or(Val::Unknown, Val::Const),
    };
    let (mut a, mut b) = (val(1), val(2));
    if !matches!(a, Val::Iv(..)) {
        std::mem::swap(&mut a, &mut b);
        cmp = swapped(cmp);
    }
    let Val::Iv(reg, ops) = a else {
        return fail("no induction variable in the exit test");
    };
    let (limit, limit_max) = match b {
        Val::Const(c) => (Some(c), None),
        Val::Inv(r) => (None, range_max(f, defs, r)),
        _ => return fail("induction variable compared with a varying value"),
    };
    // The recurrence of `reg`: its one definition in the loop, in terms of
    // itself.
    let all = defs.of(&reg).map(<[_]>::to_vec).unwrap_or_default();
    let inside: Vec<_> = all
        .iter()
        .filter(|(_, b)| lp.contains(*b))
        .copied()
        .collect();
    let [(d, db)] = inside[..] else {
        return fail("induction register defined more than once");
    };
    let step = match ev.inst(d, db, 0) {
        Val::Iv(r2, step) if r2 == reg && !step.is_empty() => step,
        _ => return fail("unsupported induction step"),
    };
    let additive = |o: &Op| matches!(o, Op::Add(_) | Op::AddInv(_));
    let affine = ops.iter().all(additive) && step.iter().all(additive);
    let step_regs: Vec<RegId> = step
        .iter()
        .filter_map(|o| match o {
            Op::AddInv(r) => Some(*r),
            _ => None,
        })
        .collect();
    let outside: Vec<Val> = all
        .iter()
        .filter(|(_, b)| !lp.contains(*b))
        .map(|(i, _)| ev.outside(*i, 0))
        .collect();
    let init = match outside.first() {
        Some(Val::Const(c)) if outside.iter().all(|v| *v == Val::Const(*c)) => Some(*c),
        _ => None,
    };
    let count = match (init, limit) {
        (Some(init), Some(limit)) => simulate(
            init,
            limit,
            &ops,
            &step,
            cmp,
            exit_when,
            ty.bits(),
            ty.is_signed(),
            !bottom,
        ),
        (None, _) => Err("initial value not constant".into()),
        (_, None) => Err("bound not constant".into()),
    };
    // A bound whose value is unknown but limited (a mask): the count of the
    // largest bound limits the trip count (an increasing affine IV).
    let increasing = ops.iter().chain(&step).all(|o| matches!(o, Op::Add(_)))
        && step.iter().any(|o| matches!(o, Op::Add(c) if *c > 0))
        && matches!(cmp, Cmp::Lt | Cmp::Le | Cmp::Lo | Cmp::Ls);
    let range_bound = match (init, limit_max) {
        (Some(init), Some(max)) if increasing => simulate(
            init,
            max,
            &ops,
            &step,
            cmp,
            exit_when,
            ty.bits(),
            ty.is_signed(),
            !bottom,
        )
        .ok(),
        _ => None,
    };
    ExitInfo {
        bound: count.as_ref().ok().copied(),
        range_bound,
        count,
        affine,
        step_regs,
    }
}

#[allow(clippy::too_many_arguments)]
fn simulate(
    init: i128,
    limit: i128,
    ops: &[Op],
    step: &[Op],
    cmp: Cmp,
    exit_when: bool,
    bits: u32,
    signed: bool,
    exit_at_header: bool,
) -> Result<u64, String> {
    let l = wrap(limit, bits, signed);
    let mut x = init;
    for n in 0..SIMULATION_LIMIT {
        let mut v = x;
        for &op in ops {
            v = apply_op(v, op).ok_or("overflow")?;
        }
        let c = compare(cmp, wrap(v, bits, signed), l).ok_or("unsupported compare")?;
        if c == exit_when {
            return Ok(if exit_at_header { n } else { n + 1 });
        }
        for &op in step {
            x = apply_op(x, op).ok_or("overflow")?;
        }
        x = wrap(x, bits.max(64), signed);
    }
    Err(format!("more than {SIMULATION_LIMIT} iterations"))
}

fn exiting_blocks(lp: &Loop) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = Vec::new();
    for &(from, _) in &lp.exits {
        if !out.contains(&from) {
            out.push(from);
        }
    }
    out
}

/// The cost of one instruction in the loop's size (see the module doc);
/// `address_only` instructions cost nothing.
fn inst_cost(inst: &Inst) -> u32 {
    let info = &inst.opcode.info;
    match info.family {
        FamilyId::Mov => {
            // Special registers are intrinsic calls; the rest are copies.
            u32::from(matches!(
                inst.operands.get(1),
                Some(Operand::Special { .. })
            ))
        }
        FamilyId::Bra if inst.guard.is_none() => 0,
        FamilyId::Not if info.types.last() == Some(ptx_isa::Ty::Pred) => 0,
        FamilyId::Ld | FamilyId::St if info.space == Some(Space::Param) => 0,
        _ => 1,
    }
}

/// Instructions of the loop whose results only form load/store addresses
/// (64-bit `cvt`, `shl`, `add`, `mul.wide`): GEPs, free in LLVM's model.
fn address_only(f: &Function, lp: &Loop, defs: &Defs) -> HashSet<InstId> {
    let mut work: Vec<RegId> = Vec::new();
    for &b in &lp.blocks {
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let flags = inst.opcode.info.flags;
            if flags.loads() || flags.stores() || flags.is_atomic() {
                for op in &inst.operands {
                    if let Operand::Address(a) = op {
                        if let AddressBase::Reg(r) = a.base {
                            work.push(r);
                        }
                    }
                }
            }
        }
    }
    let mut out: HashSet<InstId> = HashSet::default();
    let mut cvt_sources: Vec<RegId> = Vec::new();
    let mut seen = HashSet::default();
    while let Some(r) = work.pop() {
        if !seen.insert(r) {
            continue;
        }
        let Some(d) = defs.of(&r) else { continue };
        for &(d, db) in d {
            if !lp.contains(db) {
                continue;
            }
            let inst = &f.insts[d];
            let info = &inst.opcode.info;
            let bits = info.types.first().map_or(0, |t| t.bits());
            let is_addr = match info.family {
                FamilyId::Cvt | FamilyId::Cvta => bits == 64,
                FamilyId::Shl | FamilyId::Add | FamilyId::Sub => info
                    .types
                    .last()
                    .is_some_and(|t| t.bits() == 64 && t.is_int()),
                FamilyId::Mul | FamilyId::Mad => inst.opcode.has_modifier(".wide"),
                FamilyId::Mov => true,
                _ => false,
            };
            if is_addr && inst.guard.is_none() {
                out.insert(d);
                if info.family == FamilyId::Cvt {
                    if let Some(Operand::Reg { reg, .. }) = inst.operands.get(1) {
                        cvt_sources.push(*reg);
                    }
                }
                for op in inst.operands.iter().skip(1) {
                    if let Operand::Reg { reg, .. } = op {
                        work.push(*reg);
                    }
                }
            }
        }
    }
    // The readers of each register in the loop.
    let mut users: HashMap<RegId, Vec<InstId>> = HashMap::default();
    if !cvt_sources.is_empty() {
        for &b in &lp.blocks {
            for &i in &f.blocks[b].insts {
                visit_defs_and_uses(&f.insts[i], |a, r| {
                    if a == Access::Use {
                        users.entry(r).or_default().push(i);
                    }
                });
            }
        }
    }
    // `i + k` (k constant or invariant) only sign-extended into addresses:
    // a GEP offset once InstCombine distributes the `sext` (nsw), free.
    for r in cvt_sources {
        let Some(ds) = defs.of(&r) else { continue };
        let [(d, db)] = ds[..] else { continue };
        let inst = &f.insts[d];
        let info = &inst.opcode.info;
        if !lp.contains(db)
            || inst.guard.is_some()
            || !matches!(info.family, FamilyId::Add | FamilyId::Sub)
            || !info.types.last().is_some_and(|t| t.is_int())
        {
            continue;
        }
        let invariant_operand = inst.operands.iter().skip(1).any(|op| match op {
            Operand::Reg { reg, .. } => defs
                .of(reg)
                .is_some_and(|ds| ds.iter().all(|(_, b)| !lp.contains(*b))),
            op => imm(op).is_some(),
        });
        let only_to_address = users
            .get(&r)
            .is_none_or(|us| us.iter().all(|i| out.contains(i)));
        if invariant_operand && only_to_address {
            out.insert(d);
        }
    }
    out
}

/// Pure instructions of the loop (no memory access) that compute the same
/// value in every iteration: their registers are defined outside the loop
/// or by other such instructions. LICM hoists them before cicc unrolls.
fn invariant_insts(f: &Function, lp: &Loop, defs: &Defs) -> HashSet<InstId> {
    let mut inv: HashSet<InstId> = HashSet::default();
    let reg_invariant = |r: RegId, inv: &HashSet<InstId>| {
        let Some(ds) = defs.of(&r) else {
            return true;
        };
        let mut inside = ds.iter().filter(|(_, b)| lp.contains(*b));
        match (inside.next(), inside.next()) {
            (None, _) => true,
            (Some((d, _)), None) => ds.len() == 1 && inv.contains(d),
            _ => false,
        }
    };
    for _ in 0..4 {
        let before = inv.len();
        for &b in &lp.blocks {
            for &i in &f.blocks[b].insts {
                let inst = &f.insts[i];
                let flags = inst.opcode.info.flags;
                if inv.contains(&i)
                    || inst.guard.is_some()
                    || !inst.is_pure()
                    || flags.loads()
                    || flags.is_branch()
                {
                    continue;
                }
                let du = ptx_ir::ir::defs_and_uses(inst);
                if du.uses.iter().all(|&r| reg_invariant(r, &inv)) {
                    inv.insert(i);
                }
            }
        }
        if inv.len() == before {
            break;
        }
    }
    inv
}

/// `BodySize` of a loop (all its blocks, inner loops included), and how
/// much of it folds once the induction register is a constant.
pub fn body_size(f: &Function, lp: &Loop) -> u32 {
    body_and_foldable(f, lp, &Defs::new(f), None).0
}

fn body_and_foldable(f: &Function, lp: &Loop, defs: &Defs, iv: Option<RegId>) -> (u32, u32) {
    let mut free = address_only(f, lp, defs);
    free.extend(invariant_insts(f, lp, defs));
    let mut size = 0u32;
    let mut foldable = 0u32;
    // Registers whose value is known once the IV is: the IV, constants.
    let mut known: HashSet<RegId> = iv.into_iter().collect();
    for &b in &lp.blocks {
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let cost = if free.contains(&i) {
                0
            } else {
                inst_cost(inst)
            };
            size += cost;
            let du = ptx_ir::ir::defs_and_uses(inst);
            let pure = inst.is_pure() && !inst.opcode.info.flags.is_branch();
            let folds = pure
                && iv.is_some()
                && du.uses.iter().all(|r| known.contains(r))
                && inst.guard.is_none();
            if folds {
                known.extend(du.defs.iter().copied());
                foldable += cost;
            } else if inst.opcode.info.family == FamilyId::Bra && inst.guard.is_some() {
                // The exit test folds with the IV.
                if du.uses.iter().all(|r| known.contains(r)) {
                    foldable += cost;
                }
            }
        }
    }
    (size, foldable)
}

/// Largest `.local` array the loop accesses, in elements of the access
/// width (0: none); an access to local memory whose array is not found
/// counts `unroll-assumed-size`.
fn local_array_size(f: &Function, lp: &Loop, defs: &Defs, assumed: u32) -> u32 {
    let local_bytes = |name: &str| -> Option<u64> {
        f.locals.iter().find_map(|l| match l {
            LocalDecl::Var(v) if v.space == ".local" => v.vars.iter().find_map(|var| {
                (var.name == name).then(|| {
                    let elt = ptx_isa::type_bits(&v.ty).unwrap_or(8).div_ceil(8) as u64;
                    var.dims
                        .iter()
                        .map(|d| d.unwrap_or(1))
                        .product::<u64>()
                        .saturating_mul(elt)
                })
            }),
            _ => None,
        })
    };
    // The local symbol an address register comes from.
    let trace = |mut r: RegId| -> Option<String> {
        for _ in 0..12 {
            let d = defs.of(&r)?;
            let [(d, _)] = d[..] else { return None };
            let inst = &f.insts[d];
            let mut next = None;
            for op in inst.operands.iter().skip(1) {
                match op {
                    Operand::Symbol { name, .. } if local_bytes(name).is_some() => {
                        return Some(name.clone())
                    }
                    Operand::Reg { reg, .. } if next.is_none() => next = Some(*reg),
                    _ => {}
                }
            }
            match inst.opcode.info.family {
                FamilyId::Mov | FamilyId::Add | FamilyId::Sub | FamilyId::Cvta | FamilyId::Cvt => {
                    r = next?
                }
                _ => return None,
            }
        }
        None
    };
    let mut max = 0u32;
    for &b in &lp.blocks {
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let info = &inst.opcode.info;
            if !(info.flags.loads() || info.flags.stores()) {
                continue;
            }
            let width =
                info.types.last().map_or(4, |t| t.bytes().max(1)) * u32::from(info.vec.max(1));
            let Some(Operand::Address(a)) = inst
                .operands
                .iter()
                .find(|o| matches!(o, Operand::Address(_)))
            else {
                continue;
            };
            let sym = match &a.base {
                AddressBase::Symbol(s) => local_bytes(s).map(|_| s.clone()),
                AddressBase::Reg(r) => trace(*r),
                AddressBase::Absolute => None,
            };
            let size = match sym {
                Some(s) => (local_bytes(&s).unwrap_or(0) / u64::from(width))
                    .min(u64::from(u32::MAX)) as u32,
                None if info.space == Some(Space::Local) => assumed,
                None => continue,
            };
            max = max.max(size);
        }
    }
    max
}

/// The user's pragma for a loop: annotations of the header, `.pragma
/// "nounroll"` in any block of the loop.
fn user_pragma(f: &Function, lp: &Loop) -> UserPragma {
    if lp.blocks.iter().any(|&b| has_nounroll_pragma(f, b)) {
        return UserPragma::Count(1);
    }
    annotation(f, lp.header).unwrap_or(UserPragma::None)
}

/// Whether block `b` starts with `.pragma "nounroll"`.
fn has_nounroll_pragma(f: &Function, b: BlockId) -> bool {
    f.blocks[b]
        .pragmas
        .iter()
        .any(|p| p.trim().trim_matches('"').eq_ignore_ascii_case("nounroll"))
}

/// The pragma a `ptxopt:` annotation of block `b` asks for (the last one).
fn annotation(f: &Function, b: BlockId) -> Option<UserPragma> {
    f.blocks[b]
        .annotations
        .iter()
        .rev()
        .find_map(|a| parse_annotation(a))
}

/// The fewest instructions of one copy [`repeated_body`] looks for.
const REPEAT_MIN_LEN: usize = 2;
/// The most instructions before the first copy (an address computed once
/// for the copies that follow it).
const REPEAT_MAX_PREFIX: usize = 2;

/// Whether the body of a single-block loop is `k >= 2` consecutive copies
/// of one instruction sequence (same opcodes with the same modifiers, at
/// least two different ones, so that a chain of `fma`s is not taken for
/// copies) starting within its first [`REPEAT_MAX_PREFIX`] instructions and
/// covering at least two thirds of the block: what an unroller leaves, such
/// as the main loop of cicc's `-O3` runtime unroll, which carries no mark
/// in PTX. Returns `k` (the most copies found, the shortest sequence
/// first).
pub fn repeated_body(f: &Function, lp: &Loop) -> Option<u32> {
    if lp.blocks.len() != 1 {
        return None;
    }
    let ops: Vec<Opcode> = f.blocks[lp.header]
        .insts
        .iter()
        .map(|&i| f.insts[i].opcode)
        .collect();
    let n = ops.len();
    for d in REPEAT_MIN_LEN..=n / 2 {
        let mut best: Option<u32> = None;
        for start in 0..=REPEAT_MAX_PREFIX.min(n - 2 * d) {
            let unit = &ops[start..start + d];
            if unit.iter().all(|&o| o == unit[0]) {
                continue;
            }
            let mut k = 1;
            while start + (k + 1) * d <= n && ops[start + k * d..start + (k + 1) * d] == *unit {
                k += 1;
            }
            if k >= 2 && 3 * k * d >= 2 * n {
                best = Some(best.map_or(k as u32, |b| b.max(k as u32)));
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

/// The facts of every loop of `f`, in `forest` order.
fn loop_facts(f: &Function, forest: &LoopForest, p: &UnrollParams) -> Vec<(LoopFacts, String)> {
    let defs = Defs::new(f);
    let function_size: u32 = f
        .layout
        .iter()
        .flat_map(|&b| f.blocks[b].insts.iter())
        .map(|&i| inst_cost(&f.insts[i]))
        .sum();
    forest
        .loops
        .iter()
        .map(|lp| {
            let info = trip_info(f, &defs, lp);
            let tc = info.exact.clone();
            let iv = iv_register(f, &defs, lp);
            let (body, foldable) = body_and_foldable(f, lp, &defs, iv);
            let has_convergent = lp.blocks.iter().any(|&b| {
                f.blocks[b]
                    .insts
                    .iter()
                    .any(|&i| f.insts[i].opcode.info.flags.is_convergent())
            });
            let why = tc.as_ref().err().cloned().unwrap_or_default();
            (
                LoopFacts {
                    trip_count: tc.ok(),
                    max_trip_count: info.max,
                    upper_bound: info.upper,
                    runtime_computable: info.runtime_computable,
                    estimated_trip_count: info.launch_stride.then_some(1),
                    body_size: body,
                    foldable,
                    local_array_size: local_array_size(f, lp, &defs, p.assumed_size),
                    innermost: lp.children.is_empty(),
                    pragma: user_pragma(f, lp),
                    exiting_blocks: exiting_blocks(lp).len() as u32,
                    has_convergent,
                    has_call: lp.blocks.iter().any(|&b| {
                        f.blocks[b]
                            .insts
                            .iter()
                            .any(|&i| f.insts[i].opcode.info.flags.is_call())
                    }),
                    function_size,
                    already_unrolled: repeated_body(f, lp),
                },
                why,
            )
        })
        .collect()
}

/// The induction register of the exit test, when there is one.
fn iv_register(f: &Function, defs: &Defs, lp: &Loop) -> Option<RegId> {
    // The phi-like registers (defined before and once in the loop) read by
    // a setp of the loop.
    let ev = Eval::new(f, defs, lp);
    for &b in &lp.blocks {
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            if inst.opcode.info.family != FamilyId::Setp {
                continue;
            }
            for op in inst.operands.iter().skip(1) {
                if let Operand::Reg { reg, .. } = op {
                    if let Val::Iv(r, _) = ev.reg(*reg, i, b, 0) {
                        return Some(r);
                    }
                }
            }
        }
    }
    None
}

/// One loop's decision: its header and what the cascade chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopDecision {
    pub header: BlockId,
    /// Source line of the header (its first instruction's `.loc`), if any.
    pub line: Option<u32>,
    pub decision: CiccDecision,
    /// Why the trip count is unknown (empty when known).
    pub trip_count_note: String,
}

/// The cascade for every loop of `func` (outer loops first, as
/// `ptx_analysis::loops` lists them). `disable-LoopUnrollPass` gives none.
pub fn decide(ctx: &dyn PassContext, func: &Function) -> Vec<LoopDecision> {
    if ctx.bool(knobs::disable_LoopUnrollPass) {
        return Vec::new();
    }
    let p = UnrollParams::from_ctx(ctx);
    decide_with(&p, func)
}

/// [`decide`] with explicit parameters.
pub fn decide_with(p: &UnrollParams, func: &Function) -> Vec<LoopDecision> {
    let cfg = ptx_analysis::cfg(func);
    let dom = ptx_analysis::dominators(&cfg);
    let forest = ptx_analysis::loops(&cfg, &dom);
    decide_on(p, func, &forest)
}

/// [`decide_with`] on the loops of `func`, found already.
fn decide_on(p: &UnrollParams, func: &Function, forest: &LoopForest) -> Vec<LoopDecision> {
    let facts = loop_facts(func, forest, p);
    forest
        .loops
        .iter()
        .zip(facts)
        .map(|(lp, (facts, note))| LoopDecision {
            header: lp.header,
            line: header_line(func, lp.header),
            decision: compute_unroll_count(p, &facts),
            trip_count_note: note,
        })
        .collect()
}

fn header_line(f: &Function, b: BlockId) -> Option<u32> {
    f.blocks[b]
        .insts
        .iter()
        .find_map(|&i| f.insts[i].loc().map(|l| l.line))
}

/// LLVM's `rotation-max-header-size` (LoopRotate's default, 16): the most
/// header instructions [`rotate`](super::loop_simplification::rotate)
/// copies to turn a `-O0` top-tested loop into the rotated form the
/// unroller expects.
pub const ROTATION_MAX_HEADER_SIZE: i64 = 16;

/// What the transform did with one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Replaced by `n` copies of its body.
    Full { n: u64 },
    /// Known trip count `n`: `factor` copies per iteration of the loop left,
    /// `n % factor` copies before it.
    Partial { n: u64, factor: u32 },
    /// Unknown trip count: `factor` copies guarded by a check that `factor`
    /// more iterations run, the original loop as the epilog remainder.
    Runtime { factor: u32 },
}

impl Applied {
    fn summary(self) -> String {
        match self {
            Applied::Full { n } => format!("fully unrolled ({n} iterations)"),
            Applied::Partial { n, factor } if n % u64::from(factor) == 0 => {
                format!("unrolled x{factor}")
            }
            Applied::Partial { n, factor } => format!(
                "unrolled x{factor} ({} remainder iterations peeled before the loop)",
                n % u64::from(factor)
            ),
            Applied::Runtime { factor } => {
                format!("unrolled x{factor}, runtime check and epilog remainder loop")
            }
        }
    }
}

/// Phase 22's IV description of a loop (what its transform's runtime check
/// reads), from the trip-count analysis: `None` when the stride is not a
/// constant, the limit neither a constant nor an invariant register, or the
/// compare not a 16-, 32- or 64-bit integer compare.
fn transform_iv(
    func: &Function,
    v: &ptx_analysis::trip_count::InductionVar,
) -> Option<super::loop_unrolling::decide::Iv> {
    use super::loop_unrolling::decide::{Iv, Limit};
    use ptx_analysis::trip_count::IvValue;
    let stride = match v.stride {
        IvValue::Const(s) if s != 0 => s,
        _ => return None,
    };
    let limit = match v.limit {
        IvValue::Const(c) => Limit::Imm(c),
        IvValue::Reg(r) => Limit::Reg(r),
        _ => return None,
    };
    let info = &func.insts[v.compare].opcode.info;
    let ty = info.ty()?;
    let forced_unsigned = matches!(info.cmp, Some(Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs));
    let signed = !forced_unsigned && ty.kind() == ptx_isa::TypeKind::Signed;
    let width = ty.bits();
    if !matches!(width, 16 | 32 | 64) {
        return None;
    }
    Some(Iv {
        reg: v.reg,
        compare: v.compare,
        stride,
        limit,
        op: v.continue_while,
        width,
        signed,
        after: v.compare_after_increment,
    })
}

/// In each of `blocks`, a copy `mov %c, %b` whose source is itself a copy
/// `mov %b, a` earlier in the block (`a` a register or an immediate,
/// neither register written between, the registers of one declared type,
/// unguarded) reads `a` instead: the copies of a `-O0` phi chain collapse
/// (and a constant start value reaches the induction variable), the
/// middle one left for DCE when nothing else reads it.
fn collapse_copy_chains(f: &mut Function, blocks: &[BlockId]) {
    let copy = |f: &Function, i: InstId| -> Option<(RegId, Operand)> {
        let inst = &f.insts[i];
        if inst.opcode.info.family != FamilyId::Mov || inst.guard.is_some() {
            return None;
        }
        let [Operand::Reg {
            reg: d,
            component: None,
        }, src] = inst.operands.as_slice()
        else {
            return None;
        };
        if f.regs[*d].vector.is_some() {
            return None;
        }
        match src {
            Operand::Reg {
                reg: s,
                component: None,
            } => {
                let same = f.regs[*d].ty == f.regs[*s].ty && f.regs[*s].vector.is_none();
                (d != s && same).then(|| (*d, src.clone()))
            }
            Operand::Imm(imm) if matches!(imm.value, ImmValue::Int(_)) => Some((*d, src.clone())),
            _ => None,
        }
    };
    for &b in blocks {
        // Copies available: destination, source.
        let mut avail: Vec<(RegId, Operand)> = Vec::new();
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            if let Some((d, Operand::Reg { reg: s, .. })) = copy(f, i) {
                if let Some((_, a)) = avail.iter().find(|(x, _)| *x == s) {
                    let same_ty = match a {
                        Operand::Reg { reg, .. } => f.regs[*reg].ty == f.regs[d].ty,
                        _ => true,
                    };
                    if same_ty && !matches!(a, Operand::Reg { reg, .. } if *reg == d) {
                        f.insts[i].operands[1] = a.clone();
                    }
                }
            }
            let mut defs: Vec<RegId> = Vec::new();
            visit_defs_and_uses(&f.insts[i], |a, r| {
                if a == Access::Def {
                    defs.push(r)
                }
            });
            avail.retain(|(x, y)| {
                !defs.contains(x) && !matches!(y, Operand::Reg { reg, .. } if defs.contains(reg))
            });
            if let Some(c) = copy(f, i) {
                avail.push(c);
            }
        }
    }
}

/// Whether every thread of a CTA that reaches the loop runs it the same
/// number of times: the induction variable's one write outside the loop
/// and the bound are computed, through registers written once, from
/// immediates, kernel parameters, symbols and the CTA-uniform special
/// registers (`ptx_analysis::reg_estimate::uniform_def`). Then a runtime
/// check and remainder loop send every thread through the same copies, and
/// a barrier (or any convergent instruction) in the body is reached by the
/// same threads as before: cicc's `unroll-runtime-convergent` relies on its
/// waterfall epilogue, which PTX does not give; this is the case where no
/// epilogue is needed (`odd_even_sort`: `for (i = 0; i < blockDim.x; i++)`
/// around `__syncthreads()`).
fn uniform_trip_count(f: &Function, l: &Loop, iv: &super::loop_unrolling::decide::Iv) -> bool {
    use super::loop_unrolling::decide::Limit;
    use ptx_analysis::reg_estimate::uniform_def;
    let acc = super::known::Accesses::new(f);
    let entry = f.sig.kind == ptx_ir::ir::FunctionKind::Entry;
    /// `w`'s value is CTA-uniform, following registers written once.
    fn proven(
        f: &Function,
        acc: &super::known::Accesses,
        entry: bool,
        w: InstId,
        depth: u32,
    ) -> bool {
        depth <= 8
            && uniform_def(&f.insts[w], entry, &mut |r| match acc.writers(r) {
                [one] => proven(f, acc, entry, *one, depth + 1),
                _ => false,
            })
    }
    let outside: Vec<InstId> = acc
        .writers(iv.reg)
        .iter()
        .copied()
        .filter(|&w| f.inst_position(w).is_none_or(|(b, _)| !l.contains(b)))
        .collect();
    let [start] = outside.as_slice() else {
        return false;
    };
    let bound = match iv.limit {
        Limit::Imm(_) => true,
        Limit::Reg(r) => matches!(acc.writers(r), [w] if proven(f, &acc, entry, *w, 0)),
    };
    bound && proven(f, &acc, entry, *start, 0)
}

/// Unrolls the loop at `header` of `f` as `choice` says, with phase 22's
/// transform (`loop_unrolling::transform::unroll`): rotated first (LLVM's
/// unroller runs on rotated loops; `-O0` PTX tests at the header), then the
/// trip count and IV of `ptx_analysis::trip_count` on the rotated loop make
/// the plan. `Err` with why when the loop cannot be transformed; `f` may
/// then be changed (the caller keeps a copy).
pub fn apply(
    f: &mut Function,
    header: BlockId,
    choice: Choice,
    origin: Option<InstId>,
    widened: &mut u64,
) -> Result<Applied, String> {
    use super::loop_unrolling::decide::Plan;
    use super::loop_unrolling::transform;
    use ptx_analysis::trip_count::TripCount;
    if matches!(choice, Choice::None | Choice::Peel { .. }) {
        return Err("nothing to unroll".into());
    }
    let exact: Result<u64, String> = {
        let g = ptx_analysis::cfg(f);
        let d = ptx_analysis::dominators(&g);
        let lf = ptx_analysis::loops(&g, &d);
        match lf.loop_with_header(header) {
            Some(id) => trip_count(f, lf.get(id)),
            None => Err("no loop".into()),
        }
    };
    let h = super::loop_simplification::rotate(f, header, ROTATION_MAX_HEADER_SIZE)
        .map_err(|why| format!("the loop cannot be rotated: {why}"))?;
    // The phi copies of `-O0` code (`add %r4, %r3, 1; mov %r15, %r4` in
    // the latch, `mov %r3, %r15` from the header, now in the latch too)
    // are coalesced as SSA would have them: copy chains collapse (`mov %r3, %r4`), then the copies left unread go.
    let all = f.layout.clone();
    collapse_copy_chains(f, &all);
    let dce = super::live_dead::run(PhaseId::OriPerformLiveDeadFirst, &Arc::new(f.clone()));
    *f = (*dce.function).clone();
    let g = ptx_analysis::cfg(f);
    let d = ptx_analysis::dominators(&g);
    let lf = ptx_analysis::loops(&g, &d);
    let id = lf
        .loop_with_header(h)
        .ok_or("the rotated loop is not a natural loop")?;
    let l = lf.get(id);
    let [latch] = l.latches.as_slice() else {
        return Err(format!("{} back edges after rotation", l.latches.len()));
    };
    let rd = ptx_analysis::reaching_defs(f, &g);
    let tc = ptx_analysis::trip_counts(f, &g, &d, &lf, &rd);
    let trip = &tc.loops[id.0 as usize];
    let runtime = |factor: u32| -> Result<(Plan, Applied), String> {
        let iv = trip.iv.as_ref().and_then(|v| transform_iv(f, v)).ok_or(
            "the trip count is unknown and no induction variable with a constant stride was found",
        )?;
        // The runtime check, before the loop, reads the bound: a bound
        // register written in the loop (an invariant value LLVM's LICM
        // would have hoisted, `selp` of a test of invariants, computed
        // again each iteration) has no value there yet on entry.
        if let super::loop_unrolling::decide::Limit::Reg(r) = iv.limit {
            let written = l.blocks.iter().any(|&b| {
                f.blocks[b]
                    .insts
                    .iter()
                    .any(|&i| ptx_ir::ir::defs_and_uses(&f.insts[i]).defs.contains(&r))
            });
            if written {
                return Err(format!(
                    "the loop bound {} is computed inside the loop: the runtime check before it cannot read it",
                    f.regs[r].name
                ));
            }
        }
        // The runtime check counts the iterations left from `limit - iv`:
        // a loop that ends by wrapping around (`i--` under an unsigned
        // `i < n`) has no such count (LLVM's SCEV computes none either).
        if !iv.moves_toward_exit() {
            return Err(format!(
                "the induction variable steps by {} away from its `{}` exit test: the loop ends only by wrapping around",
                iv.stride,
                iv.op.symbol()
            ));
        }
        // Threads of a warp may take different copies when the count
        // varies: a loop with a convergent instruction is left (phase 22's
        // rule for its runtime check).
        let convergent = l.blocks.iter().any(|&b| {
            f.blocks[b]
                .insts
                .iter()
                .any(|&i| f.insts[i].opcode.info.flags.is_convergent())
        });
        if convergent && !uniform_trip_count(f, l, &iv) {
            return Err(
                "a runtime check around a convergent instruction, with a trip count that may differ between threads"
                    .into(),
            );
        }
        // `stride * (factor - 1)` must fit the IV's signed type.
        let total = iv.stride.unsigned_abs() * (u128::from(factor) - 1);
        if total >= 1u128 << (iv.width - 1) {
            return Err("stride * (factor - 1) overflows the induction variable".into());
        }
        Ok((
            Plan::PartialUnknown {
                factor,
                epilogue_levels: 0,
                iv,
            },
            Applied::Runtime { factor },
        ))
    };
    let (plan, applied) = match (choice, &trip.count) {
        (_, TripCount::Known(0)) => return Err("the body never runs".into()),
        (Choice::Full { count }, TripCount::Known(n)) if *n == count => {
            (Plan::Full { n: *n }, Applied::Full { n: *n })
        }
        (Choice::Full { count }, TripCount::Known(n)) => {
            return Err(format!(
                "the rotated loop runs {n} times, not the {count} the decision counted"
            ))
        }
        (Choice::Full { count }, TripCount::Unknown(why)) => {
            // An induction variable `ptx_analysis::trip_count` does not
            // read (`i /= 2`, `i >>= 1`, `i *= 2`): the cascade's own exact
            // count of the loop before rotation (not an upper bound) must
            // be the count it decided on; rotation keeps how many times
            // the body runs.
            match exact {
                Ok(n) if n == count && n > 0 => (Plan::Full { n }, Applied::Full { n }),
                _ => {
                    return Err(format!(
                        "the trip count of the rotated loop is unknown: {why}"
                    ))
                }
            }
        }
        (
            Choice::Partial { count } | Choice::Pragma { count } | Choice::Runtime { count },
            TripCount::Known(n),
        ) => {
            if *n <= u64::from(count) {
                (Plan::Full { n: *n }, Applied::Full { n: *n })
            } else {
                (
                    Plan::PartialKnown {
                        n: *n,
                        factor: count,
                    },
                    Applied::Partial {
                        n: *n,
                        factor: count,
                    },
                )
            }
        }
        (Choice::Pragma { count } | Choice::Runtime { count }, TripCount::Unknown(_)) => {
            runtime(count)?
        }
        (Choice::Partial { .. }, TripCount::Unknown(why)) => {
            return Err(format!(
                "the trip count of the rotated loop is unknown: {why}"
            ))
        }
        (Choice::None | Choice::Peel { .. }, _) => return Err("nothing to unroll".into()),
    };
    if let Applied::Partial { factor, .. } | Applied::Runtime { factor } = applied {
        if factor < 2 {
            return Err("factor 1".into());
        }
    }
    // The offsets from the chunk's induction value its copies may extend
    // to 64 bits without a wrap (see `widen_offsets`).
    let span = match &plan {
        Plan::PartialUnknown { factor, iv, .. } => runtime_span(iv, *factor),
        Plan::PartialKnown { factor, .. } => trip
            .iv
            .as_ref()
            .and_then(|v| transform_iv(f, v))
            .and_then(|iv| known_span(&iv, *factor)),
        Plan::Full { .. } => None,
    };
    let shape = transform::LoopShape::new(f, h, *latch, &l.blocks)?;
    let unrolled = transform::unroll(f, &shape, &plan, origin)?;
    if let (Some(header), Some(span)) = (unrolled.new_header, span) {
        *widened += widen_offsets(f, header, &span, origin);
    }
    Ok(applied)
}

/// The induction register of an unrolled loop, at its header, and the
/// offsets from it that the loop's copies may add without the sum wrapping
/// in the IV's signedness: `reg + c` for `c` in `lo..=hi` is exact there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    reg: RegId,
    width: u32,
    signed: bool,
    lo: i128,
    hi: i128,
    /// The header is a runtime check (what it holds runs before the check
    /// proves anything): only the blocks after it are rewritten.
    checked: bool,
}

/// A runtime unroll's chunk runs from the IV's value `x` only when its
/// check held: `x + K < L` (ascending, `K` = [`guard_constant`], exact
/// arithmetic, `L` at most the type's maximum; `<=`: `x + K <= L`), so
/// `x + c` does not wrap for `c` in `0..=K+1` (`0..=K`); descending alike
/// below `x`. A `!=` test is checked in the signed order of the IV's
/// direction (`transform::emit_stage_limit`).
///
/// [`guard_constant`]: super::loop_unrolling::decide::guard_constant
fn runtime_span(iv: &super::loop_unrolling::decide::Iv, n: u32) -> Option<Span> {
    use ptx_analysis::trip_count::CmpOp;
    let k = super::loop_unrolling::decide::guard_constant(iv, n)? as i128;
    let (ascending, signed, strict) = match iv.op {
        CmpOp::Lt => (true, iv.signed, true),
        CmpOp::Le => (true, iv.signed, false),
        CmpOp::Gt => (false, iv.signed, true),
        CmpOp::Ge => (false, iv.signed, false),
        _ => (iv.stride > 0, true, true),
    };
    let lim = k + i128::from(strict);
    let (lo, hi) = if ascending { (0, lim) } else { (-lim, 0) };
    Some(Span {
        reg: iv.reg,
        width: iv.width,
        signed,
        lo,
        hi,
        checked: true,
    })
}

/// A known trip count was computed exactly with every value the IV takes
/// in range (`ptx_analysis::trip_count::count` refuses a count that needs
/// it to wrap), so the values of one chunk, `x .. x + (factor - 1) * s`,
/// are the IV's own values of consecutive iterations: no wrap.
fn known_span(iv: &super::loop_unrolling::decide::Iv, factor: u32) -> Option<Span> {
    let span = iv.stride.checked_mul(i128::from(factor) - 1)?;
    Some(Span {
        reg: iv.reg,
        width: iv.width,
        signed: iv.signed,
        lo: span.min(0),
        hi: span.max(0),
        checked: false,
    })
}

/// Whether a path within one iteration of `lp` (its blocks, no edge back
/// into its header) leads from `from` to `to` without entering `avoid`.
fn reaches_in_iteration<'s>(
    succs: &dyn Fn(BlockId) -> &'s [BlockId],
    lp: &Loop,
    from: BlockId,
    to: BlockId,
    avoid: Option<BlockId>,
) -> bool {
    let mut seen: HashSet<BlockId> = Default::default();
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        for &s in succs(b) {
            if s == lp.header || !lp.contains(s) || Some(s) == avoid {
                continue;
            }
            if s == to {
                return true;
            }
            if seen.insert(s) {
                work.push(s);
            }
        }
    }
    false
}

/// What [`OffsetCx::offset`] reads: the function, its reaching
/// definitions, the unrolled loop, whether a definition reaches a read
/// within one iteration, and the induction register.
struct OffsetCx<'a> {
    f: &'a Function,
    rd: &'a ptx_analysis::reaching_defs::ReachingDefs,
    lp: &'a Loop,
    within: &'a dyn Fn(InstId, InstId) -> bool,
    iv: RegId,
}

impl OffsetCx<'_> {
    /// `reg` read at `at` as the IV's value at the header plus a constant:
    /// the IV itself when every definition reaching the read comes from
    /// before the loop or around its back edge, else the one definition
    /// reaching it within the iteration, an unguarded 32-bit `mov`, or
    /// `add`/`sub` of an immediate, of such a value.
    fn offset(&self, reg: RegId, at: InstId, depth: u32) -> Option<i128> {
        if depth > 16 {
            return None;
        }
        let u = self.rd.reaching_use(at, reg)?;
        if u.from_entry || u.defs.is_empty() {
            return None;
        }
        let inner: Vec<InstId> = u
            .defs
            .iter()
            .map(|&d| self.rd.def(d))
            .filter(|d| self.lp.contains(d.block) && (self.within)(d.inst, at))
            .map(|d| d.inst)
            .collect();
        match inner[..] {
            [] if reg == self.iv => Some(0),
            [d] if u.defs.len() == 1 => {
                let inst = &self.f.insts[d];
                let info = &inst.opcode.info;
                if inst.guard.is_some()
                    || info.sat
                    || info
                        .flags
                        .intersects(ptx_isa::OpFlags::CARRY_IN.union(ptx_isa::OpFlags::CARRY_OUT))
                    || !info.ty().is_some_and(|t| t.is_int() && t.bits() == 32)
                {
                    return None;
                }
                let src = |k: usize| inst.operands.get(k).and_then(super::known::plain_reg);
                let imm_at = |k: usize| inst.operands.get(k).and_then(imm);
                let next = |r: RegId| self.offset(r, d, depth + 1);
                match (info.family, inst.operands.len()) {
                    (FamilyId::Mov, 2) => next(src(1)?),
                    (FamilyId::Add, 3) => match (src(1), imm_at(2), src(2), imm_at(1)) {
                        (Some(r), Some(c), _, _) | (_, _, Some(r), Some(c)) => Some(next(r)? + c),
                        _ => None,
                    },
                    (FamilyId::Sub, 3) => Some(next(src(1)?)? - imm_at(2)?),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// In the loop with header `header` that an unroll left, a copy's
/// `cvt.s64.s32 %d, %j` or `mul.wide.s32 %d, %j, C` (`.u32` for an
/// unsigned IV) of `%j = x + c` (the IV's value at the header plus a
/// constant, through `add`/`sub` of immediates and `mov`s) with `c` in the
/// span becomes `add.s64 %d, %e, c * C`, where `%e` is the extension of `x`
/// computed once at the header: `ext(x + c) = ext(x) + c` because `x + c`
/// does not wrap ([`Span`]). This is what LLVM knows from the `nsw`/`nuw`
/// flags of the IV's increments and what lets cicc -O3 address the copies'
/// elements as `[%rd+4]`, `[%rd+8]`, ...: offset reassociation and address
/// folding (GeneralOptimize 13) then do the same here. PTX has no such
/// flags; the unroller's own check (or the exact trip count) is the proof.
/// Returns the number of instructions rewritten.
fn widen_offsets(f: &mut Function, header: BlockId, span: &Span, origin: Option<InstId>) -> u64 {
    if span.width != 32 || !f.has_block(header) {
        return 0;
    }
    let g = ptx_analysis::cfg(f);
    let d = ptx_analysis::dominators(&g);
    let lf = ptx_analysis::loops(&g, &d);
    let Some(id) = lf.loop_with_header(header) else {
        return 0;
    };
    let lp = lf.get(id);
    let rd = ptx_analysis::reaching_defs(f, &g);
    let position = |i: InstId| g.position_of(i);
    // Whether definition `def` (in the loop) reaches `at` within one
    // iteration: earlier in its block, or on a path that does not pass the
    // header.
    let within = |def: InstId, at: InstId| -> bool {
        let (Some(db), Some(ub)) = (g.block_of(def), g.block_of(at)) else {
            return false;
        };
        if db == ub && position(def) < position(at) {
            return true;
        }
        reaches_in_iteration(&|b| g.succs(b), lp, db, ub, None)
    };
    let cx = OffsetCx {
        f,
        rd: &rd,
        lp,
        within: &within,
        iv: span.reg,
    };
    // The candidates: (instruction, source, multiplier).
    let ext = if span.signed { ".s32" } else { ".u32" };
    let mut edits: Vec<(InstId, i128, i128, bool)> = Vec::new();
    for &b in &lp.blocks {
        if b == header && span.checked {
            continue;
        }
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let info = &inst.opcode.info;
            if inst.guard.is_some() || info.vec != 1 {
                continue;
            }
            let wide = info.family == FamilyId::Mul
                && inst.opcode.has_modifier(".wide")
                && info.types.first().is_some_and(|t| t.name() == ext)
                && inst.operands.len() == 3;
            let cvt = info.family == FamilyId::Cvt
                && inst.operands.len() == 2
                && info.types.iter().nth(1).is_some_and(|t| t.name() == ext)
                && info
                    .types
                    .first()
                    .is_some_and(|t| t.is_int() && t.bits() == 64);
            if !wide && !cvt {
                continue;
            }
            let Some(j) = inst.operands.get(1).and_then(super::known::plain_reg) else {
                continue;
            };
            let scale = if wide {
                match inst.operands.get(2).and_then(imm) {
                    Some(c) => c,
                    None => continue,
                }
            } else {
                1
            };
            let Some(c) = cx.offset(j, i, 0) else {
                continue;
            };
            if c < span.lo || c > span.hi {
                continue;
            }
            let Some(delta) = c.checked_mul(scale).filter(|v| v.unsigned_abs() < 1 << 31) else {
                continue;
            };
            edits.push((i, scale, delta, wide));
        }
    }
    // The first copy's extension (`c` 0) is rebased too when a later copy's
    // is, so that all of them read the one at the header (offset
    // reassociation then finds `%e << 2` for each `(%e + c) << 2`).
    if edits.iter().all(|e| e.2 == 0) {
        return 0;
    }
    // One extension of the header's value per multiplier, at the top of the
    // header.
    let mut made: Vec<((i128, bool), RegId)> = Vec::new();
    let mut count = 0;
    for (i, scale, delta, wide) in edits {
        let e = match made.iter().find(|(k, _)| *k == (scale, wide)) {
            Some(&(_, r)) => r,
            None => {
                let r = f.new_reg(".b64", None);
                let reg_op = |r: RegId| Operand::Reg {
                    reg: r,
                    component: None,
                };
                let inst = if wide {
                    Inst {
                        guard: None,
                        opcode: Opcode::new("mul", vec![".wide".into(), ext.into()]),
                        operands: vec![
                            reg_op(r),
                            reg_op(span.reg),
                            Operand::Imm(ptx_ir::ir::Imm::new(ImmValue::Int(scale))),
                        ],
                        locs: Default::default(),
                        range: Default::default(),
                    }
                } else {
                    let to = if span.signed { ".s64" } else { ".u64" };
                    Inst {
                        guard: None,
                        opcode: Opcode::new("cvt", vec![to.into(), ext.into()]),
                        operands: vec![reg_op(r), reg_op(span.reg)],
                        locs: Default::default(),
                        range: Default::default(),
                    }
                };
                let id = f.add_inst(inst, origin);
                f.blocks[header].insts.insert(0, id);
                made.push(((scale, wide), r));
                r
            }
        };
        let old = &f.insts[i];
        let e_op = Operand::Reg {
            reg: e,
            component: None,
        };
        let (opcode, operands) = if delta == 0 {
            (
                Opcode::new("mov", vec![".b64".into()]),
                vec![old.operands[0].clone(), e_op],
            )
        } else {
            (
                Opcode::new("add", vec![".s64".into()]),
                vec![
                    old.operands[0].clone(),
                    e_op,
                    Operand::Imm(ptx_ir::ir::Imm::new(ImmValue::Int(delta))),
                ],
            )
        };
        let new = Inst {
            guard: None,
            opcode,
            operands,
            locs: old.locs.clone(),
            range: old.range,
        };
        f.insts[i] = new;
        count += 1;
    }
    count
}

/// Runs the phase: the cascade decides every loop, and each loop it
/// unrolls is transformed (see [`apply`]), innermost first, the decision
/// of a loop taken on the function as the inner loops left it (as LLVM's
/// loop pass manager visits loops). Loop reports and remarks say what was
/// done, or why a chosen unroll was not.
pub fn run(id: PhaseId, ctx: &dyn PassContext, input: &Arc<Function>) -> PhaseOutput {
    let mut out = PhaseOutput::unchanged(input);
    if ctx.bool(knobs::disable_LoopUnrollPass) {
        return out;
    }
    let p = UnrollParams::from_ctx(ctx);
    // `decide`, on the loops of the input the phase before may have found.
    let decisions = decide_on(&p, input, &super::version_cache::loop_info(input).forest);
    if decisions.is_empty() {
        return out;
    }
    let any = decisions
        .iter()
        .any(|d| !matches!(d.decision.choice, Choice::None | Choice::Peel { .. }));
    let mut results: Vec<(LoopDecision, Result<Applied, String>)> = Vec::new();
    let mut changed = false;
    let mut webs = 0;
    let mut widened = 0u64;
    if any {
        // The loops of the input, innermost first (deepest first, then
        // later in the layout first).
        let order: Vec<BlockId> = {
            let li = super::version_cache::loop_info(input);
            let lf = &li.forest;
            let mut hs: Vec<(u32, usize, BlockId)> = lf
                .loops
                .iter()
                .map(|l| {
                    let pos = input.layout_position(l.header).unwrap_or(0);
                    (lf.depth(l.header), pos, l.header)
                })
                .collect();
            hs.sort();
            hs.into_iter().rev().map(|(_, _, h)| h).collect()
        };
        // simplifycfg before the loop passes: jumps to the next block and
        // `not.pred` folded, so that the header ends with its exit test.
        let mut f = (*super::branch_opt::run(PhaseId::OriBranchOpt, ctx, input).function).clone();
        for h in order {
            let first = decisions.iter().find(|d| d.header == h).cloned();
            let Some(first) = first else { continue };
            let now = f
                .has_block(h)
                .then(|| decide_with(&p, &f).into_iter().find(|d| d.header == h))
                .flatten();
            let Some(d) = now else {
                results.push((
                    first,
                    Err("the loop is gone (an enclosing loop changed)".into()),
                ));
                continue;
            };
            if matches!(d.decision.choice, Choice::None | Choice::Peel { .. }) {
                results.push((d, Err(String::new())));
                continue;
            }
            let origin = input.blocks[h].insts.first().and_then(|&i| input.origin(i));
            let mut g = f.clone();
            match apply(&mut g, h, d.decision.choice, origin, &mut widened) {
                Ok(a) => {
                    f = g;
                    changed = true;
                    results.push((d, Ok(a)));
                }
                Err(why) => results.push((d, Err(why))),
            }
        }
        if changed {
            super::branch_opt::merge_straight_line(&mut f);
            // The copies' values in registers of their own, as LLVM's SSA
            // copies have them.
            webs = super::webs::split(&mut f);
            out.function = Arc::new(f);
            simplify_after_unroll(id, &mut out);
        }
    } else {
        results = decisions
            .into_iter()
            .map(|d| (d, Err(String::new())))
            .collect();
    }
    mark_nounroll_annotations(&mut out);
    report(id, input, &mut out, results);
    out.stats.extend(super::webs::counter(webs));
    if widened > 0 {
        out.stats.push(Stat {
            name: "IV extensions of the copies rebased on the chunk's",
            value: widened,
        });
    }
    out
}

/// What LLVM's unroller does to the copies it made before the passes after
/// it see them (`simplifyLoopAfterUnroll`: the induction variable's users
/// simplified with what scalar evolution knows, then InstSimplify): an
/// `and`/`rem.u` of a copy's induction value whose low bits the unroll
/// fixed becomes a constant
/// ([`super::general_optimize::congruence`]: `p & 1` in the copies of a
/// loop unrolled by 4 from 0), and what reads it is folded
/// ([`super::general_optimize::const_fold`]). Then `early-machinelicm`, which
/// has no barrier rule, hoists what the copies compute from loop invariants
/// alone, as cicc -O3's output shows (`odd_even_sort`).
fn simplify_after_unroll(id: PhaseId, out: &mut PhaseOutput) {
    let cong = super::general_optimize::congruence::run(id, &out.function);
    if Arc::ptr_eq(&cong.function, &out.function) {
        return;
    }
    let folded = super::general_optimize::const_fold::run(id, &cong.function);
    out.function = folded.function;
    out.remarks.extend(cong.remarks);
    out.remarks.extend(folded.remarks);
    out.stats.extend(cong.stats);
}

/// `// ptxopt: nounroll` (`#pragma unroll 1`) becomes what cicc makes of
/// `#pragma unroll 1`: `.pragma "nounroll"` at the start of the loop's
/// header. Comments are not in the output, and the pragma says the same to
/// ptxas (phase 22) and to this phase run on the output.
fn mark_nounroll_annotations(out: &mut PhaseOutput) {
    let f = &out.function;
    if f.layout.iter().all(|&b| f.blocks[b].annotations.is_empty()) {
        return;
    }
    let headers: Vec<BlockId> = {
        let g = ptx_analysis::cfg(f);
        let dm = ptx_analysis::dominators(&g);
        ptx_analysis::loops(&g, &dm)
            .loops
            .iter()
            .map(|l| l.header)
            .filter(|&h| {
                annotation(f, h) == Some(UserPragma::Count(1)) && !has_nounroll_pragma(f, h)
            })
            .collect()
    };
    if headers.is_empty() {
        return;
    }
    let f = Arc::make_mut(&mut out.function);
    for h in headers {
        f.blocks[h].pragmas.push("\"nounroll\"".to_string());
    }
}

/// The loop reports, remarks and counters of the decisions and what was
/// done with them (`Err("")`: the cascade chose not to unroll).
fn report(
    id: PhaseId,
    input: &Function,
    out: &mut PhaseOutput,
    results: Vec<(LoopDecision, Result<Applied, String>)>,
) {
    let (mut unrolled, mut kept) = (0u64, 0u64);
    for (d, result) in results {
        let (header, header_end) = super::loop_common::header_span(input, d.header);
        let c = &d.decision;
        let wanted = match c.choice {
            Choice::Full { count } => format!("full unroll ({count} iterations)"),
            Choice::Partial { count } | Choice::Pragma { count } => format!("unroll x{count}"),
            Choice::Runtime { count } => format!("unroll x{count} with a runtime remainder"),
            Choice::Peel { count } => format!("peel {count}"),
            Choice::None => "no unroll".to_string(),
        };
        let (summary, message) = match &result {
            Ok(a) => (
                a.summary(),
                format!("{} ({}): {}", a.summary(), c.level, c.reason),
            ),
            Err(why) if why.is_empty() => match c.choice {
                Choice::Peel { count } => (
                    format!("not unrolled (peeling {count} is not done)"),
                    format!(
                        "not unrolled, peeling {count} is not done ({}): {}",
                        c.level, c.reason
                    ),
                ),
                _ => (
                    format!("not unrolled: {}", c.reason),
                    format!("not unrolled ({}): {}", c.level, c.reason),
                ),
            },
            Err(why) => (
                format!("not unrolled: {wanted} chosen, but {why}"),
                format!(
                    "not unrolled: {wanted} chosen ({}: {}), but {why}",
                    c.level, c.reason
                ),
            ),
        };
        let mut facts = c.facts.clone();
        facts.push(("level", c.level.to_string()));
        facts.push(("decision", wanted));
        if !d.trip_count_note.is_empty() {
            facts.push(("trip count unknown", d.trip_count_note.clone()));
        }
        let (factor, full) = match result {
            Ok(Applied::Full { n }) => (n.min(u64::from(u32::MAX)) as u32, true),
            Ok(Applied::Partial { factor, .. } | Applied::Runtime { factor }) => (factor, false),
            Err(_) => (1, false),
        };
        let done = factor > 1 || full;
        if done {
            unrolled += 1;
        } else {
            kept += 1;
        }
        out.remarks.push(Remark {
            phase: id,
            kind: if done {
                RemarkKind::Applied
            } else {
                RemarkKind::Missed
            },
            name: "loop-unroll",
            origin: header,
            message,
        });
        out.loops.push(LoopReport {
            phase: id,
            header,
            header_end,
            summary,
            unroll: Some(UnrollDecision {
                factor: factor.max(1),
                full,
                code: None,
                reason: c.reason.clone(),
            }),
            facts,
        });
    }
    if unrolled + kept > 0 {
        out.stats.push(Stat {
            name: "loops unrolled",
            value: unrolled,
        });
        out.stats.push(Stat {
            name: "loops not unrolled",
            value: kept,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(body: &str) -> Function {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p, .param .u32 n)\n{{\n.reg .pred %p<20>;\n.reg .b32 %r<60>;\n.reg .f32 %f<40>;\n.reg .b64 %rd<40>;\n{body}\n}}\n"
        );
        let (m, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        assert!(errors.is_empty(), "{errors:?}");
        m.functions.into_iter().next().unwrap()
    }

    /// `for (int k = 0; k < N; ++k) acc += p[k]` as cicc -O0 writes it.
    fn counted(n: &str, extra: &str, annotation: &str) -> Function {
        function(&format!(
            "ld.param.u64 %rd1, [p];
    ld.param.u32 %r10, [n];
    mov.u32 %r4, 0;
    mov.f32 %f4, 0f00000000;
    mov.f32 %f7, %f4;
    mov.u32 %r9, %r4;
    bra.uni $L1;
{annotation}
$L1:
    mov.u32 %r2, %r9;
    mov.f32 %f2, %f7;
    setp.lt.s32 %p1, %r2, {n};
    not.pred %p2, %p1;
    @%p2 bra $L4;
    bra.uni $L2;
$L2:
    cvt.s64.s32 %rd10, %r2;
    shl.b64 %rd11, %rd10, 2;
    add.s64 %rd12, %rd1, %rd11;
    ld.global.f32 %f6, [%rd12];
    add.f32 %f3, %f2, %f6;
{extra}
    bra.uni $L3;
$L3:
    add.s32 %r3, %r2, 1;
    mov.f32 %f7, %f3;
    mov.u32 %r9, %r3;
    bra.uni $L1;
$L4:
    ret;"
        ))
    }

    fn one(f: &Function) -> LoopDecision {
        let d = decide_with(&UnrollParams::nvidia_defaults(), f);
        assert_eq!(d.len(), 1, "{d:?}");
        d.into_iter().next().unwrap()
    }

    #[test]
    fn trip_count_and_size_of_o0_loop() {
        let f = counted("12", "", "");
        let d = one(&f);
        let facts = &d.decision.facts;
        assert_eq!(facts[0], ("trip count", "12".to_string()), "{d:?}");
        // setp, bra, ld, add.f32, add.s32 (copies, address and `not` free).
        assert_eq!(facts[1], ("body size", "5".to_string()), "{d:?}");
        assert_eq!(d.decision.choice, Choice::Full { count: 12 });
    }

    fn facts(trip: Option<u64>, body: u32) -> LoopFacts {
        LoopFacts {
            trip_count: trip,
            max_trip_count: None,
            upper_bound: None,
            runtime_computable: true,
            estimated_trip_count: None,
            body_size: body,
            foldable: 0,
            local_array_size: 0,
            innermost: true,
            pragma: UserPragma::None,
            exiting_blocks: 1,
            has_convergent: false,
            has_call: false,
            function_size: 1000,
            already_unrolled: None,
        }
    }

    fn choose(f: &LoopFacts) -> (Choice, &'static str) {
        let d = compute_unroll_count(&UnrollParams::nvidia_defaults(), f);
        (d.choice, d.level)
    }

    #[test]
    fn nvidia_defaults_from_the_registry() {
        let p = UnrollParams::nvidia_defaults();
        assert_eq!(p.threshold, 300);
        assert_eq!(p.partial_threshold, 75);
        assert_eq!(p.max_percent_threshold_boost, 400);
        assert_eq!(p.pragma_threshold, 32768);
        assert_eq!(p.runtime_unroll_threshold, 95);
        assert_eq!(p.flat_loop_tripcount_threshold, 5);
        assert_eq!(p.max_upperbound, 8);
        assert_eq!(p.max_pragma_upperbound, 64);
        assert_eq!(p.assumed_size, 4);
        assert_eq!(p.max_iterations_to_analyze, 10);
        assert!(p.runtime && p.allow_partial && p.runtime_convergent);
        assert_eq!(p.estimate(4, 12), 2 + 4 * 10);
    }

    #[test]
    fn priority_1_local_array_multiplier_capped_at_6() {
        // Trip count 100, body 10: 2 + 100 * 8 = 802 > 300 (partial x4 without
        // the multiplier).
        let mut f = facts(Some(100), 10);
        assert_eq!(choose(&f), (Choice::Partial { count: 4 }, "partial"));
        // A 2-element array: 600 < 802, still partial; 3 elements: 900.
        f.local_array_size = 2;
        assert_eq!(choose(&f).0, Choice::Partial { count: 4 });
        f.local_array_size = 3;
        assert_eq!(choose(&f), (Choice::Full { count: 100 }, "full"));
        // 64 elements count as 6: 1800, not 19200.
        f.local_array_size = 64;
        f.trip_count = Some(250); // 2 + 250 * 8 = 2002 > 1800
        assert_eq!(choose(&f).0, Choice::Partial { count: 2 });
        let d = compute_unroll_count(&UnrollParams::nvidia_defaults(), &f);
        assert!(d.facts.contains(&("multiplier", "6".into())), "{d:?}");
        assert!(d.facts.contains(&("threshold", "1800".into())), "{d:?}");
    }

    #[test]
    fn priority_2_pragma_count() {
        let mut f = facts(Some(12), 10);
        f.pragma = UserPragma::Count(1);
        assert_eq!(choose(&f), (Choice::None, "pragma"));
        f.pragma = UserPragma::Count(4);
        assert_eq!(choose(&f), (Choice::Pragma { count: 4 }, "pragma"));
        // A count that covers the trip count unrolls fully.
        f.pragma = UserPragma::Count(16);
        assert_eq!(choose(&f), (Choice::Full { count: 12 }, "pragma"));
        // Over multiplier * 32768: a smaller factor dividing the trip count.
        let mut big = facts(Some(1000), 10_002);
        big.pragma = UserPragma::Count(8); // 2 + 8 * 10000 > 32768
        assert_eq!(choose(&big).0, Choice::Pragma { count: 2 }); // 3 does not divide 1000
                                                                 // Unknown trip count: the count stands, with a remainder.
        let mut rt = facts(None, 10);
        rt.pragma = UserPragma::Count(3);
        let d = compute_unroll_count(&UnrollParams::nvidia_defaults(), &rt);
        assert_eq!(d.choice, Choice::Pragma { count: 3 });
    }

    #[test]
    fn priority_3_full_unroll_pragma_and_threshold() {
        // 2 + 8 * (34 - 2) = 258 <= 300: the seed's 8-iteration example.
        assert_eq!(
            choose(&facts(Some(8), 34)),
            (Choice::Full { count: 8 }, "full")
        );
        // 2 + 8 * 38 = 306 > 300: partial x4 does not fit 75 either.
        assert_eq!(choose(&facts(Some(8), 40)).0, Choice::None);
        // `#pragma unroll`: the pragma threshold.
        let mut f = facts(Some(8), 40);
        f.pragma = UserPragma::Full;
        assert_eq!(choose(&f), (Choice::Full { count: 8 }, "pragma-full"));
        // The dynamic simulation: 10 iterations of 40, 30 of which fold:
        // rolled 400, unrolled 100, boost min(400, 400) = 400%: 100 < 1200.
        let mut g = facts(Some(10), 40);
        g.foldable = 30;
        assert_eq!(choose(&g), (Choice::Full { count: 10 }, "full"));
        // Beyond unroll-max-iteration-count-to-analyze (10): no simulation.
        g.trip_count = Some(11);
        assert_ne!(choose(&g).0, Choice::Full { count: 11 });
        // Upper bound: unknown count, an exit bounds it by 2 <= 8.
        let mut u = facts(None, 40);
        u.max_trip_count = Some(2);
        assert_eq!(choose(&u), (Choice::Full { count: 2 }, "full"));
        u.max_trip_count = Some(9);
        assert_ne!(choose(&u).1, "full");
    }

    #[test]
    fn priority_4_peeling_by_knob() {
        let mut p = UnrollParams::nvidia_defaults();
        p.peel_count = 2;
        let d = compute_unroll_count(&p, &facts(None, 10));
        assert_eq!((d.choice, d.level), (Choice::Peel { count: 2 }, "peel"));
    }

    #[test]
    fn priority_5_power_of_two_dividing_the_trip_count() {
        // PartialThreshold 75: body 12 fits 4 copies (2 + 4 * 10 = 42).
        assert_eq!(
            choose(&facts(Some(400), 12)),
            (Choice::Partial { count: 4 }, "partial")
        );
        // Trip count 102: 4 does not divide, 3 is no power of two: 2.
        assert_eq!(
            choose(&facts(Some(102), 12)).0,
            Choice::Partial { count: 2 }
        );
        // Odd trip count: nothing.
        assert_eq!(choose(&facts(Some(101), 12)).0, Choice::None);
        // Body 30: (75 - 2) / 28 = 2 copies at most.
        assert_eq!(
            choose(&facts(Some(400), 30)).0,
            Choice::Partial { count: 2 }
        );
        // Not innermost: no partial unrolling.
        let mut f = facts(Some(400), 12);
        f.innermost = false;
        assert_eq!(choose(&f).0, Choice::None);
        // unroll-count=8 with a budget for 4 only: clamped to 4.
        let mut p = UnrollParams::nvidia_defaults();
        p.count = 8;
        let d = compute_unroll_count(&p, &facts(Some(400), 12));
        assert_eq!(d.choice, Choice::Partial { count: 4 });
    }

    #[test]
    fn priority_6_runtime_thresholds() {
        // Body 20: 2 + 4 * 18 = 74 <= 75: x4; body 21: 78 > 75: x2.
        assert_eq!(
            choose(&facts(None, 20)),
            (Choice::Runtime { count: 4 }, "runtime")
        );
        assert_eq!(choose(&facts(None, 21)).0, Choice::Runtime { count: 2 });
        // Body 39: 2 + 2 * 37 = 76 > 75: none.
        assert_eq!(choose(&facts(None, 39)).0, Choice::None);
        // runtime-unroll-threshold 95 (with a larger partial threshold).
        let mut p = UnrollParams::nvidia_defaults();
        p.partial_threshold = 1000;
        assert_eq!(
            compute_unroll_count(&p, &facts(None, 95)).choice,
            Choice::Runtime { count: 4 }
        );
        assert_eq!(
            compute_unroll_count(&p, &facts(None, 96)).choice,
            Choice::None
        );
        // A small upper bound (`k < (i & 7)`: at most 7 < 8) is not unrolled.
        let mut small = facts(None, 10);
        small.upper_bound = Some(7);
        assert_eq!(choose(&small).0, Choice::None);
        small.upper_bound = Some(8);
        assert_eq!(choose(&small).0, Choice::Runtime { count: 4 });
        // Flat loops, several exits, not computable, knob off.
        let mut f = facts(None, 10);
        f.estimated_trip_count = Some(4);
        assert_eq!(choose(&f).0, Choice::None);
        f.estimated_trip_count = Some(5);
        assert_eq!(choose(&f).0, Choice::Runtime { count: 4 });
        let mut g = facts(None, 10);
        g.exiting_blocks = 2;
        assert_eq!(choose(&g).0, Choice::None);
        let mut h = facts(None, 10);
        h.runtime_computable = false;
        assert_eq!(choose(&h).0, Choice::None);
        let mut p = UnrollParams::nvidia_defaults();
        p.runtime = false;
        assert_eq!(
            compute_unroll_count(&p, &facts(None, 10)).choice,
            Choice::None
        );
        // Convergent operations: allowed by unroll-runtime-convergent.
        let mut c = facts(None, 10);
        c.has_convergent = true;
        assert_eq!(choose(&c).0, Choice::Runtime { count: 4 });
        let mut p = UnrollParams::nvidia_defaults();
        p.runtime_convergent = false;
        assert_eq!(compute_unroll_count(&p, &c).choice, Choice::None);
    }

    #[test]
    fn annotations_parse() {
        assert_eq!(parse_annotation("unroll 4"), Some(UserPragma::Count(4)));
        assert_eq!(parse_annotation("unroll full"), Some(UserPragma::Full));
        assert_eq!(parse_annotation("unroll"), Some(UserPragma::Full));
        assert_eq!(parse_annotation("nounroll"), Some(UserPragma::Count(1)));
        assert_eq!(parse_annotation("unroll 0"), None);
        assert_eq!(parse_annotation("unroll four"), None);
        assert_eq!(parse_annotation("inline"), None);
    }

    #[test]
    fn annotation_on_the_header_reaches_the_decision() {
        let f = counted("12", "", "// ptxopt: unroll 3");
        assert_eq!(one(&f).decision.choice, Choice::Pragma { count: 3 });
        let f = counted("12", "", "// ptxopt: nounroll");
        assert_eq!(one(&f).decision.choice, Choice::None);
    }

    #[test]
    fn o0_trip_counts() {
        // Descending, `k >= 0` from 7 (poly_known_trip of test-data/cuda/loops.cu).
        let f = function(
            "mov.u32 %r4, 7;
    mov.u32 %r9, %r4;
$L1:
    mov.u32 %r2, %r9;
    setp.ge.s32 %p1, %r2, 0;
    not.pred %p2, %p1;
    @%p2 bra $L4;
    add.s32 %r3, %r2, -1;
    mov.u32 %r9, %r3;
    bra.uni $L1;
$L4:
    ret;",
        );
        assert_eq!(one(&f).decision.choice, Choice::Full { count: 8 });
        // `o = 16; o > 0; o >>= 1`: 5 iterations.
        let f = function(
            "mov.u32 %r9, 16;
$L1:
    mov.u32 %r2, %r9;
    setp.gt.s32 %p1, %r2, 0;
    @!%p1 bra $L4;
    shr.s32 %r3, %r2, 1;
    mov.u32 %r9, %r3;
    bra.uni $L1;
$L4:
    ret;",
        );
        let cfg = ptx_analysis::cfg(&f);
        let forest = ptx_analysis::loops(&cfg, &ptx_analysis::dominators(&cfg));
        assert_eq!(trip_count(&f, &forest.loops[0]), Ok(5));
        // A rotated (bottom-tested) loop: `do { } while (++i < 10)` runs 10 times.
        let f = function(
            "mov.u32 %r1, 0;
$L1:
    add.s32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 10;
    @%p1 bra $L1;
    ret;",
        );
        let cfg = ptx_analysis::cfg(&f);
        let forest = ptx_analysis::loops(&cfg, &ptx_analysis::dominators(&cfg));
        assert_eq!(trip_count(&f, &forest.loops[0]), Ok(10));
    }

    #[test]
    fn a_masked_bound_is_a_small_upper_bound() {
        // for (k = 0; k < (i & 7); ++k) as -O0 code: the mask recomputed in
        // the header is invariant, the count computable, at most 7.
        let f = function(
            "mov.u32 %r1, %tid.x;
    mov.u32 %r9, 0;
$L1:
    mov.u32 %r2, %r9;
    and.b32 %r5, %r1, 7;
    setp.lt.s32 %p1, %r2, %r5;
    @!%p1 bra $L4;
    add.s32 %r3, %r2, 1;
    mov.u32 %r9, %r3;
    bra.uni $L1;
$L4:
    ret;",
        );
        let d = one(&f);
        assert_eq!(d.decision.choice, Choice::None, "{d:?}");
        assert!(d.decision.reason.contains("at most 7"), "{d:?}");
    }

    #[test]
    fn unrolls_and_is_disabled_by_knob() {
        let f = Arc::new(counted("12", "", ""));
        let mut ctx = crate::Defaults::new(90);
        let out = run(PhaseId::CiccLoopUnroll, &ctx, &f);
        assert!(!Arc::ptr_eq(&out.function, &f));
        assert_eq!(out.loops.len(), 1);
        let u = out.loops[0].unroll.as_ref().unwrap();
        assert!(
            u.full && u.factor == 12 && u.code.is_none(),
            "{:?}",
            out.loops
        );
        ctx.knobs.insert(
            knobs::disable_LoopUnrollPass.id(),
            ptx_knobs::KnobValue::Bool(true),
        );
        let out = run(PhaseId::CiccLoopUnroll, &ctx, &f);
        assert!(out.loops.is_empty() && out.remarks.is_empty());
        assert!(Arc::ptr_eq(&out.function, &f));
    }
}
