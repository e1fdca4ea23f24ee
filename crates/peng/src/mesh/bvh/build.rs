//! Binned SAH construction.
//!
//! Follows Wald, "On fast construction of SAH-based bounding volume hierarchies"
//! (IEEE Symposium on Interactive Ray Tracing, 2007): primitives are represented
//! by their box centroids; at each node the centroids are dropped into `BINS`
//! equal bins along each axis of the centroid bounds, one sweep over the bins
//! evaluates the surface area heuristic (MacDonald and Booth 1990)
//!
//! ```text
//! cost(split) = C_trav · A(node) + C_isect · (A(L) · |L| + A(R) · |R|)
//! ```
//!
//! at each bin boundary, and the primitives are partitioned in place. The bins
//! also carry the box and centroid bounds of their primitives, so the children's
//! bounds come from merging bins and no extra pass over the primitives is made.
//! Wald bins only the longest axis; binning all of them costs a few more min/max
//! per primitive and level and gives noticeably better trees on meshes with
//! long thin triangles.
//!
//! Work is `O(n)` per level and the tree has `O(log n)` levels for any
//! reasonable input, so `O(n log n)` in all; the only allocations are the node,
//! slot and work arrays, sized once up front.

use super::{Bvh, BvhNode};
use crate::bound::Aabb;
use crate::math::Vector;

/// Bins per axis (Wald finds 8 to 32 near-optimal; 16 is the usual choice).
const BINS: usize = 16;
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

/// A primitive while building: its box and its input index.
#[derive(Clone, Copy)]
struct Item<V> {
    aabb: Aabb<V>,
    id: u32,
}

/// A bin: the boxes and centroids of the primitives that fall in it.
#[derive(Clone, Copy)]
struct Bin<V> {
    aabb: Aabb<V>,
    centroids: Aabb<V>,
    count: u32,
}

impl<V: Vector> Bin<V> {
    const EMPTY: Self = Bin {
        aabb: Aabb::EMPTY,
        centroids: Aabb::EMPTY,
        count: 0,
    };
    #[inline]
    fn merged(&self, o: &Self) -> Self {
        Bin {
            aabb: self.aabb.merged(&o.aabb),
            centroids: self.centroids.merged(&o.centroids),
            count: self.count + o.count,
        }
    }
}

/// A range of items waiting to become a node.
#[derive(Clone, Copy)]
struct Task<V> {
    start: u32,
    end: u32,
    depth: u32,
    /// The parent whose right-child index must be set to this node's index.
    patch: u32,
    aabb: Aabb<V>,
    /// Bounds of the centroids (stored doubled: `min + max` of each box).
    centroids: Aabb<V>,
}

/// Where a node is split.
struct Split<V> {
    /// Number of items going left.
    left: Bin<V>,
    right: Bin<V>,
    axis: usize,
    /// Items in bins `< bin` go left.
    bin: usize,
    cost: f32,
}

/// Doubled centroid `min + max` (halving is not needed to bin).
#[inline]
fn centroid2<V: Vector>(b: &Aabb<V>) -> V {
    b.min + b.max
}

/// Pads a box outward by a few ulps of its coordinates (see the module docs).
/// Both maps are monotone, so a child's padded box stays inside its parent's.
#[inline]
fn pad<V: Vector>(b: Aabb<V>) -> Aabb<V> {
    let k = 4.0 * f32::EPSILON;
    let mut out = b;
    for i in 0..V::DIM {
        let (lo, hi) = (b.min.get(i), b.max.get(i));
        out.min.set(i, lo - lo.abs() * k - f32::MIN_POSITIVE);
        out.max.set(i, hi + hi.abs() * k + f32::MIN_POSITIVE);
    }
    out
}

/// The per-axis map from a doubled centroid to its bin: `(origin, scale)`, or
/// `None` when the centroids do not spread along the axis.
#[inline]
fn bin_map<V: Vector>(centroids: &Aabb<V>, axis: usize) -> Option<(f32, f32)> {
    let lo = centroids.min.get(axis);
    let extent = centroids.max.get(axis) - lo;
    // NaN bounds give no spread either.
    if extent.is_nan() || extent <= 0.0 || !extent.is_finite() {
        return None;
    }
    // Slightly less than BINS / extent so the largest centroid lands in the
    // last bin rather than one past it (the `min` below guards the rest).
    let scale = BINS as f32 * (1.0 - 1e-6) / extent;
    Some((lo, scale))
}

#[inline]
fn bin_of(c: f32, (lo, scale): (f32, f32)) -> usize {
    // `as usize` saturates: negative and NaN go to 0.
    (((c - lo) * scale) as usize).min(BINS - 1)
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
        let mut items: Vec<Item<V>> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| Item {
                aabb: *b,
                id: i as u32,
            })
            .collect();
        let mut root = Bin::EMPTY;
        for it in &items {
            root.aabb = root.aabb.merged(&it.aabb);
            root.centroids.add_point(centroid2(&it.aabb));
        }
        // A binary tree with leaves of >= 1 primitive has at most 2n - 1 nodes.
        let mut nodes: Vec<BvhNode<V>> = Vec::with_capacity(2 * n - 1);
        let mut tasks: Vec<Task<V>> = Vec::with_capacity(128);
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
                aabb: pad(t.aabb),
                index: t.start,
                count,
            });
            if count == 1 {
                continue;
            }
            let range = &mut items[t.start as usize..t.end as usize];
            let (left, right, mid) = match split_node(range, &t) {
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
        Bvh {
            nodes,
            slots: items.iter().map(|it| it.id).collect(),
        }
    }
}

/// Decides how to split the node's items: `None` makes a leaf; otherwise the
/// items are partitioned in place and the two sides' bins and the left count
/// are returned.
fn split_node<V: Vector>(items: &mut [Item<V>], t: &Task<V>) -> Option<(Bin<V>, Bin<V>, u32)> {
    let n = items.len();
    if t.depth < MAX_SAH_DEPTH {
        if let Some(s) = best_sah_split(items, &t.centroids) {
            // SAH termination (Wald 2007, 3.1), for leaf-sized nodes only: a
            // leaf costs `n · A`, the split `C_trav · A + A_L n_L + A_R n_R`.
            let area = t.aabb.boundary_measure();
            if n <= MAX_LEAF && C_TRAV * area + s.cost >= n as f32 * area {
                return None;
            }
            let map = bin_map(&t.centroids, s.axis);
            if let Some(map) = map {
                let mid = partition(items, |it| {
                    bin_of(centroid2(&it.aabb).get(s.axis), map) < s.bin
                });
                if mid as u32 == s.left.count && mid > 0 && mid < n {
                    return Some((s.left, s.right, mid as u32));
                }
                debug_assert!(false, "binned partition disagrees with the bin counts");
            }
        } else if n <= MAX_LEAF {
            return None;
        }
    } else if n <= MAX_LEAF {
        return None;
    }
    Some(median_split(items, &t.centroids))
}

/// Bins the items along every axis and returns the cheapest split, `None` when
/// the centroids coincide (nothing to bin).
fn best_sah_split<V: Vector>(items: &[Item<V>], centroids: &Aabb<V>) -> Option<Split<V>> {
    let mut bins = [[Bin::<V>::EMPTY; BINS]; 3];
    let mut maps = [None; 3];
    let mut any = false;
    for (axis, m) in maps.iter_mut().enumerate().take(V::DIM) {
        *m = bin_map(centroids, axis);
        any |= m.is_some();
    }
    if !any {
        return None;
    }
    for it in items {
        let c = centroid2(&it.aabb);
        for axis in 0..V::DIM {
            if let Some(map) = maps[axis] {
                let b = &mut bins[axis][bin_of(c.get(axis), map)];
                b.aabb = b.aabb.merged(&it.aabb);
                b.centroids.add_point(c);
                b.count += 1;
            }
        }
    }
    let mut best: Option<Split<V>> = None;
    for axis in 0..V::DIM {
        if maps[axis].is_none() {
            continue;
        }
        let bins = &bins[axis];
        // Suffix sweep: right[i] merges bins i.., so the split before bin i
        // has bins ..i on the left and right[i] on the right.
        let mut right = [Bin::<V>::EMPTY; BINS];
        let mut acc = Bin::EMPTY;
        for i in (1..BINS).rev() {
            acc = acc.merged(&bins[i]);
            right[i] = acc;
        }
        let mut left = Bin::EMPTY;
        for i in 1..BINS {
            left = left.merged(&bins[i - 1]);
            let r = &right[i];
            if left.count == 0 || r.count == 0 {
                continue;
            }
            let cost = left.aabb.boundary_measure() * left.count as f32
                + r.aabb.boundary_measure() * r.count as f32;
            // `<` keeps the first (lowest axis, lowest bin) of equal costs:
            // deterministic trees.
            if best.as_ref().is_none_or(|b| cost < b.cost) {
                best = Some(Split {
                    left,
                    right: *r,
                    axis,
                    bin: i,
                    cost,
                });
            }
        }
    }
    best
}

/// Hoare-style in-place partition: items satisfying `go_left` first; returns
/// how many.
fn partition<V: Vector>(items: &mut [Item<V>], go_left: impl Fn(&Item<V>) -> bool) -> usize {
    let (mut i, mut j) = (0, items.len());
    while i < j {
        if go_left(&items[i]) {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    i
}

/// Splits at the object median along the widest centroid axis (or at the middle
/// of the range when the centroids coincide), recomputing both sides' bounds.
fn median_split<V: Vector>(items: &mut [Item<V>], centroids: &Aabb<V>) -> (Bin<V>, Bin<V>, u32) {
    let size = centroids.size();
    let mut axis = 0;
    for i in 1..V::DIM {
        if size.get(i) > size.get(axis) {
            axis = i;
        }
    }
    let mid = items.len() / 2;
    if size.get(axis) > 0.0 {
        items.select_nth_unstable_by(mid, |a, b| {
            centroid2(&a.aabb)
                .get(axis)
                .total_cmp(&centroid2(&b.aabb).get(axis))
        });
    }
    let side = |s: &[Item<V>]| {
        let mut b = Bin::EMPTY;
        for it in s {
            b.aabb = b.aabb.merged(&it.aabb);
            b.centroids.add_point(centroid2(&it.aabb));
            b.count += 1;
        }
        b
    };
    (side(&items[..mid]), side(&items[mid..]), mid as u32)
}
