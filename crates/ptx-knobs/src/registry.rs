//! The knob table. Being filled from the seeds; see the crate doc.

use crate::{DefaultValue, KnobDef, KnobType, SeedRef};

const SEED_LOOPS: &str = "000_ed667d9feced6e07.txt";

pub static KNOBS: &[KnobDef] = &[KnobDef {
    name: "LoopUnroll",
    ty: KnobType::Bool,
    default: DefaultValue::Bool(true),
    min: None,
    max: None,
    tool: "ptxas",
    pass: "OriLoopUnrolling (22)",
    seed: SeedRef {
        file: SEED_LOOPS,
        section: "Heuristic Thresholds (Knobs)",
    },
    description: "Master enable of loop unrolling (OCG knob 437).",
}];
