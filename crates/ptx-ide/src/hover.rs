//! Hover: what the thing under the cursor is.
//!
//! - On an instruction's opcode: the ISA family's summary and syntax
//!   (`ptx_isa::lookup`), its latency class, pipe and cycles
//!   (`ptx_analysis::latency`), and the live R/P registers before and after it
//!   (`ptx_analysis::reg_pressure`).
//! - On a register: its declaration, type, class, number of defs and uses, and
//!   live-range length (instructions at which it is live).
//! - On a label: its block; at a loop header, depth, trip count and
//!   ResMII/RecMII.
//! - On the instruction where the register estimate peaks
//!   (`ptx_analysis::reg_estimate`): the registers live
//!   there, each with the line of its definition and last use.
//! - On a function: its declaration and the register estimate with the
//!   occupancy it allows.
//! - On a parameter or variable: its declaration.
//!
//! The text is Markdown.

use std::fmt::Write;
use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::{SyntaxKind, TextRange, TextSize};

use crate::analysis::{kernel_analysis, kernel_at, root, KernelAnalysis};
use crate::scope::{ident_at, DefKind, Scopes};

/// Hover text (Markdown) and the range it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

pub(crate) fn hover(db: &RootDatabase, path: &Path, offset: TextSize) -> Option<HoverResult> {
    let root = root(db, path)?;
    let token = root.token_at_offset(offset).right_biased()?;
    if let Some(opcode) = token.parent_ancestors().find_map(ast::Opcode::cast) {
        return instruction_hover(db, path, &opcode);
    }
    let ident = ident_at(&root, offset)?;
    let scopes = Scopes::new(&root);
    let resolved = scopes.resolve(&ident)?;
    let def = &resolved.def;
    let mut md = String::new();
    let decl_text = declaration_text(&def.decl);
    match def.kind {
        DefKind::Register => {
            let _ = writeln!(md, "**`{}`** register\n", resolved.text);
            let _ = writeln!(md, "```ptx\n{decl_text}\n```\n");
            let kernel = kernel_at(db, path, offset);
            let facts = kernel.as_ref().and_then(|k| {
                let ka = kernel_analysis(db, k.kernel);
                let (id, f) = ka.reg_facts(&resolved.text)?;
                let reg = &ka.func.regs[id];
                Some((reg.ty.clone(), reg.class, f))
            });
            match facts {
                Some((ty, class, f)) => {
                    let _ = writeln!(md, "- type `{ty}`, class {class:?}");
                    let _ = writeln!(md, "- {} defs, {} uses", f.defs, f.uses);
                    let _ = writeln!(md, "- live range: {} instructions", f.live_insts);
                }
                None => {
                    let _ = writeln!(md, "- never used");
                }
            }
        }
        DefKind::Label => {
            let _ = writeln!(md, "**`{}`** label", def.name);
            if let Some(k) = kernel_at(db, path, offset) {
                let ka = kernel_analysis(db, k.kernel);
                label_facts(&mut md, &ka, &def.name);
                if let Some(block) = ka.block_with_label(&def.name) {
                    if ka.loop_facts(block).is_some() {
                        let reports = crate::loop_decisions::reports_for(db, k.kernel, &ka, block);
                        crate::loop_decisions::hover_trail(&mut md, &reports);
                    }
                }
            }
        }
        DefKind::Param => {
            let _ = writeln!(
                md,
                "**`{}`** parameter\n\n```ptx\n{decl_text}\n```",
                def.name
            );
        }
        DefKind::Function => {
            let _ = writeln!(
                md,
                "**`{}`** function\n\n```ptx\n{decl_text}\n```",
                def.name
            );
            let kernel = crate::analysis::file_kernels(db, path)
                .into_iter()
                .find(|k| *k.kernel.name(db) == def.name);
            if let Some(k) = kernel {
                let est = crate::analysis::kernel_estimate(db, k.kernel);
                let _ = writeln!(
                    md,
                    "\n- {}; occupancy {}/{} warps/SM",
                    est.summary(),
                    est.warps_per_sm,
                    est.max_warps_per_sm
                );
            }
        }
        DefKind::Variable => {
            let _ = writeln!(
                md,
                "**`{}`** variable\n\n```ptx\n{decl_text}\n```",
                def.name
            );
        }
    }
    Some(HoverResult {
        range: resolved.range,
        markdown: md.trim_end().to_string(),
    })
}

/// The peak of the register estimate: the registers live there, with the
/// lines (1-based) of their definition and last use.
fn peak_facts(
    md: &mut String,
    db: &RootDatabase,
    path: &Path,
    k: &crate::analysis::FileKernel<'_>,
    est: &crate::analysis::EstimateFacts,
) {
    let index = crate::line_index::line_index_of(db, path);
    let source = k.source(db);
    let line = |inst: Option<ptx_ir::ir::InstId>| {
        inst.and_then(|i| source.inst_range(i)).map_or_else(
            || "-".to_string(),
            |r| (index.line_col(r.start()).line + 1).to_string(),
        )
    };
    let _ = writeln!(
        md,
        "- **peak register pressure**: {} units live here ({})",
        est.peak_units,
        est.summary()
    );
    for r in &est.peak_regs {
        let _ = writeln!(
            md,
            "  - `{}` ({} unit{}): defined line {}, last used line {}",
            r.name,
            r.units,
            if r.units == 1 { "" } else { "s" },
            line(r.def),
            line(r.last_use)
        );
    }
}

fn label_facts(md: &mut String, ka: &KernelAnalysis, label: &str) {
    let Some(block) = ka.block_with_label(label) else {
        return;
    };
    let depth = ka.loops.depth(block);
    let _ = writeln!(
        md,
        "\n- block {}, loop depth {depth}",
        ptx_analysis::cfg::block_name(block)
    );
    if let Some(facts) = ka.loop_facts(block) {
        let trip = match facts.trip_count {
            Some(n) => format!("{n}"),
            None => "unknown".to_string(),
        };
        let _ = writeln!(
            md,
            "- loop header: depth {}, trip count {trip}",
            facts.depth
        );
        if !facts.trip_detail.is_empty() {
            let _ = writeln!(md, "  ({})", facts.trip_detail);
        }
        match facts.mii {
            Some((res, rec)) => {
                let _ = writeln!(md, "- ResMII {res}, RecMII {rec}");
            }
            None => {
                let _ = writeln!(md, "- ResMII/RecMII: only for single-block loops");
            }
        }
    }
}

fn instruction_hover(db: &RootDatabase, path: &Path, opcode: &ast::Opcode) -> Option<HoverResult> {
    let name = opcode.name()?;
    let modifiers: Vec<String> = opcode.modifiers().map(|t| t.text().to_string()).collect();
    let refs: Vec<&str> = modifiers.iter().map(String::as_str).collect();
    let written: String = std::iter::once(name.text())
        .chain(refs.iter().copied())
        .collect();
    let mut md = String::new();
    match ptx_isa::lookup(name.text(), &refs) {
        Some((family, _)) => {
            let _ = writeln!(md, "**`{written}`** — {}\n", family.summary);
            let _ = writeln!(md, "```ptx\n{}\n```\n", family.syntax);
        }
        None => {
            let _ = writeln!(md, "**`{written}`** — unknown instruction\n");
        }
    }
    let inst_node = opcode.syntax().parent()?;
    let start = inst_node.text_range().start();
    if let Some(k) = kernel_at(db, path, start) {
        if let Some(inst) = k.source(db).inst_at(start) {
            let ka = kernel_analysis(db, k.kernel);
            if let Some(lat) = ka.latency.get(inst) {
                let _ = writeln!(
                    md,
                    "- latency class {:?} ({}), pipe {}, {} cycles (stall {}) on {}",
                    lat.class,
                    lat.class.code(),
                    lat.pipe.name(),
                    lat.cycles,
                    lat.stall,
                    ka.target.name
                );
            }
            let p = ka.pressure.at(inst);
            let _ = writeln!(
                md,
                "- live registers: before R {} P {}, after R {} P {}",
                p.before.r, p.before.p, p.after.r, p.after.p
            );
            let est = crate::analysis::kernel_estimate(db, k.kernel);
            if est.peak_inst == Some(inst) {
                peak_facts(&mut md, db, path, &k, &est);
            }
        }
    }
    Some(HoverResult {
        range: opcode.syntax().text_range(),
        markdown: md.trim_end().to_string(),
    })
}

/// The declaration as a short text: a function's header without its body,
/// anything else as written, whitespace runs collapsed.
fn declaration_text(node: &ptx_syntax::SyntaxNode) -> String {
    let mut out = String::new();
    for el in node.descendants_with_tokens() {
        let Some(t) = el.into_token() else { continue };
        if t.parent_ancestors()
            .take_while(|a| a != node)
            .any(|a| a.kind() == SyntaxKind::BLOCK)
        {
            break;
        }
        match t.kind() {
            SyntaxKind::COMMENT => {}
            SyntaxKind::WHITESPACE => {
                if !out.ends_with(' ') && !out.is_empty() {
                    out.push(' ');
                }
            }
            _ => out.push_str(t.text()),
        }
    }
    out.trim().to_string()
}
