//! Broad phase: peng's structures against parry3d's `Bvh` and the `bvh` crate.
//!
//! Rows (criterion groups):
//! - `broad moving N` (N = 10k, 100k, 1M): one frame of `MovingBoxes` (10 % of
//!   the boxes move, a different tenth each frame) and the update that makes
//!   the full list of overlapping pairs. Every function runs its own copy of the
//!   scene, so the scene step (the same cheap loop for all, timed alone as
//!   `scene step only`) is part of each measurement.
//!   The 1M row runs only with `PENG_BENCH_1M=1` (building the scene's
//!   structures alone takes minutes on a shared 2-core machine), and without
//!   peng's `SweepAndPrune`, whose first sweep is quadratic there (each box
//!   overlaps about 9,000 others on the sweep axis).
//! - `broad msvc 100k` (printed, not a criterion group: one build takes
//!   seconds, and criterion wants at least 10): the MSVC `rand()` box vector
//!   (seed 42), 100,000 boxes from scratch to the full pair list, best
//!   of 2. `PENG_BENCH_SKIP_MSVC=1` skips it. `PENG_BENCH_PHASES=1` also prints
//!   how a peng build splits between insertion and the first pair update.
//!
//! How the peers make the pair list:
//! - parry3d 0.31 `partitioning::Bvh` (the broad phase rapier 0.36 is built on),
//!   run as rapier's `BroadPhaseBvh` runs it when many colliders move: moved
//!   leaves updated in place with `insert_or_update_partially` (no margin:
//!   leaves are the tight boxes), then `optimize_incremental` (rapier calls it
//!   every frame once a sixteenth or more of the leaves changed, as here; without
//!   it the tree degrades frame after frame and parry falls further behind the
//!   longer the run), `refit`, then the tree against itself
//!   (`traverse_bvtt_single_tree::<false>`) into a vector of pairs. From scratch:
//!   `Bvh::from_leaves(Binned)` then the same traversal.
//! - `bvh` 0.13 (svenstaro/bvh, SAH BVH over shapes): moved shapes re-inserted
//!   with `update_shapes`, then one box query per shape (`traverse_iterator`),
//!   keeping `j > i`. It has no tree-vs-tree traversal. Run at 10k and 100k
//!   and on the MSVC vector; at 1M one frame takes seconds, so it is left out.
//!
//! peng's structures: `DynamicTree`, `SweepAndPrune` (not at 1M), `SpatialHash`
//! (cell: the mean box edge, at least 0.45 of the longest) and
//! `LooseOctree` (smallest cell: the mean box edge), all through the
//! `BroadPhase` trait: `move_proxy` for the movers with the velocity as hint,
//! then `update_pairs`.
//!
//! Before timing, every structure's pair count is checked against peng's
//! `DynamicTree` on the same boxes.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use glam::Vec3;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy, BvhWorkspace};
use peng::bound::Aabb3;
use peng::broad::{
    BroadPhase, DynamicTree, Filter, LooseOctree, ProxyId, SpatialHash, SweepAndPrune,
};
use peng_bench::boxes::{msvc_boxes, MovingBoxes};
use std::hint::black_box;
use std::time::Duration;

/// A structure under test: built from the scene's boxes, then advanced one
/// frame at a time; both return the number of pairs.
trait Subject {
    fn build(boxes: &[Aabb3]) -> Self;
    fn frame(&mut self, scene: &MovingBoxes, moved: &[usize]) -> usize;
}

/// A peng structure behind the common [`BroadPhase`] trait.
struct Peng<B> {
    bp: B,
    ids: Vec<ProxyId>,
}

trait Make {
    fn make(boxes: &[Aabb3]) -> Self;
}
impl Make for DynamicTree<Vec3> {
    fn make(_: &[Aabb3]) -> Self {
        DynamicTree::new()
    }
}
impl Make for SweepAndPrune<Vec3> {
    fn make(_: &[Aabb3]) -> Self {
        SweepAndPrune::new()
    }
}
impl Make for SpatialHash<Vec3> {
    /// Cells the size of the mean box edge, but at least 0.45 of the longest
    /// edge, so the longest box spans at most 3 cells per axis: 3.6 for the
    /// moving scenes (edges 0.5..8; measured with the `broad_frames`
    /// example's A/B mode, 8-11 % faster than 2.7, a third of the longest,
    /// at 10k, 100k and 1M boxes), 127 for the MSVC vector (0..254; the mean
    /// edge).
    fn make(boxes: &[Aabb3]) -> Self {
        let mean = mean_edge(boxes);
        let longest = boxes
            .iter()
            .map(|b| (b.max - b.min).max_element())
            .fold(0.0f32, f32::max);
        let cell = mean.max(longest * 0.45);
        SpatialHash::new(cell.max(1e-3)).expect("valid cell size")
    }
}

impl Make for LooseOctree {
    /// Smallest cells the size of the mean box edge (the rule of thumb of
    /// `LooseTree`'s docs); larger boxes sit at the level of their size.
    fn make(boxes: &[Aabb3]) -> Self {
        LooseOctree::new(mean_edge(boxes).max(1e-3)).expect("valid cell size")
    }
}

/// The mean edge length of the boxes.
fn mean_edge(boxes: &[Aabb3]) -> f32 {
    let n = boxes.len().max(1) as f64;
    (boxes
        .iter()
        .map(|b| (b.max - b.min).element_sum() as f64)
        .sum::<f64>()
        / (3.0 * n)) as f32
}

impl<B: BroadPhase<Vec3> + Make> Subject for Peng<B> {
    fn build(boxes: &[Aabb3]) -> Self {
        let mut bp = B::make(boxes);
        let ids = insert_all(&mut bp, boxes);
        Peng { bp, ids }
    }
    fn frame(&mut self, scene: &MovingBoxes, moved: &[usize]) -> usize {
        move_and_update(&mut self.bp, &self.ids, scene, moved)
    }
}

fn insert_all<B: BroadPhase<Vec3>>(bp: &mut B, boxes: &[Aabb3]) -> Vec<ProxyId> {
    let ids = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| bp.insert(*b, i as u64, Filter::ALL).expect("valid box"))
        .collect();
    bp.update_pairs();
    ids
}

fn move_and_update<B: BroadPhase<Vec3>>(
    bp: &mut B,
    ids: &[ProxyId],
    scene: &MovingBoxes,
    moved: &[usize],
) -> usize {
    for &i in moved {
        bp.move_proxy(ids[i], scene.boxes[i], scene.velocity(i))
            .expect("live proxy, valid box");
    }
    bp.update_pairs();
    bp.pairs().len()
}

fn paabb(b: &Aabb3) -> PAabb {
    PAabb::new(b.min, b.max)
}

/// parry3d's BVH as a broad phase.
struct Parry {
    bvh: PBvh,
    ws: BvhWorkspace,
    pairs: Vec<(u32, u32)>,
}

impl Parry {
    fn collect(&mut self) -> usize {
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| pairs.push((a, b)));
        self.pairs.len()
    }
}

impl Subject for Parry {
    fn build(boxes: &[Aabb3]) -> Self {
        let leaves: Vec<PAabb> = boxes.iter().map(paabb).collect();
        let mut p = Parry {
            bvh: PBvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            ws: BvhWorkspace::default(),
            pairs: Vec::new(),
        };
        p.collect();
        p
    }
    fn frame(&mut self, scene: &MovingBoxes, moved: &[usize]) -> usize {
        for &i in moved {
            self.bvh
                .insert_or_update_partially(paabb(&scene.boxes[i]), i as u32, 0.0);
        }
        // As rapier's broad phase: the incremental optimizer, then the refit.
        self.bvh.optimize_incremental(&mut self.ws);
        self.bvh.refit(&mut self.ws);
        self.collect()
    }
}

/// A shape of the `bvh` crate: a box and its node index.
struct BvhShape {
    aabb: bvh::aabb::Aabb<f32, 3>,
    node: usize,
}

impl bvh::aabb::Bounded<f32, 3> for BvhShape {
    fn aabb(&self) -> bvh::aabb::Aabb<f32, 3> {
        self.aabb
    }
}

impl bvh::bounding_hierarchy::BHShape<f32, 3> for BvhShape {
    fn set_bh_node_index(&mut self, i: usize) {
        self.node = i;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

fn bvh_aabb(b: &Aabb3) -> bvh::aabb::Aabb<f32, 3> {
    bvh::aabb::Aabb::with_bounds(
        nalgebra::Point3::new(b.min.x, b.min.y, b.min.z),
        nalgebra::Point3::new(b.max.x, b.max.y, b.max.z),
    )
}

/// The `bvh` crate's BVH as a broad phase (one box query per shape).
struct BvhCrate {
    bvh: bvh::bvh::Bvh<f32, 3>,
    shapes: Vec<BvhShape>,
    pairs: Vec<(u32, u32)>,
}

impl BvhCrate {
    fn collect(&mut self) -> usize {
        self.pairs.clear();
        for (i, s) in self.shapes.iter().enumerate() {
            for o in self.bvh.traverse_iterator(&s.aabb, &self.shapes) {
                // The shape's index is its position in `shapes`; recover it
                // from the reference.
                let j = (o as *const BvhShape as usize - self.shapes.as_ptr() as usize)
                    / std::mem::size_of::<BvhShape>();
                if j > i {
                    self.pairs.push((i as u32, j as u32));
                }
            }
        }
        self.pairs.len()
    }
}

impl Subject for BvhCrate {
    fn build(boxes: &[Aabb3]) -> Self {
        let mut shapes: Vec<BvhShape> = boxes
            .iter()
            .map(|b| BvhShape {
                aabb: bvh_aabb(b),
                node: 0,
            })
            .collect();
        let bvh = bvh::bvh::Bvh::build(&mut shapes);
        let mut p = BvhCrate {
            bvh,
            shapes,
            pairs: Vec::new(),
        };
        p.collect();
        p
    }
    fn frame(&mut self, scene: &MovingBoxes, moved: &[usize]) -> usize {
        for &i in moved {
            self.shapes[i].aabb = bvh_aabb(&scene.boxes[i]);
        }
        self.bvh.update_shapes(moved, &mut self.shapes);
        self.collect()
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
}

/// Seed of the moving scenes.
const SEED: u64 = 0xb0_0001;

/// Times one frame of `S` on its own copy of the scene.
fn moving_fn<S: Subject>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    scene: &MovingBoxes,
    expect: usize,
) {
    let mut scene = scene.clone();
    let mut s = S::build(&scene.boxes);
    // Agreement check on one frame before timing.
    let moved = scene.step();
    let got = s.frame(&scene, &moved);
    assert_eq!(got, expect, "{name}: pair count after one frame");
    g.bench_function(name, |b| {
        b.iter(|| {
            let moved = scene.step();
            black_box(s.frame(&scene, &moved))
        })
    });
}

fn moving(c: &mut Criterion) {
    let big = std::env::var_os("PENG_BENCH_1M").is_some();
    for (n, label) in [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")] {
        if n >= 1_000_000 && !big {
            continue;
        }
        let scene = MovingBoxes::new(n, SEED);
        // The reference count after one frame: peng's tree on a copy.
        let expect = {
            let mut s = scene.clone();
            let mut t = Peng::<DynamicTree<Vec3>>::build(&s.boxes);
            let moved = s.step();
            t.frame(&s, &moved)
        };
        eprintln!("moving {label}: {expect} pairs");
        let mut g = c.benchmark_group(format!("broad moving {label}"));
        if n >= 1_000_000 {
            g.sampling_mode(SamplingMode::Flat)
                .measurement_time(Duration::from_secs(8));
        }
        {
            let mut s = scene.clone();
            g.bench_function("scene step only", |b| b.iter(|| black_box(s.step().len())));
        }
        moving_fn::<Peng<DynamicTree<Vec3>>>(&mut g, "peng tree", &scene, expect);
        if n < 1_000_000 {
            moving_fn::<Peng<SweepAndPrune<Vec3>>>(&mut g, "peng sap", &scene, expect);
        }
        moving_fn::<Peng<SpatialHash<Vec3>>>(&mut g, "peng hash", &scene, expect);
        moving_fn::<Peng<LooseOctree>>(&mut g, "peng loose octree", &scene, expect);
        moving_fn::<Parry>(&mut g, "parry bvh", &scene, expect);
        if n < 1_000_000 {
            moving_fn::<BvhCrate>(&mut g, "bvh crate", &scene, expect);
        }
        g.finish();
    }
}

/// Builds `S` from scratch `RUNS` times and prints the best wall time. The
/// MSVC vector at 100k boxes has 1.14M pairs and takes seconds per build, so
/// criterion's minimum of 10 samples is too slow here.
fn from_scratch<S: Subject>(
    name: &str,
    boxes: &[Aabb3],
    count: impl Fn(&S) -> usize,
    expect: usize,
) {
    const RUNS: usize = 2;
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        let t = std::time::Instant::now();
        let s = black_box(S::build(boxes));
        best = best.min(t.elapsed());
        assert_eq!(count(&s), expect, "{name}: MSVC pair count");
    }
    eprintln!("broad msvc 100k/{name}: best of {RUNS}: {best:?}");
}

/// Where the time of one from-scratch build goes: inserting every box, then
/// the first `update_pairs` (printed when `PENG_BENCH_PHASES` is set).
fn phases<B: BroadPhase<Vec3> + Make>(name: &str, boxes: &[Aabb3]) {
    let t = std::time::Instant::now();
    let mut bp = B::make(boxes);
    for (i, b) in boxes.iter().enumerate() {
        bp.insert(*b, i as u64, Filter::ALL).expect("valid box");
    }
    let t_insert = t.elapsed();
    let t = std::time::Instant::now();
    let n = bp.update_pairs().began.len();
    eprintln!(
        "phases {name}: insert {:?}, first update_pairs {:?} ({n} pairs)",
        t_insert,
        t.elapsed()
    );
}

fn msvc(c: &mut Criterion) {
    let boxes = msvc_boxes(100_000, 42);
    if std::env::var_os("PENG_BENCH_SKIP_MSVC").is_some() {
        return;
    }
    if std::env::var_os("PENG_BENCH_PHASES").is_some() {
        for n in [10_000, 30_000, 100_000] {
            let b = &boxes[..n];
            eprintln!("msvc {n}:");
            phases::<SweepAndPrune<Vec3>>("sap", b);
            phases::<SpatialHash<Vec3>>("hash", b);
            phases::<DynamicTree<Vec3>>("tree", b);
        }
        let scene = MovingBoxes::new(100_000, SEED);
        eprintln!("moving 100k:");
        phases::<SweepAndPrune<Vec3>>("sap", &scene.boxes);
        phases::<SpatialHash<Vec3>>("hash", &scene.boxes);
        phases::<DynamicTree<Vec3>>("tree", &scene.boxes);
    }
    // The reference count: parry's (every structure must match it).
    let expect = Parry::build(&boxes).pairs.len();
    eprintln!("msvc 100k: {expect} pairs");
    let _ = c;
    from_scratch::<Peng<DynamicTree<Vec3>>>("peng tree", &boxes, |s| s.bp.pairs().len(), expect);
    from_scratch::<Peng<SweepAndPrune<Vec3>>>("peng sap", &boxes, |s| s.bp.pairs().len(), expect);
    from_scratch::<Peng<SpatialHash<Vec3>>>("peng hash", &boxes, |s| s.bp.pairs().len(), expect);
    from_scratch::<Peng<LooseOctree>>("peng loose octree", &boxes, |s| s.bp.pairs().len(), expect);
    from_scratch::<Parry>("parry bvh", &boxes, |s| s.pairs.len(), expect);
    from_scratch::<BvhCrate>("bvh crate", &boxes, |s| s.pairs.len(), expect);
}

criterion_group! {
    name = broad;
    config = config();
    targets = msvc, moving
}
criterion_main!(broad);
