//! PTX scalar types as the executor sees them, and state spaces.

use crate::float::Fmt;

/// A PTX fundamental type (with the packed half and fp8 pairs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Pred,
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    TF32,
    F32,
    F64,
    E4M3,
    E5M2,
    E4M3x2,
    E5M2x2,
    E2M1x2,
    E2M3x2,
    E3M2x2,
    U16x2,
    S16x2,
    /// Two f32 in a 64-bit register (sm_100 packed arithmetic).
    F32x2,
}

impl Ty {
    /// Parses a type modifier (`".u32"`).
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            ".pred" => Ty::Pred,
            ".b8" => Ty::B8,
            ".b16" => Ty::B16,
            ".b32" => Ty::B32,
            ".b64" => Ty::B64,
            ".b128" => Ty::B128,
            ".u8" => Ty::U8,
            ".u16" => Ty::U16,
            ".u32" => Ty::U32,
            ".u64" => Ty::U64,
            ".s8" => Ty::S8,
            ".s16" => Ty::S16,
            ".s32" => Ty::S32,
            ".s64" => Ty::S64,
            ".f16" => Ty::F16,
            ".f16x2" => Ty::F16x2,
            ".bf16" => Ty::BF16,
            ".bf16x2" => Ty::BF16x2,
            ".tf32" => Ty::TF32,
            ".f32" => Ty::F32,
            ".f64" => Ty::F64,
            ".e4m3" => Ty::E4M3,
            ".e5m2" => Ty::E5M2,
            ".e4m3x2" => Ty::E4M3x2,
            ".e5m2x2" => Ty::E5M2x2,
            ".e2m1x2" => Ty::E2M1x2,
            ".e2m3x2" => Ty::E2M3x2,
            ".e3m2x2" => Ty::E3M2x2,
            ".u16x2" => Ty::U16x2,
            ".s16x2" => Ty::S16x2,
            ".f32x2" => Ty::F32x2,
            _ => return None,
        })
    }

    /// Size in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 | Ty::E4M3 | Ty::E5M2 | Ty::E2M1x2 => 8,
            Ty::B16
            | Ty::U16
            | Ty::S16
            | Ty::F16
            | Ty::BF16
            | Ty::E4M3x2
            | Ty::E5M2x2
            | Ty::E2M3x2
            | Ty::E3M2x2 => 16,
            Ty::B32
            | Ty::U32
            | Ty::S32
            | Ty::F32
            | Ty::F16x2
            | Ty::BF16x2
            | Ty::TF32
            | Ty::U16x2
            | Ty::S16x2 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 | Ty::F32x2 => 64,
            Ty::B128 => 128,
        }
    }

    /// Size in bytes (predicates take one).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64 | Ty::S16x2)
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            Ty::F16
                | Ty::F16x2
                | Ty::BF16
                | Ty::BF16x2
                | Ty::TF32
                | Ty::F32
                | Ty::F64
                | Ty::E4M3
                | Ty::E5M2
                | Ty::E4M3x2
                | Ty::E5M2x2
                | Ty::E2M1x2
                | Ty::E2M3x2
                | Ty::E3M2x2
                | Ty::F32x2
        )
    }

    /// The scalar float format (for packed pairs, the format of one half).
    pub fn fmt(self) -> Option<Fmt> {
        Some(match self {
            Ty::F16 | Ty::F16x2 => Fmt::F16,
            Ty::BF16 | Ty::BF16x2 => Fmt::BF16,
            Ty::TF32 => Fmt::TF32,
            Ty::F32 | Ty::F32x2 => Fmt::F32,
            Ty::F64 => Fmt::F64,
            Ty::E4M3 | Ty::E4M3x2 => Fmt::E4M3,
            Ty::E5M2 | Ty::E5M2x2 => Fmt::E5M2,
            Ty::E2M1x2 => Fmt::E2M1,
            Ty::E2M3x2 => Fmt::E2M3,
            Ty::E3M2x2 => Fmt::E3M2,
            _ => return None,
        })
    }

    /// Whether the type is a packed pair (`.f16x2`, `.e4m3x2`, ...).
    pub fn is_pair(self) -> bool {
        matches!(
            self,
            Ty::F16x2
                | Ty::BF16x2
                | Ty::E4M3x2
                | Ty::E5M2x2
                | Ty::E2M1x2
                | Ty::E2M3x2
                | Ty::E3M2x2
                | Ty::U16x2
                | Ty::S16x2
        )
    }
}

/// The mask of the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sext(v: u64, bits: u32) -> u64 {
    if bits >= 64 || bits == 0 {
        v
    } else {
        (((v << (64 - bits)) as i64) >> (64 - bits)) as u64
    }
}

/// A state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Generic,
    Global,
    Shared,
    Local,
    Const,
    Param,
}

impl Space {
    /// Parses a state-space modifier (`.shared::cta` is shared).
    pub fn parse(s: &str) -> Option<Space> {
        let base = s.split("::").next().unwrap_or(s);
        Some(match base {
            ".global" => Space::Global,
            ".shared" => Space::Shared,
            ".local" => Space::Local,
            ".const" => Space::Const,
            ".param" => Space::Param,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Space::Generic => "generic",
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
        }
    }
}
