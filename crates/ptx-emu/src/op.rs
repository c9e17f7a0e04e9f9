//! The executable form of an instruction: operands resolved to register
//! slots, immediates converted to the instruction type, symbols to their
//! storage, labels to instruction indices, and the opcode with its modifiers
//! matched once into an [`Op`].

use crate::cvt::CvtSpec;
use crate::fops::{Cmp, FMods, FOp, HOp};
use crate::int::IOp;
use crate::layout::SymLoc;
use crate::types::{Space, Ty};

/// No instruction index (no reconvergence point, no register).
pub const NONE: u32 = u32::MAX;

/// A special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    LaneMaskEq,
    LaneMaskLe,
    LaneMaskLt,
    LaneMaskGe,
    LaneMaskGt,
    Clock,
    ClockHi,
    Clock64,
    GlobalTimer,
    GlobalTimerLo,
    GlobalTimerHi,
    DynamicSmem,
    TotalSmem,
    /// `%cluster_nctaid.*`, `%cluster_nctarank`: one CTA per cluster.
    One,
    /// Everything that reads as 0 here (`%envreg*`, `%pm*`,
    /// `%cluster_ctaid`, `%cluster_ctarank`, `%reserved_smem_offset_*`, ...).
    Zero,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(u32),
    Imm(u64),
    Special(Sreg),
    /// The address of a symbol in its own state space, plus an offset.
    Sym(SymLoc, i64),
    /// The generic address of a symbol, plus an offset.
    SymGeneric(SymLoc, i64),
    /// `%r + 4`.
    RegOff(u32, i64),
    /// `!%p`.
    NotPred(u32),
}

/// A destination register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dst {
    /// [`NONE`] for a sink `_`.
    pub slot: u32,
    /// Width of the register.
    pub reg_bits: u8,
    /// Width of the value written (the instruction type).
    pub bits: u8,
    /// Sign-extend the value to the register (signed instruction types).
    pub signed: bool,
}

impl Dst {
    pub const SINK: Dst = Dst {
        slot: NONE,
        reg_bits: 64,
        bits: 64,
        signed: false,
    };

    pub fn is_sink(&self) -> bool {
        self.slot == NONE
    }
}

/// A memory operand `[base + off]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    pub base: Src,
    pub off: i64,
}

/// Atomic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    And,
    Or,
    Xor,
    Cas,
    Exch,
    Add,
    Inc,
    Dec,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// What a CTA barrier instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    Arrive,
    RedPopc,
    RedAnd,
    RedOr,
}

/// `.and`/`.or`/`.xor`: the typed form every crate shares.
pub use ptx_isa::BoolOp;

/// A call argument or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallArg {
    /// A `.param` variable (its bytes are copied).
    Param(SymLoc),
    /// A register or immediate value.
    Value(Src),
    /// A register receiving a result.
    Reg(Dst),
}

/// A decoded `call`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSpec {
    /// The callee: a function index, or a register holding a function address.
    pub target: Result<u32, Src>,
    pub args: Vec<CallArg>,
    pub rets: Vec<CallArg>,
}

/// A decoded matrix instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Matrix {
    /// `ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 {d..}, [a]`.
    Ld {
        ds: Vec<Dst>,
        addr: Addr,
        space: Space,
        trans: bool,
    },
    /// `stmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 [a], {s..}`.
    St {
        srcs: Vec<Src>,
        addr: Addr,
        space: Space,
        trans: bool,
    },
    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`.
    Trans { d: Dst, a: Src },
    /// `mma.sync.aligned.mMnNkK.alayout.blayout.dtype.atype.btype.ctype`.
    Mma {
        m: u32,
        n: u32,
        k: u32,
        dty: Ty,
        aty: Ty,
        bty: Ty,
        cty: Ty,
        sat: bool,
        /// Sub-byte multiplicands (`.s4`/`.u4`/`.b1`, which have no [`Ty`]):
        /// the types of A and B, and `.and.popc`/`.xor.popc` for `.b1`.
        sub: Option<(
            crate::wmma::WTy,
            crate::wmma::WTy,
            Option<crate::wmma::BitOp>,
        )>,
        /// Whether A and B are row-major (`.row.col` but for `m8n8k4`
        /// `.f16`, which takes any pair).
        rows: (bool, bool),
        d: Vec<Dst>,
        a: Vec<Src>,
        b: Vec<Src>,
        c: Vec<Src>,
    },
}

/// An `mbarrier` operation (and `cp.async.mbarrier.arrive.noinc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarKind {
    Init,
    Inval,
    /// arrive (with a count), `.expect_tx` (tx-count in `b`, count 1),
    /// `.noComplete`, `arrive_drop`.
    Arrive {
        expect_tx: bool,
        drop: bool,
        counted: bool,
    },
    ExpectTx,
    CompleteTx,
    /// test_wait/try_wait, with a state or a `.parity`.
    Wait {
        parity: bool,
    },
    PendingCount,
}

/// A scalar video instruction (`vadd`, `vshr`, ... with byte/half selectors,
/// `.sat` and a secondary `.add/.min/.max` or a destination merge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Video {
    pub op: VideoOp,
    pub dty: Ty,
    pub aty: Ty,
    pub bty: Ty,
    pub sat: bool,
    /// `.clamp` (vs `.wrap`) for shifts.
    pub clamp: bool,
    pub op2: Option<VideoOp2>,
    pub cmp: Option<Cmp>,
    pub d: Dst,
    /// Destination byte/half selector (merge into the old value).
    pub dsel: Option<(u32, u32)>,
    pub a: Src,
    pub asel: Option<(u32, u32)>,
    pub b: Src,
    pub bsel: Option<(u32, u32)>,
    pub c: Src,
    /// `vmad`: negate a and/or b products.
    pub neg: (bool, bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoOp {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Shl,
    Shr,
    Mad,
    Set,
}

/// A SIMD video instruction (`vadd2`, `vabsdiff4`, `vset2`, ...): two
/// half-word or four byte elements, selected from the eight bytes of
/// `{b, a}`, operated on in parallel, then merged into `c` under a mask or
/// summed into `c` (`.add`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VideoSimd {
    pub op: SimdOp,
    /// 2 (half-words) or 4 (bytes).
    pub lanes: u8,
    pub a_signed: bool,
    pub b_signed: bool,
    pub d_signed: bool,
    pub sat: bool,
    /// `.add`: accumulate into `c` instead of merging.
    pub add: bool,
    /// Elements written (bit i: element i); the others come from `c`.
    pub mask: u8,
    /// For each element, the index of the half-word (0..3) or byte (0..7)
    /// of `{b, a}` it is taken from.
    pub asel: [u8; 4],
    pub bsel: [u8; 4],
    pub d: Dst,
    pub a: Src,
    pub b: Src,
    pub c: Src,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdOp {
    Add,
    Sub,
    Avrg,
    Absdiff,
    Min,
    Max,
    Set(Cmp),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoOp2 {
    Add,
    Min,
    Max,
}

/// Where a texture, sampler or surface handle comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handle {
    /// A register or a module-level object's handle.
    Val(Src),
    /// A `.texref`/`.samplerref`/`.surfref` parameter: the handle is read
    /// from this param-space address.
    Param(Src),
}

/// `tex` or `tld4.comp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexOp {
    /// `Some(channel)` for `tld4`.
    pub gather: Option<u8>,
    pub geom: crate::texture::Geom,
    /// The result type: `.f32`, `.f16` (float fetches), `.s32`, `.u32`.
    pub dty: Ty,
    /// `.v2.f16x2`: two packed halves.
    pub f16x2: bool,
    /// `.s32` coordinates.
    pub int_coords: bool,
    pub ds: Vec<Dst>,
    /// The residency predicate (`|p`).
    pub p: Dst,
    pub tex: Handle,
    pub sampler: Option<Handle>,
    pub coords: Vec<Src>,
    pub offsets: Vec<Src>,
    pub depth: Option<Src>,
}

/// A surface access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurfOp {
    pub kind: SurfKind,
    /// `.p` (formatted; x in texels) vs `.b` (bytes).
    pub formatted: bool,
    pub geom: crate::texture::Geom,
    /// Element type (`.b32`, `.u64`, ...).
    pub ety: Ty,
    pub clamp: crate::texture::SurfClamp,
    pub surf: Handle,
    pub coords: Vec<Src>,
    /// Destinations of `suld`.
    pub ds: Vec<Dst>,
    /// Values of `sust`/`sured`.
    pub vals: Vec<Src>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfKind {
    Ld,
    St,
    Red(AtomOp),
}

/// `txq`/`suq`/`istypep`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryOp {
    /// The attribute (`.width`, `.filter_mode`, ...; `istypep`: `.texref`,
    /// `.samplerref`, `.surfref`).
    pub what: Box<str>,
    pub istypep: bool,
    pub level: Option<Src>,
    pub d: Dst,
    pub obj: Handle,
}

/// `cp.async.bulk` (non-tensor) and `st.bulk`: copies `size` bytes (or
/// zeroes them), at once, then completes the transaction bytes on an
/// mbarrier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BulkOp {
    pub dst: Addr,
    pub dst_space: Space,
    /// `None`: `st.bulk` (zero fill).
    pub src: Option<(Addr, Space)>,
    pub size: Src,
    /// `.mbarrier::complete_tx::bytes`: the barrier (shared memory).
    pub mbar: Option<Addr>,
}

/// A `wmma` instruction (see [`crate::wmma`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WmmaOp {
    Load {
        frag: crate::wmma::Frag,
        ty: crate::wmma::WTy,
        mnk: (u32, u32, u32),
        /// `.row` (vs `.col`) memory layout.
        row: bool,
        space: Space,
        ds: Vec<Dst>,
        addr: Addr,
        stride: Option<Src>,
    },
    Store {
        ty: crate::wmma::WTy,
        mnk: (u32, u32, u32),
        row: bool,
        space: Space,
        srcs: Vec<Src>,
        addr: Addr,
        stride: Option<Src>,
    },
    Mma {
        spec: crate::wmma::MmaSpec,
        d: Vec<Dst>,
        a: Vec<Src>,
        b: Vec<Src>,
        c: Vec<Src>,
    },
}

/// An executable operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Nop,
    /// Fails when executed (instructions the emulator does not implement, or
    /// whose operands it cannot make sense of).
    Unsupported(Box<str>),
    Mov {
        d: Dst,
        a: Src,
    },
    /// Moves several values at once (all read before any is written).
    MovMulti {
        ds: Box<[Dst]>,
        srcs: Box<[Src]>,
    },
    Pack {
        d: Dst,
        parts: Box<[Src]>,
        ebits: u32,
    },
    Unpack {
        ds: Box<[Dst]>,
        a: Src,
        ebits: u32,
    },
    Ld {
        space: Space,
        ety: Ty,
        ds: Box<[Dst]>,
        addr: Addr,
    },
    St {
        space: Space,
        ety: Ty,
        srcs: Box<[Src]>,
        addr: Addr,
    },
    Int {
        op: IOp,
        ty: Ty,
        d: Dst,
        s: [Src; 4],
    },
    /// `add.cc/addc/sub.cc/subc/mad.cc/madc`.
    Carry {
        kind: CarryKind,
        cin: bool,
        cout: bool,
        ty: Ty,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Float {
        op: FOp,
        ty: Ty,
        m: FMods,
        /// Mixed precision (`add.f32.f16 d, a, c`, `fma.f32.bf16 d, a, b,
        /// c`): the half type of the multiplicands, converted exactly first.
        half: Option<Ty>,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Half {
        op: HOp,
        ty: Ty,
        m: FMods,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Testp {
        kind: Box<str>,
        ty: Ty,
        d: Dst,
        a: Src,
    },
    Setp {
        cmp: Cmp,
        ty: Ty,
        ftz: bool,
        p: Dst,
        q: Dst,
        a: Src,
        b: Src,
        bop: Option<(BoolOp, Src)>,
    },
    Set {
        cmp: Cmp,
        dty: Ty,
        sty: Ty,
        ftz: bool,
        d: Dst,
        a: Src,
        b: Src,
        bop: Option<(BoolOp, Src)>,
    },
    Selp {
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Slct {
        float: bool,
        ftz: bool,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Cvt {
        spec: CvtSpec,
        d: Dst,
        a: Src,
        b: Src,
    },
    /// `cvt.rs`: stochastic rounding of two or four `f32` values with random
    /// bits (`ptx_sem::cvt::cvt_rs`).
    CvtRs {
        dty: Ty,
        relu: bool,
        satfinite: bool,
        d: Dst,
        vals: Box<[Src]>,
        rbits: Src,
    },
    CvtPack {
        dty: Ty,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
    },
    Cvta {
        to_generic: bool,
        space: Space,
        d: Dst,
        a: Src,
    },
    Isspacep {
        space: Space,
        d: Dst,
        a: Src,
    },
    Atom {
        space: Space,
        op: AtomOp,
        ty: Ty,
        /// `.noftz` (half types) vs the f32 behaviour of flushing.
        ftz: bool,
        d: Dst,
        addr: Addr,
        b: Src,
        c: Src,
    },
    Bra {
        target: u32,
        reconv: u32,
    },
    Brx {
        index: Src,
        targets: Box<[u32]>,
        reconv: u32,
    },
    Call(Box<CallSpec>),
    Ret,
    Exit,
    Trap(Box<str>),
    Bar {
        kind: BarKind,
        id: Src,
        count: Option<Src>,
        d: Dst,
        pred: Option<Src>,
        /// `.aligned` or `bar.sync` (all threads of a warp must execute it
        /// together).
        aligned: bool,
    },
    WarpSync {
        mask: Src,
    },
    Shfl {
        mode: ShflMode,
        d: Dst,
        p: Dst,
        a: Src,
        b: Src,
        c: Src,
        mask: Option<Src>,
    },
    Vote {
        mode: VoteMode,
        d: Dst,
        a: Src,
        mask: Option<Src>,
    },
    Match {
        all: bool,
        bits: u32,
        d: Dst,
        p: Dst,
        a: Src,
        mask: Src,
    },
    Redux {
        op: ReduxOp,
        ty: Ty,
        /// `.abs` and `.NaN` of the f32 forms.
        abs: bool,
        nan: bool,
        d: Dst,
        a: Src,
        mask: Src,
    },
    /// `lop3.BoolOp.b32 d|p, a, b, c, immLut, q`.
    Lop3Pred {
        bop: BoolOp,
        lut: u8,
        d: Dst,
        p: Dst,
        a: Src,
        b: Src,
        c: Src,
        q: Src,
    },
    /// `mbarrier.*` on the 64-bit barrier object at `addr`.
    Mbar {
        kind: MbarKind,
        space: Space,
        d: Dst,
        addr: Addr,
        /// The count, tx-count, state or parity operand.
        b: Src,
    },
    ActiveMask {
        d: Dst,
    },
    Elect {
        d: Dst,
        p: Dst,
        mask: Src,
    },
    Matrix(Box<Matrix>),
    Video(Box<Video>),
    VideoSimd(Box<VideoSimd>),
    Tex(Box<TexOp>),
    Surf(Box<SurfOp>),
    Query(Box<QueryOp>),
    Wmma(Box<WmmaOp>),
    Bulk(Box<BulkOp>),
    /// `cp.async`: copies at once (the wait instructions are no-ops).
    CpAsync {
        dst: Addr,
        src: Addr,
        size: u32,
        src_size: Option<Src>,
    },
    /// `alloca.u64 d, size{, align}`: local memory on the thread's stack.
    Alloca {
        d: Dst,
        size: Src,
        align: u32,
    },
    StackSave {
        d: Dst,
    },
    StackRestore {
        a: Src,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryKind {
    Add,
    Sub,
    MadLo,
    MadHi,
}

/// One executable instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DInst {
    /// `@%p` (slot, negated).
    pub guard: Option<(u32, bool)>,
    pub op: Op,
}

/// Where an instruction came from (for errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstInfo {
    /// Start offset relative to the function's syntax node.
    pub offset: u32,
    pub loc: Option<(u32, u32, u32)>,
    pub text: String,
}
