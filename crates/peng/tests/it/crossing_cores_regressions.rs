//! Regression cases of a capsule against a segment whose cores cross or nearly
//! cross, each found failing on a fresh soak, with its inputs exactly as
//! printed and a truth computed here in f64 from the same f32 inputs: the
//! closest points of the two core segments (closed form over the interior
//! stationary point and the four end projections), and the separation of the
//! shapes along a given direction from their exact support functions.

use glam::{DQuat, DVec3};
use peng::d3::*;

/// A pose from its f32 fields, as printed by the failing run (stored as is).
fn pose(t: [f32; 3], q: [f32; 4]) -> Pose3 {
    Pose3 {
        translation: Vec3::from(t),
        rotation: Quat::from_xyzw(q[0], q[1], q[2], q[3]),
    }
}

/// A local point of `p` in world space, in f64.
fn to_world(p: &Pose3, x: Vec3) -> DVec3 {
    let q = p.rotation;
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    q * x.as_dvec3() + p.translation.as_dvec3()
}

/// A core segment in world space (f64) and its radius.
struct Core {
    a: DVec3,
    b: DVec3,
    r: f64,
}

impl Core {
    fn of(s: &Shape, p: &Pose3) -> Core {
        let (a, b, r) = match s {
            Shape::Capsule(c) => (c.a(), c.b(), c.radius()),
            Shape::Segment(g) => (g.a(), g.b(), 0.0),
            _ => unreachable!("round shapes only"),
        };
        Core {
            a: to_world(p, a),
            b: to_world(p, b),
            r: r as f64,
        }
    }

    fn at(&self, t: f64) -> DVec3 {
        self.a + (self.b - self.a) * t
    }

    /// Distance from `x` to the core segment.
    fn dist(&self, x: DVec3) -> f64 {
        let d = self.b - self.a;
        let t = ((x - self.a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        x.distance(self.at(t))
    }

    /// Support value `max x·n` of the round shape (`n` unit).
    fn support(&self, n: DVec3) -> f64 {
        self.a.dot(n).max(self.b.dot(n)) + self.r
    }
}

/// Closest points of two segments in f64, `(distance, on a, on b)`: the
/// interior stationary point of `|p(s) − q(t)|²` when it lies in the square,
/// and every end projected on the other segment (the minimum is one of them).
fn closest(a: &Core, b: &Core) -> (f64, DVec3, DVec3) {
    let (d1, d2, r) = (a.b - a.a, b.b - b.a, a.a - b.a);
    let (aa, ee, bb) = (d1.dot(d1), d2.dot(d2), d1.dot(d2));
    let (c, f) = (d1.dot(r), d2.dot(r));
    let mut cand = Vec::new();
    let den = aa * ee - bb * bb;
    if den > 0.0 {
        let s = (bb * f - c * ee) / den;
        let t = (aa * f - bb * c) / den;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            cand.push((s, t));
        }
    }
    for s in [0.0, 1.0] {
        cand.push((s, ((bb * s + f) / ee).clamp(0.0, 1.0)));
    }
    for t in [0.0, 1.0] {
        cand.push((((bb * t - c) / aa).clamp(0.0, 1.0), t));
    }
    cand.into_iter()
        .map(|(s, t)| (a.at(s).distance(b.at(t)), a.at(s), b.at(t)))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap()
}

/// Separation of the shapes along `n` (from A to B): `min_B x·n − max_A x·n`,
/// negative when they overlap along it. Translating B by `−sep·n` separates
/// them exactly when `n` is an MTD.
fn separation(a: &Core, b: &Core, n: Vec3) -> f64 {
    let n = n.as_dvec3().normalize();
    -b.support(-n) - a.support(n)
}

/// The checks common to every case: the answer's depth and normal against
/// the f64 truth (`sd` the true signed distance of non-crossing cores), the
/// gap along the normal attaining the depth, and both witness points on their
/// surfaces with `point_b − point_a = −depth·normal`. The normal is within
/// `max_angle` of the direction between the closest points.
fn check_contact(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, max_angle: f64) {
    let (ca, cb) = (Core::of(a, pa), Core::of(b, pb));
    let (d, xa, xb) = closest(&ca, &cb);
    let sd = d - ca.r - cb.r;
    let truth = (xb - xa) / d;
    let m = contact(a, pa, b, pb, 0.0).expect("overlapping");
    let n = m.normal;
    let ang = n.as_dvec3().normalize().angle_between(truth);
    assert!(
        ang < max_angle,
        "normal {n} vs {truth}: {ang:.3e} rad; {m:?}"
    );
    assert!(
        (m.depth() as f64 + sd).abs() < 1e-5,
        "depth {} vs {}",
        m.depth(),
        -sd
    );
    let sep = separation(&ca, &cb, n);
    assert!(
        (sep - sd).abs() < 1e-5,
        "gap along the normal {sep} vs {sd}"
    );
    for p in m.points() {
        let (qa, qb) = (p.point_a.as_dvec3(), p.point_b.as_dvec3());
        let off_a = ca.dist(qa) - ca.r;
        let off_b = cb.dist(qb) - cb.r;
        // On the surface, or inside a capsule (a core point pushed out along
        // a tilted normal), never outside.
        let on = |off: f64, r: f64| off < 1e-5 && off > -r - 1e-5;
        assert!(on(off_a, ca.r), "point_a off A by {off_a:.3e}: {p:?}");
        assert!(on(off_b, cb.r), "point_b off B by {off_b:.3e}: {p:?}");
        let gap = qb - qa + n.as_dvec3() * p.depth as f64;
        assert!(
            gap.length() < 1e-5,
            "point_b − point_a + depth·n = {gap}: {p:?}"
        );
        assert!(
            p.depth as f64 <= -sd + 1e-5,
            "point depth {} beyond {}",
            p.depth,
            -sd
        );
    }
}

/// diff3d capsule_segment, seed 810025 (PENG_TEST_SCALE=4), pair #34726: the
/// cores pass 4.4e-4 apart, B's end against the inside of A's core. The
/// f32 difference of the closest points has an error of a few ulps of the
/// coordinates (about 3e-7 here), 1.3e-4 rad of which lay along A's core of
/// length 2.31: `distance`'s normal then overlapped by 0.61127 instead of
/// 0.61101 (the support of A moves to its far end when the normal tilts
/// towards its core).
#[test]
fn capsule_across_segment_end_distance_normal() {
    let a: Shape = Capsule::new(
        Vec3::new(0.17152217, -0.92059535, -0.60507053),
        Vec3::new(-0.34105656, 0.91762954, 0.7038501),
        0.61144257,
    )
    .unwrap()
    .into();
    let pa = pose(
        [3.1875138, -2.5322576, -0.8981252],
        [-0.27959588, 0.5734722, 0.7572035, -0.13999523],
    );
    let b: Shape = Segment::new(
        Vec3::new(0.33274043, -0.3554746, -1.330608),
        Vec3::new(1.1534702, -0.022645202, 0.8426762),
    )
    .unwrap()
    .into();
    let pb = pose(
        [2.5944102, -2.3783386, -2.6953788],
        [0.55575114, 0.67341584, -0.11985391, -0.47253242],
    );
    let (ca, cb) = (Core::of(&a, &pa), Core::of(&b, &pb));
    let (d, xa, xb) = closest(&ca, &cb);
    let sd = d - ca.r;
    let dd = distance(&a, &pa, &b, &pb);
    assert!(
        (dd.distance as f64 - sd).abs() < 1e-5,
        "{} vs {sd}",
        dd.distance
    );
    let sep = separation(&ca, &cb, dd.normal);
    assert!(
        (sep - sd).abs() < 1e-5,
        "gap along the normal {sep} vs {sd}: {dd:?}"
    );
    let ang = dd.normal.as_dvec3().angle_between((xb - xa) / d);
    // Only the part across A's core is left, where the separation is flat.
    assert!(ang < 2e-3, "{ang:.3e} rad: {dd:?}");
    let (qa, qb) = (dd.point_a.as_dvec3(), dd.point_b.as_dvec3());
    assert!((ca.dist(qa) - ca.r).abs() < 1e-5, "point_a off A: {dd:?}");
    assert!(cb.dist(qb) < 1e-5, "point_b off B: {dd:?}");
    let gap = qb - qa - dd.normal.as_dvec3() * dd.distance as f64;
    assert!(
        gap.length() < 1e-5,
        "point_b − point_a − distance·n = {gap}"
    );
    check_contact(&a, &pa, &b, &pb, 2e-3);
}
