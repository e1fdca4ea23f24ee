//! Support mappings: the only thing GJK and EPA know about a shape.

use crate::math::{Pose3, Vec3};

/// A convex set described by its support function, as a core inflated by a
/// radius: the set is `{ c + r·u : c in core, |u| <= 1 }`.
///
/// Implementors give the support point of the *core* (the point of the core
/// farthest along `dir`, in the shape's local frame; `dir` need not be unit and
/// may be zero, then any core point will do) and the radius. Shapes without a
/// rounded margin keep the default radius 0.
pub trait SupportMap {
    /// The point of the core farthest along `dir` (local frame).
    fn support(&self, dir: Vec3) -> Vec3;

    /// Radius added around the core (0 for sharp shapes).
    #[inline]
    fn core_radius(&self) -> f32 {
        0.0
    }

    /// The support point of the whole (inflated) shape: core support plus the
    /// radius along the normalized direction.
    #[inline]
    fn full_support(&self, dir: Vec3) -> Vec3 {
        self.support(dir) + dir.normalize_or_zero() * self.core_radius()
    }
}

impl<T: SupportMap + ?Sized> SupportMap for &T {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        (**self).support(dir)
    }
    #[inline]
    fn core_radius(&self) -> f32 {
        (**self).core_radius()
    }
}

/// A support map seen through a rigid pose: `support(d) = pose(inner.support(pose⁻¹ d))`.
/// GJK places shape B in A's frame this way.
#[derive(Debug, Clone, Copy)]
pub struct Transformed<'a, S: ?Sized> {
    /// The shape.
    pub inner: &'a S,
    /// Where the shape sits in the frame of the query.
    pub pose: Pose3,
}

impl<S: SupportMap + ?Sized> SupportMap for Transformed<'_, S> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.pose
            .transform_point(self.inner.support(self.pose.inverse_transform_vector(dir)))
    }
    #[inline]
    fn core_radius(&self) -> f32 {
        self.inner.core_radius()
    }
}

/// A point: the core of a ball.
impl SupportMap for Vec3 {
    #[inline]
    fn support(&self, _dir: Vec3) -> Vec3 {
        *self
    }
}

/// The support of the Minkowski difference `A − B` (B placed by `pose_ab` in A's
/// frame), with the points of A and B that produced it.
#[inline]
pub(crate) fn support_pair<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    dir: Vec3,
) -> super::SupportPoint {
    let pa = a.support(dir);
    let pb = pose_ab.transform_point(b.support(pose_ab.inverse_transform_vector(-dir)));
    super::SupportPoint {
        w: pa - pb,
        a: pa,
        b: pb,
        dir,
    }
}

/// The support function of the Minkowski difference `A − B` in A's frame, as
/// GJK sees a pair.
pub(crate) trait Minkowski {
    /// The support point along `dir` with the points of A and B behind it.
    fn support(&self, dir: Vec3) -> super::SupportPoint;
}

/// A pair with B placed in A's frame by a pose (two rotations per query).
pub(crate) struct Posed<'a, A: ?Sized, B: ?Sized> {
    pub a: &'a A,
    pub b: &'a B,
    pub pose: &'a Pose3,
}

impl<A: SupportMap + ?Sized, B: SupportMap + ?Sized> Minkowski for Posed<'_, A, B> {
    #[inline]
    fn support(&self, dir: Vec3) -> super::SupportPoint {
        support_pair(self.a, self.b, self.pose, dir)
    }
}

/// A pair whose B answers support queries in A's frame already.
pub(crate) struct Local<'a, A: ?Sized, B: ?Sized> {
    pub a: &'a A,
    pub b: &'a B,
}

impl<A: SupportMap + ?Sized, B: SupportMap + ?Sized> Minkowski for Local<'_, A, B> {
    #[inline]
    fn support(&self, dir: Vec3) -> super::SupportPoint {
        let pa = self.a.support(dir);
        let pb = self.b.support(-dir);
        super::SupportPoint {
            w: pa - pb,
            a: pa,
            b: pb,
            dir,
        }
    }
}

/// An axis-aligned box core of the given half extents, for tests of the
/// algorithms on support maps.
#[cfg(test)]
pub(crate) struct BoxCore(pub Vec3);

#[cfg(test)]
impl SupportMap for BoxCore {
    fn support(&self, d: Vec3) -> Vec3 {
        Vec3::new(
            self.0.x.copysign(d.x),
            self.0.y.copysign(d.y),
            self.0.z.copysign(d.z),
        )
    }
}
