//! Mesh against mesh: intersecting triangle pairs and distance, against brute
//! force over all triangle pairs with independent reference tests.

use crate::mesh_common;

use glam::DVec3;
use mesh_common::{icosphere, random_pose, soup, torus, Rng};
use peng::math::{Pose3, Quat, Vec3};
use peng::mesh::{TriMesh, TrianglePair};

/// Separating-axis test of two closed triangles in f64 (reference): the
/// candidate axes are both normals, the nine edge–edge cross products and the
/// in-plane edge normals (for coplanar pairs). Valid for non-degenerate
/// triangles.
fn sat_intersect(a: [Vec3; 3], b: [Vec3; 3]) -> bool {
    let a = a.map(|v| v.as_dvec3());
    let b = b.map(|v| v.as_dvec3());
    let ea = [a[1] - a[0], a[2] - a[1], a[0] - a[2]];
    let eb = [b[1] - b[0], b[2] - b[1], b[0] - b[2]];
    let (na, nb) = (ea[0].cross(ea[1]), eb[0].cross(eb[1]));
    let mut axes = vec![na, nb];
    for i in 0..3 {
        for e in &eb {
            axes.push(ea[i].cross(*e));
        }
        axes.push(na.cross(ea[i]));
        axes.push(nb.cross(eb[i]));
    }
    let scale = 1e-12
        * (ea
            .iter()
            .chain(&eb)
            .map(|e| e.length_squared())
            .fold(0.0, f64::max));
    for ax in axes {
        if ax.length_squared() <= scale * scale {
            continue;
        }
        let proj = |t: &[DVec3; 3]| {
            let p = t.map(|v| v.dot(ax));
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        };
        let (a0, a1) = proj(&a);
        let (b0, b1) = proj(&b);
        if a1 < b0 || b1 < a0 {
            return false;
        }
    }
    true
}

/// Reference triangle–triangle distance: 6 point–triangle and 9 segment–segment
/// distances (valid for disjoint triangles), with independent formulas.
fn ref_distance(a: [Vec3; 3], b: [Vec3; 3]) -> f64 {
    if sat_intersect(a, b) {
        return 0.0;
    }
    let a = a.map(|v| v.as_dvec3());
    let b = b.map(|v| v.as_dvec3());
    let seg_point = |u: DVec3, v: DVec3, p: DVec3| {
        let e = v - u;
        let s = ((p - u).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        (u + e * s).distance(p)
    };
    let point_tri = |t: &[DVec3; 3], p: DVec3| {
        let n = (t[1] - t[0]).cross(t[2] - t[0]);
        let q = p - n * (n.dot(p - t[0]) / n.length_squared());
        let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(q - t[i]).dot(n) >= 0.0);
        if inside {
            q.distance(p)
        } else {
            (0..3)
                .map(|i| seg_point(t[i], t[(i + 1) % 3], p))
                .fold(f64::INFINITY, f64::min)
        }
    };
    let seg_seg = |p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3| {
        // Interior critical point when it exists, else endpoint cases.
        let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
        let (a, b, c, e, f) = (d1.dot(d1), d1.dot(d2), d1.dot(r), d2.dot(d2), d2.dot(r));
        let den = a * e - b * b;
        let mut best = seg_point(p2, q2, p1)
            .min(seg_point(p2, q2, q1))
            .min(seg_point(p1, q1, p2))
            .min(seg_point(p1, q1, q2));
        if den > 1e-18 * a * e {
            let s = (b * f - c * e) / den;
            let t = (a * f - b * c) / den;
            if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
                best = best.min((p1 + d1 * s).distance(p2 + d2 * t));
            }
        }
        best
    };
    let mut d = f64::INFINITY;
    for &v in &a {
        d = d.min(point_tri(&b, v));
    }
    for &v in &b {
        d = d.min(point_tri(&a, v));
    }
    for i in 0..3 {
        for j in 0..3 {
            d = d.min(seg_seg(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
        }
    }
    d
}

fn tris(m: &TriMesh) -> Vec<[Vec3; 3]> {
    (0..m.num_triangles() as u32)
        .map(|i| m.triangle(i))
        .collect()
}

/// B's triangles in A's frame, the way the mesh query moves them.
fn moved(m: &TriMesh, pa: &Pose3, pb: &Pose3) -> Vec<[Vec3; 3]> {
    let rel = pa.inv_mul(pb);
    tris(m)
        .into_iter()
        .map(|t| t.map(|v| rel.transform_point(v)))
        .collect()
}

fn brute_pairs(a: &TriMesh, pa: &Pose3, b: &TriMesh, pb: &Pose3) -> Vec<TrianglePair> {
    let (ta, tb) = (tris(a), moved(b, pa, pb));
    let mut out = Vec::new();
    for (i, x) in ta.iter().enumerate() {
        for (j, y) in tb.iter().enumerate() {
            if sat_intersect(*x, *y) {
                out.push(TrianglePair {
                    a: i as u32,
                    b: j as u32,
                });
            }
        }
    }
    out
}

#[test]
fn intersecting_pairs_match_brute_force() {
    let mut rng = Rng(21);
    for round in 0..3 {
        let (v, t) = soup(&mut rng, 250, 2.0, 0.6);
        let a = TriMesh::new(v, t).unwrap();
        let (v, t) = soup(&mut rng, 250, 2.0, 0.6);
        let b = TriMesh::new(v, t).unwrap();
        let (pa, pb) = (random_pose(&mut rng, 1.0), random_pose(&mut rng, 1.0));
        let got = a.intersecting_pairs(&pa, &b, &pb);
        let brute = brute_pairs(&a, &pa, &b, &pb);
        assert!(
            brute.len() > 20,
            "round {round}: too few pairs to be a test"
        );
        assert_eq!(got, brute, "round {round}");
        assert!(a.intersects_mesh(&pa, &b, &pb));
    }
    // Closed meshes crossing: a sphere through a torus tube.
    let (v, t) = icosphere(0.8, 2);
    let s = TriMesh::new(v, t).unwrap();
    let (v, t) = torus(2.0, 0.5, 32, 16);
    let to = TriMesh::new(v, t).unwrap();
    let ps = Pose3::from_translation(Vec3::new(2.0, 0.3, 0.1));
    let got = s.intersecting_pairs(&ps, &to, &Pose3::IDENTITY);
    assert!(!got.is_empty());
    assert_eq!(got, brute_pairs(&s, &ps, &to, &Pose3::IDENTITY));
    // Sphere in the torus hole: no pair, and `intersects_mesh` says so.
    let ps = Pose3::from_translation(Vec3::new(0.0, 0.0, 0.0));
    assert!(s.intersecting_pairs(&ps, &to, &Pose3::IDENTITY).is_empty());
    assert!(!s.intersects_mesh(&ps, &to, &Pose3::IDENTITY));
}

#[test]
fn coplanar_and_touching_triangles() {
    // Two flat grids in the plane y = 0, overlapping: coplanar pairs.
    let grid = |off: f32| {
        let v: Vec<Vec3> = (0..16)
            .map(|i| Vec3::new((i % 4) as f32 + off, 0.0, (i / 4) as f32 + off))
            .collect();
        let mut t = Vec::new();
        for r in 0..3 {
            for c in 0..3 {
                let a = r * 4 + c;
                t.push([a, a + 4, a + 5]);
                t.push([a, a + 5, a + 1]);
            }
        }
        TriMesh::new(v, t).unwrap()
    };
    let (a, b) = (grid(0.0), grid(0.5));
    let id = Pose3::IDENTITY;
    let got = a.intersecting_pairs(&id, &b, &id);
    assert_eq!(got, brute_pairs(&a, &id, &b, &id));
    assert!(got.len() > 18);
    // Lifted by 1e-3: no pair, distance 1e-3.
    let up = Pose3::from_translation(Vec3::new(0.0, 1e-3, 0.0));
    assert!(a.intersecting_pairs(&id, &b, &up).is_empty());
    let d = a.distance_to_mesh(&id, &b, &up);
    assert!((d.distance - 1e-3).abs() < 1e-6, "{}", d.distance);
    // Shifted to touch edge to edge exactly (grid of side 3 moved by 3 in x).
    let side = Pose3::from_translation(Vec3::new(3.0, 0.0, 0.0));
    let got = a.intersecting_pairs(&id, &a, &side);
    assert_eq!(got, brute_pairs(&a, &id, &a, &side));
    assert!(!got.is_empty());
    assert_eq!(a.distance_to_mesh(&id, &a, &side).distance, 0.0);
}

#[test]
fn mesh_distance_matches_brute_force() {
    let mut rng = Rng(22);
    for round in 0..6 {
        let (v, t) = soup(&mut rng, 120, 1.5, 0.5);
        let a = TriMesh::new(v, t).unwrap();
        let (v, t) = if round % 2 == 0 {
            soup(&mut rng, 120, 1.5, 0.5)
        } else {
            torus(1.0, 0.3, 16, 8)
        };
        let b = TriMesh::new(v, t).unwrap();
        let pa = random_pose(&mut rng, 1.0);
        let dir = rng.unit3();
        let pb = Pose3::new(
            pa.translation + dir * rng.range(3.0, 6.0),
            Quat::from_scaled_axis(rng.v3(-3.0, 3.0)),
        );
        let (ta, tb) = (tris(&a), moved(&b, &pa, &pb));
        let brute = ta
            .iter()
            .flat_map(|x| tb.iter().map(move |y| ref_distance(*x, *y)))
            .fold(f64::INFINITY, f64::min);
        let got = a.distance_to_mesh(&pa, &b, &pb);
        assert!(brute > 0.0);
        assert!(
            (got.distance as f64 - brute).abs() < 1e-5 * (1.0 + brute),
            "{} vs {brute}",
            got.distance
        );
        // The reported points are on the reported triangles and that far apart.
        assert!(((got.point_a - got.point_b).length() - got.distance).abs() < 1e-4);
        let la = pa.inverse_transform_point(got.point_a);
        let lb = pb.inverse_transform_point(got.point_b);
        let on = |t: [Vec3; 3], p: Vec3| {
            ref_distance(t, [p, p + Vec3::X * 1e-7, p + Vec3::Y * 1e-7]) < 1e-4
        };
        assert!(on(a.triangle(got.triangle_a), la));
        assert!(on(b.triangle(got.triangle_b), lb));
        // `within` respects its bound.
        assert!(a
            .distance_to_mesh_within(&pa, &b, &pb, got.distance * 0.9)
            .is_none());
    }
}

#[test]
fn degenerate_triangles_in_pairs() {
    // A mesh with a zero-area triangle (a segment) poking through a plate.
    let plate = TriMesh::new(
        vec![
            Vec3::new(-1., 0., -1.),
            Vec3::new(1., 0., -1.),
            Vec3::new(0., 0., 1.),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let stick = TriMesh::new(
        vec![
            Vec3::new(0., -1., 0.),
            Vec3::new(0., 1., 0.),
            Vec3::new(0., 0.5, 0.),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let id = Pose3::IDENTITY;
    assert_eq!(
        plate.intersecting_pairs(&id, &stick, &id),
        vec![TrianglePair { a: 0, b: 0 }]
    );
    let away = Pose3::from_translation(Vec3::new(3.0, 0.0, 0.0));
    assert!(plate.intersecting_pairs(&id, &stick, &away).is_empty());
    let d = plate.distance_to_mesh(&id, &stick, &away);
    assert!(d.distance.is_finite() && d.distance > 1.5);
}

#[test]
fn far_from_the_origin_pairs_and_distance() {
    // The same relative placement near the origin and 1e5 away gives the same
    // answer up to the rounding of the poses.
    let mut rng = Rng(23);
    let (v, t) = soup(&mut rng, 200, 1.5, 0.5);
    let a = TriMesh::new(v, t).unwrap();
    let (v, t) = torus(1.0, 0.3, 24, 12);
    let b = TriMesh::new(v, t).unwrap();
    let far = Vec3::new(1.0e5, -2.0e5, 3.0e4);
    let rot = Quat::from_scaled_axis(Vec3::new(0.3, -0.2, 0.5));
    for (off, expect_pairs) in [
        (Vec3::new(0.5, 0.0, 0.0), true),
        (Vec3::new(4.0, 0.0, 0.0), false),
    ] {
        let (pa, pb) = (Pose3::new(Vec3::ZERO, rot), Pose3::new(off, Quat::IDENTITY));
        let (fa, fb) = (Pose3::new(far, rot), Pose3::new(far + off, Quat::IDENTITY));
        let near = a.intersecting_pairs(&pa, &b, &pb);
        assert_eq!(near, brute_pairs(&a, &pa, &b, &pb));
        assert_eq!(!near.is_empty(), expect_pairs);
        let farp = a.intersecting_pairs(&fa, &b, &fb);
        assert_eq!(farp, brute_pairs(&a, &fa, &b, &fb));
        assert_eq!(!farp.is_empty(), expect_pairs);
        let (dn, df) = (
            a.distance_to_mesh(&pa, &b, &pb),
            a.distance_to_mesh(&fa, &b, &fb),
        );
        // Poses at 2e5 carry ulps of about 0.016.
        assert!(
            (dn.distance - df.distance).abs() < 0.05,
            "{} vs {}",
            dn.distance,
            df.distance
        );
        assert!(((df.point_a - df.point_b).length() - df.distance).abs() < 0.05);
        // The world box of each mesh holds its closest point.
        assert!(a.aabb(&fa).loosened(0.05).contains_point(df.point_a));
        assert!(b.aabb(&fb).loosened(0.05).contains_point(df.point_b));
    }
}

mod exact_grid {
    //! Triangles with corners on a small integer grid: coplanar, touching and
    //! shared-edge configurations are frequent, and every reference quantity is
    //! exact in f64, so the library must agree with the reference exactly.
    use super::*;
    use proptest::prelude::*;

    fn tri() -> impl Strategy<Value = [Vec3; 3]> {
        prop::array::uniform3(prop::array::uniform3(-2i32..=2))
            .prop_map(|t| t.map(|p| Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)))
    }

    fn proper(t: &[Vec3; 3]) -> bool {
        (t[1] - t[0]).cross(t[2] - t[0]) != Vec3::ZERO
    }

    proptest! {
        #![proptest_config(crate::seeds::scaled(ProptestConfig { cases: 3000, ..ProptestConfig::default() }))]
        #[test]
        fn triangle_pairs_agree_with_sat(a in tri(), b in tri()) {
            prop_assume!(proper(&a) && proper(&b));
            let ma = TriMesh::new(a.to_vec(), vec![[0, 1, 2]]).unwrap();
            let mb = TriMesh::new(b.to_vec(), vec![[0, 1, 2]]).unwrap();
            let id = Pose3::IDENTITY;
            let want = sat_intersect(a, b);
            prop_assert_eq!(!ma.intersecting_pairs(&id, &mb, &id).is_empty(), want);
            let d = ma.distance_to_mesh(&id, &mb, &id);
            prop_assert_eq!(d.distance == 0.0, want, "distance {}", d.distance);
            if !want {
                let r = ref_distance(a, b);
                prop_assert!((d.distance as f64 - r).abs() < 1e-5, "{} vs {}", d.distance, r);
            }
        }
    }
}
