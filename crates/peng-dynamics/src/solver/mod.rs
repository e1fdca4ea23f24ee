//! The constraint solver: one step of the soft-step scheme (Catto,
//! "Solver2D", 2024; Box2D v3's `b2SolverStage_*`).
//!
//! With `n` substeps of `h = dt / n`:
//!
//! ```text
//! for each substep:
//!     integrate velocities (gravity, forces, damping)
//!     warm start (apply the accumulated impulses, which start from the
//!                 last step's for joints and contacts that persist)
//!     solve      (soft constraints, with the position error: joints,
//!                 then contacts)
//!     integrate positions
//!     relax      (rigid constraints, no position error: removes the
//!                 velocity the soft push added, so no energy is gained)
//! restitution; store the impulses for the next step
//! ```
//!
//! Collision detection runs once per step, before the solver; within the
//! step each contact's gap follows the bodies' motion from fixed anchors.

pub(crate) mod body;
pub(crate) mod contact;
pub(crate) mod lanes;
pub(crate) mod soft;
pub(crate) mod wide2;
pub(crate) mod wide3;

use core::any::Any;

use body::{integrate_positions, integrate_velocities, SolverBody};
use contact::{ContactC, ContactParams};
use soft::Softness;
use wide2::WideContacts2;
use wide3::WideContacts3;

use crate::dim::DynDim;
use crate::joint::constraint::{self as joint, JointC, JointParams};
use crate::world::StepSettings;
use peng::world::{Dim2, Dim3};

/// The solver bodies as those of dimension `E`, when `D` is `E`: the lane
/// solvers are written per dimension ([`wide2`], [`wide3`]).
// A `Vec`, not a slice: `Any` takes sized types only.
#[allow(clippy::ptr_arg)]
fn bodies_as<D: DynDim, E: DynDim>(
    bodies: &mut Vec<SolverBody<D>>,
) -> Option<&mut Vec<SolverBody<E>>> {
    (bodies as &mut dyn Any).downcast_mut()
}

/// The contacts as those of dimension `E`, when `D` is `E`.
#[allow(clippy::ptr_arg)]
fn contacts_as<D: DynDim, E: DynDim>(
    contacts: &mut Vec<ContactC<D>>,
) -> Option<&mut Vec<ContactC<E>>> {
    (contacts as &mut dyn Any).downcast_mut()
}

/// The contacts and the lane solver of their dimension, which takes them
/// all; the scalar solver ([`contact`]) is the reference the lanes are
/// tested against.
pub(crate) struct ContactSet<'a, D: DynDim> {
    /// All contacts.
    pub contacts: &'a mut Vec<ContactC<D>>,
    /// The lanes of the 2D solver (unused in 3D).
    pub wide2: &'a mut WideContacts2,
    /// The lanes of the 3D solver (unused in 2D).
    pub wide3: &'a mut WideContacts3,
}

impl<D: DynDim> ContactSet<'_, D> {
    /// Packs the contacts into lanes.
    fn load(&mut self, bodies: &mut Vec<SolverBody<D>>, params: &ContactParams) {
        if let (Some(b), Some(c)) = (
            bodies_as::<D, Dim2>(bodies),
            contacts_as::<D, Dim2>(self.contacts),
        ) {
            self.wide2.load(b, c, params);
        } else if let (Some(b), Some(c)) = (
            bodies_as::<D, Dim3>(bodies),
            contacts_as::<D, Dim3>(self.contacts),
        ) {
            self.wide3.load(b, c, params);
        }
    }

    fn warm_start(&mut self, bodies: &mut Vec<SolverBody<D>>) {
        if let Some(b) = bodies_as::<D, Dim2>(bodies) {
            self.wide2.warm_start(b);
        } else if let Some(b) = bodies_as::<D, Dim3>(bodies) {
            self.wide3.warm_start(b);
        }
    }

    fn solve(&mut self, bodies: &mut Vec<SolverBody<D>>, params: &ContactParams, use_bias: bool) {
        if let Some(b) = bodies_as::<D, Dim2>(bodies) {
            self.wide2.solve(b, params, use_bias);
        } else if let Some(b) = bodies_as::<D, Dim3>(bodies) {
            self.wide3.solve(b, params, use_bias);
        }
    }

    /// Writes the lanes' impulses back into the contacts.
    fn store(&mut self) {
        if let Some(c) = contacts_as::<D, Dim2>(self.contacts) {
            self.wide2.store(c);
        } else if let Some(c) = contacts_as::<D, Dim3>(self.contacts) {
            self.wide3.store(c);
        }
    }
}

/// Runs the substeps of one step on the solver bodies, joints and
/// contacts.
pub(crate) fn run_step<D: DynDim>(
    bodies: &mut Vec<SolverBody<D>>,
    mut contacts: ContactSet<'_, D>,
    joints: &mut [JointC<D>],
    settings: &StepSettings<D>,
) {
    let n = settings.substeps.max(1);
    let h = settings.dt / n as f32;
    let inv_h = 1.0 / h;
    // The contact spring must stay well below the substep rate.
    let hertz = settings.contact_hertz.min(0.25 * inv_h);
    let params = ContactParams {
        soft: Softness::new(hertz, settings.contact_damping_ratio, h),
        fixed_soft: Softness::new(2.0 * hertz, settings.contact_damping_ratio, h),
        inv_h,
        max_push: settings.max_push_speed,
        slop: settings.linear_slop,
    };
    // The joint spring, capped like the contact spring at a quarter of the
    // substep rate (Box2D v3's default joint spring, twice its 30 Hz
    // contact spring, is that cap at 60 Hz and 4 substeps): at half the
    // substep rate a hanging chain of 20 links already flies apart.
    let joint_params = JointParams {
        soft: Softness::new(
            settings.joint_hertz.min(0.25 * inv_h),
            settings.joint_damping_ratio,
            h,
        ),
        h,
        inv_h,
    };
    contacts.load(bodies, &params);
    for _ in 0..n {
        integrate_velocities(bodies, h);
        joint::warm_start(bodies, joints);
        contacts.warm_start(bodies);
        joint::solve(bodies, joints, &joint_params, true);
        contacts.solve(bodies, &params, true);
        integrate_positions(bodies, h);
        joint::solve(bodies, joints, &joint_params, false);
        contacts.solve(bodies, &params, false);
    }
    contacts.store();
    contact::restitution(bodies, contacts.contacts, settings.restitution_threshold);
    joint::store(bodies, joints, inv_h);
}
