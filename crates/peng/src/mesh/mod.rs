//! Triangle meshes (3D), polylines (2D) and height fields, with static
//! bounding-volume hierarchies.
//!
//! - [`Bvh`]: a static BVH over boxes, generic over 2D and 3D (binned SAH,
//!   compact depth-first nodes), with ray, box, nearest-point and tree-vs-tree
//!   traversals. Usable on its own (compound shapes, static scenes).
//! - [`TriMesh`]: a 3D triangle mesh with ray casts, point projection, an
//!   inside test, box queries, mesh-vs-mesh intersection and distance, and
//!   edge adjacency ([`Topology`]).
//! - [`Polyline`]: 2D segments with ray casts, point projection and box queries.
//! - [`HeightField`]: a grid of heights with grid-walk ray casts, point
//!   projection over a min-max pyramid and box queries.
//!
//! # Conventions
//! - Methods named `*_local_*` (and the box queries) work in the shape's own
//!   frame; the others take the shape's pose and return world-space results.
//! - Triangles and segments are two-sided; meshes are surfaces (a ray from
//!   inside a closed mesh hits its surface; distances between meshes are
//!   surface distances, zero when they cross). Solidity is available through
//!   [`TriMesh::contains_local_point`].
//! - Indices in results are positions in the lists the shape was built from.
//! - Constructors validate their input ([`GeometryError`](crate::GeometryError));
//!   zero-area triangles and zero-length segments are allowed and never give
//!   NaN: rays do not hit them, point queries treat them as edges or points.
//! - The exact primitive tests run in f64 where f32 rounding would decide a
//!   topological question (triangle–triangle intersection, closest points);
//!   ray/triangle tests are watertight in f32 (Woop et al. 2013), so rays do
//!   not slip between the triangles of a closed mesh.

pub mod bvh;
pub(crate) mod geom;
mod heightfield;
mod polyline;
mod trimesh;

pub use bvh::{Bvh, Bvh2, Bvh3, BvhNode};
pub use geom::TriangleFeature;
pub use heightfield::{HeightField, HeightFieldProjection, HeightFieldRayHit};
pub use polyline::{Polyline, PolylineProjection, PolylineRayHit, SegmentFeature};
pub use trimesh::{
    MeshDistance, Topology, TriMesh, TriMeshProjection, TriMeshRayHit, TrianglePair, NO_NEIGHBOUR,
};
