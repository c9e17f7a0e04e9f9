//! [`RegTable`]: one value per register slot, all emptied at once.
//!
//! A walk over one block at a time (constant folding's known values and
//! guarded copies, the redundant-recomputation removal's held values)
//! keeps facts about registers and forgets them at each block: a hash map
//! hashes on every access and clearing it walks its buckets; here each
//! slot carries the generation it was set in, and [`RegTable::clear`]
//! starts a new one. Not a phase.

use ptx_ir::ir::RegId;

/// A value per register (by arena index), present when stamped with the
/// current generation.
pub(crate) struct RegTable<T> {
    stamps: Vec<u32>,
    values: Vec<T>,
    generation: u32,
}

impl<T> Default for RegTable<T> {
    /// Empty, for no register (every lookup answers `None`).
    fn default() -> RegTable<T> {
        RegTable {
            stamps: Vec::new(),
            values: Vec::new(),
            generation: 1,
        }
    }
}

fn slot(r: RegId) -> usize {
    r.into_raw().into_u32() as usize
}

impl<T: Clone + Default> RegTable<T> {
    /// Empty, with room for `regs` registers.
    pub(crate) fn new(regs: usize) -> RegTable<T> {
        RegTable {
            stamps: vec![0; regs],
            values: vec![T::default(); regs],
            generation: 1,
        }
    }

    /// Forgets every register.
    pub(crate) fn clear(&mut self) {
        self.generation += 1;
    }

    pub(crate) fn get(&self, r: RegId) -> Option<&T> {
        let k = slot(r);
        (self.stamps.get(k) == Some(&self.generation)).then(|| &self.values[k])
    }

    pub(crate) fn contains(&self, r: RegId) -> bool {
        self.get(r).is_some()
    }

    /// Sets `r` (growing the table for a register past its end); whether
    /// it was absent.
    pub(crate) fn insert(&mut self, r: RegId, v: T) -> bool {
        *self.slot_mut(r) = v;
        std::mem::replace(&mut self.stamps[slot(r)], self.generation) != self.generation
    }

    /// `r`'s value, made the default first when absent.
    pub(crate) fn get_or_default(&mut self, r: RegId) -> &mut T {
        let k = slot(r);
        if self.stamps.get(k) != Some(&self.generation) {
            *self.slot_mut(r) = T::default();
            self.stamps[k] = self.generation;
        }
        &mut self.values[k]
    }

    pub(crate) fn remove(&mut self, r: RegId) {
        if let Some(s) = self.stamps.get_mut(slot(r)) {
            *s = 0;
        }
    }

    /// Removes `r`, handing its value over.
    pub(crate) fn take(&mut self, r: RegId) -> Option<T> {
        let k = slot(r);
        if self.stamps.get(k) != Some(&self.generation) {
            return None;
        }
        self.stamps[k] = 0;
        Some(std::mem::take(&mut self.values[k]))
    }

    fn slot_mut(&mut self, r: RegId) -> &mut T {
        let k = slot(r);
        if k >= self.values.len() {
            self.values.resize(k + 1, T::default());
            self.stamps.resize(k + 1, 0);
        }
        &mut self.values[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(n: u32) -> RegId {
        RegId::from_raw(n.into())
    }

    #[test]
    fn clear_forgets_and_tables_grow() {
        let mut t: RegTable<u64> = RegTable::new(2);
        assert!(t.insert(reg(1), 7));
        assert!(!t.insert(reg(1), 8));
        assert_eq!(t.get(reg(1)), Some(&8));
        assert!(t.insert(reg(5), 9), "past the end: grown");
        t.clear();
        assert_eq!(t.get(reg(1)), None);
        assert!(!t.contains(reg(5)));
        *t.get_or_default(reg(1)) += 3;
        assert_eq!(t.take(reg(1)), Some(3));
        assert_eq!(t.take(reg(1)), None);
        t.insert(reg(0), 1);
        t.remove(reg(0));
        assert!(!t.contains(reg(0)));
        assert_eq!(RegTable::<u64>::default().get(reg(0)), None);
    }
}
