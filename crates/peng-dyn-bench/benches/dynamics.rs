//! Rigid-body dynamics, one criterion group per scene:
//! `dyn2d/large_pyramid`, `dyn2d/many_pyramids`, `dyn2d/tumbler`,
//! `dyn2d/joint_grid` (Box2D v3's benchmark set, `peng_dyn_bench::box2d`),
//! `dyn3d/pyramid`, `dyn3d/convex_pile` (`peng_dyn_bench::scenes3`). Each
//! engine is one function of the group (`rapier2d` / `rapier3d` now; peng's
//! side is added to the same groups on the same scene data).
//!
//! What is timed: ONE step of 1/60 s of a warmed, continuing simulation.
//! Each group builds its scene once, runs `settle` untimed steps (1 for the
//! scenes that start at rest or in motion, like Box2D's benchmark, which
//! leaves the first, costliest step out; 150 for the convex pile, so that
//! every hull has landed and the timed steps are those of the pile), then
//! criterion times single steps of the same world, so the scene goes on
//! evolving through warm-up and sampling (a few hundred steps in all). The
//! pyramids stand still over that time; the tumbler, the hanging joint grid
//! and the pile keep the same work per step. `dyn_steps` gives Box2D's
//! other figure, the total of a fixed number of steps from the start.
//!
//! Both engines run on one thread here: rapier without this package's
//! `parallel` feature, and peng on a rayon pool of one thread (`main` sets
//! `RAYON_NUM_THREADS=1`); rapier's 60 Hz defaults, see `common/mod.rs`.
//!
//! Run: `cargo bench -p peng-dyn-bench --bench dynamics` (a few minutes),
//! or one group: `cargo bench -p peng-dyn-bench --bench dynamics -- dyn2d/tumbler`.

mod common;

use common::{Peng2, Peng3, Rapier2, Rapier3};
use criterion::measurement::WallTime;
use criterion::{criterion_group, BenchmarkGroup, Criterion, SamplingMode};
use peng_dyn_bench::{box2d, scenes3, Scene2, Scene3};
use std::hint::black_box;
use std::time::Duration;

/// Untimed steps before sampling for the scenes that need no settling.
const FIRST: usize = 1;
/// Untimed steps before sampling for the convex pile (2.5 s: all landed).
const PILE_SETTLE: usize = 150;
/// Base of the 3D pyramid (2,870 cubes).
const PYRAMID3_BASE: usize = 20;
/// Hulls in the convex pile.
const PILE_HULLS: usize = 1000;

fn configure<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sampling_mode(SamplingMode::Flat);
    g
}

fn group2(c: &mut Criterion, name: &str, scene: &Scene2, settle: usize) {
    let mut rapier = Rapier2::build(scene);
    for _ in 0..settle {
        rapier.step();
    }
    let mut peng = Peng2::build(scene);
    for _ in 0..settle {
        peng.step();
    }
    let mut g = configure(c, name);
    g.bench_function("rapier2d", |b| {
        b.iter(|| {
            rapier.step();
            black_box(&rapier.world.bodies);
        })
    });
    g.bench_function("peng", |b| {
        b.iter(|| {
            peng.step();
            black_box(&peng.world);
        })
    });
    g.finish();
}

fn group3(c: &mut Criterion, name: &str, scene: &Scene3, settle: usize) {
    let mut rapier = Rapier3::build(scene);
    for _ in 0..settle {
        rapier.step();
    }
    let mut peng = Peng3::build(scene);
    for _ in 0..settle {
        peng.step();
    }
    let mut g = configure(c, name);
    g.bench_function("rapier3d", |b| {
        b.iter(|| {
            rapier.step();
            black_box(&rapier.world.bodies);
        })
    });
    g.bench_function("peng", |b| {
        b.iter(|| {
            peng.step();
            black_box(&peng.world);
        })
    });
    g.finish();
}

fn dyn2d(c: &mut Criterion) {
    group2(c, "dyn2d/large_pyramid", &box2d::large_pyramid(100), FIRST);
    group2(
        c,
        "dyn2d/many_pyramids",
        &box2d::many_pyramids_default(),
        FIRST,
    );
    group2(c, "dyn2d/tumbler", &box2d::tumbler(), FIRST);
    group2(c, "dyn2d/joint_grid", &box2d::joint_grid(100), FIRST);
}

fn dyn3d(c: &mut Criterion) {
    group3(c, "dyn3d/pyramid", &scenes3::pyramid3(PYRAMID3_BASE), FIRST);
    group3(
        c,
        "dyn3d/convex_pile",
        &scenes3::convex_pile(PILE_HULLS),
        PILE_SETTLE,
    );
}

criterion_group!(benches, dyn2d, dyn3d);

fn main() {
    // One thread for peng's rayon pool, as rapier has without `parallel`
    // (read when rayon's global pool starts, after this line).
    std::env::set_var("RAYON_NUM_THREADS", "1");
    benches();
    Criterion::default().configure_from_args().final_summary();
}
