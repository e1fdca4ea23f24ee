//! Closed-form contact manifolds (task contact3).

use peng::d3::*;
use peng::query::types::Feature;
use std::f32::consts::FRAC_PI_4;

fn cuboid(h: Vec3) -> Shape {
    Cuboid::new(h).unwrap().into()
}

fn at(x: f32, y: f32, z: f32) -> Pose3 {
    Pose3::from_translation(Vec3::new(x, y, z))
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

fn check_points(m: &Manifold3) {
    for p in m.points() {
        let gap = p.point_b - p.point_a + m.normal * p.depth;
        assert!(
            gap.length() < 1e-4,
            "point_b - point_a != -depth*normal: {p:?} {m:?}"
        );
    }
}

#[test]
fn rotated_unit_cubes_depth_along_x() {
    let c = cuboid(Vec3::splat(0.5));
    let pb = Pose3::from_axis_angle(Vec3::new(-0.5, 0.0, 0.0), Vec3::Z * FRAC_PI_4);
    let m = contact(&c, &Pose3::IDENTITY, &c, &pb, 0.0).unwrap();
    assert!(close(m.depth(), 0.5f32.sqrt(), 1e-5), "{m:?}");
    assert!((m.normal - Vec3::NEG_X).length() < 1e-5, "{m:?}");
    // B's edge along z lies deepest in A's -x face: its two ends are the
    // deepest points of the manifold.
    let deep: Vec<_> = m
        .points()
        .iter()
        .filter(|p| close(p.depth, 0.5f32.sqrt(), 1e-5))
        .collect();
    assert_eq!(deep.len(), 2, "{m:?}");
    for p in deep {
        assert!(close(p.point_b.x, 0.207_107, 1e-5) && close(p.point_a.x, -0.5, 1e-6));
    }
    check_points(&m);
    // The other way round.
    let m2 = contact(&c, &pb, &c, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(close(m2.depth(), 0.5f32.sqrt(), 1e-5) && (m2.normal - Vec3::X).length() < 1e-5);
}

#[test]
fn long_boxes_along_x_and_y() {
    let c = cuboid(Vec3::new(2.0, 1.0, 1.0));
    let m = contact(&c, &Pose3::IDENTITY, &c, &at(3.5, 0.0, 0.0), 0.0).unwrap();
    assert!(close(m.depth(), 0.5, 1e-5) && (m.normal - Vec3::X).length() < 1e-6);
    assert_eq!(m.len(), 4);
    for p in m.points() {
        assert!(close(p.depth, 0.5, 1e-5));
        assert!(close(p.point_a.x, 2.0, 1e-5) && close(p.point_b.x, 1.5, 1e-5));
    }
    check_points(&m);
    let m = contact(&c, &Pose3::IDENTITY, &c, &at(0.0, 0.2, 0.0), 0.0).unwrap();
    assert!(
        close(m.depth(), 1.8, 1e-5) && (m.normal - Vec3::Y).length() < 1e-6,
        "{m:?}"
    );
    check_points(&m);
    // Moved the other way: the normal flips.
    let m = contact(&c, &Pose3::IDENTITY, &c, &at(-3.5, 0.0, 0.0), 0.0).unwrap();
    assert!(close(m.depth(), 0.5, 1e-5) && (m.normal - Vec3::NEG_X).length() < 1e-6);
    // Apart beyond the prediction: nothing; within it: speculative points.
    assert!(contact(&c, &Pose3::IDENTITY, &c, &at(4.1, 0.0, 0.0), 0.05).is_none());
    let m = contact(&c, &Pose3::IDENTITY, &c, &at(4.1, 0.0, 0.0), 0.2).unwrap();
    assert!(close(m.depth(), -0.1, 1e-5) && m.len() == 4);
}

#[test]
fn cube_resting_on_cube_has_four_corner_points() {
    let c = cuboid(Vec3::splat(0.5));
    let pb = at(0.1, 0.99, 0.05);
    let m = contact(&c, &Pose3::IDENTITY, &c, &pb, 0.0).unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    let mut xs: Vec<(f32, f32)> = Vec::new();
    for p in m.points() {
        assert!(close(p.depth, 0.01, 1e-5), "{p:?}");
        assert!(close(p.point_a.y, 0.5, 1e-5) && close(p.point_b.y, 0.49, 1e-5));
        xs.push((p.point_b.x, p.point_b.z));
    }
    // The corners of the overlap rectangle [-0.4, 0.5] x [-0.45, 0.5].
    for corner in [(-0.4, -0.45), (-0.4, 0.5), (0.5, -0.45), (0.5, 0.5)] {
        assert!(
            xs.iter()
                .any(|&(x, z)| close(x, corner.0, 1e-5) && close(z, corner.1, 1e-5)),
            "missing corner {corner:?} in {xs:?}"
        );
    }
    check_points(&m);
}

#[test]
fn cube_on_half_space_has_four_corner_points() {
    let floor: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let c = cuboid(Vec3::splat(0.5));
    let m = contact(&floor, &Pose3::IDENTITY, &c, &at(0.0, 0.49, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 4);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    for p in m.points() {
        assert!(close(p.depth, 0.01, 1e-6));
        assert!(close(p.point_b.x.abs(), 0.5, 1e-6) && close(p.point_b.z.abs(), 0.5, 1e-6));
        assert!(close(p.point_a.y, 0.0, 1e-6));
    }
    check_points(&m);
    // Swapped: the normal flips and the depth stays.
    let s = contact(&c, &at(0.0, 0.49, 0.0), &floor, &Pose3::IDENTITY, 0.0).unwrap();
    assert!((s.normal + Vec3::Y).length() < 1e-6 && close(s.depth(), 0.01, 1e-6));
    // Tilted 45 degrees about z: one edge (two points) down.
    let tilted = Pose3::from_axis_angle(Vec3::new(0.0, 0.7, 0.0), Vec3::Z * FRAC_PI_4);
    let m = contact(&floor, &Pose3::IDENTITY, &c, &tilted, 0.0).unwrap();
    assert_eq!(m.len(), 2);
    assert!(close(m.depth(), 0.5f32.sqrt() - 0.7, 1e-5));
}

#[test]
fn sphere_against_triangle_regions() {
    let t: Shape = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap().into();
    let ball: Shape = Ball::new(0.5).unwrap().into();
    // Face region, above the +z side.
    let m = contact(&ball, &at(0.25, 0.25, 0.3), &t, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(close(m.depth(), 0.2, 1e-6) && (m.normal - Vec3::NEG_Z).length() < 1e-6);
    let p = m.points()[0];
    assert_eq!(p.id, ContactId::new(Feature::vertex(0), Feature::face(0)));
    assert!((p.point_b - Vec3::new(0.25, 0.25, 0.0)).length() < 1e-6);
    // Below: the other face.
    let m = contact(&ball, &at(0.25, 0.25, -0.3), &t, &Pose3::IDENTITY, 0.0).unwrap();
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::vertex(0), Feature::face(1))
    );
    assert!((m.normal - Vec3::Z).length() < 1e-6);
    // Edge region of edge 0 (from vertex 0 to vertex 1).
    let m = contact(&ball, &at(0.5, -0.3, 0.0), &t, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(close(m.depth(), 0.2, 1e-6) && (m.normal - Vec3::Y).length() < 1e-6);
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::vertex(0), Feature::edge(0))
    );
    // Edge 1 (hypotenuse).
    let m = contact(&ball, &at(0.8, 0.8, 0.0), &t, &Pose3::IDENTITY, 0.0).unwrap();
    let d = (0.8f32 - 0.5) * 2f32.sqrt();
    assert!(close(m.depth(), 0.5 - d, 1e-5));
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::vertex(0), Feature::edge(1))
    );
    // Vertex region of vertex 0.
    let m = contact(&ball, &at(-0.3, -0.3, 0.1), &t, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(close(m.depth(), 0.5 - 0.19f32.sqrt(), 1e-6));
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::vertex(0), Feature::vertex(0))
    );
    assert!(m.points()[0].point_b.length() < 1e-6);
    // Centre in the triangle's plane inside it: the triangle's normal.
    let m = contact(&ball, &at(0.2, 0.2, 0.0), &t, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(
        close(m.depth(), 0.5, 1e-6) && m.normal.z.abs() > 0.999,
        "{m:?}"
    );
    // Out of reach.
    assert!(contact(&ball, &at(0.25, 0.25, 0.6), &t, &Pose3::IDENTITY, 0.0).is_none());
}

#[test]
fn capsule_lying_on_box_has_two_points() {
    let cap: Shape = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X, 0.5)
        .unwrap()
        .into();
    let b = cuboid(Vec3::new(2.0, 0.5, 2.0));
    let m = contact(&b, &Pose3::IDENTITY, &cap, &at(0.3, 0.98, 0.1), 0.0).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    for p in m.points() {
        assert!(close(p.depth, 0.02, 1e-5));
        assert!(close(p.point_b.y, 0.48, 1e-5) && close(p.point_a.y, 0.5, 1e-5));
    }
    check_points(&m);
    // Hovering within the prediction: two speculative points.
    let m = contact(&b, &Pose3::IDENTITY, &cap, &at(0.3, 1.05, 0.1), 0.1).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(close(m.depth(), -0.05, 1e-5));
    // Standing upright: one point.
    let up = Pose3::from_axis_angle(
        Vec3::new(0.0, 1.98, 0.0),
        Vec3::Z * std::f32::consts::FRAC_PI_2,
    );
    let m = contact(&b, &Pose3::IDENTITY, &cap, &up, 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!(close(m.depth(), 0.02, 1e-5));
}

#[test]
fn parallel_capsules_have_two_points() {
    let cap: Shape = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X, 0.25)
        .unwrap()
        .into();
    let m = contact(&cap, &Pose3::IDENTITY, &cap, &at(0.5, 0.4, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    let mut xs: Vec<f32> = m.points().iter().map(|p| p.point_a.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(close(xs[0], -0.5, 1e-6) && close(xs[1], 1.0, 1e-6));
    for p in m.points() {
        assert!(close(p.depth, 0.1, 1e-6));
    }
    check_points(&m);
    // Crossing capsules: one point.
    let crossed = Pose3::from_axis_angle(Vec3::new(0.0, 0.4, 0.0), Vec3::Y * 1.0);
    let m = contact(&cap, &Pose3::IDENTITY, &cap, &crossed, 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!(close(m.depth(), 0.1, 1e-6));
}

#[test]
fn balls() {
    let a: Shape = Ball::new(1.0).unwrap().into();
    let b: Shape = Ball::new(0.5).unwrap().into();
    let m = contact(&a, &at(1.0, 0.0, 0.0), &b, &at(1.0, 1.2, 0.0), 0.0).unwrap();
    assert!(close(m.depth(), 0.3, 1e-6) && (m.normal - Vec3::Y).length() < 1e-6);
    check_points(&m);
    // Coincident centres: deterministic normal.
    let m = contact(&a, &Pose3::IDENTITY, &b, &Pose3::IDENTITY, 0.0).unwrap();
    assert!(close(m.depth(), 1.5, 1e-6) && (m.normal.length() - 1.0).abs() < 1e-6);
    // Ball in a box.
    let bx = cuboid(Vec3::splat(1.0));
    let m = contact(&bx, &Pose3::IDENTITY, &b, &at(0.2, 0.7, 0.1), 0.0).unwrap();
    assert!(close(m.depth(), 0.8, 1e-6) && (m.normal - Vec3::Y).length() < 1e-6);
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::face(3), Feature::vertex(0))
    );
    // Ball against a box corner.
    let m = contact(&bx, &Pose3::IDENTITY, &b, &at(1.2, 1.2, 1.2), 0.0).unwrap();
    assert!(close(m.depth(), 0.5 - 0.12f32.sqrt(), 1e-6));
    assert_eq!(
        m.points()[0].id,
        ContactId::new(Feature::vertex(7), Feature::vertex(0))
    );
}

#[test]
fn ball_against_cylinder_and_cone() {
    let ball: Shape = Ball::new(0.5).unwrap().into();
    let cyl: Shape = Cylinder::new(1.0, 0.5).unwrap().into();
    // Beside the side.
    let m = contact(&cyl, &Pose3::IDENTITY, &ball, &at(0.9, 0.2, 0.0), 0.0).unwrap();
    assert!(close(m.depth(), 0.1, 1e-6) && (m.normal - Vec3::X).length() < 1e-6);
    // Above the cap.
    let m = contact(&cyl, &Pose3::IDENTITY, &ball, &at(0.1, 1.3, 0.2), 0.0).unwrap();
    assert!(close(m.depth(), 0.2, 1e-6) && (m.normal - Vec3::Y).length() < 1e-6);
    let cone: Shape = Cone::new(1.0, 1.0).unwrap().into();
    // Below the base.
    let m = contact(&cone, &Pose3::IDENTITY, &ball, &at(0.2, -1.4, 0.0), 0.0).unwrap();
    assert!(close(m.depth(), 0.1, 1e-6) && (m.normal + Vec3::Y).length() < 1e-6);
    // Against the slant side: slant line from (1,-1) to (0,1) has outward
    // normal (2,1)/sqrt(5); a centre 0.4 out from the side's midpoint.
    let ns = Vec3::new(2.0, 1.0, 0.0) / 5f32.sqrt();
    let c = Vec3::new(0.5, 0.0, 0.0) + ns * 0.4;
    let m = contact(
        &cone,
        &Pose3::IDENTITY,
        &ball,
        &Pose3::from_translation(c),
        0.0,
    )
    .unwrap();
    assert!(
        close(m.depth(), 0.1, 1e-5) && (m.normal - ns).length() < 1e-5,
        "{m:?}"
    );
}

#[test]
fn cylinder_standing_on_box_gives_cap_points() {
    let b = cuboid(Vec3::new(2.0, 0.5, 2.0));
    let cyl: Shape = Cylinder::new(0.5, 0.4).unwrap().into();
    let m = contact(&b, &Pose3::IDENTITY, &cyl, &at(0.1, 0.98, -0.2), 0.0).unwrap();
    assert!((m.normal - Vec3::Y).length() < 1e-3, "{m:?}");
    assert!(close(m.depth(), 0.02, 1e-4), "{m:?}");
    assert_eq!(m.len(), 4, "{m:?}");
    for p in m.points() {
        assert!(close(p.depth, 0.02, 1e-4));
        // On the rim of the bottom cap.
        let r = (p.point_b - Vec3::new(0.1, 0.48, -0.2)).length();
        assert!(
            close(r, 0.4, 1e-4) && close(p.point_b.y, 0.48, 1e-4),
            "{p:?}"
        );
    }
    check_points(&m);
    // Standing on a floor: the same cap points.
    let floor: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let m = contact(&floor, &Pose3::IDENTITY, &cyl, &at(0.0, 0.48, 0.0), 0.0).unwrap();
    assert_eq!(m.len(), 4);
    assert!(close(m.depth(), 0.02, 1e-6));
}

#[test]
fn cylinder_lying_on_box_gives_a_side_segment() {
    let b = cuboid(Vec3::new(2.0, 0.5, 2.0));
    let cyl: Shape = Cylinder::new(0.6, 0.3).unwrap().into();
    // Axis along x, lowest line 0.01 into the box.
    let pose = Pose3::from_axis_angle(
        Vec3::new(0.2, 0.79, 0.1),
        Vec3::Z * std::f32::consts::FRAC_PI_2,
    );
    let m = contact(&b, &Pose3::IDENTITY, &cyl, &pose, 0.0).unwrap();
    assert!((m.normal - Vec3::Y).length() < 1e-3, "{m:?}");
    assert!(close(m.depth(), 0.01, 1e-4), "{m:?}");
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f32> = m.points().iter().map(|p| p.point_b.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        close(xs[0], -0.4, 1e-3) && close(xs[1], 0.8, 1e-3),
        "{xs:?}"
    );
    check_points(&m);
}

#[test]
fn cone_apex_into_box_gives_one_point() {
    let b = cuboid(Vec3::new(1.0, 0.5, 1.0));
    let cone: Shape = Cone::new(0.5, 0.3).unwrap().into();
    // Upside down (apex at -y), apex 0.05 into the top face.
    let pose = Pose3::from_axis_angle(Vec3::new(0.1, 0.95, 0.0), Vec3::X * std::f32::consts::PI);
    let m = contact(&b, &Pose3::IDENTITY, &cone, &pose, 0.0).unwrap();
    assert!((m.normal - Vec3::Y).length() < 1e-3, "{m:?}");
    assert!(close(m.depth(), 0.05, 1e-4), "{m:?}");
    assert_eq!(m.len(), 1);
    assert!((m.points()[0].point_b - Vec3::new(0.1, 0.45, 0.0)).length() < 1e-3);
    check_points(&m);
}
