//! The module's static layout: where every variable lives, and its initial
//! bytes.
//!
//! Module-level and function-level `.global` variables become global
//! allocations, `.const` variables offsets in the const segment, `.shared`
//! variables offsets in the CTA's static shared memory (every `.extern .shared`
//! array of unknown size starts the dynamic region), module-level `.local`
//! variables offsets at the bottom of every thread's local memory. Sizes are
//! the element size times the array dimensions; alignment is `.align` or the
//! element size. Initializers (`= {1, 2, 3}`, `= 0f3F800000`, `= generic(tab)+4`,
//! nested braces) are evaluated once the addresses are known, so they may name
//! any variable or function.

use rustc_hash::FxHashMap;

use ptx_ir::ir::{LocalDecl, Module, ModuleItem, VarDecl, Variable};

use crate::error::{EmuError, ErrorKind};
use crate::float::{from_f64, Fmt, Rnd};
use crate::memory::{write_le, AddrMap, GlobalMem};
use crate::texture;
use crate::types::{mask, Ty, TyFmt};

/// The largest variable the emulator allocates (4 GiB).
pub const MAX_VARIABLE: u64 = 1 << 32;

/// The size of a constant bank.
pub const CONST_BANK: u64 = 64 * 1024;

/// Where a named symbol lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymLoc {
    /// A global address.
    Global(u64),
    Const(u64),
    Shared(u64),
    /// A module-level `.local` variable (the same offset in every thread).
    StaticLocal(u64),
    /// A kernel parameter (offset in the kernel parameter buffer).
    KParam(u64),
    /// A `.param` of the current frame (offset from the frame's base).
    FrameParam(u64),
    /// A `.local` of the current frame.
    FrameLocal(u64),
    /// A function (index into the program's functions).
    Func(u32),
    /// A named constant (`WARP_SZ`).
    Value(u64),
}

/// The static layout of a module.
#[derive(Clone, Debug)]
pub struct Layout {
    pub map: AddrMap,
    pub module_syms: FxHashMap<String, SymLoc>,
    /// Function-level `.global/.const/.shared` variables, per function
    /// definition (index into `Module::functions`).
    pub func_statics: Vec<FxHashMap<String, SymLoc>>,
    /// Bytes of static shared memory; the dynamic region starts here.
    pub shared_static: u64,
    pub static_local: u64,
    pub const_seg: Vec<u8>,
    /// Texture, sampler and surface objects of module-level `.texref`,
    /// `.samplerref`, `.surfref` (and legacy `.tex`) variables; their
    /// handles are [`texture::handle`] of the index.
    pub objects: Vec<texture::Obj>,
}

/// A variable to initialize once every address is known.
struct Pending {
    loc: SymLoc,
    ty: String,
    init: String,
    size: u64,
    func: Option<usize>,
}

/// The size of one element and the alignment of a declaration.
fn elem_size(decl: &VarDecl) -> (u64, u64) {
    let ty = Ty::parse(&decl.ty).map(|t| t.bytes() as u64).unwrap_or(8);
    let elem = ty * decl.vector.unwrap_or(1) as u64;
    (elem, decl.align.unwrap_or(elem).clamp(1, 1 << 16))
}

/// Number of elements: the product of the dimensions, with an unsized
/// dimension taken from the initializer.
fn elem_count(var: &Variable) -> Option<u64> {
    let mut n = 1u64;
    for d in &var.dims {
        match d {
            Some(k) => n = n.checked_mul(*k)?,
            None => {
                let items = var.init.as_deref().map(count_items).unwrap_or(0);
                return if items == 0 { None } else { Some(items as u64) };
            }
        }
    }
    Some(n)
}

fn count_items(init: &str) -> usize {
    match parse_init(init) {
        Ok(items) => items.len(),
        Err(_) => 0,
    }
}

impl Layout {
    /// Lays out a module; also allocates its global variables on `global`.
    pub fn build(
        module: &Module,
        func_index: &FxHashMap<String, u32>,
        global: &mut GlobalMem,
    ) -> Result<Layout, EmuError> {
        let map = AddrMap::new(module.header.address_size.unwrap_or(64));
        let mut layout = Layout {
            map,
            module_syms: FxHashMap::default(),
            func_statics: vec![FxHashMap::default(); module.functions.len()],
            shared_static: 0,
            static_local: 0,
            const_seg: Vec::new(),
            objects: Vec::new(),
        };
        layout
            .module_syms
            .insert("WARP_SZ".to_string(), SymLoc::Value(32));
        for (name, &i) in func_index {
            layout.module_syms.insert(name.clone(), SymLoc::Func(i));
        }
        let mut pending = Vec::new();
        let mut extern_shared = Vec::new();
        let banks: Vec<VarDecl> = module
            .items
            .iter()
            .filter_map(|item| match item {
                ModuleItem::Verbatim(text) => Some(verbatim_decls(text)),
                _ => None,
            })
            .flatten()
            .collect();
        let decls = module
            .items
            .iter()
            .filter_map(|item| match item {
                ModuleItem::Var(decl) => Some(decl),
                _ => None,
            })
            .chain(&banks);
        for decl in decls {
            {
                for var in &decl.vars {
                    if let Some(loc) =
                        layout.place(decl, var, global, &mut pending, &mut extern_shared, None)?
                    {
                        layout.module_syms.insert(var.name.clone(), loc);
                    }
                }
            }
        }
        for (fi, f) in module.functions.iter().enumerate() {
            for local in &f.locals {
                let LocalDecl::Var(decl) = local else {
                    continue;
                };
                if !matches!(decl.space.as_str(), ".global" | ".const")
                    && !decl.space.starts_with(".shared")
                {
                    continue;
                }
                for var in &decl.vars {
                    if let Some(loc) = layout.place(
                        decl,
                        var,
                        global,
                        &mut pending,
                        &mut extern_shared,
                        Some(fi),
                    )? {
                        layout.func_statics[fi].insert(var.name.clone(), loc);
                    }
                }
            }
        }
        // The dynamic shared region follows the static variables.
        layout.shared_static = layout.shared_static.div_ceil(16) * 16;
        for (fi, name) in extern_shared {
            let loc = SymLoc::Shared(layout.shared_static);
            match fi {
                Some(fi) => layout.func_statics[fi].insert(name, loc),
                None => layout.module_syms.insert(name, loc),
            };
        }
        for p in pending {
            layout.initialize(&p, global)?;
        }
        Ok(layout)
    }

    /// Places one variable; `None` for the ones without storage here (extern
    /// shared arrays, placed after the static ones; textures).
    fn place(
        &mut self,
        decl: &VarDecl,
        var: &Variable,
        global: &mut GlobalMem,
        pending: &mut Vec<Pending>,
        extern_shared: &mut Vec<(Option<usize>, String)>,
        func: Option<usize>,
    ) -> Result<Option<SymLoc>, EmuError> {
        let (elem, align) = elem_size(decl);
        let mut space = decl.space.split("::").next().unwrap_or("");
        if let Some(kind) = opaque_kind(space, &decl.ty) {
            return self.place_object(kind, var, global).map(Some);
        }
        // Legacy constant banks (`.const[1]`) share the const segment.
        if space.starts_with(".const[") {
            space = ".const";
        }
        let mut count = elem_count(var);
        if space == ".const" && count.is_none() {
            // An `.extern .const[N]` bank of unknown size (filled by the
            // driver): a bank's 64 KiB of zeros.
            count = Some(CONST_BANK / elem.max(1));
        }
        if space == ".shared" && count.is_none() {
            extern_shared.push((func, var.name.clone()));
            return Ok(None);
        }
        let size = elem
            .checked_mul(count.unwrap_or(0))
            .filter(|&s| s <= MAX_VARIABLE)
            .ok_or_else(|| {
                EmuError::new(ErrorKind::Unsupported(format!(
                    "variable `{}` is larger than {MAX_VARIABLE} bytes",
                    var.name
                )))
            })?;
        let loc = match space {
            ".global" => {
                let bytes = crate::memory::try_zeroed(size, &format!("variable `{}`", var.name))?;
                let base = global.alloc(bytes, align, &var.name);
                SymLoc::Global(base)
            }
            ".const" => {
                let off = (self.const_seg.len() as u64).div_ceil(align) * align;
                let end = (off + size) as usize;
                self.const_seg
                    .try_reserve(end.saturating_sub(self.const_seg.len()))
                    .map_err(|_| {
                        EmuError::new(ErrorKind::Unsupported(format!(
                            "cannot allocate {size} bytes for variable `{}`",
                            var.name
                        )))
                    })?;
                self.const_seg.resize(end, 0);
                SymLoc::Const(off)
            }
            ".shared" => {
                let off = self.shared_static.div_ceil(align) * align;
                self.shared_static = off + size;
                SymLoc::Shared(off)
            }
            ".local" => {
                let off = self.static_local.div_ceil(align) * align;
                self.static_local = off + size;
                SymLoc::StaticLocal(off)
            }
            _ => return Ok(None),
        };
        // Opaque handles (`.texref`, `.samplerref`, `.surfref`) keep their
        // initializers to the texture unit, which is not emulated.
        let opaque = Ty::parse(&decl.ty).is_none();
        if let Some(init) = var.init.as_ref().filter(|_| !opaque) {
            pending.push(Pending {
                loc,
                ty: decl.ty.clone(),
                init: init.clone(),
                size,
                func,
            });
        }
        Ok(Some(loc))
    }

    /// Creates the object of a `.texref`/`.samplerref`/`.surfref` variable:
    /// a default image generated from the name's hash, a sampler from the
    /// initializer.
    fn place_object(
        &mut self,
        kind: texture::ObjKind,
        var: &Variable,
        global: &mut GlobalMem,
    ) -> Result<SymLoc, EmuError> {
        use texture::{Image, ImageDesc, Obj, ObjKind, Sampler};
        let seed = name_seed(&var.name);
        let sampler = var
            .init
            .as_deref()
            .map(Sampler::from_init)
            .unwrap_or_default();
        let mut image = |img: Image| {
            let dims = img.dims;
            let base = global.alloc(img.bytes, 256, &var.name);
            ImageDesc { base, dims }
        };
        let obj = match kind {
            ObjKind::Texture => Obj::Texture {
                img: image(Image::default_texture(seed)),
                sampler,
            },
            ObjKind::Surface => Obj::Surface(image(Image::default_surface(seed))),
            ObjKind::Sampler => Obj::Sampler(sampler),
        };
        self.objects.push(obj);
        Ok(SymLoc::Value(texture::handle(self.objects.len() - 1, kind)))
    }

    fn lookup(&self, name: &str, func: Option<usize>) -> Option<SymLoc> {
        func.and_then(|f| self.func_statics[f].get(name).copied())
            .or_else(|| self.module_syms.get(name).copied())
    }

    /// The address value of a symbol in an initializer: its address in its
    /// space, or the generic address with `generic(...)`.
    fn sym_value(&self, name: &str, generic: bool, func: Option<usize>) -> Result<u64, EmuError> {
        let loc = self.lookup(name, func).ok_or_else(|| {
            EmuError::new(ErrorKind::Malformed(format!(
                "initializer names unknown symbol `{name}`"
            )))
        })?;
        let m = &self.map;
        Ok(match loc {
            SymLoc::Global(a) => a,
            SymLoc::Const(a) => a + if generic { m.const_win } else { 0 },
            SymLoc::Shared(a) => a + if generic { m.shared_win } else { 0 },
            SymLoc::StaticLocal(a) => a + if generic { m.local_win } else { 0 },
            SymLoc::Func(i) => m.func_addr(i),
            SymLoc::Value(v) => v,
            _ => 0,
        })
    }

    fn initialize(&mut self, p: &Pending, global: &mut GlobalMem) -> Result<(), EmuError> {
        let bad = |m: String| EmuError::new(ErrorKind::Unsupported(m));
        let items =
            parse_init(&p.init).map_err(|e| bad(format!("initializer `{}`: {e}", p.init)))?;
        let ty = Ty::parse(&p.ty).ok_or_else(|| bad(format!("initializer of type `{}`", p.ty)))?;
        let width = ty.bytes() as usize;
        let mut bytes = crate::memory::try_zeroed(p.size, "an initializer")?;
        for (i, item) in items.iter().enumerate() {
            let start = i * width;
            if start + width > bytes.len() {
                break;
            }
            let v = match item {
                InitItem::Int(v) => int_as(ty, *v),
                InitItem::F32(bits) => {
                    float_as(ty, f32::from_bits(*bits) as f64, Some(*bits as u64))
                }
                InitItem::F64(x) => float_as(ty, *x, None),
                InitItem::Sym {
                    name,
                    offset,
                    generic,
                } => self
                    .sym_value(name, *generic, p.func)?
                    .wrapping_add(*offset as u64),
            };
            write_le(&mut bytes[start..start + width.min(8)], v);
        }
        match p.loc {
            SymLoc::Global(a) => {
                if let Some(s) = global.slice_mut(a, p.size) {
                    s.copy_from_slice(&bytes);
                }
            }
            SymLoc::Const(off) => {
                self.const_seg[off as usize..(off + p.size) as usize].copy_from_slice(&bytes)
            }
            // Shared and local memory cannot be initialized in PTX; ignore.
            _ => {}
        }
        Ok(())
    }
}

/// The variables of a declaration that lowering keeps verbatim, when the
/// words it does not model do not matter to the emulator: a legacy constant
/// bank (`.const[0] .b32 bias;`, `.extern .const[1] .b8 bank[];`: the plain
/// `.const` space holds every bank here) and `.attribute(.managed)` (managed
/// memory is global memory). The rest is re-lowered without them.
fn verbatim_decls(text: &str) -> Vec<VarDecl> {
    let mut plain = text.to_string();
    if let Some(at) = plain.find(".const[") {
        if let Some(close) = plain[at..].find(']') {
            plain.replace_range(at + ".const".len()..at + close + 1, "");
        }
    }
    if let Some(at) = plain.find(".attribute") {
        if let Some(close) = plain[at..].find(')') {
            plain.replace_range(at..at + close + 1, "");
        }
    }
    if plain == text {
        return Vec::new();
    }
    let plain = format!(".version 8.0\n.target sm_80\n.address_size 64\n{plain}\n");
    let (m, _) = ptx_ir::lower_module(&ptx_syntax::parse(&plain));
    m.items
        .into_iter()
        .filter_map(|item| match item {
            ModuleItem::Var(d) if matches!(d.space.as_str(), ".const" | ".global") => Some(d),
            _ => None,
        })
        .collect()
}

/// The object kind of an opaque declaration (`.global .texref t`, legacy
/// `.tex .u32 t`).
pub fn opaque_kind(space: &str, ty: &str) -> Option<texture::ObjKind> {
    use texture::ObjKind;
    match ty {
        ".texref" => Some(ObjKind::Texture),
        ".samplerref" => Some(ObjKind::Sampler),
        ".surfref" => Some(ObjKind::Surface),
        _ if space == ".tex" => Some(ObjKind::Texture),
        _ => None,
    }
}

/// A seed from a name (FNV-1a), so that a variable's default image is the
/// same in every module that declares it.
pub fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn int_as(ty: Ty, v: i128) -> u64 {
    match ty.fmt() {
        Some(fmt) if ty.is_float() => from_f64(fmt, v as f64, Rnd::Rn),
        _ => (v as u64) & mask(ty.bits().min(64)),
    }
}

fn float_as(ty: Ty, x: f64, f32_bits: Option<u64>) -> u64 {
    match ty {
        Ty::F64 => x.to_bits(),
        Ty::F32 => f32_bits.unwrap_or_else(|| from_f64(Fmt::F32, x, Rnd::Rn)),
        _ if ty.is_float() => from_f64(ty.fmt().unwrap_or(Fmt::F32), x, Rnd::Rn),
        // A float literal for an integer or bit type: its bits.
        _ => match f32_bits {
            Some(b) => b,
            None if ty.bits() == 32 => from_f64(Fmt::F32, x, Rnd::Rn),
            None => x.to_bits(),
        },
    }
}

/// One scalar of an initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum InitItem {
    Int(i128),
    /// `0fXXXXXXXX`.
    F32(u32),
    /// `0dXXXX...` or a decimal float.
    F64(f64),
    Sym {
        name: String,
        offset: i64,
        generic: bool,
    },
}

/// Flattens an initializer (nested braces) into its scalars. Each scalar is
/// a constant expression (C operators and precedence) over integers, or a
/// float literal, or a symbol with an optional `generic(...)` and offset.
pub fn parse_init(text: &str) -> Result<Vec<InitItem>, String> {
    let tokens = tokenize(text)?;
    let mut items = Vec::new();
    let mut p = Parser { t: &tokens, pos: 0 };
    while p.pos < tokens.len() {
        match tokens[p.pos].as_str() {
            "{" | "}" | "," => p.pos += 1,
            _ => items.push(p.expr(0)?),
        }
    }
    Ok(items)
}

fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if (c == '<' || c == '>') && chars.get(i + 1) == Some(&c) {
            out.push(format!("{c}{c}"));
            i += 2;
        } else if "{}(),+-*/%&|^~!".contains(c) {
            out.push(c.to_string());
            i += 1;
        } else if c.is_alphanumeric() || "_$%.".contains(c) {
            let start = i;
            while i < chars.len() {
                let d = chars[i];
                // A sign right after an exponent letter belongs to the number.
                let exp_sign = (d == '+' || d == '-')
                    && i > start
                    && matches!(chars[i - 1], 'e' | 'E')
                    && chars[start].is_ascii_digit()
                    && !chars[start..i].iter().any(|c| matches!(c, 'x' | 'X'));
                if d.is_alphanumeric() || "_$.".contains(d) || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(chars[start..i].iter().collect());
        } else {
            return Err(format!("unexpected `{c}`"));
        }
    }
    Ok(out)
}

/// A recursive-descent parser of initializer expressions.
struct Parser<'a> {
    t: &'a [String],
    pos: usize,
}

/// Binary operators by precedence level (loosest first).
const LEVELS: &[&[&str]] = &[
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.t.get(self.pos).map(String::as_str)
    }

    fn expr(&mut self, level: usize) -> Result<InitItem, String> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.expr(level + 1)?;
        while let Some(op) = self.peek().filter(|op| LEVELS[level].contains(op)) {
            let op = op.to_string();
            self.pos += 1;
            let rhs = self.expr(level + 1)?;
            lhs = binary(&op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<InitItem, String> {
        match self.peek() {
            Some("-") => {
                self.pos += 1;
                Ok(match self.unary()? {
                    InitItem::Int(v) => InitItem::Int(v.wrapping_neg()),
                    InitItem::F32(b) => InitItem::F32(b ^ 0x8000_0000),
                    InitItem::F64(x) => InitItem::F64(-x),
                    InitItem::Sym { .. } => return Err("negated symbol".into()),
                })
            }
            Some("+") => {
                self.pos += 1;
                self.unary()
            }
            Some("~") => {
                self.pos += 1;
                match self.unary()? {
                    InitItem::Int(v) => Ok(InitItem::Int(!v)),
                    _ => Err("`~` of a non-integer".into()),
                }
            }
            Some("!") => {
                self.pos += 1;
                match self.unary()? {
                    InitItem::Int(v) => Ok(InitItem::Int((v == 0) as i128)),
                    _ => Err("`!` of a non-integer".into()),
                }
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<InitItem, String> {
        let tok = self.peek().ok_or("missing value")?.to_string();
        self.pos += 1;
        if tok == "(" {
            let v = self.expr(0)?;
            if self.peek() != Some(")") {
                return Err("expected `)`".into());
            }
            self.pos += 1;
            return Ok(v);
        }
        if let Some(num) = parse_number(&tok) {
            return Ok(num);
        }
        if tok == "generic" {
            if self.peek() != Some("(") {
                return Err("expected `(` after generic".into());
            }
            let name = self.t.get(self.pos + 1).ok_or("missing name")?.clone();
            if self.t.get(self.pos + 2).map(String::as_str) != Some(")") {
                return Err("expected `)`".into());
            }
            self.pos += 3;
            return Ok(InitItem::Sym {
                name,
                offset: 0,
                generic: true,
            });
        }
        if tok.starts_with(|c: char| c.is_alphabetic() || "_$%".contains(c)) {
            return Ok(InitItem::Sym {
                name: tok,
                offset: 0,
                generic: false,
            });
        }
        Err(format!("unexpected `{tok}`"))
    }
}

/// Applies a binary operator (integers, or a symbol plus or minus an
/// integer).
fn binary(op: &str, a: InitItem, b: InitItem) -> Result<InitItem, String> {
    use InitItem::*;
    match (a, b) {
        (Int(x), Int(y)) => Ok(Int(match op {
            "+" => x.wrapping_add(y),
            "-" => x.wrapping_sub(y),
            "*" => x.wrapping_mul(y),
            "/" => x.checked_div(y).ok_or("division by zero")?,
            "%" => x.checked_rem(y).ok_or("division by zero")?,
            "<<" => x.wrapping_shl(y as u32),
            ">>" => x.wrapping_shr(y as u32),
            "&" => x & y,
            "|" => x | y,
            _ => x ^ y,
        })),
        (
            Sym {
                name,
                offset,
                generic,
            },
            Int(y),
        ) if op == "+" || op == "-" => Ok(Sym {
            name,
            offset: if op == "+" {
                offset + y as i64
            } else {
                offset - y as i64
            },
            generic,
        }),
        (
            Int(x),
            Sym {
                name,
                offset,
                generic,
            },
        ) if op == "+" => Ok(Sym {
            name,
            offset: offset + x as i64,
            generic,
        }),
        _ => Err(format!("`{op}` on these operands")),
    }
}

/// Parses a PTX numeric literal.
pub fn parse_number(tok: &str) -> Option<InitItem> {
    let t = tok.trim_end_matches(['U', 'u']);
    let lower = t.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0f") {
        if hex.len() == 8 {
            return u32::from_str_radix(hex, 16).ok().map(InitItem::F32);
        }
    }
    if let Some(hex) = lower.strip_prefix("0d") {
        if hex.len() == 16 {
            return u64::from_str_radix(hex, 16)
                .ok()
                .map(|b| InitItem::F64(f64::from_bits(b)));
        }
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return u128::from_str_radix(hex, 16)
            .ok()
            .map(|v| InitItem::Int(v as i128));
    }
    if let Some(bin) = lower.strip_prefix("0b") {
        return u128::from_str_radix(bin, 2)
            .ok()
            .map(|v| InitItem::Int(v as i128));
    }
    if !lower.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    if lower.contains('.') || (lower.contains('e') && !lower.starts_with("0x")) {
        return lower.parse::<f64>().ok().map(InitItem::F64);
    }
    if lower.len() > 1 && lower.starts_with('0') {
        return u128::from_str_radix(&lower[1..], 8)
            .ok()
            .map(|v| InitItem::Int(v as i128));
    }
    lower.parse::<u128>().ok().map(|v| InitItem::Int(v as i128))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initializers_flatten() {
        assert_eq!(
            parse_init("{{1, 2}, {3, -4}}").unwrap(),
            vec![
                InitItem::Int(1),
                InitItem::Int(2),
                InitItem::Int(3),
                InitItem::Int(-4)
            ]
        );
        assert_eq!(
            parse_init("generic(tab)+4").unwrap(),
            vec![InitItem::Sym {
                name: "tab".into(),
                offset: 4,
                generic: true
            }]
        );
        assert_eq!(
            parse_init("{0f3F800000, 1.5, 1e-3}").unwrap(),
            vec![
                InitItem::F32(0x3f80_0000),
                InitItem::F64(1.5),
                InitItem::F64(1e-3)
            ]
        );
        assert_eq!(parse_init("017").unwrap(), vec![InitItem::Int(15)]);
        assert_eq!(
            parse_init("{(1 << 4) | 3, 100 / 7 * 2, -(5 % 3), 0xFFFFFFFFU & ~0xFF, 4 + tab + 2}")
                .unwrap(),
            vec![
                InitItem::Int(19),
                InitItem::Int(28),
                InitItem::Int(-2),
                InitItem::Int(0xffff_ff00),
                InitItem::Sym {
                    name: "tab".into(),
                    offset: 6,
                    generic: false
                }
            ]
        );
    }
}
