//! Internal-edge handling: shapes sliding over a flat floor of 200 triangles
//! (and the same floor as a height field) must get only the floor normal and
//! the closed-form depth; the same sweep without the fix finds ghost
//! contacts; a real convex ridge keeps its edge normal.

use peng::d3::*;
use std::sync::Arc;

/// A 10x10 grid of unit cells in the x-z plane (y = 0), centred on the
/// origin, two triangles per cell, normal +y: 200 triangles.
fn floor_mesh() -> TriMesh {
    let n = 10u32;
    let mut v = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            v.push(Vec3::new(c as f32 - 5.0, 0.0, r as f32 - 5.0));
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

fn floor_field() -> HeightField {
    HeightField::new(11, 11, vec![0.0; 121], peng::math::Vec2::ONE).unwrap()
}

/// A shape to slide, its local placement (before the sweep's translation) and
/// the closed-form depth of its deepest point below y = 0.
struct Case {
    shape: Shape,
    rot: Quat,
    /// Height of the shape's origin.
    y: f32,
    depth: f32,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let half = Vec3::new(0.6, 0.3, 0.45);
    let cuboid: Shape = Cuboid::new(half).unwrap().into();
    for &yaw in &[0.0f32, 0.3, core::f32::consts::FRAC_PI_4, 1.2] {
        for &d in &[0.01f32, 0.05, 0.12, -0.02] {
            out.push(Case {
                shape: cuboid.clone(),
                rot: Quat::from_rotation_y(yaw),
                y: half.y - d,
                depth: d,
            });
        }
        // Tilted about a horizontal axis: the lowest corner or edge goes in.
        let rot = Quat::from_rotation_y(yaw) * Quat::from_rotation_x(0.25);
        let low = Cuboid::new(half)
            .unwrap()
            .vertices()
            .iter()
            .map(|&p| (rot * p).y)
            .fold(f32::INFINITY, f32::min);
        out.push(Case {
            shape: cuboid.clone(),
            rot,
            y: -low - 0.04,
            depth: 0.04,
        });
    }
    let ball: Shape = Ball::new(0.5).unwrap().into();
    for &d in &[0.01f32, 0.07, 0.2, -0.02] {
        out.push(Case {
            shape: ball.clone(),
            rot: Quat::IDENTITY,
            y: 0.5 - d,
            depth: d,
        });
    }
    // A capsule lying flat (axis along its local y turned to horizontal).
    let capsule: Shape = Capsule::new(Vec3::new(0.0, -0.7, 0.0), Vec3::new(0.0, 0.7, 0.0), 0.3)
        .unwrap()
        .into();
    for &yaw in &[0.0f32, 0.5, 1.1] {
        for &d in &[0.02f32, 0.1, -0.01] {
            out.push(Case {
                shape: capsule.clone(),
                rot: Quat::from_rotation_y(yaw)
                    * Quat::from_rotation_z(core::f32::consts::FRAC_PI_2),
                y: 0.3 - d,
                depth: d,
            });
        }
    }
    out
}

/// Sweeps every case across the floor (a diagonal path in steps that do not
/// divide the cell size) with the floor placed by `floor_pose`; returns the
/// number of manifolds checked and the number whose normal or depth is wrong.
fn sweep(
    floor: &Shape,
    floor_pose: &Pose3,
    options: &ContactOptions,
    strict: bool,
) -> (usize, usize) {
    let up = floor_pose.transform_vector(Vec3::Y);
    let prediction = 0.05;
    let (mut checked, mut bad) = (0, 0);
    for case in cases() {
        for step in 0..45 {
            let s = step as f32 * 0.137 - 3.0;
            let local = Pose3::new(Vec3::new(s, case.y, 0.61 * s + 0.05), case.rot);
            let pose = floor_pose.mul(&local);
            let mut out = Vec::new();
            contacts_with_options(
                floor,
                floor_pose,
                &case.shape,
                &pose,
                prediction,
                options,
                &mut out,
            );
            assert!(!out.is_empty(), "no contact at step {step}");
            let mut deepest = f32::NEG_INFINITY;
            for m in &out {
                checked += 1;
                let normal_ok = (m.normal - up).length() <= 1e-4;
                let depth_ok = m.depth() <= case.depth + 1e-4;
                if !(normal_ok && depth_ok) {
                    bad += 1;
                    if strict {
                        panic!("step {step}, expected depth {}: {m:?}", case.depth);
                    }
                }
                deepest = deepest.max(m.depth());
                // Ids are unique within a manifold.
                for (i, p) in m.points().iter().enumerate() {
                    assert!(m.points()[..i].iter().all(|q| q.id != p.id), "{m:?}");
                }
            }
            if strict {
                assert!(
                    (deepest - case.depth).abs() <= 1e-4,
                    "step {step}: depth {deepest}, expected {}: {out:?}",
                    case.depth
                );
            }
        }
    }
    (checked, bad)
}

#[test]
fn sliding_over_a_flat_trimesh_gives_only_the_floor_normal() {
    let floor: Shape = floor_mesh().into();
    let (n, bad) = sweep(&floor, &Pose3::IDENTITY, &ContactOptions::default(), true);
    assert!(n > 1000 && bad == 0);
}

#[test]
fn sliding_over_a_moved_floor_gives_its_normal() {
    let floor: Shape = floor_mesh().into();
    let pose = Pose3::new(
        Vec3::new(3.0, -2.0, 7.5),
        Quat::from_axis_angle(Vec3::new(1.0, 0.4, -0.3).normalize(), 0.7),
    );
    let (_, bad) = sweep(&floor, &pose, &ContactOptions::default(), true);
    assert_eq!(bad, 0);
}

#[test]
fn sliding_over_a_flat_height_field_gives_only_the_floor_normal() {
    let floor = Shape::HeightField(Arc::new(floor_field()));
    let (_, bad) = sweep(&floor, &Pose3::IDENTITY, &ContactOptions::default(), true);
    assert_eq!(bad, 0);
}

/// The same sweep without the fix: the test above would fail.
#[test]
fn without_the_fix_the_sweep_finds_ghosts() {
    let floor: Shape = floor_mesh().into();
    let off = ContactOptions {
        fix_internal_edges: false,
    };
    let (n, bad) = sweep(&floor, &Pose3::IDENTITY, &off, false);
    eprintln!("without the fix: {bad} of {n} manifolds have a ghost normal or depth");
    assert!(bad > 0);
    let field = Shape::HeightField(Arc::new(floor_field()));
    let (n, bad) = sweep(&field, &Pose3::IDENTITY, &off, false);
    eprintln!("height field without the fix: {bad} of {n}");
    assert!(bad > 0);
}

/// A roof: two slopes of 30° meeting at a ridge along z at the origin, each
/// slope 4 triangles along the ridge.
fn roof() -> TriMesh {
    let s = (30.0f32).to_radians().tan();
    let mut v = Vec::new();
    let mut t = Vec::new();
    for k in 0..=2u32 {
        let z = k as f32 * 1.5 - 1.5;
        v.push(Vec3::new(-2.0, -2.0 * s, z)); // 3k
        v.push(Vec3::new(0.0, 0.0, z)); // 3k + 1
        v.push(Vec3::new(2.0, -2.0 * s, z)); // 3k + 2
    }
    for k in 0..2u32 {
        let (a, b) = (3 * k, 3 * (k + 1));
        // Left slope, normal up-left; right slope, normal up-right.
        t.push([a, b, b + 1]);
        t.push([a, b + 1, a + 1]);
        t.push([a + 1, b + 1, b + 2]);
        t.push([a + 1, b + 2, a + 2]);
    }
    TriMesh::new(v, t).unwrap()
}

#[test]
fn a_real_convex_ridge_keeps_its_edge_normal() {
    let mesh = roof();
    assert!(mesh.topology().is_consistently_oriented());
    let roof: Shape = mesh.into();
    let ball: Shape = Ball::new(0.5).unwrap().into();
    // Within the ridge's normal cone (±30° from vertical).
    for &(x, h) in &[(0.0f32, 0.45f32), (0.1, 0.4), (-0.15, 0.35), (0.2, 0.42)] {
        let pose = Pose3::from_translation(Vec3::new(x, h, 0.2));
        let m = contact(&roof, &Pose3::IDENTITY, &ball, &pose, 0.0).expect("touching");
        let c = Vec3::new(x, h, 0.0);
        let expected = c.normalize();
        assert!((m.normal - expected).length() < 1e-4, "{m:?} vs {expected}");
        assert!((m.depth() - (0.5 - c.length())).abs() < 1e-4, "{m:?}");
    }
    // A capsule lying across the ridge touches it along +y.
    let cap: Shape = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.3)
        .unwrap()
        .into();
    let m = contact(
        &roof,
        &Pose3::IDENTITY,
        &cap,
        &Pose3::from_translation(Vec3::new(0.0, 0.25, 0.4)),
        0.0,
    )
    .expect("touching");
    assert!((m.normal - Vec3::Y).length() < 1e-4, "{m:?}");
    assert!((m.depth() - 0.05).abs() < 1e-4, "{m:?}");
    // A box resting across the ridge: its bottom face is supported by the
    // ridge, normal +y, depth closed form.
    let cube: Shape = Cuboid::new(Vec3::new(0.5, 0.2, 0.3)).unwrap().into();
    let m = contact(
        &roof,
        &Pose3::IDENTITY,
        &cube,
        &Pose3::from_translation(Vec3::new(0.05, 0.17, 0.1)),
        0.0,
    )
    .expect("touching");
    assert!((m.normal - Vec3::Y).length() < 1e-4, "{m:?}");
    assert!((m.depth() - 0.03).abs() < 1e-4, "{m:?}");
}

#[test]
fn a_concave_groove_gives_face_normals() {
    // The roof upside down is a V-groove: a ball sitting in it touches both
    // slopes with their face normals, never the groove's edge.
    let mut mesh = roof();
    let v: Vec<Vec3> = mesh
        .vertices()
        .iter()
        .map(|p| Vec3::new(p.x, -p.y, p.z))
        .collect();
    let t: Vec<[u32; 3]> = mesh.indices().iter().map(|t| [t[0], t[2], t[1]]).collect();
    mesh = TriMesh::new(v, t).unwrap();
    let groove: Shape = mesh.into();
    let ball: Shape = Ball::new(0.5).unwrap().into();
    // The ball's centre at height h above the groove line: distance to each
    // slope (30°) is h·cos 30°.
    let h = 0.55f32;
    let mut out = Vec::new();
    contacts(
        &groove,
        &Pose3::IDENTITY,
        &ball,
        &Pose3::from_translation(Vec3::new(0.0, h, 0.0)),
        0.0,
        &mut out,
    );
    assert_eq!(out.len(), 2, "{out:?}");
    let s = 30.0f32.to_radians();
    for m in &out {
        assert!((m.normal.y - s.cos()).abs() < 1e-4, "{m:?}");
        assert!((m.normal.x.abs() - s.sin()).abs() < 1e-4, "{m:?}");
        assert!((m.depth() - (0.5 - h * s.cos())).abs() < 1e-4, "{m:?}");
    }
}

#[test]
fn every_convex_kind_rests_on_the_floor_with_the_floor_normal() {
    let floor: Shape = floor_mesh().into();
    let hull = ConvexPolyhedron::from_points(&[
        Vec3::new(-0.5, -0.3, -0.4),
        Vec3::new(0.6, -0.3, -0.2),
        Vec3::new(0.1, -0.3, 0.5),
        Vec3::new(0.0, 0.6, 0.0),
    ])
    .unwrap();
    // (shape, height of its lowest point above its origin when upright).
    // Flat shapes (segments, triangles) are left out: with no thickness they
    // touch a surface only by crossing it.
    let kinds: Vec<(Shape, f32)> = vec![
        (Cylinder::new(0.4, 0.7).unwrap().into(), 0.4),
        (Cone::new(0.5, 0.6).unwrap().into(), 0.5),
        (hull.into(), 0.3),
    ];
    for (s, low) in &kinds {
        for step in 0..30 {
            let x = step as f32 * 0.173 - 2.5;
            let d = 0.03;
            let pose = Pose3::new(
                Vec3::new(x, low - d, 0.37 * x),
                Quat::from_rotation_y(0.2 * step as f32),
            );
            let mut out = Vec::new();
            contacts(&floor, &Pose3::IDENTITY, s, &pose, 0.0, &mut out);
            assert!(!out.is_empty(), "{s:?} at {x}");
            for m in &out {
                assert!((m.normal - Vec3::Y).length() < 1e-4, "{s:?} at {x}: {m:?}");
            }
            let deepest = out
                .iter()
                .map(|m| m.depth())
                .fold(f32::NEG_INFINITY, f32::max);
            assert!((deepest - d).abs() < 1e-4, "{s:?} at {x}: {out:?}");
        }
    }
}
