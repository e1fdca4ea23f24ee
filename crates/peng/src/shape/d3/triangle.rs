use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec3;

/// A triangle, two-sided; its normal is `(b - a) × (c - a)` normalized.
/// Zero-area triangles are allowed and act as segments or points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle {
    v: [Vec3; 3],
}

impl Triangle {
    /// A triangle from three points.
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Result<Self, GeometryError> {
        Ok(Triangle {
            v: [
                check_vec("triangle vertex a", a)?,
                check_vec("triangle vertex b", b)?,
                check_vec("triangle vertex c", c)?,
            ],
        })
    }
    /// The vertices in the order given.
    #[inline]
    pub fn vertices(&self) -> &[Vec3; 3] {
        &self.v
    }
    /// The unit normal `(b-a)×(c-a)`, or `None` for a zero-area triangle.
    #[inline]
    pub fn normal(&self) -> Option<Vec3> {
        (self.v[1] - self.v[0])
            .cross(self.v[2] - self.v[0])
            .try_normalize()
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        self.v[super::support_index(&self.v, dir)]
    }
}
