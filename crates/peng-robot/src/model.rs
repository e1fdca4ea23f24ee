//! A robot model: links, joints and the tree they form, and its forward
//! kinematics.

use crate::error::RobotError;
use crate::transform::Transform;
use glam::{DQuat, DVec3};
use std::collections::HashMap;

/// The geometry of a collision element, in the link's frame after its
/// origin.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    /// A box of these full side lengths, centred.
    Box {
        /// Side lengths along x, y, z.
        size: DVec3,
    },
    /// A cylinder along z, centred.
    Cylinder {
        /// Radius.
        radius: f64,
        /// Length along z.
        length: f64,
    },
    /// A sphere, centred.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// A capsule along z, centred: a cylinder of `length` with a hemisphere
    /// at each end (the extension some URDF files use).
    Capsule {
        /// Radius.
        radius: f64,
        /// Length of the straight part along z.
        length: f64,
    },
    /// A mesh file, scaled per axis.
    Mesh {
        /// The file name as written (`package://` URIs resolved later).
        filename: String,
        /// Scale per axis.
        scale: DVec3,
    },
}

/// One collision element of a link.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    /// Its name, if the file gives one.
    pub name: Option<String>,
    /// Its frame in the link's frame.
    pub origin: Transform,
    /// Its geometry.
    pub geometry: Geometry,
}

/// A link's mass properties (kept for later use).
#[derive(Debug, Clone, PartialEq)]
pub struct Inertial {
    /// The centre of mass frame in the link's frame.
    pub origin: Transform,
    /// Mass.
    pub mass: f64,
    /// `ixx, ixy, ixz, iyy, iyz, izz`.
    pub inertia: [f64; 6],
}

/// A rigid body of the robot.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Its name (unique in the robot).
    pub name: String,
    /// Its collision elements (none for a frame-only link).
    pub collisions: Vec<Collision>,
    /// Its mass properties, if given.
    pub inertial: Option<Inertial>,
}

/// How a joint moves its child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// Turns about its axis within limits.
    Revolute,
    /// Turns about its axis without limits.
    Continuous,
    /// Slides along its axis within limits.
    Prismatic,
    /// Does not move.
    Fixed,
}

/// A joint's limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Lowest position (rad or m).
    pub lower: f64,
    /// Highest position.
    pub upper: f64,
    /// Largest effort (N·m or N).
    pub effort: f64,
    /// Largest speed (rad/s or m/s).
    pub velocity: f64,
}

/// A joint that follows another: `q = multiplier · q_other + offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mimic {
    /// Index of the followed joint in [`Robot::joints`].
    pub joint: usize,
    /// Multiplier.
    pub multiplier: f64,
    /// Offset.
    pub offset: f64,
}

/// A joint between a parent and a child link.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Its name (unique in the robot).
    pub name: String,
    /// How it moves.
    pub kind: JointKind,
    /// Index of the parent link in [`Robot::links`].
    pub parent: usize,
    /// Index of the child link.
    pub child: usize,
    /// The joint frame in the parent link's frame (at position 0).
    pub origin: Transform,
    /// The unit axis in the joint frame.
    pub axis: DVec3,
    /// Its limits (revolute and prismatic joints have them).
    pub limits: Option<Limits>,
    /// The joint it follows, if any.
    pub mimic: Option<Mimic>,
}

impl Joint {
    /// Whether the configuration gives this joint a value of its own (it
    /// moves and follows no other joint).
    pub fn is_active(&self) -> bool {
        self.kind != JointKind::Fixed && self.mimic.is_none()
    }

    /// The child's frame in the parent's at position `q`.
    fn motion(&self, q: f64) -> Transform {
        // `origin ∘ motion`, written out: a rotation keeps the origin's
        // translation, a translation keeps its rotation.
        let o = &self.origin;
        match self.kind {
            JointKind::Revolute | JointKind::Continuous => Transform {
                rotation: o.rotation * DQuat::from_axis_angle(self.axis, q),
                translation: o.translation,
            },
            JointKind::Prismatic => Transform {
                rotation: o.rotation,
                translation: o.rotation * (self.axis * q) + o.translation,
            },
            JointKind::Fixed => *o,
        }
    }
}

/// A robot: links joined in a tree by joints, with the order in which a
/// configuration lists the active joints.
#[derive(Debug, Clone, PartialEq)]
pub struct Robot {
    /// Its name.
    pub name: String,
    /// Its links.
    pub links: Vec<Link>,
    /// Its joints.
    pub joints: Vec<Joint>,
    /// The root link (the one that is no joint's child).
    root: usize,
    /// Joints from the root outwards (each after its parent link's joint),
    /// children in file order.
    order: Vec<usize>,
    /// The active joints in configuration order (the order of `order`).
    active: Vec<usize>,
    /// Each link's parent joint (`None` for the root).
    parent_joint: Vec<Option<usize>>,
    link_index: HashMap<String, usize>,
    joint_index: HashMap<String, usize>,
}

impl Robot {
    /// Checks the tree (one root, every link reached once) and builds the
    /// orders; errors name the link or joint.
    pub(crate) fn new(
        name: String,
        links: Vec<Link>,
        joints: Vec<Joint>,
    ) -> Result<Robot, RobotError> {
        let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
        for (j, joint) in joints.iter().enumerate() {
            if let Some(other) = parent_joint[joint.child] {
                return Err(RobotError::new(
                    format!("link \"{}\"", links[joint.child].name),
                    format!(
                        "is the child of two joints, \"{}\" and \"{}\" (a robot is a tree)",
                        joints[other].name, joint.name
                    ),
                ));
            }
            parent_joint[joint.child] = Some(j);
        }
        let roots: Vec<usize> = (0..links.len())
            .filter(|&l| parent_joint[l].is_none())
            .collect();
        let root = match roots.as_slice() {
            [r] => *r,
            [] => {
                return Err(RobotError::new(
                    format!("robot \"{name}\""),
                    "has no root link (every link is some joint's child: the joints form a cycle)",
                ))
            }
            many => {
                let names: Vec<&str> = many
                    .iter()
                    .take(4)
                    .map(|&l| links[l].name.as_str())
                    .collect();
                return Err(RobotError::new(
                    format!("robot \"{name}\""),
                    format!(
                        "has {} links that are no joint's child ({}): they are not joined into one tree",
                        many.len(),
                        names.join(", ")
                    ),
                ));
            }
        };
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
        for (j, joint) in joints.iter().enumerate() {
            children[joint.parent].push(j);
        }
        // Depth first from the root, children in file order.
        let mut order = Vec::with_capacity(joints.len());
        let mut stack: Vec<usize> = children[root].iter().rev().copied().collect();
        while let Some(j) = stack.pop() {
            order.push(j);
            stack.extend(children[joints[j].child].iter().rev());
        }
        if order.len() != joints.len() {
            let lost = (0..joints.len()).find(|j| !order.contains(j)).unwrap_or(0);
            return Err(RobotError::new(
                format!("joint \"{}\"", joints[lost].name),
                "is not reached from the root link: its links form a cycle",
            ));
        }
        let active = order
            .iter()
            .copied()
            .filter(|&j| joints[j].is_active())
            .collect();
        let link_index = links
            .iter()
            .enumerate()
            .map(|(i, l)| (l.name.clone(), i))
            .collect();
        let joint_index = joints
            .iter()
            .enumerate()
            .map(|(i, j)| (j.name.clone(), i))
            .collect();
        Ok(Robot {
            name,
            links,
            joints,
            root,
            order,
            active,
            parent_joint,
            link_index,
            joint_index,
        })
    }

    /// The root link's index.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The index of the link named `name`.
    pub fn link(&self, name: &str) -> Option<usize> {
        self.link_index.get(name).copied()
    }

    /// The index of the joint named `name`.
    pub fn joint(&self, name: &str) -> Option<usize> {
        self.joint_index.get(name).copied()
    }

    /// The active joints (moving, not mimic) in the order a configuration
    /// lists their values: depth first from the root, children in file
    /// order (for a chain, from the base out).
    pub fn active_joints(&self) -> &[usize] {
        &self.active
    }

    /// The parent joint of a link (`None` for the root).
    pub fn parent_joint(&self, link: usize) -> Option<usize> {
        self.parent_joint[link]
    }

    /// Every joint's position for configuration `q` (one value per active
    /// joint, in [`active_joints`](Self::active_joints) order): fixed
    /// joints 0, mimic joints from the joint they follow. Errors on a wrong
    /// length, a NaN or infinite value, or a value outside its joint's
    /// limits (by more than 1e-9), naming the joint.
    pub fn joint_positions(&self, q: &[f64]) -> Result<Vec<f64>, RobotError> {
        if q.len() != self.active.len() {
            return Err(RobotError::new(
                format!("configuration of robot \"{}\"", self.name),
                format!(
                    "has {} values; the robot has {} active joints",
                    q.len(),
                    self.active.len()
                ),
            ));
        }
        let mut pos = vec![0.0; self.joints.len()];
        for (&j, &v) in self.active.iter().zip(q) {
            let joint = &self.joints[j];
            if !v.is_finite() {
                return Err(RobotError::new(
                    format!("joint \"{}\"", joint.name),
                    format!("value {v} is not finite"),
                ));
            }
            if let (Some(l), true) = (joint.limits, joint.kind != JointKind::Continuous) {
                if v < l.lower - 1e-9 || v > l.upper + 1e-9 {
                    return Err(RobotError::new(
                        format!("joint \"{}\"", joint.name),
                        format!("value {v} is outside its limits [{}, {}]", l.lower, l.upper),
                    ));
                }
            }
            pos[j] = v;
        }
        for &j in &self.order {
            if let Some(m) = self.joints[j].mimic {
                pos[j] = m.multiplier * pos[m.joint] + m.offset;
            }
        }
        Ok(pos)
    }

    /// The pose of every link in the root's frame for configuration `q`
    /// (see [`joint_positions`](Self::joint_positions)), composed in f64.
    pub fn link_poses(&self, q: &[f64]) -> Result<Vec<Transform>, RobotError> {
        let pos = self.joint_positions(q)?;
        let mut poses = vec![Transform::IDENTITY; self.links.len()];
        for &j in &self.order {
            let joint = &self.joints[j];
            poses[joint.child] = poses[joint.parent].mul(&joint.motion(pos[j]));
        }
        Ok(poses)
    }
}
