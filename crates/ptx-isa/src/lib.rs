//! `ptx-isa`: the PTX instruction set as data.
//!
//! One table ([`FAMILIES`]) describes every instruction family of PTX ISA 9.0 as
//! ptxas 13.0.88 accepts it: the operand forms, the allowed type and non-type
//! modifiers, the minimum PTX version and target, and a one-line summary. The parser's
//! validation reads it today; hover docs and the emulator read it later. Nothing
//! here knows about syntax trees, salsa or LSP: it is plain static data plus small
//! lookup helpers.
//!
//! Operand forms are written in a tiny DSL (see [`OperandSpec::parse`]) so that the
//! table stays readable; every form string is parsed once, lazily, and a unit test
//! checks that all of them parse.

mod directives;
mod families;
mod forms;
pub mod opinfo;
mod special_regs;
mod targets;

pub use directives::{Directive, DirectivePlace, DIRECTIVES};
pub use families::FAMILIES;
pub use forms::{Form, FormError, OperandKind, OperandSpec, OperandType};
pub use opinfo::{BoolOp, Cmp, FamilyId, OpFlags, OpInfo, Rnd, Scope, Sem, Space, Ty, Types};
pub use special_regs::{special_reg, SpecialReg, SPECIAL_REGS};
pub use targets::target_min_ptx;

use std::sync::OnceLock;

/// A PTX ISA version, e.g. `.version 7.8` is `PtxVersion { major: 7, minor: 8 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion {
    pub major: u8,
    pub minor: u8,
}

/// Shorthand for [`PtxVersion`] in the tables.
pub const fn v(major: u8, minor: u8) -> PtxVersion {
    PtxVersion { major, minor }
}

impl std::fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The broad group an instruction family belongs to (the chapters of the PTX ISA
/// "Instruction Set" section).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    IntegerArithmetic,
    ExtendedPrecisionArithmetic,
    FloatArithmetic,
    HalfArithmetic,
    MixedPrecisionArithmetic,
    Comparison,
    Logic,
    DataMovement,
    Conversion,
    Texture,
    Surface,
    Control,
    Synchronization,
    WarpLevel,
    MatrixMultiply,
    TensorCoreGen5,
    Video,
    Miscellaneous,
}

/// How strictly the registers used as operands must match the instruction type.
/// These are the PTX ISA "Operand Size Exceeding Instruction-Type Size" and "Type
/// Checking" rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeCheck {
    /// Arithmetic and logic: a register must have the same size as the type it is
    /// checked against; bit-size types (`.bN`) match any type of their size, integer
    /// types match each other, float types match only themselves (and `.bN`).
    Strict,
    /// ld/st/mov/cvt and friends: a register may be wider than the type it is
    /// checked against (relaxed rules).
    Relaxed,
    /// Operands are not checked against the instruction type.
    None,
}

/// A modifier that needs a newer PTX version or target than the family itself,
/// e.g. `.bf16` on `fma` needs PTX 7.0 and sm_80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    /// The modifier, written as in source: `".bf16"`, `".L2::cache_hint"`.
    pub modifier: &'static str,
    pub min_ptx: PtxVersion,
    /// Minimum target as the number after `sm_` (e.g. 80 for sm_80). 0: any.
    pub min_sm: u32,
}

/// One instruction family: `add`, `ld`, `cp.async.bulk.tensor`, ...
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// Opcode with any fixed dotted parts, e.g. `"add"`, `"mbarrier.arrive"`,
    /// `"cp.async.bulk.tensor"`. Looked up by longest match, see [`lookup`].
    pub name: &'static str,
    pub category: Category,
    /// One line: what the instruction does.
    pub summary: &'static str,
    /// The syntax line(s) as the PTX ISA writes them, e.g.
    /// `"add{.sat}.type d, a, b;"`.
    pub syntax: &'static str,
    /// Allowed operand lists, in the form DSL (see [`OperandSpec::parse`]). The
    /// instruction must match at least one of them.
    pub forms: &'static [&'static str],
    /// Allowed type modifiers (`".s32"`, `".f16x2"`). The last of them written on
    /// an instruction is its "instruction type" `T`; cvt-like families use two.
    pub types: &'static [&'static str],
    /// Allowed non-type modifiers (`".sat"`, `".rn"`, `".global"`, `".v4"`). An entry
    /// ending in `*` matches every modifier starting with what precedes the `*`
    /// (for open-ended sets such as mma shapes `".m*"`); use sparingly.
    pub modifiers: &'static [&'static str],
    pub min_ptx: PtxVersion,
    /// Minimum target as the number after `sm_`; 0 for any target.
    pub min_sm: u32,
    /// Modifiers that need more than `min_ptx`/`min_sm`.
    pub requirements: &'static [Requirement],
    pub type_check: TypeCheck,
}

impl Family {
    /// The parsed operand forms of this family.
    pub fn parsed_forms(&self) -> &'static [Form] {
        // A family of the table is found by its address (constant time); a copy
        // made elsewhere falls back to a search by name.
        let base = FAMILIES.as_ptr() as usize;
        let offset = (self as *const Family as usize).wrapping_sub(base);
        let size = std::mem::size_of::<Family>();
        let index = if offset.is_multiple_of(size) && offset / size < FAMILIES.len() {
            offset / size
        } else {
            FAMILIES
                .iter()
                .position(|f| f.name == self.name)
                .expect("family is in FAMILIES")
        };
        &parsed_forms_table()[index]
    }

    /// Whether `modifier` (e.g. `".rn"`) is allowed on this family, as a type or
    /// as another modifier.
    pub fn allows_modifier(&self, modifier: &str) -> bool {
        self.types.contains(&modifier)
            || self.modifiers.iter().any(|m| match m.strip_suffix('*') {
                Some(prefix) => modifier.starts_with(prefix),
                None => *m == modifier,
            })
    }

    /// Whether `modifier` is one of this family's type modifiers.
    pub fn is_type(&self, modifier: &str) -> bool {
        self.types.contains(&modifier)
    }
}

fn parsed_forms_table() -> &'static [Vec<Form>] {
    static TABLE: OnceLock<Vec<Vec<Form>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        FAMILIES
            .iter()
            .map(|f| {
                f.forms
                    .iter()
                    .map(|s| Form::parse(s).unwrap_or_else(|e| panic!("{}: {e}", f.name)))
                    .collect()
            })
            .collect()
    })
}

/// Which of an instruction's modifiers spell its family name (`.async` and
/// `.bulk` of `cp.async.bulk`), as a bit set over modifier positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameParts(u64);

impl NameParts {
    /// Whether the modifier at `index` is part of the family name.
    pub fn contains(self, index: usize) -> bool {
        index < 64 && self.0 & (1 << index) != 0
    }

    /// How many modifiers the family name took.
    pub fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The modifiers that are not part of the family name, in order.
    pub fn rest<'a>(self, modifiers: &[&'a str]) -> Vec<&'a str> {
        modifiers
            .iter()
            .enumerate()
            .filter(|&(i, _)| !self.contains(i))
            .map(|(_, m)| *m)
            .collect()
    }
}

/// Finds the family of an instruction from its opcode and modifiers as written
/// (`opcode = "cp"`, `modifiers = [".async", ".bulk", ".tensor", ".2d", ...]`).
///
/// ptxas accepts modifiers in any order (`match.sync.any` and `match.any.sync`
/// are the same instruction), so a family matches when every dotted part of its
/// name appears among the modifiers, wherever; the family with the most parts
/// wins (`cp.async.bulk.tensor` over `cp.async`), and among equals the one
/// whose parts are written first (`mbarrier.arrive.expect_tx` is an
/// `mbarrier.arrive` with `.expect_tx`). Returns the family and which modifiers
/// its name took.
pub fn lookup(opcode: &str, modifiers: &[&str]) -> Option<(&'static Family, NameParts)> {
    lookup_index(opcode, modifiers).map(|(i, parts)| (&FAMILIES[i], parts))
}

/// [`lookup`], returning the family's index in [`FAMILIES`] (which is also its
/// [`FamilyId`], see [`FamilyId::from_index`]).
pub fn lookup_index<S: AsRef<str>>(opcode: &str, modifiers: &[S]) -> Option<(usize, NameParts)> {
    let candidates = opcode_index().get(opcode)?;
    let mut best: Option<(usize, NameParts)> = None;
    'families: for &i in candidates {
        let family = &FAMILIES[i];
        let mut taken = NameParts::default();
        for part in family.name.split('.').skip(1) {
            let found = modifiers.iter().enumerate().position(|(j, m)| {
                !taken.contains(j) && m.as_ref().strip_prefix('.') == Some(part)
            });
            match found {
                Some(j) if j < 64 => taken.0 |= 1 << j,
                _ => continue 'families,
            }
        }
        let better = |b: NameParts| {
            taken.count() > b.count() || (taken.count() == b.count() && taken.0 < b.0)
        };
        if best.is_none_or(|(_, b)| better(b)) {
            best = Some((i, taken));
        }
    }
    best
}

/// Whether some family's name starts with `opcode` (so it is a known opcode).
pub fn is_known_opcode(opcode: &str) -> bool {
    opcode_index().contains_key(opcode)
}

/// Opcode word -> indices of the families spelled with it.
fn opcode_index() -> &'static std::collections::HashMap<&'static str, Vec<usize>> {
    static INDEX: OnceLock<std::collections::HashMap<&'static str, Vec<usize>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: std::collections::HashMap<&'static str, Vec<usize>> = Default::default();
        for (i, f) in FAMILIES.iter().enumerate() {
            let opcode = f.name.split('.').next().unwrap_or(f.name);
            index.entry(opcode).or_default().push(i);
        }
        index
    })
}

/// Families that exist only on architecture-specific targets (`sm_90a`,
/// `sm_100a`): the SM number they need with an `a` (or family `f`) suffix.
/// ptxas rejects them on the plain target ("not supported on .target 'sm_90'").
pub fn arch_specific_family(name: &str) -> Option<u32> {
    if name == "setmaxnreg" || name.starts_with("wgmma.") {
        Some(90)
    } else if name.starts_with("tcgen05.") {
        Some(100)
    } else {
        None
    }
}

/// Minimum PTX version and target for a type name used anywhere (declarations and
/// instruction types), e.g. `.f16` needs sm_53, `.bf16` needs sm_80.
pub fn type_requirement(ty: &str) -> Option<(PtxVersion, u32)> {
    match ty {
        ".bf16" | ".bf16x2" => Some((v(7, 0), 80)),
        ".tf32" => Some((v(7, 0), 80)),
        ".e4m3" | ".e5m2" | ".e4m3x2" | ".e5m2x2" => Some((v(7, 8), 89)),
        ".e2m1x2" | ".e2m3x2" | ".e3m2x2" | ".ue8m0x2" => Some((v(8, 6), 100)),
        ".e4m3x4" | ".e5m2x4" | ".f32x2" => Some((v(8, 6), 100)),
        ".e2m1x4" | ".e2m3x4" | ".e3m2x4" => Some((v(8, 7), 100)),
        _ => None,
    }
}

/// Size in bits of a PTX fundamental type name (`".f32"` is 32), or None.
pub fn type_bits(ty: &str) -> Option<u32> {
    Some(match ty {
        ".pred" => 1,
        // `.e2m1x2` is two 4-bit values: ptxas writes `cvt...e2m1x2.f32` to a `.b8`.
        ".b8" | ".s8" | ".u8" | ".e4m3" | ".e5m2" | ".e2m1x2" => 8,
        ".b16" | ".s16" | ".u16" | ".f16" | ".bf16" | ".e4m3x2" | ".e5m2x2" | ".e2m3x2"
        | ".e3m2x2" | ".ue8m0x2" | ".e2m1x4" => 16,
        ".b32" | ".s32" | ".u32" | ".f32" | ".f16x2" | ".bf16x2" | ".tf32" | ".s16x2"
        | ".u16x2" | ".e4m3x4" | ".e5m2x4" | ".e2m3x4" | ".e3m2x4" => 32,
        ".b64" | ".s64" | ".u64" | ".f64" | ".f32x2" => 64,
        ".b128" => 128,
        _ => return None,
    })
}

/// The kind of a fundamental type, for the type-compatibility rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Bits,
    Signed,
    Unsigned,
    Float,
    Pred,
}

/// Kind of a fundamental type name, or None if `ty` is not one.
pub fn type_kind(ty: &str) -> Option<TypeKind> {
    let body = ty.strip_prefix('.')?;
    type_bits(ty)?;
    Some(match body.as_bytes()[0] {
        b'b' if !body.starts_with("bf") => TypeKind::Bits,
        b's' => TypeKind::Signed,
        b'u' if !body.starts_with("ue") => TypeKind::Unsigned,
        b'p' => TypeKind::Pred,
        _ => TypeKind::Float,
    })
}
