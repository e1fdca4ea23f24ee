//! Point projection on a triangle mesh.

use super::TriMesh;
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
    /// best-first search over the BVH with an f64 point–triangle projection.
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
        let mut found = None;
        let max_d2 = if max_dist.is_finite() {
            max_dist * max_dist
        } else {
            f32::INFINITY
        };
        let (slot, d2) = self.bvh.closest_point(p, max_d2, |s, best| {
            let (q, d2, f) = point_triangle(self.slot_corners(s), p);
            // Strict: keep the first of equal candidates.
            let better = found
                .as_ref()
                .is_none_or(|&(_, _, bd): &(u32, _, f32)| d2 < bd);
            if d2 <= best && better {
                found = Some((s, (q, f), d2));
                Some(d2)
            } else {
                None
            }
        })?;
        let (_, (point, feature), _) = found.filter(|f| f.0 == slot)?;
        Some(TriMeshProjection {
            point,
            distance: d2.sqrt(),
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
