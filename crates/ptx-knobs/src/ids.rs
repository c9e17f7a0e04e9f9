//! @generated from the registry by `UPDATE_EXPECT=1 cargo test -p ptx-knobs ids_are`;
//! do not edit. One typed constant per knob of [`crate::KNOBS`], named as the
//! seed spells it (`-` becomes `_`).

#![allow(non_upper_case_globals)]

use crate::typed::{BoolKnob, FloatKnob, IntKnob, KnobId, StrKnob};

/// `LoopMakeSingleEntry` (ptxas, OriLoopSimplification (18)): Master enable of single-entry enforcement and preheader insertion; also the master loop-pass guard of OriLoopUnrolling (22) and OriLoopFusion (59) (OCG knob 487).
pub const LoopMakeSingleEntry: BoolKnob = BoolKnob(KnobId(0));

/// `LoopInversion` (ptxas, OriLoopSimplification (18)): Enable loop inversion (do-while to while conversion).
pub const LoopInversion: BoolKnob = BoolKnob(KnobId(1));

/// `LoopInversionBudget` (ptxas, OriLoopSimplification (18)): Maximum instruction count for loop inversion; type not stated (seed default: unset).
pub const LoopInversionBudget: IntKnob = IntKnob(KnobId(2));

/// `LoopPeelInversion` (ptxas, OriLoopSimplification (18)): Enable loop peeling combined with inversion.
pub const LoopPeelInversion: BoolKnob = BoolKnob(KnobId(3));

/// `EnableSingleThreadPeelingLoops` (ptxas, OriLoopSimplification (18)): Enable peeling for single-thread execution paths (seed default: unset).
pub const EnableSingleThreadPeelingLoops: BoolKnob = BoolKnob(KnobId(4));

/// `GenPeelingLoopsForSyncs` (ptxas, OriLoopSimplification (18)): Generate peeling loops around sync instructions (seed default: unset).
pub const GenPeelingLoopsForSyncs: BoolKnob = BoolKnob(KnobId(5));

/// `AssertIfPeelingLoopForTexSurf` (ptxas, OriLoopSimplification (18)): Assert (debug) if peeling a loop for texture/surface ops (seed default: unset).
pub const AssertIfPeelingLoopForTexSurf: BoolKnob = BoolKnob(KnobId(6));

/// `LoopUnroll` (ptxas, OriLoopUnrolling (22)): Master enable of loop unrolling (OCG knob 437).
pub const LoopUnroll: BoolKnob = BoolKnob(KnobId(7));

/// `LoopUnrollFactor` (ptxas, OriLoopUnrolling (22)): Override unroll factor, 0 = heuristic (OCG knob 896; the Step L pseudocode queries it as knob 429).
pub const LoopUnrollFactor: IntKnob = IntKnob(KnobId(8));

/// `UnrollBudget` (ptxas, OriLoopUnrolling (22)): Maximum total instruction count after unrolling (context field ctx+168).
pub const UnrollBudget: IntKnob = IntKnob(KnobId(9));

/// `UnrollInstLimit` (ptxas, OriLoopUnrolling (22)): Maximum instructions in a single unrolled loop body (context field ctx+192).
pub const UnrollInstLimit: FloatKnob = FloatKnob(KnobId(10));

/// `UnrollFullInstLimit` (ptxas, OriLoopUnrolling (22)): Budget for known-trip-count full unrolling: full unroll needs 200 / trip_count > body_cost (context field ctx+204).
pub const UnrollFullInstLimit: IntKnob = IntKnob(KnobId(11));

/// `UnrollFlexableFullLimit` (ptxas, OriLoopUnrolling (22)): Flexible full-unroll limit, adjusted by loop characteristics (context field ctx+172).
pub const UnrollFlexableFullLimit: FloatKnob = FloatKnob(KnobId(12));

/// `UnrollSmallLoopLimit` (ptxas, OriLoopUnrolling (22)): Body size threshold below which loops are always fully unrolled (context field ctx+180).
pub const UnrollSmallLoopLimit: IntKnob = IntKnob(KnobId(13));

/// `UnrollPregThreshold` (ptxas, OriLoopUnrolling (22)): Maximum predicate register pressure for unrolling (context field ctx+196).
pub const UnrollPregThreshold: IntKnob = IntKnob(KnobId(14));

/// `UnrollMultiBlockLoops` (ptxas, OriLoopUnrolling (22)): Allow unrolling of multi-basic-block loop bodies (OCG knob 897).
pub const UnrollMultiBlockLoops: BoolKnob = BoolKnob(KnobId(15));

/// `UnrollVariableBounds` (ptxas, OriLoopUnrolling (22)): Allow unrolling when the trip count is not a compile-time constant (OCG knob 902).
pub const UnrollVariableBounds: BoolKnob = BoolKnob(KnobId(16));

/// `UnrollUnknownCount` (ptxas, OriLoopUnrolling (22)): Unroll factor / trip count assumed when the trip count is unknown (context field ctx+176).
pub const UnrollUnknownCount: IntKnob = IntKnob(KnobId(17));

/// `UnrollUnknownInstLimit` (ptxas, OriLoopUnrolling (22)): Maximum body size for unrolling with unknown trip count.
pub const UnrollUnknownInstLimit: IntKnob = IntKnob(KnobId(18));

/// `UnrollExtraInstPerPercentSaving` (ptxas, OriLoopUnrolling (22)): Instructions allowed per percent of cycle saving (context field ctx+200).
pub const UnrollExtraInstPerPercentSaving: IntKnob = IntKnob(KnobId(19));

/// `UnrollTex3DPercentSavedThreshold` (ptxas, OriLoopUnrolling (22)): Minimum savings percent for 3D texture loops.
pub const UnrollTex3DPercentSavedThreshold: IntKnob = IntKnob(KnobId(20));

/// `UnrollProfiledColdInstsScale` (ptxas, OriLoopUnrolling (22)): Scale factor for instruction count in profiled-cold blocks.
pub const UnrollProfiledColdInstsScale: IntKnob = IntKnob(KnobId(21));

/// `LoopUnrollExtraFoldableLdcWeight` (ptxas, OriLoopUnrolling (22)): Extra weight for foldable constant loads in the unroll benefit.
pub const LoopUnrollExtraFoldableLdcWeight: IntKnob = IntKnob(KnobId(22));

/// `LoopUnrollFoldableAddrWeight` (ptxas, OriLoopUnrolling (22)): Weight for foldable address computations in the unroll benefit.
pub const LoopUnrollFoldableAddrWeight: IntKnob = IntKnob(KnobId(23));

/// `LoopUnrollLargePartOfShaderPct` (ptxas, OriLoopUnrolling (22)): Fraction threshold above which a loop is a "large part of the shader" (double; context field ctx+184).
pub const LoopUnrollLargePartOfShaderPct: FloatKnob = FloatKnob(KnobId(24));

/// `LoopUnrollNumExtraInstBase` (ptxas, OriLoopUnrolling (22)): Base extra instruction allowance per unroll iteration (context field ctx+208).
pub const LoopUnrollNumExtraInstBase: IntKnob = IntKnob(KnobId(25));

/// `LoopUnrollNumInstSmallLoop` (ptxas, OriLoopUnrolling (22)): Instruction count defining a "small loop".
pub const LoopUnrollNumInstSmallLoop: IntKnob = IntKnob(KnobId(26));

/// `LoopUnrollNumInstTex` (ptxas, OriLoopUnrolling (22)): Texture budget for unknown-trip-count unrolling; when unset the budget is min(5 * tex_inst + 22, 100) (OCG knob 900).
pub const LoopUnrollNumInstTex: IntKnob = IntKnob(KnobId(27));

/// `LoopUnrollSingleLoopSavedPctFactor` (ptxas, OriLoopUnrolling (22)): Savings factor for single-loop shaders.
pub const LoopUnrollSingleLoopSavedPctFactor: IntKnob = IntKnob(KnobId(28));

/// `LoopUnrollNonInnermost` (ptxas, OriLoopUnrolling (22)): Allow unrolling of non-innermost loops (OCG knob 894).
pub const LoopUnrollNonInnermost: BoolKnob = BoolKnob(KnobId(29));

/// `LoopUnrollUnknownMultiBlock` (ptxas, OriLoopUnrolling (22)): Allow multi-block unrolling with unknown bounds.
pub const LoopUnrollUnknownMultiBlock: BoolKnob = BoolKnob(KnobId(30));

/// `EpilogueLoopUnrollCount` (ptxas, OriLoopUnrolling (22)): Unroll count for epilogue (remainder) loops (OCG knob 895).
pub const EpilogueLoopUnrollCount: IntKnob = IntKnob(KnobId(31));

/// `DisablePartialUnrollOverflowCheck` (ptxas, OriLoopUnrolling (22)): Skip the overflow check on the partial unroll count (OCG knob 903).
pub const DisablePartialUnrollOverflowCheck: BoolKnob = BoolKnob(KnobId(32));

/// `OcgKnob427` (ptxas, OriLoopUnrolling (22)): Unnamed in the seed (OCG knob 427): per-block LoopUnrollFactor override string: "-N-" skips block N, "+N+" force-unrolls block N, "-" skips all, "+" forces all (seed default: unset).
pub const OcgKnob427: StrKnob = StrKnob(KnobId(33));

/// `OcgKnob91` (ptxas, OriLoopUnrolling (22)): Unnamed in the seed (OCG knob 91): per-block nounroll; a loop whose block has it set is not unrolled (rejection code 11) (seed default: not stated).
pub const OcgKnob91: BoolKnob = BoolKnob(KnobId(34));

/// `OcgKnob898` (ptxas, OriLoopUnrolling (22)): Unnamed in the seed (OCG knob 898): scale of the inner-nounroll-block penalty in the unroll budget, penalty = (int)(scale * inner_nounroll_cnt).
pub const OcgKnob898: FloatKnob = FloatKnob(KnobId(35));

/// `GemmPipelinerEnabled` (ptxas, OriPipelining (24)): Master enable of GEMM-specific pipelining (sub_92C240).
pub const GemmPipelinerEnabled: BoolKnob = BoolKnob(KnobId(36));

/// `GemmPipelinerPipelineDepthEnforceDeltaFull` (ptxas, OriPipelining (24)): Pipeline depth adjustment for full enforcement.
pub const GemmPipelinerPipelineDepthEnforceDeltaFull: IntKnob = IntKnob(KnobId(37));

/// `GemmPipelinerPipelineDepthEnforceDeltaPartial` (ptxas, OriPipelining (24)): Pipeline depth adjustment for partial enforcement.
pub const GemmPipelinerPipelineDepthEnforceDeltaPartial: IntKnob = IntKnob(KnobId(38));

/// `GemmPipelinerDependenciesPopbl` (ptxas, OriPipelining (24)): Dependency resolution policy between DMA and compute stages.
pub const GemmPipelinerDependenciesPopbl: BoolKnob = BoolKnob(KnobId(39));

/// `GemmPipelinerScoreboardHashPopbl` (ptxas, OriPipelining (24)): Scoreboard hash policy for GEMM barrier tracking.
pub const GemmPipelinerScoreboardHashPopbl: BoolKnob = BoolKnob(KnobId(40));

/// `GemmPipelinerUseRegisterCalculation` (ptxas, OriPipelining (24)): Use register-based calculation of the pipeline depth instead of a fixed depth.
pub const GemmPipelinerUseRegisterCalculation: IntKnob = IntKnob(KnobId(41));

/// `OkToPipelineNoUnroll` (ptxas, OriPipelining (24)): Allow pipelining even when unrolling was also suppressed (0 = disabled).
pub const OkToPipelineNoUnroll: IntKnob = IntKnob(KnobId(42));

/// `PipelineHoistCondLimit` (ptxas, OriPipelining (24)): Maximum condition complexity for hoisting in pipelined loops (seed default: unset).
pub const PipelineHoistCondLimit: IntKnob = IntKnob(KnobId(43));

/// `PipelineHoistRRegPressureLimit` (ptxas, OriPipelining (24)): R-register pressure limit for hoisting inside a pipelined body (seed default: unset).
pub const PipelineHoistRRegPressureLimit: IntKnob = IntKnob(KnobId(44));

/// `PipelineHoistPRegPressureLimit` (ptxas, OriPipelining (24)): P-register pressure limit for hoisting inside a pipelined body (seed default: unset).
pub const PipelineHoistPRegPressureLimit: IntKnob = IntKnob(KnobId(45));

/// `PipelineMIOVQToInstRatio` (ptxas, OriPipelining (24)): MIOVQ-to-instruction ratio threshold for pipeline profitability (seed default: unset).
pub const PipelineMIOVQToInstRatio: FloatKnob = FloatKnob(KnobId(46));

/// `PipelineMultiOutputTex` (ptxas, OriPipelining (24)): Enable pipelining of loops with multi-output texture instructions (0 = disabled).
pub const PipelineMultiOutputTex: IntKnob = IntKnob(KnobId(47));

/// `PipelineSpecUsesInHeadOnly` (ptxas, OriPipelining (24)): Restrict speculative uses to the loop header only (0 = disabled).
pub const PipelineSpecUsesInHeadOnly: IntKnob = IntKnob(KnobId(48));

/// `HoistBudget` (ptxas, OriHoistInvariants (35/66/79/88)): Maximum number of instructions to hoist per loop, 0 = unlimited (OCG knob 483).
pub const HoistBudget: FloatKnob = FloatKnob(KnobId(49));

/// `HoistLoopInvBudget` (ptxas, OriHoistInvariants (35/66/79/88)): Budget for loop-invariant (CBO) hoisting of simple loops; pass_id 0 uses 22, later instances 100 (OCG knob 482) (seed default: 22 (early) / 100 (late)).
pub const HoistLoopInvBudget: FloatKnob = FloatKnob(KnobId(50));

/// `HoistConservativeScale` (ptxas, OriHoistInvariants (35/66/79/88)): Inner-loop budget divisor: budget /= scale when hoisting from inner loops (OCG knob 380).
pub const HoistConservativeScale: IntKnob = IntKnob(KnobId(51));

/// `HoistLate` (ptxas, OriHoistInvariants (35/66/79/88)): Per-block hoisting policy: 0 = always, 1 = inner loops only, 3 = never (OCG knob 381) (seed default: per-block policy).
pub const HoistLate: IntKnob = IntKnob(KnobId(52));

/// `HoistCBOMode` (ptxas, OriHoistInvariants (35/66/79/88)): Constant-buffer-object hoisting mode.
pub const HoistCBOMode: IntKnob = IntKnob(KnobId(53));

/// `HoistCBOLoad` (ptxas, OriHoistInvariants (35/66/79/88)): Enable hoisting of CBO load instructions (seed default: unset).
pub const HoistCBOLoad: IntKnob = IntKnob(KnobId(54));

/// `HoistCBOFromLoopWithColdNest` (ptxas, OriHoistInvariants (35/66/79/88)): Hoist CBO loads even from loops with a cold nest (1 = enabled).
pub const HoistCBOFromLoopWithColdNest: IntKnob = IntKnob(KnobId(55));

/// `HoistCBOHighCostSBInstRatioThreshold` (ptxas, OriHoistInvariants (35/66/79/88)): Scoreboard cost threshold for CBO hoisting (seed default: unset).
pub const HoistCBOHighCostSBInstRatioThreshold: IntKnob = IntKnob(KnobId(56));

/// `HoistCBOLoadIDOMTravseLimit` (ptxas, OriHoistInvariants (35/66/79/88)): IDOM traversal limit for CBO load hoisting.
pub const HoistCBOLoadIDOMTravseLimit: IntKnob = IntKnob(KnobId(57));

/// `HoistCBORRegPressureLimitApplyRate` (ptxas, OriHoistInvariants (35/66/79/88)): R-register pressure limit application rate (percentage).
pub const HoistCBORRegPressureLimitApplyRate: IntKnob = IntKnob(KnobId(58));

/// `HoistTexToInstRatioHigh` (ptxas, OriHoistInvariants (35/66/79/88)): High texture-to-instruction ratio threshold for aggressive hoisting.
pub const HoistTexToInstRatioHigh: FloatKnob = FloatKnob(KnobId(59));

/// `HoistTexToInstRatioLow` (ptxas, OriHoistInvariants (35/66/79/88)): Low texture-to-instruction ratio threshold for conservative hoisting.
pub const HoistTexToInstRatioLow: FloatKnob = FloatKnob(KnobId(60));

/// `DisableNestedHoist` (ptxas, OriHoistInvariants (35/66/79/88)): Disable hoisting from nested loops (false = nested hoisting allowed).
pub const DisableNestedHoist: BoolKnob = BoolKnob(KnobId(61));

/// `NestedHoistInnerThreshold` (ptxas, OriHoistInvariants (35/66/79/88)): Inner-loop instruction threshold for nested hoisting, same value as HoistLoopInvBudget (seed default: 22 / 100).
pub const NestedHoistInnerThreshold: IntKnob = IntKnob(KnobId(62));

/// `NestedHoistOuterThreshold` (ptxas, OriHoistInvariants (35/66/79/88)): Outer-loop instruction threshold for nested hoisting, same value as HoistBudget.
pub const NestedHoistOuterThreshold: IntKnob = IntKnob(KnobId(63));

/// `UseNewLoopInvariantRoutineForHoisting` (ptxas, OriHoistInvariants (35/66/79/88)): Use the set-based fixpoint invariance routine instead of the legacy single-pass scan (OCG knob 934).
pub const UseNewLoopInvariantRoutineForHoisting: BoolKnob = BoolKnob(KnobId(64));

/// `MaxMidHeaderSizeRateForAggressiveHoist` (ptxas, OriHoistInvariants (35/66/79/88)): Maximum LICM iteration count (limits repeated hoisting passes).
pub const MaxMidHeaderSizeRateForAggressiveHoist: IntKnob = IntKnob(KnobId(65));

/// `EnableHoistLowLatencyInstMidBlock` (ptxas, OriHoistInvariants (35/66/79/88)): Hoist low-latency instructions from mid-block positions.
pub const EnableHoistLowLatencyInstMidBlock: BoolKnob = BoolKnob(KnobId(66));

/// `MovWeightForSinkingHoisting` (ptxas, OriHoistInvariants (35/66/79/88)): Weight of MOV instructions in sink/hoist decisions.
pub const MovWeightForSinkingHoisting: FloatKnob = FloatKnob(KnobId(67));

/// `OcgKnob499` (ptxas, OriHoistInvariants (35/66/79/88)): Unnamed in the seed (OCG knob 499): master LICM switch checked by the guard sub_7DDB50, which also rate-limits LICM invocations (seed default: not stated).
pub const OcgKnob499: BoolKnob = BoolKnob(KnobId(68));

/// `OcgKnob484` (ptxas, OriHoistInvariants (35/66/79/88)): Unnamed in the seed (OCG knob 484): gate of the instruction mover; when disabled no invariant is moved to the preheader (seed default: not stated).
pub const OcgKnob484: BoolKnob = BoolKnob(KnobId(69));

/// `OcgKnob220` (ptxas, OriHoistInvariants (35/66/79/88)): Unnamed in the seed (OCG knob 220): permits multi-depth (nested) loop hoisting together with DisableNestedHoist (seed default: not stated).
pub const OcgKnob220: BoolKnob = BoolKnob(KnobId(70));

/// `PerformLoopFusion` (ptxas, OriLoopFusion (59)): Master enable of loop fusion; must be set to a nonzero value (OCG knob 519).
pub const PerformLoopFusion: IntKnob = IntKnob(KnobId(71));

/// `PerformLoopFusionBudget` (ptxas, OriLoopFusion (59)): Maximum instruction count in the fused body (OCG knob 520) (seed default: unset).
pub const PerformLoopFusionBudget: FloatKnob = FloatKnob(KnobId(72));

/// `EnableGvnCse` (ptxas, GvnCse (49)): Master enable of GvnCse; when disabled the pass is skipped; true as the phase is enabled by default (seed default: not stated).
pub const EnableGvnCse: BoolKnob = BoolKnob(KnobId(73));

/// `EnableGvnCseMode` (ptxas, GvnCse (49)): GVN mode: 0 = off, 1 = simple, 2 = standard dominator-guided, 3-6 = full GVN; 0 as an unset knob selects no mode (OCG knob 402) (seed default: not stated).
pub const EnableGvnCseMode: IntKnob = IntKnob(KnobId(74));

/// `EnableGvnCsePerInstr` (ptxas, GvnCse (49)): Per-instruction GVN gate: where set, the block walk stops at that instruction (OCG knob 257) (seed default: not stated).
pub const EnableGvnCsePerInstr: BoolKnob = BoolKnob(KnobId(75));

/// `OcgKnob210` (ptxas, GvnCse (49)): Unnamed in the seed (OCG knob 210): with SM version > 0x7FFF, skips the EBB pre-pass sub_BED430 before standard GVN (seed default: not stated).
pub const OcgKnob210: BoolKnob = BoolKnob(KnobId(76));

/// `AllowReassociateCSE` (ptxas, OriReassociateAndCommon (50)): Master enable of reassociation CSE; true as the phase is enabled by default (seed default: not stated).
pub const AllowReassociateCSE: BoolKnob = BoolKnob(KnobId(77));

/// `ReassociateCSEBudget` (ptxas, OriReassociateAndCommon (50)): Maximum instructions processed per function (seed default: unset).
pub const ReassociateCSEBudget: IntKnob = IntKnob(KnobId(78));

/// `ReassociateCSEWindow` (ptxas, OriReassociateAndCommon (50)): Sliding window size of the local CSE after reassociation (seed default: unset).
pub const ReassociateCSEWindow: IntKnob = IntKnob(KnobId(79));

/// `ReassociateCSESkip` (ptxas, OriReassociateAndCommon (50)): Skip the first N instructions, for debugging (seed default: unset).
pub const ReassociateCSESkip: IntKnob = IntKnob(KnobId(80));

/// `ReassociateLargeImmInUIADD64` (ptxas, OriReassociateAndCommon (50)): Reassociate large immediates in 64-bit unsigned ADD (seed default: not stated).
pub const ReassociateLargeImmInUIADD64: BoolKnob = BoolKnob(KnobId(81));

/// `DistributeAndReassociateMulBudget` (ptxas, OriReassociateAndCommon (50)): Budget for the distributive rewrite a*b + a*c -> a*(b+c) (seed default: unset).
pub const DistributeAndReassociateMulBudget: IntKnob = IntKnob(KnobId(82));

/// `SpeculativeHoistCommonInsts` (ptxas, SpeculativeHoistComInsts (56)): Speculatively hoist common instructions above branches (phase 56) (seed default: not stated).
pub const SpeculativeHoistCommonInsts: BoolKnob = BoolKnob(KnobId(83));

/// `ForceLateCommoning` (ptxas, LateOriCommoning (64)): Force-enable late commoning; seed 001 calls it knob index 487, an id seed 000 gives to LoopMakeSingleEntry (seed default: not stated).
pub const ForceLateCommoning: BoolKnob = BoolKnob(KnobId(84));

/// `DisableMoveCommoning` (ptxas, LateOriCommoning (64)): Disable MOV-based equivalence propagation within the commoning walker (seed default: not stated).
pub const DisableMoveCommoning: BoolKnob = BoolKnob(KnobId(85));

/// `OcgKnob844` (ptxas, LateOriCommoning (64)): Unnamed in the seed (OCG knob 844): per-instruction CSE gate of the late commoning walker; unset instructions are skipped (seed default: not stated).
pub const OcgKnob844: BoolKnob = BoolKnob(KnobId(86));

/// `BackCopyPropBudget` (ptxas, OriBackCopyPropagate (83)): Maximum backward copy propagations per function; unset falls back to the scheduler state's own default (OCG knob 808) (seed default: unset).
pub const BackCopyPropBudget: IntKnob = IntKnob(KnobId(87));

/// `CopyPropBudget` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Maximum instructions processed per copy-propagation invocation (seed default: unset).
pub const CopyPropBudget: IntKnob = IntKnob(KnobId(88));

/// `CopyPropGlobalBudget` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Budget for cross-block (global) copy propagation (seed default: unset).
pub const CopyPropGlobalBudget: IntKnob = IntKnob(KnobId(89));

/// `CopyPropForceGlobal` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Force global copy propagation (seed default: not stated).
pub const CopyPropForceGlobal: BoolKnob = BoolKnob(KnobId(90));

/// `CopyPropAddr` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Propagate through address computations: 'add.s64 %x, %b, c' folded into '[%x+d]' as '[%b+c+d]', and values that differ by a constant from one already computed written as it plus the constant ('shl (i+1), 3' as '(shl i, 3) + 8') (seed default: not stated; on, as ptxas's and cicc's output show the folded form).
pub const CopyPropAddr: BoolKnob = BoolKnob(KnobId(91));

/// `CopyPropConstantBank` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Propagate constant bank references (seed default: not stated).
pub const CopyPropConstantBank: BoolKnob = BoolKnob(KnobId(92));

/// `CopyPropUseReachingDefs` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Use reaching definitions instead of dominator checks for more aggressive propagation (seed default: not stated).
pub const CopyPropUseReachingDefs: BoolKnob = BoolKnob(KnobId(93));

/// `CopyPropPreAllocReg` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Enable propagation for pre-allocated (fixed) registers (seed default: not stated).
pub const CopyPropPreAllocReg: BoolKnob = BoolKnob(KnobId(94));

/// `CopyPropNoWriteNonRR` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Disable propagation into non-register-register contexts (seed default: not stated).
pub const CopyPropNoWriteNonRR: BoolKnob = BoolKnob(KnobId(95));

/// `CopyPropNonRegMultiDef` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Handle non-register multi-definition copies (seed default: not stated).
pub const CopyPropNonRegMultiDef: BoolKnob = BoolKnob(KnobId(96));

/// `CopyPropNoMmaCb` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Disable propagation into MMA constant bank operands (seed default: not stated).
pub const CopyPropNoMmaCb: BoolKnob = BoolKnob(KnobId(97));

/// `LateCopyPropComplPred` (ptxas, OriCopyProp (GeneralOptimize 13/29/37/46/58/65)): Late copy propagation for complementary predicates (seed default: not stated).
pub const LateCopyPropComplPred: BoolKnob = BoolKnob(KnobId(98));

/// `OcgKnob464` (ptxas, GeneralOptimize (13/29)): Unnamed in the seed (OCG knob 464): iteration cap of the GeneralOptimize fixpoint loop, variant A (seed default: unset).
pub const OcgKnob464: IntKnob = IntKnob(KnobId(99));

/// `OcgKnob474` (ptxas, GeneralOptimize (37/58)): Unnamed in the seed (OCG knob 474): cost-based convergence threshold of the GeneralOptimize loop, variant B.
pub const OcgKnob474: FloatKnob = FloatKnob(KnobId(100));

/// `SchedDisableAll` (ptxas, ptxas instruction scheduler): Disable ptxas instruction scheduling; type not stated (seed default: not stated).
pub const SchedDisableAll: BoolKnob = BoolKnob(KnobId(101));

/// `SchedForceReverseOrder` (ptxas, ptxas instruction scheduler): Force reverse scheduling order, for debugging; type not stated (seed default: not stated).
pub const SchedForceReverseOrder: BoolKnob = BoolKnob(KnobId(102));

/// `enable-nvvm-peephole` (cicc, NVPTXPeephole (nvptx-peephole)): Enable the NVPTX-specific peephole optimizer (cvta, predicate and address-space folding).
pub const enable_nvvm_peephole: BoolKnob = BoolKnob(KnobId(103));

/// `nvptx-enable-machine-sink` (cicc, MachineSink (machine-sink)): Enable MachineSink on NVPTX (off by default due to register pressure).
pub const nvptx_enable_machine_sink: BoolKnob = BoolKnob(KnobId(104));

/// `enable-mlicm` (cicc, MachineLICM (early-machinelicm/machinelicm)): Enable MachineLICM on NVPTX (seed default: opt-level dependent).
pub const enable_mlicm: BoolKnob = BoolKnob(KnobId(105));

/// `enable-mcse` (cicc, MachineCSE (machine-cse)): Enable MachineCSE on NVPTX (seed default: opt-level dependent).
pub const enable_mcse: BoolKnob = BoolKnob(KnobId(106));

/// `nv-disable-mem2reg` (cicc, NVPTXMem2Reg (nvptx-mem2reg)): Disable machine-level mem2reg of .local stack slots.
pub const nv_disable_mem2reg: BoolKnob = BoolKnob(KnobId(107));

/// `nv-disable-remat` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Disable all NVIDIA rematerialization passes.
pub const nv_disable_remat: BoolKnob = BoolKnob(KnobId(108));

/// `enable-new-nvvm-remat` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Enable the new NVVM rematerialization and disable the old one (seed default: varies).
pub const enable_new_nvvm_remat: BoolKnob = BoolKnob(KnobId(109));

/// `usedessa` (cicc, PHIElimination (phi-node-elimination)): deSSA method for PHI elimination; seed 003 shows it selects the scheduling mode (1 = simple, 2 = full).
pub const usedessa: IntKnob = IntKnob(KnobId(110));

/// `cssa-coalesce` (cicc, PHIElimination (phi-node-elimination)): PHI operand coalescing aggressiveness (seed default: varies).
pub const cssa_coalesce: IntKnob = IntKnob(KnobId(111));

/// `cssa-verbosity` (cicc, PHIElimination (phi-node-elimination)): Verbosity of the CSSA/deSSA PHI elimination (seed default: not stated).
pub const cssa_verbosity: IntKnob = IntKnob(KnobId(112));

/// `disable-machine-dce` (cicc, DeadMachineInstrElim (dead-mi-elimination)): Disable dead machine instruction elimination.
pub const disable_machine_dce: BoolKnob = BoolKnob(KnobId(113));

/// `disable-machine-licm` (cicc, EarlyMachineLICM (early-machinelicm)): Disable pre-RA MachineLICM.
pub const disable_machine_licm: BoolKnob = BoolKnob(KnobId(114));

/// `disable-postra-machine-licm` (cicc, MachineLICM (machinelicm)): Disable post-RA MachineLICM.
pub const disable_postra_machine_licm: BoolKnob = BoolKnob(KnobId(115));

/// `disable-machine-cse` (cicc, MachineCSE (machine-cse)): Disable MachineCSE.
pub const disable_machine_cse: BoolKnob = BoolKnob(KnobId(116));

/// `disable-machine-sink` (cicc, MachineSink (machine-sink)): Disable MachineSink (NVPTX also gates it by nvptx-enable-machine-sink).
pub const disable_machine_sink: BoolKnob = BoolKnob(KnobId(117));

/// `disable-postra-machine-sink` (cicc, MachineSink (machine-sink)): Disable post-RA MachineSink.
pub const disable_postra_machine_sink: BoolKnob = BoolKnob(KnobId(118));

/// `disable-branch-fold` (cicc, BranchFolding): Disable BranchFolding / tail merge.
pub const disable_branch_fold: BoolKnob = BoolKnob(KnobId(119));

/// `disable-tail-duplicate` (cicc, TailDuplicate (tailduplication)): Disable post-RA tail duplication.
pub const disable_tail_duplicate: BoolKnob = BoolKnob(KnobId(120));

/// `disable-early-taildup` (cicc, EarlyTailDuplicate (early-tailduplication)): Disable pre-RA tail duplication.
pub const disable_early_taildup: BoolKnob = BoolKnob(KnobId(121));

/// `disable-block-placement` (cicc, MachineBlockPlacement (block-placement)): Disable MachineBlockPlacement.
pub const disable_block_placement: BoolKnob = BoolKnob(KnobId(122));

/// `disable-copyprop` (cicc, MachineCopyPropagation (machine-cp)): Disable MachineCopyPropagation.
pub const disable_copyprop: BoolKnob = BoolKnob(KnobId(123));

/// `disable-ssc` (cicc, StackSlotColoring (stack-slot-coloring)): Disable stack slot coloring.
pub const disable_ssc: BoolKnob = BoolKnob(KnobId(124));

/// `disable-post-ra` (cicc, PostRAScheduler (post-RA-sched)): Disable the post-RA scheduler.
pub const disable_post_ra: BoolKnob = BoolKnob(KnobId(125));

/// `disable-early-ifcvt` (cicc, EarlyIfConverter (early-ifcvt)): Disable early if-conversion.
pub const disable_early_ifcvt: BoolKnob = BoolKnob(KnobId(126));

/// `disable-peephole` (cicc, PeepholeOptimizer (peephole-opt)): Disable the stock LLVM peephole optimizer.
pub const disable_peephole: BoolKnob = BoolKnob(KnobId(127));

/// `enable-machine-outliner` (cicc, MachineOutliner (machine-outliner)): Machine outliner mode: disable / enable / guaranteed beneficial (seed default: varies).
pub const enable_machine_outliner: StrKnob = StrKnob(KnobId(128));

/// `misched-postra` (cicc, PostMachineScheduler (postmisched)): Run the MachineScheduler post-RA.
pub const misched_postra: BoolKnob = BoolKnob(KnobId(129));

/// `optimize-regalloc` (cicc, RAGreedy (greedy)): Enable the optimized register allocation path.
pub const optimize_regalloc: BoolKnob = BoolKnob(KnobId(130));

/// `verify-machineinstrs` (cicc, MachineVerifier): Run the MachineVerifier after each pass.
pub const verify_machineinstrs: BoolKnob = BoolKnob(KnobId(131));

/// `nvptx-sched4reg` (cicc, MachineScheduler (machine-scheduler)): Register-pressure-driven pre-RA scheduling mode added by NVIDIA; also seed 003 (seed default: not stated).
pub const nvptx_sched4reg: BoolKnob = BoolKnob(KnobId(132));

/// `machine-combiner-inc-threshold` (cicc, MachineCombiner (machine-combiner)): Instruction-count threshold of the MachineCombiner (seed default: not stated).
pub const machine_combiner_inc_threshold: IntKnob = IntKnob(KnobId(133));

/// `sink-insts-to-avoid-spills` (cicc, MachineLICM (machinelicm)): NVIDIA addition to post-RA MachineLICM: trade hoisting for spill reduction by sinking (seed default: not stated).
pub const sink_insts_to_avoid_spills: BoolKnob = BoolKnob(KnobId(134));

/// `rp-aware-mcse` (cicc, MachineCSE (machine-cse)): Register-pressure-aware MachineCSE: suppress a CSE that would raise pressure past the target (seed default: varies).
pub const rp_aware_mcse: BoolKnob = BoolKnob(KnobId(135));

/// `pred-aware-mcse` (cicc, MachineCSE (machine-cse)): Predicate-register-pressure-aware MachineCSE (seed default: varies).
pub const pred_aware_mcse: BoolKnob = BoolKnob(KnobId(136));

/// `copy-prop-mcse` (cicc, MachineCSE (machine-cse)): Copy propagation within MachineCSE (seed default: varies).
pub const copy_prop_mcse: BoolKnob = BoolKnob(KnobId(137));

/// `incremental-update-mcse` (cicc, MRPA (machine-rpa)): Incrementally update MRPA register pressure during MachineCSE; also seed 003.
pub const incremental_update_mcse: BoolKnob = BoolKnob(KnobId(138));

/// `verify-update-mcse` (cicc, MRPA (machine-rpa)): Debug: verify each incremental MRPA update against a full recomputation; also seed 003.
pub const verify_update_mcse: BoolKnob = BoolKnob(KnobId(139));

/// `print-verify` (cicc, MRPA (machine-rpa)): Debug: print per-register-class RP info when MRPA verification fails; also seed 003.
pub const print_verify: BoolKnob = BoolKnob(KnobId(140));

/// `cta-reconfig-aware-mrpa` (cicc, MRPA (machine-rpa)): CTA-reconfiguration-aware machine register pressure analysis (seed default: varies).
pub const cta_reconfig_aware_mrpa: BoolKnob = BoolKnob(KnobId(141));

/// `nv-remat-block` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Bitmask of rematerialization modes (bits 0-3).
pub const nv_remat_block: IntKnob = IntKnob(KnobId(142));

/// `nv-remat-max-times` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Maximum iterations of the outer remat loop.
pub const nv_remat_max_times: IntKnob = IntKnob(KnobId(143));

/// `nv-remat-block-single-cost` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Maximum cost per single live value pull-in.
pub const nv_remat_block_single_cost: IntKnob = IntKnob(KnobId(144));

/// `nv-remat-block-map-size-limit` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Map size limit for a single pull-in.
pub const nv_remat_block_map_size_limit: IntKnob = IntKnob(KnobId(145));

/// `nv-remat-block-max-cost` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Maximum total clone cost per live value reduction.
pub const nv_remat_block_max_cost: IntKnob = IntKnob(KnobId(146));

/// `nv-remat-block-liveout-min-percentage` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Minimum live-out percentage for special consideration.
pub const nv_remat_block_liveout_min_percentage: IntKnob = IntKnob(KnobId(147));

/// `nv-remat-block-loop-cost-factor` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Cost multiplier of instructions in loops.
pub const nv_remat_block_loop_cost_factor: IntKnob = IntKnob(KnobId(148));

/// `nv-remat-default-max-reg` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Default register pressure target of rematerialization.
pub const nv_remat_default_max_reg: IntKnob = IntKnob(KnobId(149));

/// `nv-remat-block-load-cost` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Cost assigned to load instructions.
pub const nv_remat_block_load_cost: IntKnob = IntKnob(KnobId(150));

/// `nv-remat-threshold-for-spec-reg` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Threshold for special register rematerialization.
pub const nv_remat_threshold_for_spec_reg: IntKnob = IntKnob(KnobId(151));

/// `nv-dump-remat-block` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Debug dump of block rematerialization.
pub const nv_dump_remat_block: BoolKnob = BoolKnob(KnobId(152));

/// `load-remat` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Enable load rematerialization.
pub const load_remat: BoolKnob = BoolKnob(KnobId(153));

/// `nv-remat-check-internal-live` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Check internal liveness during the MaxLive computation.
pub const nv_remat_check_internal_live: BoolKnob = BoolKnob(KnobId(154));

/// `max-reg-kind` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Kind of max register pressure info.
pub const max_reg_kind: IntKnob = IntKnob(KnobId(155));

/// `no-mi-remat` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Functions to skip machine-instruction rematerialization on (seed default: (list)).
pub const no_mi_remat: StrKnob = StrKnob(KnobId(156));

/// `vasp-fix1` (cicc, NVPTXBlockRemat (nvptx-remat-block)): VASP fix (volatile/addsp).
pub const vasp_fix1: BoolKnob = BoolKnob(KnobId(157));

/// `reg-target-adjust` (cicc, RP target (MRPA/scheduling/remat)): Adjust the register pressure target (-10 to +10).
pub const reg_target_adjust: IntKnob = IntKnob(KnobId(158));

/// `pred-target-adjust` (cicc, RP target (MRPA/scheduling/remat)): Adjust the predicate register pressure target (-10 to +10).
pub const pred_target_adjust: IntKnob = IntKnob(KnobId(159));

/// `fca-size` (cicc, NVPTX lowering of first-class aggregates): Maximum size of first-class aggregates in bytes.
pub const fca_size: IntKnob = IntKnob(KnobId(160));

/// `remat-load-param` (cicc, ParamOpt (param-opt)): Support remating const ld.param that are not exposed in NVVM IR (seed default: varies).
pub const remat_load_param: BoolKnob = BoolKnob(KnobId(161));

/// `cta-reconfig-aware-rpa` (cicc, register pressure analysis): CTA-reconfiguration-aware register pressure analysis (seed default: varies).
pub const cta_reconfig_aware_rpa: BoolKnob = BoolKnob(KnobId(162));

/// `enable-pipeliner` (cicc, MachinePipeliner (machine-pipeliner)): Master switch of the Swing Modulo Scheduler; also seed 002.
pub const enable_pipeliner: BoolKnob = BoolKnob(KnobId(163));

/// `enable-pipeliner-opt-size` (cicc, MachinePipeliner (machine-pipeliner)): Enable software pipelining at -Os.
pub const enable_pipeliner_opt_size: BoolKnob = BoolKnob(KnobId(164));

/// `pipeliner-max-mii` (cicc, MachinePipeliner (machine-pipeliner)): Maximum allowed MII (SwpMaxMii); a larger MII aborts pipelining; also seed 002.
pub const pipeliner_max_mii: IntKnob = IntKnob(KnobId(165));

/// `pipeliner-force-ii` (cicc, MachinePipeliner (machine-pipeliner)): Force a specific II and skip the II search (0 = auto).
pub const pipeliner_force_ii: IntKnob = IntKnob(KnobId(166));

/// `pipeliner-max-stages` (cicc, MachinePipeliner (machine-pipeliner)): Maximum pipeline stages (SwpMaxStages); also seed 002.
pub const pipeliner_max_stages: IntKnob = IntKnob(KnobId(167));

/// `pipeliner-prune-deps` (cicc, MachinePipeliner (machine-pipeliner)): Prune dependences between unrelated Phi nodes.
pub const pipeliner_prune_deps: BoolKnob = BoolKnob(KnobId(168));

/// `pipeliner-prune-loop-carried` (cicc, MachinePipeliner (machine-pipeliner)): Prune loop-carried order dependences.
pub const pipeliner_prune_loop_carried: BoolKnob = BoolKnob(KnobId(169));

/// `pipeliner-ignore-recmii` (cicc, MachinePipeliner (machine-pipeliner)): Ignore RecMII (force it to 0) so only ResMII bounds the II (hidden knob); also seed 002.
pub const pipeliner_ignore_recmii: BoolKnob = BoolKnob(KnobId(170));

/// `pipeliner-show-mask` (cicc, MachinePipeliner (machine-pipeliner)): Debug: show the scheduling mask.
pub const pipeliner_show_mask: BoolKnob = BoolKnob(KnobId(171));

/// `pipeliner-dbg-res` (cicc, MachinePipeliner (machine-pipeliner)): Debug: resource usage.
pub const pipeliner_dbg_res: BoolKnob = BoolKnob(KnobId(172));

/// `pipeliner-annotate-for-testing` (cicc, MachinePipeliner (machine-pipeliner)): Annotate the schedule instead of generating code; also seed 002.
pub const pipeliner_annotate_for_testing: BoolKnob = BoolKnob(KnobId(173));

/// `pipeliner-experimental-cg` (cicc, MachinePipeliner (machine-pipeliner)): Use the experimental peeling code generator; also seed 002.
pub const pipeliner_experimental_cg: BoolKnob = BoolKnob(KnobId(174));

/// `pipeliner-ii-search-range` (cicc, MachinePipeliner (machine-pipeliner)): Number of consecutive II values tried from MII upward; also seed 002.
pub const pipeliner_ii_search_range: IntKnob = IntKnob(KnobId(175));

/// `pipeliner-register-pressure` (cicc, MachinePipeliner (machine-pipeliner)): Consider register pressure when accepting a schedule; also seed 002.
pub const pipeliner_register_pressure: BoolKnob = BoolKnob(KnobId(176));

/// `pipeliner-register-pressure-margin` (cicc, MachinePipeliner (machine-pipeliner)): Margin (percent) of the register pressure limit before the pipeliner backs off; also seed 002.
pub const pipeliner_register_pressure_margin: IntKnob = IntKnob(KnobId(177));

/// `pipeliner-mve-cg` (cicc, MachinePipeliner (machine-pipeliner)): Use the MVE (modulo variable expansion) code generator, the default path; also seed 002.
pub const pipeliner_mve_cg: BoolKnob = BoolKnob(KnobId(178));

/// `pipeliner-enable-copytophi` (cicc, MachinePipeliner (machine-pipeliner)): Enable the CopyToPhi DAG mutation.
pub const pipeliner_enable_copytophi: BoolKnob = BoolKnob(KnobId(179));

/// `pipeliner-force-issue-width` (cicc, MachinePipeliner (machine-pipeliner)): Force the issue width (0 = auto).
pub const pipeliner_force_issue_width: IntKnob = IntKnob(KnobId(180));

/// `outliner-benefit-threshold` (cicc, MachineOutliner (machine-outliner)): Minimum size in bytes of an outlining candidate.
pub const outliner_benefit_threshold: IntKnob = IntKnob(KnobId(181));

/// `unroll-threshold` (cicc, LoopUnroll (computeUnrollCount)): Base cost budget for full unrolling, multiplied by the local-array factor (1-6x); 300 is the NVPTX TTI value (seed default: from TTI).
pub const unroll_threshold: IntKnob = IntKnob(KnobId(182));

/// `unroll-partial-threshold` (cicc, LoopUnroll (computeUnrollCount)): Cost budget for partial unrolling; 75 is the NVPTX TTI value (seed default: from TTI).
pub const unroll_partial_threshold: IntKnob = IntKnob(KnobId(183));

/// `unroll-max-percent-threshold-boost` (cicc, LoopUnroll (computeUnrollCount)): Maximum dynamic cost boost in percent: dynamic budget = Threshold * boost / 100.
pub const unroll_max_percent_threshold_boost: IntKnob = IntKnob(KnobId(184));

/// `unroll-max-iteration-count-to-analyze` (cicc, LoopUnroll (computeUnrollCount)): Maximum iterations simulated by the full-unroll cost simulation.
pub const unroll_max_iteration_count_to_analyze: IntKnob = IntKnob(KnobId(185));

/// `unroll-count` (cicc, LoopUnroll (computeUnrollCount)): Force a specific unroll factor (seed default: unset).
pub const unroll_count: IntKnob = IntKnob(KnobId(186));

/// `unroll-max-count` (cicc, LoopUnroll (computeUnrollCount)): Hard cap on the unroll factor (seed default: unset).
pub const unroll_max_count: IntKnob = IntKnob(KnobId(187));

/// `unroll-full-max-count` (cicc, LoopUnroll (computeUnrollCount)): Maximum trip count for full unrolling (seed default: unset).
pub const unroll_full_max_count: IntKnob = IntKnob(KnobId(188));

/// `unroll-peel-count` (cicc, LoopUnroll (computeUnrollCount)): Force a specific peel count (seed default: unset).
pub const unroll_peel_count: IntKnob = IntKnob(KnobId(189));

/// `unroll-allow-partial` (cicc, LoopUnroll (computeUnrollCount)): Enable the partial unrolling override.
pub const unroll_allow_partial: BoolKnob = BoolKnob(KnobId(190));

/// `unroll-allow-remainder` (cicc, LoopUnroll (computeUnrollCount)): Enable remainder loop generation.
pub const unroll_allow_remainder: BoolKnob = BoolKnob(KnobId(191));

/// `unroll-runtime` (cicc, LoopUnroll (computeUnrollCount)): Enable runtime (unknown trip count) unrolling.
pub const unroll_runtime: BoolKnob = BoolKnob(KnobId(192));

/// `unroll-max-upperbound` (cicc, LoopUnroll (computeUnrollCount)): Maximum trip count for upper-bound unrolling.
pub const unroll_max_upperbound: IntKnob = IntKnob(KnobId(193));

/// `pragma-unroll-threshold` (cicc, LoopUnroll (computeUnrollCount)): Cost budget for pragma-directed unrolls (0x8000, twice upstream's 16384).
pub const pragma_unroll_threshold: IntKnob = IntKnob(KnobId(194));

/// `flat-loop-tripcount-threshold` (cicc, LoopUnroll (computeUnrollCount)): Minimum estimated trip count for runtime unrolling.
pub const flat_loop_tripcount_threshold: IntKnob = IntKnob(KnobId(195));

/// `runtime-unroll-threshold` (cicc, LoopUnroll (computeUnrollCount)): Maximum loop body size for runtime unrolling (NVIDIA addition).
pub const runtime_unroll_threshold: IntKnob = IntKnob(KnobId(196));

/// `max-pragma-upperbound-unroll` (cicc, LoopUnroll (computeUnrollCount)): Maximum upper-bound unroll factor for pragma-directed unrolls (NVIDIA addition).
pub const max_pragma_upperbound_unroll: IntKnob = IntKnob(KnobId(197));

/// `unroll-assumed-size` (cicc, LoopUnroll (computeUnrollCount)): Array dimension assumed for unknown dimensions by the local-array heuristic (NVIDIA addition).
pub const unroll_assumed_size: IntKnob = IntKnob(KnobId(198));

/// `unroll-runtime-convergent` (cicc, LoopUnroll (computeUnrollCount)): Allow runtime unrolling of loops that contain convergent operations.
pub const unroll_runtime_convergent: BoolKnob = BoolKnob(KnobId(199));

/// `unroll-runtime-epilog` (cicc, LoopUnroll (computeUnrollCount)): Choose an epilog-style remainder (override) when neither waterfall nor calls force one.
pub const unroll_runtime_epilog: BoolKnob = BoolKnob(KnobId(200));

/// `waterfall-unrolling-force-epilogue` (cicc, LoopUnroll (computeUnrollCount)): Force an epilog remainder for runtime-trip-count (waterfall) loops.
pub const waterfall_unrolling_force_epilogue: BoolKnob = BoolKnob(KnobId(201));

/// `nv-disable-loop-unrolling` (cicc, LoopUnroll (late invocation sub_19C1680)): Disable the late (cleanup) LoopUnroll invocation, opts[1360].
pub const nv_disable_loop_unrolling: BoolKnob = BoolKnob(KnobId(202));

/// `disable-LoopUnrollPass` (cicc, LoopUnroll (computeUnrollCount)): Disable the LoopUnroll pass (passed as -Xcicc "-disable-LoopUnrollPass").
pub const disable_LoopUnrollPass: BoolKnob = BoolKnob(KnobId(203));

/// `AdvancedPhaseBackPropVReg` (ptxas, AdvancedPhaseBackPropVReg (82)): Switch on the phase-82 hook and with it backward copy propagation (phase 83), which ptxas enables only where an architecture backend overrides phase 82; a knob stands for that override (seed default: disabled, isNoOp returns 1).
pub const AdvancedPhaseBackPropVReg: BoolKnob = BoolKnob(KnobId(204));

/// `GeneralOptimizeSubPasses` (ptxas, GeneralOptimize (13/29/37/46/58/65)): Which sub-passes the GeneralOptimize bundles run: empty for all, 'OriCopyProp' for forward copy propagation alone; '--named-phases OriCopyProp' sets it (ptxas resolves that name to the sub-pass itself; not a ptxas knob).
pub const GeneralOptimizeSubPasses: StrKnob = StrKnob(KnobId(205));

/// `pipeliner-keep-register-peak` (cicc, MachinePipeliner (machine-pipeliner)): Keep a pipelined loop only if the function's peak register pressure (MRPA, R units) does not rise: ptxas schedules the overlap again but allocates the registers the overlapped iterations hold. ptxopt's own knob (not cicc's); false pipelines every loop the search schedules.
pub const pipeliner_keep_register_peak: BoolKnob = BoolKnob(KnobId(206));

/// `nv-remat-leave-constant-bank` (cicc, NVPTXBlockRemat (nvptx-remat-block)): Leave to ptxas the values it rematerializes itself: a chain that reads no per-thread special register ('%tid', '%ctaid', ...), only parameters, constants, launch dimensions ('%ntid', '%nctaid'), immediates and addresses, is not pulled (in SASS these are constant-bank operands, read again for nothing). ptxopt's own knob (not cicc's); false pulls them as the seed describes.
pub const nv_remat_leave_constant_bank: BoolKnob = BoolKnob(KnobId(207));

/// `inline-threshold` (cicc, Inliner (inline)): LLVM's inliner budget, multiplied by NVPTX's inlining threshold multiplier 11 (2,475 cost units, 5 per instruction): a call to a function of the module is inlined when the callee costs no more. LLVM's own option, not named in the seeds (they describe the machine passes that run after inlining); 225 is LLVM's default.
pub const inline_threshold: IntKnob = IntKnob(KnobId(208));
