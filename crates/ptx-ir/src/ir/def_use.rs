//! Which registers an instruction writes (defs) and reads (uses):
//! [`defs_and_uses`] returns them as two vectors, [`visit_defs_and_uses`]
//! calls a closure on each without allocating (for analyses that visit every
//! instruction).
//!
//! The rules, in order:
//!
//! 1. The guard predicate (`@%p`) is a use.
//! 2. Only the first operand can be a destination. It is one when it is a
//!    register, a vector `{..}`, a pair `a|b`, a sink `_` or (for `call`) a
//!    return list `(..)`, and the instruction writes it. A memory operand,
//!    immediate, symbol or label in first place is never a destination (so `st`,
//!    `red`, `sust`, `cp.async*`, `mbarrier.init`, `wmma.store`, `tcgen05.mma`, ...
//!    define no register).
//! 3. Instructions whose first register operand is read, not written
//!    (`OpFlags::FIRST_IS_SOURCE` of the opcode's typed form): `bra`,
//!    `brx.idx`, `ret`, `exit`, `trap`, `brkpt`, `nanosleep`, `stackrestore`,
//!    `pmevent`, `setmaxnreg`, `griddepcontrol`, `membar`, `fence`, `bar`/`barrier`
//!    except their `.red` forms (`bar.sync %r1` reads `%r1`), `tcgen05.dealloc`, and
//!    `call` unless its first operand is the return list (`call %rd1, (a), proto`
//!    reads `%rd1`).
//! 4. Every register of a destination vector or pair is a def (`ld.v4 {a, b, c, d}`,
//!    `setp p|q`, `tex {..}|p`, `shfl.sync r|p`, `mma {d0, ..}`); sinks define
//!    nothing.
//! 5. Partial writes also read the destination: a destination register with a
//!    component (`vadd ... %r1.h0, ...`, `%v.x`), and the accumulator of
//!    `wgmma.mma_async` (`d = a*b + d`, `OpFlags::READS_DEST`).
//! 6. Every other register is a use, including those inside memory operands (the
//!    base of `[%rd1+8]`, the coordinates of `[tex, {%f1, %f2}]`), negated
//!    predicates (`!%p`), call argument lists and the source vectors of `st`/`mov`.
//!
//! A guarded instruction's defs are conditional: they do not kill earlier
//! definitions. Analyses must treat them as "may define". Carry flags (`.cc`) are
//! not registers here.

use ptx_isa::OpFlags;

use super::inst::Inst;
use super::operand::Operand;
use super::reg::RegId;

/// The registers an instruction writes and reads, in operand order (duplicates
/// kept: `add %r1, %r2, %r2` has uses `[%r2, %r2]`). Inline up to what
/// almost every instruction has (no allocation for them: analyses ask for
/// these once per instruction, many times per phase).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DefUse {
    pub defs: RegList,
    pub uses: RegList,
}

/// A short list of registers (inline up to four).
pub type RegList = smallvec::SmallVec<[RegId; 4]>;

/// Whether a register access of [`visit_defs_and_uses`] writes or reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Def,
    Use,
}

/// The defs and uses of `inst`; see the module documentation for the rules.
pub fn defs_and_uses(inst: &Inst) -> DefUse {
    let mut du = DefUse::default();
    visit_defs_and_uses(inst, |access, reg| match access {
        Access::Def => du.defs.push(reg),
        Access::Use => du.uses.push(reg),
    });
    du
}

/// Calls `f` on every register access of `inst`, without allocating: the defs
/// come in the order of [`DefUse::defs`] and the uses in the order of
/// [`DefUse::uses`] (the two kinds interleave: a partial write reports its use
/// right after its def). For analyses that visit every instruction.
pub fn visit_defs_and_uses(inst: &Inst, mut f: impl FnMut(Access, RegId)) {
    if let Some(guard) = inst.guard {
        f(Access::Use, guard.reg);
    }
    let mut operands = inst.operands.iter();
    // Only a register, vector, pair or list in first place can be written
    // (any other operand's registers are read either way), so the opcode is
    // looked at only then.
    if matches!(
        inst.operands.first(),
        Some(
            Operand::Reg { .. } | Operand::Vector(_) | Operand::ArgList(_) | Operand::PredPair(..)
        )
    ) && writes_first_operand(inst)
    {
        match operands.next() {
            // The common case inline.
            Some(Operand::Reg { reg, component }) => {
                f(Access::Def, *reg);
                if component.is_some() || reads_destination(inst) {
                    f(Access::Use, *reg);
                }
            }
            Some(dest) => visit_dest(dest, reads_destination(inst), &mut f),
            None => {}
        }
    }
    for op in operands {
        match op {
            // The common cases inline.
            Operand::Reg { reg, .. } => f(Access::Use, *reg),
            Operand::Imm(_) => {}
            other => other.for_each_reg(&mut |r| f(Access::Use, r)),
        }
    }
}

/// Whether the first operand of `inst` is a destination (rules 2 and 3: a
/// `call`'s return list, else a register, vector, pair or sink unless the
/// opcode is [`OpFlags::FIRST_IS_SOURCE`]).
pub fn writes_first_operand(inst: &Inst) -> bool {
    let first = inst.operands.first();
    let flags = inst.opcode.info.flags;
    if flags.is_call() {
        matches!(first, Some(Operand::ArgList(_)))
    } else if flags.contains(OpFlags::FIRST_IS_SOURCE) {
        false
    } else {
        matches!(
            first,
            Some(Operand::Reg { .. } | Operand::Vector(_) | Operand::PredPair(..) | Operand::Sink)
        )
    }
}

/// Whether the whole destination is also read (rule 5, `wgmma.mma_async`:
/// [`OpFlags::READS_DEST`]).
fn reads_destination(inst: &Inst) -> bool {
    inst.opcode.info.flags.contains(OpFlags::READS_DEST)
}

fn visit_dest(op: &Operand, also_read: bool, f: &mut impl FnMut(Access, RegId)) {
    match op {
        Operand::Reg { reg, component } => {
            f(Access::Def, *reg);
            if also_read || component.is_some() {
                f(Access::Use, *reg);
            }
        }
        Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter().for_each(|item| visit_dest(item, also_read, f))
        }
        Operand::PredPair(a, b) => {
            visit_dest(a, also_read, f);
            visit_dest(b, also_read, f);
        }
        // Registers inside a memory operand or an expression are read.
        other => other.for_each_reg(&mut |r| f(Access::Use, r)),
    }
}
