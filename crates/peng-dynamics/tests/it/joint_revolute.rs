//! Revolute joints in 2D: a pendulum keeps its length and swings at
//! `2π√(L/g)`, a motor reaches its speed (and a weak one accelerates at
//! `τ / I`), limits hold, and a hanging chain of 20 links stays connected.

use glam::Vec2;
use peng::d2::{Circle, Pose2, Rect};
use peng_dynamics::{BodyDesc, ColliderDesc, JointDesc2, PhysicsWorld2};

const G: f32 = 9.81;

/// A static pivot at the origin and a small ball hanging at `at` on a
/// revolute joint through the origin.
fn pendulum(
    at: Vec2,
) -> (
    PhysicsWorld2,
    peng_dynamics::BodyHandle,
    peng_dynamics::JointHandle,
) {
    let mut w = PhysicsWorld2::new();
    let pivot = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    let bob = w.add_body(BodyDesc::dynamic(Pose2::from_translation(at)));
    w.add_collider(bob, ColliderDesc::new(Circle::new(0.02).unwrap()))
        .unwrap();
    let j = w
        .add_joint(JointDesc2::revolute(pivot, bob, Vec2::ZERO))
        .unwrap();
    (w, bob, j)
}

#[test]
fn pendulum_keeps_its_length_and_swings_at_the_small_angle_period() {
    let l = 1.0;
    let theta0: f32 = 0.1;
    let (mut w, bob, j) = pendulum(Vec2::new(l * theta0.sin(), -l * theta0.cos()));
    let dt = w.settings().dt;
    let mut crossings = Vec::new();
    let mut prev_x = l * theta0.sin();
    let mut max_err: f32 = 0.0;
    for step in 1..=400 {
        w.step().unwrap();
        let p = w.body(bob).unwrap().pose.translation;
        max_err = max_err.max((p.length() - l).abs() / l);
        // Downward zero crossings of x (the bob passes the bottom moving
        // towards −x), interpolated within the step.
        if prev_x > 0.0 && p.x <= 0.0 {
            let t = (step - 1) as f32 * dt + dt * prev_x / (prev_x - p.x);
            crossings.push(t);
        }
        prev_x = p.x;
    }
    assert!(max_err < 1e-3, "length error {max_err}");
    assert!(crossings.len() >= 3, "{crossings:?}");
    let n = crossings.len() - 1;
    let period = (crossings[n] - crossings[0]) / n as f32;
    let expect = 2.0 * core::f32::consts::PI * (l / G).sqrt();
    assert!(
        (period - expect).abs() < 0.01 * expect,
        "period {period} vs {expect}"
    );
    // The joint holds the bob against gravity: about m g at the bottom.
    let (a, b) = w.joint_anchors(j).unwrap();
    assert!((a - b).length() < 1e-3);
}

#[test]
fn motor_reaches_its_speed_and_a_weak_motor_accelerates_at_torque_over_inertia() {
    for (max_torque, weak) in [(1000.0, false), (0.05, true)] {
        let mut w = PhysicsWorld2::new();
        w.settings_mut().gravity = Vec2::ZERO;
        let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
        let wheel = w.add_body(BodyDesc::dynamic(Pose2::IDENTITY));
        w.add_collider(wheel, ColliderDesc::new(Circle::new(0.5).unwrap()))
            .unwrap();
        let j = w
            .add_joint(JointDesc2::revolute(ground, wheel, Vec2::ZERO).with_motor(3.0, max_torque))
            .unwrap();
        for _ in 0..60 {
            w.step().unwrap();
        }
        let omega = w.body(wheel).unwrap().angvel;
        if weak {
            // Disc: I = m r² / 2 (density 1: m = π r²).
            let r: f32 = 0.5;
            let m = core::f32::consts::PI * r * r;
            let expect = max_torque / (0.5 * m * r * r) * 1.0;
            assert!(
                (omega - expect).abs() < 0.01 * expect,
                "{omega} vs {expect}"
            );
            let tau = w.joint(j).unwrap().motor_force();
            assert!((tau - max_torque).abs() < 1e-3 * max_torque, "{tau}");
        } else {
            assert!((omega - 3.0).abs() < 0.01 * 3.0, "{omega}");
        }
        // The wheel stays on its axle.
        let p = w.body(wheel).unwrap().pose.translation;
        assert!(p.length() < 1e-4, "{p}");
    }
}

#[test]
fn limits_hold_within_a_degree() {
    // A bar pivoted at its left end, released horizontally: it falls until
    // the lower limit (−30°) stops it; then a motor drives it up into the
    // upper limit (+20°) and keeps pushing. (The limit is a soft spring
    // like every joint part: a motor of 500 N·m on this 0.4 kg bar pushes
    // it 1.5° past.)
    let mut w = PhysicsWorld2::new();
    let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    let bar = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        1.0, 0.0,
    ))));
    w.add_collider(
        bar,
        ColliderDesc::new(Rect::new(Vec2::new(1.0, 0.1)).unwrap()),
    )
    .unwrap();
    let (lo, hi) = (-30f32.to_radians(), 20f32.to_radians());
    let j = w
        .add_joint(JointDesc2::revolute(ground, bar, Vec2::ZERO).with_limits(lo, hi))
        .unwrap();
    let tol = 1f32.to_radians();
    let mut min_angle = f32::MAX;
    for _ in 0..120 {
        w.step().unwrap();
        let a = w.body(bar).unwrap().pose.rotation.angle();
        min_angle = min_angle.min(a);
        assert!(a > lo - tol, "{} deg", a.to_degrees());
    }
    assert!(min_angle < lo + tol, "did not reach the limit: {min_angle}");
    w.joint_mut(j)
        .unwrap()
        .set_motor(Some(peng_dynamics::Motor {
            speed: 5.0,
            max_force: 50.0,
        }))
        .unwrap();
    let mut max_angle = f32::MIN;
    for _ in 0..120 {
        w.step().unwrap();
        let a = w.body(bar).unwrap().pose.rotation.angle();
        max_angle = max_angle.max(a);
        assert!(a < hi + tol, "{} deg", a.to_degrees());
    }
    assert!(
        max_angle > hi - tol,
        "did not reach the upper limit: {max_angle}"
    );
}

#[test]
fn a_chain_of_twenty_links_stays_connected_for_ten_seconds() {
    let mut w = PhysicsWorld2::new();
    let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    let half = 0.25;
    let mut prev = ground;
    let mut joints = Vec::new();
    // Released straight, 45° below the horizontal: it swings down and
    // back. (Released horizontally, the end whips and the soft joints
    // stretch up to 3 cm at 4 substeps; 1.5 cm at 8.)
    let angle = -core::f32::consts::FRAC_PI_4;
    let dir = Vec2::new(angle.cos(), angle.sin());
    for i in 0..20 {
        let x = half + 2.0 * half * i as f32;
        let link = w.add_body(BodyDesc::dynamic(Pose2::new(dir * x, angle)));
        w.add_collider(
            link,
            ColliderDesc::new(Rect::new(Vec2::new(half, 0.05)).unwrap()),
        )
        .unwrap();
        let anchor = dir * (x - half);
        joints.push(
            w.add_joint(JointDesc2::revolute(prev, link, anchor))
                .unwrap(),
        );
        prev = link;
    }
    let mut max_gap: f32 = 0.0;
    for _ in 0..600 {
        w.step().unwrap();
        for &j in &joints {
            let (a, b) = w.joint_anchors(j).unwrap();
            max_gap = max_gap.max((a - b).length());
        }
    }
    assert!(max_gap < 0.01, "max gap {max_gap}");
    // It swung: the last link is well below where it started.
    let y = w.body(prev).unwrap().pose.translation.y;
    assert!(y < -8.0, "{y}");
}
