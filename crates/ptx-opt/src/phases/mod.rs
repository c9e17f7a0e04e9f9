//! One module per phase that does something (or reads a knob already).
//! Phases not listed here pass their input through (see
//! [`crate::run_phase`]).

pub mod block_remat;
pub mod branch_opt;
pub mod cicc_loop_unroll;
pub mod copy_prop;
pub mod general_optimize;
pub mod hoist_invariants;
pub(crate) mod known;
pub mod live_dead;
pub(crate) mod loop_common;
pub mod loop_fusion;
pub mod loop_simplification;
pub mod loop_unrolling;
pub mod pipelining;
pub mod strength_reduce;
