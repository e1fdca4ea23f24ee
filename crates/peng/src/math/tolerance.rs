//! Tolerances shared by every algorithm.
//!
//! Lengths are in the user's units. Absolute tolerances are for shapes of size
//! around 1; algorithms that must work at huge or tiny scales multiply
//! [`REL_EPS`] by a scale of the input (for example a bounding radius) instead.

/// Relative epsilon for f32 geometry: about 8 ulps at 1.0.
pub const REL_EPS: f32 = 1.0e-6;

/// Squared length below which a direction is treated as zero (see
/// [`crate::math::policy`]).
pub const ZERO_LENGTH_SQ: f32 = 1.0e-20;

/// Contact slop: penetration below this is treated as touching. Box2D uses
/// 0.005 m (`B2_LINEAR_SLOP`); the same figure suits metre-sized scenes.
pub const LINEAR_SLOP: f32 = 0.005;

/// Angular slop in radians (about 2 degrees), for choosing face contacts over
/// edge contacts when faces are nearly parallel.
pub const ANGULAR_SLOP: f32 = 2.0 / 180.0 * core::f32::consts::PI;

/// Iteration cap for GJK; it converges in a handful of iterations for
/// well-conditioned input, the cap only bounds degenerate cases.
pub const GJK_MAX_ITERATIONS: usize = 64;

/// Iteration cap for EPA (polytope expansion). A curved Minkowski difference
/// (a cone's rim swept along a segment) can need about 200 vertices to bring
/// the depth within its relative tolerance: a cone against a capsule's core
/// took 189, and stopped at 128 its best depth was 1.6e-4 (0.1 %) too deep.
/// Pairs that converge sooner, nearly all, are not affected.
pub const EPA_MAX_ITERATIONS: usize = 256;

/// Scale-aware tolerance: `REL_EPS` times the larger of `scale` and 1.
#[inline]
pub fn scaled_eps(scale: f32) -> f32 {
    REL_EPS * scale.abs().max(1.0)
}
