//! PTX scalar types as the executor sees them, and state spaces.
//!
//! The PTX fundamental types and state spaces are the typed forms every
//! crate shares (`ptx_isa::opinfo`); the decoder reads them from
//! `Opcode::info`. The bit helpers live in `ptx-sem` with the semantics.

pub use ptx_sem::types::{mask, sext, Space, Ty, TyFmt};
