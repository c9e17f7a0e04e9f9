//! Register pressure: the number of live R (general) and P (predicate)
//! registers before and after each instruction, the maximum per block and per
//! function, and where the maximum is reached.
//!
//! Seed: `002_164789385e2e817e.txt`, "Machine Register Pressure Analysis
//! (sub_21EAA00) -- MRPA" (peak pressure per register class per block, printed
//! as `Max Live RRegs: {n}\tPRegs: {m}`; "double-wide registers (class size >
//! 32) count as 2 for pressure" in the block rematerialization cost model) and
//! "pred-aware-mcse" (predicates tracked separately).
//!
//! Units are those of ptxas's "Used N registers": 32-bit registers. A register
//! of `b` bits (vector width included) counts `ceil(b / 32)`, at least 1: 8- and
//! 16-bit count 1, 32-bit 1, 64-bit (and `.v2 .b32`) 2, 128-bit 4. Predicates
//! count 1 each in P and never in R.
//!
//! The pressure **before** an instruction is its live-before set. The pressure
//! **after** it is its live-after set plus its own definitions that are dead (a
//! result nobody reads still needs a register when it is written). The maximum
//! of a block or function is the largest of these values; its place is the
//! first instruction (in layout order) where it is reached, and whether before
//! or after it. Callers map the [`InstId`] to a source line with the
//! instruction's `.loc` ([`Inst::loc`](ptx_ir::ir::Inst::loc)).
//!
//! Speed: only each block's live-out set is read from the liveness result;
//! one backward walk per block applies the liveness transfer to a working set
//! and updates the counts by the registers that enter or leave it.
//!
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{BlockId, Function, InstId, Reg, RegClass};

use crate::bitset::{self, BitSet};
use crate::cfg::Cfg;
use crate::def_use::{reg_index, DefUseTable};
use crate::liveness::Liveness;

/// R and P counts at one point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pressure {
    /// General registers, in 32-bit units.
    pub r: u32,
    /// Predicate registers.
    pub p: u32,
}

/// Pressure around one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct InstPressure {
    pub before: Pressure,
    pub after: Pressure,
}

/// Where a maximum is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MaxAt {
    pub value: u32,
    /// `None` when the function (or block) has no instruction; the value is then
    /// the pressure at the block's entry.
    pub inst: Option<InstId>,
    /// Reached after the instruction (true) or before it (false).
    pub after: bool,
}

/// Maxima of a block or function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MaxPressure {
    pub r: MaxAt,
    pub p: MaxAt,
}

/// Register pressure of a function; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct RegPressure {
    insts: ArenaMap<InstId, InstPressure>,
    blocks: ArenaMap<BlockId, MaxPressure>,
    /// The function's maxima.
    pub max: MaxPressure,
}

/// The weight of a register in 32-bit units (0 for predicates).
pub fn reg_units(reg: &Reg) -> u32 {
    // A scalar's class says it (the class is made from the type's width,
    // `RegClass::of`), without reading the type's text.
    if reg.vector.is_none() {
        return match reg.class {
            RegClass::P => 0,
            RegClass::R16 | RegClass::R => 1,
            RegClass::R64 => 2,
            RegClass::R128 => 4,
        };
    }
    if reg.class == RegClass::P {
        return 0;
    }
    let bits = ptx_isa::type_bits(&reg.ty)
        .map(|b| b * reg.vector.unwrap_or(1))
        .unwrap_or_else(|| reg.class.bits());
    bits.div_ceil(32).max(1)
}

/// The (R, P) units of each register, by arena index.
fn units(func: &Function) -> Vec<Pressure> {
    func.regs
        .iter()
        .map(|(_, reg)| match reg.class {
            RegClass::P => Pressure { r: 0, p: 1 },
            _ => Pressure {
                r: reg_units(reg),
                p: 0,
            },
        })
        .collect()
}

fn measure(units: &[Pressure], set: &BitSet) -> Pressure {
    let mut p = Pressure::default();
    for i in set.iter() {
        p.r += units[i].r;
        p.p += units[i].p;
    }
    p
}

fn bump(max: &mut MaxAt, value: u32, inst: Option<InstId>, after: bool) {
    if value > max.value || (max.inst.is_none() && inst.is_some() && value == max.value) {
        *max = MaxAt { value, inst, after };
    }
}

/// Computes register pressure from liveness.
///
/// Each block is walked backwards from its live-out set, applying the
/// liveness transfer of every instruction to one working set and updating the
/// counts by the registers that enter or leave it, so the cost is that of the
/// defs and uses rather than of the live sets.
pub fn reg_pressure(func: &Function, cfg: &Cfg, live: &Liveness) -> RegPressure {
    let units = units(func);
    let du = DefUseTable::new(func);
    let mut out = RegPressure {
        insts: ArenaMap::with_capacity(func.insts.len()),
        ..RegPressure::default()
    };
    let mut set: Vec<u64> = Vec::new();
    let mut added: Vec<usize> = Vec::new();
    let mut around: Vec<InstPressure> = Vec::new();
    for &b in &cfg.blocks {
        let insts = &func.blocks[b].insts;
        // Backwards: `set` and `count` are what is live after the instruction.
        let live_out = live.live_out(b);
        set.clear();
        set.extend_from_slice(live_out.words());
        set.resize(units.len().div_ceil(64), 0);
        let mut count = measure(&units, live_out);
        around.clear();
        around.resize(insts.len(), InstPressure::default());
        for (pos, &i) in insts.iter().enumerate().rev() {
            // After: the live-after set plus the instruction's definitions.
            added.clear();
            for &d in du.defs(i) {
                let d = reg_index(d);
                if !bitset::contains(&set, d) {
                    bitset::insert(&mut set, d);
                    count.r += units[d].r;
                    count.p += units[d].p;
                    added.push(d);
                }
            }
            let after = count;
            // Before: an unguarded instruction kills its definitions, a
            // guarded one leaves the set as it was; then its uses are live.
            let unguarded = func.insts[i].guard.is_none();
            let drop = |d: usize, set: &mut [u64], count: &mut Pressure| {
                if bitset::contains(set, d) {
                    bitset::remove(set, d);
                    count.r -= units[d].r;
                    count.p -= units[d].p;
                }
            };
            if unguarded {
                for &d in du.defs(i) {
                    drop(reg_index(d), &mut set, &mut count);
                }
            } else {
                for &d in &added {
                    drop(d, &mut set, &mut count);
                }
            }
            for &u in du.uses(i) {
                let u = reg_index(u);
                if !bitset::contains(&set, u) {
                    bitset::insert(&mut set, u);
                    count.r += units[u].r;
                    count.p += units[u].p;
                }
            }
            around[pos] = InstPressure {
                before: count,
                after,
            };
        }
        let mut bmax = MaxPressure::default();
        // After the walk, `count` is the pressure of the live-in set.
        let entry = count;
        debug_assert_eq!(entry, measure(&units, live.live_in(b)));
        bump(&mut bmax.r, entry.r, None, false);
        bump(&mut bmax.p, entry.p, None, false);
        for (&i, &ip) in insts.iter().zip(&around) {
            out.insts.insert(i, ip);
            bump(&mut bmax.r, ip.before.r, Some(i), false);
            bump(&mut bmax.r, ip.after.r, Some(i), true);
            bump(&mut bmax.p, ip.before.p, Some(i), false);
            bump(&mut bmax.p, ip.after.p, Some(i), true);
        }
        if cfg.is_reachable(b) {
            if bmax.r.value > out.max.r.value || out.max.r == MaxAt::default() {
                out.max.r = bmax.r;
            }
            if bmax.p.value > out.max.p.value || out.max.p == MaxAt::default() {
                out.max.p = bmax.p;
            }
        }
        out.blocks.insert(b, bmax);
    }
    out
}

impl RegPressure {
    /// Pressure around `inst`.
    pub fn at(&self, inst: InstId) -> InstPressure {
        self.insts.get(inst).copied().unwrap_or_default()
    }

    /// Maxima of `block`.
    pub fn block_max(&self, block: BlockId) -> MaxPressure {
        self.blocks.get(block).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{cfg, inst_name};
    use crate::liveness::liveness;
    use crate::test_util::func;

    #[test]
    fn units_of_a_scalar_follow_its_class_as_its_type_width() {
        for ty in [
            ".pred", ".b8", ".u16", ".f16", ".bf16x2", ".b32", ".f32", ".s64", ".f64", ".b128",
            ".unknown",
        ] {
            for vector in [None, Some(2), Some(4)] {
                let reg = Reg {
                    name: "%x".into(),
                    ty: ty.into(),
                    vector,
                    class: RegClass::of(ty, vector),
                    decl: None,
                    index: None,
                };
                let bits = ptx_isa::type_bits(ty)
                    .map(|b| b * vector.unwrap_or(1))
                    .unwrap_or_else(|| reg.class.bits());
                let want = if reg.class == RegClass::P {
                    0
                } else {
                    bits.div_ceil(32).max(1)
                };
                assert_eq!(reg_units(&reg), want, "{ty} {vector:?}");
            }
        }
    }

    fn pressure(body: &str) -> (Function, RegPressure) {
        let f = func(body);
        let g = cfg(&f);
        let lv = liveness(&f, &g);
        let rp = reg_pressure(&f, &g, &lv);
        (f, rp)
    }

    #[test]
    fn units_are_ptxas_units() {
        let (f, rp) = pressure(
            "ld.param.u64 %rd1, [p];
             ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
             ld.global.b128 %q1, [%rd1];
             ld.global.u16 %h1, [%rd1];
             setp.eq.s32 %p1, %r1, 0;
             setp.eq.s32 %p2, %r2, 0;
             and.pred %p3, %p1, %p2;
             st.global.u32 [%rd1], %r3;
             st.global.u32 [%rd1], %r4;
             st.global.b128 [%rd1], %q1;
             st.global.u16 [%rd1], %h1;
             @%p3 st.global.u32 [%rd1], %r4;
             ret;",
        );
        // After the u16 load: rd1 (2) + r1..r4 (4) + q1 (4) + h1 (1) = 11.
        assert_eq!(rp.max.r.value, 11);
        assert_eq!(inst_name(rp.max.r.inst.unwrap()), "i3");
        assert!(rp.max.r.after);
        // p1 and p2 are live together, then p3 alone.
        assert_eq!(rp.max.p.value, 2);
        let and = f.insts_in_order().nth(6).unwrap().0;
        assert_eq!(rp.at(and).before.p, 2);
        assert_eq!(rp.at(and).after.p, 1);
        assert_eq!(rp.max.p.inst, Some(f.insts_in_order().nth(5).unwrap().0));
    }

    #[test]
    fn dead_definitions_count_after_their_instruction() {
        let (f, rp) = pressure(
            "mov.u32 %r1, 1;
             mov.u32 %r2, 2;
             ret;",
        );
        let first = f.insts_in_order().next().unwrap().0;
        assert_eq!(rp.at(first).before.r, 0);
        assert_eq!(rp.at(first).after.r, 1);
        assert_eq!(rp.max.r.value, 1);
        assert_eq!(rp.max.r.inst, Some(first));
    }

    #[test]
    fn weights() {
        let f = func(
            "ld.param.u64 %rd1, [p]; ld.global.f64 %fd1, [%rd1]; ld.global.u16 %h1, [%rd1]; ret;",
        );
        let w: Vec<(String, u32)> = f
            .regs
            .iter()
            .map(|(_, r)| (r.name.to_string(), reg_units(r)))
            .collect();
        assert_eq!(
            format!("{w:?}"),
            r#"[("%rd1", 2), ("%fd1", 2), ("%h1", 1)]"#
        );
    }
}
