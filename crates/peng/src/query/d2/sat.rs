//! Separating-axis test over edge normals of 2D core polygons.
//!
//! For convex polygons `A` and `B`, the separation along an outward face normal
//! `n` of A at vertex `v` is `min_b n·(b - v)`. Every face normal of the Minkowski
//! difference `A - B` is a face normal of A or of B, and the penetration depth is
//! the smallest support value of `A - B` over directions, reached at one of its
//! face normals: so when the largest separation over both shapes' normals is
//! `<= 0`, its negation is the exact penetration depth (the minimum translation
//! distance), and when it is `> 0` the shapes are separated (Ericson, Real-Time
//! Collision Detection 5.2.1; Gregorius, "The Separating Axis Test", GDC 2013).

use super::poly::Poly;
use crate::math::Vec2;

/// The face of `a` whose normal separates `b` the most: `(separation, face)`.
/// `None` when `a` has no face (a point).
pub(crate) fn max_separation(a: &Poly, b: &Poly) -> Option<(f32, usize)> {
    let mut best: Option<(f32, usize)> = None;
    let bv = b.verts();
    for (i, (&n, &v)) in a.normals().iter().zip(a.verts()).enumerate() {
        if n == Vec2::ZERO {
            continue;
        }
        let mut s = f32::INFINITY;
        for &w in bv {
            s = s.min(n.dot(w - v));
        }
        if best.is_none_or(|(bs, _)| s > bs) {
            best = Some((s, i));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose2;
    use crate::shape::d2::Rect;

    #[test]
    fn separation_of_boxes() {
        let r = Poly::from_shape(&Rect::new(Vec2::splat(0.5)).unwrap().into()).unwrap();
        let b = r.transformed(&Pose2::from_translation(Vec2::new(2.0, 0.25)));
        let (s, f) = max_separation(&r, &b).unwrap();
        assert!((s - 1.0).abs() < 1e-6);
        assert_eq!(r.normals()[f], Vec2::X);
        let p = Poly::point(Vec2::ZERO, 1.0);
        assert!(max_separation(&p, &r).is_none());
        let (s, _) = max_separation(&r, &p).unwrap();
        assert!((s + 0.5).abs() < 1e-6);
    }
}
