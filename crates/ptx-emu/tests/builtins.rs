//! Calls of functions declared without a body that the emulator provides:
//! the device heap (`malloc`, `free`) and `.alias`ed functions.

mod common;

use common::{kernel, run_words};

const HEAP: &str = ".extern .func (.param .b64 r) malloc(.param .b64 size);\n\
    .extern .func free(.param .b64 p);";

#[test]
fn malloc_gives_each_thread_its_own_memory() {
    let body = "mov.u32 %r1, %tid.x;
        { .param .b64 s; .param .b64 r; st.param.b64 [s], 24;
          call.uni (r), malloc, (s); ld.param.b64 %rd1, [r]; }
        // Zeroed, 16-byte aligned, writable.
        ld.u32 %r2, [%rd1+20];
        and.b64 %rd2, %rd1, 15;
        cvt.u32.u64 %r3, %rd2;
        add.u32 %r4, %r1, 100;
        st.u32 [%rd1], %r4;
        bar.sync 0;
        ld.u32 %r5, [%rd1];
        { .param .b64 p; st.param.b64 [p], %rd1; call.uni free, (p); }
        mul.wide.u32 %rd3, %r1, 12;
        add.s64 %rd4, %rd0, %rd3;
        st.global.u32 [%rd4], %r2;
        st.global.u32 [%rd4+4], %r3;
        st.global.u32 [%rd4+8], %r5;";
    let text = kernel(HEAP, body);
    let w = run_words(&text, 4, 12).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for t in 0..4 {
        assert_eq!(&w[t * 3..t * 3 + 3], &[0, 0, 100 + t as u32], "thread {t}");
    }
}

#[test]
fn malloc_of_zero_or_too_much_is_null() {
    let body = "{ .param .b64 s; .param .b64 r; st.param.b64 [s], 0;
          call.uni (r), malloc, (s); ld.param.b64 %rd1, [r]; }
        { .param .b64 s; .param .b64 r; st.param.b64 [s], 0x100000000;
          call.uni (r), malloc, (s); ld.param.b64 %rd2, [r]; }
        st.global.u64 [%rd0], %rd1;
        st.global.u64 [%rd0+8], %rd2;";
    let text = kernel(HEAP, body);
    let w = run_words(&text, 1, 4).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(w, vec![0, 0, 0, 0]);
}

#[test]
fn calls_of_an_alias_run_the_aliasee() {
    let module = ".func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %a<2>;\n\
        ld.param.b32 %a0, [x];\nadd.u32 %a1, %a0, %a0;\nst.param.b32 [r], %a1;\nret;\n}\n\
        .func (.param .b32 r) twice_alias(.param .b32 x);\n.alias twice_alias, twice;";
    let body = "{ .param .b32 x; .param .b32 r; st.param.b32 [x], 21;
          call.uni (r), twice_alias, (x); ld.param.b32 %r1, [r]; }
        st.global.u32 [%rd0], %r1;";
    let text = kernel(module, body);
    let w = run_words(&text, 1, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(w, vec![42]);
}

const PRINTF: &str = ".extern .func (.param .b32 r) vprintf(.param .b64 fmt, .param .b64 args);\n\
    .global .align 1 .b8 fmt[10] = {97, 37, 100, 98, 37, 102, 99, 37, 115, 0};\n\
    .global .align 1 .b8 ok[3] = {111, 107, 0};";

/// Each thread prints "a%db%fc%s" with its index (plus `add`), 1.5 and "ok".
fn printf_kernel(add: u32) -> String {
    kernel(
        PRINTF,
        &format!(
            ".local .align 8 .b8 buf[24];
        mov.u64 %rd1, buf;
        cvta.local.u64 %rd2, %rd1;
        mov.u32 %r1, %tid.x;
        add.u32 %r1, %r1, {add};
        st.local.u32 [%rd1], %r1;
        mov.f64 %fd1, 0d3FF8000000000000;
        st.local.f64 [%rd1+8], %fd1;
        mov.u64 %rd3, ok;
        cvta.global.u64 %rd4, %rd3;
        st.local.u64 [%rd1+16], %rd4;
        mov.u64 %rd5, fmt;
        cvta.global.u64 %rd6, %rd5;
        {{ .param .b64 p0; st.param.b64 [p0], %rd6; .param .b64 p1; st.param.b64 [p1], %rd2;
          .param .b32 r; call.uni (r), vprintf, (p0, p1); ld.param.b32 %r2, [r]; }}
        st.global.u32 [%rd0], %r2;"
        ),
    )
}

#[test]
fn printf_output_is_captured_per_launch() {
    let text = printf_kernel(0);
    let mut emu = ptx_emu::Emulator::from_ptx(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut args = [ptx_emu::KernelArg::Buffer(ptx_emu::Buffer::from_slice(&[
        0u32,
    ]))];
    let cfg = ptx_emu::LaunchConfig {
        grid: ptx_emu::Dim3::x(1),
        block: ptx_emu::Dim3::x(2),
        dynamic_smem: 0,
    };
    emu.launch("t", cfg, &mut args)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(
        emu.output(),
        [
            "ctaid (0,0,0) tid (0,0,0): a0b1.5e0cok",
            "ctaid (0,0,0) tid (1,0,0): a1b1.5e0cok"
        ]
    );
    // vprintf returns the number of arguments.
    assert_eq!(args[0].buffer().unwrap().to_vec::<u32>(), vec![3]);
}

#[test]
fn verify_compares_printf_output() {
    use ptx_emu::diff::{verify, Outcome, Verdict, VerifyOptions};
    let lower = |t: &str| ptx_ir::lower_module(&ptx_syntax::parse(t)).0;
    let (a, b) = (lower(&printf_kernel(0)), lower(&printf_kernel(1)));
    let same = verify(&a, &a, "t", &VerifyOptions::default());
    assert_eq!(same.verdict(), Verdict::Equal, "{same:?}");
    let r = verify(&a, &b, "t", &VerifyOptions::default());
    assert_eq!(r.verdict(), Verdict::Different, "{r:?}");
    assert!(
        matches!(&r.runs[0].outcome, Outcome::OutputDifferent { original, optimized }
            if original.ends_with("a0b1.5e0cok") && optimized.ends_with("a1b1.5e0cok")),
        "{r:?}"
    );
}

/// The emulated clock advances at reads of timer registers only, so code
/// with more or fewer other instructions between two reads reads the same
/// values (what the differential check of a pass needs), and it increases.
#[test]
fn the_clock_counts_timer_reads_not_instructions() {
    let read = |filler: &str| {
        let body = format!(
            "mov.u32 %r1, %clock;
            {filler}
            mov.u32 %r2, %clock;
            st.global.u32 [%rd0], %r1;
            st.global.u32 [%rd0+4], %r2;"
        );
        let text = kernel("", &body);
        run_words(&text, 1, 2).unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    let plain = read("");
    assert!(plain[1] > plain[0], "{plain:?}");
    assert_eq!(
        read("add.u32 %r3, %r1, 1;\n add.u32 %r4, %r3, 1;\n add.u32 %r5, %r4, 1;"),
        plain
    );
}
