//! 3D distance, closest points and overlap.

use crate::math::Pose3;
use crate::query::types::Distance3;
use crate::shape::d3::Shape;

/// Whether the two shapes overlap (touching counts).
pub fn intersects(a: &Shape, pose_a: &Pose3, b: &Shape, pose_b: &Pose3) -> bool {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// Signed distance and closest points (deepest points and the MTD normal when
/// overlapping).
pub fn distance(a: &Shape, pose_a: &Pose3, b: &Shape, pose_b: &Pose3) -> Distance3 {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}
