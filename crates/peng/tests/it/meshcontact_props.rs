//! Properties of mesh contacts: a one-triangle mesh agrees with the triangle
//! shape; every manifold has at most four points whose depth is measured along
//! its normal; distance and contact agree on overlap.

use peng::d3::*;
use proptest::prelude::*;

fn v3() -> impl Strategy<Value = Vec3> {
    (-1.5f32..1.5, -1.5f32..1.5, -1.5f32..1.5).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn rot() -> impl Strategy<Value = Quat> {
    (v3(), 0.0f32..3.0).prop_map(|(a, t)| Quat::from_axis_angle(a.normalize_or(Vec3::Y), t))
}

fn convex() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.1f32..1.0).prop_map(|r| Ball::new(r).unwrap().into()),
        (v3(), 0.1f32..0.8).prop_map(|(d, r)| Capsule::new(-d * 0.5, d * 0.5, r).unwrap().into()),
        (0.1f32..1.0, 0.1f32..1.0, 0.1f32..1.0).prop_map(|(x, y, z)| Cuboid::new(Vec3::new(
            x, y, z
        ))
        .unwrap()
        .into()),
    ]
}

proptest! {
    #![proptest_config(crate::seeds::scaled(ProptestConfig { cases: 200, ..ProptestConfig::default() }))]

    #[test]
    fn one_triangle_mesh_matches_the_triangle(
        a in v3(), b in v3(), c in v3(), s in convex(), t in v3(), r in rot(),
    ) {
        prop_assume!((b - a).cross(c - a).length() > 0.05);
        let tri: Shape = Triangle::new(a, b, c).unwrap().into();
        let mesh: Shape = TriMesh::new(vec![a, b, c], vec![[0, 1, 2]]).unwrap().into();
        let pose = Pose3::new(t, r);
        let direct = contact(&tri, &Pose3::IDENTITY, &s, &pose, 0.1);
        let mut out = Vec::new();
        let off = ContactOptions { fix_internal_edges: false };
        contacts_with_options(&mesh, &Pose3::IDENTITY, &s, &pose, 0.1, &off, &mut out);
        match direct {
            None => prop_assert!(out.is_empty(), "{out:?}"),
            Some(d) => {
                prop_assert_eq!(out.len(), 1);
                let m = out[0];
                prop_assert!((m.normal - d.normal).length() < 1e-5, "{m:?} {d:?}");
                prop_assert!((m.depth() - d.depth()).abs() < 1e-5, "{m:?} {d:?}");
                // A lone triangle has only border edges: the fix keeps it.
                let mut fixed = Vec::new();
                contacts(&mesh, &Pose3::IDENTITY, &s, &pose, 0.1, &mut fixed);
                prop_assert_eq!(fixed.len(), 1);
                prop_assert!((fixed[0].depth() - d.depth()).abs() < 1e-5, "{fixed:?} {d:?}");
            }
        }
    }

    #[test]
    fn floor_manifolds_are_consistent(s in convex(), t in v3(), r in rot()) {
        // A bumpy 6x6 height field.
        let heights: Vec<f32> = (0..36).map(|i| ((i * 7 % 11) as f32) * 0.05).collect();
        let field: Shape = HeightField::new(6, 6, heights, peng::math::Vec2::splat(0.6)).unwrap().into();
        let pose = Pose3::new(t * Vec3::new(1.0, 0.4, 1.0) + Vec3::Y * 0.3, r);
        let mut out = Vec::new();
        contacts(&field, &Pose3::IDENTITY, &s, &pose, 0.05, &mut out);
        for m in &out {
            prop_assert!(!m.is_empty() && m.len() <= 4);
            prop_assert!((m.normal.length() - 1.0).abs() < 1e-4);
            for p in m.points() {
                prop_assert!(p.depth >= -0.05 - 1e-4, "{m:?}");
                let along = (p.point_a - p.point_b).dot(m.normal);
                prop_assert!((along - p.depth).abs() < 1e-3, "{m:?}");
            }
        }
        // Overlap agrees with distance (touching within rounding aside).
        let d = distance(&field, &Pose3::IDENTITY, &s, &pose);
        if d.distance < -1e-3 {
            prop_assert!(out.iter().any(|m| m.depth() > 0.0), "{d:?} {out:?}");
        }
        if d.distance > 0.05 + 1e-3 {
            prop_assert!(out.is_empty(), "{d:?} {out:?}");
        }
    }
}
