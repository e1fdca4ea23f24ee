//! Point projection and containment for a core polygon with a radius, in its
//! local frame.

use super::poly::Poly;
use super::segment::closest_param_on_segment;
use crate::math::Vec2;

/// The closest point of the rounded core's boundary to `q` (or `q` itself when
/// inside and `solid`), and whether `q` is inside (boundary included).
pub(crate) fn project(p: &Poly, q: Vec2, solid: bool) -> (Vec2, bool) {
    let v = p.verts();
    let r = p.radius;
    if p.has_area() {
        // Largest face distance: <= 0 exactly when q is inside the core.
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, (&n, &a)) in p.normals().iter().zip(v).enumerate() {
            let s = n.dot(q - a);
            if s > best.0 {
                best = (s, i);
            }
        }
        if best.0 <= 0.0 {
            if solid {
                return (q, true);
            }
            // The nearest face of the core (Ericson 5.1.1: distance to a plane),
            // pushed out by the radius.
            let n = p.normals()[best.1];
            return (q + n * (r - best.0), true);
        }
    }
    // Closest point on the core boundary: the best point over all edges.
    let mut c = v[0];
    let mut edge = 0;
    let mut d2 = (q - c).length_squared();
    if v.len() >= 2 {
        for i in 0..v.len() {
            let (a, b) = (v[i], v[p.next(i)]);
            let t = closest_param_on_segment(q, a, b);
            let x = a + (b - a) * t;
            let dx = (q - x).length_squared();
            if dx < d2 {
                (c, d2, edge) = (x, dx, i);
            }
        }
    }
    let inside = d2 <= r * r;
    if inside && solid {
        return (q, true);
    }
    let d = d2.sqrt();
    let dir = if d2 > crate::math::tolerance::ZERO_LENGTH_SQ {
        (q - c) / d
    } else if v.len() >= 2 {
        // On the core: its face normal (degeneracy policy, rule 3).
        p.normals()[edge]
    } else {
        Vec2::X
    };
    (c + dir * r, inside)
}

/// Whether `q` is inside the rounded core (boundary included).
pub(crate) fn contains(p: &Poly, q: Vec2) -> bool {
    project(p, q, true).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::d2::poly::{test_buf, test_core};
    use crate::shape::d2::Rect;

    #[test]
    fn project_on_box_and_circle() {
        let b = test_core(Rect::new(Vec2::new(2.0, 1.0)).unwrap().into());
        let (x, inside) = project(&b, Vec2::new(0.5, 0.8), false);
        assert!(inside);
        assert!((x - Vec2::new(0.5, 1.0)).length() < 1e-6);
        let (x, inside) = project(&b, Vec2::new(3.0, 2.0), true);
        assert!(!inside);
        assert!((x - Vec2::new(2.0, 1.0)).length() < 1e-6);
        let c = Poly::point(Vec2::ZERO, 2.0, test_buf());
        let (x, inside) = project(&c, Vec2::new(0.0, 1.0), false);
        assert!(inside && (x - Vec2::new(0.0, 2.0)).length() < 1e-6);
        let (x, _) = project(&c, Vec2::ZERO, false);
        assert_eq!(x, Vec2::new(2.0, 0.0));
    }
}
