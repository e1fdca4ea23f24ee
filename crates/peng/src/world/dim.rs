//! What the world needs from a dimension: its vector, pose and shape types
//! and the pair queries on them. One world implementation serves 2D and 3D
//! through this trait ([`Dim2`], [`Dim3`]); the queries themselves stay
//! dimension-specific (`query::d2`, `query::d3`).

use crate::bound::Aabb;
use crate::math::{Pose2, Pose3, Vec2, Vec3, Vector};
use crate::query::types::{Distance, Manifold, PointProjection, Ray, RayHit};
use crate::query::{d2, d3};
use crate::shape;

/// A dimension: the types and pair queries a [`World`](super::World) uses.
pub trait Dim: 'static + Send + Sync + Sized {
    /// The vector type (`Vec2` or `Vec3`).
    type V: Vector + Send + Sync;
    /// A rigid pose.
    type Pose: Copy + core::fmt::Debug + PartialEq + Send + Sync;
    /// The closed shape enum.
    type Shape: Clone + core::fmt::Debug + Send + Sync;
    /// A contact manifold.
    type Manifold: Clone + core::fmt::Debug + Send + Sync;

    /// The identity pose.
    const IDENTITY: Self::Pose;

    /// Whether every component of the pose is finite.
    fn pose_is_finite(pose: &Self::Pose) -> bool;
    /// The pose's translation (a collider's centre for centre-radius margins).
    fn translation(pose: &Self::Pose) -> Self::V;
    /// The shape's world box at `pose`.
    fn aabb(shape: &Self::Shape, pose: &Self::Pose) -> Aabb<Self::V>;
    /// Whether the two shapes overlap (closed: touching counts).
    fn intersects(a: &Self::Shape, pa: &Self::Pose, b: &Self::Shape, pb: &Self::Pose) -> bool;
    /// Signed distance, closest points and normal (negative: penetration).
    fn distance(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
    ) -> Distance<Self::V>;
    /// Appends the contact manifolds of the pair (overlapping, or closer
    /// than `prediction`) to `out`.
    fn contacts(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
        prediction: f32,
        out: &mut Vec<Self::Manifold>,
    );
    /// The contact manifold of a pair that has at most one (see
    /// [`at_most_one_manifold`](Self::at_most_one_manifold)).
    fn contact(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
        prediction: f32,
    ) -> Option<Self::Manifold>;
    /// Whether every pair with this shape gives at most one manifold when the
    /// other shape does too (not a compound, mesh or polyline).
    fn at_most_one_manifold(shape: &Self::Shape) -> bool;
    /// The deepest point depth of a manifold (negative: speculative).
    fn manifold_depth(m: &Self::Manifold) -> f32;
    /// The first hit of `ray` within `max_toi` (`solid`: a ray starting
    /// inside hits at 0).
    fn ray_cast(
        shape: &Self::Shape,
        pose: &Self::Pose,
        ray: &Ray<Self::V>,
        max_toi: f32,
        solid: bool,
    ) -> Option<RayHit<Self::V>>;
    /// The closest point of the shape to `point` (`solid`: inside points
    /// project to themselves).
    fn project_point(
        shape: &Self::Shape,
        pose: &Self::Pose,
        point: Self::V,
        solid: bool,
    ) -> PointProjection<Self::V>;
    /// Whether the shape contains `point` (closed).
    fn contains_point(shape: &Self::Shape, pose: &Self::Pose, point: Self::V) -> bool;
}

/// The 2D dimension: [`Pose2`] and [`shape::d2::Shape`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dim2;

/// The 3D dimension: [`Pose3`] and [`shape::d3::Shape`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dim3;

impl Dim for Dim2 {
    type V = Vec2;
    type Pose = Pose2;
    type Shape = shape::d2::Shape;
    type Manifold = Manifold<Vec2, 2>;
    const IDENTITY: Pose2 = Pose2::IDENTITY;

    #[inline]
    fn pose_is_finite(pose: &Pose2) -> bool {
        pose.is_finite()
    }
    #[inline]
    fn translation(pose: &Pose2) -> Vec2 {
        pose.translation
    }
    #[inline]
    fn aabb(shape: &Self::Shape, pose: &Pose2) -> Aabb<Vec2> {
        shape.aabb(pose)
    }
    #[inline]
    fn intersects(a: &Self::Shape, pa: &Pose2, b: &Self::Shape, pb: &Pose2) -> bool {
        d2::intersects(a, pa, b, pb)
    }
    #[inline]
    fn distance(a: &Self::Shape, pa: &Pose2, b: &Self::Shape, pb: &Pose2) -> Distance<Vec2> {
        d2::distance(a, pa, b, pb)
    }
    #[inline]
    fn contacts(
        a: &Self::Shape,
        pa: &Pose2,
        b: &Self::Shape,
        pb: &Pose2,
        prediction: f32,
        out: &mut Vec<Self::Manifold>,
    ) {
        d2::contacts(a, pa, b, pb, prediction, out)
    }
    #[inline]
    fn contact(
        a: &Self::Shape,
        pa: &Pose2,
        b: &Self::Shape,
        pb: &Pose2,
        prediction: f32,
    ) -> Option<Self::Manifold> {
        d2::contact(a, pa, b, pb, prediction)
    }
    #[inline]
    fn at_most_one_manifold(shape: &Self::Shape) -> bool {
        shape.is_convex()
    }
    #[inline]
    fn manifold_depth(m: &Self::Manifold) -> f32 {
        m.depth()
    }
    #[inline]
    fn ray_cast(
        shape: &Self::Shape,
        pose: &Pose2,
        ray: &Ray<Vec2>,
        max_toi: f32,
        solid: bool,
    ) -> Option<RayHit<Vec2>> {
        d2::ray_cast(shape, pose, ray, max_toi, solid)
    }
    #[inline]
    fn project_point(
        shape: &Self::Shape,
        pose: &Pose2,
        point: Vec2,
        solid: bool,
    ) -> PointProjection<Vec2> {
        d2::project_point(shape, pose, point, solid)
    }
    #[inline]
    fn contains_point(shape: &Self::Shape, pose: &Pose2, point: Vec2) -> bool {
        d2::contains_point(shape, pose, point)
    }
}

impl Dim for Dim3 {
    type V = Vec3;
    type Pose = Pose3;
    type Shape = shape::d3::Shape;
    type Manifold = Manifold<Vec3, 4>;
    const IDENTITY: Pose3 = Pose3::IDENTITY;

    #[inline]
    fn pose_is_finite(pose: &Pose3) -> bool {
        pose.is_finite()
    }
    #[inline]
    fn translation(pose: &Pose3) -> Vec3 {
        pose.translation
    }
    #[inline]
    fn aabb(shape: &Self::Shape, pose: &Pose3) -> Aabb<Vec3> {
        shape.aabb(pose)
    }
    #[inline]
    fn intersects(a: &Self::Shape, pa: &Pose3, b: &Self::Shape, pb: &Pose3) -> bool {
        d3::intersects(a, pa, b, pb)
    }
    #[inline]
    fn distance(a: &Self::Shape, pa: &Pose3, b: &Self::Shape, pb: &Pose3) -> Distance<Vec3> {
        d3::distance(a, pa, b, pb)
    }
    #[inline]
    fn contacts(
        a: &Self::Shape,
        pa: &Pose3,
        b: &Self::Shape,
        pb: &Pose3,
        prediction: f32,
        out: &mut Vec<Self::Manifold>,
    ) {
        d3::contacts(a, pa, b, pb, prediction, out)
    }
    #[inline]
    fn contact(
        a: &Self::Shape,
        pa: &Pose3,
        b: &Self::Shape,
        pb: &Pose3,
        prediction: f32,
    ) -> Option<Self::Manifold> {
        d3::contact(a, pa, b, pb, prediction)
    }
    #[inline]
    fn at_most_one_manifold(shape: &Self::Shape) -> bool {
        !matches!(shape, shape::d3::Shape::Compound(_)) && !shape.is_mesh()
    }
    #[inline]
    fn manifold_depth(m: &Self::Manifold) -> f32 {
        m.depth()
    }
    #[inline]
    fn ray_cast(
        shape: &Self::Shape,
        pose: &Pose3,
        ray: &Ray<Vec3>,
        max_toi: f32,
        solid: bool,
    ) -> Option<RayHit<Vec3>> {
        d3::ray_cast(shape, pose, ray, max_toi, solid)
    }
    #[inline]
    fn project_point(
        shape: &Self::Shape,
        pose: &Pose3,
        point: Vec3,
        solid: bool,
    ) -> PointProjection<Vec3> {
        d3::project_point(shape, pose, point, solid)
    }
    #[inline]
    fn contains_point(shape: &Self::Shape, pose: &Pose3, point: Vec3) -> bool {
        d3::contains_point(shape, pose, point)
    }
}
