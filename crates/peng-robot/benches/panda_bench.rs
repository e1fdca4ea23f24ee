//! peng on the Panda, one thread: self-collision checks, checks among 20
//! boxes, and distances, on the configurations and the cell that
//! `data/robots/reference/panda_bench.py` times Pinocchio (with coal) on:
//!
//! ```text
//! cargo bench -p peng-robot --bench panda_bench
//! /tmp/pinenv/bin/python data/robots/reference/panda_bench.py
//! ```
//!
//! Each row: what was timed, configurations a second (best of 3), and the
//! count of colliding configurations (Pinocchio's side prints the same).

use peng_robot::{Checker, MeshMode, MotionResult, Robot, Stop};
use std::time::Instant;

#[path = "../tests/common/mod.rs"]
mod common;

use common::SplitMix64;

const COUNT: usize = 20_000;

/// The Panda (meshes as `mode`), its SRDF, and with `boxes` the cell's.
fn checker(mode: MeshMode, boxes: bool) -> Checker {
    let mut c = common::panda(mode);
    if boxes {
        common::add_cell_boxes(&mut c);
    }
    c
}

/// Configurations a second (best of 3) and the result of the last run.
fn rate<T>(qs: &[Vec<f64>], mut f: impl FnMut(&[f64]) -> T) -> (f64, Vec<T>) {
    let mut best = f64::INFINITY;
    let mut out = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        out = qs.iter().map(|q| f(q)).collect();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (qs.len() as f64 / best, out)
}

/// Short random segments (SplitMix64 from seed 99, as `panda_bench.py`
/// draws them): a configuration, then up to 0.15 rad on the joint that moves
/// most in a random direction, clamped to the limits.
fn segments(r: &Robot, count: usize) -> Vec<(Vec<f64>, Vec<f64>)> {
    let limits: Vec<_> = r
        .active_joints()
        .iter()
        .map(|&j| r.joints[j].limits.unwrap())
        .collect();
    let mut rng = SplitMix64(99);
    (0..count)
        .map(|_| {
            let q0 = rng.config(r);
            let dir: Vec<f64> = limits.iter().map(|_| rng.unit() * 2.0 - 1.0).collect();
            let len = 0.005 + 0.145 * rng.unit();
            let m = dir.iter().fold(0.0f64, |m, d| m.max(d.abs()));
            let q1 = q0
                .iter()
                .zip(&dir)
                .zip(&limits)
                .map(|((q, d), l)| (q + d / m * len).clamp(l.lower, l.upper))
                .collect();
            (q0, q1)
        })
        .collect()
}

/// Segments a second (best of 3) and how many are in contact somewhere.
fn segment_rate(
    segs: &[(Vec<f64>, Vec<f64>)],
    mut f: impl FnMut(&[f64], &[f64]) -> bool,
) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut hits = 0;
    for _ in 0..3 {
        let t = Instant::now();
        hits = segs.iter().filter(|(a, b)| f(a, b)).count();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (segs.len() as f64 / best, hits)
}

fn main() {
    for (name, mode, boxes) in [
        ("self, meshes", MeshMode::TriMesh, false),
        ("self, hulls", MeshMode::ConvexHull, false),
        ("self + 20 boxes, meshes", MeshMode::TriMesh, true),
        ("self + 20 boxes, hulls", MeshMode::ConvexHull, true),
    ] {
        let c = checker(mode, boxes);
        let qs = common::reference_configs(&c.robot, COUNT);
        let (r, hits) = rate(&qs, |q| !c.check(q, Stop::AtFirst).unwrap().is_empty());
        println!(
            "collisions, {name}: {r:.0} configurations/s, {} colliding",
            hits.iter().filter(|&&h| h).count()
        );
        if boxes && mode == MeshMode::ConvexHull {
            let segs = segments(&c.robot, 2000);
            let (r, hits) = segment_rate(&segs, |a, b| {
                !matches!(c.check_motion(a, b).unwrap(), MotionResult::Free { .. })
            });
            println!("motions, {name}, certified: {r:.0} segments/s, {hits} in contact");
            // MoveIt's default: configurations 0.005 of the joint space's
            // diagonal apart, both ends included.
            let r = &c.robot;
            let extent = r
                .active_joints()
                .iter()
                .map(|&j| {
                    let l = r.joints[j].limits.unwrap();
                    (l.upper - l.lower).powi(2)
                })
                .sum::<f64>()
                .sqrt();
            let step = 0.005 * extent;
            let (rate_d, hits) = segment_rate(&segs, |a, b| {
                let delta = a
                    .iter()
                    .zip(b)
                    .fold(0.0f64, |m, (x, y)| m.max((y - x).abs()));
                let n = (delta / step).ceil().max(1.0) as usize;
                (0..=n).any(|k| {
                    let s = k as f64 / n as f64;
                    let q: Vec<f64> = a.iter().zip(b).map(|(x, y)| x + s * (y - x)).collect();
                    !c.check(&q, Stop::AtFirst).unwrap().is_empty()
                })
            });
            println!(
                "motions, {name}, discrete at MoveIt's resolution ({step:.4} rad): {rate_d:.0} segments/s, {hits} in contact"
            );
        }
        if !boxes {
            // Fewer with meshes: a mesh-mesh distance takes milliseconds.
            let n = if mode == MeshMode::TriMesh { 200 } else { 2000 };
            let (r, _) = rate(&qs[..n], |q| c.distance(q, f32::INFINITY).unwrap());
            println!("distances, {name} (every pair): {r:.0} configurations/s");
            let (r, _) = rate(&qs[..n], |q| c.distance(q, 0.05).unwrap());
            println!(
                "distances, {name} (the closest pair and all within 5 cm): {r:.0} configurations/s"
            );
        }
    }
}
