//! The small-hull distance path (vertices in SIMD lanes, B mapped into A's
//! frame once: `gjk::Cloud`, `gjk::signed_distance_local`) against the generic
//! GJK/EPA on the shapes' own support functions with the relative pose.

use peng::d3::*;
use peng::query::gjk;

/// xorshift values in `[-1, 1)`.
struct Rng(u32);
impl Rng {
    fn f(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
    fn v(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.f(), self.f(), self.f()) * s
    }
    fn hull(&mut self, n: usize) -> Shape {
        let axes = self.v(1.0).abs() + Vec3::splat(0.2);
        let pts: Vec<Vec3> = (0..n)
            .map(|_| self.v(1.0).normalize_or(Vec3::X) * axes)
            .collect();
        ConvexPolyhedron::from_points(&pts).expect("hull").into()
    }
}

#[test]
fn cloud_distance_matches_generic_gjk() {
    let mut g = Rng(0x0bad_cafe);
    let mut separated = 0;
    for i in 0..600 {
        // 16-vertex hulls (Cloud<4>), 17..32 (Cloud<8>), and a few larger.
        let n = [8, 16, 24, 40][i % 4];
        let (a, b) = (g.hull(n), g.hull(16));
        let pa = Pose3::new(g.v(3.0), Quat::from_scaled_axis(g.v(3.0)));
        let pb = Pose3::new(pa.translation + g.v(2.5), Quat::from_scaled_axis(g.v(3.0)));
        let fast = distance(&a, &pa, &b, &pb);
        let rel = pa.inv_mul(&pb);
        let slow = gjk::signed_distance(&a, &b, &rel, None);
        let scale = 1.0 + pa.translation.distance(pb.translation);
        assert!(
            (fast.distance - slow.distance).abs() <= 1e-5 * scale,
            "case {i}: {} vs {}",
            fast.distance,
            slow.distance
        );
        if slow.distance > 1e-3 {
            separated += 1;
            let n_slow = pa.transform_vector(slow.normal);
            assert!(fast.normal.angle_between(n_slow) < 1e-3, "case {i}");
            // The witnesses are on the surfaces and `distance` apart.
            let gap = fast.point_b - fast.point_a;
            assert!(
                (gap.length() - fast.distance).abs() <= 1e-4 * scale,
                "case {i}"
            );
        }
    }
    assert!(separated > 100, "{separated}");
}

#[test]
fn cloud_distance_of_touching_and_coincident_hulls() {
    let a: Shape = ConvexPolyhedron::cuboid(Vec3::ONE).expect("cube").into();
    // Face to face at distance 0.5, exactly along x.
    let pb = Pose3::from_translation(Vec3::new(2.5, 0.0, 0.0));
    let d = distance(&a, &Pose3::IDENTITY, &a, &pb);
    assert!((d.distance - 0.5).abs() < 1e-6, "{d:?}");
    assert!((d.normal - Vec3::X).length() < 1e-6, "{d:?}");
    // Touching: distance 0.
    let pb = Pose3::from_translation(Vec3::new(2.0, 0.3, 0.0));
    let d = distance(&a, &Pose3::IDENTITY, &a, &pb);
    assert!(d.distance.abs() < 1e-5, "{d:?}");
    // Coincident: penetration 2 along some axis.
    let d = distance(&a, &Pose3::IDENTITY, &a, &Pose3::IDENTITY);
    assert!((d.distance + 2.0).abs() < 1e-4, "{d:?}");
    assert!((d.normal.abs().max_element() - 1.0).abs() < 1e-4, "{d:?}");
}
