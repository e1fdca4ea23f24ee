//! [`MassProperties2`]: mass, centre of mass and moment of inertia in 2D.

use std::iter::Sum;
use std::ops::{Add, AddAssign};

use glam::Vec2;
use peng::math::Pose2;

/// Mass properties of a 2D body: mass, centre of mass (local frame) and the
/// moment of inertia about the centre of mass (about the axis out of the
/// plane).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties2 {
    /// The mass (`>= 0`).
    pub mass: f32,
    /// The centre of mass, in the local frame.
    pub local_com: Vec2,
    /// The moment of inertia about the centre of mass (`>= 0`).
    pub inertia: f32,
}

impl Default for MassProperties2 {
    fn default() -> Self {
        MassProperties2::ZERO
    }
}

impl MassProperties2 {
    /// No mass, centre at the origin, no inertia (the identity of `+`).
    pub const ZERO: MassProperties2 = MassProperties2 {
        mass: 0.0,
        local_com: Vec2::ZERO,
        inertia: 0.0,
    };

    /// `1 / mass`, or 0 for a massless body.
    pub fn inv_mass(&self) -> f32 {
        if self.mass > 0.0 {
            1.0 / self.mass
        } else {
            0.0
        }
    }

    /// `1 / inertia`, or 0 for a body without rotational inertia.
    pub fn inv_inertia(&self) -> f32 {
        if self.inertia > 0.0 {
            1.0 / self.inertia
        } else {
            0.0
        }
    }

    /// The principal moment of inertia: in 2D the single moment about the
    /// axis out of the plane (the same as [`Self::inertia`](MassProperties2::inertia)).
    pub fn principal_inertia(&self) -> f32 {
        self.inertia
    }

    /// The same body placed by `pose`: only the centre moves (the moment
    /// about the out-of-plane axis does not depend on the rotation).
    pub fn transformed(&self, pose: &Pose2) -> MassProperties2 {
        MassProperties2 {
            mass: self.mass,
            local_com: pose.transform_point(self.local_com),
            inertia: self.inertia,
        }
    }

    /// The moment of inertia about an arbitrary `point` (local frame), by
    /// the parallel-axis theorem: `I_p = I + m |com − point|²`.
    pub fn inertia_about(&self, point: Vec2) -> f32 {
        self.inertia + self.mass * (self.local_com - point).length_squared()
    }
}

impl Add for MassProperties2 {
    type Output = MassProperties2;

    /// The union of two bodies in the same frame: masses add, the centre is
    /// the mass-weighted mean, moments move to it by the parallel-axis
    /// theorem `I = Σ (I_i + m_i |c_i − c|²)`. Two massless bodies give a
    /// massless body centred between them.
    fn add(self, o: MassProperties2) -> MassProperties2 {
        let mass = self.mass + o.mass;
        let com = if mass > 0.0 {
            self.local_com + (o.local_com - self.local_com) * (o.mass / mass)
        } else {
            (self.local_com + o.local_com) * 0.5
        };
        MassProperties2 {
            mass,
            local_com: com,
            inertia: self.inertia_about(com) + o.inertia_about(com),
        }
    }
}

impl AddAssign for MassProperties2 {
    fn add_assign(&mut self, o: MassProperties2) {
        *self = *self + o;
    }
}

impl Sum for MassProperties2 {
    fn sum<I: Iterator<Item = MassProperties2>>(iter: I) -> Self {
        iter.fold(MassProperties2::ZERO, |a, b| a + b)
    }
}
