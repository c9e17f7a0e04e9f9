//! Emission of the header, module-level items, signatures and declarations.

use std::fmt::Write;

use crate::ir::{FunctionKind, Header, Module, ModuleItem, Param, Signature, VarDecl};

use super::function::emit_function;

/// Prints a module as PTX.
pub fn emit_module(module: &Module) -> String {
    let mut out = emit_header(&module.header);
    for item in &module.items {
        out.push('\n');
        match item {
            ModuleItem::Function(i) => match module.functions.get(*i) {
                Some(f) => out.push_str(&emit_function(f)),
                None => out.push_str("// missing function\n"),
            },
            other => out.push_str(&emit_item(other)),
        }
    }
    out
}

fn emit_header(header: &Header) -> String {
    let mut out = String::new();
    if let Some(v) = header.version {
        let _ = writeln!(out, ".version {v}");
    }
    if let Some(t) = &header.target {
        let mut words = vec![t.arch.clone()];
        words.extend(t.options.iter().cloned());
        let _ = writeln!(out, ".target {}", words.join(", "));
    }
    if let Some(a) = header.address_size {
        let _ = writeln!(out, ".address_size {a}");
    }
    out
}

fn emit_item(item: &ModuleItem) -> String {
    match item {
        ModuleItem::Var(decl) => format!("{};\n", emit_var_decl(decl)),
        ModuleItem::Function(_) => String::new(),
        ModuleItem::Declaration(sig) => format!("{};\n", emit_signature(sig)),
        ModuleItem::Alias { alias, aliasee } => format!(".alias {alias}, {aliasee};\n"),
        ModuleItem::Pragma(text) => format!(".pragma {text};\n"),
        ModuleItem::File { text, .. } => format!("\t{text}\n"),
        ModuleItem::Section(text) | ModuleItem::Verbatim(text) => format!("{text}\n"),
    }
}

/// `.global .align 4 .u32 a[4] = {1, 2, 3, 4}` (without `;`).
pub fn emit_var_decl(decl: &VarDecl) -> String {
    let mut out = String::new();
    if let Some(linkage) = &decl.linkage {
        let _ = write!(out, "{linkage} ");
    }
    out.push_str(&decl.space);
    if let Some(align) = decl.align {
        let _ = write!(out, " .align {align}");
    }
    if let Some(width) = decl.vector {
        let _ = write!(out, " .v{width}");
    }
    let _ = write!(out, " {} ", decl.ty);
    let vars: Vec<String> = decl
        .vars
        .iter()
        .map(|v| {
            let mut text = format!("{}{}", v.name, emit_dims(&v.dims));
            if let Some(init) = &v.init {
                let _ = write!(text, " = {init}");
            }
            text
        })
        .collect();
    out.push_str(&vars.join(", "));
    out
}

fn emit_dims(dims: &[Option<u64>]) -> String {
    dims.iter()
        .map(|d| d.map_or("[]".to_string(), |n| format!("[{n}]")))
        .collect()
}

/// The header of a function: linkage, kind, return parameters, name, parameters
/// (one per line) and performance directives, without body or `;`.
pub fn emit_signature(sig: &Signature) -> String {
    let mut out = String::new();
    for word in &sig.linkage {
        let _ = write!(out, "{word} ");
    }
    out.push_str(match sig.kind {
        FunctionKind::Entry => ".entry ",
        FunctionKind::Func => ".func ",
    });
    if let Some(rets) = &sig.ret_params {
        let rets: Vec<String> = rets.iter().map(emit_param).collect();
        let _ = write!(out, "({}) ", rets.join(", "));
    }
    out.push_str(&sig.name);
    if sig.params.is_empty() {
        out.push_str("()");
    } else {
        let params: Vec<String> = sig
            .params
            .iter()
            .map(|p| format!("\t{}", emit_param(p)))
            .collect();
        let _ = write!(out, "(\n{}\n)", params.join(",\n"));
    }
    for perf in &sig.perf {
        let values: Vec<String> = perf.values.iter().map(u64::to_string).collect();
        let _ = write!(out, "\n{}", perf.name);
        if !values.is_empty() {
            let _ = write!(out, " {}", values.join(", "));
        }
    }
    out
}

/// `.param .u64 .ptr .global .align 16 p`
fn emit_param(p: &Param) -> String {
    let mut out = p.space.clone();
    if let Some(align) = p.align {
        let _ = write!(out, " .align {align}");
    }
    if let Some(width) = p.vector {
        let _ = write!(out, " .v{width}");
    }
    if !p.ty.is_empty() {
        let _ = write!(out, " {}", p.ty);
    }
    if let Some(ptr) = &p.ptr {
        out.push_str(" .ptr");
        if let Some(space) = &ptr.space {
            let _ = write!(out, " {space}");
        }
        if let Some(align) = ptr.align {
            let _ = write!(out, " .align {align}");
        }
    }
    let _ = write!(out, " {}{}", p.name, emit_dims(&p.dims));
    out
}
