//! Moving circles: the first contact time in closed form.

use crate::ccd::{CastHit2, CastOptions, CastStatus};
use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::Vec2;

/// The first contact of two circles moving at constant velocities.
///
/// Contact means the centres are `radius_a + radius_b + target_distance`
/// apart. With `s` the offset of B's centre from A's and `v` their relative
/// velocity, `|s + v t|² = R²` is the quadratic `a t² + 2 b t + c = 0` with
/// `a = v·v`, `b = s·v`, `c = s·s - R²`. Its earlier root is taken in the form
/// `t = c / (-b + √(b² - a c))`, which does not cancel when `a c` is small
/// (Ericson, Real-Time Collision Detection 5.5.8, "Intersecting moving
/// sphere against sphere"; the stable root of Press et al., Numerical
/// Recipes 5.6).
///
/// At the start: overlapping circles give [`CastStatus::Penetrating`] (depth
/// `radius_a + radius_b - |s|`); circles within the target distance plus the
/// tolerance that are not moving apart (`s·v <= 0`) give
/// [`CastStatus::Touching`]; moving apart from there gives `None`. Zero
/// relative velocity: `None` unless in contact at the start. Coincident
/// centres take the `+x` normal (degeneracy policy). Non-finite input gives
/// an unspecified answer, never a panic.
#[allow(clippy::too_many_arguments)]
pub fn cast_circles(
    center_a: Vec2,
    radius_a: f32,
    vel_a: Vec2,
    center_b: Vec2,
    radius_b: f32,
    vel_b: Vec2,
    options: &CastOptions,
) -> Option<CastHit2> {
    let s = center_b - center_a;
    let v = vel_b - vel_a;
    let contact = radius_a + radius_b;
    let reach = contact + options.target_distance;
    let size = crate::ccd::tolerance_size(radius_a, radius_b);
    let tol = if options.tolerance > 0.0 {
        options.tolerance
    } else if size > 0.0 {
        1e-4 * size
    } else {
        // Two points: the only length is their distance.
        (1e-6 * s.length()).max(f32::MIN_POSITIVE)
    };
    let hit = |t: f32, status: CastStatus, depth: f32| {
        let ca = center_a + vel_a * t;
        let cb = center_b + vel_b * t;
        let d = cb - ca;
        let n = if d.length_squared() > ZERO_LENGTH_SQ {
            d.normalize()
        } else {
            Vec2::X
        };
        CastHit2 {
            time: t,
            point_a: ca + n * radius_a,
            point_b: cb - n * radius_b,
            normal: n,
            depth,
            status,
        }
    };
    let b = s.dot(v);
    let dist = s.length();
    if dist < contact {
        return Some(hit(0.0, CastStatus::Penetrating, contact - dist));
    }
    if dist <= reach + tol {
        return (b <= 0.0).then(|| hit(0.0, CastStatus::Touching, 0.0));
    }
    let a = v.dot(v);
    if b >= 0.0 || a <= 0.0 {
        return None;
    }
    let c = (dist - reach) * (dist + reach);
    let disc = b * b - a * c;
    if !(disc >= 0.0) {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    (t <= options.max_time && t >= 0.0).then(|| hit(t, CastStatus::Hit, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on() {
        let o = CastOptions {
            max_time: 2.0,
            ..CastOptions::default()
        };
        let h = cast_circles(
            Vec2::ZERO,
            1.0,
            Vec2::X,
            Vec2::new(10.0, 0.0),
            2.0,
            Vec2::new(-3.0, 0.0),
            &o,
        )
        .unwrap();
        // Gap 7 closed at speed 4.
        assert!((h.time - 1.75).abs() < 1e-6);
        assert!((h.point_a - Vec2::new(2.75, 0.0)).length() < 1e-5);
        assert_eq!(h.status, CastStatus::Hit);
        assert!(cast_circles(
            Vec2::ZERO,
            1.0,
            Vec2::X,
            Vec2::new(10.0, 0.0),
            2.0,
            Vec2::ZERO,
            &o
        )
        .is_none());
    }
}
