//! The IR data types.
//!
//! - [`module`]: the module, its header and module-level items.
//! - [`function`]: functions, signatures, parameters and body declarations.
//! - [`block`]: basic blocks and control-flow successors.
//! - [`inst`]: instructions, opcodes, guards and `.loc` positions.
//! - [`operand`]: operands and immediates.
//! - [`reg`]: virtual registers, their declarations and register classes.
//! - [`shared`]: the copy-on-write parts of a function: instructions and
//!   blocks ([`SharedArena`]), registers and declarations ([`Shared`]).
//! - [`def_use`]: which registers an instruction defines and uses.
//! - [`edit`]: the mutation API passes change functions with.
//! - [`dump`]: a readable text dump of the IR (for snapshots and debugging).

pub mod block;
pub mod def_use;
pub mod dump;
pub mod edit;
pub mod function;
pub mod inst;
pub mod module;
pub mod operand;
pub mod reg;
pub mod shared;

pub use block::{Block, BlockId};
pub use def_use::{defs_and_uses, Access, DefUse, RegList};
pub use edit::RegionClone;
pub use function::{Function, FunctionKind, LocalDecl, Param, PerfDirective, PtrAttr, Signature};
pub use inst::{Guard, Inst, InstId, Loc, Locs, Opcode, OpcodeData};
pub use module::{Header, Module, ModuleItem, Target, VarDecl, Variable};
pub use operand::{Address, AddressBase, Imm, ImmValue, Operand};
pub use reg::{Reg, RegClass, RegDecl, RegDeclId, RegId};
pub use shared::{BlockArena, InstArena, Shared, SharedArena};
