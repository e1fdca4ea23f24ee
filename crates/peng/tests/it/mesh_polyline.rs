//! Polyline: construction, ray casts and point projection against brute force.

use crate::mesh_common;

use mesh_common::Rng;
use peng::math::{Pose2, Vec2};
use peng::mesh::{Polyline, SegmentFeature};
use peng::query::types::Ray2;
use peng::GeometryError;

/// Reference ray/segment: solve `o + t d = a + s e` by Cramer's rule in f64.
fn brute_ray(o: Vec2, d: Vec2, a: Vec2, b: Vec2) -> Option<(f64, f64)> {
    let (o, d, a, b) = (o.as_dvec2(), d.as_dvec2(), a.as_dvec2(), b.as_dvec2());
    let e = b - a;
    let m = d.perp_dot(-e);
    if m.abs() < 1e-300 {
        return None;
    }
    let r = a - o;
    let t = r.perp_dot(-e) / m;
    let s = d.perp_dot(r) / m;
    (t >= 0.0 && (0.0..=1.0).contains(&s)).then_some((t, s))
}

fn brute_dist(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let (a, b, p) = (a.as_dvec2(), b.as_dvec2(), p.as_dvec2());
    let e = b - a;
    let s = if e.length_squared() > 0.0 {
        ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + e * s - p).length()
}

fn check(pl: &Polyline, rng: &mut Rng, spread: f32) {
    let segs: Vec<[Vec2; 2]> = (0..pl.segments().len() as u32)
        .map(|i| pl.segment(i))
        .collect();
    for k in 0..500 {
        let o = rng.v2(-spread, spread);
        let d = Vec2::from_angle(rng.range(0.0, 6.3)) * rng.range(0.5, 2.0);
        let max_t = if k % 3 == 0 { 3.0 } else { f32::INFINITY };
        let brute = segs
            .iter()
            .filter_map(|s| brute_ray(o, d, s[0], s[1]))
            .filter(|h| h.0 <= max_t as f64)
            .min_by(|x, y| x.0.total_cmp(&y.0));
        let got = pl.cast_local_ray(o, d, max_t);
        match (got, brute) {
            (Some(g), Some(b)) => {
                assert!(
                    (g.hit.toi as f64 - b.0).abs() < 1e-4,
                    "{} vs {}",
                    g.hit.toi,
                    b.0
                );
                let s = segs[g.segment as usize];
                assert!(brute_ray(o, d, s[0], s[1]).is_some_and(|h| (h.0 - b.0).abs() < 1e-4));
                assert!(g.hit.normal.dot(d) <= 0.0 && (g.hit.normal.length() - 1.0).abs() < 1e-5);
            }
            (None, None) => {}
            (g, b) => {
                // Only at a segment end (or the range limit) may they differ.
                let s = b.map_or(0.0, |b| b.1);
                let at_end = s.min(1.0 - s).abs() < 1e-5;
                let at_limit = g.is_some_and(|g| (g.hit.toi - max_t).abs() < 1e-4)
                    || b.is_some_and(|b| (b.0 - max_t as f64).abs() < 1e-4);
                assert!(at_end || at_limit, "ray {k}: {g:?} vs {b:?}");
            }
        }
        let p = rng.v2(-spread, spread);
        let brute = segs
            .iter()
            .map(|s| brute_dist(s[0], s[1], p))
            .fold(f64::INFINITY, f64::min);
        let got = pl.project_local_point(p);
        assert!((got.distance as f64 - brute).abs() < 1e-5 * (1.0 + brute));
        let s = segs[got.segment as usize];
        assert!(brute_dist(s[0], s[1], got.point) < 1e-5);
        match got.feature {
            SegmentFeature::Vertex(i) => assert_eq!(got.point, s[i as usize]),
            SegmentFeature::Edge => {}
        }
    }
}

#[test]
fn construction_is_validated() {
    assert!(matches!(
        Polyline::new(vec![Vec2::ZERO], None),
        Err(GeometryError::TooFew { .. })
    ));
    assert!(matches!(
        Polyline::new(vec![Vec2::ZERO, Vec2::X], Some(vec![])),
        Err(GeometryError::Degenerate { .. })
    ));
    assert!(matches!(
        Polyline::new(vec![Vec2::ZERO, Vec2::X], Some(vec![[0, 2]])),
        Err(GeometryError::IndexOutOfRange { index: 2, .. })
    ));
    assert!(matches!(
        Polyline::new(vec![Vec2::ZERO, Vec2::INFINITY], None),
        Err(GeometryError::NonFinite { .. })
    ));
    let pl = Polyline::new(vec![Vec2::ZERO, Vec2::X, Vec2::X], None).unwrap();
    assert_eq!(pl.segments(), &[[0, 1], [1, 2]]);
}

#[test]
fn random_segments_and_a_circle() {
    let mut rng = Rng(31);
    let v: Vec<Vec2> = (0..3000).map(|_| rng.v2(-10.0, 10.0)).collect();
    let s: Vec<[u32; 2]> = (0..1500).map(|i| [2 * i, 2 * i + 1]).collect();
    // Shorten them: endpoints near each other.
    let v: Vec<Vec2> = v
        .chunks(2)
        .flat_map(|c| [c[0], c[0] + (c[1] - c[0]) * 0.05])
        .collect();
    let pl = Polyline::new(v, Some(s)).unwrap();
    check(&pl, &mut rng, 12.0);
    // A closed circle of 2000 segments: every ray from inside hits it.
    let n = 2000u32;
    let v: Vec<Vec2> = (0..n)
        .map(|i| Vec2::from_angle(i as f32 / n as f32 * std::f32::consts::TAU) * 3.0)
        .collect();
    let s: Vec<[u32; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
    let circle = Polyline::new(v, Some(s)).unwrap();
    check(&circle, &mut rng, 4.0);
    for _ in 0..500 {
        let o = rng.v2(-2.0, 2.0);
        let d = Vec2::from_angle(rng.range(0.0, 6.3));
        let h = circle
            .cast_local_ray(o, d, f32::INFINITY)
            .expect("closed: no leak");
        assert!((h.hit.point.length() - 3.0).abs() < 1e-3);
    }
    // Rays through the shared vertices exactly do not slip through.
    for i in 0..n {
        let v = circle.segment(i)[0];
        assert!(circle
            .cast_local_ray(Vec2::ZERO, v, f32::INFINITY)
            .is_some());
    }
}

#[test]
fn posed_queries() {
    let mut rng = Rng(32);
    let v: Vec<Vec2> = (0..200)
        .map(|i| Vec2::new(i as f32 * 0.1, (i as f32 * 0.3).sin()))
        .collect();
    let pl = Polyline::new(v, None).unwrap();
    for _ in 0..200 {
        let pose = Pose2::new(rng.v2(-5.0, 5.0), rng.range(-3.0, 3.0));
        let ray = Ray2::new(rng.v2(-10.0, 10.0), rng.v2(-1.0, 1.0) + Vec2::X * 0.01).unwrap();
        let w = pl.cast_ray(&pose, &ray, f32::INFINITY);
        let l = pl.cast_local_ray(
            pose.inverse_transform_point(ray.origin),
            pose.inverse_transform_vector(ray.dir),
            f32::INFINITY,
        );
        assert_eq!(w.map(|h| h.segment), l.map(|h| h.segment));
        if let (Some(w), Some(l)) = (w, l) {
            assert!((w.hit.point - pose.transform_point(l.hit.point)).length() < 1e-3);
        }
        let p = rng.v2(-10.0, 10.0);
        let w = pl.project_point(&pose, p);
        let l = pl.project_local_point(pose.inverse_transform_point(p));
        assert!((w.point - pose.transform_point(l.point)).length() < 1e-4);
    }
}

#[test]
fn box_queries_match_brute_force() {
    let mut rng = Rng(33);
    let v: Vec<Vec2> = (0..500).map(|_| rng.v2(-10.0, 10.0)).collect();
    let pl = Polyline::new(v, None).unwrap();
    for _ in 0..200 {
        let q = peng::bound::Aabb2::from_center_half_extents(rng.v2(-12.0, 12.0), rng.v2(0.0, 3.0));
        let mut got = Vec::new();
        pl.for_each_segment_in_aabb(&q, |i, s| {
            assert_eq!(*s, pl.segment(i));
            got.push(i);
        });
        got.sort_unstable();
        let want: Vec<u32> = (0..pl.segments().len() as u32)
            .filter(|&i| peng::bound::Aabb2::from_points(pl.segment(i)).overlaps(&q))
            .collect();
        assert_eq!(got, want);
    }
}

/// A ray lying along a segment on the axis `y = 0` (zero direction component,
/// flat BVH box at coordinate 0) enters the segment at its near end. Before
/// the BVH boxes had an absolute padding, the slab of the flat box ended at
/// `t ≈ 1e-8` for such a ray and the segment was missed.
#[test]
fn ray_along_a_flat_segment_at_zero_hits_it() {
    let pl = Polyline::new(
        vec![
            Vec2::new(1.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(3.0, 2.0),
        ],
        None,
    )
    .expect("valid polyline");
    for (origin, dir, toi) in [
        (Vec2::new(-1.0, 0.0), Vec2::X, 2.0),
        (Vec2::new(5.0, 0.0), -Vec2::X, 2.0),
        (Vec2::new(3.0, -4.0), Vec2::Y, 4.0),
    ] {
        let hit = pl
            .cast_local_ray(origin, dir, 100.0)
            .unwrap_or_else(|| panic!("ray from {origin} along {dir} missed"));
        assert!(
            (hit.hit.toi - toi).abs() < 1e-6,
            "toi {} for {origin}",
            hit.hit.toi
        );
    }
}
