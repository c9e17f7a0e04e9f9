//! Round trip parse → lower → emit over real PTX: the shared corpus (zluda
//! `spirv_run/*.ptx` that ptxas accepts, without the 32-bit `32/` folder; the
//! dealii module) and `test-data/{families,examples,ir}/*.ptx` (without the
//! `.emitted.ptx` snapshots).
//!
//! - Lowering reports nothing on these valid inputs.
//! - Emitting is a fixpoint: lowering and emitting the output again gives the
//!   same text (and the output parses without errors).
//! - ptxas accepts every re-emitted file for the file's `.target` (at least sm_75).
//! - `ptxas -v` reports the same "Used N registers" for the original and the
//!   re-emitted file for at least 99% of the entry functions.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::{
    arch_for, corpus_dir, ptx_files, ptxas, register_counts, run_ptxas, test_data, zluda_rejected,
};

struct Input {
    /// `families/integer.ptx`, `zluda/add.ptx`, ...
    name: String,
    text: String,
}

fn inputs() -> &'static [Input] {
    static INPUTS: OnceLock<Vec<Input>> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let mut files: Vec<(String, PathBuf)> = Vec::new();
        for dir in ["families", "examples", "frontend", "ir"] {
            let paths = ptx_files(&test_data().join(dir)).into_iter();
            let paths = paths.filter(|p| !p.to_string_lossy().ends_with(".emitted.ptx"));
            files.extend(paths.map(|p| (dir.to_string(), p)));
        }
        if let Some(corpus) = corpus_dir() {
            let rejected = zluda_rejected(&corpus);
            let zluda = ptx_files(&corpus.join("zluda/spirv_run"));
            files.extend(
                zluda
                    .into_iter()
                    .filter(|p| !rejected.iter().any(|r| p.ends_with(r)))
                    .map(|p| ("zluda".to_string(), p)),
            );
            files.extend(
                ptx_files(&corpus.join("dealii"))
                    .into_iter()
                    .map(|p| ("dealii".to_string(), p)),
            );
        }
        files
            .into_iter()
            .map(|(dir, path)| Input {
                name: format!("{dir}/{}", path.file_name().unwrap().to_string_lossy()),
                text: std::fs::read_to_string(&path).unwrap(),
            })
            .collect()
    })
}

fn lower_and_emit(text: &str) -> (String, Vec<String>) {
    let parse = ptx_syntax::parse(text);
    let (module, errors) = ptx_ir::lower_module(&parse);
    let errors = errors.iter().map(|e| e.to_string()).collect();
    (ptx_ir::emit_module(&module), errors)
}

fn emitted(input: &Input) -> &'static str {
    static EMITTED: OnceLock<Vec<String>> = OnceLock::new();
    let all = EMITTED.get_or_init(|| inputs().iter().map(|i| lower_and_emit(&i.text).0).collect());
    let index = inputs()
        .iter()
        .position(|i| std::ptr::eq(i, input))
        .unwrap();
    &all[index]
}

#[test]
fn lowering_reports_nothing_on_valid_inputs() {
    let mut failures = Vec::new();
    for input in inputs() {
        let (_, errors) = lower_and_emit(&input.text);
        failures.extend(
            errors
                .iter()
                .take(3)
                .map(|e| format!("{}: {e}", input.name)),
        );
    }
    assert!(
        failures.is_empty(),
        "lowering errors:\n{}",
        failures.join("\n")
    );
}

#[test]
fn emitting_again_gives_the_same_text() {
    let mut failures = Vec::new();
    for input in inputs() {
        let first = emitted(input);
        let parse = ptx_syntax::parse(first);
        if let Some(e) = parse.errors().first() {
            failures.push(format!(
                "{}: re-emitted text does not parse: {:?} {}",
                input.name, e.range, e.message
            ));
            continue;
        }
        let (second, _) = lower_and_emit(first);
        if second != first {
            failures.push(format!(
                "{}: {}",
                input.name,
                first_difference(first, &second)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "not a fixpoint:\n{}",
        failures.join("\n")
    );
}

fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let line = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    format!(
        "line {}: first {:?}, then {:?}",
        line + 1,
        la.get(line).unwrap_or(&"<end>"),
        lb.get(line).unwrap_or(&"<end>")
    )
}

/// ptxas on the original and on the re-emitted text of one input.
struct Assembled {
    name: String,
    original: Result<String, String>,
    emitted: Result<String, String>,
}

/// Runs ptxas over every input (two at a time); `None` when ptxas is absent.
fn assembled() -> Option<&'static [Assembled]> {
    static RESULTS: OnceLock<Option<Vec<Assembled>>> = OnceLock::new();
    RESULTS
        .get_or_init(|| {
            let ptxas = ptxas()?;
            let dir =
                std::env::temp_dir().join(format!("ptx-ir-round-trip-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let results = run_in_parallel(inputs(), 2, |input| assemble(&ptxas, &dir, input));
            let _ = std::fs::remove_dir_all(&dir);
            Some(results)
        })
        .as_deref()
}

fn assemble(ptxas: &Path, dir: &Path, input: &Input) -> Assembled {
    let stem = input.name.replace(['/', '.'], "_");
    let arch = arch_for(&input.text);
    Assembled {
        name: input.name.clone(),
        original: write_and_assemble(
            ptxas,
            &dir.join(format!("{stem}.orig.ptx")),
            &input.text,
            &arch,
        ),
        emitted: write_and_assemble(
            ptxas,
            &dir.join(format!("{stem}.ir.ptx")),
            emitted(input),
            &arch,
        ),
    }
}

/// Writes `text` to `path` and runs ptxas on it.
fn write_and_assemble(ptxas: &Path, path: &Path, text: &str, arch: &str) -> Result<String, String> {
    std::fs::write(path, text).unwrap();
    run_ptxas(ptxas, path, arch)
}

fn run_in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        done.push((i, f(item)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[test]
fn ptxas_accepts_every_re_emitted_file() {
    let Some(results) = assembled() else { return };
    let mut accepted = 0;
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for r in results {
        match (&r.original, &r.emitted) {
            (Err(_), _) => skipped.push(&*r.name),
            (Ok(_), Ok(_)) => accepted += 1,
            (Ok(_), Err(e)) => failures.push(format!("{}:\n{}", r.name, first_lines(e, 4))),
        }
    }
    let total = results.len() - skipped.len();
    eprintln!("ptxas accepts {accepted} of {total} re-emitted files (originals rejected, skipped: {skipped:?})");
    assert!(
        failures.is_empty(),
        "ptxas rejects {} re-emitted files:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        skipped.iter().all(|n| n.starts_with("zluda/")),
        "ptxas rejects test-data or dealii originals: {skipped:?}"
    );
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines()
        .filter(|l| !l.contains("ptxas info"))
        .take(n)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn ptxas_register_counts_match() {
    let Some(results) = assembled() else { return };
    let mut total = 0usize;
    let mut mismatches = Vec::new();
    for r in results {
        let (Ok(original), Ok(emitted)) = (&r.original, &r.emitted) else {
            continue;
        };
        let (before, after) = (register_counts(original), register_counts(emitted));
        for (function, n) in &before {
            total += 1;
            if after.get(function) != Some(n) {
                mismatches.push(format!(
                    "{} {function}: {n} -> {:?}",
                    r.name,
                    after.get(function)
                ));
            }
        }
    }
    let share = if total == 0 {
        1.0
    } else {
        1.0 - mismatches.len() as f64 / total as f64
    };
    eprintln!(
        "register counts match for {} of {total} functions ({:.2}%); mismatches:\n{}",
        total - mismatches.len(),
        share * 100.0,
        mismatches.join("\n")
    );
    assert!(
        share >= 0.99,
        "register counts match for only {:.2}% of functions",
        share * 100.0
    );
}
