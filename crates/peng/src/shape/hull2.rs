//! Convex hull of a 2D point set.
//!
//! Andrew's monotone chain (A. M. Andrew, "Another efficient algorithm for
//! convex hulls in two dimensions", Information Processing Letters 9(5), 1979):
//! sort the points by x then y, build the lower and the upper chain, each time
//! dropping the last vertex while it does not turn left.
//!
//! "Turns left" is decided with a scale-relative tolerance (policy rule 4 in
//! [`crate::math::policy`]): a vertex within `eps` of the line through its
//! neighbours, or on the inner side of it, is dropped. This drops collinear points and
//! merges near-duplicates (a point within `eps` of its neighbour is within `eps`
//! of any line through that neighbour). Cross products are taken in f64 on the
//! f32 input, where the differences and products are exact or nearly so.

use crate::math::policy::GeometryError;
use crate::math::tolerance::REL_EPS;
use crate::math::Vec2;
use glam::DVec2;

const WHAT: &str = "convex polygon";

/// The convex hull of `points`, counter-clockwise from the lowest-x (then
/// lowest-y) vertex, without duplicate or collinear vertices (within a tolerance
/// relative to the size of the coordinates). The vertices are input points.
///
/// The result does not depend on the order of `points`.
///
/// # Errors
/// - [`GeometryError::NonFinite`] if a coordinate is NaN or infinite,
///   [`GeometryError::TooLarge`] if one exceeds
///   [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE);
/// - [`GeometryError::TooFew`] for fewer than 3 points;
/// - [`GeometryError::Degenerate`] if the points are coincident or collinear
///   within tolerance.
pub fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, GeometryError> {
    crate::math::policy::check_points("convex hull input point", points)?;
    if points.len() < 3 {
        return Err(GeometryError::TooFew {
            what: WHAT,
            needed: 3,
            got: points.len(),
        });
    }
    let mut pts: Vec<Vec2> = points.to_vec();
    crate::sort::stable_by(&mut pts, |a, b| {
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    });
    pts.dedup();
    let eps = hull_eps(&pts);

    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() + 1);
    // Lower chain left to right, then upper chain right to left; each chain
    // ends on the first point of the other, which is popped.
    for pass in 0..2 {
        let start = hull.len();
        let mut push = |p: Vec2| {
            while hull.len() >= start + 2
                && !left_turn(hull[hull.len() - 2], hull[hull.len() - 1], p, eps)
            {
                hull.pop();
            }
            hull.push(p);
        };
        if pass == 0 {
            pts.iter().for_each(|&p| push(p));
        } else {
            pts.iter().rev().for_each(|&p| push(p));
        }
        hull.pop();
    }
    // Around the closing vertex (where the chains meet) the test has not been
    // applied; sweep the cycle until every corner turns left.
    let mut changed = true;
    while changed && hull.len() >= 3 {
        changed = false;
        let mut k = 0;
        while k < hull.len() && hull.len() >= 3 {
            let n = hull.len();
            let (p, q, r) = (hull[(k + n - 1) % n], hull[k], hull[(k + 1) % n]);
            if left_turn(p, q, r, eps) {
                k += 1;
            } else {
                hull.remove(k);
                changed = true;
            }
        }
    }
    if hull.len() < 3 {
        return Err(GeometryError::Degenerate {
            what: WHAT,
            why: "all points are coincident or collinear",
        });
    }
    // Start from the lowest (x, y) vertex, as the chain does.
    if let Some(first) = (0..hull.len()).min_by(|&a, &b| {
        let (a, b) = (hull[a], hull[b]);
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    }) {
        hull.rotate_left(first);
    }
    Ok(hull)
}

/// The tolerance: `REL_EPS` times the sum over the axes of the largest absolute
/// coordinate (the size f32 rounding of the input is relative to).
fn hull_eps(pts: &[Vec2]) -> f64 {
    let m = pts.iter().fold(Vec2::ZERO, |m, p| m.max(p.abs()));
    REL_EPS as f64 * (m.x + m.y) as f64
}

/// Whether `o → a → b` turns left (counter-clockwise) by more than `eps`: `a`
/// lies more than `eps` to the right of the line `o → b`. The distance is the
/// cross product `(a - o) × (b - o)` over `|b - o|`.
#[inline]
fn left_turn(o: Vec2, a: Vec2, b: Vec2, eps: f64) -> bool {
    let (o, a, b) = (o.as_dvec2(), a.as_dvec2(), b.as_dvec2());
    let ob: DVec2 = b - o;
    (a - o).perp_dot(ob) > eps * ob.length()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_with_interior_edge_and_duplicate_points() {
        let pts = [
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(0.5, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.3),
        ];
        let h = convex_hull(&pts).unwrap();
        assert_eq!(
            h,
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0)
            ]
        );
    }

    #[test]
    fn left_turn_is_scale_relative() {
        let eps = 1e-6;
        // o → a → b with a below the x axis turns left; above, right.
        assert!(left_turn(
            Vec2::ZERO,
            Vec2::new(1.0, -1e-3),
            Vec2::new(2.0, 0.0),
            eps
        ));
        assert!(!left_turn(
            Vec2::ZERO,
            Vec2::new(1.0, 1e-3),
            Vec2::new(2.0, 0.0),
            eps
        ));
        // Within eps of the line: not a turn.
        assert!(!left_turn(
            Vec2::ZERO,
            Vec2::new(1.0, -1e-7),
            Vec2::new(2.0, 0.0),
            eps
        ));
    }
}
