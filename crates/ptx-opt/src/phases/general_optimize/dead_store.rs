//! Dead-store elimination of the function's own stack frame, a sub-pass of
//! the cleanup bundles (13, 29, 58) after [`super::store_forward`].
//!
//! Seed `000_ed667d9feced6e07.txt`, "Ordering Rationale", 4 (the bundle's
//! partial CSE), as [`super::store_forward`], whose loads it makes
//! unnecessary to keep stores for: the seed names the bundle, not this rule.
//! Knobs: none (off with the rest of the bundle under
//! `GeneralOptimizeSubPasses = OriCopyProp`).
//!
//! # What it removes
//!
//! Within one block, a store `S1` to the function's own stack frame is
//! removed when a later unguarded store `S2` of the same block writes
//! every byte `S1` wrote, through the same address register (not written
//! between) or the same `.local` symbol, and nothing between may read
//! those bytes. After store forwarding, `-O0` code with a local array
//! unrolled keeps one store per copy of the body (`gemm_tile8`: `st.f32
//! [%rd28], %f8; ...; st.f32 [%rd28], %ir_r185; ...` eight times per
//! iteration, and ptxas keeps every one as an `ST.E`); only the last is
//! read.
//!
//! # The frame, and why nothing else can read it
//!
//! The frame is what the function's own `.local` variables hold (`-O0`'s
//! `__local_depot`). Its addresses are the *window* registers (every write
//! a `mov` of such a symbol, or a `mov`/`add`/`sub` of a window register)
//! and the *generic* ones (every write a `cvta.local` of a window register
//! or of such a symbol, or a `mov`/`add`/`sub` of a generic one: `-O0`'s
//! `%SPL` and `%SP` and the slot addresses made from them; store
//! forwarding reads the same analysis, [`Frame::addresses`], to tell the
//! thread's own accesses). The rule runs
//! only when those addresses do not escape: every read of such a register
//! or symbol is the base of a memory operand, or a source of one of the
//! instructions above whose result is again such a register. Then no other
//! register, no other thread and no callee can hold an address into the
//! frame (the symbols are the function's own; a module-level `.local`
//! variable, which a callee can name, is left alone), and only a load
//! through those registers or symbols, or any load of the `.local` space,
//! may read it: such a load keeps every earlier store it may overlap
//! (another base, or the same register written since the store, may
//! overlap anything). A generic load through any other register does not:
//! it would need an address forged from an integer. Anything that is not
//! pure, a plain load or a plain store (a call, a barrier, an atomic, a
//! volatile access) ends what the walk knows.
//!
//! Left alone: global and shared memory (another thread may read between
//! the stores), stores the block does not overwrite (the stack slot is
//! read around a back edge or after the block; a frame that dies at the
//! function's end is not used to remove its last stores), guarded killers,
//! partial overwrites.
//!
//! Adapted from SASS to PTX: ptxas keeps these stores (`ST.E` through a
//! register pair of the frame's generic address, measured on the
//! `gemm_tile8` output of bench-quality), so the rule is ptxopt's own.

use std::ops::Not;
use std::sync::Arc;

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Address, AddressBase, Function, Inst, InstId, LocalDecl, Operand, RegId};
use ptx_isa::{FamilyId, Space};

use super::store_forward::{plain_access, store_of};
use crate::origin::origin;
use crate::phases::known::remove_keeping_locs;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// What a register holds, for the frame analysis.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Not an address into the frame.
    Other,
    /// An address of the `.local` window into the frame.
    Window,
    /// A generic address into the frame.
    Generic,
}

/// The frame's symbols (the function's own `.local` variables) and the
/// kind of each register; `None` when an address into the frame escapes
/// (see the module documentation).
pub(super) struct Frame {
    symbols: Vec<String>,
    kinds: Vec<Kind>,
}

fn slot(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

fn reg_of(op: Option<&Operand>) -> Option<RegId> {
    match op {
        Some(Operand::Reg {
            reg,
            component: None,
        }) => Some(*reg),
        _ => None,
    }
}

impl Frame {
    fn is_symbol(&self, name: &str) -> bool {
        self.symbols.iter().any(|s| s == name)
    }

    fn kind(&self, r: RegId) -> Kind {
        self.kinds[slot(r)]
    }

    /// The kind an operand gives the result of a `mov`/`add`/`sub`.
    fn operand_kind(&self, op: Option<&Operand>) -> Kind {
        match op {
            Some(Operand::Symbol { name, .. }) if self.is_symbol(name) => Kind::Window,
            _ => reg_of(op).map_or(Kind::Other, |r| self.kind(r)),
        }
    }

    /// The kind of the value `inst` writes when it keeps a frame address
    /// (see the module documentation), else `Other`.
    fn result_kind(&self, inst: &Inst) -> Kind {
        if inst.guard.is_some() {
            return Kind::Other;
        }
        let info = &inst.opcode.info;
        let ops = &inst.operands;
        match info.family {
            FamilyId::Cvta
                if info.space == Some(Space::Local) && !inst.opcode.has_modifier(".to") =>
            {
                match self.operand_kind(ops.get(1)) {
                    Kind::Window => Kind::Generic,
                    _ => Kind::Other,
                }
            }
            FamilyId::Mov => self.operand_kind(ops.get(1)),
            FamilyId::Add => match (self.operand_kind(ops.get(1)), self.operand_kind(ops.get(2))) {
                (k, Kind::Other) | (Kind::Other, k) => k,
                _ => Kind::Other,
            },
            FamilyId::Sub if self.operand_kind(ops.get(2)) == Kind::Other => {
                self.operand_kind(ops.get(1))
            }
            _ => Kind::Other,
        }
    }

    /// The frame of `f`, when it has one and its addresses do not escape.
    fn of(f: &Function) -> Option<Frame> {
        let frame = Frame::addresses(f)?;
        frame.escapes(f).not().then_some(frame)
    }

    /// The frame's symbols and the registers holding its addresses, when
    /// `f` declares `.local` variables (whether the addresses escape or
    /// not: store forwarding needs only to know which accesses are the
    /// thread's own).
    pub(super) fn addresses(f: &Function) -> Option<Frame> {
        let symbols: Vec<String> = f
            .locals
            .iter()
            .filter_map(|d| match d {
                LocalDecl::Var(v) if v.space == ".local" => Some(v),
                _ => None,
            })
            .flat_map(|v| v.vars.iter().map(|x| x.name.clone()))
            .collect();
        if symbols.is_empty() {
            return None;
        }
        // The largest fixed point: every register starts as what its first
        // write makes it, and loses its kind when a write makes another.
        let mut frame = Frame {
            symbols,
            kinds: vec![Kind::Other; f.regs.len()],
        };
        let mut first = vec![true; f.regs.len()];
        let mut changed = true;
        let mut round = 0;
        while changed {
            changed = false;
            round += 1;
            for (_, inst) in f.insts_in_order() {
                let k = frame.result_kind(inst);
                visit_defs_and_uses(inst, |a, r| {
                    if a != Access::Def {
                        return;
                    }
                    let s = slot(r);
                    if round == 1 && first[s] {
                        first[s] = false;
                        frame.kinds[s] = k;
                    } else if frame.kinds[s] != k && frame.kinds[s] != Kind::Other {
                        frame.kinds[s] = Kind::Other;
                        changed = true;
                    }
                });
            }
            if round == 1 {
                // The first round only seeds the kinds; a second one checks
                // every write against them.
                changed = true;
            }
        }
        Some(frame)
    }

    /// Whether an address into the frame escapes: a frame register or
    /// symbol read other than as a memory operand's base or by an
    /// instruction that keeps it in a frame register.
    fn escapes(&self, f: &Function) -> bool {
        let frame = self;
        for (_, inst) in f.insts_in_order() {
            let kind = frame.result_kind(inst);
            if kind != Kind::Other {
                let mut into_frame = true;
                visit_defs_and_uses(inst, |a, r| {
                    if a == Access::Def && frame.kind(r) != kind {
                        into_frame = false;
                    }
                });
                if into_frame {
                    continue;
                }
            }
            let mut frame_uses = 0usize;
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Use && frame.kind(r) != Kind::Other {
                    frame_uses += 1;
                }
            });
            let mut as_base = 0usize;
            for op in &inst.operands {
                match op {
                    Operand::Address(Address {
                        base: AddressBase::Reg(r),
                        ..
                    }) if frame.kind(*r) != Kind::Other => as_base += 1,
                    Operand::Symbol { name, .. } if frame.is_symbol(name) => return true,
                    _ => {}
                }
            }
            if frame_uses > as_base {
                return true;
            }
        }
        false
    }

    /// Whether an access of `inst` at `addr` reaches only the thread's own
    /// memory: the `.local` space, or a generic address into the frame.
    pub(super) fn private(&self, inst: &Inst, addr: &Address) -> bool {
        match inst.opcode.info.space {
            Some(Space::Local) => true,
            None | Some(Space::Generic) => {
                matches!(addr.base, AddressBase::Reg(r) if self.kind(r) == Kind::Generic)
            }
            _ => false,
        }
    }

    /// Whether a store at `addr` of `inst` writes the frame (a candidate).
    fn stores_frame(&self, inst: &Inst, addr: &Address) -> bool {
        match (&addr.base, inst.opcode.info.space) {
            (AddressBase::Reg(r), Some(Space::Local)) => self.kind(*r) == Kind::Window,
            (AddressBase::Reg(r), None | Some(Space::Generic)) => self.kind(*r) == Kind::Generic,
            (AddressBase::Symbol(s), Some(Space::Local)) => self.is_symbol(s),
            _ => false,
        }
    }

    /// Whether a load at `addr` of `inst` may read the frame.
    fn may_read_frame(&self, inst: &Inst, addr: &Address) -> bool {
        inst.opcode.info.space == Some(Space::Local)
            || match &addr.base {
                AddressBase::Reg(r) => self.kind(*r) != Kind::Other,
                AddressBase::Symbol(s) => self.is_symbol(s),
                AddressBase::Absolute => false,
            }
    }
}

/// The dead stores of `f`, each with the store that overwrites it.
fn find(f: &Function, frame: &Frame) -> Vec<(InstId, InstId)> {
    let mut out = Vec::new();
    let mut written: Vec<(u32, usize)> = vec![(u32::MAX, 0); f.regs.len()];
    for (generation, &b) in f.layout.iter().enumerate() {
        if !f.has_block(b) {
            continue;
        }
        let generation = generation as u32;
        // Frame stores not yet overwritten or read: (position, instruction,
        // address, bytes).
        let mut pending: Vec<(usize, InstId, &Address, u32)> = Vec::new();
        for (pos, &k) in f.blocks[b].insts.iter().enumerate() {
            if !f.has_inst(k) {
                continue;
            }
            let inst = &f.insts[k];
            let info = &inst.opcode.info;
            // The same address as at `spos`: the same base, its register
            // (if any) not written since.
            let same_base = |a: &Address, s: &Address, spos: usize| {
                a.base == s.base
                    && match a.base {
                        AddressBase::Reg(r) => {
                            let (g, p) = written[slot(r)];
                            !(g == generation && p > spos)
                        }
                        _ => true,
                    }
            };
            if let Some((addr, bytes)) = store_of(inst) {
                if inst.guard.is_none() && frame.stores_frame(inst, addr) {
                    pending.retain(|&(spos, s, saddr, sbytes)| {
                        let covered = same_base(addr, saddr, spos)
                            && f.insts[s].opcode.info.space == info.space
                            && addr.offset <= saddr.offset
                            && saddr.offset + i64::from(sbytes) <= addr.offset + i64::from(bytes);
                        if covered {
                            out.push((s, k));
                        }
                        !covered
                    });
                }
                if frame.stores_frame(inst, addr) {
                    pending.push((pos, k, addr, bytes));
                }
            } else if info.flags.loads() && plain_access(inst) {
                let bytes = info.ty().map_or(u32::MAX, |t| {
                    t.bits().div_ceil(8) * u32::from(info.vec.max(1))
                });
                for op in &inst.operands {
                    let Operand::Address(addr) = op else {
                        continue;
                    };
                    if !frame.may_read_frame(inst, addr) {
                        continue;
                    }
                    pending.retain(|&(spos, _, saddr, sbytes)| {
                        same_base(addr, saddr, spos)
                            && (addr.offset.saturating_add(i64::from(bytes)) <= saddr.offset
                                || saddr.offset + i64::from(sbytes) <= addr.offset)
                    });
                }
            } else if !inst.is_pure() {
                pending.clear();
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
    let Some(frame) = Frame::of(input) else {
        return PhaseOutput::unchanged(input);
    };
    let found = find(input, &frame);
    if found.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for &(dead, by) in &found {
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "dead-store",
            origin: origin(input, dead),
            message: format!(
                "removed `{}`: `{}` overwrites it before anything reads it",
                super::const_fold::inst_text(input, &input.insts[dead]),
                super::const_fold::inst_text(input, &input.insts[by])
            ),
        });
        if let Some((b, _)) = f.inst_position(dead) {
            remove_keeping_locs(&mut f, b, dead);
        }
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "dead stores removed",
            value: found.len() as u64,
        }],
    }
}
