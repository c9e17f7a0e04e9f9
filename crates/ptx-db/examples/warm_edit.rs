//! The warm edit of `cargo xtask bench-analyze` (b), for profiling: analyze a
//! file, then change the digit before the `;` on line LINE back and forth
//! (with `edit_file_text`, as bench-analyze does) and re-analyze, each round in [`edit_round`] (`valgrind --tool=callgrind
//! --toggle-collect='warm_edit::edit_round*'`). bench-analyze prints the line
//! it edits (4488 on the dealii module):
//! `cargo run --release -p ptx-db --example warm_edit FILE LINE [ROUNDS]`.

use std::path::Path;
use std::time::Instant;

use ptx_db::RootDatabase;

mod edit_site;

/// The allocator of the `ptxopt` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[inline(never)]
fn first_round(db: &mut RootDatabase, path: &Path, text: &str) -> ptx_db::SourceFile {
    let file = db.set_file_text(path, text);
    let diagnostics = ptx_db::file_diagnostics(db, file).len();
    ptx_db::analysis::analyze_file(db, file);
    println!(
        "{} functions, {diagnostics} diagnostics",
        ptx_db::kernels(db, file).len()
    );
    file
}

#[inline(never)]
fn edit_round(db: &mut RootDatabase, file: ptx_db::SourceFile, at: usize, digit: &str) {
    db.edit_file_text(file, at..at + 1, digit)
        .expect("the digit is in the text");
    std::hint::black_box(ptx_db::file_diagnostics(db, file).len());
    ptx_db::analysis::analyze_file(db, file);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: warm_edit FILE LINE [ROUNDS]";
    let path = args.next().expect(usage);
    let line: usize = args.next().and_then(|n| n.parse().ok()).expect(usage);
    let rounds: usize = args.next().map_or(10, |n| n.parse().expect("ROUNDS"));
    let text = std::fs::read_to_string(&path).expect("read");
    let path = Path::new(&path);
    let (at, digits) = edit_site::digit_before_semicolon(&text, line);
    let mut db = RootDatabase::new();
    let file = first_round(&mut db, path, &text);
    let mut times = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        edit_round(&mut db, file, at, &digits[round % 2]);
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "warm edit: median {:.3} ms over {rounds} rounds",
        times[rounds / 2]
    );
}
