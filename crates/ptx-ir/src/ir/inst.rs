//! Instructions: opcode with modifiers, guard, operands, `.loc` and source range.

use la_arena::Idx;
use ptx_isa::OpInfo;
use ptx_syntax::TextRange;

use super::operand::Operand;
use super::reg::RegId;

/// Id of an instruction in [`Function::insts`](super::Function::insts).
pub type InstId = Idx<Inst>;

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// `@%p` / `@!%p`.
    pub guard: Option<Guard>,
    pub opcode: Opcode,
    /// Operands in source order; see [`defs_and_uses`](super::defs_and_uses) for
    /// which are written and which are read.
    pub operands: Vec<Operand>,
    /// The `.loc` directives in effect at this instruction: the last is its
    /// position; those before it were written directly before that one with no
    /// instruction in between (the call sites of an inlined chain, `.loc 1 16 5`
    /// then `.loc 1 5 9, function_name f, inlined_at 1 16 5`; ptxas wants every
    /// `inlined_at` position to appear in an earlier `.loc`). Empty: no `.loc`.
    pub locs: Locs,
    /// Where the instruction is in the source, relative to the start of its
    /// function's syntax node (so that edits elsewhere in the file leave the IR
    /// of an unchanged function equal). Empty for instructions made by passes.
    pub range: TextRange,
}

/// The opcode of an instruction: a handle to its interned [`OpcodeData`]
/// (the opcode word, its family, the modifiers as written and their typed
/// decoding), which it dereferences to: `inst.opcode.name`,
/// `inst.opcode.modifiers`, `inst.opcode.info`.
///
/// Opcodes are interned once per process (see [`Opcode::new`]): an
/// instruction is cloned by every phase that changes its function, and a
/// copied pointer costs nothing where the strings of the opcode cost four
/// allocations. Two opcodes are equal when they are the same interned
/// data; they hash by a hash of their text, so hash maps keyed by
/// instructions iterate in the same order in every run.
#[derive(Clone, Copy)]
pub struct Opcode(&'static OpcodeData);

/// What an [`Opcode`] is: read it through the handle.
#[derive(Debug)]
pub struct OpcodeData {
    /// The word before the first dot: `ld`, `cp`, `mma`.
    pub name: String,
    /// The family from [`ptx_isa::lookup`] (`cp.async.bulk.tensor`); `None` when
    /// the table does not know the instruction.
    pub family: Option<&'static str>,
    /// Every modifier as written, with its dot, including those that are part of
    /// the family name: `.async`, `.bulk`, `.tensor`, `.2d`, ...
    pub modifiers: Vec<String>,
    /// The typed form, decoded once from `name` and `modifiers` (see
    /// [`ptx_isa::opinfo`]): the family as an enum ([`ptx_isa::FamilyId`]),
    /// types, rounding, comparison, state space, scope and semantics, vector
    /// width, and the flags ([`ptx_isa::OpFlags`]: pure, load, store, atomic,
    /// barrier, fence, terminator, branch, call, commutative, may trap, side
    /// effects, volatile, ...). Analyses and passes read this, not the strings;
    /// whoever wants other modifiers builds a new opcode with
    /// [`Opcode::new`].
    pub info: OpInfo,
    /// A hash of `name` and `modifiers` (FxHash: the same in every run).
    text_hash: u64,
}

impl std::ops::Deref for Opcode {
    type Target = OpcodeData;
    fn deref(&self) -> &OpcodeData {
        self.0
    }
}

impl PartialEq for Opcode {
    fn eq(&self, other: &Opcode) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Opcode {}

impl std::hash::Hash for Opcode {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.text_hash);
    }
}

impl std::fmt::Debug for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opcode")
            .field("name", &self.name)
            .field("family", &self.family)
            .field("modifiers", &self.modifiers)
            .field("info", &self.info)
            .finish()
    }
}

impl Opcode {
    /// The interned opcode of a word and its modifiers, looking the family up
    /// and decoding the typed form the first time this opcode is seen.
    pub fn new(name: &str, modifiers: Vec<String>) -> Opcode {
        intern(name, modifiers)
    }

    /// The opcode's flags (`self.info.flags`).
    pub fn flags(&self) -> ptx_isa::OpFlags {
        self.info.flags
    }

    /// The family name, or the opcode word when the family is unknown.
    pub fn family_or_name(&self) -> &str {
        self.family.unwrap_or(&self.name)
    }

    /// Whether `modifier` (with its dot) is written on the instruction.
    pub fn has_modifier(&self, modifier: &str) -> bool {
        self.modifiers.iter().any(|m| m == modifier)
    }

    /// The full opcode as written: `ld.global.v4.f32`.
    pub fn text(&self) -> String {
        let mut out = self.name.clone();
        for m in &self.modifiers {
            out.push_str(m);
        }
        out
    }
}

/// The interning table: the key is the word and each modifier, each
/// preceded by a NUL (no PTX token contains one), so `ld` + [`.v4.f32`]
/// and `ld` + [`.v4`, `.f32`] stay apart. Entries are never removed: the
/// table holds the distinct opcodes the process has seen (a few hundred for
/// a large module; in a language server, also each misspelling typed).
type Table = std::sync::RwLock<rustc_hash::FxHashMap<Box<str>, &'static OpcodeData>>;

fn intern(name: &str, modifiers: Vec<String>) -> Opcode {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(Default::default);
    let mut key = String::with_capacity(name.len() + 8 * modifiers.len());
    key.push_str(name);
    for m in &modifiers {
        key.push('\0');
        key.push_str(m);
    }
    if let Some(&data) = table
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(key.as_str())
    {
        return Opcode(data);
    }
    let mut map = table
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&data) = map.get(key.as_str()) {
        return Opcode(data);
    }
    let info = OpInfo::decode(name, &modifiers);
    let text_hash = {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        key.hash(&mut h);
        h.finish()
    };
    let data: &'static OpcodeData = Box::leak(Box::new(OpcodeData {
        name: name.to_string(),
        family: info.family_name(),
        modifiers,
        info,
        text_hash,
    }));
    map.insert(key.into_boxed_str(), data);
    Opcode(data)
}

/// An instruction guard `@%p` (or `@!%p` when `negated`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub reg: RegId,
    pub negated: bool,
}

/// The `.loc` lines of an instruction ([`Inst::locs`]), read as a slice.
/// Shared, not copied: lowering gives every instruction the chain in effect
/// (most instructions of a function with line info have one), instructions
/// are copied by every phase that changes their function, and the chain of
/// an instruction is replaced, never edited in place. Empty takes no
/// allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Locs(Option<std::sync::Arc<[Loc]>>);

impl Locs {
    /// No `.loc`.
    pub const fn new() -> Locs {
        Locs(None)
    }

    /// `first`'s lines, then `then`'s (shared as they are when one is
    /// empty).
    pub fn join(first: Locs, then: Locs) -> Locs {
        if then.is_empty() {
            return first;
        }
        if first.is_empty() {
            return then;
        }
        let mut joined = first.to_vec();
        joined.extend_from_slice(&then);
        joined.into()
    }

    /// Whether `self` and `other` are the same shared chain (equal then,
    /// without comparing them).
    pub fn same(&self, other: &Locs) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl std::ops::Deref for Locs {
    type Target = [Loc];
    fn deref(&self) -> &[Loc] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl From<Vec<Loc>> for Locs {
    fn from(locs: Vec<Loc>) -> Locs {
        Locs((!locs.is_empty()).then(|| locs.into()))
    }
}

/// A `.loc file line column` position, with the optional
/// `, function_name f, inlined_at file line column` tail as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
    /// `function_name $L__info_name0, inlined_at 1 12 5`.
    pub inlined: Option<String>,
}

impl Inst {
    /// The source position: the last of [`Inst::locs`].
    pub fn loc(&self) -> Option<&Loc> {
        self.locs.last()
    }

    /// Whether the instruction ends a basic block: `bra`, `brx.idx`, `ret`,
    /// `exit`, `trap` (guarded or not); [`ptx_isa::OpFlags::TERMINATOR`].
    pub fn is_terminator(&self) -> bool {
        self.opcode.info.flags.is_terminator()
    }

    /// Whether the instruction computes its results from its operands only
    /// (equal ones with equal sources may be merged): its opcode is
    /// [`ptx_isa::OpFlags::PURE`] and it reads no volatile special register
    /// (`%clock`, `%globaltimer`, `%pm0`, `%smid`, `%warpid`, `%nsmid`: their
    /// value changes between reads).
    pub fn is_pure(&self) -> bool {
        self.opcode.info.flags.is_pure() && !self.reads_volatile_special()
    }

    /// Whether an operand is a special register whose value changes between
    /// reads (see [`Inst::is_pure`]).
    pub fn reads_volatile_special(&self) -> bool {
        self.operands.iter().any(reads_volatile_special)
    }

    /// Whether control can continue to the next instruction in layout order: true
    /// unless the instruction is an unguarded `bra`, `brx.idx`, `ret`, `exit` or
    /// `trap`.
    pub fn can_fall_through(&self) -> bool {
        !self.is_terminator() || self.guard.is_some()
    }
}

/// Special registers whose value changes between reads.
pub fn is_volatile_special(name: &str) -> bool {
    [
        "%clock",
        "%globaltimer",
        "%pm",
        "%smid",
        "%warpid",
        "%nsmid",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

fn reads_volatile_special(op: &Operand) -> bool {
    match op {
        Operand::Special { name, .. } => is_volatile_special(name),
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter().any(reads_volatile_special)
        }
        Operand::PredPair(a, b) => reads_volatile_special(a) || reads_volatile_special(b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Loc, Locs};

    fn loc(line: u32) -> Loc {
        Loc {
            file: 1,
            line,
            col: 0,
            inlined: None,
        }
    }

    #[test]
    fn locs_are_shared_and_joined_in_order() {
        let a: Locs = vec![loc(1)].into();
        let b: Locs = vec![loc(2), loc(3)].into();
        assert!(a.clone().same(&a));
        assert!(!a.same(&vec![loc(1)].into()));
        assert_eq!(*Locs::from(Vec::new()), []);
        assert!(Locs::join(a.clone(), Locs::new()).same(&a));
        assert!(Locs::join(Locs::new(), b.clone()).same(&b));
        assert_eq!(*Locs::join(a, b), [loc(1), loc(2), loc(3)]);
    }
}
