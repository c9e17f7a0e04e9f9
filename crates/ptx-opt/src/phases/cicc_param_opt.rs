//! cicc `param-opt` (ParamOpt, "Optimize NVPTX ld.param"): a parameter
//! loaded again where an earlier load of it dominates reads the earlier
//! load's register.
//!
//! Seed `002_164789385e2e817e.txt`, "ParamOpt (sub_2203290)": "When a
//! kernel parameter is loaded multiple times (common when the same argument
//! is used in different basic blocks), this pass eliminates redundant loads
//! by propagating the first load's result to subsequent uses." Knob
//! `remat-load-param` (rematerializing `ld.param` instead of keeping it
//! live) concerns register pressure inside cicc's allocator; PTX has
//! virtual registers, so it is not read.
//!
//! The walk is [`super::commoning`]'s with only `ld.param` eligible: a load
//! of one of the function's own parameters that no `st.param` writes is
//! read-only, so any dominating load of the same parameter and offset, whose
//! register still holds its value, serves. The later load becomes a `mov`
//! (removed by copy propagation and dead-code elimination). `ld.param` of a
//! call's return value (a `.param` declared in the body, written by the
//! call) is a plain load: it is commoned only within one extended basic
//! block with no `call` or `st.param` between.
//!
//! A load is not merged across a loop (a loop that contains neither load
//! lies on a path between them): cicc's own output reads `n` again after
//! the main loop of a runtime-unrolled loop (`ld.param` + `and n, 3` for
//! the remainder) instead of keeping it live through the loop, and ptxas
//! allocates one register fewer for it (`big_body` of
//! `test-data/cuda/bench/loops_ptxas.cu`: 23 -> 22). The rule is shared by
//! every commoning pass ([`super::commoning::Config::cheap_not_across_loops`]);
//! filetest `param-opt/after_loop`.

use std::sync::Arc;

use ptx_ir::ir::{Address, AddressBase, Function, Operand};
use ptx_isa::{FamilyId, Space};
use rustc_hash::FxHashSet;

use super::commoning::{self, Config, Scope};
use super::gvn_cse::{finish, PATH_CHECKS};
use crate::remark::PhaseOutput;
use crate::PhaseId;

/// Runs param-opt on one function.
pub fn run(id: PhaseId, input: &Arc<Function>) -> PhaseOutput {
    if !repeats_a_param_load(input) {
        return PhaseOutput::unchanged(input);
    }
    let cfg = Config {
        scope: Scope::Dominator,
        ebb_loads: true,
        plain_loads: true,
        mufu: false,
        through_moves: true,
        bloom: false,
        path_checks: PATH_CHECKS,
        param_loads_only: true,
        window: 0,
        cheap_not_across_loops: true,
    };
    let mut f = (**input).clone();
    let outcome = commoning::run(&mut f, &cfg, Some(super::version_cache::facts(input)), None);
    finish(id, input, f, outcome, None, false)
}

/// Whether two `ld.param` may read the same place (only `ld.param` is
/// eligible, and equal loads read equal addresses): some address is read
/// twice, or one is a register, whose value the walk would have to look
/// at. Without that, commoning finds nothing to merge and nothing to refuse.
fn repeats_a_param_load(f: &Function) -> bool {
    let mut seen: FxHashSet<(&str, i64)> = FxHashSet::default();
    for (_, inst) in f.insts_in_order() {
        let info = &inst.opcode.info;
        if !(matches!(info.family, FamilyId::Ld | FamilyId::LdGlobalNc)
            && info.space == Some(Space::Param))
        {
            continue;
        }
        let Some(Operand::Address(Address { base, offset })) = inst.operands.get(1) else {
            return true;
        };
        match base {
            AddressBase::Symbol(s) => {
                if !seen.insert((s.as_str(), *offset)) {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}
