//! The ball through a support set of up to `DIM + 1` points, the dimension-specific
//! step of Welzl's algorithm.
//!
//! Formulas are evaluated in f64 relative to the first point. When the points
//! span too few dimensions for a unique circumball (duplicates, three collinear
//! points, four coplanar points in 3D), the ball is taken through a subset: the
//! smallest ball of a subset that holds all the points, else the largest one.
//! In exact arithmetic Welzl never asks for such a set; in floating point it can,
//! and the fallback keeps the answer finite and close.

use super::sphere::BoundingBall;
use crate::math::{Vec2, Vec3, Vector};
use glam::{DVec2, DVec3};

/// Relative threshold on the sine-like ratio below which a triangle or
/// tetrahedron counts as flat (its circumcenter would be at or near infinity).
const FLAT: f64 = 1e-12;

/// The ball through a support set (see the module docs).
pub(crate) trait Circumball: Vector {
    /// The ball with every point of `support` (at most `DIM + 1`) on its
    /// boundary; a negative radius for an empty support set (the empty ball).
    fn circumball(support: &[Self]) -> BoundingBall<Self>;
}

/// Shared cases: empty, one point, two points (the ball on the diameter).
fn small<V: Vector>(support: &[V]) -> Option<BoundingBall<V>> {
    match support {
        [] => Some(BoundingBall::new(V::ZERO, -1.0)),
        [p] => Some(BoundingBall::new(*p, 0.0)),
        [a, b] => Some(BoundingBall::new((*a + *b) * 0.5, 0.5 * (*b - *a).length())),
        _ => None,
    }
}

/// Among balls built from subsets, the smallest holding all of `pts` (with a
/// relative slack), else the largest.
fn pick<V: Vector>(cands: impl Iterator<Item = BoundingBall<V>>, pts: &[V]) -> BoundingBall<V> {
    let mut best_holding: Option<BoundingBall<V>> = None;
    let mut largest = BoundingBall::new(V::ZERO, -1.0);
    for b in cands {
        let slack = 1e-5 * b.radius.max(f32::MIN_POSITIVE);
        let holds = pts
            .iter()
            .all(|&p| (p - b.center).length() <= b.radius + slack);
        if holds && best_holding.is_none_or(|h| b.radius < h.radius) {
            best_holding = Some(b);
        }
        if b.radius > largest.radius {
            largest = b;
        }
    }
    best_holding.unwrap_or(largest)
}

/// The three pairs of three points.
fn pairs<V: Vector>(a: V, b: V, c: V) -> impl Iterator<Item = BoundingBall<V>> {
    [[a, b], [b, c], [a, c]]
        .into_iter()
        .filter_map(|s| small(&s))
}

impl Circumball for Vec2 {
    fn circumball(support: &[Vec2]) -> BoundingBall<Vec2> {
        if let Some(b) = small(support) {
            return b;
        }
        let (a, b, c) = (support[0], support[1], support[2]);
        circle2(a, b, c).unwrap_or_else(|| pick(pairs(a, b, c), support))
    }
}

/// Circumcircle of a triangle in the plane. With `u = b - a`, `v = c - a` the
/// center `x` (relative to `a`) satisfies `2 u·x = |u|²`, `2 v·x = |v|²`;
/// Cramer's rule gives `x = (|u|² v⊥' - |v|² u⊥') / (2 u×v)` written out below.
/// `None` when the triangle is flat.
fn circle2(a: Vec2, b: Vec2, c: Vec2) -> Option<BoundingBall<Vec2>> {
    let a64 = a.as_dvec2();
    let u = b.as_dvec2() - a64;
    let v = c.as_dvec2() - a64;
    let d = 2.0 * u.perp_dot(v);
    let (uu, vv) = (u.length_squared(), v.length_squared());
    if d.abs() <= 2.0 * FLAT.sqrt() * (uu * vv).sqrt() || d == 0.0 {
        return None;
    }
    let x = DVec2::new(v.y * uu - u.y * vv, u.x * vv - v.x * uu) / d;
    let r = x.length();
    Some(BoundingBall::new((a64 + x).as_vec2(), r as f32))
}

impl Circumball for Vec3 {
    fn circumball(support: &[Vec3]) -> BoundingBall<Vec3> {
        if let Some(b) = small(support) {
            return b;
        }
        match *support {
            [a, b, c] => circle3(a, b, c).unwrap_or_else(|| pick(pairs(a, b, c), support)),
            [a, b, c, d] => sphere3(a, b, c, d).unwrap_or_else(|| {
                // Flat tetrahedron: try the four faces (each falling back to its
                // pairs), keep the best.
                let faces = [[a, b, c], [a, b, d], [a, c, d], [b, c, d]];
                let cands = faces.into_iter().flat_map(|[p, q, r]| {
                    circle3(p, q, r)
                        .into_iter()
                        .chain(pairs(p, q, r))
                        .collect::<Vec<_>>()
                });
                pick(cands, support)
            }),
            // The support set never exceeds DIM + 1 points; be total anyway.
            _ => pick(
                support
                    .iter()
                    .flat_map(|&p| support.iter().map(move |&q| [p, q]))
                    .filter_map(|s| small(&s)),
                support,
            ),
        }
    }
}

/// The smallest sphere through three points in space: its center is the
/// triangle's circumcenter, in the triangle's plane. With `u = b - a`,
/// `v = c - a`, `n = u × v`: `x = (|u|² (v × n) + |v|² (n × u)) / (2|n|²)`
/// (Ericson 4.3.5 derives the same from barycentric coordinates).
fn circle3(a: Vec3, b: Vec3, c: Vec3) -> Option<BoundingBall<Vec3>> {
    let a64 = a.as_dvec3();
    let u = b.as_dvec3() - a64;
    let v = c.as_dvec3() - a64;
    let n = u.cross(v);
    let nn = n.length_squared();
    let (uu, vv) = (u.length_squared(), v.length_squared());
    if nn <= FLAT * uu * vv || nn == 0.0 {
        return None;
    }
    let x = (v.cross(n) * uu + n.cross(u) * vv) / (2.0 * nn);
    Some(BoundingBall::new((a64 + x).as_vec3(), x.length() as f32))
}

/// Circumsphere of a tetrahedron: the center `x` (relative to `a`) solves
/// `2 [u v w]ᵀ x = (|u|², |v|², |w|²)`; by Cramer's rule
/// `x = (|u|² (v × w) + |v|² (w × u) + |w|² (u × v)) / (2 u·(v × w))`.
fn sphere3(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Option<BoundingBall<Vec3>> {
    let a64 = a.as_dvec3();
    let u = b.as_dvec3() - a64;
    let v = c.as_dvec3() - a64;
    let w = d.as_dvec3() - a64;
    let vw = v.cross(w);
    let det = u.dot(vw);
    let scale = (u.length_squared() * v.length_squared() * w.length_squared()).sqrt();
    if det.abs() <= FLAT.sqrt() * scale || det == 0.0 {
        return None;
    }
    let x: DVec3 = (vw * u.length_squared()
        + w.cross(u) * v.length_squared()
        + u.cross(v) * w.length_squared())
        / (2.0 * det);
    Some(BoundingBall::new((a64 + x).as_vec3(), x.length() as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circumballs_closed_forms() {
        // Right triangle: center at the hypotenuse midpoint.
        let b = Vec2::circumball(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)]);
        assert!((b.center - Vec2::ONE).length() < 1e-6);
        assert!((b.radius - 2f32.sqrt()).abs() < 1e-6);
        // Collinear: the farthest pair.
        let b = Vec2::circumball(&[Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(3.0, 3.0)]);
        assert!((b.center - Vec2::splat(1.5)).length() < 1e-6);
        // Duplicates.
        let b = Vec3::circumball(&[Vec3::ONE, Vec3::ONE, Vec3::ONE, Vec3::ONE]);
        assert_eq!(b.center, Vec3::ONE);
        assert_eq!(b.radius, 0.0);
        // Regular tetrahedron with circumradius √3.
        let t = [
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, 1.0),
        ];
        let b = Vec3::circumball(&t);
        assert!(b.center.length() < 1e-6);
        assert!((b.radius - 3f32.sqrt()).abs() < 1e-6);
        // Four coplanar points on a circle (a square): the circle's sphere.
        let sq = [
            Vec3::new(1.0, 0.0, 5.0),
            Vec3::new(0.0, 1.0, 5.0),
            Vec3::new(-1.0, 0.0, 5.0),
            Vec3::new(0.0, -1.0, 5.0),
        ];
        let b = Vec3::circumball(&sq);
        assert!((b.center - Vec3::new(0.0, 0.0, 5.0)).length() < 1e-6);
        assert!((b.radius - 1.0).abs() < 1e-6);
    }
}
