//! Per-function facts for the IDE: one salsa query, [`kernel_analysis`], that
//! runs the pure `ptx-analysis` functions (CFG, dominators, loops, reaching
//! definitions, liveness, register pressure, trip counts, latency, loop MII)
//! on `ptx_db::kernel_ir`, and [`file_kernels`], which pairs each kernel with
//! its syntax node and the source range of each of its instructions.
//!
//! `kernel_ir` has no source positions (that is its trivia firewall), so the
//! analysis is backdated after a comment or whitespace edit; the instruction
//! ranges come from `kernel_lowered`, whose instruction ids are the same.
//!
//! Interim: `ptx-db` is getting its own analysis queries; when they land this
//! query should read them instead of calling `ptx-analysis` itself.

use std::path::Path;
use std::sync::Arc;

use ptx_analysis::{
    cfg, dominators, latency, liveness, loop_mii, loops, reaching_defs, reg_pressure, trip_counts,
    Cfg, LatencyInfo, Liveness, LoopForest, LoopMii, RegPressure, Target, TripCounts,
};
use ptx_db::{Db, Kernel, RootDatabase};
use ptx_ir::ir::{Function, InstId};
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxKind, TextRange};

/// Everything the IDE shows about one function.
#[derive(Debug, PartialEq, Eq)]
pub struct KernelAnalysis {
    pub func: Arc<Function>,
    /// The target the numbers are for (the database's target, else the file's
    /// `.target`, else sm_75).
    pub target: Target,
    pub cfg: Cfg,
    pub loops: LoopForest,
    pub liveness: Liveness,
    pub pressure: RegPressure,
    pub trips: TripCounts,
    pub latency: LatencyInfo,
    pub mii: Vec<LoopMii>,
}

/// The analyses of one kernel (memoized; see the module documentation).
#[salsa::tracked(returns(ref))]
pub fn kernel_analysis<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> Arc<KernelAnalysis> {
    let func = ptx_db::kernel_ir(db, kernel).clone();
    let (sm, _) = ptx_db::effective_target(db, kernel);
    let target = Target::for_sm(sm);
    let g = cfg(&func);
    let dom = dominators(&g);
    let lf = loops(&g, &dom);
    let rd = reaching_defs(&func, &g);
    let lv = liveness(&func, &g);
    let rp = reg_pressure(&func, &g, &lv);
    let tc = trip_counts(&func, &g, &dom, &lf, &rd);
    let lat = latency(&func, &target);
    let mii = loop_mii(&func, &lf, &lat, &target);
    Arc::new(KernelAnalysis {
        func,
        target,
        cfg: g,
        loops: lf,
        liveness: lv,
        pressure: rp,
        trips: tc,
        latency: lat,
        mii,
    })
}

/// One function definition of a file, with absolute positions.
pub struct FileKernel<'db> {
    pub kernel: Kernel<'db>,
    /// The `FUNCTION` node in the file's tree.
    pub syntax: ast::Function,
    /// Absolute range of every instruction that lowering kept.
    pub inst_ranges: Vec<(InstId, TextRange)>,
}

impl FileKernel<'_> {
    pub fn range(&self) -> TextRange {
        self.syntax.syntax().text_range()
    }

    /// The instruction whose source range starts at `start`.
    pub fn inst_at(&self, start: ptx_syntax::TextSize) -> Option<InstId> {
        self.inst_ranges
            .iter()
            .find(|(_, r)| r.start() == start)
            .map(|(i, _)| *i)
    }

    /// The source range of an instruction.
    pub fn inst_range(&self, inst: InstId) -> Option<TextRange> {
        self.inst_ranges
            .iter()
            .find(|(i, _)| *i == inst)
            .map(|(_, r)| *r)
    }
}

/// The function definitions of the file at `path`, in source order.
pub fn file_kernels<'db>(db: &'db RootDatabase, path: &Path) -> Vec<FileKernel<'db>> {
    let Some(file) = db.file(path) else {
        return Vec::new();
    };
    let root = ptx_db::parse(db, file).syntax_node();
    let funcs: Vec<ast::Function> = root
        .children()
        .filter(|n| n.kind() == SyntaxKind::FUNCTION)
        .filter_map(ast::Function::cast)
        .filter(|f| f.body().is_some())
        .collect();
    let kernels = ptx_db::kernels(db, file);
    kernels
        .iter()
        .zip(funcs)
        .map(|(&kernel, syntax)| {
            let base = syntax.syntax().text_range().start();
            let (func, _) = ptx_db::kernel_lowered(db, kernel);
            let inst_ranges = func
                .insts
                .iter()
                .map(|(id, inst)| (id, inst.range + base))
                .collect();
            FileKernel {
                kernel,
                syntax,
                inst_ranges,
            }
        })
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
        let (id, _) = self.func.regs.iter().find(|(_, r)| r.name == name)?;
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
