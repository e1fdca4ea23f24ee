//! Soft constraints: a constraint as a damped spring, solved implicitly.
//!
//! For a spring of angular frequency `ω = 2π f` and damping ratio `ζ`
//! acting on a position error `C` over a substep `h`, the implicit update of
//! the impulse `λ` is (Catto, "Solver2D", 2024, and "Soft Constraints",
//! GDC 2011):
//!
//! `λ += −m_eff · mass_scale · (Jv + bias_rate · C) − impulse_scale · λ_acc`
//!
//! with `a1 = 2ζ + hω`, `a2 = hω·a1`, `a3 = 1 / (1 + a2)`,
//! `bias_rate = ω / a1`, `mass_scale = a2·a3`, `impulse_scale = a3`.
//! A rigid constraint is the limit `mass_scale = 1`, `impulse_scale = 0`
//! and no bias.

/// The coefficients of a soft constraint for one substep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Softness {
    /// Multiplies the position error to give a velocity bias.
    pub bias_rate: f32,
    /// Scales the effective mass.
    pub mass_scale: f32,
    /// Scales the accumulated impulse that is taken back.
    pub impulse_scale: f32,
}

impl Softness {
    /// The rigid constraint (used when relaxing).
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// A spring of `hertz` and `zeta` over a substep of `h` seconds; a zero
    /// frequency is the rigid constraint.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz <= 0.0 || h <= 0.0 {
            return Softness::RIGID;
        }
        let omega = 2.0 * core::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stiff_limit_is_rigid_and_coefficients_are_consistent() {
        // mass_scale + impulse_scale = 1 for every spring.
        for (f, z) in [(30.0, 10.0), (60.0, 2.0), (1.0, 0.0)] {
            let s = Softness::new(f, z, 1.0 / 240.0);
            assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
            assert!(s.bias_rate > 0.0);
        }
        let stiff = Softness::new(1e9, 1.0, 1.0 / 60.0);
        assert!((stiff.mass_scale - 1.0).abs() < 1e-6 && stiff.impulse_scale < 1e-6);
        assert_eq!(Softness::new(0.0, 1.0, 0.1), Softness::RIGID);
    }

    #[test]
    fn one_substep_of_an_undamped_spring_matches_the_implicit_euler_update() {
        // Unit mass on a spring of stiffness k = ω², at rest at C = 1:
        // implicit Euler gives v' = −h k C / (1 + h² k).
        let (f, h) = (2.0, 0.01);
        let w = 2.0 * core::f32::consts::PI * f;
        let s = Softness::new(f, 0.0, h);
        let dv = -s.mass_scale * s.bias_rate;
        let expect = -h * w * w / (1.0 + h * h * w * w);
        assert!(
            (dv - expect).abs() < 1e-4 * expect.abs(),
            "{dv} vs {expect}"
        );
    }
}
