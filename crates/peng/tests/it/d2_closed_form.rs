//! Closed-form checks of the 2D narrow phase.

use peng::d2::*;
use peng::query::types::Feature;
use std::f32::consts::{FRAC_PI_4, PI};

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

fn vclose(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

fn circle(r: f32) -> Shape {
    Circle::new(r).unwrap().into()
}

fn rect(hx: f32, hy: f32) -> Shape {
    Rect::new(Vec2::new(hx, hy)).unwrap().into()
}

fn at(x: f32, y: f32) -> Pose2 {
    Pose2::from_translation(Vec2::new(x, y))
}

#[test]
fn circles_distance_is_centre_distance_minus_radii() {
    for &(ra, rb, d) in &[
        (1.0, 0.5, 3.0),
        (1.0, 0.5, 1.2),
        (0.3, 0.3, 0.1),
        (2.0, 0.0, 2.5),
    ] {
        let dir = Vec2::new(0.6, -0.8);
        let pa = Pose2::new(Vec2::new(10.0, -4.0), 0.3);
        let pb = Pose2::new(pa.translation + dir * d, -1.2);
        let r = distance(&circle(ra), &pa, &circle(rb), &pb);
        assert!(close(r.distance, d - ra - rb, 1e-5), "{r:?}");
        assert!(vclose(r.normal, dir, 1e-5));
        assert!(vclose(r.point_a, pa.translation + dir * ra, 1e-5));
        assert!(vclose(r.point_b, pb.translation - dir * rb, 1e-5));
        assert_eq!(intersects(&circle(ra), &pa, &circle(rb), &pb), d <= ra + rb);
        let m = contact(&circle(ra), &pa, &circle(rb), &pb, 0.0);
        assert_eq!(m.is_some(), d <= ra + rb);
        if let Some(m) = m {
            assert_eq!(m.len(), 1);
            assert!(close(m.depth(), ra + rb - d, 1e-5));
        }
    }
    // Coincident centres: policy normal +x, depth = sum of radii.
    let r = distance(&circle(1.0), &at(1.0, 1.0), &circle(0.5), &at(1.0, 1.0));
    assert!(close(r.distance, -1.5, 1e-6) && r.normal == Vec2::X);
}

#[test]
fn rotated_square_against_square() {
    let sq = rect(0.5, 0.5);
    // The rotated square's corner reaches x = -0.5 + √2/2: 0.707107 past x = -0.5.
    let half_diag = 0.5 * 2f32.sqrt();
    let a = Pose2::new(Vec2::new(-0.5, 0.0), FRAC_PI_4);
    let b = Pose2::IDENTITY;
    let d = distance(&sq, &a, &sq, &b);
    assert!(close(d.distance, -half_diag, 1e-5), "{d:?}");
    assert!(vclose(d.normal, Vec2::X, 1e-5));
    let m = contact(&sq, &a, &sq, &b, 0.0).unwrap();
    assert!(close(m.depth(), half_diag, 1e-5));
    assert!(vclose(m.normal, Vec2::X, 1e-5));
    // Swapped: same depth, flipped normal.
    let m2 = contact(&sq, &b, &sq, &a, 0.0).unwrap();
    assert!(close(m2.depth(), half_diag, 1e-5));
    assert!(vclose(m2.normal, -Vec2::X, 1e-5));
}

#[test]
fn rect_against_moved_copy() {
    let r = rect(2.0, 1.0);
    let d = distance(&r, &Pose2::IDENTITY, &r, &at(3.5, 0.0));
    assert!(close(d.distance, -0.5, 1e-6));
    assert!(vclose(d.normal.abs(), Vec2::X, 1e-6));
    assert!(vclose(d.normal, Vec2::X, 1e-6));
    let d = distance(&r, &Pose2::IDENTITY, &r, &at(0.0, 0.2));
    assert!(close(d.distance, -1.8, 1e-6));
    assert!(vclose(d.normal, Vec2::Y, 1e-6));
    let m = contact(&r, &Pose2::IDENTITY, &r, &at(0.0, 0.2), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    for p in m.points() {
        assert!(close(p.depth, 1.8, 1e-6));
    }
}

#[test]
fn box_resting_on_box_gives_two_corner_points() {
    let ground = rect(2.0, 0.5);
    let bx = rect(0.5, 0.5);
    let pb = at(0.3, 0.99);
    let m = contact(&ground, &Pose2::IDENTITY, &bx, &pb, 0.0).unwrap();
    assert!(vclose(m.normal, Vec2::Y, 1e-6));
    assert_eq!(m.len(), 2);
    let mut xs: Vec<f32> = m.points().iter().map(|p| p.point_b.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        close(xs[0], -0.2, 1e-6) && close(xs[1], 0.8, 1e-6),
        "{xs:?}"
    );
    for p in m.points() {
        assert!(close(p.depth, 0.01, 1e-5));
        assert!(close(p.point_a.y, 0.5, 1e-6));
        assert!(close(p.point_b.y, 0.49, 1e-6));
    }
    // The ids name B's bottom corners against A's top edge.
    let mut ids: Vec<_> = m.points().iter().map(|p| p.id).collect();
    ids.sort_by_key(|i| i.0);
    let mut want = vec![
        ContactId::new(Feature::edge(2), Feature::vertex(0)),
        ContactId::new(Feature::edge(2), Feature::vertex(1)),
    ];
    want.sort_by_key(|i| i.0);
    assert_eq!(ids, want);
    // Hanging over A's corner: one point is clipped at A's corner vertex 2.
    let m = contact(&ground, &Pose2::IDENTITY, &bx, &at(1.8, 0.99), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    assert!(m.points().iter().any(|p| p.id
        == ContactId::new(Feature::vertex(2), Feature::edge(0))
        && close(p.point_a.x, 2.0, 1e-6)));
    // Speculative: 0.05 apart with prediction 0.1 gives negative depths.
    let m = contact(&ground, &Pose2::IDENTITY, &bx, &at(0.3, 1.05), 0.1).unwrap();
    assert_eq!(m.len(), 2);
    for p in m.points() {
        assert!(close(p.depth, -0.05, 1e-5));
    }
    assert!(contact(&ground, &Pose2::IDENTITY, &bx, &at(0.3, 1.05), 0.01).is_none());
}

#[test]
fn circle_against_triangle_regions() {
    let tri: Shape = Triangle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0))
        .unwrap()
        .into();
    let c = circle(0.5);
    // Vertex region of (2, 0): centre at (3, -1).
    let d = distance(&tri, &Pose2::IDENTITY, &c, &at(3.0, -1.0));
    assert!(close(d.distance, 2f32.sqrt() - 0.5, 1e-5));
    assert!(vclose(d.normal, Vec2::new(1.0, -1.0).normalize(), 1e-5));
    assert!(vclose(d.point_a, Vec2::new(2.0, 0.0), 1e-5));
    // Edge region of the hypotenuse: centre at (1.5, 1.5).
    let d = distance(&tri, &Pose2::IDENTITY, &c, &at(1.5, 1.5));
    assert!(close(d.distance, 0.5f32.sqrt() - 0.5, 1e-5));
    assert!(vclose(d.normal, Vec2::new(1.0, 1.0).normalize(), 1e-5));
    // Face region (inside): centre at (0.5, 0.3): nearest edge is y = 0.
    let d = distance(&tri, &Pose2::IDENTITY, &c, &at(0.5, 0.3));
    assert!(close(d.distance, -0.8, 1e-5), "{d:?}");
    assert!(vclose(d.normal, -Vec2::Y, 1e-5));
    let m = contact(&tri, &Pose2::IDENTITY, &c, &at(0.5, 0.3), 0.0).unwrap();
    assert_eq!(m.len(), 1);
    assert!(close(m.depth(), 0.8, 1e-5));
    assert!(vclose(m.points()[0].point_a, Vec2::new(0.5, 0.0), 1e-5));
    assert!(vclose(m.points()[0].point_b, Vec2::new(0.5, 0.8), 1e-5));
}

#[test]
fn capsules_and_segments() {
    let cap: Shape = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25)
        .unwrap()
        .into();
    // Parallel capsules 0.4 apart (cores): two points, depth 0.1.
    let m = contact(&cap, &Pose2::IDENTITY, &cap, &at(0.5, 0.4), 0.0).unwrap();
    assert_eq!(m.len(), 2);
    assert!(vclose(m.normal, Vec2::Y, 1e-6));
    for p in m.points() {
        assert!(close(p.depth, 0.1, 1e-6));
    }
    // Crossing cores: MTD along the normal of one core.
    let cross = Pose2::new(Vec2::new(0.0, 0.2), PI / 2.0);
    let d = distance(&cap, &Pose2::IDENTITY, &cap, &cross);
    // B's core spans y in [-0.8, 1.2]: push up by 0.8 + radii, or sideways 1 + radii.
    assert!(close(d.distance, -(0.8 + 0.5), 1e-5), "{d:?}");
    assert!(vclose(d.normal, Vec2::Y, 1e-5));
    // Segment against segment, end to end.
    let s1: Shape = Segment::new(Vec2::ZERO, Vec2::X).unwrap().into();
    let d = distance(&s1, &Pose2::IDENTITY, &s1, &at(2.0, 1.0));
    assert!(close(d.distance, 2f32.sqrt(), 1e-6));
    // Zero-length capsule behaves as a circle.
    let dot: Shape = Capsule::new(Vec2::ONE, Vec2::ONE, 0.5).unwrap().into();
    let d = distance(&dot, &Pose2::IDENTITY, &circle(0.5), &at(1.0, 3.0));
    assert!(close(d.distance, 1.0, 1e-6));
    // Zero-size rect is a point.
    let d = distance(
        &rect(0.0, 0.0),
        &Pose2::IDENTITY,
        &rect(1.0, 1.0),
        &at(3.0, 0.0),
    );
    assert!(close(d.distance, 2.0, 1e-6));
    let d = distance(
        &rect(2.0, 0.0),
        &Pose2::IDENTITY,
        &circle(1.0),
        &at(0.0, 0.5),
    );
    assert!(close(d.distance, -0.5, 1e-6));
    assert!(vclose(d.normal, Vec2::Y, 1e-6));
}

#[test]
fn circle_inside_polygon_and_polygon_pairs() {
    let poly: Shape = ConvexPolygon::from_points(&[
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.5, 0.5),
        Vec2::new(0.0, 1.5),
        Vec2::new(-1.5, 0.5),
    ])
    .unwrap()
    .into();
    let d = distance(&poly, &Pose2::IDENTITY, &circle(0.1), &at(0.0, -0.8));
    assert!(close(d.distance, -0.3, 1e-6));
    assert!(vclose(d.normal, -Vec2::Y, 1e-6));
    let d = distance(&poly, &Pose2::IDENTITY, &poly, &at(0.0, 3.5));
    assert!(close(d.distance, 1.0, 1e-5), "{d:?}");
}

#[test]
fn warm_started_distance_matches_cold() {
    let a: Shape = ConvexPolygon::from_points(&[
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.2),
        Vec2::new(1.5, 0.5),
        Vec2::new(0.2, 1.5),
        Vec2::new(-1.5, 0.7),
    ])
    .unwrap()
    .into();
    let b = rect(0.7, 0.3);
    let mut cache = GjkCache2::default();
    let mut pose_b = Pose2::new(Vec2::new(4.0, 0.5), 0.3);
    for step in 0..50 {
        let cold = distance(&a, &Pose2::IDENTITY, &b, &pose_b);
        let mut fresh = GjkCache2::default();
        let _ = distance_cached(&a, &Pose2::IDENTITY, &b, &pose_b, &mut fresh);
        let warm = distance_cached(&a, &Pose2::IDENTITY, &b, &pose_b, &mut cache);
        assert!(close(warm.distance, cold.distance, 1e-5), "step {step}");
        assert!(vclose(warm.normal, cold.normal, 1e-4));
        assert!(!cache.is_empty());
        assert!(cache.iterations() <= fresh.iterations(), "step {step}");
        // Same pose again: the cached simplex is already optimal.
        let again = distance_cached(&a, &Pose2::IDENTITY, &b, &pose_b, &mut cache);
        assert!(close(again.distance, cold.distance, 1e-5));
        assert!(cache.iterations() <= 1);
        pose_b = Pose2::new(
            pose_b.translation + Vec2::new(-0.01, 0.02),
            pose_b.rotation.angle() + 0.01,
        );
    }
}

#[test]
fn ray_casts_and_points() {
    let ray = Ray2::new(Vec2::new(-5.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
    let h = ray_cast(&circle(1.0), &at(0.0, 0.0), &ray, 10.0, true).unwrap();
    assert!(close(h.toi, 2.0, 1e-6) && vclose(h.normal, -Vec2::X, 1e-6));
    let h = ray_cast(
        &rect(1.0, 1.0),
        &Pose2::new(Vec2::ZERO, FRAC_PI_4),
        &ray,
        10.0,
        true,
    )
    .unwrap();
    assert!(close(h.toi, (5.0 - 2f32.sqrt()) / 2.0, 1e-5));
    let inside = Ray2::new(Vec2::ZERO, Vec2::Y).unwrap();
    let h = ray_cast(&circle(1.0), &Pose2::IDENTITY, &inside, 10.0, true).unwrap();
    assert_eq!(h.toi, 0.0);
    let h = ray_cast(&circle(1.0), &Pose2::IDENTITY, &inside, 10.0, false).unwrap();
    assert!(close(h.toi, 1.0, 1e-6) && vclose(h.normal, -Vec2::Y, 1e-6));
    assert!(ray_cast(&circle(1.0), &at(0.0, 3.0), &ray, 10.0, true).is_none());
    let p = project_point(&rect(1.0, 2.0), &at(1.0, 0.0), Vec2::new(5.0, 0.5), false);
    assert!(!p.is_inside && vclose(p.point, Vec2::new(2.0, 0.5), 1e-6));
    assert!(contains_point(
        &rect(1.0, 2.0),
        &at(1.0, 0.0),
        Vec2::new(1.5, 1.5)
    ));
    assert!(!contains_point(
        &circle(1.0),
        &at(1.0, 0.0),
        Vec2::new(2.5, 0.0)
    ));
}

#[test]
fn compounds() {
    let comp: Shape = Compound::new(vec![
        (at(-2.0, 0.0), rect(0.5, 0.5)),
        (at(2.0, 0.0), circle(0.5)),
    ])
    .unwrap()
    .into();
    // A long bar touching both parts.
    let bar = rect(3.0, 0.25);
    let pb = at(0.0, 0.7);
    let mut out = Vec::new();
    contacts(&comp, &Pose2::IDENTITY, &bar, &pb, 0.0, &mut out);
    assert_eq!(out.len(), 2);
    let parts: Vec<u32> = out.iter().map(|m| m.part_a).collect();
    assert!(parts.contains(&0) && parts.contains(&1));
    let m = contact(&comp, &Pose2::IDENTITY, &bar, &pb, 0.0).unwrap();
    assert!(close(m.depth(), 0.05, 1e-5));
    let d = distance(&comp, &Pose2::IDENTITY, &circle(0.5), &at(0.0, 0.0));
    assert!(close(d.distance, 1.0, 1e-5), "{d:?}");
    assert!(intersects(&comp, &Pose2::IDENTITY, &bar, &pb));
    assert!(!intersects(
        &comp,
        &Pose2::IDENTITY,
        &circle(0.4),
        &at(0.0, 0.0)
    ));
    let ray = Ray2::new(Vec2::new(0.0, 0.0), Vec2::X).unwrap();
    let h = ray_cast(&comp, &Pose2::IDENTITY, &ray, 10.0, true).unwrap();
    assert!(close(h.toi, 1.5, 1e-6));
    assert!(contains_point(&comp, &Pose2::IDENTITY, Vec2::new(2.2, 0.1)));
    let p = project_point(&comp, &Pose2::IDENTITY, Vec2::new(0.0, 0.0), false);
    assert!(!p.is_inside && close(p.point.x.abs(), 1.5, 1e-6));
}
