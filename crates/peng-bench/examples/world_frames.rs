//! Times frames of the world benchmark's scene for peng's `World3` alone, for
//! profiling (`perf record`) outside criterion:
//! `cargo run --profile bench -p peng-bench --example world_frames -- 10000 200`
//! (collider count; frames).

use glam::Vec3;
use peng::d3::{Ball, Capsule, Collider, Cuboid, Pose3, Shape, World3};
use peng_bench::world_scene::{MovingShapes, ShapeSpec};
use std::time::{Duration, Instant};

fn shape(s: &ShapeSpec) -> Shape {
    match *s {
        ShapeSpec::Ball(r) => Ball::new(r).expect("radius").into(),
        ShapeSpec::Cuboid(h) => Cuboid::new(h).expect("half-extents").into(),
        ShapeSpec::Capsule(hh, r) => {
            Capsule::new(Vec3::new(0.0, -hh, 0.0), Vec3::new(0.0, hh, 0.0), r)
                .expect("capsule")
                .into()
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let mut scene = MovingShapes::new(n, 0x5eed_0004);
    let mut world = World3::new();
    let pose = |s: &MovingShapes, i: usize| Pose3::new(s.centres[i], s.rotations[i]);
    let handles: Vec<_> = (0..n)
        .map(|i| {
            world
                .insert(Collider::new(shape(&scene.shapes[i]), pose(&scene, i)))
                .expect("collider")
        })
        .collect();
    world.update();
    let mut times = Vec::new();
    let mut events = 0;
    for _ in 0..frames {
        let moved = scene.step();
        let t = Instant::now();
        for &i in &moved {
            world.set_pose(handles[i], pose(&scene, i)).expect("live");
        }
        events += world.update().len();
        times.push(t.elapsed());
    }
    times.sort();
    let total: Duration = times.iter().sum();
    eprintln!(
        "{n} colliders: median frame {:?}, mean {:?}, {events} events",
        times[times.len() / 2],
        total / frames as u32
    );
}
