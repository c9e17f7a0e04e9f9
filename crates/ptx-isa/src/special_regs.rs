//! Predefined (special) registers: `%tid`, `%laneid`, `%clock64`, ...

use crate::{v, PtxVersion};

/// One special register (or family, such as `%envreg<32>`).
#[derive(Clone, Copy, Debug)]
pub struct SpecialReg {
    /// Written with its `%`: `"%tid"`.
    pub name: &'static str,
    /// Type of the register (or of each component for vector ones), with its dot.
    pub ty: &'static str,
    /// Whether it has `.x .y .z` components (`%tid.x`).
    pub vector: bool,
    pub min_ptx: PtxVersion,
    pub min_sm: u32,
    pub summary: &'static str,
}

pub static SPECIAL_REGS: &[SpecialReg] = &[SpecialReg {
    name: "%tid",
    ty: ".u32",
    vector: true,
    min_ptx: v(1, 0),
    min_sm: 0,
    summary: "Thread identifier within the CTA.",
}];
