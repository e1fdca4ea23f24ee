//! Where a segment crosses a triangle, in f64.

use glam::DVec3;

/// The parameter `t` in (0, 1) where the segment `p + t·(q - p)` crosses the
/// triangle `tri` (edges and corners included), or `None` when it misses or
/// runs in the triangle's plane (a segment in the plane touches, it does not
/// cross). Möller and Trumbore, "Fast, minimum storage ray/triangle
/// intersection" (JGT 1997), with the segment as a ray of length 1.
pub(crate) fn segment_crossing(p: DVec3, q: DVec3, tri: [DVec3; 3]) -> Option<f64> {
    let dir = q - p;
    let e1 = tri[1] - tri[0];
    let e2 = tri[2] - tri[0];
    let pvec = dir.cross(e2);
    let det = e1.dot(pvec);
    // Parallel to the plane, relative to the lengths involved.
    let scale = dir.length() * e1.length() * e2.length();
    if det.is_nan() || det.abs() <= 1e-12 * scale {
        return None;
    }
    let inv = 1.0 / det;
    let s = p - tri[0];
    let u = s.dot(pvec) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let qvec = s.cross(e1);
    let v = dir.dot(qvec) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(qvec) * inv;
    (t > 0.0 && t < 1.0).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRI: [DVec3; 3] = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    ];

    #[test]
    fn crossing_parameter_is_exact_for_simple_cases() {
        let t = segment_crossing(DVec3::new(0.5, 0.5, -1.0), DVec3::new(0.5, 0.5, 3.0), TRI);
        assert_eq!(t, Some(0.25));
        // Reversed direction gives the complementary parameter.
        let t = segment_crossing(DVec3::new(0.5, 0.5, 3.0), DVec3::new(0.5, 0.5, -1.0), TRI);
        assert_eq!(t, Some(0.75));
    }

    #[test]
    fn misses_parallel_and_endpoint_cases() {
        // Beside the triangle.
        assert_eq!(
            segment_crossing(DVec3::new(1.5, 1.5, -1.0), DVec3::new(1.5, 1.5, 1.0), TRI),
            None
        );
        // In its plane.
        assert_eq!(
            segment_crossing(DVec3::new(-1.0, 0.5, 0.0), DVec3::new(3.0, 0.5, 0.0), TRI),
            None
        );
        // Stops short, or starts on the plane (t = 0 is not a crossing).
        assert_eq!(
            segment_crossing(DVec3::new(0.5, 0.5, -1.0), DVec3::new(0.5, 0.5, -0.1), TRI),
            None
        );
        assert_eq!(
            segment_crossing(DVec3::new(0.5, 0.5, 0.0), DVec3::new(0.5, 0.5, 1.0), TRI),
            None
        );
        // Zero-length segment and zero-area triangle.
        let p = DVec3::new(0.5, 0.5, 0.0);
        assert_eq!(segment_crossing(p, p, TRI), None);
        let flat = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        assert_eq!(
            segment_crossing(DVec3::new(0.5, 0.0, -1.0), DVec3::new(0.5, 0.0, 1.0), flat),
            None
        );
        // NaN never crosses.
        let nan = DVec3::new(f64::NAN, 0.5, -1.0);
        assert_eq!(segment_crossing(nan, DVec3::new(0.5, 0.5, 1.0), TRI), None);
    }

    #[test]
    fn edge_of_the_triangle_counts() {
        // Through the hypotenuse's midpoint (1, 1, 0).
        let t = segment_crossing(DVec3::new(1.0, 1.0, -1.0), DVec3::new(1.0, 1.0, 1.0), TRI);
        assert_eq!(t, Some(0.5));
    }
}
