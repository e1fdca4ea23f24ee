//! Known defects, kept as failing cases until fixed (each test is ignored with the
//! reason; run them with `cargo test -p peng --test dist3_known_defects -- --ignored`).

use peng::d3::*;

/// Swapping A and B must not change the penetration depth. Found by
/// `dist3_properties::symmetric_and_consistent`: a cylinder against a long thin
/// capsule in deep overlap. A→B gives 1.19006 (a direction search over the sphere
/// finds a minimum overlap of 1.1907, so that answer is right); B→A gives 2.16677:
/// EPA converges to a face of the expanded polytope that is not the nearest one.
#[test]
#[ignore = "known defect: EPA returns a non-minimal depth (2.167 vs 1.190) for capsule-vs-cylinder in deep overlap; issue 2 stays open"]
fn capsule_cylinder_deep_overlap_is_symmetric() {
    let a: Shape = Cylinder::new(1.762_358_7, 1.160_561_7).unwrap().into();
    let b: Shape = Capsule::new(
        Vec3::new(0.930_997_85, 0.635_160_45, 0.004_770_279),
        Vec3::new(-0.504_833_2, -0.858_602_5, 0.844_310_76),
        0.1,
    )
    .unwrap()
    .into();
    let xa = Pose3 {
        translation: Vec3::new(1.678_628_9, -0.704_922_7, -0.003_547_668_5),
        rotation: Quat::from_xyzw(-0.549_857_14, 0.591_340_7, -0.355_646_28, 0.470_626_18),
    };
    let xb = Pose3 {
        translation: Vec3::new(0.987_086_3, -0.639_753_34, -0.147_356_99),
        rotation: Quat::from_xyzw(-0.710_651_93, 0.038_642_235, 0.452_880_56, 0.537_010_2),
    };
    let ab = distance(&a, &xa, &b, &xb);
    let ba = distance(&b, &xb, &a, &xa);
    assert!((ab.distance - ba.distance).abs() < 1e-4, "{ab:?} vs {ba:?}");
    assert!((ab.distance + 1.1907).abs() < 2e-3, "{ab:?}");
}
