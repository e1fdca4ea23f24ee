//! Mesh CCD primitives (`peng::ccd::mesh`) on every sample query of the CCD
//! benchmark (`peng_bench::ccd_data`): one criterion row for the whole
//! edge–edge set and one for the whole vertex–face set. Throughput is in
//! queries, so criterion's "elem/s" gives the per-query time (total / count).
//! The per-query median and maximum are printed by the `ccd_mesh_report`
//! example.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use peng::ccd::mesh::MeshCcdOptions;
use peng_bench::ccd_data::{default_dir, load_kind, run, CcdKind};
use std::hint::black_box;
use std::time::Duration;

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
}

fn bench(c: &mut Criterion) {
    let dir = default_dir();
    let options = MeshCcdOptions::default();
    let mut group = c.benchmark_group("ccd mesh");
    for kind in [CcdKind::EdgeEdge, CcdKind::VertexFace] {
        let queries = match load_kind(&dir, kind) {
            Ok(q) if !q.is_empty() => q,
            Ok(_) | Err(_) => {
                eprintln!(
                    "skipping {}: no queries under {}",
                    kind.folder(),
                    dir.display()
                );
                continue;
            }
        };
        group.throughput(Throughput::Elements(queries.len() as u64));
        group.bench_function(kind.folder(), |b| {
            b.iter(|| {
                let mut hits = 0usize;
                for q in &queries {
                    hits += run(black_box(q), &options).is_some() as usize;
                }
                hits
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion_main!(benches);
