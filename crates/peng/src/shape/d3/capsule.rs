use crate::math::policy::{check_size, check_vec, GeometryError};
use crate::math::Vec3;

/// The set of points within `radius` of the segment `a b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    a: Vec3,
    b: Vec3,
    radius: f32,
}

impl Capsule {
    /// A capsule around the segment `a b`; `a == b` is allowed (a ball).
    pub fn new(a: Vec3, b: Vec3, radius: f32) -> Result<Self, GeometryError> {
        Ok(Capsule {
            a: check_vec("capsule end a", a)?,
            b: check_vec("capsule end b", b)?,
            radius: check_size("capsule radius", radius)?,
        })
    }
    /// A capsule along the local y axis: ends at `(0, ±half_height, 0)`.
    pub fn vertical(half_height: f32, radius: f32) -> Result<Self, GeometryError> {
        let h = check_size("capsule half height", half_height)?;
        Self::new(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0), radius)
    }
    /// First end of the core segment.
    #[inline]
    pub fn a(&self) -> Vec3 {
        self.a
    }
    /// Second end of the core segment.
    #[inline]
    pub fn b(&self) -> Vec3 {
        self.b
    }
    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// Support point along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        let core = if dir.dot(self.b - self.a) > 0.0 {
            self.b
        } else {
            self.a
        };
        core + dir.normalize_or_zero() * self.radius
    }
}
