//! 3D ray casts.

use crate::math::Pose3;
use crate::query::types::{Ray3, RayHit3};
use crate::shape::d3::Shape;

/// The first hit of `ray` on the shape with `toi <= max_toi`. With `solid`, a ray
/// starting inside hits at `toi = 0`; without, it hits the boundary from inside.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose3,
    ray: &Ray3,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit3> {
    let _ = (shape, pose, ray, max_toi, solid);
    todo!()
}
