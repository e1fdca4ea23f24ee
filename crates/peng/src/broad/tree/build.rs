//! Whole-tree operations: refit and the binned-SAH rebuild.

use crate::bound::Aabb;
use crate::math::Vector;

use super::{Bits, DynamicTree, LeafRec, Meta, Node, NULL};

/// Number of bins of the SAH split search (Wald, "On fast construction of
/// SAH-based bounding volume hierarchies", 2007, uses 16 to 32; 16 is enough for
/// a tree that later insertions and rotations keep improving).
const BINS: usize = 16;

/// Ranges of at most this many leaves are split at the median centroid along
/// the widest axis instead of by binned SAH.
const SMALL: usize = 4;

impl<V: Vector> DynamicTree<V> {
    /// Internal nodes in an order where every node comes after its children.
    fn bottom_up_internal(&self) -> Vec<u32> {
        let mut pre = Vec::new();
        if self.root == NULL {
            return pre;
        }
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if !n.is_leaf() {
                pre.push(i);
                stack.push(n.child1);
                stack.push(n.child2);
            }
        }
        // Pre-order lists parents before children; reversed, children come first.
        pre.reverse();
        pre
    }

    /// Shrinks every leaf's fat box back to its proxy's box plus the margin
    /// (dropping old displacement stretch) and recomputes every internal box,
    /// category union and height, keeping the tree's structure. `O(n)`.
    pub fn refit(&mut self) {
        self.drop_adjacency();
        for i in 0..self.table.slots.len() as u32 {
            if self.table.alive(i) {
                let leaf = self.leaf_of[i as usize];
                self.nodes[leaf as usize].aabb = self.table.aabb(i).loosened(self.margin());
            }
        }
        self.refit_internal();
    }

    /// Recomputes every internal node's box, category union and height from
    /// its children, bottom-up, keeping the leaves' boxes. `O(n)`.
    pub(super) fn refit_internal(&mut self) {
        if self.parents_first {
            // Every parent has a smaller index than its children: one
            // backward sweep over the array visits children first.
            for i in (0..self.nodes.len() as u32).rev() {
                let n = &self.nodes[i as usize];
                if self.meta[i as usize].height != super::FREE && !n.is_leaf() {
                    self.refit_node(i);
                }
            }
            return;
        }
        for i in self.bottom_up_internal() {
            self.refit_node(i);
        }
    }

    /// Rebuilds the whole tree top-down by the binned surface area heuristic
    /// (Wald 2007): each range of leaves is split where
    /// `n_left·A(left) + n_right·A(right)` is least over `BINS` bins of centroids
    /// along the axis of largest centroid extent; ranges whose centroids
    /// coincide are split in half. The nodes are renumbered in depth-first
    /// pre-order, so a subtree's nodes sit together in memory and a traversal
    /// walks the node array mostly forward (parry's BVH keeps the same
    /// layout); leaves are re-fattened from their proxies' boxes.
    /// `O(n log n)`.
    pub fn rebuild(&mut self) {
        self.drop_adjacency();
        self.rebuild_with(true);
    }

    /// [`rebuild`](Self::rebuild), keeping the leaves' fat boxes as they are.
    pub(super) fn rebuild_keeping_fat(&mut self) {
        self.rebuild_with(false);
    }

    fn rebuild_with(&mut self, refatten: bool) {
        let margin = self.margin();
        // Every live leaf (linked or pending) with its box and category.
        let mut items: Vec<Item<V>> = Vec::with_capacity(self.table.len());
        for i in 0..self.table.slots.len() as u32 {
            if self.table.alive(i) {
                let leaf = self.leaf_of[i as usize];
                let n = &self.nodes[leaf as usize];
                let aabb = if refatten {
                    self.table.aabb(i).loosened(margin)
                } else {
                    n.aabb
                };
                items.push(Item { aabb, leaf });
            }
        }
        self.forget_pending();
        self.root = NULL;
        let old_nodes = core::mem::take(&mut self.nodes);
        let old_meta = core::mem::take(&mut self.meta);
        let old_bits = core::mem::take(&mut self.bits);
        let old_recs = core::mem::take(&mut self.recs);
        self.reset_free_list();
        self.node_count = 0;
        if items.is_empty() {
            self.parents_first = true;
            return;
        }
        let count = 2 * items.len() - 1;
        let mut nodes: Vec<Node<V>> = Vec::with_capacity(count);
        let mut meta: Vec<Meta> = Vec::with_capacity(count);
        let mut bits: Vec<Bits> = Vec::with_capacity(count);
        let mut recs: Vec<LeafRec<V>> = Vec::with_capacity(count);
        let filler = old_recs[items[0].leaf as usize];

        // Nodes are created in depth-first pre-order (the left task is popped
        // right after its parent), so a subtree's nodes sit together and every
        // parent precedes its children. Tasks: (start, end, parent, first).
        let mut tasks = vec![(0usize, items.len(), NULL, true)];
        while let Some((lo, hi, parent, first)) = tasks.pop() {
            let idx = nodes.len() as u32;
            if hi - lo == 1 {
                let old = items[lo].leaf;
                let mut n = old_nodes[old as usize];
                n.aabb = items[lo].aabb;
                meta.push(Meta {
                    parent,
                    ..old_meta[old as usize]
                });
                bits.push(old_bits[old as usize]);
                let rec = old_recs[old as usize];
                self.leaf_of[rec.id.index() as usize] = idx;
                nodes.push(n);
                recs.push(rec);
            } else {
                let mid = split(&mut items[lo..hi]) + lo;
                nodes.push(Node {
                    aabb: Aabb::EMPTY,
                    child1: NULL,
                    child2: NULL,
                });
                meta.push(Meta {
                    parent,
                    ..Meta::BLANK
                });
                bits.push(Bits::NONE);
                recs.push(filler); // never read
                tasks.push((mid, hi, idx, false));
                tasks.push((lo, mid, idx, true));
            }
            if parent == NULL {
                self.root = idx;
            } else if first {
                nodes[parent as usize].child1 = idx;
            } else {
                nodes[parent as usize].child2 = idx;
            }
        }
        self.nodes = nodes;
        self.meta = meta;
        self.bits = bits;
        self.recs = recs;
        self.node_count = count;
        self.parents_first = true;
        self.refit_internal();
    }
}

/// A leaf being placed by the rebuild: its box and its old node index.
#[derive(Clone, Copy)]
struct Item<V> {
    aabb: Aabb<V>,
    leaf: u32,
}

impl<V: Vector> Item<V> {
    /// Twice the box's center (the factor 2 does not change any split).
    #[inline(always)]
    fn c2(&self) -> V {
        self.aabb.min + self.aabb.max
    }
}

/// Partitions `items` (at least two) and returns the size of the left part,
/// which is in `1..items.len()`.
fn split<V: Vector>(items: &mut [Item<V>]) -> usize {
    let n = items.len();
    let mut cb = Aabb::<V>::EMPTY;
    for it in items.iter() {
        let c = it.c2();
        cb.min = cb.min.min(c);
        cb.max = cb.max.max(c);
    }
    let ext = cb.max - cb.min;
    let mut axis = 0;
    for i in 1..V::DIM {
        if ext.get(i) > ext.get(axis) {
            axis = i;
        }
    }
    let (lo, width) = (cb.min.get(axis), ext.get(axis));
    // Centers are finite, so `width` is a finite number >= 0.
    if width <= 0.0 || n <= SMALL {
        return median_split(items, axis);
    }
    // Fewer bins for small ranges: the per-split cost of the bin sweeps
    // dominates near the leaves, where there are about as many splits as
    // leaves.
    let bins = n.next_power_of_two().min(BINS);
    let scale = bins as f32 / width;
    let bin_of = |it: &Item<V>| (((it.c2().get(axis) - lo) * scale) as usize).min(bins - 1);

    let mut counts = [0usize; BINS];
    let mut boxes = [Aabb::<V>::EMPTY; BINS];
    for it in items.iter() {
        let b = bin_of(it);
        counts[b] += 1;
        boxes[b] = boxes[b].merged(&it.aabb);
    }
    // Sweep from the right for the right-side costs, then from the left.
    let mut right_cost = [0.0f32; BINS];
    let (mut acc, mut cnt) = (Aabb::<V>::EMPTY, 0usize);
    for k in (1..bins).rev() {
        acc = acc.merged(&boxes[k]);
        cnt += counts[k];
        right_cost[k] = cnt as f32 * acc.boundary_measure();
    }
    let (mut acc, mut cnt) = (Aabb::<V>::EMPTY, 0usize);
    let mut best = (f32::INFINITY, 0usize);
    for k in 1..bins {
        acc = acc.merged(&boxes[k - 1]);
        cnt += counts[k - 1];
        if cnt == 0 || cnt == n {
            continue;
        }
        let cost = cnt as f32 * acc.boundary_measure() + right_cost[k];
        if cost < best.0 {
            best = (cost, k);
        }
    }
    if best.1 == 0 {
        return median_split(items, axis);
    }
    // In-place partition (Hoare style, from both ends): bins below the split
    // go left. `bin_of(c) < k` is `(c − lo)·scale < k` for the integer `k`
    // (same arithmetic, no conversion).
    let limit = best.1 as f32;
    let left = |it: &Item<V>| (it.c2().get(axis) - lo) * scale < limit;
    let (mut i, mut j) = (0usize, n);
    loop {
        while i < j && left(&items[i]) {
            i += 1;
        }
        while i < j && !left(&items[j - 1]) {
            j -= 1;
        }
        if i >= j {
            break;
        }
        items.swap(i, j - 1);
        i += 1;
        j -= 1;
    }
    debug_assert!(i > 0 && i < n);
    i
}

/// Splits in half by the centers along `axis` (ties broken by old leaf index,
/// so the result is deterministic).
fn median_split<V: Vector>(items: &mut [Item<V>], axis: usize) -> usize {
    let mid = items.len() / 2;
    crate::sort::select_nth_by(items, mid, |x, y| {
        x.c2()
            .get(axis)
            .total_cmp(&y.c2().get(axis))
            .then(x.leaf.cmp(&y.leaf))
    });
    mid
}
