//! `ptx-ir`: the intermediate representation of ptxopt.
//!
//! PTX text is parsed by `ptx-syntax` into a lossless tree; this crate lowers that
//! tree into an IR that the analyses and optimizations work on, and prints IR back
//! as PTX that ptxas accepts:
//!
//! - [`ir`]: the data types. A [`Module`](ir::Module) is a header, module-level
//!   items kept in order and [`Function`](ir::Function)s; a function is basic
//!   blocks of instructions in arenas with typed ids ([`BlockId`](ir::BlockId),
//!   [`InstId`](ir::InstId), [`RegId`](ir::RegId)), virtual registers with a
//!   register class, and the declarations that are not registers.
//! - [`lower`]: syntax tree to IR, per module ([`lower_module`]) or per function
//!   ([`lower_function`], so that a query layer can lower one function at a time).
//!   Lowering never panics; what it cannot make sense of is skipped and reported.
//! - [`emit`]: IR to PTX text ([`emit_module`]).
//! - [`verify`](mod@verify): the IR verifier ([`verify()`]), which passes run after
//!   every phase.
//!
//! Every IR type derives `Clone, Debug, PartialEq, Eq, Hash` (floating-point
//! immediates are stored as bits) so that a salsa layer above can memoize and
//! backdate it. This crate knows nothing of salsa or LSP.

pub mod emit;
pub mod ir;
pub mod lower;
pub mod verify;

pub use emit::{emit_function, emit_module};
pub use lower::{lower_function, lower_module, lower_module_items, LowerError, ModuleContext};
pub use verify::{verify, Check, VerifyError};
