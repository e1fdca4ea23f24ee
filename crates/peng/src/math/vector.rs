//! A small trait over `Vec2` and `Vec3`, for code whose math is the same in both
//! dimensions (bounding boxes, result types, trees).

use core::fmt::Debug;
use core::ops::{Add, Mul, Neg, Sub};
use glam::{Vec2, Vec3};

/// The operations that dimension-independent code needs from a vector.
pub trait Vector:
    Copy
    + Debug
    + PartialEq
    + Default
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f32, Output = Self>
    + Neg<Output = Self>
{
    /// Number of components (2 or 3).
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;
    /// All components `f32::MAX`.
    const MAX: Self;
    /// All components `f32::MIN`.
    const MIN: Self;
    /// A vector with every component `v`.
    fn splat(v: f32) -> Self;
    /// Component-wise minimum.
    fn min(self, o: Self) -> Self;
    /// Component-wise maximum.
    fn max(self, o: Self) -> Self;
    /// Component-wise absolute value.
    fn abs(self) -> Self;
    /// Dot product.
    fn dot(self, o: Self) -> f32;
    /// Component-wise product.
    fn mul_elem(self, o: Self) -> Self;
    /// Component-wise division.
    fn div_elem(self, o: Self) -> Self;
    /// Component `i` (0-based, `i < DIM`).
    fn get(self, i: usize) -> f32;
    /// Sets component `i`.
    fn set(&mut self, i: usize, v: f32);
    /// Whether every component is finite.
    fn is_finite(self) -> bool;
    /// Whether every component of `self` is `<=` the one of `o`.
    fn all_le(self, o: Self) -> bool;
    /// Largest component.
    fn max_element(self) -> f32;
    /// Smallest component.
    fn min_element(self) -> f32;
    /// Product of the components (area in 2D, volume in 3D).
    fn product(self) -> f32;
    /// Squared length.
    fn length_squared(self) -> f32 {
        self.dot(self)
    }
    /// Length.
    fn length(self) -> f32 {
        self.length_squared().sqrt()
    }
    /// The boundary measure of an axis-aligned box whose side lengths are the
    /// components of `self`: the perimeter `2(x + y)` in 2D, the surface area
    /// `2(xy + yz + zx)` in 3D. In any dimension a box has two facets
    /// perpendicular to each axis `i`, each of measure `Π_{j≠i} s_j`. The surface
    /// area heuristic (SAH) of BVH builders weighs nodes by it (MacDonald and
    /// Booth 1990).
    fn box_boundary(self) -> f32 {
        let mut sum = 0.0;
        for i in 0..Self::DIM {
            let mut facet = 1.0;
            for j in (0..Self::DIM).filter(|&j| j != i) {
                facet *= self.get(j);
            }
            sum += facet;
        }
        2.0 * sum
    }
}

macro_rules! impl_vector {
    ($t:ty, $dim:expr) => {
        impl Vector for $t {
            const DIM: usize = $dim;
            const ZERO: Self = <$t>::ZERO;
            const MAX: Self = <$t>::MAX;
            const MIN: Self = <$t>::MIN;
            #[inline]
            fn splat(v: f32) -> Self {
                <$t>::splat(v)
            }
            #[inline]
            fn min(self, o: Self) -> Self {
                <$t>::min(self, o)
            }
            #[inline]
            fn max(self, o: Self) -> Self {
                <$t>::max(self, o)
            }
            #[inline]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline]
            fn dot(self, o: Self) -> f32 {
                <$t>::dot(self, o)
            }
            #[inline]
            fn mul_elem(self, o: Self) -> Self {
                self * o
            }
            #[inline]
            fn div_elem(self, o: Self) -> Self {
                self / o
            }
            #[inline]
            fn get(self, i: usize) -> f32 {
                self[i]
            }
            #[inline]
            fn set(&mut self, i: usize, v: f32) {
                self[i] = v;
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn all_le(self, o: Self) -> bool {
                self.cmple(o).all()
            }
            #[inline]
            fn max_element(self) -> f32 {
                <$t>::max_element(self)
            }
            #[inline]
            fn min_element(self) -> f32 {
                <$t>::min_element(self)
            }
            #[inline]
            fn product(self) -> f32 {
                <$t>::element_product(self)
            }
        }
    };
}

impl_vector!(Vec2, 2);
impl_vector!(Vec3, 3);
