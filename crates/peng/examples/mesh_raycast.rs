//! Ray casts and point projection on triangle meshes (`TriMesh`) built in
//! code: an open terrain grid (a height field made of triangles) and a closed
//! icosphere.
//!
//! A `TriMesh` is a list of vertices and `[i, j, k]` triangles with a static
//! BVH; it is a surface (two-sided triangles). Shown here:
//!
//! - `TriMesh::cast_ray`: the first hit's toi, point, normal (facing against
//!   the ray) and the index of the triangle hit;
//! - the same mesh as a `Shape`, through the generic `ray_cast`;
//! - `TriMesh::project_point`: the closest surface point, its distance and
//!   triangle; `contains_point` and `topology().is_closed()` on a closed mesh.
//!
//! The answers are checked against the exact surfaces with `assert!`, so the
//! example fails if the behaviour changes.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng --example mesh_raycast
//! ```

use peng::d3::*;
use std::collections::HashMap;
use std::error::Error;

/// The terrain's height at `(x, z)`.
fn height(x: f32, z: f32) -> f32 {
    0.3 * x.sin() * (0.7 * z).cos()
}

/// A grid of `n x n` cells over `[-size, size]²` in x and z, with the
/// vertices on the surface `y = height(x, z)` and two triangles per cell,
/// wound counter-clockwise seen from above (their front faces +y).
fn terrain(n: u32, size: f32) -> Result<TriMesh, Box<dyn Error>> {
    let step = 2.0 * size / n as f32;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (-size + step * j as f32, -size + step * i as f32);
            vertices.push(Vec3::new(x, height(x, z), z));
        }
    }
    let v = |i: u32, j: u32| i * (n + 1) + j;
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..n {
            triangles.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            triangles.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    Ok(TriMesh::new(vertices, triangles)?)
}

/// The 20 faces of the icosahedron on the 12 vertices below, wound
/// counter-clockwise seen from outside.
#[rustfmt::skip]
const ICOSAHEDRON: [[u32; 3]; 20] = [
    [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
    [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
    [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
    [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
];

/// A unit icosphere: an icosahedron with each triangle split in four
/// `levels` times, the new vertices pushed out onto the sphere. Outward
/// winding, shared vertices (so the mesh is closed).
fn icosphere(levels: u32) -> Result<TriMesh, Box<dyn Error>> {
    let t = (1.0 + 5.0f32.sqrt()) / 2.0;
    let mut vertices: Vec<Vec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut triangles = ICOSAHEDRON.to_vec();
    for _ in 0..levels {
        // One midpoint per edge, shared by the edge's two triangles.
        let mut midpoints: HashMap<(u32, u32), u32> = HashMap::new();
        let mut mid = |a: u32, b: u32, vs: &mut Vec<Vec3>| {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                vs.push(((vs[a as usize] + vs[b as usize]) * 0.5).normalize());
                vs.len() as u32 - 1
            })
        };
        let mut next = Vec::with_capacity(triangles.len() * 4);
        for [a, b, c] in triangles {
            let ab = mid(a, b, &mut vertices);
            let bc = mid(b, c, &mut vertices);
            let ca = mid(c, a, &mut vertices);
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        triangles = next;
    }
    Ok(TriMesh::new(vertices, triangles)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    // 1. An open terrain: 40 x 40 cells over 10 m x 10 m, 3,200 triangles.
    let ground = terrain(40, 5.0)?;
    let pose = Pose3::IDENTITY;
    println!(
        "terrain: {} vertices, {} triangles, closed: {}",
        ground.vertices().len(),
        ground.num_triangles(),
        ground.topology().is_closed()
    );
    assert!(!ground.topology().is_closed());

    // Rays straight down from 10 m up. Hit times are in units of |dir|.
    for (x, z) in [(0.0, 0.0), (1.3, -0.4), (-2.2, 3.1), (4.0, 4.5)] {
        let ray = Ray3::new(Vec3::new(x, 10.0, z), Vec3::new(0.0, -1.0, 0.0))?;
        let hit = ground
            .cast_ray(&pose, &ray, f32::INFINITY)
            .ok_or("ray missed the terrain")?;
        println!(
            "  down at ({x:+.1}, {z:+.1}): toi {:.4}, point {:.3}, normal {:.3}, triangle {}",
            hit.hit.toi, hit.hit.point, hit.hit.normal, hit.triangle
        );
        // The triangles follow the surface within their interpolation error.
        assert!((hit.hit.point.y - height(x, z)).abs() < 0.01);
        assert!(hit.hit.normal.y > 0.8, "facing up, against the ray");
        // The triangle reported is one that contains the hit point.
        let [a, b, c] = ground.triangle(hit.triangle);
        let n = (b - a).cross(c - a).normalize();
        assert!(n.dot(hit.hit.point - a).abs() < 1e-4);
    }
    // A slanted ray from the side, and one pointing away (no hit).
    let slanted = Ray3::new(Vec3::new(-8.0, 3.0, 0.5), Vec3::new(1.0, -0.5, 0.0))?;
    let hit = ground
        .cast_ray(&pose, &slanted, 100.0)
        .ok_or("slanted ray missed")?;
    println!(
        "  slanted: toi {:.4}, point {:.3}, triangle {}",
        hit.hit.toi, hit.hit.point, hit.triangle
    );
    assert!((hit.hit.point.y - height(hit.hit.point.x, hit.hit.point.z)).abs() < 0.01);
    let up = Ray3::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 0.0))?;
    assert!(ground.cast_ray(&pose, &up, 100.0).is_none());

    // Point projection: the closest point of the surface to a point above it.
    let q = Vec3::new(1.0, 2.0, 1.0);
    let p = ground.project_point(&pose, q);
    println!(
        "  project {q:.3}: point {:.3}, distance {:.4}, triangle {}, feature {:?}",
        p.point, p.distance, p.triangle, p.feature
    );
    assert!(((p.point - q).length() - p.distance).abs() < 1e-4);
    assert!(p.distance <= q.y - height(q.x, q.z) + 0.01); // no farther than straight down

    // 2. A closed icosphere of radius 1, moved to (0, 1, 5).
    let ball = icosphere(3)?; // 20 * 4³ = 1,280 triangles
    let ball_pose = Pose3::from_translation(Vec3::new(0.0, 1.0, 5.0));
    let closed = ball.topology().is_closed();
    println!(
        "icosphere: {} vertices, {} triangles, closed: {closed}",
        ball.vertices().len(),
        ball.num_triangles()
    );
    assert!(closed && ball.num_triangles() == 1280);
    // A ray at its centre: the surface lies between the inscribed radius
    // (the smallest distance of a face to the centre) and 1. This ray passes
    // exactly through a vertex shared by six triangles: ray/triangle tests
    // are watertight, so it cannot slip between them.
    let ray = Ray3::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 0.0, 1.0))?;
    let hit = ball
        .cast_ray(&ball_pose, &ray, 100.0)
        .ok_or("ray missed the icosphere")?;
    println!(
        "  ray along +z: toi {:.4}, point {:.3}, normal {:.3}, triangle {}",
        hit.hit.toi, hit.hit.point, hit.hit.normal, hit.triangle
    );
    assert!(hit.hit.toi >= 4.0 - 1e-4 && hit.hit.toi < 4.01);
    assert!(hit.hit.normal.z < -0.99);
    // The mesh is a surface: from inside, a ray hits the far wall.
    let inner = Ray3::new(ball_pose.translation, Vec3::new(0.0, 0.0, 1.0))?;
    let exit = ball
        .cast_ray(&ball_pose, &inner, 100.0)
        .ok_or("no exit hit")?;
    println!(
        "  ray from the centre: toi {:.4} (the surface, from inside)",
        exit.hit.toi
    );
    assert!(exit.hit.toi > 0.99 && exit.hit.toi <= 1.0 + 1e-4);
    // Solidity of a closed mesh: an inside test.
    assert!(ball.contains_point(&ball_pose, ball_pose.translation));
    assert!(!ball.contains_point(&ball_pose, Vec3::ZERO));

    // The same mesh as a `Shape` works with the generic queries too.
    let shape: Shape = ball.into();
    let hit = ray_cast(&shape, &ball_pose, &ray, 100.0, true).ok_or("shape ray missed")?;
    println!("  as a Shape, ray_cast: toi {:.4}", hit.toi);
    assert!(hit.toi >= 4.0 - 1e-4 && hit.toi < 4.01);
    let p = project_point(&shape, &ball_pose, Vec3::new(3.0, 1.0, 5.0), false);
    println!("  as a Shape, project (3, 1, 5): {:.3}", p.point);
    assert!((p.point - Vec3::new(1.0, 1.0, 5.0)).length() < 0.01);
    Ok(())
}
