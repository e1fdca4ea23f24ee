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
use glam::Vec2;
use parry2d::query as pq;
use parry2d::shape::SharedShape;
use peer::Peer;
use peng::d2::*;
use peng_bench::dim::D2;
use peng_bench::gen2;
use peng_bench::rng::Rng;
use std::hint::black_box;
use std::time::Duration;

/// Pairs per iteration.
const N: usize = 1000;

const KINDS: [ShapeKind; 4] = [
    ShapeKind::Rect,
    ShapeKind::Circle,
    ShapeKind::Capsule,
    ShapeKind::Polygon,
];

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

fn cases(seed: u64, spin: bool) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        let ka = KINDS[rng.below(4)];
        let a = gen2::shape(&mut rng, ka);
        let kb = KINDS[rng.below(4)];
        let b = gen2::shape(&mut rng, kb);
        let (Some(a), Some(b)) = (a, b) else {
            continue;
        };
        let pa = Pose2::new(rng.in_disk(0.5), rng.range(-3.2, 3.2));
        let off = rng.unit_vec2() * rng.range(3.0, 7.0);
        let pb = Pose2::new(pa.translation + off, rng.range(-3.2, 3.2));
        let vb = Vec2::from_angle(rng.range(-0.5, 0.5)).rotate(-off) * rng.range(0.5, 1.5);
        let va = rng.in_disk(1.0);
        let (wa, wb) = if spin {
            (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0))
        } else {
            (0.0, 0.0)
        };
        let ma = Motion2 {
            start: pa,
            local_center: rng.in_disk(0.3),
            linvel: va,
            angvel: wa,
        };
        let mb = Motion2 {
            start: pb,
            local_center: rng.in_disk(0.3),
            linvel: vb,
            angvel: wb,
        };
        let q = |m: &Motion2| {
            pq::NonlinearRigidMotion::new(
                D2::parry_pose(&m.start),
                m.local_center,
                m.linvel,
                m.angvel,
            )
        };
        out.push(Case {
            pa: D2::parry_shape(&a),
            pb: D2::parry_shape(&b),
            qa: q(&ma),
            qb: q(&mb),
            a,
            b,
            ma,
            mb,
        });
    }
    out
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
