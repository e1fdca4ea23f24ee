//! Bounding spheres of links, so that a check skips the pairs that are far
//! apart before any shape query (a random configuration of an arm leaves most
//! link pairs a link's length apart).

use crate::shapes::LinkShape;
use glam::DVec3;
use peng::d3::{Aabb3, Obb3, Shape, Vec3};

/// Added to every sphere's radius: the f32 placement of the shapes rounds
/// their points by about 1e-7 of the arm's size, far below this.
const MARGIN: f64 = 1e-5;

/// A sphere holding all of a link's shapes, in the link's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sphere {
    /// The centre, link frame.
    pub center: DVec3,
    /// The radius (with [`MARGIN`]).
    pub radius: f64,
}

/// The points a shape lies within (link frame): a convex hull's or a
/// mesh's vertices, else the corners of the shape's box.
fn hull_points(s: &LinkShape, out: &mut Vec<DVec3>) {
    let place = |p: glam::Vec3| s.pose.transform_point(p.as_dvec3());
    match &s.shape {
        Shape::Polyhedron(p) => out.extend(p.vertices().iter().map(|&v| place(v))),
        Shape::TriMesh(m) => out.extend(m.vertices().iter().map(|&v| place(v))),
        shape => {
            let b = shape.aabb(&peng::d3::Pose3::IDENTITY);
            out.extend(corners(&b).map(place));
        }
    }
}

fn corners(b: &Aabb3) -> [glam::Vec3; 8] {
    std::array::from_fn(|i| {
        glam::Vec3::new(
            if i & 1 == 0 { b.min.x } else { b.max.x },
            if i & 2 == 0 { b.min.y } else { b.max.y },
            if i & 4 == 0 { b.min.z } else { b.max.z },
        )
    })
}

/// A link's bounding volumes, in its frame: a sphere and an oriented box
/// (fitted to the shapes' points along their principal axes), both grown by
/// [`MARGIN`]. `None` for a link without shapes or with unbounded ones.
pub(crate) fn link_bounds(shapes: &[LinkShape]) -> Option<(Sphere, Obb3)> {
    let mut pts = Vec::new();
    for s in shapes {
        hull_points(s, &mut pts);
    }
    let sphere = sphere_of(&pts)?;
    let pts32: Vec<Vec3> = pts.iter().map(|p| p.as_vec3()).collect();
    let b = Obb3::from_points(&pts32).ok()?;
    let grown = Obb3::new(
        b.center,
        b.axes,
        b.half_extents + Vec3::splat(MARGIN as f32),
    );
    Some((sphere, grown))
}

/// The sphere of the points: centred on their box, reaching the farthest.
fn sphere_of(pts: &[DVec3]) -> Option<Sphere> {
    let first = *pts.first()?;
    let (lo, hi) = pts
        .iter()
        .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let center = (lo + hi) * 0.5;
    let radius = pts.iter().map(|p| p.distance(center)).fold(0.0, f64::max);
    radius.is_finite().then_some(Sphere {
        center,
        radius: radius + MARGIN,
    })
}

/// The distance from `p` to box `b` (0 inside; infinite boxes work).
pub(crate) fn box_distance(b: &Aabb3, p: DVec3) -> f64 {
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let d = (lo - p).max(p - hi).max(DVec3::ZERO);
    d.length()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::Transform;
    use peng::d3::{Ball, ConvexPolyhedron, Cuboid};

    fn shape(s: Shape, at: DVec3) -> LinkShape {
        LinkShape {
            shape: s,
            pose: Transform::translation(at),
        }
    }

    #[test]
    fn the_sphere_holds_every_shape() {
        let hull = ConvexPolyhedron::from_points(&[
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::Z,
            Vec3::new(0.3, 0.3, 0.9),
        ])
        .unwrap();
        let shapes = [
            shape(Ball::new(0.5).unwrap().into(), DVec3::new(2.0, 0.0, 0.0)),
            shape(hull.clone().into(), DVec3::new(-1.0, 0.0, 0.0)),
            shape(
                Cuboid::new(Vec3::new(0.1, 0.2, 0.3)).unwrap().into(),
                DVec3::new(0.0, 0.0, 3.0),
            ),
        ];
        let (s, b) = link_bounds(&shapes).unwrap();
        // Farthest points of each: the ball's surface, the hull's vertices,
        // the box's corners.
        for d in [DVec3::X, -DVec3::X, DVec3::Y, DVec3::Z, -DVec3::Z] {
            let p = DVec3::new(2.0, 0.0, 0.0) + d * 0.5;
            assert!(p.distance(s.center) <= s.radius, "{p}");
        }
        for v in hull.vertices() {
            let p = v.as_dvec3() + DVec3::new(-1.0, 0.0, 0.0);
            assert!(p.distance(s.center) <= s.radius, "{p}");
        }
        let p = DVec3::new(0.1, 0.2, 3.3);
        assert!(p.distance(s.center) <= s.radius);
        assert!(b.contains_point(p.as_vec3()));
        assert!(b.contains_point(Vec3::new(2.5, 0.0, 0.0)));
        assert!(b.contains_point(Vec3::new(-1.0, 0.0, 1.0)));
        assert!(link_bounds(&[]).is_none());
    }

    #[test]
    fn box_distances() {
        let b = Aabb3 {
            min: Vec3::ZERO,
            max: Vec3::ONE,
        };
        assert_eq!(box_distance(&b, DVec3::splat(0.5)), 0.0);
        assert!((box_distance(&b, DVec3::new(4.0, 5.0, 0.5)) - 5.0).abs() < 1e-12);
        let all = Aabb3 {
            min: Vec3::splat(f32::NEG_INFINITY),
            max: Vec3::new(f32::INFINITY, 0.0, f32::INFINITY),
        };
        assert_eq!(box_distance(&all, DVec3::new(1e9, -3.0, -1e9)), 0.0);
        assert_eq!(box_distance(&all, DVec3::new(1e9, 3.0, -1e9)), 3.0);
    }
}
