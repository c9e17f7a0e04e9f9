//! Computing one file's queries on several threads: a cold `ptxopt analyze`
//! or `build` of a large file spends its time in per-chunk parsing and checking
//! and in per-kernel lowering and analyses (or phases), which are independent
//! of each other, so [`warm_file`] runs them on clones of the database (salsa shares
//! the memoized results between clones; a query one thread is computing makes
//! another that needs it wait, it is never computed twice). The caller then
//! reads every result from its own handle as usual, now memoized: the order
//! and content of what it prints do not depend on the number of threads.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::inputs::SourceFile;
use crate::queries::{
    chunk_check, chunk_parse, chunks_clean, has_errors, kernels, module_facts, Kernel,
};
use crate::RootDatabase;

/// Computes, on `threads` threads, the parse and check of every chunk of
/// `file`, then, when the file has no error, `per_kernel` for each of its
/// kernels (largest first, so that the threads finish together). A file with
/// errors is neither lowered nor analyzed here, as `build` and `analyze` do not
/// go past its diagnostics. Does nothing for one thread: the caller's own
/// queries compute the same on demand.
pub fn warm_file(
    db: &RootDatabase,
    file: SourceFile,
    threads: usize,
    per_kernel: &(dyn Fn(&RootDatabase, Kernel<'_>) + Sync),
) {
    if threads <= 1 {
        return;
    }
    let mut chunks = file.chunks(db).to_vec();
    // Largest first, so that the threads finish together.
    chunks.sort_by_key(|c| std::cmp::Reverse(c.text(db).len()));
    run_parallel(db, threads, chunks.len(), &|db, i| {
        chunk_parse(db, chunks[i]);
    });
    if !chunks_clean(db, file) {
        // The file is parsed and checked as a whole (see `file_diagnostics`).
        return;
    }
    // What every check reads, before the threads need it.
    module_facts(db, file);
    run_parallel(db, threads, chunks.len(), &|db, i| {
        chunk_check(db, chunks[i]);
    });
    if has_errors(db, file) {
        return;
    }
    let all = kernels(db, file);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(u32::from(all[i].syntax(db).text_len())));
    run_parallel(db, threads, order.len(), &|db, i| {
        per_kernel(db, kernels(db, file)[order[i]]);
    });
}

/// Runs `work(db, i)` for `i` in `0..n` on up to `threads` clones of `db`.
fn run_parallel(
    db: &RootDatabase,
    threads: usize,
    n: usize,
    work: &(dyn Fn(&RootDatabase, usize) + Sync),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            let db = db.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                work(&db, i);
            });
        }
    });
}
