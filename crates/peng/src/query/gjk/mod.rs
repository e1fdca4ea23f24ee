//! GJK (distance, closest points, overlap) and EPA (penetration) on support
//! functions in 3D.
//!
//! This module knows nothing of shapes: it works on anything that implements
//! [`SupportMap`]. Following Jolt, a shape is described as a *core* (given by its
//! support function) inflated by a *core radius*: a ball is a point core with a
//! radius, a capsule a segment core. GJK and EPA run on the cores only and the
//! radii are added afterwards ([`signed_distance`]), which is both faster and
//! exact for rounded shapes.
//!
//! - [`gjk`]: Gilbert–Johnson–Keerthi distance (Gilbert, Johnson, Keerthi 1988;
//!   Ericson, *Real-Time Collision Detection*, 9.5) with the signed-volumes
//!   sub-simplex solver of Montanari, Bartels and Cazzato (2017), a three-state
//!   result ([`GjkStatus`]) and a warm-start [`GjkCache`].
//! - [`epa`]: the expanding polytope algorithm (van den Bergen 2001) for the
//!   penetration depth and MTD normal of overlapping cores, robust to flat
//!   Minkowski differences and origins on the boundary.
//! - [`signed_distance`]: both combined, with the radii added.
//! - [`ray_cast`]: ray casting on a support map (van den Bergen 2004), used to
//!   cross-check the closed-form ray casts.

mod cache;
mod cloud;
mod epa;
mod fast;
mod gjk_distance;
mod raycast;
mod signed;
mod simplex;
mod support;

pub use cache::GjkCache;
pub(crate) use cloud::cloud_max;
pub use cloud::Cloud;
pub use epa::{epa, EpaOutput};
pub use gjk_distance::{gjk, gjk_local, GjkOutput, GjkStatus};
pub use raycast::ray_cast;
pub use signed::{intersects, signed_distance, signed_distance_local, SignedDistance};
pub use simplex::{Simplex, SupportPoint};
#[cfg(test)]
pub(crate) use support::BoxCore;
pub use support::{SupportMap, Transformed};
