//! Convex hull of a 3D point set.

use crate::math::policy::GeometryError;
use crate::math::Vec3;

/// The convex hull of `points`: its vertices and its faces as vertex loops,
/// counter-clockwise seen from outside, with coplanar faces merged.
pub fn convex_hull(points: &[Vec3]) -> Result<(Vec<Vec3>, Vec<Vec<u32>>), GeometryError> {
    let _ = points;
    Err(GeometryError::Degenerate {
        what: "convex hull",
        why: "3D hull not built yet",
    })
}
