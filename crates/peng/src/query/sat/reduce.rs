//! Reducing a set of contact points to at most four that keep the deepest point
//! and cover the largest area (the approach described by Gregorius, GDC 2015
//! "Robust Contact Creation for Physics Simulations").

use crate::math::Vec3;
use crate::query::types::{ContactPoint3, Manifold3};

/// Pushes at most 4 of `points` into `out`: the deepest first, then the one
/// farthest from it, then the one making the largest triangle with those two,
/// then the one adding the most area outside that triangle. Geometry is taken
/// from `point_a`; `normal` is the contact normal (areas are measured around it).
pub(crate) fn reduce_to_four(points: &[ContactPoint3], normal: Vec3, out: &mut Manifold3) {
    if points.len() <= 4 {
        for &p in points {
            out.push(p);
        }
        return;
    }
    let at = |i: usize| points[i].point_a;
    let i0 = argmax(points.len(), |i| points[i].depth);
    let p0 = at(i0);
    let i1 = argmax(points.len(), |i| (at(i) - p0).length_squared());
    let p1 = at(i1);
    // Signed area (times 2) of the triangle p0 p1 p around `normal`.
    let area = |p: Vec3, q: Vec3, r: Vec3| (q - p).cross(r - p).dot(normal);
    let i2 = argmax(points.len(), |i| area(p0, p1, at(i)).abs());
    let p2 = at(i2);
    // Orient the triangle counter-clockwise around the normal.
    let (q0, q1, q2) = if area(p0, p1, p2) >= 0.0 {
        (p0, p1, p2)
    } else {
        (p0, p2, p1)
    };
    // Area a point adds outside the triangle: the largest outside area over
    // the triangle's edges.
    let outside = |p: Vec3| {
        (-area(q0, q1, p))
            .max(-area(q1, q2, p))
            .max(-area(q2, q0, p))
    };
    let i3 = argmax(points.len(), |i| {
        if i == i0 || i == i1 || i == i2 {
            f32::NEG_INFINITY
        } else {
            outside(at(i))
        }
    });
    out.push(points[i0]);
    if i1 != i0 {
        out.push(points[i1]);
    }
    if i2 != i0 && i2 != i1 && area(p0, p1, p2).abs() > 0.0 {
        out.push(points[i2]);
        if outside(at(i3)) > 0.0 {
            out.push(points[i3]);
        }
    }
}

/// The index with the largest key; ties go to the lowest index.
#[inline]
fn argmax(n: usize, key: impl Fn(usize) -> f32) -> usize {
    let mut best = 0;
    let mut best_k = f32::NEG_INFINITY;
    for i in 0..n {
        let k = key(i);
        if k > best_k {
            best_k = k;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::types::ContactId;

    #[test]
    fn keeps_deepest_and_corners() {
        // A 3x3 grid of points; the centre is deepest.
        let mut pts = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                let p = Vec3::new(i as f32, j as f32, 0.0);
                let depth = if i == 1 && j == 1 { 1.0 } else { 0.5 };
                pts.push(ContactPoint3 {
                    point_a: p,
                    point_b: p,
                    depth,
                    id: ContactId((i * 3 + j) as u32),
                });
            }
        }
        let mut m = Manifold3::new(Vec3::Z);
        reduce_to_four(&pts, Vec3::Z, &mut m);
        assert_eq!(m.len(), 4);
        assert_eq!(m.points()[0].point_a, Vec3::new(1.0, 1.0, 0.0));
        // The others are grid corners.
        for p in &m.points()[1..] {
            assert!(p.point_a.x != 1.0 && p.point_a.y != 1.0, "{p:?}");
        }
    }
}
