//! Every file `check` accepts lowers (issue 10: a register used before its
//! `.reg` line, an unknown parameter state space, call arguments that do not
//! match the callee passed the checks and failed in lowering). On every PTX
//! file of test-data and of the shared corpus, and on mutants of them
//! (`ptx_test_support::mutation`: each line deleted or duplicated, and
//! seeded random edits): when the checks report no error, lowering reports
//! none either.

use ptx_test_support::mutation::{apply, Edit, FRAGMENTS};
use ptx_test_support::{corpus_dir, ptx_files_recursive, test_data};

/// The first lowering error of a text the checks accept, if any.
fn accepted_but_not_lowered(text: &str) -> Option<String> {
    let parse = ptx_syntax::parse(text);
    let diags = ptx_syntax::check::diagnostics(&parse);
    if diags
        .iter()
        .any(|d| d.severity == ptx_syntax::check::Severity::Error)
    {
        return None;
    }
    let (_, errors) = ptx_ir::lower_module(&parse);
    errors.first().map(|e| e.message.clone())
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_edit(rng: &mut Rng) -> Edit {
    let at = rng.next() as usize;
    let interesting = b";,{}[]()<>.%@!|:_-+/\n 0x9aZ$";
    match rng.next() % 6 {
        0 => Edit::DeleteLine(at),
        1 => Edit::DuplicateLine(at),
        2 => Edit::ReplaceByte(at, interesting[rng.next() as usize % interesting.len()]),
        3 => Edit::InsertByte(at, interesting[rng.next() as usize % interesting.len()]),
        4 => Edit::InsertFragment(at, FRAGMENTS[rng.next() as usize % FRAGMENTS.len()]),
        _ => Edit::DeleteRange(at, (rng.next() % 16) as usize),
    }
}

#[test]
fn whatever_check_accepts_lowers() {
    let mut files = ptx_files_recursive(&test_data());
    if let Some(corpus) = corpus_dir() {
        files.extend(ptx_files_recursive(&corpus));
    }
    files.sort();
    let cases: usize = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let mut texts = vec![(String::from("as is"), text.clone())];
        if text.len() < 24 * 1024 {
            let lines = text.lines().count();
            for k in 0..lines {
                texts.push((
                    format!("line {} deleted", k + 1),
                    apply(&text, &Edit::DeleteLine(k)),
                ));
                texts.push((
                    format!("line {} duplicated", k + 1),
                    apply(&text, &Edit::DuplicateLine(k)),
                ));
            }
            for _ in 0..cases {
                let edit = random_edit(&mut rng);
                texts.push((format!("{edit:?}"), apply(&text, &edit)));
            }
        }
        for (what, t) in texts {
            checked += 1;
            if let Some(e) = accepted_but_not_lowered(&t) {
                failures.push(format!("{} ({what}): {e}", path.display()));
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
    assert!(
        failures.is_empty(),
        "{} of {checked} texts pass the checks and fail lowering:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
