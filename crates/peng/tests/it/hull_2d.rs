//! Tests of the 2D convex hull (`shape::hull2::convex_hull`).

use glam::{DVec2, Vec2};
use peng::math::policy::GeometryError;
use peng::math::tolerance::REL_EPS;
use peng::shape::d2::ConvexPolygon;
use peng::shape::hull2::convex_hull;
use proptest::prelude::*;

/// The hull's tolerance scale (sum of the largest absolute coordinates).
fn eps(points: &[Vec2]) -> f64 {
    let m = points.iter().fold(Vec2::ZERO, |m, p| m.max(p.abs()));
    REL_EPS as f64 * (m.x + m.y) as f64
}

/// Checks containment, strict convexity, no collinear vertices, CCW; returns
/// the hull.
fn check(points: &[Vec2]) -> Vec<Vec2> {
    let h = match convex_hull(points) {
        Ok(h) => h,
        Err(e) => panic!("hull failed: {e}"),
    };
    let e = eps(points);
    let n = h.len();
    assert!(n >= 3);
    for v in &h {
        assert!(points.contains(v), "vertex {v} is not an input point");
    }
    let d: Vec<DVec2> = h.iter().map(|v| v.as_dvec2()).collect();
    // Counter-clockwise: positive area (shoelace).
    let area: f64 = (0..n).map(|i| d[i].perp_dot(d[(i + 1) % n])).sum::<f64>() / 2.0;
    assert!(area > 0.0, "hull is clockwise");
    for i in 0..n {
        let (p, q, r) = (d[(i + n - 1) % n], d[i], d[(i + 1) % n]);
        // Every corner turns left by more than the tolerance: convex, and no
        // collinear or duplicate consecutive vertices.
        let turn = (q - p).perp_dot(r - p) / (r - p).length();
        assert!(turn > e, "corner {i} turns by {turn} <= {e}");
        // Every vertex and input point is behind every edge (within tolerance).
        let edge = r - q;
        for x in points {
            let off = edge.perp_dot(x.as_dvec2() - q) / edge.length();
            assert!(off >= -4.0 * e, "point {x} is {off} outside edge {i}");
        }
    }
    // The lowest (x, y) vertex comes first.
    for v in &h[1..] {
        assert!((h[0].x, h[0].y) < (v.x, v.y));
    }
    h
}

#[test]
fn square_with_points_on_edges_and_inside() {
    let mut pts = vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
    for i in 0..=10 {
        let t = i as f32 / 10.0;
        pts.extend([
            Vec2::new(t, 0.0),
            Vec2::new(1.0, t),
            Vec2::new(t, 1.0),
            Vec2::new(0.0, t),
            Vec2::splat(t),
        ]);
    }
    let h = check(&pts);
    assert_eq!(h, vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
}

#[test]
fn near_duplicates_and_near_collinear_points_are_dropped() {
    let pts = [
        Vec2::new(0.0, 0.0),
        Vec2::new(1e-8, 0.0),
        Vec2::new(0.0, 1e-8),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1e-7),
        Vec2::new(1.0, -1e-7), // within tolerance of the bottom edge
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 1.0 + 1e-8),
    ];
    let h = check(&pts);
    assert_eq!(h.len(), 3);
}

#[test]
fn huge_and_tiny_coordinates() {
    for &(s, off) in &[
        (1e6f32, 0.0f32),
        (1e6, 5e6),
        (1e-4, 0.0),
        (1e-4, 3e-4),
        (1.0, -7.0),
    ] {
        // A 64-gon with a smaller one inside: exactly the 64 outer vertices.
        let mut pts = Vec::new();
        for i in 0..64 {
            let a = i as f32 / 64.0 * std::f32::consts::TAU;
            pts.push(Vec2::new(a.cos(), a.sin()) * s + Vec2::splat(off));
            pts.push(Vec2::new(a.cos(), a.sin()) * s * 0.5 + Vec2::splat(off));
        }
        assert_eq!(check(&pts).len(), 64, "64-gon at scale {s}");
        // A square with points along its edges and inside: exactly 4.
        let mut sq = Vec::new();
        for i in 0..=8 {
            let t = (i as f32 / 4.0 - 1.0) * s;
            for p in [
                Vec2::new(t, -s),
                Vec2::new(s, t),
                Vec2::new(t, s),
                Vec2::new(-s, t),
                Vec2::splat(t * 0.5),
            ] {
                sq.push(p + Vec2::splat(off));
            }
        }
        assert_eq!(check(&sq).len(), 4, "square at scale {s}");
    }
}

#[test]
fn degenerate_inputs() {
    let deg =
        |r: Result<Vec<Vec2>, GeometryError>| matches!(r, Err(GeometryError::Degenerate { .. }));
    assert!(deg(convex_hull(&[Vec2::ONE; 5])));
    let line: Vec<Vec2> = (0..20)
        .map(|i| Vec2::new(1.0, 3.0) * (i % 7) as f32 + Vec2::new(0.5, 0.0))
        .collect();
    assert!(deg(convex_hull(&line)));
    // Collinear up to rounding: points on a tilted line, in f32.
    let dir = Vec2::new(0.6, 0.8);
    let noisy: Vec<Vec2> = (0..50).map(|i| dir * (i as f32 * 0.37)).collect();
    assert!(deg(convex_hull(&noisy)));
    // Two distinct points, repeated.
    assert!(deg(convex_hull(&[
        Vec2::ZERO,
        Vec2::X,
        Vec2::ZERO,
        Vec2::X
    ])));
    assert!(matches!(
        convex_hull(&[Vec2::ZERO, Vec2::X]),
        Err(GeometryError::TooFew {
            needed: 3,
            got: 2,
            ..
        })
    ));
    assert!(matches!(
        convex_hull(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 0.0)]),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        convex_hull(&[Vec2::ZERO, Vec2::X, Vec2::new(0.0, f32::NEG_INFINITY)]),
        Err(GeometryError::NonFinite { .. })
    ));
    // The polygon builder reports the same.
    assert!(deg(
        ConvexPolygon::from_points(&line).map(|p| p.vertices().to_vec())
    ));
}

proptest! {
    #![proptest_config(crate::seeds::cases(256))]

    #[test]
    fn prop_random_clouds(
        raw in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 3..80),
        scale_exp in -4i32..7,
        shift in -3.0f32..3.0,
    ) {
        let s = 10f32.powi(scale_exp);
        let pts: Vec<Vec2> = raw.iter().map(|&(x, y)| Vec2::new(x + shift, y) * s).collect();
        match convex_hull(&pts) {
            Ok(_) => {
                check(&pts);
            }
            Err(GeometryError::Degenerate { .. }) => {
                // Only when every point is within tolerance of the line through
                // the two farthest apart.
                let d: Vec<DVec2> = pts.iter().map(|p| p.as_dvec2()).collect();
                let (mut a, mut b, mut far) = (0, 0, -1.0);
                for i in 0..d.len() {
                    for j in 0..d.len() {
                        if d[i].distance(d[j]) > far {
                            (a, b, far) = (i, j, d[i].distance(d[j]));
                        }
                    }
                }
                let e = eps(&pts);
                let ab = d[b] - d[a];
                for p in &d {
                    let off = if far > 0.0 { ab.perp_dot(*p - d[a]).abs() / far } else { 0.0 };
                    prop_assert!(off <= 4.0 * e, "degenerate, but a point is {off} off the line");
                }
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    /// Integer grids: many collinear and duplicate points. Degenerate exactly
    /// when all points are collinear.
    #[test]
    fn prop_integer_points(raw in prop::collection::vec((0i64..5, 0i64..5), 3..40)) {
        let pts: Vec<Vec2> = raw.iter().map(|&(x, y)| Vec2::new(x as f32, y as f32)).collect();
        let collinear = raw.iter().all(|&(x, y)| {
            let (x0, y0) = raw[0];
            raw.iter().all(|&(x1, y1)| (x - x0) * (y1 - y0) - (y - y0) * (x1 - x0) == 0)
        });
        match convex_hull(&pts) {
            Ok(_) => {
                prop_assert!(!collinear);
                check(&pts);
            }
            Err(GeometryError::Degenerate { .. }) => prop_assert!(collinear),
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    /// The hull does not depend on the order of the points.
    #[test]
    fn prop_permutation_invariant(
        raw in prop::collection::vec((-10i32..10, -10i32..10, 0u32..3), 3..60),
        seed in any::<u64>(),
    ) {
        // Points on a small grid with sub-tolerance jitter, so near-duplicates occur.
        let pts: Vec<Vec2> = raw
            .iter()
            .map(|&(x, y, j)| Vec2::new(x as f32 * 0.1 + j as f32 * 1e-9, y as f32 * 0.1))
            .collect();
        let mut shuffled = pts.clone();
        let mut s = seed | 1;
        for i in (1..shuffled.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            shuffled.swap(i, (s % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(convex_hull(&pts), convex_hull(&shuffled));
    }
}
