//! Internal-vertex ("ghost collision") handling of 2D polylines: a shape
//! sliding along a straight chain of many collinear segments gets only the
//! floor normal, never a sideways normal from a shared vertex.

use peng::d2::*;

/// 100 collinear unit segments along the x axis, from x = 0 to x = 100.
fn floor() -> Shape {
    let v = (0..=100).map(|i| Vec2::new(i as f32, 0.0)).collect();
    Polyline::new(v, None).unwrap().into()
}

/// Centre x positions: a regular sweep plus positions that put a box corner
/// just past a vertex (by less than the penetration depth), where a lone
/// segment's query finds its sideways normal.
fn offsets() -> Vec<f32> {
    let mut xs: Vec<f32> = (0..7000).map(|i| 1.0 + i as f32 * 0.014).collect();
    for k in 2..98 {
        for e in [0.0, 1e-4, 1e-3, 0.004, 0.009] {
            xs.push(k as f32 + 0.5 + e);
            xs.push(k as f32 + 0.5 - e);
        }
    }
    xs
}

/// A 1 x 0.5 box sunk `depth` into the floor at `x`, slightly tilted by `angle`.
fn box_pose(x: f32, depth: f32, angle: f32) -> Pose2 {
    Pose2::new(Vec2::new(x, 0.25 - depth), angle)
}

fn check_normals(shape: &Shape, pose_of: impl Fn(f32) -> Pose2, options: &ContactOptions) -> usize {
    let floor = floor();
    let mut bad = 0;
    let mut out = Vec::new();
    for x in offsets() {
        let pose = pose_of(x);
        out.clear();
        contacts_with_options(
            &floor,
            &Pose2::IDENTITY,
            shape,
            &pose,
            0.02,
            options,
            &mut out,
        );
        assert!(!out.is_empty(), "no contact at x = {x}");
        bad += out
            .iter()
            .filter(|m| (m.normal - Vec2::Y).length() > 1e-4)
            .count();
        // B-first: the mirror, also upright.
        let mut sw = Vec::new();
        contacts_with_options(
            shape,
            &pose,
            &floor,
            &Pose2::IDENTITY,
            0.02,
            options,
            &mut sw,
        );
        assert_eq!(sw.len(), out.len());
        bad += sw
            .iter()
            .filter(|m| (m.normal + Vec2::Y).length() > 1e-4)
            .count();
    }
    bad
}

#[test]
fn sliding_box_gets_only_the_floor_normal() {
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    let on = ContactOptions::default();
    assert_eq!(check_normals(&b, |x| box_pose(x, 0.01, 0.0), &on), 0);
    // Every manifold spans the box's bottom face: two points at its corners,
    // at the sunk depth.
    let f = floor();
    for x in offsets() {
        let mut out = Vec::new();
        contacts(
            &f,
            &Pose2::IDENTITY,
            &b,
            &box_pose(x, 0.01, 0.0),
            0.0,
            &mut out,
        );
        assert_eq!(out.len(), 1, "x = {x}: {out:?}");
        let m = out[0];
        assert_eq!(m.len(), 2, "x = {x}: {m:?}");
        let mut xs = [m.points()[0].point_b.x, m.points()[1].point_b.x];
        xs.sort_by(f32::total_cmp);
        assert!(
            (xs[0] - (x - 0.5)).abs() < 1e-4 && (xs[1] - (x + 0.5)).abs() < 1e-4,
            "x = {x}: {m:?}"
        );
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-4, "x = {x}: {m:?}");
        }
    }
}

#[test]
fn tilted_box_and_round_shapes_get_only_the_floor_normal() {
    let on = ContactOptions::default();
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    assert_eq!(check_normals(&b, |x| box_pose(x, 0.01, 0.003), &on), 0);
    let cap: Shape = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25)
        .unwrap()
        .into();
    assert_eq!(check_normals(&cap, |x| box_pose(x, 0.01, 0.0), &on), 0);
    let poly: Shape = ConvexPolygon::from_points(&[
        Vec2::new(-0.5, -0.25),
        Vec2::new(0.5, -0.25),
        Vec2::new(0.3, 0.25),
        Vec2::new(-0.3, 0.25),
    ])
    .unwrap()
    .into();
    assert_eq!(check_normals(&poly, |x| box_pose(x, 0.01, 0.0), &on), 0);
}

#[test]
fn without_the_fix_the_vertices_snag() {
    // The control: the same sweep with the correction off does give
    // sideways normals (the test above can fail).
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    let off = ContactOptions {
        fix_internal_vertices: false,
    };
    assert!(check_normals(&b, |x| box_pose(x, 0.01, 0.0), &off) > 100);
}

#[test]
fn a_real_corner_still_pushes_sideways() {
    // A step up at x = 50: the wall's face normal (-x) stays.
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(50.0, 0.0),
        Vec2::new(50.0, 1.0),
        Vec2::new(60.0, 1.0),
    ];
    let step: Shape = Polyline::new(v, None).unwrap().into();
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    let mut out = Vec::new();
    contacts(
        &step,
        &Pose2::IDENTITY,
        &b,
        &box_pose(49.55, 0.01, 0.0),
        0.0,
        &mut out,
    );
    assert!(
        out.iter().any(|m| (m.normal + Vec2::X).length() < 1e-5),
        "{out:?}"
    );
    assert!(
        out.iter().any(|m| (m.normal - Vec2::Y).length() < 1e-5),
        "{out:?}"
    );
}

#[test]
fn ids_stay_while_the_same_features_touch() {
    // The box's corners stay over segments 9 and 10 while it slides from
    // x = 10.2 to 10.4: the same two (segment, corner) ids every step, and
    // segment 10's edge is named on the polyline's side.
    let f = floor();
    let b: Shape = Rect::new(Vec2::new(0.5, 0.25)).unwrap().into();
    let ids_at = |x: f32| {
        let m = contact(&f, &Pose2::IDENTITY, &b, &box_pose(x, 0.01, 0.0), 0.0).unwrap();
        let mut ids: Vec<u32> = m.points().iter().map(|p| p.id.0).collect();
        ids.sort_unstable();
        ids
    };
    let first = ids_at(10.2);
    assert_eq!(first.len(), 2);
    let named: Vec<u16> = first.iter().map(|id| (id >> 16) as u16).collect();
    assert!(
        named.contains(&peng::query::types::Feature::edge(9).0),
        "{named:?}"
    );
    assert!(
        named.contains(&peng::query::types::Feature::edge(10).0),
        "{named:?}"
    );
    for k in 1..=20 {
        assert_eq!(
            ids_at(10.2 + k as f32 * 0.01),
            first,
            "x = {}",
            10.2 + k as f32 * 0.01
        );
    }
}
