//! [`JointC`]: a joint as the solver sees it for one step, and the stages
//! the solver runs on all joints (warm start, solve, store).
//!
//! As for contacts, the anchors are fixed in the bodies at the start of the
//! step: with `Δp`, `ΔR` the bodies' motion since then, the current anchor
//! arms are `ΔR r₀` and the anchor separation is
//! `d = (c_B + Δp_B + ΔR_B r_b₀) − (c_A + Δp_A + ΔR_A r_a₀)`, stored as
//! `delta_center = c_B − c_A` (Box2D v3's `deltaCenter`).

use peng::math::Vector;

use super::graph::{ColouredJoints, LanePass};
use super::{distance, prismatic, revolute, weld, JointImpulses, JointType, Motor};
use crate::dim::{Angular, DynDim};
use crate::solver::body::SolverBody;
use crate::solver::soft::Softness;

/// What the distance joint holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LengthMode {
    /// A rod: the length is held (soft like every joint part).
    Rigid,
    /// A spring pulls towards the rest length: `omega = 2π f`, damping
    /// ratio `zeta`, and its implicit (soft) coefficients.
    Spring {
        /// Angular frequency (rad/s).
        omega: f32,
        /// Damping ratio.
        zeta: f32,
        /// The soft-constraint form, for springs too stiff for the
        /// substep.
        soft: Softness,
    },
    /// Free (a spring of 0 Hz, or limits alone: a rope).
    Free,
}

/// A joint for one step.
#[derive(Debug)]
pub(crate) struct JointC<D: DynDim> {
    /// The joint's slot in the world (to store the impulses back).
    pub slot: u32,
    /// The kind.
    pub kind: JointType,
    /// Solver body index of A.
    pub a: u32,
    /// Solver body index of B.
    pub b: u32,
    /// A's anchor from A's centre of mass, world, at the step's start.
    pub ra0: D::V,
    /// B's anchor from B's centre of mass.
    pub rb0: D::V,
    /// `c_B − c_A` at the step's start.
    pub delta_center: D::V,
    /// A's joint frame (world) at the step's start.
    pub fa0: D::Rot,
    /// B's joint frame.
    pub fb0: D::Rot,
    /// `(I_a⁻¹ + I_b⁻¹)⁻¹` for the rotation locks.
    pub ang_mass: D::InvInertia,
    /// Limits of the free coordinate.
    pub limits: Option<(f32, f32)>,
    /// Motor.
    pub motor: Option<Motor>,
    /// Distance joints: rod, spring or free.
    pub length_mode: LengthMode,
    /// Distance joints: rest length.
    pub length: f32,
    /// The accumulated impulses.
    pub imp: JointImpulses<D>,
    /// The force on B over the step (filled by [`store`]).
    pub force: D::V,
    /// The torque on B.
    pub torque: D::Ang,
    /// The motor's force or torque.
    pub motor_force: f32,
}

// By hand: a derive would ask `D: Copy` of the dimension marker.
impl<D: DynDim> Clone for JointC<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: DynDim> Copy for JointC<D> {}

/// The joint solver's coefficients for one step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JointParams {
    /// The joint spring (position error) when solving with bias.
    pub soft: Softness,
    /// The substep.
    pub h: f32,
    /// `1 / h`.
    pub inv_h: f32,
    /// Whether the angles come from the crate's own arc tangent
    /// ([`Determinism::CrossProcessor`](crate::Determinism::CrossProcessor)).
    pub exact: bool,
}

/// The joint's geometry now, from the bodies' motion since the step began.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geo<D: DynDim> {
    /// A's anchor arm.
    pub ra: D::V,
    /// B's anchor arm.
    pub rb: D::V,
    /// From A's anchor to B's.
    pub d: D::V,
    /// A's joint frame.
    pub fa: D::Rot,
    /// B's joint frame.
    pub fb: D::Rot,
}

impl<D: DynDim> JointC<D> {
    /// The current geometry.
    #[inline]
    pub fn geo(&self, a: &SolverBody<D>, b: &SolverBody<D>) -> Geo<D> {
        let ra = D::rotate(a.dq, self.ra0);
        let rb = D::rotate(b.dq, self.rb0);
        Geo {
            ra,
            rb,
            d: (b.dp - a.dp) + self.delta_center + rb - ra,
            fa: D::rot_mul(a.dq, self.fa0),
            fb: D::rot_mul(b.dq, self.fb0),
        }
    }
}

/// The `i`-th axis of a frame (x: the joint axis).
#[inline]
pub(crate) fn frame_axis<D: DynDim>(f: D::Rot, i: usize) -> D::V {
    let mut e = D::V::ZERO;
    e.set(i, 1.0);
    D::rotate(f, e)
}

/// Applies every joint's accumulated impulses (each substep).
pub(crate) fn warm_start<D: DynDim>(bodies: &mut [SolverBody<D>], joints: &mut ColouredJoints<D>) {
    joints.run(bodies, LanePass::WarmStart, |j, a, b| {
        let g = j.geo(a, b);
        let (f, t) = parts(j, &g);
        a.apply(-f.0, g.ra);
        a.apply(-f.1, f.2);
        b.apply(f.0, g.rb);
        b.apply(f.1, g.rb);
        super::row::apply_torque(a, b, t);
    });
}

/// The impulses of a joint as (impulse at the anchors, impulse with A's
/// lever arm `f.2` ... see below) and a pure torque.
///
/// Returns `((p, q, ra_q), t)`: `p` acts at the anchors (`−p` on A at
/// `r_a`, `p` on B at `r_b`), `q` likewise but with A's lever arm `ra_q`
/// (the prismatic joint's rows act at B's anchor on both bodies), and `t`
/// is a torque on B (`−t` on A).
#[allow(clippy::type_complexity)]
fn parts<D: DynDim>(j: &JointC<D>, g: &Geo<D>) -> ((D::V, D::V, D::V), D::Ang) {
    let z = D::V::ZERO;
    let i = &j.imp;
    let axial = i.motor + i.lower - i.upper;
    match j.kind {
        JointType::Revolute => {
            let t = super::point::hinge_lock_torque::<D>(g.fa, g.fb, &i.hinge)
                + D::hinge_axis(g.fa) * axial;
            ((i.point, z, g.ra), t)
        }
        JointType::Weld => ((i.point, z, g.ra), i.ang),
        JointType::Prismatic => {
            let mut q = frame_axis::<D>(g.fa, 0) * axial;
            for (k, &l) in i.perp.iter().enumerate().take(D::V::DIM - 1) {
                q = q + frame_axis::<D>(g.fa, k + 1) * l;
            }
            ((z, q, g.ra + g.d), i.ang)
        }
        JointType::Distance => {
            let len = g.d.length();
            let n = if len > distance::MIN_LENGTH {
                g.d * (1.0 / len)
            } else {
                z
            };
            ((n * (i.axial + axial), z, g.ra), D::Ang::ZERO)
        }
    }
}

/// One pass over the joints (soft with the position error when
/// `use_bias`, rigid when relaxing).
pub(crate) fn solve<D: DynDim>(
    bodies: &mut [SolverBody<D>],
    joints: &mut ColouredJoints<D>,
    p: &JointParams,
    use_bias: bool,
) {
    let lanes = if use_bias { p.soft } else { Softness::RIGID };
    joints.run(bodies, LanePass::Solve(lanes), |j, a, b| {
        let g = j.geo(a, b);
        match j.kind {
            JointType::Revolute => revolute::solve(j, a, b, &g, p, use_bias),
            JointType::Prismatic => prismatic::solve(j, a, b, &g, p, use_bias),
            JointType::Distance => distance::solve(j, a, b, &g, p, use_bias),
            JointType::Weld => weld::solve(j, a, b, &g, p, use_bias),
        }
    });
}

/// Fills each joint's force and torque on B (impulse per substep over `h`);
/// the world does the same for the plain hinges in lanes
/// (`PhysicsWorld::store_joints`).
pub(crate) fn store<D: DynDim>(
    bodies: &[SolverBody<D>],
    joints: &mut ColouredJoints<D>,
    inv_h: f32,
) {
    for j in joints.list_mut() {
        let (a, b) = (&bodies[j.a as usize], &bodies[j.b as usize]);
        let g = j.geo(a, b);
        let ((p, q, _), t) = parts(j, &g);
        j.force = (p + q) * inv_h;
        j.torque = t * inv_h;
        j.motor_force = j.imp.motor * inv_h;
    }
}
