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
//! - [`ccd`]: continuous collision detection: the first time of contact of
//!   moving shapes (linear and rotating casts, deforming-mesh primitives).
//! - [`world`]: the collision world: colliders by handle, filters, sensors,
//!   margins, events and scene queries, one design for 2D and 3D.
//!
//! Most users want the per-dimension facades [`d2`] and [`d3`], which gather the
//! shapes, poses and queries of one dimension under one path.
//!
//! The crate does no I/O.
//!
//! ```
//! use peng::d3::*;
//! # fn main() -> Result<(), peng::GeometryError> {
//! let a: Shape = Cuboid::new(Vec3::new(2.0, 1.0, 1.0))?.into();
//! let pose_b = Pose3::from_translation(Vec3::new(3.5, 0.0, 0.0));
//! let d = distance(&a, &Pose3::IDENTITY, &a, &pose_b);
//! assert!((d.distance + 0.5).abs() < 1e-6); // they overlap by 0.5
//! let m = contact(&a, &Pose3::IDENTITY, &a, &pose_b, 0.0).expect("overlap");
//! assert!((m.normal - Vec3::X).length() < 1e-6); // from A to B
//! assert_eq!(m.len(), 4);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod bound;
pub mod broad;
pub mod ccd;
pub mod math;
pub mod mesh;
mod par;
pub mod query;
pub mod shape;
mod sort;
pub mod world;

/// Everything 2D in one place: shapes, poses and the pair queries.
pub mod d2 {
    pub use crate::bound::{Aabb2, BoundingCircle, Obb2, SphereTree2};
    pub use crate::broad::LooseQuadtree;
    pub use crate::ccd::d2::*;
    pub use crate::ccd::{CastHit2, CastOptions, CastStatus, Motion2};
    pub use crate::math::{Pose2, Rot2, Vec2};
    pub use crate::query::d2::*;
    pub use crate::query::types::{
        ContactId, ContactPoint2, Distance2, Manifold2, PointProjection2, Ray2, RayHit2,
    };
    pub use crate::shape::d2::*;
    pub use crate::world::{
        Collider, ColliderHandle, CollisionFilter, EventMode, Margin, QueryFilter, SensorMode,
        World2,
    };
}

/// Everything 3D in one place: shapes, poses and the pair queries.
pub mod d3 {
    pub use crate::bound::{Aabb3, BoundingSphere, Obb3, SphereTree3};
    pub use crate::broad::LooseOctree;
    pub use crate::ccd::d3::*;
    pub use crate::ccd::{CastHit3, CastOptions, CastStatus, Motion3};
    pub use crate::math::{Pose3, Quat, Vec3};
    pub use crate::mesh::{HeightField, TriMesh};
    pub use crate::query::d3::*;
    pub use crate::query::gjk::GjkCache;
    pub use crate::query::types::{
        ContactId, ContactPoint3, Distance3, Manifold3, PointProjection3, Ray3, RayHit3,
    };
    pub use crate::shape::d3::*;
    pub use crate::world::{
        Collider, ColliderHandle, CollisionFilter, EventMode, Margin, QueryFilter, SensorMode,
        World3,
    };
}

pub use math::policy::GeometryError;
