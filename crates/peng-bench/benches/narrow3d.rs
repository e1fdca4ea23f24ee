//! peng vs parry3d on the 3D narrow phase. Each criterion group is one row of
//! `BENCHMARKS.md`; the rules (same inputs for both, parry through its public
//! dispatcher, cold manifolds, conversions before timing) are in `common`.

mod common;

use common::{distance_row, manifold_row, ray_row};
use criterion::{criterion_group, criterion_main, Criterion};
use peng::d3::ShapeKind::*;
use peng_bench::dim::D3;

fn benches(c: &mut Criterion) {
    manifold_row::<D3>(c, "3d cuboid-cuboid manifold", 0xbe_0001, Cuboid, Cuboid);
    manifold_row::<D3>(
        c,
        "3d convex-convex manifold",
        0xbe_0002,
        Polyhedron,
        Polyhedron,
    );
    distance_row::<D3>(
        c,
        "3d convex-convex distance",
        0xbe_0003,
        Polyhedron,
        Polyhedron,
    );
    manifold_row::<D3>(
        c,
        "3d capsule-capsule manifold",
        0xbe_0004,
        Capsule,
        Capsule,
    );
    manifold_row::<D3>(c, "3d ball-cuboid manifold", 0xbe_0005, Ball, Cuboid);
    ray_row::<D3>(c, "3d ray vs convex", 0xbe_0006, Polyhedron);
}

criterion_group! {
    name = narrow3d;
    config = common::config();
    targets = benches
}
criterion_main!(narrow3d);
