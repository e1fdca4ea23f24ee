//! Motion checks: a straight joint-space segment certified free, or its
//! first contact, by conservative advancement (Schwarzer, Saha and
//! Latombe, "Exact collision checking of robot paths", 2005).
//!
//! Along `q(s) = q0 + s (q1 - q0)`, `s` in `[0, 1]`, no point of a link
//! moves faster (per unit of `s`) than `Σ_j |Δq_j| r_j` over the joints `j`
//! above it: `r_j` bounds the distance from joint `j`'s axis to any point
//! of the link (for a revolute joint; 1 for a prismatic one). The bound
//! used is configuration-free: the lengths of the joint offsets from `j`
//! down to the link, each prismatic joint's longest extension, and the
//! farthest corner of the link's shapes' boxes from its frame. Two links
//! approach each other no faster than the sum of their speeds (an object
//! does not move), so from a distance `d` at `s` the pair is free until
//! `s + d / (v_a + v_b)`. Stepping each pair that way never passes a
//! contact; a pair is in contact once its distance is within `tol`.

use crate::check::{Checker, Other, PairReport};
use crate::error::RobotError;
use crate::model::JointKind;

/// The outcome of a motion check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MotionResult {
    /// Free all the way.
    Free {
        /// The least distance measured: at the start, and wherever a pair
        /// came near enough to be measured (the least along the way may be
        /// smaller, but is more than the tolerance).
        clearance: f32,
    },
    /// The first contact: the fraction `s` of the segment and the pair.
    Contact {
        /// Where along the segment (0 to 1).
        s: f64,
        /// The pair, measured at `s`.
        pair: PairReport,
    },
}

/// Distance at which a pair counts as in contact (m).
pub const CONTACT_TOL: f32 = 1e-4;

/// Most steps per pair before giving up with an error (a pair grazing
/// within the tolerance for a long stretch).
const MAX_STEPS: usize = 100_000;

impl Checker {
    /// Each link's speed bound per unit of joint motion: `radius[link][k]`
    /// for the `k`-th active joint (0 when the joint is not above the link).
    fn lever_arms(&self) -> Vec<Vec<f64>> {
        let r = &self.robot;
        let active = r.active_joints();
        let reach: Vec<f64> = (0..r.links.len())
            .map(|l| {
                self.shapes_of(l)
                    .iter()
                    .map(|s| {
                        let b = s.shape.aabb(&s.pose.to_pose());
                        let far = b.min.abs().max(b.max.abs());
                        far.length() as f64
                    })
                    .fold(0.0, f64::max)
            })
            .collect();
        (0..r.links.len())
            .map(|l| {
                let mut arms = vec![0.0; active.len()];
                // Up from the link: the offsets below each joint add up.
                let (mut below, mut link) = (reach[l], l);
                while let Some(j) = r.parent_joint(link) {
                    let joint = &r.joints[j];
                    let ext = match (joint.kind, joint.limits) {
                        (JointKind::Prismatic, Some(lim)) => lim.lower.abs().max(lim.upper.abs()),
                        _ => 0.0,
                    };
                    // The joint moves the child and everything below it; a
                    // mimic joint moves with the joint it follows.
                    let driver = joint.mimic.map_or(j, |m| m.joint);
                    let scale = joint.mimic.map_or(1.0, |m| m.multiplier.abs());
                    if let Some(k) = active.iter().position(|&a| a == driver) {
                        arms[k] += scale
                            * match joint.kind {
                                JointKind::Prismatic => 1.0,
                                JointKind::Fixed => 0.0,
                                _ => below,
                            };
                    }
                    below += joint.origin.translation.length() + ext;
                    link = joint.parent;
                }
                arms
            })
            .collect()
    }

    /// Checks the straight joint-space segment from `q0` to `q1`: free, or
    /// the first contact (never later than the true first contact by more
    /// than the tolerance's worth of motion). Both ends are checked like
    /// configurations (limits, finiteness).
    pub fn check_motion(&self, q0: &[f64], q1: &[f64]) -> Result<MotionResult, RobotError> {
        self.robot.joint_positions(q0)?;
        self.robot.joint_positions(q1)?;
        let dq: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| (b - a).abs()).collect();
        let arms = self.lever_arms();
        let speed: Vec<f64> = arms
            .iter()
            .map(|a| a.iter().zip(&dq).map(|(r, d)| r * d).sum())
            .collect();
        let at = |s: f64| -> Vec<f64> { q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect() };
        let mut first: Option<(f64, PairReport)> = None;
        // The least distance measured: every pair at the start (a pair skipped
        // there by its spheres is measured when they are nearer than the
        // least so far), then at every step.
        let mut clearance = f32::INFINITY;
        let boxes = self.object_boxes();
        // The links at the start, shared by every pair's first step.
        let start = self.robot.link_poses(q0)?;
        for (link, other) in self.pairs() {
            let v = speed[link]
                + if let Other::Link(b) = other {
                    speed[b]
                } else {
                    0.0
                };
            let limit = first.map_or(1.0, |(s, _)| s);
            let mut s = 0.0;
            let mut steps = 0;
            loop {
                let moved;
                let links = if s == 0.0 {
                    &start
                } else {
                    moved = self.robot.link_poses(&at(s))?;
                    &moved
                };
                // Bounding spheres far enough apart for the rest of the
                // segment: free without a shape query.
                let gap = self.sphere_gap(links, &boxes, link, other);
                if gap > f64::from(CONTACT_TOL) && gap >= v * (limit - s) {
                    if s == 0.0 && gap < f64::from(clearance) {
                        let placed = self.place_pair(links, link, other);
                        if let Some(r) = self.measure(&placed, link, other) {
                            clearance = clearance.min(r.distance);
                        }
                    }
                    break;
                }
                let placed = self.place_pair(links, link, other);
                let Some(r) = self.measure(&placed, link, other) else {
                    break;
                };
                clearance = clearance.min(r.distance);
                if r.distance <= CONTACT_TOL {
                    if first.is_none_or(|(f, _)| s < f) {
                        first = Some((s, r));
                    }
                    break;
                }
                if v <= 0.0 {
                    break;
                }
                // Free until the gap (less the tolerance) is used up.
                let step = (r.distance - CONTACT_TOL * 0.5) as f64 / v;
                s += step.max(1e-12);
                steps += 1;
                if s > limit {
                    break;
                }
                if steps > MAX_STEPS {
                    return Err(RobotError::new(
                        format!("motion of robot \"{}\"", self.robot.name),
                        "a link pair stays within a hair of contact for too long to certify",
                    ));
                }
            }
        }
        Ok(match first {
            Some((s, pair)) => MotionResult::Contact { s, pair },
            None => MotionResult::Free { clearance },
        })
    }

    /// [`check_motion`](Self::check_motion) along waypoints: the first
    /// contact as `(segment index, result)`, or free with the least
    /// clearance.
    pub fn check_trajectory(
        &self,
        waypoints: &[Vec<f64>],
    ) -> Result<(usize, MotionResult), RobotError> {
        let mut clearance = f32::INFINITY;
        for (i, w) in waypoints.windows(2).enumerate() {
            match self.check_motion(&w[0], &w[1])? {
                MotionResult::Free { clearance: c } => clearance = clearance.min(c),
                hit => return Ok((i, hit)),
            }
        }
        Ok((
            waypoints.len().saturating_sub(1),
            MotionResult::Free { clearance },
        ))
    }
}
