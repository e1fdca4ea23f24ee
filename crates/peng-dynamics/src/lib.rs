//! Rigid-body dynamics on top of peng's collision detection (issue 6).
//!
//! A crate of its own, so that users who only need collision detection do
//! not pay for it. Layers, each knowing only the ones below:
//!
//! - [`mass`]: mass, centre of mass and inertia of every shape from a
//!   density.
//! - [`body`]: rigid bodies (dynamic, kinematic, static), forces and
//!   impulses, and their symplectic Euler step.

#![warn(missing_docs)]

pub mod body;
pub mod mass;

pub use body::{Body3, BodyKind};
pub use mass::{MassError, MassProperties2, MassProperties3};
