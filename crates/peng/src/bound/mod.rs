//! Bounding volumes: axis-aligned boxes, bounding circles/spheres, oriented boxes.
//!
//! - [`Aabb`] (generic over [`Vector`](crate::math::Vector)): containment, measures,
//!   the slab ray test, Arvo's conservative update under a pose.
//! - [`BoundingBall`]: Ritter's approximate and Welzl's minimum ball, merging.
//! - [`Obb2`], [`Obb3`]: oriented boxes fitted by PCA, separating-axis overlap.
//! - [`SphereTree`] ([`SphereTree2`], [`SphereTree3`]): hierarchies of bounding
//!   balls over a shape's parts, with tree-vs-tree leaf overlap.

mod aabb;
mod circumball;
mod eigen;
mod obb;
mod sphere;
mod sphere_tree;

pub use aabb::{Aabb, Aabb2, Aabb3};
// Hidden: peng-dynamics (mass/props3.rs) finds principal inertia axes with it.
#[doc(hidden)]
pub use eigen::symmetric_eigen3;
pub use obb::{Obb2, Obb3};
pub use sphere::{BoundingBall, BoundingCircle, BoundingSphere};
pub use sphere_tree::{SphereNode, SphereTree, SphereTree2, SphereTree3};
