//! Token and node kinds of the PTX syntax tree, and the rowan `Language` glue.
//!
//! The kinds are listed once, in the `syntax_kinds!` invocation below, which
//! defines the enum and [`SyntaxKind::from_raw`] from the same list.

/// Defines [`SyntaxKind`] with the kinds listed, numbered from 0 in order, and
/// the table [`SyntaxKind::from_raw`] reads.
macro_rules! syntax_kinds {
    ($($(#[$attr:meta])* $kind:ident,)*) => {
        /// Every kind of token and node in a PTX syntax tree.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        #[allow(non_camel_case_types)]
        pub enum SyntaxKind {
            $($(#[$attr])* $kind,)*
        }

        impl SyntaxKind {
            /// Every kind, indexed by its raw value.
            const ALL: &'static [SyntaxKind] = &[$(SyntaxKind::$kind,)*];
        }
    };
}

syntax_kinds! {
    // ---- tokens ----
    /// Spaces, tabs and newlines.
    WHITESPACE,
    /// `// ...` or `/* ... */`.
    COMMENT,
    /// An identifier: `add`, `%r1`, `$L__BB0_1`, `_Z3fooPf`, `sm_90`.
    IDENT,
    /// A dotted word: directives (`.version`), modifiers and types (`.s32`,
    /// `.L2::cache_hint`, `.2d`) and register components (`.x`).
    DOT_IDENT,
    /// An integer literal: `42`, `0x1F`, `017`, `0b101`, `7U`.
    INT_NUMBER,
    /// A floating-point literal: `1.5`, `1e-3`, `0f3F800000`, `0d3FF0000000000000`.
    FLOAT_NUMBER,
    /// A string literal: `"nounroll"`.
    STRING,
    SEMICOLON,
    COMMA,
    COLON,
    L_CURLY,
    R_CURLY,
    L_BRACK,
    R_BRACK,
    L_PAREN,
    R_PAREN,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    BANG,
    AT,
    LT,
    GT,
    EQ,
    PIPE,
    AMP,
    CARET,
    TILDE,
    QUESTION,
    SHL,
    SHR,
    EQ2,
    NEQ,
    LTEQ,
    GTEQ,
    AMP2,
    PIPE2,
    /// The sink operand `_`.
    UNDERSCORE,
    /// A byte that starts no PTX token (reported as an error).
    ERROR_TOKEN,

    // ---- nodes ----
    SOURCE_FILE,
    /// `.version 8.3`
    VERSION_DIRECTIVE,
    /// `.target sm_90, debug`
    TARGET_DIRECTIVE,
    /// `.address_size 64`
    ADDRESS_SIZE_DIRECTIVE,
    /// `.file 1 "a.cu", 123, 456`
    FILE_DIRECTIVE,
    /// `.section .debug_info { ... }`
    SECTION_DIRECTIVE,
    /// One `.b8 1, 2` line or label inside a `.section` body.
    SECTION_DATA,
    /// `.alias a, b;`
    ALIAS_DIRECTIVE,
    /// `.pragma "nounroll";`
    PRAGMA_DIRECTIVE,
    /// `.loc 1 23 4` (with optional `, function_name x, inlined_at ...`).
    LOC_DIRECTIVE,
    /// A directive the parser does not know, kept whole.
    UNKNOWN_DIRECTIVE,
    /// `.entry` or `.func`, with its header and body (or `;`).
    FUNCTION,
    /// The `( ... )` return-parameter list of a `.func`.
    RETURN_PARAMS,
    /// The `( ... )` parameter list of a function.
    PARAM_LIST,
    /// One parameter: `.param .u64 .ptr .global .align 16 p`.
    PARAM,
    /// A performance-tuning directive in a function header: `.maxntid 256, 1, 1`.
    PERF_DIRECTIVE,
    /// `{ ... }`: a function body or a nested scope.
    BLOCK,
    /// A variable declaration: `.reg .b32 %r<10>;`, `.global .align 4 .f32 a[4] = {...};`
    VAR_DECL,
    /// One declared name with its `<N>`, `[N]` and initializer.
    DECLARATOR,
    /// `<100>` in a parameterized register declaration.
    REG_COUNT,
    /// `[N]` or `[]` array dimension.
    ARRAY_DIM,
    /// `= value` initializer.
    INITIALIZER,
    /// `{ a, b, ... }` initializer list.
    INIT_LIST,
    /// `name = value` inside a `.samplerref`/`.texref` initializer list.
    FIELD_INIT,
    /// `label:`
    LABEL_DEF,
    /// A name at its definition site.
    NAME,
    /// `.callprototype` statement (after its label).
    CALL_PROTOTYPE,
    /// `.calltargets f1, f2;`
    CALL_TARGETS,
    /// `.branchtargets L1, L2;`
    BRANCH_TARGETS,
    /// An instruction: optional guard, opcode with modifiers, operands, `;`.
    INSTRUCTION,
    /// `@%p` or `@!%p`.
    GUARD,
    /// The opcode word and its modifiers: `ld.global.v4.f32`.
    OPCODE,
    /// One operand of an instruction (wraps an expression).
    OPERAND,
    /// A name used as a value: register, label, symbol, function; with register
    /// components (`%tid.x`, `%r1.h0`).
    NAME_REF,
    /// A numeric literal.
    LITERAL,
    /// `-x`, `~x`, `!x`
    PREFIX_EXPR,
    /// `a + b`, `a << 2`, ...
    BIN_EXPR,
    /// `( expr )`
    PAREN_EXPR,
    /// `generic(sym)` or another function-like constant expression.
    CALL_EXPR,
    /// `a ? b : c` in a constant expression.
    TERNARY_EXPR,
    /// `[ addr ]` memory operand (also `[tex, {x, y}]`).
    ADDRESS,
    /// `{ a, b, c, d }` vector operand.
    VECTOR,
    /// `( a, b )` call argument list.
    ARG_LIST,
    /// `%p|%q` setp destination pair.
    PRED_PAIR,
    /// `_` sink operand.
    SINK,
    /// Tokens the parser skipped while recovering from an error.
    ERROR,
}

use SyntaxKind::*;

impl SyntaxKind {
    /// Whitespace and comments.
    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | COMMENT)
    }

    /// Whether this kind is a token (leaf) kind.
    pub fn is_token(self) -> bool {
        (self as u16) < (SOURCE_FILE as u16)
    }

    /// The kind whose raw value (`kind as u16`, the `u16` in a
    /// [`rowan::SyntaxKind`] that green nodes and tokens store) is `raw`;
    /// `None` for a value that is no kind.
    pub const fn from_raw(raw: u16) -> Option<SyntaxKind> {
        let index = raw as usize;
        if index < Self::ALL.len() {
            Some(Self::ALL[index])
        } else {
            None
        }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

/// The rowan language tag for PTX.
#[derive(Debug, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PtxLanguage {}

impl rowan::Language for PtxLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0).unwrap_or_else(|| panic!("bad SyntaxKind {}", raw.0))
    }
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<PtxLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<PtxLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<PtxLanguage>;

#[cfg(test)]
mod tests {
    use super::SyntaxKind;

    #[test]
    fn from_raw_inverts_as_u16() {
        for (raw, &kind) in SyntaxKind::ALL.iter().enumerate() {
            assert_eq!(kind as usize, raw);
            assert_eq!(SyntaxKind::from_raw(kind as u16), Some(kind));
        }
        assert_eq!(SyntaxKind::from_raw(SyntaxKind::ERROR as u16 + 1), None);
        assert_eq!(SyntaxKind::from_raw(u16::MAX), None);
    }
}
