//! peng's side of one narrow-phase or cast benchmark row, run a fixed number
//! of times outside criterion: for instruction counts under callgrind, which
//! are the same on every run (timings on a shared machine are not).
//!
//! ```text
//! cargo build --profile bench -p peng-bench --example bench_count
//! valgrind --tool=callgrind --toggle-collect='*run_passes*' \
//!     target/release/examples/bench_count cast3d_linear 5
//! ```
//!
//! The total counts the five passes over the row's inputs alone, without
//! their generation. Rows (as in `benches/`, same seeds and counts):
//! `--list` prints them. The inputs come from the library's generators, so
//! the same file measures an older commit when copied into its tree.

use peng_bench::cast_cases::{casts2, casts3};
use peng_bench::dim::{Dim, D2, D3};
use peng_bench::gen;
use std::hint::black_box;

/// Pairs, rays or casts per pass (as in the benches).
const N: usize = 1000;
/// Contact prediction of the manifold rows.
const PREDICTION: f32 = 0.01;
/// Longest ray parameter of the ray rows.
const MAX_TOI: f32 = 100.0;

const ROWS: &[&str] = &[
    "2d-box-box-manifold",
    "2d-polygon-polygon-manifold",
    "3d-cuboid-cuboid-manifold",
    "3d-convex-convex-manifold",
    "3d-convex-convex-distance",
    "3d-capsule-capsule-manifold",
    "3d-ball-cuboid-manifold",
    "3d-ray-vs-convex",
    "cast2d_linear",
    "cast2d_nonlinear",
    "cast3d_linear",
    "cast3d_nonlinear",
];

/// A pass over manifold pairs: the number of contact points.
fn manifolds<D: Dim>(seed: u64, ka: D::Kind, kb: D::Kind) -> impl FnMut() -> usize {
    let pairs = gen::pairs_in::<D>(seed, ka, kb, N, false, gen::PLACE_RANGE);
    move || {
        pairs
            .iter()
            .filter_map(|p| D::contact(p, PREDICTION))
            .map(|m| D::manifold_len(&m))
            .sum()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_none_or(|a| a == "--list") {
        println!("{}", ROWS.join("\n"));
        return;
    }
    let row = args[0].as_str();
    let repeat: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    use peng::d2::ShapeKind as K2;
    use peng::d3::ShapeKind as K3;
    let mut pass: Box<dyn FnMut() -> f64> = match row {
        "2d-box-box-manifold" => {
            let mut f = manifolds::<D2>(0xbe_2001, K2::Rect, K2::Rect);
            Box::new(move || f() as f64)
        }
        "2d-polygon-polygon-manifold" => {
            let mut f = manifolds::<D2>(0xbe_2002, K2::Polygon, K2::Polygon);
            Box::new(move || f() as f64)
        }
        "3d-cuboid-cuboid-manifold" => {
            let mut f = manifolds::<D3>(0xbe_0001, K3::Cuboid, K3::Cuboid);
            Box::new(move || f() as f64)
        }
        "3d-convex-convex-manifold" => {
            let mut f = manifolds::<D3>(0xbe_0002, K3::Polyhedron, K3::Polyhedron);
            Box::new(move || f() as f64)
        }
        "3d-capsule-capsule-manifold" => {
            let mut f = manifolds::<D3>(0xbe_0004, K3::Capsule, K3::Capsule);
            Box::new(move || f() as f64)
        }
        "3d-ball-cuboid-manifold" => {
            let mut f = manifolds::<D3>(0xbe_0005, K3::Ball, K3::Cuboid);
            Box::new(move || f() as f64)
        }
        "3d-convex-convex-distance" => {
            let pairs = gen::pairs_in::<D3>(
                0xbe_0003,
                K3::Polyhedron,
                K3::Polyhedron,
                N,
                false,
                gen::SEPARATED_RANGE,
            );
            Box::new(move || pairs.iter().map(|p| D3::distance(p).distance as f64).sum())
        }
        "3d-ray-vs-convex" => {
            let rays = gen::rays::<D3>(0xbe_0006, K3::Polyhedron, N);
            Box::new(move || {
                rays.iter()
                    .filter_map(|r| D3::ray_cast(&r.shape, &r.pose, &r.ray, MAX_TOI, true))
                    .map(|(t, _)| t as f64)
                    .sum()
            })
        }
        "cast2d_linear" | "cast2d_nonlinear" => {
            let spin = row == "cast2d_nonlinear";
            let cases = casts2(if spin { 0xbeca_5702 } else { 0xbeca_5701 }, N, spin);
            let o = peng::d2::CastOptions::default();
            Box::new(move || {
                cases
                    .iter()
                    .filter_map(|k| {
                        if spin {
                            peng::d2::cast_nonlinear(&k.a, &k.ma, &k.b, &k.mb, &o)
                        } else {
                            let (a, b) = (&k.ma, &k.mb);
                            peng::d2::cast_linear(
                                &k.a, &a.start, a.linvel, &k.b, &b.start, b.linvel, &o,
                            )
                        }
                    })
                    .map(|h| h.time as f64)
                    .sum()
            })
        }
        "cast3d_linear" | "cast3d_nonlinear" => {
            let rotating = row == "cast3d_nonlinear";
            let seed = if rotating { 0xca57_0002 } else { 0xca57_0001 };
            let cases = casts3(seed, N, rotating);
            let o = peng::d3::CastOptions::default();
            Box::new(move || {
                cases
                    .iter()
                    .filter_map(|k| {
                        if rotating {
                            peng::d3::cast_nonlinear(&k.a, &k.ma, &k.b, &k.mb, &o)
                        } else {
                            let (a, b) = (&k.ma, &k.mb);
                            peng::d3::cast_linear(
                                &k.a, &a.start, a.linvel, &k.b, &b.start, b.linvel, &o,
                            )
                        }
                    })
                    .map(|h| h.time as f64)
                    .sum()
            })
        }
        _ => {
            eprintln!("unknown row {row:?}; rows:\n{}", ROWS.join("\n"));
            std::process::exit(2);
        }
    };
    let total = run_passes(&mut *pass, repeat);
    println!("{row} x{repeat}: {total}");
}

/// The measured part: `repeat` passes over the inputs. Its own function so
/// that callgrind can count it alone (`--toggle-collect=*run_passes*`): the
/// input generation builds hash maps with a random seed per process, so its
/// count differs from run to run by more than the passes' own changes.
#[inline(never)]
fn run_passes(pass: &mut dyn FnMut() -> f64, repeat: usize) -> f64 {
    let mut total = 0.0;
    for _ in 0..repeat {
        total += black_box(pass());
    }
    total
}
