//! From a file's [`MeshData`] to peng's [`TriMesh`] (the shape with its BVH).
//!
//! The readers guarantee finite coordinates and in-range indices, but the
//! fields of [`MeshData`] are public, so the conversion checks again and says
//! which triangle or vertex is at fault. A mesh whose every triangle has zero
//! area (all vertices repeated or collinear) is rejected: no ray hits it and it
//! bounds nothing, which is almost always a unit or export mistake. Single
//! zero-area triangles among good ones are kept, as [`TriMesh::new`] allows
//! (rays never hit them, point queries treat them as their edges).

use crate::mesh_data::MeshData;
use glam::DVec3;
use peng::mesh::TriMesh;
use peng::GeometryError;

/// Why a [`MeshData`] could not become a [`TriMesh`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToTriMeshError {
    /// The mesh has no triangles.
    #[error("mesh has no triangles")]
    Empty,
    /// Every triangle has zero area.
    #[error("mesh is degenerate: all {triangles} triangles have zero area")]
    AllDegenerate {
        /// The number of triangles.
        triangles: usize,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} is not finite: {value:?}")]
    NonFinite {
        /// Index of the vertex in [`MeshData::positions`].
        vertex: usize,
        /// Its coordinates.
        value: [f32; 3],
    },
    /// A triangle names a vertex past the end of the vertex list.
    #[error("triangle {triangle} uses vertex {index}, but there are only {len} vertices")]
    IndexOutOfRange {
        /// Index of the triangle in [`MeshData::triangles`].
        triangle: usize,
        /// The bad vertex index.
        index: u32,
        /// The number of vertices.
        len: usize,
    },
    /// peng refused the mesh for another reason (kept for completeness: the
    /// checks above cover every error [`TriMesh::new`] documents).
    #[error("invalid mesh: {0}")]
    Geometry(#[from] GeometryError),
}

/// Whether triangle `t` has exactly zero area: the cross product of two edges
/// vanishes. Evaluated in f64, where the products of f32 differences are exact
/// (24-bit mantissas multiply into 48 bits) and the difference of two such
/// products rounds only in the last of 53 bits, so a triangle with a non-zero
/// f32 area is never called degenerate.
fn zero_area(p: &[glam::Vec3], t: &[u32; 3]) -> bool {
    let [a, b, c] = t.map(|i| p[i as usize].as_dvec3());
    (b - a).cross(c - a) == DVec3::ZERO
}

impl MeshData {
    /// The mesh as a peng [`TriMesh`] (builds its BVH), with every vertex and
    /// triangle kept in order, so triangle indices in query results are
    /// positions in [`MeshData::triangles`] (and so fall inside the ranges of
    /// [`MeshData::groups`]).
    ///
    /// Errors: no triangles ([`ToTriMeshError::Empty`]), only zero-area
    /// triangles ([`ToTriMeshError::AllDegenerate`]), a non-finite vertex
    /// ([`ToTriMeshError::NonFinite`]) or an index past the vertex list
    /// ([`ToTriMeshError::IndexOutOfRange`]).
    pub fn to_trimesh(&self) -> Result<TriMesh, ToTriMeshError> {
        if self.triangles.is_empty() {
            return Err(ToTriMeshError::Empty);
        }
        if let Some((vertex, v)) = self
            .positions
            .iter()
            .enumerate()
            .find(|(_, v)| !v.is_finite())
        {
            return Err(ToTriMeshError::NonFinite {
                vertex,
                value: v.to_array(),
            });
        }
        let len = self.positions.len();
        for (triangle, t) in self.triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= len) {
                return Err(ToTriMeshError::IndexOutOfRange {
                    triangle,
                    index,
                    len,
                });
            }
        }
        if self.triangles.iter().all(|t| zero_area(&self.positions, t)) {
            return Err(ToTriMeshError::AllDegenerate {
                triangles: self.triangles.len(),
            });
        }
        Ok(TriMesh::new(
            self.positions.clone(),
            self.triangles.clone(),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A closed unit tetrahedron, outward winding.
    fn tetra() -> MeshData {
        MeshData {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
            ..MeshData::default()
        }
    }

    #[test]
    fn tetrahedron_converts_and_answers_queries() {
        let m = tetra().to_trimesh().expect("valid mesh");
        assert_eq!(m.num_triangles(), 4);
        assert_eq!(m.indices(), tetra().triangles.as_slice());
        // Inside the solid, outside it.
        assert!(m.contains_local_point(Vec3::splat(0.1)));
        assert!(!m.contains_local_point(Vec3::splat(0.5)));
        // A ray down the z axis from above hits the face x + y + z = 1 at
        // (0.1, 0.1, 0.8): t = 2 - 0.8 = 1.2; that face is triangle 3.
        let h = m
            .cast_local_ray(Vec3::new(0.1, 0.1, 2.0), -Vec3::Z, 10.0)
            .expect("hit");
        assert!((h.hit.toi - 1.2).abs() < 1e-6);
        assert_eq!(h.triangle, 3);
        // The point (1, 1, 1) is sqrt(3)·(3 - 1)/3 from that face.
        let p = m.project_local_point(Vec3::ONE);
        assert!((p.distance - 2.0 / 3.0f32.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn empty_mesh_is_an_error() {
        let d = MeshData {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            ..MeshData::default()
        };
        let e = d.to_trimesh().unwrap_err();
        assert_eq!(e, ToTriMeshError::Empty);
        assert_eq!(e.to_string(), "mesh has no triangles");
    }

    #[test]
    fn all_degenerate_is_an_error_but_some_degenerate_is_kept() {
        let mut d = MeshData {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::Y],
            // A repeated vertex and three collinear points.
            triangles: vec![[0, 0, 1], [0, 1, 2]],
            ..MeshData::default()
        };
        let e = d.to_trimesh().unwrap_err();
        assert_eq!(e, ToTriMeshError::AllDegenerate { triangles: 2 });
        assert!(e.to_string().contains("all 2 triangles have zero area"));
        // One good triangle makes the mesh valid; the degenerate ones stay in
        // place so indices still match the file.
        d.triangles.push([0, 1, 3]);
        let m = d.to_trimesh().expect("one good triangle");
        assert_eq!(m.num_triangles(), 3);
        let h = m
            .cast_local_ray(Vec3::new(0.2, 0.2, 1.0), -Vec3::Z, 10.0)
            .expect("hits the good triangle");
        assert_eq!(h.triangle, 2);
    }

    #[test]
    fn tiny_but_nonzero_triangle_is_not_degenerate() {
        // An area of about 1e-14: far below f32 epsilon relative to 1, but not
        // zero, so the mesh is accepted.
        let d = MeshData {
            positions: vec![
                Vec3::ZERO,
                Vec3::new(1e-7, 0.0, 0.0),
                Vec3::new(0.0, 1e-7, 0.0),
            ],
            triangles: vec![[0, 1, 2]],
            ..MeshData::default()
        };
        assert!(d.to_trimesh().is_ok());
    }

    #[test]
    fn bad_index_and_non_finite_vertex_name_the_culprit() {
        let mut d = tetra();
        d.triangles[2] = [0, 7, 2];
        let e = d.to_trimesh().unwrap_err();
        assert_eq!(
            e,
            ToTriMeshError::IndexOutOfRange {
                triangle: 2,
                index: 7,
                len: 4
            }
        );
        assert_eq!(
            e.to_string(),
            "triangle 2 uses vertex 7, but there are only 4 vertices"
        );
        let mut d = tetra();
        d.positions[3].y = f32::NAN;
        match d.to_trimesh().unwrap_err() {
            ToTriMeshError::NonFinite { vertex, .. } => assert_eq!(vertex, 3),
            e => panic!("wrong error {e}"),
        }
    }

    #[test]
    fn converts_a_parsed_obj_file() {
        let src = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
        let d = crate::parse_obj(src, "tetra.obj").expect("valid OBJ");
        let m = d.to_trimesh().expect("valid mesh");
        assert_eq!(m.num_triangles(), 4);
        assert!(m.topology().is_closed());
    }
}
