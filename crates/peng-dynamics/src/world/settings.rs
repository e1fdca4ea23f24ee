//! [`StepSettings`]: the time step and the solver's tuning.

use crate::determinism::Determinism;
use crate::dim::DynDim;

/// How a [`PhysicsWorld`](super::PhysicsWorld) steps. The defaults are
/// Box2D v3's (Catto, "Solver2D", 2024; sleeping below 5 cm/s and 2°/s for
/// half a second): 60 Hz with 4 substeps, contacts as springs of 30 Hz with
/// damping ratio 10, pushed apart at most 3 m/s, no allowed overlap.
///
/// A soft contact under the weight of `n` bodies settles at an overlap of
/// about `n g / ω²` (its static deflection): a 20-box tower of 1 m boxes sinks
/// about 13 cm at 30 Hz. Stiffer contacts sink less (`contact_hertz` up to a
/// quarter of the substep rate: 60 Hz at 4 substeps, 120 Hz at 8), but at
/// 60 Hz with 4 substeps a 100-row pyramid starts to sway; more substeps buy
/// both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSettings<D: DynDim> {
    /// Gravity, an acceleration (m/s²).
    pub gravity: D::V,
    /// The time step (seconds, finite and `> 0`).
    pub dt: f32,
    /// Substeps per step (`>= 1`): each integrates velocities, solves the
    /// constraints with their position error, integrates positions and
    /// relaxes.
    pub substeps: u32,
    /// Stiffness of the contact spring (Hz); capped at a quarter of the
    /// substep rate, above which the soft step loses stability.
    pub contact_hertz: f32,
    /// Damping ratio of the contact spring (1 = critical).
    pub contact_damping_ratio: f32,
    /// Stiffness of the joint springs (Hz).
    pub joint_hertz: f32,
    /// Damping ratio of the joint springs.
    pub joint_damping_ratio: f32,
    /// The fastest speed (m/s) at which overlapping bodies are pushed apart.
    pub max_push_speed: f32,
    /// Approach speeds (m/s) below this one do not bounce.
    pub restitution_threshold: f32,
    /// Overlap (m) allowed without correction: it keeps resting contacts
    /// from flickering.
    pub linear_slop: f32,
    /// Gap (m) within which contacts are kept before they touch
    /// (speculative contacts); each pair adds how far its bodies move
    /// towards each other at most in a step.
    pub speculative_distance: f32,
    /// Manifold reuse (m): a touching pair keeps its contact manifolds,
    /// carried with its bodies, until some point of either body has moved
    /// this far relative to the other (or the pair's speculative gap grew)
    /// since they were found (`peng::world::World::set_manifold_reuse`).
    /// Keep it below the speculative distance: then a contact the carried
    /// manifold misses is never an overlap. 0 finds every moving pair's
    /// manifolds again at every step.
    pub manifold_reuse: f32,
    /// Broad-phase slack: a moving collider's broad-phase box is grown by
    /// this fraction of its smallest side, and the broad phase is touched
    /// again only when the collider leaves it
    /// (`peng::world::World::set_broad_slack`). Results do not depend on
    /// it; 0 gives exact boxes every step.
    pub broad_slack: f32,
    /// Whether resting bodies fall asleep.
    pub sleep: bool,
    /// A body is at rest below this speed (m/s)...
    pub sleep_linear_speed: f32,
    /// ...and this angular speed (rad/s)...
    pub sleep_angular_speed: f32,
    /// ...and its island sleeps once all its bodies were at rest this long
    /// (s).
    pub time_to_sleep: f32,
    /// How far the same results are promised: on any number of threads
    /// ([`Determinism::Fast`], the default), or also on any x86-64
    /// processor ([`Determinism::CrossProcessor`], a little slower). See
    /// [`crate::determinism`].
    pub determinism: Determinism,
}

impl<D: DynDim> Default for StepSettings<D> {
    fn default() -> Self {
        StepSettings {
            gravity: D::GRAVITY,
            dt: 1.0 / 60.0,
            substeps: 4,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            max_push_speed: 3.0,
            restitution_threshold: 1.0,
            linear_slop: 0.0,
            speculative_distance: 0.02,
            manifold_reuse: 0.005,
            broad_slack: 0.1,
            sleep: true,
            sleep_linear_speed: 0.05,
            sleep_angular_speed: 2f32.to_radians(),
            time_to_sleep: 0.5,
            determinism: Determinism::Fast,
        }
    }
}

impl<D: DynDim> StepSettings<D> {
    /// Checks every value; the error names the first bad one.
    pub fn validate(&self) -> Result<(), crate::DynamicsError> {
        use crate::DynamicsError::InvalidSetting as Bad;
        let pos = |x: f32| x.is_finite() && x > 0.0;
        let non_neg = |x: f32| x.is_finite() && x >= 0.0;
        if !peng::math::Vector::is_finite(self.gravity) {
            return Err(Bad("gravity", f32::NAN));
        }
        for (name, v, ok) in [
            ("dt", self.dt, pos(self.dt)),
            ("contact_hertz", self.contact_hertz, pos(self.contact_hertz)),
            (
                "contact_damping_ratio",
                self.contact_damping_ratio,
                non_neg(self.contact_damping_ratio),
            ),
            ("joint_hertz", self.joint_hertz, pos(self.joint_hertz)),
            (
                "joint_damping_ratio",
                self.joint_damping_ratio,
                non_neg(self.joint_damping_ratio),
            ),
            (
                "max_push_speed",
                self.max_push_speed,
                non_neg(self.max_push_speed),
            ),
            (
                "restitution_threshold",
                self.restitution_threshold,
                non_neg(self.restitution_threshold),
            ),
            ("linear_slop", self.linear_slop, non_neg(self.linear_slop)),
            (
                "speculative_distance",
                self.speculative_distance,
                non_neg(self.speculative_distance),
            ),
            (
                "manifold_reuse",
                self.manifold_reuse,
                non_neg(self.manifold_reuse),
            ),
            ("broad_slack", self.broad_slack, non_neg(self.broad_slack)),
            (
                "sleep_linear_speed",
                self.sleep_linear_speed,
                non_neg(self.sleep_linear_speed),
            ),
            (
                "sleep_angular_speed",
                self.sleep_angular_speed,
                non_neg(self.sleep_angular_speed),
            ),
            (
                "time_to_sleep",
                self.time_to_sleep,
                non_neg(self.time_to_sleep),
            ),
        ] {
            if !ok {
                return Err(Bad(name, v));
            }
        }
        if self.substeps == 0 {
            return Err(Bad("substeps", 0.0));
        }
        Ok(())
    }
}
