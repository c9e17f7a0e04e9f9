//! The knob table: one [`KnobDef`] for every knob the five seed documents
//! (`../shared/seeds/`) name.
//!
//! # How the table was built
//!
//! Each seed was read from top to bottom, and grepped for `knob`, `Knob`,
//! `default`, `QueryKnob`, `cl::opt`-style option names (`-[a-z]+(-[a-z0-9]+)+`)
//! and for tables with a "Default" column. Every name found is in the table
//! exactly once, spelled as the seed spells it:
//!
//! * ptxas OCG knobs (seeds 000 and 001, plus two scheduler knobs named in
//!   003) use the decoded names. Seed 001 prints the ROT13 form next to 22
//!   of its names; 21 decode to the printed name, and one is a slip:
//!   `FcrphyngivruBvfgPbzzbaVafgf` decodes to "SpeculatviehOistCommonInsts",
//!   so the printed `SpeculativeHoistCommonInsts` is kept. Where a
//!   seed names the numeric OCG knob id, the description carries it as
//!   `(OCG knob N)`, which [`crate::ocg_knob_id`] parses. Where the seed only has
//!   an "(inferred)" name (the `sub_1389AF0` context table of phase 22),
//!   that name is used.
//! * cicc LLVM options (seeds 002, 003 and 004) use the option spelling
//!   (`unroll-threshold`, `nv-remat-block`, `pipeliner-max-mii`).
//! * `seed.section` is the heading of the table or paragraph the knob comes
//!   from. A knob named in several seeds has its fullest table as its seed
//!   and says "also seed 00N" in its description.
//!
//! The crate's tests re-read the seed tables mechanically (seed 000's typed
//! knob tables, phase 18 table and knob-id table; seed 001's "Complete Knob
//! Reference" with its ROT13 column; seed 002's knob summary; seed 003's
//! pipeliner table; seed 004's two knob tables) and check that every row is
//! in this table with the seed's type and default, so a knob missed or a
//! figure mistyped fails `cargo test -p ptx-knobs`.
//!
//! Types and defaults come from the seed tables: `BOOL` -> Bool, `INT` ->
//! Int, `FLOAT`/`DBL`/`DOUBLE` -> Float, option lists -> String.
//!
//! # Where a seed was ambiguous, and what this table chose
//!
//! * **Defaults that are no value** (`unset`, `(varies)`, `(opt-level
//!   dependent)`, `From TTI`, "per-block policy", or no default stated at
//!   all): the table needs a value, so it holds `false` / `0` / `0.0` /
//!   `""`, meaning "not set: the pass keeps its built-in behaviour", or the
//!   value another part of the seed gives (e.g. `unroll-threshold` = 300, the
//!   NVPTX TTI value). The description then ends in `(seed default: ...)`
//!   saying what the seed said; [`crate::default_note`] returns that text. A
//!   bool whose seed default is unstated but whose pass the seed describes
//!   as running by default (e.g. `EnableGvnCse`, OCG knob 499) defaults to
//!   `true`.
//! * **Unnamed knobs.** Ten OCG knobs are queried by number only (91, 210,
//!   220, 427, 464, 474, 484, 499, 844, 898). The passes read them, so the
//!   database needs them; they are named `OcgKnob<N>` (a name no seed uses,
//!   clearly synthetic) and their descriptions start "Unnamed in the seed".
//! * **Knob 487.** Seed 000 names OCG knob 487 `LoopMakeSingleEntry` (read by
//!   phases 18, 22 and 59); seed 001 calls knob 487 `ForceLateCommoning`
//!   (phase 64) and uses it as the `option_487_gate` in OriCopyProp. The id
//!   stays with `LoopMakeSingleEntry`; `ForceLateCommoning` is its own knob
//!   and its description records the clash.
//! * **`LoopUnrollFactor` id.** The knob-id table of phase 22 gives 896
//!   (profile offset +64512); the Step L pseudocode queries 429. The table's
//!   id fits the profile layout (offset = 30744 + 72 * (id - 427) holds for
//!   every id/offset pair in that table), so 896 is recorded, 429 noted.
//! * **Knob 427** is the per-block `LoopUnrollFactor` override string. Its
//!   own name is not given, so it is `OcgKnob427` (type String).
//! * **`HoistLoopInvBudget`** is `22 (early) / 100 (late)` and
//!   `NestedHoistInnerThreshold` `22 / 100`: one default must be chosen; the
//!   table holds 22 (the value of the first instance, phase 35) and notes 100.
//! * **`HoistLate`** is matched to OCG knob 381 by its 0/1/3 policy values.
//!   `HoistBudget` (483), `HoistLoopInvBudget` (482) and
//!   `HoistConservativeScale` (380) are matched by the pseudocode of
//!   `ComputeHoistBudget`.
//! * **`EnableGvnCseMode`** (402) has no stated default; the dispatcher only
//!   selects a mode when the knob is set, so the default is 0 (no mode).
//!   Bounds 0..=6 are the modes the seed lists (7+ returns at once).
//! * **`pragma-unroll-threshold`** is 32768 (0x8000) in seed 004's knob table
//!   and prose, but "30000" in its "Differences from Upstream" table: 32768 is
//!   kept (it is given twice, with its hex form).
//! * **`unroll-threshold`** is "From TTI": 300, per the thresholds table of
//!   seed 004 (its `sub_19B6690` table lists 405/400/150 for the
//!   UnrollParams fields, which are not the option). `unroll-partial-threshold`
//!   likewise is 75. `unroll-max-iteration-count-to-analyze` is 10 in the
//!   knob table though the `sub_19B6690` table shows 60 for that field.
//! * **Types not stated** (phase 18 table, OCG copy-propagation and
//!   reassociation knobs, `SchedDisableAll`, `SchedForceReverseOrder`, cicc
//!   unroll options): budgets, limits, windows and counts are Int; enables
//!   and disables are Bool.
//! * **Bounds** are given only where the seed states a range:
//!   `reg-target-adjust` / `pred-target-adjust` (-10..=10), `nv-remat-block`
//!   (bits 0-3, so 0..=15), `EnableGvnCseMode` (0..=6), `HoistLate` (0..=3).
//! * **Left out on purpose:** the `AdvancedSB*` family (seed 003 names only
//!   the prefix), the "SH=" shader-hash knob (named only in passing), and
//!   driver flags that are not knobs (`-maxreg`, `--named-phases`, DUMPIR).
//!   Seed 003 says the `GemmPipeliner*` family has 8 knobs; seed 000 lists
//!   6, and those 6 are here.

use crate::DefaultValue::{self, Bool, Float, Int, Str};
use crate::{KnobDef, KnobType, SeedRef};

const SEED_LOOPS: &str = "000_ed667d9feced6e07.txt";
const SEED_CSE: &str = "001_3e9d45dd172cfaf4.txt";
const SEED_MACHINE: &str = "002_164789385e2e817e.txt";
const SEED_SCHED: &str = "003_5f2fcdae57e69502.txt";
const SEED_UNROLL: &str = "004_fa10da99f88b4a9e.txt";

const fn seed(file: &'static str, section: &'static str) -> SeedRef {
    SeedRef { file, section }
}

const fn type_of(default: &DefaultValue) -> KnobType {
    match default {
        Bool(_) => KnobType::Bool,
        Int(_) => KnobType::Int,
        Float(_) => KnobType::Float,
        Str(_) => KnobType::String,
    }
}

const fn def(
    tool: &'static str,
    name: &'static str,
    default: DefaultValue,
    pass: &'static str,
    seed: SeedRef,
    description: &'static str,
) -> KnobDef {
    KnobDef {
        name,
        ty: type_of(&default),
        default,
        min: None,
        max: None,
        tool,
        pass,
        seed,
        description,
    }
}

/// A ptxas OCG knob.
const fn ptxas(
    name: &'static str,
    default: DefaultValue,
    pass: &'static str,
    seed: SeedRef,
    description: &'static str,
) -> KnobDef {
    def("ptxas", name, default, pass, seed, description)
}

/// A cicc LLVM option.
const fn cicc(
    name: &'static str,
    default: DefaultValue,
    pass: &'static str,
    seed: SeedRef,
    description: &'static str,
) -> KnobDef {
    def("cicc", name, default, pass, seed, description)
}

/// Sets inclusive bounds.
const fn range(mut k: KnobDef, min: f64, max: f64) -> KnobDef {
    k.min = Some(min);
    k.max = Some(max);
    k
}

// ---- seed sections -------------------------------------------------------

const S_SIMPLIFY: SeedRef = seed(SEED_LOOPS, "Phase 18 -- OriLoopSimplification");
const S_UNROLL_KNOBS: SeedRef = seed(SEED_LOOPS, "Heuristic Thresholds (Knobs)");
const S_UNROLL_NOUNROLL: SeedRef = seed(SEED_LOOPS, "Nounroll Pragma Check (sub_7E5120)");
const S_UNROLL_CTX: SeedRef = seed(
    SEED_LOOPS,
    "Context Initialization and Knob Defaults (sub_1389AF0)",
);
const S_UNROLL_MAIN: SeedRef = seed(SEED_LOOPS, "Main Decision Flowchart (sub_1390B30)");
const S_GEMM: SeedRef = seed(SEED_LOOPS, "GEMM Pipelining (sub_92C240)");
const S_PIPE_OTHER: SeedRef = seed(SEED_LOOPS, "Other Pipelining Knobs");
const S_HOIST: SeedRef = seed(SEED_LOOPS, "Hoisting Knobs");
const S_HOIST_GUARD: SeedRef = seed(SEED_LOOPS, "Guard Function (sub_7DDB50)");
const S_HOIST_MOVE: SeedRef = seed(SEED_LOOPS, "Instruction Movement (sub_8F7AE0)");
const S_HOIST_MULTI: SeedRef = seed(SEED_LOOPS, "Multi-Depth Loop Handling");
const S_FUSION: SeedRef = seed(SEED_LOOPS, "Phase 59 -- OriLoopFusion");

const S_CSE_KNOBS: SeedRef = seed(SEED_CSE, "Complete Knob Reference");
const S_GVN_MODE: SeedRef = seed(SEED_CSE, "Mode Dispatcher (sub_BEE370)");
const S_COPYPROP: SeedRef = seed(SEED_CSE, "Forward Copy Propagation -- OriCopyProp");
const S_LATE_COMMON: SeedRef = seed(SEED_CSE, "Core Commoning Walker -- sub_9055F0");

const S_NV_TARGET: SeedRef = seed(SEED_MACHINE, "NVIDIA Target Pass Enable/Disable");
const S_STOCK: SeedRef = seed(SEED_MACHINE, "Stock LLVM Codegen Controls");
const S_STOCK_PASSES: SeedRef = seed(
    SEED_MACHINE,
    "Stock LLVM Machine Passes (NVPTX Configuration)",
);
const S_MCSE: SeedRef = seed(SEED_MACHINE, "NVIDIA RP-Aware MachineCSE Knobs");
const S_REMAT: SeedRef = seed(SEED_MACHINE, "NVPTXBlockRemat Knobs");
const S_REMAT_PASS: SeedRef = seed(
    SEED_MACHINE,
    "NVPTXBlockRemat (sub_217DBF0) -- Machine-Level Block Rematerialization",
);
const S_PIPE_002: SeedRef = seed(SEED_MACHINE, "Pipeliner Knobs");
const S_RP_TARGET: SeedRef = seed(SEED_MACHINE, "Register Pressure Target Knobs");

const S_PIPE_003: SeedRef = seed(SEED_SCHED, "Pipeliner Knobs");
const S_PTXAS_SCHED: SeedRef = seed(SEED_SCHED, "Cross-Cutting Observations");

const S_UNROLL_LLVM: SeedRef = seed(SEED_UNROLL, "Standard LLVM Knobs (with NVIDIA defaults)");
const S_UNROLL_NV: SeedRef = seed(SEED_UNROLL, "NVIDIA-Specific Knobs");
const S_UNROLL_TOP: SeedRef = seed(SEED_UNROLL, "Loop Unrolling");

// ---- passes --------------------------------------------------------------

const P18: &str = "OriLoopSimplification (18)";
const P22: &str = "OriLoopUnrolling (22)";
const P24: &str = "OriPipelining (24)";
const P_LICM: &str = "OriHoistInvariants (35/66/79/88)";
const P59: &str = "OriLoopFusion (59)";
const P49: &str = "GvnCse (49)";
const P50: &str = "OriReassociateAndCommon (50)";
const P56: &str = "SpeculativeHoistComInsts (56)";
const P64: &str = "LateOriCommoning (64)";
const P83: &str = "OriBackCopyPropagate (83)";
const P_COPYPROP: &str = "OriCopyProp (GeneralOptimize 13/29/37/46/58/65)";
const P_PTXAS_SCHED: &str = "ptxas instruction scheduler";

const P_PEEPHOLE: &str = "NVPTXPeephole (nvptx-peephole)";
const P_MSINK: &str = "MachineSink (machine-sink)";
const P_MLICM: &str = "MachineLICM (early-machinelicm/machinelicm)";
const P_MCSE: &str = "MachineCSE (machine-cse)";
const P_MEM2REG: &str = "NVPTXMem2Reg (nvptx-mem2reg)";
const P_REMAT: &str = "NVPTXBlockRemat (nvptx-remat-block)";
const P_PHI: &str = "PHIElimination (phi-node-elimination)";
const P_PIPELINER: &str = "MachinePipeliner (machine-pipeliner)";
const P_OUTLINER: &str = "MachineOutliner (machine-outliner)";
const P_MRPA: &str = "MRPA (machine-rpa)";
const P_SCHED: &str = "MachineScheduler (machine-scheduler)";
const P_UNROLL: &str = "LoopUnroll (computeUnrollCount)";

/// Every knob named in the seeds, ptxas knobs first (in seed order), then
/// cicc options (in seed order).
pub static KNOBS: &[KnobDef] = &[
    // ===================== ptxas: seed 000, loop passes =====================
    // ---- Phase 18: OriLoopSimplification --------------------------------
    ptxas(
        "LoopMakeSingleEntry",
        Bool(true),
        P18,
        S_SIMPLIFY,
        "Master enable of single-entry enforcement and preheader insertion; also the master loop-pass guard of OriLoopUnrolling (22) and OriLoopFusion (59) (OCG knob 487).",
    ),
    ptxas(
        "LoopInversion",
        Bool(true),
        P18,
        S_SIMPLIFY,
        "Enable loop inversion (do-while to while conversion).",
    ),
    ptxas(
        "LoopInversionBudget",
        Int(0),
        P18,
        S_SIMPLIFY,
        "Maximum instruction count for loop inversion; type not stated (seed default: unset).",
    ),
    ptxas(
        "LoopPeelInversion",
        Bool(false),
        P18,
        S_SIMPLIFY,
        "Enable loop peeling combined with inversion.",
    ),
    ptxas(
        "EnableSingleThreadPeelingLoops",
        Bool(false),
        P18,
        S_SIMPLIFY,
        "Enable peeling for single-thread execution paths (seed default: unset).",
    ),
    ptxas(
        "GenPeelingLoopsForSyncs",
        Bool(false),
        P18,
        S_SIMPLIFY,
        "Generate peeling loops around sync instructions (seed default: unset).",
    ),
    ptxas(
        "AssertIfPeelingLoopForTexSurf",
        Bool(false),
        P18,
        S_SIMPLIFY,
        "Assert (debug) if peeling a loop for texture/surface ops (seed default: unset).",
    ),
    // ---- Phase 22: OriLoopUnrolling -------------------------------------
    ptxas(
        "LoopUnroll",
        Bool(true),
        P22,
        S_UNROLL_KNOBS,
        "Master enable of loop unrolling (OCG knob 437).",
    ),
    ptxas(
        "LoopUnrollFactor",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Override unroll factor, 0 = heuristic (OCG knob 896; the Step L pseudocode queries it as knob 429).",
    ),
    ptxas(
        "UnrollBudget",
        Int(140),
        P22,
        S_UNROLL_KNOBS,
        "Maximum total instruction count after unrolling (context field ctx+168).",
    ),
    ptxas(
        "UnrollInstLimit",
        Float(20.0),
        P22,
        S_UNROLL_KNOBS,
        "Maximum instructions in a single unrolled loop body (context field ctx+192).",
    ),
    ptxas(
        "UnrollFullInstLimit",
        Int(200),
        P22,
        S_UNROLL_KNOBS,
        "Budget for known-trip-count full unrolling: full unroll needs 200 / trip_count > body_cost (context field ctx+204).",
    ),
    ptxas(
        "UnrollFlexableFullLimit",
        Float(0.25),
        P22,
        S_UNROLL_KNOBS,
        "Flexible full-unroll limit, adjusted by loop characteristics (context field ctx+172).",
    ),
    ptxas(
        "UnrollSmallLoopLimit",
        Int(4),
        P22,
        S_UNROLL_KNOBS,
        "Body size threshold below which loops are always fully unrolled (context field ctx+180).",
    ),
    ptxas(
        "UnrollPregThreshold",
        Int(50),
        P22,
        S_UNROLL_KNOBS,
        "Maximum predicate register pressure for unrolling (context field ctx+196).",
    ),
    ptxas(
        "UnrollMultiBlockLoops",
        Bool(true),
        P22,
        S_UNROLL_KNOBS,
        "Allow unrolling of multi-basic-block loop bodies (OCG knob 897).",
    ),
    ptxas(
        "UnrollVariableBounds",
        Bool(true),
        P22,
        S_UNROLL_KNOBS,
        "Allow unrolling when the trip count is not a compile-time constant (OCG knob 902).",
    ),
    ptxas(
        "UnrollUnknownCount",
        Int(4),
        P22,
        S_UNROLL_KNOBS,
        "Unroll factor / trip count assumed when the trip count is unknown (context field ctx+176).",
    ),
    ptxas(
        "UnrollUnknownInstLimit",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Maximum body size for unrolling with unknown trip count.",
    ),
    ptxas(
        "UnrollExtraInstPerPercentSaving",
        Int(2),
        P22,
        S_UNROLL_KNOBS,
        "Instructions allowed per percent of cycle saving (context field ctx+200).",
    ),
    ptxas(
        "UnrollTex3DPercentSavedThreshold",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Minimum savings percent for 3D texture loops.",
    ),
    ptxas(
        "UnrollProfiledColdInstsScale",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Scale factor for instruction count in profiled-cold blocks.",
    ),
    ptxas(
        "LoopUnrollExtraFoldableLdcWeight",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Extra weight for foldable constant loads in the unroll benefit.",
    ),
    ptxas(
        "LoopUnrollFoldableAddrWeight",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Weight for foldable address computations in the unroll benefit.",
    ),
    ptxas(
        "LoopUnrollLargePartOfShaderPct",
        Float(0.4),
        P22,
        S_UNROLL_KNOBS,
        "Fraction threshold above which a loop is a \"large part of the shader\" (double; context field ctx+184).",
    ),
    ptxas(
        "LoopUnrollNumExtraInstBase",
        Int(46),
        P22,
        S_UNROLL_KNOBS,
        "Base extra instruction allowance per unroll iteration (context field ctx+208).",
    ),
    ptxas(
        "LoopUnrollNumInstSmallLoop",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Instruction count defining a \"small loop\".",
    ),
    ptxas(
        "LoopUnrollNumInstTex",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Texture budget for unknown-trip-count unrolling; when unset the budget is min(5 * tex_inst + 22, 100) (OCG knob 900).",
    ),
    ptxas(
        "LoopUnrollSingleLoopSavedPctFactor",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Savings factor for single-loop shaders.",
    ),
    ptxas(
        "LoopUnrollNonInnermost",
        Bool(true),
        P22,
        S_UNROLL_KNOBS,
        "Allow unrolling of non-innermost loops (OCG knob 894).",
    ),
    ptxas(
        "LoopUnrollUnknownMultiBlock",
        Bool(false),
        P22,
        S_UNROLL_KNOBS,
        "Allow multi-block unrolling with unknown bounds.",
    ),
    ptxas(
        "EpilogueLoopUnrollCount",
        Int(0),
        P22,
        S_UNROLL_KNOBS,
        "Unroll count for epilogue (remainder) loops (OCG knob 895).",
    ),
    ptxas(
        "DisablePartialUnrollOverflowCheck",
        Bool(false),
        P22,
        S_UNROLL_KNOBS,
        "Skip the overflow check on the partial unroll count (OCG knob 903).",
    ),
    ptxas(
        "OcgKnob427",
        Str(""),
        P22,
        S_UNROLL_CTX,
        "Unnamed in the seed (OCG knob 427): per-block LoopUnrollFactor override string: \"-N-\" skips block N, \"+N+\" force-unrolls block N, \"-\" skips all, \"+\" forces all (seed default: unset).",
    ),
    ptxas(
        "OcgKnob91",
        Bool(false),
        P22,
        S_UNROLL_NOUNROLL,
        "Unnamed in the seed (OCG knob 91): per-block nounroll; a loop whose block has it set is not unrolled (rejection code 11) (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob898",
        Float(0.5),
        P22,
        S_UNROLL_MAIN,
        "Unnamed in the seed (OCG knob 898): scale of the inner-nounroll-block penalty in the unroll budget, penalty = (int)(scale * inner_nounroll_cnt).",
    ),
    // ---- Phase 24: OriPipelining ----------------------------------------
    ptxas(
        "GemmPipelinerEnabled",
        Bool(false),
        P24,
        S_GEMM,
        "Master enable of GEMM-specific pipelining (sub_92C240).",
    ),
    ptxas(
        "GemmPipelinerPipelineDepthEnforceDeltaFull",
        Int(0),
        P24,
        S_GEMM,
        "Pipeline depth adjustment for full enforcement.",
    ),
    ptxas(
        "GemmPipelinerPipelineDepthEnforceDeltaPartial",
        Int(0),
        P24,
        S_GEMM,
        "Pipeline depth adjustment for partial enforcement.",
    ),
    ptxas(
        "GemmPipelinerDependenciesPopbl",
        Bool(false),
        P24,
        S_GEMM,
        "Dependency resolution policy between DMA and compute stages.",
    ),
    ptxas(
        "GemmPipelinerScoreboardHashPopbl",
        Bool(false),
        P24,
        S_GEMM,
        "Scoreboard hash policy for GEMM barrier tracking.",
    ),
    ptxas(
        "GemmPipelinerUseRegisterCalculation",
        Int(0),
        P24,
        S_GEMM,
        "Use register-based calculation of the pipeline depth instead of a fixed depth.",
    ),
    ptxas(
        "OkToPipelineNoUnroll",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "Allow pipelining even when unrolling was also suppressed (0 = disabled).",
    ),
    ptxas(
        "PipelineHoistCondLimit",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "Maximum condition complexity for hoisting in pipelined loops (seed default: unset).",
    ),
    ptxas(
        "PipelineHoistRRegPressureLimit",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "R-register pressure limit for hoisting inside a pipelined body (seed default: unset).",
    ),
    ptxas(
        "PipelineHoistPRegPressureLimit",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "P-register pressure limit for hoisting inside a pipelined body (seed default: unset).",
    ),
    ptxas(
        "PipelineMIOVQToInstRatio",
        Float(0.0),
        P24,
        S_PIPE_OTHER,
        "MIOVQ-to-instruction ratio threshold for pipeline profitability (seed default: unset).",
    ),
    ptxas(
        "PipelineMultiOutputTex",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "Enable pipelining of loops with multi-output texture instructions (0 = disabled).",
    ),
    ptxas(
        "PipelineSpecUsesInHeadOnly",
        Int(0),
        P24,
        S_PIPE_OTHER,
        "Restrict speculative uses to the loop header only (0 = disabled).",
    ),
    // ---- Phases 35/66/79/88: OriHoistInvariants (LICM) ------------------
    ptxas(
        "HoistBudget",
        Float(10.0),
        P_LICM,
        S_HOIST,
        "Maximum number of instructions to hoist per loop, 0 = unlimited (OCG knob 483).",
    ),
    ptxas(
        "HoistLoopInvBudget",
        Float(22.0),
        P_LICM,
        S_HOIST,
        "Budget for loop-invariant (CBO) hoisting of simple loops; pass_id 0 uses 22, later instances 100 (OCG knob 482) (seed default: 22 (early) / 100 (late)).",
    ),
    ptxas(
        "HoistConservativeScale",
        Int(10),
        P_LICM,
        S_HOIST,
        "Inner-loop budget divisor: budget /= scale when hoisting from inner loops (OCG knob 380).",
    ),
    range(
        ptxas(
            "HoistLate",
            Int(0),
            P_LICM,
            S_HOIST,
            "Per-block hoisting policy: 0 = always, 1 = inner loops only, 3 = never (OCG knob 381) (seed default: per-block policy).",
        ),
        0.0,
        3.0,
    ),
    ptxas(
        "HoistCBOMode",
        Int(0),
        P_LICM,
        S_HOIST,
        "Constant-buffer-object hoisting mode.",
    ),
    ptxas(
        "HoistCBOLoad",
        Int(0),
        P_LICM,
        S_HOIST,
        "Enable hoisting of CBO load instructions (seed default: unset).",
    ),
    ptxas(
        "HoistCBOFromLoopWithColdNest",
        Int(1),
        P_LICM,
        S_HOIST,
        "Hoist CBO loads even from loops with a cold nest (1 = enabled).",
    ),
    ptxas(
        "HoistCBOHighCostSBInstRatioThreshold",
        Int(0),
        P_LICM,
        S_HOIST,
        "Scoreboard cost threshold for CBO hoisting (seed default: unset).",
    ),
    ptxas(
        "HoistCBOLoadIDOMTravseLimit",
        Int(4),
        P_LICM,
        S_HOIST,
        "IDOM traversal limit for CBO load hoisting.",
    ),
    ptxas(
        "HoistCBORRegPressureLimitApplyRate",
        Int(80),
        P_LICM,
        S_HOIST,
        "R-register pressure limit application rate (percentage).",
    ),
    ptxas(
        "HoistTexToInstRatioHigh",
        Float(0.045),
        P_LICM,
        S_HOIST,
        "High texture-to-instruction ratio threshold for aggressive hoisting.",
    ),
    ptxas(
        "HoistTexToInstRatioLow",
        Float(0.03),
        P_LICM,
        S_HOIST,
        "Low texture-to-instruction ratio threshold for conservative hoisting.",
    ),
    ptxas(
        "DisableNestedHoist",
        Bool(false),
        P_LICM,
        S_HOIST,
        "Disable hoisting from nested loops (false = nested hoisting allowed).",
    ),
    ptxas(
        "NestedHoistInnerThreshold",
        Int(22),
        P_LICM,
        S_HOIST,
        "Inner-loop instruction threshold for nested hoisting, same value as HoistLoopInvBudget (seed default: 22 / 100).",
    ),
    ptxas(
        "NestedHoistOuterThreshold",
        Int(10),
        P_LICM,
        S_HOIST,
        "Outer-loop instruction threshold for nested hoisting, same value as HoistBudget.",
    ),
    ptxas(
        "UseNewLoopInvariantRoutineForHoisting",
        Bool(false),
        P_LICM,
        S_HOIST,
        "Use the set-based fixpoint invariance routine instead of the legacy single-pass scan (OCG knob 934).",
    ),
    ptxas(
        "MaxMidHeaderSizeRateForAggressiveHoist",
        Int(2),
        P_LICM,
        S_HOIST,
        "Maximum LICM iteration count (limits repeated hoisting passes).",
    ),
    ptxas(
        "EnableHoistLowLatencyInstMidBlock",
        Bool(false),
        P_LICM,
        S_HOIST,
        "Hoist low-latency instructions from mid-block positions.",
    ),
    ptxas(
        "MovWeightForSinkingHoisting",
        Float(0.25),
        P_LICM,
        S_HOIST,
        "Weight of MOV instructions in sink/hoist decisions.",
    ),
    ptxas(
        "OcgKnob499",
        Bool(true),
        P_LICM,
        S_HOIST_GUARD,
        "Unnamed in the seed (OCG knob 499): master LICM switch checked by the guard sub_7DDB50, which also rate-limits LICM invocations (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob484",
        Bool(true),
        P_LICM,
        S_HOIST_MOVE,
        "Unnamed in the seed (OCG knob 484): gate of the instruction mover; when disabled no invariant is moved to the preheader (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob220",
        Bool(true),
        P_LICM,
        S_HOIST_MULTI,
        "Unnamed in the seed (OCG knob 220): permits multi-depth (nested) loop hoisting together with DisableNestedHoist (seed default: not stated).",
    ),
    // ---- Phase 59: OriLoopFusion ----------------------------------------
    ptxas(
        "PerformLoopFusion",
        Int(0),
        P59,
        S_FUSION,
        "Master enable of loop fusion; must be set to a nonzero value (OCG knob 519).",
    ),
    ptxas(
        "PerformLoopFusionBudget",
        Float(0.0),
        P59,
        S_FUSION,
        "Maximum instruction count in the fused body (OCG knob 520) (seed default: unset).",
    ),
    // ================ ptxas: seed 001, copy propagation and CSE =============
    ptxas(
        "EnableGvnCse",
        Bool(true),
        P49,
        S_CSE_KNOBS,
        "Master enable of GvnCse; when disabled the pass is skipped; true as the phase is enabled by default (seed default: not stated).",
    ),
    range(
        ptxas(
            "EnableGvnCseMode",
            Int(0),
            P49,
            S_CSE_KNOBS,
            "GVN mode: 0 = off, 1 = simple, 2 = standard dominator-guided, 3-6 = full GVN; 0 as an unset knob selects no mode (OCG knob 402) (seed default: not stated).",
        ),
        0.0,
        6.0,
    ),
    ptxas(
        "EnableGvnCsePerInstr",
        Bool(false),
        P49,
        S_CSE_KNOBS,
        "Per-instruction GVN gate: where set, the block walk stops at that instruction (OCG knob 257) (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob210",
        Bool(false),
        P49,
        S_GVN_MODE,
        "Unnamed in the seed (OCG knob 210): with SM version > 0x7FFF, skips the EBB pre-pass sub_BED430 before standard GVN (seed default: not stated).",
    ),
    ptxas(
        "AllowReassociateCSE",
        Bool(true),
        P50,
        S_CSE_KNOBS,
        "Master enable of reassociation CSE; true as the phase is enabled by default (seed default: not stated).",
    ),
    ptxas(
        "ReassociateCSEBudget",
        Int(0),
        P50,
        S_CSE_KNOBS,
        "Maximum instructions processed per function (seed default: unset).",
    ),
    ptxas(
        "ReassociateCSEWindow",
        Int(0),
        P50,
        S_CSE_KNOBS,
        "Sliding window size of the local CSE after reassociation (seed default: unset).",
    ),
    ptxas(
        "ReassociateCSESkip",
        Int(0),
        P50,
        S_CSE_KNOBS,
        "Skip the first N instructions, for debugging (seed default: unset).",
    ),
    ptxas(
        "ReassociateLargeImmInUIADD64",
        Bool(false),
        P50,
        S_CSE_KNOBS,
        "Reassociate large immediates in 64-bit unsigned ADD (seed default: not stated).",
    ),
    ptxas(
        "DistributeAndReassociateMulBudget",
        Int(0),
        P50,
        S_CSE_KNOBS,
        "Budget for the distributive rewrite a*b + a*c -> a*(b+c) (seed default: unset).",
    ),
    ptxas(
        "SpeculativeHoistCommonInsts",
        Bool(false),
        P56,
        S_CSE_KNOBS,
        "Speculatively hoist common instructions above branches (phase 56) (seed default: not stated).",
    ),
    ptxas(
        "ForceLateCommoning",
        Bool(false),
        P64,
        S_CSE_KNOBS,
        "Force-enable late commoning; seed 001 calls it knob index 487, an id seed 000 gives to LoopMakeSingleEntry (seed default: not stated).",
    ),
    ptxas(
        "DisableMoveCommoning",
        Bool(false),
        P64,
        S_CSE_KNOBS,
        "Disable MOV-based equivalence propagation within the commoning walker (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob844",
        Bool(true),
        P64,
        S_LATE_COMMON,
        "Unnamed in the seed (OCG knob 844): per-instruction CSE gate of the late commoning walker; unset instructions are skipped (seed default: not stated).",
    ),
    ptxas(
        "BackCopyPropBudget",
        Int(0),
        P83,
        S_CSE_KNOBS,
        "Maximum backward copy propagations per function; unset falls back to the scheduler state's own default (OCG knob 808) (seed default: unset).",
    ),
    ptxas(
        "CopyPropBudget",
        Int(0),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Maximum instructions processed per copy-propagation invocation (seed default: unset).",
    ),
    ptxas(
        "CopyPropGlobalBudget",
        Int(0),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Budget for cross-block (global) copy propagation (seed default: unset).",
    ),
    ptxas(
        "CopyPropForceGlobal",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Force global copy propagation (seed default: not stated).",
    ),
    ptxas(
        "CopyPropAddr",
        Bool(true),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Propagate through address computations: `add.s64 %x, %b, c` folded into `[%x+d]` as `[%b+c+d]`, and values that differ by a constant from one already computed written as it plus the constant (`shl (i+1), 3` as `(shl i, 3) + 8`) (seed default: not stated; on, as ptxas's and cicc's output show the folded form).",
    ),
    ptxas(
        "CopyPropConstantBank",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Propagate constant bank references (seed default: not stated).",
    ),
    ptxas(
        "CopyPropUseReachingDefs",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Use reaching definitions instead of dominator checks for more aggressive propagation (seed default: not stated).",
    ),
    ptxas(
        "CopyPropPreAllocReg",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Enable propagation for pre-allocated (fixed) registers (seed default: not stated).",
    ),
    ptxas(
        "CopyPropNoWriteNonRR",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Disable propagation into non-register-register contexts (seed default: not stated).",
    ),
    ptxas(
        "CopyPropNonRegMultiDef",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Handle non-register multi-definition copies (seed default: not stated).",
    ),
    ptxas(
        "CopyPropNoMmaCb",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Disable propagation into MMA constant bank operands (seed default: not stated).",
    ),
    ptxas(
        "LateCopyPropComplPred",
        Bool(false),
        P_COPYPROP,
        S_CSE_KNOBS,
        "Late copy propagation for complementary predicates (seed default: not stated).",
    ),
    ptxas(
        "OcgKnob464",
        Int(0),
        "GeneralOptimize (13/29)",
        S_COPYPROP,
        "Unnamed in the seed (OCG knob 464): iteration cap of the GeneralOptimize fixpoint loop, variant A (seed default: unset).",
    ),
    ptxas(
        "OcgKnob474",
        Float(0.25),
        "GeneralOptimize (37/58)",
        S_COPYPROP,
        "Unnamed in the seed (OCG knob 474): cost-based convergence threshold of the GeneralOptimize loop, variant B.",
    ),
    // ================ ptxas: seed 003, scheduler knobs named in passing =====
    ptxas(
        "SchedDisableAll",
        Bool(false),
        P_PTXAS_SCHED,
        S_PTXAS_SCHED,
        "Disable ptxas instruction scheduling; type not stated (seed default: not stated).",
    ),
    ptxas(
        "SchedForceReverseOrder",
        Bool(false),
        P_PTXAS_SCHED,
        S_PTXAS_SCHED,
        "Force reverse scheduling order, for debugging; type not stated (seed default: not stated).",
    ),
    // ================ cicc: seed 002, machine-level passes ==================
    // ---- NVIDIA target pass enable/disable ------------------------------
    cicc(
        "enable-nvvm-peephole",
        Bool(true),
        P_PEEPHOLE,
        S_NV_TARGET,
        "Enable the NVPTX-specific peephole optimizer (cvta, predicate and address-space folding).",
    ),
    cicc(
        "nvptx-enable-machine-sink",
        Bool(false),
        P_MSINK,
        S_NV_TARGET,
        "Enable MachineSink on NVPTX (off by default due to register pressure).",
    ),
    cicc(
        "enable-mlicm",
        Bool(true),
        P_MLICM,
        S_NV_TARGET,
        "Enable MachineLICM on NVPTX (seed default: opt-level dependent).",
    ),
    cicc(
        "enable-mcse",
        Bool(true),
        P_MCSE,
        S_NV_TARGET,
        "Enable MachineCSE on NVPTX (seed default: opt-level dependent).",
    ),
    cicc(
        "nv-disable-mem2reg",
        Bool(false),
        P_MEM2REG,
        S_NV_TARGET,
        "Disable machine-level mem2reg of .local stack slots.",
    ),
    cicc(
        "nv-disable-remat",
        Bool(false),
        P_REMAT,
        S_NV_TARGET,
        "Disable all NVIDIA rematerialization passes.",
    ),
    cicc(
        "enable-new-nvvm-remat",
        Bool(false),
        P_REMAT,
        S_NV_TARGET,
        "Enable the new NVVM rematerialization and disable the old one (seed default: varies).",
    ),
    cicc(
        "usedessa",
        Int(2),
        P_PHI,
        S_NV_TARGET,
        "deSSA method for PHI elimination; seed 003 shows it selects the scheduling mode (1 = simple, 2 = full).",
    ),
    cicc(
        "cssa-coalesce",
        Int(0),
        P_PHI,
        S_NV_TARGET,
        "PHI operand coalescing aggressiveness (seed default: varies).",
    ),
    cicc(
        "cssa-verbosity",
        Int(0),
        P_PHI,
        S_STOCK_PASSES,
        "Verbosity of the CSSA/deSSA PHI elimination (seed default: not stated).",
    ),
    // ---- stock LLVM codegen controls ------------------------------------
    cicc(
        "disable-machine-dce",
        Bool(false),
        "DeadMachineInstrElim (dead-mi-elimination)",
        S_STOCK,
        "Disable dead machine instruction elimination.",
    ),
    cicc(
        "disable-machine-licm",
        Bool(false),
        "EarlyMachineLICM (early-machinelicm)",
        S_STOCK,
        "Disable pre-RA MachineLICM.",
    ),
    cicc(
        "disable-postra-machine-licm",
        Bool(false),
        "MachineLICM (machinelicm)",
        S_STOCK,
        "Disable post-RA MachineLICM.",
    ),
    cicc(
        "disable-machine-cse",
        Bool(false),
        P_MCSE,
        S_STOCK,
        "Disable MachineCSE.",
    ),
    cicc(
        "disable-machine-sink",
        Bool(false),
        P_MSINK,
        S_STOCK,
        "Disable MachineSink (NVPTX also gates it by nvptx-enable-machine-sink).",
    ),
    cicc(
        "disable-postra-machine-sink",
        Bool(false),
        P_MSINK,
        S_STOCK,
        "Disable post-RA MachineSink.",
    ),
    cicc(
        "disable-branch-fold",
        Bool(false),
        "BranchFolding",
        S_STOCK,
        "Disable BranchFolding / tail merge.",
    ),
    cicc(
        "disable-tail-duplicate",
        Bool(false),
        "TailDuplicate (tailduplication)",
        S_STOCK,
        "Disable post-RA tail duplication.",
    ),
    cicc(
        "disable-early-taildup",
        Bool(false),
        "EarlyTailDuplicate (early-tailduplication)",
        S_STOCK,
        "Disable pre-RA tail duplication.",
    ),
    cicc(
        "disable-block-placement",
        Bool(false),
        "MachineBlockPlacement (block-placement)",
        S_STOCK,
        "Disable MachineBlockPlacement.",
    ),
    cicc(
        "disable-copyprop",
        Bool(false),
        "MachineCopyPropagation (machine-cp)",
        S_STOCK,
        "Disable MachineCopyPropagation.",
    ),
    cicc(
        "disable-ssc",
        Bool(false),
        "StackSlotColoring (stack-slot-coloring)",
        S_STOCK,
        "Disable stack slot coloring.",
    ),
    cicc(
        "disable-post-ra",
        Bool(false),
        "PostRAScheduler (post-RA-sched)",
        S_STOCK,
        "Disable the post-RA scheduler.",
    ),
    cicc(
        "disable-early-ifcvt",
        Bool(false),
        "EarlyIfConverter (early-ifcvt)",
        S_STOCK,
        "Disable early if-conversion.",
    ),
    cicc(
        "disable-peephole",
        Bool(false),
        "PeepholeOptimizer (peephole-opt)",
        S_STOCK,
        "Disable the stock LLVM peephole optimizer.",
    ),
    cicc(
        "enable-machine-outliner",
        Str(""),
        P_OUTLINER,
        S_STOCK,
        "Machine outliner mode: disable / enable / guaranteed beneficial (seed default: varies).",
    ),
    cicc(
        "misched-postra",
        Bool(false),
        "PostMachineScheduler (postmisched)",
        S_STOCK,
        "Run the MachineScheduler post-RA.",
    ),
    cicc(
        "optimize-regalloc",
        Bool(true),
        "RAGreedy (greedy)",
        S_STOCK,
        "Enable the optimized register allocation path.",
    ),
    cicc(
        "verify-machineinstrs",
        Bool(false),
        "MachineVerifier",
        S_STOCK,
        "Run the MachineVerifier after each pass.",
    ),
    cicc(
        "nvptx-sched4reg",
        Bool(false),
        P_SCHED,
        S_STOCK_PASSES,
        "Register-pressure-driven pre-RA scheduling mode added by NVIDIA; also seed 003 (seed default: not stated).",
    ),
    cicc(
        "machine-combiner-inc-threshold",
        Int(0),
        "MachineCombiner (machine-combiner)",
        S_STOCK_PASSES,
        "Instruction-count threshold of the MachineCombiner (seed default: not stated).",
    ),
    cicc(
        "sink-insts-to-avoid-spills",
        Bool(false),
        "MachineLICM (machinelicm)",
        S_STOCK_PASSES,
        "NVIDIA addition to post-RA MachineLICM: trade hoisting for spill reduction by sinking (seed default: not stated).",
    ),
    // ---- RP-aware MachineCSE and MRPA -----------------------------------
    cicc(
        "rp-aware-mcse",
        Bool(true),
        P_MCSE,
        S_MCSE,
        "Register-pressure-aware MachineCSE: suppress a CSE that would raise pressure past the target (seed default: varies).",
    ),
    cicc(
        "pred-aware-mcse",
        Bool(true),
        P_MCSE,
        S_MCSE,
        "Predicate-register-pressure-aware MachineCSE (seed default: varies).",
    ),
    cicc(
        "copy-prop-mcse",
        Bool(true),
        P_MCSE,
        S_MCSE,
        "Copy propagation within MachineCSE (seed default: varies).",
    ),
    cicc(
        "incremental-update-mcse",
        Bool(true),
        P_MRPA,
        S_MCSE,
        "Incrementally update MRPA register pressure during MachineCSE; also seed 003.",
    ),
    cicc(
        "verify-update-mcse",
        Bool(false),
        P_MRPA,
        S_MCSE,
        "Debug: verify each incremental MRPA update against a full recomputation; also seed 003.",
    ),
    cicc(
        "print-verify",
        Bool(false),
        P_MRPA,
        S_MCSE,
        "Debug: print per-register-class RP info when MRPA verification fails; also seed 003.",
    ),
    cicc(
        "cta-reconfig-aware-mrpa",
        Bool(false),
        P_MRPA,
        S_MCSE,
        "CTA-reconfiguration-aware machine register pressure analysis (seed default: varies).",
    ),
    // ---- NVPTXBlockRemat ------------------------------------------------
    range(
        cicc(
            "nv-remat-block",
            Int(14),
            P_REMAT,
            S_REMAT,
            "Bitmask of rematerialization modes (bits 0-3).",
        ),
        0.0,
        15.0,
    ),
    cicc(
        "nv-remat-max-times",
        Int(10),
        P_REMAT,
        S_REMAT,
        "Maximum iterations of the outer remat loop.",
    ),
    cicc(
        "nv-remat-block-single-cost",
        Int(10),
        P_REMAT,
        S_REMAT,
        "Maximum cost per single live value pull-in.",
    ),
    cicc(
        "nv-remat-block-map-size-limit",
        Int(6),
        P_REMAT,
        S_REMAT,
        "Map size limit for a single pull-in.",
    ),
    cicc(
        "nv-remat-block-max-cost",
        Int(100),
        P_REMAT,
        S_REMAT,
        "Maximum total clone cost per live value reduction.",
    ),
    cicc(
        "nv-remat-block-liveout-min-percentage",
        Int(70),
        P_REMAT,
        S_REMAT,
        "Minimum live-out percentage for special consideration.",
    ),
    cicc(
        "nv-remat-block-loop-cost-factor",
        Int(20),
        P_REMAT,
        S_REMAT,
        "Cost multiplier of instructions in loops.",
    ),
    cicc(
        "nv-remat-default-max-reg",
        Int(70),
        P_REMAT,
        S_REMAT,
        "Default register pressure target of rematerialization.",
    ),
    cicc(
        "nv-remat-block-load-cost",
        Int(10),
        P_REMAT,
        S_REMAT,
        "Cost assigned to load instructions.",
    ),
    cicc(
        "nv-remat-threshold-for-spec-reg",
        Int(20),
        P_REMAT,
        S_REMAT,
        "Threshold for special register rematerialization.",
    ),
    cicc(
        "nv-dump-remat-block",
        Bool(false),
        P_REMAT,
        S_REMAT,
        "Debug dump of block rematerialization.",
    ),
    cicc(
        "load-remat",
        Bool(true),
        P_REMAT,
        S_REMAT,
        "Enable load rematerialization.",
    ),
    cicc(
        "nv-remat-check-internal-live",
        Bool(false),
        P_REMAT,
        S_REMAT_PASS,
        "Check internal liveness during the MaxLive computation.",
    ),
    cicc(
        "max-reg-kind",
        Int(0),
        P_REMAT,
        S_REMAT_PASS,
        "Kind of max register pressure info.",
    ),
    cicc(
        "no-mi-remat",
        Str(""),
        P_REMAT,
        S_REMAT_PASS,
        "Functions to skip machine-instruction rematerialization on (seed default: (list)).",
    ),
    cicc(
        "vasp-fix1",
        Bool(false),
        P_REMAT,
        S_REMAT_PASS,
        "VASP fix (volatile/addsp).",
    ),
    // ---- register pressure targets --------------------------------------
    range(
        cicc(
            "reg-target-adjust",
            Int(0),
            "RP target (MRPA/scheduling/remat)",
            S_RP_TARGET,
            "Adjust the register pressure target (-10 to +10).",
        ),
        -10.0,
        10.0,
    ),
    range(
        cicc(
            "pred-target-adjust",
            Int(0),
            "RP target (MRPA/scheduling/remat)",
            S_RP_TARGET,
            "Adjust the predicate register pressure target (-10 to +10).",
        ),
        -10.0,
        10.0,
    ),
    cicc(
        "fca-size",
        Int(8),
        "NVPTX lowering of first-class aggregates",
        S_RP_TARGET,
        "Maximum size of first-class aggregates in bytes.",
    ),
    cicc(
        "remat-load-param",
        Bool(false),
        "ParamOpt (param-opt)",
        S_RP_TARGET,
        "Support remating const ld.param that are not exposed in NVVM IR (seed default: varies).",
    ),
    cicc(
        "cta-reconfig-aware-rpa",
        Bool(false),
        "register pressure analysis",
        S_RP_TARGET,
        "CTA-reconfiguration-aware register pressure analysis (seed default: varies).",
    ),
    // ---- MachinePipeliner (seed 003's table, fuller than seed 002's) ----
    cicc(
        "enable-pipeliner",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Master switch of the Swing Modulo Scheduler; also seed 002.",
    ),
    cicc(
        "enable-pipeliner-opt-size",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Enable software pipelining at -Os.",
    ),
    cicc(
        "pipeliner-max-mii",
        Int(27),
        P_PIPELINER,
        S_PIPE_003,
        "Maximum allowed MII (SwpMaxMii); a larger MII aborts pipelining; also seed 002.",
    ),
    cicc(
        "pipeliner-force-ii",
        Int(0),
        P_PIPELINER,
        S_PIPE_003,
        "Force a specific II and skip the II search (0 = auto).",
    ),
    cicc(
        "pipeliner-max-stages",
        Int(3),
        P_PIPELINER,
        S_PIPE_003,
        "Maximum pipeline stages (SwpMaxStages); also seed 002.",
    ),
    cicc(
        "pipeliner-prune-deps",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Prune dependences between unrelated Phi nodes.",
    ),
    cicc(
        "pipeliner-prune-loop-carried",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Prune loop-carried order dependences.",
    ),
    cicc(
        "pipeliner-ignore-recmii",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Ignore RecMII (force it to 0) so only ResMII bounds the II (hidden knob); also seed 002.",
    ),
    cicc(
        "pipeliner-show-mask",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Debug: show the scheduling mask.",
    ),
    cicc(
        "pipeliner-dbg-res",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Debug: resource usage.",
    ),
    cicc(
        "pipeliner-annotate-for-testing",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Annotate the schedule instead of generating code; also seed 002.",
    ),
    cicc(
        "pipeliner-experimental-cg",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Use the experimental peeling code generator; also seed 002.",
    ),
    cicc(
        "pipeliner-ii-search-range",
        Int(10),
        P_PIPELINER,
        S_PIPE_003,
        "Number of consecutive II values tried from MII upward; also seed 002.",
    ),
    cicc(
        "pipeliner-register-pressure",
        Bool(false),
        P_PIPELINER,
        S_PIPE_003,
        "Consider register pressure when accepting a schedule; also seed 002.",
    ),
    cicc(
        "pipeliner-register-pressure-margin",
        Int(5),
        P_PIPELINER,
        S_PIPE_003,
        "Margin (percent) of the register pressure limit before the pipeliner backs off; also seed 002.",
    ),
    cicc(
        "pipeliner-mve-cg",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Use the MVE (modulo variable expansion) code generator, the default path; also seed 002.",
    ),
    cicc(
        "pipeliner-enable-copytophi",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Enable the CopyToPhi DAG mutation.",
    ),
    cicc(
        "pipeliner-force-issue-width",
        Int(0),
        P_PIPELINER,
        S_PIPE_003,
        "Force the issue width (0 = auto).",
    ),
    cicc(
        "outliner-benefit-threshold",
        Int(1),
        P_OUTLINER,
        S_PIPE_002,
        "Minimum size in bytes of an outlining candidate.",
    ),
    // ================ cicc: seed 004, loop unrolling ========================
    cicc(
        "unroll-threshold",
        Int(300),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Base cost budget for full unrolling, multiplied by the local-array factor (1-6x); 300 is the NVPTX TTI value (seed default: from TTI).",
    ),
    cicc(
        "unroll-partial-threshold",
        Int(75),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Cost budget for partial unrolling; 75 is the NVPTX TTI value (seed default: from TTI).",
    ),
    cicc(
        "unroll-max-percent-threshold-boost",
        Int(400),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum dynamic cost boost in percent: dynamic budget = Threshold * boost / 100.",
    ),
    cicc(
        "unroll-max-iteration-count-to-analyze",
        Int(10),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum iterations simulated by the full-unroll cost simulation.",
    ),
    cicc(
        "unroll-count",
        Int(0),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Force a specific unroll factor (seed default: unset).",
    ),
    cicc(
        "unroll-max-count",
        Int(0),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Hard cap on the unroll factor (seed default: unset).",
    ),
    cicc(
        "unroll-full-max-count",
        Int(0),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum trip count for full unrolling (seed default: unset).",
    ),
    cicc(
        "unroll-peel-count",
        Int(0),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Force a specific peel count (seed default: unset).",
    ),
    cicc(
        "unroll-allow-partial",
        Bool(false),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Enable the partial unrolling override.",
    ),
    cicc(
        "unroll-allow-remainder",
        Bool(false),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Enable remainder loop generation.",
    ),
    cicc(
        "unroll-runtime",
        Bool(true),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Enable runtime (unknown trip count) unrolling.",
    ),
    cicc(
        "unroll-max-upperbound",
        Int(8),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum trip count for upper-bound unrolling.",
    ),
    cicc(
        "pragma-unroll-threshold",
        Int(32768),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Cost budget for pragma-directed unrolls (0x8000, twice upstream's 16384).",
    ),
    cicc(
        "flat-loop-tripcount-threshold",
        Int(5),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Minimum estimated trip count for runtime unrolling.",
    ),
    cicc(
        "runtime-unroll-threshold",
        Int(95),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum loop body size for runtime unrolling (NVIDIA addition).",
    ),
    cicc(
        "max-pragma-upperbound-unroll",
        Int(64),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Maximum upper-bound unroll factor for pragma-directed unrolls (NVIDIA addition).",
    ),
    cicc(
        "unroll-assumed-size",
        Int(4),
        P_UNROLL,
        S_UNROLL_LLVM,
        "Array dimension assumed for unknown dimensions by the local-array heuristic (NVIDIA addition).",
    ),
    cicc(
        "unroll-runtime-convergent",
        Bool(true),
        P_UNROLL,
        S_UNROLL_NV,
        "Allow runtime unrolling of loops that contain convergent operations.",
    ),
    cicc(
        "unroll-runtime-epilog",
        Bool(false),
        P_UNROLL,
        S_UNROLL_NV,
        "Choose an epilog-style remainder (override) when neither waterfall nor calls force one.",
    ),
    cicc(
        "waterfall-unrolling-force-epilogue",
        Bool(true),
        P_UNROLL,
        S_UNROLL_NV,
        "Force an epilog remainder for runtime-trip-count (waterfall) loops.",
    ),
    cicc(
        "nv-disable-loop-unrolling",
        Bool(false),
        "LoopUnroll (late invocation sub_19C1680)",
        S_UNROLL_TOP,
        "Disable the late (cleanup) LoopUnroll invocation, opts[1360].",
    ),
    cicc(
        "disable-LoopUnrollPass",
        Bool(false),
        P_UNROLL,
        S_UNROLL_TOP,
        "Disable the LoopUnroll pass (passed as -Xcicc \"-disable-LoopUnrollPass\").",
    ),    ptxas(
        "AdvancedPhaseBackPropVReg",
        Bool(false),
        "AdvancedPhaseBackPropVReg (82)",
        seed(SEED_CSE, "Gate Mechanism (Phase 82)"),
        "Switch on the phase-82 hook and with it backward copy propagation (phase 83), which ptxas enables only where an architecture backend overrides phase 82; a knob stands for that override (seed default: disabled, isNoOp returns 1).",
    ),    ptxas(
        "GeneralOptimizeSubPasses",
        Str(""),
        "GeneralOptimize (13/29/37/46/58/65)",
        S_COPYPROP,
        "Which sub-passes the GeneralOptimize bundles run: empty for all, `OriCopyProp` for forward copy propagation alone; `--named-phases OriCopyProp` sets it (ptxas resolves that name to the sub-pass itself; not a ptxas knob).",
    ),
    cicc(
        "pipeliner-keep-register-peak",
        Bool(true),
        P_PIPELINER,
        S_PIPE_003,
        "Keep a pipelined loop only if the function's peak register pressure (MRPA, R units) does not rise: ptxas schedules the overlap again but allocates the registers the overlapped iterations hold. ptxopt's own knob (not cicc's); false pipelines every loop the search schedules.",
    ),
    cicc(
        "nv-remat-leave-constant-bank",
        Bool(true),
        P_REMAT,
        S_REMAT,
        "Leave to ptxas the values it rematerializes itself: a chain that reads no per-thread special register (`%tid`, `%ctaid`, ...), only parameters, constants, launch dimensions (`%ntid`, `%nctaid`), immediates and addresses, is not pulled (in SASS these are constant-bank operands, read again for nothing). ptxopt's own knob (not cicc's); false pulls them as the seed describes.",
    ),
    cicc(
        "inline-threshold",
        Int(225),
        "Inliner (inline)",
        seed(SEED_MACHINE, "Pipeline Flow"),
        "LLVM's inliner budget, multiplied by NVPTX's inlining threshold multiplier 11 (2,475 cost units, 5 per instruction): a call to a function of the module is inlined when the callee costs no more. LLVM's own option, not named in the seeds (they describe the machine passes that run after inlining); 225 is LLVM's default.",
    ),
];
