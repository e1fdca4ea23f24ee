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

use core::ops::Range;

use body::{integrate_positions, integrate_velocities, SolverBody};
use colour::Shared;
use contact::{ContactC, ContactParams};
use soft::Softness;
use wide2::WideContacts2;
use wide3::WideContacts3;

use crate::determinism::{exact, Kernels};
use crate::dim::DynDim;
use crate::joint::constraint::{self as joint, JointParams};
use crate::joint::graph::{ColouredJoints, LanePass};
use crate::joint::lanes2::{self, HingeArms, HingeBlock, HingeLanes};
use crate::world::StepSettings;
use glam::{Quat, Vec3};
use peng::math::Rot2;
use peng::world::{Dim, Dim2, Dim3};

/// One contact point's impulses at the end of a step, for warm starting
/// the next: feature id, normal impulse, friction impulse as a world
/// vector.
pub(crate) type PointImpulse<V> = (u32, f32, V);

/// What the solver has per dimension: the lane solvers are written per
/// dimension ([`wide2`], [`wide3`], [`lanes2`]) and the rest of the solver
/// and the world generically; this trait, a supertrait of [`DynDim`] that
/// only this crate can name (so [`DynDim`] is sealed), ties the two
/// together at compile time.
///
/// Its functions that take solver bodies ask `Self: DynDim`, which always
/// holds ([`DynDim`] is its only subtrait and both dimensions implement
/// both), but which the trait cannot state as a supertrait (the two would
/// form a cycle).
// The crate's own types in its functions: the trait is reachable through
// `DynDim`, but no one outside the crate can name it, nor make or reach
// the solver's values its functions take.
#[allow(private_interfaces, private_bounds)]
pub trait SolverDim: Dim {
    /// The step's contact constraints in lanes ([`WideContacts2`],
    /// [`WideContacts3`]).
    type Contacts: Default + Clone + core::fmt::Debug + Send + Sync;

    /// Whether the plain hinges go in lanes ([`lanes2`]: the plane's only).
    const HINGE_LANES: bool;

    /// Adds contact `id`, whose points' impulses go to `slot` on in the
    /// step's impulse list.
    fn contacts_add(
        lanes: &mut Self::Contacts,
        bodies: &[SolverBody<Self>],
        c: &ContactC<Self>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) where
        Self: DynDim;
    /// Removes every constraint (the start of a step) and sets the
    /// kernels of the step's passes.
    fn contacts_clear(lanes: &mut Self::Contacts, kernels: Kernels);
    /// The Delassus matrices and friction masses, once the contacts are in.
    fn contacts_masses(lanes: &mut Self::Contacts);
    /// Applies the accumulated impulses.
    fn contacts_warm_start(lanes: &Self::Contacts, bodies: &mut [SolverBody<Self>])
    where
        Self: DynDim;
    /// One pass (soft with the position error when `use_bias`, else the
    /// relax pass).
    fn contacts_solve(
        lanes: &mut Self::Contacts,
        bodies: &mut [SolverBody<Self>],
        params: &ContactParams,
        use_bias: bool,
    ) where
        Self: DynDim;
    /// Restitution, once after the substeps.
    fn contacts_restitution(
        lanes: &mut Self::Contacts,
        bodies: &mut [SolverBody<Self>],
        threshold: f32,
    ) where
        Self: DynDim;
    /// Writes every point's impulses into its slot of `out`.
    fn contacts_impulses(lanes: &Self::Contacts, out: &mut [PointImpulse<Self::V>]);

    /// Fills the hinges' lanes for the step from the bodies and
    /// `arms(slot)` (nothing where [`HINGE_LANES`](Self::HINGE_LANES) is
    /// false: no hinge was placed).
    fn fill_hinges(
        hinges: &mut HingeLanes,
        bodies: &[SolverBody<Self>],
        arms: impl Fn(u32) -> HingeArms + Sync + Send,
    ) where
        Self: DynDim;

    /// Runs `pass` on the hinge blocks `run` (none where
    /// [`HINGE_LANES`](Self::HINGE_LANES) is false).
    ///
    /// # Safety
    /// No other thread writes these blocks, nor reaches their dynamic
    /// bodies, meanwhile.
    unsafe fn hinge_pass(
        kernels: Kernels,
        blocks: &Shared<HingeBlock>,
        bodies: &Shared<SolverBody<Self>>,
        run: Range<usize>,
        pass: LanePass,
    ) where
        Self: DynDim;

    /// [`DynDim::twist_angle`] with the crate's own arc tangent
    /// ([`exact`]), the same on any processor.
    fn twist_angle_exact(fa: <Self as DynDim>::Rot, fb: <Self as DynDim>::Rot) -> f32
    where
        Self: DynDim;
    /// [`DynDim::rot_error`], the same on any processor.
    fn rot_error_exact(
        fa: <Self as DynDim>::Rot,
        fb: <Self as DynDim>::Rot,
    ) -> <Self as DynDim>::Ang
    where
        Self: DynDim;
    /// [`DynDim::integrate_rotation`] with the crate's own sine and cosine
    /// ([`exact`]), the same on any processor.
    fn integrate_rotation_exact(
        rot: <Self as DynDim>::Rot,
        w: <Self as DynDim>::Ang,
        h: f32,
    ) -> <Self as DynDim>::Rot
    where
        Self: DynDim;
}

#[allow(private_interfaces, private_bounds)] // As the trait's.
impl SolverDim for Dim2 {
    type Contacts = WideContacts2;
    const HINGE_LANES: bool = true;

    fn contacts_add(
        lanes: &mut WideContacts2,
        bodies: &[SolverBody<Dim2>],
        c: &ContactC<Dim2>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        lanes.add(bodies, c, id, slot, params);
    }
    fn contacts_clear(lanes: &mut WideContacts2, kernels: Kernels) {
        lanes.clear();
        lanes.set_kernels(kernels);
    }
    fn contacts_masses(lanes: &mut WideContacts2) {
        lanes.masses();
    }
    fn contacts_warm_start(lanes: &WideContacts2, bodies: &mut [SolverBody<Dim2>]) {
        lanes.warm_start(bodies);
    }
    fn contacts_solve(
        lanes: &mut WideContacts2,
        bodies: &mut [SolverBody<Dim2>],
        params: &ContactParams,
        use_bias: bool,
    ) {
        lanes.solve(bodies, params, use_bias);
    }
    fn contacts_restitution(
        lanes: &mut WideContacts2,
        bodies: &mut [SolverBody<Dim2>],
        threshold: f32,
    ) {
        lanes.restitution(bodies, threshold);
    }
    fn contacts_impulses(lanes: &WideContacts2, out: &mut [PointImpulse<glam::Vec2>]) {
        lanes.impulses(out);
    }
    fn fill_hinges(
        hinges: &mut HingeLanes,
        bodies: &[SolverBody<Dim2>],
        arms: impl Fn(u32) -> HingeArms + Sync + Send,
    ) {
        hinges.fill(bodies, arms);
    }
    unsafe fn hinge_pass(
        kernels: Kernels,
        blocks: &Shared<HingeBlock>,
        bodies: &Shared<SolverBody<Dim2>>,
        run: Range<usize>,
        pass: LanePass,
    ) {
        // SAFETY: the caller's.
        unsafe {
            match pass {
                LanePass::WarmStart => lanes2::warm_start(kernels, blocks, bodies, run),
                LanePass::Solve(s) => lanes2::solve(kernels, blocks, bodies, run, s),
            }
        }
    }
    fn twist_angle_exact(fa: Rot2, fb: Rot2) -> f32 {
        let r = fa.inverse().mul(fb);
        exact::atan2(r.sin, r.cos)
    }
    fn rot_error_exact(fa: Rot2, fb: Rot2) -> f32 {
        Self::twist_angle_exact(fa, fb)
    }
    fn integrate_rotation_exact(rot: Rot2, w: f32, h: f32) -> Rot2 {
        // No sine or cosine here: as [`DynDim::integrate_rotation`].
        <Dim2 as DynDim>::integrate_rotation(rot, w, h)
    }
}

#[allow(private_interfaces, private_bounds)] // As the trait's.
impl SolverDim for Dim3 {
    type Contacts = WideContacts3;
    const HINGE_LANES: bool = false;

    fn contacts_add(
        lanes: &mut WideContacts3,
        bodies: &[SolverBody<Dim3>],
        c: &ContactC<Dim3>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        lanes.add(bodies, c, id, slot, params);
    }
    fn contacts_clear(lanes: &mut WideContacts3, kernels: Kernels) {
        lanes.clear();
        lanes.set_kernels(kernels);
    }
    fn contacts_masses(lanes: &mut WideContacts3) {
        lanes.masses();
    }
    fn contacts_warm_start(lanes: &WideContacts3, bodies: &mut [SolverBody<Dim3>]) {
        lanes.warm_start(bodies);
    }
    fn contacts_solve(
        lanes: &mut WideContacts3,
        bodies: &mut [SolverBody<Dim3>],
        params: &ContactParams,
        use_bias: bool,
    ) {
        lanes.solve(bodies, params, use_bias);
    }
    fn contacts_restitution(
        lanes: &mut WideContacts3,
        bodies: &mut [SolverBody<Dim3>],
        threshold: f32,
    ) {
        lanes.restitution(bodies, threshold);
    }
    fn contacts_impulses(lanes: &WideContacts3, out: &mut [PointImpulse<glam::Vec3>]) {
        lanes.impulses(out);
    }
    fn fill_hinges(
        _hinges: &mut HingeLanes,
        _bodies: &[SolverBody<Dim3>],
        _arms: impl Fn(u32) -> HingeArms + Sync + Send,
    ) {
    }
    unsafe fn hinge_pass(
        _kernels: Kernels,
        _blocks: &Shared<HingeBlock>,
        _bodies: &Shared<SolverBody<Dim3>>,
        run: Range<usize>,
        _pass: LanePass,
    ) {
        debug_assert!(run.is_empty(), "no hinge in lanes in 3D");
    }
    fn twist_angle_exact(fa: Quat, fb: Quat) -> f32 {
        // As [`DynDim::twist_angle`].
        let q = fa.inverse() * fb;
        let (w, x) = if q.w < 0.0 { (-q.w, -q.x) } else { (q.w, q.x) };
        2.0 * exact::atan2(x, w)
    }
    fn rot_error_exact(fa: Quat, fb: Quat) -> Vec3 {
        // No arc tangent here: as [`DynDim::rot_error`].
        <Dim3 as DynDim>::rot_error(fa, fb)
    }
    fn integrate_rotation_exact(rot: Quat, w: Vec3, h: f32) -> Quat {
        // As [`DynDim::integrate_rotation`], with glam's
        // `Quat::from_scaled_axis` spelled out: the turn by angle |ωh|
        // about ωh/|ωh|, (sin(θ/2) axis, cos(θ/2)).
        let v = w * h;
        let angle = v.length();
        let turn = if angle == 0.0 {
            Quat::IDENTITY
        } else {
            let (s, c) = exact::sin_cos(angle * 0.5);
            let axis = v / angle;
            Quat::from_xyzw(axis.x * s, axis.y * s, axis.z * s, c)
        };
        let q = (turn * rot).normalize();
        if q.is_finite() {
            q
        } else {
            rot
        }
    }
}

/// The step's contact constraints in lanes, for the world's dimension.
pub(crate) struct Lanes<D: DynDim>(D::Contacts);

impl<D: DynDim> Default for Lanes<D> {
    fn default() -> Self {
        Lanes(D::Contacts::default())
    }
}

impl<D: DynDim> Clone for Lanes<D> {
    fn clone(&self) -> Self {
        Lanes(self.0.clone())
    }
}

impl<D: DynDim> core::fmt::Debug for Lanes<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Lanes").field(&self.0).finish()
    }
}

impl<D: DynDim> Lanes<D> {
    /// Removes every constraint (the start of a step) and sets the
    /// kernels of the step's passes.
    pub fn clear(&mut self, kernels: Kernels) {
        D::contacts_clear(&mut self.0, kernels);
    }

    /// Adds contact `id`, whose points' impulses go to `slot` on in the
    /// step's impulse list.
    pub fn add(
        &mut self,
        bodies: &[SolverBody<D>],
        c: &ContactC<D>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        D::contacts_add(&mut self.0, bodies, c, id, slot, params);
    }

    /// What the lane solvers compute of the contacts themselves, once the
    /// contacts are in: the Delassus matrices and friction masses.
    fn masses(&mut self) {
        D::contacts_masses(&mut self.0);
    }

    fn warm_start(&self, bodies: &mut [SolverBody<D>]) {
        D::contacts_warm_start(&self.0, bodies);
    }

    fn solve(&mut self, bodies: &mut [SolverBody<D>], params: &ContactParams, use_bias: bool) {
        D::contacts_solve(&mut self.0, bodies, params, use_bias);
    }

    fn restitution(&mut self, bodies: &mut [SolverBody<D>], threshold: f32) {
        D::contacts_restitution(&mut self.0, bodies, threshold);
    }

    /// Writes every point's impulses into its slot of `out`.
    pub fn impulses(&self, out: &mut [PointImpulse<D::V>]) {
        D::contacts_impulses(&self.0, out);
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
/// contacts (whose kernels [`Lanes::clear`] set), with the scalar math of
/// `kernels` (exact: the crate's own sine, cosine and arc tangent).
pub(crate) fn run_step<D: DynDim>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut Lanes<D>,
    params: &ContactParams,
    joints: &mut ColouredJoints<D>,
    settings: &StepSettings<D>,
    kernels: Kernels,
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
        exact: kernels.exact(),
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
            integrate_positions(bodies, h, kernels.exact());
            joint::solve(bodies, joints, &joint_params, false);
            contacts.solve(bodies, params, false);
        }
    });
    contacts.restitution(bodies, settings.restitution_threshold);
    joint::store(bodies, joints, inv_h);
}
