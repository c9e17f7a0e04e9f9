//! Functions: signature, registers, body declarations and basic blocks.
//!
//! A function's body is two arenas, blocks and instructions, plus a layout (the
//! order blocks are emitted in, which also defines fallthrough). Nested `{ }`
//! scopes of the source are flattened: every declaration of a body lives at
//! function level. A declaration whose name clashes with one already made in the
//! function (a nested scope shadowing an outer register, or two call scopes each
//! declaring `param0`) is renamed to `<name>_s<N>` (the first `N` that clashes with
//! nothing); operands refer to the renamed declaration, so the meaning is kept.
//!
//! [`Function::origins`] maps each instruction to the instruction of the
//! lowered function (`kernel_ir`) it comes from, so that remarks, `.loc` and
//! the editor can point at a source line after any number of phases.

use la_arena::{Arena, ArenaMap};

use super::block::BlockId;
use super::inst::{Inst, InstId};
use super::module::VarDecl;
use super::reg::{Reg, RegDecl};
use super::shared::{BlockArena, InstArena, Shared};

/// `.entry` (kernel) or `.func` (device function).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    Entry,
    Func,
}

/// A function header: what a declaration and a definition share.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    pub kind: FunctionKind,
    /// `.visible`, `.extern`, `.weak`, `.common`, in source order.
    pub linkage: Vec<String>,
    pub name: String,
    /// The return-parameter list of a `.func`; `None` when there is none.
    pub ret_params: Option<Vec<Param>>,
    pub params: Vec<Param>,
    /// `.maxntid 256, 1, 1`, `.noreturn`, ...
    pub perf: Vec<PerfDirective>,
}

/// One parameter: `.param .u64 .ptr .global .align 16 p`, `.param .align 8 .b8 a[16]`,
/// `.reg .b32 x`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// `.param` or `.reg`.
    pub space: String,
    pub align: Option<u64>,
    pub vector: Option<u32>,
    /// `.u64`, `.b8`, `.texref`, ...; empty when the source had none.
    pub ty: String,
    /// `.ptr{.space}{.align n}` of a kernel parameter.
    pub ptr: Option<PtrAttr>,
    pub name: String,
    pub dims: Vec<Option<u64>>,
}

/// Pointer attributes of a kernel parameter: `.ptr .global .align 16`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PtrAttr {
    /// `.global`, `.shared`, ...; `None` for generic.
    pub space: Option<String>,
    pub align: Option<u64>,
}

/// A performance-tuning or function directive of the header: `.maxntid 256, 1, 1`,
/// `.noreturn`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PerfDirective {
    /// With its dot: `.maxntid`.
    pub name: String,
    pub values: Vec<u64>,
}

/// A declaration in a function body that is not a register.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LocalDecl {
    /// `.local`, `.shared`, `.param` (call arguments), `.global`/`.const` statics.
    Var(VarDecl),
    /// `name: .callprototype (ret) _ (params);` — `text` is everything after the
    /// colon, without `;`.
    CallPrototype { name: String, text: String },
    /// `name: .calltargets f, g;`
    CallTargets { name: String, targets: Vec<String> },
    /// `name: .branchtargets L1, L2;` (the list `brx.idx` indexes).
    BranchTargets { name: String, targets: Vec<BlockId> },
}

impl LocalDecl {
    /// The names this declaration introduces.
    pub fn names(&self) -> Vec<&str> {
        match self {
            LocalDecl::Var(decl) => decl.vars.iter().map(|v| v.name.as_str()).collect(),
            LocalDecl::CallPrototype { name, .. }
            | LocalDecl::CallTargets { name, .. }
            | LocalDecl::BranchTargets { name, .. } => vec![name.as_str()],
        }
    }
}

/// A lowered function definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Function {
    pub sig: Signature,
    /// Register declarations as written (parameterized `%r<100>` stays one
    /// declaration), renamed where flattening needed it. Registers created by
    /// passes have no declaration. Shared with the function's other
    /// versions until written ([`Shared`], as are `regs` and `locals`).
    pub reg_decls: Shared<Arena<RegDecl>>,
    /// Virtual registers, created for the declared names that are used.
    pub regs: Shared<Arena<Reg>>,
    /// Body declarations that are not registers, in source order.
    pub locals: Shared<Vec<LocalDecl>>,
    /// The blocks, shared like the instructions ([`BlockArena`]).
    pub blocks: BlockArena,
    /// The instructions, each shared with the earlier versions of the
    /// function until a pass writes to it ([`InstArena`]).
    pub insts: InstArena,
    /// The order blocks are emitted in; the block after `b` in the layout is
    /// `b`'s fallthrough successor. Lowering allocates blocks in layout order.
    pub layout: Vec<BlockId>,
    /// Where each instruction comes from: the id of the instruction of the
    /// *lowered* function (what lowering made, `kernel_ir` in ptx-db) it was
    /// made from. Lowering maps every instruction to itself; the editing API
    /// ([`Function::clone_inst`](Function::clone_inst) and the region cloner)
    /// copies an instruction's origin to its copies and a move keeps it (the
    /// id does not change); a pass that makes a new instruction in place of
    /// another gives it that one's origin ([`Function::set_origin`]). An
    /// instruction without an entry has no source instruction (made by a pass
    /// from nothing, or a function built by hand). Read it with
    /// [`Function::origin`].
    pub origins: ArenaMap<InstId, InstId>,
}

impl Function {
    /// An empty function with the given signature.
    pub fn new(sig: Signature) -> Function {
        Function {
            sig,
            reg_decls: Shared::default(),
            regs: Shared::default(),
            locals: Shared::default(),
            blocks: BlockArena::new(),
            insts: InstArena::new(),
            layout: Vec::new(),
            origins: ArenaMap::default(),
        }
    }

    /// The instruction of the lowered function that `inst` comes from (see
    /// [`Function::origins`]); `None` for an instruction made by a pass from
    /// nothing.
    pub fn origin(&self, inst: InstId) -> Option<InstId> {
        self.origins.get(inst).copied()
    }

    /// Sets (`Some`) or clears (`None`) the origin of `inst` (nothing if
    /// `inst` is not in the instruction arena).
    pub fn set_origin(&mut self, inst: InstId, origin: Option<InstId>) {
        if !self.has_inst(inst) {
            return;
        }
        match origin {
            Some(o) => {
                self.origins.insert(inst, o);
            }
            None => {
                self.origins.remove(inst);
            }
        }
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.sig.name
    }

    /// The instructions in layout order.
    pub fn insts_in_order(&self) -> impl Iterator<Item = (super::InstId, &Inst)> + '_ {
        self.layout.iter().flat_map(move |&b| {
            self.blocks[b]
                .insts
                .iter()
                .map(move |&i| (i, &self.insts[i]))
        })
    }

    /// The `.branchtargets` list named `name`, if declared.
    pub fn branch_targets(&self, name: &str) -> Option<&[BlockId]> {
        self.locals.iter().find_map(|l| match l {
            LocalDecl::BranchTargets { name: n, targets } if n == name => Some(targets.as_slice()),
            _ => None,
        })
    }
}
