//! Inputs found by fuzzing the constructors and pair queries with raw bytes,
//! each checked against an f64 truth written here: validators reject what
//! the queries cannot compute in f32 (the policy's rule 7, magnitude), and
//! what they accept is computed right.

use peng::math::policy::MAX_MAGNITUDE;
use peng::{d2, d3, GeometryError};

/// `q·p·q⁻¹` in f64 for a quaternion of any length (divided by its length).
fn rotate_f64(q: [f64; 4], p: [f64; 3]) -> [f64; 3] {
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let [x, y, z, w] = q.map(|c| c / n);
    // Rotation matrix of the unit quaternion (x, y, z, w).
    let m = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    m.map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2])
}

fn too_large(e: Result<impl std::fmt::Debug, GeometryError>, field: &str) {
    match e {
        Err(GeometryError::TooLarge { what, limit, .. }) => {
            assert_eq!(what, field);
            assert_eq!(limit, MAX_MAGNITUDE);
        }
        other => panic!("{field}: expected TooLarge, got {other:?}"),
    }
}

#[test]
fn height_field_whose_extent_overflows_is_refused() {
    // 3 × 3 heights, cells 3e38 wide: the half extent (3-1)·3e38/2 = 3e38 is
    // finite in f64 but the f32 origin −(2·3e38)/2 overflowed to −∞, and the
    // distance query then reached an `unreachable!` in `to_trimesh`.
    let hf = d3::HeightField::new(3, 3, vec![0.0; 9], d2::Vec2::splat(3e38));
    too_large(hf, "height field extent");
    // One cell within the limit but 2^20 of them beyond it.
    let n = 1 << 20;
    let hf = d3::HeightField::new(2, n, vec![0.0; 2 * n], d2::Vec2::new(100.0, 1.0));
    too_large(hf, "height field extent");
    let hf = d3::HeightField::new(2, 2, vec![0.0, 0.0, 0.0, 6e7], d2::Vec2::ONE);
    too_large(hf, "height field height");
}

#[test]
fn height_field_at_the_magnitude_limit_answers_distance() {
    // Three columns of cells 5e7 wide: half extent exactly the limit, the far
    // vertices `origin + 2·cell` computed in f32 (they may round past it). A
    // ball of radius 1e6 centred 4e6 above the flat field is 3e6 from it (f64
    // truth: 4e6 − 1e6); f32 carries an error of a few units at this scale.
    let hf = d3::HeightField::new(2, 3, vec![0.0; 6], d2::Vec2::splat(MAX_MAGNITUDE))
        .expect("half extent at the limit");
    assert!(hf.to_trimesh().num_triangles() == 4);
    let field: d3::Shape = hf.into();
    let ball: d3::Shape = d3::Ball::new(1e6).expect("ball").into();
    let at = d3::Pose3::try_new(d3::Vec3::new(3.0e7, 4e6, 1e6), d3::Quat::IDENTITY).unwrap();
    let d = d3::distance(&ball, &at, &field, &d3::Pose3::IDENTITY);
    let truth = 4e6f64 - 1e6;
    let tol = 4.0 * 1e-6 * MAX_MAGNITUDE as f64;
    assert!(
        (d.distance as f64 - truth).abs() <= tol,
        "distance {} vs {truth}",
        d.distance
    );
    assert!(!d3::intersects(&ball, &at, &field, &d3::Pose3::IDENTITY));
}

#[test]
fn long_and_short_quaternions_normalize_to_their_rotation() {
    // A quarter turn about z at lengths whose squared length overflows
    // (2e40 > f32::MAX) or underflows (2e-50 < the smallest subnormal): the
    // pose used to collapse every point onto its translation, or to be
    // refused as "zero length".
    let p = [1.0f64, 2.0, -0.5];
    for s in [1e20f32, 3e36, 1e-25, 1e-40] {
        let q = [0.0, 0.0, s, s];
        let pose = d3::Pose3::try_new(d3::Vec3::ZERO, d3::Quat::from_xyzw(q[0], q[1], q[2], q[3]))
            .unwrap_or_else(|e| panic!("quaternion × {s}: {e}"));
        let got = pose.transform_point(d3::Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32));
        let truth = rotate_f64(q.map(|c| c as f64), p);
        for i in 0..3 {
            assert!(
                (got[i] as f64 - truth[i]).abs() < 1e-5,
                "quaternion × {s}: {got:?} vs {truth:?}"
            );
        }
    }
    // Only the exact zero quaternion is refused, and it says so.
    let zero = d3::Pose3::try_new(d3::Vec3::ZERO, d3::Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
    assert!(matches!(zero, Err(GeometryError::Degenerate { .. })));
}

#[test]
fn poses_whose_relative_pose_overflows_are_refused() {
    // Two balls at ±3e38 are 6e38 apart (f64 truth), beyond f32: `contact`
    // called them touching and `distance` returned −0.
    too_large(
        d3::Pose3::try_new(d3::Vec3::new(3e38, 0.0, 0.0), d3::Quat::IDENTITY),
        "pose translation",
    );
    too_large(
        d2::Pose2::try_new(d2::Vec2::new(0.0, -3e38), 0.0),
        "pose translation",
    );
    too_large(
        d3::Ray3::new(d3::Vec3::new(0.0, 0.0, 1e38), d3::Vec3::X),
        "ray origin",
    );
}

#[test]
fn poses_at_the_magnitude_limit_answer_distance() {
    // Balls of radius 1 at ±L on x: distance 2L − 2 (f64), no contact.
    let l = MAX_MAGNITUDE;
    let truth = 2.0 * l as f64 - 2.0;
    let ball: d3::Shape = d3::Ball::new(1.0).unwrap().into();
    let cube: d3::Shape = d3::Cuboid::new(d3::Vec3::ONE).unwrap().into();
    let pa = d3::Pose3::try_new(d3::Vec3::new(-l, 0.0, 0.0), d3::Quat::IDENTITY).unwrap();
    let pb = d3::Pose3::try_new(d3::Vec3::new(l, 0.0, 0.0), d3::Quat::IDENTITY).unwrap();
    for b in [&ball, &cube] {
        let d = d3::distance(&ball, &pa, b, &pb);
        assert!(
            ((d.distance as f64) - truth).abs() <= truth * 1e-6,
            "{} vs {truth}",
            d.distance
        );
        assert!(d3::contact(&ball, &pa, b, &pb, 0.0).is_none());
        assert!(!d3::intersects(&ball, &pa, b, &pb));
    }
    let circle: d2::Shape = d2::Circle::new(1.0).unwrap().into();
    let pa = d2::Pose2::try_new(d2::Vec2::new(0.0, -l), 0.3).unwrap();
    let pb = d2::Pose2::try_new(d2::Vec2::new(0.0, l), -1.0).unwrap();
    let d = d2::distance(&circle, &pa, &circle, &pb);
    assert!(((d.distance as f64) - truth).abs() <= truth * 1e-6);
    assert!(d2::contact(&circle, &pa, &circle, &pb, 0.0).is_none());
}

#[test]
fn every_constructor_refuses_coordinates_beyond_the_limit() {
    let big = 1e38f32;
    let v3 = d3::Vec3::new(0.0, big, 0.0);
    let v2 = d2::Vec2::new(big, 0.0);
    too_large(d3::Ball::new(big), "ball radius");
    too_large(d3::Cuboid::new(v3), "cuboid half extents");
    too_large(d3::Capsule::new(v3, d3::Vec3::ZERO, 1.0), "capsule end a");
    too_large(d3::Cylinder::new(1.0, big), "cylinder radius");
    too_large(d3::Cone::new(big, 1.0), "cone half height");
    too_large(d3::Segment::new(d3::Vec3::ZERO, v3), "segment end b");
    too_large(
        d3::Triangle::new(d3::Vec3::ZERO, d3::Vec3::X, v3),
        "triangle vertex c",
    );
    let cloud = [d3::Vec3::ZERO, d3::Vec3::X, d3::Vec3::Y, v3];
    too_large(
        d3::ConvexPolyhedron::from_points(&cloud),
        "convex hull input point",
    );
    too_large(
        d3::TriMesh::new(cloud.to_vec(), vec![[0, 1, 3]]),
        "triangle mesh vertex",
    );
    too_large(d2::Circle::new(big), "circle radius");
    too_large(d2::Rect::new(v2), "rect half extents");
    too_large(
        d2::ConvexPolygon::from_points(&[d2::Vec2::ZERO, d2::Vec2::X, v2]),
        "convex hull input point",
    );
    too_large(
        d2::Polyline::new(vec![d2::Vec2::ZERO, v2], None),
        "polyline vertex",
    );
    too_large(
        d2::Ray2::new(d2::Vec2::ZERO, d2::Vec2::new(0.0, big)),
        "ray direction",
    );
    // A compound part placed beyond the limit, and nested compounds whose
    // parts reach beyond four times it.
    let ball: d3::Shape = d3::Ball::new(1.0).unwrap().into();
    let far = d3::Pose3::new(d3::Vec3::new(big, 0.0, 0.0), d3::Quat::IDENTITY);
    too_large(
        d3::Compound::new(vec![(far, ball)]),
        "compound part translation",
    );
    let edge = d3::Pose3::try_new(d3::Vec3::splat(MAX_MAGNITUDE), d3::Quat::IDENTITY).unwrap();
    let mut nested: d3::Shape = d3::Ball::new(100.0).unwrap().into();
    for _ in 0..4 {
        nested = d3::Compound::new(vec![(edge, nested)])
            .map(Into::into)
            .unwrap_or_else(|e| {
                assert!(
                    matches!(
                        e,
                        GeometryError::TooLarge {
                            what: "compound part extent",
                            ..
                        }
                    ),
                    "{e}"
                );
                d3::Ball::new(0.0).unwrap().into()
            });
    }
    assert!(
        matches!(nested, d3::Shape::Ball(_)),
        "the nesting was refused"
    );
}

#[test]
fn half_space_normals_of_any_length_are_directions() {
    // Normals whose squared length over- or underflows f32: the direction
    // is (0, 0.6, 0.8) in f64 for each.
    for s in [1e30f32, 1e-30, 1e-44] {
        let h = d3::HalfSpace::new(d3::Vec3::new(0.0, 3.0 * s, 4.0 * s))
            .unwrap_or_else(|e| panic!("normal × {s}: {e}"));
        let n = h.normal();
        assert!((n.y as f64 - 0.6).abs() < 1e-6 && (n.z as f64 - 0.8).abs() < 1e-6);
    }
    assert!(d3::HalfSpace::new(d3::Vec3::ZERO).is_err());
}

/// A point (a triangle whose corners coincide) or a capsule lying in a
/// triangle's plane beside it was reported in contact: the separating axes of
/// a segment and a triangle include the triangle's in-plane edge normals,
/// which the face and edge-crossing axes miss for a core in that plane.
/// Found by the shapes3d target; truths are closed forms (the nearest
/// vertex, and the distance from (2, 2) to the line x + y = 1).
#[test]
fn core_in_a_triangles_plane_beside_it_is_apart() {
    use d3::{Quat, Vec3};
    let tri = d3::Shape::Triangle(
        d3::Triangle::new(
            Vec3::new(-0.0, 2.0, 2.0),
            Vec3::new(2.0, 2.9707136e-17, 1e-40),
            Vec3::new(1e-40, 1e-40, 1e-40),
        )
        .unwrap(),
    );
    let point = d3::Shape::Triangle(
        d3::Triangle::new(Vec3::splat(2.0), Vec3::splat(2.0), Vec3::splat(2.0)).unwrap(),
    );
    let id = d3::Pose3::IDENTITY;
    // The point lands at (4, 4, 4), in the plane y = z of the triangle.
    let pose = d3::Pose3::new(Vec3::splat(2.0), Quat::from_xyzw(0.5, 0.5, 0.5, 0.5));
    let truth = 24f64.sqrt(); // to the vertex (0, 2, 2)
    assert!(d3::contact(&tri, &id, &point, &pose, 0.0).is_none());
    assert!(!d3::intersects(&tri, &id, &point, &pose));
    let d = d3::distance(&tri, &id, &point, &pose).distance as f64;
    assert!((d - truth).abs() < 1e-5, "{d} vs {truth}");

    let flat = d3::Shape::Triangle(d3::Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap());
    let cap = d3::Shape::Capsule(
        d3::Capsule::new(Vec3::new(2.0, 2.0, 0.0), Vec3::new(3.0, 2.0, 0.0), 0.5).unwrap(),
    );
    let truth = 3.0 / 2f64.sqrt() - 0.5;
    assert!(d3::contact(&flat, &id, &cap, &id, 0.0).is_none());
    assert!(d3::contact(&cap, &id, &flat, &id, 0.0).is_none());
    let d = d3::distance(&flat, &id, &cap, &id).distance as f64;
    assert!((d - truth).abs() < 1e-5, "{d} vs {truth}");
}

/// Two triangles in one plane, apart, were reported in contact (depth -0):
/// the same missing in-plane axes as above. Truth: the distance from the
/// corner (2, 2) to the line x + y = 1 is 3/√2.
#[test]
fn coplanar_triangles_apart_are_apart() {
    use d3::Vec3;
    let id = d3::Pose3::IDENTITY;
    let t1 = d3::Shape::Triangle(d3::Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap());
    let t2 = d3::Shape::Triangle(
        d3::Triangle::new(
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(3.0, 2.0, 0.0),
            Vec3::new(2.0, 3.0, 0.0),
        )
        .unwrap(),
    );
    let truth = 3.0 / 2f64.sqrt();
    assert!(d3::contact(&t1, &id, &t2, &id, 0.0).is_none());
    assert!(d3::contact(&t2, &id, &t1, &id, 0.0).is_none());
    // Within a prediction that reaches, the manifold has the true gap.
    let m = d3::contact(&t1, &id, &t2, &id, 3.0).expect("within the prediction");
    assert!(
        (-m.depth() as f64 - truth).abs() < 1e-4,
        "{} vs {truth}",
        -m.depth()
    );
    let d = d3::distance(&t1, &id, &t2, &id).distance as f64;
    assert!((d - truth).abs() < 1e-5, "{d} vs {truth}");
}

/// A capsule in the plane of a cuboid of zero thickness, 6.80 beside it
/// (shapes3d fuzz target): `contact` reported touching, since the SAT's
/// core-edge crossings are all the plane's normal for a core in the plane and
/// the core's own in-plane normal, the separating axis, was not tested.
/// Truth: the 2D distance from the core to the rectangle, 6.8350905 (a dense
/// f64 search over the core), minus the radius.
#[test]
fn capsule_in_the_plane_of_a_flat_cuboid_is_apart() {
    let a: d3::Shape = d3::Cuboid::new(d3::Vec3::new(0.75, 0.0, 0.03125))
        .unwrap()
        .into();
    let b: d3::Shape = d3::Capsule::new(
        d3::Vec3::new(9.0, -1.539996e-29, 15.625),
        d3::Vec3::new(-12.375, 0.0, 3.7667e-41),
        0.03125,
    )
    .unwrap()
    .into();
    let id = d3::Pose3::IDENTITY;
    let truth = 6.8350905 - 0.03125;
    assert!(d3::contact(&a, &id, &b, &id, 0.0).is_none());
    assert!(d3::contact(&b, &id, &a, &id, 0.0).is_none());
    assert!(!d3::intersects(&a, &id, &b, &id));
    let d = d3::distance(&a, &id, &b, &id).distance;
    assert!((d - truth).abs() < 1e-4, "{d} vs {truth}");
}

/// A ball on the axis of a cone of radius 0, far past its apex (shapes3d
/// fuzz target): the slant of such a cone is its axis, so the point had no
/// slant distance and was taken as inside (depth = the ball's radius).
/// Truth: the distance from the centre to the apex, minus the radius.
#[test]
fn ball_past_the_apex_of_a_zero_radius_cone_is_apart() {
    let a: d3::Shape = d3::Cone::new(3.625, 0.0).unwrap().into();
    let b: d3::Shape = d3::Ball::new(1.21875).unwrap().into();
    let pa = d3::Pose3::IDENTITY;
    for y in [10.0f32, 5.0e7] {
        let pb = d3::Pose3::from_translation(d3::Vec3::new(0.0, y, 0.0));
        assert!(d3::contact(&a, &pa, &b, &pb, 0.0).is_none(), "y = {y}");
        assert!(d3::contact(&b, &pb, &a, &pa, 0.0).is_none(), "y = {y}");
        let truth = (y as f64 - 3.625 - 1.21875) as f32;
        let d = d3::distance(&a, &pa, &b, &pb).distance;
        assert!((d - truth).abs() <= 1e-6 * y, "{d} vs {truth}");
    }
    // On the axis between base and apex, the ball touches the degenerate cone.
    let pb = d3::Pose3::from_translation(d3::Vec3::new(0.0, 1.0, 0.0));
    assert!(d3::contact(&a, &pa, &b, &pb, 0.0).is_some());
}

/// A segment 1e7 long passing 7.01 from a tetrahedron 30 wide (shapes3d
/// fuzz target): GJK's tolerance, relative to the Minkowski difference's
/// size, read the gap as a touch, and EPA measured a depth of 3.5e6 on
/// points a million apart; `intersects` said they overlap.
/// Truth (f64): clipping the segment's line by the four face planes leaves
/// it empty (apart), and the least distance over the segment's end and the
/// tetrahedron's faces, and the tetrahedron's edges and the segment,
/// is 7.0120202 (dense f64 searches, refined three times).
#[test]
fn segment_far_longer_than_a_hull_is_apart_by_its_gap() {
    let pts = [
        d3::Vec3::new(4.5788773e-5, 8.375, -1.375),
        d3::Vec3::new(-15.25, -9.625, 10.125),
        d3::Vec3::new(-14.5, 9.125, -1.375),
        d3::Vec3::new(-15.25, 15.125, 4.875),
    ];
    let a: d3::Shape = d3::ConvexPolyhedron::from_points(&pts).unwrap().into();
    let pa = d3::Pose3::try_new(
        d3::Vec3::new(12.625, 8.0, 13.375),
        d3::Quat::from_xyzw(-0.7186841, -2.3623097e-24, 0.46159384, -0.5200234),
    )
    .unwrap();
    let far = d3::Vec3::new(-15.125, -8.5, 1e7);
    let near = d3::Vec3::new(-9.0, 5.125, 14.625);
    let truth = 7.012_02_f32; // 7.0120202 in f64
    for (p, q) in [(far, near), (near, far)] {
        let b: d3::Shape = d3::Segment::new(p, q).unwrap().into();
        let c: d3::Shape = d3::Capsule::new(p, q, 0.5).unwrap().into();
        let id = d3::Pose3::IDENTITY;
        for (s, r) in [(&b, 0.0), (&c, 0.5)] {
            assert!(!d3::intersects(&a, &pa, s, &id));
            assert!(!d3::intersects(s, &id, &a, &pa));
            assert!(d3::contact(&a, &pa, s, &id, 0.0).is_none());
            for d in [d3::distance(&a, &pa, s, &id), d3::distance(s, &id, &a, &pa)] {
                assert!((d.distance - (truth - r)).abs() < 1e-4, "{d:?}");
                let gap = (d.point_a - d.point_b).length();
                assert!((gap - d.distance).abs() < 1e-3, "{gap} vs {d:?}");
            }
        }
    }
}

/// A segment or capsule far longer than a hull that it crosses keeps the
/// depth of the whole core: a core along z through the cube [-1, 1]³ at
/// x = 0.3, y = -0.1 leaves it soonest across x = 1, by 0.7 plus the radius
/// (closed form), however long the core and wherever its ends are.
#[test]
fn core_far_longer_than_a_hull_it_crosses_keeps_its_depth() {
    let corners: Vec<d3::Vec3> = (0..8)
        .map(|i| {
            d3::Vec3::new(
                [-1.0, 1.0][i & 1],
                [-1.0, 1.0][(i >> 1) & 1],
                [-1.0, 1.0][i >> 2],
            )
        })
        .collect();
    let cube: d3::Shape = d3::ConvexPolyhedron::from_points(&corners).unwrap().into();
    let id = d3::Pose3::IDENTITY;
    for (lo, hi) in [(-1e6f32, 1e6f32), (-3.0, 5e6), (-4e6, 2.5)] {
        let (p, q) = (d3::Vec3::new(0.3, -0.1, lo), d3::Vec3::new(0.3, -0.1, hi));
        for r in [0.0f32, 0.25] {
            let s: d3::Shape = if r == 0.0 {
                d3::Segment::new(p, q).unwrap().into()
            } else {
                d3::Capsule::new(p, q, r).unwrap().into()
            };
            assert!(d3::intersects(&cube, &id, &s, &id));
            let d = d3::distance(&cube, &id, &s, &id);
            assert!(
                (d.distance + 0.7 + r).abs() < 1e-4,
                "{lo}..{hi}, r {r}: {d:?}"
            );
            assert!(d.normal.x > 0.999, "{d:?}");
        }
    }
}

/// A height field with cells 8e-45 by 6.6e-24 and heights of 10, against a
/// ball at its origin (shapes3d fuzz target): its triangles are slivers whose
/// edge products underflow f32, so the triangle's normal came out 1.005
/// long and the ball's projection on a sliver divided 0 by 0 (a NaN contact
/// point). Truth: every vertex lies within 1e-23 of the plane x = 0 through
/// the ball's centre, so the ball is cut through its centre: depth r, along
/// a unit normal.
#[test]
fn ball_on_a_height_field_of_slivers_has_finite_contacts() {
    let heights = vec![
        -9.875, 1e-40, 5.25, -9.875, 1.5, 1e-40, 1e-40, 1e-40, 1e-40, 1e-40, 1e-40, 1e-40,
    ];
    let cell = peng::math::Vec2::new(8e-45, 6.617_444_5e-24);
    let hf: d3::Shape = d3::HeightField::new(4, 3, heights, cell).unwrap().into();
    let r = 0.03125;
    let ball: d3::Shape = d3::Ball::new(r).unwrap().into();
    let id = d3::Pose3::IDENTITY;
    for m in [
        d3::contact(&hf, &id, &ball, &id, 0.0).unwrap(),
        d3::contact(&ball, &id, &hf, &id, 0.0).unwrap().swapped(),
    ] {
        assert!((m.normal.length() - 1.0).abs() < 1e-6, "{m:?}");
        for p in m.points() {
            assert!(p.point_a.is_finite() && p.point_b.is_finite(), "{m:?}");
            assert!((p.depth - r).abs() < 1e-6, "{m:?}");
        }
    }
    let d = d3::distance(&hf, &id, &ball, &id);
    assert!((d.normal.length() - 1.0).abs() < 1e-6, "{d:?}");
    assert!((d.distance + r).abs() < 1e-6, "{d:?}");
}

/// A triangle 1e-23 across has the normal of the same triangle at unit size
/// (the squared length of its cross product is 1e-92, below f32's range).
#[test]
fn tiny_triangles_have_unit_normals() {
    let (a, b, c) = (
        d3::Vec3::new(0.0, 0.0, 0.0),
        d3::Vec3::new(3.0, 1.0, 0.0),
        d3::Vec3::new(1.0, 2.0, 2.0),
    );
    let big = d3::Triangle::new(a, b, c).unwrap().normal().unwrap();
    for s in [1e-10f32, 1e-23, 1e-30] {
        let t = d3::Triangle::new(a * s, b * s, c * s).unwrap();
        let n = t.normal().expect("a triangle of area > 0 has a normal");
        assert!((n - big).length() < 1e-6, "scale {s}: {n:?} vs {big:?}");
    }
}

/// A rectangle (a cuboid with a zero half extent) through a long thin
/// tetrahedron (shapes3d fuzz target): `contact` found none, as the
/// separating-axis test walked the Gauss map of the cuboid, whose faces on
/// either side of the zero extent coincide, and an edge pair reported a
/// separation of 12.75. Truth (f64): the rectangle's point (0.634, 0,
/// 0.03125) lies 0.334 inside all four face planes, so they overlap; the
/// distance query (GJK/EPA) gives a depth of 0.3452.
#[test]
fn rectangle_through_a_thin_tetrahedron_is_in_contact() {
    let v = [
        d3::Vec3::new(-7.875, -12.75, -12.75),
        d3::Vec3::new(-12.75, -12.75, -10.375),
        d3::Vec3::new(8.375, 12.125, 11.25),
        d3::Vec3::new(12.25, 12.25, 12.25),
    ];
    let a: d3::Shape = d3::ConvexPolyhedron::from_points(&v).unwrap().into();
    let id = d3::Pose3::IDENTITY;
    for h in [
        d3::Vec3::new(4.09375, 0.0, 0.03125),
        d3::Vec3::new(0.0, 4.09375, 0.03125),
        d3::Vec3::new(4.09375, 0.03125, 0.0),
    ] {
        let b: d3::Shape = d3::Cuboid::new(h).unwrap().into();
        let d = d3::distance(&a, &id, &b, &id).distance;
        assert!(d < -0.1, "{h:?}: {d}");
        for m in [
            d3::contact(&a, &id, &b, &id, 0.0),
            d3::contact(&b, &id, &a, &id, 0.0),
        ] {
            let m = m.unwrap_or_else(|| panic!("{h:?}: no contact at distance {d}"));
            assert!((m.depth() + d).abs() < 1e-3, "{h:?}: {m:?} vs {d}");
        }
    }
}

/// A cuboid 1.7 wide placed 5e7 from the origin, and a capsule whose core
/// runs from (5e7, 5e7, 5e7) to (1.75, 5e7, 0) (shapes3d fuzz target):
/// `contact` reported touching at the core's end. Solved in the capsule's
/// frame, the cuboid's edges rounded to zero length (f32 spacing 4 at 5e7),
/// so the separating axis (the core crossed with the cuboid's edge) was never
/// tested. Truth: along (-1, 0, 1)/√2 the core spans [-1.24, 0] and the
/// cuboid lies at (5e7 - 100)/√2 ± 1.7, so they are 3.5e7 apart.
#[test]
fn capsule_far_from_a_small_cuboid_at_the_magnitude_limit_is_apart() {
    let a: d3::Shape = d3::Cuboid::new(d3::Vec3::new(1.71875, 0.75, 0.75))
        .unwrap()
        .into();
    let pa = d3::Pose3::try_new(
        d3::Vec3::new(100.0, 5e7, 5e7),
        d3::Quat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let (p, q) = (
        d3::Vec3::splat(5e7),
        d3::Vec3::new(1.75, 5e7, 6.237_123_7e-30),
    );
    let id = d3::Pose3::IDENTITY;
    let truth = (5e7 - 100.0) / std::f64::consts::SQRT_2;
    for b in [
        d3::Shape::from(d3::Capsule::new(p, q, 0.46875).unwrap()),
        d3::Shape::from(d3::Segment::new(p, q).unwrap()),
    ] {
        assert!(d3::contact(&a, &pa, &b, &id, 0.0).is_none());
        assert!(d3::contact(&b, &id, &a, &pa, 0.0).is_none());
        assert!(!d3::intersects(&a, &pa, &b, &id));
        let d = f64::from(d3::distance(&a, &pa, &b, &id).distance);
        assert!((d - truth).abs() < 1e-3 * truth, "{d} vs {truth}");
    }
}

/// A capsule 11.39 beside the tip of a triangle 5e7 long (shapes3d fuzz
/// target): GJK's tolerance, relative to the triangle's size, read the gap
/// as a touch and EPA answered a distance of -6.2e6; `intersects` said they
/// overlap. Truth: 11.393496, the least f64 distance from 20,001 points
/// along the core to the triangle (projection on its plane, or its edges),
/// minus the radius.
#[test]
fn capsule_beside_the_tip_of_a_huge_triangle_is_apart() {
    let a: d3::Shape = d3::Capsule::new(
        d3::Vec3::new(0.0, -3.0, 0.0),
        d3::Vec3::new(0.0, 3.0, 0.0),
        4.8125,
    )
    .unwrap()
    .into();
    let pa = d3::Pose3::try_new(
        d3::Vec3::new(12.25, -10.125, 1.175_494_4e-38),
        d3::Quat::from_xyzw(0.381_735_03, 0.122_155_204, 6.108e-42, -0.916_164_04),
    )
    .unwrap();
    let b: d3::Shape = d3::Triangle::new(
        d3::Vec3::new(1.198_053_3e-5, -5e7, 8.75),
        d3::Vec3::new(-0.125, 9.0, 1.875),
        d3::Vec3::new(1.175_494_4e-38, -5e7, 100.0),
    )
    .unwrap()
    .into();
    let pb = d3::Pose3::try_new(
        d3::Vec3::new(5.75, 1e-40, -15.0),
        d3::Quat::from_xyzw(1.375e-7, -1.0, 1.75e-7, -2.5e-9),
    )
    .unwrap();
    let truth = 11.393_496_f32;
    assert!(!d3::intersects(&a, &pa, &b, &pb));
    assert!(!d3::intersects(&b, &pb, &a, &pa));
    assert!(d3::contact(&a, &pa, &b, &pb, 0.0).is_none());
    for d in [
        d3::distance(&a, &pa, &b, &pb),
        d3::distance(&b, &pb, &a, &pa),
    ] {
        assert!((d.distance - truth).abs() < 1e-4, "{d:?}");
        assert!(
            ((d.point_b - d.point_a).length() - truth).abs() < 1e-3,
            "{d:?}"
        );
    }
}

/// Small shapes 14-17 from the tip of a triangle 5e7 long: GJK's touch
/// tolerance is relative to its simplex, whose far vertices made it 50, so
/// the pairs were taken as touching and EPA answered -5e7 (and `contact`
/// found cylinders and cones touching). A support plane that separates the
/// origin beyond its rounding now certifies them apart. Truth: the same
/// pairs against the triangle 1e5 long, whose tip region is the same to
/// within 1e-3 (distances 14.5, 14.6, 16.2, 14.5, 17.4), within the 5e7
/// triangle's own f32 resolution (spacing 4 there, so within 8).
#[test]
fn small_shapes_beside_the_tip_of_a_huge_triangle_are_apart() {
    let pa = d3::Pose3::try_new(
        d3::Vec3::new(12.25, -10.125, 0.0),
        d3::Quat::from_xyzw(0.381_735_03, 0.122_155_204, 0.0, -0.916_164_04),
    )
    .unwrap();
    let pb = d3::Pose3::try_new(
        d3::Vec3::new(5.75, 0.0, -15.0),
        d3::Quat::from_xyzw(1.375e-7, -1.0, 1.75e-7, -2.5e-9),
    )
    .unwrap();
    let triangle = |k: f32| -> d3::Shape {
        d3::Triangle::new(
            d3::Vec3::new(1.198_053_3e-5, -k, 8.75),
            d3::Vec3::new(-0.125, 9.0, 1.875),
            d3::Vec3::new(0.0, -k, 100.0),
        )
        .unwrap()
        .into()
    };
    let boxed = d3::Cuboid::new(d3::Vec3::new(2.0, 3.0, 1.0)).unwrap();
    let shapes: [d3::Shape; 5] = [
        boxed.into(),
        d3::Cylinder::new(3.0, 2.0).unwrap().into(),
        d3::Cone::new(3.0, 2.0).unwrap().into(),
        d3::ConvexPolyhedron::from_points(&boxed.vertices())
            .unwrap()
            .into(),
        d3::Triangle::new(d3::Vec3::ZERO, d3::Vec3::X, d3::Vec3::Y)
            .unwrap()
            .into(),
    ];
    let (near, huge) = (triangle(1e5), triangle(5e7));
    for a in &shapes {
        let truth = d3::distance(a, &pa, &near, &pb).distance;
        assert!(truth > 14.0, "{a:?}: {truth}");
        let d = d3::distance(a, &pa, &huge, &pb).distance;
        assert!((d - truth).abs() < 8.0, "{a:?}: {d} vs {truth}");
        assert!(!d3::intersects(a, &pa, &huge, &pb), "{a:?}");
        assert!(d3::contact(a, &pa, &huge, &pb, 0.0).is_none(), "{a:?}");
    }
}

/// A point-like segment (3.5e-36 long) at the origin, in the plane of a
/// needle triangle (edges 1.6e-36 and 19.7) whose tip is 19.7 away along its
/// long edge (shapes3d fuzz target): `contact` reported touching. The axis
/// that separates them in the plane is the in-plane normal of the needle's
/// short edge, whose cross product with the face normal underflowed to zero.
/// Truth: the distance from the origin to the tip at (11.375, 11.375,
/// 11.375), 19.702.
#[test]
fn point_beyond_the_tip_of_a_needle_triangle_in_its_plane_is_apart() {
    let a: d3::Shape = d3::Segment::new(d3::Vec3::new(3.475_921_5e-36, 0.0, 0.0), d3::Vec3::ZERO)
        .unwrap()
        .into();
    let b: d3::Shape = d3::Triangle::new(
        d3::Vec3::new(1.551_862_6e-36, 0.0, 0.0),
        d3::Vec3::ZERO,
        d3::Vec3::splat(11.375),
    )
    .unwrap()
    .into();
    let pb = d3::Pose3::try_new(
        d3::Vec3::splat(11.375),
        d3::Quat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let id = d3::Pose3::IDENTITY;
    assert!(d3::contact(&a, &id, &b, &pb, 0.0).is_none());
    assert!(d3::contact(&b, &pb, &a, &id, 0.0).is_none());
    let d = d3::distance(&a, &id, &b, &pb).distance;
    assert!((d - 11.375 * 3f32.sqrt()).abs() < 1e-4, "{d}");
}

/// The least overlap `h_a(n) + h_b(−n)` (support functions, f64) over the
/// unit directions `n = cos θ·u + sin θ·v` of the circle spanned by the unit
/// vectors `u ⟂ v`: the best of 100,000 angles, refined by bisecting steps
/// down to 1e-13 rad. Returns the overlap and its direction.
fn least_overlap_on_circle(
    ha: &dyn Fn([f64; 3]) -> f64,
    hb: &dyn Fn([f64; 3]) -> f64,
    u: [f64; 3],
    v: [f64; 3],
) -> (f64, [f64; 3]) {
    let dir = |th: f64| [0, 1, 2].map(|i| th.cos() * u[i] + th.sin() * v[i]);
    let f = |th: f64| {
        let n = dir(th);
        ha(n) + hb(n.map(|c| -c))
    };
    let count = 100_000;
    let step0 = std::f64::consts::TAU / count as f64;
    let mut best = (0..count)
        .map(|i| i as f64 * step0)
        .map(|th| (f(th), th))
        .fold((f64::INFINITY, 0.0), |b, c| if c.0 < b.0 { c } else { b });
    let mut step = step0;
    while step > 1e-13 {
        for th in [best.1 - step, best.1 + step] {
            if f(th) < best.0 {
                best = (f(th), th);
            }
        }
        step *= 0.5;
    }
    (best.0, dir(best.1))
}

/// A flat cone (radius 10.125) through a cuboid 2e7 long, 9.8 wide and 0.81
/// thick, turned (shapes3d fuzz target): GJK/EPA on the whole cuboid
/// answered a distance of -6.1e6, and no contact. The depth is the least
/// overlap of their support functions over all directions. Tilting a
/// direction by `c` towards the cuboid's long axis adds `|c|·1e7` to the
/// cuboid's support and changes the rest (sizes under 30) by at most
/// `30·|c|`, so the least overlap lies on the circle square to that axis:
/// 1.20210 there, searched in f64. The answers must match it and their
/// normal must be that direction.
#[test]
fn flat_cone_through_a_long_cuboid_overlaps_by_its_depth() {
    let (hh, r) = (0.40625f32, 10.125f32);
    let h = [1e7f32, 4.90625, 0.40625];
    let t = [13.125f32, -2.5, 5.0];
    let q = [0.2758581f32, 0.7058722, 0.6409644, 0.1217021];
    let a: d3::Shape = d3::Cone::new(hh, r).unwrap().into();
    let b: d3::Shape = d3::Cuboid::new(d3::Vec3::from(h)).unwrap().into();
    let pa = d3::Pose3::IDENTITY;
    let pb = d3::Pose3::try_new(d3::Vec3::from(t), d3::Quat::from_array(q)).unwrap();

    let (hh, r) = (f64::from(hh), f64::from(r));
    let cone = move |n: [f64; 3]| (n[1] * hh).max(-hh * n[1] + r * n[0].hypot(n[2]));
    let qd = q.map(f64::from);
    let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]].map(|e| rotate_f64(qd, e));
    let cuboid = move |n: [f64; 3]| {
        let dot = |u: [f64; 3]| u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
        dot(t.map(f64::from))
            + (0..3)
                .map(|i| dot(axes[i]).abs() * f64::from(h[i]))
                .sum::<f64>()
    };
    let (depth, normal) = least_overlap_on_circle(&cone, &cuboid, axes[1], axes[2]);
    assert!((depth - 1.20210).abs() < 1e-4, "truth {depth}");

    for (d, n) in [
        {
            let d = d3::distance(&a, &pa, &b, &pb);
            (d.distance, d.normal)
        },
        {
            let d = d3::distance(&b, &pb, &a, &pa);
            (d.distance, -d.normal)
        },
    ] {
        assert!(
            (f64::from(-d) - depth).abs() < 1e-4 * depth,
            "{d} vs {depth}"
        );
        let n = n.to_array().map(f64::from);
        let cos = n[0] * normal[0] + n[1] * normal[1] + n[2] * normal[2];
        assert!(cos > 1.0 - 1e-6, "normal {n:?} vs {normal:?}");
    }
    for m in [
        d3::contact(&a, &pa, &b, &pb, 0.0),
        d3::contact(&b, &pb, &a, &pa, 0.0),
    ] {
        let m = m.expect("contact");
        let deepest = m.points().iter().map(|p| p.depth).fold(0.0f32, f32::max);
        assert!(
            (f64::from(deepest) - depth).abs() < 1e-3 * depth,
            "{deepest} vs {depth}"
        );
    }
    assert!(d3::intersects(&a, &pa, &b, &pb));
}

/// A compound holding a triangle 5e7 wide, spinning at 10 rad/s, 1000 from a
/// ball (the shapes3d fuzz target's timeout, simplified: a height field and
/// a compound of meshes 5e7 wide, 1.5 s for one nonlinear cast). Conservative
/// advancement bounds the approach by the speed of the farthest point, about
/// 5e8, so each step advances about 1000 / 5e8 = 2e-6 while the distance
/// barely changes; and each step is a distance query over the compound's
/// parts. The cast must stop undecided after its composite budget of steps:
/// at a time near 256 steps' advance (4,000 steps reached 16 times further).
#[test]
fn spinning_compound_with_a_huge_triangle_stops_within_its_step_budget() {
    let huge = d3::TriMesh::new(
        vec![
            d3::Vec3::new(0.0, 0.0, 0.0),
            d3::Vec3::new(5e7, 0.0, 0.0),
            d3::Vec3::new(0.0, 5e7, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let compound = d3::Compound::new(vec![
        (d3::Pose3::IDENTITY, huge.into()),
        (
            d3::Pose3::from_translation(d3::Vec3::new(0.0, 0.0, 2.0)),
            d3::Cuboid::new(d3::Vec3::splat(0.5)).unwrap().into(),
        ),
    ])
    .unwrap();
    let b: d3::Shape = compound.into();
    let a: d3::Shape = d3::Ball::new(1.0).unwrap().into();
    let ma = d3::Motion3::fixed(d3::Pose3::from_translation(d3::Vec3::new(0.0, 0.0, 1003.5)));
    let mb = d3::Motion3 {
        angvel: d3::Vec3::new(0.0, 10.0, 0.0),
        ..d3::Motion3::fixed(d3::Pose3::IDENTITY)
    };
    let options = d3::CastOptions::default();
    let d0 = d3::distance(&a, &ma.start, &b, &mb.start).distance;
    assert!((d0 - 1000.0).abs() < 1e-2, "{d0}");
    let h = d3::cast_nonlinear(&a, &ma, &b, &mb, &options).expect("undecided");
    assert_eq!(h.status, d3::CastStatus::Undecided, "{h:?}");
    // The farthest point turns at 10 · 5e7 · √2 at most and 10 · 5e7 at
    // least: each step advances between 1000 / 7.1e8 and 1000 / 5e8. (The
    // ball's first contact, with the triangle turned on end, is near
    // t = 0.47.)
    let per_step = (1000.0 / (10.0 * 5e7 * 2f32.sqrt()), 1000.0 / (10.0 * 5e7));
    let budget = peng::ccd::MAX_COMPOSITE_ADVANCE_STEPS as f32;
    assert!(
        h.time >= 0.5 * budget * per_step.0 && h.time <= 1.5 * budget * per_step.1,
        "time {} for {budget} steps of {per_step:?}",
        h.time
    );
}

/// A ball 6.375 from a flat cone (height 0: a disk of radius 0.03125), its
/// centre in the disk's plane (shapes3d fuzz target): the contact's
/// projection took every point of that plane for inside the cone (base and
/// slant are the one plane there) and reported a contact. Truth: the disk's
/// rim is 6.625 − 0.03125 from the centre, so the gap is that minus the
/// radius 0.21875.
#[test]
fn ball_in_the_plane_of_a_flat_cone_is_apart() {
    let a: d3::Shape = d3::Ball::new(0.21875).unwrap().into();
    let b: d3::Shape = d3::Cone::new(0.0, 0.03125).unwrap().into();
    let pa = d3::Pose3::IDENTITY;
    let pb = d3::Pose3::try_new(
        d3::Vec3::new(-6.625, 0.0, 0.0),
        d3::Quat::from_xyzw(0.5, 0.5, 0.5, 0.5),
    )
    .unwrap();
    let truth = 6.625 - 0.03125 - 0.21875;
    assert!(d3::contact(&a, &pa, &b, &pb, 0.0).is_none());
    assert!(d3::contact(&b, &pb, &a, &pa, 0.0).is_none());
    assert!(!d3::intersects(&a, &pa, &b, &pb));
    let d = d3::distance(&a, &pa, &b, &pb).distance;
    assert!((f64::from(d) - truth).abs() < 1e-5, "{d} vs {truth}");
    // Within the prediction distance the contact is there, at the gap.
    let m = d3::contact(&a, &pa, &b, &pb, 7.0).expect("within the prediction");
    let gap = -m.points()[0].depth;
    assert!((f64::from(gap) - truth).abs() < 1e-5, "{gap} vs {truth}");
}

/// A hull 1e-31 across, 2.875 below a capsule's core of radius 2.0625
/// (shapes3d fuzz target): the separating-axis test's edge axes are cross
/// products of its edges with the core, whose squared lengths (1e-59)
/// underflow f32, so the axis that separates them was lost and a contact
/// 2.06 deep was reported. Truth: every point of the hull lies within 1.1e-31
/// of the hull's placement, so the gap is 2.875 − 2.0625 = 0.8125 to 1e-30.
#[test]
fn hull_1e_31_across_below_a_capsule_is_apart() {
    let v = [
        d3::Vec3::new(4.3218254e-31, 3.929138e-31, 1e-40),
        d3::Vec3::new(1e-40, 5.9961275e-36, 1e-40),
        d3::Vec3::new(-0.0, -0.0, 1e-40),
        d3::Vec3::new(1e-40, 1e-40, 1.0862244e-31),
    ];
    let a: d3::Shape = d3::ConvexPolyhedron::from_points(&v).unwrap().into();
    let pa = d3::Pose3::try_new(
        d3::Vec3::new(1e-40, 1e-40, 2.875),
        d3::Quat::from_xyzw(1.0, 0.0, 0.0, 0.0),
    )
    .unwrap();
    let (p, q) = (
        d3::Vec3::new(0.0, -3.75, 0.0),
        d3::Vec3::new(0.0, 3.75, 0.0),
    );
    let id = d3::Pose3::IDENTITY;
    for (b, r) in [
        (
            d3::Shape::from(d3::Capsule::new(p, q, 2.0625).unwrap()),
            2.0625,
        ),
        (d3::Shape::from(d3::Segment::new(p, q).unwrap()), 0.0),
    ] {
        let gap = 2.875 - r;
        assert!(d3::contact(&a, &pa, &b, &id, 0.0).is_none());
        assert!(d3::contact(&b, &id, &a, &pa, 0.0).is_none());
        assert!(!d3::intersects(&a, &pa, &b, &id));
        let d = d3::distance(&a, &pa, &b, &id).distance;
        assert!((f64::from(d) - gap).abs() < 1e-6, "{d} vs {gap}");
        let m = d3::contact(&a, &pa, &b, &id, 3.0).expect("within the prediction");
        let got = -m.points()[0].depth;
        assert!((f64::from(got) - gap).abs() < 1e-6, "{got} vs {gap}");
        assert!(m.normal.z < -0.999, "normal {}", m.normal);
    }
}

/// Two hulls, each with one vertex 7.2e5 from the others, the needles side by
/// side 0.342 apart (shapes3d fuzz target). GJK called them touching (a gap
/// within its 1e-6 relative tolerance), and EPA, starting from a sliver
/// triangle (one far vertex, two 20 apart), built its plane with an f32
/// cross product that tilted it 1e-4 rad: the origin seemed 83 units off
/// the plane, the tetrahedron came out degenerate and the depth read
/// 494,722. Truth (f64): the largest separation `min b·u − max a·u` over
/// unit `u`, by a random search refined to 1e-16 steps, is 0.342007 along
/// (−0.69380, 0.72017, −9.5e-6); the answer's own normal must separate by
/// as much, computed in f64 from the posed vertices.
#[test]
fn needle_hulls_side_by_side_are_apart() {
    let va = [
        [-13.625, -13.625, -13.625],
        [-9.0, 15.125, -3.125],
        [14.0, -6.875, 10.25],
        [1.625, 4.375, 8.5],
        [-14.5, -722699.9, 10.25],
        [12.625, 9.5, -1.375],
        [-9.625, 14.5, -15.25],
    ];
    let vb = [
        [-1e-45, -3.125, 14.0],
        [-14.5, 7.625, 12.625],
        [-9.875, -14.5, -722699.9],
        [-10.25, 6.75, 2.2100415],
    ];
    let qa = [0.0, -0.7281791, -0.5006231, -0.46811512];
    let ta = [9.5, -1.375, 14.125];
    let qb = [-1.0, 1.4182928e-5, 2.2485128e-6, 5.7077636e-6];
    let tb = [1.1754944e-38, 8.5, -14.5];
    let hull = |v: &[[f32; 3]]| -> d3::Shape {
        let p: Vec<d3::Vec3> = v.iter().map(|&c| c.into()).collect();
        d3::ConvexPolyhedron::from_points(&p).unwrap().into()
    };
    let pose = |q: [f32; 4], t: [f32; 3]| {
        d3::Pose3::try_new(t.into(), d3::Quat::from_xyzw(q[0], q[1], q[2], q[3])).unwrap()
    };
    let posed = |v: &[[f32; 3]], q: [f32; 4], t: [f32; 3]| -> Vec<[f64; 3]> {
        v.iter()
            .map(|p| {
                let r = rotate_f64(q.map(f64::from), p.map(f64::from));
                [0, 1, 2].map(|i| r[i] + f64::from(t[i]))
            })
            .collect()
    };
    let (wa, wb) = (posed(&va, qa, ta), posed(&vb, qb, tb));
    let separation = |n: d3::Vec3| {
        let n = [n.x, n.y, n.z].map(f64::from);
        let h = |p: &[f64; 3]| p[0] * n[0] + p[1] * n[1] + p[2] * n[2];
        let len = h(&n).sqrt();
        let max_a = wa.iter().map(h).fold(f64::MIN, f64::max);
        let min_b = wb.iter().map(h).fold(f64::MAX, f64::min);
        (min_b - max_a) / len
    };
    let (a, b) = (hull(&va), hull(&vb));
    let (pa, pb) = (pose(qa, ta), pose(qb, tb));
    let truth = 0.342007;
    for (x, px, y, py, sign) in [(&a, &pa, &b, &pb, 1.0), (&b, &pb, &a, &pa, -1.0)] {
        let d = d3::distance(x, px, y, py);
        // f32 coordinates 7.2e5 from the origin are 0.06 apart.
        assert!((f64::from(d.distance) - truth).abs() < 0.1, "{d:?}");
        let certified = separation(d.normal * sign);
        assert!(certified > truth - 0.1, "{d:?} separates by {certified}");
        assert!(d3::contact(x, px, y, py, 0.0).is_none());
    }
}
