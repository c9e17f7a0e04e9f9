//! Values grouped by a dense key (a register's or block's arena index) in
//! one vector, with an offset per key: what a per-key `Vec` would hold, in
//! two allocations. Used for the CFG's successor and predecessor lists,
//! the definitions of each register (reaching definitions, DCE, the cicc
//! unroller's IV analysis).
//!
//! No knobs.

/// See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grouped<T> {
    /// `start[k]..start[k + 1]`: the range of `items` of key `k`.
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T> Default for Grouped<T> {
    fn default() -> Grouped<T> {
        Grouped {
            start: Vec::new(),
            items: Vec::new(),
        }
    }
}

impl<T: Copy> Grouped<T> {
    /// Groups `pairs` by key (keys `0..keys`; a pair with a larger key is
    /// left out), keeping each key's values in the order of `pairs` (a
    /// counting sort).
    pub fn new(keys: usize, pairs: &[(usize, T)]) -> Grouped<T> {
        let mut start = vec![0u32; keys + 1];
        for &(k, _) in pairs {
            if k < keys {
                start[k + 1] += 1;
            }
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = Vec::with_capacity(start[keys] as usize);
        // Every slot is written below; the first value fills the vector.
        if let Some(&(_, v)) = pairs.iter().find(|(k, _)| *k < keys) {
            items.resize(start[keys] as usize, v);
        }
        for &(k, v) in pairs {
            if k < keys {
                items[fill[k] as usize] = v;
                fill[k] += 1;
            }
        }
        Grouped { start, items }
    }

    /// The values of `key` (empty for a key past the end).
    pub fn get(&self, key: usize) -> &[T] {
        match (self.start.get(key), self.start.get(key + 1)) {
            (Some(&a), Some(&b)) => &self.items[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Every value, key after key.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_order_and_leaves_out_keys_past_the_end() {
        let g = Grouped::new(3, &[(2, 'a'), (0, 'b'), (2, 'c'), (7, 'x'), (0, 'd')]);
        assert_eq!(g.get(0), ['b', 'd']);
        assert_eq!(g.get(1), [] as [char; 0]);
        assert_eq!(g.get(2), ['a', 'c']);
        assert_eq!(g.get(3), [] as [char; 0]);
        assert_eq!(g.items(), ['b', 'd', 'a', 'c']);
        assert_eq!(Grouped::<u8>::new(2, &[]).get(1), [] as [u8; 0]);
    }
}
