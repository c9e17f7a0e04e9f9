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
}

impl PhaseOutput {
    /// The input, unchanged, with nothing to report.
    pub fn unchanged(input: &Arc<Function>) -> PhaseOutput {
        PhaseOutput {
            function: input.clone(),
            remarks: Vec::new(),
            stats: Vec::new(),
        }
    }
}
