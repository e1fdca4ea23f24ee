//! Triangle meshes (3D) and polylines (2D) with static bounding-volume hierarchies.
//!
//! - [`Bvh`]: a static BVH over boxes, generic over 2D and 3D (binned SAH,
//!   compact depth-first nodes), with ray, box, nearest-point and tree-vs-tree
//!   traversals.

pub mod bvh;

pub use bvh::{Bvh, Bvh2, Bvh3, BvhNode};
