//! The SIMD video instructions (`vadd2`, `vabsdiff4`, `vset2`, ...) against
//! values computed by hand from the PTX ISA's definition: elements selected
//! from `{b, a}`, `.sat` clamping to the element range, the merge into `c`
//! under the destination mask, and the `.add` accumulate.

mod common;

use common::one;

fn simd(inst: &str, a: u32, b: u32, c: u32) -> u32 {
    let w = one(&format!(
        "mov.b32 %r1, {a:#x};\n mov.b32 %r2, {b:#x};\n mov.b32 %r3, {c:#x};\n {inst};\n st.global.u32 [%rd0], %r4;"
    ));
    w[0]
}

#[test]
fn half_word_forms() {
    let (a, b) = (0x8001_7fff, 0x0002_fffe);
    assert_eq!(
        simd("vadd2.u32.u32.u32 %r4, %r1, %r2, %r3", a, b, 0),
        0x8003_7ffd
    );
    let (a, b) = (0x7fff_7fff, 0x0001_8000);
    // Signed: -1 and 32768 clamped to 32767; unsigned: 0xffff and 0x8000.
    assert_eq!(
        simd("vadd2.s32.s32.s32.sat %r4, %r1, %r2, %r3", a, b, 0),
        0x7fff_ffff
    );
    assert_eq!(
        simd("vadd2.u32.u32.u32.sat %r4, %r1, %r2, %r3", a, b, 0),
        0x8000_ffff
    );
    // Only element 0 is written; element 1 comes from c.
    assert_eq!(
        simd(
            "vmin2.s32.s32.s32 %r4.h0, %r1, %r2, %r3",
            0x0005_fff0,
            0x0003_0002,
            0xabcd_1234
        ),
        0xabcd_fff0
    );
    // Two comparisons true, summed into c.
    assert_eq!(
        simd(
            "vset2.s32.s32.lt.add %r4, %r1, %r2, %r3",
            0xffff_0001,
            2,
            10
        ),
        12
    );
    // Selectors: a.h32 takes b's half-words, b.h10 a's.
    assert_eq!(
        simd(
            "vmax2.u32.u32.u32 %r4, %r1.h32, %r2.h10, %r3",
            0x0001_0009,
            0x0005_0003,
            0
        ),
        0x0005_0009
    );
    // Rounded average: (1+2+1)>>1 and (-3-4+0)>>1 (rounds towards -inf when negative).
    assert_eq!(
        simd(
            "vavrg2.s32.s32.s32 %r4, %r1, %r2, %r3",
            0x0001_fffd,
            0x0002_fffc,
            0
        ),
        0x0002_fffc
    );
    // |0x7fff - 0xfffe| as unsigned halves, then summed: 0x7fff + 1.
    assert_eq!(
        simd(
            "vabsdiff2.u32.u32.u32.add %r4, %r1, %r2, %r3",
            0x0001_7fff,
            0x0000_fffe,
            5
        ),
        0x7fff + 1 + 5
    );
    assert_eq!(
        simd(
            "vsub2.u32.u32.u32 %r4, %r1, %r2, %r3",
            0x0000_0005,
            0x0001_0007,
            0
        ),
        0xffff_fffe
    );
}

#[test]
fn byte_forms() {
    // Sum of absolute differences: 3 + 1 + 1 + 3, plus c.
    assert_eq!(
        simd(
            "vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r3",
            0x0102_0304,
            0x0403_0201,
            100
        ),
        108
    );
    assert_eq!(
        simd(
            "vavrg4.u32.u32.u32 %r4, %r1, %r2, %r3",
            0x01ff_0003,
            0x02ff_0104,
            0
        ),
        0x02ff_0104
    );
    assert_eq!(
        simd(
            "vset4.u32.u32.gt %r4, %r1, %r2, %r3",
            0x0501_ff00,
            0x0402_fe00,
            0
        ),
        0x0100_0100
    );
    // 0x10-5, 0-1, 127-(-1) clamped, -128-1 clamped.
    assert_eq!(
        simd(
            "vsub4.s32.s32.s32.sat %r4, %r1, %r2, %r3",
            0x807f_0010,
            0x01ff_0105,
            0
        ),
        0x807f_ff0b
    );
    // Mask .b20: bytes 0 and 2 written, 1 and 3 from c.
    assert_eq!(
        simd(
            "vadd4.u32.u32.u32 %r4.b20, %r1, %r2, %r3",
            0x0101_0101,
            0x0101_0101,
            0xaabb_ccdd
        ),
        0xaa02_cc02
    );
    // Selectors: a.b4567 reverses b's bytes into the elements.
    assert_eq!(
        simd(
            "vmin4.u32.u32.u32 %r4, %r1.b4567, %r2.b3210, %r3",
            0xffff_ffff,
            0x0102_0304,
            0
        ),
        0x0403_0201
    );
    assert_eq!(
        simd(
            "vmax4.s32.s32.s32.add %r4, %r1, %r2, %r3",
            0x80ff_0102,
            0x7f00_0201,
            0
        ),
        0x7f + 2 + 2
    );
}
