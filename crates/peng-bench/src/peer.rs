//! Conversions from peng's shapes, poses and rays to parry's (parry2d/parry3d
//! 0.31, whose math types are glam 0.33 types through `glamx`, the same glam peng
//! uses, so vectors and quaternions pass through unchanged).
//!
//! Not a module of the library: tests and benches include this file with
//! `#[path = "../src/peer.rs"] mod peer;` so parry stays a dev-dependency (see the
//! crate docs).

#![allow(dead_code)]

/// 2D conversions.
pub mod d2 {
    use parry2d::math::{Pose2 as PPose, Rot2 as PRot};
    use parry2d::query::Ray as PRay;
    use parry2d::shape::{self as ps, SharedShape};
    use peng::d2::{Pose2, Ray2, Shape};

    /// peng pose → parry pose (the rotation keeps its exact cos/sin).
    pub fn pose(p: &Pose2) -> PPose {
        PPose::from_parts(
            p.translation,
            PRot::from_cos_sin_unchecked(p.rotation.cos, p.rotation.sin),
        )
    }

    /// peng ray → parry ray.
    pub fn ray(r: &Ray2) -> PRay {
        PRay::new(r.origin, r.dir)
    }

    /// peng shape → parry shape. A polygon keeps peng's hull vertices (parry
    /// rebuilds the same hull from them).
    pub fn shape(s: &Shape) -> SharedShape {
        match s {
            Shape::Circle(c) => SharedShape::new(ps::Ball::new(c.radius())),
            Shape::Capsule(c) => SharedShape::new(ps::Capsule::new(c.a(), c.b(), c.radius())),
            Shape::Rect(r) => SharedShape::new(ps::Cuboid::new(r.half_extents())),
            Shape::Segment(g) => SharedShape::new(ps::Segment::new(g.a(), g.b())),
            Shape::Triangle(t) => {
                let [a, b, c] = *t.vertices();
                SharedShape::new(ps::Triangle::new(a, b, c))
            }
            Shape::Polygon(p) => SharedShape::new(
                ps::ConvexPolygon::from_convex_hull(p.vertices())
                    .expect("parry rejects a polygon peng accepted"),
            ),
            Shape::Compound(c) => {
                SharedShape::compound(c.parts().iter().map(|(p, s)| (pose(p), shape(s))).collect())
            }
        }
    }
}

/// 3D conversions.
pub mod d3 {
    use parry3d::math::Pose3 as PPose;
    use parry3d::query::Ray as PRay;
    use parry3d::shape::{self as ps, SharedShape};
    use peng::d3::{Pose3, Ray3, Shape};

    /// peng pose → parry pose.
    pub fn pose(p: &Pose3) -> PPose {
        PPose::from_parts(p.translation, p.rotation)
    }

    /// peng ray → parry ray.
    pub fn ray(r: &Ray3) -> PRay {
        PRay::new(r.origin, r.dir)
    }

    /// peng shape → parry shape (same axis conventions: cylinder and cone along
    /// local y, the cone's apex at +y). A polyhedron keeps peng's hull vertices.
    pub fn shape(s: &Shape) -> SharedShape {
        match s {
            Shape::Ball(b) => SharedShape::new(ps::Ball::new(b.radius())),
            Shape::Capsule(c) => SharedShape::new(ps::Capsule::new(c.a(), c.b(), c.radius())),
            Shape::Cuboid(c) => SharedShape::new(ps::Cuboid::new(c.half_extents())),
            Shape::Cylinder(c) => SharedShape::new(ps::Cylinder::new(c.half_height(), c.radius())),
            Shape::Cone(c) => SharedShape::new(ps::Cone::new(c.half_height(), c.radius())),
            Shape::Segment(g) => SharedShape::new(ps::Segment::new(g.a(), g.b())),
            Shape::Triangle(t) => {
                let [a, b, c] = *t.vertices();
                SharedShape::new(ps::Triangle::new(a, b, c))
            }
            Shape::Polyhedron(p) => SharedShape::new(
                ps::ConvexPolyhedron::from_convex_hull(p.vertices())
                    .expect("parry rejects a polyhedron peng accepted"),
            ),
            Shape::HalfSpace(h) => SharedShape::new(ps::HalfSpace::new(h.normal())),
            Shape::Compound(c) => {
                SharedShape::compound(c.parts().iter().map(|(p, s)| (pose(p), shape(s))).collect())
            }
        }
    }
}
