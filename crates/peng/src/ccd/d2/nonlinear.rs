//! Nonlinear casts of convex pairs (translation plus rotation) by
//! conservative advancement.
//!
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (PhD
//! thesis, 1996), ch. 5; Zhang, Redon, Lee, Kim, "Continuous Collision
//! Detection for Articulated Models using Taylor Models and Temporal
//! Culling" (2007) for the bound. At time `t` the shapes are `d` apart with
//! unit normal `n` (A to B). Along the fixed direction `n`, a point of B
//! moves at `v_b + ω_b × r`, `|r| <= r_b` (its distance from B's rotation
//! centre), and likewise for A, so the gap along `n` shrinks at most at
//! `μ = -n·(v_b - v_a) + |ω_a| r_a + |ω_b| r_b`. The shapes cannot come within
//! `target` before `t + (d - target) / μ`, so advancing by that step is safe
//! (never past the contact); `μ <= 0` means the gap along `n` never shrinks,
//! so there is no contact at all. (The brief's `|n·(v_b - v_a)|` is this
//! bound with the sign dropped; the signed form is tighter and as safe.)

use super::convex::{tolerance, Convex};
use super::gjk;
use super::start::{classify, Start};
use crate::ccd::{CastHit2, CastOptions, CastStatus, Motion2};
use crate::math::{Pose2, Vec2};
use crate::query::d2::distance;
use crate::shape::d2::Shape;

/// Cap on advancement steps. Reached only in near-grazing approaches; the
/// cast then reports contact at the time reached (early, never late).
const MAX_STEPS: usize = 256;

/// Cap on the small steps taken to leave a separating start contact.
const MAX_LEAVE_STEPS: usize = 1024;

/// The velocity of the world point `p` of a body in motion `m` at `pose`.
#[inline]
fn point_velocity(m: &Motion2, pose: &Pose2, p: Vec2) -> Vec2 {
    let c = pose.transform_point(m.local_center);
    m.linvel + (p - c).perp() * m.angvel
}

/// Signed distance, world points and world normal of the pair at `t`.
struct Gap {
    d: f32,
    point_a: Vec2,
    point_b: Vec2,
    normal: Vec2,
}

/// The gap of the two cores at the given poses (radii subtracted).
/// `hint`: a guess of the world normal (the previous step's), or zero.
fn gap(a: &Shape, ca: &Convex, pa: &Pose2, b: &Shape, cb: &Convex, pb: &Pose2, hint: Vec2) -> Gap {
    let g = gjk::distance(ca, cb, &pa.inv_mul(pb), pa.inverse_transform_vector(hint));
    if g.overlap {
        // The cores overlap or touch (no direction): at the start, or at a
        // contact of the cores themselves. The full query gives the minimum
        // translation or the touching normal.
        let d = distance(a, pa, b, pb);
        return Gap {
            d: d.distance,
            point_a: d.point_a,
            point_b: d.point_b,
            normal: d.normal,
        };
    }
    Gap {
        d: g.distance - ca.radius - cb.radius,
        point_a: pa.transform_point(g.a + g.normal * ca.radius),
        point_b: pa.transform_point(g.b - g.normal * cb.radius),
        normal: pa.transform_vector(g.normal),
    }
}

/// The nonlinear cast of two convex shapes (`None` for composite ones).
pub(crate) fn cast_convex(
    a: &Shape,
    motion_a: &Motion2,
    b: &Shape,
    motion_b: &Motion2,
    options: &CastOptions,
) -> Option<CastHit2> {
    let ca = Convex::from_shape(a)?;
    let cb = Convex::from_shape(b)?;
    let gap0 = motion_b.start.translation - motion_a.start.translation;
    let tol = tolerance(options.tolerance, &ca, &cb, gap0.length());
    let target = options.target_distance;
    let spin = motion_a.angvel.abs() * ca.reach(motion_a.local_center)
        + motion_b.angvel.abs() * cb.reach(motion_b.local_center);
    let vrel = motion_b.linvel - motion_a.linvel;
    let hit = |t: f32, g: &Gap| CastHit2 {
        time: t,
        point_a: g.point_a,
        point_b: g.point_b,
        normal: g.normal,
        depth: 0.0,
        status: CastStatus::Hit,
    };
    let mut t = 0.0f32;
    let (pa, pb) = (motion_a.start, motion_b.start);
    let mut g = gap(a, &ca, &pa, b, &cb, &pb, Vec2::ZERO);
    if g.d - target <= tol {
        let closing = |xa: Vec2, xb: Vec2, n: Vec2| {
            n.dot(point_velocity(motion_b, &pb, xb) - point_velocity(motion_a, &pa, xa))
        };
        match classify(0.0, a, &pa, b, &pb, tol, closing) {
            Start::Hit(h) => return Some(h),
            Start::Separating => {
                // Moving apart from a start contact: small safe steps (the
                // gap shrinks by at most `tol` per step) until the gap
                // exceeds the tolerance band, or the contact closes again.
                let bound = vrel.length() + spin;
                if !(bound > 0.0) {
                    return None;
                }
                let step = tol / bound;
                let mut left = false;
                for _ in 0..MAX_LEAVE_STEPS {
                    t += step;
                    if !(t <= options.max_time) {
                        return None;
                    }
                    let (pa, pb) = (motion_a.pose_at(t), motion_b.pose_at(t));
                    g = gap(a, &ca, &pa, b, &cb, &pb, g.normal);
                    if g.d - target > tol {
                        left = true;
                        break;
                    }
                    let v = point_velocity(motion_b, &pb, g.point_b)
                        - point_velocity(motion_a, &pa, g.point_a);
                    if g.normal.dot(v) <= 0.0 {
                        return Some(hit(t, &g));
                    }
                }
                if !left {
                    return Some(hit(t, &g));
                }
            }
        }
    }
    for _ in 0..MAX_STEPS {
        if g.d - target <= tol {
            return Some(hit(t, &g));
        }
        let mu = -g.normal.dot(vrel) + spin;
        if !(mu > 0.0) {
            return None;
        }
        t += (g.d - target) / mu;
        if !(t <= options.max_time) {
            return None;
        }
        g = gap(
            a,
            &ca,
            &motion_a.pose_at(t),
            b,
            &cb,
            &motion_b.pose_at(t),
            g.normal,
        );
    }
    Some(hit(t, &g))
}
