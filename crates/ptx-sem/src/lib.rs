//! `ptx-sem`: PTX instruction semantics in one place.
//!
//! Pure functions over bit patterns (`u64` register values, `u128` exact
//! significands) and the typed forms of `ptx_isa::opinfo` (`Ty`, `Rnd`,
//! `Cmp`): no emulator state, no IR. The emulator (`ptx-emu`) executes
//! every lane through them and the optimizer (`ptx-opt`) folds constants
//! with them, so a folded constant is, bit for bit, what the emulator would
//! have computed.
//!
//! - [`int`]: integer and bit operations ([`int::IOp`], [`int::eval`],
//!   `prmt`, `bfe`/`bfi`, `bmsk`, `fns`, `dp2a`/`dp4a`, saturation, ...).
//! - [`float`]: the soft-float core: formats ([`float::Fmt`]), exact values,
//!   one rounding routine for every mode, add/mul/fma/div/sqrt in any
//!   format and rounding, conversions between formats and to/from integers.
//! - [`fops`]: floating-point instruction semantics ([`fops::FOp`] for
//!   f32/f64, [`fops::HOp`] for f16/bf16 and their pairs, with `.ftz`,
//!   `.sat`, `.relu`, min/max rules) and comparisons ([`fops::compare`]).
//! - [`imm`]: an immediate as the bits of a type.
//! - [`cvt`]: `cvt` and `cvt.pack` ([`cvt::CvtSpec`]).
//! - [`select`]: which operation an instruction performs, from its typed
//!   opcode (`OpInfo`) and the modifiers it does not name; the decoder and
//!   the folder both use it.
//! - [`types`]: `mask`, `sext` and each type's float format.
//!
//! Exactly rounded operations are bit-exact; the `.approx` functions are
//! computed in f64 and rounded once (within the ISA's error bounds but not
//! the hardware's bits), so a constant folder must not fold them.

pub mod cvt;
pub mod float;
pub mod fops;
pub mod imm;
pub mod int;
pub mod select;
pub mod types;

pub use ptx_isa::{Cmp, Rnd, Ty};
