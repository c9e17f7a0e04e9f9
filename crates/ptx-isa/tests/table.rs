//! Checks of the instruction table against real PTX: the instructions ptxas
//! 13.0.88 accepts (`tests/data/ptxas_accepted.txt`) and, when it is there, the
//! shared corpus of real PTX modules (`../shared/corpus` next to the repository).
//!
//! Every instruction must find its family with `lookup`, every other modifier must
//! be allowed, the operands must match one of the family's forms (kinds, and
//! register types under the family's `TypeCheck` rule), and the table's minimum
//! version and target must not be above what ptxas accepts.

use ptx_isa::{
    lookup, type_bits, type_kind, type_requirement, v, Family, Form, OperandKind, OperandType,
    PtxVersion, TypeCheck, TypeKind, FAMILIES,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ptx_test_support::{corpus_dir, cuda_home, ptx_files, ptxas};

// ---------------------------------------------------------------------------
// A small instruction splitter (just enough for the tests).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// A register, with its type if known.
    Reg(Option<&'static str>),
    Pred,
    NegPred,
    Pair,
    Sink,
    Imm,
    Ident,
    Address,
    Vector,
    CallArgs,
    Other,
}

struct Operand {
    text: String,
    class: Class,
}

struct Instr {
    opcode: String,
    modifiers: Vec<String>,
    operands: Vec<Operand>,
}

/// Register types: by declaration (corpus) or by the naming convention of the
/// sample file (`%r` .b32, `%rd` .b64, `%h` .b16, `%b` .b8, `%f` .f32, `%fd` .f64,
/// `%q` .b128, `%p` .pred).
#[derive(Default)]
struct Regs {
    /// Prefix of a `%name<N>` declaration, or an exact name, to its type.
    decls: HashMap<String, &'static str>,
    convention: bool,
}

fn static_type(ty: &str) -> Option<&'static str> {
    const ALL: &[&str] = &[
        ".pred", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8",
        ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64",
    ];
    ALL.iter().copied().find(|t| *t == ty)
}

impl Regs {
    fn type_of(&self, name: &str) -> Option<&'static str> {
        let base = name.split('.').next().unwrap_or(name);
        if self.convention {
            let body = base.strip_prefix('%')?;
            let prefix: String = body
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let rest = &body[prefix.len()..];
            if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            return match prefix.as_str() {
                "r" => Some(".b32"),
                "rd" => Some(".b64"),
                "h" => Some(".b16"),
                "b" => Some(".b8"),
                "f" => Some(".f32"),
                "fd" => Some(".f64"),
                "q" => Some(".b128"),
                "p" => Some(".pred"),
                _ => None,
            };
        }
        if let Some(t) = self.decls.get(base) {
            return Some(t);
        }
        let prefix = base.trim_end_matches(|c: char| c.is_ascii_digit());
        if prefix.len() < base.len() {
            return self.decls.get(&format!("{prefix}<>")).copied();
        }
        None
    }

    fn declare(&mut self, line: &str) {
        // `.reg .b32 %r<10>;`, `.reg .pred %p, %q;`, `.reg .v2 .b32 ...` (ignored)
        // `.reg.v4.u16 x` is `.reg .v4 .u16 x`.
        let spaced: Vec<String> = line
            .split_whitespace()
            .flat_map(|w| {
                if w.starts_with('.') {
                    w.split('.')
                        .filter(|p| !p.is_empty())
                        .map(|p| format!(".{p}"))
                        .collect()
                } else {
                    vec![w.to_string()]
                }
            })
            .collect();
        let mut words = spaced.iter().map(String::as_str).peekable();
        if words.next() != Some(".reg") {
            return;
        }
        if words.peek().is_some_and(|w| w.starts_with(".v")) {
            words.next(); // a vector register: its elements have the type
        }
        let Some(ty) = words.next().and_then(static_type) else {
            return;
        };
        let rest: String = words.collect::<Vec<_>>().join(" ");
        for name in rest.trim_end_matches(';').split(',') {
            let name = name.trim();
            if let Some((prefix, _)) = name.split_once('<') {
                self.decls.insert(format!("{prefix}<>"), ty);
            } else if !name.is_empty() {
                self.decls.insert(name.to_string(), ty);
            }
        }
    }
}

fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            parts.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_string());
    }
    parts
}

fn classify(text: &str, regs: &Regs) -> Class {
    let t = text.trim();
    if t.starts_with('[') {
        Class::Address
    } else if t.starts_with('(') {
        Class::CallArgs
    } else if split_top(t, '|').len() > 1 {
        Class::Pair
    } else if t.starts_with('{') {
        Class::Vector
    } else if t == "_" {
        Class::Sink
    } else if let Some(r) = t.strip_prefix('!') {
        if r.starts_with('%') || regs.type_of(r) == Some(".pred") {
            Class::NegPred
        } else {
            Class::Other
        }
    } else if t == "WARP_SZ" {
        Class::Imm // the predefined constant
    } else if let Some((base, _)) = t
        .split_once(['+', '-'])
        .filter(|(b, _)| b.trim().starts_with('%') || regs.type_of(b.trim()).is_some())
    {
        // `%rd2+8`: ptxas accepts a register plus an offset as an operand.
        classify(base.trim(), regs)
    } else if t.starts_with('%') {
        let special = || ptx_isa::special_reg(t).map(|r| r.ty);
        match regs.type_of(t).or_else(special) {
            Some(".pred") => Class::Pred,
            ty => Class::Reg(ty),
        }
    } else if t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        if t.starts_with("-%") {
            Class::Other
        } else {
            Class::Imm
        }
    } else if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$') {
        // A register declared without `%` (`.reg .pred p;`), or a symbol.
        match regs.type_of(t) {
            Some(".pred") => Class::Pred,
            Some(ty) if !regs.convention => Class::Reg(Some(ty)),
            _ => Class::Ident,
        }
    } else {
        Class::Other
    }
}

fn parse_instr(text: &str, regs: &Regs) -> Option<Instr> {
    let mut t = text.trim().trim_end_matches(';').trim();
    if let Some(rest) = t.strip_prefix('@') {
        let end = rest.find(char::is_whitespace)?;
        t = rest[end..].trim();
    }
    let (head, rest) = match t.find(char::is_whitespace) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    let mut parts = head.split('.');
    let opcode = parts.next()?.to_string();
    let modifiers = parts.map(|m| format!(".{m}")).collect();
    let operands = split_top(rest, ',')
        .into_iter()
        .map(|o| Operand {
            class: classify(&o, regs),
            text: o,
        })
        .collect();
    Some(Instr {
        opcode,
        modifiers,
        operands,
    })
}

// ---------------------------------------------------------------------------
// Matching an instruction against its family.

fn kind_accepts(kind: OperandKind, class: Class) -> bool {
    use Class::*;
    match kind {
        OperandKind::Reg => matches!(class, Reg(_)),
        OperandKind::Pred => matches!(class, Pred),
        OperandKind::PredNeg => matches!(class, Pred | NegPred),
        OperandKind::PredPair => matches!(class, Pred | Pair),
        OperandKind::Imm => matches!(class, Imm),
        OperandKind::RegOrImm => matches!(class, Reg(_) | Imm),
        OperandKind::RegImmOrSymbol => matches!(class, Reg(_) | Imm | Ident),
        OperandKind::Address => matches!(class, Address),
        OperandKind::Label | OperandKind::Symbol => matches!(class, Ident),
        OperandKind::Vector => matches!(class, Vector | Reg(_)),
        OperandKind::VectorOrImm => matches!(class, Vector | Reg(_) | Imm),
        OperandKind::RegOrSink => matches!(class, Reg(_) | Sink),
        OperandKind::CallTarget => matches!(class, Ident | Reg(_)),
        OperandKind::CallArgs => matches!(class, CallArgs),
        OperandKind::Any => true,
    }
}

/// The type an operand spec checks against, for the written types `types`.
fn expected_type(ty: OperandType, types: &[&str]) -> Option<(String, bool)> {
    let last = types.last()?;
    let scale = |bits: u32| -> Option<String> {
        let kind = type_kind(last)?;
        let letter = match kind {
            TypeKind::Signed => 's',
            TypeKind::Unsigned => 'u',
            TypeKind::Float => 'f',
            _ => 'b',
        };
        Some(format!(".{letter}{bits}"))
    };
    match ty {
        OperandType::Unchecked => None,
        OperandType::Inst => Some((last.to_string(), false)),
        OperandType::Nth(n) => types.get(n as usize).map(|t| (t.to_string(), false)),
        OperandType::Wide => scale(type_bits(last)? * 2).map(|t| (t, true)),
        OperandType::Half => scale(type_bits(last)? / 2).map(|t| (t, true)),
        OperandType::Fixed(t) => Some((t.to_string(), false)),
    }
}

/// Whether a register of type `reg` may be used where `want` is expected.
fn type_ok(rule: TypeCheck, reg: &str, want: &str) -> bool {
    let (Some(rb), Some(wb), Some(rk), Some(wk)) = (
        type_bits(reg),
        type_bits(want),
        type_kind(reg),
        type_kind(want),
    ) else {
        return true; // sizes unknown (sub-byte, opaque): not checked
    };
    match rule {
        TypeCheck::None => true,
        TypeCheck::Strict => {
            rb == wb
                && (rk == TypeKind::Bits
                    || wk == TypeKind::Bits
                    || (matches!(rk, TypeKind::Signed | TypeKind::Unsigned)
                        && matches!(wk, TypeKind::Signed | TypeKind::Unsigned))
                    || reg == want)
        }
        TypeCheck::Relaxed => {
            if rk == TypeKind::Float && wk != TypeKind::Bits {
                reg == want || (wk == TypeKind::Float && rb == wb)
            } else {
                rb >= wb
            }
        }
    }
}

fn operand_types_ok(rule: TypeCheck, op: &Operand, want: &str, regs: &Regs) -> bool {
    match op.class {
        Class::Reg(Some(reg)) => type_ok(rule, reg, want),
        Class::Vector => op
            .text
            .trim_matches(|c| c == '{' || c == '}')
            .split(',')
            .all(|e| match regs.type_of(e.trim()) {
                Some(reg) if e.trim().starts_with('%') => type_ok(rule, reg, want),
                _ => true,
            }),
        _ => true,
    }
}

fn form_matches(family: &Family, form: &Form, instr: &Instr, types: &[&str], regs: &Regs) -> bool {
    let n = instr.operands.len();
    if n < form.min_operands() || form.max_operands().is_some_and(|m| n > m) {
        return false;
    }
    instr.operands.iter().enumerate().all(|(i, op)| {
        let spec = form.spec_at(i).expect("within max_operands");
        if !kind_accepts(spec.kind, op.class) {
            return false;
        }
        if family.type_check == TypeCheck::None {
            return true;
        }
        match expected_type(spec.ty, types) {
            Some((want, _)) => operand_types_ok(family.type_check, op, &want, regs),
            None => true,
        }
    })
}

/// The `%names` among the operands (and vector elements) that are not declared
/// registers: special registers.
fn special_registers(instr: &Instr, regs: &Regs) -> Vec<String> {
    let mut out = Vec::new();
    for op in &instr.operands {
        for part in op.text.split(|c: char| "{},|![]+ ".contains(c)) {
            if part.starts_with('%') && regs.type_of(part).is_none() {
                out.push(part.to_string());
            }
        }
    }
    out
}

/// Checks one instruction; returns the family and what went wrong, if anything.
fn check_instr(instr: &Instr, regs: &Regs) -> Result<&'static Family, String> {
    let mods: Vec<&str> = instr.modifiers.iter().map(String::as_str).collect();
    let (family, consumed) =
        lookup(&instr.opcode, &mods).ok_or_else(|| format!("no family for `{}`", instr.opcode))?;
    let rest = &consumed.rest(&mods)[..];
    if let Some(bad) = rest.iter().find(|m| !family.allows_modifier(m)) {
        return Err(format!("family `{}` does not allow `{bad}`", family.name));
    }
    let types: Vec<&str> = rest.iter().copied().filter(|m| family.is_type(m)).collect();
    let forms = family.parsed_forms();
    if !forms
        .iter()
        .any(|f| form_matches(family, f, instr, &types, regs))
    {
        let classes: Vec<_> = instr
            .operands
            .iter()
            .map(|o| (o.text.as_str(), o.class))
            .collect();
        return Err(format!(
            "family `{}`: operands match no form of {:?}: {classes:?}",
            family.name, family.forms
        ));
    }
    Ok(family)
}

/// The minimum version and target the table asks for this instruction.
fn table_requirement(family: &Family, modifiers: &[&str]) -> (PtxVersion, u32) {
    let mut ptx = family.min_ptx;
    let mut sm = family.min_sm;
    for m in modifiers {
        for r in family.requirements.iter().filter(|r| r.modifier == *m) {
            ptx = ptx.max(r.min_ptx);
            sm = sm.max(r.min_sm);
        }
        if family.is_type(m) {
            if let Some((p, s)) = type_requirement(m) {
                ptx = ptx.max(p);
                sm = sm.max(s);
            }
        }
    }
    (ptx, sm)
}

fn parse_version(s: &str) -> PtxVersion {
    let (a, b) = s.split_once('.').expect("version");
    v(a.parse().unwrap(), b.parse().unwrap())
}

fn parse_sm(s: &str) -> u32 {
    s.trim_start_matches("sm_")
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .unwrap()
}

fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn ptxas_accepted_instructions_match_the_table() {
    // PTXAS_ACCEPTED: check another file of probe_ptxas.py output instead.
    let path = std::env::var("PTXAS_ACCEPTED")
        .map(PathBuf::from)
        .unwrap_or_else(|_| data_path("ptxas_accepted.txt"));
    let text = std::fs::read_to_string(path).unwrap();
    let regs = Regs {
        convention: true,
        ..Regs::default()
    };
    let mut errors = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('@') {
            continue;
        }
        let (meta, instr_text) = line.split_once(" | ").expect("annotated line");
        let (sm, ver) = meta.split_once(' ').expect("target and version");
        let instr = parse_instr(instr_text, &regs).expect("instruction");
        count += 1;
        match check_instr(&instr, &regs) {
            Err(e) => errors.push(format!("{instr_text}\n    {e}")),
            Ok(family) => {
                for name in special_registers(&instr, &regs) {
                    match ptx_isa::special_reg(&name) {
                        None => errors.push(format!("{instr_text}\n    unknown special register {name}")),
                        Some(r) if r.min_ptx > parse_version(ver) || r.min_sm > parse_sm(sm) => errors.push(format!(
                            "{instr_text}\n    {name} asks for PTX {} sm_{}, ptxas accepts it at {ver} {sm}",
                            r.min_ptx, r.min_sm
                        )),
                        Some(_) => {}
                    }
                }
                let mods: Vec<&str> = instr.modifiers.iter().map(String::as_str).collect();
                let (_, consumed) = lookup(&instr.opcode, &mods).unwrap();
                let (ptx, min_sm) = table_requirement(family, &consumed.rest(&mods));
                if ptx > parse_version(ver) || min_sm > parse_sm(sm) {
                    errors.push(format!(
                        "{instr_text}\n    table asks for PTX {ptx} sm_{min_sm}, ptxas accepts it at {ver} {sm}"
                    ));
                }
            }
        }
    }
    assert!(
        count > 1000 || std::env::var("PTXAS_ACCEPTED").is_ok(),
        "only {count} samples"
    );
    assert!(
        errors.is_empty(),
        "{} of {count} samples fail:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// The statements of a PTX module, without comments, labels and guards, with the
/// `.reg` declarations seen so far applied to `regs`.
fn corpus_statements(text: &str, regs: &mut Regs) -> Vec<String> {
    let mut clean = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(i) = rest
            .find("//")
            .filter(|&i| rest.find("/*").is_none_or(|j| i < j))
        {
            clean.push_str(&rest[..i]);
            rest = rest[i..].find('\n').map_or("", |j| &rest[i + j..]);
        } else if let Some(i) = rest.find("/*") {
            clean.push_str(&rest[..i]);
            rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
        } else {
            clean.push_str(rest);
            rest = "";
        }
    }
    // `.loc` and `.file` end at the end of their line, without a `;`.
    let clean: String = clean
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with(".loc") || t.starts_with(".file") {
                format!("{l};\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    // Split into statements at `;` and at the braces of blocks (not of vectors).
    let mut raw = Vec::new();
    let mut cur = String::new();
    let mut vec_depth = 0;
    for c in clean.chars() {
        match c {
            ';' => raw.push(std::mem::take(&mut cur)),
            '{' => {
                let t = cur.trim();
                let block = t.is_empty()
                    || t.ends_with(':')
                    || t.ends_with(')')
                    || (t.starts_with('.') && !t.ends_with('='));
                if block {
                    raw.push(std::mem::take(&mut cur));
                } else {
                    vec_depth += 1;
                    cur.push(c);
                }
            }
            '}' if vec_depth > 0 => {
                vec_depth -= 1;
                cur.push(c);
            }
            '}' => raw.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    raw.push(cur);
    let mut out = Vec::new();
    for stmt in &raw {
        let mut s = stmt.trim();
        // Labels `name:` (but not the `::` inside modifiers).
        while let Some(i) = s.find(':') {
            let label = &s[..i];
            if !label.is_empty()
                && !s[i..].starts_with("::")
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_$%".contains(c))
            {
                s = s[i + 1..].trim();
            } else {
                break;
            }
        }
        if s.is_empty() {
            continue;
        }
        if s.starts_with(".reg") {
            regs.declare(s);
        } else if s.starts_with('.') && s.contains(".reg") {
            // Register parameters of a function header.
            for piece in s.split(['(', ')', ',']) {
                if piece.trim_start().starts_with(".reg") {
                    regs.declare(piece.trim());
                }
            }
        }
        out.push(s.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    out
}

fn corpus_files() -> Vec<PathBuf> {
    let Some(root) = corpus_dir() else {
        return Vec::new();
    };
    let mut files = ptx_files(&root.join("zluda/spirv_run"));
    files.extend(ptx_files(&root.join("dealii")));
    files.sort();
    files
}

/// ZLUDA test kernels that ptxas 13.0.88 rejects (see `spirv_run.json`).
const CORPUS_REJECTED: &[&str] = &[
    "vector8_extract.ptx",
    "noreturn.ptx",
    "vote_ballot_nosync.ptx",
];

#[test]
fn corpus_instructions_match_the_table() {
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("corpus not found; skipped");
        return;
    }
    let mut errors = Vec::new();
    let mut count = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let mut regs = Regs::default();
        for stmt in corpus_statements(&text, &mut regs) {
            if stmt.starts_with('.') {
                let word = stmt.split_whitespace().next().unwrap();
                let word = word.split(['(', '[']).next().unwrap();
                // `.reg.u32` is `.reg .u32`.
                let word = match word[1..].find('.') {
                    Some(i) => &word[..i + 1],
                    None => word,
                };
                if ptx_isa::DIRECTIVES.iter().all(|d| d.name != word) {
                    errors.push(format!("{name}: unknown directive `{word}`"));
                }
                continue;
            }
            let Some(instr) = parse_instr(&stmt, &regs) else {
                continue;
            };
            count += 1;
            for name in special_registers(&instr, &regs) {
                if ptx_isa::special_reg(&name).is_none() {
                    errors.push(format!(
                        "{name}: {stmt}\n    unknown special register {name}"
                    ));
                }
            }
            if let Err(e) = check_instr(&instr, &regs) {
                if !CORPUS_REJECTED.contains(&name.as_str()) {
                    errors.push(format!("{name}: {stmt}\n    {e}"));
                }
            }
        }
    }
    assert!(count > 10_000, "only {count} corpus instructions");
    assert!(
        errors.is_empty(),
        "{} corpus failures:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The table itself.

#[test]
fn family_names_are_unique_and_documented() {
    let mut seen = std::collections::HashSet::new();
    for f in FAMILIES {
        assert!(seen.insert(f.name), "duplicate family `{}`", f.name);
        assert!(!f.summary.trim().is_empty(), "`{}` has no summary", f.name);
        assert!(
            !f.summary.contains('\n'),
            "`{}`: summary is more than one line",
            f.name
        );
        assert!(!f.syntax.trim().is_empty(), "`{}` has no syntax", f.name);
        let opcode = f.name.split('.').next().unwrap();
        assert!(
            f.syntax.contains(opcode),
            "`{}`: syntax does not mention the opcode",
            f.name
        );
        assert!(!f.forms.is_empty(), "`{}` has no forms", f.name);
    }
}

#[test]
fn modifiers_are_well_formed() {
    for f in FAMILIES {
        let mut seen = std::collections::HashSet::new();
        for m in f.types.iter().chain(f.modifiers) {
            assert!(
                m.starts_with('.'),
                "`{}`: modifier `{m}` lacks its dot",
                f.name
            );
            assert!(
                !m.contains(char::is_whitespace),
                "`{}`: modifier `{m}`",
                f.name
            );
            assert!(seen.insert(*m), "`{}`: `{m}` listed twice", f.name);
            if let Some(prefix) = m.strip_suffix('*') {
                assert!(prefix.len() > 2, "`{}`: glob `{m}` is too broad", f.name);
            }
        }
        // A family name's own dotted parts are not modifiers of the family.
        for part in f.name.split('.').skip(1) {
            let m = format!(".{part}");
            assert!(
                !f.modifiers.contains(&m.as_str()),
                "`{}` lists its own `{m}`",
                f.name
            );
        }
    }
}

#[test]
fn requirements_name_allowed_modifiers() {
    for f in FAMILIES {
        for r in f.requirements {
            assert!(
                f.allows_modifier(r.modifier),
                "`{}`: requirement for `{}`, which it does not allow",
                f.name,
                r.modifier
            );
        }
    }
}

#[test]
fn typed_forms_belong_to_typed_families() {
    for f in FAMILIES {
        for form in f.parsed_forms() {
            for op in &form.operands {
                let uses_inst_type = matches!(
                    op.ty,
                    OperandType::Inst | OperandType::Nth(_) | OperandType::Wide
                );
                assert!(
                    !uses_inst_type || !f.types.is_empty(),
                    "`{}`: a form checks against T but the family has no types",
                    f.name
                );
            }
        }
    }
}

fn family(opcode: &str, mods: &[&str]) -> (&'static str, usize) {
    let (f, n) = lookup(opcode, mods).unwrap_or_else(|| panic!("no family for {opcode} {mods:?}"));
    (f.name, n.count())
}

#[test]
fn lookup_examples() {
    let tensor = [
        ".async",
        ".bulk",
        ".tensor",
        ".2d",
        ".shared::cluster",
        ".global",
        ".tile",
    ];
    assert_eq!(family("cp", &tensor), ("cp.async.bulk.tensor", 3));
    assert_eq!(
        family("cp", &[".async", ".ca", ".shared", ".global"]),
        ("cp.async", 1)
    );
    assert_eq!(
        family("cp", &[".async", ".wait_group"]),
        ("cp.async.wait_group", 2)
    );
    assert_eq!(
        family("cp", &[".async", ".bulk", ".prefetch", ".tensor", ".1d"]),
        ("cp.async.bulk.prefetch.tensor", 4)
    );
    assert_eq!(
        family("cp", &[".async", ".bulk", ".prefetch", ".L2"]),
        ("cp.async.bulk.prefetch", 3)
    );
    assert_eq!(
        family("cp", &[".reduce", ".async", ".bulk", ".tensor"]),
        ("cp.reduce.async.bulk.tensor", 4)
    );
    assert_eq!(family("ld", &[".global", ".v4", ".f32"]), ("ld", 0));
    assert_eq!(
        family("ld", &[".global", ".nc", ".f32"]),
        ("ld.global.nc", 2)
    );
    // ptxas takes modifiers in any order: this is `ld.global{.cop}.nc`.
    assert_eq!(
        family("ld", &[".global", ".ca", ".nc", ".f32"]),
        ("ld.global.nc", 2)
    );
    assert_eq!(
        family("match", &[".sync", ".any", ".b32"]),
        ("match.any", 1)
    );
    assert_eq!(family("add", &[".s32"]), ("add", 0));
    assert_eq!(family("add", &[".cc", ".u32"]), ("add.cc", 1));
    assert_eq!(family("mad", &[".lo", ".cc", ".u32"]), ("mad", 0));
    assert_eq!(
        family("mbarrier", &[".arrive", ".expect_tx", ".b64"]),
        ("mbarrier.arrive", 1)
    );
    assert_eq!(
        family("mbarrier", &[".arrive_drop", ".b64"]),
        ("mbarrier.arrive_drop", 1)
    );
    assert_eq!(
        family("mbarrier", &[".try_wait", ".parity", ".b64"]),
        ("mbarrier.try_wait", 1)
    );
    assert_eq!(
        family("barrier", &[".cluster", ".arrive"]),
        ("barrier.cluster", 1)
    );
    assert_eq!(family("barrier", &[".sync", ".aligned"]), ("barrier", 0));
    assert_eq!(family("bar", &[".warp", ".sync"]), ("bar.warp.sync", 2));
    assert_eq!(family("bar", &[".sync"]), ("bar", 0));
    assert_eq!(family("fence", &[".proxy", ".async"]), ("fence.proxy", 1));
    assert_eq!(family("fence", &[".acq_rel", ".gpu"]), ("fence", 0));
    assert_eq!(
        family("wgmma", &[".mma_async", ".sp", ".sync"]),
        ("wgmma.mma_async.sp", 2)
    );
    assert_eq!(
        family("wgmma", &[".mma_async", ".sync"]),
        ("wgmma.mma_async", 1)
    );
    assert_eq!(
        family("mma", &[".sp::ordered_metadata", ".sync"]),
        ("mma.sp::ordered_metadata", 1)
    );
    assert_eq!(family("mma", &[".sp", ".sync"]), ("mma.sp", 1));
    assert_eq!(family("mma", &[".sync", ".aligned"]), ("mma", 0));
    assert_eq!(
        family("tcgen05", &[".mma", ".ws", ".sp", ".cta_group::1"]),
        ("tcgen05.mma.ws.sp", 3)
    );
    assert_eq!(
        family("tcgen05", &[".wait::ld", ".sync", ".aligned"]),
        ("tcgen05.wait::ld", 1)
    );
    assert_eq!(
        family("tcgen05", &[".fence::after_thread_sync"]),
        ("tcgen05.fence::after_thread_sync", 1)
    );
    assert_eq!(
        family("tcgen05", &[".ld", ".red", ".sync"]),
        ("tcgen05.ld.red", 2)
    );
    assert_eq!(family("shfl", &[".sync", ".idx", ".b32"]), ("shfl.sync", 1));
    assert_eq!(
        family("vote", &[".sync", ".ballot", ".b32"]),
        ("vote.sync", 1)
    );
    assert_eq!(
        family("match", &[".any", ".sync", ".b32"]),
        ("match.any", 1)
    );
    assert_eq!(family("red", &[".async", ".relaxed"]), ("red.async", 1));
    assert_eq!(family("red", &[".global", ".add", ".u32"]), ("red", 0));
    assert_eq!(family("st", &[".async", ".b32"]), ("st.async", 1));
    assert_eq!(family("st", &[".bulk"]), ("st.bulk", 1));
    assert_eq!(
        family("rcp", &[".approx", ".ftz", ".f64"]),
        ("rcp.approx.ftz.f64", 3)
    );
    assert_eq!(family("rcp", &[".rn", ".f64"]), ("rcp", 0));
    assert_eq!(
        family("cvt", &[".pack", ".sat", ".u8", ".s32", ".b32"]),
        ("cvt.pack", 1)
    );
    assert_eq!(
        family("multimem", &[".ld_reduce", ".add", ".u32"]),
        ("multimem.ld_reduce", 1)
    );
    assert_eq!(
        family(
            "clusterlaunchcontrol",
            &[".query_cancel", ".is_canceled", ".pred", ".b128"]
        ),
        ("clusterlaunchcontrol.query_cancel", 1)
    );
    assert!(lookup("foobar", &[]).is_none());
    assert!(lookup("mbarrier", &[]).is_none());
    assert!(ptx_isa::is_known_opcode("mbarrier"));
    assert!(ptx_isa::is_known_opcode("vabsdiff4"));
    assert!(!ptx_isa::is_known_opcode("setsmemsize"));
}

fn allows(opcode: &str, mods: &[&str], modifier: &str) -> bool {
    let (f, _) = lookup(opcode, mods).unwrap();
    f.allows_modifier(modifier)
}

#[test]
fn allows_modifier_examples() {
    assert!(allows("add", &[], ".sat"));
    assert!(allows("add", &[], ".bf16x2"));
    assert!(allows("add", &[], ".f32x2"));
    assert!(!allows("add", &[], ".wide"));
    assert!(!allows("add", &[], ".b32"));
    assert!(allows("mul", &[], ".wide"));
    assert!(allows("min", &[], ".NaN"));
    assert!(allows("min", &[], ".xorsign"));
    assert!(!allows("min", &[], ".sat"));
    assert!(allows("setp", &[], ".geu"));
    assert!(allows("setp", &[], ".and"));
    assert!(!allows("setp", &[], ".sat"));
    assert!(allows("ld", &[], ".L1::evict_last"));
    assert!(allows("ld", &[], ".L2::256B"));
    assert!(allows("ld", &[], ".L2::cache_hint"));
    assert!(allows("ld", &[], ".shared::cluster"));
    assert!(allows("ld", &[], ".v8"));
    assert!(allows("ld", &[], ".nc"));
    assert!(!allows("ld", &[], ".wb"));
    assert!(allows("st", &[], ".wb"));
    assert!(!allows("st", &[], ".nc"));
    assert!(allows(
        "cp",
        &[".async", ".bulk", ".tensor"],
        ".im2col::w::128"
    ));
    assert!(allows("cp", &[".async", ".bulk", ".tensor"], ".5d"));
    assert!(allows(
        "cp",
        &[".async", ".bulk", ".tensor"],
        ".multicast::cluster"
    ));
    assert!(!allows("cp", &[".async", ".bulk", ".tensor"], ".6d"));
    assert!(allows("tex", &[], ".a2d"));
    assert!(allows("tex", &[], ".v4"));
    assert!(allows("wgmma", &[".mma_async"], ".m64n256k16"));
    assert!(allows("mma", &[], ".m16n8k16"));
    assert!(allows("mma", &[], ".kind::f8f6f4"));
    assert!(allows("tcgen05", &[".mma"], ".collector::a::fill"));
    assert!(allows(
        "tcgen05",
        &[".mma", ".ws"],
        ".collector::b2::lastuse"
    ));
    assert!(allows("atom", &[], ".cas"));
    assert!(allows("atom", &[], ".b128"));
    assert!(allows("red", &[], ".noftz"));
    assert!(allows("cvt", &[], ".rni"));
    assert!(allows("cvt", &[], ".e2m1x2"));
    assert!(allows("fence", &[], ".sync_restrict::shared::cluster"));
    assert!(allows("vadd4", &[], ".sat"));
    assert!(!allows("bra", &[], ".sat"));
}

#[test]
fn types_are_the_last_type_written() {
    let (f, _) = lookup("cvt", &[".rn", ".f32", ".s32"]).unwrap();
    assert!(f.is_type(".f32") && f.is_type(".s32") && !f.is_type(".rn"));
    let (f, _) = lookup("setp", &[".lt", ".s32"]).unwrap();
    assert!(f.is_type(".s32") && !f.is_type(".lt"));
}

#[test]
fn every_form_parses() {
    for f in FAMILIES {
        assert_eq!(f.parsed_forms().len(), f.forms.len(), "`{}`", f.name);
    }
    let (f, _) = lookup("setp", &[".lt", ".s32"]).unwrap();
    let forms = f.parsed_forms();
    assert_eq!(forms[0].operands[0].kind, OperandKind::PredPair);
    assert_eq!(forms[1].max_operands(), Some(4));
}

#[test]
fn special_registers_table() {
    let mut seen = std::collections::HashSet::new();
    for r in ptx_isa::SPECIAL_REGS {
        assert!(seen.insert(r.name), "duplicate special register {}", r.name);
        assert!(r.name.starts_with('%'), "{}", r.name);
        assert!(type_bits(r.ty).is_some(), "{}: type {}", r.name, r.ty);
        assert!(!r.summary.is_empty(), "{}", r.name);
    }
    let get = |n: &str| ptx_isa::special_reg(n).map(|r| r.name);
    assert_eq!(get("%tid.x"), Some("%tid"));
    assert_eq!(get("%cluster_nctaid.z"), Some("%cluster_nctaid"));
    assert_eq!(get("%envreg31"), Some("%envreg31"));
    assert_eq!(get("%pm7_64"), Some("%pm7_64"));
    assert_eq!(get("%laneid"), Some("%laneid"));
    assert_eq!(get("%envreg32"), None);
    assert_eq!(get("%pm8"), None);
    assert_eq!(get("%laneid.x"), None);
    assert_eq!(get("%tid.q"), None);
    assert_eq!(ptx_isa::special_reg("%gridid").unwrap().ty, ".u64");
    assert_eq!(
        ptx_isa::special_reg("%is_explicit_cluster").unwrap().ty,
        ".pred"
    );
}

#[test]
fn directives_table() {
    let mut seen = std::collections::HashSet::new();
    for d in ptx_isa::DIRECTIVES {
        assert!(seen.insert(d.name), "duplicate directive {}", d.name);
        assert!(d.name.starts_with('.'), "{}", d.name);
        assert!(
            !d.summary.is_empty() && !d.summary.contains('\n'),
            "{}",
            d.name
        );
    }
    for name in [
        ".version",
        ".target",
        ".address_size",
        ".entry",
        ".func",
        ".param",
        ".reg",
        ".local",
        ".shared",
        ".global",
        ".const",
        ".tex",
        ".texref",
        ".samplerref",
        ".surfref",
        ".file",
        ".loc",
        ".section",
        ".pragma",
        ".maxntid",
        ".reqntid",
        ".minnctapersm",
        ".maxnctapersm",
        ".maxnreg",
        ".maxclusterrank",
        ".reqnctapercluster",
        ".explicitcluster",
        ".blocksareclusters",
        ".noreturn",
        ".extern",
        ".visible",
        ".weak",
        ".common",
        ".alias",
        ".callprototype",
        ".calltargets",
        ".branchtargets",
        ".align",
        ".ptr",
        ".abi_preserve",
        ".abi_preserve_control",
        ".attribute",
    ] {
        assert!(seen.contains(name), "missing directive {name}");
    }
}

#[test]
fn every_family_has_a_ptxas_sample() {
    let text = std::fs::read_to_string(data_path("ptxas_accepted.txt")).unwrap();
    let regs = Regs {
        convention: true,
        ..Regs::default()
    };
    let mut covered = std::collections::HashSet::new();
    for line in text
        .lines()
        .filter(|l| l.contains(" | ") && !l.starts_with('#'))
    {
        let instr = parse_instr(line.split_once(" | ").unwrap().1, &regs).unwrap();
        let mods: Vec<&str> = instr.modifiers.iter().map(String::as_str).collect();
        if let Some((f, _)) = lookup(&instr.opcode, &mods) {
            covered.insert(f.name);
        }
    }
    let missing: Vec<_> = FAMILIES
        .iter()
        .map(|f| f.name)
        .filter(|n| !covered.contains(n))
        .collect();
    assert!(missing.is_empty(), "families without a sample: {missing:?}");
}

/// Samples for which the table asks for less than ptxas needs (a missing or too
/// low requirement: the safe direction, since ptxas has the last word, but a
/// check we miss). A ratchet: the count may go down, never up. See the list with
/// `cargo test -p ptx-isa --test table requirements_below_ptxas -- --nocapture`.
#[test]
fn requirements_below_ptxas_do_not_grow() {
    const KNOWN_GAPS: usize = 82;
    let mut gaps = 0;
    // The lowest .version each target accepts.
    fn floor(sm: &str) -> PtxVersion {
        match parse_sm(sm) {
            75 => v(6, 3),
            80 => v(7, 0),
            86 => v(7, 1),
            87 => v(7, 4),
            88 => v(9, 0),
            89 => v(7, 8),
            90 => {
                if sm.ends_with('a') {
                    v(8, 0)
                } else {
                    v(7, 8)
                }
            }
            100 | 101 => {
                if sm.ends_with('f') {
                    v(8, 8)
                } else {
                    v(8, 6)
                }
            }
            103 | 110 | 121 => v(8, 8),
            120 => {
                if sm.ends_with('f') {
                    v(8, 8)
                } else {
                    v(8, 7)
                }
            }
            _ => v(9, 0),
        }
    }
    let path = std::env::var("PTXAS_ACCEPTED")
        .map(PathBuf::from)
        .unwrap_or_else(|_| data_path("ptxas_accepted.txt"));
    let text = std::fs::read_to_string(path).unwrap();
    let regs = Regs {
        convention: true,
        ..Regs::default()
    };
    for line in text
        .lines()
        .filter(|l| l.contains(" | ") && !l.starts_with('#'))
    {
        let (meta, instr_text) = line.split_once(" | ").unwrap();
        let (sm, ver) = meta.split_once(' ').unwrap();
        let instr = parse_instr(instr_text, &regs).unwrap();
        let mods: Vec<&str> = instr.modifiers.iter().map(String::as_str).collect();
        let Some((family, consumed)) = lookup(&instr.opcode, &mods) else {
            continue;
        };
        let (ptx, min_sm) = table_requirement(family, &consumed.rest(&mods));
        let ver = parse_version(ver);
        let ver_low = ver > floor(sm) && ptx < ver;
        let sm_low = parse_sm(sm) > 75 && min_sm < parse_sm(sm);
        if ver_low || sm_low {
            gaps += 1;
            println!("table PTX {ptx} sm_{min_sm} < ptxas {ver} {sm}: {instr_text}");
        }
    }
    assert!(
        gaps <= KNOWN_GAPS,
        "{gaps} requirement gaps, more than the {KNOWN_GAPS} known: a table change lowered a requirement"
    );
    if gaps < KNOWN_GAPS {
        println!("{gaps} gaps: lower KNOWN_GAPS to {gaps}");
    }
}

/// Instructions ptxas rejects that the table must reject too (an unknown modifier
/// or a wrong number of operands); each line is `instruction` (see
/// `tests/data/ptxas_rejected.txt`).
#[test]
fn ptxas_rejected_instructions_are_rejected() {
    let path = std::env::var("PTXAS_REJECTED")
        .map(PathBuf::from)
        .unwrap_or_else(|_| data_path("ptxas_rejected.txt"));
    let text = std::fs::read_to_string(path).unwrap();
    let regs = Regs {
        convention: true,
        ..Regs::default()
    };
    let report = std::env::var("PTXAS_REJECTED").is_ok();
    let mut errors = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let instr_text = line.split('\t').next().unwrap();
        let instr = parse_instr(instr_text, &regs).unwrap();
        if check_instr(&instr, &regs).is_ok() {
            errors.push(line.to_string());
        }
    }
    if report {
        println!("{}", errors.join("\n"));
    } else {
        assert!(
            errors.is_empty(),
            "the table accepts:\n{}",
            errors.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// The PTX wrappers of libcu++ (`cuda/__ptx/instructions/generated/*.h` of the CUDA
// toolkit the project installs): ~1,700 instruction variants written by NVIDIA.

/// The CUDA toolkit: `PTXOPT_CUDA_HOME`, or `~/.cache/ptxopt/cuda-13.0.88`.
/// The concatenated contents of the string literals in `s` (C escapes `\n`, `\t`,
/// `\"` and `\\` decoded).
fn string_literals(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(other) => out.push(other),
                    None => {}
                },
                _ => out.push(c),
            }
        }
    }
    out
}

/// Splits `body` at top-level `:` (outside strings, parentheses and `::`).
fn split_asm_sections(body: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut in_str = false;
    let mut depth = 0;
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if in_str {
            if c == '\\' {
                parts.last_mut().unwrap().push(c);
                i += 1;
                parts.last_mut().unwrap().push(b[i] as char);
            } else {
                if c == '"' {
                    in_str = false;
                }
                parts.last_mut().unwrap().push(c);
            }
        } else if c == '"' {
            in_str = true;
            parts.last_mut().unwrap().push(c);
        } else if c == ':'
            && depth == 0
            && b.get(i + 1) != Some(&b':')
            && (i == 0 || b[i - 1] != b':')
        {
            parts.push(String::new());
        } else {
            if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
            }
            parts.last_mut().unwrap().push(c);
        }
        i += 1;
    }
    parts
}

/// Instruction statements from the `asm(...)` statements of a header, with the
/// `%N` placeholders replaced by registers of the sample file's naming convention.
fn asm_instructions(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find("asm(").or_else(|| rest.find("asm volatile(")) {
        let start = i + rest[i..].find('(').unwrap() + 1;
        // Find the matching `)`, skipping string literals.
        let b = rest.as_bytes();
        let (mut j, mut depth, mut in_str) = (start, 1, false);
        while j < b.len() && depth > 0 {
            match b[j] {
                b'\\' if in_str => j += 1,
                b'"' => in_str = !in_str,
                b'(' if !in_str => depth += 1,
                b')' if !in_str => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        let body = &rest[start..j - 1];
        rest = &rest[j..];
        let sections = split_asm_sections(body);
        let template = string_literals(&sections[0]);
        let mut operands = Vec::new();
        for section in sections.iter().skip(1).take(2) {
            for c in section.split('"').skip(1).step_by(2) {
                let letter = c.trim_start_matches(['=', '+', '&']);
                let n = operands.len();
                operands.push(match letter {
                    "r" => format!("%r{}", 100 + n),
                    "l" => format!("%rd{}", 50 + n),
                    "h" => format!("%h{}", 20 + n),
                    "f" => format!("%f{}", 50 + n),
                    "d" => format!("%fd{}", 20 + n),
                    "n" => "1".to_string(),
                    _ => "?".to_string(),
                });
            }
        }
        // `%N` placeholders to registers.
        let mut text = String::new();
        let mut chars = template.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '%' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                let mut num = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    num.push(*d);
                    chars.next();
                }
                let n: usize = num.parse().unwrap();
                text.push_str(operands.get(n).map_or("?", String::as_str));
            } else {
                text.push(c);
            }
        }
        let text = text.replace("%%", "%");
        let text: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        // Registers declared inside the template (`.reg .pred P_OUT;`).
        let mut locals: Vec<(String, &str)> = Vec::new();
        for stmt in text.split(';') {
            let words: Vec<&str> = stmt.split_whitespace().filter(|w| *w != "{").collect();
            if words.len() == 3 && words[0] == ".reg" {
                let reg = match words[1] {
                    ".pred" => "%p8",
                    ".b128" => "%q1",
                    ".b32" => "%r199",
                    ".b64" => "%rd99",
                    ".b16" => "%h39",
                    _ => "?",
                };
                locals.push((words[2].to_string(), reg));
            }
        }
        for stmt in text.split(';') {
            let mut s = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            for (name, reg) in &locals {
                s = s
                    .split_inclusive(|c: char| !c.is_alphanumeric() && c != '_')
                    .map(|tok| {
                        let word = tok.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
                        if word == name {
                            tok.replacen(word, reg, 1)
                        } else {
                            tok.to_string()
                        }
                    })
                    .collect();
            }
            let mut s = s.trim();
            while let Some(r) = s.strip_prefix('{') {
                if r.starts_with(' ') || r.is_empty() || r.starts_with('.') {
                    s = r.trim();
                } else {
                    break;
                }
            }
            if s.ends_with('}') && s.matches('}').count() > s.matches('{').count() {
                s = s[..s.len() - 1].trim();
            }
            let s = s.trim_start_matches('}').trim();
            if !s.is_empty() && !s.starts_with(".reg") && !s.contains('?') {
                out.push(s.to_string());
            }
        }
    }
    out
}

#[test]
fn libcudacxx_ptx_wrappers_match_the_table() {
    let Some(dir) = cuda_home()
        .map(|h| h.join("include/cccl/cuda/__ptx/instructions/generated"))
        .filter(|d| d.is_dir())
    else {
        eprintln!("CUDA headers not found; skipped");
        return;
    };
    let regs = Regs {
        convention: true,
        ..Regs::default()
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut seen = std::collections::HashSet::new();
    let mut errors = Vec::new();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "h"))
    {
        let src = std::fs::read_to_string(path).unwrap();
        for text in asm_instructions(&src) {
            if !seen.insert(text.clone()) {
                continue;
            }
            let instr = parse_instr(&text, &regs).unwrap();
            if let Err(e) = check_instr(&instr, &regs) {
                errors.push(format!("{text}\n    {e}"));
            }
        }
    }
    assert!(
        seen.len() > 1000,
        "only {} instructions in {}",
        seen.len(),
        dir.display()
    );
    assert!(
        errors.is_empty(),
        "{} of {} fail:\n{}",
        errors.len(),
        seen.len(),
        errors.join("\n")
    );
}

// ---------------------------------------------------------------------------
// ptxas as the oracle of the sample files (skipped without ptxas, unless
// `PTXOPT_REQUIRE_PTXAS` is set).

/// The module around the samples; the same as `PRELUDE` of `probe_ptxas.py`.
fn sample_module(target: &str, version: &str, lines: &[&str]) -> String {
    let mut text = format!(".version {version}\n.target {target}\n.address_size 64\n");
    text.push_str(
        ".global .align 16 .b8 gbuf[1024];\n.shared .align 16 .b8 sbuf[1024];\n\
         .shared .align 8 .b64 mbar;\n.const .align 16 .b8 cbuf[1024];\n.global .texref tex0;\n\
         .global .surfref surf0;\n",
    );
    if target.contains("texmode_independent") {
        text.push_str(".global .samplerref samp0;\n");
    }
    text.push_str(
        ".func (.param .b32 fr) fn(.param .b32 fa) { ret; }\n.func fn0() { ret; }\n\
         .visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128]) {\n\
         .reg .pred %p<20>;\n.reg .b8 %b<20>;\n.reg .b16 %h<40>;\n.reg .b32 %r<200>;\n\
         .reg .b64 %rd<100>;\n.reg .f32 %f<100>;\n.reg .f64 %fd<40>;\n",
    );
    if parse_version(version) >= v(8, 3) {
        text.push_str(".reg .b128 %q<10>;\n");
    }
    text.push_str(
        ".local .align 16 .b8 lbuf[64];\n.param .b32 pa;\n.param .b32 pr;\n\
         ts: .branchtargets L0, L1;\nfproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n\
         fproto0: .callprototype _ ();\nL0:\nL1:\n",
    );
    for l in lines {
        text.push_str(l);
        text.push_str(";\n");
    }
    text.push_str("ret;\n}\n");
    text
}

/// Runs ptxas on a module; returns its messages if it rejects it.
fn ptxas_rejects(ptxas: &Path, target: &str, module: &str) -> Option<String> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let tag = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file =
        std::env::temp_dir().join(format!("ptx-isa-oracle-{}-{tag}.ptx", std::process::id()));
    std::fs::write(&file, module).unwrap();
    let arch = target.split(',').next().unwrap().trim();
    let out = std::process::Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(&file)
        .args(["-o", "/dev/null"])
        .output()
        .expect("run ptxas");
    let _ = std::fs::remove_file(&file);
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn ptxas_accepts_the_samples_at_their_target_and_version() {
    let Some(ptxas) = ptxas() else {
        eprintln!("ptxas not found; skipped");
        return;
    };
    let text = std::fs::read_to_string(data_path("ptxas_accepted.txt")).unwrap();
    // (declared target with options, minimum target, version) -> instructions
    let mut groups: std::collections::BTreeMap<(String, String, String), Vec<&str>> =
        Default::default();
    let mut declared = "sm_100a".to_string();
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("@target ") {
            declared = t.trim().to_string();
        } else if let Some((meta, instr)) =
            line.split_once(" | ").filter(|_| !line.starts_with('#'))
        {
            let (sm, ver) = meta.split_once(' ').unwrap();
            // A target with options (texmode_independent) keeps its options.
            let target = match declared.split_once(',') {
                Some((_, opts)) => format!("{sm},{opts}"),
                None => sm.to_string(),
            };
            groups
                .entry((declared.clone(), target, ver.to_string()))
                .or_default()
                .push(instr);
        }
    }
    let mut errors = Vec::new();
    for ((_, target, ver), lines) in &groups {
        let module = sample_module(target, ver, lines);
        let Some(msg) = ptxas_rejects(&ptxas, target, &module) else {
            continue;
        };
        // Map `line N;` messages to samples; an error without a line (some samples
        // cannot share a kernel, e.g. .cta_group::1 and ::2) means one by one.
        let first = module.lines().count() - lines.len() - 2;
        let lineless = msg.lines().any(|l| {
            (l.contains("error") || l.contains("fatal"))
                && !l.contains("line ")
                && !l.contains("aborted")
        });
        let suspects: Vec<&str> = if lineless {
            lines.clone()
        } else {
            msg.lines()
                .filter_map(|l| {
                    l.split("line ")
                        .nth(1)?
                        .split(';')
                        .next()?
                        .parse::<usize>()
                        .ok()
                })
                .filter_map(|n| lines.get(n.checked_sub(first + 1)?).copied())
                .collect()
        };
        for line in suspects {
            if let Some(msg) = ptxas_rejects(&ptxas, target, &sample_module(target, ver, &[line])) {
                errors.push(format!("{target} {ver}: {line}\n{msg}"));
            }
        }
    }
    assert!(
        errors.is_empty(),
        "ptxas rejects samples:\n{}",
        errors.join("\n")
    );
}

#[test]
fn ptxas_rejects_the_rejected_samples() {
    let Some(ptxas) = ptxas() else {
        eprintln!("ptxas not found; skipped");
        return;
    };
    let text = std::fs::read_to_string(data_path("ptxas_rejected.txt")).unwrap();
    let mut errors = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let instr = line.split('\t').next().unwrap();
        for target in ["sm_90a", "sm_100a"] {
            if ptxas_rejects(&ptxas, target, &sample_module(target, "9.0", &[instr])).is_none() {
                errors.push(format!("{target}: {instr}"));
            }
        }
    }
    assert!(errors.is_empty(), "ptxas accepts:\n{}", errors.join("\n"));
}

#[test]
fn table_sizes() {
    println!(
        "{} families, {} directives, {} special registers",
        FAMILIES.len(),
        ptx_isa::DIRECTIVES.len(),
        ptx_isa::SPECIAL_REGS.len()
    );
    assert!(FAMILIES.len() >= 190);
    assert!(ptx_isa::DIRECTIVES.len() >= 40);
    assert!(ptx_isa::SPECIAL_REGS.len() >= 80);
}
