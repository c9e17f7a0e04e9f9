//! While no phase is implemented, the pipeline's output is exactly what
//! `ptx-ir` emits for the whole module: per-kernel lowering, the trivia
//! firewall, and the stitching of `file_ptx` lose and reorder nothing.

use std::path::PathBuf;

use ptx_db::{build_file, RootDatabase};

fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data")
}

#[test]
fn pipeline_output_equals_emit_module_on_test_data() {
    let mut db = RootDatabase::new();
    let mut count = 0;
    for dir in ["examples", "families", "ir"] {
        let Ok(entries) = std::fs::read_dir(test_data().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let file = db.set_file_text(&path, text.as_str());
            let built = build_file(&db, file);
            let Some(output) = built.text else {
                panic!("{}: {:?}", path.display(), built.diagnostics);
            };
            let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
            assert_eq!(&*output, ptx_ir::emit_module(&module), "{}", path.display());
            count += 1;
        }
    }
    assert!(count >= 20, "only {count} files");
}
