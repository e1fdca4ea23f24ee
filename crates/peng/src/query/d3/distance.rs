//! 3D distance, closest points and overlap.
//!
//! Dispatch: compounds recurse over their parts (minimum signed distance);
//! half-spaces use the support point of the other shape along `-normal`;
//! ball, capsule and segment pairs use the closest points of two segments
//! (Ericson 5.1.9) with the radii added; a ball against any other shape
//! projects its centre on that shape (exact closest-point formulas);
//! meshes take the nearest triangles ([`super::mesh`]); every
//! other convex pair runs GJK and, when overlapping, EPA on the shapes' cores
//! ([`crate::query::gjk`]).

use super::contact::round::off_edge_normal;
use super::long_cuboid::long_cuboid_distance;
use super::point::{closest_points_segments, perpendicular, project_local};
use crate::math::{Pose3, Vec3};
use crate::query::gjk::{self, Cloud, GjkCache, GjkStatus, SignedDistance, SupportMap};
use crate::query::types::Distance3;
use crate::shape::d3::{ConvexPolyhedron, Shape, WarmSupport};
use glam::Vec4;

/// Shapes as GJK support maps: a ball is a point core with its radius, a
/// capsule a segment core with its radius, every other bounded shape its own
/// core with radius 0. Half-spaces and compounds are not convex support maps;
/// they give the origin (callers dispatch them before GJK).
impl SupportMap for Shape {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        match self {
            Shape::Ball(_) => Vec3::ZERO,
            Shape::Capsule(c) => {
                if dir.dot(c.b() - c.a()) > 0.0 {
                    c.b()
                } else {
                    c.a()
                }
            }
            Shape::Polyhedron(p) if p.vertices().len() <= SCAN_MAX => {
                scan_support(p.vertices(), dir)
            }
            other => other.local_support(dir),
        }
    }
    #[inline]
    fn core_radius(&self) -> f32 {
        match self {
            Shape::Ball(b) => b.radius(),
            Shape::Capsule(c) => c.radius(),
            _ => 0.0,
        }
    }
}

/// Hulls with at most this many vertices are scanned (as
/// `ConvexPolyhedron::support_vertex` does) rather than hill-climbed.
const SCAN_MAX: usize = 16;

/// The vertex farthest along `dir` (lowest index on ties, like
/// `ConvexPolyhedron::support_vertex`), by a branch-free scan in four
/// interleaved lanes: GJK calls this twice per iteration, and a scan whose
/// running maximum is one dependency chain with a hard-to-predict branch per
/// vertex was a third of the time of a 16-vertex distance query.
#[inline]
fn scan_support(vs: &[Vec3], dir: Vec3) -> Vec3 {
    let mut best = [f32::NEG_INFINITY; 4];
    let mut idx = [0usize; 4];
    let mut chunks = vs.chunks_exact(4);
    let mut base = 0;
    for c in &mut chunks {
        for l in 0..4 {
            let d = c[l].dot(dir);
            let better = d > best[l];
            best[l] = if better { d } else { best[l] };
            idx[l] = if better { base + l } else { idx[l] };
        }
        base += 4;
    }
    for (l, v) in chunks.remainder().iter().enumerate() {
        let d = v.dot(dir);
        if d > best[l] {
            best[l] = d;
            idx[l] = base + l;
        }
    }
    let mut b = 0;
    for l in 1..4 {
        if best[l] > best[b] || (best[l] == best[b] && idx[l] < idx[b]) {
            b = l;
        }
    }
    vs.get(idx[b]).copied().unwrap_or(Vec3::ZERO)
}

/// Whether the two shapes overlap (touching counts).
pub fn intersects(a: &Shape, pose_a: &Pose3, b: &Shape, pose_b: &Pose3) -> bool {
    debug_assert!(pose_a.is_finite() && pose_b.is_finite(), "non-finite pose");
    let pose_ab = pose_a.inv_mul(pose_b);
    local_intersects(a, b, &pose_ab)
}

pub(crate) fn local_intersects(a: &Shape, b: &Shape, pose_ab: &Pose3) -> bool {
    match (a, b) {
        (Shape::Compound(c), _) => c
            .parts()
            .iter()
            .any(|(p, part)| local_intersects(part, b, &p.inv_mul(pose_ab))),
        (_, Shape::Compound(c)) => c
            .parts()
            .iter()
            .any(|(q, part)| local_intersects(a, part, &pose_ab.mul(q))),
        (Shape::HalfSpace(_), _) | (_, Shape::HalfSpace(_)) => {
            local_distance(a, b, pose_ab).distance <= 0.0
        }
        _ if is_segment_like(a) && is_segment_like(b) => {
            local_distance(a, b, pose_ab).distance <= 0.0
        }
        _ if a.is_mesh() || b.is_mesh() => super::mesh::local_intersects(a, b, pose_ab)
            .unwrap_or_else(|| local_distance(a, b, pose_ab).distance <= 0.0),
        (Shape::Ball(_), _) | (_, Shape::Ball(_)) => local_distance(a, b, pose_ab).distance <= 0.0,
        (Shape::Triangle(_), Shape::Capsule(_) | Shape::Segment(_))
        | (Shape::Capsule(_) | Shape::Segment(_), Shape::Triangle(_))
            if long_triangle_apart(a, b, pose_ab) =>
        {
            false
        }
        _ => match super::long_core::cut_pair(a, b, pose_ab) {
            Some((a, b)) => gjk::intersects(a.as_ref(), b.as_ref(), pose_ab),
            None => gjk::intersects(a, b, pose_ab),
        },
    }
}

/// Whether a triangle and a capsule or segment (either order) are apart by
/// the f64 closed form of [`super::core_triangle`] (a triangle far larger
/// than the core, which GJK's relative tolerance would read as touching).
fn long_triangle_apart(a: &Shape, b: &Shape, pose_ab: &Pose3) -> bool {
    let (t, core, pose) = match (a, b) {
        (Shape::Triangle(t), _) => (t, b, *pose_ab),
        (_, Shape::Triangle(t)) => (t, a, pose_ab.inverse()),
        _ => return false,
    };
    let (p0, p1, r) = segment_core(core);
    let (p0, p1) = (pose.transform_point(p0), pose.transform_point(p1));
    super::core_triangle::core_triangle(t.vertices(), p0, p1, r).is_some_and(|d| d.distance > 0.0)
}

/// Signed distance and closest points (deepest points and the MTD normal when
/// overlapping).
///
/// Two half-spaces whose normals are not opposite always overlap without a
/// finite penetration: the distance is `f32::NEG_INFINITY` then.
pub fn distance(a: &Shape, pose_a: &Pose3, b: &Shape, pose_b: &Pose3) -> Distance3 {
    debug_assert!(pose_a.is_finite() && pose_b.is_finite(), "non-finite pose");
    let pose_ab = pose_a.inv_mul(pose_b);
    to_world(pose_a, &local_distance(a, b, &pose_ab))
}

/// Like [`distance`], but warm-starts GJK from `cache` and stores the final
/// simplex in it (see [`GjkCache`]). Pairs of bounded convex shapes always take
/// the GJK/EPA path here; others (compounds, half-spaces) fall back to
/// [`distance`] and leave the cache untouched.
pub fn distance_cached(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    cache: &mut GjkCache,
) -> Distance3 {
    if a.is_bounded_convex() && b.is_bounded_convex() {
        let pose_ab = pose_a.inv_mul(pose_b);
        to_world(pose_a, &gjk::signed_distance(a, b, &pose_ab, Some(cache)))
    } else {
        distance(a, pose_a, b, pose_b)
    }
}

fn to_world(pose_a: &Pose3, d: &SignedDistance) -> Distance3 {
    Distance3 {
        distance: d.distance,
        point_a: pose_a.transform_point(d.point_a),
        point_b: pose_a.transform_point(d.point_b),
        normal: pose_a.transform_vector(d.normal),
    }
}

/// Shapes without interior: a point "inside" them is on them within rounding.
/// Whether `normal` is the face normal of the triangle `s` (either way): the
/// projection gives exactly that for a point over the face's interior.
fn on_triangle_face(s: &Shape, normal: Vec3) -> bool {
    match s {
        Shape::Triangle(t) => t.normal().is_some_and(|n| normal == n || normal == -n),
        _ => false,
    }
}

fn is_flat(s: &Shape) -> bool {
    matches!(s, Shape::Segment(_) | Shape::Triangle(_))
}

fn is_segment_like(s: &Shape) -> bool {
    matches!(s, Shape::Ball(_) | Shape::Capsule(_) | Shape::Segment(_))
}

/// The core segment and radius of a ball, capsule or segment.
fn segment_core(s: &Shape) -> (Vec3, Vec3, f32) {
    match s {
        Shape::Ball(b) => (Vec3::ZERO, Vec3::ZERO, b.radius()),
        Shape::Capsule(c) => (c.a(), c.b(), c.radius()),
        Shape::Segment(g) => (g.a(), g.b(), 0.0),
        _ => (Vec3::ZERO, Vec3::ZERO, 0.0),
    }
}

/// The result seen from the other shape: swap the points, flip the normal and
/// express it in B's frame (`pose_ab` places B in A's frame).
fn swapped(d: SignedDistance, pose_ab: &Pose3) -> SignedDistance {
    SignedDistance {
        distance: d.distance,
        point_a: pose_ab.transform_point(d.point_b),
        point_b: pose_ab.transform_point(d.point_a),
        normal: -pose_ab.transform_vector(d.normal),
        status: d.status,
    }
}

/// Signed distance of `a` and `b` in A's frame (B placed by `pose_ab`).
pub(super) fn local_distance(a: &Shape, b: &Shape, pose_ab: &Pose3) -> SignedDistance {
    match super::long_core::cut_pair(a, b, pose_ab) {
        Some((a, b)) => pair_distance(&a, &b, pose_ab),
        None => pair_distance(a, b, pose_ab),
    }
}

/// [`local_distance`] once a long core is cut to its near stretch.
fn pair_distance(a: &Shape, b: &Shape, pose_ab: &Pose3) -> SignedDistance {
    match (a, b) {
        (Shape::Compound(c), _) => {
            let part = |i: usize| {
                let (p, part) = &c.parts()[i];
                moved(local_distance(part, b, &p.inv_mul(pose_ab)), p)
            };
            nearest_part(c, &b.aabb(pose_ab), part).unwrap_or_else(|| empty(pose_ab))
        }
        (_, Shape::Compound(c)) => {
            let part = |j: usize| {
                let (q, part) = &c.parts()[j];
                local_distance(a, part, &pose_ab.mul(q))
            };
            let box_a = a.aabb(&pose_ab.inverse());
            nearest_part(c, &box_a, part).unwrap_or_else(|| empty(pose_ab))
        }
        (Shape::HalfSpace(h), Shape::HalfSpace(g)) => {
            let n = h.normal();
            let t = pose_ab.translation;
            let nb = pose_ab.transform_vector(g.normal());
            let on_plane = t - n * n.dot(t);
            if n.dot(nb) <= -1.0 + 1e-6 {
                // Opposite normals: a slab between the planes (or a gap).
                let d = n.dot(t);
                SignedDistance {
                    distance: d,
                    point_a: on_plane,
                    point_b: t,
                    normal: n,
                    status: GjkStatus::Separated,
                }
            } else {
                SignedDistance {
                    distance: f32::NEG_INFINITY,
                    point_a: on_plane,
                    point_b: on_plane,
                    normal: n,
                    status: GjkStatus::Overlapping,
                }
            }
        }
        (Shape::HalfSpace(h), _) => halfspace_distance(h.normal(), b, pose_ab),
        (_, Shape::HalfSpace(h)) => {
            let pose_ba = pose_ab.inverse();
            swapped(halfspace_distance(h.normal(), a, &pose_ba), pose_ab)
        }
        _ if a.is_mesh() || b.is_mesh() => {
            super::mesh::local_distance(a, b, pose_ab).unwrap_or_else(|| empty(pose_ab))
        }
        _ if is_segment_like(a) && is_segment_like(b) => segments_distance(a, b, pose_ab),
        (Shape::Ball(ball), _) => {
            let pose_ba = pose_ab.inverse();
            swapped(
                ball_distance(b, pose_ba.translation, ball.radius()),
                pose_ab,
            )
        }
        (_, Shape::Ball(ball)) => ball_distance(a, pose_ab.translation, ball.radius()),
        (Shape::Polyhedron(pa), Shape::Polyhedron(pb)) => {
            let n = pa.vertices().len().max(pb.vertices().len());
            let start = towards_b(pa, pb, pose_ab);
            if n <= gjk::cloud_max(4) {
                hulls_distance::<4>(pa.vertex_blocks(), pb.vertex_blocks(), pose_ab, start)
            } else if n <= gjk::cloud_max(8) {
                hulls_distance::<8>(pa.vertex_blocks(), pb.vertex_blocks(), pose_ab, start)
            } else {
                large_hulls_distance(pa, pb, pose_ab, start)
            }
        }
        (Shape::Cuboid(c), Shape::Capsule(_) | Shape::Segment(_))
            if is_long(c.half_extents(), b) =>
        {
            let (p0, p1, r) = segment_core(b);
            let (p0, p1) = (pose_ab.transform_point(p0), pose_ab.transform_point(p1));
            core_cuboid(c.half_extents(), p0, p1, r)
                .unwrap_or_else(|| convex_distance(a, b, pose_ab))
        }
        (Shape::Capsule(_) | Shape::Segment(_), Shape::Cuboid(c))
            if is_long(c.half_extents(), a) =>
        {
            let pose_ba = pose_ab.inverse();
            let (p0, p1, r) = segment_core(a);
            let (p0, p1) = (pose_ba.transform_point(p0), pose_ba.transform_point(p1));
            match core_cuboid(c.half_extents(), p0, p1, r) {
                Some(d) => swapped(d, pose_ab),
                None => convex_distance(a, b, pose_ab),
            }
        }
        (
            Shape::Cuboid(c),
            Shape::Cylinder(_) | Shape::Cone(_) | Shape::Polyhedron(_) | Shape::Triangle(_),
        ) => long_cuboid_distance(a, c.half_extents(), b, pose_ab),
        (
            Shape::Cylinder(_) | Shape::Cone(_) | Shape::Polyhedron(_) | Shape::Triangle(_),
            Shape::Cuboid(c),
        ) => swapped(
            long_cuboid_distance(b, c.half_extents(), a, &pose_ab.inverse()),
            pose_ab,
        ),
        (Shape::Triangle(t), Shape::Capsule(_) | Shape::Segment(_)) => {
            let (p0, p1, r) = segment_core(b);
            let (p0, p1) = (pose_ab.transform_point(p0), pose_ab.transform_point(p1));
            super::core_triangle::core_triangle(t.vertices(), p0, p1, r)
                .unwrap_or_else(|| convex_distance(a, b, pose_ab))
        }
        (Shape::Capsule(_) | Shape::Segment(_), Shape::Triangle(t)) => {
            let pose_ba = pose_ab.inverse();
            let (p0, p1, r) = segment_core(a);
            let (p0, p1) = (pose_ba.transform_point(p0), pose_ba.transform_point(p1));
            match super::core_triangle::core_triangle(t.vertices(), p0, p1, r) {
                Some(d) => swapped(d, pose_ab),
                None => convex_distance(a, b, pose_ab),
            }
        }
        (Shape::Cone(k), Shape::Capsule(_) | Shape::Segment(_)) => {
            let (p0, p1, r) = segment_core(b);
            let (p0, p1) = (pose_ab.transform_point(p0), pose_ab.transform_point(p1));
            core_cone(k, p0, p1, r).unwrap_or_else(|| convex_distance(a, b, pose_ab))
        }
        (Shape::Capsule(_) | Shape::Segment(_), Shape::Cone(k)) => {
            let pose_ba = pose_ab.inverse();
            let (p0, p1, r) = segment_core(a);
            let (p0, p1) = (pose_ba.transform_point(p0), pose_ba.transform_point(p1));
            match core_cone(k, p0, p1, r) {
                Some(d) => swapped(d, pose_ab),
                None => convex_distance(a, b, pose_ab),
            }
        }
        _ => convex_distance(a, b, pose_ab),
    }
}

/// Any pair of bounded convex shapes: GJK (and EPA), polished for cylinders
/// and cones, then checked against the dual: a capsule's or a segment's core
/// apart from a cylinder by [`checked_segment_cylinder`], every other pair by
/// [`checked_dual`].
pub(super) fn convex_distance(a: &Shape, b: &Shape, pose_ab: &Pose3) -> SignedDistance {
    if !is_ruled(a) && !is_ruled(b) {
        // Polytope cores (a ball's and a capsule's are a point and a
        // segment) give the same answer from any start: start towards B
        // (see `towards_b`; the frames' origins stand for the centres).
        let mut first = gjk::GjkCache::new();
        first.store([pose_ab.translation]);
        return gjk::signed_distance(a, b, pose_ab, Some(&mut first));
    }
    let d = gjk::signed_distance(a, b, pose_ab, None);
    let (d, gap) = polish_separated(a, b, pose_ab, d);
    if is_segment_cylinder(a, b) {
        checked_segment_cylinder(a, b, pose_ab, d, gap)
    } else {
        checked_dual(a, b, pose_ab, d, gap)
    }
}

/// Whether a cuboid with half extents `h` is long against the capsule or
/// segment `s`: its largest half extent over 256 times the other's size.
/// GJK's tolerances scale with the size of the Minkowski difference, so a
/// gap that is small against the cuboid's length (1e-6 of it) reads as a
/// touch, and EPA then measures a depth on far-away vertices; those pairs
/// take [`core_cuboid`].
#[inline]
fn is_long(h: Vec3, s: &Shape) -> bool {
    let (p0, p1, r) = segment_core(s);
    h.max_element() > 256.0 * ((p1 - p0).length() + r)
}

/// A result in the frame of a part placed by `p` in A's frame, moved to A's.
pub(super) fn moved(d: SignedDistance, p: &Pose3) -> SignedDistance {
    SignedDistance {
        distance: d.distance,
        point_a: p.transform_point(d.point_a),
        point_b: p.transform_point(d.point_b),
        normal: p.transform_vector(d.normal),
        status: d.status,
    }
}

/// A cuboid with half extents `h` (A, its own frame) against a segment core
/// from `p0` to `p1` (A's frame) with radius `r`, in f64; `None` when the
/// core touches or crosses the box (then the caller runs GJK/EPA).
///
/// The squared distance from `p(s) = p0 + s·e` to the box,
/// `f(s) = Σᵢ max(|pᵢ(s)| − hᵢ, 0)²`, is convex and piecewise quadratic
/// with breaks where `pᵢ(s) = ±hᵢ`. On each piece the active axes `i` and
/// their signs `σᵢ` are fixed, so `f(s) = Σ (σᵢ pᵢ(s) − hᵢ)²` has its
/// minimum at `s = −Σ σᵢ eᵢ (σᵢ p0ᵢ − hᵢ) / Σ eᵢ²`, clamped to the piece.
fn core_cuboid(h: Vec3, p0: Vec3, p1: Vec3, r: f32) -> Option<SignedDistance> {
    let (h, p0) = (h.as_dvec3(), p0.as_dvec3());
    let e = p1.as_dvec3() - p0;
    let f = |s: f64| {
        let p = p0 + e * s;
        let q = p.clamp(-h, h);
        ((p - q).length_squared(), p, q)
    };
    let mut cuts = [0.0f64; 8];
    let mut n = 0;
    cuts[n] = 0.0;
    n += 1;
    for i in 0..3 {
        if e[i] != 0.0 {
            for side in [-h[i], h[i]] {
                let s = (side - p0[i]) / e[i];
                if s > 0.0 && s < 1.0 {
                    cuts[n] = s;
                    n += 1;
                }
            }
        }
    }
    cuts[n] = 1.0;
    n += 1;
    let cuts = &mut cuts[..n];
    cuts.sort_unstable_by(f64::total_cmp);
    let mut best = (f64::INFINITY, 0.0);
    for w in cuts.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let pm = p0 + e * (0.5 * (lo + hi));
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..3 {
            if pm[i].abs() > h[i] {
                let sg = pm[i].signum();
                num -= sg * e[i] * (sg * p0[i] - h[i]);
                den += e[i] * e[i];
            }
        }
        let s = if den > 0.0 {
            (num / den).clamp(lo, hi)
        } else {
            lo
        };
        for s in [lo, s, hi] {
            let d2 = f(s).0;
            if d2 < best.0 {
                best = (d2, s);
            }
        }
    }
    let (d2, p, q) = f(best.1);
    // Touching (within rounding of the segment's and the box's small sizes)
    // or crossing: GJK/EPA. The long extent does not enter: the distance is
    // measured across it.
    let scale = e.length() + r as f64 + h.min_element();
    if !(d2 > 0.0 && d2.sqrt() > 1e-6 * scale) {
        return None;
    }
    let d = d2.sqrt();
    let n = ((p - q) / d).as_vec3();
    Some(SignedDistance {
        point_a: q.as_vec3(),
        point_b: (p - (p - q) / d * r as f64).as_vec3(),
        normal: n,
        distance: (d - r as f64) as f32,
        status: GjkStatus::Separated,
    })
}

/// A cone (A, its own frame) against a capsule or segment B whose core runs
/// from `p0` to `p1` (A's frame) with radius `r`, when the core is apart from
/// the cone; `None` when it touches or crosses it (then the caller runs
/// GJK/EPA).
///
/// The distance from the core's point `p0 + t (p1 − p0)` to a convex set is
/// convex in `t`, so its minimum is found by golden-section search (Kiefer
/// 1953) on `[0, 1]`, with the exact point-to-cone distance in f64 at every
/// step. GJK reaches a point inside the cone's side only through ever
/// shorter chords between rim points, and stops with a normal off by up to a
/// few milliradians there; here the normal is that of the closest points in
/// f64 (the exact surface normal on the side and the base).
fn core_cone(k: &crate::shape::d3::Cone, p0: Vec3, p1: Vec3, r: f32) -> Option<SignedDistance> {
    let (h, rad) = (k.half_height() as f64, k.radius() as f64);
    let (p0, p1) = (p0.as_dvec3(), p1.as_dvec3());
    let e = p1 - p0;
    let at = |t: f64| cone_point_f64(h, rad, p0 + e * t);
    // Golden-section search: the bracket shrinks by 0.618 a step; 60 steps
    // take it below 1e-12 of the core's length.
    const INV_PHI: f64 = 0.618_033_988_749_894_8;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - INV_PHI * (hi - lo);
    let mut x2 = lo + INV_PHI * (hi - lo);
    let (mut f1, mut f2) = (at(x1).0, at(x2).0);
    for _ in 0..60 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - INV_PHI * (hi - lo);
            f1 = at(x1).0;
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + INV_PHI * (hi - lo);
            f2 = at(x2).0;
        }
    }
    // The ends too (the minimum may sit at one).
    let t = [0.0, 1.0, 0.5 * (lo + hi)]
        .into_iter()
        .map(|t| (t, at(t).0))
        .fold((0.5, f64::INFINITY), |b, c| if c.1 < b.1 { c } else { b })
        .0;
    let (dist, q, n) = at(t);
    let scale = p0
        .abs()
        .max(p1.abs())
        .max_element()
        .max(h)
        .max(rad)
        .max(1.0);
    // Touching or crossing: the overlap of the cores is EPA's job.
    if dist.is_nan() || dist <= 1e-9 * scale || !dist.is_finite() {
        return None;
    }
    let x = p0 + e * t;
    let normal = n.as_vec3();
    let r64 = r as f64;
    Some(SignedDistance {
        distance: (dist - r64) as f32,
        point_a: q.as_vec3(),
        point_b: (x - n * r64).as_vec3(),
        normal,
        status: GjkStatus::Separated,
    })
    .filter(|d| d.normal.is_finite() && d.distance.is_finite())
}

/// The distance from `p` to the cone of half-height `h` and radius `r` (apex
/// at `+h` on the y axis), its closest point and the unit direction from that
/// point to `p`, in f64; distance 0 for a point inside. In the meridian
/// half-plane `(ρ, y)` the cone is the triangle `(0, h), (r, −h), (0, −h)`;
/// outside it the nearest point lies on the slant side or the base.
fn cone_point_f64(h: f64, r: f64, p: glam::DVec3) -> (f64, glam::DVec3, glam::DVec3) {
    use glam::{DVec2, DVec3};
    let rho = p.x.hypot(p.z);
    let u = if rho > 0.0 {
        DVec3::new(p.x / rho, 0.0, p.z / rho)
    } else {
        DVec3::X
    };
    let lift = |v: DVec2| u * v.x + DVec3::Y * v.y;
    let q2 = DVec2::new(rho, p.y);
    let apex = DVec2::new(0.0, h);
    let rim = DVec2::new(r, -h);
    // Outward unit normal of the slant side.
    let m = DVec2::new(2.0 * h, r).try_normalize().unwrap_or(DVec2::Y);
    if p.y >= -h && m.dot(q2 - apex) <= 0.0 {
        return (0.0, p, lift(m));
    }
    let side = rim - apex;
    let s = ((q2 - apex).dot(side) / side.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
    let on_side = apex + side * s;
    let on_base = DVec2::new(rho.min(r), -h);
    let (best, n2) = if q2.distance_squared(on_side) < q2.distance_squared(on_base) {
        // Inside the side's region the exact side normal; at the apex or the
        // rim the difference.
        let n = if s > 0.0 && s < 1.0 {
            m
        } else {
            (q2 - on_side).normalize_or(m)
        };
        (on_side, n)
    } else if rho < r {
        (on_base, DVec2::NEG_Y)
    } else {
        (on_base, (q2 - on_base).normalize_or(DVec2::NEG_Y))
    };
    (q2.distance(best), lift(best), lift(n2))
}

/// The least signed distance over a compound's parts, `part(i)` giving part
/// `i`'s: branch and bound over the compound's BVH, nearest boxes first,
/// pruning parts whose box is farther from `other_box` (the other shape's box
/// in the compound's frame) than the best distance so far. Unbounded parts
/// are always tried.
fn nearest_part(
    c: &crate::shape::d3::Compound,
    other_box: &crate::bound::Aabb3,
    part: impl Fn(usize) -> SignedDistance,
) -> Option<SignedDistance> {
    let mut best: Option<(usize, SignedDistance)> = None;
    let mut keep = |i: usize, d: SignedDistance| {
        // Ties go to the lower part index, as in a scan in part order.
        if best.is_none_or(|(bi, bd)| {
            d.distance < bd.distance || (d.distance == bd.distance && i < bi)
        }) {
            best = Some((i, d));
        }
        best.map_or(f32::INFINITY, |(_, bd)| bd.distance)
    };
    for &i in c.unbounded_parts() {
        keep(i as usize, part(i as usize));
    }
    c.bvh().nearest_to_box(other_box, |slot| {
        let i = c.part_of(slot);
        keep(i, part(i))
    });
    best.map(|(_, d)| d)
}

/// Cylinders and cones: their support points are rim points and apexes only.
fn is_ruled(s: &Shape) -> bool {
    matches!(s, Shape::Cylinder(_) | Shape::Cone(_))
}

/// Alternating projections (von Neumann; Cheney and Goldstein 1959) from GJK's
/// witnesses of a pair whose cores are separated: `p_b ← proj_B(p_a)`,
/// `p_a ← proj_A(p_b)` never increases `|p_b − p_a|` and converges to the
/// closest pair.
///
/// GJK reaches a point in the middle of a cylinder's or cone's side only
/// through ever shorter chords between rim points, so in f32 its normal stops
/// about 1e-3 rad short (the distance error is quadratic in the angle). The
/// exact closed-form projections of [`project_local`] finish the job: against
/// a side line, one step lands on it. The polished pair replaces GJK's only
/// when it is no farther apart.
///
/// The projections run on the cores (a capsule's segment, a ball's centre),
/// so a capsule whose core is apart from the other shape is polished too,
/// whether or not the capsule itself overlaps it.
///
/// Also returns the [`core_gap`] along the returned normal when it was
/// computed (for [`checked_segment_cylinder`]).
fn polish_separated(
    a: &Shape,
    b: &Shape,
    pose_ab: &Pose3,
    d: SignedDistance,
) -> (SignedDistance, Option<f32>) {
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let core_d = d.distance + ra + rb;
    if core_d.is_nan() || core_d <= 0.0 || d.status == GjkStatus::Overlapping {
        return (d, None);
    }
    let (mut pa, mut pb) = (d.point_a - d.normal * ra, d.point_b + d.normal * rb);
    let mut len = (pb - pa).length();
    for _ in 0..4 {
        let qb = pose_ab.transform_point(project_core(b, pose_ab.inverse_transform_point(pa)));
        let qa = project_core(a, qb);
        let l = (qb - qa).length();
        if l.is_nan() || l > len {
            break;
        }
        let moved = qa.distance(pa) + qb.distance(pb);
        (pa, pb, len) = (qa, qb, l);
        if moved <= 1e-7 * (1.0 + pa.abs().max_element()) {
            break;
        }
    }
    // Slow convergence (two nearly conformal surfaces) can leave a shorter
    // pair whose direction is worse: keep the polished normal only when its
    // support planes are at least as far apart as those of GJK's normal
    // (the gap along a direction bounds the distance from below and attains
    // it at the true normal). The cores' support functions: a radius moves
    // every support plane out by the same amount.
    let gap = |n: Vec3| core_gap(a, b, pose_ab, n);
    // (Gaps are f32 dot products of points of size `scale`: equal within a
    // few ulps of it.)
    let noise = 2e-7 * pa.abs().max(pb.abs()).max_element().max(1.0);
    let polished = ((pb - pa) / len)
        .try_normalize()
        .filter(|_| len > 0.0 && len <= core_d + 1e-6 * (1.0 + len));
    let Some(normal) = polished else {
        return (d, None);
    };
    let (gap_new, gap_old) = (gap(normal), gap(d.normal));
    if gap_new < gap_old - noise {
        return (d, Some(gap_old));
    }
    let d = SignedDistance {
        distance: len - ra - rb,
        point_a: pa + normal * ra,
        point_b: pb - normal * rb,
        normal,
        status: d.status,
    };
    (d, Some(gap_new))
}

/// The gap between the support planes of the cores of `a` and `b` along
/// `n` (A's frame, from A to B): a lower bound on the distance of the cores
/// for every `n`, attaining it at the true normal (the dual of the distance
/// between convex sets).
#[inline]
fn core_gap(a: &Shape, b: &Shape, pose_ab: &Pose3, n: Vec3) -> f32 {
    let sa = SupportMap::support(a, n);
    let sb = pose_ab.transform_point(SupportMap::support(b, pose_ab.inverse_transform_vector(-n)));
    n.dot(sb - sa)
}

#[path = "segment_cylinder.rs"]
mod segment_cylinder;

#[path = "dual_refine.rs"]
mod dual_refine;

/// Whether the pair is a capsule or a segment and a cylinder (either order).
fn is_segment_cylinder(a: &Shape, b: &Shape) -> bool {
    let segment = |s: &Shape| matches!(s, Shape::Capsule(_) | Shape::Segment(_));
    let cylinder = |s: &Shape| matches!(s, Shape::Cylinder(_));
    (cylinder(a) && segment(b)) || (segment(a) && cylinder(b))
}

/// The answer `d` of GJK and [`polish_separated`] for cores apart when its
/// normal passes the dual check (the gap of the support planes along it,
/// `gap` when the polish computed it, is the core distance within `1e-6` of
/// the size), else the pair of [`dual_refine::refine`] (GJK in f64 on exact
/// supports, from `d`'s normal) when its normal has the larger gap.
///
/// GJK reaches a cap's or a base's point near the rim, or the rim itself,
/// through chords between rim points: it can stop with the closest point on
/// a chord `δ` from the true one, the distance off by `δ²/2d` (a few 1e-9,
/// within its tolerance) but the normal by `δ/d` (1e-4 rad), and the gap
/// along that normal short by the error times the lever to the support
/// points (3.5e-4 to 5.7e-4 on the pairs of `ruled_distance_regressions`).
/// GJK's pair is itself a few f32 ulps short of the distance (its support
/// points are rounded), so the polish's exact first step, longer by those
/// ulps, is refused. The check trips on about 0.3% of the pairs
/// of `diff3d` with a cylinder or a cone (1825 queries on seed 700007).
fn checked_dual(
    a: &Shape,
    b: &Shape,
    pose_ab: &Pose3,
    d: SignedDistance,
    gap: Option<f32>,
) -> SignedDistance {
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let core_d = d.distance + ra + rb;
    if core_d.is_nan() || core_d <= 0.0 || d.status == GjkStatus::Overlapping {
        return d;
    }
    let size = d.point_a.abs().max(d.point_b.abs()).max_element() + core_d;
    let gap = gap.unwrap_or_else(|| core_gap(a, b, pose_ab, d.normal));
    if gap >= core_d - 1e-6 * size {
        return d;
    }
    refined_dual(a, b, pose_ab, d, gap)
}

/// The slow path of [`checked_dual`] (out of line: it runs on a few pairs in
/// a thousand): the pair of [`dual_refine::refine`] when its normal has a
/// larger gap than `d`'s, else `d`.
#[cold]
#[inline(never)]
fn refined_dual(
    a: &Shape,
    b: &Shape,
    pose_ab: &Pose3,
    d: SignedDistance,
    gap: f32,
) -> SignedDistance {
    let (ra, rb) = (a.core_radius(), b.core_radius());
    match dual_refine::refine(a, b, pose_ab, &[d.normal]) {
        Some(r) if r.gap > gap as f64 => {
            let n = r.normal.as_vec3();
            SignedDistance {
                distance: (r.len - (ra + rb) as f64) as f32,
                point_a: r.on_a.as_vec3() + n * ra,
                point_b: r.on_b.as_vec3() - n * rb,
                normal: n,
                status: GjkStatus::Separated,
            }
        }
        _ => d,
    }
}

/// A capsule's or a segment's core apart from a cylinder: the answer `d` of
/// GJK and [`polish_separated`] when its normal passes the dual check (the
/// gap of the support planes along it is the core distance within `1e-6` of
/// the size), else the closest points of [`segment_cylinder::segment_cylinder`]
/// in f64. Other pairs, and cores that overlap, keep `d`.
///
/// GJK and the polish can stop with a normal a few 1e-5 to 1e-4 rad off a
/// face normal of the cylinder (the end of the core over a cap, or the core
/// by the side): the distance, quadratic in the error, is right, but the
/// gap along that normal is short by the error times the face's size (by
/// 2.1e-4 at a distance of 0.21), so the normal does not attain the
/// distance and a contact depth measured along it comes out too deep.
fn checked_segment_cylinder(
    a: &Shape,
    b: &Shape,
    pose_ab: &Pose3,
    d: SignedDistance,
    gap: Option<f32>,
) -> SignedDistance {
    let segment = |s: &Shape| matches!(s, Shape::Capsule(_) | Shape::Segment(_));
    let (cyl, seg, cyl_is_a) = match (a, b) {
        (Shape::Cylinder(c), s) if segment(s) => (c, s, true),
        (s, Shape::Cylinder(c)) if segment(s) => (c, s, false),
        _ => return d,
    };
    let (p0, p1, r) = segment_core(seg);
    let core_d = d.distance + r;
    if core_d.is_nan() || core_d <= 0.0 || d.status == GjkStatus::Overlapping {
        return d;
    }
    let size =
        d.point_a.abs().max(d.point_b.abs()).max_element() + cyl.half_height().max(cyl.radius());
    let gap = gap.unwrap_or_else(|| core_gap(a, b, pose_ab, d.normal));
    if gap >= core_d - 1e-6 * size {
        return d;
    }
    // In f64, in the cylinder's frame: x_A = R x_B + t.
    let q = pose_ab.rotation.as_dquat().normalize();
    let t = pose_ab.translation.as_dvec3();
    let to_cyl = |p: Vec3| {
        let p = p.as_dvec3();
        if cyl_is_a {
            q * p + t
        } else {
            q.inverse() * (p - t)
        }
    };
    let (h, rad) = (cyl.half_height() as f64, cyl.radius() as f64);
    let Some((len, on_cyl, on_core, n)) =
        segment_cylinder::segment_cylinder(h, rad, to_cyl(p0), to_cyl(p1))
    else {
        return d;
    };
    let on_seg = on_core - n * r as f64;
    let (point_a, point_b, normal) = if cyl_is_a {
        (on_cyl, on_seg, n)
    } else {
        (q * on_seg + t, q * on_cyl + t, -(q * n))
    };
    SignedDistance {
        distance: (len - r as f64) as f32,
        point_a: point_a.as_vec3(),
        point_b: point_b.as_vec3(),
        normal: normal.as_vec3(),
        status: GjkStatus::Separated,
    }
}

/// The point of a shape's core (see [`SupportMap`]) closest to `p`, local
/// frame: a capsule's segment, a ball's centre, else the shape itself.
fn project_core(s: &Shape, p: Vec3) -> Vec3 {
    match s {
        Shape::Ball(_) => Vec3::ZERO,
        Shape::Capsule(c) => super::point::closest_point_on_segment(c.a(), c.b(), p),
        _ => project_local(s, p).point,
    }
}

/// The first search direction of GJK for two hulls: from A's vertex mean
/// to B's. `A − B` lies around minus this, and its point nearest the origin
/// is on the side facing it, where the support along this direction lands
/// (from the far side, as GJK's default start between the frames' origins
/// can land, it took a step more: 17 % more instructions for a robot arm's
/// link hulls). Polytopes converge to the same answer from any start.
fn towards_b(a: &ConvexPolyhedron, b: &ConvexPolyhedron, pose_ab: &Pose3) -> Vec3 {
    pose_ab.transform_point(b.vertex_mean()) - a.vertex_mean()
}

/// Two small hulls: their vertices in SIMD lanes (the hulls cache them so,
/// see `ConvexPolyhedron::vertex_blocks`), B's mapped into A's frame once
/// (see [`Cloud`]), then GJK (and EPA) on the clouds, starting along
/// `start` (see [`towards_b`]).
fn hulls_distance<const C: usize>(
    a: &[[Vec4; 3]],
    b: &[[Vec4; 3]],
    pose_ab: &Pose3,
    start: Vec3,
) -> SignedDistance {
    match (
        Cloud::<C>::from_blocks(a, None),
        Cloud::<C>::from_blocks(b, Some(pose_ab)),
    ) {
        // GJK starts along minus the centre it is given.
        (Some(ca), Some(cb)) => gjk::signed_distance_local(&ca, &cb, -start, None),
        // Unreachable for hulls (never empty); the plain query otherwise.
        _ => empty(pose_ab),
    }
}

/// Two hulls too large for [`hulls_distance`]: GJK (and EPA) with each
/// support query climbing from the last one's answer (see [`WarmSupport`]),
/// starting along `start` (see [`towards_b`]). Kept out of line so that the
/// small hulls' path compiles as before.
#[inline(never)]
fn large_hulls_distance(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    pose_ab: &Pose3,
    start: Vec3,
) -> SignedDistance {
    let (wa, wb) = (WarmSupport::new(a), WarmSupport::new(b));
    let mut first = gjk::GjkCache::new();
    first.store([start]);
    gjk::signed_distance(&wa, &wb, pose_ab, Some(&mut first))
}

fn empty(pose_ab: &Pose3) -> SignedDistance {
    SignedDistance {
        distance: f32::INFINITY,
        point_a: Vec3::ZERO,
        point_b: pose_ab.translation,
        normal: Vec3::X,
        status: GjkStatus::Indeterminate,
    }
}

/// Half-space `{n·x <= 0}` (A) against any bounded shape B: B's deepest point is
/// its support point along `-n`, and the signed distance is its height `n·p`
/// (exact: the MTD of a half-space is always along its normal).
fn halfspace_distance(n: Vec3, b: &Shape, pose_ab: &Pose3) -> SignedDistance {
    let dir_b = pose_ab.inverse_transform_vector(-n);
    let p = pose_ab.transform_point(b.local_support(dir_b));
    let d = n.dot(p);
    SignedDistance {
        distance: d,
        point_a: p - n * d,
        point_b: p,
        normal: n,
        status: if d > 0.0 {
            GjkStatus::Separated
        } else {
            GjkStatus::Overlapping
        },
    }
}

/// Two shapes whose cores are segments (balls, capsules, segments): closest
/// points of the core segments (Ericson 5.1.9), then the radii.
fn segments_distance(a: &Shape, b: &Shape, pose_ab: &Pose3) -> SignedDistance {
    let (a0, a1, ra) = segment_core(a);
    let (b0, b1, rb) = segment_core(b);
    let (b0, b1) = (pose_ab.transform_point(b0), pose_ab.transform_point(b1));
    let (s, t, ca, cb) = closest_points_segments(a0, a1, b0, b1);
    let v = cb - ca;
    let d = v.length();
    let scale = a0
        .abs()
        .max(a1.abs())
        .max(b0.abs())
        .max(b1.abs())
        .max_element()
        .max(1.0);
    let (da, db) = (a1 - a0, b1 - b0);
    let cross = da.cross(db);
    let skew = cross.length_squared() > 1e-6 * da.length_squared() * db.length_squared();
    let towards = (b0 + b1 - a0 - a1) * 0.5;
    let (normal, core) = if skew && s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0 {
        // Closest points inside both segments: the gap is along d_a × d_b, and
        // the distance between the two lines along it is exact and stable,
        // however small (the direction of cb - ca is not, at tiny gaps).
        // When the lines cross, A − B's core is flat (a parallelogram through
        // the origin) and the depth is exactly r_a + r_b along that normal;
        // oriented from A's centre towards B's for determinism.
        let n = cross.normalize();
        let gap = n.dot(b0 - a0);
        let n = if gap < 0.0 || (gap == 0.0 && n.dot(towards) < 0.0) {
            -n
        } else {
            n
        };
        (n, gap.abs())
    } else if d > 1e-6 * scale {
        // A gap much shorter than the cores loses its component along a core
        // holding a closest point (rounding noise there tilts the normal
        // towards the core's far end), as in the contact path.
        let (la2, lb2) = (da.length_squared(), db.length_squared());
        let n = off_edge_normal(v.into(), d, (da.into(), la2, s), (db.into(), lb2, t));
        (n.into(), d)
    } else {
        // Touching at an end, or parallel and overlapping: any direction
        // perpendicular to the cores is an MTD; pick one deterministically.
        let n = match cross.try_normalize() {
            Some(n) => n,
            None if da.length_squared() >= db.length_squared() => perpendicular(da),
            None => perpendicular(db),
        };
        let n = if n.dot(towards) < 0.0 { -n } else { n };
        (n, v.dot(n))
    };
    SignedDistance {
        distance: core - ra - rb,
        point_a: ca + normal * ra,
        point_b: cb - normal * rb,
        normal,
        status: if core > 0.0 {
            GjkStatus::Separated
        } else {
            GjkStatus::Overlapping
        },
    }
}

/// Shape A against a ball of radius `r` centred at `c` (A's frame): project the
/// centre on A (exact closest-point formulas per shape).
fn ball_distance(a: &Shape, c: Vec3, r: f32) -> SignedDistance {
    let lp = project_local(a, c);
    let v = c - lp.point;
    let len = v.length();
    // The projection's own normal is exact where it is a face normal; the
    // difference `c − point` has an f32 direction error of about
    // 1e-7·|c| / len, large for a centre near the surface.
    let (core, normal) = if len > 0.0 {
        if lp.inside && on_triangle_face(a, lp.normal) {
            // A centre within rounding of a triangle's face is on one side
            // of it: the exact face normal says which, and the shorter way
            // out is through that side (the f32 `v` of such a length is
            // noise, 1e-2 rad off at 1e-5).
            (len, lp.normal)
        } else if lp.inside {
            let n = if is_flat(a) { -v / len } else { lp.normal };
            (-len, n)
        } else {
            (len, lp.normal)
        }
    } else {
        (0.0, lp.normal)
    };
    SignedDistance {
        distance: core - r,
        point_a: lp.point,
        point_b: c - normal * r,
        normal,
        status: if core > 0.0 {
            GjkStatus::Separated
        } else {
            GjkStatus::Overlapping
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d3::{Cone, Cylinder};

    #[test]
    fn cached_distance_matches_and_warm_starts() {
        let a: Shape = Cylinder::new(1.0, 0.5).unwrap().into();
        let b: Shape = Cone::new(0.8, 0.6).unwrap().into();
        let pa = Pose3::from_axis_angle(Vec3::new(0.1, 0.2, 0.3), Vec3::new(0.2, 0.1, -0.4));
        let mut cache = GjkCache::new();
        for i in 0..20 {
            let pb = Pose3::from_axis_angle(
                Vec3::new(1.6 + 0.01 * i as f32, 0.4, -0.2),
                Vec3::new(0.3, 0.02 * i as f32, 0.1),
            );
            let plain = distance(&a, &pa, &b, &pb);
            let cold_iters = {
                let mut fresh = GjkCache::new();
                distance_cached(&a, &pa, &b, &pb, &mut fresh);
                fresh.last_iterations
            };
            let warm = distance_cached(&a, &pa, &b, &pb, &mut cache);
            assert!(
                (plain.distance - warm.distance).abs() < 1e-5,
                "{plain:?} {warm:?}"
            );
            assert!((plain.normal - warm.normal).length() < 2e-3);
            if i > 0 {
                assert!(cache.last_iterations <= cold_iters, "step {i}");
            }
        }
    }
}
