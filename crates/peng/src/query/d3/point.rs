//! 3D point queries: closest points on every shape, and the closest-point
//! primitives (segment, triangle, segment pair) that the pair queries reuse.

use crate::math::tolerance::scaled_eps;
use crate::math::{Pose3, Vec2, Vec3};
use crate::query::types::PointProjection3;
use crate::shape::d3::{Cone, ConvexPolyhedron, Cuboid, Cylinder, Shape};

#[path = "point_exact.rs"]
mod exact;
pub(super) use exact::{cone_nearest, hull_attains, hull_nearest, ConePart, HullPart};

/// The closest point of the shape to `point`. With `solid`, a point inside
/// projects to itself.
///
/// For a compound, the point is inside when it is inside any part; the
/// projection is the nearest point on the boundary of any part (for a point
/// inside overlapping parts this may lie inside another part).
///
/// A triangle mesh contains the points it encloses when it is closed (see
/// [`crate::mesh::Topology::is_closed`]); an open mesh and a height field are
/// surfaces and contain nothing.
pub fn project_point(shape: &Shape, pose: &Pose3, point: Vec3, solid: bool) -> PointProjection3 {
    debug_assert!(pose.is_finite() && point.is_finite(), "non-finite input");
    let local = pose.inverse_transform_point(point);
    let lp = project_local(shape, local);
    PointProjection3 {
        point: if solid && lp.inside {
            point
        } else {
            pose.transform_point(lp.point)
        },
        is_inside: lp.inside,
    }
}

/// Whether the shape contains `point` (boundary included; for flat shapes such
/// as segments and triangles, within a scale-relative tolerance).
pub fn contains_point(shape: &Shape, pose: &Pose3, point: Vec3) -> bool {
    project_local(shape, pose.inverse_transform_point(point)).inside
}

/// A point projected on a shape's boundary, in the shape's local frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LocalProjection {
    /// The closest point of the boundary.
    pub point: Vec3,
    /// Whether the query point is inside (boundary included).
    pub inside: bool,
    /// The outward unit normal of the boundary at `point` (for a query point
    /// outside it is the direction from `point` to the query point). Flat shapes
    /// give their face normal, or a deterministic perpendicular for segments.
    pub normal: Vec3,
}

/// Projects a local point on the boundary of a shape (local frame).
pub(super) fn project_local(shape: &Shape, p: Vec3) -> LocalProjection {
    match shape {
        Shape::Ball(s) => project_ball(Vec3::ZERO, s.radius(), p, Vec3::X),
        Shape::Capsule(s) => {
            let c = closest_point_on_segment(s.a(), s.b(), p);
            project_ball(c, s.radius(), p, perpendicular(s.b() - s.a()))
        }
        Shape::Cuboid(s) => project_cuboid(s, p),
        Shape::Cylinder(s) => project_cylinder(s, p),
        Shape::Cone(s) => project_cone(s, p),
        Shape::Segment(s) => {
            let c = closest_point_on_segment(s.a(), s.b(), p);
            let scale = s.a().abs().max(s.b().abs()).max_element();
            flat(c, p, perpendicular(s.b() - s.a()), scale)
        }
        Shape::Triangle(s) => {
            let [a, b, c] = *s.vertices();
            let (q, interior) = closest_point_on_triangle_region(a, b, c, p);
            if let (true, Some(n)) = (interior, s.normal()) {
                // Face region: the normal is the face normal, exactly.
                let h = n.dot(p - q);
                let scale = a.abs().max(b.abs()).max(c.abs()).max_element();
                let lp = flat(q, p, n, scale);
                return LocalProjection {
                    normal: if h < 0.0 { -n } else { n },
                    ..lp
                };
            }
            let scale = a.abs().max(b.abs()).max(c.abs()).max_element();
            let n = s.normal().unwrap_or_else(|| {
                let e = [b - a, c - a, c - b];
                let long = e
                    .into_iter()
                    .max_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
                    .unwrap_or(Vec3::ZERO);
                perpendicular(long)
            });
            flat(q, p, n, scale)
        }
        Shape::Polyhedron(s) => project_polyhedron(s, p),
        Shape::HalfSpace(s) => {
            let n = s.normal();
            let d = n.dot(p);
            LocalProjection {
                point: p - n * d,
                inside: d <= 0.0,
                normal: n,
            }
        }
        Shape::Compound(c) => {
            let part = |i: usize| {
                let (pose, part) = &c.parts()[i];
                let lp = project_local(part, pose.inverse_transform_point(p));
                let q = pose.transform_point(lp.point);
                (
                    q.distance_squared(p),
                    LocalProjection {
                        point: q,
                        inside: lp.inside,
                        normal: pose.transform_vector(lp.normal),
                    },
                )
            };
            let mut best: Option<(f32, LocalProjection)> = None;
            let mut keep = |(d, lp): (f32, LocalProjection)| {
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, lp));
                }
            };
            // Inside the compound when inside a part: only parts whose boxes
            // hold the point can say so. The nearest surface point comes from
            // a best-first search over the parts' boxes.
            let mut inside = false;
            let mut near = Vec::new();
            c.parts_near(&crate::bound::Aabb3::new(p, p), &mut near);
            for i in near {
                let (d, lp) = part(i);
                inside |= lp.inside;
                keep((d, lp));
            }
            c.bvh().closest_point(p, f32::INFINITY, |slot, _| {
                let (d, lp) = part(c.part_of(slot));
                keep((d, lp));
                Some(d)
            });
            for &i in c.unbounded_parts() {
                keep(part(i as usize));
            }
            let mut lp = best.map(|(_, lp)| lp).unwrap_or(LocalProjection {
                point: p,
                inside: false,
                normal: Vec3::X,
            });
            lp.inside = inside;
            lp
        }
        Shape::TriMesh(m) => {
            let q = m.project_local_point(p);
            let inside = m.topology().is_closed() && m.contains_local_point(p);
            surface(q.point, p, inside, m.triangle(q.triangle))
        }
        Shape::HeightField(h) => {
            let q = h.project_local_point(p);
            surface(q.point, p, false, h.triangle(q.triangle as usize))
        }
    }
}

/// The projection `q` of `p` on a mesh surface: the normal points from `q` to
/// `p` (from `p` to `q` inside), or is the face normal of the triangle `t` it
/// lies on when `p` is on the surface.
fn surface(q: Vec3, p: Vec3, inside: bool, t: [Vec3; 3]) -> LocalProjection {
    let v = if inside { q - p } else { p - q };
    let normal = v.try_normalize().unwrap_or_else(|| {
        (t[1] - t[0])
            .cross(t[2] - t[0])
            .try_normalize()
            .unwrap_or(Vec3::X)
    });
    LocalProjection {
        point: q,
        inside,
        normal,
    }
}

/// A unit vector perpendicular to `u`, chosen deterministically; `+x` when `u`
/// is zero (the policy's fallback axis).
pub(super) fn perpendicular(u: Vec3) -> Vec3 {
    if u.length_squared() <= crate::math::tolerance::ZERO_LENGTH_SQ {
        return Vec3::X;
    }
    let a = u.abs();
    let axis = if a.x <= a.y && a.x <= a.z {
        Vec3::X
    } else if a.y <= a.z {
        Vec3::Y
    } else {
        Vec3::Z
    };
    u.cross(axis).normalize_or(Vec3::X)
}

fn project_ball(c: Vec3, r: f32, p: Vec3, fallback: Vec3) -> LocalProjection {
    let v = p - c;
    let len = v.length();
    let n = if len > 0.0 { v / len } else { fallback };
    LocalProjection {
        point: c + n * r,
        inside: len <= r,
        normal: n,
    }
}

/// Projection on a flat (zero-volume) shape whose closest point is `q`.
fn flat(q: Vec3, p: Vec3, face_normal: Vec3, scale: f32) -> LocalProjection {
    let v = p - q;
    let len = v.length();
    let inside = len <= 10.0 * scaled_eps(scale.max(p.abs().max_element()));
    LocalProjection {
        point: q,
        inside,
        normal: if len > 0.0 { v / len } else { face_normal },
    }
}

fn project_cuboid(c: &Cuboid, p: Vec3) -> LocalProjection {
    let h = c.half_extents();
    let q = p.clamp(-h, h);
    if q != p {
        return LocalProjection {
            point: q,
            inside: false,
            normal: (p - q).normalize_or(Vec3::X),
        };
    }
    // Inside: push out through the nearest face (ties go to the lowest axis).
    let gap = h - p.abs();
    let axis = if gap.x <= gap.y && gap.x <= gap.z {
        0
    } else if gap.y <= gap.z {
        1
    } else {
        2
    };
    let sign = if p[axis] >= 0.0 { 1.0 } else { -1.0 };
    let mut point = p;
    point[axis] = sign * h[axis];
    let mut normal = Vec3::ZERO;
    normal[axis] = sign;
    LocalProjection {
        point,
        inside: true,
        normal,
    }
}

/// Unit radial direction of `p` about the y axis (`+x` on the axis) and the
/// radial distance.
#[inline]
fn radial(p: Vec3) -> (Vec3, f32) {
    let rho = Vec2::new(p.x, p.z).length();
    if rho > 0.0 {
        (Vec3::new(p.x / rho, 0.0, p.z / rho), rho)
    } else {
        (Vec3::X, 0.0)
    }
}

fn project_cylinder(c: &Cylinder, p: Vec3) -> LocalProjection {
    let (h, r) = (c.half_height(), c.radius());
    let (u, rho) = radial(p);
    if p.y.abs() > h || rho > r {
        // The cylinder is a disk times an interval: clamp each factor.
        let y = p.y.clamp(-h, h);
        let q = u * rho.min(r) + Vec3::Y * y;
        // Side and cap regions: the exact surface normal (the f32 difference
        // `p − q` has a direction error of about 1e-7·|p| / |p − q|, large
        // for a point near the surface); at a rim, the difference taken in
        // the meridian plane, where both parts are exact differences.
        let normal = if p.y.abs() <= h {
            u
        } else if rho <= r {
            Vec3::Y * p.y.signum()
        } else {
            rim_normal(p, r, y)
        };
        return LocalProjection {
            point: q,
            inside: false,
            normal,
        };
    }
    let cap_gap = h - p.y.abs();
    let side_gap = r - rho;
    let sign = if p.y >= 0.0 { 1.0 } else { -1.0 };
    if side_gap < cap_gap {
        LocalProjection {
            point: u * r + Vec3::Y * p.y,
            inside: true,
            normal: u,
        }
    } else {
        LocalProjection {
            point: Vec3::new(p.x, sign * h, p.z),
            inside: true,
            normal: Vec3::Y * sign,
        }
    }
}

/// The unit direction to `p` from the nearest point of the circle of radius
/// `r` about the y axis at height `y` (a cylinder's or cone's rim), in f64 so
/// that it stays exact for a point near the rim (see [`segment_normal`]).
fn rim_normal(p: Vec3, r: f32, y: f32) -> Vec3 {
    let p = p.as_dvec3();
    let rho = p.x.hypot(p.z);
    let radial = if rho > 0.0 {
        glam::DVec3::new(p.x / rho, 0.0, p.z / rho)
    } else {
        glam::DVec3::X
    };
    let v = radial * (rho - r as f64) + glam::DVec3::Y * (p.y - y as f64);
    v.try_normalize().map_or(Vec3::X, |v| v.as_vec3())
}

fn project_cone(c: &Cone, p: Vec3) -> LocalProjection {
    let (h, r) = (c.half_height(), c.radius());
    let (u, rho) = radial(p);
    // Work in the meridian half-plane (rho, y): the cone's section is the
    // triangle apex (0, h), rim (r, -h), base centre (0, -h), mirrored about
    // the axis. By symmetry the 3D closest point lies in the same half-plane.
    let q2 = Vec2::new(rho, p.y);
    let apex = Vec2::new(0.0, h);
    let slant_len = (4.0 * h * h + r * r).sqrt();
    // Outward normal of the slant edge apex→rim.
    let m = if slant_len > 0.0 {
        Vec2::new(2.0 * h, r) / slant_len
    } else {
        Vec2::Y
    };
    let to3 = |v: Vec2| u * v.x + Vec3::Y * v.y;
    let slant_out = m.dot(q2 - apex);
    let inside = p.y >= -h && slant_out <= 0.0 && rho <= r && p.y <= h;
    if inside {
        let base_gap = p.y + h;
        let slant_gap = -slant_out;
        return if base_gap <= slant_gap {
            LocalProjection {
                point: Vec3::new(p.x, -h, p.z),
                inside: true,
                normal: -Vec3::Y,
            }
        } else {
            LocalProjection {
                point: to3(q2 + m * slant_gap),
                inside: true,
                normal: to3(m),
            }
        };
    }
    // Outside: the regions of the meridian half-plane, decided in f64.
    let near = cone_nearest(h, r, p);
    LocalProjection {
        point: near.point,
        inside: false,
        normal: near.normal,
    }
}

fn project_polyhedron(s: &ConvexPolyhedron, p: Vec3) -> LocalProjection {
    let mut max_f = 0;
    let mut max_s = f32::NEG_INFINITY;
    for (i, f) in s.faces().iter().enumerate() {
        let d = f.normal.dot(p) - f.offset;
        if d > max_s {
            max_s = d;
            max_f = i;
        }
    }
    if max_s <= 0.0 {
        // Inside: the nearest face plane; its projection lies on the face (the
        // ball of that radius fits inside every other half-space).
        let n = s.faces()[max_f].normal;
        return LocalProjection {
            point: p - n * max_s,
            inside: true,
            normal: n,
        };
    }
    // Outside: the closest point lies on a face that sees `p`: either the
    // projection on its plane when that falls inside the face (then the normal
    // is the face normal and the distance the plane distance, both exact at
    // any distance; the first such face is the answer), or a point of the
    // face's boundary.
    let verts = s.vertices();
    let mut best = p;
    let mut best_d = f32::INFINITY;
    let mut best_n = None;
    for (fi, f) in s.faces().iter().enumerate() {
        let height = f.normal.dot(p) - f.offset;
        if height <= 0.0 {
            continue;
        }
        let lp = s.face_loop(fi);
        let q = p - f.normal * height;
        let inside_face = (0..lp.len()).all(|k| {
            let v0 = verts[lp[k] as usize];
            let v1 = verts[lp[(k + 1) % lp.len()] as usize];
            (v1 - v0).cross(q - v0).dot(f.normal) >= 0.0
        });
        if inside_face {
            // The face's plane supports the polyhedron and `p` is beyond it,
            // so no point of the polyhedron is nearer than `q`: the answer,
            // whatever other faces give (an edge point within rounding of
            // that distance can have a normal far off the face normal).
            return LocalProjection {
                point: q,
                inside: false,
                normal: f.normal,
            };
        }
        for k in 0..lp.len() {
            let v0 = verts[lp[k] as usize];
            let v1 = verts[lp[(k + 1) % lp.len()] as usize];
            let c = closest_point_on_segment(v0, v1, p);
            let d = c.distance_squared(p);
            if d < best_d {
                best_d = d;
                best = c;
                best_n = segment_normal(v0, v1, p);
            }
        }
    }
    let normal = best_n.unwrap_or_else(|| (p - best).normalize_or(s.faces()[max_f].normal));
    // An edge point and a vertex (or two edge points) can tie in f32 and the
    // wrong one's direction miss the normal cone: then the support plane
    // along it falls short of the distance (see `point_exact.rs`).
    if hull_attains(s, p, normal, best_d.sqrt()) {
        return LocalProjection {
            point: best,
            inside: false,
            normal,
        };
    }
    exact_hull_projection(s, p).unwrap_or(LocalProjection {
        point: best,
        inside: false,
        normal,
    })
}

/// The slow path of [`project_polyhedron`]: the nearest point in f64.
#[cold]
#[inline(never)]
fn exact_hull_projection(s: &ConvexPolyhedron, p: Vec3) -> Option<LocalProjection> {
    let near = hull_nearest(s, p)?;
    Some(LocalProjection {
        point: near.point,
        inside: false,
        normal: near.normal,
    })
}

/// The unit direction from the point of segment `a b` closest to `p` to `p`,
/// in f64 (`None` when `p` is on the segment).
///
/// The f32 difference `p − q` carries the rounding of `q` (about 1e-7·|q|),
/// so its direction is off by about 1e-7·|q| / |p − q|: a milliradian for a
/// point 1e-4 from an edge, which tilts a contact normal off the face normal
/// it should approach. From the f32 inputs in f64 the error is 1e-16 instead.
pub(super) fn segment_normal(a: Vec3, b: Vec3, p: Vec3) -> Option<Vec3> {
    let (a, b, p) = (a.as_dvec3(), b.as_dvec3(), p.as_dvec3());
    let (e, w) = (b - a, p - a);
    let l = e.length_squared();
    let t = if l > 0.0 {
        (w.dot(e) / l).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let v = (w - e * t).try_normalize()?.as_vec3();
    (v.length_squared() > 0.5).then_some(v)
}

/// The point of segment `a b` closest to `p` (a zero-length segment is a point).
pub(super) fn closest_point_on_segment(a: Vec3, b: Vec3, p: Vec3) -> Vec3 {
    let ab = b - a;
    let l = ab.length_squared();
    if l <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / l).clamp(0.0, 1.0);
    a + ab * t
}

/// The point of triangle `a b c` closest to `p`. Zero-area triangles work (they
/// act as their longest edge).
///
/// Ericson, *Real-Time Collision Detection*, 5.1.5, classifies `p` into the
/// triangle's Voronoi regions with products of dot products; on slivers (nearly
/// collinear vertices) those products cancel catastrophically in f32 and the
/// result can land visibly off the triangle. Here the same regions are decided
/// in f64: project on the plane, keep the projection when it is inside all three
/// edges, otherwise take the nearest of the three edge points.
// Offered to the sibling query modules (contact manifolds).
#[allow(dead_code)]
pub(super) fn closest_point_on_triangle(a: Vec3, b: Vec3, c: Vec3, p: Vec3) -> Vec3 {
    closest_point_on_triangle_region(a, b, c, p).0
}

/// Like [`closest_point_on_triangle`], also telling whether the point lies in
/// the face region (inside the triangle, not on an edge or vertex region).
pub(super) fn closest_point_on_triangle_region(a: Vec3, b: Vec3, c: Vec3, p: Vec3) -> (Vec3, bool) {
    use glam::DVec3;
    let (a, b, c, p) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3(), p.as_dvec3());
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    let e2 = (b - a)
        .length_squared()
        .max((c - a).length_squared())
        .max((c - b).length_squared());
    if nn > 1e-24 * e2 * e2 {
        let q = p - n * (n.dot(p - a) / nn);
        let inside = n.dot((b - a).cross(q - a)) >= 0.0
            && n.dot((c - b).cross(q - b)) >= 0.0
            && n.dot((a - c).cross(q - c)) >= 0.0;
        if inside {
            return (q.as_vec3(), true);
        }
    }
    let seg = |u: DVec3, v: DVec3| {
        let e = v - u;
        let l = e.length_squared();
        if l <= 0.0 {
            u
        } else {
            u + e * ((p - u).dot(e) / l).clamp(0.0, 1.0)
        }
    };
    let best = [seg(a, b), seg(b, c), seg(c, a)]
        .into_iter()
        .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
        .unwrap_or(a);
    (best.as_vec3(), false)
}

/// Closest points of segments `p1 q1` and `p2 q2`: returns `(s, t, c1, c2)` with
/// `c1 = p1 + s (q1 - p1)` and `c2 = p2 + t (q2 - p2)`, `s, t` in `[0, 1]`.
/// Ericson, *Real-Time Collision Detection*, 5.1.9, with its handling of
/// zero-length and parallel segments (parallel: `s` is chosen as 0 and `t`
/// clamped, which gives one of the closest pairs).
pub(super) fn closest_points_segments(
    p1: Vec3,
    q1: Vec3,
    p2: Vec3,
    q2: Vec3,
) -> (f32, f32, Vec3, Vec3) {
    let (s, t) = crate::query::sat::closest::segment_segment(p1, q1, p2, q2);
    (s, t, p1 + (q1 - p1) * s, p2 + (q2 - p2) * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_regions() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        assert_eq!(
            closest_point_on_triangle(a, b, c, Vec3::new(0.5, 0.5, 3.0)),
            Vec3::new(0.5, 0.5, 0.0)
        );
        assert_eq!(
            closest_point_on_triangle(a, b, c, Vec3::new(-1.0, -1.0, 0.0)),
            a
        );
        let q = closest_point_on_triangle(a, b, c, Vec3::new(2.0, 2.0, 1.0));
        assert!((q - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
        // Zero area.
        let q = closest_point_on_triangle(a, b, b, Vec3::new(1.0, 1.0, 0.0));
        assert!((q - Vec3::X).length() < 1e-6);
    }

    #[test]
    fn segment_pairs() {
        // Skew segments: x axis at z=0 and y axis at z=1 cross at distance 1.
        let (s, t, c1, c2) = closest_points_segments(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 1.0),
            Vec3::new(0.0, 3.0, 1.0),
        );
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.25).abs() < 1e-6);
        assert!((c1 - Vec3::ZERO).length() < 1e-6);
        assert!((c2 - Vec3::Z).length() < 1e-6);
    }
}
