//! Rigid bodies and their integration in time.
//!
//! A body's state is its pose, the velocity of its centre of mass and its
//! angular velocity (world space). [`Body::integrate`] advances it by one
//! step of symplectic (semi-implicit) Euler: velocities first from the
//! forces, then positions from the new velocities (Catto, "Fast and Simple
//! Physics using Sequential Impulses", GDC 2006; Box2D's `b2IntegrateVelocities`
//! and `b2IntegratePositions` follow the same order). The rotation turns
//! about the centre of mass, so a spinning body's centre stays put.

mod rigid;

pub use rigid::{Body, Body2, Body3, BodyKind};
