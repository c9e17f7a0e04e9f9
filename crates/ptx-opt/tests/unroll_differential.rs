//! Phase 22's transforms against the emulator: every form of exit test the
//! runtime check handles (`<`, `<=`, `>`, `>=`, `!=`, compare before or
//! after the increment), 32- and 64-bit, signed and unsigned, strides 1, 2
//! and 3 up and down, induction variables starting near 0 and near the
//! ends of their type's range, factors 2 to 8 (`LoopUnrollFactor`), each
//! thread with its own trip count (0 to 23, which covers factor - 1,
//! factor and factor + 1, then large); and the known-count paths (full
//! unroll, partial with and without remainder) for trip counts 1, factor -
//! 1, factor, factor + 1 and 37. The original and the unrolled kernel must
//! compute the same buffer.

use std::sync::Arc;

mod common;

use ptx_emu::diff::Verdict;
use ptx_knobs::{knobs, KnobValue};
use ptx_opt::{run_phase, Defaults, PhaseId, RemarkKind};

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
    /// Stride (negative: descending).
    stride: i64,
    signed: bool,
    width: u32,
    /// The compare reads the IV before the increment.
    before: bool,
    /// Start of the IV: near 0 (false) or near the end of the range the
    /// IV moves toward (true).
    near_end: bool,
    /// The step writes a temporary a `mov` copies back (`-O0` form).
    copy: bool,
}

fn wrap(v: i128, width: u32) -> u128 {
    (v.rem_euclid(1i128 << width)) as u128
}

/// A kernel: thread `t` runs the loop `n(t)` times from `b`, where `n` is
/// `t % 24` for the first 48 threads and `5 t` after; the loop is skipped
/// for `n = 0` (as nvcc guards a bottom-tested loop).
fn kernel(form: Form) -> String {
    let w = form.width;
    let s = form.stride;
    let ty = |k: &str| format!(".{k}{w}");
    let cmp_ty = if form.signed { ty("s") } else { ty("u") };
    let r = if w == 32 { "%r" } else { "%rd" };
    // Start value.
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
    // The limit in PTX: L = b + n*s (- sign for <=/>=) (- s when the
    // compare reads the IV before the increment).
    let sub_before = if form.before {
        format!("\n\tsub{} {r}9, {r}9, {s};", ty("s"))
    } else {
        String::new()
    };
    let le_adj = match form.op {
        Op::Le | Op::Ge => format!("\n\tsub{} {r}9, {r}9, {};", ty("s"), s.signum()),
        _ => String::new(),
    };
    let n_wide = if w == 64 {
        "\tcvt.u64.u32 %rd8, %r5;\n".to_string()
    } else {
        String::new()
    };
    let n_reg = if w == 64 { "%rd8" } else { "%r5" };
    let x_as_32 = if w == 64 {
        format!("\tcvt.u32.u64 %r11, {r}3;\n")
    } else {
        format!("\tmov.b32 %r11, {r}3;\n")
    };
    let (cmp_line, inc_line) = (
        format!("\tsetp.{op}{cmp_ty} %p1, {r}3, {r}9;\n"),
        if form.copy {
            format!(
                "\tadd{} {r}10, {r}3, {s};\n\tmov.b{w} {r}3, {r}10;\n",
                ty("s")
            )
        } else {
            format!("\tadd{} {r}3, {r}3, {s};\n", ty("s"))
        },
    );
    let body_tail = if form.before {
        format!("{cmp_line}{inc_line}")
    } else {
        format!("{inc_line}{cmp_line}")
    };
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out
)
{{
	.reg .pred %p<4>;
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
	mov.u32 %r11, 0;
	setp.eq.s32 %p3, %r5, 0;
	@%p3 bra $L__DONE;
{n_wide}	mov.b{w} {r}3, {b};
	mul.lo{s_ty} {r}9, {n_reg}, {s};
	add{s_ty} {r}9, {r}9, {r}3;{le_adj}{sub_before}
$L__LOOP:
{x_as_32}	mad.lo.s32 %r2, %r2, 3, %r11;
	xor.b32 %r2, %r2, %r1;
{body_tail}	@%p1 bra $L__LOOP;
$L__DONE:
	mul.wide.u32 %rd4, %r1, 8;
	add.s64 %rd5, %rd2, %rd4;
	st.global.u32 [%rd5], %r2;
	st.global.u32 [%rd5+4], %r11;
	ret;
}}
",
        s_ty = ty("s"),
    )
}

/// A kernel with a constant trip count `n` (counting up from 0 by 1).
fn known_kernel(n: u32) -> String {
    format!(
        "{HEADER}
.visible .entry k(
	.param .u64 k_out
)
{{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;

	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 7;
	mov.u32 %r3, 0;
$L__LOOP:
	mad.lo.s32 %r2, %r2, 3, %r3;
	xor.b32 %r2, %r2, %r1;
	add.s32 %r3, %r3, 1;
	setp.lt.u32 %p1, %r3, {n};
	@%p1 bra $L__LOOP;
	mul.wide.u32 %rd4, %r1, 8;
	add.s64 %rd5, %rd2, %rd4;
	st.global.u32 [%rd5], %r2;
	st.global.u32 [%rd5+4], %r3;
	ret;
}}
"
    )
}

/// Runs phase 22 with `LoopUnrollFactor=factor` and checks the result on
/// the emulator. Returns the phase's remark.
fn check(text: &str, factor: u32, what: &str) -> String {
    let (module, errors) = ptx_ir::lower_module(&ptx_syntax::parse(text));
    assert!(errors.is_empty(), "{what}: {errors:?}\n{text}");
    let f = Arc::new(module.functions[0].clone());
    let mut ctx = Defaults::new(80);
    ctx.knobs.insert(
        knobs::LoopUnrollFactor.id(),
        KnobValue::Int(i64::from(factor)),
    );
    let out = run_phase(PhaseId::OriLoopUnrolling, &ctx, &f);
    let remark = out
        .remarks
        .first()
        .map(|r| format!("{:?}: {}", r.kind, r.message))
        .unwrap_or_default();
    assert!(
        out.remarks.iter().all(|r| r.kind == RemarkKind::Applied),
        "{what}: not unrolled: {remark}\n{text}"
    );
    let (report, opt_text) = common::verify_replaced(&module, text, &out.function, 64, what);
    assert_eq!(
        report.verdict(),
        Verdict::Equal,
        "{what}: {:?} {:?}\n{opt_text}",
        report.problem,
        report.runs
    );
    remark
}

#[test]
fn runtime_guarded_unroll_matches_the_original() {
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
                for (before, copy) in [(false, false), (true, false), (false, true)] {
                    for near_end in [false, true] {
                        let form = Form {
                            op,
                            stride,
                            signed,
                            width,
                            before,
                            near_end,
                            copy,
                        };
                        let text = kernel(form);
                        for factor in [2, 3, 4, 5, 8] {
                            let remark = check(&text, factor, &format!("{form:?} x{factor}"));
                            assert!(remark.contains(&format!("x{factor}")), "{remark}");
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(n, 2 * 2 * 7 * 3 * 2 * 5);
}

#[test]
fn known_count_unroll_matches_the_original() {
    for factor in [2u32, 3, 4, 5, 8] {
        for trips in [1, factor - 1, factor, factor + 1, 37] {
            if trips == 0 {
                continue;
            }
            let remark = check(
                &known_kernel(trips),
                factor,
                &format!("trip count {trips} x{factor}"),
            );
            if trips <= factor {
                assert!(remark.contains("fully unrolled"), "{remark}");
            } else {
                assert!(remark.contains(&format!("unrolled x{factor}")), "{remark}");
            }
        }
    }
}
