//! The salsa inputs: what the outside world sets, everything else is derived.
//!
//! - [`SourceFile`]: one per path, its text held as a list of [`Chunk`]s. LOW
//!   durability (edited all the time). Setters always record a change, so
//!   [`RootDatabase::set_file_text`](crate::RootDatabase::set_file_text) compares
//!   the new text first.
//! - [`Chunk`]: the file cut into runs of top-level items, each with its own
//!   text, so that an edit re-parses and re-checks only the chunk it is in.
//!   The file's whole text is a query, [`file_text`](crate::file_text), built
//!   only when something reads it: an edit costs the chunks it touches, not a
//!   copy of the file.
//! - [`Knob`]: one input per knob of [`ptx_knobs::KNOBS`], held by the database
//!   in a name-indexed map. Salsa tracks reads per input, so a phase that reads
//!   only `LoopUnroll` is not re-run when `UnrollBudget` changes. MEDIUM
//!   durability (set from the command line or `ptxopt.toml`).
//! - [`Target`]: the SM version the optimizations are tuned for (`--arch`).
//!   HIGH durability.
//! - [`PhaseSwitch`]: whether one phase of the pipeline runs (`--named-phases`);
//!   one per phase, like the knobs, so turning one phase off re-runs only it.

use std::path::PathBuf;

use ptx_knobs::KnobValue;
use ptx_syntax::Parse;

/// A PTX source file.
#[salsa::input(debug)]
pub struct SourceFile {
    /// The path it was read from (also its identity in the database).
    #[returns(ref)]
    pub path: PathBuf,
    /// The file cut into [`Chunk`]s, in order (their texts laid end to end
    /// are the file's text). Set only when chunks are added or removed; an
    /// edit inside one item sets that chunk's text and leaves this list alone.
    #[returns(ref)]
    pub chunks: Vec<Chunk>,
}

/// A run of whole top-level items of a file, with the trivia after them (see
/// `ptx_syntax::split`), parsed and checked on its own so that an edit inside
/// one function re-parses and re-checks only its chunk. Maintained by
/// [`RootDatabase::set_file_text`](crate::RootDatabase::set_file_text), which
/// sets a chunk's text only when it changed. LOW durability.
#[salsa::input(debug)]
pub struct Chunk {
    /// The path of the file it belongs to (never changes; the file's input is
    /// [`Db::source_file`](crate::Db::source_file) of it). Not the input
    /// itself: a file is created with its chunks, without a setter, and a
    /// setter would wait for every clone of the database to be dropped.
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: String,
    /// The tree of `text` when the database derived it from the chunk's
    /// previous tree, for an edit inside one number, comment or whitespace
    /// token (`ptx_syntax::reparse`); `None`: [`chunk_parse`](crate::chunk_parse)
    /// parses `text`. Set together with `text`, always.
    #[returns(ref)]
    pub reparsed: Option<Parse>,
}

/// One knob. The name is fixed at creation; the value is what phases read.
#[salsa::input(debug)]
pub struct Knob {
    #[returns(copy)]
    pub name: &'static str,
    #[returns(ref)]
    pub value: KnobValue,
}

/// The target the phases optimize for: `sm_90a` is `sm: 90, suffix: "a"`.
/// `sm == 0` means "not set": each file's own `.target` is used (see
/// [`effective_target`](crate::effective_target)).
#[salsa::input(debug)]
pub struct Target {
    #[returns(copy)]
    pub sm: u32,
    /// `""`, `"a"` or `"f"`.
    #[returns(ref)]
    pub suffix: String,
    /// `--maxrregcount N`: the most registers per thread ptxas may use (0:
    /// not set, the target's limit). Its own field, so only the queries
    /// that read it (the register estimate, and passes that aim under it
    /// through `PassContext::max_regs`) re-run when it changes.
    #[returns(copy)]
    pub max_regs: u32,
}

/// Whether one phase runs. A phase that is switched off passes its input
/// through unchanged.
#[salsa::input(debug)]
pub struct PhaseSwitch {
    #[returns(copy)]
    pub enabled: bool,
}
