//! The salsa inputs: what the outside world sets, everything else is derived.
//!
//! - [`SourceFile`]: one per path, the file's text. LOW durability (edited all
//!   the time). Setters always record a change, so
//!   [`RootDatabase::set_file_text`](crate::RootDatabase::set_file_text) compares
//!   the new text first.
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

/// A PTX source file.
#[salsa::input(debug)]
pub struct SourceFile {
    /// The path it was read from (also its identity in the database).
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: String,
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
}

/// Whether one phase runs. A phase that is switched off passes its input
/// through unchanged.
#[salsa::input(debug)]
pub struct PhaseSwitch {
    #[returns(copy)]
    pub enabled: bool,
}
