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
//! already overlapping at the start. A nonlinear cast that runs out of its step
//! budget ([`MAX_ADVANCE_STEPS`], rare: near-grazing rotating pairs) reports no
//! contact it has not found: it returns [`CastStatus::Undecided`] with the time
//! up to which it certified that there is none.
//!
//! ```
//! use peng::d3::*;
//! # fn main() -> Result<(), peng::GeometryError> {
//! let bullet: Shape = Ball::new(0.01)?.into();
//! let wall: Shape = Cuboid::new(Vec3::new(0.005, 2.0, 2.0))?.into();
//! // The bullet crosses the wall within one step: x from -5 to +5.
//! let start = Pose3::from_translation(Vec3::new(-5.0, 0.0, 0.0));
//! let hit = cast_linear(&bullet, &start, Vec3::new(10.0, 0.0, 0.0),
//!                       &wall, &Pose3::IDENTITY, Vec3::ZERO, &CastOptions::default())
//!     .expect("it hits");
//! // The surfaces meet when the centre reaches x = -0.015.
//! assert!((hit.time - 0.4985).abs() < 1e-5);
//! assert!((hit.normal - Vec3::X).length() < 1e-4); // from the bullet to the wall
//! assert_eq!(hit.status, CastStatus::Hit);
//! # Ok(())
//! # }
//! ```

pub mod d2;
pub mod d3;
pub mod mesh;
mod types;

/// The length the automatic tolerance is relative to for shapes of sizes `a`
/// and `b`: the smaller size, so that a small shape meeting a large one (a
/// bullet and a wall) is resolved within a fraction of its own size, but at
/// least `1e-3` of the larger (f32 resolves about `1e-7` of the coordinates;
/// finer tolerances would not converge).
pub(crate) fn tolerance_size(a: f32, b: f32) -> f32 {
    a.min(b).max(1e-3 * a.max(b))
}

pub use types::{
    CastHit, CastHit2, CastHit3, CastOptions, CastStatus, Motion2, Motion3, MAX_ADVANCE_STEPS,
    MAX_COMPOSITE_ADVANCE_STEPS,
};
