//! The IR verifier: zero errors on every function lowered from PTX that ptxas
//! accepts (test-data and the shared corpus), and one hand-broken function per
//! check, each caught.

mod common;

use std::path::PathBuf;

use common::{corpus_dir, ptx_files_recursive, test_data, zluda_rejected};
use la_arena::{Idx, RawIdx};
use ptx_ir::ir::{Function, Guard, Inst, Opcode, Operand, Reg, RegClass};
use ptx_ir::{verify, Check, VerifyError};

/// Set `PTXOPT_SHOW_REJECTED=1` to see what the verifier says on the files it
/// is not required to accept.
///
/// Every `.ptx` file of test-data and the corpus, and whether ptxas accepts
/// it (`rejected/` files and the zluda files its manifest marks rejected do
/// not count; `syntax/` holds parser snapshots, some broken on purpose).
fn files() -> Vec<(PathBuf, bool)> {
    let mut files = Vec::new();
    for path in ptx_files_recursive(&test_data()) {
        let rel = path.strip_prefix(test_data()).unwrap().to_path_buf();
        let accepted = !(rel.starts_with("rejected") || rel.starts_with("syntax"));
        files.push((path, accepted));
    }
    if let Some(corpus) = corpus_dir() {
        let rejected = zluda_rejected(&corpus);
        for path in ptx_files_recursive(&corpus) {
            let accepted = !rejected.iter().any(|r| path.ends_with(r));
            files.push((path, accepted));
        }
    }
    files
}

#[test]
fn verifier_accepts_every_lowered_function() {
    let mut failures = Vec::new();
    let (mut checked, mut functions, mut skipped) = (0, 0, 0);
    for (path, accepted) in files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = ptx_syntax::parse(&text);
        let (module, errors) = ptx_ir::lower_module(&parse);
        let clean = accepted && parse.errors().is_empty() && errors.is_empty();
        for f in &module.functions {
            // Never panics, whatever the input.
            let result = verify(f);
            if !clean {
                if let (Err(errors), Some(_)) = (&result, std::env::var_os("PTXOPT_SHOW_REJECTED"))
                {
                    for e in errors {
                        eprintln!("{}: {}: {e}", path.display(), f.name());
                    }
                }
                continue;
            }
            functions += 1;
            if let Err(errors) = result {
                for e in errors.iter().take(3) {
                    failures.push(format!("{}: {}: {e}", path.display(), f.name()));
                }
            }
        }
        if clean {
            checked += 1;
        } else {
            skipped += 1;
        }
    }
    eprintln!("verified {functions} functions of {checked} files ({skipped} files not checked: rejected or not lowered cleanly)");
    assert!(checked > 30, "too few files: {checked}");
    assert!(
        failures.is_empty(),
        "{} false positives:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const KERNEL: &str = "
.version 8.5
.target sm_90
.address_size 64
.entry k(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, 0;
$L_loop:
    add.s32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, %r1;
    @%p1 bra $L_loop;
    selp.b32 %r3, %r2, 7, %p1;
    st.global.u32 [%rd1], %r3;
    ret;
}
";

/// The kernel above, lowered.
fn kernel() -> Function {
    let parse = ptx_syntax::parse(KERNEL);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "{errors:?}");
    let f = module.functions.into_iter().next().unwrap();
    assert_eq!(verify(&f), Ok(()));
    f
}

/// The first instruction whose opcode text starts with `opcode`.
fn find(f: &Function, opcode: &str) -> ptx_ir::ir::InstId {
    f.insts_in_order()
        .find(|(_, i)| i.opcode.text().starts_with(opcode))
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no `{opcode}`"))
}

fn reg(f: &Function, name: &str) -> ptx_ir::ir::RegId {
    f.regs
        .iter()
        .find(|(_, r)| &*r.name == name)
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no `{name}`"))
}

/// Asserts that `f` fails exactly `check` (at least once, and nothing else),
/// and that the message mentions `needle`.
fn fails(f: &Function, check: Check, needle: &str) -> Vec<VerifyError> {
    let errors = verify(f).expect_err("the verifier should fail");
    assert!(
        errors.iter().all(|e| e.check == check),
        "expected only {check:?}: {errors:#?}"
    );
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter().any(|t| t.contains(needle)),
        "no message mentions `{needle}`: {text:#?}"
    );
    errors
}

fn pass_reg(f: &mut Function, name: &str, ty: &str) -> ptx_ir::ir::RegId {
    f.regs.alloc(Reg {
        name: name.into(),
        ty: ty.into(),
        vector: None,
        class: RegClass::of(ty, None),
        decl: None,
        index: None,
    })
}

#[test]
fn catches_a_block_listed_twice_in_the_layout() {
    let mut f = kernel();
    let b = f.layout[1];
    f.layout.push(b);
    fails(&f, Check::Layout, "twice in the layout");
}

#[test]
fn catches_a_layout_block_outside_the_arena() {
    let mut f = kernel();
    f.layout.push(Idx::from_raw(RawIdx::from(99)));
    fails(&f, Check::Layout, "not in the block arena");
}

#[test]
fn catches_an_instruction_in_two_blocks() {
    let mut f = kernel();
    let i = find(&f, "mov");
    let last = *f.layout.last().unwrap();
    f.blocks[last].insts.insert(0, i);
    let errors = fails(&f, Check::Instruction, "twice");
    assert_eq!(errors[0].inst, Some(i));
    assert_eq!(errors[0].block, Some(last));
}

#[test]
fn catches_an_instruction_outside_the_arena() {
    let mut f = kernel();
    let b = f.layout[0];
    f.blocks[b].insts.push(Idx::from_raw(RawIdx::from(1000)));
    fails(&f, Check::Instruction, "not in the instruction arena");
}

#[test]
fn catches_a_terminator_before_the_end_of_its_block() {
    let mut f = kernel();
    // Move `selp` after `ret` in the last block.
    let last = *f.layout.last().unwrap();
    let selp = f.blocks[last].insts.remove(0);
    f.blocks[last].insts.push(selp);
    let errors = fails(&f, Check::Terminator, "`ret` is not the last");
    assert_eq!(errors[0].inst, Some(find(&f, "ret")));
}

#[test]
fn catches_a_branch_to_a_block_outside_the_layout() {
    let mut f = kernel();
    let gone = f.blocks.alloc(ptx_ir::ir::Block {
        label: Some("$L_gone".to_string()),
        ..Default::default()
    });
    let i = find(&f, "bra");
    f.insts[i].operands[0] = Operand::Label(gone);
    let errors = fails(&f, Check::BranchTarget, "`$L_gone`");
    assert_eq!(errors[0].inst, Some(find(&f, "bra")));
}

#[test]
fn catches_a_branchtargets_list_naming_a_block_outside_the_layout() {
    let mut f = kernel();
    f.locals.push(ptx_ir::ir::LocalDecl::BranchTargets {
        name: "ts".to_string(),
        targets: vec![Idx::from_raw(RawIdx::from(77))],
    });
    fails(&f, Check::BranchTarget, ".branchtargets ts");
}

#[test]
fn catches_a_duplicate_label() {
    let mut f = kernel();
    let last = *f.layout.last().unwrap();
    f.blocks[last].label = Some("$L_loop".to_string());
    fails(&f, Check::Label, "`$L_loop` is on two blocks");
}

#[test]
fn catches_a_register_outside_the_arena() {
    let mut f = kernel();
    let i = find(&f, "add");
    f.insts[i].operands[2] = Operand::Reg {
        reg: Idx::from_raw(RawIdx::from(500)),
        component: None,
    };
    fails(
        &f,
        Check::Register,
        "register #500 is not in the register arena",
    );
}

#[test]
fn catches_a_declaration_outside_the_arena() {
    let mut f = kernel();
    let r = reg(&f, "%r3");
    f.regs[r].decl = Some(Idx::from_raw(RawIdx::from(40)));
    fails(&f, Check::Register, "declaration #40");
}

#[test]
fn catches_a_register_whose_class_or_type_is_inconsistent() {
    let mut f = kernel();
    let r = reg(&f, "%rd1");
    f.regs[r].class = RegClass::R;
    fails(
        &f,
        Check::Register,
        "`%rd1` has class R, but its type is `.b64`",
    );
    let mut f = kernel();
    let r = reg(&f, "%r3");
    f.regs[r].ty = ".b64".into();
    f.regs[r].class = RegClass::R64;
    let errors = verify(&f).unwrap_err();
    assert!(errors
        .iter()
        .any(|e| e.check == Check::Register
            && e.message.contains("its declaration `%r` says `.b32`")));
}

#[test]
fn catches_a_pass_register_read_but_never_written() {
    let mut f = kernel();
    let fresh = pass_reg(&mut f, "%ptxopt_r0", ".b32");
    let i = find(&f, "st.global");
    f.insts[i].operands[1] = Operand::Reg {
        reg: fresh,
        component: None,
    };
    fails(&f, Check::Register, "`%ptxopt_r0` was made by a pass");
}

#[test]
fn a_declared_register_read_but_never_written_is_fine() {
    // PTX lets code read a declared register nothing writes (real files do).
    let mut f = kernel();
    let r7 = {
        let decl = f.regs[reg(&f, "%r3")].decl;
        f.regs.alloc(Reg {
            name: "%r7".into(),
            ty: ".b32".into(),
            vector: None,
            class: RegClass::R,
            decl,
            index: Some(7),
        })
    };
    let i = find(&f, "st.global");
    f.insts[i].operands[1] = Operand::Reg {
        reg: r7,
        component: None,
    };
    assert_eq!(verify(&f), Ok(()));
}

#[test]
fn catches_a_pass_register_named_like_a_declared_one() {
    let mut f = kernel();
    let fresh = pass_reg(&mut f, "%r5", ".b32");
    let i = find(&f, "selp");
    f.insts[i].operands[0] = Operand::Reg {
        reg: fresh,
        component: None,
    };
    fails(
        &f,
        Check::Register,
        "`%r5` was made by a pass and its name is already taken",
    );
}

#[test]
fn catches_a_guard_that_is_not_a_predicate() {
    let mut f = kernel();
    let i = find(&f, "bra");
    let r1 = reg(&f, "%r1");
    f.insts[i].guard = Some(Guard {
        reg: r1,
        negated: false,
    });
    fails(&f, Check::Predicate, "`%r1` is a guard");
}

#[test]
fn catches_a_setp_destination_that_is_not_a_predicate() {
    let mut f = kernel();
    let i = find(&f, "setp");
    f.insts[i].operands[0] = Operand::Reg {
        reg: reg(&f, "%r3"),
        component: None,
    };
    fails(&f, Check::Predicate, "destination of `setp`");
}

#[test]
fn catches_a_selp_condition_that_is_not_a_predicate() {
    let mut f = kernel();
    let i = find(&f, "selp");
    f.insts[i].operands[3] = Operand::Reg {
        reg: reg(&f, "%r1"),
        component: None,
    };
    fails(&f, Check::Predicate, "condition of `selp`");
}

#[test]
fn catches_a_negated_operand_that_is_not_a_predicate() {
    let mut f = kernel();
    let r1 = reg(&f, "%r1");
    let b = f.layout[0];
    let inst = f.insts.alloc(Inst {
        guard: None,
        opcode: Opcode::new("setp", vec![".lt".into(), ".and".into(), ".u32".into()]),
        operands: vec![
            Operand::Reg {
                reg: reg(&f, "%p1"),
                component: None,
            },
            Operand::Reg {
                reg: r1,
                component: None,
            },
            Operand::Reg {
                reg: r1,
                component: None,
            },
            Operand::NegPred(r1),
        ],
        locs: Default::default(),
        range: Default::default(),
    });
    f.blocks[b].insts.push(inst);
    fails(&f, Check::Predicate, "negated operand");
}

#[test]
fn catches_a_register_too_wide_for_the_instruction_type() {
    let mut f = kernel();
    let i = find(&f, "add");
    f.insts[i].operands[1] = Operand::Reg {
        reg: reg(&f, "%rd1"),
        component: None,
    };
    fails(&f, Check::Width, "`%rd1` (.b64) does not fit `add.s32`");
}

#[test]
fn catches_a_predicate_in_arithmetic() {
    let mut f = kernel();
    let i = find(&f, "add");
    f.insts[i].operands[2] = Operand::Reg {
        reg: reg(&f, "%p1"),
        component: None,
    };
    fails(&f, Check::Width, "`%p1` (.pred) does not fit `add.s32`");
}

/// The verifier on one instruction in a kernel with registers of every class.
fn verify_one(inst: &str) -> Result<(), Vec<VerifyError>> {
    let text = format!(
        ".version 8.5\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .b16 %rs<3>;\n.reg .pred %p<3>;\n.reg .f32 %f<3>;\n.reg .v2 .b32 %v;\n{inst}\nret;\n}}\n"
    );
    let parse = ptx_syntax::parse(&text);
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "{errors:?}");
    verify(&module.functions[0])
}

#[test]
fn widths_follow_what_ptxas_accepts() {
    // Each rejected by ptxas 13.0.88 ("Arguments mismatch").
    for inst in [
        "add.u32 %r1, %rd1, %r2;",
        "add.u16 %rs1, %r1, %rs2;",
        "and.b32 %r1, %p1, %r2;",
        "mul.lo.s32 %rd1, %r1, %r2;",
        "mad.lo.s32 %r1, %r2, %r2, %rd1;",
        "div.u32 %r1, %r2, %rd1;",
        "shl.b32 %r1, %rd1, 2;",
        "mov.u32 %r1, %rs1;",
        "mov.b32 %r1, %rd1;",
        "selp.b32 %r1, %rd1, %r2, %p1;",
        "setp.eq.u32 %p1, %rd1, %r2;",
    ] {
        let errors = verify_one(inst).expect_err(inst);
        assert!(
            errors.iter().all(|e| e.check == Check::Width),
            "{inst}: {errors:?}"
        );
    }
    // Each accepted by ptxas 13.0.88.
    for inst in [
        "add.f32 %r1, %r1, %r2;",
        "fma.rn.f32 %f1, %f2, %f2, %r1;",
        "mov.b32 %r1, %f1;",
        "mov.b64 %rd1, %v;",
        "mov.v2.b32 %v, %v;",
        "shl.b64 %rd1, %rd1, %r1;",
        "mul.wide.u32 %rd1, %r1, %r2;",
        "mad.wide.u32 %rd1, %r1, %r2, %rd2;",
        "add.u32 %r1, %r1, %v.x;",
        "setp.lt.and.u32 %p1|%p2, %r1, %r2, !%p1;",
    ] {
        assert_eq!(verify_one(inst), Ok(()), "{inst}");
    }
}

#[test]
fn falling_off_the_end_is_fine() {
    // ptxas 13.0.88 accepts a body that ends without `ret`, one that ends with
    // a label (a branch to the closing brace), and an empty body.
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .entry a(.param .u64 p)\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\n}\n\
        .entry b(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .pred %p;\nsetp.eq.u32 %p, %r1, 0;\n@%p bra L;\nmov.u32 %r1, 1;\nL:\n}\n\
        .entry c(.param .u64 p)\n{\n}\n\
        .func d(.param .b32 x)\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\n}\n";
    let parse = ptx_syntax::parse(text);
    let (module, errors) = ptx_ir::lower_module(&parse);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(module.functions.len(), 4);
    for f in &module.functions {
        assert_eq!(verify(f), Ok(()), "{}", f.name());
    }
    if let Some(ptxas) = common::ptxas() {
        let file =
            std::env::temp_dir().join(format!("ptxopt-verify-end-{}.ptx", std::process::id()));
        std::fs::write(&file, ptx_ir::emit_module(&module)).unwrap();
        let result = common::run_ptxas(&ptxas, &file, "sm_90");
        let _ = std::fs::remove_file(&file);
        assert!(result.is_ok(), "{result:?}");
    }
}
