//! TriMesh: construction, ray casts, point projection, inside test, topology,
//! against brute force over all triangles.

use crate::mesh_common;

use glam::DVec3;
use mesh_common::{icosphere, soup, torus, torus_signed, Rng};
use peng::math::{Pose3, Quat, Vec3};
use peng::mesh::{TriMesh, TriangleFeature};
use peng::query::types::Ray3;
use peng::GeometryError;

/// Möller–Trumbore in f64, two-sided: `(t, u, v)`.
pub fn brute_ray_tri(t: [Vec3; 3], o: Vec3, d: Vec3) -> Option<(f64, f64, f64)> {
    let [a, b, c] = t.map(|v| v.as_dvec3());
    let (o, d) = (o.as_dvec3(), d.as_dvec3());
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-300 {
        return None;
    }
    let s = o - a;
    let u = s.dot(p) / det;
    let q = s.cross(e1);
    let v = d.dot(q) / det;
    let tt = e2.dot(q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && tt >= 0.0).then_some((tt, u, v))
}

/// Closest point on a triangle, independent of the library: barycentric
/// minimiser when inside, else the best of the three edges.
pub fn brute_point_tri(t: [Vec3; 3], p: Vec3) -> (DVec3, f64) {
    let [a, b, c] = t.map(|v| v.as_dvec3());
    let p = p.as_dvec3();
    let n = (b - a).cross(c - a);
    let mut best = (a, f64::INFINITY);
    if n.length_squared() > 0.0 {
        let q = p - n * (n.dot(p - a) / n.length_squared());
        // Barycentrics by areas.
        let area = n.length_squared();
        let wa = (c - b).cross(q - b).dot(n) / area;
        let wb = (a - c).cross(q - c).dot(n) / area;
        let wc = 1.0 - wa - wb;
        if wa >= 0.0 && wb >= 0.0 && wc >= 0.0 {
            best = (q, q.distance_squared(p));
        }
    }
    for (u, v) in [(a, b), (b, c), (c, a)] {
        let e = v - u;
        let s = if e.length_squared() > 0.0 {
            ((p - u).dot(e) / e.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = u + e * s;
        if q.distance_squared(p) < best.1 {
            best = (q, q.distance_squared(p));
        }
    }
    best
}

fn mesh(v: Vec<Vec3>, t: Vec<[u32; 3]>) -> TriMesh {
    TriMesh::new(v, t).expect("valid mesh")
}

#[test]
fn construction_is_validated() {
    assert!(matches!(
        TriMesh::new(vec![Vec3::ZERO], vec![]),
        Err(GeometryError::Degenerate { .. })
    ));
    assert!(matches!(
        TriMesh::new(vec![Vec3::ZERO, Vec3::X], vec![[0, 1, 2]]),
        Err(GeometryError::IndexOutOfRange {
            index: 2,
            len: 2,
            ..
        })
    ));
    assert!(matches!(
        TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::NAN], vec![[0, 1, 2]]),
        Err(GeometryError::NonFinite { .. })
    ));
    // Degenerate triangles are fine and never give NaN.
    let m = mesh(
        vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::Y],
        vec![[0, 1, 2], [0, 0, 0], [0, 1, 3]],
    );
    for k in 0..200 {
        let mut rng = Rng(k);
        let p = rng.v3(-3.0, 3.0);
        let pr = m.project_local_point(p);
        assert!(pr.point.is_finite() && pr.distance.is_finite());
        let d = rng.unit3();
        if let Some(h) = m.cast_local_ray(p, d, f32::INFINITY) {
            assert!(h.hit.normal.is_finite() && h.hit.point.is_finite());
            assert_eq!(h.triangle, 2, "only the proper triangle can be hit");
        }
    }
    // A point triangle is found by projection.
    let pr = m.project_local_point(Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(pr.distance, 1.0);
}

fn check_rays(m: &TriMesh, rng: &mut Rng, n: usize, spread: f32) {
    let tris: Vec<[Vec3; 3]> = (0..m.num_triangles() as u32)
        .map(|i| m.triangle(i))
        .collect();
    for k in 0..n {
        let o = rng.v3(-spread, spread);
        let d = rng.unit3() * rng.range(0.5, 2.0);
        let max_t = if k % 4 == 0 { 2.0 } else { f32::INFINITY };
        let brute = tris
            .iter()
            .enumerate()
            .filter_map(|(i, t)| brute_ray_tri(*t, o, d).map(|h| (h, i)))
            .filter(|(h, _)| h.0 <= max_t as f64)
            .min_by(|x, y| x.0 .0.total_cmp(&y.0 .0));
        let got = m.cast_local_ray(o, d, max_t);
        assert_eq!(m.intersects_local_ray(o, d, max_t), got.is_some());
        match (got, brute) {
            (Some(g), Some((b, _))) => {
                let tol = 1e-5 * (1.0 + b.0) * (1.0 + spread as f64);
                assert!(
                    (g.hit.toi as f64 - b.0).abs() <= tol,
                    "toi {} vs {}",
                    g.hit.toi,
                    b.0
                );
                // The reported triangle is hit at that parameter.
                let own = brute_ray_tri(tris[g.triangle as usize], o, d);
                if let Some(own) = own {
                    assert!((own.0 - b.0).abs() <= tol);
                }
                let n = g.hit.normal;
                assert!((n.length() - 1.0).abs() < 1e-5 && n.dot(d) <= 0.0);
                assert!((g.hit.point - (o + d * g.hit.toi)).length() < 1e-5);
            }
            (None, None) => {}
            (g, b) => {
                // Only a hit on a triangle's boundary may be judged differently.
                let (u, v) = match b {
                    Some((h, _)) => (h.1, h.2),
                    None => {
                        let g = g.unwrap();
                        let t = tris[g.triangle as usize];
                        let r = brute_ray_tri(t, o, d);
                        assert!(r.is_none() || (g.hit.toi - max_t).abs() < 1e-4, "{g:?}");
                        continue;
                    }
                };
                let edge = u.min(v).min(1.0 - u - v);
                let near_limit = b.is_some_and(|(h, _)| (h.0 - max_t as f64).abs() < 1e-4);
                assert!(edge.abs() < 1e-5 || near_limit, "ray {k}: {g:?} vs {b:?}");
            }
        }
    }
}

fn check_points(m: &TriMesh, rng: &mut Rng, n: usize, spread: f32) {
    let tris: Vec<[Vec3; 3]> = (0..m.num_triangles() as u32)
        .map(|i| m.triangle(i))
        .collect();
    for _ in 0..n {
        let p = rng.v3(-spread, spread);
        let brute = tris
            .iter()
            .map(|t| brute_point_tri(*t, p).1)
            .fold(f64::INFINITY, f64::min)
            .sqrt();
        let got = m.project_local_point(p);
        let tol = 1e-5 * (1.0 + brute) + 1e-6 * spread as f64;
        assert!(
            (got.distance as f64 - brute).abs() <= tol,
            "{} vs {brute}",
            got.distance
        );
        assert!(((got.point - p).length() - got.distance).abs() <= 1e-4 * (1.0 + got.distance));
        // The point is on the reported triangle, at the reported feature.
        let t = tris[got.triangle as usize];
        let (q, _) = brute_point_tri(t, got.point);
        assert!((q - got.point.as_dvec3()).length() <= 1e-5 * (1.0 + spread as f64));
        match got.feature {
            TriangleFeature::Vertex(i) => assert_eq!(got.point, t[i as usize]),
            TriangleFeature::Edge(i) => {
                let (a, b) = (t[i as usize], t[(i as usize + 1) % 3]);
                let (q, d2) = brute_point_tri([a, b, b], got.point);
                assert!(d2.sqrt() <= 1e-5 * (1.0 + spread as f64), "{q}");
            }
            TriangleFeature::Face => {}
        }
    }
}

#[test]
fn rays_and_points_on_a_random_soup() {
    let mut rng = Rng(11);
    let (v, t) = soup(&mut rng, 2000, 5.0, 0.6);
    let m = mesh(v, t);
    check_rays(&m, &mut rng, 400, 7.0);
    check_points(&m, &mut rng, 300, 7.0);
}

#[test]
fn rays_and_points_on_closed_meshes() {
    let mut rng = Rng(12);
    let (v, t) = icosphere(2.0, 3);
    let m = mesh(v, t);
    check_rays(&m, &mut rng, 300, 3.0);
    check_points(&m, &mut rng, 200, 3.0);
    let (v, t) = torus(2.0, 0.7, 48, 24);
    let m = mesh(v, t);
    check_rays(&m, &mut rng, 300, 3.5);
    check_points(&m, &mut rng, 200, 3.5);
}

#[test]
fn far_from_the_origin() {
    let mut rng = Rng(13);
    let off = Vec3::new(1.0e4, -2.0e4, 5.0e3);
    let (v, t) = soup(&mut rng, 500, 3.0, 0.5);
    let m = mesh(v.into_iter().map(|x| x + off).collect(), t);
    let tris: Vec<[Vec3; 3]> = (0..m.num_triangles() as u32)
        .map(|i| m.triangle(i))
        .collect();
    let mut hits = 0;
    for _ in 0..300 {
        let o = off + rng.v3(-4.0, 4.0);
        let d = rng.unit3();
        let brute = tris
            .iter()
            .filter_map(|t| brute_ray_tri(*t, o, d))
            .map(|h| h.0)
            .fold(f64::INFINITY, f64::min);
        if let Some(g) = m.cast_local_ray(o, d, f32::INFINITY) {
            hits += 1;
            // Coordinates near 2e4 carry ulps of 2e-3.
            assert!(
                (g.hit.toi as f64 - brute).abs() < 1e-2,
                "{} vs {brute}",
                g.hit.toi
            );
        }
        let p = off + rng.v3(-4.0, 4.0);
        let brute = tris
            .iter()
            .map(|t| brute_point_tri(*t, p).1)
            .fold(f64::INFINITY, f64::min)
            .sqrt();
        assert!((m.project_local_point(p).distance as f64 - brute).abs() < 1e-2);
    }
    assert!(hits > 50);
}

#[test]
fn posed_queries_match_local_ones() {
    let mut rng = Rng(14);
    let (v, t) = torus(2.0, 0.7, 32, 16);
    let m = mesh(v, t);
    for _ in 0..100 {
        let pose = Pose3::new(rng.v3(-5.0, 5.0), Quat::from_scaled_axis(rng.v3(-2.0, 2.0)));
        let ray = Ray3::new(pose.translation + rng.v3(-4.0, 4.0), rng.unit3()).unwrap();
        let world = m.cast_ray(&pose, &ray, f32::INFINITY);
        let local = m.cast_local_ray(
            pose.inverse_transform_point(ray.origin),
            pose.inverse_transform_vector(ray.dir),
            f32::INFINITY,
        );
        assert_eq!(world.map(|h| h.triangle), local.map(|h| h.triangle));
        if let (Some(w), Some(l)) = (world, local) {
            assert!((w.hit.point - pose.transform_point(l.hit.point)).length() < 1e-4);
            assert!((w.hit.normal - pose.transform_vector(l.hit.normal)).length() < 1e-5);
        }
        let p = pose.translation + rng.v3(-4.0, 4.0);
        let w = m.project_point(&pose, p);
        let l = m.project_local_point(pose.inverse_transform_point(p));
        assert_eq!(w.triangle, l.triangle);
        assert!((w.point - pose.transform_point(l.point)).length() < 1e-4);
        assert_eq!(
            m.contains_point(&pose, p),
            m.contains_local_point(pose.inverse_transform_point(p))
        );
    }
}

#[test]
fn inside_test_on_sphere_and_torus() {
    let mut rng = Rng(15);
    // Icosphere: convex, so "inside" is exactly "behind every face plane".
    let (v, t) = icosphere(1.5, 3);
    let m = mesh(v, t);
    assert!(m.topology().is_closed() && m.topology().is_consistently_oriented());
    let planes: Vec<(Vec3, f32)> = (0..m.num_triangles() as u32)
        .map(|i| {
            let [a, b, c] = m.triangle(i);
            let n = (b - a).cross(c - a).normalize();
            (n, n.dot(a))
        })
        .collect();
    let mut inside = 0;
    for _ in 0..2000 {
        let p = rng.v3(-2.0, 2.0);
        let sd = planes
            .iter()
            .map(|&(n, d)| n.dot(p) - d)
            .fold(f32::NEG_INFINITY, f32::max);
        if sd.abs() < 1e-4 || m.project_local_point(p).distance < 1e-4 {
            continue;
        }
        assert_eq!(m.contains_local_point(p), sd < 0.0, "{p}");
        inside += (sd < 0.0) as u32;
        // The winding number agrees (1 inside, 0 outside).
        let w = m.winding_number(p);
        assert!((w - (sd < 0.0) as u8 as f64).abs() < 1e-6, "{w}");
    }
    assert!(inside > 300);
    // Torus: analytic inside of the smooth torus, away from the band where the
    // polyhedron and the smooth surface differ (sagitta of the coarse facets).
    let (big_r, r) = (2.0, 0.7);
    let (v, t) = torus(big_r, r, 64, 32);
    let m = mesh(v, t);
    assert!(m.topology().is_closed());
    let band = 0.03;
    let mut checked = 0;
    for _ in 0..2000 {
        let p = rng.v3(-3.0, 3.0);
        let s = torus_signed(big_r, r, p);
        let got = m.contains_local_point(p);
        if s.abs() > band {
            assert_eq!(got, s < 0.0, "{p}");
            checked += 1;
        } else if m.project_local_point(p).distance > 1e-4 {
            // Near the surface: agree with the winding number of the mesh.
            assert_eq!(got, m.winding_number(p) > 0.5, "{p}");
        }
    }
    assert!(checked > 1500);
}

#[test]
fn inside_test_survives_rays_through_vertices_and_edges() {
    // An axis-aligned cube made of 12 triangles; query points on the axes and
    // diagonals, where structured rays would meet edges and vertices exactly.
    let v: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) * 2.0 - 1.0
        })
        .collect();
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    let m = mesh(v, t);
    assert!(m.topology().is_closed() && m.topology().is_consistently_oriented());
    for k in -8..=8 {
        let x = k as f32 * 0.25;
        for p in [
            Vec3::new(x, 0.0, 0.0),
            Vec3::splat(x),
            Vec3::new(x, x, 0.0),
            Vec3::new(0.0, x, 0.5),
        ] {
            let inside = p.abs().max_element() <= 1.0;
            assert_eq!(m.contains_local_point(p), inside, "{p}");
        }
    }
    assert!(!m.contains_local_point(Vec3::NAN));
}

#[test]
fn topology_of_closed_and_open_meshes() {
    let (v, t) = icosphere(1.0, 2);
    let m = mesh(v, t.clone());
    let topo = m.topology();
    assert!(topo.is_closed() && topo.is_consistently_oriented());
    for (i, tri) in t.iter().enumerate() {
        for e in 0..3 {
            let n = topo.adjacent(i as u32, e).expect("closed");
            // Symmetric, and the neighbour shares the edge's two vertices.
            let back = (0..3).find(|&f| topo.adjacent(n, f) == Some(i as u32));
            assert!(back.is_some());
            let nt = t[n as usize];
            assert!(nt.contains(&tri[e]) && nt.contains(&tri[(e + 1) % 3]));
        }
    }
    // A 3 x 3 grid of quads: 2 * 9 triangles, 12 boundary edges.
    let v: Vec<Vec3> = (0..16)
        .map(|i| Vec3::new((i % 4) as f32, 0.0, (i / 4) as f32))
        .collect();
    let mut t = Vec::new();
    for r in 0..3 {
        for c in 0..3 {
            let a = r * 4 + c;
            t.push([a, a + 4, a + 5]);
            t.push([a, a + 5, a + 1]);
        }
    }
    let m = mesh(v, t);
    let topo = m.topology();
    assert!(!topo.is_closed());
    assert_eq!(topo.boundary_edges(), 12);
    assert_eq!(topo.non_manifold_edges(), 0);
    assert!(topo.is_consistently_oriented());
    // The diagonal of the first quad joins its two triangles.
    assert_eq!(topo.adjacent(0, 2), Some(1));
    // Flipping one triangle breaks the orientation.
    let mut t2: Vec<[u32; 3]> = m.indices().to_vec();
    t2[4].swap(0, 1);
    let m2 = mesh(m.vertices().to_vec(), t2);
    assert!(!m2.topology().is_consistently_oriented());
}

#[test]
fn rays_from_inside_a_closed_mesh_never_leak() {
    // Watertightness: aimed exactly at vertices and edge midpoints, where a
    // non-watertight test can slip between the triangles sharing them.
    let mut rng = Rng(16);
    let (v, t) = icosphere(1.0, 3);
    let m = mesh(v.clone(), t.clone());
    for k in 0..2000 {
        let o = rng.unit3() * rng.range(0.0, 0.8);
        let target = if k % 2 == 0 {
            v[rng.below(v.len())]
        } else {
            let tri = t[rng.below(t.len())];
            (v[tri[0] as usize] + v[tri[1] as usize]) * 0.5
        };
        let d = target - o;
        let h = m.cast_local_ray(o, d, f32::INFINITY);
        assert!(h.is_some(), "ray {k} leaked");
        assert!((h.unwrap().hit.toi - 1.0).abs() < 1e-4);
        // And the inside test agrees that `o` is inside.
        assert!(m.contains_local_point(o));
    }
}

#[test]
fn bad_query_inputs_do_not_panic() {
    use peng::math::Vec2;
    use peng::mesh::{HeightField, Polyline};
    let (v, t) = icosphere(1.0, 1);
    let m = mesh(v, t);
    let pl = Polyline::new(vec![Vec2::ZERO, Vec2::X, Vec2::Y], None).unwrap();
    let hf = HeightField::new(3, 3, vec![0.0; 9], Vec2::ONE).unwrap();
    let bad = [
        Vec3::NAN,
        Vec3::INFINITY,
        Vec3::ZERO,
        Vec3::new(0.0, f32::NAN, 1.0),
    ];
    for &o in &bad {
        for &d in &bad {
            for max_t in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
                let _ = m.cast_local_ray(o, d, max_t);
                let _ = m.intersects_local_ray(o, d, max_t);
                let _ = hf.cast_local_ray(o, d, max_t);
                let _ = pl.cast_local_ray(o.truncate(), d.truncate(), max_t);
            }
        }
        let _ = m.project_local_point(o);
        let _ = m.contains_local_point(o);
        let _ = hf.project_local_point(o);
        let _ = pl.project_local_point(o.truncate());
    }
    // A zero direction never hits.
    assert!(m.cast_local_ray(Vec3::ZERO, Vec3::ZERO, 10.0).is_none());
}

#[test]
fn rays_from_far_away_still_hit_vertices_and_edges() {
    // Origins 1e4 away, aimed at vertices, edge midpoints and interior points
    // of a closed unit sphere: the slab test's rounding (relative to the
    // origin) must not cull the boxes those points lie on, and the watertight
    // triangle test must not let the ray through (f32 at 1e4 has ulps of 1e-3,
    // so an isolated triangle's edge could legitimately be missed; a closed
    // mesh's can not).
    let mut rng = Rng(17);
    let (v, t) = icosphere(1.0, 3);
    let m = mesh(v, t);
    for k in 0..3000 {
        let tri = m.triangle(rng.below(m.num_triangles()) as u32);
        let target = match k % 3 {
            0 => tri[rng.below(3)],
            1 => (tri[0] + tri[1]) * 0.5,
            _ => {
                let (a, b) = (rng.f(), rng.f());
                let (a, b) = if a + b > 1.0 {
                    (1.0 - a, 1.0 - b)
                } else {
                    (a, b)
                };
                tri[0] + (tri[1] - tri[0]) * a + (tri[2] - tri[0]) * b
            }
        };
        let o = rng.unit3() * 1.0e4;
        let d = target - o;
        // Near the silhouette the ray dips into the sphere by only about
        // cos²/2, and the f32 rounding of the vertices relative to an origin at
        // 1e4 (5e-4) may legitimately carry it past: keep rays that dip 2e-2.
        if target.normalize().dot(d.normalize()).abs() < 0.2 {
            continue;
        }
        let h = m.cast_local_ray(o, d, f32::INFINITY);
        // Something is hit no later than the target, up to the rounding of
        // `d` (1e-3 at 1e4, more along the ray at grazing angles); the far
        // side of the sphere would be at `1 + 2e-4`.
        assert!(h.is_some_and(|h| h.hit.toi <= 1.0 + 2e-5), "ray {k}: {h:?}");
        assert!(m.intersects_local_ray(o, d, 1.0 + 2e-5));
    }
}
