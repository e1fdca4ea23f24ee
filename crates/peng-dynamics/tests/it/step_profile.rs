//! `PhysicsWorld::profile`: the phases of the last step.

use std::time::{Duration, Instant};

use glam::Vec3;
use peng::d3::Pose3;
use peng_dynamics::{BodyDesc, DynamicsError, PhysicsWorld3, StepProfile};

use crate::common::{box3, on_threads};

/// Columns of boxes on a fixed slab: every phase has work to do.
fn stack(n: usize) -> PhysicsWorld3 {
    let mut w = PhysicsWorld3::new();
    let slab = BodyDesc::fixed(Pose3::from_translation(Vec3::new(0.0, -0.5, 0.0)));
    box3(&mut w, slab, Vec3::new(20.0, 0.5, 20.0), 0.6);
    for i in 0..n {
        for j in 0..n {
            let at = Vec3::new(i as f32 * 1.1, 0.5 + j as f32, 0.0);
            box3(
                &mut w,
                BodyDesc::dynamic(Pose3::from_translation(at)),
                Vec3::splat(0.5),
                0.6,
            );
        }
    }
    w
}

#[test]
fn the_profile_is_zero_before_the_first_step() {
    assert_eq!(stack(2).profile(), StepProfile::default());
}

#[test]
fn the_phases_add_up_to_the_step_and_each_takes_time() {
    // On a pool of its own: on the shared pool a step first waits for the
    // threads that the tests running beside it keep busy (a CI run took
    // 22 ms a step for 0.2 ms of phases, at every step), outside the phases.
    let steps = on_threads(2, || {
        let mut w = stack(6);
        w.step().unwrap();
        // A step the host preempts outside the phases (a CI run beside other
        // jobs once took 28 ms for 0.3 ms of phases) tells nothing about the
        // profile, so the phases must be most of the wall time in the best of
        // several steps, not in every one.
        let mut steps = Vec::new();
        for _ in 0..10 {
            let t = Instant::now();
            w.step().unwrap();
            let wall = t.elapsed();
            let p = w.profile();
            assert!(p.collide > Duration::ZERO, "{p:?}");
            assert!(p.prepare > Duration::ZERO, "{p:?}");
            assert!(p.solve > Duration::ZERO, "{p:?}");
            assert_eq!(p.total(), p.collide + p.prepare + p.solve + p.finish);
            // The phases lie within the step's own wall time.
            assert!(p.total() <= wall, "{p:?} within {wall:?}");
            steps.push((p, wall));
        }
        steps
    });
    assert!(
        steps.iter().any(|(p, wall)| p.total() * 2 > *wall / 2),
        "the phases are most of no step: {steps:?}"
    );
}

#[test]
fn a_failed_step_keeps_the_last_profile() {
    let mut w = stack(2);
    w.step().unwrap();
    let before = w.profile();
    w.settings_mut().dt = f32::NAN;
    assert!(w.step().is_err());
    assert_eq!(w.profile(), before);
}

/// A step whose move overflows `f32` (a finite but huge velocity over a
/// long step) is refused before anything changes: no collider of any body,
/// even those placed before the offending one, takes a new placement.
#[test]
fn a_step_whose_move_overflows_changes_nothing() {
    let mut w = stack(2);
    w.step().unwrap();
    let placements = |w: &PhysicsWorld3| -> Vec<_> {
        w.collision_world()
            .iter()
            .map(|(h, c)| (h, c.pose, c.margin, c.displacement))
            .collect()
    };
    let before = placements(&w);
    let last = w.bodies().last().map(|(h, _)| h).unwrap();
    w.settings_mut().dt = 1.0e3;
    w.body_mut(last).unwrap().linvel = Vec3::new(1.0e37, 0.0, 0.0);
    let err = w.step().unwrap_err().to_string();
    assert!(err.contains("displacement"), "{err}");
    assert_eq!(placements(&w), before);
}

/// A body whose velocity was made NaN through `body_mut` is refused before
/// anything changes, in a small world and in one of more than 1,024 bodies
/// (whose bodies are checked on the threads), on one thread and on two:
/// no body moves and no collider takes a new placement.
#[test]
fn a_step_with_a_non_finite_body_changes_nothing() {
    for (n, threads) in [(2, 1), (2, 2), (33, 1), (33, 2)] {
        on_threads(threads, || {
            let mut w = stack(n);
            assert_eq!(n > 2, w.bodies().count() > 1024);
            w.step().unwrap();
            // Compared as text: the NaN body's own state is not equal to
            // itself under `==`.
            let state = |w: &PhysicsWorld3| -> Vec<_> {
                let bodies = w.bodies().map(|(_, b)| (b.pose, b.linvel, b.angvel));
                let colliders = w.collision_world().iter().map(|(_, c)| c.pose);
                (bodies.map(|b| format!("{b:?}")))
                    .chain(colliders.map(|p| format!("{p:?}")))
                    .collect()
            };
            // One in the middle: a threaded check splits the bodies.
            let (middle, _) = w.bodies().nth(w.bodies().count() / 2).unwrap();
            w.body_mut(middle).unwrap().angvel = Vec3::new(0.0, f32::NAN, 0.0);
            let before = state(&w);
            let err = w.step().unwrap_err();
            assert_eq!(err, DynamicsError::NonFiniteBody, "{n} x {n} boxes");
            assert_eq!(state(&w), before, "{n} x {n} boxes, {threads} threads");
        });
    }
}
