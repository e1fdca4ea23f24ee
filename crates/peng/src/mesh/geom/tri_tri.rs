//! Triangle–triangle intersection of closed triangles, coplanar and degenerate
//! ones included.
//!
//! Two closed triangles meet exactly when an edge of one meets the other
//! triangle: if they are not coplanar their common part is a segment (or a
//! point) whose ends lie on the boundary of one of them; if they are coplanar,
//! either their boundaries cross or one lies inside the other, and then its
//! edges lie in the other. So six segment–triangle tests decide the pair.
//! Each is decided by the signs of orientation determinants (the predicates of
//! Devillers and Guigue, "Faster triangle-triangle intersection tests", INRIA
//! RR-4488, 2002), evaluated in f64: the coordinate differences of f32 input
//! are then exact and the products lose far less than f32 would; the plane-side
//! rejection of Möller ("A fast triangle-triangle intersection test", JGT 1997)
//! comes first and throws out most pairs.
//! Zero-area triangles are the union of their edges and are tested as such.

use glam::{DVec2, DVec3};

/// `(a - d) · ((b - d) × (c - d))`: six times the signed volume of `abcd`,
/// positive when `d` sees `abc` clockwise.
#[inline]
fn orient3(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
    (a - d).dot((b - d).cross(c - d))
}

#[inline]
fn orient2(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Whether the two closed triangles share a point.
#[cfg(test)]
pub(crate) fn triangles_intersect(a: &[crate::math::Vec3; 3], b: &[crate::math::Vec3; 3]) -> bool {
    let d = |t: &[crate::math::Vec3; 3]| [t[0].as_dvec3(), t[1].as_dvec3(), t[2].as_dvec3()];
    intersection_point64(&d(a), &d(b)).is_some()
}

/// A point common to the two closed triangles, or `None` when they are disjoint.
pub(crate) fn intersection_point64(a: &[DVec3; 3], b: &[DVec3; 3]) -> Option<DVec3> {
    // Möller's rejection: all of one triangle strictly on one side of the
    // other's plane. (A zero-area triangle has no plane: every sign is 0.)
    let strictly_one_side = |p: &[DVec3; 3], q: &[DVec3; 3]| {
        let s = q.map(|v| orient3(p[0], p[1], p[2], v));
        (s[0] > 0.0 && s[1] > 0.0 && s[2] > 0.0) || (s[0] < 0.0 && s[1] < 0.0 && s[2] < 0.0)
    };
    if strictly_one_side(a, b) || strictly_one_side(b, a) {
        return None;
    }
    for i in 0..3 {
        if let Some(x) = segment_triangle64(a[i], a[(i + 1) % 3], b) {
            return Some(x);
        }
    }
    for i in 0..3 {
        if let Some(x) = segment_triangle64(b[i], b[(i + 1) % 3], a) {
            return Some(x);
        }
    }
    None
}

/// A point common to the closed segment `p q` and the closed triangle `t`.
pub(crate) fn segment_triangle64(p: DVec3, q: DVec3, t: &[DVec3; 3]) -> Option<DVec3> {
    let [a, b, c] = *t;
    let n = (b - a).cross(c - a);
    if n == DVec3::ZERO {
        // A zero-area triangle is the union of its edges.
        return [(a, b), (b, c), (c, a)]
            .into_iter()
            .find_map(|(u, v)| segment_segment_touch(p, q, u, v));
    }
    let sp = orient3(a, b, c, p);
    let sq = orient3(a, b, c, q);
    if (sp > 0.0 && sq > 0.0) || (sp < 0.0 && sq < 0.0) {
        return None;
    }
    if sp == 0.0 && sq == 0.0 {
        return coplanar_segment_triangle(p, q, t, n);
    }
    // The segment meets the plane at one point; the line through it passes
    // through the closed triangle iff the three volumes it spans with the
    // edges share a sign (Devillers–Guigue, section 3).
    let s1 = orient3(p, q, a, b);
    let s2 = orient3(p, q, b, c);
    let s3 = orient3(p, q, c, a);
    let all_ge = s1 >= 0.0 && s2 >= 0.0 && s3 >= 0.0;
    let all_le = s1 <= 0.0 && s2 <= 0.0 && s3 <= 0.0;
    if all_ge || all_le {
        // sp != sq here (one is non-zero and they are not of one strict sign).
        let s = sp / (sp - sq);
        Some(p + (q - p) * s)
    } else {
        None
    }
}

/// Segment and triangle in one plane (normal `n`): project on the coordinate
/// plane where the triangle's shadow is largest and test in 2D.
fn coplanar_segment_triangle(p: DVec3, q: DVec3, t: &[DVec3; 3], n: DVec3) -> Option<DVec3> {
    let an = n.abs();
    let (i, j) = if an.x >= an.y && an.x >= an.z {
        (1, 2)
    } else if an.y >= an.z {
        (2, 0)
    } else {
        (0, 1)
    };
    let pr = |v: DVec3| DVec2::new(v[i], v[j]);
    let (p2, q2) = (pr(p), pr(q));
    let tri = [pr(t[0]), pr(t[1]), pr(t[2])];
    let inside = |x: DVec2| {
        let s = [
            orient2(tri[0], tri[1], x),
            orient2(tri[1], tri[2], x),
            orient2(tri[2], tri[0], x),
        ];
        (s[0] >= 0.0 && s[1] >= 0.0 && s[2] >= 0.0) || (s[0] <= 0.0 && s[1] <= 0.0 && s[2] <= 0.0)
    };
    if inside(p2) {
        return Some(p);
    }
    if inside(q2) {
        return Some(q);
    }
    for k in 0..3 {
        if let Some(s) = segments_cross_2d(p2, q2, tri[k], tri[(k + 1) % 3]) {
            return Some(p + (q - p) * s);
        }
    }
    None
}

/// Whether the closed 2D segments `p q` and `u v` meet; returns the parameter
/// along `p q` of a common point.
fn segments_cross_2d(p: DVec2, q: DVec2, u: DVec2, v: DVec2) -> Option<f64> {
    let d1 = orient2(u, v, p);
    let d2 = orient2(u, v, q);
    let d3 = orient2(p, q, u);
    let d4 = orient2(p, q, v);
    let param = |x: DVec2| {
        let e = q - p;
        let l = e.length_squared();
        if l > 0.0 {
            ((x - p).dot(e) / l).clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return Some((d1 / (d1 - d2)).clamp(0.0, 1.0));
    }
    // Touching and collinear cases: an endpoint on the other segment.
    let on = |a: DVec2, b: DVec2, x: DVec2, o: f64| {
        o == 0.0 && x.cmpge(a.min(b)).all() && x.cmple(a.max(b)).all()
    };
    if on(u, v, p, d1) {
        return Some(0.0);
    }
    if on(u, v, q, d2) {
        return Some(1.0);
    }
    if on(p, q, u, d3) {
        return Some(param(u));
    }
    if on(p, q, v, d4) {
        return Some(param(v));
    }
    None
}

/// A common point of two 3D segments, when they touch (one or both may have
/// zero length). Used only for zero-area triangles; a segment pair whose
/// closest points are within a few ulps of their size counts as touching.
fn segment_segment_touch(p: DVec3, q: DVec3, u: DVec3, v: DVec3) -> Option<DVec3> {
    let (x, y) = super::closest3::segment_segment64(p, q, u, v);
    let scale = p.abs().max(q.abs()).max(u.abs()).max(v.abs()).max_element();
    let tol = 1e-12 * scale.max(f64::MIN_POSITIVE);
    if x.distance_squared(y) <= tol * tol {
        Some(x)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    fn t(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> [Vec3; 3] {
        [Vec3::from(a), Vec3::from(b), Vec3::from(c)]
    }

    #[test]
    fn closed_form_cases() {
        let base = t([0., 0., 0.], [2., 0., 0.], [0., 2., 0.]);
        // Piercing.
        assert!(triangles_intersect(
            &base,
            &t([0.5, 0.5, -1.], [0.5, 0.5, 1.], [3., 3., 0.5])
        ));
        // Above.
        assert!(!triangles_intersect(
            &base,
            &t([0., 0., 1.], [1., 0., 1.], [0., 1., 1.])
        ));
        // Touching at a vertex.
        assert!(triangles_intersect(
            &base,
            &t([2., 0., 0.], [3., 0., 1.], [3., 1., 0.])
        ));
        // Coplanar overlapping, coplanar disjoint, coplanar nested.
        assert!(triangles_intersect(
            &base,
            &t([1., 1., 0.], [3., 1., 0.], [1., 3., 0.])
        ));
        assert!(!triangles_intersect(
            &base,
            &t([2., 2., 0.], [3., 2., 0.], [2., 3., 0.])
        ));
        assert!(triangles_intersect(
            &base,
            &t([0.1, 0.1, 0.], [0.5, 0.1, 0.], [0.1, 0.5, 0.])
        ));
        // Degenerate (a segment) crossing and missing.
        assert!(triangles_intersect(
            &base,
            &t([0.5, 0.5, -1.], [0.5, 0.5, 1.], [0.5, 0.5, 0.])
        ));
        assert!(!triangles_intersect(
            &base,
            &t([3., 3., -1.], [3., 3., 1.], [3., 3., 0.])
        ));
        // Two segments crossing; a point on the triangle.
        let seg = t([-1., 0.5, 0.], [1., 0.5, 0.], [0., 0.5, 0.]);
        assert!(triangles_intersect(
            &seg,
            &t([0., 0., 0.], [0., 1., 0.], [0., 0.5, 0.])
        ));
        assert!(triangles_intersect(
            &base,
            &t([0.5, 0.5, 0.], [0.5, 0.5, 0.], [0.5, 0.5, 0.])
        ));
    }
}
