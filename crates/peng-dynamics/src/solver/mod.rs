//! The constraint solver: one step of the soft-step scheme (Catto,
//! "Solver2D", 2024; Box2D v3's `b2SolverStage_*`).
//!
//! With `n` substeps of `h = dt / n`:
//!
//! ```text
//! masses (each contact's Delassus matrix and friction masses, in lanes)
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
//!
//! The contacts are solved eight at a time in blocks of lanes, and the
//! blocks in colours whose blocks share no dynamic body
//! ([`pack::Packer`]): the warm start and solve passes run colour after
//! colour, each colour's blocks on rayon's threads ([`colour::run`]), with
//! the same result on any number of threads; the threads stay in the step
//! as a team between passes ([`team`]). The joints are coloured the
//! same way, one joint at a time ([`crate::joint::graph`]).

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx;
pub(crate) mod block4;
pub(crate) mod body;
pub(crate) mod colour;
pub(crate) mod contact;
pub(crate) mod lanes;
pub(crate) mod pack;
pub(crate) mod soft;
pub(crate) mod team;
#[cfg(test)]
pub(crate) mod test_rng;
pub(crate) mod wide2;
pub(crate) mod wide3;

use core::any::Any;

use body::{integrate_positions, integrate_velocities, SolverBody};
use contact::{ContactC, ContactParams};
use soft::Softness;
use wide2::WideContacts2;
use wide3::WideContacts3;

use crate::dim::DynDim;
use crate::joint::constraint::{self as joint, JointParams};
use crate::joint::graph::ColouredJoints;
use crate::world::StepSettings;
use peng::world::{Dim2, Dim3};

/// One contact point's impulses at the end of a step, for warm starting
/// the next: feature id, normal impulse, friction impulse as a world
/// vector.
pub(crate) type PointImpulse<V> = (u32, f32, V);

/// `x` as a value of type `T`, when it is one: the lane solvers are
/// written per dimension ([`wide2`], [`wide3`]) and the world generically.
fn cast<X: Any, T: Any>(x: &X) -> Option<&T> {
    (x as &dyn Any).downcast_ref()
}

/// Mutable [`cast`].
fn cast_mut<X: Any, T: Any>(x: &mut X) -> Option<&mut T> {
    (x as &mut dyn Any).downcast_mut()
}

/// The step's contact constraints in lanes, for the world's dimension.
#[derive(Debug, Default, Clone)]
pub(crate) struct Lanes {
    wide2: WideContacts2,
    wide3: WideContacts3,
}

impl Lanes {
    /// Removes every constraint (the start of a step).
    pub fn clear(&mut self) {
        self.wide2.clear();
        self.wide3.clear();
    }

    /// Adds contact `id`, whose points' impulses go to `slot` on in the
    /// step's impulse list.
    pub fn add<D: DynDim>(
        &mut self,
        bodies: &Vec<SolverBody<D>>,
        c: &ContactC<D>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        if let (Some(b), Some(c)) = (cast::<_, Vec<SolverBody<Dim2>>>(bodies), cast(c)) {
            self.wide2.add(b, c, id, slot, params);
        } else if let (Some(b), Some(c)) = (cast::<_, Vec<SolverBody<Dim3>>>(bodies), cast(c)) {
            self.wide3.add(b, c, id, slot, params);
        }
    }

    /// What the lane solvers compute of the contacts themselves, once the
    /// contacts are in: the Delassus matrices and friction masses.
    fn masses(&mut self) {
        self.wide2.masses();
        self.wide3.masses();
    }

    fn warm_start<D: DynDim>(&self, bodies: &mut Vec<SolverBody<D>>) {
        if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim2>>>(bodies) {
            self.wide2.warm_start(b);
        } else if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim3>>>(bodies) {
            self.wide3.warm_start(b);
        }
    }

    fn solve<D: DynDim>(
        &mut self,
        bodies: &mut Vec<SolverBody<D>>,
        params: &ContactParams,
        use_bias: bool,
    ) {
        if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim2>>>(bodies) {
            self.wide2.solve(b, params, use_bias);
        } else if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim3>>>(bodies) {
            self.wide3.solve(b, params, use_bias);
        }
    }

    fn restitution<D: DynDim>(&mut self, bodies: &mut Vec<SolverBody<D>>, threshold: f32) {
        if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim2>>>(bodies) {
            self.wide2.restitution(b, threshold);
        } else if let Some(b) = cast_mut::<_, Vec<SolverBody<Dim3>>>(bodies) {
            self.wide3.restitution(b, threshold);
        }
    }

    /// Writes every point's impulses into its slot of `out`.
    pub fn impulses<D: DynDim>(&self, out: &mut Vec<PointImpulse<D::V>>) {
        if let Some(o) = cast_mut::<_, Vec<PointImpulse<glam::Vec2>>>(out) {
            self.wide2.impulses(o);
        } else if let Some(o) = cast_mut::<_, Vec<PointImpulse<glam::Vec3>>>(out) {
            self.wide3.impulses(o);
        }
    }
}

impl ContactParams {
    /// The contact coefficients for a step of `settings`.
    pub fn for_step<D: DynDim>(settings: &StepSettings<D>) -> Self {
        let h = settings.dt / settings.substeps.max(1) as f32;
        let inv_h = 1.0 / h;
        // The contact spring must stay well below the substep rate.
        let hertz = settings.contact_hertz.min(0.25 * inv_h);
        ContactParams {
            soft: Softness::new(hertz, settings.contact_damping_ratio, h),
            fixed_soft: Softness::new(2.0 * hertz, settings.contact_damping_ratio, h),
            inv_h,
            max_push: settings.max_push_speed,
            slop: settings.linear_slop,
        }
    }
}

/// Runs the substeps of one step on the solver bodies, joints and
/// contacts.
pub(crate) fn run_step<D: DynDim>(
    bodies: &mut Vec<SolverBody<D>>,
    contacts: &mut Lanes,
    params: &ContactParams,
    joints: &mut ColouredJoints<D>,
    settings: &StepSettings<D>,
) {
    let n = settings.substeps.max(1);
    let h = settings.dt / n as f32;
    let inv_h = 1.0 / h;
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
    // The passes below are short and many: they run on a team of threads
    // held for the whole step ([`team`]).
    team::with_team(|| {
        contacts.masses();
        for _ in 0..n {
            integrate_velocities(bodies, h);
            joint::warm_start(bodies, joints);
            contacts.warm_start(bodies);
            joint::solve(bodies, joints, &joint_params, true);
            contacts.solve(bodies, params, true);
            integrate_positions(bodies, h);
            joint::solve(bodies, joints, &joint_params, false);
            contacts.solve(bodies, params, false);
        }
    });
    contacts.restitution(bodies, settings.restitution_threshold);
    joint::store(bodies, joints, inv_h);
}
