//! [`SharedArena`]: a function's instructions ([`InstArena`]) and blocks
//! ([`BlockArena`]), each shared between the versions of the function that
//! have not changed it.
//!
//! Every phase that changes a function clones it, and the database keeps
//! every version (one per phase that changed something). With the
//! instructions stored inline, each clone copied every instruction and its
//! strings, and each version held its own copy. Here an instruction (and a
//! block) is an `Arc`: cloning a function copies pointers, and the first
//! write to an instruction of the clone (`&mut f.insts[id]`, through
//! [`Arc::make_mut`]) copies that one instruction only. Equality compares
//! pointers before contents, so the database's "did the phase change
//! anything?" is cheap on what the phase left alone.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

use la_arena::{Idx, RawIdx};

use super::block::Block;
use super::inst::Inst;

/// Items indexed by `Idx<T>` (ids are dense: the `n`th item allocated has
/// raw index `n`), each behind an `Arc` shared with the other versions of
/// the function until written.
#[derive(PartialEq, Eq, Hash)]
pub struct SharedArena<T> {
    insts: Vec<Arc<T>>,
}

/// The instructions of a function, indexed by [`InstId`](super::InstId).
pub type InstArena = SharedArena<Inst>;

/// The blocks of a function, indexed by [`BlockId`](super::BlockId).
pub type BlockArena = SharedArena<Block>;

impl<T> Default for SharedArena<T> {
    fn default() -> Self {
        SharedArena { insts: Vec::new() }
    }
}

impl<T> Clone for SharedArena<T> {
    fn clone(&self) -> Self {
        SharedArena {
            insts: self.insts.clone(),
        }
    }
}

fn id<T>(index: usize) -> Idx<T> {
    Idx::from_raw(RawIdx::from(index as u32))
}

fn index<T>(id: Idx<T>) -> usize {
    id.into_raw().into_u32() as usize
}

impl<T: Clone> SharedArena<T> {
    pub fn new() -> SharedArena<T> {
        SharedArena::default()
    }

    /// An empty arena with room for `n` items.
    pub fn with_capacity(n: usize) -> SharedArena<T> {
        SharedArena {
            insts: Vec::with_capacity(n),
        }
    }

    /// Adds an item; its id is the number of items before it.
    pub fn alloc(&mut self, inst: T) -> Idx<T> {
        self.alloc_shared(Arc::new(inst))
    }

    /// Adds an item shared with another function or arena (no copy).
    pub fn alloc_shared(&mut self, inst: Arc<T>) -> Idx<T> {
        self.insts.push(inst);
        id(self.insts.len() - 1)
    }

    /// The shared item `id`, to be added elsewhere with
    /// [`SharedArena::alloc_shared`].
    pub fn shared(&self, id: Idx<T>) -> &Arc<T> {
        &self.insts[index(id)]
    }

    pub fn len(&self) -> usize {
        self.insts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    pub fn get(&self, id: Idx<T>) -> Option<&T> {
        self.insts.get(index(id)).map(|i| &**i)
    }

    /// Item `id`, copied first if another version shares it.
    pub fn get_mut(&mut self, id: Idx<T>) -> Option<&mut T> {
        self.insts.get_mut(index(id)).map(Arc::make_mut)
    }

    /// Every item with its id, in allocation order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Idx<T>, &T)> + DoubleEndedIterator {
        self.insts
            .iter()
            .enumerate()
            .map(|(i, inst)| (id(i), &**inst))
    }

    /// Every item, mutably: each shared one is copied first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Idx<T>, &mut T)> {
        self.insts
            .iter_mut()
            .enumerate()
            .map(|(i, inst)| (id(i), Arc::make_mut(inst)))
    }

    /// Every item, in allocation order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &T> + DoubleEndedIterator {
        self.insts.iter().map(|i| &**i)
    }

    /// The items, in allocation order, unwrapped (copied where another
    /// version still shares one).
    pub fn into_values(self) -> impl Iterator<Item = T> {
        self.insts.into_iter().map(Arc::unwrap_or_clone)
    }

    /// Every id, in allocation order.
    pub fn idxs(&self) -> impl ExactSizeIterator<Item = Idx<T>> + DoubleEndedIterator {
        (0..self.insts.len()).map(id)
    }
}

impl<T> Index<Idx<T>> for SharedArena<T> {
    type Output = T;
    fn index(&self, id: Idx<T>) -> &T {
        &self.insts[index(id)]
    }
}

impl<T: Clone> IndexMut<Idx<T>> for SharedArena<T> {
    fn index_mut(&mut self, id: Idx<T>) -> &mut T {
        Arc::make_mut(&mut self.insts[index(id)])
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for SharedArena<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field("len", &self.insts.len())
            .field("data", &self.insts)
            .finish()
    }
}
