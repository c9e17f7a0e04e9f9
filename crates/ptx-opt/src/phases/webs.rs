//! Web splitting: each web of a register (its definitions and uses
//! connected through def-use chains) gets a register of its own, as SSA
//! would give each value one.
//!
//! Run by both unrollers (cicc's loop-unroll and phase 22
//! OriLoopUnrolling) on the function they unrolled. Their copies of a loop
//! body write the registers of the body again, so a value that lives in one
//! copy only shares its register with the other copies' values. LLVM, which
//! cicc unrolls in, is in SSA form, and Ori gives each copy virtual
//! registers of its own; here, without the split, every phase that asks for
//! a register's one definition (cross-block constants, machine-cp's
//! backward copy propagation, reassociation, commoning) saw nine
//! definitions of each temporary of a loop unrolled nine times and left the
//! copies as they were: `mov.b32 %r4, 1; add.s32 %r11, %r1, %r4; sub.s32
//! %r3, %r11, 4` per copy of `conv1d_const`, where cicc writes one `add`.
//!
//! Not a seed phase: the seeds describe Ori's IR, whose virtual registers
//! are not PTX's names; this restores what the unrollers' inputs would have
//! had. Phase 19 (OriSplitLiveRanges, "splits live ranges at loop
//! boundaries") is another thing and stays a pass-through.
//!
//! # The rule
//!
//! From reaching definitions: every use joins the definitions that reach it
//! (and the register's value at entry, when that may reach it) into one web
//! (union-find). A register with several webs keeps its name for the web
//! of its first definition and gets a fresh register ([`Function::clone_reg`])
//! for each other web, at every definition and use of that web. A guarded
//! definition kills nothing, so the uses after it join it with the
//! definitions before it: a may-def never loses the value it may keep.
//!
//! Registers left alone: `.reg` parameters (their name is the interface),
//! vector registers and registers accessed by component or as an
//! accumulator (`wgmma`'s `d = a*b + d`): their writes are partial.

use ptx_ir::ir::def_use::{visit_defs_and_uses, Access};
use ptx_ir::ir::{Function, Operand, RegId};
use rustc_hash::FxHashMap;

fn find(uf: &mut [u32], x: u32) -> u32 {
    let mut r = x;
    while uf[r as usize] != r {
        r = uf[r as usize];
    }
    let mut y = x;
    while uf[y as usize] != r {
        let next = uf[y as usize];
        uf[y as usize] = r;
        y = next;
    }
    r
}

fn union(uf: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(uf, a), find(uf, b));
    if ra != rb {
        // The smaller index is the root: the first definition's web.
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        uf[hi as usize] = lo;
    }
}

/// The unrollers' counter for [`split`]'s result (none when it made no
/// register).
pub fn counter(made: usize) -> Option<crate::remark::Stat> {
    (made > 0).then_some(crate::remark::Stat {
        name: "registers split off for the copies' values",
        value: made as u64,
    })
}

fn idx(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

/// Splits the webs of `func`'s registers (see the module documentation).
/// Returns how many fresh registers were made.
pub fn split(func: &mut Function) -> usize {
    let g = ptx_analysis::cfg(func);
    let rd = ptx_analysis::reaching_defs(func, &g);
    let nd = rd.defs.len();
    let nregs = func.regs.len();
    if nd == 0 {
        return 0;
    }
    // Registers that may be split.
    let mut ok: Vec<bool> = func
        .regs
        .iter()
        .map(|(_, reg)| {
            reg.vector.is_none() && !reg.decl.is_some_and(|d| func.reg_decls[d].is_param)
        })
        .collect();
    // More than one definition, else nothing to split.
    let mut ndefs = vec![0u32; nregs];
    for d in &rd.defs {
        if let Some(n) = ndefs.get_mut(idx(d.reg)) {
            *n += 1;
        }
    }
    for (x, n) in ndefs.iter().enumerate() {
        if *n < 2 {
            ok[x] = false;
        }
    }
    if !ok.iter().any(|&b| b) {
        return 0;
    }
    for (_, inst) in func.insts_in_order() {
        let reads_dest = inst
            .opcode
            .info
            .flags
            .contains(ptx_isa::OpFlags::READS_DEST);
        let mut partial = |op: &Operand| {
            if let Operand::Reg {
                reg,
                component: Some(_),
            } = op
            {
                if let Some(o) = ok.get_mut(idx(*reg)) {
                    *o = false;
                }
            }
        };
        for op in &inst.operands {
            match op {
                Operand::Vector(items) | Operand::ArgList(items) => {
                    items.iter().for_each(&mut partial)
                }
                op => partial(op),
            }
        }
        if reads_dest {
            visit_defs_and_uses(inst, |a, r| {
                if a == Access::Def {
                    if let Some(o) = ok.get_mut(idx(r)) {
                        *o = false;
                    }
                }
            });
        }
    }
    // Union-find over the definitions; node `nd + r` is `r`'s entry value.
    let mut uf: Vec<u32> = (0..(nd + nregs) as u32).collect();
    let order: Vec<_> = func.insts_in_order().map(|(i, _)| i).collect();
    for &i in &order {
        for u in rd.use_defs(i) {
            if !ok.get(idx(u.reg)).copied().unwrap_or(false) {
                continue;
            }
            // Every definition reaching the use, and the entry value when it
            // may, are one web.
            let entry = u.from_entry.then_some((nd + idx(u.reg)) as u32);
            let mut nodes = u.defs.iter().map(|d| d.0).chain(entry);
            if let Some(first) = nodes.next() {
                for n in nodes {
                    union(&mut uf, first, n);
                }
            }
        }
    }
    // The register of each web: the web of a register's first definition
    // (definitions are in layout order) keeps the name, each other web
    // gets a fresh register.
    let mut first_root: Vec<Option<u32>> = vec![None; nregs];
    let mut web_reg: FxHashMap<u32, RegId> = FxHashMap::default();
    let mut made = 0;
    for k in 0..nd {
        let reg = rd.defs[k].reg;
        let r = idx(reg);
        if !ok[r] {
            continue;
        }
        let root = find(&mut uf, k as u32);
        let kept = *first_root[r].get_or_insert(root);
        if kept == root || web_reg.contains_key(&root) {
            continue;
        }
        if let Some(fresh) = func.clone_reg(reg) {
            web_reg.insert(root, fresh);
            made += 1;
        }
    }
    if made == 0 {
        return 0;
    }
    // Rename: a definition by its own web, a use by the web of the
    // definitions reaching it.
    for &i in &order {
        let defs: Vec<(RegId, u32)> = rd
            .defs_of_inst(i)
            .iter()
            .map(|d| (rd.def(*d).reg, find(&mut uf, d.0)))
            .collect();
        let uses: Vec<(RegId, u32)> = rd
            .use_defs(i)
            .filter_map(|u| {
                let node = match u.defs.first() {
                    Some(d) => d.0,
                    None if u.from_entry => (nd + idx(u.reg)) as u32,
                    None => return None,
                };
                Some((u.reg, find(&mut uf, node)))
            })
            .collect();
        let renamed = |list: &[(RegId, u32)], r: RegId| -> RegId {
            list.iter()
                .find(|&&(x, _)| x == r)
                .and_then(|&(_, root)| web_reg.get(&root).copied())
                .unwrap_or(r)
        };
        if !defs
            .iter()
            .chain(&uses)
            .any(|(_, root)| web_reg.contains_key(root))
        {
            continue;
        }
        func.insts[i].map_regs(|a, r| {
            if !ok.get(idx(r)).copied().unwrap_or(false) {
                return r;
            }
            match a {
                Access::Def => renamed(&defs, r),
                Access::Use => renamed(&uses, r),
            }
        });
    }
    made
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(src: &str) -> Function {
        let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(src));
        assert!(errors.is_empty(), "{errors:?}");
        module.functions.into_iter().next().expect("one function")
    }

    /// The body as emitted, one instruction per line, whitespace collapsed.
    fn text(f: &Function) -> String {
        ptx_ir::emit_function(f)
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn copies_of_a_body_get_registers_of_their_own() {
        let mut f = func(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.b32 %r1, 1;\nadd.s32 %r2, %r1, 2;\nst.global.u32 [%rd1], %r2;\nmov.b32 %r1, 3;\nadd.s32 %r2, %r1, 4;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n",
        );
        assert_eq!(split(&mut f), 2);
        let t = text(&f);
        assert!(t.contains("mov.b32 %r1, 1;"), "{t}");
        assert!(t.contains("add.s32 %r2, %r1, 2;"), "{t}");
        assert!(!t.contains("mov.b32 %r1, 3;"), "{t}");
        assert!(!t.contains("st.global.u32 [%rd1+4], %r2;"), "{t}");
    }

    #[test]
    fn a_guarded_write_stays_with_what_it_may_keep() {
        let mut f = func(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.global.u32 %r3, [%rd1];\nsetp.eq.s32 %p1, %r3, 0;\nmov.b32 %r1, 1;\n@%p1 mov.b32 %r1, 2;\nst.global.u32 [%rd1], %r1;\nret;\n}\n",
        );
        assert_eq!(split(&mut f), 0);
    }

    #[test]
    fn a_loop_carried_register_is_one_web() {
        let mut f = func(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.b32 %r1, 0;\n$L1:\nadd.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 10;\n@%p1 bra $L1;\nst.global.u32 [%rd1], %r1;\nret;\n}\n",
        );
        assert_eq!(split(&mut f), 0);
    }
}
