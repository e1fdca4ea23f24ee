//! peng vs parry3d on the 3D narrow phase. Each criterion group is one row of
//! `BENCHMARKS.md`: peng and parry run on the SAME pre-generated 1,000 pairs (or
//! rays) per iteration, so their ratio comes from one run on one machine state.
//!
//! parry is called through its public dispatcher, the way rapier calls it:
//! `contact_manifold_convex_convex` on the relative pose for manifolds (one
//! manifold reused, cleared and its warm-start normal reset before every pair so
//! that parry, like peng, starts cold), `query::distance` for distances and
//! `cast_ray_and_get_normal` for rays. Conversions happen before timing.

#[path = "../src/peer.rs"]
mod peer;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Vec3;
use parry3d::query::{
    self as pq, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d::shape::SharedShape;
use peng::d3::{self as p3, ShapeKind};
use peng_bench::gen3::{self, Pair};
use std::hint::black_box;

const N: usize = 1000;
const PREDICTION: f32 = 0.01;

struct Inputs {
    pairs: Vec<Pair>,
    parry: Vec<(
        parry3d::math::Pose3,
        SharedShape,
        parry3d::math::Pose3,
        SharedShape,
    )>,
}

fn inputs(seed: u64, ka: ShapeKind, kb: ShapeKind, range: (f32, f32)) -> Inputs {
    let pairs = gen3::pairs_in(seed, ka, kb, N, false, range);
    let parry = pairs
        .iter()
        .map(|p| {
            (
                peer::d3::pose(&p.pose_a),
                peer::d3::shape(&p.a),
                peer::d3::pose(&p.pose_b),
                peer::d3::shape(&p.b),
            )
        })
        .collect();
    Inputs { pairs, parry }
}

fn manifold_row(c: &mut Criterion, name: &str, seed: u64, ka: ShapeKind, kb: ShapeKind) {
    let inp = inputs(seed, ka, kb, gen3::PLACE_RANGE);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut points = 0usize;
            for p in &inp.pairs {
                if let Some(m) = p3::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, PREDICTION) {
                    points += m.len();
                }
            }
            black_box(points)
        })
    });
    g.bench_function("parry", |b| {
        let mut m: ContactManifold<(), ()> = ContactManifold::new();
        b.iter(|| {
            let mut points = 0usize;
            for (pa, sa, pb, sb) in &inp.parry {
                m.clear();
                m.local_n1 = Vec3::ZERO;
                let pos12 = pa.inv_mul(pb);
                let _ = DefaultQueryDispatcher.contact_manifold_convex_convex(
                    &pos12, &**sa, &**sb, None, None, PREDICTION, &mut m,
                );
                points += m.points.len();
            }
            black_box(points)
        })
    });
    g.finish();
}

fn distance_row(c: &mut Criterion, name: &str, seed: u64, ka: ShapeKind, kb: ShapeKind) {
    let inp = inputs(seed, ka, kb, gen3::SEPARATED_RANGE);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for p in &inp.pairs {
                s += p3::distance(&p.a, &p.pose_a, &p.b, &p.pose_b).distance;
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for (pa, sa, pb, sb) in &inp.parry {
                s += pq::distance(pa, &**sa, pb, &**sb).map_or(0.0, |d| d.distance);
            }
            black_box(s)
        })
    });
    g.finish();
}

fn ray_row(c: &mut Criterion, name: &str, seed: u64, kind: ShapeKind) {
    let cases = gen3::rays(seed, kind, N);
    let parry: Vec<_> = cases
        .iter()
        .map(|r| {
            (
                peer::d3::pose(&r.pose),
                peer::d3::shape(&r.shape),
                peer::d3::ray(&r.ray),
            )
        })
        .collect();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for r in &cases {
                if let Some(h) = p3::ray_cast(&r.shape, &r.pose, &r.ray, 100.0, true) {
                    s += h.toi;
                }
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for (pose, shape, ray) in &parry {
                if let Some(h) = shape.cast_ray_and_get_normal(pose, ray, 100.0, true) {
                    s += h.time_of_impact;
                }
            }
            black_box(s)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    use ShapeKind::*;
    manifold_row(c, "3d cuboid-cuboid manifold", 0xbe_0001, Cuboid, Cuboid);
    manifold_row(
        c,
        "3d convex-convex manifold",
        0xbe_0002,
        Polyhedron,
        Polyhedron,
    );
    distance_row(
        c,
        "3d convex-convex distance",
        0xbe_0003,
        Polyhedron,
        Polyhedron,
    );
    manifold_row(
        c,
        "3d capsule-capsule manifold",
        0xbe_0004,
        Capsule,
        Capsule,
    );
    manifold_row(c, "3d ball-cuboid manifold", 0xbe_0005, Ball, Cuboid);
    ray_row(c, "3d ray vs convex", 0xbe_0006, Polyhedron);
}

criterion_group! {
    name = narrow3d;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(20);
    targets = benches
}
criterion_main!(narrow3d);
