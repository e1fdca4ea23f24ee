//! peng vs parry2d on 2D shape casts: `cast2d_linear` (peng's `cast_linear`
//! vs parry's `query::cast_shapes`) and `cast2d_nonlinear` (peng's
//! `cast_nonlinear` vs parry's `query::cast_shapes_nonlinear`), each library
//! on the same 1,000 pre-generated random convex pairs (rects, circles,
//! capsules, convex polygons) per iteration: B 3 to 7 away from A and aimed
//! roughly at it, so that about half the casts hit within the unit step.
//! Both sides use their default options (peng: tolerance 1e-4 of the size;
//! parry: stop at penetration). Conversions happen before timing.

#[path = "../src/peer.rs"]
mod peer;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry2d::query as pq;
use parry2d::shape::SharedShape;
use peer::Peer;
use peng::d2::*;
use peng_bench::cast_cases::casts2;
use peng_bench::dim::D2;
use std::hint::black_box;
use std::time::Duration;

/// Pairs per iteration.
const N: usize = 1000;

struct Case {
    a: Shape,
    b: Shape,
    ma: Motion2,
    mb: Motion2,
    pa: SharedShape,
    pb: SharedShape,
    qa: pq::NonlinearRigidMotion,
    qb: pq::NonlinearRigidMotion,
}

/// The casts of `tests/cast2d_diff.rs` (the same distribution), with their
/// parry twins.
fn cases(seed: u64, spin: bool) -> Vec<Case> {
    let q = |m: &Motion2| {
        pq::NonlinearRigidMotion::new(D2::parry_pose(&m.start), m.local_center, m.linvel, m.angvel)
    };
    casts2(seed, N, spin)
        .into_iter()
        .map(|c| Case {
            pa: D2::parry_shape(&c.a),
            pb: D2::parry_shape(&c.b),
            qa: q(&c.ma),
            qb: q(&c.mb),
            a: c.a,
            b: c.b,
            ma: c.ma,
            mb: c.mb,
        })
        .collect()
}

fn group<T, U>(
    c: &mut Criterion,
    name: &str,
    mut peng: impl FnMut() -> T,
    mut parry: impl FnMut() -> U,
) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("peng", |b| b.iter(&mut peng));
    g.bench_function("parry", |b| b.iter(&mut parry));
    g.finish();
}

fn benches(c: &mut Criterion) {
    let o = CastOptions::default();
    let lin = cases(0xbeca_5701, false);
    let parry_lin: Vec<_> = lin
        .iter()
        .map(|k| (D2::parry_pose(&k.ma.start), D2::parry_pose(&k.mb.start)))
        .collect();
    let popt = pq::ShapeCastOptions::with_max_time_of_impact(1.0);
    group(
        c,
        "cast2d_linear",
        || {
            let mut s = 0.0f32;
            for k in &lin {
                if let Some(h) = cast_linear(
                    &k.a,
                    &k.ma.start,
                    k.ma.linvel,
                    &k.b,
                    &k.mb.start,
                    k.mb.linvel,
                    &o,
                ) {
                    s += h.time;
                }
            }
            black_box(s)
        },
        || {
            let mut s = 0.0f32;
            for (k, (pa, pb)) in lin.iter().zip(&parry_lin) {
                if let Ok(Some(h)) =
                    pq::cast_shapes(pa, k.ma.linvel, &*k.pa, pb, k.mb.linvel, &*k.pb, popt)
                {
                    s += h.time_of_impact;
                }
            }
            black_box(s)
        },
    );
    let non = cases(0xbeca_5702, true);
    group(
        c,
        "cast2d_nonlinear",
        || {
            let mut s = 0.0f32;
            for k in &non {
                if let Some(h) = cast_nonlinear(&k.a, &k.ma, &k.b, &k.mb, &o) {
                    s += h.time;
                }
            }
            black_box(s)
        },
        || {
            let mut s = 0.0f32;
            for k in &non {
                if let Ok(Some(h)) =
                    pq::cast_shapes_nonlinear(&k.qa, &*k.pa, &k.qb, &*k.pb, 0.0, 1.0, true)
                {
                    s += h.time_of_impact;
                }
            }
            black_box(s)
        },
    );
}

criterion_group! {
    name = cast2d;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = benches
}
criterion_main!(cast2d);
