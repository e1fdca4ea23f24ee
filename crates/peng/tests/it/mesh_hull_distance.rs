//! Distance through a mesh's kept convex hull (`TriMesh::with_convex_hull`):
//! the same answers as the triangle search, whether the hulls settle the pair,
//! bound the search, or touch.

use crate::mesh_common;

use mesh_common::{icosphere, random_pose, torus, Rng};
use peng::d3::{distance, Ball, Cuboid, Distance3, Shape};
use peng::math::{Pose3, Vec3};
use peng::mesh::TriMesh;
use std::sync::Arc;

/// A sphere of radius about 1 whose vertices are pushed in or out at random
/// (by up to `dent`): a closed mesh with concave dents.
fn dented(rng: &mut Rng, dent: f32) -> TriMesh {
    let (v, t) = icosphere(1.0, 2);
    let v = v
        .into_iter()
        .map(|p| p * (1.0 + rng.range(-dent, dent)))
        .collect();
    TriMesh::new(v, t).unwrap()
}

/// The mesh as a shape, without and with its hull.
fn both(m: &TriMesh) -> (Shape, Shape) {
    let hulled = m.clone().with_convex_hull();
    assert!(hulled.convex_hull().is_some());
    (
        Shape::TriMesh(Arc::new(m.clone())),
        Shape::TriMesh(Arc::new(hulled)),
    )
}

/// Distance from `p` to the surface of `m` placed at `pose`.
fn off_surface(m: &TriMesh, pose: &Pose3, p: Vec3) -> f32 {
    (m.project_point(pose, p).point - p).length()
}

/// `got` (with hulls) agrees with `want` (the triangle search): the same
/// distance, points on the surfaces that far apart.
fn agree(got: &Distance3, want: &Distance3, what: &str) {
    let tol = 2e-6 * (1.0 + want.distance.abs());
    assert!(
        (got.distance - want.distance).abs() <= tol,
        "{what}: {} with the hull, {} without",
        got.distance,
        want.distance
    );
    if want.distance > 0.0 {
        let gap = (got.point_b - got.point_a).length();
        assert!(
            (gap - got.distance).abs() <= tol,
            "{what}: points {gap} apart"
        );
        assert!(got.normal.dot(want.normal) > 0.999, "{what}: normal");
    }
}

#[test]
fn mesh_pairs_agree_with_the_triangle_search() {
    let mut rng = Rng(4711);
    let shapes: Vec<(TriMesh, &str)> = vec![
        (dented(&mut rng, 0.15), "dented sphere"),
        (dented(&mut rng, 0.02), "lightly dented sphere"),
        (
            {
                let (v, t) = torus(1.0, 0.3, 24, 12);
                TriMesh::new(v, t).unwrap()
            },
            "torus",
        ),
        (
            {
                let (v, t) = icosphere(0.7, 2);
                TriMesh::new(v, t).unwrap()
            },
            "sphere",
        ),
    ];
    let mut apart = 0;
    for (ma, na) in &shapes {
        let (plain_a, hull_a) = both(ma);
        for (mb, nb) in &shapes {
            let (plain_b, hull_b) = both(mb);
            for _ in 0..150 {
                let pa = random_pose(&mut rng, 0.5);
                let pb = random_pose(&mut rng, 3.0);
                let want = distance(&plain_a, &pa, &plain_b, &pb);
                let got = distance(&hull_a, &pa, &hull_b, &pb);
                agree(&got, &want, &format!("{na} and {nb}"));
                if want.distance > 0.0 {
                    apart += 1;
                    assert!(off_surface(ma, &pa, got.point_a) < 1e-5);
                    assert!(off_surface(mb, &pb, got.point_b) < 1e-5);
                }
                // Only one side with a hull.
                let one = distance(&hull_a, &pa, &plain_b, &pb);
                agree(&one, &want, &format!("{na} (hull) and {nb}"));
            }
        }
    }
    assert!(apart > 1000, "{apart} apart pairs");
}

#[test]
fn mesh_and_convex_shapes_agree_with_the_triangle_search() {
    let mut rng = Rng(99);
    let mesh = dented(&mut rng, 0.2);
    let (plain, hulled) = both(&mesh);
    let others = [
        Shape::from(Ball::new(0.3).unwrap()),
        Shape::from(Cuboid::new(Vec3::new(0.4, 0.1, 0.25)).unwrap()),
    ];
    for other in &others {
        for _ in 0..400 {
            let pa = random_pose(&mut rng, 0.5);
            let pb = random_pose(&mut rng, 2.5);
            let want = distance(&plain, &pa, other, &pb);
            agree(&distance(&hulled, &pa, other, &pb), &want, "mesh, shape");
            let want = distance(other, &pb, &plain, &pa);
            agree(&distance(other, &pb, &hulled, &pa), &want, "shape, mesh");
        }
    }
}

#[test]
fn a_ball_over_a_torus_hole_is_measured_to_the_ring() {
    // Torus of radii 1 and 0.3 about y; a ball of radius 0.1 over its hole.
    // The hull's top is 0.1 from the ball, but the ring is
    // hypot(1, 0.5) - 0.3 - 0.1 away (less the polygon's chord error).
    let (v, t) = torus(1.0, 0.3, 48, 24);
    let (plain, ring) = both(&TriMesh::new(v, t).unwrap());
    let ball = Shape::from(Ball::new(0.1).unwrap());
    let above = Pose3::from_translation(Vec3::new(0.0, 0.5, 0.0));
    let d = distance(&ring, &Pose3::IDENTITY, &ball, &above);
    let exact = 1.25f32.sqrt() - 0.4;
    assert!(
        (d.distance - exact).abs() < 0.01,
        "{} for {exact}",
        d.distance
    );
    let want = distance(&plain, &Pose3::IDENTITY, &ball, &above);
    agree(&d, &want, "ball over the hole");
}

#[test]
fn a_flat_mesh_keeps_no_hull_and_still_measures() {
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE.with_z(0.0)];
    let flat = TriMesh::new(v, vec![[0, 1, 2], [1, 3, 2]])
        .unwrap()
        .with_convex_hull();
    assert!(flat.convex_hull().is_none());
    let flat = Shape::TriMesh(Arc::new(flat));
    let ball = Shape::from(Ball::new(0.25).unwrap());
    let up = Pose3::from_translation(Vec3::new(0.5, 0.5, 1.0));
    let d = distance(&flat, &Pose3::IDENTITY, &ball, &up);
    assert!((d.distance - 0.75).abs() < 1e-6, "{}", d.distance);
}
