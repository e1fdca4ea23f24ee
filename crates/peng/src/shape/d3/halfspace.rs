use crate::math::policy::{check_direction, GeometryError};
use crate::math::Vec3;

/// The solid half of space `{ x : normal · x <= 0 }` in the local frame: the
/// plane passes through the local origin and `normal` points out of the solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfSpace {
    normal: Vec3,
}

impl HalfSpace {
    /// A half-space with the given outward normal (normalized here; any finite
    /// non-zero vector, however long or short, is a direction).
    pub fn new(normal: Vec3) -> Result<Self, GeometryError> {
        let n = check_direction("half-space normal", normal)?;
        // Divided by its largest component first, the squared length lies in
        // [1, 3]: no overflow for 1e20, no underflow for 1e-30.
        let normal = (n / n.abs().max_element()).normalize();
        Ok(HalfSpace { normal })
    }
    /// The outward unit normal.
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.normal
    }
}
