use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec3;

/// A line segment from `a` to `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    a: Vec3,
    b: Vec3,
}

impl Segment {
    /// A segment; `a == b` is allowed (a point).
    pub fn new(a: Vec3, b: Vec3) -> Result<Self, GeometryError> {
        Ok(Segment {
            a: check_vec("segment end a", a)?,
            b: check_vec("segment end b", b)?,
        })
    }
    /// First end.
    #[inline]
    pub fn a(&self) -> Vec3 {
        self.a
    }
    /// Second end.
    #[inline]
    pub fn b(&self) -> Vec3 {
        self.b
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        if dir.dot(self.b - self.a) > 0.0 {
            self.b
        } else {
            self.a
        }
    }
}
