//! Per-function facts for the IDE: [`kernel_analysis`] gathers the memoized
//! analysis queries of `ptx_db::analysis` (CFG, loops, liveness, register
//! pressure, trip counts, latency, loop MII) for one kernel, and
//! [`file_kernels`] pairs each kernel of a file with its syntax node.
//!
//! The analyses read `ptx_db::kernel_ir`, which has no source positions (that
//! is its trivia firewall), so they are backdated after a comment or
//! whitespace edit, and each one re-runs only when what it reads changed (an
//! edit of an immediate re-runs `cfg`, which is backdated, so dominators and
//! loops do not re-run). The instruction ranges come from
//! `ptx_db::kernel_lowered`, whose instruction ids are the same; they are
//! looked up only for the kernels a request touches ([`FileKernel::source`]),
//! so an inlay-hint request for one function lowers that function only.

use std::path::Path;
use std::sync::Arc;

use ptx_analysis::{
    Cfg, LatencyInfo, Liveness, LoopForest, LoopMii, RegPressure, Target, TripCounts,
};
use ptx_db::analysis as queries;
use ptx_db::{Kernel, RootDatabase};
use ptx_ir::ir::{Function, InstId};
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxKind, TextRange, TextSize};

/// Everything the IDE shows about one function: shared handles on the
/// memoized results of `ptx_db::analysis` (cheap to gather).
#[derive(Clone, Debug)]
pub struct KernelAnalysis {
    pub func: Arc<Function>,
    /// The target the numbers are for (the database's target, else the file's
    /// `.target`, else sm_75).
    pub target: Target,
    pub cfg: Arc<Cfg>,
    pub loops: Arc<LoopForest>,
    pub liveness: Arc<Liveness>,
    pub pressure: Arc<RegPressure>,
    pub trips: Arc<TripCounts>,
    pub latency: Arc<LatencyInfo>,
    pub mii: Arc<[LoopMii]>,
}

/// The analyses of one kernel (each a memoized `ptx_db::analysis` query).
pub fn kernel_analysis(db: &RootDatabase, kernel: Kernel<'_>) -> KernelAnalysis {
    KernelAnalysis {
        func: ptx_db::kernel_ir(db, kernel).clone(),
        target: queries::target_profile(db, kernel.file(db)).clone(),
        cfg: queries::cfg(db, kernel).clone(),
        loops: queries::loops(db, kernel).clone(),
        liveness: queries::liveness(db, kernel).clone(),
        pressure: queries::reg_pressure(db, kernel).clone(),
        trips: queries::trip_counts(db, kernel).clone(),
        latency: queries::latency(db, kernel).clone(),
        mii: queries::loop_mii(db, kernel).clone(),
    }
}

/// One function definition of a file.
pub struct FileKernel<'db> {
    pub kernel: Kernel<'db>,
    /// The `FUNCTION` node in the file's tree.
    pub syntax: ast::Function,
}

/// A kernel lowered with its instructions' source ranges (relative to the
/// function), and where the function starts in its file.
pub struct KernelSource {
    base: TextSize,
    ranges: Arc<[TextRange]>,
}

impl KernelSource {
    /// The absolute source range of an instruction; `None` for one that
    /// lowering made up (it has no text).
    pub fn inst_range(&self, inst: InstId) -> Option<TextRange> {
        let range = *self.ranges.get(inst.into_raw().into_u32() as usize)?;
        (range != TextRange::default()).then(|| range + self.base)
    }

    /// The instruction whose source range starts at `start`.
    pub fn inst_at(&self, start: TextSize) -> Option<InstId> {
        let relative = start.checked_sub(self.base)?;
        let index = self
            .ranges
            .iter()
            .position(|r| r.start() == relative && *r != TextRange::default())?;
        Some(InstId::from_raw(la_arena::RawIdx::from_u32(index as u32)))
    }
}

impl FileKernel<'_> {
    pub fn range(&self) -> TextRange {
        self.syntax.syntax().text_range()
    }

    /// The function lowered, with its instruction ranges (lowers it now if no
    /// request did since the last edit of its body).
    pub fn source(&self, db: &RootDatabase) -> KernelSource {
        KernelSource {
            base: self.range().start(),
            ranges: ptx_db::kernel_lowered(db, self.kernel).ranges.clone(),
        }
    }
}

/// The function definitions of the file at `path`, in source order (nothing
/// is lowered or analyzed here).
pub fn file_kernels<'db>(db: &'db RootDatabase, path: &Path) -> Vec<FileKernel<'db>> {
    let Some(file) = db.file(path) else {
        return Vec::new();
    };
    let root = ptx_db::parse(db, file).syntax_node();
    let funcs = root
        .children()
        .filter(|n| n.kind() == SyntaxKind::FUNCTION)
        .filter_map(ast::Function::cast)
        .filter(|f| f.body().is_some());
    ptx_db::kernels(db, file)
        .iter()
        .zip(funcs)
        .map(|(&kernel, syntax)| FileKernel { kernel, syntax })
        .collect()
}

/// The root of a file's tree, if the file was set.
pub(crate) fn root(db: &RootDatabase, path: &Path) -> Option<ptx_syntax::SyntaxNode> {
    let file = db.file(path)?;
    Some(ptx_db::parse(db, file).syntax_node())
}

/// What the IDE says about a loop whose header is a given block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopFacts {
    pub depth: u32,
    /// `Some(n)` for a known trip count.
    pub trip_count: Option<u64>,
    /// Why the trip count is unknown, or the induction variable when known.
    pub trip_detail: String,
    /// `(ResMII, RecMII)` of a single-block loop.
    pub mii: Option<(u32, u32)>,
}

impl KernelAnalysis {
    /// The block labelled `label`.
    pub fn block_with_label(&self, label: &str) -> Option<ptx_ir::ir::BlockId> {
        self.func
            .layout
            .iter()
            .copied()
            .find(|&b| self.func.blocks[b].label.as_deref() == Some(label))
    }

    /// Facts of the loop headed by `block`, if it is a loop header.
    pub fn loop_facts(&self, block: ptx_ir::ir::BlockId) -> Option<LoopFacts> {
        let id = self.loops.loop_with_header(block)?;
        let l = self.loops.get(id);
        let trip = self.trips.loops.get(id.0 as usize);
        let (trip_count, trip_detail) = match trip {
            Some(t) => match &t.count {
                ptx_analysis::TripCount::Known(n) => (
                    Some(*n),
                    t.iv.as_ref()
                        .map(|iv| ptx_analysis::trip_count::describe_iv(&self.func, iv))
                        .unwrap_or_default(),
                ),
                ptx_analysis::TripCount::Unknown(why) => (None, why.clone()),
            },
            None => (None, String::new()),
        };
        let mii = self
            .mii
            .iter()
            .find(|m| m.loop_id == id)
            .map(|m| (m.res_mii, m.rec_mii));
        Some(LoopFacts {
            depth: l.depth,
            trip_count,
            trip_detail,
            mii,
        })
    }

    /// The register named `name` and (defs, uses, instructions where live).
    pub fn reg_facts(&self, name: &str) -> Option<(ptx_ir::ir::RegId, RegFacts)> {
        let (id, _) = self.func.regs.iter().find(|(_, r)| &*r.name == name)?;
        let index = id.into_raw().into_u32() as usize;
        let mut facts = RegFacts::default();
        for (inst_id, inst) in self.func.insts_in_order() {
            let du = ptx_ir::ir::defs_and_uses(inst);
            facts.defs += du.defs.iter().filter(|&&r| r == id).count() as u32;
            facts.uses += du.uses.iter().filter(|&&r| r == id).count() as u32;
            if self.liveness.live_before(inst_id).contains(index)
                || self.liveness.live_after(inst_id).contains(index)
            {
                facts.live_insts += 1;
            }
        }
        Some((id, facts))
    }
}

/// Def/use counts and live-range length of a register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegFacts {
    pub defs: u32,
    pub uses: u32,
    /// Number of instructions before or after which the register is live.
    pub live_insts: u32,
}

/// The kernel whose function contains `offset`.
pub(crate) fn kernel_at<'db>(
    db: &'db RootDatabase,
    path: &Path,
    offset: ptx_syntax::TextSize,
) -> Option<FileKernel<'db>> {
    file_kernels(db, path)
        .into_iter()
        .find(|k| k.range().contains_inclusive(offset))
}

/// The register estimate of a kernel
/// ([`ptx_db::analysis::reg_estimate`]), with the peak mapped to the source:
/// plain data for hovers and lenses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EstimateFacts {
    /// What `ptxas -v` is expected to report.
    pub registers: u32,
    /// The range ptxas's count is likely to fall in (about 8 times in 10:
    /// `ptx_analysis::reg_estimate::likely_range`).
    pub likely: (u32, u32),
    /// The rule that set it (`pressure`, `loop`, `float-div`, ...).
    pub rule: &'static str,
    pub max_regs: Option<u32>,
    pub warps_per_sm: u32,
    pub max_warps_per_sm: u32,
    /// Warps per SM lost to registers.
    pub lost_warps: u32,
    /// 32-bit units live at the peak.
    pub peak_units: u32,
    /// The source instruction (id of `kernel_ir`) of the peak.
    pub peak_inst: Option<InstId>,
    /// The registers live there: name, units, defining and last reading
    /// source instruction.
    pub peak_regs: Vec<PeakRegFacts>,
}

/// One register live at the peak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeakRegFacts {
    pub name: String,
    pub units: u32,
    pub def: Option<InstId>,
    pub last_use: Option<InstId>,
}

/// [`EstimateFacts`] of `kernel`.
pub fn kernel_estimate(db: &RootDatabase, kernel: Kernel<'_>) -> EstimateFacts {
    let ke = queries::reg_estimate(db, kernel);
    let e = &ke.estimate;
    let origin = |i: InstId| ke.func.origin(i);
    let target_max = queries::target_profile(db, kernel.file(db)).max_regs_per_thread;
    EstimateFacts {
        registers: e.registers,
        likely: e.likely_range(target_max),
        rule: e.rule,
        max_regs: e.max_regs,
        warps_per_sm: e.occupancy.warps_per_sm,
        max_warps_per_sm: e.occupancy.max_warps_per_sm,
        lost_warps: e.occupancy.lost(),
        peak_units: e.peak,
        peak_inst: e.peak_inst.and_then(origin),
        peak_regs: e
            .peak_regs
            .iter()
            .zip(ptx_analysis::reg_estimate::defs_and_last_uses(
                &ke.func,
                &e.peak_regs,
            ))
            .map(|(&r, (def, last))| PeakRegFacts {
                name: ke.func.regs[r].name.to_string(),
                units: ptx_analysis::reg_pressure::reg_units(&ke.func.regs[r]),
                def: def.and_then(origin),
                last_use: last.and_then(origin),
            })
            .collect(),
    }
}

impl EstimateFacts {
    /// `≈ 38 registers after ptxas (likely 31-46), 6 warps/SM lost to
    /// registers` (the code lens and hover wording).
    pub fn summary(&self) -> String {
        let mut notes = Vec::new();
        if let Some(text) = self.likely_text() {
            notes.push(text);
        }
        if let Some(n) = self.max_regs {
            notes.push(format!("--maxrregcount {n}"));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        };
        format!(
            "≈ {} registers after ptxas{notes}, {} warps/SM lost to registers",
            self.registers, self.lost_warps
        )
    }

    /// `likely 31-46`, or `None` when the range is the estimate alone.
    pub fn likely_text(&self) -> Option<String> {
        ptx_analysis::reg_estimate::likely_text(self.registers, self.likely)
    }
}
