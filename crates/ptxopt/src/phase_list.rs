//! `ptxopt build --list-phases`: the pipeline as a table.
//!
//! One line per phase, in pipeline order: the ptxas phase number (`-` for cicc
//! passes), the name (marked where the seeds give none), the tool, and whether
//! it is implemented (and what it does) or passes its input through; then, indented, the knobs it
//! reads (from the `pass` field of the knob registry), wrapped.

use ptx_db::PHASES;

/// Width at which the knob list wraps.
const WIDTH: usize = 100;

/// Indent of the knob lines.
const KNOBS_PREFIX: &str = "      knobs: ";

/// The table text.
pub fn render() -> String {
    let rows: Vec<[String; 4]> = PHASES
        .iter()
        .map(|p| {
            let number = p.number.map_or("-".to_string(), |n| n.to_string());
            let name = if p.named_in_seeds {
                p.name.to_string()
            } else {
                format!("{} (unnamed in seeds)", p.name)
            };
            let status = match (p.implemented, ptx_opt::status_note(p.id)) {
                (true, Some(note)) => format!("implemented: {note}"),
                (true, None) => "implemented".to_string(),
                (false, Some(note)) => format!("pass-through (not implemented yet; {note})"),
                (false, None) => "pass-through (not implemented yet)".to_string(),
            };
            [number, name, p.tool.as_str().to_string(), status]
        })
        .collect();
    let header = [
        "#".to_string(),
        "phase".to_string(),
        "tool".to_string(),
        "status".to_string(),
    ];
    let mut widths = [0usize; 4];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    push_row(&mut out, &header, &widths);
    for (phase, row) in PHASES.iter().zip(&rows) {
        push_row(&mut out, row, &widths);
        let knobs: Vec<&str> = phase.knobs().iter().map(|k| k.name).collect();
        if !knobs.is_empty() {
            out.push_str(KNOBS_PREFIX);
            out.push_str(&wrap(
                &knobs,
                KNOBS_PREFIX.len(),
                WIDTH - KNOBS_PREFIX.len(),
            ));
        }
    }
    out
}

fn push_row(out: &mut String, row: &[String; 4], widths: &[usize; 4]) {
    // The number is right-aligned, the rest left-aligned; no trailing blanks.
    let line = format!(
        "{:>w0$}  {:<w1$}  {:<w2$}  {}",
        row[0],
        row[1],
        row[2],
        row[3],
        w0 = widths[0],
        w1 = widths[1],
        w2 = widths[2]
    );
    out.push_str(line.trim_end());
    out.push('\n');
}

/// `a, b, c` over as many lines as needed, continuation lines indented.
fn wrap(items: &[&str], indent: usize, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.to_string()
        };
        if !line.is_empty() && line.len() + 1 + piece.len() > width {
            out.push_str(&line);
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
