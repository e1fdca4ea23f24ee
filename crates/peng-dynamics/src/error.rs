//! [`DynamicsError`]: what the physics world rejects.

use peng::world::{ColliderHandle, WorldError};

use crate::joint::JointHandle;
use crate::mass::MassError;
use crate::world::BodyHandle;

/// Errors of the physics world.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DynamicsError {
    /// The body handle names no live body.
    #[error("no such body: {0:?} (removed, or from another world)")]
    StaleBody(BodyHandle),
    /// The collider handle names no collider of this world.
    #[error("no such collider: {0:?}")]
    StaleCollider(ColliderHandle),
    /// A step setting is out of range.
    #[error("invalid step setting {0} = {1}")]
    InvalidSetting(&'static str, f32),
    /// A material value is out of range (negative, NaN).
    #[error("invalid {0} {1}: must be finite and >= 0")]
    InvalidMaterial(&'static str, f32),
    /// A body's pose or velocity is not finite.
    #[error("body pose or velocity is not finite")]
    NonFiniteBody,
    /// The joint handle names no live joint.
    #[error("no such joint: {0:?}")]
    StaleJoint(JointHandle),
    /// A joint description is invalid (the value named: bodies, anchor,
    /// axis, limits, motor, spring, length).
    #[error("invalid joint {0}")]
    InvalidJoint(&'static str),
    /// The mass of a collider's shape could not be computed.
    #[error("collider mass: {0}")]
    Mass(#[from] MassError),
    /// The collision world refused the collider.
    #[error("collision world: {0}")]
    World(#[from] WorldError),
}
