//! Name scopes of a function body, and the flat namespace they are lowered into.
//!
//! PTX scopes nest (`{ }` blocks); the IR has one namespace per function. Each
//! declaration reserves a name in the flat namespace: its own name when nothing
//! already declared in the function clashes with it, else `<name>_s<N>` for the
//! first `N` that clashes with nothing. A parameterized register `%r<4>` stands
//! for `%r0`..`%r3`, so it clashes with a plain `%r2` and with `%r1<3>`. Lookups
//! go through the scope stack, innermost first, and find the flat name.
//!
//! [`Scopes::generation`] changes whenever a lookup could give another answer
//! (a scope pushed or popped, a name bound), so that a caller may memoize
//! lookups (the function lowerer does, for registers: a lookup scans every
//! parameterized declaration of every open scope).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::RegDeclId;

/// What a source name refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// A register: the declaration and the index in a parameterized one.
    Reg { decl: RegDeclId, index: Option<u32> },
    /// A non-register declaration (variable, parameter, prototype, ...) with its
    /// flat name.
    Symbol(String),
}

#[derive(Default)]
struct Scope {
    /// Plain registers and symbols by source name.
    plain: FxHashMap<String, Binding>,
    /// Parameterized registers: source base name, count, declaration.
    ranges: Vec<(String, u32, RegDeclId)>,
}

impl Scope {
    /// `stem` is the length of `name` without its trailing digits.
    fn lookup(&self, name: &str, stem: usize) -> Option<Binding> {
        if let Some(binding) = self.plain.get(name) {
            return Some(binding.clone());
        }
        self.ranges.iter().find_map(|(base, count, decl)| {
            // A base that `name` extends with digits is at least as long as
            // the stem and shorter than `name` (a cheap test first).
            if base.len() < stem || base.len() >= name.len() {
                return None;
            }
            let index = range_index(name, base, *count)?;
            Some(Binding::Reg {
                decl: *decl,
                index: Some(index),
            })
        })
    }
}

/// The scope stack plus the flat namespace.
#[derive(Default)]
pub(crate) struct Scopes {
    stack: Vec<Scope>,
    flat: FlatNames,
    generation: u64,
}

impl Scopes {
    pub(crate) fn push(&mut self) {
        self.stack.push(Scope::default());
        self.changed();
    }

    pub(crate) fn pop(&mut self) {
        self.stack.pop();
        self.changed();
    }

    /// A number that changes whenever the bindings change: equal generations
    /// give equal [`lookup`](Scopes::lookup)s.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Resolves a source name, innermost scope first.
    pub(crate) fn lookup(&self, name: &str) -> Option<Binding> {
        let stem = stem_len(name);
        self.stack.iter().rev().find_map(|s| s.lookup(name, stem))
    }

    /// Whether the innermost scope already declares `name` (a duplicate).
    pub(crate) fn declared_here(&self, name: &str, count: Option<u32>) -> bool {
        let Some(scope) = self.stack.last() else {
            return false;
        };
        match count {
            None => scope.lookup(name, stem_len(name)).is_some(),
            Some(c) => {
                scope
                    .plain
                    .keys()
                    .any(|n| range_index(n, name, c).is_some())
                    || scope
                        .ranges
                        .iter()
                        .any(|(b, bc, _)| ranges_overlap(name, c, b, *bc))
            }
        }
    }

    /// Reserves the flat name for a declaration of `name` (`count` for a
    /// parameterized register): `name` itself, or a renamed one.
    pub(crate) fn reserve(&mut self, name: &str, count: Option<u32>) -> String {
        self.flat.reserve(name, count)
    }

    /// Binds a plain source name in the innermost scope.
    pub(crate) fn bind(&mut self, name: &str, binding: Binding) {
        if let Some(scope) = self.stack.last_mut() {
            scope.plain.insert(name.to_string(), binding);
        }
        self.changed();
    }

    /// Binds a parameterized register `base<count>` in the innermost scope.
    pub(crate) fn bind_range(&mut self, base: &str, count: u32, decl: RegDeclId) {
        if let Some(scope) = self.stack.last_mut() {
            scope.ranges.push((base.to_string(), count, decl));
        }
        self.changed();
    }
}

/// Every name declared so far in the function.
#[derive(Default)]
struct FlatNames {
    plain: FxHashSet<String>,
    ranges: Vec<(String, u32)>,
}

impl FlatNames {
    fn clashes(&self, name: &str, count: Option<u32>) -> bool {
        match count {
            None => {
                self.plain.contains(name)
                    || self
                        .ranges
                        .iter()
                        .any(|(b, c)| range_index(name, b, *c).is_some())
            }
            Some(c) => {
                self.plain.iter().any(|n| range_index(n, name, c).is_some())
                    || self
                        .ranges
                        .iter()
                        .any(|(b, bc)| ranges_overlap(name, c, b, *bc))
            }
        }
    }

    fn reserve(&mut self, name: &str, count: Option<u32>) -> String {
        let mut candidate = name.to_string();
        let mut n = 0u32;
        while self.clashes(&candidate, count) {
            n += 1;
            candidate = format!("{name}_s{n}");
        }
        match count {
            None => {
                self.plain.insert(candidate.clone());
            }
            Some(c) => self.ranges.push((candidate.clone(), c)),
        }
        candidate
    }
}

/// The length of `name` without its trailing ASCII digits.
fn stem_len(name: &str) -> usize {
    name.trim_end_matches(|c: char| c.is_ascii_digit()).len()
}

/// The index `i` if `name` is `base` followed by the decimal `i < count` (as a
/// parameterized declaration spells it: no leading zeros).
pub(crate) fn range_index(name: &str, base: &str, count: u32) -> Option<u32> {
    // A digit right after the base first: most names fail this cheap test.
    if !name
        .as_bytes()
        .get(base.len())
        .is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    let digits = name.strip_prefix(base)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    let index: u32 = digits.parse().ok()?;
    (index < count).then_some(index)
}

/// Whether `b1<c1>` and `b2<c2>` may name a common register (conservative: a base
/// that extends the other with digits counts as overlapping).
fn ranges_overlap(b1: &str, c1: u32, b2: &str, c2: u32) -> bool {
    if c1 == 0 || c2 == 0 {
        return false;
    }
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    match (b2.strip_prefix(b1), b1.strip_prefix(b2)) {
        (Some(rest), _) | (_, Some(rest)) => digits_only(rest),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_index_follows_declaration_spelling() {
        assert_eq!(range_index("%r7", "%r", 100), Some(7));
        assert_eq!(range_index("%r07", "%r", 100), None);
        assert_eq!(range_index("%r100", "%r", 100), None);
        assert_eq!(range_index("%rd1", "%r", 100), None);
        assert_eq!(range_index("%r0", "%r", 1), Some(0));
    }

    #[test]
    fn clashing_names_are_renamed() {
        let mut flat = FlatNames::default();
        assert_eq!(flat.reserve("%r", Some(10)), "%r");
        assert_eq!(flat.reserve("%r5", None), "%r5_s1");
        assert_eq!(flat.reserve("%r12", None), "%r12");
        assert_eq!(flat.reserve("%r1", Some(3)), "%r1_s1");
        assert_eq!(flat.reserve("param0", None), "param0");
        assert_eq!(flat.reserve("param0", None), "param0_s1");
        assert_eq!(flat.reserve("param0", None), "param0_s2");
    }
}
