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

pub(crate) struct TreeBuilder<'t> {
    tokens: FxHashMap<(SyntaxKind, &'t str), GreenToken>,
    children: Vec<Element>,
    parents: Vec<(SyntaxKind, usize)>,
}

impl<'t> TreeBuilder<'t> {
    pub(crate) fn new() -> Self {
        TreeBuilder {
            tokens: FxHashMap::with_capacity_and_hasher(4096, Default::default()),
            children: Vec::with_capacity(256),
            parents: Vec::with_capacity(32),
        }
    }

    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &'t str) {
        let token = self
            .tokens
            .entry((kind, text))
            .or_insert_with(|| GreenToken::new(kind.into(), text))
            .clone();
        self.children.push(NodeOrToken::Token(token));
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
