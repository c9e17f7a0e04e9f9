//! The typed form of instructions (`Opcode::info`) over real PTX: every
//! instruction of every `test-data/**/*.ptx` file and every shared-corpus file
//! decodes, and what lowering stores is what `OpInfo::decode` gives.
//!
//! - The family is the one `ptx_isa::lookup` finds (and `Opcode::family` is
//!   its name); on the files ptxas accepts (all but `test-data/rejected` and
//!   `test-data/syntax/err`) every instruction has a known family.
//! - The types are the type modifiers in order; the state space, vector width,
//!   rounding and comparison are the modifiers written.
//! - The flags agree with the IR's own rules: terminators end blocks, only
//!   branches have branch targets.

mod common;

use std::path::PathBuf;

use common::{corpus_dir, ptx_files_recursive, test_data};
use ptx_ir::ir::{Inst, Operand};
use ptx_isa::{FamilyId, OpInfo, Space, Ty};

fn files() -> Vec<(PathBuf, bool)> {
    let data = test_data();
    let mut files: Vec<(PathBuf, bool)> = ptx_files_recursive(&data)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&data).unwrap().to_string_lossy().to_string();
            let accepted = !rel.starts_with("rejected") && !rel.starts_with("syntax/err");
            (p, accepted)
        })
        .collect();
    if let Some(corpus) = corpus_dir() {
        // Files of the corpus that ptxas rejects may use unknown opcodes;
        // all of them must still decode.
        let rejected = common::zluda_rejected(&corpus);
        files.extend(ptx_files_recursive(&corpus).into_iter().map(|p| {
            let s = p.to_string_lossy().to_string();
            let known = s.contains("/dealii/")
                || (s.contains("/zluda/spirv_run/")
                    && !s.contains("/32/")
                    && !rejected.iter().any(|r| p.ends_with(r)));
            (p, known)
        }));
    }
    files
}

fn check_inst(inst: &Inst, where_: &str, must_be_known: bool, failures: &mut Vec<String>) {
    let op = &inst.opcode;
    let decoded = OpInfo::decode(&op.name, &op.modifiers);
    if op.info != decoded {
        failures.push(format!(
            "{where_}: {} stored {:?} decoded {:?}",
            op.text(),
            op.info,
            decoded
        ));
    }
    let refs: Vec<&str> = op.modifiers.iter().map(String::as_str).collect();
    let looked_up = ptx_isa::lookup(&op.name, &refs).map(|(f, _)| f.name);
    if op.family != looked_up || op.info.family_name() != looked_up {
        failures.push(format!(
            "{where_}: {} family {:?} vs {looked_up:?}",
            op.text(),
            op.info.family
        ));
    }
    if must_be_known && op.info.family == FamilyId::Unknown {
        failures.push(format!("{where_}: {} has no family", op.text()));
    }
    let types: Vec<Ty> = op.modifiers.iter().filter_map(|m| Ty::parse(m)).collect();
    let stored: Vec<Ty> = op.info.types.iter().collect();
    if types.len() <= ptx_isa::Types::CAP && types != stored
        || types.last() != stored.last().copied().as_ref()
    {
        failures.push(format!("{where_}: {} types {stored:?}", op.text()));
    }
    let space = op.modifiers.iter().find_map(|m| Space::parse(m));
    if op.info.space != space {
        failures.push(format!("{where_}: {} space {:?}", op.text(), op.info.space));
    }
    let vec = if op.has_modifier(".v8") {
        8
    } else if op.has_modifier(".v4") {
        4
    } else if op.has_modifier(".v2") {
        2
    } else {
        1
    };
    if op.info.vec != vec {
        failures.push(format!("{where_}: {} vec {}", op.text(), op.info.vec));
    }
    let is_setp = matches!(op.info.family, FamilyId::Setp | FamilyId::Set);
    if is_setp && op.info.cmp.is_none() {
        failures.push(format!("{where_}: {} without comparison", op.text()));
    }
    let has_label = inst.operands.iter().any(|o| matches!(o, Operand::Label(_)));
    if has_label && op.info.family == FamilyId::Bra && !op.info.flags.is_branch() {
        failures.push(format!("{where_}: {} not a branch", op.text()));
    }
    let f = op.info.flags;
    if f.is_pure() && (f.has_side_effects() || f.loads() || f.stores()) {
        failures.push(format!("{where_}: {} flags {f:?}", op.text()));
    }
}

#[test]
fn every_instruction_decodes() {
    let mut failures = Vec::new();
    let mut count = 0usize;
    for (path, must_be_known) in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let parse = ptx_syntax::parse(&text);
        let (module, _) = ptx_ir::lower_module(&parse);
        for func in &module.functions {
            for (_, inst) in func.insts.iter() {
                count += 1;
                let where_ = format!("{}:{}", path.display(), func.name());
                check_inst(inst, &where_, must_be_known, &mut failures);
            }
            // Blocks end at terminators only.
            for &b in &func.layout {
                let insts = &func.blocks[b].insts;
                for &i in insts.iter().rev().skip(1) {
                    if func.insts[i].is_terminator() {
                        failures.push(format!("{}: terminator inside a block", path.display()));
                    }
                }
            }
        }
    }
    assert!(count > 1_000, "only {count} instructions");
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn opcode_new_decodes() {
    let op = ptx_ir::ir::Opcode::new("ld", vec![".global".into(), ".v2".into(), ".u64".into()]);
    assert_eq!(op.info.family, FamilyId::Ld);
    assert_eq!(op.family, Some("ld"));
    assert_eq!(op.info.vec, 2);
    assert_eq!(op.info.ty(), Some(Ty::U64));
    assert!(op.flags().loads() && !op.flags().is_pure());
    let unknown = ptx_ir::ir::Opcode::new("frob", vec![".x".into()]);
    assert_eq!(unknown.info.family, FamilyId::Unknown);
    assert!(unknown.flags().has_side_effects() && !unknown.flags().is_pure());
}
