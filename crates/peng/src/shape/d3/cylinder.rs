use crate::math::policy::{check_size, GeometryError};
use crate::math::Vec3;

/// A solid cylinder along the local y axis: `|y| <= half_height`, `x² + z² <= r²`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    half_height: f32,
    radius: f32,
}

impl Cylinder {
    /// A cylinder (sizes finite, `>= 0`).
    pub fn new(half_height: f32, radius: f32) -> Result<Self, GeometryError> {
        Ok(Cylinder {
            half_height: check_size("cylinder half height", half_height)?,
            radius: check_size("cylinder radius", radius)?,
        })
    }
    /// Half the height.
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }
    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// Support point along `dir`: the rim point in the direction of the radial
    /// part of `dir`, on the cap facing `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        let radial = glam::Vec2::new(dir.x, dir.z).normalize_or_zero() * self.radius;
        let y = if dir.y >= 0.0 {
            self.half_height
        } else {
            -self.half_height
        };
        Vec3::new(radial.x, y, radial.y)
    }
}
