//! Times frames of the moving-boxes scene for one peng broad phase, split into
//! the moves and the pair update, for profiling (`perf record`) outside
//! criterion.
//!
//! ```text
//! cargo run --profile bench -p peng-bench --example broad_frames -- hash 1000000 30
//! cargo run --profile bench -p peng-bench --example broad_frames -- vs 100000 100
//! cargo run --profile bench -p peng-bench --example broad_frames -- vs 100000 100 noopt
//! cargo run --profile bench -p peng-bench --example broad_frames -- ab 1000000 20 2.7 3.6
//! ```
//! Modes: `hash` (cell 3.6, or `CELL`) or `tree` alone; `vs`: the hash and
//! the tree against parry's BVH run as rapier runs it (`optimize_incremental`
//! every frame; `noopt` adds a BVH without it), frames alternating so all see
//! the same machine conditions (this machine's timings drift 20-40 % between
//! runs); `ab`:
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
        "vs" => vs_parry(n, frames, args.get(4).is_some_and(|a| a == "noopt")),
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

/// parry's BVH as rapier 0.36's broad phase runs it when many colliders move
/// (a sixteenth or more of the leaves changed in a frame): the moved leaves
/// updated in place, then `optimize_incremental` (unless `optimize` is off,
/// to show what the tree loses without it), `refit`, and the tree against
/// itself into a pair list.
struct ParryBvh {
    scene: MovingBoxes,
    bvh: parry3d::partitioning::Bvh,
    ws: parry3d::partitioning::BvhWorkspace,
    pairs: Vec<(u32, u32)>,
    optimize: bool,
}

impl ParryBvh {
    fn new(scene: MovingBoxes, optimize: bool) -> Self {
        use parry3d::bounding_volume::Aabb as PAabb;
        use parry3d::partitioning::{Bvh, BvhBuildStrategy};
        let leaves: Vec<PAabb> = scene
            .boxes
            .iter()
            .map(|b| PAabb::new(b.min, b.max))
            .collect();
        ParryBvh {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            scene,
            ws: Default::default(),
            pairs: Vec::new(),
            optimize,
        }
    }
    fn frame(&mut self) -> usize {
        let moved = self.scene.step();
        for &i in &moved {
            let b = self.scene.boxes[i];
            self.bvh.insert_or_update_partially(
                parry3d::bounding_volume::Aabb::new(b.min, b.max),
                i as u32,
                0.0,
            );
        }
        if self.optimize {
            self.bvh.optimize_incremental(&mut self.ws);
        }
        self.bvh.refit(&mut self.ws);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| pairs.push((a, b)));
        self.pairs.len()
    }
}

/// A peng broad phase on its own copy of the scene.
struct PengBp<B> {
    scene: MovingBoxes,
    bp: B,
    ids: Vec<peng::broad::ProxyId>,
}

impl<B: BroadPhase<Vec3>> PengBp<B> {
    fn new(scene: MovingBoxes, mut bp: B) -> Self {
        let ids = scene
            .boxes
            .iter()
            .enumerate()
            .map(|(i, b)| bp.insert(*b, i as u64, Filter::ALL).expect("valid box"))
            .collect();
        bp.update_pairs();
        PengBp { scene, bp, ids }
    }
    fn frame(&mut self) -> usize {
        let moved = self.scene.step();
        for &i in &moved {
            self.bp
                .move_proxy(self.ids[i], self.scene.boxes[i], self.scene.velocity(i))
                .expect("live proxy");
        }
        self.bp.update_pairs();
        self.bp.pairs().len()
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// peng's spatial hash (cell 3.6, as in the bench) and dynamic tree against
/// parry's BVH run as rapier runs it (see [`ParryBvh`]), one frame of each in
/// turn on their own copies of the scene; prints the medians and the ratios
/// (parry time / peng time). With `noopt` after the frame count, a fourth
/// subject: parry's BVH without `optimize_incremental`. The scene step is
/// timed as part of each frame, as in the criterion bench.
pub fn vs_parry(n: usize, frames: usize, noopt: bool) {
    let scene0 = MovingBoxes::new(n, 0xb0_0001);
    let mut hash = PengBp::new(scene0.clone(), SpatialHash::<Vec3>::new(3.6).expect("cell"));
    let mut tree = PengBp::new(scene0.clone(), DynamicTree::<Vec3>::new());
    let mut parry = ParryBvh::new(scene0.clone(), true);
    let mut plain = noopt.then(|| ParryBvh::new(scene0, false));
    let (mut th, mut tt, mut tq, mut tn) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..frames {
        let t = Instant::now();
        let nh = hash.frame();
        th.push(t.elapsed());
        let t = Instant::now();
        let nt = tree.frame();
        tt.push(t.elapsed());
        let t = Instant::now();
        let nq = parry.frame();
        tq.push(t.elapsed());
        if let Some(p) = plain.as_mut() {
            let t = Instant::now();
            let nn = p.frame();
            tn.push(t.elapsed());
            assert_eq!(nn, nq, "pair counts");
        }
        assert_eq!(nh, nq, "pair counts");
        assert_eq!(nt, nq, "pair counts");
    }
    let (mh, mt, mq) = (median(&mut th), median(&mut tt), median(&mut tq));
    let r = |peng: Duration| mq.as_secs_f64() / peng.as_secs_f64();
    eprintln!(
        "{n} boxes, {frames} frames: peng hash median {mh:?}, peng tree median {mt:?}, \
         parry (optimize_incremental each frame) median {mq:?}; \
         ratio parry/hash {:.2}, parry/tree {:.2}",
        r(mh),
        r(mt)
    );
    if !tn.is_empty() {
        let mn = median(&mut tn);
        eprintln!(
            "parry without optimize_incremental: median {mn:?}, ratio to hash {:.2}",
            mn.as_secs_f64() / mh.as_secs_f64()
        );
    }
}
