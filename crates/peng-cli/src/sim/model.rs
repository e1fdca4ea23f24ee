//! A loaded simulation scene: checked values in peng's types, ready for a
//! physics world. Angles are radians here (the file gives degrees).

use super::space::Space;
use peng::d2::Vec2;
use peng::world::{Dim2, Dim3};

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// Moved by gravity, contacts and joints.
    Dynamic,
    /// Moves with its own velocity, pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Never moves.
    Static,
}

/// A collider of a body.
#[derive(Debug, Clone)]
pub struct ColliderSpec<D: Space> {
    /// The shape in the collider's frame.
    pub shape: D::Shape,
    /// The collider's frame in the body's frame.
    pub local_pose: D::Pose,
    /// Mass per unit area (2D) or volume (3D), >= 0.
    pub density: f32,
    /// Coulomb friction coefficient, >= 0.
    pub friction: f32,
    /// Restitution in `[0, 1]`.
    pub restitution: f32,
}

/// A body with its colliders and initial state.
#[derive(Debug, Clone)]
pub struct BodySpec<D: Space> {
    /// Unique, non-empty name.
    pub name: String,
    /// Dynamic, kinematic or static.
    pub kind: BodyKind,
    /// The pose of the body's frame at the start.
    pub pose: D::Pose,
    /// Initial velocity of the centre of mass.
    pub linvel: D::V,
    /// Initial angular velocity, radians per second.
    pub angvel: D::Ang,
    /// Linear damping (1/s), >= 0.
    pub linear_damping: f32,
    /// Angular damping (1/s), >= 0.
    pub angular_damping: f32,
    /// At least one collider.
    pub colliders: Vec<ColliderSpec<D>>,
}

/// The type of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// A hinge: the anchors coincide, the bodies turn freely about it (2D) or
    /// about the axis (3D).
    Revolute,
    /// A slider: the bodies keep their relative rotation and move along the
    /// axis only.
    Prismatic,
    /// A rod (rigid), a rope (limits) or a spring between the anchors.
    Distance,
    /// The bodies keep their relative pose.
    Weld,
}

impl JointKind {
    /// Every kind, in the order the help lists them.
    pub const ALL: [JointKind; 4] = [
        JointKind::Revolute,
        JointKind::Prismatic,
        JointKind::Distance,
        JointKind::Weld,
    ];

    /// The name used in scene files.
    pub fn name(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Prismatic => "prismatic",
            JointKind::Distance => "distance",
            JointKind::Weld => "weld",
        }
    }
}

/// A joint motor: drives the joint's speed with a bounded force.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motor {
    /// Target speed: radians per second (revolute) or length per second
    /// (prismatic, distance).
    pub speed: f32,
    /// Largest torque (revolute) or force (prismatic), >= 0.
    pub max_force: f32,
}

/// A spring of a distance joint, as Box2D v3 gives it: a natural frequency
/// and a damping ratio for the bodies' effective mass along the joint (so
/// it behaves alike whatever the masses).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spring {
    /// Natural frequency (Hz), >= 0.
    pub hertz: f32,
    /// Damping ratio (1 = critical), >= 0.
    pub damping_ratio: f32,
}

/// A joint between two bodies.
#[derive(Debug, Clone)]
pub struct JointSpec<D: Space> {
    /// Its name (given, or `joints[i]`).
    pub name: String,
    /// Its type.
    pub kind: JointKind,
    /// Index of the first body.
    pub body_a: usize,
    /// Index of the second body (never `body_a`).
    pub body_b: usize,
    /// The anchor on body A, in A's frame.
    pub local_anchor_a: D::V,
    /// The anchor on body B, in B's frame.
    pub local_anchor_b: D::V,
    /// The unit axis in A's frame (prismatic: slide direction; 3D revolute:
    /// hinge axis); `None` for the other joints.
    pub local_axis_a: Option<D::V>,
    /// `(lower, upper)`, lower <= upper: radians (revolute), length
    /// (prismatic: along the axis; distance: between the anchors).
    pub limits: Option<(f32, f32)>,
    /// A motor (not on weld joints).
    pub motor: Option<Motor>,
    /// Rest length of a distance joint (>= 0).
    pub rest_length: Option<f32>,
    /// The spring of a distance joint; `None`: a rigid rod.
    pub spring: Option<Spring>,
    /// Whether the two bodies still collide with each other.
    pub collide_connected: bool,
}

/// The bodies and joints of one dimension.
#[derive(Debug, Clone)]
pub struct World<D: Space> {
    /// Gravity (acceleration).
    pub gravity: D::V,
    /// The bodies, in file order.
    pub bodies: Vec<BodySpec<D>>,
    /// The joints, in file order.
    pub joints: Vec<JointSpec<D>>,
}

/// The bodies and joints of a scene, of one dimension.
#[derive(Debug, Clone)]
pub enum Worlds {
    /// A 2D scene.
    D2(World<Dim2>),
    /// A 3D scene.
    D3(World<Dim3>),
}

/// Time stepping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Step in seconds (finite, > 0).
    pub dt: f32,
    /// Solver substeps per step (>= 1).
    pub substeps: u32,
    /// Number of steps (>= 1).
    pub steps: u64,
}

/// The picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewSpec {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The world region shown (view coordinates, min < max); `None`: fit
    /// the bodies at the start.
    pub region: Option<(Vec2, Vec2)>,
    /// Pictures per second of simulated time (finite, > 0).
    pub fps: f32,
}

/// A loaded simulation scene.
#[derive(Debug, Clone)]
pub struct SimScene {
    /// Where it came from (file name as given, or `<bundled ...>`).
    pub source: String,
    /// Time stepping.
    pub timing: Timing,
    /// The picture.
    pub view: ViewSpec,
    /// Bodies and joints.
    pub worlds: Worlds,
}

impl SimScene {
    /// 2 or 3.
    pub fn dimension(&self) -> u8 {
        match self.worlds {
            Worlds::D2(_) => 2,
            Worlds::D3(_) => 3,
        }
    }

    /// (number of bodies, number of joints).
    pub fn counts(&self) -> (usize, usize) {
        match &self.worlds {
            Worlds::D2(w) => (w.bodies.len(), w.joints.len()),
            Worlds::D3(w) => (w.bodies.len(), w.joints.len()),
        }
    }
}
