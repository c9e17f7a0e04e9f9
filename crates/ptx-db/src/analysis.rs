//! The analyses as memoized queries: one salsa tracked query per analysis per
//! kernel, each calling the pure `ptx-analysis` function on the kernel's IR
//! and on the results of the queries it builds on.
//!
//! ```text
//! kernel_ir ─┬─► cfg ─┬─► dominators ─┬─► loops ─┬─► trip_counts
//!            │        │               │          └─────────────────► loop_mii
//!            │        ├─► post_dominators                              ▲
//!            │        ├─► reaching_defs ──► trip_counts                │
//!            │        ├─► liveness ──► reg_pressure                    │
//!            │        └─► value_numbers                                │
//!            └────────────────────────────► latency ───────────────────┤
//! Target input + .target ─► target_profile ─► latency, loop_mii ───────┘
//! ```
//!
//! **Which IR.** Every query reads [`kernel_ir`]: the function as written,
//! lowered, with source positions dropped. Three reasons:
//!
//! - Its instruction and block ids are those of [`kernel_lowered`](crate::kernel_lowered),
//!   which keeps each instruction's range (relative to the function), so a
//!   result (the instruction where pressure peaks, a loop header) maps back to
//!   a source line. These analyses describe the code the user wrote (`ptxopt
//!   analyze`, editor hovers), not the code some phase produced.
//! - `kernel_ir` is the trivia firewall: a comment or whitespace edit re-runs
//!   it, it returns an equal value and is backdated, so no analysis re-runs.
//! - The IR after phase 3 AnalyzeControlFlow is today the same `Arc` (the
//!   cicc passes before it pass their input through), but once a cicc pass
//!   transforms code its ids no longer match the source. A phase that needs an
//!   analysis of its own input calls the `ptx-analysis` function on that
//!   input.
//!
//! The register estimate ([`reg_estimate`], [`reg_estimate_alone`]) reads
//! `kernel_ir` too, not the pipeline's output: on the bench-quality kernels
//! the estimate of the source predicts ptxas on ptxopt's output as well as
//! the estimate of that output does (exact 33% against 30%, within ±10%
//! 49% against 49%, over 90 kernels, `cargo xtask pressure`'s data), and
//! it needs no pipeline run (`ptxopt analyze` and the editor's hover and
//! code lens stay cheap). Its [`KernelEstimate::func`] maps each
//! instruction to itself through `Function::origin`, so readers that map
//! the peak back to the source work unchanged. [`reg_estimate_source`] is
//! the same model with calls to the file's functions counted at their
//! minimum, for inlay hints. All three count each loop as ptxas's phase 22
//! is expected to unroll it ([`ptxas_unrolls`]: phase 22 run on
//! `kernel_ir`), which raised the estimate's share within ±10% of `ptxas
//! -v` from 51.3% to 52.6% of 565 functions over the guess it replaced
//! (innermost counted loops by 4).
//!
//! **What invalidates what.** An edit in a function's body changes that
//! kernel's `kernel_ir` only, so only that kernel's analyses re-run (and each
//! stops where its result is unchanged: an edit that changes an immediate
//! re-runs `cfg`, which is backdated, so `dominators` and `loops` do not re-run).
//! Only [`latency`] and [`loop_mii`] read the target, through
//! [`target_profile`]; changing `--arch` re-runs those two (HIGH durability:
//! a change to a LOW input, such as a file's text, does not make salsa
//! re-validate them when only the target is read).
//!
//! Results are returned as `Arc`s (cheap to hand out, and `returns(ref)` gives
//! a reference into the memo).

use std::sync::Arc;

use ptx_analysis::cfg::Cfg;
use ptx_analysis::dominators::DomTree;
use ptx_analysis::latency::{LatencyInfo, LoopMii};
use ptx_analysis::liveness::Liveness;
use ptx_analysis::loops::LoopForest;
use ptx_analysis::reaching_defs::ReachingDefs;
use ptx_analysis::reg_estimate::RegEstimate;
use ptx_analysis::reg_pressure::RegPressure;
use ptx_analysis::trip_count::TripCounts;
use ptx_analysis::value_numbering::ValueNumbering;
use ptx_analysis::Target as TargetProfile;

use crate::inputs::SourceFile;
use crate::queries::{kernel_ir, kernels, Kernel};
use crate::Db;

/// The target profile the analyses of a file's kernels use: that of
/// [`effective_target`](crate::effective_target) (the
/// [`Target`](crate::Target) input when set, `--arch`, else the file's
/// `.target`), else sm_75 (see [`TargetProfile::for_sm`]; `sm_90a` uses the
/// sm_90 profile).
#[salsa::tracked(returns(ref))]
pub fn target_profile(db: &dyn Db, file: SourceFile) -> TargetProfile {
    TargetProfile::for_sm(crate::effective_target(db, file).0)
}

/// Successors, predecessors, RPO and unreachable blocks.
#[salsa::tracked(returns(ref))]
pub fn cfg<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<Cfg> {
    Arc::new(ptx_analysis::cfg::cfg(kernel_ir(db, kernel)))
}

/// The dominator tree.
#[salsa::tracked(returns(ref))]
pub fn dominators<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<DomTree> {
    Arc::new(ptx_analysis::dominators::dominators(cfg(db, kernel)))
}

/// The post-dominator tree.
#[salsa::tracked(returns(ref))]
pub fn post_dominators<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<DomTree> {
    Arc::new(ptx_analysis::dominators::post_dominators(cfg(db, kernel)))
}

/// Natural loops (header, latches, depth, preheader, exits) and irreducible
/// regions.
#[salsa::tracked(returns(ref))]
pub fn loops<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<LoopForest> {
    Arc::new(ptx_analysis::loops::loops(
        cfg(db, kernel),
        dominators(db, kernel),
    ))
}

/// Reaching definitions and def-use chains.
#[salsa::tracked(returns(ref))]
pub fn reaching_defs<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<ReachingDefs> {
    Arc::new(ptx_analysis::reaching_defs::reaching_defs(
        kernel_ir(db, kernel),
        cfg(db, kernel),
    ))
}

/// The induction variable and trip count of each loop (in [`loops`] order).
#[salsa::tracked(returns(ref))]
pub fn trip_counts<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<TripCounts> {
    Arc::new(ptx_analysis::trip_count::trip_counts(
        kernel_ir(db, kernel),
        cfg(db, kernel),
        dominators(db, kernel),
        loops(db, kernel),
        reaching_defs(db, kernel),
    ))
}

/// Live registers per block and around each instruction.
#[salsa::tracked(returns(ref))]
pub fn liveness<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<Liveness> {
    Arc::new(ptx_analysis::liveness::liveness(
        kernel_ir(db, kernel),
        cfg(db, kernel),
    ))
}

/// Live R/P registers in ptxas units, their maxima and where.
#[salsa::tracked(returns(ref))]
pub fn reg_pressure<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<RegPressure> {
    Arc::new(ptx_analysis::reg_pressure::reg_pressure(
        kernel_ir(db, kernel),
        cfg(db, kernel),
        liveness(db, kernel),
    ))
}

/// Latency class, pipe and stall cycles of each instruction on the kernel's
/// [`target_profile`], and the class histogram.
#[salsa::tracked(returns(ref))]
pub fn latency<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<LatencyInfo> {
    Arc::new(ptx_analysis::latency::latency(
        kernel_ir(db, kernel),
        target_profile(db, kernel.file(db)),
    ))
}

/// ResMII, RecMII and MII of every single-block loop.
#[salsa::tracked(returns(ref))]
pub fn loop_mii<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<[LoopMii]> {
    ptx_analysis::latency::loop_mii(
        kernel_ir(db, kernel),
        loops(db, kernel),
        latency(db, kernel),
        target_profile(db, kernel.file(db)),
    )
    .into()
}

/// Hash-consed value numbers of instruction results.
#[salsa::tracked(returns(ref))]
pub fn value_numbers<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<ValueNumbering> {
    Arc::new(ptx_analysis::value_numbering::value_numbering(
        kernel_ir(db, kernel),
        cfg(db, kernel),
    ))
}

/// `--maxrregcount` (`None` when not set): a tracked read of the
/// [`Target`](crate::Target) input's `max_regs` field alone.
pub fn max_regs(db: &dyn Db) -> Option<u32> {
    Some(db.target().max_regs(db)).filter(|&n| n > 0)
}

/// The register estimate of a kernel ([`ptx_analysis::reg_estimate`]: what
/// `ptxas -v` is expected to report, and the occupancy), with the function
/// it was made on (`kernel_ir`, each instruction its own origin).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelEstimate {
    pub func: Arc<ptx_ir::ir::Function>,
    pub estimate: RegEstimate,
}

/// [`KernelEstimate`] of `kernel` on its [`target_profile`] under
/// [`max_regs`]. A call to a function of the same file uses that function's
/// [`reg_estimate_alone`] (one level, so recursion needs no care); a call to
/// a function only declared is a call through the ABI. Re-runs when the
/// kernel's IR, the target or `--maxrregcount` changes (or a callee's
/// estimate).
#[salsa::tracked(returns(ref))]
pub fn reg_estimate<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<KernelEstimate> {
    let mut own = (**kernel_ir(db, kernel)).clone();
    let ids: Vec<_> = own.insts_in_order().map(|(i, _)| i).collect();
    for i in ids {
        own.set_origin(i, Some(i));
    }
    let func = Arc::new(own);
    let file = kernel.file(db);
    let callees = |name: &str| {
        kernels(db, file)
            .iter()
            .find(|k| k.name(db) == name)
            .map(|&k| *reg_estimate_alone(db, k))
    };
    // The analyses of `kernel_ir` hold for `func` (only the origins differ).
    let estimate = estimate_with_memos(db, kernel, &func, Some(&callees));
    Arc::new(KernelEstimate { func, estimate })
}

/// The estimate of `func` (`kernel_ir` of `kernel`, or a copy with the
/// same instructions) with the database's memos of `kernel`: its loops,
/// trip counts, CFG, liveness and phase 22's unroll decisions.
fn estimate_with_memos(
    db: &dyn Db,
    kernel: Kernel<'_>,
    func: &ptx_ir::ir::Function,
    callees: Option<&ptx_analysis::reg_estimate::Callees<'_>>,
) -> ptx_analysis::reg_estimate::RegEstimate {
    let known = ptx_analysis::reg_estimate::Known {
        loops: loops(db, kernel),
        trips: trip_counts(db, kernel),
        cfg_live: Some((cfg(db, kernel), liveness(db, kernel))),
    };
    ptx_analysis::reg_estimate::estimate_function_known(
        func,
        known,
        target_profile(db, kernel.file(db)),
        max_regs(db),
        callees,
        Some(ptxas_unrolls(db, kernel)),
    )
}

/// How ptxas's phase 22 will unroll each loop of `kernel` as written
/// ([`ptx_opt::ptxas_view::unroll_factors`]: phase 22 alone on
/// `kernel_ir`, under the database's knobs and target, the loops from
/// [`loops`]): `(header block, factor)`, 1 rolled, `u32::MAX` full. Read by
/// the register estimate; re-runs when the kernel or a knob phase 22 read
/// changes.
#[salsa::tracked(returns(ref))]
pub fn ptxas_unrolls<'db>(
    db: &'db dyn Db,
    kernel: Kernel<'db>,
) -> Arc<[(ptx_ir::ir::BlockId, u32)]> {
    let ctx = crate::phases::DbContext {
        db,
        file: kernel.file(db),
    };
    ptx_opt::ptxas_view::unroll_factors(
        &ctx,
        kernel_ir(db, kernel),
        loops(db, kernel),
        Some(trip_counts(db, kernel)),
    )
    .into()
}

/// The estimated registers of `kernel`, its calls not looked at (what a
/// caller's [`reg_estimate`] reads of its callee).
#[salsa::tracked]
pub fn reg_estimate_alone<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> u32 {
    estimate_with_memos(db, kernel, kernel_ir(db, kernel), None).registers
}

/// The estimated registers of `kernel` as written (`kernel_ir`, no
/// pipeline): cheap enough for inlay hints, which follow every edit (the
/// loops and trip counts are the memoized ones the hints read too). Calls
/// to functions of the file count what is live across them only; calls to
/// declared functions are calls through the ABI.
#[salsa::tracked]
pub fn reg_estimate_source<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> u32 {
    let file = kernel.file(db);
    let callees = |name: &str| {
        kernels(db, file)
            .iter()
            .any(|k| k.name(db) == name)
            .then_some(ptx_analysis::reg_estimate::MIN_REGISTERS)
    };
    estimate_with_memos(db, kernel, kernel_ir(db, kernel), Some(&callees)).registers
}

/// Computes every analysis of one kernel (for benchmarks and warm-up).
pub fn analyze_kernel(db: &dyn Db, kernel: Kernel<'_>) {
    cfg(db, kernel);
    dominators(db, kernel);
    post_dominators(db, kernel);
    loops(db, kernel);
    reaching_defs(db, kernel);
    trip_counts(db, kernel);
    liveness(db, kernel);
    reg_pressure(db, kernel);
    latency(db, kernel);
    loop_mii(db, kernel);
    value_numbers(db, kernel);
}

/// Computes every analysis of every kernel of a file.
pub fn analyze_file(db: &dyn Db, file: SourceFile) {
    for &kernel in kernels(db, file) {
        analyze_kernel(db, kernel);
    }
}
