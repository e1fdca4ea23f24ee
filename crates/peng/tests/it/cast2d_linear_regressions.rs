//! 2D linear casts with their f64 truth: the separating-axis entry time of
//! two translating convex polygons, and their extents along the normal.
//!
//! - Nearly parallel rectangles (fresh seed 700007 of the differential
//!   test): the Minkowski difference of two nearly parallel faces is a
//!   sliver, the f32 closest point of GJK's triangle kept the old edge
//!   though the new vertex was 1.5e-4 nearer, GJK stalled, and the cast
//!   reported contact 2.3e-4 before it (23 times its tolerance).
//! - A triangle meeting a polygon corner to corner (soak seed 860252): the
//!   time was right but the normal was that of a chord of the difference
//!   between the two corners, 0.06 rad off; along it the shapes overlapped
//!   by 0.044.

use glam::DVec2;
use peng::d2::*;

/// The corners of rectangle `h` placed by `pose`, in f64.
fn corners(h: Vec2, pose: &Pose2) -> Vec<DVec2> {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let k = c.hypot(s);
    let (c, s) = (c / k, s / k);
    let t = pose.translation.as_dvec2();
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, y)| {
            let p = DVec2::new(x * h.x as f64, y * h.y as f64);
            DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + t
        })
        .to_vec()
}

/// The vertices of a polygon placed by `pose`, in f64.
fn placed(points: &[Vec2], pose: &Pose2) -> Vec<DVec2> {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let k = c.hypot(s);
    let (c, s) = (c / k, s / k);
    let t = pose.translation.as_dvec2();
    points
        .iter()
        .map(|p| {
            let p = p.as_dvec2();
            DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + t
        })
        .collect()
}

/// First time of contact of convex polygons `a` (still) and `b` moving by
/// `v` per unit time, or `None` before `t = 1`: each edge normal `n` of
/// either polygon separates until `t = (min_b n − max_a n) / −(n·v)` when the
/// gap closes; contact begins at the latest such time, if no axis has
/// already reopened by then (Ericson, Real-Time Collision Detection, 5.5.8).
fn entry_time(a: &[DVec2], b: &[DVec2], v: DVec2) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, 1.0f64);
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let n = DVec2::new(e.y, -e.x).normalize();
            let (lo_a, hi_a) = a
                .iter()
                .map(|p| n.dot(*p))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |r, x| {
                    (r.0.min(x), r.1.max(x))
                });
            let (lo_b, hi_b) = b
                .iter()
                .map(|p| n.dot(*p))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |r, x| {
                    (r.0.min(x), r.1.max(x))
                });
            let w = n.dot(v);
            // Overlap on this axis while lo_a - hi_b <= w t <= hi_a - lo_b.
            let (t0, t1) = if w > 0.0 {
                ((lo_a - hi_b) / w, (hi_a - lo_b) / w)
            } else if w < 0.0 {
                ((hi_a - lo_b) / w, (lo_a - hi_b) / w)
            } else if lo_a <= hi_b && lo_b <= hi_a {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                return None;
            };
            enter = enter.max(t0);
            exit = exit.min(t1);
        }
    }
    (enter <= exit).then_some(enter)
}

#[test]
fn nearly_parallel_rects_touch_when_the_faces_meet() {
    let a = Rect::new(Vec2::new(1.540905, 0.45531794)).unwrap();
    let b = Rect::new(Vec2::new(0.27387467, 0.610553)).unwrap();
    let pose_a = Pose2 {
        translation: Vec2::new(0.36874837, -0.15988392),
        rotation: Rot2 {
            cos: -0.61731493,
            sin: -0.78671616,
        },
    };
    let pose_b = Pose2 {
        translation: Vec2::new(3.7778378, -0.2837019),
        rotation: Rot2 {
            cos: 0.6178712,
            sin: 0.7862793,
        },
    };
    let (va, vb) = (
        Vec2::new(0.091308214, -0.27251893),
        Vec2::new(-4.694769, 0.07212627),
    );
    let truth = entry_time(
        &corners(a.half_extents(), &pose_a),
        &corners(b.half_extents(), &pose_b),
        (vb - va).as_dvec2(),
    )
    .expect("they touch");
    let opts = CastOptions {
        tolerance: 1e-5,
        ..CastOptions::default()
    };
    let (sa, sb): (Shape, Shape) = (a.into(), b.into());
    let hit = cast_linear(&sa, &pose_a, va, &sb, &pose_b, vb, &opts).expect("a hit");
    // The closing speed along the contact normal is about 3.98: a time off by
    // `δ` is a gap of 3.98·δ; the tolerance allows 1e-5 of gap, plus f32
    // rounding of the poses (a few 1e-7).
    let gap = (truth - hit.time as f64) * 3.98;
    assert!(
        (-1e-6..=1.2e-5).contains(&gap),
        "time {} vs {truth}: gap {gap:.2e} at the reported time",
        hit.time
    );
}

#[test]
fn corner_to_corner_contact_has_a_separating_normal() {
    let ta = [
        Vec2::ZERO,
        Vec2::new(0.6260229, 0.19397286),
        Vec2::new(0.0, 0.3802856),
    ];
    let pb = [
        Vec2::ZERO,
        Vec2::new(0.74444354, 0.82805437),
        Vec2::new(0.0, 0.9393819),
    ];
    let a: Shape = Triangle::new(ta[0], ta[1], ta[2]).unwrap().into();
    let b: Shape = ConvexPolygon::from_points(&pb).unwrap().into();
    let pose_a = Pose2 {
        translation: Vec2::ZERO,
        rotation: Rot2 {
            cos: 0.9519259,
            sin: 0.30632842,
        },
    };
    let pose_b = Pose2 {
        translation: Vec2::new(1.2873479, 1.6238009),
        rotation: Rot2 {
            cos: -0.9990342,
            sin: -0.04393918,
        },
    };
    let (va, vb) = (
        Vec2::new(-0.1953334, -0.35472265),
        Vec2::new(-0.2839061, -1.137128),
    );
    let (qa, qb) = (placed(&ta, &pose_a), placed(&pb, &pose_b));
    let v = (vb - va).as_dvec2();
    let truth = entry_time(&qa, &qb, v).expect("they touch");
    let hit =
        cast_linear(&a, &pose_a, va, &b, &pose_b, vb, &CastOptions::default()).expect("a hit");
    assert_eq!(hit.status, CastStatus::Hit);
    assert!(
        (hit.time as f64 - truth).abs() < 1e-4,
        "{} vs {truth}",
        hit.time
    );
    // At the reported time, A's extent along the normal ends where B's
    // begins (B moved relative to A), to the cast's tolerance (1e-4 of the
    // size) and f32 rounding.
    let n = hit.normal.as_dvec2();
    let shift = v * hit.time as f64;
    let reach_a = qa
        .iter()
        .map(|p| n.dot(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    let start_b = qb
        .iter()
        .map(|p| n.dot(*p + shift))
        .fold(f64::INFINITY, f64::min);
    assert!(
        reach_a - start_b <= 2e-4,
        "overlap {:.3e} along the normal {}",
        reach_a - start_b,
        hit.normal
    );
}
