//! Lowering of operands: name resolution, immediates, addresses.
//!
//! A name is resolved in this order: the function's scopes (registers, body
//! declarations, parameters), its labels, the predefined registers of
//! [`ptx_isa::special_reg`], the module's names. An unknown name is reported and
//! lowered as a symbol. Constant expressions are evaluated where [`eval_int`]
//! can (the text as written is kept for emission); `symbol ± constant` becomes
//! a symbol with an offset; anything else stays an [`Operand::Expr`].

use ptx_syntax::ast::{self, LiteralValue};
use ptx_syntax::green::Node;
use ptx_syntax::SyntaxKind;

use crate::ir::{Address, AddressBase, Imm, ImmValue, Operand};

use super::constexpr::eval_int;
use super::function::{FnLowerer, Resolved};
use super::scope::Binding;
use super::text::normalized_text;

/// Predefined constants that are neither registers nor declared.
const PREDEFINED_CONSTANTS: &[&str] = &["WARP_SZ"];

/// Whether a node of `kind` is an operand (or a constant expression).
fn is_operand(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::NAME_REF
            | SyntaxKind::LITERAL
            | SyntaxKind::PREFIX_EXPR
            | SyntaxKind::BIN_EXPR
            | SyntaxKind::PAREN_EXPR
            | SyntaxKind::CALL_EXPR
            | SyntaxKind::TERNARY_EXPR
            | SyntaxKind::ADDRESS
            | SyntaxKind::VECTOR
            | SyntaxKind::ARG_LIST
            | SyntaxKind::PRED_PAIR
            | SyntaxKind::SINK
    )
}

/// The operands below `node`: its child nodes of an operand kind.
fn operands(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    node.children().filter(|n| is_operand(n.kind()))
}

/// The kind of the first significant direct token (the operator of an
/// expression).
fn operator(node: Node<'_>) -> Option<SyntaxKind> {
    node.significant_tokens().next().map(|t| t.kind())
}

impl<'a> FnLowerer<'a> {
    /// Lowers the nodes of an operand kind among `nodes` (the children of an
    /// instruction after its opcode, of an address, vector or argument list).
    pub(super) fn lower_operands(&mut self, nodes: impl Iterator<Item = Node<'a>>) -> Vec<Operand> {
        nodes
            .filter(|n| is_operand(n.kind()))
            .map(|op| self.lower_operand(op))
            .collect()
    }

    /// Lowers an operand node (one of [`is_operand`]'s kinds).
    fn lower_operand(&mut self, op: Node<'a>) -> Operand {
        match op.kind() {
            SyntaxKind::NAME_REF => self.lower_name(op),
            SyntaxKind::LITERAL => self.lower_literal(op),
            SyntaxKind::PREFIX_EXPR => self.lower_prefix(op),
            SyntaxKind::BIN_EXPR => self.lower_binary(op),
            SyntaxKind::ADDRESS => self.lower_address(op),
            SyntaxKind::VECTOR => Operand::Vector(self.lower_operands(op.children())),
            SyntaxKind::ARG_LIST if eval_int(op).is_some() => self.constant_or_expr(op),
            SyntaxKind::ARG_LIST => Operand::ArgList(self.lower_operands(op.children())),
            SyntaxKind::PRED_PAIR => self.lower_pred_pair(op),
            SyntaxKind::SINK => Operand::Sink,
            // PAREN_EXPR, TERNARY_EXPR, CALL_EXPR
            _ => self.constant_or_expr(op),
        }
    }

    fn lower_pred_pair(&mut self, pair: Node<'a>) -> Operand {
        let mut names = pair
            .children()
            .filter(|n| n.is(SyntaxKind::NAME_REF))
            .map(|p| self.lower_name(p));
        let first = names.next().unwrap_or(Operand::Sink);
        let second = names.next().unwrap_or(Operand::Sink);
        Operand::PredPair(Box::new(first), Box::new(second))
    }

    /// Resolves a name used as an operand (a `NAME_REF` node).
    fn lower_name(&mut self, name: Node<'a>) -> Operand {
        // The identifier (`name_ref_text`) and the component suffixes
        // (`.x` of `%tid.x`, joined), in one walk.
        let mut ident = None;
        let mut component: Option<String> = None;
        for token in name.tokens() {
            match token.kind() {
                SyntaxKind::IDENT if ident.is_none() => ident = Some(token.text()),
                SyntaxKind::DOT_IDENT => component
                    .get_or_insert_with(String::new)
                    .push_str(token.text()),
                _ => {}
            }
        }
        let text = ident.unwrap_or("");
        match self.resolve(text) {
            Resolved::Reg(reg) => return Operand::Reg { reg, component },
            Resolved::Symbol(flat) => return symbol(flat, component),
            Resolved::None => {}
        }
        if self.is_label(text) {
            return Operand::Label(self.use_label(text, name.significant_range()));
        }
        let special = match &component {
            Some(c) => ptx_isa::special_reg(&format!("{text}{c}")).is_some(),
            None => false,
        } || ptx_isa::special_reg(text).is_some();
        if special {
            return Operand::Special {
                name: text.to_string(),
                component,
            };
        }
        if !self.ctx.is_symbol(text) && !PREDEFINED_CONSTANTS.contains(&text) {
            self.error(
                name.significant_range(),
                format!("`{text}` is not declared"),
            );
        }
        symbol(text.to_string(), component)
    }

    fn lower_literal(&mut self, lit: Node<'a>) -> Operand {
        let text = normalized_text(lit);
        match literal_value(lit).map(imm_value) {
            Some(value) => Operand::Imm(Imm {
                value,
                text: Some(text.as_str().into()),
            }),
            None => {
                self.error(
                    lit.significant_range(),
                    format!("malformed literal `{text}`"),
                );
                Operand::Expr(text)
            }
        }
    }

    /// `!%p`, `-7`, `-1.5`, `~0xFF`.
    fn lower_prefix(&mut self, node: Node<'a>) -> Operand {
        let op = operator(node);
        let inner = node.children().next();
        if let (Some(SyntaxKind::BANG), Some(inner)) = (op, inner) {
            if inner.is(SyntaxKind::NAME_REF) {
                if let Operand::Reg { reg, .. } = self.lower_name(inner) {
                    return Operand::NegPred(reg);
                }
            }
        }
        if let (Some(SyntaxKind::MINUS), Some(inner)) = (op, inner) {
            if let Some(value) = negated_float(inner) {
                return Operand::Imm(Imm {
                    value,
                    text: Some(normalized_text(node).into()),
                });
            }
            if let Some(Operand::Reg { reg, component }) = self.register_name(inner) {
                return Operand::NegReg { reg, component };
            }
        }
        self.constant_or_expr(node)
    }

    /// A constant expression, `a|b` (a pair), `sym+8` (a symbol with offset),
    /// `%r+4`.
    fn lower_binary(&mut self, node: Node<'a>) -> Operand {
        if eval_int(node).is_some() {
            return self.constant_or_expr(node);
        }
        if operator(node) == Some(SyntaxKind::PIPE) {
            let mut children = operands(node);
            if let (Some(a), Some(b)) = (children.next(), children.next()) {
                let (a, b) = (self.lower_operand(a), self.lower_operand(b));
                return Operand::PredPair(Box::new(a), Box::new(b));
            }
        }
        match self.base_and_offset(node) {
            Some((Operand::Symbol { name, offset: 0 }, offset)) => {
                return Operand::Symbol { name, offset };
            }
            Some((
                Operand::Reg {
                    reg,
                    component: None,
                },
                offset,
            )) => {
                return Operand::RegOffset { reg, offset };
            }
            _ => {}
        }
        self.constant_or_expr(node)
    }

    /// An evaluated constant (keeping its text), or the expression as written.
    fn constant_or_expr(&mut self, node: Node<'a>) -> Operand {
        let text = normalized_text(node);
        if let Some(value) = eval_int(node) {
            return Operand::Imm(Imm {
                value: ImmValue::Int(value.into()),
                text: Some(text.as_str().into()),
            });
        }
        if node.any_descendant(&mut |n| n.is(SyntaxKind::NAME_REF) && self.names_register(n)) {
            self.error(
                node.significant_range(),
                format!("unsupported operand expression `{text}`"),
            );
        }
        Operand::Expr(text)
    }

    /// The register operand `node` names, if it is a name of a register.
    fn register_name(&mut self, node: Node<'a>) -> Option<Operand> {
        let is_reg = node.is(SyntaxKind::NAME_REF) && self.names_register(node);
        is_reg.then(|| self.lower_name(node))
    }

    /// Whether the `NAME_REF` `name` names a register.
    fn names_register(&self, name: Node<'a>) -> bool {
        name.token(SyntaxKind::IDENT)
            .is_some_and(|t| matches!(self.scopes.lookup(t.text()), Some(Binding::Reg { .. })))
    }

    /// `[%rd1+8]`, `[sym]`, `[sym+4*2]`, `[0x100]`, or a list `[tex, {x, y}]`.
    fn lower_address(&mut self, addr: Node<'a>) -> Operand {
        let mut items = operands(addr);
        if let (Some(single), None) = (items.next(), items.next()) {
            if let Some(address) = self.single_address(single) {
                return Operand::Address(address);
            }
        }
        Operand::AddressList(self.lower_operands(addr.children()))
    }

    fn single_address(&mut self, item: Node<'a>) -> Option<Address> {
        if let Some(offset) = eval_int(item) {
            return Some(Address {
                base: AddressBase::Absolute,
                offset,
            });
        }
        let (base, offset) = self.base_and_offset(item)?;
        let base = match base {
            Operand::Reg {
                reg,
                component: None,
            } => AddressBase::Reg(reg),
            Operand::Symbol { name, offset: 0 } => AddressBase::Symbol(name),
            _ => return None,
        };
        Some(Address { base, offset })
    }

    /// Splits `name`, `name + c`, `name - c`, `c + name` (nested) into the
    /// resolved name and the constant offset.
    fn base_and_offset(&mut self, node: Node<'a>) -> Option<(Operand, i64)> {
        if node.is(SyntaxKind::NAME_REF) {
            let base = self.lower_name(node);
            return matches!(base, Operand::Reg { .. } | Operand::Symbol { .. })
                .then_some((base, 0));
        }
        if !node.is(SyntaxKind::BIN_EXPR) {
            return None;
        }
        let op = operator(node)?;
        let mut children = node.children();
        let (lhs, rhs) = (children.next()?, children.next()?);
        match op {
            SyntaxKind::PLUS | SyntaxKind::MINUS if eval_int(rhs).is_some() => {
                let c = eval_int(rhs)?;
                let (base, off) = self.base_and_offset(lhs)?;
                let c = if op == SyntaxKind::PLUS {
                    c
                } else {
                    c.checked_neg()?
                };
                Some((base, off.checked_add(c)?))
            }
            SyntaxKind::PLUS if eval_int(lhs).is_some() => {
                let c = eval_int(lhs)?;
                let (base, off) = self.base_and_offset(rhs)?;
                Some((base, off.checked_add(c)?))
            }
            _ => None,
        }
    }
}

fn symbol(name: String, component: Option<String>) -> Operand {
    let name = match component {
        Some(c) => format!("{name}{c}"),
        None => name,
    };
    Operand::Symbol { name, offset: 0 }
}

fn imm_value(value: LiteralValue) -> ImmValue {
    match value {
        LiteralValue::Int { value, .. } => ImmValue::Int(value.into()),
        LiteralValue::F32Bits(bits) => ImmValue::F32(bits),
        LiteralValue::F64Bits(bits) => ImmValue::F64(bits),
        LiteralValue::Float(f) => ImmValue::F64(f.to_bits()),
    }
}

/// The value of a `LITERAL` node (of its first token).
fn literal_value(lit: Node<'_>) -> Option<LiteralValue> {
    ast::parse_literal(lit.first_token()?.text())
}

/// The value of `-literal` for a floating-point literal.
fn negated_float(node: Node<'_>) -> Option<ImmValue> {
    if !node.is(SyntaxKind::LITERAL) {
        return None;
    }
    match imm_value(literal_value(node)?) {
        ImmValue::F32(bits) => Some(ImmValue::F32(bits ^ 0x8000_0000)),
        ImmValue::F64(bits) => Some(ImmValue::F64(bits ^ 0x8000_0000_0000_0000)),
        ImmValue::Int(_) => None,
    }
}
