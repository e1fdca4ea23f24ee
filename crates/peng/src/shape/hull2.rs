//! Convex hull of a 2D point set.

use crate::math::policy::GeometryError;
use crate::math::Vec2;

/// The convex hull of `points`, counter-clockwise, without duplicate or
/// collinear vertices (Andrew's monotone chain).
pub fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, GeometryError> {
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::NonFinite {
            what: "convex hull input point",
        });
    }
    if points.len() < 3 {
        return Err(GeometryError::TooFew {
            what: "convex polygon",
            needed: 3,
            got: points.len(),
        });
    }
    let mut pts: Vec<Vec2> = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    if hull.len() < 3 {
        return Err(GeometryError::Degenerate {
            what: "convex polygon",
            why: "all points are coincident or collinear",
        });
    }
    Ok(hull)
}
