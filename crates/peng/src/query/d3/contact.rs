//! 3D contact manifolds.

use crate::math::Pose3;
use crate::query::types::Manifold3;
use crate::shape::d3::Shape;

/// The contact manifold of the pair when they overlap or are closer than
/// `prediction`; for compounds, the deepest of the part manifolds.
pub fn contact(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let _ = (a, pose_a, b, pose_b, prediction);
    todo!()
}

/// All contact manifolds of the pair (one per touching part pair of compounds),
/// appended to `out`.
pub fn contacts(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
    out: &mut Vec<Manifold3>,
) {
    let _ = (a, pose_a, b, pose_b, prediction, out);
    todo!()
}
