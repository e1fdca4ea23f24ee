//! The separating-axis test between two convex polytopes, returning the axis of
//! least penetration (or largest separation).
//!
//! The candidate axes of two convex polytopes are the face normals of each and
//! the cross products of edge pairs; of the edge pairs only those whose Gauss-map
//! arcs cross build a face of the Minkowski difference, and only those need
//! testing (Gregorius, "The Separating Axis Test between Convex Polyhedra",
//! GDC 2013). Over that complete set of face normals of `A - B`, the largest
//! separation is the exact signed distance when the shapes overlap (minus the
//! penetration depth, the MTD) and a lower bound on the distance otherwise.
//!
//! Solids take one path ([`SolidView`], over stack buffers for small ones or
//! mapped on access for large ones): the crossing edge pairs are found by
//! walking each of A's Gauss-map arcs across B's Gauss map (see
//! [`sat`]), so only those pairs are ever formed. Flat polytopes (triangles,
//! segments) have no Gauss-map arcs and take the projection-interval path.

use super::polytope::Polytope;
use super::prepared::{HullView, Mapped, PlacedHull, Prepared, SolidView, MAX_FACES};
use super::triangle::{triangle_solid, FlatTriangle};
use crate::math::{Pose3, Vec3};

/// Which axis realised the largest separation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SatAxis {
    /// The normal of face `i` of A.
    FaceA(usize),
    /// The normal of face `i` of B.
    FaceB(usize),
    /// The cross product of edge `i` of A and edge `j` of B.
    Edges(usize, usize),
}

/// The result of [`sat`]: the best axis, its separation and the unit normal
/// from A to B, in A's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SatResult {
    /// The axis.
    pub axis: SatAxis,
    /// Separation along it: `> 0` separated, `<= 0` overlapping (then minus the
    /// penetration depth).
    pub separation: f32,
    /// Unit normal from A to B in A's frame.
    pub normal: Vec3,
}

/// A face axis is kept over an edge axis, and A's face over B's face, unless
/// the other separates by more than this times the scale of the pair. Small, so
/// that the returned MTD stays exact to about 2e-6 relative while exact ties
/// (parallel faces, aligned boxes) resolve the stable way (policy rule 5).
pub(crate) const FACE_BIAS_REL: f32 = 2.0e-6;

/// Whether the Gauss-map arcs `a b` and `c d` (unit vectors; each arc the short
/// great arc between its ends) cross.
///
/// The arcs cross when `c` and `d` lie on opposite sides of the plane through
/// `a`, `b` (normal `b × a`), `a` and `b` on opposite sides of the plane of `c`,
/// `d` (normal `d × c`), and the arcs lie in the same hemisphere rather than on
/// antipodal sides (the sign test `c·(b×a) · b·(d×c) > 0`); as in Gregorius,
/// GDC 2013.
#[inline]
pub fn arcs_cross(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> bool {
    let bxa = b.cross(a);
    let dxc = d.cross(c);
    let cba = c.dot(bxa);
    let dba = d.dot(bxa);
    let adc = a.dot(dxc);
    let bdc = b.dot(dxc);
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// Separation of two polytopes along the unit axis `l` (A's frame), with the
/// normal sign that realises it: `max(minB - maxA, minA - maxB)`.
#[inline]
fn interval_separation<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    l: Vec3,
) -> (f32, Vec3, f32, f32) {
    let lb = b_in_a.inverse_transform_vector(l);
    let max_a = a.support(l).dot(l);
    let min_a = a.support(-l).dot(l);
    let max_b = b_in_a.transform_point(b.support(lb)).dot(l);
    let min_b = b_in_a.transform_point(b.support(-lb)).dot(l);
    if min_b - max_a >= min_a - max_b {
        (min_b - max_a, l, max_a, min_b)
    } else {
        (min_a - max_b, -l, -min_a, -max_b)
    }
}

/// The separating-axis test between `a` and `b` (B placed by `b_in_a` in A's
/// frame). Returns early, with any axis separating by more than `cutoff`.
/// `None` when neither shape offers an axis (cannot happen for a pair with at
/// least one face, or two non-parallel edges).
///
/// For two solids the edge pairs come from a walk over B's vertex graph
/// (see `sat_solid`); two convex polyhedra are read from their cached data
/// ([`HullView`], [`PlacedHull`]), other small solids are first copied into
/// stack buffers in A's frame ([`Prepared`]), larger ones are read through
/// [`Mapped`].
pub fn sat<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    cutoff: f32,
) -> Option<SatResult> {
    sat_impl(a, b, b_in_a, cutoff, false).ok()
}

/// [`sat`], except that it may also return `None` once the shapes are known
/// to be separated by more than `cutoff` along some other axis (for two
/// convex polyhedra: the line through their vertex means, tested first, so
/// that clearly separated pairs cost two scans of the vertices). For callers
/// that only need the axis when the separation is at most `cutoff`.
pub fn sat_within<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    cutoff: f32,
) -> Option<SatResult> {
    sat_impl(a, b, b_in_a, cutoff, true).ok()
}

/// [`sat_within`], saying why it found no axis: `Err(Some(g))` when the
/// line through the vertex means separates the shapes by `g > cutoff` (a
/// lower bound on their distance), `Err(None)` when neither shape offers an
/// axis. An `Ok` axis separating by more than `cutoff` bounds the distance
/// from below in the same way.
pub(crate) fn sat_within_or_gap<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    cutoff: f32,
) -> Result<SatResult, Option<f32>> {
    sat_impl(a, b, b_in_a, cutoff, true)
}

/// [`sat`] and [`sat_within`] (`reject`: test the axis through the centres
/// first and return its separation as the error when it separates by more
/// than `cutoff`; `Err(None)`: no axis).
fn sat_impl<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    cutoff: f32,
    reject: bool,
) -> Result<SatResult, Option<f32>> {
    let scale = a.scale().max(b.scale());
    let tol = FACE_BIAS_REL * scale.max(f32::MIN_POSITIVE);
    if a.is_solid() && b.is_solid() {
        let centre_a = a.interior_point();
        if let (Some(ha), Some(hb)) = (a.hull(), b.hull()) {
            if let Some(vb) = PlacedHull::new(hb, b_in_a) {
                let va = HullView::new(ha);
                let mut toward_b = None;
                if reject {
                    // Any axis `u` bounds the distance from below by
                    // `min_B u·x - max_A u·x`; along the line through the
                    // centres this is close to the distance for pairs well
                    // apart.
                    let d = b_in_a.transform_point(b.interior_point()) - centre_a;
                    let len = d.length();
                    if len > 0.0 {
                        let u = d / len;
                        let gap = vb.min_dot(u) + va.min_dot(-u);
                        if gap > cutoff {
                            return Err(Some(gap));
                        }
                        toward_b = Some(u);
                    }
                }
                return sat_solid(&va, &vb, centre_a, tol, cutoff, toward_b).ok_or(None);
            }
        }
        let mut pa = Prepared::default();
        let mut pb = Prepared::default();
        if a.prepare(None, &mut pa) && b.prepare(Some(b_in_a), &mut pb) {
            return sat_solid(&pa, &pb, centre_a, tol, cutoff, None).ok_or(None);
        }
        let (ma, mb) = (Mapped::new(a, None), Mapped::new(b, Some(b_in_a)));
        return sat_solid(&ma, &mb, centre_a, tol, cutoff, None).ok_or(None);
    }
    // A triangle against a solid: in the solid's frame.
    if let (Some((v, n)), true) = (a.triangle(), b.is_solid()) {
        let tri = FlatTriangle {
            v: v.map(|p| b_in_a.inverse_transform_point(p)),
            n: b_in_a.inverse_transform_vector(n),
        };
        return triangle_solid(&tri, b, true, tol, cutoff, reject)
            .map(|mut r| {
                r.normal = b_in_a.transform_vector(r.normal);
                r
            })
            .ok_or(None);
    }
    if let (Some((v, n)), true) = (b.triangle(), a.is_solid()) {
        let tri = FlatTriangle {
            v: v.map(|p| b_in_a.transform_point(p)),
            n: b_in_a.transform_vector(n),
        };
        return triangle_solid(&tri, a, false, tol, cutoff, reject).ok_or(None);
    }
    sat_flat(a, b, b_in_a, scale, tol, cutoff).ok_or(None)
}

/// Keeps `face` over `other` unless `other` separates by more than `tol`.
#[inline]
pub(super) fn prefer(
    face: Option<SatResult>,
    other: Option<SatResult>,
    tol: f32,
) -> Option<SatResult> {
    match (face, other) {
        (Some(f), Some(o)) => Some(if o.separation > f.separation + tol {
            o
        } else {
            f
        }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Capacity of the table of products of A's face normals with B's vertices
/// (enough for the 28 faces and 16 vertices of a hull of 16 points; the
/// table is zeroed on each query, so it is kept small).
const DOTS: usize = 512;

/// The axis of edges `p_a + da` (of A) and `p_b + db` (of B), both in A's
/// frame, oriented out of A (away from `centre_a`, a point inside A) and the
/// separation along it, `n · (p_b - p_a)`: the edges support their shapes
/// along the axis when their Gauss-map arcs cross (Gregorius). `None` for
/// parallel edges: below about 1e-3 rad the cross product's direction is
/// mostly rounding, and a face axis is nearly the same (policy rule 5).
#[inline(always)]
fn edge_axis(p_a: Vec3, da: Vec3, p_b: Vec3, db: Vec3, centre_a: Vec3) -> Option<(Vec3, f32)> {
    let l = unit_cross(da, db)?;
    let n = if l.dot(p_a - centre_a) < 0.0 { -l } else { l };
    Some((n, n.dot(p_b - p_a)))
}

/// Squared lengths below this are near f32's underflow (1.2e-38): their
/// products and ratios lose precision.
const TINY_SQ: f32 = 1e-30;

/// The unit direction of `da × db`, or `None` for edges parallel within
/// about 1e-3 rad (`|da × db|² <= 1e-6 |da|² |db|²`) or of zero length.
#[inline(always)]
fn unit_cross(da: Vec3, db: Vec3) -> Option<Vec3> {
    let axis = da.cross(db);
    let len2 = axis.length_squared();
    let both = da.length_squared() * db.length_squared();
    // (Above 1e-36 the squared length is a normal f32 number, exact enough.)
    if len2 > (1e-6 * both).max(1e-36) {
        return Some(axis / len2.sqrt());
    }
    if both >= TINY_SQ || axis == Vec3::ZERO {
        return None;
    }
    unit_cross_scaled(da, db)
}

/// [`unit_cross`] of tiny edges (a hull 1e-31 across: `|da × db|²`
/// underflowed to zero and the axis that separates it from a capsule 0.8
/// away was lost), each scaled to unit size first.
#[cold]
#[inline(never)]
fn unit_cross_scaled(da: Vec3, db: Vec3) -> Option<Vec3> {
    let (sa, sb) = (da.abs().max_element(), db.abs().max_element());
    if !(sa > 0.0 && sb > 0.0) {
        return None;
    }
    let (ua, ub) = (da / sa, db / sb);
    let axis = ua.cross(ub);
    let len2 = axis.length_squared();
    if len2 <= 1e-6 * ua.length_squared() * ub.length_squared() || len2 == 0.0 {
        return None;
    }
    Some(axis / len2.sqrt())
}

/// Faces are skipped when a bound on their separation falls this many times
/// `tol` below the best separation found so far: a skipped face is then
/// neither the best of its shape nor within `tol` of the answer, whatever
/// the bound's rounding (a few ulps of the coordinates) and the hull's own
/// planarity tolerance (a vertex may lie off its face plane by about
/// `6 REL_EPS` of the coordinates' size, which the edges' bound meets).
pub(super) const SKIP_MARGIN: f32 = 32.0;

/// Marks a face of A whose deepest vertex of B was not looked for.
const UNSCANNED: u32 = u32::MAX;

/// The face of `v` whose outward normal (from `normal`) is most aligned
/// with `u`: the lowest index on ties, `None` without faces.
#[inline]
fn most_aligned(count: usize, normal: impl Fn(usize) -> Vec3, u: Vec3) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for f in 0..count {
        let a = normal(f).dot(u);
        if best.is_none_or(|(_, b)| a > b) {
            best = Some((f, a));
        }
    }
    best.map(|(f, _)| f)
}

/// Whether face `f` of a shape, separating by `s`, replaces `best`, the
/// best face of the same shape so far: it separates by more, or as much
/// with a lower index (the faces are not scanned in index order, but the
/// lowest index wins exact ties as if they were).
#[inline]
fn face_beats(s: f32, f: usize, best: &SatResult) -> bool {
    match best.axis {
        SatAxis::FaceA(g) | SatAxis::FaceB(g) => {
            s > best.separation || (s == best.separation && f < g)
        }
        SatAxis::Edges(..) => s > best.separation,
    }
}

/// [`sat`] on two solids in A's frame; `centre_a` is a point inside A.
///
/// Faces of A and of B: the other's deepest vertex below each face plane.
///
/// With `toward_b` (a unit direction from A towards B), the face of each
/// shape turned most towards the other is scanned first. Its separation
/// `s` bounds the answer from below, and its deepest vertex `w` of the
/// other shape bounds every other face's separation from above: face `f`
/// of A separates by `min_v n_f·v - d_f <= n_f·w - d_f`. A face whose bound
/// is below the best so far by more than [`SKIP_MARGIN`] `tol` can change
/// neither the best face of its shape nor the choice between the shapes'
/// faces (which keeps A's unless B's is `tol` better), so its scan is
/// skipped; B's faces are bounded in B's own frame. On touching hulls
/// nearly all faces turned away from the contact are skipped. The result
/// is the same as without `toward_b`, except which axis is returned when
/// one separates by more than `cutoff` (any such axis may be).
///
/// Edge pairs: the Gauss map of `A - B` overlays A's with B's negated, and
/// a pair of edges builds a face of `A - B` exactly when their arcs cross
/// (Gregorius, GDC 2013). On B's negated Gauss map, the region of direction
/// `n` is that of the vertex of B minimising `n · v`. Along A's arc of edge
/// `ea`, from the normal `a0` of its first face to the normal `a1` of its
/// second, parametrised as `n(t) = (1 - t) a0 + t a1` (the arc is shorter than
/// a half circle, so `n(t) ≠ 0`), each `n(t) · v` is linear in `t`; the
/// minimising vertex starts at B's deepest vertex below face `a0` (found by
/// the face pass, or looked for when that face was skipped) and changes, at
/// the smallest root `t` in `[0, 1]` of `n(t) · (w - v)` over the neighbours
/// `w` with `a1 · w < a1 · v`, to that neighbour: the arc then crosses the
/// arc of B's edge `v w`. The walk stops when no neighbour is lower at
/// `t = 1`; since `a1 · v` (as computed) strictly decreases at each step, it
/// ends after fewer steps than B has vertices. Only the crossing pairs are
/// formed, about one per edge of A on random hulls, where testing every pair
/// would form `E_A · E_B`.
fn sat_solid<VA: SolidView, VB: SolidView>(
    va: &VA,
    vb: &VB,
    centre_a: Vec3,
    tol: f32,
    cutoff: f32,
    toward_b: Option<Vec3>,
) -> Option<SatResult> {
    // Faces of A: separation of B's deepest vertex below the face plane,
    // remembering that vertex (the start of the walks of A's arcs) and, when
    // they fit, all of B's vertices' products with the normal (row `f` of
    // `dots`), which the walks read.
    let stride = vb.vertex_count().next_multiple_of(4);
    let tabled = va.face_count() * stride <= DOTS;
    let mut dots = [0.0f32; DOTS];
    let mut deepest = [UNSCANNED; MAX_FACES];
    let margin = SKIP_MARGIN * tol;
    let mut face_a: Option<SatResult> = None;
    let seed_a = toward_b.and_then(|u| most_aligned(va.face_count(), |f| va.plane(f).0, u));
    // B's vertex below the seed face: the witness bounding A's other faces.
    let mut witness_b: Option<(usize, Vec3)> = None;
    let order_a = seed_a.into_iter().chain(0..va.face_count());
    for f in order_a {
        let (n, d) = va.plane(f);
        if witness_b.is_some() && Some(f) == seed_a {
            continue;
        }
        if let (Some((_, w)), Some(best)) = (witness_b, face_a) {
            if n.dot(w) - d < best.separation - margin {
                continue;
            }
        }
        let row = match dots.get_mut(f * stride..(f + 1) * stride) {
            Some(row) if tabled => row,
            _ => &mut [],
        };
        let (i, m) = vb.dots_into(n, row);
        if let Some(x) = deepest.get_mut(f) {
            *x = i as u32;
        }
        let s = m - d;
        if face_a.is_none_or(|r| face_beats(s, f, &r)) {
            face_a = Some(SatResult {
                axis: SatAxis::FaceA(f),
                separation: s,
                normal: n,
            });
            if s > cutoff {
                return face_a;
            }
        }
        if seed_a == Some(f) && witness_b.is_none() {
            witness_b = Some((i, vb.vertex(i)));
        }
    }
    // Faces of B (already in A's frame), the seed's first.
    let mut face_b: Option<SatResult> = None;
    let seed_b = toward_b.and_then(|u| {
        let u = vb.to_local_vector(-u);
        most_aligned(vb.face_count(), |f| vb.local_plane(f).0, u)
    });
    // A's vertex below B's seed face, in B's frame, and the margin widened
    // by the rounding of that frame change (about an ulp of the points).
    let mut witness_a: Option<(Vec3, f32)> = None;
    let order_b = seed_b.into_iter().chain(0..vb.face_count());
    for f in order_b {
        if witness_a.is_some() && Some(f) == seed_b {
            continue;
        }
        if let Some((p, wide)) = witness_a {
            let bar = face_a.map_or(f32::NEG_INFINITY, |r| r.separation);
            let bar = face_b.map_or(bar, |r| bar.max(r.separation));
            let (n, d) = vb.local_plane(f);
            if n.dot(p) - d < bar - wide {
                continue;
            }
        }
        let (n, d) = vb.plane(f);
        let m = va.min_dot(n);
        let s = m - d;
        if face_b.is_none_or(|r| face_beats(s, f, &r)) {
            face_b = Some(SatResult {
                axis: SatAxis::FaceB(f),
                separation: s,
                normal: -n,
            });
            if s > cutoff {
                return face_b;
            }
        }
        if seed_b == Some(f) && witness_a.is_none() {
            let p = va.vertex(va.min_vertex(n).0);
            let local = vb.to_local(p);
            let round = 32.0 * f32::EPSILON * (p.length() + local.length() + d.abs());
            witness_a = Some((local, margin + round));
        }
    }
    let best_face = prefer(face_a, face_b, tol);
    // An edge pair separating by less than this cannot be the answer: the
    // face is kept unless an edge separates by more than its separation plus
    // `tol` (the bound below is allowed `tol` of rounding).
    let face_bar = best_face.map_or(f32::NEG_INFINITY, |r| r.separation);

    // The deepest vertex of B below face `f` of A when the face pass found
    // it, and that face's row of products when tabled.
    let known = |f: usize| match deepest.get(f) {
        Some(&i) if i != UNSCANNED => Some(i as usize),
        _ => None,
    };
    let skipped = |f: usize| deepest.get(f) == Some(&UNSCANNED);
    let row = |f: usize| match dots.get(f * stride..(f + 1) * stride) {
        Some(r) if tabled && known(f).is_some() => r,
        _ => &[],
    };
    let dot = |r: &[f32], n: Vec3, w: usize| -> f32 {
        match r.get(w) {
            Some(&x) => x,
            None => n.dot(vb.vertex(w)),
        }
    };

    // Apart, with the other shape's deepest vertex `w` below the best face
    // standing over that face's polygon: the foot of `w` is (within the
    // face's flatness) a point of this shape at `face_bar` from `w`, so the
    // shapes are at most that far apart, and no axis separates them by more
    // than their distance. No edge pair can then beat the face by `tol`
    // (flatness and rounding take under half of it), and the edge pass is
    // skipped. Common between resting neighbours within a contact
    // prediction, whose closest features are a face and a vertex.
    if face_bar > 0.0 {
        let (inset, flat) = (margin, 0.25 * tol);
        let holds = match best_face.map(|r| r.axis) {
            Some(SatAxis::FaceA(f)) => {
                known(f).is_some_and(|i| va.face_holds(f, vb.vertex(i), inset, flat))
            }
            Some(SatAxis::FaceB(f)) => {
                let (i, _) = va.min_vertex(vb.plane(f).0);
                vb.face_holds(f, va.vertex(i), inset, flat)
            }
            _ => false,
        };
        if holds {
            return best_face;
        }
    }

    // The best edge pair: separation, pair, normal. Exact ties go to the
    // lower pair whatever the walk's order.
    let mut best_edge: Option<(f32, usize, usize, Vec3)> = None;
    let steps = vb.vertex_count();
    for ea in 0..va.edge_count() {
        let [v0, v1, f0, f1] = va.edge(ea);
        // Both faces skipped: each bounds B's witness `w` below its plane
        // by more than the margin under the best face, so every `n(t)` on the
        // arc does too (`p_a` lies on both planes; the bound is a convex
        // combination), and while that is negative, normalising `n(t)` only
        // lowers it: no pair of this edge can win.
        if face_bar <= 0.0 && skipped(f0) && skipped(f1) {
            continue;
        }
        let (a0, _) = va.plane(f0);
        let (a1, _) = va.plane(f1);
        let p_a = va.vertex(v0);
        let (row0, row1) = (row(f0), row(f1));
        // Two vertices of B for the bound: the deepest below each end when
        // known, else the witness (any vertex bounds the minimum).
        let pick = |f: usize, n: Vec3| {
            known(f)
                .or(witness_b.map(|(i, _)| i))
                .unwrap_or_else(|| vb.min_vertex(n).0)
        };
        let (v, u1) = (pick(f0, a0), pick(f1, a1));
        // Pruning: along the arc `n(t) = (1 - t) a0 + t a1`, the unnormalised
        // separation `min_w n(t)·(w - p_a)` is at most its value at any
        // vertex of B: two lines in `t`, from `x0` to `y0` (at `v`) and from
        // `x1` to `y1` (at `u1`). When `v` and `u1` are the deepest below
        // the ends, `x0 <= x1` and `y1 <= y0`, and the least of the two
        // lines is largest at an end or where they cross. Over the unit
        // normal `n/|n|` (`|n| <= 1`) a negative bound only decreases; a
        // positive one grows by at most `1 / min|n| = 1 / sqrt((1 + a0·a1) / 2)`.
        // An edge of A whose bound is below the best face (or the best edge
        // pair so far) cannot win.
        let (o0, o1) = (a0.dot(p_a), a1.dot(p_a));
        let (x0, y0) = (dot(row0, a0, v) - o0, dot(row1, a1, v) - o1);
        let (x1, y1) = (dot(row0, a0, u1) - o0, dot(row1, a1, u1) - o1);
        let (p, q) = (x1 - x0, y0 - y1);
        let mut bound = if p >= 0.0 && q >= 0.0 && p + q > 0.0 {
            // The least of the lines is concave: its largest value is at an
            // end or where the lines cross.
            (x0 + p / (p + q) * (y0 - x0)).max(x0).max(y1)
        } else {
            // Otherwise (other vertices, ties, or minima computed apart that
            // disagree by rounding): the least of the lines' maxima.
            x0.max(y0).min(x1.max(y1))
        };
        if bound > 0.0 {
            let c = 0.5 * (1.0 + a0.dot(a1));
            bound = if c > 1e-6 {
                bound / c.sqrt()
            } else {
                f32::INFINITY
            };
        }
        let edge_bar = best_edge.map_or(f32::NEG_INFINITY, |(bs, ..)| bs);
        if bound + tol < face_bar || bound + tol < edge_bar {
            continue;
        }
        // The walk starts at B's deepest vertex below `a0`.
        let mut v = known(f0).unwrap_or_else(|| vb.min_vertex(a0).0);
        let (mut h0, mut h1) = (dot(row0, a0, v), dot(row1, a1, v));
        let da = va.vertex(v1) - p_a;
        for _ in 0..steps {
            let (nbrs, edges) = vb.neighbours(v);
            // The neighbour that first becomes lower along the arc: least
            // root `t`, then (ties at a vertex of B's Gauss map) the steepest.
            let (mut next, mut next_t, mut next_g) = (usize::MAX, f32::INFINITY, 0.0f32);
            for (k, &w) in nbrs.iter().enumerate() {
                let g1 = dot(row1, a1, w as usize) - h1;
                if g1 < 0.0 {
                    let g0 = dot(row0, a0, w as usize) - h0;
                    let t = if g0 > 0.0 { g0 / (g0 - g1) } else { 0.0 };
                    if t < next_t || (t == next_t && g1 < next_g) {
                        (next, next_t, next_g) = (k, t, g1);
                    }
                }
            }
            let (Some(&w), Some(&eb)) = (nbrs.get(next), edges.get(next)) else {
                break;
            };
            let (w, eb) = (w as usize, eb as usize);
            let (pv, pw) = (vb.vertex(v), vb.vertex(w));
            if let Some((n, s)) = edge_axis(p_a, da, pv, pw - pv, centre_a) {
                if best_edge
                    .is_none_or(|(bs, ba, bb, _)| s > bs || (s == bs && ba == ea && eb < bb))
                {
                    best_edge = Some((s, ea, eb, n));
                    if s > cutoff {
                        break;
                    }
                }
            }
            v = w;
            (h0, h1) = (dot(row0, a0, w), dot(row1, a1, w));
        }
        if best_edge.is_some_and(|(s, ..)| s > cutoff) {
            break;
        }
    }
    let best_edge = best_edge.map(|(s, ea, eb, n)| SatResult {
        axis: SatAxis::Edges(ea, eb),
        separation: s,
        normal: n,
    });
    if best_edge.is_some_and(|r| r.separation > cutoff) {
        return best_edge;
    }
    prefer(best_face, best_edge, tol)
}

/// [`sat`] when a polytope is flat: faces through the support functions, and
/// every edge pair by projection intervals, kept only when both edges support
/// their shapes along the axis (so that the recorded pair is the touching
/// one).
fn sat_flat<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    scale: f32,
    tol: f32,
    cutoff: f32,
) -> Option<SatResult> {
    // Faces of A: separation of B's deepest point below the face plane.
    let mut face_a: Option<SatResult> = None;
    for f in 0..a.face_count() {
        let (n, d) = a.face_plane(f);
        let p = b_in_a.transform_point(b.support(b_in_a.inverse_transform_vector(-n)));
        let s = n.dot(p) - d;
        if face_a.is_none_or(|r| s > r.separation) {
            face_a = Some(SatResult {
                axis: SatAxis::FaceA(f),
                separation: s,
                normal: n,
            });
            if s > cutoff {
                return face_a;
            }
        }
    }
    // Faces of B, seen from A.
    let mut face_b: Option<SatResult> = None;
    for f in 0..b.face_count() {
        let (nb, db) = b.face_plane(f);
        let n = b_in_a.transform_vector(nb);
        let d = db + n.dot(b_in_a.translation);
        let p = a.support(-n);
        let s = n.dot(p) - d;
        if face_b.is_none_or(|r| s > r.separation) {
            face_b = Some(SatResult {
                axis: SatAxis::FaceB(f),
                separation: s,
                normal: -n,
            });
            if s > cutoff {
                return face_b;
            }
        }
    }
    // Prefer A's face unless B's separates clearly more (stable reference).
    let best_face = prefer(face_a, face_b, tol);

    let mut best_edge: Option<SatResult> = None;
    let eps = 1e-5 * scale.max(f32::MIN_POSITIVE);
    for ea in 0..a.edge_count() {
        let (pa, qa) = a.edge(ea);
        let da = qa - pa;
        for eb in 0..b.edge_count() {
            let (pb, qb) = b.edge(eb);
            let (pb, qb) = (b_in_a.transform_point(pb), b_in_a.transform_point(qb));
            let db = qb - pb;
            // Parallel edges (and zero-length ones) give no axis.
            let Some(l) = unit_cross(da, db) else {
                continue;
            };
            let (s, n, top_a, bottom_b) = interval_separation(a, b, b_in_a, l);
            if (top_a - pa.dot(n)).abs() > eps || (bottom_b - pb.dot(n)).abs() > eps {
                continue;
            }
            if best_edge.is_none_or(|r| s > r.separation) {
                best_edge = Some(SatResult {
                    axis: SatAxis::Edges(ea, eb),
                    separation: s,
                    normal: n,
                });
                if s > cutoff {
                    return best_edge;
                }
            }
        }
    }
    prefer(best_face, best_edge, tol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs() {
        // Two arcs crossing at +z.
        let a = Vec3::new(1.0, 0.0, 1.0).normalize();
        let b = Vec3::new(-1.0, 0.0, 1.0).normalize();
        let c = Vec3::new(0.0, 1.0, 1.0).normalize();
        let d = Vec3::new(0.0, -1.0, 1.0).normalize();
        assert!(arcs_cross(a, b, c, d));
        // The antipodal arc does not cross.
        assert!(!arcs_cross(a, b, -c, -d));
        // Disjoint arcs.
        assert!(!arcs_cross(a, Vec3::X, c, Vec3::Y));
    }
}
