//! Nonlinear casts (translation plus rotation) by conservative advancement.
//!
//! Mirtich, "Impulse-based dynamic simulation of rigid body systems" (1996),
//! 4.3; Zhang, Redon, Lee, Kim, "Continuous collision detection for
//! articulated models using Taylor models and temporal culling" (SIGGRAPH
//! 2007, the C2A bound). At time `t` the distance `d` and unit normal `n` (from
//! A to B) are computed. A point `p` of a body turning at `ω` about an axis
//! through `c` has velocity `v + ω × (p − c)`; its component along a unit `n`
//! is `n·v + (p − c)·(n × ω)`, and since `n × ω` is perpendicular to the axis
//! the second term is at most `|n × ω|·ρ` in size, `ρ` the body's largest
//! distance from its rotation axis (which turning about that axis does not
//! change). Hence:
//!
//! - convex pairs: the slab of width `d` between the support planes along the
//!   fixed `n` separates the shapes while it lasts, and it shrinks no faster
//!   than `μ = max(0, −n·(v_b − v_a)) + |n × ω_a|·ρ_a + |n × ω_b|·ρ_b`
//!   (Mirtich's bound with `|ω|·r` tightened to the part of the rotation
//!   that moves points along `n`);
//! - any pair (compounds, meshes): the distance is Lipschitz with constant
//!   `L = |v_b − v_a| + |ω_a|·ρ_a + |ω_b|·ρ_b` (the largest relative speed of
//!   two body points).
//!
//! So the shapes stay more than `target` apart until `t + (d − target)/μ`;
//! the cast advances there and stops once `d <= target + tol`. The reported
//! time is therefore never late and never past a contact; it is early by at
//! most the time the last `tol` of distance takes. A cast that cannot decide
//! (its step budget [`MAX_ADVANCE_STEPS`] spent, [`MAX_COMPOSITE_ADVANCE_STEPS`]
//! with a compound, mesh or height field, or no finite `μ`) returns
//! [`CastStatus::Undecided`] at the time reached, never a hit it has not
//! found.

use super::common::{axis_radius, local_radius, size, start_rule, tolerance, Start};
use crate::ccd::{
    tolerance_size, CastHit3, CastOptions, CastStatus, Motion3, MAX_ADVANCE_STEPS,
    MAX_COMPOSITE_ADVANCE_STEPS,
};
use crate::math::{Pose3, Vec3};
use crate::query::d3::{distance, distance_cached};
use crate::query::gjk::GjkCache;
use crate::query::types::Distance3;
use crate::shape::d3::Shape;

/// Steps taken to leave a touching-and-separating start before the contact
/// is reported as touching.
const MAX_LEAVING_STEPS: usize = 64;

/// The first time within `[0, options.max_time]` at which two shapes moving
/// by `motion_a` and `motion_b` (constant linear and angular velocities, see
/// [`Motion3::pose_at`]) come within `options.target_distance`, or `None`.
///
/// Conservative advancement (module docs): the time is never late and the
/// contact never missed; it may be early by the time the shapes take to close
/// the last `tolerance` of distance. Works for every shape pair whose
/// [`distance`] is defined: convex pairs with the slab bound, compounds,
/// triangle meshes and height fields with the Lipschitz bound. A rotating
/// half-space uses, instead of its (infinite) radius, the bound
/// `|c_b − c_a| + r_b + |v_b − v_a|·max_time` on the distance from its centre
/// to any point of the other shape during the motion (the height of a point
/// of B above the rotating plane changes at most at the speed of A's
/// material point at the same place); over an unbounded `max_time` there is
/// no such bound, and the cast returns [`CastStatus::Undecided`] at the
/// time reached. Two half-spaces give only a start hit. After
/// [`MAX_ADVANCE_STEPS`] advancement steps (the same budget as in 2D, far
/// above the typical 5 to 15; a pair needs many only when the bound greatly
/// overestimates the approach: fast spin, slow true approach), or
/// [`MAX_COMPOSITE_ADVANCE_STEPS`] when a compound, mesh or height field
/// takes part (each step a query over its parts), the cast also
/// returns [`CastStatus::Undecided`]: no contact before its `time`
/// (certified), nothing decided after it, points and normal the closest
/// features at `time`. It never reports a hit it has not found.
///
/// The start rule of the module docs applies; a touching start that is
/// separating (the witness points' normal relative velocity `> 0`) is
/// followed forward in steps short enough that no overlap deeper than the
/// tolerance can be skipped, and the search resumes once the shapes are
/// apart. If they turn back (or the steps run out) before that, the contact
/// is where they turn when they stayed at least the target apart, else at
/// the start ([`CastStatus::Touching`]): a time past a configuration already
/// inside the target would be late.
pub fn cast_nonlinear(
    a: &Shape,
    motion_a: &Motion3,
    b: &Shape,
    motion_b: &Motion3,
    options: &CastOptions,
) -> Option<CastHit3> {
    advance(a, motion_a, b, motion_b, 0.0, options)
}

/// The centre of a motion's rotation at time `t` (world).
#[inline]
fn center_at(m: &Motion3, t: f32) -> Vec3 {
    m.start.transform_point(m.local_center) + m.linvel * t
}

/// Velocity of the material point at `p` (world) at time `t`.
#[inline]
fn point_velocity(m: &Motion3, p: Vec3, t: f32) -> Vec3 {
    m.linvel + m.angvel.cross(p - center_at(m, t))
}

/// Conservative advancement from `t0` (a time known to be before any contact
/// other than one at `t0` itself); the start rule applies at `t0`.
pub(super) fn advance(
    a: &Shape,
    ma: &Motion3,
    b: &Shape,
    mb: &Motion3,
    t0: f32,
    options: &CastOptions,
) -> Option<CastHit3> {
    let max_time = options.max_time;
    let target = options.target_distance.max(0.0);
    if !(t0 <= max_time) {
        return None;
    }
    let dv = mb.linvel - ma.linvel;
    let (ca0, cb0) = (center_at(ma, 0.0), center_at(mb, 0.0));
    let (wa, wb) = (ma.angvel.length(), mb.angvel.length());
    // Radii about the rotation axes (the points' distances from the axis
    // fix their speeds; they do not change as the body turns about it).
    let axis_r = |s: &Shape, m: &Motion3, w: f32| {
        if w > 0.0 {
            let axis = m.start.inverse_transform_vector(m.angvel / w);
            axis_radius(s, m.local_center, axis)
        } else {
            0.0
        }
    };
    let mut ra = axis_r(a, ma, wa);
    let mut rb = axis_r(b, mb, wb);
    // (Without relative motion the offset never grows, even over an
    // unbounded time: `0 · ∞` would be NaN.)
    let travel = if dv == Vec3::ZERO {
        0.0
    } else {
        dv.length() * max_time.abs()
    };
    let reach = (cb0 - ca0).length() + travel;
    let mut convex = is_convex(a) && is_convex(b);
    if wa > 0.0 && ra.is_infinite() {
        ra = reach + local_radius(b, mb.local_center);
        convex = false;
    }
    if wb > 0.0 && rb.is_infinite() {
        rb = reach + local_radius(a, ma.local_center);
        convex = false;
    }
    let spin = |w: f32, r: f32| if w > 0.0 { w * r } else { 0.0 };
    let angular = spin(wa, ra) + spin(wb, rb);
    let lipschitz = dv.length() + angular;
    // World coordinates up to the latest possible contact: the centres are
    // within `sa + sb + target` of each other then, so after at most
    // `(|c_b − c_a| + sa + sb + target) / |v_b − v_a|`.
    let (sa, sb) = (
        local_radius(a, ma.local_center),
        local_radius(b, mb.local_center),
    );
    let sizes = [sa, sb].iter().filter(|r| r.is_finite()).sum::<f32>();
    let latest = ((cb0 - ca0).length() + sa + sb + target) / dv.length();
    let horizon = max_time.abs().min(latest);
    let speed = ma.linvel.length().max(mb.linvel.length());
    let at_rest = ca0.abs().max(cb0.abs()).max_element() + sizes;
    let coords = match at_rest + speed * horizon {
        c if c.is_finite() => c,
        _ => at_rest,
    };
    let tol = tolerance(options, tolerance_size(size(a), size(b)), coords);
    let bounded = a.is_bounded_convex() && b.is_bounded_convex();
    let mut cache = GjkCache::new();
    let mut dist_at = |t: f32| -> (Distance3, Pose3, Pose3) {
        let (pa, pb) = (ma.pose_at(t), mb.pose_at(t));
        let d = if bounded {
            distance_cached(a, &pa, b, &pb, &mut cache)
        } else {
            distance(a, &pa, b, &pb)
        };
        (d, pa, pb)
    };
    // Each body stays inside the sphere about its rotation centre through its
    // farthest point, and the centres move linearly: no contact before the
    // spheres touch (the closed form of `cast_balls`), none at all if they
    // never do. This skips the far phase, where steps are cheap but many.
    let mut t = t0;
    if sa.is_finite() && sb.is_finite() {
        match spheres_meet(ca0, cb0, dv, sa + sb + target, t0, max_time) {
            None => return None,
            Some(ts) => t = ts,
        }
    }
    let mut leaving = 0usize;
    // The first configuration examined and the least distance seen while
    // leaving it: a leaving start that never gets out of the target band is
    // a contact at the start when it was ever inside the target.
    let mut first: Option<(f32, Distance3)> = None;
    let mut low = f32::INFINITY;
    let budget = if is_composite(a) || is_composite(b) {
        MAX_COMPOSITE_ADVANCE_STEPS
    } else {
        MAX_ADVANCE_STEPS
    };
    for step in 0..budget {
        let (d, _, _) = dist_at(t);
        if d.distance.is_nan() {
            return None;
        }
        if step == 0 {
            first = Some((t, d));
        }
        if step == 0 || leaving > 0 {
            low = low.min(d.distance);
        }
        let rate = d
            .normal
            .dot(point_velocity(mb, d.point_b, t) - point_velocity(ma, d.point_a, t));
        if step == 0 || leaving > 0 {
            match start_rule(&d, rate, target, tol, t) {
                Start::Hit(h) if step == 0 && t == 0.0 => return Some(h),
                Start::Hit(_) if leaving > 0 && low < target => {
                    // Turned back before getting out of the band, and inside
                    // the target on the way: the contact is the start's.
                    return first.map(|(ts, ds)| start_contact(ts, &ds));
                }
                Start::Hit(h) => {
                    return Some(CastHit3 {
                        status: CastStatus::Hit,
                        depth: 0.0,
                        ..h
                    })
                }
                Start::Leaving => {
                    leaving += 1;
                    if leaving > MAX_LEAVING_STEPS {
                        // Sliding along each other for the whole of the
                        // leaving budget: report the contact where it is,
                        // or at the start when they were inside the target
                        // (a later time would be late).
                        if low < target {
                            return first.map(|(ts, ds)| start_contact(ts, &ds));
                        }
                        return Some(CastHit3 {
                            time: t,
                            point_a: d.point_a,
                            point_b: d.point_b,
                            normal: d.normal,
                            depth: 0.0,
                            status: if t == t0 {
                                CastStatus::Touching
                            } else {
                                CastStatus::Hit
                            },
                        });
                    }
                    // No pair of points closes faster than `lipschitz`: in
                    // this step the distance drops by at most `tol`.
                    if !(lipschitz > 0.0) {
                        return None;
                    }
                    t += tol / lipschitz;
                    if !(t <= max_time) {
                        return None;
                    }
                    continue;
                }
                Start::Apart => leaving = 0,
            }
        } else if d.distance <= target + tol {
            return Some(CastHit3 {
                time: t,
                point_a: d.point_a,
                point_b: d.point_b,
                normal: d.normal,
                depth: 0.0,
                status: CastStatus::Hit,
            });
        }
        let mu = if convex {
            // The angular part along the slab's fixed normal n: a point at
            // x from the axis moves along n at n·(ω × x) = x·(n × ω), at
            // most |n × ω| times its distance from the axis.
            (-d.normal.dot(dv)).max(0.0)
                + spin(d.normal.cross(ma.angvel).length(), ra)
                + spin(d.normal.cross(mb.angvel).length(), rb)
        } else {
            lipschitz
        };
        if !(mu > 0.0) {
            // Nothing brings them closer along the separating slab (convex)
            // or at all.
            return None;
        }
        if mu.is_infinite() {
            // No finite bound (a half-space turning over an unbounded time
            // range): nothing can be decided past `t`.
            break;
        }
        t += (d.distance - target) / mu;
        if !(t <= max_time) {
            return None;
        }
        if bounded {
            // Keep advancing on the slab of the same normal while it stays
            // open: its width g(t) (two support queries, no GJK) is a lower
            // bound on the distance and shrinks no faster than μ, so the
            // same step rule stays conservative. GJK is needed again only
            // when the slab has closed, for a fresh normal.
            let n = d.normal;
            for _ in 0..MAX_SLAB_STEPS {
                let g = slab_gap(a, &ma.pose_at(t), b, &mb.pose_at(t), n);
                if !(g > target + tol) {
                    break;
                }
                t += (g - target) / mu;
                if !(t <= max_time) {
                    return None;
                }
            }
        }
    }
    // Out of steps (or no bound): the time reached is certified before any
    // contact; a contact there is a hit, else nothing is decided after it.
    let (d, _, _) = dist_at(t);
    let status = if d.distance <= target + tol {
        CastStatus::Hit
    } else {
        CastStatus::Undecided
    };
    Some(CastHit3 {
        time: t,
        point_a: d.point_a,
        point_b: d.point_b,
        normal: d.normal,
        depth: 0.0,
        status,
    })
}

/// The contact at the first configuration examined (time `t`, distance `d`,
/// within the target band): touching when that is the cast's start time 0,
/// else a hit there.
fn start_contact(t: f32, d: &Distance3) -> CastHit3 {
    CastHit3 {
        time: t,
        point_a: d.point_a,
        point_b: d.point_b,
        normal: d.normal,
        depth: 0.0,
        status: if t == 0.0 {
            CastStatus::Touching
        } else {
            CastStatus::Hit
        },
    }
}

/// Cheap steps on one slab between two distance queries.
const MAX_SLAB_STEPS: usize = 32;

/// The width of the slab between A's and B's support planes along the unit
/// world normal `n` (A to B): `min over B of n·b − max over A of n·a`, a
/// lower bound on their distance (negative when the slab is closed).
fn slab_gap(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, n: Vec3) -> f32 {
    let top_a = pa.transform_point(a.local_support(pa.inverse_transform_vector(n)));
    let low_b = pb.transform_point(b.local_support(pb.inverse_transform_vector(-n)));
    n.dot(low_b - top_a)
}

/// The first time in `[t0, max_time]` at which points moving from `c_a` and
/// `c_b` with relative velocity `dv` are `r` apart (`t0` when they already
/// are within `r`), a little early for rounding; `None` when never.
fn spheres_meet(ca: Vec3, cb: Vec3, dv: Vec3, r: f32, t0: f32, max_time: f32) -> Option<f32> {
    let dc = cb - ca + dv * t0;
    let len = dc.length();
    if !(len > r) {
        return (t0 <= max_time).then_some(t0);
    }
    // |dc + dv·s| = r: a·s² + 2b·s + c = 0 (as in `cast_balls`).
    let (a, b, c) = (dv.length_squared(), dc.dot(dv), (len - r) * (len + r));
    let disc = b * b - a * c;
    if !(b < 0.0) || !(disc >= 0.0) {
        return None;
    }
    let s = c / (-b + disc.sqrt());
    // Four ulps earlier, so rounding never makes it late.
    let t = t0 + s * (1.0 - 4.0 * f32::EPSILON);
    (t <= max_time).then_some(t)
}

/// Convex shapes (bounded or half-spaces): the slab bound applies.
/// Shapes whose distance query runs over parts: compounds, meshes, height
/// fields.
fn is_composite(s: &Shape) -> bool {
    matches!(
        s,
        Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_)
    )
}

fn is_convex(s: &Shape) -> bool {
    !matches!(
        s,
        Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d3::{Ball, Cuboid};

    #[test]
    fn translating_balls_match_the_closed_form() {
        let a: Shape = Ball::new(1.0).unwrap().into();
        let ma = Motion3::linear(Pose3::IDENTITY, Vec3::new(2.0, 0.0, 0.0));
        let mb = Motion3::fixed(Pose3::from_translation(Vec3::new(10.0, 0.0, 0.0)));
        let o = CastOptions {
            max_time: 10.0,
            ..Default::default()
        };
        let h = cast_nonlinear(&a, &ma, &a, &mb, &o).unwrap();
        assert!(h.time <= 4.0 && h.time > 4.0 - 1e-3, "{h:?}");
    }

    #[test]
    fn spinning_box_far_away_misses() {
        let a: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        let ma = Motion3 {
            angvel: Vec3::new(0.0, 0.0, 10.0),
            ..Motion3::fixed(Pose3::IDENTITY)
        };
        let mb = Motion3::fixed(Pose3::from_translation(Vec3::new(3.8, 0.0, 0.0)));
        assert!(cast_nonlinear(&a, &ma, &a, &mb, &CastOptions::default()).is_none());
        // Closer: B's face at x = 1.3. A's corner (1, −1), at angle −π/4 and
        // radius √2, turns counter-clockwise; it reaches x = 1.3 when
        // √2·cos(θ − π/4) = 1.3.
        let mb = Motion3::fixed(Pose3::from_translation(Vec3::new(2.3, 0.0, 0.0)));
        let h = cast_nonlinear(&a, &ma, &a, &mb, &CastOptions::default()).unwrap();
        let theta = (1.3f32 / 2f32.sqrt()).acos();
        let expect = (std::f32::consts::FRAC_PI_4 - theta) / 10.0;
        assert_eq!(h.status, CastStatus::Hit);
        assert!(
            h.time <= expect + 1e-6 && h.time > expect - 1e-3,
            "{h:?} {expect}"
        );
    }
}
