//! peng vs parry2d on the 2D narrow phase: contact manifolds of boxes and of
//! convex polygons (hulls of 16 random points). Same rules as `narrow3d.rs`
//! (see `common`): one group per row, both libraries on the same 1,000
//! pre-generated pairs per iteration, parry through its public dispatcher with a
//! cold manifold.

mod common;

use common::manifold_row;
use criterion::{criterion_group, criterion_main, Criterion};
use peng::d2::ShapeKind::*;
use peng_bench::dim::D2;

fn benches(c: &mut Criterion) {
    manifold_row::<D2>(c, "2d box-box manifold", 0xbe_2001, Rect, Rect);
    manifold_row::<D2>(
        c,
        "2d polygon-polygon manifold",
        0xbe_2002,
        Polygon,
        Polygon,
    );
}

criterion_group! {
    name = narrow2d;
    config = common::config();
    targets = benches
}
criterion_main!(narrow2d);
