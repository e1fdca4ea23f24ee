//! Axis-aligned bounding boxes, one generic type for 2D and 3D.

use crate::math::{Vec2, Vec3, Vector};

/// An axis-aligned box `[min, max]` (closed). The empty box has `min > max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb<V> {
    /// Lower corner.
    pub min: V,
    /// Upper corner.
    pub max: V,
}

/// A 2D axis-aligned box.
pub type Aabb2 = Aabb<Vec2>;
/// A 3D axis-aligned box.
pub type Aabb3 = Aabb<Vec3>;

impl<V: Vector> Aabb<V> {
    /// The empty box: merging anything into it gives that thing.
    pub const EMPTY: Self = Aabb {
        min: V::MAX,
        max: V::MIN,
    };

    /// A box from its corners (not checked: `min > max` on an axis means empty).
    #[inline]
    pub fn new(min: V, max: V) -> Self {
        Aabb { min, max }
    }

    /// The box around a center with the given half-extents.
    #[inline]
    pub fn from_center_half_extents(center: V, half_extents: V) -> Self {
        Aabb {
            min: center - half_extents,
            max: center + half_extents,
        }
    }

    /// The smallest box holding all points (empty for no points).
    pub fn from_points<I: IntoIterator<Item = V>>(points: I) -> Self {
        let mut b = Self::EMPTY;
        for p in points {
            b.add_point(p);
        }
        b
    }

    /// Grows the box to hold `p`.
    #[inline]
    pub fn add_point(&mut self, p: V) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(&self, o: &Self) -> Self {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// Whether the box holds no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        (0..V::DIM).any(|i| self.min.get(i) > self.max.get(i))
    }

    /// Whether the two closed boxes share at least one point (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Self) -> bool {
        self.min.all_le(o.max) && o.min.all_le(self.max)
    }

    /// Whether the closed box holds `p`.
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        self.min.all_le(p) && p.all_le(self.max)
    }

    /// The center.
    #[inline]
    pub fn center(&self) -> V {
        (self.min + self.max) * 0.5
    }

    /// Half the size along each axis.
    #[inline]
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * 0.5
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn loosened(&self, margin: f32) -> Self {
        Aabb {
            min: self.min - V::splat(margin),
            max: self.max + V::splat(margin),
        }
    }
}
