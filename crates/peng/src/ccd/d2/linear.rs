//! Linear casts of convex pairs: circles in closed form, everything else by
//! the GJK ray cast on the Minkowski difference (conservative advancement
//! when that runs out of iterations).

use super::circles::cast_circles;
use super::convex::{tolerance, Convex};
use super::gjk;
use super::start::{classify, Start};
use crate::ccd::{CastHit2, CastOptions, CastStatus, Motion2};
use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// The linear cast of two convex shapes (`None` for composite ones).
#[inline]
pub(crate) fn cast_convex(
    a: &Shape,
    pose_a: &Pose2,
    vel_a: Vec2,
    b: &Shape,
    pose_b: &Pose2,
    vel_b: Vec2,
    options: &CastOptions,
) -> Option<CastHit2> {
    if let (Shape::Circle(ka), Shape::Circle(kb)) = (a, b) {
        return cast_circles(
            pose_a.translation,
            ka.radius(),
            vel_a,
            pose_b.translation,
            kb.radius(),
            vel_b,
            options,
        );
    }
    let ca = Convex::from_shape(a)?;
    let cb = Convex::from_shape(b)?;
    let tol = tolerance(
        options.tolerance,
        &ca,
        &cb,
        (pose_b.translation - pose_a.translation).length(),
    );
    let rel = pose_a.inv_mul(pose_b);
    let vw = vel_b - vel_a;
    let v = pose_a.rotation.inv_rotate(vw);
    let sigma = ca.radius + cb.radius + options.target_distance;
    let c = gjk::cast(&ca, &cb, &rel, v, sigma, options.max_time, tol)?;
    if !c.converged {
        return advance(a, pose_a, vel_a, b, pose_b, vel_b, options);
    }
    if c.time <= 0.0 {
        return match classify(0.0, a, pose_a, b, pose_b, tol, |_, _, n| n.dot(vw)) {
            Start::Hit(h) => Some(h),
            Start::Separating => None,
        };
    }
    let at = Pose2 {
        translation: pose_a.translation + vel_a * c.time,
        rotation: pose_a.rotation,
    };
    Some(CastHit2 {
        time: c.time,
        point_a: at.transform_point(c.a + c.normal * ca.radius),
        point_b: at.transform_point(c.b - c.normal * cb.radius),
        normal: at.transform_vector(c.normal),
        depth: 0.0,
        status: CastStatus::Hit,
    })
}

/// When the GJK ray cast runs out of iterations (rounding): conservative
/// advancement decides, with the same rule as the nonlinear casts (a hit, or
/// `Undecided` when its step budget runs out), never a hit that is not there.
#[cold]
#[inline(never)]
fn advance(
    a: &Shape,
    pose_a: &Pose2,
    vel_a: Vec2,
    b: &Shape,
    pose_b: &Pose2,
    vel_b: Vec2,
    options: &CastOptions,
) -> Option<CastHit2> {
    super::nonlinear::cast_convex(
        a,
        &Motion2::linear(*pose_a, vel_a),
        b,
        &Motion2::linear(*pose_b, vel_b),
        options,
    )
}
