//! Emission of a function definition: signature, declarations, blocks.

use std::fmt::Write;

use rustc_hash::FxHashSet;

use crate::ir::{BlockId, Function, Inst, Loc, LocalDecl, Locs};

use super::module::{emit_signature, emit_var_decl};
use super::operand::{label_of, label_ref, reg_name, write_operand};

/// Prints a function definition as PTX.
pub fn emit_function(f: &Function) -> String {
    let labels = block_labels(f);
    let mut out = emit_signature(&f.sig);
    out.push_str("\n{\n");
    let header_len = out.len();
    emit_reg_decls(f, &mut out);
    emit_locals(f, &labels, &mut out);
    if out.len() > header_len {
        out.push('\n');
    }
    emit_blocks(f, &labels, &mut out);
    out.push_str("}\n");
    out
}

/// The label of every block (indexed by raw id): its own, or a fresh
/// `$L__ir_bb<N>` for unlabeled ones.
fn block_labels(f: &Function) -> Vec<String> {
    let taken: FxHashSet<&str> = f
        .blocks
        .values()
        .filter_map(|b| b.label.as_deref())
        .collect();
    f.blocks
        .iter()
        .map(|(id, block)| match &block.label {
            Some(label) => label.clone(),
            None => {
                let mut name = format!("$L__ir_bb{}", id.into_raw().into_u32());
                while taken.contains(name.as_str()) {
                    name.push('_');
                }
                name
            }
        })
        .collect()
}

/// Blocks that are branch targets (they need a label line even without a label
/// of their own).
fn referenced_blocks(f: &Function) -> FxHashSet<BlockId> {
    let mut refs = FxHashSet::default();
    for op in f.insts.values().flat_map(|i| &i.operands) {
        op.for_each_label(&mut |b| {
            refs.insert(b);
        });
    }
    for local in &f.locals {
        if let LocalDecl::BranchTargets { targets, .. } = local {
            refs.extend(targets.iter().copied());
        }
    }
    refs
}

fn emit_reg_decls(f: &Function, out: &mut String) {
    for decl in f.reg_decls.values().filter(|d| !d.is_param) {
        let vector = decl.vector.map_or(String::new(), |v| format!(".v{v} "));
        let count = decl.count.map_or(String::new(), |c| format!("<{c}>"));
        let _ = writeln!(out, "\t.reg {vector}{} \t{}{count};", decl.ty, decl.name);
    }
    // Registers made by passes are declared when a placed instruction uses
    // them: a phase that made a register and then dropped its instructions
    // (or a later phase that removed them) leaves no declaration behind, so
    // the text of a function does not depend on such leftovers (running the
    // pipeline on its own output reaches a fixed point).
    if f.regs.values().all(|r| r.decl.is_some()) {
        return;
    }
    let mut used = vec![false; f.regs.len()];
    let mut mark = |r: crate::ir::RegId| {
        if let Some(u) = used.get_mut(r.into_raw().into_u32() as usize) {
            *u = true;
        }
    };
    for b in f.layout.iter().filter(|&&b| f.has_block(b)) {
        for &i in f.blocks[*b].insts.iter().filter(|&&i| f.has_inst(i)) {
            let inst = &f.insts[i];
            if let Some(g) = inst.guard {
                mark(g.reg);
            }
            for op in &inst.operands {
                op.for_each_reg(&mut mark);
            }
        }
    }
    for (id, reg) in f.regs.iter().filter(|(_, r)| r.decl.is_none()) {
        if !used[id.into_raw().into_u32() as usize] {
            continue;
        }
        let vector = reg.vector.map_or(String::new(), |v| format!(".v{v} "));
        let _ = writeln!(out, "\t.reg {vector}{} \t{};", reg.ty, reg.name);
    }
}

fn emit_locals(f: &Function, labels: &[String], out: &mut String) {
    for local in &f.locals {
        let _ = match local {
            LocalDecl::Var(decl) => writeln!(out, "\t{};", emit_var_decl(decl)),
            LocalDecl::CallPrototype { name, text } => writeln!(out, "\t{name}: {text};"),
            LocalDecl::CallTargets { name, targets } => {
                writeln!(out, "\t{name}: .calltargets {};", targets.join(", "))
            }
            LocalDecl::BranchTargets { name, targets } => {
                let targets: Vec<String> = targets.iter().map(|b| label_of(labels, *b)).collect();
                writeln!(out, "\t{name}: .branchtargets {};", targets.join(", "))
            }
        };
    }
}

fn emit_blocks(f: &Function, labels: &[String], out: &mut String) {
    let referenced = referenced_blocks(f);
    static NO_LOCS: Locs = Locs::new();
    let mut locs: &Locs = &NO_LOCS;
    for &b in &f.layout {
        // Ids outside their arenas (broken IR, which the verifier reports)
        // are skipped rather than panicking.
        if !f.has_block(b) {
            continue;
        }
        let block = &f.blocks[b];
        if block.label.is_some() || referenced.contains(&b) {
            out.push_str(label_ref(labels, b));
            out.push_str(":\n");
        }
        for pragma in &block.pragmas {
            let _ = writeln!(out, "\t.pragma {pragma};");
        }
        // On its own line before the first instruction: lowering gives it
        // back to this block.
        for note in &block.annotations {
            let _ = writeln!(out, "\t// ptxopt: {note}");
        }
        for &i in &block.insts {
            if !f.has_inst(i) {
                continue;
            }
            let inst = &f.insts[i];
            // Most instructions share the chain of the one before (lowering
            // gives it to each): equal without comparing the lines.
            if !inst.locs.is_empty() && !inst.locs.same(locs) && *inst.locs != **locs {
                locs = &inst.locs;
                locs.iter().for_each(|l| write_loc(l, out));
            }
            write_inst(f, labels, inst, out);
        }
    }
}

fn write_loc(loc: &Loc, out: &mut String) {
    let _ = match &loc.inlined {
        Some(tail) => writeln!(out, "\t.loc\t{} {} {}, {tail}", loc.file, loc.line, loc.col),
        None => writeln!(out, "\t.loc\t{} {} {}", loc.file, loc.line, loc.col),
    };
}

/// One instruction line: `\t@%p1 bra \t$L__BB0_2;`.
fn write_inst(f: &Function, labels: &[String], inst: &Inst, out: &mut String) {
    out.push('\t');
    if let Some(guard) = inst.guard {
        out.push('@');
        if guard.negated {
            out.push('!');
        }
        out.push_str(reg_name(f, guard.reg));
        out.push(' ');
    }
    out.push_str(&inst.opcode.name);
    for m in &inst.opcode.modifiers {
        out.push_str(m);
    }
    for (k, op) in inst.operands.iter().enumerate() {
        out.push_str(if k == 0 { " \t" } else { ", " });
        write_operand(f, labels, op, out);
    }
    out.push_str(";\n");
}
