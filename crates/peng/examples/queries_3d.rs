//! 3D pair queries: a cuboid, a ball, a capsule and a convex hull built from
//! points; overlap tests, contact manifolds, signed distance with closest
//! points, ray casts and a point projection.
//!
//! Every query is a pure function of `(shape, pose, shape, pose)` from the
//! `peng::d3` facade. Normals point from A to B; depth is positive for
//! penetration and a signed distance is its negative. The closed-form answers
//! are checked with `assert!`, so the example fails if they ever change.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng --example queries_3d
//! ```

use peng::d3::*;
use std::error::Error;

/// Tolerance for the closed-form answers checked below.
const EPS: f32 = 1e-4;

fn main() -> Result<(), Box<dyn Error>> {
    // Shapes are built in their local frame; constructors validate their input
    // (negative sizes, NaN, flat hulls) and return a `GeometryError`.
    let slab: Shape = Cuboid::new(Vec3::new(2.0, 0.5, 2.0))?.into(); // 4 x 1 x 4
    let ball: Shape = Ball::new(0.5)?.into();
    let capsule: Shape = Capsule::vertical(0.5, 0.25)?.into(); // core along local y
                                                               // The convex hull of a cloud of points: interior points are dropped.
    let cloud = [
        Vec3::new(0.0, 0.8, 0.0), // apex
        Vec3::new(-0.5, 0.0, -0.5),
        Vec3::new(0.5, 0.0, -0.5),
        Vec3::new(0.5, 0.0, 0.5),
        Vec3::new(-0.5, 0.0, 0.5),
        Vec3::new(0.0, 0.2, 0.0), // inside: not a hull vertex
    ];
    let hull = ConvexPolyhedron::from_points(&cloud)?;
    println!(
        "hull: {} vertices, {} faces, volume {:.4}",
        hull.vertices().len(),
        hull.faces().len(),
        hull.volume()
    );
    assert_eq!(hull.vertices().len(), 5); // a square pyramid
    assert!((hull.volume() - 0.8 / 3.0).abs() < EPS); // base 1 x 1, height 0.8
    let pyramid: Shape = hull.into();

    let slab_pose = Pose3::IDENTITY; // top face at y = 0.5
    let ball_pose = Pose3::from_translation(Vec3::new(0.0, 0.9, 0.0)); // 0.1 into the slab
    let pyramid_pose = Pose3::from_translation(Vec3::new(1.0, 0.45, 1.0)); // base 0.05 into it
                                                                           // A capsule lying along x (turned a quarter turn about z), above the slab.
    let capsule_pose = Pose3::new(
        Vec3::new(-1.0, 1.25, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );

    // 1. Overlap tests.
    let pairs = [
        (
            "slab/ball",
            intersects(&slab, &slab_pose, &ball, &ball_pose),
        ),
        (
            "slab/pyramid",
            intersects(&slab, &slab_pose, &pyramid, &pyramid_pose),
        ),
        (
            "slab/capsule",
            intersects(&slab, &slab_pose, &capsule, &capsule_pose),
        ),
    ];
    for (name, hit) in pairs {
        println!("overlap  {name}: {hit}");
    }
    assert!(pairs[0].1 && pairs[1].1 && !pairs[2].1);

    // 2. Contact manifolds (one normal, up to 4 points). The last argument is
    //    a prediction distance (0: only overlapping pairs get a manifold).
    let m = contact(&slab, &slab_pose, &ball, &ball_pose, 0.0).ok_or("slab/ball: no contact")?;
    println!(
        "contact  slab/ball: normal {:.3}, depth {:.3}, {} point(s)",
        m.normal,
        m.depth(),
        m.len()
    );
    assert!((m.normal - Vec3::Y).length() < EPS && (m.depth() - 0.1).abs() < EPS);

    // The pyramid's square base sinks 0.05 into the slab: a face contact with
    // four points, one per base corner.
    let m = contact(&slab, &slab_pose, &pyramid, &pyramid_pose, 0.0)
        .ok_or("slab/pyramid: no contact")?;
    println!(
        "contact  slab/pyramid: normal {:.3}, depth {:.3}, {} points",
        m.normal,
        m.depth(),
        m.len()
    );
    for p in m.points() {
        println!(
            "         on slab {:.3}, on pyramid {:.3}, depth {:.3}",
            p.point_a, p.point_b, p.depth
        );
        assert!((p.point_a - p.point_b - m.normal * p.depth).length() < EPS);
    }
    assert_eq!(m.len(), 4);
    assert!((m.normal - Vec3::Y).length() < EPS && (m.depth() - 0.05).abs() < EPS);

    // Seen from the other side the normal flips: B to A becomes A to B.
    let flipped = contact(&ball, &ball_pose, &slab, &slab_pose, 0.0).ok_or("ball/slab")?;
    assert!((flipped.normal + Vec3::Y).length() < EPS);

    // 3. Signed distance and closest points. The capsule's lowest point is at
    //    y = 1.25 - 0.25 = 1.0, half a unit above the slab's top.
    let d = distance(&slab, &slab_pose, &capsule, &capsule_pose);
    println!(
        "distance slab/capsule: {:.4}, on slab {:.3}, on capsule {:.3}, normal {:.3}",
        d.distance, d.point_a, d.point_b, d.normal
    );
    assert!((d.distance - 0.5).abs() < EPS && (d.normal - Vec3::Y).length() < EPS);

    // Capsule to pyramid: GJK on the hull and the capsule's core segment.
    let d = distance(&capsule, &capsule_pose, &pyramid, &pyramid_pose);
    println!(
        "distance capsule/pyramid: {:.4}, on capsule {:.3}, on pyramid {:.3}",
        d.distance, d.point_a, d.point_b
    );
    assert!(d.distance > 0.0);
    assert!(((d.point_b - d.point_a).length() - d.distance).abs() < 1e-3);

    // Overlapping shapes: a negative distance, its magnitude the depth.
    let d = distance(&slab, &slab_pose, &ball, &ball_pose);
    println!(
        "distance slab/ball: {:.4} (negative: overlapping)",
        d.distance
    );
    assert!((d.distance + 0.1).abs() < EPS);

    // 4. Ray casts: toi in units of |dir|, the normal faces against the ray.
    // Straight down, 0.2 beside the apex (at (1, 1.25, 1)): the +x face, which
    // drops 0.8 over 0.5, is hit at y = 1.25 - 0.32 = 0.93.
    let ray = Ray3::new(Vec3::new(1.2, 5.0, 1.0), Vec3::new(0.0, -1.0, 0.0))?;
    let hit = ray_cast(&pyramid, &pyramid_pose, &ray, 100.0, true).ok_or("ray missed")?;
    println!(
        "ray      down onto the pyramid: toi {:.3}, point {:.3}, normal {:.3}",
        hit.toi, hit.point, hit.normal
    );
    assert!((hit.toi - 4.07).abs() < EPS);
    assert!((hit.normal - Vec3::new(0.8, 0.5, 0.0).normalize()).length() < EPS);
    let ray = Ray3::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0))?;
    let hit = ray_cast(&slab, &slab_pose, &ray, 100.0, true).ok_or("ray missed")?;
    println!(
        "ray      along +x (|dir| = 2) into the slab: toi {:.3}, point {:.3}, normal {:.3}",
        hit.toi, hit.point, hit.normal
    );
    assert!((hit.toi - 1.5).abs() < EPS && (hit.normal + Vec3::X).length() < EPS);

    // 5. Point projection and containment.
    let q = Vec3::new(0.0, 3.0, 0.0);
    let proj = project_point(&ball, &ball_pose, q, true);
    println!(
        "project  {:.3} onto the ball: {:.3} (inside: {})",
        q, proj.point, proj.is_inside
    );
    assert!((proj.point - Vec3::new(0.0, 1.4, 0.0)).length() < EPS && !proj.is_inside);
    assert!(contains_point(&slab, &slab_pose, Vec3::new(1.9, 0.0, -1.9)));
    Ok(())
}
