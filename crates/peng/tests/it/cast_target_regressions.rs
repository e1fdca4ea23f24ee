//! Nonlinear casts with a target distance that start inside the target and
//! move apart too slowly to leave the band: the contact is at the start, and
//! a hit reported later (with the shapes still inside the target) is late.
//! Checked against the distance along the motion fine-stepped in f64.

use peng::d3::*;

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn scale(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn f64v(v: Vec3) -> V {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// `v` turned by the rotation vector `w` (Rodrigues).
fn rotate(w: V, v: V) -> V {
    let th = dot(w, w).sqrt();
    if th == 0.0 {
        return v;
    }
    let k = scale(w, 1.0 / th);
    let (s, c) = th.sin_cos();
    add(
        add(scale(v, c), scale(cross(k, v), s)),
        scale(k, dot(k, v) * (1.0 - c)),
    )
}

/// Distance from `p` to the segment `a b`.
fn point_segment(p: V, a: V, b: V) -> f64 {
    let ab = sub(b, a);
    let s = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    let q = sub(p, add(a, scale(ab, s)));
    dot(q, q).sqrt()
}

/// A ball (radius 1.84, centre off its rotation centre) turning and moving
/// past a fixed capsule, 0.0968 apart at the start with target 0.1, moving
/// apart at a few thousandths per unit time: the leaving steps run out
/// inside the target. (Seed 14 of the nonlinear cast property test.)
#[test]
fn leaving_start_inside_the_target_is_a_contact_at_the_start() {
    let (ra, rb) = (1.8377081f32, 1.9990668f32);
    let (cap_a, cap_b) = (
        Vec3::new(-0.5601368, -1.0, -0.3963642),
        Vec3::new(0.51283836, -0.9392872, 0.37579727),
    );
    let a: Shape = Ball::new(ra).unwrap().into();
    let b: Shape = Capsule::new(cap_a, cap_b, rb).unwrap().into();
    let xb = Pose3::new(
        Vec3::new(1.1967659, -1.410327, 2.2235298),
        Quat::from_xyzw(0.6665109, -0.36345658, -0.59345067, -0.26735514).normalize(),
    );
    let u = Vec3::new(0.3908062, 0.67165184, -0.96287346).normalize();
    let noise = Vec3::new(-0.38141632, -0.40239143, -0.9167557);
    let ma = Motion3 {
        start: Pose3::new(
            xb.translation + u * 5.0,
            Quat::from_xyzw(0.6352676, -0.27276042, -0.5862015, -0.42237976).normalize(),
        ),
        local_center: Vec3::new(0.42687988, 0.87753487, 0.85912704) * 0.5,
        linvel: -u * 2.7394485 + noise * 3.0,
        angvel: Vec3::new(-0.13827515, 0.8178692, -0.29363632) * 4.0,
    };
    let mb = Motion3::fixed(xb);
    let (target, tol) = (0.1f32, 1e-3f32);
    let o = CastOptions {
        max_time: 1.0,
        target_distance: target,
        tolerance: tol,
    };

    // Truth in f64: the ball's centre is A's origin; it turns about the
    // world rotation centre c(t) = c0 + v·t by the angle ω·t.
    let c0 = f64v(ma.start.transform_point(ma.local_center));
    let arm = sub(f64v(ma.start.translation), c0);
    let (v, w) = (f64v(ma.linvel), f64v(ma.angvel));
    let (pa, pb) = (
        f64v(xb.transform_point(cap_a)),
        f64v(xb.transform_point(cap_b)),
    );
    let truth = |t: f64| {
        let centre = add(add(c0, scale(v, t)), rotate(scale(w, t), arm));
        point_segment(centre, pa, pb) - ra as f64 - rb as f64
    };
    let d0 = truth(0.0);
    assert!(d0 > 0.0968 && d0 < 0.0969, "{d0}");

    let h = cast_nonlinear(&a, &ma, &b, &mb, &o).expect("inside the target at the start");
    // Never late: no time before the reported one is inside the target by
    // more than the tolerance (fine steps of 1e-6), nor the reported one for
    // a hit after the start.
    let n = (h.time as f64 * 1e6).ceil() as usize;
    for i in 0..n {
        let s = h.time as f64 * i as f64 / n as f64;
        let d = truth(s);
        assert!(
            d >= (target - tol) as f64,
            "inside the target at {s} (distance {d}) before the reported {h:?}"
        );
    }
    if h.time > 0.0 {
        let d = truth(h.time as f64);
        assert!(d >= (target - tol) as f64, "distance {d} at {h:?}");
    }
    assert_eq!(h.status, CastStatus::Touching, "{h:?}");
    assert_eq!(h.time, 0.0, "{h:?}");
    assert!(
        ((h.point_b - h.point_a).length() as f64 - d0).abs() < 1e-4,
        "{h:?}"
    );
}

/// The gap of two unit circles (balls), B fixed at the origin, A's centre
/// on a circle of radius 0.01 about `(2.08, 0)`, starting at angle `phi`
/// from +x and turning at unit rate: `|c + 0.01·(cos, sin)(phi + s)| − 2`,
/// always within `[0.07, 0.09]`, inside the target 0.1 all the time.
fn orbit_gap(phi: f64, s: f64) -> f64 {
    let (x, y) = (2.08 + 0.01 * (phi + s).cos(), 0.01 * (phi + s).sin());
    (x * x + y * y).sqrt() - 2.0
}

/// Checks a cast of the orbiting pair: some contact, none late against
/// [`orbit_gap`] (inside the target from the start, so only the start).
fn check_orbit(phi: f64, time: f32, status: CastStatus) {
    let d0 = orbit_gap(phi, 0.0);
    assert!(d0 < 0.0905 && d0 > 0.0695, "{d0}");
    let n = (time as f64 * 1e5).ceil() as usize;
    for i in 0..=n {
        let s = time as f64 * i as f64 / n.max(1) as f64;
        if s < time as f64 || time > 0.0 {
            let d = orbit_gap(phi, s);
            assert!(
                d >= 0.099,
                "inside the target at {s} ({d}), reported {time} {status:?}"
            );
        }
    }
    assert_eq!((time, status), (0.0, CastStatus::Touching));
}

/// 2D: separating at the start, turning back after about 10 leaving steps
/// (`phi = −0.01`), or only after the leaving steps run out (`phi = −π/2`).
#[test]
fn circle_orbiting_inside_the_target_touches_at_the_start() {
    use peng::d2::*;
    for phi in [-0.01f64, -std::f64::consts::FRAC_PI_2] {
        let arm = Vec2::new(phi.cos() as f32, phi.sin() as f32) * 0.01;
        let a: Shape = Circle::new(1.0).unwrap().into();
        let ma = Motion2 {
            start: Pose2::from_translation(Vec2::new(2.08, 0.0) + arm),
            local_center: -arm,
            linvel: Vec2::ZERO,
            angvel: 1.0,
        };
        let mb = Motion2::fixed(Pose2::IDENTITY);
        let o = CastOptions {
            max_time: 4.0,
            target_distance: 0.1,
            tolerance: 1e-3,
        };
        let h = cast_nonlinear(&a, &ma, &a, &mb, &o).expect("inside the target");
        check_orbit(phi, h.time, h.status);
    }
}

/// 3D: the same orbit in the xy plane, about the z axis.
#[test]
fn ball_orbiting_inside_the_target_touches_at_the_start() {
    for phi in [-0.01f64, -std::f64::consts::FRAC_PI_2] {
        let arm = Vec3::new(phi.cos() as f32, phi.sin() as f32, 0.0) * 0.01;
        let a: Shape = Ball::new(1.0).unwrap().into();
        let ma = Motion3 {
            start: Pose3::from_translation(Vec3::new(2.08, 0.0, 0.0) + arm),
            local_center: -arm,
            linvel: Vec3::ZERO,
            angvel: Vec3::Z,
        };
        let mb = Motion3::fixed(Pose3::IDENTITY);
        let o = CastOptions {
            max_time: 4.0,
            target_distance: 0.1,
            tolerance: 1e-3,
        };
        let h = cast_nonlinear(&a, &ma, &a, &mb, &o).expect("inside the target");
        check_orbit(phi, h.time, h.status);
    }
}
