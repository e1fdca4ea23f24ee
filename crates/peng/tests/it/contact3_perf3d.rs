//! Contact manifolds checked against the exact support functions (task
//! perf3d): the normal must attain the reported depth, i.e. translating B by
//! `normal * depth` separates the pair (up to rounding), and no direction
//! separates them with less.

use peng::d3::*;

/// Overlap of the two shapes along the unit `n` (world): how far B must move
/// along `n` to separate, `max_A n·x - min_B n·x`.
fn overlap(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, n: Vec3) -> f32 {
    let sa = pa.transform_point(a.local_support(pa.inverse_transform_vector(n)));
    let sb = pb.transform_point(b.local_support(pb.inverse_transform_vector(-n)));
    (sa - sb).dot(n)
}

/// The capsule-polyhedron pair of the differential test (seed 0xd1ff3d17, pair
/// #1001) whose normal was 5.5e-3 rad off: the overlap along it was 7e-4 more
/// than the reported depth.
#[test]
fn capsule_polyhedron_normal_attains_depth() {
    let cap: Shape = Capsule::new(
        Vec3::new(-0.12655044, -0.13248177, 1.1988086),
        Vec3::new(0.1443789, 0.40717328, -1.1519061),
        0.7253094,
    )
    .unwrap()
    .into();
    let pts = [
        Vec3::new(-0.1809749, -0.15530299, -1.0654901),
        Vec3::new(0.25925836, -0.7418715, -0.65089273),
        Vec3::new(0.1989416, -1.2701257, -0.07367616),
        Vec3::new(0.115752466, 0.4141541, 1.1135077),
        Vec3::new(0.33109966, -0.30953884, 0.53100073),
        Vec3::new(-0.29856786, 0.44345126, -0.65533036),
        Vec3::new(0.22563872, 1.0222156, 0.5149026),
        Vec3::new(-0.28827864, 0.91807574, -0.24972598),
        Vec3::new(0.2773029, -0.68911135, -0.6103167),
        Vec3::new(0.23256183, 1.0377516, 0.4588793),
        Vec3::new(0.13645345, 1.0400939, 0.76089734),
        Vec3::new(0.07851438, -1.030715, 0.8499491),
        Vec3::new(-0.10219304, 1.1485159, -0.7117636),
        Vec3::new(-0.017598474, -1.4835721, 0.15958618),
        Vec3::new(0.29275516, -0.5479795, 0.629649),
        Vec3::new(-0.11236065, -0.46365032, -1.1041157),
    ];
    let poly: Shape = ConvexPolyhedron::from_points(&pts).unwrap().into();
    let pose_a = Pose3 {
        translation: Vec3::new(-3.9825902, -2.2021337, 2.8351226),
        rotation: Quat::from_xyzw(-0.41206884, 0.05084135, 0.7591093, -0.50136554),
    };
    let pose_b = Pose3 {
        translation: Vec3::new(-5.607121, -1.8484377, 2.1121228),
        rotation: Quat::from_xyzw(-0.2573414, -0.07629989, -0.9541164, -0.13272409),
    };
    for (a, pa, b, pb) in [
        (&cap, &pose_a, &poly, &pose_b),
        (&poly, &pose_b, &cap, &pose_a),
    ] {
        let m = contact(a, pa, b, pb, 0.0).expect("overlapping");
        let depth = m.depth();
        let along = overlap(a, pa, b, pb, m.normal);
        assert!(
            (along - depth).abs() <= 2e-5,
            "overlap along the normal {along} vs depth {depth}: {m:?}"
        );
        // The referee's value (parry agrees): 0.092471.
        assert!((depth - 0.092471).abs() <= 2e-5, "{m:?}");
    }
}
