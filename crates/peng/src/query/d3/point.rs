//! 3D point queries.

use crate::math::{Pose3, Vec3};
use crate::query::types::PointProjection3;
use crate::shape::d3::Shape;

/// The closest point of the shape to `point`. With `solid`, a point inside
/// projects to itself.
pub fn project_point(shape: &Shape, pose: &Pose3, point: Vec3, solid: bool) -> PointProjection3 {
    let _ = (shape, pose, point, solid);
    todo!()
}

/// Whether the shape contains `point` (boundary included).
pub fn contains_point(shape: &Shape, pose: &Pose3, point: Vec3) -> bool {
    let _ = (shape, pose, point);
    todo!()
}
