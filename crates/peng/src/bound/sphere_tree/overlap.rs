//! Tree-vs-tree overlap by simultaneous descent (Ericson, Real-Time Collision
//! Detection, 6.3.2: descend the larger volume first).

use super::SphereTree;
use crate::math::tolerance::REL_EPS;
use crate::math::{Pose2, Pose3, Vec2, Vec3, Vector};

impl<V: Vector> SphereTree<V> {
    /// Appends to `out` every pair `(item of self, item of other)` of leaves
    /// whose balls overlap (closed: touching counts) when `other`'s centres
    /// are mapped into this tree's frame by `to_self` (a rigid map: radii are
    /// kept). Pairs come in no particular order, each once.
    pub fn overlap_pairs_mapped(
        &self,
        other: &Self,
        to_self: impl Fn(V) -> V,
        out: &mut Vec<(u32, u32)>,
    ) {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let a = &self.nodes[i as usize];
            let b = &other.nodes[j as usize];
            let cb = to_self(b.ball.center);
            let d2 = (cb - a.ball.center).length_squared();
            let r = a.ball.radius + b.ball.radius;
            match (a.leaf_item(), b.leaf_item()) {
                (Some(ia), Some(ib)) => {
                    // The exact test of `BoundingBall::overlaps`.
                    if d2 <= r * r {
                        out.push((ia, ib));
                    }
                }
                (la, lb) => {
                    // Internal pair: a slack of a few ulps of the magnitudes
                    // involved covers the rounding of the mapped centres and
                    // of the enclosing balls, so no leaf pair is lost.
                    let scale = r + a.ball.center.abs().max_element() + cb.abs().max_element();
                    let rs = r + 16.0 * REL_EPS * scale;
                    if d2 > rs * rs {
                        continue;
                    }
                    // Split the larger ball (never a leaf).
                    let split_a = lb.is_some() || (la.is_none() && a.ball.radius >= b.ball.radius);
                    if split_a {
                        let second = a.second_child().unwrap_or(i + 1);
                        stack.push((second, j));
                        stack.push((i + 1, j));
                    } else {
                        let second = b.second_child().unwrap_or(j + 1);
                        stack.push((i, second));
                        stack.push((i, j + 1));
                    }
                }
            }
        }
    }
}

impl SphereTree<Vec2> {
    /// Appends to `out` every pair `(item of self, item of other)` of leaves
    /// whose circles overlap (touching counts) with this tree at `pose_a` and
    /// `other` at `pose_b`. The test runs in A's frame (`pose_a⁻¹ · pose_b`
    /// maps B's centres). Pairs come in no particular order, each once.
    pub fn overlap_pairs(
        &self,
        pose_a: &Pose2,
        other: &Self,
        pose_b: &Pose2,
        out: &mut Vec<(u32, u32)>,
    ) {
        let rel = pose_a.inv_mul(pose_b);
        self.overlap_pairs_mapped(other, |p: Vec2| rel.transform_point(p), out)
    }
}

impl SphereTree<Vec3> {
    /// Appends to `out` every pair `(item of self, item of other)` of leaves
    /// whose spheres overlap (touching counts) with this tree at `pose_a` and
    /// `other` at `pose_b`. The test runs in A's frame (`pose_a⁻¹ · pose_b`
    /// maps B's centres). Pairs come in no particular order, each once.
    pub fn overlap_pairs(
        &self,
        pose_a: &Pose3,
        other: &Self,
        pose_b: &Pose3,
        out: &mut Vec<(u32, u32)>,
    ) {
        let rel = pose_a.inv_mul(pose_b);
        self.overlap_pairs_mapped(other, |p: Vec3| rel.transform_point(p), out)
    }
}
