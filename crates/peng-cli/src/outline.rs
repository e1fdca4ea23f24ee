//! How a shape looks in a picture: its outline in view coordinates, 2D as it
//! is, 3D as the orthographic front view (x right, y up, looking along -z).
//! Shared by `peng check --png` and `peng sim`.

use peng::d2::{self, Vec2};
use peng::d3::{self, Vec3};

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
pub(crate) const SAMPLES: usize = 96;

/// The unit directions `SAMPLES` steps around the circle.
fn directions() -> impl Iterator<Item = Vec2> {
    (0..SAMPLES).map(|i| {
        let a = i as f32 * std::f32::consts::TAU / SAMPLES as f32;
        Vec2::new(a.cos(), a.sin())
    })
}

/// The outline of a 2D shape at `pose`, appended to `out`.
pub fn outline2(s: &d2::Shape, pose: &d2::Pose2, out: &mut Vec<Outline>) {
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
                outline2(part, &pose.mul(p), out);
            }
        }
        // A polyline is drawn segment by segment.
        d2::Shape::Polyline(l) => {
            for &[i, j] in l.segments() {
                let v = l.vertices();
                out.push(Outline::Line(
                    pose.transform_point(v[i as usize]),
                    pose.transform_point(v[j as usize]),
                ));
            }
        }
        d2::Shape::Circle(_) | d2::Shape::Capsule(_) => {
            let pts = directions()
                .map(|u| pose.transform_point(s.local_support(pose.inverse_transform_vector(u))))
                .collect();
            out.push(Outline::Poly(pts));
        }
    }
}

/// Front view: drop z.
pub fn project(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.y)
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

/// The outline of a 3D shape at `pose` in the front view, appended to `out`
/// (a half-space only when seen edge-on).
pub fn outline3(s: &d3::Shape, pose: &d3::Pose3, out: &mut Vec<Outline>) {
    let world = |ps: &[Vec3]| -> Vec<Vec2> {
        ps.iter()
            .map(|&p| project(pose.transform_point(p)))
            .collect()
    };
    match s {
        d3::Shape::Compound(c) => {
            for (p, part) in c.parts() {
                outline3(part, &pose.mul(p), out);
            }
        }
        d3::Shape::HalfSpace(h) => {
            let n = pose.transform_vector(h.normal());
            if n.z.abs() < 1e-4 {
                out.push(Outline::HalfPlane {
                    point: project(pose.translation),
                    normal: project(n).normalize_or_zero(),
                });
            }
        }
        d3::Shape::Segment(g) => out.push(Outline::Line(
            project(pose.transform_point(g.a())),
            project(pose.transform_point(g.b())),
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
        d3::Shape::Ball(_)
        | d3::Shape::Capsule(_)
        | d3::Shape::Cylinder(_)
        | d3::Shape::Cone(_) => {
            let pts = directions()
                .map(|u| {
                    let local = pose.inverse_transform_vector(Vec3::new(u.x, u.y, 0.0));
                    project(pose.transform_point(s.local_support(local)))
                })
                .collect();
            out.push(hull_outline(pts));
        }
    }
}
