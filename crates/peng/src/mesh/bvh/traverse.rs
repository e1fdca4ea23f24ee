//! Single-tree traversals: rays (closest hit, any hit, every hit), box queries
//! and best-first nearest-primitive search.

use super::stack::Stack;
use super::Bvh;
use crate::bound::Aabb;
use crate::math::Vector;
use core::cmp::Ordering;
use core::ops::ControlFlow;
use std::collections::BinaryHeap;

/// A ray prepared for many slab tests: component-wise `1 / dir` and
/// `origin / dir`, so each slab bound costs one multiply and one subtract.
#[derive(Clone, Copy)]
struct SlabRay<V> {
    inv: V,
    org_inv: V,
}

/// Direction components smaller than this are replaced by it (with their
/// sign): `1/d` then stays finite (`1e30`), and `origin · (1/d)` never meets
/// `0 · ∞ = NaN`. Such a ray moves less than `1e-30 · t` along that axis, far
/// below the builder's padding of the boxes, so no box is missed.
const MIN_DIR: f32 = 1e-30;

impl<V: Vector> SlabRay<V> {
    fn new(origin: V, dir: V) -> Self {
        let mut d = dir;
        for i in 0..V::DIM {
            let c = d.get(i);
            if c.abs() < MIN_DIR {
                d.set(
                    i,
                    if c.is_sign_negative() {
                        -MIN_DIR
                    } else {
                        MIN_DIR
                    },
                );
            }
        }
        let inv = V::splat(1.0).div_elem(d);
        SlabRay {
            inv,
            org_inv: origin.mul_elem(inv),
        }
    }

    /// Entry parameter of the ray into the box within `[0, max_t]`, or `None`.
    ///
    /// Kay–Kajiya slabs (Ericson, Real-Time Collision Detection, 5.3.3) with a
    /// precomputed reciprocal: the slab `[lo, hi]` of axis `i` is crossed for
    /// `t` between `lo·inv_i − o_i·inv_i` and `hi·inv_i − o_i·inv_i`. The
    /// rounding of that difference is a few ulps of `o_i·inv_i`, covered by
    /// the builder's padding of the boxes (a few ulps of their coordinates)
    /// for rays that start near the box, the case where it matters. The
    /// selects are written as comparisons so they compile to single min/max
    /// instructions; a NaN (only from non-finite input) then lands on one
    /// side or the other, never in a panic.
    ///
    /// Dated note (2026-11): this form (one multiply-subtract per bound and
    /// compare-selects) casts about 20% more rays per second on a 1.3M-triangle
    /// mesh than `(lo - o) · inv` with `f32::min`/`max`.
    #[inline(always)]
    fn entry(&self, b: &Aabb<V>, max_t: f32) -> Option<f32> {
        let mut t_in = 0.0f32;
        let mut t_out = max_t;
        for i in 0..V::DIM {
            let inv = self.inv.get(i);
            let oi = self.org_inv.get(i);
            let t0 = b.min.get(i) * inv - oi;
            let t1 = b.max.get(i) * inv - oi;
            let (near, far) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
            t_in = if near > t_in { near } else { t_in };
            t_out = if far < t_out { far } else { t_out };
        }
        // Relative slack on the exit (Ize, "Robust BVH ray traversal", JCGT
        // 2013): the rounding of `t` is relative to `t` for origins far from
        // the box, which the boxes' padding (relative to their coordinates)
        // does not cover.
        if t_in <= t_out * (1.0 + 8.0 * f32::EPSILON) {
            Some(t_in)
        } else {
            None
        }
    }
}

/// Squared distance from `p` to the closed box (zero inside).
#[inline]
pub(crate) fn point_box_dist2<V: Vector>(b: &Aabb<V>, p: V) -> f32 {
    let d = (b.min - p).max(p - b.max).max(V::ZERO);
    d.dot(d)
}

/// A heap entry ordered so that `BinaryHeap` pops the smallest key first.
#[derive(Clone, Copy)]
pub(super) struct MinKey<T>(pub(super) f32, pub(super) T);

impl<T> PartialEq for MinKey<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0.total_cmp(&o.0) == Ordering::Equal
    }
}
impl<T> Eq for MinKey<T> {}
impl<T> PartialOrd for MinKey<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for MinKey<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0)
    }
}

impl<V: Vector> Bvh<V> {
    /// The closest primitive hit by the ray `origin + t·dir`, `0 <= t <= max_t`.
    ///
    /// `hit(slot, best_t)` tests one primitive and returns its hit parameter
    /// when the ray meets it at some `t <= best_t` (the closest so far, or
    /// `max_t`). Children are visited front to back and every box farther than
    /// the best hit so far is skipped (the ray "shrinks"). Returns the slot and
    /// parameter of the closest hit.
    pub fn cast_ray<F>(&self, origin: V, dir: V, max_t: f32, mut hit: F) -> Option<(u32, f32)>
    where
        F: FnMut(u32, f32) -> Option<f32>,
    {
        let ray = SlabRay::new(origin, dir);
        let root = self.nodes.first()?;
        if max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        ray.entry(&root.aabb, max_t)?;
        let mut best_t = max_t;
        let mut best = None;
        let mut stack = Stack::new((0u32, 0.0f32));
        let mut at = 0u32;
        loop {
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                for s in node.slots() {
                    if let Some(t) = hit(s, best_t) {
                        if t <= best_t {
                            best_t = t;
                            best = Some((s, t));
                        }
                    }
                }
            } else {
                let (l, r) = (at + 1, node.index);
                let tl = ray.entry(&self.nodes[l as usize].aabb, best_t);
                let tr = ray.entry(&self.nodes[r as usize].aabb, best_t);
                match (tl, tr) {
                    (Some(a), Some(b)) => {
                        // Nearer child first; the farther one waits with its
                        // entry time so it can be skipped once a hit is closer.
                        if a <= b {
                            stack.push((r, b));
                            at = l;
                        } else {
                            stack.push((l, a));
                            at = r;
                        }
                        continue;
                    }
                    (Some(_), None) => {
                        at = l;
                        continue;
                    }
                    (None, Some(_)) => {
                        at = r;
                        continue;
                    }
                    (None, None) => {}
                }
            }
            // Pop the next box that can still hold a closer hit.
            loop {
                let Some((n, t)) = stack.pop() else {
                    return best;
                };
                if t <= best_t {
                    at = n;
                    break;
                }
            }
        }
    }

    /// Visits, in no particular order, every slot whose leaf box the ray
    /// `origin + t·dir`, `0 <= t <= max_t`, meets; `visit` may stop the walk by
    /// returning [`ControlFlow::Break`], whose value is returned.
    pub fn visit_ray<B, F>(&self, origin: V, dir: V, max_t: f32, mut visit: F) -> Option<B>
    where
        F: FnMut(u32) -> ControlFlow<B>,
    {
        let ray = SlabRay::new(origin, dir);
        if self.nodes.is_empty() || max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        let mut stack = Stack::new(0u32);
        stack.push(0);
        while let Some(at) = stack.pop() {
            let node = &self.nodes[at as usize];
            if ray.entry(&node.aabb, max_t).is_none() {
                continue;
            }
            if node.count > 0 {
                for s in node.slots() {
                    if let ControlFlow::Break(b) = visit(s) {
                        return Some(b);
                    }
                }
            } else {
                stack.push(node.index);
                stack.push(at + 1);
            }
        }
        None
    }

    /// Whether `hit(slot)` is true for some primitive whose leaf box the ray
    /// meets within `[0, max_t]` (any-hit: stops at the first).
    pub fn ray_any<F>(&self, origin: V, dir: V, max_t: f32, mut hit: F) -> bool
    where
        F: FnMut(u32) -> bool,
    {
        self.visit_ray(origin, dir, max_t, |s| {
            if hit(s) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_some()
    }

    /// Calls `visit(slot)` for every primitive in a leaf whose box overlaps
    /// `aabb` (a conservative candidate set: the caller tests exactly).
    pub fn query_aabb<F>(&self, aabb: &Aabb<V>, mut visit: F)
    where
        F: FnMut(u32),
    {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = Stack::new(0u32);
        stack.push(0);
        while let Some(at) = stack.pop() {
            let node = &self.nodes[at as usize];
            if !node.aabb.overlaps(aabb) {
                continue;
            }
            if node.count > 0 {
                node.slots().for_each(&mut visit);
            } else {
                stack.push(node.index);
                stack.push(at + 1);
            }
        }
    }

    /// The primitive nearest to `point`, by best-first search: nodes are taken
    /// from a priority queue ordered by the squared distance from `point` to
    /// their box (a lower bound for everything below them), and the search
    /// stops when the nearest box is farther than the best primitive so far.
    ///
    /// `dist2(slot, best)` returns the squared distance to the primitive when
    /// it is `<= best`. Only primitives within `sqrt(max_dist2)` count.
    /// Returns the slot and squared distance.
    pub fn closest_point<F>(&self, point: V, max_dist2: f32, mut dist2: F) -> Option<(u32, f32)>
    where
        F: FnMut(u32, f32) -> Option<f32>,
    {
        let root = self.nodes.first()?;
        let mut best_d2 = max_dist2;
        let mut best = None;
        let mut heap: BinaryHeap<MinKey<u32>> = BinaryHeap::with_capacity(64);
        let mut current = Some(MinKey(point_box_dist2(&root.aabb, point), 0u32));
        // The next node: `current` when set (it is known to be no farther than
        // the heap's top), else the heap's top.
        while let Some(MinKey(d2, at)) = current.take().or_else(|| heap.pop()) {
            if d2 > best_d2 {
                break;
            }
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                for s in node.slots() {
                    if let Some(d) = dist2(s, best_d2) {
                        if d <= best_d2 {
                            best_d2 = d;
                            best = Some((s, d));
                        }
                    }
                }
                continue;
            }
            let (l, r) = (at + 1, node.index);
            let dl = point_box_dist2(&self.nodes[l as usize].aabb, point);
            let dr = point_box_dist2(&self.nodes[r as usize].aabb, point);
            let (near, far) = if dl <= dr {
                (MinKey(dl, l), MinKey(dr, r))
            } else {
                (MinKey(dr, r), MinKey(dl, l))
            };
            if far.0 <= best_d2 {
                heap.push(far);
            }
            // Fast path: the nearer child goes next without a round trip
            // through the heap when nothing queued is nearer (the order stays
            // best-first).
            if near.0 <= best_d2 {
                if heap.peek().is_none_or(|top| near.0 <= top.0) {
                    current = Some(near);
                } else {
                    heap.push(near);
                }
            }
        }
        best
    }
}
