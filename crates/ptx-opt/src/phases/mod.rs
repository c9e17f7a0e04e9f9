//! One module per phase that does something (or reads a knob already).
//! Phases not listed here pass their input through (see
//! [`crate::run_phase`]).

pub mod back_copy_prop;
pub mod block_remat;
pub mod branch_opt;
pub mod cicc_inline;
pub mod cicc_isel_combine;
pub mod cicc_ldg;
pub mod cicc_loop_unroll;
pub mod cicc_machine_cp;
pub mod cicc_mem2reg;
pub mod cicc_param_opt;
pub mod cicc_peephole;
pub mod cicc_redundant_move;
pub mod cicc_trunc_opts;
pub(crate) mod commoning;
pub mod copy_prop;
pub mod general_optimize;
pub mod gvn_cse;
pub mod hoist_invariants;
pub(crate) mod known;
pub mod late_commoning;
pub mod live_dead;
pub(crate) mod loop_common;
pub mod loop_fusion;
pub mod loop_simplification;
pub mod loop_unrolling;
pub mod machine_cse;
pub mod machine_pipeliner;
pub mod machine_scheduler;
pub mod modulo;
pub mod pipelining;
pub mod predication;
pub mod reassociate;
pub(crate) mod reg_table;
pub mod strength_reduce;
pub mod texture_group_merge;
pub(crate) mod version_cache;
pub mod webs;
