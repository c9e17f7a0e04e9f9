//! Errors of a launch: what went wrong, and where (function, PTX line, `.loc`,
//! instruction, thread).
//!
//! The emulator never panics on bad input and never lets a kernel touch memory
//! it does not own: every out-of-bounds or misaligned access, use of an
//! undefined value (an address, stored value or branch condition computed
//! from a register never written), divergent barrier, exceeded step limit,
//! `trap`, and every instruction the emulator does not implement ends the
//! launch with an [`EmuError`].

use std::fmt;

/// A thread: its CTA and its index in the CTA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadId {
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [cx, cy, cz] = self.ctaid;
        let [tx, ty, tz] = self.tid;
        write!(f, "ctaid ({cx},{cy},{cz}) tid ({tx},{ty},{tz})")
    }
}

/// Where an error happened.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// The function executing.
    pub function: String,
    /// 1-based line in the PTX text, when the emulator was given the text
    /// ([`Emulator::with_source`](crate::Emulator::with_source)).
    pub line: Option<u32>,
    /// The `.loc file line col` in effect (the CUDA source position).
    pub loc: Option<(u32, u32, u32)>,
    /// The instruction, as written (`ld.global.u32`).
    pub inst: String,
    /// The first offending thread.
    pub thread: Option<ThreadId>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.function)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.inst.is_empty() {
            write!(f, " `{}`", self.inst)?;
        }
        if let Some((file, line, col)) = self.loc {
            write!(f, " (.loc {file} {line} {col})")?;
        }
        if let Some(t) = self.thread {
            write!(f, " in {t}")?;
        }
        Ok(())
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No `.entry` of that name.
    UnknownKernel(String),
    /// The arguments do not match the kernel's parameters.
    BadArguments(String),
    /// Launch dimensions out of range (zero, or more than 1024 threads per CTA).
    BadLaunch(String),
    /// Access outside every allocation of the state space.
    OutOfBounds { space: String, addr: u64, size: u32 },
    /// Access whose address is not a multiple of its size.
    Misaligned { space: String, addr: u64, size: u32 },
    /// An address, stored value, branch condition or warp-wide operand that
    /// is undefined: read from a register this thread never wrote, or
    /// computed from one (definedness propagates through arithmetic, as in
    /// memcheck; only these uses are errors).
    UndefinedRegister(String),
    /// `bar.sync` reached by part of a warp, or warps of a CTA waiting on
    /// barriers that can never complete.
    BarrierDivergence(String),
    /// A warp-synchronous instruction (`shfl.sync`, `vote.sync`, ...) whose
    /// member mask names lanes that are waiting elsewhere.
    WarpDivergence(String),
    /// The launch executed more thread-instructions than allowed.
    StepLimit(u64),
    /// `trap` or `brkpt`.
    Trap,
    /// A call to a function without a body, a bad indirect call target.
    BadCall(String),
    /// The call stack grew past the limit.
    StackOverflow,
    /// An instruction or form the emulator does not implement.
    Unsupported(String),
    /// Something the IR does not let the emulator execute (a malformed operand).
    Malformed(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnknownKernel(k) => write!(f, "no kernel `{k}` in the module"),
            ErrorKind::BadArguments(m) => write!(f, "bad kernel arguments: {m}"),
            ErrorKind::BadLaunch(m) => write!(f, "bad launch configuration: {m}"),
            ErrorKind::OutOfBounds { space, addr, size } => {
                write!(f, "out-of-bounds {size}-byte access to {space} address {addr:#x}")
            }
            ErrorKind::Misaligned { space, addr, size } => {
                write!(f, "misaligned {size}-byte access to {space} address {addr:#x}")
            }
            ErrorKind::UndefinedRegister(r) => write!(
                f,
                "use of an undefined value: `{r}` was never written, or was computed from a register never written"
            ),
            ErrorKind::BarrierDivergence(m) => write!(f, "barrier divergence: {m}"),
            ErrorKind::WarpDivergence(m) => write!(f, "warp divergence: {m}"),
            ErrorKind::StepLimit(n) => write!(f, "step limit of {n} thread-instructions exceeded"),
            ErrorKind::Trap => write!(f, "trap"),
            ErrorKind::BadCall(m) => write!(f, "bad call: {m}"),
            ErrorKind::StackOverflow => write!(f, "call stack overflow"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Malformed(m) => write!(f, "malformed instruction: {m}"),
        }
    }
}

/// An error of a launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmuError {
    pub kind: ErrorKind,
    pub location: Option<Box<Location>>,
}

impl EmuError {
    pub fn new(kind: ErrorKind) -> EmuError {
        EmuError {
            kind,
            location: None,
        }
    }
}

impl From<ErrorKind> for EmuError {
    fn from(kind: ErrorKind) -> EmuError {
        EmuError::new(kind)
    }
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for EmuError {}
