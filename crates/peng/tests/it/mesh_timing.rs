//! Rough timings (ignored by default; run with `--ignored --nocapture`).
//! CPU time of the test thread is read from `/proc/thread-self/schedstat`, so
//! the figures hold on a loaded machine (Linux only; wall time otherwise).

use crate::mesh_common;

use mesh_common::{icosphere, Rng};
use peng::mesh::TriMesh;
use std::time::Instant;

/// CPU time of this thread in seconds, or wall time where unavailable.
fn cpu_seconds(start: &Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(|ns| ns as f64 * 1e-9)
        .unwrap_or_else(|| start.elapsed().as_secs_f64())
}

#[test]
#[ignore]
fn build_and_cast_timings() {
    let (v, t) = icosphere(1.0, 8); // 1.31M triangles
    let n = t.len();
    let clock = Instant::now();
    let boxes: Vec<_> = t
        .iter()
        .map(|x| peng::bound::Aabb3::from_points(x.map(|i| v[i as usize])))
        .collect();
    let c0 = cpu_seconds(&clock);
    let bvh = peng::mesh::Bvh3::build(&boxes);
    let bvh_only = cpu_seconds(&clock) - c0;
    drop((bvh, boxes));
    let c0 = cpu_seconds(&clock);
    let m = TriMesh::new(v, t).unwrap();
    let build = cpu_seconds(&clock) - c0;
    let mut rng = Rng(7);
    let rays: Vec<_> = (0..200_000)
        .map(|_| (rng.v3(-2.0, 2.0), rng.unit3()))
        .collect();
    let c0 = cpu_seconds(&clock);
    let mut hits = 0;
    for (o, d) in &rays {
        hits += m.cast_local_ray(*o, *d, f32::INFINITY).is_some() as u32;
    }
    let cast = cpu_seconds(&clock) - c0;
    let c0 = cpu_seconds(&clock);
    let mut d = 0.0;
    for (o, _) in rays.iter().take(5_000) {
        d += m.project_local_point(*o).distance;
    }
    let proj = cpu_seconds(&clock) - c0;
    println!(
        "{n} triangles: BVH build {bvh_only:.3} s CPU, mesh build {build:.3} s, depth {}, nodes {}; {:.2} Mrays/s ({hits} hits); {:.0} projections/s ({d:.1})",
        m.bvh().depth(),
        m.bvh().nodes().len(),
        rays.len() as f64 / cast / 1e6,
        5_000.0 / proj,
    );
}
