//! peng's 3D shapes as triangles (and lines), for drawing.
//!
//! Round shapes are lathed about their axis (peng's cylinders and cones
//! stand along local y; a capsule is lathed along y and turned onto its
//! segment); boxes, polyhedra and meshes give their own faces. A
//! half-space, being unbounded, becomes a square patch of its plane
//! around a given point, with grid lines; a segment is a line.

use peng::d3::{Pose3, Quat, Shape, Vec3};

/// How finely to tessellate.
#[derive(Debug, Clone, Copy)]
pub struct Detail {
    /// Sides of the polygon standing for a circle (at least 3).
    pub segments: usize,
    /// The point (local frame) a half-space's patch is centred on (its
    /// projection on the plane).
    pub patch_center: Vec3,
    /// Half the side of a half-space's patch.
    pub patch_half: f32,
}

/// Triangles and lines in the shape's local frame.
#[derive(Debug, Clone, Default)]
pub struct Tessellation {
    /// Filled triangles.
    pub triangles: Vec<[Vec3; 3]>,
    /// Lines (segments; a half-space's grid).
    pub lines: Vec<[Vec3; 2]>,
}

/// The triangles and lines of `shape` in its local frame.
pub fn tessellate(shape: &Shape, detail: &Detail) -> Tessellation {
    let mut out = Tessellation::default();
    add(shape, detail, &mut out);
    out
}

/// Adds `shape` (in its local frame) to `out`.
fn add(shape: &Shape, detail: &Detail, out: &mut Tessellation) {
    let n = detail.segments.max(3);
    match shape {
        Shape::Ball(b) => out
            .triangles
            .extend(lathe(&arc(0.0, b.radius(), -1.0, 1.0, n / 2), n)),
        Shape::Cylinder(c) => {
            let (h, r) = (c.half_height(), c.radius());
            out.triangles
                .extend(lathe(&[(0.0, -h), (r, -h), (r, h), (0.0, h)], n));
        }
        Shape::Cone(c) => {
            let (h, r) = (c.half_height(), c.radius());
            out.triangles
                .extend(lathe(&[(0.0, -h), (r, -h), (0.0, h)], n));
        }
        Shape::Capsule(c) => {
            let (a, b, r) = (c.a(), c.b(), c.radius());
            let axis = b - a;
            let half = axis.length() * 0.5;
            // Lower hemisphere at -half, upper at +half, along y.
            let mut profile = arc(-half, r, -1.0, 0.0, n / 4);
            profile.extend(arc(half, r, 0.0, 1.0, n / 4));
            let turn = match axis.try_normalize() {
                Some(d) => Quat::from_rotation_arc(Vec3::Y, d),
                None => Quat::IDENTITY,
            };
            let place = Pose3::new((a + b) * 0.5, turn);
            out.triangles.extend(
                lathe(&profile, n)
                    .into_iter()
                    .map(|t| t.map(|p| place.transform_point(p))),
            );
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            let corner = |i: usize| {
                Vec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            };
            // Each face's corners counter-clockwise seen from outside.
            const FACES: [[usize; 4]; 6] = [
                [0, 4, 6, 2], // -x
                [1, 3, 7, 5], // +x
                [0, 1, 5, 4], // -y
                [2, 6, 7, 3], // +y
                [0, 2, 3, 1], // -z
                [4, 5, 7, 6], // +z
            ];
            for f in FACES {
                let [a, b, c, d] = f.map(corner);
                out.triangles.push([a, b, c]);
                out.triangles.push([a, c, d]);
            }
        }
        Shape::Polyhedron(p) => {
            let v = p.vertices();
            for f in 0..p.faces().len() {
                let face = p.face_loop(f);
                for k in 1..face.len().saturating_sub(1) {
                    out.triangles.push([
                        v[face[0] as usize],
                        v[face[k] as usize],
                        v[face[k + 1] as usize],
                    ]);
                }
            }
        }
        Shape::Triangle(t) => out.triangles.push(*t.vertices()),
        Shape::Segment(s) => out.lines.push([s.a(), s.b()]),
        Shape::TriMesh(m) => {
            let v = m.vertices();
            out.triangles
                .extend(m.indices().iter().map(|t| t.map(|i| v[i as usize])));
        }
        Shape::HeightField(h) => {
            out.triangles
                .extend((0..h.num_triangles()).map(|i| h.triangle(i)));
        }
        Shape::HalfSpace(hs) => patch(hs.normal(), detail.patch_center, detail.patch_half, out),
        Shape::Compound(c) => {
            for (part_pose, part) in c.parts() {
                let mut sub = Tessellation::default();
                add(part, &local_for(part_pose, detail), &mut sub);
                out.triangles.extend(
                    sub.triangles
                        .iter()
                        .map(|t| t.map(|p| part_pose.transform_point(p))),
                );
                out.lines.extend(
                    sub.lines
                        .iter()
                        .map(|l| l.map(|p| part_pose.transform_point(p))),
                );
            }
        }
    }
}

/// `detail` with the patch centre moved into the frame of a part at
/// `part_pose`.
fn local_for(part_pose: &Pose3, detail: &Detail) -> Detail {
    Detail {
        patch_center: part_pose.inverse().transform_point(detail.patch_center),
        ..*detail
    }
}

/// A square patch of the plane through the origin with unit normal
/// `normal`, centred on the projection of `center`, with an 8 × 8 grid.
fn patch(normal: Vec3, center: Vec3, half: f32, out: &mut Tessellation) {
    let c = center - normal * normal.dot(center);
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let at = |x: f32, y: f32| c + u * x + v * y;
    let (a, b, cc, d) = (
        at(-half, -half),
        at(half, -half),
        at(half, half),
        at(-half, half),
    );
    out.triangles.push([a, b, cc]);
    out.triangles.push([a, cc, d]);
    const CELLS: usize = 8;
    for k in 0..=CELLS {
        let t = -half + 2.0 * half * k as f32 / CELLS as f32;
        out.lines.push([at(t, -half), at(t, half)]);
        out.lines.push([at(-half, t), at(half, t)]);
    }
}

/// Points `(radius, y)` of a circular arc of radius `r` centred at height
/// `y0`, from `sin = from` to `sin = to` (−1 the bottom, 1 the top), in
/// `steps` steps (at least 2).
fn arc(y0: f32, r: f32, from: f32, to: f32, steps: usize) -> Vec<(f32, f32)> {
    let steps = steps.max(2);
    let (a0, a1) = (from.asin(), to.asin());
    (0..=steps)
        .map(|k| {
            let a = a0 + (a1 - a0) * k as f32 / steps as f32;
            // Exact zeros at the poles, so they lie on the axis.
            let x = if (k == 0 && from.abs() == 1.0) || (k == steps && to.abs() == 1.0) {
                0.0
            } else {
                r * a.cos()
            };
            (x, y0 + r * a.sin())
        })
        .collect()
}

/// The surface swept by turning the profile `(radius, y)` (bottom to top)
/// about the y axis in `n` sectors, outward-facing. Points on the axis
/// give one triangle per sector instead of two.
fn lathe(profile: &[(f32, f32)], n: usize) -> Vec<[Vec3; 3]> {
    let dir: Vec<(f32, f32)> = (0..n)
        .map(|k| {
            let a = std::f32::consts::TAU * k as f32 / n as f32;
            (a.cos(), a.sin())
        })
        .collect();
    let p = |(r, y): (f32, f32), k: usize| {
        let (c, s) = dir[k % n];
        Vec3::new(r * c, y, -r * s)
    };
    let mut out = Vec::new();
    for w in profile.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        for k in 0..n {
            let (a, b) = (p(lo, k), p(lo, k + 1));
            let (c, d) = (p(hi, k + 1), p(hi, k));
            if lo.0 != 0.0 {
                out.push([a, b, c]);
            }
            if hi.0 != 0.0 {
                out.push([a, c, d]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng::d3::{Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace};
    use std::sync::Arc;

    fn detail() -> Detail {
        Detail {
            segments: 24,
            patch_center: Vec3::ZERO,
            patch_half: 1.0,
        }
    }

    fn tri(shape: impl Into<Shape>) -> Vec<[Vec3; 3]> {
        tessellate(&shape.into(), &detail()).triangles
    }

    /// The enclosed volume (divergence theorem): the signed volumes of the
    /// tetrahedra from the origin; positive when every triangle faces out.
    fn volume(t: &[[Vec3; 3]]) -> f32 {
        t.iter().map(|[a, b, c]| a.dot(b.cross(*c)) / 6.0).sum()
    }

    #[test]
    fn a_ball_lies_on_its_sphere_and_encloses_its_volume() {
        let t = tri(Ball::new(0.7).unwrap());
        assert!(t.len() > 100);
        for p in t.iter().flatten() {
            assert!((p.length() - 0.7).abs() < 1e-5, "{p}");
        }
        let exact = 4.0 / 3.0 * std::f32::consts::PI * 0.7f32.powi(3);
        let v = volume(&t);
        assert!(v > 0.95 * exact && v < exact, "{v} against {exact}");
    }

    #[test]
    fn a_cuboid_is_twelve_triangles_on_its_corners() {
        let h = Vec3::new(0.5, 1.0, 2.0);
        let t = tri(Cuboid::new(h).unwrap());
        assert_eq!(t.len(), 12);
        let corners = Cuboid::new(h).unwrap().vertices();
        for p in t.iter().flatten() {
            assert!(corners.contains(p), "{p}");
        }
        for c in corners {
            assert!(t.iter().flatten().any(|p| *p == c), "{c} unused");
        }
        assert!((volume(&t) - 8.0 * h.x * h.y * h.z).abs() < 1e-5);
    }

    #[test]
    fn a_cylinder_stands_along_y() {
        let t = tri(Cylinder::new(0.4, 0.1).unwrap());
        for p in t.iter().flatten() {
            let r = (p.x * p.x + p.z * p.z).sqrt();
            assert!((p.y.abs() - 0.4).abs() < 1e-6, "{p}");
            assert!(r < 1e-6 || (r - 0.1).abs() < 1e-6, "{p}");
        }
        let exact = std::f32::consts::PI * 0.01 * 0.8;
        let v = volume(&t);
        assert!(v > 0.97 * exact && v < exact, "{v} against {exact}");
    }

    #[test]
    fn a_cone_has_its_apex_at_plus_y() {
        let t = tri(Cone::new(0.5, 0.2).unwrap());
        for p in t.iter().flatten() {
            let r = (p.x * p.x + p.z * p.z).sqrt();
            let apex = (*p - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-6;
            assert!(apex || ((p.y + 0.5).abs() < 1e-6 && r < 0.2 + 1e-6), "{p}");
        }
        assert!(volume(&t) > 0.0);
    }

    #[test]
    fn a_capsule_lies_at_its_radius_from_its_segment() {
        let (a, b) = (Vec3::new(0.1, 0.2, -0.3), Vec3::new(0.5, -0.2, 0.6));
        let t = tri(Capsule::new(a, b, 0.15).unwrap());
        for p in t.iter().flatten() {
            let e = b - a;
            let s = ((*p - a).dot(e) / e.dot(e)).clamp(0.0, 1.0);
            let d = (*p - (a + e * s)).length();
            assert!((d - 0.15).abs() < 1e-5, "{p} at {d}");
        }
        let len = (b - a).length();
        let r: f32 = 0.15;
        let exact = std::f32::consts::PI * r * r * (len + 4.0 / 3.0 * r);
        let v = volume(&t);
        assert!(v > 0.95 * exact && v < exact, "{v} against {exact}");
    }

    #[test]
    fn a_polyhedron_gives_its_faces_as_fans() {
        let pts = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::Z,
            Vec3::new(1.0, 1.0, 1.0),
        ];
        let p = ConvexPolyhedron::from_points(&pts).unwrap();
        let expect: usize = (0..p.faces().len()).map(|f| p.face_loop(f).len() - 2).sum();
        let vol = p.volume();
        let t = tri(Shape::Polyhedron(Arc::new(p)));
        assert_eq!(t.len(), expect);
        for q in t.iter().flatten() {
            assert!(pts.contains(q), "{q}");
        }
        assert!((volume(&t) - vol).abs() < 1e-5);
    }

    #[test]
    fn a_half_space_is_a_patch_of_its_plane_around_the_centre() {
        let n = Vec3::new(0.0, 0.0, 1.0);
        let d = Detail {
            patch_center: Vec3::new(2.0, 3.0, 5.0),
            patch_half: 0.5,
            ..detail()
        };
        let t = tessellate(&HalfSpace::new(n).unwrap().into(), &d);
        assert_eq!(t.triangles.len(), 2);
        assert_eq!(t.lines.len(), 18);
        for p in t.triangles.iter().flatten().chain(t.lines.iter().flatten()) {
            assert!(p.z.abs() < 1e-6, "{p}");
            assert!((p.x - 2.0).abs() <= 0.5 + 1e-5 && (p.y - 3.0).abs() <= 0.5 + 1e-5);
        }
    }

    #[test]
    fn a_compound_places_its_parts() {
        let at = Vec3::new(1.0, 2.0, 3.0);
        let c = Compound::new(vec![
            (Pose3::from_translation(at), Ball::new(0.25).unwrap().into()),
            (
                Pose3::from_translation(Vec3::new(0.0, 0.0, 9.0)),
                HalfSpace::new(Vec3::Z).unwrap().into(),
            ),
        ])
        .unwrap();
        let d = Detail {
            patch_center: Vec3::new(0.0, 0.0, 0.0),
            ..detail()
        };
        let t = tessellate(&Shape::Compound(Arc::new(c)), &d);
        let (ball, plane): (Vec<Vec3>, Vec<Vec3>) = t
            .triangles
            .iter()
            .flatten()
            .partition(|p| (**p - at).length() < 0.3);
        for p in &ball {
            assert!(((*p - at).length() - 0.25).abs() < 1e-5, "{p}");
        }
        // The part's plane at z = 9, its patch around (0, 0, 9).
        assert_eq!(plane.len(), 6);
        for p in &plane {
            assert!((p.z - 9.0).abs() < 1e-6 && p.x.abs() <= 1.0 + 1e-5, "{p}");
        }
    }

    #[test]
    fn a_segment_is_a_line_and_a_mesh_its_triangles() {
        let s = peng::d3::Segment::new(Vec3::ZERO, Vec3::X).unwrap();
        let t = tessellate(&s.into(), &detail());
        assert!(t.triangles.is_empty());
        assert_eq!(t.lines, vec![[Vec3::ZERO, Vec3::X]]);
        let mesh = peng::mesh::TriMesh::new(
            vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
            vec![[0, 1, 2], [0, 1, 3]],
        )
        .unwrap();
        let t = tri(Shape::TriMesh(Arc::new(mesh)));
        assert_eq!(
            t,
            vec![
                [Vec3::ZERO, Vec3::X, Vec3::Y],
                [Vec3::ZERO, Vec3::X, Vec3::Z]
            ]
        );
    }
}
