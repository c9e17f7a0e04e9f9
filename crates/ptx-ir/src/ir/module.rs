//! The module: header, module-level items in source order, and functions.
//!
//! Items that no optimization transforms (`.section` debug data, `.file`) are kept
//! as verbatim text; variable declarations, function declarations, `.alias` and
//! `.pragma` are structured.

use ptx_isa::PtxVersion;

use super::function::{Function, Signature};

/// A lowered PTX module.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Module {
    pub header: Header,
    /// Module-level items in source order. Function definitions appear as
    /// [`ModuleItem::Function`] indices into [`Module::functions`], so the
    /// emitter keeps declare-before-use order.
    pub items: Vec<ModuleItem>,
    /// The function definitions (`.entry` and `.func` with a body).
    pub functions: Vec<Function>,
}

/// `.version`, `.target` and `.address_size`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Header {
    pub version: Option<PtxVersion>,
    pub target: Option<Target>,
    /// 32 or 64.
    pub address_size: Option<u32>,
}

/// `.target sm_90a, debug`: the architecture and the options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// `sm_90a`, `compute_80`.
    pub arch: String,
    /// `debug`, `texmode_independent`, `map_f64_to_f32`, ...
    pub options: Vec<String>,
}

impl Target {
    /// The number of the architecture: 90 for `sm_90a`, 0 if it has none.
    pub fn sm_number(&self) -> u32 {
        let digits: String = self.arch.chars().filter(|c| c.is_ascii_digit()).collect();
        digits.parse().unwrap_or(0)
    }
}

/// One module-level item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ModuleItem {
    /// A `.global`/`.const`/`.shared`/... variable declaration.
    Var(VarDecl),
    /// A function definition: index into [`Module::functions`].
    Function(usize),
    /// A function declaration without body (`.extern .func f(...);` or a forward
    /// declaration).
    Declaration(Signature),
    /// `.alias alias, aliasee;`
    Alias { alias: String, aliasee: String },
    /// `.pragma "...";` at module level: the text between `.pragma` and `;`.
    Pragma(String),
    /// `.file N "name"{, timestamp, size}`: the file index and the whole directive.
    File { index: u32, text: String },
    /// A `.section name { ... }` block, verbatim.
    Section(String),
    /// Anything else kept as written (an unknown directive, or a declaration whose
    /// words lowering does not model).
    Verbatim(String),
}

/// A variable declaration (module level, or a non-register declaration in a
/// function body). `.global .align 4 .u32 a[4] = {1, 2, 3, 4}, b;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// `.extern`, `.visible`, `.weak` or `.common`.
    pub linkage: Option<String>,
    /// `.global`, `.const`, `.shared`, `.local`, `.param`, `.tex`.
    pub space: String,
    pub align: Option<u64>,
    /// `.v2`/`.v4`/`.v8` width.
    pub vector: Option<u32>,
    /// The type with its dot: `.u32`, `.b8`, `.texref`.
    pub ty: String,
    pub vars: Vec<Variable>,
}

/// One declared variable of a [`VarDecl`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    pub name: String,
    /// Array dimensions: `Some(n)` for `[n]`, `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    /// The initializer after `=`, as written (whitespace normalized, comments
    /// dropped): `{1, 2, 3}`, `generic(tab)+4`.
    pub init: Option<String>,
}
