//! The hand-written recursive-descent PTX parser.
//!
//! It builds the rowan green tree directly (no intermediate event list), with
//! trivia attached eagerly to whichever node is open when the next significant
//! token is reached, so every byte of the input ends up in the tree. It never
//! fails: on unexpected input it records an error and skips to a recovery point
//! (the end of the statement or line inside a body; the next top-level directive
//! at module level), wrapping what it skipped in an `ERROR` node.

use rowan::{GreenNode, TextRange, TextSize};

use crate::lexer::{tokenize, Token};
use crate::tree_builder::{Checkpoint, TreeBuilder};
use crate::SyntaxKind::{self, *};

/// A syntax error: a byte range in the input and a message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
}

/// Parses a whole PTX module. Returns the green tree (whose text equals `text`)
/// and the syntax errors found.
pub fn parse_source(text: &str) -> (GreenNode, Vec<SyntaxError>) {
    let (tokens, lex_errors) = tokenize(text);
    let mut errors: Vec<SyntaxError> = lex_errors
        .into_iter()
        .map(|e| SyntaxError {
            range: TextRange::at(e.offset.into(), e.len.into()),
            message: e.message.to_string(),
        })
        .collect();
    let mut p = Parser {
        text,
        tokens,
        pos: 0,
        offset: 0,
        prev_end: 0,
        newline_before: true,
        builder: TreeBuilder::new(text.len()),
        errors: Vec::new(),
        depth: 0,
        skipped_to: usize::MAX,
    };
    p.source_file();
    errors.append(&mut p.errors);
    errors.sort_by_key(|e| e.range.start());
    (p.builder.finish(), errors)
}

struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Index of the next unconsumed token.
    pos: usize,
    /// Byte offset of `tokens[pos]`.
    offset: usize,
    /// Byte offset just past the last significant token consumed.
    prev_end: usize,
    /// Whether a newline lies between the previous significant token and the
    /// current one (after `eat_trivia`).
    newline_before: bool,
    builder: TreeBuilder<'t>,
    errors: Vec<SyntaxError>,
    /// How many nested blocks, initializer lists and expression nodes
    /// enclose the current token (see [`MAX_NESTING`]).
    depth: u32,
    /// The token where the last skip of a too-deep construct stopped: the
    /// enclosing constructs' complaints there (a missing `)`, `:` or `}`)
    /// are consequences of that one error and are not reported.
    skipped_to: usize,
}

/// The deepest nesting the parser builds: blocks, initializer braces,
/// parentheses, brackets, vectors, argument lists, unary and binary operators
/// (each operator of a chain such as `1+1+1` nests the previous ones) all
/// count. Deeper input is an error ("nested too deeply") and its innermost
/// part is kept flat in an `ERROR` node, so every tree has a bounded depth and
/// every recursive walk of it (checks, lowering, constant evaluation,
/// formatting, dropping the tree) a bounded stack: 256 levels take well under
/// 1 MiB of stack in a debug build.
///
/// ptxas's own parser stack is exhausted by about 1,660 nested blocks or a few
/// thousand unary operators; a chain of binary operators it reads at any
/// length. Nothing close to 256 levels appears in real PTX (compilers nest a
/// few blocks and short address expressions), so this is the one deliberate
/// exception to "never reject what ptxas accepts".
pub const MAX_NESTING: u32 = 256;

/// Directives that start a top-level item; in a body they mean a missing `}`.
fn is_module_only_directive(text: &str) -> bool {
    matches!(
        text,
        ".entry"
            | ".func"
            | ".version"
            | ".target"
            | ".address_size"
            | ".visible"
            | ".weak"
            | ".common"
            | ".section"
            | ".alias"
    )
}

fn is_linkage(text: &str) -> bool {
    matches!(text, ".visible" | ".extern" | ".weak" | ".common")
}

fn is_state_space(text: &str) -> bool {
    matches!(
        text,
        ".reg"
            | ".sreg"
            | ".const"
            | ".global"
            | ".local"
            | ".param"
            | ".shared"
            | ".tex"
            | ".texref"
            | ".samplerref"
            | ".surfref"
    )
}

fn is_perf_directive(text: &str) -> bool {
    matches!(
        text,
        ".maxntid"
            | ".reqntid"
            | ".minnctapersm"
            | ".maxnctapersm"
            | ".maxnreg"
            | ".maxclusterrank"
            | ".reqnctapercluster"
            | ".explicitcluster"
            | ".blocksareclusters"
            | ".noreturn"
            | ".abi_preserve"
            | ".abi_preserve_control"
            | ".pragma"
    )
}

/// Binding power of a binary operator, or None.
fn binary_power(kind: SyntaxKind) -> Option<u8> {
    Some(match kind {
        STAR | SLASH | PERCENT => 10,
        PLUS | MINUS => 9,
        SHL | SHR => 8,
        LT | GT | LTEQ | GTEQ => 7,
        EQ2 | NEQ => 6,
        AMP => 5,
        CARET => 4,
        PIPE => 3,
        AMP2 => 2,
        PIPE2 => 1,
        _ => return None,
    })
}

impl<'t> Parser<'t> {
    // ---------------------------------------------------------------- plumbing

    /// Moves trivia tokens into the currently open node.
    #[inline(always)]
    fn eat_trivia(&mut self) {
        // Fast path: almost every call finds a significant token (or EOF).
        match self.tokens.get(self.pos) {
            Some(tok) if tok.kind.is_trivia() => self.eat_trivia_slow(),
            _ => {}
        }
    }

    #[inline(never)]
    fn eat_trivia_slow(&mut self) {
        while let Some(tok) = self.tokens.get(self.pos) {
            if !tok.kind.is_trivia() {
                break;
            }
            let end = self.offset + tok.len as usize;
            self.newline_before |= tok.has_newline;
            self.builder.token(tok.kind, &self.text[self.offset..end]);
            self.offset = end;
            self.pos += 1;
        }
    }

    /// The kind of the current significant token (EOF: None).
    #[inline]
    fn current(&mut self) -> Option<SyntaxKind> {
        self.eat_trivia();
        self.tokens.get(self.pos).map(|t| t.kind)
    }

    #[inline]
    fn at(&mut self, kind: SyntaxKind) -> bool {
        self.current() == Some(kind)
    }

    /// Text of the current significant token ("" at EOF).
    #[inline]
    fn current_text(&mut self) -> &'t str {
        self.eat_trivia();
        match self.tokens.get(self.pos) {
            Some(t) => &self.text[self.offset..self.offset + t.len as usize],
            None => "",
        }
    }

    /// Kind of the n-th significant token after the current one (0 = current).
    fn nth(&mut self, n: usize) -> Option<SyntaxKind> {
        self.eat_trivia();
        let mut seen = 0;
        for tok in &self.tokens[self.pos..] {
            if tok.kind.is_trivia() {
                continue;
            }
            if seen == n {
                return Some(tok.kind);
            }
            seen += 1;
        }
        None
    }

    /// Text of the n-th significant token after the current one.
    fn nth_text(&mut self, n: usize) -> &'t str {
        self.eat_trivia();
        let mut seen = 0;
        let mut offset = self.offset;
        for tok in &self.tokens[self.pos..] {
            let end = offset + tok.len as usize;
            if !tok.kind.is_trivia() {
                if seen == n {
                    return &self.text[offset..end];
                }
                seen += 1;
            }
            offset = end;
        }
        ""
    }

    /// Whether the current token directly follows the previous one (no trivia).
    #[inline]
    fn adjacent(&self) -> bool {
        self.offset == self.prev_end
            && self
                .tokens
                .get(self.pos)
                .is_some_and(|t| !t.kind.is_trivia())
    }

    /// Whether the current token starts a new line (or is EOF).
    #[inline]
    fn at_line_start(&mut self) -> bool {
        self.eat_trivia();
        self.newline_before || self.pos >= self.tokens.len()
    }

    /// Whether the current token, at the start of a line, clearly begins a new
    /// statement (so a `;` is missing before it): a guard `@`, a directive, a label
    /// `name:`, or an opcode word followed directly by a modifier (`add.s32`) or
    /// known as an opcode on its own (`ret`). PTX is free-form, so operands may
    /// continue on the next line; anything else is taken as a continuation.
    fn at_new_statement(&mut self) -> bool {
        if !self.at_line_start() {
            return false;
        }
        match self.current() {
            None | Some(AT) | Some(DOT_IDENT) | Some(R_CURLY) => true,
            Some(IDENT) => {
                let text = self.current_text();
                if text.starts_with('%') {
                    return false;
                }
                if self.nth(1) == Some(COLON) {
                    return true;
                }
                let next_adjacent_modifier = self
                    .tokens
                    .get(self.pos + 1)
                    .is_some_and(|t| t.kind == DOT_IDENT);
                (next_adjacent_modifier || self.nth(1) == Some(SEMICOLON))
                    && ptx_isa::is_known_opcode(text)
                    || next_adjacent_modifier && !text.starts_with('$')
            }
            _ => false,
        }
    }

    #[inline]
    fn bump(&mut self) {
        self.eat_trivia();
        if let Some(&tok) = self.tokens.get(self.pos) {
            let end = self.offset + tok.len as usize;
            // SAFETY-free fast slice: token boundaries are char boundaries (lexer).
            let text = self.text.get(self.offset..end).unwrap_or_default();
            self.builder.token(tok.kind, text);
            self.offset = end;
            self.prev_end = end;
            self.pos += 1;
            self.newline_before = false;
        }
    }

    fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    #[inline]
    fn start(&mut self, kind: SyntaxKind) {
        self.eat_trivia();
        self.builder.start_node(kind);
    }

    #[inline]
    fn finish(&mut self) {
        self.builder.finish_node();
    }

    #[inline]
    fn checkpoint(&mut self) -> Checkpoint {
        self.eat_trivia();
        self.builder.checkpoint()
    }

    fn error_range(&mut self, range: TextRange, message: impl Into<String>) {
        self.errors.push(SyntaxError {
            range,
            message: message.into(),
        });
    }

    /// Reports an error at the current token (just after the previous token at EOF).
    /// A lexer error token was reported already and is not reported again.
    fn error(&mut self, message: impl Into<String>) {
        self.eat_trivia();
        if self.pos == self.skipped_to {
            return;
        }
        let range = match self.tokens.get(self.pos) {
            Some(t) if t.kind == ERROR_TOKEN => return,
            Some(t) => TextRange::at(TextSize::from(self.offset as u32), t.len.into()),
            None => TextRange::empty(TextSize::from(self.prev_end as u32)),
        };
        self.error_range(range, message);
    }

    /// Reports that something is missing: at the current token, or just after the
    /// previous token when the current one is on a new line or at EOF (where the
    /// missing thing belongs).
    fn error_missing(&mut self, message: impl Into<String>) {
        self.eat_trivia();
        if self.pos == self.skipped_to {
            return;
        }
        if self.at_line_start() {
            let range = TextRange::empty(TextSize::from(self.prev_end as u32));
            self.error_range(range, message);
        } else {
            self.error(message);
        }
    }

    fn describe_current(&mut self) -> String {
        match self.current() {
            None => "end of file".to_string(),
            Some(_) => format!("`{}`", self.current_text()),
        }
    }

    fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        if self.eat(kind) {
            return true;
        }
        let found = self.describe_current();
        self.error_missing(format!("expected {what}, found {found}"));
        false
    }

    /// Enters one level of nesting; at [`MAX_NESTING`], reports the error,
    /// skips the construct starting at the current token flat
    /// ([`Parser::skip_nested`]) and returns false (nothing entered).
    fn enter(&mut self) -> bool {
        if self.depth < MAX_NESTING {
            self.depth += 1;
            return true;
        }
        self.error(format!(
            "nested too deeply (more than {MAX_NESTING} levels of blocks, braces, brackets, parentheses or operators)"
        ));
        self.skip_nested();
        false
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips, into one flat ERROR node, the tokens from the current one to
    /// the end of the construct: brackets of every kind are counted, and the
    /// skip stops before a `;` or `,` outside them, before a closer without
    /// its opener, at a directive that starts a function, or at the end.
    fn skip_nested(&mut self) {
        self.start(ERROR);
        let mut open = 0u32;
        while let Some(kind) = self.current() {
            match kind {
                L_PAREN | L_BRACK | L_CURLY => open += 1,
                R_PAREN | R_BRACK | R_CURLY => {
                    if open == 0 {
                        break;
                    }
                    open -= 1;
                }
                SEMICOLON | COMMA if open == 0 => break,
                DOT_IDENT if self.at_line_start() => {
                    let text = self.current_text();
                    if is_module_only_directive(text) {
                        break;
                    }
                }
                _ => {}
            }
            self.bump();
            if open == 0 && kind == R_CURLY {
                break;
            }
        }
        self.finish();
        self.eat_trivia();
        self.skipped_to = self.pos;
    }

    /// Skips tokens into an ERROR node until `;` (consumed), `}` or a new line
    /// (not consumed).
    fn skip_rest_of_statement(&mut self) {
        self.start(ERROR);
        let mut first = true;
        while let Some(kind) = self.current() {
            if kind == R_CURLY || (!first && self.at_line_start()) {
                break;
            }
            self.bump();
            first = false;
            if kind == SEMICOLON {
                break;
            }
        }
        self.finish();
    }

    /// Skips the rest of the current line (not consuming the next line's tokens).
    fn skip_rest_of_line(&mut self) {
        if self.current().is_none() || self.at_line_start() {
            return;
        }
        self.start(ERROR);
        while self.current().is_some() && !self.at_line_start() {
            self.bump();
        }
        self.finish();
    }

    /// Expects the `;` that ends a statement.
    fn expect_semicolon(&mut self, after: &str) {
        if self.eat(SEMICOLON) {
            return;
        }
        if self.at_new_statement() || self.at(R_CURLY) {
            self.error_missing(format!("expected ';' after {after}"));
            return;
        }
        let found = self.describe_current();
        self.error(format!("expected ';' after {after}, found {found}"));
        self.skip_rest_of_statement();
    }

    // ------------------------------------------------------------- module level

    fn source_file(&mut self) {
        // Not `start`: leading trivia must go inside the root.
        self.builder.start_node(SOURCE_FILE);
        while let Some(kind) = self.current() {
            match kind {
                DOT_IDENT => self.module_directive(),
                SEMICOLON => {
                    // A stray `;` is harmless to ptxas; keep it without complaint.
                    self.bump();
                }
                _ => {
                    let found = self.describe_current();
                    self.error(format!(
                        "expected a directive at module level, found {found}"
                    ));
                    self.recover_module_level();
                }
            }
        }
        self.eat_trivia();
        self.finish();
    }

    /// Skips to the next line that starts with a directive, skipping balanced
    /// braces whole.
    fn recover_module_level(&mut self) {
        self.start(ERROR);
        let mut depth = 0usize;
        let mut first = true;
        while let Some(kind) = self.current() {
            if !first && depth == 0 && kind == DOT_IDENT && self.at_line_start() {
                break;
            }
            first = false;
            match kind {
                L_CURLY => depth += 1,
                R_CURLY => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
        self.finish();
    }

    fn module_directive(&mut self) {
        let text = self.current_text();
        match text {
            ".version" => self.line_directive(VERSION_DIRECTIVE, |p| {
                if !(p.eat(FLOAT_NUMBER) || p.eat(INT_NUMBER)) {
                    p.error("expected a version number like `8.3` after `.version`");
                }
            }),
            ".target" => self.line_directive(TARGET_DIRECTIVE, |p| {
                if p.expect(IDENT, "a target name like `sm_90`") {
                    while p.at(COMMA) && !p.at_line_start() {
                        p.bump();
                        p.expect(IDENT, "a target option");
                    }
                }
            }),
            ".address_size" => self.line_directive(ADDRESS_SIZE_DIRECTIVE, |p| {
                p.expect(INT_NUMBER, "`32` or `64` after `.address_size`");
            }),
            ".file" => self.line_directive(FILE_DIRECTIVE, |p| {
                p.expect(INT_NUMBER, "a file number after `.file`");
                p.expect(STRING, "a file name string");
                while p.at(COMMA) && !p.at_line_start() {
                    p.bump();
                    p.expect(INT_NUMBER, "a timestamp or file size");
                }
            }),
            ".loc" => self.loc_directive(),
            ".section" => self.section_directive(),
            ".pragma" => self.pragma_directive(),
            ".alias" => {
                self.start(ALIAS_DIRECTIVE);
                self.bump();
                self.name_or_error("an alias name");
                self.expect(COMMA, "`,`");
                self.name_ref_or_error("the aliased function");
                self.expect_semicolon("`.alias` directive");
                self.finish();
            }
            ".entry" | ".func" => {
                let cp = self.checkpoint();
                self.function(cp);
            }
            t if is_linkage(t) || is_state_space(t) => {
                // Linkage words may precede either a function or a variable.
                let cp = self.checkpoint();
                let mut n = 0;
                while is_linkage(self.nth_text(n)) {
                    n += 1;
                }
                if matches!(self.nth_text(n), ".entry" | ".func") {
                    self.function(cp);
                } else {
                    self.var_decl(cp);
                }
            }
            _ => self.unknown_directive(),
        }
    }

    /// A directive that occupies the rest of its line (`.version 8.3`).
    fn line_directive(&mut self, kind: SyntaxKind, body: impl FnOnce(&mut Self)) {
        self.start(kind);
        self.bump();
        if !self.at_line_start() {
            body(self);
        } else {
            self.error("expected a value after the directive");
        }
        self.eat(SEMICOLON);
        self.skip_rest_of_line();
        self.finish();
    }

    fn unknown_directive(&mut self) {
        let text = self.current_text();
        self.error(format!("unknown directive `{text}`"));
        self.start(UNKNOWN_DIRECTIVE);
        self.bump();
        let mut depth = 0usize;
        while let Some(kind) = self.current() {
            if depth == 0 && (kind == R_CURLY || (self.at_line_start() && kind == DOT_IDENT)) {
                break;
            }
            self.bump();
            match kind {
                L_CURLY => depth += 1,
                R_CURLY => depth -= 1,
                SEMICOLON if depth == 0 => break,
                _ => {}
            }
        }
        self.finish();
    }

    /// `.loc file line column [, function_name label [+ off]] [, inlined_at f l c]`
    fn loc_directive(&mut self) {
        self.start(LOC_DIRECTIVE);
        self.bump();
        for what in ["a file number", "a line number", "a column number"] {
            if self.at_line_start() || !self.eat(INT_NUMBER) {
                self.error(format!("expected {what} in `.loc`"));
                break;
            }
        }
        while !self.at_line_start() && self.eat(COMMA) {
            match self.current_text() {
                "function_name" => {
                    self.bump();
                    self.name_ref_or_error("a label after `function_name`");
                    if self.at(PLUS) && !self.at_line_start() {
                        self.bump();
                        self.expect(INT_NUMBER, "an offset");
                    }
                }
                "inlined_at" => {
                    self.bump();
                    for _ in 0..3 {
                        if self.at_line_start() || !self.eat(INT_NUMBER) {
                            self.error("expected `inlined_at file line column`");
                            break;
                        }
                    }
                }
                _ => {
                    let found = self.describe_current();
                    self.error(format!(
                        "expected `function_name` or `inlined_at` in `.loc`, found {found}"
                    ));
                    break;
                }
            }
        }
        self.skip_rest_of_line();
        self.finish();
    }

    /// `.section .debug_info { .b8 1, 2 \n label: ... }`
    fn section_directive(&mut self) {
        self.start(SECTION_DIRECTIVE);
        self.bump();
        if !(self.eat(DOT_IDENT) || self.eat(IDENT)) {
            self.error("expected a section name after `.section`");
        }
        if !self.expect(L_CURLY, "`{` to open the section") {
            self.skip_rest_of_line();
            self.finish();
            return;
        }
        loop {
            match self.current() {
                None => {
                    self.error("expected `}` to close the section");
                    break;
                }
                Some(R_CURLY) => {
                    self.bump();
                    break;
                }
                Some(IDENT) if self.nth(1) == Some(COLON) => self.label_def(),
                Some(DOT_IDENT) => {
                    self.start(SECTION_DATA);
                    self.bump();
                    if !self.at_line_start() && !self.at(R_CURLY) {
                        self.section_value();
                        while self.at(COMMA) {
                            self.bump();
                            self.section_value();
                        }
                    }
                    self.finish();
                }
                Some(_) => {
                    let found = self.describe_current();
                    self.error(format!("expected data in section, found {found}"));
                    // Always consume the offending token: the loop must progress.
                    self.start(ERROR);
                    self.bump();
                    while self.current().is_some() && !self.at_line_start() && !self.at(R_CURLY) {
                        self.bump();
                    }
                    self.finish();
                }
            }
        }
        self.finish();
    }

    /// A value in section data: an expression, or a section name (`.debug_abbrev`).
    fn section_value(&mut self) {
        if self.at(DOT_IDENT) {
            self.start(NAME_REF);
            self.bump();
            self.finish();
        } else {
            self.expr(false);
        }
    }

    fn pragma_directive(&mut self) {
        self.start(PRAGMA_DIRECTIVE);
        self.bump();
        if self.expect(STRING, "a string after `.pragma`") {
            while self.eat(COMMA) {
                self.expect(STRING, "a string");
            }
        }
        self.expect_semicolon("`.pragma` directive");
        self.finish();
    }

    // ---------------------------------------------------------------- functions

    fn function(&mut self, cp: Checkpoint) {
        self.builder.start_node_at(cp, FUNCTION);
        while is_linkage(self.current_text()) {
            self.bump();
        }
        let is_func = self.current_text() == ".func";
        self.bump(); // .entry / .func
        if is_func && self.at(L_PAREN) {
            self.start(RETURN_PARAMS);
            self.param_list_inner();
            self.finish();
        }
        self.name_or_error("a function name");
        if self.at(L_PAREN) {
            self.start(PARAM_LIST);
            self.param_list_inner();
            self.finish();
        }
        loop {
            let text = self.current_text();
            if self.at(DOT_IDENT) && is_perf_directive(text) {
                self.start(PERF_DIRECTIVE);
                self.bump();
                if text == ".pragma" {
                    while self.eat(STRING) && self.eat(COMMA) {}
                    self.eat(SEMICOLON);
                } else {
                    while self.at(INT_NUMBER) {
                        self.bump();
                        if !self.eat(COMMA) {
                            break;
                        }
                    }
                }
                self.finish();
            } else {
                break;
            }
        }
        match self.current() {
            Some(L_CURLY) => self.block(),
            Some(SEMICOLON) => self.bump(),
            // A `.func` prototype without its `;`, followed by the next
            // directive on a new line or by the end of the file: old nvcc and
            // nvopencc wrote these, and ptxas accepts them (not for `.entry`:
            // "Parsing error near '.func'").
            None if is_func => {}
            Some(DOT_IDENT) if is_func && self.at_line_start() => {}
            _ => {
                let found = self.describe_current();
                self.error(format!(
                    "expected a function body `{{` or `;`, found {found}"
                ));
                if self.current().is_some() && !self.at_line_start() {
                    self.skip_rest_of_statement();
                }
            }
        }
        self.finish();
    }

    /// `( param, param, ... )` — the caller opens the PARAM_LIST/RETURN_PARAMS node.
    fn param_list_inner(&mut self) {
        self.bump(); // (
        if self.eat(R_PAREN) {
            return;
        }
        loop {
            if matches!(self.current(), None | Some(L_CURLY) | Some(SEMICOLON)) {
                let found = self.describe_current();
                self.error_missing(format!(
                    "expected `)` to close the parameter list, found {found}"
                ));
                return;
            }
            self.param();
            if self.eat(COMMA) {
                continue;
            }
            if self.eat(R_PAREN) {
                break;
            }
            let found = self.describe_current();
            self.error(format!(
                "expected `,` or `)` in parameter list, found {found}"
            ));
            // Recover: skip to `)` on this or following lines, but not past a body.
            self.start(ERROR);
            while let Some(k) = self.current() {
                if k == L_CURLY || k == SEMICOLON {
                    break;
                }
                self.bump();
                if k == R_PAREN {
                    break;
                }
            }
            self.finish();
            break;
        }
    }

    fn param(&mut self) {
        self.start(PARAM);
        if !self.at(DOT_IDENT) {
            self.error("expected `.param` or `.reg` to start a parameter");
        }
        self.decl_words();
        self.declarator(false);
        self.finish();
    }

    /// The dotted words of a declaration: state space, `.align N`, `.ptr`, vector
    /// width and type.
    fn decl_words(&mut self) {
        while self.at(DOT_IDENT) {
            let text = self.current_text();
            self.bump();
            if text == ".align" && !self.eat(INT_NUMBER) {
                self.error("expected an alignment after `.align`");
            }
            if text == ".attribute" && self.at(L_PAREN) {
                self.attribute_list();
            }
            if text == ".const" {
                self.const_bank();
            }
        }
    }

    /// The `[N]` of an explicit constant bank, `.const[1]` (PTX ISA 1.5 to
    /// 2.1), written right after `.const`; kept as plain tokens.
    fn const_bank(&mut self) {
        if self.adjacent()
            && self.at(L_BRACK)
            && self.nth(1) == Some(INT_NUMBER)
            && self.nth(2) == Some(R_BRACK)
        {
            self.bump();
            self.bump();
            self.bump();
        }
    }

    /// The `( ... )` after `.attribute`: `(.managed)`, `(.unified(uuid1, uuid2))`,
    /// kept as plain tokens of the declaration.
    fn attribute_list(&mut self) {
        let mut depth = 0usize;
        while let Some(kind) = self.current() {
            match kind {
                L_PAREN => depth += 1,
                R_PAREN => depth = depth.saturating_sub(1),
                SEMICOLON | L_CURLY | R_CURLY => break,
                _ => {}
            }
            self.bump();
            if depth == 0 {
                return;
            }
        }
        self.error_missing("expected `)` to close `.attribute(`");
    }

    fn name_or_error(&mut self, what: &str) -> bool {
        if self.at(IDENT) || self.at(UNDERSCORE) {
            self.start(NAME);
            self.bump();
            self.finish();
            true
        } else {
            let found = self.describe_current();
            self.error_missing(format!("expected {what}, found {found}"));
            false
        }
    }

    fn name_ref_or_error(&mut self, what: &str) {
        if self.at(IDENT) {
            self.start(NAME_REF);
            self.bump();
            self.finish();
        } else {
            let found = self.describe_current();
            self.error(format!("expected {what}, found {found}"));
        }
    }

    // ------------------------------------------------------------- declarations

    fn var_decl(&mut self, cp: Checkpoint) {
        self.builder.start_node_at(cp, VAR_DECL);
        self.decl_words();
        if self.declarator(true) {
            while self.eat(COMMA) {
                if !self.declarator(true) {
                    break;
                }
            }
        }
        self.expect_semicolon("declaration");
        self.finish();
    }

    /// `name [<N>] [[dim]]* [= init]`. Returns whether a name was found.
    fn declarator(&mut self, allow_init: bool) -> bool {
        self.start(DECLARATOR);
        let ok = self.name_or_error("a name to declare");
        if ok {
            if self.at(LT) {
                self.start(REG_COUNT);
                self.bump();
                self.expect(INT_NUMBER, "a register count");
                self.expect(GT, "`>`");
                self.finish();
            }
            while self.at(L_BRACK) {
                self.start(ARRAY_DIM);
                self.bump();
                if !self.at(R_BRACK) {
                    self.expr(false);
                }
                self.expect(R_BRACK, "`]`");
                self.finish();
            }
            if allow_init && self.at(EQ) {
                self.start(INITIALIZER);
                self.bump();
                self.init_value();
                self.finish();
            }
        }
        self.finish();
        ok
    }

    fn init_value(&mut self) {
        if !self.enter() {
            return;
        }
        self.init_value_inner();
        self.leave();
    }

    fn init_value_inner(&mut self) {
        if self.at(IDENT) && self.nth(1) == Some(EQ) {
            // `.samplerref s = { filter_mode = nearest, ... }`
            self.start(FIELD_INIT);
            self.name_ref();
            self.bump(); // =
            self.init_value();
            self.finish();
        } else if self.at(L_CURLY) {
            self.start(INIT_LIST);
            self.bump();
            if !self.at(R_CURLY) {
                loop {
                    self.init_value();
                    if !self.eat(COMMA) {
                        break;
                    }
                }
            }
            self.expect(R_CURLY, "`}` to close the initializer");
            self.finish();
        } else {
            self.expr(false);
        }
    }

    // ------------------------------------------------------------------ bodies

    fn block(&mut self) {
        if !self.enter() {
            return;
        }
        self.block_inner();
        self.leave();
    }

    fn block_inner(&mut self) {
        self.start(BLOCK);
        self.bump(); // {
        loop {
            let Some(kind) = self.current() else {
                self.error("expected `}` to close the block");
                break;
            };
            match kind {
                R_CURLY => {
                    self.bump();
                    break;
                }
                L_CURLY => self.block(),
                AT => self.instruction(),
                IDENT if self.nth(1) == Some(COLON) => self.label_def(),
                IDENT => self.instruction(),
                SEMICOLON => self.bump(),
                DOT_IDENT => {
                    let text = self.current_text();
                    let next = self.nth_text(1);
                    let starts_function = is_module_only_directive(text)
                        || (text == ".extern" && matches!(next, ".func" | ".entry"));
                    if starts_function {
                        self.error(format!(
                            "expected `}}` to close the function body before `{text}`"
                        ));
                        break;
                    }
                    self.body_directive();
                }
                _ => {
                    let found = self.describe_current();
                    self.error(format!(
                        "expected an instruction, label or directive, found {found}"
                    ));
                    self.skip_rest_of_statement();
                }
            }
        }
        self.finish();
    }

    fn label_def(&mut self) {
        self.start(LABEL_DEF);
        self.start(NAME);
        self.bump();
        self.finish();
        self.bump(); // :
        self.finish();
    }

    fn body_directive(&mut self) {
        let text = self.current_text();
        match text {
            ".loc" => self.loc_directive(),
            ".pragma" => self.pragma_directive(),
            ".callprototype" => {
                self.start(CALL_PROTOTYPE);
                self.bump();
                if self.at(L_PAREN) {
                    self.start(RETURN_PARAMS);
                    self.param_list_inner();
                    self.finish();
                }
                self.name_or_error("`_` in the prototype");
                if self.at(L_PAREN) {
                    self.start(PARAM_LIST);
                    self.param_list_inner();
                    self.finish();
                }
                self.eat_text(".noreturn");
                self.expect_semicolon("`.callprototype`");
                self.finish();
            }
            ".calltargets" | ".branchtargets" => {
                let kind = if text == ".calltargets" {
                    CALL_TARGETS
                } else {
                    BRANCH_TARGETS
                };
                self.start(kind);
                self.bump();
                self.name_ref_or_error("a target name");
                while self.eat(COMMA) {
                    self.name_ref_or_error("a target name");
                }
                self.expect_semicolon(text);
                self.finish();
            }
            t if is_state_space(t) || is_linkage(t) => {
                let cp = self.checkpoint();
                self.var_decl(cp);
            }
            _ => self.unknown_directive(),
        }
    }

    fn eat_text(&mut self, text: &str) -> bool {
        if self.current_text() == text {
            self.bump();
            true
        } else {
            false
        }
    }

    fn instruction(&mut self) {
        self.start(INSTRUCTION);
        if self.at(AT) {
            self.start(GUARD);
            self.bump();
            self.eat(BANG);
            self.name_ref_or_error("a predicate register after `@`");
            self.finish();
        }
        self.start(OPCODE);
        // Only `call` takes parenthesized argument lists; elsewhere `(...)`
        // in operand position is a parenthesized expression (`mov.u32 %r1,
        // ((1));`, which ptxas accepts).
        let call = self.at(IDENT) && self.current_text() == "call";
        if self.at(IDENT) {
            self.bump();
            while self.adjacent() && self.at(DOT_IDENT) {
                let bank = self.current_text() == ".const";
                self.bump();
                if bank {
                    self.const_bank();
                }
            }
        } else {
            let found = self.describe_current();
            self.error(format!("expected an opcode, found {found}"));
        }
        self.finish();
        if !self.at(SEMICOLON) && !self.at(R_CURLY) && !self.at_new_statement() {
            loop {
                self.operand(call);
                if self.at(COMMA) {
                    self.bump();
                    continue;
                }
                break;
            }
        }
        self.expect_semicolon("instruction");
        self.finish();
    }

    fn operand(&mut self, call: bool) {
        if self.at(IDENT) && self.nth(1) == Some(PIPE) && self.nth(2) == Some(IDENT) {
            self.start(PRED_PAIR);
            self.name_ref();
            self.bump();
            self.name_ref();
            self.finish();
            return;
        }
        self.expr(call);
    }

    // ------------------------------------------------------------- expressions

    /// An expression; in a `call`'s operands (`operand = true`) a parenthesized
    /// list is an argument list.
    fn expr(&mut self, operand: bool) {
        self.expr_bp(0, operand);
    }

    fn expr_bp(&mut self, min_power: u8, operand: bool) {
        let cp = self.checkpoint();
        if !self.primary(operand) {
            return;
        }
        // Each operator wraps what was parsed since `cp` in one more node: the
        // levels entered here are left when the expression ends.
        let outer = self.depth;
        while let Some(kind) = self.current() {
            let nests = kind == QUESTION && min_power == 0
                || binary_power(kind).is_some_and(|power| power > min_power);
            if nests && !self.enter() {
                break;
            }
            if kind == QUESTION && min_power == 0 {
                self.builder.start_node_at(cp, TERNARY_EXPR);
                self.bump();
                self.expr_bp(1, operand);
                self.expect(COLON, "`:` in conditional expression");
                self.expr_bp(1, operand);
                self.finish();
                continue;
            }
            let Some(power) = binary_power(kind) else {
                break;
            };
            if power <= min_power {
                break;
            }
            self.builder.start_node_at(cp, BIN_EXPR);
            self.bump();
            self.expr_bp(power, operand);
            self.finish();
        }
        self.depth = outer;
    }

    fn name_ref(&mut self) {
        self.start(NAME_REF);
        self.bump();
        while self.adjacent() && self.at(DOT_IDENT) {
            self.bump();
        }
        self.finish();
    }

    /// Parses one primary expression; false (after reporting) if there is none.
    fn primary(&mut self, operand: bool) -> bool {
        if self.current().is_none() {
            self.error("expected an operand, found end of file");
            return false;
        }
        if !self.enter() {
            return false;
        }
        let ok = self.primary_inner(operand);
        self.leave();
        ok
    }

    fn primary_inner(&mut self, operand: bool) -> bool {
        let Some(kind) = self.current() else {
            self.error("expected an operand, found end of file");
            return false;
        };
        match kind {
            IDENT => {
                if self.nth(1) == Some(L_PAREN) && self.current_text() == "generic" {
                    self.start(CALL_EXPR);
                    self.name_ref();
                    self.start(ARG_LIST);
                    self.list_inner(R_PAREN, operand);
                    self.finish();
                    self.finish();
                } else {
                    self.name_ref();
                }
            }
            INT_NUMBER | FLOAT_NUMBER => {
                self.start(LITERAL);
                self.bump();
                self.finish();
            }
            UNDERSCORE => {
                self.start(SINK);
                self.bump();
                self.finish();
            }
            MINUS | PLUS | TILDE | BANG => {
                self.start(PREFIX_EXPR);
                self.bump();
                self.primary(operand);
                self.finish();
            }
            L_PAREN if operand => {
                self.start(ARG_LIST);
                self.list_inner(R_PAREN, false);
                self.finish();
            }
            L_PAREN => {
                self.start(PAREN_EXPR);
                self.bump();
                self.expr(operand);
                self.expect(R_PAREN, "`)`");
                self.finish();
            }
            L_BRACK => {
                self.start(ADDRESS);
                self.list_inner(R_BRACK, operand);
                self.finish();
            }
            L_CURLY => {
                self.start(VECTOR);
                self.list_inner(R_CURLY, operand);
                self.finish();
            }
            _ => {
                let found = self.describe_current();
                self.error_missing(format!("expected an operand, found {found}"));
                return false;
            }
        }
        true
    }

    /// `open item (, item)* close` — the current token is the opener.
    fn list_inner(&mut self, close: SyntaxKind, operand: bool) {
        self.bump();
        if self.eat(close) {
            return;
        }
        loop {
            if self.at_line_start() && self.at(DOT_IDENT) {
                break;
            }
            self.expr(operand);
            if self.eat(COMMA) {
                continue;
            }
            break;
        }
        let closer = match close {
            R_PAREN => "`)`",
            R_BRACK => "`]`",
            _ => "`}`",
        };
        self.expect(close, closer);
    }
}
