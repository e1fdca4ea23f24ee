//! HeightField: construction, and ray casts and point projections against the
//! same surface built as a TriMesh.

use crate::mesh_common;

use mesh_common::Rng;
use peng::math::{Pose3, Quat, Vec2, Vec3};
use peng::mesh::{HeightField, TriMesh};
use peng::query::types::Ray3;
use peng::GeometryError;

/// The field's surface as a mesh, built here from the documented layout.
fn as_mesh(rows: usize, cols: usize, h: &[f32], cell: Vec2) -> TriMesh {
    let x0 = -((cols - 1) as f32) * cell.x * 0.5;
    let z0 = -((rows - 1) as f32) * cell.y * 0.5;
    let mut v = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            v.push(Vec3::new(
                x0 + c as f32 * cell.x,
                h[r * cols + c],
                z0 + r as f32 * cell.y,
            ));
        }
    }
    let id = |r: usize, c: usize| (r * cols + c) as u32;
    let mut t = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    TriMesh::new(v, t).unwrap()
}

fn field(rng: &mut Rng, rows: usize, cols: usize, cell: Vec2, amp: f32) -> (HeightField, TriMesh) {
    let h: Vec<f32> = (0..rows * cols)
        .map(|i| {
            let (r, c) = ((i / cols) as f32, (i % cols) as f32);
            amp * ((r * 0.3).sin() + (c * 0.2).cos()) + rng.range(-0.3, 0.3) * amp
        })
        .collect();
    let m = as_mesh(rows, cols, &h, cell);
    (HeightField::new(rows, cols, h, cell).unwrap(), m)
}

#[test]
fn construction_is_validated() {
    let c = Vec2::ONE;
    assert!(matches!(
        HeightField::new(1, 3, vec![0.0; 3], c),
        Err(GeometryError::TooFew { .. })
    ));
    assert!(matches!(
        HeightField::new(2, 2, vec![0.0; 3], c),
        Err(GeometryError::Degenerate { .. })
    ));
    assert!(matches!(
        HeightField::new(2, 2, vec![0.0, 0.0, f32::NAN, 0.0], c),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        HeightField::new(2, 2, vec![0.0; 4], Vec2::new(1.0, 0.0)),
        Err(GeometryError::Degenerate { .. })
    ));
    let hf = HeightField::new(
        2,
        3,
        vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
        Vec2::new(2.0, 1.0),
    )
    .unwrap();
    assert_eq!(hf.num_triangles(), 4);
    assert_eq!(hf.vertex(0, 0), Vec3::new(-2.0, 0.0, -0.5));
    assert_eq!(hf.vertex(1, 2), Vec3::new(2.0, 5.0, 0.5));
    // The library's own mesh agrees with the documented layout.
    let m = hf.to_trimesh();
    for i in 0..4 {
        assert_eq!(m.triangle(i), hf.triangle(i as usize));
    }
    let mine = as_mesh(2, 3, hf.heights(), hf.cell_size());
    for i in 0..4 {
        assert_eq!(mine.triangle(i), hf.triangle(i as usize));
    }
}

fn compare_rays(hf: &HeightField, m: &TriMesh, rng: &mut Rng, n: usize) {
    let b = hf.local_aabb();
    let ext = b.half_extents().max_element();
    let mut hits = 0;
    for k in 0..n {
        let (o, d) = match k % 5 {
            // From above, downward-ish.
            0 | 1 => (
                Vec3::new(
                    rng.range(b.min.x, b.max.x),
                    b.max.y + rng.range(0.1, 5.0),
                    rng.range(b.min.z, b.max.z),
                ),
                (rng.unit3() - Vec3::Y * 1.5).normalize(),
            ),
            // Vertical.
            2 => (
                Vec3::new(
                    rng.range(b.min.x, b.max.x),
                    b.max.y + 1.0,
                    rng.range(b.min.z, b.max.z),
                ),
                -Vec3::Y,
            ),
            // Grazing, from the side, starting outside the box.
            3 => (
                Vec3::new(
                    b.min.x - 1.0,
                    rng.range(b.min.y, b.max.y),
                    rng.range(b.min.z, b.max.z),
                ),
                (Vec3::X + rng.v3(-0.3, 0.3)).normalize(),
            ),
            // Anywhere, any direction.
            _ => (rng.v3(-ext, ext), rng.unit3()),
        };
        let max_t = if k % 7 == 0 { 3.0 } else { f32::INFINITY };
        let got = hf.cast_local_ray(o, d, max_t);
        let want = m.cast_local_ray(o, d, max_t);
        match (got, want) {
            (Some(g), Some(w)) => {
                hits += 1;
                assert!(
                    (g.hit.toi - w.hit.toi).abs() <= 1e-4 * (1.0 + w.hit.toi),
                    "ray {k}: {g:?} vs {w:?}"
                );
                // Same triangle unless the hit is on an edge both share
                // (then the distance to the other triangle is ~0).
                if g.triangle != w.triangle {
                    let t = hf.triangle(g.triangle as usize);
                    let mm = TriMesh::new(t.to_vec(), vec![[0, 1, 2]]).unwrap();
                    assert!(mm.project_local_point(w.hit.point).distance < 1e-4);
                }
                assert!((g.hit.normal - w.hit.normal).length() < 1e-3 || g.triangle != w.triangle);
            }
            (None, None) => {}
            (g, w) => {
                // Only a hit at the range limit may differ.
                let t = g.map(|h| h.hit.toi).or(w.map(|h| h.hit.toi)).unwrap();
                assert!((t - max_t).abs() < 1e-3, "ray {k}: {g:?} vs {w:?}");
            }
        }
    }
    assert!(hits > n / 3, "{hits} hits of {n}");
}

fn compare_points(hf: &HeightField, m: &TriMesh, rng: &mut Rng, n: usize) {
    let b = hf.local_aabb().loosened(3.0);
    for _ in 0..n {
        let p = Vec3::new(
            rng.range(b.min.x, b.max.x),
            rng.range(b.min.y, b.max.y),
            rng.range(b.min.z, b.max.z),
        );
        let got = hf.project_local_point(p);
        let want = m.project_local_point(p);
        assert!(
            (got.distance - want.distance).abs() <= 1e-5 * (1.0 + want.distance),
            "{got:?} vs {want:?}"
        );
        assert!(((got.point - p).length() - got.distance).abs() < 1e-4);
        // On the reported triangle.
        let t = hf.triangle(got.triangle as usize);
        let one = TriMesh::new(t.to_vec(), vec![[0, 1, 2]]).unwrap();
        assert!(one.project_local_point(got.point).distance < 1e-4);
    }
}

#[test]
fn rays_and_points_match_the_mesh() {
    let mut rng = Rng(41);
    let (hf, m) = field(&mut rng, 40, 55, Vec2::new(0.5, 0.7), 1.0);
    compare_rays(&hf, &m, &mut rng, 1500);
    compare_points(&hf, &m, &mut rng, 400);
    // Non-square cells, steep terrain, odd sizes (pyramid levels not powers of 2).
    let (hf, m) = field(&mut rng, 23, 9, Vec2::new(2.0, 0.3), 4.0);
    compare_rays(&hf, &m, &mut rng, 800);
    compare_points(&hf, &m, &mut rng, 300);
    // Flat field: every downward ray from above hits at the plane.
    let hf = HeightField::new(10, 10, vec![1.0; 100], Vec2::ONE).unwrap();
    for _ in 0..200 {
        let o = Vec3::new(rng.range(-4.4, 4.4), 3.0, rng.range(-4.4, 4.4));
        let d = (rng.unit3() * 0.3 - Vec3::Y).normalize();
        if let Some(h) = hf.cast_local_ray(o, d, f32::INFINITY) {
            assert!((h.hit.point.y - 1.0).abs() < 1e-5 && (h.hit.normal - Vec3::Y).length() < 1e-6);
        } else {
            let p = o + d * (2.0 / -d.y);
            assert!(p.x.abs() > 4.5 - 1e-3 || p.z.abs() > 4.5 - 1e-3, "{p}");
        }
    }
    // Rays exactly along the grid lines and through vertices (the walk's tie
    // cases) do not slip through the flat field.
    for i in 0..9 {
        let x = -4.5 + i as f32;
        let o = Vec3::new(x, 2.0, x);
        assert!(hf
            .cast_local_ray(o, Vec3::new(0.3, -1.0, 0.3), f32::INFINITY)
            .is_some());
        assert!(hf
            .cast_local_ray(Vec3::new(x, 2.0, -4.5), -Vec3::Y, f32::INFINITY)
            .is_some());
    }
}

#[test]
fn posed_queries_far_from_the_origin() {
    let mut rng = Rng(42);
    let (hf, _) = field(&mut rng, 20, 20, Vec2::ONE, 1.0);
    let pose = Pose3::new(Vec3::new(1.0e4, 50.0, -3.0e3), Quat::from_rotation_y(0.7));
    for _ in 0..200 {
        let o = pose.transform_point(rng.v3(-9.0, 9.0) + Vec3::Y * 4.0);
        let d = pose.transform_vector((rng.unit3() - Vec3::Y).normalize());
        let ray = Ray3::new(o, d).unwrap();
        let w = hf.cast_ray(&pose, &ray, f32::INFINITY);
        let l = hf.cast_local_ray(
            pose.inverse_transform_point(o),
            pose.inverse_transform_vector(d),
            f32::INFINITY,
        );
        assert_eq!(w.map(|h| h.triangle), l.map(|h| h.triangle));
        if let (Some(w), Some(l)) = (w, l) {
            assert!((w.hit.point - pose.transform_point(l.hit.point)).length() < 1e-2);
        }
        let p = pose.transform_point(rng.v3(-12.0, 12.0));
        let w = hf.project_point(&pose, p);
        let l = hf.project_local_point(pose.inverse_transform_point(p));
        assert!((w.point - pose.transform_point(l.point)).length() < 1e-2);
    }
}

#[test]
fn box_queries_match_brute_force() {
    let mut rng = Rng(43);
    let (hf, _) = field(&mut rng, 25, 31, Vec2::new(0.5, 0.8), 1.5);
    let b = hf.local_aabb().loosened(1.0);
    let m = hf.to_trimesh();
    for k in 0..300 {
        let c = Vec3::new(
            rng.range(b.min.x, b.max.x),
            rng.range(b.min.y, b.max.y),
            rng.range(b.min.z, b.max.z),
        );
        let mut q = peng::bound::Aabb3::from_center_half_extents(c, rng.v3(0.0, 2.0));
        if k % 10 == 0 {
            // Exactly on grid lines: touching counts.
            q.min.x = hf.vertex(0, 3).x;
            q.max.x = q.min.x;
        }
        let mut got = Vec::new();
        hf.for_each_triangle_in_aabb(&q, |i, t| {
            assert_eq!(*t, hf.triangle(i as usize));
            got.push(i);
        });
        got.sort_unstable();
        let want: Vec<u32> = (0..hf.num_triangles())
            .filter(|&i| peng::bound::Aabb3::from_points(hf.triangle(i)).overlaps(&q))
            .map(|i| i as u32)
            .collect();
        assert_eq!(got, want, "query {k}");
        // The mesh built from the field agrees.
        let mut mesh_got = Vec::new();
        m.for_each_triangle_in_aabb(&q, |i, _| mesh_got.push(i));
        mesh_got.sort_unstable();
        assert_eq!(mesh_got, want);
    }
}
