//! Bounding circles (2D) and spheres (3D).

use crate::math::{Vec2, Vec3, Vector};

/// A ball `|x - center| <= radius`, one type for circles and spheres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBall<V> {
    /// Center.
    pub center: V,
    /// Radius (`>= 0`).
    pub radius: f32,
}

/// A bounding circle.
pub type BoundingCircle = BoundingBall<Vec2>;
/// A bounding sphere.
pub type BoundingSphere = BoundingBall<Vec3>;

impl<V: Vector> BoundingBall<V> {
    /// A ball from center and radius.
    #[inline]
    pub fn new(center: V, radius: f32) -> Self {
        BoundingBall { center, radius }
    }

    /// Whether the closed ball holds `p`.
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        (p - self.center).length_squared() <= self.radius * self.radius
    }
}
