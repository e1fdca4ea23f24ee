//! The swept separating-axis test of two moving convex polygons.
//!
//! For convex polygons the face normals of both are the only candidate
//! separating axes (the edges of the Minkowski difference are edges of one or
//! the other). On one axis `n`, with B moving at `v` relative to A, B's
//! projection slides at speed `s = n·v`, so the set of times at which the two
//! projections overlap is one interval `[entry, exit]`. The shapes overlap
//! exactly when every axis overlaps, so they first touch at the largest entry
//! time, provided it is not after the smallest exit time (Ericson, Real-Time
//! Collision Detection 5.5.8, "Intersecting moving AABB", generalised to any
//! axes; van den Bergen, Collision Detection in Interactive 3D Environments,
//! 2004, on swept separating axes).

use super::convex::Convex;
use super::start::{classify, Start};
use crate::ccd::{CastHit2, CastOptions, CastStatus};
use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// Whether the shape is a polygon for [`swept_sat`]: a rect, triangle,
/// convex polygon or segment.
pub(crate) fn is_polygonal(s: &Shape) -> bool {
    matches!(
        s,
        Shape::Rect(_) | Shape::Triangle(_) | Shape::Polygon(_) | Shape::Segment(_)
    )
}

/// Points kept on the stack for small polygons.
const INLINE: usize = 16;

/// A list of points on the stack (or on the heap when long).
struct Points {
    inline: [Vec2; INLINE],
    heap: Vec<Vec2>,
    len: usize,
}

impl Points {
    fn new() -> Self {
        Points {
            inline: [Vec2::ZERO; INLINE],
            heap: Vec::new(),
            len: 0,
        }
    }

    fn push(&mut self, p: Vec2) {
        if self.len < INLINE {
            self.inline[self.len] = p;
        } else {
            if self.len == INLINE {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[Vec2] {
        if self.len <= INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

/// The candidate axes of a polygon's points `pts` (counter-clockwise when it
/// has area), rotated by `rot`: its edge normals; for a flat polygon or a
/// segment also its direction (so that collinear pieces separate along their
/// line); for a point the two coordinate axes. A rect gives its two axes.
fn axes(shape: &Shape, pts: &[Vec2], rot: impl Fn(Vec2) -> Vec2, out: &mut Points) {
    if let Shape::Rect(_) = shape {
        out.push(rot(Vec2::X));
        out.push(rot(Vec2::Y));
        return;
    }
    let n = pts.len();
    let mut longest = Vec2::ZERO;
    let mut area2 = 0.0f32;
    let edges = if n == 2 { 1 } else { n };
    for i in 0..edges {
        let e = pts[(i + 1) % n] - pts[i];
        area2 += pts[i].perp_dot(pts[(i + 1) % n]);
        if e.length_squared() > longest.length_squared() {
            longest = e;
        }
        let len = e.length();
        if len > 0.0 {
            out.push(rot(e.perp() / len));
        }
    }
    let len = longest.length();
    if len == 0.0 {
        out.push(rot(Vec2::X));
        out.push(rot(Vec2::Y));
    } else if n < 3 || area2.abs() <= 1e-6 * len * len {
        out.push(rot(longest / len));
    }
}

/// The projection interval of points on an axis.
#[inline]
fn project(pts: &[Vec2], n: Vec2) -> (f32, f32) {
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    for &p in pts {
        let d = n.dot(p);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo, hi)
}

/// The first contact of two polygonal shapes (rects, triangles, convex
/// polygons, segments) moving at constant velocities, by the swept
/// separating-axis test: per axis the entry and exit times of the overlap of
/// the projections; the first contact is the largest entry when it is not
/// after the smallest exit. Returns the time, the normal of the axis that
/// entered last (from A to B) and the middle of the touching features'
/// overlap as the contact point (`point_a` on A, `point_b` on B).
///
/// Exact for `target_distance == 0`. A positive target distance grows A's
/// projections by it, which is the Euclidean distance only where a face is
/// the closest feature: near vertex–vertex approaches the contact is found
/// early (conservative; [`cast_linear`](super::cast_linear) is exact there).
/// At the start the rule of the other casts applies (overlap: penetrating;
/// touching and not moving apart: touching; moving apart: `None`).
///
/// Returns `None` (no error) for shapes that are not polygonal: circles,
/// capsules, compounds and polylines (use [`cast_linear`](super::cast_linear)).
pub fn swept_sat(
    a: &Shape,
    pose_a: &Pose2,
    vel_a: Vec2,
    b: &Shape,
    pose_b: &Pose2,
    vel_b: Vec2,
    options: &CastOptions,
) -> Option<CastHit2> {
    if !is_polygonal(a) || !is_polygonal(b) {
        return None;
    }
    let ca = Convex::from_shape(a)?;
    let cb = Convex::from_shape(b)?;
    let pa = ca.points();
    let rel = pose_a.inv_mul(pose_b);
    let vw = vel_b - vel_a;
    let v = pose_a.rotation.inv_rotate(vw);
    let mut pb = Points::new();
    for &p in cb.points() {
        pb.push(rel.transform_point(p));
    }
    let pb = pb.as_slice();
    let mut ax = Points::new();
    axes(a, pa, |n| n, &mut ax);
    axes(b, cb.points(), |n| rel.rotation.rotate(n), &mut ax);

    let target = options.target_distance;
    let mut t_enter = f32::NEG_INFINITY;
    let mut t_exit = f32::INFINITY;
    let mut normal = Vec2::ZERO;
    for &n in ax.as_slice() {
        let (alo, ahi) = project(pa, n);
        let (lo, hi) = (alo - target, ahi + target);
        let (blo, bhi) = project(pb, n);
        let s = n.dot(v);
        // Overlap at time t: blo + s t <= hi and bhi + s t >= lo.
        let (entry, exit, side) = if s > 0.0 {
            ((lo - bhi) / s, (hi - blo) / s, -n)
        } else if s < 0.0 {
            ((hi - blo) / s, (lo - bhi) / s, n)
        } else if bhi < lo || blo > hi || !(s == 0.0) {
            return None;
        } else {
            continue;
        };
        if entry > t_enter {
            t_enter = entry;
            normal = side;
        }
        t_exit = t_exit.min(exit);
        if !(t_enter <= t_exit) || t_enter > options.max_time || t_exit < 0.0 {
            return None;
        }
    }
    if t_enter <= 0.0 {
        // The slop of the other casts' default tolerance.
        let tol = if options.tolerance > 0.0 {
            options.tolerance
        } else {
            1e-4 * crate::ccd::tolerance_size(ca.extent(), cb.extent())
        };
        return match classify(0.0, a, pose_a, b, pose_b, tol, |_, _, n| n.dot(vw)) {
            Start::Hit(h) if h.status == CastStatus::Penetrating || t_exit > 0.0 => Some(h),
            _ => None,
        };
    }
    let t = t_enter;
    // The touching features at `t`: A's points farthest along the normal, B's
    // (moved) points farthest against it, within a relative tolerance; the
    // contact point is the middle of their overlap along the tangent.
    let u = normal.perp();
    let eps = 1e-5 * (ca.extent() + cb.extent()).max(1e-3);
    let h_a = pa
        .iter()
        .fold(f32::NEG_INFINITY, |m, &p| m.max(normal.dot(p)));
    let h_b = pb
        .iter()
        .fold(f32::INFINITY, |m, &q| m.min(normal.dot(q + v * t)));
    let span = |pts: &[Vec2], shift: Vec2, keep: &dyn Fn(f32) -> bool| {
        pts.iter().filter(|&&p| keep(normal.dot(p + shift))).fold(
            (f32::INFINITY, f32::NEG_INFINITY),
            |(lo, hi), &p| {
                let x = u.dot(p + shift);
                (lo.min(x), hi.max(x))
            },
        )
    };
    let (a0, a1) = span(pa, Vec2::ZERO, &|d| d >= h_a - eps);
    let (b0, b1) = span(pb, v * t, &|d| d <= h_b + eps);
    let mid = 0.5 * (a0.max(b0) + a1.min(b1));
    let at = Pose2 {
        translation: pose_a.translation + vel_a * t,
        rotation: pose_a.rotation,
    };
    Some(CastHit2 {
        time: t,
        point_a: at.transform_point(normal * h_a + u * mid),
        point_b: at.transform_point(normal * h_b + u * mid),
        normal: at.transform_vector(normal),
        depth: 0.0,
        status: CastStatus::Hit,
    })
}
