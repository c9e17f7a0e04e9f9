//! Wall time of each stage of a cold build of one file on one thread:
//! parse, check, lower, the phase pipeline, emitting the output text
//! (`cargo run --release -p ptx-db --example stage_times FILE`), best of
//! five runs, each in a new database.

/// The allocator of the `ptxopt` binary, so the times are the ones users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use ptx_db::RootDatabase;

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: stage_times FILE.ptx");
    let text = std::fs::read_to_string(&path).expect("read");
    let labels = ["parse", "check", "lower", "pipeline", "emit"];
    let mut best = [f64::MAX; 5];
    for _ in 0..5 {
        let mut db = RootDatabase::new();
        let file = db.set_file_text(std::path::Path::new(&path), text.as_str());
        let mut t = Instant::now();
        let mut lap = |i: usize, best: &mut [f64; 5]| {
            let ms = t.elapsed().as_secs_f64() * 1e3;
            best[i] = best[i].min(ms);
            t = Instant::now();
        };
        std::hint::black_box(ptx_db::parse(&db, file));
        lap(0, &mut best);
        std::hint::black_box(ptx_db::file_diagnostics(&db, file).len());
        lap(1, &mut best);
        let kernels = ptx_db::kernels(&db, file).clone();
        for &k in &kernels {
            std::hint::black_box(ptx_db::kernel_ir(&db, k));
        }
        lap(2, &mut best);
        for &k in &kernels {
            std::hint::black_box(ptx_db::kernel_ptx(&db, k));
        }
        lap(3, &mut best);
        std::hint::black_box(ptx_db::build_file(&db, file).text.is_some());
        lap(4, &mut best);
        std::mem::forget(db);
    }
    let total: f64 = best.iter().sum();
    for (label, ms) in labels.iter().zip(best) {
        println!("{label:<10} {ms:8.2} ms {:5.1}%", 100.0 * ms / total);
    }
    println!("total      {total:8.2} ms");
}
