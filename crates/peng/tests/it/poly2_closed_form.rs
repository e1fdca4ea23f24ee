//! Polylines as 2D shapes: closed-form contacts, distances, rays and point
//! queries through the dispatcher.

use peng::d2::*;
use peng::query::types::Feature;
use std::f32::consts::FRAC_1_SQRT_2;

const EPS: f32 = 1e-5;

fn chain(points: &[[f32; 2]]) -> Shape {
    let v = points.iter().map(|p| Vec2::from(*p)).collect();
    Polyline::new(v, None).expect("valid chain").into()
}

fn at(x: f32, y: f32) -> Pose2 {
    Pose2::from_translation(Vec2::new(x, y))
}

fn all_contacts(a: &Shape, pa: &Pose2, b: &Shape, pb: &Pose2, prediction: f32) -> Vec<Manifold2> {
    let mut out = Vec::new();
    contacts(a, pa, b, pb, prediction, &mut out);
    out
}

fn near(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < EPS
}

#[test]
fn shape_kind_aabb_and_support() {
    let s = chain(&[[-3.0, 0.0], [0.0, 1.0], [3.0, 0.0]]);
    assert_eq!(s.kind(), ShapeKind::Polyline);
    assert!(!s.is_convex());
    let b = s.aabb(&at(1.0, 2.0));
    assert!(near(b.min, Vec2::new(-2.0, 2.0)) && near(b.max, Vec2::new(4.0, 3.0)));
    assert_eq!(s.local_support(Vec2::Y), Vec2::new(0.0, 1.0));
}

#[test]
fn circle_resting_on_a_segment_chain() {
    let floor = chain(&[[-3.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [3.0, 0.0]]);
    let ball: Shape = Circle::new(0.5).unwrap().into();
    // Inside segment 1, and exactly over the shared vertex 2 (x = 1).
    for (x, id_a) in [(0.3, Feature::edge(1)), (1.0, Feature::vertex(2))] {
        let ms = all_contacts(&floor, &Pose2::IDENTITY, &ball, &at(x, 0.4), 0.0);
        assert_eq!(ms.len(), 1, "{ms:?}");
        let m = ms[0];
        assert!(near(m.normal, Vec2::Y), "{m:?}");
        assert_eq!(m.len(), 1, "{m:?}");
        let p = m.points()[0];
        assert!((p.depth - 0.1).abs() < EPS);
        assert!(near(p.point_a, Vec2::new(x, 0.0)));
        assert!(near(p.point_b, Vec2::new(x, -0.1)));
        assert_eq!(p.id.0 >> 16, id_a.0 as u32, "{p:?}");
        // The single-manifold query agrees; B-first gives the mirror.
        let c = contact(&floor, &Pose2::IDENTITY, &ball, &at(x, 0.4), 0.0).unwrap();
        assert_eq!(c, m);
        let s = contact(&ball, &at(x, 0.4), &floor, &Pose2::IDENTITY, 0.0).unwrap();
        assert!(near(s.normal, -Vec2::Y));
        assert!(near(s.points()[0].point_a, Vec2::new(x, -0.1)));
        assert!(intersects(&floor, &Pose2::IDENTITY, &ball, &at(x, 0.4)));
        let d = distance(&floor, &Pose2::IDENTITY, &ball, &at(x, 0.4));
        assert!(
            (d.distance + 0.1).abs() < EPS && near(d.normal, Vec2::Y),
            "{d:?}"
        );
    }
    // Above: distance, a speculative contact within the prediction, none beyond.
    let d = distance(&floor, &Pose2::IDENTITY, &ball, &at(0.3, 2.0));
    assert!((d.distance - 1.5).abs() < EPS, "{d:?}");
    assert!(near(d.point_a, Vec2::new(0.3, 0.0)) && near(d.point_b, Vec2::new(0.3, 1.5)));
    assert!(!intersects(&floor, &Pose2::IDENTITY, &ball, &at(0.3, 2.0)));
    let m = contact(&floor, &Pose2::IDENTITY, &ball, &at(0.3, 2.0), 1.6).unwrap();
    assert!((m.depth() + 1.5).abs() < EPS);
    assert!(contact(&floor, &Pose2::IDENTITY, &ball, &at(0.3, 2.0), 1.4).is_none());
}

#[test]
fn circle_in_a_v_touches_both_arms() {
    let v = chain(&[[-2.0, 2.0], [0.0, 0.0], [2.0, 2.0]]);
    let ball: Shape = Circle::new(1.0).unwrap().into();
    let ms = all_contacts(&v, &Pose2::IDENTITY, &ball, &at(0.0, 1.3), 0.0);
    assert_eq!(ms.len(), 2, "{ms:?}");
    let want = 1.0 - 1.3 * FRAC_1_SQRT_2;
    let mut normals: Vec<Vec2> = ms.iter().map(|m| m.normal).collect();
    normals.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert!(near(normals[0], Vec2::new(-1.0, 1.0) * FRAC_1_SQRT_2));
    assert!(near(normals[1], Vec2::new(1.0, 1.0) * FRAC_1_SQRT_2));
    for m in &ms {
        assert!((m.depth() - want).abs() < EPS, "{m:?}");
    }
}

#[test]
fn box_on_a_v_shaped_corner_gets_two_normals() {
    let v = chain(&[[-2.0, 2.0], [0.0, 0.0], [2.0, 2.0]]);
    // An upright box: its two bottom corners sink 0.1 into the arms.
    let b: Shape = Rect::new(Vec2::splat(0.5)).unwrap().into();
    let ms = all_contacts(&v, &Pose2::IDENTITY, &b, &at(0.0, 0.9), 0.0);
    assert_eq!(ms.len(), 2, "{ms:?}");
    for m in &ms {
        let n = Vec2::new(-m.normal.x.signum(), -1.0) * FRAC_1_SQRT_2;
        assert!(near(-m.normal, n), "{m:?}");
        assert_eq!(m.len(), 1);
        assert!((m.depth() - 0.1 * FRAC_1_SQRT_2).abs() < EPS, "{m:?}");
        let corner = Vec2::new(-0.5 * m.normal.x.signum(), 0.4);
        assert!(near(m.points()[0].point_b, corner), "{m:?}");
    }
    // A box turned 45° lies with a face on each arm: two points per arm.
    let pose = Pose2::new(Vec2::new(0.0, 0.65), std::f32::consts::FRAC_PI_4);
    let ms = all_contacts(&v, &Pose2::IDENTITY, &b, &pose, 0.0);
    assert_eq!(ms.len(), 2, "{ms:?}");
    let want = 0.5 - 0.65 * FRAC_1_SQRT_2;
    for m in &ms {
        assert!((m.normal.x.abs() - FRAC_1_SQRT_2).abs() < EPS, "{m:?}");
        assert!((m.normal.y - FRAC_1_SQRT_2).abs() < EPS, "{m:?}");
        assert_eq!(m.len(), 2, "{m:?}");
        for p in m.points() {
            assert!((p.depth - want).abs() < 1e-4, "{m:?}");
            // Each point is deepest along the normal: B's point is behind A's.
            assert!(((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() < 1e-4);
        }
    }
    // The swapped query mirrors it.
    let mut sw = Vec::new();
    contacts(&b, &pose, &v, &Pose2::IDENTITY, 0.0, &mut sw);
    assert_eq!(sw.len(), 2);
    for (m, s) in ms.iter().zip(&sw) {
        assert!(near(m.normal, -s.normal));
    }
}

#[test]
fn rays_and_points_through_the_dispatcher() {
    let l = chain(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0]]);
    let pose = Pose2::new(Vec2::new(1.0, 1.0), std::f32::consts::FRAC_PI_2);
    // Local (1, 0) is at world (1, 2); local segment 0 lies along world +y.
    let ray = Ray2::new(Vec2::new(-2.0, 2.0), Vec2::X).unwrap();
    let h = ray_cast(&l, &pose, &ray, 10.0, true).unwrap();
    assert!(
        (h.toi - 3.0).abs() < EPS && near(h.point, Vec2::new(1.0, 2.0)),
        "{h:?}"
    );
    assert!(near(h.normal, -Vec2::X));
    assert!(ray_cast(&l, &pose, &ray, 2.5, false).is_none());
    let pr = project_point(&l, &pose, Vec2::new(0.0, 2.0), true);
    assert!(near(pr.point, Vec2::new(1.0, 2.0)) && !pr.is_inside);
    // A curve contains only its own points (exactly, as a segment does).
    assert!(contains_point(&l, &at(1.0, 1.0), Vec2::new(2.0, 1.0)));
    assert!(!contains_point(&l, &at(1.0, 1.0), Vec2::new(2.0, 1.1)));
    assert!(project_point(&l, &at(1.0, 1.0), Vec2::new(2.0, 1.0), false).is_inside);
}

#[test]
fn polyline_against_polyline() {
    let a = chain(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]);
    let b = chain(&[[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]]);
    let d = distance(&a, &Pose2::IDENTITY, &b, &at(0.5, 1.0));
    assert!(
        (d.distance - 1.0).abs() < EPS && near(d.normal, Vec2::Y),
        "{d:?}"
    );
    assert!(!intersects(&a, &Pose2::IDENTITY, &b, &at(0.5, 1.0)));
    // B turned upright, crossing A at x = 1.
    let up = Pose2::new(Vec2::new(1.0, -0.5), std::f32::consts::FRAC_PI_2);
    assert!(intersects(&a, &Pose2::IDENTITY, &b, &up));
    assert!(distance(&a, &Pose2::IDENTITY, &b, &up).distance <= 0.0);
    let m = contact(&a, &Pose2::IDENTITY, &b, &up, 0.0).expect("crossing");
    assert!(m.depth() >= 0.0);
    // Parallel, within the prediction: one manifold, two points.
    let ms = all_contacts(&a, &Pose2::IDENTITY, &b, &at(0.5, 0.1), 0.2);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(ms[0].len(), 2);
    assert!(near(ms[0].normal, Vec2::Y));
    assert!((ms[0].depth() + 0.1).abs() < EPS);
}

#[test]
fn compound_holding_a_polyline() {
    let floor = chain(&[[-3.0, 0.0], [0.0, 0.0], [3.0, 0.0]]);
    let ball: Shape = Circle::new(0.5).unwrap().into();
    let c: Shape = Compound::new(vec![(at(10.0, 10.0), ball.clone()), (at(0.0, -1.0), floor)])
        .unwrap()
        .into();
    let ms = all_contacts(&c, &Pose2::IDENTITY, &ball, &at(1.0, -0.6), 0.0);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(ms[0].part_a, 1);
    assert!(near(ms[0].normal, Vec2::Y) && (ms[0].depth() - 0.1).abs() < EPS);
    let d = distance(&ball, &at(1.0, 0.0), &c, &Pose2::IDENTITY);
    assert!(
        (d.distance - 0.5).abs() < EPS && near(d.normal, -Vec2::Y),
        "{d:?}"
    );
    assert!(intersects(&ball, &at(1.0, -0.6), &c, &Pose2::IDENTITY));
}

#[test]
fn an_open_end_is_a_rounded_corner() {
    // Past the chain's free end the ball gets the corner normal.
    let floor = chain(&[[-3.0, 0.0], [0.0, 0.0]]);
    let ball: Shape = Circle::new(1.0).unwrap().into();
    let m = contact(&floor, &Pose2::IDENTITY, &ball, &at(0.6, 0.6), 0.0).unwrap();
    assert!(near(m.normal, Vec2::splat(FRAC_1_SQRT_2)), "{m:?}");
    assert_eq!(m.points()[0].id.0 >> 16, Feature::vertex(1).0 as u32);
}

#[test]
fn zero_length_segments_and_repeated_vertices_are_harmless() {
    // A chain with a repeated vertex (a zero-length segment at x = 0) and a
    // lone point segment: queries neither panic nor give NaN, and the
    // repeated vertex is still an interior vertex of the flat floor.
    let v = vec![
        Vec2::new(-3.0, 0.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(3.0, 0.0),
        Vec2::new(5.0, 5.0),
    ];
    let l: Shape = Polyline::new(v, Some(vec![[0, 1], [1, 2], [2, 3], [4, 4]]))
        .unwrap()
        .into();
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    for x in [-0.51, -0.5, -0.499, 0.0, 0.499, 0.5, 0.505] {
        let mut out = Vec::new();
        contacts(&l, &Pose2::IDENTITY, &b, &at(x, 0.24), 0.0, &mut out);
        assert!(!out.is_empty(), "x = {x}");
        for m in &out {
            assert!(m.normal.is_finite() && m.points().iter().all(|p| p.depth.is_finite()));
            assert!(near(m.normal, Vec2::Y), "x = {x}: {m:?}");
        }
        let d = distance(&l, &Pose2::IDENTITY, &b, &at(x, 0.24));
        assert!((d.distance + 0.01).abs() < EPS, "{d:?}");
    }
    // The point segment alone: a ball resting on it.
    let ball: Shape = Circle::new(1.0).unwrap().into();
    let m = contact(&l, &Pose2::IDENTITY, &ball, &at(5.0, 5.9), 0.0).unwrap();
    assert!(
        near(m.normal, Vec2::Y) && (m.depth() - 0.1).abs() < EPS,
        "{m:?}"
    );
    // A ray down through the repeated vertex hits it.
    let r = Ray2::new(Vec2::new(0.0, 2.0), -Vec2::Y).unwrap();
    let h = ray_cast(&l, &Pose2::IDENTITY, &r, 100.0, false).unwrap();
    assert!(
        (h.toi - 2.0).abs() < EPS && near(h.normal, Vec2::Y),
        "{h:?}"
    );
}
