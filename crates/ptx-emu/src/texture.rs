//! Textures, samplers and surfaces: bound images, the sampler's addressing
//! and filtering, and the surface addressing of `suld`/`sust`/`sured`.
//!
//! # Objects and handles
//!
//! A texture, sampler or surface is an *object* ([`Obj`]) in a table of the
//! emulator; a handle is a 64-bit value naming an entry of that table
//! ([`handle`]: `HANDLE_BASE + 16 * index + kind`). Module-level `.texref`,
//! `.samplerref` and `.surfref` variables (and legacy `.tex` variables) get
//! an object when the module is laid out, with a default image generated
//! deterministically from the variable's name ([`Image::default_texture`],
//! [`Image::default_surface`]); the name then reads as its handle, so
//! `mov.u64 %rd, tex` and `[tex, {..}]` both work. Kernel arguments
//! ([`KernelArg::Texture`](crate::KernelArg::Texture),
//! [`KernelArg::Surface`](crate::KernelArg::Surface),
//! [`KernelArg::Sampler`](crate::KernelArg::Sampler)) add objects for one
//! launch and pass their handles: the bindless `.u64` texture and surface
//! objects of current CUDA, and the `.texref`/`.samplerref` parameters of
//! independent mode. Image bytes live on the global heap, so a surface
//! written by `sust` is copied back like a buffer.
//!
//! # Images
//!
//! An [`Image`] is `width x height x depth` texels times `layers`, one
//! [`Format`] (a channel type and 1, 2 or 4 channels), texel `(x, y, z,
//! layer)` at byte `(((layer * depth + z) * height + y) * width + x) *
//! texel_bytes`. Every geometry reads the same storage: `.1d` row 0 of
//! layer 0, `.2d` slice 0, `.3d` layer 0, `.a1d`/`.a2d` the selected layer,
//! `.cube` the six layers 0..5 as the faces `+x, -x, +y, -y, +z, -z`,
//! `.acube` layers `6 * index + face`, `.2dms`/`.a2dms` one sample per texel
//! (the sample number is ignored). There is one mipmap level: `tex.level`,
//! `tex.grad` and `tex.base` read level 0.
//!
//! # Sampling (`tex`, `tld4`)
//!
//! Following the texture-fetching formulas of the CUDA programming guide
//! that the PTX ISA refers to, per dimension of size `N`:
//!
//! - float coordinates are scaled to texel space (`u = x * N` when the
//!   texture has normalized coordinates and the sampler does not force
//!   unnormalized ones, else `u = x`), an offset operand `e` adds texels;
//! - **point** filtering reads texel `i = floor(u)`; **linear** filtering
//!   reads `i = floor(u - 0.5)` and `i + 1`, weighted `1 - a` and `a` with
//!   `a = frac(u - 0.5)` rounded to 8 fractional bits (the guide's 9-bit
//!   fixed-point weights), `(1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b
//!   T[i,j+1] + ab T[i+1,j+1]` in two dimensions (three: the same with `c`),
//!   summed in `f32` in that order;
//! - each texel index goes through the **addressing mode** of its
//!   dimension: wrap (`i mod N`), mirror (`i mod 2N`, the upper half
//!   reflected), clamp (`[0, N-1]`), border (outside: every channel 0).
//!   Wrap and mirror need normalized coordinates (as in CUDA); with
//!   unnormalized ones they clamp. `clamp_ogl` is clamp here;
//! - integer (`.s32`) coordinates are texel indices: no scaling, no
//!   filtering, the addressing mode applies;
//! - linear filtering applies to float results only; integer results
//!   (`.s32`/`.u32`) point-sample;
//! - cube maps pick the face by the major axis and project the two minor
//!   coordinates to `s = (sc / |ma| + 1) / 2`, `t = (tc / |ma| + 1) / 2`
//!   (the OpenGL table), then sample that face with normalized coordinates
//!   and clamping;
//! - array indices are clamped to the layers there are;
//! - a depth-compare operand `f` turns every fetched channel `v` into `1.0`
//!   when `f <= v`, else `0.0`, before filtering;
//! - the residency predicate `|p` is always true.
//!
//! Channel values: float formats read as their value, normalized integer
//! formats as `v / max` (`snorm` clamped to -1), plain integers as the
//! integer converted to `f32` for a float result; an integer result reads
//! integer channels sign- or zero-extended and float channels as their bits.
//! Missing channels are `(0, 0, 0, 1)`. An `.f16` result is the `f32` value
//! rounded to `f16`.
//!
//! `tld4.{r,g,b,a}` returns one channel of the four texels of the linear
//! footprint in the ISA's counter-clockwise order from the lower left:
//! `(i, j+1), (i+1, j+1), (i+1, j), (i, j)`.
//!
//! # Surfaces
//!
//! `suld.b`/`sust.b`/`sured.b` address bytes in x (the access must be a
//! multiple of its size), texels in y and z; `sust.p`/`sured.p` address
//! texels in x. Out of range: `.trap` (the default) is an out-of-bounds error
//! of space `surface`, `.clamp` moves the access to the nearest location in
//! range, `.zero` reads zero and drops the store. `sust.p` converts its
//! 32-bit values to the surface format (float formats from `f32`, integer
//! ones from `u32`/`s32`) channel by channel; `sured.p` reduces the first
//! channel's integer.
//!
//! # Queries
//!
//! `txq`/`suq` answer from the descriptor: sizes (`.level` queries shift
//! them right by the level, at least 1), `channel_data_type` and
//! `channel_order` as the OpenCL codes (`CL_FLOAT` 0x10DE, `CL_RGBA`
//! 0x10B5, ...), `normalized_coords`, `array_size`, `num_mipmap_levels` 1,
//! `num_samples` 1, `memory_layout` 0, `filter_mode` (0 nearest, 1 linear),
//! `addr_mode_N` (0 wrap, 1 clamp, 2 mirror, 3 border: CUDA's
//! `cudaTextureAddressMode`), `force_unnormalized_coords`.

use crate::float::{from_f64, Fmt, Rnd};

/// Where handles start.
pub const HANDLE_BASE: u64 = 0x7f00_0000_0000;

/// The handle of object `index` of kind `kind`.
pub fn handle(index: usize, kind: ObjKind) -> u64 {
    HANDLE_BASE + 16 * index as u64 + kind as u64
}

/// The object index a handle names, if it is one.
pub fn handle_index(h: u64) -> Option<usize> {
    let off = h.checked_sub(HANDLE_BASE)?;
    (off < (1 << 32)).then_some((off / 16) as usize)
}

/// What a handle names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjKind {
    Texture = 1,
    Sampler = 2,
    Surface = 3,
}

/// The type of a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    F32,
    F16,
    Unorm8,
    Snorm8,
    Unorm16,
    Snorm16,
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
}

impl ChannelType {
    pub fn bytes(self) -> usize {
        use ChannelType::*;
        match self {
            Unorm8 | Snorm8 | U8 | S8 => 1,
            F16 | Unorm16 | Snorm16 | U16 | S16 => 2,
            F32 | U32 | S32 => 4,
        }
    }

    /// The OpenCL `channel_data_type` code.
    pub fn cl_code(self) -> u32 {
        use ChannelType::*;
        match self {
            Snorm8 => 0x10D0,
            Snorm16 => 0x10D1,
            Unorm8 => 0x10D2,
            Unorm16 => 0x10D3,
            S8 => 0x10D7,
            S16 => 0x10D8,
            S32 => 0x10D9,
            U8 => 0x10DA,
            U16 => 0x10DB,
            U32 => 0x10DC,
            F16 => 0x10DD,
            F32 => 0x10DE,
        }
    }

    /// Float, half or normalized: `sust.p` takes `f32` values.
    pub fn is_float(self) -> bool {
        use ChannelType::*;
        matches!(self, F32 | F16 | Unorm8 | Snorm8 | Unorm16 | Snorm16)
    }

    fn is_signed(self) -> bool {
        use ChannelType::*;
        matches!(self, S8 | S16 | S32 | Snorm8 | Snorm16)
    }

    /// A channel's bits as read for an integer result (sign- or
    /// zero-extended integers, float bits as they are, `f16` widened to
    /// `f32` bits).
    pub fn raw(self, bits: u32) -> u32 {
        let n = self.bytes() as u32 * 8;
        match self {
            ChannelType::F16 => (Fmt::F16.to_f64(bits as u64) as f32).to_bits(),
            _ if self.is_signed() && n < 32 => ((bits << (32 - n)) as i32 >> (32 - n)) as u32,
            _ => bits,
        }
    }

    /// A channel's value as read for a float result.
    pub fn value(self, bits: u32) -> f32 {
        use ChannelType::*;
        match self {
            F32 => f32::from_bits(bits),
            F16 => Fmt::F16.to_f64(bits as u64) as f32,
            Unorm8 => (bits & 0xff) as f32 / 255.0,
            Unorm16 => (bits & 0xffff) as f32 / 65535.0,
            Snorm8 => ((bits as u8 as i8) as f32 / 127.0).max(-1.0),
            Snorm16 => ((bits as u16 as i16) as f32 / 32767.0).max(-1.0),
            U8 | U16 | U32 => bits as f32,
            S8 | S16 | S32 => self.raw(bits) as i32 as f32,
        }
    }

    /// A `sust.p` value (`f32` bits for float formats, else an integer)
    /// converted to the channel's bits.
    pub fn encode(self, v: u32) -> u32 {
        use ChannelType::*;
        let f = f32::from_bits(v);
        let norm = |x: f32, max: f32, lo: f32| {
            let x = if x.is_nan() { 0.0 } else { x.clamp(lo, 1.0) };
            (x * max).round_ties_even() as i32 as u32
        };
        match self {
            F32 => v,
            F16 => from_f64(Fmt::F16, f as f64, Rnd::Rn) as u32,
            Unorm8 => norm(f, 255.0, 0.0) & 0xff,
            Unorm16 => norm(f, 65535.0, 0.0) & 0xffff,
            Snorm8 => norm(f, 127.0, -1.0) & 0xff,
            Snorm16 => norm(f, 32767.0, -1.0) & 0xffff,
            U8 => v.min(0xff),
            U16 => v.min(0xffff),
            S8 => (v as i32).clamp(-128, 127) as u32 & 0xff,
            S16 => (v as i32).clamp(-32768, 32767) as u32 & 0xffff,
            U32 | S32 => v,
        }
    }
}

/// A texel format: a channel type and 1, 2 or 4 channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    pub ty: ChannelType,
    pub channels: u8,
}

impl Format {
    pub const RGBA_F32: Format = Format {
        ty: ChannelType::F32,
        channels: 4,
    };
    pub const RGBA_U32: Format = Format {
        ty: ChannelType::U32,
        channels: 4,
    };

    pub fn texel_bytes(self) -> usize {
        self.ty.bytes() * self.channels as usize
    }

    /// The OpenCL `channel_order` code (`CL_R`, `CL_RG`, `CL_RGBA`).
    pub fn cl_order(self) -> u32 {
        match self.channels {
            1 => 0x10B0,
            2 => 0x10B2,
            _ => 0x10B5,
        }
    }

    /// The channels of a texel's bytes (missing ones empty).
    pub fn channels_of(self, bytes: &[u8]) -> [Option<u32>; 4] {
        let n = self.ty.bytes();
        let mut out = [None; 4];
        for (c, o) in out.iter_mut().enumerate().take(self.channels as usize) {
            let mut b = [0u8; 4];
            if let Some(s) = bytes.get(c * n..c * n + n) {
                b[..n].copy_from_slice(s);
            }
            *o = Some(u32::from_le_bytes(b));
        }
        out
    }
}

/// Image sizes and format (the bytes are elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dims {
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub layers: u32,
    pub format: Format,
}

impl Dims {
    /// Texels (saturating: a descriptor's sizes come from the user).
    pub fn texels(&self) -> u64 {
        (self.width as u64)
            .saturating_mul(self.height as u64)
            .saturating_mul(self.depth as u64)
            .saturating_mul(self.layers as u64)
    }

    pub fn bytes(&self) -> u64 {
        self.texels()
            .saturating_mul(self.format.texel_bytes() as u64)
    }

    /// Byte offset of texel `(x, y, z, layer)` (all in range).
    pub fn offset(&self, x: u32, y: u32, z: u32, layer: u32) -> u64 {
        let (w, h, d) = (self.width as u64, self.height as u64, self.depth as u64);
        (layer as u64)
            .wrapping_mul(d)
            .wrapping_add(z as u64)
            .wrapping_mul(h)
            .wrapping_add(y as u64)
            .wrapping_mul(w)
            .wrapping_add(x as u64)
            .wrapping_mul(self.format.texel_bytes() as u64)
    }

    /// The number of layers (at least 1).
    pub fn layer_count(&self) -> u32 {
        self.layers.max(1)
    }

    /// The size of dimension `i` (0: width, 1: height, 2: depth).
    pub fn size(&self, i: usize) -> u32 {
        [self.width, self.height, self.depth][i.min(2)].max(1)
    }
}

/// An image with its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub dims: Dims,
    pub bytes: Vec<u8>,
}

impl Image {
    /// A zeroed image (sizes of 0 count as 1).
    pub fn zeroed(width: u32, height: u32, depth: u32, layers: u32, format: Format) -> Image {
        let dims = Dims {
            width: width.max(1),
            height: height.max(1),
            depth: depth.max(1),
            layers: layers.max(1),
            format,
        };
        Image {
            bytes: vec![0; dims.bytes() as usize],
            dims,
        }
    }

    /// An image filled from the input generator of
    /// [`diff`](crate::diff::generate_words) with `seed`.
    pub fn generated(
        width: u32,
        height: u32,
        depth: u32,
        layers: u32,
        format: Format,
        seed: u64,
    ) -> Image {
        let mut img = Image::zeroed(width, height, depth, layers, format);
        let words = crate::diff::generate_words(seed, img.bytes.len().div_ceil(4));
        for (chunk, w) in img.bytes.chunks_mut(4).zip(words) {
            let n = chunk.len();
            chunk.copy_from_slice(&w.to_le_bytes()[..n]);
        }
        img
    }

    /// The default texture: 32 x 32 x 4 texels, 6 layers (a cube map), RGBA
    /// `f32` from the generator.
    pub fn default_texture(seed: u64) -> Image {
        Image::generated(32, 32, 4, 6, Format::RGBA_F32, seed)
    }

    /// The default surface: 256 x 16 x 2 texels, 2 layers, RGBA `u32` (16
    /// bytes a texel, 4 KiB a row) from the generator.
    pub fn default_surface(seed: u64) -> Image {
        Image::generated(256, 16, 2, 2, Format::RGBA_U32, seed)
    }
}

/// An addressing mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

impl AddrMode {
    /// CUDA's `cudaTextureAddressMode` value (what `txq.addr_mode_N`
    /// returns).
    pub fn code(self) -> u32 {
        match self {
            AddrMode::Wrap => 0,
            AddrMode::Clamp => 1,
            AddrMode::Mirror => 2,
            AddrMode::Border => 3,
        }
    }

    /// The texel index `i` in a dimension of `n`, or `None` for the border.
    pub fn apply(self, i: i64, n: u32) -> Option<u32> {
        let n = n.max(1) as i64;
        Some(match self {
            AddrMode::Wrap => i.rem_euclid(n),
            AddrMode::Mirror => {
                let m = i.rem_euclid(2 * n);
                if m < n {
                    m
                } else {
                    2 * n - 1 - m
                }
            }
            AddrMode::Clamp => i.clamp(0, n - 1),
            AddrMode::Border => {
                if (0..n).contains(&i) {
                    i
                } else {
                    return None;
                }
            }
        } as u32)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    Point,
    Linear,
}

/// Sampler state (in unified mode, part of the texture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampler {
    pub addr: [AddrMode; 3],
    pub filter: Filter,
    /// The texture's `normalized_coords`.
    pub normalized: bool,
    /// The sampler's `force_unnormalized_coords`.
    pub force_unnormalized: bool,
}

impl Default for Sampler {
    /// CUDA's defaults: clamp, point, unnormalized coordinates.
    fn default() -> Sampler {
        Sampler {
            addr: [AddrMode::Clamp; 3],
            filter: Filter::Point,
            normalized: false,
            force_unnormalized: false,
        }
    }
}

impl Sampler {
    /// The state of a `.texref`/`.samplerref` initializer `{ filter_mode =
    /// linear, addr_mode_0 = wrap, ... }` (unknown fields are ignored).
    pub fn from_init(init: &str) -> Sampler {
        let mut s = Sampler::default();
        let body = init.trim().trim_start_matches('{').trim_end_matches('}');
        for field in body.split(',') {
            let Some((k, v)) = field.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            let mode = match v {
                "wrap" => Some(AddrMode::Wrap),
                "mirror" => Some(AddrMode::Mirror),
                "clamp_to_border" => Some(AddrMode::Border),
                "clamp_to_edge" | "clamp_ogl" => Some(AddrMode::Clamp),
                _ => None,
            };
            match k {
                "addr_mode_0" | "addr_mode_1" | "addr_mode_2" => {
                    let i = (k.as_bytes()[10] - b'0') as usize;
                    if let Some(m) = mode {
                        s.addr[i] = m;
                    }
                }
                "filter_mode" => {
                    s.filter = if v == "linear" {
                        Filter::Linear
                    } else {
                        Filter::Point
                    }
                }
                "normalized_coords" => s.normalized = v == "1" || v == "true",
                "force_unnormalized_coords" => s.force_unnormalized = v == "1" || v == "true",
                _ => {}
            }
        }
        s
    }

    /// Whether coordinates are normalized: the texture's flag, unless the
    /// sampler forces unnormalized ones.
    pub fn normalized_with(&self, sampler: &Sampler) -> bool {
        self.normalized && !sampler.force_unnormalized
    }
}

/// An image on the global heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    pub base: u64,
    pub dims: Dims,
}

/// A texture, sampler or surface object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obj {
    Texture { img: ImageDesc, sampler: Sampler },
    Sampler(Sampler),
    Surface(ImageDesc),
}

impl Obj {
    pub fn kind(&self) -> ObjKind {
        match self {
            Obj::Texture { .. } => ObjKind::Texture,
            Obj::Sampler(_) => ObjKind::Sampler,
            Obj::Surface(_) => ObjKind::Surface,
        }
    }
}

/// Texture and surface geometries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geom {
    D1,
    D2,
    D3,
    A1d,
    A2d,
    Cube,
    ACube,
    D2ms,
    A2dms,
}

impl Geom {
    pub fn parse(m: &str) -> Option<Geom> {
        Some(match m {
            ".1d" => Geom::D1,
            ".2d" => Geom::D2,
            ".3d" => Geom::D3,
            ".a1d" => Geom::A1d,
            ".a2d" => Geom::A2d,
            ".cube" => Geom::Cube,
            ".acube" => Geom::ACube,
            ".2dms" => Geom::D2ms,
            ".a2dms" => Geom::A2dms,
            _ => return None,
        })
    }

    /// Spatial dimensions.
    pub fn dims(self) -> usize {
        match self {
            Geom::D1 | Geom::A1d => 1,
            Geom::D3 => 3,
            _ => 2,
        }
    }
}

/// The coordinate vector of a fetch, split by meaning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexCoords {
    /// Spatial coordinates: `f32` bits or `s32` values.
    pub c: [u32; 3],
    pub int: bool,
    /// Array index (layer, or cube index for `.acube`).
    pub index: u32,
}

impl TexCoords {
    /// Splits the coordinate vector of `geom` (as the registers hold it).
    pub fn split(geom: Geom, v: &[u32], int: bool) -> TexCoords {
        let g = |i: usize| v.get(i).copied().unwrap_or(0);
        let (c, index) = match geom {
            Geom::D1 => ([g(0), 0, 0], 0),
            Geom::D2 | Geom::Cube => ([g(0), g(1), g(2)], 0),
            Geom::D3 => ([g(0), g(1), g(2)], 0),
            Geom::A1d => ([g(1), 0, 0], g(0)),
            Geom::A2d | Geom::ACube => ([g(1), g(2), g(3)], g(0)),
            // {sample, x, y, _}, {index, sample, x, y}: the sample is ignored.
            Geom::D2ms => ([g(1), g(2), 0], 0),
            Geom::A2dms => ([g(2), g(3), 0], g(0)),
        };
        let int = int || matches!(geom, Geom::D2ms | Geom::A2dms);
        TexCoords { c, int, index }
    }
}

/// How a fetch reads texel bytes: `read(address, len)`.
pub trait TexelSource {
    fn read(&mut self, addr: u64, len: usize) -> Option<Vec<u8>>;
}

impl<F: FnMut(u64, usize) -> Option<Vec<u8>>> TexelSource for F {
    fn read(&mut self, addr: u64, len: usize) -> Option<Vec<u8>> {
        self(addr, len)
    }
}

/// Reads texel `(x, y, z, layer)`: the channels, `None` for missing ones.
fn texel(img: &ImageDesc, src: &mut dyn TexelSource, at: [u32; 4]) -> [Option<u32>; 4] {
    let d = &img.dims;
    let off = d.offset(at[0], at[1], at[2], at[3]);
    let n = d.format.texel_bytes();
    match src.read(img.base.wrapping_add(off), n) {
        Some(bytes) => d.format.channels_of(&bytes),
        None => [Some(0); 4],
    }
}

/// The weight of a linear fetch: `frac` rounded to 8 fractional bits.
pub fn weight(frac: f32) -> f32 {
    (frac * 256.0).round() / 256.0
}

/// `floor(x)` as an index, saturating (NaN is 0).
fn floor_index(x: f32) -> i64 {
    let f = x.floor();
    if f.is_nan() {
        0
    } else {
        f.clamp(-((1u64 << 40) as f32), (1u64 << 40) as f32) as i64
    }
}

/// The face and face coordinates `(s, t)` in `[0, 1]` of a cube-map
/// direction.
pub fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (face, (sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0)
}

/// One fetch.
#[derive(Clone, Copy, Debug)]
pub struct Fetch {
    pub geom: Geom,
    pub coords: TexCoords,
    /// Texel offsets (`e`).
    pub offsets: [i32; 3],
    /// Depth-compare value (`f`).
    pub depth: Option<f32>,
    /// A float result (`.f32`/`.f16`): filtering and channel values;
    /// otherwise raw integer channels.
    pub float: bool,
}

/// Where a fetch lands: the layer and, per dimension, the scaled texel-space
/// coordinate (or the integer index), the addressing modes, and whether the
/// coordinate is an integer.
struct Place {
    layer: u32,
    u: [f32; 3],
    i: [i64; 3],
    int: bool,
    modes: [AddrMode; 3],
    sizes: [u32; 3],
    ndims: usize,
}

fn place(img: &ImageDesc, smp: &Sampler, tex_smp: &Sampler, f: &Fetch) -> Place {
    let d = &img.dims;
    let mut modes = smp.addr;
    let mut normalized = tex_smp.normalized_with(smp);
    let mut c = [0f32; 3];
    let mut i = [0i64; 3];
    let mut layer = f.coords.index.min(d.layer_count() - 1);
    let mut ndims = f.geom.dims();
    let mut int = f.coords.int;
    if matches!(f.geom, Geom::Cube | Geom::ACube) {
        let v = f.coords.c.map(f32::from_bits);
        let (face, s, t) = cube_face(v[0], v[1], v[2]);
        let cubes = (d.layer_count() / 6).max(1);
        let idx = if f.geom == Geom::ACube {
            f.coords.index.min(cubes - 1)
        } else {
            0
        };
        layer = (idx * 6 + face).min(d.layer_count() - 1);
        c = [s, t, 0.0];
        normalized = true;
        modes = [AddrMode::Clamp; 3];
        ndims = 2;
        int = false;
    } else if int {
        for (k, ik) in i.iter_mut().enumerate().take(ndims) {
            *ik = (f.coords.c[k] as i32 as i64).saturating_add(f.offsets[k] as i64);
        }
    } else {
        c = f.coords.c.map(f32::from_bits);
    }
    if !normalized {
        for m in modes.iter_mut() {
            if matches!(m, AddrMode::Wrap | AddrMode::Mirror) {
                *m = AddrMode::Clamp;
            }
        }
    }
    let sizes = [d.size(0), d.size(1), d.size(2)];
    let mut u = [0f32; 3];
    if !int {
        for k in 0..ndims {
            let scaled = if normalized {
                c[k] * sizes[k] as f32
            } else {
                c[k]
            };
            u[k] = scaled + f.offsets[k] as f32;
        }
    }
    Place {
        layer,
        u,
        i,
        int,
        modes,
        sizes,
        ndims,
    }
}

impl Place {
    /// The texel at integer indices `idx`, through the addressing modes.
    fn get(&self, img: &ImageDesc, src: &mut dyn TexelSource, idx: [i64; 3]) -> [Option<u32>; 4] {
        let mut at = [0u32, 0, 0, self.layer];
        for k in 0..self.ndims {
            match self.modes[k].apply(idx[k], self.sizes[k]) {
                Some(v) => at[k] = v,
                None => return [Some(0); 4],
            }
        }
        texel(img, src, at)
    }

    /// `(floor(u - 0.5), weight)` per dimension.
    fn linear(&self) -> ([i64; 3], [f32; 3]) {
        let mut i0 = [0i64; 3];
        let mut a = [0f32; 3];
        for k in 0..self.ndims {
            let ub = self.u[k] - 0.5;
            i0[k] = floor_index(ub);
            let fl = ub.floor();
            a[k] = if fl.is_finite() { weight(ub - fl) } else { 0.0 };
        }
        (i0, a)
    }
}

/// A channel as a float result, after the depth compare.
fn chan_value(ty: ChannelType, v: Option<u32>, c: usize, depth: Option<f32>) -> f32 {
    let x = match v {
        Some(b) => ty.value(b),
        None if c == 3 => 1.0,
        None => 0.0,
    };
    match depth {
        Some(f) => {
            if f <= x {
                1.0
            } else {
                0.0
            }
        }
        None => x,
    }
}

fn chan_raw(ty: ChannelType, v: Option<u32>, c: usize) -> u32 {
    match v {
        Some(b) => ty.raw(b),
        None if c == 3 => 1,
        None => 0,
    }
}

/// `tex`: the four result channels (`f32` bits for a float fetch, else
/// integers). `tex_smp` is the texture's own state, `smp` the sampler in
/// effect (the same in unified mode).
pub fn sample(
    img: &ImageDesc,
    tex_smp: &Sampler,
    smp: &Sampler,
    f: &Fetch,
    src: &mut dyn TexelSource,
) -> [u32; 4] {
    let p = place(img, smp, tex_smp, f);
    let ty = img.dims.format.ty;
    if p.int || !f.float || smp.filter == Filter::Point {
        let idx = if p.int { p.i } else { p.u.map(floor_index) };
        let t = p.get(img, src, idx);
        let mut out = [0u32; 4];
        for c in 0..4 {
            out[c] = if f.float {
                chan_value(ty, t[c], c, f.depth).to_bits()
            } else {
                chan_raw(ty, t[c], c)
            };
        }
        return out;
    }
    let (i0, a) = p.linear();
    let corners = 1usize << p.ndims;
    let mut acc = [0f32; 4];
    // Corners in the order of the formula: the x index varies fastest.
    for k in 0..corners {
        let mut idx = i0;
        let mut w = 1f32;
        for (d, (ix, ad)) in idx.iter_mut().zip(a).enumerate().take(p.ndims) {
            if k >> d & 1 == 1 {
                *ix += 1;
                w *= ad;
            } else {
                w *= 1.0 - ad;
            }
        }
        let t = p.get(img, src, idx);
        for (c, acc) in acc.iter_mut().enumerate() {
            *acc += w * chan_value(ty, t[c], c, f.depth);
        }
    }
    acc.map(f32::to_bits)
}

/// `tld4.comp`: channel `comp` of the four texels of the linear footprint,
/// counter-clockwise from the lower left.
pub fn gather(
    img: &ImageDesc,
    tex_smp: &Sampler,
    smp: &Sampler,
    f: &Fetch,
    comp: usize,
    src: &mut dyn TexelSource,
) -> [u32; 4] {
    let mut f = *f;
    f.coords.int = false;
    let p = place(img, smp, tex_smp, &f);
    let ty = img.dims.format.ty;
    let (i0, _) = p.linear();
    let (i, j) = (i0[0], i0[1]);
    let order = [(i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j)];
    order.map(|(x, y)| {
        let t = p.get(img, src, [x, y, 0]);
        if f.float {
            chan_value(ty, t[comp], comp, f.depth).to_bits()
        } else {
            chan_raw(ty, t[comp], comp)
        }
    })
}

/// Out-of-range handling of surface accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfClamp {
    Trap,
    Clamp,
    Zero,
}

/// A surface access that is out of range with `.trap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfError {
    OutOfRange { offset: u64 },
    Misaligned { offset: u64 },
}

/// The byte address of a surface access of `size` bytes, or `None` for an
/// out-of-range `.zero` access. `coords` are the coordinate vector as the
/// registers hold it; `bytes_x`: x counts bytes (`.b`), else texels (`.p`).
pub fn surface_addr(
    img: &ImageDesc,
    geom: Geom,
    coords: &[u32],
    size: u64,
    bytes_x: bool,
    clamp: SurfClamp,
) -> Result<Option<u64>, SurfError> {
    let d = &img.dims;
    let tc = TexCoords::split(geom, coords, true);
    let tb = d.format.texel_bytes().max(1) as i64;
    let row = d.width as i64 * tb;
    let mut x = tc.c[0] as i32 as i64;
    if !bytes_x {
        x *= tb;
    }
    let mut y = if geom.dims() >= 2 {
        tc.c[1] as i32 as i64
    } else {
        0
    };
    let mut z = if geom.dims() >= 3 {
        tc.c[2] as i32 as i64
    } else {
        0
    };
    let mut layer = tc.index as i64;
    let size = size.max(1) as i64;
    let in_range = |x: i64, y: i64, z: i64, l: i64| {
        (0..=row - size).contains(&x)
            && (0..d.height as i64).contains(&y)
            && (0..d.depth as i64).contains(&z)
            && (0..d.layers as i64).contains(&l)
    };
    if !in_range(x, y, z, layer) {
        match clamp {
            SurfClamp::Trap => {
                return Err(SurfError::OutOfRange {
                    offset: x.max(0) as u64,
                })
            }
            SurfClamp::Zero => return Ok(None),
            SurfClamp::Clamp => {
                x = x.clamp(0, (row - size).max(0)) / size * size;
                y = y.clamp(0, (d.height as i64 - 1).max(0));
                z = z.clamp(0, (d.depth as i64 - 1).max(0));
                layer = layer.clamp(0, (d.layers as i64 - 1).max(0));
            }
        }
    }
    if size > 1 && x % size != 0 {
        return Err(SurfError::Misaligned { offset: x as u64 });
    }
    let off = d.offset(0, y as u32, z as u32, layer as u32) + x as u64;
    Ok(Some(img.base.wrapping_add(off)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_modes() {
        assert_eq!(AddrMode::Wrap.apply(-1, 4), Some(3));
        assert_eq!(AddrMode::Wrap.apply(9, 4), Some(1));
        assert_eq!(AddrMode::Mirror.apply(4, 4), Some(3));
        assert_eq!(AddrMode::Mirror.apply(-1, 4), Some(0));
        assert_eq!(AddrMode::Mirror.apply(-5, 4), Some(3));
        assert_eq!(AddrMode::Clamp.apply(-7, 4), Some(0));
        assert_eq!(AddrMode::Clamp.apply(70, 4), Some(3));
        assert_eq!(AddrMode::Border.apply(4, 4), None);
        assert_eq!(AddrMode::Border.apply(3, 4), Some(3));
    }

    #[test]
    fn cube_faces() {
        assert_eq!(cube_face(1.0, 0.0, 0.0), (0, 0.5, 0.5));
        assert_eq!(cube_face(-1.0, 0.5, 0.0).0, 1);
        assert_eq!(cube_face(0.0, 2.0, 1.0), (2, 0.5, 0.75));
        assert_eq!(cube_face(0.0, -2.0, 1.0), (3, 0.5, 0.25));
        assert_eq!(cube_face(0.5, 0.0, 1.0), (4, 0.75, 0.5));
        assert_eq!(cube_face(0.5, 0.0, -1.0), (5, 0.25, 0.5));
    }

    #[test]
    fn sampler_initializers() {
        let s = Sampler::from_init(
            "{ addr_mode_0 = clamp_to_edge, addr_mode_1 = wrap, filter_mode = linear, force_unnormalized_coords = 1 }",
        );
        assert_eq!(s.addr, [AddrMode::Clamp, AddrMode::Wrap, AddrMode::Clamp]);
        assert_eq!(s.filter, Filter::Linear);
        assert!(s.force_unnormalized);
        let s = Sampler::from_init(
            "{ filter_mode = nearest, addr_mode_0 = mirror, addr_mode_1 = clamp_to_border }",
        );
        assert_eq!(s.addr[0], AddrMode::Mirror);
        assert_eq!(s.addr[1], AddrMode::Border);
        assert_eq!(s.filter, Filter::Point);
    }

    #[test]
    fn degenerate_descriptors_do_not_panic() {
        let fmt = Format {
            ty: ChannelType::U8,
            channels: 0,
        };
        for (w, h, d, l) in [
            (0, 0, 0, 0),
            (u32::MAX, u32::MAX, u32::MAX, u32::MAX),
            (1, 0, 3, 0),
        ] {
            let dims = Dims {
                width: w,
                height: h,
                depth: d,
                layers: l,
                format: fmt,
            };
            let img = ImageDesc { base: 0, dims };
            let _ = dims.bytes();
            for clamp in [SurfClamp::Trap, SurfClamp::Clamp, SurfClamp::Zero] {
                for g in [Geom::D1, Geom::D3, Geom::A2d] {
                    let _ = surface_addr(&img, g, &[u32::MAX, 7, 0x8000_0000, 3], 0, true, clamp);
                }
            }
            let mut src = |_: u64, _: usize| None;
            for geom in [
                Geom::D1,
                Geom::D2,
                Geom::D3,
                Geom::Cube,
                Geom::ACube,
                Geom::A2dms,
            ] {
                for float in [false, true] {
                    let f = Fetch {
                        geom,
                        coords: TexCoords::split(
                            geom,
                            &[u32::MAX, 0x7fc0_0000, 0xff80_0000, 9],
                            false,
                        ),
                        offsets: [7, -8, 3],
                        depth: Some(f32::NAN),
                        float,
                    };
                    let smp = Sampler {
                        addr: [AddrMode::Wrap, AddrMode::Mirror, AddrMode::Border],
                        filter: Filter::Linear,
                        normalized: true,
                        force_unnormalized: false,
                    };
                    sample(&img, &smp, &smp, &f, &mut src);
                    gather(&img, &smp, &smp, &f, 3, &mut src);
                }
            }
        }
    }

    #[test]
    fn channel_conversions() {
        assert_eq!(ChannelType::Unorm8.value(255), 1.0);
        assert_eq!(ChannelType::Snorm8.value(0x80), -1.0);
        assert_eq!(ChannelType::S8.raw(0xff), u32::MAX);
        assert_eq!(ChannelType::Unorm8.encode(0.5f32.to_bits()), 128);
        assert_eq!(ChannelType::S16.encode((-40000i32) as u32), 0x8000);
    }
}
