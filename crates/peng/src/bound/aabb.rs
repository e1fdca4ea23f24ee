//! Axis-aligned bounding boxes, one generic type for 2D and 3D.

use crate::math::{Mat3, Pose2, Pose3, Vec2, Vec3, Vector};

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

    /// Whether `o` lies inside this closed box. Every box contains the empty box;
    /// the empty box contains only empty boxes.
    #[inline]
    pub fn contains(&self, o: &Self) -> bool {
        o.is_empty() || (self.min.all_le(o.min) && o.max.all_le(self.max))
    }

    /// Side lengths, clamped at zero (the empty box has size zero).
    #[inline]
    pub fn size(&self) -> V {
        (self.max - self.min).max(V::ZERO)
    }

    /// Area (2D) or volume (3D); zero for an empty or flat box.
    #[inline]
    pub fn measure(&self) -> f32 {
        if self.is_empty() {
            0.0
        } else {
            self.size().product()
        }
    }

    /// Perimeter (2D) or surface area (3D), the cost the surface area heuristic
    /// assigns to a BVH node; zero for an empty box.
    #[inline]
    pub fn boundary_measure(&self) -> f32 {
        if self.is_empty() {
            0.0
        } else {
            self.size().box_boundary()
        }
    }

    /// The common part of two boxes, `None` when they do not overlap. Touching
    /// boxes give a flat box (closed boxes share their touching face).
    #[inline]
    pub fn intersection(&self, o: &Self) -> Option<Self> {
        let b = Aabb {
            min: self.min.max(o.min),
            max: self.max.min(o.max),
        };
        // Written so that a NaN corner gives `None`.
        if (0..V::DIM).all(|i| b.min.get(i) <= b.max.get(i)) {
            Some(b)
        } else {
            None
        }
    }

    /// The slab test: the parameter interval `[t_enter, t_exit]` over which the ray
    /// `origin + t·dir`, `0 <= t <= max_t`, lies in the closed box, or `None` when
    /// it misses. A ray starting inside gets `t_enter = 0`. Parameters are in
    /// units of `|dir|`.
    ///
    /// Follows Kay and Kajiya (1986) as presented in Ericson, Real-Time Collision
    /// Detection, 5.3.3: per axis, the ray is inside the slab `[min_i, max_i]` for
    /// `t` between `(min_i - o_i)/d_i` and `(max_i - o_i)/d_i`; the box is the
    /// intersection of the slabs, so the interval is the largest entry and the
    /// smallest exit. An axis whose direction component is zero (or so small that
    /// `1/d_i` overflows) never enters or leaves its slab: the ray misses unless the
    /// origin is already between the slab's planes. That branch also avoids the
    /// `0·∞ = NaN` of the textbook version for origins on a slab plane.
    /// Non-finite `origin`, `dir`, or a NaN or negative `max_t` give `None`; an
    /// infinite `max_t` is allowed.
    pub fn ray_interval(&self, origin: V, dir: V, max_t: f32) -> Option<(f32, f32)> {
        if !(origin.is_finite() && dir.is_finite() && max_t >= 0.0) || self.is_empty() {
            return None;
        }
        let mut t_enter = 0.0f32;
        let mut t_exit = max_t;
        for i in 0..V::DIM {
            let (o, d) = (origin.get(i), dir.get(i));
            let (lo, hi) = (self.min.get(i), self.max.get(i));
            let inv = 1.0 / d;
            if !inv.is_finite() {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (mut t0, mut t1) = ((lo - o) * inv, (hi - o) * inv);
            if t0 > t1 {
                core::mem::swap(&mut t0, &mut t1);
            }
            // Finite origin and `inv` with finite or infinite bounds give no NaN
            // here; plain comparisons keep the first bound on ties.
            if t0 > t_enter {
                t_enter = t0;
            }
            if t1 < t_exit {
                t_exit = t1;
            }
            if t_enter > t_exit {
                return None;
            }
        }
        Some((t_enter, t_exit))
    }

    /// The box over all of space (every bound infinite); conservative bounds of
    /// unbounded shapes fall back to it.
    pub fn everything() -> Self {
        Aabb {
            min: V::splat(f32::NEG_INFINITY),
            max: V::splat(f32::INFINITY),
        }
    }

    /// Whether every bound is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }
}

impl Aabb2 {
    /// The perimeter (2D name for [`Aabb::boundary_measure`]).
    #[inline]
    pub fn perimeter(&self) -> f32 {
        self.boundary_measure()
    }

    /// A conservative box of this (local) box after the rigid `pose`: it holds
    /// every point of the rotated box, but may be looser than a box recomputed
    /// from the shape (`Shape::aabb`), since the corners of the old box are in
    /// general not points of the shape.
    ///
    /// Arvo, "Transforming Axis-Aligned Bounding Boxes" (Graphics Gems, 1990), as
    /// in Ericson, Real-Time Collision Detection, 4.2.6: the new center is the
    /// posed old center, and the extent along world axis `i` of the rotated box is
    /// `Σ_j |R_ij| h_j` (the support of the box along `e_i`), i.e. `|R|·h`.
    /// Empty boxes stay empty; boxes with infinite bounds become [`Aabb::everything`].
    pub fn transformed(&self, pose: &Pose2) -> Self {
        if self.is_empty() {
            return Self::EMPTY;
        }
        if !self.is_finite() {
            return Self::everything();
        }
        let c = pose.transform_point(self.center());
        let h = self.half_extents();
        let (cs, sn) = (pose.rotation.cos.abs(), pose.rotation.sin.abs());
        let e = Vec2::new(cs * h.x + sn * h.y, sn * h.x + cs * h.y);
        Self::from_center_half_extents(c, e)
    }
}

impl Aabb3 {
    /// The surface area (3D name for [`Aabb::boundary_measure`]).
    #[inline]
    pub fn surface_area(&self) -> f32 {
        self.boundary_measure()
    }

    /// The volume (3D name for [`Aabb::measure`]).
    #[inline]
    pub fn volume(&self) -> f32 {
        self.measure()
    }

    /// A conservative box of this (local) box after the rigid `pose` (Arvo's
    /// method; see [`Aabb2::transformed`]): center `pose·c`, half-extents `|R|·h`.
    /// Empty boxes stay empty; boxes with infinite bounds become
    /// [`Aabb::everything`].
    pub fn transformed(&self, pose: &Pose3) -> Self {
        if self.is_empty() {
            return Self::EMPTY;
        }
        if !self.is_finite() {
            return Self::everything();
        }
        let m = pose.rotation_matrix();
        let abs_m = Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs());
        let c = pose.transform_point(self.center());
        Self::from_center_half_extents(c, abs_m * self.half_extents())
    }
}

impl Aabb2 {
    /// The area (2D name for [`Aabb::measure`]).
    #[inline]
    pub fn area(&self) -> f32 {
        self.measure()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_of_unit_boxes() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(b.volume(), 6.0);
        assert_eq!(b.surface_area(), 2.0 * (2.0 + 6.0 + 3.0));
        let r = Aabb2::new(Vec2::ZERO, Vec2::new(2.0, 3.0));
        assert_eq!(r.area(), 6.0);
        assert_eq!(r.perimeter(), 10.0);
        assert_eq!(Aabb3::EMPTY.volume(), 0.0);
        assert_eq!(Aabb3::EMPTY.surface_area(), 0.0);
    }
}
