use crate::math::policy::{check_size, GeometryError};
use crate::math::Vec3;

/// A sphere of the given radius centred on the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    radius: f32,
}

impl Ball {
    /// A ball; the radius must be finite and `>= 0`.
    pub fn new(radius: f32) -> Result<Self, GeometryError> {
        Ok(Ball {
            radius: check_size("ball radius", radius)?,
        })
    }
    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        dir.normalize_or_zero() * self.radius
    }
}
