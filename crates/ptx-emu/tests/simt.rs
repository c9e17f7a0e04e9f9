//! Warps, divergence and reconvergence, warp-wide instructions, CTA
//! barriers, calls, and the errors (with their locations).

mod common;

use common::{kernel, run_words};
use ptx_emu::{Buffer, Dim3, Emulator, ErrorKind, KernelArg, LaunchConfig};

/// Every thread stores `%r10` at `out[tid]`.
const STORE_R10: &str = "mov.u32 %r9, %tid.x;
    mul.wide.u32 %rd9, %r9, 4;
    add.u64 %rd9, %rd0, %rd9;
    st.global.u32 [%rd9], %r10;";

fn per_thread(module: &str, body: &str, threads: u32) -> Vec<u32> {
    let text = kernel(module, &format!("{body}\n{STORE_R10}"));
    run_words(&text, threads, threads as usize).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn error_of(module: &str, body: &str, threads: u32) -> ptx_emu::EmuError {
    let text = kernel(module, body);
    run_words(&text, threads, 64).expect_err("the launch should fail")
}

#[test]
fn if_else_reconverges_before_a_shuffle() {
    // Odd lanes take one side, even lanes the other; after the join every
    // lane reads its neighbour's value.
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         and.b32 %r2, %r1, 1;
         setp.eq.u32 %p1, %r2, 1;
         @%p1 bra ODD;
         mov.u32 %r3, 200;
         bra JOIN;
ODD:     mov.u32 %r3, 100;
JOIN:    activemask.b32 %r4;
         shfl.sync.bfly.b32 %r5, %r3, 1, 31, -1;
         add.u32 %r10, %r5, %r4;",
        32,
    );
    for (lane, v) in w.iter().enumerate() {
        let neighbour = if lane % 2 == 1 { 200 } else { 100 };
        // activemask is all ones: adding it subtracts one.
        assert_eq!(*v, neighbour - 1, "lane {lane}");
    }
}

#[test]
fn loop_with_per_lane_trip_counts() {
    // Lane i runs i iterations; after the loop all lanes are together again.
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         mov.u32 %r2, 0;
         mov.u32 %r3, 0;
         setp.eq.u32 %p2, %r1, 0;
         @%p2 bra DONE;
LOOP:    add.u32 %r3, %r3, %r2;
         add.u32 %r2, %r2, 1;
         activemask.b32 %r6;
         setp.lt.u32 %p1, %r2, %r1;
         @%p1 bra LOOP;
DONE:    vote.sync.ballot.b32 %r4, 1, -1;
         popc.b32 %r5, %r4;
         // The active mask in the last iteration of each lane: lanes > i.
         mov.u32 %r7, 0;
         @%p2 mov.u32 %r6, 0;
         popc.b32 %r7, %r6;
         shl.b32 %r5, %r5, 16;
         shl.b32 %r7, %r7, 8;
         or.b32 %r10, %r5, %r7;
         and.b32 %r3, %r3, 255;
         add.u32 %r10, %r10, %r3;",
        32,
    );
    for (lane, v) in w.iter().enumerate() {
        let lane = lane as u32;
        let sum = if lane == 0 { 0 } else { (0..lane).sum::<u32>() };
        let active_last = if lane == 0 { 0 } else { 32 - lane };
        assert_eq!(v >> 16, 32, "lane {lane}");
        assert_eq!((v >> 8) & 0xff, active_last, "lane {lane}");
        assert_eq!(v & 0xff, sum & 0xff, "lane {lane}");
    }
}

#[test]
fn nested_divergence_and_warp_collectives() {
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         setp.lt.u32 %p1, %r1, 16;
         @!%p1 bra HIGH;
         setp.lt.u32 %p2, %r1, 8;
         @%p2 bra LOW8;
         mov.u32 %r2, 2;
         bra J1;
LOW8:    mov.u32 %r2, 1;
J1:      // lanes 0-15 again: the active mask is 0x0000ffff
         activemask.b32 %r3;
         bra J2;
HIGH:    mov.u32 %r2, 3;
         activemask.b32 %r3;
J2:      match.any.sync.b32 %r4, %r2, -1;
         redux.sync.add.u32 %r5, %r2, -1;
         redux.sync.max.u32 %r6, %r1, -1;
         vote.sync.uni.pred %p3, 1, -1;
         selp.u32 %r7, 1, 0, %p3;
         xor.b32 %r10, %r4, %r3;
         add.u32 %r10, %r10, %r5;
         add.u32 %r10, %r10, %r6;
         add.u32 %r10, %r10, %r7;",
        32,
    );
    for (lane, v) in w.iter().enumerate() {
        let (group, active) = match lane {
            0..=7 => (0x0000_00ffu32, 0x0000_ffffu32),
            8..=15 => (0x0000_ff00, 0x0000_ffff),
            _ => (0xffff_0000, 0xffff_0000),
        };
        let sum = 8 + 8 * 2 + 16 * 3;
        assert_eq!(*v, (group ^ active) + sum + 31 + 1, "lane {lane}");
    }
}

#[test]
fn shuffles_with_segments() {
    // Width-8 segments: c = ((32 - 8) << 8) | 0x1f for idx/down/bfly, (32 -
    // 8) << 8 for up.
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         shfl.sync.idx.b32 %r2, %r1, 3, 0x181f, -1;
         shfl.sync.down.b32 %r3|%p1, %r1, 2, 0x181f, -1;
         shfl.sync.up.b32 %r4|%p2, %r1, 1, 0x1800, -1;
         shfl.sync.bfly.b32 %r5, %r1, 4, 0x181f, -1;
         selp.u32 %r6, 1, 0, %p1;
         selp.u32 %r7, 1, 0, %p2;
         shl.b32 %r2, %r2, 24;
         shl.b32 %r3, %r3, 16;
         shl.b32 %r4, %r4, 8;
         or.b32 %r10, %r2, %r3;
         or.b32 %r10, %r10, %r4;
         or.b32 %r10, %r10, %r5;
         shl.b32 %r6, %r6, 7;
         shl.b32 %r7, %r7, 6;
         xor.b32 %r10, %r10, %r6;
         xor.b32 %r10, %r10, %r7;",
        32,
    );
    for (lane, v) in w.iter().enumerate() {
        let l = lane as u32;
        let seg = l & !7;
        let idx = seg + 3;
        let (down, pd) = if (l & 7) + 2 <= 7 { (l + 2, 1) } else { (l, 0) };
        let (up, pu) = if l & 7 >= 1 { (l - 1, 1) } else { (l, 0) };
        let bfly = l ^ 4;
        let want = ((idx << 24) | (down << 16) | (up << 8) | bfly) ^ (pd << 7) ^ (pu << 6);
        assert_eq!(*v, want, "lane {lane}");
    }
}

#[test]
fn exited_lanes_leave_the_warp() {
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         mov.u32 %r10, 7;
         setp.ge.u32 %p1, %r1, 20;
         @%p1 bra LATE;
         setp.lt.u32 %p2, %r1, 10;
         @%p2 exit;
LATE:    activemask.b32 %r10;",
        32,
    );
    for (lane, v) in w.iter().enumerate() {
        // Lanes 0-9 exited before writing.
        if lane < 10 {
            assert_eq!(*v, 0, "lane {lane}");
        } else {
            assert_eq!(*v, 0xffff_fc00, "lane {lane}");
        }
    }
}

#[test]
fn barriers_across_warps() {
    let w = per_thread(
        ".shared .align 4 .u32 buf[128];",
        "mov.u32 %r1, %tid.x;
         shl.b32 %r2, %r1, 2;
         mov.u32 %r3, buf;
         add.u32 %r4, %r3, %r2;
         st.shared.u32 [%r4], %r1;
         bar.sync 0;
         sub.u32 %r5, 127, %r1;
         shl.b32 %r5, %r5, 2;
         add.u32 %r5, %r3, %r5;
         ld.shared.u32 %r6, [%r5];
         rem.u32 %r7, %r1, 3;
         setp.eq.u32 %p1, %r7, 0;
         bar.red.popc.u32 %r8, 0, %p1;
         bar.red.and.pred %p2, 0, %p1;
         bar.red.or.pred %p3, 0, %p1;
         selp.u32 %r11, 2, 0, %p2;
         selp.u32 %r12, 1, 0, %p3;
         shl.b32 %r8, %r8, 16;
         shl.b32 %r6, %r6, 4;
         or.b32 %r10, %r8, %r6;
         or.b32 %r10, %r10, %r11;
         or.b32 %r10, %r10, %r12;",
        128,
    );
    for (tid, v) in w.iter().enumerate() {
        let want = (43 << 16) | ((127 - tid as u32) << 4) | 1;
        assert_eq!(*v, want, "thread {tid}");
    }
}

#[test]
fn producer_consumer_with_bar_arrive() {
    // Warp 0 produces and arrives at barrier 1; warp 1 waits there, then
    // reads what warp 0 wrote.
    let w = per_thread(
        ".shared .align 4 .u32 buf[32];",
        "mov.u32 %r1, %tid.x;
         mov.u32 %r2, %laneid;
         shl.b32 %r3, %r2, 2;
         mov.u32 %r4, buf;
         add.u32 %r4, %r4, %r3;
         mov.u32 %r10, 0;
         setp.lt.u32 %p1, %r1, 32;
         @!%p1 bra CONSUMER;
         mul.lo.u32 %r5, %r2, %r2;
         st.shared.u32 [%r4], %r5;
         bar.arrive 1, 64;
         bra END;
CONSUMER:
         bar.sync 1, 64;
         ld.shared.u32 %r10, [%r4];
END:",
        64,
    );
    for (tid, v) in w.iter().enumerate().skip(32) {
        let l = (tid - 32) as u32;
        assert_eq!(*v, l * l);
    }
}

#[test]
fn calls_with_param_and_reg_arguments() {
    let module = ".func (.param .b32 r) add3(.param .b32 a, .param .b32 b, .param .b32 c)
{
    .reg .b32 %t<4>;
    ld.param.b32 %t0, [a];
    ld.param.b32 %t1, [b];
    ld.param.b32 %t2, [c];
    add.s32 %t3, %t0, %t1;
    add.s32 %t3, %t3, %t2;
    st.param.b32 [r], %t3;
    ret;
}
.func (.reg .u32 out) fact(.reg .u32 n)
{
    .reg .pred %q;
    .reg .u32 %m, %s;
    setp.le.u32 %q, n, 1;
    @%q bra BASE;
    sub.u32 %m, n, 1;
    call (%s), fact, (%m);
    mul.lo.u32 out, %s, n;
    ret;
BASE:
    mov.u32 out, 1;
    ret;
}
.func (.reg .u32 out) early(.reg .u32 x)
{
    .reg .pred %q;
    setp.lt.u32 %q, x, 16;
    mov.u32 out, 1;
    @%q ret;
    mov.u32 out, 2;
    ret;
}";
    let w = per_thread(
        module,
        "mov.u32 %r1, %laneid;
         {
            .param .b32 pa;
            .param .b32 pb;
            .param .b32 pc;
            .param .b32 pr;
            st.param.b32 [pa], %r1;
            st.param.b32 [pb], 100;
            st.param.b32 [pc], 1000;
            call.uni (pr), add3, (pa, pb, pc);
            ld.param.b32 %r2, [pr];
         }
         and.b32 %r3, %r1, 7;
         call (%r4), fact, (%r3);
         call (%r5), early, (%r1);
         activemask.b32 %r6;
         // An indirect call through a function pointer.
         mov.u64 %rd1, early;
         proto: .callprototype (.reg .u32 _) _ (.reg .u32 _);
         mov.u32 %r8, 5;
         call (%r7), %rd1, (%r8), proto;
         add.u32 %r10, %r2, %r4;
         mul.lo.u32 %r5, %r5, 1000000;
         add.u32 %r10, %r10, %r5;
         popc.b32 %r6, %r6;
         mul.lo.u32 %r6, %r6, 100000000;
         add.u32 %r10, %r10, %r6;
         add.u32 %r10, %r10, %r7;",
        32,
    );
    let fact = |n: u32| (1..=n.max(1)).product::<u32>();
    for (lane, v) in w.iter().enumerate() {
        let l = lane as u32;
        let early = if l < 16 { 1 } else { 2 };
        let want = l + 1100 + fact(l & 7) + early * 1_000_000 + 32 * 100_000_000u32 + 1;
        assert_eq!(*v, want, "lane {lane}");
    }
}

// ------------------------------------------------------------------ errors

#[test]
fn out_of_bounds_and_misaligned() {
    let e = error_of("", "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 4;\nadd.u64 %rd2, %rd0, %rd1;\nst.global.u32 [%rd2+200], %r1;", 64);
    assert!(matches!(e.kind, ErrorKind::OutOfBounds { .. }), "{e}");
    let loc = e.location.as_ref().unwrap();
    // 64 words = 256 bytes: thread 14 is the first to write past them.
    assert_eq!(loc.thread.unwrap().tid, [14, 0, 0]);
    assert_eq!(loc.function, "t");
    // The store is on line 19 of the generated kernel.
    assert_eq!(loc.line, Some(19));
    assert!(e.to_string().contains("st.global.u32"), "{e}");

    let e = error_of("", "st.global.u32 [%rd0+2], 1;", 1);
    assert!(matches!(e.kind, ErrorKind::Misaligned { .. }), "{e}");
    let e = error_of("", "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd0+8];", 1);
    assert!(matches!(e.kind, ErrorKind::Misaligned { .. }), "{e}");
}

#[test]
fn undefined_values() {
    // Arithmetic on an undefined register is fine until the value is used.
    let text = kernel(
        "",
        "add.u32 %r2, %r1, 1;\nmov.u32 %r3, 5;\nst.global.u32 [%rd0], %r3;",
    );
    assert!(run_words(&text, 1, 4).is_ok());
    let e = error_of("", "add.u32 %r2, %r1, 1;\nst.global.u32 [%rd0], %r2;", 1);
    assert_eq!(e.kind, ErrorKind::UndefinedRegister("%r2".into()), "{e}");
    let e = error_of("", "setp.eq.u32 %p1, %r7, 0;\n@%p1 bra L;\nL: ret;", 1);
    assert_eq!(e.kind, ErrorKind::UndefinedRegister("%p1".into()), "{e}");
    // Only the lanes that never wrote it are at fault.
    let e = error_of(
        "",
        "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 mov.u32 %r2, 1;\nst.global.u32 [%rd0], %r2;",
        32,
    );
    assert_eq!(e.location.unwrap().thread.unwrap().tid, [5, 0, 0]);
    // `selp` is defined where the operand it selects is: %r2, written only
    // where %p1 holds, is never selected elsewhere (what if-conversion
    // leaves); selecting it where it was not written is still a fault.
    let text = kernel(
        "",
        "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 mov.u32 %r2, 1;\nselp.u32 %r3, %r2, 7, %p1;\nst.global.u32 [%rd0], %r3;",
    );
    assert!(run_words(&text, 32, 4).is_ok());
    let e = error_of(
        "",
        "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 mov.u32 %r2, 1;\nselp.u32 %r3, 7, %r2, %p1;\nst.global.u32 [%rd0], %r3;",
        32,
    );
    assert_eq!(e.kind, ErrorKind::UndefinedRegister("%r3".into()), "{e}");
    assert_eq!(e.location.unwrap().thread.unwrap().tid, [5, 0, 0]);
}

#[test]
fn barrier_divergence_and_deadlock() {
    let e = error_of(
        "",
        "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbar.sync 0;\nbra B;\nA: bar.sync 0;\nB: ret;",
        32,
    );
    assert!(matches!(e.kind, ErrorKind::BarrierDivergence(_)), "{e}");
    // Warp 0 waits at barrier 1, warp 1 at barrier 2: neither completes.
    let e = error_of(
        "",
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 2;\nret;\nA: bar.sync 1;",
        64,
    );
    assert!(
        matches!(&e.kind, ErrorKind::BarrierDivergence(m) if m.contains("deadlock")),
        "{e}"
    );
    // Exited threads do not count: the others complete the barrier.
    let text = kernel(
        "",
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 exit;\nbar.sync 0;\nst.global.u32 [%rd0], 1;",
    );
    assert_eq!(run_words(&text, 64, 1).unwrap(), vec![1]);
}

#[test]
fn step_limit_trap_and_unsupported() {
    let text = kernel("", "L: bra L;");
    let mut emu = Emulator::from_ptx(&text).unwrap();
    emu.set_step_limit(10_000);
    let mut args = [KernelArg::Buffer(Buffer::from_slice(&[0u32]))];
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(32),
        dynamic_smem: 0,
    };
    let e = emu.launch("t", cfg, &mut args).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StepLimit(10_000));

    let e = error_of(
        "",
        "mov.u32 %r1, %laneid;\nsetp.eq.u32 %p1, %r1, 3;\n@%p1 trap;",
        32,
    );
    assert_eq!(e.kind, ErrorKind::Trap);
    assert_eq!(e.location.unwrap().thread.unwrap().tid, [3, 0, 0]);

    let e = error_of("", "mov.u32 %r1, 0;\nwgmma.fence.sync.aligned;", 1);
    assert!(
        matches!(&e.kind, ErrorKind::Unsupported(m) if m.contains("wgmma")),
        "{e}"
    );

    // An unsupported instruction on a path not taken is fine.
    let text = kernel(
        "",
        "mov.u32 %r1, 0;\nsetp.eq.u32 %p1, %r1, 1;\n@!%p1 bra L;\nwgmma.fence.sync.aligned;\nL: st.global.u32 [%rd0], 9;",
    );
    assert_eq!(run_words(&text, 1, 1).unwrap(), vec![9]);
}

#[test]
fn bad_launches() {
    let text = kernel("", "");
    let mut emu = Emulator::from_ptx(&text).unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(2048),
        dynamic_smem: 0,
    };
    let mut args = [KernelArg::Pointer(0)];
    assert!(matches!(
        emu.launch("t", cfg, &mut args).unwrap_err().kind,
        ErrorKind::BadLaunch(_)
    ));
    let cfg = LaunchConfig {
        block: Dim3::x(32),
        ..cfg
    };
    assert!(matches!(
        emu.launch("nope", cfg, &mut args).unwrap_err().kind,
        ErrorKind::UnknownKernel(_)
    ));
    let mut wrong = [KernelArg::value(1u32)];
    assert!(matches!(
        emu.launch("t", cfg, &mut wrong).unwrap_err().kind,
        ErrorKind::BadArguments(_)
    ));
    assert!(matches!(
        emu.launch("t", cfg, &mut []).unwrap_err().kind,
        ErrorKind::BadArguments(_)
    ));
    assert!(emu.launch("t", cfg, &mut args).is_ok());
}

#[test]
fn mbarrier_producer_consumer() {
    // Warp 1 waits on an mbarrier phase that warp 0 completes after writing
    // shared memory; the waiter spins with try_wait.parity.
    let w = per_thread(
        ".shared .align 8 .b64 bar;
         .shared .align 4 .u32 buf[32];",
        "mov.u32 %r1, %tid.x;
         mov.u32 %r2, %laneid;
         shl.b32 %r3, %r2, 2;
         mov.u32 %r4, buf;
         add.u32 %r4, %r4, %r3;
         mov.u32 %r10, 0;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 mbarrier.init.shared.b64 [bar], 32;
         bar.sync 0;
         setp.lt.u32 %p2, %r1, 32;
         @!%p2 bra CONSUMER;
         add.u32 %r5, %r2, 1000;
         st.shared.u32 [%r4], %r5;
         mbarrier.arrive.shared.b64 %rd1, [bar];
         mbarrier.pending_count.b64 %r6, %rd1;
         mov.u32 %r10, %r6;
         bra END;
CONSUMER:
WAIT:    mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;
         @!%p3 bra WAIT;
         ld.shared.u32 %r10, [%r4];
END:",
        64,
    );
    for lane in 0..32usize {
        // Lane i's arrival left 31 - i pending (the last one completed the
        // phase, which resets nothing in its token).
        assert_eq!(w[lane], 31 - lane as u32);
        assert_eq!(w[32 + lane], 1000 + lane as u32);
    }
}

#[test]
fn movmatrix_transposes() {
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         shr.u32 %r2, %r1, 2;               // row g
         and.b32 %r3, %r1, 3;
         shl.b32 %r3, %r3, 1;               // column 2t
         shl.b32 %r4, %r2, 4;
         or.b32 %r5, %r4, %r3;              // element (g, 2t) = 16 g + 2t
         add.u32 %r6, %r5, 1;
         shl.b32 %r6, %r6, 16;
         or.b32 %r7, %r5, %r6;
         movmatrix.sync.aligned.m8n8.trans.b16 %r10, %r7;",
        32,
    );
    for (l, v) in w.iter().enumerate() {
        let (g, t) = (l as u32 / 4, l as u32 % 4);
        // Rows 2t and 2t+1 of column g of the original.
        assert_eq!(
            *v,
            (16 * 2 * t + g) | ((16 * (2 * t + 1) + g) << 16),
            "lane {l}"
        );
    }
}

#[test]
fn redux_on_f32() {
    let w = per_thread(
        "",
        "mov.u32 %r1, %laneid;
         cvt.rn.f32.u32 %f1, %r1;
         sub.f32 %f2, 0f41000000, %f1;      // 8 - lane: 8 .. -23
         redux.sync.min.f32 %f3, %f2, -1;
         redux.sync.max.abs.f32 %f4, %f2, -1;
         cvt.rzi.s32.f32 %r2, %f3;
         cvt.rzi.s32.f32 %r3, %f4;
         shl.b32 %r3, %r3, 16;
         and.b32 %r2, %r2, 0xffff;
         or.b32 %r10, %r2, %r3;",
        32,
    );
    for v in w {
        assert_eq!(v, (23 << 16) | ((-23i32) as u32 & 0xffff));
    }
}

#[test]
fn limits_are_errors_not_crashes() {
    // A huge address, a huge local array, deep recursion.
    let e = error_of(
        "",
        "mov.u64 %rd1, 0xfffffffffffffffc;\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
        1,
    );
    assert!(
        matches!(
            e.kind,
            ErrorKind::Misaligned { .. } | ErrorKind::OutOfBounds { .. }
        ),
        "{e}"
    );
    let e = error_of(
        "",
        "mov.u64 %rd1, 0xfffffffffffffff0;\nld.global.u32 %r1, [%rd1+12];",
        1,
    );
    assert!(matches!(e.kind, ErrorKind::OutOfBounds { .. }), "{e}");
    let e = error_of(
        "",
        "{\n.local .b8 big[1048576];\nst.local.u32 [big], 1;\n}",
        1,
    );
    assert!(matches!(e.kind, ErrorKind::BadLaunch(_)), "{e}");
    let e = error_of(".func f()\n{\ncall f;\nret;\n}", "call f;", 1);
    assert!(matches!(e.kind, ErrorKind::StackOverflow), "{e}");
}
