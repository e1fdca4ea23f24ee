//! Pair finding by one traversal of the tree against itself, for updates where
//! many proxies changed.
//!
//! Every overlapping pair of leaves is found exactly once by walking the tree
//! against itself: at each internal node, the pairs inside each child's
//! subtree (recursively) plus the pairs between the two children's subtrees
//! (a simultaneous descent of two subtrees, Ericson, Real-Time Collision
//! Detection, 6.3.3, "descend the larger volume"). Only pairs with a changed
//! proxy are wanted, so each node carries a "moved" flag (a changed leaf
//! below it); a node without it holds no wanted pair, and two subtrees
//! without it hold no wanted pair between them (the "changed" flag of parry's
//! `traverse_bvtt_single_tree::<true>` works the same way). One traversal
//! replaces one root-to-leaf query per changed proxy, which costs more once
//! a sizeable fraction of the proxies changed (every one of them walks the
//! top of the tree, and both ends of a pair of changed proxies find it).

use crate::math::Vector;

use super::super::pairs::pair_of;
use super::{sah_area, DynamicTree, NULL};

impl<V: Vector> DynamicTree<V> {
    /// Sets `moved[n]` for every node with a changed live leaf below it (and
    /// clears it for every other node).
    fn mark_moved(&mut self) {
        let moved = &mut self.moved;
        moved.clear();
        moved.resize(self.nodes.len(), false);
        for &slot in &self.table.dirty_list {
            if !self.table.alive(slot) {
                continue;
            }
            let mut i = self.leaf_of[slot as usize];
            // Walk up until the root or a node already marked (its ancestors are).
            while i != NULL && !moved[i as usize] {
                moved[i as usize] = true;
                i = self.nodes[i as usize].parent;
            }
        }
    }

    /// Pushes onto `found` every pair with a changed live proxy whose given
    /// boxes overlap and whose filters agree, each once, by a traversal of the
    /// tree against itself (see the module documentation).
    pub(super) fn find_pairs_self(&mut self) {
        if self.root == NULL {
            return;
        }
        self.mark_moved();
        let mut found = core::mem::take(&mut self.found);
        let mut pair_stack = core::mem::take(&mut self.pair_stack);
        let mut self_stack = core::mem::take(&mut self.self_stack);
        let (nodes, moved, t) = (&self.nodes, &self.moved, &self.table);
        self_stack.clear();
        self_stack.push(self.root);
        while let Some(n) = self_stack.pop() {
            let node = &nodes[n as usize];
            if node.is_leaf() || !moved[n as usize] {
                continue;
            }
            let (c1, c2) = (node.child1, node.child2);
            self_stack.push(c2);
            self_stack.push(c1);
            // Pairs between the two children's subtrees.
            pair_stack.clear();
            pair_stack.push((c1, c2));
            while let Some((x, y)) = pair_stack.pop() {
                if !moved[x as usize] && !moved[y as usize] {
                    continue;
                }
                let (nx, ny) = (&nodes[x as usize], &nodes[y as usize]);
                if !nx.aabb.overlaps(&ny.aabb) {
                    continue;
                }
                match (nx.is_leaf(), ny.is_leaf()) {
                    (true, true) => {
                        let (a, b) = (nx.child2, ny.child2);
                        if t.pair_passes(a, b) {
                            found.push(pair_of(t.id(a), t.id(b)));
                        }
                    }
                    (false, true) => {
                        pair_stack.push((nx.child1, y));
                        pair_stack.push((nx.child2, y));
                    }
                    (true, false) => {
                        pair_stack.push((x, ny.child1));
                        pair_stack.push((x, ny.child2));
                    }
                    (false, false) => {
                        if sah_area(&nx.aabb) >= sah_area(&ny.aabb) {
                            pair_stack.push((nx.child1, y));
                            pair_stack.push((nx.child2, y));
                        } else {
                            pair_stack.push((x, ny.child1));
                            pair_stack.push((x, ny.child2));
                        }
                    }
                }
            }
        }
        self.found = found;
        self.pair_stack = pair_stack;
        self.self_stack = self_stack;
    }
}
