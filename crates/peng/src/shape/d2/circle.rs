use crate::math::policy::{check_size, GeometryError};
use crate::math::Vec2;

/// A disk of the given radius centred on the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    radius: f32,
}

impl Circle {
    /// A circle; the radius must be finite and `>= 0`.
    pub fn new(radius: f32) -> Result<Self, GeometryError> {
        Ok(Circle {
            radius: check_size("circle radius", radius)?,
        })
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec2) -> Vec2 {
        dir.normalize_or_zero() * self.radius
    }
}
