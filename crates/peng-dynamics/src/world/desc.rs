//! Descriptions of bodies and colliders to add to a world.

use peng::math::Vector;

use crate::body::BodyKind;
use crate::dim::{Angular, DynDim};

/// A body to add: kind, pose, initial velocities and damping.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyDesc<D: DynDim> {
    /// How it moves.
    pub kind: BodyKind,
    /// Its pose.
    pub pose: D::Pose,
    /// Initial velocity of its centre of mass.
    pub linvel: D::V,
    /// Initial angular velocity.
    pub angvel: D::Ang,
    /// Linear damping rate (per second).
    pub linear_damping: f32,
    /// Angular damping rate (per second).
    pub angular_damping: f32,
    /// Multiplies gravity for this body.
    pub gravity_scale: f32,
    /// Whether it may fall asleep at rest.
    pub can_sleep: bool,
}

impl<D: DynDim> BodyDesc<D> {
    /// A body of this kind at rest at `pose`.
    pub fn new(kind: BodyKind, pose: D::Pose) -> Self {
        BodyDesc {
            kind,
            pose,
            linvel: D::V::ZERO,
            angvel: D::Ang::ZERO,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            can_sleep: true,
        }
    }
    /// A dynamic body (moved by forces and contacts).
    pub fn dynamic(pose: D::Pose) -> Self {
        Self::new(BodyKind::Dynamic, pose)
    }
    /// A static body (never moves).
    pub fn fixed(pose: D::Pose) -> Self {
        Self::new(BodyKind::Static, pose)
    }
    /// A kinematic body (moved by the velocities the user sets).
    pub fn kinematic(pose: D::Pose) -> Self {
        Self::new(BodyKind::Kinematic, pose)
    }
    /// With this initial linear velocity.
    pub fn with_linvel(mut self, v: D::V) -> Self {
        self.linvel = v;
        self
    }
    /// With this initial angular velocity.
    pub fn with_angvel(mut self, w: D::Ang) -> Self {
        self.angvel = w;
        self
    }
    /// With these damping rates (linear, angular; per second).
    pub fn with_damping(mut self, linear: f32, angular: f32) -> Self {
        self.linear_damping = linear;
        self.angular_damping = angular;
        self
    }
    /// Allowed to sleep at rest (or not).
    pub fn with_can_sleep(mut self, can: bool) -> Self {
        self.can_sleep = can;
        self
    }
    /// With this gravity scale.
    pub fn with_gravity_scale(mut self, s: f32) -> Self {
        self.gravity_scale = s;
        self
    }
}

/// A collider to attach to a body: shape, pose in the body frame, density
/// and surface material.
#[derive(Debug, Clone)]
pub struct ColliderDesc<D: DynDim> {
    /// The shape, in the collider's frame.
    pub shape: D::Shape,
    /// The collider's pose in its body's frame.
    pub local_pose: D::Pose,
    /// Density (kg/m³ in 3D, kg/m² in 2D; `>= 0`): the body's mass comes
    /// from its colliders.
    pub density: f32,
    /// Coulomb friction coefficient (`>= 0`); a pair uses the geometric
    /// mean of its two.
    pub friction: f32,
    /// Restitution (`0..=1` sensible, `>= 0`); a pair uses the larger.
    pub restitution: f32,
    /// A sensor: reports overlaps, exerts no force, adds no mass.
    pub sensor: bool,
    /// Which pairs may touch.
    pub filter: peng::world::CollisionFilter,
}

impl<D: DynDim> ColliderDesc<D> {
    /// A solid collider at the body's origin, density 1, friction 0.6,
    /// restitution 0 (Box2D's defaults).
    pub fn new(shape: impl Into<D::Shape>) -> Self {
        ColliderDesc {
            shape: shape.into(),
            local_pose: D::IDENTITY,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            sensor: false,
            filter: peng::world::CollisionFilter::ALL,
        }
    }
    /// At this pose in the body's frame.
    pub fn with_local_pose(mut self, p: D::Pose) -> Self {
        self.local_pose = p;
        self
    }
    /// With this density.
    pub fn with_density(mut self, d: f32) -> Self {
        self.density = d;
        self
    }
    /// With this friction coefficient.
    pub fn with_friction(mut self, f: f32) -> Self {
        self.friction = f;
        self
    }
    /// With this restitution.
    pub fn with_restitution(mut self, r: f32) -> Self {
        self.restitution = r;
        self
    }
    /// As a sensor (or not).
    pub fn with_sensor(mut self, s: bool) -> Self {
        self.sensor = s;
        self
    }
    /// With this collision filter.
    pub fn with_filter(mut self, f: peng::world::CollisionFilter) -> Self {
        self.filter = f;
        self
    }
}
