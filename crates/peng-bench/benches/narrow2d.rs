//! peng vs parry2d on the 2D narrow phase: contact manifolds of boxes and of
//! convex polygons (hulls of 16 random points). Same rules as `narrow3d.rs`:
//! one group per row, both libraries on the same 1,000 pre-generated pairs per
//! iteration, parry through its public dispatcher with a cold manifold.

#[path = "../src/peer.rs"]
mod peer;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Vec2;
use parry2d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use peng::d2::{self as p2, ShapeKind};
use peng_bench::gen2;
use std::hint::black_box;

const N: usize = 1000;
const PREDICTION: f32 = 0.01;

fn manifold_row(c: &mut Criterion, name: &str, seed: u64, ka: ShapeKind, kb: ShapeKind) {
    let pairs = gen2::pairs(seed, ka, kb, N, false);
    let parry: Vec<_> = pairs
        .iter()
        .map(|p| {
            (
                peer::d2::pose(&p.pose_a),
                peer::d2::shape(&p.a),
                peer::d2::pose(&p.pose_b),
                peer::d2::shape(&p.b),
            )
        })
        .collect();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut points = 0usize;
            for p in &pairs {
                if let Some(m) = p2::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, PREDICTION) {
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
            for (pa, sa, pb, sb) in &parry {
                m.clear();
                m.local_n1 = Vec2::ZERO;
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

fn benches(c: &mut Criterion) {
    manifold_row(
        c,
        "2d box-box manifold",
        0xbe_2001,
        ShapeKind::Rect,
        ShapeKind::Rect,
    );
    manifold_row(
        c,
        "2d polygon-polygon manifold",
        0xbe_2002,
        ShapeKind::Polygon,
        ShapeKind::Polygon,
    );
}

criterion_group! {
    name = narrow2d;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(20);
    targets = benches
}
criterion_main!(narrow2d);
