//! The 3D benchmark scenes: a pyramid of boxes, and a pile of
//! random convex hulls on a triangle-mesh floor.
//!
//! Both use gravity (0, -10, 0) like the 2D scenes, Box2D's default material
//! (density 1, friction 0.6, restitution 0), and sleeping off.

use crate::scene::{BodySpec3, Geometry3, Kind, Scene3, ShapeSpec3};
use glam::{Quat, Vec3};
use peng_bench::rng::Rng;

/// Gravity of the 3D scenes.
pub const GRAVITY: Vec3 = Vec3::new(0.0, -10.0, 0.0);

/// Default steps for the 3D scenes in the step-count table.
pub const STEPS: usize = 500;

/// Seed of [`convex_pile`]'s random hulls.
pub const PILE_SEED: u64 = 0x5eed_0006;

/// A stepped square pyramid of 1 m cubes: level `l` (from the bottom) is a
/// `(base - l)` × `(base - l)` block of touching cubes centred over the
/// level below, so each cube rests on four (base 20: 2,870 cubes). It
/// stands centred on x = z = 0 on a static ground box (top face y = 0,
/// 2 m thick, reaching 10 m beyond the pyramid on every side). Body 0 is
/// the ground; the last body is the top cube.
pub fn pyramid3(base: usize) -> Scene3 {
    let reach = base as f32 * 0.5 + 10.0;
    let mut bodies = Vec::with_capacity(1 + base * (base + 1) * (2 * base + 1) / 6);
    bodies.push(BodySpec3::new(
        Kind::Static,
        Vec3::new(0.0, -1.0, 0.0),
        Quat::IDENTITY,
        ShapeSpec3::cuboid(Vec3::new(reach, 1.0, reach)),
    ));
    for level in 0..base {
        let side = base - level;
        // The level's first cube centre, so that the level is centred on 0.
        let first = -0.5 * (side as f32 - 1.0);
        let y = 0.5 + level as f32;
        for a in 0..side {
            for c in 0..side {
                bodies.push(BodySpec3::new(
                    Kind::Dynamic,
                    Vec3::new(first + a as f32, y, first + c as f32),
                    Quat::IDENTITY,
                    ShapeSpec3::cuboid(Vec3::splat(0.5)),
                ));
            }
        }
    }
    Scene3 {
        gravity: GRAVITY,
        bodies,
        joints: Vec::new(),
        allow_sleep: false,
    }
}

/// Cells per side of [`convex_pile`]'s floor mesh.
pub const FLOOR_CELLS: usize = 40;
/// Width of one floor cell, in metres.
pub const FLOOR_CELL: f32 = 1.0;
/// Amplitude of the floor's bumps, in metres.
pub const FLOOR_BUMP: f32 = 0.1;
/// Horizontal and vertical spacing of the hulls at the start, in metres
/// (each hull fits in a ball of radius 0.5, so none touch).
pub const PILE_SPACING: f32 = 1.5;
/// Hulls per side of one layer of the starting grid.
pub const PILE_SIDE: usize = 10;

/// Height of the floor at (x, z): gentle bumps, so that the mesh's
/// triangles are not all coplanar, `FLOOR_BUMP·sin(0.7x)·sin(0.7z)`.
pub fn floor_height(x: f32, z: f32) -> f32 {
    FLOOR_BUMP * (0.7 * x).sin() * (0.7 * z).sin()
}

/// A square grid mesh of `cells` × `cells` cells of width `cell`, centred on
/// x = z = 0, vertices at [`floor_height`], two triangles per cell, both
/// counter-clockwise seen from above (normals up).
pub fn floor_mesh(cells: usize, cell: f32) -> Geometry3 {
    let n = cells + 1;
    let half = 0.5 * cells as f32 * cell;
    let mut vertices = Vec::with_capacity(n * n);
    for iz in 0..n {
        for ix in 0..n {
            let (x, z) = (ix as f32 * cell - half, iz as f32 * cell - half);
            vertices.push(Vec3::new(x, floor_height(x, z), z));
        }
    }
    let mut indices = Vec::with_capacity(2 * cells * cells);
    let id = |ix: usize, iz: usize| (iz * n + ix) as u32;
    for iz in 0..cells {
        for ix in 0..cells {
            let (v00, v10) = (id(ix, iz), id(ix + 1, iz));
            let (v01, v11) = (id(ix, iz + 1), id(ix + 1, iz + 1));
            // (v01 - v00) × (v10 - v00) = +z × +x = +y: up.
            indices.push([v00, v01, v10]);
            indices.push([v10, v01, v11]);
        }
    }
    Geometry3::TriMesh { vertices, indices }
}

/// A pile of `n` random convex hulls falling on a static triangle-mesh
/// floor ([`floor_mesh`] with [`FLOOR_CELLS`] cells of [`FLOOR_CELL`] m).
///
/// Each hull is the hull of 8 to 16 points at random directions and
/// distances 0.3 to 0.5 m from the body origin, turned by a random rotation
/// (seed [`PILE_SEED`]). The hulls start on a grid of [`PILE_SIDE`] ×
/// [`PILE_SIDE`] per layer, [`PILE_SPACING`] m apart in every direction,
/// centred on x = z = 0, the lowest layer at y = 1.5 (clear of the floor's
/// bumps), so nothing touches at the start; then they fall and pile up (n =
/// 1,000: ten layers, the top one at y = 15, lands after about 1.7 s).
/// Body 0 is the floor.
pub fn convex_pile(n: usize) -> Scene3 {
    let mut rng = Rng::new(PILE_SEED);
    let mut bodies = Vec::with_capacity(n + 1);
    let floor = ShapeSpec3::new(floor_mesh(FLOOR_CELLS, FLOOR_CELL));
    bodies.push(BodySpec3::new(
        Kind::Static,
        Vec3::ZERO,
        Quat::IDENTITY,
        floor,
    ));
    let side = PILE_SIDE.min(n.max(1));
    let first = -0.5 * PILE_SPACING * (side as f32 - 1.0);
    for i in 0..n {
        let (layer, cell) = (i / (side * side), i % (side * side));
        let position = Vec3::new(
            first + PILE_SPACING * (cell % side) as f32,
            1.5 + PILE_SPACING * layer as f32,
            first + PILE_SPACING * (cell / side) as f32,
        );
        let count = 8 + rng.below(9);
        let points = (0..count)
            .map(|_| {
                let d = rng.unit_vec3();
                d * rng.range(0.3, 0.5)
            })
            .collect();
        let rotation = rng.rotation3();
        bodies.push(BodySpec3::new(
            Kind::Dynamic,
            position,
            rotation,
            ShapeSpec3::new(Geometry3::ConvexHull { points }),
        ));
    }
    Scene3 {
        gravity: GRAVITY,
        bodies,
        joints: Vec::new(),
        allow_sleep: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyramid3_counts_and_cubes_touch_without_overlap() {
        let s = pyramid3(20);
        assert_eq!(s.count(Kind::Dynamic), 2870);
        // Cubes of one level are 1 m apart on a grid; levels are 1 m apart:
        // no two cube centres closer than 1 on every axis at once.
        let cubes: Vec<Vec3> = s.bodies[1..].iter().map(|b| b.position).collect();
        for (i, a) in cubes.iter().enumerate() {
            for b in &cubes[i + 1..] {
                let d = (*a - *b).abs();
                assert!(d.max_element() >= 1.0 - 1e-5, "{a} {b}");
            }
        }
        let top = s.bodies.last().map(|b| b.position).unwrap_or_default();
        assert_eq!(top, Vec3::new(0.0, 19.5, 0.0));
        assert!(cubes.iter().all(|c| c.y >= 0.5));
    }

    #[test]
    fn floor_mesh_normals_point_up() {
        let Geometry3::TriMesh { vertices, indices } = floor_mesh(6, 1.0) else {
            panic!("not a mesh");
        };
        assert_eq!(vertices.len(), 49);
        assert_eq!(indices.len(), 72);
        for t in &indices {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            assert!((b - a).cross(c - a).y > 0.0);
        }
    }

    #[test]
    fn convex_pile_hulls_start_apart_and_above_the_floor() {
        let s = convex_pile(1000);
        assert_eq!(s.count(Kind::Dynamic), 1000);
        assert_eq!(s, convex_pile(1000), "deterministic");
        let hulls: Vec<(Vec3, f32)> = s.bodies[1..]
            .iter()
            .map(|b| match &b.shapes[0].geometry {
                Geometry3::ConvexHull { points } => {
                    assert!((8..=16).contains(&points.len()));
                    let r = points.iter().map(|p| p.length()).fold(0.0, f32::max);
                    (b.position, r)
                }
                g => panic!("{g:?}"),
            })
            .collect();
        for (i, (a, ra)) in hulls.iter().enumerate() {
            assert!(*ra <= 0.5 + 1e-6);
            assert!(a.y - ra > FLOOR_BUMP);
            // Over the floor.
            assert!(a.x.abs() + ra < 0.5 * FLOOR_CELLS as f32 * FLOOR_CELL);
            for (b, rb) in &hulls[i + 1..] {
                assert!(a.distance(*b) > ra + rb);
            }
        }
    }
}
