//! 2D pair queries, dispatched on [`Shape`](crate::shape::d2::Shape).

use crate::math::{Pose2, Vec2};
use crate::query::types::{Distance2, Manifold2, PointProjection2, Ray2, RayHit2};
use crate::shape::d2::Shape;

/// Whether the two shapes overlap (touching counts).
pub fn intersects(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> bool {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// The contact manifold of the pair when they overlap or are closer than
/// `prediction`; for compounds, the deepest of the part manifolds.
pub fn contact(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Option<Manifold2> {
    let _ = (a, pose_a, b, pose_b, prediction);
    todo!()
}

/// All contact manifolds of the pair (one per touching part pair of compounds),
/// appended to `out`.
pub fn contacts(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
    out: &mut Vec<Manifold2>,
) {
    let _ = (a, pose_a, b, pose_b, prediction, out);
    todo!()
}

/// Signed distance and closest points (deepest points when overlapping).
pub fn distance(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> Distance2 {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// The first hit of `ray` on the shape with `toi <= max_toi`. With `solid`, a ray
/// starting inside hits at `toi = 0`; without, it hits the boundary from inside.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose2,
    ray: &Ray2,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit2> {
    let _ = (shape, pose, ray, max_toi, solid);
    todo!()
}

/// The closest point of the shape to `point`. With `solid`, a point inside
/// projects to itself.
pub fn project_point(shape: &Shape, pose: &Pose2, point: Vec2, solid: bool) -> PointProjection2 {
    let _ = (shape, pose, point, solid);
    todo!()
}

/// Whether the shape contains `point` (boundary included).
pub fn contains_point(shape: &Shape, pose: &Pose2, point: Vec2) -> bool {
    let _ = (shape, pose, point);
    todo!()
}
