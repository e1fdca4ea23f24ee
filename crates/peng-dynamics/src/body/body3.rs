//! [`Body3`]: a 3D rigid body and its symplectic Euler step.

use glam::{Mat3, Quat, Vec3};
use peng::math::Pose3;

use crate::mass::MassProperties3;

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BodyKind {
    /// Moved by forces, impulses and gravity.
    #[default]
    Dynamic,
    /// Moved only by its velocities, which the user sets (a lift, a paddle);
    /// infinite mass to everything else.
    Kinematic,
    /// Never moves.
    Static,
}

/// A 3D rigid body: pose, velocities, mass properties, damping and the
/// forces gathered for the next step.
#[derive(Debug, Clone, PartialEq)]
pub struct Body3 {
    /// How it moves.
    pub kind: BodyKind,
    /// The pose of the body frame (its colliders are placed in this frame).
    pub pose: Pose3,
    /// The velocity of the centre of mass, world space.
    pub linvel: Vec3,
    /// The angular velocity, world space (an axis scaled by radians per
    /// second).
    pub angvel: Vec3,
    /// Linear damping rate (per second, `>= 0`): each step scales the
    /// velocity by `1 / (1 + dt·c)`.
    pub linear_damping: f32,
    /// Angular damping rate (per second, `>= 0`).
    pub angular_damping: f32,
    mass: MassProperties3,
    /// The inverse inertia about the centre of mass in the local frame (the
    /// pseudo-inverse: a zero principal moment stays zero, so a flat body
    /// does not turn about that axis).
    inv_inertia_local: Mat3,
    force: Vec3,
    torque: Vec3,
}

/// The pseudo-inverse of a symmetric positive semi-definite tensor, through
/// its principal axes: moments at or below `1e-12` of the largest count as
/// zero.
fn inverse_inertia(m: &MassProperties3) -> Mat3 {
    let (moments, rot) = m.principal_inertia();
    let floor = 1e-12 * moments.max_element().max(0.0);
    let inv = |x: f32| if x > floor && x > 0.0 { 1.0 / x } else { 0.0 };
    let r = Mat3::from_quat(rot);
    r * Mat3::from_diagonal(Vec3::new(inv(moments.x), inv(moments.y), inv(moments.z)))
        * r.transpose()
}

impl Body3 {
    /// A body of this kind at `pose`, at rest, with these mass properties
    /// (ignored for kinematic and static bodies, which act as infinitely
    /// heavy).
    pub fn new(kind: BodyKind, pose: Pose3, mass: MassProperties3) -> Self {
        Body3 {
            kind,
            pose,
            linvel: Vec3::ZERO,
            angvel: Vec3::ZERO,
            linear_damping: 0.0,
            angular_damping: 0.0,
            inv_inertia_local: inverse_inertia(&mass),
            mass,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
        }
    }

    /// The mass properties (local frame).
    pub fn mass_properties(&self) -> &MassProperties3 {
        &self.mass
    }

    /// `1 / mass` for a dynamic body with mass, else 0.
    pub fn inv_mass(&self) -> f32 {
        match self.kind {
            BodyKind::Dynamic => self.mass.inv_mass(),
            _ => 0.0,
        }
    }

    /// The inverse inertia tensor about the centre of mass in world space
    /// (`R I⁻¹ Rᵀ`); zero for kinematic and static bodies.
    pub fn inv_inertia_world(&self) -> Mat3 {
        if self.kind != BodyKind::Dynamic {
            return Mat3::ZERO;
        }
        let r = Mat3::from_quat(self.pose.rotation);
        r * self.inv_inertia_local * r.transpose()
    }

    /// The centre of mass in world space.
    pub fn world_com(&self) -> Vec3 {
        self.pose.transform_point(self.mass.local_com)
    }

    /// The velocity of the body's material point at world position `p`.
    pub fn velocity_at_point(&self, p: Vec3) -> Vec3 {
        self.linvel + self.angvel.cross(p - self.world_com())
    }

    /// Adds a force through the centre of mass for the next step.
    pub fn apply_force(&mut self, f: Vec3) {
        self.force += f;
    }

    /// Adds a torque for the next step.
    pub fn apply_torque(&mut self, t: Vec3) {
        self.torque += t;
    }

    /// Adds a force acting at world point `p` (a force and the torque
    /// `(p − com) × f`).
    pub fn apply_force_at_point(&mut self, f: Vec3, p: Vec3) {
        self.force += f;
        self.torque += (p - self.world_com()).cross(f);
    }

    /// Applies an impulse through the centre of mass now: `Δv = j / m`.
    pub fn apply_impulse(&mut self, j: Vec3) {
        self.linvel += j * self.inv_mass();
    }

    /// Applies an impulse at world point `p` now: `Δv = j / m`,
    /// `Δω = I⁻¹ ((p − com) × j)`.
    pub fn apply_impulse_at_point(&mut self, j: Vec3, p: Vec3) {
        self.linvel += j * self.inv_mass();
        self.angvel += self.inv_inertia_world() * (p - self.world_com()).cross(j);
    }

    /// One step of `dt` seconds under `gravity` (an acceleration).
    ///
    /// Dynamic bodies: `v += dt (g + F/m)`, `ω += dt I⁻¹ τ`, then damping
    /// `v /= 1 + dt c` (Box2D's rational form: stable for any `dt`), then the
    /// centre moves by `dt v` and the rotation turns by `dt ω` about it.
    /// The gyroscopic term `ω × Iω` is left out, as Box2D and rapier do by
    /// default: it is what makes explicit integrators gain energy. A massless
    /// dynamic body is moved by neither forces nor gravity. Kinematic
    /// bodies move by their velocities only; static bodies stay. The
    /// gathered forces and torques are cleared.
    pub fn integrate(&mut self, dt: f32, gravity: Vec3) {
        let (force, torque) = (self.force, self.torque);
        self.force = Vec3::ZERO;
        self.torque = Vec3::ZERO;
        match self.kind {
            BodyKind::Static => return,
            BodyKind::Kinematic => {}
            BodyKind::Dynamic => {
                let inv_m = self.mass.inv_mass();
                if inv_m > 0.0 {
                    self.linvel += dt * (gravity + force * inv_m);
                }
                self.angvel += dt * (self.inv_inertia_world() * torque);
                self.linvel /= 1.0 + dt * self.linear_damping;
                self.angvel /= 1.0 + dt * self.angular_damping;
            }
        }
        let com = self.world_com() + dt * self.linvel;
        let turn = Quat::from_scaled_axis(self.angvel * dt);
        let rotation = (turn * self.pose.rotation).normalize();
        self.pose = Pose3 {
            translation: com - rotation * self.mass.local_com,
            rotation,
        };
    }
}
