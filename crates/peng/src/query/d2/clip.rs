//! Face contact: clip the incident edge against the side planes of the reference
//! face (Sutherland-Hodgman on one segment; Catto, "Contact Manifolds", GDC 2007).
//!
//! Feature ids do not depend on which shape is the reference: a point that is an
//! incident vertex is named (that vertex, the reference edge); a point made by a
//! side plane is named (the reference vertex of that plane, the incident edge).
//! So swapping the reference between two parallel faces keeps the ids.

use super::poly::Poly;
use crate::math::Vec2;
use crate::query::types::Feature;

/// A clipped point of the incident core, with its separation from the
/// reference face (negative = penetrating).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ClipPoint {
    /// The point on the incident core.
    pub p: Vec2,
    /// Signed distance of `p` from the reference face along its normal.
    pub sep: f32,
    /// Feature of the reference shape.
    pub feat_ref: Feature,
    /// Feature of the incident shape.
    pub feat_inc: Feature,
}

/// The clipped points and the incident edge they lie on.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Clipped {
    /// The points; `len` of them are used.
    pub points: [ClipPoint; 2],
    /// Number of points (1 or 2).
    pub len: usize,
    /// The reference face.
    pub face: usize,
}

/// Up to two clipped points of `inc` against face `face` of `rf`. Never empty:
/// when clipping removes everything (possible only by rounding), the incident
/// support vertex is returned unclipped.
pub(crate) fn clip(rf: &Poly, face: usize, inc: &Poly) -> Clipped {
    let (points, len) = clip_points(rf, face, inc);
    Clipped { points, len, face }
}

fn clip_points(rf: &Poly, face: usize, inc: &Poly) -> ([ClipPoint; 2], usize) {
    let n = rf.normals()[face];
    let r1 = rf.verts()[face];
    let r2 = rf.verts()[rf.next(face)];
    let mut out = [ClipPoint::default(); 2];
    let iv = inc.verts();
    if inc.count() == 1 {
        out[0] = ClipPoint {
            p: iv[0],
            sep: n.dot(iv[0] - r1),
            feat_ref: Feature::edge(face),
            feat_inc: Feature::vertex(0),
        };
        return (out, 1);
    }
    // Incident edge: the one whose normal is most anti-parallel to n, which
    // is one of the two edges at the vertex deepest along -n; it is taken
    // between those two, so that it holds that vertex even when a nearly
    // collinear neighbour edge ties with it to rounding (soak seed 860442:
    // edges 3.8e-5 rad apart, the other one chosen, the manifold's deepest
    // point 3.6e-3 short of the depth).
    let m = inc.normals();
    let k = inc.support(-n);
    let prev = if k == 0 { inc.count() - 1 } else { k - 1 };
    let j = if m[prev].dot(n) < m[k].dot(n) {
        prev
    } else {
        k
    };
    let j2 = inc.next(j);
    let side = Side {
        n,
        r1,
        r2,
        v1: face,
        v2: rf.next(face),
    };
    match clip_edge(&side, face, (iv[j], j), (iv[j2], j2)) {
        Some(mut pts) => {
            keep_deepest_vertex(&mut pts, n, r1, (iv[k], k), face, rf, inc);
            (pts, 2)
        }
        None => {
            // Everything clipped: only rounding gets here; fall back.
            let k = inc.support(-n);
            out[0] = ClipPoint {
                p: iv[k],
                sep: n.dot(iv[k] - r1),
                feat_ref: Feature::edge(face),
                feat_inc: Feature::vertex(k),
            };
            (out, 1)
        }
    }
}

/// Puts the incident support vertex `(v, k)` (the deepest along `-n`, an
/// end of the clipped edge) back in place of the clipped point nearer it
/// when a side plane cut it off and it lies deeper than that point by more
/// than rounding. It lies outside the face's side planes but within the
/// reference shape, past a neighbour face nearly collinear with the face
/// (a sliver triangle's two long edges, 2.6e-4 rad apart: soak seed 860605,
/// the manifold 0.033 short of the depth; a segment's end past an 11-gon's
/// edges 1.1e-5 rad apart, seed 860638); without it the manifold would
/// miss the depth the separating axis measures.
fn keep_deepest_vertex(
    pts: &mut [ClipPoint; 2],
    n: Vec2,
    r1: Vec2,
    (v, k): (Vec2, usize),
    face: usize,
    rf: &Poly,
    inc: &Poly,
) {
    let sep = n.dot(v - r1);
    let near = if pts[0].p.distance_squared(v) <= pts[1].p.distance_squared(v) {
        0
    } else {
        1
    };
    // Usually the vertex was kept: no deeper point, and no scale to compute.
    if pts[near].sep <= sep {
        return;
    }
    let tol = 1e-5 * rf.scale().max(inc.scale());
    if pts[near].sep > sep + tol {
        pts[near] = ClipPoint {
            p: v,
            sep,
            feat_ref: Feature::edge(face),
            feat_inc: Feature::vertex(k),
        };
    }
}

/// A reference face: its outward normal `n`, its ends `r1 → r2` and the vertex
/// indices of those ends (the features of the side planes).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    /// Outward unit normal of the face.
    pub n: Vec2,
    /// First end (vertex `v1`).
    pub r1: Vec2,
    /// Second end (vertex `v2`).
    pub r2: Vec2,
    /// Index of the vertex at `r1`.
    pub v1: usize,
    /// Index of the vertex at `r2`.
    pub v2: usize,
}

/// Clips the incident edge `e0 → e1` (points with their vertex indices; the
/// edge's index is `e0`'s) against the side planes of reference face `face`,
/// and measures the separations. `None` when both ends fall outside one side
/// plane (only rounding gets there for a face chosen by least penetration).
/// Shared by the generic path and the dedicated rect-rect routine
/// (`rect_rect.rs`), so both name and place points the same way.
#[inline(always)]
pub(crate) fn clip_edge(
    side: &Side,
    face: usize,
    e0: (Vec2, usize),
    e1: (Vec2, usize),
) -> Option<[ClipPoint; 2]> {
    let (n, r1, r2) = (side.n, side.r1, side.r2);
    let j = e0.1;
    let mut pts = [
        ClipPoint {
            p: e0.0,
            sep: 0.0,
            feat_ref: Feature::edge(face),
            feat_inc: Feature::vertex(e0.1),
        },
        ClipPoint {
            p: e1.0,
            sep: 0.0,
            feat_ref: Feature::edge(face),
            feat_inc: Feature::vertex(e1.1),
        },
    ];
    let t = r2 - r1;
    // Side planes: keep -t·(p - r1) <= 0 and t·(p - r2) <= 0.
    let planes = [(-t, r1, side.v1), (t, r2, side.v2)];
    for (dir, origin, vert) in planes {
        let d0 = dir.dot(pts[0].p - origin);
        let d1 = dir.dot(pts[1].p - origin);
        if d0 > 0.0 && d1 > 0.0 {
            return None;
        }
        if d0 > 0.0 || d1 > 0.0 {
            let lambda = d0 / (d0 - d1);
            let p = pts[0].p + (pts[1].p - pts[0].p) * lambda;
            let k = if d0 > 0.0 { 0 } else { 1 };
            pts[k] = ClipPoint {
                p,
                sep: 0.0,
                feat_ref: Feature::vertex(vert),
                feat_inc: Feature::edge(j),
            };
        }
    }
    for q in pts.iter_mut() {
        q.sep = n.dot(q.p - r1);
    }
    Some(pts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose2;
    use crate::query::d2::poly::{test_buf, test_core};
    use crate::shape::d2::Rect;

    #[test]
    fn box_on_box_clips_to_two_points() {
        let a = test_core(Rect::new(Vec2::new(2.0, 0.5)).unwrap().into());
        let b = test_core(Rect::new(Vec2::splat(0.5)).unwrap().into())
            .transformed(&Pose2::from_translation(Vec2::new(1.8, 0.9)), test_buf());
        // Reference: A's top face (index 2, normal +y).
        let c = clip(&a, 2, &b);
        assert_eq!(c.len, 2);
        let pts = c.points;
        for p in &pts {
            assert!((p.sep + 0.1).abs() < 1e-6);
        }
        // One point is B's corner, the other is clipped at A's corner x = 2.
        let xs: Vec<f32> = pts.iter().map(|p| p.p.x).collect();
        assert!(xs.iter().any(|&x| (x - 1.3).abs() < 1e-6));
        assert!(xs.iter().any(|&x| (x - 2.0).abs() < 1e-6));
    }
}
