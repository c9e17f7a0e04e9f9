//! Remarks and counters: what a phase reports beside its output.
//!
//! Modelled on LLVM's optimization remarks (`-Rpass`, `-Rpass-missed`):
//! an *applied* remark says what changed and where; a *missed* remark says
//! what the phase looked at and why it left it, with the numbers that
//! decided. A remark points at an instruction by its origin (see
//! [`crate::origin`]), which the database maps to a source position.
//! Counters ([`Stat`]) are per phase and kernel (`instructions removed`).

use std::sync::Arc;

use ptx_ir::ir::{Function, InstId};

use crate::PhaseId;

/// Whether a remark reports a change or a change not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RemarkKind {
    /// The phase changed the code (`-Rpass`).
    Applied,
    /// The phase looked at the code and left it (`-Rpass-missed`).
    Missed,
}

impl RemarkKind {
    /// `"applied"` or `"missed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RemarkKind::Applied => "applied",
            RemarkKind::Missed => "missed",
        }
    }
}

/// One remark.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Remark {
    pub phase: PhaseId,
    pub kind: RemarkKind,
    /// A short stable name of what the remark is about (`"dead-code"`,
    /// `"side-effects"`), for filtering.
    pub name: &'static str,
    /// The instruction of the lowered function it is about; `None` when it
    /// is about the whole function.
    pub origin: Option<InstId>,
    /// One line, e.g. ``removed dead `mov.u32` (defines %r5; no use)``.
    pub message: String,
}

/// One counter of a phase (`"instructions removed"` = 3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stat {
    pub name: &'static str,
    pub value: u64,
}

/// What a phase returns.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhaseOutput {
    /// The new function (the input `Arc` itself when nothing changed).
    pub function: Arc<Function>,
    pub remarks: Vec<Remark>,
    pub stats: Vec<Stat>,
    /// What a loop phase decided about each loop it looked at (empty for
    /// other phases): read by `ptxopt explain`, the `unroll` field of
    /// `analyze` JSON and the editor's code lens over loop headers.
    pub loops: Vec<LoopReport>,
}

/// One loop phase's decision about one loop, with the numbers that decided
/// it. A loop is named by the origin of its header's first instruction (an
/// instruction of the lowered function, see [`crate::origin`]), so the
/// reports of phases that run on different versions of the code meet at the
/// same source line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LoopReport {
    pub phase: PhaseId,
    /// Origin of the first instruction of the loop header (`None` when the
    /// header has no instruction with an origin, e.g. created by a phase).
    pub header: Option<InstId>,
    /// Origin of the last instruction with one in the same block (its exit
    /// test or back edge). With [`LoopReport::header`] it names the loop
    /// when the header's first instructions came from elsewhere: an inner
    /// loop fully unrolled into it, its own first instructions hoisted
    /// (`crate::ptxas_view::loops_of_reports`).
    pub header_end: Option<InstId>,
    /// One line for a code lens: `"unrolled x4: unknown trip count,
    /// UnrollUnknownCount=4"`, `"not unrolled: code 14, unsupported
    /// induction variable"`, `"hoisted 3 instructions"`.
    pub summary: String,
    /// Set by the unrolling phases (ptxas 22, cicc loop-unroll).
    pub unroll: Option<UnrollDecision>,
    /// The numbers and facts that decided, in the order the phase looked at
    /// them: `("trip count", "12")`, `("body size", "34")`,
    /// `("budget left", "108")`.
    pub facts: Vec<(&'static str, String)>,
}

/// An unrolling decision (`analyze` JSON: `"unroll": {"factor", "full",
/// "code", "reason", "by"}`; `by` is the phase's tool).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnrollDecision {
    /// 1 when the loop was left rolled.
    pub factor: u32,
    /// Fully unrolled (no loop left).
    pub full: bool,
    /// The seed's rejection code when not unrolled (ptxas phase 22: 7, 11,
    /// ..., 24), `None` otherwise or when the tool has no codes.
    pub code: Option<u32>,
    /// The seed's reason, one line.
    pub reason: String,
}

impl PhaseOutput {
    /// The input, unchanged, with nothing to report.
    pub fn unchanged(input: &Arc<Function>) -> PhaseOutput {
        PhaseOutput {
            function: input.clone(),
            remarks: Vec::new(),
            stats: Vec::new(),
            loops: Vec::new(),
        }
    }
}

/// The remarks of one run of a phase that works in rounds
/// ([`crate::phases::branch_opt`], [`crate::phases::predication`]): a
/// refusal is looked at again in every round, so [`RoundRemarks::finish`]
/// keeps each missed remark once per (origin, name), sorted by origin.
pub(crate) struct RoundRemarks {
    phase: PhaseId,
    list: Vec<Remark>,
}

impl RoundRemarks {
    pub(crate) fn new(phase: PhaseId) -> RoundRemarks {
        RoundRemarks {
            phase,
            list: Vec::new(),
        }
    }

    pub(crate) fn push(
        &mut self,
        kind: RemarkKind,
        name: &'static str,
        origin: Option<InstId>,
        message: String,
    ) {
        self.list.push(Remark {
            phase: self.phase,
            kind,
            name,
            origin,
            message,
        });
    }

    /// The remarks, each missed one once, sorted by origin.
    pub(crate) fn finish(mut self) -> Vec<Remark> {
        let mut seen = rustc_hash::FxHashSet::default();
        self.list
            .retain(|r| r.kind == RemarkKind::Applied || seen.insert((r.origin, r.name)));
        self.list
            .sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
        self.list
    }
}
