//! Point projection on a triangle mesh.

use super::TriMesh;
use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::mesh::geom::closest3::point_triangle;
use crate::mesh::TriangleFeature;

/// The closest point of a mesh to a query point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriMeshProjection {
    /// The closest point on the mesh's surface.
    pub point: Vec3,
    /// The distance from the query point to `point`.
    pub distance: f32,
    /// The triangle `point` lies on.
    pub triangle: u32,
    /// Where on that triangle: its face, an edge or a vertex.
    pub feature: TriangleFeature,
}

impl TriMesh {
    /// The point of the mesh's surface closest to `p` (mesh frame), found by
    /// depth-first branch and bound over the BVH with an f64 point–triangle
    /// projection.
    /// Ties between triangles go to the one met first (deterministic).
    pub fn project_local_point(&self, p: Vec3) -> TriMeshProjection {
        self.project_local_point_within(p, f32::INFINITY)
            .unwrap_or(TriMeshProjection {
                // Unreachable for a valid mesh (it has a triangle); kept
                // panic-free for non-finite `p`.
                point: self.vertices[0],
                distance: f32::INFINITY,
                triangle: 0,
                feature: TriangleFeature::Vertex(0),
            })
    }

    /// Like [`TriMesh::project_local_point`], but only looks for points within
    /// `max_dist` of `p` (`None` when there is none): cheaper for short ranges.
    pub fn project_local_point_within(&self, p: Vec3, max_dist: f32) -> Option<TriMeshProjection> {
        let max_d2 = if max_dist.is_finite() {
            max_dist * max_dist
        } else {
            f32::INFINITY
        };
        let nodes = self.bvh.nodes();
        let root = nodes.first()?;
        // Depth-first branch and bound, nearer child first (Ericson, Real-Time
        // Collision Detection, 6.2.2 descent rules, applied to a point): the
        // first leaves reached are near `p`, so the best distance shrinks
        // early and whole subtrees are cut by their box distance. A stack of
        // (node, box distance) pairs replaces a priority queue; an entry is
        // re-checked against the best distance when it is popped.
        let mut best_d2 = max_d2;
        let mut found: Option<(u32, Vec3, TriangleFeature)> = None;
        let mut stack: Vec<(u32, f32)> = Vec::with_capacity(64);
        let mut at = 0u32;
        let mut d_at = box_dist2(&root.aabb, p);
        loop {
            if d_at <= best_d2 {
                let node = &nodes[at as usize];
                if let Some((l, r)) = node.children(at) {
                    let dl = box_dist2(&nodes[l as usize].aabb, p);
                    let dr = box_dist2(&nodes[r as usize].aabb, p);
                    let (near, far) = if dl <= dr {
                        ((l, dl), (r, dr))
                    } else {
                        ((r, dr), (l, dl))
                    };
                    if far.1 <= best_d2 {
                        stack.push(far);
                    }
                    (at, d_at) = near;
                    continue;
                }
                for s in node.slots() {
                    let (q, d2, f) = point_triangle(self.slot_corners(s), p);
                    // Strict: of equal distances the first met is kept.
                    if d2 <= best_d2 && found.is_none_or(|_| d2 < best_d2) {
                        best_d2 = d2;
                        found = Some((s, q, f));
                    }
                }
            }
            let Some(next) = stack.pop() else {
                break;
            };
            (at, d_at) = next;
        }
        let (slot, point, feature) = found?;
        Some(TriMeshProjection {
            point,
            distance: best_d2.sqrt(),
            triangle: self.bvh.primitive(slot),
            feature,
        })
    }

    /// [`TriMesh::project_local_point`] for a world-space point and the mesh at
    /// `pose`; the projection is in world space.
    pub fn project_point(&self, pose: &Pose3, p: Vec3) -> TriMeshProjection {
        let mut r = self.project_local_point(pose.inverse_transform_point(p));
        r.point = pose.transform_point(r.point);
        r
    }
}

/// Squared distance from `p` to the closed box (zero inside): a lower bound
/// of the distance to anything in the box.
#[inline(always)]
fn box_dist2(b: &Aabb3, p: Vec3) -> f32 {
    let d = (b.min - p).max(p - b.max).max(Vec3::ZERO);
    d.length_squared()
}
