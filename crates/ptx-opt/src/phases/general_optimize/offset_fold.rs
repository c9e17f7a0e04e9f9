//! Offset reassociation: integer values that differ from a value already
//! computed by a constant are written as that value plus the constant, run
//! in every GeneralOptimize bundle after recomputation removal and before
//! address folding, under the same knob, `CopyPropAddr` ("propagate through
//! address computations": this is what lets the copies of an unrolled
//! loop's address computation fold into their memory operands).
//!
//! Seed `001_3e9d45dd172cfaf4.txt`, "Phase 50 -- OriReassociateAndCommon"
//! ("Why Reassociation Matters": unrolled copies address `base + (i+k)*S`,
//! which only becomes `base + i*S + k*S`, one shared product and an
//! immediate offset, after reassociation) and the `CopyPropAddr` entry of
//! OriCopyProp's knob table. Phase 50 rebuilds chains whose inner nodes have
//! one reader ([`crate::phases::reassociate`]); the copies of an unrolled
//! loop read each induction-variable copy twice (the next copy's step and
//! the address), so they are never such a chain. This step handles them by
//! value instead, one instruction at a time:
//!
//! ```text
//! add.s64 %j, %i, 1          (1) add %k, %j, 2   ->  add %k, %i, 3
//! shl.b64 %s0, %i, 3         (2) shl %s, %j, 3   ->  add %s, %s0, 8
//! add.s64 %a0, %b, %s0       (3) add %a, %b, %s  ->  add %a, %a0, 8
//! ```
//!
//! 1. `add`/`sub` of an immediate to a register that holds `x + c1` (its
//!    reaching definition is an `add` of an immediate, followed through up
//!    to [`MAX_DEPTH`] such definitions): `x + (c1 + c)`.
//! 2. `shl` by an immediate, or `mul.lo` by one, of a register that holds
//!    `i + c`, where `i` scaled the same way is already in a register (an
//!    instruction that dominates this one, read the same `i`, and whose
//!    result is unchanged since): that register plus `c` scaled.
//! 3. `add` of two registers, one holding `t + C` by the rules above, where
//!    the sum of the other and `t` is already in a register: that register
//!    plus `C`.
//!
//! Every rule is exact: `add`, `sub`, `shl` and `mul.lo` wrap modulo
//! 2^width, and multiplication by a constant distributes over addition
//! modulo 2^width. All the instructions involved have one width (32 or 64
//! bits), are unguarded and carry no `.sat` or carry; every register a
//! rewrite reads holds there what it held where the value was computed
//! ([`Facts::unchanged_between`]). A 64-bit offset must fit in 32 signed
//! bits (as phase 50's `ReassociateLargeImmInUIADD64` keeps it). The
//! instructions left without readers are for phase 16 to remove;
//! [`super::address_fold`] then turns `ld [%a]` with `%a = %a0 + 8` into
//! `ld [%a0+8]`.
//!
//! After cicc's unroller, each copy of `dsum`'s body addressed its element
//! with a `shl`, an `add` and the IV's copy; after this step and address
//! folding they read `[%a0+8k]`, as cicc -O3 writes them.

use std::sync::Arc;

use ptx_ir::ir::{Function, Imm, ImmValue, Inst, InstId, Opcode, Operand, RegId};
use ptx_isa::{FamilyId, OpFlags};
use rustc_hash::FxHashMap;

use crate::origin::origin;
use crate::phases::known::{plain_reg, Facts};
use crate::remark::{PhaseOutput, Remark, RemarkKind, Stat};
use crate::PhaseId;

/// How many definitions an offset is followed through.
pub const MAX_DEPTH: u32 = 8;

/// What an instruction computes, for this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `src + c` (`add` of an immediate, `sub` of one negated).
    AddImm { src: RegId, c: i128 },
    /// `a + b`.
    AddRegs { a: RegId, b: RegId },
    /// `src * factor` (`shl` by `k`: `1 << k`; `mul.lo` by an immediate;
    /// the two are one value modulo 2^width, so either reuses the other).
    Scale { src: RegId, factor: i128 },
}

/// The destination, width and form of `inst`, when it is one this step
/// reads or rewrites.
fn form(inst: &Inst) -> Option<(RegId, u32, Form)> {
    let info = &inst.opcode.info;
    if inst.guard.is_some()
        || info.sat
        || info
            .flags
            .intersects(OpFlags::CARRY_IN.union(OpFlags::CARRY_OUT))
    {
        return None;
    }
    let ty = info.ty()?;
    let width = ty.bits();
    if !matches!(width, 32 | 64) || ty.is_float() {
        return None;
    }
    let [d, a, b] = inst.operands.as_slice() else {
        return None;
    };
    let d = plain_reg(d)?;
    let imm = |op: &Operand| match op {
        Operand::Imm(Imm {
            value: ImmValue::Int(v),
            ..
        }) => Some(*v),
        _ => None,
    };
    let f = match info.family {
        FamilyId::Add if ty.is_int() => match (plain_reg(a), plain_reg(b), imm(a), imm(b)) {
            (Some(a), Some(b), _, _) => Form::AddRegs { a, b },
            (Some(src), _, _, Some(c)) | (_, Some(src), Some(c), _) => Form::AddImm { src, c },
            _ => return None,
        },
        FamilyId::Sub if ty.is_int() => Form::AddImm {
            src: plain_reg(a)?,
            c: imm(b)?.wrapping_neg(),
        },
        FamilyId::Shl => {
            let k = imm(b)?;
            if !(0..width as i128).contains(&k) {
                return None;
            }
            Form::Scale {
                src: plain_reg(a)?,
                factor: 1i128 << k,
            }
        }
        FamilyId::Mul if ty.is_int() && inst.opcode.has_modifier(".lo") => {
            match (plain_reg(a), plain_reg(b), imm(a), imm(b)) {
                (Some(src), _, _, Some(factor)) | (_, Some(src), Some(factor), _) => {
                    Form::Scale { src, factor }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((d, width, f))
}

/// `v` wrapped to `width` bits, read as signed.
fn wrap(v: i128, width: u32) -> i128 {
    let shift = 128 - width;
    (v << shift) >> shift
}

/// The facts and indexes one run reads.
struct Ctx<'a> {
    func: &'a Function,
    facts: &'a Facts,
    /// Placed instructions scaling a register by a constant, by (register,
    /// factor, width).
    scales: FxHashMap<(RegId, i128, u32), Vec<InstId>>,
    /// Placed sums of two registers, by (lower register, higher, width).
    sums: FxHashMap<(RegId, RegId, u32), Vec<InstId>>,
}

fn pair(a: RegId, b: RegId) -> (RegId, RegId) {
    if a.into_raw().into_u32() <= b.into_raw().into_u32() {
        (a, b)
    } else {
        (b, a)
    }
}

impl Ctx<'_> {
    /// What `r` holds at `at` as `base + c` (modulo 2^`width`), `base` read
    /// at `at`: through its reaching definition, when that is one of the
    /// forms and has `width`.
    fn resolve(&self, r: RegId, at: InstId, width: u32, depth: u32) -> Option<(RegId, i128)> {
        if depth == 0 {
            return None;
        }
        let w = self.facts.reaching_writer(r, at)?;
        let (d, wd, f) = form(&self.func.insts[w])?;
        if d != r || wd != width {
            return None;
        }
        let (base, c) = self.value_of(w, d, width, f, depth)?;
        // `base` as read at `w` must be what it holds at `at` (`w` writes
        // only `r`, which is not `base`).
        (base != r && self.facts.unchanged_between(self.func, base, w, at)).then_some((base, c))
    }

    /// What instruction `w` (destination `d`, of `width`, form `f`)
    /// computes as `base + c` with `c` not 0, `base` read at `w`, when a
    /// rule applies; an `add` of an immediate is its own answer.
    fn value_of(
        &self,
        w: InstId,
        d: RegId,
        width: u32,
        f: Form,
        depth: u32,
    ) -> Option<(RegId, i128)> {
        match f {
            Form::AddImm { src, c } => {
                let deeper = self
                    .resolve(src, w, width, depth - 1)
                    .map(|(b, c1)| (b, wrap(c1.wrapping_add(c), width)));
                // `add %i, %i, c` reads the value it overwrites: only a
                // base found deeper names it.
                if src == d {
                    deeper
                } else {
                    Some(deeper.unwrap_or((src, wrap(c, width))))
                }
            }
            Form::Scale { src, factor } => {
                let (i, c) = self.resolve(src, w, width, depth - 1)?;
                let t = self
                    .scales
                    .get(&(i, factor, width))?
                    .iter()
                    .find_map(|&s| {
                        let t = plain_reg(&self.func.insts[s].operands[0])?;
                        (s != w
                            && t != i
                            && self.facts.dominates(s, w)
                            && self.facts.unchanged_between(self.func, i, s, w)
                            && self.facts.unchanged_between(self.func, t, s, w))
                        .then_some(t)
                    })?;
                let off = wrap(c.wrapping_mul(factor), width);
                (off != 0).then_some((t, off))
            }
            Form::AddRegs { a, b } => [(a, b), (b, a)].into_iter().find_map(|(x, y)| {
                let (t, c) = self.resolve(y, w, width, depth - 1)?;
                let (lo, hi) = pair(x, t);
                let s0 = self.sums.get(&(lo, hi, width))?.iter().find_map(|&s| {
                    let s0 = plain_reg(&self.func.insts[s].operands[0])?;
                    (s != w
                        && s0 != x
                        && s0 != t
                        && self.facts.dominates(s, w)
                        && self.facts.unchanged_between(self.func, x, s, w)
                        && self.facts.unchanged_between(self.func, t, s, w)
                        && self.facts.unchanged_between(self.func, s0, s, w))
                    .then_some(s0)
                })?;
                (c != 0).then_some((s0, c))
            }),
        }
    }
}

/// Runs the step on one function (phase `id`).
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    let forms: Vec<(InstId, RegId, u32, Form)> = input
        .insts_in_order()
        .filter_map(|(i, inst)| form(inst).map(|(d, w, f)| (i, d, w, f)))
        .collect();
    // Registers that may hold an offset from something: written by an
    // `add` of an immediate, or by a `shl`/`mul.lo`/sum reading one. A
    // rewrite needs an instruction reading one; without it (most rounds of
    // most functions) no facts are built.
    let slot = |r: RegId| r.into_raw().into_u32() as usize;
    let mut offset = vec![false; input.regs.len()];
    let reads_offset = |offset: &[bool], f: &Form| match *f {
        Form::AddImm { src, .. } | Form::Scale { src, .. } => offset[slot(src)],
        Form::AddRegs { a, b } => offset[slot(a)] || offset[slot(b)],
    };
    for _ in 0..3 {
        for &(_, d, _, f) in &forms {
            if matches!(f, Form::AddImm { src, .. } if src != d) || reads_offset(&offset, &f) {
                offset[slot(d)] = true;
            }
        }
    }
    let candidates: Vec<(InstId, RegId, u32, Form)> = forms
        .iter()
        .copied()
        .filter(|(_, _, _, f)| reads_offset(&offset, f))
        .collect();
    if candidates.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut scales: FxHashMap<(RegId, i128, u32), Vec<InstId>> = FxHashMap::default();
    let mut sums: FxHashMap<(RegId, RegId, u32), Vec<InstId>> = FxHashMap::default();
    for &(i, _, w, f) in &forms {
        match f {
            Form::Scale { src, factor } => scales.entry((src, factor, w)).or_default().push(i),
            Form::AddRegs { a, b } => {
                let (lo, hi) = pair(a, b);
                sums.entry((lo, hi, w)).or_default().push(i)
            }
            Form::AddImm { .. } => {}
        }
    }
    let facts = crate::phases::version_cache::facts(input);
    let cx = Ctx {
        func: input,
        facts: &facts,
        scales,
        sums,
    };
    let mut edits: Vec<(InstId, RegId, i128)> = Vec::new();
    for &(i, d, w, f) in &candidates {
        let Some((base, c)) = cx.value_of(i, d, w, f, MAX_DEPTH) else {
            continue;
        };
        // Already in that form.
        if f == (Form::AddImm { src: base, c }) {
            continue;
        }
        if w == 64 && (c < i32::MIN as i128 || c > i32::MAX as i128) {
            continue;
        }
        edits.push((i, base, c));
    }
    if edits.is_empty() {
        return PhaseOutput::unchanged(input);
    }
    let mut f = (**input).clone();
    let mut remarks = Vec::new();
    for &(i, base, c) in &edits {
        let before = super::const_fold::inst_text(input, &input.insts[i]);
        let inst = &mut f.insts[i];
        let info = &inst.opcode.info;
        if !matches!(info.family, FamilyId::Add) {
            // `sub`, `shl` and `mul.lo` become an `add` of their type's
            // width (signed: the offset may be negative).
            let ty = info.ty().map_or(64, |t| t.bits());
            inst.opcode = Opcode::new("add", vec![format!(".s{ty}")]);
        }
        inst.operands = vec![
            inst.operands[0].clone(),
            Operand::Reg {
                reg: base,
                component: None,
            },
            Operand::Imm(Imm::new(ImmValue::Int(c))),
        ];
        let after = super::const_fold::inst_text(&f, &f.insts[i]);
        remarks.push(Remark {
            phase: id,
            kind: RemarkKind::Applied,
            name: "offset-reassociate",
            origin: origin(input, i),
            message: format!("`{before}` is `{after}`"),
        });
    }
    PhaseOutput {
        function: Arc::new(f),
        loops: Vec::new(),
        remarks,
        stats: vec![Stat {
            name: "offsets reassociated",
            value: edits.len() as u64,
        }],
    }
}
