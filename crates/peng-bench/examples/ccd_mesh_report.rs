//! Runs peng's mesh CCD primitives on every sample query of the CCD benchmark
//! (`peng_bench::ccd_data`) and prints, per kind: queries, colliding, false
//! negatives, false positives, and the median, mean and max time per query.
//!
//! ```text
//! cargo run --profile bench -p peng-bench --example ccd_mesh_report [-- DATA_DIR]
//! ```
//!
//! Timing: after one warm-up pass over all queries, each query is timed on its
//! own with `std::time::Instant`, running it `REPEAT` times back to back and
//! dividing, because a single query (tens of nanoseconds) is close to the
//! timer's own cost and resolution (the timer's overhead, measured and printed,
//! is not subtracted); each query is timed `ROUNDS` times and the fastest is
//! kept, so a preemption on the shared machine is not taken for its cost. Options: `PENG_CCD_MAX_WORK`, `PENG_CCD_TOL`,
//! `PENG_CCD_MS` (environment variables) override the defaults.

use peng::ccd::mesh::MeshCcdOptions;
use peng_bench::ccd_data::{default_dir, load_kind, run, run_detailed, CcdKind, CcdQuery};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// Runs of one query per timing.
const REPEAT: u32 = 8;
/// Timings per query (the fastest is kept).
const ROUNDS: u32 = 3;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(kind: CcdKind, queries: &[CcdQuery], options: &MeshCcdOptions) {
    // Warm-up, and the answers.
    let outcomes: Vec<_> = queries.iter().map(|q| run_detailed(q, options)).collect();
    let answers: Vec<Option<f64>> = outcomes.iter().map(|o| o.toi).collect();
    let mut times = Vec::with_capacity(queries.len());
    for q in queries {
        // The fastest of ROUNDS timings: the machine is shared, and a
        // preemption inside one timing would otherwise be taken for the
        // query's cost.
        let mut fastest = f64::INFINITY;
        for _ in 0..ROUNDS {
            let start = Instant::now();
            for _ in 0..REPEAT {
                black_box(run(black_box(q), options));
            }
            fastest = fastest.min(start.elapsed().as_secs_f64() / REPEAT as f64);
        }
        times.push(fastest);
    }
    let exhausted = outcomes.iter().filter(|o| o.exhausted).count();
    let mut boxes: Vec<u32> = outcomes.iter().map(|o| o.boxes).collect();
    boxes.sort_unstable();
    let searched = boxes.iter().filter(|&&b| b > 0).count();
    let colliding = queries.iter().filter(|q| q.truth).count();
    let fneg = queries
        .iter()
        .zip(&answers)
        .filter(|(q, a)| q.truth && a.is_none())
        .count();
    let fpos = queries
        .iter()
        .zip(&answers)
        .filter(|(q, a)| !q.truth && a.is_some())
        .count();
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let max = times.iter().cloned().fold(0.0, f64::max);
    let slow = times.iter().filter(|&&t| t > 10e-6).count();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    println!(
        "{:<12} queries {:>5}  colliding {:>4}  FN {:>2}  FP {:>3}  median {:>8.1} ns  mean {:>8.1} ns  max {:>9.1} ns  (>10 µs: {slow})",
        kind.folder(),
        queries.len(),
        colliding,
        fneg,
        fpos,
        median * 1e9,
        mean * 1e9,
        max * 1e9,
    );
    println!(
        "{:<12} searched {searched}  boxes: p50 {}  p99 {}  max {}  budget exhausted {exhausted}",
        "",
        boxes[boxes.len() / 2],
        boxes[boxes.len() * 99 / 100],
        boxes[boxes.len() - 1],
    );
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(default_dir);
    let defaults = MeshCcdOptions::default();
    let options = MeshCcdOptions {
        max_work: env_or("PENG_CCD_MAX_WORK", defaults.max_work),
        time_tolerance: env_or("PENG_CCD_TOL", defaults.time_tolerance),
        minimum_separation: env_or("PENG_CCD_MS", defaults.minimum_separation),
    };
    println!("data: {}\noptions: {options:?}", dir.display());
    // The timer's own cost, for reference.
    let n = 100_000;
    let start = Instant::now();
    for _ in 0..n {
        black_box(Instant::now());
    }
    println!(
        "Instant::now() costs about {:.1} ns",
        start.elapsed().as_secs_f64() / n as f64 * 1e9
    );
    for kind in [CcdKind::EdgeEdge, CcdKind::VertexFace] {
        match load_kind(&dir, kind) {
            Ok(qs) if !qs.is_empty() => report(kind, &qs, &options),
            Ok(_) => eprintln!("no {} queries under {}", kind.folder(), dir.display()),
            Err(e) => eprintln!("cannot load the queries: {e}"),
        }
    }
}
