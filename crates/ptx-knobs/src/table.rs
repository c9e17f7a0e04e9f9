//! The knob table as text or JSON, for `ptxopt knobs [--format json]`.

use crate::{default_note, DefaultValue, KnobDef, KnobType, KNOBS};

/// Output format of [`render_table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// An aligned table: name, type, default, tool, pass, description.
    #[default]
    Text,
    /// A JSON array with one object per knob.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            _ => Err(format!("unknown format `{s}`: expected `text` or `json`")),
        }
    }
}

/// Renders every knob in [`KNOBS`].
pub fn render_table(format: Format) -> String {
    let all: Vec<&KnobDef> = KNOBS.iter().collect();
    render_knobs(&all, format)
}

/// Renders the given knobs, in the given order.
///
/// Text: one header line and one line per knob, columns padded to the widest
/// cell; a default the seed did not give as a value is followed by the
/// seed's wording in parentheses (moved there from the description).
///
/// JSON: `[`, then one object per line with the keys `name`, `type`,
/// `default`, `min`, `max`, `tool`, `pass`, `seed_file`, `seed_section`,
/// `description` in that order (`min`/`max` are `null` when unbounded),
/// then `]` and a newline.
pub fn render_knobs(knobs: &[&KnobDef], format: Format) -> String {
    match format {
        Format::Text => render_text(knobs),
        Format::Json => render_json(knobs),
    }
}

/// A default as a JSON value (also how the text table shows it).
fn default_json(default: DefaultValue) -> String {
    match default {
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::Int(i) => i.to_string(),
        DefaultValue::Float(f) => number(f),
        DefaultValue::Str(s) => json_string(s),
    }
}

/// A finite f64 in JSON syntax, always with a fraction or exponent.
fn number(f: f64) -> String {
    if f.is_finite() {
        format!("{f:?}")
    } else {
        "null".to_string()
    }
}

fn bound_json(k: &KnobDef, bound: Option<f64>) -> String {
    match bound {
        None => "null".to_string(),
        Some(b) if k.ty == KnobType::Int && b.fract() == 0.0 => format!("{}", b as i64),
        Some(b) => number(b),
    }
}

fn render_text(knobs: &[&KnobDef]) -> String {
    let header = ["NAME", "TYPE", "DEFAULT", "TOOL", "PASS", "DESCRIPTION"];
    let mut rows: Vec<[String; 6]> = vec![header.map(str::to_string)];
    for k in knobs {
        // The note moves from the description to the default column.
        let mut default = default_json(k.default);
        let mut description = k.description.to_string();
        if let Some(note) = default_note(k) {
            default = format!("{default} ({note})");
            description = description.replacen(&format!(" (seed default: {note})"), "", 1);
        }
        rows.push([
            k.name.to_string(),
            k.ty.as_str().to_string(),
            default,
            k.tool.to_string(),
            k.pass.to_string(),
            description,
        ]);
    }
    let mut widths = [0usize; 5];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        for (cell, w) in row.iter().zip(widths) {
            out.push_str(cell);
            out.extend(std::iter::repeat_n(' ', w - cell.chars().count() + 2));
        }
        out.push_str(&row[5]);
        out.push('\n');
    }
    out
}

fn render_json(knobs: &[&KnobDef]) -> String {
    let mut out = String::from("[\n");
    for (i, k) in knobs.iter().enumerate() {
        let fields = [
            ("name", json_string(k.name)),
            ("type", json_string(k.ty.as_str())),
            ("default", default_json(k.default)),
            ("min", bound_json(k, k.min)),
            ("max", bound_json(k, k.max)),
            ("tool", json_string(k.tool)),
            ("pass", json_string(k.pass)),
            ("seed_file", json_string(k.seed.file)),
            ("seed_section", json_string(k.seed.section)),
            ("description", json_string(k.description)),
        ];
        let body: Vec<String> = fields
            .iter()
            .map(|(key, value)| format!("\"{key}\": {value}"))
            .collect();
        out.push_str("  {");
        out.push_str(&body.join(", "));
        out.push('}');
        if i + 1 < knobs.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("]\n");
    out
}

/// `s` as a JSON string literal (RFC 8259 escaping; non-ASCII kept as is).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
