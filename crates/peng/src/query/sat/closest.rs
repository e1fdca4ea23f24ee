//! Closest points between segments.

use crate::math::tolerance::REL_EPS;
use crate::math::{Vec3, Vector};

/// Parameters `(s, t)` in `[0, 1]` of the closest points `p1 + s·(q1 - p1)` and
/// `p2 + t·(q2 - p2)` of two segments (Ericson, Real-Time Collision Detection,
/// 5.1.9). Degenerate segments (points) and parallel segments are detected with
/// tolerances relative to the input's scale (policy rule 6); for parallel
/// segments one of the closest pairs is returned. The same code serves 2D and 3D.
pub(crate) fn segment_segment<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> (f32, f32) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    let scale = a.max(e).max(r.length_squared()).max(1e-30);
    let tiny = REL_EPS * REL_EPS * scale;
    if a <= tiny && e <= tiny {
        return (0.0, 0.0);
    }
    if a <= tiny {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= tiny {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    // denom = |d1|²|d2|² - (d1·d2)² = |d1 × d2|² >= 0.
    let denom = a * e - b * b;
    let mut s = if denom > REL_EPS * REL_EPS * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    // Closest point on line 2 to the point at s, then clamp and recompute s.
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
}
