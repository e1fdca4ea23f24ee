//! Ray casting against any convex support map, by GJK.
//!
//! van den Bergen, "Ray casting against general convex objects with
//! application to continuous collision detection" (2004). The ray's current
//! point `x` walks forward: GJK computes the closest point of the shape to
//! `x`; whenever a support point proves that the half-space beyond it contains
//! no point of the shape in front of `x`, `x` jumps to that plane (a
//! conservative advancement that never overshoots). When `x` comes within
//! tolerance of the shape, `x` is the hit and the last separating direction is
//! the normal. Used to cross-check the closed-form ray casts; it handles every
//! convex shape, rounded ones included (through [`SupportMap::full_support`]).

use super::simplex::{Simplex, SupportPoint};
use super::support::SupportMap;
use crate::math::tolerance::GJK_MAX_ITERATIONS;
use crate::math::Vec3;

/// Relative distance at which the ray point counts as on the shape.
const HIT_TOL: f32 = 1.0e-6;

/// Casts the ray `origin + t·dir` (`t` in `[0, max_toi]`, in the shape's local
/// frame) against the whole shape (core plus radius). Returns the hit time and
/// the outward unit normal there (zero when the origin is inside).
pub fn ray_cast<S: SupportMap + ?Sized>(
    shape: &S,
    origin: Vec3,
    dir: Vec3,
    max_toi: f32,
) -> Option<(f32, Vec3)> {
    let support = |d: Vec3| shape.full_support(d);
    let mut lambda = 0.0f32;
    let mut x = origin;
    let mut normal = Vec3::ZERO;
    // The shape points of the current simplex (as `a`; `w = x - a`).
    let mut pts: Vec<SupportPoint> = Vec::with_capacity(4);
    let p0 = support(-dir);
    let mut v = x - p0;
    let scale = p0
        .abs()
        .max_element()
        .max(origin.abs().max_element())
        .max(1.0);
    let tol = HIT_TOL * scale;
    for _ in 0..GJK_MAX_ITERATIONS * 2 {
        if v.length_squared() <= tol * tol {
            return Some((lambda, normal.normalize_or_zero()));
        }
        let p = support(v);
        let w = x - p;
        let vw = v.dot(w);
        if vw > 0.0 {
            let vr = v.dot(dir);
            if vr >= 0.0 {
                return None;
            }
            lambda -= vw / vr;
            if lambda > max_toi {
                return None;
            }
            x = origin + dir * lambda;
            normal = v;
        }
        let duplicate = pts.iter().any(|q| q.a == p);
        if duplicate && vw <= 0.0 {
            // No new point and no advance: the inner GJK has converged.
            return (v.length() <= 1e3 * tol).then_some((lambda, normal.normalize_or_zero()));
        }
        if !duplicate {
            pts.push(SupportPoint {
                w: Vec3::ZERO,
                a: p,
                b: Vec3::ZERO,
                dir: v,
            });
        }
        // Closest point of conv{x - a} to the origin, reducing the set.
        let mut s = Simplex::new();
        for q in &pts {
            s.push(SupportPoint { w: x - q.a, ..*q });
        }
        let (nv, inside) = s.solve();
        pts.clear();
        pts.extend_from_slice(s.points());
        if inside {
            return Some((lambda, normal.normalize_or_zero()));
        }
        let nv = nv.as_vec3();
        if !nv.is_finite() {
            return None;
        }
        v = nv;
    }
    // No convergence: report the point reached if it is close.
    (v.length() <= 1e3 * tol).then_some((lambda, normal.normalize_or_zero()))
}
