//! The mutation API on small kernels: fresh registers, operand mapping,
//! placing and removing instructions (origins kept), splitting blocks,
//! inserting blocks (explicit branches where a fall-through would change),
//! redirecting edges, cloning regions. Every result is checked by the
//! verifier and by emitting, parsing and lowering it again (no errors, and
//! the verifier accepts the re-lowered function). The same edits run on the
//! emulator and ptxas in `ptx-emu/tests/mutate.rs`.

use ptx_ir::ir::{
    defs_and_uses, Access, BlockId, Function, Inst, InstId, Module, Opcode, Operand, RegId,
};
use ptx_ir::verify;

fn lower(text: &str) -> Module {
    let parse = ptx_syntax::parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "{errors:?}");
    module
}

fn kernel(body: &str) -> Module {
    lower(&format!(
        ".version 8.5\n.target sm_90\n.address_size 64\n.entry k(.param .u64 out, .param .u32 n)\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<8>;\n{body}\n}}\n"
    ))
}

/// Checks `m` with the verifier, emits it, lowers the text again and checks
/// that too; returns the text.
fn check(m: &Module) -> String {
    for f in &m.functions {
        if let Err(e) = verify(f) {
            panic!("{}: {e:#?}\n{}", f.name(), ptx_ir::emit_module(m));
        }
    }
    let text = ptx_ir::emit_module(m);
    let again = lower(&text);
    for f in &again.functions {
        assert_eq!(verify(f), Ok(()), "re-lowered {}:\n{text}", f.name());
    }
    text
}

fn find(f: &Function, opcode: &str) -> InstId {
    f.insts_in_order()
        .find(|(_, i)| i.opcode.text().starts_with(opcode))
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no `{opcode}`"))
}

fn reg(f: &Function, name: &str) -> RegId {
    f.regs
        .iter()
        .find(|(_, r)| &*r.name == name)
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no `{name}`"))
}

fn block_with_label(f: &Function, label: &str) -> BlockId {
    f.layout
        .iter()
        .copied()
        .find(|&b| f.blocks[b].label.as_deref() == Some(label))
        .unwrap()
}

/// A clone of the first instruction, not placed.
fn orphan_check(f: &mut Function) -> InstId {
    let first = f.insts_in_order().next().unwrap().0;
    f.clone_inst(first).unwrap()
}

fn mov(f: &mut Function, dst: RegId, value: i64) -> InstId {
    f.add_inst(
        Inst {
            guard: None,
            opcode: Opcode::new("mov", vec![".u32".into()]),
            operands: vec![
                Operand::Reg {
                    reg: dst,
                    component: None,
                },
                Operand::Imm(ptx_ir::ir::Imm::new(ptx_ir::ir::ImmValue::Int(
                    value.into(),
                ))),
            ],
            locs: Default::default(),
            range: Default::default(),
        },
        None,
    )
}

const LOOP: &str = "
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
$L_loop:
    add.s32 %r3, %r3, %r2;
    add.s32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, %r1;
    @%p1 bra $L_loop;
    st.global.u32 [%rd1], %r3;
    ret;";

#[test]
fn fresh_registers_clash_with_nothing() {
    let mut m = lower(
        ".version 8.5\n.target sm_90\n.address_size 64\n.entry k(.param .u64 out)\n{\n.reg .b32 %ir_r<100>;\n.reg .pred %ir_p1;\n.reg .b32 %ir_r2_1;\nmov.u32 %ir_r1, 1;\n@%ir_p1 mov.u32 %ir_r1, 2;\nret;\n}\n",
    );
    let f = &mut m.functions[0];
    let before: Vec<String> = f.regs.values().map(|r| r.name.to_string()).collect();
    let a = f.new_reg(".b32", None);
    let b = f.new_reg(".u32", None);
    let p = f.new_reg(".pred", None);
    let c = f.clone_reg(a).unwrap();
    let v = f.new_reg(".f32", Some(2));
    let names: Vec<String> = [a, b, p, c, v]
        .iter()
        .map(|&r| f.regs[r].name.to_string())
        .collect();
    for (k, n) in names.iter().enumerate() {
        assert!(!before.iter().any(|b| b == n), "{n} clashes");
        assert!(!names[..k].contains(n), "{n} twice");
        let n = n.as_str();
        assert!(!(n.starts_with("%ir_r") && n[5..].parse::<u32>().is_ok_and(|i| i < 100)));
        assert_ne!(n, "%ir_p1");
        assert_ne!(n, "%ir_r2_1");
    }
    assert_eq!(&*f.regs[c].ty, ".b32");
    assert_eq!(f.regs[v].class, ptx_ir::ir::RegClass::R64);
    assert!(f
        .clone_reg(la_arena::Idx::from_raw(la_arena::RawIdx::from(999)))
        .is_none());
    // Used (written, then read) they verify, emit, and ptxas-style re-lower.
    let ret = find(f, "ret");
    for r in [a, b, c] {
        let i = mov(f, r, 7);
        assert!(f.insert_before(ret, i));
    }
    let text = check(&m);
    assert!(
        text.contains(&format!(".reg .b32 \t{};", names[0])),
        "{text}"
    );
    // A fresh register no placed instruction uses is not declared.
    assert!(!text.contains(&format!("{};", names[4])), "{text}");
}

#[test]
fn map_regs_visits_what_defs_and_uses_lists() {
    let m = kernel(
        "setp.lt.and.s32 %p1|%p2, %r4, 32, !%p3;
         @%p0 ld.global.v4.f32 {%f1, _, %f2, %f3}, [%rd2+8];
         st.global.v2.f32 [%rd1+4], {%f1, %f2};
         atom.global.add.u32 %r5, [%rd3], %r6;
         vadd.s32.s32.s32.sat %r11.h0, %r12, %r13, %r14;
         mov.b64 %rd5, {%r7, %r8};",
    );
    let f = &m.functions[0];
    for (_, inst) in f.insts_in_order() {
        let du = defs_and_uses(inst);
        let mut seen_defs = Vec::new();
        let mut seen_uses = Vec::new();
        let mut copy = inst.clone();
        copy.map_regs(|access, r| {
            match access {
                Access::Def => seen_defs.push(r),
                Access::Use => seen_uses.push(r),
            }
            r
        });
        assert_eq!(copy, *inst);
        // A partial write is mapped once, as a def (defs_and_uses also lists
        // it as a use).
        let partial: Vec<RegId> = du
            .uses
            .iter()
            .copied()
            .filter(|r| du.defs.contains(r) && !seen_uses.contains(r))
            .collect();
        let mut uses = seen_uses.clone();
        uses.extend(partial);
        uses.sort();
        let mut want = du.uses.clone();
        want.sort();
        assert_eq!(seen_defs[..], du.defs[..], "{}", inst.opcode.text());
        assert_eq!(uses[..], want[..], "{}", inst.opcode.text());
    }
    // Renaming every def to a fresh register shows up in the text.
    let mut m = m;
    let f = &mut m.functions[0];
    let i = find(f, "ld.global");
    let fresh = f.new_reg(".f32", None);
    let f1 = reg(f, "%f1");
    f.insts[i].map_regs(|a, r| {
        if a == Access::Def && r == f1 {
            fresh
        } else {
            r
        }
    });
    let name = f.regs[fresh].name.clone();
    let text = check(&m);
    assert!(
        text.contains(&format!("{{{name}, _, %f2, %f3}}, [%rd2+8]")),
        "{text}"
    );
}

#[test]
fn insert_remove_and_clone_keep_origins() {
    let mut m = kernel(LOOP);
    let f = &mut m.functions[0];
    let add = find(f, "add.s32");
    assert_eq!(
        f.origin(add),
        Some(add),
        "lowering maps each instruction to itself"
    );
    let copy = f.clone_inst(add).unwrap();
    assert_eq!(f.origin(copy), Some(add));
    assert_eq!(f.inst_position(copy), None, "a clone is not placed");
    assert!(f.insert_after(add, copy));
    let (b, pos) = f.inst_position(add).unwrap();
    assert_eq!(f.blocks[b].insts[pos + 1], copy);
    // Move: remove, then place again; the id and origin stay.
    let st = find(f, "st.global");
    assert_eq!(
        f.remove_inst(st),
        Some(f.inst_position(find(f, "ret")).unwrap().0)
    );
    assert_eq!(f.remove_inst(st), None);
    assert_eq!(f.origin(st), Some(st));
    assert!(f.has_inst(st), "the arena keeps removed instructions");
    let ret_block = f.inst_position(find(f, "ret")).unwrap().0;
    assert!(f.insert_before_terminator(ret_block, st));
    let made = mov(f, reg(f, "%r3"), 1);
    assert_eq!(f.origin(made), None);
    f.set_origin(made, Some(add));
    assert_eq!(f.origin(made), Some(add));
    let first = f.layout[0];
    assert!(f.insert_at_start(first, made));
    let blocks = f.inst_blocks();
    for (i, _) in f.insts_in_order() {
        assert_eq!(blocks.get(i).copied(), f.inst_position(i).map(|p| p.0));
    }
    assert_eq!(blocks.get(orphan_check(f)), None);
    let text = check(&m);
    assert!(
        text.contains("add.s32 \t%r3, %r3, %r2;\n\tadd.s32 \t%r3, %r3, %r2;"),
        "{text}"
    );
    assert!(
        text.contains("st.global.u32 \t[%rd1], %r3;\n\tret;"),
        "{text}"
    );
    // Placing relative to something not placed does nothing.
    let f = &mut m.functions[0];
    let orphan = f.clone_inst(add).unwrap();
    let other = f.clone_inst(add).unwrap();
    assert!(!f.insert_before(orphan, other));
    assert!(!f.insert_after(orphan, other));
}

#[test]
fn split_block_keeps_the_fall_through() {
    let mut m = kernel(LOOP);
    let original = ptx_ir::emit_module(&m);
    let f = &mut m.functions[0];
    let setp = find(f, "setp");
    let (head, _) = f.inst_position(setp).unwrap();
    let tail = f.split_block(setp).unwrap();
    assert_eq!(f.next_in_layout(head), Some(tail));
    assert_eq!(f.successors(head), vec![tail]);
    assert_eq!(f.blocks[tail].label, None);
    assert_eq!(f.inst_position(setp), Some((tail, 0)));
    // Splitting at every instruction: one instruction per block.
    let all: Vec<InstId> = f.insts_in_order().map(|(i, _)| i).collect();
    for i in all {
        f.split_block(i).unwrap();
    }
    assert!(f.layout.iter().all(|&b| f.blocks[b].insts.len() <= 1));
    // Unlabeled blocks nothing branches to print no label: same text.
    assert_eq!(check(&m), original);
}

#[test]
fn insert_block_after_adds_branches_where_fall_through_changes() {
    let mut m = kernel(
        "   ld.param.u32 %r1, [n];
            setp.eq.u32 %p1, %r1, 0;
            mov.u32 %r2, 1;
        $L_a:
            @%p1 bra $L_c;
        $L_b:
            add.s32 %r2, %r2, 1;
        $L_c:
            mov.u32 %r3, %r2;",
    );
    let f = &mut m.functions[0];
    let entry = f.layout[0];
    let (a, b, c) = (
        block_with_label(f, "$L_a"),
        block_with_label(f, "$L_b"),
        block_with_label(f, "$L_c"),
    );
    // After a block ending in a plain instruction: `bra` to the old successor.
    let n1 = f.insert_block_after(entry).unwrap();
    assert_eq!(f.next_in_layout(entry), Some(n1));
    assert_eq!(f.successors(entry), vec![a]);
    assert_eq!(f.successors(n1), vec![a]);
    // After a guarded branch: a jump block of its own.
    let n2 = f.insert_block_after(a).unwrap();
    let jump = f.next_in_layout(a).unwrap();
    assert_ne!(jump, n2);
    assert_eq!(f.successors(a), vec![c, jump]);
    assert_eq!(f.successors(jump), vec![b]);
    assert_eq!(f.next_in_layout(jump), Some(n2));
    // After the last block (which falls off the end): `ret`.
    let n3 = f.insert_block_after(c).unwrap();
    assert_eq!(f.successors(c), Vec::<BlockId>::new());
    assert_eq!(
        f.insts[*f.blocks[c].insts.last().unwrap()].opcode.name,
        "ret"
    );
    assert_eq!(f.layout.last(), Some(&n3));
    // After a block that cannot fall through: nothing added.
    let ret_block = c;
    let count = f.blocks[ret_block].insts.len();
    f.insert_block_after(ret_block).unwrap();
    assert_eq!(f.blocks[ret_block].insts.len(), count);
    let text = check(&m);
    assert!(
        text.contains("\tmov.u32 \t%r2, 1;\n\tbra \t$L_a;"),
        "{text}"
    );
}

#[test]
fn redirect_edge_rewrites_branches_and_fall_throughs() {
    let mut m = kernel(LOOP);
    let f = &mut m.functions[0];
    let entry = f.layout[0];
    let body = block_with_label(f, "$L_loop");
    let exit = f.next_in_layout(body).unwrap();
    let extra = f.insert_block_after(body).unwrap();
    let _ = extra;
    // The branch edge.
    assert!(f.redirect_edge(body, body, exit));
    assert_eq!(f.successors(body)[0], exit);
    // The fall-through edge of the entry block.
    assert!(f.redirect_edge(entry, body, exit));
    assert_eq!(f.successors(entry), vec![exit]);
    assert!(!f.redirect_edge(entry, body, exit), "no edge left to move");
    check(&m);
}

#[test]
fn replace_branch_target_rewrites_branches_and_target_lists() {
    let mut m = kernel(
        "   ld.param.u32 %r1, [n];
            ts: .branchtargets $L_a, $L_b, $L_a;
            brx.idx %r1, ts;
        $L_a:
            setp.eq.u32 %p1, %r1, 0;
            @%p1 bra $L_a;
        $L_b:
            ret;",
    );
    let f = &mut m.functions[0];
    let (a, b) = (block_with_label(f, "$L_a"), block_with_label(f, "$L_b"));
    assert_eq!(f.replace_branch_target(a, b), 3);
    assert_eq!(f.branch_targets("ts"), Some(&[b, b, b][..]));
    assert_eq!(f.successors(a), vec![b]);
    assert_eq!(f.replace_branch_target(a, b), 0);
    let text = check(&m);
    assert!(
        text.contains("ts: .branchtargets $L_b, $L_b, $L_b;"),
        "{text}"
    );
}

#[test]
fn clone_region_copies_with_fresh_registers_and_labels() {
    let mut m = kernel(LOOP);
    let f = &mut m.functions[0];
    let body = block_with_label(f, "$L_loop");
    let exit = f.next_in_layout(body).unwrap();
    let regs_before = f.regs.len();
    let clone = f.clone_region(&[body], body).unwrap();
    let copy = clone.blocks[&body];
    assert_eq!(clone.order, vec![copy]);
    let label = f.blocks[copy].label.clone().unwrap();
    assert!(label.starts_with("$L_loop_c"), "{label}");
    // %r3, %r2, %p1 are written in the body: three fresh registers.
    assert_eq!(clone.regs.len(), 3);
    assert_eq!(f.regs.len(), regs_before + 3);
    for (&old, &new) in &clone.regs {
        assert_eq!(f.regs[old].ty, f.regs[new].ty);
        assert_eq!(f.regs[new].decl, None);
    }
    // %r1 is only read: shared.
    let r1 = reg(f, "%r1");
    assert!(!clone.regs.contains_key(&r1));
    // The copy branches to itself (the branch to the region goes to the copy)
    // and falls through to the exit; the original keeps its fall-through to
    // the exit through a jump block.
    assert_eq!(f.successors(copy), vec![copy, exit]);
    assert_eq!(clone.jump_blocks.len(), 1);
    assert_eq!(f.successors(body), vec![body, clone.jump_blocks[0]]);
    assert_eq!(f.successors(clone.jump_blocks[0]), vec![exit]);
    for (&old, &new) in &clone.insts {
        assert_eq!(f.origin(new), f.origin(old));
    }
    let p1 = clone.regs[&reg(f, "%p1")];
    let last = *f.blocks[copy].insts.last().unwrap();
    assert_eq!(f.insts[last].guard.map(|g| g.reg), Some(p1));
    let text = check(&m);
    assert!(text.contains(&format!("{label}:")), "{text}");
    // Bad regions change nothing.
    let f = &mut m.functions[0];
    let layout = f.layout.clone();
    assert!(f.clone_region(&[body, body], body).is_none());
    let unplaced = f.blocks.alloc(Default::default());
    assert!(f.clone_region(&[unplaced], body).is_none());
    assert_eq!(f.layout, layout);
}

/// Runs every edit of the API on `f`, with valid and invalid ids, then the
/// verifier and the emitter: none may panic.
fn chaos(f: &mut Function) {
    use la_arena::{Idx, RawIdx};
    let bad_block: BlockId = Idx::from_raw(RawIdx::from(100_000));
    let bad_inst: InstId = Idx::from_raw(RawIdx::from(100_000));
    let bad_reg: RegId = Idx::from_raw(RawIdx::from(100_000));
    assert!(f.split_block(bad_inst).is_none());
    assert!(f.insert_block_after(bad_block).is_none());
    assert!(f.clone_inst(bad_inst).is_none());
    assert!(f.clone_reg(bad_reg).is_none());
    assert!(f.new_mov(bad_reg, bad_reg).is_none());
    assert!(f.remove_inst(bad_inst).is_none());
    assert!(!f.insert_before(bad_inst, bad_inst));
    assert!(!f.insert_at_end(bad_block, bad_inst));
    assert!(!f.insert_before_terminator(bad_block, bad_inst));
    assert!(!f.redirect_edge(bad_block, bad_block, bad_block));
    assert!(f.clone_region(&[bad_block], bad_block).is_none());
    let layout = f.layout.clone();
    for &b in &layout {
        let Some(insts) = f.has_block(b).then(|| f.blocks[b].insts.clone()) else {
            continue;
        };
        if let Some(&middle) = insts.get(insts.len() / 2) {
            let _ = f.split_block(middle);
            if let Some(copy) = f.clone_inst(middle) {
                f.insert_before(middle, copy);
                f.remove_inst(copy);
                f.insert_before_terminator(b, copy);
            }
        }
        let _ = f.insert_block_after(b);
        if let (Some(&first), Some(&last)) = (layout.first(), layout.last()) {
            let _ = f.redirect_edge(b, first, last);
        }
    }
    let region: Vec<BlockId> = f.layout.iter().copied().take(3).collect();
    if let Some(&after) = f.layout.last() {
        let _ = f.clone_region(&region, after);
    }
    let all = f.layout.clone();
    if let Some(&after) = all.first() {
        let _ = f.clone_region(&all, after);
    }
    let r = f.new_reg(".b32", None);
    let _ = f.clone_reg(r);
    let _ = verify(f);
    let _ = ptx_ir::emit_function(f);
}

#[test]
fn edits_never_panic() {
    let root = ptx_test_support::test_data();
    let mut files = Vec::new();
    for dir in [
        "families",
        "examples",
        "rejected",
        "ir",
        "syntax/ok",
        "syntax/err",
    ] {
        files.extend(ptx_test_support::ptx_files(&root.join(dir)));
    }
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The file, and the file with one line deleted at a few places.
        let mut variants = vec![text.clone()];
        for cut in (0..lines.len()).step_by(lines.len().div_ceil(5).max(1)) {
            let mut deleted = lines.clone();
            deleted.remove(cut);
            variants.push(deleted.join("\n"));
        }
        for variant in variants {
            let (mut module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&variant));
            for f in &mut module.functions {
                chaos(f);
            }
        }
    }
    // Hand-broken functions: ids out of their arenas everywhere.
    let mut m = kernel(LOOP);
    let f = &mut m.functions[0];
    let add = find(f, "add.s32");
    let bad: BlockId = la_arena::Idx::from_raw(la_arena::RawIdx::from(77));
    f.layout.insert(1, bad);
    let b = f.layout[0];
    f.blocks[b]
        .insts
        .push(la_arena::Idx::from_raw(la_arena::RawIdx::from(88)));
    f.insts[add].operands[1] = Operand::Reg {
        reg: la_arena::Idx::from_raw(la_arena::RawIdx::from(99)),
        component: None,
    };
    f.insts[add].guard = Some(ptx_ir::ir::Guard {
        reg: la_arena::Idx::from_raw(la_arena::RawIdx::from(98)),
        negated: true,
    });
    assert!(verify(f).is_err());
    chaos(f);
}
