//! Pre-decoding: every function of the module into a flat array of
//! [`DInst`]s, once, when the emulator is created.
//!
//! Registers become slots of the warp's register file (a vector register has
//! one slot per element, a `.b128` two), labels become instruction indices,
//! every branch gets its reconvergence point (the first instruction of the
//! immediate post-dominator, see [`crate::cfg`]), symbols are resolved to their
//! storage ([`SymLoc`]), immediates are converted to the instruction type, and
//! the opcode and modifiers are matched once into an [`Op`]. An instruction
//! the emulator does not implement, or an operand it cannot make sense of,
//! decodes to [`Op::Unsupported`], which fails only if executed.

use la_arena::ArenaMap;
use ptx_ir::ir::{
    Address, AddressBase, BlockId, Function, ImmValue, Inst, LocalDecl, Module, ModuleItem,
    Operand, Param, RegClass, RegId, Signature,
};
use rustc_hash::FxHashMap;

use crate::cfg::ipdoms;
use crate::cvt::CvtSpec;
use crate::float::Rnd;
use crate::fops::{Cmp, FMods, FOp};
use crate::int::IOp;
use crate::layout::{Layout, SymLoc};
use crate::op::*;
use crate::types::{Space, Ty};
use ptx_isa::{FamilyId as F, OpFlags, OpInfo};
use ptx_sem::select;

/// A formal parameter of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formal {
    /// A `.reg` parameter: its first slot ([`NONE`] if the body never uses
    /// it), the width of each element and the number of slots (a vector
    /// register has one per element).
    Reg { slot: u32, bits: u8, n: u32 },
    /// A `.param` parameter: its offset in the frame (or kernel buffer) and size.
    Param { off: u64, size: u64 },
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KParam {
    pub name: String,
    pub off: u64,
    pub size: u64,
}

/// A decoded function.
#[derive(Clone, Debug)]
pub struct DFunc {
    pub name: String,
    pub is_entry: bool,
    pub has_body: bool,
    pub code: Vec<DInst>,
    pub info: Vec<InstInfo>,
    pub nslots: u32,
    pub slot_names: Vec<String>,
    pub slot_bits: Vec<u8>,
    pub params: Vec<Formal>,
    pub rets: Vec<Formal>,
    /// Kernel parameters (entries only) and the buffer size.
    pub kparams: Vec<KParam>,
    pub kparam_size: u64,
    pub param_frame: u64,
    pub local_frame: u64,
}

/// The decoded module.
#[derive(Clone, Debug)]
pub struct Program {
    pub funcs: Vec<DFunc>,
    pub by_name: FxHashMap<String, u32>,
    pub layout: Layout,
}

/// Function name to index: definitions in module order, then declarations
/// without a definition.
pub fn function_index(module: &Module) -> (FxHashMap<String, u32>, Vec<Signature>) {
    let mut index = FxHashMap::default();
    for (i, f) in module.functions.iter().enumerate() {
        index.entry(f.sig.name.clone()).or_insert(i as u32);
    }
    let mut decls = Vec::new();
    for item in &module.items {
        if let ModuleItem::Declaration(sig) = item {
            if !index.contains_key(&sig.name) {
                index.insert(
                    sig.name.clone(),
                    (module.functions.len() + decls.len()) as u32,
                );
                decls.push(sig.clone());
            }
        }
    }
    // `.alias alias, aliasee;`: calls of the alias run the aliasee.
    for item in &module.items {
        if let ModuleItem::Alias { alias, aliasee } = item {
            if let Some(&target) = index.get(aliasee) {
                if (target as usize) < module.functions.len() {
                    index.insert(alias.clone(), target);
                }
            }
        }
    }
    (index, decls)
}

impl Program {
    pub fn build(
        module: &Module,
        layout: Layout,
        by_name: FxHashMap<String, u32>,
        decls: Vec<Signature>,
    ) -> Program {
        let mut funcs = Vec::new();
        for (fi, f) in module.functions.iter().enumerate() {
            funcs.push(decode_function(&layout, fi, f));
        }
        for sig in decls {
            let mut d = DFunc {
                name: sig.name.clone(),
                is_entry: false,
                has_body: false,
                code: Vec::new(),
                info: Vec::new(),
                nslots: 0,
                slot_names: Vec::new(),
                slot_bits: Vec::new(),
                params: Vec::new(),
                rets: Vec::new(),
                kparams: Vec::new(),
                kparam_size: 0,
                param_frame: 0,
                local_frame: 0,
            };
            let mut off = 0;
            d.rets = sig
                .ret_params
                .iter()
                .flatten()
                .map(|p| param_formal(p, &mut off))
                .collect();
            d.params = sig
                .params
                .iter()
                .map(|p| param_formal(p, &mut off))
                .collect();
            d.param_frame = off;
            funcs.push(d);
        }
        Program {
            funcs,
            by_name,
            layout,
        }
    }
}

/// Size and alignment of a parameter.
fn param_size(p: &Param) -> (u64, u64) {
    let elem =
        Ty::parse(&p.ty).map(|t| t.bytes() as u64).unwrap_or(8) * p.vector.unwrap_or(1) as u64;
    let count = p
        .dims
        .iter()
        .fold(1u64, |n, d| n.saturating_mul(d.unwrap_or(0)));
    // Oversized parameters are clamped so frame sums cannot overflow; the
    // launch or call then fails on the frame size.
    let size = elem
        .saturating_mul(count)
        .min(crate::layout::MAX_VARIABLE + 1);
    (size, p.align.unwrap_or(elem).clamp(1, 1 << 16))
}

fn param_formal(p: &Param, off: &mut u64) -> Formal {
    let (size, align) = param_size(p);
    let o = off.div_ceil(align) * align;
    *off = o + size;
    Formal::Param { off: o, size }
}

/// Register slots of a function.
struct Slots {
    base: ArenaMap<RegId, u32>,
    names: Vec<String>,
    bits: Vec<u8>,
}

fn assign_slots(f: &Function) -> Slots {
    let mut s = Slots {
        base: ArenaMap::default(),
        names: Vec::new(),
        bits: Vec::new(),
    };
    for (id, reg) in f.regs.iter() {
        s.base.insert(id, s.names.len() as u32);
        let elem_bits = if &*reg.ty == ".pred" {
            1
        } else if let Some(v) = reg.vector {
            let _ = v;
            ptx_isa::type_bits(&reg.ty).unwrap_or(32).clamp(16, 64) as u8
        } else {
            match reg.class {
                RegClass::P => 1,
                RegClass::R16 => 16,
                RegClass::R => 32,
                RegClass::R64 | RegClass::R128 => 64,
            }
        };
        let wide = &*reg.ty == ".b128" && reg.vector.is_none();
        let n = if wide {
            2
        } else {
            reg.vector.unwrap_or(1) as usize
        };
        for i in 0..n {
            let name = match (reg.vector, wide) {
                (Some(_), _) => format!(
                    "{}.{}",
                    reg.name,
                    ["x", "y", "z", "w", "e4", "e5", "e6", "e7"]
                        .get(i)
                        .unwrap_or(&"?")
                ),
                (None, true) => format!("{}[{}]", reg.name, if i == 0 { "lo" } else { "hi" }),
                _ => reg.name.to_string(),
            };
            s.names.push(name);
            s.bits.push(elem_bits);
        }
    }
    s
}

struct Decoder<'a> {
    f: &'a Function,
    layout: &'a Layout,
    slots: &'a Slots,
    syms: FxHashMap<String, SymLoc>,
    block_pc: ArenaMap<BlockId, u32>,
    reconv: ArenaMap<BlockId, u32>,
    /// The block being decoded.
    block: Option<BlockId>,
}

fn decode_function(layout: &Layout, fi: usize, f: &Function) -> DFunc {
    let slots = assign_slots(f);
    let is_entry = f.sig.kind == ptx_ir::ir::FunctionKind::Entry;
    let mut syms: FxHashMap<String, SymLoc> = FxHashMap::default();
    let mut d = DFunc {
        name: f.sig.name.clone(),
        is_entry,
        has_body: true,
        code: Vec::new(),
        info: Vec::new(),
        nslots: slots.names.len() as u32,
        slot_names: slots.names.clone(),
        slot_bits: slots.bits.clone(),
        params: Vec::new(),
        rets: Vec::new(),
        kparams: Vec::new(),
        kparam_size: 0,
        param_frame: 0,
        local_frame: 0,
    };
    // Formals.
    let reg_param_slot = |name: &str| -> (u32, u8, u32) {
        for (rid, reg) in f.regs.iter() {
            if let Some(decl) = reg.decl {
                let rd = &f.reg_decls[decl];
                if rd.is_param && rd.name == name {
                    let s = slots.base[rid];
                    return (s, slots.bits[s as usize], reg.vector.unwrap_or(1));
                }
            }
        }
        (NONE, 32, 1)
    };
    let mut poff = 0u64;
    let formal = |p: &Param, poff: &mut u64, syms: &mut FxHashMap<String, SymLoc>| -> Formal {
        if p.space == ".reg" {
            let (slot, bits, n) = reg_param_slot(&p.name);
            return Formal::Reg { slot, bits, n };
        }
        let fm = param_formal(p, poff);
        if let Formal::Param { off, .. } = fm {
            let loc = if is_entry {
                SymLoc::KParam(off)
            } else {
                SymLoc::FrameParam(off)
            };
            syms.insert(p.name.clone(), loc);
        }
        fm
    };
    if is_entry {
        let mut koff = 0u64;
        for p in &f.sig.params {
            let fm = formal(p, &mut koff, &mut syms);
            if let Formal::Param { off, size } = fm {
                d.kparams.push(KParam {
                    name: p.name.clone(),
                    off,
                    size,
                });
            }
            d.params.push(fm);
        }
        d.kparam_size = koff;
    } else {
        for p in f.sig.ret_params.iter().flatten() {
            let fm = formal(p, &mut poff, &mut syms);
            d.rets.push(fm);
        }
        for p in &f.sig.params {
            let fm = formal(p, &mut poff, &mut syms);
            d.params.push(fm);
        }
    }
    // Body declarations.
    let mut loff = 0u64;
    for local in &f.locals {
        let LocalDecl::Var(decl) = local else {
            continue;
        };
        let ty = Ty::parse(&decl.ty).map(|t| t.bytes() as u64).unwrap_or(8);
        let elem = ty * decl.vector.unwrap_or(1) as u64;
        let align = decl.align.unwrap_or(elem).clamp(1, 1 << 16);
        for var in &decl.vars {
            let count = var
                .dims
                .iter()
                .fold(1u64, |n, d| n.saturating_mul(d.unwrap_or(0)));
            let size = elem
                .saturating_mul(count)
                .min(crate::layout::MAX_VARIABLE + 1);
            let loc = match decl.space.as_str() {
                ".local" => {
                    let o = loff.div_ceil(align) * align;
                    loff = o + size;
                    SymLoc::FrameLocal(o)
                }
                ".param" => {
                    let o = poff.div_ceil(align) * align;
                    poff = o + size;
                    SymLoc::FrameParam(o)
                }
                _ => match layout.func_statics[fi].get(&var.name) {
                    Some(&loc) => loc,
                    None => continue,
                },
            };
            syms.insert(var.name.clone(), loc);
        }
    }
    d.param_frame = poff;
    d.local_frame = loff;

    // Instruction indices of blocks, and reconvergence points.
    let mut block_pc = ArenaMap::default();
    let mut pc = 0u32;
    for &b in &f.layout {
        block_pc.insert(b, pc);
        pc += f.blocks[b].insts.len() as u32;
    }
    let end_pc = pc;
    let ip = ipdoms(f);
    let mut reconv = ArenaMap::default();
    for (pos, &b) in f.layout.iter().enumerate() {
        let r = match ip[pos] {
            Some(p) => block_pc[f.layout[p]],
            None => NONE,
        };
        reconv.insert(b, r);
    }
    let mut dec = Decoder {
        f,
        layout,
        slots: &slots,
        syms,
        block_pc,
        reconv,
        block: None,
    };
    for &b in &f.layout {
        dec.block = Some(b);
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            let op = dec.decode(inst).unwrap_or_else(|e| {
                Op::Unsupported(format!("`{}`: {e}", inst.opcode.text()).into())
            });
            let guard = inst.guard.map(|g| (slots.base[g.reg], g.negated));
            d.code.push(DInst { guard, op });
            d.info.push(InstInfo {
                offset: u32::from(inst.range.start()),
                loc: inst.loc().map(|l| (l.file, l.line, l.col)),
                text: inst.opcode.text(),
            });
        }
    }
    // Falling off the end returns.
    d.code.push(DInst {
        guard: None,
        op: Op::Ret,
    });
    d.info.push(InstInfo {
        offset: d.info.last().map_or(0, |i| i.offset),
        loc: None,
        text: "(end of function)".to_string(),
    });
    debug_assert_eq!(d.code.len() as u32, end_pc + 1);
    d
}

type R<T> = Result<T, String>;

/// What the decoder reads of an opcode: the typed form (`Opcode::info`:
/// types, rounding, state space, vector width, comparison, `.and/.or/.xor`,
/// `.ftz/.sat/.relu`), and the modifiers as written for the instruction-
/// specific ones (`.wide`, `.clamp`, shuffle modes, ...).
struct Mods<'a> {
    mods: &'a [String],
    info: &'a OpInfo,
}

impl<'a> Mods<'a> {
    fn of(opcode: &'a ptx_ir::ir::Opcode) -> Mods<'a> {
        Mods {
            mods: &opcode.modifiers,
            info: &opcode.info,
        }
    }
    fn has(&self, m: &str) -> bool {
        self.mods.iter().any(|x| x == m)
    }
    /// The value of the first entry of `table` whose modifier is present.
    fn pick<T: Copy>(&self, table: &[(&str, T)]) -> Option<T> {
        table.iter().find(|(s, _)| self.has(s)).map(|&(_, v)| v)
    }
    fn types(&self) -> Vec<Ty> {
        self.info.types.iter().collect()
    }
    fn last_type(&self) -> R<Ty> {
        self.info.ty().ok_or_else(|| "no type".to_string())
    }
    fn first_type(&self) -> R<Ty> {
        self.info.first_ty().ok_or_else(|| "no type".to_string())
    }
    fn rnd(&self) -> Option<Rnd> {
        self.info.rnd
    }
    fn irnd(&self) -> Option<Rnd> {
        self.info.irnd
    }
    fn space(&self) -> Space {
        self.info.space.unwrap_or(Space::Generic)
    }
    fn vec(&self) -> usize {
        self.info.vec as usize
    }
    fn cmp(&self) -> Option<Cmp> {
        self.info.cmp
    }
    fn bool_op(&self) -> Option<BoolOp> {
        self.info.bool_op
    }
    fn fmods(&self, default: Rnd) -> FMods {
        FMods {
            rnd: self.rnd().unwrap_or(default),
            ftz: self.info.ftz,
            sat: self.info.sat,
            relu: self.info.relu,
        }
    }
}

/// The value of an immediate as bits of type `ty` (`ptx_sem::imm`).
fn imm_bits(v: ImmValue, ty: Ty) -> u64 {
    ptx_sem::imm::bits(
        match v {
            ImmValue::Int(i) => ptx_sem::imm::Imm::Int(i),
            ImmValue::F32(b) => ptx_sem::imm::Imm::F32(b),
            ImmValue::F64(b) => ptx_sem::imm::Imm::F64(b),
        },
        ty,
    )
}

fn special(name: &str, comp: Option<&str>) -> R<Sreg> {
    let dim = match comp {
        Some(".x") | None => 0,
        Some(".y") => 1,
        Some(".z") => 2,
        Some(c) => return Err(format!("component `{c}` of `{name}`")),
    };
    Ok(match name {
        "%tid" => Sreg::Tid(dim),
        "%ntid" => Sreg::Ntid(dim),
        "%ctaid" | "%clusterid" => Sreg::Ctaid(dim),
        "%nctaid" | "%nclusterid" => Sreg::Nctaid(dim),
        "%laneid" => Sreg::LaneId,
        "%warpid" => Sreg::WarpId,
        "%nwarpid" => Sreg::NWarpId,
        "%smid" => Sreg::SmId,
        "%nsmid" => Sreg::NSmId,
        "%gridid" => Sreg::GridId,
        "%lanemask_eq" => Sreg::LaneMaskEq,
        "%lanemask_le" => Sreg::LaneMaskLe,
        "%lanemask_lt" => Sreg::LaneMaskLt,
        "%lanemask_ge" => Sreg::LaneMaskGe,
        "%lanemask_gt" => Sreg::LaneMaskGt,
        "%clock" => Sreg::Clock,
        "%clock_hi" => Sreg::ClockHi,
        "%clock64" => Sreg::Clock64,
        "%globaltimer" => Sreg::GlobalTimer,
        "%globaltimer_lo" => Sreg::GlobalTimerLo,
        "%globaltimer_hi" => Sreg::GlobalTimerHi,
        "%dynamic_smem_size" => Sreg::DynamicSmem,
        "%total_smem_size" | "%aggr_smem_size" => Sreg::TotalSmem,
        "%cluster_nctaid" | "%cluster_nctarank" => Sreg::One,
        _ => Sreg::Zero,
    })
}

fn component_index(c: &str) -> Option<u32> {
    Some(match c {
        ".x" | ".r" => 0,
        ".y" | ".g" => 1,
        ".z" | ".b" => 2,
        ".w" | ".a" => 3,
        _ => return None,
    })
}

/// A video byte/half selector (`.b0`..`.b3`, `.h0`, `.h1`): (bit offset, width).
fn video_sel(c: &str) -> Option<(u32, u32)> {
    Some(match c {
        ".b0" => (0, 8),
        ".b1" => (8, 8),
        ".b2" => (16, 8),
        ".b3" => (24, 8),
        ".h0" => (0, 16),
        ".h1" => (16, 16),
        _ => return None,
    })
}

impl Decoder<'_> {
    fn slot(&self, reg: RegId, comp: Option<&str>) -> R<u32> {
        let base = *self.slots.base.get(reg).ok_or("unknown register")?;
        match comp {
            None => Ok(base),
            Some(c) => {
                let i = component_index(c).ok_or_else(|| format!("register component `{c}`"))?;
                Ok(base + i)
            }
        }
    }

    fn reg_bits(&self, slot: u32) -> u8 {
        self.slots.bits[slot as usize]
    }

    fn symbol(&self, name: &str) -> R<SymLoc> {
        self.syms
            .get(name)
            .or_else(|| self.layout.module_syms.get(name))
            .copied()
            .ok_or_else(|| format!("unknown symbol `{name}`"))
    }

    /// A source operand of type `ty`.
    fn src(&self, op: &Operand, ty: Ty) -> R<Src> {
        Ok(match op {
            Operand::Reg { reg, component } => {
                if let Some(c) = component.as_deref() {
                    if video_sel(c).is_some() {
                        return Err(format!("selector `{c}` outside a video instruction"));
                    }
                }
                Src::Reg(self.slot(*reg, component.as_deref())?)
            }
            Operand::Special { name, component } => {
                Src::Special(special(name, component.as_deref())?)
            }
            Operand::Imm(imm) => Src::Imm(imm_bits(imm.value, ty)),
            Operand::Symbol { name, offset } => match self.symbol(name)? {
                SymLoc::Value(v) => Src::Imm(v.wrapping_add(*offset as u64)),
                SymLoc::Func(i) => Src::Imm(self.layout.map.func_addr(i)),
                loc => Src::Sym(loc, *offset),
            },
            Operand::RegOffset { reg, offset } => Src::RegOff(self.slot(*reg, None)?, *offset),
            Operand::NegPred(reg) => Src::NotPred(self.slot(*reg, None)?),
            other => return Err(format!("operand {other:?}")),
        })
    }

    /// A predicate source (`%p`, `!%p`, 0 or 1).
    fn pred(&self, op: &Operand) -> R<Src> {
        self.src(op, Ty::Pred)
    }

    fn dst(&self, op: &Operand, ty: Ty) -> R<Dst> {
        match op {
            Operand::Sink => Ok(Dst::SINK),
            Operand::Reg { reg, component } => {
                let slot = self.slot(*reg, component.as_deref())?;
                Ok(Dst {
                    slot,
                    reg_bits: self.reg_bits(slot),
                    bits: ty.bits().min(64) as u8,
                    signed: ty.is_signed(),
                })
            }
            other => Err(format!("destination {other:?}")),
        }
    }

    /// A destination of `bits` width, zero-extended.
    fn dst_bits(&self, op: &Operand, bits: u32) -> R<Dst> {
        let mut d = self.dst(op, Ty::B64)?;
        d.bits = bits as u8;
        Ok(d)
    }

    fn addr(&self, op: &Operand, space: Space) -> R<Addr> {
        let Operand::Address(Address { base, offset }) = op else {
            return Err(format!("address {op:?}"));
        };
        let base = match base {
            AddressBase::Reg(r) => Src::Reg(self.slot(*r, None)?),
            AddressBase::Absolute => Src::Imm(0),
            AddressBase::Symbol(name) => match self.symbol(name)? {
                SymLoc::Value(v) => Src::Imm(v),
                SymLoc::Func(i) => Src::Imm(self.layout.map.func_addr(i)),
                loc if space == Space::Generic => Src::SymGeneric(loc, 0),
                loc => Src::Sym(loc, 0),
            },
        };
        Ok(Addr { base, off: *offset })
    }

    fn operand<'o>(&self, inst: &'o Inst, i: usize) -> R<&'o Operand> {
        inst.operands
            .get(i)
            .ok_or_else(|| format!("missing operand {}", i + 1))
    }

    /// The element slots of a vector operand `{a, b}` or a vector register.
    fn vector_items<'o>(&self, op: &'o Operand) -> Option<Vec<&'o Operand>> {
        match op {
            Operand::Vector(items) => Some(items.iter().collect()),
            _ => None,
        }
    }

    /// Whether an operand is a whole vector register (`.v2 .u32 %v`).
    fn vector_reg(&self, op: &Operand) -> Option<(u32, u32)> {
        if let Operand::Reg {
            reg,
            component: None,
        } = op
        {
            let r = &self.f.regs[*reg];
            if let Some(n) = r.vector {
                return Some((self.slots.base[*reg], n));
            }
        }
        None
    }

    fn label_pc(&self, op: &Operand) -> R<u32> {
        match op {
            Operand::Label(b) => self
                .block_pc
                .get(*b)
                .copied()
                .ok_or_else(|| "branch to an undefined label".to_string()),
            other => Err(format!("branch target {other:?}")),
        }
    }

    fn reconv_here(&self) -> u32 {
        self.block
            .and_then(|b| self.reconv.get(b).copied())
            .unwrap_or(NONE)
    }

    fn decode(&self, inst: &Inst) -> R<Op> {
        let m = Mods::of(&inst.opcode);
        let family = inst.opcode.info.family;
        let carry_out = m.info.flags.contains(OpFlags::CARRY_OUT);
        let o = |i| self.operand(inst, i);
        match family {
            F::Mov => self.decode_mov(inst, &m),
            F::Ld | F::LdGlobalNc | F::Ldu => {
                let space = m.space();
                let ety = m.last_type()?;
                let d = o(0)?;
                let ds = match (self.vector_items(d), self.vector_reg(d)) {
                    (Some(items), _) => items
                        .iter()
                        .map(|x| self.dst(x, ety))
                        .collect::<R<Vec<_>>>()?,
                    (None, Some((base, n))) if m.vec() > 1 => (0..n)
                        .map(|i| Dst {
                            slot: base + i,
                            reg_bits: self.reg_bits(base + i),
                            bits: ety.bits().min(64) as u8,
                            signed: ety.is_signed(),
                        })
                        .collect(),
                    _ => vec![self.dst(d, ety)?],
                };
                Ok(Op::Ld {
                    space,
                    ety,
                    ds: ds.into(),
                    addr: self.addr(o(1)?, space)?,
                })
            }
            F::StBulk => {
                let space = if m.has(".shared::cta") || m.has(".shared") {
                    Space::Shared
                } else {
                    Space::Generic
                };
                match o(2)? {
                    Operand::Imm(imm) if matches!(imm.value, ImmValue::Int(0)) => {}
                    _ => return Err("st.bulk with a non-zero value".into()),
                }
                Ok(Op::Bulk(Box::new(BulkOp {
                    dst: self.addr(o(0)?, space)?,
                    dst_space: space,
                    src: None,
                    size: self.src(o(1)?, Ty::U64)?,
                    mbar: None,
                })))
            }
            F::CpAsyncBulkPrefetch
            | F::CpAsyncBulkPrefetchTensor
            | F::CpAsyncBulkCommitGroup
            | F::CpAsyncBulkWaitGroup => Ok(Op::Nop),
            F::CpAsyncBulk if !m.has(".tensor") => {
                // The state spaces in order: destination, source.
                let spaces: Vec<Space> = inst
                    .opcode
                    .modifiers
                    .iter()
                    .filter_map(|x| match x.split("::").next() {
                        Some(".global") => Some(Space::Global),
                        Some(".shared") => Some(Space::Shared),
                        _ => None,
                    })
                    .collect();
                let [dst_space, src_space] = spaces[..] else {
                    return Err("cp.async.bulk state spaces".into());
                };
                let mbar = if m.mods.iter().any(|x| x.starts_with(".mbarrier")) {
                    Some(self.addr(o(3)?, Space::Shared)?)
                } else {
                    None
                };
                Ok(Op::Bulk(Box::new(BulkOp {
                    dst: self.addr(o(0)?, dst_space)?,
                    dst_space,
                    src: Some((self.addr(o(1)?, src_space)?, src_space)),
                    size: self.src(o(2)?, Ty::U32)?,
                    mbar,
                })))
            }
            F::St | F::StAsync => {
                let space = m.space();
                let ety = m.last_type()?;
                let v = o(1)?;
                let srcs = match (self.vector_items(v), self.vector_reg(v)) {
                    (Some(items), _) => items
                        .iter()
                        .map(|x| self.src(x, ety))
                        .collect::<R<Vec<_>>>()?,
                    (None, Some((base, n))) if m.vec() > 1 => {
                        (0..n).map(|i| Src::Reg(base + i)).collect()
                    }
                    _ => vec![self.src(v, ety)?],
                };
                Ok(Op::St {
                    space,
                    ety,
                    srcs: srcs.into(),
                    addr: self.addr(o(0)?, space)?,
                })
            }
            F::AddCc | F::SubCc | F::Addc | F::Subc => {
                let ty = m.last_type()?;
                let kind = if matches!(family, F::AddCc | F::Addc) {
                    CarryKind::Add
                } else {
                    CarryKind::Sub
                };
                Ok(Op::Carry {
                    kind,
                    cin: m.info.flags.contains(OpFlags::CARRY_IN),
                    cout: carry_out,
                    ty,
                    d: self.dst(o(0)?, ty)?,
                    a: self.src(o(1)?, ty)?,
                    b: self.src(o(2)?, ty)?,
                    c: Src::Imm(0),
                })
            }
            F::Mad | F::Madc if carry_out || family == F::Madc => {
                let ty = m.last_type()?;
                Ok(Op::Carry {
                    kind: if m.has(".hi") {
                        CarryKind::MadHi
                    } else {
                        CarryKind::MadLo
                    },
                    cin: m.info.flags.contains(OpFlags::CARRY_IN),
                    cout: carry_out,
                    ty,
                    d: self.dst(o(0)?, ty)?,
                    a: self.src(o(1)?, ty)?,
                    b: self.src(o(2)?, ty)?,
                    c: self.src(o(3)?, ty)?,
                })
            }
            f if select::is_arith(f) => self.decode_arith(inst, &m),
            F::Testp => {
                let ty = m.last_type()?;
                let kind = inst
                    .opcode
                    .modifiers
                    .iter()
                    .find(|x| {
                        matches!(
                            x.as_str(),
                            ".finite"
                                | ".infinite"
                                | ".number"
                                | ".notanumber"
                                | ".normal"
                                | ".subnormal"
                        )
                    })
                    .ok_or("testp without an operation")?;
                Ok(Op::Testp {
                    kind: kind.as_str().into(),
                    ty,
                    d: self.dst(o(0)?, Ty::Pred)?,
                    a: self.src(o(1)?, ty)?,
                })
            }
            F::Setp => {
                let ty = m.last_type()?;
                let cmp = m.cmp().ok_or("setp without a comparison")?;
                let (p, q) = match o(0)? {
                    Operand::PredPair(p, q) => (self.dst(p, Ty::Pred)?, self.dst(q, Ty::Pred)?),
                    p => (self.dst(p, Ty::Pred)?, Dst::SINK),
                };
                let bop = match m.bool_op() {
                    Some(b) => Some((b, self.pred(o(3)?)?)),
                    None => None,
                };
                Ok(Op::Setp {
                    cmp,
                    ty,
                    ftz: m.info.ftz,
                    p,
                    q,
                    a: self.src(o(1)?, ty)?,
                    b: self.src(o(2)?, ty)?,
                    bop,
                })
            }
            F::Set => {
                let dty = m.first_type()?;
                let sty = m.last_type()?;
                let cmp = m.cmp().ok_or("set without a comparison")?;
                let bop = match m.bool_op() {
                    Some(b) => Some((b, self.pred(o(3)?)?)),
                    None => None,
                };
                Ok(Op::Set {
                    cmp,
                    dty,
                    sty,
                    ftz: m.info.ftz,
                    d: self.dst(o(0)?, dty)?,
                    a: self.src(o(1)?, sty)?,
                    b: self.src(o(2)?, sty)?,
                    bop,
                })
            }
            F::Selp => {
                let ty = m.last_type()?;
                Ok(Op::Selp {
                    d: self.dst(o(0)?, ty)?,
                    a: self.src(o(1)?, ty)?,
                    b: self.src(o(2)?, ty)?,
                    c: self.pred(o(3)?)?,
                })
            }
            F::Slct => {
                let tys = m.types();
                let (dty, cty) = (tys.first().copied().ok_or("slct type")?, m.last_type()?);
                Ok(Op::Slct {
                    float: cty == Ty::F32,
                    ftz: m.info.ftz,
                    d: self.dst(o(0)?, dty)?,
                    a: self.src(o(1)?, dty)?,
                    b: self.src(o(2)?, dty)?,
                    c: self.src(o(3)?, cty)?,
                })
            }
            F::Cvt | F::CvtPack => self.decode_cvt(inst, &m),
            F::Cvta => {
                let ty = m.last_type()?;
                let to = m.has(".to");
                let space = m.space();
                Ok(Op::Cvta {
                    to_generic: !to,
                    space,
                    d: self.dst(o(0)?, ty)?,
                    a: match o(1)? {
                        // `cvta.shared.u64 %rd, sym`: the symbol's space address.
                        Operand::Symbol { name, offset } => match self.symbol(name)? {
                            SymLoc::Value(v) => Src::Imm(v),
                            loc => Src::Sym(loc, *offset),
                        },
                        op => self.src(op, ty)?,
                    },
                })
            }
            F::Isspacep => Ok(Op::Isspacep {
                space: m.space(),
                d: self.dst(o(0)?, Ty::Pred)?,
                a: self.src(o(1)?, Ty::U64)?,
            }),
            F::Atom | F::Red | F::RedAsync => self.decode_atom(inst, family != F::Atom, &m),
            F::Bra => Ok(Op::Bra {
                target: self.label_pc(o(0)?)?,
                reconv: self.reconv_here(),
            }),
            F::BrxIdx => {
                let index = self.src(o(0)?, Ty::U32)?;
                let Operand::Symbol { name, .. } = o(1)? else {
                    return Err("brx.idx without a target list".into());
                };
                let targets = self
                    .f
                    .branch_targets(name)
                    .ok_or_else(|| format!("unknown .branchtargets `{name}`"))?;
                let targets: Vec<u32> = targets
                    .iter()
                    .map(|b| self.block_pc.get(*b).copied().ok_or("undefined label"))
                    .collect::<Result<_, _>>()?;
                Ok(Op::Brx {
                    index,
                    targets: targets.into(),
                    reconv: self.reconv_here(),
                })
            }
            F::Call => self.decode_call(inst),
            F::Ret => Ok(Op::Ret),
            F::Exit => Ok(Op::Exit),
            F::Trap => Ok(Op::Trap("trap".into())),
            F::Brkpt => Ok(Op::Trap("brkpt".into())),
            F::Bar | F::BarWarpSync | F::Barrier | F::BarrierCluster => self.decode_bar(inst, &m),
            F::Membar
            | F::Fence
            | F::FenceProxy
            | F::Nanosleep
            | F::Prefetch
            | F::Prefetchu
            | F::Applypriority
            | F::Discard
            | F::Griddepcontrol
            | F::Pmevent
            | F::Setmaxnreg => Ok(Op::Nop),
            F::Createpolicy => Ok(Op::Mov {
                d: self.dst(o(0)?, Ty::B64)?,
                a: Src::Imm(0x1000_0000_0000_0000),
            }),
            F::Shfl | F::ShflSync => self.decode_shfl(inst, &m),
            F::Vote | F::VoteSync => {
                let mode = if m.has(".all") {
                    VoteMode::All
                } else if m.has(".any") {
                    VoteMode::Any
                } else if m.has(".uni") {
                    VoteMode::Uni
                } else if m.has(".ballot") {
                    VoteMode::Ballot
                } else {
                    return Err("vote mode".into());
                };
                let dty = if mode == VoteMode::Ballot {
                    Ty::B32
                } else {
                    Ty::Pred
                };
                Ok(Op::Vote {
                    mode,
                    d: self.dst(o(0)?, dty)?,
                    a: self.pred(o(1)?)?,
                    mask: if m.has(".sync") {
                        Some(self.src(o(2)?, Ty::B32)?)
                    } else {
                        None
                    },
                })
            }
            F::MatchAny | F::MatchAll => {
                let ty = m.last_type()?;
                let (d, p) = match o(0)? {
                    Operand::PredPair(d, p) => (self.dst(d, Ty::B32)?, self.dst(p, Ty::Pred)?),
                    d => (self.dst(d, Ty::B32)?, Dst::SINK),
                };
                Ok(Op::Match {
                    all: m.has(".all"),
                    bits: ty.bits(),
                    d,
                    p,
                    a: self.src(o(1)?, ty)?,
                    mask: self.src(o(2)?, Ty::B32)?,
                })
            }
            F::ReduxSync => {
                let ty = m.last_type()?;
                let op = m
                    .pick(&[
                        (".add", ReduxOp::Add),
                        (".min", ReduxOp::Min),
                        (".max", ReduxOp::Max),
                        (".and", ReduxOp::And),
                        (".or", ReduxOp::Or),
                        (".xor", ReduxOp::Xor),
                    ])
                    .ok_or("redux operation")?;
                Ok(Op::Redux {
                    op,
                    ty,
                    abs: m.has(".abs"),
                    nan: m.has(".NaN"),
                    d: self.dst(o(0)?, ty)?,
                    a: self.src(o(1)?, ty)?,
                    mask: self.src(o(2)?, Ty::B32)?,
                })
            }
            // One CTA per cluster: a shared::cluster address is the CTA's own,
            // and its rank is 0.
            F::Mapa => Ok(Op::Mov {
                d: self.dst(o(0)?, m.last_type()?)?,
                a: self.src(o(1)?, m.last_type()?)?,
            }),
            F::Getctarank => Ok(Op::Mov {
                d: self.dst(o(0)?, Ty::U32)?,
                a: Src::Imm(0),
            }),
            F::Movmatrix => {
                if !m.has(".m8n8") || !m.has(".trans") || m.last_type()? != Ty::B16 {
                    return Err("movmatrix form".into());
                }
                Ok(Op::Matrix(Box::new(Matrix::Trans {
                    d: self.dst(o(0)?, Ty::B32)?,
                    a: self.src(o(1)?, Ty::B32)?,
                })))
            }
            F::MbarrierInit
            | F::MbarrierInval
            | F::MbarrierExpectTx
            | F::MbarrierCompleteTx
            | F::MbarrierArrive
            | F::MbarrierArriveDrop
            | F::MbarrierTestWait
            | F::MbarrierTryWait
            | F::MbarrierPendingCount => self.decode_mbar(inst, &m),
            F::Activemask => Ok(Op::ActiveMask {
                d: self.dst(o(0)?, Ty::B32)?,
            }),
            F::ElectSync => {
                let (d, p) = match o(0)? {
                    Operand::PredPair(d, p) => (self.dst(d, Ty::B32)?, self.dst(p, Ty::Pred)?),
                    d => (Dst::SINK, self.dst(d, Ty::Pred)?),
                };
                Ok(Op::Elect {
                    d,
                    p,
                    mask: self.src(o(1)?, Ty::B32)?,
                })
            }
            F::Ldmatrix | F::Stmatrix => self.decode_ldst_matrix(inst, &m, family == F::Ldmatrix),
            F::Tex | F::Tld4 => self.decode_tex(inst, family == F::Tld4, &m),
            F::Suld | F::Sust | F::Sured => self.decode_surf(inst, family, &m),
            F::Txq | F::Suq | F::Istypep => self.decode_query(inst, family == F::Istypep, &m),
            F::WmmaLoad | F::WmmaStore | F::WmmaMma => self.decode_wmma(inst, family, &m),
            F::Mma | F::MmaSp | F::MmaSpOrderedMetadata => self.decode_mma(inst, &m),
            F::CpAsync
            | F::CpAsyncCommitGroup
            | F::CpAsyncWaitGroup
            | F::CpAsyncWaitAll
            | F::CpAsyncMbarrierArrive
            | F::CpAsyncBulk
            | F::CpReduceAsyncBulk
            | F::CpAsyncBulkTensor
            | F::CpReduceAsyncBulkTensor => {
                if m.has(".bulk") || m.has(".tensor") || m.has(".reduce") {
                    return Err("bulk asynchronous copies".into());
                }
                if !m.has(".async") {
                    return Err("unknown cp form".into());
                }
                if m.has(".mbarrier") {
                    // The copies are complete already: without `.noinc` the
                    // arrive is balanced by an increment (a no-op); with it,
                    // it is one arrival.
                    if !m.has(".noinc") {
                        return Ok(Op::Nop);
                    }
                    return Ok(Op::Mbar {
                        kind: MbarKind::Arrive {
                            expect_tx: false,
                            drop: false,
                            counted: false,
                        },
                        space: m.space(),
                        d: Dst::SINK,
                        addr: self.addr(o(0)?, m.space())?,
                        b: Src::Imm(1),
                    });
                }
                if m.has(".commit_group") || m.has(".wait_group") || m.has(".wait_all") {
                    return Ok(Op::Nop);
                }
                let size = match o(2)? {
                    Operand::Imm(imm) => match imm.value {
                        ImmValue::Int(v) => v as u32,
                        _ => return Err("cp-size".into()),
                    },
                    _ => return Err("cp-size".into()),
                };
                let src_size = match inst.operands.get(3) {
                    Some(op @ (Operand::Reg { .. } | Operand::Imm(_))) => {
                        Some(self.src(op, Ty::U32)?)
                    }
                    _ => None,
                };
                Ok(Op::CpAsync {
                    dst: self.addr(o(0)?, Space::Shared)?,
                    src: self.addr(o(1)?, Space::Global)?,
                    size,
                    src_size,
                })
            }
            F::Alloca => {
                let align = match inst.operands.get(2) {
                    Some(Operand::Imm(imm)) => match imm.value {
                        ImmValue::Int(v) => v as u32,
                        _ => 8,
                    },
                    _ => 8,
                };
                let ty = m.last_type()?;
                Ok(Op::Alloca {
                    d: self.dst(o(0)?, ty)?,
                    size: self.src(o(1)?, ty)?,
                    align: align.max(1),
                })
            }
            F::Stacksave => Ok(Op::StackSave {
                d: self.dst(o(0)?, m.last_type()?)?,
            }),
            F::Stackrestore => Ok(Op::StackRestore {
                a: self.src(o(0)?, m.last_type()?)?,
            }),
            F::Vadd
            | F::Vsub
            | F::Vabsdiff
            | F::Vmin
            | F::Vmax
            | F::Vshl
            | F::Vshr
            | F::Vmad
            | F::Vset => self.decode_video(inst, family, &m),
            F::Vadd2
            | F::Vsub2
            | F::Vavrg2
            | F::Vabsdiff2
            | F::Vmin2
            | F::Vmax2
            | F::Vset2
            | F::Vadd4
            | F::Vsub4
            | F::Vavrg4
            | F::Vabsdiff4
            | F::Vmin4
            | F::Vmax4
            | F::Vset4 => self.decode_video_simd(inst, family, &m),
            _ => Err(format!(
                "instruction `{}` is not implemented",
                inst.opcode.family_or_name()
            )),
        }
    }

    fn decode_mov(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let ty = m.last_type()?;
        let (d, a) = (self.operand(inst, 0)?, self.operand(inst, 1)?);
        if m.vec() > 1 {
            // `mov.v4.u16 {a, b, c, d}, %v`: element-wise, through vector
            // registers or lists.
            let dsts: Vec<Dst> = match (self.vector_items(d), self.vector_reg(d)) {
                (Some(items), _) => items.iter().map(|x| self.dst(x, ty)).collect::<R<_>>()?,
                (None, Some((base, n))) => (0..n)
                    .map(|i| Dst {
                        slot: base + i,
                        reg_bits: self.reg_bits(base + i),
                        bits: ty.bits().min(64) as u8,
                        signed: false,
                    })
                    .collect(),
                _ => return Err("vector mov destination".into()),
            };
            let srcs: Vec<Src> = match (self.vector_items(a), self.vector_reg(a)) {
                (Some(items), _) => items.iter().map(|x| self.src(x, ty)).collect::<R<_>>()?,
                (None, Some((base, n))) => (0..n).map(|i| Src::Reg(base + i)).collect(),
                _ => return Err("vector mov source".into()),
            };
            if dsts.len() != srcs.len() {
                return Err("vector mov of different widths".into());
            }
            return Ok(Op::MovMulti {
                ds: dsts.into(),
                srcs: srcs.into(),
            });
        }
        let dv = self.vector_items(d);
        let av = self.vector_items(a);
        match (dv, av) {
            (Some(ds), Some(srcs)) => {
                let ety = ty;
                Ok(Op::MovMulti {
                    ds: ds
                        .iter()
                        .map(|x| self.dst(x, ety))
                        .collect::<R<Vec<_>>>()?
                        .into(),
                    srcs: srcs
                        .iter()
                        .map(|x| self.src(x, ety))
                        .collect::<R<Vec<_>>>()?
                        .into(),
                })
            }
            (None, Some(parts)) => {
                let ebits = ty.bits() / parts.len() as u32;
                let ety = bits_ty(ebits);
                Ok(Op::Pack {
                    d: self.dst(d, ty)?,
                    parts: parts
                        .iter()
                        .map(|x| self.src(x, ety))
                        .collect::<R<Vec<_>>>()?
                        .into(),
                    ebits,
                })
            }
            (Some(ds), None) => {
                let ebits = ty.bits() / ds.len() as u32;
                let ety = bits_ty(ebits);
                Ok(Op::Unpack {
                    ds: ds
                        .iter()
                        .map(|x| self.dst(x, ety))
                        .collect::<R<Vec<_>>>()?
                        .into(),
                    a: self.src(a, ty)?,
                    ebits,
                })
            }
            (None, None) => {
                // Whole vector registers.
                match (self.vector_reg(d), self.vector_reg(a)) {
                    (Some((ds, n)), Some((as_, k))) if n == k => {
                        let ds: Vec<Dst> = (0..n)
                            .map(|i| Dst {
                                slot: ds + i,
                                reg_bits: self.reg_bits(ds + i),
                                bits: self.reg_bits(ds + i),
                                signed: false,
                            })
                            .collect();
                        let srcs: Vec<Src> = (0..k).map(|i| Src::Reg(as_ + i)).collect();
                        Ok(Op::MovMulti {
                            ds: ds.into(),
                            srcs: srcs.into(),
                        })
                    }
                    (None, Some((as_, k))) => {
                        let ebits = self.reg_bits(as_) as u32;
                        Ok(Op::Pack {
                            d: self.dst(d, ty)?,
                            parts: (0..k).map(|i| Src::Reg(as_ + i)).collect::<Vec<_>>().into(),
                            ebits,
                        })
                    }
                    (Some((ds, n)), None) => {
                        let ebits = self.reg_bits(ds) as u32;
                        Ok(Op::Unpack {
                            ds: (0..n)
                                .map(|i| Dst {
                                    slot: ds + i,
                                    reg_bits: ebits as u8,
                                    bits: ebits as u8,
                                    signed: false,
                                })
                                .collect::<Vec<_>>()
                                .into(),
                            a: self.src(a, ty)?,
                            ebits,
                        })
                    }
                    _ => {
                        if ty == Ty::B128 {
                            return self.mov128(d, a);
                        }
                        Ok(Op::Mov {
                            d: self.dst(d, ty)?,
                            a: self.src(a, ty)?,
                        })
                    }
                }
            }
        }
    }

    /// `mov.b128` between 128-bit registers.
    fn mov128(&self, d: &Operand, a: &Operand) -> R<Op> {
        let ds = self.dst(d, Ty::B64)?;
        let sa = self.src(a, Ty::B64)?;
        match sa {
            Src::Reg(s) => Ok(Op::MovMulti {
                ds: vec![
                    ds,
                    Dst {
                        slot: ds.slot + 1,
                        ..ds
                    },
                ]
                .into(),
                srcs: vec![Src::Reg(s), Src::Reg(s + 1)].into(),
            }),
            Src::Imm(v) => Ok(Op::MovMulti {
                ds: vec![
                    ds,
                    Dst {
                        slot: ds.slot + 1,
                        ..ds
                    },
                ]
                .into(),
                srcs: vec![Src::Imm(v), Src::Imm(0)].into(),
            }),
            _ => Err("mov.b128 source".into()),
        }
    }

    fn decode_arith(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let ty = m.last_type()?;
        let family = m.info.family;
        let o = |i| self.operand(inst, i);
        if ty.is_float() && !select::is_bitwise(family) {
            return self.decode_float(inst, m, ty);
        }
        let op = match family {
            F::Lop3 => {
                let lut = match inst.operands.get(4) {
                    Some(Operand::Imm(imm)) => match imm.value {
                        ImmValue::Int(v) => v as u8,
                        _ => return Err("lop3 table".into()),
                    },
                    _ => return Err("lop3 table must be an immediate".into()),
                };
                if let Operand::PredPair(d, p) = o(0)? {
                    return Ok(Op::Lop3Pred {
                        bop: m.bool_op().ok_or("lop3 predicate operation")?,
                        lut,
                        d: self.dst(d, Ty::B32)?,
                        p: self.dst(p, Ty::Pred)?,
                        a: self.src(o(1)?, Ty::B32)?,
                        b: self.src(o(2)?, Ty::B32)?,
                        c: self.src(o(3)?, Ty::B32)?,
                        q: self.pred(o(5)?)?,
                    });
                }
                IOp::Lop3(lut)
            }
            F::Copysign => return Err("copysign on an integer type".into()),
            _ => select::int_op(m.info, m.mods, None)
                .ok_or_else(|| format!("`{}` on {ty:?}", inst.opcode.name))?,
        };
        let form = select::int_form(op, ty);
        let mut s = [Src::Imm(0); 4];
        for (i, slot) in s.iter_mut().enumerate().take(form.arity) {
            *slot = self.src(o(i + 1)?, form.src_tys[i])?;
        }
        let mut d = self.dst(o(0)?, ty)?;
        d.bits = form.dst_bits as u8;
        d.signed = form.dst_signed;
        let ty = form.ty;
        Ok(Op::Int { op, ty, d, s })
    }

    fn decode_float(&self, inst: &Inst, m: &Mods, ty: Ty) -> R<Op> {
        let o = |i| self.operand(inst, i);
        let name = inst.opcode.name.as_str();
        let family = m.info.family;
        let tys = m.types();
        // Mixed precision: `add.f32.f16 d, a, c`, `fma.rn.f32.bf16 d, a, b, c`.
        let mut mixed = None;
        let mut ty = ty;
        if tys.len() > 1 && tys.iter().any(|t| *t != ty) {
            match (tys.as_slice(), family) {
                ([Ty::F32, h @ (Ty::F16 | Ty::BF16)], F::Add | F::Sub | F::Fma) => {
                    mixed = Some(*h);
                    ty = Ty::F32;
                }
                _ => return Err("mixed-precision form".into()),
            }
        }
        let half = matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2);
        if half {
            let op =
                select::half_op(m.info, m.mods).ok_or_else(|| format!("`{name}` on {ty:?}"))?;
            let n = crate::fops::harity(op);
            if inst.operands.len() > n + 1 {
                return Err(format!("{name} with {} sources", inst.operands.len() - 1));
            }
            let src = |i: usize| {
                if i < n {
                    self.src(o(i + 1)?, ty)
                } else {
                    Ok(Src::Imm(0))
                }
            };
            return Ok(Op::Half {
                op,
                ty,
                m: m.fmods(Rnd::Rn),
                d: self.dst(o(0)?, ty)?,
                a: src(0)?,
                b: src(1)?,
                c: src(2)?,
            });
        }
        if !matches!(ty, Ty::F32 | Ty::F64 | Ty::F32x2) {
            return Err(format!("`{name}` on {ty:?}"));
        }
        let op = select::float_op(m.info, m.mods, inst.operands.len().saturating_sub(1))
            .ok_or_else(|| format!("`{name}` on {ty:?}"))?;
        let n = crate::fops::farity(op);
        // The half multiplicands of a mixed-precision form: `a` (and `b` of
        // `fma`); the addend is f32.
        let src_ty = |i: usize| match mixed {
            Some(h) if i == 0 || (i == 1 && op == FOp::Fma) => h,
            _ => ty,
        };
        if inst.operands.len() > n + 1 {
            return Err(format!("{name} with {} sources", inst.operands.len() - 1));
        }
        let src = |i: usize| {
            if i < n {
                self.src(o(i + 1)?, src_ty(i))
            } else {
                Ok(Src::Imm(0))
            }
        };
        Ok(Op::Float {
            op,
            ty,
            m: m.fmods(Rnd::Rn),
            half: mixed,
            d: self.dst(o(0)?, ty)?,
            a: src(0)?,
            b: src(1)?,
            c: src(2)?,
        })
    }

    fn decode_cvt(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let o = |i| self.operand(inst, i);
        let tys = m.types();
        if m.has(".pack") {
            let dty = *tys.first().ok_or("cvt.pack type")?;
            return Ok(Op::CvtPack {
                dty,
                d: self.dst_bits(o(0)?, 32)?,
                a: self.src(o(1)?, Ty::S32)?,
                b: self.src(o(2)?, Ty::S32)?,
                // The 16-bit forms have no `c`.
                c: match inst.operands.get(3) {
                    Some(op) => self.src(op, Ty::B32)?,
                    None => Src::Imm(0),
                },
            });
        }
        if m.has(".rs") {
            let dty = *tys.first().ok_or("cvt.rs type")?;
            let n = inst.operands.len();
            if n < 3 {
                return Err("cvt.rs operands".into());
            }
            let mut vals = Vec::new();
            for op in &inst.operands[1..n - 1] {
                vals.extend(self.srcs(op, Ty::F32)?);
            }
            return Ok(Op::CvtRs {
                dty,
                relu: m.info.relu,
                satfinite: m.info.satfinite,
                d: self.dst_bits(o(0)?, dty.bits().min(32))?,
                vals: vals.into(),
                rbits: self.src(o(n - 1)?, Ty::B32)?,
            });
        }
        let (dty, sty) = match tys.as_slice() {
            [d, s] => (*d, *s),
            _ => return Err("cvt needs two types".into()),
        };
        let spec = CvtSpec {
            dty,
            sty,
            rnd: m.rnd(),
            irnd: m.irnd(),
            ftz: m.info.ftz,
            sat: m.info.sat,
            relu: m.info.relu,
            satfinite: m.info.satfinite,
        };
        let mut d = self.dst(o(0)?, dty)?;
        if dty.is_float() {
            d.signed = false;
        }
        let b = if spec.two_sources() {
            self.src(o(2)?, sty)?
        } else {
            Src::Imm(0)
        };
        Ok(Op::Cvt {
            spec,
            d,
            a: self.src(o(1)?, sty)?,
            b,
        })
    }

    fn decode_atom(&self, inst: &Inst, red: bool, m: &Mods) -> R<Op> {
        let o = |i| self.operand(inst, i);
        if m.vec() > 1 {
            return Err("vector atomics".into());
        }
        let ty = m.last_type()?;
        let op = m
            .pick(&[
                (".and", AtomOp::And),
                (".or", AtomOp::Or),
                (".xor", AtomOp::Xor),
                (".cas", AtomOp::Cas),
                (".exch", AtomOp::Exch),
                (".add", AtomOp::Add),
                (".inc", AtomOp::Inc),
                (".dec", AtomOp::Dec),
                (".min", AtomOp::Min),
                (".max", AtomOp::Max),
            ])
            .ok_or("atomic operation")?;
        let space = m.space();
        let first = if red { 0 } else { 1 };
        let d = if red { Dst::SINK } else { self.dst(o(0)?, ty)? };
        let (d, b, c) = if ty == Ty::B128 {
            let d = if red { d } else { self.dst(o(0)?, Ty::B64)? };
            let b = self.src(o(first + 1)?, Ty::B64)?;
            let c = if op == AtomOp::Cas {
                self.src(o(first + 2)?, Ty::B64)?
            } else {
                Src::Imm(0)
            };
            (d, b, c)
        } else {
            let b = self.src(o(first + 1)?, ty)?;
            let c = if op == AtomOp::Cas {
                self.src(o(first + 2)?, ty)?
            } else {
                Src::Imm(0)
            };
            (d, b, c)
        };
        Ok(Op::Atom {
            space,
            op,
            ty,
            ftz: ty == Ty::F32,
            d,
            addr: self.addr(o(first)?, space)?,
            b,
            c,
        })
    }

    fn decode_call(&self, inst: &Inst) -> R<Op> {
        let mut ops = inst.operands.iter().peekable();
        let mut rets_ops: &[Operand] = &[];
        if let Some(Operand::ArgList(items)) = ops.peek() {
            rets_ops = items;
            ops.next();
        }
        let callee = ops.next().ok_or("call without a target")?;
        let target = match callee {
            Operand::Symbol { name, .. } => match self.symbol(name)? {
                SymLoc::Func(i) => Ok(i),
                _ => return Err(format!("`{name}` is not a function")),
            },
            op => Err(self.src(op, Ty::U64)?),
        };
        let mut args_ops: &[Operand] = &[];
        let single;
        match ops.peek() {
            Some(Operand::ArgList(items)) => args_ops = items,
            // `(5)` lowers as a parenthesized constant: one argument.
            Some(op @ Operand::Imm(_)) => {
                single = [(*op).clone()];
                args_ops = &single;
            }
            _ => {}
        }
        let arg = |op: &Operand, out: bool| -> R<CallArg> {
            match op {
                Operand::Symbol { name, offset: 0 } => match self.symbol(name)? {
                    loc @ (SymLoc::FrameParam(_) | SymLoc::KParam(_)) => Ok(CallArg::Param(loc)),
                    SymLoc::Value(v) if !out => Ok(CallArg::Value(Src::Imm(v))),
                    _ => Err(format!("call argument `{name}`")),
                },
                Operand::Reg { .. } if out => {
                    let mut d = self.dst(op, Ty::B64)?;
                    d.bits = d.reg_bits;
                    Ok(CallArg::Reg(d))
                }
                _ if !out => Ok(CallArg::Value(self.src(op, Ty::B64)?)),
                other => Err(format!("call result {other:?}")),
            }
        };
        Ok(Op::Call(Box::new(CallSpec {
            target,
            args: args_ops.iter().map(|a| arg(a, false)).collect::<R<_>>()?,
            rets: rets_ops.iter().map(|a| arg(a, true)).collect::<R<_>>()?,
        })))
    }

    fn decode_bar(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let o = |i| self.operand(inst, i);
        if m.has(".warp") {
            return Ok(Op::WarpSync {
                mask: self.src(o(0)?, Ty::B32)?,
            });
        }
        if m.has(".cluster") {
            // One CTA per cluster: the cluster barrier is the CTA's own.
            return Ok(Op::Nop);
        }
        let aligned = matches!(m.info.family, F::Bar | F::BarWarpSync) || m.has(".aligned");
        let kind = if m.has(".red") {
            if m.has(".popc") {
                BarKind::RedPopc
            } else if m.has(".and") {
                BarKind::RedAnd
            } else if m.has(".or") {
                BarKind::RedOr
            } else {
                return Err("bar.red operation".into());
            }
        } else if m.has(".arrive") {
            BarKind::Arrive
        } else {
            BarKind::Sync
        };
        if matches!(kind, BarKind::Sync | BarKind::Arrive) {
            let id = match inst.operands.first() {
                Some(op) => self.src(op, Ty::U32)?,
                None => Src::Imm(0),
            };
            let count = match inst.operands.get(1) {
                Some(op) => Some(self.src(op, Ty::U32)?),
                None => None,
            };
            return Ok(Op::Bar {
                kind,
                id,
                count,
                d: Dst::SINK,
                pred: None,
                aligned,
            });
        }
        // bar.red: d, a{, b}, {!}c
        let n = inst.operands.len();
        let dty = if kind == BarKind::RedPopc {
            Ty::U32
        } else {
            Ty::Pred
        };
        Ok(Op::Bar {
            kind,
            id: self.src(o(1)?, Ty::U32)?,
            count: if n == 4 {
                Some(self.src(o(2)?, Ty::U32)?)
            } else {
                None
            },
            d: self.dst(o(0)?, dty)?,
            pred: Some(self.pred(o(n - 1)?)?),
            aligned,
        })
    }

    fn decode_shfl(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let o = |i| self.operand(inst, i);
        let mode = if m.has(".up") {
            ShflMode::Up
        } else if m.has(".down") {
            ShflMode::Down
        } else if m.has(".bfly") {
            ShflMode::Bfly
        } else if m.has(".idx") {
            ShflMode::Idx
        } else {
            return Err("shfl mode".into());
        };
        let (d, p) = match o(0)? {
            Operand::PredPair(d, p) => (self.dst(d, Ty::B32)?, self.dst(p, Ty::Pred)?),
            d => (self.dst(d, Ty::B32)?, Dst::SINK),
        };
        Ok(Op::Shfl {
            mode,
            d,
            p,
            a: self.src(o(1)?, Ty::B32)?,
            b: self.src(o(2)?, Ty::B32)?,
            c: self.src(o(3)?, Ty::B32)?,
            mask: if m.has(".sync") {
                Some(self.src(o(4)?, Ty::B32)?)
            } else {
                None
            },
        })
    }

    fn decode_mbar(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let o = |i| self.operand(inst, i);
        let family = inst.opcode.family.unwrap_or("");
        let space = m.space();
        let n = inst.operands.len();
        // Forms: init/inval/expect_tx/complete_tx [a]{, b};
        // arrive{_drop} state, [a]{, b}; test/try_wait p, [a], state;
        // pending_count d, state.
        let (kind, d, addr, b) = match family {
            "mbarrier.init" => (MbarKind::Init, Dst::SINK, o(0)?, Some(o(1)?)),
            "mbarrier.inval" => (MbarKind::Inval, Dst::SINK, o(0)?, None),
            "mbarrier.expect_tx" => (MbarKind::ExpectTx, Dst::SINK, o(0)?, Some(o(1)?)),
            "mbarrier.complete_tx" => (MbarKind::CompleteTx, Dst::SINK, o(0)?, Some(o(1)?)),
            "mbarrier.arrive" | "mbarrier.arrive_drop" => {
                let expect_tx = m.has(".expect_tx");
                let kind = MbarKind::Arrive {
                    expect_tx,
                    drop: family == "mbarrier.arrive_drop",
                    counted: n > 2 && !expect_tx,
                };
                (kind, self.dst(o(0)?, Ty::B64)?, o(1)?, inst.operands.get(2))
            }
            "mbarrier.test_wait" | "mbarrier.try_wait" => (
                MbarKind::Wait {
                    parity: m.has(".parity"),
                },
                self.dst(o(0)?, Ty::Pred)?,
                o(1)?,
                Some(o(2)?),
            ),
            "mbarrier.pending_count" => {
                return Ok(Op::Mbar {
                    kind: MbarKind::PendingCount,
                    space,
                    d: self.dst(o(0)?, Ty::U32)?,
                    addr: Addr {
                        base: Src::Imm(0),
                        off: 0,
                    },
                    b: self.src(o(1)?, Ty::B64)?,
                })
            }
            other => return Err(format!("`{other}`")),
        };
        Ok(Op::Mbar {
            kind,
            space,
            d,
            addr: self.addr(addr, space)?,
            b: match b {
                Some(op) => self.src(op, Ty::B64)?,
                None => Src::Imm(1),
            },
        })
    }

    /// A texture, sampler or surface operand: a register, a module-level
    /// object, or a `.texref`-like parameter (its handle is loaded).
    fn handle(&self, op: &Operand) -> R<Handle> {
        let from_sym = |name: &str| -> R<Handle> {
            Ok(match self.symbol(name)? {
                SymLoc::Value(v) => Handle::Val(Src::Imm(v)),
                loc @ (SymLoc::KParam(_) | SymLoc::FrameParam(_)) => {
                    Handle::Param(Src::Sym(loc, 0))
                }
                _ => return Err(format!("`{name}` is not a texture, sampler or surface")),
            })
        };
        match op {
            Operand::Reg { .. } => Ok(Handle::Val(self.src(op, Ty::U64)?)),
            Operand::Symbol { name, .. } => from_sym(name),
            Operand::Address(Address { base, .. }) => match base {
                AddressBase::Reg(r) => Ok(Handle::Val(Src::Reg(self.slot(*r, None)?))),
                AddressBase::Symbol(name) => from_sym(name),
                AddressBase::Absolute => Err("absolute texture address".into()),
            },
            Operand::AddressList(items) if items.len() == 1 => self.handle(&items[0]),
            other => Err(format!("texture operand {other:?}")),
        }
    }

    /// The sources of a vector operand `{a, b}` (or a single operand).
    fn srcs(&self, op: &Operand, ty: Ty) -> R<Vec<Src>> {
        match (self.vector_items(op), self.vector_reg(op)) {
            (Some(items), _) => items.iter().map(|x| self.src(x, ty)).collect(),
            (None, Some((base, n))) => Ok((0..n).map(|i| Src::Reg(base + i)).collect()),
            _ => Ok(vec![self.src(op, ty)?]),
        }
    }

    fn dsts(&self, op: &Operand, ty: Ty) -> R<Vec<Dst>> {
        match (self.vector_items(op), self.vector_reg(op)) {
            (Some(items), _) => items.iter().map(|x| self.dst(x, ty)).collect(),
            (None, Some((base, n))) => Ok((0..n)
                .map(|i| Dst {
                    slot: base + i,
                    reg_bits: self.reg_bits(base + i),
                    bits: ty.bits().min(64) as u8,
                    signed: ty.is_signed(),
                })
                .collect()),
            _ => Ok(vec![self.dst(op, ty)?]),
        }
    }

    /// `[a, {c}]`, `[a, b, {c}]`: the texture, the sampler, the coordinates.
    fn tex_operand(&self, op: &Operand) -> R<(Handle, Option<Handle>, Vec<Src>)> {
        let Operand::AddressList(items) = op else {
            return Err(format!("texture operand {op:?}"));
        };
        let (coords, rest) = items.split_last().ok_or("empty texture operand")?;
        let coords = self.srcs(coords, Ty::B32)?;
        match rest {
            [t] => Ok((self.handle(t)?, None, coords)),
            [t, s] => Ok((self.handle(t)?, Some(self.handle(s)?), coords)),
            _ => Err("texture operand".into()),
        }
    }

    fn decode_tex(&self, inst: &Inst, gather: bool, m: &Mods) -> R<Op> {
        use crate::texture::Geom;
        let geom = inst
            .opcode
            .modifiers
            .iter()
            .find_map(|x| Geom::parse(x))
            .ok_or("texture geometry")?;
        let tys = m.types();
        let (dty, cty) = match tys.as_slice() {
            [d, c] => (*d, *c),
            _ => return Err("texture types".into()),
        };
        let f16x2 = dty == Ty::F16x2;
        if !matches!(dty, Ty::F32 | Ty::S32 | Ty::U32 | Ty::F16 | Ty::F16x2) {
            return Err(format!("texture result type {dty:?}"));
        }
        let gather = if gather {
            Some(
                m.pick(&[(".r", 0u8), (".g", 1), (".b", 2), (".a", 3)])
                    .ok_or("tld4 component")?,
            )
        } else {
            None
        };
        let dreg_ty = if f16x2 { Ty::B32 } else { dty };
        let (ds, p) = match self.operand(inst, 0)? {
            Operand::PredPair(d, p) => (self.dsts(d, dreg_ty)?, self.dst(p, Ty::Pred)?),
            d => (self.dsts(d, dreg_ty)?, Dst::SINK),
        };
        let (tex, sampler, coords) = self.tex_operand(self.operand(inst, 1)?)?;
        // Skip the level of detail (`.level`) or the gradients (`.grad`):
        // there is one mipmap level.
        let mut next = 2;
        if m.has(".level") {
            next += 1;
        } else if m.has(".grad") {
            next += 2;
        }
        let mut offsets = Vec::new();
        let mut depth = None;
        for op in inst.operands.iter().skip(next) {
            match op {
                Operand::Vector(_) => offsets = self.srcs(op, Ty::S32)?,
                op => depth = Some(self.src(op, Ty::F32)?),
            }
        }
        Ok(Op::Tex(Box::new(TexOp {
            gather,
            geom,
            dty,
            f16x2,
            int_coords: cty == Ty::S32,
            ds,
            p,
            tex,
            sampler,
            coords,
            offsets,
            depth,
        })))
    }

    fn decode_surf(&self, inst: &Inst, family: F, m: &Mods) -> R<Op> {
        use crate::texture::{Geom, SurfClamp};
        let geom = inst
            .opcode
            .modifiers
            .iter()
            .find_map(|x| Geom::parse(x))
            .ok_or("surface geometry")?;
        let ety = m.last_type()?;
        if ety.bytes() > 8 {
            return Err(format!("surface access of {ety:?}"));
        }
        let clamp = m
            .pick(&[
                (".clamp", SurfClamp::Clamp),
                (".zero", SurfClamp::Zero),
                (".trap", SurfClamp::Trap),
            ])
            .unwrap_or(SurfClamp::Trap);
        let formatted = m.has(".p");
        let kind = match family {
            F::Suld => SurfKind::Ld,
            F::Sust => SurfKind::St,
            _ => SurfKind::Red(
                m.pick(&[
                    (".add", AtomOp::Add),
                    (".min", AtomOp::Min),
                    (".max", AtomOp::Max),
                    (".and", AtomOp::And),
                    (".or", AtomOp::Or),
                ])
                .ok_or("sured operation")?,
            ),
        };
        let (addr_op, val_op) = if kind == SurfKind::Ld {
            (self.operand(inst, 1)?, self.operand(inst, 0)?)
        } else {
            (self.operand(inst, 0)?, self.operand(inst, 1)?)
        };
        let (surf, sampler, coords) = self.tex_operand(addr_op)?;
        if sampler.is_some() {
            return Err("surface operand with a sampler".into());
        }
        let vty = if formatted { Ty::B32 } else { ety };
        let (ds, vals) = if kind == SurfKind::Ld {
            (self.dsts(val_op, ety)?, Vec::new())
        } else {
            (Vec::new(), self.srcs(val_op, vty)?)
        };
        Ok(Op::Surf(Box::new(SurfOp {
            kind,
            formatted,
            geom,
            ety,
            clamp,
            surf,
            coords,
            ds,
            vals,
        })))
    }

    fn decode_query(&self, inst: &Inst, istypep: bool, m: &Mods) -> R<Op> {
        let what = inst
            .opcode
            .modifiers
            .iter()
            .find(|x| !matches!(x.as_str(), ".b32" | ".level"))
            .ok_or("query attribute")?;
        let level = if m.has(".level") {
            Some(self.src(self.operand(inst, 2)?, Ty::U32)?)
        } else {
            None
        };
        Ok(Op::Query(Box::new(QueryOp {
            what: what.as_str().into(),
            istypep,
            level,
            d: self.dst(
                self.operand(inst, 0)?,
                if istypep { Ty::Pred } else { Ty::B32 },
            )?,
            obj: self.handle(self.operand(inst, 1)?)?,
        })))
    }

    fn decode_wmma(&self, inst: &Inst, family: F, m: &Mods) -> R<Op> {
        use crate::wmma::{valid_shape, BitOp, Frag, MmaSpec, WTy};
        let mods = &inst.opcode.modifiers;
        let mnk = mods
            .iter()
            .find_map(|x| {
                let rest = x.strip_prefix(".m")?;
                let (m, rest) = rest.split_once('n')?;
                let (n, k) = rest.split_once('k')?;
                Some((m.parse().ok()?, n.parse().ok()?, k.parse().ok()?))
            })
            .ok_or("wmma shape")?;
        let tys: Vec<WTy> = mods.iter().filter_map(|x| WTy::parse(x)).collect();
        let row = m.has(".row");
        let reg_ty = |t: WTy| if t == WTy::F64 { Ty::B64 } else { Ty::B32 };
        let stride = |i: usize| -> R<Option<Src>> {
            match inst.operands.get(i) {
                Some(op) => Ok(Some(self.src(op, Ty::U32)?)),
                None => Ok(None),
            }
        };
        let op = match family {
            F::WmmaLoad => {
                let ty = *tys.last().ok_or("wmma type")?;
                let frag = m
                    .pick(&[(".a", Frag::A), (".b", Frag::B), (".c", Frag::C)])
                    .ok_or("wmma fragment")?;
                if frag != Frag::C && !valid_shape(ty, mnk) {
                    return Err(format!("wmma shape {mnk:?} with {ty:?}"));
                }
                WmmaOp::Load {
                    frag,
                    ty,
                    mnk,
                    row,
                    space: m.space(),
                    ds: self.dsts(self.operand(inst, 0)?, reg_ty(ty))?,
                    addr: self.addr(self.operand(inst, 1)?, m.space())?,
                    stride: stride(2)?,
                }
            }
            F::WmmaStore => {
                let ty = *tys.last().ok_or("wmma type")?;
                WmmaOp::Store {
                    ty,
                    mnk,
                    row,
                    space: m.space(),
                    srcs: self.srcs(self.operand(inst, 1)?, reg_ty(ty))?,
                    addr: self.addr(self.operand(inst, 0)?, m.space())?,
                    stride: stride(2)?,
                }
            }
            _ => {
                let (dty, aty, bty, cty) = match tys.as_slice() {
                    [d, c] => (*d, WTy::F16, WTy::F16, *c),
                    [d, a, b, c] => (*d, *a, *b, *c),
                    _ => return Err("wmma.mma types".into()),
                };
                if !valid_shape(aty, mnk) {
                    return Err(format!("wmma shape {mnk:?} with {aty:?}"));
                }
                let bop = if m.has(".xor") {
                    Some(BitOp::Xor)
                } else if m.has(".and") {
                    Some(BitOp::And)
                } else {
                    None
                };
                WmmaOp::Mma {
                    spec: MmaSpec {
                        mnk,
                        aty,
                        bty,
                        cty,
                        dty,
                        sat: m.has(".satfinite"),
                        bop,
                    },
                    d: self.dsts(self.operand(inst, 0)?, reg_ty(dty))?,
                    a: self.srcs(self.operand(inst, 1)?, reg_ty(aty))?,
                    b: self.srcs(self.operand(inst, 2)?, reg_ty(bty))?,
                    c: self.srcs(self.operand(inst, 3)?, reg_ty(cty))?,
                }
            }
        };
        Ok(Op::Wmma(Box::new(op)))
    }

    fn decode_ldst_matrix(&self, inst: &Inst, m: &Mods, load: bool) -> R<Op> {
        if !m.has(".m8n8") || m.last_type()? != Ty::B16 {
            return Err("only the m8n8 .b16 shape".into());
        }
        let space = m.space();
        let trans = m.has(".trans");
        let (vec_op, addr_op) = if load {
            (self.operand(inst, 0)?, self.operand(inst, 1)?)
        } else {
            (self.operand(inst, 1)?, self.operand(inst, 0)?)
        };
        let items: Vec<&Operand> = match vec_op {
            Operand::Vector(items) => items.iter().collect(),
            op => vec![op],
        };
        let addr = self.addr(addr_op, space)?;
        let mat = if load {
            Matrix::Ld {
                ds: items
                    .iter()
                    .map(|x| self.dst(x, Ty::B32))
                    .collect::<R<_>>()?,
                addr,
                space,
                trans,
            }
        } else {
            Matrix::St {
                srcs: items
                    .iter()
                    .map(|x| self.src(x, Ty::B32))
                    .collect::<R<_>>()?,
                addr,
                space,
                trans,
            }
        };
        Ok(Op::Matrix(Box::new(mat)))
    }

    fn decode_mma(&self, inst: &Inst, m: &Mods) -> R<Op> {
        let shape = inst
            .opcode
            .modifiers
            .iter()
            .find(|x| x.starts_with(".m") && x.contains('n') && x.contains('k'))
            .ok_or("mma shape")?;
        let parse = |s: &str| -> Option<(u32, u32, u32)> {
            let s = s.strip_prefix(".m")?;
            let (mm, rest) = s.split_once('n')?;
            let (nn, kk) = rest.split_once('k')?;
            Some((mm.parse().ok()?, nn.parse().ok()?, kk.parse().ok()?))
        };
        let (mm, nn, kk) = parse(shape).ok_or("mma shape")?;
        let layouts: Vec<bool> = inst
            .opcode
            .modifiers
            .iter()
            .filter_map(|x| match x.as_str() {
                ".row" => Some(true),
                ".col" => Some(false),
                _ => None,
            })
            .collect();
        let rows = match layouts.as_slice() {
            [a, b] => (*a, *b),
            _ => return Err("mma layouts".into()),
        };
        let f16_884 = (mm, nn, kk) == (8, 8, 4) && m.has(".f16");
        if rows != (true, false) && !f16_884 {
            return Err("mma layouts other than .row.col".into());
        }
        let tys = m.types();
        // `.s4`/`.u4`/`.b1` multiplicands are not `Ty`s: read them from the
        // modifiers (`.s32.s4.u4.s32`: the second and third types).
        let subs: Vec<crate::wmma::WTy> = inst
            .opcode
            .modifiers
            .iter()
            .filter_map(|x| crate::wmma::WTy::parse(x))
            .collect();
        let sub = match subs.as_slice() {
            [_, a, b, _]
                if matches!(
                    a,
                    crate::wmma::WTy::S4 | crate::wmma::WTy::U4 | crate::wmma::WTy::B1
                ) =>
            {
                let bop = if m.has(".xor") {
                    Some(crate::wmma::BitOp::Xor)
                } else if m.has(".and") {
                    Some(crate::wmma::BitOp::And)
                } else {
                    None
                };
                Some((*a, *b, bop))
            }
            _ => None,
        };
        let (dty, aty, bty, cty) = match tys.as_slice() {
            _ if sub.is_some() => (Ty::S32, Ty::B32, Ty::B32, Ty::S32),
            [d, a, b, c] => (*d, *a, *b, *c),
            [d, c] if *d == *c => (*d, *d, *d, *c),
            [d, ab, c] => (*d, *ab, *ab, *c),
            _ => return Err("mma types".into()),
        };
        let list = |i: usize, ty: Ty| -> R<Vec<Src>> {
            match self.operand(inst, i)? {
                Operand::Vector(items) => items.iter().map(|x| self.src(x, ty)).collect(),
                op => Ok(vec![self.src(op, ty)?]),
            }
        };
        let d = match self.operand(inst, 0)? {
            Operand::Vector(items) => items
                .iter()
                .map(|x| self.dst(x, Ty::B32))
                .collect::<R<Vec<_>>>()?,
            op => vec![self.dst(op, Ty::B32)?],
        };
        let reg_ty = |t: Ty| if t == Ty::F64 { Ty::F64 } else { Ty::B32 };
        let mat = Matrix::Mma {
            m: mm,
            n: nn,
            k: kk,
            dty,
            aty,
            bty,
            cty,
            sat: m.info.satfinite || m.has(".satfinite"),
            sub,
            rows,
            d,
            a: list(1, reg_ty(aty))?,
            b: list(2, reg_ty(bty))?,
            c: list(3, reg_ty(cty))?,
        };
        crate::mma::check_shape(&mat)?;
        Ok(Op::Matrix(Box::new(mat)))
    }

    fn decode_video(&self, inst: &Inst, family: F, m: &Mods) -> R<Op> {
        let tys = m.types();
        let (dty, aty, bty) = match tys.as_slice() {
            [d, a, b] => (*d, *a, *b),
            [a, b] if family == F::Vset => (Ty::U32, *a, *b),
            _ => return Err("video instruction types".into()),
        };
        if tys.iter().any(|t| t.bits() != 32) {
            return Err("video types must be 32-bit".into());
        }
        let op = match family {
            F::Vadd => VideoOp::Add,
            F::Vsub => VideoOp::Sub,
            F::Vabsdiff => VideoOp::Absdiff,
            F::Vmin => VideoOp::Min,
            F::Vmax => VideoOp::Max,
            F::Vshl => VideoOp::Shl,
            F::Vshr => VideoOp::Shr,
            F::Vmad => VideoOp::Mad,
            F::Vset => VideoOp::Set,
            _ => return Err("not a scalar video instruction".into()),
        };
        let op2 = if m.has(".add") {
            Some(VideoOp2::Add)
        } else if m.has(".min") {
            Some(VideoOp2::Min)
        } else if m.has(".max") {
            Some(VideoOp2::Max)
        } else {
            None
        };
        type Sel = Option<(u32, u32)>;
        let with_sel = |op: &Operand, ty: Ty| -> R<(Src, Sel, bool)> {
            match op {
                Operand::Reg { reg, component } => {
                    let sel = component.as_deref().and_then(video_sel);
                    let comp = if sel.is_some() {
                        None
                    } else {
                        component.as_deref()
                    };
                    Ok((Src::Reg(self.slot(*reg, comp)?), sel, false))
                }
                Operand::NegReg { reg, component } => {
                    let sel = component.as_deref().and_then(video_sel);
                    Ok((Src::Reg(self.slot(*reg, None)?), sel, true))
                }
                other => Ok((self.src(other, ty)?, None, false)),
            }
        };
        let d_op = self.operand(inst, 0)?;
        let (d, dsel) = match d_op {
            Operand::Reg { reg, component } => {
                let sel = component.as_deref().and_then(video_sel);
                let slot = self.slot(*reg, None)?;
                (
                    Dst {
                        slot,
                        reg_bits: self.reg_bits(slot),
                        bits: 32,
                        signed: false,
                    },
                    sel,
                )
            }
            _ => (self.dst(d_op, dty)?, None),
        };
        let (a, asel, na) = with_sel(self.operand(inst, 1)?, aty)?;
        let (b, bsel, nb) = with_sel(self.operand(inst, 2)?, bty)?;
        let c = match inst.operands.get(3) {
            Some(op) => with_sel(op, Ty::U32)?.0,
            None => Src::Imm(0),
        };
        Ok(Op::Video(Box::new(Video {
            op,
            dty,
            aty,
            bty,
            sat: m.info.sat,
            clamp: m.has(".clamp"),
            op2,
            cmp: m.cmp(),
            d,
            dsel,
            a,
            asel,
            b,
            bsel,
            c,
            neg: (na, nb),
        })))
    }
}

impl Decoder<'_> {
    /// `vadd2`, `vabsdiff4`, `vset2`, ...: `vop.dtype.atype.btype{.sat|.add}
    /// d{.mask}, a{.asel}, b{.bsel}, c` (`vset`: `.atype.btype.cmp`).
    fn decode_video_simd(&self, inst: &Inst, family: F, m: &Mods) -> R<Op> {
        let (op, lanes) = match family {
            F::Vadd2 => (SimdOp::Add, 2),
            F::Vsub2 => (SimdOp::Sub, 2),
            F::Vavrg2 => (SimdOp::Avrg, 2),
            F::Vabsdiff2 => (SimdOp::Absdiff, 2),
            F::Vmin2 => (SimdOp::Min, 2),
            F::Vmax2 => (SimdOp::Max, 2),
            F::Vadd4 => (SimdOp::Add, 4),
            F::Vsub4 => (SimdOp::Sub, 4),
            F::Vavrg4 => (SimdOp::Avrg, 4),
            F::Vabsdiff4 => (SimdOp::Absdiff, 4),
            F::Vmin4 => (SimdOp::Min, 4),
            F::Vmax4 => (SimdOp::Max, 4),
            F::Vset2 | F::Vset4 => (
                SimdOp::Set(m.cmp().ok_or("vset without a comparison")?),
                if family == F::Vset2 { 2 } else { 4 },
            ),
            _ => return Err("not a SIMD video instruction".into()),
        };
        let tys = m.types();
        let (dty, aty, bty) = match (tys.as_slice(), op) {
            ([a, b], SimdOp::Set(_)) => (Ty::U32, *a, *b),
            ([d, a, b], _) => (*d, *a, *b),
            _ => return Err("video instruction types".into()),
        };
        if tys.iter().any(|t| t.bits() != 32) {
            return Err("video types must be 32-bit".into());
        }
        let split = |op: &Operand| -> R<(Src, Option<String>)> {
            match op {
                Operand::Reg { reg, component } => {
                    Ok((Src::Reg(self.slot(*reg, None)?), component.clone()))
                }
                other => Ok((self.src(other, Ty::B32)?, None)),
            }
        };
        // `.hxy` / `.bxyzw`: the element selectors, written from the highest
        // element down.
        let sel = |c: Option<&str>, default: [u8; 4]| -> R<[u8; 4]> {
            let Some(c) = c else { return Ok(default) };
            let prefix = if lanes == 2 { ".h" } else { ".b" };
            let digits = c
                .strip_prefix(prefix)
                .filter(|d| d.len() == lanes as usize)
                .ok_or_else(|| format!("selector `{c}`"))?;
            let max = if lanes == 2 { 3 } else { 7 };
            let mut out = [0u8; 4];
            for (i, ch) in digits.chars().rev().enumerate() {
                let v = ch
                    .to_digit(10)
                    .filter(|&v| v <= max)
                    .ok_or("selector digit")?;
                out[i] = v as u8;
            }
            Ok(out)
        };
        let (dslot, dmask) = match self.operand(inst, 0)? {
            Operand::Reg { reg, component } => (self.slot(*reg, None)?, component.clone()),
            _ => return Err("the destination must be a register".into()),
        };
        let mask = match dmask.as_deref() {
            None => (1u8 << lanes) - 1,
            Some(c) => {
                let prefix = if lanes == 2 { ".h" } else { ".b" };
                let digits = c
                    .strip_prefix(prefix)
                    .filter(|d| !d.is_empty() && d.len() <= lanes as usize)
                    .ok_or_else(|| format!("mask `{c}`"))?;
                let mut mask = 0u8;
                for ch in digits.chars() {
                    let v = ch
                        .to_digit(10)
                        .filter(|&v| v < lanes as u32)
                        .ok_or("mask digit")?;
                    mask |= 1 << v;
                }
                mask
            }
        };
        let (a, acomp) = split(self.operand(inst, 1)?)?;
        let (b, bcomp) = split(self.operand(inst, 2)?)?;
        let (adef, bdef) = if lanes == 2 {
            ([0, 1, 0, 0], [2, 3, 0, 0])
        } else {
            ([0, 1, 2, 3], [4, 5, 6, 7])
        };
        let c = self.src(self.operand(inst, 3)?, Ty::B32)?;
        let d = Dst {
            slot: dslot,
            reg_bits: self.reg_bits(dslot),
            bits: 32,
            signed: false,
        };
        Ok(Op::VideoSimd(Box::new(VideoSimd {
            op,
            lanes,
            a_signed: aty.is_signed(),
            b_signed: bty.is_signed(),
            d_signed: dty.is_signed(),
            sat: m.info.sat,
            add: m.has(".add"),
            mask,
            asel: sel(acomp.as_deref(), adef)?,
            bsel: sel(bcomp.as_deref(), bdef)?,
            d,
            a,
            b,
            c,
        })))
    }
}

/// The bit type of a width.
pub use ptx_sem::select::bits_ty;
