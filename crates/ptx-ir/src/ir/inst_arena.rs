//! [`InstArena`]: a function's instructions, each shared between the
//! versions of the function that have not changed it.
//!
//! Every phase that changes a function clones it, and the database keeps
//! every version (one per phase that changed something). With the
//! instructions stored inline, each clone copied every instruction and its
//! strings, and each version held its own copy. Here an instruction is an
//! `Arc`: cloning a function copies pointers, and the first write to an
//! instruction of the clone (`&mut f.insts[id]`, through [`Arc::make_mut`])
//! copies that one instruction only. Equality compares pointers before
//! contents, so the database's "did the phase change anything?" is cheap on
//! what the phase left alone.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

use la_arena::RawIdx;

use super::inst::{Inst, InstId};

/// The instructions of a function, indexed by [`InstId`] (ids are dense:
/// the `n`th instruction allocated has raw index `n`).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct InstArena {
    insts: Vec<Arc<Inst>>,
}

fn id(index: usize) -> InstId {
    InstId::from_raw(RawIdx::from(index as u32))
}

fn index(id: InstId) -> usize {
    id.into_raw().into_u32() as usize
}

impl InstArena {
    pub fn new() -> InstArena {
        InstArena::default()
    }

    /// An empty arena with room for `n` instructions.
    pub fn with_capacity(n: usize) -> InstArena {
        InstArena {
            insts: Vec::with_capacity(n),
        }
    }

    /// Adds an instruction; its id is the number of instructions before it.
    pub fn alloc(&mut self, inst: Inst) -> InstId {
        self.alloc_shared(Arc::new(inst))
    }

    /// Adds an instruction shared with another function or arena (no copy).
    pub fn alloc_shared(&mut self, inst: Arc<Inst>) -> InstId {
        self.insts.push(inst);
        id(self.insts.len() - 1)
    }

    /// The shared instruction `id`, to be added elsewhere with
    /// [`InstArena::alloc_shared`].
    pub fn shared(&self, id: InstId) -> &Arc<Inst> {
        &self.insts[index(id)]
    }

    pub fn len(&self) -> usize {
        self.insts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    pub fn get(&self, id: InstId) -> Option<&Inst> {
        self.insts.get(index(id)).map(|i| &**i)
    }

    /// The instruction `id`, copied first if another version shares it.
    pub fn get_mut(&mut self, id: InstId) -> Option<&mut Inst> {
        self.insts.get_mut(index(id)).map(Arc::make_mut)
    }

    /// Every instruction with its id, in allocation order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (InstId, &Inst)> + DoubleEndedIterator {
        self.insts
            .iter()
            .enumerate()
            .map(|(i, inst)| (id(i), &**inst))
    }

    /// Every instruction, mutably: each shared one is copied first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (InstId, &mut Inst)> {
        self.insts
            .iter_mut()
            .enumerate()
            .map(|(i, inst)| (id(i), Arc::make_mut(inst)))
    }

    /// Every instruction, in allocation order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Inst> + DoubleEndedIterator {
        self.insts.iter().map(|i| &**i)
    }

    /// Every id, in allocation order.
    pub fn idxs(&self) -> impl ExactSizeIterator<Item = InstId> + DoubleEndedIterator {
        (0..self.insts.len()).map(id)
    }
}

impl Index<InstId> for InstArena {
    type Output = Inst;
    fn index(&self, id: InstId) -> &Inst {
        &self.insts[index(id)]
    }
}

impl IndexMut<InstId> for InstArena {
    fn index_mut(&mut self, id: InstId) -> &mut Inst {
        Arc::make_mut(&mut self.insts[index(id)])
    }
}

impl std::fmt::Debug for InstArena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field("len", &self.insts.len())
            .field("data", &self.insts)
            .finish()
    }
}
