//! The cicc loop-unroll phase's transform against the emulator, on loops
//! written as `nvcc -Xcicc -O0` writes them (top-tested: the exit test at
//! the header through `not.pred`, `bra.uni` to the body, the induction
//! variable copied through `mov`s), so each is branch-simplified, rotated
//! and then unrolled:
//!
//! - **runtime** (unknown trip count): every exit test (`<`, `<=`, `>`,
//!   `>=`, `!=`), 32- and 64-bit, signed and unsigned, strides 1, 2 and 3
//!   up and down, starts near 0 and near the end of the type's range,
//!   factors 2 to 8 (`// ptxopt: unroll N`) and the cascade's own 4; each
//!   thread with its own trip count (0 to 23: 0, 1, factor - 1, factor,
//!   factor + 1; then 5 t, large);
//! - **known** trip counts (full unroll, partial with and without a
//!   remainder): 1, factor - 1, factor, factor + 1 and 37.
//!
//! The original and the transformed kernel must compute the same buffer.

use std::sync::Arc;

mod common;

use ptx_emu::diff::Verdict;
use ptx_opt::{run_phase, Defaults, PhaseId};

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

#[derive(Clone, Copy, Debug)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Ne,
}

#[derive(Clone, Copy, Debug)]
struct Form {
    op: Op,
    stride: i64,
    signed: bool,
    width: u32,
    near_end: bool,
}

fn wrap(v: i128, width: u32) -> u128 {
    (v.rem_euclid(1i128 << width)) as u128
}

/// An `-O0`-shaped kernel: thread `t` runs the loop `n(t)` times (`t % 24`
/// for the first 48 threads, `5 t` after) from `b`; `pragma` is the
/// header's `ptxopt:` annotation.
fn runtime_kernel(form: Form, pragma: &str) -> String {
    let w = form.width;
    let s = form.stride;
    let r = if w == 32 { "%r" } else { "%rd" };
    let cmp_ty = format!(".{}{w}", if form.signed { "s" } else { "u" });
    let (min, max): (i128, i128) = if form.signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let b: i128 = match (s > 0, form.near_end) {
        (true, false) => {
            if form.signed {
                -50
            } else {
                3
            }
        }
        (true, true) => max - 2000,
        (false, false) => {
            if form.signed {
                50
            } else {
                2000
            }
        }
        (false, true) => min + 2000,
    };
    let b = wrap(b, w);
    let op = match form.op {
        Op::Lt => "lt",
        Op::Gt => "gt",
        Op::Le => "le",
        Op::Ge => "ge",
        Op::Ne => "ne",
    };
    // The limit: L = b + n * s (one step less for <= and >=).
    let le_adj = match form.op {
        Op::Le | Op::Ge => format!("\n\tsub.s{w} {r}9, {r}9, {};", s.signum()),
        _ => String::new(),
    };
    let n_reg = if w == 64 { "%rd8" } else { "%r5" };
    let n_wide = if w == 64 {
        "\tcvt.u64.u32 %rd8, %r5;\n"
    } else {
        ""
    };
    let x_as_32 = if w == 64 {
        format!("cvt.u32.u64 %r11, {r}3;")
    } else {
        format!("mov.b32 %r11, {r}3;")
    };
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out
)
{{
	.reg .pred %p<5>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;

	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p2, %r1, 48;
	rem.u32 %r6, %r1, 24;
	mul.lo.s32 %r7, %r1, 5;
	selp.b32 %r5, %r6, %r7, %p2;
	mov.u32 %r2, 7;
	mov.u32 %r12, 7;
{n_wide}	mov.b{w} {r}15, {b};
	mul.lo.s{w} {r}9, {n_reg}, {s};
	add.s{w} {r}9, {r}9, {r}15;{le_adj}
	bra.uni $L__H;

$L__H:  {pragma}
	mov.b{w} {r}3, {r}15;
	mov.u32 %r2, %r12;
	setp.{op}{cmp_ty} %p3, {r}3, {r}9;
	not.pred %p4, %p3;
	@%p4 bra $L__DONE;
	bra.uni $L__B;

$L__B:
	{x_as_32}
	mad.lo.s32 %r13, %r2, 3, %r11;
	xor.b32 %r14, %r13, %r1;
	bra.uni $L__L;

$L__L:
	add.s{w} {r}4, {r}3, {s};
	mov.u32 %r12, %r14;
	mov.b{w} {r}15, {r}4;
	bra.uni $L__H;

$L__DONE:
	{x_as_32}
	mul.wide.u32 %rd6, %r1, 8;
	add.s64 %rd7, %rd2, %rd6;
	st.global.u32 [%rd7], %r2;
	st.global.u32 [%rd7+4], %r11;
	ret;
}}
"
    )
}

/// An `-O0`-shaped kernel with the constant trip count `n` (0 to `n` by 1).
fn known_kernel(n: u32, pragma: &str) -> String {
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out
)
{{
	.reg .pred %p<5>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;

	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r12, 7;
	mov.u32 %r15, 0;
	bra.uni $L__H;

$L__H:  {pragma}
	mov.u32 %r3, %r15;
	mov.u32 %r2, %r12;
	setp.lt.s32 %p3, %r3, {n};
	not.pred %p4, %p3;
	@%p4 bra $L__DONE;
	bra.uni $L__B;

$L__B:
	mad.lo.s32 %r13, %r2, 3, %r3;
	xor.b32 %r14, %r13, %r1;
	bra.uni $L__L;

$L__L:
	add.s32 %r4, %r3, 1;
	mov.u32 %r12, %r14;
	mov.u32 %r15, %r4;
	bra.uni $L__H;

$L__DONE:
	mul.wide.u32 %rd6, %r1, 8;
	add.s64 %rd7, %rd2, %rd6;
	st.global.u32 [%rd7], %r2;
	st.global.u32 [%rd7+4], %r3;
	ret;
}}
"
    )
}

/// Runs the cicc phase and checks the result on the emulator (and that the
/// output lowers). Returns the loop report's summary.
fn check(text: &str, what: &str) -> String {
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    assert!(errors.is_empty(), "{what}: {errors:?}\n{text}");
    let f = Arc::new(module.functions[0].clone());
    let ctx = Defaults::new(80);
    let out = run_phase(PhaseId::CiccLoopUnroll, &ctx, &f);
    let summary = out
        .loops
        .iter()
        .map(|l| l.summary.clone())
        .collect::<Vec<_>>()
        .join("; ");
    let (report, opt_text) = common::verify_replaced(&module, text, &out.function, 64, what);
    assert_eq!(
        report.verdict(),
        Verdict::Equal,
        "{what}: {summary}: {:?} {:?}\n{opt_text}",
        report.problem,
        report.runs
    );
    summary
}

#[test]
fn runtime_unroll_of_o0_loops_matches_the_original() {
    let mut n = 0;
    for width in [32, 64] {
        for signed in [true, false] {
            for (op, stride) in [
                (Op::Lt, 1),
                (Op::Lt, 3),
                (Op::Le, 2),
                (Op::Gt, -1),
                (Op::Ge, -3),
                (Op::Ne, 1),
                (Op::Ne, -1),
            ] {
                for near_end in [false, true] {
                    let form = Form {
                        op,
                        stride,
                        signed,
                        width,
                        near_end,
                    };
                    // No annotation: the cascade's runtime count (4).
                    let summary = check(&runtime_kernel(form, ""), &format!("{form:?}"));
                    assert!(
                        summary.contains("unrolled x4, runtime check"),
                        "{form:?}: {summary}"
                    );
                    for factor in [2, 3, 5, 8] {
                        let pragma = format!("// ptxopt: unroll {factor}");
                        let summary = check(
                            &runtime_kernel(form, &pragma),
                            &format!("{form:?} x{factor}"),
                        );
                        assert!(
                            summary.contains(&format!("unrolled x{factor}, runtime check")),
                            "{form:?} x{factor}: {summary}"
                        );
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 2 * 2 * 7 * 2 * 4);
}

#[test]
fn known_count_unroll_of_o0_loops_matches_the_original() {
    for factor in [2u32, 3, 4, 5, 8] {
        for trips in [1, factor - 1, factor, factor + 1, 37] {
            if trips == 0 {
                continue;
            }
            let pragma = format!("// ptxopt: unroll {factor}");
            let summary = check(
                &known_kernel(trips, &pragma),
                &format!("trip count {trips} x{factor}"),
            );
            if trips <= factor {
                assert!(summary.contains("fully unrolled"), "{summary}");
            } else {
                assert!(
                    summary.contains(&format!("unrolled x{factor}")),
                    "{summary}"
                );
            }
        }
    }
    // No annotation: full unroll (the cascade's level 3) for small counts.
    for trips in [1u32, 2, 7, 16] {
        let summary = check(&known_kernel(trips, ""), &format!("trip count {trips}"));
        assert!(summary.contains("fully unrolled"), "{summary}");
    }
    // Zero trips: nothing to unroll, the code stays equivalent.
    check(&known_kernel(0, ""), "trip count 0");
}

/// `for (s = start; s > 0; s /= 2)` (or `s >>= 1`) as `-O0` writes it: an
/// induction variable that halves, which only the cascade's simulation
/// counts; fully unrolled for every constant start (trip counts 0, 1, 2,
/// 3, 5, 7) and the result must not change.
fn halving_kernel(start: i32, op: &str) -> String {
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out
)
{{
	.reg .pred %p<5>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;

	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r12, 7;
	mov.u32 %r15, {start};
	bra.uni $L__H;

$L__H:
	mov.u32 %r3, %r15;
	mov.u32 %r2, %r12;
	setp.gt.s32 %p3, %r3, 0;
	not.pred %p4, %p3;
	@%p4 bra $L__DONE;
	bra.uni $L__B;

$L__B:
	mad.lo.s32 %r13, %r2, 3, %r3;
	xor.b32 %r14, %r13, %r1;
	bra.uni $L__L;

$L__L:
	{op}
	mov.u32 %r12, %r14;
	mov.u32 %r15, %r4;
	bra.uni $L__H;

$L__DONE:
	mul.wide.u32 %rd6, %r1, 8;
	add.s64 %rd7, %rd2, %rd6;
	st.global.u32 [%rd7], %r2;
	st.global.u32 [%rd7+4], %r3;
	ret;
}}
"
    )
}

#[test]
fn halving_loops_fully_unrolled_match_the_original() {
    for op in ["div.s32 %r4, %r3, 2;", "shr.s32 %r4, %r3, 1;"] {
        for start in [0, 1, 2, 4, 16, 100] {
            let summary = check(&halving_kernel(start, op), &format!("{op} from {start}"));
            if start > 0 {
                assert!(
                    summary.contains("fully unrolled"),
                    "{op} {start}: {summary}"
                );
            }
        }
    }
}
