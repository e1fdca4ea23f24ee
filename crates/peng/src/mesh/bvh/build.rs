//! Binned SAH construction.
//!
//! Follows Wald, "On fast construction of SAH-based bounding volume hierarchies"
//! (IEEE Symposium on Interactive Ray Tracing, 2007): primitives are represented
//! by their box centroids; at each node the centroids are dropped into `BINS`
//! equal bins along an axis of the centroid bounds, one sweep over the bins
//! evaluates the surface area heuristic (MacDonald and Booth 1990)
//!
//! ```text
//! cost(split) = C_trav · A(node) + C_isect · (A(L) · |L| + A(R) · |R|)
//! ```
//!
//! at each bin boundary, and the primitives are partitioned in place; the
//! partition pass also gathers both children's box and centroid bounds.
//! Wald bins only the longest axis. Here nodes of fewer than `ALL_AXES_BELOW`
//! primitives bin every axis (cheap there, and better trees on meshes with long
//! thin triangles), larger ones only the widest; nodes smaller than `BINS` use
//! one bin per primitive, so the fixed per-node cost stays in proportion.
//!
//! Measured (dated note, 2026-11, opt-level 3 test profile on the shared
//! 2-core machine, `tests/it/mesh_timing.rs`): 1.31M-triangle icosphere, BVH build
//! about 0.9 s CPU, tree depth 23. Binning all axes at every node cost about
//! 1.5x that; clearing and sweeping 16 bins at every small node 2x.
//!
//! Dated note (2026-11-21, `cargo bench -p peng-bench --bench mesh`, one
//! run): after moving the work boxes to `Vec3A`, exact splits for nodes of at
//! most `EXACT_MAX` items and two-way binning, the 1M-triangle BVH build took
//! 400 ms against parry's 495 ms, the same tree as before (SAH cost and node
//! count unchanged in `tests/it/meshbuild_timing.rs`).
//!
//! Work is `O(n)` per level and the tree has `O(log n)` levels for any
//! reasonable input, so `O(n log n)` in all; the only allocations are the node,
//! slot and work arrays, sized once up front.

use super::{Bvh, BvhNode};
use crate::bound::Aabb;
use crate::math::Vector;
use glam::Vec3A;

/// Bins per axis (Wald finds 8 to 32 near-optimal; 16 is the usual choice).
const BINS: usize = 16;
/// Nodes with fewer primitives bin every axis; larger ones only the widest.
const ALL_AXES_BELOW: usize = 256;
/// Nodes of at most this many primitives take the exact SAH split over every
/// cut of the centroid order (`exact_split`) instead of binning.
const EXACT_MAX: usize = 16;
/// Largest leaf.
pub(crate) const MAX_LEAF: usize = 4;
/// Cost of visiting a node, relative to testing one primitive.
const C_TRAV: f32 = 1.0;
/// Below this depth splits follow the SAH; deeper nodes (pathological input
/// only) split at the object median so the depth stays below the traversal
/// stack's inline size (`64 + 32 < 128`).
const MAX_SAH_DEPTH: u32 = 64;
/// Marks "no parent to patch".
const NONE: u32 = u32::MAX;

/// A box in the builder's working form: glam's 16-byte-aligned `Vec3A`
/// corners, so merges, centroids and extents are single SIMD instructions
/// whatever the dimension (2D boxes have `z = 0` on both corners, which adds
/// nothing to any bound or area below).
#[derive(Clone, Copy)]
struct Box4 {
    min: Vec3A,
    max: Vec3A,
}

impl Box4 {
    const EMPTY: Self = Box4 {
        min: Vec3A::MAX,
        max: Vec3A::MIN,
    };

    #[inline(always)]
    fn of<V: Vector>(b: &Aabb<V>) -> Self {
        let (mut lo, mut hi) = (Vec3A::ZERO, Vec3A::ZERO);
        for i in 0..V::DIM {
            lo[i] = b.min.get(i);
            hi[i] = b.max.get(i);
        }
        Box4 { min: lo, max: hi }
    }

    #[inline(always)]
    fn to<V: Vector>(self) -> Aabb<V> {
        let (mut lo, mut hi) = (V::ZERO, V::ZERO);
        for i in 0..V::DIM {
            lo.set(i, self.min[i]);
            hi.set(i, self.max[i]);
        }
        Aabb { min: lo, max: hi }
    }

    #[inline(always)]
    fn merged(&self, o: &Self) -> Self {
        Box4 {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    #[inline(always)]
    fn add_point(&mut self, p: Vec3A) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// Side lengths, zero for an empty box.
    #[inline(always)]
    fn size(&self) -> Vec3A {
        (self.max - self.min).max(Vec3A::ZERO)
    }
}

/// A primitive while building: its box (the input index travels in a
/// parallel array, swapped alongside).
type Item = Box4;

/// One side of a split: the box and centroid bounds of its primitives.
#[derive(Clone, Copy)]
struct Bin {
    aabb: Box4,
    centroids: Box4,
    count: u32,
}

impl Bin {
    const EMPTY: Self = Bin {
        aabb: Box4::EMPTY,
        centroids: Box4::EMPTY,
        count: 0,
    };
}

/// A range of items waiting to become a node.
#[derive(Clone, Copy)]
struct Task {
    start: u32,
    end: u32,
    depth: u32,
    /// The parent whose right-child index must be set to this node's index.
    patch: u32,
    aabb: Box4,
    /// Bounds of the centroids (stored doubled: `min + max` of each box).
    centroids: Box4,
}

/// Where a node is split: items whose centroid falls in a bin `< bin` along
/// `axis` (with `bins` bins) go left.
struct Split {
    axis: usize,
    bin: usize,
    bins: usize,
    cost: f32,
}

/// Doubled centroid `min + max` (halving is not needed to bin).
#[inline]
fn centroid2(b: &Box4) -> Vec3A {
    b.min + b.max
}

/// Absolute part of the padding. A ray with a zero direction component is
/// traversed with that component at `MIN_DIR = 1e-30` (traverse.rs), so it
/// stays inside a flat slab of half-thickness `ABS_PAD` for `t` up to
/// `ABS_PAD / MIN_DIR = 1e10`: a ray lying in the plane of a flat box (a
/// segment on `y = 0` hit along its length) still enters it.
const ABS_PAD: f32 = 1e-20;

/// Pads a box outward by a few ulps of its coordinates plus [`ABS_PAD`] (see
/// the module docs). Both maps are monotone, so a child's padded box stays
/// inside its parent's.
#[inline]
fn pad<V: Vector>(b: Aabb<V>) -> Aabb<V> {
    let k = 4.0 * f32::EPSILON;
    let mut out = b;
    for i in 0..V::DIM {
        let (lo, hi) = (b.min.get(i), b.max.get(i));
        out.min.set(i, lo - lo.abs() * k - ABS_PAD);
        out.max.set(i, hi + hi.abs() * k + ABS_PAD);
    }
    out
}

/// The per-axis map from a doubled centroid to its bin: `(origin, scale)`, or
/// `None` when the centroids do not spread along the axis.
#[inline]
fn bin_map(centroids: &Box4, axis: usize, bins: usize) -> Option<(f32, f32)> {
    let lo = centroids.min[axis];
    let extent = centroids.max[axis] - lo;
    // NaN bounds give no spread either.
    if extent.is_nan() || extent <= 0.0 || !extent.is_finite() {
        return None;
    }
    // Slightly less than BINS / extent so the largest centroid lands in the
    // last bin rather than one past it (the `min` below guards the rest).
    let scale = bins as f32 * (1.0 - 1e-6) / extent;
    Some((lo, scale))
}

#[inline(always)]
fn bin_of(c: f32, (lo, scale): (f32, f32), bins: usize) -> usize {
    // Clamped in f32 first (`f32::max` drops a NaN, so NaN goes to bin 0),
    // then a plain truncation: cheaper than a saturating `as usize` of an
    // unbounded float followed by an integer `min`, and this runs twice per
    // item per level (binning and partition).
    ((c - lo) * scale).max(0.0).min((bins - 1) as f32) as u32 as usize
}

/// Half the boundary measure of a non-empty box (the SAH only compares
/// ratios, so the factor 2 of [`Aabb::boundary_measure`] is dropped), written
/// out per dimension so it inlines into the sweeps.
#[inline(always)]
fn half_area<V: Vector>(b: &Box4) -> f32 {
    let s = b.max - b.min;
    if V::DIM == 2 {
        s[0] + s[1]
    } else {
        s[0] * s[1] + s[1] * s[2] + s[2] * s[0]
    }
}

impl<V: Vector> Bvh<V> {
    /// Builds the BVH over the given primitive boxes (binned SAH, leaves of at
    /// most 4 primitives). An empty slice gives an empty BVH. Boxes should be
    /// finite; non-finite boxes give a valid but poor tree, never a panic.
    pub fn build(boxes: &[Aabb<V>]) -> Self {
        let n = boxes.len();
        if n == 0 {
            return Bvh {
                nodes: Vec::new(),
                slots: Vec::new(),
            };
        }
        debug_assert!(n < u32::MAX as usize / 2, "too many primitives for a BVH");
        let mut items: Vec<Item> = boxes.iter().map(Box4::of::<V>).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut root = Bin::EMPTY;
        for it in &items {
            root.aabb = root.aabb.merged(it);
            root.centroids.add_point(centroid2(it));
        }
        // A binary tree with leaves of >= 1 primitive has at most 2n - 1 nodes.
        let mut nodes: Vec<BvhNode<V>> = Vec::with_capacity(2 * n - 1);
        let mut tasks: Vec<Task> = Vec::with_capacity(128);
        tasks.push(Task {
            start: 0,
            end: n as u32,
            depth: 0,
            patch: NONE,
            aabb: root.aabb,
            centroids: root.centroids,
        });
        while let Some(t) = tasks.pop() {
            let at = nodes.len() as u32;
            if t.patch != NONE {
                nodes[t.patch as usize].index = at;
            }
            let count = t.end - t.start;
            nodes.push(BvhNode {
                aabb: pad(t.aabb.to::<V>()),
                index: t.start,
                count,
            });
            if count == 1 {
                continue;
            }
            let (a, b) = (t.start as usize, t.end as usize);
            let (left, right, mid) = match split_node::<V>(&mut items[a..b], &mut ids[a..b], &t) {
                Some(s) => s,
                None => continue, // a leaf
            };
            nodes[at as usize].count = 0;
            // Right is pushed first so that left is built next and lands at
            // `at + 1` (pre-order); right patches its parent when it is built.
            tasks.push(Task {
                start: t.start + mid,
                end: t.end,
                depth: t.depth + 1,
                patch: at,
                aabb: right.aabb,
                centroids: right.centroids,
            });
            tasks.push(Task {
                start: t.start,
                end: t.start + mid,
                depth: t.depth + 1,
                patch: NONE,
                aabb: left.aabb,
                centroids: left.centroids,
            });
        }
        Bvh { nodes, slots: ids }
    }
}

/// Decides how to split the node's items: `None` makes a leaf; otherwise the
/// items are partitioned in place and the two sides' bounds and the left count
/// are returned.
fn split_node<V: Vector>(items: &mut [Item], ids: &mut [u32], t: &Task) -> Option<(Bin, Bin, u32)> {
    let n = items.len();
    if t.depth < MAX_SAH_DEPTH && n <= EXACT_MAX {
        let (mid, cost) = exact_split::<V>(items, ids);
        // SAH termination as below.
        let area = half_area::<V>(&t.aabb);
        if n <= MAX_LEAF && C_TRAV * area + cost >= n as f32 * area {
            return None;
        }
        return Some((bounds(&items[..mid]), bounds(&items[mid..]), mid as u32));
    }
    if t.depth < MAX_SAH_DEPTH {
        match best_sah_split::<V>(items, &t.centroids) {
            Some(s) => {
                // SAH termination (Wald 2007, 3.1), for leaf-sized nodes only:
                // a leaf costs `n · A`, the split `C_trav · A + A_L n_L + A_R n_R`.
                let area = half_area::<V>(&t.aabb);
                if n <= MAX_LEAF && C_TRAV * area + s.cost >= n as f32 * area {
                    return None;
                }
                if let Some(map) = bin_map(&t.centroids, s.axis, s.bins) {
                    let (l, r, mid) = partition(items, ids, |c: Vec3A| {
                        bin_of(c[s.axis], map, s.bins) < s.bin
                    });
                    if mid > 0 && mid < n {
                        return Some((l, r, mid as u32));
                    }
                }
                debug_assert!(false, "binned partition left a side empty");
            }
            None if n <= MAX_LEAF => return None,
            None => {}
        }
    } else if n <= MAX_LEAF {
        return None;
    }
    Some(median_split(items, ids, &t.centroids))
}

/// Bins the items along every axis and returns the cheapest split, `None` when
/// the centroids coincide (nothing to bin). Small nodes use fewer bins (one
/// per item): the per-node cost of clearing and sweeping bins then stays in
/// proportion to the node.
fn best_sah_split<V: Vector>(items: &[Item], centroids: &Box4) -> Option<Split> {
    let nb = items.len().clamp(2, BINS);
    let mut boxes = [[Box4::EMPTY; BINS]; 3];
    let mut counts = [[0u32; BINS]; 3];
    let mut maps = [None; 3];
    let mut any = false;
    // Large nodes bin only the axis of widest centroid spread, as Wald does;
    // below `ALL_AXES_BELOW` every axis is tried (cheap there, and the small
    // nodes near the leaves are where a better axis pays most).
    let size = centroids.size();
    let widest = (1..V::DIM).fold(0, |w, i| if size[i] > size[w] { i } else { w });
    for (axis, m) in maps.iter_mut().enumerate().take(V::DIM) {
        if items.len() < ALL_AXES_BELOW || axis == widest {
            *m = bin_map(centroids, axis, nb);
        }
        if let Some(map) = *m {
            any = true;
            bin_axis(items, axis, map, nb, &mut boxes[axis], &mut counts[axis]);
        }
    }
    if !any {
        return None;
    }
    let mut best: Option<Split> = None;
    for axis in 0..V::DIM {
        if maps[axis].is_none() {
            continue;
        }
        let (boxes, counts) = (&boxes[axis], &counts[axis]);
        // Suffix sweep: the split before bin i has bins ..i on the left and
        // i.. on the right, whose cost term is right_cost[i].
        let mut right_cost = [0.0f32; BINS];
        let mut right_count = [0u32; BINS];
        let (mut acc, mut cnt) = (Box4::EMPTY, 0u32);
        for i in (1..nb).rev() {
            acc = acc.merged(&boxes[i]);
            cnt += counts[i];
            right_count[i] = cnt;
            right_cost[i] = if cnt > 0 {
                half_area::<V>(&acc) * cnt as f32
            } else {
                0.0
            };
        }
        let (mut left, mut lcnt) = (Box4::EMPTY, 0u32);
        for i in 1..nb {
            left = left.merged(&boxes[i - 1]);
            lcnt += counts[i - 1];
            if lcnt == 0 || right_count[i] == 0 {
                continue;
            }
            let cost = half_area::<V>(&left) * lcnt as f32 + right_cost[i];
            // `<` keeps the first (lowest axis, lowest bin) of equal costs:
            // deterministic trees.
            if best.as_ref().is_none_or(|b| cost < b.cost) {
                best = Some(Split {
                    axis,
                    bin: i,
                    bins: nb,
                    cost,
                });
            }
        }
    }
    best
}

/// Drops the items into `nb` bins along one axis, accumulating each bin's box
/// and count.
///
/// Consecutive items of a mesh are usually neighbours and fall in the same
/// bin, so one set of bins would make every merge wait for the previous
/// one's store; even and odd items go to two sets that are combined at the
/// end, which halves that dependency chain.
#[inline]
fn bin_axis(
    items: &[Item],
    axis: usize,
    map: (f32, f32),
    nb: usize,
    boxes: &mut [Box4; BINS],
    counts: &mut [u32; BINS],
) {
    let mut b2 = [Box4::EMPTY; BINS];
    let mut c2 = [0u32; BINS];
    let mut pairs = items.chunks_exact(2);
    for p in &mut pairs {
        let (x, y) = (&p[0], &p[1]);
        let i = bin_of(x.min[axis] + x.max[axis], map, nb);
        let j = bin_of(y.min[axis] + y.max[axis], map, nb);
        boxes[i] = boxes[i].merged(x);
        counts[i] += 1;
        b2[j] = b2[j].merged(y);
        c2[j] += 1;
    }
    for it in pairs.remainder() {
        let x = it;
        let i = bin_of(x.min[axis] + x.max[axis], map, nb);
        boxes[i] = boxes[i].merged(x);
        counts[i] += 1;
    }
    for k in 0..nb {
        boxes[k] = boxes[k].merged(&b2[k]);
        counts[k] += c2[k];
    }
}

/// Hoare-style in-place partition: items whose doubled centroid satisfies
/// `go_left` first. Returns both sides' box and centroid bounds (gathered in
/// the same pass) and the left count.
fn partition(
    items: &mut [Item],
    ids: &mut [u32],
    go_left: impl Fn(Vec3A) -> bool,
) -> (Bin, Bin, usize) {
    let (mut l, mut r) = (Bin::EMPTY, Bin::EMPTY);
    let (mut i, mut j) = (0, items.len());
    while i < j {
        let it = items[i];
        let c = centroid2(&it);
        if go_left(c) {
            l.aabb = l.aabb.merged(&it);
            l.centroids.add_point(c);
            l.count += 1;
            i += 1;
        } else {
            r.aabb = r.aabb.merged(&it);
            r.centroids.add_point(c);
            r.count += 1;
            j -= 1;
            items.swap(i, j);
            ids.swap(i, j);
        }
    }
    (l, r, i)
}

/// Splits at the object median along the widest centroid axis (or at the middle
/// of the range when the centroids coincide), recomputing both sides' bounds.
fn median_split(items: &mut [Item], ids: &mut [u32], centroids: &Box4) -> (Bin, Bin, u32) {
    let size = centroids.size();
    // 2D boxes have no z spread, so the widest axis is never z there.
    let mut axis = 0;
    for i in 1..3 {
        if size[i] > size[axis] {
            axis = i;
        }
    }
    let mid = items.len() / 2;
    if size[axis] > 0.0 {
        // Select on an index permutation, then apply it to both arrays (a
        // rare path: pathological input only).
        let mut perm: Vec<u32> = (0..items.len() as u32).collect();
        crate::sort::select_nth_by(&mut perm, mid, |&a, &b| {
            centroid2(&items[a as usize])[axis].total_cmp(&centroid2(&items[b as usize])[axis])
        });
        let (old_items, old_ids) = (items.to_vec(), ids.to_vec());
        for (k, &p) in perm.iter().enumerate() {
            items[k] = old_items[p as usize];
            ids[k] = old_ids[p as usize];
        }
    }
    (bounds(&items[..mid]), bounds(&items[mid..]), mid as u32)
}

/// The box and centroid bounds of some items.
fn bounds(items: &[Item]) -> Bin {
    let mut b = Bin::EMPTY;
    for it in items {
        b.aabb = b.aabb.merged(it);
        b.centroids.add_point(centroid2(it));
        b.count += 1;
    }
    b
}

/// The exact SAH object split of a small node (`2 <= n <= EXACT_MAX`): along
/// each axis the items are sorted by centroid and every one of the `n - 1`
/// cuts of that order is costed with a suffix and a prefix sweep (the sweep
/// of Wald's binned builder with one item per "bin", as in the full-sweep SAH
/// builders of MacDonald and Booth). The items are left in the best axis's
/// order; returns the left count and the cost term `A_L n_L + A_R n_R`
/// (infinite when no cut has a finite cost: then the cut is the middle).
///
/// Near the leaves this is both cheaper than binning three axes (no bin
/// arrays to clear and sweep) and never worse, since it tries every cut.
fn exact_split<V: Vector>(items: &mut [Item], ids: &mut [u32]) -> (usize, f32) {
    let n = items.len();
    debug_assert!((2..=EXACT_MAX).contains(&n));
    let mut keys = [0.0f32; EXACT_MAX];
    let mut order = [0u8; EXACT_MAX];
    let mut best_order = [0u8; EXACT_MAX];
    for (k, o) in best_order.iter_mut().enumerate() {
        *o = k as u8;
    }
    let (mut best_mid, mut best_cost) = (n / 2, f32::INFINITY);
    let mut right = [0.0f32; EXACT_MAX];
    for axis in 0..V::DIM {
        // Insertion sort of the item indices by centroid (n is tiny). A NaN
        // key compares false and just stops the shift: some order, no panic.
        for (i, it) in items.iter().enumerate() {
            let c = centroid2(it)[axis];
            let mut j = i;
            while j > 0 && keys[j - 1] > c {
                keys[j] = keys[j - 1];
                order[j] = order[j - 1];
                j -= 1;
            }
            keys[j] = c;
            order[j] = i as u8;
        }
        let mut acc = Box4::EMPTY;
        for k in (1..n).rev() {
            acc = acc.merged(&items[order[k] as usize]);
            right[k] = half_area::<V>(&acc) * (n - k) as f32;
        }
        let mut left = Box4::EMPTY;
        for k in 1..n {
            left = left.merged(&items[order[k - 1] as usize]);
            let cost = half_area::<V>(&left) * k as f32 + right[k];
            // Of equal costs the most balanced cut wins, then the first
            // (lowest axis, lowest cut): deterministic, and coincident
            // boxes (all cuts equal) split in the middle, not into a list.
            let better = cost < best_cost
                || (cost == best_cost && k.abs_diff(n / 2) < best_mid.abs_diff(n / 2));
            if better {
                best_cost = cost;
                best_mid = k;
                best_order = order;
            }
        }
    }
    let mut sorted = [items[0]; EXACT_MAX];
    let mut sorted_ids = [0u32; EXACT_MAX];
    for k in 0..n {
        sorted[k] = items[best_order[k] as usize];
        sorted_ids[k] = ids[best_order[k] as usize];
    }
    items.copy_from_slice(&sorted[..n]);
    ids.copy_from_slice(&sorted_ids[..n]);
    (best_mid, best_cost)
}
