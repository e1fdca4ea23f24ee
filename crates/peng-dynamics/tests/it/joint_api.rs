//! The joint API: validation errors, removal (by hand and with a body),
//! handles going stale, and the colliders of jointed bodies skipping each
//! other unless the joint collides connected.

use glam::{Vec2, Vec3};
use peng::d2::{Pose2, Rect};
use peng_dynamics::{
    BodyDesc, ColliderDesc, DynamicsError, JointDesc2, JointDesc3, JointType, PhysicsWorld2,
    PhysicsWorld3,
};

fn two_boxes(w: &mut PhysicsWorld2) -> (peng_dynamics::BodyHandle, peng_dynamics::BodyHandle) {
    let a = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    w.add_collider(
        a,
        ColliderDesc::new(Rect::new(Vec2::new(0.5, 0.5)).unwrap()),
    )
    .unwrap();
    // Overlapping A by 0.2 m.
    let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        0.8, 0.0,
    ))));
    w.add_collider(
        b,
        ColliderDesc::new(Rect::new(Vec2::new(0.5, 0.5)).unwrap()),
    )
    .unwrap();
    (a, b)
}

#[test]
fn invalid_descriptions_are_rejected() {
    let mut w = PhysicsWorld2::new();
    let (a, b) = two_boxes(&mut w);
    let bad = |e: &Result<_, DynamicsError>, what: &str| {
        assert!(
            matches!(e, Err(DynamicsError::InvalidJoint(w)) if *w == what),
            "{what}: {e:?}"
        );
    };
    bad(
        &w.add_joint(JointDesc2::revolute(a, a, Vec2::ZERO)),
        "bodies",
    );
    bad(
        &w.add_joint(JointDesc2::revolute(a, b, Vec2::new(f32::NAN, 0.0))),
        "anchor",
    );
    bad(
        &w.add_joint(JointDesc2::prismatic(a, b, Vec2::ZERO, Vec2::ZERO)),
        "axis",
    );
    bad(
        &w.add_joint(JointDesc2::revolute(a, b, Vec2::ZERO).with_limits(1.0, -1.0)),
        "limits",
    );
    bad(
        &w.add_joint(JointDesc2::revolute(a, b, Vec2::ZERO).with_motor(1.0, -1.0)),
        "motor",
    );
    bad(
        &w.add_joint(JointDesc2::distance(a, b, Vec2::ZERO, Vec2::X).with_spring(-1.0, 0.0)),
        "spring",
    );
    bad(
        &w.add_joint(JointDesc2::distance(a, b, Vec2::ZERO, Vec2::X).with_length(-1.0)),
        "length",
    );
    // A 2D revolute joint needs no axis; a 3D one does.
    let mut w3 = PhysicsWorld3::new();
    let a3 = w3.add_body(BodyDesc::fixed(peng::d3::Pose3::IDENTITY));
    let b3 = w3.add_body(BodyDesc::dynamic(peng::d3::Pose3::IDENTITY));
    bad(
        &w3.add_joint(JointDesc3::revolute(a3, b3, Vec3::ZERO, Vec3::ZERO)),
        "axis",
    );
    assert!(w3
        .add_joint(JointDesc3::revolute(a3, b3, Vec3::ZERO, Vec3::Y))
        .is_ok());
    // A stale body.
    let gone = w.add_body(BodyDesc::dynamic(Pose2::IDENTITY));
    w.remove_body(gone).unwrap();
    assert_eq!(
        w.add_joint(JointDesc2::weld(a, gone, Vec2::ZERO)),
        Err(DynamicsError::StaleBody(gone))
    );
    assert_eq!(w.joint_count(), 0);
}

#[test]
fn joints_are_removed_by_hand_and_with_their_bodies() {
    let mut w = PhysicsWorld2::new();
    let (a, b) = two_boxes(&mut w);
    let c = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        3.0, 0.0,
    ))));
    let j1 = w.add_joint(JointDesc2::revolute(a, b, Vec2::ZERO)).unwrap();
    let j2 = w
        .add_joint(JointDesc2::distance(
            b,
            c,
            Vec2::new(0.8, 0.0),
            Vec2::new(3.0, 0.0),
        ))
        .unwrap();
    let j3 = w.add_joint(JointDesc2::weld(a, c, Vec2::ZERO)).unwrap();
    assert_eq!(w.joint_count(), 3);
    let j = w.joint(j2).unwrap();
    assert_eq!(j.kind(), JointType::Distance);
    assert_eq!((j.body_a(), j.body_b()), (b, c));
    assert!((j.length() - 2.2).abs() < 1e-6);
    let removed = w.remove_joint(j1).unwrap();
    assert_eq!(removed.kind(), JointType::Revolute);
    assert_eq!(w.remove_joint(j1), Err(DynamicsError::StaleJoint(j1)));
    assert!(w.joint(j1).is_none());
    // Removing c removes both joints that use it.
    w.remove_body(c).unwrap();
    assert!(w.joint(j2).is_none() && w.joint(j3).is_none());
    assert_eq!(w.joint_count(), 0);
    // A new joint may reuse a slot; the old handles stay stale.
    let j4 = w.add_joint(JointDesc2::revolute(a, b, Vec2::ZERO)).unwrap();
    assert!(w.joint(j4).is_some() && w.joint(j1).is_none());
    assert_eq!(w.joints().count(), 1);
    w.step().unwrap();
}

#[test]
fn jointed_bodies_do_not_collide_unless_asked() {
    for collide in [false, true] {
        let mut w = PhysicsWorld2::new();
        w.settings_mut().gravity = Vec2::ZERO;
        let (a, b) = two_boxes(&mut w);
        let (ca, cb) = (w.body_colliders(a)[0], w.body_colliders(b)[0]);
        // A 0.2 m overlap; a slider along x through the overlap.
        let j = w
            .add_joint(
                JointDesc2::prismatic(a, b, Vec2::new(0.4, 0.0), Vec2::X)
                    .with_collide_connected(collide),
            )
            .unwrap();
        for _ in 0..30 {
            w.step().unwrap();
        }
        let x = w.body(b).unwrap().pose.translation.x;
        let touching = w.contact_manifolds(ca, cb).is_some_and(|m| !m.is_empty());
        if collide {
            // The contact pushes B out along the slider.
            assert!(touching || x > 0.99, "x {x}");
            assert!(x > 0.9, "x {x}");
        } else {
            assert!(!touching);
            assert!((x - 0.8).abs() < 1e-4, "x {x}");
            // Once the joint is gone, they collide and B is pushed out.
            w.remove_joint(j).unwrap();
            for _ in 0..30 {
                w.step().unwrap();
            }
            assert!(w.body(b).unwrap().pose.translation.x > 0.9);
        }
    }
}

#[test]
fn jointed_bodies_sleep_and_wake_together() {
    let mut w = PhysicsWorld2::new();
    let pivot = w.add_body(BodyDesc::fixed(Pose2::IDENTITY));
    // A damped two-link pendulum (no contacts between the links: only the
    // joint puts them in one island).
    let mk = |w: &mut PhysicsWorld2, x: f32| {
        let b = w.add_body(
            BodyDesc::dynamic(Pose2::from_translation(Vec2::new(x, -0.2))).with_damping(2.0, 2.0),
        );
        w.add_collider(
            b,
            ColliderDesc::new(Rect::new(Vec2::new(0.25, 0.05)).unwrap()),
        )
        .unwrap();
        b
    };
    let l1 = mk(&mut w, 0.25);
    let l2 = mk(&mut w, 0.75);
    let j1 = w
        .add_joint(JointDesc2::revolute(pivot, l1, Vec2::new(0.0, -0.2)))
        .unwrap();
    w.add_joint(JointDesc2::revolute(l1, l2, Vec2::new(0.5, -0.2)))
        .unwrap();
    let mut slept = None;
    for i in 0..900 {
        w.step().unwrap();
        let (s1, s2) = (
            w.body(l1).unwrap().is_sleeping(),
            w.body(l2).unwrap().is_sleeping(),
        );
        // Never one without the other.
        assert_eq!(s1, s2, "step {i}");
        if s1 {
            slept = Some(i);
            break;
        }
    }
    assert!(slept.is_some(), "the damped pendulum should come to rest");
    // Asleep, it hangs below the pivot.
    assert!(w.body(l2).unwrap().pose.translation.y < -0.5);
    // Turning on the top joint's motor wakes both links, and they turn.
    w.joint_mut(j1)
        .unwrap()
        .set_motor(Some(peng_dynamics::Motor {
            speed: 2.0,
            max_force: 50.0,
        }))
        .unwrap();
    assert!(!w.body(l1).unwrap().is_sleeping() && !w.body(l2).unwrap().is_sleeping());
    for _ in 0..10 {
        w.step().unwrap();
    }
    assert!(w.body(l1).unwrap().angvel > 1.0);
    assert!(!w.body(l2).unwrap().is_sleeping());
}
