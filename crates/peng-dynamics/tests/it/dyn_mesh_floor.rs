//! A pile of convex hulls dropped on a bumpy one-sided triangle-mesh floor:
//! none falls through, even spinning hulls that sink past a triangle's
//! plane (a two-sided floor would push those on down).

use glam::{Quat, Vec3};
use peng::d3::{ConvexPolyhedron, Pose3, TriMesh};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

fn height(x: f32, z: f32) -> f32 {
    0.3 * (0.7 * x).sin() * (0.5 * z).cos()
}

#[test]
fn hulls_do_not_fall_through_a_one_sided_mesh_floor() {
    let mut w = PhysicsWorld3::new();
    let (cells, size) = (24u32, 0.5f32);
    let half = 0.5 * cells as f32 * size;
    let mut v = Vec::new();
    for j in 0..=cells {
        for i in 0..=cells {
            let (x, z) = (i as f32 * size - half, j as f32 * size - half);
            v.push(Vec3::new(x, height(x, z), z));
        }
    }
    let row = cells + 1;
    let mut idx = Vec::new();
    for j in 0..cells {
        for i in 0..cells {
            let a = j * row + i;
            idx.push([a, a + row, a + 1]);
            idx.push([a + 1, a + row, a + row + 1]);
        }
    }
    let floor = w.add_body(BodyDesc::fixed(Pose3::IDENTITY));
    let mesh = TriMesh::new(v, idx).unwrap().with_one_sided(true);
    w.add_collider(floor, ColliderDesc::new(mesh)).unwrap();
    let mut seed = 2024u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut hulls = Vec::new();
    for k in 0..80 {
        let pts: Vec<Vec3> = (0..12)
            .map(|_| {
                let d = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5).normalize_or(Vec3::X);
                d * (0.25 + 0.15 * rnd())
            })
            .collect();
        let hull = ConvexPolyhedron::from_points(&pts).unwrap();
        let p = Vec3::new(
            (k % 8) as f32 * 1.2 - 4.2,
            1.5 + (k / 64) as f32 * 1.5,
            ((k / 8) % 8) as f32 * 1.2 - 4.2,
        );
        let q = Quat::from_scaled_axis(Vec3::new(rnd(), rnd(), rnd()) * 3.0);
        let b = w.add_body(
            BodyDesc::dynamic(Pose3::new(p, q))
                .with_angvel(Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 20.0),
        );
        w.add_collider(b, ColliderDesc::new(hull)).unwrap();
        hulls.push(b);
    }
    let mut on_floor = 0;
    for step in 0..240 {
        w.step().unwrap();
        for &h in &hulls {
            let p = w.body(h).unwrap().pose.translation;
            assert!(p.is_finite());
            // Hulls knocked off the floor's edge fall freely; no other's
            // centre gets a hull's size (0.4) under the surface. (Pressed by
            // the pile, a hull can sink up to about 0.2 for a few steps.)
            if p.x.abs() < half - 0.5 && p.z.abs() < half - 0.5 {
                assert!(
                    p.y > height(p.x, p.z) - 0.4,
                    "step {step}: a hull's centre is at {p}, under the floor"
                );
                on_floor += (step == 239) as usize;
            }
        }
    }
    assert!(on_floor > 70, "only {on_floor} hulls stayed on the floor");
}
