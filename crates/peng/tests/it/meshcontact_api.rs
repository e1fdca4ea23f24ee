//! Triangle meshes and height fields through the ordinary 3D shape API:
//! bounding boxes, ray casts, point projection, distance, overlap and contact
//! manifolds against convex shapes, half-spaces, compounds and other meshes.

use peng::d3::*;

/// A closed unit cube mesh (12 triangles, outward winding) of half-size `h`.
fn cube_mesh(h: f32) -> TriMesh {
    let v: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 != 0 { h } else { -h },
                if i & 2 != 0 { h } else { -h },
                if i & 4 != 0 { h } else { -h },
            )
        })
        .collect();
    // Faces as quads counter-clockwise from outside.
    let quads = [
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
    ];
    let mut t = Vec::new();
    for q in quads {
        t.push([q[0], q[1], q[2]]);
        t.push([q[0], q[2], q[3]]);
    }
    TriMesh::new(v, t).unwrap()
}

fn plate() -> HeightField {
    // 5x5 heights, cells 0.5: a field over [-1, 1]², a bump in the middle.
    let mut h = vec![0.0f32; 25];
    h[12] = 0.5;
    HeightField::new(5, 5, h, peng::math::Vec2::splat(0.5)).unwrap()
}

#[test]
fn kinds_boxes_and_clones() {
    let m: Shape = cube_mesh(1.0).into();
    let f: Shape = plate().into();
    assert_eq!(m.kind(), ShapeKind::TriMesh);
    assert_eq!(f.kind(), ShapeKind::HeightField);
    assert!(m.is_mesh() && !m.is_bounded_convex());
    assert_eq!(m.clone(), m);
    let pose = Pose3::from_translation(Vec3::new(1.0, 2.0, 3.0));
    let b = m.aabb(&pose);
    assert!((b.min - Vec3::new(0.0, 1.0, 2.0)).length() < 1e-6);
    assert!((b.max - Vec3::new(2.0, 3.0, 4.0)).length() < 1e-6);
    let b = f.aabb(&Pose3::IDENTITY);
    assert!((b.max - Vec3::new(1.0, 0.5, 1.0)).length() < 1e-6);
    assert_eq!(m.local_support(Vec3::new(1.0, 2.0, 3.0)), Vec3::ONE);
}

#[test]
fn rays_and_points() {
    let m: Shape = cube_mesh(1.0).into();
    let pose = Pose3::new(Vec3::new(0.5, 0.0, 0.0), Quat::from_rotation_y(0.3));
    let ray = Ray3::new(Vec3::new(-5.0, 0.1, 0.0), Vec3::X).unwrap();
    let hit = ray_cast(&m, &pose, &ray, 100.0, true).expect("hits");
    // Same as the mesh's own cast.
    let Shape::TriMesh(tm) = &m else {
        unreachable!()
    };
    let own = tm.cast_ray(&pose, &ray, 100.0).unwrap();
    assert!((hit.toi - own.hit.toi).abs() < 1e-6);
    assert!((hit.normal - own.hit.normal).length() < 1e-6);
    // A point inside the closed cube is inside; its projection is on a face.
    let p = project_point(&m, &Pose3::IDENTITY, Vec3::new(0.2, 0.7, 0.0), false);
    assert!(p.is_inside);
    assert!((p.point - Vec3::new(0.2, 1.0, 0.0)).length() < 1e-5);
    assert!(contains_point(&m, &Pose3::IDENTITY, Vec3::ZERO));
    assert!(!contains_point(
        &m,
        &Pose3::IDENTITY,
        Vec3::new(0.0, 1.5, 0.0)
    ));
    // The field: a vertical ray hits the bump's tip.
    let f: Shape = plate().into();
    let down = Ray3::new(Vec3::new(0.0, 3.0, 0.0), Vec3::NEG_Y).unwrap();
    let hit = ray_cast(&f, &Pose3::IDENTITY, &down, 10.0, false).expect("hits");
    assert!((hit.toi - 2.5).abs() < 1e-5);
    let p = project_point(&f, &Pose3::IDENTITY, Vec3::new(0.9, 0.3, 0.9), true);
    assert!(!p.is_inside);
    assert!(
        (p.point - Vec3::new(0.9, 0.0, 0.9)).length() < 1e-5,
        "{p:?}"
    );
}

#[test]
fn distance_to_convex_shapes() {
    let floor: Shape = plate().into();
    let ball: Shape = Ball::new(0.25).unwrap().into();
    // Above a flat corner region: distance is the height minus the radius.
    let d = distance(
        &floor,
        &Pose3::IDENTITY,
        &ball,
        &Pose3::from_translation(Vec3::new(-0.8, 1.0, -0.8)),
    );
    assert!((d.distance - 0.75).abs() < 1e-5, "{d:?}");
    assert!((d.normal - Vec3::Y).length() < 1e-4);
    // Far away, beyond the field's box.
    let d = distance(
        &floor,
        &Pose3::IDENTITY,
        &ball,
        &Pose3::from_translation(Vec3::new(-0.8, 30.0, -0.8)),
    );
    // The bump's tip (0, 0.5, 0) is nearest from up there.
    let tip = Vec3::new(-0.8, 29.5, -0.8).length() - 0.25;
    assert!((d.distance - tip).abs() < 1e-4, "{d:?}");
    // Sunk into the floor: minus the depth.
    let d = distance(
        &ball,
        &Pose3::from_translation(Vec3::new(-0.8, 0.1, -0.8)),
        &floor,
        &Pose3::IDENTITY,
    );
    assert!((d.distance + 0.15).abs() < 1e-5, "{d:?}");
    assert!(
        (d.normal + Vec3::Y).length() < 1e-4,
        "from the ball to the floor: {d:?}"
    );
    assert!(intersects(
        &ball,
        &Pose3::from_translation(Vec3::new(-0.8, 0.1, -0.8)),
        &floor,
        &Pose3::IDENTITY
    ));
    assert!(!intersects(
        &ball,
        &Pose3::from_translation(Vec3::new(-0.8, 0.3, -0.8)),
        &floor,
        &Pose3::IDENTITY
    ));
    // A box against the cube mesh, side by side: gap 0.5.
    let m: Shape = cube_mesh(1.0).into();
    let cube: Shape = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    let d = distance(
        &m,
        &Pose3::IDENTITY,
        &cube,
        &Pose3::from_translation(Vec3::new(2.0, 0.3, 0.1)),
    );
    assert!((d.distance - 0.5).abs() < 1e-5, "{d:?}");
    // Half-space below the cube mesh: the lowest vertex decides.
    let ground: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let d = distance(
        &ground,
        &Pose3::from_translation(Vec3::new(0.0, -1.5, 0.0)),
        &m,
        &Pose3::IDENTITY,
    );
    assert!((d.distance - 0.5).abs() < 1e-5, "{d:?}");
}

#[test]
fn contacts_with_boxes_half_spaces_compounds_and_meshes() {
    let m: Shape = cube_mesh(1.0).into();
    let cube: Shape = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    // A box resting on the mesh cube's top face, sunk by 0.1.
    let pose_b = Pose3::from_translation(Vec3::new(0.1, 1.4, -0.2));
    let c = contact(&m, &Pose3::IDENTITY, &cube, &pose_b, 0.0).expect("overlap");
    assert!((c.normal - Vec3::Y).length() < 1e-4, "{c:?}");
    assert!((c.depth() - 0.1).abs() < 1e-5, "{c:?}");
    assert_eq!(c.len(), 4);
    // Seen from the box: flipped.
    let s = contact(&cube, &pose_b, &m, &Pose3::IDENTITY, 0.0).expect("overlap");
    assert!((s.normal + Vec3::Y).length() < 1e-4);
    assert!((s.depth() - 0.1).abs() < 1e-5);
    // Out of reach: none; within the prediction: speculative.
    let far = Pose3::from_translation(Vec3::new(0.1, 1.6, -0.2));
    assert!(contact(&m, &Pose3::IDENTITY, &cube, &far, 0.0).is_none());
    let spec = contact(&m, &Pose3::IDENTITY, &cube, &far, 0.2).expect("speculative");
    assert!((spec.depth() + 0.1).abs() < 1e-5);
    // Half-space under the mesh cube.
    let ground: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let g = contact(
        &ground,
        &Pose3::from_translation(Vec3::new(0.0, -0.9, 0.0)),
        &m,
        &Pose3::IDENTITY,
        0.0,
    )
    .expect("overlap");
    assert!((g.normal - Vec3::Y).length() < 1e-5);
    assert!((g.depth() - 0.1).abs() < 1e-5);
    assert_eq!(g.len(), 4);
    // A compound holding the mesh.
    let comp: Shape = Compound::new(vec![(
        Pose3::from_translation(Vec3::new(5.0, 0.0, 0.0)),
        m.clone(),
    )])
    .unwrap()
    .into();
    let pb = Pose3::from_translation(Vec3::new(5.1, 1.4, -0.2));
    let k = contact(&comp, &Pose3::IDENTITY, &cube, &pb, 0.0).expect("overlap");
    assert!((k.depth() - 0.1).abs() < 1e-5);
    // Two mesh cubes overlapping by 0.2 along x: triangle pairs cross.
    let pb = Pose3::from_translation(Vec3::new(1.8, 0.3, 0.1));
    let mut out = Vec::new();
    contacts(&m, &Pose3::IDENTITY, &m, &pb, 0.0, &mut out);
    assert!(!out.is_empty());
    assert!(out.iter().all(|x| x.len() <= 4 && !x.is_empty()));
    assert!(contact(
        &m,
        &Pose3::IDENTITY,
        &m,
        &Pose3::from_translation(Vec3::new(2.5, 0.0, 0.0)),
        0.0
    )
    .is_none());
    // Mesh-mesh distance: surfaces 0.5 apart.
    let d = distance(
        &m,
        &Pose3::IDENTITY,
        &m,
        &Pose3::from_translation(Vec3::new(2.5, 0.3, 0.0)),
    );
    assert!((d.distance - 0.5).abs() < 1e-5, "{d:?}");
    assert!((d.normal - Vec3::X).length() < 1e-4);
    // A mesh cube sitting on the height field's flat part.
    let f: Shape = plate().into();
    let small: Shape = cube_mesh(0.1).into();
    let pb = Pose3::from_translation(Vec3::new(-0.7, 0.08, -0.7));
    let mut out = Vec::new();
    contacts(&f, &Pose3::IDENTITY, &small, &pb, 0.0, &mut out);
    assert!(
        out.iter()
            .any(|c| (c.normal - Vec3::Y).length() < 1e-4 && (c.depth() - 0.02).abs() < 1e-5),
        "{out:?}"
    );
}

#[test]
fn ids_stay_put_while_sliding_within_a_triangle() {
    let floor: Shape = plate().into();
    let cube: Shape = Cuboid::new(Vec3::splat(0.05)).unwrap().into();
    let at = |x: f32| {
        let p = Pose3::from_translation(Vec3::new(x, 0.04, -0.8));
        let c = contact(&floor, &Pose3::IDENTITY, &cube, &p, 0.0).expect("overlap");
        let mut ids: Vec<u32> = c.points().iter().map(|p| p.id.0).collect();
        ids.sort_unstable();
        ids
    };
    // The box stays over one triangle of the cell [-1, -0.5]² (where z < x):
    // its corners keep their ids.
    let ids = at(-0.62);
    assert_eq!(ids.len(), 4);
    assert_eq!(ids, at(-0.615));
    assert_eq!(ids, at(-0.6));
}
