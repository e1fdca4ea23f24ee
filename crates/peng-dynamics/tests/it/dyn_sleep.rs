//! Sleeping: resting bodies fall asleep and cost nothing; a moving body
//! wakes them.

use glam::Vec3;
use peng::d3::{Ball, Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

fn ground(w: &mut PhysicsWorld3) {
    let g = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
        0.0, -0.5, 0.0,
    ))));
    w.add_collider(
        g,
        ColliderDesc::new(Cuboid::new(Vec3::new(50.0, 0.5, 50.0)).unwrap()),
    )
    .unwrap();
}

#[test]
fn resting_boxes_fall_asleep_stay_put_and_cost_nothing() {
    let mut w = PhysicsWorld3::new();
    ground(&mut w);
    let mut boxes = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            let p = Vec3::new(i as f32 * 1.5 - 7.0, 0.5, j as f32 * 1.5 - 7.0);
            let b = w.add_body(BodyDesc::dynamic(Pose3::from_translation(p)));
            w.add_collider(b, ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()))
                .unwrap();
            boxes.push(b);
        }
    }
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "all 100 boxes asleep after 2 s");
    let poses: Vec<_> = boxes.iter().map(|&b| w.body(b).unwrap().pose).collect();
    for _ in 0..60 {
        w.step().unwrap();
        assert_eq!(
            w.solved_contact_count(),
            0,
            "sleeping contacts are not solved"
        );
    }
    for (b, p) in boxes.iter().zip(&poses) {
        let body = w.body(*b).unwrap();
        assert!(body.is_sleeping());
        assert_eq!(body.pose, *p, "a sleeping body does not move");
    }
}

#[test]
fn a_falling_ball_wakes_a_sleeping_stack_which_then_reacts() {
    let mut w = PhysicsWorld3::new();
    ground(&mut w);
    let lower = w.add_body(BodyDesc::dynamic(Pose3::from_translation(Vec3::new(
        0.0, 0.5, 0.0,
    ))));
    w.add_collider(
        lower,
        ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()),
    )
    .unwrap();
    let upper = w.add_body(BodyDesc::dynamic(Pose3::from_translation(Vec3::new(
        0.0, 1.5, 0.0,
    ))));
    w.add_collider(
        upper,
        ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()),
    )
    .unwrap();
    for _ in 0..90 {
        w.step().unwrap();
    }
    assert!(w.body(lower).unwrap().is_sleeping() && w.body(upper).unwrap().is_sleeping());
    // A heavy ball lands on the stack's corner, off centre. (At density 20
    // it can knock the upper box off, which is fair, and then the last
    // check below has no stack to wake.)
    let ball = w.add_body(
        BodyDesc::dynamic(Pose3::from_translation(Vec3::new(0.4, 4.0, 0.4)))
            .with_linvel(Vec3::new(0.0, -5.0, 0.0)),
    );
    w.add_collider(
        ball,
        ColliderDesc::new(Ball::new(0.3).unwrap()).with_density(5.0),
    )
    .unwrap();
    let mut woke = false;
    for _ in 0..60 {
        w.step().unwrap();
        woke |= !w.body(upper).unwrap().is_sleeping();
        // The island wakes as a whole.
        assert_eq!(
            w.body(upper).unwrap().is_sleeping(),
            w.body(lower).unwrap().is_sleeping()
        );
    }
    assert!(woke, "the ball's impact woke the stack");
    // The ball rests on top of the stack, not inside it.
    let y = w.body(ball).unwrap().pose.translation.y;
    assert!(y > 2.0 + 0.3 - 0.05, "ball at {y}");
    // Changing a sleeping body through body_mut wakes it.
    for _ in 0..120 {
        w.step().unwrap();
    }
    assert!(w.body(lower).unwrap().is_sleeping());
    w.body_mut(lower).unwrap().linvel = Vec3::new(1.0, 0.0, 0.0);
    assert!(!w.body(upper).unwrap().is_sleeping());
}
