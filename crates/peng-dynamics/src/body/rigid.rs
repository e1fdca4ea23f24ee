//! [`Body`]: a rigid body in 2D or 3D and its symplectic Euler step.

use peng::math::Vector;

use crate::dim::{Angular, DynDim};

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BodyKind {
    /// Moved by forces, impulses, contacts and gravity.
    #[default]
    Dynamic,
    /// Moved only by its velocities, which the user sets (a lift, a paddle);
    /// infinite mass to everything else.
    Kinematic,
    /// Never moves.
    Static,
}

/// A rigid body: pose, velocities, mass properties, damping and the forces
/// gathered for the next step.
#[derive(Debug, Clone, PartialEq)]
pub struct Body<D: DynDim> {
    /// How it moves.
    pub kind: BodyKind,
    /// The pose of the body frame (its colliders are placed in this frame).
    pub pose: D::Pose,
    /// The velocity of the centre of mass, world space.
    pub linvel: D::V,
    /// The angular velocity, world space (3D: an axis scaled by radians per
    /// second; 2D: radians per second, counter-clockwise).
    pub angvel: D::Ang,
    /// Linear damping rate (per second, `>= 0`): each step scales the
    /// velocity by `1 / (1 + dt·c)`.
    pub linear_damping: f32,
    /// Angular damping rate (per second, `>= 0`).
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (1 by default; 0 for a
    /// body that floats).
    pub gravity_scale: f32,
    /// Whether the body may fall asleep when it comes to rest (true by
    /// default).
    pub can_sleep: bool,
    /// Asleep: not integrated, not solved, until something wakes it.
    pub(crate) sleeping: bool,
    /// Seconds the body has been slower than the sleep thresholds.
    pub(crate) sleep_time: f32,
    /// The island it fell asleep with (all wake together).
    pub(crate) island: u32,
    mass: D::Mass,
    /// The inverse inertia about the centre of mass in the local frame (the
    /// pseudo-inverse: a zero principal moment stays zero).
    inv_inertia_local: D::InvInertia,
    pub(crate) force: D::V,
    pub(crate) torque: D::Ang,
}

/// A 2D rigid body.
pub type Body2 = Body<peng::world::Dim2>;
/// A 3D rigid body.
pub type Body3 = Body<peng::world::Dim3>;

impl<D: DynDim> Body<D> {
    /// A body of this kind at `pose`, at rest, with these mass properties
    /// (ignored for kinematic and static bodies, which act as infinitely
    /// heavy).
    pub fn new(kind: BodyKind, pose: D::Pose, mass: D::Mass) -> Self {
        Body {
            kind,
            pose,
            linvel: D::V::ZERO,
            angvel: D::Ang::ZERO,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            can_sleep: true,
            sleeping: false,
            sleep_time: 0.0,
            island: 0,
            inv_inertia_local: D::inv_inertia_local(&mass),
            mass,
            force: D::V::ZERO,
            torque: D::Ang::ZERO,
        }
    }

    /// The mass properties (local frame).
    pub fn mass_properties(&self) -> &D::Mass {
        &self.mass
    }

    /// Replaces the mass properties (the pose stays; the centre of mass
    /// moves with the new properties).
    pub fn set_mass_properties(&mut self, mass: D::Mass) {
        self.inv_inertia_local = D::inv_inertia_local(&mass);
        self.mass = mass;
    }

    /// `1 / mass` for a dynamic body with mass, else 0.
    pub fn inv_mass(&self) -> f32 {
        let m = D::mass_value(&self.mass);
        if self.kind == BodyKind::Dynamic && m > 0.0 {
            1.0 / m
        } else {
            0.0
        }
    }

    /// The inverse inertia about the centre of mass in world space (3D:
    /// `R I⁻¹ Rᵀ`); zero for kinematic and static bodies.
    pub fn inv_inertia_world(&self) -> D::InvInertia {
        if self.kind != BodyKind::Dynamic {
            return D::INV_INERTIA_ZERO;
        }
        D::inv_inertia_world(&self.inv_inertia_local, D::rotation(&self.pose))
    }

    /// The centre of mass in world space.
    pub fn world_com(&self) -> D::V {
        D::transform_point(&self.pose, D::mass_com(&self.mass))
    }

    /// The velocity of the body's material point at world position `p`.
    pub fn velocity_at_point(&self, p: D::V) -> D::V {
        self.linvel + D::cross_av(self.angvel, p - self.world_com())
    }

    /// Adds a force through the centre of mass for the next step.
    pub fn apply_force(&mut self, f: D::V) {
        self.force = self.force + f;
    }

    /// Adds a torque for the next step.
    pub fn apply_torque(&mut self, t: D::Ang) {
        self.torque += t;
    }

    /// Adds a force acting at world point `p` (a force and the torque
    /// `(p − com) × f`).
    pub fn apply_force_at_point(&mut self, f: D::V, p: D::V) {
        self.force = self.force + f;
        self.torque += D::cross_vv(p - self.world_com(), f);
    }

    /// Applies an impulse through the centre of mass now: `Δv = j / m`.
    pub fn apply_impulse(&mut self, j: D::V) {
        self.linvel = self.linvel + j * self.inv_mass();
    }

    /// Applies an impulse at world point `p` now: `Δv = j / m`,
    /// `Δω = I⁻¹ ((p − com) × j)`.
    pub fn apply_impulse_at_point(&mut self, j: D::V, p: D::V) {
        self.linvel = self.linvel + j * self.inv_mass();
        let dw = D::apply_inv_inertia(
            &self.inv_inertia_world(),
            D::cross_vv(p - self.world_com(), j),
        );
        self.angvel += dw;
    }

    /// The velocity change of one step of `dt` seconds under `gravity`
    /// (dynamic bodies only; the gathered forces are read, not cleared):
    /// `v += dt (g·scale + F/m)`, `ω += dt I⁻¹ τ`, then the damping
    /// `v /= 1 + dt c` (Box2D's rational form: stable for any `dt`).
    pub(crate) fn integrate_velocity(&mut self, dt: f32, gravity: D::V) {
        if self.kind != BodyKind::Dynamic {
            return;
        }
        let inv_m = self.inv_mass();
        if inv_m > 0.0 {
            self.linvel = self.linvel + (gravity * self.gravity_scale + self.force * inv_m) * dt;
        }
        let dw = D::apply_inv_inertia(&self.inv_inertia_world(), self.torque) * dt;
        self.angvel += dw;
        self.linvel = self.linvel * (1.0 / (1.0 + dt * self.linear_damping));
        self.angvel = self.angvel * (1.0 / (1.0 + dt * self.angular_damping));
    }

    /// Moves the pose by the velocities over `dt`: the centre of mass by
    /// `dt v`, the rotation by `dt ω` about it (static bodies stay).
    pub(crate) fn integrate_position(&mut self, dt: f32) {
        if self.kind == BodyKind::Static {
            return;
        }
        let local_com = D::mass_com(&self.mass);
        let com = self.world_com() + self.linvel * dt;
        let rot = D::integrate_rotation(D::rotation(&self.pose), self.angvel, dt);
        self.pose = D::pose_from(com - D::rotate(rot, local_com), rot);
    }

    /// One step of `dt` seconds under `gravity` (an acceleration), on its
    /// own (a world step does this with contacts and joints in between).
    ///
    /// Dynamic bodies: `v += dt (g + F/m)`, `ω += dt I⁻¹ τ`, then damping
    /// `v /= 1 + dt c`, then the centre moves by `dt v` and the rotation
    /// turns by `dt ω` about it. The gyroscopic term `ω × Iω` is left out,
    /// as Box2D and rapier do by default: it is what makes explicit
    /// integrators gain energy. A massless dynamic body is moved by neither
    /// forces nor gravity. Kinematic bodies move by their velocities only;
    /// static bodies stay. The gathered forces and torques are cleared.
    pub fn integrate(&mut self, dt: f32, gravity: D::V) {
        self.integrate_velocity(dt, gravity);
        self.clear_forces();
        self.integrate_position(dt);
    }

    /// Clears the gathered forces and torques.
    pub fn clear_forces(&mut self) {
        self.force = D::V::ZERO;
        self.torque = D::Ang::ZERO;
    }

    /// Whether the body is asleep (at rest, skipped by the solver until a
    /// moving body touches it or it is changed).
    pub fn is_sleeping(&self) -> bool {
        self.sleeping
    }

    /// Whether pose and velocities are finite.
    pub fn is_finite(&self) -> bool {
        D::pose_is_finite(&self.pose) && self.linvel.is_finite() && self.angvel.is_finite()
    }
}
