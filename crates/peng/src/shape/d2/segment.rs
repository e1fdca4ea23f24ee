use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec2;

/// A line segment from `a` to `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    a: Vec2,
    b: Vec2,
}

impl Segment {
    /// A segment; `a == b` is allowed (a point).
    pub fn new(a: Vec2, b: Vec2) -> Result<Self, GeometryError> {
        Ok(Segment {
            a: check_vec("segment end a", a)?,
            b: check_vec("segment end b", b)?,
        })
    }
    /// First end.
    #[inline]
    pub fn a(&self) -> Vec2 {
        self.a
    }
    /// Second end.
    #[inline]
    pub fn b(&self) -> Vec2 {
        self.b
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec2) -> Vec2 {
        if dir.dot(self.b - self.a) > 0.0 {
            self.b
        } else {
            self.a
        }
    }
}
