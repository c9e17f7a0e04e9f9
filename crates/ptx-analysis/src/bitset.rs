//! A fixed-size bit set over dense indices (register or definition numbers), the
//! storage of the data-flow analyses. Plain data: `Clone, Debug, PartialEq, Eq,
//! Hash`, so that analysis results holding it can be memoized.
//!
//! While they iterate, the analyses keep one set per block in a single flat
//! `BitRows` (rows of `u64` words, one allocation) and turn only the sets
//! they return into [`BitSet`]s.

/// A set of `usize` indices below a fixed capacity.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl std::fmt::Debug for BitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl BitSet {
    /// The empty set of capacity 0.
    pub const EMPTY: BitSet = BitSet {
        words: Vec::new(),
        len: 0,
    };

    /// An empty set that can hold indices `0..len`.
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// A set of capacity `len` whose words are `words` (as many as
    /// [`BitSet::new`] makes).
    pub(crate) fn from_words(words: &[u64], len: usize) -> BitSet {
        debug_assert_eq!(words.len(), len.div_ceil(64));
        BitSet {
            words: words.to_vec(),
            len,
        }
    }

    /// The words of the set (bit `i % 64` of word `i / 64` is index `i`).
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }

    /// The capacity (one past the largest index it can hold).
    pub fn capacity(&self) -> usize {
        self.len
    }

    /// Adds `i`; returns whether it was absent. Indices past the capacity are
    /// ignored.
    pub fn insert(&mut self, i: usize) -> bool {
        if i >= self.len {
            return false;
        }
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let absent = self.words[w] & b == 0;
        self.words[w] |= b;
        absent
    }

    /// Removes `i`; returns whether it was present.
    pub fn remove(&mut self, i: usize) -> bool {
        if i >= self.len {
            return false;
        }
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let present = self.words[w] & b != 0;
        self.words[w] &= !b;
        present
    }

    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// `self |= other`; returns whether `self` changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let new = *a | *b;
            changed |= new != *a;
            *a = new;
        }
        changed
    }

    /// `self &= !other`.
    pub fn subtract(&mut self, other: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !*b;
        }
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The number of members.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            })
        })
    }
}

/// `rows` bit sets of capacity `len` each, stored one after the other in one
/// vector of words.
pub(crate) struct BitRows {
    words: Vec<u64>,
    width: usize,
}

impl BitRows {
    /// `rows` empty sets of capacity `len`.
    pub(crate) fn new(rows: usize, len: usize) -> BitRows {
        let width = len.div_ceil(64);
        BitRows {
            words: vec![0; rows * width],
            width,
        }
    }

    /// The number of words of a row.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    pub(crate) fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.width..(r + 1) * self.width]
    }

    pub(crate) fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.width..(r + 1) * self.width]
    }
}

/// Adds index `i` to the set with words `words`.
pub(crate) fn insert(words: &mut [u64], i: usize) {
    words[i / 64] |= 1u64 << (i % 64);
}

/// Removes index `i` from the set with words `words`.
pub(crate) fn remove(words: &mut [u64], i: usize) {
    words[i / 64] &= !(1u64 << (i % 64));
}

/// Whether the set with words `words` holds index `i`.
pub(crate) fn contains(words: &[u64], i: usize) -> bool {
    words[i / 64] & (1u64 << (i % 64)) != 0
}

#[cfg(test)]
mod tests {
    use super::BitSet;

    #[test]
    fn insert_remove_iterate_across_words() {
        let mut s = BitSet::new(130);
        assert!(s.insert(0));
        assert!(s.insert(64));
        assert!(s.insert(129));
        assert!(!s.insert(129));
        assert!(!s.insert(500), "past the capacity is ignored");
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert_eq!(s.count(), 3);
        assert!(s.remove(64));
        assert!(!s.contains(64));
        let mut t = BitSet::new(130);
        t.insert(1);
        assert!(t.union_with(&s));
        assert!(!t.union_with(&s));
        t.subtract(&s);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![1]);
        assert_eq!(format!("{t:?}"), "{1}");
    }
}
