//! Triangle meshes (3D) and polylines (2D) with static bounding-volume hierarchies.
//!
//! - [`Bvh`]: a static BVH over boxes, generic over 2D and 3D (binned SAH,
//!   compact depth-first nodes), with ray, box, nearest-point and tree-vs-tree
//!   traversals.
//! - [`TriMesh`]: a 3D triangle mesh with ray casts, point projection, an
//!   inside test, mesh-vs-mesh intersection and distance, and edge adjacency.
//! - [`Polyline`]: 2D segments with ray casts and point projection.
//! - [`HeightField`]: a grid of heights with grid-walk ray casts and point
//!   projection over a min-max pyramid.

pub mod bvh;
mod heightfield;
mod polyline;
mod trimesh;

pub use bvh::{Bvh, Bvh2, Bvh3, BvhNode};
pub use heightfield::{HeightField, HeightFieldProjection, HeightFieldRayHit};
pub use polyline::{Polyline, PolylineProjection, PolylineRayHit, SegmentFeature};
pub use trimesh::{
    MeshDistance, Topology, TriMesh, TriMeshProjection, TriMeshRayHit, TrianglePair, NO_NEIGHBOUR,
};

mod geom;

pub use geom::TriangleFeature;
