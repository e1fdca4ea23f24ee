//! Rigid-body dynamics benchmark scenes as engine-neutral data,
//! and, in `benches/`, rapier2d/rapier3d running them.
//!
//! - [`scene`]: the plain-data types ([`Scene2`], [`Scene3`], bodies, shapes,
//!   joints), plain glam values (the random pile uses peng-bench's seeded
//!   generator), so that both engines build the very same scenes.
//! - [`box2d`]: Box2D v3's 2D benchmark set (large pyramid, many pyramids,
//!   tumbler, joint grid).
//! - [`scenes3`]: the 3D scenes (a pyramid of boxes, a pile of convex hulls
//!   on a triangle-mesh floor).
//!
//! The benches (`cargo bench -p peng-dyn-bench`): `dynamics` (criterion,
//! one group per scene) and `dyn_steps` (a table of fixed step counts, like
//! Box2D's benchmark application). This package's lib is not tested by
//! `cargo test --workspace` (rapier, a dev-dependency, would be built); its
//! unit tests run with `cargo test -p peng-dyn-bench --lib --profile bench`.

#![warn(missing_docs)]

pub mod box2d;
pub mod scene;
pub mod scenes3;

pub use scene::{
    BodySpec2, BodySpec3, Filter, Geometry2, Geometry3, JointSpec2, JointSpec3, Kind, Material,
    Scene2, Scene3, ShapeSpec2, ShapeSpec3,
};
