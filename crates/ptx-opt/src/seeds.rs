//! The seed files the phase table cites, and the table itself as data handed to
//! a macro ([`with_phase_table!`](crate::with_phase_table); see [`crate::table`]).

pub const S000: &str = "000_ed667d9feced6e07.txt";
pub const S001: &str = "001_3e9d45dd172cfaf4.txt";
pub const S002: &str = "002_164789385e2e817e.txt";
pub const S003: &str = "003_5f2fcdae57e69502.txt";
pub const S004: &str = "004_fa10da99f88b4a9e.txt";

/// Calls the macro `$cb` (an identifier in scope at the call) with the
/// whole phase table: entries `Variant => query_name { tool, number, name,
/// [unnamed,] [aliases,] seeds, summary }`, in pipeline order. `ptx-opt`
/// makes [`PhaseId`](crate::PhaseId) and [`PHASES`](crate::PHASES) from it;
/// `ptx-db` one tracked query per entry.
#[macro_export]
macro_rules! with_phase_table {
    ($cb:ident) => {
        $cb! {
    // ---- cicc (seeds 002-004), in seed 002's pipeline order ----
    CiccInline => cicc_inline {
        tool: Cicc, number: None, name: "inline",
        aliases: ["Inliner", "InlinerPass"],
        seeds: [],
        summary: "LLVM's inliner as cicc runs it before the loop passes: calls to small functions of the module replaced by their bodies (inline-threshold x NVPTX's multiplier 11); not described by the seeds",
    },
    CiccLoopUnroll => cicc_loop_unroll {
        tool: Cicc, number: None, name: "loop-unroll",
        aliases: ["LoopUnroll", "LoopUnrollPass"],
        seeds: [$crate::seeds::S004],
        summary: "LLVM loop unrolling with NVIDIA's computeUnrollCount cascade (local-array multiplier, power-of-two factors, pragma/runtime thresholds)",
    },
    CiccIselCombine => cicc_isel_combine {
        tool: Cicc, number: None, name: "nvptx-isel-combine",
        aliases: ["DAGCombine", "NVPTXISelDAGToDAG"],
        seeds: [],
        summary: "the integer combines of NVPTX instruction selection: mul.lo + add into mad.lo, cvt + shl/mul into mul.wide; not described by the seeds",
    },
    CiccParamOpt => cicc_param_opt {
        tool: Cicc, number: None, name: "param-opt",
        aliases: ["ParamOpt"],
        seeds: [$crate::seeds::S002],
        summary: "ld.param coalescing and redundant parameter load elimination (post-ISel)",
    },
    CiccTruncOpts => cicc_trunc_opts {
        tool: Cicc, number: None, name: "nvptx-trunc-opts",
        aliases: ["NVPTXTruncOpts"],
        seeds: [$crate::seeds::S002],
        summary: "removes `and.b16 x, 0xFFFF` after producers that already give 16-bit results",
    },
    CiccRedundantMoveElim => cicc_redundant_move_elim {
        tool: Cicc, number: None, name: "redundant-move-elim",
        seeds: [$crate::seeds::S002],
        summary: "removes register-to-register moves left by instruction selection",
    },
    CiccEarlyMachineLicm => cicc_early_machine_licm {
        tool: Cicc, number: None, name: "early-machinelicm",
        aliases: ["EarlyMachineLICM", "MachineLICM"],
        seeds: [$crate::seeds::S002],
        summary: "pre-RA loop-invariant code motion (gated by enable-mlicm)",
    },
    CiccMachineCse => cicc_machine_cse {
        tool: Cicc, number: None, name: "machine-cse",
        aliases: ["MachineCSE", "MCSE", "MRPA", "machine-rpa"],
        seeds: [$crate::seeds::S002, $crate::seeds::S003],
        summary: "register-pressure- and predicate-aware MachineCSE with copy propagation, incrementally tracked by the MRPA pressure analysis",
    },
    CiccMachineSink => cicc_machine_sink {
        tool: Cicc, number: None, name: "machine-sink",
        aliases: ["MachineSink"],
        seeds: [$crate::seeds::S002],
        summary: "sinks instructions toward their uses (off on NVPTX unless nvptx-enable-machine-sink)",
    },
    CiccNvptxPeephole => cicc_nvptx_peephole {
        tool: Cicc, number: None, name: "nvptx-peephole",
        aliases: ["NVPTXPeephole"],
        seeds: [$crate::seeds::S002],
        summary: "redundant cvta removal, setp/branch predicate folding, address-space cast simplification",
    },
    CiccDeadMachineInstrElim => cicc_dead_mi_elimination {
        tool: Cicc, number: None, name: "dead-mi-elimination",
        aliases: ["DeadMachineInstrElim"],
        seeds: [$crate::seeds::S002],
        summary: "dead instruction elimination",
    },
    CiccMachineCopyProp => cicc_machine_cp {
        tool: Cicc, number: None, name: "machine-cp",
        aliases: ["MachineCopyPropagation"],
        seeds: [$crate::seeds::S002],
        summary: "machine copy propagation",
    },
    CiccLdgTransform => cicc_ldgxform {
        tool: Cicc, number: None, name: "ldgxform",
        aliases: ["LdgTransform"],
        seeds: [$crate::seeds::S002],
        summary: "qualifying global loads become ld.global.nc; wide vector loads are split",
    },
    CiccMem2Reg => cicc_nvptx_mem2reg {
        tool: Cicc, number: None, name: "nvptx-mem2reg",
        aliases: ["NVPTXMem2Reg", "mem2reg"],
        seeds: [$crate::seeds::S002],
        summary: "promotes .local loads/stores back to virtual registers",
    },
    CiccBlockRemat => cicc_nvptx_remat_block {
        tool: Cicc, number: None, name: "nvptx-remat-block",
        aliases: ["NVPTXBlockRemat", "remat"],
        seeds: [$crate::seeds::S002],
        summary: "block rematerialization: recomputes values near their uses to cut register pressure (two-phase candidate selection)",
    },
    CiccMachinePipeliner => cicc_machine_pipeliner {
        tool: Cicc, number: None, name: "machine-pipeliner",
        aliases: ["MachinePipeliner", "SMS", "pipeliner"],
        seeds: [$crate::seeds::S002, $crate::seeds::S003],
        summary: "Swing Modulo Scheduling of single-block loop bodies (II search from MII)",
    },
    CiccTextureGroupMerge => cicc_texture_group_merge {
        tool: Cicc, number: None, name: "texture-group-merge",
        aliases: ["TextureGroupMerge"],
        seeds: [$crate::seeds::S003],
        summary: "groups related texture loads so the texture unit can coalesce them",
    },
    CiccMachineScheduler => cicc_machine_scheduler {
        tool: Cicc, number: None, name: "machine-scheduler",
        aliases: ["ScheduleDAGMILive", "MachineScheduler", "misched"],
        seeds: [$crate::seeds::S002, $crate::seeds::S003],
        summary: "ScheduleDAGMILive instruction ordering (3-level priority; nvptx-sched4reg pressure mode)",
    },
    CiccProxyRegErasure => cicc_nvptx_proxy_reg_erasure {
        tool: Cicc, number: None, name: "nvptx-proxy-reg-erasure",
        aliases: ["NVPTXProxyRegErasure"],
        seeds: [$crate::seeds::S002],
        summary: "removes redundant cvta.to.local",
    },

    // ---- ptxas (seeds 000, 001), by phase number ----
    AnalyzeControlFlow => phase_03_analyze_control_flow {
        tool: Ptxas, number: Some(3), name: "AnalyzeControlFlow",
        seeds: [$crate::seeds::S000],
        summary: "builds the CFG, finds back edges and loop nesting depth, computes dominators",
    },
    GeneralOptimizeEarly => phase_13_general_optimize_early {
        tool: Ptxas, number: Some(13), name: "GeneralOptimizeEarly",
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "GeneralOptimize bundle: constant folding, forward copy propagation (OriCopyProp), DCE; feeds loop analysis",
    },
    OriBranchOpt => phase_15_ori_branch_opt {
        tool: Ptxas, number: Some(15), name: "OriBranchOpt",
        seeds: [$crate::seeds::S000],
        summary: "branch simplification (may change loop shape)",
    },
    OriPerformLiveDeadFirst => phase_16_ori_perform_live_dead_first {
        tool: Ptxas, number: Some(16), name: "OriPerformLiveDeadFirst",
        seeds: [$crate::seeds::S000],
        summary: "liveness-based dead code elimination; removes dead loop bodies",
    },
    OriLoopSimplification => phase_18_ori_loop_simplification {
        tool: Ptxas, number: Some(18), name: "OriLoopSimplification",
        seeds: [$crate::seeds::S000],
        summary: "loop canonicalization: single entry, preheader insertion, back-edge normalization",
    },
    OriSplitLiveRanges => phase_19_ori_split_live_ranges {
        tool: Ptxas, number: Some(19), name: "OriSplitLiveRanges",
        seeds: [$crate::seeds::S000],
        summary: "splits live ranges at loop boundaries",
    },
    OriStrengthReduce => phase_21_ori_strength_reduce {
        tool: Ptxas, number: Some(21), name: "OriStrengthReduce",
        seeds: [$crate::seeds::S000],
        summary: "induction variable strength reduction",
    },
    OriLoopUnrolling => phase_22_ori_loop_unrolling {
        tool: Ptxas, number: Some(22), name: "OriLoopUnrolling",
        seeds: [$crate::seeds::S000],
        summary: "full and partial loop unrolling by trip count",
    },
    GenerateMovPhi => phase_23_generate_mov_phi {
        tool: Ptxas, number: Some(23), name: "GenerateMovPhi",
        seeds: [$crate::seeds::S000],
        summary: "SSA phi insertion after unrolling changed the CFG",
    },
    OriPipelining => phase_24_ori_pipelining {
        tool: Ptxas, number: Some(24), name: "OriPipelining",
        seeds: [$crate::seeds::S000],
        summary: "software pipelining: latency classes, MII, modulo schedule of single-block loops",
    },
    AnalyzeUniformsForSpeculation => phase_27_analyze_uniforms_for_speculation {
        tool: Ptxas, number: Some(27), name: "AnalyzeUniformsForSpeculation",
        seeds: [$crate::seeds::S001],
        summary: "constant-bank speculation-safety annotations (used by GvnCse)",
    },
    GeneralOptimize => phase_29_general_optimize {
        tool: Ptxas, number: Some(29), name: "GeneralOptimize",
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "GeneralOptimize bundle: partial CSE, OriCopyProp, folding (iteration cap, knob 464)",
    },
    OriHoistInvariantsEarly => phase_35_ori_hoist_invariants_early {
        tool: Ptxas, number: Some(35), name: "OriHoistInvariantsEarly",
        aliases: ["OriHoistInvariants"],
        seeds: [$crate::seeds::S000],
        summary: "LICM #1: after GVN, before mid-level expansion",
    },
    Phase37 => phase_37_general_optimize_bundle {
        tool: Ptxas, number: Some(37), name: "Phase37",
        unnamed: true,
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S001],
        summary: "a GeneralOptimize bundle (cost-threshold fixpoint, knob 474); the seeds do not name it",
    },
    GeneralOptimizeMid2 => phase_46_general_optimize_mid2 {
        tool: Ptxas, number: Some(46), name: "GeneralOptimizeMid2",
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S001],
        summary: "GeneralOptimize bundle: OriCopyProp, folding, algebraic simplification, DCE",
    },
    EnforceArgumentRestrictions => phase_48_enforce_argument_restrictions {
        tool: Ptxas, number: Some(48), name: "EnforceArgumentRestrictions",
        seeds: [$crate::seeds::S001],
        summary: "inserts moves for ABI compliance",
    },
    GvnCse => phase_49_gvn_cse {
        tool: Ptxas, number: Some(49), name: "GvnCse",
        seeds: [$crate::seeds::S001],
        summary: "global value numbering and CSE (modes 0-6; active on SM60, SM70, SM90+)",
    },
    OriReassociateAndCommon => phase_50_ori_reassociate_and_common {
        tool: Ptxas, number: Some(50), name: "OriReassociateAndCommon",
        seeds: [$crate::seeds::S001],
        summary: "reassociation to canonical form, then windowed local commoning",
    },
    ExtractShaderConstsFinal => phase_51_extract_shader_consts_final {
        tool: Ptxas, number: Some(51), name: "ExtractShaderConstsFinal",
        seeds: [$crate::seeds::S001],
        summary: "replaces computations with constant loads",
    },
    OriPropagateVarying1 => phase_53_ori_propagate_varying {
        tool: Ptxas, number: Some(53), name: "OriPropagateVarying",
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "per-register divergence (varying) classification, first instance",
    },
    Phase55 => phase_55_late_expansion {
        tool: Ptxas, number: Some(55), name: "Phase55",
        unnamed: true,
        seeds: [$crate::seeds::S000],
        summary: "late expansion (may split one operation into a pair of loops); the seeds do not name it",
    },
    Phase56 => phase_56_speculative_hoist {
        tool: Ptxas, number: Some(56), name: "Phase56",
        unnamed: true,
        seeds: [$crate::seeds::S001],
        summary: "speculative hoisting of common instructions (knob SpeculativeHoistCommonInsts); the seeds do not name it",
    },
    GeneralOptimizeLate => phase_58_general_optimize_late {
        tool: Ptxas, number: Some(58), name: "GeneralOptimizeLate",
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "GeneralOptimize bundle: OriCopyProp after expansion (cost threshold 0.25, knob 474)",
    },
    OriLoopFusion => phase_59_ori_loop_fusion {
        tool: Ptxas, number: Some(59), name: "OriLoopFusion",
        seeds: [$crate::seeds::S000],
        summary: "fuses adjacent compatible loops",
    },
    OriDoPredication => phase_63_ori_do_predication {
        tool: Ptxas, number: Some(63), name: "OriDoPredication",
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "if-conversion: branches become predicated instructions",
    },
    LateOriCommoning => phase_64_late_ori_commoning {
        tool: Ptxas, number: Some(64), name: "LateOriCommoning",
        seeds: [$crate::seeds::S001],
        summary: "CSE of the code predication linearized",
    },
    GeneralOptimizeLate2 => phase_65_general_optimize_late2 {
        tool: Ptxas, number: Some(65), name: "GeneralOptimizeLate2",
        aliases: ["OriCopyProp"],
        seeds: [$crate::seeds::S001],
        summary: "GeneralOptimize bundle: final OriCopyProp and DCE",
    },
    OriHoistInvariantsLate => phase_66_ori_hoist_invariants_late {
        tool: Ptxas, number: Some(66), name: "OriHoistInvariantsLate",
        aliases: ["OriHoistInvariants"],
        seeds: [$crate::seeds::S000],
        summary: "LICM #2: after predication",
    },
    OriPropagateVarying2 => phase_70_ori_propagate_varying {
        tool: Ptxas, number: Some(70), name: "OriPropagateVarying",
        seeds: [$crate::seeds::S000, $crate::seeds::S001],
        summary: "per-register divergence (varying) classification, second instance",
    },
    Phase78 => phase_78_late_unsupported_op_expansion {
        tool: Ptxas, number: Some(78), name: "Phase78",
        unnamed: true,
        seeds: [$crate::seeds::S000],
        summary: "late expansion of unsupported operations; the seeds do not name it",
    },
    OriHoistInvariantsLate2 => phase_79_ori_hoist_invariants_late2 {
        tool: Ptxas, number: Some(79), name: "OriHoistInvariantsLate2",
        aliases: ["OriHoistInvariants"],
        seeds: [$crate::seeds::S000],
        summary: "LICM #3: after late unsupported-op expansion",
    },
    AdvancedPhaseBackPropVReg => phase_82_advanced_phase_back_prop_vreg {
        tool: Ptxas, number: Some(82), name: "AdvancedPhaseBackPropVReg",
        seeds: [$crate::seeds::S001],
        summary: "architecture hook holding backward copy propagation (off by default)",
    },
    OriBackCopyPropagate => phase_83_ori_back_copy_propagate {
        tool: Ptxas, number: Some(83), name: "OriBackCopyPropagate",
        seeds: [$crate::seeds::S001],
        summary: "backward MOV-chain elimination before allocation (off by default)",
    },
    OriPerformLiveDeadFourth => phase_84_ori_perform_live_dead_fourth {
        tool: Ptxas, number: Some(84), name: "OriPerformLiveDeadFourth",
        seeds: [$crate::seeds::S001],
        summary: "liveness-based dead code elimination before register allocation",
    },
    Phase87 => phase_87_gmma_fixup {
        tool: Ptxas, number: Some(87), name: "Phase87",
        unnamed: true,
        seeds: [$crate::seeds::S000],
        summary: "GMMA fixup; the seeds do not name it",
    },
    OriHoistInvariantsLate3 => phase_88_ori_hoist_invariants_late3 {
        tool: Ptxas, number: Some(88), name: "OriHoistInvariantsLate3",
        aliases: ["OriHoistInvariants"],
        seeds: [$crate::seeds::S000],
        summary: "LICM #4: after GMMA fixup",
    },
}
    };
}
