//! Lowering: syntax tree to IR.
//!
//! [`lower_module`] lowers a whole parse; [`lower_function`] lowers one function
//! given the [`ModuleContext`] it needs from module level (version, target,
//! address size, and the module's variable and function names), so that a query
//! layer can lower functions one at a time and reuse unchanged ones.
//!
//! Lowering never panics. The parser is error-tolerant, so the tree may be
//! incomplete; whatever lowering cannot make sense of (an undeclared name, an
//! operand expression with registers in it, a declaration with words it does not
//! model) is skipped or kept in a fallback form ([`Operand::Expr`](crate::ir::Operand::Expr),
//! [`ModuleItem::Verbatim`](crate::ir::ModuleItem::Verbatim)) and reported as a
//! [`LowerError`].
//!
//! The walk goes over the green tree through [`ptx_syntax::green`] views (a
//! node and its absolute start), not through `SyntaxNode`s or the typed `ast`:
//! rowan's cursor API allocates and frees a node for every node visited, which
//! was most of the cost of lowering. Only the public entry points take the
//! typed `ast`/`Parse`.

mod constexpr;
mod context;
mod decl;
mod function;
mod module;
mod operand;
mod scope;
mod text;

pub use context::{ModuleContext, SymbolKind};
pub use function::lower_function;
pub use module::{lower_module, lower_module_items};

use ptx_syntax::TextRange;

/// Something lowering could not make sense of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LowerError {
    /// Where: absolute in the file for [`lower_module`], relative to the start of
    /// the function's syntax node for [`lower_function`] (like
    /// [`Inst::range`](crate::ir::Inst::range)).
    pub range: TextRange,
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.range, self.message)
    }
}
