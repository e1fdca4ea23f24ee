//! Differential test of peng's ray casts against parry's
//! `cast_ray_and_get_normal` (solid), 10,000 rays per convex kind in 2D and 3D,
//! checked by `common::rays` (see there for the checks and when a mismatch is
//! excused). The counts scale with `PENG_TEST_SCALE` and the written seeds
//! combine with `PENG_TEST_SEED` (`peng_bench::seeds`, `docs/testing.md`).

mod common;

use common::rays::{self, RAYS};
use peng::d2 as p2;
use peng::d3 as p3;
use peng_bench::dim::{D2, D3};

fn run3(kind: p3::ShapeKind, seed: u64) {
    // Rays (almost) never hit a segment in 3D, and hit flat triangles less often.
    let min_hits = match kind {
        p3::ShapeKind::Segment => 0,
        p3::ShapeKind::Triangle => RAYS / 50,
        _ => RAYS / 5,
    };
    rays::run::<D3>(kind, seed, min_hits);
}

fn run2(kind: p2::ShapeKind, seed: u64) {
    // More than a fifth of the rays hit.
    rays::run::<D2>(kind, seed, RAYS / 5 + 1);
}

macro_rules! ray_tests {
    ($($(#[$m:meta])* $name:ident: $run:ident, $kind:expr, $seed:expr;)*) => {$(
        #[test]
        $(#[$m])*
        fn $name() {
            $run($kind, $seed);
        }
    )*};
}

ray_tests! {
    ray3_ball: run3, p3::ShapeKind::Ball, 0x7a_3d00;
    ray3_capsule: run3, p3::ShapeKind::Capsule, 0x7a_3d01;
    ray3_cuboid: run3, p3::ShapeKind::Cuboid, 0x7a_3d02;
    ray3_cylinder: run3, p3::ShapeKind::Cylinder, 0x7a_3d03;
    ray3_cone: run3, p3::ShapeKind::Cone, 0x7a_3d04;
    ray3_segment: run3, p3::ShapeKind::Segment, 0x7a_3d05;
    ray3_triangle: run3, p3::ShapeKind::Triangle, 0x7a_3d06;
    ray3_polyhedron: run3, p3::ShapeKind::Polyhedron, 0x7a_3d07;
    ray2_circle: run2, p2::ShapeKind::Circle, 0x7a_2d00;
    ray2_capsule: run2, p2::ShapeKind::Capsule, 0x7a_2d01;
    ray2_rect: run2, p2::ShapeKind::Rect, 0x7a_2d02;
    ray2_segment: run2, p2::ShapeKind::Segment, 0x7a_2d03;
    ray2_triangle: run2, p2::ShapeKind::Triangle, 0x7a_2d04;
    ray2_polygon: run2, p2::ShapeKind::Polygon, 0x7a_2d05;
}
