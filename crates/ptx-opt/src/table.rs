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
//! The table is written once, in [`with_phase_table!`](crate::with_phase_table),
//! which hands it to a macro of the caller: this crate makes [`PhaseId`] and
//! [`PHASES`] from it, `ptx-db` one salsa tracked query per phase per kernel
//! (named by the entry's `=> query` ident, taking the previous entry's output).
//! [`PhaseInfo::knobs`] lists the knobs whose registry `pass` field names the
//! phase.

use ptx_knobs::{KnobDef, KNOBS};

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
    /// The name of its salsa query in `ptx-db` (as it appears in event logs).
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

/// Up to three phase names (or aliases) closest to `word` (case, `-` and `_`
/// ignored; edit distance; failing that, names containing `word`), for "did
/// you mean" messages: [`ptx_knobs::closest_names`] over the phase table.
pub fn suggest_phases(word: &str) -> Vec<&'static str> {
    let names = PHASES
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()));
    ptx_knobs::closest_names(word, names, true)
}

/// What an implemented phase does (its module), or what a pass-through phase
/// already does, for `--list-phases`.
pub fn status_note(id: PhaseId) -> Option<&'static str> {
    match id {
        PhaseId::OriPerformLiveDeadFirst => {
            Some("dead-code elimination (ptx_opt::phases::live_dead)")
        }
        PhaseId::CiccInline => Some(
            "calls to functions of the module whose cost fits inline-threshold x 11 replaced by the callee's body, arguments and results through registers (ptx_opt::phases::cicc_inline)",
        ),
        PhaseId::CiccMachineCopyProp => Some(
            "backward copy propagation: a copy whose source has one definition and no other reader is folded into that definition (ptx_opt::phases::cicc_machine_cp)",
        ),
        PhaseId::CiccIselCombine => Some(
            "mul.lo + add into mad.lo, cvt.s64.s32 + shl/mul into mul.wide, where the intermediate has no other reader; tests of selp 1, 0 booleans into predicate logic (ptx_opt::phases::cicc_isel_combine)",
        ),
        PhaseId::CiccLoopUnroll => Some(
            "computeUnrollCount decisions, carried out by phase 22's transform after rotation: full, partial, runtime with epilog remainder (ptx_opt::phases::cicc_loop_unroll)",
        ),
        PhaseId::OriLoopUnrolling => Some("full and partial unrolling, seed steps A-P, rejection codes (ptx_opt::phases::loop_unrolling)"),
        PhaseId::OriBranchOpt => Some("branch simplification (ptx_opt::phases::branch_opt)"),
        PhaseId::OriDoPredication => Some("if-conversion of short triangles and diamonds into guarded instructions; two guarded copies into selp (ptx_opt::phases::predication)"),
        PhaseId::OriPerformLiveDeadFourth => {
            Some("dead-code elimination, as phase 16 (ptx_opt::phases::live_dead)")
        }
        PhaseId::CiccMem2Reg => Some("`.local` arrays at constant offsets become registers (ptx_opt::phases::cicc_mem2reg)"),
        PhaseId::CiccNvptxPeephole => Some("generic accesses through cvta get their space; cvta.to of cvta is a copy (ptx_opt::phases::cicc_peephole)"),
        PhaseId::CiccProxyRegErasure => Some("cvta.to.local of a local address is a copy (ptx_opt::phases::cicc_peephole)"),
        PhaseId::CiccLdgTransform => Some("ld.global -> ld.global.nc in kernels that write no global memory (ptx_opt::phases::cicc_ldg)"),
        PhaseId::CiccParamOpt => Some("redundant ld.param removed (ptx_opt::phases::cicc_param_opt)"),
        PhaseId::CiccTruncOpts => Some("and with 0xFFFF of a 16-bit value is a copy (ptx_opt::phases::cicc_trunc_opts)"),
        PhaseId::CiccRedundantMoveElim => Some("self-moves and moves back removed (ptx_opt::phases::cicc_redundant_move)"),
        PhaseId::GvnCse => Some("global value numbering and CSE, modes 1-6 (ptx_opt::phases::gvn_cse)"),
        PhaseId::OriReassociateAndCommon => Some("integer add/mul/and/or/xor chains flattened, sorted, rebuilt left-leaning, then windowed commoning (ptx_opt::phases::reassociate)"),
        PhaseId::OriBackCopyPropagate => Some("backward copy propagation when AdvancedPhaseBackPropVReg (phase 82's gate) is set (ptx_opt::phases::back_copy_prop)"),
        PhaseId::LateOriCommoning => Some("cross-block commoning on sm_80..sm_89 or with ForceLateCommoning (ptx_opt::phases::late_commoning)"),
        PhaseId::CiccBlockRemat => Some(
            "block rematerialization over the register target, with MRPA (ptx_opt::phases::block_remat)",
        ),
        PhaseId::CiccMachineCse => Some(
            "dominator-scoped CSE refused where it would raise MRPA pressure over the target; copies propagated (ptx_opt::phases::machine_cse)",
        ),
        PhaseId::CiccMachineScheduler => Some(
            "list scheduling of block regions: pressure over the limit, then critical path, latency class, window, source order; never raises MRPA pressure (ptx_opt::phases::machine_scheduler)",
        ),
        PhaseId::CiccTextureGroupMerge => Some(
            "texture fetches of the same texture pulled together (Fibonacci-hashed group table) (ptx_opt::phases::texture_group_merge)",
        ),
        PhaseId::OriLoopSimplification => Some(
            "preheaders and loop inversion (ptx_opt::phases::loop_simplification)",
        ),
        PhaseId::OriStrengthReduce => Some(
            "address chains of induction variables become pointer induction variables (ptx_opt::phases::strength_reduce)",
        ),
        PhaseId::OriPipelining => Some(
            "single-block loops: feasibility, MII, modulo schedule and decision, reported (no rewrite) (ptx_opt::phases::pipelining)",
        ),
        PhaseId::CiccMachinePipeliner => Some(
            "swing modulo scheduling of single-block loops (II search, seed diagnostics), prologue/kernel/epilogue (ptx_opt::phases::machine_pipeliner)",
        ),
        PhaseId::OriLoopFusion => Some(
            "fuses adjacent single-block loops with equal trip counts and independent bodies; off unless PerformLoopFusion (ptx_opt::phases::loop_fusion)",
        ),
        PhaseId::CiccEarlyMachineLicm => Some(
            "loop-invariant code motion as LLVM's MachineLICM: no barrier rule (loads blocked instead), refused over the register target (ptx_opt::phases::hoist_invariants)",
        ),
        PhaseId::OriHoistInvariantsEarly
        | PhaseId::OriHoistInvariantsLate
        | PhaseId::OriHoistInvariantsLate2
        | PhaseId::OriHoistInvariantsLate3 => {
            Some("loop-invariant code motion (ptx_opt::phases::hoist_invariants)")
        }
        id if is_general_optimize(id) => {
            Some("OriCopyProp (forward copy propagation), then constant folding and algebraic simplification (ptx_opt::phases::general_optimize)")
        }
        _ => None,
    }
}

/// Whether a phase transforms anything (see [`crate::run_phase`]).
const fn implemented(id: PhaseId) -> bool {
    matches!(
        id,
        PhaseId::OriPerformLiveDeadFirst
            | PhaseId::OriPerformLiveDeadFourth
            | PhaseId::OriBranchOpt
            | PhaseId::OriDoPredication
            | PhaseId::GvnCse
            | PhaseId::LateOriCommoning
            | PhaseId::OriReassociateAndCommon
            | PhaseId::OriBackCopyPropagate
            | PhaseId::CiccMem2Reg
            | PhaseId::CiccNvptxPeephole
            | PhaseId::CiccProxyRegErasure
            | PhaseId::CiccLdgTransform
            | PhaseId::CiccParamOpt
            | PhaseId::CiccTruncOpts
            | PhaseId::CiccRedundantMoveElim
            | PhaseId::CiccBlockRemat
            | PhaseId::CiccMachineCse
            | PhaseId::CiccMachineScheduler
            | PhaseId::CiccTextureGroupMerge
            | PhaseId::OriLoopUnrolling
            | PhaseId::CiccLoopUnroll
            | PhaseId::CiccInline
            | PhaseId::CiccIselCombine
            | PhaseId::CiccMachineCopyProp
            | PhaseId::OriLoopSimplification
            | PhaseId::OriStrengthReduce
            | PhaseId::OriPipelining
            | PhaseId::OriLoopFusion
            | PhaseId::CiccMachinePipeliner
            | PhaseId::OriHoistInvariantsEarly
            | PhaseId::OriHoistInvariantsLate
            | PhaseId::OriHoistInvariantsLate2
            | PhaseId::OriHoistInvariantsLate3
            | PhaseId::CiccEarlyMachineLicm
    ) || is_general_optimize(id)
}

/// The six GeneralOptimize bundles (13, 29, 37, 46, 58, 65), which run the
/// GeneralOptimize bundle: OriCopyProp (alias `OriCopyProp` in the table,
/// so `--named-phases OriCopyProp` selects the six bundles, constant folding
/// included), then constant folding.
pub const fn is_general_optimize(id: PhaseId) -> bool {
    matches!(
        id,
        PhaseId::GeneralOptimizeEarly
            | PhaseId::GeneralOptimize
            | PhaseId::Phase37
            | PhaseId::GeneralOptimizeMid2
            | PhaseId::GeneralOptimizeLate
            | PhaseId::GeneralOptimizeLate2
    )
}

/// Defines [`PhaseId`] and [`PHASES`] from the table.
macro_rules! define_table {
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
                named_in_seeds: define_table!(@named $($unnamed)?),
                aliases: &[$($($alias),*)?],
                summary: $summary,
                seeds: &[$($seed),*],
                implemented: implemented(PhaseId::$variant),
                query: stringify!($query),
            }
        ),*];
    };
    (@named) => { true };
    (@named $unnamed:literal) => { !$unnamed };
}

crate::with_phase_table!(define_table);
