//! One test per instruction family, at the PTX level, against hand-computed
//! values: integer arithmetic and carry chains, bit manipulation, f32/f64
//! rounding modes, `.ftz`, `.sat`, half precision, every kind of `cvt`,
//! comparisons, memory spaces, atomics.

mod common;

use common::{kernel, one, one_with, run_words, w64};

#[test]
fn integer_arithmetic() {
    let w = one("mov.u32 %r1, 0xfffffff0;
         mov.u32 %r2, 0x20;
         add.u32 %r3, %r1, %r2;            st.global.u32 [%rd0+0], %r3;
         mov.u32 %r4, 0x7ffffff0;
         add.sat.s32 %r5, %r4, %r2;        st.global.u32 [%rd0+4], %r5;
         mov.u32 %r6, 0x80000005;
         sub.sat.s32 %r7, %r6, 0x10;       st.global.u32 [%rd0+8], %r7;
         mul.hi.u32 %r8, %r1, %r2;         st.global.u32 [%rd0+12], %r8;
         mul.hi.s32 %r9, %r1, %r2;         st.global.u32 [%rd0+16], %r9;
         mul.wide.s32 %rd1, %r1, %r2;      st.global.u64 [%rd0+24], %rd1;
         mul.wide.u32 %rd2, %r1, %r2;      st.global.u64 [%rd0+32], %rd2;
         mad.lo.u32 %r10, %r1, %r2, 5;     st.global.u32 [%rd0+40], %r10;
         mad.hi.u32 %r11, %r1, %r2, 1;     st.global.u32 [%rd0+44], %r11;
         mad.wide.u32 %rd3, %r1, %r2, %rd2; st.global.u64 [%rd0+48], %rd3;
         mov.u32 %r12, 0x7fffffff;
         mad.hi.sat.s32 %r13, %r12, %r12, %r12; st.global.u32 [%rd0+56], %r13;
         mov.u32 %r14, 0x01000003;
         mul24.lo.u32 %r15, %r14, 5;       st.global.u32 [%rd0+60], %r15;
         mov.u32 %r16, 0xffffff;
         mul24.hi.u32 %r17, %r16, %r16;    st.global.u32 [%rd0+64], %r17;
         sad.u32 %r18, 3, 10, 100;         st.global.u32 [%rd0+68], %r18;
         mov.u32 %r19, 100;
         div.u32 %r20, %r19, 7;            st.global.u32 [%rd0+72], %r20;
         rem.u32 %r21, %r19, 7;            st.global.u32 [%rd0+76], %r21;
         mov.u32 %r22, -100;
         div.s32 %r23, %r22, 7;            st.global.u32 [%rd0+80], %r23;
         rem.s32 %r24, %r22, 7;            st.global.u32 [%rd0+84], %r24;
         mov.u32 %r25, 0;
         div.u32 %r26, %r19, %r25;         st.global.u32 [%rd0+88], %r26;
         abs.s32 %r27, -5;                 st.global.u32 [%rd0+92], %r27;
         neg.s32 %r28, 5;                  st.global.u32 [%rd0+96], %r28;
         min.s32 %r29, -1, 1;              st.global.u32 [%rd0+100], %r29;
         min.u32 %r30, 0xffffffff, 1;      st.global.u32 [%rd0+104], %r30;
         mov.b32 %r31, 0x0001ffff;
         mov.b32 %r32, 0xffff0001;
         min.u16x2 %r33, %r31, %r32;       st.global.u32 [%rd0+108], %r33;
         max.s16x2 %r34, %r31, %r32;       st.global.u32 [%rd0+112], %r34;
         max.relu.s32 %r35, -5, -3;        st.global.u32 [%rd0+116], %r35;
         mul.lo.u64 %rd4, %rd1, %rd1;      st.global.u64 [%rd0+120], %rd4;
         mov.u16 %h1, 0xfff0;
         add.u16 %h2, %h1, 0x20;           cvt.u32.u16 %r36, %h2; st.global.u32 [%rd0+128], %r36;");
    assert_eq!(w[0], 0x10);
    assert_eq!(w[1], 0x7fff_ffff);
    assert_eq!(w[2], 0x8000_0000);
    assert_eq!(w[3], 0x1f);
    assert_eq!(w[4], 0xffff_ffff);
    assert_eq!(w64(&w, 6), (-512i64) as u64);
    assert_eq!(w64(&w, 8), 0x1f_ffff_fe00);
    assert_eq!(w[10], 0xffff_fe05);
    assert_eq!(w[11], 0x20);
    assert_eq!(w64(&w, 12), 0x3f_ffff_fc00);
    assert_eq!(w[14], 0x7fff_ffff);
    assert_eq!(w[15], 15);
    assert_eq!(w[16], 0xffff_fe00);
    assert_eq!(w[17], 107);
    assert_eq!(w[18..22], [14, 2, (-14i32) as u32, (-2i32) as u32]);
    assert_eq!(w[22], 0xffff_ffff);
    assert_eq!(w[23], 5);
    assert_eq!(w[24], (-5i32) as u32);
    assert_eq!(w[25], (-1i32) as u32);
    assert_eq!(w[26], 1);
    assert_eq!(w[27], 0x0001_0001);
    assert_eq!(w[28], 0x0001_0001);
    assert_eq!(w[29], 0);
    assert_eq!(w64(&w, 30), 512 * 512);
    assert_eq!(w[32], 0x10);
}

/// Multi-word arithmetic with the carry flag, against u128.
#[test]
fn carry_chains() {
    let a: u128 = 0xffff_ffff_8000_0001_ffff_ffff_0000_0003;
    let b: u128 = 0x0000_0001_8000_0000_0000_0001_ffff_ffff;
    let limbs = |v: u128| -> Vec<u32> { (0..4).map(|i| (v >> (32 * i)) as u32).collect() };
    let (la, lb) = (limbs(a), limbs(b));
    let mut body = String::new();
    for i in 0..4 {
        body += &format!(
            "mov.u32 %r{}, {};\nmov.u32 %r{}, {};\n",
            i,
            la[i],
            4 + i,
            lb[i]
        );
    }
    body += "add.cc.u32 %r8, %r0, %r4;
             addc.cc.u32 %r9, %r1, %r5;
             addc.cc.u32 %r10, %r2, %r6;
             addc.u32 %r11, %r3, %r7;
             sub.cc.u32 %r12, %r0, %r4;
             subc.cc.u32 %r13, %r1, %r5;
             subc.cc.u32 %r14, %r2, %r6;
             subc.u32 %r15, %r3, %r7;
             st.global.v4.u32 [%rd0], {%r8, %r9, %r10, %r11};
             st.global.v4.u32 [%rd0+16], {%r12, %r13, %r14, %r15};
             // 64 x 64 -> 128 from 32-bit limbs with mad.cc/madc.
             mul.lo.u32 %r16, %r0, %r4;
             mul.hi.u32 %r17, %r0, %r4;
             mad.lo.cc.u32 %r17, %r0, %r5, %r17;
             madc.hi.u32 %r18, %r0, %r5, 0;
             mad.lo.cc.u32 %r17, %r1, %r4, %r17;
             madc.hi.cc.u32 %r18, %r1, %r4, %r18;
             addc.u32 %r19, 0, 0;
             mad.lo.cc.u32 %r18, %r1, %r5, %r18;
             madc.hi.u32 %r19, %r1, %r5, %r19;
             st.global.v4.u32 [%rd0+32], {%r16, %r17, %r18, %r19};
             // A chain on 64-bit limbs.
             mov.b64 %rd1, {%r0, %r1};
             mov.b64 %rd2, {%r2, %r3};
             mov.b64 %rd3, {%r4, %r5};
             mov.b64 %rd4, {%r6, %r7};
             add.cc.u64 %rd5, %rd1, %rd3;
             addc.u64 %rd6, %rd2, %rd4;
             st.global.v2.u64 [%rd0+48], {%rd5, %rd6};";
    let w = one(&body);
    let word = |i: usize| -> u128 { (0..4).map(|k| (w[i + k] as u128) << (32 * k)).sum() };
    assert_eq!(word(0), a.wrapping_add(b));
    assert_eq!(word(4), a.wrapping_sub(b));
    let (a64, b64) = (a as u64 as u128, b as u64 as u128);
    assert_eq!(word(8), a64 * b64);
    assert_eq!(word(12), a.wrapping_add(b));
}

#[test]
fn bit_manipulation() {
    let w = one("mov.u32 %r1, 0xf8c122a0;
         bfe.u32 %r2, %r1, 16, 8;          st.global.u32 [%rd0+0], %r2;
         bfe.s32 %r3, %r1, 16, 8;          st.global.u32 [%rd0+4], %r3;
         bfi.b32 %r4, 0xab, %r1, 4, 8;     st.global.u32 [%rd0+8], %r4;
         prmt.b32 %r5, 0x03020100, 0x07060504, 0x4152;  st.global.u32 [%rd0+12], %r5;
         prmt.b32.f4e %r6, 0x03020100, 0x07060504, 2;   st.global.u32 [%rd0+16], %r6;
         prmt.b32.b4e %r7, 0x03020100, 0x07060504, 1;   st.global.u32 [%rd0+20], %r7;
         prmt.b32.rc16 %r8, 0x03020100, 0x07060504, 1;  st.global.u32 [%rd0+24], %r8;
         shf.l.wrap.b32 %r9, 0x12345678, 0x9abcdef0, 36; st.global.u32 [%rd0+28], %r9;
         shf.r.clamp.b32 %r10, 0x12345678, 0x9abcdef0, 8; st.global.u32 [%rd0+32], %r10;
         lop3.b32 %r11, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0x96; st.global.u32 [%rd0+36], %r11;
         popc.b32 %r12, 0xf0f0f0f1;        st.global.u32 [%rd0+40], %r12;
         clz.b32 %r13, 0x00010000;         st.global.u32 [%rd0+44], %r13;
         brev.b32 %r14, 0x00000001;        st.global.u32 [%rd0+48], %r14;
         bfind.u32 %r15, 0x00010000;       st.global.u32 [%rd0+52], %r15;
         bfind.s32 %r16, 0xfffff000;       st.global.u32 [%rd0+56], %r16;
         fns.b32 %r17, 0xf0, 0, 3;         st.global.u32 [%rd0+60], %r17;
         dp4a.u32.u32 %r18, 0x01020304, 0x01010101, 10; st.global.u32 [%rd0+64], %r18;
         dp4a.s32.s32 %r19, 0xff020304, 0xff010101, 0;  st.global.u32 [%rd0+68], %r19;
         dp2a.lo.s32.s32 %r20, 0xfffe0003, 0x01020304, 0; st.global.u32 [%rd0+72], %r20;
         bmsk.wrap.b32 %r21, 4, 36;        st.global.u32 [%rd0+76], %r21;
         szext.clamp.s32 %r22, 0x80, 8;    st.global.u32 [%rd0+80], %r22;
         shl.b32 %r23, 1, 31;              st.global.u32 [%rd0+84], %r23;
         shl.b32 %r24, 1, 32;              st.global.u32 [%rd0+88], %r24;
         shr.s32 %r25, 0x80000000, 40;     st.global.u32 [%rd0+92], %r25;
         shr.u32 %r26, 0x80000000, 31;     st.global.u32 [%rd0+96], %r26;
         not.b32 %r27, 0x0f0f0f0f;         st.global.u32 [%rd0+100], %r27;
         cnot.b32 %r28, 0;                 st.global.u32 [%rd0+104], %r28;
         popc.b64 %r29, 0xffffffffffffffff; st.global.u32 [%rd0+108], %r29;
         clz.b64 %r30, 1;                  st.global.u32 [%rd0+112], %r30;
         setp.eq.u32 %p1, 1, 1;
         setp.eq.u32 %p2, 1, 0;
         xor.pred %p3, %p1, %p2;
         not.pred %p4, %p3;
         selp.u32 %r31, 1, 0, %p3;         st.global.u32 [%rd0+116], %r31;
         selp.u32 %r32, 1, 0, %p4;         st.global.u32 [%rd0+120], %r32;");
    assert_eq!(w[0], 0xc1);
    assert_eq!(w[1], 0xffff_ffc1);
    assert_eq!(w[2], 0xf8c1_2ab0);
    // Selector 0x4152: bytes 2, 5, 1, 4 of {b, a}.
    assert_eq!(w[3], 0x0401_0502);
    assert_eq!(w[4], 0x0504_0302);
    assert_eq!(w[5], 0x0607_0001);
    assert_eq!(w[6], 0x0302_0302);
    assert_eq!(w[7], 0xabcd_ef01);
    assert_eq!(w[8], 0xf012_3456);
    assert_eq!(w[9], 0x9696_9696);
    assert_eq!(w[10], 17);
    assert_eq!(w[11], 15);
    assert_eq!(w[12], 0x8000_0000);
    assert_eq!(w[13], 16);
    assert_eq!(w[14], 11);
    assert_eq!(w[15], 6);
    assert_eq!(w[16], 10 + 1 + 2 + 3 + 4);
    assert_eq!(w[17], 1 + 2 + 3 + 4);
    assert_eq!(w[18], (-2 * 3 + 3 * 4) as u32);
    assert_eq!(w[19], 0xf0);
    assert_eq!(w[20], 0xffff_ff80);
    assert_eq!(w[21], 0x8000_0000);
    assert_eq!(w[22], 0);
    assert_eq!(w[23], 0xffff_ffff);
    assert_eq!(w[24], 1);
    assert_eq!(w[25], 0xf0f0_f0f0);
    assert_eq!(w[26], 1);
    assert_eq!(w[27], 64);
    assert_eq!(w[28], 63);
    assert_eq!(w[29], 1);
    assert_eq!(w[30], 0);
}

/// f32 and f64 with every rounding mode, `.ftz`, `.sat`, NaN handling.
#[test]
fn float_rounding() {
    let w = one("mov.f32 %f1, 0f3F800000;           // 1
         mov.f32 %f2, 0f30800000;           // 2^-30
         add.rn.f32 %f3, %f1, %f2;          st.global.f32 [%rd0+0], %f3;
         add.rz.f32 %f3, %f1, %f2;          st.global.f32 [%rd0+4], %f3;
         add.rp.f32 %f3, %f1, %f2;          st.global.f32 [%rd0+8], %f3;
         neg.f32 %f4, %f1;
         neg.f32 %f5, %f2;
         add.rm.f32 %f3, %f4, %f5;          st.global.f32 [%rd0+12], %f3;
         mov.f32 %f6, 0f3F800001;           // 1 + 2^-23
         mul.rn.f32 %f3, %f6, %f6;          st.global.f32 [%rd0+16], %f3;
         mul.rp.f32 %f3, %f6, %f6;          st.global.f32 [%rd0+20], %f3;
         mov.f32 %f7, 0f3F7FFFFF;           // 1 - 2^-24
         fma.rn.f32 %f3, %f6, %f7, 0f00000000; st.global.f32 [%rd0+24], %f3;
         fma.rp.f32 %f3, %f6, %f7, 0f00000000; st.global.f32 [%rd0+28], %f3;
         mov.f32 %f8, 0f40400000;           // 3
         div.rn.f32 %f3, %f1, %f8;          st.global.f32 [%rd0+32], %f3;
         div.rz.f32 %f3, %f1, %f8;          st.global.f32 [%rd0+36], %f3;
         div.rm.f32 %f3, %f1, %f8;          st.global.f32 [%rd0+40], %f3;
         div.rp.f32 %f3, %f1, %f8;          st.global.f32 [%rd0+44], %f3;
         mov.f32 %f9, 0f40000000;           // 2
         sqrt.rn.f32 %f3, %f9;              st.global.f32 [%rd0+48], %f3;
         sqrt.rz.f32 %f3, %f9;              st.global.f32 [%rd0+52], %f3;
         sqrt.rp.f32 %f3, %f9;              st.global.f32 [%rd0+56], %f3;
         rcp.rn.f32 %f3, %f8;               st.global.f32 [%rd0+60], %f3;
         rcp.rz.f32 %f3, %f8;               st.global.f32 [%rd0+64], %f3;
         mov.b32 %f10, 0x00400000;          // subnormal 2^-127
         mul.ftz.f32 %f3, %f10, %f1;        st.global.f32 [%rd0+68], %f3;
         mul.f32 %f3, %f10, %f1;            st.global.f32 [%rd0+72], %f3;
         mov.f32 %f11, 0f3F400000;          // 0.75
         add.sat.f32 %f3, %f11, %f11;       st.global.f32 [%rd0+76], %f3;
         mul.sat.f32 %f3, %f11, 0fC0000000; st.global.f32 [%rd0+80], %f3;
         mov.b32 %f12, 0x7fc00000;          // NaN
         min.f32 %f3, %f12, %f9;            st.global.f32 [%rd0+84], %f3;
         min.NaN.f32 %f3, %f12, %f9;        st.global.f32 [%rd0+88], %f3;
         max.f32 %f3, %f4, %f9;             st.global.f32 [%rd0+92], %f3;
         neg.f32 %f3, 0f00000000;           st.global.f32 [%rd0+96], %f3;
         abs.f32 %f3, %f4;                  st.global.f32 [%rd0+100], %f3;
         copysign.f32 %f3, %f4, %f9;        st.global.f32 [%rd0+104], %f3;
         ex2.approx.f32 %f3, %f8;           st.global.f32 [%rd0+108], %f3;
         lg2.approx.f32 %f3, 0f41000000;    st.global.f32 [%rd0+112], %f3;
         testp.notanumber.f32 %p1, %f12;
         testp.subnormal.f32 %p2, %f10;
         selp.u32 %r1, 1, 0, %p1;           st.global.u32 [%rd0+116], %r1;
         selp.u32 %r2, 1, 0, %p2;           st.global.u32 [%rd0+120], %r2;
         mad.rn.f32 %f3, %f8, %f8, %f1;     st.global.f32 [%rd0+124], %f3;
         // f64
         mov.f64 %fd1, 0d3FF0000000000000;
         mov.f64 %fd2, 0d3C30000000000000;  // 2^-60
         add.rz.f64 %fd3, %fd1, %fd2;       st.global.f64 [%rd0+128], %fd3;
         add.rp.f64 %fd3, %fd1, %fd2;       st.global.f64 [%rd0+136], %fd3;
         mov.f64 %fd4, 0d4008000000000000;  // 3
         div.rn.f64 %fd3, %fd1, %fd4;       st.global.f64 [%rd0+144], %fd3;
         div.rp.f64 %fd3, %fd1, %fd4;       st.global.f64 [%rd0+152], %fd3;
         mov.f64 %fd5, 0d4000000000000000;  // 2
         sqrt.rn.f64 %fd3, %fd5;            st.global.f64 [%rd0+160], %fd3;
         sqrt.rz.f64 %fd3, %fd5;            st.global.f64 [%rd0+168], %fd3;
         mov.f64 %fd6, 0d3AF0000000000000;  // 2^-80
         fma.rp.f64 %fd3, %fd1, %fd1, %fd6; st.global.f64 [%rd0+176], %fd3;
         fma.rn.f64 %fd3, %fd1, %fd1, %fd6; st.global.f64 [%rd0+184], %fd3;
         rcp.rn.f64 %fd3, %fd4;             st.global.f64 [%rd0+192], %fd3;
         rsqrt.approx.f64 %fd3, 0d3FD0000000000000; st.global.f64 [%rd0+200], %fd3;");
    assert_eq!(w[0], 0x3f80_0000);
    assert_eq!(w[1], 0x3f80_0000);
    assert_eq!(w[2], 0x3f80_0001);
    assert_eq!(w[3], 0xbf80_0001);
    assert_eq!(w[4], 0x3f80_0002);
    assert_eq!(w[5], 0x3f80_0003);
    assert_eq!(w[6], 0x3f80_0000);
    assert_eq!(w[7], 0x3f80_0001);
    assert_eq!(
        w[8..12],
        [0x3eaa_aaab, 0x3eaa_aaaa, 0x3eaa_aaaa, 0x3eaa_aaab]
    );
    assert_eq!(w[12..15], [0x3fb5_04f3, 0x3fb5_04f3, 0x3fb5_04f4]);
    assert_eq!(w[15..17], [0x3eaa_aaab, 0x3eaa_aaaa]);
    assert_eq!(w[17], 0);
    assert_eq!(w[18], 0x0040_0000);
    assert_eq!(w[19], 0x3f80_0000);
    assert_eq!(w[20], 0);
    assert_eq!(w[21], 0x4000_0000);
    assert_eq!(w[22], 0x7fff_ffff);
    assert_eq!(w[23], 0x4000_0000);
    assert_eq!(w[24], 0x8000_0000);
    assert_eq!(w[25], 0x3f80_0000);
    assert_eq!(w[26], 0xc000_0000);
    assert_eq!(w[27], 0x4100_0000);
    assert_eq!(w[28], 0x4040_0000);
    assert_eq!(w[29..31], [1, 1]);
    assert_eq!(w[31], 0x4120_0000);
    assert_eq!(w64(&w, 32), 0x3ff0_0000_0000_0000);
    assert_eq!(w64(&w, 34), 0x3ff0_0000_0000_0001);
    assert_eq!(w64(&w, 36), 0x3fd5_5555_5555_5555);
    assert_eq!(w64(&w, 38), 0x3fd5_5555_5555_5556);
    assert_eq!(w64(&w, 40), 0x3ff6_a09e_667f_3bcd);
    assert_eq!(w64(&w, 42), 0x3ff6_a09e_667f_3bcc);
    assert_eq!(w64(&w, 44), 0x3ff0_0000_0000_0001);
    assert_eq!(w64(&w, 46), 0x3ff0_0000_0000_0000);
    assert_eq!(w64(&w, 48), 0x3fd5_5555_5555_5555);
    assert_eq!(w64(&w, 50), 2.0f64.to_bits());
}

/// f16, f16x2, bf16, bf16x2: round to nearest even on ties.
#[test]
fn half_precision() {
    let w = one("mov.b16 %h1, 0x6800;               // 2048
         mov.b16 %h2, 0x3c00;               // 1
         mov.b16 %h3, 0x4200;               // 3
         add.f16 %h4, %h1, %h2;             st.global.b16 [%rd0+0], %h4;
         add.f16 %h4, %h1, %h3;             st.global.b16 [%rd0+2], %h4;
         mov.b16 %h5, 0x3c01;               // 1 + 2^-10
         mul.f16 %h4, %h5, %h5;             st.global.b16 [%rd0+4], %h4;
         fma.rn.f16 %h4, %h5, %h5, %h2;     st.global.b16 [%rd0+6], %h4;
         neg.f16 %h4, %h2;                  st.global.b16 [%rd0+8], %h4;
         mov.b16 %h6, 0x7e00;               // NaN
         min.f16 %h4, %h6, %h3;             st.global.b16 [%rd0+10], %h4;
         min.NaN.f16 %h4, %h6, %h3;         st.global.b16 [%rd0+12], %h4;
         ex2.approx.f16 %h4, 0x4000;        st.global.b16 [%rd0+14], %h4;
         mov.b32 %r1, 0x3c004200;           // {1, 3}
         mov.b32 %r2, 0x40004000;           // {2, 2}
         mul.rn.f16x2 %r3, %r1, %r2;        st.global.b32 [%rd0+16], %r3;
         sub.f16x2 %r3, %r1, %r2;           st.global.b32 [%rd0+20], %r3;
         max.f16x2 %r3, %r1, %r2;           st.global.b32 [%rd0+24], %r3;
         mov.b16 %h7, 0x3f80;               // bf16 1
         mov.b16 %h8, 0x3b80;               // bf16 2^-8
         mov.b16 %h9, 0x3c40;               // bf16 3 * 2^-8
         add.bf16 %h4, %h7, %h8;            st.global.b16 [%rd0+28], %h4;
         add.bf16 %h4, %h7, %h9;            st.global.b16 [%rd0+30], %h4;
         fma.rn.bf16 %h4, %h7, %h7, %h9;    st.global.b16 [%rd0+32], %h4;
         mov.b32 %r4, 0x3f804000;           // bf16x2 {1, 2}
         mul.rn.bf16x2 %r5, %r4, %r4;       st.global.b32 [%rd0+36], %r5;
         abs.bf16x2 %r6, 0xbf80bf80;        st.global.b32 [%rd0+40], %r6;
         fma.rn.relu.f16 %h4, %h3, %h3, 0xd000; st.global.b16 [%rd0+44], %h4;
         add.sat.f16 %h4, %h3, %h2;         st.global.b16 [%rd0+46], %h4;");
    let h = |i: usize| (w[i / 2] >> (16 * (i % 2))) & 0xffff;
    assert_eq!(h(0), 0x6800);
    assert_eq!(h(1), 0x6802);
    assert_eq!(h(2), 0x3c02);
    assert_eq!(h(3), 0x4001); // 2 + 2^-9 + 2^-20 rounds to 2 + 2^-9 (ulp 2^-9)
    assert_eq!(h(4), 0xbc00);
    assert_eq!(h(5), 0x4200);
    assert_eq!(h(6), 0x7fff);
    assert_eq!(h(7), 0x4400);
    assert_eq!(w[4], 0x4000_4600);
    assert_eq!(w[5], 0xbc00_3c00);
    assert_eq!(w[6], 0x4000_4200);
    assert_eq!(h(14), 0x3f80);
    assert_eq!(h(15), 0x3f82);
    assert_eq!(h(16), 0x3f82);
    assert_eq!(w[9], 0x3f80_4080);
    assert_eq!(w[10], 0x3f80_3f80);
    assert_eq!(h(22), 0);
    assert_eq!(h(23), 0x3c00);
}

#[test]
fn conversions() {
    let w = one("mov.u32 %r1, 0x1ff;
         cvt.s8.s32 %r2, %r1;               st.global.u32 [%rd0+0], %r2;
         cvt.sat.s8.s32 %r2, %r1;           st.global.u32 [%rd0+4], %r2;
         cvt.sat.u8.s32 %r2, -5;            st.global.u32 [%rd0+8], %r2;
         cvt.u16.u32 %r2, 0x12345;          st.global.u32 [%rd0+12], %r2;
         cvt.s64.s32 %rd1, -1;              st.global.u64 [%rd0+16], %rd1;
         cvt.u64.u32 %rd1, 0xffffffff;      st.global.u64 [%rd0+24], %rd1;
         cvt.rni.s32.f32 %r2, 0f40200000;   st.global.u32 [%rd0+32], %r2;   // 2.5 -> 2
         cvt.rni.s32.f32 %r2, 0fC0200000;   st.global.u32 [%rd0+36], %r2;   // -2.5 -> -2
         cvt.rpi.s32.f32 %r2, 0f40066666;   st.global.u32 [%rd0+40], %r2;   // 2.1 -> 3
         cvt.rmi.s32.f32 %r2, 0fC0066666;   st.global.u32 [%rd0+44], %r2;   // -2.1 -> -3
         cvt.rzi.s32.f32 %r2, 0fC039999A;   st.global.u32 [%rd0+48], %r2;   // -2.9 -> -2
         cvt.rzi.s32.f32 %r2, 0f50DF8476;   st.global.u32 [%rd0+52], %r2;   // 3e10 -> max
         cvt.rzi.s32.f32 %r2, 0f7FC00000;   st.global.u32 [%rd0+56], %r2;   // NaN -> 0
         cvt.rzi.u32.f32 %r2, 0fBF800000;   st.global.u32 [%rd0+60], %r2;   // -1 -> 0
         mov.u64 %rd2, 0xffffffffffffffff;
         cvt.rn.f32.u64 %f1, %rd2;          st.global.f32 [%rd0+64], %f1;
         cvt.rz.f32.u64 %f1, %rd2;          st.global.f32 [%rd0+68], %f1;
         cvt.rn.f32.s32 %f1, -1;            st.global.f32 [%rd0+72], %f1;
         mov.u64 %rd3, 0x20000000000001;    // 2^53 + 1
         cvt.rn.f64.u64 %fd1, %rd3;         st.global.f64 [%rd0+80], %fd1;
         cvt.rp.f64.u64 %fd1, %rd3;         st.global.f64 [%rd0+88], %fd1;
         cvt.rn.f16.f32 %h1, 0f477FF000;    st.global.b16 [%rd0+96], %h1;  // 65520 -> inf
         cvt.rz.f16.f32 %h1, 0f477FF000;    st.global.b16 [%rd0+98], %h1;  // -> 65504
         cvt.rn.f16.f32 %h1, 0f3F801000;    st.global.b16 [%rd0+100], %h1; // 1 + 2^-11 -> 1
         cvt.rp.f16.f32 %h1, 0f3F801000;    st.global.b16 [%rd0+102], %h1;
         mov.b16 %h2, 0x3c01;
         cvt.f32.f16 %f2, %h2;              st.global.f32 [%rd0+104], %f2;
         cvt.rn.bf16.f32 %h1, 0f3F808000;   st.global.b16 [%rd0+108], %h1;
         cvt.rn.bf16.f32 %h1, 0f3F818000;   st.global.b16 [%rd0+110], %h1;
         cvt.rna.tf32.f32 %r3, 0f3F801000;  st.global.u32 [%rd0+112], %r3;
         cvt.rn.satfinite.e4m3x2.f32 %h3, 0f447A0000, 0fBF000000; st.global.b16 [%rd0+116], %h3;
         cvt.rn.f16x2.f32 %r4, 0f3F800000, 0f40000000; st.global.u32 [%rd0+120], %r4;
         cvt.f64.f32 %fd2, 0f3E000000;      st.global.f64 [%rd0+128], %fd2;
         cvt.rn.f32.f64 %f3, 0d3FF0000000000001; st.global.f32 [%rd0+136], %f3;
         cvt.rp.f32.f64 %f3, 0d3FF0000000000001; st.global.f32 [%rd0+140], %f3;
         cvt.rni.f32.f32 %f4, 0f40200000;   st.global.f32 [%rd0+144], %f4;
         cvt.rpi.f32.f32 %f4, 0f40066666;   st.global.f32 [%rd0+148], %f4;
         mov.b32 %f5, 0x00000001;
         cvt.ftz.f32.f32 %f4, %f5;          st.global.f32 [%rd0+152], %f4;
         cvt.sat.f32.f32 %f4, 0f3FC00000;   st.global.f32 [%rd0+156], %f4;
         cvt.pack.sat.s16.s32.b32 %r5, 70000, -70000, 0; st.global.u32 [%rd0+160], %r5;
         cvt.rn.f16x2.e5m2x2 %r6, 0x3c44;   st.global.u32 [%rd0+164], %r6;
         cvt.rn.satfinite.e5m2x2.f16x2 %h4, 0x3c004400; st.global.b16 [%rd0+168], %h4;");
    assert_eq!(w[0], 0xffff_ffff);
    assert_eq!(w[1], 0x7f);
    assert_eq!(w[2], 0);
    assert_eq!(w[3], 0x2345);
    assert_eq!(w64(&w, 4), u64::MAX);
    assert_eq!(w64(&w, 6), 0xffff_ffff);
    assert_eq!(
        w[8..16],
        [
            2,
            (-2i32) as u32,
            3,
            (-3i32) as u32,
            (-2i32) as u32,
            0x7fff_ffff,
            0,
            0
        ]
    );
    assert_eq!(w[16..19], [0x5f80_0000, 0x5f7f_ffff, 0xbf80_0000]);
    assert_eq!(w64(&w, 20), 0x4340_0000_0000_0000);
    assert_eq!(w64(&w, 22), 0x4340_0000_0000_0001);
    assert_eq!(w[24], 0x7bff_7c00);
    assert_eq!(w[25], 0x3c01_3c00);
    assert_eq!(w[26], 0x3f80_2000);
    assert_eq!(w[27], 0x3f82_3f80);
    assert_eq!(w[28], 0x3f80_2000);
    assert_eq!(w[29] & 0xffff, 0x7eb0);
    assert_eq!(w[30], 0x3c00_4000);
    assert_eq!(w64(&w, 32), 0.125f64.to_bits());
    assert_eq!(w[34], 0x3f80_0000);
    assert_eq!(w[35], 0x3f80_0001);
    assert_eq!(w[36], 0x4000_0000);
    assert_eq!(w[37], 0x4040_0000);
    assert_eq!(w[38], 0);
    assert_eq!(w[39], 0x3f80_0000);
    assert_eq!(w[40], 0x7fff_8000);
    // e5m2 0x3c = 1.0, 0x44 = 4.0 -> f16 {1.0, 4.0}.
    assert_eq!(w[41], 0x3c00_4400);
    assert_eq!(w[42] & 0xffff, 0x3c44);
}

#[test]
fn compare_and_select() {
    let w = one(
        "mov.b32 %f1, 0x7fc00000;
         setp.lt.s32 %p1, -1, 0;            selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+0], %r1;
         setp.lo.u32 %p1, -1, 0;            selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+4], %r1;
         setp.hs.u32 %p1, 5, 5;             selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+8], %r1;
         setp.gt.f32 %p1, %f1, 0f00000000;  selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+12], %r1;
         setp.gtu.f32 %p1, %f1, 0f00000000; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+16], %r1;
         setp.ne.f32 %p1, %f1, %f1;         selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+20], %r1;
         setp.neu.f32 %p1, %f1, %f1;        selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+24], %r1;
         setp.eq.f32 %p1, 0f80000000, 0f00000000; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+28], %r1;
         setp.lt.and.s32 %p1|%p2, 1, 2, 1;
         selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0+32], %r1;
         selp.u32 %r1, 1, 0, %p2; st.global.u32 [%rd0+36], %r1;
         setp.lt.or.s32 %p3|%p4, 2, 1, 1;
         selp.u32 %r1, 1, 0, %p3; st.global.u32 [%rd0+40], %r1;
         selp.u32 %r1, 1, 0, %p4; st.global.u32 [%rd0+44], %r1;
         setp.gt.f16x2 %p5|%p6, 0x3c004400, 0x40004000;
         selp.u32 %r1, 1, 0, %p5; st.global.u32 [%rd0+48], %r1;
         selp.u32 %r1, 1, 0, %p6; st.global.u32 [%rd0+52], %r1;
         set.lt.u32.s32 %r2, -1, 0;         st.global.u32 [%rd0+56], %r2;
         set.lt.f32.s32 %r2, -1, 0;         st.global.u32 [%rd0+60], %r2;
         slct.s32.s32 %r3, 10, 20, -1;      st.global.u32 [%rd0+64], %r3;
         slct.s32.f32 %r3, 10, 20, 0f00000000; st.global.u32 [%rd0+68], %r3;
         setp.gt.and.f16x2 %p7|%p8, 0x3c004400, 0x40004000, 1;
         selp.u32 %r1, 1, 0, %p7; st.global.u32 [%rd0+72], %r1;
         selp.u32 %r1, 1, 0, %p8; st.global.u32 [%rd0+76], %r1;",
    );
    assert_eq!(w[0..8], [1, 0, 1, 0, 1, 0, 1, 1]);
    assert_eq!(w[8..12], [1, 0, 1, 1]);
    // Low halves 4.0 > 2.0 true, high halves 1.0 > 2.0 false: p for the
    // lower half, q for the upper.
    assert_eq!(w[12..14], [1, 0]);
    assert_eq!(w[14], 0xffff_ffff);
    assert_eq!(w[15], 0x3f80_0000);
    assert_eq!(w[16], 20);
    assert_eq!(w[17], 10);
    // With a BoolOp too (PTX ISA: p = BoolOp(t[0], c), q = BoolOp(t[1], c)).
    assert_eq!(w[18..20], [1, 0]);
}

#[test]
fn memory_spaces() {
    let module = ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};
        .global .align 8 .u64 gptr = generic(gtab)+8;
        .const .align 4 .f32 ctab[3] = {1.5, 0f40000000, -3};
        .shared .align 4 .u32 sbuf[8];
        .extern .shared .align 16 .b8 dyn[];";
    let w = one_with(
        module,
        "ld.global.u64 %rd1, [gptr];
         ld.u32 %r1, [%rd1];                st.global.u32 [%rd0+0], %r1;
         ld.const.f32 %f1, [ctab+4];        st.global.f32 [%rd0+4], %f1;
         ld.const.f32 %f1, [ctab+8];        st.global.f32 [%rd0+8], %f1;
         st.shared.u32 [sbuf+12], 77;
         mov.u64 %rd2, sbuf;
         cvta.shared.u64 %rd3, %rd2;
         ld.u32 %r2, [%rd3+12];             st.global.u32 [%rd0+12], %r2;
         mov.u64 %rd4, dyn;
         cvta.shared.u64 %rd5, %rd4;
         st.v2.u32 [%rd5], {5, 6};
         ld.shared.v2.u32 {%r3, %r4}, [dyn];
         st.global.v2.u32 [%rd0+16], {%r3, %r4};
         cvta.to.shared.u64 %rd6, %rd5;
         sub.u64 %rd7, %rd6, %rd2;          st.global.u64 [%rd0+24], %rd7;
         isspacep.shared %p1, %rd5;         selp.u32 %r5, 1, 0, %p1; st.global.u32 [%rd0+32], %r5;
         isspacep.global %p1, %rd5;         selp.u32 %r5, 1, 0, %p1; st.global.u32 [%rd0+36], %r5;
         mov.u32 %r6, %dynamic_smem_size;   st.global.u32 [%rd0+40], %r6;
         {
            .local .align 8 .b8 arr[16];
            .reg .u64 %l<4>;
            mov.u64 %l1, arr;
            st.local.u32 [%l1+8], 99;
            cvta.local.u64 %l2, %l1;
            ld.u32 %r7, [%l2+8];            st.global.u32 [%rd0+44], %r7;
         }
         ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [gtab];
         add.u32 %r12, %r8, %r11;           st.global.u32 [%rd0+48], %r12;",
    );
    assert_eq!(w[0], 30);
    assert_eq!(w[1], 0x4000_0000);
    assert_eq!(w[2], (-3.0f32).to_bits());
    assert_eq!(w[3], 77);
    assert_eq!(w[4..6], [5, 6]);
    // The dynamic region starts after the static 32 bytes.
    assert_eq!(w64(&w, 6), 32);
    assert_eq!(w[8..10], [1, 0]);
    assert_eq!(w[10], 256);
    assert_eq!(w[11], 99);
    assert_eq!(w[12], 50);
}

#[test]
fn atomics() {
    // 64 threads (two warps) on global and shared memory.
    let text = kernel(
        ".shared .align 8 .u64 s64;
         .shared .align 4 .u32 s32[4];",
        "mov.u32 %r1, %tid.x;
         setp.eq.u32 %p1, %r1, 0;
         @%p1 st.shared.u32 [s32], 0;
         @%p1 st.shared.u32 [s32+4], 0x7fffffff;
         @%p1 st.shared.u32 [s32+8], 0;
         @%p1 st.shared.u64 [s64], 0;
         bar.sync 0;
         atom.global.add.u32 %r2, [%rd0], 1;
         mul.wide.u32 %rd1, %r1, 4;
         add.u64 %rd2, %rd0, %rd1;
         st.global.u32 [%rd2+256], %r2;        // the old values
         atom.shared.add.u32 %r3, [s32], %r1;
         atom.shared.min.s32 %r4, [s32+4], %r1;
         sub.s32 %r5, 0, %r1;
         atom.shared.min.s32 %r4, [s32+4], %r5;
         atom.shared.or.b32 %r6, [s32+8], %r1;
         cvt.u64.u32 %rd3, %r1;
         atom.shared.add.u64 %rd4, [s64], %rd3;
         cvt.rn.f32.u32 %f1, %r1;
         red.global.add.f32 [%rd0+4], %f1;
         atom.global.inc.u32 %r7, [%rd0+8], 9;
         atom.global.dec.u32 %r8, [%rd0+12], 5;
         atom.global.max.u32 %r9, [%rd0+16], %r1;
         atom.global.xor.b32 %r10, [%rd0+20], %r1;
         atom.global.exch.b32 %r11, [%rd0+24], %r1;
         // A lock-free increment with cas.
$retry:
         ld.volatile.global.u32 %r12, [%rd0+28];
         add.u32 %r13, %r12, 2;
         atom.global.cas.b32 %r14, [%rd0+28], %r12, %r13;
         setp.ne.u32 %p2, %r14, %r12;
         @%p2 bra $retry;
         bar.sync 0;
         @%p1 ld.shared.u32 %r15, [s32];
         @%p1 st.global.u32 [%rd0+32], %r15;
         @%p1 ld.shared.u32 %r15, [s32+4];
         @%p1 st.global.u32 [%rd0+36], %r15;
         @%p1 ld.shared.u32 %r15, [s32+8];
         @%p1 st.global.u32 [%rd0+40], %r15;
         @%p1 ld.shared.u64 %rd5, [s64];
         @%p1 st.global.u64 [%rd0+48], %rd5;",
    );
    let w = run_words(&text, 64, 128).unwrap();
    assert_eq!(w[0], 64);
    assert_eq!(f32::from_bits(w[1]), (0..64).sum::<u32>() as f32);
    // inc wraps at 9: 64 increments from 0 end at 64 % 10 = 4.
    assert_eq!(w[2], 4);
    // dec from 0 with limit 5: 0 -> 5 -> 4 ... -> 0 -> 5: 64 steps end at 2.
    assert_eq!(w[3], 2);
    assert_eq!(w[4], 63);
    assert_eq!(w[5], (0..64).fold(0, |a, b| a ^ b));
    assert!(w[6] < 64);
    assert_eq!(w[7], 128);
    assert_eq!(w[8], (0..64).sum::<u32>());
    assert_eq!(w[9], (-63i32) as u32);
    assert_eq!(w[10], 63);
    assert_eq!(w64(&w, 12), (0..64).sum::<u64>());
    // Serialized in lane order, warp after warp: thread i saw i.
    let mut old: Vec<u32> = w[64..128].to_vec();
    assert_eq!(old, (0..64).collect::<Vec<_>>());
    old.sort();
}

#[test]
fn special_registers() {
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry t(.param .u64 t_out)\n{\n\
        .reg .b32 %r<20>;\n.reg .b64 %rd<4>;\n\
        ld.param.u64 %rd0, [t_out];\n\
        mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; mov.u32 %r3, %tid.z;\n\
        mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y;\n\
        mov.u32 %r6, %ctaid.x; mov.u32 %r7, %ctaid.y; mov.u32 %r8, %nctaid.x;\n\
        mad.lo.u32 %r9, %r3, %r5, %r2;\n mad.lo.u32 %r9, %r9, %r4, %r1;\n\
        mad.lo.u32 %r10, %r7, %r8, %r6;\n mov.u32 %r11, %ntid.z;\n mul.lo.u32 %r12, %r4, %r5;\n mul.lo.u32 %r12, %r12, %r11;\n\
        mad.lo.u32 %r13, %r10, %r12, %r9;\n\
        shl.b32 %r14, %r6, 24; shl.b32 %r15, %r7, 16; or.b32 %r14, %r14, %r15; shl.b32 %r15, %r3, 8; or.b32 %r14, %r14, %r15;\n\
        shl.b32 %r15, %r2, 4; or.b32 %r14, %r14, %r15; or.b32 %r14, %r14, %r1;\n\
        mov.u32 %r16, %laneid; shl.b32 %r16, %r16, 8; mov.u32 %r17, %warpid; or.b32 %r16, %r16, %r17;\n\
        mov.u32 %r18, %lanemask_lt; popc.b32 %r18, %r18; mov.u32 %r19, %laneid;\n\
        mul.wide.u32 %rd1, %r13, 16; add.u64 %rd2, %rd0, %rd1;\n\
        st.global.v4.u32 [%rd2], {%r14, %r16, %r18, %r19};\n\
        ret;\n}\n";
    let mut emu = ptx_emu::Emulator::from_ptx(text).unwrap();
    let (grid, block) = (ptx_emu::Dim3::xy(2, 3), ptx_emu::Dim3::new(4, 3, 5));
    let n = (grid.count() * block.count()) as usize;
    let mut args = [ptx_emu::KernelArg::Buffer(ptx_emu::Buffer::from_slice(
        &vec![0u32; 4 * n],
    ))];
    let cfg = ptx_emu::LaunchConfig {
        grid,
        block,
        dynamic_smem: 0,
    };
    emu.launch("t", cfg, &mut args).unwrap();
    let w: Vec<u32> = args[0].buffer().unwrap().to_vec();
    for cy in 0..3u32 {
        for cx in 0..2u32 {
            for z in 0..5u32 {
                for y in 0..3u32 {
                    for x in 0..4u32 {
                        let linear = (z * 3 + y) * 4 + x;
                        let g = ((cy * 2 + cx) * 60 + linear) as usize;
                        let ids = (cx << 24) | (cy << 16) | (z << 8) | (y << 4) | x;
                        assert_eq!(w[4 * g], ids);
                        assert_eq!(w[4 * g + 1], ((linear % 32) << 8) | (linear / 32));
                        assert_eq!(w[4 * g + 2], linear % 32);
                        assert_eq!(w[4 * g + 3], linear % 32);
                    }
                }
            }
        }
    }
}

/// Newer forms: lop3 with a predicate, three-input min/max, mixed-precision
/// and packed f32x2 arithmetic, cvt.pack to 16 bits, constant expressions in
/// initializers.
#[test]
fn newer_forms() {
    let w = one_with(
        ".global .align 4 .u32 consts[3] = {(1 << 4) | 3, 100 / 7 * 2, 0xFFFFFFFFU & ~0xFF};",
        "lop3.or.b32 %r1|%p1, 0xf0, 0x0f, 0, 0xfe, 0;  // a | b | c = 0xff, p = (d != 0) | false
         selp.u32 %r2, 1, 0, %p1;
         st.global.v2.u32 [%rd0], {%r1, %r2};
         lop3.and.b32 %r3|%p2, 0xf0, 0x0f, 0, 0x80, 1;  // a & b & c = 0, p = false & true
         selp.u32 %r4, 1, 0, %p2;
         st.global.v2.u32 [%rd0+8], {%r3, %r4};
         min.f32 %f1, 0f40000000, 0f3F800000, 0f40400000;
         max.NaN.f32 %f2, 0f40000000, 0f7FC00000, 0f40400000;
         st.global.v2.f32 [%rd0+16], {%f1, %f2};
         mov.b16 %h1, 0x3e00;                     // f16 1.5
         add.rn.f32.f16 %f3, %h1, 0f3F800000;     // 2.5
         fma.rn.f32.f16 %f4, %h1, %h1, 0f3F800000; // 3.25
         st.global.v2.f32 [%rd0+24], {%f3, %f4};
         mov.f32 %f5, 0f3F800000;
         mov.f32 %f6, 0f40000000;
         mov.b64 %rd2, {%f5, %f6};                // {1, 2}
         add.rn.f32x2 %rd3, %rd2, %rd2;           // {2, 4}
         fma.rn.f32x2 %rd4, %rd3, %rd2, %rd2;     // {3, 10}
         st.global.v2.u64 [%rd0+32], {%rd3, %rd4};
         cvt.pack.sat.u16.s32 %r5, -5, 70000;
         st.global.u32 [%rd0+48], %r5;
         ld.global.v2.u32 {%r6, %r7}, [consts];
         ld.global.u32 %r8, [consts+8];
         st.global.u32 [%rd0+52], %r6;
         st.global.u32 [%rd0+56], %r7;
         st.global.u32 [%rd0+60], %r8;",
    );
    assert_eq!(w[0..4], [0xff, 1, 0, 0]);
    assert_eq!(f32::from_bits(w[4]), 1.0);
    assert_eq!(w[5], 0x7fff_ffff);
    assert_eq!(f32::from_bits(w[6]), 2.5);
    assert_eq!(f32::from_bits(w[7]), 3.25);
    assert_eq!((f32::from_bits(w[8]), f32::from_bits(w[9])), (2.0, 4.0));
    assert_eq!((f32::from_bits(w[10]), f32::from_bits(w[11])), (3.0, 10.0));
    assert_eq!(w[12], 0x0000_ffff);
    assert_eq!(w[13..16], [19, 28, 0xffff_ff00]);
}

/// Every PTX file of test-data (including the malformed ones of
/// `syntax/err` and `rejected/`) prepares without panicking; the accepted
/// ones prepare without error.
#[test]
fn test_data_modules_prepare() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&common::test_data(), &mut files);
    assert!(files.len() > 50);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (module, _) = ptx_ir::lower_module(&ptx_syntax::parse(&text));
        let result = ptx_emu::Emulator::with_source(&module, &text);
        let malformed = path.components().any(|c| {
            let c = c.as_os_str();
            c == "err" || c == "rejected"
        });
        if !malformed {
            if let Err(e) = result {
                panic!("{}: {e}", path.display());
            }
        }
    }
}

#[test]
fn stochastic_rounding_conversions() {
    // 1 + 2^-11 is half way between two f16 values: random bits of 0x1000
    // (of 13) round it up, 0x0fff down; a (upper half) and b (lower half)
    // take the upper and lower 13-bit fields of rbits.
    let w = one("mov.f32 %f1, 0f3F801000;
         mov.b32 %r1, 0x10000fff;
         cvt.rs.f16x2.f32 %r2, %f1, %f1, %r1;   st.global.u32 [%rd0+0], %r2;
         mov.f32 %f2, 0f3FA00000;
         mov.b32 %r3, 0x80008000;
         cvt.rs.satfinite.e2m1x4.f32 %h1, {%f2, %f2, %f2, %f2}, %r3;
         cvt.u32.u16 %r4, %h1;                  st.global.u32 [%rd0+4], %r4;
         mov.f32 %f3, 0f3F800000;
         cvt.rs.satfinite.e4m3x4.f32 %r5, {%f3, %f3, %f3, %f3}, %r3;
         st.global.u32 [%rd0+8], %r5;");
    assert_eq!(w[0], 0x3c01_3c00);
    assert_eq!(w[1], 0x3322);
    assert_eq!(w[2], 0x3838_3838);
}

#[test]
fn managed_variables_are_global_memory() {
    let w = one_with(
        ".global .attribute(.managed) .align 4 .u32 mc = 5;\n\
         .global .attribute(.managed) .align 8 .f64 ms = 0d3FF0000000000000;",
        "mov.u64 %rd1, mc;
         ld.global.u32 %r1, [%rd1];
         add.u32 %r1, %r1, 1;
         st.global.u32 [mc], %r1;
         ld.global.u32 %r2, [mc];             st.global.u32 [%rd0], %r2;
         ld.global.f64 %fd1, [ms];            st.global.f64 [%rd0+8], %fd1;",
    );
    assert_eq!(w[0], 6);
    assert_eq!(w64(&w, 2), 1f64.to_bits());
}
