//! A half-space against a translating shape, in closed form.

use super::common::{size, start_rule, tolerance, Start};
use crate::ccd::{CastHit3, CastOptions, CastStatus};
use crate::math::{Pose3, Vec3};
use crate::query::types::Distance3;
use crate::shape::d3::Shape;

/// The half-space `{n·x <= 0}` of A (local normal `n`) against B, both
/// translating. B's deepest point along `−n` is its support point `p`, which
/// translation does not change, so the signed height is
/// `h(t) = n·p + (n·vrel)·t` exactly (A's frame, `vrel` the velocity of B
/// relative to A): contact at `t = (h(0) − target) / (−n·vrel)`.
///
/// B may be any shape whose support function is its whole extent (bounded
/// convex shapes, meshes); a second half-space counts only when its normal is
/// opposite (a slab), else they overlap without bound (an infinite depth at
/// the start).
pub(super) fn cast_halfspace(
    normal: Vec3,
    pose_a: &Pose3,
    vel_a: Vec3,
    b: &Shape,
    pose_b: &Pose3,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let pose_ab = pose_a.inv_mul(pose_b);
    let dv = vel_b - vel_a;
    let vrel = pose_a.inverse_transform_vector(dv);
    let n = normal;
    let target = options.target_distance.max(0.0);
    let p = match b {
        Shape::HalfSpace(g) => {
            let nb = pose_ab.transform_vector(g.normal());
            if n.dot(nb) > -1.0 + 1e-6 {
                let d = Distance3 {
                    distance: f32::NEG_INFINITY,
                    point_a: pose_a.translation,
                    point_b: pose_a.translation,
                    normal: pose_a.transform_vector(n),
                };
                return match start_rule(&d, 0.0, target, 0.0, 0.0) {
                    Start::Hit(h) => Some(h),
                    _ => None,
                };
            }
            pose_ab.translation
        }
        _ => pose_ab.transform_point(b.local_support(pose_ab.inverse_transform_vector(-n))),
    };
    let coords = p.abs().max_element() + size(b);
    let tol = tolerance(options, size(b), coords);
    let h0 = n.dot(p);
    let rate = n.dot(vrel);
    let at = |t: f32, status, depth| {
        let pb = p + vrel * t;
        let pa = pb - n * n.dot(pb);
        CastHit3 {
            time: t,
            point_a: pose_a.transform_point(pa) + vel_a * t,
            point_b: pose_a.transform_point(pb) + vel_a * t,
            normal: pose_a.transform_vector(n),
            depth,
            status,
        }
    };
    let start = at(0.0, CastStatus::Hit, 0.0);
    let d0 = Distance3 {
        distance: h0,
        point_a: start.point_a,
        point_b: start.point_b,
        normal: start.normal,
    };
    match start_rule(&d0, rate, target, tol, 0.0) {
        Start::Hit(h) => return Some(h),
        Start::Leaving => return None,
        Start::Apart => {}
    }
    if !(rate < 0.0) {
        return None;
    }
    let t = (h0 - target) / -rate;
    (t <= options.max_time).then(|| at(t.max(0.0), CastStatus::Hit, 0.0))
}
