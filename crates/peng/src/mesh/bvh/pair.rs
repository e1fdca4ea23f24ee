//! Two-tree traversals: overlapping leaf pairs and the closest primitive pair.

use super::stack::Stack;
use super::traverse::MinKey;
use super::Bvh;
use crate::bound::Aabb;
use crate::math::Vector;
use core::ops::Range;
use std::collections::BinaryHeap;

/// Squared distance between two closed boxes (zero when they overlap).
#[inline]
pub(crate) fn box_box_dist2<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> f32 {
    let d = (a.min - b.max).max(b.min - a.max).max(V::ZERO);
    d.dot(d)
}

impl<V: Vector> Bvh<V> {
    /// Simultaneous traversal of two trees (Gottschalk, Lin and Manocha,
    /// "OBBTree", SIGGRAPH 1996, with boxes): calls `visit(slots_a, slots_b)`
    /// for every pair of leaves, one of `self` and one of `other`, whose boxes
    /// overlap.
    ///
    /// `to_self` maps a box of `other` into `self`'s frame, conservatively (for
    /// example [`Aabb3::transformed`](crate::bound::Aabb3::transformed) with the
    /// relative pose, or the identity). Of two interior nodes the one with the
    /// larger box is opened first, which keeps the pairs' boxes of similar size.
    pub fn overlapping_leaves<T, F>(&self, other: &Bvh<V>, to_self: T, mut visit: F)
    where
        T: Fn(&Aabb<V>) -> Aabb<V>,
        F: FnMut(Range<u32>, Range<u32>),
    {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let mut stack = Stack::new((0u32, 0u32, Aabb::EMPTY));
        stack.push((0, 0, to_self(&other.nodes[0].aabb)));
        while let Some((ia, ib, box_b)) = stack.pop() {
            let a = &self.nodes[ia as usize];
            if !a.aabb.overlaps(&box_b) {
                continue;
            }
            let b = &other.nodes[ib as usize];
            let open_a = !a.is_leaf()
                && (b.is_leaf() || a.aabb.boundary_measure() >= box_b.boundary_measure());
            if open_a {
                stack.push((a.index, ib, box_b));
                stack.push((ia + 1, ib, box_b));
            } else if !b.is_leaf() {
                for c in [b.index, ib + 1] {
                    stack.push((ia, c, to_self(&other.nodes[c as usize].aabb)));
                }
            } else {
                visit(a.slots(), b.slots());
            }
        }
    }

    /// The closest pair of primitives, one of `self` and one of `other`, by
    /// branch and bound over pairs of nodes: pairs are taken nearest first by
    /// `gap2` and pairs farther than the best pair found are pruned.
    ///
    /// `gap2(box_a, box_b)` is a lower bound on the squared distance between
    /// anything in `box_a` (a box of `self`, in its frame) and anything in
    /// `box_b` (a box of `other`, in its own frame): for example the squared
    /// distance between `box_a` and `box_b` mapped into `self`'s frame
    /// conservatively (see [`Bvh::overlapping_leaves`]), or the larger of that
    /// and the same measured in `other`'s frame. `dist2(slot_a, slot_b, best)`
    /// returns the squared distance of a primitive pair when it is `<= best`;
    /// a result of zero ends the search. Only pairs within `sqrt(max_dist2)`
    /// count. Returns the two slots and the squared distance.
    pub fn closest_pair<G, F>(
        &self,
        other: &Bvh<V>,
        gap2: G,
        max_dist2: f32,
        mut dist2: F,
    ) -> Option<(u32, u32, f32)>
    where
        G: Fn(&Aabb<V>, &Aabb<V>) -> f32,
        F: FnMut(u32, u32, f32) -> Option<f32>,
    {
        let (ra, rb) = (self.nodes.first()?, other.nodes.first()?);
        let mut best_d2 = max_dist2;
        let mut best = None;
        let mut heap = BinaryHeap::with_capacity(64);
        heap.push(MinKey(gap2(&ra.aabb, &rb.aabb), (0u32, 0u32)));
        while let Some(MinKey(d2, (ia, ib))) = heap.pop() {
            if d2 > best_d2 {
                break;
            }
            let a = &self.nodes[ia as usize];
            let b = &other.nodes[ib as usize];
            if a.is_leaf() && b.is_leaf() {
                for sa in a.slots() {
                    for sb in b.slots() {
                        if let Some(d) = dist2(sa, sb, best_d2) {
                            if d <= best_d2 {
                                best_d2 = d;
                                best = Some((sa, sb, d));
                                if d <= 0.0 {
                                    return best;
                                }
                            }
                        }
                    }
                }
                continue;
            }
            // Of two interior nodes the larger box (by its own measure) is
            // opened first, which keeps the pairs' boxes of similar size.
            let open_a = !a.is_leaf()
                && (b.is_leaf() || a.aabb.boundary_measure() >= b.aabb.boundary_measure());
            if open_a {
                for c in [ia + 1, a.index] {
                    let d = gap2(&self.nodes[c as usize].aabb, &b.aabb);
                    if d <= best_d2 {
                        heap.push(MinKey(d, (c, ib)));
                    }
                }
            } else {
                for c in [ib + 1, b.index] {
                    let d = gap2(&a.aabb, &other.nodes[c as usize].aabb);
                    if d <= best_d2 {
                        heap.push(MinKey(d, (ia, c)));
                    }
                }
            }
        }
        best
    }
}
