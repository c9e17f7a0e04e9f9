//! What the event-log tests share: rebuild a file and snapshot the queries
//! that ran, with each run of phase queries on one kernel folded.

use expect_test::Expect;
use ptx_db::{build_file, EventLog, RootDatabase, SourceFile, PHASES};

/// Rebuilds and snapshots the executed queries; a run of more than two
/// consecutive phase queries on one kernel becomes
/// `<phases FIRST..LAST (N)>(kernel)`.
pub fn check_rebuild(db: &RootDatabase, log: &EventLog, file: SourceFile, expect: Expect) {
    let built = build_file(db, file);
    assert!(built.text.is_some(), "{:?}", built.diagnostics);
    expect.assert_eq(&fold_phases(&log.take(db)).join("\n"));
}

fn phase_index(event: &str) -> Option<usize> {
    PHASES
        .iter()
        .position(|p| event.starts_with(&format!("{}(", p.query)))
}

fn fold_phases(events: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        if phase_index(&events[i]).is_some() {
            let arg = events[i][events[i].find('(').unwrap_or(0)..].to_string();
            let mut j = i;
            while j < events.len() && phase_index(&events[j]).is_some() && events[j].ends_with(&arg)
            {
                j += 1;
            }
            if j - i > 2 {
                let first = &events[i][..events[i].find('(').unwrap_or(0)];
                let last = &events[j - 1][..events[j - 1].find('(').unwrap_or(0)];
                out.push(format!("<phases {first}..{last} ({})>{arg}", j - i));
                i = j;
                continue;
            }
        }
        out.push(events[i].clone());
        i += 1;
    }
    out
}
