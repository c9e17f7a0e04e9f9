//! `ptx-knobs`: every knob named in the five seed documents (`../shared/seeds/`),
//! in one registry: name, type, default, seed file and section, one-line
//! description. Parsing and validation of `NAME=VALUE` settings (with "did you
//! mean" suggestions), and the `ptxopt.toml` configuration file.
//!
//! [`knobs`] holds one typed constant per knob, so that a pass names a knob
//! in a way the compiler checks (`ptx_knobs::knobs::LoopUnroll`).
//!
//! This crate is plain data plus parsing: it knows nothing of salsa (the
//! database makes one salsa input per knob from [`KNOBS`]) or of the CLI.

mod config;
mod parse;
mod registry;
mod table;
#[cfg(test)]
mod tests;
mod typed;

/// One typed constant per knob (`knobs::LoopUnroll: BoolKnob`), generated
/// from [`KNOBS`]; see [`BoolKnob`] for how a pass reads one.
#[path = "ids.rs"]
pub mod knobs;

pub use config::{parse_config, Config, ConfigError};
pub use parse::{
    check_value, closest_names, expected, lookup, parse_setting, parse_value, suggest,
};
pub use registry::KNOBS;
pub use table::{json_string, render_knobs, render_table, Format};
pub use typed::{BoolKnob, FloatKnob, IntKnob, KnobId, StrKnob};

/// The type of a knob's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KnobType {
    Bool,
    Int,
    /// A floating-point knob (ptxas's "float" and "double" overrides alike).
    Float,
    String,
}

/// A knob value. Floats are stored as `f64` bits so values are `Eq + Hash`
/// (salsa inputs need both).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KnobValue {
    Bool(bool),
    Int(i64),
    FloatBits(u64),
    String(String),
}

impl KnobValue {
    pub fn float(value: f64) -> KnobValue {
        KnobValue::FloatBits(value.to_bits())
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            KnobValue::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            KnobValue::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_float(&self) -> Option<f64> {
        match self {
            KnobValue::FloatBits(b) => Some(f64::from_bits(*b)),
            KnobValue::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            KnobValue::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn knob_type(&self) -> KnobType {
        match self {
            KnobValue::Bool(_) => KnobType::Bool,
            KnobValue::Int(_) => KnobType::Int,
            KnobValue::FloatBits(_) => KnobType::Float,
            KnobValue::String(_) => KnobType::String,
        }
    }
}

impl std::fmt::Display for KnobValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KnobValue::Bool(b) => write!(f, "{b}"),
            KnobValue::Int(i) => write!(f, "{i}"),
            KnobValue::FloatBits(b) => write!(f, "{}", f64::from_bits(*b)),
            KnobValue::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// Which seed document and section a knob comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedRef {
    /// File name in `../shared/seeds/`, e.g. `"000_ed667d9feced6e07.txt"`.
    pub file: &'static str,
    /// Section heading in that file, e.g. `"Heuristic Thresholds (Knobs)"`.
    pub section: &'static str,
}

/// One knob.
#[derive(Clone, Debug, PartialEq)]
pub struct KnobDef {
    /// The name as the seed spells it (`"LoopUnroll"`, `"unroll-threshold"`).
    pub name: &'static str,
    pub ty: KnobType,
    /// Default value (its type is `ty`).
    pub default: DefaultValue,
    /// Inclusive bounds for Int/Float knobs, where the seed gives them.
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// Which tool owns it: `"ptxas"` (OCG knobs) or `"cicc"` (LLVM `cl::opt`s).
    pub tool: &'static str,
    /// The pass or phase that reads it (`"OriLoopUnrolling (22)"`).
    pub pass: &'static str,
    pub seed: SeedRef,
    /// One line: what it does.
    pub description: &'static str,
}

/// A default value written in a static table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefaultValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
}

impl DefaultValue {
    pub fn to_value(self) -> KnobValue {
        match self {
            DefaultValue::Bool(b) => KnobValue::Bool(b),
            DefaultValue::Int(i) => KnobValue::Int(i),
            DefaultValue::Float(f) => KnobValue::float(f),
            DefaultValue::Str(s) => KnobValue::String(s.to_string()),
        }
    }
}

/// Finds a knob by exact name.
pub fn knob(name: &str) -> Option<&'static KnobDef> {
    KNOBS.iter().find(|k| k.name == name)
}

impl KnobType {
    /// `"bool"`, `"int"`, `"float"` or `"string"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KnobType::Bool => "bool",
            KnobType::Int => "int",
            KnobType::Float => "float",
            KnobType::String => "string",
        }
    }
}

impl std::fmt::Display for KnobType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl KnobDef {
    /// The default as a [`KnobValue`].
    pub fn default_value(&self) -> KnobValue {
        self.default.to_value()
    }
}

/// The numeric ptxas OCG knob id, where the seed gives one (the registry
/// writes it as `OCG knob N` in the description).
pub fn ocg_knob_id(k: &KnobDef) -> Option<u32> {
    let rest = &k.description[k.description.find("OCG knob ")? + "OCG knob ".len()..];
    let digits: &str = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    digits.parse().ok()
}

/// Finds a ptxas knob by its numeric OCG knob id (`knob_by_ocg_id(437)` is
/// `LoopUnroll`).
pub fn knob_by_ocg_id(id: u32) -> Option<&'static KnobDef> {
    KNOBS.iter().find(|k| ocg_knob_id(k) == Some(id))
}

/// What the seed said about the default when it did not give a value
/// (`"unset"`, `"varies"`, `"opt-level dependent"`, `"not stated"`, ...):
/// the text of the `(seed default: ...)` note that ends such a knob's
/// description. `None` when the default is the seed's own value.
///
/// For Int/Float knobs whose note is `"unset"`, the default `0` means "not
/// set: the pass keeps its built-in behaviour".
pub fn default_note(k: &KnobDef) -> Option<&'static str> {
    const TAG: &str = "(seed default: ";
    let description: &'static str = k.description;
    let start = description.find(TAG)? + TAG.len();
    // The note may hold parentheses of its own: "22 (early) / 100 (late)".
    let mut depth = 1usize;
    for (i, c) in description[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&description[start..start + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// A problem with a knob setting, with the closest knob names for "did you mean".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnobError {
    UnknownName {
        name: String,
        suggestions: Vec<&'static str>,
    },
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
    Malformed {
        text: String,
    },
}

impl std::fmt::Display for KnobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KnobError::UnknownName { name, suggestions } => {
                write!(f, "unknown knob `{name}`")?;
                if !suggestions.is_empty() {
                    write!(
                        f,
                        "; did you mean {}?",
                        suggestions
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )?;
                }
                Ok(())
            }
            KnobError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "bad value `{value}` for knob `{name}`: expected {expected}"
                )
            }
            KnobError::Malformed { text } => {
                write!(f, "malformed knob setting `{text}`: expected NAME=VALUE")
            }
        }
    }
}

impl std::error::Error for KnobError {}
