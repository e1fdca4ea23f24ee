//! Closest points between points and segments (exact, no iteration).

use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::Vec2;

/// The parameter `t ∈ [0, 1]` of the point of segment `a b` closest to `p`
/// (Ericson, Real-Time Collision Detection, 5.1.2).
#[inline]
pub(crate) fn closest_param_on_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let ee = e.dot(e);
    if ee <= ZERO_LENGTH_SQ {
        return 0.0;
    }
    ((p - a).dot(e) / ee).clamp(0.0, 1.0)
}

/// Closest points `(s, t)` of segments `p1 q1` and `p2 q2`, as parameters along
/// each (Ericson, Real-Time Collision Detection, 5.1.9); the dimension-independent
/// routine in [`crate::query::sat::closest::segment_segment`].
#[inline]
pub(crate) fn closest_params_segments(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> (f32, f32) {
    crate::query::sat::closest::segment_segment(p1, q1, p2, q2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_pairs() {
        // Crossing: distance zero at the crossing point.
        let (s, t) = closest_params_segments(
            Vec2::new(-1.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, -1.0),
            Vec2::new(0.0, 3.0),
        );
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.25).abs() < 1e-6);
        // Parallel, offset: distance 1.
        let (p1, q1, p2, q2) = (
            Vec2::ZERO,
            Vec2::X * 2.0,
            Vec2::new(1.0, 1.0),
            Vec2::new(5.0, 1.0),
        );
        let (s, t) = closest_params_segments(p1, q1, p2, q2);
        let d = (p1 + (q1 - p1) * s - p2 - (q2 - p2) * t).length();
        assert!((d - 1.0).abs() < 1e-6);
        // End to end.
        let (s, t) = closest_params_segments(
            Vec2::ZERO,
            Vec2::X,
            Vec2::new(2.0, 1.0),
            Vec2::new(3.0, 2.0),
        );
        assert_eq!((s, t), (1.0, 0.0));
        assert_eq!(
            closest_param_on_segment(Vec2::new(0.5, 3.0), Vec2::ZERO, Vec2::X),
            0.5
        );
    }
}
