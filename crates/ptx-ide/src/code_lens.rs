//! Code lenses: on each function, the maximum live registers (R and P) as
//! written, the register estimate (what `ptxas -v` is
//! expected to report, `ptx_analysis::reg_estimate`) and the occupancy it
//! allows on the target (`ptx_analysis::Target::occupancy`, warps per SM,
//! and how many are lost to registers); on each loop header label, the loop's
//! trip count, and a second lens with what the loop phases decided
//! (`ptxas 22: unrolled x4: unknown trip count, UnrollUnknownCount=4`).

use std::path::Path;

use ptx_db::RootDatabase;
use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::TextRange;

use crate::analysis::{file_kernels, kernel_analysis};

/// A lens: a line of text above `range`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLens {
    pub range: TextRange,
    pub title: String,
}

pub(crate) fn code_lenses(db: &RootDatabase, path: &Path) -> Vec<CodeLens> {
    let mut out = Vec::new();
    for k in file_kernels(db, path) {
        let ka = kernel_analysis(db, k.kernel);
        let name_range = k
            .syntax
            .name()
            .and_then(|n| n.ident())
            .map_or_else(|| k.range(), |t| t.text_range());
        let max = ka.pressure.max;
        let t = &ka.target;
        let est = crate::analysis::kernel_estimate(db, k.kernel);
        out.push(CodeLens {
            range: name_range,
            title: format!(
                "max live R {} P {}; {}; occupancy {}/{} warps on {}",
                max.r.value,
                max.p.value,
                est.summary(),
                est.warps_per_sm,
                est.max_warps_per_sm,
                t.name
            ),
        });
        for label in k
            .syntax
            .syntax()
            .descendants()
            .filter_map(ast::LabelDef::cast)
        {
            let Some(name) = label.name() else { continue };
            let Some(block) = ka.block_with_label(&name.text()) else {
                continue;
            };
            let Some(facts) = ka.loop_facts(block) else {
                continue;
            };
            let title = match facts.trip_count {
                Some(n) => format!("loop depth {}: trip count {n}", facts.depth),
                None => format!("loop depth {}: trip count unknown", facts.depth),
            };
            let range = name
                .ident()
                .map_or_else(|| label.syntax().text_range(), |t| t.text_range());
            out.push(CodeLens { range, title });
            let reports = crate::loop_decisions::reports_for(db, k.kernel, &ka, block);
            if let Some(title) = crate::loop_decisions::lens_title(&reports) {
                out.push(CodeLens { range, title });
            }
        }
    }
    out
}
