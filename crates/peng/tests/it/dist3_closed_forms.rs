//! Closed-form distance and penetration values (from other engines' suites and
//! hand computation) for the 3D pair queries.

use peng::d3::*;
use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4};

fn pose(t: Vec3) -> Pose3 {
    Pose3::from_translation(t)
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

fn cuboid(h: Vec3) -> Shape {
    Cuboid::new(h).unwrap().into()
}

#[test]
fn rotated_unit_cubes_penetrate_by_half_diagonal() {
    // parry/Bullet-style case: a unit cube rotated 45° about z centred at x = -0.5
    // reaches x = -0.5 + √2/2 and overlaps the axis-aligned cube (face at x = -0.5)
    // by √2/2 = 0.707107 along x.
    let a = cuboid(Vec3::splat(0.5));
    let b = cuboid(Vec3::splat(0.5));
    let pa = Pose3::from_axis_angle(Vec3::new(-0.5, 0.0, 0.0), Vec3::Z * FRAC_PI_4);
    let pb = Pose3::IDENTITY;
    let d = distance(&a, &pa, &b, &pb);
    assert!(close(d.distance, -FRAC_1_SQRT_2, 1e-5), "{d:?}");
    assert!((d.normal - Vec3::X).length() < 1e-4, "{d:?}");
    assert!(intersects(&a, &pa, &b, &pb));
    // The deepest points differ by the MTD.
    assert!(((d.point_a - d.point_b) - d.normal * FRAC_1_SQRT_2).length() < 1e-4);
}

#[test]
fn long_cuboids_along_x_and_y() {
    let a = cuboid(Vec3::new(2.0, 1.0, 1.0));
    let d = distance(&a, &Pose3::IDENTITY, &a, &pose(Vec3::new(3.5, 0.0, 0.0)));
    assert!(close(d.distance, -0.5, 1e-5), "{d:?}");
    assert!((d.normal - Vec3::X).length() < 1e-5);
    let d = distance(&a, &Pose3::IDENTITY, &a, &pose(Vec3::new(0.0, 0.2, 0.0)));
    assert!(close(d.distance, -1.8, 1e-5), "{d:?}");
    assert!((d.normal - Vec3::Y).length() < 1e-5);
}

#[test]
fn balls_distance_is_centre_distance_minus_radii() {
    for (ra, rb, c) in [
        (1.0, 0.5, Vec3::new(3.0, 0.0, 0.0)),
        (0.3, 2.0, Vec3::new(1.0, -2.0, 0.5)),
        (1.0, 1.0, Vec3::new(0.5, 0.5, 0.0)),
    ] {
        let a: Shape = Ball::new(ra).unwrap().into();
        let b: Shape = Ball::new(rb).unwrap().into();
        let pa = pose(Vec3::new(1.0, 2.0, 3.0));
        let pb = pose(Vec3::new(1.0, 2.0, 3.0) + c);
        let d = distance(&a, &pa, &b, &pb);
        assert!(close(d.distance, c.length() - ra - rb, 1e-5), "{d:?}");
        assert!((d.normal - c.normalize()).length() < 1e-5);
        assert_eq!(intersects(&a, &pa, &b, &pb), c.length() <= ra + rb);
    }
}

#[test]
fn skew_segments_and_capsules() {
    let a: Shape = Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0))
        .unwrap()
        .into();
    let b: Shape = Segment::new(Vec3::new(0.25, -1.0, 2.0), Vec3::new(0.25, 1.0, 2.0))
        .unwrap()
        .into();
    let d = distance(&a, &Pose3::IDENTITY, &b, &Pose3::IDENTITY);
    assert!(close(d.distance, 2.0, 1e-6));
    assert!((d.point_a - Vec3::new(0.25, 0.0, 0.0)).length() < 1e-6);
    assert!((d.point_b - Vec3::new(0.25, 0.0, 2.0)).length() < 1e-6);
    // Capsules around the same cores, crossing when moved together.
    let ca: Shape = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.5)
        .unwrap()
        .into();
    let cb: Shape = Capsule::new(Vec3::new(0.25, -1.0, 0.0), Vec3::new(0.25, 1.0, 0.0), 0.25)
        .unwrap()
        .into();
    let d = distance(&ca, &Pose3::IDENTITY, &cb, &pose(Vec3::new(0.0, 0.0, 1.0)));
    assert!(close(d.distance, 0.25, 1e-6));
    let d = distance(&ca, &Pose3::IDENTITY, &cb, &Pose3::IDENTITY);
    assert!(close(d.distance, -0.75, 1e-6), "{d:?}");
    assert!(d.normal.z.abs() > 0.9999, "{d:?}");
}

#[test]
fn point_to_cylinder_and_cone() {
    let cyl: Shape = Cylinder::new(1.0, 0.5).unwrap().into();
    // Beside the side, above the rim, inside near the cap.
    let cases = [
        (Vec3::new(2.0, 0.3, 0.0), Vec3::new(0.5, 0.3, 0.0), false),
        (Vec3::new(0.0, 3.0, 3.5), Vec3::new(0.0, 1.0, 0.5), false),
        (Vec3::new(0.1, 0.9, 0.0), Vec3::new(0.1, 1.0, 0.0), true),
    ];
    for (p, q, inside) in cases {
        let pr = project_point(&cyl, &Pose3::IDENTITY, p, false);
        assert!((pr.point - q).length() < 1e-6, "{p} -> {pr:?}");
        assert_eq!(pr.is_inside, inside);
        assert_eq!(contains_point(&cyl, &Pose3::IDENTITY, p), inside);
    }
    // Cone of half-height 1, radius 1: slant through (0,1) and (1,-1),
    // outward normal (2,1)/√5. The point (1, 1) projects at distance 2/√5.
    let cone: Shape = Cone::new(1.0, 1.0).unwrap().into();
    let p = Vec3::new(1.0, 1.0, 0.0);
    let pr = project_point(&cone, &Pose3::IDENTITY, p, false);
    assert!(
        close((pr.point - p).length(), 2.0 / 5f32.sqrt(), 1e-6),
        "{pr:?}"
    );
    assert!(!pr.is_inside);
    // Below the base, inside the rim: straight up to the base.
    let pr = project_point(&cone, &Pose3::IDENTITY, Vec3::new(0.2, -3.0, 0.1), false);
    assert!((pr.point - Vec3::new(0.2, -1.0, 0.1)).length() < 1e-6);
    // Beyond the apex on the axis: the apex.
    let pr = project_point(&cone, &Pose3::IDENTITY, Vec3::new(0.0, 4.0, 0.0), false);
    assert!((pr.point - Vec3::Y).length() < 1e-6);
    // A ball touching the cone's slant from outside.
    let ball: Shape = Ball::new(0.1).unwrap().into();
    let d = distance(&cone, &Pose3::IDENTITY, &ball, &pose(p));
    assert!(close(d.distance, 2.0 / 5f32.sqrt() - 0.1, 1e-6), "{d:?}");
}

#[test]
fn cylinder_pairs_through_gjk_epa() {
    let cyl: Shape = Cylinder::new(1.0, 0.5).unwrap().into();
    // Side by side along x, overlapping by 0.2.
    let d = distance(
        &cyl,
        &Pose3::IDENTITY,
        &cyl,
        &pose(Vec3::new(0.8, 0.0, 0.0)),
    );
    assert!(close(d.distance, -0.2, 1e-4), "{d:?}");
    assert!((d.normal - Vec3::X).length() < 1e-2, "{d:?}");
    // Stacked with a gap of 0.5.
    let d = distance(
        &cyl,
        &Pose3::IDENTITY,
        &cyl,
        &pose(Vec3::new(0.1, 2.5, 0.0)),
    );
    assert!(close(d.distance, 0.5, 1e-5), "{d:?}");
    // A cube resting into a cone's base by 0.25.
    let cone: Shape = Cone::new(1.0, 1.0).unwrap().into();
    let cube = cuboid(Vec3::splat(0.5));
    let d = distance(
        &cone,
        &Pose3::IDENTITY,
        &cube,
        &pose(Vec3::new(0.0, -1.25, 0.0)),
    );
    assert!(close(d.distance, -0.25, 1e-5), "{d:?}");
    assert!((d.normal + Vec3::Y).length() < 1e-4, "{d:?}");
}

#[test]
fn halfspace_against_shapes() {
    let ground: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let ball: Shape = Ball::new(1.0).unwrap().into();
    let d = distance(
        &ground,
        &Pose3::IDENTITY,
        &ball,
        &pose(Vec3::new(3.0, 0.25, 0.0)),
    );
    assert!(close(d.distance, -0.75, 1e-6));
    assert_eq!(d.normal, Vec3::Y);
    // Swapped: the normal points from the ball to the ground.
    let d = distance(
        &ball,
        &pose(Vec3::new(3.0, 0.25, 0.0)),
        &ground,
        &Pose3::IDENTITY,
    );
    assert!(close(d.distance, -0.75, 1e-6));
    assert!((d.normal + Vec3::Y).length() < 1e-6);
    let cube = cuboid(Vec3::splat(1.0));
    let rot = Pose3::from_axis_angle(Vec3::new(0.0, 2.0, 0.0), Vec3::Z * FRAC_PI_4);
    let d = distance(&ground, &Pose3::IDENTITY, &cube, &rot);
    assert!(close(d.distance, 2.0 - 2f32.sqrt(), 1e-5), "{d:?}");
}

#[test]
fn compound_takes_the_nearest_part() {
    let parts = vec![
        (
            pose(Vec3::new(-3.0, 0.0, 0.0)),
            Shape::from(Ball::new(1.0).unwrap()),
        ),
        (pose(Vec3::new(3.0, 0.0, 0.0)), cuboid(Vec3::splat(1.0))),
    ];
    let c: Shape = Compound::new(parts).unwrap().into();
    let ball: Shape = Ball::new(0.5).unwrap().into();
    let d = distance(&c, &Pose3::IDENTITY, &ball, &pose(Vec3::new(5.0, 0.0, 0.0)));
    assert!(close(d.distance, 0.5, 1e-6), "{d:?}");
    let d = distance(
        &ball,
        &pose(Vec3::new(-3.0, 2.0, 0.0)),
        &c,
        &Pose3::IDENTITY,
    );
    assert!(close(d.distance, 0.5, 1e-6), "{d:?}");
    assert!((d.normal + Vec3::Y).length() < 1e-6);
}

#[test]
fn flat_and_degenerate_pairs() {
    let id = Pose3::IDENTITY;
    // Coplanar overlapping triangles: A − B is flat through the origin, so the
    // depth is exactly 0 along the common normal.
    let t1: Shape = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap().into();
    let t2: Shape = Triangle::new(
        Vec3::new(0.2, 0.2, 0.0),
        Vec3::new(1.2, 0.2, 0.0),
        Vec3::new(0.2, 1.2, 0.0),
    )
    .unwrap()
    .into();
    let d = distance(&t1, &id, &t2, &id);
    assert!(d.distance.abs() < 1e-6, "{d:?}");
    assert!(d.normal.z.abs() > 0.9999, "{d:?}");
    assert!(intersects(&t1, &id, &t2, &id));
    // A vertical segment piercing the triangle at (0.2, 0.2): pushing it out
    // sideways through the edge x = 0 or y = 0 costs 0.2, along the normal 1.
    let seg: Shape = Segment::new(Vec3::new(0.2, 0.2, -1.0), Vec3::new(0.2, 0.2, 2.0))
        .unwrap()
        .into();
    let d = distance(&t1, &id, &seg, &id);
    assert!(close(d.distance, -0.2, 1e-5), "{d:?}");
    assert!(
        d.normal.z.abs() < 1e-4 && (d.normal.x.abs() > 0.9999 || d.normal.y.abs() > 0.9999),
        "{d:?}"
    );
    // A zero-size box is a point: inside a ball it is 0.6 deep.
    let pt = cuboid(Vec3::ZERO);
    let ball: Shape = Ball::new(1.0).unwrap().into();
    let d = distance(&ball, &id, &pt, &pose(Vec3::new(0.0, 0.4, 0.0)));
    assert!(close(d.distance, -0.6, 1e-6), "{d:?}");
    assert!((d.normal - Vec3::Y).length() < 1e-6);
    // A flat box (square) resting 0.25 into a cube, through the GJK/EPA path.
    let sq = cuboid(Vec3::new(0.5, 0.0, 0.5));
    let cube = cuboid(Vec3::splat(0.5));
    let d = distance(&cube, &id, &sq, &pose(Vec3::new(0.1, 0.25, 0.0)));
    assert!(close(d.distance, -0.25, 1e-5), "{d:?}");
    assert!((d.normal - Vec3::Y).length() < 1e-4, "{d:?}");
    // Two parallel overlapping segments on one line: touching, depth 0.
    let s1: Shape = Segment::new(Vec3::ZERO, Vec3::X * 2.0).unwrap().into();
    let d = distance(&s1, &id, &s1, &pose(Vec3::X));
    assert!(d.distance.abs() < 1e-6 && d.normal.x.abs() < 1e-6, "{d:?}");
}
