//! A capsule or segment far longer than the convex shape it meets.
//!
//! GJK's tolerances scale with the size of the Minkowski difference. Against
//! a segment 1e7 long, a gap of 7 between it and a hull 30 wide is 7e-7 of
//! that size: GJK reads it as a touch, and EPA then measures a "depth" on
//! points a million units apart. The closest (or deepest) points lie on the
//! short stretch of the core near the other shape, so the query runs on that
//! stretch, whose size is the other shape's and the gap's, not the core's.

use crate::math::{Pose3, Vec3};
use crate::shape::d3::{Capsule, Segment, Shape};
use std::borrow::Cow;

/// How many times the other shape's diameter a core must exceed to be cut.
const LONG: f32 = 256.0;

/// A ball in the shape's own frame holding the whole shape: its centre and
/// radius. `None` for shapes that are not bounded and convex, and for the
/// segment-like shapes (their pairs are solved in f64 by closed forms).
fn bounding_ball(s: &Shape) -> Option<(Vec3, f32)> {
    let of_box = |lo: Vec3, hi: Vec3| ((lo + hi) * 0.5, (hi - lo).length() * 0.5);
    match s {
        Shape::Cuboid(c) => Some((Vec3::ZERO, c.half_extents().length())),
        Shape::Cylinder(c) => Some((Vec3::ZERO, c.half_height().hypot(c.radius()))),
        Shape::Cone(c) => Some((Vec3::ZERO, c.half_height().hypot(c.radius()))),
        Shape::Polyhedron(p) => {
            let b = p.local_aabb();
            Some(of_box(b.min, b.max))
        }
        Shape::Triangle(t) => {
            let [p, q, r] = *t.vertices();
            Some(of_box(p.min(q).min(r), p.max(q).max(r)))
        }
        _ => None,
    }
}

/// The core and radius of a capsule or segment, `None` for other shapes.
fn core(s: &Shape) -> Option<(Vec3, Vec3, f32)> {
    match s {
        Shape::Capsule(c) => Some((c.a(), c.b(), c.radius())),
        Shape::Segment(g) => Some((g.a(), g.b(), 0.0)),
        _ => None,
    }
}

/// The stretch of the capsule or segment `s` that can hold its closest or
/// deepest point against a shape inside the ball `(centre, rho)` (in `s`'s
/// frame), as a shape in `s`'s frame; `None` unless the core is longer than
/// [`LONG`] times the ball's diameter.
///
/// With `m` the core point nearest the centre, `d_up = |m − centre| + rho`
/// bounds the core's distance to the shape, and a core point farther than
/// `d_up + rho` from the centre is farther than `d_up` from every point of
/// the shape. When they overlap, a move of at most `2·rho + 2·r` across the
/// core separates them, and a stretch reaching `2·rho + 2·r` further keeps
/// every such move's answer the same as for the whole core. So the stretch
/// within `R = d_up + 3·rho + 2·r` of the centre gives the same distance,
/// points and depth.
fn near_stretch(s: &Shape, centre: Vec3, rho: f32) -> Option<Shape> {
    let (a, b, r) = core(s)?;
    // NaN lengths and sizes compare false: not long.
    let long = (b - a).length() > LONG * 2.0 * rho;
    if !long || !rho.is_finite() {
        return None;
    }
    let (p0, e, c) = (a.as_dvec3(), (b - a).as_dvec3(), centre.as_dvec3());
    let ee = e.length_squared();
    // The unclamped foot of the centre on the core's line, and the nearest
    // core point.
    let foot = (c - p0).dot(e) / ee;
    let m = p0 + e * foot.clamp(0.0, 1.0);
    let reach = (m - c).length() + 4.0 * rho as f64 + 2.0 * r as f64;
    let off_line = (p0 + e * foot - c).length_squared();
    let half = ((reach * reach - off_line).max(0.0)).sqrt() / ee.sqrt();
    let (s0, s1) = ((foot - half).max(0.0), (foot + half).min(1.0));
    if s0 <= 0.0 && s1 >= 1.0 {
        return None;
    }
    let at = |t: f64| (p0 + e * t).as_vec3();
    let (q0, q1) = (at(s0), at(s1));
    if q0 == q1 {
        return None;
    }
    match s {
        Shape::Capsule(_) => Some(Capsule::new(q0, q1, r).ok()?.into()),
        _ => Some(Segment::new(q0, q1).ok()?.into()),
    }
}

/// The pair `(a, b)` (B placed by `pose_ab` in A's frame) with a capsule or
/// segment that is long against the other shape replaced by its near
/// stretch (see [`near_stretch`]), `None` when neither is long.
pub(super) fn cut_pair<'s>(
    a: &'s Shape,
    b: &'s Shape,
    pose_ab: &Pose3,
) -> Option<(Cow<'s, Shape>, Cow<'s, Shape>)> {
    if let (Some(_), Some((c, rho))) = (core(a), bounding_ball(b)) {
        let centre = pose_ab.transform_point(c);
        let s = near_stretch(a, centre, rho)?;
        return Some((Cow::Owned(s), Cow::Borrowed(b)));
    }
    if let (Some(_), Some((c, rho))) = (core(b), bounding_ball(a)) {
        let centre = pose_ab.inverse().transform_point(c);
        let s = near_stretch(b, centre, rho)?;
        return Some((Cow::Borrowed(a), Cow::Owned(s)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stretch keeps the core's line and radius, holds the core point
    /// nearest the centre, and reaches the bound of the doc comment.
    #[test]
    fn stretch_lies_on_the_core_around_the_nearest_point() {
        let s: Shape = Capsule::new(Vec3::new(0.0, 0.0, -1e6), Vec3::new(0.0, 0.0, 1e6), 0.5)
            .unwrap()
            .into();
        let Some(Shape::Capsule(c)) = near_stretch(&s, Vec3::new(3.0, 0.0, 10.0), 1.0) else {
            panic!("a core 2e6 long against a ball of diameter 2 is cut");
        };
        assert_eq!(c.radius(), 0.5);
        assert_eq!((c.a().x, c.a().y, c.b().x, c.b().y), (0.0, 0.0, 0.0, 0.0));
        // reach = 3 + 4 + 1 = 8 around z = 10, off the line by 3.
        let half = (64.0f32 - 9.0).sqrt();
        assert!((c.a().z - (10.0 - half)).abs() < 1e-5, "{:?}", c.a());
        assert!((c.b().z - (10.0 + half)).abs() < 1e-5, "{:?}", c.b());
        // Not long against a ball of diameter 1e4: kept whole.
        assert!(near_stretch(&s, Vec3::ZERO, 5e3).is_none());
    }
}
