//! Self-collision checks per second on the Panda, one thread, on the 2,000
//! reference configurations (`data/robots/reference/panda_collisions.csv`),
//! meshes as triangles (as Pinocchio's coal checks them) and as hulls:
//!
//! ```text
//! cargo run --release -p peng-robot --example panda_rate [hulls|meshes]
//! ```
//! `data/robots/reference/panda_rate.py` times Pinocchio on the same file.

use peng_robot::{link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, Stop};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
    let dir = data.join("example-robot-data/robots/panda_description");
    let r = urdf::read_file(dir.join("urdf/panda.urdf")).unwrap();
    let s = srdf::read_file(dir.join("srdf/panda.srdf"), &r).unwrap();
    let text = std::fs::read_to_string(data.join("reference/panda_collisions.csv")).unwrap();
    let configs: Vec<(Vec<f64>, bool)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let v: Vec<f64> = l.split(',').skip(1).map(|x| x.parse().unwrap()).collect();
            (v[..8].to_vec(), v[8] == 1.0)
        })
        .collect();
    for (name, mode) in [
        ("triangle meshes", MeshMode::TriMesh),
        ("convex hulls", MeshMode::ConvexHull),
    ] {
        let only = std::env::args().nth(1);
        let wanted = match only.as_deref() {
            Some("hulls") => mode == MeshMode::ConvexHull,
            Some("meshes") => mode == MeshMode::TriMesh,
            _ => true,
        };
        if !wanted {
            continue;
        }
        let source = MeshSource {
            search_paths: vec![data.clone()],
            base: None,
            mode,
        };
        let c = Checker::new(r.clone(), link_shapes(&r, &source).unwrap(), Some(&s));
        let mut best = f64::INFINITY;
        let mut differ = 0;
        for _ in 0..5 {
            let t = Instant::now();
            differ = configs
                .iter()
                .filter(|(q, want)| c.check(q, Stop::AtFirst).unwrap().is_empty() == *want)
                .count();
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name}: {:.0} configurations/s (best of 5 over {}), {differ} verdicts differ from Pinocchio's",
            configs.len() as f64 / best,
            configs.len()
        );
    }
}
