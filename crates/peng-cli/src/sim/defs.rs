//! Serde definitions of the simulation scene format (see [`super`] for the
//! reference).
//!
//! As in [`crate::scene::defs`], shapes stay `serde_json::Value`s (read by
//! [`crate::scene::build2::shape`] / [`crate::scene::build3::shape`]) so an
//! error inside a shape still names its field, and joint types are a plain
//! string checked by hand: an internally tagged serde enum would lose the path
//! of errors inside it.

use crate::scene::defs::{RotationDef, V2, V3};
use serde::Deserialize;
use serde_json::Value;

/// The top level of a simulation scene; `B` is the body type of the
/// dimension, `V` its vector.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    bound(deserialize = "B: Deserialize<'de>, V: Deserialize<'de>")
)]
pub struct SimDef<B, V> {
    /// 2 or 3 (already checked before this is read).
    #[allow(dead_code)]
    pub dimension: u8,
    /// Gravity, default `[0, -9.81]` (`[0, -9.81, 0]` in 3D).
    #[serde(default)]
    pub gravity: Option<V>,
    /// Time step in seconds, default 1/60.
    #[serde(default)]
    pub dt: Option<f32>,
    /// Solver substeps per step, default 4.
    #[serde(default)]
    pub substeps: Option<u32>,
    /// Number of steps (or give `seconds`; not both).
    #[serde(default)]
    pub steps: Option<u64>,
    /// Simulated time in seconds (rounded up to whole steps).
    #[serde(default)]
    pub seconds: Option<f32>,
    /// The bodies.
    pub bodies: Vec<B>,
    /// The joints (default none).
    #[serde(default)]
    pub joints: Vec<JointDef<V>>,
    /// The picture.
    #[serde(default)]
    pub view: Option<ViewDef>,
}

/// A named 2D body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body2Def {
    /// Unique, non-empty name.
    pub name: String,
    /// `dynamic` (default), `kinematic` or `static`.
    #[serde(default)]
    pub kind: Option<String>,
    /// Position of the body's origin, default `[0, 0]`.
    #[serde(default)]
    pub position: Option<V2>,
    /// Counter-clockwise rotation in degrees, default 0.
    #[serde(default)]
    pub angle_deg: Option<f32>,
    /// Initial velocity of the centre of mass, default zero.
    #[serde(default)]
    pub linvel: Option<V2>,
    /// Initial angular velocity, degrees per second counter-clockwise.
    #[serde(default)]
    pub angvel_deg: Option<f32>,
    /// Linear damping (1/s), default 0.
    #[serde(default)]
    pub linear_damping: Option<f32>,
    /// Angular damping (1/s), default 0.
    #[serde(default)]
    pub angular_damping: Option<f32>,
    /// The colliders (at least one).
    pub colliders: Vec<Collider2Def>,
}

/// A named 3D body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body3Def {
    /// Unique, non-empty name.
    pub name: String,
    /// `dynamic` (default), `kinematic` or `static`.
    #[serde(default)]
    pub kind: Option<String>,
    /// Position of the body's origin, default `[0, 0, 0]`.
    #[serde(default)]
    pub position: Option<V3>,
    /// Orientation, default identity.
    #[serde(default)]
    pub rotation: Option<RotationDef>,
    /// Initial velocity of the centre of mass, default zero.
    #[serde(default)]
    pub linvel: Option<V3>,
    /// Initial angular velocity: axis times degrees per second.
    #[serde(default)]
    pub angvel_deg: Option<V3>,
    /// Linear damping (1/s), default 0.
    #[serde(default)]
    pub linear_damping: Option<f32>,
    /// Angular damping (1/s), default 0.
    #[serde(default)]
    pub angular_damping: Option<f32>,
    /// The colliders (at least one).
    pub colliders: Vec<Collider3Def>,
}

/// A 2D collider of a body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collider2Def {
    /// The shape, as in scene files.
    pub shape: Value,
    /// Position in the body's frame, default origin.
    #[serde(default)]
    pub position: Option<V2>,
    /// Rotation in the body's frame, degrees.
    #[serde(default)]
    pub angle_deg: Option<f32>,
    /// Mass per unit area, default 1.
    #[serde(default)]
    pub density: Option<f32>,
    /// Friction coefficient, default 0.6.
    #[serde(default)]
    pub friction: Option<f32>,
    /// Restitution, default 0.
    #[serde(default)]
    pub restitution: Option<f32>,
}

/// A 3D collider of a body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collider3Def {
    /// The shape, as in scene files.
    pub shape: Value,
    /// Position in the body's frame, default origin.
    #[serde(default)]
    pub position: Option<V3>,
    /// Rotation in the body's frame, default identity.
    #[serde(default)]
    pub rotation: Option<RotationDef>,
    /// Mass per unit volume, default 1.
    #[serde(default)]
    pub density: Option<f32>,
    /// Friction coefficient, default 0.6.
    #[serde(default)]
    pub friction: Option<f32>,
    /// Restitution, default 0.
    #[serde(default)]
    pub restitution: Option<f32>,
}

/// A joint between two bodies; which fields apply depends on `type` (checked
/// by the loader).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "V: Deserialize<'de>"))]
pub struct JointDef<V> {
    /// Optional name for messages and the log (default `joints[i]`).
    #[serde(default)]
    pub name: Option<String>,
    /// `revolute`, `prismatic`, `distance` or `weld`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Name of the first body.
    pub body_a: String,
    /// Name of the second body.
    pub body_b: String,
    /// World point where the joint sits at the start (sets both anchors).
    #[serde(default)]
    pub anchor: Option<V>,
    /// World point on body A at the start.
    #[serde(default)]
    pub anchor_a: Option<V>,
    /// World point on body B at the start.
    #[serde(default)]
    pub anchor_b: Option<V>,
    /// World axis at the start: the slide direction (prismatic), the hinge
    /// axis (3D revolute).
    #[serde(default)]
    pub axis: Option<V>,
    /// `[lower, upper]`: degrees (revolute), length (prismatic, distance).
    #[serde(default)]
    pub limits: Option<[f32; 2]>,
    /// A motor driving the joint.
    #[serde(default)]
    pub motor: Option<MotorDef>,
    /// Rest length of a distance joint (default: the anchors' start distance).
    #[serde(default)]
    pub rest_length: Option<f32>,
    /// Spring of a distance joint: natural frequency in Hz (absent: a rigid
    /// rod).
    #[serde(default)]
    pub hertz: Option<f32>,
    /// Spring damping ratio of a distance joint (1 = critical).
    #[serde(default)]
    pub damping_ratio: Option<f32>,
    /// Whether the two bodies still collide with each other (default false).
    #[serde(default)]
    pub collide_connected: bool,
}

/// `{"speed": s, "max_force": f}`: the motor drives the joint towards the
/// speed (degrees per second for revolute, length per second for prismatic
/// and distance) with at most this force (torque for revolute).
#[derive(Debug, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct MotorDef {
    /// Target speed.
    pub speed: f32,
    /// Largest force or torque the motor applies (>= 0).
    pub max_force: f32,
}

/// The picture: size, region and frame rate.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ViewDef {
    /// Width in pixels, default 480.
    #[serde(default)]
    pub width: Option<u32>,
    /// Height in pixels, default 360.
    #[serde(default)]
    pub height: Option<u32>,
    /// Lower-left corner of the world region shown (view coordinates: x, y;
    /// 3D: the front view, x right, y up). Default: fit all bodies.
    #[serde(default)]
    pub min: Option<[f32; 2]>,
    /// Upper-right corner of the region shown.
    #[serde(default)]
    pub max: Option<[f32; 2]>,
    /// Pictures per second of simulated time, default 30.
    #[serde(default)]
    pub fps: Option<f32>,
}
