//! 3D casts: moving balls (closed form), linear casts of every convex pair
//! and nonlinear casts.
//!
//! - [`cast_balls`]: two moving balls, a quadratic in closed form.
//! - [`cast_linear`]: two shapes translating with constant velocities. Convex
//!   pairs by GJK ray casting on the Minkowski difference (van den Bergen
//!   2004); half-spaces in closed form; compounds, triangle meshes and height
//!   fields as the earliest contact over their parts in the swept box.
//! - [`cast_nonlinear`]: translation plus rotation ([`Motion3`](crate::ccd::Motion3)),
//!   by conservative advancement (Mirtich 1996; Zhang, Redon, Lee, Kim 2007).
//!
//! # Start rule (shared by all casts)
//! At time `0` the signed distance `d` decides, with `tol` the tolerance of
//! [`CastOptions`](crate::ccd::CastOptions):
//! - `d < −tol`: [`Penetrating`](crate::ccd::CastStatus::Penetrating), always
//!   reported (as parry's `stop_at_penetration = true`), with the depth and
//!   the minimum-translation points and normal.
//! - `−tol <= d <= target + tol`: [`Touching`](crate::ccd::CastStatus::Touching)
//!   when the normal relative velocity of the witness points is `<= 0`
//!   (approaching or sliding); when it is `> 0` (separating) there is no hit
//!   at `0` and the search goes on (for convex pairs under translation the
//!   distance then only grows, so there is none).
//! - otherwise the cast searches for the first time the distance reaches
//!   `target` ([`Hit`](crate::ccd::CastStatus::Hit)).

// `!(t <= max_time)` is meant: it is also true for NaN, which must end a
// cast (the degeneracy policy: NaN input never loops or panics).
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod balls;
mod common;
mod composite;
mod halfspace;
mod linear;
mod nonlinear;
mod raycast;

pub use balls::cast_balls;
pub use linear::cast_linear;
pub use nonlinear::cast_nonlinear;
