//! Differential tests of peng's 3D pair queries against parry3d: for every pair
//! of bounded convex kinds (ball, capsule, cuboid, cylinder, cone, segment,
//! triangle, convex polyhedron) 10,000 random pairs, checked by `common::pairs`
//! (see there for the checks, the tolerances and when a mismatch is excused).
//! The counts scale with `PENG_TEST_SCALE` and the written seeds combine with
//! `PENG_TEST_SEED` (`peng_bench::seeds`, `docs/testing.md`).

mod common;

use common::pairs;
use common::peer::Peer;
use peng::d3::{Shape, ShapeKind};
use peng_bench::dim::{Dim, D3};
use peng_bench::Rng;

/// Whether the overlapping fraction `frac` is sensible for the kinds: two flat
/// shapes (segments, triangles) cross rarely (1 % is enough to test), two
/// segments in 3D (almost) never.
fn balanced(ka: ShapeKind, kb: ShapeKind, frac: f32) -> bool {
    let flat = |k| matches!(k, ShapeKind::Segment | ShapeKind::Triangle);
    (ka == ShapeKind::Segment && kb == ShapeKind::Segment)
        || pairs::overlap_fraction_ok(flat(ka) && flat(kb), frac)
}

fn run(ka: ShapeKind, kb: ShapeKind) {
    pairs::run::<D3>(ka, kb, 0xd1ff_3d00, balanced);
}

common::pair_tests! {
    ball_ball: Ball, Ball;
    ball_capsule: Ball, Capsule;
    ball_cuboid: Ball, Cuboid;
    ball_cylinder: Ball, Cylinder;
    ball_cone: Ball, Cone;
    ball_segment: Ball, Segment;
    ball_triangle: Ball, Triangle;
    ball_polyhedron: Ball, Polyhedron;
    capsule_capsule: Capsule, Capsule;
    capsule_cuboid: Capsule, Cuboid;
    capsule_cylinder: Capsule, Cylinder;
    capsule_cone: Capsule, Cone;
    capsule_segment: Capsule, Segment;
    capsule_triangle: Capsule, Triangle;
    capsule_polyhedron: Capsule, Polyhedron;
    cuboid_cuboid: Cuboid, Cuboid;
    cuboid_cylinder: Cuboid, Cylinder;
    cuboid_cone: Cuboid, Cone;
    cuboid_segment: Cuboid, Segment;
    cuboid_triangle: Cuboid, Triangle;
    cuboid_polyhedron: Cuboid, Polyhedron;
    cylinder_cylinder: Cylinder, Cylinder;
    cylinder_cone: Cylinder, Cone;
    cylinder_segment: Cylinder, Segment;
    cylinder_triangle: Cylinder, Triangle;
    cylinder_polyhedron: Cylinder, Polyhedron;
    cone_cone: Cone, Cone;
    cone_segment: Cone, Segment;
    cone_triangle: Cone, Triangle;
    cone_polyhedron: Cone, Polyhedron;
    segment_segment: Segment, Segment;
    segment_triangle: Segment, Triangle;
    segment_polyhedron: Segment, Polyhedron;
    triangle_triangle: Triangle, Triangle;
    triangle_polyhedron: Triangle, Polyhedron;
    polyhedron_polyhedron: Polyhedron, Polyhedron;
}

/// The parry side and the input generators run on every kind (checked with peng
/// left out): every shape converts, parry answers every query, and the inputs
/// are balanced.
#[test]
fn parry_side_runs_and_inputs_are_balanced() {
    pairs::parry_side_runs_and_inputs_are_balanced::<D3>(balanced);
}

/// A shape that is not convex-bounded still converts (half-space, compound).
#[test]
fn every_kind_converts() {
    let mut rng = Rng::new(3);
    for k in [ShapeKind::HalfSpace, ShapeKind::Compound] {
        let s: Shape = D3::random_shape(&mut rng, k).expect("generator");
        let _ = <D3 as Peer>::parry_shape(&s);
    }
}
