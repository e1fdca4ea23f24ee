//! Closest points of a shape to a point, with the feature that holds them, in
//! the shape's local frame. Used for balls (a point with a radius) against
//! every shape, and for the ends of capsule cores against polytopes.
//!
//! These are private closed forms rather than the public `project_point` so
//! that they report the feature (face, edge, vertex) for contact ids.

use crate::math::Vec3;
use crate::query::d3::point::{cone_nearest, hull_attains, hull_nearest, ConePart, HullPart};
use crate::query::sat::closest::point_segment;
use crate::query::types::Feature;
use crate::shape::d3::{Cone, ConvexPolyhedron, Cuboid, Cylinder, Shape, Triangle};
use glam::Vec2;

/// The projection of a point `c` on a shape's surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Proj {
    /// The closest surface point.
    pub point: Vec3,
    /// Unit normal of the surface at `point` pointing to `c` when `c` is
    /// outside, the outward normal when inside.
    pub normal: Vec3,
    /// Signed distance of `c` to the surface: `> 0` outside, `< 0` inside.
    pub dist: f32,
    /// The feature of the shape holding `point`.
    pub feature: Feature,
}

/// `(c - q)` normalized with distance; `fallback` when `c == q`.
#[inline]
fn outward(c: Vec3, q: Vec3, fallback: Vec3) -> (Vec3, f32) {
    let d = c - q;
    let l = d.length();
    // Below a few ulps of the coordinates the direction is rounding noise.
    let eps = crate::math::tolerance::REL_EPS * (c.abs().max_element() + q.abs().max_element());
    if l > eps && l * l > crate::math::tolerance::ZERO_LENGTH_SQ {
        (d / l, l)
    } else {
        (fallback, 0.0)
    }
}

/// Projection on a bounded convex shape (not a half-space, not a compound).
pub(super) fn project(shape: &Shape, c: Vec3) -> Option<Proj> {
    Some(match shape {
        Shape::Ball(b) => {
            let (n, l) = outward(c, Vec3::ZERO, Vec3::X);
            Proj {
                point: n * b.radius(),
                normal: n,
                dist: l - b.radius(),
                feature: Feature::vertex(0),
            }
        }
        Shape::Capsule(s) => inflate(segment(s.a(), s.b(), c), s.radius()),
        Shape::Segment(s) => segment(s.a(), s.b(), c),
        Shape::Cuboid(b) => cuboid(b, c),
        Shape::Triangle(t) => triangle(t, c),
        Shape::Polyhedron(p) => polyhedron(p, c),
        Shape::Cylinder(s) => cylinder(s, c),
        Shape::Cone(s) => cone(s, c),
        Shape::HalfSpace(_) | Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_) => {
            return None
        }
    })
}

/// Moves a projection out by `r` (a capsule around a core).
#[inline]
pub(super) fn inflate(p: Proj, r: f32) -> Proj {
    Proj {
        point: p.point + p.normal * r,
        dist: p.dist - r,
        ..p
    }
}

/// Projection on the segment `a b`: features vertex 0, vertex 1, edge 0.
pub(super) fn segment(a: Vec3, b: Vec3, c: Vec3) -> Proj {
    let t = point_segment(a, b, c);
    let q = a + (b - a) * t;
    let d = b - a;
    let fallback = if d.length_squared() > crate::math::tolerance::ZERO_LENGTH_SQ {
        d.normalize().any_orthonormal_vector()
    } else {
        Vec3::X
    };
    let (n, l) = outward(c, q, fallback);
    let feature = if t <= 0.0 {
        Feature::vertex(0)
    } else if t >= 1.0 {
        Feature::vertex(1)
    } else {
        Feature::edge(0)
    };
    Proj {
        point: q,
        normal: n,
        dist: l,
        feature,
    }
}

/// Projection on a cuboid. Features: face `2k + (side > 0)`, edge as in the
/// cuboid polytope, vertex by sign bits.
pub(super) fn cuboid(b: &Cuboid, c: Vec3) -> Proj {
    let h = b.half_extents();
    let q = c.clamp(-h, h);
    if q != c {
        let mut clamped = 0;
        let mut vid = 0;
        let mut free = 0;
        for k in 0..3 {
            if c[k] > h[k] || c[k] < -h[k] {
                clamped += 1;
            } else {
                free = k;
            }
            if q[k] >= 0.0 {
                vid |= 1 << k;
            }
        }
        let feature = match clamped {
            1 => {
                let k = (0..3).find(|&k| c[k] > h[k] || c[k] < -h[k]).unwrap_or(0);
                Feature::face(2 * k + (c[k] > 0.0) as usize)
            }
            2 => {
                let (u, x) = ((free + 1) % 3, (free + 2) % 3);
                Feature::edge(4 * free + ((vid >> u) & 1) + (((vid >> x) & 1) << 1))
            }
            _ => Feature::vertex(vid),
        };
        let (mut n, l) = outward(c, q, Vec3::X);
        if clamped == 1 {
            // Face region: the face normal, exact even for a tiny gap.
            n = Vec3::ZERO;
            let k = (0..3).find(|&k| c[k] > h[k] || c[k] < -h[k]).unwrap_or(0);
            n[k] = c[k].signum();
        }
        return Proj {
            point: q,
            normal: n,
            dist: l,
            feature,
        };
    }
    // Inside: leave through the nearest face (ties to the lowest axis, + side).
    let pen = h - c.abs();
    let k = if pen.x <= pen.y && pen.x <= pen.z {
        0
    } else if pen.y <= pen.z {
        1
    } else {
        2
    };
    let positive = c[k] >= 0.0;
    let mut n = Vec3::ZERO;
    n[k] = if positive { 1.0 } else { -1.0 };
    let mut q = c;
    q[k] = n[k] * h[k];
    Proj {
        point: q,
        normal: n,
        dist: -pen[k],
        feature: Feature::face(2 * k + positive as usize),
    }
}

/// Projection on a triangle by its Voronoi regions (Ericson, Real-Time
/// Collision Detection, 5.1.5). Features: face 0 (`+normal` side) or 1, edge
/// `k` (vertices `k`, `k + 1`), vertex `k`. A zero-area triangle projects on
/// its longest edge.
pub(super) fn triangle(t: &Triangle, p: Vec3) -> Proj {
    let [a, b, c] = *t.vertices();
    let Some(normal) = t.normal() else {
        let (s0, s1) = super::polytopes::longest_edge(t);
        let mut r = segment(s0, s1, p);
        r.feature = Feature::edge(0);
        return r;
    };
    let ab = b - a;
    let ac = c - a;
    // An edge under 1e-15 long makes the products of the regions' tests
    // underflow (a sliver of a height field with cells 1e-23 wide): f64.
    let short = |e: Vec3| e.length_squared() < 1e-30;
    if short(ab) || short(ac) || short(c - b) {
        return sliver(t, normal, p);
    }
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    let (q, feature) = 'region: {
        if d1 <= 0.0 && d2 <= 0.0 {
            break 'region (a, Feature::vertex(0));
        }
        let bp = p - b;
        let d3 = ab.dot(bp);
        let d4 = ac.dot(bp);
        if d3 >= 0.0 && d4 <= d3 {
            break 'region (b, Feature::vertex(1));
        }
        // vc: signed area for the region of edge ab.
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            let v = d1 / (d1 - d3);
            break 'region (a + ab * v, Feature::edge(0));
        }
        let cp = p - c;
        let d5 = ab.dot(cp);
        let d6 = ac.dot(cp);
        if d6 >= 0.0 && d5 <= d6 {
            break 'region (c, Feature::vertex(2));
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            let w = d2 / (d2 - d6);
            break 'region (a + ac * w, Feature::edge(2));
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
            let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            break 'region (b + (c - b) * w, Feature::edge(1));
        }
        // Inside the face region: the projection on the plane (Ericson forms
        // it from barycentric coordinates; the plane distance is more exact
        // for a point on or near the plane).
        let h = (p - a).dot(normal);
        let n = if h < 0.0 { -normal } else { normal };
        return Proj {
            point: p - normal * h,
            normal: n,
            dist: h.abs(),
            feature: Feature::face((h < 0.0) as usize),
        };
    };
    let (n, l) = outward(p, q, normal);
    Proj {
        point: q,
        normal: n,
        dist: l,
        feature,
    }
}

/// [`triangle`] for a triangle with an edge too short for its f32 region
/// tests: the closest point decided in f64, the normal as [`triangle`] gives
/// it.
fn sliver(t: &Triangle, normal: Vec3, p: Vec3) -> Proj {
    use crate::mesh::TriangleFeature;
    let (q, _, on) = crate::mesh::geom::closest3::point_triangle(t.vertices(), p);
    let feature = match on {
        TriangleFeature::Vertex(k) => Feature::vertex(k as usize),
        TriangleFeature::Edge(k) => Feature::edge(k as usize),
        TriangleFeature::Face => Feature::NONE,
    };
    match on {
        TriangleFeature::Vertex(_) | TriangleFeature::Edge(_) => {
            let (n, l) = outward(p, q, normal);
            Proj {
                point: q,
                normal: n,
                dist: l,
                feature,
            }
        }
        TriangleFeature::Face => {
            let h = (p - q).dot(normal);
            Proj {
                point: q,
                normal: if h < 0.0 { -normal } else { normal },
                dist: h.abs(),
                feature: Feature::face((h < 0.0) as usize),
            }
        }
    }
}

/// Projection on a convex polyhedron. Inside: through the face of least
/// penetration. Outside: the closest point lies on a face the point sees, so
/// the nearest of those faces' closest points is taken.
pub(super) fn polyhedron(p: &ConvexPolyhedron, c: Vec3) -> Proj {
    let faces = p.faces();
    let mut best_f = 0;
    let mut best_s = f32::NEG_INFINITY;
    for (i, f) in faces.iter().enumerate() {
        let s = f.normal.dot(c) - f.offset;
        if s > best_s {
            best_s = s;
            best_f = i;
        }
    }
    if best_s <= 0.0 {
        let n = faces[best_f].normal;
        return Proj {
            point: c - n * best_s,
            normal: n,
            dist: best_s,
            feature: Feature::face(best_f),
        };
    }
    let verts = p.vertices();
    let mut best = Proj {
        point: c,
        normal: Vec3::X,
        dist: f32::INFINITY,
        feature: Feature::NONE,
    };
    for (fi, f) in faces.iter().enumerate() {
        let s = f.normal.dot(c) - f.offset;
        if s <= 0.0 {
            continue;
        }
        let lp = p.face_loop(fi);
        let proj = c - f.normal * s;
        // Inside the polygon when on the inner side of every edge.
        let mut inside = true;
        for k in 0..lp.len() {
            let a = verts[lp[k] as usize];
            let b = verts[lp[(k + 1) % lp.len()] as usize];
            if (b - a).cross(f.normal).dot(proj - a) > 0.0 {
                inside = false;
                break;
            }
        }
        if inside {
            // The face's plane supports the polyhedron with `c` beyond it: no
            // point is nearer than `proj`, whatever the other faces give (an
            // edge point within rounding of that distance can have a normal
            // far off the face normal).
            return Proj {
                point: proj,
                normal: f.normal,
                dist: s,
                feature: Feature::face(fi),
            };
        }
        for k in 0..lp.len() {
            let (ia, ib) = (lp[k], lp[(k + 1) % lp.len()]);
            let (a, b) = (verts[ia as usize], verts[ib as usize]);
            let t = point_segment(a, b, c);
            let q = a + (b - a) * t;
            let d = (c - q).length();
            if d < best.dist {
                let feature = if t <= 0.0 {
                    Feature::vertex(ia as usize)
                } else if t >= 1.0 {
                    Feature::vertex(ib as usize)
                } else {
                    Feature::edge(p.face_loop_edges(fi)[k] as usize)
                };
                let (mut n, l) = outward(c, q, f.normal);
                if l > 0.0 {
                    // The direction in f64: exact for a centre near the edge.
                    n = crate::query::d3::point::segment_normal(a, b, c).unwrap_or(n);
                }
                best = Proj {
                    point: q,
                    normal: n,
                    dist: l,
                    feature,
                };
            }
        }
    }
    // An edge point and a vertex (or two edge points) can tie in f32 and the
    // wrong one's direction miss the normal cone: then the support plane
    // along it falls short of the distance (see `point_exact.rs`).
    if hull_attains(p, c, best.normal, best.dist) {
        return best;
    }
    exact_polyhedron(p, c).unwrap_or(best)
}

/// The slow path of [`polyhedron`]: the nearest point in f64.
#[cold]
#[inline(never)]
fn exact_polyhedron(p: &ConvexPolyhedron, c: Vec3) -> Option<Proj> {
    let near = hull_nearest(p, c)?;
    let feature = match near.part {
        HullPart::Face(f) => Feature::face(f),
        HullPart::Edge { face, k, t } => {
            let lp = p.face_loop(face);
            if t <= 0.0 {
                Feature::vertex(lp[k] as usize)
            } else if t >= 1.0 {
                Feature::vertex(lp[(k + 1) % lp.len()] as usize)
            } else {
                Feature::edge(p.face_loop_edges(face)[k] as usize)
            }
        }
    };
    Some(Proj {
        point: near.point,
        normal: near.normal,
        dist: near.dist,
        feature,
    })
}

/// The unit radial direction of `c` about the y axis (`+x` on the axis).
#[inline]
fn radial(c: Vec3) -> (Vec2, f32) {
    let r = Vec2::new(c.x, c.z);
    let l = r.length();
    if l > 1e-12 {
        (r / l, l)
    } else {
        (Vec2::X, 0.0)
    }
}

/// Lifts a meridian point `(ρ, y)` at radial direction `u` back to 3D.
#[inline]
fn lift(u: Vec2, rho: f32, y: f32) -> Vec3 {
    Vec3::new(u.x * rho, y, u.y * rho)
}

/// Projection on a cylinder, solved in the meridian half-plane `(ρ, y)` where
/// the cylinder is the rectangle `[0, R] × [-h, h]`. Features: face 0 (bottom
/// cap), face 1 (top cap), face 2 (side), edge 0/1 (bottom/top rim).
pub(super) fn cylinder(s: &Cylinder, c: Vec3) -> Proj {
    let (h, r) = (s.half_height(), s.radius());
    let (u, rho) = radial(c);
    let y = c.y;
    if rho <= r && y.abs() <= h {
        let side = r - rho;
        let cap = h - y.abs();
        if side < cap {
            return Proj {
                point: lift(u, r, y),
                normal: lift(u, 1.0, 0.0),
                dist: -side,
                feature: Feature::face(2),
            };
        }
        let top = y >= 0.0;
        return Proj {
            point: Vec3::new(c.x, if top { h } else { -h }, c.z),
            normal: if top { Vec3::Y } else { Vec3::NEG_Y },
            dist: -cap,
            feature: Feature::face(top as usize),
        };
    }
    let q = lift(u, rho.min(r), y.clamp(-h, h));
    let top = y >= 0.0;
    let feature = match (rho > r, y.abs() > h) {
        (true, true) => Feature::edge(top as usize),
        (true, false) => Feature::face(2),
        _ => Feature::face(top as usize),
    };
    let (mut n, l) = outward(c, q, Vec3::X);
    // Side and cap regions: the exact surface normal.
    match (rho > r, y.abs() > h) {
        (true, false) => n = lift(u, 1.0, 0.0),
        (false, true) => n = if top { Vec3::Y } else { Vec3::NEG_Y },
        _ => {}
    }
    Proj {
        point: q,
        normal: n,
        dist: l,
        feature,
    }
}

/// Projection on a cone, solved in the meridian half-plane `(ρ, y)` where the
/// cone is the triangle `(0, -h), (R, -h), (0, h)`; the axis side is interior
/// in 3D so only the base and the slant side bound it. Features: face 0
/// (base), face 1 (slant side), edge 0 (base rim), vertex 0 (apex).
pub(super) fn cone(s: &Cone, c: Vec3) -> Proj {
    let (h, r) = (s.half_height(), s.radius());
    let (u, rho) = radial(c);
    let q2 = Vec2::new(rho, c.y);
    // Outward normal of the slant line from (R, -h) to (0, h).
    let ns = Vec2::new(2.0 * h, r).try_normalize().unwrap_or(Vec2::Y);
    let apex = Vec2::new(0.0, h);
    let sd = ns.dot(q2 - apex);
    let bd = -h - c.y;
    // Inside: below the slant and above the base. Below the slant implies
    // below the apex unless the radius is 0 (then the slant is the axis and
    // every point on it, past the apex too, has `sd = 0`): hence `c.y <= h`.
    // It implies within the radius unless the height is 0 (then slant and
    // base are the one plane, and every point of it has `sd = bd = 0`):
    // hence `rho <= r`.
    if sd <= 0.0 && bd <= 0.0 && c.y <= h && rho <= r {
        if bd >= sd {
            return Proj {
                point: Vec3::new(c.x, -h, c.z),
                normal: Vec3::NEG_Y,
                dist: bd,
                feature: Feature::face(0),
            };
        }
        let m = q2 - ns * sd;
        return Proj {
            point: lift(u, m.x, m.y),
            normal: lift(u, ns.x, ns.y),
            dist: sd,
            feature: Feature::face(1),
        };
    }
    // Outside: the regions of the meridian half-plane, decided in f64.
    let near = cone_nearest(h, r, c);
    Proj {
        point: near.point,
        normal: near.normal,
        dist: near.dist,
        feature: match near.part {
            ConePart::Base => Feature::face(0),
            ConePart::Slant => Feature::face(1),
            ConePart::Rim => Feature::edge(0),
            ConePart::Apex => Feature::vertex(0),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute-force distance from `p` to a triangle by sampling.
    fn brute(t: &Triangle, p: Vec3) -> f32 {
        let [a, b, c] = *t.vertices();
        let n = 300;
        let mut best = f32::MAX;
        for i in 0..=n {
            for j in 0..=(n - i) {
                let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
                best = best.min((a + (b - a) * u + (c - a) * v - p).length());
            }
        }
        best
    }

    #[test]
    fn triangle_projection_matches_sampling() {
        let t = Triangle::new(
            Vec3::new(-0.5, 0.0, 0.0),
            Vec3::new(0.4, -0.3, 0.1),
            Vec3::new(0.0, 0.9, -0.2),
        )
        .unwrap();
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 3.0 - 1.5
        };
        for _ in 0..200 {
            let p = Vec3::new(rnd(), rnd(), rnd());
            let r = triangle(&t, p);
            let b = brute(&t, p);
            assert!(r.dist <= b + 1e-6 && r.dist >= b - 1e-2, "{p:?} {r:?} {b}");
            assert!(((p - r.point).length() - r.dist).abs() < 1e-5);
        }
    }
}
