//! Whole-tree operations: refit and the binned-SAH rebuild.

use crate::bound::Aabb;
use crate::math::Vector;

use super::{DynamicTree, NULL};

/// Number of bins of the SAH split search (Wald, "On fast construction of
/// SAH-based bounding volume hierarchies", 2007, uses 16 to 32; 16 is enough for
/// a tree that later insertions and rotations keep improving).
const BINS: usize = 16;

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
                if n.height != super::FREE && !n.is_leaf() {
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
    /// coincide are split in half. Leaves keep their node indices and are
    /// re-fattened from their proxies' boxes. `O(n log n)`.
    pub fn rebuild(&mut self) {
        self.rebuild_with(true);
    }

    /// [`rebuild`](Self::rebuild), keeping the leaves' fat boxes as they are.
    pub(super) fn rebuild_keeping_fat(&mut self) {
        self.rebuild_with(false);
    }

    fn rebuild_with(&mut self, refatten: bool) {
        // Free the internal nodes; collect the leaves.
        for i in self.bottom_up_internal() {
            self.free_node(i);
        }
        let margin = self.margin();
        let mut leaves: Vec<u32> = Vec::with_capacity(self.table.len());
        for i in 0..self.table.slots.len() as u32 {
            if self.table.alive(i) {
                let leaf = self.leaf_of[i as usize];
                if refatten {
                    self.nodes[leaf as usize].aabb = self.table.aabb(i).loosened(margin);
                }
                leaves.push(leaf);
            }
        }
        // Every leaf, pending or not, is in `leaves`: all get linked below.
        self.forget_pending();
        self.root = NULL;
        if leaves.is_empty() {
            return;
        }
        let centers: Vec<V> = leaves
            .iter()
            .map(|&l| self.nodes[l as usize].aabb.center())
            .collect();
        // Work on (leaf, center) pairs so the partition moves both together.
        let mut items: Vec<(u32, V)> = leaves.into_iter().zip(centers).collect();

        // Tasks: (start, end, parent, is_first_child).
        let mut tasks = vec![(0usize, items.len(), NULL, true)];
        while let Some((lo, hi, parent, first)) = tasks.pop() {
            let node = if hi - lo == 1 {
                items[lo].0
            } else {
                let mid = self.split(&mut items[lo..hi]) + lo;
                let n = self.allocate_node();
                tasks.push((lo, mid, n, true));
                tasks.push((mid, hi, n, false));
                n
            };
            self.nodes[node as usize].parent = parent;
            if parent == NULL {
                self.root = node;
            } else if first {
                self.nodes[parent as usize].child1 = node;
            } else {
                self.nodes[parent as usize].child2 = node;
            }
        }
        for i in self.bottom_up_internal() {
            self.refit_node(i);
        }
    }

    /// Renumbers the nodes in depth-first (pre-order) order from the root and
    /// drops the free list, so a subtree's nodes sit together in memory and a
    /// traversal walks the node array mostly forward (parry's BVH keeps the
    /// same layout). Only node indices change: boxes, links and proxies stay.
    /// `O(n)`.
    pub(super) fn relayout(&mut self) {
        let count = self.node_count;
        let mut order: Vec<u32> = Vec::with_capacity(count);
        if self.root != NULL {
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                order.push(i);
                let n = &self.nodes[i as usize];
                if !n.is_leaf() {
                    stack.push(n.child2);
                    stack.push(n.child1);
                }
            }
        }
        debug_assert_eq!(order.len(), count);
        let mut new_of = vec![NULL; self.nodes.len()];
        for (k, &i) in order.iter().enumerate() {
            new_of[i as usize] = k as u32;
        }
        let map = |i: u32| if i == NULL { NULL } else { new_of[i as usize] };
        let mut nodes = Vec::with_capacity(count);
        for &i in &order {
            let mut n = self.nodes[i as usize];
            n.parent = map(n.parent);
            if n.is_leaf() {
                self.leaf_of[n.child2 as usize] = map(i);
            } else {
                n.child1 = map(n.child1);
                n.child2 = map(n.child2);
            }
            nodes.push(n);
        }
        self.nodes = nodes;
        self.root = map(self.root);
        self.reset_free_list();
        self.parents_first = true;
    }

    /// Partitions `items` (at least two) and returns the size of the left part,
    /// which is in `1..items.len()`.
    fn split(&self, items: &mut [(u32, V)]) -> usize {
        let n = items.len();
        let cb = Aabb::from_points(items.iter().map(|it| it.1));
        let ext = cb.max - cb.min;
        let mut axis = 0;
        for i in 1..V::DIM {
            if ext.get(i) > ext.get(axis) {
                axis = i;
            }
        }
        let (lo, width) = (cb.min.get(axis), ext.get(axis));
        // Centers are finite, so `width` is a finite number >= 0.
        if width <= 0.0 || n == 2 {
            return self.median_split(items, axis);
        }
        let scale = BINS as f32 / width;
        let bin_of = |c: V| (((c.get(axis) - lo) * scale) as usize).min(BINS - 1);

        let mut counts = [0usize; BINS];
        let mut boxes = [Aabb::<V>::EMPTY; BINS];
        for it in items.iter() {
            let b = bin_of(it.1);
            counts[b] += 1;
            boxes[b] = boxes[b].merged(&self.nodes[it.0 as usize].aabb);
        }
        // Sweep from the right for the right-side costs, then from the left.
        let mut right_cost = [0.0f32; BINS];
        let (mut acc, mut cnt) = (Aabb::<V>::EMPTY, 0usize);
        for k in (1..BINS).rev() {
            acc = acc.merged(&boxes[k]);
            cnt += counts[k];
            right_cost[k] = cnt as f32 * acc.boundary_measure();
        }
        let (mut acc, mut cnt) = (Aabb::<V>::EMPTY, 0usize);
        let mut best = (f32::INFINITY, 0usize);
        for k in 1..BINS {
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
            return self.median_split(items, axis);
        }
        // Stable-free in-place partition: bins below the split go left.
        let split_bin = best.1;
        let mut left = 0;
        for j in 0..n {
            if bin_of(items[j].1) < split_bin {
                items.swap(left, j);
                left += 1;
            }
        }
        debug_assert!(left > 0 && left < n);
        left
    }

    /// Splits in half by the centers along `axis` (ties broken by leaf index, so
    /// the result is deterministic).
    fn median_split(&self, items: &mut [(u32, V)], axis: usize) -> usize {
        let mid = items.len() / 2;
        items.select_nth_unstable_by(mid, |x, y| {
            x.1.get(axis).total_cmp(&y.1.get(axis)).then(x.0.cmp(&y.0))
        });
        mid
    }
}
