//! Two moving balls: the first time of contact in closed form.

use super::common::{start_rule, tolerance, Start};
use crate::ccd::{CastHit3, CastOptions, CastStatus};
use crate::math::Vec3;
use crate::query::types::Distance3;

/// The first time within `[0, options.max_time]` at which two balls moving
/// with constant velocities come within `options.target_distance` of each
/// other, or `None`.
///
/// With `Δc = center_b − center_a`, `Δv = vel_b − vel_a` and
/// `R = radius_a + radius_b + target`, contact is the smaller root of
/// `|Δc + Δv·t|² = R²`, i.e. `a·t² + 2b·t + c = 0` with `a = Δv·Δv`,
/// `b = Δc·Δv`, `c = |Δc|² − R²` (Ericson, *Real-Time Collision Detection*,
/// 5.5.8). The root is taken as `t = c / (−b + √(b² − a·c))`, which has no
/// cancellation when `b < 0` (approaching), and `c` as
/// `(|Δc| − R)(|Δc| + R)`, accurate when the balls are close.
///
/// At the start the module's start rule applies (penetrating: always a hit
/// with the depth; touching: a hit unless separating). Zero relative velocity
/// gives a hit only at the start. Normal from A to B; `+x` for concentric
/// balls.
pub fn cast_balls(
    center_a: Vec3,
    radius_a: f32,
    vel_a: Vec3,
    center_b: Vec3,
    radius_b: f32,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let dc = center_b - center_a;
    let dv = vel_b - vel_a;
    let target = options.target_distance.max(0.0);
    // (The tolerance only serves the start rule here.)
    let coords = center_a.abs().max(center_b.abs()).max_element() + radius_a + radius_b;
    let tol = tolerance(options, radius_a.max(radius_b), coords);
    let len = dc.length();
    let normal_at = |d: Vec3| d.try_normalize().unwrap_or(Vec3::X);
    let n0 = normal_at(dc);
    let d0 = Distance3 {
        distance: len - radius_a - radius_b,
        point_a: center_a + n0 * radius_a,
        point_b: center_b - n0 * radius_b,
        normal: n0,
    };
    match start_rule(&d0, n0.dot(dv), target, tol, 0.0) {
        Start::Hit(h) => return Some(h),
        // The distance of two balls under translation is convex in time:
        // separating now means separating for ever.
        Start::Leaving => return None,
        Start::Apart => {}
    }
    let r = radius_a + radius_b + target;
    let a = dv.length_squared();
    let b = dc.dot(dv);
    if !(b < 0.0) || a <= 0.0 {
        return None;
    }
    let c = (len - r) * (len + r);
    let disc = b * b - a * c;
    if !(disc >= 0.0) {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    if !(t <= options.max_time) || !t.is_finite() {
        return None;
    }
    let t = t.max(0.0);
    let (ca, cb) = (center_a + vel_a * t, center_b + vel_b * t);
    let n = normal_at(cb - ca);
    Some(CastHit3 {
        time: t,
        point_a: ca + n * radius_a,
        point_b: cb - n * radius_b,
        normal: n,
        depth: 0.0,
        status: CastStatus::Hit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on() {
        let h = cast_balls(
            Vec3::ZERO,
            1.0,
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(10.0, 0.0, 0.0),
            1.0,
            Vec3::ZERO,
            &CastOptions {
                max_time: 10.0,
                ..Default::default()
            },
        )
        .unwrap();
        assert!((h.time - 4.0).abs() < 1e-6, "{h:?}");
        assert_eq!(h.status, CastStatus::Hit);
        assert!((h.point_a - Vec3::new(9.0, 0.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn nan_does_not_panic() {
        let _ = cast_balls(
            Vec3::NAN,
            1.0,
            Vec3::X,
            Vec3::ZERO,
            1.0,
            Vec3::ZERO,
            &CastOptions::default(),
        );
    }
}
