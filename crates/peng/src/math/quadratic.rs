//! Where a line meets a ball or an infinite tube: the roots of `|p(t)|² = r²`
//! for the line's offset `p(t) = m + t d` from the centre (or, for a tube, its
//! part perpendicular to the axis).
//!
//! The textbook roots `(-b ± √(b² - a c)) / a` (`a = d·d`, `b = m·d`,
//! `c = m·m - r²`) lose the chord to cancellation on a grazing line far from a
//! small ball: `b²` and `a c` are both about `|m|²|d|²`, so their difference
//! carries an error of about `ε |m|² |d|²`, and the half-chord, its square root
//! over `a`, up to `√ε |m| / |d|` (`ε` the f32 rounding unit). Here the line's
//! point nearest the centre comes first: `p = m + t_c d` with
//! `t_c = -m·d / d·d`, then the half-chord `√((r² - p·p) / d·d)`. The
//! difference `r² - p·p` carries only the rounding of `p` (about `ε |m|`) times
//! `2 r`, so the roots are as good as the line's own position. Near tangency
//! (`r² - p·p` within 1 % of `r²`, where the square root amplifies even that
//! error) the roots are recomputed in f64, from the line the caller gives in
//! f64 (a 3D ray cast gives it from the world ray and poses, so the rounding
//! of the f32 move into the shape's frame drops out too).

use super::Vector;
use glam::DVec3;

/// `r² - p·p` below this fraction of `r²`: the near-tangent case, redone in f64.
/// Above it an error `δ` in `p` moves the hit point by about
/// `δ r / √(r² - p·p) <= 10 δ`, with `δ` a few `ε |m|`.
const KAPPA: f32 = 1e-2;

/// The roots `t0 <= t1` of `|m + t d|² = r²`: the parameters where the line
/// `m + t d` enters and leaves the ball of radius `r` around the origin. `None`
/// when the line misses it, `d` is zero, or the input is not finite. `line64`
/// gives the same `m` and `d` in f64 (as exactly as the caller can), called
/// only near tangency.
///
/// An infinite tube is the same problem in the plane perpendicular to its
/// axis: pass the projections of `m` and `d` (and have `line64` project).
#[inline]
pub(crate) fn line_ball_roots<V: Vector>(
    m: V,
    d: V,
    r: f32,
    line64: impl FnOnce() -> (DVec3, DVec3),
) -> Option<(f32, f32)> {
    let a = d.dot(d);
    let inv_a = 1.0 / a;
    let tc = -m.dot(d) * inv_a;
    let p = m + d * tc;
    let rr = r * r;
    let h2 = rr - p.dot(p);
    // A zero or non-finite input makes h2 NaN (or -inf) and fails the first
    // test; the f64 path then returns None.
    let near = KAPPA * rr;
    if h2 >= near {
        let h = (h2 * inv_a).sqrt();
        return Some((tc - h, tc + h));
    }
    if h2 < -near {
        return None;
    }
    near_tangent(line64, r)
}

/// The f64 form of the closest-approach solution, for the near-tangent case.
#[cold]
#[inline(never)]
fn near_tangent(line64: impl FnOnce() -> (DVec3, DVec3), r: f32) -> Option<(f32, f32)> {
    let (m, d) = line64();
    let a = d.dot(d);
    if a <= 0.0 || a.is_nan() {
        return None;
    }
    let tc = -m.dot(d) / a;
    let p = m + d * tc;
    let r = r as f64;
    let h2 = r * r - p.dot(p);
    if h2 < 0.0 || h2.is_nan() {
        return None;
    }
    let h = (h2 / a).sqrt();
    Some(((tc - h) as f32, (tc + h) as f32))
}

/// A 2D or 3D vector in f64, 3D (a 2D vector gets `z = 0`).
pub(crate) fn widen<V: Vector>(v: V) -> DVec3 {
    let z = if V::DIM > 2 { v.get(2) } else { 0.0 };
    DVec3::new(v.get(0) as f64, v.get(1) as f64, z as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    fn ball<V: Vector>(m: V, d: V, r: f32) -> Option<(f32, f32)> {
        line_ball_roots(m, d, r, || (widen(m), widen(d)))
    }

    fn tube(m: Vec3, d: Vec3, u: Vec3, r: f32) -> Option<(f32, f32)> {
        let (mp, dp) = (m - u * m.dot(u), d - u * d.dot(u));
        line_ball_roots(mp, dp, r, || (widen(mp), widen(dp)))
    }

    #[test]
    fn chords_of_ball_and_tube() {
        // Unit circle, horizontal line at height 0.6: crossing x = ±0.8.
        let (t0, t1) = ball(Vec2::new(-5.0, 0.6), Vec2::X, 1.0).unwrap();
        assert!((t0 - 4.2).abs() < 1e-6 && (t1 - 5.8).abs() < 1e-6);
        assert!(ball(Vec2::new(-5.0, 1.1), Vec2::X, 1.0).is_none());
        assert!(ball(Vec2::new(-5.0, 0.0), Vec2::ZERO, 1.0).is_none());
        assert!(ball(Vec3::splat(f32::NAN), Vec3::X, 1.0).is_none());
        // Tangent: one double root.
        let (t0, t1) = ball(Vec3::new(-3.0, 1.0, 0.0), Vec3::X, 1.0).unwrap();
        assert_eq!((t0, t1), (3.0, 3.0));
        // Tube around y: the axial part of the offset does not count.
        let (t0, t1) = tube(
            Vec3::new(-5.0, 7.0, 0.6),
            Vec3::new(1.0, 3.0, 0.0),
            Vec3::Y,
            1.0,
        )
        .unwrap();
        assert!((t0 - 4.2).abs() < 1e-6 && (t1 - 5.8).abs() < 1e-6);
        assert!(tube(Vec3::ZERO, Vec3::Y, Vec3::Y, 1.0).is_none());
    }

    #[test]
    fn grazing_chord_is_accurate() {
        // A line 0.9999 from the centre of a ball of radius 1, seen from 50 away:
        // the half-chord is √(1 - 0.9999²) = 0.0141414..., which the textbook
        // discriminant (errors of ~ε·2500) gets visibly wrong.
        let m = Vec3::new(-50.0, 0.9999, 0.0);
        let (t0, t1) = ball(m, Vec3::X, 1.0).unwrap();
        let h = (1.0f64 - 0.9999f32 as f64 * 0.9999f32 as f64).sqrt();
        assert!((t0 as f64 - (50.0 - h)).abs() < 1e-5);
        assert!((t1 as f64 - (50.0 + h)).abs() < 1e-5);
    }
}
