//! Regression cases of the 2D face contact's incident edge and its clipping,
//! found failing on fresh seeds of the differential test against parry (`diff2d`), with the
//! depth computed here in f64 from the same f32 inputs (the separating-axis
//! overlap over both polygons' edge normals, no peng query).

use glam::DVec2;
use peng::d2::*;

/// A local point into world space, in f64.
fn to_world(p: &Pose2, v: Vec2) -> DVec2 {
    let (c, s) = (p.rotation.cos as f64, p.rotation.sin as f64);
    let v = v.as_dvec2();
    DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + p.translation.as_dvec2()
}

/// The overlap of two convex polygons (counter-clockwise) along `n`, from
/// A to B: how far B's lowest point lies below A's highest along `n`.
fn overlap_along(a: &[DVec2], b: &[DVec2], n: DVec2) -> f64 {
    let top_a = a.iter().map(|v| v.dot(n)).fold(f64::MIN, f64::max);
    let low_b = b.iter().map(|v| v.dot(n)).fold(f64::MAX, f64::min);
    top_a - low_b
}

/// The penetration depth of two overlapping convex polygons: the least
/// overlap over every edge normal of both (the separating-axis theorem).
fn depth_f64(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut least = f64::INFINITY;
    for (p, q, sign) in [(a, b, 1.0), (b, a, -1.0)] {
        for i in 0..p.len() {
            let e = p[(i + 1) % p.len()] - p[i];
            let n = DVec2::new(e.y, -e.x).normalize() * sign;
            let (x, y) = if sign > 0.0 { (p, q) } else { (q, p) };
            least = least.min(overlap_along(x, y, n));
        }
    }
    least
}

/// A rectangle over a 10-gon whose edges 2 and 3 are 3.8e-5 rad apart and
/// face the rectangle's face (soak seed 860442, `diff2d rect_polygon` pair
/// #12760). The incident edge was taken as the one whose normal is most
/// anti-parallel to the face's; the two normals tie to rounding, edge 3
/// was taken, and the polygon's deepest vertex (the start of edge 2) was
/// left out: the manifold's deepest point was 3.6e-3 short of the depth
/// `distance` reports. The incident edge is now one of the two at the
/// deepest vertex.
#[test]
fn nearly_collinear_incident_edges_keep_the_deepest_vertex() {
    let h = Vec2::new(0.697_471, 1.608_062_3);
    let rect = Rect::new(h).unwrap();
    let pa = Pose2 {
        translation: Vec2::new(3.761_151_8, -0.079_435_825),
        rotation: Rot2 {
            cos: 0.024_278_715,
            sin: -0.999_705_26,
        },
    };
    let verts = [
        [-0.934_917_6, 0.778_804_7],
        [-0.924_385_6, 0.035_661_07],
        [-0.314_746_5, -0.751_498_8],
        [0.191_316_16, -0.767_096_6],
        [0.915_893_26, -0.789_402],
        [1.021_224_4, 0.246_209_74],
        [0.551_601_4, 0.903_596_64],
        [0.393_787_12, 0.923_473_2],
        [-0.640_200_73, 0.884_843],
        [-0.778_602_4, 0.873_234_9],
    ]
    .map(Vec2::from);
    let poly = ConvexPolygon::from_hull_unchecked(verts.to_vec());
    let pb = Pose2 {
        translation: Vec2::new(1.687_018_9, -0.714_805),
        rotation: Rot2 {
            cos: -0.050_018_813,
            sin: 0.998_748_3,
        },
    };
    let corners = [(1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)];
    let a: Vec<DVec2> = corners
        .iter()
        .map(|&(x, y)| to_world(&pa, Vec2::new(x * h.x, y * h.y)))
        .collect();
    let b: Vec<DVec2> = verts.iter().map(|v| to_world(&pb, *v)).collect();
    assert!(depth_f64(&a, &b) > 0.28);
    assert_depth(&rect.into(), &pa, &poly.into(), &pb, &a, &b);
}

/// The manifold's deepest point, and its normal's overlap, against the f64
/// depth of polygons `a` and `b` (world corners) for shapes `sa` at `pa` and
/// `sb` at `pb`, both ways round; and `distance`.
fn assert_depth(sa: &Shape, pa: &Pose2, sb: &Shape, pb: &Pose2, a: &[DVec2], b: &[DVec2]) {
    let depth = depth_f64(a, b);
    for (m, sign) in [
        (contact(sa, pa, sb, pb, 0.0).expect("overlapping"), 1.0),
        (contact(sb, pb, sa, pa, 0.0).expect("overlapping"), -1.0),
    ] {
        let deepest = m.points().iter().map(|p| p.depth).fold(f32::MIN, f32::max) as f64;
        assert!(
            (deepest - depth).abs() < 1e-5,
            "deepest {deepest} vs {depth}"
        );
        let n = m.normal.as_dvec2() * sign;
        let along = overlap_along(a, b, n);
        assert!((along - depth).abs() < 1e-5, "overlap {along} along {n}");
    }
    let d = distance(sa, pa, sb, pb);
    assert!((d.distance as f64 + depth).abs() < 1e-5, "{d:?} vs {depth}");
}

/// A rectangle's corner deep in a sliver triangle whose two long edges are
/// 2.6e-4 rad apart (soak seed 860605, `diff2d rect_triangle` pair #10807).
/// The triangle's face of least penetration is the shorter long edge, and
/// the rectangle's corner lies past its end, beside the other one: the side
/// plane at that end clipped the corner off, and the manifold's deepest
/// point was 0.0835 deep where the depth is 0.1166. The corner is now kept.
#[test]
fn a_corner_past_the_reference_face_keeps_its_depth() {
    let h = Vec2::new(0.453_103_6, 1.975_112_7);
    let pa = Pose2 {
        translation: Vec2::new(3.319_186_2, 2.322_570_8),
        rotation: Rot2 {
            cos: 0.236_267_78,
            sin: -0.971_688,
        },
    };
    let verts = [
        [0.508_422_9, 0.508_648_5],
        [0.169_004_1, -1.793_233_8],
        [0.624_325_93, 1.294_683],
    ]
    .map(Vec2::from);
    let pb = Pose2 {
        translation: Vec2::new(1.850_020_3, 2.736_864),
        rotation: Rot2 {
            cos: -0.992_764_95,
            sin: -0.120_073_92,
        },
    };
    let corners = [(1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)];
    let a: Vec<DVec2> = corners
        .iter()
        .map(|&(x, y)| to_world(&pa, Vec2::new(x * h.x, y * h.y)))
        .collect();
    // Counter-clockwise for the f64 reference.
    let mut b: Vec<DVec2> = verts.iter().map(|v| to_world(&pb, *v)).collect();
    let (e, f) = (b[1] - b[0], b[2] - b[0]);
    if e.x * f.y - e.y * f.x < 0.0 {
        b.swap(1, 2);
    }
    assert!(depth_f64(&a, &b) > 0.11);
    let tri = Triangle::new(verts[0], verts[1], verts[2]).unwrap();
    let rect = Rect::new(h).unwrap();
    assert_depth(&rect.into(), &pa, &tri.into(), &pb, &a, &b);
}

/// A segment's end deep in an 11-gon whose edges 4 and 5 are 1.1e-5 rad
/// apart (soak seed 860638, `diff2d segment_polygon` pair #4933): the same
/// cut by a side plane, the manifold 5.1e-3 short of the depth.
#[test]
fn a_segment_end_past_the_reference_face_keeps_its_depth() {
    let verts = [
        [-0.817_246_3, 0.084_634_15],
        [-0.761_184_5, -0.057_350_438],
        [-0.400_611_6, -0.817_154_65],
        [0.053_051_345, -0.970_186_53],
        [0.393_023_94, -0.930_198_1],
        [0.620_889_07, -0.362_269_9],
        [0.747_574_03, -0.046_512_21],
        [0.777_253_4, 0.737_268_7],
        [0.634_752_04, 0.994_509_8],
        [-0.176_167_35, 1.140_129_8],
        [-0.814_512_13, 0.773_457_05],
    ]
    .map(Vec2::from);
    let pa = Pose2 {
        translation: Vec2::new(0.678_491_6, 0.389_853_48),
        rotation: Rot2 {
            cos: 0.986_848_7,
            sin: -0.161_646_63,
        },
    };
    let ends = [
        Vec2::new(-1.549_582_8, 0.127_158_95),
        Vec2::new(-0.452_395_53, 1.683_729),
    ];
    let pb = Pose2 {
        translation: Vec2::new(-0.146_828_83, -1.045_833_2),
        rotation: Rot2 {
            cos: -0.476_954_85,
            sin: -0.878_927_77,
        },
    };
    let a: Vec<DVec2> = verts.iter().map(|v| to_world(&pa, *v)).collect();
    let b: Vec<DVec2> = ends.iter().map(|v| to_world(&pb, *v)).collect();
    assert!(depth_f64(&a, &b) > 0.6);
    let poly = ConvexPolygon::from_hull_unchecked(verts.to_vec());
    let seg = Segment::new(ends[0], ends[1]).unwrap();
    assert_depth(&poly.into(), &pa, &seg.into(), &pb, &a, &b);
}
