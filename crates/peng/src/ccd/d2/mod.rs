//! 2D casts: moving circles (closed form), the swept separating-axis test for
//! polygons, linear casts of every convex pair and nonlinear casts.
//!
//! Every cast returns the first contact in `[0, options.max_time]` as a
//! [`CastHit2`] (time, witness points and normal at that time, from A to B),
//! or `None`. At the start time the rule is the same for all (see
//! `start.rs`): overlapping shapes (deeper than 1% of the tolerance, a
//! rounding slop) are [`CastStatus::Penetrating`] with the
//! minimum translation distance's depth, points and normal, whatever their
//! motion; shapes within the target distance plus the tolerance that are not
//! moving apart (B's witness point's velocity relative to A's, along the
//! normal, `<= 0`) are [`CastStatus::Touching`]; shapes touching and moving
//! apart are not a contact (a linear cast then returns `None`, as the
//! distance only grows; a nonlinear one looks for the next contact).
//!
//! Iterative casts stop within the tolerance ([`CastOptions::tolerance`]):
//! they may report contact early by at most that distance, never late, and
//! never miss one.
//!
//! [`CastStatus::Penetrating`]: crate::ccd::CastStatus::Penetrating
//! [`CastStatus::Touching`]: crate::ccd::CastStatus::Touching

// Comparisons written `!(x <= y)` on purpose: they are also true for NaN, which
// the casts turn into "no contact" instead of looping or panicking.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod circles;
mod composite;
mod convex;
mod gjk;
mod linear;
mod nonlinear;
mod simplex;
mod start;
mod swept_sat;

pub use circles::cast_circles;
pub use swept_sat::swept_sat;

use crate::ccd::{CastHit2, CastOptions, Motion2};
use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// The first contact of two shapes translating at constant velocities
/// (`vel_a`, `vel_b`, world space, per unit of time).
///
/// Every pair: two circles in closed form ([`cast_circles`]); other convex
/// pairs by the GJK ray cast of the origin against the Minkowski difference
/// (van den Bergen, "Ray Casting against General Convex Objects with
/// Application to Continuous Collision Detection", 2004), which only moves
/// forward to support planes and so is never late; a compound or polyline
/// (either side) by the earliest cast over its parts or segments whose boxes
/// meet the other shape's swept box (through its BVH).
///
/// The ray cast stops when the shapes are within the target distance plus
/// the tolerance (it moves from support plane to support plane, so on a
/// slow, grazing approach that can be well after the time they first came
/// within the tolerance, though never after they touch, beyond rounding);
/// should it not converge in 64 iterations (degenerate
/// input), it reports contact at the time reached, which is early, never
/// late. See the module docs for the start-time rule and the tolerance.
pub fn cast_linear(
    a: &Shape,
    pose_a: &Pose2,
    vel_a: Vec2,
    b: &Shape,
    pose_b: &Pose2,
    vel_b: Vec2,
    options: &CastOptions,
) -> Option<CastHit2> {
    let mut best = None;
    composite::linear(a, pose_a, vel_a, b, pose_b, vel_b, options, &mut best);
    best
}

/// The first contact of two shapes in rigid motion (translation plus
/// rotation, [`Motion2`]), by conservative advancement (Mirtich 1996): at
/// time `t` the distance `d` and normal `n`, a bound `μ` on how fast the gap
/// along `n` can shrink (`-n·(v_b - v_a) + |ω_a| r_a + |ω_b| r_b`, `r` the
/// shape's largest distance from its rotation centre), and a step of
/// `(d - target) / μ`, until the shapes are within the tolerance of the
/// target distance. Contact may be reported early by at most the tolerance,
/// never late, never missed. Compounds and polylines: the earliest over the
/// parts or segments that can be reached (through the BVH when the
/// composite does not turn).
///
/// Near-grazing approaches, where that bound converges slowly, switch to a
/// point-by-point bound on the slab of the current normal that converges
/// across the near-miss. Should the cast still not decide within
/// [`MAX_ADVANCE_STEPS`](crate::ccd::MAX_ADVANCE_STEPS) steps (the same
/// budget as in 3D), it returns a result with
/// [`CastStatus::Undecided`](crate::ccd::CastStatus::Undecided): no contact
/// before its `time` (certified), nothing decided after it, points and
/// normal the closest features at `time`; never a hit it has not found. A
/// composite's answer is the earliest over its parts: an undecided part at
/// `t` makes the whole undecided at `t` unless another part has a contact
/// at or before `t`. Shapes touching at the start and moving apart are followed in small safe
/// steps (the gap shrinks by at most the tolerance per step) until they
/// leave the tolerance band, then advanced as usual, so that a contact that
/// the rotation brings back later is found; if they do not leave the band
/// and were inside the target distance meanwhile, the start's contact is
/// reported ([`CastStatus::Touching`](crate::ccd::CastStatus::Touching)).
/// See the module docs for the start-time rule.
pub fn cast_nonlinear(
    a: &Shape,
    motion_a: &Motion2,
    b: &Shape,
    motion_b: &Motion2,
    options: &CastOptions,
) -> Option<CastHit2> {
    let mut best = None;
    composite::nonlinear(a, motion_a, b, motion_b, options, &mut best);
    best
}
