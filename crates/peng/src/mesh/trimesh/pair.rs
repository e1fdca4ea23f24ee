//! Mesh against mesh: which triangle pairs intersect, and the distance.

use super::TriMesh;
use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::mesh::bvh::box_box_dist2;
use crate::mesh::geom::closest3::triangle_triangle64;
use crate::mesh::geom::tri_tri::intersection_point64;
use glam::DVec3;

/// Two intersecting triangles, one of each mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrianglePair {
    /// Triangle of the first mesh (`self`).
    pub a: u32,
    /// Triangle of the second mesh (`other`).
    pub b: u32,
}

/// The closest points of two meshes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshDistance {
    /// Distance between the surfaces; zero when they intersect (meshes are
    /// surfaces here: no penetration depth).
    pub distance: f32,
    /// Closest point on the first mesh, world space.
    pub point_a: Vec3,
    /// Closest point on the second mesh, world space.
    pub point_b: Vec3,
    /// The triangle of the first mesh holding `point_a`.
    pub triangle_a: u32,
    /// The triangle of the second mesh holding `point_b`.
    pub triangle_b: u32,
}

#[inline]
/// How far `t` lies beyond the plane of `p` when all its corners are on one
/// side (a lower bound of the distance between the two triangles), else 0;
/// 0 for a degenerate `p`.
fn plane_gap(p: &[DVec3; 3], t: &[DVec3; 3]) -> f64 {
    let Some(n) = (p[1] - p[0]).cross(p[2] - p[0]).try_normalize() else {
        return 0.0;
    };
    let d = t.map(|v| n.dot(v - p[0]));
    let (lo, hi) = (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]));
    if lo > 0.0 {
        lo
    } else if hi < 0.0 {
        -hi
    } else {
        0.0
    }
}

/// The squared distance between the boxes of two triangles: a lower bound
/// of the squared distance between the triangles, from 18 comparisons.
fn box_gap2(p: &[DVec3; 3], t: &[DVec3; 3]) -> f64 {
    let (plo, phi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    let (tlo, thi) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
    let gap = (plo - thi).max(tlo - phi).max(DVec3::ZERO);
    gap.length_squared()
}

fn to64(t: &[Vec3; 3]) -> [DVec3; 3] {
    t.map(|v| v.as_dvec3())
}

impl TriMesh {
    /// Calls `f(a, b)` for every pair of intersecting (closed) triangles, `a` of
    /// this mesh at `pose_a` and `b` of `other` at `pose_b`, each pair once.
    ///
    /// Works in this mesh's frame: the two BVHs are walked together (with
    /// `other`'s boxes conservatively moved by the relative pose), and each
    /// candidate pair passes a box test and then the exact triangle–triangle
    /// test (coplanar and zero-area triangles included).
    pub fn for_each_intersecting_pair<F>(
        &self,
        pose_a: &Pose3,
        other: &TriMesh,
        pose_b: &Pose3,
        mut f: F,
    ) where
        F: FnMut(TrianglePair),
    {
        let rel = pose_a.inv_mul(pose_b);
        let moved = |t: &[Vec3; 3]| t.map(|v| rel.transform_point(v));
        self.bvh.overlapping_leaves(
            &other.bvh,
            |b| b.transformed(&rel),
            |ra, rb| {
                for sb in rb {
                    let tb = moved(other.slot_corners(sb));
                    let bb = Aabb3::from_points(tb);
                    let tb64 = to64(&tb);
                    for sa in ra.clone() {
                        let ta = self.slot_corners(sa);
                        if !Aabb3::from_points(*ta).overlaps(&bb) {
                            continue;
                        }
                        if intersection_point64(&to64(ta), &tb64).is_some() {
                            f(TrianglePair {
                                a: self.bvh.primitive(sa),
                                b: other.bvh.primitive(sb),
                            });
                        }
                    }
                }
            },
        );
    }

    /// Every pair of intersecting triangles (see
    /// [`TriMesh::for_each_intersecting_pair`]), sorted.
    pub fn intersecting_pairs(
        &self,
        pose_a: &Pose3,
        other: &TriMesh,
        pose_b: &Pose3,
    ) -> Vec<TrianglePair> {
        let mut out = Vec::new();
        self.for_each_intersecting_pair(pose_a, other, pose_b, |p| out.push(p));
        out.sort_unstable();
        out
    }

    /// Whether some triangle of this mesh at `pose_a` intersects some triangle
    /// of `other` at `pose_b` (stops at the first pair found).
    pub fn intersects_mesh(&self, pose_a: &Pose3, other: &TriMesh, pose_b: &Pose3) -> bool {
        self.distance_to_mesh_within(pose_a, other, pose_b, 0.0)
            .is_some_and(|d| d.distance <= 0.0)
    }

    /// The closest points of the two meshes' surfaces (see
    /// [`TriMesh::distance_to_mesh_within`]).
    pub fn distance_to_mesh(
        &self,
        pose_a: &Pose3,
        other: &TriMesh,
        pose_b: &Pose3,
    ) -> MeshDistance {
        self.distance_to_mesh_within(pose_a, other, pose_b, f32::INFINITY)
            .unwrap_or(MeshDistance {
                // Only reached with non-finite poses.
                distance: f32::INFINITY,
                point_a: pose_a.translation,
                point_b: pose_b.translation,
                triangle_a: 0,
                triangle_b: 0,
            })
    }

    /// The closest points of the two meshes' surfaces, when they are within
    /// `max_dist`; zero distance (with a common point) when they intersect.
    ///
    /// Branch and bound over pairs of BVH nodes, nearest box pair first (see
    /// [`Bvh::closest_pair`](crate::mesh::Bvh::closest_pair)); each triangle
    /// pair is measured in f64 (6 vertex–face and 9 edge–edge closest points,
    /// after an intersection test).
    pub fn distance_to_mesh_within(
        &self,
        pose_a: &Pose3,
        other: &TriMesh,
        pose_b: &Pose3,
        max_dist: f32,
    ) -> Option<MeshDistance> {
        let rel = pose_a.inv_mul(pose_b);
        let max_d2 = if max_dist.is_finite() {
            max_dist * max_dist
        } else {
            f32::INFINITY
        };
        let mut found: Option<(f32, DVec3, DVec3)> = None;
        let inv = rel.inverse();
        let (sa, sb, _) = self.bvh.closest_pair(
            &other.bvh,
            // B's box moved into A's frame and A's into B's: each grows the
            // moved box, so each gap is a lower bound, and the larger is
            // the tighter (the boxes' own axes differ).
            |a, b| {
                box_box_dist2(a, &b.transformed(&rel)).max(box_box_dist2(&a.transformed(&inv), b))
            },
            max_d2,
            |sa, sb, best| {
                let ta = to64(self.slot_corners(sa));
                let tb = other
                    .slot_corners(sb)
                    .map(|v| rel.transform_point(v).as_dvec3());
                // A cheap lower bound first: when one triangle lies wholly
                // beyond the other's plane, they are at least that far apart.
                if best.is_finite() {
                    if box_gap2(&ta, &tb) > f64::from(best) {
                        return None;
                    }
                    let gap = plane_gap(&ta, &tb).max(plane_gap(&tb, &ta));
                    if gap > 0.0 && gap * gap > f64::from(best) {
                        return None;
                    }
                }
                let (d2, pa, pb) = triangle_triangle64(&ta, &tb);
                let d2 = d2 as f32;
                let better = found.is_none_or(|f| d2 < f.0);
                if d2 <= best && better {
                    found = Some((d2, pa, pb));
                    Some(d2)
                } else {
                    None
                }
            },
        )?;
        let (d2, pa, pb) = found?;
        Some(MeshDistance {
            distance: d2.sqrt(),
            point_a: pose_a.transform_point(pa.as_vec3()),
            point_b: pose_a.transform_point(pb.as_vec3()),
            triangle_a: self.bvh.primitive(sa),
            triangle_b: other.bvh.primitive(sb),
        })
    }
}
