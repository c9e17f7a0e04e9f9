//! A readable text dump of the IR, for snapshot tests and debugging.
//!
//! Unlike `{:#?}` it prints blocks in layout order with their successors,
//! operands with their kind (`reg %r1`, `sym tab+8`, `[%rd1+16]`, `imm 0x1F`,
//! `bb3`), and each instruction's defs and uses.

use std::fmt::Write;

use super::def_use::defs_and_uses;
use super::function::{Function, LocalDecl, Param, Signature};
use super::inst::{Inst, Loc};
use super::module::{Module, ModuleItem, VarDecl};
use super::operand::{AddressBase, Operand};
use super::reg::RegId;

/// Dumps a whole module.
pub fn dump_module(module: &Module) -> String {
    let mut out = String::new();
    let h = &module.header;
    if let Some(v) = h.version {
        let _ = writeln!(out, "version {v}");
    }
    if let Some(t) = &h.target {
        let _ = writeln!(out, "target {} {:?}", t.arch, t.options);
    }
    if let Some(a) = h.address_size {
        let _ = writeln!(out, "address_size {a}");
    }
    for item in &module.items {
        match item {
            ModuleItem::Function(i) => match module.functions.get(*i) {
                Some(f) => out.push_str(&dump_function(f)),
                None => {
                    let _ = writeln!(out, "function #{i} (missing)");
                }
            },
            other => {
                let _ = writeln!(out, "{}", dump_item(other));
            }
        }
    }
    out
}

fn dump_item(item: &ModuleItem) -> String {
    match item {
        ModuleItem::Var(decl) => format!("var {}", dump_var(decl)),
        ModuleItem::Function(i) => format!("function #{i}"),
        ModuleItem::Declaration(sig) => format!("declare {}", dump_sig(sig)),
        ModuleItem::Alias { alias, aliasee } => format!("alias {alias} = {aliasee}"),
        ModuleItem::Pragma(text) => format!("pragma {text}"),
        ModuleItem::File { index, .. } => format!("file {index}"),
        ModuleItem::Section(text) => {
            format!("section {}", text.split_whitespace().nth(1).unwrap_or(""))
        }
        ModuleItem::Verbatim(text) => format!("verbatim {text:?}"),
    }
}

fn dump_var(decl: &VarDecl) -> String {
    let names: Vec<String> = decl
        .vars
        .iter()
        .map(|v| {
            let dims: String = v
                .dims
                .iter()
                .map(|d| d.map_or("[]".to_string(), |n| format!("[{n}]")))
                .collect();
            match &v.init {
                Some(init) => format!("{}{dims} = {init}", v.name),
                None => format!("{}{dims}", v.name),
            }
        })
        .collect();
    let mut words = Vec::new();
    words.extend(decl.linkage.clone());
    words.push(decl.space.clone());
    words.extend(decl.align.map(|a| format!("align {a}")));
    words.extend(decl.vector.map(|v| format!(".v{v}")));
    words.push(decl.ty.clone());
    format!("{} {}", words.join(" "), names.join(", "))
}

fn dump_sig(sig: &Signature) -> String {
    let params: Vec<String> = sig.params.iter().map(dump_param).collect();
    let mut out = format!("{:?} {}", sig.kind, sig.name);
    if !sig.linkage.is_empty() {
        let _ = write!(out, " linkage {:?}", sig.linkage);
    }
    if let Some(rets) = &sig.ret_params {
        let rets: Vec<String> = rets.iter().map(dump_param).collect();
        let _ = write!(out, " returns ({})", rets.join(", "));
    }
    let _ = write!(out, " ({})", params.join(", "));
    for p in &sig.perf {
        let _ = write!(out, " {} {:?}", p.name, p.values);
    }
    out
}

fn dump_param(p: &Param) -> String {
    let mut out = format!("{} {}", p.space, p.ty);
    if let Some(a) = p.align {
        let _ = write!(out, " align {a}");
    }
    if let Some(ptr) = &p.ptr {
        let _ = write!(out, " ptr({:?}, {:?})", ptr.space, ptr.align);
    }
    let _ = write!(out, " {}", p.name);
    for d in &p.dims {
        let _ = write!(out, "[{}]", d.map_or(String::new(), |n| n.to_string()));
    }
    out
}

/// Dumps one function.
pub fn dump_function(f: &Function) -> String {
    let mut out = format!("function {}\n", dump_sig(&f.sig));
    for (id, decl) in f.reg_decls.iter() {
        let count = decl.count.map_or(String::new(), |c| format!("<{c}>"));
        let vector = decl.vector.map_or(String::new(), |v| format!(" .v{v}"));
        let param = if decl.is_param { " (param)" } else { "" };
        let _ = writeln!(
            out,
            "  regdecl d{} {}{count}{vector} {}{param}",
            id.into_raw(),
            decl.name,
            decl.ty
        );
    }
    for (id, reg) in f.regs.iter() {
        let decl = reg
            .decl
            .map_or(String::new(), |d| format!(" from d{}", d.into_raw()));
        let vector = reg.vector.map_or(String::new(), |v| format!(".v{v} "));
        let _ = writeln!(
            out,
            "  reg r{} {} {vector}{} {:?}{decl}",
            id.into_raw(),
            reg.name,
            reg.ty,
            reg.class
        );
    }
    for local in &f.locals {
        let _ = writeln!(out, "  local {}", dump_local(f, local));
    }
    for &b in &f.layout {
        let block = &f.blocks[b];
        let succs: Vec<String> = f
            .successors(b)
            .iter()
            .map(|s| format!("bb{}", s.into_raw()))
            .collect();
        let label = block.label.as_deref().unwrap_or("-");
        let _ = writeln!(
            out,
            "  bb{} {label} -> [{}]",
            b.into_raw(),
            succs.join(", ")
        );
        for p in &block.pragmas {
            let _ = writeln!(out, "    pragma {p}");
        }
        for a in &block.annotations {
            let _ = writeln!(out, "    ptxopt: {a}");
        }
        for &i in &block.insts {
            let _ = writeln!(out, "    i{} {}", i.into_raw(), dump_inst(f, &f.insts[i]));
        }
    }
    out
}

fn dump_local(f: &Function, local: &LocalDecl) -> String {
    match local {
        LocalDecl::Var(decl) => dump_var(decl),
        LocalDecl::CallPrototype { name, text } => format!("{name}: {text}"),
        LocalDecl::CallTargets { name, targets } => format!("{name}: calltargets {targets:?}"),
        LocalDecl::BranchTargets { name, targets } => {
            let t: Vec<String> = targets.iter().map(|b| block_name(f, *b)).collect();
            format!("{name}: branchtargets [{}]", t.join(", "))
        }
    }
}

fn dump_inst(f: &Function, inst: &Inst) -> String {
    let mut out = String::new();
    if let Some(g) = inst.guard {
        let _ = write!(
            out,
            "@{}{} ",
            if g.negated { "!" } else { "" },
            reg_name(f, g.reg)
        );
    }
    out.push_str(&inst.opcode.text());
    if let Some(fam) = inst.opcode.family {
        let _ = write!(out, " <{fam}>");
    }
    let ops: Vec<String> = inst.operands.iter().map(|op| dump_operand(f, op)).collect();
    if !ops.is_empty() {
        let _ = write!(out, " {}", ops.join(", "));
    }
    let du = defs_and_uses(inst);
    let names = |regs: &[RegId]| {
        regs.iter()
            .map(|&r| reg_name(f, r))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = write!(
        out,
        "  ; defs [{}] uses [{}]",
        names(&du.defs),
        names(&du.uses)
    );
    for loc in inst.locs.iter() {
        let _ = write!(out, " {}", dump_loc(loc));
    }
    out
}

fn dump_loc(loc: &Loc) -> String {
    match &loc.inlined {
        Some(extra) => format!("@{}:{}:{} ({extra})", loc.file, loc.line, loc.col),
        None => format!("@{}:{}:{}", loc.file, loc.line, loc.col),
    }
}

fn dump_operand(f: &Function, op: &Operand) -> String {
    let list = |items: &[Operand]| {
        items
            .iter()
            .map(|o| dump_operand(f, o))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match op {
        Operand::Reg { reg, component } => {
            format!(
                "reg {}{}",
                reg_name(f, *reg),
                component.as_deref().unwrap_or("")
            )
        }
        Operand::Special { name, component } => {
            format!("special {name}{}", component.as_deref().unwrap_or(""))
        }
        Operand::Imm(imm) => format!("imm {} = {:?}", imm.to_text(), imm.value),
        Operand::Symbol { name, offset } => format!("sym {name}{}", offset_text(*offset)),
        Operand::Label(b) => block_name(f, *b),
        Operand::Address(addr) => {
            let base = match &addr.base {
                AddressBase::Reg(r) => format!("reg {}", reg_name(f, *r)),
                AddressBase::Symbol(s) => format!("sym {s}"),
                AddressBase::Absolute => "abs".to_string(),
            };
            format!("[{base}{}]", offset_text(addr.offset))
        }
        Operand::AddressList(items) => format!("[{}]", list(items)),
        Operand::Vector(items) => format!("{{{}}}", list(items)),
        Operand::ArgList(items) => format!("({})", list(items)),
        Operand::PredPair(a, b) => format!("{} | {}", dump_operand(f, a), dump_operand(f, b)),
        Operand::Sink => "_".to_string(),
        Operand::NegPred(r) => format!("!reg {}", reg_name(f, *r)),
        Operand::NegReg { reg, component } => {
            format!(
                "-reg {}{}",
                reg_name(f, *reg),
                component.as_deref().unwrap_or("")
            )
        }
        Operand::RegOffset { reg, offset } => {
            format!("reg {}{}", reg_name(f, *reg), offset_text(*offset))
        }
        Operand::Expr(text) => format!("expr {text:?}"),
    }
}

fn offset_text(offset: i64) -> String {
    match offset {
        0 => String::new(),
        o if o > 0 => format!("+{o}"),
        o => o.to_string(),
    }
}

fn reg_name(f: &Function, reg: RegId) -> String {
    f.regs[reg].name.to_string()
}

fn block_name(f: &Function, b: super::BlockId) -> String {
    match f.blocks[b].label.as_deref() {
        Some(label) => format!("bb{} {label}", b.into_raw()),
        None => format!("bb{}", b.into_raw()),
    }
}
