//! The IR verifier: [`verify`] checks that a [`Function`] is well formed, so
//! that a pass that breaks the IR is caught right after it runs (the
//! optimizer calls it after every phase in debug builds and tests).
//!
//! It never reports something that lowering produces from PTX that ptxas
//! accepts: every check is either a structural invariant of the IR that
//! lowering establishes, or a PTX rule that ptxas 13.0.88 enforces (each was
//! tried against it), and the verifier reports zero errors on every function of
//! every ptxas-accepted file of `test-data` and the shared corpus
//! (`tests/verify.rs`). Where a rule is unsure, it stays silent. It never
//! panics, whatever the function holds (ids out of their arenas included).
//!
//! # What it checks ([`Check`])
//!
//! - **Layout** ([`Check::Layout`]): every block of [`Function::layout`] is in
//!   the block arena and appears once. Blocks of the arena outside the layout
//!   are dead storage (a removed block, the block of an undefined label) and
//!   are not looked at.
//! - **Instructions** ([`Check::Instruction`]): every instruction id of a
//!   block of the layout is in the instruction arena and appears once in the
//!   whole layout (in one block, once). Instructions of the arena that no block
//!   of the layout lists are dead storage (removed instructions).
//! - **Terminators last** ([`Check::Terminator`]): a `bra`, `brx.idx`, `ret`,
//!   `exit` or `trap`, guarded or not, is the last instruction of its block
//!   (lowering starts a block after each; the successors of a block are read
//!   from its last instruction only).
//! - **Branch targets** ([`Check::BranchTarget`]): every label operand and
//!   every block of a `.branchtargets` list is a block of the layout.
//! - **Labels** ([`Check::Label`]): no two blocks of the layout have the same
//!   label (ptxas rejects a duplicate label).
//! - **Registers** ([`Check::Register`]): every register operand and guard is
//!   in the register arena; every register's declaration is in the
//!   declaration arena, with the register's type and vector width; every
//!   register's class is the class of its type; a register made by a pass (no declaration) is written
//!   by some instruction of the layout, and its name clashes with no other
//!   register, declared register name (`%r0`..`%r99` of `%r<100>`), parameter
//!   or local name (the emitter declares it by that name). A *declared*
//!   register that is read but never written is not an error: PTX allows it
//!   and real files do it (the value is undefined).
//! - **Predicates** ([`Check::Predicate`]): `.pred` registers where PTX wants
//!   a predicate: guards (`@%p`), negated operands (`!%p`), the destinations
//!   of `setp` (both of `%p|%q`) and its optional boolean source, the
//!   condition of `selp`.
//! - **Operand widths** ([`Check::Width`]): for `add`, `sub`, `min`, `max`,
//!   `and`, `or`, `xor`, `not`, `neg`, `abs`, `fma`, `div`, `rem`, `mul` and
//!   `mad` (not `.wide`), `shl`/`shr` (destination and source, not the shift
//!   amount), `mov`, `selp` (not the condition) and `setp` (the compared
//!   values) with exactly one type modifier and no vector modifier, every
//!   plain scalar register operand (no component, not a vector register)
//!   that holds a value of that type has the register class of that type
//!   (ptxas rejects `add.u32 %r1, %rd1, %r2`, `add.u32 %r1, %p1, %r2`,
//!   `mov.u32 %r1, %rs1`, `mul.lo.s32 %rd1, %r1, %r2`). Only the class is
//!   compared, not the kind (ptxas takes a `.b32` register for `add.f32`),
//!   so an 8-bit register in a 16-bit instruction is not reported.
//!
//! What it does not check: falling off the end of the function (ptxas
//! accepts a kernel or `.func` whose last block falls through into the
//! closing brace, including an empty body and a label right before it), and
//! the origins (their values are ids of another function, the lowered one).

use std::fmt;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::def_use::{visit_defs_and_uses, Access};
use crate::ir::edit::declares;
use crate::ir::{BlockId, Function, Inst, InstId, LocalDecl, Operand, RegClass, RegId};

/// Which rule a [`VerifyError`] breaks (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// A block of the layout is missing from the arena or listed twice.
    Layout,
    /// An instruction id is missing from the arena or listed twice.
    Instruction,
    /// A branch, `ret`, `exit` or `trap` is not last in its block.
    Terminator,
    /// A branch target is not a block of the layout.
    BranchTarget,
    /// Two blocks of the layout have the same label.
    Label,
    /// A register id or declaration is invalid, a pass-made register is never
    /// written, or its name clashes.
    Register,
    /// A non-predicate register where a predicate goes.
    Predicate,
    /// A register whose size does not match the instruction type.
    Width,
}

/// One broken rule: where, which rule, and a message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VerifyError {
    /// The rule broken.
    pub check: Check,
    /// The block of the layout it is in, when it is in one.
    pub block: Option<BlockId>,
    /// The instruction, when one is at fault.
    pub inst: Option<InstId>,
    /// What is wrong, in words (with register and label names).
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.check)?;
        if let Some(b) = self.block {
            write!(f, " in block {}", b.into_raw().into_u32())?;
        }
        if let Some(i) = self.inst {
            write!(f, " at instruction {}", i.into_raw().into_u32())?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Checks `func` (see the module documentation); `Err` holds every broken
/// rule found, in layout order.
pub fn verify(func: &Function) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier {
        f: func,
        errors: Vec::new(),
    };
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Verifier<'a> {
    f: &'a Function,
    errors: Vec<VerifyError>,
}

impl Verifier<'_> {
    fn error(
        &mut self,
        check: Check,
        block: Option<BlockId>,
        inst: Option<InstId>,
        message: String,
    ) {
        self.errors.push(VerifyError {
            check,
            block,
            inst,
            message,
        });
    }

    fn block_ok(&self, b: BlockId) -> bool {
        (b.into_raw().into_u32() as usize) < self.f.blocks.len()
    }

    fn inst_ok(&self, i: InstId) -> bool {
        (i.into_raw().into_u32() as usize) < self.f.insts.len()
    }

    fn reg_ok(&self, r: RegId) -> bool {
        (r.into_raw().into_u32() as usize) < self.f.regs.len()
    }

    fn reg_name(&self, r: RegId) -> String {
        if self.reg_ok(r) {
            self.f.regs[r].name.to_string()
        } else {
            format!("register #{}", r.into_raw().into_u32())
        }
    }

    fn run(&mut self) {
        let f = self.f;
        // Layout.
        let mut in_layout = FxHashSet::with_capacity_and_hasher(f.layout.len(), Default::default());
        let mut layout = Vec::with_capacity(f.layout.len());
        for &b in &f.layout {
            if !self.block_ok(b) {
                self.error(
                    Check::Layout,
                    None,
                    None,
                    format!(
                        "block #{} of the layout is not in the block arena",
                        b.into_raw().into_u32()
                    ),
                );
            } else if !in_layout.insert(b) {
                self.error(
                    Check::Layout,
                    Some(b),
                    None,
                    "block appears twice in the layout".to_string(),
                );
            } else {
                layout.push(b);
            }
        }
        // Labels.
        let mut labels: FxHashMap<&str, BlockId> =
            FxHashMap::with_capacity_and_hasher(layout.len(), Default::default());
        for &b in &layout {
            if let Some(label) = f.blocks[b].label.as_deref() {
                if labels.insert(label, b).is_some() {
                    self.error(
                        Check::Label,
                        Some(b),
                        None,
                        format!("label `{label}` is on two blocks of the layout"),
                    );
                }
            }
        }
        // Instructions, terminators, branch targets, operands.
        // Indexed by instruction (every one checked `inst_ok` first).
        let mut seen_insts = vec![false; f.insts.len()];
        let mut live_insts = Vec::new();
        for &b in &layout {
            let insts = &f.blocks[b].insts;
            for (pos, &i) in insts.iter().enumerate() {
                if !self.inst_ok(i) {
                    self.error(
                        Check::Instruction,
                        Some(b),
                        Some(i),
                        "instruction is not in the instruction arena".to_string(),
                    );
                    continue;
                }
                let seen = &mut seen_insts[i.into_raw().into_u32() as usize];
                if std::mem::replace(seen, true) {
                    self.error(
                        Check::Instruction,
                        Some(b),
                        Some(i),
                        "instruction appears twice in the layout".to_string(),
                    );
                    continue;
                }
                live_insts.push(i);
                let inst = &f.insts[i];
                if inst.is_terminator() && pos + 1 != insts.len() {
                    self.error(
                        Check::Terminator,
                        Some(b),
                        Some(i),
                        format!(
                            "`{}` is not the last instruction of its block",
                            inst.opcode.text()
                        ),
                    );
                }
                self.check_labels(b, i, inst, &in_layout);
                self.check_regs(b, i, inst);
                self.check_predicates(b, i, inst);
                self.check_widths(b, i, inst);
            }
        }
        for local in &f.locals {
            if let LocalDecl::BranchTargets { name, targets } = local {
                for &t in targets {
                    if !in_layout.contains(&t) {
                        self.error(
                            Check::BranchTarget,
                            None,
                            None,
                            format!(
                                "`.branchtargets {name}` lists block #{}, which is not in the layout",
                                t.into_raw().into_u32()
                            ),
                        );
                    }
                }
            }
        }
        self.check_reg_table(&live_insts);
    }

    fn check_labels(&mut self, b: BlockId, i: InstId, inst: &Inst, in_layout: &FxHashSet<BlockId>) {
        let mut bad = Vec::new();
        for op in &inst.operands {
            op.for_each_label(&mut |t| {
                if !in_layout.contains(&t) {
                    bad.push(t);
                }
            });
        }
        for t in bad {
            let label = if self.block_ok(t) {
                self.f.blocks[t].label.clone()
            } else {
                None
            };
            let what = match label {
                Some(l) => format!("`{l}` (block #{})", t.into_raw().into_u32()),
                None => format!("block #{}", t.into_raw().into_u32()),
            };
            self.error(
                Check::BranchTarget,
                Some(b),
                Some(i),
                format!("target {what} is not a block of the layout"),
            );
        }
    }

    fn check_regs(&mut self, b: BlockId, i: InstId, inst: &Inst) {
        let mut bad = Vec::new();
        if let Some(g) = inst.guard {
            if !self.reg_ok(g.reg) {
                bad.push(g.reg);
            }
        }
        for op in &inst.operands {
            op.for_each_reg(&mut |r| {
                if !self.reg_ok(r) {
                    bad.push(r);
                }
            });
        }
        for r in bad {
            self.error(
                Check::Register,
                Some(b),
                Some(i),
                format!(
                    "register #{} is not in the register arena",
                    r.into_raw().into_u32()
                ),
            );
        }
    }

    /// Whether `r` is a valid predicate register (invalid ids are reported by
    /// `check_regs`, so they count as predicates here).
    fn is_pred(&self, r: RegId) -> bool {
        !self.reg_ok(r) || self.f.regs[r].class == RegClass::P
    }

    fn check_predicates(&mut self, b: BlockId, i: InstId, inst: &Inst) {
        let mut bad: Vec<(RegId, &str)> = Vec::new();
        if let Some(g) = inst.guard {
            if !self.is_pred(g.reg) {
                bad.push((g.reg, "a guard"));
            }
        }
        for op in &inst.operands {
            neg_preds(op, &mut |r| {
                if !self.is_pred(r) {
                    bad.push((r, "a negated operand `!`"));
                }
            });
        }
        let ops = &inst.operands;
        match inst.opcode.name.as_str() {
            "setp" => {
                let dests: Vec<RegId> = match ops.first() {
                    Some(Operand::Reg { reg, .. }) => vec![*reg],
                    Some(Operand::PredPair(a, c)) => {
                        [a.as_reg(), c.as_reg()].into_iter().flatten().collect()
                    }
                    _ => Vec::new(),
                };
                for r in dests {
                    if !self.is_pred(r) {
                        bad.push((r, "a destination of `setp`"));
                    }
                }
                // `setp.cmp.bool.type p, a, b, c`: `c` is a predicate.
                if ops.len() == 4 {
                    if let Some(r) = ops[3].as_reg() {
                        if !self.is_pred(r) {
                            bad.push((r, "the boolean source of `setp`"));
                        }
                    }
                }
            }
            "selp" if ops.len() == 4 => {
                if let Some(r) = ops[3].as_reg() {
                    if !self.is_pred(r) {
                        bad.push((r, "the condition of `selp`"));
                    }
                }
            }
            _ => {}
        }
        for (r, what) in bad {
            let name = self.reg_name(r);
            self.error(
                Check::Predicate,
                Some(b),
                Some(i),
                format!("`{name}` is {what} but not a `.pred` register"),
            );
        }
    }

    fn check_widths(&mut self, b: BlockId, i: InstId, inst: &Inst) {
        let name = inst.opcode.name.as_str();
        // Which operands hold a value of the instruction type.
        let all = 0..inst.operands.len();
        let value_ops: std::ops::Range<usize> = match name {
            "add" | "sub" | "min" | "max" | "and" | "or" | "xor" | "not" | "neg" | "abs"
            | "fma" | "div" | "rem" => all,
            // `.wide` doubles the destination (and `mad`'s addend).
            "mul" | "mad" if !inst.opcode.has_modifier(".wide") => all,
            // `shl.T d, a, b`: `b` is a `.u32` shift amount.
            "shl" | "shr" => 0..2,
            "mov" => 0..2,
            // `selp.T d, a, b, c`: `c` is the predicate.
            "selp" => 0..3,
            // `setp.cmp.T p, a, b{, c}`: `a` and `b`.
            "setp" => 1..3,
            _ => return,
        };
        // Vector forms (`mov.v2.b32`) are left alone.
        if inst
            .opcode
            .modifiers
            .iter()
            .any(|m| matches!(m.as_str(), ".v2" | ".v4" | ".v8"))
        {
            return;
        }
        let mut types = inst
            .opcode
            .modifiers
            .iter()
            .filter(|m| ptx_isa::type_bits(m).is_some());
        let (Some(ty), None) = (types.next(), types.next()) else {
            return;
        };
        let want = RegClass::of(ty, None);
        let mut bad = Vec::new();
        for op in inst.operands.get(value_ops).unwrap_or(&[]) {
            if let Operand::Reg {
                reg,
                component: None,
            } = op
            {
                // Vector registers are left alone (ptxas takes a `.v2 .b32`
                // register for `mov.b64`).
                if self.reg_ok(*reg)
                    && self.f.regs[*reg].vector.is_none()
                    && self.f.regs[*reg].class != want
                {
                    bad.push(*reg);
                }
            }
        }
        for r in bad {
            let reg = &self.f.regs[r];
            let message = format!(
                "`{}` ({}{}) does not fit `{}`",
                reg.name,
                reg.vector.map_or(String::new(), |v| format!(".v{v} ")),
                reg.ty,
                inst.opcode.text()
            );
            self.error(Check::Width, Some(b), Some(i), message);
        }
    }

    /// The register table: declarations, and the defs and names of pass-made
    /// registers.
    fn check_reg_table(&mut self, live_insts: &[InstId]) {
        let f = self.f;
        let mut pass_regs = Vec::new();
        for (r, reg) in f.regs.iter() {
            if reg.class != RegClass::of(&reg.ty, reg.vector) {
                self.error(
                    Check::Register,
                    None,
                    None,
                    format!(
                        "`{}` has class {:?}, but its type is `{}`{}",
                        reg.name,
                        reg.class,
                        reg.ty,
                        reg.vector.map_or(String::new(), |v| format!(" x{v}"))
                    ),
                );
            }
            if let Some(d) = reg
                .decl
                .filter(|d| (d.into_raw().into_u32() as usize) < f.reg_decls.len())
            {
                let decl = &f.reg_decls[d];
                if decl.ty != reg.ty || decl.vector != reg.vector {
                    self.error(
                        Check::Register,
                        None,
                        None,
                        format!(
                            "`{}` has type `{}` but its declaration `{}` says `{}`",
                            reg.name, reg.ty, decl.name, decl.ty
                        ),
                    );
                }
            }
            match reg.decl {
                Some(d) if (d.into_raw().into_u32() as usize) >= f.reg_decls.len() => self.error(
                    Check::Register,
                    None,
                    None,
                    format!(
                        "`{}` refers to declaration #{}, which is not in the declaration arena",
                        reg.name,
                        d.into_raw().into_u32()
                    ),
                ),
                Some(_) => {}
                None => pass_regs.push(r),
            }
        }
        if pass_regs.is_empty() {
            return;
        }
        // Which pass-made registers are written somewhere.
        let mut written = FxHashSet::default();
        for &i in live_insts {
            visit_defs_and_uses(&f.insts[i], |access, r| {
                if access == Access::Def {
                    written.insert(r);
                }
            });
        }
        let mut used = FxHashSet::default();
        for &i in live_insts {
            let inst = &f.insts[i];
            if let Some(g) = inst.guard {
                used.insert(g.reg);
            }
            inst.operands.iter().for_each(|op| {
                op.for_each_reg(&mut |r| {
                    used.insert(r);
                })
            });
        }
        // Every name a pass-made register may not take.
        let mut names: FxHashMap<&str, usize> = FxHashMap::default();
        for reg in f.regs.values() {
            *names.entry(&*reg.name).or_default() += 1;
        }
        let params = f
            .sig
            .params
            .iter()
            .chain(f.sig.ret_params.iter().flatten())
            .map(|p| p.name.as_str());
        let locals = f.locals.iter().flat_map(|l| l.names());
        let symbols: FxHashSet<&str> = params.chain(locals).collect();
        for r in pass_regs {
            let reg = &f.regs[r];
            if used.contains(&r) && !written.contains(&r) {
                self.error(
                    Check::Register,
                    None,
                    None,
                    format!(
                        "`{}` was made by a pass (no declaration) and is read but never written",
                        reg.name
                    ),
                );
            }
            let clash = names.get(&*reg.name).copied().unwrap_or(0) > 1
                || symbols.contains(&*reg.name)
                || f.reg_decls.values().any(|d| declares(d, &reg.name));
            if clash {
                self.error(
                    Check::Register,
                    None,
                    None,
                    format!(
                        "`{}` was made by a pass and its name is already taken",
                        reg.name
                    ),
                );
            }
        }
    }
}

/// Calls `f` on the register of every `!%p` in `op`.
fn neg_preds(op: &Operand, f: &mut impl FnMut(RegId)) {
    match op {
        Operand::NegPred(r) => f(*r),
        Operand::AddressList(items) | Operand::Vector(items) | Operand::ArgList(items) => {
            items.iter().for_each(|o| neg_preds(o, f))
        }
        Operand::PredPair(a, b) => {
            neg_preds(a, f);
            neg_preds(b, f);
        }
        _ => {}
    }
}
