//! Lowering of one function: declarations into scopes, statements into basic
//! blocks.
//!
//! Blocks start at labels, after `bra`/`brx.idx`/`ret`/`exit`/`trap`, and at a
//! `.pragma` that follows instructions of the current block. Labels may be used
//! before they are defined, so blocks are allocated on first mention; at the end
//! they are renumbered into layout order, so that a freshly lowered function's
//! arena order is its layout. A label whose statement is `.callprototype`,
//! `.calltargets` or `.branchtargets` names that declaration, not a block.
//! Labels are scoped like registers (visible in their `{ }` block and the
//! blocks nested in it; ptxas accepts the same label in sibling blocks, as
//! one per inline `asm` block): a label defined in more than one block gets
//! the flat name `<name>_s<N>` after its first definition, as registers do.
//!
//! `ptxopt:` comments (`// ptxopt: unroll 4`) are annotations of a block
//! ([`Block::annotations`]): one on the line of a label or instruction
//! (after it) belongs to that statement's block; one on a line of its own
//! belongs to the block of the next label or instruction (so a comment line
//! directly above a loop header's label annotates the header). Only these
//! comments reach the IR: editing any other comment leaves it equal. A body
//! without the string `ptxopt:` in a comment costs one token walk.
//!
//! For speed (lowering is a large part of a cold analysis): the body is walked
//! through allocation-free green views ([`ptx_syntax::green`]), once up front
//! for its labels and instruction count (to size the instruction arena and
//! maps), then statement by statement; names and labels are keyed by slices of
//! the tree's text, not copied; the register a source name resolves to is
//! memoized until the scopes change ([`Scopes::generation`]), as is each
//! distinct opcode's ISA family.

use ptx_syntax::ast::{self, AstNode};
use ptx_syntax::green::Node;
use ptx_syntax::{SyntaxKind, TextRange, TextSize};
use rustc_hash::FxHashMap;

use la_arena::ArenaMap;

use crate::ir::{
    Block, BlockId, Function, Guard, Inst, InstArena, Loc, LocalDecl, Locs, Opcode, Reg, RegClass,
    RegDecl, RegDeclId, RegId,
};

use super::context::ModuleContext;
use super::decl::{lower_signature, lower_var_decl};
use super::scope::{Binding, Scopes};
use super::text::{name_ref_text, name_str, normalized_text_after, statement_tail};
use super::LowerError;

/// Lowers one function definition. Instruction ranges and error ranges are
/// relative to the start of `func`'s syntax node. A declaration without a body
/// gives a function with no blocks.
pub fn lower_function(func: &ast::Function, ctx: &ModuleContext) -> (Function, Vec<LowerError>) {
    let base = func.syntax().text_range().start();
    let green = func.syntax().green();
    let (function, mut errors) = lower_function_absolute(Node::new(&green, base), ctx);
    for e in &mut errors {
        e.range = relative(e.range, base);
    }
    (function, errors)
}

/// [`lower_function`] of a `FUNCTION` node, with absolute error ranges.
pub(crate) fn lower_function_absolute(
    func: Node<'_>,
    ctx: &ModuleContext,
) -> (Function, Vec<LowerError>) {
    let mut errors = Vec::new();
    let sig = lower_signature(func, &mut errors);
    let mut lowerer = FnLowerer::new(ctx, func.range().start(), Function::new(sig));
    lowerer.errors = errors;
    lowerer.declare_params();
    if let Some(body) = func.child(SyntaxKind::BLOCK) {
        let mut scan = BodyScan::default();
        scan.block(body);
        scan.assign_flat_names();
        lowerer.labels = scan.labels;
        lowerer.f.insts = InstArena::with_capacity(scan.instructions);
        lowerer.f.origins = ArenaMap::with_capacity(scan.instructions);
        // About as many registers as instructions: no rehashing while growing.
        lowerer.reg_ids.reserve(scan.instructions);
        lowerer.reg_names.reserve(scan.instructions);
        lowerer.annotations = annotations_of(body);
        lowerer.lower_block(body);
        lowerer.flush_trailing_annotations();
    }
    lowerer.finish()
}

fn relative(range: TextRange, base: TextSize) -> TextRange {
    let start = range.start().checked_sub(base).unwrap_or_default();
    let end = range.end().checked_sub(base).unwrap_or_default();
    TextRange::new(start, end.max(start))
}

/// The statements of a `BLOCK`: its child nodes of a statement kind.
fn statements(block: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    block.children().filter(|n| {
        matches!(
            n.kind(),
            SyntaxKind::INSTRUCTION
                | SyntaxKind::LABEL_DEF
                | SyntaxKind::VAR_DECL
                | SyntaxKind::BLOCK
                | SyntaxKind::LOC_DIRECTIVE
                | SyntaxKind::PRAGMA_DIRECTIVE
                | SyntaxKind::CALL_PROTOTYPE
                | SyntaxKind::CALL_TARGETS
                | SyntaxKind::BRANCH_TARGETS
        )
    })
}

/// What lowering needs to know of a body before lowering it.
#[derive(Default)]
struct BodyScan<'a> {
    /// The labels that start blocks, anywhere in the body (for uses before
    /// the definition), keyed by the block defining them and their name.
    labels: FxHashMap<LabelKey<'a>, Label>,
    /// The number of instructions (to size the arena).
    instructions: usize,
    /// The number of `{ }` blocks seen, the body included (pre-order).
    blocks: u32,
}

impl<'a> BodyScan<'a> {
    /// Scans one block and the blocks nested in it (the parser puts a `BLOCK`
    /// only in a function or directly in a `BLOCK`), numbering the blocks in
    /// the order [`FnLowerer::lower_block`] enters them.
    fn block(&mut self, block: Node<'a>) {
        let scope = self.blocks;
        self.blocks += 1;
        let mut statements = statements(block).peekable();
        while let Some(stmt) = statements.next() {
            match stmt.kind() {
                SyntaxKind::INSTRUCTION => self.instructions += 1,
                SyntaxKind::LABEL_DEF if !names_a_declaration(statements.peek().copied()) => {
                    if let Some(name) = stmt.child(SyntaxKind::NAME) {
                        let key = (scope, name_str(Some(name)));
                        self.labels.entry(key).or_default().starts_block = true;
                    }
                }
                SyntaxKind::BLOCK => self.block(stmt),
                _ => {}
            }
        }
    }

    /// Gives a label defined in several blocks the flat name `<name>_s<N>`
    /// (the first `N` no label of the function is named) in every block but
    /// the first.
    fn assign_flat_names(&mut self) {
        let mut keys: Vec<LabelKey<'a>> = self.labels.keys().copied().collect();
        if keys.len() < 2 {
            return;
        }
        keys.sort_unstable();
        let mut taken: rustc_hash::FxHashSet<String> =
            keys.iter().map(|(_, name)| name.to_string()).collect();
        let mut seen: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
        for key in keys {
            if seen.insert(key.1) {
                continue;
            }
            let mut n = 1u32;
            let flat = loop {
                let candidate = format!("{}_s{n}", key.1);
                if taken.insert(candidate.clone()) {
                    break candidate;
                }
                n += 1;
            };
            if let Some(label) = self.labels.get_mut(&key) {
                label.flat = Some(flat);
            }
        }
    }
}

/// A label: the number of the block defining it (see [`BodyScan::block`]) and
/// its source name.
type LabelKey<'a> = (u32, &'a str);

/// Whether a label followed by `next` names a prototype or target list.
fn names_a_declaration(next: Option<Node<'_>>) -> bool {
    next.is_some_and(|n| {
        matches!(
            n.kind(),
            SyntaxKind::CALL_PROTOTYPE | SyntaxKind::CALL_TARGETS | SyntaxKind::BRANCH_TARGETS
        )
    })
}

/// The name of a `LABEL_DEF`, or `""`.
fn label_name(label: Node<'_>) -> &str {
    name_str(label.child(SyntaxKind::NAME))
}

/// What a source name used as an operand resolves to in the scopes.
pub(super) enum Resolved {
    Reg(RegId),
    /// A non-register declaration, by flat name.
    Symbol(String),
    /// Not declared in the function.
    None,
}

/// What lowering knows of a label name.
#[derive(Default)]
struct Label {
    /// Whether a `LABEL_DEF` of the body defines it as the start of a block
    /// (known before lowering: labels may be used before their definition).
    starts_block: bool,
    /// Whether its definition was lowered already.
    defined: bool,
    /// Its block, allocated on first mention.
    block: Option<BlockId>,
    /// Its first use as a target (to report it if it is never defined).
    first_use: Option<TextRange>,
    /// Its name in the function when not its source name (see
    /// [`BodyScan::assign_flat_names`]).
    flat: Option<String>,
}

/// The state of lowering one function whose syntax and module context live
/// for `'a`.
pub(crate) struct FnLowerer<'a> {
    pub(super) ctx: &'a ModuleContext,
    /// Start of the function node: instruction ranges are relative to it.
    base: TextSize,
    pub(super) f: Function,
    pub(super) errors: Vec<LowerError>,
    pub(super) scopes: Scopes,
    /// Every label of the body and every name used as a branch target.
    labels: FxHashMap<LabelKey<'a>, Label>,
    /// The numbers of the open `{ }` blocks, innermost last, and the number
    /// of blocks entered so far (see [`BodyScan::block`]).
    label_scopes: Vec<u32>,
    blocks_entered: u32,
    reg_ids: FxHashMap<(RegDeclId, Option<u32>), RegId>,
    /// The block instructions are appended to; `None` after a terminator.
    current: Option<BlockId>,
    /// The `.loc`s in effect, and whether no instruction followed the last one
    /// yet (so a further `.loc` extends the chain).
    locs: Vec<Loc>,
    /// `locs` shared, made at the first instruction after it changed.
    shared_locs: Option<Locs>,
    locs_open: bool,
    /// The register each source name resolved to, valid while the scopes are
    /// at generation `reg_names_generation`.
    reg_names: FxHashMap<&'a str, RegId>,
    reg_names_generation: u64,
    /// The interned opcode of each opcode seen, keyed by its words separated
    /// by spaces (`ld .global .f32`), and the buffer the key is built in.
    families: FxHashMap<String, Opcode>,
    opcode_key: String,
    /// The `ptxopt:` comments of the body not yet given to a block, in
    /// reverse source order (the next one last), and the block of the last
    /// label or instruction lowered.
    annotations: Vec<Annotation>,
    last_block: Option<BlockId>,
}

/// A `ptxopt:` comment: where it starts, whether it is alone on its line,
/// and its text after `ptxopt:`.
struct Annotation {
    offset: TextSize,
    standing: bool,
    text: String,
}

/// The `ptxopt:` comments of a body, last first.
fn annotations_of(body: Node<'_>) -> Vec<Annotation> {
    let mut found = Vec::new();
    let mut line_has_code = false;
    body.for_each_token(&mut |t| match t.kind() {
        SyntaxKind::WHITESPACE => {
            if t.text().contains('\n') {
                line_has_code = false;
            }
        }
        SyntaxKind::COMMENT => {
            let text = t.text();
            let inner = text
                .strip_prefix("//")
                .or_else(|| text.strip_prefix("/*").map(|r| r.trim_end_matches("*/")))
                .unwrap_or(text)
                .trim_start();
            if let Some(rest) = inner.strip_prefix("ptxopt:") {
                found.push(Annotation {
                    offset: t.range().start(),
                    standing: !line_has_code,
                    text: rest.trim().to_string(),
                });
            }
        }
        _ => line_has_code = true,
    });
    found.reverse();
    found
}

impl<'a> FnLowerer<'a> {
    fn new(ctx: &'a ModuleContext, base: TextSize, f: Function) -> FnLowerer<'a> {
        FnLowerer {
            ctx,
            base,
            f,
            errors: Vec::new(),
            scopes: Scopes::default(),
            labels: FxHashMap::default(),
            label_scopes: Vec::new(),
            blocks_entered: 0,
            reg_ids: FxHashMap::default(),
            current: None,
            locs: Vec::new(),
            shared_locs: None,
            locs_open: false,
            reg_names: FxHashMap::default(),
            reg_names_generation: 0,
            families: FxHashMap::default(),
            opcode_key: String::new(),
            annotations: Vec::new(),
            last_block: None,
        }
    }

    /// Gives the `ptxopt:` comments before a statement starting at `start`
    /// to their blocks: one after the previous statement on its line to that
    /// statement's block, one on a line of its own to `block`, the block of
    /// the statement (a label or an instruction).
    fn take_annotations(&mut self, start: TextSize, block: BlockId) {
        while self.annotations.last().is_some_and(|a| a.offset < start) {
            let Some(a) = self.annotations.pop() else {
                break;
            };
            let to = match self.last_block {
                Some(prev) if !a.standing => prev,
                _ => block,
            };
            self.f.blocks[to].annotations.push(a.text);
        }
        self.last_block = Some(block);
    }

    /// The `ptxopt:` comments after the last statement: on its line, they
    /// belong to its block; alone on a line, to nothing.
    fn flush_trailing_annotations(&mut self) {
        while let Some(a) = self.annotations.pop() {
            if let (false, Some(prev)) = (a.standing, self.last_block) {
                self.f.blocks[prev].annotations.push(a.text);
            }
        }
    }

    pub(super) fn error(&mut self, range: TextRange, message: impl Into<String>) {
        self.errors.push(LowerError {
            range,
            message: message.into(),
        });
    }

    /// Parameters form the outermost scope: `.reg` ones are registers, the
    /// others symbols.
    fn declare_params(&mut self) {
        self.scopes.push();
        let sig = &self.f.sig;
        let params: Vec<_> = sig
            .ret_params
            .iter()
            .flatten()
            .chain(&sig.params)
            .cloned()
            .collect();
        for p in params {
            if p.name.is_empty() {
                continue;
            }
            let flat = self.scopes.reserve(&p.name, None);
            if p.space == ".reg" {
                let decl = self.f.reg_decls.alloc(RegDecl {
                    name: flat,
                    count: None,
                    ty: p.ty.as_str().into(),
                    vector: p.vector,
                    is_param: true,
                });
                self.scopes
                    .bind(&p.name, Binding::Reg { decl, index: None });
            } else {
                self.scopes.bind(&p.name, Binding::Symbol(flat));
            }
        }
    }

    fn finish(mut self) -> (Function, Vec<LowerError>) {
        let mut undefined: Vec<(&str, TextRange)> = self
            .labels
            .iter()
            .filter(|(_, label)| !label.defined)
            .filter_map(|((_, name), label)| Some((*name, label.first_use?)))
            .collect();
        undefined.sort_by_key(|(_, r)| r.start());
        for (name, range) in undefined {
            self.error(range, format!("label `{name}` is not defined"));
        }
        renumber_blocks(&mut self.f);
        (self.f, self.errors)
    }

    // ------------------------------------------------------------ statements

    fn lower_block(&mut self, block: Node<'a>) {
        self.scopes.push();
        self.label_scopes.push(self.blocks_entered);
        self.blocks_entered += 1;
        let mut statements = statements(block).peekable();
        while let Some(stmt) = statements.next() {
            if stmt.is(SyntaxKind::LABEL_DEF) {
                let next = statements.peek().copied();
                if let Some(decl) = next.filter(|&n| names_a_declaration(Some(n))) {
                    statements.next();
                    self.lower_named_declaration(stmt, decl);
                    continue;
                }
            }
            self.lower_statement(stmt);
        }
        self.label_scopes.pop();
        self.scopes.pop();
    }

    fn lower_statement(&mut self, stmt: Node<'a>) {
        match stmt.kind() {
            SyntaxKind::INSTRUCTION => self.lower_instruction(stmt),
            SyntaxKind::LABEL_DEF => self.define_label(stmt),
            SyntaxKind::VAR_DECL => self.lower_local_decl(stmt),
            SyntaxKind::BLOCK => self.lower_block(stmt),
            SyntaxKind::LOC_DIRECTIVE => self.add_loc(stmt),
            SyntaxKind::PRAGMA_DIRECTIVE => self.add_pragma(statement_tail(stmt, 1)),
            _ => {
                let range = stmt.significant_range();
                self.error(range, "declaration without a label");
            }
        }
    }

    fn define_label(&mut self, label: Node<'a>) {
        // A pragma the label follows directly was alone in its block.
        if let Some(c) = self.current {
            let blk = &mut self.f.blocks[c];
            if blk.insts.is_empty() && !blk.pragmas.is_empty() {
                blk.pragma_alone = true;
            }
        }
        let name = label_name(label);
        let key = (self.label_scopes.last().copied().unwrap_or(0), name);
        let state = self.labels.entry(key).or_default();
        let block = if !std::mem::replace(&mut state.defined, true) {
            self.label_block(key)
        } else {
            self.error(
                label.significant_range(),
                format!("label `{name}` defined twice"),
            );
            let renamed = format!("{name}_s{}", self.f.blocks.len());
            self.f.blocks.alloc(Block {
                label: Some(renamed),
                ..Block::default()
            })
        };
        self.f.layout.push(block);
        self.current = Some(block);
        if !self.annotations.is_empty() {
            self.take_annotations(label.significant_range().start(), block);
        }
    }

    /// The block of a label, allocated on first mention.
    fn label_block(&mut self, key: LabelKey<'a>) -> BlockId {
        let label = self.labels.entry(key).or_default();
        *label.block.get_or_insert_with(|| {
            let name = label.flat.clone().unwrap_or_else(|| key.1.to_string());
            self.f.blocks.alloc(Block {
                label: Some(name),
                ..Block::default()
            })
        })
    }

    /// The label `name` visible here: the one of the innermost open block
    /// that defines it, else (undefined) the function body's.
    fn visible_label(&self, name: &'a str) -> Option<LabelKey<'a>> {
        self.label_scopes
            .iter()
            .rev()
            .map(|&scope| (scope, name))
            .find(|key| self.labels.get(key).is_some_and(|l| l.starts_block))
    }

    /// Whether `name` is a label visible here.
    pub(super) fn is_label(&self, name: &'a str) -> bool {
        self.visible_label(name).is_some()
    }

    /// A label used as an operand (so it must be defined somewhere).
    pub(super) fn use_label(&mut self, name: &'a str, range: TextRange) -> BlockId {
        let key = self
            .visible_label(name)
            .unwrap_or((self.label_scopes.first().copied().unwrap_or(0), name));
        let label = self.labels.entry(key).or_default();
        label.first_use.get_or_insert(range);
        self.label_block(key)
    }

    /// The block to append to: the current one, or a new unlabeled one.
    fn current_block(&mut self) -> BlockId {
        match self.current {
            Some(b) => b,
            None => self.new_unlabeled_block(),
        }
    }

    fn new_unlabeled_block(&mut self) -> BlockId {
        let b = self.f.blocks.alloc(Block::default());
        self.f.layout.push(b);
        self.current = Some(b);
        b
    }

    fn add_loc(&mut self, node: Node<'a>) {
        let Some(loc) = lower_loc(node) else {
            return self.error(node.significant_range(), "malformed `.loc`");
        };
        if !self.locs_open {
            self.locs.clear();
        }
        self.locs.push(loc);
        self.shared_locs = None;
        self.locs_open = true;
    }

    fn add_pragma(&mut self, text: String) {
        let block = match self.current {
            Some(b) if self.f.blocks[b].insts.is_empty() => b,
            _ => self.new_unlabeled_block(),
        };
        self.f.blocks[block].pragmas.push(text);
    }

    // ---------------------------------------------------------- declarations

    fn lower_local_decl(&mut self, decl: Node<'a>) {
        let range = decl.significant_range();
        let parts = match lower_var_decl(decl) {
            Ok(parts) => parts,
            Err(e) => return self.error(range, format!("declaration not lowered: {e}")),
        };
        if parts.decl.space == ".reg" {
            for (var, count) in parts.decl.vars.iter().zip(&parts.counts) {
                self.declare_reg(&var.name, *count, &parts.decl.ty, parts.decl.vector, range);
            }
            return;
        }
        let mut decl = parts.decl;
        for var in &mut decl.vars {
            var.name = self.declare_symbol(&var.name, range);
        }
        self.f.locals.push(LocalDecl::Var(decl));
    }

    fn declare_reg(
        &mut self,
        name: &str,
        count: Option<u32>,
        ty: &str,
        vector: Option<u32>,
        range: TextRange,
    ) {
        if self.scopes.declared_here(name, count) {
            self.error(
                range,
                format!("`{name}` is declared twice in the same scope"),
            );
        }
        let flat = self.scopes.reserve(name, count);
        let decl = self.f.reg_decls.alloc(RegDecl {
            name: flat,
            count,
            ty: ty.into(),
            vector,
            is_param: false,
        });
        match count {
            Some(c) => self.scopes.bind_range(name, c, decl),
            None => self.scopes.bind(name, Binding::Reg { decl, index: None }),
        }
    }

    /// Declares a non-register name in the innermost scope; returns its flat name.
    fn declare_symbol(&mut self, name: &str, range: TextRange) -> String {
        if self.scopes.declared_here(name, None) {
            self.error(
                range,
                format!("`{name}` is declared twice in the same scope"),
            );
        }
        let flat = self.scopes.reserve(name, None);
        self.scopes.bind(name, Binding::Symbol(flat.clone()));
        flat
    }

    /// `name: .callprototype ...`, `name: .calltargets ...`, `name: .branchtargets ...`.
    fn lower_named_declaration(&mut self, label: Node<'a>, stmt: Node<'a>) {
        let range = stmt.significant_range();
        let source_name = label_name(label);
        let name = self.declare_symbol(source_name, range);
        let targets = stmt.children().filter(|t| t.is(SyntaxKind::NAME_REF));
        let local = match stmt.kind() {
            SyntaxKind::CALL_PROTOTYPE => LocalDecl::CallPrototype {
                name,
                text: statement_tail(stmt, 0),
            },
            SyntaxKind::CALL_TARGETS => LocalDecl::CallTargets {
                name,
                targets: targets.map(|t| name_ref_text(t).to_string()).collect(),
            },
            SyntaxKind::BRANCH_TARGETS => {
                let targets = targets
                    .map(|t| self.use_label(name_ref_text(t), t.significant_range()))
                    .collect();
                LocalDecl::BranchTargets { name, targets }
            }
            _ => return,
        };
        self.f.locals.push(local);
    }

    /// What `name` resolves to in the scopes (registers memoized until the
    /// scopes change).
    pub(super) fn resolve(&mut self, name: &'a str) -> Resolved {
        if self.reg_names_generation != self.scopes.generation() {
            self.reg_names.clear();
            self.reg_names_generation = self.scopes.generation();
        }
        if let Some(&reg) = self.reg_names.get(name) {
            return Resolved::Reg(reg);
        }
        match self.scopes.lookup(name) {
            Some(Binding::Reg { decl, index }) => {
                let reg = self.reg_for(decl, index);
                self.reg_names.insert(name, reg);
                Resolved::Reg(reg)
            }
            Some(Binding::Symbol(flat)) => Resolved::Symbol(flat),
            None => Resolved::None,
        }
    }

    /// The register for a declaration and index, created on first use.
    pub(super) fn reg_for(&mut self, decl: RegDeclId, index: Option<u32>) -> RegId {
        if let Some(&r) = self.reg_ids.get(&(decl, index)) {
            return r;
        }
        let d = &self.f.reg_decls[decl];
        let reg = Reg {
            name: reg_name(&d.name, index).into(),
            ty: d.ty.clone(),
            vector: d.vector,
            class: RegClass::of(&d.ty, d.vector),
            decl: Some(decl),
            index,
        };
        let r = self.f.regs.alloc(reg);
        self.reg_ids.insert((decl, index), r);
        r
    }

    // ---------------------------------------------------------- instructions

    /// Lowers an `OPCODE` node; the interned opcode is looked up once per
    /// distinct opcode of the function.
    fn lower_opcode(&mut self, opcode: Node<'_>) -> Option<Opcode> {
        let name = opcode.token(SyntaxKind::IDENT)?.text();
        // The key: the word, then each modifier after a space; the bank of
        // `ld.const[1]` stays with its `.const`.
        let key = &mut self.opcode_key;
        key.clear();
        key.push_str(name);
        for t in opcode.tokens() {
            match t.kind() {
                SyntaxKind::DOT_IDENT => {
                    key.push(' ');
                    key.push_str(t.text());
                }
                SyntaxKind::L_BRACK | SyntaxKind::INT_NUMBER | SyntaxKind::R_BRACK => {
                    key.push_str(t.text())
                }
                _ => {}
            }
        }
        if let Some(&op) = self.families.get(key.as_str()) {
            return Some(op);
        }
        let modifiers: Vec<String> = key.split(' ').skip(1).map(str::to_string).collect();
        let op = Opcode::new(name, modifiers);
        self.families.insert(key.clone(), op);
        Some(op)
    }

    fn lower_instruction(&mut self, inst: Node<'a>) {
        let range = inst.significant_range();
        // `GUARD? OPCODE operand*`: the parser puts a guard only before the
        // opcode, so one walk up to the opcode finds both.
        let mut children = inst.children();
        let mut guard = None;
        let opcode = loop {
            match children.next() {
                Some(n) if n.is(SyntaxKind::OPCODE) => break Some(n),
                Some(n) if n.is(SyntaxKind::GUARD) => {
                    guard.get_or_insert(n);
                }
                Some(_) => {}
                None => break None,
            }
        };
        let Some(opcode) = opcode.and_then(|o| self.lower_opcode(o)) else {
            return self.error(range, "instruction without an opcode");
        };
        let guard = guard.and_then(|g| self.lower_guard(g));
        let operands = self.lower_operands(children);
        let lowered = Inst {
            guard,
            opcode,
            operands,
            locs: self
                .shared_locs
                .get_or_insert_with(|| self.locs.clone().into())
                .clone(),
            range: relative(range, self.base),
        };
        let terminator = lowered.is_terminator();
        self.locs_open = false;
        let block = self.current_block();
        if !self.annotations.is_empty() {
            self.take_annotations(range.start(), block);
        }
        let id = self.f.insts.alloc(lowered);
        // A lowered instruction is its own origin.
        self.f.origins.insert(id, id);
        self.f.blocks[block].insts.push(id);
        if terminator {
            self.current = None;
        }
    }

    fn lower_guard(&mut self, guard: Node<'a>) -> Option<Guard> {
        let range = guard.significant_range();
        let name = name_ref_text(guard.child(SyntaxKind::NAME_REF)?);
        match self.resolve(name) {
            Resolved::Reg(reg) => Some(Guard {
                reg,
                negated: guard.token(SyntaxKind::BANG).is_some(),
            }),
            _ => {
                self.error(range, format!("guard `{name}` is not a declared register"));
                None
            }
        }
    }
}

fn lower_loc(loc: Node<'_>) -> Option<Loc> {
    let mut ints = loc.tokens().filter(|t| t.is(SyntaxKind::INT_NUMBER));
    let mut next = || ints.next()?.text().parse::<u32>().ok();
    let (file, line, col) = (next()?, next()?, next()?);
    // `.loc`, three numbers, then an optional `, function_name ..., inlined_at ...`.
    let tail = normalized_text_after(loc, 4);
    let tail = tail.trim_start_matches(',').trim();
    let inlined = (!tail.is_empty()).then(|| tail.to_string());
    Some(Loc {
        file,
        line,
        col,
        inlined,
    })
}

/// The name of register `index` of a declaration named `decl` (what
/// `RegDecl::reg_name` gives, without the formatting machinery).
fn reg_name(decl: &str, index: Option<u32>) -> String {
    let Some(index) = index else {
        return decl.to_string();
    };
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut rest = index;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut name = String::with_capacity(decl.len() + digits.len() - start);
    name.push_str(decl);
    name.extend(digits[start..].iter().map(|&d| char::from(d)));
    name
}

/// Reallocates the blocks in layout order (blocks of undefined labels last) and
/// rewrites every block reference.
fn renumber_blocks(f: &mut Function) {
    let old: Vec<Block> = std::mem::take(&mut f.blocks).into_values().collect();
    let mut order: Vec<usize> = f
        .layout
        .iter()
        .map(|b| b.into_raw().into_u32() as usize)
        .collect();
    let mut placed = vec![false; old.len()];
    order.iter().for_each(|&i| placed[i] = true);
    order.extend((0..old.len()).filter(|&i| !placed[i]));
    let mut slots: Vec<Option<Block>> = old.into_iter().map(Some).collect();
    let mut map = vec![None; slots.len()];
    for &i in &order {
        if let Some(block) = slots[i].take() {
            map[i] = Some(f.blocks.alloc(block));
        }
    }
    let remap = |b: BlockId| map[b.into_raw().into_u32() as usize].unwrap_or(b);
    f.layout = f.layout.iter().map(|&b| remap(b)).collect();
    for (_, inst) in f.insts.iter_mut() {
        inst.operands
            .iter_mut()
            .for_each(|op| op.map_labels(&mut |b| remap(b)));
    }
    for local in &mut f.locals {
        if let LocalDecl::BranchTargets { targets, .. } = local {
            targets.iter_mut().for_each(|b| *b = remap(*b));
        }
    }
}
