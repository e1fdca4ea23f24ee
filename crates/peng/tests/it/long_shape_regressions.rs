//! Very long shapes (a half extent near the magnitude limit) against round
//! shapes, and ray limits below zero, each against an f64 truth.

use peng::d3::{self, Ball, Capsule, Cuboid, Pose3, Quat, Shape, Vec3};

/// The f64 distance from `p` to the box `|x_i| <= h_i`.
fn point_box(p: [f64; 3], h: [f64; 3]) -> f64 {
    let mut s = 0.0;
    let mut inside = f64::NEG_INFINITY;
    for i in 0..3 {
        let d = p[i].abs() - h[i];
        if d > 0.0 {
            s += d * d;
        }
        inside = inside.max(d);
    }
    if s > 0.0 {
        s.sqrt()
    } else {
        inside
    }
}

/// Rotates `v` by the unit quaternion `(x, y, z, w)` in f64, normalized first.
fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let (x, y, z, w) = (q[0] / n, q[1] / n, q[2] / n, q[3] / n);
    // v' = v + 2w (u × v) + 2 u × (u × v), u = (x, y, z).
    let u = [x, y, z];
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let t = cross(u, v);
    let t2 = cross(u, t);
    [
        v[0] + 2.0 * w * t[0] + 2.0 * t2[0],
        v[1] + 2.0 * w * t[1] + 2.0 * t2[1],
        v[2] + 2.0 * w * t[2] + 2.0 * t2[2],
    ]
}

/// Distance in f64 from the segment `a b` (radius `r`, world frame) to a
/// cuboid `h` at translation `t` and rotation `q`: the point-box distance
/// is convex along the segment, so a ternary search finds its minimum.
fn segment_box(a: [f64; 3], b: [f64; 3], r: f64, h: [f64; 3], t: [f64; 3], q: [f64; 4]) -> f64 {
    let qi = [-q[0], -q[1], -q[2], q[3]];
    let local = |s: f64| {
        let p = [
            a[0] + s * (b[0] - a[0]) - t[0],
            a[1] + s * (b[1] - a[1]) - t[1],
            a[2] + s * (b[2] - a[2]) - t[2],
        ];
        point_box(rotate(qi, p), h)
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if local(m1) <= local(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    local(0.5 * (lo + hi)) - r
}

fn f(v: Vec3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// The fuzzer's pair: a capsule against a cuboid 1e7 long, 2.79 apart.
#[test]
fn capsule_against_long_cuboid() {
    let (a, b, r) = (
        Vec3::new(0.0, -2.09375, 0.0),
        Vec3::new(0.0, 2.09375, 0.0),
        4.8125,
    );
    let h = Vec3::new(4.125, 4.21875, 1e7);
    let t = Vec3::new(3.39e-18, -0.375, -12.125);
    let q = Quat::from_xyzw(0.5413129, 0.51837593, -0.48167673, 0.45415235);
    let cap: Shape = Capsule::new(a, b, r).unwrap().into();
    let cub: Shape = Cuboid::new(h).unwrap().into();
    let pb = Pose3::try_new(t, q).unwrap();
    let qn = pb.rotation;
    let truth = segment_box(
        f(a),
        f(b),
        r as f64,
        f(h),
        f(pb.translation),
        [qn.x as f64, qn.y as f64, qn.z as f64, qn.w as f64],
    );
    let d = d3::distance(&cap, &Pose3::IDENTITY, &cub, &pb).distance as f64;
    let tol = 1e-3 * (1.0 + truth.abs());
    assert!((d - truth).abs() <= tol, "distance {d}, f64 truth {truth}");
}

/// A small seeded generator (SplitMix64): the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f32 {
        (lo + (hi - lo) * self.next()) as f32
    }
}

/// Long thin cuboids (one half extent 1e3..5e7, the box's centre near the
/// round shape) against balls, capsules and segments, in both orders, against
/// the f64 segment-box distance.
#[test]
fn long_cuboids_against_round_shapes() {
    let mut rng = Rng(0x5EED_0001);
    for case in 0..3000 {
        let long = 10f64.powf(3.0 + (5e7f64.log10() - 3.0) * rng.next()) as f32;
        let mut h = Vec3::new(
            rng.range(0.1, 10.0),
            rng.range(0.1, 10.0),
            rng.range(0.1, 10.0),
        );
        h[case % 3] = long;
        let q = Quat::from_xyzw(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let t = Vec3::new(
            rng.range(-20.0, 20.0),
            rng.range(-20.0, 20.0),
            rng.range(-20.0, 20.0),
        );
        let Ok(pb) = Pose3::try_new(t, q) else {
            continue;
        };
        let half = Vec3::new(
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
        );
        let r = rng.range(0.0, 5.0);
        let (a, b, round): (Vec3, Vec3, Shape) = match case % 4 {
            0 => (Vec3::ZERO, Vec3::ZERO, Ball::new(r).unwrap().into()),
            1 | 2 => (-half, half, Capsule::new(-half, half, r).unwrap().into()),
            _ => (
                -half,
                half,
                peng::d3::Segment::new(-half, half).unwrap().into(),
            ),
        };
        let r = if case % 4 == 3 { 0.0 } else { r };
        let cub: Shape = Cuboid::new(h).unwrap().into();
        let qn = pb.rotation;
        let truth = segment_box(
            f(a),
            f(b),
            r as f64,
            f(h),
            f(pb.translation),
            [qn.x as f64, qn.y as f64, qn.z as f64, qn.w as f64],
        );
        // Overlaps are measured by EPA against the far-away vertices; only
        // separated pairs have this referee.
        if truth <= 1e-3 {
            continue;
        }
        let tol = 1e-3 * (1.0 + truth.abs());
        let d = d3::distance(&round, &Pose3::IDENTITY, &cub, &pb).distance as f64;
        assert!(
            (d - truth).abs() <= tol,
            "case {case}: round-box distance {d}, f64 truth {truth}, h {h:?}, pose {pb:?}"
        );
        let d = d3::distance(&cub, &pb, &round, &Pose3::IDENTITY).distance as f64;
        assert!(
            (d - truth).abs() <= tol,
            "case {case}: box-round distance {d}, f64 truth {truth}, h {h:?}, pose {pb:?}"
        );
    }
}

/// A ray limit below 0 or NaN admits no time: no hit, in 2D and 3D (a ray
/// starting inside a solid shape used to hit at time 0 whatever the limit).
#[test]
fn ray_limit_below_zero_or_nan_finds_nothing() {
    use peng::d2;
    let ball3: Shape = Ball::new(1.0).unwrap().into();
    let ray3 = peng::d3::Ray3::new(Vec3::ZERO, Vec3::X).unwrap();
    let circle: d2::Shape = d2::Circle::new(1.0).unwrap().into();
    let ray2 = d2::Ray2::new(d2::Vec2::ZERO, d2::Vec2::X).unwrap();
    for limit in [-1.0, -0.0 - f32::MIN_POSITIVE, f32::NAN, f32::NEG_INFINITY] {
        for solid in [true, false] {
            let h = d3::ray_cast(&ball3, &Pose3::IDENTITY, &ray3, limit, solid);
            assert!(h.is_none(), "3D hit {h:?} under limit {limit}");
            let h = d2::ray_cast(&circle, &d2::Pose2::IDENTITY, &ray2, limit, solid);
            assert!(h.is_none(), "2D hit {h:?} under limit {limit}");
        }
    }
    // A zero limit still finds the hit at time 0 of a ray starting inside.
    let h = d3::ray_cast(&ball3, &Pose3::IDENTITY, &ray3, 0.0, true).unwrap();
    assert_eq!(h.toi, 0.0);
}

/// A cylinder (axis y) against a cuboid 1e7 long along y, turned about y:
/// the distance is the disc's distance to the turned square, in f64. GJK
/// read these gaps as touching (distance -0).
#[test]
fn cylinder_against_long_cuboid() {
    for k in 0..20 {
        let th = k as f32 * 0.07;
        let cyl: Shape = peng::d3::Cylinder::new(1.0, 1.0).unwrap().into();
        let cub: Shape = Cuboid::new(Vec3::new(1.0, 1e7, 1.0)).unwrap().into();
        let pb = Pose3::try_new(Vec3::new(4.5, 0.0, 0.0), Quat::from_rotation_y(th)).unwrap();
        // The cylinder's axis in the box's frame, at 4.5 from its centre.
        let th = th as f64;
        let truth = point_box([4.5 * th.cos(), 0.0, 4.5 * th.sin()], [1.0, 1e7, 1.0]) - 1.0;
        for d in [
            d3::distance(&cyl, &Pose3::IDENTITY, &cub, &pb).distance as f64,
            d3::distance(&cub, &pb, &cyl, &Pose3::IDENTITY).distance as f64,
        ] {
            assert!(
                (d - truth).abs() <= 1e-4,
                "th {th}: distance {d}, truth {truth}"
            );
        }
    }
}
