//! Runs the cold analysis of one file once, stage by stage, for profiling
//! under callgrind (each stage is its own non-inlined function):
//! `valgrind --tool=callgrind target/release/examples/stages FILE`.

/// The allocator of the `ptxopt` binary, so the profile is the one users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use ptx_db::RootDatabase;

#[inline(never)]
fn stage_parse(db: &RootDatabase, file: ptx_db::SourceFile) {
    std::hint::black_box(ptx_db::parse(db, file));
}

#[inline(never)]
fn stage_check(db: &RootDatabase, file: ptx_db::SourceFile) {
    std::hint::black_box(ptx_db::file_diagnostics(db, file).len());
}

#[inline(never)]
fn stage_lower(db: &RootDatabase, file: ptx_db::SourceFile) {
    for &k in ptx_db::kernels(db, file) {
        std::hint::black_box(ptx_db::kernel_ir(db, k));
    }
}

#[inline(never)]
fn stage_analyses(db: &RootDatabase, file: ptx_db::SourceFile) {
    ptx_db::analysis::analyze_file(db, file);
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: stages FILE.ptx");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut db = RootDatabase::new();
    let file = db.set_file_text(std::path::Path::new(&path), text.as_str());
    stage_parse(&db, file);
    stage_check(&db, file);
    stage_lower(&db, file);
    stage_analyses(&db, file);
    std::mem::forget(db);
}
