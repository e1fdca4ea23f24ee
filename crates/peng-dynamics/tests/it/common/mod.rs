//! Scene builders shared by the physical checks.
#![allow(dead_code)]

use glam::{Vec2, Vec3};
use peng::d3::{Ball, Cuboid, Pose3, TriMesh};
use peng_dynamics::{BodyDesc, BodyHandle, ColliderDesc, PhysicsWorld2, PhysicsWorld3};

/// A flat square triangle-mesh floor at y = 0, `half` wide, `n`×`n` cells.
pub fn mesh_floor(world: &mut PhysicsWorld3, half: f32, n: u32) -> BodyHandle {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let x = -half + 2.0 * half * i as f32 / n as f32;
            let z = -half + 2.0 * half * j as f32 / n as f32;
            v.push(Vec3::new(x, 0.0, z));
        }
    }
    let row = n + 1;
    for j in 0..n {
        for i in 0..n {
            let a = j * row + i;
            idx.push([a, a + row, a + 1]);
            idx.push([a + 1, a + row, a + row + 1]);
        }
    }
    let mesh = TriMesh::new(v, idx)
        .expect("valid floor mesh")
        .with_one_sided(true);
    let floor = world.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    world
        .add_collider(floor, ColliderDesc::new(mesh))
        .expect("floor collider");
    floor
}

/// A dynamic ball.
pub fn ball3(world: &mut PhysicsWorld3, at: Vec3, r: f32, restitution: f32) -> BodyHandle {
    let b = world.add_body(BodyDesc::dynamic(Pose3::from_translation(at)));
    world
        .add_collider(
            b,
            ColliderDesc::new(Ball::new(r).expect("radius")).with_restitution(restitution),
        )
        .expect("ball collider");
    b
}

/// A dynamic or static box.
pub fn box3(
    world: &mut PhysicsWorld3,
    desc: BodyDesc<peng::world::Dim3>,
    half: Vec3,
    friction: f32,
) -> BodyHandle {
    let b = world.add_body(desc);
    world
        .add_collider(
            b,
            ColliderDesc::new(Cuboid::new(half).expect("half extents")).with_friction(friction),
        )
        .expect("box collider");
    b
}

/// A static 2D ground box whose top is at y = 0.
pub fn ground2(world: &mut PhysicsWorld2, half_width: f32) -> BodyHandle {
    use peng::d2::{Pose2, Rect};
    let g = world.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(
        0.0, -1.0,
    ))));
    world
        .add_collider(
            g,
            ColliderDesc::new(Rect::new(Vec2::new(half_width, 1.0)).expect("size")),
        )
        .expect("ground collider");
    g
}

/// `f` on a pool of `threads` threads.
pub fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}
