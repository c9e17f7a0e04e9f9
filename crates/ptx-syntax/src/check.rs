//! Checks beyond syntax, each reported where ptxas reports it: undeclared
//! registers, labels and symbols; duplicate declarations and labels (labels are
//! scoped by `{ }` blocks, like registers); unknown instructions and modifiers;
//! wrong operand count or kind; instruction type vs register declaration
//! mismatch; features that need a newer `.target` or `.version`, and a
//! `.version` too old for the `.target`; calls to, and non-`.extern`
//! declarations of, functions defined nowhere in the module (ptxas links whole
//! programs; `SYSCALLS` are the ones it provides); 32-bit global or generic
//! addressing, which ptxas 13 no longer assembles; the PTX 1.x/2.x forms ptxas
//! still knows but restricts (`.const[N]` banks, `.tex`, `.file` timestamps,
//! `map_f64_to_f32`).
//!
//! Everything is driven by the instruction table of [`ptx_isa`]. The rule for
//! every check is ptxas 13.0.88's behaviour: a check that could fire on PTX that
//! ptxas accepts is a bug, so where the table or the rules are unsure the check
//! stays silent.
//!
//! How function bodies are walked, and why: for speed (a cold check of a 1 MB
//! module visits tens of thousands of instructions), bodies are read through
//! their green nodes ([`green::Node`](crate::green::Node)) rather than through
//! `SyntaxNode`s and the typed [`ast`]: a rowan cursor allocates and frees
//! every node it visits, which was most of the cost. Each instruction's
//! children are walked once (guard, opcode, operands); ranges are the start
//! offsets the walk adds up, equal to those of the `SyntaxNode`s. Within a
//! function, what depends only on how an opcode is spelled (its family, the
//! modifier and version checks, its type modifiers) is remembered when it gave
//! no diagnostic, and what a name resolves to is remembered until the scope
//! changes, both keyed by token identity (the tree builder interns tokens), so
//! each distinct opcode and name is looked up about once per block. The
//! module-level checks, parameters and performance directives (few nodes) use
//! the typed AST.

use std::borrow::Cow;

use ptx_isa::{
    Family, NameParts, OperandKind, OperandSpec, OperandType, PtxVersion, TypeCheck, TypeKind,
};
use rowan::TextRange;
use rustc_hash::FxHashMap;

use crate::ast::{self, AstNode, Item};
use crate::green::{Node, Token, TokenId};
use crate::SyntaxKind::*;
use crate::SyntaxNode;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found by a check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub range: TextRange,
    pub severity: Severity,
    pub message: String,
}

/// Options of the checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CheckOptions {
    /// The SM number the module will be assembled for (`ptxas -arch=sm_90` is
    /// 90). A `.target` above it is an error, as in ptxas.
    pub arch: Option<u32>,
}

/// Runs every check over a parsed module. Syntax errors are not included (see
/// [`crate::Parse::errors`]); see [`diagnostics`] for both together.
pub fn check(file: &ast::SourceFile) -> Vec<Diagnostic> {
    check_with(file, CheckOptions::default())
}

/// [`check`] with options.
pub fn check_with(file: &ast::SourceFile, options: CheckOptions) -> Vec<Diagnostic> {
    let mut checker = Checker::new(Cow::Owned(ModuleFacts::header(file)));
    checker.check_arch(file, options.arch);
    checker.check_header(file);
    checker.collect_globals(file);
    for item in file.items() {
        checker.check_item(&item);
    }
    checker.diags.sort_by_key(|d| d.range.start());
    checker.diags
}

/// The module-level half of [`check`]: the facts the checks of each item need,
/// and the diagnostics of the module as a whole (header, duplicate function
/// definitions), in the order [`check`] finds them.
///
/// [`check`] of a module is these diagnostics followed by [`check_items`] of
/// every item in order, stably sorted by start.
pub fn module_facts(file: &ast::SourceFile) -> (ModuleFacts, Vec<Diagnostic>) {
    let mut checker = Checker::new(Cow::Owned(ModuleFacts::header(file)));
    checker.check_header(file);
    checker.collect_globals(file);
    let diags = std::mem::take(&mut checker.diags);
    (checker.facts.into_owned(), diags)
}

/// The per-item half of [`check`]: the checks of some module-level items
/// (functions, variable declarations, aliases), in order, unsorted. The ranges
/// are those of the items' tree (relative to its root).
pub fn check_items(items: impl IntoIterator<Item = Item>, facts: &ModuleFacts) -> Vec<Diagnostic> {
    let mut checker = Checker::new(Cow::Borrowed(facts));
    for item in items {
        checker.check_item(&item);
    }
    checker.diags
}

/// Syntax errors and check results of a module, sorted by position.
pub fn diagnostics(parse: &crate::Parse) -> Vec<Diagnostic> {
    diagnostics_with(parse, CheckOptions::default())
}

/// [`diagnostics`] with options.
pub fn diagnostics_with(parse: &crate::Parse, options: CheckOptions) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = parse
        .errors()
        .iter()
        .map(|e| Diagnostic {
            range: e.range,
            severity: Severity::Error,
            message: e.message.clone(),
        })
        .collect();
    diags.extend(check_with(&parse.tree(), options));
    diags.sort_by_key(|d| d.range.start());
    diags
}

/// The functions ptxas 13.0.88 resolves itself: a module may declare and call
/// them without defining them (ptxas links whole programs unless given `-c`,
/// and reports any other declared-but-undefined function as "Unresolved
/// extern function"). Found by asking ptxas: one module per name declaring
/// `.extern .func (.param .b32 r) NAME (.param .b64 a, .param .b64 b)` and
/// calling it, assembled without `-c` for sm_75, sm_80, sm_90, sm_100,
/// sm_103a and sm_120 (the same answer for each; the signature does not
/// matter). Every `cuda*` function of `cuda_device_runtime_api.h` was tried,
/// with `memcpy`, `memset`, `printf`, `__assert_fail` and `__nvvm_reflect`:
/// all the others are unresolved, e.g. `cudaGetParameterBuffer`,
/// `cudaGetParameterBufferV2`, `cudaLaunchDeviceV2`, `cudaDeviceSynchronize`,
/// `cudaCGGetIntrinsicHandle` (they live in `libcudadevrt`, linked by nvlink
/// after `ptxas -c`). See test-data/README.md.
const SYSCALLS: &[&str] = &[
    "vprintf",
    "malloc",
    "free",
    "__assertfail",
    "cudaGraphSetConditional",
    "cudaGraphLaunch",
    "cudaGraphKernelNodeSetEnabled",
    "cudaGraphKernelNodeSetGridDim",
    "cudaGraphKernelNodeSetParam",
    "cudaGraphKernelNodeUpdatesApply",
];

/// Names every module can use without declaring them.
const PREDEFINED_CONSTANTS: &[&str] = &["WARP_SZ"];

/// A declared register, variable or parameter.
#[derive(Clone, Debug)]
struct Decl {
    /// Fundamental type (`.b32`), if any.
    ty: Option<String>,
    range: TextRange,
    /// What the checks ask of its space (`.reg`, `.param`, `.global`, ...) and type.
    facts: DeclFacts,
}

/// What the instruction checks ask of a declaration's space and type, worked
/// out once when it is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DeclFacts {
    /// Declared in `.reg`.
    reg: bool,
    /// Where the declaration's name starts (a `.reg` must come before the
    /// instructions that use the register).
    start: u32,
    /// Declared in `.reg` or `.sreg`.
    register: bool,
    /// Of type `.pred`.
    pred: bool,
    /// Size and kind of the type.
    ty: Option<TypeInfo>,
    /// The memory state space, as [`memory_space`] names it.
    space: Option<&'static str>,
}

impl DeclFacts {
    fn new(space: &str, ty: Option<&str>, start: u32) -> DeclFacts {
        DeclFacts {
            reg: space == ".reg",
            start,
            register: space == ".reg" || space == ".sreg",
            pred: ty == Some(".pred"),
            ty: ty.and_then(type_info),
            space: memory_space(space),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum GlobalKind {
    Function { defined: bool },
    Variable,
}

/// What the checks of one item need to know of the rest of the module: the
/// header and the module-level names. It holds no source positions, so an edit
/// inside a function body leaves it equal (see [`module_facts`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleFacts {
    version: Option<PtxVersion>,
    /// SM number of `.target` (`sm_90a` is 90).
    sm: Option<u32>,
    /// Architecture suffix of `.target` (`a` of `sm_90a`, `f` of `sm_100f`).
    sm_suffix: Option<char>,
    target_text: String,
    globals: FxHashMap<String, GlobalKind>,
    /// State space of each module-level variable.
    global_spaces: FxHashMap<String, String>,
    /// Names declared by `.func`/`.entry` (not by `.alias`).
    declared_functions: rustc_hash::FxHashSet<String>,
    /// Each function's return and input parameters: the byte size of each
    /// one's type when it is a scalar of a known type (`None` for arrays,
    /// `.pred` and the rest), for the checks of `call`.
    signatures: FxHashMap<String, CallSignature>,
}

/// See [`ModuleFacts::signatures`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CallSignature {
    rets: Vec<Option<u32>>,
    params: Vec<Option<u32>>,
}

/// The byte size of a scalar parameter's type, `None` for an array, a
/// `.pred` or a type without a size.
fn param_size(param: &ast::Param) -> Option<u32> {
    let declarator = param.declarator()?;
    if declarator.syntax().text().contains_char('[') {
        return None;
    }
    let ty = param.type_name()?;
    if ty.text() == ".pred" {
        return None;
    }
    ptx_isa::type_bits(ty.text()).map(|bits| bits.div_ceil(8))
}

impl ModuleFacts {
    /// The header facts (`.version`, `.target`) of a module, no names yet.
    fn header(file: &ast::SourceFile) -> ModuleFacts {
        let version = file
            .version()
            .and_then(|v| v.version())
            .map(|(major, minor)| PtxVersion { major, minor });
        let target = file.target();
        let (sm, sm_suffix) = match target.as_ref().and_then(|t| t.sm()) {
            Some((n, suffix)) => (Some(n), suffix),
            None => (None, None),
        };
        let target_text = target
            .and_then(|t| t.sm_name())
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        ModuleFacts {
            version,
            sm,
            sm_suffix,
            target_text,
            ..ModuleFacts::default()
        }
    }
}

struct Checker<'f> {
    diags: Vec<Diagnostic>,
    facts: Cow<'f, ModuleFacts>,
    /// Function-level: scopes of declarations, innermost last.
    scopes: Vec<FxHashMap<String, Decl>>,
    /// Parameterized declarations `%r<N>` per scope: prefix -> (count, decl).
    ranges: Vec<FxHashMap<String, (u32, Decl)>>,
    /// Labels per block, innermost last: a label is visible in its block and
    /// the blocks nested in it, as registers are (ptxas: the same label in two
    /// sibling blocks is fine, e.g. one per inline `asm` block).
    labels: Vec<FxHashMap<String, TextRange>>,
}

impl<'f> Checker<'f> {
    fn new(facts: Cow<'f, ModuleFacts>) -> Checker<'f> {
        Checker {
            diags: Vec::new(),
            facts,
            scopes: Vec::new(),
            ranges: Vec::new(),
            labels: Vec::new(),
        }
    }

    fn error(&mut self, range: TextRange, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            range,
            severity: Severity::Error,
            message: message.into(),
        });
    }

    /// The checks of one module-level item (the module-level facts are known).
    fn check_item(&mut self, item: &Item) {
        match item {
            Item::Function(f) => self.check_function(f),
            Item::VarDecl(decl) => {
                let green = decl.syntax().green();
                self.check_decl_words(Node::new(&green, decl.syntax().text_range().start()));
            }
            Item::File(file) => {
                // ptxas: "Feature 'timestamp and filesize in .file directive'
                // requires PTX ISA .version 3.2 or later".
                let comma = file
                    .syntax()
                    .children_with_tokens()
                    .filter_map(|e| e.into_token())
                    .find(|t| t.kind() == COMMA);
                if let Some(comma) = comma {
                    self.require(
                        comma.text_range(),
                        || "a timestamp and file size in `.file`".to_string(),
                        ptx_isa::v(3, 2),
                        0,
                    );
                }
            }
            Item::Alias(alias) => {
                if let Some(name) = alias.alias() {
                    if !self.facts.declared_functions.contains(&name.text()) {
                        self.error(
                            name.syntax().text_range(),
                            format!(
                                "`.alias` name `{}` must first be declared as a function prototype",
                                name.text()
                            ),
                        );
                    }
                }
                if let Some(target) = alias.aliasee() {
                    let name = target.text();
                    if !self.facts.globals.contains_key(&name) {
                        self.error(
                            target.syntax().text_range(),
                            format!("undeclared function `{name}`"),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn check_arch(&mut self, file: &ast::SourceFile, arch: Option<u32>) {
        let (Some(arch), Some(sm)) = (arch, self.facts.sm) else {
            return;
        };
        if sm > arch {
            let range = file
                .target()
                .and_then(|t| t.sm_name())
                .map_or(TextRange::empty(0.into()), |t| t.text_range());
            self.error(
                range,
                format!(
                    "`.target {}` is higher than the architecture assembled for (sm_{arch})",
                    self.facts.target_text
                ),
            );
        }
    }

    fn check_header(&mut self, file: &ast::SourceFile) {
        let start = TextRange::empty(0.into());
        match file.version() {
            None => self.error(start, "missing `.version` directive (it must come first)"),
            Some(v) => {
                let first = file.items().next();
                if !matches!(first, Some(Item::Version(_))) {
                    self.error(
                        v.syntax().text_range(),
                        "`.version` must be the first directive",
                    );
                }
                if v.version().is_none() {
                    self.error(v.syntax().text_range(), "malformed version number");
                }
            }
        }
        match file.target() {
            None => self.error(start, "missing `.target` directive"),
            Some(t) => {
                if let Some(word) = t.words().next() {
                    if t.sm().is_none() {
                        self.error(
                            word.text_range(),
                            format!("unknown target `{}`", word.text()),
                        );
                    }
                }
                if let (Some(sm), Some(option)) = (
                    self.facts.sm,
                    t.words().find(|w| w.text() == "map_f64_to_f32"),
                ) {
                    if sm >= 13 {
                        self.error(
                            option.text_range(),
                            "`map_f64_to_f32` is not supported with sm_13 or higher",
                        );
                    }
                }
                let min = t
                    .sm()
                    .and_then(|(sm, suffix)| ptx_isa::target_min_ptx(sm, suffix));
                if let (Some(min), Some(version), Some(name)) =
                    (min, self.facts.version, t.sm_name())
                {
                    if version < min {
                        self.error(
                            name.text_range(),
                            format!(
                                "PTX .version {version} does not support .target {} (it needs .version {min} or later)",
                                name.text()
                            ),
                        );
                    }
                }
            }
        }
        if let Some(a) = file.address_size() {
            let directive = a.syntax().first_token().map(|t| t.text_range());
            if let Some(range) = directive {
                self.check_directive_requirement(".address_size", range);
            }
            match a.bits() {
                Some(64) => {}
                Some(32) => self.error(
                    a.syntax().text_range(),
                    "32-bit addressing (`.address_size 32`) is no longer supported by ptxas 13",
                ),
                _ => self.error(a.syntax().text_range(), "`.address_size` must be 32 or 64"),
            }
        }
    }

    fn collect_globals(&mut self, file: &ast::SourceFile) {
        let mut bodies: FxHashMap<String, TextRange> = FxHashMap::default();
        // Declarations without `.extern` and without a body.
        let mut prototypes: Vec<(String, TextRange)> = Vec::new();
        for item in file.items() {
            match item {
                Item::Function(f) => {
                    let Some(name) = f.name() else { continue };
                    let text = name.text();
                    self.facts.to_mut().declared_functions.insert(text.clone());
                    let defined = f.body().is_some();
                    if !defined && !f.is_extern() {
                        prototypes.push((text.clone(), name.syntax().text_range()));
                    }
                    if !defined && bodies.contains_key(&text) {
                        // ptxas: "Duplicate definition of function 'f'".
                        self.error(
                            name.syntax().text_range(),
                            format!("duplicate definition of function `{text}`: it is declared again after its definition"),
                        );
                    }
                    if defined {
                        if let Some(_previous) =
                            bodies.insert(text.clone(), name.syntax().text_range())
                        {
                            self.error(
                                name.syntax().text_range(),
                                format!("duplicate definition of function `{text}`"),
                            );
                        }
                    }
                    let signature = CallSignature {
                        rets: f
                            .return_params()
                            .map(|r| r.params().map(|p| param_size(&p)).collect())
                            .unwrap_or_default(),
                        params: f
                            .params()
                            .map(|r| r.params().map(|p| param_size(&p)).collect())
                            .unwrap_or_default(),
                    };
                    self.facts
                        .to_mut()
                        .signatures
                        .entry(text.clone())
                        .or_insert(signature);
                    let entry = self
                        .facts
                        .to_mut()
                        .globals
                        .entry(text)
                        .or_insert(GlobalKind::Function { defined });
                    if defined {
                        *entry = GlobalKind::Function { defined: true };
                    }
                }
                Item::VarDecl(decl) => {
                    let space = decl
                        .state_space()
                        .map(|t| t.text().to_string())
                        .unwrap_or_default();
                    for d in decl.declarators() {
                        if let Some(name) = d.name() {
                            self.facts
                                .to_mut()
                                .globals
                                .insert(name.text(), GlobalKind::Variable);
                            self.facts
                                .to_mut()
                                .global_spaces
                                .insert(name.text(), space.clone());
                        }
                    }
                }
                Item::Alias(alias) => {
                    if let Some(name) = alias.alias() {
                        self.facts
                            .to_mut()
                            .globals
                            .insert(name.text(), GlobalKind::Function { defined: true });
                    }
                }
                Item::Section(section) => {
                    for label in section.labels() {
                        if let Some(name) = label.name() {
                            self.facts
                                .to_mut()
                                .globals
                                .insert(name.text(), GlobalKind::Variable);
                        }
                    }
                }
                _ => {}
            }
        }
        // ptxas: "Unresolved extern function" for a function declared without
        // `.extern` and defined nowhere in the module (an `.alias` defines it),
        // even when nothing calls it.
        for (name, range) in prototypes {
            let undefined =
                self.facts.globals.get(&name) == Some(&GlobalKind::Function { defined: false });
            if undefined && !SYSCALLS.contains(&name.as_str()) {
                self.error(
                    range,
                    format!("unresolved extern function `{name}`: it is declared (without `.extern`) but not defined in this module, and ptxas links whole programs unless given -c"),
                );
            }
        }
    }

    /// Version and target requirements of the words of a variable declaration
    /// (a `VAR_DECL` node), and its alignment.
    fn check_decl_words(&mut self, decl: Node<'_>) {
        if let Some(align) = decl_align(decl) {
            if !align.is_power_of_two() {
                let range = dot_words(decl)
                    .find(|w| w.text() == ".align")
                    .map_or(decl.range(), |w| w.range());
                self.error(
                    range,
                    format!("alignment must be a power of two, found {align}"),
                );
            }
        }
        self.check_const_bank(decl);
        self.check_array_dims(decl);
        if let Some(tex) = dot_words(decl).find(|w| w.text() == ".tex") {
            if self.facts.version.is_some_and(|v| v >= ptx_isa::v(1, 5)) {
                // ptxas: "Deprecated feature: '.tex' not supported as of PTX version 1.5".
                self.error(
                    tex.range(),
                    "the `.tex` state space is not supported from PTX ISA version 1.5 (use `.global .texref`)",
                );
            }
        }
        // A declaration of only linkage, state space, alignment and vector
        // words has no type (ptxas: "Parsing error near 'name'").
        let untyped = dot_words(decl).all(|w| {
            matches!(
                w.text(),
                ".visible"
                    | ".extern"
                    | ".weak"
                    | ".common"
                    | ".global"
                    | ".const"
                    | ".shared"
                    | ".local"
                    | ".param"
                    | ".reg"
                    | ".tex"
                    | ".align"
                    | ".v2"
                    | ".v4"
                    | ".v8"
                    | ".attribute"
                    | ".managed"
            )
        });
        if untyped {
            let range = decl
                .child(DECLARATOR)
                .and_then(|d| d.child(NAME))
                .map_or(decl.range(), |n| n.range());
            self.error(range, "missing type in declaration (e.g. `.b8`, `.u32`)");
        }
        self.check_decl_word_order(decl);
        for word in dot_words(decl) {
            let text = word.text();
            self.check_directive_requirement(text, word.range());
            if let Some((ptx, sm)) = ptx_isa::type_requirement(text) {
                self.require(word.range(), || format!("type `{text}`"), ptx, sm);
            }
        }
    }

    /// An explicit constant bank, `.const[N]` (ptxas: "Deprecated feature:
    /// 'explicit constant banks' not supported as of PTX version 2.2";
    /// "Constant banks 1..11 are reserved for external incomplete arrays").
    fn check_const_bank(&mut self, decl: Node<'_>) {
        let mut tokens = decl
            .tokens()
            .filter(|t| !t.is_trivia())
            .skip_while(|t| t.text() != ".const")
            .skip(1);
        // `.const`, `[`, then the bank number.
        if !tokens.next().is_some_and(|t| t.is(L_BRACK)) {
            return;
        }
        let Some(bank) = tokens.next() else {
            return;
        };
        let Some(number) = bank
            .is(INT_NUMBER)
            .then(|| ast::parse_int(bank.text()))
            .flatten()
        else {
            return;
        };
        if self.facts.version.is_some_and(|v| v >= ptx_isa::v(2, 2)) {
            self.error(
                bank.range(),
                "explicit constant banks (`.const[N]`) are not supported from PTX ISA version 2.2",
            );
        } else if (1..=11).contains(&number) && !dot_words(decl).any(|w| w.text() == ".extern") {
            self.error(
                bank.range(),
                "constant banks 1..11 are reserved for external incomplete arrays (`.extern .const[N] .b8 name[]`)",
            );
        }
    }

    /// The dotted words of a variable declaration, by the rule lowering files
    /// them (`ptx_ir`'s `classify_decl_word`): `.align N`, one linkage, vector
    /// widths, one state space, one type. Another word (`.b69`, a second
    /// state space or type) is an error; ptxas reports a syntax error.
    fn check_decl_word_order(&mut self, decl: Node<'_>) {
        const SPACES: &[&str] = &[
            ".global", ".const", ".shared", ".local", ".param", ".reg", ".tex",
        ];
        const OPAQUE_TYPES: &[&str] = &[".texref", ".samplerref", ".surfref"];
        const LINKAGES: &[&str] = &[".extern", ".visible", ".weak", ".common"];
        let (mut linkage, mut space, mut ty) = (false, false, false);
        for word in dot_words(decl) {
            let text = word.text();
            let base = text.split("::").next().unwrap_or(text);
            // `.attribute(.managed)` / `.attribute(.unified(..))`: the
            // attribute list is checked by its own rule.
            let attribute = matches!(text, ".attribute" | ".managed" | ".unified");
            let problem = if attribute || text == ".align" || matches!(text, ".v2" | ".v4" | ".v8")
            {
                None
            } else if LINKAGES.contains(&text) {
                std::mem::replace(&mut linkage, true).then(|| format!("second linkage `{text}`"))
            } else if !space && SPACES.contains(&base) {
                space = true;
                None
            } else if !ty && (ptx_isa::type_bits(text).is_some() || OPAQUE_TYPES.contains(&text)) {
                ty = true;
                None
            } else {
                Some(format!("unexpected `{text}` in a declaration"))
            };
            if let Some(message) = problem {
                self.error(word.range(), message);
                return;
            }
        }
    }

    fn check_directive_requirement(&mut self, name: &str, range: TextRange) {
        if let Some(d) = ptx_isa::DIRECTIVES.iter().find(|d| d.name == name) {
            self.require(range, || format!("directive `{name}`"), d.min_ptx, d.min_sm);
        }
    }

    /// Reports when the module's `.version`/`.target` is below what a feature needs.
    fn require(
        &mut self,
        range: TextRange,
        what: impl FnOnce() -> String,
        min_ptx: PtxVersion,
        min_sm: u32,
    ) {
        let old_version = self.facts.version.is_some_and(|v| v < min_ptx);
        let old_target = self.facts.sm.is_some_and(|sm| sm < min_sm);
        if !old_version && !old_target {
            return;
        }
        let what = what();
        if let Some(version) = self.facts.version {
            if version < min_ptx {
                self.error(
                    range,
                    format!("{what} requires PTX ISA version {min_ptx} or later (module has .version {version})"),
                );
                return;
            }
        }
        if let Some(sm) = self.facts.sm {
            if sm < min_sm {
                self.error(
                    range,
                    format!(
                        "{what} requires .target sm_{min_sm} or higher (module targets {})",
                        self.facts.target_text
                    ),
                );
            }
        }
    }

    // ----------------------------------------------------------- functions

    fn check_function(&mut self, f: &ast::Function) {
        for word in f.linkage() {
            self.check_directive_requirement(word.text(), word.text_range());
        }
        for perf in f.perf_directives() {
            if let Some(d) = perf.directive() {
                self.check_directive_requirement(d.text(), d.text_range());
                // ptxas: "Parsing error near '.maxntid'" on a `.func`.
                let entry_only = matches!(
                    d.text(),
                    ".maxntid"
                        | ".reqntid"
                        | ".minnctapersm"
                        | ".maxnreg"
                        | ".maxclusterrank"
                        | ".reqnctapercluster"
                        | ".explicitcluster"
                );
                if entry_only && f.kind() == ast::FunctionKind::Func {
                    self.error(
                        d.text_range(),
                        format!(
                            "`{}` is only allowed on an `.entry`, not on a `.func`",
                            d.text()
                        ),
                    );
                }
                if d.text() == ".noreturn" {
                    if f.kind() == ast::FunctionKind::Entry {
                        self.error(
                            d.text_range(),
                            "`.noreturn` is only allowed on a `.func`, not on an `.entry`",
                        );
                    } else if f
                        .return_params()
                        .is_some_and(|r| r.params().next().is_some())
                    {
                        self.error(
                            d.text_range(),
                            "`.noreturn` is not allowed on a function with return parameters",
                        );
                    }
                }
            }
        }
        self.scopes.clear();
        self.ranges.clear();
        self.labels.clear();
        self.push_scope();
        for list in [
            f.return_params().map(|r| r.syntax().clone()),
            f.params().map(|p| p.syntax().clone()),
        ]
        .into_iter()
        .flatten()
        {
            for param in list.children().filter_map(ast::Param::cast) {
                self.check_param_words(&param);
                let green = param.syntax().green();
                self.check_array_dims(Node::new(&green, param.syntax().text_range().start()));
                let space = param.state_space();
                let space = space.as_ref().map_or("", |t| t.text());
                let ty = param.type_name();
                if let Some(d) = param.declarator() {
                    let green = d.syntax().green();
                    let d = Node::new(&green, d.syntax().text_range().start());
                    self.declare(d, space, ty.as_ref().map(|t| t.text()));
                }
            }
        }
        let Some(body) = f.body() else {
            self.scopes.clear();
            return;
        };
        let green = body.syntax().green();
        let body = Node::new(&green, body.syntax().text_range().start());
        self.check_block(body, true, &mut Scratch::default());
        self.scopes.clear();
        self.ranges.clear();
    }

    /// The dotted words of a parameter, by the rule lowering files them
    /// (`ptx_ir`'s `classify_param_word`): `.align N`, `.ptr`, one `.param` or
    /// `.reg` first, a state space after `.ptr`, a vector width, one type. Any
    /// other word (`.parao`, a second type) is an error; ptxas reports a
    /// syntax error for each.
    /// Each array size of a declaration is a constant integer expression
    /// (`[16]`, `[2*8]`; `[]` where the declaration allows it).
    fn check_array_dims(&mut self, decl: Node<'_>) {
        let mut bad = Vec::new();
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            for c in n.children() {
                if c.kind() == ARRAY_DIM {
                    if let Some(size) = c.children().next() {
                        if !Op::cast(size).is_some_and(Op::is_int_constant) {
                            bad.push(size.range());
                        }
                    }
                } else {
                    stack.push(c);
                }
            }
        }
        for range in bad {
            self.error(range, "an array size must be a constant integer expression");
        }
    }

    fn check_param_words(&mut self, param: &ast::Param) {
        const SPACES: &[&str] = &[
            ".global", ".const", ".shared", ".local", ".param", ".reg", ".tex",
        ];
        const OPAQUE_TYPES: &[&str] = &[".texref", ".samplerref", ".surfref"];
        let (mut space, mut ptr, mut ty) = (false, false, false);
        let mut problem = None;
        for tok in param
            .syntax()
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == DOT_IDENT)
        {
            let word = tok.text();
            let base = word.split("::").next().unwrap_or(word);
            let free = word == ".align"
                || (ptr && SPACES.contains(&base))
                || matches!(word, ".v2" | ".v4" | ".v8");
            if free {
                continue;
            }
            if word == ".ptr" {
                ptr = true;
            } else if !space && matches!(word, ".param" | ".reg") {
                space = true;
            } else if !ty && (ptx_isa::type_bits(word).is_some() || OPAQUE_TYPES.contains(&word)) {
                ty = true;
            } else {
                problem = Some((tok.text_range(), word.to_string()));
                break;
            }
        }
        if let Some((range, word)) = problem {
            self.error(range, format!("unexpected `{word}` in a parameter"));
        }
    }

    /// Opens the label scope of a block: its own labels (the parser puts a
    /// `LABEL_DEF` only directly in a `BLOCK`), visible anywhere in it.
    fn collect_labels(&mut self, block: Node<'_>) {
        let mut labels = FxHashMap::default();
        for stmt in block.children().filter(|c| c.is(LABEL_DEF)) {
            let Some(name) = stmt.child(NAME) else {
                continue;
            };
            let text = name_text(name);
            let range = name.range();
            if labels.insert(text.to_string(), range).is_some() {
                self.error(range, format!("duplicate label `{text}`"));
            }
        }
        self.labels.push(labels);
    }

    /// Whether a label of this name is visible in the current block.
    fn has_label(&self, name: &str) -> bool {
        self.labels.iter().any(|l| l.contains_key(name))
    }

    fn push_scope(&mut self) {
        self.scopes.push(FxHashMap::default());
        self.ranges.push(FxHashMap::default());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.ranges.pop();
    }

    /// Declares the name of a `DECLARATOR` node.
    fn declare(&mut self, d: Node<'_>, space: &str, ty: Option<&str>) {
        let Some(name) = d.child(NAME) else { return };
        let text = name_text(name);
        if text == "_" {
            return;
        }
        let range = name.range();
        let decl = Decl {
            ty: ty.map(str::to_string),
            range,
            facts: DeclFacts::new(space, ty, range.start().into()),
        };
        if let Some(count) = reg_count(d) {
            let scope = self.ranges.last_mut().expect("scope");
            if scope.insert(text.to_string(), (count, decl)).is_some() {
                self.error(range, format!("duplicate declaration of `{text}<{count}>`"));
            }
        } else {
            let scope = self.scopes.last_mut().expect("scope");
            if let Some(previous) = scope.insert(text.to_string(), decl) {
                let _ = previous.range;
                self.error(range, format!("duplicate declaration of `{text}`"));
            }
        }
    }

    fn check_block<'g>(&mut self, block: Node<'g>, function_body: bool, s: &mut Scratch<'g>) {
        if !function_body {
            self.push_scope();
        }
        self.collect_labels(block);
        // Declarations first: PTX lets a block use what it declares anywhere in it.
        for stmt in block.children().filter(|c| c.is(VAR_DECL)) {
            self.check_decl_words(stmt);
            let space = decl_state_space(stmt).map_or("", |t| t.text());
            let ty = decl_type(stmt).map(|t| t.text());
            for d in stmt.children().filter(|c| c.is(DECLARATOR)) {
                self.declare(d, space, ty);
            }
        }
        // What names resolve to changes with the scope.
        s.names.clear();
        for stmt in block.children() {
            match stmt.kind() {
                INSTRUCTION => self.check_instruction(stmt, s),
                BLOCK => {
                    self.check_block(stmt, false, s);
                    s.names.clear();
                }
                CALL_TARGETS => {
                    for t in stmt.children().filter(|c| c.is(NAME_REF)) {
                        self.resolve_global_name(t);
                    }
                }
                BRANCH_TARGETS => {
                    for t in stmt.children().filter(|c| c.is(NAME_REF)) {
                        let text = name_ref_text(t);
                        if !self.has_label(text) {
                            self.error(t.range(), format!("undeclared label `{text}`"));
                        }
                    }
                }
                _ => {}
            }
        }
        self.labels.pop();
        if !function_body {
            self.pop_scope();
        }
    }

    fn resolve_global_name(&mut self, name: Node<'_>) {
        let text = name_ref_text(name);
        if !self.facts.globals.contains_key(text) {
            self.error(name.range(), format!("undeclared function `{text}`"));
        }
    }

    /// Finds the declaration of a register/variable/parameter visible here.
    fn lookup_local(&self, name: &str) -> Option<&Decl> {
        for (scope, ranges) in self.scopes.iter().rev().zip(self.ranges.iter().rev()) {
            if let Some(d) = scope.get(name) {
                return Some(d);
            }
            if !ranges.is_empty() {
                let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
                if digits < name.len() {
                    let (prefix, number) = name.split_at(digits);
                    let leading_zero = number.len() > 1 && number.starts_with('0');
                    if let (Some((count, decl)), Ok(n)) =
                        (ranges.get(prefix), number.parse::<u32>())
                    {
                        if n < *count && !leading_zero {
                            return Some(decl);
                        }
                    }
                }
            }
        }
        None
    }

    /// [`Checker::lookup_local`] of a `NAME_REF`, through a cache of the names
    /// looked up in the current block (see [`Scratch::names`]).
    fn resolve<'g>(&self, names: &mut Names<'g>, name: Node<'g>) -> Option<DeclFacts> {
        let Some(ident) = name.token(IDENT) else {
            return self.lookup_local("").map(|d| d.facts);
        };
        *names
            .entry(ident.id())
            .or_insert_with(|| self.lookup_local(ident.text()).map(|d| d.facts))
    }

    // --------------------------------------------------------- instructions

    fn check_instruction<'g>(&mut self, inst: Node<'g>, s: &mut Scratch<'g>) {
        // One walk over the children finds the guard, the opcode and the operands.
        let mut guard = None;
        let mut opcode = None;
        s.ops.clear();
        for child in inst.children() {
            match child.kind() {
                GUARD => {
                    guard.get_or_insert(child);
                }
                OPCODE => {
                    opcode.get_or_insert(child);
                }
                _ => s.ops.extend(Op::cast(child)),
            }
        }
        let ops = &s.ops[..];
        if let Some(pred) = guard.and_then(|g| g.child(NAME_REF)) {
            let text = name_ref_text(pred);
            let local = self.resolve(&mut s.names, pred);
            self.check_declared_before(pred, local);
            self.check_name(pred, NameUse::Value, local.is_some());
            if local.is_some_and(|d| !d.pred && d.reg) {
                self.error(
                    pred.range(),
                    format!("guard `{text}` is not a predicate register"),
                );
            }
        }
        let Some(opcode) = opcode else { return };
        let Some(name_tok) = opcode.token(IDENT) else {
            return;
        };
        s.mods.clear();
        s.mods.extend(dot_words(opcode));
        s.mod_texts.clear();
        s.mod_texts.extend(s.mods.iter().map(|t| t.text()));
        s.spelling.clear();
        s.spelling.push(name_tok.id());
        s.spelling.extend(s.mods.iter().map(|t| t.id()));
        let mod_texts = &s.mod_texts[..];

        let (family, name_parts) = match s.opcodes.get(&s.spelling[..]) {
            Some(known) => {
                s.types.clear();
                s.types.extend_from_slice(&known.types);
                (known.family, known.name_parts)
            }
            None => {
                let before = self.diags.len();
                let Some((family, name_parts)) =
                    self.check_opcode(opcode, name_tok, &s.mods, mod_texts, &mut s.types)
                else {
                    // Still resolve the names it uses.
                    for &op in ops {
                        self.check_operand_names(op, NameUse::Value, &mut s.names);
                    }
                    return;
                };
                if self.diags.len() == before {
                    let known = KnownOpcode {
                        family,
                        name_parts,
                        types: s.types.clone(),
                    };
                    s.opcodes.insert(s.spelling[..].into(), known);
                }
                (family, name_parts)
            }
        };
        let opcode_range = opcode.range();

        // Operands: names first, then shape against the forms. Each operand's
        // name is looked up once, here.
        s.operands.clear();
        for &op in ops {
            let local = match op.kind {
                OpKind::Name => self.resolve(&mut s.names, op.node),
                _ => None,
            };
            let class = self.classify(op, local);
            s.operands.push(InstOperand { op, local, class });
        }
        let operands = &s.operands[..];
        // What a bare name operand must be, for the "undeclared ..." message.
        let mut first_name_seen = false;
        for o in operands {
            if o.op.kind != OpKind::Name {
                self.check_operand_names(o.op, NameUse::Value, &mut s.names);
                self.check_register_expression(o.op, &mut s.names);
                continue;
            }
            let expected = match family.name {
                "bra" => NameUse::Label,
                "call" if !first_name_seen => NameUse::Function,
                _ => NameUse::Value,
            };
            first_name_seen = true;
            self.check_declared_before(o.op.node, o.local);
            self.check_name(o.op.node, expected, o.local.is_some());
        }
        self.check_forms(opcode_range, family, operands, &s.types);
        if family.name == "call" {
            self.check_call_target(ops);
            self.check_call_arguments(operands);
        }
        self.check_arch_specific(family, opcode_range);
        self.check_cvt_rounding(family, name_parts, mod_texts, opcode_range);
        self.check_float_rounding(family, mod_texts, opcode_range);
        self.check_vector_width(family, mod_texts, ops);
        self.check_state_space(family, name_parts, mod_texts, ops, &mut s.names);
        self.check_address_width(family, name_parts, mod_texts, ops, &mut s.names);
        self.check_barrier_id(family, ops);
    }

    /// The checks of an opcode and its modifiers, which depend on nothing but
    /// their spelling (and the module's header): finds the family, reports an
    /// unknown instruction or modifier and features the module's `.version` or
    /// `.target` is too old for, and collects the type modifiers into `types`.
    /// `None` for an unknown instruction.
    fn check_opcode<'g>(
        &mut self,
        opcode: Node<'g>,
        name_tok: Token<'g>,
        mods: &[Token<'g>],
        mod_texts: &[&'g str],
        types: &mut Vec<(&'g str, Option<TypeInfo>)>,
    ) -> Option<(&'static Family, NameParts)> {
        let opcode_range = opcode.range();
        let Some((family, name_parts)) = ptx_isa::lookup(name_tok.text(), mod_texts) else {
            let what = if ptx_isa::is_known_opcode(name_tok.text()) {
                format!("unknown instruction `{}`", opcode.text().trim_end())
            } else {
                format!("unknown instruction `{}`", name_tok.text())
            };
            self.error(opcode_range, what);
            return None;
        };
        self.require(
            opcode_range,
            || format!("`{}`", family.name),
            family.min_ptx,
            family.min_sm,
        );
        self.check_legacy_warp_sync(family, mod_texts, opcode_range);

        // Modifiers.
        types.clear();
        for (i, tok) in mods.iter().enumerate() {
            if name_parts.contains(i) {
                continue;
            }
            let m = tok.text();
            if family.is_type(m) {
                types.push((m, type_info(m)));
            }
            if !family.allows_modifier(m) {
                self.error(
                    tok.range(),
                    format!("unknown modifier `{m}` on `{}`", family.name),
                );
                continue;
            }
            if let Some(req) = family.requirements.iter().find(|r| r.modifier == m) {
                self.require(
                    tok.range(),
                    || format!("`{m}` on `{}`", family.name),
                    req.min_ptx,
                    req.min_sm,
                );
            } else if let Some((ptx, sm)) = ptx_isa::type_requirement(m) {
                self.require(tok.range(), || format!("`{m}`"), ptx, sm);
            }
        }
        Some((family, name_parts))
    }

    /// Families that exist only on architecture-specific targets (`sm_90a`,
    /// `sm_100a`): ptxas "not supported on .target 'sm_90'".
    fn check_arch_specific(&mut self, family: &Family, range: TextRange) {
        let Some(min_sm) = ptx_isa::arch_specific_family(family.name) else {
            return;
        };
        if self.facts.sm.is_some_and(|sm| sm >= min_sm)
            && !matches!(self.facts.sm_suffix, Some('a' | 'f'))
        {
            self.error(
                range,
                format!(
                    "`{}` needs an architecture-specific target such as sm_{min_sm}a (module targets {})",
                    family.name, self.facts.target_text
                ),
            );
        }
    }

    /// cvt between scalar types: int->float needs `.rn/.rz/.rm/.rp`, float->int
    /// needs `.rni/.rzi/.rmi/.rpi`, float narrowing needs a rounding and widening
    /// forbids one, int->int forbids one (ptxas 13.0.88 behaviour). `mods` are
    /// all the modifiers; those of the family name are skipped.
    /// `div`, `sqrt` and `rcp` of `.f32`/`.f64` need a rounding modifier or
    /// `.approx`/`.full`, whatever the `.version` (ptxas 13: "Rounding
    /// modifier or '.approx' modifier required for instruction 'div'").
    fn check_float_rounding(&mut self, family: &Family, mods: &[&str], range: TextRange) {
        if !matches!(family.name, "div" | "sqrt" | "rcp") {
            return;
        }
        let float = mods.iter().any(|m| matches!(*m, ".f32" | ".f64"));
        let mode = mods
            .iter()
            .any(|m| matches!(*m, ".rn" | ".rz" | ".rm" | ".rp" | ".approx" | ".full"));
        if float && !mode {
            self.error(
                range,
                format!(
                    "`{}` of a floating-point type needs a rounding modifier (.rn, .rz, .rm or .rp) or `.approx`",
                    family.name
                ),
            );
        }
    }

    fn check_cvt_rounding(
        &mut self,
        family: &Family,
        name_parts: NameParts,
        mods: &[&str],
        range: TextRange,
    ) {
        if family.name != "cvt" {
            return;
        }
        let mods = name_parts.rest(mods);
        let types: Vec<&str> = mods.iter().copied().filter(|m| family.is_type(m)).collect();
        let [dst, src] = types[..] else { return };
        let scalar = |t: &str| {
            matches!(
                t,
                ".u8"
                    | ".u16"
                    | ".u32"
                    | ".u64"
                    | ".s8"
                    | ".s16"
                    | ".s32"
                    | ".s64"
                    | ".f16"
                    | ".bf16"
                    | ".f32"
                    | ".f64"
            )
        };
        if !scalar(dst) || !scalar(src) {
            return;
        }
        let is_float = |t: &str| ptx_isa::type_kind(t) == Some(TypeKind::Float);
        let fp_round = mods
            .iter()
            .any(|m| matches!(*m, ".rn" | ".rz" | ".rm" | ".rp" | ".rna"));
        let int_round = mods
            .iter()
            .any(|m| matches!(*m, ".rni" | ".rzi" | ".rmi" | ".rpi"));
        let bits = |t: &str| ptx_isa::type_bits(t).unwrap_or(0);
        let problem = match (is_float(dst), is_float(src)) {
            (true, false) if !fp_round => Some("needs a rounding modifier (.rn, .rz, .rm or .rp) to convert an integer to floating point"),
            (false, true) if !int_round => Some("needs an integer rounding modifier (.rni, .rzi, .rmi or .rpi) to convert floating point to an integer"),
            (true, true) if bits(dst) < bits(src) && !fp_round => Some("needs a rounding modifier (.rn, .rz, .rm or .rp) to narrow a floating-point value"),
            (true, true) if bits(dst) > bits(src) && (fp_round || int_round) => Some("must not have a rounding modifier when widening a floating-point value"),
            (false, false) if fp_round || int_round => Some("must not have a rounding modifier between integer types"),
            _ => None,
        };
        if let Some(problem) = problem {
            self.error(range, format!("`cvt{dst}{src}` {problem}"));
        }
    }

    /// `ld.v4` and friends: every vector operand has as many elements as `.vN` says.
    fn check_vector_width(&mut self, family: &Family, mods: &[&str], operands: &[Op<'_>]) {
        if !matches!(family.name, "ld" | "ldu" | "st" | "ld.global.nc") {
            return;
        }
        let Some(width) = mods
            .iter()
            .find_map(|m| m.strip_prefix(".v")?.parse::<usize>().ok())
        else {
            return;
        };
        for op in operands {
            if op.kind == OpKind::Vector {
                let count = op.children().count();
                if count != width {
                    self.error(
                        op.range(),
                        format!("`.v{width}` needs {width} vector elements, found {count}"),
                    );
                }
            }
        }
    }

    /// A memory instruction with an explicit state space must address a variable
    /// of that space (`ld.shared` of a `.global` variable is an error). `mods`
    /// are all the modifiers; those of the family name are skipped.
    fn check_state_space<'g>(
        &mut self,
        family: &Family,
        name_parts: NameParts,
        mods: &[&str],
        operands: &[Op<'g>],
        names: &mut Names<'g>,
    ) {
        if !matches!(
            family.name,
            "ld" | "st" | "ldu" | "atom" | "red" | "prefetch" | "prefetchu"
        ) {
            return;
        }
        let Some(inst_space) = mods
            .iter()
            .enumerate()
            .filter(|&(i, _)| !name_parts.contains(i))
            .find_map(|(_, m)| memory_space(m))
        else {
            return;
        };
        for op in operands {
            if op.kind != OpKind::Address {
                continue;
            }
            let Some(base) = op.children().next().and_then(address_base) else {
                continue;
            };
            let text = name_ref_text(base.node);
            let var_space = match self.resolve(names, base.node) {
                Some(decl) => decl.space,
                None => self
                    .facts
                    .global_spaces
                    .get(text)
                    .and_then(|s| memory_space(s)),
            };
            if let Some(var_space) = var_space {
                if var_space != inst_space {
                    self.error(
                        base.range(),
                        format!(
                            "`{text}` is in the `{var_space}` state space but `{}` accesses `{inst_space}`",
                            family.name
                        ),
                    );
                }
            }
        }
    }

    /// ptxas 13 assembles only 64-bit code: a module that forms a global or
    /// generic address in 32 bits is rejected, whatever its `.address_size`
    /// (or none) and target ("32-Bit compilation is no longer supported"; for
    /// sm_90 and later "32-Bit ABI (--machine 32 or 32-Bit addressing) is not
    /// supported"). What makes it so, found by asking ptxas: `ld`/`st`/`ldu`/
    /// `atom`/`red`/`prefetch` of `.global` or generic memory through a 32-bit
    /// register (`[%r1+0]`); any `cvta` of type `.u32`; `mov` of a `.global`
    /// variable's address into 32 bits. Not: `.u32` parameters, 32-bit
    /// addresses of `.shared`/`.local`/`.const`/`.param` memory, `isspacep` of
    /// a 32-bit register.
    fn check_address_width<'g>(
        &mut self,
        family: &Family,
        name_parts: NameParts,
        mods: &[&str],
        operands: &[Op<'g>],
        names: &mut Names<'g>,
    ) {
        const MESSAGE: &str = "32-bit addressing is not supported by ptxas 13 (\"32-Bit compilation is no longer supported\"): global and generic addresses must be 64-bit";
        let is_32 = |ty: &str| matches!(ty, ".u32" | ".b32" | ".s32");
        match family.name {
            "ld" | "st" | "ldu" | "atom" | "red" | "prefetch" | "prefetchu" => {
                let space = mods
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| !name_parts.contains(i))
                    .find_map(|(_, m)| memory_space(m));
                for op in operands.iter().filter(|o| o.kind == OpKind::Address) {
                    // ptxas: "Immediate addresses allowed only for .local state space".
                    let immediate = op
                        .children()
                        .next()
                        .is_some_and(|c| c.kind == OpKind::Literal)
                        && op.children().nth(1).is_none();
                    if immediate && space != Some(".local") {
                        self.error(
                            op.range(),
                            "an immediate address (`[256]`) is allowed only in the `.local` state space",
                        );
                    }
                }
                if !matches!(space, None | Some(".global")) {
                    return;
                }
                for op in operands.iter().filter(|o| o.kind == OpKind::Address) {
                    let Some(base) = op.children().next().and_then(address_base) else {
                        continue;
                    };
                    let narrow = self
                        .resolve(names, base.node)
                        .is_some_and(|d| d.reg && d.ty.is_some_and(|(bits, _)| bits == 32));
                    if narrow {
                        self.error(base.range(), MESSAGE);
                    }
                }
            }
            "cvta" if mods.contains(&".u32") => {
                let range = operands
                    .first()
                    .map_or(TextRange::empty(0.into()), |o| o.range());
                self.error(range, MESSAGE);
            }
            "mov" => {
                if !mods.iter().any(|m| is_32(m)) {
                    return;
                }
                let Some(src) = operands.get(1).filter(|o| o.kind == OpKind::Name) else {
                    return;
                };
                let text = name_ref_text(src.node);
                if self.resolve(names, src.node).is_none()
                    && self.facts.global_spaces.get(text).map(String::as_str) == Some(".global")
                {
                    self.error(src.range(), MESSAGE);
                }
            }
            _ => {}
        }
    }

    /// Named barriers are numbered 0..=15.
    fn check_barrier_id(&mut self, family: &Family, operands: &[Op<'_>]) {
        if !matches!(family.name, "bar" | "barrier") {
            return;
        }
        let Some(lit) = operands.first().filter(|op| op.kind == OpKind::Literal) else {
            return;
        };
        let value = lit
            .node
            .first_token()
            .and_then(|t| ast::parse_literal(t.text()));
        if let Some(ast::LiteralValue::Int { value, .. }) = value {
            if value > 15 {
                self.error(
                    lit.range(),
                    format!("barrier number {value} is out of range: expected 0 to 15"),
                );
            }
        }
    }

    /// ptxas links whole programs by default: a call to a function that is only
    /// declared (`.extern`) must be one of the system calls it provides.
    fn check_call_target(&mut self, operands: &[Op<'_>]) {
        let Some(target) = operands
            .iter()
            .find(|o| o.kind != OpKind::ArgList)
            .filter(|o| o.kind == OpKind::Name)
        else {
            return;
        };
        let name = name_ref_text(target.node);
        if self.facts.globals.get(name) == Some(&GlobalKind::Function { defined: false })
            && !SYSCALLS.contains(&name)
        {
            self.error(
                target.range(),
                format!("unresolved extern function `{name}`: it is declared but not defined in this module, and ptxas links whole programs unless given -c"),
            );
        }
    }

    /// A direct call's argument lists against the callee's parameters, as
    /// ptxas checks them: as many return and input arguments as parameters
    /// ("Call has wrong number of parameters"), and an argument whose type
    /// is known has the byte size of its parameter's ("Type of argument does
    /// not match formal parameter"). Arguments of unknown size (immediates,
    /// arrays, predicates, undeclared names) are not judged.
    fn check_call_arguments(&mut self, operands: &[InstOperand<'_>]) {
        let mut lists = Vec::new();
        let mut target = None;
        for o in operands {
            match o.op.kind {
                OpKind::ArgList if target.is_none() => lists.push(("return", o)),
                OpKind::ArgList => lists.push(("input", o)),
                OpKind::Name if target.is_none() => target = Some(o),
                _ => {}
            }
            if lists.len() == 2 && target.is_some() {
                break;
            }
        }
        let Some(target) = target else { return };
        let name = name_ref_text(target.op.node);
        if target.local.is_some() {
            return; // an indirect call through a register
        }
        let Some(sig) = self.facts.signatures.get(name).cloned() else {
            return;
        };
        let (mut rets, mut args) = (None, None);
        for (which, o) in lists {
            if which == "return" {
                rets = Some(o);
            } else {
                args = Some(o);
            }
        }
        for (list, formals, what) in [(rets, &sig.rets, "return"), (args, &sig.params, "input")] {
            let items: Vec<Op<'_>> = list.map_or_else(Vec::new, |o| o.op.children().collect());
            if items.len() != formals.len() {
                let range = list.map_or(target.op.range(), |o| o.op.range());
                self.error(
                    range,
                    format!(
                        "call of `{name}` has {} {what} argument{}, the function has {} {what} parameter{}",
                        items.len(),
                        if items.len() == 1 { "" } else { "s" },
                        formals.len(),
                        if formals.len() == 1 { "" } else { "s" }
                    ),
                );
                continue;
            }
            for (k, (item, formal)) in items.iter().zip(formals).enumerate() {
                let Some(formal) = formal else { continue };
                if item.kind != OpKind::Name {
                    continue;
                }
                let Some(decl) = self.lookup_local(name_ref_text(item.node)) else {
                    continue;
                };
                if decl.facts.pred || decl.ty.as_deref() == Some(".pred") {
                    continue;
                }
                let Some(size) = decl.ty.as_deref().and_then(ptx_isa::type_bits) else {
                    continue;
                };
                let size = size.div_ceil(8);
                if size != *formal {
                    self.error(
                        item.range(),
                        format!(
                            "{what} argument {} of `{name}` is {size} bytes, its parameter {formal} bytes",
                            k + 1
                        ),
                    );
                }
            }
        }
    }

    /// Warp-synchronous instructions without `.sync` are gone from sm_70 on for
    /// PTX ISA 6.4 and later (ptxas: "not supported on .target sm_70 and higher").
    fn check_legacy_warp_sync(&mut self, family: &Family, mods: &[&str], range: TextRange) {
        let legacy = matches!(family.name, "vote" | "shfl") && !mods.contains(&".sync");
        let new_enough = self.facts.version.is_some_and(|v| v >= ptx_isa::v(6, 4));
        let volta_or_later = self.facts.sm.is_some_and(|sm| sm >= 70);
        if !legacy || !volta_or_later {
            return;
        }
        if new_enough {
            self.error(
                range,
                format!(
                    "`{}` without `.sync` is not supported on .target sm_70 and higher from PTX ISA version 6.4",
                    family.name
                ),
            );
        } else {
            self.diags.push(Diagnostic {
                range,
                severity: Severity::Warning,
                message: format!(
                    "`{}` without `.sync` may produce unpredictable results on sm_70 and later, and is deprecated since PTX ISA version 6.0",
                    family.name
                ),
            });
        }
    }

    fn check_operand_names<'g>(&mut self, op: Op<'g>, expected: NameUse, names: &mut Names<'g>) {
        match op.kind {
            OpKind::Name => {
                let decl = self.resolve(names, op.node);
                self.check_declared_before(op.node, decl);
                self.check_name(op.node, expected, decl.is_some());
            }
            OpKind::PredPair => {
                for p in op.node.children().filter(|c| c.is(NAME_REF)) {
                    let decl = self.resolve(names, p);
                    self.check_declared_before(p, decl);
                    self.check_name(p, NameUse::Value, decl.is_some());
                }
            }
            _ => {
                for child in op.children() {
                    self.check_operand_names(child, NameUse::Value, names);
                }
            }
        }
    }

    /// An operand expression with a register in it must be one lowering
    /// models (ptxas accepts fewer still): `-%r`, `!%p`, `%p|%q`, or a
    /// register plus or minus constants (`%rd1+8`). Anything else (`+%r3`,
    /// `%r1<4`, `(%r1)`, `%r1*2`) is an error, and so is a division by a
    /// literal zero in a constant (ptxas: "Constant expression has division by
    /// zero").
    fn check_register_expression<'g>(&mut self, op: Op<'g>, names: &mut Names<'g>) {
        self.check_division_by_zero(op);
        let ok = match op.kind {
            // Lowering takes the items of a bracketed operand one by one
            // (`[%rd1+8]`, `[tex, {%f1, %f2}]`) by the same rules.
            OpKind::Vector | OpKind::ArgList | OpKind::Address => {
                for child in op.children() {
                    self.check_register_expression(child, names);
                }
                return;
            }
            OpKind::Prefix => {
                matches!(operator_token(op.node), Some(BANG | MINUS))
                    && op.children().all(|c| c.kind == OpKind::Name)
            }
            OpKind::Binary => operator_token(op.node) == Some(PIPE) || register_plus_constants(op),
            OpKind::Paren | OpKind::Ternary | OpKind::Call => false,
            _ => return,
        };
        if ok {
            return;
        }
        let mut has_register = false;
        op.node.any_descendant(&mut |n| {
            if n.is(NAME_REF) && self.resolve(names, n).is_some_and(|d| d.reg) {
                has_register = true;
            }
            has_register
        });
        if has_register {
            self.error(
                op.range(),
                "unsupported operand expression: a register can only be negated (`-%r1`, `!%p1`) or offset by a constant (`%rd1+8`)",
            );
        }
    }

    fn check_division_by_zero(&mut self, op: Op<'_>) {
        let mut zero = None;
        op.node.any_descendant(&mut |n| {
            if n.is(BIN_EXPR) && matches!(operator_token(n), Some(SLASH | PERCENT)) {
                let rhs = n.children().filter(|c| Op::cast(*c).is_some()).nth(1);
                if let Some(rhs) = rhs.filter(|r| r.is(LITERAL)) {
                    let value = rhs.first_token().and_then(|t| ast::parse_literal(t.text()));
                    if let Some(ast::LiteralValue::Int { value: 0, .. }) = value {
                        zero = Some(n.range());
                    }
                }
            }
            zero.is_some()
        });
        if let Some(range) = zero {
            self.error(range, "division by zero in a constant expression");
        }
    }

    /// Reports a register used before its `.reg` line: ptxas takes the name
    /// for a forward reference to a label ("Label expected for forward
    /// reference of '%r1'"), and lowering declares registers in order.
    fn check_declared_before(&mut self, name: Node<'_>, decl: Option<DeclFacts>) {
        if let Some(d) = decl {
            if d.reg && d.start > u32::from(name.range().start()) {
                let text = name_ref_text(name);
                self.error(
                    name.range(),
                    format!("register `{text}` is used before its `.reg` declaration"),
                );
            }
        }
    }

    /// Reports a `NAME_REF` that names nothing declared; `declared` says whether
    /// the function declares it (the caller has looked it up).
    fn check_name(&mut self, name: Node<'_>, expected: NameUse, declared: bool) {
        let text = name_ref_text(name);
        if text.is_empty() || declared || self.has_label(text) {
            return;
        }
        if self.facts.globals.contains_key(text) || PREDEFINED_CONSTANTS.contains(&text) {
            return;
        }
        if text.starts_with('%') && ptx_isa::special_reg(text).is_some() {
            return;
        }
        let what = match expected {
            _ if text.starts_with('%') => "register",
            NameUse::Label => "label",
            NameUse::Function => "function",
            NameUse::Value => "name",
        };
        self.error(name.range(), format!("undeclared {what} `{text}`"));
    }

    fn check_forms(
        &mut self,
        opcode_range: TextRange,
        family: &'static Family,
        operands: &[InstOperand<'_>],
        types: &[(&str, Option<TypeInfo>)],
    ) {
        let forms = family.parsed_forms();
        if forms.is_empty() {
            return;
        }
        let count = operands.len();
        let fits = |f: &&ptx_isa::Form| {
            count >= f.min_operands() && f.max_operands().is_none_or(|m| count <= m)
        };
        if !forms.iter().any(|f| fits(&f)) {
            let expected = describe_counts(forms);
            self.error(
                opcode_range,
                format!("`{}` expects {expected}, found {count}", family.name),
            );
            return;
        }
        // The first fitting form without a kind or type mismatch wins. Otherwise
        // report the type mismatches of the first form whose kinds fit, or else
        // the first kind mismatch.
        let mut first_kind_problem: Option<Diagnostic> = None;
        let mut first_type_problems: Option<Vec<Diagnostic>> = None;
        for form in forms.iter().filter(fits) {
            let mut kind_problem = None;
            for (i, o) in operands.iter().enumerate() {
                let Some(spec) = form.spec_at(i) else { break };
                if let Some(msg) = self.kind_mismatch(o, spec) {
                    kind_problem = Some(Diagnostic {
                        range: o.op.range(),
                        severity: Severity::Error,
                        message: format!("operand {} of `{}`: {msg}", i + 1, family.name),
                    });
                    break;
                }
            }
            if let Some(p) = kind_problem {
                first_kind_problem.get_or_insert(p);
                continue;
            }
            let type_problems = self.operand_type_problems(family, form, operands, types);
            if type_problems.is_empty() {
                return;
            }
            first_type_problems.get_or_insert(type_problems);
        }
        match (first_type_problems, first_kind_problem) {
            (Some(problems), _) => self.diags.extend(problems),
            (None, Some(problem)) => self.diags.push(problem),
            (None, None) => {}
        }
    }

    /// What an operand syntactically is, for kind checks; `local` is the
    /// declaration of a name in the function.
    fn classify(&self, op: Op<'_>, local: Option<DeclFacts>) -> OpClass {
        match op.kind {
            OpKind::Name => {
                let text = name_ref_text(op.node);
                if let Some(d) = local {
                    if d.register {
                        return if d.pred { OpClass::Pred } else { OpClass::Reg };
                    }
                    return OpClass::Symbol;
                }
                if self.has_label(text) {
                    return OpClass::Label;
                }
                if text.starts_with('%') && ptx_isa::special_reg(text).is_some() {
                    return OpClass::Reg;
                }
                if PREDEFINED_CONSTANTS.contains(&text) {
                    return OpClass::Imm;
                }
                if matches!(
                    self.facts.globals.get(text),
                    Some(GlobalKind::Function { .. })
                ) {
                    return OpClass::Function;
                }
                OpClass::Symbol
            }
            OpKind::Literal => OpClass::Imm,
            OpKind::Prefix if op.node.first_token().is_some_and(|t| t.is(BANG)) => OpClass::NegPred,
            OpKind::Prefix | OpKind::Binary | OpKind::Paren | OpKind::Ternary => {
                if op.is_constant() {
                    OpClass::Imm
                } else {
                    OpClass::Expr
                }
            }
            OpKind::Call => OpClass::Expr,
            OpKind::Address => OpClass::Address,
            OpKind::Vector => OpClass::Vector,
            OpKind::ArgList => OpClass::ArgList,
            OpKind::PredPair => OpClass::PredPair,
            OpKind::Sink => OpClass::Sink,
        }
    }

    fn kind_mismatch(&self, o: &InstOperand<'_>, spec: &OperandSpec) -> Option<String> {
        use OpClass as C;
        use OperandKind as K;
        let class = o.class;
        // Undeclared names were reported already; don't pile on.
        if o.op.kind == OpKind::Name && class == C::Symbol && o.local.is_none() {
            let text = name_ref_text(o.op.node);
            if !self.facts.globals.contains_key(text) {
                return None;
            }
        }
        let ok = match spec.kind {
            K::Any => true,
            // ptxas accepts `%rd2+8` and `temp + 1` where a register goes.
            K::Reg => matches!(class, C::Reg | C::Expr),
            K::Pred => matches!(class, C::Pred),
            K::PredNeg => matches!(class, C::Pred | C::NegPred),
            K::PredPair => matches!(class, C::Pred | C::PredPair),
            K::Imm => matches!(class, C::Imm),
            K::RegOrImm => matches!(class, C::Reg | C::Imm | C::Expr),
            K::RegImmOrSymbol => {
                matches!(class, C::Reg | C::Imm | C::Symbol | C::Function | C::Expr)
            }
            K::Address => matches!(class, C::Address),
            K::Label => matches!(class, C::Label | C::Symbol),
            K::Symbol => matches!(class, C::Symbol | C::Function),
            K::Vector => matches!(class, C::Vector | C::Reg | C::Expr),
            K::VectorOrImm => matches!(class, C::Vector | C::Reg | C::Imm | C::Expr),
            K::RegOrSink => matches!(class, C::Reg | C::Sink),
            K::CallTarget => matches!(class, C::Function | C::Reg | C::Symbol),
            K::CallArgs => matches!(class, C::ArgList),
        };
        if ok {
            None
        } else {
            Some(format!(
                "expected {}, found {}",
                describe_kind(spec.kind),
                class.describe()
            ))
        }
    }

    fn operand_type_problems(
        &self,
        family: &Family,
        form: &ptx_isa::Form,
        operands: &[InstOperand<'_>],
        types: &[(&str, Option<TypeInfo>)],
    ) -> Vec<Diagnostic> {
        let mut problems = Vec::new();
        if family.type_check == TypeCheck::None {
            return problems;
        }
        for (i, o) in operands.iter().enumerate() {
            let Some(spec) = form.spec_at(i) else { break };
            if !matches!(o.op.kind, OpKind::Name | OpKind::Vector) {
                continue;
            }
            let expected: Option<(Cow<str>, Option<TypeInfo>)> = match spec.ty {
                OperandType::Unchecked => None,
                OperandType::Inst => types.last().map(|&(t, info)| (Cow::Borrowed(t), info)),
                OperandType::Nth(n) => types
                    .get(n as usize)
                    .map(|&(t, info)| (Cow::Borrowed(t), info)),
                OperandType::Wide => types.last().and_then(|(t, _)| resize(t, 2, 1)).map(|t| {
                    let info = type_info(&t);
                    (Cow::Owned(t), info)
                }),
                OperandType::Half => types.last().and_then(|(t, _)| resize(t, 1, 2)).map(|t| {
                    let info = type_info(&t);
                    (Cow::Owned(t), info)
                }),
                OperandType::Fixed(t) => Some((Cow::Borrowed(t), type_info(t))),
            };
            // An unknown expected type is compatible with every register.
            let Some((expected, Some(expected_info))) = expected else {
                continue;
            };
            let mut check_reg = |reg: Node<'_>, local: Option<DeclFacts>| {
                if reg.token(DOT_IDENT).is_some() {
                    return; // %r1.h0 / %tid.x selectors: not a plain register use.
                }
                let Some(decl) = local else { return };
                if !decl.reg {
                    return;
                }
                let Some(declared_info) = decl.ty else {
                    return;
                };
                if !types_compatible(expected_info, declared_info, family.type_check) {
                    let text = name_ref_text(reg);
                    let declared = self
                        .lookup_local(text)
                        .and_then(|d| d.ty.as_deref())
                        .unwrap_or_default();
                    problems.push(Diagnostic {
                        range: reg.range(),
                        severity: Severity::Error,
                        message: format!(
                            "`{text}` is declared `{declared}` but `{}` expects `{expected}` here",
                            family.name
                        ),
                    });
                }
            };
            match o.op.kind {
                OpKind::Name => check_reg(o.op.node, o.local),
                OpKind::Vector => {
                    for e in o.op.children().filter(|e| e.kind == OpKind::Name) {
                        let local = self.lookup_local(name_ref_text(e.node)).map(|d| d.facts);
                        check_reg(e.node, local);
                    }
                }
                _ => {}
            }
        }
        problems
    }
}

/// Buffers of [`Checker::check_instruction`], reused from one instruction to
/// the next.
#[derive(Default)]
struct Scratch<'g> {
    /// The operands, in order.
    ops: Vec<Op<'g>>,
    /// The operands with what their names resolve to.
    operands: Vec<InstOperand<'g>>,
    /// The modifiers.
    mods: Vec<Token<'g>>,
    /// The modifiers' texts.
    mod_texts: Vec<&'g str>,
    /// The tokens of the opcode word and the modifiers.
    spelling: Vec<TokenId<'g>>,
    /// The type modifiers, with their sizes and kinds.
    types: Vec<(&'g str, Option<TypeInfo>)>,
    /// What the names of the current block resolve to: a cache of
    /// [`Checker::lookup_local`] by identifier token, cleared when the scope
    /// changes.
    names: Names<'g>,
    /// Opcodes of the function checked before without a diagnostic, by
    /// spelling (their tokens): the checks of [`Checker::check_opcode`] depend
    /// on nothing else, so an opcode spelled the same way again is not checked
    /// again.
    opcodes: FxHashMap<Box<[TokenId<'g>]>, KnownOpcode<'g>>,
}

/// Names and their declarations in the function (see [`Checker::resolve`]).
type Names<'g> = FxHashMap<TokenId<'g>, Option<DeclFacts>>;

/// What [`Checker::check_opcode`] found of an opcode without diagnostics.
struct KnownOpcode<'g> {
    family: &'static Family,
    name_parts: NameParts,
    types: Vec<(&'g str, Option<TypeInfo>)>,
}

/// An operand of the instruction being checked, with what its name resolves to.
#[derive(Clone, Copy, Debug)]
struct InstOperand<'g> {
    op: Op<'g>,
    /// The declaration in the function of a name operand.
    local: Option<DeclFacts>,
    class: OpClass,
}

/// What an operand node is (the kinds [`ast::Operand`] has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpKind {
    Name,
    Literal,
    Prefix,
    Binary,
    Paren,
    Call,
    Ternary,
    Address,
    Vector,
    ArgList,
    PredPair,
    Sink,
}

/// An operand or constant expression: the green counterpart of [`ast::Operand`].
#[derive(Clone, Copy, Debug)]
struct Op<'g> {
    node: Node<'g>,
    kind: OpKind,
}

impl<'g> Op<'g> {
    fn cast(node: Node<'g>) -> Option<Op<'g>> {
        let kind = match node.kind() {
            NAME_REF => OpKind::Name,
            LITERAL => OpKind::Literal,
            PREFIX_EXPR => OpKind::Prefix,
            BIN_EXPR => OpKind::Binary,
            PAREN_EXPR => OpKind::Paren,
            CALL_EXPR => OpKind::Call,
            TERNARY_EXPR => OpKind::Ternary,
            ADDRESS => OpKind::Address,
            VECTOR => OpKind::Vector,
            ARG_LIST => OpKind::ArgList,
            PRED_PAIR => OpKind::PredPair,
            SINK => OpKind::Sink,
            _ => return None,
        };
        Some(Op { node, kind })
    }

    fn range(self) -> TextRange {
        self.node.range()
    }

    /// Sub-operands: the elements of an address, vector or argument list, the
    /// operands of an expression.
    fn children(self) -> impl Iterator<Item = Op<'g>> {
        self.node.children().filter_map(Op::cast)
    }

    /// Whether this is a constant expression (literals and operators only, no
    /// names).
    fn is_constant(self) -> bool {
        match self.kind {
            OpKind::Literal => true,
            OpKind::Prefix | OpKind::Binary | OpKind::Paren | OpKind::Ternary => {
                self.children().all(Op::is_constant)
            }
            _ => false,
        }
    }

    /// Whether this is a constant expression of integers only (what an
    /// address offset may be: `[%rd1+-0.5]` is no address).
    fn is_int_constant(self) -> bool {
        match self.kind {
            OpKind::Literal => self.node.first_token().is_some_and(|t| !t.is(FLOAT_NUMBER)),
            OpKind::Prefix | OpKind::Binary | OpKind::Paren | OpKind::Ternary => {
                self.children().all(Op::is_int_constant)
            }
            _ => false,
        }
    }
}

/// The operator of an expression node: its first token that is not trivia.
fn operator_token(node: Node<'_>) -> Option<crate::SyntaxKind> {
    node.tokens().map(|t| t.kind()).find(|k| !k.is_trivia())
}

/// `%r`, `%r+4`, `%r-1+2`, `4+%r`: a name plus or minus constants, as
/// lowering's `base_and_offset` reads it.
fn register_plus_constants(op: Op<'_>) -> bool {
    match op.kind {
        // A register with a component (`%rd1.x+8`) is no base lowering takes.
        OpKind::Name => !op.node.tokens().any(|t| t.is(DOT_IDENT)),
        OpKind::Binary => {
            let mut children = op.children();
            let (Some(lhs), Some(rhs)) = (children.next(), children.next()) else {
                return false;
            };
            match operator_token(op.node) {
                Some(PLUS | MINUS) if rhs.is_int_constant() => register_plus_constants(lhs),
                Some(PLUS) if lhs.is_int_constant() => register_plus_constants(rhs),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The text of a `NAME_REF`'s identifier, `""` if it has none.
fn name_ref_text(name: Node<'_>) -> &str {
    name.token(IDENT).map_or("", |t| t.text())
}

/// The text of a `NAME` (its first token), `""` if it has none.
fn name_text(name: Node<'_>) -> &str {
    name.first_token().map_or("", |t| t.text())
}

/// The dotted words of a node: of a `VAR_DECL` linkage, state space, `.align`,
/// vector width, type; of an `OPCODE` the modifiers.
fn dot_words(node: Node<'_>) -> impl Iterator<Item = Token<'_>> {
    node.tokens().filter(|t| t.is(DOT_IDENT))
}

/// `.reg`, `.global`, `.shared`, ... of a `VAR_DECL`.
fn decl_state_space(decl: Node<'_>) -> Option<Token<'_>> {
    dot_words(decl).find(|t| !matches!(t.text(), ".visible" | ".extern" | ".weak" | ".common"))
}

/// The type word of a `VAR_DECL` (the last fundamental type among its words).
fn decl_type(decl: Node<'_>) -> Option<Token<'_>> {
    dot_words(decl)
        .filter(|t| ptx_isa::type_bits(t.text()).is_some())
        .last()
}

/// The value after `.align` in a `VAR_DECL`.
fn decl_align(decl: Node<'_>) -> Option<u64> {
    let mut iter = decl.tokens().skip_while(|t| t.text() != ".align");
    iter.next()?;
    ast::parse_int(iter.find(|t| t.is(INT_NUMBER))?.text())
}

/// `N` of a parameterized register declaration `%r<N>` (a `DECLARATOR`).
fn reg_count(declarator: Node<'_>) -> Option<u32> {
    let count = declarator.child(REG_COUNT)?;
    count.token(INT_NUMBER)?.text().parse().ok()
}

/// The variable or register an address is based on: `x` of `[x]`, `[x+4]`.
fn address_base(item: Op<'_>) -> Option<Op<'_>> {
    match item.kind {
        OpKind::Name => Some(item),
        OpKind::Binary => item.children().next().and_then(address_base),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NameUse {
    /// A register, variable, parameter or constant.
    Value,
    /// A branch target.
    Label,
    /// A call target.
    Function,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpClass {
    Reg,
    Pred,
    NegPred,
    PredPair,
    Imm,
    Expr,
    Symbol,
    Function,
    Label,
    Address,
    Vector,
    ArgList,
    Sink,
}

impl OpClass {
    fn describe(self) -> &'static str {
        match self {
            OpClass::Reg => "a register",
            OpClass::Pred => "a predicate",
            OpClass::NegPred => "a negated predicate",
            OpClass::PredPair => "a predicate pair",
            OpClass::Imm => "a constant",
            OpClass::Expr => "an expression",
            OpClass::Symbol => "a variable name",
            OpClass::Function => "a function name",
            OpClass::Label => "a label",
            OpClass::Address => "a memory address",
            OpClass::Vector => "a vector",
            OpClass::ArgList => "an argument list",
            OpClass::Sink => "`_`",
        }
    }
}

fn describe_kind(kind: OperandKind) -> &'static str {
    match kind {
        OperandKind::Reg => "a register",
        OperandKind::Pred => "a predicate register",
        OperandKind::PredNeg => "a predicate",
        OperandKind::PredPair => "a predicate or predicate pair",
        OperandKind::Imm => "a constant",
        OperandKind::RegOrImm => "a register or constant",
        OperandKind::RegImmOrSymbol => "a register, constant or symbol",
        OperandKind::Address => "a memory address `[...]`",
        OperandKind::Label => "a label",
        OperandKind::Symbol => "a symbol name",
        OperandKind::Vector => "a vector `{...}` or register",
        OperandKind::VectorOrImm => "a vector, register or constant",
        OperandKind::RegOrSink => "a register or `_`",
        OperandKind::CallTarget => "a function name or register",
        OperandKind::CallArgs => "an argument list `(...)`",
        OperandKind::Any => "an operand",
    }
}

fn describe_counts(forms: &[ptx_isa::Form]) -> String {
    let mut counts: Vec<String> = Vec::new();
    for f in forms {
        let text = match f.max_operands() {
            None => format!("at least {}", f.min_operands()),
            Some(max) if max == f.min_operands() => max.to_string(),
            Some(max) => format!("{} to {max}", f.min_operands()),
        };
        if !counts.contains(&text) {
            counts.push(text);
        }
    }
    let last = counts.pop().unwrap_or_default();
    let joined = if counts.is_empty() {
        last
    } else {
        format!("{} or {last}", counts.join(", "))
    };
    let plural = if joined == "1" { "operand" } else { "operands" };
    format!("{joined} {plural}")
}

/// `.s32` scaled by `num/den` in width (`.s64` for 2/1), keeping its kind.
fn resize(ty: &str, num: u32, den: u32) -> Option<String> {
    let bits = ptx_isa::type_bits(ty)?;
    let new_bits = bits * num / den;
    let prefix = match ptx_isa::type_kind(ty)? {
        TypeKind::Bits => "b",
        TypeKind::Signed => "s",
        TypeKind::Unsigned => "u",
        TypeKind::Float => "f",
        TypeKind::Pred => return None,
    };
    let candidate = format!(".{prefix}{new_bits}");
    ptx_isa::type_bits(&candidate).map(|_| candidate)
}

/// The state space a memory instruction's modifier or a declaration's space
/// word names (`.shared::cta` is `.shared`).
fn memory_space(word: &str) -> Option<&'static str> {
    match word {
        ".global" => Some(".global"),
        ".shared" | ".shared::cta" | ".shared::cluster" => Some(".shared"),
        ".local" => Some(".local"),
        ".const" => Some(".const"),
        ".param" | ".param::entry" | ".param::func" => Some(".param"),
        _ => None,
    }
}

/// Size in bits and kind of a fundamental type.
type TypeInfo = (u32, TypeKind);

/// The size and kind of a fundamental type name, None for another word.
fn type_info(ty: &str) -> Option<TypeInfo> {
    Some((ptx_isa::type_bits(ty)?, ptx_isa::type_kind(ty)?))
}

/// The PTX ISA type-compatibility rules for a register declared of type
/// `declared` used where `expected` is needed (unknown types, which have no
/// [`TypeInfo`], are compatible).
fn types_compatible(expected: TypeInfo, declared: TypeInfo, rule: TypeCheck) -> bool {
    let ((eb, ek), (db, dk)) = (expected, declared);
    if ek == TypeKind::Pred || dk == TypeKind::Pred {
        return ek == dk;
    }
    match rule {
        TypeCheck::None => true,
        TypeCheck::Relaxed => db >= eb,
        TypeCheck::Strict => {
            if eb != db {
                return false;
            }
            match (ek, dk) {
                (_, TypeKind::Bits) | (TypeKind::Bits, _) => true,
                (TypeKind::Float, TypeKind::Float) => true,
                (TypeKind::Float, _) | (_, TypeKind::Float) => false,
                _ => true,
            }
        }
    }
}

/// Whether a syntax node is inside a function body (for callers mapping ranges).
pub fn enclosing_function(node: &SyntaxNode) -> Option<ast::Function> {
    node.ancestors().find_map(ast::Function::cast)
}
