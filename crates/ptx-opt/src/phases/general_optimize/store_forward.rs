//! Store-to-load forwarding, a sub-pass of every GeneralOptimize bundle
//! after [`super::redundant_def`]: the bundle's partial CSE of loads
//! extended to a load of what a store in the same block wrote.
//!
//! Seed `000_ed667d9feced6e07.txt`, "Ordering Rationale", 4 (the partial
//! CSE of phase 29 that gives LICM its common subexpressions), as
//! [`super::redundant_def`]: the seed names the bundle's CSE, not its
//! rules. Knobs: none (off with the rest of the bundle under
//! `GeneralOptimizeSubPasses = OriCopyProp`).
//!
//! # What it does
//!
//! Within one block, walking in order: a load `ld.T %d, [a]` of the
//! thread's own memory whose address is the address of an earlier store
//! `st.T [a], v` of the same type and state space becomes `mov.T %d, v`,
//! when
//!
//! - the function declares a `.local` variable (its stack frame), and the
//!   memory is private to the thread: the `.local` space, or a generic
//!   address into the frame (a register whose every write is a
//!   `cvta.local` of the function's own `.local` symbol, or an
//!   `add`/`sub`/`mov` of such a register: `%SP` and the stack slots of
//!   `-O0` code; [`super::dead_store`]'s frame analysis).
//!   Global and shared memory are left alone: another thread's store to
//!   the same address may be what the load sees (a warp storing to one
//!   word and loading it back reads the last lane's value on the hardware
//!   and on the emulator; forwarding would give each lane its own);
//! - both are unguarded, weak (no `.volatile`, `.relaxed`, `.release`,
//!   `.acquire`, `.mmio`), scalar, of a 32- or 64-bit type; the load is
//!   `ld` (not `ld.global.nc`);
//! - the address register and the stored register are not written between
//!   them;
//! - only pure instructions, plain loads and plain stores lie between
//!   (an atomic, a fence, a barrier, a call, anything volatile or with side
//!   effects ends what the walk knows), and each store between writes the
//!   same address register's memory at offsets that do not overlap the
//!   load's (any other store may alias it: a pointer read from memory may
//!   point into the stack).
//!
//! Why: `-O0` code keeps a local array in the stack frame, and after an
//! unroll each copy stores an element and the next copy loads it back
//! (`gemm_tile8`: `st.f32 [%rd28], %f8; ...; ld.f32 %f9, [%rd28]` seven
//! times per iteration); cicc -O3 keeps such values in registers.

use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Address, AddressBase, Function, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::{FamilyId, OpFlags, Sem, Space};

use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Whether `inst`'s memory access is weak and plain (no volatile, no
/// ordering, no `.cv`/`::cluster`/`.mmio`; no side effects but the store's
/// own write).
pub(super) fn plain_access(inst: &Inst) -> bool {
    let info = &inst.opcode.info;
    let effects = if info.family == FamilyId::St {
        OpFlags::ATOMIC.union(OpFlags::VOLATILE)
    } else {
        OpFlags::ATOMIC
            .union(OpFlags::VOLATILE)
            .union(OpFlags::SIDE_EFFECTS)
    };
    !info.flags.intersects(effects)
        && matches!(info.sem, None | Some(Sem::Weak))
        && !inst
            .opcode
            .modifiers
            .iter()
            .any(|m| m == ".cv" || m.contains("::cluster") || m == ".mmio")
}

/// The address and size in bytes of a plain store (`st`, any vector
/// width); `None` for anything else.
pub(super) fn store_of(inst: &Inst) -> Option<(&Address, u32)> {
    let info = &inst.opcode.info;
    if info.family != FamilyId::St || !info.flags.contains(OpFlags::STORE) || !plain_access(inst) {
        return None;
    }
    let Some(Operand::Address(a)) = inst.operands.first() else {
        return None;
    };
    let bytes = info.ty()?.bits().div_ceil(8) * u32::from(info.vec.max(1));
    Some((a, bytes))
}

/// Whether the space is one forwarding handles.
fn forwardable_space(s: Option<Space>) -> bool {
    matches!(
        s,
        None | Some(Space::Generic | Space::Global | Space::Shared | Space::Local)
    )
}

/// The destination and address of a load this sub-pass may replace.
fn load_of(inst: &Inst) -> Option<(RegId, &Address)> {
    let info = &inst.opcode.info;
    if info.family != FamilyId::Ld
        || !info.flags.loads()
        || info.flags.contains(OpFlags::STORE)
        || inst.guard.is_some()
        || info.vec > 1
        || !plain_access(inst)
        || !forwardable_space(info.space)
        || !info.ty().is_some_and(|t| matches!(t.bits(), 32 | 64))
    {
        return None;
    }
    let [Operand::Reg {
        reg,
        component: None,
    }, Operand::Address(a)] = inst.operands.as_slice()
    else {
        return None;
    };
    Some((*reg, a))
}

/// The register an address reads, if any.
fn base_reg(a: &Address) -> Option<RegId> {
    match a.base {
        AddressBase::Reg(r) => Some(r),
        _ => None,
    }
}

/// Whether the accesses `[a, a+n)` and `[b, b+m)` surely do not overlap:
/// the same base, disjoint offsets.
fn disjoint(a: &Address, n: u32, b: &Address, m: u32) -> bool {
    a.base == b.base && (a.offset + i64::from(n) <= b.offset || b.offset + i64::from(m) <= a.offset)
}

/// The loads of `f` to forward, with the store whose value each receives.
fn find(f: &Function, frame: &super::dead_store::Frame) -> Vec<(InstId, InstId)> {
    let mut out = Vec::new();
    // Per register: the position in the block of its last write (reset per
    // block by a generation stamp).
    let mut written: Vec<(u32, usize)> = vec![(u32::MAX, 0); f.regs.len()];
    let slot = |r: RegId| r.into_raw().into_u32() as usize;
    for (generation, &b) in f.layout.iter().enumerate() {
        if !f.has_block(b) {
            continue;
        }
        let generation = generation as u32;
        // Plain stores since the last instruction that ends what is known:
        // (position, instruction, address, bytes).
        let mut stores: Vec<(usize, InstId, &Address, u32)> = Vec::new();
        for (pos, &k) in f.blocks[b].insts.iter().enumerate() {
            if !f.has_inst(k) {
                continue;
            }
            let inst = &f.insts[k];
            let written_since = |r: RegId, from: usize| {
                let (g, p) = written[slot(r)];
                g == generation && p > from
            };
            if let Some((_, addr)) = load_of(inst).filter(|(_, a)| frame.private(inst, a)) {
                let bytes = inst.opcode.info.ty().map_or(0, |t| t.bits() / 8);
                for &(spos, s, saddr, sbytes) in stores.iter().rev() {
                    let st = &f.insts[s];
                    if base_reg(addr).is_some_and(|r| written_since(r, spos)) {
                        break;
                    }
                    if saddr == addr {
                        let value = st.operands.get(1);
                        let value_ok = match value {
                            Some(Operand::Reg {
                                reg,
                                component: None,
                            }) => !written_since(*reg, spos),
                            Some(Operand::Imm(_)) => true,
                            _ => false,
                        };
                        if st.guard.is_none()
                            && value_ok
                            && st.opcode.info.vec <= 1
                            && st.opcode.info.ty() == inst.opcode.info.ty()
                            && st.opcode.info.space == inst.opcode.info.space
                        {
                            out.push((k, s));
                        }
                        break;
                    }
                    if !disjoint(saddr, sbytes, addr, bytes) {
                        break;
                    }
                }
            }
            let info = &inst.opcode.info;
            if let Some((saddr, sbytes)) = store_of(inst) {
                stores.push((pos, k, saddr, sbytes));
            } else if !(inst.is_pure() || info.flags.loads() && plain_access(inst)) {
                stores.clear();
            }
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Def {
                    written[slot(r)] = (generation, pos);
                }
            });
        }
    }
    out
}

/// Runs the sub-pass on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    // Without a `.local` variable of its own (most kernels) a function has
    // no stack memory to forward from (a module-level `.local` variable is
    // left alone): no scan, no analysis.
    let Some(frame) = super::dead_store::Frame::addresses(input) else {
        return PhaseOutput::unchanged(input);
    };
    let found = find(input, &frame);
    if found.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for &(k, s) in &found {
        let before = super::const_fold::inst_text(input, &input.insts[k]);
        let ty = input.insts[k]
            .opcode
            .info
            .ty()
            .map_or_else(String::new, |t| t.name().to_string());
        let value = input.insts[s].operands[1].clone();
        let inst = &mut f.insts[k];
        inst.opcode = Opcode::new("mov", vec![ty]);
        inst.operands = vec![inst.operands[0].clone(), value];
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "store-forward",
            origin: origin(input, k),
            message: format!(
                "`{before}` reads what `{}` stored: `{}`",
                super::const_fold::inst_text(input, &input.insts[s]),
                super::const_fold::inst_text(&f, &f.insts[k])
            ),
        });
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "loads forwarded from stores",
            value: found.len() as u64,
        }],
    }
}
