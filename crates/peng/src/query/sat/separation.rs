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
