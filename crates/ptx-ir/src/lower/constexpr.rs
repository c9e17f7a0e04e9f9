//! Evaluation of integer constant expressions (`4*2`, `(1 << 4) | 3`, `-16`,
//! `-9223372036854775808`).
//!
//! PTX evaluates constant expressions in 64-bit arithmetic: a literal is
//! `.s64` unless it has the `U` suffix or does not fit in `.s64` (then it
//! is `.u64`), and an operation is unsigned when an operand is. This
//! evaluator keeps each value as its 64 bits with that signedness: `+ - *
//! & | ^ <<` and prefix `- ~` wrap alike; `/`, `%` and `>>` are signed or
//! unsigned by it; `!` gives a signed 0 or 1. Anything else (floats,
//! comparisons, `?:`, names, division by zero) gives `None`, and the caller
//! keeps the expression as written. The result is the value's bits as an
//! `i64` (`-9223372036854775808` and `0x8000000000000000` alike), which is
//! what every instruction reading it as an operand of its size sees.

use ptx_syntax::ast::{self, LiteralValue};
use ptx_syntax::green::Node;
use ptx_syntax::SyntaxKind;

/// The bits of the constant expression `node`, if it is an integer one.
pub(crate) fn eval_int(node: Node<'_>) -> Option<i64> {
    eval(node).map(|v| v.bits)
}

/// A 64-bit value and whether PTX reads it as unsigned.
#[derive(Clone, Copy)]
struct Value {
    bits: i64,
    unsigned: bool,
}

fn eval(node: Node<'_>) -> Option<Value> {
    match node.kind() {
        SyntaxKind::LITERAL => literal_int(node),
        // In operand position the parser reads `(e)` as a one-element list.
        SyntaxKind::PAREN_EXPR | SyntaxKind::ARG_LIST => {
            let mut inner = node.children();
            let first = inner.next()?;
            inner.next().is_none().then(|| eval(first))?
        }
        SyntaxKind::PREFIX_EXPR => eval_prefix(node),
        SyntaxKind::BIN_EXPR => eval_binary(node),
        _ => None,
    }
}

fn literal_int(node: Node<'_>) -> Option<Value> {
    let text = node.significant_tokens().next()?.text();
    match ast::parse_literal(text)? {
        LiteralValue::Int { value, unsigned } => {
            let signed = i64::try_from(value).ok().filter(|_| !unsigned);
            match signed {
                Some(bits) => Some(Value {
                    bits,
                    unsigned: false,
                }),
                None => Some(Value {
                    bits: value as i64,
                    unsigned: true,
                }),
            }
        }
        _ => None,
    }
}

fn eval_prefix(node: Node<'_>) -> Option<Value> {
    let op = node.significant_tokens().next()?.kind();
    let v = eval(node.children().next()?)?;
    let bits = match op {
        SyntaxKind::MINUS => v.bits.wrapping_neg(),
        SyntaxKind::PLUS => v.bits,
        SyntaxKind::TILDE => !v.bits,
        SyntaxKind::BANG => {
            return Some(Value {
                bits: (v.bits == 0) as i64,
                unsigned: false,
            })
        }
        _ => return None,
    };
    Some(Value { bits, ..v })
}

fn eval_binary(node: Node<'_>) -> Option<Value> {
    let mut children = node.children();
    let lhs = eval(children.next()?)?;
    let rhs = eval(children.next()?)?;
    let op = node.significant_tokens().next()?.kind();
    let unsigned = lhs.unsigned || rhs.unsigned;
    let bits = apply(op, lhs.bits, rhs.bits, unsigned)?;
    Some(Value { bits, unsigned })
}

fn apply(op: SyntaxKind, lhs: i64, rhs: i64, unsigned: bool) -> Option<i64> {
    let (ul, ur) = (lhs as u64, rhs as u64);
    // A shift count is read as a number (a negative or huge one is left
    // as written).
    let count = || u32::try_from(rhs).ok().filter(|s| *s < 64);
    Some(match op {
        SyntaxKind::PLUS => lhs.wrapping_add(rhs),
        SyntaxKind::MINUS => lhs.wrapping_sub(rhs),
        SyntaxKind::STAR => lhs.wrapping_mul(rhs),
        SyntaxKind::SLASH if unsigned => ul.checked_div(ur)? as i64,
        SyntaxKind::SLASH => lhs.checked_div(rhs)?,
        SyntaxKind::PERCENT if unsigned => ul.checked_rem(ur)? as i64,
        SyntaxKind::PERCENT => lhs.checked_rem(rhs)?,
        SyntaxKind::SHL => lhs.wrapping_shl(count()?),
        SyntaxKind::SHR if unsigned => (ul >> count()?) as i64,
        SyntaxKind::SHR => lhs.wrapping_shr(count()?),
        SyntaxKind::AMP => lhs & rhs,
        SyntaxKind::PIPE => lhs | rhs,
        SyntaxKind::CARET => lhs ^ rhs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(expr: &str) -> Option<i64> {
        use ast::AstNode;
        let text = format!(".version 8.0\n.target sm_90\n.entry k() {{ mov.u32 %r, {expr}; }}");
        let root = ptx_syntax::parse(&text).syntax_node();
        let inst = root.descendants().find_map(ast::Instruction::cast)?;
        let op = inst.operands().nth(1)?;
        let green = op.syntax().green();
        eval_int(Node::new(&green, op.syntax().text_range().start()))
    }

    #[test]
    fn evaluates_integer_expressions() {
        assert_eq!(eval("4*2"), Some(8));
        assert_eq!(eval("(16 * 4 + 2) >> 1"), Some(33));
        assert_eq!(eval("-(5 % 3)"), Some(-2));
        assert_eq!(eval("~(32 - 1)"), Some(-32));
        assert_eq!(eval("0x10 | 017"), Some(0x1f));
        assert_eq!(eval("1 / 0"), None);
        assert_eq!(eval("1.5"), None);
        // Unsigned: the `U` suffix, or a literal past `.s64`.
        assert_eq!(eval("7U"), Some(7));
        assert_eq!(eval("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF >> 60"), Some(15));
        assert_eq!(eval("-1 >> 60"), Some(-1));
        assert_eq!(eval("-7 / 2"), Some(-3));
        assert_eq!(eval("-7U / 2"), Some(((-7i64) as u64 / 2) as i64));
        assert_eq!(eval("18446744073709551615 % 10"), Some(5));
        assert_eq!(eval("18446744073709551616"), None);
        assert_eq!(eval("((1))"), Some(1));
        assert_eq!(eval("%r + 1"), None);
    }
}
