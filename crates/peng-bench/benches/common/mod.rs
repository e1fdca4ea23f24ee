//! Shared machinery of the benches (included by `narrow2d.rs` and `narrow3d.rs`):
//! one criterion group per row of `BENCHMARKS.md`, peng and parry on the SAME
//! pre-generated `N` pairs (or rays) per iteration, so their ratio comes from
//! one run on one machine state. Generic over the dimension ([`peer::Peer`]).
//!
//! parry is called through its public dispatcher, the way rapier calls it:
//! `contact_manifold_convex_convex` on the relative pose for manifolds (one
//! manifold reused, cleared and its warm-start normal reset before every pair so
//! that parry, like peng, starts cold), `query::distance` for distances and
//! `cast_ray_and_get_normal` for rays. Conversions happen before timing.

#![allow(dead_code)]

#[path = "../../src/peer.rs"]
pub mod peer;

use criterion::{Criterion, Throughput};
use peer::Peer;
use peng_bench::gen::{self, Pair};
use std::hint::black_box;
use std::time::Duration;

/// Pairs (or rays) per iteration.
pub const N: usize = 1000;
/// Contact prediction of the manifold rows.
pub const PREDICTION: f32 = 0.01;
/// Longest ray parameter of the ray rows.
const MAX_TOI: f32 = 100.0;

/// The criterion settings of every bench.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

/// One row: the group `name` with a `peng` and a `parry` function, throughput
/// `N` elements.
fn row<T, U>(
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

/// A pair converted to parry: pose and shape of A, pose and shape of B.
type ParryPair<D> = (
    <D as Peer>::PPose,
    <D as Peer>::PShape,
    <D as Peer>::PPose,
    <D as Peer>::PShape,
);

/// `N` pairs of kinds `ka`, `kb` from `seed`, placed with fractions from `range`
/// (see `gen::place_in`), and their parry conversions.
fn inputs<D: Peer>(
    seed: u64,
    ka: D::Kind,
    kb: D::Kind,
    range: (f32, f32),
) -> (Vec<Pair<D>>, Vec<ParryPair<D>>) {
    let pairs = gen::pairs_in::<D>(seed, ka, kb, N, false, range);
    let parry = pairs
        .iter()
        .map(|p| {
            (
                D::parry_pose(&p.pose_a),
                D::parry_shape(&p.a),
                D::parry_pose(&p.pose_b),
                D::parry_shape(&p.b),
            )
        })
        .collect();
    (pairs, parry)
}

/// Contact manifolds (prediction [`PREDICTION`]) of pairs around touching; both
/// sides count the points.
pub fn manifold_row<D: Peer>(c: &mut Criterion, name: &str, seed: u64, ka: D::Kind, kb: D::Kind) {
    let (pairs, parry) = inputs::<D>(seed, ka, kb, gen::PLACE_RANGE);
    let mut m = D::parry_manifold();
    row(
        c,
        name,
        || {
            let mut points = 0usize;
            for p in &pairs {
                if let Some(m) = D::contact(p, PREDICTION) {
                    points += D::manifold_len(&m);
                }
            }
            black_box(points)
        },
        || {
            let mut points = 0usize;
            for (pa, sa, pb, sb) in &parry {
                points += D::parry_manifold_points(&mut m, pa, sa, pb, sb, PREDICTION);
            }
            black_box(points)
        },
    );
}

/// Distances of separated pairs; both sides sum them.
pub fn distance_row<D: Peer>(c: &mut Criterion, name: &str, seed: u64, ka: D::Kind, kb: D::Kind) {
    let (pairs, parry) = inputs::<D>(seed, ka, kb, gen::SEPARATED_RANGE);
    row(
        c,
        name,
        || {
            let mut s = 0.0f32;
            for p in &pairs {
                s += D::distance(p).distance;
            }
            black_box(s)
        },
        || {
            let mut s = 0.0f32;
            for (pa, sa, pb, sb) in &parry {
                s += D::parry_distance(pa, sa, pb, sb).unwrap_or(0.0);
            }
            black_box(s)
        },
    );
}

/// Solid ray casts (`gen::rays`); both sides sum the hit parameters.
pub fn ray_row<D: Peer>(c: &mut Criterion, name: &str, seed: u64, kind: D::Kind) {
    let cases = gen::rays::<D>(seed, kind, N);
    let parry: Vec<_> = cases
        .iter()
        .map(|r| {
            (
                D::parry_pose(&r.pose),
                D::parry_shape(&r.shape),
                D::parry_ray(&r.ray),
            )
        })
        .collect();
    row(
        c,
        name,
        || {
            let mut s = 0.0f32;
            for r in &cases {
                if let Some((toi, _)) = D::ray_cast(&r.shape, &r.pose, &r.ray, MAX_TOI, true) {
                    s += toi;
                }
            }
            black_box(s)
        },
        || {
            let mut s = 0.0f32;
            for (pose, shape, ray) in &parry {
                if let Some((toi, _)) = D::parry_cast_ray(shape, pose, ray, MAX_TOI, true) {
                    s += toi;
                }
            }
            black_box(s)
        },
    );
}
