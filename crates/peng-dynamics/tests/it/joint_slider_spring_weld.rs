//! Prismatic, distance and weld joints in 2D: a slider moves only along its
//! axis (and stops at its limits, and its motor drives it), a spring with a
//! hanging mass settles at `m g / k` and oscillates at its frequency, a rod
//! keeps its length, a weld keeps the relative pose.

use glam::Vec2;
use peng::d2::{Circle, Pose2, Rect};
use peng_dynamics::{BodyDesc, ColliderDesc, JointDesc2, PhysicsWorld2};

const G: f32 = 9.81;

#[test]
fn slider_moves_only_along_its_axis_and_stops_at_its_limit() {
    let mut w = PhysicsWorld2::new();
    let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    // An off-centre box on a 30° incline axis through the origin: gravity
    // pulls it down the axis and turns it about its anchor.
    let start = Vec2::new(0.3, 0.2);
    let block = w.add_body(BodyDesc::dynamic(Pose2::from_translation(start)));
    w.add_collider(
        block,
        ColliderDesc::new(Rect::new(Vec2::new(0.5, 0.1)).unwrap()),
    )
    .unwrap();
    let axis = Vec2::new(30f32.to_radians().cos(), 30f32.to_radians().sin());
    let j = w
        .add_joint(JointDesc2::prismatic(ground, block, Vec2::ZERO, axis).with_limits(-2.0, 1.0))
        .unwrap();
    let normal = axis.perp();
    let mut min_t = f32::MAX;
    for _ in 0..180 {
        w.step().unwrap();
        let b = w.body(block).unwrap();
        let d = b.pose.translation - start;
        assert!(d.dot(normal).abs() < 1e-3, "off axis {}", d.dot(normal));
        assert!(b.pose.rotation.angle().abs() < 1e-3, "turned");
        let t = d.dot(axis);
        min_t = min_t.min(t);
        assert!(t > -2.0 - 0.01, "past the limit: {t}");
    }
    // It slid down to the lower limit and rests there.
    let t = (w.body(block).unwrap().pose.translation - start).dot(axis);
    assert!((t + 2.0).abs() < 0.01, "{t}");
    // The limit holds the weight's component along the axis: m g sin 30°.
    let m = 1.0 * 0.2;
    let f = w.joint(j).unwrap().reaction_force();
    assert!(
        (f.dot(axis) - m * G * 0.5).abs() < 0.02 * m * G,
        "{f} {}",
        m * G * 0.5
    );
    assert!(min_t > -2.01);
}

#[test]
fn slider_motor_drives_at_its_speed() {
    let mut w = PhysicsWorld2::new();
    w.settings_mut().gravity = Vec2::ZERO;
    let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    let block = w.add_body(BodyDesc::dynamic(Pose2::IDENTITY));
    w.add_collider(
        block,
        ColliderDesc::new(Rect::new(Vec2::new(0.5, 0.5)).unwrap()),
    )
    .unwrap();
    w.add_joint(JointDesc2::prismatic(ground, block, Vec2::ZERO, Vec2::Y).with_motor(-1.5, 100.0))
        .unwrap();
    for _ in 0..60 {
        w.step().unwrap();
    }
    let b = w.body(block).unwrap();
    assert!((b.linvel.y + 1.5).abs() < 0.015, "{}", b.linvel);
    assert!(b.linvel.x.abs() < 1e-4 && b.pose.translation.x.abs() < 1e-4);
    // It has moved 1.5 m/s for about a second.
    assert!(
        (b.pose.translation.y + 1.5).abs() < 0.05,
        "{}",
        b.pose.translation
    );
}

/// A ball hanging from a static point on a spring of `hertz`, released at
/// the rest length; returns the ball's y over `steps` steps.
fn hanging_spring(hertz: f32, zeta: f32, steps: usize) -> (Vec<f32>, f32) {
    let mut w = PhysicsWorld2::new();
    let top = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    let l = 1.0;
    let ball = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        0.0, -l,
    ))));
    w.add_collider(ball, ColliderDesc::new(Circle::new(0.1).unwrap()))
        .unwrap();
    w.add_joint(
        JointDesc2::distance(top, ball, Vec2::ZERO, Vec2::new(0.0, -l)).with_spring(hertz, zeta),
    )
    .unwrap();
    let mut ys = Vec::new();
    for _ in 0..steps {
        w.step().unwrap();
        ys.push(w.body(ball).unwrap().pose.translation.y);
    }
    (ys, l)
}

#[test]
fn spring_settles_at_the_static_deflection() {
    let f = 2.0;
    let (ys, l) = hanging_spring(f, 0.7, 300);
    // k = m ω² (the effective mass along the spring is the ball's mass):
    // m g / k = g / ω².
    let omega = 2.0 * core::f32::consts::PI * f;
    let expect = G / (omega * omega);
    let stretch = -ys[ys.len() - 1] - l;
    assert!(
        (stretch - expect).abs() < 0.02 * expect,
        "{stretch} vs {expect}"
    );
}

#[test]
fn undamped_spring_oscillates_at_its_frequency_about_the_deflection() {
    let f = 2.0;
    let (ys, l) = hanging_spring(f, 0.0, 240);
    let omega = 2.0 * core::f32::consts::PI * f;
    let eq = -l - G / (omega * omega);
    let dt = 1.0 / 60.0;
    // Upward crossings of the equilibrium.
    let mut t = Vec::new();
    for i in 1..ys.len() {
        let (y0, y1) = (ys[i - 1] - eq, ys[i] - eq);
        if y0 < 0.0 && y1 >= 0.0 {
            t.push((i as f32 + y0 / (y0 - y1)) * dt);
        }
    }
    assert!(t.len() >= 5, "{t:?}");
    let n = t.len() - 1;
    let period = (t[n] - t[0]) / n as f32;
    assert!(
        (period - 1.0 / f).abs() < 0.02 / f,
        "period {period} vs {}",
        1.0 / f
    );
    // It keeps (most of) its amplitude: no damping but the integrator's.
    let amp = ys[ys.len() - 30..]
        .iter()
        .map(|y| (y - eq).abs())
        .fold(0.0f32, f32::max);
    let amp0 = G / (omega * omega);
    assert!(amp > 0.8 * amp0 && amp < 1.02 * amp0, "{amp} vs {amp0}");
}

#[test]
fn rod_keeps_its_length_and_rope_only_its_maximum() {
    for rope in [false, true] {
        let mut w = PhysicsWorld2::new();
        let top = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
        // Start 1 m out sideways, 0.5 m up from the anchor: the rod swings
        // at 1.118 m; the rope (max 1.5 m) lets it fall first.
        let p0 = Vec2::new(1.0, 0.5);
        let ball = w.add_body(BodyDesc::dynamic(Pose2::from_translation(p0)));
        w.add_collider(ball, ColliderDesc::new(Circle::new(0.1).unwrap()))
            .unwrap();
        let mut d = JointDesc2::distance(top, ball, Vec2::ZERO, p0);
        if rope {
            d = d.with_limits(0.0, 1.5);
        }
        w.add_joint(d).unwrap();
        let mut longest: f32 = 0.0;
        let mut shortest = f32::MAX;
        for _ in 0..120 {
            w.step().unwrap();
            let r = w.body(ball).unwrap().pose.translation.length();
            longest = longest.max(r);
            shortest = shortest.min(r);
        }
        if rope {
            assert!(longest < 1.5 + 2e-3 && longest > 1.49, "{longest}");
        } else {
            let l = p0.length();
            assert!(
                (longest - l).abs() < 1e-3 * l && (shortest - l).abs() < 1e-3 * l,
                "{shortest} {longest}"
            );
        }
    }
}

#[test]
fn weld_keeps_the_relative_pose() {
    let mut w = PhysicsWorld2::new();
    let ground = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    // A dynamic arm on a hinge swings; a plate welded to its end at an
    // angle swings with it without moving relative to it.
    let arm = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        1.0, 0.0,
    ))));
    w.add_collider(
        arm,
        ColliderDesc::new(Rect::new(Vec2::new(1.0, 0.1)).unwrap()),
    )
    .unwrap();
    let plate_pose = Pose2::new(Vec2::new(2.3, 0.2), 0.7);
    let plate = w.add_body(BodyDesc::dynamic(plate_pose));
    w.add_collider(
        plate,
        ColliderDesc::new(Rect::new(Vec2::new(0.4, 0.2)).unwrap()).with_density(3.0),
    )
    .unwrap();
    w.add_joint(JointDesc2::revolute(ground, arm, Vec2::ZERO))
        .unwrap();
    w.add_joint(JointDesc2::weld(arm, plate, Vec2::new(2.0, 0.0)))
        .unwrap();
    let rel0 = w
        .body(arm)
        .unwrap()
        .pose
        .inv_mul(&w.body(plate).unwrap().pose);
    let mut max_dp: f32 = 0.0;
    let mut max_da: f32 = 0.0;
    for _ in 0..180 {
        w.step().unwrap();
        let rel = w
            .body(arm)
            .unwrap()
            .pose
            .inv_mul(&w.body(plate).unwrap().pose);
        max_dp = max_dp.max((rel.translation - rel0.translation).length());
        max_da = max_da.max((rel.rotation.angle() - rel0.rotation.angle()).abs());
    }
    assert!(max_dp < 5e-3, "relative translation drift {max_dp}");
    assert!(max_da < 5e-3, "relative angle drift {max_da}");
    // It swung.
    assert!(w.body(arm).unwrap().pose.rotation.angle().abs() > 0.5);
}
