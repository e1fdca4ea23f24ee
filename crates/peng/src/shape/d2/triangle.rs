use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec2;

/// A triangle. Vertices are stored counter-clockwise (reordered if given
/// clockwise); a degenerate (zero-area) triangle is allowed and acts as a segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle {
    v: [Vec2; 3],
}

impl Triangle {
    /// A triangle from three points.
    pub fn new(a: Vec2, b: Vec2, c: Vec2) -> Result<Self, GeometryError> {
        let (a, b, c) = (
            check_vec("triangle vertex a", a)?,
            check_vec("triangle vertex b", b)?,
            check_vec("triangle vertex c", c)?,
        );
        let v = if (b - a).perp_dot(c - a) < 0.0 {
            [a, c, b]
        } else {
            [a, b, c]
        };
        Ok(Triangle { v })
    }
    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2; 3] {
        &self.v
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec2) -> Vec2 {
        self.v[super::support_index(&self.v, dir)]
    }
}
