//! The file split into chunks (`inputs::Chunk`) gives exactly the results of
//! the whole file: the same tree and the same diagnostics, on every `.ptx` of
//! `test-data/`, fresh and after a series of edits (which re-split only part
//! of the file), made with `set_file_text` (a new text) and with
//! `edit_file_text` (a range and its replacement).

use std::path::{Path, PathBuf};

use ptx_db::{
    chunks_clean, file_diagnostics, file_text, kernels, module_context, module_facts, parse,
    EditError, RootDatabase, SourceFile,
};

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            ptx_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "ptx") {
            out.push(path);
        }
    }
}

fn assert_same(db: &RootDatabase, file: SourceFile, text: &str, what: &str) {
    let joined: String = file
        .chunks(db)
        .iter()
        .map(|c| c.text(db).as_str())
        .collect();
    assert_eq!(joined, text, "{what}: chunks do not add up to the text");
    assert_eq!(file_text(db, file), text, "{what}: file_text");
    let whole = ptx_syntax::parse(text);
    assert_eq!(parse(db, file), &whole, "{what}: tree differs");
    let diags = ptx_syntax::check::diagnostics(&whole);
    assert_eq!(
        &file_diagnostics(db, file)[..],
        &diags[..],
        "{what}: diagnostics differ"
    );
    // What module level knows, computed on the skeleton, is that of the tree.
    let tree = whole.tree();
    assert_eq!(
        module_facts(db, file),
        &ptx_syntax::check::module_facts(&tree).0,
        "{what}: module facts differ"
    );
    assert_eq!(
        module_context(db, file),
        &ptx_ir::ModuleContext::new(&tree),
        "{what}: module context differs"
    );
    let names: Vec<String> = tree
        .functions()
        .filter(|f| f.body().is_some())
        .map(|f| f.name().map(|n| n.text()).unwrap_or_default())
        .collect();
    let kernel_names: Vec<String> = kernels(db, file)
        .iter()
        .map(|k| k.name(db).clone())
        .collect();
    assert_eq!(kernel_names, names, "{what}: kernels differ");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    "",
    "\n",
    "}",
    "{",
    ";",
    "// c\n",
    "/* c */",
    "\n.visible .entry z()\n{\n\tret;\n}\n",
    "\n.global .u32 g;\n",
    "\tadd.s32 %r1, %r1, 1;\n",
    ".func",
    "\n.version 8.0\n",
    "x",
];

#[test]
fn chunks_give_the_whole_file_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut files = Vec::new();
    ptx_files(&root, &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut clean = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let mut db = RootDatabase::new();
        let file = db.set_file_text("f.ptx", text.as_str());
        assert_same(&db, file, &text, &path.display().to_string());
        clean += usize::from(chunks_clean(&db, file));
        let mut text = text;
        for round in 0..12 {
            // Replace a random range (on char boundaries) by a snippet.
            let mut a = rng.next(text.len() + 1);
            while !text.is_char_boundary(a) {
                a -= 1;
            }
            let mut b = (a + rng.next(64)).min(text.len());
            while !text.is_char_boundary(b) {
                b -= 1;
            }
            let snippet = SNIPPETS[rng.next(SNIPPETS.len())];
            text.replace_range(a..b, snippet);
            if round % 2 == 0 {
                db.set_file_text("f.ptx", text.as_str());
            } else {
                db.edit_file_text(file, a..b, snippet).unwrap();
            }
            assert_same(
                &db,
                file,
                &text,
                &format!("{} edit {round}", path.display()),
            );
        }
    }
    assert!(clean > 0, "no file took the chunked path");
}

#[test]
fn edits_outside_the_text_or_inside_a_character_are_refused() {
    let mut db = RootDatabase::new();
    let text = ".version 8.0\n// é\n.target sm_80\n";
    let file = db.set_file_text("f.ptx", text);
    let len = text.len();
    assert_eq!(
        db.edit_file_text(file, 3..len + 1, "x"),
        Err(EditError::OutOfBounds {
            range: 3..len + 1,
            len
        })
    );
    let inside = text.find('é').unwrap() + 1;
    assert_eq!(
        db.edit_file_text(file, inside..inside, "x"),
        Err(EditError::NotCharBoundary { offset: inside })
    );
    assert_eq!(file_text(&db, file), text);
    // At the very end, and an edit that changes nothing.
    db.edit_file_text(file, len..len, "// end\n").unwrap();
    db.edit_file_text(file, 0..1, ".").unwrap();
    assert_eq!(*file_text(&db, file), format!("{text}// end\n"));
    // An empty file, then text into it.
    let empty = db.set_file_text("e.ptx", "");
    db.edit_file_text(empty, 0..0, text).unwrap();
    assert_same(&db, empty, text, "filled");
    db.edit_file_text(empty, 0..text.len(), "").unwrap();
    assert_same(&db, empty, "", "emptied");
}

#[test]
fn an_edit_inside_a_number_reuses_the_previous_tree() {
    let mut db = RootDatabase::new();
    let text = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 8;\n\tret;\n}\n";
    let file = db.set_file_text("f.ptx", text);
    assert_same(&db, file, text, "fresh");
    let at = text.find("8;").unwrap();
    db.edit_file_text(file, at..at + 1, "90").unwrap();
    let edited = text.replace("8;", "90;");
    let reparsed = file
        .chunks(&db)
        .iter()
        .filter(|c| c.reparsed(&db).is_some())
        .count();
    assert_eq!(
        reparsed, 1,
        "the edited chunk's tree comes from the old one"
    );
    assert_same(&db, file, &edited, "a number edited");
    // An edit the token path refuses (a new line in the body) parses again.
    let at = edited.find("\tret").unwrap();
    db.edit_file_text(file, at..at, "\tret;\n").unwrap();
    assert!(file.chunks(&db).iter().all(|c| c.reparsed(&db).is_none()));
    let mut again = edited.clone();
    again.insert_str(at, "\tret;\n");
    assert_same(&db, file, &again, "a line added");
}

#[test]
fn module_diagnostics_after_a_body_point_into_the_file() {
    // The second definition of `k` is reported by the module-level check,
    // which runs on the skeleton (bodies emptied): its range must be that of
    // the file.
    let text = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 8;\n\tret;\n}\n\n.visible .entry k()\n{\n\tret;\n}\n.version 8.0\n";
    let mut db = RootDatabase::new();
    let file = db.set_file_text("f.ptx", text);
    let second = text.rfind("k()").unwrap();
    let diags = file_diagnostics(&db, file);
    assert_eq!(diags.len(), 1);
    assert_eq!(usize::from(diags[0].range.start()), second);
    assert_same(&db, file, text, "duplicate after a body");
    let at = text.find("8;").unwrap();
    db.edit_file_text(file, at..at + 1, "12345").unwrap();
    assert_same(&db, file, &text.replace("8;", "12345;"), "body grown");
}
