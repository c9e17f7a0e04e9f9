//! Virtual registers and register declarations.
//!
//! One [`Reg`] exists per declared register name that the body uses: a
//! parameterized declaration `.reg .b32 %r<100>;` is one [`RegDecl`], and `%r7`
//! becomes a `Reg` (with `index: Some(7)`) only when an instruction mentions it.
//! The emitter re-declares registers from the declarations, so `%r<100>` stays
//! compact; registers made by passes (no declaration) are declared one by one.

use la_arena::Idx;

/// Id of a virtual register in [`Function::regs`](super::Function::regs).
pub type RegId = Idx<Reg>;
/// Id of a register declaration in [`Function::reg_decls`](super::Function::reg_decls).
pub type RegDeclId = Idx<RegDecl>;

/// The register class: what kind of physical register a value needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegClass {
    /// A predicate (`.pred`).
    P,
    /// 8- or 16-bit (`.b16`, `.f16`, `.u8`).
    R16,
    /// 32-bit (`.b32`, `.f32`, `.f16x2`).
    R,
    /// 64-bit, an aligned pair of 32-bit registers (`.b64`, `.f64`, `.v2 .b32`).
    R64,
    /// 128-bit, an aligned quad (`.b128`, `.v4 .b32`); wider vectors also map
    /// here.
    R128,
}

impl RegClass {
    /// The class of a register of type `ty` (`".f32"`), with an optional vector
    /// width. Unknown types are taken as 32-bit.
    pub fn of(ty: &str, vector: Option<u32>) -> RegClass {
        if ty == ".pred" {
            return RegClass::P;
        }
        let bits = ptx_isa::type_bits(ty).unwrap_or(32) * vector.unwrap_or(1);
        match bits {
            0..=16 => RegClass::R16,
            17..=32 => RegClass::R,
            33..=64 => RegClass::R64,
            _ => RegClass::R128,
        }
    }

    /// Size in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        match self {
            RegClass::P => 1,
            RegClass::R16 => 16,
            RegClass::R => 32,
            RegClass::R64 => 64,
            RegClass::R128 => 128,
        }
    }
}

/// A `.reg` declaration: `.reg .b32 %r<100>;` or one name of `.reg .f32 %a, %b;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegDecl {
    /// The declared name (`%r`), renamed if flattening scopes needed it.
    pub name: String,
    /// `<N>` of a parameterized declaration.
    pub count: Option<u32>,
    /// Type with its dot: `.b32`.
    pub ty: std::sync::Arc<str>,
    pub vector: Option<u32>,
    /// Declared as a `.reg` parameter of the function, not in the body (the
    /// emitter does not re-declare it).
    pub is_param: bool,
}

impl RegDecl {
    /// The name of register `index` of this declaration (`%r7`), or the name
    /// itself for a plain declaration.
    pub fn reg_name(&self, index: Option<u32>) -> String {
        match index {
            Some(i) => format!("{}{}", self.name, i),
            None => self.name.clone(),
        }
    }
}

/// A virtual register.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// The name it is emitted with (`%r7`).
    pub name: std::sync::Arc<str>,
    pub ty: std::sync::Arc<str>,
    pub vector: Option<u32>,
    pub class: RegClass,
    /// The declaration it comes from; `None` for registers created by passes.
    pub decl: Option<RegDeclId>,
    /// Its number in a parameterized declaration (`7` of `%r7` from `%r<100>`).
    pub index: Option<u32>,
}
