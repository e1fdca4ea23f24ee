//! Triangle meshes: peng's `TriMesh` against parry3d's `TriMesh` on the same
//! vertex and index lists (`peng_bench::meshes`).
//!
//! Rows (criterion groups):
//! - `mesh ray 1M sphere`, `mesh ray 1M terrain`: [`RAYS`] closest-hit ray
//!   casts with normals against a 1M-triangle mesh (peng `cast_local_ray`,
//!   parry `cast_local_ray_and_get_normal`, not solid); throughput in rays.
//! - `mesh point 1M sphere`: [`POINTS`] closest-point projections.
//! - `mesh build 1M sphere`: `TriMesh::new` from the lists (BVH and whatever
//!   else each library builds; parry with no optional flags). The lists are
//!   cloned outside the timing.
//! - `bvh build 1M boxes`: only the BVH over the triangles' boxes (peng
//!   `Bvh3::build`, parry `Bvh::from_leaves(Binned)`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use glam::Vec3;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy};
use parry3d::query::{PointQuery, Ray, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use peng::bound::Aabb3;
use peng::mesh::{Bvh3, TriMesh};
use peng_bench::meshes::{bumpy_sphere, terrain, MeshLists};
use peng_bench::Rng;
use std::hint::black_box;
use std::time::Duration;

/// Rays per iteration.
const RAYS: usize = 10_000;
/// Points per iteration.
const POINTS: usize = 2_000;
const MAX_TOI: f32 = 1e6;

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4))
        .sample_size(10)
}

/// Rays from a shell around the mesh box (1.5 to 3 half-diagonals from its
/// centre) towards random points of the box: most hit.
fn rays(lists: &MeshLists, seed: u64, n: usize) -> Vec<(Vec3, Vec3)> {
    let b = Aabb3::from_points(lists.vertices.iter().copied());
    let (c, h) = (b.center(), b.half_extents());
    let r = h.length();
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let o = c + rng.unit_vec3() * rng.range(1.5 * r, 3.0 * r);
            let t = c + rng.in_box3(h);
            (o, (t - o).normalize())
        })
        .collect()
}

fn ray_row(c: &mut Criterion, name: &str, lists: &MeshLists, seed: u64) {
    let mesh = TriMesh::new(lists.vertices.clone(), lists.indices.clone()).expect("valid mesh");
    let pm = PTriMesh::new(lists.vertices.clone(), lists.indices.clone()).expect("valid mesh");
    let rs = rays(lists, seed, RAYS);
    let prs: Vec<Ray> = rs.iter().map(|&(o, d)| Ray::new(o, d)).collect();
    // Both find the same hits (the differential test checks the details).
    let peng_hits = rs
        .iter()
        .filter(|(o, d)| mesh.cast_local_ray(*o, *d, MAX_TOI).is_some())
        .count();
    let parry_hits = prs
        .iter()
        .filter(|r| pm.cast_local_ray(r, MAX_TOI, false).is_some())
        .count();
    assert_eq!(peng_hits, parry_hits, "{name}: hit counts");
    eprintln!("{name}: {peng_hits} of {RAYS} rays hit");
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(RAYS as u64));
    g.bench_function("peng", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for &(o, d) in &rs {
                if let Some(h) = mesh.cast_local_ray(o, d, MAX_TOI) {
                    s += h.hit.toi + h.hit.normal.x;
                }
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for r in &prs {
                if let Some(h) = pm.cast_local_ray_and_get_normal(r, MAX_TOI, false) {
                    s += h.time_of_impact + h.normal.x;
                }
            }
            black_box(s)
        })
    });
    g.finish();
}

fn point_row(c: &mut Criterion, name: &str, lists: &MeshLists, seed: u64) {
    let mesh = TriMesh::new(lists.vertices.clone(), lists.indices.clone()).expect("valid mesh");
    let pm = PTriMesh::new(lists.vertices.clone(), lists.indices.clone()).expect("valid mesh");
    let b = mesh.local_aabb();
    let mut rng = Rng::new(seed);
    let pts: Vec<Vec3> = (0..POINTS)
        .map(|_| b.center() + rng.in_box3(b.half_extents() * 1.5))
        .collect();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(POINTS as u64));
    g.bench_function("peng", |bch| {
        bch.iter(|| {
            let mut s = 0.0f32;
            for &p in &pts {
                s += mesh.project_local_point(p).distance;
            }
            black_box(s)
        })
    });
    g.bench_function("parry", |bch| {
        bch.iter(|| {
            let mut s = 0.0f32;
            for &p in &pts {
                s += (pm.project_local_point(p, false).point - p).length();
            }
            black_box(s)
        })
    });
    g.finish();
}

fn build_rows(c: &mut Criterion, lists: &MeshLists) {
    let mut g = c.benchmark_group("mesh build 1M sphere");
    g.throughput(Throughput::Elements(lists.indices.len() as u64));
    let input = || (lists.vertices.clone(), lists.indices.clone());
    g.bench_function("peng", |b| {
        b.iter_batched(
            input,
            |(v, i)| black_box(TriMesh::new(v, i).expect("valid mesh")),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("parry", |b| {
        b.iter_batched(
            input,
            |(v, i)| black_box(PTriMesh::new(v, i).expect("valid mesh")),
            BatchSize::PerIteration,
        )
    });
    g.finish();

    let tri = |t: &[u32; 3]| t.map(|i| lists.vertices[i as usize]);
    let boxes: Vec<Aabb3> = lists
        .indices
        .iter()
        .map(|t| Aabb3::from_points(tri(t)))
        .collect();
    let pboxes: Vec<PAabb> = boxes.iter().map(|b| PAabb::new(b.min, b.max)).collect();
    let mut g = c.benchmark_group("bvh build 1M boxes");
    g.throughput(Throughput::Elements(boxes.len() as u64));
    g.bench_function("peng", |b| b.iter(|| black_box(Bvh3::build(&boxes))));
    g.bench_function("parry", |b| {
        b.iter(|| black_box(PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes)))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let sphere = bumpy_sphere(289);
    let ground = terrain(708, 0x7e_0001);
    ray_row(c, "mesh ray 1M sphere", &sphere, 0x3e_0001);
    ray_row(c, "mesh ray 1M terrain", &ground, 0x3e_0002);
    point_row(c, "mesh point 1M sphere", &sphere, 0x3e_0003);
    build_rows(c, &sphere);
}

criterion_group! {
    name = mesh;
    config = config();
    targets = benches
}
criterion_main!(mesh);
