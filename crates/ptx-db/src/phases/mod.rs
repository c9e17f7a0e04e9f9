//! The phase table: every pass of the pipeline, in order, with where the seeds
//! describe it and whether it is implemented.
//!
//! The pipeline is the one of the toolchain that produced the PTX and then
//! assembles it:
//!
//! 1. **cicc** (seeds 002, 003, 004): the loop unroller and the NVPTX
//!    machine-level passes, in the order of seed 002's "Pipeline Flow"
//!    (post-ISel, pre-RA, during RA, post-RA). They come first because cicc
//!    runs before ptxas; on PTX input they clean up what cicc would have.
//! 2. **ptxas** (seeds 000, 001): the Ori phases with the seeds' numbers and
//!    names, from 3 (AnalyzeControlFlow) to 88 (OriHoistInvariantsLate3). Where
//!    the seeds give a number and what the phase does but no name, the phase is
//!    called `PhaseNN` and marked "unnamed in seeds". Phases after 88 (95
//!    SetAfterLegalization, a pipeline-counter marker; 101 register allocation;
//!    108 OptimizeHotColdInLoop, post-RA) work on allocated registers and have no
//!    counterpart on PTX output, so they are not in the table.
//!
//! Each entry becomes one salsa tracked query per kernel (see
//! [`crate::pipeline`]) taking the previous entry's output. No phase is
//! implemented yet: each passes its input through. [`PhaseInfo::knobs`] lists
//! the knobs whose registry `pass` field names the phase.

mod loop_unrolling;

use std::sync::Arc;

use ptx_ir::ir::Function;
use ptx_knobs::{KnobDef, KNOBS};

use crate::queries::Kernel;
use crate::Db;

/// Which tool a phase comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Cicc,
    Ptxas,
}

impl Tool {
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Cicc => "cicc",
            Tool::Ptxas => "ptxas",
        }
    }
}

/// One entry of the phase table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseInfo {
    pub id: PhaseId,
    pub tool: Tool,
    /// The ptxas phase number; `None` for cicc passes.
    pub number: Option<u32>,
    /// The name the seeds give (`"OriLoopUnrolling"`, cicc's pass id
    /// `"nvptx-peephole"`), or `PhaseNN` where they give none.
    pub name: &'static str,
    /// Whether the seeds name the phase.
    pub named_in_seeds: bool,
    /// Other spellings that refer to it (cicc class names such as
    /// `"NVPTXPeephole"`), matched in `--named-phases` and knob `pass` fields.
    pub aliases: &'static [&'static str],
    /// What it does, in one line.
    pub summary: &'static str,
    /// The seed documents that describe it.
    pub seeds: &'static [&'static str],
    /// Whether it transforms anything yet (false: passes its input through).
    pub implemented: bool,
    /// The name of its salsa query (as it appears in event logs).
    pub query: &'static str,
}

impl PhaseInfo {
    /// `"22 OriLoopUnrolling"`, `"cicc nvptx-peephole"`.
    pub fn label(&self) -> String {
        match self.number {
            Some(n) => format!("{n} {}", self.name),
            None => format!("{} {}", self.tool.as_str(), self.name),
        }
    }

    /// The knobs this phase reads, according to the registry's `pass` field
    /// (`"OriLoopUnrolling (22)"`, `"OriHoistInvariants (35/66/79/88)"`,
    /// `"NVPTXPeephole (nvptx-peephole)"`): a knob of the same tool whose field
    /// gives ptxas phase numbers is read by those phases; otherwise by the
    /// phases its field names (name or alias, case-insensitive).
    pub fn knobs(&self) -> Vec<&'static KnobDef> {
        KNOBS.iter().filter(|k| self.is_read_by(k)).collect()
    }

    fn is_read_by(&self, knob: &KnobDef) -> bool {
        if !knob.tool.eq_ignore_ascii_case(self.tool.as_str()) {
            return false;
        }
        let words: Vec<&str> = knob
            .pass
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let numbers: Vec<u32> = words.iter().filter_map(|w| w.parse().ok()).collect();
        if self.tool == Tool::Ptxas && !numbers.is_empty() {
            return self.number.is_some_and(|n| numbers.contains(&n));
        }
        words.iter().any(|w| {
            w.eq_ignore_ascii_case(self.name)
                || self.aliases.iter().any(|a| w.eq_ignore_ascii_case(a))
        })
    }
}

/// Finds phases by a `--dump-after`/`--named-phases` word: a ptxas number
/// (`22`), a name or alias (case-insensitive), or `NN:Name`. Several results
/// when a name is used twice (`OriPropagateVarying`, phases 53 and 70).
pub fn find_phases(word: &str) -> Vec<&'static PhaseInfo> {
    let word = word.trim();
    if let Ok(n) = word.parse::<u32>() {
        return PHASES.iter().filter(|p| p.number == Some(n)).collect();
    }
    PHASES
        .iter()
        .filter(|p| {
            p.name.eq_ignore_ascii_case(word)
                || p.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
                || p.number.is_some_and(|n| {
                    word.split_once(':').is_some_and(|(num, name)| {
                        num.trim().parse::<u32>() == Ok(n)
                            && name.trim().eq_ignore_ascii_case(p.name)
                    })
                })
        })
        .collect()
}

/// The table entry of a phase.
pub fn phase_info(id: PhaseId) -> &'static PhaseInfo {
    &PHASES[id as usize]
}

/// Runs one phase's transformation on its input (the phase is switched on).
pub(crate) fn transform(
    db: &dyn Db,
    _kernel: Kernel<'_>,
    id: PhaseId,
    input: Arc<Function>,
) -> Arc<Function> {
    match id {
        PhaseId::OriLoopUnrolling => loop_unrolling::ori_loop_unrolling(db, input),
        _ => input,
    }
}

/// Defines [`PhaseId`], [`PHASES`], one salsa tracked query per phase, and the
/// dispatch from an id to its query.
macro_rules! define_phases {
    ($(
        $variant:ident => $query:ident {
            tool: $tool:ident,
            number: $number:expr,
            name: $name:literal,
            $(unnamed: $unnamed:literal,)?
            $(aliases: [$($alias:literal),*],)?
            seeds: [$($seed:expr),*],
            summary: $summary:literal $(,)?
        }
    ),* $(,)?) => {
        /// A phase of the pipeline; `id as usize` is its index in [`PHASES`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PhaseId {
            $($variant),*
        }

        /// The pipeline, in order.
        pub static PHASES: &[PhaseInfo] = &[$(
            PhaseInfo {
                id: PhaseId::$variant,
                tool: Tool::$tool,
                number: $number,
                name: $name,
                named_in_seeds: define_phases!(@named $($unnamed)?),
                aliases: &[$($($alias),*)?],
                summary: $summary,
                seeds: &[$($seed),*],
                implemented: false,
                query: stringify!($query),
            }
        ),*];

        $(
            #[doc = concat!("The IR of a kernel after phase `", $name, "`.")]
            #[salsa::tracked(returns(ref))]
            pub(crate) fn $query<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<Function> {
                crate::pipeline::execute(db, kernel, PhaseId::$variant)
            }
        )*

        /// The memoized output of phase `id` for `kernel`.
        pub(crate) fn memoized<'db>(
            db: &'db dyn Db,
            kernel: Kernel<'db>,
            id: PhaseId,
        ) -> &'db Arc<Function> {
            match id {
                $(PhaseId::$variant => $query(db, kernel),)*
            }
        }
    };
    (@named) => { true };
    (@named $unnamed:literal) => { !$unnamed };
}

const S000: &str = "000_ed667d9feced6e07.txt";
const S001: &str = "001_3e9d45dd172cfaf4.txt";
const S002: &str = "002_164789385e2e817e.txt";
const S003: &str = "003_5f2fcdae57e69502.txt";
const S004: &str = "004_fa10da99f88b4a9e.txt";

define_phases! {
    // ---- cicc (seeds 002-004), in seed 002's pipeline order ----
    CiccLoopUnroll => cicc_loop_unroll {
        tool: Cicc, number: None, name: "loop-unroll",
        aliases: ["LoopUnroll", "LoopUnrollPass"],
        seeds: [S004],
        summary: "LLVM loop unrolling with NVIDIA's computeUnrollCount cascade (local-array multiplier, power-of-two factors, pragma/runtime thresholds)",
    },
    CiccParamOpt => cicc_param_opt {
        tool: Cicc, number: None, name: "param-opt",
        aliases: ["ParamOpt"],
        seeds: [S002],
        summary: "ld.param coalescing and redundant parameter load elimination (post-ISel)",
    },
    CiccTruncOpts => cicc_trunc_opts {
        tool: Cicc, number: None, name: "nvptx-trunc-opts",
        aliases: ["NVPTXTruncOpts"],
        seeds: [S002],
        summary: "removes `and.b16 x, 0xFFFF` after producers that already give 16-bit results",
    },
    CiccRedundantMoveElim => cicc_redundant_move_elim {
        tool: Cicc, number: None, name: "redundant-move-elim",
        seeds: [S002],
        summary: "removes register-to-register moves left by instruction selection",
    },
    CiccEarlyMachineLicm => cicc_early_machine_licm {
        tool: Cicc, number: None, name: "early-machinelicm",
        aliases: ["EarlyMachineLICM", "MachineLICM"],
        seeds: [S002],
        summary: "pre-RA loop-invariant code motion (gated by enable-mlicm)",
    },
    CiccMachineCse => cicc_machine_cse {
        tool: Cicc, number: None, name: "machine-cse",
        aliases: ["MachineCSE", "MCSE", "MRPA", "machine-rpa"],
        seeds: [S002, S003],
        summary: "register-pressure- and predicate-aware MachineCSE with copy propagation, incrementally tracked by the MRPA pressure analysis",
    },
    CiccMachineSink => cicc_machine_sink {
        tool: Cicc, number: None, name: "machine-sink",
        aliases: ["MachineSink"],
        seeds: [S002],
        summary: "sinks instructions toward their uses (off on NVPTX unless nvptx-enable-machine-sink)",
    },
    CiccNvptxPeephole => cicc_nvptx_peephole {
        tool: Cicc, number: None, name: "nvptx-peephole",
        aliases: ["NVPTXPeephole"],
        seeds: [S002],
        summary: "redundant cvta removal, setp/branch predicate folding, address-space cast simplification",
    },
    CiccDeadMachineInstrElim => cicc_dead_mi_elimination {
        tool: Cicc, number: None, name: "dead-mi-elimination",
        aliases: ["DeadMachineInstrElim"],
        seeds: [S002],
        summary: "dead instruction elimination",
    },
    CiccMachineCopyProp => cicc_machine_cp {
        tool: Cicc, number: None, name: "machine-cp",
        aliases: ["MachineCopyPropagation"],
        seeds: [S002],
        summary: "machine copy propagation",
    },
    CiccLdgTransform => cicc_ldgxform {
        tool: Cicc, number: None, name: "ldgxform",
        aliases: ["LdgTransform"],
        seeds: [S002],
        summary: "qualifying global loads become ld.global.nc; wide vector loads are split",
    },
    CiccMem2Reg => cicc_nvptx_mem2reg {
        tool: Cicc, number: None, name: "nvptx-mem2reg",
        aliases: ["NVPTXMem2Reg", "mem2reg"],
        seeds: [S002],
        summary: "promotes .local loads/stores back to virtual registers",
    },
    CiccBlockRemat => cicc_nvptx_remat_block {
        tool: Cicc, number: None, name: "nvptx-remat-block",
        aliases: ["NVPTXBlockRemat", "remat"],
        seeds: [S002],
        summary: "block rematerialization: recomputes values near their uses to cut register pressure (two-phase candidate selection)",
    },
    CiccMachinePipeliner => cicc_machine_pipeliner {
        tool: Cicc, number: None, name: "machine-pipeliner",
        aliases: ["MachinePipeliner", "SMS", "pipeliner"],
        seeds: [S002, S003],
        summary: "Swing Modulo Scheduling of single-block loop bodies (II search from MII)",
    },
    CiccTextureGroupMerge => cicc_texture_group_merge {
        tool: Cicc, number: None, name: "texture-group-merge",
        aliases: ["TextureGroupMerge"],
        seeds: [S003],
        summary: "groups related texture loads so the texture unit can coalesce them",
    },
    CiccMachineScheduler => cicc_machine_scheduler {
        tool: Cicc, number: None, name: "machine-scheduler",
        aliases: ["ScheduleDAGMILive", "MachineScheduler", "misched"],
        seeds: [S002, S003],
        summary: "ScheduleDAGMILive instruction ordering (3-level priority; nvptx-sched4reg pressure mode)",
    },
    CiccProxyRegErasure => cicc_nvptx_proxy_reg_erasure {
        tool: Cicc, number: None, name: "nvptx-proxy-reg-erasure",
        aliases: ["NVPTXProxyRegErasure"],
        seeds: [S002],
        summary: "removes redundant cvta.to.local",
    },

    // ---- ptxas (seeds 000, 001), by phase number ----
    AnalyzeControlFlow => phase_03_analyze_control_flow {
        tool: Ptxas, number: Some(3), name: "AnalyzeControlFlow",
        seeds: [S000],
        summary: "builds the CFG, finds back edges and loop nesting depth, computes dominators",
    },
    GeneralOptimizeEarly => phase_13_general_optimize_early {
        tool: Ptxas, number: Some(13), name: "GeneralOptimizeEarly",
        seeds: [S000, S001],
        summary: "GeneralOptimize bundle: constant folding, forward copy propagation (OriCopyProp), DCE; feeds loop analysis",
    },
    OriBranchOpt => phase_15_ori_branch_opt {
        tool: Ptxas, number: Some(15), name: "OriBranchOpt",
        seeds: [S000],
        summary: "branch simplification (may change loop shape)",
    },
    OriPerformLiveDeadFirst => phase_16_ori_perform_live_dead_first {
        tool: Ptxas, number: Some(16), name: "OriPerformLiveDeadFirst",
        seeds: [S000],
        summary: "liveness-based dead code elimination; removes dead loop bodies",
    },
    OriLoopSimplification => phase_18_ori_loop_simplification {
        tool: Ptxas, number: Some(18), name: "OriLoopSimplification",
        seeds: [S000],
        summary: "loop canonicalization: single entry, preheader insertion, back-edge normalization",
    },
    OriSplitLiveRanges => phase_19_ori_split_live_ranges {
        tool: Ptxas, number: Some(19), name: "OriSplitLiveRanges",
        seeds: [S000],
        summary: "splits live ranges at loop boundaries",
    },
    OriStrengthReduce => phase_21_ori_strength_reduce {
        tool: Ptxas, number: Some(21), name: "OriStrengthReduce",
        seeds: [S000],
        summary: "induction variable strength reduction",
    },
    OriLoopUnrolling => phase_22_ori_loop_unrolling {
        tool: Ptxas, number: Some(22), name: "OriLoopUnrolling",
        seeds: [S000],
        summary: "full and partial loop unrolling by trip count",
    },
    GenerateMovPhi => phase_23_generate_mov_phi {
        tool: Ptxas, number: Some(23), name: "GenerateMovPhi",
        seeds: [S000],
        summary: "SSA phi insertion after unrolling changed the CFG",
    },
    OriPipelining => phase_24_ori_pipelining {
        tool: Ptxas, number: Some(24), name: "OriPipelining",
        seeds: [S000],
        summary: "software pipelining: latency classes, MII, modulo schedule of single-block loops",
    },
    AnalyzeUniformsForSpeculation => phase_27_analyze_uniforms_for_speculation {
        tool: Ptxas, number: Some(27), name: "AnalyzeUniformsForSpeculation",
        seeds: [S001],
        summary: "constant-bank speculation-safety annotations (used by GvnCse)",
    },
    GeneralOptimize => phase_29_general_optimize {
        tool: Ptxas, number: Some(29), name: "GeneralOptimize",
        seeds: [S000, S001],
        summary: "GeneralOptimize bundle: partial CSE, OriCopyProp, folding (iteration cap, knob 464)",
    },
    OriHoistInvariantsEarly => phase_35_ori_hoist_invariants_early {
        tool: Ptxas, number: Some(35), name: "OriHoistInvariantsEarly",
        aliases: ["OriHoistInvariants"],
        seeds: [S000],
        summary: "LICM #1: after GVN, before mid-level expansion",
    },
    Phase37 => phase_37_general_optimize_bundle {
        tool: Ptxas, number: Some(37), name: "Phase37",
        unnamed: true,
        seeds: [S001],
        summary: "a GeneralOptimize bundle (cost-threshold fixpoint, knob 474); the seeds do not name it",
    },
    GeneralOptimizeMid2 => phase_46_general_optimize_mid2 {
        tool: Ptxas, number: Some(46), name: "GeneralOptimizeMid2",
        seeds: [S001],
        summary: "GeneralOptimize bundle: OriCopyProp, folding, algebraic simplification, DCE",
    },
    EnforceArgumentRestrictions => phase_48_enforce_argument_restrictions {
        tool: Ptxas, number: Some(48), name: "EnforceArgumentRestrictions",
        seeds: [S001],
        summary: "inserts moves for ABI compliance",
    },
    GvnCse => phase_49_gvn_cse {
        tool: Ptxas, number: Some(49), name: "GvnCse",
        seeds: [S001],
        summary: "global value numbering and CSE (modes 0-6; active on SM60, SM70, SM90+)",
    },
    OriReassociateAndCommon => phase_50_ori_reassociate_and_common {
        tool: Ptxas, number: Some(50), name: "OriReassociateAndCommon",
        seeds: [S001],
        summary: "reassociation to canonical form, then windowed local commoning",
    },
    ExtractShaderConstsFinal => phase_51_extract_shader_consts_final {
        tool: Ptxas, number: Some(51), name: "ExtractShaderConstsFinal",
        seeds: [S001],
        summary: "replaces computations with constant loads",
    },
    OriPropagateVarying1 => phase_53_ori_propagate_varying {
        tool: Ptxas, number: Some(53), name: "OriPropagateVarying",
        seeds: [S000, S001],
        summary: "per-register divergence (varying) classification, first instance",
    },
    Phase55 => phase_55_late_expansion {
        tool: Ptxas, number: Some(55), name: "Phase55",
        unnamed: true,
        seeds: [S000],
        summary: "late expansion (may split one operation into a pair of loops); the seeds do not name it",
    },
    Phase56 => phase_56_speculative_hoist {
        tool: Ptxas, number: Some(56), name: "Phase56",
        unnamed: true,
        seeds: [S001],
        summary: "speculative hoisting of common instructions (knob SpeculativeHoistCommonInsts); the seeds do not name it",
    },
    GeneralOptimizeLate => phase_58_general_optimize_late {
        tool: Ptxas, number: Some(58), name: "GeneralOptimizeLate",
        seeds: [S000, S001],
        summary: "GeneralOptimize bundle: OriCopyProp after expansion (cost threshold 0.25, knob 474)",
    },
    OriLoopFusion => phase_59_ori_loop_fusion {
        tool: Ptxas, number: Some(59), name: "OriLoopFusion",
        seeds: [S000],
        summary: "fuses adjacent compatible loops",
    },
    OriDoPredication => phase_63_ori_do_predication {
        tool: Ptxas, number: Some(63), name: "OriDoPredication",
        seeds: [S000, S001],
        summary: "if-conversion: branches become predicated instructions",
    },
    LateOriCommoning => phase_64_late_ori_commoning {
        tool: Ptxas, number: Some(64), name: "LateOriCommoning",
        seeds: [S001],
        summary: "CSE of the code predication linearized",
    },
    GeneralOptimizeLate2 => phase_65_general_optimize_late2 {
        tool: Ptxas, number: Some(65), name: "GeneralOptimizeLate2",
        seeds: [S001],
        summary: "GeneralOptimize bundle: final OriCopyProp and DCE",
    },
    OriHoistInvariantsLate => phase_66_ori_hoist_invariants_late {
        tool: Ptxas, number: Some(66), name: "OriHoistInvariantsLate",
        aliases: ["OriHoistInvariants"],
        seeds: [S000],
        summary: "LICM #2: after predication",
    },
    OriPropagateVarying2 => phase_70_ori_propagate_varying {
        tool: Ptxas, number: Some(70), name: "OriPropagateVarying",
        seeds: [S000, S001],
        summary: "per-register divergence (varying) classification, second instance",
    },
    Phase78 => phase_78_late_unsupported_op_expansion {
        tool: Ptxas, number: Some(78), name: "Phase78",
        unnamed: true,
        seeds: [S000],
        summary: "late expansion of unsupported operations; the seeds do not name it",
    },
    OriHoistInvariantsLate2 => phase_79_ori_hoist_invariants_late2 {
        tool: Ptxas, number: Some(79), name: "OriHoistInvariantsLate2",
        aliases: ["OriHoistInvariants"],
        seeds: [S000],
        summary: "LICM #3: after late unsupported-op expansion",
    },
    AdvancedPhaseBackPropVReg => phase_82_advanced_phase_back_prop_vreg {
        tool: Ptxas, number: Some(82), name: "AdvancedPhaseBackPropVReg",
        seeds: [S001],
        summary: "architecture hook holding backward copy propagation (off by default)",
    },
    OriBackCopyPropagate => phase_83_ori_back_copy_propagate {
        tool: Ptxas, number: Some(83), name: "OriBackCopyPropagate",
        seeds: [S001],
        summary: "backward MOV-chain elimination before allocation (off by default)",
    },
    OriPerformLiveDeadFourth => phase_84_ori_perform_live_dead_fourth {
        tool: Ptxas, number: Some(84), name: "OriPerformLiveDeadFourth",
        seeds: [S001],
        summary: "liveness-based dead code elimination before register allocation",
    },
    Phase87 => phase_87_gmma_fixup {
        tool: Ptxas, number: Some(87), name: "Phase87",
        unnamed: true,
        seeds: [S000],
        summary: "GMMA fixup; the seeds do not name it",
    },
    OriHoistInvariantsLate3 => phase_88_ori_hoist_invariants_late3 {
        tool: Ptxas, number: Some(88), name: "OriHoistInvariantsLate3",
        aliases: ["OriHoistInvariants"],
        seeds: [S000],
        summary: "LICM #4: after GMMA fixup",
    },
}

/// Up to three phase names (or aliases) closest to `word` (case, `-` and `_`
/// ignored; edit distance; failing that, names containing `word`), for "did
/// you mean" messages: [`ptx_knobs::closest_names`] over the phase table.
pub fn suggest_phases(word: &str) -> Vec<&'static str> {
    let names = PHASES
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()));
    ptx_knobs::closest_names(word, names, true)
}
