//! Joints: revolute (hinge), prismatic (slider), distance (rod, rope or
//! spring) and weld, with limits and motors, in 2D and 3D.
//!
//! A joint links body A and body B (either may be static or kinematic) at
//! anchor frames fixed in each body: an anchor point and a rotation whose x
//! axis is the joint's axis (the hinge axis in 3D, the slider axis). The
//! frames are built from world-space input when the joint is added, so
//! that they coincide at that moment ([`JointDesc`]).
//!
//! The solver follows Box2D v3's joints (Catto, "Solver2D", 2024, and
//! `revolute_joint.c`, `prismatic_joint.c`, `distance_joint.c`,
//! `weld_joint.c`): every substep the accumulated impulses are applied
//! again (warm start), then each part is solved as a soft constraint on the
//! position error read from the bodies' motion since the step began (the
//! world's joint spring, [`StepSettings::joint_hertz`]), then once more as a
//! rigid velocity constraint after the positions moved (relax). Limits are
//! one-sided and speculative (an open gap may close within the substep, no
//! more); motors reach their target speed with at most `max_force · h` of
//! impulse per substep. The 3D hinge's two locked rotations follow Jolt's
//! hinge rotation part (Rouwé, `HingeRotationConstraintPart.h`).
//!
//! [`StepSettings::joint_hertz`]: crate::StepSettings::joint_hertz
//!
//! ```
//! use peng::d2::{Circle, Pose2, Vec2};
//! use peng_dynamics::{BodyDesc, ColliderDesc, JointDesc2, PhysicsWorld2};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = PhysicsWorld2::new();
//! let pivot = world.add_body(BodyDesc::fixed(Pose2::IDENTITY));
//! let bob = world.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(1.0, 0.0))));
//! world.add_collider(bob, ColliderDesc::new(Circle::new(0.1)?))?;
//! // A pendulum: the bob swings about the origin, at its distance.
//! let hinge = world.add_joint(JointDesc2::revolute(pivot, bob, Vec2::ZERO))?;
//! for _ in 0..30 {
//!     world.step()?;
//! }
//! let p = world.body(bob).unwrap().pose.translation;
//! assert!(p.y < -0.5 && (p.length() - 1.0).abs() < 1e-3);
//! // The joint pulls the bob towards the pivot.
//! assert!(world.joint(hinge).unwrap().reaction_force().dot(p) < 0.0);
//! # Ok(())
//! # }
//! ```

pub(crate) mod constraint;
mod distance;
pub(crate) mod graph;
pub(crate) mod lanes2;
mod point;
mod prismatic;
mod revolute;
mod row;
mod weld;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use glam::Vec3;
use peng::math::Vector;
use peng::world::{Dim2, Dim3};

use crate::dim::{Angular, DynDim};
use crate::world::BodyHandle;
use graph::ColouredJoints;

/// A joint of a [`PhysicsWorld`](crate::PhysicsWorld), generation-checked
/// like [`BodyHandle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JointHandle {
    index: u32,
    generation: u32,
}

impl JointHandle {
    /// The slot index (dense, reused after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

/// What a joint keeps free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointType {
    /// The anchors coincide; B turns freely about the hinge axis (2D: any
    /// turn). Limits and motor act on the angle (radians, torque).
    Revolute,
    /// B slides along the axis fixed in A without turning. Limits and motor
    /// act on the translation along the axis (metres, force).
    Prismatic,
    /// The distance between the anchors is held: rigidly (a rod), within
    /// limits (a rope), or by a spring. Limits and motor act on the length.
    Distance,
    /// B is glued to A (no relative motion). Limits and motor are ignored.
    Weld,
}

/// A joint motor: drives the joint's free coordinate at `speed` (rad/s or
/// m/s) with at most `max_force` (torque for a revolute joint).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motor {
    /// Target speed of the joint coordinate.
    pub speed: f32,
    /// Largest force or torque the motor applies (`>= 0`).
    pub max_force: f32,
}

/// A spring on a distance joint: a natural frequency (Hz) for the bodies'
/// effective mass along the joint and a damping ratio (1 = critical).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spring {
    /// Natural frequency (Hz, `>= 0`; 0: no spring force, the length is
    /// free within the limits).
    pub hertz: f32,
    /// Damping ratio (`>= 0`).
    pub damping_ratio: f32,
}

/// A 2D joint description (`JointDesc2::revolute(a, b, anchor)`).
pub type JointDesc2 = JointDesc<Dim2>;
/// A 3D joint description (`JointDesc3::revolute(a, b, anchor, axis)`).
pub type JointDesc3 = JointDesc<Dim3>;

/// A joint to add, in world space at the bodies' current poses.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDesc<D: DynDim> {
    /// The kind of joint.
    pub kind: JointType,
    /// Body A.
    pub body_a: BodyHandle,
    /// Body B.
    pub body_b: BodyHandle,
    /// The anchor on A, world space.
    pub anchor_a: D::V,
    /// The anchor on B, world space (the same point except for distance
    /// joints).
    pub anchor_b: D::V,
    /// The joint axis, world space: the slider axis, or the 3D hinge axis
    /// (unused by 2D revolute, distance and weld joints).
    pub axis: D::V,
    /// Lower and upper limit of the free coordinate (angle, translation or
    /// length).
    pub limits: Option<(f32, f32)>,
    /// The motor.
    pub motor: Option<Motor>,
    /// The spring of a distance joint.
    pub spring: Option<Spring>,
    /// Rest length of a distance joint (`None`: the anchors' distance when
    /// the joint is added).
    pub length: Option<f32>,
    /// Whether the colliders of the two bodies still collide (false by
    /// default).
    pub collide_connected: bool,
}

fn unit<V: Vector>(i: usize) -> V {
    let mut v = V::ZERO;
    v.set(i, 1.0);
    v
}

impl<D: DynDim> JointDesc<D> {
    fn new(kind: JointType, body_a: BodyHandle, body_b: BodyHandle, anchor: D::V) -> Self {
        JointDesc {
            kind,
            body_a,
            body_b,
            anchor_a: anchor,
            anchor_b: anchor,
            axis: unit(0),
            limits: None,
            motor: None,
            spring: None,
            length: None,
            collide_connected: false,
        }
    }

    /// A revolute joint about `axis` (world space; ignored in 2D) through
    /// `anchor`.
    pub fn revolute_about(a: BodyHandle, b: BodyHandle, anchor: D::V, axis: D::V) -> Self {
        JointDesc {
            axis,
            ..Self::new(JointType::Revolute, a, b, anchor)
        }
    }

    /// A prismatic joint: B slides along `axis` (world space, fixed in A)
    /// through `anchor`.
    pub fn prismatic(a: BodyHandle, b: BodyHandle, anchor: D::V, axis: D::V) -> Self {
        JointDesc {
            axis,
            ..Self::new(JointType::Prismatic, a, b, anchor)
        }
    }

    /// A distance joint between `anchor_a` on A and `anchor_b` on B (world
    /// space): a rigid rod of their current distance, unless a spring or
    /// limits are added.
    pub fn distance(a: BodyHandle, b: BodyHandle, anchor_a: D::V, anchor_b: D::V) -> Self {
        JointDesc {
            anchor_b,
            ..Self::new(JointType::Distance, a, b, anchor_a)
        }
    }

    /// A weld joint: B keeps its pose relative to A (`anchor` is the point
    /// about which the glue acts).
    pub fn weld(a: BodyHandle, b: BodyHandle, anchor: D::V) -> Self {
        Self::new(JointType::Weld, a, b, anchor)
    }

    /// With limits on the free coordinate: angle (radians, relative to the
    /// pose at creation), translation along the axis (metres, from the
    /// anchor at creation) or length (metres).
    pub fn with_limits(mut self, lower: f32, upper: f32) -> Self {
        self.limits = Some((lower, upper));
        self
    }

    /// With a motor driving the free coordinate at `speed` with at most
    /// `max_force` (a torque for revolute joints).
    pub fn with_motor(mut self, speed: f32, max_force: f32) -> Self {
        self.motor = Some(Motor { speed, max_force });
        self
    }

    /// With a spring (distance joints): natural frequency (Hz) and damping
    /// ratio.
    pub fn with_spring(mut self, hertz: f32, damping_ratio: f32) -> Self {
        self.spring = Some(Spring {
            hertz,
            damping_ratio,
        });
        self
    }

    /// With this rest length (distance joints).
    pub fn with_length(mut self, length: f32) -> Self {
        self.length = Some(length);
        self
    }

    /// Whether the two bodies' colliders collide with each other.
    pub fn with_collide_connected(mut self, yes: bool) -> Self {
        self.collide_connected = yes;
        self
    }
}

impl JointDesc<Dim2> {
    /// A 2D revolute joint through `anchor` (world space).
    pub fn revolute(a: BodyHandle, b: BodyHandle, anchor: glam::Vec2) -> Self {
        Self::revolute_about(a, b, anchor, glam::Vec2::X)
    }
}

impl JointDesc<Dim3> {
    /// A 3D revolute joint (hinge) through `anchor` about `axis` (world
    /// space).
    pub fn revolute(a: BodyHandle, b: BodyHandle, anchor: Vec3, axis: Vec3) -> Self {
        Self::revolute_about(a, b, anchor, axis)
    }
}

/// The accumulated impulses of a joint's parts (per substep; warm-started
/// from step to step).
#[derive(Debug, PartialEq)]
pub(crate) struct JointImpulses<D: DynDim> {
    /// Point-to-point (revolute, weld).
    pub point: D::V,
    /// Full rotation lock (prismatic, weld).
    pub ang: D::Ang,
    /// The 3D hinge's two locked rotations.
    pub hinge: [f32; 2],
    /// The prismatic joint's rows normal to the axis.
    pub perp: [f32; 2],
    /// The distance joint's rod or spring.
    pub axial: f32,
    /// Motor.
    pub motor: f32,
    /// Lower limit (`>= 0`).
    pub lower: f32,
    /// Upper limit (`>= 0`).
    pub upper: f32,
}

impl<D: DynDim> Clone for JointImpulses<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: DynDim> Copy for JointImpulses<D> {}

impl<D: DynDim> Default for JointImpulses<D> {
    fn default() -> Self {
        JointImpulses {
            point: D::V::ZERO,
            ang: D::Ang::ZERO,
            hinge: [0.0; 2],
            perp: [0.0; 2],
            axial: 0.0,
            motor: 0.0,
            lower: 0.0,
            upper: 0.0,
        }
    }
}

/// A joint in a world: its bodies, anchor frames in each body, options and
/// the force it applied in the last step.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint<D: DynDim> {
    pub(crate) kind: JointType,
    pub(crate) body_a: BodyHandle,
    pub(crate) body_b: BodyHandle,
    pub(crate) local_anchor_a: D::V,
    pub(crate) local_anchor_b: D::V,
    pub(crate) local_frame_a: D::Rot,
    pub(crate) local_frame_b: D::Rot,
    pub(crate) limits: Option<(f32, f32)>,
    pub(crate) motor: Option<Motor>,
    pub(crate) spring: Option<Spring>,
    pub(crate) length: f32,
    pub(crate) collide_connected: bool,
    pub(crate) impulses: JointImpulses<D>,
    pub(crate) force: D::V,
    pub(crate) torque: D::Ang,
    pub(crate) motor_force: f32,
}

impl<D: DynDim> Joint<D> {
    /// The kind of joint.
    pub fn kind(&self) -> JointType {
        self.kind
    }
    /// Body A.
    pub fn body_a(&self) -> BodyHandle {
        self.body_a
    }
    /// Body B.
    pub fn body_b(&self) -> BodyHandle {
        self.body_b
    }
    /// The anchor on A in A's body frame.
    pub fn local_anchor_a(&self) -> D::V {
        self.local_anchor_a
    }
    /// The anchor on B in B's body frame.
    pub fn local_anchor_b(&self) -> D::V {
        self.local_anchor_b
    }
    /// The joint frame's rotation in A's body frame (its x axis is the
    /// joint axis).
    pub fn local_frame_a(&self) -> D::Rot {
        self.local_frame_a
    }
    /// The joint frame's rotation in B's body frame.
    pub fn local_frame_b(&self) -> D::Rot {
        self.local_frame_b
    }
    /// The limits.
    pub fn limits(&self) -> Option<(f32, f32)> {
        self.limits
    }
    /// The motor.
    pub fn motor(&self) -> Option<Motor> {
        self.motor
    }
    /// The spring (distance joints).
    pub fn spring(&self) -> Option<Spring> {
        self.spring
    }
    /// The rest length (distance joints).
    pub fn length(&self) -> f32 {
        self.length
    }
    /// Whether the two bodies' colliders collide with each other.
    pub fn collide_connected(&self) -> bool {
        self.collide_connected
    }
    /// The force the joint applied on B in the last step (A felt the
    /// opposite), from every part: point, normal rows, limits, motor,
    /// spring. Newtons.
    pub fn reaction_force(&self) -> D::V {
        self.force
    }
    /// The torque the joint applied on B in the last step through its
    /// rotation locks, limits and motor (not the moment of
    /// [`reaction_force`](Self::reaction_force)).
    pub fn reaction_torque(&self) -> D::Ang {
        self.torque
    }
    /// The motor's force (or torque, for a revolute joint) in the last
    /// step, signed along the joint's free coordinate.
    pub fn motor_force(&self) -> f32 {
        self.motor_force
    }

    /// Sets or clears the motor.
    pub fn set_motor(&mut self, motor: Option<Motor>) -> Result<(), crate::DynamicsError> {
        if let Some(m) = motor {
            check_motor(&m)?;
        } else {
            self.impulses.motor = 0.0;
        }
        self.motor = motor;
        Ok(())
    }

    /// Sets or clears the limits.
    pub fn set_limits(&mut self, limits: Option<(f32, f32)>) -> Result<(), crate::DynamicsError> {
        if let Some(l) = limits {
            check_limits(l)?;
        } else {
            self.impulses.lower = 0.0;
            self.impulses.upper = 0.0;
        }
        self.limits = limits;
        Ok(())
    }
}

pub(crate) fn check_motor(m: &Motor) -> Result<(), crate::DynamicsError> {
    if !(m.speed.is_finite() && m.max_force.is_finite() && m.max_force >= 0.0) {
        return Err(crate::DynamicsError::InvalidJoint("motor"));
    }
    Ok(())
}

pub(crate) fn check_limits((lo, hi): (f32, f32)) -> Result<(), crate::DynamicsError> {
    if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
        return Err(crate::DynamicsError::InvalidJoint("limits"));
    }
    Ok(())
}

struct JointSlot<D: DynDim> {
    generation: u32,
    joint: Option<Joint<D>>,
}

/// The joints of a world, by handle, with the solver's buffer and the set
/// of body pairs whose colliders must not collide.
pub(crate) struct JointSet<D: DynDim> {
    slots: Vec<JointSlot<D>>,
    free: Vec<u32>,
    /// This step's constraints, in colours.
    pub constraints: ColouredJoints<D>,
    /// Joints added, removed or handed out to change so far (the colours
    /// hold while it and the bodies' kinds stay).
    pub edits: u64,
    /// Body slot pairs (smaller first) linked by a joint that does not
    /// collide connected, with the number of such joints; shared with the
    /// collision world's pair filter.
    pub no_collide: Arc<RwLock<HashSet<(u64, u64)>>>,
    no_collide_count: HashMap<(u64, u64), u32>,
}

impl<D: DynDim> Default for JointSet<D> {
    fn default() -> Self {
        JointSet {
            slots: Vec::new(),
            free: Vec::new(),
            constraints: ColouredJoints::default(),
            edits: 0,
            no_collide: Arc::new(RwLock::new(HashSet::new())),
            no_collide_count: HashMap::new(),
        }
    }
}

fn body_pair(j: &Joint<impl DynDim>) -> (u64, u64) {
    let (a, b) = (j.body_a.index() as u64, j.body_b.index() as u64);
    (a.min(b), a.max(b))
}

impl<D: DynDim> JointSet<D> {
    /// Adds a joint; returns its handle and whether the no-collide set
    /// changed.
    pub fn insert(&mut self, joint: Joint<D>) -> (JointHandle, bool) {
        self.edits += 1;
        let changed = if joint.collide_connected {
            false
        } else {
            self.count_pair(body_pair(&joint), 1)
        };
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(JointSlot {
                    generation: 0,
                    joint: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.joint = Some(joint);
        (
            JointHandle {
                index,
                generation: slot.generation,
            },
            changed,
        )
    }

    /// Counts a body pair up or down; whether it entered or left the set.
    fn count_pair(&mut self, key: (u64, u64), add: i32) -> bool {
        let n = self.no_collide_count.get(&key).copied().unwrap_or(0) as i32 + add;
        let (was, now) = (self.no_collide_count.contains_key(&key), n > 0);
        if now {
            self.no_collide_count.insert(key, n as u32);
        } else {
            self.no_collide_count.remove(&key);
        }
        if was != now {
            if let Ok(mut s) = self.no_collide.write() {
                if now {
                    s.insert(key);
                } else {
                    s.remove(&key);
                }
            }
        }
        was != now
    }

    /// The joint of a live handle.
    pub fn get(&self, h: JointHandle) -> Option<&Joint<D>> {
        self.slots
            .get(h.index as usize)
            .filter(|s| s.generation == h.generation)
            .and_then(|s| s.joint.as_ref())
    }

    /// The joint of a live handle, mutably. Counts as an edit: a motor
    /// or limits may come or go, which moves the joint between the
    /// solver's lanes and its one-by-one pass.
    pub fn get_mut(&mut self, h: JointHandle) -> Option<&mut Joint<D>> {
        self.edits += 1;
        self.slots
            .get_mut(h.index as usize)
            .filter(|s| s.generation == h.generation)
            .and_then(|s| s.joint.as_mut())
    }

    /// The joint in slot `i`.
    pub fn at(&self, i: usize) -> Option<&Joint<D>> {
        self.slots.get(i).and_then(|s| s.joint.as_ref())
    }

    /// The joint in slot `i`, mutably.
    pub fn at_mut(&mut self, i: usize) -> Option<&mut Joint<D>> {
        self.slots.get_mut(i).and_then(|s| s.joint.as_mut())
    }

    /// Removes a joint; returns it and whether the no-collide set changed.
    pub fn remove(&mut self, h: JointHandle) -> Option<(Joint<D>, bool)> {
        let slot = self
            .slots
            .get_mut(h.index as usize)
            .filter(|s| s.generation == h.generation)?;
        let joint = slot.joint.take()?;
        self.edits += 1;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(h.index);
        let changed = if joint.collide_connected {
            false
        } else {
            self.count_pair(body_pair(&joint), -1)
        };
        Some((joint, changed))
    }

    /// The live joints with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (JointHandle, &Joint<D>)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            Some((
                JointHandle {
                    index: i as u32,
                    generation: s.generation,
                },
                s.joint.as_ref()?,
            ))
        })
    }

    /// Number of live joints.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}
