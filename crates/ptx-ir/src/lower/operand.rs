//! Lowering of operands: name resolution, immediates, addresses.
//!
//! A name is resolved in this order: the function's scopes (registers, body
//! declarations, parameters), its labels, the predefined registers of
//! [`ptx_isa::special_reg`], the module's names. An unknown name is reported and
//! lowered as a symbol. Constant expressions are evaluated where
//! [`eval_int`](super::constexpr::eval_int) can (the text as written is kept for
//! emission); `symbol ± constant` becomes a symbol with an offset; anything else
//! stays an [`Operand::Expr`].

use ptx_syntax::ast::{self, AstNode, LiteralValue};
use ptx_syntax::{SyntaxKind, SyntaxNode};

use crate::ir::{Address, AddressBase, Imm, ImmValue, Operand};

use super::constexpr::eval_int;
use super::function::FnLowerer;
use super::scope::Binding;
use super::text::{direct_tokens, normalized_text, significant_range};

/// Predefined constants that are neither registers nor declared.
const PREDEFINED_CONSTANTS: &[&str] = &["WARP_SZ"];

impl FnLowerer<'_> {
    pub(super) fn lower_operand(&mut self, op: &ast::Operand) -> Operand {
        match op {
            ast::Operand::Name(name) => self.lower_name(name),
            ast::Operand::Literal(lit) => self.lower_literal(lit),
            ast::Operand::Prefix(node) => self.lower_prefix(node),
            ast::Operand::Binary(node) => self.lower_binary(node),
            ast::Operand::Paren(node) | ast::Operand::Ternary(node) | ast::Operand::Call(node) => {
                self.constant_or_expr(node)
            }
            ast::Operand::Address(addr) => self.lower_address(addr),
            ast::Operand::Vector(v) => Operand::Vector(self.lower_list(v.elements())),
            ast::Operand::ArgList(a) if eval_int(a.syntax()).is_some() => {
                self.constant_or_expr(a.syntax())
            }
            ast::Operand::ArgList(a) => Operand::ArgList(self.lower_list(a.args())),
            ast::Operand::PredPair(pair) => self.lower_pred_pair(pair),
            ast::Operand::Sink(_) => Operand::Sink,
        }
    }

    fn lower_list(&mut self, items: impl Iterator<Item = ast::Operand>) -> Vec<Operand> {
        items.map(|op| self.lower_operand(&op)).collect()
    }

    fn lower_pred_pair(&mut self, pair: &ast::PredPair) -> Operand {
        let mut names = pair.predicates().map(|p| self.lower_name(&p));
        let first = names.next().unwrap_or(Operand::Sink);
        let second = names.next().unwrap_or(Operand::Sink);
        Operand::PredPair(Box::new(first), Box::new(second))
    }

    /// Resolves a name used as an operand.
    fn lower_name(&mut self, name: &ast::NameRef) -> Operand {
        let ident = name.ident();
        let text = ident.as_ref().map_or("", |t| t.text());
        let mut components = name.components().peekable();
        let component = components.peek().is_some().then(|| {
            let mut joined = String::new();
            components.for_each(|t| joined.push_str(t.text()));
            joined
        });
        match self.scopes.lookup(text) {
            Some(Binding::Reg { decl, index }) => {
                return Operand::Reg {
                    reg: self.reg_for(decl, index),
                    component,
                };
            }
            Some(Binding::Symbol(flat)) => return symbol(flat, component),
            None => {}
        }
        if self.is_label(text) {
            return Operand::Label(self.use_label(text, significant_range(name.syntax())));
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
                significant_range(name.syntax()),
                format!("`{text}` is not declared"),
            );
        }
        symbol(text.to_string(), component)
    }

    fn lower_literal(&mut self, lit: &ast::Literal) -> Operand {
        let text = normalized_text(lit.syntax());
        match lit.value().map(imm_value) {
            Some(value) => Operand::Imm(Imm {
                value,
                text: Some(text),
            }),
            None => {
                self.error(
                    significant_range(lit.syntax()),
                    format!("malformed literal `{text}`"),
                );
                Operand::Expr(text)
            }
        }
    }

    /// `!%p`, `-7`, `-1.5`, `~0xFF`.
    fn lower_prefix(&mut self, node: &SyntaxNode) -> Operand {
        let op = direct_tokens(node).next().map(|t| t.kind());
        let inner = node.children().next();
        if let (Some(SyntaxKind::BANG), Some(inner)) = (op, &inner) {
            if let Some(name) = ast::NameRef::cast(inner.clone()) {
                if let Operand::Reg { reg, .. } = self.lower_name(&name) {
                    return Operand::NegPred(reg);
                }
            }
        }
        if let (Some(SyntaxKind::MINUS), Some(inner)) = (op, &inner) {
            if let Some(value) = negated_float(inner) {
                return Operand::Imm(Imm {
                    value,
                    text: Some(normalized_text(node)),
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
    fn lower_binary(&mut self, node: &SyntaxNode) -> Operand {
        if eval_int(node).is_some() {
            return self.constant_or_expr(node);
        }
        let op = direct_tokens(node).next().map(|t| t.kind());
        let mut children = node.children().filter_map(ast::Operand::cast);
        if op == Some(SyntaxKind::PIPE) {
            if let (Some(a), Some(b)) = (children.next(), children.next()) {
                let (a, b) = (self.lower_operand(&a), self.lower_operand(&b));
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
    fn constant_or_expr(&mut self, node: &SyntaxNode) -> Operand {
        let text = normalized_text(node);
        if let Some(value) = eval_int(node) {
            return Operand::Imm(Imm {
                value: ImmValue::Int(value.into()),
                text: Some(text),
            });
        }
        if node
            .descendants()
            .any(|n| n.kind() == SyntaxKind::NAME_REF && self.names_register(&n))
        {
            self.error(
                significant_range(node),
                format!("unsupported operand expression `{text}`"),
            );
        }
        Operand::Expr(text)
    }

    /// The register operand `node` names, if it is a name of a register.
    fn register_name(&mut self, node: &SyntaxNode) -> Option<Operand> {
        let name = ast::NameRef::cast(node.clone())?;
        let is_reg = name
            .ident()
            .is_some_and(|t| matches!(self.scopes.lookup(t.text()), Some(Binding::Reg { .. })));
        is_reg.then(|| self.lower_name(&name))
    }

    fn names_register(&self, node: &SyntaxNode) -> bool {
        let Some(name) = ast::NameRef::cast(node.clone()) else {
            return false;
        };
        name.ident()
            .is_some_and(|t| matches!(self.scopes.lookup(t.text()), Some(Binding::Reg { .. })))
    }

    /// `[%rd1+8]`, `[sym]`, `[sym+4*2]`, `[0x100]`, or a list `[tex, {x, y}]`.
    fn lower_address(&mut self, addr: &ast::Address) -> Operand {
        let items: Vec<ast::Operand> = addr.items().collect();
        if let [single] = items.as_slice() {
            if let Some(address) = self.single_address(single) {
                return Operand::Address(address);
            }
        }
        Operand::AddressList(self.lower_list(items.into_iter()))
    }

    fn single_address(&mut self, item: &ast::Operand) -> Option<Address> {
        if let Some(offset) = eval_int(item.syntax()) {
            return Some(Address {
                base: AddressBase::Absolute,
                offset,
            });
        }
        let (base, offset) = self.base_and_offset(item.syntax())?;
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
    fn base_and_offset(&mut self, node: &SyntaxNode) -> Option<(Operand, i64)> {
        if let Some(name) = ast::NameRef::cast(node.clone()) {
            let base = self.lower_name(&name);
            return matches!(base, Operand::Reg { .. } | Operand::Symbol { .. })
                .then_some((base, 0));
        }
        if node.kind() != SyntaxKind::BIN_EXPR {
            return None;
        }
        let op = direct_tokens(node).next()?.kind();
        let mut children = node.children();
        let (lhs, rhs) = (children.next()?, children.next()?);
        match op {
            SyntaxKind::PLUS | SyntaxKind::MINUS if eval_int(&rhs).is_some() => {
                let c = eval_int(&rhs)?;
                let (base, off) = self.base_and_offset(&lhs)?;
                let c = if op == SyntaxKind::PLUS {
                    c
                } else {
                    c.checked_neg()?
                };
                Some((base, off.checked_add(c)?))
            }
            SyntaxKind::PLUS if eval_int(&lhs).is_some() => {
                let c = eval_int(&lhs)?;
                let (base, off) = self.base_and_offset(&rhs)?;
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

/// The value of `-literal` for a floating-point literal.
fn negated_float(node: &SyntaxNode) -> Option<ImmValue> {
    let lit = ast::Literal::cast(node.clone())?;
    match imm_value(lit.value()?) {
        ImmValue::F32(bits) => Some(ImmValue::F32(bits ^ 0x8000_0000)),
        ImmValue::F64(bits) => Some(ImmValue::F64(bits ^ 0x8000_0000_0000_0000)),
        ImmValue::Int(_) => None,
    }
}
