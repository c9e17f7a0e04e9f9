//! `ptxopt:` comment annotations: which block they belong to, and that
//! they survive emission and lowering again.

use ptx_ir::ir::Function;

fn lower(body: &str) -> Function {
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n{body}\n}}\n"
    );
    let (m, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
    assert!(errors.is_empty(), "{errors:?}");
    m.functions.into_iter().next().unwrap()
}

/// (label, annotations) of every block with annotations, in layout order.
fn annotated(f: &Function) -> Vec<(String, Vec<String>)> {
    f.layout
        .iter()
        .map(|&b| &f.blocks[b])
        .filter(|b| !b.annotations.is_empty())
        .map(|b| (b.label.clone().unwrap_or_default(), b.annotations.clone()))
        .collect()
}

#[test]
fn a_comment_on_the_label_line_or_above_it_annotates_that_block() {
    let f = lower(
        "mov.u32 %r1, 0;
// ptxopt: unroll 4
$L1:
    add.s32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 10;
    @%p1 bra $L1;
$L2: // ptxopt: nounroll
    add.s32 %r1, %r1, 1; // ptxopt: unroll full
    /* ptxopt: unroll 2 */
    ret;",
    );
    assert_eq!(
        annotated(&f),
        vec![
            ("$L1".to_string(), vec!["unroll 4".to_string()]),
            (
                "$L2".to_string(),
                vec![
                    "nounroll".to_string(),
                    "unroll full".to_string(),
                    "unroll 2".to_string()
                ]
            ),
        ]
    );
}

#[test]
fn other_comments_are_not_annotations_and_emission_keeps_annotations() {
    let f = lower(
        "// unroll 4
$L1: // ptxopt unroll 4
    mov.u32 %r1, 0;
    ret;",
    );
    assert!(annotated(&f).is_empty());
    let f = lower(
        "$L1: // ptxopt: unroll 8
    mov.u32 %r1, 0;
    @%p1 bra $L1;
    ret;",
    );
    let mut out = String::new();
    out.push_str(".version 8.0\n.target sm_90\n.address_size 64\n");
    out.push_str(&ptx_ir::emit::emit_function(&f));
    let (m, errors) = ptx_ir::lower_module(&ptx_syntax::parse(&out));
    assert!(errors.is_empty(), "{errors:?}\n{out}");
    assert_eq!(annotated(&m.functions[0]), annotated(&f), "{out}");
}

#[test]
fn an_annotation_after_the_last_statement_on_its_own_line_is_dropped() {
    let f = lower(
        "mov.u32 %r1, 0;
    ret;
// ptxopt: unroll 4",
    );
    assert!(annotated(&f).is_empty());
}

/// (label, pragma_alone) of every block with a `.pragma`, in layout order.
fn pragma_blocks(f: &Function) -> Vec<(String, bool)> {
    f.layout
        .iter()
        .map(|&b| &f.blocks[b])
        .filter(|b| !b.pragmas.is_empty())
        .map(|b| (b.label.clone().unwrap_or_default(), b.pragma_alone))
        .collect()
}

#[test]
fn a_pragma_a_label_follows_marks_its_block_alone() {
    // `$L1`: the pragma then a label (nvcc's `-lineinfo` form); `$L3`: the
    // pragma then an instruction; `$L5`: a label, another label, then the
    // pragma (the pragma is in `$L6`, which holds the body).
    let f = lower(
        "mov.u32 %r1, 0;
$L1:
    .pragma \"nounroll\";
$L2:
    add.s32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 10;
    @%p1 bra $L1;
$L3:
    .pragma \"nounroll\";
    add.s32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 20;
    @%p1 bra $L3;
$L5:
$L6:
    .pragma \"nounroll\";
    add.s32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 30;
    @%p1 bra $L5;
    ret;",
    );
    assert_eq!(
        pragma_blocks(&f),
        vec![
            ("$L1".to_string(), true),
            ("$L3".to_string(), false),
            ("$L6".to_string(), false),
        ]
    );
}
