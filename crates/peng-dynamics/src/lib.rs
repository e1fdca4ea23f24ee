//! Rigid-body dynamics on top of peng's collision detection.
//!
//! A crate of its own, so that users who only need collision detection do
//! not pay for it. Layers, each knowing only the ones below:
//!
//! - [`mass`]: mass, centre of mass and inertia of every shape from a
//!   density.
//! - [`body`]: rigid bodies (dynamic, kinematic, static), forces and
//!   impulses, and their symplectic Euler step.
//! - [`dim`]: what differs between 2D and 3D (angular velocity, inertia,
//!   rotations), so that the solver and the world are written once.
//! - [`joint`]: revolute, prismatic, distance and weld joints with limits
//!   and motors.
//! - `solver`: soft-step contact and joint constraints with warm starting,
//!   friction and restitution.
//! - [`world`]: [`PhysicsWorld`]: bodies with colliders in a collision
//!   world, stepped in time.
//!
//! ```
//! use peng::d2::{Circle, Pose2, Rect, Vec2};
//! use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld2};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = PhysicsWorld2::new();
//! let ground = world.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(0.0, -0.5))));
//! world.add_collider(ground, ColliderDesc::new(Rect::new(Vec2::new(10.0, 0.5))?))?;
//! let ball = world.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(0.0, 2.0))));
//! world.add_collider(ball, ColliderDesc::new(Circle::new(0.5)?))?;
//! for _ in 0..120 {
//!     world.step()?;
//! }
//! // Two seconds later the ball rests on the ground.
//! let y = world.body(ball).unwrap().pose.translation.y;
//! assert!((y - 0.5).abs() < 0.01, "{y}");
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod body;
mod clock;
pub mod determinism;
pub mod dim;
mod error;
pub mod joint;
pub mod mass;
pub(crate) mod solver;
pub mod world;

pub use body::{Body, Body2, Body3, BodyKind};
pub use determinism::Determinism;
pub use dim::DynDim;
pub use error::DynamicsError;
pub use joint::{Joint, JointDesc, JointDesc2, JointDesc3, JointHandle, JointType, Motor, Spring};
pub use mass::{MassError, MassProperties2, MassProperties3};
pub use world::{
    BodyDesc, BodyHandle, ColliderDesc, PhysicsWorld, PhysicsWorld2, PhysicsWorld3, StepProfile,
    StepSettings,
};
