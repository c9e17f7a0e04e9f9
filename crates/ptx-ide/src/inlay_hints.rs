//! Inlay hints from the per-function analyses:
//!
//! - after each instruction, the live registers after it (`R n P m`);
//! - at each block (after its label, or before the first instruction of an
//!   unlabelled block), the block's maximum (`max R n P m`);
//! - at each loop header label, the loop depth and trip count;
//! - after each function's name, the register estimate of the code as
//!   written (`≈ N regs as written`: the memoized
//!   `ptx_db::analysis::reg_estimate_source` of `kernel_ir`, re-run only for
//!   an edited function). The code lens and the function's hover give
//!   `ptx_db::analysis::reg_estimate`, which also counts the estimates of
//!   the file's functions a kernel calls.

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::ast::AstNode;
use ptx_syntax::{TextRange, TextSize};

use crate::analysis::{file_kernels, kernel_analysis};

/// What a hint says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InlayHintKind {
    /// Live registers after an instruction.
    Pressure,
    /// A block's maximum pressure.
    BlockMax,
    /// Loop depth and trip count at a loop header.
    Loop,
    /// The register estimate of the function as written, after its name.
    Estimate,
}

/// A hint shown at `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub kind: InlayHintKind,
    pub label: String,
}

/// The hints of the functions that overlap `range` (all of them for `None`):
/// an editor asks for the visible part, and only those functions are analyzed.
pub(crate) fn inlay_hints(
    db: &RootDatabase,
    path: &Path,
    range: Option<TextRange>,
) -> Vec<InlayHint> {
    let mut hints = Vec::new();
    for k in file_kernels(db, path) {
        if range.is_some_and(|r| r.intersect(k.range()).is_none()) {
            continue;
        }
        let ka = kernel_analysis(db, k.kernel);
        let source = k.source(db);
        // Where each label definition of this function ends (`name:`), in one walk.
        let label_ends: rustc_hash::FxHashMap<String, TextSize> = k
            .syntax
            .syntax()
            .descendants()
            .filter_map(ptx_syntax::ast::LabelDef::cast)
            .filter_map(|l| Some((l.name()?.text(), l.syntax().text_range().end())))
            .collect();
        let label_end = |label: &str| label_ends.get(label).copied();
        if let Some(name) = k.syntax.name().and_then(|n| n.ident()) {
            let registers = *ptx_db::analysis::reg_estimate_source(db, k.kernel);
            hints.push(InlayHint {
                offset: name.text_range().end(),
                kind: InlayHintKind::Estimate,
                label: format!("≈ {registers} regs as written"),
            });
        }
        for &block in &ka.func.layout {
            let b = &ka.func.blocks[block];
            let max = ka.pressure.block_max(block);
            let max_label = format!("max R {} P {}", max.r.value, max.p.value);
            let at = match &b.label {
                Some(label) => label_end(label),
                None => b
                    .insts
                    .first()
                    .and_then(|&i| source.inst_range(i))
                    .map(|r| r.start()),
            };
            if let Some(offset) = at {
                if !b.insts.is_empty() {
                    hints.push(InlayHint {
                        offset,
                        kind: InlayHintKind::BlockMax,
                        label: max_label,
                    });
                }
                if let Some(facts) = ka.loop_facts(block) {
                    let trip = facts
                        .trip_count
                        .map_or_else(|| "?".to_string(), |n| n.to_string());
                    hints.push(InlayHint {
                        offset,
                        kind: InlayHintKind::Loop,
                        label: format!("loop depth {} trips {trip}", facts.depth),
                    });
                }
            }
            for &inst in &b.insts {
                let Some(range) = source.inst_range(inst) else {
                    continue;
                };
                let p = ka.pressure.at(inst).after;
                hints.push(InlayHint {
                    offset: range.end(),
                    kind: InlayHintKind::Pressure,
                    label: format!("R {} P {}", p.r, p.p),
                });
            }
        }
    }
    hints.sort_by_key(|h| h.offset);
    if let Some(range) = range {
        hints.retain(|h| range.contains_inclusive(h.offset));
    }
    hints
}
