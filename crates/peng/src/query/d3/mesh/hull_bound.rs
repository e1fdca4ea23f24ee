//! Distance between a mesh and a shape it does not touch, through the mesh's
//! convex hull (kept by [`TriMesh::with_convex_hull`]).
//!
//! A mesh lies inside its hull, so the distance `h` of the stand-ins (a
//! mesh's hull, or a convex shape itself) is a lower bound on the true
//! distance `d`. Projecting the hulls' closest points onto the surfaces gives
//! a point of each shape, so their distance `u` is an upper bound:
//! `h <= d <= u`. When `u - h` is within rounding, `u` (with its points) is
//! the answer; otherwise `u` bounds the triangle search.

use crate::math::{Pose3, Vec3};
use crate::mesh::TriMesh;
use crate::query::d3::distance::local_distance as convex_distance;
use crate::query::gjk::{GjkStatus, SignedDistance};
use crate::shape::d3::Shape;
use std::borrow::Cow;

/// What the hulls tell about a pair's distance.
pub(crate) enum HullBound {
    /// The distance, with closest points on the surfaces.
    Exact(SignedDistance),
    /// An upper bound on the distance (the shapes are apart).
    Upper(f32),
    /// Nothing: a side without a hull, or hulls that touch.
    Unknown,
}

/// Rounding allowance on `u - h`, in units of the coordinates' magnitude:
/// the projection and the hulls' distance are each good to a few f32 ulps.
const ROUNDING: f32 = 8.0 * f32::EPSILON;

/// The convex stand-in of a shape, and its mesh when it stands for one.
fn stand_in(s: &Shape) -> Option<(Cow<'_, Shape>, Option<&TriMesh>)> {
    match s {
        Shape::TriMesh(m) => {
            let hull = m.convex_hull()?;
            Some((Cow::Owned(Shape::Polyhedron(hull.clone())), Some(m)))
        }
        _ if s.is_bounded_convex() => Some((Cow::Borrowed(s), None)),
        _ => None,
    }
}

/// The point of `mesh` (placed by `pose`, `None`: the shape itself) nearest
/// to `p`, a point on its stand-in's surface.
fn onto_surface(mesh: Option<&TriMesh>, pose: &Pose3, p: Vec3) -> Vec3 {
    match mesh {
        Some(m) => m.project_point(pose, p).point,
        None => p,
    }
}

/// The hulls' bound on the distance of `a` and `b` (B placed by `pose_ab`
/// in A's frame), at least one of them a triangle mesh.
pub(crate) fn through_hulls(a: &Shape, b: &Shape, pose_ab: &Pose3) -> HullBound {
    let (Some((ha, ma)), Some((hb, mb))) = (stand_in(a), stand_in(b)) else {
        return HullBound::Unknown;
    };
    let h = convex_distance(&ha, &hb, pose_ab);
    if h.status != GjkStatus::Separated || h.distance.is_nan() || h.distance <= 0.0 {
        return HullBound::Unknown;
    }
    let pa = onto_surface(ma, &Pose3::IDENTITY, h.point_a);
    let pb = onto_surface(mb, pose_ab, h.point_b);
    let gap = pb - pa;
    let u = gap.length();
    let scale = pa.abs().max(pb.abs()).max_element().max(1.0);
    match gap.try_normalize() {
        Some(normal) if u - h.distance <= ROUNDING * scale => HullBound::Exact(SignedDistance {
            distance: u,
            point_a: pa,
            point_b: pb,
            normal,
            status: GjkStatus::Separated,
        }),
        _ if u.is_finite() => HullBound::Upper(u),
        _ => HullBound::Unknown,
    }
}

/// The upper bound to search within: a little over `u`, so that rounding
/// cannot leave the pair that gave it outside.
pub(crate) fn search_limit(u: f32, scale: f32) -> f32 {
    u + ROUNDING * scale.max(u)
}
