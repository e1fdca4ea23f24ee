//! Joints with contacts: a 2D car with spring suspension (per wheel a
//! vertical slider to a hub, a hinge from the hub to the wheel with a
//! motor, and a distance spring from the chassis to the wheel) drops onto
//! the ground, settles on its springs and drives.

use crate::common;

use glam::Vec2;
use peng::d2::{Circle, Pose2, Rect};
use peng_dynamics::{BodyDesc, ColliderDesc, JointDesc2, PhysicsWorld2};

#[test]
fn car_settles_on_its_springs_and_drives() {
    let mut w = PhysicsWorld2::new();
    common::ground2(&mut w, 50.0);
    let chassis_y = 1.2;
    let chassis = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        0.0, chassis_y,
    ))));
    w.add_collider(
        chassis,
        ColliderDesc::new(Rect::new(Vec2::new(1.0, 0.2)).unwrap()),
    )
    .unwrap();
    let mut hinges = Vec::new();
    let mut sliders = Vec::new();
    for x in [-0.7f32, 0.7] {
        let c = Vec2::new(x, 0.6);
        // The hub weighs a quarter of the wheel: with a 0.05 m hub (1/35 of
        // the wheel) the soft joints let it stray 1.3 cm off its slider.
        let hub = w.add_body(BodyDesc::dynamic(Pose2::from_translation(c)));
        w.add_collider(hub, ColliderDesc::new(Circle::new(0.2).unwrap()))
            .unwrap();
        let wheel = w.add_body(BodyDesc::dynamic(Pose2::from_translation(c)));
        w.add_collider(
            wheel,
            ColliderDesc::new(Circle::new(0.3).unwrap()).with_friction(1.0),
        )
        .unwrap();
        sliders.push((
            hub,
            w.add_joint(JointDesc2::prismatic(chassis, hub, c, Vec2::Y).with_limits(-0.2, 0.2))
                .unwrap(),
        ));
        // Rear-wheel drive, clockwise: forwards along +x.
        let mut hinge = JointDesc2::revolute(hub, wheel, c);
        if x < 0.0 {
            hinge = hinge.with_motor(-8.0, 5.0);
        }
        hinges.push(w.add_joint(hinge).unwrap());
        w.add_joint(
            JointDesc2::distance(chassis, wheel, Vec2::new(x, chassis_y), c).with_spring(4.0, 0.7),
        )
        .unwrap();
    }
    let mut max_gap: f32 = 0.0;
    let mut max_tilt: f32 = 0.0;
    for _ in 0..240 {
        w.step().unwrap();
        for &j in &hinges {
            let (a, b) = w.joint_anchors(j).unwrap();
            max_gap = max_gap.max((a - b).length());
        }
        let cp = w.body(chassis).unwrap().pose;
        max_tilt = max_tilt.max(cp.rotation.angle().abs());
        // Each hub stays below its slider anchor on the chassis (the
        // slider's axis turns with the chassis).
        for &(hub, j) in &sliders {
            let (a, _) = w.joint_anchors(j).unwrap();
            let axis = cp.rotation.rotate(Vec2::Y);
            let d = w.body(hub).unwrap().pose.translation - a;
            assert!(d.perp_dot(axis).abs() < 5e-3, "hub off its slider: {d}");
        }
    }
    let cp = w.body(chassis).unwrap().pose;
    assert!(max_gap < 0.01, "wheel came off its hub: {max_gap}");
    assert!(max_tilt < 0.2, "chassis tilted {max_tilt}");
    // It drove forwards: the rear wheel spins at up to 8 rad/s on 0.3 m
    // (2.4 m/s); it must have made at least 2 m in 4 s.
    assert!(cp.translation.x > 2.0, "{}", cp.translation);
    // And rides on its springs: the wheels (radius 0.3) rest on the
    // ground and the chassis sits a little lower than the 0.6 m the springs
    // had unloaded (they carry its weight), well clear of the slider stops.
    let sag = 0.6 - (cp.translation.y - 0.3);
    assert!(sag > 0.005 && sag < 0.15, "sag {sag}");
}
