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
//! No knobs.

use la_arena::ArenaMap;
use ptx_ir::ir::{defs_and_uses, BlockId, Function, InstId, Reg, RegClass};

use crate::bitset::BitSet;
use crate::cfg::Cfg;
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
    if reg.class == RegClass::P {
        return 0;
    }
    let bits = ptx_isa::type_bits(&reg.ty)
        .map(|b| b * reg.vector.unwrap_or(1))
        .unwrap_or_else(|| reg.class.bits());
    bits.div_ceil(32).max(1)
}

fn measure(weights: &[u32], preds: &BitSet, set: &BitSet) -> Pressure {
    let mut p = Pressure::default();
    for i in set.iter() {
        if preds.contains(i) {
            p.p += 1;
        } else {
            p.r += weights[i];
        }
    }
    p
}

fn bump(max: &mut MaxAt, value: u32, inst: Option<InstId>, after: bool) {
    if value > max.value || (max.inst.is_none() && inst.is_some() && value == max.value) {
        *max = MaxAt { value, inst, after };
    }
}

/// Computes register pressure from liveness.
pub fn reg_pressure(func: &Function, cfg: &Cfg, live: &Liveness) -> RegPressure {
    let n = func.regs.len();
    let mut weights = vec![0u32; n];
    let mut preds = BitSet::new(n);
    for (r, reg) in func.regs.iter() {
        let i = r.into_raw().into_u32() as usize;
        weights[i] = reg_units(reg);
        if reg.class == RegClass::P {
            preds.insert(i);
        }
    }
    let mut out = RegPressure::default();
    for &b in &cfg.blocks {
        let mut bmax = MaxPressure::default();
        let entry = measure(&weights, &preds, live.live_in(b));
        bump(&mut bmax.r, entry.r, None, false);
        bump(&mut bmax.p, entry.p, None, false);
        for &i in &func.blocks[b].insts {
            let before = measure(&weights, &preds, live.live_before(i));
            let mut after_set = live.live_after(i).clone();
            for d in defs_and_uses(&func.insts[i]).defs {
                after_set.insert(d.into_raw().into_u32() as usize);
            }
            let after = measure(&weights, &preds, &after_set);
            out.insts.insert(i, InstPressure { before, after });
            bump(&mut bmax.r, before.r, Some(i), false);
            bump(&mut bmax.r, after.r, Some(i), true);
            bump(&mut bmax.p, before.p, Some(i), false);
            bump(&mut bmax.p, after.p, Some(i), true);
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
            .map(|(_, r)| (r.name.clone(), reg_units(r)))
            .collect();
        assert_eq!(
            format!("{w:?}"),
            r#"[("%rd1", 2), ("%fd1", 2), ("%h1", 1)]"#
        );
    }
}
