use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec2;

/// An axis-aligned rectangle centred on the local origin (the 2D box).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    half_extents: Vec2,
}

impl Rect {
    /// A rectangle with the given half-extents (finite, `>= 0`).
    pub fn new(half_extents: Vec2) -> Result<Self, GeometryError> {
        let h = check_vec("rect half extents", half_extents)?;
        if h.min_element() < 0.0 {
            return Err(GeometryError::Negative {
                what: "rect half extents",
                value: h.min_element(),
            });
        }
        Ok(Rect { half_extents: h })
    }

    /// The half-extents.
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        self.half_extents
    }

    /// The four corners, counter-clockwise from `(-hx, -hy)`.
    #[inline]
    pub fn vertices(&self) -> [Vec2; 4] {
        let h = self.half_extents;
        [
            Vec2::new(-h.x, -h.y),
            Vec2::new(h.x, -h.y),
            Vec2::new(h.x, h.y),
            Vec2::new(-h.x, h.y),
        ]
    }

    /// Outward normals of the edges `v[i] → v[i+1]`.
    pub const NORMALS: [Vec2; 4] = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];

    /// Support point along `dir` (ties go to the positive side).
    #[inline]
    pub fn support(&self, dir: Vec2) -> Vec2 {
        let h = self.half_extents;
        Vec2::new(
            if dir.x >= 0.0 { h.x } else { -h.x },
            if dir.y >= 0.0 { h.y } else { -h.y },
        )
    }
}
