//! The warm edit of `cargo xtask bench-analyze` (b), for profiling: analyze a
//! file, then change one immediate back and forth and re-analyze, each round
//! in [`edit_round`] (`valgrind --tool=callgrind
//! --toggle-collect='warm_edit::edit_round*'`):
//! `cargo run --release -p ptx-db --example warm_edit FILE [ROUNDS]`.

use std::path::Path;
use std::time::Instant;

use ptx_db::RootDatabase;

/// The allocator of the `ptxopt` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[inline(never)]
fn first_round(db: &mut RootDatabase, path: &Path, text: &str) {
    let file = db.set_file_text(path, text);
    let diagnostics = ptx_db::file_diagnostics(db, file).len();
    ptx_db::analysis::analyze_file(db, file);
    println!(
        "{} functions, {diagnostics} diagnostics",
        ptx_db::kernels(db, file).len()
    );
}

#[inline(never)]
fn edit_round(db: &mut RootDatabase, path: &Path, text: &str) {
    let file = db.set_file_text(path, text);
    std::hint::black_box(ptx_db::file_diagnostics(db, file).len());
    ptx_db::analysis::analyze_file(db, file);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: warm_edit FILE [ROUNDS]");
    let rounds: usize = args.next().map_or(10, |n| n.parse().expect("ROUNDS"));
    let text = std::fs::read_to_string(&path).expect("read");
    let path = Path::new(&path);
    // The edit of `bench-analyze`: the last digit of the first `add`/`mov`
    // whose last operand is a decimal immediate, inside a body.
    let body = text.find('{').expect("a function body");
    let mut at = None;
    let mut offset = body;
    for line in text[body..].split_inclusive('\n') {
        let t = line.trim_start();
        if ["add.s32", "add.u32", "mov.u32", "add.s64"]
            .iter()
            .any(|op| t.starts_with(op))
        {
            if let Some(semi) = line.find(';') {
                let b = line.as_bytes();
                if semi > 0 && b[semi - 1].is_ascii_digit() {
                    let digits_start = line[..semi]
                        .trim_end_matches(|c: char| c.is_ascii_digit())
                        .len();
                    if line[..digits_start].trim_end().ends_with(',') {
                        at = Some(offset + semi - 1);
                        break;
                    }
                }
            }
        }
        offset += line.len();
    }
    let at = at.expect("an add/mov with an immediate");
    println!("edit on line {}", text[..at].matches('\n').count() + 1);
    let mut edited = text.clone();
    let digit = edited.as_bytes()[at] ^ 1;
    edited.replace_range(at..at + 1, &char::from(digit).to_string());
    let texts = [text, edited];
    let mut db = RootDatabase::new();
    first_round(&mut db, path, &texts[0]);
    let mut times = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        edit_round(&mut db, path, &texts[round % 2]);
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "warm edit: median {:.3} ms over {rounds} rounds",
        times[rounds / 2]
    );
}
