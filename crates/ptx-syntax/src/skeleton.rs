//! The skeleton of a module: its top-level items with every function body
//! emptied to `{}`. What module level knows of a module (the header, the
//! declared names, whether a function is defined: `check::module_facts`,
//! `ptx_ir::ModuleContext`) reads only top-level items and the children of
//! their nodes, never the inside of a body, so it is the same for a module
//! and for its skeleton.
//!
//! An edit inside a function body leaves the skeleton equal. `ptx-db` builds
//! the skeleton chunk by chunk and computes the module-level facts from it, so
//! such an edit re-runs none of them (they are compared, found equal, and
//! their readers are not re-run).
//!
//! Positions in the skeleton are those of the module up to the first emptied
//! body; [`source_offset`] maps a position in an item's header (anything
//! before its body) back to the module.

use rowan::{GreenNode, GreenNodeData, GreenToken, NodeOrToken, TextSize};

use crate::SyntaxKind;

/// The skeleton of a root node (`SOURCE_FILE`): the same node with, in each
/// top-level `FUNCTION`, the `BLOCK` child replaced by an empty block `{}`.
/// Children that need no change are shared with `root`.
pub fn skeleton(root: &GreenNodeData) -> GreenNode {
    GreenNode::new(root.kind(), root.children().map(skeleton_item))
}

fn skeleton_item(
    child: NodeOrToken<&GreenNodeData, &rowan::GreenTokenData>,
) -> NodeOrToken<GreenNode, GreenToken> {
    match child {
        NodeOrToken::Node(node)
            if node.kind() == SyntaxKind::FUNCTION.into()
                && node
                    .children()
                    .any(|c| c.kind() == SyntaxKind::BLOCK.into()) =>
        {
            let children = node.children().map(|c| match c {
                NodeOrToken::Node(n) if n.kind() == SyntaxKind::BLOCK.into() => {
                    NodeOrToken::Node(empty_block())
                }
                NodeOrToken::Node(n) => NodeOrToken::Node(n.to_owned()),
                NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
            });
            NodeOrToken::Node(GreenNode::new(node.kind(), children))
        }
        NodeOrToken::Node(node) => NodeOrToken::Node(node.to_owned()),
        NodeOrToken::Token(token) => NodeOrToken::Token(token.to_owned()),
    }
}

fn empty_block() -> GreenNode {
    GreenNode::new(
        SyntaxKind::BLOCK.into(),
        [
            NodeOrToken::Token(GreenToken::new(SyntaxKind::L_CURLY.into(), "{")),
            NodeOrToken::Token(GreenToken::new(SyntaxKind::R_CURLY.into(), "}")),
        ],
    )
}

/// The offset in the module `source` of the position `offset` of its
/// skeleton `skeleton`: the same place in the same top-level item. Exact for
/// a position in a top-level token or in an item before its body; a position
/// inside or after an emptied body maps to the same distance from the item's
/// start. The end of the skeleton maps to the end of the module.
pub fn source_offset(
    skeleton: &GreenNodeData,
    source: &GreenNodeData,
    offset: TextSize,
) -> TextSize {
    let mut skeleton_start = TextSize::from(0);
    let mut source_start = TextSize::from(0);
    for (skeleton_child, source_child) in skeleton.children().zip(source.children()) {
        let skeleton_end = skeleton_start + skeleton_child.text_len();
        if offset < skeleton_end {
            return source_start + (offset - skeleton_start);
        }
        skeleton_start = skeleton_end;
        source_start += source_child.text_len();
    }
    source_start + (offset.max(skeleton_start) - skeleton_start)
}
