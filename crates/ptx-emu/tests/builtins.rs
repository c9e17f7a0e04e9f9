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
