//! [`PhysicsWorld`]'s joints: adding, removing and reading them, building
//! their solver form each step, and keeping jointed bodies from colliding.

use std::sync::Arc;

use peng::math::Vector;
use peng::world::Collider;

use super::{BodyHandle, PhysicsWorld};
use crate::dim::{Angular, DynDim};
use crate::joint::constraint::{JointC, LengthMode};
use crate::joint::lanes2::HingeArms;
use crate::joint::{
    check_limits, check_motor, Joint, JointDesc, JointHandle, JointImpulses, JointType,
};
use crate::solver::soft::Softness;
use crate::DynamicsError;

impl<D: DynDim> PhysicsWorld<D> {
    /// Adds a joint between two live, distinct bodies, its anchor frames
    /// taken from the description's world-space anchors and axis at the
    /// bodies' current poses.
    ///
    /// Fails on a stale body handle, the same body twice, a non-finite
    /// anchor or axis, a zero axis (prismatic, 3D revolute), limits with
    /// `lower > upper`, a motor with a negative force, a negative spring
    /// frequency, damping or length.
    pub fn add_joint(&mut self, desc: JointDesc<D>) -> Result<JointHandle, DynamicsError> {
        use DynamicsError::InvalidJoint as Bad;
        let a = self
            .body(desc.body_a)
            .ok_or(DynamicsError::StaleBody(desc.body_a))?;
        let b = self
            .body(desc.body_b)
            .ok_or(DynamicsError::StaleBody(desc.body_b))?;
        if desc.body_a == desc.body_b {
            return Err(Bad("bodies"));
        }
        if !(desc.anchor_a.is_finite() && desc.anchor_b.is_finite()) {
            return Err(Bad("anchor"));
        }
        let needs_axis = match desc.kind {
            JointType::Prismatic => true,
            JointType::Revolute => D::V::DIM == 3,
            _ => false,
        };
        let axis_len = desc.axis.length();
        if needs_axis && !(axis_len.is_finite() && axis_len > 0.0) {
            return Err(Bad("axis"));
        }
        if let Some(l) = desc.limits {
            check_limits(l)?;
        }
        if let Some(m) = &desc.motor {
            check_motor(m)?;
        }
        if let Some(s) = desc.spring {
            let ok = |x: f32| x.is_finite() && x >= 0.0;
            if !(ok(s.hertz) && ok(s.damping_ratio)) {
                return Err(Bad("spring"));
            }
        }
        let length = desc
            .length
            .unwrap_or_else(|| (desc.anchor_b - desc.anchor_a).length());
        if !(length.is_finite() && length >= 0.0) {
            return Err(Bad("length"));
        }
        // The joint frame in world space: x along the axis.
        let frame = if needs_axis {
            D::rot_from_axis(desc.axis)
        } else {
            D::ROT_IDENTITY
        };
        let local = |pose: &D::Pose, p: D::V| {
            D::rotate(D::rot_inverse(D::rotation(pose)), p - D::translation(pose))
        };
        let joint = Joint {
            kind: desc.kind,
            body_a: desc.body_a,
            body_b: desc.body_b,
            local_anchor_a: local(&a.pose, desc.anchor_a),
            local_anchor_b: local(&b.pose, desc.anchor_b),
            local_frame_a: D::rot_mul(D::rot_inverse(D::rotation(&a.pose)), frame),
            local_frame_b: D::rot_mul(D::rot_inverse(D::rotation(&b.pose)), frame),
            limits: desc.limits,
            motor: desc.motor,
            spring: desc.spring,
            length,
            collide_connected: desc.collide_connected,
            impulses: Default::default(),
            force: D::V::ZERO,
            torque: D::Ang::ZERO,
            motor_force: 0.0,
        };
        let (h, changed) = self.joints.insert(joint);
        if changed {
            self.install_joint_filter();
        }
        self.wake_body(desc.body_a);
        self.wake_body(desc.body_b);
        Ok(h)
    }

    /// Removes a joint and returns it.
    pub fn remove_joint(&mut self, h: JointHandle) -> Result<Joint<D>, DynamicsError> {
        let (joint, changed) = self.joints.remove(h).ok_or(DynamicsError::StaleJoint(h))?;
        if changed {
            self.install_joint_filter();
        }
        // The bodies it held may move now.
        self.wake_body(joint.body_a);
        self.wake_body(joint.body_b);
        Ok(joint)
    }

    /// The joint of a live handle (its force and torque as of the last
    /// step).
    pub fn joint(&self, h: JointHandle) -> Option<&Joint<D>> {
        self.joints.get(h)
    }

    /// The joint of a live handle, to change its motor or limits (its
    /// bodies wake up).
    pub fn joint_mut(&mut self, h: JointHandle) -> Option<&mut Joint<D>> {
        let (a, b) = self.joints.get(h).map(|j| (j.body_a, j.body_b))?;
        self.wake_body(a);
        self.wake_body(b);
        self.joints.get_mut(h)
    }

    /// Wakes a body's island if it sleeps.
    fn wake_body(&mut self, h: BodyHandle) {
        if let Some(i) = self.body(h).filter(|b| b.sleeping).map(|b| b.island) {
            self.wake_island(i);
        }
    }

    /// The live joints with their handles, in slot order.
    pub fn joints(&self) -> impl Iterator<Item = (JointHandle, &Joint<D>)> {
        self.joints.iter()
    }

    /// Number of live joints.
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// The joint's two anchors in world space at the bodies' current poses
    /// (they coincide for a revolute or weld joint that holds).
    pub fn joint_anchors(&self, h: JointHandle) -> Option<(D::V, D::V)> {
        let j = self.joints.get(h)?;
        let a = self.body(j.body_a)?;
        let b = self.body(j.body_b)?;
        Some((
            D::transform_point(&a.pose, j.local_anchor_a),
            D::transform_point(&b.pose, j.local_anchor_b),
        ))
    }

    /// Removes the joints of a body (it is being removed).
    pub(super) fn remove_joints_of(&mut self, body: BodyHandle) {
        let gone: Vec<JointHandle> = self
            .joints
            .iter()
            .filter(|(_, j)| j.body_a == body || j.body_b == body)
            .map(|(h, _)| h)
            .collect();
        let mut changed = false;
        for h in gone {
            if let Some((_, c)) = self.joints.remove(h) {
                changed |= c;
            }
        }
        if changed {
            self.install_joint_filter();
        }
    }

    /// (Re)installs the collision world's pair rule: colliders of one body,
    /// and of two bodies linked by a joint that does not collide connected,
    /// never collide. Installing it makes the collision world test every
    /// pair again at its next update.
    fn install_joint_filter(&mut self) {
        let linked = Arc::clone(&self.joints.no_collide);
        self.collision.set_pair_filter(Some(Box::new(
            move |_, a: &Collider<D>, _, b: &Collider<D>| {
                let (x, y) = (a.user_data, b.user_data);
                if x == y {
                    return false;
                }
                let key = (x.min(y), x.max(y));
                linked.read().map_or(true, |s| !s.contains(&key))
            },
        )));
    }

    /// Builds this step's joint constraints (after the solver bodies), in
    /// the colours the solver runs them in.
    pub(super) fn prepare_joints(&mut self, h: f32) {
        let mut cs = core::mem::take(&mut self.joints.constraints);
        // Nothing to solve without an awake dynamic body.
        let (bodies, solver) = (&self.bodies, &self.solver_bodies);
        let live = |b: BodyHandle| self.body(b).map(|_| b.index());
        cs.colour(self.joints.edits, solver, || {
            self.joints.iter().filter_map(|(handle, j)| {
                let (a, b) = (live(j.body_a)?, live(j.body_b)?);
                let awake = solver[a as usize].dynamic || solver[b as usize].dynamic;
                let hinge =
                    j.kind == JointType::Revolute && j.motor.is_none() && j.limits.is_none();
                awake.then_some((handle.index(), a, b, hinge))
            })
        });
        let joints = &self.joints;
        // A live joint in `slot`, its bodies' indices, the bodies, their
        // rotations, and the anchor arms from their centres of mass and
        // `c_B - c_A` at the step's start.
        let arms = |slot: u32| {
            let j = joints.at(slot as usize).expect("a live joint");
            let (ia, ib) = (j.body_a.index() as usize, j.body_b.index() as usize);
            let (ba, bb) = (
                bodies[ia].body.as_ref().expect("a live body"),
                bodies[ib].body.as_ref().expect("a live body"),
            );
            let (qa, qb) = (D::rotation(&ba.pose), D::rotation(&bb.pose));
            let ra0 = D::rotate(qa, j.local_anchor_a - D::mass_com(ba.mass_properties()));
            let rb0 = D::rotate(qb, j.local_anchor_b - D::mass_com(bb.mass_properties()));
            let delta_center = bb.world_com() - ba.world_com();
            (j, (ia, ib), (qa, qb), (ra0, rb0, delta_center))
        };
        let hinge = |slot: u32| {
            let (j, _, _, (ra0, rb0, delta_center)) = arms(slot);
            HingeArms::new(ra0, rb0, delta_center, j.impulses.point)
        };
        cs.fill(
            solver,
            |slot| {
                let (j, (ia, ib), (qa, qb), (ra0, rb0, delta_center)) = arms(slot);
                let (sa, sb) = (&solver[ia], &solver[ib]);
                let length_mode = match (j.spring, j.limits) {
                    (Some(s), _) if s.hertz > 0.0 => LengthMode::Spring {
                        omega: 2.0 * core::f32::consts::PI * s.hertz,
                        zeta: s.damping_ratio,
                        soft: Softness::new(s.hertz, s.damping_ratio, h),
                    },
                    (None, None) => LengthMode::Rigid,
                    _ => LengthMode::Free,
                };
                JointC {
                    slot,
                    kind: j.kind,
                    a: ia as u32,
                    b: ib as u32,
                    ra0,
                    rb0,
                    delta_center,
                    fa0: D::rot_mul(qa, j.local_frame_a),
                    fb0: D::rot_mul(qb, j.local_frame_b),
                    ang_mass: D::ang_mass(&sa.inv_i, &sb.inv_i),
                    limits: j.limits,
                    motor: j.motor,
                    length_mode,
                    length: j.length,
                    imp: j.impulses,
                    force: D::V::ZERO,
                    torque: D::Ang::ZERO,
                    motor_force: 0.0,
                }
            },
            hinge,
            self.kernels(),
        );
        self.joints.constraints = cs;
    }

    /// Keeps the joints' impulses for the next step and their force and
    /// torque for reading.
    pub(super) fn store_joints(&mut self) {
        let cs = core::mem::take(&mut self.joints.constraints);
        for c in cs.list() {
            if let Some(j) = self.joints.at_mut(c.slot as usize) {
                j.impulses = c.imp;
                j.force = c.force;
                j.torque = c.torque;
                j.motor_force = c.motor_force;
            }
        }
        // A plain hinge in lanes has its point impulse alone: its force on
        // B is that impulse per substep over the substep, and it exerts no
        // torque (`joint::constraint::store`, whose other parts are zero).
        let inv_h = 1.0 / (self.settings.dt / self.settings.substeps.max(1) as f32);
        for (slot, [x, y]) in cs.lane_impulses() {
            if let Some(j) = self.joints.at_mut(slot as usize) {
                let mut point = D::V::ZERO;
                point.set(0, x);
                point.set(1, y);
                j.impulses = JointImpulses {
                    point,
                    ..Default::default()
                };
                j.force = point * inv_h;
                j.torque = D::Ang::ZERO;
                j.motor_force = 0.0;
            }
        }
        self.joints.constraints = cs;
    }
}
