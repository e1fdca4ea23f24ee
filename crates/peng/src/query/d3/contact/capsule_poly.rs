//! A capsule (or segment) against a polyhedral shape.
//!
//! The core segment is tested against the polytope with the separating-axis
//! test. When the core penetrates, the SAT axis is the exact MTD of the core and
//! the capsule's depth is the core's plus the radius. When the core is apart,
//! the SAT separation only bounds the distance from below, so the exact closest
//! points are computed (segment ends projected on the polytope, and the segment
//! against every polytope edge: the closest pair of a segment and a disjoint
//! convex polytope is always among those). A face axis that realises that
//! distance means the core lies over the face: it is clipped against the face
//! (two points when parallel); otherwise one point.

use super::core_poly_f64::closest_core_polytope;
use super::polytopes::AnyPoly;
use super::project::project;
use super::round::{core_feature, Core};
use crate::math::{Pose3, Vec3};
use crate::query::sat::closest::segment_segment;
use crate::query::sat::polytope::Polytope;
use crate::query::sat::{manifold_from_axis, sat, SatAxis};
use crate::query::types::{ContactId, ContactPoint3, Feature, Manifold3};
use crate::shape::d3::Shape;

/// Pushes the core's manifold out by the radius: points on A move out along
/// the normal and depths grow by `r`; points deeper than `-prediction` stay.
pub(super) fn inflate_a(m: &Manifold3, r: f32, prediction: f32) -> Option<Manifold3> {
    let mut out = Manifold3::new(m.normal);
    for p in m.points() {
        let depth = p.depth + r;
        if depth >= -prediction {
            out.push(ContactPoint3 {
                point_a: p.point_a + m.normal * r,
                depth,
                ..*p
            });
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Capsule core `core` (A's frame) against polytope shape `b` placed by
/// `b_in_a`.
///
/// Solved in B's frame, where the polytope's faces and edges keep the
/// precision of its own coordinates: in A's frame a cuboid 1.7 wide placed
/// 5e7 from A's origin had its edges rounded to zero length (f32 spacing 4
/// there), so the separating edge axis was never tested and a core 3.5e7
/// away passed as touching.
pub(super) fn capsule_polytope(
    core: &Core,
    b: &Shape,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let local = Core {
        a: b_in_a.inverse_transform_point(core.a),
        b: b_in_a.inverse_transform_point(core.b),
        r: core.r,
    };
    let m = capsule_polytope_in(&local, b, prediction)?;
    Some(super::to_world(&m, b_in_a))
}

/// [`capsule_polytope`] in B's frame (the core given in it).
fn capsule_polytope_in(core: &Core, b: &Shape, prediction: f32) -> Option<Manifold3> {
    let frame = &Pose3::IDENTITY;
    let pb = AnyPoly::of(b)?;
    let pa = AnyPoly::Seg(super::polytopes::SegPoly::new(core.a, core.b));
    let reach = prediction + core.r;
    let r = sat(&pa, &pb, frame, reach)?;
    if r.separation > reach || r.separation.is_nan() {
        return None;
    }
    if r.separation <= 0.0 && !apart_in_flat_plane(core, b, &pb) {
        let m = manifold_from_axis(&pa, &pb, frame, &r, reach);
        return inflate_a(&m, core.r, prediction);
    }
    // Exact closest points of the core and the polytope (B's frame), with the
    // normal (out of B) taken from the feature where possible: exact even
    // when the gap is tiny.
    let (a_b, b_b) = (core.a, core.b);
    let mut best_d = f32::INFINITY;
    let mut best = (Vec3::ZERO, Vec3::ZERO, Feature::NONE, Feature::NONE);
    let mut best_n = Vec3::X;
    for (end, fa) in [(a_b, Feature::vertex(0)), (b_b, Feature::vertex(1))] {
        if let Some(p) = project(b, end) {
            if p.dist < best_d {
                best_d = p.dist;
                best = (end, p.point, fa, p.feature);
                best_n = p.normal;
            }
        }
    }
    let dc = b_b - a_b;
    for e in 0..pb.edge_count() {
        let (p, q) = pb.edge(e);
        let (s, t) = segment_segment(a_b, b_b, p, q);
        let xa = a_b + dc * s;
        let xb = p + (q - p) * t;
        let gap = xa - xb;
        let d = gap.length();
        if d < best_d {
            best_d = d;
            best = (xa, xb, core_feature(false, s), Feature::edge(e));
            let cross = dc.cross(q - p);
            best_n = if s > 0.0
                && s < 1.0
                && t > 0.0
                && t < 1.0
                && cross.length_squared() > 1e-12 * dc.length_squared() * (q - p).length_squared()
            {
                let n = cross.normalize();
                if n.dot(gap) < 0.0 {
                    -n
                } else {
                    n
                }
            } else {
                gap.normalize_or(Vec3::X)
            };
        }
    }
    if best_d - core.r > prediction || !best_d.is_finite() {
        return None;
    }
    if !certified(&pb, a_b, b_b, best_n, best_d) {
        if let Some(c) = closest_core_polytope(&pb, a_b, b_b) {
            best_d = c.dist;
            best = (
                c.on_segment,
                c.on_polytope,
                c.segment_feature,
                c.polytope_feature,
            );
            best_n = c.normal;
        }
    }
    let tol = 1e-5 * pb.scale().max(pa.scale()).max(1e-6);
    // From the core (A) to B: against B's outward normal.
    let mut n = -best_n;
    if let SatAxis::Edges(_, e) = r.axis {
        // The SAT separation is the exact gap of the two shapes' supports along
        // its axis (a cross product, exact even for tiny gaps) and never exceeds
        // the distance. When it equals the distance and the closest points of
        // the core and that edge lie inside both, they are the closest pair and
        // the axis the normal. Needed where the pair found above is an end of
        // the core tied within rounding with a point just inside it: the gap
        // from the end is tilted along the core, the far end of a long core
        // then reaches farther along it and the depth is not attained (seen:
        // 5.5e-3 rad off).
        let (p, q) = pb.edge(e);
        let (s, t) = segment_segment(a_b, b_b, p, q);
        let (xa, xb) = (a_b + dc * s, p + (q - p) * t);
        let d = (xa - xb).length();
        if r.separation >= best_d - tol
            && s > 0.0
            && s < 1.0
            && t > 0.0
            && t < 1.0
            && d <= best_d + tol
        {
            best = (xa, xb, Feature::edge(0), Feature::edge(e));
            best_d = d;
            n = r.normal;
        }
    }
    let (xa, xb, fa, fb) = best;
    let exact = ContactPoint3 {
        point_a: xa + n * core.r,
        point_b: xb,
        depth: core.r - best_d,
        id: ContactId::new(fa, fb),
    };
    if matches!(r.axis, SatAxis::FaceB(_)) && (best_d - r.separation).abs() <= tol {
        // The face realises the distance: clip the core against it (two
        // points when parallel). Should clipping miss the closest pair (it
        // sits on the face's border, where the normal turns), the exact pair
        // alone is the manifold.
        let m = manifold_from_axis(&pa, &pb, frame, &r, reach);
        if let Some(m) = inflate_a(&m, core.r, prediction) {
            if m.depth() >= exact.depth - tol {
                return Some(m);
            }
        }
    }
    let mut m = Manifold3::new(n);
    m.push(exact);
    Some(m)
}

/// Whether the normal `n` (out of polytope `pb`, towards the core `a`–`b`,
/// all in B's frame) certifies the distance `d`: the gap between the two
/// supports along `n` is a lower bound on the distance for any unit `n`, and
/// equals it only along the true normal; a normal tilted by `θ` loses about
/// `θ` times the length of the features it sees. Allowed: the f32 rounding
/// of the dot products (a few ulps of the coordinates), well below the
/// tolerances of the answers.
fn certified(pb: &AnyPoly, a: Vec3, b: Vec3, n: Vec3, d: f32) -> bool {
    let gap = n.dot(a).min(n.dot(b)) - n.dot(pb.support(n));
    let size = a.abs().max(b.abs()).max_element() + pb.scale();
    gap >= d - 2e-6 * size
}

/// Whether the core (in `b`'s frame) is separated from a flat `b` (a triangle, or a cuboid
/// with a zero half extent) by an axis in `b`'s plane. The SAT above tests
/// the face normals and the core's direction crossed with the edges; for a
/// core lying in the plane those crossings are all the plane's normal, so a
/// core beside the flat shape in its plane would pass as touching (seen: a
/// capsule 6.8 from a rectangle of zero thickness in its plane). In the plane
/// the pair is two convex polygons, whose separating axes are the edge
/// normals of both: the triangle's in-plane edge normals (a flat box's are
/// its face normals, tested already) and the core's own in-plane normal.
fn apart_in_flat_plane(core: &Core, b: &Shape, pb: &AnyPoly) -> bool {
    let (n, tri) = match b {
        Shape::Triangle(t) => match t.normal() {
            Some(n) => (n, Some(*t.vertices())),
            None => return false,
        },
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            match (0..3).find(|&i| h[i] == 0.0) {
                Some(i) => (Vec3::AXES[i], None),
                None => return false,
            }
        }
        _ => return false,
    };
    let (a_b, b_b) = (core.a, core.b);
    let separates = |e: Vec3| {
        // Scaled to unit size first: the cross product of an edge 1e-36
        // long underflows to zero (a needle triangle's short edge, whose
        // in-plane normal is the axis that separates a point beyond its tip).
        let e = e / e.abs().max_element();
        let Some(u) = n.cross(e).try_normalize() else {
            return false;
        };
        let (c0, c1) = (u.dot(a_b), u.dot(b_b));
        let (lo_b, hi_b) = (u.dot(pb.support(-u)), u.dot(pb.support(u)));
        c0.min(c1) - hi_b > 0.0 || lo_b - c0.max(c1) > 0.0
    };
    separates(b_b - a_b) || tri.is_some_and(|v| (0..3).any(|k| separates(v[(k + 1) % 3] - v[k])))
}
