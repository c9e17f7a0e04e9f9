//! Typed accessors over the PTX syntax tree.
//!
//! Each type wraps a [`SyntaxNode`] of one kind and offers methods that find
//! children; a missing child (after a syntax error) gives `None` or an empty
//! iterator, never a panic.

use crate::SyntaxKind::{self, *};
use crate::{SyntaxNode, SyntaxToken};

/// A typed view of a syntax node.
pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name {
            pub(crate) syntax: SyntaxNode,
        }
        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                (node.kind() == $kind).then_some($name { syntax: node })
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }
    };
}

ast_node!(/// The whole module.
    SourceFile, SOURCE_FILE);
ast_node!(/// `.version 8.3`
    VersionDirective, VERSION_DIRECTIVE);
ast_node!(/// `.target sm_90[, options]`
    TargetDirective, TARGET_DIRECTIVE);
ast_node!(/// `.address_size 64`
    AddressSizeDirective, ADDRESS_SIZE_DIRECTIVE);
ast_node!(/// `.file N "name"`
    FileDirective, FILE_DIRECTIVE);
ast_node!(/// `.section name { ... }`
    SectionDirective, SECTION_DIRECTIVE);
ast_node!(/// `.alias a, b;`
    AliasDirective, ALIAS_DIRECTIVE);
ast_node!(/// `.pragma "...";`
    PragmaDirective, PRAGMA_DIRECTIVE);
ast_node!(/// `.loc file line col`
    LocDirective, LOC_DIRECTIVE);
ast_node!(/// An `.entry` or `.func`.
    Function, FUNCTION);
ast_node!(/// A parameter list `( ... )`.
    ParamList, PARAM_LIST);
ast_node!(/// A return-parameter list of a `.func`.
    ReturnParams, RETURN_PARAMS);
ast_node!(/// One parameter.
    Param, PARAM);
ast_node!(/// `.maxntid 256, 1, 1` and friends.
    PerfDirective, PERF_DIRECTIVE);
ast_node!(/// `{ ... }`
    Block, BLOCK);
ast_node!(/// A variable or register declaration.
    VarDecl, VAR_DECL);
ast_node!(/// One declared name.
    Declarator, DECLARATOR);
ast_node!(/// `label:`
    LabelDef, LABEL_DEF);
ast_node!(/// A name at its definition.
    Name, NAME);
ast_node!(/// An instruction.
    Instruction, INSTRUCTION);
ast_node!(/// `@%p` / `@!%p`
    Guard, GUARD);
ast_node!(/// The opcode and its modifiers.
    Opcode, OPCODE);
ast_node!(/// A name used as a value.
    NameRef, NAME_REF);
ast_node!(/// A numeric literal.
    Literal, LITERAL);
ast_node!(/// `[ ... ]`
    Address, ADDRESS);
ast_node!(/// `{ ... }`
    Vector, VECTOR);
ast_node!(/// `( ... )`
    ArgList, ARG_LIST);
ast_node!(/// `%p|%q`
    PredPair, PRED_PAIR);
ast_node!(/// `.callprototype ...`
    CallPrototype, CALL_PROTOTYPE);
ast_node!(/// `.calltargets ...`
    CallTargets, CALL_TARGETS);
ast_node!(/// `.branchtargets ...`
    BranchTargets, BRANCH_TARGETS);
ast_node!(/// `= value`
    Initializer, INITIALIZER);

fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
    parent.children().find_map(N::cast)
}

fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> {
    parent.children().filter_map(N::cast)
}

fn tokens(parent: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    parent.children_with_tokens().filter_map(|e| e.into_token())
}

fn first_token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    tokens(parent).find(|t| t.kind() == kind)
}

fn dot_words(parent: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    tokens(parent).filter(|t| t.kind() == DOT_IDENT)
}

/// A module-level item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Version(VersionDirective),
    Target(TargetDirective),
    AddressSize(AddressSizeDirective),
    File(FileDirective),
    Section(SectionDirective),
    Alias(AliasDirective),
    Pragma(PragmaDirective),
    Loc(LocDirective),
    Function(Function),
    VarDecl(VarDecl),
}

impl Item {
    fn cast(node: SyntaxNode) -> Option<Item> {
        Some(match node.kind() {
            VERSION_DIRECTIVE => Item::Version(VersionDirective { syntax: node }),
            TARGET_DIRECTIVE => Item::Target(TargetDirective { syntax: node }),
            ADDRESS_SIZE_DIRECTIVE => Item::AddressSize(AddressSizeDirective { syntax: node }),
            FILE_DIRECTIVE => Item::File(FileDirective { syntax: node }),
            SECTION_DIRECTIVE => Item::Section(SectionDirective { syntax: node }),
            ALIAS_DIRECTIVE => Item::Alias(AliasDirective { syntax: node }),
            PRAGMA_DIRECTIVE => Item::Pragma(PragmaDirective { syntax: node }),
            LOC_DIRECTIVE => Item::Loc(LocDirective { syntax: node }),
            FUNCTION => Item::Function(Function { syntax: node }),
            VAR_DECL => Item::VarDecl(VarDecl { syntax: node }),
            _ => return None,
        })
    }
}

impl SourceFile {
    pub fn items(&self) -> impl Iterator<Item = Item> {
        self.syntax.children().filter_map(Item::cast)
    }
    pub fn version(&self) -> Option<VersionDirective> {
        child(&self.syntax)
    }
    pub fn target(&self) -> Option<TargetDirective> {
        child(&self.syntax)
    }
    pub fn address_size(&self) -> Option<AddressSizeDirective> {
        child(&self.syntax)
    }
    pub fn functions(&self) -> impl Iterator<Item = Function> {
        children(&self.syntax)
    }
    /// Module-level variable declarations.
    pub fn var_decls(&self) -> impl Iterator<Item = VarDecl> {
        children(&self.syntax)
    }
    pub fn files(&self) -> impl Iterator<Item = FileDirective> {
        children(&self.syntax)
    }
    pub fn aliases(&self) -> impl Iterator<Item = AliasDirective> {
        children(&self.syntax)
    }
}

impl VersionDirective {
    /// `(major, minor)` of `.version major.minor`.
    pub fn version(&self) -> Option<(u8, u8)> {
        let tok = tokens(&self.syntax).find(|t| matches!(t.kind(), FLOAT_NUMBER | INT_NUMBER))?;
        let (major, minor) = tok.text().split_once('.')?;
        Some((major.parse().ok()?, minor.parse().ok()?))
    }
}

impl TargetDirective {
    /// Every word after `.target`: the SM name and options (`texmode_independent`,
    /// `debug`, `map_f64_to_f32`).
    pub fn words(&self) -> impl Iterator<Item = SyntaxToken> {
        tokens(&self.syntax).filter(|t| t.kind() == IDENT)
    }
    /// The `sm_XX` / `compute_XX` word.
    pub fn sm_name(&self) -> Option<SyntaxToken> {
        self.words()
            .find(|t| t.text().starts_with("sm_") || t.text().starts_with("compute_"))
    }
    /// The SM number (`sm_90a` is 90) and whether it has an architecture suffix
    /// (`a` or `f`).
    pub fn sm(&self) -> Option<(u32, Option<char>)> {
        let tok = self.sm_name()?;
        let text = tok.text();
        let digits = text.split_once('_')?.1;
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        let number = digits[..end].parse().ok()?;
        Some((number, digits[end..].chars().next()))
    }
}

impl AddressSizeDirective {
    pub fn bits(&self) -> Option<u32> {
        first_token(&self.syntax, INT_NUMBER)?.text().parse().ok()
    }
}

impl FileDirective {
    pub fn number(&self) -> Option<u32> {
        first_token(&self.syntax, INT_NUMBER)?.text().parse().ok()
    }
    /// The file name, without quotes.
    pub fn path(&self) -> Option<String> {
        let tok = first_token(&self.syntax, STRING)?;
        Some(tok.text().trim_matches('"').to_string())
    }
}

impl SectionDirective {
    pub fn name(&self) -> Option<SyntaxToken> {
        tokens(&self.syntax)
            .find(|t| matches!(t.kind(), DOT_IDENT | IDENT) && t.text() != ".section")
    }
    pub fn labels(&self) -> impl Iterator<Item = LabelDef> {
        children(&self.syntax)
    }
}

impl AliasDirective {
    pub fn alias(&self) -> Option<Name> {
        child(&self.syntax)
    }
    pub fn aliasee(&self) -> Option<NameRef> {
        child(&self.syntax)
    }
}

impl PragmaDirective {
    /// The pragma strings without quotes: `.pragma "nounroll";` gives `["nounroll"]`.
    pub fn strings(&self) -> Vec<String> {
        tokens(&self.syntax)
            .filter(|t| t.kind() == STRING)
            .map(|t| t.text().trim_matches('"').to_string())
            .collect()
    }
}

impl LocDirective {
    /// `(file, line, column)`.
    pub fn position(&self) -> Option<(u32, u32, u32)> {
        let mut ints = tokens(&self.syntax).filter(|t| t.kind() == INT_NUMBER);
        let mut next = || ints.next()?.text().parse::<u32>().ok();
        Some((next()?, next()?, next()?))
    }
}

/// Whether a function is a kernel or a device function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    Entry,
    Func,
}

impl Function {
    pub fn kind(&self) -> FunctionKind {
        if dot_words(&self.syntax).any(|t| t.text() == ".entry") {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        }
    }
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// Linkage words: `.visible`, `.extern`, `.weak`, `.common`.
    pub fn linkage(&self) -> impl Iterator<Item = SyntaxToken> {
        dot_words(&self.syntax)
            .filter(|t| matches!(t.text(), ".visible" | ".extern" | ".weak" | ".common"))
    }
    pub fn is_extern(&self) -> bool {
        self.linkage().any(|t| t.text() == ".extern")
    }
    pub fn params(&self) -> Option<ParamList> {
        child(&self.syntax)
    }
    pub fn return_params(&self) -> Option<ReturnParams> {
        child(&self.syntax)
    }
    pub fn perf_directives(&self) -> impl Iterator<Item = PerfDirective> {
        children(&self.syntax)
    }
    /// The body; None for a declaration (`;`).
    pub fn body(&self) -> Option<Block> {
        child(&self.syntax)
    }
}

impl ParamList {
    pub fn params(&self) -> impl Iterator<Item = Param> {
        children(&self.syntax)
    }
}

impl ReturnParams {
    pub fn params(&self) -> impl Iterator<Item = Param> {
        children(&self.syntax)
    }
}

impl Param {
    /// The dotted words: `.param`, `.align`, `.ptr`, `.global`, type, ...
    pub fn words(&self) -> impl Iterator<Item = SyntaxToken> {
        dot_words(&self.syntax)
    }
    pub fn state_space(&self) -> Option<SyntaxToken> {
        self.words().next()
    }
    /// The type word (the last fundamental type among the words).
    pub fn type_name(&self) -> Option<SyntaxToken> {
        self.words()
            .filter(|t| ptx_isa::type_bits(t.text()).is_some())
            .last()
    }
    pub fn declarator(&self) -> Option<Declarator> {
        child(&self.syntax)
    }
    pub fn name(&self) -> Option<Name> {
        self.declarator()?.name()
    }
}

impl PerfDirective {
    pub fn directive(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, DOT_IDENT)
    }
    pub fn values(&self) -> Vec<u64> {
        tokens(&self.syntax)
            .filter(|t| t.kind() == INT_NUMBER)
            .filter_map(|t| parse_int(t.text()))
            .collect()
    }
}

/// A statement in a body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Statement {
    Instruction(Instruction),
    Label(LabelDef),
    VarDecl(VarDecl),
    Block(Block),
    Loc(LocDirective),
    Pragma(PragmaDirective),
    CallPrototype(CallPrototype),
    CallTargets(CallTargets),
    BranchTargets(BranchTargets),
}

impl Statement {
    fn cast(node: SyntaxNode) -> Option<Statement> {
        Some(match node.kind() {
            INSTRUCTION => Statement::Instruction(Instruction { syntax: node }),
            LABEL_DEF => Statement::Label(LabelDef { syntax: node }),
            VAR_DECL => Statement::VarDecl(VarDecl { syntax: node }),
            BLOCK => Statement::Block(Block { syntax: node }),
            LOC_DIRECTIVE => Statement::Loc(LocDirective { syntax: node }),
            PRAGMA_DIRECTIVE => Statement::Pragma(PragmaDirective { syntax: node }),
            CALL_PROTOTYPE => Statement::CallPrototype(CallPrototype { syntax: node }),
            CALL_TARGETS => Statement::CallTargets(CallTargets { syntax: node }),
            BRANCH_TARGETS => Statement::BranchTargets(BranchTargets { syntax: node }),
            _ => return None,
        })
    }

    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            Statement::Instruction(n) => n.syntax(),
            Statement::Label(n) => n.syntax(),
            Statement::VarDecl(n) => n.syntax(),
            Statement::Block(n) => n.syntax(),
            Statement::Loc(n) => n.syntax(),
            Statement::Pragma(n) => n.syntax(),
            Statement::CallPrototype(n) => n.syntax(),
            Statement::CallTargets(n) => n.syntax(),
            Statement::BranchTargets(n) => n.syntax(),
        }
    }
}

impl Block {
    /// Direct statements (nested blocks appear as `Statement::Block`).
    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        self.syntax.children().filter_map(Statement::cast)
    }
    /// Every instruction in this block and nested blocks, in source order.
    pub fn instructions(&self) -> impl Iterator<Item = Instruction> {
        self.syntax.descendants().filter_map(Instruction::cast)
    }
}

impl VarDecl {
    /// The dotted words: linkage, state space, `.align`, vector width, type.
    pub fn words(&self) -> impl Iterator<Item = SyntaxToken> {
        dot_words(&self.syntax)
    }
    /// `.reg`, `.global`, `.shared`, ...
    pub fn state_space(&self) -> Option<SyntaxToken> {
        self.words()
            .find(|t| !matches!(t.text(), ".visible" | ".extern" | ".weak" | ".common"))
    }
    pub fn type_name(&self) -> Option<SyntaxToken> {
        self.words()
            .filter(|t| ptx_isa::type_bits(t.text()).is_some())
            .last()
    }
    /// `.v2`/`.v4`/`.v8` width, if any.
    pub fn vector_width(&self) -> Option<u32> {
        self.words()
            .find_map(|t| t.text().strip_prefix(".v")?.parse().ok())
    }
    pub fn align(&self) -> Option<u64> {
        let mut iter = tokens(&self.syntax).skip_while(|t| t.text() != ".align");
        iter.next()?;
        parse_int(iter.find(|t| t.kind() == INT_NUMBER)?.text())
    }
    pub fn declarators(&self) -> impl Iterator<Item = Declarator> {
        children(&self.syntax)
    }
}

impl Declarator {
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
    /// `N` of a parameterized register declaration `%r<N>`.
    pub fn reg_count(&self) -> Option<u32> {
        let node = self.syntax.children().find(|n| n.kind() == REG_COUNT)?;
        first_token(&node, INT_NUMBER)?.text().parse().ok()
    }
    /// Array dimensions: `Some(n)` for `[n]` with a literal size, `None` for `[]`
    /// or a non-literal size.
    pub fn array_dims(&self) -> Vec<Option<u64>> {
        self.syntax
            .children()
            .filter(|n| n.kind() == ARRAY_DIM)
            .map(|dim| {
                let lit = dim.children().find(|n| n.kind() == LITERAL)?;
                parse_int(first_token(&lit, INT_NUMBER)?.text())
            })
            .collect()
    }
    pub fn initializer(&self) -> Option<Initializer> {
        child(&self.syntax)
    }
}

impl LabelDef {
    pub fn name(&self) -> Option<Name> {
        child(&self.syntax)
    }
}

impl Name {
    pub fn ident(&self) -> Option<SyntaxToken> {
        self.syntax.first_token()
    }
    pub fn text(&self) -> String {
        self.ident()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

impl NameRef {
    pub fn ident(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, IDENT)
    }
    pub fn text(&self) -> String {
        self.ident()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
    /// Component suffixes: `.x` of `%tid.x`, `.h0` of a video operand.
    pub fn components(&self) -> impl Iterator<Item = SyntaxToken> {
        dot_words(&self.syntax)
    }
}

impl Instruction {
    pub fn guard(&self) -> Option<Guard> {
        child(&self.syntax)
    }
    pub fn opcode(&self) -> Option<Opcode> {
        child(&self.syntax)
    }
    /// The operands, in order: expression nodes after the opcode.
    pub fn operands(&self) -> impl Iterator<Item = Operand> {
        self.syntax.children().filter_map(Operand::cast)
    }
}

impl Guard {
    pub fn is_negated(&self) -> bool {
        first_token(&self.syntax, BANG).is_some()
    }
    pub fn predicate(&self) -> Option<NameRef> {
        child(&self.syntax)
    }
}

impl Opcode {
    /// The opcode word (`ld` of `ld.global.f32`).
    pub fn name(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, IDENT)
    }
    /// The modifiers, with their dots: `.global`, `.f32`.
    pub fn modifiers(&self) -> impl Iterator<Item = SyntaxToken> {
        dot_words(&self.syntax)
    }
}

/// An operand or constant expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Name(NameRef),
    Literal(Literal),
    /// `-x`, `~x`, `!x`
    Prefix(SyntaxNode),
    /// `a + b`, ...
    Binary(SyntaxNode),
    Paren(SyntaxNode),
    /// `generic(x)`
    Call(SyntaxNode),
    Ternary(SyntaxNode),
    Address(Address),
    Vector(Vector),
    ArgList(ArgList),
    PredPair(PredPair),
    Sink(SyntaxNode),
}

impl Operand {
    pub fn cast(node: SyntaxNode) -> Option<Operand> {
        Some(match node.kind() {
            NAME_REF => Operand::Name(NameRef { syntax: node }),
            LITERAL => Operand::Literal(Literal { syntax: node }),
            PREFIX_EXPR => Operand::Prefix(node),
            BIN_EXPR => Operand::Binary(node),
            PAREN_EXPR => Operand::Paren(node),
            CALL_EXPR => Operand::Call(node),
            TERNARY_EXPR => Operand::Ternary(node),
            ADDRESS => Operand::Address(Address { syntax: node }),
            VECTOR => Operand::Vector(Vector { syntax: node }),
            ARG_LIST => Operand::ArgList(ArgList { syntax: node }),
            PRED_PAIR => Operand::PredPair(PredPair { syntax: node }),
            SINK => Operand::Sink(node),
            _ => return None,
        })
    }

    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            Operand::Name(n) => n.syntax(),
            Operand::Literal(n) => n.syntax(),
            Operand::Address(n) => n.syntax(),
            Operand::Vector(n) => n.syntax(),
            Operand::ArgList(n) => n.syntax(),
            Operand::PredPair(n) => n.syntax(),
            Operand::Prefix(n)
            | Operand::Binary(n)
            | Operand::Paren(n)
            | Operand::Call(n)
            | Operand::Ternary(n)
            | Operand::Sink(n) => n,
        }
    }

    /// Sub-operands: the elements of an address, vector or argument list, the
    /// operands of an expression.
    pub fn children(&self) -> impl Iterator<Item = Operand> {
        self.syntax().children().filter_map(Operand::cast)
    }

    /// Whether this is a constant expression (literals and operators only, no
    /// names).
    pub fn is_constant(&self) -> bool {
        match self {
            Operand::Literal(_) => true,
            Operand::Prefix(_) | Operand::Binary(_) | Operand::Paren(_) | Operand::Ternary(_) => {
                self.children().all(|c| c.is_constant())
            }
            _ => false,
        }
    }
}

impl Address {
    pub fn items(&self) -> impl Iterator<Item = Operand> {
        self.syntax.children().filter_map(Operand::cast)
    }
}

impl Vector {
    pub fn elements(&self) -> impl Iterator<Item = Operand> {
        self.syntax.children().filter_map(Operand::cast)
    }
}

impl ArgList {
    pub fn args(&self) -> impl Iterator<Item = Operand> {
        self.syntax.children().filter_map(Operand::cast)
    }
}

impl PredPair {
    pub fn predicates(&self) -> impl Iterator<Item = NameRef> {
        children(&self.syntax)
    }
}

impl Initializer {
    /// The value: an expression, or an `INIT_LIST` node.
    pub fn value(&self) -> Option<SyntaxNode> {
        self.syntax.children().next()
    }
}

impl CallPrototype {
    pub fn params(&self) -> Option<ParamList> {
        child(&self.syntax)
    }
    pub fn return_params(&self) -> Option<ReturnParams> {
        child(&self.syntax)
    }
}

impl CallTargets {
    pub fn targets(&self) -> impl Iterator<Item = NameRef> {
        children(&self.syntax)
    }
}

impl BranchTargets {
    pub fn targets(&self) -> impl Iterator<Item = NameRef> {
        children(&self.syntax)
    }
}

/// The value of a numeric literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LiteralValue {
    /// An integer; `unsigned` when written with a `U` suffix.
    Int { value: u64, unsigned: bool },
    /// `0fXXXXXXXX`: the bits of an f32.
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`: the bits of an f64.
    F64Bits(u64),
    /// A decimal floating-point literal (PTX treats these as f64).
    Float(f64),
}

impl Literal {
    pub fn token(&self) -> Option<SyntaxToken> {
        self.syntax.first_token()
    }
    /// The parsed value; None if the literal is malformed (already reported by the
    /// lexer) or out of range.
    pub fn value(&self) -> Option<LiteralValue> {
        parse_literal(self.token()?.text())
    }
}

/// Parses an integer literal: decimal, `0x` hex, `0b` binary, leading-`0` octal,
/// with an optional `U` suffix.
pub fn parse_int(text: &str) -> Option<u64> {
    let body = text.strip_suffix(['U', 'u']).unwrap_or(text);
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        u64::from_str_radix(bin, 2).ok()
    } else if body.len() > 1 && body.starts_with('0') {
        u64::from_str_radix(&body[1..], 8).ok()
    } else {
        body.parse().ok()
    }
}

/// Parses any numeric literal.
pub fn parse_literal(text: &str) -> Option<LiteralValue> {
    let bytes = text.as_bytes();
    if bytes.len() > 2 && bytes[0] == b'0' {
        match bytes[1] | 0x20 {
            b'f' => {
                return u32::from_str_radix(&text[2..], 16)
                    .ok()
                    .map(LiteralValue::F32Bits)
            }
            b'd' => {
                return u64::from_str_radix(&text[2..], 16)
                    .ok()
                    .map(LiteralValue::F64Bits)
            }
            _ => {}
        }
    }
    if text.contains(['.', 'e', 'E']) && !text.starts_with("0x") && !text.starts_with("0X") {
        return text.parse().ok().map(LiteralValue::Float);
    }
    let unsigned = text.ends_with(['U', 'u']);
    parse_int(text).map(|value| LiteralValue::Int { value, unsigned })
}
