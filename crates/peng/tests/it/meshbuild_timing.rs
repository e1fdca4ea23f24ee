//! Rough build and projection timings for the mesh BVH (ignored by default;
//! run with `cargo test -p peng --test it meshbuild_timing:: -- --ignored --nocapture`).
//! Prints CPU seconds of the test thread and the tree's SAH cost, so a faster
//! build can be checked not to have bought its speed with a worse tree.

use crate::mesh_common;

use mesh_common::{icosphere, Rng};
use peng::bound::Aabb3;
use peng::mesh::{Bvh3, TriMesh};
use std::time::Instant;

/// CPU time of this thread in seconds, or wall time where unavailable.
fn cpu_seconds(start: &Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(|ns| ns as f64 * 1e-9)
        .unwrap_or_else(|| start.elapsed().as_secs_f64())
}

/// SAH cost of a tree relative to its root box: `Σ_interior A + Σ_leaf A·n`
/// over `A(root)` (MacDonald and Booth 1990, with unit costs).
fn sah_cost(bvh: &Bvh3) -> f64 {
    let half = |b: &Aabb3| {
        let s = b.max - b.min;
        (s.x * s.y + s.y * s.z + s.z * s.x) as f64
    };
    let root = half(&bvh.root_aabb());
    let mut c = 0.0;
    for n in bvh.nodes() {
        c += half(&n.aabb)
            * if n.is_leaf() {
                n.slots().len() as f64
            } else {
                1.0
            };
    }
    c / root
}

#[test]
#[ignore]
fn build_and_projection_timings() {
    let (v, t) = icosphere(1.0, 8); // 1.31M triangles
    let n = t.len();
    let clock = Instant::now();
    let boxes: Vec<Aabb3> = t
        .iter()
        .map(|x| Aabb3::from_points(x.map(|i| v[i as usize])))
        .collect();
    let mut bvh_s = f64::INFINITY;
    let mut cost = 0.0;
    for _ in 0..6 {
        let c0 = cpu_seconds(&clock);
        let bvh = Bvh3::build(&boxes);
        bvh_s = bvh_s.min(cpu_seconds(&clock) - c0);
        cost = sah_cost(&bvh);
    }
    let mut mesh_s = f64::INFINITY;
    let mut mesh = None;
    for _ in 0..2 {
        let (v, t) = (v.clone(), t.clone());
        let c0 = cpu_seconds(&clock);
        mesh = Some(TriMesh::new(v, t).expect("valid mesh"));
        mesh_s = mesh_s.min(cpu_seconds(&clock) - c0);
    }
    let m = mesh.expect("built");
    let mut rng = Rng(7);
    let pts: Vec<_> = (0..5_000).map(|_| rng.v3(-1.5, 1.5)).collect();
    let c0 = cpu_seconds(&clock);
    let mut d = 0.0;
    for p in &pts {
        d += m.project_local_point(*p).distance;
    }
    let proj = cpu_seconds(&clock) - c0;
    println!(
        "{n} triangles: BVH build {bvh_s:.3} s, mesh build {mesh_s:.3} s, SAH cost {cost:.2}, \
         depth {}, nodes {}; {:.0} projections/s ({d:.3})",
        m.bvh().depth(),
        m.bvh().nodes().len(),
        pts.len() as f64 / proj,
    );
}
