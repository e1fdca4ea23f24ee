//! Fast bodies do not tunnel: the speculative offset of each pair grows with
//! how far its two bodies move towards each other in a step, so a bullet
//! finds the wall, or another bullet, before it reaches it; bodies moving
//! together get no such allowance.

use glam::{Vec2, Vec3};
use peng::d2::{Circle, Pose2, Rect};
use peng::d3::{Ball, Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld2, PhysicsWorld3};

#[test]
fn bullet_3d_stops_at_a_thin_wall() {
    for speed in [50.0f32, 300.0, 2000.0] {
        let mut w = PhysicsWorld3::new();
        w.settings_mut().gravity = Vec3::ZERO;
        // A 2 cm wall at x = 10: the ball moves 5 m per step at 300 m/s.
        let wall = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
            10.0, 0.0, 0.0,
        ))));
        w.add_collider(
            wall,
            ColliderDesc::new(Cuboid::new(Vec3::new(0.01, 2.0, 2.0)).unwrap()),
        )
        .unwrap();
        let ball = w.add_body(
            BodyDesc::dynamic(Pose3::from_translation(Vec3::ZERO))
                .with_linvel(Vec3::new(speed, 0.0, 0.0)),
        );
        w.add_collider(ball, ColliderDesc::new(Ball::new(0.05).unwrap()))
            .unwrap();
        for _ in 0..120 {
            w.step().unwrap();
            let x = w.body(ball).unwrap().pose.translation.x;
            assert!(
                x <= 10.0 - 0.01 - 0.05 + 1e-3,
                "{speed} m/s: ball at x = {x}, past the wall"
            );
        }
        // Inelastic: it stopped at the wall.
        let b = w.body(ball).unwrap();
        assert!(
            b.linvel.x.abs() < 1e-3 * speed,
            "{speed} m/s: still moving at {}",
            b.linvel.x
        );
        assert!((b.pose.translation.x - (10.0 - 0.06)).abs() < 1e-2);
    }
}

#[test]
fn bullet_2d_bounces_off_a_thin_wall_with_its_speed() {
    let mut w = PhysicsWorld2::new();
    w.settings_mut().gravity = Vec2::ZERO;
    let wall = w.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(
        10.0, 0.0,
    ))));
    w.add_collider(
        wall,
        ColliderDesc::new(Rect::new(Vec2::new(0.01, 2.0)).unwrap()),
    )
    .unwrap();
    let ball = w.add_body(
        BodyDesc::dynamic(Pose2::from_translation(Vec2::ZERO)).with_linvel(Vec2::new(500.0, 0.0)),
    );
    w.add_collider(
        ball,
        ColliderDesc::new(Circle::new(0.05).unwrap()).with_restitution(1.0),
    )
    .unwrap();
    for _ in 0..10 {
        w.step().unwrap();
        assert!(w.body(ball).unwrap().pose.translation.x < 10.0 - 0.06 + 1e-3);
    }
    let v = w.body(ball).unwrap().linvel.x;
    assert!((v + 500.0).abs() < 1.0, "came back at {v} m/s");
}

#[test]
fn two_bullets_meet_head_on_instead_of_passing() {
    // 5 cm balls 20.6 m apart, each at 150 m/s towards the other: they
    // close by 5 m per step, 50 times their diameter, and are 0.6 m apart
    // after four steps (not on top of each other), so only the pair's
    // relative move, as its speculative offset, finds them.
    let mut w = PhysicsWorld3::new();
    w.settings_mut().gravity = Vec3::ZERO;
    let ball = |w: &mut PhysicsWorld3, x: f32, v: f32| {
        let b = w.add_body(
            BodyDesc::dynamic(Pose3::from_translation(Vec3::new(x, 0.0, 0.0)))
                .with_linvel(Vec3::new(v, 0.0, 0.0)),
        );
        w.add_collider(b, ColliderDesc::new(Ball::new(0.05).unwrap()))
            .unwrap();
        b
    };
    let a = ball(&mut w, -10.3, 150.0);
    let b = ball(&mut w, 10.3, -150.0);
    for step in 0..30 {
        w.step().unwrap();
        let (xa, xb) = (
            w.body(a).unwrap().pose.translation.x,
            w.body(b).unwrap().pose.translation.x,
        );
        assert!(
            xb - xa >= 0.1 - 1e-3,
            "step {step}: passed through, {xa} {xb}"
        );
    }
    // Equal masses, inelastic: both stopped where they met.
    for h in [a, b] {
        let v = w.body(h).unwrap().linvel.x;
        assert!(v.abs() < 0.15, "still moving at {v} m/s");
    }
}

#[test]
fn boxes_moving_together_get_no_speculative_contacts() {
    // Two boxes side by side, 10 cm apart, both sliding at 30 m/s (half a
    // metre per step) in zero gravity: the gap cannot close, so the pair
    // stays out of touch, where one margin per body would have made the pair
    // touch with a speculative contact.
    let mut w = PhysicsWorld3::new();
    w.settings_mut().gravity = Vec3::ZERO;
    let cube = |w: &mut PhysicsWorld3, z: f32| {
        let b = w.add_body(
            BodyDesc::dynamic(Pose3::from_translation(Vec3::new(0.0, 0.0, z)))
                .with_linvel(Vec3::new(30.0, 0.0, 0.0)),
        );
        w.add_collider(b, ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()))
            .unwrap();
    };
    cube(&mut w, 0.0);
    cube(&mut w, 1.1);
    for _ in 0..10 {
        w.step().unwrap();
        assert_eq!(w.collision_world().touching_pairs().count(), 0);
    }
}
