//! Redundant recomputation removal, a sub-pass of every GeneralOptimize
//! bundle (phases 13, 29, 37, 46, 58, 65): the bundle's "partial CSE".
//!
//! Seed `000_ed667d9feced6e07.txt`, "Ordering Rationale", 4: "Phase 35
//! (early LICM) runs after GeneralOptimize at phase 29, which performs
//! partial CSE, giving it common subexpressions to hoist", and the LICM
//! table row for phase 35 ("CSE eliminates redundant expressions, exposing
//! loop-invariant results"); seed `001_3e9d45dd172cfaf4.txt`, "Phase 49 --
//! GvnCse" ("SM80/SM89 backends rely on LateOriCommoning (phase 64) and the
//! GeneralOptimize sub-passes for CSE coverage"). The seed names the bundle's
//! CSE, not its rules; this module writes the narrowest local form, the one
//! LICM needs after unrolling.
//!
//! Knobs: none (the registry has none for the bundle's CSE; it is off with
//! the rest of the bundle under `GeneralOptimizeSubPasses = OriCopyProp`).
//!
//! # What it removes
//!
//! Within one block, walking in order: an instruction `K` that computes into
//! register `d` exactly the value `d` already holds. That is, the last write
//! of `d` before `K` in the block is an instruction `L` with the same opcode
//! (every modifier) and the same source operands, and
//!
//! - no source register of `L` (its guard included) is written between `L`
//!   and `K` (removed instructions do not count: they left the register as
//!   it was);
//! - `L` does not read `d` itself (`add %r1, %r1, 1` twice is two steps);
//! - `L` is unguarded, or `K` has the same guard as `L` (register and
//!   sense): under `@%p` both or neither write, and when both do the value
//!   is the same. A guarded `L` and an unguarded `K` is not redundant (when
//!   `%p` was false `d` holds something else).
//!
//! `K` is then removed (its `.loc` lines go to the next instruction). This
//! is what loop unrolling (phase 22) leaves: every unrolled copy of a body
//! that computes a loop invariant recomputes it into the same register, and
//! LICM (phase 35) refuses a register written more than once in the loop
//! (`Refusal::WrittenTwice`); with the copies gone, one write is left for it
//! to hoist.
//!
//! # Eligible instructions
//!
//! `L` and `K` must be pure (the ISA table's `PURE` flag, no volatile
//! special register such as `%clock`) or plain loads, not convergent
//! (`shfl`, `vote`, ...: their value depends on the other threads), not
//! carry arithmetic (`.cc`, `addc`: the carry flag is not a register here),
//! and with one destination, a plain scalar register (no vector, no
//! component, no `p|q` pair).
//!
//! A plain load is `ld` or `ld.global.nc`, weak (no `.volatile`,
//! `.relaxed`, `.acquire`, `.mmio`, no `.cv`): `K` loads what `L` loaded
//! when, besides the rules above (the address registers unchanged), no
//! instruction between them may write or order memory: a store, an atomic,
//! a fence, a barrier, a call, anything volatile or with side effects (any
//! instruction that is neither pure nor a plain load ends what every load
//! is known to hold). This is the rule of the commoning engine
//! ([`crate::phases::commoning`], "Loads") within one block; another
//! thread's write between them without a barrier is a data race, which
//! weak loads may ignore. Everything else only ends what the registers it writes are
//! known to hold (a guarded write included: it is a may-def).
//!
//! # Adapted from Ori to PTX
//!
//! Ori's bundle CSE runs on SSA-like def chains; on PTX a register may be
//! written many times, so "the same value" is proved by the block-local walk
//! above instead of value numbers, and the later computation is removed
//! rather than turned into a copy (it writes the register that holds the
//! value). Cross-block and different-register commoning stay with phase 64
//! LateOriCommoning (and GvnCse where it runs).

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{BlockId, Function, Guard, Inst, InstId, Operand, RegId};
use ptx_isa::{FamilyId, OpFlags, Sem};
use smallvec::SmallVec;

use crate::origin::origin;
use crate::phases::known::remove_keeping_locs;
use crate::phases::reg_table::RegTable;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// What a register holds: the instruction that last wrote it.
#[derive(Clone, Copy)]
struct Held {
    guard: Option<Guard>,
    inst: InstId,
    /// Whether it is a load (which any write to memory ends).
    load: bool,
}

impl Default for Held {
    /// An empty slot of [`BlockState::held`] (never read as held).
    fn default() -> Held {
        Held {
            guard: None,
            inst: InstId::from_raw(0u32.into()),
            load: false,
        }
    }
}

/// Whether `inst` is a plain load: `ld` or `ld.global.nc`, weak (no
/// `.volatile`, `.relaxed`, `.acquire`, `.mmio`), no `.cv` cache operator.
fn plain_load(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    let flags = info.flags;
    flags.loads()
        && matches!(info.family, FamilyId::Ld | FamilyId::LdGlobalNc)
        && !flags.intersects(
            OpFlags::STORE
                .union(OpFlags::ATOMIC)
                .union(OpFlags::VOLATILE)
                .union(OpFlags::SIDE_EFFECTS),
        )
        && matches!(info.sem, None | Some(Sem::Weak))
        && !inst.opcode.has_modifier(".cv")
}

/// The destination of an eligible instruction (see the module
/// documentation) and whether it is a load; `None` when it is not eligible.
/// `pure` and `load` are `inst.is_pure()` and [`plain_load`], `defs` and
/// `uses` its register accesses (as [`visit_defs_and_uses`] lists them).
fn eligible_dest(
    f: &Function,
    inst: &Inst,
    pure: bool,
    load: bool,
    defs: &[RegId],
    uses: &[RegId],
) -> Option<(RegId, bool)> {
    let flags = inst.opcode.info.flags;
    if !(pure || load)
        || flags.intersects(
            OpFlags::CONVERGENT
                .union(OpFlags::CARRY_IN)
                .union(OpFlags::CARRY_OUT)
                .union(OpFlags::FIRST_IS_SOURCE)
                .union(OpFlags::READS_DEST),
        )
    {
        return None;
    }
    let d = match inst.operands.first()? {
        Operand::Reg {
            reg,
            component: None,
        } => *reg,
        _ => return None,
    };
    if f.regs[d].vector.is_some() {
        return None;
    }
    let reads_d = uses.contains(&d);
    let plain_sources = inst.operands[1..].iter().all(|o| match o {
        Operand::Reg {
            component: None, ..
        }
        | Operand::Imm(_)
        | Operand::Special { .. }
        | Operand::Symbol { .. }
        | Operand::NegPred(_) => true,
        Operand::Address(_) => load,
        _ => false,
    });
    (defs.len() == 1 && !reads_d && plain_sources).then_some((d, load))
}

/// Whether `k` computes what `held` left in its destination.
fn same_value(f: &Function, held: &Held, k: &Inst) -> bool {
    let l = &f.insts[held.inst];
    let guard_ok = match (held.guard, k.guard) {
        (None, _) => true,
        (Some(a), Some(b)) => a == b,
        (Some(_), None) => false,
    };
    guard_ok && l.opcode == k.opcode && l.operands == k.operands
}

/// The instructions of `f` that recompute what their destination holds, by
/// block.
fn find(f: &Function) -> Vec<(BlockId, InstId)> {
    let mut out = Vec::new();
    let mut st = BlockState::new(f.regs.len());
    let mut defs: SmallVec<[RegId; 4]> = SmallVec::new();
    let mut uses: SmallVec<[RegId; 8]> = SmallVec::new();
    for &b in &f.layout {
        if !f.has_block(b) {
            continue;
        }
        st.clear();
        for &k in &f.blocks[b].insts {
            if !f.has_inst(k) {
                continue;
            }
            let inst = &f.insts[k];
            // Each instruction's accesses and kind, read once.
            defs.clear();
            uses.clear();
            visit_defs_and_uses(inst, |a, r| match a {
                Access::Def => defs.push(r),
                Access::Use => uses.push(r),
            });
            let (pure, load) = (inst.is_pure(), plain_load(inst));
            let dest = eligible_dest(f, inst, pure, load, &defs, &uses);
            if let Some((d, _)) = dest {
                if st.held(d).is_some_and(|h| same_value(f, h, inst)) {
                    out.push((b, k));
                    continue;
                }
            }
            // What the registers `inst` writes held is gone, and so is what
            // was computed from them. Anything but a pure instruction or a
            // plain load may write memory or order memory accesses (a
            // store, an atomic, a fence, a barrier, a call, anything
            // volatile or with other side effects).
            if !pure && !load {
                st.forget_loads();
            }
            for &r in &defs {
                st.forget(r);
            }
            if let Some((d, load)) = dest {
                st.hold(
                    d,
                    Held {
                        guard: inst.guard,
                        inst: k,
                        load,
                    },
                );
                for &r in &uses {
                    st.read_by(r, d);
                }
            }
        }
    }
    out
}

/// What the walk of one block knows, by register slot (emptied for each
/// block): what each register holds, which held values read each
/// register, and the registers holding loads.
struct BlockState {
    held: RegTable<Held>,
    /// Registers read by what is held: source -> destinations.
    readers: RegTable<Vec<RegId>>,
    /// The registers a load was held for (some may hold something else
    /// since: [`Held::load`] tells).
    loads: Vec<RegId>,
}

impl BlockState {
    fn new(regs: usize) -> BlockState {
        BlockState {
            held: RegTable::new(regs),
            readers: RegTable::new(regs),
            loads: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.held.clear();
        self.readers.clear();
        self.loads.clear();
    }

    fn held(&self, r: RegId) -> Option<&Held> {
        self.held.get(r)
    }

    fn hold(&mut self, d: RegId, h: Held) {
        if h.load {
            self.loads.push(d);
        }
        self.held.insert(d, h);
    }

    /// `d` holds a value computed from `r`.
    fn read_by(&mut self, r: RegId, d: RegId) {
        self.readers.get_or_default(r).push(d);
    }

    /// `r` is written: what it held, and what was computed from it, is gone.
    fn forget(&mut self, r: RegId) {
        self.held.remove(r);
        for d in self.readers.take(r).unwrap_or_default() {
            self.held.remove(d);
        }
    }

    /// Memory may have changed: no loaded value is known any more.
    fn forget_loads(&mut self) {
        for d in std::mem::take(&mut self.loads) {
            if self.held(d).is_some_and(|h| h.load) {
                self.held.remove(d);
            }
        }
    }
}

/// Runs the sub-pass on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let found = find(input);
    if found.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for &(b, k) in &found {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "redundant-recomputation",
            origin: origin(input, k),
            message: format!(
                "removed `{}`: its destination already holds that value",
                super::const_fold::inst_text(input, &input.insts[k])
            ),
        });
        remove_keeping_locs(&mut f, b, k);
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "recomputations removed",
            value: found.len() as u64,
        }],
    }
}
