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
pub(crate) mod soft;

use body::{integrate_positions, integrate_velocities, SolverBody};
use contact::{ContactC, ContactParams};
use soft::Softness;

use crate::dim::DynDim;
use crate::joint::constraint::{self as joint, JointC, JointParams};
use crate::world::StepSettings;

/// Runs the substeps of one step on the solver bodies, joints and
/// contacts.
pub(crate) fn run_step<D: DynDim>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut [ContactC<D>],
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
    for _ in 0..n {
        integrate_velocities(bodies, h);
        joint::warm_start(bodies, joints);
        contact::warm_start(bodies, contacts);
        joint::solve(bodies, joints, &joint_params, true);
        contact::solve(bodies, contacts, &params, true);
        integrate_positions(bodies, h);
        joint::solve(bodies, joints, &joint_params, false);
        contact::solve(bodies, contacts, &params, false);
    }
    contact::restitution(bodies, contacts, settings.restitution_threshold);
    joint::store(bodies, joints, inv_h);
}
