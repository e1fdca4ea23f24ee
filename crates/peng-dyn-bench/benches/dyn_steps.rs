//! Fixed step counts per scene, timed as Box2D's benchmark application does
//! (`benchmark/main.c`): build the scene, take one untimed step (the first
//! is the costliest: every pair is new), then time `steps` steps of 1/60 s
//! in a row. Prints one row per scene: bodies, joints, threads, total ms,
//! ms per step, contact pairs at the end, and a sanity check of the end
//! state (did the pyramids stand, did the boxes stay in the tumbler, did the
//! joints hold, did the hulls stay above the floor).
//!
//! Each scene runs in rapier and then in peng (peng-dynamics' defaults:
//! 60 Hz, 4 substeps).
//!
//! Threads: in every row both engines run on the row's thread count (`thr`).
//! Both use rayon (one rayon in the build), so a row's pool of `thr` threads
//! holds both. Without the `parallel` feature rapier is single-threaded and
//! `main` sets `RAYON_NUM_THREADS=1` before anything runs, so peng's rayon
//! pool has one thread too.
//!
//! Usage (both single-threaded):
//!   cargo bench -p peng-dyn-bench --bench dyn_steps [-- [FILTER] [--steps N] [--engine peng|rapier] [--repeat N]]
//!
//! `--repeat N`: the two engines take turns N times per scene and each row
//! is the engine's fastest run (for shared, noisy machines). `--phases`:
//! peng's rows end with its mean time per step in each phase (collide,
//! prepare, solve, finish; see `peng_dynamics::StepProfile`). `--hash`:
//! every row ends with an FNV-1a hash of the bits of every body's end
//! position and angle (rotation in 3D), to check that a change to the engine
//! changed nothing it should not, to the last bit.
//!
//! Multi-threaded (rapier's `parallel` feature, a separate build of rapier;
//! rows for 1 thread and for every core, or `--threads N`):
//!   cargo bench -p peng-dyn-bench --features parallel --bench dyn_steps
//!
//! Default steps: Box2D's (large pyramid 500, many pyramids 200, tumbler
//! 750, joint grid 500); the 3D scenes 500.

mod common;

use common::{Engine2, Engine3, Peng2, Peng3, Rapier2, Rapier3, StepProfile};
use glam::{Vec2, Vec3};
use peng_dyn_bench::{box2d, scenes3, JointSpec2, Kind, Scene2, Scene3};
use std::time::Instant;

/// A scene and the number of steps to run it.
enum Case {
    D2(&'static str, fn() -> Scene2, usize),
    D3(&'static str, fn() -> Scene3, usize),
}

fn cases() -> Vec<Case> {
    vec![
        Case::D2(
            "dyn2d/large_pyramid",
            || box2d::large_pyramid(100),
            box2d::LARGE_PYRAMID_STEPS,
        ),
        Case::D2(
            "dyn2d/many_pyramids",
            box2d::many_pyramids_default,
            box2d::MANY_PYRAMIDS_STEPS,
        ),
        Case::D2("dyn2d/tumbler", box2d::tumbler, box2d::TUMBLER_STEPS),
        Case::D2(
            "dyn2d/joint_grid",
            || box2d::joint_grid(100),
            box2d::JOINT_GRID_STEPS,
        ),
        Case::D3("dyn3d/pyramid", || scenes3::pyramid3(20), scenes3::STEPS),
        Case::D3(
            "dyn3d/convex_pile",
            || scenes3::convex_pile(1000),
            scenes3::STEPS,
        ),
    ]
}

/// The largest displacement of any dynamic body from its start, and the
/// last body's height at the start and now (the top box of the pyramids).
fn drift2(scene: &Scene2, w: &dyn Engine2) -> String {
    let mut worst = 0.0f32;
    for (i, b) in scene.bodies.iter().enumerate() {
        if b.kind == Kind::Dynamic {
            worst = worst.max(w.position(i).distance(b.position));
        }
    }
    let last = scene.bodies.len() - 1;
    let (start, end) = (scene.bodies[last].position, w.position(last));
    format!(
        "top y {:.3} -> {:.3} (x moved {:.3}), max box drift {:.3} m",
        start.y,
        end.y,
        end.x - start.x,
        worst
    )
}

fn sanity2(name: &str, scene: &Scene2, w: &dyn Engine2) -> String {
    match name {
        "dyn2d/tumbler" => {
            // Boxes inside the walls' inner faces, in the tumbler's frame.
            let (c, a) = (w.position(0), w.angle(0));
            let inside = (1..scene.bodies.len())
                .filter(|&i| {
                    let p = Vec2::from_angle(-a).rotate(w.position(i) - c);
                    p.x.abs() < 9.5 && p.y.abs() < 9.5
                })
                .count();
            format!(
                "{inside}/{} boxes inside, drum at {:.1} deg (mod 360)",
                scene.bodies.len() - 1,
                a.to_degrees().rem_euclid(360.0)
            )
        }
        "dyn2d/joint_grid" => {
            // Joint error: distance between the two bodies' copies of the
            // anchor (rigid transforms of the start's local anchors).
            let mut worst = 0.0f32;
            for j in &scene.joints {
                let JointSpec2::Revolute {
                    body_a,
                    body_b,
                    anchor,
                } = *j;
                let world = |i: usize| {
                    let b = &scene.bodies[i];
                    let local = Vec2::from_angle(-b.angle).rotate(anchor - b.position);
                    w.position(i) + Vec2::from_angle(w.angle(i)).rotate(local)
                };
                worst = worst.max(world(body_a).distance(world(body_b)));
            }
            let lowest = (0..scene.bodies.len())
                .map(|i| w.position(i).y)
                .fold(f32::MAX, f32::min);
            format!("max joint gap {worst:.4} m, lowest y {lowest:.1}")
        }
        _ => drift2(scene, w),
    }
}

fn sanity3(name: &str, scene: &Scene3, w: &dyn Engine3) -> String {
    let n = scene.bodies.len();
    if name == "dyn3d/convex_pile" {
        let ps: Vec<glam::Vec3> = (1..n).map(|i| w.position(i)).collect();
        let low =
            ps.iter().copied().fold(
                glam::Vec3::splat(f32::MAX),
                |a, p| if p.y < a.y { p } else { a },
            );
        let mean = ps.iter().map(|p| p.y).sum::<f32>() / ps.len().max(1) as f32;
        let through = ps.iter().filter(|p| p.y < -1.0).count();
        return format!(
            "lowest y {:.2} (at x {:.1}, z {:.1}), mean y {mean:.2}, {through} fell through",
            low.y, low.x, low.z
        );
    }
    let mut worst = 0.0f32;
    for (i, b) in scene.bodies.iter().enumerate() {
        if b.kind == Kind::Dynamic {
            worst = worst.max(w.position(i).distance(b.position));
        }
    }
    let (start, end): (Vec3, Vec3) = (scene.bodies[n - 1].position, w.position(n - 1));
    let sideways = (end - start).with_y(0.0).length();
    format!(
        "top y {:.3} -> {:.3} (sideways {:.3}), max box drift {:.3} m",
        start.y, end.y, sideways, worst
    )
}

/// FNV-1a over the bits of `values`.
fn fnv(values: impl Iterator<Item = f32>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for x in values {
        for byte in x.to_bits().to_le_bytes() {
            h = (h ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Runs one case in one engine (`peng`: peng-dynamics, else rapier);
/// returns its milliseconds per step and its table row.
fn run(
    case: &Case,
    steps: Option<usize>,
    threads: usize,
    peng: bool,
    phases: bool,
    hash: bool,
) -> (f64, String) {
    // With `--phases`, peng's rows end with its mean time per phase.
    let mut sum = [0.0f64; 4];
    let mut add = |p: Option<StepProfile>| {
        if let Some(p) = p {
            for (s, d) in sum
                .iter_mut()
                .zip([p.collide, p.prepare, p.solve, p.finish])
            {
                *s += d.as_secs_f64() * 1e3;
            }
        }
    };
    let phase_text = |sum: &[f64; 4], n: usize| {
        if !(phases && peng) {
            return String::new();
        }
        let m = |x: f64| x / n.max(1) as f64;
        format!(
            "; ms/step: collide {:.2}, prepare {:.2}, solve {:.2}, finish {:.2}",
            m(sum[0]),
            m(sum[1]),
            m(sum[2]),
            m(sum[3])
        )
    };
    let row = |name: &str, bodies: usize, joints: usize, n: usize, ms: f64, pairs, sanity| {
        let engine = if peng { "peng" } else { "rapier" };
        let per_step = ms / n.max(1) as f64;
        let text = format!(
            "{name:<22} {engine:<7} {bodies:>7} {joints:>7} {threads:>3} {n:>6} {ms:>10.1} {per_step:>9.3} {pairs:>8}  {sanity}"
        );
        (per_step, text)
    };
    match case {
        Case::D2(name, build, default) => {
            let scene = build();
            let n = steps.unwrap_or(*default);
            let mut w: Box<dyn Engine2> = if peng {
                Box::new(Peng2::build(&scene))
            } else {
                Box::new(Rapier2::build(&scene))
            };
            w.step();
            let t = Instant::now();
            for _ in 0..n {
                w.step();
                add(w.phases());
            }
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let mut s = sanity2(name, &scene, w.as_ref()) + &phase_text(&sum, n);
            if hash {
                let bits = (0..scene.bodies.len()).flat_map(|i| {
                    let (p, a) = (w.position(i), w.angle(i));
                    [p.x, p.y, a]
                });
                s += &format!("; state hash {:016x}", fnv(bits));
            }
            row(
                name,
                scene.bodies.len(),
                scene.joints.len(),
                n,
                ms,
                w.contact_pairs(),
                s,
            )
        }
        Case::D3(name, build, default) => {
            let scene = build();
            let n = steps.unwrap_or(*default);
            let mut w: Box<dyn Engine3> = if peng {
                Box::new(Peng3::build(&scene))
            } else {
                Box::new(Rapier3::build(&scene))
            };
            w.step();
            let t = Instant::now();
            for _ in 0..n {
                w.step();
                add(w.phases());
            }
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let mut s = sanity3(name, &scene, w.as_ref()) + &phase_text(&sum, n);
            if hash {
                let bits = (0..scene.bodies.len()).flat_map(|i| {
                    let (p, q) = (w.position(i), w.rotation(i));
                    [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
                });
                s += &format!("; state hash {:016x}", fnv(bits));
            }
            row(
                name,
                scene.bodies.len(),
                scene.joints.len(),
                n,
                ms,
                w.contact_pairs(),
                s,
            )
        }
    }
}

fn name(case: &Case) -> &'static str {
    match case {
        Case::D2(n, ..) | Case::D3(n, ..) => n,
    }
}

/// Thread counts to run: just the caller's thread without the `parallel`
/// feature; otherwise `--threads N`, or 1 and every available core.
fn thread_counts(asked: Option<usize>) -> Vec<usize> {
    if !cfg!(feature = "parallel") {
        if asked.is_some_and(|t| t != 1) {
            eprintln!("--threads needs `--features parallel`; running on 1 thread");
        }
        return vec![1];
    }
    if let Some(t) = asked {
        return vec![t.max(1)];
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        vec![1, cores]
    } else {
        vec![1]
    }
}

#[cfg(feature = "parallel")]
fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    // rapier's parallel pipeline and peng (the same rayon crate) run on
    // rayon's current pool: a pool of exactly `threads` workers for this row.
    match rapier2d::rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
    {
        Ok(pool) => pool.install(f),
        Err(e) => {
            eprintln!("no thread pool of {threads}: {e}; running on the global pool");
            f()
        }
    }
}

#[cfg(not(feature = "parallel"))]
fn with_threads<R: Send>(_threads: usize, f: impl FnOnce() -> R + Send) -> R {
    f()
}

fn main() {
    // Without the `parallel` feature rapier runs on one thread: peng's rayon
    // pool gets one thread too (rayon reads the variable when its global
    // pool starts, on first use, after this line).
    if !cfg!(feature = "parallel") {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let mut filter: Option<String> = None;
    let mut steps = None;
    let mut threads = None;
    let mut engines = vec![false, true];
    let mut repeat = 1usize;
    let mut phases = false;
    let mut hash = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--steps" => steps = args.next().and_then(|s| s.parse().ok()),
            "--threads" => threads = args.next().and_then(|s| s.parse().ok()),
            "--phases" => phases = true,
            "--hash" => hash = true,
            "--repeat" => repeat = args.next().and_then(|s| s.parse().ok()).unwrap_or(1).max(1),
            "--engine" => match args.next().as_deref() {
                Some("peng") => engines = vec![true],
                Some("rapier") => engines = vec![false],
                other => {
                    eprintln!("--engine takes peng or rapier, not {other:?}");
                    std::process::exit(2);
                }
            },
            // Flags cargo passes to bench targets (`--bench`) and others.
            s if s.starts_with("--") => {}
            s => filter = Some(s.to_string()),
        }
    }
    println!(
        "rapier {} (2D and 3D), dt 1/60, {} solver iterations, parallel feature {}",
        rapier2d::VERSION,
        rapier2d::prelude::IntegrationParameters::default().num_solver_iterations,
        if cfg!(feature = "parallel") {
            "on"
        } else {
            "off"
        },
    );
    println!(
        "{:<22} {:<7} {:>7} {:>7} {:>3} {:>6} {:>10} {:>9} {:>8}  sanity",
        "scene", "engine", "bodies", "joints", "thr", "steps", "total ms", "ms/step", "contacts"
    );
    for case in cases() {
        if filter
            .as_ref()
            .is_some_and(|f| !name(&case).contains(f.as_str()))
        {
            continue;
        }
        for t in thread_counts(threads) {
            // With `--repeat N` the engines take turns N times and each
            // keeps its fastest run: on a shared machine the slow runs are
            // the ones another tenant interrupted.
            let mut best: Vec<Option<(f64, String)>> = vec![None; engines.len()];
            for _ in 0..repeat {
                for (slot, &peng) in best.iter_mut().zip(&engines) {
                    let (ms, row) = with_threads(t, || run(&case, steps, t, peng, phases, hash));
                    if slot.as_ref().is_none_or(|(b, _)| ms < *b) {
                        *slot = Some((ms, row));
                    }
                }
            }
            for (_, row) in best.into_iter().flatten() {
                println!("{row}");
            }
        }
    }
}
