//! A small seeded generator for the solvers' randomised unit tests, and
//! the contact coefficients they share.

use glam::{Vec2, Vec3};

use super::contact::ContactParams;
use super::soft::Softness;

/// The contact coefficients of the lane tests: 240 Hz substeps, a 30 Hz
/// contact spring (60 Hz against fixed bodies), heavily damped.
pub(crate) fn test_params() -> ContactParams {
    let h = 1.0 / 240.0;
    ContactParams {
        soft: Softness::new(30.0, 10.0, h),
        fixed_soft: Softness::new(60.0, 10.0, h),
        inv_h: 1.0 / h,
        max_push: 3.0,
        slop: 0.005,
    }
}

/// A linear congruential generator (Numerical Recipes' constants): the
/// same numbers on every platform, and no dependency.
pub(crate) struct Rng(pub u32);

impl Rng {
    /// Uniform in `[lo, hi)`, from the state's top 24 bits.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self.0.wrapping_mul(1664525).wrapping_add(1013904223);
        lo + (hi - lo) * ((self.0 >> 8) as f32 / (1u32 << 24) as f32)
    }

    /// A vector with each coordinate uniform in `[-r, r)`.
    pub fn v2(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.range(-r, r), self.range(-r, r))
    }

    /// A vector with each coordinate uniform in `[-r, r)`.
    pub fn v3(&mut self, r: f32) -> Vec3 {
        Vec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }
}
