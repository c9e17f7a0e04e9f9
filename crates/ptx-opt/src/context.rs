//! What a phase may read besides its input: knobs and the target.
//!
//! A phase reads a knob by its typed constant from
//! [`ptx_knobs::knobs`] (`ctx.bool(knobs::LoopUnroll)`): a misspelled knob
//! does not compile, the value has the knob's type, and the default lives
//! only in the registry. `ptx-db` implements [`PassContext`] with tracked
//! reads (one salsa input per knob, so a phase re-runs only when a knob it
//! read changed; the target is read only when a phase asks for it).

use std::collections::HashMap;

use ptx_analysis::target::Target;
use ptx_knobs::{BoolKnob, FloatKnob, IntKnob, KnobId, KnobValue, StrKnob};

/// Knobs and target, as a phase sees them.
pub trait PassContext {
    /// The value of a knob (the registry default unless set).
    fn knob(&self, id: KnobId) -> KnobValue;
    /// The target profile the phase optimizes for.
    fn target(&self) -> Target;
    /// `--maxrregcount N`: the register count the pressure passes aim under
    /// (`None`: not set; the target's limit applies). Read it only where it
    /// matters: in the database it is a tracked read of its own.
    fn max_regs(&self) -> Option<u32> {
        None
    }
    /// The lowered IR of function `name` of the same module, for the
    /// inliner (`None`: not defined in the module, or not available to this
    /// context). In the database it is a tracked read of that function
    /// alone, so an edit to a callee re-runs the inliner of its callers.
    fn callee(&self, _name: &str) -> Option<std::sync::Arc<ptx_ir::ir::Function>> {
        None
    }

    /// A boolean knob.
    fn bool(&self, knob: BoolKnob) -> bool {
        knob.get(&self.knob(knob.id()))
    }
    /// An integer knob.
    fn int(&self, knob: IntKnob) -> i64 {
        knob.get(&self.knob(knob.id()))
    }
    /// A floating-point knob.
    fn float(&self, knob: FloatKnob) -> f64 {
        knob.get(&self.knob(knob.id()))
    }
    /// A string knob.
    fn string(&self, knob: StrKnob) -> String {
        knob.get(&self.knob(knob.id()))
    }
}

/// A context with registry defaults, some knobs overridden, and a fixed
/// target: for tests and tools that run phases without a database.
#[derive(Clone, Debug)]
pub struct Defaults {
    pub sm: u32,
    pub knobs: HashMap<KnobId, KnobValue>,
}

impl Defaults {
    /// Registry defaults for `sm_<sm>`.
    pub fn new(sm: u32) -> Defaults {
        Defaults {
            sm,
            knobs: HashMap::new(),
        }
    }
}

impl PassContext for Defaults {
    fn knob(&self, id: KnobId) -> KnobValue {
        self.knobs
            .get(&id)
            .cloned()
            .unwrap_or_else(|| id.default_value())
    }
    fn target(&self) -> Target {
        Target::for_sm(self.sm)
    }
}

/// The MRPA tracker's settings from seed 003's knobs
/// (`incremental-update-mcse`, `verify-update-mcse`, `print-verify`), for a
/// pass that keeps register pressure up to date while it edits
/// ([`ptx_analysis::mrpa::Mrpa`]). Each is a tracked knob read.
pub fn mrpa_config(ctx: &dyn PassContext) -> ptx_analysis::mrpa::MrpaConfig {
    use ptx_knobs::knobs;
    ptx_analysis::mrpa::MrpaConfig {
        incremental: ctx.bool(knobs::incremental_update_mcse),
        verify: ctx.bool(knobs::verify_update_mcse),
        print: ctx.bool(knobs::print_verify),
    }
}

/// The missed remark (`mrpa-verify`) of phase `id` for an incremental MRPA
/// update that `verify-update-mcse` found different from a full
/// recomputation: the seed's message, with the places that differ under
/// `print-verify`.
pub(crate) fn mrpa_mismatch_remark(
    id: crate::PhaseId,
    origin: Option<ptx_ir::ir::InstId>,
    message: String,
) -> crate::Remark {
    crate::Remark {
        phase: id,
        kind: crate::RemarkKind::Missed,
        name: "mrpa-verify",
        origin,
        message,
    }
}

#[cfg(test)]
mod mrpa_tests {
    use super::*;

    #[test]
    fn mrpa_config_follows_the_seed_defaults_and_the_knobs() {
        let mut ctx = Defaults::new(80);
        assert_eq!(mrpa_config(&ctx), ptx_analysis::mrpa::MrpaConfig::default());
        ctx.knobs.insert(
            ptx_knobs::knobs::verify_update_mcse.id(),
            KnobValue::Bool(true),
        );
        assert!(mrpa_config(&ctx).verify);
        assert!(mrpa_config(&ctx).incremental);
    }
}
