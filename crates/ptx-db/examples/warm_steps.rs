//! Where the time of a warm edit goes, query by query: analyze a file, then
//! change the digit before the `;` on line LINE back and forth and time each
//! file-level step after it (the last two: every phase of every kernel, then
//! the file's remarks with positions, what the language server adds) (each step is timed after the previous ones are
//! memoized; medians of 41 rounds).
//!
//! `cargo run --release -p ptx-db --example warm_steps FILE LINE [MODE]`, MODE:
//! - `edit` (default): the change given as a range (`edit_file_text`, what the
//!   language server and `cargo xtask bench-analyze` do);
//! - `whole`: the change given as the whole new text (`set_file_text`);
//! - `verify`: another file is changed instead, so every step only
//!   re-validates its memoized results (salsa's cost alone).

use std::path::Path;
use std::time::Instant;

use ptx_db::RootDatabase;

mod edit_site;

/// The allocator of the `ptxopt` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const STEPS: [&str; 11] = [
    "set/edit",
    "chunks_clean",
    "parse",
    "module_check",
    "file_diagnostics",
    "kernels",
    "module_context",
    "kernel_ir",
    "analyses",
    "phases",
    "file_remarks",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: warm_steps FILE LINE [edit|whole|verify]";
    let path = args.next().expect(usage);
    let line: usize = args.next().and_then(|n| n.parse().ok()).expect(usage);
    let mode = args.next().unwrap_or_else(|| "edit".to_string());
    assert!(
        matches!(mode.as_str(), "edit" | "whole" | "verify"),
        "{usage}"
    );
    let text = std::fs::read_to_string(&path).expect("read");
    let path = Path::new(&path);
    let (at, digits) = edit_site::digit_before_semicolon(&text, line);
    let texts = [text.clone(), {
        let mut edited = text.clone();
        edited.replace_range(at..at + 1, &digits[1]);
        edited
    }];

    let mut db = RootDatabase::new();
    let file = db.set_file_text(path, text.as_str());
    ptx_db::file_diagnostics(&db, file);
    ptx_db::analysis::analyze_file(&db, file);
    let rounds = 41;
    let mut times = vec![Vec::new(); STEPS.len()];
    for round in 1..=rounds {
        let whole = texts[round % 2].clone();
        let mut t = Instant::now();
        let mut lap = |step: usize| {
            times[step].push(t.elapsed().as_secs_f64() * 1e3);
            t = Instant::now();
        };
        match mode.as_str() {
            "edit" => db
                .edit_file_text(file, at..at + 1, &digits[round % 2])
                .unwrap(),
            "whole" => {
                db.set_file_text(path, whole);
            }
            _ => {
                db.set_file_text("other.ptx", format!("// {round}"));
            }
        }
        lap(0);
        ptx_db::chunks_clean(&db, file);
        lap(1);
        ptx_db::parse(&db, file);
        lap(2);
        ptx_db::module_check(&db, file);
        lap(3);
        ptx_db::file_diagnostics(&db, file);
        lap(4);
        ptx_db::kernels(&db, file);
        lap(5);
        ptx_db::module_context(&db, file);
        lap(6);
        for &kernel in ptx_db::kernels(&db, file) {
            ptx_db::kernel_ir(&db, kernel);
        }
        lap(7);
        ptx_db::analysis::analyze_file(&db, file);
        lap(8);
        for &kernel in ptx_db::kernels(&db, file) {
            ptx_db::kernel_remarks(&db, kernel);
        }
        lap(9);
        ptx_db::file_remarks(&db, file);
        lap(10);
    }
    let mut total = 0.0;
    for (name, v) in STEPS.iter().zip(&mut times) {
        v.sort_by(f64::total_cmp);
        let median = v[v.len() / 2];
        total += median;
        println!("{name:>16} {median:7.3} ms");
    }
    println!("{:>16} {total:7.3} ms (sum of the medians)", "total");
}
