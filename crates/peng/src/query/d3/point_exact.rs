//! Closest points of a point outside a hull or a cone, decided in f64 from the
//! f32 inputs.
//!
//! Near a vertex, two candidate closest points `δ` apart differ in distance by
//! only `δ²/2d`: a vertex and the point of an edge 2e-4 from it, 0.83 away,
//! differ by 2.6e-8 in distance, below the f32 rounding of their squared
//! distances (6e-8 at 0.68). An f32 comparison can then pick the vertex, whose
//! direction `p − v` is `δ/d` = 2.4e-4 rad outside the vertex's normal cone, so
//! the support plane along it lies short of the distance by that angle times
//! the lever to the farther support point (1.5e-4 over an edge of 0.61). The
//! normal no longer certifies the distance. In f64 the same comparisons
//! separate candidates down to `δ ≈ 1e-8·d`, and the cone's regions are told
//! apart by signs of dot products, which are first-order in `δ`.

use crate::shape::d3::ConvexPolyhedron;
use glam::{DVec2, DVec3, Vec3, Vec4};

/// The feature of a hull holding the point nearest to an outside point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::query::d3) enum HullPart {
    /// The interior of face `face`.
    Face(usize),
    /// Edge `k` of face `face`'s loop (from its vertex `k` to `k + 1`), at
    /// parameter `t` in `[0, 1]`: the loop's vertex `k` at 0, `k + 1` at 1.
    Edge { face: usize, k: usize, t: f64 },
}

/// The point of a hull or a cone nearest to an outside point `p`, the unit
/// normal there (towards `p`), the distance and the feature.
#[derive(Debug, Clone, Copy)]
pub(in crate::query::d3) struct Nearest<P> {
    pub point: Vec3,
    pub normal: Vec3,
    pub dist: f32,
    pub part: P,
}

/// The point of the hull nearest to `p`, outside it, in f64 (`None` when no
/// face plane has `p` strictly beyond it).
///
/// The nearest point lies on a face whose plane has `p` beyond it: `p − q`
/// is a non-negative combination of the normals of the faces holding `q`, so
/// one of them has `n·(p − q) > 0`. On such a face either the projection on
/// the plane is inside the polygon (then the plane supports the hull with `p`
/// beyond it, and that projection is the answer), or the nearest point is on
/// the polygon's boundary.
pub(in crate::query::d3) fn hull_nearest(
    s: &ConvexPolyhedron,
    p: Vec3,
) -> Option<Nearest<HullPart>> {
    let verts = s.vertices();
    let p = p.as_dvec3();
    let mut best: Option<(f64, DVec3, HullPart)> = None;
    for (fi, f) in s.faces().iter().enumerate() {
        let n = f.normal.as_dvec3();
        let height = n.dot(p) - f.offset as f64;
        if height <= 0.0 {
            continue;
        }
        let lp = s.face_loop(fi);
        let corner = |k: usize| verts[lp[k % lp.len()] as usize].as_dvec3();
        let proj = p - n * height;
        let inside = (0..lp.len()).all(|k| {
            let (v0, v1) = (corner(k), corner(k + 1));
            (v1 - v0).cross(proj - v0).dot(n) >= 0.0
        });
        if inside {
            return Some(Nearest {
                point: proj.as_vec3(),
                normal: f.normal,
                dist: height as f32,
                part: HullPart::Face(fi),
            });
        }
        for k in 0..lp.len() {
            let (v0, e) = (corner(k), corner(k + 1) - corner(k));
            let l = e.length_squared();
            let t = if l > 0.0 {
                ((p - v0).dot(e) / l).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = v0 + e * t;
            let d2 = q.distance_squared(p);
            if best.is_none_or(|(b, _, _)| d2 < b) {
                best = Some((d2, q, HullPart::Edge { face: fi, k, t }));
            }
        }
    }
    let (d2, q, part) = best?;
    let face_normal = match part {
        HullPart::Face(f) | HullPart::Edge { face: f, .. } => s.faces()[f].normal,
    };
    Some(Nearest {
        point: q.as_vec3(),
        normal: (p - q).try_normalize().map_or(face_normal, |n| n.as_vec3()),
        dist: d2.sqrt() as f32,
        part,
    })
}

/// Whether the hull's support plane along the unit `n` lies `d` from `p`
/// within rounding: the dual certificate of a closest point at distance `d`
/// with normal `n`. For every unit `n` the gap `n·p − h(n)` is at most the
/// distance of `p` to the hull, and equal to it only at the true normal.
///
/// `h(n)` is the largest `n·v` over the cached vertex blocks, four vertices
/// at a time (the padding repeats vertex 0).
#[inline]
pub(in crate::query::d3) fn hull_attains(s: &ConvexPolyhedron, p: Vec3, n: Vec3, d: f32) -> bool {
    let mut h = Vec4::NEG_INFINITY;
    for [x, y, z] in s.vertex_blocks() {
        h = h.max(*x * n.x + *y * n.y + *z * n.z);
    }
    // The dot products are exact to a few ulps of the larger coordinate.
    let b = s.local_aabb();
    let size = p.abs().max(b.min.abs()).max(b.max.abs()).max_element();
    n.dot(p) - h.max_element() >= d - 1e-6 * size
}

/// The part of a cone holding the point nearest to an outside point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::query::d3) enum ConePart {
    Base,
    Slant,
    Rim,
    Apex,
}

/// The point of the cone (apex `(0, h, 0)`, base disk of radius `r` at
/// `y = −h`) nearest to a point `p` outside it.
///
/// In the meridian half-plane `(ρ, y)` of `p` the cone is the triangle apex
/// `A = (0, h)`, rim `R = (r, −h)`, base centre `(0, −h)`, and its outside
/// splits into the regions of the base (below it, `ρ ≤ r`), the rim, the
/// slant side and the apex, bounded by the lines through `R` and `A`
/// perpendicular to the sides. The region is the sign of `(q − R)·(A − R)`
/// and of `(q − A)·(R − A)`, in f64: each a first-order test, where the f32
/// comparison of squared distances was second-order (see the module comment).
/// On the base and the slant side the normal is the side's own; at the rim
/// and the apex the exact f64 direction to `p`, which then lies in the
/// corner's normal cone.
pub(in crate::query::d3) fn cone_nearest(h: f32, r: f32, p: Vec3) -> Nearest<ConePart> {
    let (h, r) = (h as f64, r as f64);
    let pd = p.as_dvec3();
    let rho = (pd.x * pd.x + pd.z * pd.z).sqrt();
    let u = if rho > 0.0 {
        DVec2::new(pd.x / rho, pd.z / rho)
    } else {
        DVec2::X
    };
    let lift = |v: DVec2| DVec3::new(u.x * v.x, v.y, u.y * v.x);
    let q = DVec2::new(rho, pd.y);
    let (apex, rim) = (DVec2::new(0.0, h), DVec2::new(r, -h));
    let side = apex - rim;
    // Outward unit normal of the slant side.
    let m = DVec2::new(side.y, -side.x)
        .try_normalize()
        .unwrap_or(DVec2::Y);
    let corner = |c: DVec2, fallback: DVec2, part| {
        let w = q - c;
        let len = w.length();
        let n = if len > 0.0 { w / len } else { fallback };
        (part, lift(c), lift(n), len)
    };
    let (part, point, normal, dist) = if (q - apex).dot(rim - apex) <= 0.0 {
        corner(apex, DVec2::Y, ConePart::Apex)
    } else if q.y < -h && rho <= r {
        let point = DVec3::new(pd.x, -h, pd.z);
        (ConePart::Base, point, DVec3::NEG_Y, -h - q.y)
    } else if (q - rim).dot(side) <= 0.0 {
        corner(rim, m, ConePart::Rim)
    } else {
        let dist = m.dot(q - apex);
        (ConePart::Slant, lift(q - m * dist), lift(m), dist)
    };
    Nearest {
        point: point.as_vec3(),
        normal: normal.as_vec3(),
        dist: dist as f32,
        part,
    }
}
