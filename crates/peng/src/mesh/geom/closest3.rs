//! Closest points in 3D, computed in f64: point–triangle (with the feature the
//! closest point lies on), segment–segment and triangle–triangle.

use super::TriangleFeature;
use crate::math::Vec3;
use glam::DVec3;

/// The point of triangle `t` closest to `p`, its squared distance and feature.
///
/// Classifies `p` into the Voronoi regions of the triangle (Ericson, Real-Time
/// Collision Detection, 5.1.5), decided in f64 because the f32 products of that
/// method cancel on slivers: the projection on the plane is kept when it lies
/// inside all three edges; otherwise the answer is the nearest of the three
/// clamped edge points, and the clamp tells vertex from edge. Zero-area
/// triangles skip the plane step and act as their edges: no NaN.
pub(crate) fn point_triangle(t: &[Vec3; 3], p: Vec3) -> (Vec3, f32, TriangleFeature) {
    let (q, d2, f) = point_triangle64(
        [t[0].as_dvec3(), t[1].as_dvec3(), t[2].as_dvec3()],
        p.as_dvec3(),
    );
    (q.as_vec3(), d2 as f32, f)
}

/// f64 core of [`point_triangle`].
pub(crate) fn point_triangle64(t: [DVec3; 3], p: DVec3) -> (DVec3, f64, TriangleFeature) {
    let [a, b, c] = t;
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn > 0.0 {
        let q = p - n * (n.dot(p - a) / nn);
        let inside = n.dot((b - a).cross(q - a)) >= 0.0
            && n.dot((c - b).cross(q - b)) >= 0.0
            && n.dot((a - c).cross(q - c)) >= 0.0;
        if inside {
            return (q, q.distance_squared(p), TriangleFeature::Face);
        }
    }
    let mut best = (a, f64::INFINITY, TriangleFeature::Vertex(0));
    for i in 0..3u8 {
        let (u, v) = (t[i as usize], t[(i as usize + 1) % 3]);
        let e = v - u;
        let l = e.length_squared();
        let s = if l > 0.0 {
            ((p - u).dot(e) / l).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (q, f) = if s <= 0.0 {
            (u, TriangleFeature::Vertex(i))
        } else if s >= 1.0 {
            (v, TriangleFeature::Vertex((i + 1) % 3))
        } else {
            (u + e * s, TriangleFeature::Edge(i))
        };
        let d2 = q.distance_squared(p);
        if d2 < best.1 {
            best = (q, d2, f);
        }
    }
    best
}

/// Closest points of segments `p1 q1` and `p2 q2` (f64): `(c1, c2)`.
///
/// Ericson, Real-Time Collision Detection, 5.1.9: minimise `|p1 + s d1 - p2 -
/// t d2|²` over the unit square; the unconstrained minimiser in `s` is clamped,
/// `t` follows, and is clamped with `s` recomputed. Parallel segments (zero
/// denominator) take `s = 0`, which gives one of the closest pairs; zero-length
/// segments are points.
pub(crate) fn segment_segment64(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (DVec3, DVec3) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a <= 0.0 && e <= 0.0 {
        return (p1, p2);
    }
    let (s, t);
    if a <= 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// The foot of `p` on the plane of triangle `t` (normal `n`, not unit, `nn`
/// its squared length) when it lies inside the triangle: `(squared distance,
/// foot)`; `None` outside or for a triangle without area.
#[inline]
fn face_foot64(t: &[DVec3; 3], n: DVec3, nn: f64, p: DVec3) -> Option<(f64, DVec3)> {
    if nn <= 0.0 {
        return None;
    }
    let [a, b, c] = *t;
    let h = n.dot(p - a);
    let q = p - n * (h / nn);
    let inside = n.dot((b - a).cross(q - a)) >= 0.0
        && n.dot((c - b).cross(q - b)) >= 0.0
        && n.dot((a - c).cross(q - c)) >= 0.0;
    inside.then(|| (h * h / nn, q))
}

/// Closest points of two triangles (f64): `(squared distance, point on a,
/// point on b)`; zero with a common point when they intersect.
///
/// For disjoint triangles the minimum is reached at a vertex of one and the
/// face of the other, or at two edges (Ericson 5.1.9 closing remarks; Eberly's
/// triangle–triangle distance): 9 segment–segment cases, and a vertex–face
/// case only where the vertex's foot lies inside the other face (a vertex
/// nearest to the other's boundary is the end of an edge, and the
/// edge–edge cases cover it).
pub(crate) fn triangle_triangle64(a: &[DVec3; 3], b: &[DVec3; 3]) -> (f64, DVec3, DVec3) {
    if let Some(x) = super::tri_tri::intersection_point64(a, b) {
        return (0.0, x, x);
    }
    let mut best = (f64::INFINITY, a[0], b[0]);
    for i in 0..3 {
        for j in 0..3 {
            let (x, y) = segment_segment64(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]);
            let d2 = x.distance_squared(y);
            if d2 < best.0 {
                best = (d2, x, y);
            }
        }
    }
    let na = (a[1] - a[0]).cross(a[2] - a[0]);
    let nb = (b[1] - b[0]).cross(b[2] - b[0]);
    let (naa, nbb) = (na.length_squared(), nb.length_squared());
    for &v in a {
        if let Some((d2, q)) = face_foot64(b, nb, nbb, v) {
            if d2 < best.0 {
                best = (d2, v, q);
            }
        }
    }
    for &v in b {
        if let Some((d2, q)) = face_foot64(a, na, naa, v) {
            if d2 < best.0 {
                best = (d2, q, v);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features() {
        let t = [Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0];
        let (q, d2, f) = point_triangle(&t, Vec3::new(0.5, 0.5, 3.0));
        assert_eq!(
            (q, d2, f),
            (Vec3::new(0.5, 0.5, 0.0), 9.0, TriangleFeature::Face)
        );
        assert_eq!(
            point_triangle(&t, Vec3::new(-1.0, -1.0, 0.0)).2,
            TriangleFeature::Vertex(0)
        );
        assert_eq!(
            point_triangle(&t, Vec3::new(1.0, -1.0, 0.0)).2,
            TriangleFeature::Edge(0)
        );
        assert_eq!(
            point_triangle(&t, Vec3::new(2.0, 2.0, 0.0)).2,
            TriangleFeature::Edge(1)
        );
        // Zero-area: acts as a segment.
        let flat = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        let (q, d2, _) = point_triangle(&flat, Vec3::new(1.5, 1.0, 0.0));
        assert_eq!((q, d2), (Vec3::new(1.5, 0.0, 0.0), 1.0));
    }
}
