//! Position correction removes penetration without adding energy: bodies
//! created overlapping are pushed apart at most `max_push_speed`, and come
//! to rest instead of bouncing away.

use glam::Vec3;
use peng::d3::{Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

#[test]
fn overlapping_boxes_are_pushed_apart_gently_and_settle() {
    let mut w = PhysicsWorld3::new();
    let g = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
        0.0, -0.5, 0.0,
    ))));
    w.add_collider(
        g,
        ColliderDesc::new(Cuboid::new(Vec3::new(10.0, 0.5, 10.0)).unwrap()),
    )
    .unwrap();
    // A box sunk 20 cm into the ground, and a second box overlapping it by
    // 30 cm.
    let lower = w.add_body(BodyDesc::dynamic(Pose3::from_translation(Vec3::new(
        0.0, 0.3, 0.0,
    ))));
    w.add_collider(
        lower,
        ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()),
    )
    .unwrap();
    let upper = w.add_body(BodyDesc::dynamic(Pose3::from_translation(Vec3::new(
        0.0, 1.0, 0.0,
    ))));
    w.add_collider(
        upper,
        ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()),
    )
    .unwrap();
    let push = w.settings().max_push_speed;
    let mut top = f32::MIN;
    for _ in 0..240 {
        w.step().unwrap();
        for b in [lower, upper] {
            let v = w.body(b).unwrap().linvel;
            // Pushed out no faster than the push speed (plus what gravity
            // and the box below add), never launched.
            assert!(v.y <= 2.0 * push + 1e-3, "launched at {v}");
        }
        top = top.max(w.body(upper).unwrap().pose.translation.y);
    }
    // No bounce: the upper box never rose far above where it rests.
    assert!(top < 1.5 + 0.05, "the upper box rose to {top}");
    let (yl, yu) = (
        w.body(lower).unwrap().pose.translation.y,
        w.body(upper).unwrap().pose.translation.y,
    );
    // Separated: each overlap below 2 mm (the springs' static deflection).
    assert!((yl - 0.5).abs() < 2e-3, "lower box at {yl}");
    assert!((yu - 1.5).abs() < 4e-3, "upper box at {yu}");
    assert!(w.body(upper).unwrap().linvel.length() < 1e-2);
}
