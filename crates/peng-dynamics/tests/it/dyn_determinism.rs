//! Determinism: the same scene gives bit-identical states after 1,000
//! steps on 1, 2 and 4 threads, and from run to run.

use glam::{Quat, Vec3};
use peng::d3::{Ball, Capsule, Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

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

/// FNV-1a over the bits of every body's pose and velocities.
fn state_hash(w: &PhysicsWorld3) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    let mut eat = |x: f32| {
        for byte in x.to_bits().to_le_bytes() {
            h = (h ^ byte as u64).wrapping_mul(0x100000001b3);
        }
    };
    for (_, b) in w.bodies() {
        let p = b.pose;
        for x in p
            .translation
            .to_array()
            .into_iter()
            .chain(p.rotation.to_array())
        {
            eat(x);
        }
        for x in b.linvel.to_array().into_iter().chain(b.angvel.to_array()) {
            eat(x);
        }
    }
    h
}

fn run(threads: usize) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| {
        let mut w = scene();
        for _ in 0..1000 {
            w.step().expect("step");
        }
        assert!(w.bodies().all(|(_, b)| b.is_finite()));
        state_hash(&w)
    })
}

#[test]
fn same_state_hash_on_1_2_and_4_threads_and_across_runs() {
    let one = run(1);
    assert_eq!(one, run(2), "2 threads differ from 1");
    assert_eq!(one, run(4), "4 threads differ from 1");
    assert_eq!(one, run(1), "a second run differs");
}
