use crate::math::policy::GeometryError;
use crate::math::Vec2;

/// A convex polygon: vertices counter-clockwise, no three collinear, with the
/// outward unit normal of each edge `v[i] → v[i+1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
}

impl ConvexPolygon {
    /// The convex hull of `points` (duplicates and collinear points are dropped).
    /// Fails when the points span no area (see [`crate::math::policy`]).
    pub fn from_points(points: &[Vec2]) -> Result<Self, GeometryError> {
        let vertices = crate::shape::hull2::convex_hull(points)?;
        Ok(Self::from_hull_unchecked(vertices))
    }

    /// A polygon from vertices already convex and counter-clockwise with no
    /// repeated or collinear points (for example the output of
    /// [`hull2::convex_hull`](crate::shape::hull2::convex_hull)).
    pub fn from_hull_unchecked(vertices: Vec<Vec2>) -> Self {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                Vec2::new(e.y, -e.x).normalize_or_zero()
            })
            .collect();
        ConvexPolygon { vertices, normals }
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Outward unit normal of edge `i` (`v[i] → v[i+1]`).
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec2) -> Vec2 {
        self.vertices[super::support_index(&self.vertices, dir)]
    }
}
