//! Evaluation of integer constant expressions (`4*2`, `(1 << 4) | 3`, `-16`).
//!
//! PTX evaluates constant expressions in 64-bit arithmetic, signed unless an
//! operand is unsigned. This evaluator covers the signed case only: every literal
//! must be an integer without `U` suffix that fits in `i64`; `+ - * / % << >> & |
//! ^` and prefix `- ~ !` are supported, with wrapping arithmetic. Anything else
//! (floats, unsigned literals, comparisons, `?:`, names, division by zero) gives
//! `None`, and the caller keeps the expression as written.

use ptx_syntax::ast::{self, LiteralValue};
use ptx_syntax::green::Node;
use ptx_syntax::SyntaxKind;

/// The value of the constant expression `node`, if it is a signed integer one.
pub(crate) fn eval_int(node: Node<'_>) -> Option<i64> {
    match node.kind() {
        SyntaxKind::LITERAL => literal_int(node),
        // In operand position the parser reads `(e)` as a one-element list.
        SyntaxKind::PAREN_EXPR | SyntaxKind::ARG_LIST => {
            let mut inner = node.children();
            let first = inner.next()?;
            inner.next().is_none().then(|| eval_int(first))?
        }
        SyntaxKind::PREFIX_EXPR => eval_prefix(node),
        SyntaxKind::BIN_EXPR => eval_binary(node),
        _ => None,
    }
}

fn literal_int(node: Node<'_>) -> Option<i64> {
    let text = node.significant_tokens().next()?.text();
    match ast::parse_literal(text)? {
        LiteralValue::Int {
            value,
            unsigned: false,
        } => i64::try_from(value).ok(),
        _ => None,
    }
}

fn eval_prefix(node: Node<'_>) -> Option<i64> {
    let op = node.significant_tokens().next()?.kind();
    let value = eval_int(node.children().next()?)?;
    match op {
        SyntaxKind::MINUS => Some(value.wrapping_neg()),
        SyntaxKind::PLUS => Some(value),
        SyntaxKind::TILDE => Some(!value),
        SyntaxKind::BANG => Some((value == 0) as i64),
        _ => None,
    }
}

fn eval_binary(node: Node<'_>) -> Option<i64> {
    let mut children = node.children();
    let lhs = eval_int(children.next()?)?;
    let rhs = eval_int(children.next()?)?;
    let op = node.significant_tokens().next()?.kind();
    apply(op, lhs, rhs)
}

fn apply(op: SyntaxKind, lhs: i64, rhs: i64) -> Option<i64> {
    Some(match op {
        SyntaxKind::PLUS => lhs.wrapping_add(rhs),
        SyntaxKind::MINUS => lhs.wrapping_sub(rhs),
        SyntaxKind::STAR => lhs.wrapping_mul(rhs),
        SyntaxKind::SLASH => lhs.checked_div(rhs)?,
        SyntaxKind::PERCENT => lhs.checked_rem(rhs)?,
        SyntaxKind::SHL => lhs.wrapping_shl(u32::try_from(rhs).ok().filter(|s| *s < 64)?),
        SyntaxKind::SHR => lhs.wrapping_shr(u32::try_from(rhs).ok().filter(|s| *s < 64)?),
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
    fn evaluates_signed_integer_expressions() {
        assert_eq!(eval("4*2"), Some(8));
        assert_eq!(eval("(16 * 4 + 2) >> 1"), Some(33));
        assert_eq!(eval("-(5 % 3)"), Some(-2));
        assert_eq!(eval("~(32 - 1)"), Some(-32));
        assert_eq!(eval("0x10 | 017"), Some(0x1f));
        assert_eq!(eval("1 / 0"), None);
        assert_eq!(eval("1.5"), None);
        assert_eq!(eval("7U"), None);
        assert_eq!(eval("((1))"), Some(1));
        assert_eq!(eval("%r + 1"), None);
    }
}
