//! What the loop phases (18, 21, 24, 35/66/79/88, 59) share: the loop
//! analyses of one function version, how a loop is named in reports, and the
//! block surgery for preheaders and jumps.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Loop Representation in Ori IR" (loops
//! are found anew by every pass from the block graph; headers are visited
//! before inner blocks) and "Loop Infrastructure Functions" (`sub_74F500`
//! finds a loop's preheader, `sub_9253C0` splits an edge and inserts one).
//! Here the analyses come from `ptx-analysis` ([`cfg`], [`dominators`],
//! [`loops`]); a phase recomputes them after it changes the block graph.

use std::rc::Rc;

use ptx_analysis::{cfg, dominators, loops, Cfg, DomTree, LoopForest};
use ptx_ir::ir::{Block, BlockId, Function, Inst, InstId, Opcode, Operand};
use ptx_isa::{Cmp, FamilyId, TypeKind};

use crate::{LoopReport, PhaseId};

/// The loop analyses of one version of a function.
#[derive(Clone)]
pub(crate) struct LoopInfo {
    pub cfg: Rc<Cfg>,
    pub dom: Rc<DomTree>,
    /// Shared with a later version of the same block graph.
    pub forest: Rc<LoopForest>,
}

impl LoopInfo {
    pub fn new(func: &Function) -> LoopInfo {
        let cfg = cfg(func);
        let dom = dominators(&cfg);
        LoopInfo::with_graph(Rc::new(cfg), Rc::new(dom))
    }

    /// The loops of a function whose CFG and dominator tree are made.
    pub fn with_graph(cfg: Rc<Cfg>, dom: Rc<DomTree>) -> LoopInfo {
        let forest = Rc::new(loops(&cfg, &dom));
        LoopInfo { cfg, dom, forest }
    }
}

/// A loop phase's report on the loop headed by `header` in `func`, named
/// by [`header_span`], with nothing said yet.
pub(crate) fn loop_report(phase: PhaseId, func: &Function, header: BlockId) -> LoopReport {
    let (header, header_end) = header_span(func, header);
    LoopReport {
        phase,
        header,
        header_end,
        summary: String::new(),
        unroll: None,
        facts: Vec::new(),
    }
}

/// The origins that name a loop's header in reports
/// ([`LoopReport::header`], [`LoopReport::header_end`]): the origin of the
/// header's first instruction with one, and of its last; for a header with
/// none (a block holding only its label and a `.pragma`, as nvcc writes
/// before a `$L__tmp` label), of the first and last instruction of the
/// block it falls through to, which `crate::ptxas_view::loops_of_reports`
/// finds in the same loop.
pub(crate) fn header_span(func: &Function, header: BlockId) -> (Option<InstId>, Option<InstId>) {
    let mut b = header;
    loop {
        if !func.has_block(b) {
            return (None, None);
        }
        let insts = &func.blocks[b].insts;
        if let Some(o) = insts.iter().find_map(|&i| func.origin(i)) {
            return (Some(o), insts.iter().rev().find_map(|&i| func.origin(i)));
        }
        if !func.blocks[b].insts.is_empty() || !func.falls_through(b) {
            return (None, None);
        }
        b = match func.next_in_layout(b) {
            Some(n) if n != header => n,
            _ => return (None, None),
        };
    }
}

/// A short name of a block for messages: its label, or `block N`.
pub(crate) fn block_name(func: &Function, b: BlockId) -> String {
    match func
        .has_block(b)
        .then(|| func.blocks[b].label.clone())
        .flatten()
    {
        Some(l) => l,
        None => format!("block {}", b.into_raw().into_u32()),
    }
}

/// A new unplaced unguarded `bra target`, with no origin.
pub(crate) fn new_bra(func: &mut Function, target: BlockId) -> InstId {
    func.add_inst(
        Inst {
            guard: None,
            opcode: Opcode::new("bra", vec![".uni".to_string()]),
            operands: vec![Operand::Label(target)],
            locs: Default::default(),
            range: Default::default(),
        },
        None,
    )
}

/// Places a new block holding `insts` right after `after` in the layout
/// (at the start of the layout for `None`), without changing any other
/// block: the caller keeps control flow right (the block before it may now
/// fall into it).
pub(crate) fn place_block(
    func: &mut Function,
    after: Option<BlockId>,
    insts: Vec<InstId>,
) -> BlockId {
    let b = func.blocks.alloc(Block {
        insts,
        ..Block::default()
    });
    let pos = match after.and_then(|a| func.layout_position(a)) {
        Some(p) => p + 1,
        None => 0,
    };
    func.layout.insert(pos, b);
    b
}

/// Whether the last instruction of `b` is an unguarded `bra` to `target`
/// (not `brx.idx`).
pub(crate) fn ends_with_jump_to(func: &Function, b: BlockId, target: BlockId) -> bool {
    func.blocks[b].insts.last().is_some_and(|&i| {
        let inst = &func.insts[i];
        inst.guard.is_none()
            && inst.opcode.info.family == FamilyId::Bra
            && inst.operands.contains(&Operand::Label(target))
    })
}

/// Makes `block`, which falls through to whatever follows it in the layout,
/// continue to `target`: nothing when `target` follows it; otherwise a `bra
/// target` at its end, or in a block of its own right after it when it ends
/// with a guarded branch.
pub(crate) fn continue_to(func: &mut Function, block: BlockId, target: BlockId) {
    if func.next_in_layout(block) == Some(target) || !func.falls_through(block) {
        return;
    }
    let jump = new_bra(func, target);
    let guarded_end = func.blocks[block]
        .insts
        .last()
        .is_some_and(|&l| func.insts[l].is_terminator());
    if guarded_end {
        place_block(func, Some(block), vec![jump]);
    } else {
        func.insert_at_end(block, jump);
    }
}

/// The dedicated preheader of the loop headed by `header` (whose blocks are
/// `body`): the unique predecessor outside the loop when its only successor
/// is the header; otherwise a new empty block placed right before the header
/// that every outside predecessor now reaches instead of the header (made
/// through the mutation API). `None` (nothing changed) when an outside
/// predecessor reaches the header through `brx.idx`, whose target list is
/// shared and cannot be redirected.
pub(crate) fn ensure_preheader(
    func: &mut Function,
    info: &LoopInfo,
    header: BlockId,
    body: &[BlockId],
) -> Option<(BlockId, bool)> {
    let outside: Vec<BlockId> = info
        .cfg
        .preds(header)
        .iter()
        .copied()
        .filter(|p| !body.contains(p))
        .collect();
    if let [p] = outside.as_slice() {
        if info.cfg.succs(*p) == [header] {
            return Some((*p, false));
        }
    }
    for &p in &outside {
        let last = func.blocks[p].insts.last().map(|&i| &func.insts[i]);
        if last.is_some_and(|i| i.opcode.info.family == FamilyId::BrxIdx) {
            return None;
        }
    }
    let pos = func.layout_position(header)?;
    let before = if pos == 0 {
        None
    } else {
        Some(func.layout[pos - 1])
    };
    // The block before the header keeps its successor: if it fell into the
    // header it now needs a jump (unless it is an outside predecessor, which
    // is redirected to the new block anyway).
    if let Some(b) = before {
        if func.falls_through(b) && !outside.contains(&b) {
            let jump = new_bra(func, header);
            let guarded_end = func.blocks[b]
                .insts
                .last()
                .is_some_and(|&l| func.insts[l].is_terminator());
            if guarded_end {
                place_block(func, Some(b), vec![jump]);
            } else {
                func.insert_at_end(b, jump);
            }
        }
    }
    let anchor = match func.layout_position(header)? {
        0 => None,
        p => Some(func.layout[p - 1]),
    };
    let pre = place_block(func, anchor, Vec::new());
    // A fall-through from the block right before the header now reaches the
    // preheader by layout; branches to the header are retargeted.
    for &p in &outside {
        if let Some(&last) = func.blocks[p].insts.last() {
            func.insts[last].map_labels(|l| if l == header { pre } else { l });
        }
    }
    Some((pre, true))
}

/// `setp` comparing the other way: the opcode whose result is true exactly
/// where `op`'s is false (`setp.lt.s32` -> `setp.ge.s32`, `setp.lt.f32` ->
/// `setp.geu.f32`); `None` for anything else, or a `setp` combining with a
/// predicate (`.and`/`.or`/`.xor`: its complement is no single `setp`).
pub(crate) fn complement_setp(op: Opcode) -> Option<Opcode> {
    let info = &op.info;
    if info.family != FamilyId::Setp || info.bool_op.is_some() {
        return None;
    }
    let float = info.ty().is_some_and(|t| t.kind() == TypeKind::Float);
    let cmp = info.cmp?.complement(float);
    let modifiers = op
        .modifiers
        .iter()
        .map(|m| match Cmp::parse(m) {
            Some(_) => cmp.modifier().to_string(),
            None => m.clone(),
        })
        .collect();
    Some(Opcode::new(&op.name, modifiers))
}
