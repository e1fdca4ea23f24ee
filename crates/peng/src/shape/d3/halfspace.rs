use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec3;

/// The solid half of space `{ x : normal · x <= 0 }` in the local frame: the
/// plane passes through the local origin and `normal` points out of the solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfSpace {
    normal: Vec3,
}

impl HalfSpace {
    /// A half-space with the given outward normal (normalized here).
    pub fn new(normal: Vec3) -> Result<Self, GeometryError> {
        let n = check_vec("half-space normal", normal)?;
        let normal = n.try_normalize().ok_or(GeometryError::Degenerate {
            what: "half-space",
            why: "normal has zero length",
        })?;
        Ok(HalfSpace { normal })
    }
    /// The outward unit normal.
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.normal
    }
}
