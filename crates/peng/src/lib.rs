//! peng (碰, "to bump into"): collision detection in 2D and 3D.
//!
//! The crate is layered; each layer knows only the ones below it:
//!
//! - [`math`]: poses, tolerances and the one degeneracy policy ([`math::policy`]).
//! - [`bound`]: axis-aligned boxes, bounding circles/spheres, oriented boxes.
//! - [`shape`]: closed enums of shapes per dimension, convex hulls, decomposition.
//! - [`broad`]: dynamic AABB tree and other structures that find candidate pairs.
//! - [`mesh`]: triangle meshes and polylines with static BVHs.
//! - [`query`]: pure functions on `(shape, pose, shape, pose)`: overlap, contact
//!   manifolds, distance, ray casts and point queries.
//!
//! Most users want the per-dimension facades [`d2`] and [`d3`], which gather the
//! shapes, poses and queries of one dimension under one path.
//!
//! The crate does no I/O.

#![warn(missing_docs)]

pub mod bound;
pub mod broad;
pub mod math;
pub mod mesh;
pub mod query;
pub mod shape;

/// Everything 2D in one place: shapes, poses and the pair queries.
pub mod d2 {
    pub use crate::bound::{Aabb2, BoundingCircle, Obb2};
    pub use crate::math::{Pose2, Rot2, Vec2};
    pub use crate::query::d2::*;
    pub use crate::query::types::{
        ContactId, ContactPoint2, Distance2, Manifold2, PointProjection2, Ray2, RayHit2,
    };
    pub use crate::shape::d2::*;
}

/// Everything 3D in one place: shapes, poses and the pair queries.
pub mod d3 {
    pub use crate::bound::{Aabb3, BoundingSphere, Obb3};
    pub use crate::math::{Pose3, Quat, Vec3};
    pub use crate::query::d3::*;
    pub use crate::query::gjk::GjkCache;
    pub use crate::query::types::{
        ContactId, ContactPoint3, Distance3, Manifold3, PointProjection3, Ray3, RayHit3,
    };
    pub use crate::shape::d3::*;
}

pub use math::policy::GeometryError;
