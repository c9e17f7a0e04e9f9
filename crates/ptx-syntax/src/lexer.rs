//! The PTX lexer: bytes in, `(kind, length)` tokens out. It never fails: bytes
//! that start no token become one-byte `ERROR_TOKEN`s (whole UTF-8 characters, so
//! every token is valid `str`), and unterminated strings or block comments run to
//! the end of their line or of the file. The tokens' lengths add up to the input
//! length exactly, which is what makes the tree lossless.

use crate::SyntaxKind::{self, *};

/// One token: its kind and its length in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    /// Whether the token's text contains a line break (trivia only).
    pub has_newline: bool,
    pub len: u32,
}

/// A lexing problem, reported by the parser as a syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub offset: u32,
    pub len: u32,
    pub message: &'static str,
}

/// Splits `text` into tokens. Lengths sum to `text.len()`.
pub fn tokenize(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut lexer = Lexer {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        tokens: Vec::with_capacity(text.len() / 2 + 16),
        errors: Vec::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.errors)
}

struct Lexer<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
}

/// `IDENT_CONTINUE[b]`: whether byte `b` may continue an identifier.
static IDENT_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        b += 1;
    }
    table
};

#[inline]
fn is_ident_continue(b: u8) -> bool {
    IDENT_CONTINUE[b as usize]
}

/// Length of the run of identifier bytes at the start of `bytes`.
#[inline]
fn ident_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !IDENT_CONTINUE[b as usize])
        .unwrap_or(bytes.len())
}

#[inline]
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%'
}

impl Lexer<'_> {
    #[inline]
    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    #[inline]
    fn push(&mut self, kind: SyntaxKind, start: usize, has_newline: bool) {
        self.tokens.push(Token {
            kind,
            has_newline,
            len: (self.pos - start) as u32,
        });
    }

    fn error(&mut self, start: usize, message: &'static str) {
        self.errors.push(LexError {
            offset: start as u32,
            len: (self.pos - start) as u32,
            message,
        });
    }

    /// Whether the previous token is a word ending right here (no trivia between),
    /// so that a following `.1d` is a modifier, not a float.
    fn after_word(&self) -> bool {
        matches!(
            self.tokens.last(),
            Some(Token {
                kind: IDENT | DOT_IDENT,
                ..
            })
        )
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[self.pos];
            let mut has_newline = false;
            let kind = match b {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b' => {
                    let rest = &self.bytes[self.pos..];
                    let mut n = 0;
                    while let Some(&c) = rest.get(n) {
                        match c {
                            b'\n' => has_newline = true,
                            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => {}
                            _ => break,
                        }
                        n += 1;
                    }
                    self.pos += n;
                    WHITESPACE
                }
                b'/' if self.peek(1) == b'/' => {
                    self.pos = match memchr_newline(&self.bytes[self.pos..]) {
                        Some(n) => self.pos + n,
                        None => self.bytes.len(),
                    };
                    COMMENT
                }
                b'/' if self.peek(1) == b'*' => {
                    match find(&self.bytes[self.pos + 2..], b"*/") {
                        Some(n) => {
                            has_newline = self.bytes[self.pos..self.pos + n + 4].contains(&b'\n');
                            self.pos += 2 + n + 2;
                        }
                        None => {
                            has_newline = true;
                            self.pos = self.bytes.len();
                            self.error(start, "unterminated block comment");
                        }
                    }
                    COMMENT
                }
                b'.' if is_ident_start(self.peek(1)) && self.peek(1) != b'%'
                    || self.peek(1).is_ascii_digit() && self.after_word() =>
                {
                    self.pos += 1;
                    self.eat_word_with_scopes();
                    DOT_IDENT
                }
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_ascii_digit() => self.number(),
                b'_' if !is_ident_continue(self.peek(1)) => {
                    self.pos += 1;
                    UNDERSCORE
                }
                b if is_ident_start(b) => {
                    self.pos += 1;
                    if b == b'%' && !is_ident_continue(self.peek(0)) {
                        PERCENT
                    } else {
                        self.pos += ident_run(&self.bytes[self.pos..]);
                        IDENT
                    }
                }
                b'"' => {
                    self.pos += 1;
                    loop {
                        match self.peek(0) {
                            b'"' => {
                                self.pos += 1;
                                break;
                            }
                            b'\\' => {
                                self.pos += 1;
                                if matches!(self.peek(0), b'"' | b'\\') {
                                    self.pos += 1;
                                }
                            }
                            b'\n' => {
                                self.error(start, "unterminated string literal");
                                break;
                            }
                            _ if self.pos >= self.bytes.len() => {
                                self.error(start, "unterminated string literal");
                                break;
                            }
                            _ => self.pos += 1,
                        }
                    }
                    STRING
                }
                _ => self.punct(b),
            };
            self.push(kind, start, has_newline);
        }
    }

    /// Eats `[A-Za-z0-9_$]*` and then any `::word` scope parts (`.L2::cache_hint`,
    /// `.cta_group::1`, `.mbarrier::complete_tx::bytes`).
    fn eat_word_with_scopes(&mut self) {
        self.pos += ident_run(&self.bytes[self.pos..]);
        while self.peek(0) == b':' && self.peek(1) == b':' && is_ident_continue(self.peek(2)) {
            self.pos += 2;
            self.pos += ident_run(&self.bytes[self.pos..]);
        }
    }

    fn number(&mut self) -> SyntaxKind {
        let start = self.pos;
        let b0 = self.peek(0);
        let b1 = self.peek(1) | 0x20;
        if b0 == b'0' && (b1 == b'f' || b1 == b'd') && self.peek(2).is_ascii_hexdigit() {
            // 0fXXXXXXXX (f32) / 0dXXXXXXXXXXXXXXXX (f64) bit patterns.
            self.pos += 2;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            let digits = self.pos - start - 2;
            let want = if b1 == b'f' { 8 } else { 16 };
            if digits != want {
                self.error(
                    start,
                    if want == 8 {
                        "hexadecimal float `0f` literal needs exactly 8 hex digits"
                    } else {
                        "hexadecimal double `0d` literal needs exactly 16 hex digits"
                    },
                );
            }
            return FLOAT_NUMBER;
        }
        if b0 == b'0' && b1 == b'x' {
            self.pos += 2;
            let digits_start = self.pos;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            if self.pos == digits_start {
                self.error(start, "hexadecimal literal has no digits");
            }
            self.int_suffix();
            return INT_NUMBER;
        }
        if b0 == b'0' && b1 == b'b' && matches!(self.peek(2), b'0' | b'1') {
            self.pos += 2;
            while matches!(self.peek(0), b'0' | b'1') {
                self.pos += 1;
            }
            self.int_suffix();
            return INT_NUMBER;
        }
        let mut is_float = false;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) == b'.' && !is_ident_start(self.peek(1)) {
            is_float = true;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if (self.peek(0) | 0x20) == b'e'
            && (self.peek(1).is_ascii_digit()
                || matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit())
        {
            is_float = true;
            self.pos += 2;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if is_float {
            return FLOAT_NUMBER;
        }
        // Octal literals start with 0; an 8 or 9 in them is an error.
        let text = &self.bytes[start..self.pos];
        if text.len() > 1 && text[0] == b'0' && text.iter().any(|&d| d > b'7') {
            self.error(start, "invalid digit in octal literal");
        }
        self.int_suffix();
        INT_NUMBER
    }

    fn int_suffix(&mut self) {
        if self.peek(0) == b'U' || self.peek(0) == b'u' {
            self.pos += 1;
        }
        if is_ident_continue(self.peek(0)) {
            let start = self.pos;
            while is_ident_continue(self.peek(0)) {
                self.pos += 1;
            }
            self.error(start, "invalid suffix on integer literal");
        }
    }

    fn punct(&mut self, b: u8) -> SyntaxKind {
        let two = |l: &mut Self, kind| {
            l.pos += 2;
            kind
        };
        let next = self.peek(1);
        match (b, next) {
            (b'<', b'<') => return two(self, SHL),
            (b'>', b'>') => return two(self, SHR),
            (b'=', b'=') => return two(self, EQ2),
            (b'!', b'=') => return two(self, NEQ),
            (b'<', b'=') => return two(self, LTEQ),
            (b'>', b'=') => return two(self, GTEQ),
            (b'&', b'&') => return two(self, AMP2),
            (b'|', b'|') => return two(self, PIPE2),
            _ => {}
        }
        let kind = match b {
            b';' => SEMICOLON,
            b',' => COMMA,
            b':' => COLON,
            b'{' => L_CURLY,
            b'}' => R_CURLY,
            b'[' => L_BRACK,
            b']' => R_BRACK,
            b'(' => L_PAREN,
            b')' => R_PAREN,
            b'+' => PLUS,
            b'-' => MINUS,
            b'*' => STAR,
            b'/' => SLASH,
            b'!' => BANG,
            b'@' => AT,
            b'<' => LT,
            b'>' => GT,
            b'=' => EQ,
            b'|' => PIPE,
            b'&' => AMP,
            b'^' => CARET,
            b'~' => TILDE,
            b'?' => QUESTION,
            _ => {
                // One whole UTF-8 character, so token text stays valid str.
                let start = self.pos;
                let ch_len = self.text[self.pos..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
                self.pos += ch_len;
                self.error(start, "unexpected character");
                return ERROR_TOKEN;
            }
        };
        self.pos += 1;
        kind
    }
}

#[inline]
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let (tokens, _) = tokenize(text);
        let mut out = Vec::new();
        let mut pos = 0;
        for t in tokens {
            let s = &text[pos..pos + t.len as usize];
            pos += t.len as usize;
            if t.kind != WHITESPACE {
                out.push((t.kind, s));
            }
        }
        out
    }

    #[test]
    fn modifiers_and_scopes() {
        assert_eq!(
            kinds("ld.global.L2::cache_hint.v4.f32"),
            vec![
                (IDENT, "ld"),
                (DOT_IDENT, ".global"),
                (DOT_IDENT, ".L2::cache_hint"),
                (DOT_IDENT, ".v4"),
                (DOT_IDENT, ".f32")
            ]
        );
        assert_eq!(
            kinds("tex.2d.v4 %tid.x"),
            vec![
                (IDENT, "tex"),
                (DOT_IDENT, ".2d"),
                (DOT_IDENT, ".v4"),
                (IDENT, "%tid"),
                (DOT_IDENT, ".x")
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("0f3F800000 0d3FF0000000000000 0x1fU 017 0b101 1.5 1e-3 42 .5"),
            vec![
                (FLOAT_NUMBER, "0f3F800000"),
                (FLOAT_NUMBER, "0d3FF0000000000000"),
                (INT_NUMBER, "0x1fU"),
                (INT_NUMBER, "017"),
                (INT_NUMBER, "0b101"),
                (FLOAT_NUMBER, "1.5"),
                (FLOAT_NUMBER, "1e-3"),
                (INT_NUMBER, "42"),
                (FLOAT_NUMBER, ".5"),
            ]
        );
    }

    #[test]
    fn lossless_on_garbage() {
        let text = "add.s32 %r1, \"unterminated\n /* open € # `";
        let (tokens, errors) = tokenize(text);
        assert_eq!(
            tokens.iter().map(|t| t.len as usize).sum::<usize>(),
            text.len()
        );
        assert!(!errors.is_empty());
    }
}
