//! Regression cases of the 3D capsule–capsule `contact`, found failing on
//! fresh seeds of the differential test against parry (`diff3d
//! capsule_capsule`), with a truth computed here in f64 from the same f32
//! inputs (segment–segment closest points, no peng query).

use glam::{DQuat, DVec3};
use peng::d3::*;

/// A pose from its f32 fields, as printed by the failing run.
fn pose(t: [f32; 3], q: [f32; 4]) -> Pose3 {
    Pose3::new(Vec3::from(t), Quat::from_xyzw(q[0], q[1], q[2], q[3]))
}

/// A local point of `p` into world space, in f64.
fn to_world(p: &Pose3, v: Vec3) -> DVec3 {
    let q = p.rotation;
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    q * v.as_dvec3() + p.translation.as_dvec3()
}

/// A capsule's core ends in world space, in f64.
fn core(c: &Capsule, p: &Pose3) -> [DVec3; 2] {
    [to_world(p, c.a()), to_world(p, c.b())]
}

/// Distance between segments `p` and `q` with the unit direction from `p`'s
/// closest point to `q`'s: the minimum of the four end-to-segment distances
/// and, when the lines' closest points lie inside both segments, the lines'
/// distance along `d_p × d_q` (the minimum of a convex function over the
/// parameter square is inside it or on its boundary).
fn segments_f64(p: [DVec3; 2], q: [DVec3; 2]) -> (f64, DVec3) {
    let to_seg = |x: DVec3, a: DVec3, b: DVec3| {
        let d = b - a;
        a + d * ((x - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
    };
    // (distance, direction from p to q)
    let mut best = (f64::INFINITY, DVec3::ZERO);
    let mut take = |from_p: DVec3, to_q: DVec3| {
        let d = to_q - from_p;
        if d.length() < best.0 {
            best = (d.length(), d.normalize());
        }
    };
    for x in p {
        take(x, to_seg(x, q[0], q[1]));
    }
    for y in q {
        take(to_seg(y, p[0], p[1]), y);
    }
    let (d1, d2, w) = (p[1] - p[0], q[1] - q[0], q[0] - p[0]);
    let n = d1.cross(d2);
    let s = w.cross(d2).dot(n) / n.length_squared();
    let t = w.cross(d1).dot(n) / n.length_squared();
    if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
        let gap = n.normalize().dot(w);
        if gap.abs() < best.0 {
            best = (gap.abs(), n.normalize() * gap.signum());
        }
    }
    best
}

/// The separation of two capsules along `n` (from A to B): B's least extent
/// minus A's greatest, `-g(n)` of their support functions. It is at most the
/// signed distance, with equality for the true normal.
fn separation(a: [DVec3; 2], ra: f64, b: [DVec3; 2], rb: f64, n: DVec3) -> f64 {
    let n = n.normalize();
    let hi_a = n.dot(a[0]).max(n.dot(a[1])) + ra;
    let lo_b = n.dot(b[0]).min(n.dot(b[1])) - rb;
    lo_b - hi_a
}

/// Two capsules whose cores cross within 4e-4 of each other (radii sum
/// 0.4074), their closest points inside both cores: `contact` took the normal
/// from the f32 difference of the two nearly equal closest points (2.4e-2 rad
/// off, separation along it -0.40811 against the true -0.40704), where the
/// cross product of the core directions gives it to full precision.
#[test]
fn nearly_touching_crossing_cores_have_the_cross_product_normal() {
    let ca = Capsule::new(
        Vec3::new(0.161_563_8, -0.813_437_6, -0.393_670_1),
        Vec3::new(-0.315_828_5, 0.857_513_4, 0.451_850_74),
        0.121_509_925,
    )
    .unwrap();
    let pa = pose(
        [2.279_686, -2.862_578, 1.507_529_3],
        [-0.817_935_4, -0.516_680_3, -0.248_369_81, -0.048_327_822],
    );
    let cb = Capsule::new(
        Vec3::new(1.184_292_3, -0.466_760_1, 0.142_898_68),
        Vec3::new(-0.985_833_35, 0.521_456_9, -0.106_881_86),
        0.285_927_83,
    )
    .unwrap();
    let pb = pose(
        [1.288_304_1, -2.911_987, 1.742_003_7],
        [0.306_729_58, -0.855_677_8, 0.354_549_23, -0.219_151_45],
    );
    let (a, b) = (core(&ca, &pa), core(&cb, &pb));
    let (ra, rb) = (ca.radius() as f64, cb.radius() as f64);
    let (gap, n) = segments_f64(a, b);
    let truth = gap - ra - rb;
    assert!(gap < 1e-3, "the cores nearly touch: {gap}");

    let (sa, sb): (Shape, Shape) = (ca.into(), cb.into());
    let m = contact(&sa, &pa, &sb, &pb, 0.0).expect("overlapping");
    let got = m.normal.as_dvec3();
    let angle = got.angle_between(n);
    let sep = separation(a, ra, b, rb, got);
    assert!(angle < 1e-4, "contact normal {got} vs {n}: {angle} rad");
    assert!((sep - truth).abs() < 1e-5, "separation {sep} vs {truth}");
    assert!(
        (-m.depth() as f64 - truth).abs() < 1e-5,
        "depth {} vs {}",
        m.depth(),
        -truth
    );
    // The same pair swapped: the opposite normal.
    let m = contact(&sb, &pb, &sa, &pa, 0.0).expect("overlapping");
    let got = m.normal.as_dvec3();
    assert!(got.angle_between(-n) < 1e-4, "swapped: {got} vs {}", -n);
    assert!((separation(b, rb, a, ra, got) - truth).abs() < 1e-5);
}
