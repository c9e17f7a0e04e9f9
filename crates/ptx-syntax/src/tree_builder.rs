//! A green-tree builder tuned for parsing whole files fast.
//!
//! rowan's `GreenNodeBuilder` hashes every node with up to three children into a
//! cache to share identical subtrees; on PTX (hundreds of thousands of tokens per
//! megabyte, mostly unique labels and locations) that costs more than it saves.
//! This builder keeps the same interface shape (`start_node`, `token`,
//! `finish_node`, `checkpoint`, `start_node_at`) but interns only tokens, keyed by
//! `(kind, text)` where the text borrows from the source, so a lookup allocates
//! nothing; nodes are built directly. Identical tokens (`,`, `%r1`, `\n\t`) still
//! share one allocation.

use rowan::{GreenNode, GreenToken, NodeOrToken};
use rustc_hash::FxHashMap;

use crate::SyntaxKind;

type Element = NodeOrToken<GreenNode, GreenToken>;

/// Position in the children stack, for wrapping already-built children later.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint(usize);

/// Slots of the direct-mapped cache for short tokens.
const SHORT_SLOTS: usize = 1024;

pub(crate) struct TreeBuilder<'t> {
    /// Direct-mapped cache in front of `tokens` for tokens of at most 7 bytes
    /// (whitespace runs, punctuation, `%r12`, `.u32`: most tokens). The key packs
    /// kind, length and bytes into a `u64`, so a hit costs one multiply and one
    /// compare instead of hashing a string.
    short: Box<[(u64, Option<GreenToken>)]>,
    tokens: FxHashMap<(SyntaxKind, &'t str), GreenToken>,
    children: Vec<Element>,
    parents: Vec<(SyntaxKind, usize)>,
}

impl<'t> TreeBuilder<'t> {
    /// `text_len`: length of the source, to size the token table.
    pub(crate) fn new(text_len: usize) -> Self {
        TreeBuilder {
            short: vec![(0, None); SHORT_SLOTS].into_boxed_slice(),
            tokens: FxHashMap::with_capacity_and_hasher(
                (text_len / 32).max(64),
                Default::default(),
            ),
            children: Vec::with_capacity(256),
            parents: Vec::with_capacity(32),
        }
    }

    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &'t str) {
        if text.len() <= 7 {
            let mut key = (kind as u64) << 56 | (text.len() as u64) << 48;
            for (i, b) in text.bytes().enumerate() {
                key ^= (b as u64) << (i * 8);
            }
            let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % SHORT_SLOTS;
            if let (k, Some(token)) = &self.short[slot] {
                // Up to 6 bytes the key is exact (kind, length and every byte);
                // a 7-byte text overlaps the length byte, so compare the text.
                if *k == key && (text.len() < 7 || token.text() == text) {
                    let token = token.clone();
                    self.children.push(NodeOrToken::Token(token));
                    return;
                }
            }
            let token = self.intern(kind, text);
            self.short[slot] = (key, Some(token.clone()));
            self.children.push(NodeOrToken::Token(token));
            return;
        }
        let token = self.intern(kind, text);
        self.children.push(NodeOrToken::Token(token));
    }

    #[inline]
    fn intern(&mut self, kind: SyntaxKind, text: &'t str) -> GreenToken {
        self.tokens
            .entry((kind, text))
            .or_insert_with(|| GreenToken::new(kind.into(), text))
            .clone()
    }

    #[inline]
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    #[inline]
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint(self.children.len())
    }

    /// Opens a node that will contain everything built since `checkpoint`.
    #[inline]
    pub(crate) fn start_node_at(&mut self, checkpoint: Checkpoint, kind: SyntaxKind) {
        debug_assert!(checkpoint.0 <= self.children.len());
        debug_assert!(self
            .parents
            .last()
            .is_none_or(|&(_, first)| first <= checkpoint.0));
        self.parents.push((kind, checkpoint.0));
    }

    #[inline]
    pub(crate) fn finish_node(&mut self) {
        let (kind, first) = self.parents.pop().expect("finish_node without start_node");
        let node = GreenNode::new(kind.into(), self.children.drain(first..));
        self.children.push(NodeOrToken::Node(node));
    }

    /// The root node; every started node must have been finished.
    pub(crate) fn finish(mut self) -> GreenNode {
        assert!(self.parents.is_empty(), "unfinished nodes");
        assert_eq!(self.children.len(), 1, "exactly one root");
        match self.children.pop() {
            Some(NodeOrToken::Node(node)) => node,
            _ => panic!("the root must be a node"),
        }
    }
}
