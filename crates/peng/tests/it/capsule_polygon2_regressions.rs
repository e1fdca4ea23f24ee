//! Regression cases of the 2D capsule–polygon `contact`, found failing on
//! fresh seeds of the differential test against parry (`diff2d
//! capsule_polygon`), with a truth computed here in f64 from the same f32
//! inputs (point–segment distances, no peng query).

use glam::DVec2;
use peng::d2::*;

/// A pose from its f32 fields, as printed by the failing run.
fn pose(t: [f32; 2], cos: f32, sin: f32) -> Pose2 {
    Pose2 {
        translation: Vec2::from(t),
        rotation: Rot2 { cos, sin },
    }
}

/// A local point of `p` into world space, in f64.
fn to_world(p: &Pose2, v: Vec2) -> DVec2 {
    let (c, s) = (p.rotation.cos as f64, p.rotation.sin as f64);
    let v = v.as_dvec2();
    DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + p.translation.as_dvec2()
}

/// The corners of a rectangle of half extents `h` at pose `p`, in world
/// space, counter-clockwise from `(+x, +y)`, in f64.
fn rect_corners(p: &Pose2, h: Vec2) -> Vec<DVec2> {
    [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|&(x, y)| to_world(p, Vec2::new(x * h.x, y * h.y)))
        .collect()
}

/// The point of segment `a b` closest to `x`.
fn on_segment(x: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let d = b - a;
    a + d * ((x - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
}

/// Distance from segment `s` to a convex polygon `p` it does not cross, with
/// the unit direction from the segment to the polygon: the least of the
/// segment's ends to the polygon's edges and the polygon's vertices to the
/// segment (two disjoint convex polygons are closest at a vertex of one).
fn segment_polygon_f64(s: [DVec2; 2], p: &[DVec2]) -> (f64, DVec2) {
    let mut best = (f64::INFINITY, DVec2::ZERO);
    let mut take = |from: DVec2, to: DVec2| {
        let d = to - from;
        if d.length() < best.0 {
            best = (d.length(), d.normalize());
        }
    };
    for (i, &v) in p.iter().enumerate() {
        let w = p[(i + 1) % p.len()];
        for x in s {
            take(x, on_segment(x, v, w));
        }
        take(on_segment(v, s[0], s[1]), v);
    }
    best
}

/// The separation of the capsule (core `s`, radius `r`) and the polygon `p`
/// along `n` (from the capsule to the polygon): `-g(n)` of their support
/// functions, at most the signed distance, equal to it for the true normal.
fn separation(s: [DVec2; 2], r: f64, p: &[DVec2], n: DVec2) -> f64 {
    let n = n.normalize();
    let hi = n.dot(s[0]).max(n.dot(s[1])) + r;
    let lo = p.iter().map(|v| n.dot(*v)).fold(f64::INFINITY, f64::min);
    lo - hi
}

/// A capsule whose end is 0.194 from an edge of an 11-gon whose neighbour
/// edge is 3e-5 rad off it (their f32 normals face the closest direction
/// equally): `contact` clipped the capsule against the neighbour face, which
/// does not hold the closest point, and its deepest point was 1.9e-4 too
/// shallow (0.0605383 against 0.0607296).
#[test]
fn nearly_collinear_polygon_edges_keep_the_deepest_point() {
    let cap = Capsule::new(
        Vec2::new(0.049_217_805, 0.128_269_73),
        Vec2::new(-0.391_903_22, -0.263_123_72),
        0.254_748_5,
    )
    .unwrap();
    let pa = pose([0.487_040_04, 2.617_228_5], -0.665_976_17, -0.745_973);
    let verts = [
        [-1.471_196_4, 0.440_012_07],
        [-1.457_114_5, 0.117_444_396],
        [-1.303_677_7, -0.238_403_96],
        [-0.621_684_73, -0.434_244_96],
        [0.499_310_52, -0.691_391_8],
        [0.903_867_3, -0.586_659_5],
        [1.675_960_2, -0.072_003_29],
        [0.810_069_44, 0.528_671_4],
        [0.063_846_29, 0.603_147_4],
        [-0.202_528_7, 0.575_609_27],
        [-1.403_637_5, 0.451_400_46],
    ]
    .map(Vec2::from);
    let poly = ConvexPolygon::from_hull_unchecked(verts.to_vec());
    let pb = pose([-0.237_088_98, 2.910_107_1], -0.110_891_85, -0.993_832_47);

    let s = [to_world(&pa, cap.a()), to_world(&pa, cap.b())];
    let p: Vec<DVec2> = verts.iter().map(|v| to_world(&pb, *v)).collect();
    let r = cap.radius() as f64;
    let (gap, n) = segment_polygon_f64(s, &p);
    // The cores are apart: the gap is the separation along its own direction.
    assert!(
        (separation(s, 0.0, &p, n) - gap).abs() < 1e-9,
        "cores apart"
    );
    let truth = gap - r;

    let (sa, sb): (Shape, Shape) = (cap.into(), poly.into());
    let m = contact(&sa, &pa, &sb, &pb, 0.0).expect("overlapping");
    let got = m.normal.as_dvec2();
    let depth = m.points().iter().map(|q| q.depth).fold(f32::MIN, f32::max) as f64;
    assert!(
        (depth + truth).abs() < 1e-5,
        "deepest point {depth} vs {}",
        -truth
    );
    let angle = got.angle_to(n).abs();
    assert!(angle < 1e-4, "normal {got} vs {n}: {angle} rad");
    let sep = separation(s, r, &p, got);
    assert!((sep - truth).abs() < 1e-5, "separation {sep} vs {truth}");
    let d = distance(&sa, &pa, &sb, &pb);
    assert!((d.distance as f64 - truth).abs() < 1e-5, "{d:?} vs {truth}");
}

/// A triangle's lowest vertex 0.5 above a capsule's core end and 4e-5
/// beyond it, the triangle's edge from it rising at slope 2 back over the
/// core: the closest direction is 8e-5 rad off the core's normal, so the face
/// contact on the core's side applies, but clipped to the core's end the
/// triangle loses its vertex and the clipped point is 8e-5 shallower than the
/// vertex against the core's end. Truth: the vertex to the end, in f64.
#[test]
fn face_contact_beside_a_core_end_keeps_the_deepest_point() {
    let (dx, r) = (4.0e-5f32, 0.6f32);
    let cap = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), r).unwrap();
    let v = Vec2::new(1.0 + dx, 0.5);
    let tri = [v, v + Vec2::new(0.5, 2.0), v + Vec2::new(-1.0, 2.0)];
    let poly = ConvexPolygon::from_hull_unchecked(tri.to_vec());
    let id = Pose2::IDENTITY;

    let s = [cap.a().as_dvec2(), cap.b().as_dvec2()];
    let p: Vec<DVec2> = tri.iter().map(|v| v.as_dvec2()).collect();
    let (gap, _) = segment_polygon_f64(s, &p);
    assert!(
        (gap - (p[0] - s[1]).length()).abs() < 1e-12,
        "vertex to end"
    );
    let truth = gap - r as f64;

    let (sa, sb): (Shape, Shape) = (cap.into(), poly.into());
    for (m, sign) in [
        (contact(&sa, &id, &sb, &id, 0.0).expect("overlapping"), 1.0),
        (contact(&sb, &id, &sa, &id, 0.0).expect("overlapping"), -1.0),
    ] {
        let got = m.normal.as_dvec2() * sign;
        let depth = m.points().iter().map(|q| q.depth).fold(f32::MIN, f32::max) as f64;
        assert!(
            (depth + truth).abs() < 1e-5,
            "deepest point {depth} vs {}",
            -truth
        );
        let sep = separation(s, r as f64, &p, got);
        assert!((sep - truth).abs() < 1e-5, "separation {sep} vs {truth}");
    }
}

/// A capsule whose core's end lies on a rectangle's face (soak seed 830013,
/// `diff2d capsule_rect` pair #15079): GJK found the cores 1.2e-7 apart, a
/// distance within rounding of a touch, and the direction between its two
/// nearly equal closest points was reversed: `distance()` reported the
/// depth with a normal along which the shapes overlap by 2.47. Truth in
/// f64: the core end's height over the face (at most rounding), so the
/// depth is the radius and the normal is the face's.
#[test]
fn core_end_on_a_rectangles_face_keeps_the_faces_normal() {
    let cap = Capsule::new(
        Vec2::new(0.683_545_23, 0.863_981_7),
        Vec2::new(-0.634_045_7, -0.799_740_9),
        0.661_979_85,
    )
    .unwrap();
    let pa = pose([-1.783_896_4, -0.711_200_24], -0.250_733_2, -0.968_056_26);
    let h = Vec2::new(1.612_160_7, 0.363_284_14);
    let rect = Rect::new(h).unwrap();
    let pb = pose([-2.846_604_8, 0.836_390_6], -0.111_060_314, 0.993_813_7);

    let s = [to_world(&pa, cap.a()), to_world(&pa, cap.b())];
    let p = rect_corners(&pb, h);
    let r = cap.radius() as f64;
    // The face y = -h in B's frame, its outward normal, and the core end's
    // height over it.
    let face_n = -to_world(
        &Pose2 {
            translation: Vec2::ZERO,
            ..pb
        },
        Vec2::Y,
    );
    let height = (s[1] - p[2]).dot(face_n);
    assert!(height.abs() < 1e-7, "end on the face: {height}");
    let truth = -r;
    // From the capsule to the rectangle: against the face's outward normal.
    let n = -face_n;
    assert!((separation(s, r, &p, n) - truth).abs() < 1e-6);

    let (sa, sb): (Shape, Shape) = (cap.into(), rect.into());
    for (d, normal) in [
        {
            let d = distance(&sa, &pa, &sb, &pb);
            (d.distance, d.normal)
        },
        {
            let d = distance(&sb, &pb, &sa, &pa);
            (d.distance, -d.normal)
        },
    ] {
        assert!((d as f64 - truth).abs() < 1e-5, "{d} vs {truth}");
        let got = normal.as_dvec2();
        let sep = separation(s, r, &p, got);
        assert!((sep - truth).abs() < 1e-5, "normal {got}: separation {sep}");
        assert!(got.angle_to(n).abs() < 1e-4, "normal {got} vs {n}");
    }
    let m = contact(&sa, &pa, &sb, &pb, 0.0).expect("overlapping");
    assert!(m.normal.as_dvec2().angle_to(n).abs() < 1e-4);
}

/// A capsule lying along a rectangle's face, its core 6.4e-5 rad off the
/// face and 0.033 from it at the nearer end (soak seed 860396, `diff2d
/// capsule_rect` pair #23890). The closest point lies on the face, but the
/// face contact took the capsule's core as its reference: the two normals'
/// cosines are equal in f32 (they differ by 2e-9). Along the core's normal
/// the shapes overlap 2e-4 more than the depth. Truth in f64: the distance
/// between the core and the rectangle, less the radius.
#[test]
fn capsule_along_a_rectangles_face_takes_the_faces_normal() {
    let h = Vec2::new(0.997_103_3, 1.566_357_5);
    let rect = Rect::new(h).unwrap();
    let pa = pose([-1.597_879_9, 1.544_449_3], 0.407_518_5, 0.913_197);
    let cap = Capsule::new(
        Vec2::new(-0.904_150_2, 0.371_367_3),
        Vec2::new(0.784_909_55, -0.335_607_02),
        0.373_030_7,
    )
    .unwrap();
    let pb = pose([-3.457_653, 3.495_855_3], -0.999_726_36, 0.023_392_84);

    let s = [to_world(&pb, cap.a()), to_world(&pb, cap.b())];
    let p = rect_corners(&pa, h);
    let r = cap.radius() as f64;
    let (gap, n) = segment_polygon_f64(s, &p);
    assert!(
        (separation(s, 0.0, &p, n) - gap).abs() < 1e-9,
        "cores apart"
    );
    let truth = gap - r;
    assert!(truth < -0.3, "deep: {truth}");

    let (sa, sb): (Shape, Shape) = (rect.into(), cap.into());
    for (m, sign) in [
        (contact(&sa, &pa, &sb, &pb, 0.0).expect("overlapping"), -1.0),
        (contact(&sb, &pb, &sa, &pa, 0.0).expect("overlapping"), 1.0),
    ] {
        // The normal from the capsule to the rectangle.
        let got = m.normal.as_dvec2() * sign;
        let depth = m.points().iter().map(|q| q.depth).fold(f32::MIN, f32::max) as f64;
        assert!(
            (depth + truth).abs() < 1e-5,
            "deepest {depth} vs {}",
            -truth
        );
        let sep = separation(s, r, &p, got);
        assert!(
            (sep - truth).abs() < 2e-5,
            "normal {got}: separation {sep} vs {truth}"
        );
        assert!(got.angle_to(n).abs() < 1e-5, "normal {got} vs {n}");
    }
}
