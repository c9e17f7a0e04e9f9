//! The parts of a function that its versions share until one of them
//! writes to it (copy on write).
//!
//! Every phase that changes a function clones it, and the database keeps
//! every version (one per phase that changed something). With everything
//! stored inline, each clone copied every instruction, block and register
//! with their strings, and each version held its own copy. Here:
//!
//! - [`SharedArena`] (the instructions, [`InstArena`], and the blocks,
//!   [`BlockArena`]) keeps each item behind an `Arc`: cloning a function
//!   copies pointers, and the first write to an item of the clone
//!   (`&mut f.insts[id]`, through [`Arc::make_mut`]) copies that one item;
//! - [`Shared`] (the register table, the declarations) does the same for a
//!   whole part, which few phases change.
//!
//! Equality compares pointers before contents, so the database's "did the
//! phase change anything?" is cheap on what the phase left alone.

use std::ops::{Deref, DerefMut, Index, IndexMut};
use std::sync::Arc;

use la_arena::{Idx, RawIdx};

use super::block::Block;
use super::inst::Inst;

/// A `T` shared between function versions; reads go through [`Deref`],
/// writes through [`DerefMut`], which copies `T` first when another version
/// still holds it.
#[derive(Default, Eq)]
pub struct Shared<T>(Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&*self.0).into_iter()
    }
}

impl<'a, T: Clone> IntoIterator for &'a mut Shared<T>
where
    &'a mut T: IntoIterator,
{
    type Item = <&'a mut T as IntoIterator>::Item;
    type IntoIter = <&'a mut T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).into_iter()
    }
}

/// Items indexed by `Idx<T>` (ids are dense: the `n`th item allocated has
/// raw index `n`), each behind an `Arc` shared with the other versions of
/// the function until written.
#[derive(PartialEq, Eq, Hash)]
pub struct SharedArena<T> {
    items: Vec<Arc<T>>,
}

/// The instructions of a function, indexed by [`InstId`](super::InstId).
pub type InstArena = SharedArena<Inst>;

/// The blocks of a function, indexed by [`BlockId`](super::BlockId).
pub type BlockArena = SharedArena<Block>;

impl<T> Default for SharedArena<T> {
    fn default() -> Self {
        SharedArena { items: Vec::new() }
    }
}

impl<T> Clone for SharedArena<T> {
    fn clone(&self) -> Self {
        SharedArena {
            items: self.items.clone(),
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
            items: Vec::with_capacity(n),
        }
    }

    /// Adds an item; its id is the number of items before it.
    pub fn alloc(&mut self, item: T) -> Idx<T> {
        self.alloc_shared(Arc::new(item))
    }

    /// Adds an item shared with another function or arena (no copy).
    pub fn alloc_shared(&mut self, item: Arc<T>) -> Idx<T> {
        self.items.push(item);
        id(self.items.len() - 1)
    }

    /// The shared item `id`, to be added elsewhere with
    /// [`SharedArena::alloc_shared`].
    pub fn shared(&self, id: Idx<T>) -> &Arc<T> {
        &self.items[index(id)]
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get(&self, id: Idx<T>) -> Option<&T> {
        self.items.get(index(id)).map(|i| &**i)
    }

    /// Every item with its id, in allocation order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Idx<T>, &T)> + DoubleEndedIterator {
        self.items
            .iter()
            .enumerate()
            .map(|(i, item)| (id(i), &**item))
    }

    /// Every item, mutably: each shared one is copied first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Idx<T>, &mut T)> {
        self.items
            .iter_mut()
            .enumerate()
            .map(|(i, item)| (id(i), Arc::make_mut(item)))
    }

    /// Every item, in allocation order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &T> + DoubleEndedIterator {
        self.items.iter().map(|i| &**i)
    }

    /// The items, in allocation order, unwrapped (copied where another
    /// version still shares one).
    pub fn into_values(self) -> impl Iterator<Item = T> {
        self.items.into_iter().map(Arc::unwrap_or_clone)
    }
}

impl<T> Index<Idx<T>> for SharedArena<T> {
    type Output = T;
    fn index(&self, id: Idx<T>) -> &T {
        &self.items[index(id)]
    }
}

impl<T: Clone> IndexMut<Idx<T>> for SharedArena<T> {
    fn index_mut(&mut self, id: Idx<T>) -> &mut T {
        Arc::make_mut(&mut self.items[index(id)])
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for SharedArena<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field("len", &self.items.len())
            .field("data", &self.items)
            .finish()
    }
}
