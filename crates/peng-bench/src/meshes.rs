//! Triangle meshes of chosen size for the mesh benches and the agreement tests
//! against parry: a closed bumpy sphere (a subdivided cube pushed onto a
//! sphere) and an open random terrain. Plain vertex and index lists, so either
//! library can be built from the same data.

use crate::rng::Rng;
use glam::Vec3;

/// Vertices and triangles (`[i, j, k]`, counter-clockwise seen from outside).
#[derive(Debug, Clone)]
pub struct MeshLists {
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles as vertex indices.
    pub indices: Vec<[u32; 3]>,
}

/// The radius of the bumpy sphere at unit direction `d`: 1 plus smooth bumps
/// of amplitude up to 0.1 (a sum of three products of sines), so the surface is
/// closed, star-shaped and not convex.
fn bump_radius(d: Vec3) -> f32 {
    1.0 + 0.05 * (5.0 * d.x).sin() * (4.0 * d.y).sin()
        + 0.03 * (7.0 * d.y + 1.0).sin() * (6.0 * d.z).sin()
        + 0.02 * (11.0 * d.z + 2.0).sin() * (9.0 * d.x + 0.5).sin()
}

/// A closed, watertight, outward-wound bumpy sphere of `12·m²` triangles: each
/// face of the cube `[-1, 1]³` is cut into `m × m` squares (two triangles
/// each), vertices on shared cube edges are shared, and every vertex is pushed
/// to the direction's `bump_radius`. `m = 29` gives 10,092 triangles,
/// `m = 92` 101,568, `m = 289` 1,002,252.
pub fn bumpy_sphere(m: usize) -> MeshLists {
    assert!(m >= 1, "at least one square per cube face");
    // Vertices are keyed by their integer lattice point on the cube's surface
    // (coordinates in 0..=m), so cube edges and corners are shared exactly.
    let mut index = std::collections::HashMap::new();
    let mut vertices = Vec::new();
    let mut vid = |p: [i32; 3], vertices: &mut Vec<Vec3>| -> u32 {
        *index.entry(p).or_insert_with(|| {
            let c = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32) * (2.0 / m as f32) - 1.0;
            let d = c.normalize();
            vertices.push(d * bump_radius(d));
            (vertices.len() - 1) as u32
        })
    };
    let mut indices = Vec::with_capacity(12 * m * m);
    let mi = m as i32;
    // Each face: a fixed axis at 0 or m, and two running axes (u, v) ordered so
    // that u × v points out of the cube.
    for axis in 0..3 {
        for side in [0, mi] {
            let (u, v) = if side == mi {
                ((axis + 1) % 3, (axis + 2) % 3)
            } else {
                ((axis + 2) % 3, (axis + 1) % 3)
            };
            for i in 0..mi {
                for j in 0..mi {
                    let corner = |a: i32, b: i32| {
                        let mut p = [0; 3];
                        p[axis] = side;
                        p[u] = a;
                        p[v] = b;
                        p
                    };
                    let q = [
                        vid(corner(i, j), &mut vertices),
                        vid(corner(i + 1, j), &mut vertices),
                        vid(corner(i + 1, j + 1), &mut vertices),
                        vid(corner(i, j + 1), &mut vertices),
                    ];
                    indices.push([q[0], q[1], q[2]]);
                    indices.push([q[0], q[2], q[3]]);
                }
            }
        }
    }
    MeshLists { vertices, indices }
}

/// An open terrain of `2·m²` triangles over `[0, 10]²` (heights along z):
/// smooth hills plus random roughness of amplitude 0.05 from `seed`. `m = 71`
/// gives 10,082 triangles, `m = 224` 100,352, `m = 708` 1,002,528.
pub fn terrain(m: usize, seed: u64) -> MeshLists {
    assert!(m >= 1, "at least one square");
    let mut rng = Rng::new(seed);
    let size = 10.0;
    let step = size / m as f32;
    let mut vertices = Vec::with_capacity((m + 1) * (m + 1));
    for j in 0..=m {
        for i in 0..=m {
            let (x, y) = (i as f32 * step, j as f32 * step);
            let z = 0.6 * (0.7 * x).sin() * (0.9 * y + 0.3).cos()
                + 0.25 * (2.3 * x + 1.7 * y).sin()
                + rng.range(-0.05, 0.05);
            vertices.push(Vec3::new(x, y, z));
        }
    }
    let w = (m + 1) as u32;
    let mut indices = Vec::with_capacity(2 * m * m);
    for j in 0..m as u32 {
        for i in 0..m as u32 {
            let a = j * w + i;
            let (b, c, d) = (a + 1, a + w + 1, a + w);
            // Alternate the diagonal so the triangulation has no preferred
            // direction.
            if (i + j) % 2 == 0 {
                indices.push([a, b, c]);
                indices.push([a, c, d]);
            } else {
                indices.push([a, b, d]);
                indices.push([b, c, d]);
            }
        }
    }
    MeshLists { vertices, indices }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn sphere_is_closed_and_outward() {
        let s = bumpy_sphere(6);
        assert_eq!(s.indices.len(), 12 * 36);
        // Closed and consistently wound: every directed edge appears once and
        // its reverse once.
        let mut edges: HashMap<(u32, u32), i32> = HashMap::new();
        for t in &s.indices {
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
            }
        }
        assert!(edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1)));
        // Outward: the signed volume (divergence theorem) is positive and
        // close to the unit ball's.
        let vol: f32 = s
            .indices
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| s.vertices[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum();
        assert!((vol - 4.19).abs() < 0.4, "volume {vol}");
    }

    #[test]
    fn sizes_are_as_documented() {
        assert_eq!(bumpy_sphere(29).indices.len(), 10_092);
        assert_eq!(terrain(71, 1).indices.len(), 10_082);
        assert_eq!(terrain(3, 1).vertices.len(), 16);
    }
}
