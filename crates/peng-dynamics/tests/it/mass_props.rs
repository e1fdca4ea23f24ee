//! Property tests of the mass properties: translation invariance far from
//! the origin, symmetry, positive semi-definiteness and the triangle
//! inequality of the principal moments.

use std::sync::Arc;

use glam::{Mat3, Vec3};
use peng::mesh::TriMesh;
use peng::shape::d3::{ConvexPolyhedron, Shape};
use peng_dynamics::MassProperties3;
use proptest::prelude::*;

fn points() -> impl Strategy<Value = Vec<Vec3>> {
    prop::collection::vec(
        // On a 1/16 grid, so that v + t (|t| <= 1e6 < 2^20) is exact in
        // f32 and far copies are exact translates.
        (-32i32..32, -16i32..16, -8i32..48)
            .prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) / 16.0),
        6..24,
    )
}

fn norm(m: Mat3) -> f32 {
    m.to_cols_array().iter().map(|x| x * x).sum::<f32>().sqrt()
}

fn check_physical(p: &MassProperties3) -> Result<(), TestCaseError> {
    let i = p.inertia;
    let scale = norm(i).max(1e-12);
    prop_assert!(norm(i - i.transpose()) <= 1e-6 * scale, "asymmetric {i}");
    let (l, q) = p.principal_inertia();
    prop_assert!(l.min_element() >= -1e-5 * scale, "not PSD: {l}");
    // Sorted ascending: the two smaller moments together reach the largest.
    prop_assert!(l.x <= l.y && l.y <= l.z);
    prop_assert!(l.x + l.y >= l.z - 1e-5 * scale, "triangle inequality: {l}");
    let r = Mat3::from_quat(q);
    prop_assert!(norm(r * Mat3::from_diagonal(l) * r.transpose() - i) <= 1e-4 * scale);
    Ok(())
}

proptest! {
    #![proptest_config(crate::seeds::cases(64))]

    #[test]
    fn far_hulls_keep_their_inertia(
        pts in points(),
        sign in prop::sample::select(vec![-1.0f32, 1.0]),
        far_away in any::<bool>(),
    ) {
        // 1e4 and 1e6 from the origin.
        let t = Vec3::new(1e4, -1e4, 0.7e4) * sign * if far_away { 100.0 } else { 1.0 };
        let Ok(hull) = ConvexPolyhedron::from_points(&pts) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        // The hull's surface as closed meshes far away and near (grid points:
        // exact translates), so both meshes bound the same solid and any
        // difference is the algorithm's round-off.
        // (Meshes, not hulls: the hull builder's merge tolerance is
        // relative to the coordinates, so far hulls may drop points.)
        let far: Vec<Vec3> = hull.vertices().iter().map(|v| *v + t).collect();
        let near: Vec<Vec3> = far.iter().map(|v| *v - t).collect();
        let mut tris = Vec::new();
        for f in 0..hull.faces().len() {
            let l = hull.face_loop(f);
            for k in 1..l.len() - 1 {
                tris.push([l[0], l[k], l[k + 1]]);
            }
        }
        let hf = TriMesh::new(far, tris.clone()).unwrap();
        let hn = TriMesh::new(near, tris).unwrap();
        let a = MassProperties3::from_shape(&Shape::TriMesh(Arc::new(hf)), 1.3).unwrap();
        let b = MassProperties3::from_shape(&Shape::TriMesh(Arc::new(hn)), 1.3).unwrap();
        let c = MassProperties3::from_shape(&Shape::Polyhedron(Arc::new(hull)), 1.3).unwrap();
        prop_assert!((c.mass - b.mass).abs() <= 1e-4 * b.mass, "hull {} vs mesh {}", c.mass, b.mass);
        prop_assume!(b.mass > 1e-3);
        prop_assert!((a.mass - b.mass).abs() <= 1e-4 * b.mass, "{} vs {}", a.mass, b.mass);
        // The far centre is an f32 near t: within a few ulps of |t|.
        let com_tol = 1e-4 + 4.0 * f32::EPSILON * t.length();
        prop_assert!((a.local_com - (b.local_com + t)).length() <= com_tol, "{} vs {}", a.local_com, b.local_com + t);
        let scale = norm(b.inertia);
        prop_assert!(norm(a.inertia - b.inertia) <= 1e-3 * scale, "{} vs {}", a.inertia, b.inertia);
        check_physical(&a)?;
        check_physical(&b)?;
    }

    /// A body moved anywhere and summed with another keeps the physical
    /// invariants, and `transformed` preserves the principal moments.
    #[test]
    fn transformed_sums_stay_physical(pts in points(), axis in (-1.0f32..1.0, -1.0f32..1.0, 0.1f32..1.0), angle in -3.0f32..3.0) {
        let Ok(h) = ConvexPolyhedron::from_points(&pts) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        let p = MassProperties3::from_shape(&Shape::Polyhedron(Arc::new(h)), 2.0).unwrap();
        let pose = peng::math::Pose3::new(
            Vec3::new(3.0, -1.0, 2.0),
            glam::Quat::from_axis_angle(Vec3::from(axis).normalize(), angle),
        );
        let q = p.transformed(&pose);
        let (l0, _) = p.principal_inertia();
        let (l1, _) = q.principal_inertia();
        prop_assert!((l0 - l1).length() <= 1e-4 * l0.length().max(1e-9), "{l0} vs {l1}");
        let s = p + q;
        prop_assert!((s.mass - 2.0 * p.mass).abs() <= 1e-5 * p.mass);
        check_physical(&s)?;
    }
}
