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
    let bv = b.verts();
    if a.is_local_rect() {
        return Some(rect_separation(a, bv));
    }
    let mut best: Option<(f32, usize)> = None;
    for (i, (&n, &v)) in a.normals().iter().zip(a.verts()).enumerate() {
        if n == Vec2::ZERO {
            continue;
        }
        let mut s = f32::INFINITY;
        for &w in bv {
            // A plain comparison (not `f32::min`, whose NaN rule costs more).
            let d = n.dot(w - v);
            if d < s {
                s = d;
            }
        }
        if best.is_none_or(|(bs, _)| s > bs) {
            best = Some((s, i));
        }
    }
    best
}

/// [`max_separation`] for a rect in its own frame (normals `-y, +x, +y, -x`
/// at vertices `(-hx,-hy), (hx,-hy), (hx,hy), (-hx,hy)`): the four face
/// separations come from the bounding box of `bv`. Bit for bit the generic
/// loop's values: `n·(w - v)` with an axis normal is `±(w_k - v_k)`, exactly,
/// and rounding is monotone, so the minimum over `w` is taken at the extreme
/// coordinate.
fn rect_separation(a: &Poly, bv: &[Vec2]) -> (f32, usize) {
    let h = a.verts()[2];
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for &w in bv {
        lo = lo.min(w);
        hi = hi.max(w);
    }
    let seps = [-(hi.y + h.y), lo.x - h.x, lo.y - h.y, -(hi.x + h.x)];
    let mut best = (seps[0], 0);
    for (i, &s) in seps.iter().enumerate().skip(1) {
        if s > best.0 {
            best = (s, i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose2;
    use crate::query::d2::poly::{test_buf, test_core};
    use crate::shape::d2::Rect;

    #[test]
    fn separation_of_boxes() {
        let r = test_core(Rect::new(Vec2::splat(0.5)).unwrap().into());
        let b = r.transformed(&Pose2::from_translation(Vec2::new(2.0, 0.25)), test_buf());
        let (s, f) = max_separation(&r, &b).unwrap();
        assert!((s - 1.0).abs() < 1e-6);
        assert_eq!(r.normals()[f], Vec2::X);
        let p = Poly::point(Vec2::ZERO, 1.0, test_buf());
        assert!(max_separation(&p, &r).is_none());
        let (s, _) = max_separation(&r, &p).unwrap();
        assert!((s + 0.5).abs() < 1e-6);
    }
}
