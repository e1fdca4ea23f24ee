//! A small deterministic random number generator, so that random scenes are
//! the same on every machine and run without another dependency.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014): a 64-bit counter stepped by the golden-ratio
//! increment, then mixed by two xor-shift-multiply rounds.

use glam::{Quat, Vec3};

/// SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed` (every seed is valid).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform float in [0, 1): the top 24 bits over 2^24, so every value
    /// is exact in f32 and 1 is never reached.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// A uniform float in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// A uniform integer in [lo, hi] (inclusive; `hi >= lo`).
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        let span = u64::from(hi.saturating_sub(lo)) + 1;
        lo + (self.next_u64() % span) as u32
    }

    /// A uniform direction: a point drawn in the cube [-1, 1]³, kept if it
    /// lies inside the unit ball (and not too near its centre), normalised.
    pub fn direction(&mut self) -> Vec3 {
        loop {
            let p = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l2 = p.length_squared();
            if l2 > 1e-4 && l2 <= 1.0 {
                return p / l2.sqrt();
            }
        }
    }

    /// A uniform rotation (Shoemake, "Uniform random rotations", Graphics
    /// Gems III): with u1, u2, u3 uniform in [0, 1), the unit quaternion
    /// (√(1-u1)·sin 2πu2, √(1-u1)·cos 2πu2, √u1·sin 2πu3, √u1·cos 2πu3).
    pub fn rotation(&mut self) -> Quat {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let tau = std::f32::consts::TAU;
        Quat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs for seed 0 of the reference implementation
        // (Vigna's splitmix64.c), published with xoshiro's seeding notes.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn unit_and_range_stay_in_bounds() {
        let mut r = SplitMix64::new(7);
        for _ in 0..10_000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            let i = r.int(3, 5);
            assert!((3..=5).contains(&i));
            assert!((r.direction().length() - 1.0).abs() < 1e-5);
            assert!((r.rotation().length() - 1.0).abs() < 1e-5);
        }
    }
}
