//! Collision checking for robot arms.
//!
//! - [`urdf`] reads a robot model (URDF): links with their collision
//!   geometry and joints (revolute, continuous, prismatic, fixed; mimic
//!   joints follow the joint they name).
//! - [`srdf`] reads the semantic description (SRDF): groups, named group
//!   states and the link pairs whose collisions are disabled.
//! - [`Robot::link_poses`] is the forward kinematics of a configuration, in
//!   f64 along the chain.
//! - [`link_shapes`] turns each link's collision geometry into peng shapes
//!   (meshes read with `peng-io`, as convex hulls by default).
//! - [`Checker`] checks a configuration: self-collision (link pairs neither
//!   adjacent nor disabled by the SRDF) and collision with environment
//!   objects, with padding per link; contacts with depth and points, or the
//!   closest pair and every pair within a cut-off. Objects are any peng
//!   shapes (meshes and height fields too); [`point_cloud`] makes one of a
//!   point cloud.
//! - [`Checker::check_motion`] certifies a straight joint-space segment free
//!   or finds its first contact by conservative advancement, never by
//!   sampling; [`Checker::check_batch`] and [`Checker::check_motion_batch`]
//!   run many on all cores, with results independent of the thread count.
//! - [`acm::generate`] builds the allowed-collision matrix by sampling, as
//!   MoveIt's setup assistant does, and [`acm::to_srdf`] writes it.
//!
//! Bad input never panics: every error names the file, the line where there
//! is one, and the element ([`RobotError`]).

pub mod acm;
mod batch;
mod bounds;
mod check;
mod environment;
mod error;
mod model;
mod motion;
mod shapes;
pub mod srdf;
mod transform;
pub mod urdf;
mod xml;

pub use check::{Checker, Other, PairReport, Stop};
pub use environment::point_cloud;
pub use error::RobotError;
pub use model::{Collision, Geometry, Inertial, Joint, JointKind, Limits, Link, Mimic, Robot};
pub use motion::{MotionResult, CONTACT_TOL};
pub use shapes::{link_shapes, LinkShape, MeshMode, MeshSource};
pub use transform::Transform;
