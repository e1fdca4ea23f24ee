//! 3D casts against closed-form times of impact, normals and points.

use peng::d3::*;
use std::f32::consts::{FRAC_PI_4, PI};

fn cube(h: Vec3) -> Shape {
    Cuboid::new(h).unwrap().into()
}
fn ball(r: f32) -> Shape {
    Ball::new(r).unwrap().into()
}
fn at(x: f32, y: f32, z: f32) -> Pose3 {
    Pose3::from_translation(Vec3::new(x, y, z))
}
fn opts(max_time: f32) -> CastOptions {
    CastOptions {
        max_time,
        ..Default::default()
    }
}
fn close(a: Vec3, b: Vec3, eps: f32) -> bool {
    (a - b).length() <= eps
}
/// The time is never late and early by at most `early`.
fn time_ok(t: f32, expect: f32, early: f32) -> bool {
    t <= expect + 1e-5 * expect.max(1.0) && t >= expect - early
}

#[test]
fn balls_meet_at_the_roots_of_the_quadratic() {
    let o = opts(10.0);
    // Head on: gap 10 − 1.5 closed at speed 2.
    let h = cast_balls(
        Vec3::ZERO,
        0.5,
        Vec3::X * 2.0,
        Vec3::X * 10.0,
        1.0,
        Vec3::ZERO,
        &o,
    )
    .unwrap();
    assert!((h.time - 4.25).abs() < 1e-5, "{h:?}");
    assert_eq!(h.status, CastStatus::Hit);
    assert!(close(h.normal, Vec3::X, 1e-6));
    assert!(close(h.point_a, Vec3::new(9.0, 0.0, 0.0), 1e-4));
    assert!(close(h.point_b, Vec3::new(9.0, 0.0, 0.0), 1e-4));
    // Oblique: (5 − t)² + 1 = 2² gives t = 5 − √3.
    let h = cast_balls(
        Vec3::ZERO,
        1.0,
        Vec3::X,
        Vec3::new(5.0, 1.0, 0.0),
        1.0,
        Vec3::ZERO,
        &o,
    )
    .unwrap();
    let t = 5.0 - 3f32.sqrt();
    assert!((h.time - t).abs() < 1e-5, "{h:?}");
    let n = Vec3::new(5.0 - t, 1.0, 0.0).normalize();
    assert!(close(h.normal, n, 1e-5), "{h:?}");
    // The same through cast_linear, and both moving.
    let (a, b) = (ball(1.0), ball(1.0));
    let h2 = cast_linear(
        &a,
        &Pose3::IDENTITY,
        Vec3::X * 0.5,
        &b,
        &at(5.0, 1.0, 0.0),
        -Vec3::X * 0.5,
        &o,
    )
    .unwrap();
    assert!((h2.time - t).abs() < 1e-5, "{h2:?}");
    // Target distance 0.5: the gap to close is 0.5 less.
    let o2 = CastOptions {
        target_distance: 0.5,
        ..o
    };
    let h = cast_balls(
        Vec3::ZERO,
        0.5,
        Vec3::X * 2.0,
        Vec3::X * 10.0,
        1.0,
        Vec3::ZERO,
        &o2,
    )
    .unwrap();
    assert!((h.time - 4.0).abs() < 1e-5, "{h:?}");
    // Passing by 2.5 apart: no contact; moving apart: none.
    assert!(cast_balls(
        Vec3::ZERO,
        1.0,
        Vec3::X,
        Vec3::new(5.0, 2.5, 0.0),
        1.0,
        Vec3::ZERO,
        &o
    )
    .is_none());
    assert!(cast_balls(
        Vec3::ZERO,
        1.0,
        -Vec3::X,
        Vec3::X * 5.0,
        1.0,
        Vec3::ZERO,
        &o
    )
    .is_none());
    // Too short a time.
    assert!(cast_balls(
        Vec3::ZERO,
        0.5,
        Vec3::X * 2.0,
        Vec3::X * 10.0,
        1.0,
        Vec3::ZERO,
        &opts(4.0)
    )
    .is_none());
}

#[test]
fn box_falls_on_a_box() {
    let a = cube(Vec3::new(1.0, 0.5, 1.0));
    let b = cube(Vec3::new(2.0, 1.0, 2.0));
    // Bottom of A at 4.5, top of B at 1: the gap 3.5 closes at speed 2.
    for rot in [0.0, 0.7, FRAC_PI_4] {
        let pa = Pose3::from_axis_angle(Vec3::new(0.3, 5.0, -0.2), Vec3::Y * rot);
        let h = cast_linear(
            &a,
            &pa,
            Vec3::new(0.0, -2.0, 0.0),
            &b,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &opts(2.0),
        )
        .unwrap();
        assert_eq!(h.status, CastStatus::Hit);
        assert!(time_ok(h.time, 1.75, 1e-3 / 2.0), "{rot} {h:?}");
        assert!(close(h.normal, -Vec3::Y, 1e-4), "{h:?}");
        assert!(
            (h.point_a.y - 1.0).abs() < 1e-3 && (h.point_b.y - 1.0).abs() < 1e-3,
            "{h:?}"
        );
        // The witnesses lie in the overlap of the faces.
        for p in [h.point_a, h.point_b] {
            assert!(p.x.abs() <= 2.0 + 1e-4 && p.z.abs() <= 2.0 + 1e-4);
            let local = pa.inverse_transform_point(p - Vec3::new(0.0, -2.0 * h.time, 0.0));
            assert!(
                local.x.abs() <= 1.0 + 1e-3 && local.z.abs() <= 1.0 + 1e-3,
                "{local}"
            );
        }
        // Both moving: the same relative motion.
        let h2 = cast_linear(
            &a,
            &pa,
            Vec3::new(0.0, -1.0, 0.0),
            &b,
            &Pose3::IDENTITY,
            Vec3::Y,
            &opts(2.0),
        )
        .unwrap();
        assert!(time_ok(h2.time, 1.75, 1e-3 / 2.0), "{h2:?}");
    }
    // A cube of half-extent 1 turned 45° about z stands on an edge √2
    // below its centre: from y = 5 down to B's top at 1.
    let c = cube(Vec3::ONE);
    let pa = Pose3::from_axis_angle(Vec3::new(0.0, 5.0, 0.0), Vec3::Z * FRAC_PI_4);
    let h = cast_linear(
        &c,
        &pa,
        -Vec3::Y,
        &b,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(10.0),
    )
    .unwrap();
    let t = 5.0 - 2f32.sqrt() - 1.0;
    assert!(time_ok(h.time, t, 1e-3), "{h:?} {t}");
    assert!(close(h.normal, -Vec3::Y, 1e-3), "{h:?}");
    assert!(
        h.point_a.x.abs() < 1e-3 && (h.point_a.y - 1.0).abs() < 1e-3,
        "{h:?}"
    );
}

#[test]
fn capsule_against_cuboid() {
    let b = cube(Vec3::ONE);
    // Upright capsule sliding in x: surface at −4.5 reaches −1 after 3.5/4.
    let cap: Shape = Capsule::vertical(1.0, 0.5).unwrap().into();
    let h = cast_linear(
        &cap,
        &at(-5.0, 0.3, 0.0),
        Vec3::X * 4.0,
        &b,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!(time_ok(h.time, 0.875, 1e-4), "{h:?}");
    assert!(close(h.normal, Vec3::X, 1e-4), "{h:?}");
    assert!((h.point_b.x + 1.0).abs() < 1e-4);
    // A capsule along z moving diagonally onto the box's edge x = y = 1: the
    // axis is 2√2 from the edge and closes at √2 per unit time.
    let cap: Shape = Capsule::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0), 0.5)
        .unwrap()
        .into();
    let h = cast_linear(
        &cap,
        &at(3.0, 3.0, 0.2),
        Vec3::new(-1.0, -1.0, 0.0),
        &b,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(5.0),
    )
    .unwrap();
    let t = 2.0 - 0.5 / 2f32.sqrt();
    assert!(time_ok(h.time, t, 1e-3), "{h:?} {t}");
    assert!(
        close(h.normal, Vec3::new(-1.0, -1.0, 0.0).normalize(), 1e-3),
        "{h:?}"
    );
    assert!(
        close(h.point_b, Vec3::new(1.0, 1.0, h.point_b.z), 1e-3),
        "{h:?}"
    );
    // Roles swapped: same time, normal reversed.
    let s = cast_linear(
        &b,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &cap,
        &at(3.0, 3.0, 0.2),
        Vec3::new(-1.0, -1.0, 0.0),
        &opts(5.0),
    )
    .unwrap();
    assert!(
        (s.time - h.time).abs() < 1e-4 && close(s.normal, -h.normal, 1e-3),
        "{s:?}"
    );
}

#[test]
fn rod_turning_about_its_end_hits_a_wall() {
    // A capsule rod of length 2 and radius 0.1 from its end at the origin,
    // turning about z at 1 rad per unit time; the wall's face is y = 1. The
    // tip's top reaches it when 2·sin θ + 0.1 = 1.
    let rod: Shape = Capsule::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), 0.1)
        .unwrap()
        .into();
    let ma = Motion3 {
        angvel: Vec3::Z,
        ..Motion3::fixed(Pose3::IDENTITY)
    };
    let expect = (0.45f32).asin();
    let ceiling: Shape = TriMesh::new(
        vec![
            Vec3::new(-5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
            Vec3::new(-5.0, 0.0, 5.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap()
    .into();
    let walls: [(Shape, Pose3); 4] = [
        (cube(Vec3::new(5.0, 0.5, 5.0)), at(0.0, 1.5, 0.0)),
        (HalfSpace::new(-Vec3::Y).unwrap().into(), at(0.0, 1.0, 0.0)),
        (ceiling, at(0.0, 1.0, 0.0)),
        (
            Compound::new(vec![(at(0.0, 0.5, 0.0), cube(Vec3::new(5.0, 0.5, 5.0)))])
                .unwrap()
                .into(),
            at(0.0, 1.0, 0.0),
        ),
    ];
    for (wall, pose) in &walls {
        let mb = Motion3::fixed(*pose);
        let h = cast_nonlinear(&rod, &ma, wall, &mb, &opts(PI)).unwrap();
        // Early by at most the tolerance (1e-4 of the larger size, under
        // 1e-3) over the tip's approach speed 2·cos θ > 1.7.
        assert!(time_ok(h.time, expect, 1e-3), "{h:?} {expect}");
        assert_eq!(h.status, CastStatus::Hit);
        assert!(close(h.normal, Vec3::Y, 1e-2), "{h:?}");
        let d = distance(&rod, &ma.pose_at(h.time), wall, pose);
        assert!(d.distance >= -1e-5 && d.distance <= 1e-3, "{d:?}");
    }
    // A rotating compound (a dumbbell of two balls of radius 0.2 at ±1.5 on
    // x) against the same walls: a ball's top reaches y = 1 when
    // 1.5·sin θ + 0.2 = 1.
    let bell: Shape = Compound::new(vec![
        (at(-1.5, 0.0, 0.0), ball(0.2)),
        (at(1.5, 0.0, 0.0), ball(0.2)),
    ])
    .unwrap()
    .into();
    let expect_bell = (0.8f32 / 1.5).asin();
    for (wall, pose) in &walls {
        let h = cast_nonlinear(&bell, &ma, wall, &Motion3::fixed(*pose), &opts(PI)).unwrap();
        assert!(time_ok(h.time, expect_bell, 2e-3), "{h:?} {expect_bell}");
    }
    // Turning the other way the rod swings down and comes up on the far
    // side: no contact within 0.9π, contact at π + asin(0.45) within 2π.
    let away = Motion3 {
        angvel: -Vec3::Z,
        ..ma
    };
    let mb = Motion3::fixed(walls[0].1);
    assert!(cast_nonlinear(&rod, &away, &walls[0].0, &mb, &opts(0.9 * PI)).is_none());
    let h = cast_nonlinear(&rod, &away, &walls[0].0, &mb, &opts(2.0 * PI)).unwrap();
    assert!(time_ok(h.time, PI + expect, 2e-3), "{h:?}");
}

#[test]
fn tilting_ground_reaches_a_ball() {
    // The ground y <= 0 turns about z at 1 rad per unit time; its normal at
    // angle θ is (−sin θ, cos θ, 0), so a ball of radius 0.5 at (2, 1, 0) is
    // cos θ − 2·sin θ − 0.5 above it (root by bisection).
    let ground: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let mg = Motion3 {
        angvel: Vec3::Z,
        ..Motion3::fixed(Pose3::IDENTITY)
    };
    let mb = Motion3::fixed(at(2.0, 1.0, 0.0));
    let f = |th: f32| th.cos() - 2.0 * th.sin() - 0.5;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid
        } else {
            hi = mid
        }
    }
    let h = cast_nonlinear(&ground, &mg, &ball(0.5), &mb, &opts(1.0)).unwrap();
    assert!(time_ok(h.time, lo, 2e-3), "{h:?} {lo}");
    assert!(
        close(h.normal, Vec3::new(-lo.sin(), lo.cos(), 0.0), 1e-3),
        "{h:?}"
    );
    // Turning the other way, it tilts away.
    let away = Motion3 {
        angvel: -Vec3::Z,
        ..mg
    };
    assert!(cast_nonlinear(&ground, &away, &ball(0.5), &mb, &opts(1.0)).is_none());
}

#[test]
fn starts_penetrating_or_touching() {
    let a = cube(Vec3::ONE);
    // Overlapping by 0.25 along x.
    let h = cast_linear(
        &a,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &a,
        &at(1.75, 0.2, 0.0),
        Vec3::X,
        &opts(1.0),
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Penetrating);
    assert_eq!(h.time, 0.0);
    assert!((h.depth - 0.25).abs() < 1e-5, "{h:?}");
    assert!(close(h.normal, Vec3::X, 1e-5));
    assert!(
        (h.point_a.x - 1.0).abs() < 1e-4 && (h.point_b.x - 0.75).abs() < 1e-4,
        "{h:?}"
    );
    // Balls overlapping by 0.5 even when separating.
    let h = cast_balls(
        Vec3::ZERO,
        1.0,
        Vec3::ZERO,
        Vec3::Y * 1.5,
        1.0,
        Vec3::Y,
        &opts(1.0),
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Penetrating);
    assert!((h.depth - 0.5).abs() < 1e-6 && close(h.normal, Vec3::Y, 1e-6));
    // Touching face to face, approaching or sliding: touching; leaving: none.
    for (v, hit) in [(-Vec3::X, true), (Vec3::Z, true), (Vec3::X, false)] {
        let h = cast_linear(
            &a,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &a,
            &at(2.0, 0.3, 0.0),
            v,
            &opts(1.0),
        );
        assert_eq!(h.is_some(), hit, "{v} {h:?}");
        if let Some(h) = h {
            assert_eq!(h.status, CastStatus::Touching);
            assert_eq!(h.time, 0.0);
            assert!(close(h.normal, Vec3::X, 1e-4));
        }
        let nonlinear = cast_nonlinear(
            &a,
            &Motion3::fixed(Pose3::IDENTITY),
            &a,
            &Motion3::linear(at(2.0, 0.3, 0.0), v),
            &opts(1.0),
        );
        assert_eq!(nonlinear.is_some(), hit, "{v} {nonlinear:?}");
    }
    // Within the target distance at the start counts as touching.
    let o = CastOptions {
        target_distance: 0.5,
        ..opts(1.0)
    };
    let h = cast_linear(
        &a,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &a,
        &at(2.3, 0.0, 0.0),
        -Vec3::X,
        &o,
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Touching);
}

#[test]
fn misses() {
    let a = cube(Vec3::ONE);
    let cyl: Shape = Cylinder::new(1.0, 0.5).unwrap().into();
    let cone: Shape = Cone::new(1.0, 0.5).unwrap().into();
    for s in [&a, &cyl, &cone] {
        // Passing 3 above, moving away, standing still, or too slow.
        for (pose, v, t) in [
            (at(-5.0, 3.5, 0.0), Vec3::X * 10.0, 1.0),
            (at(5.0, 0.0, 0.0), Vec3::X, 1.0),
            (at(5.0, 0.0, 0.0), Vec3::ZERO, 1.0),
            (at(5.0, 0.0, 0.0), -Vec3::X, 1.0),
        ] {
            assert!(
                cast_linear(&a, &Pose3::IDENTITY, Vec3::ZERO, s, &pose, v, &opts(t)).is_none(),
                "{s:?} {pose:?}"
            );
        }
        // ... but the slow one arrives later.
        assert!(cast_linear(
            &a,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            s,
            &at(5.0, 0.0, 0.0),
            -Vec3::X,
            &opts(4.0)
        )
        .is_some());
    }
}

#[test]
fn half_space_compound_and_mesh_targets() {
    let ground: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let b = ball(1.0);
    let h = cast_linear(
        &b,
        &at(3.0, 5.0, 1.0),
        -Vec3::Y * 2.0,
        &ground,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(5.0),
    )
    .unwrap();
    assert!((h.time - 2.0).abs() < 1e-5, "{h:?}");
    assert!(close(h.normal, -Vec3::Y, 1e-6) && close(h.point_b, Vec3::new(3.0, 0.0, 1.0), 1e-4));
    // A cube turned 45° about z: its lowest edge is √2 below its centre.
    let c = cube(Vec3::ONE);
    let pc = Pose3::from_axis_angle(Vec3::new(0.0, 5.0, 0.0), Vec3::Z * FRAC_PI_4);
    let h = cast_linear(
        &ground,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &c,
        &pc,
        -Vec3::Y * 2.0,
        &opts(5.0),
    )
    .unwrap();
    assert!((h.time - (5.0 - 2f32.sqrt()) / 2.0).abs() < 1e-5, "{h:?}");
    assert!(close(h.normal, Vec3::Y, 1e-6));

    // A compound: two cubes at x = ±3 and a small ball on top in the middle.
    let comp: Shape = Compound::new(vec![
        (at(-3.0, 0.0, 0.0), c.clone()),
        (at(3.0, 0.0, 0.0), c.clone()),
        (at(0.0, 2.0, 0.0), ball(0.5)),
    ])
    .unwrap()
    .into();
    let small = ball(0.5);
    for (x, t) in [(3.0, 3.5), (-3.4, 3.5), (0.0, 2.0)] {
        let h = cast_linear(
            &small,
            &at(x, 5.0, 0.0),
            -Vec3::Y,
            &comp,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &opts(10.0),
        )
        .unwrap();
        assert!((h.time - t).abs() < 1e-4, "{x} {h:?}");
        assert!(close(h.normal, -Vec3::Y, 1e-4));
        // The compound as A: same time, normal reversed.
        let s = cast_linear(
            &comp,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &small,
            &at(x, 5.0, 0.0),
            -Vec3::Y,
            &opts(10.0),
        )
        .unwrap();
        assert!(
            (s.time - t).abs() < 1e-4 && close(s.normal, Vec3::Y, 1e-4),
            "{s:?}"
        );
        // Nonlinear cast against the compound agrees (early by <= tol).
        let n = cast_nonlinear(
            &small,
            &Motion3::linear(at(x, 5.0, 0.0), -Vec3::Y),
            &comp,
            &Motion3::fixed(Pose3::IDENTITY),
            &opts(10.0),
        )
        .unwrap();
        assert!(time_ok(n.time, t, 2e-3), "{x} {n:?}");
    }
    // Between the parts: nothing.
    assert!(cast_linear(
        &small,
        &at(1.2, 5.0, 0.0),
        -Vec3::Y,
        &comp,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(10.0)
    )
    .is_none());

    // A triangle mesh floor (two triangles) and a thin wall hit by a fast
    // bullet that a discrete test would step over.
    let floor: Shape = TriMesh::new(
        vec![
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(10.0, 0.0, -10.0),
            Vec3::new(10.0, 0.0, 10.0),
            Vec3::new(-10.0, 0.0, 10.0),
        ],
        vec![[0, 2, 1], [0, 3, 2]],
    )
    .unwrap()
    .into();
    let h = cast_linear(
        &b,
        &at(1.0, 4.0, 2.0),
        -Vec3::Y * 2.0,
        &floor,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(5.0),
    )
    .unwrap();
    assert!((h.time - 1.5).abs() < 1e-4, "{h:?}");
    let h = cast_linear(
        &c,
        &pc,
        -Vec3::Y * 2.0,
        &floor,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(5.0),
    )
    .unwrap();
    assert!(time_ok(h.time, (5.0 - 2f32.sqrt()) / 2.0, 1e-3), "{h:?}");
    let wall: Shape = TriMesh::new(
        vec![
            Vec3::new(0.0, -1.0, -1.0),
            Vec3::new(0.0, 1.0, -1.0),
            Vec3::new(0.0, 1.0, 1.0),
            Vec3::new(0.0, -1.0, 1.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap()
    .into();
    let bullet = ball(0.05);
    let h = cast_linear(
        &bullet,
        &at(-5.0, 0.2, 0.3),
        Vec3::X * 100.0,
        &wall,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!(time_ok(h.time, 4.95 / 100.0, 1e-6), "{h:?}");
    assert!(close(h.normal, Vec3::X, 1e-4));
    // A height field floor (flat at height 0.5).
    let field: Shape = HeightField::new(4, 4, vec![0.5; 16], glam::Vec2::new(2.0, 2.0))
        .unwrap()
        .into();
    let h = cast_linear(
        &b,
        &at(0.5, 4.0, -0.5),
        -Vec3::Y * 2.0,
        &field,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(5.0),
    )
    .unwrap();
    assert!((h.time - 1.25).abs() < 1e-4, "{h:?}");
}

/// A compound floor: one thin box whose top is y = 0.
fn comp_floor() -> Shape {
    Compound::new(vec![(at(0.0, -0.5, 0.0), cube(Vec3::new(5.0, 0.5, 5.0)))])
        .unwrap()
        .into()
}

#[test]
fn degenerate_inputs() {
    let a = cube(Vec3::ONE);
    // A zero-radius ball (a point) and a zero-size box.
    let point = ball(0.0);
    let h = cast_linear(
        &point,
        &at(0.0, 5.0, 0.0),
        -Vec3::Y,
        &a,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(10.0),
    )
    .unwrap();
    assert!(time_ok(h.time, 4.0, 1e-3), "{h:?}");
    let flat = cube(Vec3::new(1.0, 0.0, 1.0));
    let h = cast_linear(
        &flat,
        &at(0.0, 5.0, 0.0),
        -Vec3::Y,
        &a,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(10.0),
    )
    .unwrap();
    assert!(time_ok(h.time, 4.0, 1e-3), "{h:?}");
    // Huge and tiny scales: the box drop scaled by s.
    for s in [1e5f32, 1e-4] {
        let big = cube(Vec3::splat(s));
        let h = cast_linear(
            &big,
            &at(0.0, 5.0 * s, 0.0),
            -Vec3::Y * s,
            &big,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &opts(10.0),
        )
        .unwrap();
        assert!(time_ok(h.time, 3.0, 1e-3), "{s} {h:?}");
        let n = cast_nonlinear(
            &big,
            &Motion3::linear(at(0.0, 5.0 * s, 0.0), -Vec3::Y * s),
            &big,
            &Motion3::fixed(Pose3::IDENTITY),
            &opts(10.0),
        )
        .unwrap();
        assert!(time_ok(n.time, 3.0, 1e-3), "{s} {n:?}");
        let b = cast_balls(
            Vec3::Y * 5.0 * s,
            s,
            -Vec3::Y * s,
            Vec3::ZERO,
            s,
            Vec3::ZERO,
            &opts(10.0),
        )
        .unwrap();
        assert!((b.time - 3.0).abs() < 1e-4, "{s} {b:?}");
    }
    // An unbounded time range (parry's default is f32::MAX) changes nothing.
    for t_max in [f32::INFINITY, f32::MAX] {
        let o = opts(t_max);
        let h = cast_linear(
            &a,
            &at(0.0, 5.0, 0.0),
            -Vec3::Y,
            &a,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &o,
        )
        .unwrap();
        assert!(time_ok(h.time, 3.0, 1e-3), "{t_max} {h:?}");
        let n = cast_nonlinear(
            &a,
            &Motion3::linear(at(0.0, 5.0, 0.0), -Vec3::Y),
            &a,
            &Motion3::fixed(Pose3::IDENTITY),
            &o,
        )
        .unwrap();
        assert!(time_ok(n.time, 3.0, 1e-3), "{t_max} {n:?}");
        let c = cast_linear(
            &point,
            &at(0.5, 5.0, 0.0),
            -Vec3::Y,
            &comp_floor(),
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &o,
        )
        .unwrap();
        assert!(time_ok(c.time, 5.0, 1e-3), "{t_max} {c:?}");
        assert!(cast_linear(
            &a,
            &at(0.0, 5.0, 0.0),
            Vec3::Y,
            &a,
            &Pose3::IDENTITY,
            Vec3::ZERO,
            &o
        )
        .is_none());
    }
    // NaN never panics.
    let nan = at(f32::NAN, 0.0, 0.0);
    let _ = cast_linear(
        &a,
        &nan,
        Vec3::X,
        &a,
        &Pose3::IDENTITY,
        Vec3::ZERO,
        &opts(1.0),
    );
    let _ = cast_linear(
        &a,
        &Pose3::IDENTITY,
        Vec3::NAN,
        &a,
        &at(3.0, 0.0, 0.0),
        Vec3::ZERO,
        &opts(1.0),
    );
    let _ = cast_linear(
        &a,
        &Pose3::IDENTITY,
        Vec3::X,
        &a,
        &at(3.0, 0.0, 0.0),
        Vec3::ZERO,
        &opts(f32::NAN),
    );
    let _ = cast_nonlinear(
        &a,
        &Motion3 {
            angvel: Vec3::NAN,
            ..Motion3::fixed(Pose3::IDENTITY)
        },
        &a,
        &Motion3::fixed(at(3.0, 0.0, 0.0)),
        &opts(1.0),
    );
}

/// Small shapes thrown obliquely at a huge face (a 200 m wall, 1 cm thick)
/// get the face normal at impact: stopping within tolerance leaves GJK's
/// simplex on far corners of the wall, and the normal must not follow it.
#[test]
fn small_shapes_on_a_huge_face_get_the_face_normal() {
    let wall: Shape = Cuboid::new(Vec3::new(0.005, 100.0, 100.0)).unwrap().into();
    let shapes: [Shape; 3] = [
        Ball::new(0.002).unwrap().into(),
        Cuboid::new(Vec3::splat(0.002)).unwrap().into(),
        Capsule::new(
            Vec3::new(0.0, -0.003, 0.0),
            Vec3::new(0.0, 0.003, 0.0),
            0.001,
        )
        .unwrap()
        .into(),
    ];
    let mut worst = 0.0f32;
    for (k, s) in shapes.iter().enumerate() {
        for i in 0..400 {
            // Directions within 60 degrees of +x, starts 0.1-16 m away.
            let a = i as f32 * 0.618_034 * std::f32::consts::TAU;
            let tilt = (i % 20) as f32 / 20.0 * 1.0;
            let dir = Vec3::new(tilt.cos(), tilt.sin() * a.cos(), tilt.sin() * a.sin());
            let start = Vec3::new(-0.1 - (i % 37) as f32 * 0.43, (i % 11) as f32 - 5.0, 2.5);
            let rot = Quat::from_rotation_y(i as f32 * 0.3) * Quat::from_rotation_z(i as f32 * 0.7);
            let pose = Pose3::new(start, rot);
            for opts in [
                CastOptions::default(),
                CastOptions {
                    tolerance: 1e-6,
                    ..CastOptions::default()
                },
            ] {
                let h = cast_linear(
                    s,
                    &pose,
                    dir * 40.0,
                    &wall,
                    &Pose3::IDENTITY,
                    Vec3::ZERO,
                    &opts,
                )
                .unwrap_or_else(|| panic!("shape {k} cast {i} missed"));
                let err = (h.normal - Vec3::X).length();
                worst = worst.max(err);
                assert!(err < 2e-3, "shape {k} cast {i}: normal {} {h:?}", h.normal);
                // The witnesses touch, on the wall's face.
                let gap = (h.point_b - h.point_a).length();
                assert!(
                    gap < 1e-3,
                    "shape {k} cast {i}: witnesses {gap} apart {h:?}"
                );
                assert!(
                    (h.point_b.x + 0.005).abs() < 1e-4,
                    "shape {k} cast {i}: {h:?}"
                );
            }
        }
    }
    eprintln!("worst normal error {worst:e}");
}
