//! Rough timings (ignored by default; run with `--ignored --nocapture`).

mod mesh_common;

use mesh_common::{icosphere, Rng};
use peng::mesh::TriMesh;
use std::time::Instant;

#[test]
#[ignore]
fn build_and_cast_timings() {
    let (v, t) = icosphere(1.0, 8); // 1.31M triangles
    let n = t.len();
    let t0 = Instant::now();
    let m = TriMesh::new(v, t).unwrap();
    let build = t0.elapsed();
    let mut rng = Rng(7);
    let rays: Vec<_> = (0..200_000)
        .map(|_| (rng.v3(-2.0, 2.0), rng.unit3()))
        .collect();
    let t0 = Instant::now();
    let mut hits = 0;
    for (o, d) in &rays {
        hits += m.cast_local_ray(*o, *d, f32::INFINITY).is_some() as u32;
    }
    let cast = t0.elapsed();
    println!(
        "{n} triangles: build {:?}, depth {}, nodes {}; {} rays in {:?} ({:.2} Mrays/s), {hits} hits",
        build,
        m.bvh().depth(),
        m.bvh().nodes().len(),
        rays.len(),
        cast,
        rays.len() as f64 / cast.as_secs_f64() / 1e6
    );
}
