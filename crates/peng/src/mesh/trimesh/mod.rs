//! A 3D triangle mesh with its BVH.

mod inside;
mod pair;
mod point;
mod ray;
mod topology;

pub use pair::{MeshDistance, TrianglePair};
pub use point::TriMeshProjection;
pub(crate) use ray::facing_normal;
pub use ray::TriMeshRayHit;
pub use topology::{Topology, NO_NEIGHBOUR};

use super::bvh::Bvh3;
use crate::bound::Aabb3;
use crate::math::policy::GeometryError;
use crate::math::{Pose3, Vec3};
use crate::shape::d3::ConvexPolyhedron;
use std::sync::{Arc, OnceLock};

/// A triangle mesh: shared vertices, triangles as index triples, and a static
/// BVH over the triangles. Triangles are two-sided for ray casts and point
/// projection; the inside test needs a closed mesh.
///
/// Queries named `*_local_*` work in the mesh's frame; the others take the
/// mesh's pose and work in world space. Triangle indices in results are the
/// positions in the index list given to [`TriMesh::new`].
#[derive(Debug, Clone)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    bvh: Bvh3,
    /// The corners of each triangle in BVH slot order, so that a leaf's
    /// triangles are read from consecutive memory without indirection.
    corners: Vec<[Vec3; 3]>,
    /// The exact box around the vertices used by triangles.
    aabb: Aabb3,
    topology: OnceLock<Topology>,
    /// Contacts push shapes out of the front side only (see
    /// [`with_one_sided`](TriMesh::with_one_sided)).
    one_sided: bool,
    /// The convex hull of the vertices, kept for distance queries (see
    /// [`with_convex_hull`](TriMesh::with_convex_hull)).
    hull: Option<Arc<ConvexPolyhedron>>,
}

impl PartialEq for TriMesh {
    /// Same vertices and triangles (the BVH and topology follow from them).
    fn eq(&self, o: &Self) -> bool {
        self.vertices == o.vertices && self.indices == o.indices
    }
}

impl TriMesh {
    /// The same mesh whose contacts push shapes out of the front side of
    /// its triangles only (the side their counter-clockwise winding faces),
    /// whichever side the shape's centre has sunk to: a floor or a closed
    /// surface that bodies cannot fall through. By default triangles are
    /// two-sided: a shape is pushed out of the side its centre is on.
    pub fn with_one_sided(mut self, one_sided: bool) -> Self {
        self.one_sided = one_sided;
        self
    }

    /// The same mesh keeping the convex hull of its vertices, which makes
    /// distance queries to shapes it does not touch much faster.
    ///
    /// The mesh lies inside its hull, so the hulls' distance is a lower bound
    /// on the meshes'. When the hulls' closest points lie on the surfaces
    /// (within rounding) that is the answer, with no search of the triangles;
    /// otherwise the surface points nearest to them bound the search. On a
    /// robot arm's link meshes four pairs in five are settled by the hulls.
    /// The hull is built once here (`O(n log n)`); vertices that no triangle
    /// uses count too. A flat or collinear mesh has no solid hull and is
    /// returned as it is.
    pub fn with_convex_hull(mut self) -> Self {
        self.hull = ConvexPolyhedron::from_points(&self.vertices)
            .ok()
            .map(Arc::new);
        self
    }

    /// The convex hull kept by [`with_convex_hull`](TriMesh::with_convex_hull).
    pub fn convex_hull(&self) -> Option<&Arc<ConvexPolyhedron>> {
        self.hull.as_ref()
    }

    /// Whether contacts push only out of the triangles' front sides.
    pub fn is_one_sided(&self) -> bool {
        self.one_sided
    }

    /// A mesh from vertices and triangles (`[i, j, k]` indices into `vertices`).
    ///
    /// Errors: no triangles ([`GeometryError::Degenerate`]), a vertex with a
    /// NaN or infinite coordinate ([`GeometryError::NonFinite`]), a coordinate
    /// beyond [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE)
    /// ([`GeometryError::TooLarge`]), an index past
    /// the vertex list ([`GeometryError::IndexOutOfRange`]). Zero-area
    /// triangles (repeated or collinear vertices) are allowed; rays never hit
    /// them and point queries treat them as their edges.
    pub fn new(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> Result<Self, GeometryError> {
        if indices.is_empty() {
            return Err(GeometryError::Degenerate {
                what: "triangle mesh",
                why: "it has no triangles",
            });
        }
        crate::math::policy::check_points("triangle mesh vertex", &vertices)?;
        let len = vertices.len();
        for t in &indices {
            for &i in t {
                if i as usize >= len {
                    return Err(GeometryError::IndexOutOfRange {
                        what: "triangle mesh",
                        index: i as usize,
                        len,
                    });
                }
            }
        }
        let tri = |t: &[u32; 3]| t.map(|i| vertices[i as usize]);
        let boxes: Vec<Aabb3> = indices.iter().map(|t| Aabb3::from_points(tri(t))).collect();
        let aabb = boxes.iter().fold(Aabb3::EMPTY, |a, b| a.merged(b));
        let bvh = Bvh3::build(&boxes);
        let corners = bvh
            .slot_order()
            .iter()
            .map(|&i| tri(&indices[i as usize]))
            .collect();
        Ok(TriMesh {
            vertices,
            indices,
            bvh,
            corners,
            aabb,
            topology: OnceLock::new(),
            one_sided: false,
            hull: None,
        })
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles, as given.
    #[inline]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// Number of triangles.
    #[inline]
    pub fn num_triangles(&self) -> usize {
        self.indices.len()
    }

    /// The corners of triangle `i` (panics when `i` is out of range).
    #[inline]
    pub fn triangle(&self, i: u32) -> [Vec3; 3] {
        self.indices[i as usize].map(|k| self.vertices[k as usize])
    }

    /// The BVH over the triangles (its primitive indices are triangle indices).
    #[inline]
    pub fn bvh(&self) -> &Bvh3 {
        &self.bvh
    }

    /// The box around the mesh's triangles in its own frame (vertices that no
    /// triangle uses do not count).
    #[inline]
    pub fn local_aabb(&self) -> Aabb3 {
        self.aabb
    }

    /// A box around the mesh under `pose` (the local box, conservatively
    /// rotated).
    pub fn aabb(&self, pose: &Pose3) -> Aabb3 {
        self.local_aabb().transformed(pose)
    }

    /// Edge adjacency (half-edge map), computed on first use and kept.
    pub fn topology(&self) -> &Topology {
        self.topology
            .get_or_init(|| Topology::build(&self.indices, self.vertices.len()))
    }

    /// Calls `f(triangle, corners)` for every triangle whose box overlaps
    /// `aabb` (mesh frame; touching counts), the candidates of a convex shape's
    /// contact with the mesh.
    pub fn for_each_triangle_in_aabb<F>(&self, aabb: &Aabb3, mut f: F)
    where
        F: FnMut(u32, &[Vec3; 3]),
    {
        self.bvh.query_aabb(aabb, |s| {
            let c = self.slot_corners(s);
            if Aabb3::from_points(*c).overlaps(aabb) {
                f(self.bvh.primitive(s), c);
            }
        });
    }

    /// The corners of the triangle at BVH slot `slot`.
    #[inline]
    fn slot_corners(&self, slot: u32) -> &[Vec3; 3] {
        &self.corners[slot as usize]
    }
}
