//! The status of a cast that finds contact at its start time.
//!
//! Rule (shared by every cast): at the start time, shapes that overlap
//! (signed distance `< -slop`, `slop` = 1% of the tolerance, so that a
//! contact built exactly touching is not called penetrating for a rounding
//! error) give [`CastStatus::Penetrating`] with the minimum
//! translation distance's depth, points and normal, whatever their motion (as
//! parry's `stop_at_penetration`). Shapes within the target distance plus the
//! tolerance but not overlapping give [`CastStatus::Touching`] when the
//! velocity of B's witness point relative to A's, along the normal, is not
//! separating (`<= 0`); when it is separating, the caller decides (a linear
//! cast then reports no contact: the distance of convex shapes under a
//! translation is a convex function of time, so it only grows).

use crate::ccd::{CastHit2, CastStatus};
use crate::math::{Pose2, Vec2};
use crate::query::d2::distance;
use crate::shape::d2::Shape;

/// What the start time looks like.
pub(crate) enum Start {
    /// A hit at the start time (penetrating or touching).
    Hit(CastHit2),
    /// Within contact distance but moving apart.
    Separating,
}

/// Classifies the pair at the start time `time` (poses at that time);
/// `tol` is the cast's tolerance.
/// `closing(point_a, point_b, normal)` is the normal velocity of B's point
/// relative to A's (negative when approaching).
pub(crate) fn classify(
    time: f32,
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    tol: f32,
    closing: impl Fn(Vec2, Vec2, Vec2) -> f32,
) -> Start {
    let d = distance(a, pose_a, b, pose_b);
    let mut hit = CastHit2 {
        time,
        point_a: d.point_a,
        point_b: d.point_b,
        normal: d.normal,
        depth: 0.0,
        status: CastStatus::Touching,
    };
    if d.distance < -0.01 * tol {
        hit.status = CastStatus::Penetrating;
        hit.depth = -d.distance;
        return Start::Hit(hit);
    }
    if closing(d.point_a, d.point_b, d.normal) <= 0.0 {
        Start::Hit(hit)
    } else {
        Start::Separating
    }
}
