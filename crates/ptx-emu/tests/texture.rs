//! Textures, samplers and surfaces against values computed here from the
//! texture-fetching formulas (CUDA programming guide, appendix "Texture
//! Fetching", which the PTX ISA's `tex` refers to for filtering): nearest
//! point sampling `T[floor(x)]`, linear filtering `(1-a)(1-b) T[i,j] + a(1-b)
//! T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1]` with `i = floor(x - 0.5)`, `a
//! = frac(x - 0.5)` in 9-bit fixed point, the addressing modes wrap, clamp,
//! mirror and border on texel indices, normalized coordinates scaled by the
//! size; cube-map face selection; surface byte addressing with `.trap`,
//! `.clamp`, `.zero`; formatted stores; reductions; queries.

use ptx_emu::texture::{AddrMode, ChannelType, Filter, Format, Image, Sampler};
use ptx_emu::{Buffer, Dim3, Emulator, ErrorKind, KernelArg, LaunchConfig};

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

fn cfg(threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(threads),
        dynamic_smem: 0,
    }
}

/// A one-channel `f32` image, texel `(x, y, 0, layer)` = `f(x, y, layer)`.
fn image_r32(w: u32, h: u32, layers: u32, f: impl Fn(u32, u32, u32) -> f32) -> Image {
    let fmt = Format {
        ty: ChannelType::F32,
        channels: 1,
    };
    let mut img = Image::zeroed(w, h, 1, layers, fmt);
    for l in 0..layers {
        for y in 0..h {
            for x in 0..w {
                let off = (((l * h) + y) * w + x) as usize * 4;
                img.bytes[off..off + 4].copy_from_slice(&f(x, y, l).to_le_bytes());
            }
        }
    }
    img
}

/// Texel index `i` of a dimension of `n` under `mode`, from the mode's
/// definition (border: `None`).
fn address(mode: AddrMode, i: i64, n: i64) -> Option<i64> {
    match mode {
        AddrMode::Wrap => Some(((i % n) + n) % n),
        AddrMode::Clamp => Some(i.max(0).min(n - 1)),
        AddrMode::Mirror => {
            // Period 2n: 0..n-1 forwards, then n-1..0.
            let p = ((i % (2 * n)) + 2 * n) % (2 * n);
            Some(if p >= n { 2 * n - 1 - p } else { p })
        }
        AddrMode::Border => (i >= 0 && i < n).then_some(i),
    }
}

/// The reference 2D fetch of channel R of a one-channel image (border
/// texels 0).
fn reference_2d(img: &[Vec<f32>], x: f32, y: f32, s: &Sampler) -> f32 {
    let (h, w) = (img.len() as i64, img[0].len() as i64);
    let mut modes = [s.addr[0], s.addr[1]];
    if !s.normalized {
        // Wrap and mirror need normalized coordinates.
        for m in modes.iter_mut() {
            if matches!(m, AddrMode::Wrap | AddrMode::Mirror) {
                *m = AddrMode::Clamp;
            }
        }
    }
    let (u, v) = if s.normalized {
        (x * w as f32, y * h as f32)
    } else {
        (x, y)
    };
    let t = |i: i64, j: i64| match (address(modes[0], i, w), address(modes[1], j, h)) {
        (Some(i), Some(j)) => img[j as usize][i as usize],
        _ => 0.0,
    };
    if s.filter == Filter::Point {
        return t(u.floor() as i64, v.floor() as i64);
    }
    let (xb, yb) = (u - 0.5, v - 0.5);
    let (i, j) = (xb.floor() as i64, yb.floor() as i64);
    let q = |f: f32| (f * 256.0).round() / 256.0;
    let (a, b) = (q(xb - xb.floor()), q(yb - yb.floor()));
    (1.0 - a) * (1.0 - b) * t(i, j)
        + a * (1.0 - b) * t(i + 1, j)
        + (1.0 - a) * b * t(i, j + 1)
        + a * b * t(i + 1, j + 1)
}

const TEX2D: &str = "
.visible .entry k(.param .u64 t, .param .u64 coords, .param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [t];
    ld.param.u64 %rd2, [coords];
    ld.param.u64 %rd3, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 8;
    add.s64 %rd5, %rd2, %rd4;
    ld.global.v2.f32 {%f1, %f2}, [%rd5];
    tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
    mul.wide.u32 %rd6, %r1, 16;
    add.s64 %rd7, %rd3, %rd6;
    st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};
    ret;
}";

/// Runs `tex.2d` at `coords` on `img` with `sampler`; the four channels of
/// each fetch.
fn fetch_2d(img: &Image, sampler: Sampler, coords: &[(f32, f32)]) -> Vec<[f32; 4]> {
    let mut emu = Emulator::from_ptx(&format!("{HEADER}{TEX2D}")).unwrap();
    let flat: Vec<f32> = coords.iter().flat_map(|&(x, y)| [x, y]).collect();
    let mut args = [
        KernelArg::Texture {
            image: img.clone(),
            sampler,
        },
        KernelArg::Buffer(Buffer::from_slice(&flat)),
        KernelArg::Buffer(Buffer::from_slice(&vec![0f32; coords.len() * 4])),
    ];
    emu.launch("k", cfg(coords.len() as u32), &mut args)
        .unwrap();
    args[2]
        .buffer()
        .unwrap()
        .to_vec::<f32>()
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

fn coords() -> Vec<(f32, f32)> {
    let xs = [
        -7.3, -1.0, -0.5, -0.2, 0.0, 0.25, 0.5, 0.75, 1.0, 1.3, 2.5, 3.9, 4.5, 4.99, 5.0, 5.5, 9.7,
        12.0,
    ];
    let mut out = Vec::new();
    for (k, &x) in xs.iter().enumerate() {
        let y = [-1.5, 0.0, 0.4, 1.0, 1.75, 2.5, 3.0, 4.2][k % 8];
        out.push((x, y));
        out.push((x / 5.0, y / 3.0));
    }
    out
}

#[test]
fn tex_2d_filtering_and_addressing_match_the_formulas() {
    let (w, h) = (5u32, 3u32);
    let value = |x: u32, y: u32| 1.0 + 2.0 * x as f32 + 16.0 * y as f32;
    let img = image_r32(w, h, 1, |x, y, _| value(x, y));
    let table: Vec<Vec<f32>> = (0..h)
        .map(|y| (0..w).map(|x| value(x, y)).collect())
        .collect();
    let cs = coords();
    let modes = [
        AddrMode::Wrap,
        AddrMode::Clamp,
        AddrMode::Mirror,
        AddrMode::Border,
    ];
    let mut checked = 0;
    for filter in [Filter::Point, Filter::Linear] {
        for normalized in [false, true] {
            for &m0 in &modes {
                for &m1 in &modes {
                    let s = Sampler {
                        addr: [m0, m1, AddrMode::Clamp],
                        filter,
                        normalized,
                        force_unnormalized: false,
                    };
                    let got = fetch_2d(&img, s, &cs);
                    for (&(x, y), g) in cs.iter().zip(&got) {
                        let want = reference_2d(&table, x, y, &s);
                        assert_eq!(
                            g[0].to_bits(),
                            want.to_bits(),
                            "{s:?} at ({x}, {y}): got {}, want {want}",
                            g[0]
                        );
                        // One channel: G and B read 0, A reads 1 (border: 0).
                        assert_eq!(g[1], 0.0);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
    // Spot checks by hand: linear at (1.0, 0.5) unnormalized blends texels
    // (0,0) and (1,0) half and half: (1 + 3) / 2.
    let lin = Sampler {
        filter: Filter::Linear,
        ..Sampler::default()
    };
    let got = fetch_2d(&img, lin, &[(1.0, 0.5), (0.5, 0.5), (1.25, 1.0)]);
    assert_eq!(got[0][0], 2.0);
    assert_eq!(got[1][0], 1.0);
    // (1.25, 1.0): x blends texels 0 and 1 with a = 0.75, y texels 0 and 1
    // with b = 0.5: 0.25*0.5*1 + 0.75*0.5*3 + 0.25*0.5*17 + 0.75*0.5*19.
    assert_eq!(got[2][0], 0.125 + 1.125 + 2.125 + 7.125);
    assert_eq!(got[2][3], 1.0);
    // Point sampling, border: outside reads 0 in every channel.
    let border = Sampler {
        addr: [AddrMode::Border; 3],
        ..Sampler::default()
    };
    let got = fetch_2d(&img, border, &[(-0.5, 0.0), (4.5, 2.5)]);
    assert_eq!(got[0], [0.0; 4]);
    assert_eq!(got[1], [value(4, 2), 0.0, 0.0, 1.0]);
}

#[test]
fn weights_have_eight_fraction_bits() {
    // Between texels 0 (value 0) and 1 (value 1) the result is the weight.
    let img = image_r32(2, 1, 1, |x, _, _| x as f32);
    let lin = Sampler {
        filter: Filter::Linear,
        ..Sampler::default()
    };
    let xs = [0.5 + 0.1, 0.5 + 1.0 / 512.0, 0.5 + 0.999];
    let got = fetch_2d(&img, lin, &xs.map(|x| (x, 0.5)));
    assert_eq!(got[0][0], (0.1f32 * 256.0).round() / 256.0);
    assert_eq!(got[1][0], 1.0 / 256.0);
    assert_eq!(got[2][0], 1.0);
}

fn run(ptx: &str, args: &mut [KernelArg], threads: u32) -> Result<(), ptx_emu::EmuError> {
    let mut emu = Emulator::from_ptx(&format!("{HEADER}{ptx}")).unwrap();
    emu.launch("k", cfg(threads), args).map(|_| ())
}

#[test]
fn integer_coordinates_gather_cube_and_arrays() {
    let ptx = "
.visible .entry k(.param .u64 t, .param .u64 c, .param .u64 out)
{
    .reg .b32 %r<40>;
    .reg .f32 %f<40>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [t];
    ld.param.u64 %rd2, [c];
    ld.param.u64 %rd3, [out];
    mov.u32 %r1, %tid.x;
    sub.s32 %r2, %r1, 2;
    // s32 coordinates: texel indices, clamped.
    tex.2d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2, %r1}];
    // Layer 1 of the array, integer result of a float texture: its bits.
    mov.u32 %r7, 1;
    cvt.rn.f32.u32 %f1, %r1;
    add.f32 %f1, %f1, 0f3F000000;
    tex.a2d.v4.u32.f32 {%r8, %r9, %r10, %r11}, [%rd1, {%r7, %f1, %f1, %f1}];
    // Gather the R channel around (1.0, 1.0) unnormalized: texels 0 and 1.
    mov.f32 %f2, 0f3F800000;
    tld4.r.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f2, %f2}];
    // Cube faces: direction from the buffer.
    mul.wide.u32 %rd4, %r1, 12;
    add.s64 %rd5, %rd2, %rd4;
    ld.global.f32 %f7, [%rd5];
    ld.global.f32 %f8, [%rd5+4];
    ld.global.f32 %f9, [%rd5+8];
    tex.cube.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd1, {%f7, %f8, %f9, %f9}];
    // An offset of (+1, 0) texels.
    tex.2d.v4.f32.f32 {%f14, %f15, %f16, %f17}, [%rd1, {%f2, %f2}], {1, 0};
    // Depth compare against 3.5: texel value >= 3.5 gives 1.
    mov.f32 %f18, 0f40600000;
    tex.2d.v4.f32.f32 {%f19, %f20, %f21, %f22}, [%rd1, {%f1, %f2}], %f18;
    mul.wide.u32 %rd6, %r1, 64;
    add.s64 %rd7, %rd3, %rd6;
    st.global.v4.u32 [%rd7], {%r3, %r4, %r8, %r9};
    st.global.v4.f32 [%rd7+16], {%f3, %f4, %f5, %f6};
    st.global.v4.f32 [%rd7+32], {%f10, %f14, %f19, %f20};
    ret;
}";
    // 4x4, 6 layers; texel = x + 4y + 100 layer.
    let value = |x: u32, y: u32, l: u32| (x + 4 * y + 100 * l) as f32;
    let img = image_r32(4, 4, 6, value);
    // Directions at each face's centre: +x, -x, +y, -y, +z, -z.
    let dirs: [[f32; 3]; 6] = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let flat: Vec<f32> = dirs.iter().flatten().copied().collect();
    let mut args = [
        KernelArg::Texture {
            image: img,
            sampler: Sampler::default(),
        },
        KernelArg::Buffer(Buffer::from_slice(&flat)),
        KernelArg::Buffer(Buffer::from_slice(&[0u32; 6 * 16])),
    ];
    run(ptx, &mut args, 6).unwrap();
    let out: Vec<u32> = args[2].buffer().unwrap().to_vec();
    for t in 0..6u32 {
        let o = &out[t as usize * 16..];
        let x = (t as i32 - 2).clamp(0, 3) as u32;
        let y = t.min(3);
        // tex.2d with s32 coordinates on a float texture, integer result:
        // the texel's bits; the missing G channel reads 0.
        assert_eq!(o[0], value(x, y, 0).to_bits(), "thread {t}");
        assert_eq!(o[1], 0);
        let c = (t as f32 + 0.5).floor().min(3.0) as u32;
        assert_eq!(o[2], value(c, c, 1).to_bits());
        // tld4 around (1, 1): i = j = 0; (0,1), (1,1), (1,0), (0,0).
        let g: Vec<f32> = o[4..8].iter().map(|b| f32::from_bits(*b)).collect();
        assert_eq!(
            g,
            [
                value(0, 1, 0),
                value(1, 1, 0),
                value(1, 0, 0),
                value(0, 0, 0)
            ]
        );
        // The centre of face f, (s, t) = (0.5, 0.5): texel (2, 2) of layer f.
        assert_eq!(f32::from_bits(o[8]), value(2, 2, t), "face {t}");
        assert_eq!(f32::from_bits(o[9]), value(2, 1, 0));
        let v = value(c, 1, 0);
        assert_eq!(f32::from_bits(o[10]), if 3.5 <= v { 1.0 } else { 0.0 });
        assert_eq!(f32::from_bits(o[11]), 0.0, "G (0) against 3.5");
    }
}

#[test]
fn normalized_formats_and_half_results() {
    let ptx = "
.visible .entry k(.param .u64 t, .param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b16 %h<8>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [t];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];
    tex.1d.v4.f16.s32 {%h1, %h2, %h3, %h4}, [%rd1, {%r1}];
    tex.1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r1}];
    mul.wide.u32 %rd3, %r1, 48;
    add.s64 %rd4, %rd2, %rd3;
    st.global.v4.f32 [%rd4], {%f1, %f2, %f3, %f4};
    st.global.v4.b16 [%rd4+16], {%h1, %h2, %h3, %h4};
    st.global.v4.u32 [%rd4+32], {%r2, %r3, %r4, %r5};
    ret;
}";
    let fmt = Format {
        ty: ChannelType::Unorm8,
        channels: 4,
    };
    let mut img = Image::zeroed(2, 1, 1, 1, fmt);
    img.bytes.copy_from_slice(&[0, 51, 255, 128, 1, 2, 3, 4]);
    let mut args = [
        KernelArg::Texture {
            image: img,
            sampler: Sampler::default(),
        },
        KernelArg::Buffer(Buffer::from_slice(&[0u32; 24])),
    ];
    run(ptx, &mut args, 2).unwrap();
    let out: Vec<u32> = args[1].buffer().unwrap().to_vec();
    let f = |i: usize| f32::from_bits(out[i]);
    assert_eq!([f(0), f(1), f(2), f(3)], [0.0, 0.2, 1.0, 128.0 / 255.0]);
    // f16 of 0.2 and 1.0.
    assert_eq!(out[4], 0x3266 << 16);
    assert_eq!(out[5] & 0xffff, 0x3c00);
    // Integer results read the unnormalized channel.
    assert_eq!(&out[8..12], &[0, 51, 255, 128]);
    assert_eq!(&out[12 + 8..12 + 12], &[1, 2, 3, 4]);
}

#[test]
fn independent_mode_samplers_and_queries() {
    let ptx = "
.global .samplerref lin = { filter_mode = linear, addr_mode_0 = clamp_to_border };
.global .texref img;
.visible .entry k(.param .texref t, .param .samplerref s, .param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .f32 %f<20>;
    .reg .pred %p<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.f32 %f1, 0f3F800000;
    mov.f32 %f2, 0f3F000000;
    // The texture parameter with the module's linear sampler, then with the
    // parameter sampler (point), then its own.
    tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [t, lin, {%f1, %f2}];
    tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [t, s, {%f1, %f2}];
    txq.width.b32 %r1, [t];
    txq.height.b32 %r2, [t];
    txq.array_size.b32 %r3, [t];
    txq.channel_data_type.b32 %r4, [t];
    txq.channel_order.b32 %r5, [t];
    txq.filter_mode.b32 %r6, [lin];
    txq.addr_mode_0.b32 %r7, [lin];
    txq.level.width.b32 %r8, [t], 1;
    txq.width.b32 %r9, [img];
    mov.u64 %rd2, img;
    istypep.texref %p1, %rd2;
    istypep.surfref %p2, %rd2;
    selp.u32 %r10, 1, 0, %p1;
    selp.u32 %r11, 1, 0, %p2;
    st.global.v2.f32 [%rd1], {%f3, %f7};
    st.global.v4.u32 [%rd1+16], {%r1, %r2, %r3, %r4};
    st.global.v4.u32 [%rd1+32], {%r5, %r6, %r7, %r8};
    st.global.v4.u32 [%rd1+48], {%r9, %r10, %r11, %r11};
    ret;
}";
    let img = image_r32(6, 2, 3, |x, _, _| x as f32 * 10.0);
    let mut args = [
        KernelArg::Texture {
            image: img,
            sampler: Sampler::default(),
        },
        KernelArg::Sampler(Sampler::default()),
        KernelArg::Buffer(Buffer::from_slice(&[0u32; 16])),
    ];
    run(ptx, &mut args, 1).unwrap();
    let out: Vec<u32> = args[2].buffer().unwrap().to_vec();
    // Linear at x = 1.0: half of texel 0 (0) and texel 1 (10).
    assert_eq!(f32::from_bits(out[0]), 5.0);
    assert_eq!(f32::from_bits(out[1]), 10.0);
    assert_eq!(&out[4..8], &[6, 2, 3, 0x10DE]);
    assert_eq!(&out[8..12], &[0x10B0, 1, 3, 3]);
    // The module's texref: the default 32-wide image; a texture handle.
    assert_eq!(&out[12..15], &[32, 1, 0]);
}

#[test]
fn module_texrefs_read_their_default_image() {
    let ptx = "
.global .texref tex_1d;
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    tex.1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [tex_1d, {%r1}];
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};
    ret;
}";
    let mut args = [KernelArg::Buffer(Buffer::from_slice(&[0u32; 40 * 4]))];
    run(ptx, &mut args, 40).unwrap();
    let out: Vec<u32> = args[0].buffer().unwrap().to_vec();
    let img = Image::default_texture(ptx_emu::layout::name_seed("tex_1d"));
    for t in 0..40usize {
        let x = t.min(31);
        let texel: Vec<u32> = img.bytes[x * 16..x * 16 + 16]
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(&out[t * 4..t * 4 + 4], &texel[..], "thread {t}");
    }
}

const SURF: &str = "
.visible .entry k(.param .u64 s, .param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [s];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 7;
    shr.u32 %r3, %r1, 3;
    shl.b32 %r4, %r2, 4;
    // Each thread reads its texel, then writes its index into channel G.
    suld.b.2d.v4.b32.trap {%r5, %r6, %r7, %r8}, [%rd1, {%r4, %r3}];
    bar.sync 0;
    add.s32 %r9, %r4, 4;
    sust.b.2d.b32.trap [%rd1, {%r9, %r3}], %r1;
    // Out of range: .clamp reads the row's last 4 bytes, .zero reads 0.
    add.s32 %r10, %r4, 1000;
    suld.b.2d.b32.clamp %r11, [%rd1, {%r10, %r3}];
    suld.b.2d.b32.zero %r12, [%rd1, {%r10, %r3}];
    sust.b.2d.b32.zero [%rd1, {%r10, %r3}], %r1;
    // Every thread adds 1 to channel A of texel (0, 0).
    sured.b.add.2d.trap.u32 [%rd1, {12, 0}], 1;
    mul.wide.u32 %rd3, %r1, 32;
    add.s64 %rd4, %rd2, %rd3;
    st.global.v4.u32 [%rd4], {%r5, %r6, %r7, %r8};
    st.global.v2.u32 [%rd4+16], {%r11, %r12};
    ret;
}";

#[test]
fn surfaces_load_store_clamp_zero_and_reduce() {
    let fmt = Format::RGBA_U32;
    let mut img = Image::zeroed(8, 4, 1, 1, fmt);
    for (i, c) in img.bytes.chunks_mut(4).enumerate() {
        c.copy_from_slice(&(i as u32 * 3).to_le_bytes());
    }
    let before = img.clone();
    let mut args = [
        KernelArg::Surface(img),
        KernelArg::Buffer(Buffer::from_slice(&[0u32; 32 * 8])),
    ];
    run(SURF, &mut args, 32).unwrap();
    let out: Vec<u32> = args[1].buffer().unwrap().to_vec();
    let KernelArg::Surface(after) = &args[0] else {
        unreachable!()
    };
    let word =
        |img: &Image, i: usize| u32::from_le_bytes(img.bytes[i * 4..i * 4 + 4].try_into().unwrap());
    for t in 0..32usize {
        let (x, y) = (t % 8, t / 8);
        let texel = (y * 8 + x) * 4;
        let o = &out[t * 8..];
        assert_eq!(
            &o[..4],
            &[0, 1, 2, 3].map(|c| word(&before, texel + c)),
            "thread {t}"
        );
        // Clamped to the row's last 4 bytes (channel A of its last texel);
        // .zero reads 0.
        assert_eq!(o[4], word(&before, (y * 8 + 7) * 4 + 3));
        assert_eq!(o[5], 0);
        // Channel G holds the thread index now.
        assert_eq!(word(after, texel + 1), t as u32);
    }
    // 32 reductions on texel (0, 0) channel A.
    assert_eq!(word(after, 3), word(&before, 3) + 32);
}

#[test]
fn surface_traps_out_of_range() {
    let ptx = "
.visible .entry k(.param .u64 s)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [s];
    suld.b.1d.b32.trap %r1, [%rd1, {64}];
    ret;
}";
    let mut args = [KernelArg::Surface(Image::zeroed(
        4,
        1,
        1,
        1,
        Format::RGBA_U32,
    ))];
    let e = run(ptx, &mut args, 1).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::OutOfBounds { space, .. } if space == "surface"),
        "{e}"
    );
    // In range (the last 4 bytes of the row) it runs.
    let ok = ptx.replace("{64}", "{60}");
    run(&ok, &mut args, 1).unwrap();
}

#[test]
fn formatted_surface_stores_convert() {
    let ptx = "
.visible .entry k(.param .u64 s)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [s];
    mov.u32 %r1, %tid.x;
    mov.f32 %f1, 0f3F000000;
    mov.f32 %f2, 0f3F800000;
    mov.f32 %f3, 0fBF800000;
    mov.f32 %f4, 0f40000000;
    sust.p.1d.v4.b32.trap [%rd1, {%r1}], {%f1, %f2, %f3, %f4};
    ret;
}";
    let fmt = Format {
        ty: ChannelType::Unorm8,
        channels: 4,
    };
    let mut args = [KernelArg::Surface(Image::zeroed(3, 1, 1, 1, fmt))];
    run(ptx, &mut args, 3).unwrap();
    let KernelArg::Surface(img) = &args[0] else {
        unreachable!()
    };
    // x counts texels: three texels of (0.5, 1, -1, 2) as unorm8.
    assert_eq!(img.bytes, [128, 255, 0, 255].repeat(3));
}

#[test]
fn bad_handles_fault() {
    let ptx = "
.visible .entry k(.param .u64 t)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [t];
    tex.1d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];
    ret;
}";
    // %r5 is never written: an undefined coordinate.
    let mut args = [KernelArg::Texture {
        image: Image::zeroed(1, 1, 1, 1, Format::RGBA_U32),
        sampler: Sampler::default(),
    }];
    let e = run(ptx, &mut args, 1).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::UndefinedRegister(_)), "{e}");
    let fixed = ptx.replace("[%rd1, {%r5}]", "[%rd1, {0}]");
    let mut args = [KernelArg::value(12345u64)];
    let e = run(&fixed, &mut args, 1).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::OutOfBounds { .. }), "{e}");
}

#[test]
fn legacy_constant_banks_and_tex_variables() {
    // `.const[0]` variables with initializers, an `.extern .const[1]` bank
    // (64 KiB of zeros) and a `.tex` variable, as PTX 1.x wrote them.
    let ptx = ".version 1.4\n.target sm_13\n\
        .const[0] .u32 bias = 7;\n\
        .extern .const[1] .b8 bank1[];\n\
        .tex .u64 texRef;\n\
        .entry k(.param .u64 out)\n{\n.reg .u32 %r<8>;\n.reg .u64 %rd<4>;\n\
        ld.param.u64 %rd1, [out];\n\
        ld.const[0].u32 %r1, [bias];\n\
        ld.const[1].u32 %r2, [bank1+65532];\n\
        txq.width.b32 %r3, [texRef];\n\
        st.global.u32 [%rd1], %r1;\nst.global.u32 [%rd1+4], %r2;\nst.global.u32 [%rd1+8], %r3;\nexit;\n}\n";
    let mut emu = Emulator::from_ptx(ptx).unwrap();
    let mut args = [KernelArg::Buffer(Buffer::from_slice(&[9u32; 3]))];
    emu.launch("k", cfg(1), &mut args).unwrap();
    assert_eq!(args[0].buffer().unwrap().to_vec::<u32>(), [7, 0, 32]);
}
