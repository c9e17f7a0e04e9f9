//! The operand-form DSL of the instruction table.
//!
//! A form is a comma-separated list of operand specs; `...` after the last spec
//! means "the last operand may repeat any number of times". Each spec is
//! `kind[:type][?]`:
//!
//! | kind | accepts |
//! |------|---------|
//! | `r`  | a register (not a predicate); special registers such as `%tid.x` count |
//! | `p`  | a predicate register |
//! | `np` | a predicate register, optionally negated (`!%p`) |
//! | `pp` | a predicate register or a pair `%p|%q` (setp, set) |
//! | `i`  | a constant expression (immediate) |
//! | `ri` | a register or a constant expression |
//! | `rs` | a register, a constant expression, or a symbol name (mov, cvta) |
//! | `m`  | a memory address `[ ... ]` |
//! | `l`  | a label (or a `.branchtargets` list name) |
//! | `s`  | a symbol name (variable, function, texture, ...) |
//! | `v`  | a vector `{a, b, ...}` or a register |
//! | `vi` | a vector, a register or a constant expression |
//! | `_r` | a register or the sink `_` |
//! | `t`  | a call target: a function name or a register |
//! | `a`  | a call argument list `( ... )` |
//! | `x`  | anything |
//!
//! `type` says what register type the operand is checked against, under the
//! family's [`TypeCheck`](crate::TypeCheck) rule:
//! `T` the instruction type (last type modifier), `T0`/`T1` the first/second type
//! modifier (cvt: `cvt.f32.s32 d:T0, a:T1`), `W` twice the width of `T`
//! (mul.wide), `H` half the width of `T`, or a literal type name without the dot
//! (`u32`, `b64`, `pred`). Without a type the operand's register type is not checked.
//!
//! `?` marks an optional operand; optional operands may only come after all the
//! required ones of a form.

use std::fmt;

/// What an operand position accepts syntactically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    Reg,
    Pred,
    PredNeg,
    PredPair,
    Imm,
    RegOrImm,
    RegImmOrSymbol,
    Address,
    Label,
    Symbol,
    Vector,
    VectorOrImm,
    RegOrSink,
    CallTarget,
    CallArgs,
    Any,
}

/// What register type an operand is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandType {
    Unchecked,
    /// The instruction type: the last type modifier written.
    Inst,
    /// The n-th type modifier written (0-based).
    Nth(u8),
    /// Twice the width of the instruction type (`mul.wide.s32` writes a `.s64`).
    Wide,
    /// Half the width of the instruction type.
    Half,
    /// A fixed type, written with its dot (`".u32"`).
    Fixed(&'static str),
}

/// One operand position of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandSpec {
    pub kind: OperandKind,
    pub ty: OperandType,
    pub optional: bool,
}

/// A parsed operand form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    pub operands: Vec<OperandSpec>,
    /// The last operand may repeat.
    pub variadic: bool,
}

/// A form string that does not follow the DSL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormError(pub String);

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormError {}

impl Form {
    /// Parses a form string such as `"r:T, ri:T, ri:T"` or `"t, a?, ..."`.
    pub fn parse(text: &str) -> Result<Form, FormError> {
        let mut operands = Vec::new();
        let mut variadic = false;
        let text = text.trim();
        if text.is_empty() {
            return Ok(Form { operands, variadic });
        }
        for (i, part) in text.split(',').map(str::trim).enumerate() {
            if variadic {
                return Err(FormError(format!("`...` must be last in form `{text}`")));
            }
            if part == "..." {
                if i == 0 {
                    return Err(FormError(format!(
                        "`...` needs an operand before it in `{text}`"
                    )));
                }
                variadic = true;
                continue;
            }
            let spec =
                OperandSpec::parse(part).map_err(|e| FormError(format!("{e} in form `{text}`")))?;
            if !spec.optional && operands.iter().any(|o: &OperandSpec| o.optional) {
                return Err(FormError(format!(
                    "required operand after an optional one in form `{text}`"
                )));
            }
            operands.push(spec);
        }
        Ok(Form { operands, variadic })
    }

    /// Smallest number of operands this form accepts.
    pub fn min_operands(&self) -> usize {
        self.operands.iter().filter(|o| !o.optional).count()
    }

    /// Largest number of operands this form accepts (None: unbounded).
    pub fn max_operands(&self) -> Option<usize> {
        if self.variadic {
            None
        } else {
            Some(self.operands.len())
        }
    }

    /// The spec for the operand at `index`, following `...` repetition.
    pub fn spec_at(&self, index: usize) -> Option<&OperandSpec> {
        match self.operands.get(index) {
            Some(s) => Some(s),
            None if self.variadic => self.operands.last(),
            None => None,
        }
    }
}

impl OperandSpec {
    /// Parses one spec, `kind[:type][?]`.
    pub fn parse(text: &str) -> Result<OperandSpec, FormError> {
        let (text, optional) = match text.strip_suffix('?') {
            Some(t) => (t, true),
            None => (text, false),
        };
        let (kind_text, ty_text) = match text.split_once(':') {
            Some((k, t)) => (k, Some(t)),
            None => (text, None),
        };
        let kind = match kind_text {
            "r" => OperandKind::Reg,
            "p" => OperandKind::Pred,
            "np" => OperandKind::PredNeg,
            "pp" => OperandKind::PredPair,
            "i" => OperandKind::Imm,
            "ri" => OperandKind::RegOrImm,
            "rs" => OperandKind::RegImmOrSymbol,
            "m" => OperandKind::Address,
            "l" => OperandKind::Label,
            "s" => OperandKind::Symbol,
            "v" => OperandKind::Vector,
            "vi" => OperandKind::VectorOrImm,
            "_r" => OperandKind::RegOrSink,
            "t" => OperandKind::CallTarget,
            "a" => OperandKind::CallArgs,
            "x" => OperandKind::Any,
            other => return Err(FormError(format!("unknown operand kind `{other}`"))),
        };
        let ty = match ty_text {
            None => OperandType::Unchecked,
            Some("T") => OperandType::Inst,
            Some("W") => OperandType::Wide,
            Some("H") => OperandType::Half,
            Some(t) if t.starts_with('T') => match t[1..].parse::<u8>() {
                Ok(n) => OperandType::Nth(n),
                Err(_) => return Err(FormError(format!("bad operand type `{t}`"))),
            },
            Some(t) => match FIXED_TYPES.iter().find(|f| &f[1..] == t) {
                Some(f) => OperandType::Fixed(f),
                None => return Err(FormError(format!("unknown operand type `{t}`"))),
            },
        };
        Ok(OperandSpec { kind, ty, optional })
    }
}

const FIXED_TYPES: &[&str] = &[
    ".pred", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
    ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs() {
        let f = Form::parse("r:T, ri:T, ri:T?").unwrap();
        assert_eq!(f.min_operands(), 2);
        assert_eq!(f.max_operands(), Some(3));
        assert_eq!(f.operands[0].ty, OperandType::Inst);
        let f = Form::parse("t, a, ...").unwrap();
        assert!(f.variadic);
        assert_eq!(f.spec_at(7).unwrap().kind, OperandKind::CallArgs);
        assert_eq!(
            Form::parse("r:u32").unwrap().operands[0].ty,
            OperandType::Fixed(".u32")
        );
        assert_eq!(
            Form::parse("r:T1").unwrap().operands[0].ty,
            OperandType::Nth(1)
        );
        assert!(Form::parse("q").is_err());
        assert!(Form::parse("r?, r").is_err());
    }

    #[test]
    fn every_table_form_parses() {
        for family in crate::FAMILIES {
            for form in family.forms {
                if let Err(e) = Form::parse(form) {
                    panic!("family `{}`: {e}", family.name);
                }
            }
        }
    }
}
