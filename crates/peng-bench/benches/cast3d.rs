//! peng vs parry3d on 3D shape casts: the groups `cast3d_linear`
//! (`cast_linear` vs `query::cast_shapes`) and `cast3d_nonlinear`
//! (`cast_nonlinear` vs `query::cast_shapes_nonlinear`), each on the SAME
//! pre-generated 1,000 random pairs of mixed convex shapes (ball, capsule,
//! cuboid, cylinder, cone, 16-vertex hull), A thrown at B from 3 to 7 away
//! with some spread, so that some hit and some miss (about 60% hit). parry is
//! called through its public functions with the default-like options (stop
//! at penetration, impact geometry computed); conversions happen before
//! timing. Both sides sum the times of impact.

#[path = "../src/peer.rs"]
mod peer;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry3d::query::{self as pq, NonlinearRigidMotion, ShapeCastOptions};
use peer::Peer;
use peng::d3::*;
use peng_bench::cast_cases::casts3;
use peng_bench::dim::D3;
use std::hint::black_box;
use std::time::Duration;

/// Pairs per iteration.
const N: usize = 1000;

/// One cast on both sides.
struct Case {
    a: Shape,
    b: Shape,
    ma: Motion3,
    mb: Motion3,
    pa: <D3 as Peer>::PShape,
    pb: <D3 as Peer>::PShape,
    qa: NonlinearRigidMotion,
    qb: NonlinearRigidMotion,
}

/// The casts of `tests/cast3d_diff.rs` (the same distribution), with their
/// parry twins.
fn cases(seed: u64, rotating: bool) -> Vec<Case> {
    let q = |m: &Motion3| {
        NonlinearRigidMotion::new(D3::parry_pose(&m.start), m.local_center, m.linvel, m.angvel)
    };
    casts3(seed, N, rotating)
        .into_iter()
        .map(|c| Case {
            pa: D3::parry_shape(&c.a),
            pb: D3::parry_shape(&c.b),
            qa: q(&c.ma),
            qb: q(&c.mb),
            a: c.a,
            b: c.b,
            ma: c.ma,
            mb: c.mb,
        })
        .collect()
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

fn linear(c: &mut Criterion) {
    let cases = cases(0xca57_0001, false);
    let opts = CastOptions::default();
    let popts = ShapeCastOptions {
        max_time_of_impact: opts.max_time,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    let mut g = c.benchmark_group("cast3d_linear");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for k in &cases {
                let h = cast_linear(
                    &k.a,
                    &k.ma.start,
                    k.ma.linvel,
                    &k.b,
                    &k.mb.start,
                    k.mb.linvel,
                    &opts,
                );
                s += h.map_or(0.0, |h| h.time);
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for k in &cases {
                let h = pq::cast_shapes(
                    &k.qa.start,
                    k.qa.linvel,
                    &*k.pa,
                    &k.qb.start,
                    k.qb.linvel,
                    &*k.pb,
                    popts,
                );
                s += h.ok().flatten().map_or(0.0, |h| h.time_of_impact);
            }
            black_box(s)
        })
    });
    g.finish();
}

fn nonlinear(c: &mut Criterion) {
    let cases = cases(0xca57_0002, true);
    let opts = CastOptions::default();
    let mut g = c.benchmark_group("cast3d_nonlinear");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for k in &cases {
                let h = cast_nonlinear(&k.a, &k.ma, &k.b, &k.mb, &opts);
                s += h.map_or(0.0, |h| h.time);
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for k in &cases {
                let h = pq::cast_shapes_nonlinear(
                    &k.qa,
                    &*k.pa,
                    &k.qb,
                    &*k.pb,
                    0.0,
                    opts.max_time,
                    true,
                );
                s += h.ok().flatten().map_or(0.0, |h| h.time_of_impact);
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group! {
    name = cast3d;
    config = config();
    targets = linear, nonlinear
}
criterion_main!(cast3d);
