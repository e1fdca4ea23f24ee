//! Closest points between segments.

use crate::math::tolerance::REL_EPS;
use crate::math::{Vec3, Vector};

/// Below this `sin²` of the angle between two segments, `a·e − b²` (their
/// `|d1 × d2|²`) is found in f64 instead: in f32 its absolute error is a few
/// ulps of `a·e`, so its relative error is about `1e-7 / sin²`, and at `sin²`
/// below about `1e-7` the closest points could be anywhere along the segments
/// (off by up to `length · sin` in distance). Above the threshold the f32
/// formula's distance error is below about `1e-7 / sin` of the scale.
pub(crate) const NEAR_PARALLEL_SIN2: f32 = 1e-2;

/// Parameters `(s, t)` in `[0, 1]` of the closest points `p1 + s·(q1 - p1)` and
/// `p2 + t·(q2 - p2)` of two segments (Ericson, Real-Time Collision Detection,
/// 5.1.9). Degenerate segments (points) and parallel segments are detected with
/// tolerances relative to the input's scale (policy rule 6); for parallel
/// segments one of the closest pairs is returned. Nearly parallel segments
/// take the line parameter from [`near_parallel_s`]. The same code serves 2D
/// and 3D.
pub(crate) fn segment_segment<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> (f32, f32) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    params_from_dots(
        d1.length_squared(),
        d2.length_squared(),
        d1.dot(d2),
        d1.dot(r),
        d2.dot(r),
        r.length_squared(),
        || near_parallel_ends(p1, q1, p2, q2),
    )
}

/// [`near_parallel_s`] on vectors of either dimension (out of line: the
/// common path stays small).
#[inline(never)]
fn near_parallel_ends<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> f32 {
    let arr = |v: V| {
        let mut x = [0.0f32; 3];
        for (i, c) in x.iter_mut().enumerate().take(V::DIM) {
            *c = v.get(i);
        }
        x
    };
    near_parallel_s(arr(p1), arr(q1), arr(p2), arr(q2))
}

/// [`segment_segment`] from the dot products `a = d1·d1`, `e = d2·d2`,
/// `b = d1·d2`, `c = d1·r`, `f = d2·r` and `r2 = r·r` (`d1 = q1 − p1`,
/// `d2 = q2 − p2`, `r = p1 − p2`), for callers that have them already;
/// `near` gives the clamped `s` of nearly parallel segments
/// ([`near_parallel_s`] on the same ends).
#[inline(always)]
pub(crate) fn params_from_dots(
    a: f32,
    e: f32,
    b: f32,
    c: f32,
    f: f32,
    r2: f32,
    near: impl FnOnce() -> f32,
) -> (f32, f32) {
    // Plain comparisons instead of `f32::max` (no NaN handling needed: a NaN
    // input gives NaN closest points, which callers reject).
    let big = |x: f32, y: f32| if x > y { x } else { y };
    let scale = big(big(big(a, e), r2), 1e-30);
    let tiny = REL_EPS * REL_EPS * scale;
    if a <= tiny && e <= tiny {
        return (0.0, 0.0);
    }
    if a <= tiny {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    if e <= tiny {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    // denom = |d1|²|d2|² - (d1·d2)² = |d1 × d2|² >= 0.
    let denom = a * e - b * b;
    let mut s = if denom > NEAR_PARALLEL_SIN2 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        near()
    };
    // Closest point on line 2 to the point at s, then clamp and recompute s.
    // Each is a projection of a point on a segment, accurate however nearly
    // parallel the segments are.
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// The parameter `s`, clamped to `[0, 1]`, of the point of line `p1 q1`
/// closest to line `p2 q2`, for nearly parallel lines (2D points have a zero
/// third coordinate); `0` for exactly parallel ones.
///
/// Cramer's rule on the wedge (in 3D the cross) products, in f64:
/// `s = ((p2 − p1) ∧ d2)·(d1 ∧ d2) / |d1 ∧ d2|²`, which is Ericson's
/// `(b·f − c·e) / (a·e − b²)` by the Binet–Cauchy identity. Each wedge
/// component `u_i v_j − u_j v_i` of f32 differences is found to a relative
/// `1e-16` of `|u||v|`, so `s` is off by about `1e-16 / sin` of the scale
/// over `|d1|`, and the distance at the clamped and reprojected points by
/// `1e-16` of the scale. Any `s` is right for exactly parallel lines: the
/// caller's projections then find a closest pair.
#[inline(never)]
pub(crate) fn near_parallel_s(p1: [f32; 3], q1: [f32; 3], p2: [f32; 3], q2: [f32; 3]) -> f32 {
    let diff = |u: [f32; 3], v: [f32; 3]| {
        [
            u[0] as f64 - v[0] as f64,
            u[1] as f64 - v[1] as f64,
            u[2] as f64 - v[2] as f64,
        ]
    };
    let wedge = |u: [f64; 3], v: [f64; 3]| {
        [
            u[0] * v[1] - u[1] * v[0],
            u[2] * v[0] - u[0] * v[2],
            u[1] * v[2] - u[2] * v[1],
        ]
    };
    let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let (d1, d2, w) = (diff(q1, p1), diff(q2, p2), diff(p2, p1));
    let n = wedge(d1, d2);
    let nn = dot(n, n);
    if nn.is_nan() || nn <= 0.0 {
        return 0.0;
    }
    let s = dot(wedge(w, d2), n) / nn;
    s.clamp(0.0, 1.0) as f32
}

/// Parameter in `[0, 1]` of the point of segment `p q` closest to `x`.
#[inline]
pub(crate) fn point_segment(p: Vec3, q: Vec3, x: Vec3) -> f32 {
    let d = q - p;
    let l2 = d.length_squared();
    if l2 <= 1e-20 {
        0.0
    } else {
        ((x - p).dot(d) / l2).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_and_parallel() {
        let (s, t) = segment_segment(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.5, -1.0, 1.0),
            Vec3::new(0.5, 1.0, 1.0),
        );
        assert!((s - 0.75).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
        let (s, t) = segment_segment(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
        );
        assert_eq!((s, t), (1.0, 0.0));
        assert_eq!(
            point_segment(Vec3::ZERO, Vec3::X, Vec3::new(0.3, 5.0, 0.0)),
            0.3
        );
    }

    /// Distance between segments in f64: the four end-to-segment distances,
    /// and the lines' closest points when inside both (the minimum of a
    /// convex function over a square is inside or on an edge).
    fn truth(p: [[f64; 3]; 4]) -> f64 {
        let sub = |u: [f64; 3], v: [f64; 3]| [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
        let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        let at =
            |u: [f64; 3], d: [f64; 3], s: f64| [u[0] + d[0] * s, u[1] + d[1] * s, u[2] + d[2] * s];
        let len = |u: [f64; 3]| dot(u, u).sqrt();
        let to_seg = |x: [f64; 3], a: [f64; 3], b: [f64; 3]| {
            let d = sub(b, a);
            let t = (dot(sub(x, a), d) / dot(d, d)).clamp(0.0, 1.0);
            len(sub(x, at(a, d, t)))
        };
        let [p1, q1, p2, q2] = p;
        let mut best = to_seg(p1, p2, q2)
            .min(to_seg(q1, p2, q2))
            .min(to_seg(p2, p1, q1))
            .min(to_seg(q2, p1, q1));
        let (d1, d2, w) = (sub(q1, p1), sub(q2, p2), sub(p2, p1));
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let n = cross(d1, d2);
        let nn = dot(n, n);
        if nn > 0.0 {
            let s = dot(cross(w, d2), n) / nn;
            let t = dot(cross(w, d1), n) / nn;
            if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
                best = best.min(len(sub(at(p1, d1, s), at(p2, d2, t))));
            }
        }
        best
    }

    /// Nearly parallel and moderately angled pairs, 2D and 3D: the distance
    /// at the closest points is the f64 one to a few f32 ulps of the scale.
    #[test]
    fn nearly_parallel_segments_are_accurate() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut worst = [0.0f64; 4];
        for i in 0..20_000 {
            let dim3 = i % 2 == 1;
            let z = |r: f64| if dim3 { r } else { 0.0 };
            let u = {
                let (a, b) = (next() * 6.3, next() * std::f64::consts::PI);
                let (sa, ca, sb, cb) = (a.sin(), a.cos(), b.sin(), b.cos());
                if dim3 {
                    ([ca * sb, sa * sb, cb], [ca * cb, sa * cb, -sb])
                } else {
                    ([ca, sa, 0.0], [-sa, ca, 0.0])
                }
            };
            let (dir, perp) = u;
            // Angles from 1e-7 to 1 rad.
            let angle = 10f64.powf(-7.0 + 7.0 * next());
            let (l1, l2) = (0.1 + 2.9 * next(), 0.1 + 2.9 * next());
            let p1 = [
                4.0 * next() - 2.0,
                4.0 * next() - 2.0,
                z(4.0 * next() - 2.0),
            ];
            let along = -l2 - 0.2 + (l1 + l2 + 0.4) * next();
            let across = (next() - 0.5) * if next() < 0.3 { 1e-3 } else { 1.0 };
            let p2 = [
                p1[0] + dir[0] * along + perp[0] * across,
                p1[1] + dir[1] * along + perp[1] * across,
                p1[2] + dir[2] * along + perp[2] * across,
            ];
            let (c, s) = (angle.cos(), angle.sin());
            let d2 = [
                dir[0] * c + perp[0] * s,
                dir[1] * c + perp[1] * s,
                dir[2] * c + perp[2] * s,
            ];
            let q1 = [
                p1[0] + dir[0] * l1,
                p1[1] + dir[1] * l1,
                p1[2] + dir[2] * l1,
            ];
            let q2 = [p2[0] + d2[0] * l2, p2[1] + d2[1] * l2, p2[2] + d2[2] * l2];
            let f = |p: [f64; 3]| Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
            let pts = [f(p1), f(q1), f(p2), f(q2)];
            let exact = truth(pts.map(|v| [v.x as f64, v.y as f64, v.z as f64]));
            let d = if dim3 {
                let (s, t) = segment_segment(pts[0], pts[1], pts[2], pts[3]);
                let a = pts[0] + (pts[1] - pts[0]) * s;
                let b = pts[2] + (pts[3] - pts[2]) * t;
                (a - b).length()
            } else {
                let v = |p: Vec3| glam::Vec2::new(p.x, p.y);
                let (s, t) = segment_segment(v(pts[0]), v(pts[1]), v(pts[2]), v(pts[3]));
                let a = v(pts[0]) + (v(pts[1]) - v(pts[0])) * s;
                let b = v(pts[2]) + (v(pts[3]) - v(pts[2])) * t;
                (a - b).length()
            };
            let err = (d as f64 - exact).abs();
            let k = dim3 as usize + 2 * (angle > 0.1) as usize;
            worst[k] = worst[k].max(err);
            assert!(
                err <= 4e-6,
                "case {i}: {d} vs {exact} (angle {angle:e}): {pts:?}"
            );
        }
        println!(
            "worst below 0.1 rad: 2D {:e}, 3D {:e}; above: 2D {:e}, 3D {:e}",
            worst[0], worst[1], worst[2], worst[3]
        );
    }
}
