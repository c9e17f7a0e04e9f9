//! `ptxopt.toml`: the target and knob settings of a project.
//!
//! ```toml
//! target = "sm_90"        # optional
//! [knobs]
//! LoopUnroll = false
//! UnrollBudget = 96
//! "unroll-threshold" = 300
//! ```
//!
//! Parsed with the `toml` crate's span-keeping document parser
//! (`toml::de::DeTable`), without serde, so every error can point at the
//! line and column of the key or value at fault.

use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::parse::{bad_value, check_value, lookup, parse_value};
use crate::{KnobDef, KnobError, KnobType, KnobValue};

/// A parsed `ptxopt.toml`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// `target = "sm_90"`, if given.
    pub target: Option<String>,
    /// The `[knobs]` settings, in file order, each checked against its knob.
    pub knobs: Vec<(&'static KnobDef, KnobValue)>,
}

impl Config {
    /// The value set for `name` in the file, if any.
    pub fn get(&self, name: &str) -> Option<&KnobValue> {
        self.knobs
            .iter()
            .find(|(k, _)| k.name == name)
            .map(|(_, v)| v)
    }

    /// The value of knob `name`: the file's setting, else the default.
    /// `None` if there is no such knob.
    pub fn value(&self, name: &str) -> Option<KnobValue> {
        match self.get(name) {
            Some(v) => Some(v.clone()),
            None => crate::knob(name).map(|k| k.default.to_value()),
        }
    }
}

/// An error in a `ptxopt.toml`, at a 1-based line and column (in
/// characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The knob-level error, when the problem is an unknown knob or a bad
    /// value (its `UnknownName` carries the suggestions).
    pub knob_error: Option<KnobError>,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ConfigError {}

/// Parses the text of a `ptxopt.toml`.
///
/// Top-level keys: `target` (a string) and `knobs` (a table). Each key of
/// `[knobs]` must be a knob name exactly (unknown names report the closest
/// ones). Values are TOML values of the knob's type; an integer is accepted
/// for a float knob, `0`/`1` for a bool knob, and a string for any knob is
/// parsed as in `NAME=VALUE` settings (`"0x40"`, `"on"`).
pub fn parse_config(text: &str) -> Result<Config, ConfigError> {
    let doc = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        error(text, span, e.message().trim_end().to_string(), None)
    })?;
    let mut config = Config::default();
    for (key, value) in in_file_order(doc.get_ref()) {
        match key.get_ref().as_ref() {
            "target" => match value.get_ref() {
                DeValue::String(s) => config.target = Some(s.to_string()),
                other => {
                    let message = format!(
                        "`target` must be a string such as \"sm_90\", found {}",
                        other.type_str()
                    );
                    return Err(error(text, value.span(), message, None));
                }
            },
            "knobs" => match value.get_ref() {
                DeValue::Table(table) => {
                    for (name, value) in in_file_order(table) {
                        config.knobs.push(knob_setting(text, name, value)?);
                    }
                }
                other => {
                    let message = format!("`knobs` must be a table, found {}", other.type_str());
                    return Err(error(text, value.span(), message, None));
                }
            },
            other => {
                let message =
                    format!("unknown key `{other}`: expected `target` or a `[knobs]` table");
                return Err(error(text, key.span(), message, None));
            }
        }
    }
    Ok(config)
}

type Entry<'a, 'i> = (
    &'a Spanned<toml::de::DeString<'i>>,
    &'a Spanned<DeValue<'i>>,
);

fn in_file_order<'a, 'i>(table: &'a DeTable<'i>) -> Vec<Entry<'a, 'i>> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

fn knob_setting(
    text: &str,
    name: &Spanned<toml::de::DeString<'_>>,
    value: &Spanned<DeValue<'_>>,
) -> Result<(&'static KnobDef, KnobValue), ConfigError> {
    let def = lookup(name.get_ref()).map_err(|e| knob_error(text, name.span(), e))?;
    let converted = match value.get_ref() {
        DeValue::String(s) => parse_value(def, s),
        DeValue::Boolean(b) => check_value(def, KnobValue::Bool(*b)),
        DeValue::Integer(i) => {
            let n = i64::from_str_radix(i.as_str(), i.radix()).ok();
            match (def.ty, n) {
                (KnobType::Bool, Some(0 | 1)) => check_value(def, KnobValue::Bool(n == Some(1))),
                (_, Some(n)) => check_value(def, KnobValue::Int(n)),
                (_, None) => Err(bad_value(def, &i.to_string())),
            }
        }
        DeValue::Float(x) => match x.as_str().parse::<f64>() {
            Ok(x) => check_value(def, KnobValue::float(x)),
            Err(_) => Err(bad_value(def, &x.to_string())),
        },
        other => Err(bad_value(def, &format!("a {}", other.type_str()))),
    };
    converted
        .map(|v| (def, v))
        .map_err(|e| knob_error(text, value.span(), e))
}

fn knob_error(text: &str, span: Range<usize>, e: KnobError) -> ConfigError {
    error(text, span, e.to_string(), Some(e))
}

fn error(
    text: &str,
    span: Range<usize>,
    message: String,
    knob_error: Option<KnobError>,
) -> ConfigError {
    let (line, column) = line_column(text, span.start);
    ConfigError {
        line,
        column,
        message,
        knob_error,
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
