//! What the simulation command needs from a dimension beyond
//! [`peng_dynamics::DynDim`]: pose algebra, and how a shape
//! looks in the picture (2D as it is; 3D as the orthographic front view of
//! `peng check --png`: x right, y up, looking along -z).

use peng::d2::{self, Pose2, Vec2};
use peng::d3::{self, Pose3, Vec3};
use peng::world::{Dim2, Dim3};
use peng_dynamics::DynDim;

/// A drawable piece of a shape in view coordinates.
#[derive(Debug, Clone, PartialEq)]
pub enum Outline {
    /// A convex polygon (its vertices in order around it).
    Poly(Vec<Vec2>),
    /// A segment.
    Line(Vec2, Vec2),
    /// The half-plane `normal · (p - point) <= 0`.
    HalfPlane {
        /// A point on its boundary.
        point: Vec2,
        /// Outward unit normal.
        normal: Vec2,
    },
}

/// Directions sampled around round shapes.
const SAMPLES: usize = 64;

/// The unit directions `SAMPLES` steps around the circle.
fn directions() -> impl Iterator<Item = Vec2> {
    (0..SAMPLES).map(|i| {
        let a = i as f32 * std::f32::consts::TAU / SAMPLES as f32;
        Vec2::new(a.cos(), a.sin())
    })
}

/// A dimension of the simulation command (implemented for [`Dim2`] and
/// [`Dim3`]).
pub trait Space: DynDim {
    /// `a * b`: `b`'s frame placed in `a`'s.
    fn mul(a: &Self::Pose, b: &Self::Pose) -> Self::Pose;
    /// A world point in the frame of `pose`.
    fn to_local_point(pose: &Self::Pose, p: Self::V) -> Self::V;
    /// A world direction in the frame of `pose`.
    fn to_local_vector(pose: &Self::Pose, v: Self::V) -> Self::V;
    /// A point in view coordinates (3D: front view, drop z).
    fn project(p: Self::V) -> Vec2;
    /// How near the viewer a pose is (3D: z; 2D: 0); nearer bodies are drawn
    /// last.
    fn depth(pose: &Self::Pose) -> f32;
    /// Appends the outlines of `shape` at `pose` in view coordinates.
    fn outline(shape: &Self::Shape, pose: &Self::Pose, out: &mut Vec<Outline>);
}

impl Space for Dim2 {
    fn mul(a: &Pose2, b: &Pose2) -> Pose2 {
        a.mul(b)
    }
    fn to_local_point(pose: &Pose2, p: Vec2) -> Vec2 {
        pose.inverse_transform_point(p)
    }
    fn to_local_vector(pose: &Pose2, v: Vec2) -> Vec2 {
        pose.inverse_transform_vector(v)
    }
    fn project(p: Vec2) -> Vec2 {
        p
    }
    fn depth(_: &Pose2) -> f32 {
        0.0
    }
    fn outline(s: &d2::Shape, pose: &Pose2, out: &mut Vec<Outline>) {
        let world = |ps: &[Vec2]| ps.iter().map(|&p| pose.transform_point(p)).collect();
        match s {
            d2::Shape::Rect(r) => out.push(Outline::Poly(world(&r.vertices()))),
            d2::Shape::Triangle(t) => out.push(Outline::Poly(world(t.vertices()))),
            d2::Shape::Polygon(p) => out.push(Outline::Poly(world(p.vertices()))),
            d2::Shape::Segment(g) => out.push(Outline::Line(
                pose.transform_point(g.a()),
                pose.transform_point(g.b()),
            )),
            d2::Shape::Compound(c) => {
                for (p, part) in c.parts() {
                    Self::outline(part, &pose.mul(p), out);
                }
            }
            d2::Shape::Polyline(l) => {
                let v = l.vertices();
                for &[i, j] in l.segments() {
                    out.push(Outline::Line(
                        pose.transform_point(v[i as usize]),
                        pose.transform_point(v[j as usize]),
                    ));
                }
            }
            // Round shapes: the support point in each sampled direction
            // traces the boundary.
            d2::Shape::Circle(_) | d2::Shape::Capsule(_) => {
                let pts = directions()
                    .map(|u| {
                        pose.transform_point(s.local_support(pose.inverse_transform_vector(u)))
                    })
                    .collect();
                out.push(Outline::Poly(pts));
            }
        }
    }
}

/// The outline of projected points: their convex hull, or the segment
/// between the two farthest points when they are collinear.
fn hull_outline(pts: Vec<Vec2>) -> Outline {
    match peng::shape::hull2::convex_hull(&pts) {
        Ok(h) => Outline::Poly(h),
        Err(_) => {
            let p0 = pts.first().copied().unwrap_or(Vec2::ZERO);
            let far = |from: Vec2| {
                pts.iter().copied().fold(from, |b, p| {
                    if p.distance_squared(from) > b.distance_squared(from) {
                        p
                    } else {
                        b
                    }
                })
            };
            let a = far(p0);
            Outline::Line(a, far(a))
        }
    }
}

impl Space for Dim3 {
    fn mul(a: &Pose3, b: &Pose3) -> Pose3 {
        a.mul(b)
    }
    fn to_local_point(pose: &Pose3, p: Vec3) -> Vec3 {
        pose.inverse_transform_point(p)
    }
    fn to_local_vector(pose: &Pose3, v: Vec3) -> Vec3 {
        pose.inverse_transform_vector(v)
    }
    fn project(p: Vec3) -> Vec2 {
        Vec2::new(p.x, p.y)
    }
    fn depth(pose: &Pose3) -> f32 {
        pose.translation.z
    }
    fn outline(s: &d3::Shape, pose: &Pose3, out: &mut Vec<Outline>) {
        let world = |ps: &[Vec3]| -> Vec<Vec2> {
            ps.iter()
                .map(|&p| Self::project(pose.transform_point(p)))
                .collect()
        };
        match s {
            d3::Shape::Compound(c) => {
                for (p, part) in c.parts() {
                    Self::outline(part, &pose.mul(p), out);
                }
            }
            // Seen edge-on only when the normal lies in the view plane;
            // otherwise it covers the whole view and is left out.
            d3::Shape::HalfSpace(h) => {
                let n = pose.transform_vector(h.normal());
                if n.z.abs() < 1e-4 {
                    out.push(Outline::HalfPlane {
                        point: Self::project(pose.translation),
                        normal: Self::project(n).normalize_or_zero(),
                    });
                }
            }
            d3::Shape::Segment(g) => out.push(Outline::Line(
                Self::project(pose.transform_point(g.a())),
                Self::project(pose.transform_point(g.b())),
            )),
            d3::Shape::Cuboid(c) => out.push(hull_outline(world(&c.vertices()))),
            d3::Shape::Polyhedron(p) => out.push(hull_outline(world(p.vertices()))),
            d3::Shape::Triangle(t) => out.push(hull_outline(world(t.vertices()))),
            d3::Shape::TriMesh(m) => out.push(hull_outline(world(m.vertices()))),
            d3::Shape::HeightField(h) => {
                let vs: Vec<Vec3> = (0..h.rows())
                    .flat_map(|r| (0..h.cols()).map(move |c| h.vertex(r, c)))
                    .collect();
                out.push(hull_outline(world(&vs)));
            }
            // The silhouette of a round shape in the front view: the support
            // along a view-plane direction, projected.
            d3::Shape::Ball(_)
            | d3::Shape::Capsule(_)
            | d3::Shape::Cylinder(_)
            | d3::Shape::Cone(_) => {
                let pts = directions()
                    .map(|u| {
                        let local = pose.inverse_transform_vector(Vec3::new(u.x, u.y, 0.0));
                        Self::project(pose.transform_point(s.local_support(local)))
                    })
                    .collect();
                out.push(hull_outline(pts));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_outline_is_placed_by_the_pose() {
        let r: d2::Shape = d2::Rect::new(Vec2::new(1.0, 0.5)).unwrap().into();
        let mut out = Vec::new();
        let pose = Pose2::new(Vec2::new(3.0, 1.0), std::f32::consts::FRAC_PI_2);
        Dim2::outline(&r, &pose, &mut out);
        let Outline::Poly(ps) = &out[0] else {
            panic!("{out:?}")
        };
        // Turned a quarter: half extents (0.5, 1) about (3, 1).
        for p in ps {
            assert!(((p.x - 3.0).abs() - 0.5).abs() < 1e-5, "{p}");
            assert!(((p.y - 1.0).abs() - 1.0).abs() < 1e-5, "{p}");
        }
    }

    #[test]
    fn ball_silhouette_is_a_circle_in_the_front_view() {
        let b: d3::Shape = d3::Ball::new(2.0).unwrap().into();
        let mut out = Vec::new();
        let pose = Pose3::from_translation(Vec3::new(1.0, -1.0, 5.0));
        Dim3::outline(&b, &pose, &mut out);
        let Outline::Poly(ps) = &out[0] else {
            panic!("{out:?}")
        };
        assert!(ps.len() >= SAMPLES / 2);
        for p in ps {
            assert!(((*p - Vec2::new(1.0, -1.0)).length() - 2.0).abs() < 1e-4);
        }
        assert_eq!(Dim3::depth(&pose), 5.0);
    }
}
