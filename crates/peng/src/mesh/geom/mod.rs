//! Triangle and segment primitives used by the meshes (crate-internal; they
//! add what meshes need: watertight ray hits, features, triangle-triangle
//! tests), and by the 3D queries where they need the same f64 closest points
//! (slivers, triangles far larger than the other shape).

pub(crate) mod closest3;
pub(crate) mod ray_tri;
pub(crate) mod tri_tri;

/// Which part of a triangle a point lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TriangleFeature {
    /// Vertex `i` (0, 1 or 2) of the triangle `[v0, v1, v2]`.
    Vertex(u8),
    /// Edge `i`, from vertex `i` to vertex `(i + 1) % 3`.
    Edge(u8),
    /// The interior of the face.
    Face,
}
