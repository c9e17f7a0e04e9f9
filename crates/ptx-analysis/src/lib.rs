//! `ptx-analysis`: analyses over [`ptx_ir`] functions.
//!
//! Every analysis is a pure function of a [`Function`](ptx_ir::ir::Function)
//! and of the results of the analyses it builds on (passed explicitly, so that a
//! query layer can memoize each one separately), returning plain data that
//! derives `Clone, Debug, PartialEq, Eq, Hash`:
//!
//! | module | computes | inputs |
//! |---|---|---|
//! | [`target`](mod@target) | target profiles (sm_75 .. sm_90), occupancy | — |
//! | [`cfg`](mod@cfg) | successors, predecessors, RPO, unreachable blocks | function |
//! | [`dominators`](mod@dominators) | dominator / post-dominator trees, frontiers | cfg |
//! | [`loops`](mod@loops) | natural loops, latches, preheaders, exits, depth, irreducibility | cfg, dominators |
//! | [`reaching_defs`](mod@reaching_defs) | reaching definitions, def-use / use-def chains | function, cfg |
//! | [`liveness`](mod@liveness) | live-in/out per block, live before/after each instruction | function, cfg |
//! | [`reg_pressure`](mod@reg_pressure) | live R/P registers in ptxas units, maxima and where | function, liveness |
//! | [`trip_count`](mod@trip_count) | induction variable and trip count of each loop | function, cfg, loops, reaching defs |
//! | [`latency`](mod@latency) | latency class, pipe, stall cycles per instruction; ResMII/RecMII | function, target (+ loops) |
//! | [`value_numbering`](mod@value_numbering) | hash-consed value numbers of instruction results | function, cfg |
//! | [`report`](mod@report) | a readable per-function report; register pressure vs ptxas | all of the above |
//!
//! This crate knows nothing of salsa or LSP.

pub mod bitset;
pub mod cfg;
mod def_use;
pub mod dominators;
pub mod grouped;
pub mod latency;
pub mod liveness;
pub mod loops;
pub mod mrpa;
pub mod reaching_defs;
pub mod reg_estimate;
pub mod reg_pressure;
pub mod report;
pub mod target;
pub mod trip_count;
pub mod value_numbering;

pub use bitset::BitSet;
pub use cfg::{block_graph, cfg, cfg_if_same_graph, Cfg};
pub use dominators::{dominance_frontiers, dominators, post_dominators, DomTree};
pub use latency::{latency, loop_mii, LatencyInfo, LoopMii};
pub use liveness::{liveness, Liveness};
pub use loops::{loops, Loop, LoopForest, LoopId};
pub use reaching_defs::{reaching_defs, ReachingDefs};
pub use reg_pressure::{reg_pressure, RegPressure};
pub use report::{function_report, module_report, pressure_report, PressureReport};
pub use target::{LatencyClass, Pipe, Target};
pub use trip_count::{trip_counts, TripCount, TripCounts};
pub use value_numbering::{value_numbering, ValueNumbering};

#[cfg(test)]
pub(crate) mod test_util {
    use ptx_ir::ir::{BlockId, Function, FunctionKind, Signature};

    /// A kernel with `body` and plenty of registers declared, lowered.
    pub fn func(body: &str) -> Function {
        module(&format!(
            ".entry k(.param .u64 p)\n{{\n.reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<64>;\n.reg .f64 %fd<8>;\n.reg .b128 %q<4>;\n{body}\n}}\n"
        ))
        .functions
        .pop()
        .expect("a function")
    }

    /// Lowers a module body (after a standard header), asserting no errors.
    pub fn module(text: &str) -> ptx_ir::ir::Module {
        let text = format!(".version 8.5\n.target sm_90\n.address_size 64\n{text}");
        let parse = ptx_syntax::parse(&text);
        assert!(parse.errors().is_empty(), "{:?}", parse.errors());
        let (m, errors) = ptx_ir::lower_module(&parse);
        assert!(errors.is_empty(), "{errors:?}");
        m
    }

    pub fn sig() -> Signature {
        Signature {
            kind: FunctionKind::Entry,
            linkage: Vec::new(),
            name: "empty".into(),
            ret_params: None,
            params: Vec::new(),
            perf: Vec::new(),
        }
    }

    /// `bb0 bb3 ...`
    pub fn names(blocks: &[BlockId]) -> String {
        blocks
            .iter()
            .map(|&b| crate::cfg::block_name(b))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
