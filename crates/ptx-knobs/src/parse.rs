//! `NAME=VALUE` settings: value parsing, range checks and "did you mean".

use crate::{knob, KnobDef, KnobError, KnobType, KnobValue, KNOBS};

/// Parses one `NAME=VALUE` setting (as given to `ptxopt --knob`).
///
/// The name must be exact (see [`suggest`] for near misses); whitespace
/// around the name, and around non-string values, is ignored. A string
/// value is everything after the first `=`, as is.
///
/// Values: bool takes `true`/`false`/`1`/`0`/`on`/`off` (any case); int takes
/// decimal, `0x` hex, and a leading `-` or `+`; float takes any Rust `f64`
/// syntax (`1`, `0.25`, `1e-3`, `inf`). Int and float values are checked
/// against the knob's bounds.
pub fn parse_setting(text: &str) -> Result<(&'static KnobDef, KnobValue), KnobError> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(KnobError::Malformed {
            text: text.to_string(),
        });
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(KnobError::Malformed {
            text: text.to_string(),
        });
    }
    let def = lookup(name)?;
    let value = parse_value(def, value)?;
    Ok((def, value))
}

/// Finds a knob by exact name, or says which names come closest.
pub fn lookup(name: &str) -> Result<&'static KnobDef, KnobError> {
    knob(name).ok_or_else(|| KnobError::UnknownName {
        name: name.to_string(),
        suggestions: suggest(name),
    })
}

/// Parses `text` as a value of `def`'s type and checks its bounds.
pub fn parse_value(def: &'static KnobDef, text: &str) -> Result<KnobValue, KnobError> {
    let trimmed = text.trim();
    let value = match def.ty {
        KnobType::Bool => parse_bool(trimmed).map(KnobValue::Bool),
        KnobType::Int => parse_int(trimmed).map(KnobValue::Int),
        KnobType::Float => trimmed.parse::<f64>().ok().map(KnobValue::float),
        KnobType::String => Some(KnobValue::String(text.to_string())),
    };
    match value {
        Some(value) => check_value(def, value),
        None => Err(bad_value(def, trimmed)),
    }
}

/// Checks that `value` has `def`'s type (an Int is accepted, and converted,
/// for a Float knob) and lies within its bounds.
pub fn check_value(def: &'static KnobDef, value: KnobValue) -> Result<KnobValue, KnobError> {
    let value = match (def.ty, value) {
        (KnobType::Float, KnobValue::Int(i)) => KnobValue::float(i as f64),
        (_, value) => value,
    };
    if value.knob_type() != def.ty {
        return Err(bad_value(def, &value.to_string()));
    }
    let number = match &value {
        KnobValue::Int(i) => Some(*i as f64),
        KnobValue::FloatBits(bits) => Some(f64::from_bits(*bits)),
        _ => None,
    };
    if let Some(x) = number {
        // NaN is outside any bounds.
        let below = def.min.is_some_and(|min| x.is_nan() || x < min);
        let above = def.max.is_some_and(|max| x.is_nan() || x > max);
        if below || above {
            return Err(bad_value(def, &value.to_string()));
        }
    }
    Ok(value)
}

/// What a value of `def` must look like, for error messages.
pub fn expected(def: &KnobDef) -> String {
    let what = match def.ty {
        KnobType::Bool => return "a boolean (true/false/1/0/on/off)".to_string(),
        KnobType::String => return "a string".to_string(),
        KnobType::Int => "an integer",
        KnobType::Float => "a number",
    };
    let bound = |b: f64| match def.ty {
        KnobType::Int => format!("{}", b as i64),
        _ => format!("{b:?}"),
    };
    match (def.min, def.max) {
        (Some(min), Some(max)) => format!("{what} in {}..={}", bound(min), bound(max)),
        (Some(min), None) => format!("{what} >= {}", bound(min)),
        (None, Some(max)) => format!("{what} <= {}", bound(max)),
        (None, None) => what.to_string(),
    }
}

pub(crate) fn bad_value(def: &'static KnobDef, value: &str) -> KnobError {
    KnobError::BadValue {
        name: def.name,
        value: value.to_string(),
        expected: expected(def),
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" => Some(false),
        _ => None,
    }
}

fn parse_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    // `from_str_radix` would accept a second sign ("--5", "0x-5").
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// The up to three knob names closest to `name`: case, `-` and `_` are
/// ignored, then names are ranked by edit distance (a name that differs only
/// by case, dashes or underscores comes first). Names too far off to be a
/// typo are left out. [`closest_names`] over [`KNOBS`].
pub fn suggest(name: &str) -> Vec<&'static str> {
    closest_names(name, KNOBS.iter().map(|k| k.name), false)
}

/// Up to three of `names` closest to `word`, best first, each once, for "did
/// you mean" messages: case, `-` and `_` are ignored, then names are ranked
/// by edit distance, leaving out those more than a third of `word`'s length
/// (at least 2) away. With `or_containing`, when no name is that close, the
/// names that contain `word` instead (shortest first): `word` may be part of
/// a name rather than a typo of one.
pub fn closest_names<'a, I>(word: &str, names: I, or_containing: bool) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let wanted = normalize(word);
    if wanted.is_empty() {
        return Vec::new();
    }
    let names = names.into_iter();
    let limit = (wanted.len() / 3).max(2);
    let mut ranked: Vec<(usize, &'a str)> = names
        .clone()
        .filter_map(|name| {
            let d = edit_distance(&wanted, &normalize(name));
            (d <= limit).then_some((d, name))
        })
        .collect();
    if ranked.is_empty() && or_containing {
        ranked = names
            .filter(|name| {
                let name = normalize(name);
                name.windows(wanted.len()).any(|w| w == wanted.as_slice())
            })
            .map(|name| (name.len(), name))
            .collect();
    }
    ranked.sort();
    ranked.dedup_by_key(|(_, n)| *n);
    ranked.into_iter().take(3).map(|(_, n)| n).collect()
}

fn normalize(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            cur[j + 1] = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(a: &str, b: &str) -> usize {
        edit_distance(&normalize(a), &normalize(b))
    }

    #[test]
    fn edit_distance_basics() {
        assert_eq!(dist("", ""), 0);
        assert_eq!(dist("abc", ""), 3);
        assert_eq!(dist("kitten", "sitting"), 3);
        assert_eq!(dist("unroll-count", "UNROLL_COUNT"), 0);
        assert_eq!(dist("LoopUnrol", "LoopUnroll"), 1);
    }

    #[test]
    fn ints() {
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("-42"), Some(-42));
        assert_eq!(parse_int("+42"), Some(42));
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("-0X10"), Some(-16));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int("9223372036854775808"), None);
        for bad in ["", "-", "0x", "--5", "0x-5", "1.5", "1e3", "12a", " 1"] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
    }
}
