//! The collision world against rapier's collision-only pipeline, same scene,
//! same run: `MovingShapes` (balls, boxes and capsules of mixed sizes; a tenth
//! of them move and turn each frame), 10k and 100k colliders. One frame is
//! the scene step, the new poses of the movers, and the update that gives the
//! touching pairs and their begin/end events (with contact manifolds for the
//! solid pairs, which both libraries compute).
//!
//! - peng: `World3::set_pose` for the movers, then `World3::update` (every
//!   collider in `EventMode::Once`).
//! - rapier3d 0.36 (built on parry3d 0.31, like peng's other benches): a
//!   `ColliderSet` of parentless colliders (`ActiveCollisionTypes::all()` so
//!   fixed-fixed pairs are tested, `ActiveEvents::COLLISION_EVENTS`),
//!   `set_position` for the movers, then `CollisionPipeline::step` with
//!   prediction distance 0 and an event handler that counts started and
//!   stopped events.
//!
//! Before timing, the number of touching pairs after one frame is compared
//! (printed; the libraries' touching tolerances differ by rounding).
//!
//! Threads: both libraries run on the same number of threads.
//! - `cargo bench -p peng-world-bench`: one thread each. rapier is built
//!   without its `parallel` feature (single-threaded), and the bench sets
//!   `RAYON_NUM_THREADS=1` before anything runs, so peng's world (which runs
//!   on rayon's global pool) gets a pool of one thread too.
//! - `cargo bench -p peng-world-bench --features parallel`: rapier's parallel
//!   pipeline and peng's world on rayon's global pool, which both use: one
//!   thread per core unless `RAYON_NUM_THREADS` says otherwise.
//!
//! The group names carry the thread count (`world moving 10k, 2 threads`).

use criterion::Criterion;
use glam::Vec3;
use peng::d3::{Ball, Capsule, Collider, Cuboid, Pose3, Shape, World3};
use peng::world::ColliderHandle;
use peng_bench::world_scene::{MovingShapes, ShapeSpec};
use rapier3d::prelude as r;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const SEED: u64 = 0x5eed_0004;

fn peng_shape(s: &ShapeSpec) -> Shape {
    match *s {
        ShapeSpec::Ball(rad) => Ball::new(rad).expect("radius").into(),
        ShapeSpec::Cuboid(h) => Cuboid::new(h).expect("half-extents").into(),
        ShapeSpec::Capsule(hh, rad) => {
            Capsule::new(Vec3::new(0.0, -hh, 0.0), Vec3::new(0.0, hh, 0.0), rad)
                .expect("capsule")
                .into()
        }
    }
}

fn pose(scene: &MovingShapes, i: usize) -> Pose3 {
    Pose3::new(scene.centres[i], scene.rotations[i])
}

struct Peng {
    world: World3,
    handles: Vec<ColliderHandle>,
}

impl Peng {
    fn build(scene: &MovingShapes) -> Self {
        let mut world = World3::new();
        let handles = (0..scene.len())
            .map(|i| {
                world
                    .insert(Collider::new(peng_shape(&scene.shapes[i]), pose(scene, i)))
                    .expect("valid collider")
            })
            .collect();
        world.update();
        Peng { world, handles }
    }
    fn frame(&mut self, scene: &MovingShapes, moved: &[usize]) -> usize {
        for &i in moved {
            self.world
                .set_pose(self.handles[i], pose(scene, i))
                .expect("live collider");
        }
        self.world.update().len()
    }
    fn touching(&self) -> usize {
        self.world.touching_pairs().count()
    }
}

/// Counts rapier's collision events.
#[derive(Default)]
struct Counter {
    started: AtomicUsize,
    stopped: AtomicUsize,
}

impl r::EventHandler for Counter {
    fn handle_collision_event(
        &self,
        _bodies: &r::RigidBodySet,
        _colliders: &r::ColliderSet,
        event: r::CollisionEvent,
        _pair: Option<&r::ContactPair>,
    ) {
        if event.started() {
            self.started.fetch_add(1, Ordering::Relaxed);
        } else {
            self.stopped.fetch_add(1, Ordering::Relaxed);
        }
    }
    fn handle_contact_force_event(
        &self,
        _dt: f32,
        _bodies: &r::RigidBodySet,
        _colliders: &r::ColliderSet,
        _pair: &r::ContactPair,
        _magnitude: f32,
    ) {
    }
    fn handle_soft_body_tear_event(
        &self,
        _soft_bodies: &r::SoftBodySet,
        _event: &r::SoftBodyTearEvent,
    ) {
    }
}

struct Rapier {
    pipeline: r::CollisionPipeline,
    islands: r::IslandManager,
    broad: r::BroadPhaseBvh,
    narrow: r::NarrowPhase,
    bodies: r::RigidBodySet,
    colliders: r::ColliderSet,
    handles: Vec<r::ColliderHandle>,
    events: Counter,
}

fn rapier_pose(scene: &MovingShapes, i: usize) -> r::Pose {
    r::Pose::from_parts(scene.centres[i], scene.rotations[i])
}

impl Rapier {
    fn build(scene: &MovingShapes) -> Self {
        let mut colliders = r::ColliderSet::new();
        let handles = (0..scene.len())
            .map(|i| {
                let b = match scene.shapes[i] {
                    ShapeSpec::Ball(rad) => r::ColliderBuilder::ball(rad),
                    ShapeSpec::Cuboid(h) => r::ColliderBuilder::cuboid(h.x, h.y, h.z),
                    ShapeSpec::Capsule(hh, rad) => r::ColliderBuilder::capsule_y(hh, rad),
                };
                colliders.insert(
                    b.position(rapier_pose(scene, i))
                        .active_collision_types(r::ActiveCollisionTypes::all())
                        .active_events(r::ActiveEvents::COLLISION_EVENTS)
                        .build(),
                )
            })
            .collect();
        let mut s = Rapier {
            pipeline: r::CollisionPipeline::new(),
            islands: r::IslandManager::new(),
            broad: r::BroadPhaseBvh::new(),
            narrow: r::NarrowPhase::new(),
            bodies: r::RigidBodySet::new(),
            colliders,
            handles,
            events: Counter::default(),
        };
        s.step();
        s
    }
    fn step(&mut self) {
        self.pipeline.step(
            0.0,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &self.events,
        );
    }
    fn frame(&mut self, scene: &MovingShapes, moved: &[usize]) -> usize {
        for &i in moved {
            if let Some(c) = self.colliders.get_mut(self.handles[i]) {
                c.set_position(rapier_pose(scene, i));
            }
        }
        self.step();
        self.events.started.load(Ordering::Relaxed)
    }
    fn touching(&self) -> usize {
        self.narrow
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

/// The number of threads both libraries run on: 1 without the `parallel`
/// feature (see `main`), else rayon's global pool's (`RAYON_NUM_THREADS` or
/// one per core).
fn threads() -> usize {
    if !cfg!(feature = "parallel") {
        return 1;
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn world(c: &mut Criterion) {
    let threads = threads();
    let unit = if threads == 1 { "thread" } else { "threads" };
    eprintln!(
        "rapier3d {} (parallel feature {}), peng's world: both on {threads} {unit}",
        rapier3d::VERSION,
        if cfg!(feature = "parallel") {
            "on"
        } else {
            "off"
        }
    );
    for (n, label) in [(10_000, "10k"), (100_000, "100k")] {
        let scene = MovingShapes::new(n, SEED);
        let mut g = c.benchmark_group(format!("world moving {label}, {threads} {unit}"));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        {
            let mut s = scene.clone();
            let mut p = Peng::build(&s);
            let moved = s.step();
            p.frame(&s, &moved);
            let mut s2 = scene.clone();
            let mut q = Rapier::build(&s2);
            let moved = s2.step();
            q.frame(&s2, &moved);
            eprintln!(
                "world moving {label}: touching pairs after one frame: peng {}, rapier {}",
                p.touching(),
                q.touching()
            );
            g.bench_function("peng world", |b| {
                b.iter(|| {
                    let moved = s.step();
                    black_box(p.frame(&s, &moved))
                })
            });
            g.bench_function("rapier collision pipeline", |b| {
                b.iter(|| {
                    let moved = s2.step();
                    black_box(q.frame(&s2, &moved))
                })
            });
        }
        g.finish();
    }
}

fn main() {
    // Without rapier's `parallel` feature rapier runs on one thread: give
    // peng's world a one-thread pool too (rayon reads the variable when its
    // global pool starts, on first use, which is after this line).
    if !cfg!(feature = "parallel") {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let mut c = Criterion::default().configure_from_args();
    world(&mut c);
    c.final_summary();
}
