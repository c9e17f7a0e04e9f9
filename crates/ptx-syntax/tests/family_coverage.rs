//! test-data covers every instruction family of the table: each family of
//! `ptx_isa::FAMILIES` is used by at least one instruction in
//! `test-data/families/*.ptx` (all of which ptxas accepts; see ptxas_oracle).

use std::collections::BTreeSet;
use std::path::PathBuf;

use ptx_syntax::ast::AstNode;

#[test]
fn every_family_is_used_in_test_data() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/families");
    let mut used = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ptx") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        for inst in parse
            .syntax_node()
            .descendants()
            .filter_map(ptx_syntax::ast::Instruction::cast)
        {
            let Some(opcode) = inst.opcode() else {
                continue;
            };
            let Some(name) = opcode.name() else { continue };
            let mods: Vec<String> = opcode.modifiers().map(|m| m.text().to_string()).collect();
            let mods: Vec<&str> = mods.iter().map(String::as_str).collect();
            if let Some((family, _)) = ptx_isa::lookup(name.text(), &mods) {
                used.insert(family.name);
            }
        }
    }
    let missing: Vec<&str> = ptx_isa::FAMILIES
        .iter()
        .map(|f| f.name)
        .filter(|n| !used.contains(n))
        .collect();
    assert!(
        missing.is_empty(),
        "{} families unused in test-data/families: {missing:?}",
        missing.len()
    );
}
