//! Joints in 3D: a hinge keeps its axis under an off-axis load, its motor
//! spins the body about the axis only, its limits hold; a slider keeps its
//! axis and orientation; a weld holds a cantilever; a spring settles at
//! `m g / k`.

use glam::{Quat, Vec3};
use peng::d3::{Ball, Cuboid, Pose3};
use peng_dynamics::{BodyDesc, BodyHandle, ColliderDesc, JointDesc3, PhysicsWorld3};

const G: f32 = 9.81;

fn block(w: &mut PhysicsWorld3, pose: Pose3, half: Vec3) -> BodyHandle {
    let b = w.add_body(BodyDesc::dynamic(pose));
    w.add_collider(b, ColliderDesc::new(Cuboid::new(half).unwrap()))
        .unwrap();
    b
}

#[test]
fn hinge_keeps_its_axis_under_an_off_axis_load() {
    let mut w = PhysicsWorld3::new();
    let ground = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    // A slab hinged about z at the origin, its centre off along x and z:
    // gravity's torque about the anchor, (0.5 g m, 0, −g m), would also tip
    // the axis.
    let axis = Vec3::Z;
    let slab = block(
        &mut w,
        Pose3::from_translation(Vec3::new(0.6, 0.0, 0.5)),
        Vec3::new(0.5, 0.1, 0.3),
    );
    let j = w
        .add_joint(JointDesc3::revolute(ground, slab, Vec3::ZERO, axis))
        .unwrap();
    let mut max_tilt: f32 = 0.0;
    let mut max_gap: f32 = 0.0;
    let mut max_turn: f32 = 0.0;
    for _ in 0..240 {
        w.step().unwrap();
        let b = w.body(slab).unwrap();
        let a = b.pose.rotation * axis;
        max_tilt = max_tilt.max(a.angle_between(axis));
        let (pa, pb) = w.joint_anchors(j).unwrap();
        max_gap = max_gap.max((pa - pb).length());
        max_turn = max_turn.max(b.pose.rotation.angle_between(Quat::IDENTITY));
    }
    assert!(max_tilt < 0.5f32.to_radians(), "axis tilted {max_tilt} rad");
    assert!(max_gap < 2e-3, "gap {max_gap}");
    assert!(max_turn > 1.0, "it should swing: {max_turn}");
    // The joint's torque has no part about the free axis (no limit, no
    // motor).
    let t = w.joint(j).unwrap().reaction_torque();
    let a = w.body(slab).unwrap().pose.rotation * axis;
    assert!(t.dot(a).abs() < 1e-4 * t.length().max(1.0), "{t}");
}

#[test]
fn hinge_motor_spins_about_the_axis_and_limits_hold() {
    let mut w = PhysicsWorld3::new();
    w.settings_mut().gravity = Vec3::ZERO;
    let ground = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    let axis = Vec3::new(1.0, 1.0, 0.0).normalize();
    let wheel = w.add_body(BodyDesc::dynamic(Pose3::IDENTITY));
    w.add_collider(wheel, ColliderDesc::new(Ball::new(0.5).unwrap()))
        .unwrap();
    let j = w
        .add_joint(JointDesc3::revolute(ground, wheel, Vec3::ZERO, axis).with_motor(2.0, 100.0))
        .unwrap();
    for _ in 0..60 {
        w.step().unwrap();
    }
    let b = w.body(wheel).unwrap();
    assert!((b.angvel.dot(axis) - 2.0).abs() < 0.02, "{}", b.angvel);
    assert!(b.angvel.cross(axis).length() < 1e-3, "{}", b.angvel);
    // Now with limits ±45°: the motor drives it into the upper one.
    w.joint_mut(j)
        .unwrap()
        .set_limits(Some((
            -0.25 * core::f32::consts::PI,
            0.25 * core::f32::consts::PI,
        )))
        .unwrap();
    // Start again from the zero angle.
    let body = w.body_mut(wheel).unwrap();
    body.pose = Pose3::IDENTITY;
    body.angvel = Vec3::ZERO;
    let mut max_angle = f32::MIN;
    for _ in 0..60 {
        w.step().unwrap();
        let q = w.body(wheel).unwrap().pose.rotation;
        let (ax, angle) = q.to_axis_angle();
        let signed = if ax.dot(axis) >= 0.0 { angle } else { -angle };
        max_angle = max_angle.max(signed);
    }
    let hi = 45f32.to_radians();
    assert!(
        max_angle < hi + 1f32.to_radians(),
        "{}",
        max_angle.to_degrees()
    );
    assert!(
        max_angle > hi - 1f32.to_radians(),
        "{}",
        max_angle.to_degrees()
    );
}

#[test]
fn slider_keeps_its_axis_and_orientation() {
    let mut w = PhysicsWorld3::new();
    let ground = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    let axis = Vec3::new(1.0, -1.0, 0.5).normalize();
    let start = Vec3::new(0.2, 0.1, -0.3);
    let b = block(
        &mut w,
        Pose3::from_translation(start),
        Vec3::new(0.3, 0.2, 0.1),
    );
    w.add_joint(JointDesc3::prismatic(ground, b, Vec3::ZERO, axis))
        .unwrap();
    for _ in 0..120 {
        w.step().unwrap();
        let body = w.body(b).unwrap();
        let d = body.pose.translation - start;
        let off = d - axis * d.dot(axis);
        assert!(off.length() < 1e-3, "off axis {off}");
        // The lock is a soft spring relative to the block's own inertia:
        // the weight's moment about the anchor turns it slightly.
        assert!(turn(Quat::IDENTITY, body.pose.rotation) < 3e-3);
    }
    // Free sliding along the axis under g·(axis·ŷ) (no friction): after
    // 2 s, s = a t² / 2.
    let d = (w.body(b).unwrap().pose.translation - start).dot(axis);
    let a = G * axis.dot(-Vec3::Y);
    let expect = 0.5 * a * 4.0;
    assert!((d - expect).abs() < 0.02 * expect, "{d} vs {expect}");
}

/// The angle of the turn from `a` to `b` (accurate for small angles, where
/// `Quat::angle_between`'s arccosine is not).
fn turn(a: Quat, b: Quat) -> f32 {
    let q = b * a.inverse();
    2.0 * Vec3::new(q.x, q.y, q.z).length().atan2(q.w.abs())
}

#[test]
fn weld_holds_a_cantilever() {
    let mut w = PhysicsWorld3::new();
    let wall = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    // A 1 m beam welded at its end, turned 0.3 rad about y. The soft weld
    // sags by about g / ω² at the anchor plus the turn the torque m g L / 2
    // gives against the beam's own inertia (τ / (I ω²), 0.4 mrad here).
    let rot = Quat::from_rotation_y(0.3);
    let pose = Pose3 {
        translation: rot * Vec3::new(0.5, 0.0, 0.0),
        rotation: rot,
    };
    let beam = block(&mut w, pose, Vec3::new(0.5, 0.05, 0.05));
    let j = w
        .add_joint(JointDesc3::weld(wall, beam, Vec3::ZERO))
        .unwrap();
    for _ in 0..120 {
        w.step().unwrap();
        let p = w.body(beam).unwrap().pose;
        assert!((p.translation - pose.translation).length() < 1e-3);
        assert!(turn(pose.rotation, p.rotation) < 1e-3);
    }
    // At rest it holds the weight m g and its moment m g L / 2.
    let m = 1.0 * 0.1 * 0.1;
    let jt = w.joint(j).unwrap();
    let f = jt.reaction_force();
    assert!(
        (f - Vec3::new(0.0, m * G, 0.0)).length() < 1e-3 * m * G,
        "{f}"
    );
    // Torque on the beam about its centre: the joint force at the wall end
    // (lever −L/2 along the beam) turns it by r × F; the lock balances it.
    let r = -(rot * Vec3::new(0.5, 0.0, 0.0));
    let expect = -r.cross(Vec3::new(0.0, m * G, 0.0));
    assert!(
        (jt.reaction_torque() - expect).length() < 1e-3 * m * G,
        "{}",
        jt.reaction_torque()
    );
}

#[test]
fn spring_settles_at_the_static_deflection_in_3d() {
    let mut w = PhysicsWorld3::new();
    let top = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    let ball = w.add_body(BodyDesc::dynamic(Pose3::from_translation(-Vec3::Y)));
    w.add_collider(ball, ColliderDesc::new(Ball::new(0.1).unwrap()))
        .unwrap();
    let f = 3.0;
    w.add_joint(JointDesc3::distance(top, ball, Vec3::ZERO, -Vec3::Y).with_spring(f, 1.0))
        .unwrap();
    for _ in 0..180 {
        w.step().unwrap();
    }
    let omega = 2.0 * core::f32::consts::PI * f;
    let expect = G / (omega * omega);
    let stretch = -w.body(ball).unwrap().pose.translation.y - 1.0;
    assert!(
        (stretch - expect).abs() < 0.02 * expect,
        "{stretch} vs {expect}"
    );
}

#[test]
fn a_chain_of_twenty_hinged_links_stays_connected_in_3d() {
    let mut w = PhysicsWorld3::new();
    let ground = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    let half = 0.25;
    // Released straight, 45° below the horizontal, hinged about an axis
    // tilted out of the swing plane (so every hinge lock carries load).
    let angle = -core::f32::consts::FRAC_PI_4;
    let rot = Quat::from_rotation_z(angle);
    let dir = rot * Vec3::X;
    let axis = Vec3::new(0.0, 0.3, 1.0).normalize();
    let mut prev = ground;
    let mut joints = Vec::new();
    for i in 0..20 {
        let x = half + 2.0 * half * i as f32;
        let link = block(
            &mut w,
            Pose3 {
                translation: dir * x,
                rotation: rot,
            },
            Vec3::new(half, 0.05, 0.05),
        );
        joints.push(
            w.add_joint(JointDesc3::revolute(prev, link, dir * (x - half), axis))
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
    // Each hinge keeps its two links' axes aligned. The locks are soft
    // springs (the world's joint spring, relative to these slender 5 g
    // links' own inertia) and carry the moment of the weight's component
    // along the tilted axis: about 1.5° per hinge, adding up along the
    // chain (15° at its end).
    let mut prev_axis = axis;
    let mut worst: f32 = 0.0;
    for (_, b) in w.bodies() {
        if b.kind == peng_dynamics::BodyKind::Dynamic {
            let a = b.pose.rotation * (rot.inverse() * axis);
            worst = worst.max(a.angle_between(prev_axis).to_degrees());
            prev_axis = a;
        }
    }
    assert!(worst < 2.5, "hinge misaligned by {worst}°");
}
