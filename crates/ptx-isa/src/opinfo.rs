//! Typed instructions: an instruction's opcode and modifiers decoded once
//! into plain data ([`OpInfo`]), so that analyses, passes and the emulator
//! `match` on enums instead of comparing strings.
//!
//! - [`FamilyId`]: one variant per family of [`FAMILIES`], in table order
//!   (`FamilyId::Add` is `FAMILIES[0]`), plus [`FamilyId::Unknown`].
//! - [`Ty`] (data types), [`Space`] (state spaces), [`Rnd`] (rounding),
//!   [`Cmp`] and [`BoolOp`] (comparison and predicate combination),
//!   [`Scope`] and [`Sem`] (memory-model scope and semantics).
//! - [`OpFlags`]: what kind of instruction it is (pure, load, store, atomic,
//!   barrier, fence, terminator, branch, call, commutative, may trap, side
//!   effects, volatile, ...); see the constants for what each one means.
//!
//! [`OpInfo::decode`] never fails: an opcode the table does not know gets
//! [`FamilyId::Unknown`] and conservative flags ([`OpFlags::UNKNOWN`]: not
//! pure, side effects, may trap, may read and write memory).

use crate::{Category, Family, FAMILIES};

macro_rules! family_ids {
    ($($variant:ident = $name:literal,)*) => {
        /// The family of an instruction: one variant per entry of
        /// [`FAMILIES`], in the same order (a unit test checks it), and
        /// `Unknown` for an opcode the table does not know.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        pub enum FamilyId {
            $($variant,)*
            Unknown,
        }

        impl FamilyId {
            /// Every known family, in table order (`ALL[i]` is `FAMILIES[i]`).
            pub const ALL: &'static [FamilyId] = &[$(FamilyId::$variant,)*];
            const NAMES: &'static [&'static str] = &[$($name,)*];
        }
    };
}

family_ids! {
    Add = "add",
    Sub = "sub",
    AddCc = "add.cc",
    Addc = "addc",
    SubCc = "sub.cc",
    Subc = "subc",
    Mul = "mul",
    Mad = "mad",
    Madc = "madc",
    Mul24 = "mul24",
    Mad24 = "mad24",
    Sad = "sad",
    Div = "div",
    Rem = "rem",
    Abs = "abs",
    Neg = "neg",
    Min = "min",
    Max = "max",
    Popc = "popc",
    Clz = "clz",
    Bfind = "bfind",
    Fns = "fns",
    Brev = "brev",
    Bfe = "bfe",
    Bfi = "bfi",
    Bmsk = "bmsk",
    Szext = "szext",
    Dp4a = "dp4a",
    Dp2a = "dp2a",
    Testp = "testp",
    Copysign = "copysign",
    Fma = "fma",
    Rcp = "rcp",
    RcpApproxFtzF64 = "rcp.approx.ftz.f64",
    Sqrt = "sqrt",
    Rsqrt = "rsqrt",
    RsqrtApproxFtzF64 = "rsqrt.approx.ftz.f64",
    Sin = "sin",
    Cos = "cos",
    Lg2 = "lg2",
    Ex2 = "ex2",
    Tanh = "tanh",
    Set = "set",
    Setp = "setp",
    Selp = "selp",
    Slct = "slct",
    And = "and",
    Or = "or",
    Xor = "xor",
    Not = "not",
    Cnot = "cnot",
    Lop3 = "lop3",
    Shf = "shf",
    Shl = "shl",
    Shr = "shr",
    Mov = "mov",
    Shfl = "shfl",
    ShflSync = "shfl.sync",
    Prmt = "prmt",
    Ld = "ld",
    LdGlobalNc = "ld.global.nc",
    Ldu = "ldu",
    St = "st",
    StAsync = "st.async",
    StBulk = "st.bulk",
    MultimemLdReduce = "multimem.ld_reduce",
    MultimemSt = "multimem.st",
    MultimemRed = "multimem.red",
    Prefetch = "prefetch",
    Prefetchu = "prefetchu",
    Applypriority = "applypriority",
    Discard = "discard",
    Createpolicy = "createpolicy",
    Isspacep = "isspacep",
    Cvta = "cvta",
    Mapa = "mapa",
    Getctarank = "getctarank",
    Cvt = "cvt",
    CvtPack = "cvt.pack",
    CpAsync = "cp.async",
    CpAsyncCommitGroup = "cp.async.commit_group",
    CpAsyncWaitGroup = "cp.async.wait_group",
    CpAsyncWaitAll = "cp.async.wait_all",
    CpAsyncMbarrierArrive = "cp.async.mbarrier.arrive",
    CpAsyncBulk = "cp.async.bulk",
    CpReduceAsyncBulk = "cp.reduce.async.bulk",
    CpAsyncBulkPrefetch = "cp.async.bulk.prefetch",
    CpAsyncBulkTensor = "cp.async.bulk.tensor",
    CpReduceAsyncBulkTensor = "cp.reduce.async.bulk.tensor",
    CpAsyncBulkPrefetchTensor = "cp.async.bulk.prefetch.tensor",
    CpAsyncBulkCommitGroup = "cp.async.bulk.commit_group",
    CpAsyncBulkWaitGroup = "cp.async.bulk.wait_group",
    TensormapReplace = "tensormap.replace",
    TensormapCpFenceproxy = "tensormap.cp_fenceproxy",
    Tex = "tex",
    Tld4 = "tld4",
    Txq = "txq",
    Istypep = "istypep",
    Suld = "suld",
    Sust = "sust",
    Sured = "sured",
    Suq = "suq",
    Bra = "bra",
    BrxIdx = "brx.idx",
    Call = "call",
    Ret = "ret",
    Exit = "exit",
    Bar = "bar",
    Barrier = "barrier",
    BarWarpSync = "bar.warp.sync",
    BarrierCluster = "barrier.cluster",
    Membar = "membar",
    Fence = "fence",
    FenceProxy = "fence.proxy",
    Atom = "atom",
    Red = "red",
    RedAsync = "red.async",
    Vote = "vote",
    VoteSync = "vote.sync",
    MatchAny = "match.any",
    MatchAll = "match.all",
    Activemask = "activemask",
    ReduxSync = "redux.sync",
    Griddepcontrol = "griddepcontrol",
    ElectSync = "elect.sync",
    MbarrierInit = "mbarrier.init",
    MbarrierInval = "mbarrier.inval",
    MbarrierExpectTx = "mbarrier.expect_tx",
    MbarrierCompleteTx = "mbarrier.complete_tx",
    MbarrierArrive = "mbarrier.arrive",
    MbarrierArriveDrop = "mbarrier.arrive_drop",
    MbarrierTestWait = "mbarrier.test_wait",
    MbarrierTryWait = "mbarrier.try_wait",
    MbarrierPendingCount = "mbarrier.pending_count",
    Nanosleep = "nanosleep",
    Setmaxnreg = "setmaxnreg",
    ClusterlaunchcontrolTryCancel = "clusterlaunchcontrol.try_cancel",
    ClusterlaunchcontrolQueryCancel = "clusterlaunchcontrol.query_cancel",
    WmmaLoad = "wmma.load",
    WmmaStore = "wmma.store",
    WmmaMma = "wmma.mma",
    Mma = "mma",
    MmaSp = "mma.sp",
    MmaSpOrderedMetadata = "mma.sp::ordered_metadata",
    Ldmatrix = "ldmatrix",
    Stmatrix = "stmatrix",
    Movmatrix = "movmatrix",
    WgmmaMmaAsync = "wgmma.mma_async",
    WgmmaMmaAsyncSp = "wgmma.mma_async.sp",
    WgmmaFence = "wgmma.fence",
    WgmmaCommitGroup = "wgmma.commit_group",
    WgmmaWaitGroup = "wgmma.wait_group",
    Tcgen05Alloc = "tcgen05.alloc",
    Tcgen05Dealloc = "tcgen05.dealloc",
    Tcgen05RelinquishAllocPermit = "tcgen05.relinquish_alloc_permit",
    Tcgen05Ld = "tcgen05.ld",
    Tcgen05LdRed = "tcgen05.ld.red",
    Tcgen05St = "tcgen05.st",
    Tcgen05WaitLd = "tcgen05.wait::ld",
    Tcgen05WaitSt = "tcgen05.wait::st",
    Tcgen05Cp = "tcgen05.cp",
    Tcgen05Shift = "tcgen05.shift",
    Tcgen05Mma = "tcgen05.mma",
    Tcgen05MmaSp = "tcgen05.mma.sp",
    Tcgen05MmaWs = "tcgen05.mma.ws",
    Tcgen05MmaWsSp = "tcgen05.mma.ws.sp",
    Tcgen05Commit = "tcgen05.commit",
    Tcgen05FenceBeforeThreadSync = "tcgen05.fence::before_thread_sync",
    Tcgen05FenceAfterThreadSync = "tcgen05.fence::after_thread_sync",
    Vadd = "vadd",
    Vsub = "vsub",
    Vabsdiff = "vabsdiff",
    Vmin = "vmin",
    Vmax = "vmax",
    Vshl = "vshl",
    Vshr = "vshr",
    Vmad = "vmad",
    Vset = "vset",
    Vadd2 = "vadd2",
    Vsub2 = "vsub2",
    Vavrg2 = "vavrg2",
    Vabsdiff2 = "vabsdiff2",
    Vmin2 = "vmin2",
    Vmax2 = "vmax2",
    Vadd4 = "vadd4",
    Vsub4 = "vsub4",
    Vavrg4 = "vavrg4",
    Vabsdiff4 = "vabsdiff4",
    Vmin4 = "vmin4",
    Vmax4 = "vmax4",
    Vset2 = "vset2",
    Vset4 = "vset4",
    Brkpt = "brkpt",
    Trap = "trap",
    Pmevent = "pmevent",
    Alloca = "alloca",
    Stacksave = "stacksave",
    Stackrestore = "stackrestore",
}

impl FamilyId {
    /// The family at `index` of [`FAMILIES`] (`Unknown` past the end).
    pub fn from_index(index: usize) -> FamilyId {
        FamilyId::ALL
            .get(index)
            .copied()
            .unwrap_or(FamilyId::Unknown)
    }

    /// The family's name as in the table (`"cp.async.bulk.tensor"`); `None`
    /// for `Unknown`.
    pub fn name(self) -> Option<&'static str> {
        FamilyId::NAMES.get(self as usize).copied()
    }

    /// The table entry; `None` for `Unknown`.
    pub fn family(self) -> Option<&'static Family> {
        FAMILIES.get(self as usize)
    }

    /// The table's category; `None` for `Unknown`.
    pub fn category(self) -> Option<Category> {
        self.family().map(|f| f.category)
    }
}

/// A PTX fundamental type as an instruction type (`.u32`, `.f16x2`, the fp8
/// and fp6/fp4 packed types): exactly the names [`crate::type_bits`] knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    E4M3x4,
    E5M2x4,
    E2M1x4,
    E2M3x4,
    E3M2x4,
    UE8M0x2,
}

impl Ty {
    /// Parses a type modifier (`".u32"`); `None` for anything else.
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
            ".e4m3x4" => Ty::E4M3x4,
            ".e5m2x4" => Ty::E5M2x4,
            ".e2m1x4" => Ty::E2M1x4,
            ".e2m3x4" => Ty::E2M3x4,
            ".e3m2x4" => Ty::E3M2x4,
            ".ue8m0x2" => Ty::UE8M0x2,
            _ => return None,
        })
    }

    /// The modifier as written, with its dot (`".u32"`).
    pub fn name(self) -> &'static str {
        match self {
            Ty::Pred => ".pred",
            Ty::B8 => ".b8",
            Ty::B16 => ".b16",
            Ty::B32 => ".b32",
            Ty::B64 => ".b64",
            Ty::B128 => ".b128",
            Ty::U8 => ".u8",
            Ty::U16 => ".u16",
            Ty::U32 => ".u32",
            Ty::U64 => ".u64",
            Ty::S8 => ".s8",
            Ty::S16 => ".s16",
            Ty::S32 => ".s32",
            Ty::S64 => ".s64",
            Ty::F16 => ".f16",
            Ty::F16x2 => ".f16x2",
            Ty::BF16 => ".bf16",
            Ty::BF16x2 => ".bf16x2",
            Ty::TF32 => ".tf32",
            Ty::F32 => ".f32",
            Ty::F64 => ".f64",
            Ty::E4M3 => ".e4m3",
            Ty::E5M2 => ".e5m2",
            Ty::E4M3x2 => ".e4m3x2",
            Ty::E5M2x2 => ".e5m2x2",
            Ty::E2M1x2 => ".e2m1x2",
            Ty::E2M3x2 => ".e2m3x2",
            Ty::E3M2x2 => ".e3m2x2",
            Ty::U16x2 => ".u16x2",
            Ty::S16x2 => ".s16x2",
            Ty::F32x2 => ".f32x2",
            Ty::E4M3x4 => ".e4m3x4",
            Ty::E5M2x4 => ".e5m2x4",
            Ty::E2M1x4 => ".e2m1x4",
            Ty::E2M3x4 => ".e2m3x4",
            Ty::E3M2x4 => ".e3m2x4",
            Ty::UE8M0x2 => ".ue8m0x2",
        }
    }

    /// Size in bits (1 for predicates); the same as [`crate::type_bits`].
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
            | Ty::E3M2x2
            | Ty::UE8M0x2
            | Ty::E2M1x4 => 16,
            Ty::B32
            | Ty::U32
            | Ty::S32
            | Ty::F32
            | Ty::F16x2
            | Ty::BF16x2
            | Ty::TF32
            | Ty::U16x2
            | Ty::S16x2
            | Ty::E4M3x4
            | Ty::E5M2x4
            | Ty::E2M3x4
            | Ty::E3M2x4 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 | Ty::F32x2 => 64,
            Ty::B128 => 128,
        }
    }

    /// Size in bytes (predicates take one).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// The kind for the type-compatibility rules; the same as
    /// [`crate::type_kind`].
    pub fn kind(self) -> crate::TypeKind {
        use crate::TypeKind;
        match self {
            Ty::Pred => TypeKind::Pred,
            Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64 | Ty::B128 => TypeKind::Bits,
            Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64 | Ty::U16x2 => TypeKind::Unsigned,
            Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64 | Ty::S16x2 => TypeKind::Signed,
            _ => TypeKind::Float,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64 | Ty::S16x2)
    }

    /// Whether the type is a floating-point type (scalar or packed).
    pub fn is_float(self) -> bool {
        self.kind() == crate::TypeKind::Float
    }

    /// Whether the type is an integer or bit-size type (not a predicate).
    pub fn is_int(self) -> bool {
        matches!(
            self.kind(),
            crate::TypeKind::Bits | crate::TypeKind::Signed | crate::TypeKind::Unsigned
        )
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

/// A state space. `Generic` is what an instruction without one addresses;
/// `.shared::cta`/`.shared::cluster` are `Shared`, `.param::entry`/
/// `.param::func` are `Param`.
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

/// A rounding mode. `Rna` (to nearest, ties away from zero) is used by
/// `cvt.rna.tf32.f32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rnd {
    Rn,
    Rz,
    Rm,
    Rp,
    Rna,
}

/// A comparison operator of `setp`/`set`/`slct`-like instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl Cmp {
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            ".eq" => Cmp::Eq,
            ".ne" => Cmp::Ne,
            ".lt" => Cmp::Lt,
            ".le" => Cmp::Le,
            ".gt" => Cmp::Gt,
            ".ge" => Cmp::Ge,
            ".lo" => Cmp::Lo,
            ".ls" => Cmp::Ls,
            ".hi" => Cmp::Hi,
            ".hs" => Cmp::Hs,
            ".equ" => Cmp::Equ,
            ".neu" => Cmp::Neu,
            ".ltu" => Cmp::Ltu,
            ".leu" => Cmp::Leu,
            ".gtu" => Cmp::Gtu,
            ".geu" => Cmp::Geu,
            ".num" => Cmp::Num,
            ".nan" => Cmp::Nan,
            _ => return None,
        })
    }

    /// The modifier as written (`.geu`): the inverse of [`Cmp::parse`].
    pub fn modifier(self) -> &'static str {
        match self {
            Cmp::Eq => ".eq",
            Cmp::Ne => ".ne",
            Cmp::Lt => ".lt",
            Cmp::Le => ".le",
            Cmp::Gt => ".gt",
            Cmp::Ge => ".ge",
            Cmp::Lo => ".lo",
            Cmp::Ls => ".ls",
            Cmp::Hi => ".hi",
            Cmp::Hs => ".hs",
            Cmp::Equ => ".equ",
            Cmp::Neu => ".neu",
            Cmp::Ltu => ".ltu",
            Cmp::Leu => ".leu",
            Cmp::Gtu => ".gtu",
            Cmp::Geu => ".geu",
            Cmp::Num => ".num",
            Cmp::Nan => ".nan",
        }
    }

    /// The comparison true exactly where `self` is false, on operands of a
    /// floating-point type (`float`) or not: for floating point the
    /// unordered form of the opposite (`lt` -> `geu`: a NaN makes `lt`
    /// false, so its complement true), for integers the opposite.
    pub fn complement(self, float: bool) -> Cmp {
        use Cmp::*;
        match (self, float) {
            (Eq, false) => Ne,
            (Ne, false) => Eq,
            (Lt, false) => Ge,
            (Ge, false) => Lt,
            (Le, false) => Gt,
            (Gt, false) => Le,
            (Lo, _) => Hs,
            (Hs, _) => Lo,
            (Ls, _) => Hi,
            (Hi, _) => Ls,
            (Eq, true) => Neu,
            (Ne, true) => Equ,
            (Lt, true) => Geu,
            (Ge, true) => Ltu,
            (Le, true) => Gtu,
            (Gt, true) => Leu,
            (Equ, _) => Ne,
            (Neu, _) => Eq,
            (Ltu, _) => Ge,
            (Geu, _) => Lt,
            (Leu, _) => Gt,
            (Gtu, _) => Le,
            (Num, _) => Nan,
            (Nan, _) => Num,
        }
    }
}

/// `.and`/`.or`/`.xor`: how `setp`/`set` combine with a predicate, and the
/// operation of `atom`/`red`/`redux.sync`/`bar.red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a && b,
            BoolOp::Or => a || b,
            BoolOp::Xor => a != b,
        }
    }
}

/// A memory-model scope (`.cta`, `.cluster`, `.gpu`, `.sys`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// Memory-model semantics (`.weak` is also what no modifier means).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    Weak,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    Volatile,
    Mmio,
}

/// What kind of instruction an opcode is, as a bit set. Per family (the
/// table below [`family_flags`]), then adjusted by the modifiers written
/// (`.cc`, `.volatile`, `.mmio`, memory-model semantics, `bar.red`). These
/// are facts of the opcode alone: an instruction that reads a volatile
/// special register (`%clock`) is not pure either, which the IR's
/// `Inst::is_pure` adds.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpFlags(u32);

impl OpFlags {
    pub const NONE: OpFlags = OpFlags(0);
    /// The result depends only on the source operands: no memory, no state
    /// (carry flag), no other thread, no side effect. Equal pure instructions
    /// with equal sources compute equal values (value numbering merges them)
    /// and an unused one can be deleted.
    pub const PURE: OpFlags = OpFlags(1 << 0);
    /// Reads memory (any state space, texture and surface, tensor memory).
    pub const LOAD: OpFlags = OpFlags(1 << 1);
    /// Writes memory.
    pub const STORE: OpFlags = OpFlags(1 << 2);
    /// An atomic read-modify-write or reduction (`atom`, `red`, `sured`,
    /// `cp.reduce.async.bulk`, `multimem.red`).
    pub const ATOMIC: OpFlags = OpFlags(1 << 3);
    /// Waits for or signals other threads or asynchronous operations
    /// (`bar`, `barrier`, `mbarrier.*`, `cp.async.wait_group`, ...).
    pub const BARRIER: OpFlags = OpFlags(1 << 4);
    /// A memory fence (`membar`, `fence`, `fence.proxy`, `wgmma.fence`,
    /// `tcgen05.fence::*`).
    pub const FENCE: OpFlags = OpFlags(1 << 5);
    /// Ends a basic block: `bra`, `brx.idx`, `ret`, `exit`, `trap`.
    pub const TERMINATOR: OpFlags = OpFlags(1 << 6);
    /// Jumps to labels of the function: `bra`, `brx.idx`.
    pub const BRANCH: OpFlags = OpFlags(1 << 7);
    /// `call`.
    pub const CALL: OpFlags = OpFlags(1 << 8);
    /// The first two sources may be swapped (`add`, `mul`, `and`, `min`,
    /// `fma`, ..., and `setp`/`set` with `.eq`/`.ne`/`.equ`/`.neu` and no
    /// `.and`/`.or`/`.xor`).
    pub const COMMUTATIVE: OpFlags = OpFlags(1 << 9);
    /// May stop the kernel: `trap`, `brkpt`, and any memory access (a bad
    /// address faults).
    pub const MAY_TRAP: OpFlags = OpFlags(1 << 10);
    /// Has an effect beyond writing its destination registers and reading
    /// memory: writes memory, synchronizes, orders memory, changes control
    /// flow, writes the carry flag, is volatile, starts or waits for
    /// asynchronous work. Such an instruction is never deleted or
    /// duplicated. (A plain load is not a side effect: it has `LOAD` and
    /// `MAY_TRAP`.)
    pub const SIDE_EFFECTS: OpFlags = OpFlags(1 << 11);
    /// `.volatile` or `.mmio`: every execution must happen as written.
    pub const VOLATILE: OpFlags = OpFlags(1 << 12);
    /// Exchanges values between the threads of a warp (`shfl.sync`,
    /// `vote.sync`, `mma`, `ldmatrix`, ...) or a CTA (`bar`): its result
    /// depends on which threads execute it, so it is not pure and must not
    /// move across divergent control flow.
    pub const CONVERGENT: OpFlags = OpFlags(1 << 13);
    /// Writes the carry flag CC.CF (`.cc`).
    pub const CARRY_OUT: OpFlags = OpFlags(1 << 14);
    /// Reads the carry flag CC.CF (`addc`, `subc`, `madc`).
    pub const CARRY_IN: OpFlags = OpFlags(1 << 15);
    /// The first operand is read even when it is a register (def/use rule 3:
    /// `bra`, `ret`, `bar.sync %r1`, `membar`, `nanosleep %r1`, ...).
    pub const FIRST_IS_SOURCE: OpFlags = OpFlags(1 << 16);
    /// The destination is also read (def/use rule 5: the accumulator of
    /// `wgmma.mma_async`).
    pub const READS_DEST: OpFlags = OpFlags(1 << 17);

    /// What an opcode the table does not know gets: not pure, side effects,
    /// may trap, may read and write memory.
    pub const UNKNOWN: OpFlags =
        OpFlags(OpFlags::SIDE_EFFECTS.0 | OpFlags::MAY_TRAP.0 | OpFlags::LOAD.0 | OpFlags::STORE.0);

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: OpFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether some flag of `other` is set.
    pub const fn intersects(self, other: OpFlags) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn union(self, other: OpFlags) -> OpFlags {
        OpFlags(self.0 | other.0)
    }

    pub const fn without(self, other: OpFlags) -> OpFlags {
        OpFlags(self.0 & !other.0)
    }

    pub const fn bits(self) -> u32 {
        self.0
    }

    pub fn is_pure(self) -> bool {
        self.contains(OpFlags::PURE)
    }
    pub fn loads(self) -> bool {
        self.contains(OpFlags::LOAD)
    }
    pub fn stores(self) -> bool {
        self.contains(OpFlags::STORE)
    }
    pub fn is_atomic(self) -> bool {
        self.contains(OpFlags::ATOMIC)
    }
    pub fn is_barrier(self) -> bool {
        self.contains(OpFlags::BARRIER)
    }
    pub fn is_fence(self) -> bool {
        self.contains(OpFlags::FENCE)
    }
    pub fn is_terminator(self) -> bool {
        self.contains(OpFlags::TERMINATOR)
    }
    pub fn is_branch(self) -> bool {
        self.contains(OpFlags::BRANCH)
    }
    pub fn is_call(self) -> bool {
        self.contains(OpFlags::CALL)
    }
    pub fn is_commutative(self) -> bool {
        self.contains(OpFlags::COMMUTATIVE)
    }
    pub fn may_trap(self) -> bool {
        self.contains(OpFlags::MAY_TRAP)
    }
    pub fn has_side_effects(self) -> bool {
        self.contains(OpFlags::SIDE_EFFECTS)
    }
    pub fn is_volatile(self) -> bool {
        self.contains(OpFlags::VOLATILE)
    }
    pub fn is_convergent(self) -> bool {
        self.contains(OpFlags::CONVERGENT)
    }
}

impl std::ops::BitOr for OpFlags {
    type Output = OpFlags;
    fn bitor(self, rhs: OpFlags) -> OpFlags {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for OpFlags {
    fn bitor_assign(&mut self, rhs: OpFlags) {
        *self = self.union(rhs);
    }
}

impl std::fmt::Debug for OpFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; 18] = [
            "PURE",
            "LOAD",
            "STORE",
            "ATOMIC",
            "BARRIER",
            "FENCE",
            "TERMINATOR",
            "BRANCH",
            "CALL",
            "COMMUTATIVE",
            "MAY_TRAP",
            "SIDE_EFFECTS",
            "VOLATILE",
            "CONVERGENT",
            "CARRY_OUT",
            "CARRY_IN",
            "FIRST_IS_SOURCE",
            "READS_DEST",
        ];
        let set: Vec<&str> = NAMES
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect();
        write!(
            f,
            "{}",
            if set.is_empty() {
                "NONE".to_string()
            } else {
                set.join("|")
            }
        )
    }
}

/// The instruction types written, in order (at most [`Types::CAP`] kept:
/// the first ones and always the last).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Types {
    items: [Option<Ty>; Types::CAP],
}

impl Types {
    pub const CAP: usize = 4;

    fn push(&mut self, ty: Ty) {
        match self.items.iter_mut().find(|t| t.is_none()) {
            Some(slot) => *slot = Some(ty),
            None => self.items[Types::CAP - 1] = Some(ty),
        }
    }

    /// The types in order.
    pub fn iter(&self) -> impl Iterator<Item = Ty> + '_ {
        self.items.iter().map_while(|t| *t)
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.items[0].is_none()
    }

    /// The first type written (`T0`, the destination type of `cvt`).
    pub fn first(&self) -> Option<Ty> {
        self.items[0]
    }

    /// The last type written: the instruction type `T`.
    pub fn last(&self) -> Option<Ty> {
        self.iter().last()
    }
}

/// An instruction's opcode decoded once: see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpInfo {
    pub family: FamilyId,
    pub flags: OpFlags,
    /// The type modifiers in order; `types.last()` is the instruction type.
    pub types: Types,
    /// The first state-space modifier (`.shared::cluster` of
    /// `cp.async.bulk.shared::cluster.global`); `None` when none is written
    /// (generic addressing, or not a memory instruction).
    pub space: Option<Space>,
    /// Floating-point rounding (`.rn`, `.rz`, `.rm`, `.rp`, `.rna`).
    pub rnd: Option<Rnd>,
    /// Integer rounding (`.rni`, `.rzi`, `.rmi`, `.rpi`).
    pub irnd: Option<Rnd>,
    /// The comparison operator of `set`/`setp`/`vset*` (`.lt` of
    /// `setp.lt.s32`); `None` for other families.
    pub cmp: Option<Cmp>,
    /// `.and`/`.or`/`.xor`.
    pub bool_op: Option<BoolOp>,
    pub scope: Option<Scope>,
    pub sem: Option<Sem>,
    /// Vector width: 1, or 2/4/8 for `.v2`/`.v4`/`.v8`.
    pub vec: u8,
    /// `.ftz`, `.sat`, `.satfinite`, `.relu`, `.approx` written.
    pub ftz: bool,
    pub sat: bool,
    pub satfinite: bool,
    pub relu: bool,
    pub approx: bool,
}

impl OpInfo {
    /// Decodes an opcode word and its modifiers as written (`"ld"`,
    /// `[".global", ".v4", ".f32"]`). Never fails.
    pub fn decode<S: AsRef<str>>(opcode: &str, modifiers: &[S]) -> OpInfo {
        let family = crate::lookup_index(opcode, modifiers)
            .map(|(i, _)| FamilyId::from_index(i))
            .unwrap_or(FamilyId::Unknown);
        OpInfo::decode_with_family(family, modifiers)
    }

    /// [`OpInfo::decode`] with the family already looked up.
    pub fn decode_with_family<S: AsRef<str>>(family: FamilyId, modifiers: &[S]) -> OpInfo {
        let mut info = OpInfo {
            family,
            flags: family_flags(family),
            types: Types::default(),
            space: None,
            rnd: None,
            irnd: None,
            cmp: None,
            bool_op: None,
            scope: None,
            sem: None,
            vec: 1,
            ftz: false,
            sat: false,
            satfinite: false,
            relu: false,
            approx: false,
        };
        let mut red = false;
        // `.lo`/`.hi` are comparisons only where something is compared
        // (`mul.lo` is not one).
        let compares = matches!(
            family,
            FamilyId::Set
                | FamilyId::Setp
                | FamilyId::Vset
                | FamilyId::Vset2
                | FamilyId::Vset4
                | FamilyId::Unknown
        );
        for m in modifiers {
            let m = m.as_ref();
            if let Some(ty) = Ty::parse(m) {
                info.types.push(ty);
                continue;
            }
            match m {
                ".rn" => set_first(&mut info.rnd, Rnd::Rn),
                ".rz" => set_first(&mut info.rnd, Rnd::Rz),
                ".rm" => set_first(&mut info.rnd, Rnd::Rm),
                ".rp" => set_first(&mut info.rnd, Rnd::Rp),
                ".rna" => set_first(&mut info.rnd, Rnd::Rna),
                ".rni" => set_first(&mut info.irnd, Rnd::Rn),
                ".rzi" => set_first(&mut info.irnd, Rnd::Rz),
                ".rmi" => set_first(&mut info.irnd, Rnd::Rm),
                ".rpi" => set_first(&mut info.irnd, Rnd::Rp),
                ".and" => set_first(&mut info.bool_op, BoolOp::And),
                ".or" => set_first(&mut info.bool_op, BoolOp::Or),
                ".xor" => set_first(&mut info.bool_op, BoolOp::Xor),
                ".cta" => set_first(&mut info.scope, Scope::Cta),
                ".cluster" => set_first(&mut info.scope, Scope::Cluster),
                ".gpu" => set_first(&mut info.scope, Scope::Gpu),
                ".sys" => set_first(&mut info.scope, Scope::Sys),
                ".weak" => set_first(&mut info.sem, Sem::Weak),
                ".relaxed" => set_first(&mut info.sem, Sem::Relaxed),
                ".acquire" => set_first(&mut info.sem, Sem::Acquire),
                ".release" => set_first(&mut info.sem, Sem::Release),
                ".acq_rel" => set_first(&mut info.sem, Sem::AcqRel),
                ".volatile" => set_first(&mut info.sem, Sem::Volatile),
                ".mmio" => set_first(&mut info.sem, Sem::Mmio),
                ".v2" if info.vec == 1 => info.vec = 2,
                ".v4" if info.vec == 1 => info.vec = 4,
                ".v8" if info.vec == 1 => info.vec = 8,
                ".ftz" => info.ftz = true,
                ".sat" => info.sat = true,
                ".satfinite" => info.satfinite = true,
                ".relu" => info.relu = true,
                ".approx" => info.approx = true,
                ".cc" => info.flags |= OpFlags::CARRY_OUT,
                ".red" => red = true,
                _ => {
                    if info.cmp.is_none() && compares {
                        info.cmp = Cmp::parse(m);
                    }
                    if info.space.is_none() {
                        info.space = Space::parse(m);
                    }
                }
            }
        }
        let f = &mut info.flags;
        if f.contains(OpFlags::CARRY_OUT) {
            *f = f.without(OpFlags::PURE) | OpFlags::SIDE_EFFECTS;
        }
        if matches!(info.sem, Some(Sem::Volatile | Sem::Mmio)) {
            *f = f.without(OpFlags::PURE) | OpFlags::VOLATILE | OpFlags::SIDE_EFFECTS;
        }
        // Loads with memory-model semantics order memory.
        if matches!(info.sem, Some(Sem::Relaxed | Sem::Acquire | Sem::AcqRel)) {
            *f = f.without(OpFlags::PURE) | OpFlags::SIDE_EFFECTS;
        }
        // `bar.red` writes its destination.
        if red
            && matches!(
                family,
                FamilyId::Bar
                    | FamilyId::Barrier
                    | FamilyId::BarWarpSync
                    | FamilyId::BarrierCluster
            )
        {
            *f = f.without(OpFlags::FIRST_IS_SOURCE);
        }
        if matches!(family, FamilyId::Setp | FamilyId::Set)
            && matches!(info.cmp, Some(Cmp::Eq | Cmp::Ne | Cmp::Equ | Cmp::Neu))
            && info.bool_op.is_none()
        {
            *f |= OpFlags::COMMUTATIVE;
        }
        info
    }

    /// The instruction type `T`: the last type written.
    pub fn ty(&self) -> Option<Ty> {
        self.types.last()
    }

    /// The first type written (`T0`).
    pub fn first_ty(&self) -> Option<Ty> {
        self.types.first()
    }

    /// The family's name as in the table; `None` for an unknown opcode.
    pub fn family_name(&self) -> Option<&'static str> {
        self.family.name()
    }
}

fn set_first<T>(slot: &mut Option<T>, value: T) {
    if slot.is_none() {
        *slot = Some(value);
    }
}

/// The flags of a family before its modifiers are looked at.
pub fn family_flags(family: FamilyId) -> OpFlags {
    use FamilyId as F;
    const PURE: OpFlags = OpFlags::PURE;
    const COMM: OpFlags = OpFlags(OpFlags::PURE.0 | OpFlags::COMMUTATIVE.0);
    const SIDE: OpFlags = OpFlags::SIDE_EFFECTS;
    const LOAD: OpFlags = OpFlags(OpFlags::LOAD.0 | OpFlags::MAY_TRAP.0);
    const STORE: OpFlags = OpFlags(OpFlags::STORE.0 | OpFlags::MAY_TRAP.0 | SIDE.0);
    const RMW: OpFlags = OpFlags(LOAD.0 | STORE.0 | OpFlags::ATOMIC.0);
    const COPY: OpFlags = OpFlags(LOAD.0 | STORE.0);
    const BARRIER: OpFlags = OpFlags(OpFlags::BARRIER.0 | SIDE.0);
    const FENCE: OpFlags = OpFlags(OpFlags::FENCE.0 | SIDE.0);
    const CONV: OpFlags = OpFlags::CONVERGENT;
    const SRC: OpFlags = OpFlags::FIRST_IS_SOURCE;
    const END: OpFlags = OpFlags(OpFlags::TERMINATOR.0 | SIDE.0 | SRC.0);
    const BRANCH: OpFlags = OpFlags(END.0 | OpFlags::BRANCH.0);
    match family {
        // Arithmetic, logic, comparisons, moves and conversions that read only
        // their operands.
        F::Sub
        | F::Div
        | F::Rem
        | F::Sad
        | F::Abs
        | F::Neg
        | F::Popc
        | F::Clz
        | F::Bfind
        | F::Fns
        | F::Brev
        | F::Bfe
        | F::Bfi
        | F::Bmsk
        | F::Szext
        | F::Dp4a
        | F::Dp2a
        | F::Testp
        | F::Copysign
        | F::Rcp
        | F::RcpApproxFtzF64
        | F::Sqrt
        | F::Rsqrt
        | F::RsqrtApproxFtzF64
        | F::Sin
        | F::Cos
        | F::Lg2
        | F::Ex2
        | F::Tanh
        | F::Set
        | F::Setp
        | F::Selp
        | F::Slct
        | F::Not
        | F::Cnot
        | F::Lop3
        | F::Shf
        | F::Shl
        | F::Shr
        | F::Mov
        | F::Prmt
        | F::Isspacep
        | F::Cvta
        | F::Mapa
        | F::Cvt
        | F::CvtPack => PURE,
        F::Add
        | F::Mul
        | F::Mad
        | F::Mul24
        | F::Mad24
        | F::Min
        | F::Max
        | F::Fma
        | F::And
        | F::Or
        | F::Xor => COMM,
        // Video instructions.
        F::Vadd
        | F::Vsub
        | F::Vabsdiff
        | F::Vmin
        | F::Vmax
        | F::Vshl
        | F::Vshr
        | F::Vmad
        | F::Vset
        | F::Vadd2
        | F::Vsub2
        | F::Vavrg2
        | F::Vabsdiff2
        | F::Vmin2
        | F::Vmax2
        | F::Vadd4
        | F::Vsub4
        | F::Vavrg4
        | F::Vabsdiff4
        | F::Vmin4
        | F::Vmax4
        | F::Vset2
        | F::Vset4 => PURE,
        // Extended precision: the flags come from `.cc` (CARRY_OUT) and here.
        F::AddCc => OpFlags::COMMUTATIVE,
        F::SubCc => OpFlags::NONE,
        F::Addc | F::Subc | F::Madc => OpFlags::CARRY_IN,
        // Values that are not pure only because nothing says so yet.
        F::Createpolicy
        | F::Getctarank
        | F::Istypep
        | F::MbarrierPendingCount
        | F::ClusterlaunchcontrolQueryCancel
        | F::Stacksave => OpFlags::NONE,
        // Memory.
        F::Ld | F::LdGlobalNc | F::Ldu | F::Tex | F::Tld4 | F::Txq | F::Suld | F::Suq => LOAD,
        F::St | F::StAsync | F::StBulk | F::MultimemSt | F::Sust | F::Discard => STORE,
        F::MultimemLdReduce => LOAD,
        F::Atom | F::Red | F::RedAsync | F::MultimemRed | F::Sured => RMW,
        F::Prefetch
        | F::Prefetchu
        | F::Applypriority
        | F::CpAsyncBulkPrefetch
        | F::CpAsyncBulkPrefetchTensor => SIDE,
        F::CpAsync | F::CpAsyncBulk | F::CpAsyncBulkTensor | F::TensormapReplace => COPY,
        F::CpReduceAsyncBulk | F::CpReduceAsyncBulkTensor => RMW,
        F::TensormapCpFenceproxy => OpFlags(COPY.0 | FENCE.0),
        F::CpAsyncCommitGroup
        | F::CpAsyncWaitGroup
        | F::CpAsyncWaitAll
        | F::CpAsyncBulkCommitGroup
        | F::CpAsyncBulkWaitGroup
        | F::CpAsyncMbarrierArrive => BARRIER,
        // Control flow.
        F::Bra | F::BrxIdx => BRANCH,
        F::Ret | F::Exit => END,
        F::Trap => OpFlags(END.0 | OpFlags::MAY_TRAP.0),
        F::Brkpt => OpFlags(SIDE.0 | SRC.0 | OpFlags::MAY_TRAP.0),
        F::Call => OpFlags(OpFlags::CALL.0 | COPY.0 | SIDE.0),
        // Synchronization.
        F::Bar | F::Barrier | F::BarWarpSync | F::BarrierCluster => {
            OpFlags(BARRIER.0 | CONV.0 | SRC.0)
        }
        F::Membar | F::Fence | F::FenceProxy => OpFlags(FENCE.0 | SRC.0),
        F::Griddepcontrol | F::Nanosleep | F::Setmaxnreg | F::Pmevent | F::Stackrestore => {
            OpFlags(SIDE.0 | SRC.0)
        }
        F::MbarrierInit
        | F::MbarrierInval
        | F::MbarrierExpectTx
        | F::MbarrierCompleteTx
        | F::MbarrierArrive
        | F::MbarrierArriveDrop
        | F::MbarrierTestWait
        | F::MbarrierTryWait => OpFlags(BARRIER.0 | COPY.0),
        F::ClusterlaunchcontrolTryCancel => STORE,
        F::Alloca => SIDE,
        // Warp-level.
        F::Shfl
        | F::ShflSync
        | F::Vote
        | F::VoteSync
        | F::MatchAny
        | F::MatchAll
        | F::Activemask
        | F::ReduxSync
        | F::ElectSync
        | F::WmmaMma
        | F::Mma
        | F::MmaSp
        | F::MmaSpOrderedMetadata
        | F::Movmatrix => CONV,
        F::WmmaLoad | F::Ldmatrix => OpFlags(LOAD.0 | CONV.0),
        F::WmmaStore | F::Stmatrix => OpFlags(STORE.0 | CONV.0),
        F::WgmmaMmaAsync | F::WgmmaMmaAsyncSp => {
            OpFlags(LOAD.0 | SIDE.0 | CONV.0 | OpFlags::READS_DEST.0)
        }
        F::WgmmaFence => FENCE,
        F::WgmmaCommitGroup | F::WgmmaWaitGroup => BARRIER,
        // Tensor memory (sm_100).
        F::Tcgen05Alloc => OpFlags(STORE.0 | CONV.0),
        F::Tcgen05Dealloc => OpFlags(SIDE.0 | CONV.0 | SRC.0),
        F::Tcgen05RelinquishAllocPermit => OpFlags(SIDE.0 | CONV.0),
        F::Tcgen05Ld | F::Tcgen05LdRed => OpFlags(LOAD.0 | SIDE.0 | CONV.0),
        F::Tcgen05St => OpFlags(STORE.0 | CONV.0),
        F::Tcgen05Cp | F::Tcgen05Shift => OpFlags(COPY.0 | CONV.0),
        F::Tcgen05Mma | F::Tcgen05MmaSp | F::Tcgen05MmaWs | F::Tcgen05MmaWsSp => {
            OpFlags(COPY.0 | CONV.0)
        }
        F::Tcgen05WaitLd | F::Tcgen05WaitSt | F::Tcgen05Commit => BARRIER,
        F::Tcgen05FenceBeforeThreadSync | F::Tcgen05FenceAfterThreadSync => FENCE,
        F::Unknown => OpFlags::UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_ids_follow_the_table() {
        assert_eq!(FamilyId::ALL.len(), FAMILIES.len());
        for (i, family) in FAMILIES.iter().enumerate() {
            let id = FamilyId::from_index(i);
            assert_eq!(id as usize, i);
            assert_eq!(id.name(), Some(family.name));
        }
        assert_eq!(FamilyId::from_index(FAMILIES.len()), FamilyId::Unknown);
        assert_eq!(FamilyId::Unknown.name(), None);
        assert!(FamilyId::Unknown.family().is_none());
    }

    #[test]
    fn types_agree_with_type_bits_and_kind() {
        let names = [
            ".pred", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8",
            ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".tf32", ".f32", ".f64",
            ".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".u16x2",
            ".s16x2", ".f32x2", ".e4m3x4", ".e5m2x4", ".e2m1x4", ".e2m3x4", ".e3m2x4", ".ue8m0x2",
        ];
        for name in names {
            let ty = Ty::parse(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(Some(ty.bits()), crate::type_bits(name), "{name}");
            assert_eq!(Some(ty.kind()), crate::type_kind(name), "{name}");
            assert_eq!(ty.name(), name);
        }
        for other in [".rn", ".global", ".v4", ".e2m1", ".s4", "", "."] {
            assert_eq!(Ty::parse(other), None);
            assert_eq!(crate::type_bits(other), None);
        }
    }

    fn info(text: &str) -> OpInfo {
        let mut parts = text.split('.');
        let word = parts.next().unwrap_or("");
        let mods: Vec<String> = parts.map(|p| format!(".{p}")).collect();
        OpInfo::decode(word, &mods)
    }

    #[test]
    fn decodes_sample_instructions() {
        let i = info("ld.global.v4.f32");
        assert_eq!(i.family, FamilyId::Ld);
        assert_eq!(i.space, Some(Space::Global));
        assert_eq!(i.vec, 4);
        assert_eq!(i.ty(), Some(Ty::F32));
        assert_eq!(i.flags, OpFlags::LOAD | OpFlags::MAY_TRAP);

        let i = info("cvt.rn.f32.s32");
        assert_eq!((i.first_ty(), i.ty()), (Some(Ty::F32), Some(Ty::S32)));
        assert_eq!(i.rnd, Some(Rnd::Rn));
        assert!(i.flags.is_pure());

        let i = info("cvt.rzi.s32.f32");
        assert_eq!((i.rnd, i.irnd), (None, Some(Rnd::Rz)));

        let i = info("setp.lt.and.s32");
        assert_eq!(i.cmp, Some(Cmp::Lt));
        assert_eq!(i.bool_op, Some(BoolOp::And));
        assert!(!i.flags.is_commutative());
        assert!(info("setp.ne.s32").flags.is_commutative());
        assert!(!info("setp.ne.or.s32").flags.is_commutative());
        // `.lo` of `mul.lo` is not a comparison.
        assert_eq!(info("mul.lo.s32").cmp, None);
        assert_eq!(info("setp.lo.u32").cmp, Some(Cmp::Lo));

        let i = info("atom.global.acq_rel.gpu.add.u32");
        assert_eq!(i.family, FamilyId::Atom);
        assert_eq!((i.scope, i.sem), (Some(Scope::Gpu), Some(Sem::AcqRel)));
        assert!(i.flags.is_atomic() && i.flags.loads() && i.flags.stores());
        assert!(i.flags.has_side_effects() && !i.flags.is_pure());

        let i = info("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
        assert_eq!(i.family, FamilyId::CpAsyncBulk);
        assert_eq!(i.space, Some(Space::Shared));
    }

    #[test]
    fn flags_of_sample_instructions() {
        use OpFlags as F;
        let pure = F::PURE;
        let comm = F::PURE | F::COMMUTATIVE;
        let table: &[(&str, OpFlags)] = &[
            ("add.s32", comm),
            ("add.rn.ftz.f32", comm),
            ("sub.f64", pure),
            ("mad.lo.s32", comm),
            (
                "add.cc.u32",
                F::COMMUTATIVE | F::CARRY_OUT | F::SIDE_EFFECTS,
            ),
            ("addc.u32", F::CARRY_IN),
            ("addc.cc.u32", F::CARRY_IN | F::CARRY_OUT | F::SIDE_EFFECTS),
            (
                "mad.hi.cc.u32",
                F::COMMUTATIVE | F::CARRY_OUT | F::SIDE_EFFECTS,
            ),
            ("mov.u32", pure),
            ("cvta.to.global.u64", pure),
            ("setp.eq.s32", comm),
            ("setp.lt.s32", pure),
            ("ld.param.u64", F::LOAD | F::MAY_TRAP),
            (
                "ld.volatile.global.u32",
                F::LOAD | F::MAY_TRAP | F::VOLATILE | F::SIDE_EFFECTS,
            ),
            (
                "ld.acquire.gpu.u32",
                F::LOAD | F::MAY_TRAP | F::SIDE_EFFECTS,
            ),
            ("st.global.f32", F::STORE | F::MAY_TRAP | F::SIDE_EFFECTS),
            (
                "red.global.add.f32",
                F::LOAD | F::STORE | F::ATOMIC | F::MAY_TRAP | F::SIDE_EFFECTS,
            ),
            (
                "bra.uni",
                F::TERMINATOR | F::BRANCH | F::SIDE_EFFECTS | F::FIRST_IS_SOURCE,
            ),
            (
                "brx.idx",
                F::TERMINATOR | F::BRANCH | F::SIDE_EFFECTS | F::FIRST_IS_SOURCE,
            ),
            ("ret", F::TERMINATOR | F::SIDE_EFFECTS | F::FIRST_IS_SOURCE),
            (
                "trap",
                F::TERMINATOR | F::SIDE_EFFECTS | F::FIRST_IS_SOURCE | F::MAY_TRAP,
            ),
            (
                "call.uni",
                F::CALL | F::LOAD | F::STORE | F::MAY_TRAP | F::SIDE_EFFECTS,
            ),
            (
                "bar.sync",
                F::BARRIER | F::SIDE_EFFECTS | F::CONVERGENT | F::FIRST_IS_SOURCE,
            ),
            (
                "bar.red.popc.u32",
                F::BARRIER | F::SIDE_EFFECTS | F::CONVERGENT,
            ),
            ("membar.gl", F::FENCE | F::SIDE_EFFECTS | F::FIRST_IS_SOURCE),
            ("shfl.sync.bfly.b32", F::CONVERGENT),
            (
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
                F::LOAD | F::MAY_TRAP | F::SIDE_EFFECTS | F::CONVERGENT | F::READS_DEST,
            ),
            ("frobnicate.u32", F::UNKNOWN),
        ];
        for &(text, flags) in table {
            assert_eq!(info(text).flags, flags, "{text}");
        }
        assert_eq!(info("frobnicate").family, FamilyId::Unknown);
        assert_eq!(info("").family, FamilyId::Unknown);
    }

    #[test]
    fn decoding_never_panics_and_finds_the_family() {
        // Every family, written with its name parts and then each of its
        // types and modifiers in turn (and some garbage), decodes to itself.
        for (i, family) in FAMILIES.iter().enumerate() {
            let mut parts = family.name.split('.');
            let word = parts.next().unwrap_or("");
            let base: Vec<String> = parts.map(|p| format!(".{p}")).collect();
            let extra = family.types.iter().chain(family.modifiers.iter());
            for m in extra.chain([&".", &"", &".\u{e9}", &"::", &".v3", &".x::y::z"]) {
                let mut mods = base.clone();
                mods.push(m.trim_end_matches('*').to_string());
                let info = OpInfo::decode(word, &mods);
                assert!(info.family != FamilyId::Unknown, "{} {m}", family.name);
                let _ = (info.ty(), info.first_ty(), info.types.len());
                if info.family == FamilyId::from_index(i) {
                    assert_eq!(
                        info.flags.is_pure(),
                        family_flags(info.family).is_pure()
                            && !info
                                .flags
                                .intersects(OpFlags::CARRY_OUT | OpFlags::VOLATILE)
                            && !info.flags.has_side_effects()
                    );
                }
            }
        }
        let many: Vec<&str> = vec![".f32"; 100];
        assert_eq!(OpInfo::decode("cvt", &many).types.len(), Types::CAP);
        assert_eq!(OpInfo::decode("", &[""; 3]).family, FamilyId::Unknown);
    }

    #[test]
    fn every_family_gets_flags() {
        // Every family that is not flagged pure or convergent, and has no
        // memory access, either has side effects or is one of the few value
        // computations the table does not call pure.
        for &id in FamilyId::ALL {
            let f = family_flags(id);
            let value = [
                FamilyId::Addc,
                FamilyId::Subc,
                FamilyId::Madc,
                FamilyId::AddCc,
                FamilyId::SubCc,
                FamilyId::Createpolicy,
                FamilyId::Getctarank,
                FamilyId::Istypep,
                FamilyId::MbarrierPendingCount,
                FamilyId::ClusterlaunchcontrolQueryCancel,
                FamilyId::Stacksave,
            ];
            let described = f.is_pure()
                || f.is_convergent()
                || f.loads()
                || f.stores()
                || f.has_side_effects()
                || value.contains(&id);
            assert!(described, "{id:?}");
            assert!(!(f.is_pure() && f.has_side_effects()), "{id:?}");
        }
    }
}
