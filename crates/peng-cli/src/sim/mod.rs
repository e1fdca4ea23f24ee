//! `peng sim`: simulation scenes of bodies and joints, loaded with located
//! errors ([`load`]), run on peng's physics world ([`physics`], [`run`]),
//! drawn frame by frame ([`render`]) into an animated GIF, with an event
//! log ([`log`]).
//!
//! # Scene format
//!
//! A JSON object, in the style of `peng check` scene files (shapes, poses and
//! rotations are written the same way; see `peng check --help`):
//!
//! ```text
//! {
//!   "dimension": 2,                 2 or 3
//!   "gravity": [0, -9.81],          optional, default [0, -9.81] ([0, -9.81, 0])
//!   "dt": 0.016667,                 optional step in seconds, default 1/60; > 0
//!   "substeps": 4,                  optional solver substeps per step, >= 1
//!   "seconds": 5,                   optional simulated time (default 5), or
//!   "steps": 300,                   the number of steps (not both)
//!   "bodies": [
//!     {"name": "box",               unique, non-empty
//!      "kind": "dynamic",           dynamic (default) | kinematic | static
//!      "position": [0, 2],          optional body origin, default origin
//!      "angle_deg": 0,              2D; 3D: "rotation": {"axis": [..], "angle_deg": a}
//!                                   or {"quaternion": [x, y, z, w]}
//!      "linvel": [1, 0],            optional initial velocity of the centre of mass
//!      "angvel_deg": 90,            optional, degrees per second (3D: [x, y, z],
//!                                   axis times degrees per second); neither
//!                                   velocity on a static body
//!                                   (a kinematic body keeps its velocities)
//!      "linear_damping": 0,         optional, 1/s, >= 0
//!      "angular_damping": 0,        optional, 1/s, >= 0
//!      "colliders": [               at least one
//!        {"shape": {"type": "rect", "half_extents": [0.5, 0.5]},
//!         "position": [0, 0],       optional, in the body's frame
//!         "angle_deg": 0,           optional (3D: "rotation")
//!         "density": 1,             optional, >= 0, default 1
//!         "friction": 0.6,          optional, >= 0, default 0.6
//!         "restitution": 0}         optional, from 0 to 1, default 0
//!      ]}
//!   ],
//!   "joints": [                     optional
//!     {"type": "revolute",          revolute | prismatic | distance | weld
//!      "name": "hinge",             optional (default joints[i])
//!      "body_a": "box", "body_b": "ground",
//!      "anchor": [0, 3],            world point at the start (both anchors), or
//!      "anchor_a": [..], "anchor_b": [..]   one world point on each body
//!      "axis": [0, 0, 1],           prismatic: slide direction (required);
//!                                   3D revolute: hinge axis (default z)
//!      "limits": [-45, 45],         revolute: degrees; prismatic: length along
//!                                   the axis; distance: [min, max] length
//!      "motor": {"speed": 90, "max_force": 50},  revolute (deg/s, torque),
//!                                   prismatic or distance (length/s, force)
//!      "rest_length": 1,            distance only, default the start distance
//!      "hertz": 5,                  distance only: a spring of this natural
//!                                   frequency (absent: a rod)
//!      "damping_ratio": 0.7,        distance only, needs hertz (1 = critical)
//!      "collide_connected": false}  whether the two bodies still collide
//!   ],
//!   "view": {                       optional
//!     "width": 480, "height": 360,  pixels, 16 to 4096
//!     "min": [-5, -1], "max": [5, 6],  the region shown (3D: front view x, y);
//!                                   default: every body at the start, with a margin
//!     "fps": 30}                    pictures per simulated second
//! }
//! ```
//!
//! Anchor defaults: a distance joint joins the two body origins; the other
//! joints sit at body B's origin. A field that does not belong to a joint's
//! type (a motor on a weld, an axis on a 2D revolute joint, ...) is an error,
//! not ignored. A dynamic body needs a positive mass: a collider with a
//! positive density and an area (2D) or a volume (3D); no half-space.
//!
//! Every bad value is reported as `FILE:LINE:COLUMN: FIELD: message (in
//! body "name")`.

pub mod body;
mod command;
pub mod defs;
pub mod joint;
pub mod load;
pub mod log;
pub mod model;
pub mod physics;
pub mod render;
pub mod run;
pub mod settings;
pub mod space;

pub use command::run_cli;

#[cfg(test)]
mod tests;

/// The bundled example scenes: (name, file name, text).
pub const BUNDLED: [(&str, &str, &str); 4] = [
    (
        "pyramid",
        "examples/sim/pyramid.json",
        include_str!("../../../../examples/sim/pyramid.json"),
    ),
    (
        "cradle",
        "examples/sim/cradle.json",
        include_str!("../../../../examples/sim/cradle.json"),
    ),
    (
        "car",
        "examples/sim/car.json",
        include_str!("../../../../examples/sim/car.json"),
    ),
    (
        "tower3d",
        "examples/sim/tower3d.json",
        include_str!("../../../../examples/sim/tower3d.json"),
    ),
];
