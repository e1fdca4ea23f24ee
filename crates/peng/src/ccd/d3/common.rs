//! Pieces shared by the 3D casts: the tolerance, the shapes' radii about a
//! point, the start rule and swapping a hit's roles.

use crate::ccd::{CastHit3, CastOptions, CastStatus};
use crate::math::Vec3;
use crate::query::types::Distance3;
use crate::shape::d3::Shape;

/// Relative tolerance picked when [`CastOptions::tolerance`] is `0`.
pub(super) const AUTO_TOL: f32 = 1.0e-4;

/// The stopping tolerance of a cast: the option when positive, else
/// [`AUTO_TOL`] of `size` (the larger bounding radius of the shapes). It is
/// never below a few f32 ulps of `coords` (the largest coordinate or
/// displacement involved), which f32 arithmetic cannot resolve: without this
/// floor tiny shapes far from the origin would never converge.
pub(super) fn tolerance(options: &CastOptions, size: f32, coords: f32) -> f32 {
    let tol = if options.tolerance > 0.0 {
        options.tolerance
    } else {
        AUTO_TOL * size
    };
    let floor = 8.0 * f32::EPSILON * coords.abs().max(f32::MIN_POSITIVE);
    if tol.is_nan() {
        floor
    } else {
        tol.max(floor)
    }
}

/// The largest distance from `center` (shape's local frame) to a point of the
/// shape; infinite for a half-space (or a compound holding one). Exact for
/// balls, capsules, boxes, segments, triangles and hulls; an upper bound for
/// cylinders, cones and meshes (their box), which is all conservative
/// advancement needs.
pub(super) fn local_radius(shape: &Shape, center: Vec3) -> f32 {
    match shape {
        Shape::Ball(b) => center.length() + b.radius(),
        Shape::Capsule(c) => center.distance(c.a()).max(center.distance(c.b())) + c.radius(),
        Shape::Cuboid(c) => (center.abs() + c.half_extents()).length(),
        Shape::Cylinder(c) => {
            center.length() + Vec3::new(c.radius(), c.half_height(), 0.0).length()
        }
        Shape::Cone(c) => center.length() + Vec3::new(c.radius(), c.half_height(), 0.0).length(),
        Shape::Segment(s) => center.distance(s.a()).max(center.distance(s.b())),
        Shape::Triangle(t) => t
            .vertices()
            .iter()
            .fold(0.0f32, |m, v| m.max(center.distance(*v))),
        Shape::Polyhedron(p) => p
            .vertices()
            .iter()
            .fold(0.0f32, |m, v| m.max(center.distance(*v))),
        Shape::HalfSpace(_) => f32::INFINITY,
        Shape::Compound(c) => c.parts().iter().fold(0.0f32, |m, (pose, part)| {
            m.max(local_radius(part, pose.inverse_transform_point(center)))
        }),
        Shape::TriMesh(m) => box_radius(&m.local_aabb(), center),
        Shape::HeightField(h) => box_radius(&h.local_aabb(), center),
    }
}

/// The largest distance from the line through `center` along the unit
/// `axis` (local frame) to a point of the shape: how fast the shape's points
/// can move when it turns about that line at unit rate. Exact for balls,
/// capsules, boxes, segments, triangles and hulls; [`local_radius`] (an upper
/// bound) for the others.
pub(super) fn axis_radius(shape: &Shape, center: Vec3, axis: Vec3) -> f32 {
    let off = |p: Vec3| {
        let x = p - center;
        (x - axis * axis.dot(x)).length()
    };
    let most = |vs: &[Vec3]| vs.iter().fold(0.0f32, |m, v| m.max(off(*v)));
    match shape {
        Shape::Ball(b) => off(Vec3::ZERO) + b.radius(),
        Shape::Capsule(c) => off(c.a()).max(off(c.b())) + c.radius(),
        Shape::Cuboid(c) => most(&c.vertices()),
        Shape::Segment(s) => off(s.a()).max(off(s.b())),
        Shape::Triangle(t) => most(t.vertices()),
        Shape::Polyhedron(p) => most(p.vertices()),
        _ => local_radius(shape, center),
    }
}

fn box_radius(b: &crate::bound::Aabb3, center: Vec3) -> f32 {
    if b.is_empty() {
        return 0.0;
    }
    ((b.min - center).abs().max((b.max - center).abs())).length()
}

/// The size of a shape for the automatic tolerance: its radius about its
/// origin, `0` for unbounded shapes.
pub(super) fn size(shape: &Shape) -> f32 {
    let r = local_radius(shape, Vec3::ZERO);
    if r.is_finite() {
        r
    } else {
        0.0
    }
}

/// [`size`] of a compound, from its parts (no `Shape` needed).
pub(super) fn compound_size(c: &crate::shape::d3::Compound) -> f32 {
    c.parts().iter().fold(0.0f32, |m, (pose, part)| {
        let r = local_radius(part, pose.inverse_transform_point(Vec3::ZERO));
        if r.is_finite() {
            m.max(r)
        } else {
            m
        }
    })
}

/// What the start rule says about a configuration.
pub(super) enum Start {
    /// A hit at the start (penetrating or touching).
    Hit(CastHit3),
    /// Within the target distance but separating: no hit at the start.
    Leaving,
    /// Farther than the target distance plus the tolerance.
    Apart,
}

/// The start rule of the module docs: `d` is the world-space signed distance
/// at time `time`, `rate` the normal relative velocity of the witness points
/// (`> 0` separating).
pub(super) fn start_rule(d: &Distance3, rate: f32, target: f32, tol: f32, time: f32) -> Start {
    let dist = d.distance;
    if dist.is_nan() {
        return Start::Apart;
    }
    let hit = |status, depth| {
        Start::Hit(CastHit3 {
            time,
            point_a: d.point_a,
            point_b: d.point_b,
            normal: d.normal,
            depth,
            status,
        })
    };
    if dist < -tol {
        // (An infinite depth: two half-spaces; reported as is.)
        hit(CastStatus::Penetrating, -dist)
    } else if dist <= target + tol {
        if rate > 0.0 {
            Start::Leaving
        } else {
            hit(CastStatus::Touching, 0.0)
        }
    } else {
        Start::Apart
    }
}

/// The hit seen with the roles of A and B exchanged.
pub(super) fn swapped(h: CastHit3) -> CastHit3 {
    CastHit3 {
        point_a: h.point_b,
        point_b: h.point_a,
        normal: -h.normal,
        ..h
    }
}

/// The earlier of two hits; at equal times a contact over an undecided
/// result (which only says "none before this time"), then the deeper one.
/// An undecided result at `t` stays the answer unless the other has a
/// contact by `t`.
pub(super) fn earlier(a: Option<CastHit3>, b: Option<CastHit3>) -> Option<CastHit3> {
    match (a, b) {
        (Some(x), Some(y)) => {
            let undecided = |h: &CastHit3| h.status == CastStatus::Undecided;
            let tie_wins = if undecided(&x) != undecided(&y) {
                undecided(&x)
            } else {
                y.depth > x.depth
            };
            if y.time < x.time || (y.time == x.time && tie_wins) {
                Some(y)
            } else {
                Some(x)
            }
        }
        (x, None) => x,
        (None, y) => y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d3::{Cuboid, HalfSpace};

    #[test]
    fn radius_of_box_about_a_corner() {
        let s: Shape = Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap().into();
        let r = local_radius(&s, Vec3::new(1.0, 2.0, 3.0));
        assert!((r - Vec3::new(2.0, 4.0, 6.0).length()).abs() < 1e-5);
        let h: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
        assert!(local_radius(&h, Vec3::ZERO).is_infinite());
        assert_eq!(size(&h), 0.0);
    }

    #[test]
    fn tolerance_has_a_floor() {
        let o = CastOptions::default();
        assert!((tolerance(&o, 2.0, 1.0) - 2e-4).abs() < 1e-9);
        assert!(tolerance(&o, 1e-6, 1e5) > 1e-3);
        let o = CastOptions {
            tolerance: 0.5,
            ..o
        };
        assert_eq!(tolerance(&o, 2.0, 1.0), 0.5);
    }
}
