//! Best-first traversal by distance to a box: the primitives near a shape,
//! nearest candidates first, for branch and bound on an exact distance.

use super::pair::box_box_dist2;
use super::traverse::MinKey;
use super::Bvh;
use crate::bound::Aabb;
use crate::math::Vector;
use std::collections::BinaryHeap;

impl<V: Vector> Bvh<V> {
    /// Visits the primitives in order of the distance from their leaf's box to
    /// `target` (a lower bound of the distance from anything in the leaf to
    /// anything in `target`), and stops once that lower bound exceeds the best
    /// distance found so far.
    ///
    /// `visit(slot)` tests one primitive exactly and returns the best distance
    /// known after it. Signed distances are fine: a leaf whose box meets
    /// `target` (box distance 0) bounds nothing (a primitive in it may
    /// penetrate deeper than any so far) and is always visited; a disjoint one
    /// is skipped once its box distance exceeds the best. Returns nothing; the
    /// caller keeps its best answer in the closure.
    pub fn nearest_to_box<F>(&self, target: &Aabb<V>, mut visit: F)
    where
        F: FnMut(u32) -> f32,
    {
        let Some(root) = self.nodes.first() else {
            return;
        };
        let mut best = f32::INFINITY;
        let mut heap: BinaryHeap<MinKey<u32>> = BinaryHeap::with_capacity(32);
        heap.push(MinKey(box_box_dist2(&root.aabb, target).sqrt(), 0));
        while let Some(MinKey(d, at)) = heap.pop() {
            if d > 0.0 && d > best {
                break;
            }
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                for s in node.slots() {
                    let b = visit(s);
                    if b < best {
                        best = b;
                    }
                }
                continue;
            }
            for c in [at + 1, node.index] {
                let dc = box_box_dist2(&self.nodes[c as usize].aabb, target).sqrt();
                if dc <= 0.0 || dc <= best {
                    heap.push(MinKey(dc, c));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::Aabb3;
    use crate::math::Vec3;

    /// Unit boxes along x at 0, 3, 6, ...: the nearest to a probe box is found
    /// and far leaves are never visited once a close one is known.
    #[test]
    fn finds_the_nearest_box_and_prunes_far_ones() {
        let boxes: Vec<Aabb3> = (0..64)
            .map(|i| {
                Aabb3::from_center_half_extents(
                    Vec3::new(3.0 * i as f32, 0.0, 0.0),
                    Vec3::splat(0.5),
                )
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        let probe = Aabb3::from_center_half_extents(Vec3::new(30.2, 2.0, 0.0), Vec3::splat(0.25));
        let mut best = (f32::INFINITY, u32::MAX);
        let mut visited = 0;
        bvh.nearest_to_box(&probe, |slot| {
            visited += 1;
            let i = bvh.primitive(slot);
            let d = box_box_dist2(&boxes[i as usize], &probe).sqrt();
            if d < best.0 {
                best = (d, i);
            }
            best.0
        });
        assert_eq!(best.1, 10);
        assert!((best.0 - 1.25).abs() < 1e-5, "{best:?}");
        assert!(visited < 16, "visited {visited} of 64");
    }

    /// An empty tree visits nothing.
    #[test]
    fn empty_tree_visits_nothing() {
        let bvh: Bvh<Vec3> = Bvh::build(&[]);
        bvh.nearest_to_box(&Aabb3::EMPTY, |_| panic!("no primitive"));
    }
}
