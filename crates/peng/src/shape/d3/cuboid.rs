use crate::math::policy::{check_vec, GeometryError};
use crate::math::Vec3;

/// An axis-aligned box centred on the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// A cuboid with the given half-extents (finite, `>= 0`).
    pub fn new(half_extents: Vec3) -> Result<Self, GeometryError> {
        let h = check_vec("cuboid half extents", half_extents)?;
        if h.min_element() < 0.0 {
            return Err(GeometryError::Negative {
                what: "cuboid half extents",
                value: h.min_element(),
            });
        }
        Ok(Cuboid { half_extents: h })
    }
    /// The half-extents.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }
    /// Support point along `dir` (ties go to the positive side).
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        let h = self.half_extents;
        Vec3::new(
            if dir.x >= 0.0 { h.x } else { -h.x },
            if dir.y >= 0.0 { h.y } else { -h.y },
            if dir.z >= 0.0 { h.z } else { -h.z },
        )
    }
    /// The eight corners; corner `i` has sign `+` on axis `k` when bit `k` of `i` is set.
    pub fn vertices(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        core::array::from_fn(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
    }
}
