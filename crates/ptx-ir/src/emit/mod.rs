//! The emitter: IR back to PTX text that ptxas accepts.
//!
//! The output follows nvcc's layout (tabs, one statement per line) but is not
//! byte-identical to the input: comments are dropped, whitespace is normalized,
//! every body declaration is at the top of the function (scopes were flattened),
//! `.loc` directives are printed right before the first instruction they apply
//! to whenever they change (a `.loc` that no instruction follows is dropped), and blocks that something branches to but that have no label get
//! one (`$L__ir_bb<N>`). Emitting, parsing, lowering and emitting again gives the
//! same text.

mod function;
mod module;
mod operand;

pub use function::emit_function;
pub use module::{emit_module, emit_signature, emit_var_decl};
