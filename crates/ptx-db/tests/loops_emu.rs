//! Differential emulator tests of the loop phases (18 inversion, 21
//! strength reduction, 35/66/79/88 LICM, 24, 59) with chosen trip counts:
//! 0, 1, 2, several, large, negative limits (zero-trip for signed compares),
//! ascending and descending, signed and unsigned IVs; and LICM on loops that
//! run zero times with an invariant load through a null pointer (the
//! original never dereferences it: a hoisted load would fault).
//!
//! Each kernel is built with the default pipeline's loop phases (and the
//! whole default pipeline), then both versions run on the emulator with the
//! same arguments; every buffer must be equal and neither may fail.

use ptx_db::{build_file, find_phases, RootDatabase};
use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};

const KERNELS: &str = r#".version 8.0
.target sm_80
.address_size 64

// while (i < n) { acc += a[i] * (s * 0.5) + (float)(n + 3); i++ }
.visible .entry sum(
	.param .u64 sum_out,
	.param .u64 sum_a,
	.param .f32 sum_s,
	.param .u32 sum_n
)
{
	.reg .pred %p<3>;
	.reg .f32 %f<12>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<13>;

	ld.param.u64 %rd2, [sum_out];
	ld.param.u64 %rd1, [sum_a];
	ld.param.f32 %f1, [sum_s];
	ld.param.u32 %r2, [sum_n];
	mov.u32 %r9, 0;
	mov.f32 %f7, 0f00000000;
$L__BB0_1:
	setp.lt.s32 %p1, %r9, %r2;
	@!%p1 bra $L__BB0_4;
$L__BB0_2:
	mul.f32 %f5, %f1, 0f3F000000;
	ld.param.u32 %r5, [sum_n];
	add.s32 %r6, %r5, 3;
	cvt.s64.s32 %rd10, %r9;
	shl.b64 %rd11, %rd10, 2;
	add.s64 %rd12, %rd1, %rd11;
	ld.f32 %f6, [%rd12];
	fma.rn.f32 %f3, %f5, %f6, %f7;
	cvt.rn.f32.s32 %f8, %r6;
	add.f32 %f3, %f3, %f8;
	add.s32 %r3, %r9, 1;
	mov.f32 %f7, %f3;
	mov.u32 %r9, %r3;
	bra.uni $L__BB0_1;
$L__BB0_4:
	st.f32 [%rd2], %f7;
	st.u32 [%rd2+4], %r9;
	ret;
}

// for (i = n - 1; i >= 0; i--) acc = acc * 3 + a[i]
.visible .entry down(
	.param .u64 down_out,
	.param .u64 down_a,
	.param .u32 down_n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<13>;

	ld.param.u64 %rd2, [down_out];
	ld.param.u64 %rd1, [down_a];
	ld.param.u32 %r2, [down_n];
	add.s32 %r9, %r2, -1;
	mov.u32 %r7, 0;
$L__BB1_1:
	setp.ge.s32 %p1, %r9, 0;
	@!%p1 bra $L__BB1_4;
	mul.wide.s32 %rd10, %r9, 4;
	add.s64 %rd12, %rd1, %rd10;
	ld.u32 %r4, [%rd12];
	mul.lo.s32 %r5, %r7, 3;
	add.s32 %r7, %r5, %r4;
	add.s32 %r3, %r9, -1;
	mov.u32 %r9, %r3;
	bra.uni $L__BB1_1;
$L__BB1_4:
	st.u32 [%rd2], %r7;
	st.u32 [%rd2+4], %r9;
	ret;
}

// for (u = 0; u < n; u++) acc ^= a[u] + *inv   (unsigned; inv may be null
// when n == 0)
.visible .entry unsigned_inv(
	.param .u64 unsigned_inv_out,
	.param .u64 unsigned_inv_a,
	.param .u64 unsigned_inv_inv,
	.param .u32 unsigned_inv_n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<13>;

	ld.param.u64 %rd2, [unsigned_inv_out];
	ld.param.u64 %rd1, [unsigned_inv_a];
	ld.param.u64 %rd3, [unsigned_inv_inv];
	ld.param.u32 %r2, [unsigned_inv_n];
	mov.u32 %r9, 0;
	mov.u32 %r7, 0;
$L__BB2_1:
	setp.lo.u32 %p1, %r9, %r2;
	@!%p1 bra $L__BB2_4;
	ld.global.u32 %r8, [%rd3];
	cvt.u64.u32 %rd10, %r9;
	shl.b64 %rd11, %rd10, 2;
	add.s64 %rd12, %rd1, %rd11;
	ld.u32 %r4, [%rd12];
	add.s32 %r5, %r4, %r8;
	xor.b32 %r7, %r7, %r5;
	add.s32 %r9, %r9, 1;
	bra.uni $L__BB2_1;
$L__BB2_4:
	st.u32 [%rd2], %r7;
	ret;
}

// for (i = tid; i < n; i += 32): a strided IV (not strength-reduced)
.visible .entry strided(
	.param .u64 strided_out,
	.param .u64 strided_a,
	.param .u32 strided_n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<13>;

	ld.param.u64 %rd2, [strided_out];
	ld.param.u64 %rd1, [strided_a];
	ld.param.u32 %r2, [strided_n];
	mov.u32 %r9, %tid.x;
	mov.u32 %r7, 0;
$L__BB3_1:
	setp.lt.s32 %p1, %r9, %r2;
	@!%p1 bra $L__BB3_4;
	cvt.s64.s32 %rd10, %r9;
	shl.b64 %rd11, %rd10, 2;
	add.s64 %rd12, %rd1, %rd11;
	ld.u32 %r4, [%rd12];
	add.s32 %r7, %r7, %r4;
	add.s32 %r9, %r9, 32;
	bra.uni $L__BB3_1;
$L__BB3_4:
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd2, %rd4;
	st.u32 [%rd5], %r7;
	ret;
}
// for (i = 9; i >= 0; i--) acc += a[i] * (n + 1): a constant count down,
// the IV dead after the loop (its test becomes a pointer compare).
.visible .entry const_down(
	.param .u64 const_down_out,
	.param .u64 const_down_a,
	.param .u32 const_down_n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<13>;

	ld.param.u64 %rd2, [const_down_out];
	ld.param.u64 %rd1, [const_down_a];
	ld.param.u32 %r2, [const_down_n];
	mov.u32 %r1, 9;
	mov.u32 %r9, %r1;
	mov.u32 %r7, 0;
$L__BB4_1:
	setp.ge.s32 %p1, %r9, 0;
	@!%p1 bra $L__BB4_4;
	cvt.s64.s32 %rd10, %r9;
	shl.b64 %rd11, %rd10, 2;
	add.s64 %rd12, %rd1, %rd11;
	ld.u32 %r4, [%rd12];
	add.s32 %r5, %r2, 1;
	mul.lo.s32 %r6, %r4, %r5;
	add.s32 %r7, %r7, %r6;
	add.s32 %r3, %r9, -1;
	mov.u32 %r9, %r3;
	bra.uni $L__BB4_1;
$L__BB4_4:
	st.u32 [%rd2], %r7;
	ret;
}
"#;

fn build(phases: Option<&[&str]>) -> String {
    let mut db = RootDatabase::new();
    if let Some(words) = phases {
        let ids: Vec<_> = words
            .iter()
            .flat_map(|w| find_phases(w).into_iter().map(|p| p.id))
            .collect();
        db.set_phase_selection(Some(&ids));
    }
    let file = db.set_file_text("loops.ptx", KERNELS);
    let built = build_file(&db, file);
    built
        .text
        .unwrap_or_else(|| panic!("{:?}", built.diagnostics))
        .to_string()
}

fn run(text: &str, kernel: &str, args: &[KernelArg], threads: u32) -> Vec<Vec<u8>> {
    let mut emu = Emulator::from_ptx(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    emu.set_step_limit(50_000_000);
    let mut args = args.to_vec();
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(threads),
        dynamic_smem: 0,
    };
    emu.launch(kernel, cfg, &mut args)
        .unwrap_or_else(|e| panic!("`{kernel}` fails: {e:?}\n{text}"));
    args.iter()
        .filter_map(|a| a.buffer().map(|b| b.to_vec::<u8>()))
        .collect()
}

const LOOP_PHASES: &[&str] = &[
    "OriLoopSimplification",
    "OriStrengthReduce",
    "OriPipelining",
    "OriHoistInvariants",
    "OriLoopFusion",
];

/// Trip counts tried: zero (and negative limits), one, two, several, large.
const COUNTS: &[i32] = &[-5, 0, 1, 2, 3, 7, 16, 100, 1000];

fn input(n: usize) -> Vec<u32> {
    (0..n as u32)
        .map(|i| i.wrapping_mul(2654435761) >> 7)
        .collect()
}

fn check_all(optimized: &str) {
    assert!(optimized.contains("sum"), "{optimized}");
    for &n in COUNTS {
        let len = n.max(0) as usize + 1;
        let a = Buffer::from_slice(&input(len));
        let cases: Vec<(&str, Vec<KernelArg>, u32)> = vec![
            (
                "sum",
                vec![
                    KernelArg::Buffer(Buffer::from_slice(&[0u32; 2])),
                    KernelArg::Buffer(Buffer::from_slice(
                        &input(len)
                            .iter()
                            .map(|&x| (x % 1000) as f32)
                            .collect::<Vec<f32>>(),
                    )),
                    KernelArg::value(1.5f32),
                    KernelArg::value(n),
                ],
                1,
            ),
            (
                "down",
                vec![
                    KernelArg::Buffer(Buffer::from_slice(&[0u32; 2])),
                    KernelArg::Buffer(a.clone()),
                    KernelArg::value(n),
                ],
                1,
            ),
            (
                "unsigned_inv",
                vec![
                    KernelArg::Buffer(Buffer::from_slice(&[0u32; 1])),
                    KernelArg::Buffer(a.clone()),
                    if n <= 0 {
                        KernelArg::Pointer(0)
                    } else {
                        KernelArg::Buffer(Buffer::from_slice(&[17u32]))
                    },
                    KernelArg::value(n.max(0) as u32),
                ],
                1,
            ),
            (
                "const_down",
                vec![
                    KernelArg::Buffer(Buffer::from_slice(&[0u32; 1])),
                    KernelArg::Buffer(Buffer::from_slice(&input(16))),
                    KernelArg::value(n),
                ],
                1,
            ),
            (
                "strided",
                vec![
                    KernelArg::Buffer(Buffer::from_slice(&[0u32; 64])),
                    KernelArg::Buffer(a.clone()),
                    KernelArg::value(n),
                ],
                64,
            ),
        ];
        for (kernel, args, threads) in cases {
            let before = run(KERNELS, kernel, &args, threads);
            let after = run(optimized, kernel, &args, threads);
            assert_eq!(
                before, after,
                "`{kernel}` with n = {n} differs\n{optimized}"
            );
        }
    }
}

#[test]
fn the_loop_phases_keep_results_for_every_trip_count() {
    let optimized = build(Some(LOOP_PHASES));
    // The phases did fire.
    assert!(optimized.contains("%ir_rd"), "no pointer IV:\n{optimized}");
    // The IV tests of `unsigned_inv` and `const_down` compare pointers
    // (`eq` under a negated branch: phase 18 keeps the exit branch's `@!p`
    // and compares the other way, as ptxas does).
    let pointer_tests =
        optimized.matches("setp.ne.u64").count() + optimized.matches("setp.eq.u64").count();
    assert_eq!(pointer_tests, 2, "{optimized}");
    check_all(&optimized);
}

#[test]
fn the_default_pipeline_keeps_results_for_every_trip_count() {
    check_all(&build(None));
}
