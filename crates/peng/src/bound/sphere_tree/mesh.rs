//! Sphere trees over triangles and triangle meshes.
//!
//! Layering note: `bound` sits below `mesh`; [`SphereTree3::from_trimesh`] is
//! the one place here that names a mesh type, and only reads its triangles
//! (through [`SphereTree3::from_triangles`], which needs no mesh).

use super::build::build;
use super::{SphereTree, LEAF};
use crate::bound::sphere::BoundingSphere;
use crate::math::policy::GeometryError;
use crate::math::Vec3;
use crate::mesh::TriMesh;

impl SphereTree<Vec3> {
    /// The tree whose leaf `i` is the smallest sphere around triangle `i`
    /// (Welzl's minimum ball of the three corners: the circumsphere of an
    /// acute triangle, the sphere on the longest edge of an obtuse one).
    /// Degenerate triangles (repeated or collinear corners) are fine.
    ///
    /// Errors: a non-finite corner ([`GeometryError::NonFinite`]), `2^31`
    /// triangles or more ([`GeometryError::Degenerate`]). No triangles gives
    /// the empty tree.
    pub fn from_triangles<I>(triangles: I) -> Result<Self, GeometryError>
    where
        I: IntoIterator<Item = [Vec3; 3]>,
    {
        let mut leaves = Vec::new();
        for (i, t) in triangles.into_iter().enumerate() {
            if i >= LEAF as usize {
                return Err(GeometryError::Degenerate {
                    what: "sphere tree",
                    why: "it has 2^31 leaves or more",
                });
            }
            leaves.push((BoundingSphere::from_points_welzl(&t)?, i as u32));
        }
        Ok(build(leaves))
    }

    /// The tree over the triangles of a mesh (in the mesh's frame): leaf items
    /// are triangle indices, as in [`TriMesh::indices`]. See
    /// [`from_triangles`](Self::from_triangles).
    pub fn from_trimesh(mesh: &TriMesh) -> Result<Self, GeometryError> {
        Self::from_triangles((0..mesh.num_triangles() as u32).map(|i| mesh.triangle(i)))
    }
}
