//! A small seeded generator for the solvers' randomised unit tests.

use glam::{Vec2, Vec3};

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
