//! Contact manifold of two rects with area (2D boxes), in closed form.
//!
//! The generic route (`pair.rs`) maps B's four corners and normals into A's
//! frame, runs the separating-axis loop over both cores and clips. For two
//! boxes all of that has a closed form on the relative pose (B's centre `t` in
//! A's frame and the relative rotation `R = [[c, -s], [s, c]]`), as in Box2D's
//! `b2CollidePolygons` specialised to boxes and Ericson's OBB test in 2D
//! (Real-Time Collision Detection, 4.4.1):
//!
//! - **Separating axes.** Along A's axis `x`, B's half-width is
//!   `hb.x·|c| + hb.y·|s|` (the support of a box along a direction is the sum of
//!   its half-extents times the absolute cosines), so A's `±x` faces separate B
//!   by `±t.x - ha.x - (hb.x·|c| + hb.y·|s|)`; the better of the two faces is the
//!   one on the side of `t`. Likewise for A's `y` axis and, with A's centre
//!   `-Rᵀt` seen from B, for B's two axes: four numbers instead of sixteen dot
//!   products.
//! - **Reference face** by least penetration with the same tie rules as the
//!   generic route (A's face unless B's separates by a relative margin; among
//!   one box's faces the lowest index in the order `-y, +x, +y, -x`).
//! - **Incident edge**: the other box's edge whose normal is most anti-parallel
//!   to the reference normal, again in closed form: its local normals dotted
//!   with the reference normal are entries of `R`.
//! - **Clipping** of that edge against the reference face's side planes
//!   (Catto, "Contact Manifolds", GDC 2007) with the same routine as the
//!   generic route (`clip::clip_edge`), so points and feature ids are the same:
//!   only the two incident corners (or the two reference corners of B) are
//!   ever mapped into A's frame, with the same expression the generic route
//!   uses, so the points agree bit for bit.
//! - Points go to world space straight from the clip (`point_b` on the incident
//!   edge, `point_a` projected onto the reference face), with no intermediate
//!   manifold.
//!
//! Separated pairs within the prediction distance whose closest features are
//! vertex against face (the incident corner that attains the separation lies
//! within the reference face) are answered here too: their distance is the
//! separation along that face. The rare rest (closest features two corners, or
//! clipping that loses every point to rounding) is left to the generic route,
//! which measures the distance with GJK.

use super::clip::{clip_edge, ClipPoint, Side};
use super::pair::TIE_REL;
use crate::math::{Pose2, Vec2};
use crate::query::types::{ContactId, ContactPoint2, Manifold2};
use crate::shape::d2::Rect;

/// Signs of the corners in the order of [`Rect::vertices`]: corner `i` is
/// `h * SIGNS[i]` (exact: a product by `±1`).
const SIGNS: [Vec2; 4] = [
    Vec2::new(-1.0, -1.0),
    Vec2::new(1.0, -1.0),
    Vec2::new(1.0, 1.0),
    Vec2::new(-1.0, 1.0),
];

/// Corner `i` of a box with half-extents `h`.
#[inline(always)]
fn corner(h: Vec2, i: usize) -> Vec2 {
    h * SIGNS[i & 3]
}

/// The first maximum (lowest index on ties) of the four values
/// `[-y, x, y, -x]` of a box face list (faces `-y, +x, +y, -x`), given `dir`
/// that decides the sign on each axis and `mag`, the two candidates' values.
///
/// On the `y` axis face 2 wins over face 0 only when `dir.y > 0` (a tie goes
/// to 0); on the `x` axis face 1 wins over face 3 unless `dir.x < 0` (a tie
/// goes to 1). Between the two winners the lower index takes a tie.
#[inline(always)]
fn first_max(dir: Vec2, mag: Vec2) -> (f32, usize) {
    let fy = if dir.y > 0.0 { 2 } else { 0 };
    let fx = if dir.x >= 0.0 { 1 } else { 3 };
    if fy < fx {
        if mag.x > mag.y {
            (mag.x, fx)
        } else {
            (mag.y, fy)
        }
    } else if mag.y > mag.x {
        (mag.y, fy)
    } else {
        (mag.x, fx)
    }
}

/// The contact manifold of two rects with area (every half-extent `> 0`; the
/// caller sends the others to the generic route), with the conventions of
/// [`contact`](super::contact): normal from A to B, positive depth for
/// penetration, points with depth `>= -prediction`. The few cases it leaves
/// to the generic route (see the module notes) are answered by `generic`.
///
/// When there is no manifold, a lower bound on the boxes' distance: the
/// separation along the face axis that set them more than `prediction`
/// apart (the projections of two shapes on a unit axis are at least their
/// distance apart), or `prediction` itself when the generic route found
/// none.
#[inline]
pub(crate) fn contact_or_gap(
    ra: &Rect,
    pose_a: &Pose2,
    rb: &Rect,
    pose_b: &Pose2,
    prediction: f32,
    generic: impl FnOnce() -> Option<Manifold2>,
) -> Result<Manifold2, f32> {
    let (ha, hb) = (ra.half_extents(), rb.half_extents());
    debug_assert!(ha.min_element() > 0.0 && hb.min_element() > 0.0);
    // B relative to A (the same relative pose the generic route uses).
    let rel = pose_a.inv_mul(pose_b);
    let rot = rel.rotation;
    let t = rel.translation;
    let (ac, as_) = (rot.cos.abs(), rot.sin.abs());
    // Half-widths of B along A's axes and of A along B's axes: |R| and |Rᵀ|
    // have the same entries.
    let wb = Vec2::new(hb.x * ac + hb.y * as_, hb.x * as_ + hb.y * ac);
    let wa = Vec2::new(ha.x * ac + ha.y * as_, ha.x * as_ + ha.y * ac);
    // A's centre in B's frame: Rᵀ(-t).
    let ta = rot.inv_rotate(-t);

    // Separations along A's and B's faces; the better face of each axis is
    // the one on the side of the other box's centre.
    let (sa, fa) = first_max(t, t.abs() - ha - wb);
    if sa > prediction {
        return Err(sa);
    }
    let (sb, fb) = first_max(ta, ta.abs() - hb - wa);
    if sb > prediction {
        return Err(sb);
    }
    // A's face unless B's is ahead by more than rounding (see `pair::faces`);
    // the scale is the largest coordinate of either box in A's frame.
    let use_b = sb > sa && {
        let scale = ha.max_element().max((t.abs() + wb).max_element());
        sb > sa + TIE_REL * scale
    };
    let sep = if use_b { sb } else { sa };

    // Reference face and incident edge, in A's frame. The incident edge's
    // normal is the most anti-parallel to the reference normal `n`: with `d`
    // the inward direction `-n` in the incident box's frame, it is the first
    // maximum of `[-d.y, d.x, d.y, -d.x]`, whose entries are entries of `R`.
    let (side, face, e0, e1) = if use_b {
        let (f, f2) = (fb, (fb + 1) & 3);
        let n = rot.rotate(Rect::NORMALS[f]);
        let d = -n;
        let (_, j) = first_max(d, d.abs());
        let j2 = (j + 1) & 3;
        let side = Side {
            n,
            r1: rel.transform_point(corner(hb, f)),
            r2: rel.transform_point(corner(hb, f2)),
            v1: f,
            v2: f2,
        };
        (side, f, (corner(ha, j), j), (corner(ha, j2), j2))
    } else {
        let (f, f2) = (fa, (fa + 1) & 3);
        let n = Rect::NORMALS[f];
        let d = rot.inv_rotate(-n);
        let (_, j) = first_max(d, d.abs());
        let j2 = (j + 1) & 3;
        let side = Side {
            n,
            r1: corner(ha, f),
            r2: corner(ha, f2),
            v1: f,
            v2: f2,
        };
        let e0 = (rel.transform_point(corner(hb, j)), j);
        let e1 = (rel.transform_point(corner(hb, j2)), j2);
        (side, f, e0, e1)
    };
    let Some(pts) = clip_edge(&side, face, e0, e1) else {
        return generic().ok_or(prediction);
    };

    if sep > 0.0 {
        // Separated: a face contact only when the deepest point is an
        // unclipped incident corner whose separation is the face's (then it
        // lies within the face and the distance is `sep`); otherwise the
        // closest features are two corners (generic route, GJK).
        let q = if pts[1].sep < pts[0].sep {
            &pts[1]
        } else {
            &pts[0]
        };
        let scale = ha.max_element().max((t.abs() + wb).max_element());
        let unclipped = q.feat_ref == crate::query::types::Feature::edge(face);
        if !unclipped || q.sep > sep + 1.0e-6 * scale {
            return generic().ok_or(prediction);
        }
    }
    let m = emit(pose_a, &side, use_b, &pts, prediction);
    if m.is_empty() {
        generic().ok_or(prediction)
    } else {
        Ok(m)
    }
}

/// The world-space manifold of clipped points (see `pair::from_faces`, whose
/// rules it follows for zero radii: a point on the incident edge, its
/// projection on the reference face, depth `-sep`, points deeper than
/// `-prediction` kept, coincident points merged).
#[inline(always)]
fn emit(
    pose_a: &Pose2,
    side: &Side,
    ref_is_b: bool,
    pts: &[ClipPoint; 2],
    prediction: f32,
) -> Manifold2 {
    // World normal of the reference face; the manifold normal points from A
    // to B. A clipped point lies on the incident edge; its partner on the
    // reference face is `sep` back along the reference normal, so only one
    // point per contact is mapped to world space.
    let n_ref = pose_a.rotation.rotate(side.n);
    let mut m = Manifold2::new(if ref_is_b { -n_ref } else { n_ref });
    let keep0 = -pts[0].sep >= -prediction;
    let keep1 = -pts[1].sep >= -prediction;
    // The generic route merges two points whose points on B coincide (an
    // incident edge seen end-on), keeping the deeper one.
    let merge = keep0 && keep1 && {
        let on_b = |q: &ClipPoint| {
            if ref_is_b {
                q.p - side.n * q.sep
            } else {
                q.p
            }
        };
        on_b(&pts[0]) == on_b(&pts[1])
    };
    let put = |m: &mut Manifold2, q: &ClipPoint| {
        let on_inc = pose_a.transform_point(q.p);
        let on_ref = on_inc - n_ref * q.sep;
        let (point_a, point_b, id) = if ref_is_b {
            (on_inc, on_ref, ContactId::new(q.feat_inc, q.feat_ref))
        } else {
            (on_ref, on_inc, ContactId::new(q.feat_ref, q.feat_inc))
        };
        m.push(ContactPoint2 {
            point_a,
            point_b,
            depth: -q.sep,
            id,
        });
    };
    if merge {
        put(&mut m, &pts[usize::from(-pts[1].sep > -pts[0].sep)]);
    } else {
        if keep0 {
            put(&mut m, &pts[0]);
        }
        if keep1 {
            put(&mut m, &pts[1]);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::d2::contact_generic;
    use crate::shape::d2::Shape;

    /// A fixed sequence of numbers in `[0, 1)` (a 64-bit LCG's top bits).
    fn uniform(state: &mut u64) -> f32 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Against the generic route on the same rects: the same manifold (normal
    /// and ids exactly, points to rounding), and the generic route is only
    /// needed for a small fraction of the touching pairs.
    #[test]
    fn matches_generic_route_and_rarely_defers() {
        let mut st = 12345u64;
        let mut u = |lo: f32, hi: f32| lo + (hi - lo) * uniform(&mut st);
        let (mut touching, mut deferred, mut separated) = (0, 0, 0);
        for i in 0..5000 {
            let ha = Vec2::new(u(0.1, 2.0), u(0.1, 2.0));
            let hb = Vec2::new(u(0.1, 2.0), u(0.1, 2.0));
            let pa = Pose2::new(Vec2::new(u(-5.0, 5.0), u(-5.0, 5.0)), u(-3.2, 3.2));
            let dir = Vec2::new(u(-1.0, 1.0), u(-1.0, 1.0)).normalize_or(Vec2::X);
            let reach = (ha.length() + hb.length()) * u(0.3, 1.05);
            let pb = Pose2::new(pa.translation + dir * reach, u(-3.2, 3.2));
            let prediction = if i % 2 == 0 { 0.05 } else { 0.0 };
            let (a, b) = (Rect::new(ha).unwrap(), Rect::new(hb).unwrap());
            let want = contact_generic(&a.into(), &pa, &Shape::Rect(b), &pb, prediction);
            let mut deferred_here = false;
            let got = contact_or_gap(&a, &pa, &b, &pb, prediction, || {
                deferred_here = true;
                None
            })
            .ok();
            if deferred_here {
                deferred += 1;
                continue;
            }
            match (got, want) {
                (None, None) => {}
                (Some(m), Some(w)) => {
                    touching += 1;
                    separated += usize::from(w.depth() < 0.0);
                    assert_eq!(m.normal, w.normal, "{i}");
                    assert_eq!(m.len(), w.len(), "{i}: {m:?} {w:?}");
                    for (p, q) in m.points().iter().zip(w.points()) {
                        assert_eq!(p.id, q.id, "{i}");
                        assert!((p.point_a - q.point_a).length() < 1e-5, "{i}");
                        assert!((p.point_b - q.point_b).length() < 1e-5, "{i}");
                        assert!((p.depth - q.depth).abs() < 1e-5, "{i}");
                    }
                }
                (m, w) => panic!("{i}: {m:?} vs {w:?}"),
            }
        }
        assert!(touching > 2000 && separated > 50, "{touching} {separated}");
        assert!(deferred * 50 < touching, "{deferred} of {touching}");
    }
}
