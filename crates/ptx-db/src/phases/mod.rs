//! One salsa tracked query per phase per kernel, made from `ptx-opt`'s phase
//! table ([`ptx_opt::with_phase_table!`]); the table itself ([`PhaseId`],
//! [`PHASES`], [`find_phases`]) lives in `ptx-opt` and is re-exported here.
//!
//! Each query is thin: it takes the previous phase's output (see
//! [`crate::pipeline`]) and calls [`ptx_opt::run_phase`] with a
//! [`DbContext`], which reads knobs and target as tracked reads of their
//! inputs. It returns the whole [`PhaseOutput`] (function, remarks,
//! counters), so remarks are memoized and backdated with the code.

use ptx_knobs::{KnobId, KnobValue};
use ptx_opt::{PassContext, PhaseOutput};

pub use ptx_opt::{find_phases, phase_info, suggest_phases, PhaseId, PhaseInfo, Tool, PHASES};

use crate::inputs::SourceFile;
use crate::queries::Kernel;
use crate::Db;

/// [`PassContext`] over the database: a knob read is a tracked read of that
/// knob's input only; the target is read (through
/// [`crate::analysis::target_profile`]) only when a phase asks for it.
pub struct DbContext<'db> {
    pub db: &'db dyn Db,
    pub file: SourceFile,
}

impl PassContext for DbContext<'_> {
    fn knob(&self, id: KnobId) -> KnobValue {
        match self.db.knob(id.name()) {
            Some(k) => k.value(self.db).clone(),
            None => id.default_value(),
        }
    }
    fn target(&self) -> ptx_analysis::Target {
        crate::analysis::target_profile(self.db, self.file).clone()
    }
    fn max_regs(&self) -> Option<u32> {
        crate::analysis::max_regs(self.db)
    }
    fn callee(&self, name: &str) -> Option<std::sync::Arc<ptx_ir::ir::Function>> {
        let kernels = crate::queries::kernels(self.db, self.file);
        let kernel = kernels.iter().find(|k| k.name(self.db) == name)?;
        Some(crate::queries::kernel_ir(self.db, *kernel).clone())
    }
}

/// Defines one salsa tracked query per phase, and the dispatch from an id to
/// its query.
macro_rules! define_queries {
    ($( $variant:ident => $query:ident { $($entry:tt)* } ),* $(,)?) => {
        $(
            #[doc = concat!("Phase `", stringify!($variant), "` of one kernel: its output, remarks and counters.")]
            #[salsa::tracked(returns(ref))]
            pub(crate) fn $query<'db>(db: &'db dyn Db, kernel: Kernel<'db>) -> PhaseOutput {
                crate::pipeline::execute(db, kernel, PhaseId::$variant)
            }
        )*

        /// The memoized output of phase `id` for `kernel`.
        pub(crate) fn memoized<'db>(
            db: &'db dyn Db,
            kernel: Kernel<'db>,
            id: PhaseId,
        ) -> &'db PhaseOutput {
            match id {
                $(PhaseId::$variant => $query(db, kernel),)*
            }
        }
    };
}

ptx_opt::with_phase_table!(define_queries);
