//! The instruction-family table: every instruction family of PTX ISA 9.0.
//!
//! Source: the PTX ISA reference (docs.nvidia.com, parallel-thread-execution),
//! chapter "Instruction Set"; minimum versions and targets from each instruction's
//! "PTX ISA Notes" and "Target ISA Notes". Where ptxas 13.0.88 is more lenient
//! than the document, the table follows ptxas (it must never reject what ptxas
//! accepts). `tests/data/ptxas_accepted.txt` holds instructions ptxas 13.0.88
//! accepts, with the lowest target and `.version` it accepts them at; a test checks
//! the table against every one of them.
//!
//! Conventions used below:
//! - One family per opcode (plus fixed dotted parts that change the operand form or
//!   meaning). Integer, floating-point, half-precision and mixed-precision variants
//!   of `add`, `min`, `fma`, ... share one family; the [`Requirement`]s say which type
//!   or modifier needs a newer PTX version or target.
//! - Mixed-precision forms (`add.f32.f16 d, a, c`, `fma.rn.f32.bf16 d, a, b, c`)
//!   write the destination type first, so forms check `d` and `c` against `T0` (the
//!   first type written) and the other sources against `T` (the last one); for the
//!   ordinary single-type forms `T0` and `T` are the same type.
//! - A minimum target of 0 means "any target"; `sm_90a`-only and `sm_100a`-only
//!   families record 90 and 100 (the number does not say "arch-specific"; the
//!   summary does).
//! - Operand shapes the DSL cannot describe precisely (`d|p` destinations of
//!   `shfl.sync`, texture and surface operands, tensor-core descriptors) use `x`.
//! - ptxas accepts a constant (0 or 1) wherever a source predicate may be written
//!   (`selp.b32 d, a, b, 1`, `setp.eq.and.s32 p, a, b, 1`), so forms with an `np`
//!   source are listed again with `i` in its place.
//! - Requirements are per modifier. Where ptxas ties a version or target to a
//!   combination (`.v8` with 32-bit elements, `.f16` in a mixed-precision `add`,
//!   the optional count of `mbarrier.arrive`, a third source of `min.f32`), the
//!   table keeps the lowest requirement of the modifier, so it never rejects what
//!   ptxas accepts.
//! - The family `mad` covers `mad.lo.cc`/`mad.hi.cc` (ptxas only accepts `.cc`
//!   after `.lo`/`.hi`, so a separate `mad.cc` family could never be looked up);
//!   `match.sync` is written `match.any.sync`/`match.all.sync` and so is split into
//!   the families `match.any` and `match.all`.

use crate::{v, Category::*, Family, Requirement, TypeCheck};

/// Concatenates string slices at compile time (used by [`cat!`]).
const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    let mut k = 0;
    while i < parts.len() {
        let p = parts[i];
        let mut j = 0;
        while j < p.len() {
            out[k] = p[j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(k == N);
    out
}

const fn total(parts: &[&[&'static str]]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// `cat!(A, B, &[".x"])`: the concatenation of string slices, as a `&'static [&str]`.
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&[&str]] = &[$($part),+];
        const OUT: [&str; total(PARTS)] = concat::<{ total(PARTS) }>(PARTS);
        &OUT
    }};
}

/// A requirement: `req(".bf16", 7, 8, 90)`.
const fn req(modifier: &'static str, major: u8, minor: u8, min_sm: u32) -> Requirement {
    Requirement {
        modifier,
        min_ptx: v(major, minor),
        min_sm,
    }
}

/// The fields every family sets; the rest default to "no operands, no modifiers,
/// PTX 1.0, any target, no requirements, operands not type-checked".
const fn fam(
    name: &'static str,
    category: crate::Category,
    summary: &'static str,
    syntax: &'static str,
) -> Family {
    Family {
        name,
        category,
        summary,
        syntax,
        forms: &[""],
        types: &[],
        modifiers: &[],
        min_ptx: v(1, 0),
        min_sm: 0,
        requirements: &[],
        type_check: TypeCheck::None,
    }
}

// ---------------------------------------------------------------------------
// Shared modifier and type sets.

const RND: &[&str] = &[".rn", ".rz", ".rm", ".rp"];
const IRND: &[&str] = &[".rni", ".rzi", ".rmi", ".rpi"];
const SCOPES: &[&str] = &[".cta", ".cluster", ".gpu", ".sys"];
const INT_TYPES: &[&str] = &[".u16", ".u32", ".u64", ".s16", ".s32", ".s64"];
const BIT_TYPES: &[&str] = &[".b16", ".b32", ".b64"];
const HALF_TYPES: &[&str] = &[".f16", ".f16x2", ".bf16", ".bf16x2"];
const CMP_OPS: &[&str] = &[
    ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu",
    ".leu", ".gtu", ".geu", ".num", ".nan",
];
const BOOL_OPS: &[&str] = &[".and", ".or", ".xor"];
const LDST_TYPES: &[&str] = &[
    ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
    ".s64", ".f32", ".f64",
];
const L1_EVICT: &[&str] = &[
    ".L1::evict_normal",
    ".L1::evict_unchanged",
    ".L1::evict_first",
    ".L1::evict_last",
    ".L1::no_allocate",
];
const L2_EVICT: &[&str] = &[".L2::evict_normal", ".L2::evict_first", ".L2::evict_last"];
const L2_PREFETCH: &[&str] = &[".L2::64B", ".L2::128B", ".L2::256B"];
const VEC: &[&str] = &[".v2", ".v4", ".v8"];
const LD_SPACES: &[&str] = &[
    ".const",
    ".global",
    ".local",
    ".param",
    ".param::entry",
    ".param::func",
    ".shared",
    ".shared::cta",
    ".shared::cluster",
];
const MBAR_SPACES: &[&str] = &[".shared", ".shared::cta", ".shared::cluster"];
const CTA_GROUP: &[&str] = &[".cta_group::1", ".cta_group::2"];
const TENSOR_DIMS: &[&str] = &[".1d", ".2d", ".3d", ".4d", ".5d"];
const TEX_GEOMS: &[&str] = &[
    ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube", ".2dms", ".a2dms",
];
const SURF_MODES: &[&str] = &[".trap", ".clamp", ".zero"];
const MMA_SHAPES: &[&str] = &[
    ".m8n8k4",
    ".m16n8k4",
    ".m16n8k8",
    ".m16n8k16",
    ".m16n8k32",
    ".m16n8k64",
    ".m16n8k128",
    ".m16n8k256",
    ".m8n8k16",
    ".m8n8k32",
    ".m8n8k128",
];
const MMA_TYPES: &[&str] = &[
    ".f16", ".f32", ".f64", ".bf16", ".tf32", ".e4m3", ".e5m2", ".e3m2", ".e2m3", ".e2m1", ".s8",
    ".u8", ".s4", ".u4", ".b1", ".s32", ".ue8m0", ".ue4m3",
];
const MMA_MODS: &[&str] = &[
    ".sync",
    ".aligned",
    ".row",
    ".col",
    ".satfinite",
    ".xor",
    ".and",
    ".popc",
    ".kind::f8f6f4",
    ".kind::mxf4",
    ".kind::mxf4nvf4",
    ".kind::mxf8f6f4",
    ".block_scale",
    ".scale_vec::1X",
    ".scale_vec::2X",
    ".scale_vec::4X",
];
const MMA_REQS: &[Requirement] = &[
    req(".m16n8k8", 6, 5, 75),
    req(".m8n8k16", 6, 5, 75),
    req(".m8n8k32", 6, 5, 75),
    req(".m8n8k128", 7, 0, 75),
    req(".m16n8k4", 7, 0, 80),
    req(".m16n8k16", 7, 0, 80),
    req(".m16n8k32", 7, 0, 80),
    req(".m16n8k64", 7, 0, 80),
    req(".m16n8k128", 7, 0, 80),
    req(".m16n8k256", 7, 0, 80),
    req(".bf16", 7, 0, 80),
    req(".tf32", 7, 0, 80),
    req(".f64", 7, 0, 80),
    req(".e4m3", 8, 4, 89),
    req(".e5m2", 8, 4, 89),
    req(".e3m2", 8, 7, 120),
    req(".e2m3", 8, 7, 120),
    req(".e2m1", 8, 7, 120),
    req(".kind::f8f6f4", 8, 7, 120),
    req(".kind::mxf4", 8, 7, 120),
    req(".kind::mxf4nvf4", 8, 7, 120),
    req(".kind::mxf8f6f4", 8, 7, 120),
    req(".block_scale", 8, 7, 120),
    req(".and", 7, 1, 80),
    req(".ue8m0", 8, 7, 120),
    req(".ue4m3", 8, 7, 120),
];
/// `bar`/`barrier` operands: `a{, b}` for sync/arrive, `d, a{, b}, {!}c` for red
/// (a predicate source may also be written as an immediate).
const BAR_FORMS: &[&str] = &[
    "ri, ri?",
    "r, ri, np",
    "r, ri, ri, np",
    "p, ri, np",
    "p, ri, ri, np",
    "r, ri, i",
    "r, ri, ri, i",
    "p, ri, i",
    "p, ri, ri, i",
];
const VIDEO_TYPES: &[&str] = &[".u32", ".s32"];
const TCGEN05_KINDS: &[&str] = &[
    ".kind::f16",
    ".kind::tf32",
    ".kind::f8f6f4",
    ".kind::i8",
    ".kind::mxf8f6f4",
    ".kind::mxf4",
    ".kind::mxf4nvf4",
];
const TCGEN05_COLLECTOR: &[&str] = &[
    ".collector::a::fill",
    ".collector::a::use",
    ".collector::a::lastuse",
    ".collector::a::discard",
];
const TCGEN05_WS_COLLECTOR: &[&str] = &[
    ".collector::b0::fill",
    ".collector::b0::use",
    ".collector::b0::lastuse",
    ".collector::b0::discard",
    ".collector::b1::fill",
    ".collector::b1::use",
    ".collector::b1::lastuse",
    ".collector::b1::discard",
    ".collector::b2::fill",
    ".collector::b2::use",
    ".collector::b2::lastuse",
    ".collector::b2::discard",
    ".collector::b3::fill",
    ".collector::b3::use",
    ".collector::b3::lastuse",
    ".collector::b3::discard",
];
const TCGEN05_BLOCK_SCALE: &[&str] = &[
    ".block_scale",
    ".scale_vec::1X",
    ".scale_vec::2X",
    ".scale_vec::4X",
    ".block16",
    ".block32",
];
const TCGEN05_MMA_REQS: &[Requirement] = &[
    req(".kind::mxf4nvf4", 8, 7, 100),
    req(".block16", 8, 8, 100),
    req(".block32", 8, 8, 100),
];

/// The syntax lines of the scalar video instructions `vadd` ... `vmax`.
macro_rules! vop_syntax {
    ($op:literal) => {
        concat!(
            $op, ".dtype.atype.btype{.sat} d, a{.asel}, b{.bsel};\n",
            $op, ".dtype.atype.btype{.sat}.op2 d, a{.asel}, b{.bsel}, c;\n",
            $op, ".dtype.atype.btype{.sat} d.dsel, a{.asel}, b{.bsel}, c;\n",
            "// .dtype = .atype = .btype = { .u32, .s32 }, .dsel = .asel = .bsel = { .b0, .b1, .b2, .b3, .h0, .h1 }, .op2 = { .add, .min, .max }",
        )
    };
}

/// The syntax lines of `vshl` and `vshr`.
macro_rules! vsh_syntax {
    ($op:literal) => {
        concat!(
            $op, ".dtype.atype.u32{.sat}.mode d, a{.asel}, b{.bsel};\n",
            $op, ".dtype.atype.u32{.sat}.mode.op2 d, a{.asel}, b{.bsel}, c;\n",
            $op, ".dtype.atype.u32{.sat}.mode d.dsel, a{.asel}, b{.bsel}, c;\n",
            "// .dtype = .atype = { .u32, .s32 }, .mode = { .clamp, .wrap }, .op2 = { .add, .min, .max }",
        )
    };
}

/// The syntax lines of the two-way SIMD video instructions.
macro_rules! vop2_syntax {
    ($op:literal) => {
        concat!(
            $op, ".dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c;\n",
            $op, ".dtype.atype.btype.add d{.mask}, a{.asel}, b{.bsel}, c;\n",
            "// .dtype = .atype = .btype = { .u32, .s32 }, .mask = { .h0, .h1, .h10 }, .asel = .bsel = { .hxy } with x, y in 0..3",
        )
    };
}

/// The syntax lines of the four-way SIMD video instructions.
macro_rules! vop4_syntax {
    ($op:literal) => {
        concat!(
            $op, ".dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c;\n",
            $op, ".dtype.atype.btype.add d{.mask}, a{.asel}, b{.bsel}, c;\n",
            "// .dtype = .atype = .btype = { .u32, .s32 }, .mask = { .b0, .b1, .b10, ..., .b3210 }, .asel = .bsel = { .bxyzw } with x, y, z, w in 0..7",
        )
    };
}

pub static FAMILIES: &[Family] = &[
    // -----------------------------------------------------------------------
    // Integer, floating-point, half-precision and mixed-precision arithmetic.
    Family {
        forms: &["r:T0, ri:T, ri:T0"],
        types: cat!(INT_TYPES, &[".u16x2", ".s16x2", ".f32", ".f64", ".f32x2"], HALF_TYPES),
        modifiers: cat!(&[".sat", ".ftz"], RND),
        requirements: &[
            req(".u16x2", 8, 0, 90),
            req(".s16x2", 8, 0, 90),
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
            req(".f32x2", 8, 6, 100),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "add",
            IntegerArithmetic,
            "Add two values: d = a + b (integer, floating point, half precision, packed, or f32 = f16/bf16 + f32).",
            "add.type d, a, b;\nadd{.sat}.s32 d, a, b;\nadd{.rnd}{.ftz}{.sat}.f32 d, a, b;\nadd{.rnd}{.ftz}.f32x2 d, a, b;\nadd{.rnd}.f64 d, a, b;\nadd{.rnd}{.ftz}{.sat}.f16 d, a, b;\nadd{.rnd}{.ftz}{.sat}.f16x2 d, a, b;\nadd{.rnd}.bf16 d, a, b;\nadd{.rnd}.bf16x2 d, a, b;\nadd{.rnd}{.sat}.f32.atype d, a, c;",
        )
    },
    Family {
        forms: &["r:T0, ri:T, ri:T0"],
        types: cat!(INT_TYPES, &[".f32", ".f64", ".f32x2"], HALF_TYPES),
        modifiers: cat!(&[".sat", ".ftz"], RND),
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
            req(".f32x2", 8, 6, 100),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "sub",
            IntegerArithmetic,
            "Subtract one value from another: d = a - b (integer, floating point, half precision, or f32 = f16/bf16 - f32).",
            "sub.type d, a, b;\nsub{.sat}.s32 d, a, b;\nsub{.rnd}{.ftz}{.sat}.f32 d, a, b;\nsub{.rnd}{.ftz}.f32x2 d, a, b;\nsub{.rnd}.f64 d, a, b;\nsub{.rnd}{.ftz}{.sat}.f16 d, a, b;\nsub{.rnd}{.ftz}{.sat}.f16x2 d, a, b;\nsub{.rnd}.bf16 d, a, b;\nsub{.rnd}.bf16x2 d, a, b;\nsub{.rnd}{.sat}.f32.atype d, a, c;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".u32", ".s32", ".u64", ".s64"],
        min_ptx: v(1, 2),
        requirements: &[req(".u64", 4, 3, 20), req(".s64", 4, 3, 20)],
        type_check: TypeCheck::Strict,
        ..fam(
            "add.cc",
            ExtendedPrecisionArithmetic,
            "Add two values and write the carry-out to the condition code CC.CF.",
            "add.cc.type d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".u32", ".s32", ".u64", ".s64"],
        modifiers: &[".cc"],
        min_ptx: v(1, 2),
        requirements: &[req(".u64", 4, 3, 20), req(".s64", 4, 3, 20)],
        type_check: TypeCheck::Strict,
        ..fam(
            "addc",
            ExtendedPrecisionArithmetic,
            "Add two values plus the carry-in CC.CF, optionally writing the carry-out.",
            "addc{.cc}.type d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".u32", ".s32", ".u64", ".s64"],
        min_ptx: v(1, 2),
        requirements: &[req(".u64", 4, 3, 20), req(".s64", 4, 3, 20)],
        type_check: TypeCheck::Strict,
        ..fam(
            "sub.cc",
            ExtendedPrecisionArithmetic,
            "Subtract one value from another and write the borrow-out to CC.CF.",
            "sub.cc.type d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".u32", ".s32", ".u64", ".s64"],
        modifiers: &[".cc"],
        min_ptx: v(1, 2),
        requirements: &[req(".u64", 4, 3, 20), req(".s64", 4, 3, 20)],
        type_check: TypeCheck::Strict,
        ..fam(
            "subc",
            ExtendedPrecisionArithmetic,
            "Subtract one value and the borrow-in CC.CF from another, optionally writing the borrow-out.",
            "subc{.cc}.type d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T", "r:W, ri:T, ri:T"],
        types: cat!(INT_TYPES, &[".f32", ".f64", ".f32x2"], HALF_TYPES),
        modifiers: cat!(&[".hi", ".lo", ".wide", ".sat", ".ftz"], RND),
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
            req(".f32x2", 8, 6, 100),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "mul",
            IntegerArithmetic,
            "Multiply two values: d = a * b (integer .lo/.hi/.wide part, floating point, half precision).",
            "mul.mode.type d, a, b;  // .mode = { .hi, .lo, .wide }\nmul{.rnd}{.ftz}{.sat}.f32 d, a, b;\nmul{.rnd}{.ftz}.f32x2 d, a, b;\nmul{.rnd}.f64 d, a, b;\nmul{.rnd}{.ftz}{.sat}.f16 d, a, b;\nmul{.rnd}{.ftz}{.sat}.f16x2 d, a, b;\nmul{.rnd}.bf16 d, a, b;\nmul{.rnd}.bf16x2 d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:T", "r:W, ri:T, ri:T, ri:W"],
        types: cat!(INT_TYPES, &[".f32", ".f64"]),
        modifiers: cat!(&[".hi", ".lo", ".wide", ".sat", ".ftz", ".cc"], RND),
        requirements: &[req(".cc", 3, 0, 20)],
        type_check: TypeCheck::Strict,
        ..fam(
            "mad",
            IntegerArithmetic,
            "Multiply two values and add a third: d = a * b + c (integer .lo/.hi/.wide, optionally writing the carry; floating point).",
            "mad.mode.type d, a, b, c;  // .mode = { .hi, .lo, .wide }\nmad.hi.sat.s32 d, a, b, c;\nmad{.hi,.lo}.cc.type d, a, b, c;  // .type = { .u32, .s32, .u64, .s64 }\nmad{.ftz}{.sat}.f32 d, a, b, c;\nmad.rnd{.ftz}{.sat}.f32 d, a, b, c;\nmad.rnd.f64 d, a, b, c;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:T"],
        types: &[".u32", ".s32", ".u64", ".s64"],
        modifiers: &[".hi", ".lo", ".cc"],
        min_ptx: v(3, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "madc",
            ExtendedPrecisionArithmetic,
            "Multiply two values, add a third and the carry-in CC.CF, optionally writing the carry-out.",
            "madc{.hi,.lo}{.cc}.type d, a, b, c;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".u32", ".s32"],
        modifiers: &[".hi", ".lo"],
        type_check: TypeCheck::Strict,
        ..fam(
            "mul24",
            IntegerArithmetic,
            "Multiply two 24-bit integers, giving the high or low 32 bits of the 48-bit product.",
            "mul24.mode.type d, a, b;  // .mode = { .hi, .lo }, .type = { .u32, .s32 }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:T"],
        types: &[".u32", ".s32"],
        modifiers: &[".hi", ".lo", ".sat"],
        type_check: TypeCheck::Strict,
        ..fam(
            "mad24",
            IntegerArithmetic,
            "Multiply two 24-bit integers and add a third value.",
            "mad24.mode.type d, a, b, c;\nmad24.hi.sat.s32 d, a, b, c;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:T"],
        types: INT_TYPES,
        type_check: TypeCheck::Strict,
        ..fam(
            "sad",
            IntegerArithmetic,
            "Sum of absolute differences: d = c + |a - b|.",
            "sad.type d, a, b, c;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: cat!(INT_TYPES, &[".f32", ".f64"]),
        modifiers: cat!(&[".approx", ".full", ".ftz"], RND),
        requirements: &[req(".full", 1, 4, 0)],
        type_check: TypeCheck::Strict,
        ..fam(
            "div",
            IntegerArithmetic,
            "Divide one value by another: d = a / b.",
            "div.type d, a, b;\ndiv.approx{.ftz}.f32 d, a, b;\ndiv.full{.ftz}.f32 d, a, b;\ndiv.rnd{.ftz}.f32 d, a, b;\ndiv.rnd.f64 d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: INT_TYPES,
        type_check: TypeCheck::Strict,
        ..fam("rem", IntegerArithmetic, "Integer remainder: d = a % b.", "rem.type d, a, b;")
    },
    Family {
        forms: &["r:T, ri:T"],
        types: cat!(&[".s16", ".s32", ".s64", ".f32", ".f64"], HALF_TYPES),
        modifiers: &[".ftz"],
        requirements: &[
            req(".f16", 6, 5, 53),
            req(".f16x2", 6, 5, 53),
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "abs",
            IntegerArithmetic,
            "Absolute value: d = |a|.",
            "abs.type d, a;  // .type = { .s16, .s32, .s64 }\nabs{.ftz}.f32 d, a;\nabs.f64 d, a;\nabs{.ftz}.f16 d, a;\nabs{.ftz}.f16x2 d, a;\nabs.bf16 d, a;\nabs.bf16x2 d, a;",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: cat!(&[".s16", ".s32", ".s64", ".f32", ".f64"], HALF_TYPES),
        modifiers: &[".ftz"],
        requirements: &[
            req(".f16", 6, 0, 53),
            req(".f16x2", 6, 0, 53),
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "neg",
            IntegerArithmetic,
            "Arithmetic negation: d = -a.",
            "neg.type d, a;  // .type = { .s16, .s32, .s64 }\nneg{.ftz}.f32 d, a;\nneg.f64 d, a;\nneg{.ftz}.f16 d, a;\nneg{.ftz}.f16x2 d, a;\nneg.bf16 d, a;\nneg.bf16x2 d, a;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T", "r:T, ri:T, ri:T, ri:T"],
        types: cat!(INT_TYPES, &[".u16x2", ".s16x2", ".f32", ".f64"], HALF_TYPES),
        modifiers: &[".relu", ".ftz", ".NaN", ".xorsign", ".abs"],
        requirements: &[
            req(".u16x2", 8, 0, 90),
            req(".s16x2", 8, 0, 90),
            req(".relu", 8, 0, 90),
            req(".f16", 7, 0, 80),
            req(".f16x2", 7, 0, 80),
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
            req(".NaN", 7, 0, 80),
            req(".xorsign", 7, 2, 86),
            req(".abs", 7, 2, 86),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "min",
            IntegerArithmetic,
            "Minimum of two values (three for .f32 on sm_100 and later).",
            "min.atype d, a, b;  // .atype = { .u16, .u32, .u64, .u16x2, .s16, .s64 }\nmin{.relu}.btype d, a, b;  // .btype = { .s16x2, .s32 }\nmin{.ftz}{.NaN}{.xorsign.abs}.f32 d, a, b;\nmin{.ftz}{.NaN}{.abs}.f32 d, a, b, c;\nmin.f64 d, a, b;\nmin{.ftz}{.NaN}{.xorsign.abs}.f16 d, a, b;\nmin{.ftz}{.NaN}{.xorsign.abs}.f16x2 d, a, b;\nmin{.NaN}{.xorsign.abs}.bf16 d, a, b;\nmin{.NaN}{.xorsign.abs}.bf16x2 d, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T", "r:T, ri:T, ri:T, ri:T"],
        types: cat!(INT_TYPES, &[".u16x2", ".s16x2", ".f32", ".f64"], HALF_TYPES),
        modifiers: &[".relu", ".ftz", ".NaN", ".xorsign", ".abs"],
        requirements: &[
            req(".u16x2", 8, 0, 90),
            req(".s16x2", 8, 0, 90),
            req(".relu", 8, 0, 90),
            req(".f16", 7, 0, 80),
            req(".f16x2", 7, 0, 80),
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
            req(".NaN", 7, 0, 80),
            req(".xorsign", 7, 2, 86),
            req(".abs", 7, 2, 86),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "max",
            IntegerArithmetic,
            "Maximum of two values (three for .f32 on sm_100 and later).",
            "max.atype d, a, b;  // .atype = { .u16, .u32, .u64, .u16x2, .s16, .s64 }\nmax{.relu}.btype d, a, b;  // .btype = { .s16x2, .s32 }\nmax{.ftz}{.NaN}{.xorsign.abs}.f32 d, a, b;\nmax{.ftz}{.NaN}{.abs}.f32 d, a, b, c;\nmax.f64 d, a, b;\nmax{.ftz}{.NaN}{.xorsign.abs}.f16 d, a, b;\nmax{.ftz}{.NaN}{.xorsign.abs}.f16x2 d, a, b;\nmax{.NaN}{.xorsign.abs}.bf16 d, a, b;\nmax{.NaN}{.xorsign.abs}.bf16x2 d, a, b;",
        )
    },
    Family {
        forms: &["r:u32, ri:T"],
        types: &[".b32", ".b64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam("popc", IntegerArithmetic, "Population count: the number of one bits in a.", "popc.type d, a;  // .type = { .b32, .b64 }")
    },
    Family {
        forms: &["r:u32, ri:T"],
        types: &[".b32", ".b64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam("clz", IntegerArithmetic, "Count leading zeros.", "clz.type d, a;  // .type = { .b32, .b64 }")
    },
    Family {
        forms: &["r:u32, ri:T"],
        types: &[".u32", ".u64", ".s32", ".s64"],
        modifiers: &[".shiftamt"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "bfind",
            IntegerArithmetic,
            "Find the bit position of the most significant non-sign bit (or its shift amount).",
            "bfind{.shiftamt}.type d, a;  // .type = { .u32, .u64, .s32, .s64 }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:u32, ri:s32"],
        types: &[".b32"],
        min_ptx: v(6, 0),
        min_sm: 30,
        type_check: TypeCheck::Strict,
        ..fam(
            "fns",
            IntegerArithmetic,
            "Find the n-th set bit of a mask, starting from a base position.",
            "fns.b32 d, mask, base, offset;",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".b32", ".b64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam("brev", IntegerArithmetic, "Bit reverse.", "brev.type d, a;  // .type = { .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T, ri:u32, ri:u32"],
        types: &[".u32", ".u64", ".s32", ".s64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "bfe",
            IntegerArithmetic,
            "Bit field extract: d = a[b .. b+c-1], zero- or sign-extended.",
            "bfe.type d, a, b, c;  // .type = { .u32, .u64, .s32, .s64 }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:u32, ri:u32"],
        types: &[".b32", ".b64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "bfi",
            IntegerArithmetic,
            "Bit field insert: insert the low c..d bits of a into b.",
            "bfi.type f, a, b, c, d;  // .type = { .b32, .b64 }",
        )
    },
    Family {
        forms: &["r:T, ri:u32, ri:u32"],
        types: &[".b32"],
        modifiers: &[".clamp", ".wrap"],
        min_ptx: v(7, 6),
        min_sm: 70,
        type_check: TypeCheck::Strict,
        ..fam(
            "bmsk",
            IntegerArithmetic,
            "Bit field mask: b bits set starting at bit position a.",
            "bmsk.mode.b32 d, a, b;  // .mode = { .clamp, .wrap }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:u32"],
        types: &[".u32", ".s32"],
        modifiers: &[".clamp", ".wrap"],
        min_ptx: v(7, 6),
        min_sm: 70,
        type_check: TypeCheck::Strict,
        ..fam(
            "szext",
            IntegerArithmetic,
            "Sign- or zero-extend the low b bits of a.",
            "szext.mode.type d, a, b;  // .mode = { .clamp, .wrap }, .type = { .u32, .s32 }",
        )
    },
    Family {
        forms: &["r:T, ri:T0, ri:T, ri:T"],
        types: &[".u32", ".s32"],
        min_ptx: v(5, 0),
        min_sm: 61,
        type_check: TypeCheck::Strict,
        ..fam(
            "dp4a",
            IntegerArithmetic,
            "Four-way byte dot product accumulated into a 32-bit integer.",
            "dp4a.atype.btype d, a, b, c;  // .atype = .btype = { .u32, .s32 }",
        )
    },
    Family {
        forms: &["r:T, ri:T0, ri:T, ri:T"],
        types: &[".u32", ".s32"],
        modifiers: &[".lo", ".hi"],
        min_ptx: v(5, 0),
        min_sm: 61,
        type_check: TypeCheck::Strict,
        ..fam(
            "dp2a",
            IntegerArithmetic,
            "Two-way 16-bit by 8-bit dot product accumulated into a 32-bit integer.",
            "dp2a.mode.atype.btype d, a, b, c;  // .mode = { .lo, .hi }, .atype = .btype = { .u32, .s32 }",
        )
    },
    // Floating point.
    Family {
        forms: &["p, ri:T"],
        types: &[".f32", ".f64"],
        modifiers: &[".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "testp",
            FloatArithmetic,
            "Test a floating-point property (finite, NaN, subnormal, ...), writing a predicate.",
            "testp.op.type p, a;  // .op = { .finite, .infinite, .number, .notanumber, .normal, .subnormal }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T"],
        types: &[".f32", ".f64"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "copysign",
            FloatArithmetic,
            "Copy the sign of a into the value of b.",
            "copysign.type d, a, b;  // .type = { .f32, .f64 }",
        )
    },
    Family {
        forms: &["r:T0, ri:T, ri:T, ri:T0"],
        types: cat!(&[".f32", ".f64", ".f32x2"], HALF_TYPES),
        modifiers: cat!(&[".ftz", ".sat", ".relu", ".oob"], RND),
        min_ptx: v(1, 4),
        min_sm: 13,
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".relu", 7, 0, 80),
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
            req(".oob", 8, 1, 90),
            req(".f32x2", 8, 6, 100),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "fma",
            FloatArithmetic,
            "Fused multiply-add: d = a * b + c with a single rounding.",
            "fma.rnd{.ftz}{.sat}.f32 d, a, b, c;\nfma.rnd{.ftz}.f32x2 d, a, b, c;\nfma.rnd.f64 d, a, b, c;\nfma.rnd{.ftz}{.sat}.f16 d, a, b, c;\nfma.rnd{.ftz}{.sat}.f16x2 d, a, b, c;\nfma.rnd{.ftz}.relu.f16 d, a, b, c;\nfma.rnd{.ftz}.relu.f16x2 d, a, b, c;\nfma.rnd{.relu}.bf16 d, a, b, c;\nfma.rnd{.relu}.bf16x2 d, a, b, c;\nfma.rnd.oob{.relu}.type d, a, b, c;\nfma.rnd{.sat}.f32.abtype d, a, b, c;  // .abtype = { .f16, .bf16 }",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32", ".f64"],
        modifiers: cat!(&[".approx", ".ftz"], RND),
        type_check: TypeCheck::Strict,
        ..fam(
            "rcp",
            FloatArithmetic,
            "Reciprocal: d = 1 / a.",
            "rcp.approx{.ftz}.f32 d, a;\nrcp.rnd{.ftz}.f32 d, a;\nrcp.rnd.f64 d, a;",
        )
    },
    Family {
        forms: &["r:f64, ri:f64"],
        min_ptx: v(2, 1),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "rcp.approx.ftz.f64",
            FloatArithmetic,
            "Fast, approximate double-precision reciprocal (subnormals flushed to zero).",
            "rcp.approx.ftz.f64 d, a;",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32", ".f64"],
        modifiers: cat!(&[".approx", ".ftz"], RND),
        type_check: TypeCheck::Strict,
        ..fam(
            "sqrt",
            FloatArithmetic,
            "Square root.",
            "sqrt.approx{.ftz}.f32 d, a;\nsqrt.rnd{.ftz}.f32 d, a;\nsqrt.rnd.f64 d, a;",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32", ".f64"],
        modifiers: &[".approx", ".ftz"],
        type_check: TypeCheck::Strict,
        ..fam(
            "rsqrt",
            FloatArithmetic,
            "Reciprocal of the square root: d = 1 / sqrt(a).",
            "rsqrt.approx{.ftz}.f32 d, a;\nrsqrt.approx.f64 d, a;",
        )
    },
    Family {
        forms: &["r:f64, ri:f64"],
        min_ptx: v(4, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "rsqrt.approx.ftz.f64",
            FloatArithmetic,
            "Fast, approximate double-precision reciprocal square root (subnormals flushed to zero).",
            "rsqrt.approx.ftz.f64 d, a;",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32"],
        modifiers: &[".approx", ".ftz"],
        type_check: TypeCheck::Strict,
        ..fam("sin", FloatArithmetic, "Approximate sine (argument in radians).", "sin.approx{.ftz}.f32 d, a;")
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32"],
        modifiers: &[".approx", ".ftz"],
        type_check: TypeCheck::Strict,
        ..fam("cos", FloatArithmetic, "Approximate cosine (argument in radians).", "cos.approx{.ftz}.f32 d, a;")
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".f32"],
        modifiers: &[".approx", ".ftz"],
        type_check: TypeCheck::Strict,
        ..fam("lg2", FloatArithmetic, "Approximate base-2 logarithm.", "lg2.approx{.ftz}.f32 d, a;")
    },
    Family {
        forms: &["r:T, ri:T"],
        types: cat!(&[".f32"], HALF_TYPES),
        modifiers: &[".approx", ".ftz"],
        requirements: &[
            req(".f16", 7, 0, 75),
            req(".f16x2", 7, 0, 75),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "ex2",
            FloatArithmetic,
            "Approximate base-2 exponential: d = 2^a.",
            "ex2.approx{.ftz}.f32 d, a;\nex2.approx.atype d, a;  // .atype = { .f16, .f16x2 }\nex2.approx.ftz.btype d, a;  // .btype = { .bf16, .bf16x2 }",
        )
    },
    Family {
        forms: &["r:T, ri:T"],
        types: cat!(&[".f32"], HALF_TYPES),
        modifiers: &[".approx"],
        min_ptx: v(7, 0),
        min_sm: 75,
        requirements: &[req(".bf16", 7, 8, 90), req(".bf16x2", 7, 8, 90)],
        type_check: TypeCheck::Strict,
        ..fam(
            "tanh",
            FloatArithmetic,
            "Approximate hyperbolic tangent.",
            "tanh.approx.type d, a;  // .type = { .f16, .f32, .f16x2, .bf16, .bf16x2 }",
        )
    },
    // -----------------------------------------------------------------------
    // Comparison and selection.
    Family {
        forms: &["r:T0, ri:T, ri:T", "r:T0, ri:T, ri:T, np", "r:T0, ri:T, ri:T, i"],
        types: cat!(BIT_TYPES, INT_TYPES, &[".f32", ".f64"], HALF_TYPES),
        modifiers: cat!(CMP_OPS, BOOL_OPS, &[".ftz"]),
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "set",
            Comparison,
            "Compare two values and write 1.0f/0xffffffff (or 0) to d, optionally combining with a predicate.",
            "set.CmpOp{.ftz}.dtype.stype d, a, b;\nset.CmpOp.BoolOp{.ftz}.dtype.stype d, a, b, {!}c;\nset.CmpOp{.ftz}.f16.stype d, a, b;\nset.CmpOp.bf16.stype d, a, b;\nset.CmpOp{.ftz}.dtype.f16 d, a, b;\nset.CmpOp.dtype.bf16 d, a, b;\nset.CmpOp{.ftz}.dtype.f16x2 d, a, b;\nset.CmpOp.dtype.bf16x2 d, a, b;",
        )
    },
    Family {
        forms: &["pp, ri:T, ri:T", "pp, ri:T, ri:T, np", "pp, ri:T, ri:T, i"],
        types: cat!(BIT_TYPES, INT_TYPES, &[".f32", ".f64"], HALF_TYPES),
        modifiers: cat!(CMP_OPS, BOOL_OPS, &[".ftz"]),
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
        ],
        type_check: TypeCheck::Strict,
        ..fam(
            "setp",
            Comparison,
            "Compare two values and set predicate(s) p (and q = !p), optionally combining with a predicate c.",
            "setp.CmpOp{.ftz}.type p{|q}, a, b;\nsetp.CmpOp.BoolOp{.ftz}.type p{|q}, a, b, {!}c;\nsetp.CmpOp{.ftz}.f16 p, a, b;\nsetp.CmpOp{.ftz}.f16x2 p|q, a, b;\nsetp.CmpOp.bf16 p, a, b;\nsetp.CmpOp.bf16x2 p|q, a, b;",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, np", "r:T, ri:T, ri:T, i"],
        types: cat!(BIT_TYPES, INT_TYPES, &[".f32", ".f64"]),
        type_check: TypeCheck::Strict,
        ..fam(
            "selp",
            Comparison,
            "Select a or b depending on the predicate c: d = c ? a : b.",
            "selp.type d, a, b, c;  // .type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }",
        )
    },
    Family {
        forms: &["r:T0, ri:T0, ri:T0, ri:T"],
        types: cat!(BIT_TYPES, INT_TYPES, &[".f32", ".f64"]),
        modifiers: &[".ftz"],
        type_check: TypeCheck::Strict,
        ..fam(
            "slct",
            Comparison,
            "Select a or b depending on the sign of c: d = (c >= 0) ? a : b.",
            "slct.dtype.s32 d, a, b, c;\nslct{.ftz}.dtype.f32 d, a, b, c;",
        )
    },
    // -----------------------------------------------------------------------
    // Logic and shift.
    Family {
        forms: &["r:T, ri:T, ri:T", "p, np, np", "p, np, i", "p, i, np", "p, i, i"],
        types: &[".pred", ".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("and", Logic, "Bitwise AND.", "and.type d, a, b;  // .type = { .pred, .b16, .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T, ri:T", "p, np, np", "p, np, i", "p, i, np", "p, i, i"],
        types: &[".pred", ".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("or", Logic, "Bitwise OR.", "or.type d, a, b;  // .type = { .pred, .b16, .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T, ri:T", "p, np, np", "p, np, i", "p, i, np", "p, i, i"],
        types: &[".pred", ".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("xor", Logic, "Bitwise exclusive OR.", "xor.type d, a, b;  // .type = { .pred, .b16, .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T", "p, np", "p, i"],
        types: &[".pred", ".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("not", Logic, "Bitwise negation (one's complement).", "not.type d, a;  // .type = { .pred, .b16, .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T"],
        types: &[".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("cnot", Logic, "C/C++-style logical negation: d = (a == 0) ? 1 : 0.", "cnot.type d, a;  // .type = { .b16, .b32, .b64 }")
    },
    Family {
        forms: &[
            "r:T, ri:T, ri:T, ri:T, i",
            "x, ri:T, ri:T, ri:T, i, np",
            "x, ri:T, ri:T, ri:T, i, i",
        ],
        types: &[".b32"],
        modifiers: &[".and", ".or"],
        min_ptx: v(4, 3),
        min_sm: 50,
        requirements: &[req(".and", 8, 2, 0), req(".or", 8, 2, 0)],
        type_check: TypeCheck::Strict,
        ..fam(
            "lop3",
            Logic,
            "Arbitrary logical operation on three inputs, given by a lookup table immLut (optionally also combining into a predicate).",
            "lop3.b32 d, a, b, c, immLut;\nlop3.BoolOp.b32 d|p, a, b, c, immLut, q;  // .BoolOp = { .or, .and }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:u32"],
        types: &[".b32"],
        modifiers: &[".l", ".r", ".clamp", ".wrap"],
        min_ptx: v(3, 1),
        min_sm: 32,
        type_check: TypeCheck::Strict,
        ..fam(
            "shf",
            Logic,
            "Funnel shift: shift the 64-bit value b:a left or right and keep 32 bits.",
            "shf.l.mode.b32 d, a, b, c;\nshf.r.mode.b32 d, a, b, c;  // .mode = { .clamp, .wrap }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:u32"],
        types: &[".b16", ".b32", ".b64"],
        type_check: TypeCheck::Strict,
        ..fam("shl", Logic, "Shift bits left, zero-fill on the right.", "shl.type d, a, b;  // .type = { .b16, .b32, .b64 }")
    },
    Family {
        forms: &["r:T, ri:T, ri:u32"],
        types: cat!(BIT_TYPES, INT_TYPES),
        type_check: TypeCheck::Strict,
        ..fam(
            "shr",
            Logic,
            "Shift bits right, sign- or zero-fill on the left.",
            "shr.type d, a, b;  // .type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64 }",
        )
    },
    // -----------------------------------------------------------------------
    // Data movement.
    Family {
        // `p, ri`: also `mov.pred %p, %is_explicit_cluster` (a special register).
        forms: &["r:T, rs:T", "v, vi", "p, np", "p, ri"],
        types: &[
            ".pred", ".b16", ".b32", ".b64", ".b128", ".u16", ".u32", ".u64", ".s16", ".s32",
            ".s64", ".f32", ".f64",
        ],
        modifiers: &[".v2", ".v4"],
        requirements: &[req(".b128", 8, 3, 0)],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "mov",
            DataMovement,
            "Copy a register, immediate, special register or the address of a variable or function into d; with vector operands, pack or unpack.",
            "mov.type d, a;\nmov.type d, sreg;\nmov.type d, avar;  // address of a variable\nmov.type d, avar+imm;\nmov.u32 d, fname;  // address of a function\nmov.u64 d, fname;\nmov.btype d, {a, b, ...};  // pack\nmov.btype {a, b, ...}, d;  // unpack",
        )
    },
    Family {
        forms: &["x, ri:T, ri:b32, ri:b32"],
        types: &[".b32"],
        modifiers: &[".up", ".down", ".bfly", ".idx"],
        min_ptx: v(3, 0),
        min_sm: 30,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "shfl",
            DataMovement,
            "Exchange a register between the threads of a warp (deprecated; not on sm_70+ from PTX 6.4, use shfl.sync).",
            "shfl.mode.b32 d{|p}, a, b, c;  // .mode = { .up, .down, .bfly, .idx }",
        )
    },
    Family {
        forms: &["x, ri:T, ri:b32, ri:b32, ri:b32"],
        types: &[".b32"],
        modifiers: &[".up", ".down", ".bfly", ".idx"],
        min_ptx: v(6, 0),
        min_sm: 30,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "shfl.sync",
            DataMovement,
            "Exchange a register between the threads named in membermask.",
            "shfl.sync.mode.b32 d{|p}, a, b, c, membermask;  // .mode = { .up, .down, .bfly, .idx }",
        )
    },
    Family {
        forms: &["r:T, ri:T, ri:T, ri:T"],
        types: &[".b32"],
        modifiers: &[".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"],
        min_ptx: v(2, 0),
        min_sm: 20,
        type_check: TypeCheck::Strict,
        ..fam(
            "prmt",
            DataMovement,
            "Permute bytes from the two 32-bit registers a and b under the selector c.",
            "prmt.b32{.mode} d, a, b, c;  // .mode = { .f4e, .b4e, .rc8, .ecl, .ecr, .rc16 }",
        )
    },
    Family {
        forms: &["v:T, m, ri:b64?"],
        types: LDST_TYPES,
        modifiers: cat!(
            LD_SPACES,
            SCOPES,
            L1_EVICT,
            L2_EVICT,
            L2_PREFETCH,
            VEC,
            &[
                ".weak", ".volatile", ".relaxed", ".acquire", ".mmio", ".ca", ".cg", ".cs",
                ".lu", ".cv", ".nc", ".L2::cache_hint",
            ],
        ),
        requirements: &[
            req(".weak", 6, 0, 0),
            req(".relaxed", 6, 0, 70),
            req(".acquire", 6, 0, 70),
            req(".cta", 6, 0, 70),
            req(".gpu", 6, 0, 70),
            req(".sys", 6, 0, 70),
            req(".cluster", 7, 8, 90),
            req(".mmio", 8, 2, 70),
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".param::entry", 8, 3, 0),
            req(".param::func", 8, 3, 0),
            req(".nc", 3, 1, 32),
            req(".L1::evict_normal", 7, 4, 70),
            req(".L1::evict_unchanged", 7, 4, 70),
            req(".L1::evict_first", 7, 4, 70),
            req(".L1::evict_last", 7, 4, 70),
            req(".L1::no_allocate", 7, 4, 70),
            req(".L2::evict_normal", 8, 8, 100),
            req(".L2::evict_first", 8, 8, 100),
            req(".L2::evict_last", 8, 8, 100),
            req(".L2::64B", 7, 4, 75),
            req(".L2::128B", 7, 4, 75),
            req(".L2::256B", 7, 4, 80),
            req(".L2::cache_hint", 7, 4, 80),
            req(".b128", 8, 3, 70),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "ld",
            DataMovement,
            "Load a register variable (scalar or vector) from a state space.",
            "ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};\nld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};\nld.volatile{.ss}{.level::prefetch_size}{.vec}.type d, [a];\nld.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};\nld.acquire.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};\nld.mmio.relaxed.sys{.global}.type d, [a];",
        )
    },
    Family {
        forms: &["v:T, m, ri:b64?"],
        types: LDST_TYPES,
        modifiers: cat!(
            L1_EVICT,
            L2_EVICT,
            L2_PREFETCH,
            VEC,
            &[".ca", ".cg", ".cs", ".L2::cache_hint"],
        ),
        min_ptx: v(3, 1),
        min_sm: 32,
        requirements: &[
            req(".L1::evict_normal", 7, 4, 70),
            req(".L1::evict_unchanged", 7, 4, 70),
            req(".L1::evict_first", 7, 4, 70),
            req(".L1::evict_last", 7, 4, 70),
            req(".L1::no_allocate", 7, 4, 70),
            req(".L2::evict_normal", 8, 8, 100),
            req(".L2::evict_first", 8, 8, 100),
            req(".L2::evict_last", 8, 8, 100),
            req(".L2::64B", 7, 4, 75),
            req(".L2::128B", 7, 4, 75),
            req(".L2::256B", 7, 4, 80),
            req(".L2::cache_hint", 7, 4, 80),
            req(".b128", 8, 3, 70),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "ld.global.nc",
            DataMovement,
            "Load from global memory through the non-coherent (read-only) cache.",
            "ld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.type d, [a]{, cache-policy};\nld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.vec.type d, [a]{, cache-policy};\nld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type d, [a]{, cache-policy};\nld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type d, [a]{, cache-policy};",
        )
    },
    Family {
        forms: &["v:T, m"],
        types: LDST_TYPES,
        modifiers: &[".global", ".v2", ".v4"],
        min_ptx: v(2, 0),
        min_sm: 20,
        requirements: &[req(".b128", 8, 3, 70)],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "ldu",
            DataMovement,
            "Load a read-only value that is the same for all threads of a warp (uniform load).",
            "ldu{.ss}.type d, [a];\nldu{.ss}.vec.type d, [a];  // .ss = { .global }, .vec = { .v2, .v4 }",
        )
    },
    Family {
        forms: &["m, vi:T, ri:b64?"],
        types: LDST_TYPES,
        modifiers: cat!(
            &[
                ".global", ".local", ".param", ".param::func", ".shared", ".shared::cta",
                ".shared::cluster",
            ],
            SCOPES,
            L1_EVICT,
            L2_EVICT,
            VEC,
            &[
                ".weak", ".volatile", ".relaxed", ".release", ".mmio", ".wb", ".cg", ".cs",
                ".wt", ".L2::cache_hint",
            ],
        ),
        requirements: &[
            req(".weak", 6, 0, 0),
            req(".relaxed", 6, 0, 70),
            req(".release", 6, 0, 70),
            req(".cta", 6, 0, 70),
            req(".gpu", 6, 0, 70),
            req(".sys", 6, 0, 70),
            req(".cluster", 7, 8, 90),
            req(".mmio", 8, 2, 70),
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".param::func", 8, 3, 0),
            req(".L1::evict_normal", 7, 4, 70),
            req(".L1::evict_unchanged", 7, 4, 70),
            req(".L1::evict_first", 7, 4, 70),
            req(".L1::evict_last", 7, 4, 70),
            req(".L1::no_allocate", 7, 4, 70),
            req(".L2::evict_normal", 8, 8, 100),
            req(".L2::evict_first", 8, 8, 100),
            req(".L2::evict_last", 8, 8, 100),
            req(".L2::cache_hint", 7, 4, 80),
            req(".b128", 8, 3, 70),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "st",
            DataMovement,
            "Store a register variable (scalar or vector) to a state space.",
            "st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};\nst{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};\nst.volatile{.ss}{.vec}.type [a], b;\nst.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};\nst.release.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};\nst.mmio.relaxed.sys{.global}.type [a], b;",
        )
    },
    Family {
        forms: &["m, vi:T, m", "m, vi:T"],
        types: &[
            ".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
            ".s64", ".f32", ".f64",
        ],
        modifiers: &[
            ".weak", ".release", ".mmio", ".cluster", ".gpu", ".sys", ".shared::cluster",
            ".global", ".mbarrier::complete_tx::bytes", ".v2", ".v4",
        ],
        min_ptx: v(8, 1),
        min_sm: 90,
        requirements: &[
            req(".release", 8, 7, 100),
            req(".mmio", 8, 7, 100),
            req(".global", 8, 7, 100),
            req(".gpu", 8, 7, 100),
            req(".sys", 8, 7, 100),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "st.async",
            DataMovement,
            "Asynchronous store to distributed shared memory signalling an mbarrier, or asynchronous release store to global memory.",
            "st.async{.sem}{.scope}{.ss}{.completion_mechanism}{.vec}.type [a], b, [mbar];  // .sem = { .weak }, .scope = { .cluster }, .ss = { .shared::cluster }\nst.async{.mmio}.sem.scope{.ss}.type [a], b;  // .sem = { .release }, .scope = { .gpu, .sys }, .ss = { .global }",
        )
    },
    Family {
        forms: &["m, ri:b64, i"],
        modifiers: &[".weak", ".shared::cta"],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "st.bulk",
            DataMovement,
            "Initialize a region of shared memory to zero.",
            "st.bulk{.weak}{.shared::cta} [a], size, initval;  // initval must be zero",
        )
    },
    Family {
        forms: &["v:T, m"],
        types: &[
            ".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f16", ".f16x2", ".bf16",
            ".bf16x2", ".f32", ".f64", ".e5m2", ".e5m2x2", ".e5m2x4", ".e4m3", ".e4m3x2",
            ".e4m3x4",
        ],
        modifiers: cat!(
            SCOPES,
            VEC,
            &[
                ".weak", ".relaxed", ".acquire", ".global", ".min", ".max", ".add", ".and", ".or",
                ".xor", ".acc::f32", ".acc::f16",
            ],
        ),
        min_ptx: v(8, 1),
        min_sm: 90,
        requirements: &[
            req(".acc::f32", 8, 2, 90),
            req(".acc::f16", 8, 6, 100),
            req(".e5m2", 8, 6, 100),
            req(".e5m2x2", 8, 6, 100),
            req(".e5m2x4", 8, 6, 100),
            req(".e4m3", 8, 6, 100),
            req(".e4m3x2", 8, 6, 100),
            req(".e4m3x4", 8, 6, 100),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "multimem.ld_reduce",
            DataMovement,
            "Load from all locations of a multimem address and reduce the values.",
            "multimem.ld_reduce{.ldsem}{.scope}{.ss}.op.type d, [a];\nmultimem.ld_reduce.weak{.ss}.op.type d, [a];\nmultimem.ld_reduce{.ldsem}{.scope}{.ss}.op{.acc_prec}{.vec}.type d, [a];\nmultimem.ld_reduce.weak{.ss}.op{.acc_prec}{.vec}.type d, [a];",
        )
    },
    Family {
        forms: &["m, v:T"],
        types: &[
            ".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f16", ".f16x2", ".bf16",
            ".bf16x2", ".f32", ".f64", ".e5m2", ".e5m2x2", ".e5m2x4", ".e4m3", ".e4m3x2",
            ".e4m3x4",
        ],
        modifiers: cat!(SCOPES, VEC, &[".weak", ".relaxed", ".release", ".global"]),
        min_ptx: v(8, 1),
        min_sm: 90,
        requirements: &[
            req(".e5m2", 8, 6, 100),
            req(".e5m2x2", 8, 6, 100),
            req(".e5m2x4", 8, 6, 100),
            req(".e4m3", 8, 6, 100),
            req(".e4m3x2", 8, 6, 100),
            req(".e4m3x4", 8, 6, 100),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "multimem.st",
            DataMovement,
            "Store a value to all locations of a multimem address.",
            "multimem.st{.stsem}{.scope}{.ss}.type [a], b;\nmultimem.st.weak{.ss}.type [a], b;\nmultimem.st{.stsem}{.scope}{.ss}{.vec}.type [a], b;\nmultimem.st.weak{.ss}{.vec}.type [a], b;",
        )
    },
    Family {
        forms: &["m, v:T"],
        types: &[
            ".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f16", ".f16x2", ".bf16",
            ".bf16x2", ".f32", ".f64",
        ],
        modifiers: cat!(
            SCOPES,
            VEC,
            &[".relaxed", ".release", ".global", ".min", ".max", ".add", ".and", ".or", ".xor"],
        ),
        min_ptx: v(8, 1),
        min_sm: 90,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "multimem.red",
            DataMovement,
            "Reduce a value into all locations of a multimem address.",
            "multimem.red{.redsem}{.scope}{.ss}.op.type [a], b;\nmultimem.red{.redsem}{.scope}{.ss}.redop{.vec}.redtype [a], b;",
        )
    },
    Family {
        forms: &["m"],
        modifiers: &[
            ".global", ".local", ".L1", ".L2", ".L2::evict_last", ".L2::evict_normal",
            ".tensormap", ".const", ".param",
        ],
        min_ptx: v(2, 0),
        min_sm: 20,
        requirements: &[
            req(".L2::evict_last", 7, 4, 80),
            req(".L2::evict_normal", 7, 4, 80),
            req(".tensormap", 8, 0, 90),
        ],
        ..fam(
            "prefetch",
            DataMovement,
            "Prefetch a line into the L1 or L2 cache, or prefetch a tensor map.",
            "prefetch{.space}.level [a];  // .space = { .global, .local }, .level = { .L1, .L2 }\nprefetch.global.level::eviction_priority [a];  // { .L2::evict_last, .L2::evict_normal }\nprefetch{.tensormap_space}.tensormap [a];  // .tensormap_space = { .const, .param }",
        )
    },
    Family {
        forms: &["m"],
        modifiers: &[".L1"],
        min_ptx: v(2, 0),
        min_sm: 20,
        ..fam("prefetchu", DataMovement, "Prefetch a line into the uniform cache.", "prefetchu.L1 [a];")
    },
    Family {
        forms: &["m, ri"],
        modifiers: &[".global", ".L2::evict_normal"],
        min_ptx: v(7, 4),
        min_sm: 80,
        ..fam(
            "applypriority",
            DataMovement,
            "Apply an eviction priority to a range of global memory in the L2 cache.",
            "applypriority{.global}.level::eviction_priority [a], size;  // { .L2::evict_normal }",
        )
    },
    Family {
        forms: &["m, ri"],
        modifiers: &[".global", ".L2"],
        min_ptx: v(7, 4),
        min_sm: 80,
        ..fam(
            "discard",
            DataMovement,
            "Invalidate a range of global memory in the L2 cache without writing it back.",
            "discard{.global}.level [a], size;  // .level = { .L2 }",
        )
    },
    Family {
        forms: &["r:T, ri?", "r:T, m, ri, ri"],
        types: &[".b64"],
        modifiers: &[
            ".fractional", ".range", ".cvt", ".global", ".L2", ".L2::evict_last",
            ".L2::evict_normal", ".L2::evict_first", ".L2::evict_unchanged",
        ],
        min_ptx: v(7, 4),
        min_sm: 80,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "createpolicy",
            DataMovement,
            "Create a cache eviction policy for use with .L2::cache_hint.",
            "createpolicy.range{.global}.level::primary_priority{.level::secondary_priority}.b64 cache-policy, [a], primary-size, total-size;\ncreatepolicy.fractional.level::primary_priority{.level::secondary_priority}.b64 cache-policy{, fraction};\ncreatepolicy.cvt.L2.b64 cache-policy, access-property;",
        )
    },
    Family {
        forms: &["p, rs"],
        modifiers: &[
            ".const", ".global", ".local", ".shared", ".shared::cta", ".shared::cluster",
            ".param", ".param::entry",
        ],
        min_ptx: v(2, 0),
        min_sm: 20,
        requirements: &[
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".param", 7, 7, 0),
            req(".param::entry", 8, 3, 0),
        ],
        ..fam(
            "isspacep",
            DataMovement,
            "Test whether a generic address falls within a given state space window.",
            "isspacep.space p, a;  // .space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }",
        )
    },
    Family {
        forms: &["r:T, rs:T"],
        types: &[".u32", ".u64"],
        modifiers: &[
            ".to", ".const", ".global", ".local", ".shared", ".shared::cta", ".shared::cluster",
            ".param", ".param::entry",
        ],
        min_ptx: v(2, 0),
        min_sm: 20,
        requirements: &[
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".param", 7, 7, 0),
            req(".param::entry", 8, 3, 0),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "cvta",
            DataMovement,
            "Convert an address between a state space window and the generic address space.",
            "cvta.space.size p, a;  // state-space address to generic\ncvta.space.size p, var;\ncvta.to.space.size p, a;  // generic to state-space address\n// .space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }, .size = { .u32, .u64 }",
        )
    },
    Family {
        forms: &["r:T, rs:T, ri:u32"],
        types: &[".u32", ".u64"],
        modifiers: &[".shared::cluster"],
        min_ptx: v(7, 8),
        min_sm: 90,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "mapa",
            DataMovement,
            "Map a shared memory address to the corresponding address in another CTA of the cluster.",
            "mapa{.space}.type d, a, b;  // .space = { .shared::cluster }, .type = { .u32, .u64 }",
        )
    },
    Family {
        forms: &["r:u32, rs:T"],
        types: &[".u32", ".u64"],
        modifiers: &[".shared::cluster"],
        min_ptx: v(7, 8),
        min_sm: 90,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "getctarank",
            DataMovement,
            "Get the rank in the cluster of the CTA that owns a shared memory address.",
            "getctarank{.space}.type d, a;  // .space = { .shared::cluster }, .type = { .u32, .u64 }",
        )
    },
    // -----------------------------------------------------------------------
    // Conversion.
    Family {
        forms: &[
            "r:T0, ri:T1",
            "r:T0, ri:T1, ri:T1",
            "r:T0, ri:T1, ri:T1, ri:b32",
            "r:T0, v, ri:b32",
        ],
        types: &[
            ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64", ".f16", ".f32", ".f64",
            ".bf16", ".tf32", ".f16x2", ".bf16x2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2",
            ".e3m2x2", ".ue8m0x2", ".e4m3x4", ".e5m2x4", ".e2m1x4", ".e2m3x4", ".e3m2x4",
        ],
        modifiers: cat!(RND, IRND, &[".rna", ".rs", ".ftz", ".sat", ".relu", ".satfinite"]),
        requirements: &[
            req(".bf16", 7, 0, 80),
            req(".bf16x2", 7, 0, 80),
            req(".f16x2", 7, 0, 80),
            req(".tf32", 7, 0, 80),
            req(".rna", 7, 0, 80),
            req(".relu", 7, 0, 80),
            // ptxas 13.0.88 accepts these at .version 7.8 (the ISA says 8.1).
            req(".satfinite", 7, 8, 0),
            req(".e4m3x2", 7, 8, 89),
            req(".e5m2x2", 7, 8, 89),
            req(".e2m1x2", 8, 6, 100),
            req(".e2m3x2", 8, 6, 100),
            req(".e3m2x2", 8, 6, 100),
            req(".ue8m0x2", 8, 6, 100),
            req(".rs", 8, 7, 100),
            req(".e4m3x4", 8, 7, 100),
            req(".e5m2x4", 8, 7, 100),
            req(".e2m1x4", 8, 7, 100),
            req(".e2m3x4", 8, 7, 100),
            req(".e3m2x4", 8, 7, 100),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "cvt",
            Conversion,
            "Convert a value from one type to another (cvt.dtype.atype d, a), with rounding, saturation and packing variants.",
            "cvt{.irnd}{.ftz}{.sat}.dtype.atype d, a;  // integer rounding\ncvt{.frnd}{.ftz}{.sat}.dtype.atype d, a;  // fp rounding\ncvt.frnd2{.relu}{.satfinite}.f16.f32 d, a;\ncvt.frnd2{.relu}{.satfinite}.f16x2.f32 d, a, b;\ncvt.rs{.relu}{.satfinite}.f16x2.f32 d, a, b, rbits;\ncvt.frnd2{.relu}{.satfinite}.bf16.f32 d, a;\ncvt.frnd2{.relu}{.satfinite}.bf16x2.f32 d, a, b;\ncvt.rs{.relu}{.satfinite}.bf16x2.f32 d, a, b, rbits;\ncvt.rna{.satfinite}.tf32.f32 d, a;\ncvt.frnd2{.satfinite}{.relu}.tf32.f32 d, a;\ncvt.rn.satfinite{.relu}.f8x2type.f32 d, a, b;\ncvt.rn.satfinite{.relu}.f8x2type.f16x2 d, a;\ncvt.rn{.relu}.f16x2.f8x2type d, a;\ncvt.rs{.relu}.satfinite.f8x4type.f32 d, {a, b, e, f}, rbits;\ncvt.rn.satfinite{.relu}.f4x2type.f32 d, a, b;\ncvt.rn{.relu}.f16x2.f4x2type d, a;\ncvt.rs{.relu}.satfinite.f4x4type.f32 d, {a, b, e, f}, rbits;\ncvt.rn.satfinite{.relu}.f6x2type.f32 d, a, b;\ncvt.rn{.relu}.f16x2.f6x2type d, a;\ncvt.rs{.relu}.satfinite.f6x4type.f32 d, {a, b, e, f}, rbits;\ncvt.frnd3{.satfinite}.ue8m0x2.f32 d, a, b;\ncvt.frnd3{.satfinite}.ue8m0x2.bf16x2 d, a;\ncvt.rn.bf16x2.ue8m0x2 d, a;",
        )
    },
    Family {
        forms: &["r:b32, ri:T1, ri:T1", "r:b32, ri:T1, ri:T1, ri:T2"],
        types: &[".u16", ".s16", ".u2", ".s2", ".u4", ".s4", ".u8", ".s8", ".s32", ".b32"],
        modifiers: &[".sat"],
        min_ptx: v(6, 5),
        min_sm: 72,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "cvt.pack",
            Conversion,
            "Convert two (or more) 32-bit integers to narrower integers with saturation and pack them into a 32-bit register.",
            "cvt.pack.sat.convertType.abType d, a, b;  // .convertType = { .u16, .s16 }, .abType = { .s32 }\ncvt.pack.sat.convertType.abType.cType d, a, b, c;  // .convertType = { .u2, .s2, .u4, .s4, .u8, .s8 }, .cType = { .b32 }",
        )
    },
    // -----------------------------------------------------------------------
    // Asynchronous copies, bulk copies and tensor maps.
    Family {
        forms: &["m, m, ri, x?, ri?"],
        modifiers: &[
            ".ca", ".cg", ".shared", ".shared::cta", ".global", ".L2::cache_hint", ".L2::64B",
            ".L2::128B", ".L2::256B",
        ],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[
            req(".L2::cache_hint", 7, 4, 80),
            req(".L2::64B", 7, 4, 80),
            req(".L2::128B", 7, 4, 80),
            req(".L2::256B", 7, 4, 80),
        ],
        ..fam(
            "cp.async",
            DataMovement,
            "Asynchronous copy of 4, 8 or 16 bytes from global to shared memory (non-bulk).",
            "cp.async.ca.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], cp-size{, src-size}{, cache-policy};\ncp.async.cg.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], 16{, src-size}{, cache-policy};\ncp.async.ca.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], cp-size{, ignore-src}{, cache-policy};\ncp.async.cg.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], 16{, ignore-src}{, cache-policy};",
        )
    },
    Family {
        min_ptx: v(7, 0),
        min_sm: 80,
        ..fam(
            "cp.async.commit_group",
            DataMovement,
            "Commit all prior cp.async operations of the thread into a cp.async-group.",
            "cp.async.commit_group;",
        )
    },
    Family {
        forms: &["i"],
        min_ptx: v(7, 0),
        min_sm: 80,
        ..fam(
            "cp.async.wait_group",
            DataMovement,
            "Wait until at most N of the most recent cp.async-groups are pending.",
            "cp.async.wait_group N;",
        )
    },
    Family {
        min_ptx: v(7, 0),
        min_sm: 80,
        ..fam(
            "cp.async.wait_all",
            DataMovement,
            "Wait for the completion of all prior cp.async operations of the thread.",
            "cp.async.wait_all;",
        )
    },
    Family {
        forms: &["m"],
        types: &[".b64"],
        modifiers: &[".noinc", ".shared", ".shared::cta"],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[req(".shared::cta", 7, 8, 80)],
        ..fam(
            "cp.async.mbarrier.arrive",
            DataMovement,
            "Make an mbarrier track the completion of the thread's prior cp.async operations.",
            "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr];",
        )
    },
    Family {
        forms: &["m, m, ri, x?, ri?, ri?"],
        modifiers: &[
            ".shared::cluster", ".shared::cta", ".global", ".mbarrier::complete_tx::bytes",
            ".bulk_group", ".multicast::cluster", ".L2::cache_hint", ".cp_mask",
        ],
        min_ptx: v(8, 0),
        min_sm: 90,
        requirements: &[req(".cp_mask", 8, 6, 100)],
        ..fam(
            "cp.async.bulk",
            DataMovement,
            "Asynchronous bulk copy between global and shared memory or between shared memories of a cluster.",
            "cp.async.bulk.dst.src.completion_mechanism{.level::cache_hint} [dstMem], [srcMem], size, [mbar]{, cache-policy};  // global -> shared::cta\ncp.async.bulk.dst.src.completion_mechanism{.multicast}{.level::cache_hint} [dstMem], [srcMem], size, [mbar]{, ctaMask}{, cache-policy};  // global -> shared::cluster\ncp.async.bulk.dst.src.completion_mechanism [dstMem], [srcMem], size, [mbar];  // shared::cta -> shared::cluster\ncp.async.bulk.dst.src.completion_mechanism{.level::cache_hint}{.cp_mask} [dstMem], [srcMem], size{, cache-policy}{, byteMask};  // shared::cta -> global",
        )
    },
    Family {
        forms: &["m, m, ri, x?"],
        types: &[
            ".b32", ".u32", ".s32", ".b64", ".u64", ".s64", ".f16", ".bf16", ".f32", ".f64",
        ],
        modifiers: &[
            ".shared::cluster", ".shared::cta", ".global", ".mbarrier::complete_tx::bytes",
            ".bulk_group", ".L2::cache_hint", ".and", ".or", ".xor", ".add", ".inc", ".dec",
            ".min", ".max", ".noftz",
        ],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "cp.reduce.async.bulk",
            DataMovement,
            "Asynchronous bulk reduction of shared memory data into global memory or into another CTA's shared memory.",
            "cp.reduce.async.bulk.dst.src.completion_mechanism.redOp.type [dstMem], [srcMem], size, [mbar];  // shared::cta -> shared::cluster\ncp.reduce.async.bulk.dst.src.completion_mechanism{.level::cache_hint}.redOp.type [dstMem], [srcMem], size{, cache-policy};  // shared::cta -> global\ncp.reduce.async.bulk.dst.src.completion_mechanism{.level::cache_hint}.add.noftz.type [dstMem], [srcMem], size{, cache-policy};",
        )
    },
    Family {
        forms: &["m, ri, ri?"],
        modifiers: &[".L2", ".global", ".L2::cache_hint"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "cp.async.bulk.prefetch",
            DataMovement,
            "Prefetch a range of global memory into the L2 cache asynchronously.",
            "cp.async.bulk.prefetch.L2.src{.level::cache_hint} [srcMem], size{, cache-policy};  // .src = { .global }",
        )
    },
    Family {
        forms: &["m, m, x?, x?, ri?, ri?"],
        modifiers: cat!(
            TENSOR_DIMS,
            CTA_GROUP,
            &[
                ".shared::cluster", ".shared::cta", ".global", ".tile", ".tile::gather4",
                ".tile::scatter4", ".im2col", ".im2col::w", ".im2col::w::128", ".im2col_no_offs",
                ".mbarrier::complete_tx::bytes", ".bulk_group", ".multicast::cluster",
                ".L2::cache_hint",
            ],
        ),
        min_ptx: v(8, 0),
        min_sm: 90,
        requirements: &[
            req(".tile::gather4", 8, 6, 100),
            req(".tile::scatter4", 8, 6, 100),
            req(".im2col::w", 8, 6, 100),
            req(".im2col::w::128", 8, 6, 100),
            req(".cta_group::1", 8, 6, 100),
            req(".cta_group::2", 8, 6, 100),
        ],
        ..fam(
            "cp.async.bulk.tensor",
            DataMovement,
            "Asynchronous copy of a tensor tile between global memory (through a tensor map) and shared memory.",
            "cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.cta_group}{.level::cache_hint} [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, cache-policy};  // global -> shared::cta\ncp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint} [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy};  // global -> shared::cluster\ncp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.level::cache_hint} [tensorMap, tensorCoords], [srcMem]{, cache-policy};  // shared::cta -> global",
        )
    },
    Family {
        forms: &["m, m, ri?"],
        modifiers: cat!(
            TENSOR_DIMS,
            &[
                ".global", ".shared::cta", ".add", ".min", ".max", ".inc", ".dec", ".and", ".or",
                ".xor", ".tile", ".im2col_no_offs", ".bulk_group", ".L2::cache_hint",
            ],
        ),
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "cp.reduce.async.bulk.tensor",
            DataMovement,
            "Asynchronous reduction of a shared memory tile into a tensor in global memory.",
            "cp.reduce.async.bulk.tensor.dim.dst.src.redOp{.load_mode}.completion_mechanism{.level::cache_hint} [tensorMap, tensorCoords], [srcMem]{, cache-policy};",
        )
    },
    Family {
        forms: &["m, x?, ri?"],
        modifiers: cat!(
            TENSOR_DIMS,
            &[
                ".L2", ".global", ".tile", ".tile::gather4", ".im2col", ".im2col::w",
                ".im2col::w::128", ".L2::cache_hint",
            ],
        ),
        min_ptx: v(8, 0),
        min_sm: 90,
        requirements: &[
            req(".tile::gather4", 8, 6, 100),
            req(".im2col::w", 8, 6, 100),
            req(".im2col::w::128", 8, 6, 100),
        ],
        ..fam(
            "cp.async.bulk.prefetch.tensor",
            DataMovement,
            "Prefetch a tensor tile from global memory into the L2 cache asynchronously.",
            "cp.async.bulk.prefetch.tensor.dim.L2.src{.load_mode}{.level::cache_hint} [tensorMap, tensorCoords]{, im2colInfo}{, cache-policy};",
        )
    },
    Family {
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "cp.async.bulk.commit_group",
            DataMovement,
            "Commit all prior bulk async operations of the thread into a bulk async-group.",
            "cp.async.bulk.commit_group;",
        )
    },
    Family {
        forms: &["i"],
        modifiers: &[".read"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "cp.async.bulk.wait_group",
            DataMovement,
            "Wait until at most N of the most recent bulk async-groups are pending (.read: only their source reads).",
            "cp.async.bulk.wait_group{.read} N;",
        )
    },
    Family {
        forms: &["m, ri", "m, ri, ri"],
        types: &[".b1024", ".b32", ".b64"],
        modifiers: &[
            ".tile", ".global_address", ".rank", ".box_dim", ".global_dim", ".global_stride",
            ".element_stride", ".elemtype", ".interleave_layout", ".swizzle_mode",
            ".swizzle_atomicity", ".fill_mode", ".global", ".shared::cta",
        ],
        min_ptx: v(8, 3),
        min_sm: 90,
        requirements: &[req(".swizzle_atomicity", 8, 6, 100)],
        ..fam(
            "tensormap.replace",
            DataMovement,
            "Replace a field of a tensor map in memory (sm_90a and later arch-specific targets).",
            "tensormap.replace.mode.field1{.ss}.b1024.type [addr], new_val;\ntensormap.replace.mode.field2{.ss}.b1024.type [addr], ord, new_val;\ntensormap.replace.mode.field3{.ss}.b1024.type [addr], new_val;\n// .mode = { .tile }, .field1 = { .global_address, .rank }, .field2 = { .box_dim, .global_dim, .global_stride, .element_stride }\n// .field3 = { .elemtype, .interleave_layout, .swizzle_mode, .swizzle_atomicity, .fill_mode }, .ss = { .global, .shared::cta }, .type = { .b32, .b64 }",
        )
    },
    Family {
        forms: &["m, m, ri"],
        modifiers: cat!(
            SCOPES,
            &[".global", ".shared::cta", ".tensormap::generic", ".release", ".sync", ".aligned"],
        ),
        min_ptx: v(8, 3),
        min_sm: 90,
        ..fam(
            "tensormap.cp_fenceproxy",
            DataMovement,
            "Copy a tensor map from shared to global memory and fence the tensormap proxy.",
            "tensormap.cp_fenceproxy.cp_qualifiers.fence_qualifiers.sync.aligned [dst], [src], size;\n// .cp_qualifiers = { .global.shared::cta }, .fence_qualifiers = { .tensormap::generic.release.scope }, .scope = { .cta, .cluster, .gpu, .sys }",
        )
    },
    // -----------------------------------------------------------------------
    // Texture and surface.
    Family {
        forms: &["x, m, x?, x?, x?, x?"],
        types: &[".u32", ".s32", ".f16", ".f32", ".f16x2"],
        modifiers: cat!(TEX_GEOMS, &[".v4", ".v2", ".base", ".level", ".grad"]),
        requirements: &[
            req(".f16", 4, 2, 53),
            req(".f16x2", 4, 2, 53),
            req(".2dms", 5, 0, 30),
            req(".a2dms", 5, 0, 30),
        ],
        ..fam(
            "tex",
            Texture,
            "Texture lookup (sample a texture at the given coordinates).",
            "tex.geom.v4.dtype.ctype d, [a, c]{, e}{, f};\ntex.geom.v4.dtype.ctype d{|p}, [a, b, c]{, e}{, f};  // explicit sampler\ntex.geom.v2.f16x2.ctype d{|p}, [a, c]{, e}{, f};\ntex.geom.v2.f16x2.ctype d{|p}, [a, b, c]{, e}{, f};\ntex.base.geom.v4.dtype.ctype d{|p}, [a, {b,} c]{, e}{, f};  // mipmaps\ntex.level.geom.v4.dtype.ctype d{|p}, [a, {b,} c], lod{, e}{, f};\ntex.grad.geom.v4.dtype.ctype d{|p}, [a, {b,} c], dPdx, dPdy{, e}{, f};\n// .geom = { .1d, .2d, .3d, .a1d, .a2d, .cube, .acube, .2dms, .a2dms }, .dtype = { .u32, .s32, .f16, .f32 }, .ctype = { .s32, .f32 }",
        )
    },
    Family {
        forms: &["x, m, x?, x?"],
        types: &[".u32", ".s32", ".f32"],
        modifiers: &[".r", ".g", ".b", ".a", ".2d", ".a2d", ".cube", ".acube", ".v4"],
        min_ptx: v(2, 2),
        min_sm: 20,
        ..fam(
            "tld4",
            Texture,
            "Texture fetch of the 2x2 footprint (one component of each of the four texels).",
            "tld4.comp.2d.v4.dtype.f32 d{|p}, [a, c]{, e}{, f};\ntld4.comp.geom.v4.dtype.f32 d{|p}, [a, b, c]{, e}{, f};  // explicit sampler\n// .comp = { .r, .g, .b, .a }, .geom = { .2d, .a2d, .cube, .acube }, .dtype = { .u32, .s32, .f32 }",
        )
    },
    Family {
        forms: &["r:T, m", "r:T, m, ri"],
        types: &[".b32"],
        modifiers: &[
            ".width", ".height", ".depth", ".channel_data_type", ".channel_order",
            ".normalized_coords", ".array_size", ".num_mipmap_levels", ".num_samples", ".level",
            ".force_unnormalized_coords", ".filter_mode", ".addr_mode_0", ".addr_mode_1",
            ".addr_mode_2",
        ],
        min_ptx: v(1, 5),
        type_check: TypeCheck::Relaxed,
        ..fam(
            "txq",
            Texture,
            "Query an attribute of a texture or sampler.",
            "txq.tquery.b32 d, [a];  // texture attributes\ntxq.level.tlquery.b32 d, [a], lod;\ntxq.squery.b32 d, [a];  // sampler attributes\n// .tquery = { .width, .height, .depth, .channel_data_type, .channel_order, .normalized_coords, .array_size, .num_mipmap_levels, .num_samples }\n// .squery = { .force_unnormalized_coords, .filter_mode, .addr_mode_0, .addr_mode_1, .addr_mode_2 }",
        )
    },
    Family {
        forms: &["p, r"],
        modifiers: &[".texref", ".samplerref", ".surfref"],
        min_ptx: v(4, 0),
        min_sm: 30,
        ..fam(
            "istypep",
            Texture,
            "Test whether an opaque variable is a texture, sampler or surface reference.",
            "istypep.type p, a;  // .type = { .texref, .samplerref, .surfref }",
        )
    },
    Family {
        forms: &["v:T, m"],
        types: &[".b8", ".b16", ".b32", ".b64"],
        modifiers: cat!(
            SURF_MODES,
            &[".b", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".ca", ".cg", ".cs", ".cv", ".v2", ".v4"],
        ),
        min_ptx: v(1, 5),
        type_check: TypeCheck::Relaxed,
        ..fam(
            "suld",
            Surface,
            "Load from a surface (unformatted).",
            "suld.b.geom{.cop}.vec.dtype.clamp d, [a, b];\n// .geom = { .1d, .2d, .3d, .a1d, .a2d }, .cop = { .ca, .cg, .cs, .cv }, .vec = { none, .v2, .v4 }, .dtype = { .b8, .b16, .b32, .b64 }, .clamp = { .trap, .clamp, .zero }",
        )
    },
    Family {
        forms: &["m, v:T"],
        types: &[".b8", ".b16", ".b32", ".b64"],
        modifiers: cat!(
            SURF_MODES,
            &[".b", ".p", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".wb", ".cg", ".cs", ".wt", ".v2", ".v4"],
        ),
        min_ptx: v(1, 5),
        type_check: TypeCheck::Relaxed,
        ..fam(
            "sust",
            Surface,
            "Store to a surface (unformatted .b, or formatted .p).",
            "sust.b.dim{.cop}.vec.ctype.clamp [a, b], c;  // unformatted\nsust.p.dim.vec.b32.clamp [a, b], c;  // formatted\nsust.b.adim{.cop}.vec.ctype.clamp [a, b], c;\n// .dim = { .1d, .2d, .3d }, .adim = { .a1d, .a2d }, .cop = { .wb, .cg, .cs, .wt }, .vec = { none, .v2, .v4 }, .ctype = { .b8, .b16, .b32, .b64 }",
        )
    },
    Family {
        forms: &["m, ri:T"],
        types: &[".u32", ".u64", ".s32", ".s64", ".b32", ".b64"],
        modifiers: cat!(
            SURF_MODES,
            &[".b", ".p", ".add", ".min", ".max", ".and", ".or", ".1d", ".2d", ".3d"],
        ),
        min_ptx: v(2, 0),
        min_sm: 20,
        requirements: &[req(".s64", 8, 1, 20), req(".b64", 8, 1, 20)],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "sured",
            Surface,
            "Reduction (atomic) on a surface location.",
            "sured.b.op.geom.ctype.clamp [a, b], c;  // byte addressing, .ctype = { .u32, .u64, .s32, .b32, .s64 }\nsured.p.op.geom.ctype.clamp [a, b], c;  // sample addressing, .ctype = { .b32, .b64 }\n// .op = { .add, .min, .max, .and, .or }, .geom = { .1d, .2d, .3d }, .clamp = { .trap, .clamp, .zero }",
        )
    },
    Family {
        forms: &["r:T, m"],
        types: &[".b32"],
        modifiers: &[
            ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".array_size",
            ".memory_layout",
        ],
        min_ptx: v(1, 5),
        type_check: TypeCheck::Relaxed,
        ..fam(
            "suq",
            Surface,
            "Query an attribute of a surface.",
            "suq.query.b32 d, [a];  // .query = { .width, .height, .depth, .channel_data_type, .channel_order, .array_size, .memory_layout }",
        )
    },
    // -----------------------------------------------------------------------
    // Control flow.
    Family {
        forms: &["l"],
        modifiers: &[".uni"],
        ..fam("bra", Control, "Branch to a target label.", "@p bra{.uni} tgt;\nbra{.uni} tgt;")
    },
    Family {
        forms: &["ri, l"],
        modifiers: &[".uni"],
        min_ptx: v(6, 0),
        min_sm: 30,
        ..fam(
            "brx.idx",
            Control,
            "Branch to the index-th label of a .branchtargets list.",
            "@p brx.idx{.uni} index, tlist;\nbrx.idx{.uni} index, tlist;",
        )
    },
    Family {
        forms: &["t", "t, a", "t, l", "t, a, l", "a, t", "a, t, a", "a, t, l", "a, t, a, l"],
        modifiers: &[".uni"],
        ..fam(
            "call",
            Control,
            "Call a function (directly, or indirectly through a register with a target list or prototype).",
            "call{.uni} (ret-param), func, (param-list);\ncall{.uni} func, (param-list);\ncall{.uni} func;\ncall{.uni} (ret-param), fptr, (param-list), flist;\ncall{.uni} fptr, (param-list), flist;\ncall{.uni} fptr, flist;\ncall{.uni} (ret-param), fptr, (param-list), fproto;\ncall{.uni} fptr, (param-list), fproto;\ncall{.uni} fptr, fproto;",
        )
    },
    Family {
        modifiers: &[".uni"],
        ..fam("ret", Control, "Return from a function to the caller.", "ret{.uni};")
    },
    Family {
        ..fam("exit", Control, "Terminate the thread.", "exit;")
    },
    // -----------------------------------------------------------------------
    // Synchronization and communication.
    Family {
        forms: BAR_FORMS,
        types: &[".u32", ".pred"],
        modifiers: &[".cta", ".sync", ".arrive", ".red", ".popc", ".and", ".or"],
        requirements: &[req(".cta", 7, 8, 0), req(".arrive", 2, 0, 20), req(".red", 2, 0, 20)],
        ..fam(
            "bar",
            Synchronization,
            "Barrier synchronization among the threads of a CTA (bar.sync is barrier.sync.aligned).",
            "bar{.cta}.sync a{, b};\nbar{.cta}.arrive a, b;\nbar{.cta}.red.popc.u32 d, a{, b}, {!}c;\nbar{.cta}.red.op.pred p, a{, b}, {!}c;  // .op = { .and, .or }",
        )
    },
    Family {
        forms: BAR_FORMS,
        types: &[".u32", ".pred"],
        modifiers: &[".cta", ".sync", ".arrive", ".red", ".popc", ".and", ".or", ".aligned"],
        min_ptx: v(6, 0),
        min_sm: 30,
        requirements: &[req(".cta", 7, 8, 0)],
        ..fam(
            "barrier",
            Synchronization,
            "Barrier synchronization among the threads of a CTA (.aligned: all threads execute the same barrier instruction).",
            "barrier{.cta}.sync{.aligned} a{, b};\nbarrier{.cta}.arrive{.aligned} a, b;\nbarrier{.cta}.red.popc{.aligned}.u32 d, a{, b}, {!}c;\nbarrier{.cta}.red.op{.aligned}.pred p, a{, b}, {!}c;  // .op = { .and, .or }",
        )
    },
    Family {
        forms: &["ri"],
        min_ptx: v(6, 0),
        min_sm: 30,
        ..fam(
            "bar.warp.sync",
            Synchronization,
            "Barrier synchronization among the threads of a warp named in membermask.",
            "bar.warp.sync membermask;",
        )
    },
    Family {
        modifiers: &[".arrive", ".wait", ".release", ".relaxed", ".acquire", ".aligned"],
        min_ptx: v(7, 8),
        min_sm: 90,
        requirements: &[req(".release", 8, 0, 90), req(".relaxed", 8, 0, 90), req(".acquire", 8, 0, 90)],
        ..fam(
            "barrier.cluster",
            Synchronization,
            "Barrier synchronization among all threads of a cluster (split into arrive and wait).",
            "barrier.cluster.arrive{.sem}{.aligned};  // .sem = { .release, .relaxed }\nbarrier.cluster.wait{.acquire}{.aligned};",
        )
    },
    Family {
        modifiers: &[".cta", ".gl", ".sys", ".proxy", ".alias", ".async", ".global", ".shared::cta", ".shared::cluster"],
        min_ptx: v(1, 4),
        requirements: &[req(".cta", 2, 0, 20), req(".sys", 2, 0, 20), req(".proxy", 7, 5, 70)],
        ..fam(
            "membar",
            Synchronization,
            "Memory barrier: enforce an ordering of memory accesses (old-style fence).",
            "membar.level;  // .level = { .cta, .gl, .sys }\nmembar.proxy.proxykind;",
        )
    },
    Family {
        forms: &[""],
        modifiers: cat!(
            SCOPES,
            &[
                ".sc", ".acq_rel", ".acquire", ".release", ".mbarrier_init",
                ".sync_restrict::shared::cluster", ".sync_restrict::shared::cta",
            ],
        ),
        min_ptx: v(6, 0),
        min_sm: 70,
        requirements: &[
            req(".cluster", 7, 8, 90),
            req(".mbarrier_init", 8, 0, 90),
            req(".sync_restrict::shared::cluster", 8, 6, 90),
            req(".sync_restrict::shared::cta", 8, 6, 90),
        ],
        ..fam(
            "fence",
            Synchronization,
            "Memory fence: establish ordering between memory accesses of this thread and others at a scope.",
            "fence{.sem}.scope;  // .sem = { .sc, .acq_rel, .acquire, .release }, .scope = { .cta, .cluster, .gpu, .sys }\nfence.acquire.sync_restrict::shared::cluster.cluster;\nfence.release.sync_restrict::shared::cta.cluster;\nfence.op_restrict.release.cluster;  // .op_restrict = { .mbarrier_init }",
        )
    },
    Family {
        forms: &["", "m, ri"],
        modifiers: cat!(
            SCOPES,
            &[
                ".alias", ".async", ".global", ".shared::cta", ".shared::cluster",
                ".tensormap::generic", ".async::generic", ".acquire", ".release",
                ".sync_restrict::shared::cluster", ".sync_restrict::shared::cta",
            ],
        ),
        min_ptx: v(7, 5),
        min_sm: 70,
        requirements: &[
            req(".async", 8, 0, 90),
            req(".cluster", 7, 8, 90),
            req(".tensormap::generic", 8, 3, 90),
            req(".async::generic", 8, 6, 90),
        ],
        ..fam(
            "fence.proxy",
            Synchronization,
            "Proxy fence: order memory accesses made through different proxies (generic, async, tensormap, alias).",
            "fence.proxy.proxykind;  // .proxykind = { .alias, .async, .async.global, .async.shared::{cta, cluster} }\nfence.proxy.to_proxykind::from_proxykind.release.scope;\nfence.proxy.to_proxykind::from_proxykind.acquire.scope [addr], size;  // { .tensormap::generic }\nfence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;\nfence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
        )
    },
    Family {
        forms: &["v:T, m, vi:T, vi:T?"],
        types: &[
            ".b16", ".b32", ".b64", ".b128", ".u32", ".u64", ".s32", ".s64", ".f32", ".f64",
            ".f16", ".f16x2", ".bf16", ".bf16x2",
        ],
        modifiers: cat!(
            SCOPES,
            &[
                ".relaxed", ".acquire", ".release", ".acq_rel", ".global", ".shared",
                ".shared::cta", ".shared::cluster", ".and", ".or", ".xor", ".cas", ".exch",
                ".add", ".inc", ".dec", ".min", ".max", ".noftz", ".L2::cache_hint", ".v2",
                ".v4", ".v8",
            ],
        ),
        min_ptx: v(1, 1),
        min_sm: 11,
        requirements: &[
            req(".relaxed", 6, 0, 70),
            req(".acquire", 6, 0, 70),
            req(".release", 6, 0, 70),
            req(".acq_rel", 6, 0, 70),
            req(".cta", 5, 0, 60),
            req(".gpu", 5, 0, 60),
            req(".sys", 5, 0, 60),
            req(".cluster", 7, 8, 90),
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".b16", 6, 3, 70),
            req(".b128", 8, 3, 90),
            req(".f16", 6, 3, 70),
            req(".f16x2", 6, 2, 60),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
            req(".f64", 5, 0, 60),
            req(".L2::cache_hint", 7, 4, 80),
            req(".v2", 8, 1, 90),
            req(".v4", 8, 1, 90),
            req(".v8", 8, 1, 90),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "atom",
            Synchronization,
            "Atomic read-modify-write of a memory location; d receives the old value.",
            "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{, cache-policy};\natom{.sem}{.scope}{.space}.op.type d, [a], b, c;\natom{.sem}{.scope}{.space}.cas.b16 d, [a], b, c;\natom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c;\natom{.sem}{.scope}{.space}.exch{.level::cache_hint}.b128 d, [a], b{, cache-policy};\natom{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.{f16, f16x2, bf16, bf16x2} d, [a], b{, cache-policy};\natom{.sem}{.scope}{.global}.add{.level::cache_hint}.vec_32_bit.f32 d, [a], b{, cache-policy};\natom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type d, [a], b{, cache-policy};\natom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_32_bit.packed_type d, [a], b{, cache-policy};",
        )
    },
    Family {
        forms: &["m, vi:T, ri:b64?"],
        types: &[
            ".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f32", ".f64", ".f16", ".f16x2",
            ".bf16", ".bf16x2",
        ],
        modifiers: cat!(
            SCOPES,
            &[
                ".relaxed", ".release", ".global", ".shared", ".shared::cta", ".shared::cluster",
                ".and", ".or", ".xor", ".add", ".inc", ".dec", ".min", ".max", ".noftz",
                ".L2::cache_hint", ".v2", ".v4", ".v8",
            ],
        ),
        min_ptx: v(1, 2),
        min_sm: 11,
        requirements: &[
            req(".relaxed", 6, 0, 70),
            req(".release", 6, 0, 70),
            req(".cta", 5, 0, 60),
            req(".gpu", 5, 0, 60),
            req(".sys", 5, 0, 60),
            req(".cluster", 7, 8, 90),
            req(".shared::cta", 7, 8, 0),
            req(".shared::cluster", 7, 8, 90),
            req(".f16", 6, 3, 70),
            req(".f16x2", 6, 2, 60),
            req(".bf16", 7, 8, 90),
            req(".bf16x2", 7, 8, 90),
            req(".f64", 5, 0, 60),
            req(".L2::cache_hint", 7, 4, 80),
            req(".v2", 8, 1, 90),
            req(".v4", 8, 1, 90),
            req(".v8", 8, 1, 90),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "red",
            Synchronization,
            "Reduction operation on a memory location (atomic, without returning the old value).",
            "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type [a], b{, cache-policy};\nred{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.{f16, f16x2, bf16, bf16x2} [a], b{, cache-policy};\nred{.sem}{.scope}{.global}.add{.level::cache_hint}.vec_32_bit.f32 [a], b{, cache-policy};\nred{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type [a], b{, cache-policy};\nred{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_32_bit.packed_type [a], b{, cache-policy};",
        )
    },
    Family {
        forms: &["m, ri:T, m", "m, ri:T"],
        types: &[".b32", ".u32", ".s32", ".u64", ".s64"],
        modifiers: &[
            ".relaxed", ".release", ".mmio", ".cluster", ".gpu", ".shared::cluster", ".global",
            ".mbarrier::complete_tx::bytes", ".inc", ".dec", ".min", ".max", ".and", ".or",
            ".xor", ".add", ".sys",
        ],
        min_ptx: v(8, 1),
        min_sm: 90,
        requirements: &[
            req(".release", 8, 7, 100),
            req(".mmio", 8, 7, 100),
            req(".global", 8, 7, 100),
            req(".gpu", 8, 7, 100),
            req(".s64", 8, 7, 100),
        ],
        type_check: TypeCheck::Relaxed,
        ..fam(
            "red.async",
            Synchronization,
            "Asynchronous reduction on distributed shared memory signalling an mbarrier, or asynchronous release reduction on global memory.",
            "red.async.sem.scope{.ss}.completion_mechanism.op.type [a], b, [mbar];  // .sem = { .relaxed }, .scope = { .cluster }, .ss = { .shared::cluster }\nred.async{.mmio}.sem.scope{.ss}.add.type [a], b;  // .sem = { .release }, .scope = { .gpu, .cluster }, .ss = { .global }",
        )
    },
    Family {
        forms: &["p, np", "r:b32, np", "p, i", "r:b32, i"],
        types: &[".pred", ".b32"],
        modifiers: &[".all", ".any", ".uni", ".ballot"],
        min_ptx: v(1, 2),
        min_sm: 12,
        ..fam(
            "vote",
            WarpLevel,
            "Vote across the threads of a warp (deprecated; not on sm_70+ from PTX 6.4, use vote.sync).",
            "vote.mode.pred d, {!}a;  // .mode = { .all, .any, .uni }\nvote.ballot.b32 d, {!}a;",
        )
    },
    Family {
        forms: &["p, np, ri", "r:b32, np, ri", "p, i, ri", "r:b32, i, ri"],
        types: &[".pred", ".b32"],
        modifiers: &[".all", ".any", ".uni", ".ballot"],
        min_ptx: v(6, 0),
        min_sm: 30,
        ..fam(
            "vote.sync",
            WarpLevel,
            "Vote across the threads of a warp named in membermask.",
            "vote.sync.mode.pred d, {!}a, membermask;  // .mode = { .all, .any, .uni }\nvote.sync.ballot.b32 d, {!}a, membermask;",
        )
    },
    Family {
        forms: &["r:b32, ri:T, ri:b32"],
        types: &[".b32", ".b64"],
        modifiers: &[".sync"],
        min_ptx: v(6, 0),
        min_sm: 70,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "match.any",
            WarpLevel,
            "match.sync .any: mask of the threads in membermask that hold the same value of a.",
            "match.any.sync.type d, a, membermask;  // .type = { .b32, .b64 }",
        )
    },
    Family {
        forms: &["x, ri:T, ri:b32"],
        types: &[".b32", ".b64"],
        modifiers: &[".sync"],
        min_ptx: v(6, 0),
        min_sm: 70,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "match.all",
            WarpLevel,
            "match.sync .all: mask of the threads in membermask if all hold the same value of a (else 0); p tells which.",
            "match.all.sync.type d{|p}, a, membermask;  // .type = { .b32, .b64 }",
        )
    },
    Family {
        forms: &["r:b32"],
        types: &[".b32"],
        min_ptx: v(6, 2),
        min_sm: 30,
        type_check: TypeCheck::Relaxed,
        ..fam("activemask", WarpLevel, "Mask of the currently active threads of the warp.", "activemask.b32 d;")
    },
    Family {
        forms: &["r:T, ri:T, ri:b32"],
        types: &[".u32", ".s32", ".b32", ".f32"],
        modifiers: &[".add", ".min", ".max", ".and", ".or", ".xor", ".abs", ".NaN"],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[req(".f32", 8, 6, 100), req(".abs", 8, 6, 100), req(".NaN", 8, 6, 100)],
        type_check: TypeCheck::Strict,
        ..fam(
            "redux.sync",
            WarpLevel,
            "Reduce a value across the threads of a warp named in membermask.",
            "redux.sync.op.type dst, src, membermask;  // .op = { .add, .min, .max }, .type = { .u32, .s32 }\nredux.sync.op.b32 dst, src, membermask;  // .op = { .and, .or, .xor }\nredux.sync.op{.abs}{.NaN}.f32 dst, src, membermask;  // .op = { .min, .max }",
        )
    },
    Family {
        modifiers: &[".launch_dependents", ".wait"],
        min_ptx: v(7, 8),
        min_sm: 90,
        ..fam(
            "griddepcontrol",
            Synchronization,
            "Programmatic dependent launch: signal that dependents may launch, or wait for prerequisite grids.",
            "griddepcontrol.action;  // .action = { .launch_dependents, .wait }",
        )
    },
    Family {
        forms: &["x, ri"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "elect.sync",
            WarpLevel,
            "Elect one leader thread from the threads in membermask.",
            "elect.sync d|p, membermask;",
        )
    },
    Family {
        forms: &["m, ri:u32"],
        types: &[".b64"],
        modifiers: &[".shared", ".shared::cta"],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[req(".shared::cta", 7, 8, 80)],
        ..fam(
            "mbarrier.init",
            Synchronization,
            "Initialize an mbarrier object with an expected arrival count.",
            "mbarrier.init{.shared{::cta}}.b64 [addr], count;",
        )
    },
    Family {
        forms: &["m"],
        types: &[".b64"],
        modifiers: &[".shared", ".shared::cta"],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[req(".shared::cta", 7, 8, 80)],
        ..fam(
            "mbarrier.inval",
            Synchronization,
            "Invalidate an mbarrier object.",
            "mbarrier.inval{.shared{::cta}}.b64 [addr];",
        )
    },
    Family {
        forms: &["m, ri:u32"],
        types: &[".b64"],
        modifiers: cat!(MBAR_SPACES, &[".relaxed", ".cta", ".cluster"]),
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "mbarrier.expect_tx",
            Synchronization,
            "Increase the expected transaction count of an mbarrier.",
            "mbarrier.expect_tx{.sem}{.scope}{.space}.b64 [addr], txCount;  // .sem = { .relaxed }, .scope = { .cta, .cluster }",
        )
    },
    Family {
        forms: &["m, ri:u32"],
        types: &[".b64"],
        modifiers: cat!(MBAR_SPACES, &[".relaxed", ".cta", ".cluster"]),
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "mbarrier.complete_tx",
            Synchronization,
            "Complete transactions on an mbarrier (decrease its pending transaction count).",
            "mbarrier.complete_tx{.sem}{.scope}{.space}.b64 [addr], txCount;  // .sem = { .relaxed }, .scope = { .cta, .cluster }",
        )
    },
    Family {
        forms: &["_r, m, ri:u32?"],
        types: &[".b64"],
        modifiers: cat!(
            MBAR_SPACES,
            &[".release", ".relaxed", ".cta", ".cluster", ".expect_tx", ".noComplete"],
        ),
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[
            req(".shared::cta", 7, 8, 80),
            req(".shared::cluster", 8, 0, 90),
            req(".release", 8, 0, 80),
            req(".cta", 8, 0, 80),
            req(".cluster", 8, 0, 90),
            req(".expect_tx", 8, 0, 90),
            req(".relaxed", 8, 6, 90),
        ],
        ..fam(
            "mbarrier.arrive",
            Synchronization,
            "Arrive on an mbarrier (optionally with an expected transaction count), returning the phase state.",
            "mbarrier.arrive{.sem}{.scope}{.state}.b64 state, [addr]{, count};\nmbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr]{, count};\nmbarrier.arrive.expect_tx{.sem}{.scope}{.state}.b64 state, [addr], txCount;\nmbarrier.arrive.expect_tx{.sem}{.scope}{.shared::cluster}.b64 _, [addr], txCount;\nmbarrier.arrive.noComplete{.release}{.cta}{.state}.b64 state, [addr], count;\n// .sem = { .release, .relaxed }, .scope = { .cta, .cluster }, .state = { .shared, .shared::cta }",
        )
    },
    Family {
        forms: &["_r, m, ri:u32?"],
        types: &[".b64"],
        modifiers: cat!(
            MBAR_SPACES,
            &[".release", ".relaxed", ".cta", ".cluster", ".expect_tx", ".noComplete"],
        ),
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[
            req(".shared::cta", 7, 8, 80),
            req(".shared::cluster", 8, 0, 90),
            req(".release", 8, 0, 80),
            req(".cta", 8, 0, 80),
            req(".cluster", 8, 0, 90),
            req(".expect_tx", 8, 0, 90),
            req(".relaxed", 8, 6, 90),
        ],
        ..fam(
            "mbarrier.arrive_drop",
            Synchronization,
            "Arrive on an mbarrier and decrement its expected arrival count for later phases.",
            "mbarrier.arrive_drop{.sem}{.scope}{.state}.b64 state, [addr]{, count};\nmbarrier.arrive_drop{.sem}{.scope}{.shared::cluster}.b64 _, [addr]{, count};\nmbarrier.arrive_drop.expect_tx{.state}{.sem}{.scope}.b64 state, [addr], tx_count;\nmbarrier.arrive_drop.expect_tx{.shared::cluster}{.sem}{.scope}.b64 _, [addr], tx_count;\nmbarrier.arrive_drop.noComplete{.release}{.cta}{.state}.b64 state, [addr], count;",
        )
    },
    Family {
        forms: &["p, m, ri"],
        types: &[".b64"],
        modifiers: &[".parity", ".acquire", ".relaxed", ".cta", ".cluster", ".shared", ".shared::cta"],
        min_ptx: v(7, 0),
        min_sm: 80,
        requirements: &[
            req(".parity", 7, 1, 80),
            req(".shared::cta", 7, 8, 80),
            req(".acquire", 8, 0, 80),
            req(".cta", 8, 0, 80),
            req(".cluster", 8, 0, 90),
            req(".relaxed", 8, 6, 90),
        ],
        ..fam(
            "mbarrier.test_wait",
            Synchronization,
            "Test (without blocking) whether the phase given by state or parity of an mbarrier has completed.",
            "mbarrier.test_wait{.sem}{.scope}{.state}.b64 waitComplete, [addr], state;\nmbarrier.test_wait.parity{.sem}{.scope}{.state}.b64 waitComplete, [addr], phaseParity;\n// .sem = { .acquire, .relaxed }, .scope = { .cta, .cluster }, .state = { .shared, .shared::cta }",
        )
    },
    Family {
        forms: &["p, m, ri, ri?"],
        types: &[".b64"],
        modifiers: &[".parity", ".acquire", ".relaxed", ".cta", ".cluster", ".shared", ".shared::cta"],
        min_ptx: v(7, 8),
        min_sm: 90,
        requirements: &[
            req(".acquire", 8, 0, 90),
            req(".cta", 8, 0, 90),
            req(".cluster", 8, 0, 90),
            req(".relaxed", 8, 6, 90),
        ],
        ..fam(
            "mbarrier.try_wait",
            Synchronization,
            "Wait (potentially blocking for a bounded time) for the phase given by state or parity of an mbarrier to complete.",
            "mbarrier.try_wait{.sem}{.scope}{.state}.b64 waitComplete, [addr], state{, suspendTimeHint};\nmbarrier.try_wait.parity{.sem}{.scope}{.state}.b64 waitComplete, [addr], phaseParity{, suspendTimeHint};",
        )
    },
    Family {
        forms: &["r:u32, r:b64"],
        types: &[".b64"],
        min_ptx: v(7, 0),
        min_sm: 80,
        ..fam(
            "mbarrier.pending_count",
            Synchronization,
            "Query the pending arrival count from an mbarrier state value.",
            "mbarrier.pending_count.b64 count, state;",
        )
    },
    Family {
        forms: &["ri:u32"],
        types: &[".u32"],
        min_ptx: v(6, 3),
        min_sm: 70,
        ..fam("nanosleep", Miscellaneous, "Suspend the thread for approximately the given number of nanoseconds.", "nanosleep.u32 t;")
    },
    Family {
        forms: &["i"],
        types: &[".u32"],
        modifiers: &[".inc", ".dec", ".sync", ".aligned"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "setmaxnreg",
            Miscellaneous,
            "Hint to change the number of registers owned by the warp (sm_90a and later arch-specific targets).",
            "setmaxnreg.action.sync.aligned.u32 imm-reg-count;  // .action = { .inc, .dec }",
        )
    },
    Family {
        forms: &["m, m"],
        types: &[".b128"],
        modifiers: &[
            ".async", ".shared::cta", ".mbarrier::complete_tx::bytes", ".multicast::cluster::all",
        ],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "clusterlaunchcontrol.try_cancel",
            Synchronization,
            "Request cancellation of a cluster that has not started yet; the response is written to shared memory.",
            "clusterlaunchcontrol.try_cancel.async{.space}.completion_mechanism{.multicast::cluster::all}.b128 [addr], [mbar];",
        )
    },
    Family {
        forms: &["x, r"],
        types: &[".pred", ".b32", ".b128"],
        modifiers: &[
            ".is_canceled", ".get_first_ctaid", ".get_first_ctaid::x", ".get_first_ctaid::y",
            ".get_first_ctaid::z", ".v4",
        ],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "clusterlaunchcontrol.query_cancel",
            Synchronization,
            "Decode a clusterlaunchcontrol.try_cancel response: whether it was canceled, and the first CTA id.",
            "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred, try_cancel_response;\nclusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {xdim, ydim, zdim, _}, try_cancel_response;\nclusterlaunchcontrol.query_cancel{.get_first_ctaid::dimension}.b32.b128 reg, try_cancel_response;",
        )
    },
    // -----------------------------------------------------------------------
    // Warp-level matrix multiply-accumulate.
    Family {
        forms: &["v, m, ri?"],
        types: &[".f16", ".s8", ".u8", ".f32", ".s32", ".bf16", ".tf32", ".f64", ".s4", ".u4", ".b1"],
        modifiers: &[
            ".a", ".b", ".c", ".sync", ".aligned", ".row", ".col", ".m16n16k16", ".m8n32k16",
            ".m32n8k16", ".m16n16k8", ".m8n8k4", ".m8n8k32", ".m8n8k128", ".global", ".shared",
            ".shared::cta",
        ],
        min_ptx: v(6, 0),
        min_sm: 70,
        requirements: &[
            req(".s8", 6, 3, 72),
            req(".u8", 6, 3, 72),
            req(".s4", 6, 3, 75),
            req(".u4", 6, 3, 75),
            req(".b1", 6, 3, 75),
            req(".bf16", 7, 0, 80),
            req(".tf32", 7, 0, 80),
            req(".f64", 7, 0, 80),
            req(".shared::cta", 7, 8, 70),
        ],
        ..fam(
            "wmma.load",
            MatrixMultiply,
            "Collectively load a matrix fragment (a, b or c) from memory for wmma.mma.",
            "wmma.load.a.sync.aligned.layout.shape{.ss}.atype r, [p]{, stride};\nwmma.load.b.sync.aligned.layout.shape{.ss}.btype r, [p]{, stride};\nwmma.load.c.sync.aligned.layout.shape{.ss}.ctype r, [p]{, stride};\n// .layout = { .row, .col }, .ss = { .global, .shared{::cta} }",
        )
    },
    Family {
        forms: &["m, v, ri?"],
        types: &[".f16", ".f32", ".s32", ".f64"],
        modifiers: &[
            ".d", ".sync", ".aligned", ".row", ".col", ".m16n16k16", ".m8n32k16", ".m32n8k16",
            ".m16n16k8", ".m8n8k4", ".m8n8k32", ".m8n8k128", ".global", ".shared", ".shared::cta",
        ],
        min_ptx: v(6, 0),
        min_sm: 70,
        requirements: &[
            req(".s32", 6, 3, 72),
            req(".f64", 7, 0, 80),
            req(".shared::cta", 7, 8, 70),
        ],
        ..fam(
            "wmma.store",
            MatrixMultiply,
            "Collectively store a matrix fragment d to memory.",
            "wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride};  // .layout = { .row, .col }, .type = { .f16, .f32, .s32, .f64 }",
        )
    },
    Family {
        forms: &["v, v, v, v"],
        types: &[".f16", ".f32", ".s8", ".u8", ".s32", ".bf16", ".tf32", ".f64", ".s4", ".u4", ".b1"],
        modifiers: cat!(
            RND,
            &[
                ".sync", ".aligned", ".row", ".col", ".m16n16k16", ".m8n32k16", ".m32n8k16",
                ".m16n16k8", ".m8n8k4", ".m8n8k32", ".m8n8k128", ".satfinite", ".xor", ".and",
                ".popc",
            ],
        ),
        min_ptx: v(6, 0),
        min_sm: 70,
        requirements: &[
            req(".s8", 6, 3, 72),
            req(".u8", 6, 3, 72),
            req(".s4", 6, 3, 75),
            req(".u4", 6, 3, 75),
            req(".b1", 6, 3, 75),
            req(".and", 7, 1, 80),
            req(".bf16", 7, 0, 80),
            req(".tf32", 7, 0, 80),
            req(".f64", 7, 0, 80),
        ],
        ..fam(
            "wmma.mma",
            MatrixMultiply,
            "Warp-level matrix multiply-accumulate on fragments: d = a * b + c.",
            "wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c;  // .f16 multiplicands\nwmma.mma.sync.aligned.alayout.blayout.shape.s32.atype.btype.s32{.satfinite} d, a, b, c;  // .s8/.u8\nwmma.mma.sync.aligned.alayout.blayout.shape.f32.atype.btype.f32 d, a, b, c;  // .bf16, .tf32\nwmma.mma.sync.aligned.alayout.blayout.shape{.rnd}.f64.f64.f64.f64 d, a, b, c;\nwmma.mma.sync.aligned.row.col.shape.s32.atype.btype.s32{.satfinite} d, a, b, c;  // .s4/.u4\nwmma.mma.op.popc.sync.aligned.row.col.shape.s32.atype.btype.s32 d, a, b, c;  // .b1, .op = { .xor, .and }",
        )
    },
    Family {
        forms: &["v, v, v, v", "v, v, v, v, ri, x, ri, x"],
        types: MMA_TYPES,
        modifiers: cat!(MMA_SHAPES, MMA_MODS),
        min_ptx: v(6, 4),
        min_sm: 70,
        requirements: MMA_REQS,
        ..fam(
            "mma",
            MatrixMultiply,
            "Warp-level matrix multiply-accumulate: d = a * b + c (optionally with block scaling).",
            "mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype d, a, b, c;\nmma.sync.aligned.m16n8k8.row.col.dtype.f16.f16.ctype d, a, b, c;\nmma.sync.aligned.m16n8k16.row.col.dtype.f16.f16.ctype d, a, b, c;\nmma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 d, a, b, c;\nmma.sync.aligned.m16n8k8.row.col.f32.atype.btype.f32 d, a, b, c;  // .bf16, .tf32\nmma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 d, a, b, c;\nmma.sync.aligned.shape.row.col.dtype.f8type.f8type.ctype d, a, b, c;\nmma.sync.aligned.m16n8k32.row.col.kind.dtype.f8f6f4type.f8f6f4type.ctype d, a, b, c;\nmma.sync.aligned.shape.row.col.kind.block_scale{.scale_vec_size}.f32.atype.btype.f32.stype d, a, b, c, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b};\nmma.sync.aligned.shape.row.col.f64.f64.f64.f64 d, a, b, c;\nmma.sync.aligned.shape.row.col{.satfinite}.s32.atype.btype.s32 d, a, b, c;\nmma.sync.aligned.shape.row.col.s32.b1.b1.s32.bitOp.popc d, a, b, c;",
        )
    },
    Family {
        forms: &["v, v, v, v, ri, ri", "v, v, v, v, ri, ri, ri, x, ri, x"],
        types: MMA_TYPES,
        modifiers: cat!(MMA_SHAPES, MMA_MODS),
        min_ptx: v(7, 1),
        min_sm: 80,
        requirements: MMA_REQS,
        ..fam(
            "mma.sp",
            MatrixMultiply,
            "Warp-level sparse matrix multiply-accumulate (a is a 2:4 structured-sparse matrix described by metadata e).",
            "mma.sp.sync.aligned.shape.row.col.dtype.atype.btype.ctype d, a, b, c, e, f;\nmma.sp.sync.aligned.shape.row.col{.satfinite}.s32.atype.btype.s32 d, a, b, c, e, f;",
        )
    },
    Family {
        forms: &["v, v, v, v, ri, ri", "v, v, v, v, ri, ri, ri, x, ri, x"],
        types: MMA_TYPES,
        modifiers: cat!(MMA_SHAPES, MMA_MODS),
        min_ptx: v(8, 5),
        min_sm: 80,
        requirements: MMA_REQS,
        ..fam(
            "mma.sp::ordered_metadata",
            MatrixMultiply,
            "Warp-level sparse matrix multiply-accumulate with ordered sparsity metadata.",
            "mma.sp::ordered_metadata.sync.aligned.shape.row.col.dtype.atype.btype.ctype d, a, b, c, e, f;\nmma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind.dtype.f8f6f4type.f8f6f4type.ctype d, a, b, c, e, f;\nmma.sp::ordered_metadata.sync.aligned.shape.row.col.kind.block_scale{.scale_vec_size}.f32.atype.btype.f32.stype d, a, b, c, e, f, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b};",
        )
    },
    Family {
        forms: &["v, m"],
        types: &[".b16", ".b8", ".b8x16", ".b6x16_p32", ".b4x16_p64"],
        modifiers: &[
            ".sync", ".aligned", ".m8n8", ".m16n16", ".m8n16", ".x1", ".x2", ".x4", ".trans",
            ".shared", ".shared::cta",
        ],
        min_ptx: v(6, 5),
        min_sm: 75,
        requirements: &[
            req(".shared::cta", 7, 8, 75),
            req(".m16n16", 8, 6, 100),
            req(".m8n16", 8, 6, 100),
            req(".b8", 8, 6, 100),
            req(".b8x16", 8, 6, 100),
            req(".b6x16_p32", 8, 6, 100),
            req(".b4x16_p64", 8, 6, 100),
        ],
        ..fam(
            "ldmatrix",
            MatrixMultiply,
            "Collectively load one or more matrices from shared memory for mma.",
            "ldmatrix.sync.aligned.shape.num{.trans}{.ss}.type r, [p];  // .shape = { .m8n8, .m16n16 }, .type = { .b16, .b8 }\nldmatrix.sync.aligned.m8n16.num{.ss}.dst_fmt.src_fmt r, [p];\nldmatrix.sync.aligned.m16n16.num.trans{.ss}.dst_fmt.src_fmt r, [p];\n// .num = { .x1, .x2, .x4 }, .ss = { .shared{::cta} }, .dst_fmt = { .b8x16 }, .src_fmt = { .b6x16_p32, .b4x16_p64 }",
        )
    },
    Family {
        forms: &["m, v"],
        types: &[".b16", ".b8"],
        modifiers: &[
            ".sync", ".aligned", ".m8n8", ".m16n8", ".x1", ".x2", ".x4", ".trans", ".shared",
            ".shared::cta",
        ],
        min_ptx: v(7, 8),
        min_sm: 90,
        requirements: &[req(".m16n8", 8, 6, 100), req(".b8", 8, 6, 100)],
        ..fam(
            "stmatrix",
            MatrixMultiply,
            "Collectively store one or more matrices to shared memory.",
            "stmatrix.sync.aligned.shape.num{.trans}{.ss}.type [p], r;  // .shape = { .m8n8, .m16n8 }, .num = { .x1, .x2, .x4 }, .type = { .b16, .b8 }",
        )
    },
    Family {
        forms: &["r, r"],
        types: &[".b16"],
        modifiers: &[".sync", ".aligned", ".m8n8", ".trans"],
        min_ptx: v(7, 8),
        min_sm: 75,
        ..fam(
            "movmatrix",
            MatrixMultiply,
            "Transpose a matrix held in registers across the warp.",
            "movmatrix.sync.aligned.shape.trans.type d, a;  // .shape = { .m8n8 }, .type = { .b16 }",
        )
    },
    // -----------------------------------------------------------------------
    // Warpgroup-level matrix multiply-accumulate (sm_90a).
    Family {
        forms: &["v, v, r, x, i?, i?, i?, i?"],
        types: &[".f16", ".f32", ".bf16", ".tf32", ".e4m3", ".e5m2", ".s32", ".s8", ".u8", ".b1"],
        modifiers: &[".sync", ".aligned", ".m64n*", ".satfinite", ".and", ".popc"],
        min_ptx: v(8, 0),
        min_sm: 90,
        requirements: &[req(".u8", 8, 4, 90)],
        ..fam(
            "wgmma.mma_async",
            MatrixMultiply,
            "Asynchronous warpgroup matrix multiply-accumulate: d = a * b + d, with a in registers or shared memory (sm_90a).",
            "wgmma.mma_async.sync.aligned.shape.dtype.f16.f16 d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;\nwgmma.mma_async.sync.aligned.shape.dtype.f16.f16 d, a, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b;\nwgmma.mma_async.sync.aligned.shape.dtype.bf16.bf16 d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;\nwgmma.mma_async.sync.aligned.shape.dtype.tf32.tf32 d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b;\nwgmma.mma_async.sync.aligned.shape.dtype.atype.btype d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b;  // .e4m3, .e5m2\nwgmma.mma_async.sync.aligned.shape{.satfinite}.s32.atype.btype d, a-desc, b-desc, scale-d;  // .s8, .u8\nwgmma.mma_async.sync.aligned.shape.s32.b1.b1.op.popc d, a-desc, b-desc, scale-d;  // .op = { .and }",
        )
    },
    Family {
        forms: &["v, v, r, r, ri, x, i?, i?, i?, i?"],
        types: &[".f16", ".f32", ".bf16", ".tf32", ".e4m3", ".e5m2", ".s32", ".s8", ".u8"],
        modifiers: &[".sync", ".aligned", ".m64n*", ".satfinite"],
        min_ptx: v(8, 2),
        min_sm: 90,
        requirements: &[req(".u8", 8, 4, 90)],
        ..fam(
            "wgmma.mma_async.sp",
            MatrixMultiply,
            "Asynchronous warpgroup sparse matrix multiply-accumulate (sm_90a).",
            "wgmma.mma_async.sp.sync.aligned.shape.dtype.atype.btype d, a-desc, b-desc, sp-meta, sp-sel, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;\nwgmma.mma_async.sp.sync.aligned.shape.dtype.atype.btype d, a, b-desc, sp-meta, sp-sel, scale-d, imm-scale-a, imm-scale-b, imm-trans-b;\nwgmma.mma_async.sp.sync.aligned.shape{.satfinite}.s32.atype.btype d, a-desc, b-desc, sp-meta, sp-sel, scale-d;",
        )
    },
    Family {
        modifiers: &[".sync", ".aligned"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "wgmma.fence",
            MatrixMultiply,
            "Order register accesses between wgmma.mma_async and other instructions (sm_90a).",
            "wgmma.fence.sync.aligned;",
        )
    },
    Family {
        modifiers: &[".sync", ".aligned"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "wgmma.commit_group",
            MatrixMultiply,
            "Commit all prior uncommitted wgmma.mma_async operations into a wgmma-group (sm_90a).",
            "wgmma.commit_group.sync.aligned;",
        )
    },
    Family {
        forms: &["i"],
        modifiers: &[".sync", ".aligned"],
        min_ptx: v(8, 0),
        min_sm: 90,
        ..fam(
            "wgmma.wait_group",
            MatrixMultiply,
            "Wait until at most N of the most recent wgmma-groups are pending (sm_90a).",
            "wgmma.wait_group.sync.aligned N;",
        )
    },
    // -----------------------------------------------------------------------
    // 5th-generation tensor core (tcgen05, sm_100a/sm_101a/sm_103a...).
    Family {
        forms: &["m, ri:u32"],
        types: &[".b32"],
        modifiers: cat!(CTA_GROUP, &[".sync", ".aligned", ".shared::cta"]),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.alloc",
            TensorCoreGen5,
            "Allocate columns of tensor memory; the address is written to shared memory.",
            "tcgen05.alloc.cta_group.sync.aligned{.shared::cta}.b32 [dst], nCols;  // .cta_group = { .cta_group::1, .cta_group::2 }",
        )
    },
    Family {
        forms: &["r:b32, ri:u32"],
        types: &[".b32"],
        modifiers: cat!(CTA_GROUP, &[".sync", ".aligned"]),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.dealloc",
            TensorCoreGen5,
            "Deallocate tensor memory columns.",
            "tcgen05.dealloc.cta_group.sync.aligned.b32 taddr, nCols;",
        )
    },
    Family {
        modifiers: cat!(CTA_GROUP, &[".sync", ".aligned"]),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.relinquish_alloc_permit",
            TensorCoreGen5,
            "Give up the CTA's right to allocate tensor memory.",
            "tcgen05.relinquish_alloc_permit.cta_group.sync.aligned;",
        )
    },
    Family {
        forms: &["v, m", "v, m, i"],
        types: &[".b32"],
        modifiers: &[
            ".sync", ".aligned", ".16x64b", ".16x128b", ".16x256b", ".32x32b", ".16x32bx2", ".x1",
            ".x2", ".x4", ".x8", ".x16", ".x32", ".x64", ".x128", ".pack::16b",
        ],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.ld",
            TensorCoreGen5,
            "Collectively load data from tensor memory into registers.",
            "tcgen05.ld.sync.aligned.shape1.num{.pack}.b32 r, [taddr];\ntcgen05.ld.sync.aligned.shape2.num{.pack}.b32 r, [taddr], immHalfSplitoff;\n// .shape1 = { .16x64b, .16x128b, .16x256b, .32x32b }, .shape2 = { .16x32bx2 }, .num = { .x1, ..., .x128 }, .pack = { .pack::16b }",
        )
    },
    Family {
        forms: &["v, r, m", "v, r, m, i"],
        types: &[".f32", ".u32", ".s32"],
        modifiers: &[
            ".sync", ".aligned", ".32x32b", ".16x32bx2", ".x1", ".x2", ".x4", ".x8", ".x16",
            ".x32", ".x64", ".x128", ".min", ".max", ".abs", ".NaN",
        ],
        min_ptx: v(8, 8),
        min_sm: 103,
        ..fam(
            "tcgen05.ld.red",
            TensorCoreGen5,
            "Load data from tensor memory into registers and also reduce it (min/max) into redval.",
            "tcgen05.ld.red.sync.aligned.shape3.num.redOp{.abs}{.NaN}.f32 r, redval, [taddr];\ntcgen05.ld.red.sync.aligned.shape4.num.redOp{.abs}{.NaN}.f32 r, redval, [taddr], immHalfSplitoff;\ntcgen05.ld.red.sync.aligned.shape3.num.redOp.type r, redval, [taddr];\ntcgen05.ld.red.sync.aligned.shape4.num.redOp.type r, redval, [taddr], immHalfSplitoff;\n// .shape3 = { .32x32b }, .shape4 = { .16x32bx2 }, .redOp = { .min, .max }, .type = { .u32, .s32 }",
        )
    },
    Family {
        forms: &["m, v", "m, i, v"],
        types: &[".b32"],
        modifiers: &[
            ".sync", ".aligned", ".16x64b", ".16x128b", ".16x256b", ".32x32b", ".16x32bx2", ".x1",
            ".x2", ".x4", ".x8", ".x16", ".x32", ".x64", ".x128", ".unpack::16b",
        ],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.st",
            TensorCoreGen5,
            "Collectively store data from registers into tensor memory.",
            "tcgen05.st.sync.aligned.shape1.num{.unpack}.b32 [taddr], r;\ntcgen05.st.sync.aligned.shape2.num{.unpack}.b32 [taddr], immHalfSplitoff, r;",
        )
    },
    Family {
        modifiers: &[".sync", ".aligned"],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.wait::ld",
            TensorCoreGen5,
            "Wait for the completion of all prior tcgen05.ld operations of the thread.",
            "tcgen05.wait::ld.sync.aligned;",
        )
    },
    Family {
        modifiers: &[".sync", ".aligned"],
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.wait::st",
            TensorCoreGen5,
            "Wait for the completion of all prior tcgen05.st operations of the thread.",
            "tcgen05.wait::st.sync.aligned;",
        )
    },
    Family {
        forms: &["m, r"],
        modifiers: cat!(
            CTA_GROUP,
            &[
                ".128x256b", ".4x256b", ".128x128b", ".64x128b", ".32x128b", ".warpx2::02_13",
                ".warpx2::01_23", ".warpx4", ".b8x16", ".b6x16_p32", ".b4x16_p64",
            ],
        ),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.cp",
            TensorCoreGen5,
            "Asynchronously copy a matrix from shared memory (described by s-desc) into tensor memory.",
            "tcgen05.cp.cta_group.shape{.multicast}{.dst_src_fmt} [taddr], s-desc;\n// .shape = { .128x256b, .4x256b, .128x128b, .64x128b, .32x128b }, .multicast = { .warpx2::02_13, .warpx2::01_23, .warpx4 }\n// .dst_src_fmt = { .b8x16.b6x16_p32, .b8x16.b4x16_p64 }",
        )
    },
    Family {
        forms: &["m"],
        modifiers: cat!(CTA_GROUP, &[".down"]),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.shift",
            TensorCoreGen5,
            "Asynchronously shift the rows of a matrix in tensor memory down by one row.",
            "tcgen05.shift.cta_group.down [taddr];",
        )
    },
    Family {
        forms: &["m, x, r, r, x, x?, x?"],
        modifiers: cat!(
            CTA_GROUP,
            TCGEN05_KINDS,
            TCGEN05_BLOCK_SCALE,
            TCGEN05_COLLECTOR,
            &[".ashift"],
        ),
        min_ptx: v(8, 6),
        min_sm: 100,
        requirements: TCGEN05_MMA_REQS,
        ..fam(
            "tcgen05.mma",
            TensorCoreGen5,
            "Asynchronous matrix multiply-accumulate on the 5th-generation tensor core: D (in tensor memory) = A * B + D.",
            "tcgen05.mma.cta_group.kind [d-tmem], a-desc, b-desc, idesc{, disable-output-lane}, enable-input-d{, scale-input-d};\ntcgen05.mma.cta_group.kind [d-tmem], [a-tmem], b-desc, idesc{, disable-output-lane}, enable-input-d{, scale-input-d};\ntcgen05.mma.cta_group.kind.block_scale{.scale_vectorsize} [d-tmem], a-desc, b-desc, idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d;\ntcgen05.mma.cta_group.kind{.ashift}.collector_usage [d-tmem], [a-tmem], b-desc, idesc{, disable-output-lane}, enable-input-d{, scale-input-d};\ntcgen05.mma.cta_group.kind::i8 [d-tmem], a-desc, b-desc, idesc{, disable-output-lane}, enable-input-d;\n// .kind = { .kind::f16, .kind::tf32, .kind::f8f6f4, .kind::i8, .kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 }, .collector_usage = { .collector::a::{fill, use, lastuse, discard} }",
        )
    },
    Family {
        forms: &["m, x, r, m, r, x, x?, x?"],
        modifiers: cat!(
            CTA_GROUP,
            TCGEN05_KINDS,
            TCGEN05_BLOCK_SCALE,
            TCGEN05_COLLECTOR,
            &[".ashift"],
        ),
        min_ptx: v(8, 6),
        min_sm: 100,
        requirements: TCGEN05_MMA_REQS,
        ..fam(
            "tcgen05.mma.sp",
            TensorCoreGen5,
            "Asynchronous sparse matrix multiply-accumulate on the 5th-generation tensor core.",
            "tcgen05.mma.sp.cta_group.kind [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc{, disable-output-lane}, enable-input-d{, scale-input-d};\ntcgen05.mma.sp.cta_group.kind [d-tmem], [a-tmem], b-desc, [sp-meta-tmem], idesc{, disable-output-lane}, enable-input-d{, scale-input-d};\ntcgen05.mma.sp.cta_group.kind.block_scale{.scale_vectorsize} [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d;",
        )
    },
    Family {
        forms: &["m, x, r, r, x, r?"],
        modifiers: cat!(&[".cta_group::1"], TCGEN05_KINDS, TCGEN05_WS_COLLECTOR),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.mma.ws",
            TensorCoreGen5,
            "Asynchronous weight-stationary matrix multiply-accumulate on the 5th-generation tensor core.",
            "tcgen05.mma.ws.cta_group::1.kind{.collector_usage} [d-tmem], a-desc, b-desc, idesc, enable-input-d{, zero-column-mask-desc};\ntcgen05.mma.ws.cta_group::1.kind{.collector_usage} [d-tmem], [a-tmem], b-desc, idesc, enable-input-d{, zero-column-mask-desc};\n// .collector_usage = { .collector::{b0, b1, b2, b3}::{fill, use, lastuse, discard} }",
        )
    },
    Family {
        forms: &["m, x, r, m, r, x, r?"],
        modifiers: cat!(&[".cta_group::1"], TCGEN05_KINDS, TCGEN05_WS_COLLECTOR),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.mma.ws.sp",
            TensorCoreGen5,
            "Asynchronous weight-stationary sparse matrix multiply-accumulate on the 5th-generation tensor core.",
            "tcgen05.mma.ws.sp.cta_group::1.kind{.collector_usage} [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc, enable-input-d{, zero-column-mask-desc};\ntcgen05.mma.ws.sp.cta_group::1.kind{.collector_usage} [d-tmem], [a-tmem], b-desc, [sp-meta-tmem], idesc, enable-input-d{, zero-column-mask-desc};",
        )
    },
    Family {
        forms: &["m, ri?"],
        types: &[".b64"],
        modifiers: cat!(
            CTA_GROUP,
            &[".mbarrier::arrive::one", ".shared::cluster", ".multicast::cluster"],
        ),
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.commit",
            TensorCoreGen5,
            "Make an mbarrier track the completion of all prior async tcgen05 operations of the thread.",
            "tcgen05.commit.cta_group.completion_mechanism{.shared::cluster}{.multicast}.b64 [mbar]{, ctaMask};  // .completion_mechanism = { .mbarrier::arrive::one }",
        )
    },
    Family {
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.fence::before_thread_sync",
            TensorCoreGen5,
            "Order prior async tcgen05 operations before a following thread synchronization.",
            "tcgen05.fence::before_thread_sync;",
        )
    },
    Family {
        min_ptx: v(8, 6),
        min_sm: 100,
        ..fam(
            "tcgen05.fence::after_thread_sync",
            TensorCoreGen5,
            "Order following async tcgen05 operations after a prior thread synchronization.",
            "tcgen05.fence::after_thread_sync;",
        )
    },
    // -----------------------------------------------------------------------
    // Video instructions (scalar: PTX 2.0, sm_20; SIMD: PTX 3.0, sm_30).
    video("vadd", "Scalar video add of selected bytes/halfwords, with optional saturation and secondary operation.", vop_syntax!("vadd"), VOP_MODS, VOP_FORMS, 2, 0, 20),
    video("vsub", "Scalar video subtract of selected bytes/halfwords, with optional saturation and secondary operation.", vop_syntax!("vsub"), VOP_MODS, VOP_FORMS, 2, 0, 20),
    video("vabsdiff", "Scalar video absolute difference, with optional saturation and secondary operation.", vop_syntax!("vabsdiff"), VOP_MODS, VOP_FORMS, 2, 0, 20),
    video("vmin", "Scalar video minimum, with optional saturation and secondary operation.", vop_syntax!("vmin"), VOP_MODS, VOP_FORMS, 2, 0, 20),
    video("vmax", "Scalar video maximum, with optional saturation and secondary operation.", vop_syntax!("vmax"), VOP_MODS, VOP_FORMS, 2, 0, 20),
    video("vshl", "Scalar video shift left (clamped or wrapped shift amount), with optional secondary operation.", vsh_syntax!("vshl"), VSH_MODS, VOP_FORMS, 2, 0, 20),
    video("vshr", "Scalar video shift right (clamped or wrapped shift amount), with optional secondary operation.", vsh_syntax!("vshr"), VSH_MODS, VOP_FORMS, 2, 0, 20),
    video(
        "vmad",
        "Scalar video multiply-accumulate of selected bytes/halfwords: d = (a * b) + c, with optional negation, scaling and saturation.",
        "vmad.dtype.atype.btype{.sat}{.scale} d, {-}a{.asel}, {-}b{.bsel}, {-}c;\nvmad.dtype.atype.btype.po{.sat}{.scale} d, a{.asel}, b{.bsel}, c;\n// .dtype = .atype = .btype = { .u32, .s32 }, .asel = .bsel = { .b0, .b1, .b2, .b3, .h0, .h1 }, .scale = { .shr7, .shr15 }",
        &[".sat", ".shr7", ".shr15", ".po"],
        &["x, x, x, x"],
        2, 0, 20,
    ),
    video(
        "vset",
        "Scalar video compare of selected bytes/halfwords, with optional secondary operation.",
        "vset.atype.btype.cmp d, a{.asel}, b{.bsel};\nvset.atype.btype.cmp.op2 d, a{.asel}, b{.bsel}, c;\nvset.atype.btype.cmp d.dsel, a{.asel}, b{.bsel}, c;\n// .atype = .btype = { .u32, .s32 }, .cmp = { .eq, .ne, .lt, .le, .gt, .ge }, .op2 = { .add, .min, .max }",
        &[".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add", ".min", ".max"],
        VOP_FORMS,
        2, 0, 20,
    ),
    video("vadd2", "SIMD video add of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vadd2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vsub2", "SIMD video subtract of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vsub2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vavrg2", "SIMD video average of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vavrg2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vabsdiff2", "SIMD video absolute difference of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vabsdiff2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vmin2", "SIMD video minimum of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vmin2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vmax2", "SIMD video maximum of two halfword pairs, with optional saturation or accumulation.", vop2_syntax!("vmax2"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vadd4", "SIMD video add of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vadd4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vsub4", "SIMD video subtract of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vsub4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vavrg4", "SIMD video average of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vavrg4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vabsdiff4", "SIMD video absolute difference of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vabsdiff4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vmin4", "SIMD video minimum of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vmin4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video("vmax4", "SIMD video maximum of four byte pairs, with optional saturation or accumulation.", vop4_syntax!("vmax4"), VOPN_MODS, &["x, x, x, x"], 3, 0, 30),
    video(
        "vset2",
        "SIMD video compare of two halfword pairs, with optional accumulation.",
        "vset2.atype.btype.cmp d{.mask}, a{.asel}, b{.bsel}, c;\nvset2.atype.btype.cmp.add d{.mask}, a{.asel}, b{.bsel}, c;\n// .atype = .btype = { .u32, .s32 }, .cmp = { .eq, .ne, .lt, .le, .gt, .ge }, .mask = { .h0, .h1, .h10 }",
        &[".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add"],
        &["x, x, x, x"],
        3, 0, 30,
    ),
    video(
        "vset4",
        "SIMD video compare of four byte pairs, with optional accumulation.",
        "vset4.atype.btype.cmp d{.mask}, a{.asel}, b{.bsel}, c;\nvset4.atype.btype.cmp.add d{.mask}, a{.asel}, b{.bsel}, c;\n// .atype = .btype = { .u32, .s32 }, .cmp = { .eq, .ne, .lt, .le, .gt, .ge }, .mask = { .b0, .b1, .b10, .b2, .b20, .b21, .b210, .b3, ..., .b3210 }",
        &[".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add"],
        &["x, x, x, x"],
        3, 0, 30,
    ),
    // -----------------------------------------------------------------------
    // Miscellaneous.
    Family {
        ..fam("brkpt", Miscellaneous, "Suspend execution (breakpoint for a debugger).", "brkpt;")
    },
    Family {
        ..fam("trap", Miscellaneous, "Abort execution and generate an interrupt to the host CPU.", "trap;")
    },
    Family {
        forms: &["i"],
        modifiers: &[".mask"],
        min_ptx: v(1, 4),
        requirements: &[req(".mask", 3, 0, 20)],
        ..fam(
            "pmevent",
            Miscellaneous,
            "Trigger one (or, with .mask, several) performance monitor events.",
            "pmevent a;  // trigger a single performance monitor event\npmevent.mask a;  // trigger one or more performance monitor events",
        )
    },
    Family {
        forms: &["r:T, ri:T, i?"],
        types: &[".u32", ".u64"],
        min_ptx: v(7, 3),
        min_sm: 52,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "alloca",
            Miscellaneous,
            "Allocate memory on the stack (in the local state space) dynamically.",
            "alloca.type ptr, size{, immAlign};  // .type = { .u32, .u64 }",
        )
    },
    Family {
        forms: &["r:T"],
        types: &[".u32", ".u64"],
        min_ptx: v(7, 3),
        min_sm: 52,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "stacksave",
            Miscellaneous,
            "Save the current stack pointer into a register.",
            "stacksave.type d;  // .type = { .u32, .u64 }",
        )
    },
    Family {
        forms: &["r:T"],
        types: &[".u32", ".u64"],
        min_ptx: v(7, 3),
        min_sm: 52,
        type_check: TypeCheck::Relaxed,
        ..fam(
            "stackrestore",
            Miscellaneous,
            "Restore the stack pointer from a register saved by stacksave.",
            "stackrestore.type a;  // .type = { .u32, .u64 }",
        )
    },
];

const VOP_FORMS: &[&str] = &["x, x, x, x?"];
const VOP_MODS: &[&str] = &[".sat", ".add", ".min", ".max"];
const VSH_MODS: &[&str] = &[".sat", ".add", ".min", ".max", ".clamp", ".wrap"];
const VOPN_MODS: &[&str] = &[".sat", ".add"];

/// A video instruction family (all take `.u32`/`.s32` type triples and byte or
/// halfword selectors on their operands, which the form DSL does not describe).
#[allow(clippy::too_many_arguments)]
const fn video(
    name: &'static str,
    summary: &'static str,
    syntax: &'static str,
    modifiers: &'static [&'static str],
    forms: &'static [&'static str],
    major: u8,
    minor: u8,
    min_sm: u32,
) -> Family {
    Family {
        forms,
        types: VIDEO_TYPES,
        modifiers,
        min_ptx: v(major, minor),
        min_sm,
        ..fam(name, Video, summary, syntax)
    }
}
