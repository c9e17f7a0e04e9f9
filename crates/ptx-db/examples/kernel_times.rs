//! Times each query of the largest kernel of a file, cold and after a
//! one-digit edit in it (for finding where an edit's latency goes):
//! `cargo run --release -p ptx-db --example kernel_times FILE`.

/// The allocator of the `ptxopt` binary, so the profile is the one users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use ptx_db::analysis as a;
use ptx_db::RootDatabase;

#[inline(never)]
fn time<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let r = f();
    println!(
        "  {label:<16} {:8.3} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    r
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: kernel_times FILE.ptx");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut db = RootDatabase::new();
    let file = db.set_file_text(std::path::Path::new(&path), text.as_str());
    ptx_db::file_diagnostics(&db, file);
    a::analyze_file(&db, file);
    let kernels = ptx_db::kernels(&db, file).clone();
    let big = *kernels
        .iter()
        .max_by_key(|k| ptx_db::kernel_ir(&db, **k).insts.len())
        .unwrap();
    let name = big.name(&db).clone();
    println!(
        "largest kernel: {} instructions",
        ptx_db::kernel_ir(&db, big).insts.len()
    );
    // One digit of an immediate in its body.
    let start = text.find(&format!("{name}(")).unwrap();
    let at = start + text[start..].find("add.s32").unwrap();
    let semi = at + text[at..].find(';').unwrap();
    let mut edited = text.clone();
    for round in 0..3 {
        let digit = edited.as_bytes()[semi - 1];
        let new = if digit.is_ascii_digit() {
            (digit ^ 1) as char
        } else {
            '1'
        };
        edited.replace_range(semi - 1..semi, &new.to_string());
        println!("edit {round}:");
        time("set_file_text", || {
            db.set_file_text(std::path::Path::new(&path), edited.as_str())
        });
        time("chunks_clean", || ptx_db::chunks_clean(&db, file));
        time("parse", || ptx_db::parse(&db, file).errors().len());
        time("module_facts", || ptx_db::module_facts(&db, file).clone());
        time("file_diagnostics", || {
            ptx_db::file_diagnostics(&db, file).len()
        });
        time("module_context", || {
            ptx_db::module_context(&db, file).clone()
        });
        let kernels = time("kernels", || ptx_db::kernels(&db, file).clone());
        let k = *kernels.iter().find(|k| *k.name(&db) == name).unwrap();
        time("kernel_lowered", || {
            ptx_db::kernel_lowered(&db, k).function.insts.len()
        });
        time("kernel_ir", || ptx_db::kernel_ir(&db, k).insts.len());
        time("cfg", || a::cfg(&db, k).clone());
        time("dominators", || a::dominators(&db, k).clone());
        time("post_dominators", || a::post_dominators(&db, k).clone());
        time("loops", || a::loops(&db, k).clone());
        time("reaching_defs", || a::reaching_defs(&db, k).clone());
        time("trip_counts", || a::trip_counts(&db, k).clone());
        time("liveness", || a::liveness(&db, k).clone());
        time("reg_pressure", || a::reg_pressure(&db, k).clone());
        time("latency", || a::latency(&db, k).clone());
        time("loop_mii", || a::loop_mii(&db, k).clone());
        time("value_numbers", || a::value_numbers(&db, k).clone());
        time("ptxas_unrolls", || a::ptxas_unrolls(&db, k).len());
        time("reg_est_source", || *a::reg_estimate_source(&db, k));
    }
}
