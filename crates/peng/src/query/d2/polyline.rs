//! Pair queries with a polyline on one side.
//!
//! A polyline is a set of segments sharing vertices, kept in a BVH
//! ([`Polyline`]). Against a convex shape:
//!
//! - **Contacts**: the segments whose boxes meet the shape's box (grown by the
//!   prediction distance) run the ordinary segment-versus-shape contact of
//!   the convex dispatcher. Contacts at an interior vertex whose normal the
//!   polyline does not have there are corrected (see *Internal vertices*
//!   below). The per-segment manifolds are then merged into one manifold per
//!   cluster of (nearly) equal normals, at most two points each
//!   ([`merge`]).
//! - **Overlap**: any candidate segment overlapping the shape.
//! - **Distance**: the minimum over the segments of the segment-versus-shape
//!   signed distance, by branch and bound over the BVH (segments nearest the
//!   shape's box first; those whose box is farther than the best so far are
//!   skipped). Negative when the shape crosses a segment: minus the deepest
//!   penetration through one segment.
//!
//! Polyline against polyline: overlap, distance (minimum over segment pairs,
//! negative when two segments cross) and contacts (per segment pair, merged
//! the same way, no internal-vertex correction: both sides are curves and a
//! pair of crossing curves has no single direction to check against).
//!
//! # Feature ids
//! On the polyline's side a contact on the inside of segment `i` is
//! `Feature::edge(i)`; one at a vertex is `Feature::vertex(v)` with `v` the
//! polyline's vertex index, so both segments at a shared vertex name it alike
//! and the id stays while the same vertex touches (14 bits: indices wrap past
//! 16383). The other shape's feature is its own, as in every 2D pair.
//!
//! # Internal vertices ("ghost collisions")
//! A box sliding along a straight chain of segments touches, near a shared
//! vertex, the end of the segment it is leaving. Tested alone, that segment
//! may find that the box separates fastest *sideways* (over the segment's end):
//! a normal the chain as a whole does not have there. The box snags on a
//! vertex that does not exist (Catto, "Ghost Collisions", box2d.org, 2020;
//! Bullet's `btAdjustInternalEdgeContacts` and parry's internal-edge flags do
//! the same for triangle meshes, as does `query::d3`'s mesh module).
//!
//! The normal cone of a vertex `v` of the curve is the set of directions `n`
//! with `n · r <= 0` for every direction `r` from `v` along a segment at `v`
//! (the directions from which `v` is the closest point of the curve). The
//! segment's own query already respects its own direction, so a contact
//! normal `n` at an end `v` of segment `i` is rejected when `n · r > 0` for
//! the direction `r = (w - v)/|w - v|` towards the far end `w` of any *other*
//! segment at `v`. At a straight joint this leaves only the two face normals;
//! at a convex corner the wedge between the face normals; at a concave one
//! only the face normals. The face normal of the segment itself (either side)
//! and contacts inside a segment are always kept.
//!
//! A rejected segment's manifold is replaced by its face contact: the shape's
//! incident feature clipped to the segment's slab, depths along the face
//! normal on the side of the shape's centre; points beyond the segment's ends
//! are dropped (the shape does not lie over this segment there). The
//! correction never turns an overlap into no contact: when no penetrating
//! contact is left but a rejected manifold was penetrating, the rejected
//! manifolds stand.
//!
//! Choices: **open ends** (a vertex used by one segment only) constrain
//! nothing: the end is a real corner, and a shape beyond it gets the rounded
//! corner normal. **Sides**: polylines are two-sided curves with no inside;
//! a shape is pushed out to the side its contact normal points to, so a shape
//! sunk through a segment is pushed on through it. Adjacency is by vertex
//! index: segments that merely share a position are not joined, but a
//! zero-length segment (a repeated vertex) joins the segments at its two
//! ends, so it does not cut the chain; its own contacts are judged by that
//! joined vertex's cone.

use super::pair::face_manifold;
use super::poly::{Poly, PolyBuf};
use super::{contact_convex, distance_convex, intersects_convex};
use crate::bound::Aabb2;
use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::{Pose2, Vec2};
use crate::mesh::Polyline;
use crate::query::cluster::cluster_by_normal;
use crate::query::types::{ContactId, ContactPoint2, Distance2, Feature, Manifold2};
use crate::shape::d2::{Segment, Shape};

/// How far (as a sine) a normal may point along a segment direction and still
/// count as inside a vertex's normal cone: rounding of the pair normals only.
const CONE_TOL: f32 = 1e-5;

/// A contact point within this fraction of a segment's length from an end is
/// at that end's vertex.
const END_EPS: f32 = 1e-4;

/// Points of merged manifolds closer than this times the polyline's size are
/// one point (a few f32 roundings of the same place reported by two segments;
/// wider would swallow a box corner just past a vertex).
const MERGE_REL: f32 = 1e-6;

/// Options of the contact queries that involve polylines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContactOptions {
    /// Correct contacts at a polyline's interior vertices whose normal points
    /// along a neighbouring segment ("ghost collisions", see the module
    /// documentation of `query::d2::polyline`). On by default.
    pub fix_internal_vertices: bool,
}

impl Default for ContactOptions {
    fn default() -> Self {
        ContactOptions {
            fix_internal_vertices: true,
        }
    }
}

/// Where on a segment a point lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Strictly between the ends.
    Inside,
    /// At end 0 or 1.
    End(usize),
}

/// The segment parameter of `p` on `c` (0 at `c[0]`, 1 at `c[1]`), `None` for
/// a zero-length segment.
#[inline]
fn param(c: &[Vec2; 2], p: Vec2) -> Option<f32> {
    let e = c[1] - c[0];
    let l2 = e.length_squared();
    (l2 > ZERO_LENGTH_SQ).then(|| (p - c[0]).dot(e) / l2)
}

fn place(c: &[Vec2; 2], p: Vec2) -> Place {
    match param(c, p) {
        Some(t) if t <= END_EPS => Place::End(0),
        Some(t) if t >= 1.0 - END_EPS => Place::End(1),
        Some(_) => Place::Inside,
        None => Place::End(0),
    }
}

/// The unit normal of a segment, `None` for a zero-length one.
#[inline]
fn segment_normal(c: &[Vec2; 2]) -> Option<Vec2> {
    let e = c[1] - c[0];
    (e.length_squared() > ZERO_LENGTH_SQ).then(|| e.perp().normalize())
}

/// Whether normal `n` (from the polyline towards the other shape) lies in
/// the polyline's normal cone at place `f` of segment `i` (corners `c`).
/// A zero-length segment is a vertex: both its ends' cones apply.
fn admits(pl: &Polyline, i: u32, c: &[Vec2; 2], f: Place, n: Vec2) -> bool {
    let ends = pl.segments()[i as usize];
    let Some(nf) = segment_normal(c) else {
        return vertex_admits(pl, i, &ends, c[0], n);
    };
    if n.perp_dot(nf).abs() <= CONE_TOL {
        return true;
    }
    match f {
        Place::Inside => true,
        Place::End(k) => vertex_admits(pl, i, &ends[k..=k], c[k], n),
    }
}

/// Most vertices joined by zero-length segments walked from one vertex.
const MAX_JOINED: usize = 16;

/// Whether `n` lies in the normal cone at the vertices `start` (all at
/// position `pv`) seen from segment `from`: `n · r <= 0` for the direction `r`
/// of every other segment there. A zero-length segment leaves no direction
/// but joins its other end's segments to the vertex (a repeated vertex in a
/// chain does not cut it).
fn vertex_admits(pl: &Polyline, from: u32, start: &[u32], pv: Vec2, n: Vec2) -> bool {
    let mut at: Vec<u32> = start.to_vec();
    let mut k = 0;
    while k < at.len() && k < MAX_JOINED {
        let u = at[k];
        k += 1;
        for &j in pl.segments_at_vertex(u) {
            if j == from {
                continue;
            }
            let s = pl.segments()[j as usize];
            let w = if s[0] == u { s[1] } else { s[0] };
            match (pl.vertices()[w as usize] - pv).try_normalize() {
                Some(r) if n.dot(r) > CONE_TOL => return false,
                Some(_) => {}
                None => {
                    if !at.contains(&w) {
                        at.push(w);
                    }
                }
            }
        }
    }
    true
}

/// Whether every point of segment `i`'s manifold lies where the polyline's
/// normal cone holds the manifold's normal.
fn is_valid(pl: &Polyline, i: u32, c: &[Vec2; 2], m: &Manifold2) -> bool {
    m.points()
        .iter()
        .all(|p| admits(pl, i, c, place(c, p.point_a), m.normal))
}

/// The polyline-wide feature of a segment-local feature `f` of segment `i`
/// (a segment core's vertices are its ends 0 and 1; its edges 0 and 1 are
/// its two sides).
fn polyline_feature(pl: &Polyline, i: u32, f: Feature) -> Feature {
    if f.0 >> 14 == crate::query::types::FeatureKind::Vertex as u16 {
        let k = (f.0 & 1) as usize;
        Feature::vertex(pl.segments()[i as usize][k] as usize)
    } else {
        Feature::edge(i as usize)
    }
}

/// Replaces A's feature in each id of segment `i`'s manifold by the
/// polyline-wide one (B's feature is kept).
fn relabel_a(pl: &Polyline, i: u32, m: &Manifold2) -> Manifold2 {
    let mut m = *m;
    for p in m.points_mut() {
        let fa = polyline_feature(pl, i, Feature((p.id.0 >> 16) as u16));
        p.id = ContactId::new(fa, Feature(p.id.0 as u16));
    }
    m
}

/// The segment as a shape (`None` cannot happen: polyline vertices are finite).
#[inline]
fn segment_shape(c: &[Vec2; 2]) -> Option<Shape> {
    Segment::new(c[0], c[1]).ok().map(Shape::Segment)
}

/// The face contact of segment `c` with the convex `shape` placed by `b_in_a`
/// (see the module documentation); `hint` picks the side when the shape's
/// centre is on the segment's line.
fn segment_face(
    c: &[Vec2; 2],
    shape: &Shape,
    b_in_a: &Pose2,
    hint: Vec2,
    prediction: f32,
) -> Option<Manifold2> {
    let seg = segment_shape(c)?;
    let (mut buf_a, mut buf_b) = (PolyBuf::new(), PolyBuf::new());
    let pa = Poly::from_shape(&seg, &mut buf_a)?;
    if pa.count() < 2 {
        return None;
    }
    let pb = Poly::from_shape_placed(shape, b_in_a, &mut buf_b)?;
    // Face 0 of a segment core is `c[0] → c[1]`, face 1 the other side.
    let n0 = pa.normals()[0];
    let h = n0.dot(b_in_a.translation - c[0]);
    let face = if h > 0.0 || (h == 0.0 && hint.dot(n0) >= 0.0) {
        0
    } else {
        1
    };
    let lm = face_manifold(&pa, face, &pb, prediction)?;
    let mut m = Manifold2::new(lm.normal);
    for p in &lm.points[..lm.len] {
        let over = param(c, p.pa).is_some_and(|t| (-END_EPS..=1.0 + END_EPS).contains(&t));
        if over {
            m.push(ContactPoint2 {
                point_a: p.pa,
                point_b: p.pb,
                depth: p.depth,
                id: p.id,
            });
        }
    }
    (!m.is_empty()).then_some(m)
}

/// The per-segment manifolds of `pl` (A, at the identity) against the convex
/// `shape` placed by `b_in_a`, in the polyline's frame, with polyline-wide
/// ids on A's side, appended to `parts`. With `fix`, contacts outside the
/// polyline's normal cone at their vertex are replaced by face contacts.
fn segment_manifolds(
    pl: &Polyline,
    shape: &Shape,
    b_in_a: &Pose2,
    prediction: f32,
    fix: bool,
    parts: &mut Vec<Manifold2>,
) {
    let bbox = shape.aabb(b_in_a).loosened(prediction.max(0.0));
    let mut rejected = Vec::new();
    pl.for_each_segment_in_aabb(&bbox, |i, c| {
        let Some(seg) = segment_shape(c) else {
            return;
        };
        let Some(m) = contact_convex(&seg, &Pose2::IDENTITY, shape, b_in_a, prediction) else {
            return;
        };
        let m = if fix && !is_valid(pl, i, c, &m) {
            if m.depth() > 0.0 {
                rejected.push(relabel_a(pl, i, &m));
            }
            match segment_face(c, shape, b_in_a, m.normal, prediction) {
                Some(f) => f,
                None => return,
            }
        } else {
            m
        };
        parts.push(relabel_a(pl, i, &m));
    });
    // Never turn an overlap into no contact (a shape crossing the curve
    // whose deepest point lies over no segment it crosses).
    if !rejected.is_empty() && parts.iter().all(|m| m.depth() <= 0.0) {
        parts.append(&mut rejected);
    }
}

/// The per-segment-pair manifolds of polylines `a` (at the identity) and `b`
/// (placed by `b_in_a`), in A's frame, polyline-wide ids on both sides.
fn segment_pair_manifolds(
    a: &Polyline,
    b: &Polyline,
    b_in_a: &Pose2,
    prediction: f32,
    parts: &mut Vec<Manifold2>,
) {
    let grow = prediction.max(0.0);
    let a_in_b = b_in_a.inverse();
    let b_box = b.aabb(b_in_a).loosened(grow);
    a.for_each_segment_in_aabb(&b_box, |i, ca| {
        let Some(sa) = segment_shape(ca) else {
            return;
        };
        let a_box = Aabb2::from_points(*ca).transformed(&a_in_b).loosened(grow);
        b.for_each_segment_in_aabb(&a_box, |j, cb| {
            let Some(sb) = segment_shape(cb) else {
                return;
            };
            let Some(m) = contact_convex(&sa, &Pose2::IDENTITY, &sb, b_in_a, prediction) else {
                return;
            };
            let mut m = relabel_a(a, i, &m);
            for p in m.points_mut() {
                let fb = polyline_feature(b, j, Feature(p.id.0 as u16));
                p.id = ContactId::new(Feature((p.id.0 >> 16) as u16), fb);
            }
            parts.push(m);
        });
    });
}

/// Merges `parts` (per-segment manifolds in one frame) into `out`, deepest
/// cluster first: clusters of nearly equal normals ([`cluster_by_normal`],
/// points with the same id or at the same place merged), each reduced to two
/// points ([`reduce_to_two`]).
pub(crate) fn merge(parts: &mut [Manifold2], tol: f32, prediction: f32, out: &mut Vec<Manifold2>) {
    let clusters = cluster_by_normal(parts, tol, prediction, |q, p| q.id == p.id);
    for (n, pts) in clusters {
        if !pts.is_empty() {
            // Depths carry more rounding than places (they are differences
            // along the normal of points far from the origin): a wider margin.
            out.push(reduce_to_two(&pts, n, 10.0 * tol));
        }
    }
}

/// At most two points of a cluster with normal `n`: the two extremes along the
/// tangent (they span the contact, what a solver needs to resist rotation),
/// unless a point between them is deeper than both by more than `tol`; then
/// that deepest point and the extreme farther from it. Ties go to the first
/// point; the two are given in tangent order.
fn reduce_to_two(pts: &[ContactPoint2], n: Vec2, tol: f32) -> Manifold2 {
    let mut m = Manifold2::new(n);
    if pts.len() <= 2 {
        for p in pts {
            m.push(*p);
        }
        return m;
    }
    let t = n.perp();
    let at = |i: usize| t.dot(pts[i].point_a);
    let (mut lo, mut hi, mut deep) = (0, 0, 0);
    for i in 1..pts.len() {
        if at(i) < at(lo) {
            lo = i;
        }
        if at(i) > at(hi) {
            hi = i;
        }
        if pts[i].depth > pts[deep].depth {
            deep = i;
        }
    }
    if pts[deep].depth > pts[lo].depth.max(pts[hi].depth) + tol {
        let far = if (at(hi) - at(deep)).abs() > (at(deep) - at(lo)).abs() {
            hi
        } else {
            lo
        };
        (lo, hi) = if at(far) < at(deep) {
            (far, deep)
        } else {
            (deep, far)
        };
    }
    m.push(pts[lo]);
    if hi != lo {
        m.push(pts[hi]);
    }
    m
}

/// A size for merge tolerances: the largest coordinate of the polyline's box.
fn scale_of(pl: &Polyline) -> f32 {
    let b = pl.local_aabb();
    b.min.abs().max(b.max.abs()).max_element().max(1.0)
}

/// Maps a manifold from the frame `pose` to world space.
fn to_world(m: &Manifold2, pose: &Pose2) -> Manifold2 {
    let mut w = *m;
    w.normal = pose.transform_vector(m.normal);
    for p in w.points_mut() {
        p.point_a = pose.transform_point(p.point_a);
        p.point_b = pose.transform_point(p.point_b);
    }
    w
}

/// Appends the manifolds (world space, deepest first, one per normal cluster)
/// of a leaf pair in which `a` or `b` is a polyline (neither a compound);
/// returns `false`, appending nothing, when neither is.
pub(crate) fn contacts(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
    options: &ContactOptions,
    out: &mut Vec<Manifold2>,
) -> bool {
    let mut parts = Vec::new();
    let mut local = Vec::new();
    match (a, b) {
        (Shape::Polyline(pa), Shape::Polyline(pb)) => {
            segment_pair_manifolds(pa, pb, &pose_a.inv_mul(pose_b), prediction, &mut parts);
            let tol = MERGE_REL * scale_of(pa).max(scale_of(pb));
            merge(&mut parts, tol, prediction, &mut local);
        }
        (Shape::Polyline(pa), _) => {
            let fix = options.fix_internal_vertices;
            segment_manifolds(pa, b, &pose_a.inv_mul(pose_b), prediction, fix, &mut parts);
            merge(&mut parts, MERGE_REL * scale_of(pa), prediction, &mut local);
        }
        (_, Shape::Polyline(_)) => {
            let start = out.len();
            contacts(b, pose_b, a, pose_a, prediction, options, out);
            for m in &mut out[start..] {
                *m = m.swapped();
            }
            return true;
        }
        _ => return false,
    }
    out.extend(local.iter().map(|m| to_world(m, pose_a)));
    true
}

/// Whether a leaf pair in which `a` or `b` is a polyline overlaps (touching
/// counts); `None` when neither is.
pub(crate) fn intersects(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> Option<bool> {
    Some(match (a, b) {
        (Shape::Polyline(pa), Shape::Polyline(pb)) => {
            let b_in_a = pose_a.inv_mul(pose_b);
            let a_in_b = b_in_a.inverse();
            let mut hit = false;
            pa.for_each_segment_in_aabb(&pb.aabb(&b_in_a), |_, ca| {
                if hit {
                    return;
                }
                let Some(sa) = segment_shape(ca) else {
                    return;
                };
                let a_box = Aabb2::from_points(*ca).transformed(&a_in_b);
                pb.for_each_segment_in_aabb(&a_box, |_, cb| {
                    if !hit {
                        if let Some(sb) = segment_shape(cb) {
                            hit = intersects_convex(&sa, &Pose2::IDENTITY, &sb, &b_in_a);
                        }
                    }
                });
            });
            hit
        }
        (Shape::Polyline(pa), _) => {
            let b_in_a = pose_a.inv_mul(pose_b);
            let mut hit = false;
            pa.for_each_segment_in_aabb(&b.aabb(&b_in_a), |_, c| {
                if !hit {
                    if let Some(s) = segment_shape(c) {
                        hit = intersects_convex(&s, &Pose2::IDENTITY, b, &b_in_a);
                    }
                }
            });
            hit
        }
        (_, Shape::Polyline(_)) => return intersects(b, pose_b, a, pose_a),
        _ => return None,
    })
}

/// Keeps the smaller of `best` and `d`; returns the best distance so far.
#[inline]
fn keep(best: &mut Option<Distance2>, d: Option<Distance2>) -> f32 {
    if let Some(d) = d {
        if best.is_none_or(|x| d.distance < x.distance) {
            *best = Some(d);
        }
    }
    best.map_or(f32::INFINITY, |x| x.distance)
}

/// Signed distance of the polyline `pl` (at the identity) to the convex
/// `shape` placed by `b_in_a`, in the polyline's frame.
fn polyline_convex(pl: &Polyline, shape: &Shape, b_in_a: &Pose2) -> Option<Distance2> {
    let sbox = shape.aabb(b_in_a);
    let mut best = None;
    pl.bvh().nearest_to_box(&sbox, |slot| {
        let c = pl.segment(pl.bvh().primitive(slot));
        let d = segment_shape(&c)
            .and_then(|s| distance_convex(&s, &Pose2::IDENTITY, shape, b_in_a, None));
        keep(&mut best, d)
    });
    best
}

/// Signed distance of polylines `a` (at the identity) and `b` (placed by
/// `b_in_a`): the minimum over segment pairs, in A's frame.
fn polyline_polyline(a: &Polyline, b: &Polyline, b_in_a: &Pose2) -> Option<Distance2> {
    let a_in_b = b_in_a.inverse();
    let mut best = None;
    a.bvh().nearest_to_box(&b.aabb(b_in_a), |slot| {
        let ca = a.segment(a.bvh().primitive(slot));
        let Some(sa) = segment_shape(&ca) else {
            return best.map_or(f32::INFINITY, |x: Distance2| x.distance);
        };
        let a_box = Aabb2::from_points(ca).transformed(&a_in_b);
        b.bvh().nearest_to_box(&a_box, |slot_b| {
            let cb = b.segment(b.bvh().primitive(slot_b));
            let d = segment_shape(&cb)
                .and_then(|sb| distance_convex(&sa, &Pose2::IDENTITY, &sb, b_in_a, None));
            keep(&mut best, d)
        });
        best.map_or(f32::INFINITY, |x| x.distance)
    });
    best
}

/// Signed distance (world space) of a leaf pair in which `a` or `b` is a
/// polyline (neither a compound); `None` inside when there is no segment
/// (cannot happen), `None` outside when neither is a polyline.
pub(crate) fn distance(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
) -> Option<Option<Distance2>> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let local = match (a, b) {
        (Shape::Polyline(pa), Shape::Polyline(pb)) => polyline_polyline(pa, pb, &b_in_a),
        (Shape::Polyline(pa), _) => polyline_convex(pa, b, &b_in_a),
        (_, Shape::Polyline(_)) => {
            let d = distance(b, pose_b, a, pose_a)?;
            return Some(d.map(|d| Distance2 {
                distance: d.distance,
                point_a: d.point_b,
                point_b: d.point_a,
                normal: -d.normal,
            }));
        }
        _ => return None,
    };
    Some(local.map(|d| Distance2 {
        distance: d.distance,
        point_a: pose_a.transform_point(d.point_a),
        point_b: pose_a.transform_point(d.point_b),
        normal: pose_a.transform_vector(d.normal),
    }))
}
