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

use super::polytope::Polytope;
use super::prepared::{Prepared, MAX_EDGES, MAX_FACES};
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
pub const FACE_BIAS_REL: f32 = 2.0e-6;

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
pub fn sat<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    cutoff: f32,
) -> Option<SatResult> {
    let scale = a.scale().max(b.scale());
    let tol = FACE_BIAS_REL * scale.max(f32::MIN_POSITIVE);

    // Small solids: map B into A's frame once and scan arrays.
    let mut pa = Prepared::default();
    let mut pb = Prepared::default();
    if a.prepare(None, &mut pa) && b.prepare(Some(b_in_a), &mut pb) {
        return sat_prepared(&pa, &pb, a.interior_point(), tol, cutoff);
    }

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
    let best_face = match (face_a, face_b) {
        (Some(fa), Some(fb)) => Some(if fb.separation > fa.separation + tol {
            fb
        } else {
            fa
        }),
        (x, None) => x,
        (None, y) => y,
    };

    let mut best_edge: Option<SatResult> = None;
    let flat = a.edge_count() > 0
        && b.edge_count() > 0
        && (a.edge_normals(0).is_none() || b.edge_normals(0).is_none());
    let centre_a = a.interior_point();
    for ea in 0..a.edge_count() {
        let (pa, qa) = a.edge(ea);
        let da = qa - pa;
        let arc_a = a.edge_normals(ea);
        for eb in 0..b.edge_count() {
            let (pb, qb) = b.edge(eb);
            let (pb, qb) = (b_in_a.transform_point(pb), b_in_a.transform_point(qb));
            let db = qb - pb;
            let axis = da.cross(db);
            let len2 = axis.length_squared();
            // Parallel edges (and zero-length ones) give no axis (policy rule
            // 5). Below about 1e-3 rad the cross product's direction is mostly
            // rounding, and a face axis is nearly the same.
            if len2 <= 1e-6 * da.length_squared() * db.length_squared() || len2 == 0.0 {
                continue;
            }
            let l = axis / len2.sqrt();
            let (s, n) = if flat {
                // No Gauss-map arcs: project both shapes, and keep the pair only
                // when both edges support the shapes along the axis, so that the
                // recorded pair is the touching one.
                let (s, n, top_a, bottom_b) = interval_separation(a, b, b_in_a, l);
                let eps = 1e-5 * scale.max(f32::MIN_POSITIVE);
                if (top_a - pa.dot(n)).abs() > eps || (bottom_b - pb.dot(n)).abs() > eps {
                    continue;
                }
                (s, n)
            } else {
                let (Some((a0, a1)), Some((b0, b1))) = (arc_a, b.edge_normals(eb)) else {
                    continue;
                };
                let b0 = b_in_a.transform_vector(b0);
                let b1 = b_in_a.transform_vector(b1);
                // The Gauss map of A - B overlays A's with B's negated.
                if !arcs_cross(a0, a1, -b0, -b1) {
                    continue;
                }
                // Orient the axis out of A at its edge; the edges are the
                // supporting features of A and B along it (Gregorius).
                let n = if l.dot(pa - centre_a) < 0.0 { -l } else { l };
                (n.dot(pb - pa), n)
            };
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
    match (best_face, best_edge) {
        (Some(f), Some(e)) => Some(if e.separation > f.separation + tol {
            e
        } else {
            f
        }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Keeps `face` over `other` unless `other` separates by more than `tol`.
#[inline]
fn prefer(face: Option<SatResult>, other: Option<SatResult>, tol: f32) -> Option<SatResult> {
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

/// [`sat`] on two prepared solids, both in A's frame; `centre_a` is a point
/// inside A. The same axes, preferences and early exit as the support-function
/// path, with B's vertices and normals mapped once.
///
/// The edge pairs are pruned before any cross product is formed: for edge `ea`
/// of A, with `u = a1 × a0` the normal of its Gauss-map arc's plane, the side of
/// every (negated) face normal of B is computed once; an edge of B whose two
/// faces lie on the same side cannot cross the arc (the first condition of
/// [`arcs_cross`]), which discards most pairs with two array loads.
fn sat_prepared(
    pa: &Prepared,
    pb: &Prepared,
    centre_a: Vec3,
    tol: f32,
    cutoff: f32,
) -> Option<SatResult> {
    // Faces of A: separation of B's deepest vertex below the face plane.
    let mut face_a: Option<SatResult> = None;
    for f in 0..pa.nf {
        let (n, d) = (pa.normals[f], pa.offsets[f]);
        let s = pb.min_dot(n) - d;
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
    // Faces of B (already in A's frame).
    let mut face_b: Option<SatResult> = None;
    for f in 0..pb.nf {
        let (n, d) = (pb.normals[f], pb.offsets[f]);
        let s = pa.min_dot(n) - d;
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
    let best_face = prefer(face_a, face_b, tol);

    // The Gauss map of A - B overlays A's with B's negated: B's negated
    // normals as coordinate arrays, and for each edge of B the normal of its
    // (negated) arc's plane, `d × c` in the notation of [`arcs_cross`].
    let nf = pb.nf;
    let (mut nx, mut ny, mut nz) = (
        [0.0f32; MAX_FACES],
        [0.0f32; MAX_FACES],
        [0.0f32; MAX_FACES],
    );
    for f in 0..nf {
        let n = -pb.normals[f];
        (nx[f], ny[f], nz[f]) = (n.x, n.y, n.z);
    }
    let mut w_b = [Vec3::ZERO; MAX_EDGES];
    for (w, e) in w_b.iter_mut().zip(&pb.edges[..pb.ne]) {
        let (c, d) = (-pb.normals[e.f0 as usize], -pb.normals[e.f1 as usize]);
        *w = d.cross(c);
    }
    // For each face of B, the set of B's edges bounding it (bit `e`: edge
    // `e`). An edge's arc crosses a great circle exactly when one of its two
    // faces lies strictly on each side: the edges with exactly one face on the
    // positive side are the XOR of these sets over the positive faces, and
    // likewise for the negative side.
    let mut bounding = [0u128; MAX_FACES];
    for (eb, g) in pb.edges[..pb.ne].iter().enumerate() {
        bounding[g.f0 as usize] |= 1u128 << eb;
        bounding[g.f1 as usize] |= 1u128 << eb;
    }
    let mut best_edge: Option<SatResult> = None;
    for ea in 0..pa.ne {
        let e = pa.edges[ea];
        let (a0, a1) = (pa.normals[e.f0 as usize], pa.normals[e.f1 as usize]);
        let u = a1.cross(a0);
        // Sides of B's negated normals relative to this arc's plane (the
        // signs of `cba`, `dba` in `arcs_cross`).
        // (Computed into an array first, a loop that vectorises.)
        let mut sides = [0.0f32; MAX_FACES];
        for f in 0..nf {
            sides[f] = u.x * nx[f] + u.y * ny[f] + u.z * nz[f];
        }
        let (mut pos, mut odd_pos, mut odd_neg) = (0u64, 0u128, 0u128);
        for (f, &side) in sides[..nf].iter().enumerate() {
            let (up, down) = (side > 0.0, side < 0.0);
            pos |= (up as u64) << f;
            odd_pos ^= bounding[f] & 0u128.wrapping_sub(up as u128);
            odd_neg ^= bounding[f] & 0u128.wrapping_sub(down as u128);
        }
        let p_a = pa.vertex(e.v0 as usize);
        let da = pa.vertex(e.v1 as usize) - p_a;
        // B's edges whose arcs cross this arc's great circle (cba·dba < 0),
        // in increasing order.
        let mut straddling = odd_pos & odd_neg;
        while straddling != 0 {
            let eb = straddling.trailing_zeros() as usize;
            straddling &= straddling - 1;
            let g = pb.edges[eb];
            let w = w_b[eb];
            let adc = a0.dot(w);
            let bdc = a1.dot(w);
            // adc·bdc < 0 and cba·bdc > 0.
            let c_pos = (pos >> g.f0) & 1 == 1;
            if !(adc * bdc < 0.0 && if c_pos { bdc > 0.0 } else { bdc < 0.0 }) {
                continue;
            }
            let p_b = pb.vertex(g.v0 as usize);
            let db = pb.vertex(g.v1 as usize) - p_b;
            let axis = da.cross(db);
            let len2 = axis.length_squared();
            // Parallel edges give no axis (as in `sat`).
            if len2 <= 1e-6 * da.length_squared() * db.length_squared() || len2 == 0.0 {
                continue;
            }
            let l = axis / len2.sqrt();
            // Orient the axis out of A at its edge (Gregorius).
            let n = if l.dot(p_a - centre_a) < 0.0 { -l } else { l };
            let s = n.dot(p_b - p_a);
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
