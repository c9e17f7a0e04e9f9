//! Phase 16, OriPerformLiveDeadFirst: dead-code elimination (also run as
//! phase 84, OriPerformLiveDeadFourth, after the late phases; there only
//! its applied remarks are kept).
//!
//! Seed `000_ed667d9feced6e07.txt`, "Pipeline Placement" ("Phase 16
//! OriPerformLiveDeadFirst -- DCE removes dead loop bodies"); seed
//! `001_3e9d45dd172cfaf4.txt`, "Why Phase 83 Runs So Late" (the liveness/DCE
//! pass, phase 84 OriPerformLiveDeadFourth, runs the same analysis before
//! allocation) and the GeneralOptimize bundles ("constant folding, algebraic
//! simplification, DCE"). The seeds give the placement and purpose, not the
//! algorithm; this module writes the classic one.
//!
//! Knobs: none (the seeds name no knob for the live/dead phases).
//!
//! # What it removes
//!
//! An instruction whose every register definition is dead and that has no
//! effect but those definitions. Two ways a definition is dead, applied in
//! turn until neither removes anything (a fixed point: a definition that
//! feeds only dead instructions is dead):
//!
//! 1. **Never read** (mark and sweep, by register): the roots are the
//!    instructions that must stay (stores, atomics, barriers, calls,
//!    branches, ...; see [`side_effect`]); a register read by a kept
//!    instruction keeps every instruction that writes it. What is not
//!    reached is dead. This is what removes dead loop bodies: a counter that
//!    only feeds its own increment and the loop's exit test is dead once the
//!    loop's results are unused (the branch stays; the loop is then empty
//!    but for its control).
//! 2. **Overwritten before any read** (liveness, `ptx_analysis::liveness`):
//!    the register is not live after the instruction. Liveness treats a
//!    guarded definition as a may-def (it does not kill), so
//!    `mov %r1, 0; @%p mov %r1, 1; st [a], %r1` keeps both moves.
//!
//! Registers that are `.reg` parameters of the function (a `.func`'s `.reg`
//! return value) are always live.
//!
//! # What it never removes
//!
//! See [`side_effect`], which reads the opcode's typed flags
//! ([`ptx_isa::OpFlags`]): anything that writes memory (`st`, `atom`, `red`,
//! `cp.async`, ... and `st.param` of a call sequence), synchronizes (`bar`,
//! `membar`, `fence`, `mbarrier`), is warp-synchronous (`shfl.sync`,
//! `vote.sync`, `match`, `redux`, `activemask`, `ldmatrix`: convergent),
//! transfers control (`bra`, `call`, `ret`, `exit`, `trap`), writes the carry
//! flag (`.cc`), is volatile or ordered (`.volatile`, `.mmio`, `.relaxed`,
//! `.acquire`), or is an opcode the ISA table does not know. Such an
//! instruction whose results are unused gets a *missed* remark.
//!
//! # Loads (a decision)
//!
//! A dead load (`ld`, `ldu`, texture and surface reads: `OpFlags::LOAD`
//! without `SIDE_EFFECTS`) of any state space is removed unless it is
//! `.volatile`, `.mmio`, `.relaxed` or `.acquire` (those have side effects). A load can fault on a bad
//! address, but in PTX an out-of-bounds access is undefined behaviour, not
//! an effect a program can rely on; ptxas deletes unused loads too (an unused
//! `ld.global` does not appear in its SASS). Ordered and volatile loads are
//! kept: their order against other threads' accesses is part of the memory
//! model.
//!
//! # Adapted from Ori/SASS to PTX
//!
//! Ori works on SASS-like instructions with physical predicate and
//! condition-code registers; on PTX the condition code is implicit (`.cc`),
//! so a `.cc` instruction is kept whole. Ori's virtual registers are PTX
//! registers here; vector results (`ld.v4 {a, b, c, d}`) and `setp p|q`
//! are dead only when all their registers are. Removed instructions' `.loc`
//! lines move to the next kept instruction, so an `inlined_at` position
//! named later still appears earlier (ptxas wants that).

use std::sync::Arc;

use ptx_analysis::grouped::Grouped;
use ptx_analysis::{cfg, cfg_if_same_graph, liveness};
use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, Inst, InstId, Locs, RegId};
use ptx_isa::OpFlags;
use smallvec::SmallVec;

use crate::origin::origin;
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// Runs dead-code elimination on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let mut func: Option<Function> = None;
    let mut remarks: Vec<Remark> = Vec::new();
    let (mut by_use, mut by_liveness, mut rounds) = (0u64, 0u64, 0u64);
    // Step 1 is a complete mark and sweep: right after its removals it
    // finds nothing more, so that round goes straight to step 2.
    let mut swept = false;
    // The registers read by kept code in the input, when step 1 found
    // nothing there (the missed remarks below read them again).
    let mut input_live: Option<Vec<bool>> = None;
    loop {
        rounds += 1;
        let current = func.as_ref().unwrap_or(input);
        let mut dead = if swept {
            Vec::new()
        } else {
            let live = read_registers(current);
            let dead = unread(current, &live);
            if func.is_none() && dead.is_empty() {
                input_live = Some(live);
            }
            dead
        };
        swept = !dead.is_empty();
        if !dead.is_empty() {
            by_use += dead.len() as u64;
        } else {
            dead = overwritten(current, input, func.is_none());
            by_liveness += dead.len() as u64;
        }
        if dead.is_empty() {
            break;
        }
        remarks.extend(dead.iter().map(|(inst, why)| Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "dead-code",
            origin: origin(current, *inst),
            message: describe_removal(current, *inst, why),
        }));
        let f = func.get_or_insert_with(|| (**input).clone());
        remove(f, dead.iter().map(|(i, _)| *i).collect());
    }
    let output = match func {
        Some(mut f) => {
            compact(&mut f);
            Arc::new(f)
        }
        None => input.clone(),
    };
    let live = match input_live {
        Some(live) if Arc::ptr_eq(&output, input) => live,
        _ => read_registers(&output),
    };
    let missed = kept_with_unused_results(&output, &live);
    let kept = missed.len() as u64;
    remarks.extend(missed.into_iter().map(|(inst, message)| Remark {
        phase: id,
        kind: RemarkKind::Missed,
        name: "side-effects",
        origin: origin(&output, inst),
        message,
    }));
    remarks.sort_by_key(|r| (r.origin.map(|o| o.into_raw().into_u32()), r.kind));
    let stats = vec![
        Stat {
            name: "instructions removed",
            value: by_use + by_liveness,
        },
        Stat {
            name: "removed: never read",
            value: by_use,
        },
        Stat {
            name: "removed: overwritten before a read",
            value: by_liveness,
        },
        Stat {
            name: "kept with unused results (side effects)",
            value: kept,
        },
        Stat {
            name: "rounds",
            value: rounds,
        },
    ];
    if id != PhaseId::OriPerformLiveDeadFirst {
        // Phase 84 runs the same analysis: what it keeps, phase 16 already
        // said; and a run that removed nothing has no counters (as the
        // GeneralOptimize bundles).
        remarks.retain(|r| r.kind == crate::remark::RemarkKind::Applied);
        if by_use + by_liveness == 0 {
            return PhaseOutput {
                function: output,
                loops: Vec::new(),
                remarks,
                stats: Vec::new(),
            };
        }
    }
    PhaseOutput {
        function: output,
        loops: Vec::new(),
        remarks,
        stats,
    }
}

/// Why a definition is dead.
enum Why {
    NeverRead,
    Overwritten,
}

fn reg_index(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

/// The registers `inst` defines (sinks define none), inline up to four (a
/// vector load's): read once per instruction per step, so not allocating
/// matters.
fn defs(inst: &Inst) -> SmallVec<[RegId; 4]> {
    let mut out = SmallVec::new();
    visit_defs_and_uses(inst, |access, r| {
        if access == Access::Def {
            out.push(r)
        }
    });
    out
}

/// Whether `r` is a `.reg` parameter of the function (always live).
fn is_param(func: &Function, r: RegId) -> bool {
    func.regs[r]
        .decl
        .is_some_and(|d| func.reg_decls[d].is_param)
}

/// Registers read by the instructions that must stay, transitively (mark and
/// sweep by register): the result of step 1.
fn read_registers(func: &Function) -> Vec<bool> {
    let n = func.regs.len();
    let mut live = vec![false; n];
    // The instructions that write each register, in layout order.
    let mut writes: Vec<(usize, InstId)> = Vec::new();
    let mut work: Vec<InstId> = Vec::new();
    let mut marked = vec![false; func.insts.len()];
    for (id, inst) in func.insts_in_order() {
        let d = defs(inst);
        writes.extend(d.iter().map(|&r| (reg_index(r), id)));
        let root =
            d.is_empty() || side_effect(inst).is_some() || d.iter().any(|&r| is_param(func, r));
        if root {
            marked[id.into_raw().into_u32() as usize] = true;
            work.push(id);
        }
    }
    let writers = Grouped::new(n, &writes);
    while let Some(id) = work.pop() {
        visit_defs_and_uses(&func.insts[id], |access, r| {
            let k = reg_index(r);
            if access == Access::Use && !live[k] {
                live[k] = true;
                for &w in writers.get(k) {
                    let wi = w.into_raw().into_u32() as usize;
                    if !marked[wi] {
                        marked[wi] = true;
                        work.push(w);
                    }
                }
            }
        });
    }
    live
}

/// Step 1: removable instructions none of whose registers is read.
fn unread(func: &Function, live: &[bool]) -> Vec<(InstId, Why)> {
    func.insts_in_order()
        .filter(|(_, inst)| {
            let d = defs(inst);
            !d.is_empty()
                && side_effect(inst).is_none()
                && d.iter().all(|&r| !live[reg_index(r)] && !is_param(func, r))
        })
        .map(|(id, _)| (id, Why::NeverRead))
        .collect()
}

/// Step 2: removable instructions whose registers are all dead right after
/// them.
/// `is_input`: whether `func` is `input` (whose liveness may be made
/// already); else it is `input` less some removed instructions, which
/// never change the block graph (branches stay), so its CFG is made from
/// the input's.
fn overwritten(func: &Function, input: &Arc<Function>, is_input: bool) -> Vec<(InstId, Why)> {
    let live = if is_input {
        super::version_cache::liveness_of(input)
    } else {
        let g = cfg_if_same_graph(func, &super::version_cache::cfg_of(input))
            .unwrap_or_else(|| cfg(func));
        std::rc::Rc::new(liveness(func, &g))
    };
    let mut out = Vec::new();
    for &b in &func.layout {
        let first = out.len();
        live.walk_back(func, b, |id, after| {
            let inst = &func.insts[id];
            let d = defs(inst);
            if !d.is_empty()
                && side_effect(inst).is_none()
                && d.iter()
                    .all(|&r| !after.contains(reg_index(r)) && !is_param(func, r))
            {
                out.push((id, Why::Overwritten));
            }
        });
        out[first..].reverse();
    }
    out
}

/// Unlinks `dead` from their blocks, moving their `.loc` lines to the next
/// kept instruction of the layout.
fn remove(func: &mut Function, mut dead: Vec<InstId>) {
    dead.sort();
    let is_dead = |i: &InstId| dead.binary_search(i).is_ok();
    let mut pending_locs = Locs::new();
    for pos in 0..func.layout.len() {
        let b = func.layout[pos];
        let insts = std::mem::take(&mut func.blocks[b].insts);
        let mut kept = Vec::with_capacity(insts.len());
        for i in insts {
            if is_dead(&i) {
                let locs = std::mem::take(&mut func.insts[i].locs);
                pending_locs = Locs::join(std::mem::take(&mut pending_locs), locs);
            } else {
                if !pending_locs.is_empty() {
                    let inst = &mut func.insts[i];
                    let own = std::mem::take(&mut inst.locs);
                    inst.locs = Locs::join(std::mem::take(&mut pending_locs), own);
                }
                kept.push(i);
            }
        }
        func.blocks[b].insts = kept;
    }
}

/// Drops the instructions no block of the layout lists from the arena
/// (renumbering the others in layout order, origins kept), and empties the
/// blocks outside the layout. The output then holds no trace of what was
/// removed: an edit inside dead code gives an equal function, and
/// everything after this phase is backdated.
fn compact(func: &mut Function) {
    let old = std::mem::take(&mut func.insts);
    let old_origins = std::mem::take(&mut func.origins);
    let in_layout: Vec<bool> = {
        let mut v = vec![false; func.blocks.len()];
        for &b in &func.layout {
            v[b.into_raw().into_u32() as usize] = true;
        }
        v
    };
    let unplaced: Vec<ptx_ir::ir::BlockId> = func
        .blocks
        .iter()
        .filter(|&(b, block)| {
            !in_layout[b.into_raw().into_u32() as usize] && !block.insts.is_empty()
        })
        .map(|(b, _)| b)
        .collect();
    for b in unplaced {
        func.blocks[b].insts.clear();
    }
    for &b in &func.layout {
        for i in func.blocks[b].insts.iter_mut() {
            let new = func.insts.alloc_shared(old.shared(*i).clone());
            if let Some(&o) = old_origins.get(*i) {
                func.origins.insert(new, o);
            }
            *i = new;
        }
    }
}

/// `` `mov.u32` defining %r5 `` and why it was dead.
fn describe_removal(func: &Function, inst: InstId, why: &Why) -> String {
    let i = &func.insts[inst];
    let regs = reg_names(func, &defs(i));
    let guard = if i.guard.is_some() { "guarded " } else { "" };
    match why {
        Why::NeverRead => format!(
            "removed dead {guard}`{}` defining {regs} (never read by code that stays)",
            i.opcode.text()
        ),
        Why::Overwritten => format!(
            "removed dead {guard}`{}` defining {regs} (overwritten before any read)",
            i.opcode.text()
        ),
    }
}

fn reg_names(func: &Function, regs: &[RegId]) -> String {
    regs.iter()
        .map(|&r| &*func.regs[r].name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Kept instructions with results no kept code reads, and why they stay:
/// the missed remarks.
fn kept_with_unused_results(func: &Function, live: &[bool]) -> Vec<(InstId, String)> {
    let mut out = Vec::new();
    for (id, inst) in func.insts_in_order() {
        let d = defs(inst);
        if d.is_empty() || d.iter().any(|&r| live[reg_index(r)] || is_param(func, r)) {
            continue;
        }
        if let Some(reason) = side_effect(inst) {
            out.push((
                id,
                format!(
                    "result {} unused (0 reads) but `{}` is kept: {reason}",
                    reg_names(func, &d),
                    inst.opcode.text()
                ),
            ));
        }
    }
    out
}

/// Why `inst` must stay even when its results are unused; `None` when its
/// only effect is writing its registers (see the module documentation).
///
/// Reads the opcode's typed flags ([`ptx_isa::OpFlags`], decoded once per
/// instruction by lowering): removable when pure, or a load with no other
/// flag that matters (a plain load has `LOAD` and `MAY_TRAP` only; volatile,
/// `.mmio` and ordered loads also have `SIDE_EFFECTS`). An opcode the table
/// does not know has `SIDE_EFFECTS` and stays.
pub(crate) fn side_effect(inst: &Inst) -> Option<&'static str> {
    let f = inst.opcode.flags();
    let reasons: [(OpFlags, &'static str); 10] = [
        (OpFlags::CARRY_OUT, "it writes the carry flag (.cc)"),
        (OpFlags::ATOMIC, "atomic read-modify-write"),
        (OpFlags::STORE, "it writes memory"),
        (
            OpFlags::VOLATILE,
            "volatile access (every execution must happen)",
        ),
        (OpFlags::BARRIER, "barrier (other threads wait for it)"),
        (OpFlags::FENCE, "memory fence"),
        (
            OpFlags::CONVERGENT,
            "warp-synchronous (other lanes take part)",
        ),
        (OpFlags::CALL, "call (the callee may have side effects)"),
        (OpFlags::TERMINATOR, "control transfer"),
        (
            OpFlags::SIDE_EFFECTS,
            "side effects (memory-model order, state, or asynchronous work)",
        ),
    ];
    if let Some((_, why)) = reasons.iter().find(|(flag, _)| f.intersects(*flag)) {
        return Some(why);
    }
    if f.is_pure() || f.loads() {
        return None;
    }
    Some("not known to be free of side effects")
}
