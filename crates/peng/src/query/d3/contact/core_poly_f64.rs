//! The closest points of a segment and a disjoint convex polytope, in f64.
//!
//! The f32 search in [`capsule_polytope`](super::capsule_poly) picks the
//! nearest of several candidate pairs by their f32 distances. Near a vertex
//! the candidates of the vertex and of an edge beside it differ in distance
//! only to second order (a point `δ` along the edge from the vertex is
//! `δ²/2d` nearer), below f32 rounding, while their directions differ to
//! first order (`δ/d`); the normal of the wrong candidate then tilts the
//! support plane by `δ/d` times the length of the features (seen: 1.6e-4 and
//! 4.7e-4 rad, depth off by 3e-4 and 7e-4 along the normal). This search is
//! the same enumeration in f64, used only when the f32 answer fails its check.
//!
//! For a segment and a disjoint convex polytope the closest pair is an end of
//! the segment against a face's interior, or the segment against an edge
//! (Ericson, *Real-Time Collision Detection*, 5.1.9 for the segment pairs).

use super::round::core_feature;
use crate::math::Vec3;
use crate::query::sat::polytope::{Polygon, Polytope, MAX_POLYGON};
use crate::query::types::Feature;
use glam::DVec3;

/// A closest pair found in f64: the distance, the points on the segment and
/// on the polytope, their features, and the unit normal out of the polytope
/// (towards the segment).
#[derive(Debug, Clone, Copy)]
pub(super) struct Closest {
    pub dist: f32,
    pub on_segment: Vec3,
    pub on_polytope: Vec3,
    pub segment_feature: Feature,
    pub polytope_feature: Feature,
    pub normal: Vec3,
}

/// The closest pair of segment `a`–`b` and polytope `p` (same frame), or
/// `None` when some face has more vertices than a [`Polygon`] holds (its
/// interior test would be wrong) or the answer is not finite.
pub(super) fn closest_core_polytope<P: Polytope>(p: &P, a: Vec3, b: Vec3) -> Option<Closest> {
    let (a, b) = (a.as_dvec3(), b.as_dvec3());
    let mut best: Option<(f64, DVec3, DVec3, Feature, Feature, DVec3)> = None;
    let mut keep = |c: (f64, DVec3, DVec3, Feature, Feature, DVec3)| {
        if best.is_none_or(|x| c.0 < x.0) {
            best = Some(c);
        }
    };
    let mut poly = Polygon::default();
    for f in 0..p.face_count() {
        p.face_polygon(f, &mut poly);
        if poly.len() >= MAX_POLYGON {
            return None;
        }
        let (n, _) = p.face_plane(f);
        let n = n.as_dvec3().normalize();
        let origin = poly.vertices().first()?.point.as_dvec3();
        for (end, fa) in [(a, Feature::vertex(0)), (b, Feature::vertex(1))] {
            let h = n.dot(end - origin);
            if h > 0.0 && inside_polygon(&poly, n, end - n * h) {
                keep((h, end, end - n * h, fa, Feature::face(f), n));
            }
        }
    }
    for e in 0..p.edge_count() {
        let (p0, p1) = p.edge(e);
        let (p0, p1) = (p0.as_dvec3(), p1.as_dvec3());
        let (s, t) = segment_params(a, b, p0, p1);
        let (xa, xb) = (a + (b - a) * s, p0 + (p1 - p0) * t);
        let gap = xa - xb;
        let d = gap.length();
        // (`s` is clamped: its ends convert to f32 exactly.)
        let fa = core_feature(false, s as f32);
        // Both points inside their edges: the common perpendicular, which
        // the cross product gives without the cancellation in `gap`.
        let cross = (b - a).cross(p1 - p0);
        let interior = s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0;
        let n = match cross.try_normalize() {
            Some(c) if interior && cross.length_squared() > 1e-20 => {
                if c.dot(gap) < 0.0 {
                    -c
                } else {
                    c
                }
            }
            _ => gap.try_normalize().unwrap_or(DVec3::X),
        };
        keep((d, xa, xb, fa, Feature::edge(e), n));
    }
    let (d, xa, xb, fa, fb, n) = best?;
    d.is_finite().then(|| Closest {
        dist: d as f32,
        on_segment: xa.as_vec3(),
        on_polytope: xb.as_vec3(),
        segment_feature: fa,
        polytope_feature: fb,
        normal: n.as_vec3(),
    })
}

/// Whether `x`, on the plane of `poly` (normal `n`, counter-clockwise
/// around it), lies inside the polygon or on its border.
fn inside_polygon(poly: &Polygon, n: DVec3, x: DVec3) -> bool {
    let v = poly.vertices();
    (0..v.len()).all(|i| {
        let (p, q) = (v[i].point.as_dvec3(), v[(i + 1) % v.len()].point.as_dvec3());
        (q - p).cross(x - p).dot(n) >= 0.0
    })
}

/// Parameters `(s, t)` of the closest points of segments `p1 q1` and
/// `p2 q2` (Ericson 5.1.9), in f64; a parallel pair takes `s = 0`.
fn segment_params(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (f64, f64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a <= f64::MIN_POSITIVE && e <= f64::MIN_POSITIVE {
        return (0.0, 0.0);
    }
    if a <= f64::MIN_POSITIVE {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= f64::MIN_POSITIVE {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    // a·e − b² = |d1 × d2|², exact from the cross product.
    let denom = d1.cross(d2).length_squared();
    let mut s = if denom > 0.0 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
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

#[cfg(test)]
mod tests {
    use super::super::polytopes::TriPoly;
    use super::*;
    use crate::shape::d3::Triangle;

    /// A point over the middle of an edge, far below the face: the closest
    /// point is on that edge, at the foot of the perpendicular.
    #[test]
    fn point_beside_an_edge_finds_the_edge() {
        let t = Triangle::new(
            Vec3::ZERO,
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        )
        .unwrap();
        let p = TriPoly::new(&t, t.normal().unwrap());
        let end = Vec3::new(1.0, -1.0, -0.5);
        let c = closest_core_polytope(&p, end, end).unwrap();
        assert!((c.dist - 1.25f32.sqrt()).abs() < 1e-6, "{c:?}");
        assert!((c.on_polytope - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6);
        assert!((c.normal - (end - c.on_polytope).normalize()).length() < 1e-6);
    }

    /// A segment parallel to the face, over its interior: the face normal.
    #[test]
    fn segment_over_a_face_takes_the_face_normal() {
        let t = Triangle::new(
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(0.0, 4.0, 0.0),
        )
        .unwrap();
        let p = TriPoly::new(&t, t.normal().unwrap());
        let (a, b) = (Vec3::new(0.5, 0.5, 1.0), Vec3::new(1.5, 0.5, 1.0));
        let c = closest_core_polytope(&p, a, b).unwrap();
        assert!((c.dist - 1.0).abs() < 1e-6);
        assert!((c.normal - Vec3::Z).length() < 1e-6, "{c:?}");
        assert_eq!(c.polytope_feature, Feature::face(0));
    }
}
