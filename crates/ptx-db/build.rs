//! Generates one `#[test]` per pass filetest (`test-data/passes/<phase>/*.ptx`)
//! into `$OUT_DIR/pass_filetests.rs`, included by `tests/passes.rs`, so that
//! one failing file does not hide the others.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/passes");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if let Ok(dirs) = std::fs::read_dir(&root) {
        for dir in dirs.flatten() {
            let phase = dir.path();
            println!("cargo:rerun-if-changed={}", phase.display());
            let Ok(entries) = std::fs::read_dir(&phase) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "ptx") {
                    if let Ok(rel) = path.strip_prefix(&root) {
                        files.push(rel.to_string_lossy().replace('\\', "/"));
                    }
                }
            }
        }
    }
    files.sort();
    let mut out = String::new();
    for rel in &files {
        let name: String = rel
            .trim_end_matches(".ptx")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "#[test]\nfn {name}() {{\n    run_filetest({rel:?});\n}}\n"
        );
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("pass_filetests.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        println!("cargo:warning=cannot write {}: {e}", dest.display());
    }
}
