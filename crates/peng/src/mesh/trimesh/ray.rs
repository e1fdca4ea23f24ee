//! Ray casts against a triangle mesh.

use super::TriMesh;
use crate::math::{Pose3, Vec3};
use crate::mesh::geom::ray_tri::WatertightRay;
use crate::query::types::{Ray3, RayHit3};

/// A ray hit on a mesh: the hit and the triangle hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriMeshRayHit {
    /// Parameter, point and normal (facing against the ray).
    pub hit: RayHit3,
    /// Index of the triangle hit.
    pub triangle: u32,
}

/// The unit normal of triangle `t` facing against `dir`. A zero-area triangle
/// (which the watertight test does not hit, save for rounding) gets `-dir`.
pub(crate) fn facing_normal(t: &[Vec3; 3], dir: Vec3) -> Vec3 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let n = n
        .try_normalize()
        .unwrap_or_else(|| -dir.normalize_or(Vec3::X));
    if n.dot(dir) > 0.0 {
        -n
    } else {
        n
    }
}

impl TriMesh {
    /// The first triangle hit by the ray `origin + t·dir`, `0 <= t <= max_toi`,
    /// in the mesh's frame. Triangles are two-sided; a ray starting on or
    /// inside a closed mesh hits its surface from inside (meshes are not solid
    /// for ray casts). `dir` must not be zero.
    ///
    /// Uses the watertight ray/triangle test, so rays through shared edges or
    /// vertices of the mesh do not slip through.
    pub fn cast_local_ray(&self, origin: Vec3, dir: Vec3, max_toi: f32) -> Option<TriMeshRayHit> {
        let ray = WatertightRay::new(origin, dir);
        let (slot, t) = self.bvh.cast_ray(origin, dir, max_toi, |s, best| {
            let c = self.slot_corners(s);
            ray.hit(c[0], c[1], c[2], best).map(|h| h.t)
        })?;
        let c = self.slot_corners(slot);
        Some(TriMeshRayHit {
            hit: RayHit3 {
                toi: t,
                point: origin + dir * t,
                normal: facing_normal(c, dir),
            },
            triangle: self.bvh.primitive(slot),
        })
    }

    /// Whether the ray hits some triangle at `0 <= t <= max_toi` (any-hit: stops
    /// at the first triangle found), in the mesh's frame.
    pub fn intersects_local_ray(&self, origin: Vec3, dir: Vec3, max_toi: f32) -> bool {
        let ray = WatertightRay::new(origin, dir);
        self.bvh.ray_any(origin, dir, max_toi, |s| {
            let c = self.slot_corners(s);
            ray.hit(c[0], c[1], c[2], max_toi).is_some()
        })
    }

    /// [`TriMesh::cast_local_ray`] for a world-space ray and the mesh at `pose`;
    /// the hit is in world space.
    pub fn cast_ray(&self, pose: &Pose3, ray: &Ray3, max_toi: f32) -> Option<TriMeshRayHit> {
        let o = pose.inverse_transform_point(ray.origin);
        let d = pose.inverse_transform_vector(ray.dir);
        let mut h = self.cast_local_ray(o, d, max_toi)?;
        h.hit.point = ray.at(h.hit.toi);
        h.hit.normal = pose.transform_vector(h.hit.normal);
        Some(h)
    }

    /// [`TriMesh::intersects_local_ray`] for a world-space ray and the mesh at
    /// `pose`.
    pub fn intersects_ray(&self, pose: &Pose3, ray: &Ray3, max_toi: f32) -> bool {
        let o = pose.inverse_transform_point(ray.origin);
        let d = pose.inverse_transform_vector(ray.dir);
        self.intersects_local_ray(o, d, max_toi)
    }
}
