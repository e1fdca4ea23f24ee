//! Rough timings of mesh contacts (ignored by default; run with
//! `--ignored --nocapture`). CPU time of the test thread from
//! `/proc/thread-self/schedstat` (wall time where unavailable).

use peng::d3::*;
use std::time::Instant;

fn cpu_seconds(start: &Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(|ns| ns as f64 * 1e-9)
        .unwrap_or_else(|| start.elapsed().as_secs_f64())
}

/// An `n`x`n` grid of unit cells, two triangles each, normal +y.
fn floor(n: u32) -> TriMesh {
    let mut v = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            v.push(Vec3::new(c as f32, 0.0, r as f32));
        }
    }
    let id = |r: u32, c: u32| r * (n + 1) + c;
    let mut t = Vec::new();
    for r in 0..n {
        for c in 0..n {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    TriMesh::new(v, t).unwrap()
}

#[test]
#[ignore]
fn contact_timings() {
    let shapes: [(&str, Shape); 3] = [
        (
            "box",
            Cuboid::new(Vec3::new(0.6, 0.3, 0.45)).unwrap().into(),
        ),
        ("ball", Ball::new(0.5).unwrap().into()),
        (
            "capsule",
            Capsule::new(Vec3::new(-0.7, 0.0, 0.0), Vec3::new(0.7, 0.0, 0.0), 0.3)
                .unwrap()
                .into(),
        ),
    ];
    for n in [10u32, 100] {
        let mesh: Shape = floor(n).into();
        for (name, s) in &shapes {
            for fix in [true, false] {
                let opts = ContactOptions {
                    fix_internal_edges: fix,
                };
                let steps = 20_000;
                let mut out = Vec::new();
                let clock = Instant::now();
                let c0 = cpu_seconds(&clock);
                for i in 0..steps {
                    let s_ = (i % 997) as f32 * 0.0071 + 1.0;
                    let pose = Pose3::new(
                        Vec3::new(s_, 0.25, 0.61 * s_ + 1.0),
                        Quat::from_rotation_y(i as f32 * 0.01),
                    );
                    out.clear();
                    contacts_with_options(&mesh, &Pose3::IDENTITY, s, &pose, 0.02, &opts, &mut out);
                }
                let dt = cpu_seconds(&clock) - c0;
                eprintln!(
                    "{} triangles, {name}, fix {fix}: {:.1} µs per contact query",
                    2 * n * n,
                    dt / steps as f64 * 1e6
                );
            }
        }
    }
}
