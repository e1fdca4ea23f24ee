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

use core::any::Any;

use body::{integrate_positions, integrate_velocities, SolverBody};
use contact::{ContactC, ContactParams};
use soft::Softness;
use wide2::WideContacts2;

use crate::dim::DynDim;
use crate::joint::constraint::{self as joint, JointC, JointParams};
use crate::world::StepSettings;
use peng::world::Dim2;

/// The 2D view of the solver bodies, or `None` in 3D: the 2D contacts are
/// solved in lanes ([`wide2`]), the 3D ones by the scalar solver.
// A `Vec`, not a slice: `Any` takes sized types only.
#[allow(clippy::ptr_arg)]
fn bodies_2d<D: DynDim>(bodies: &mut Vec<SolverBody<D>>) -> Option<&mut Vec<SolverBody<Dim2>>> {
    (bodies as &mut dyn Any).downcast_mut()
}

/// The contacts and the solver that takes them: in 2D every contact goes
/// to lanes; in 3D the scalar solver takes them all.
pub(crate) struct ContactSet<'a, D: DynDim> {
    /// All contacts.
    pub contacts: &'a mut Vec<ContactC<D>>,
    /// The lanes of the 2D solver (unused in 3D).
    pub wide: &'a mut WideContacts2,
}

impl<D: DynDim> ContactSet<'_, D> {
    /// Packs the 2D contacts into lanes; returns the first contact left
    /// to the scalar solver (all of them in 3D, none in 2D).
    fn load(&mut self, bodies: &mut Vec<SolverBody<D>>, params: &ContactParams) -> usize {
        let contacts: &dyn Any = &*self.contacts;
        match (
            bodies_2d(bodies),
            contacts.downcast_ref::<Vec<ContactC<Dim2>>>(),
        ) {
            (Some(b2), Some(c2)) => {
                self.wide.load(b2, c2, params);
                c2.len()
            }
            _ => 0,
        }
    }

    fn warm_start(&mut self, bodies: &mut Vec<SolverBody<D>>, scalar: usize) {
        if let Some(b2) = bodies_2d(bodies) {
            self.wide.warm_start(b2);
        }
        contact::warm_start(bodies, &self.contacts[scalar..]);
    }

    fn solve(
        &mut self,
        bodies: &mut Vec<SolverBody<D>>,
        scalar: usize,
        params: &ContactParams,
        use_bias: bool,
    ) {
        if let Some(b2) = bodies_2d(bodies) {
            self.wide.solve(b2, params, use_bias);
        }
        contact::solve(bodies, &mut self.contacts[scalar..], params, use_bias);
    }

    /// Writes the lanes' impulses back into the contacts.
    fn store(&mut self) {
        let contacts: &mut dyn Any = &mut *self.contacts;
        if let Some(c2) = contacts.downcast_mut::<Vec<ContactC<Dim2>>>() {
            self.wide.store(c2);
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
    let scalar = contacts.load(bodies, &params);
    for _ in 0..n {
        integrate_velocities(bodies, h);
        joint::warm_start(bodies, joints);
        contacts.warm_start(bodies, scalar);
        joint::solve(bodies, joints, &joint_params, true);
        contacts.solve(bodies, scalar, &params, true);
        integrate_positions(bodies, h);
        joint::solve(bodies, joints, &joint_params, false);
        contacts.solve(bodies, scalar, &params, false);
    }
    contacts.store();
    contact::restitution(bodies, contacts.contacts, settings.restitution_threshold);
    joint::store(bodies, joints, inv_h);
}
