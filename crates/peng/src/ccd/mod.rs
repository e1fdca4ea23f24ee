//! Continuous collision detection: when, within a motion, two shapes first touch.
//!
//! A discrete check between frames lets fast objects pass through thin ones. The
//! functions here find the *first* time of contact within a motion instead:
//!
//! - [`d2`] and [`d3`]: casts of convex shapes. Closed forms where they exist
//!   (moving circles and balls: a quadratic; 2D polygons: the swept
//!   separating-axis test), linear casts of every convex pair, and nonlinear
//!   casts (translation plus rotation, [`Motion2`] / [`Motion3`]) by
//!   conservative advancement with a bound on the angular motion.
//! - [`mesh`]: vertex–face and edge–edge tests between two time steps of
//!   deforming triangle meshes, in `f64`, conservative (never a missed contact).
//!
//! Results share one type, [`CastHit`]: the time in units of the motion, the
//! witness points and the normal (from A to B, world space) at that time, and a
//! [`CastStatus`] that says whether the shapes were separated, touching or
//! already overlapping at the start.

pub mod d2;
pub mod d3;
pub mod mesh;
mod types;

pub use types::{CastHit, CastHit2, CastHit3, CastOptions, CastStatus, Motion2, Motion3};
