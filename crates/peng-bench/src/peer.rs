//! The peer side of the comparisons: conversions from peng's shapes, poses and
//! rays to parry's (parry2d/parry3d 0.31, whose math types are glam 0.33 types
//! through `glamx`, the same glam peng uses, so vectors and quaternions pass
//! through unchanged) and the parry queries the tests and benches call, behind
//! one trait, [`Peer`], implemented for `D2` (parry2d) and `D3` (parry3d).
//!
//! Not a module of the library: tests and benches include this file with
//! `#[path = "../../src/peer.rs"] mod peer;` (from their `common` modules) so
//! parry stays a dev-dependency (see the crate docs).

#![allow(dead_code)]

use peng::query::types::Ray;
use peng_bench::dim::Dim;

/// parry's side of a dimension. Query failures (`Unsupported` shape pairs) are
/// `Err(name of the query)`.
pub trait Peer: Dim {
    /// parry's pose.
    type PPose;
    /// parry's shared shape.
    type PShape;
    /// parry's ray.
    type PRay;
    /// parry's contact manifold (no user data).
    type PManifold;

    /// peng pose → parry pose.
    fn parry_pose(p: &Self::Pose) -> Self::PPose;
    /// peng shape → parry shape. A polygon or polyhedron keeps peng's hull
    /// vertices (parry rebuilds the same hull from them); cylinders and cones
    /// have the same axis conventions (along local y, the cone's apex at +y).
    fn parry_shape(s: &Self::Shape) -> Self::PShape;
    /// peng ray → parry ray.
    fn parry_ray(r: &Ray<Self::V>) -> Self::PRay;

    /// `query::intersection_test`.
    fn parry_intersects(
        pa: &Self::PPose,
        sa: &Self::PShape,
        pb: &Self::PPose,
        sb: &Self::PShape,
    ) -> Result<bool, &'static str>;
    /// `query::distance`.
    fn parry_distance(
        pa: &Self::PPose,
        sa: &Self::PShape,
        pb: &Self::PPose,
        sb: &Self::PShape,
    ) -> Result<f32, &'static str>;
    /// `query::contact` as `(dist, world normal1)`.
    fn parry_contact(
        pa: &Self::PPose,
        sa: &Self::PShape,
        pb: &Self::PPose,
        sb: &Self::PShape,
        prediction: f32,
    ) -> Result<Option<(f32, Self::V)>, &'static str>;
    /// The unit direction between `query::closest_points` when they are within
    /// `margin` (and not intersecting), else `None`.
    fn parry_closest_normal(
        pa: &Self::PPose,
        sa: &Self::PShape,
        pb: &Self::PPose,
        sb: &Self::PShape,
        margin: f32,
    ) -> Result<Option<Self::V>, &'static str>;
    /// `cast_ray_and_get_normal` as `(time_of_impact, normal)`.
    fn parry_cast_ray(
        s: &Self::PShape,
        pose: &Self::PPose,
        ray: &Self::PRay,
        max_toi: f32,
        solid: bool,
    ) -> Option<(f32, Self::V)>;
    /// An empty contact manifold.
    fn parry_manifold() -> Self::PManifold;
    /// The number of points of the manifold of a convex pair, computed the way
    /// rapier calls parry (`contact_manifold_convex_convex` on the relative
    /// pose), into `m` after clearing it and resetting its warm-start normal so
    /// that parry, like peng, starts cold.
    fn parry_manifold_points(
        m: &mut Self::PManifold,
        pa: &Self::PPose,
        sa: &Self::PShape,
        pb: &Self::PPose,
        sb: &Self::PShape,
        prediction: f32,
    ) -> usize;
}

/// Implements [`Peer`] for `$d` with the items that read the same for parry2d
/// and parry3d (two crates with no common trait, so a macro, not a generic,
/// writes them once). The invoking module imports `pq` (parry's `query`), `ps`
/// (parry's `shape`), `SharedShape`, `PPose`, `PRay` and peng's `Shape`;
/// `$own_pose` is the pose conversion and `$arms` the shape conversions of the
/// kinds only that dimension has.
macro_rules! impl_peer {
    ($d:ty, $v:ty; $own_pose:item; $($arms:tt)*) => {
        impl Peer for $d {
            type PPose = PPose;
            type PShape = SharedShape;
            type PRay = PRay;
            type PManifold = pq::ContactManifold<(), ()>;

            $own_pose

            fn parry_shape(s: &Shape) -> SharedShape {
                match s {
                    $($arms)*
                    Shape::Capsule(c) => {
                        SharedShape::new(ps::Capsule::new(c.a(), c.b(), c.radius()))
                    }
                    Shape::Segment(g) => SharedShape::new(ps::Segment::new(g.a(), g.b())),
                    Shape::Triangle(t) => {
                        let [a, b, c] = *t.vertices();
                        SharedShape::new(ps::Triangle::new(a, b, c))
                    }
                    Shape::Compound(c) => SharedShape::compound(
                        c.parts()
                            .iter()
                            .map(|(p, s)| (Self::parry_pose(p), Self::parry_shape(s)))
                            .collect(),
                    ),
                }
            }

            fn parry_ray(r: &Ray<$v>) -> PRay {
                PRay::new(r.origin, r.dir)
            }

            fn parry_intersects(
                pa: &PPose,
                sa: &SharedShape,
                pb: &PPose,
                sb: &SharedShape,
            ) -> Result<bool, &'static str> {
                pq::intersection_test(pa, &**sa, pb, &**sb)
                    .map(|t| t.intersecting)
                    .map_err(|_| "intersection_test")
            }

            fn parry_distance(
                pa: &PPose,
                sa: &SharedShape,
                pb: &PPose,
                sb: &SharedShape,
            ) -> Result<f32, &'static str> {
                pq::distance(pa, &**sa, pb, &**sb)
                    .map(|d| d.distance)
                    .map_err(|_| "distance")
            }

            fn parry_contact(
                pa: &PPose,
                sa: &SharedShape,
                pb: &PPose,
                sb: &SharedShape,
                prediction: f32,
            ) -> Result<Option<(f32, $v)>, &'static str> {
                pq::contact(pa, &**sa, pb, &**sb, prediction)
                    .map(|c| c.map(|c| (c.dist, c.normal1)))
                    .map_err(|_| "contact")
            }

            fn parry_closest_normal(
                pa: &PPose,
                sa: &SharedShape,
                pb: &PPose,
                sb: &SharedShape,
                margin: f32,
            ) -> Result<Option<$v>, &'static str> {
                match pq::closest_points(pa, &**sa, pb, &**sb, margin)
                    .map_err(|_| "closest_points")?
                {
                    pq::ClosestPoints::WithinMargin(p1, p2) => Ok((p2 - p1).try_normalize()),
                    _ => Ok(None),
                }
            }

            fn parry_cast_ray(
                s: &SharedShape,
                pose: &PPose,
                ray: &PRay,
                max_toi: f32,
                solid: bool,
            ) -> Option<(f32, $v)> {
                s.cast_ray_and_get_normal(pose, ray, max_toi, solid)
                    .map(|h| (h.time_of_impact, h.normal))
            }

            fn parry_manifold() -> Self::PManifold {
                pq::ContactManifold::new()
            }

            fn parry_manifold_points(
                m: &mut Self::PManifold,
                pa: &PPose,
                sa: &SharedShape,
                pb: &PPose,
                sb: &SharedShape,
                prediction: f32,
            ) -> usize {
                use pq::PersistentQueryDispatcher;
                m.clear();
                m.local_n1 = <$v>::ZERO;
                let pos12 = pa.inv_mul(pb);
                let _ = pq::DefaultQueryDispatcher.contact_manifold_convex_convex(
                    &pos12, &**sa, &**sb, None, None, prediction, m,
                );
                m.points.len()
            }
        }
    };
}

/// parry2d.
mod d2 {
    use super::Peer;
    use glam::Vec2;
    use parry2d::math::{Pose2 as PPose, Rot2 as PRot};
    use parry2d::query::{self as pq, Ray as PRay};
    use parry2d::shape::{self as ps, SharedShape};
    use peng::d2::{Pose2, Shape};
    use peng::query::types::Ray;
    use peng_bench::dim::D2;

    impl_peer! {
        D2, Vec2;
        /// The rotation keeps its exact cos/sin.
        fn parry_pose(p: &Pose2) -> PPose {
            PPose::from_parts(
                p.translation,
                PRot::from_cos_sin_unchecked(p.rotation.cos, p.rotation.sin),
            )
        }
        ;
        Shape::Circle(c) => SharedShape::new(ps::Ball::new(c.radius())),
        Shape::Rect(r) => SharedShape::new(ps::Cuboid::new(r.half_extents())),
        Shape::Polygon(p) => SharedShape::new(
            ps::ConvexPolygon::from_convex_hull(p.vertices())
                .expect("parry rejects a polygon peng accepted"),
        ),
        Shape::Polyline(l) => {
            SharedShape::polyline(l.vertices().to_vec(), Some(l.segments().to_vec()))
        }
    }
}

/// parry3d.
mod d3 {
    use super::Peer;
    use glam::Vec3;
    use parry3d::math::Pose3 as PPose;
    use parry3d::query::{self as pq, Ray as PRay};
    use parry3d::shape::{self as ps, SharedShape};
    use peng::d3::{Pose3, Shape};
    use peng::query::types::Ray;
    use peng_bench::dim::D3;

    impl_peer! {
        D3, Vec3;
        fn parry_pose(p: &Pose3) -> PPose {
            PPose::from_parts(p.translation, p.rotation)
        }
        ;
        Shape::Ball(b) => SharedShape::new(ps::Ball::new(b.radius())),
        Shape::Cuboid(c) => SharedShape::new(ps::Cuboid::new(c.half_extents())),
        Shape::Cylinder(c) => SharedShape::new(ps::Cylinder::new(c.half_height(), c.radius())),
        Shape::Cone(c) => SharedShape::new(ps::Cone::new(c.half_height(), c.radius())),
        Shape::Polyhedron(p) => SharedShape::new(
            ps::ConvexPolyhedron::from_convex_hull(p.vertices())
                .expect("parry rejects a polyhedron peng accepted"),
        ),
        Shape::HalfSpace(h) => SharedShape::new(ps::HalfSpace::new(h.normal())),
        Shape::TriMesh(m) => SharedShape::trimesh(m.vertices().to_vec(), m.indices().to_vec())
            .expect("parry rejects a mesh peng accepted"),
        Shape::HeightField(h) => {
            let m = h.to_trimesh();
            SharedShape::trimesh(m.vertices().to_vec(), m.indices().to_vec())
                .expect("parry rejects a height field peng accepted")
        }
    }
}
