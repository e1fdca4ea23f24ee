//! Result, option and motion types shared by the casts of both dimensions.

use crate::math::{Pose2, Pose3, Rot2, Vec2, Vec3};
use glam::Quat;

/// How the shapes stood at the start of a cast that found contact, or that
/// the search stopped before deciding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastStatus {
    /// Separated at the start (farther than the target distance plus the
    /// tolerance); they first touch at [`CastHit::time`].
    Hit,
    /// Already touching at the start (within the target distance plus the
    /// tolerance, not overlapping) and not moving apart, or moving apart
    /// without leaving that band after having been inside the target
    /// distance (a later time would be late): the time is the start time.
    Touching,
    /// Already overlapping at the start: the time is the start time and
    /// [`CastHit::depth`] is the penetration depth (points and normal are the
    /// minimum translation distance's).
    Penetrating,
    /// Not a contact: the shapes are certified farther apart than the target
    /// distance at every time before [`CastHit::time`], and the search stopped
    /// there without deciding what happens after (its step budget,
    /// [`MAX_ADVANCE_STEPS`] or [`MAX_COMPOSITE_ADVANCE_STEPS`], ran out, or
    /// no bound on the motion exists: a
    /// half-space turning over an unbounded time). Points and normal are the
    /// closest features at `time`, where the shapes may still be well apart.
    /// Rare (near-grazing rotating pairs); a caller may stop its motion at
    /// `time` (safe: nothing was missed before it) or cast again from there,
    /// but must not take it as a contact.
    Undecided,
}

impl CastStatus {
    /// Whether the cast found a contact (`Hit`, `Touching` or
    /// `Penetrating`); `false` for [`CastStatus::Undecided`].
    pub fn is_contact(self) -> bool {
        !matches!(self, CastStatus::Undecided)
    }
}

/// The step budget of conservative advancement, the same in 2D and 3D: a
/// nonlinear cast (or a linear one that falls back on advancement) that has
/// not decided after this many steps returns [`CastStatus::Undecided`] at the
/// time reached. Typical casts take 5 to 15 steps.
pub const MAX_ADVANCE_STEPS: usize = 4000;

/// The step budget of conservative advancement in 3D when a compound, a
/// triangle mesh or a height field takes part: each step is then a distance
/// query over their parts (hundreds of times a convex pair's), so the budget
/// bounds the work of one cast as [`MAX_ADVANCE_STEPS`] does for convex
/// pairs. Such casts typically take 5 to 30 steps.
pub const MAX_COMPOSITE_ADVANCE_STEPS: usize = 1024;

/// The first contact found by a cast (or, with [`CastStatus::Undecided`], how
/// far the cast certified there is none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CastHit<V> {
    /// The time of impact, in the units of the motion (the velocities are per
    /// unit of time; `1.0` is the end of a unit step).
    pub time: f32,
    /// The witness point on A at `time`, in world space.
    pub point_a: V,
    /// The witness point on B at `time`, in world space.
    pub point_b: V,
    /// The unit contact normal at `time`, in world space, from A to B.
    pub normal: V,
    /// The penetration depth at the start when [`CastStatus::Penetrating`],
    /// else `0`.
    pub depth: f32,
    /// Separated, touching or overlapping at the start; or
    /// [`CastStatus::Undecided`]: no contact before `time`, and none decided
    /// after it.
    pub status: CastStatus,
}

/// A 2D cast hit.
pub type CastHit2 = CastHit<Vec2>;
/// A 3D cast hit.
pub type CastHit3 = CastHit<Vec3>;

/// Limits and tolerances of a cast.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CastOptions {
    /// The end of the time interval searched (the start is `0`). Default `1`.
    pub max_time: f32,
    /// Contact means "closer than this distance" (`0`: surfaces touch).
    pub target_distance: f32,
    /// The distance within which conservative advancement stops and reports
    /// contact (contact may be reported early by up to this distance of
    /// travel, never late). `0` (the default) picks `1e-4` of the smaller
    /// shape's size, but at least `1e-7` of the larger one's (and never
    /// below the f32 resolution of the coordinates): a 2 mm bullet meets a
    /// 200 m wall within about 14 µm.
    pub tolerance: f32,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            max_time: 1.0,
            target_distance: 0.0,
            tolerance: 0.0,
        }
    }
}

/// A rigid 2D motion over time: constant linear velocity of a point fixed in
/// the body (`local_center`, usually the centre of mass) and constant angular
/// velocity about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion2 {
    /// The pose at time `0`.
    pub start: Pose2,
    /// The point the body turns about, in its local frame.
    pub local_center: Vec2,
    /// The velocity of that point (world space, per unit of time).
    pub linvel: Vec2,
    /// The angular velocity (radians per unit of time, counter-clockwise).
    pub angvel: f32,
}

impl Motion2 {
    /// A body that does not move.
    pub fn fixed(pose: Pose2) -> Self {
        Motion2 {
            start: pose,
            local_center: Vec2::ZERO,
            linvel: Vec2::ZERO,
            angvel: 0.0,
        }
    }

    /// A body that translates only.
    pub fn linear(pose: Pose2, linvel: Vec2) -> Self {
        Motion2 {
            linvel,
            ..Motion2::fixed(pose)
        }
    }

    /// The pose at time `t`: the centre moves to `start·c + linvel·t` and the
    /// body turns by `angvel·t` about it.
    ///
    /// Inlined: the advancement loops call it every step, and inlined the
    /// start's centre is computed once outside the loop (left to the code
    /// layout, a change elsewhere in the crate once cost the 3D nonlinear
    /// cast benchmark 5 % more instructions).
    #[inline]
    pub fn pose_at(&self, t: f32) -> Pose2 {
        let rotation = Rot2::from_angle(self.angvel * t).mul(self.start.rotation);
        let center = self.start.transform_point(self.local_center) + self.linvel * t;
        Pose2 {
            translation: center - rotation.rotate(self.local_center),
            rotation,
        }
    }
}

/// A rigid 3D motion over time: constant linear velocity of a point fixed in
/// the body (`local_center`, usually the centre of mass) and constant angular
/// velocity (world space, an axis scaled by the rate) about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion3 {
    /// The pose at time `0`.
    pub start: Pose3,
    /// The point the body turns about, in its local frame.
    pub local_center: Vec3,
    /// The velocity of that point (world space, per unit of time).
    pub linvel: Vec3,
    /// The angular velocity (world space, radians per unit of time).
    pub angvel: Vec3,
}

impl Motion3 {
    /// A body that does not move.
    pub fn fixed(pose: Pose3) -> Self {
        Motion3 {
            start: pose,
            local_center: Vec3::ZERO,
            linvel: Vec3::ZERO,
            angvel: Vec3::ZERO,
        }
    }

    /// A body that translates only.
    pub fn linear(pose: Pose3, linvel: Vec3) -> Self {
        Motion3 {
            linvel,
            ..Motion3::fixed(pose)
        }
    }

    /// The pose at time `t`: the centre moves to `start·c + linvel·t` and the
    /// body turns by the rotation vector `angvel·t` about it. Inlined, as
    /// [`Motion2::pose_at`].
    #[inline]
    pub fn pose_at(&self, t: f32) -> Pose3 {
        let turn = Quat::from_scaled_axis(self.angvel * t);
        let rotation = (turn * self.start.rotation).normalize();
        let center = self.start.transform_point(self.local_center) + self.linvel * t;
        Pose3 {
            translation: center - rotation * self.local_center,
            rotation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motion3_turns_about_its_centre() {
        let m = Motion3 {
            start: Pose3::from_translation(Vec3::new(1.0, 0.0, 0.0)),
            local_center: Vec3::new(1.0, 0.0, 0.0),
            linvel: Vec3::new(0.0, 2.0, 0.0),
            angvel: Vec3::new(0.0, 0.0, std::f32::consts::PI),
        };
        let p = m.pose_at(1.0);
        // The centre (world (2,0,0) at t = 0) moved by linvel.
        let c = p.transform_point(m.local_center);
        assert!((c - Vec3::new(2.0, 2.0, 0.0)).length() < 1e-5, "{c}");
        // Half a turn about z: the body's origin went from 1 left of the centre
        // to 1 right of it.
        let o = p.transform_point(Vec3::ZERO);
        assert!((o - Vec3::new(3.0, 2.0, 0.0)).length() < 1e-5, "{o}");
        assert_eq!(m.pose_at(0.0), m.start);
    }

    #[test]
    fn motion2_turns_about_its_centre() {
        let m = Motion2 {
            start: Pose2::new(Vec2::ZERO, 0.0),
            local_center: Vec2::new(0.0, 1.0),
            linvel: Vec2::new(1.0, 0.0),
            angvel: std::f32::consts::FRAC_PI_2,
        };
        let p = m.pose_at(1.0);
        let c = p.transform_point(m.local_center);
        assert!((c - Vec2::new(1.0, 1.0)).length() < 1e-5, "{c}");
        // A quarter turn counter-clockwise: the origin, 1 below the centre,
        // is now 1 right of it.
        let o = p.transform_point(Vec2::ZERO);
        assert!((o - Vec2::new(2.0, 1.0)).length() < 1e-5, "{o}");
        assert!((p.rotation.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }
}
