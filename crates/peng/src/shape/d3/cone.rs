use crate::math::policy::{check_size, GeometryError};
use crate::math::Vec3;

/// A solid cone along the local y axis: base disk of `radius` at
/// `y = -half_height`, apex at `y = +half_height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    half_height: f32,
    radius: f32,
}

impl Cone {
    /// A cone (sizes finite, `>= 0`).
    pub fn new(half_height: f32, radius: f32) -> Result<Self, GeometryError> {
        Ok(Cone {
            half_height: check_size("cone half height", half_height)?,
            radius: check_size("cone radius", radius)?,
        })
    }
    /// Half the height.
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }
    /// The base radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// Support point along `dir`: the apex or a point of the base rim, whichever
    /// reaches farther along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        let apex = Vec3::new(0.0, self.half_height, 0.0);
        let radial = glam::Vec2::new(dir.x, dir.z).normalize_or_zero() * self.radius;
        let rim = Vec3::new(radial.x, -self.half_height, radial.y);
        if apex.dot(dir) >= rim.dot(dir) {
            apex
        } else {
            rim
        }
    }
}
