//! Hull–hull distances (the SIMD cloud path of GJK, with the f32 phase's
//! shortcut past the f64 confirmation) certified without GJK.
//!
//! For two disjoint convex sets and any unit `n`, the support gap
//! `g(n) = min_{b∈B} n·b − max_{a∈A} n·a` is a lower bound on their distance
//! and `|p_b − p_a|` for points of the sets an upper bound; the two meet only
//! at the true distance and normal (Boyd and Vandenberghe, *Convex
//! Optimization*, 8.2: the separating-hyperplane dual of the distance
//! problem). So a reported distance `d`, normal `n` and witness pair are right
//! when `g(n) ≈ d ≈ |p_b − p_a|` and the witnesses lie on the support planes.
//! The gaps are computed here by scanning the vertices, independently of
//! peng's support code.

use peng::d3::{distance, ConvexPolyhedron, Pose3, Shape, Vec3};
use peng::query::gjk::{GjkOutput, SignedDistance};
use std::mem::offset_of;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}

/// A hull of `n` random points on an ellipsoid with semi-axes in [0.3, 1.5].
fn hull(rng: &mut Rng, n: usize) -> ConvexPolyhedron {
    let axes = Vec3::new(
        rng.range(0.3, 1.5),
        rng.range(0.3, 1.5),
        rng.range(0.3, 1.5),
    );
    loop {
        let pts: Vec<Vec3> = (0..n).map(|_| rng.unit() * axes).collect();
        if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
            return h;
        }
    }
}

/// Largest `n·x` over the hull's vertices placed by `pose` (a plain scan).
fn max_dot(h: &ConvexPolyhedron, pose: &Pose3, n: Vec3) -> f32 {
    h.vertices()
        .iter()
        .map(|v| n.dot(pose.transform_point(*v)))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Random separated pairs of hulls with up to `max_n` vertices; returns how
/// many were checked.
fn certify(seed: u64, max_n: usize, pairs: usize) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..pairs {
        let na = 4 + (rng.next() * (max_n - 3) as f32) as usize;
        let nb = 4 + (rng.next() * (max_n - 3) as f32) as usize;
        let (ha, hb) = (hull(&mut rng, na.min(max_n)), hull(&mut rng, nb.min(max_n)));
        let pa = Pose3::from_axis_angle(
            Vec3::new(
                rng.range(-5.0, 5.0),
                rng.range(-5.0, 5.0),
                rng.range(-5.0, 5.0),
            ),
            rng.unit() * rng.range(0.0, 3.0),
        );
        // B's centre 1.5 to 4 units from A's: separated, or not (skipped).
        let pb = Pose3::from_axis_angle(
            pa.translation + rng.unit() * rng.range(1.5, 4.0),
            rng.unit() * rng.range(0.0, 3.0),
        );
        let (a, b): (Shape, Shape) = (ha.clone().into(), hb.clone().into());
        let d = distance(&a, &pa, &b, &pb);
        if d.distance <= 1e-3 {
            continue;
        }
        checked += 1;
        let n = d.normal;
        assert!((n.length() - 1.0).abs() < 1e-5, "normal not unit: {d:?}");
        // Size of the coordinates, for the f32 rounding of the dot products.
        let scale = pa.translation.abs().max(pb.translation.abs()).max_element() + 3.0;
        let tol = 2e-6 * scale;
        let ha_n = max_dot(&ha, &pa, n);
        let hb_n = -max_dot(&hb, &pb, -n);
        let gap = hb_n - ha_n;
        let chord = (d.point_b - d.point_a).length();
        assert!(
            gap >= d.distance - tol,
            "normal not optimal: gap {gap} < distance {} ({na}, {nb} vertices)",
            d.distance
        );
        assert!(
            (chord - d.distance).abs() <= tol,
            "witnesses {chord} apart, distance {}",
            d.distance
        );
        assert!(
            (n.dot(d.point_a) - ha_n).abs() <= tol,
            "point_a off A's support plane"
        );
        assert!(
            (n.dot(d.point_b) - hb_n).abs() <= tol,
            "point_b off B's support plane"
        );
    }
    checked
}

#[test]
fn hulls_up_to_16_vertices_are_certified() {
    let n = certify(0x5eed_0001, 16, 1500);
    assert!(n >= 500, "only {n} separated pairs");
}

#[test]
fn hulls_up_to_32_vertices_are_certified() {
    let n = certify(0x5eed_0002, 32, 600);
    assert!(n >= 200, "only {n} separated pairs");
}

/// Each `Vec3` in the result structs is followed by a float (not by an enum
/// byte and padding), so a vectorized `Vec3`'s fourth lane is never stack
/// garbage, which could be a subnormal and cost a microcode assist per
/// multiplication.
#[test]
fn result_vectors_are_followed_by_floats() {
    assert_eq!(
        offset_of!(SignedDistance, point_a) + 12,
        offset_of!(SignedDistance, point_b)
    );
    assert_eq!(
        offset_of!(SignedDistance, point_b) + 12,
        offset_of!(SignedDistance, normal)
    );
    assert_eq!(
        offset_of!(SignedDistance, normal) + 12,
        offset_of!(SignedDistance, distance)
    );
    assert_eq!(
        offset_of!(GjkOutput, point_a) + 12,
        offset_of!(GjkOutput, point_b)
    );
    assert_eq!(
        offset_of!(GjkOutput, point_b) + 12,
        offset_of!(GjkOutput, distance)
    );
}
