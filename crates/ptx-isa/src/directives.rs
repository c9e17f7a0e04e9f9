//! The directive table: every directive of PTX ISA 9.0 (`.version`, `.reg`,
//! `.maxntid`, ...), where it may appear, its minimum PTX version, and a summary.
//!
//! Not listed: `.surf` and `.sampler` (ptxas 13.0.88 does not know them; surface and
//! sampler variables are declared with the `.surfref`/`.samplerref` types), the
//! `@@DWARF` debug syntax, `.target` options such as `texmode_independent`, and the
//! vector prefixes `.v2`/`.v4`/`.v8` of declarations.

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

use DirectivePlace::*;

const fn d(
    name: &'static str,
    place: DirectivePlace,
    min_ptx: PtxVersion,
    min_sm: u32,
    summary: &'static str,
) -> Directive {
    Directive {
        name,
        place,
        min_ptx,
        min_sm,
        summary,
    }
}

pub static DIRECTIVES: &[Directive] = &[
    // Module directives.
    d(".version", Module, v(1, 0), 0, "PTX ISA version of the module."),
    d(".target", Module, v(1, 0), 0, "Target architecture (and options such as texmode_independent, debug) of the module."),
    d(".address_size", Module, v(2, 3), 0, "Address size (32 or 64) assumed throughout the module."),
    // Functions.
    d(".entry", Module, v(1, 0), 0, "Kernel entry point: a function launchable from the host, with its parameter list."),
    d(".func", Module, v(1, 0), 0, "Device function definition or declaration, with optional return and parameter lists."),
    d(".alias", Module, v(6, 3), 30, "Make one function symbol an alias of another: .alias fAlias, fAliasee;"),
    d(".callprototype", Body, v(2, 1), 20, "Label a function prototype for indirect calls: label: .callprototype (ret) _ (params);"),
    d(".calltargets", Body, v(2, 1), 20, "Label a list of possible targets of an indirect call: label: .calltargets f1, f2, ...;"),
    d(".branchtargets", Body, v(2, 1), 0, "Label a list of branch targets for brx.idx: label: .branchtargets L1, L2, ...;"),
    // State spaces and variable declarations.
    d(".reg", Body, v(1, 0), 0, "Declare registers (also in .func parameter lists): .reg .type name{<n>};"),
    d(".param", Anywhere, v(1, 0), 0, "Parameter state space: kernel and function parameters, and call arguments declared in a body."),
    d(".local", Anywhere, v(1, 0), 0, "Declare variables in the thread-private local state space."),
    d(".shared", Anywhere, v(1, 0), 0, "Declare variables in the CTA-shared state space (.extern .shared for dynamic shared memory)."),
    d(".global", Anywhere, v(1, 0), 0, "Declare variables in the global state space."),
    d(".const", Anywhere, v(1, 0), 0, "Declare variables in the constant (read-only) state space."),
    d(".tex", Anywhere, v(1, 0), 0, "Deprecated texture state space (ptxas rejects it from PTX 1.5; use .global .texref)."),
    // Variable attributes and opaque types.
    d(".align", Attribute, v(1, 0), 0, "Byte alignment of a variable or parameter: .align n."),
    d(".ptr", Attribute, v(2, 2), 0, "Pointer attributes of a kernel parameter: .ptr{.space}{.align n}."),
    d(".attribute", Attribute, v(4, 0), 30, "Variable attributes: .attribute(.managed) or .attribute(.unified(uuid1, uuid2))."),
    d(".unified", Attribute, v(8, 0), 90, "Variable attribute .attribute(.unified(uuid1, uuid2)): one address for host and device."),
    d(".texref", Attribute, v(1, 5), 0, "Opaque texture reference type (declared with .global, or as a kernel parameter)."),
    d(".samplerref", Attribute, v(1, 5), 0, "Opaque sampler reference type (independent texture mode)."),
    d(".surfref", Attribute, v(1, 5), 0, "Opaque surface reference type."),
    // Linking.
    d(".extern", Module, v(1, 0), 0, "External symbol: declared here, defined elsewhere."),
    d(".visible", Module, v(1, 0), 0, "Externally visible symbol (a global, not module-private, definition)."),
    d(".weak", Module, v(3, 1), 0, "Externally visible weak symbol: a non-weak definition elsewhere overrides it."),
    d(".common", Module, v(5, 0), 0, "Externally visible common symbol: the linker picks the largest definition (.global only)."),
    // Performance tuning and function attributes.
    d(".maxnreg", FunctionHeader, v(1, 3), 0, "Maximum number of registers per thread of the kernel."),
    d(".maxntid", FunctionHeader, v(1, 3), 0, "Maximum number of threads in a CTA: .maxntid nx{, ny{, nz}}."),
    d(".reqntid", FunctionHeader, v(2, 1), 0, "Exact number of threads in a CTA: .reqntid nx{, ny{, nz}}."),
    d(".minnctapersm", FunctionHeader, v(2, 0), 0, "Minimum number of CTAs to be resident on one SM."),
    d(".maxnctapersm", FunctionHeader, v(1, 3), 0, "Deprecated: maximum number of CTAs per SM (ptxas rejects it from PTX 2.1; use .minnctapersm)."),
    d(".reqnctapercluster", FunctionHeader, v(7, 8), 90, "Exact number of CTAs in a cluster: .reqnctapercluster nx{, ny{, nz}}."),
    d(".explicitcluster", FunctionHeader, v(7, 8), 90, "The kernel must be launched with an explicit cluster size."),
    d(".maxclusterrank", FunctionHeader, v(7, 8), 90, "Maximum number of CTAs in a cluster."),
    d(".blocksareclusters", FunctionHeader, v(9, 0), 90, "Launch dimensions are in clusters: each block of the launch grid is a cluster (needs .reqntid and .reqnctapercluster)."),
    d(".noreturn", FunctionHeader, v(6, 4), 30, "The function never returns to its caller (.func only)."),
    d(".abi_preserve", FunctionHeader, v(9, 0), 0, "Number of general-purpose registers the function preserves for its callers under the ABI."),
    d(".abi_preserve_control", FunctionHeader, v(9, 0), 0, "Number of control registers the function preserves for its callers under the ABI."),
    d(".pragma", Anywhere, v(2, 0), 0, "Pass a directive string to ptxas (module, entry or statement scope), e.g. .pragma \"nounroll\";"),
    // Debugging.
    d(".file", Module, v(1, 0), 0, "Associate a file index with a source file name (for .loc)."),
    d(".loc", Body, v(1, 0), 0, "Source location (file index, line, column) of the following instructions."),
    d(".section", Module, v(2, 0), 0, "DWARF debug section contents: .section name { data }."),
];
