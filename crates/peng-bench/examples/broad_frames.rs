//! Times frames of the moving-boxes scene for one peng broad phase, split into
//! the moves and the pair update, for profiling (`perf record`) outside
//! criterion.
//!
//! ```text
//! cargo run --profile bench -p peng-bench --example broad_frames -- hash 1000000 30
//! cargo run --profile bench -p peng-bench --example broad_frames -- vs 1000000 20
//! cargo run --profile bench -p peng-bench --example broad_frames -- ab 1000000 20 2.7 3.6
//! ```
//! Modes: `hash` (cell 3.6, or `CELL`) or `tree` alone; `vs`: the hash
//! against parry's BVH, frames alternating so both see the same machine
//! conditions (this machine's timings drift 20-40 % between runs); `ab`:
//! hashes of the given cell sizes, alternating. Then the box count and the
//! number of frames.

use glam::Vec3;
use peng::broad::{BroadPhase, DynamicTree, Filter, SpatialHash};
use peng_bench::boxes::MovingBoxes;
use std::time::{Duration, Instant};

fn run<B: BroadPhase<Vec3>>(mut bp: B, n: usize, frames: usize) {
    let mut scene = MovingBoxes::new(n, 0xb0_0001);
    let t = Instant::now();
    let ids: Vec<_> = scene
        .boxes
        .iter()
        .enumerate()
        .map(|(i, b)| bp.insert(*b, i as u64, Filter::ALL).expect("valid box"))
        .collect();
    bp.update_pairs();
    eprintln!("build {:?}, {} pairs", t.elapsed(), bp.pairs().len());
    let (mut t_move, mut t_update) = (Duration::ZERO, Duration::ZERO);
    let mut totals = Vec::new();
    for _ in 0..frames {
        let moved = scene.step();
        let t = Instant::now();
        for &i in &moved {
            bp.move_proxy(ids[i], scene.boxes[i], scene.velocity(i))
                .expect("live proxy");
        }
        let t1 = Instant::now();
        bp.update_pairs();
        std::hint::black_box(bp.pairs().len());
        t_move += t1 - t;
        t_update += t1.elapsed();
        totals.push(t.elapsed());
    }
    let f = frames as u32;
    totals.sort();
    eprintln!(
        "frame time: median {:?}, min {:?}, max {:?}",
        totals[totals.len() / 2],
        totals[0],
        totals[totals.len() - 1]
    );
    eprintln!(
        "per frame: moves {:?}, update_pairs {:?}, total {:?}",
        t_move / f,
        t_update / f,
        (t_move + t_update) / f
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map(String::as_str).unwrap_or("hash");
    let n: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let frames: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(30);
    match kind {
        "vs" => vs_parry(n, frames),
        "ab" => ab(n, frames, &args[4..]),
        "tree" => run(DynamicTree::<Vec3>::new(), n, frames),
        _ => {
            let cell = std::env::var("CELL")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(3.6);
            run(SpatialHash::<Vec3>::new(cell).expect("cell"), n, frames)
        }
    }
}

/// A/B: spatial hashes with different cell sizes, alternating frames on
/// their own copies of the scene, so both see the same machine conditions.
#[allow(dead_code)]
pub fn ab(n: usize, frames: usize, specs: &[String]) {
    let cells: Vec<f32> = specs
        .iter()
        .map(|s| s.parse().expect("cell size"))
        .collect();
    let scene0 = MovingBoxes::new(n, 0xb0_0001);
    let mut subjects: Vec<(MovingBoxes, SpatialHash<Vec3>, Vec<_>, Vec<Duration>)> = cells
        .iter()
        .map(|c| {
            let c = *c;
            let scene = scene0.clone();
            let mut bp = SpatialHash::<Vec3>::new(c).expect("cell");
            let ids: Vec<_> = scene
                .boxes
                .iter()
                .enumerate()
                .map(|(i, b)| bp.insert(*b, i as u64, Filter::ALL).expect("valid box"))
                .collect();
            bp.update_pairs();
            (scene, bp, ids, Vec::new())
        })
        .collect();
    for _ in 0..frames {
        for (scene, bp, ids, times) in subjects.iter_mut() {
            let moved = scene.step();
            let t = Instant::now();
            for &i in &moved {
                bp.move_proxy(ids[i], scene.boxes[i], scene.velocity(i))
                    .expect("live proxy");
            }
            bp.update_pairs();
            std::hint::black_box(bp.pairs().len());
            times.push(t.elapsed());
        }
    }
    for (c, (_, _, _, times)) in specs.iter().zip(subjects.iter_mut()) {
        times.sort();
        eprintln!("{c}: median {:?}", times[times.len() / 2]);
    }
}

/// peng's spatial hash (cell 3.6, as in the bench) against parry's BVH,
/// alternating frames on their own copies of the scene; prints both medians
/// and the ratio. The scene step is timed as part of each frame, as in the
/// criterion bench.
pub fn vs_parry(n: usize, frames: usize) {
    use parry3d::bounding_volume::Aabb as PAabb;
    use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
    let scene0 = MovingBoxes::new(n, 0xb0_0001);
    let mut s_peng = scene0.clone();
    let mut bp = SpatialHash::<Vec3>::new(3.6).expect("cell");
    let ids: Vec<_> = s_peng
        .boxes
        .iter()
        .enumerate()
        .map(|(i, b)| bp.insert(*b, i as u64, Filter::ALL).expect("valid box"))
        .collect();
    bp.update_pairs();
    let mut s_parry = scene0.clone();
    let leaves: Vec<PAabb> = s_parry
        .boxes
        .iter()
        .map(|b| PAabb::new(b.min, b.max))
        .collect();
    let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
    let mut ws = BvhWorkspace::default();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let (mut tp, mut tq) = (Vec::new(), Vec::new());
    for _ in 0..frames {
        let t = Instant::now();
        let moved = s_peng.step();
        for &i in &moved {
            bp.move_proxy(ids[i], s_peng.boxes[i], s_peng.velocity(i))
                .expect("live proxy");
        }
        bp.update_pairs();
        let np = bp.pairs().len();
        tp.push(t.elapsed());
        let t = Instant::now();
        let moved = s_parry.step();
        for &i in &moved {
            let b = s_parry.boxes[i];
            bvh.insert_or_update_partially(PAabb::new(b.min, b.max), i as u32, 0.0);
        }
        bvh.refit(&mut ws);
        pairs.clear();
        bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| pairs.push((a, b)));
        tq.push(t.elapsed());
        assert_eq!(np, pairs.len(), "pair counts");
    }
    tp.sort();
    tq.sort();
    let (mp, mq) = (tp[tp.len() / 2], tq[tq.len() / 2]);
    eprintln!(
        "peng hash median {mp:?}, parry median {mq:?}, ratio {:.2}",
        mq.as_secs_f64() / mp.as_secs_f64()
    );
}
