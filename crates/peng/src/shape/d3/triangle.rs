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
        let (e1, e2) = (self.v[1] - self.v[0], self.v[2] - self.v[0]);
        let n = e1.cross(e2);
        // Below 2^-100 the squared length has lost its bits to underflow
        // (edges of 1e-23, or slivers whose cross product is that small):
        // the normal of the edges scaled to unit size has the same direction.
        if n.length_squared() >= 7.9e-31 {
            return n.try_normalize();
        }
        let unit_size = |e: Vec3| e / e.abs().max_element();
        let (s1, s2) = (unit_size(e1), unit_size(e2));
        s1.cross(s2)
            .try_normalize()
            .filter(|_| s1.is_finite() && s2.is_finite())
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        self.v[super::support_index(&self.v, dir)]
    }
}
