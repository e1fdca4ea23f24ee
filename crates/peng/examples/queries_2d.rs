//! 2D pair queries on a few shapes: overlap test, contact manifold, signed
//! distance with closest points, a ray cast and a point projection.
//!
//! Every query is a pure function of `(shape, pose, shape, pose)` from the
//! `peng::d2` facade. Conventions shown here (and checked with `assert!`, so
//! the example fails if they ever change):
//!
//! - normals point from A to B (moving B by `normal * depth` separates them);
//! - depth is positive for penetration; a signed distance is its negative.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng --example queries_2d
//! ```

use peng::d2::*;
use std::error::Error;

/// Tolerance for the closed-form answers checked below.
const EPS: f32 = 1e-4;

fn main() -> Result<(), Box<dyn Error>> {
    // Constructors validate their input and return a `GeometryError` naming
    // the bad field (a negative radius, a flat polygon, ...), hence the `?`.
    // `.into()` turns each concrete shape into the closed enum `Shape` that
    // the queries take.
    let crate_box: Shape = Rect::new(Vec2::new(1.0, 0.5))?.into(); // 2 x 1 box
    let ball: Shape = Circle::new(0.5)?.into();
    let pill: Shape = Capsule::vertical(0.5, 0.25)?.into(); // core y in [-0.5, 0.5]
    let hexagon: Shape = ConvexPolygon::from_points(
        &(0..6)
            .map(|i| {
                let a = i as f32 * std::f32::consts::FRAC_PI_3;
                Vec2::new(a.cos(), a.sin()) * 0.6
            })
            .collect::<Vec<_>>(),
    )?
    .into();

    // Poses: a translation and a counter-clockwise angle in radians.
    let box_pose = Pose2::IDENTITY;
    let ball_pose = Pose2::from_translation(Vec2::new(1.3, 0.0)); // 0.2 into the box
    let pill_pose = Pose2::new(Vec2::new(-3.0, 0.0), std::f32::consts::FRAC_PI_2); // lying flat
    let hex_pose = Pose2::from_translation(Vec2::new(0.0, 2.0));

    // 1. Overlap test: the cheapest query, a yes/no answer.
    let box_ball = intersects(&crate_box, &box_pose, &ball, &ball_pose);
    let box_hex = intersects(&crate_box, &box_pose, &hexagon, &hex_pose);
    println!("overlap  box/ball: {box_ball}, box/hexagon: {box_hex}");
    assert!(box_ball && !box_hex);

    // 2. Contact manifold: a normal and up to two points, each with a point on
    //    A's surface, one on B's, the depth and a feature id that stays the same
    //    while the same features touch (for warm starting a solver).
    //    The last argument is a prediction distance: pairs closer than it get a
    //    manifold too, with negative depths (speculative contacts).
    let m = contact(&crate_box, &box_pose, &ball, &ball_pose, 0.0).ok_or("box/ball: no contact")?;
    println!(
        "contact  box/ball: normal {:.3}, depth {:.3}, {} point(s)",
        m.normal,
        m.depth(),
        m.len()
    );
    for p in m.points() {
        println!(
            "         on box {:.3}, on ball {:.3}, depth {:.3}",
            p.point_a, p.point_b, p.depth
        );
        // point_a - point_b = normal * depth, for every point.
        assert!((p.point_a - p.point_b - m.normal * p.depth).length() < EPS);
    }
    assert!(
        (m.normal - Vec2::X).length() < EPS,
        "normal from box to ball"
    );
    assert!(
        (m.depth() - 0.2).abs() < EPS,
        "the ball is 0.2 into the box"
    );

    // Two boxes resting face to face give a two-point manifold.
    let lid_pose = Pose2::from_translation(Vec2::new(0.5, 0.9)); // 0.1 into the top face
    let m2 =
        contact(&crate_box, &box_pose, &crate_box, &lid_pose, 0.0).ok_or("box/box: no contact")?;
    println!(
        "contact  box/box:  normal {:.3}, depth {:.3}, {} points",
        m2.normal,
        m2.depth(),
        m2.len()
    );
    assert_eq!(m2.len(), 2);
    assert!((m2.normal - Vec2::Y).length() < EPS && (m2.depth() - 0.1).abs() < EPS);

    // 3. Signed distance with closest points: positive when apart (then the
    //    points are the closest pair), negative when overlapping (then they are
    //    the deepest points and -distance is the penetration depth).
    let d = distance(&crate_box, &box_pose, &hexagon, &hex_pose);
    println!(
        "distance box/hexagon: {:.4}, on box {:.3}, on hexagon {:.3}, normal {:.3}",
        d.distance, d.point_a, d.point_b, d.normal
    );
    // The hexagon's lowest edge is at y = 2 - 0.6 sin(60°), the box top at 0.5.
    let expected = 2.0 - 0.6 * (3.0f32).sqrt() / 2.0 - 0.5;
    assert!((d.distance - expected).abs() < EPS);
    assert!((d.normal - Vec2::Y).length() < EPS);
    assert!(((d.point_b - d.point_a).length() - d.distance).abs() < EPS);

    let d_pen = distance(&crate_box, &box_pose, &ball, &ball_pose);
    println!(
        "distance box/ball: {:.4} (negative: overlapping)",
        d_pen.distance
    );
    assert!((d_pen.distance + 0.2).abs() < EPS);

    // Capsule against box, along x: the pill lies flat at x = -3, its right
    // end cap reaches x = -3 + 0.5 + 0.25 = -2.25; the box's left face is at -1.
    let d_pill = distance(&pill, &pill_pose, &crate_box, &box_pose);
    println!(
        "distance pill/box: {:.4}, normal {:.3}",
        d_pill.distance, d_pill.normal
    );
    assert!((d_pill.distance - 1.25).abs() < EPS);

    // 4. Ray cast: the first hit with toi <= max_toi, in units of |dir|.
    //    `solid = true`: a ray starting inside a shape hits it at toi = 0.
    let ray = Ray2::new(Vec2::new(-5.0, 0.1), Vec2::new(1.0, 0.0))?;
    let hit = ray_cast(&crate_box, &box_pose, &ray, 100.0, true).ok_or("ray missed the box")?;
    println!(
        "ray      from {:.3} along {:.3}: box hit at toi {:.3}, point {:.3}, normal {:.3}",
        ray.origin, ray.dir, hit.toi, hit.point, hit.normal
    );
    assert!((hit.toi - 4.0).abs() < EPS && (hit.normal + Vec2::X).length() < EPS);
    // The pill lies on the same line, closer: a scene would keep the nearer hit.
    let pill_hit = ray_cast(&pill, &pill_pose, &ray, 100.0, true).ok_or("ray missed the pill")?;
    println!("         pill hit at toi {:.3}", pill_hit.toi);
    assert!(pill_hit.toi < hit.toi);
    // A ray pointing away misses.
    let away = Ray2::new(Vec2::new(-5.0, 0.1), Vec2::new(-1.0, 0.0))?;
    assert!(ray_cast(&crate_box, &box_pose, &away, 100.0, true).is_none());

    // 5. Point projection: the closest point of the shape.
    let q = Vec2::new(3.0, 2.0);
    let proj = project_point(&crate_box, &box_pose, q, true);
    println!(
        "project  {:.3} onto the box: {:.3} (inside: {})",
        q, proj.point, proj.is_inside
    );
    assert!((proj.point - Vec2::new(1.0, 0.5)).length() < EPS && !proj.is_inside);
    Ok(())
}
