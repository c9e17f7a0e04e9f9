//! The checks remember what they found out per function: an opcode spelled the
//! same way again is not looked up again, and a name is resolved once per block
//! (see `check::Scratch`). These cases make sure such reuse reports the same as
//! checking everything afresh: a problem is reported every time it occurs, and a
//! name's meaning follows the scope it is used in.

use expect_test::{expect, Expect};

fn check(text: &str, expect: Expect) {
    let parse = ptx_syntax::parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let index = ptx_syntax::line_index::LineIndex::new(text);
    let mut out = String::new();
    for d in ptx_syntax::check::diagnostics(&parse) {
        let lc = index.line_col(text, d.range.start());
        let severity = match d.severity {
            ptx_syntax::check::Severity::Error => "error",
            ptx_syntax::check::Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "{}:{}: {severity}: {}\n",
            lc.line, lc.col, d.message
        ));
    }
    expect.assert_eq(&out);
}

#[test]
fn repeated_problems_are_reported_every_time() {
    check(
        r#"
.version 8.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 p)
{
    .reg .pred %p<3>;
    .reg .b32 %r<5>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<3>;

    mov.u32 %r1, %tid.x;
    add.s32 %r2, %r1, %r9;
    add.s32 %r2, %r1, %r9;
    add.foo.s32 %r2, %r1, 1;
    add.foo.s32 %r2, %r1, 1;
    add.f32 %f1, %f2, %rd1;
    add.f32 %f1, %f2, %rd1;
    @%r1 bra DONE;
    @%r1 bra DONE;
    bra NOWHERE;
    bra NOWHERE;
DONE:
    ret;
}
"#,
        expect![[r#"
            14:23: error: undeclared register `%r9`
            15:23: error: undeclared register `%r9`
            16:8: error: unknown modifier `.foo` on `add`
            17:8: error: unknown modifier `.foo` on `add`
            18:23: error: `%rd1` is declared `.b64` but `add` expects `.f32` here
            19:23: error: `%rd1` is declared `.b64` but `add` expects `.f32` here
            20:6: error: guard `%r1` is not a predicate register
            21:6: error: guard `%r1` is not a predicate register
            22:9: error: undeclared label `NOWHERE`
            23:9: error: undeclared label `NOWHERE`
        "#]],
    );
}

#[test]
fn names_follow_their_scope() {
    check(
        r#"
.version 8.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<3>;

    mov.b32 %x, %r1;
    {
        .reg .b32 %x;
        mov.b32 %x, %r1;
    }
    mov.b32 %x, %r1;
    {
        .reg .f32 %r1;
        add.s32 %r1, %r1, 1;
        {
            add.s32 %r1, %r1, 1;
        }
        add.s32 %r1, %r1, 1;
    }
    add.s32 %r1, %r1, 1;
    ld.shared.u32 %r3, [p];
    ld.param.u32 %r3, [p];
    ld.shared.u32 %r3, [p];
    ret;
}

.visible .entry k2()
{
    .reg .b32 %r<2>;
    add.s32 %r1, %r1, 1;
    add.s32 %r3, %r1, 1;
    ld.shared.u32 %r1, [p];
    ret;
}
"#,
        expect![[r#"
            11:13: error: undeclared register `%x`
            16:13: error: undeclared register `%x`
            19:17: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            19:22: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            21:21: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            21:26: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            23:17: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            23:22: error: `%r1` is declared `.f32` but `add` expects `.s32` here
            26:25: error: `p` is in the `.param` state space but `ld` accesses `.shared`
            28:25: error: `p` is in the `.param` state space but `ld` accesses `.shared`
            36:13: error: undeclared register `%r3`
            37:25: error: undeclared name `p`
        "#]],
    );
}
