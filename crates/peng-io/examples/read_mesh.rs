//! Read a triangle mesh from a file (OBJ, STL or glTF/GLB, detected from the
//! name and content), print what it holds, turn it into a peng `TriMesh` and
//! cast a ray at it.
//!
//! By default it reads the Panda robot's collision mesh of link 4 from the
//! repository's `data/` folder (a binary STL); give another file as the first
//! argument to read that one instead.
//!
//! Printed: the triangle and vertex counts, named groups, the bounds, whether
//! the surface is closed (every edge shared by exactly two triangles) and
//! consistently oriented, its volume (from the divergence theorem, computed
//! here: the mesh types have no volume method), and one ray hit. It exits
//! with status 1 and a message if the file cannot be read, and fails an `assert!` if the ray
//! misses or (for the default mesh) the mesh is not a closed solid.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng-io --example read_mesh
//! cargo run -p peng-io --example read_mesh -- path/to/mesh.obj
//! ```

use peng::d3::{Pose3, Ray3, Vec3};
use std::error::Error;
use std::path::PathBuf;

/// The default mesh, relative to this crate's folder.
const DEFAULT_MESH: &str =
    "../../data/robots/example-robot-data/robots/panda_description/meshes/collision/link4.stl";

fn main() {
    // Errors are printed with their `Display` form, which names the file.
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let (path, is_default) = match std::env::args_os().nth(1) {
        Some(p) => (PathBuf::from(p), false),
        None => {
            let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MESH);
            // Without the `..` steps when the file is there, for the printout.
            (p.canonicalize().unwrap_or(p), true)
        }
    };

    // 1. Read the file. Errors name the file, where in it, and what is wrong
    //    (`cube.obj: line 12: ...`); `main` prints them and exits with 1.
    let data = peng_io::read_mesh(&path)?;
    println!("file:      {}", path.display());
    println!(
        "mesh:      {} triangles, {} vertices{}",
        data.triangles.len(),
        data.positions.len(),
        data.name
            .as_deref()
            .map(|n| format!(", named {n:?}"))
            .unwrap_or_default()
    );
    for g in &data.groups {
        println!(
            "group:     {:?} {:?}: triangles {:?}",
            g.kind, g.name, g.triangles
        );
    }

    // 2. The peng shape: validated, with its BVH built. Triangle indices in
    //    query results are positions in `data.triangles`.
    let mesh = data.to_trimesh()?;
    let bounds = mesh.local_aabb();
    println!(
        "bounds:    min {:.4}, max {:.4}, size {:.4}",
        bounds.min,
        bounds.max,
        bounds.size()
    );
    let topology = mesh.topology();
    let closed = topology.is_closed();
    println!(
        "closed:    {closed} ({} boundary edges, {} non-manifold edges, consistently oriented: {})",
        topology.boundary_edges(),
        topology.non_manifold_edges(),
        topology.is_consistently_oriented()
    );

    // 3. Volume by the divergence theorem: the sum over triangles of the
    //    signed volumes of the tetrahedra they make with the origin,
    //    a · (b × c) / 6, in f64. Meaningful for a closed, consistently
    //    oriented surface (positive when the triangles face outwards).
    let volume: f64 = (0..mesh.num_triangles() as u32)
        .map(|i| {
            let [a, b, c] = mesh.triangle(i).map(|v| v.as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum();
    if closed {
        println!("volume:    {volume:.4e} (cubic file units)");
    } else {
        println!("volume:    not defined (the surface is open)");
    }

    // 4. One ray: from outside the bounds, straight at the centre of the
    //    largest triangle, against its normal. It must hit that triangle or
    //    something in front of it.
    let (target, normal) = largest_triangle(&mesh).ok_or("every triangle is degenerate")?;
    let reach = bounds.size().length() + 1.0;
    let origin = target + normal * reach;
    let ray = Ray3::new(origin, -normal)?;
    let hit = mesh
        .cast_ray(&Pose3::IDENTITY, &ray, f32::INFINITY)
        .ok_or("the ray missed the mesh")?;
    println!(
        "ray:       from {:.4} along {:.4}: hit triangle {} at toi {:.4}, point {:.4}, normal {:.4}",
        ray.origin, ray.dir, hit.triangle, hit.hit.toi, hit.hit.point, hit.hit.normal
    );
    assert!(hit.hit.toi <= reach + 1e-3 * reach, "hit before the target");

    if is_default {
        // The Panda's collision meshes are closed solids.
        assert!(closed, "the default mesh should be closed");
        assert!(
            volume > 0.0,
            "outward-facing triangles give a positive volume"
        );
    }
    Ok(())
}

/// The centre and unit normal of the mesh's largest triangle.
fn largest_triangle(mesh: &peng::d3::TriMesh) -> Option<(Vec3, Vec3)> {
    (0..mesh.num_triangles() as u32)
        .map(|i| {
            let [a, b, c] = mesh.triangle(i);
            let n = (b - a).cross(c - a);
            ((a + b + c) / 3.0, n, n.length())
        })
        .filter(|(_, _, twice_area)| *twice_area > 0.0)
        .max_by(|x, y| x.2.total_cmp(&y.2))
        .map(|(c, n, twice_area)| (c, n / twice_area))
}
