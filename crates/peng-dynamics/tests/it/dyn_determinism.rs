//! Determinism: the same scene gives bit-identical states after 1,000
//! steps on 1, 2 and 4 threads, and from run to run; and a scene large
//! enough that the contact solver splits its colours over the threads.

use glam::{Quat, Vec2, Vec3};
use peng::d2::{Circle, Pose2, Rect};
use peng::d3::{Ball, Capsule, Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, JointDesc2, PhysicsWorld2, PhysicsWorld3};

use crate::common::on_threads;

/// A heap of boxes, balls and capsules dropped into a box-walled pit.
fn scene() -> PhysicsWorld3 {
    let mut w = PhysicsWorld3::new();
    let floor = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
        0.0, -0.5, 0.0,
    ))));
    w.add_collider(
        floor,
        ColliderDesc::new(Cuboid::new(Vec3::new(4.0, 0.5, 4.0)).unwrap()),
    )
    .unwrap();
    for (x, z) in [(4.5, 0.0), (-4.5, 0.0), (0.0, 4.5), (0.0, -4.5)] {
        let wall = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
            x, 1.0, z,
        ))));
        let half = if x != 0.0 {
            Vec3::new(0.5, 1.0, 4.0)
        } else {
            Vec3::new(4.0, 1.0, 0.5)
        };
        w.add_collider(wall, ColliderDesc::new(Cuboid::new(half).unwrap()))
            .unwrap();
    }
    let mut seed = 12345u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for i in 0..60 {
        let p = Vec3::new(rnd() * 5.0 - 2.5, 1.0 + i as f32 * 0.6, rnd() * 5.0 - 2.5);
        let q = Quat::from_scaled_axis(Vec3::new(rnd(), rnd(), rnd()) * 2.0);
        let b = w.add_body(BodyDesc::dynamic(Pose3::new(p, q)));
        let c = match i % 3 {
            0 => ColliderDesc::new(Cuboid::new(Vec3::new(0.4, 0.3, 0.2)).unwrap()),
            1 => ColliderDesc::new(Ball::new(0.3).unwrap()),
            _ => ColliderDesc::new(
                Capsule::new(Vec3::new(0.0, -0.3, 0.0), Vec3::new(0.0, 0.3, 0.0), 0.2).unwrap(),
            ),
        };
        w.add_collider(b, c.with_restitution(0.2)).unwrap();
    }
    w
}

/// FNV-1a over the bits of `xs`.
fn fnv(xs: impl IntoIterator<Item = f32>) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    for x in xs {
        for byte in x.to_bits().to_le_bytes() {
            h = (h ^ byte as u64).wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// FNV-1a over the bits of every body's pose and velocities.
fn state_hash(w: &PhysicsWorld3) -> u64 {
    fnv(w.bodies().flat_map(|(_, b)| {
        let (p, q) = (b.pose.translation, b.pose.rotation);
        [p.to_array(), b.linvel.to_array(), b.angvel.to_array()]
            .into_iter()
            .flatten()
            .chain(q.to_array())
    }))
}

fn run(threads: usize) -> u64 {
    on_threads(threads, || {
        let mut w = scene();
        for _ in 0..1000 {
            w.step().expect("step");
        }
        assert!(w.bodies().all(|(_, b)| b.is_finite()));
        state_hash(&w)
    })
}

/// Asserts that `run` (a state hash after a run on that many threads) gives
/// the same hash on 2 and 4 threads as on 1, and returns that hash.
fn same_on_1_2_and_4_threads(run: impl Fn(usize) -> u64) -> u64 {
    let one = run(1);
    assert_eq!(one, run(2), "2 threads differ from 1");
    assert_eq!(one, run(4), "4 threads differ from 1");
    one
}

#[test]
fn same_state_hash_on_1_2_and_4_threads_and_across_runs() {
    let one = same_on_1_2_and_4_threads(run);
    assert_eq!(one, run(1), "a second run differs");
}

/// A pyramid of 1,081 boxes (base 46) hit by 60 balls. Its 3,100-odd
/// contacts fill colours of some 55 blocks each, which the solver hands to
/// the threads in runs of at least 16, and its 1,142 bodies are integrated
/// in runs of 256 (`solver::colour`). Its touching pairs, more than 1,024,
/// are built into constraints in chunks on the threads
/// (`world::contacts`). Its bodies, more than 1,024, are placed in the
/// collision world, made solver bodies and written back on the threads
/// (`world::step`).
fn pyramid_scene() -> PhysicsWorld2 {
    let mut w = PhysicsWorld2::new();
    let ground = w.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(
        0.0, -0.5,
    ))));
    w.add_collider(
        ground,
        ColliderDesc::new(Rect::new(Vec2::new(80.0, 0.5)).unwrap()),
    )
    .unwrap();
    let square = Rect::new(Vec2::splat(0.5)).unwrap();
    let base = 46;
    for row in 0..base {
        let n = base - row;
        for i in 0..n {
            let x = i as f32 - 0.5 * (n - 1) as f32;
            let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
                x,
                0.5 + row as f32,
            ))));
            w.add_collider(b, ColliderDesc::new(square)).unwrap();
        }
    }
    let mut seed = 777u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for i in 0..60 {
        let p = Vec2::new(rnd() * 30.0 - 15.0, 45.0 + i as f32);
        let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(p)));
        w.add_collider(
            b,
            ColliderDesc::new(Circle::new(0.4 + 0.3 * rnd()).unwrap()).with_restitution(0.3),
        )
        .unwrap();
    }
    w
}

/// The hash of every body's pose and velocities after `steps` steps of
/// `scene()` on a pool of `threads`.
fn run2(threads: usize, scene: fn() -> PhysicsWorld2, steps: usize) -> u64 {
    on_threads(threads, || {
        let mut w = scene();
        for _ in 0..steps {
            w.step().expect("step");
        }
        assert!(w.bodies().all(|(_, b)| b.is_finite()));
        fnv(w.bodies().flat_map(|(_, b)| {
            let p = b.pose;
            [
                p.translation.x,
                p.translation.y,
                p.rotation.cos,
                p.rotation.sin,
                b.linvel.x,
                b.linvel.y,
                b.angvel,
            ]
        }))
    })
}

fn run_pyramid(threads: usize) -> u64 {
    run2(threads, pyramid_scene, 240)
}

#[test]
fn a_pyramid_solved_on_several_threads_gives_the_same_states() {
    same_on_1_2_and_4_threads(run_pyramid);
}

/// A hanging net of 40 x 40 balls, each linked to its right and lower
/// neighbours by revolute joints (3,081 of them), the top row fixed. Its
/// joints fill colours of several hundred each, which the solver hands to
/// the threads in runs of at least 64 (`joint::graph`).
fn net_scene() -> PhysicsWorld2 {
    let mut w = PhysicsWorld2::new();
    let n = 40;
    let mut ids = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let p = Vec2::new(col as f32, -(row as f32));
            let desc = if row == 0 {
                BodyDesc::fixed(Pose2::from_translation(p))
            } else {
                BodyDesc::dynamic(Pose2::from_translation(p))
            };
            let b = w.add_body(desc);
            w.add_collider(b, ColliderDesc::new(Circle::new(0.4).unwrap()))
                .unwrap();
            ids.push((b, p));
        }
    }
    for row in 0..n {
        for col in 0..n {
            let (b, p) = ids[row * n + col];
            if col + 1 < n && row > 0 {
                let (r, q) = ids[row * n + col + 1];
                w.add_joint(JointDesc2::revolute(b, r, (p + q) * 0.5))
                    .unwrap();
            }
            if row + 1 < n {
                let (d, q) = ids[(row + 1) * n + col];
                w.add_joint(JointDesc2::revolute(b, d, (p + q) * 0.5))
                    .unwrap();
            }
        }
    }
    assert_eq!(w.joint_count(), 39 * 39 + 39 * 40);
    // Swing it: a push on the lower left corner.
    let (corner, _) = ids[(n - 1) * n];
    w.body_mut(corner).unwrap().linvel = Vec2::new(30.0, 0.0);
    w
}

fn run_net(threads: usize) -> u64 {
    run2(threads, net_scene, 120)
}

#[test]
fn a_net_of_joints_solved_on_several_threads_gives_the_same_states() {
    same_on_1_2_and_4_threads(run_net);
}

/// The heap of `scene()` after `steps` steps with the collision world's
/// broad-phase slack at `slack`, on one thread.
fn run_with_slack(slack: f32, steps: usize) -> u64 {
    on_threads(1, || {
        let mut w = scene();
        w.settings_mut().broad_slack = slack;
        for _ in 0..steps {
            w.step().expect("step");
        }
        state_hash(&w)
    })
}

/// The broad phase's slack changes which boxes it keeps, not which pairs
/// are tested: the heap (falling, then settling: colliders given grown
/// boxes, kept in them, and given again) ends in the same states to the
/// bit with exact boxes, the default slack and a large one.
#[test]
fn broad_slack_does_not_change_the_states() {
    let exact = run_with_slack(0.0, 400);
    assert_eq!(exact, run_with_slack(0.1, 400), "default slack");
    assert_eq!(exact, run_with_slack(1.0, 400), "large slack");
}
