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
//! `traverse_bvtt_single_tree::<true>` works the same way). When every proxy
//! changed (a build from scratch), the flags are skipped altogether. One
//! traversal replaces one root-to-leaf query per changed proxy, which costs
//! more once a sizeable fraction of the proxies changed (every one of them
//! walks the top of the tree, and both ends of a pair of changed proxies find
//! it).
//!
//! Node pairs are tested for overlap before they are pushed, so the stack
//! only holds pairs that must be opened. The leaf test reads the proxies'
//! given boxes and ids from `recs`, indexed like the nodes (so after a
//! depth-first relayout the leaves of a subtree sit together in memory), and
//! skips the filter test while every live proxy has the default filter.

use crate::math::Vector;

use super::super::pairs::pair_of;
use super::{overlap, sah_area, DynamicTree, LeafRec, Node, NULL};

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
                i = self.meta[i as usize].parent;
            }
        }
    }

    /// Pushes onto `found` every pair with a changed live proxy whose given
    /// boxes overlap and whose filters agree, each once, by a traversal of the
    /// tree against itself (see the module documentation).
    pub(super) fn find_pairs_self(&mut self) {
        if self.root == NULL || self.nodes[self.root as usize].is_leaf() {
            return;
        }
        let all = self.table.dirty_list.len() >= self.table.len()
            && self.table.dirty_list.iter().all(|&s| self.table.alive(s));
        let filtered = self.filtered > 0;
        if !all {
            self.mark_moved();
        }
        match (all, filtered) {
            (true, false) => self.find_self::<true, false>(),
            (true, true) => self.find_self::<true, true>(),
            (false, false) => self.find_self::<false, false>(),
            (false, true) => self.find_self::<false, true>(),
        }
    }

    /// The traversal with the given-box leaf test; `ALL`: every leaf changed
    /// (no flags read); `FILTERED`: some proxy has a filter other than
    /// [`Filter::ALL`](super::Filter::ALL).
    fn find_self<const ALL: bool, const FILTERED: bool>(&mut self) {
        let found = &mut self.found;
        let (recs, t) = (&self.recs[..], &self.table);
        let moved: &[bool] = if ALL { &[] } else { &self.moved };
        traverse::<V, ALL>(
            &self.nodes,
            moved,
            self.root,
            &mut self.pair_stack,
            &mut self.self_stack,
            |x, y| {
                let (a, b): (&LeafRec<V>, &LeafRec<V>) = (&recs[x as usize], &recs[y as usize]);
                if overlap(&a.aabb, &b.aabb)
                    && (!FILTERED || {
                        let fa = &t.slots[a.id.index() as usize].info.filter;
                        let fb = &t.slots[b.id.index() as usize].info.filter;
                        fa.pairs_with(fb)
                    })
                {
                    found.push(pair_of(a.id, b.id));
                }
            },
        );
    }
}

/// Whether two internal nodes are opened together (see `traverse`).
const DESCEND_BOTH: bool = true;

/// Calls `emit(x, y)` once for every pair of distinct leaves `x`, `y` whose
/// (fat) boxes overlap and of which at least one is flagged in `moved` (every
/// leaf when `ALL`), by the traversal of the tree below internal node `root`
/// against itself described in the module documentation.
pub(super) fn traverse<V: Vector, const ALL: bool>(
    nodes: &[Node<V>],
    moved: &[bool],
    root: u32,
    pair_stack: &mut Vec<(u32, u32)>,
    self_stack: &mut Vec<u32>,
    mut emit: impl FnMut(u32, u32),
) {
    if root == NULL || nodes[root as usize].is_leaf() {
        return;
    }
    let wanted = |x: u32, y: u32| ALL || moved[x as usize] || moved[y as usize];
    self_stack.clear();
    pair_stack.clear();
    self_stack.push(root);
    while let Some(n) = self_stack.pop() {
        let node: &Node<V> = &nodes[n as usize];
        let (c1, c2) = (node.child1, node.child2);
        let (n1, n2) = (&nodes[c1 as usize], &nodes[c2 as usize]);
        // Pairs inside each child (only internal children hold any).
        if !n2.is_leaf() && (ALL || moved[c2 as usize]) {
            self_stack.push(c2);
        }
        if !n1.is_leaf() && (ALL || moved[c1 as usize]) {
            self_stack.push(c1);
        }
        // Pairs between the two children's subtrees.
        if !wanted(c1, c2) || !overlap(&n1.aabb, &n2.aabb) {
            continue;
        }
        if n1.is_leaf() && n2.is_leaf() {
            emit(c1, c2);
            continue;
        }
        pair_stack.push((c1, c2));
        while let Some((x, y)) = pair_stack.pop() {
            let (nx, ny) = (&nodes[x as usize], &nodes[y as usize]);
            let (lx, ly) = (nx.is_leaf(), ny.is_leaf());
            if !lx && !ly && DESCEND_BOTH {
                // Both internal: the four child pairs at once (fewer pops
                // than opening one side at a time).
                let (x1, x2, y1, y2) = (nx.child1, nx.child2, ny.child1, ny.child2);
                let (b1, b2) = (&nodes[y1 as usize], &nodes[y2 as usize]);
                for xc in [x2, x1] {
                    let a = &nodes[xc as usize];
                    for (yc, b) in [(y2, b2), (y1, b1)] {
                        if wanted(xc, yc) && overlap(&a.aabb, &b.aabb) {
                            if a.is_leaf() && b.is_leaf() {
                                emit(xc, yc);
                            } else {
                                pair_stack.push((xc, yc));
                            }
                        }
                    }
                }
                continue;
            }
            // Open the internal one (of two internal ones, the larger),
            // keeping the other whole.
            let open_x = ly || (!lx && sah_area(&nx.aabb) >= sah_area(&ny.aabb));
            let (open, keep, nk) = if open_x { (nx, y, ny) } else { (ny, x, nx) };
            for c in [open.child2, open.child1] {
                let nc = &nodes[c as usize];
                if wanted(c, keep) && overlap(&nc.aabb, &nk.aabb) {
                    if nc.is_leaf() && nk.is_leaf() {
                        emit(c, keep);
                    } else {
                        pair_stack.push((c, keep));
                    }
                }
            }
        }
    }
}
