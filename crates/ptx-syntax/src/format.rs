//! The canonical PTX layout (`textDocument/formatting`).
//!
//! Rules, applied to the lossless tree so nothing but whitespace changes:
//! - one statement per line; module-level directives, function headers, labels
//!   and the braces of a function body at column 0; statements indented four
//!   spaces per nested block;
//! - inside a statement: one space between words, none before `,` `;` `)` `]`
//!   `}` and none after `(` `[` `{` `@` `!`, one space after `,`; modifiers and
//!   register components stay glued to their word (`ld.global.f32`, `%tid.x`);
//!   a multi-line operand list is joined into one line;
//! - comments are kept: a comment on its own line is re-indented, a trailing
//!   comment stays at the end of its line after one space; at most one blank
//!   line is kept between statements; the file ends with one newline.
//!
//! Formatting is idempotent and never changes the sequence of significant
//! tokens (both are tested over every PTX file we have). Text with syntax
//! errors is returned unchanged: a layout of a broken tree could move tokens
//! across the boundaries the user is still typing.

use crate::SyntaxKind::{self, *};
use crate::{SyntaxElement, SyntaxNode, SyntaxToken};

/// Formats a whole module; `None` if it has syntax errors (leave it alone).
pub fn format(parse: &crate::Parse) -> Option<String> {
    if !parse.errors().is_empty() {
        return None;
    }
    let mut f = Formatter {
        out: String::new(),
        pending_blank: false,
        at_line_start: true,
    };
    f.items(&parse.syntax_node(), 0);
    let mut out = f.out;
    while out.ends_with("\n\n") {
        out.pop();
    }
    if !out.ends_with('\n') && !out.is_empty() {
        out.push('\n');
    }
    Some(out)
}

struct Formatter {
    out: String,
    /// A blank line was seen since the last statement (kept, at most one).
    pending_blank: bool,
    at_line_start: bool,
}

/// Statement-like children laid out one per line.
fn is_line_item(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        VERSION_DIRECTIVE
            | TARGET_DIRECTIVE
            | ADDRESS_SIZE_DIRECTIVE
            | FILE_DIRECTIVE
            | ALIAS_DIRECTIVE
            | PRAGMA_DIRECTIVE
            | LOC_DIRECTIVE
            | UNKNOWN_DIRECTIVE
            | VAR_DECL
            | LABEL_DEF
            | INSTRUCTION
            | CALL_PROTOTYPE
            | CALL_TARGETS
            | BRANCH_TARGETS
            | SECTION_DATA
            | PERF_DIRECTIVE
    )
}

impl Formatter {
    fn newline(&mut self) {
        if !self.at_line_start {
            self.out.push('\n');
            self.at_line_start = true;
        }
    }

    fn indent(&mut self, depth: usize) {
        if self.pending_blank && !self.out.is_empty() {
            self.out.push('\n');
        }
        self.pending_blank = false;
        for _ in 0..depth {
            self.out.push_str("    ");
        }
        self.at_line_start = false;
    }

    /// `text` on a line of its own at `depth`.
    fn line(&mut self, depth: usize, text: &str) {
        self.newline();
        self.indent(depth);
        self.out.push_str(text);
        self.newline();
    }

    /// Trivia between items: keeps comments (own-line or trailing) and notes
    /// blank lines.
    fn trivia(&mut self, token: &SyntaxToken, depth: usize) {
        match token.kind() {
            WHITESPACE if token.text().matches('\n').count() >= 2 => {
                self.pending_blank = true;
            }
            COMMENT => {
                let newline_before = token
                    .prev_token()
                    .is_none_or(|t| t.kind() == WHITESPACE && t.text().contains('\n'));
                if newline_before || self.at_line_start {
                    self.newline();
                    self.indent(depth);
                } else {
                    self.out.push(' ');
                }
                self.out.push_str(token.text());
                self.at_line_start = false;
                self.newline();
            }
            _ => {}
        }
    }

    /// Lays out the children of the root, a function or a block.
    fn items(&mut self, node: &SyntaxNode, depth: usize) {
        for element in node.children_with_tokens() {
            match element {
                SyntaxElement::Token(token) if token.kind().is_trivia() => {
                    self.trivia(&token, depth)
                }
                SyntaxElement::Token(token) => {
                    // Stray tokens at item level (`;`, braces of a block).
                    self.line(depth, token.text());
                }
                SyntaxElement::Node(child) => self.item(&child, depth),
            }
        }
    }

    fn item(&mut self, node: &SyntaxNode, depth: usize) {
        match node.kind() {
            FUNCTION => self.function(node),
            BLOCK => self.block(node, depth),
            SECTION_DIRECTIVE => self.section(node, depth),
            LABEL_DEF => {
                self.newline();
                self.indent(0);
                self.statement(node, 0);
            }
            kind if is_line_item(kind) => {
                self.newline();
                self.indent(depth);
                self.statement(node, depth);
            }
            _ => {
                // ERROR nodes cannot occur (errors make `format` return None);
                // anything else is kept as one statement.
                self.newline();
                self.indent(depth);
                self.statement(node, depth);
            }
        }
    }

    /// `.entry name(params) perf-directives` on one line, the body below.
    fn function(&mut self, node: &SyntaxNode) {
        self.newline();
        self.indent(0);
        let mut prev: Option<SyntaxToken> = None;
        for element in node.children_with_tokens() {
            match element {
                SyntaxElement::Node(child) if child.kind() == BLOCK => {
                    self.newline();
                    self.block(&child, 0);
                }
                SyntaxElement::Node(child)
                    if matches!(child.kind(), PARAM_LIST | RETURN_PARAMS)
                        && child.children().filter(|c| c.kind() == PARAM).count() > 1 =>
                {
                    self.param_lines(&child, &mut prev);
                }
                SyntaxElement::Node(child) => {
                    for token in child
                        .descendants_with_tokens()
                        .filter_map(|e| e.into_token())
                    {
                        self.token(&token, &mut prev, 0);
                    }
                }
                SyntaxElement::Token(token) => self.token(&token, &mut prev, 0),
            }
        }
        self.newline();
    }

    /// A parameter list of several parameters, one per line (as nvcc writes it).
    fn param_lines(&mut self, list: &SyntaxNode, prev: &mut Option<SyntaxToken>) {
        for element in list.children_with_tokens() {
            match element {
                SyntaxElement::Token(token) if token.kind() == L_PAREN => {
                    self.token(&token, prev, 0);
                }
                SyntaxElement::Token(token) if token.kind() == R_PAREN => {
                    self.newline();
                    self.indent(0);
                    self.out.push(')');
                    self.at_line_start = false;
                    *prev = Some(token);
                }
                SyntaxElement::Token(token) if token.kind() == COMMA => {
                    self.out.push(',');
                    *prev = Some(token);
                }
                SyntaxElement::Token(token) if token.kind() == COMMENT => {
                    self.token(&token, prev, 1);
                }
                SyntaxElement::Token(_) => {}
                SyntaxElement::Node(param) => {
                    self.newline();
                    self.pending_blank = false;
                    self.indent(1);
                    *prev = None;
                    self.statement(&param, 1);
                }
            }
        }
    }

    /// `{` at the depth of its owner, statements one deeper, `}`.
    fn block(&mut self, node: &SyntaxNode, depth: usize) {
        for element in node.children_with_tokens() {
            match element {
                SyntaxElement::Token(token) if token.kind() == L_CURLY => {
                    self.line(depth, "{");
                    self.pending_blank = false;
                }
                SyntaxElement::Token(token) if token.kind() == R_CURLY => {
                    self.newline();
                    self.pending_blank = false;
                    self.line(depth, "}");
                }
                SyntaxElement::Token(token) if token.kind().is_trivia() => {
                    self.trivia(&token, depth + 1)
                }
                SyntaxElement::Token(token) => {
                    self.line(depth + 1, token.text());
                }
                SyntaxElement::Node(child) => self.item(&child, depth + 1),
            }
        }
    }

    /// `.section name` and its braces at `depth`, data lines one deeper.
    fn section(&mut self, node: &SyntaxNode, depth: usize) {
        self.newline();
        self.indent(depth);
        let mut prev: Option<SyntaxToken> = None;
        let mut inside = false;
        for element in node.children_with_tokens() {
            match element {
                SyntaxElement::Token(token) if token.kind() == L_CURLY => {
                    self.line(depth, "{");
                    inside = true;
                }
                SyntaxElement::Token(token) if token.kind() == R_CURLY => {
                    self.line(depth, "}");
                }
                SyntaxElement::Token(token) if token.kind().is_trivia() && inside => {
                    self.trivia(&token, depth + 1)
                }
                SyntaxElement::Token(token) if !inside => self.token(&token, &mut prev, depth),
                SyntaxElement::Token(_) => {}
                SyntaxElement::Node(child) => {
                    let child_depth = if child.kind() == LABEL_DEF {
                        0
                    } else {
                        depth + 1
                    };
                    self.newline();
                    self.indent(child_depth);
                    self.statement(&child, child_depth);
                }
            }
        }
        self.newline();
    }

    /// One statement on one line: its tokens with canonical spacing. Trivia
    /// after its last significant token (the parser leaves the line end and
    /// any comment lines below inside the node) is laid out as trivia between
    /// items.
    fn statement(&mut self, node: &SyntaxNode, depth: usize) {
        let tokens: Vec<SyntaxToken> = node
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .collect();
        let end = tokens
            .iter()
            .rposition(|t| !t.kind().is_trivia())
            .map_or(0, |i| i + 1);
        let mut prev: Option<SyntaxToken> = None;
        for token in &tokens[..end] {
            self.token(token, &mut prev, depth);
        }
        for token in &tokens[end..] {
            self.trivia(token, depth);
        }
    }

    /// Emits one token of a statement, with the space its predecessor calls for.
    fn token(&mut self, token: &SyntaxToken, prev: &mut Option<SyntaxToken>, depth: usize) {
        match token.kind() {
            WHITESPACE => {
                // Trivia after a statement's last token can sit inside its
                // node; a blank line there still separates statements.
                if token.text().matches('\n').count() >= 2 {
                    self.pending_blank = true;
                }
                return;
            }
            COMMENT => {
                if token.text().starts_with("//") {
                    // A line comment ends the line; the statement continues
                    // on the next one, indented one deeper.
                    if !self.at_line_start {
                        self.out.push(' ');
                    }
                    self.out.push_str(token.text());
                    self.out.push('\n');
                    self.indent(depth + 1);
                    *prev = None;
                } else {
                    if !self.at_line_start && !self.out.ends_with(' ') {
                        self.out.push(' ');
                    }
                    self.out.push_str(token.text());
                    self.out.push(' ');
                    *prev = None;
                }
                return;
            }
            _ => {}
        }
        if let Some(p) = prev.as_ref() {
            if space_between(p, token) && !self.out.ends_with(' ') {
                self.out.push(' ');
            }
        }
        self.out.push_str(token.text());
        self.at_line_start = false;
        *prev = Some(token.clone());
    }
}

/// Whether canonical layout puts a space between two adjacent significant tokens.
fn space_between(prev: &SyntaxToken, next: &SyntaxToken) -> bool {
    let (p, n) = (prev.kind(), next.kind());
    // Modifiers, register components and `::` scopes stay glued as written.
    if n == DOT_IDENT && glued(prev, next) {
        return false;
    }
    // A constant bank `.const[1]` (in a declaration or an opcode) and
    // `.attribute(.managed)` stay glued as written.
    let in_words = |t: &SyntaxToken| {
        t.parent()
            .is_some_and(|x| matches!(x.kind(), OPCODE | VAR_DECL))
    };
    if in_words(prev)
        && in_words(next)
        && prev.text_range().end() == next.text_range().start()
        && (matches!(n, L_BRACK | L_PAREN) || matches!(p, L_BRACK | R_BRACK | L_PAREN))
    {
        return false;
    }
    if matches!(n, COMMA | SEMICOLON | R_PAREN | R_BRACK | R_CURLY) {
        return false;
    }
    if n == COLON && next.parent().is_some_and(|x| x.kind() == LABEL_DEF) {
        return false;
    }
    if matches!(p, L_PAREN | L_BRACK | L_CURLY | AT) {
        return false;
    }
    // `!%p`, `@!%p`, `-1`, `~x`: a prefix operator is glued to its operand.
    if p == BANG
        || matches!(p, MINUS | PLUS | TILDE)
            && prev.parent().is_some_and(|x| x.kind() == PREFIX_EXPR)
    {
        return false;
    }
    // Operators inside an address `[%rd1+8]` and around `|` of a predicate pair.
    let in_address = |t: &SyntaxToken| t.parent_ancestors().any(|a| a.kind() == ADDRESS);
    if (matches!(n, PLUS | MINUS) && in_address(next))
        || (matches!(p, PLUS | MINUS)
            && in_address(prev)
            && prev.parent().is_some_and(|x| x.kind() == BIN_EXPR))
    {
        return false;
    }
    if n == PIPE && next.parent().is_some_and(|x| x.kind() == PRED_PAIR)
        || p == PIPE && prev.parent().is_some_and(|x| x.kind() == PRED_PAIR)
    {
        return false;
    }
    // `%r<100>`: nothing inside the count, and it is glued to the name.
    let in_count = |t: &SyntaxToken| t.parent().is_some_and(|x| x.kind() == REG_COUNT);
    if in_count(next) || (in_count(prev) && p != GT) {
        return false;
    }
    // `k(.param ...)`: a parameter list is glued to the function name.
    if n == L_PAREN && next.parent().is_some_and(|x| x.kind() == PARAM_LIST) {
        return false;
    }
    // `a[4]`, `generic(x)`.
    if n == L_BRACK && next.parent().is_some_and(|x| x.kind() == ARRAY_DIM) {
        return false;
    }
    if n == L_PAREN
        && next.parent().is_some_and(|x| x.kind() == ARG_LIST)
        && prev.parent().is_some_and(|x| x.kind() == NAME_REF)
        && prev
            .parent()
            .and_then(|x| x.parent())
            .is_some_and(|x| x.kind() == CALL_EXPR)
    {
        return false;
    }
    true
}

/// Whether `next` (a dotted word) was written directly after `prev`.
fn glued(prev: &SyntaxToken, next: &SyntaxToken) -> bool {
    prev.text_range().end() == next.text_range().start()
        && matches!(prev.kind(), IDENT | DOT_IDENT | INT_NUMBER | FLOAT_NUMBER)
}
