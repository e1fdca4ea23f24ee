//! What the world needs from a dimension: its vector, pose and shape types
//! and the pair queries on them. One world implementation serves 2D and 3D
//! through this trait ([`Dim2`], [`Dim3`]); the queries themselves stay
//! dimension-specific (`query::d2`, `query::d3`).

use crate::bound::Aabb;
use crate::ccd::{self, CastHit, CastOptions, Motion2, Motion3};
use crate::math::{Pose2, Pose3, Vec2, Vec3, Vector};
use crate::query::types::{
    ContactId, ContactPoint, Distance, Manifold, PointProjection, Ray, RayHit,
};
use crate::query::{d2, d3};
use crate::shape;
use std::sync::Arc;

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
    /// [`contact`](Self::contact), or when there is none, a lower bound on
    /// the shapes' distance, at least `prediction` (more where the query
    /// measures one, see `d2::contact_or_gap` and `d3::contact_or_gap`).
    /// The default measures nothing and gives `prediction`.
    fn contact_or_gap(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
        prediction: f32,
    ) -> Result<Self::Manifold, f32> {
        Self::contact(a, pa, b, pb, prediction).ok_or(prediction)
    }
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

    /// A rigid motion over a unit of time ([`Motion2`] or [`Motion3`]).
    type Motion: Copy + core::fmt::Debug + Send + Sync;
    /// The motion that takes `shape` from pose `from` (time 0) to pose `to`
    /// (time 1): a constant velocity of the centre of the shape's local box
    /// and the shortest rotation about it.
    fn motion(shape: &Self::Shape, from: &Self::Pose, to: &Self::Pose) -> Self::Motion;
    /// The pose moved by `by` (rotation unchanged).
    fn translated(pose: &Self::Pose, by: Self::V) -> Self::Pose;
    /// Whether the motion turns the body.
    fn motion_turns(m: &Self::Motion) -> bool;
    /// The pose of a motion at time `t`.
    fn motion_pose_at(m: &Self::Motion, t: f32) -> Self::Pose;
    /// A box holding `shape` at every pose of the motion from `from` to
    /// `to` (see [`motion`](Self::motion)): the two end boxes when it only
    /// translates, else the centre's path grown by the shape's radius about
    /// its centre.
    fn swept_aabb(shape: &Self::Shape, from: &Self::Pose, to: &Self::Pose) -> Aabb<Self::V> {
        let ends = Self::aabb(shape, from).merged(&Self::aabb(shape, to));
        let local = Self::aabb(shape, &Self::IDENTITY);
        let c = local.center();
        let turns = Self::motion_turns(&Self::motion(shape, from, to));
        if !turns || !c.is_finite() {
            return ends;
        }
        // Every pose of the motion keeps the shape within its local box's
        // circumradius of the box centre, which moves on a straight line.
        let r = (local.max - local.min).length() * 0.5;
        let (c0, c1) = (Self::transform_point(from, c), Self::transform_point(to, c));
        Aabb::new(c0.min(c1), c0.max(c1)).loosened(r).merged(&ends)
    }
    /// A point of the local frame placed by `pose`.
    fn transform_point(pose: &Self::Pose, p: Self::V) -> Self::V;
    /// A direction of the local frame turned by `pose`.
    fn transform_vector(pose: &Self::Pose, v: Self::V) -> Self::V;
    /// The motion from `from` to `to` in the world: `to · from⁻¹`.
    fn pose_change(from: &Self::Pose, to: &Self::Pose) -> Self::Pose;
    /// The first contact of `a` moving with `ma` and `b` moving with `mb`
    /// within the options' time (translations only: the linear cast; with
    /// rotation: conservative advancement).
    fn cast(
        a: &Self::Shape,
        ma: &Self::Motion,
        b: &Self::Shape,
        mb: &Self::Motion,
        options: &CastOptions,
    ) -> Option<CastHit<Self::V>>;
    /// A one-point manifold from a cast hit (the contact at impact).
    fn manifold_from_hit(hit: &CastHit<Self::V>) -> Self::Manifold;

    /// Whether two shapes are known to be the same: equal inline values or
    /// the same shared data (one `Arc`). `false` when unsure (two copies of
    /// one mesh), which only costs a full narrow-phase test.
    fn same_shape(a: &Self::Shape, b: &Self::Shape) -> bool;
    /// Whether the shape is bounded by flat faces only (no ball, capsule,
    /// cylinder or cone surface, no compound): its contact points sit on
    /// its corners and edges and move with it, so that its manifolds may be
    /// carried (see `reuse.rs`). A rolling ball's contact point does not:
    /// carried, it would drift up the ball and push it on.
    fn flat_faced(shape: &Self::Shape) -> bool;
    /// `q` in `p`'s frame: `p⁻¹ q`.
    fn inv_mul(p: &Self::Pose, q: &Self::Pose) -> Self::Pose;
    /// The chord of the rotation from `p`'s orientation to `q`'s: how far
    /// it moves a point at unit distance from its axis, `2 sin(θ/2)` for the
    /// angle `θ ∈ [0, π]` (at most 2, and at most `θ`). NaN for a zero
    /// rotation, which the reuse rule reads as "test again".
    fn turn_chord(p: &Self::Pose, q: &Self::Pose) -> f32;
    /// Carries `m` rigidly with its colliders, which moved by `move_a` and
    /// `move_b` (each a [`pose_change`](Self::pose_change)): each point with
    /// its collider, the normal with A, each depth measured again along the
    /// new normal. In place: the manifold is not copied.
    fn carry(m: &mut Self::Manifold, move_a: &Self::Pose, move_b: &Self::Pose);
}

/// The one-point manifold of a cast hit, in either dimension.
fn hit_manifold<V: Vector, const N: usize>(hit: &CastHit<V>) -> Manifold<V, N> {
    let mut m = Manifold::new(hit.normal);
    let gap = (hit.point_b - hit.point_a).dot(hit.normal);
    m.push(ContactPoint {
        point_a: hit.point_a,
        point_b: hit.point_b,
        depth: if hit.depth > 0.0 { hit.depth } else { -gap },
        id: ContactId::default(),
    });
    m
}

/// [`Dim::carry`] for a dimension whose manifolds hold up to `N` points:
/// each point moved with its collider, the normal turned with A, each depth
/// measured again along the turned normal.
#[inline]
fn carry_manifold<D: Dim, const N: usize>(m: &mut Manifold<D::V, N>, da: &D::Pose, db: &D::Pose) {
    let n = D::transform_vector(da, m.normal);
    m.normal = n;
    for p in m.points_mut() {
        p.point_a = D::transform_point(da, p.point_a);
        p.point_b = D::transform_point(db, p.point_b);
        p.depth = (p.point_a - p.point_b).dot(n);
    }
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
    fn contact_or_gap(
        a: &Self::Shape,
        pa: &Pose2,
        b: &Self::Shape,
        pb: &Pose2,
        prediction: f32,
    ) -> Result<Self::Manifold, f32> {
        d2::contact_or_gap(a, pa, b, pb, prediction)
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

    type Motion = Motion2;
    fn motion(shape: &Self::Shape, from: &Pose2, to: &Pose2) -> Motion2 {
        let c = shape.aabb(&Pose2::IDENTITY).center();
        let c = if c.is_finite() { c } else { Vec2::ZERO };
        // The turn from `from` to `to`, wrapped to (-pi, pi].
        let turn = to.rotation.mul(from.rotation.inverse()).angle();
        Motion2 {
            start: *from,
            local_center: c,
            linvel: to.transform_point(c) - from.transform_point(c),
            angvel: turn,
        }
    }
    fn translated(pose: &Pose2, by: Vec2) -> Pose2 {
        Pose2 {
            translation: pose.translation + by,
            rotation: pose.rotation,
        }
    }
    fn motion_turns(m: &Motion2) -> bool {
        m.angvel != 0.0
    }
    fn motion_pose_at(m: &Motion2, t: f32) -> Pose2 {
        m.pose_at(t)
    }
    fn transform_point(pose: &Pose2, p: Vec2) -> Vec2 {
        pose.transform_point(p)
    }
    fn transform_vector(pose: &Pose2, v: Vec2) -> Vec2 {
        pose.transform_vector(v)
    }
    fn pose_change(from: &Pose2, to: &Pose2) -> Pose2 {
        to.mul(&from.inverse())
    }
    fn cast(
        a: &Self::Shape,
        ma: &Motion2,
        b: &Self::Shape,
        mb: &Motion2,
        options: &CastOptions,
    ) -> Option<CastHit<Vec2>> {
        if Self::motion_turns(ma) || Self::motion_turns(mb) {
            ccd::d2::cast_nonlinear(a, ma, b, mb, options)
        } else {
            ccd::d2::cast_linear(a, &ma.start, ma.linvel, b, &mb.start, mb.linvel, options)
        }
    }
    fn manifold_from_hit(hit: &CastHit<Vec2>) -> Self::Manifold {
        hit_manifold(hit)
    }
    fn same_shape(a: &Self::Shape, b: &Self::Shape) -> bool {
        use shape::d2::Shape as S;
        match (a, b) {
            (S::Polygon(x), S::Polygon(y)) => Arc::ptr_eq(x, y),
            (S::Compound(x), S::Compound(y)) => Arc::ptr_eq(x, y),
            (S::Polyline(x), S::Polyline(y)) => Arc::ptr_eq(x, y),
            (S::Polygon(_) | S::Compound(_) | S::Polyline(_), _) => false,
            _ => a == b,
        }
    }
    fn flat_faced(shape: &Self::Shape) -> bool {
        use shape::d2::Shape as S;
        matches!(
            shape,
            S::Rect(_) | S::Segment(_) | S::Triangle(_) | S::Polygon(_) | S::Polyline(_)
        )
    }
    fn inv_mul(p: &Pose2, q: &Pose2) -> Pose2 {
        p.inv_mul(q)
    }
    fn turn_chord(p: &Pose2, q: &Pose2) -> f32 {
        // The distance from (1, 0) to (cos θ, sin θ) (scaled to unit
        // length); for small turns the sine carries it, so the cancellation
        // in cos θ − 1 costs nothing.
        let r = q.rotation.mul(p.rotation.inverse());
        let (c, s) = (r.cos, r.sin);
        let len = (c * c + s * s).sqrt();
        ((c - len) * (c - len) + s * s).sqrt() / len
    }
    fn carry(m: &mut Self::Manifold, move_a: &Pose2, move_b: &Pose2) {
        carry_manifold::<Self, _>(m, move_a, move_b)
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
    fn contact_or_gap(
        a: &Self::Shape,
        pa: &Pose3,
        b: &Self::Shape,
        pb: &Pose3,
        prediction: f32,
    ) -> Result<Self::Manifold, f32> {
        d3::contact_or_gap(a, pa, b, pb, prediction)
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

    type Motion = Motion3;
    fn motion(shape: &Self::Shape, from: &Pose3, to: &Pose3) -> Motion3 {
        let c = shape.aabb(&Pose3::IDENTITY).center();
        let c = if c.is_finite() { c } else { Vec3::ZERO };
        // The shortest turn from `from` to `to` (q and -q are one rotation).
        let mut turn = to.rotation * from.rotation.inverse();
        if turn.w < 0.0 {
            turn = -turn;
        }
        Motion3 {
            start: *from,
            local_center: c,
            linvel: to.transform_point(c) - from.transform_point(c),
            angvel: turn.to_scaled_axis(),
        }
    }
    fn translated(pose: &Pose3, by: Vec3) -> Pose3 {
        Pose3 {
            translation: pose.translation + by,
            rotation: pose.rotation,
        }
    }
    fn motion_turns(m: &Motion3) -> bool {
        m.angvel != Vec3::ZERO
    }
    fn motion_pose_at(m: &Motion3, t: f32) -> Pose3 {
        m.pose_at(t)
    }
    fn transform_point(pose: &Pose3, p: Vec3) -> Vec3 {
        pose.transform_point(p)
    }
    fn transform_vector(pose: &Pose3, v: Vec3) -> Vec3 {
        pose.transform_vector(v)
    }
    fn pose_change(from: &Pose3, to: &Pose3) -> Pose3 {
        to.mul(&from.inverse())
    }
    fn cast(
        a: &Self::Shape,
        ma: &Motion3,
        b: &Self::Shape,
        mb: &Motion3,
        options: &CastOptions,
    ) -> Option<CastHit<Vec3>> {
        if Self::motion_turns(ma) || Self::motion_turns(mb) {
            ccd::d3::cast_nonlinear(a, ma, b, mb, options)
        } else {
            ccd::d3::cast_linear(a, &ma.start, ma.linvel, b, &mb.start, mb.linvel, options)
        }
    }
    fn manifold_from_hit(hit: &CastHit<Vec3>) -> Self::Manifold {
        hit_manifold(hit)
    }
    fn same_shape(a: &Self::Shape, b: &Self::Shape) -> bool {
        use shape::d3::Shape as S;
        match (a, b) {
            (S::Polyhedron(x), S::Polyhedron(y)) => Arc::ptr_eq(x, y),
            (S::Compound(x), S::Compound(y)) => Arc::ptr_eq(x, y),
            (S::TriMesh(x), S::TriMesh(y)) => Arc::ptr_eq(x, y),
            (S::HeightField(x), S::HeightField(y)) => Arc::ptr_eq(x, y),
            (S::Polyhedron(_) | S::Compound(_) | S::TriMesh(_) | S::HeightField(_), _) => false,
            _ => a == b,
        }
    }
    fn flat_faced(shape: &Self::Shape) -> bool {
        use shape::d3::Shape as S;
        matches!(
            shape,
            S::Cuboid(_)
                | S::Segment(_)
                | S::Triangle(_)
                | S::Polyhedron(_)
                | S::HalfSpace(_)
                | S::TriMesh(_)
                | S::HeightField(_)
        )
    }
    fn inv_mul(p: &Pose3, q: &Pose3) -> Pose3 {
        p.inv_mul(q)
    }
    fn turn_chord(p: &Pose3, q: &Pose3) -> f32 {
        // A unit quaternion's vector part has length sin(θ/2) (for `r` and
        // `−r` alike), and is accurate for small turns.
        let r = p.rotation.inverse() * q.rotation;
        2.0 * Vec3::new(r.x, r.y, r.z).length() / r.length()
    }
    fn carry(m: &mut Self::Manifold, move_a: &Pose3, move_b: &Pose3) {
        carry_manifold::<Self, _>(m, move_a, move_b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// The chord has its closed form `2 sin(θ/2)` at quarter, half and tiny
    /// turns, about any axis, and bounds how far the turn moves any point.
    #[test]
    fn turn_chord_is_two_sin_half_the_angle_and_bounds_the_motion() {
        let p2 = |a: f32| Pose2::new(Vec2::new(3.0, -1.0), a);
        let p3 = |axis: Vec3, a: f32| Pose3 {
            translation: Vec3::new(1.0, 2.0, -4.0),
            rotation: Quat::from_axis_angle(axis.normalize(), a),
        };
        let axis = Vec3::new(1.0, -2.0, 0.5);
        for (theta, want) in [
            (core::f32::consts::FRAC_PI_2, core::f32::consts::SQRT_2),
            (core::f32::consts::PI, 2.0),
            (1e-4, 1e-4),
            (0.0, 0.0),
        ] {
            let from = 0.3;
            let c2 = Dim2::turn_chord(&p2(from), &p2(from + theta));
            let c2_back = Dim2::turn_chord(&p2(from + theta), &p2(from));
            let c3 = Dim3::turn_chord(&p3(axis, from), &p3(axis, from + theta));
            for c in [c2, c2_back, c3] {
                assert!(
                    (c - want).abs() <= 1e-3 * want + 1e-6,
                    "θ = {theta}: chord {c}, want {want}"
                );
            }
        }
        // Any point at distance 1 moves by at most the chord.
        let mut seed = 17u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        for _ in 0..200 {
            let (ax, a0, a1) = (Vec3::new(rnd(), rnd(), rnd()), 4.0 * rnd(), 4.0 * rnd());
            let p = Vec3::new(rnd(), rnd(), rnd()).normalize();
            let (r0, r1) = (p3(ax, a0), p3(ax, a1));
            let moved = (r1.rotation * p - r0.rotation * p).length();
            assert!(moved <= Dim3::turn_chord(&r0, &r1) * (1.0 + 1e-5) + 1e-6);
            let q = Vec2::new(p.x, p.y).normalize();
            let (s0, s1) = (p2(a0), p2(a1));
            let moved = (s1.rotation.rotate(q) - s0.rotation.rotate(q)).length();
            assert!(moved <= Dim2::turn_chord(&s0, &s1) * (1.0 + 1e-5) + 1e-6);
        }
    }
}
