//! Times each phase of the pipeline over every kernel of a file, cold, in
//! pipeline order (each phase's time includes the analyses it is first to
//! ask for): `cargo run --release -p ptx-db --example phase_times FILE`.

/// The allocator of the `ptxopt` binary, so the profile is the one users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use ptx_db::RootDatabase;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: phase_times FILE.ptx");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut db = RootDatabase::new();
    let file = db.set_file_text(std::path::Path::new(&path), text.as_str());
    let start = Instant::now();
    let kernels = ptx_db::kernels(&db, file).clone();
    for &k in &kernels {
        std::hint::black_box(ptx_db::kernel_ir(&db, k));
    }
    println!(
        "{:<40} {:8.2} ms",
        "parse + lower",
        start.elapsed().as_secs_f64() * 1e3
    );
    let mut rows = Vec::new();
    for info in ptx_db::PHASES.iter() {
        let t = Instant::now();
        for &k in &kernels {
            std::hint::black_box(ptx_db::ir_after(&db, k, info.id));
        }
        rows.push((t.elapsed().as_secs_f64() * 1e3, info.id as usize, info.name));
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, id, name) in rows.iter().take(25) {
        println!("{id:>3} {name:<36} {ms:8.2} ms {:5.1}%", 100.0 * ms / total);
    }
    println!("pipeline total {total:.2} ms");
    std::mem::forget(db);
}
