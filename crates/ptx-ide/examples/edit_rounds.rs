//! The language server's work for a one-digit edit, in one thread and
//! without LSP: set the text, the file's diagnostics, the inlay hints of the
//! edited function. Prints each round's time, per step, so the first edit of
//! a function can be told from the later ones:
//! `cargo run --release -p ptx-ide --example edit_rounds FILE [ROUNDS [LINE...]]`.

use std::path::Path;
use std::time::Instant;

use ptx_ide::{AnalysisHost, TextRange, TextSize};

/// The allocator of the `ptxopt` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: edit_rounds FILE [ROUNDS]");
    let rounds: usize = args.next().map_or(12, |n| n.parse().expect("ROUNDS"));
    let mut text = std::fs::read_to_string(&path).expect("read");
    let path = Path::new(&path);
    // The digit of the first `add.s32 ..., N;` of a few functions.
    let mut edits = Vec::new();
    let mut from = 0;
    while let Some(at) = [".entry ", ".func "]
        .iter()
        .filter_map(|k| text[from..].find(k))
        .min()
    {
        let start = from + at;
        let end = text[start..].find("\n}").map_or(text.len(), |e| start + e);
        // The last digit of the first `add`/`mov` ending in a decimal
        // immediate (as `cargo xtask bench-lsp` picks its edits).
        let mut line_start = start;
        for line in text[start..end].split_inclusive('\n') {
            let code = line.trim_start();
            let semi = line.find(';');
            if ["add.s32", "add.u32", "mov.u32", "add.s64", "mov.u64"]
                .iter()
                .any(|op| code.starts_with(op))
                && semi.is_some_and(|s| s > 0 && line.as_bytes()[s - 1].is_ascii_digit())
            {
                edits.push((
                    line_start + semi.unwrap() - 1,
                    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
                ));
                break;
            }
            line_start += line.len();
        }
        from = end;
    }
    edits.sort_by_key(|(_, r)| std::cmp::Reverse(r.len()));
    edits.truncate(4);
    // `LINE...` (1-based): edit, in turn, the last digit before the `;` of
    // each line (the hints asked for that line's function).
    let lines: Vec<usize> = args.map(|l| l.parse().expect("LINE")).collect();
    if !lines.is_empty() {
        edits.clear();
    }
    for line in lines {
        let start: usize = text
            .split_inclusive('\n')
            .take(line - 1)
            .map(str::len)
            .sum();
        let semi = start + text[start..].find(';').expect("a `;` on LINE");
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from(semi as u32));
        edits.push((semi - 1, range));
    }
    let mut host = AnalysisHost::new();
    let t = Instant::now();
    host.set_file_text(path, text.clone());
    let n = host.analysis().diagnostics(path).unwrap().len();
    println!(
        "open: {:.2} ms ({n} diagnostics)",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let hints = host
        .analysis()
        .inlay_hints_in(path, edits[0].1)
        .unwrap()
        .len();
    println!(
        "first hints: {:.2} ms ({hints})",
        t.elapsed().as_secs_f64() * 1e3
    );
    for round in 0..rounds {
        let (at, range) = edits[round % edits.len()];
        let digit = text.as_bytes()[at] ^ 1;
        text.replace_range(at..at + 1, &char::from(digit).to_string());
        let [t0, t1, t2, t3, t4] = round_steps(&mut host, path, &text, range);
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
        println!(
            "round {round:2} function {}: set {:6.2}  index {:5.2}  diagnostics {:6.2}  hints {:6.2}  total {:6.2} ms",
            round % edits.len(),
            ms(t0, t1),
            ms(t1, t2),
            ms(t2, t3),
            ms(t3, t4),
            ms(t0, t4)
        );
    }
}

/// One round (its own function, so that `valgrind --tool=callgrind
/// --dump-after='edit_rounds::round_steps*'` dumps each round's counts).
#[inline(never)]
fn round_steps(host: &mut AnalysisHost, path: &Path, text: &str, range: TextRange) -> [Instant; 5] {
    let t0 = Instant::now();
    host.set_file_text(path, text.to_string());
    let t1 = Instant::now();
    let _ = host.line_index(path);
    let t2 = Instant::now();
    let a = host.analysis();
    a.diagnostics(path).unwrap();
    let t3 = Instant::now();
    a.inlay_hints_in(path, range).unwrap();
    let t4 = Instant::now();
    if std::env::var_os("EDIT_ROUNDS_LENSES").is_some() {
        a.code_lenses(path).unwrap();
    }
    [t0, t1, t2, t3, t4]
}
