//! The IR API on small inputs: def/use rules, successors, lazy registers and
//! register classes, scope flattening, per-function lowering, error reporting.

use ptx_ir::ir::{defs_and_uses, Function, Inst, Module, Operand, RegClass};
use ptx_syntax::ast::AstNode;

fn lower(body: &str) -> Module {
    let text = format!(
        ".version 8.5\n.target sm_90a\n.address_size 64\n.global .u32 g[4];\n.func callee(.param .b32 a);\n{body}"
    );
    let parse = ptx_syntax::parse(&text);
    assert!(
        parse.errors().is_empty(),
        "syntax errors: {:?}",
        parse.errors()
    );
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "lowering errors: {errors:?}");
    module
}

fn kernel(decls_and_code: &str) -> Module {
    lower(&format!(
        ".entry k(.param .u64 p)\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<100>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<8>;\n{decls_and_code}\n}}\n"
    ))
}

fn only_function(m: &Module) -> &Function {
    m.functions.last().expect("a function")
}

/// The first instruction whose opcode text starts with `opcode`.
fn inst<'a>(f: &'a Function, opcode: &str) -> &'a Inst {
    f.insts_in_order()
        .map(|(_, i)| i)
        .find(|i| i.opcode.text().starts_with(opcode))
        .unwrap_or_else(|| panic!("no `{opcode}`"))
}

/// Defs and uses of the first `opcode` instruction, as register names.
fn def_use(f: &Function, opcode: &str) -> (Vec<String>, Vec<String>) {
    let du = defs_and_uses(inst(f, opcode));
    let names = |regs: ptx_ir::ir::RegList| {
        regs.into_iter()
            .map(|r| f.regs[r].name.to_string())
            .collect()
    };
    (names(du.defs), names(du.uses))
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn defs_and_uses_follow_the_documented_rules() {
    let m = kernel(
        "ld.param.u64 %rd1, [p];
         st.global.u32 [%rd1+4], %r1;
         @!%p1 add.s32 %r2, %r3, %r3;
         setp.lt.and.s32 %p1|%p2, %r4, 32, !%p3;
         ld.global.v4.f32 {%f1, _, %f2, %f3}, [%rd2];
         atom.global.add.u32 %r5, [%rd3], %r6;
         bar.sync %r7;
         bar.red.popc.u32 %r8, 0, %p0;
         shfl.sync.down.b32 %r9|%p0, %r10, 1, 31, -1;
         vadd.s32.s32.s32.sat %r11.h0, %r12, %r13, %r14;
         mbarrier.arrive.shared.b64 _, [%rd4];
         mov.b64 %rd5, {%r15, %r16};",
    );
    let f = only_function(&m);
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("ld.param", &["%rd1"], &[]),
        ("st.global", &[], &["%rd1", "%r1"]),
        ("add.s32", &["%r2"], &["%p1", "%r3", "%r3"]),
        ("setp", &["%p1", "%p2"], &["%r4", "%p3"]),
        ("ld.global.v4", &["%f1", "%f2", "%f3"], &["%rd2"]),
        ("atom", &["%r5"], &["%rd3", "%r6"]),
        ("bar.sync", &[], &["%r7"]),
        ("bar.red", &["%r8"], &["%p0"]),
        ("shfl", &["%r9", "%p0"], &["%r10"]),
        ("vadd", &["%r11"], &["%r11", "%r12", "%r13", "%r14"]),
        ("mbarrier", &[], &["%rd4"]),
        ("mov.b64", &["%rd5"], &["%r15", "%r16"]),
    ];
    for (opcode, defs, uses) in cases {
        assert_eq!(def_use(f, opcode), (names(defs), names(uses)), "{opcode}");
    }
}

#[test]
fn calls_define_their_return_list_and_read_the_rest() {
    let m = lower(
        ".func (.reg .b32 r) id(.reg .b32 x) { mov.b32 r, x; ret; }
         .entry k() {
           .reg .b32 %r<4>; .reg .b64 %rd1;
           call.uni (%r1), id, (%r2);
           mov.u64 %rd1, callee;
           proto: .callprototype _ (.param .b32 _);
           { .param .b32 param0; st.param.b32 [param0], %r3; call %rd1, (param0), proto; }
         }",
    );
    let f = only_function(&m);
    assert_eq!(def_use(f, "call.uni"), (names(&["%r1"]), names(&["%r2"])));
    let indirect = f
        .insts_in_order()
        .map(|(_, i)| i)
        .find(|i| i.opcode.text() == "call")
        .unwrap();
    let du = defs_and_uses(indirect);
    assert!(du.defs.is_empty());
    assert_eq!(
        du.uses
            .iter()
            .map(|&r| &*f.regs[r].name)
            .collect::<Vec<_>>(),
        ["%rd1"]
    );
}

#[test]
fn wgmma_reads_its_accumulator() {
    let m = kernel(
        ".reg .b64 %d<3>;
         wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %d1, %d2, 1, 1, 1, 0, 0;",
    );
    let (defs, uses) = def_use(only_function(&m), "wgmma");
    assert_eq!(defs, names(&["%f1", "%f2", "%f3", "%f4"]));
    assert_eq!(uses, names(&["%f1", "%f2", "%f3", "%f4", "%d1", "%d2"]));
}

#[test]
fn blocks_split_at_labels_and_terminators_with_derived_successors() {
    let m = kernel(
        "setp.eq.s32 %p1, %r1, 0;
         @%p1 bra $L__a;
         add.s32 %r2, %r2, 1;
         bra.uni $L__b;
       $L__a:
         @%p1 ret;
         mov.u32 %r3, 2;
       $L__t: .branchtargets $L__a, $L__b;
         brx.idx %r3, $L__t;
       $L__b:
         exit;",
    );
    let f = only_function(&m);
    let label =
        |b: ptx_ir::ir::BlockId| f.blocks[b].label.clone().unwrap_or_else(|| "-".to_string());
    let shape: Vec<(String, Vec<String>)> = f
        .layout
        .iter()
        .map(|&b| (label(b), f.successors(b).into_iter().map(label).collect()))
        .collect();
    let expected: Vec<(String, Vec<String>)> = vec![
        ("-".into(), names(&["$L__a", "-"])),
        ("-".into(), names(&["$L__b"])),
        ("$L__a".into(), names(&["-"])),
        ("-".into(), names(&["$L__a", "$L__b"])),
        ("$L__b".into(), names(&[])),
    ];
    assert_eq!(shape, expected);
    let all = f.all_successors();
    assert!(f.layout.iter().all(|&b| all[b] == f.successors(b)));
    // Lowering allocates blocks in layout order.
    assert!(f.layout.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn registers_are_created_lazily_with_their_class() {
    let m = kernel(".reg .b16 %h; .reg .b128 %q; .reg .v2 .f32 %v2; mov.u32 %r7, %r5; mov.b16 %h, 1; mov.b128 %q, {%rd1, %rd2}; mov.f32 %v2.x, %f1;");
    let f = only_function(&m);
    let regs: Vec<(&str, RegClass)> = f.regs.values().map(|r| (&*r.name, r.class)).collect();
    assert_eq!(
        regs,
        vec![
            ("%r7", RegClass::R),
            ("%r5", RegClass::R),
            ("%h", RegClass::R16),
            ("%q", RegClass::R128),
            ("%rd1", RegClass::R64),
            ("%rd2", RegClass::R64),
            ("%v2", RegClass::R64),
            ("%f1", RegClass::R),
        ]
    );
    assert_eq!(RegClass::of(".pred", None), RegClass::P);
    let text = ptx_ir::emit_module(&m);
    assert!(text.contains(".reg .b32 \t%r<100>;"), "{text}");
    assert!(text.contains(".reg .v2 .f32 \t%v2;"), "{text}");
}

#[test]
fn nested_scopes_are_flattened_with_renaming() {
    let m = kernel(
        "mov.u32 %r1, 1;
         { .reg .b32 %r1; mov.u32 %r1, 2; { .reg .b32 %r1; mov.u32 %r1, 3; } }
         { .param .b32 param0; st.param.b32 [param0], %r1; call.uni callee, (param0); }
         { .param .b32 param0; st.param.b32 [param0], %r1; call.uni callee, (param0); }",
    );
    let f = only_function(&m);
    let movs: Vec<String> = f
        .insts_in_order()
        .filter(|(_, i)| i.opcode.name == "mov")
        .map(|(_, i)| match &i.operands[0] {
            Operand::Reg { reg, .. } => f.regs[*reg].name.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(movs, names(&["%r1", "%r1_s1", "%r1_s2"]));
    let locals: Vec<&str> = f.locals.iter().flat_map(|l| l.names()).collect();
    assert_eq!(locals, vec!["param0", "param0_s1"]);
    let calls: Vec<&Operand> = f
        .insts_in_order()
        .filter(|(_, i)| i.opcode.name == "call")
        .map(|(_, i)| &i.operands[1])
        .collect();
    assert_eq!(
        calls[1],
        &Operand::ArgList(vec![Operand::Symbol {
            name: "param0_s1".into(),
            offset: 0
        }])
    );
}

#[test]
fn operands_resolve_to_their_kinds() {
    let m = kernel(
        "mov.u32 %r1, %tid.x;
         mov.u64 %rd1, g+8;
         ld.global.u32 %r2, [g+4*2];
         ld.global.u32 %r3, [%rd1+-16];
         mov.f32 %f1, 0f3F800000;
         mov.u32 %r4, (1 << 4) | 3;",
    );
    let f = only_function(&m);
    assert!(
        matches!(&inst(f, "mov.u32").operands[1], Operand::Special { name, component } if name == "%tid" && component.as_deref() == Some(".x"))
    );
    assert_eq!(
        inst(f, "mov.u64").operands[1],
        Operand::Symbol {
            name: "g".into(),
            offset: 8
        }
    );
    let text = ptx_ir::emit_module(&m);
    for expected in [
        "[g+8]",
        "[%rd1+-16]",
        "0f3F800000",
        "(1 << 4) | 3",
        "%tid.x",
    ] {
        assert!(text.contains(expected), "missing {expected} in\n{text}");
    }
}

#[test]
fn lower_function_is_independent_of_the_function_position() {
    let body = ".entry k(.param .u64 p) { .reg .b64 %rd1; ld.param.u64 %rd1, [p]; st.global.u64 [g], %rd1; ret; }";
    let a = format!(".version 8.0\n.target sm_90\n.global .u64 g;\n{body}");
    let b = format!(
        ".version 8.0\n.target sm_90\n// a comment that shifts everything\n.global .u64 g;\n{body}"
    );
    let lower_k = |text: &str| {
        let parse = ptx_syntax::parse(text);
        let ctx = ptx_ir::ModuleContext::new(&parse.tree());
        let func = parse.tree().functions().next().unwrap();
        ptx_ir::lower_function(&func, &ctx)
    };
    let (fa, ea) = lower_k(&a);
    let (fb, eb) = lower_k(&b);
    assert!(ea.is_empty() && eb.is_empty());
    assert_eq!(
        fa, fb,
        "an unchanged function lowers to an equal IR wherever it is"
    );
    let first = fa.insts_in_order().next().unwrap().1;
    assert_eq!(
        u32::from(first.range.start()),
        ".entry k(.param .u64 p) { .reg .b64 %rd1; ".len() as u32
    );
}

#[test]
fn problems_are_reported_not_panicked_on() {
    let text = ".version 8.0\n.target sm_90\n.entry k() { .reg .b32 %r<2>; mov.u32 %r1, %nope; @%q bra $L__missing; add.s32 %r1, %r1 + %r0, 1; }";
    let parse = ptx_syntax::parse(text);
    let (module, errors) = ptx_ir::lower_module(&parse);
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`%nope` is not declared")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("guard `%q`")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`$L__missing` is not declared")),
        "{messages:?}"
    );
    for e in &errors {
        let start = u32::from(e.range.start()) as usize;
        assert!(start < text.len(), "{e}");
    }
    let _ = ptx_ir::emit_module(&module);
    let func = parse.tree().functions().next().unwrap();
    let (_, relative) = ptx_ir::lower_function(&func, &ptx_ir::ModuleContext::new(&parse.tree()));
    let base = u32::from(func.syntax().text_range().start());
    assert_eq!(
        u32::from(relative[0].range.start()) + base,
        u32::from(errors[0].range.start())
    );
}
