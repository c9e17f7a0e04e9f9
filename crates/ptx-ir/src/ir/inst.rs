//! Instructions: opcode with modifiers, guard, operands, `.loc` and source range.

use la_arena::Idx;
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
    pub locs: Vec<Loc>,
    /// Where the instruction is in the source, relative to the start of its
    /// function's syntax node (so that edits elsewhere in the file leave the IR
    /// of an unchanged function equal). Empty for instructions made by passes.
    pub range: TextRange,
}

/// The opcode word, its family in the ISA table, and the modifiers as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opcode {
    /// The word before the first dot: `ld`, `cp`, `mma`.
    pub name: String,
    /// The family from [`ptx_isa::lookup`] (`cp.async.bulk.tensor`); `None` when
    /// the table does not know the instruction.
    pub family: Option<&'static str>,
    /// Every modifier as written, with its dot, including those that are part of
    /// the family name: `.async`, `.bulk`, `.tensor`, `.2d`, ...
    pub modifiers: Vec<String>,
}

impl Opcode {
    /// Builds an opcode from its word and modifiers, looking the family up.
    pub fn new(name: &str, modifiers: Vec<String>) -> Opcode {
        let refs: Vec<&str> = modifiers.iter().map(String::as_str).collect();
        let family = ptx_isa::lookup(name, &refs).map(|(f, _)| f.name);
        Opcode {
            name: name.to_string(),
            family,
            modifiers,
        }
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

/// An instruction guard `@%p` (or `@!%p` when `negated`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub reg: RegId,
    pub negated: bool,
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
    /// `exit`, `trap` (guarded or not).
    pub fn is_terminator(&self) -> bool {
        matches!(
            self.opcode.name.as_str(),
            "bra" | "brx" | "ret" | "exit" | "trap"
        )
    }

    /// Whether control can continue to the next instruction in layout order: true
    /// unless the instruction is an unguarded `bra`, `brx.idx`, `ret`, `exit` or
    /// `trap`.
    pub fn can_fall_through(&self) -> bool {
        !self.is_terminator() || self.guard.is_some()
    }
}
